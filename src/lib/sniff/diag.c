/*
 * Diagnostics (xmlsniff(1), DIAGNOSTICS).  Each code is kept once per
 * input, at its first occurrence, with a count of all its occurrences;
 * with --all the further occurrences are kept too, up to a cap.
 * The policy of --error, --ignore and --all is applied here too, from
 * the struct dpolicy each input's diags point at, so that every output
 * format follows it by asking diag_is_error and diag_order.  What each
 * code means is codes.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Whether c is reported as an error in the input whose diagnostics dg
 * are (codes.c: diag_error_in). */
int
diag_is_error(const struct diags *dg, enum code c)
{
	return diag_error_in(dg->pol, c);
}

/* Whether --ignore hides c from every report and count of dg. */
int
diag_ignored(const struct diags *dg, enum code c)
{
	return dg->pol != NULL && (dg->pol->code[c] & DP_IGNORE) != 0;
}

/* The cap of --all for dg, or 0 without it. */
size_t
diag_listing(const struct diags *dg)
{
	return dg->pol != NULL ? dg->pol->keep : 0;
}

/*
 * --all: whether the list of dg is at the cap, which counts the lines
 * listed: the first occurrence of each code present (which is always
 * listed) and the further ones.
 */
static int
full(const struct diags *dg)
{
	return (size_t)(dg->errors + dg->warnings) + dg->nocc >=
	    diag_listing(dg);
}

/*
 * --all: a place in the list for a further occurrence at offset off, in
 * offset order, or NULL when the list is at the cap.
 */
static struct occ *
occ_slot(struct diags *dg, uint64_t off)
{
	struct occ *o;
	size_t i, cap;

	if (full(dg))
		return NULL;
	if (dg->nocc == dg->occcap) {
		/* Grown by doubling: a short list costs little. */
		cap = dg->occcap > 0 ? dg->occcap * 2 : 16;
		if (cap > diag_listing(dg))
			cap = diag_listing(dg);
		if ((o = realloc(dg->occ, cap * sizeof(*o))) == NULL)
			return NULL;
		dg->occ = o;
		dg->occcap = cap;
	}
	/* Almost always at the end: occurrences come in offset order. */
	for (i = dg->nocc; i > 0 && dg->occ[i - 1].off > off; i--)
		continue;
	memmove(&dg->occ[i + 1], &dg->occ[i], (dg->nocc - i) *
	    sizeof(*dg->occ));
	dg->nocc++;
	o = &dg->occ[i];
	o->off = off;
	return o;
}

static void	occ_add(struct diags *, enum code, uint64_t, uint64_t,
		    uint64_t, const char *, va_list)
		    __attribute__((format(printf, 6, 0)));

/* --all: keep a further occurrence of c, or count it as unlisted. */
static void
occ_add(struct diags *dg, enum code c, uint64_t off, uint64_t line,
    uint64_t col, const char *fmt, va_list ap)
{
	struct occ *o;

	if ((o = occ_slot(dg, off)) == NULL) {
		dg->unlisted++;
		return;
	}
	o->code = c;
	o->line = line;
	o->col = col;
	vsnprintf(o->msg, sizeof(o->msg), fmt, ap);
}

/*
 * Record an occurrence of code c at byte offset off, line and col.  The
 * first occurrence keeps its position and message; later ones only count,
 * or with --all are kept in the list as well.
 * An ignored code is still recorded (a transcode with illegal bytes must
 * fail all the same) but counts neither as an error nor as a warning.
 */
void
diag_add(struct diags *dg, enum code c, uint64_t off, uint64_t line,
    uint64_t col, const char *fmt, ...)
{
	struct diag *d = &dg->d[c];
	va_list ap;

	size_t keep = diag_listing(dg);
	int ignored = diag_ignored(dg, c);

	dg->present |= (uint32_t)1 << c;
	if (d->count++ > 0) {
		if (keep > 0 && !ignored) {
			va_start(ap, fmt);
			occ_add(dg, c, off, line, col, fmt, ap);
			va_end(ap);
		}
		return;
	}
	/* The first of each code is always listed: at the cap it takes the
	 * place of the further occurrence listed last, so that the list
	 * stays at the cap while it holds any (xmlsniff(1), --max-errors). */
	if (keep > 0 && !ignored && full(dg) && dg->nocc > 0) {
		dg->nocc--;
		dg->unlisted++;
	}
	d->off = off;
	d->line = line;
	d->col = col;
	d->seq = dg->nseq++;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (ignored)
		return;
	if (diag_is_error(dg, c))
		dg->errors++;
	else
		dg->warnings++;
}

/* The codes present are the bits of a word. */
_Static_assert(D_NCODES <= 32, "struct diags's present has a bit a code");

/*
 * Fill out[] with the codes present and not ignored, by byte offset and
 * then by the order in which they were found; return how many.
 */
int
diag_order(const struct diags *dg, enum code *out)
{
	uint32_t m;
	int n = 0, i, j;

	for (m = dg->present; m != 0; m &= m - 1) {
		i = __builtin_ctz(m);
		if (!diag_ignored(dg, (enum code)i))
			out[n++] = (enum code)i;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			const struct diag *a = &dg->d[out[j - 1]];
			const struct diag *b = &dg->d[out[j]];
			enum code t;

			if (a->off < b->off ||
			    (a->off == b->off && a->seq < b->seq))
				break;
			t = out[j - 1];
			out[j - 1] = out[j];
			out[j] = t;
		}
	return n;
}

/*
 * n more occurrences of c, each one byte and one column past the one
 * before, on the line of the last one recorded (a run of NUL bytes,
 * counted at once).  With --all each is listed, up to the cap.
 */
void
diag_repeat(struct diags *dg, enum code c, uint64_t n)
{
	struct diag *d = &dg->d[c];
	char msg[sizeof(d->msg)];
	uint64_t off, line, col, i;
	size_t j;

	if (n == 0)
		return;
	dg->present |= (uint32_t)1 << c;
	d->count += n;
	if (diag_listing(dg) == 0 || diag_ignored(dg, c))
		return;
	if (full(dg)) {
		dg->unlisted += n;
		return;
	}
	/* The last one recorded: the first, or the last listed of c. */
	off = d->off;
	line = d->line;
	col = d->col;
	memcpy(msg, d->msg, sizeof(msg));
	if (d->count - n > 1) {
		for (j = dg->nocc; j > 0 && dg->occ[j - 1].code != c; j--)
			continue;
		if (j == 0) {
			dg->unlisted += n;
			return;
		}
		off = dg->occ[j - 1].off;
		line = dg->occ[j - 1].line;
		col = dg->occ[j - 1].col;
		memcpy(msg, dg->occ[j - 1].msg, sizeof(msg));
	}
	for (i = 1; i <= n; i++) {
		struct occ *o = occ_slot(dg, off + i);

		if (o == NULL) {
			dg->unlisted += n - i + 1;
			return;
		}
		o->code = c;
		o->line = line;
		o->col = col + i;
		memcpy(o->msg, msg, sizeof(msg));
	}
}

/*
 * Whether the next occurrence of c in dg would be kept with its message:
 * the first, or with --all one that the list has room for.  When not,
 * diag_repeat(dg, c, 1) counts it without one.
 */
int
diag_wants(const struct diags *dg, enum code c)
{
	return dg->d[c].count == 0 || (diag_listing(dg) > 0 &&
	    !diag_ignored(dg, c) && !full(dg));
}

/* Free the list of dg, before dg is used for another input. */
void
diag_free(struct diags *dg)
{
	free(dg->occ);
	dg->occ = NULL;
	dg->nocc = dg->occcap = 0;
	dg->unlisted = 0;
}

/*
 * dg empty, as all zero bytes would have it but for the members of each
 * code other than its count: they are read only where the count is not
 * 0, and diag_add writes them all before it sets the count.  (Clearing
 * the kilobytes of messages cost more than the rest of a small input's
 * sniff.)  The list of further occurrences is not freed: diag_free.
 */
void
diag_clear(struct diags *dg)
{
	int i;

	/* Every count, whatever the mask says: dg may be new memory. */
	dg->pol = NULL;
	for (i = 0; i < D_NCODES; i++)
		dg->d[i].count = 0;
	dg->present = 0;
	dg->nseq = 0;
	dg->errors = dg->warnings = 0;
	dg->occ = NULL;
	dg->nocc = dg->occcap = 0;
	dg->unlisted = 0;
}

/*
 * What the reports say when the list of dg was cut: how many lines it
 * has, what capped it, and how many occurrences it leaves out.  It has
 * more lines than the cap only when more codes are present than that,
 * the first of each being always listed.
 */
void
diag_cut_note(const struct diags *dg, char *buf, size_t size)
{
	size_t lines = (size_t)(dg->errors + dg->warnings) + dg->nocc;
	size_t keep = diag_listing(dg);
	char why[80];

	if (dg->pol == NULL || !dg->pol->keep_asked)
		snprintf(why, sizeof(why), "--all lists at most %zu an "
		    "input", keep);
	else if (lines > keep)
		snprintf(why, sizeof(why), "--max-errors=%zu, but the first "
		    "of each code is always listed", keep);
	else
		snprintf(why, sizeof(why), "--max-errors=%zu", keep);
	snprintf(buf, size, "the list stops at %zu line%s (%s): %llu more "
	    "occurrence%s not listed", lines, lines == 1 ? "" : "s", why,
	    (unsigned long long)dg->unlisted, dg->unlisted == 1 ? " is" :
	    "s are");
}

/* Start listing the diagnostics of dg in the order the reports give. */
void
diag_iter(struct diter *it, const struct diags *dg)
{
	it->dg = dg;
	it->n = diag_order(dg, it->order);
	it->i = 0;
	it->j = 0;
}

/*
 * The next line to report into *e; 0 at the end.  Without --all, the
 * first occurrence of each code, with its count; with it, the further
 * occurrences listed too, merged in by offset (count 0).
 */
int
diag_next(struct diter *it, struct dent *e)
{
	const struct diags *dg = it->dg;
	const struct occ *o = it->j < dg->nocc ? &dg->occ[it->j] : NULL;

	if (it->i < it->n) {
		const struct diag *g = &dg->d[it->order[it->i]];

		if (o == NULL || g->off <= o->off) {
			e->code = it->order[it->i++];
			e->off = g->off;
			e->line = g->line;
			e->col = g->col;
			e->count = g->count;
			e->msg = g->msg;
			return 1;
		}
	}
	if (o == NULL)
		return 0;
	it->j++;
	e->code = o->code;
	e->off = o->off;
	e->line = o->line;
	e->col = o->col;
	e->count = 0;
	e->msg = o->msg;
	return 1;
}

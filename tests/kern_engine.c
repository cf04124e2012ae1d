/*
 * The engine driven in process for the kernel equivalence sweeps
 * (tests/kern.h): what src/cli/main.c feed_input() does with an input held in
 * memory, at the kernel level simd_init() last chose, and the comparison
 * of every level and feed with the reference.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "mojibake.h"
#include "unit.h"
#include "kern.h"

/* Buffers as reads fill them (a file, a pipe), and splits that fall at
 * every residue of a character and of a vector block. */
const struct kfeed kern_feeds[] = {
	{ "file", IN_SIZE, IN_SIZE, 0 },
	{ "pipe", IN_SIZE, IN_SIZE, 1 },
	{ "split 4093", 4093, 4093, 0 },
	{ "split 61", 61, 61, 1 },
};
const int kern_nfeeds = (int)NELEM(kern_feeds);

void
kb_put(struct kbuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *q;

		while (cap < b->n + n)
			cap *= 2;
		if ((q = realloc(b->p, cap)) == NULL) {
			perror("kern: realloc");
			exit(2);
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void
kb_str(struct kbuf *b, const char *s)
{
	kb_put(b, s, strlen(s));
}

void
kb_byte(struct kbuf *b, int c)
{
	unsigned char u = (unsigned char)c;

	kb_put(b, &u, 1);
}

void
kb_rep(struct kbuf *b, int c, size_t n)
{
	while (n-- > 0)
		kb_byte(b, c);
}

/* The value v as one unit of w bytes (2: UTF-16, 4: UTF-32), be: big-endian. */
void
kb_unit(struct kbuf *b, uint32_t v, int w, int be)
{
	int i;

	for (i = 0; i < w; i++)
		kb_byte(b, (int)(v >> (8 * (be ? w - 1 - i : i))) & 0xFF);
}

void
kb_free(struct kbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* A fixed-seed generator (the same numbers on every machine). */
uint32_t
kern_rand(uint32_t *x)
{
	*x = *x * 69069u + 1;
	return *x >> 16;
}

/* printf to a growing string. */
static void	say(struct kbuf *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static void
say(struct kbuf *b, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	kb_put(b, line, k < 0 ? 0 : (size_t)k < sizeof(line) ? (size_t)k :
	    sizeof(line) - 1);
}

/*
 * The diagnostics of dg as text, one line each: the first occurrence of
 * every code with its count, the counts of errors and warnings, then the
 * list the reports print (with --all, every occurrence kept), as a NUL-
 * terminated string the caller frees.
 */
char *
kern_dump(const struct diags *dg)
{
	struct kbuf b = { NULL, 0, 0 };
	struct diter it;
	struct dent e;
	int i;

	for (i = 0; i < D_NCODES; i++) {
		const struct diag *d = &dg->d[i];

		if (d->count > 0)
			say(&b, "%s %llu:%llu:%llu x%llu %s\n",
			    diag_code((enum code)i), (unsigned long long)d->off,
			    (unsigned long long)d->line,
			    (unsigned long long)d->col,
			    (unsigned long long)d->count, d->msg);
	}
	say(&b, "errors %d warnings %d unlisted %llu\n", dg->errors,
	    dg->warnings, (unsigned long long)dg->unlisted);
	diag_iter(&it, dg);
	while (diag_next(&it, &e))
		say(&b, "  %s %llu:%llu:%llu x%llu %s\n", diag_code(e.code),
		    (unsigned long long)e.off, (unsigned long long)e.line,
		    (unsigned long long)e.col, (unsigned long long)e.count,
		    e.msg);
	kb_byte(&b, '\0');
	return (char *)b.p;
}

/*
 * Run p[0..n) (its Content-Type mt, or NULL) through the engine as
 * feed_input() does, the bytes arriving as f says, with --all's list
 * capped at keep (0: no --all); return kern_dump() of the diagnostics,
 * and copy them to *out when out is not NULL (without the list).
 */
char *
kern_run(const unsigned char *p, size_t n, const struct mt *mt,
    const struct kfeed *f, size_t keep, struct diags *out)
{
	static struct sniff s;
	static struct moj mj;
	struct val *v;
	size_t off = 0, have, used;
	char *dump;
	int eof, ended = !f->pipe;

	unit_keep(keep, 1);
	memset(&s, 0, sizeof(s));
	sniff(p, n < HEAD_MAX ? n : HEAD_MAX, n <= HEAD_MAX, mt, NULL, &s);
	s.dg.pol = &unit_pol;
	if ((v = val_new(&s, &s.dg)) != NULL) {
		moj_init(&mj, &s, -1, 0);
		have = f->first < n ? f->first : n;
		for (;;) {
			eof = have == n && ended;
			used = val_feed(v, p + off, have - off, eof);
			moj_feed(&mj, p + off, used);
			if (eof) {
				moj_end(&mj, &s.dg);
				break;
			}
			off += used;
			/* a pipe: one read more, which finds the end */
			if (have == n)
				ended = 1;
			else
				have = n - have > f->step ? have + f->step : n;
		}
		val_free(v);
	}
	dump = kern_dump(&s.dg);
	if (out != NULL) {
		*out = s.dg;
		out->occ = NULL;
		out->nocc = out->occcap = 0;
	}
	diag_free(&s.dg);
	unit_keep(0, 0);
	return dump;
}

/*
 * CHECK that got is want; else say where (label, what) and the first
 * lines that differ.  Return whether they are the same.
 */
int
kern_same(const char *label, const char *what, const char *want,
    const char *got)
{
	size_t i = 0, ls = 0;

	if (CHECK(strcmp(want, got) == 0))
		return 1;
	while (want[i] != '\0' && want[i] == got[i])
		if (want[i++] == '\n')
			ls = i;
	printf("  (%s: %s differs from the reference)\n", label, what);
	printf("  want: %.300s\n", want + ls);
	printf("  got:  %.300s\n", got + ls);
	return 0;
}

/*
 * The sweep of one input: at every kernel level, in every feed, without
 * --all, the diagnostics the reference gives when it reads a file; with a
 * cap of 3 and of 5000 on the list of --all (the walk then locates each
 * occurrence until the list is full, and counts after it), the same at
 * every level read as a file.
 */
void
kern_sweep(const char *label, const unsigned char *p, size_t n,
    const struct mt *mt)
{
	static const size_t keeps[] = { 0, 3, 5000 };
	char what[120], *ref, *got;
	size_t k;
	int l, i, nf, ok = 1;

	for (k = 0; k < NELEM(keeps) && ok; k++) {
		simd_init("ref");
		ref = kern_run(p, n, mt, &kern_feeds[0], keeps[k], NULL);
		nf = keeps[k] == 0 ? kern_nfeeds : 1;
		for (l = 0; l < unit_nlevels && ok; l++) {
			simd_init(unit_levels[l]);
			for (i = l == 0; i < nf && ok; i++) {
				got = kern_run(p, n, mt, &kern_feeds[i],
				    keeps[k], NULL);
				snprintf(what, sizeof(what), "%s, %s, keep %zu",
				    unit_levels[l], kern_feeds[i].name,
				    keeps[k]);
				ok = kern_same(label, what, ref, got);
				free(got);
			}
		}
		free(ref);
	}
	simd_init(NULL);
}

/* Whether the first occurrence of the code named code in dg is at off,
 * line, col and counted count times (KANY: any offset, any count); else
 * say what it is. */
int
kern_first(const struct diags *dg, const char *code, uint64_t off,
    uint64_t line, uint64_t col, uint64_t count)
{
	int c = diag_lookup(code);
	const struct diag *d;

	if (!CHECK(c >= 0))
		return 0;
	d = &dg->d[c];
	if (CHECK(d->count > 0 && (off == KANY || d->off == off) && d->line == line &&
	    d->col == col && (count == KANY || d->count == count)))
		return 1;
	printf("  (%s: got %llu:%llu:%llu x%llu, want %llu:%llu:%llu x%llu)\n",
	    code, (unsigned long long)d->off, (unsigned long long)d->line,
	    (unsigned long long)d->col, (unsigned long long)d->count,
	    (unsigned long long)off, (unsigned long long)line,
	    (unsigned long long)col, (unsigned long long)count);
	return 0;
}

/* The diagnostics of b at the default level, read as from a file. */
void
kern_default(const struct kbuf *b, struct diags *dg)
{
	simd_init(NULL);
	free(kern_run(b->p, b->n, NULL, &kern_feeds[0], 0, dg));
}

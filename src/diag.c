/*
 * Diagnostics (xmlsniff(1), DIAGNOSTICS).  Each code is kept once per
 * input, at its first occurrence, with a count of all its occurrences.
 * The policy of --error and --ignore lives here too, so that every output
 * format follows it by asking diag_is_error and diag_order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xmlsniff.h"

static const struct {
	const char	*code;
	int		 error;
} codes[D_NCODES] = {
	[D_DECL_MISMATCH] = { "decl-mismatch", 1 },
	[D_BOM_CHARSET_CONFLICT] = { "bom-charset-conflict", 1 },
	[D_BOM_FORBIDDEN] = { "bom-forbidden", 1 },
	[D_BOM_MISSING] = { "bom-missing", 1 },
	[D_BAD_DECLARATION] = { "bad-declaration", 1 },
	[D_DECL_NOT_AT_START] = { "decl-not-at-start", 1 },
	[D_ILLEGAL_SEQUENCE] = { "illegal-sequence", 1 },
	[D_ILLEGAL_CHAR] = { "illegal-char", 1 },
	[D_UNSUPPORTED_ENCODING] = { "unsupported-encoding", 1 },
	[D_NO_DECLARATION] = { "no-declaration", 1 },
	[D_UNREPRESENTABLE] = { "unrepresentable", 1 },
	[D_CHARSET_DECL_CONFLICT] = { "charset-decl-conflict", 0 },
	[D_UTF8_BOM] = { "utf8-bom", 0 },
	[D_UTF32] = { "utf32", 0 },
	[D_MISSING_DECL] = { "missing-decl", 0 },
	[D_UNREGISTERED_NAME] = { "unregistered-name", 0 },
	[D_NOT_XML_MEDIA_TYPE] = { "not-xml-media-type", 0 },
	[D_SUSPICIOUS_LABEL] = { "suspicious-label", 0 },
	[D_BOM_IN_PROLOG] = { "bom-in-prolog", 1 },
	[D_ENCODING_NOT_ALLOWED] = { "encoding-not-allowed", 1 },
};

/* --error and --ignore: codes raised to errors, codes not reported. */
static unsigned char as_error[D_NCODES];
static unsigned char ignored[D_NCODES];

const char *
diag_code(enum code c)
{
	return codes[c].code;
}

/* Whether c is reported as an error: by its nature or by --error. */
int
diag_is_error(enum code c)
{
	return codes[c].error || as_error[c];
}

/* Whether --ignore hides c from every report and count. */
int
diag_ignored(enum code c)
{
	return ignored[c];
}

/* The code named name, or -1. */
int
diag_lookup(const char *name)
{
	int i;

	for (i = 0; i < D_NCODES; i++)
		if (strcmp(codes[i].code, name) == 0)
			return i;
	return -1;
}

/*
 * --error=LIST (ignore 0) or --ignore=LIST (ignore 1): comma-separated
 * codes, or "all".  Lists add up over repeated options.  Return -1 with
 * the reason in err for an unknown or empty name; nothing is set then.
 */
int
diag_policy(const char *list, int ignore, char *err, size_t errsize)
{
	unsigned char want[D_NCODES];
	const char *p = list, *e;
	char name[64];
	int c, i;

	memset(want, 0, sizeof(want));
	do {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) >= sizeof(name) || e == p) {
			snprintf(err, errsize, "\"%.*s\" is not a diagnostic code",
			    (int)(e - p > 60 ? 60 : e - p), p);
			return -1;
		}
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = '\0';
		if (strcmp(name, "all") == 0)
			memset(want, 1, sizeof(want));
		else if ((c = diag_lookup(name)) < 0) {
			snprintf(err, errsize, "\"%s\" is not a diagnostic code "
			    "(see DIAGNOSTICS in xmlsniff(1))", name);
			return -1;
		} else
			want[c] = 1;
		p = *e == ',' ? e + 1 : e;
	} while (*e != '\0');
	for (i = 0; i < D_NCODES; i++)
		if (want[i]) {
			if (ignore)
				ignored[i] = 1;
			else
				as_error[i] = 1;
		}
	return 0;
}

/*
 * Record an occurrence of code c at byte offset off, line and col.  The
 * first occurrence keeps its position and message; later ones only count.
 * An ignored code is still recorded (a transcode with illegal bytes must
 * fail all the same) but counts neither as an error nor as a warning.
 */
void
diag_add(struct diags *dg, enum code c, uint64_t off, uint64_t line,
    uint64_t col, const char *fmt, ...)
{
	struct diag *d = &dg->d[c];
	va_list ap;

	if (d->count++ > 0)
		return;
	d->off = off;
	d->line = line;
	d->col = col;
	d->seq = dg->nseq++;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (ignored[c])
		return;
	if (diag_is_error(c))
		dg->errors++;
	else
		dg->warnings++;
}

/*
 * Fill out[] with the codes present and not ignored, by byte offset and
 * then by the order in which they were found; return how many.
 */
int
diag_order(const struct diags *dg, enum code *out)
{
	int n = 0, i, j;

	for (i = 0; i < D_NCODES; i++)
		if (dg->d[i].count > 0 && !ignored[i])
			out[n++] = (enum code)i;
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

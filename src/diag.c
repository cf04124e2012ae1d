/*
 * Diagnostics: SPEC section 4.  Each code is kept once per input, at its
 * first occurrence, with a count of all its occurrences.
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
};

const char *
diag_code(enum code c)
{
	return codes[c].code;
}

int
diag_is_error(enum code c)
{
	return codes[c].error;
}

/*
 * Record an occurrence of code c at byte offset off, line and col.  The
 * first occurrence keeps its position and message; later ones only count.
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
	if (codes[c].error)
		dg->errors++;
	else
		dg->warnings++;
}

/*
 * Fill out[] with the codes present, by byte offset and then by the order
 * in which they were found; return how many.
 */
int
diag_order(const struct diags *dg, enum code *out)
{
	int n = 0, i, j;

	for (i = 0; i < D_NCODES; i++)
		if (dg->d[i].count > 0)
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

/*
 * The differential check's generated inputs: a prolog and a root element
 * around text bytes, in every encoding form, with or without a BOM, a
 * declaration and a charset label (struct diff_gen, fuzz/diff.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

static const struct gen_form {
	const char	*name;		/* also the iconv name */
	int		 unit;		/* code unit size */
	int		 be;		/* big endian units */
	const char	*bom;		/* its own BOM, or NULL */
	size_t		 bomlen;
} forms[] = {
	{ "UTF-8", 1, 0, "\xEF\xBB\xBF", 3 },
	{ "UTF-16BE", 2, 1, "\xFE\xFF", 2 },
	{ "UTF-16LE", 2, 0, "\xFF\xFE", 2 },
	{ "UTF-32BE", 4, 1, "\0\0\xFE\xFF", 4 },
	{ "UTF-32LE", 4, 0, "\xFF\xFE\0\0", 4 },
	{ "ISO-8859-1", 1, 0, NULL, 0 },
	{ "windows-1252", 1, 0, NULL, 0 },
	{ "ISO-8859-2", 1, 0, NULL, 0 },
	{ "Shift_JIS", 1, 0, NULL, 0 },
	{ "EUC-JP", 1, 0, NULL, 0 },
	{ "US-ASCII", 1, 0, NULL, 0 }
};

static const char *const labels[] = {
	"UTF-8", "UTF-16", "UTF-16BE", "UTF-16LE", "UTF-32", "ISO-8859-1",
	"windows-1252", "ISO-8859-2", "Shift_JIS", "EUC-JP", "US-ASCII",
	"latin1"
};

#define NFORMS	(sizeof(forms) / sizeof(forms[0]))
#define NLABELS	(sizeof(labels) / sizeof(labels[0]))

size_t
diff_nforms(void)
{
	return NFORMS;
}

size_t
diff_nlabels(void)
{
	return NLABELS;
}

const char *
diff_form_name(size_t i)
{
	return i < NFORMS ? forms[i].name : NULL;
}

const char *
diff_label(size_t i)
{
	return i < NLABELS ? labels[i] : NULL;
}

/* Append ASCII string a encoded in form f; return the new length or 0. */
static size_t
put_ascii(const struct gen_form *f, const char *a, unsigned char *out,
    size_t n, size_t cap)
{
	size_t i, k;

	for (; *a != '\0'; a++) {
		if (n + (size_t)f->unit > cap)
			return 0;
		for (i = 0; i < (size_t)f->unit; i++) {
			k = f->be ? (size_t)f->unit - 1 - i : i;
			out[n + k] = i == 0 ? (unsigned char)*a : 0;
		}
		n += (size_t)f->unit;
	}
	return n;
}

/*
 * Build a document: a BOM, a declaration, <a>, the text bytes and </a>, in
 * the form g->form.  Code units of the text that are '<', '&' or '>'
 * become 'x', so that the document stays well-formed whatever else the
 * bytes are (XML 1.0 [14] CharData); a partial last unit is dropped.
 * Return the length (0 if it does not fit in cap); *charset is the label
 * to give with it, or NULL.
 */
size_t
diff_build(const struct diff_gen *g, unsigned char *out, size_t cap,
    const char **charset)
{
	static const char *const boms[] = { NULL, NULL, "\xEF\xBB\xBF",
	    "\xFE\xFF", "\xFF\xFE" };
	const struct gen_form *f;
	const char *bom;
	char decl[128];
	size_t n = 0, i, tl;

	if (g->form >= NFORMS || g->bom < 0 || g->bom >= DIFF_NBOMS ||
	    g->decl < 0 || g->decl >= DIFF_NDECLS || g->label >= NLABELS ||
	    g->charset > NLABELS)
		return 0;
	f = &forms[g->form];
	*charset = g->charset > 0 ? labels[g->charset - 1] : NULL;
	bom = g->bom == 1 ? f->bom : boms[g->bom];
	if (bom != NULL) {
		size_t bl = g->bom == 1 ? f->bomlen : strlen(bom);

		if (bl > cap)
			return 0;
		memcpy(out, bom, bl);
		n = bl;
	}
	if (g->decl == 1)
		snprintf(decl, sizeof(decl), "<?xml version=\"1.0\"?>");
	else if (g->decl == 2)
		snprintf(decl, sizeof(decl),
		    "<?xml version=\"1.0\" encoding=\"%s\"?>", labels[g->label]);
	else
		decl[0] = '\0';
	if ((n = put_ascii(f, decl, out, n, cap)) == 0 && decl[0] != '\0')
		return 0;
	if ((n = put_ascii(f, "<a>", out, n, cap)) == 0)
		return 0;
	tl = g->textlen - g->textlen % (size_t)f->unit;
	if (n + tl > cap)
		return 0;
	for (i = 0; i < tl; i += (size_t)f->unit) {
		const unsigned char *u = g->text + i;
		uint32_t c = 0;
		size_t k;

		for (k = 0; k < (size_t)f->unit; k++)
			c |= (uint32_t)u[k] << 8 * (f->be ?
			    (size_t)f->unit - 1 - k : k);
		if (c == '<' || c == '&' || c == '>') {
			if (put_ascii(f, "x", out, n + i, cap) == 0)
				return 0;
		} else
			memcpy(out + n + i, u, (size_t)f->unit);
	}
	n += tl;
	return put_ascii(f, "</a>", out, n, cap);
}

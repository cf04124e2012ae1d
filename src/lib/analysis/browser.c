/*
 * --browser: what a web browser makes of an entity.  Browsers decode by
 * the WHATWG Encoding Standard, whose labels and encodings are not the
 * IANA registry's (src/lib/analysis/whatwg.h, generated from the standard's table):
 * "iso-8859-1" and "us-ascii" name windows-1252, "utf-16" names UTF-16LE,
 * UTF-32 and EBCDIC do not exist.  Their XML parsers take the encoding
 * from, in this order: a UTF-8 or UTF-16 BOM, the charset parameter, the
 * encoding declaration when its label is known, UTF-8.
 *
 * The entity's bytes are then compared, as they stream past the
 * validator, between the XML processor's decoding (XML 1.0 Appendix F,
 * RFC 7303 section 3) and the browser's; the first byte where the
 * characters differ is reported as browser-differs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "browser.h"

enum wkind {
	W_UTF8,
	W_UTF16BE,
	W_UTF16LE,
	W_SB,
	W_MB,
	W_STATEFUL,
	W_REPLACEMENT,
	W_USER
};

struct whatwg_enc {
	const char	*name;
	enum wkind	 kind;
	const char	*iconv;
	const char	*iana;		/* the name for XML to read the same */
};

struct whatwg_label {
	const char	*label;
	int		 idx;
};

#include "whatwg.h"

/* How the two decodings are compared. */
enum mode {
	M_SAME,		/* they cannot differ */
	M_WHOLE,	/* they differ from the first character on */
	M_MAP,		/* byte by byte: diff[] says which bytes differ */
	M_CHAR		/* character by character, through two iconvs */
};


static int
label_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct whatwg_label *)e)->label);
}

/* The standard's "get an encoding": the encoding label names (white
 * space around it stripped, any case), or NULL. */
static const struct whatwg_enc *
whatwg_get(const char *label)
{
	char low[64];
	const struct whatwg_label *l;
	size_t n;

	while (*label == ' ' || *label == '\t' || *label == '\n' ||
	    *label == '\f' || *label == '\r')
		label++;
	enc_lower(low, label, sizeof(low));
	n = strlen(low);
	while (n > 0 && strchr(" \t\n\f\r", low[n - 1]) != NULL)
		low[--n] = '\0';
	l = bsearch(low, whatwg_labels, sizeof(whatwg_labels) /
	    sizeof(whatwg_labels[0]), sizeof(whatwg_labels[0]), label_cmp);
	return l != NULL ? &whatwg_encs[l->idx] : NULL;
}

static const struct whatwg_enc *
whatwg_named(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(whatwg_encs) / sizeof(whatwg_encs[0]); i++)
		if (strcmp(whatwg_encs[i].name, name) == 0)
			return &whatwg_encs[i];
	return NULL;
}

/*
 * The browser's encoding for s, and where it comes from.  The BOM is
 * sniffed on the bytes (Encoding Standard, "decode"): FF FE 00 00 is a
 * UTF-16LE BOM there.  A declaration is seen only where a browser reads
 * it, in ASCII-compatible or 16-bit bytes; one naming UTF-16 in
 * ASCII-compatible bytes means UTF-8, as the HTML Standard's prescan
 * has it, since those bytes cannot be UTF-16.
 */
static void
choose(struct browser *b, const struct sniff *s)
{
	const struct whatwg_enc *e;

	snprintf(b->from, sizeof(b->from), "BOM");
	if (s->bom == BOM_UTF8) {
		b->enc = whatwg_named("UTF-8");
		return;
	}
	if (s->bom == BOM_UTF16BE) {
		b->enc = whatwg_named("UTF-16BE");
		return;
	}
	if (s->bom == BOM_UTF16LE || s->bom == BOM_UTF32LE) {
		b->enc = whatwg_named("UTF-16LE");
		return;
	}
	snprintf(b->from, sizeof(b->from), "charset");
	if (s->mt != NULL && s->mt->has_charset &&
	    (e = whatwg_get(s->mt->charset)) != NULL) {
		b->enc = e;
		return;
	}
	snprintf(b->from, sizeof(b->from), "declaration");
	if (s->bom == BOM_NONE && s->decl.present && s->decl.has_encoding &&
	    (s->pat == PAT_ASCII || s->pat == PAT_16BE ||
	    s->pat == PAT_16LE) && (e = whatwg_get(s->decl.encoding)) != NULL) {
		if (s->pat == PAT_ASCII && (e->kind == W_UTF16BE ||
		    e->kind == W_UTF16LE))
			e = whatwg_named("UTF-8");
		b->enc = e;
		return;
	}
	/* A label the standard does not know is passed over. */
	if (s->mt != NULL && s->mt->has_charset)
		snprintf(b->from, sizeof(b->from), "default: no browser knows "
		    "\"%.60s\"", s->mt->charset);
	else if (s->decl.present && s->decl.has_encoding)
		snprintf(b->from, sizeof(b->from), "default: no browser knows "
		    "\"%.60s\"", s->decl.encoding);
	else
		snprintf(b->from, sizeof(b->from), "default");
	b->enc = whatwg_named("UTF-8");
}

/* A decoder to the tool's UTF-32LE for name, or (iconv_t)-1. */
static iconv_t
open_dec(const char *name)
{
	return iconv_open_held(enc_u32le(), name);
}

/* The XML processor's byte table for s, when it reads single bytes. */
static int
xml_map(const struct sniff *s, uint32_t *map)
{
	iconv_t cd;
	int ok;
	int i;

	if (s->dec == FORM_UTF8 && s->enc.family == ENC_F_UTF8)
		return 0;
	if (s->dec != FORM_ICONV && s->dec != FORM_SB)
		return 0;
	if ((cd = open_dec(s->dec == FORM_ICONV ? s->dec_iconv :
	    enc_iconv(&s->enc))) == (iconv_t)-1)
		return 0;
	ok = sb_build(cd, map);
	iconv_close(cd);
	for (i = 0; ok && i < 0x80; i++)
		ok = map[i] == (uint32_t)i;
	return ok;
}

/* Whether the XML processor reads s in ASCII-compatible bytes. */
static int
xml_ascii(const struct sniff *s)
{
	return s->dec == FORM_UTF8 || s->dec == FORM_SB ||
	    (s->dec == FORM_ICONV && (s->enc.family == ENC_F_ASCII ||
	    s->enc.family == ENC_F_UTF8 || s->enc.family == ENC_F_OTHER) &&
	    s->pat != PAT_EBCDIC && s->pat != PAT_16BE && s->pat != PAT_16LE &&
	    s->pat != PAT_32BE && s->pat != PAT_32LE);
}

/* Every byte of 80-FF differs; so do ESC, SO and SI where the XML
 * encoding shifts with them. */
static void
high_differs(struct browser *b, int shifts)
{
	memset(b->diff, 0, 0x80);
	memset(b->diff + 0x80, 1, 0x80);
	if (shifts)
		b->diff[0x1B] = b->diff[0x0E] = b->diff[0x0F] = 1;
	b->mode = M_MAP;
}

/* Both decodings are byte tables: compare them byte by byte. */
static void
set_maps(struct browser *b, const uint32_t *xm,
    const uint32_t *bm)
{
	int i;

	for (i = 0; i < 256; i++) {
		b->diff[i] = xm[i] != bm[i];
		b->xmap[i] = xm[i];
		b->bmap[i] = bm[i];
	}
	b->maps = 1;
	b->mode = M_MAP;
}

/* Decide how the decodings of s are compared. */
static void
plan(struct browser *b, const struct sniff *s)
{
	uint32_t xm[256], bm[256];
	enum wkind k = b->enc->kind;
	iconv_t cd;
	int i;

	/* What XML cannot read at all (its errors say so) is not
	 * compared. */
	b->mode = M_SAME;
	if (s->dec == FORM_NONE || !s->have_enc)
		return;
	b->mode = M_WHOLE;
	switch (k) {
	case W_UTF8:
		if (s->dec == FORM_UTF8 && s->enc.family == ENC_F_UTF8)
			b->mode = M_SAME;
		else if (xml_ascii(s))
			high_differs(b, s->dec == FORM_ICONV &&
			    !xml_map(s, xm));
		return;
	case W_UTF16BE:
		if (s->dec == FORM_UTF16BE)
			b->mode = M_SAME;
		return;
	case W_UTF16LE:
		if (s->dec == FORM_UTF16LE)
			b->mode = M_SAME;
		return;
	case W_REPLACEMENT:
		return;
	case W_USER:
		if (!xml_ascii(s))
			return;
		if (!xml_map(s, xm)) {
			high_differs(b, s->dec == FORM_ICONV);
			return;
		}
		/* The standard's x-user-defined, decoded here (no iconv
		 * has it): 00-7F are ASCII, 80-FF are U+F780-U+F7FF. */
		for (i = 0; i < 256; i++)
			bm[i] = i < 0x80 ? (uint32_t)i : 0xF700u + (uint32_t)i;
		set_maps(b, xm, bm);
		return;
	case W_SB:
		if (!xml_ascii(s))
			return;
		if (!xml_map(s, xm)) {
			high_differs(b, s->dec == FORM_ICONV);
			return;
		}
		/* Without the browser's table nothing can be said. */
		if ((cd = open_dec(b->enc->iconv)) == (iconv_t)-1) {
			b->mode = M_SAME;
			return;
		}
		i = sb_build(cd, bm);
		iconv_close(cd);
		if (!i) {
			high_differs(b, 0);
			return;
		}
		for (i = 0x80; i < 0xA0; i++)
			if (bm[i] == SB_BAD)
				bm[i] = (uint32_t)i;
		set_maps(b, xm, bm);
		return;
	case W_MB:
	case W_STATEFUL:
		if (!xml_ascii(s))
			return;
		if (s->dec == FORM_ICONV && strcasecmp(s->dec_iconv,
		    b->enc->iconv) == 0) {
			b->mode = M_SAME;
			return;
		}
		if (s->dec != FORM_ICONV || xml_map(s, xm)) {
			high_differs(b, 0);
			return;
		}
		/* Both multi-byte: character by character, where XML's
		 * decoder has no shift states and the browser's exists
		 * here (else nothing can be said). */
		b->mode = M_SAME;
		if ((b->xcd = open_dec(s->dec_iconv)) == (iconv_t)-1)
			return;
		if (!icap_stateless(b->xcd) || k != W_MB)
			high_differs(b, 1);
		else if ((b->bcd = open_dec(b->enc->iconv)) != (iconv_t)-1) {
			b->mode = M_CHAR;
			return;
		}
		iconv_close(b->xcd);
		b->xcd = (iconv_t)-1;
		return;
	}
}

/*
 * The one character that cd decodes from p (n bytes, n > 0): its length,
 * with its code point in *c; 0 where the bytes are not one whole
 * character (an illegal or truncated sequence).
 */
static size_t
one_char(iconv_t cd, const unsigned char *p, size_t n, uint32_t *c)
{
	size_t len;

	for (len = 1; len <= 4 && len <= n; len++) {
		char *ip = (char *)(uintptr_t)p, *op;
		unsigned char out[8];
		size_t il = len, ol = sizeof(out);

		op = (char *)out;
		iconv(cd, NULL, NULL, NULL, NULL);
		if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1) {
			if (il != 0 || ol != sizeof(out) - 4)
				return 0;
			*c = (uint32_t)out[0] | (uint32_t)out[1] << 8 |
			    (uint32_t)out[2] << 16 | (uint32_t)out[3] << 24;
			return len;
		}
		if (errno != EINVAL)
			return 0;
	}
	return 0;
}

/* What a decoder made of a byte or bytes: U+HHHH, or nothing. */
static void
cp_text(char *buf, size_t size, int ok, uint32_t c)
{
	if (!ok || c == SB_BAD)
		snprintf(buf, size, "no character");
	else
		snprintf(buf, size, "U+%04X", (unsigned)c);
}

/* The first difference is at the current byte: say what is there. */
static void differs(struct browser *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static void
differs(struct browser *b, const char *fmt, ...)
{
	va_list ap;

	b->found = 1;
	b->at = b->off;
	b->at_line = b->line;
	b->at_col = b->col;
	va_start(ap, fmt);
	vsnprintf(b->what, sizeof(b->what), fmt, ap);
	va_end(ap);
}

/* Count byte c (a whole character) into the line and column: CR LF,
 * CR and LF each end a line (XML 1.0 section 2.11). */
static void
advance(struct browser *b, unsigned char c)
{
	if (c == '\n' && b->cr)
		b->col = 1;
	else if (c == '\n' || c == '\r') {
		b->line++;
		b->col = 1;
	} else
		b->col++;
	b->cr = c == '\r';
}

/* Let go of what b holds (b: zeros, or begun). */
void
browser_free(struct browser *b)
{
	if (b->xcd != (iconv_t)-1 && b->xcd != NULL)
		iconv_close(b->xcd);
	if (b->bcd != (iconv_t)-1 && b->bcd != NULL)
		iconv_close(b->bcd);
	b->xcd = b->bcd = (iconv_t)-1;
}

/* Start on the input whose sniff is s (b: zeros, or begun before). */
void
browser_begin(struct browser *b, const struct sniff *s)
{
	browser_free(b);
	memset(b, 0, sizeof(*b));
	b->xcd = b->bcd = (iconv_t)-1;
	b->line = b->col = 1;
	b->xname = s->have_enc ? s->encname : "unknown";
	choose(b, s);
	plan(b, s);
}

/*
 * The next n bytes of the input, in order, each once; the first call
 * begins at its first byte.
 */
void
browser_feed(struct browser *b, const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (b->found || n == 0)
		return;
	switch (b->mode) {
	case M_SAME:
		return;
	case M_WHOLE:
		differs(b, "%s", "every character is read otherwise");
		return;
	case M_MAP:
		for (; i < n; i++, b->off++) {
			if (b->diff[p[i]]) {
				char x[40], w[40];

				cp_text(x, sizeof(x), b->maps, b->xmap[p[i]]);
				cp_text(w, sizeof(w), b->maps, b->bmap[p[i]]);
				if (b->maps)
					differs(b, "byte 0x%02X is %s for XML, %s for "
					    "a browser", p[i], x, w);
				else
					differs(b, "byte 0x%02X is read otherwise",
					    p[i]);
				return;
			}
			advance(b, p[i]);
		}
		return;
	case M_CHAR:
		while (i < n) {
			uint32_t xc, bc;
			size_t xl, bl;

			if (p[i] < 0x80) {
				advance(b, p[i]);
				i++;
				b->off++;
				continue;
			}
			xl = one_char(b->xcd, p + i, n - i, &xc);
			bl = one_char(b->bcd, p + i, n - i, &bc);
			if (xl == 0 && bl == 0) {
				/* Illegal for both: XML says so. */
				i++;
				b->off++;
				b->col++;
				continue;
			}
			if (bl != xl || bc != xc) {
				char x[40], w[40];

				cp_text(x, sizeof(x), xl != 0, xc);
				cp_text(w, sizeof(w), bl != 0, bc);
				differs(b, "bytes 0x%02X 0x%02X are %s for XML, "
				    "%s for a browser", p[i], i + 1 < n ?
				    p[i + 1] : 0, x, w);
				return;
			}
			i += xl;
			b->off += xl;
			b->col++;
		}
		return;
	}
}

/* The browser's encoding of the current input (its WHATWG name). */
const char *
browser_name(const struct browser *b)
{
	return b->enc != NULL ? b->enc->name : "UTF-8";
}

/*
 * The end of the input: browser-differs when the characters differ
 * (XML 1.0 Appendix F and RFC 7303 section 3 for the XML processor, the
 * Encoding Standard for the browser), at the first byte that does.
 */
void
browser_end(struct browser *b, struct sniff *s)
{
	char fix[160];
	struct enc e;

	if (b->xcd != (iconv_t)-1)
		iconv_close(b->xcd);
	if (b->bcd != (iconv_t)-1)
		iconv_close(b->bcd);
	b->xcd = b->bcd = (iconv_t)-1;
	b->mode = M_SAME;	/* --fix reads the input again: not twice */
	if (!b->found)
		return;
	if (s->bom == BOM_NONE && enc_is_16(s->enc.family))
		snprintf(fix, sizeof(fix), "give it a BOM "
		    "(--transcode-to=UTF-16) or transcode it to UTF-8 "
		    "(--transcode-to=UTF-8)");
	else if ((b->enc->kind == W_SB || b->enc->kind == W_MB) &&
	    enc_lookup(b->enc->iana, &e) == 0 && e.registered &&
	    strcasecmp(e.name, s->encname) != 0)
		snprintf(fix, sizeof(fix), "declare \"%.60s\" if the bytes are "
		    "in it, or transcode to UTF-8 (--transcode-to=UTF-8)",
		    e.name);
	else
		snprintf(fix, sizeof(fix), "transcode to UTF-8 "
		    "(--transcode-to=UTF-8)");
	diag_add(&s->dg, D_BROWSER_DIFFERS, b->at, b->at_line, b->at_col,
	    "a browser reads this as %s of the WHATWG Encoding Standard "
	    "(from the %s), XML as %s: %s; %s",
	    b->enc->name, b->from, b->xname, b->what, fix);
}

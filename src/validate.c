/*
 * Validation (XML 1.0 section 4.3.3: bytes illegal in the entity's
 * encoding are a fatal error).  The whole entity is decoded in its
 * authoritative encoding; illegal or truncated sequences and characters
 * that are not XML Chars (XML 1.0 [2], XML 1.1 [2] and [2a]) are errors.
 * UTF-8, UTF-16 and UTF-32 have their own decoders (utf.h); other
 * encodings go through iconv(3), by a byte table for single-byte
 * encodings.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "testhooks.h"
#include "val.h"

static struct val *spare;




/* Start validating the entity s; diagnostics go to dg.  NULL when it
 * cannot be decoded (already diagnosed by sniff). */
struct val *
val_new(const struct sniff *s, struct diags *dg)
{
	struct val *v;

	if (s->dec == FORM_NONE)
		return NULL;
	/* One validator is kept for the next input: no allocation a file. */
	if ((v = spare) != NULL) {
		spare = NULL;
		memset(v, 0, sizeof(*v));
	} else if ((v = calloc(1, sizeof(*v))) == NULL)
		return NULL;
	v->dec = s->dec;
	v->xml11 = s->xml11;
	v->dg = dg;
	v->encname = s->encname;
	v->skip = s->bomlen;
	v->ws_lead = s->ws_lead;
	v->pos.line = v->pos.col = 1;
	v->cd = (iconv_t)-1;
	if (v->dec == FORM_ICONV) {
		if ((v->dc = val_dcache(s->dec_iconv)) == NULL) {
			free(v);
			return NULL;
		}
		v->cd = v->dc->cd;
		v->sb = v->dc->sb;
		v->ascii = v->dc->ascii;
		v->stateless = v->dc->stateless;
		v->sbmap = v->dc->sbmap;
		v->simple = v->dc->simple;
		v->iso8859 = strncmp(s->encname, "ISO-8859-", 9) == 0;
		/* UCS-2 (UCS-4) resynchronises by whole code units. */
		v->step = enc_is_16(s->enc.family) ? 2 :
		    enc_is_32(s->enc.family) ? 4 : 1;
	}
	late_init(&v->late, s, v->sb ? v->sbmap : NULL);
	/* Decoded blocks have no offsets for their characters; the
	 * declaration at the start goes a character at a time, so that the
	 * lexer knows it for the one already reported. */
	v->exact_to = v->late.decoded && s->decl.present ? s->decl.end : 0;
	return v;
}

void
val_free(struct val *v)
{
	if (v == NULL)
		return;
	if (v->dc != NULL)
		v->dc->busy = 0;
	if (spare == NULL)
		spare = v;
	else
		free(v);
}

/* The byte table of a single-byte encoding, or NULL. */
const uint32_t *
val_sbmap(const struct val *v)
{
	return v->sb ? v->sbmap : NULL;
}

/* XMLSNIFF_SIMD=ref (simd/select.c), or val_char_only = 1: every path a
 * character at a time (for tests and fuzz targets). */
int val_char_only = -1;

int
val_ref(void)
{
	if (val_char_only < 0)
		simd_ready();	/* which sets it */
	return val_char_only;
}

/* Send every decoded character, with its position, to fn; runs of plain
 * characters (which need no position) to run, and blocks of decoded
 * characters of a stateless multi-byte encoding to block, each if it is
 * not NULL. */
void
val_set_sink(struct val *v, val_sink_fn fn, val_run_fn run,
    val_block_fn block, void *ctx)
{
	v->sink = fn;
	/* XMLSNIFF_SIMD=ref: every character through fn, the reference
	 * that the run paths are tested against. */
	v->run = val_ref() ? NULL : run;
	v->block = val_ref() ? NULL : block;
	v->sink_ctx = ctx;
}

/* Account for a plain run of k bytes that ends at line l, column c;
 * return k. */
size_t
val_run_done(struct val *v, size_t k, uint64_t l, uint64_t c)
{
	v->pos.line = l;
	v->pos.col = c;
	if (k > 0) {
		v->off += k;
		v->pos.prev = 0;
	}
	return k;
}

/* The plain prefix of p[0..n) in form (FORM_UTF8, FORM_UTF16BE/LE,
 * FORM_UTF32BE/LE), counted (plain_utf8 and its siblings, src/simd/). */
static size_t
plain_form(int form, const unsigned char *p, size_t n, uint64_t *l,
    uint64_t *c)
{
	switch (form) {
	case FORM_UTF8:
		return plain_utf8(p, n, l, c);
	case FORM_UTF16BE:
	case FORM_UTF16LE:
		return plain_utf16(p, n, form == FORM_UTF16BE, l, c);
	default:
		return plain_utf32(p, n, form == FORM_UTF32BE, l, c);
	}
}

/*
 * Take the plain run p[0..k) whose counters end at *l, *c: hand it to the
 * run sink, if any, and return how many bytes it took, with the counters
 * for just those (form: FORM_UTF8, FORM_UTF16BE/LE or FORM_UTF32BE/LE).
 */
size_t
val_take_run(struct val *v, const unsigned char *p, size_t k, int form,
    uint64_t *l, uint64_t *c)
{
	size_t m;

	if (v->sink == NULL || k == 0)
		return k;
	if ((m = v->run(v->sink_ctx, p, k, form)) == k)
		return k;
	*l = v->pos.line;
	*c = v->pos.col;
	if (m == 0)
		return 0;
	return plain_form(form, p, m, l, c);
}

/* A late XML declaration at offset at (once per offset). */
void
val_late_report(struct val *v, uint64_t at, uint64_t line, uint64_t col)
{
	const struct diag *d = &v->dg->d[D_DECL_NOT_AT_START];

	if (d->count == 0 || d->off != at)
		diag_add(v->dg, D_DECL_NOT_AT_START, at, line, col,
		    "an XML declaration after the start of the entity: "
		    "\"<?xml\" may stand only at the very beginning "
		    "(XML 1.0 [22], [23]; the target \"xml\" is "
		    "reserved, [17]); remove it");
}

/* Account for character c that starts at byte offset off. */
void
val_put(struct val *v, uint32_t c, uint64_t off)
{
	if (v->sink != NULL)
		v->sink(v->sink_ctx, c, off, v->pos.line, v->pos.col);
	if (v->late.decoded && late_char(&v->late, (long)c, off,
	    v->pos.line, v->pos.col))
		val_late_report(v, v->late.lt_off, v->late.lt_line, v->late.lt_col);
	if (!xml_char_ok(c, v->xml11)) {
		if (c >= 0xD800 && c <= 0xDFFF)
			diag_add(v->dg, D_ILLEGAL_CHAR, off, v->pos.line,
			    v->pos.col,
			    "U+%04X (a surrogate) is not an XML Char; the "
			    "bytes are damaged", (unsigned)c);
		else if (v->xml11 && c != 0 && c < 0xFFFE)
			diag_add(v->dg, D_ILLEGAL_CHAR, off, v->pos.line,
			    v->pos.col,
			    "U+%04X may not appear literally in XML 1.1 "
			    "(RestrictedChar [2a]); write &#x%X; instead",
			    (unsigned)c, (unsigned)c);
		else
			diag_add(v->dg, D_ILLEGAL_CHAR, off, v->pos.line,
			    v->pos.col,
			    "U+%04X is not an XML Char (XML 1.0 [2]); remove "
			    "it%s", (unsigned)c, c == 0 ? " (a NUL byte: is "
			    "this a binary file, or mislabelled UTF-16?)" : "");
	}
	linepos_step(&v->pos, c, v->xml11);
}

void
val_illegal(struct val *v, const unsigned char *p, size_t len, int truncated)
{
	char hex[3 * 4 + 1], why[64] = "";
	size_t i, k = 0;

	/* An occurrence that is only counted needs no message. */
	if (!diag_wants(v->dg, D_ILLEGAL_SEQUENCE)) {
		diag_repeat(v->dg, D_ILLEGAL_SEQUENCE, 1);
		return;
	}
	for (i = 0; i < len && i < 4; i++)
		k += (size_t)snprintf(hex + k, sizeof(hex) - k, "%s%02X",
		    i ? " " : "", p[i]);
	/* The Unicode forms say why (utf.c), as "(an overlong encoding)". */
	if (!truncated && v->dec != FORM_ICONV) {
		char u[56];

		if (v->dec == FORM_UTF8)
			snprintf(u, sizeof(u), "%s", utf8_why(p, len));
		else if (v->dec == FORM_UTF16BE || v->dec == FORM_UTF16LE)
			utf16_why(p, v->dec == FORM_UTF16BE, u, sizeof(u));
		else
			utf32_why(p, v->dec == FORM_UTF32BE, u, sizeof(u));
		snprintf(why, sizeof(why), " (%s)", u);
	}
	diag_add(v->dg, D_ILLEGAL_SEQUENCE, v->off, v->pos.line,
	    v->pos.col, "%s %s %s in %s%s; %s", truncated ? "the entity "
	    "ends inside a character: bytes" : "bytes", hex, truncated ?
	    "are incomplete" : "are not valid", v->encname, why, truncated ?
	    "the file is truncated" : "the entity is not in this encoding: "
	    "declare the encoding it is in, or re-encode it");
}

/* Unicode forms: p[0..n) are whole input bytes from v->off on. */
static size_t
feed_unicode(struct val *v, const unsigned char *p, size_t n, int eof)
{
	const int form = v->dec == FORM_UTF8 ? FORM_UTF8 :
	    v->dec == FORM_UTF16BE ? FORM_UTF16BE : v->dec == FORM_UTF16LE ?
	    FORM_UTF16LE : v->dec == FORM_UTF32BE ? FORM_UTF32BE : FORM_UTF32LE;
	/* p[i..declined) is plain, but the run sink stopped at a character
	 * (at offset stopped): that one goes through the character path,
	 * and the rest is offered again without being scanned again (which
	 * was quadratic). */
	size_t i = 0, declined = 0, stopped = 0;

	while (i < n) {
		uint32_t c;
		int r;

		/* Runs of plain characters need only counting (src/simd/). */
		if ((v->sink == NULL || v->run != NULL) && !v->xml11 &&
		    v->pos.prev != '\r' && i >= declined) {
			uint64_t l = v->pos.line, cc = v->pos.col;
			size_t k = plain_form(form, p + i, n - i, &l, &cc);
			size_t t = val_take_run(v, p + i, k, form, &l, &cc);

			if (t < k) {
				declined = i + k;
				stopped = i + t;
			}
			i += val_run_done(v, t, l, cc);
			if (i >= n)
				break;
		} else if (i < declined && i > stopped) {
			size_t t = v->run(v->sink_ctx, p + i, declined - i,
			    form);

			if (t > 0) {
				uint64_t l = v->pos.line, cc = v->pos.col;

				t = plain_form(form, p + i, t, &l, &cc);
				i += val_run_done(v, t, l, cc);
			}
			stopped = i;
			if (i >= n)
				break;
			if (i >= declined)
				continue;
		}
		if (v->dec == FORM_UTF8 && p[i] == 0 && v->sink == NULL) {
			/* A run of NUL bytes (a binary file, a sparse hole):
			 * one illegal-char, counted. */
			size_t k = 1;

			while (i + k < n && p[i + k] == 0)
				k++;
			val_put(v, 0, v->off);
			diag_repeat(v->dg, D_ILLEGAL_CHAR, k - 1);
			v->pos.col += k - 1;
			i += k;
			v->off += k;
			continue;
		}
		if (v->dec == FORM_UTF8) {
			r = utf8_dec(p + i, n - i, &c);
		} else if (v->dec == FORM_UTF16BE || v->dec == FORM_UTF16LE)
			r = utf16_dec(p + i, n - i, v->dec == FORM_UTF16BE, &c);
		else
			r = utf32_dec(p + i, n - i, v->dec == FORM_UTF32BE, &c);
		if (r > 0) {
			val_put(v, c, v->off);
		} else if (r < 0) {
			val_illegal(v, p + i, (size_t)-r, 0);
			v->pos.col++;
			r = -r;
		} else {
			if (!eof)
				break;
			val_illegal(v, p + i, n - i, 1);
			r = (int)(n - i);
		}
		i += (size_t)r;
		v->off += (uint64_t)r;
	}
	return i;
}

/* The leading white space ends at p + j: is an XML declaration there?
 * (XML 1.0 [22]: it must come first.) */
static void
ws_lead_end(struct val *v, const unsigned char *p, size_t n)
{
	struct linepos pos = v->pos;
	size_t j;

	for (j = 0; j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\n' ||
	    p[j] == '\r'); j++)
		linepos_step(&pos, p[j], 0);
	if (j == n)
		return;
	v->ws_lead = 0;
	if (n - j >= 6 && memcmp(p + j, "<?xml", 5) == 0 &&
	    (p[j + 5] == ' ' || p[j + 5] == '\t' || p[j + 5] == '\n' ||
	    p[j + 5] == '\r' || p[j + 5] == '?'))
		diag_add(v->dg, D_DECL_NOT_AT_START, v->off + j, pos.line,
		    pos.col,
		    "the XML declaration comes after white space; it must be "
		    "the very first thing in the entity (after the BOM, if "
		    "any): remove what precedes it");
}

/* The Windows code page that extends ISO-8859 part name with printable
 * characters at 80-9F. */
static const char *
windows_of(const char *name)
{
	static const struct {
		const char	*iso, *win;
	} tab[] = {
		{ "ISO-8859-1", "windows-1252" }, { "ISO-8859-2", "windows-1250" },
		{ "ISO-8859-5", "windows-1251" }, { "ISO-8859-6", "windows-1256" },
		{ "ISO-8859-7", "windows-1253" }, { "ISO-8859-8", "windows-1255" },
		{ "ISO-8859-9", "windows-1254" }, { "ISO-8859-11", "windows-874" },
		{ "ISO-8859-13", "windows-1257" }, { "ISO-8859-15", "windows-1252" },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(name, tab[i].iso) == 0)
			return tab[i].win;
	return "a windows-125x code page";
}

/* Decode and check p[0..n). */
static size_t
feed(struct val *v, const unsigned char *p, size_t n, int eof)
{
	size_t k = 0, m;

	if (v->dec != FORM_ICONV)
		return feed_unicode(v, p, n, eof);
	if (v->sb)
		return val_feed_sb(v, p, n, eof);
	if (v->off < v->exact_to) {
		m = v->exact_to - v->off < n ? (size_t)(v->exact_to - v->off) :
		    n;
		if ((k = val_feed_iconv(v, p, m, eof && m == n)) < m || k == n)
			return k;
	}
	return k + (v->stateless && !v->xml11 && !val_ref() &&
	    (v->sink == NULL || v->block != NULL) ?
	    val_feed_bulk(v, p + k, n - k, eof) :
	    val_feed_iconv(v, p + k, n - k, eof));
}

size_t
val_feed(struct val *v, const unsigned char *p, size_t n, int eof)
{
	size_t skip = 0, used = 0;

	if (v->skip > 0) {
		skip = v->skip < n ? (size_t)v->skip : n;
		v->skip -= skip;
		v->off += skip;
		p += skip;
		n -= skip;
	}
	if (v->ws_lead && v->skip == 0)
		ws_lead_end(v, p, n);
	/* Up to each late declaration, which is reported at the position
	 * the decoder has reached there. */
	while (v->skip == 0) {
		uint64_t at, line, col;
		int hit;
		size_t to = late_next(&v->late, p + used, n - used, v->off,
		    eof, &hit), k;

		k = feed(v, p + used, to, eof && !hit && to == n - used);
		used += k;
		if (!hit)
			break;
		at = v->off;
		line = v->pos.line;
		col = v->pos.col;
		if (k < to) {
			/*
			 * The decoder held back the start of a character
			 * that the '<' cannot go on (it is no trail byte or
			 * unit in any encoding read here): let it see the
			 * '<' too, so that it calls those bytes illegal, and
			 * step back over the '<', one column on one line.
			 */
			size_t m = to - k + v->late.usz;

			k = feed(v, p + used, m, 0);
			used += k;
			if (k < m)
				break;
			at = v->off - v->late.usz;
			line = v->pos.line;
			col = v->pos.col - 1;
		}
		val_late_report(v, at, line, col);
	}
	if (eof && v->sb && !v->u8bad && v->u8mb > 0)
		diag_add(v->dg, D_SUSPICIOUS_LABEL, v->u8off, v->u8line,
		    v->u8col, "labelled %s but the content is valid UTF-8 "
		    "(%llu multi-byte sequence%s); it is probably UTF-8: "
		    "declare encoding=\"UTF-8\"", v->encname,
		    (unsigned long long)v->u8mb, v->u8mb == 1 ? "" : "s");
	else if (eof && v->c1 > 0) {
		diag_add(v->dg, D_SUSPICIOUS_LABEL, v->c1off, v->c1line,
		    v->c1col, "C1 control U+%04X under %s (XML 1.0 section "
		    "2.2 discourages C1 controls): bytes 80-9F are probably "
		    "meant in another encoding, such as %s or a multi-byte one "
		    "(Shift_JIS, GBK, Big5); find which and declare it",
		    (unsigned)v->c1char, v->encname, windows_of(v->encname));
		v->dg->d[D_SUSPICIOUS_LABEL].count += v->c1 - 1;
	}
	return skip + used;
}

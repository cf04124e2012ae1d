/*
 * Validation (XML 1.0 section 4.3.3: bytes illegal in the entity's
 * encoding are a fatal error).  The whole entity is decoded in its
 * authoritative encoding by the decoding layer (decode.h), whose check
 * this is: illegal or truncated sequences and characters that are not XML
 * Chars (XML 1.0 [2], XML 1.1 [2] and [2a]) are errors; late declarations,
 * C1 controls and UTF-8 under a single-byte label are reported too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "val.h"

static const struct dec_check check;

/* A cache of decoders, empty. */
struct dcaches *
dcaches_new(void)
{
	return calloc(1, sizeof(struct dcaches));
}

/* The decoders of c closed, and c let go (NULL: nothing). */
void
dcaches_free(struct dcaches *c)
{
	int i;

	if (c == NULL)
		return;
	for (i = 0; i < NDCACHE; i++) {
		if (c->e[i].cd != NULL)
			iconv_close(c->e[i].cd);
		free(c->e[i].bulk);
	}
	free(c);
}

/*
 * Start validating the entity s; diagnostics go to dg.  An iconv decoder
 * comes from cache, which the caller keeps from one input to the next
 * (NULL: the validator keeps one of its own).  The validator is made in
 * spare, one val_close() let go of, when it is not NULL (its arrays of
 * marks kept): a caller that validates one input after another allocates
 * it once.  NULL when the entity cannot be decoded (already diagnosed by
 * sniff), or for want of memory; spare is freed then.
 */
struct val *
val_open_in(struct val *spare, const struct sniff *s, struct diags *dg,
    struct dcaches *cache)
{
	struct val *v = spare;
	uint32_t *mkbuf = NULL;
	size_t mkcap = 0;

	if (s->dec == FORM_NONE) {
		val_free(spare);
		return NULL;
	}
	if (v != NULL) {
		mkbuf = v->mkbuf;
		mkcap = v->mkcap;
	} else if ((v = malloc(sizeof(*v))) == NULL)
		return NULL;
	/* malloc and memset, not calloc: glibc's calloc passes over the
	 * thread's cache of small blocks (and a kept block needs only the
	 * memset). */
	mem_zero(v, sizeof(*v));
	v->mkbuf = mkbuf;
	v->mkcap = mkcap;
	if (cache == NULL && s->dec == FORM_ICONV &&
	    (cache = v->own = dcaches_new()) == NULL) {
		val_free(v);
		return NULL;
	}
	if (dec_init(&v->d, s, &check, v, cache) < 0) {
		val_free(v);
		return NULL;
	}
	v->xml11 = s->xml11;
	v->dg = dg;
	v->encname = s->encname;
	v->ws_lead = s->ws_lead;
	v->iso8859 = v->d.form == FORM_ICONV &&
	    strncmp(s->encname, "ISO-8859-", 9) == 0;
	late_init(&v->late, s, v->d.sb ? v->d.sbmap : NULL);
	/* Decoded blocks have no offsets for their characters; the
	 * declaration at the start goes a character at a time, so that the
	 * lexer knows it for the one already reported. */
	v->d.exact_to = v->late.decoded && s->decl.present ? s->decl.end : 0;
	/* check_chr needs every character for the lexer and the C1 hint;
	 * else only those that are no Char. */
	v->d.chk_every = v->late.decoded || (v->iso8859 && v->d.sb);
	/* UTF-8: one pass finds what the late lexer and the mojibake scan
	 * look for (not at level ref, whose lexer and scan take every
	 * character, the reference they are held to). */
	v->mkon = v->d.form == FORM_UTF8 && v->late.scan &&
	    v->late.unit == UNIT_8 && v->late.map == NULL && !v->late.decoded &&
	    !simd_char_only();
	/* UTF-16, UTF-32 and the single-byte encodings read as bytes: the
	 * marks of the thread reading ahead, where it read the piece */
	v->mkw = v->d.form == FORM_UTF16LE || v->d.form == FORM_UTF16BE ?
	    2 : v->d.form == FORM_UTF32LE || v->d.form == FORM_UTF32BE ? 4 :
	    v->d.form == FORM_ICONV && v->d.sb && v->late.unit == UNIT_8 &&
	    v->late.map == NULL ? 1 : 0;
	if (!v->late.scan || v->late.decoded || simd_char_only())
		v->mkw = 0;
	return v;
}

/* A validator in a block of its own. */
struct val *
val_open(const struct sniff *s, struct diags *dg, struct dcaches *cache)
{
	return val_open_in(NULL, s, dg, cache);
}

/* val_open() with a cache of the validator's own. */
struct val *
val_new(const struct sniff *s, struct diags *dg)
{
	return val_open(s, dg, NULL);
}

/*
 * The marks of the piece just fed (NULL when it was not searched so):
 * for the mojibake scan of the same bytes (moj_marks).
 */
struct marks *
val_marks(struct val *v)
{
	return v->mkon || v->mkw ? &v->mk : NULL;
}

/* The marks the thread reading ahead may find for v (AHM_, engine.h),
 * its units starting at offset ustart of the file. */
int
val_ahead_marks(const struct val *v, long long ustart)
{
	int be = v->d.form == FORM_UTF16BE || v->d.form == FORM_UTF32BE;

	if (v->mkon)
		return AHM_UTF8;
	if (v->mkw == 0 || ustart < 0)
		return AHM_NONE;
	return (v->mkw == 1 ? AHM_BYTES : v->mkw == 2 ? (be ? AHM_UTF16BE :
	    AHM_UTF16LE) : be ? AHM_UTF32BE : AHM_UTF32LE) |
	    AHM_AT((int)(ustart % v->mkw));
}

/* The marks of from[0..nf) shifted by c onto the list l of *nl, as far
 * as its room (cap) goes; from may be l + *nl.  Return how many went:
 * a loop the compiler makes vectors of, a mark a lane. */
static size_t
mark_shift(uint32_t *l, size_t *nl, size_t cap, const uint32_t *from,
    size_t nf, size_t c)
{
	size_t k, go = nf < cap - *nl ? nf : cap - *nl;
	uint32_t *to = l + *nl;

	for (k = 0; k < go; k++)
		to[k] = from[k] + (uint32_t)c;
	*nl += go;
	return go;
}

/*
 * Append r's lists, of bytes c on, to m's, shifted by c, as far as m's
 * room goes (r's may be m's own room past its lists), and the span of
 * each that is complete: where r's was, or up to the first mark left
 * out; then m is of p[0..n).  Where either holds only the opens to lex
 * (hard), so does m: each open it leaves out, of either, has its kind in
 * the two ksums, and a list of every open holds those to lex.
 */
static void
mark_append(struct marks *m, const struct marks *r, size_t c,
    const unsigned char *p, size_t n)
{
	size_t k;

	m->hard = m->hard || r->hard;
	m->ksum |= r->ksum;
	k = mark_shift(m->lt, &m->nlt, m->cap, r->lt, r->nlt, c);
	m->lcov = c + (k < r->nlt ? r->lt[k] : r->lcov);
	k = mark_shift(m->mj, &m->nmj, m->cap, r->mj, r->nmj, c);
	m->mcov = c + (k < r->nmj ? r->mj[k] : r->mcov);
	m->base = p;
	m->len = n;
	m->lat = m->mat = 0;
}

/*
 * The marks of p[c..n) after those of p[0..c) that m's lists hold
 * (pre_take), in one pass (marks8) into the room the lists have left;
 * the lists as marks8(p, n, m) leaves them, but that one that filled
 * before c ends both at c.
 */
static void
mark_rest(const unsigned char *p, size_t n, size_t c, struct marks *m)
{
	struct marks r;
	size_t used = m->nlt > m->nmj ? m->nlt : m->nmj;

	if (used == m->cap) {
		m->lcov = m->mcov = c;
		m->base = p;
		m->len = n;
		m->lat = m->mat = 0;
		return;
	}
	r.lt = m->lt + m->nlt;
	r.mj = m->mj + m->nmj;
	r.hard = m->hard;
	r.cap = m->cap - used;
	marks8(p + c, n - c, &r);
	/* r's lists are where m's go on: each mark shifted in place */
	mark_append(m, &r, c, p, n);
}

/*
 * The marks of p[0..n) from g, those the thread reading ahead found in
 * the piece it read (ahead.c), which ends where p does, and those of
 * the c bytes kept in front of it searched here: a mark at j < c with
 * its bytes (at most 3) in p.  g's lists are taken as far as m's room
 * goes; each is complete as far as g's was, and that far.  Return 0 when
 * g is not of these bytes.
 */
static int
mark_given(const unsigned char *p, size_t n, const struct marks *g,
    struct marks *m)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)g->base;
	size_t c, h;

	if (b < a || b - a > n || (b - a) + g->len != n)
		return 0;
	c = (size_t)(b - a);
	/* in units: the thread's are the piece's */
	if (g->usz > 1 && c % (size_t)g->usz != 0)
		return 0;
	/* fewer marks in h bytes than h: no list fills (h is at most
	 * IN_PAD + 8, m's room n or VAL_MARKS); a mark before c has its
	 * bytes (UTF-8 3, else two units) in p[0..h) */
	h = c + (g->usz > 0 ? 2 * (size_t)g->usz : 3);
	h = h < n ? h : n;
	if (h > m->cap)
		return 0;
	m->nlt = m->nmj = 0;
	m->hard = 0;
	m->ksum = 0;
	if (c > 0) {
		if (g->usz > 0)
			marksw(p, h, (size_t)g->usz, g->be, m);
		else
			marks8(p, h, m);
		while (m->nlt > 0 && m->lt[m->nlt - 1] >= c)
			m->nlt--;
		while (m->nmj > 0 && m->mj[m->nmj - 1] >= c)
			m->nmj--;
		/* those to lex, by the bytes of the whole piece */
		if (g->hard)
			marks_harden(p, n, m, 0);
	}
	mark_append(m, g, c, p, n);
	m->usz = g->usz;
	m->be = g->be;
	return 1;
}

/*
 * Search the piece p[0..n) that the validator is fed for its marks, in
 * one pass (marks8), unless the thread that read it (g, ahead.c) or the
 * search ahead it was given (prescan.c, val_set_finder) has searched it
 * already; where that search has been in part, its marks are taken that
 * far and the rest searched here (pre_take).  UTF-16 and the
 * single-byte encodings read as bytes that the thread did not read are
 * searched here too (marksw).  Else the lexer and the scan search as
 * they would alone.
 */
static void
val_mark(struct val *v, const unsigned char *p, size_t n,
    const struct marks *g)
{
	size_t want, c;

	v->mk.base = NULL;
	v->late.mk = NULL;
	if (v->mkw ? g == NULL && v->mkw > 2 : !v->mkon ||
	    (v->late.find == pre_late_find && pre_covered(v->late.find_ctx,
	    p, n)))
		return;
	/* Room for a mark of each kind at every byte of the piece, up to
	 * VAL_MARKS: a list fills only where it did with VAL_MARKS, and a
	 * small entity's arrays come from the small sizes of malloc. */
	want = n < VAL_MARKS ? (n > 0 ? n : 1) : VAL_MARKS;
	if (v->mkcap < want) {
		free(v->mkbuf);
		v->mkcap = 0;
		if ((v->mkbuf = malloc(2 * want * sizeof(uint32_t))) == NULL)
			return;
		v->mkcap = want;
	}
	v->mk.cap = v->mkcap;
	v->mk.lt = v->mkbuf;
	v->mk.mj = v->mkbuf + v->mkcap;
	/* only the opens the lexer must lex (leap.c); pre_take() gives
	 * lists of every one */
	v->mk.hard = 1;
	if (g != NULL && g->usz == (v->mkon ? 0 : v->mkw) &&
	    mark_given(p, n, g, &v->mk))
		;
	else if (v->mkw == 1 || v->mkw == 2)
		/* UTF-16 (p begins on a unit, as the lexer reads it): one pass
		 * for both searches (marksw16) where the lexer and the scan
		 * would each make their own; bytes: marks8's "<?" and "<!" */
		marksw(p, n, (size_t)v->mkw, v->d.form == FORM_UTF16BE,
		    &v->mk);
	else if (v->mkw) {
		/* none of its own: the lexer and the scan search */
		v->mk.base = NULL;
		return;
	} else if (v->late.find == pre_late_find && (c = pre_take(
	    v->late.find_ctx, p, n, &v->mk)) > 0)
		mark_rest(p, n, c, &v->mk);
	else
		marks8(p, n, &v->mk);
	v->late.mk = &v->mk;
}

/* Let go of what v holds for its input (its decoder, its own cache), to
 * be made again by val_open_in(v, ...); its block and marks stay. */
void
val_close(struct val *v)
{
	if (v == NULL)
		return;
	dec_fini(&v->d);
	dcaches_free(v->own);
	v->own = NULL;
}

void
val_free(struct val *v)
{
	if (v == NULL)
		return;
	val_close(v);
	free(v->mkbuf);
	free(v);
}

/* The byte table of a single-byte encoding, or NULL. */
const uint32_t *
val_sbmap(const struct val *v)
{
	return v->d.sb ? v->d.sbmap : NULL;
}

/* Send every decoded character, with its position, to fn; runs of plain
 * characters (which need no position) to run, and blocks of decoded
 * characters of a stateless multi-byte encoding to block, each if it is
 * not NULL. */
void
val_set_sink(struct val *v, val_sink_fn fn, val_run_fn run,
    val_block_fn block, void *ctx)
{
	dec_set_sink(&v->d, fn, run, block, ctx);
}

/* Where late declarations are searched for: through find with ctx (a
 * search ahead, prescan.c), or the kernels (find NULL). */
void
val_set_finder(struct val *v, late_find_fn find, void *ctx)
{
	v->late.find = find;
	v->late.find_ctx = ctx;
}

/* A late XML declaration at offset at (once per offset). */
static void
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

/* Character c at offset off, line, column (dec_check): every one when
 * d.chk_every, else those that are no Char. */
static void
check_chr(void *ctx, uint32_t c, uint64_t off, uint64_t line, uint64_t col)
{
	struct val *v = ctx;

	/* C1 controls under ISO-8859-n are a hint that the label is wrong
	 * (reported at the end, unless the text is UTF-8 after all): XML
	 * 1.0 section 2.2 discourages them, XML 1.1 [2a] restricts them;
	 * but in XML 1.1 NEL is a line end (section 2.11), no hint. */
	if (v->iso8859 && v->d.sb && c >= 0x80 && c <= 0x9F &&
	    !(v->xml11 && c == 0x85) && v->c1++ == 0) {
		v->c1char = c;
		v->c1off = off;
		v->c1line = line;
		v->c1col = col;
	}
	if (v->late.decoded && late_char(&v->late, (long)c, off, line, col))
		val_late_report(v, v->late.lt_off, v->late.lt_line, v->late.lt_col);
	if (!xml_char_ok(c, v->xml11)) {
		if (c >= 0xD800 && c <= 0xDFFF)
			diag_add(v->dg, D_ILLEGAL_CHAR, off, line, col,
			    "U+%04X (a surrogate) is not an XML Char; the "
			    "bytes are damaged", (unsigned)c);
		else if (v->xml11 && c != 0 && c < 0xFFFE)
			diag_add(v->dg, D_ILLEGAL_CHAR, off, line, col,
			    "U+%04X may not appear literally in XML 1.1 "
			    "(RestrictedChar [2a]); write &#x%X; instead",
			    (unsigned)c, (unsigned)c);
		else
			diag_add(v->dg, D_ILLEGAL_CHAR, off, line, col,
			    "U+%04X is not an XML Char (XML %s [2]); remove "
			    "it%s", (unsigned)c, v->xml11 ? "1.1" : "1.0",
			    c == 0 ? " (a NUL byte: is this a binary file, or "
			    "mislabelled UTF-16?)" : "");
	}
}

/* n more NULs after the one check_chr reported: counted. */
static void
check_nuls(void *ctx, uint64_t n)
{
	struct val *v = ctx;

	diag_repeat(v->dg, D_ILLEGAL_CHAR, n);
}

/* Bytes p[0..len) at offset off, line, column are no character. */
static void
check_bad(void *ctx, const unsigned char *p, size_t len, int truncated,
    uint64_t off, uint64_t line, uint64_t col)
{
	struct val *v = ctx;
	char hex[3 * 4 + 1], why[64] = "";
	size_t i, k = 0;

	/* To the markup lexer a bad sequence is a character, and no markup,
	 * as the paths that lex bytes read it (late.c): "<?xm", a bad byte,
	 * "l " is no declaration in Shift_JIS either.  U+FFFD completes
	 * none, so no late declaration can end here. */
	if (v->late.decoded)
		(void)late_char(&v->late, 0xFFFD, off, line, col);
	/* An occurrence that is only counted needs no message. */
	if (!diag_wants(v->dg, D_ILLEGAL_SEQUENCE)) {
		diag_repeat(v->dg, D_ILLEGAL_SEQUENCE, 1);
		return;
	}
	for (i = 0; i < len && i < 4; i++)
		k += (size_t)snprintf(hex + k, sizeof(hex) - k, "%s%02X",
		    i ? " " : "", p[i]);
	/* The Unicode forms say why (utf.c), as "(an overlong encoding)". */
	if (!truncated && v->d.form != FORM_ICONV) {
		char u[56];

		if (v->d.form == FORM_UTF8)
			snprintf(u, sizeof(u), "%s", utf8_why(p, len));
		else if (v->d.form == FORM_UTF16BE ||
		    v->d.form == FORM_UTF16LE)
			utf16_why(p, v->d.form == FORM_UTF16BE, u, sizeof(u));
		else
			utf32_why(p, v->d.form == FORM_UTF32BE, u, sizeof(u));
		snprintf(why, sizeof(why), " (%s)", u);
	}
	diag_add(v->dg, D_ILLEGAL_SEQUENCE, off, line, col,
	    "%s %s %s in %s%s; %s", truncated ? "the entity "
	    "ends inside a character: bytes" : "bytes", hex, truncated ?
	    "are incomplete" : "are not valid", v->encname, why, truncated ?
	    "the file is truncated" : "the entity is not in this encoding: "
	    "declare the encoding it is in, or re-encode it");
}

/*
 * Bytes p[0..n) from offset off, line, column col on are each a bad
 * sequence of one byte (dec_bad_run): each reported as check_bad would,
 * while the report keeps its message (the first; with --all, each the
 * list has room for); the rest, which it would only count, at once.
 */
static void
check_bads(void *ctx, const unsigned char *p, size_t n, uint64_t off,
    uint64_t line, uint64_t col)
{
	struct val *v = ctx;
	size_t i;

	for (i = 0; i < n && diag_wants(v->dg, D_ILLEGAL_SEQUENCE); i++)
		check_bad(ctx, p + i, 1, 0, off + i, line, col + i);
	/* Once the report does not want one, it wants none after it. */
	if (i < n)
		diag_repeat(v->dg, D_ILLEGAL_SEQUENCE, n - i);
}

/* Whether further illegal sequences would only be counted (their first
 * found, and --all has no room, is not given, or ignores them): 0 no; 1
 * and non-Chars too; 2 but not non-Chars.  check_chr wants nothing else
 * of the characters it is given then. */
static int
check_quiet(void *ctx)
{
	struct val *v = ctx;

	if (v->d.chk_every || diag_wants(v->dg, D_ILLEGAL_SEQUENCE))
		return 0;
	return diag_wants(v->dg, D_ILLEGAL_CHAR) ? 2 : 1;
}

/* bad illegal sequences and nonchar non-Chars, counted (check_quiet). */
static void
check_tally(void *ctx, uint64_t bad, uint64_t nonchar)
{
	struct val *v = ctx;

	diag_repeat(v->dg, D_ILLEGAL_SEQUENCE, bad);
	diag_repeat(v->dg, D_ILLEGAL_CHAR, nonchar);
}

/* A block of nc decoded characters passes when all are Chars and no late
 * declaration begins in it (found again a character at a time, for its
 * offset); the lexer's state after it is kept for check_blk_take. */
static int
check_blk(void *ctx, const unsigned char *out, size_t nc)
{
	struct val *v = ctx;
	size_t k;

	for (k = 0; k < nc; k++)
		if (!xml_char_ok(load_le32(out + 4 * k), 0))
			return 0;
	if (!v->late.decoded)
		return 1;
	v->blk_late = v->late;
	if (late_block(&v->blk_late, out, nc))
		return 0;
	/* The lexer may be left after a '<' whose offset the block does
	 * not tell. */
	return !late_pending(&v->blk_late);
}

static void
check_blk_take(void *ctx)
{
	struct val *v = ctx;

	if (v->late.decoded)
		v->late = v->blk_late;
}

static const struct dec_check check = {
	check_chr, check_nuls, check_bad, check_bads, check_quiet, check_tally,
	check_blk, check_blk_take
};

/* The leading white space ends at p + j: is an XML declaration there?
 * (XML 1.0 [22]: it must come first.) */
static void
ws_lead_end(struct val *v, const unsigned char *p, size_t n)
{
	struct linepos pos = v->d.pos;
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
		diag_add(v->dg, D_DECL_NOT_AT_START, v->d.off + j, pos.line,
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

/* val_feed() of p[0..n), the marks of whose last bytes are g (or
 * NULL). */
static size_t
val_feed_marked(struct val *v, const unsigned char *p, size_t n, int eof,
    const struct marks *g)
{
	size_t skip = dec_skip(&v->d, n), used = 0;

	p += skip;
	n -= skip;
	if (v->d.skip == 0)
		val_mark(v, p, n, g);
	if (v->ws_lead && v->d.skip == 0)
		ws_lead_end(v, p, n);
	/* Up to each late declaration, which is reported at the position
	 * the decoder has reached there. */
	while (v->d.skip == 0) {
		uint64_t at, line, col;
		int hit;
		size_t to = late_next(&v->late, p + used, n - used, v->d.off,
		    eof, &hit), k;

		k = dec_feed(&v->d, p + used, to, eof && !hit && to == n - used);
		used += k;
		if (!hit)
			break;
		at = v->d.off;
		line = v->d.pos.line;
		col = v->d.pos.col;
		if (k < to) {
			/*
			 * The decoder held back the start of a character
			 * that the '<' cannot go on (it is no trail byte or
			 * unit in any encoding read here): let it see the
			 * '<' too, so that it calls those bytes illegal, and
			 * step back over the '<', one column on one line.
			 */
			size_t m = to - k + v->late.usz;

			k = dec_feed(&v->d, p + used, m, 0);
			used += k;
			if (k < m)
				break;
			at = v->d.off - v->late.usz;
			line = v->d.pos.line;
			col = v->d.pos.col - 1;
		}
		val_late_report(v, at, line, col);
	}
	if (eof && v->d.sb && !v->d.u8bad && v->d.u8mb > 0)
		diag_add(v->dg, D_SUSPICIOUS_LABEL, v->d.u8off, v->d.u8line,
		    v->d.u8col, "labelled %s but the content is valid UTF-8 "
		    "(%llu multi-byte sequence%s); it is probably UTF-8: "
		    "declare encoding=\"UTF-8\"", v->encname,
		    (unsigned long long)v->d.u8mb, v->d.u8mb == 1 ? "" : "s");
	else if (eof && v->c1 > 0) {
		diag_add(v->dg, D_SUSPICIOUS_LABEL, v->c1off, v->c1line,
		    v->c1col, "C1 control U+%04X under %s (%s): bytes 80-9F "
		    "are probably "
		    "meant in another encoding, such as %s or a multi-byte one "
		    "(Shift_JIS, GBK, Big5); find which and declare it",
		    (unsigned)v->c1char, v->encname, v->xml11 ? "XML 1.1 [2a] "
		    "allows C1 controls only as references" : v->c1char ==
		    0x85 ? "NEL, which XML 1.0 does not read as a line end" :
		    "XML 1.0 section 2.2 discourages C1 controls",
		    windows_of(v->encname));
		v->dg->d[D_SUSPICIOUS_LABEL].count += v->c1 - 1;
	}
	return skip + used;
}

/* val_feed() of the bytes in, taking the marks the thread reading it
 * ahead found (in_marks). */
size_t
val_feed_in(struct val *v, const struct inbuf *in)
{
	return val_feed_marked(v, in->p, in->n, in->eof, in_marks(in));
}

size_t
val_feed(struct val *v, const unsigned char *p, size_t n, int eof)
{
	return val_feed_marked(v, p, n, eof, NULL);
}

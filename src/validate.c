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

struct val {
	enum form	 dec;
	int		 xml11;
	struct diags	*dg;
	const char	*encname;
	uint64_t	 skip;		/* BOM bytes still to pass over */
	uint64_t	 off;		/* offset of the next byte */
	struct linepos	 pos;		/* of the next character */
	iconv_t		 cd;
	struct dcache	*dc;		/* where cd and sbmap come from */
	int		 sb;		/* single-byte: sbmap is valid */
	int		 ascii;		/* ... and ASCII below 0x80 */
	int		 stateless;	/* blocks may be decoded at once */
	unsigned	 step;		/* bytes an illegal code unit spans */
	const uint32_t	*sbmap;		/* code point, or SB_BAD */
	const unsigned char *simple;	/* see struct dcache */
	/* suspicious-label hints for single-byte encodings */
	int		 iso8859;
	int		 u8bad;		/* raw bytes are not UTF-8 */
	uint64_t	 u8mb;		/* multi-byte UTF-8 sequences seen */
	uint64_t	 u8off, u8line, u8col;
	unsigned	 u8skip;
	int		 ws_lead;	/* only white space so far: see sniff */
	struct late	 late;
	uint64_t	 exact_to;	/* decode a character at a time to here */
	uint64_t	 c1;		/* C1 controls under ISO-8859-n */
	uint32_t	 c1char;
	uint64_t	 c1off, c1line, c1col;
	/* Where decoded characters go (transcoding), if anywhere; runs of
	 * plain characters go to run as bytes, when it is set. */
	val_sink_fn	 sink;
	val_run_fn	 run;
	val_block_fn	 block;
	void		*sink_ctx;
};


/*
 * Decoders kept from one input to the next: opening one and building its
 * byte table cost more than reading a small file.  An entry in use by a
 * validator is never handed to another.
 */
#define NDCACHE	8

struct dcache {
	char		 name[64];
	iconv_t		 cd;
	int		 sb;
	int		 ascii;		/* bytes below 0x80 are ASCII */
	int		 stateless;	/* no shift states: blocks decode alone */
	int		 busy;
	/* single-byte: the bytes whose character needs only counting (an
	 * XML 1.0 Char, no C1 control under ISO-8859-n) */
	unsigned char	 simple[256];
	unsigned char	 simple_lo[256];	/* the same, below 0x80 only */
	struct plainmap	 pm, pm_lo;	/* both, less CR, for plain_sb */
	unsigned long	 last;
	uint32_t	 sbmap[256];
};

static struct dcache dcache[NDCACHE];
static unsigned long dtick;
static struct val *spare;

/* A decoder from name to UTF-32LE, from the cache or new; NULL if iconv
 * cannot open it. */
static struct dcache *
dcache_get(const char *name)
{
	struct dcache *e, *victim = NULL;
	int i;

	for (i = 0; i < NDCACHE; i++) {
		e = &dcache[i];
		if (e->busy)
			continue;
		if (e->cd != NULL && strcmp(e->name, name) == 0) {
			iconv(e->cd, NULL, NULL, NULL, NULL);
			e->busy = 1;
			e->last = ++dtick;
			return e;
		}
		/* An empty entry, else the least recently used. */
		if (victim == NULL || (victim->cd != NULL && (e->cd == NULL ||
		    e->last < victim->last)))
			victim = e;
	}
	if (victim == NULL || strlen(name) >= sizeof(victim->name))
		return NULL;
	if (victim->cd != NULL)
		iconv_close(victim->cd);
	if ((victim->cd = iconv_open(enc_u32le(), name)) == (iconv_t)-1) {
		victim->cd = NULL;
		return NULL;
	}
	snprintf(victim->name, sizeof(victim->name), "%s", name);
	victim->sb = sb_build(victim->cd, victim->sbmap);
	victim->stateless = icap_stateless(victim->cd);
	for (i = 0; i < 256; i++) {
		uint32_t c = victim->sbmap[i];

		/* The counting paths (count_sb, plain_sb) take the bytes
		 * 0A and 0D for LF and CR: a byte that is a line end under
		 * another value (EBCDIC's LF is 25), or 0A/0D when they are
		 * something else (U+008E in IBM037), goes the character
		 * path, which counts decoded characters (XML 1.0 2.11). */
		victim->simple[i] = (unsigned char)(victim->sb &&
		    c != SB_BAD && xml_char_ok(c, 0) && !(c >= 0x80 &&
		    c <= 0x9F && strncmp(name, "ISO-8859-", 9) == 0) &&
		    !((c == '\n' || c == '\r') && c != (uint32_t)i) &&
		    !((i == '\n' || i == '\r') && c != (uint32_t)i));
		victim->simple_lo[i] = i < 0x80 ? victim->simple[i] : 0;
	}
	plain_sb_map(&victim->pm, victim->simple);
	plain_sb_map(&victim->pm_lo, victim->simple_lo);
	victim->ascii = victim->sb;
	for (i = 0; i < 0x80 && victim->ascii; i++)
		victim->ascii = victim->sbmap[i] == (uint32_t)i;
	victim->busy = 1;
	victim->last = ++dtick;
	return victim;
}

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
		if ((v->dc = dcache_get(s->dec_iconv)) == NULL) {
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

static int
char_only(void)
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
	v->run = char_only() ? NULL : run;
	v->block = char_only() ? NULL : block;
	v->sink_ctx = ctx;
}

/* Account for a plain run of k bytes that ends at line l, column c;
 * return k. */
static size_t
run_done(struct val *v, size_t k, uint64_t l, uint64_t c)
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
static size_t
take_run(struct val *v, const unsigned char *p, size_t k, int form,
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
static void
late_report(struct val *v, uint64_t at, uint64_t line, uint64_t col)
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
static void
put(struct val *v, uint32_t c, uint64_t off)
{
	if (v->sink != NULL)
		v->sink(v->sink_ctx, c, off, v->pos.line, v->pos.col);
	if (v->late.decoded && late_char(&v->late, (long)c, off,
	    v->pos.line, v->pos.col))
		late_report(v, v->late.lt_off, v->late.lt_line, v->late.lt_col);
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

static void
illegal(struct val *v, const unsigned char *p, size_t len, int truncated)
{
	char hex[3 * 4 + 1];
	size_t i, k = 0;

	for (i = 0; i < len && i < 4; i++)
		k += (size_t)snprintf(hex + k, sizeof(hex) - k, "%s%02X",
		    i ? " " : "", p[i]);
	diag_add(v->dg, D_ILLEGAL_SEQUENCE, v->off, v->pos.line,
	    v->pos.col, "%s %s %s in %s; %s", truncated ? "the entity ends "
	    "inside a character: bytes" : "bytes", hex, truncated ?
	    "are incomplete" : "are not valid", v->encname, truncated ?
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
			size_t t = take_run(v, p + i, k, form, &l, &cc);

			if (t < k) {
				declined = i + k;
				stopped = i + t;
			}
			i += run_done(v, t, l, cc);
			if (i >= n)
				break;
		} else if (i < declined && i > stopped) {
			size_t t = v->run(v->sink_ctx, p + i, declined - i,
			    form);

			if (t > 0) {
				uint64_t l = v->pos.line, cc = v->pos.col;

				t = plain_form(form, p + i, t, &l, &cc);
				i += run_done(v, t, l, cc);
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
			put(v, 0, v->off);
			v->dg->d[D_ILLEGAL_CHAR].count += k - 1;
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
			put(v, c, v->off);
		} else if (r < 0) {
			illegal(v, p + i, (size_t)-r, 0);
			v->pos.col++;
			r = -r;
		} else {
			if (!eof)
				break;
			illegal(v, p + i, n - i, 1);
			r = (int)(n - i);
		}
		i += (size_t)r;
		v->off += (uint64_t)r;
	}
	return i;
}

/*
 * The raw-UTF-8 hint (suspicious-label) for a single-byte label: follow the
 * bytes as UTF-8 too.  Return 1 when the data ends inside a sequence and
 * more is to come (the caller passes those bytes again).
 */
static int
sb_utf8(struct val *v, const unsigned char *p, size_t i, size_t n, int eof)
{
	uint32_t u;
	int r;

	if (v->u8skip > 0) {
		v->u8skip--;
		return 0;
	}
	if (p[i] < 0x80 || v->u8bad)
		return 0;
	r = utf8_dec(p + i, n - i, &u);
	if (r == 0 && !eof)
		return 1;
	if (r <= 1) {
		v->u8bad = 1;
		return 0;
	}
	if (v->u8mb++ == 0) {
		v->u8off = v->off;
		v->u8line = v->pos.line;
		v->u8col = v->pos.col;
	}
	v->u8skip = (unsigned)r - 1;
	return 0;
}

/* Move pos past the single-byte characters p[0..n) that need only
 * counting (whose line ends are the bytes 0A and 0D: see dcache_get). */
static void
count_sb(const unsigned char *p, size_t n, struct linepos *pos)
{
	size_t j;

	for (j = 0; j < n; j++)
		linepos_step(pos, p[j], 0);
}

static size_t
feed_sb(struct val *v, const unsigned char *p, size_t n, int eof)
{
	/* As in feed_unicode: p[i..declined) is plain, but the transcoder
	 * stopped at offset stopped. */
	size_t i, declined = 0, stopped = 0;

	for (i = 0; i < n; i++) {
		uint32_t c;

		/*
		 * Runs of characters that need only counting, in one tight
		 * loop.  Bytes from 0x80 up join them once the raw bytes are
		 * known not to be UTF-8 (the hint is settled).  A transcoder
		 * takes them as bytes, or the part it can write: the next
		 * character then comes the slow way, with its position.
		 */
		if (!v->xml11 && v->u8skip == 0 && (v->sink == NULL ||
		    v->run != NULL) && i >= declined) {
			struct linepos pos = v->pos;
			size_t j = i, end = v->sink != NULL && n - i > 4096 ?
			    i + 4096 : n;

			const unsigned char *ok = v->u8bad ? v->simple :
			    v->dc->simple_lo;
			const struct plainmap *pm = v->u8bad ? &v->dc->pm :
			    &v->dc->pm_lo;

			for (; j < end; j++) {
				/* Many at a time (src/simd/), up to a CR or a
				 * byte that needs more than counting; the
				 * byte after a CR here. */
				if ((j > i ? p[j - 1] : v->pos.prev) != '\r') {
					j += plain_sb(p + j, end - j, pm,
					    &pos.line, &pos.col);
					if (j >= end)
						break;
				}
				if (!ok[p[j]])
					break;
				/* A CR, or the byte after one. */
				pos.prev = j > i ? p[j - 1] : v->pos.prev;
				linepos_step(&pos, p[j], 0);
			}
			if (j > i) {
				size_t t = j - i;

				pos.prev = p[j - 1];
				if (v->sink != NULL && (t = v->run(v->sink_ctx,
				    p + i, j - i, FORM_SB)) < j - i) {
					declined = j;
					stopped = i + t;
					pos = v->pos;
					count_sb(p + i, t, &pos);
				}
				v->pos = pos;
				v->off += t;
				i += t;
				if (i >= n)
					break;
			}
		} else if (i < declined && i > stopped) {
			size_t t = v->run(v->sink_ctx, p + i, declined - i,
			    FORM_SB);

			count_sb(p + i, t, &v->pos);
			v->off += t;
			i += t;
			stopped = i;
			if (i >= n)
				break;
			if (i >= declined) {
				i--;	/* the loop's step */
				continue;
			}
		}
		c = v->sbmap[p[i]];
		if ((p[i] >= 0x80 || v->u8skip > 0) && sb_utf8(v, p, i, n, eof))
			break;
		if (c == SB_BAD) {
			illegal(v, p + i, 1, 0);
			v->pos.col++;
			v->off++;
			continue;
		}
		/* XML 1.0 section 2.2 discourages C1 controls: under
		 * ISO-8859-n they are reported (at the end, unless the
		 * text is UTF-8 after all). */
		if (v->iso8859 && c >= 0x80 && c <= 0x9F && v->c1++ == 0) {
			v->c1char = c;
			v->c1off = v->off;
			v->c1line = v->pos.line;
			v->c1col = v->pos.col;
		}
		put(v, c, v->off);
		v->off++;
	}
	return i;
}

/* Account for the characters iconv wrote to out[0..len), all at the
 * current offset. */
static void
put_out(struct val *v, const unsigned char *out, size_t len)
{
	size_t k;

	for (k = 0; k + 4 <= len; k += 4)
		put(v, load_le32(out + k), v->off);
}

/* At the end of the input: the characters a decoder still holds
 * (windows-1258 keeps a letter back for a combining mark). */
static void
flush_decoder(struct val *v)
{
	unsigned char out[64];
	char *op = (char *)out;
	size_t ol = sizeof(out);

	iconv(v->cd, NULL, NULL, &op, &ol);
	put_out(v, out, (size_t)(op - (char *)out));
}

/* Whether p[0..len), which the decoder calls incomplete at the end of
 * the input, starts some character (icap_starts_char); only a stateless
 * decoder is asked, since the probes reset its state. */
static int
starts_char(struct val *v, const unsigned char *p, size_t len)
{
	return !v->stateless || icap_starts_char(v->cd, p, len);
}

/* Any other encoding: one character at a time, so that every offset is
 * exact and stateful encodings (ISO-2022-*) keep their state. */
static size_t
feed_iconv(struct val *v, const unsigned char *p, size_t n, int eof)
{
	size_t i = 0;

	while (i < n) {
		unsigned char out[64];
		char *ip = (char *)(p + i), *op = (char *)out;
		/* A small window: glibc converts far ahead of a small output
		 * buffer, so the whole rest would cost its length per call. */
		size_t win = n - i < 32 ? n - i : 32;
		size_t il = win, ol = 4, used;
		size_t r = iconv(v->cd, &ip, &il, &op, &ol);
		int e = errno, progress;

		if (r == (size_t)-1 && e == E2BIG && op == (char *)out) {
			/* One input sequence, several characters. */
			ol = sizeof(out);
			r = iconv(v->cd, &ip, &il, &op, &ol);
			e = errno;
		}
		if (r == (size_t)-1 && e == EINVAL && ip == (char *)(p + i) &&
		    op == (char *)out && win < n - i) {
			/* A sequence longer than the window. */
			il = n - i;
			r = iconv(v->cd, &ip, &il, &op, &ol);
			e = errno;
		}
		used = (size_t)(ip - (char *)(p + i));
		progress = used > 0 || op != (char *)out;
		put_out(v, out, (size_t)(op - (char *)out));
		i += used;
		v->off += used;
		if (r != (size_t)-1 || (progress && (e == E2BIG || e == EINVAL)))
			continue;
		if (e == EINVAL && (!eof || starts_char(v, p + i, n - i))) {
			/* The rest of the data is one incomplete sequence. */
			if (!eof)
				break;
			illegal(v, p + i, n - i, 1);
			v->off += n - i;
			i = n;
		} else {
			/* EILSEQ, or a sequence that makes more characters
			 * than any known one (E2BIG with no progress): one
			 * byte, or one code unit of a 16/32-bit encoding. */
			size_t k = v->step < n - i ? v->step : n - i;

			illegal(v, p + i, k, 0);
			v->pos.col++;
			v->off += k;
			i += k;
		}
	}
	if (eof && i == n)
		flush_decoder(v);
	return i;
}


/*
 * A stateless multi-byte encoding, validated only: decode blocks at once
 * and count lines and columns from the characters.  A block with anything
 * to report (an illegal sequence, a character that is not a Char) is
 * decoded again a character at a time for exact positions.
 */
static size_t
feed_iconv_bulk(struct val *v, const unsigned char *p, size_t n, int eof)
{
	static unsigned char out[4 * 4096 + 64];
	size_t i = 0;

	while (i < n) {
		size_t block = n - i < 4096 ? n - i : 4096, used, k, nc;
		char *ip = (char *)(p + i), *op = (char *)out;
		size_t il = block, ol = sizeof(out);
		size_t r = iconv(v->cd, &ip, &il, &op, &ol);
		int e = errno;
		struct linepos pos = v->pos;
		struct late lt = v->late;
		int clean = 1;

		used = (size_t)(ip - (char *)(p + i));
		nc = (size_t)(op - (char *)out) / 4;
		for (k = 0; k < nc && clean; k++) {
			uint32_t c = load_le32(out + 4 * k);

			/* A late declaration, too, is found again a
			 * character at a time, for its offset. */
			if (!xml_char_ok(c, 0) || (v->late.decoded &&
			    late_char(&lt, (long)c, (uint64_t)-2, 0, 0)))
				clean = 0;
			else
				linepos_step(&pos, c, 0);
		}
		/* The lexer may be left after a '<' whose offset the block
		 * does not tell. */
		if (clean && v->late.decoded && late_pending(&lt))
			clean = 0;
		/* A transcoder takes the characters, or none of them when
		 * it lacks one: then the block goes a character at a time,
		 * for the position of that one. */
		if (clean && used > 0 && v->sink != NULL && (v->block == NULL ||
		    v->block(v->sink_ctx, out, 4 * nc) != 4 * nc))
			clean = 0;
		if (clean && used > 0) {
			v->late = lt;
			v->pos = pos;
			v->off += used;
			i += used;
		}
		/* A character cut by the end of the block: the next block
		 * starts with it; cut by the end of the data: carry it. */
		if (clean && r == (size_t)-1 && e == EINVAL) {
			if (i < n && block < n - (i - used) && used > 0)
				continue;
			if (!eof)
				break;
		}
		if (!clean || (r == (size_t)-1 && e != E2BIG)) {
			/* Exact positions, a character at a time, for this
			 * block (or what is left of it). */
			size_t rest = n - i < 4096 ? n - i : 4096, m;

			iconv(v->cd, NULL, NULL, NULL, NULL);
			m = feed_iconv(v, p + i, rest, eof && rest == n - i);
			if (m == 0)
				break;
			i += m;
		} else if (used == 0)
			break;
	}
	if (eof && i == n)
		flush_decoder(v);
	return i;
}

/*
 * Validate the next n bytes of the entity; eof says they are the last.
 * Return how many were consumed: fewer than n only when not eof and the
 * data ends inside a character, whose bytes the caller passes again.
 */
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
		return feed_sb(v, p, n, eof);
	if (v->off < v->exact_to) {
		m = v->exact_to - v->off < n ? (size_t)(v->exact_to - v->off) :
		    n;
		if ((k = feed_iconv(v, p, m, eof && m == n)) < m || k == n)
			return k;
	}
	return k + (v->stateless && !v->xml11 && !char_only() &&
	    (v->sink == NULL || v->block != NULL) ?
	    feed_iconv_bulk(v, p + k, n - k, eof) :
	    feed_iconv(v, p + k, n - k, eof));
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
		late_report(v, at, line, col);
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

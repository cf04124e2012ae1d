/*
 * Transcoding (--transcode-to).  The entity is decoded with its
 * authoritative encoding (by the validator, which sends each character
 * here) and written in the target with exactly the BOM and declaration
 * that RFC 7303 section 3.3 and XML 1.0 section 4.3.3 require (target.c
 * says which), through the caller's writer; nothing is printed: why a
 * transcode was refused or failed is a message for the caller.
 */
#include <sys/stat.h>

#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "iconvcap.h"
#include "iconvout.h"
#include "target.h"
#include "xc.h"
#include "xmllex.h"

/* A plain run p[0..n) (whole, valid characters) in form from, written in
 * the Unicode target (conv_run()), in pieces that fit the output buffer. */
static void
unicode_to(struct xc *x, const unsigned char *p, size_t n, int from)
{
	int to = x->xo->kind;

	while (n > 0) {
		size_t m = conv_cut(from, p, n, OBUF_SIZE / 8);
		unsigned char *o = out_room(x, conv_room(from, to, m));

		x->on += conv_run(from, to, p, m, o);
		p += m;
		n -= m;
	}
}

/* Bytes p[0..n) of the single-byte source in a Unicode target. */
static void
sb_to(struct xc *x, const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (x->xo->kind != FORM_UTF8) {
		/* Single-byte encodings stay in the BMP. */
		int to = x->xo->kind, be = to == FORM_UTF16BE ||
		    to == FORM_UTF32BE, w = to == FORM_UTF16BE ||
		    to == FORM_UTF16LE ? 2 : 4;

		while (i < n) {
			size_t chunk = n - i < OBUF_SIZE / 8 ? n - i :
			    OBUF_SIZE / 8;
			unsigned char *o = out_room(x, (size_t)w * chunk);

			memset(o, 0, (size_t)w * chunk);
			for (; chunk > 0; chunk--, i++, o += w) {
				uint32_t c = x->sbmap[p[i]];

				o[be ? w - 2 : 1] = (unsigned char)(c >> 8);
				o[be ? w - 1 : 0] = (unsigned char)c;
			}
			x->on = (size_t)(o - x->obuf);
		}
		return;
	}
	while (i < n) {
		size_t chunk = n - i < OBUF_SIZE / 4 ? n - i : OBUF_SIZE / 4;
		unsigned char *o = out_room(x, 3 * chunk + 8);

		for (; chunk > 0; chunk--, i++) {
			const unsigned char *e = x->sb8[p[i]];
			uint64_t w;

			/* Eight ASCII bytes that stand for themselves. */
			if (x->sb_ascii && chunk >= 8 && (memcpy(&w, p + i, 8),
			    (w & 0x8080808080808080ULL) == 0)) {
				memcpy(o, &w, 8);
				o += 8;
				i += 7;
				chunk -= 7;
				continue;
			}

			/* The bytes and (past them, to be overwritten) the
			 * length, in one store. */
			memcpy(o, e, 4);
			o += e[3];
		}
		x->on = (size_t)(o - x->obuf);
	}
}

/*
 * The validator's run sink: a run of plain characters as bytes (form
 * FORM_UTF8, FORM_UTF16BE/LE or FORM_UTF32BE/LE; or FORM_SB).  Unicode targets
 * convert it directly; an iconv target takes the ASCII it writes
 * unchanged.  Return how many bytes were taken; the rest comes character
 * by character.
 */
static size_t
run(void *ctx, const unsigned char *p, size_t n, int form)
{
	struct xc *x = ctx;
	enum form k = x->xo->kind;

	if (!x->failed && x->dg->d[D_ILLEGAL_SEQUENCE].count > 0)
		x->failed = 1;
	if (!x->started || x->failed)
		return 0;
	if (k != FORM_ICONV) {
		if (form == FORM_SB)
			sb_to(x, p, n);
		else if (form == (int)k)
			out_bytes(x, p, n);
		else
			unicode_to(x, p, n, form);
		return n;
	}
	return iout_run(x, p, n, form);
}

/* The validator's block sink: decoded characters (UTF-32LE) of a stateless
 * multi-byte source, all written or none. */
static size_t
block(void *ctx, const unsigned char *p, size_t n)
{
	struct xc *x = ctx;
	enum form k = x->xo->kind;
	size_t j, t;

	if (!x->failed && x->dg->d[D_ILLEGAL_SEQUENCE].count > 0)
		x->failed = 1;
	if (!x->started || x->failed)
		return 0;
	if (k != FORM_ICONV) {
		unicode_to(x, p, n, FORM_UTF32LE);
		return n;
	}
	/* All or nothing: nothing is written unless the target
	 * has every character. */
	for (j = 0; j + 4 <= n; j += 4)
		if (!icap_known(&x->ic, load_le32(p + j)))
			return 0;
	if ((t = iout_run(x, p, n, FORM_UTF32LE)) < n && !x->failed) {
		/* iconv refused what it wrote before: stop rather
		 * than write the block twice. */
		x->failed = 1;
		diag_add(x->dg, D_UNREPRESENTABLE, 0, 1, 1, "iconv "
		    "refused a character it had written before; "
		    "nothing was written");
	}
	return n;
}

/* Write character c in the target (ok: a reference may stand for it). */
static void
emit(struct xc *x, uint32_t c, int ok, uint64_t off, uint64_t line,
    uint64_t col)
{
	if (x->xo->kind == FORM_ICONV)
		iout_char(x, c, ok, off, line, col);
	else {
		unsigned char *o = out_room(x, 4);

		x->on += target_put(x->xo->kind, c, o);
	}
}

/* Write the BOM and the declaration (target_decl), before the first
 * character of content (first, or none when has_first is 0). */
static void
write_head(struct xc *x, uint32_t first, int has_first)
{
	const struct decl *d = &x->s->decl;
	const struct xopts *xo = x->xo;
	size_t usz = (size_t)unit_size(x->s->bom != BOM_NONE ?
	    unit_of_bom(x->s->bom) : unit_of_pat(x->s->pat));
	size_t i, n;

	x->started = 1;
	/* RFC 3629 section 6: a leading U+FEFF of content would read as a
	 * BOM, so in UTF-8 without a declaration it gets a real BOM first. */
	if (xo->bom || (xo->kind == FORM_UTF8 && !d->present && has_first &&
	    first == 0xFEFF))
		emit(x, 0xFEFF, 0, 0, 1, 1);
	n = target_decl(xo, d, usz, x->decl, x->ndecl, x->dout);
	for (i = 0; i < n; i++)
		emit(x, x->dout[i], 0, d->present ? d->start : 0, 1, 1);
	if (x->s->role == ROLE_DTD)
		xlex_dtd(&x->lx);
}

/* The validator's sink: every character of the entity after the BOM. */
static void
sink(void *ctx, uint32_t c, uint64_t off, uint64_t line, uint64_t col)
{
	struct xc *x = ctx;

	/* An illegal sequence fails the transcode (no character may be
	 * guessed); write nothing more. */
	if (!x->failed && x->dg->d[D_ILLEGAL_SEQUENCE].count > 0)
		x->failed = 1;
	if (x->failed)
		return;
	if (!x->started) {
		const struct decl *d = &x->s->decl;

		if (d->present && off < d->end && x->ndecl < DECL_MAX) {
			x->decl[x->ndecl++] = c;
			return;
		}
		write_head(x, c, 1);
	}
	/* Only an iconv target can lack a character: only it needs the
	 * lexical context. */
	emit(x, c, x->xo->kind == FORM_ICONV ? xlex(&x->lx, c) : 0, off, line,
	    col);
}

static void
xc_free(struct xc *x)
{
	if (x->cd != (iconv_t)-1)
		iconv_close(x->cd);
	icap_close(&x->ic);
	free(x);
}

/* Why a transcode is not done, into why (size bytes); return 1. */
static int
refuse(char *why, size_t size, const char *fmt)
{
	snprintf(why, size, "%s", fmt);
	return 1;
}

/*
 * Return 0 when the entity s may be transcoded; otherwise 1 with the
 * reason in why (strict: an input with errors is refused, --strict).
 */
int
xlate_check(const struct sniff *s, int strict, char *why, size_t size)
{
	why[0] = '\0';
	if (strict && s->dg.errors > 0)
		return refuse(why, size, "the input has errors (--strict)");
	if (s->dec == FORM_NONE)
		return refuse(why, size, "its encoding cannot be decoded");
	if (s->dg.d[D_BAD_DECLARATION].count ||
	    s->dg.d[D_DECL_NOT_AT_START].count)
		return refuse(why, size, "the declaration must be mended first");
	if (s->doubt)
		return refuse(why, size, "the bytes after the BOM contradict "
		    "it, so the encoding is in doubt; correct the BOM or the "
		    "content first");
	if (s->decl.present && !target_decl_ok(s))
		return refuse(why, size, "the charset parameter contradicts "
		    "the byte layout of the declaration; correct the charset");
	return 0;
}

/* A single-byte source: whether its bytes below 0x80 are ASCII, and each
 * byte's character in UTF-8 for sb_to. */
static void
source_table(struct xc *x)
{
	int b;

	x->sb_ascii = 1;
	for (b = 0; b < 0x80; b++)
		if (x->sbmap[b] != (uint32_t)b)
			x->sb_ascii = 0;
	for (b = 0; b < 256; b++) {
		uint32_t c = x->sbmap[b];
		unsigned char *e = x->sb8[b];

		/* Only characters that need no check reach sb_to; they are
		 * all in the BMP. */
		if (c < 0x10000)
			e[3] = (unsigned char)utf8_enc(e, c);
	}
}

/* A single-byte, ASCII-compatible source in a single-byte target: the
 * target's byte for each source byte it has (xlat_run), unless a byte
 * from 0x80 up is ASCII, which the lexer would miss. */
static void
xlat_table(struct xc *x)
{
	int b;

	x->xlat_on = 1;
	for (b = 0; b < 256; b++) {
		uint32_t u = x->sbmap[b];

		if (b >= 0x80 && u < 0x80)
			x->xlat_on = 0;
		if (u < 0x10000 && (x->ic.sb_has[u >> 3] & (1 << (u & 7)))) {
			x->xlat[b] = x->ic.sb_byte[u];
			x->xlat_ok[b] = 1;
		}
	}
}

/* The transcoder of s to xo and the validator that feeds it (in *vp),
 * its decoders from cache; NULL with the reason in why. */
static struct xc *
xc_new(struct sniff *s, const struct xopts *xo, struct dcaches *cache,
    struct val **vp, char *why, size_t size)
{
	struct xc *x;

	if ((x = calloc(1, sizeof(*x))) == NULL) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	x->xo = xo;
	x->s = s;
	x->lx.xml11 = s->xml11;
	x->dg = &s->dg;
	x->cd = (iconv_t)-1;
	x->ic.enc = x->ic.dec = (iconv_t)-1;
	if (xo->kind == FORM_ICONV &&
	    ((x->cd = iconv_open_held(xo->iconv, enc_u32le())) == (iconv_t)-1 ||
	    icap_open(&x->ic, xo->iconv) < 0)) {
		snprintf(why, size, "iconv cannot write %s", xo->to.name);
		xc_free(x);
		return NULL;
	}
	if ((*vp = val_open(s, &s->dg, cache)) == NULL) {
		snprintf(why, size, "cannot decode the input");
		xc_free(x);
		return NULL;
	}
	val_set_sink(*vp, sink, run, block, x);
	if ((x->sbmap = val_sbmap(*vp)) != NULL)
		source_table(x);
	if (xo->kind == FORM_ICONV) {
		icap_probe(&x->ic);
		if (x->ic.sbt && x->sbmap != NULL && x->sb_ascii)
			xlat_table(x);
		if (x->ic.sbt) {
			int c;

			x->sbt_ascii = 1;
			for (c = 0; c < 0x80; c++)
				if (!(x->ic.sb_has[c >> 3] & (1 << (c & 7))) ||
				    x->ic.sb_byte[c] != c)
					x->sbt_ascii = 0;
		}
	}
	return x;
}

/* After the last character: the BOM and declaration of an entity that
 * had no content, and what an iconv target still holds. */
static void
finish(struct xc *x)
{
	if (!x->started)
		write_head(x, 0, 0);
	if (x->xo->kind == FORM_ICONV)
		iout_end(x);
}

/* Why a transcode failed, into why, unless a diagnostic already says it
 * (then ""); --ignore hides a code, never the failure. */
static void
explain(const struct sniff *s, char *why, size_t size)
{
	if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 &&
	    diag_ignored(&s->dg, D_ILLEGAL_SEQUENCE))
		refuse(why, size, "the input has illegal bytes (ignored "
		    "illegal-sequence); nothing is guessed");
	else if (s->dg.d[D_UNREPRESENTABLE].count > 0 &&
	    diag_ignored(&s->dg, D_UNREPRESENTABLE))
		refuse(why, size, "a character cannot be written in the target "
		    "(ignored unrepresentable)");
	else if (s->dg.d[D_UNREPRESENTABLE].count == 0 &&
	    s->dg.d[D_ILLEGAL_SEQUENCE].count == 0)
		refuse(why, size, "the input has errors (--strict)");
	else
		why[0] = '\0';
}

/* One transcode under way, from xlate_new() to xlate_free(). */
struct xlate {
	struct xc		*x;
	struct val		*v;
	const struct xopts	*xo;
	struct sniff		*s;
	int			 strict;
};

/*
 * Begin transcoding the entity s (checked by xlate_check) to xo (strict:
 * --strict), written through write with ctx, its decoders from cache.
 * write is called first with no bytes, as the transcode begins: its
 * caller may stop it there (nonzero), as after a write that failed.
 * Return the transcode and in *vp the validator to feed the whole entity
 * to (xlate_failed() says when to stop), or NULL with the reason in why
 * (*status 2: it cannot begin; 3: write stopped it).
 */
struct xlate *
xlate_new(struct sniff *s, const struct xopts *xo, int strict,
    xlate_write_fn write, void *ctx, struct dcaches *cache,
    struct val **vp, int *status, char *why, size_t size)
{
	struct xlate *xl;

	*status = 2;
	if ((xl = calloc(1, sizeof(*xl))) == NULL) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	if ((xl->x = xc_new(s, xo, cache, &xl->v, why, size)) == NULL) {
		free(xl);
		return NULL;
	}
	xl->x->write = write;
	xl->x->wctx = ctx;
	if (write(ctx, NULL, 0) != 0) {
		*status = 3;
		snprintf(why, size, "the writer stopped it as it began");
		xlate_free(xl);
		return NULL;
	}
	if (enc_is_32(xo->to.family))
		diag_add(&s->dg, D_UTF32, 0, 1, 1, "the output is UTF-32, "
		    "which is NOT RECOMMENDED for XML (RFC 7303 section 2.2)");
	xl->xo = xo;
	xl->s = s;
	xl->strict = strict;
	*vp = xl->v;
	return xl;
}

/* How it failed so far: 0 not, 1 unfaithful, 2 the writer failed. */
int
xlate_status(const struct xlate *xl)
{
	return xl->x->failed;
}

/* After each buffer fed: whether the transcode has failed, so that the
 * rest of the input need not be read.  Illegal input bytes always fail
 * it: no character is guessed. */
int
xlate_failed(struct xlate *xl)
{
	struct xc *x = xl->x;

	if (xl->s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 && !x->failed)
		x->failed = 1;
	return x->failed != 0;
}

/*
 * End the transcode xl after its input was fed (read_failed: a read
 * failed before the end): write the rest.  Return 0 on success; 1 when it
 * could not be done faithfully, with the reason in why ("" when a
 * diagnostic says it); 2 when the writer failed.
 */
int
xlate_end(struct xlate *xl, int read_failed, char *why, size_t size)
{
	struct xc *x = xl->x;
	struct sniff *s = xl->s;

	why[0] = '\0';
	if (read_failed)
		return 2;
	(void)xlate_failed(xl);
	if (!x->failed)
		finish(x);
	if (xl->strict && s->dg.errors > 0 && !x->failed)
		x->failed = 1;
	if (!x->failed)
		xc_flush(x);
	if (x->failed == 2)
		return 2;
	if (x->failed) {
		explain(s, why, size);
		return 1;
	}
	return 0;
}

void
xlate_free(struct xlate *xl)
{
	if (xl == NULL)
		return;
	val_free(xl->v);
	xc_free(xl->x);
	free(xl);
}

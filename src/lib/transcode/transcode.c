/*
 * Transcoding (--transcode-to).  The entity is decoded with its
 * authoritative encoding (by the validator, which sends each character
 * here) and written in the target with exactly the BOM and declaration
 * that RFC 7303 section 3.3 and XML 1.0 section 4.3.3 require (target.c
 * says which).  Output to a file goes through a temporary file renamed
 * over it on success only (dest.c).
 */
#include <sys/stat.h>

#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "dest.h"
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

/* A transcode not done, for a reason that is no I/O error: why, into o. */
static int
refuse(struct xlout *o, const char *name, const char *why)
{
	snprintf(o->refusal, sizeof(o->refusal), "%s", why);
	report_warn(name, 0, "not transcoded: %s", why);
	return 1;
}

/* Return 0 when the entity s may be transcoded; otherwise say why and
 * return the status (refuse()). */
static int
check_input(struct xlout *o, const char *name, const struct inbuf *in,
    const struct sniff *s, int strict, const char *output, int in_place)
{
	struct stat a, b;

	if (strict && s->dg.errors > 0)
		return refuse(o, name, "the input has errors (--strict)");
	if (s->dec == FORM_NONE)
		return refuse(o, name, "its encoding cannot be decoded");
	if (s->dg.d[D_BAD_DECLARATION].count || s->dg.d[D_DECL_NOT_AT_START].count)
		return refuse(o, name, "the declaration must be mended first");
	if (s->doubt)
		return refuse(o, name, "the bytes after the BOM contradict "
		    "it, so the encoding is in doubt; correct the BOM or the "
		    "content first");
	if (s->decl.present && !target_decl_ok(s))
		return refuse(o, name, "the charset parameter contradicts the "
		    "byte layout of the declaration; correct the charset");
	/* In place means a regular file, replaced by rename(2). */
	if (in_place && in->size < 0)
		return refuse(o, name, "--in-place needs a regular file") + 1;
	/* Writing into the FIFO or device being read would never end. */
	if (!in_place && output != NULL && strcmp(output, "-") != 0 &&
	    stat(output, &a) == 0 && !S_ISREG(a.st_mode) &&
	    fstat(in->fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return refuse(o, name, "-o names the input itself, which is "
		    "not a regular file") + 1;
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

/* The transcoder of s to xo and the validator that feeds it (in *vp);
 * NULL after the message. */
static struct xc *
xc_new(const char *name, struct sniff *s, const struct xopts *xo,
    struct val **vp)
{
	struct xc *x;

	if ((x = calloc(1, sizeof(*x))) == NULL) {
		dest_error("out of memory for", name);
		return NULL;
	}
	x->xo = xo;
	x->s = s;
	x->lx.xml11 = s->xml11;
	x->dg = &s->dg;
	x->cd = (iconv_t)-1;
	x->ic.enc = x->ic.dec = (iconv_t)-1;
	if (xo->kind == FORM_ICONV &&
	    ((x->cd = iconv_open(xo->iconv, enc_u32le())) == (iconv_t)-1 ||
	    icap_open(&x->ic, xo->iconv) < 0)) {
		xc_free(x);
		dest_error("iconv cannot write", xo->to.name);
		return NULL;
	}
	if ((*vp = val_new(s, &s->dg)) == NULL) {
		xc_free(x);
		dest_error("cannot decode", name);
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

/* Say why a transcode failed, unless a diagnostic or a refusal already
 * does; --ignore hides a code, never the failure. */
static void
explain(struct xlout *o, const char *name, const struct sniff *s)
{
	if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 &&
	    diag_ignored(&s->dg, D_ILLEGAL_SEQUENCE))
		refuse(o, name, "the input has illegal bytes (ignored "
		    "illegal-sequence); nothing is guessed");
	else if (s->dg.d[D_UNREPRESENTABLE].count > 0 &&
	    diag_ignored(&s->dg, D_UNREPRESENTABLE))
		refuse(o, name, "a character cannot be written in the target "
		    "(ignored unrepresentable)");
	else if (s->dg.d[D_UNREPRESENTABLE].count == 0 &&
	    s->dg.d[D_ILLEGAL_SEQUENCE].count == 0)
		refuse(o, name, "the input has errors (--strict)");
}

/* One transcode under way, from xlate_begin() to xlate_end(). */
struct xlate {
	struct xc		*x;
	struct val		*v;
	struct dest		 d;
	const char		*name, *dest;
	const struct xopts	*xo;
	struct sniff		*s;
	int			 strict, in_place;
	struct xlout		*out;
};

/*
 * Begin transcoding one entity: s is its sniff, in holds its first bytes.
 * The output goes to standard output, to output, or over the input
 * (in_place).  Return 0 with *xp set and *vp the validator to feed the
 * whole entity to (main.c reads it; xlate_failed() says when to stop),
 * or the status, with *xp NULL, when it cannot begin: 1 refused, 2 an I/O
 * error.
 */
int
xlate_begin(const char *name, const struct inbuf *in, struct sniff *s,
    const struct xopts *xo, int strict, const char *output, int in_place,
    struct xlate **xp, struct val **vp, struct xlout *out)
{
	struct xlate *xl;
	int rc;

	out->changed = 0;
	out->refusal[0] = '\0';
	*xp = NULL;
	if ((rc = check_input(out, name, in, s, strict, output,
	    in_place)) != 0)
		return rc;
	if ((xl = calloc(1, sizeof(*xl))) == NULL) {
		dest_error("out of memory for", name);
		return 2;
	}
	if ((xl->x = xc_new(name, s, xo, &xl->v)) == NULL) {
		free(xl);
		return 2;
	}
	xl->dest = in_place ? name : output;
	if ((xl->x->fd = dest_open(&xl->d, xl->dest)) < 0) {
		val_free(xl->v);
		xc_free(xl->x);
		free(xl);
		return 2;
	}
	if (enc_is_32(xo->to.family))
		diag_add(&s->dg, D_UTF32, 0, 1, 1, "the output is UTF-32, "
		    "which is NOT RECOMMENDED for XML (RFC 7303 section 2.2)");
	xl->name = name;
	xl->xo = xo;
	xl->s = s;
	xl->strict = strict;
	xl->in_place = in_place;
	xl->out = out;
	*xp = xl;
	*vp = xl->v;
	return 0;
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
 * End the transcode xl after its input in was fed (read_errno: the errno
 * of a read that failed, else 0): write the rest and replace the
 * destination, or leave it as it was.  Return 0 on success, 1 when it
 * could not be done faithfully (nothing is written to a file then), 2 on
 * an I/O error.
 */
int
xlate_end(struct xlate *xl, const struct inbuf *in, int read_errno)
{
	struct xc *x = xl->x;
	struct sniff *s = xl->s;
	int rc = 0, same = 0;

	if (read_errno != 0) {
		x->werrno = errno = read_errno;
		rc = dest_error("read error on", xl->name);
	}
	(void)xlate_failed(xl);
	if (rc == 0 && !x->failed)
		finish(x);
	if (xl->strict && s->dg.errors > 0 && !x->failed)
		x->failed = 1;
	if (rc == 0 && !x->failed)
		xc_flush(x);
	if (rc == 0 && x->failed == 2) {
		errno = x->werrno;
		rc = dest_error("write error on", xl->dest != NULL ? xl->dest :
		    "standard output");
	} else if (rc == 0 && x->failed)
		rc = 1;
	/* The same bytes: nothing to replace. */
	if (!xl->d.direct && rc == 0 && xl->in_place) {
		switch (dest_compare(&xl->d, in->fd, s, xl->xo)) {
		case 1:
			same = 1;
			break;
		case -1:
			rc = refuse(xl->out, xl->name, "re-encoding would "
			    "change the content, not only the BOM and "
			    "declaration");
			break;
		case -2:
			rc = dest_error("cannot compare", xl->name);
			break;
		}
	}
	rc = dest_close(&xl->d, rc, !same && !xl->xo->dry_run);
	if (!xl->d.direct)
		xl->out->changed = rc == 0 && !same;
	if (rc == 1 && xl->out->refusal[0] == '\0')
		explain(xl->out, xl->name, s);
	val_free(xl->v);
	xc_free(x);
	free(xl);
	return rc;
}

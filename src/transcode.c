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

#include "xmlsniff.h"
#include "transcode.h"

#define OBUF_SIZE	(128 * 1024)
#define PEND_MAX	4096		/* characters queued for iconv */
#define BULK_MAX	4096		/* characters converted at once */

struct xc {
	const struct xopts	*xo;
	const struct sniff	*s;
	struct diags		*dg;
	int			 fd;
	int			 failed;	/* 1 unfaithful, 2 I/O error */
	int			 werrno;
	size_t			 on;
	unsigned char		 obuf[OBUF_SIZE];
	/* The target through iconv. */
	iconv_t			 cd;
	struct icap		 ic;		/* what it can do */
	size_t			 np;
	unsigned char		 pb[PEND_MAX * 4];	/* UTF-32LE */
	unsigned char		 pok[PEND_MAX];
	uint64_t		 poff[PEND_MAX], pline[PEND_MAX];
	uint64_t		 pcol[PEND_MAX];
	/* The declaration, held until it is complete. */
	int			 started;
	size_t			 ndecl;
	uint32_t		 decl[DECL_MAX];
	struct xlex		 lx;		/* the lexical context */
	/* A single-byte source: its table, and each byte in UTF-8. */
	const uint32_t		*sbmap;
	unsigned char		 sb8[256][4];	/* the bytes, then the length */
	int			 sb_ascii;	/* bytes below 0x80 are ASCII */
	/* Plain runs for an iconv target, as UTF-32LE (BULK_MAX characters
	 * at most at a time). */
	unsigned char		 ubuf[4 * BULK_MAX + CONV_SLACK];
	/* ... and a single-byte source: each source byte's byte, when
	 * xlat_ok says it has one; bytes from 0x80 up are not ASCII, so
	 * xlex_skip may pass over source bytes (xlat_on). */
	int			 xlat_on;
	unsigned char		 xlat[256], xlat_ok[256];
};

static void
out_flush(struct xc *x)
{
	size_t done = 0;

	while (done < x->on && x->failed != 2) {
		ssize_t w = write(x->fd, x->obuf + done, x->on - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			x->werrno = errno;
			x->failed = 2;
			break;
		}
		done += (size_t)w;
	}
	x->on = 0;
}

static void
out_bytes(struct xc *x, const void *p, size_t n)
{
	const unsigned char *q = p;

	while (n > 0) {
		size_t k = OBUF_SIZE - x->on < n ? OBUF_SIZE - x->on : n;

		memcpy(x->obuf + x->on, q, k);
		x->on += k;
		q += k;
		n -= k;
		if (x->on == OBUF_SIZE)
			out_flush(x);
	}
}

static void
unrepresentable(struct xc *x, uint32_t c, uint64_t off, uint64_t line,
    uint64_t col, int ncr_possible)
{
	/* Where c stands: the state the lexer is in once it has read c. */
	const char *w = xlex_where(&x->lx);

	if (x->failed)
		return;
	x->failed = 1;
	if (c == '&' && !ncr_possible && (x->lx.lex == L_TEXT ||
	    x->lx.lex == L_ATTR))
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "%s cannot "
		    "write \"&\", so not even a character reference can stand "
		    "for a character it lacks; choose another target",
		    x->xo->to.name);
	else if (ncr_possible)
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "U+%04X "
		    "cannot be written in %s; use --fallback=ncr to write "
		    "&#x%X; or choose a target that has it", (unsigned)c,
		    x->xo->to.name, (unsigned)c);
	else
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "U+%04X in "
		    "%s cannot be written in %s, and XML allows no character "
		    "reference there; choose a target that has it",
		    (unsigned)c, w, x->xo->to.name);
}

/* Convert the queued characters through iconv; on one the target lacks,
 * write a character reference where allowed, else fail. */
static void
drain(struct xc *x)
{
	unsigned char tmp[PEND_MAX * 4];
	size_t k = 0;

	while (k < x->np && !x->failed) {
		char *ip = (char *)x->pb + 4 * k, *op = (char *)tmp;
		size_t il = 4 * (x->np - k), ol = sizeof(tmp);
		size_t r = iconv(x->cd, &ip, &il, &op, &ol);
		int e = errno;

		out_bytes(x, tmp, (size_t)(op - (char *)tmp));
		k = (size_t)(ip - (char *)x->pb) / 4;
		if (r != (size_t)-1 && r > 0) {
			/* musl and others substitute instead of failing. */
			x->failed = 1;
			diag_add(x->dg, D_UNREPRESENTABLE, x->poff[0],
			    x->pline[0], x->pcol[0], "iconv replaced %zu "
			    "characters that %s lacks; nothing was written",
			    r, x->xo->to.name);
			break;
		}
		if (r != (size_t)-1 || e == E2BIG)
			continue;
		{
			const unsigned char *b = x->pb + 4 * k;
			uint32_t c = load_le32(b);

			if (e == EILSEQ && x->xo->fallback == FB_NCR &&
			    x->pok[k]) {
				char ref[16];
				unsigned char rb[64];
				int i, len = snprintf(ref, sizeof(ref),
				    "&#x%04X;", (unsigned)c);

				for (i = 0; i < len; i++) {
					rb[4 * i] = (unsigned char)ref[i];
					rb[4 * i + 1] = rb[4 * i + 2] =
					    rb[4 * i + 3] = 0;
				}
				ip = (char *)rb;
				il = 4 * (size_t)len;
				op = (char *)tmp;
				ol = sizeof(tmp);
				if (iconv(x->cd, &ip, &il, &op, &ol) ==
				    (size_t)-1) {
					unrepresentable(x, '&', x->poff[k],
					    x->pline[k], x->pcol[k], 0);
					break;
				}
				out_bytes(x, tmp, (size_t)(op - (char *)tmp));
				k++;
				continue;
			}
			unrepresentable(x, c, x->poff[k], x->pline[k],
			    x->pcol[k], x->pok[k]);
		}
	}
	x->np = 0;
}

/* Room for need bytes at the end of the output buffer. */
static unsigned char *
out_room(struct xc *x, size_t need)
{
	if (OBUF_SIZE - x->on < need)
		out_flush(x);
	return x->obuf + x->on;
}

/* The run form (RUN_...) a Unicode target writes. */
static int
target_form(enum tkind k)
{
	switch (k) {
	case T_UTF8:
		return RUN_UTF8;
	case T_UTF16BE:
		return RUN_UTF16BE;
	case T_UTF16LE:
		return RUN_UTF16LE;
	case T_UTF32BE:
		return RUN_UTF32BE;
	default:
		return RUN_UTF32LE;
	}
}

/* A plain run p[0..n) (whole, valid characters) in form from, written in
 * the Unicode target (conv.c), in pieces that fit the output buffer. */
static void
unicode_to(struct xc *x, const unsigned char *p, size_t n, int from)
{
	int to = target_form(x->xo->kind);

	while (n > 0) {
		size_t m = conv_cut(from, p, n, OBUF_SIZE / 8);
		unsigned char *o = out_room(x, conv_room(from, to, m));

		x->on += conv_run(from, to, p, m, o);
		p += m;
		n -= m;
	}
}

static void emit(struct xc *, uint32_t, int, uint64_t, uint64_t, uint64_t);

/* Bytes p[0..n) of the single-byte source in a Unicode target. */
static void
sb_to(struct xc *x, const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (x->xo->kind != T_UTF8) {
		/* Single-byte encodings stay in the BMP. */
		int to = target_form(x->xo->kind), be = to == RUN_UTF16BE ||
		    to == RUN_UTF32BE, w = to == RUN_UTF16BE ||
		    to == RUN_UTF16LE ? 2 : 4;

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

/* The bytes of the first k characters of p (form). */
static size_t
chars_bytes(const unsigned char *p, size_t k, int form)
{
	size_t i = 0;

	if (form == RUN_UTF32LE || form == RUN_UTF32BE)
		return 4 * k;
	if (form == RUN_SB)
		return k;
	while (k-- > 0) {
		if (form == RUN_UTF8)
			i += p[i] < 0x80 ? 1 : p[i] < 0xE0 ? 2 : p[i] < 0xF0 ?
			    3 : 4;
		else
			i += (p[i + (form == RUN_UTF16LE)] & 0xFC) == 0xD8 ? 4 :
			    2;
	}
	return i;
}

/* The first k of the nc characters of the block q[0..m) (form; in
 * x->ubuf as UTF-32LE) are written: follow the lexical context through
 * them, and return their bytes. */
static size_t
written(struct xc *x, const unsigned char *q, size_t m, size_t k, size_t nc,
    int form)
{
	if (k < nc)
		m = chars_bytes(q, k, form);
	if (form == RUN_UTF8)
		xlex_utf8(&x->lx, q, m);
	else
		xlex_chars(&x->lx, x->ubuf, k);
	return m;
}

/*
 * The ASCII at the start of q[0..n) that the iconv target writes as it is
 * (q[0] is such a byte), written as it is after a return to the initial
 * shift state; return its bytes.
 */
static size_t
ascii_run(struct xc *x, const unsigned char *q, size_t n)
{
	unsigned char tmp[64];
	char *op = (char *)tmp;
	size_t ol = sizeof(tmp), m;

	if (x->ic.ident_all) {
		/* Only TAB, LF and 0x20-0x7F below 0x80 here, all written as
		 * they are. */
		for (m = 0; m + 8 <= n; m += 8) {
			uint64_t w;

			memcpy(&w, q + m, 8);
			if (w & 0x8080808080808080ULL)
				break;
		}
		while (m < n && q[m] < 0x80)
			m++;
	} else
		for (m = 0; m < n && q[m] < 0x80 && x->ic.ident[q[m]]; m++)
			;
	/* Back to the initial shift state, in which the ASCII is written as
	 * it is. */
	iconv(x->cd, NULL, NULL, &op, &ol);
	out_bytes(x, tmp, (size_t)(op - (char *)tmp));
	out_bytes(x, q, m);
	xlex_bytes(&x->lx, q, m, NULL);
	return m;
}

/* Single-byte source to single-byte target, byte for byte: q[0..len) up
 * to the first byte the target lacks; return the bytes written. */
static size_t
xlat_run(struct xc *x, const unsigned char *q, size_t len)
{
	unsigned char *o = out_room(x, len);
	size_t k;

	for (k = 0; k < len && x->xlat_ok[q[k]]; k++)
		o[k] = x->xlat[q[k]];
	x->on += k;
	xlex_bytes(&x->lx, q, k, x->sbmap);
	return k;
}

/* A block of at most want characters from q[0..n) (form) into x->ubuf as
 * UTF-32LE; return its characters, its bytes in *m. */
static size_t
to_u32(struct xc *x, const unsigned char *q, size_t n, int form,
    size_t want, size_t *m)
{
	size_t k;

	if (form != RUN_SB) {
		*m = conv_cut(form, q, n, want);
		return conv_run(form, RUN_UTF32LE, q, *m, x->ubuf) / 4;
	}
	*m = n < want ? n : want;
	for (k = 0; k < *m; k++) {
		uint32_t c = x->sbmap[q[k]];

		x->ubuf[4 * k] = (unsigned char)c;
		x->ubuf[4 * k + 1] = (unsigned char)(c >> 8);
		x->ubuf[4 * k + 2] = x->ubuf[4 * k + 3] = 0;
	}
	return *m;
}

/* The nc characters in x->ubuf in a single-byte target, from its table,
 * up to a character it lacks; return how many were written. */
static size_t
table_block(struct xc *x, size_t nc)
{
	unsigned char *o = out_room(x, nc);
	size_t k;

	for (k = 0; k < nc; k++) {
		uint32_t c = load_le32(x->ubuf + 4 * k);

		if (c >= 0x10000 || !(x->ic.sb_has[c >> 3] & (1 << (c & 7))))
			break;
		o[k] = x->ic.sb_byte[c];
	}
	x->on += k;
	return k;
}

/* How many of the nc characters in x->ubuf, from the first, survive the
 * target. */
static size_t
good_prefix(struct xc *x, size_t nc)
{
	size_t k;

	for (k = 0; k < nc; k++) {
		uint32_t c = load_le32(x->ubuf + 4 * k);

		/* Known good (the usual case) in one test. */
		if (c < 0x10000 && (x->ic.good[c >> 3] & (1 << (c & 7))))
			continue;
		if (!icap_known(&x->ic, c))
			break;
	}
	return k;
}

/* The first k characters in x->ubuf through iconv; return how many it
 * converted, or (size_t)-1 when it substituted some (which fails the
 * transcode). */
static size_t
iconv_block(struct xc *x, size_t k)
{
	char *ip = (char *)x->ubuf, *op;
	size_t il = 4 * k, ol, r = 0;

	while (il > 0) {
		op = (char *)out_room(x, OBUF_SIZE / 2);
		ol = OBUF_SIZE / 2;
		r = iconv(x->cd, &ip, &il, &op, &ol);
		x->on = (size_t)((unsigned char *)op - x->obuf);
		if (r == (size_t)-1 && errno == E2BIG)
			continue;
		break;
	}
	if (r != (size_t)-1 && r > 0) {
		/* Substituted despite the round trip: say so rather than
		 * write it. */
		x->failed = 1;
		diag_add(x->dg, D_UNREPRESENTABLE, 0, 1, 1, "iconv replaced "
		    "%zu characters that %s lacks; nothing was written", r,
		    x->xo->to.name);
		return (size_t)-1;
	}
	/* Anything iconv refused after all goes a character at a time. */
	return (size_t)(ip - (char *)x->ubuf) / 4;
}

/*
 * A plain run p[0..n) (form RUN_UTF8, RUN_UTF16BE/LE, RUN_UTF32BE/LE or
 * RUN_SB) in an iconv target.  ASCII that the target writes as it is goes
 * out as it is; the rest is converted through iconv in blocks, up to the
 * first character the target lacks (which the validator then passes a
 * character at a time, with its position, for the diagnostic or the
 * reference).  Return the bytes taken.
 */
static size_t
iconv_run(struct xc *x, const unsigned char *p, size_t n, int form)
{
	size_t done = 0, want = 64;

	/* Queued characters come first. */
	drain(x);
	while (done < n && !x->failed) {
		const unsigned char *q = p + done;
		size_t m, nc, k;

		if ((form == RUN_UTF8 || (form == RUN_SB && x->sb_ascii)) &&
		    q[0] < 0x80 && x->ic.ident[q[0]]) {
			done += ascii_run(x, q, n - done);
			continue;
		}
		if (form == RUN_SB && x->xlat_on) {
			m = n - done < BULK_MAX ? n - done : BULK_MAX;
			done += k = xlat_run(x, q, m);
			if (k < m)
				break;
			continue;
		}
		/* A block, growing: a run that stops at once costs little. */
		nc = to_u32(x, q, n - done, form, want, &m);
		if (want < BULK_MAX)
			want *= 4;
		if (x->ic.sbt)
			k = table_block(x, nc);
		else if ((k = good_prefix(x, nc)) > 0 &&
		    (k = iconv_block(x, k)) == (size_t)-1)
			break;
		if (k > 0 || x->ic.sbt)
			done += written(x, q, m, k, nc, form);
		if (k < nc)
			break;
	}
	return done;
}

/*
 * The validator's run sink: a run of plain characters as bytes (form
 * RUN_UTF8, RUN_UTF16BE/LE or RUN_UTF32BE/LE; or RUN_SB).  Unicode targets
 * convert it directly; an iconv target takes the ASCII it writes
 * unchanged.  Return how many bytes were taken; the rest comes character
 * by character.
 */
static size_t
run(void *ctx, const unsigned char *p, size_t n, int form)
{
	struct xc *x = ctx;
	enum tkind k = x->xo->kind;

	if (!x->failed && x->dg->d[D_ILLEGAL_SEQUENCE].count > 0)
		x->failed = 1;
	if (!x->started || x->failed)
		return 0;
	if (form == RUN_BLOCKS)
		return 1;
	if (form == RUN_DECODED) {
		size_t j, t;

		if (k != T_ICONV) {
			unicode_to(x, p, n, RUN_UTF32LE);
			return n;
		}
		/* All or nothing: nothing is written unless the target
		 * has every character. */
		for (j = 0; j + 4 <= n; j += 4)
			if (!icap_known(&x->ic, load_le32(p + j)))
				return 0;
		if ((t = iconv_run(x, p, n, RUN_UTF32LE)) < n && !x->failed) {
			/* iconv refused what it wrote before: stop rather
			 * than write the block twice. */
			x->failed = 1;
			diag_add(x->dg, D_UNREPRESENTABLE, 0, 1, 1, "iconv "
			    "refused a character it had written before; "
			    "nothing was written");
		}
		return n;
	}
	if (k != T_ICONV) {
		if (form == RUN_SB)
			sb_to(x, p, n);
		else if (form == target_form(k))
			out_bytes(x, p, n);
		else
			unicode_to(x, p, n, form);
		return n;
	}
	return iconv_run(x, p, n, form);
}

/* Write character c in the target (ok: a reference may stand for it). */
static void
emit(struct xc *x, uint32_t c, int ok, uint64_t off, uint64_t line,
    uint64_t col)
{
	unsigned char b[4];

	switch (x->xo->kind) {
	case T_UTF8: {
		unsigned char *o = out_room(x, 4);

		o += utf8_enc(o, c);
		x->on = (size_t)(o - x->obuf);
		return;
	}
	case T_UTF16BE:
	case T_UTF16LE: {
		int be = x->xo->kind == T_UTF16BE;
		uint32_t u[2];
		int i, n = 1;

		if (c >= 0x10000) {
			u[0] = 0xD800 + ((c - 0x10000) >> 10);
			u[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
			n = 2;
		} else
			u[0] = c;
		for (i = 0; i < n; i++) {
			b[be ? 0 : 1] = (unsigned char)(u[i] >> 8);
			b[be ? 1 : 0] = (unsigned char)u[i];
			out_bytes(x, b, 2);
		}
		return;
	}
	case T_UTF32BE:
	case T_UTF32LE:
		if (x->xo->kind == T_UTF32BE) {
			b[0] = (unsigned char)(c >> 24);
			b[1] = (unsigned char)(c >> 16);
			b[2] = (unsigned char)(c >> 8);
			b[3] = (unsigned char)c;
		} else {
			b[3] = (unsigned char)(c >> 24);
			b[2] = (unsigned char)(c >> 16);
			b[1] = (unsigned char)(c >> 8);
			b[0] = (unsigned char)c;
		}
		out_bytes(x, b, 4);
		return;
	case T_ICONV:
		if (!icap_rt(&x->ic, c)) {
			char ref[16];
			int i, len;

			if (x->xo->fallback != FB_NCR || !ok) {
				drain(x);
				unrepresentable(x, c, off, line, col, ok);
				return;
			}
			len = snprintf(ref, sizeof(ref), "&#x%04X;", (unsigned)c);
			for (i = 0; i < len; i++)
				emit(x, (unsigned char)ref[i], 0, off, line, col);
			return;
		}
		x->pb[4 * x->np] = (unsigned char)c;
		x->pb[4 * x->np + 1] = (unsigned char)(c >> 8);
		x->pb[4 * x->np + 2] = (unsigned char)(c >> 16);
		x->pb[4 * x->np + 3] = (unsigned char)(c >> 24);
		x->pok[x->np] = (unsigned char)ok;
		x->poff[x->np] = off;
		x->pline[x->np] = line;
		x->pcol[x->np] = col;
		if (++x->np == PEND_MAX)
			drain(x);
		return;
	}
}

static void
emit_ascii(struct xc *x, const char *s, uint64_t off)
{
	for (; *s != '\0'; s++)
		emit(x, (unsigned char)*s, 0, off, 1, 1);
}

/*
 * Write the BOM and the declaration, before the first character of
 * content (first, or none when has_first is 0).  RFC 7303 section 3.3 and
 * XML 1.0 section 4.3.3: an existing encoding value is rewritten to the
 * target's name keeping its quotes; a declaration without one gets one
 * after its version when the target needs it; an entity without a
 * declaration gets one when the target needs it.  Nothing else changes.
 */
static void
start(struct xc *x, uint32_t first, int has_first)
{
	const struct decl *d = &x->s->decl;
	const struct xopts *xo = x->xo;
	size_t usz = (size_t)unit_size(x->s->bom != BOM_NONE ?
	    unit_of_bom(x->s->bom) : unit_of_pat(x->s->pat));
	size_t i;

	x->started = 1;
	/* RFC 3629 section 6: a leading U+FEFF of content would read as a
	 * BOM, so in UTF-8 without a declaration it gets a real BOM first. */
	if (xo->bom || (xo->kind == T_UTF8 && !d->present && has_first &&
	    first == 0xFEFF))
		emit(x, 0xFEFF, 0, 0, 1, 1);
	if (d->present) {
		size_t es = (d->enc_off - d->start) / usz;
		size_t ee = (d->enc_end - d->start) / usz;
		size_t ve = (d->ver_end - d->start) / usz;

		int redo = d->has_encoding && !xo->keep_decl;

		for (i = 0; i < x->ndecl; i++) {
			if (redo && i == es)
				emit_ascii(x, xo->declname, d->start);
			if (redo && i >= es && i < ee)
				continue;
			emit(x, x->decl[i], 0, d->start, 1, 1);
			if (!d->has_encoding && xo->need_decl && i + 1 == ve) {
				char q[2] = { (char)x->decl[i], '\0' };

				emit_ascii(x, " encoding=", d->start);
				emit_ascii(x, q, d->start);
				emit_ascii(x, xo->declname, d->start);
				emit_ascii(x, q, d->start);
			}
		}
		/* An empty encoding value ends where it starts. */
		if (redo && es >= x->ndecl)
			emit_ascii(x, xo->declname, d->start);
	} else if (xo->need_decl) {
		emit_ascii(x, "<?xml version=\"1.0\" encoding=\"", 0);
		emit_ascii(x, xo->declname, 0);
		emit_ascii(x, "\"?>", 0);
	}
	if (x->s->role == ROLE_DTD) {
		xlex_dtd(&x->lx);
	}
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
		start(x, c, 1);
	}
	/* Only an iconv target can lack a character: only it needs the
	 * lexical context. */
	emit(x, c, x->xo->kind == T_ICONV ? xlex(&x->lx, c) : 0, off, line, col);
}

static void
xc_free(struct xc *x)
{
	if (x->cd != (iconv_t)-1)
		iconv_close(x->cd);
	icap_close(&x->ic);
	free(x);
}

/* The outcome of the last transcode, for --in-place and --fix. */
static int changed;
static char refusal[200];

/* A transcode not done, for a reason that is no I/O error. */
static int
refuse(const char *name, const char *why)
{
	snprintf(refusal, sizeof(refusal), "%s", why);
	report_warn(name, 0, "not transcoded: %s", why);
	return 1;
}

/* Whether the last transcode to a file changed (or, --dry-run, would
 * change) its bytes. */
int
transcode_changed(void)
{
	return changed;
}

/* Why the last transcode was refused ("" when no reason was given). */
const char *
transcode_refusal(void)
{
	return refusal;
}

/*
 * Return whether the declaration's characters, as the authoritative
 * decoder reads them, are laid out as the sniffed bytes were (one unit a
 * character): only then do its byte offsets say where the encoding value
 * is.  A charset parameter that contradicts the byte pattern breaks this.
 */
static int
decl_layout_ok(const struct sniff *s)
{
	enum unit u = s->bom != BOM_NONE ? unit_of_bom(s->bom) :
	    unit_of_pat(s->pat);

	switch (s->dec) {
	case DEC_UTF8:
		return u == UNIT_8;
	case DEC_UTF16BE:
		return u == UNIT_16BE;
	case DEC_UTF16LE:
		return u == UNIT_16LE;
	case DEC_UTF32BE:
		return u == UNIT_32BE;
	case DEC_UTF32LE:
		return u == UNIT_32LE;
	case DEC_ICONV:
		return s->enc.family == ENC_F_EBCDIC ? u == UNIT_EBCDIC :
		    enc_is_16(s->enc.family) ? u == UNIT_16BE ||
		    u == UNIT_16LE : u == UNIT_8;
	default:
		return 0;
	}
}

/* Return 0 when the entity s may be transcoded; otherwise say why and
 * return the status (refuse()). */
static int
check_input(const char *name, const struct inbuf *in, const struct sniff *s,
    int strict, const char *output, int in_place)
{
	struct stat a, b;

	if (strict && s->dg.errors > 0)
		return refuse(name, "the input has errors (--strict)");
	if (s->dec == DEC_NONE)
		return refuse(name, "its encoding cannot be decoded");
	if (s->dg.d[D_BAD_DECLARATION].count || s->dg.d[D_DECL_NOT_AT_START].count)
		return refuse(name, "the declaration must be mended first");
	if (s->doubt)
		return refuse(name, "the bytes after the BOM contradict it, so "
		    "the encoding is in doubt; correct the BOM or the content "
		    "first");
	if (s->decl.present && !decl_layout_ok(s))
		return refuse(name, "the charset parameter contradicts the byte "
		    "layout of the declaration; correct the charset");
	/* In place means a regular file, replaced by rename(2). */
	if (in_place && in->size < 0)
		return refuse(name, "--in-place needs a regular file") + 1;
	/* Writing into the FIFO or device being read would never end. */
	if (!in_place && output != NULL && strcmp(output, "-") != 0 &&
	    stat(output, &a) == 0 && !S_ISREG(a.st_mode) &&
	    fstat(in->fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return refuse(name, "-o names the input itself, which is not a "
		    "regular file") + 1;
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
	x->dg = &s->dg;
	x->cd = (iconv_t)-1;
	x->ic.enc = x->ic.dec = (iconv_t)-1;
	if (xo->kind == T_ICONV &&
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
	val_set_sink(*vp, sink, run, x);
	if ((x->sbmap = val_sbmap(*vp)) != NULL)
		source_table(x);
	if (xo->kind == T_ICONV) {
		icap_probe(&x->ic);
		if (x->ic.sbt && x->sbmap != NULL && x->sb_ascii)
			xlat_table(x);
	}
	return x;
}

/* Feed the whole entity through the validator to the sinks; return 0, or
 * 2 after a read error. */
static int
feed_all(struct xc *x, struct val *v, struct inbuf *in, const char *name)
{
	const struct sniff *s = x->s;

	for (;;) {
		size_t used = val_feed(v, in->p, in->n, in->eof);

		/* Illegal input bytes always fail: no character is guessed. */
		if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 && !x->failed)
			x->failed = 1;
		if (in->eof || x->failed)
			return 0;
		if (in_refill(in, used) < 0) {
			x->werrno = errno;
			return dest_error("read error on", name);
		}
	}
}

/* After the last character: the BOM and declaration of an entity that
 * had no content, the characters still queued, and the return of the
 * iconv target to its initial shift state. */
static void
finish(struct xc *x)
{
	unsigned char tmp[64];
	char *op = (char *)tmp;
	size_t ol = sizeof(tmp);

	if (!x->started)
		start(x, 0, 0);
	if (x->xo->kind != T_ICONV)
		return;
	drain(x);
	if (x->failed)
		return;
	iconv(x->cd, NULL, NULL, &op, &ol);
	out_bytes(x, tmp, (size_t)(op - (char *)tmp));
}

/* Say why a transcode failed, unless a diagnostic or a refusal already
 * does; --ignore hides a code, never the failure. */
static void
explain(const char *name, const struct sniff *s)
{
	if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 &&
	    diag_ignored(D_ILLEGAL_SEQUENCE))
		refuse(name, "the input has illegal bytes (ignored "
		    "illegal-sequence); nothing is guessed");
	else if (s->dg.d[D_UNREPRESENTABLE].count > 0 &&
	    diag_ignored(D_UNREPRESENTABLE))
		refuse(name, "a character cannot be written in the target "
		    "(ignored unrepresentable)");
	else if (s->dg.d[D_UNREPRESENTABLE].count == 0 &&
	    s->dg.d[D_ILLEGAL_SEQUENCE].count == 0)
		refuse(name, "the input has errors (--strict)");
}

/*
 * Transcode one entity: s is its sniff, in holds its first bytes and reads
 * the rest.  The output goes to standard output, to output, or over the
 * input (in_place).  Return 0 on success, 1 when it could not be done
 * faithfully (nothing is written to a file then), 2 on an I/O error.
 */
int
transcode(const char *name, struct inbuf *in, struct sniff *s,
    const struct xopts *xo, int strict, const char *output, int in_place)
{
	const char *dest = in_place ? name : output;
	struct dest d;
	struct xc *x;
	struct val *v;
	int rc, same = 0;

	changed = 0;
	refusal[0] = '\0';
	if ((rc = check_input(name, in, s, strict, output, in_place)) != 0)
		return rc;
	if ((x = xc_new(name, s, xo, &v)) == NULL)
		return 2;
	if ((x->fd = dest_open(&d, dest)) < 0) {
		val_free(v);
		xc_free(x);
		return 2;
	}
	if (enc_is_32(xo->to.family))
		diag_add(&s->dg, D_UTF32, 0, 1, 1, "the output is UTF-32, "
		    "which is NOT RECOMMENDED for XML (RFC 7303 section 2.2)");
	if ((rc = feed_all(x, v, in, name)) == 0 && !x->failed)
		finish(x);
	if (strict && s->dg.errors > 0 && !x->failed)
		x->failed = 1;
	if (rc == 0 && !x->failed)
		out_flush(x);
	if (rc == 0 && x->failed == 2) {
		errno = x->werrno;
		rc = dest_error("write error on", dest != NULL ? dest :
		    "standard output");
	} else if (rc == 0 && x->failed)
		rc = 1;
	/* The same bytes: nothing to replace. */
	if (!d.direct && rc == 0 && in_place) {
		switch (dest_compare(&d, in->fd, s, xo)) {
		case 1:
			same = 1;
			break;
		case -1:
			rc = refuse(name, "re-encoding would change the "
			    "content, not only the BOM and declaration");
			break;
		case -2:
			rc = dest_error("cannot compare", name);
			break;
		}
	}
	rc = dest_close(&d, rc, !same && !xo->dry_run);
	if (!d.direct)
		changed = rc == 0 && !same;
	if (rc == 1 && refusal[0] == '\0')
		explain(name, s);
	val_free(v);
	xc_free(x);
	return rc;
}

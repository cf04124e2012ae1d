/*
 * Writing an iconv target (--transcode-to any encoding but UTF-8, UTF-16
 * and UTF-32): characters are queued and converted in batches, plain runs
 * in blocks, ASCII the target writes unchanged as it is, and a
 * single-byte target from its table (iconvcap.c says what the target can
 * do).  A character the target lacks becomes a character reference where
 * XML 1.0 section 4.1 allows one and --fallback=ncr asks for it (xmllex.c
 * says where); otherwise the transcode fails, since nothing may be lost
 * or guessed.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "iconvout.h"

/* Why the literal character c is read as another where it stands
 * (xmllex.c, normalised). */
static const char *
norm_why(const struct xc *x, uint32_t c)
{
	int attr = x->lx.lex == L_ATTR || (x->lx.lex == L_DECL_QUOTE &&
	    x->lx.dkind == 'A');

	if (attr && (c == 0x85 || c == 0x2028))
		return "XML 1.1 reads it literally as a line end (section "
		    "2.11), and in an attribute value a line end as a space "
		    "(section 3.3.3)";
	if (attr)
		return "in an attribute value XML reads a literal TAB, LF or "
		    "CR as a space (section 3.3.3)";
	if (c == '\r')
		return "XML reads a literal CR as a line end, LF (section "
		    "2.11)";
	return "XML 1.1 reads it literally as a line end, LF (section 2.11)";
}

/* Fail the transcode, once, on character c that the target lacks, with
 * the diagnostic that says whether a reference could stand for it. */
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
	else if (!ncr_possible && x->lx.norm == c && c != 0)
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "U+%04X in "
		    "%s cannot be written in %s, and no character reference "
		    "can stand for it: %s, while a reference is read as the "
		    "character itself; choose a target that has it",
		    (unsigned)c, w, x->xo->to.name, norm_why(x, c));
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
void
iout_drain(struct xc *x)
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

/* The bytes of the first k characters of p (form). */
static size_t
chars_bytes(const unsigned char *p, size_t k, int form)
{
	size_t i = 0;

	if (form == FORM_UTF32LE || form == FORM_UTF32BE)
		return 4 * k;
	if (form == FORM_SB)
		return k;
	while (k-- > 0) {
		if (form == FORM_UTF8)
			i += (size_t)utf8_lead_len(p[i]);
		else
			i += (p[i + (form == FORM_UTF16LE)] & 0xFC) == 0xD8 ? 4 :
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
	if (form == FORM_UTF8)
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

	if (form != FORM_SB) {
		*m = conv_cut(form, q, n, want);
		return conv_run(form, FORM_UTF32LE, q, *m, x->ubuf) / 4;
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

/*
 * UTF-8 in a single-byte target straight from its table: q[0..n) (whole
 * characters) up to the first character the target lacks, as to_u32()
 * and table_block() would write it without the characters in between.
 * Return the bytes taken.
 */
static size_t
u8_table_run(struct xc *x, const unsigned char *q, size_t n)
{
	const unsigned char *has = x->ic.sb_has, *byte = x->ic.sb_byte;
	size_t i = 0;

	while (i < n) {
		size_t e = n - i < OBUF_SIZE / 2 ? n : i + OBUF_SIZE / 2;
		unsigned char *o = out_room(x, e - i), *o0 = o;

		while (i < e) {
			uint32_t c = q[i];
			size_t len = 1;
			uint64_t w;

			/* Eight bytes that the table keeps as they are
			 * (ASCII), or those of them before the first that is
			 * not, in one store: the rest is written over. */
			if (x->sbt_ascii && e - i >= 8) {
				uint64_t h;

				memcpy(&w, q + i, 8);
				memcpy(o, &w, 8);
				if ((h = w & 0x8080808080808080ULL) == 0) {
					o += 8;
					i += 8;
					continue;
				}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
				if ((len = (size_t)__builtin_ctzll(h) / 8) > 0) {
					o += len;
					i += len;
					continue;
				}
				len = 1;
#endif
			}
			if (c >= 0xF0)
				break;		/* beyond the table */
			if (c >= 0xE0) {
				c = (c & 0x0F) << 12 |
				    (uint32_t)(q[i + 1] & 0x3F) << 6 |
				    (q[i + 2] & 0x3F);
				len = 3;
			} else if (c >= 0x80) {
				c = (c & 0x1F) << 6 | (q[i + 1] & 0x3F);
				len = 2;
			}
			if (!(has[c >> 3] & (1 << (c & 7))))
				break;
			*o++ = byte[c];
			i += len;
		}
		x->on += (size_t)(o - o0);
		if (i < e)
			break;
	}
	xlex_utf8(&x->lx, q, i);
	return i;
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
 * A plain run p[0..n) (form FORM_UTF8, FORM_UTF16BE/LE, FORM_UTF32BE/LE or
 * FORM_SB) in an iconv target.  ASCII that the target writes as it is goes
 * out as it is; the rest is converted through iconv in blocks, up to the
 * first character the target lacks (which the validator then passes a
 * character at a time, with its position, for the diagnostic or the
 * reference).  Return the bytes taken.
 */
size_t
iout_run(struct xc *x, const unsigned char *p, size_t n, int form)
{
	size_t done = 0, want = 64;

	/* Queued characters come first. */
	iout_drain(x);
	while (done < n && !x->failed) {
		const unsigned char *q = p + done;
		size_t m, nc, k;

		if ((form == FORM_UTF8 || (form == FORM_SB && x->sb_ascii)) &&
		    q[0] < 0x80 && x->ic.ident[q[0]]) {
			done += ascii_run(x, q, n - done);
			continue;
		}
		if (form == FORM_SB && x->xlat_on) {
			m = n - done < BULK_MAX ? n - done : BULK_MAX;
			done += k = xlat_run(x, q, m);
			if (k < m)
				break;
			continue;
		}
		if (form == FORM_UTF8 && x->ic.sbt) {
			done += k = u8_table_run(x, q, n - done);
			if (done < n)
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

/* Write character c in the iconv target (ok: a reference may stand for
 * it): queued, or as a reference, or the transcode fails. */
void
iout_char(struct xc *x, uint32_t c, int ok, uint64_t off, uint64_t line,
    uint64_t col)
{
	if (!icap_rt(&x->ic, c)) {
		char ref[16];
		int i, len;

		if (x->xo->fallback != FB_NCR || !ok) {
			iout_drain(x);
			unrepresentable(x, c, off, line, col, ok);
			return;
		}
		len = snprintf(ref, sizeof(ref), "&#x%04X;", (unsigned)c);
		for (i = 0; i < len; i++)
			iout_char(x, (unsigned char)ref[i], 0, off, line, col);
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
		iout_drain(x);
}

/* At the end of the entity: the characters still queued, then the
 * return to the initial shift state. */
void
iout_end(struct xc *x)
{
	unsigned char tmp[64];
	char *op = (char *)tmp;
	size_t ol = sizeof(tmp);

	iout_drain(x);
	if (x->failed)
		return;
	iconv(x->cd, NULL, NULL, &op, &ol);
	out_bytes(x, tmp, (size_t)(op - (char *)tmp));
}

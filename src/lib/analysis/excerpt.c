/*
 * Excerpts (xmlsniff(1), Excerpts): under a text diagnostic, the line
 * it is on, decoded in the entity's encoding, a caret under the
 * character at its offset, and those bytes in hex:
 *
 *	 2 | <a>caf\xE9 au lait</a>
 *	   |       ^~~~
 *	   = bytes E9 at offset 28 (next: 20 61 75 20)
 *
 * What is shown is made safe for a terminal: a byte that does not
 * decode is \xHH, a control or invisible character \uHHHH (\U00HHHHHH
 * past the BMP), a tab \t and a backslash \\, so that \x is always a
 * byte of the input and \u always a character.  The rest is written in
 * UTF-8.  The caret counts terminal cells: East Asian wide characters
 * take two (UAX #11, W and F), combining marks none.  A line wider than
 * EXC_WIDTH cells is cut around the caret, "..." marking each cut.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "excerpt.h"
#include "sbuf.h"

#define EXC_WIDTH	72	/* cells of a line shown whole */
#define EXC_LEFT	30	/* at most, before the caret of a cut line */
#define EXC_CUT		60	/* cells of a cut line */
#define EXC_BYTE	0xFFFFFFFFu	/* an item of bytes that do not decode */
#define EXC_SHIFT	0xFFFFFFFEu	/* bytes that decode to nothing (a
					 * shift sequence) */
#define EXC_NEXT	4	/* bytes after an undecodable sequence */

/* One character, or a run of bytes that do not decode, of the window. */
struct excerpt_item {
	uint64_t	 off;
	uint32_t	 c;
	unsigned char	 n;
};

/*
 * The input analysed next into cur is s, with excerpts when on; fd can
 * be read again with pread(2) (a regular file of size bytes that nothing
 * rewrites), or -1: then its windows are captured as it is read.  cur
 * is zeros, or was begun before (excerpt_free lets it go).
 */
void
excerpt_begin(struct excerpt_src *cur, int on, const struct sniff *s, int fd,
    long long size)
{
	int i;

	cur->on = on;
	if (!on)
		return;
	cur->fd = fd;
	cur->size = size;
	cur->dg = &s->dg;
	cur->seen = 0;
	cur->form = s->dec;
	snprintf(cur->iconv, sizeof(cur->iconv), "%s", s->dec_iconv);
	cur->unit = enc_is_16(s->enc.family) && s->have_enc ? 2 :
	    enc_is_32(s->enc.family) && s->have_enc ? 4 : 1;
	cur->bomlen = s->bomlen;
	cur->xml11 = s->xml11;
	for (i = 0; i < D_NCODES; i++)
		cur->win[i].len = 0;
}

/* What cur holds, let go. */
void
excerpt_free(struct excerpt_src *cur)
{
	free(cur->items);
	cur->items = NULL;
}

/*
 * The bytes buf[0..n) are at offset base of the current input (eof: the
 * input ends after them).  Keep the window around each code recorded
 * since the last call, when its offset is among them.  Nothing is done
 * for a file that can be read again, nor when nothing new was recorded.
 */
void
excerpt_capture(struct excerpt_src *cur, const unsigned char *buf, size_t n,
    uint64_t base, int eof)
{
	int i;

	if (!cur->on || cur->fd >= 0 || cur->dg->nseq == cur->seen)
		return;
	for (i = 0; i < D_NCODES; i++) {
		const struct diag *d = &cur->dg->d[i];
		struct excerpt_win *w = &cur->win[i];
		uint64_t a, b;

		if (d->count == 0 || d->seq < cur->seen || d->off < base ||
		    d->off >= base + n)
			continue;
		a = d->off - base > EXC_BEFORE ? d->off - EXC_BEFORE : base;
		b = base + n - d->off > EXC_AFTER ? d->off + EXC_AFTER :
		    base + n;
		memcpy(w->buf, buf + (a - base), (size_t)(b - a));
		w->start = a;
		w->len = (size_t)(b - a);
		w->eof = eof && b == base + n;
	}
	cur->seen = cur->dg->nseq;
}

/* The bytes around off into w: from a captured window, or read again.
 * Return 0, or -1 when they are not to be had. */
static int
window(const struct excerpt_src *src, uint64_t off, struct excerpt_win *w)
{
	uint64_t a;
	ssize_t r;
	size_t want, got = 0;
	int i;

	if (src->fd < 0) {
		for (i = 0; i < D_NCODES; i++)
			if (src->win[i].len > 0 && src->win[i].start <= off &&
			    off < src->win[i].start + src->win[i].len) {
				*w = src->win[i];
				return 0;
			}
		return -1;
	}
	if (src->size >= 0 && off >= (uint64_t)src->size)
		return -1;
	a = off > EXC_BEFORE ? off - EXC_BEFORE : 0;
	want = (size_t)(off - a) + EXC_AFTER;
	while (got < want) {
		r = pread(src->fd, w->buf + got, want - got,
		    (off_t)(a + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (a + got <= off)
		return -1;
	w->start = a;
	w->len = got;
	w->eof = got < want;
	return 0;
}

/*
 * Decode w into it[] (room for w->len items) in the form of src; the
 * byte order mark is left out unless off is in it.  Return the count.
 */
static size_t
decode(const struct excerpt_src *src, const struct excerpt_win *w,
    uint64_t off, struct excerpt_item *it)
{
	const unsigned char *p = w->buf;
	size_t i = 0, k = 0, n = w->len;
	iconv_t cd = (iconv_t)-1;
	uint32_t c = 0;
	int r;

	if (w->start < src->bomlen) {
		if (off < src->bomlen) {
			it[k].off = 0;
			it[k].c = 0xFEFF;
			it[k++].n = (unsigned char)src->bomlen;
		}
		i = (size_t)(src->bomlen - w->start);
	}
	/* Code units start bomlen bytes into the input; a UTF-8 sequence
	 * that began before the window is not shown. */
	while (i < n && (w->start + i - src->bomlen) % (unsigned)src->unit)
		i++;
	if (src->form == FORM_UTF8 && w->start > 0)
		while (i < n && i < 3 && (p[i] & 0xC0) == 0x80)
			i++;
	if (src->form == FORM_ICONV &&
	    (cd = iconv_open_held(enc_u32le(), src->iconv)) == (iconv_t)-1)
		return k;
	while (i < n) {
		switch (src->form) {
		case FORM_UTF8:
			r = utf8_dec(p + i, n - i, &c);
			break;
		case FORM_UTF16BE:
		case FORM_UTF16LE:
			r = utf16_dec(p + i, n - i, src->form == FORM_UTF16BE,
			    &c);
			break;
		case FORM_UTF32BE:
		case FORM_UTF32LE:
			r = utf32_dec(p + i, n - i, src->form == FORM_UTF32BE,
			    &c);
			break;
		case FORM_ICONV: {
			unsigned char o[16];
			char *ip, *op;
			size_t il, ol, len;

			/* One character at a time: the shortest input that
			 * converts. */
			for (len = 1;; len++) {
				ip = (char *)(p + i);
				il = len;
				op = (char *)o;
				ol = sizeof(o);
				if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 ||
				    errno != EINVAL || len >= 4 || i + len >= n)
					break;
			}
			if (il == 0 && op - (char *)o >= 4) {
				c = load_le32(o);
				r = (int)len;
			} else if (il == 0) {
				c = EXC_SHIFT;
				r = (int)len;
			} else if (errno == EINVAL && i + len >= n)
				r = w->eof ? -(int)(n - i) : 0;
			else {
				iconv(cd, NULL, NULL, NULL, NULL);
				r = -src->unit;
			}
			break;
		}
		default:
			/* Nothing decodes it: ASCII, and bytes. */
			c = p[i];
			r = c < 0x80 ? 1 : -1;
			break;
		}
		if (r == 0) {
			/* Cut by the window, or by the end of the input. */
			if (!w->eof)
				break;
			r = -(int)(n - i);
		}
		it[k].off = w->start + i;
		it[k].c = r < 0 ? EXC_BYTE : c;
		it[k].n = (unsigned char)(r < 0 ? -r : r);
		i += it[k++].n;
	}
	if (cd != (iconv_t)-1)
		iconv_close(cd);
	return k;
}

static int
in_ranges(uint32_t c, const uint32_t (*r)[2], size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c >= r[i][0] && c <= r[i][1])
			return 1;
	return 0;
}

/* Characters written as \u escapes: controls, and those that show
 * nothing or reorder what follows (Unicode Default_Ignorable, bidi). */
static int
hidden(uint32_t c)
{
	static const uint32_t r[][2] = {
		{ 0x00, 0x1F }, { 0x7F, 0x9F }, { 0xAD, 0xAD },
		{ 0x034F, 0x034F }, { 0x061C, 0x061C }, { 0x115F, 0x1160 },
		{ 0x180B, 0x180F }, { 0x200B, 0x200F }, { 0x2028, 0x202E },
		{ 0x2060, 0x206F }, { 0x3164, 0x3164 }, { 0xD800, 0xDFFF },
		{ 0xFE00, 0xFE0F }, { 0xFEFF, 0xFEFF }, { 0xFFA0, 0xFFA0 },
		{ 0xFFF0, 0xFFFB }, { 0xFFFE, 0xFFFF }, { 0x1D173, 0x1D17A },
		{ 0xE0000, 0xE0FFF },
	};

	return in_ranges(c, r, sizeof(r) / sizeof(r[0]));
}

/* Terminal cells of a shown character: UAX #11 East Asian Wide and
 * Fullwidth take two, combining marks none (an approximation of
 * wcwidth(3) that does not depend on the locale). */
static int
cells(uint32_t c)
{
	static const uint32_t wide[][2] = {
		{ 0x1100, 0x115F }, { 0x231A, 0x231B }, { 0x2329, 0x232A },
		{ 0x23E9, 0x23EC }, { 0x2E80, 0x303E }, { 0x3041, 0x33FF },
		{ 0x3400, 0x4DBF }, { 0x4E00, 0x9FFF }, { 0xA000, 0xA4CF },
		{ 0xA960, 0xA97F }, { 0xAC00, 0xD7A3 }, { 0xF900, 0xFAFF },
		{ 0xFE10, 0xFE19 }, { 0xFE30, 0xFE6F }, { 0xFF00, 0xFF60 },
		{ 0xFFE0, 0xFFE6 }, { 0x16FE0, 0x18CFF }, { 0x1B000, 0x1B2FF },
		{ 0x1F300, 0x1F64F }, { 0x1F900, 0x1F9FF },
		{ 0x20000, 0x2FFFD }, { 0x30000, 0x3FFFD },
	};
	static const uint32_t zero[][2] = {
		{ 0x0300, 0x036F }, { 0x0483, 0x0489 }, { 0x0591, 0x05BD },
		{ 0x0610, 0x061A }, { 0x064B, 0x065F }, { 0x1AB0, 0x1AFF },
		{ 0x1DC0, 0x1DFF }, { 0x20D0, 0x20FF }, { 0x302A, 0x302F },
		{ 0x3099, 0x309A }, { 0xFE20, 0xFE2F },
	};

	if (in_ranges(c, zero, sizeof(zero) / sizeof(zero[0])))
		return 0;
	return in_ranges(c, wide, sizeof(wide) / sizeof(wide[0])) ? 2 : 1;
}

/* How item it is shown, into buf (at least 48 bytes); return its cells
 * and set *bad when it is bytes that do not decode. */
static int
render(const struct excerpt_win *w, const struct excerpt_item *it, char *buf,
    int *bad)
{
	size_t j, k = 0;
	uint32_t c = it->c;

	*bad = c == EXC_BYTE;
	if (c == EXC_BYTE || c == EXC_SHIFT) {
		for (j = 0; j < it->n && j < 8; j++)
			k += (size_t)snprintf(buf + k, 5, "\\x%02X",
			    w->buf[it->off - w->start + j]);
		return (int)k;
	}
	if (c == '\t')
		return snprintf(buf, 3, "\\t");
	if (c == '\\')
		return snprintf(buf, 3, "\\\\");
	if (hidden(c))
		return c > 0xFFFF ? snprintf(buf, 11, "\\U%08X", c) :
		    snprintf(buf, 7, "\\u%04X", c);
	buf[utf8_enc((unsigned char *)buf, c)] = '\0';
	return cells(c);
}

static int
line_end(const struct excerpt_src *src, uint32_t c)
{
	return c == '\n' || c == '\r' ||
	    (src->xml11 && (c == 0x85 || c == 0x2028));
}

/*
 * The excerpt for an occurrence at byte offset off, line and col (those
 * of its diagnostic), appended to f, with --color's sequences when
 * col_on.  Return 1, or 0 when there is none: the bytes are gone (read
 * from a pipe, and not captured) or do not reach the offset.
 */
int
excerpt_text(struct sbuf *f, struct excerpt_src *src, uint64_t off,
    uint64_t line, uint64_t col, int col_on)
{
	struct excerpt_win *w = &src->scratch;
	struct excerpt_item *it;
	char buf[48], num[24];
	size_t n, t, ls, le, a, b, j;
	int width, cw, bad, left, right, tw = 0;

	if (!src->on || line == 0 || window(src, off, w) < 0)
		return 0;
	if (src->items == NULL && (src->items = malloc((EXC_BEFORE +
	    EXC_AFTER + 1) * sizeof(*src->items))) == NULL)
		return 0;
	it = src->items;
	n = decode(src, w, off, it);
	for (t = 0; t < n && it[t].off + it[t].n <= off; t++)
		continue;
	if (t == n || it[t].off > off)
		return 0;
	/* The line: back to the character after a line end, on to the
	 * next one. */
	for (ls = t; ls > 0 && !line_end(src, it[ls - 1].c); ls--)
		continue;
	for (le = t + 1; le < n && !line_end(src, it[le].c); le++)
		continue;
	/* The columns count characters (XML 1.0 section 2.11): the first
	 * item shown is column col - (t - ls). */
	left = col > (uint64_t)(t - ls) + 1;
	right = le == n && !(w->eof && (n == 0 ||
	    it[n - 1].off + it[n - 1].n == w->start + w->len));
	for (width = 0, j = ls; j < le; j++)
		width += render(w, &it[j], buf, &bad);
	a = ls;
	b = le;
	if (width + (left ? 3 : 0) + (right ? 3 : 0) > EXC_WIDTH) {
		/* Up to EXC_LEFT cells before the caret, then on to EXC_CUT
		 * cells, then back if the line ended first. */
		for (a = t, width = 0; a > ls; a--) {
			cw = render(w, &it[a - 1], buf, &bad);
			if (width + cw > EXC_LEFT)
				break;
			width += cw;
		}
		for (b = t; b < le; b++) {
			cw = render(w, &it[b], buf, &bad);
			if (b > t && width + cw > EXC_CUT)
				break;
			width += cw;
		}
		for (; a > ls; a--) {
			cw = render(w, &it[a - 1], buf, &bad);
			if (width + cw > EXC_CUT)
				break;
			width += cw;
		}
		left |= a > ls;
		right |= b < le;
	}
	/* The line, with its number in the margin. */
	snprintf(num, sizeof(num), "%llu", (unsigned long long)line);
	sb_fmt(f, " %s | %s", num, left ? "..." : "");
	for (width = left ? 3 : 0, j = a; j < b; j++) {
		cw = render(w, &it[j], buf, &bad);
		if (j == t)
			tw = width;
		width += cw;
		if (col_on && (bad || j == t))
			sb_fmt(f, EXC_SGR_BAD "%s" EXC_SGR_OFF, buf);
		else
			sb_str(f, buf);
	}
	sb_fmt(f, "%s\n", right ? "..." : "");
	/* The caret under the first cell of the character, ~ under the
	 * rest of it. */
	cw = render(w, &it[t], buf, &bad);
	sb_fmt(f, " %*s | %*s%s^", (int)strlen(num), "", tw, "",
	    col_on ? EXC_SGR_CARET : "");
	for (; cw > 1; cw--)
		sb_chr(f, '~');
	sb_fmt(f, "%s\n", col_on ? EXC_SGR_OFF : "");
	/* The bytes, and after bytes that do not decode, the next few. */
	sb_fmt(f, " %*s = bytes %s", (int)strlen(num), "",
	    col_on ? EXC_SGR_BAD : "");
	for (j = 0; j < it[t].n; j++)
		sb_fmt(f, "%s%02X", j ? " " : "",
		    w->buf[it[t].off - w->start + j]);
	sb_fmt(f, "%s at offset %llu", col_on ? EXC_SGR_OFF : "",
	    (unsigned long long)it[t].off);
	if (bad) {
		b = (size_t)(it[t].off - w->start) + it[t].n;
		for (j = 0; j < EXC_NEXT && b + j < w->len; j++)
			sb_fmt(f, "%s%02X", j ? " " : " (next: ",
			    w->buf[b + j]);
		if (j > 0)
			sb_chr(f, ')');
	}
	sb_chr(f, '\n');
	return 1;
}

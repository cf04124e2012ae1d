/*
 * The mojibake warning: text encoded twice, UTF-8 bytes read as
 * windows-1252 (or ISO-8859-1) and encoded as UTF-8, UTF-16 or UTF-32
 * again ("cafÃ©" for "café"), and C1 controls U+0080 to U+009F, which
 * XML 1.0 section 2.2 discourages and which the same mistake leaves.  The
 * text is not what was meant (RFC 3629, XML 1.0 section 4.3.3).
 *
 * The scan runs beside the validator over the bytes it has taken.  In
 * UTF-8 every candidate starts with the byte C2 (a C1 control) or C3 (a
 * character U+00C2 to U+00F4, the windows-1252 reading of a UTF-8 lead
 * byte) followed by the trail characters that lead needs (kernels.h,
 * moj_exact8): the bytes before one are passed over by the kernels
 * (moj_skip), their line ends counted until the first hit and no longer,
 * so that text of any script, Latin Extended letters side by side with
 * those of Latin-1 too, is passed over at the kernels' pace.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels.h"
#include "mojibake.h"

/* Bytes 80 to 9F of windows-1252; 0 where it has no character (81, 8D,
 * 8F, 90, 9D, which ISO-8859-1 reads as U+0081 and so on). */
const uint16_t moj_cp1252[32] = {
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178
};

/*
 * Start scanning the entity s.  With a file descriptor fd of the regular
 * file it is read from (at offset base for its first byte), no lines are
 * counted: the file is read again up to the first hit, if there is one.
 * With -1 lines are counted as the bytes go by, up to the first hit.
 */
void
moj_init(struct moj *m, const struct sniff *s, int fd, uint64_t base)
{
	mem_zero(m, sizeof(*m));
	m->fd = fd;
	m->base = base;
	switch (s->dec) {
	case FORM_UTF8:
	case FORM_UTF16BE:
	case FORM_UTF16LE:
	case FORM_UTF32BE:
	case FORM_UTF32LE:
		m->form = s->dec;
		break;
	default:
		m->form = FORM_NONE;
		return;
	}
	m->xml11 = s->xml11;
	m->skip = m->bomlen = s->bomlen;
	m->off = 0;
	m->pos.line = m->pos.col = 1;
}

/* A trail character that is a letter: the pair may be real text. */
static int
trail_letter(uint32_t c)
{
	/* ª µ º, and ƒ Š Œ Ž š œ ž Ÿ of windows-1252 */
	return c == 0xAA || c == 0xB5 || c == 0xBA || (c > 0xFF &&
	    c < 0x2000 && c != 0x02C6 && c != 0x02DC);
}

static int
upper(uint32_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE &&
	    c != 0xD7);
}

static void
found(struct moj *m, const struct moj_hit *h, int weak)
{
	if (weak) {
		if (m->weak++ == 0)
			m->first_weak = *h;
	} else if (m->strong++ == 0)
		m->first_strong = *h;
}

static int
c1(const struct moj *m, uint32_t c)
{
	return !m->xml11 && c >= 0x80 && c <= 0x9F;
}

/* A sequence that did not come together: its trail characters count
 * for themselves, as C1 controls if they are. */
static void
unmatched(struct moj *m)
{
	struct moj_hit h;
	int i;

	for (i = 1; i < m->cur.n; i++)
		if (c1(m, m->cur.cp[i])) {
			memset(&h, 0, sizeof(h));
			h.off = m->toff[i];
			h.line = m->tline[i];
			h.col = m->tcol[i];
			h.cp[0] = m->cur.cp[i];
			h.n = 1;
			found(m, &h, 0);
		}
	m->cur.n = 0;
	m->need = 0;
}

/* The trail characters of cur are complete: a hit if their bytes are
 * the UTF-8 of a character (RFC 3629 section 4). */
static void
complete(struct moj *m)
{
	unsigned char b[4] = { 0, 0, 0, 0 };
	uint32_t c;
	int i, n = m->cur.n, weak;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(i == 0 ? m->cur.cp[0] :
		    (uint32_t)moj_trail(m->cur.cp[i]));
	if (!moj_first_ok(b[0], b[1])) {
		unmatched(m);
		return;
	}
	if (n == 2)
		c = (uint32_t)(b[0] & 0x1F) << 6 | (b[1] & 0x3F);
	else if (n == 3)
		c = (uint32_t)(b[0] & 0x0F) << 12 |
		    (uint32_t)(b[1] & 0x3F) << 6 | (b[2] & 0x3F);
	else
		c = (uint32_t)(b[0] & 0x07) << 18 |
		    (uint32_t)(b[1] & 0x3F) << 12 |
		    (uint32_t)(b[2] & 0x3F) << 6 | (b[3] & 0x3F);
	m->cur.meant = c;
	/* A pair may be real text: a letter after "Ã" (Portuguese and
	 * German have "Ãš" and "Ãœ" only as mojibake, but ª and µ are
	 * letters), or a capital lead inside a word in capitals ("SÃ©"). */
	weak = n == 2 && (trail_letter(m->cur.cp[1]) || upper(m->before));
	found(m, &m->cur, weak);
	m->cur.n = 0;
	m->need = 0;
}

/* Whether positions are counted now: until the first hit, unless the
 * file is read again. */
static int
counting(const struct moj *m)
{
	return m->fd < 0 && m->mem == NULL && m->strong + m->weak == 0;
}

/* A trail byte of UTF-8 with no lead (illegal-sequence): it breaks a
 * sequence and a CR LF and, as in skip8, takes no column. */
#define STRAY	0xFFFFFFFFu

/* The character c, at offset off and m->pos. */
static void
step(struct moj *m, uint32_t c, uint64_t off)
{
	if (c == STRAY) {
		if (m->need > 0)
			unmatched(m);
		m->pos.prev = 0;	/* no CR LF pair across it */
		return;
	}
	if (m->need > 0) {
		if (moj_trail(c) >= 0) {
			m->toff[m->cur.n] = off;
			m->tline[m->cur.n] = m->pos.line;
			m->tcol[m->cur.n] = m->pos.col;
			m->cur.cp[m->cur.n++] = c;
			if (--m->need == 0)
				complete(m);
			m->prevc = c;
			goto done;
		}
		unmatched(m);
	}
	if (c1(m, c)) {
		struct moj_hit h;

		memset(&h, 0, sizeof(h));
		h.off = off;
		h.line = m->pos.line;
		h.col = m->pos.col;
		h.cp[0] = c;
		h.n = 1;
		found(m, &h, 0);
	} else if (c >= 0xC2 && c <= 0xF4) {
		m->cur.off = off;
		m->cur.line = m->pos.line;
		m->cur.col = m->pos.col;
		m->cur.cp[0] = c;
		m->cur.n = 1;
		m->before = m->prevc;
		m->need = utf8_lead_len(c) - 1;
	}
	m->prevc = c;
done:
	if (counting(m))
		linepos_step(&m->pos, c, m->xml11);
}

/* Decode one character of UTF-8 at p[0..n): its length, 0 when cut
 * short; a byte that starts none is one U+FFFD, a stray trail byte
 * STRAY. */
static size_t
dec8(const unsigned char *p, size_t n, uint32_t *c)
{
	size_t k, i;
	uint32_t v;

	if (p[0] < 0x80) {
		*c = p[0];
		return 1;
	}
	if (p[0] < 0xC0) {
		*c = STRAY;
		return 1;
	}
	if (p[0] < 0xC2 || p[0] > 0xF4) {
		*c = 0xFFFD;
		return 1;
	}
	k = (size_t)utf8_lead_len(p[0]);
	v = p[0] & (0x7F >> k);
	for (i = 1; i < k; i++) {
		if (i >= n)
			return 0;
		/* RFC 3629 section 4: no overlong form, surrogate or value
		 * past U+10FFFF (an overlong one could hide a C1 control) */
		if ((p[i] & 0xC0) != 0x80 || (i == 1 &&
		    !moj_first_ok(p[0], p[1]))) {
			*c = 0xFFFD;
			return 1;
		}
		v = v << 6 | (p[i] & 0x3F);
	}
	*c = v;
	return k;
}

/* The character before p[n] as step() would have it in m->prevc: the
 * last one that starts in p[0..n), stray trail bytes passed over. */
static uint32_t
last8(const struct moj *m, const unsigned char *p, size_t n)
{
	size_t j = n;
	uint32_t c;

	while (j > 0 && (p[j - 1] & 0xC0) == 0x80)
		j--;
	if (j == 0)
		return m->prevc;
	if (dec8(p + j - 1, n - j + 1, &c) == 0)
		c = 0xFFFD;
	return c;
}

/* The characters of UTF-8 at p[0..n): bytes other than 80..BF. */
static uint64_t
nchars(const unsigned char *p, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += (p[i] & 0xC0) != 0x80;
	return c;
}

/* The columns of p[0..i), from ls, after a line end (cut) or not. */
static void
skip8_end(struct moj *m, const unsigned char *p, size_t i, size_t ls,
    int cut, unsigned prevcr)
{
	/* The LF of a CR LF takes no column. */
	if (ls < i && p[ls] == '\n' && (ls > 0 ? p[ls - 1] == '\r' :
	    m->pos.prev == '\r'))
		ls++;
	if (cut)
		m->pos.col = 1;
	m->pos.col += nchars(p + ls, i - ls);
	m->pos.prev = prevcr ? '\r' : 0;
}

/*
 * Where a pass over p[0..n) that stopped at i should stop: at i, or,
 * where i is inside a character (the kernels stop near the end of p at
 * the edge of a block, whatever falls there), at that character's lead,
 * so that it is decoded whole and after the character before it (a
 * continuation byte decoded alone would be a stray one, and the lead's
 * character lost).  The bytes gone back over hold no line end; k->prevcr
 * is made to say what precedes the new stop.
 */
static size_t
char_start(const unsigned char *p, size_t i, size_t n, struct mojskip *k)
{
	size_t j = i;

	if (i == 0 || i >= n || (p[i] & 0xC0) != 0x80)
		return i;
	while (j > 0 && i - j < 3 && (p[j - 1] & 0xC0) == 0x80)
		j--;
	/* the lead's length must reach past i */
	if (j == 0 || p[j - 1] < 0xC2 || p[j - 1] > 0xF4 ||
	    (size_t)utf8_lead_len(p[j - 1]) <= i - (j - 1))
		return i;	/* stray continuation bytes: each its own */
	k->prevcr = j - 1 > 0 && p[j - 2] == '\r';
	return j - 1;
}

/* The whole entity is p[0..n), in memory for as long as the scan runs:
 * no lines are counted as the bytes go by, the bytes before the first
 * hit are read again for its position, as a file's are (a buffer the
 * caller hands over in place). */
void
moj_memory(struct moj *m, const unsigned char *p, size_t n)
{
	if (m->form == FORM_NONE)
		return;
	m->mem = p;
	m->memlen = n;
}

/* Take the candidates from mk, the marks the validator found in the piece
 * it was fed (val_marks), one pass for its search and this one; NULL: the
 * kernels search. */
void
moj_marks(struct moj *m, struct marks *mk)
{
	m->mk = mk;
}

/*
 * moj_skip() from the piece's marks (m->mk) where they hold all of
 * p[0..n): the first listed that is a candidate within p[0..n), or n - 2,
 * with count the line ends before it counted apart (moj_lines: 200 MB of
 * Polish text through a pipe took 191 ms with the kernels' count as they
 * pass, 117 so; doc/BENCHMARKS.md).  (What p[0..n) only cuts short is
 * none in the piece: the character path finds nothing there either.)
 * Else prescan.c's lists or the kernels.
 */
static size_t
mark_skip(struct moj *m, const unsigned char *p, size_t n, struct mojskip *k)
{
	struct marks *mk = m->mk;
	size_t a, lim, t, j, r = n - 2;

	if (mk == NULL || mk->base == NULL || mk->usz != 0 || n < 3 ||
	    p < mk->base || (size_t)(p - mk->base) + n > mk->len ||
	    (size_t)(p - mk->base) + n - 2 > mk->mcov)
		return pre_moj_skip(m->pre, p, n, k);
	a = (size_t)(p - mk->base);
	lim = a + n - 2;
	t = mk->mat > 0 && mk->mj[mk->mat - 1] >= a ? 0 : mk->mat;
	for (; t < mk->nmj && mk->mj[t] < a; t++)
		;
	for (; t < mk->nmj && (j = mk->mj[t]) < lim; t++)
		if (moj_exact8(mk->base + j, a + n - j, k->c1)) {
			r = j - a;
			break;
		}
	mk->mat = t;
	if (k->count)
		moj_lines(p, r, k);
	return r;
}

/*
 * Pass over UTF-8 at p[0..n) up to the first candidate (moj_exact8 in
 * kernels.h): C3 82..B4 (a lead) followed by the trail characters it
 * needs, or, in XML 1.0, C2 80..9F (a C1 control).  With count, the line
 * ends passed over move m->pos; columns are counted once, from the last
 * line end.  Return where it stopped: a candidate, or near the end.
 */
static size_t
skip8(struct moj *m, const unsigned char *p, size_t n, int count)
{
	struct mojskip k;
	size_t i;

	memset(&k, 0, sizeof(k));
	k.c1 = !m->xml11;
	k.count = count;
	k.prevcr = m->pos.prev == '\r';
	i = mark_skip(m, p, n, &k);
	i = char_start(p, i, n, &k);
	if (count && i > 0) {
		m->pos.line += k.lines;
		skip8_end(m, p, i, k.ls, k.cut, k.prevcr);
	}
	return i;
}

/* mark_skipw() where no marks hold p[0..n): the search ahead's pass over
 * UTF-16 (which uses its own list when it has one), the kernels' over
 * UTF-32. */
static size_t
unmarked_skipw(struct moj *m, const unsigned char *p, size_t n, size_t u,
    int be)
{
	return u == 2 ? pre_moj_skipw(m->pre, p, n, be) : moj_skip32(p, n, be);
}

/*
 * moj_skipw() over UTF-16 p[0..n) (u 2; be: big-endian), or moj_skip32()
 * over UTF-32 (u 4), from the piece's marks (m->mk) where they hold it,
 * its units theirs: the first stop listed that is one in p[0..n)
 * (moj_exactw, or the unit no character is); else by the search ahead or
 * the kernels.  The thread found its stops in bytes that may run on past
 * n, so that a lead unit whose trail units lie past n is a candidate here
 * and maybe not there: the last units, whose four units do not all lie in
 * p[0..n), the kernel asks itself.
 */
static size_t
mark_skipw(struct moj *m, const unsigned char *p, size_t n, size_t u,
    int be)
{
	struct marks *mk = m->mk;
	size_t a, lim, e, t, j;

	if (mk == NULL || mk->base == NULL || mk->usz != (int)u ||
	    mk->be != be || n < 2 * u || p < mk->base ||
	    (size_t)(p - mk->base) + n > mk->len ||
	    (size_t)(p - mk->base) % u != 0)
		return unmarked_skipw(m, p, n, u, be);
	a = (size_t)(p - mk->base);
	lim = a + (n / u - 1) * u;	/* the units with a next one */
	/* the stops below e are those of p[0..n) too */
	e = n >= 4 * u ? a + ((n - 4 * u) / u + 1) * u : a;
	e = e < lim ? e : lim;
	if (e > mk->mcov)
		return unmarked_skipw(m, p, n, u, be);
	t = mk->mat > 0 && mk->mj[mk->mat - 1] >= a ? 0 : mk->mat;
	for (; t < mk->nmj && mk->mj[t] < a; t++)
		;
	for (; t < mk->nmj && (j = mk->mj[t]) < e; t++)
		if (u == 2 ? moj_exactw(mk->base + j, a + n - j, 2, be) :
		    moj_stop32(mk->base + j, a + n - j, be)) {
			mk->mat = t;
			return j - a;
		}
	mk->mat = t;
	return e - a + (u == 2 ? moj_skipw(p + (e - a), n - (e - a), be) :
	    moj_skip32(p + (e - a), n - (e - a), be));
}

/* k bytes of the carried part and then of the block (at *i) were
 * decoded: drop them. */
static void
part_used(struct moj *m, size_t *i, size_t k)
{
	if (k < m->npart) {
		memmove(m->part, m->part + k, m->npart - k);
		m->npart -= (unsigned)k;
	} else {
		*i += k - m->npart;
		m->npart = 0;
	}
}

/* UTF-8: candidates only, a character at a time around them. */
static void
feed8(struct moj *m, const unsigned char *p, size_t n)
{
	size_t i = 0, k;
	uint32_t c;
	int count;

	while (i < n) {
		if (m->npart > 0) {
			unsigned char b[8];
			size_t have = m->npart, take = n - i < 4 ? n - i : 4;

			memcpy(b, m->part, have);
			memcpy(b + have, p + i, take);
			if ((k = dec8(b, have + take, &c)) == 0) {
				memcpy(m->part + have, p + i, take);
				m->npart += (unsigned)take;
				return;
			}
			step(m, c, m->off + i - have);
			part_used(m, &i, k);
			continue;
		}
		count = counting(m);
		if (m->need == 0 && !(m->xml11 && count)) {
			k = skip8(m, p + i, n - i, count);
			if (k > 0) {
				i += k;
				m->prevc = last8(m, p, i);
			}
			if (i >= n)
				break;
		}
		if ((k = dec8(p + i, n - i, &c)) == 0) {
			m->npart = (unsigned)(n - i);
			memcpy(m->part, p + i, n - i);
			break;
		}
		step(m, c, m->off + i);
		i += k;
	}
}

/* The code unit of u bytes (2 or 4) at p, in byte order be. */
static uint32_t
unit_at(const unsigned char *p, size_t u, int be)
{
	if (u == 4)
		return be ? load_be32(p) : load_le32(p);
	return be ? load_be16(p) : load_le16(p);
}

/*
 * Move m->pos over UTF-16 p[0..n) (whole characters: no high surrogate
 * last; no hit among them) as step() would a character at a time, in XML
 * 1.0 (CR and LF the only line ends): moj_linesw counts the line ends,
 * the characters after the last are the column.  A pipe's UTF-16, whose
 * lines are counted until the first hit, went a unit at a time and into
 * step() at every line end and letter from 80 on (doc/BENCHMARKS.md).
 */
static void
wide_pos(struct moj *m, const unsigned char *p, size_t n, int be)
{
	struct mojskip k, t;
	uint64_t chars;
	size_t ls;

	memset(&k, 0, sizeof(k));
	k.prevcr = m->pos.prev == '\r';
	chars = moj_linesw(p, n, be, &k);
	if (k.cut) {
		ls = k.ls;
		/* the LF of a CR LF takes no column */
		if (ls < n && unit_at(p + ls, 2, be) == '\n' &&
		    unit_at(p + ls - 2, 2, be) == '\r')
			ls += 2;
		memset(&t, 0, sizeof(t));
		m->pos.line += k.lines;
		m->pos.col = 1 + moj_linesw(p + ls, n - ls, be, &t);
	} else
		m->pos.col += chars;
	m->pos.prev = unit_at(p + n - 2, 2, be);
}

/*
 * Pass over the units of p[i..n) that can neither start nor continue a
 * sequence, end a line or pair as surrogates: all but 0A-0D, 80-F4, the
 * surrogates (UTF-16), U+2028 and the UTF-32 unit FFFFFFFF (which step()
 * takes as STRAY).  Each is one character, so the column
 * moves by their number when positions are counted.  Return where it
 * stopped.
 */
static size_t
skipw(struct moj *m, const unsigned char *p, size_t i, size_t n, size_t u,
    int be)
{
	size_t j = i;
	uint32_t c = 0, last = 0;

	/* Once positions are not counted only the units 80-F4 that begin
	 * a candidate (moj_exactw in kernels.h) matter (a surrogate is no
	 * candidate, and the check below takes the rest exactly): the kernels
	 * pass over the others (moj_skipw). */
	if (u == 2 && !counting(m)) {
		j += mark_skipw(m, p + j, n - j, 2, be);
		if (j > i)
			last = c = unit_at(p + j - u, u, be);
	} else if (u == 2 && !m->xml11) {
		/* Counting: the same stops, the positions moved over the
		 * units before them at once (wide_pos), a high surrogate
		 * last left to the loop with its pair. */
		size_t s = mark_skipw(m, p + j, n - j, 2, be) & ~(size_t)1;

		if (s >= 2 && (unit_at(p + j + s - 2, 2, be) & 0xFC00) ==
		    0xD800)
			s -= 2;
		if (s > 0) {
			wide_pos(m, p + j, s, be);
			j += s;
			i = j;	/* the loop's units counted from here */
			m->prevc = last = c = unit_at(p + j - 2, 2, be);
		}
	} else if (u == 4 && !counting(m)) {
		/* The same for UTF-32: only FFFFFFFF and the units 80-F4
		 * that begin a candidate stop (moj_skip32, kernels.h; at
		 * level ref, which passes over nothing, the loop asks each
		 * unit); the last unit goes below. */
		j = moj_stop32_from(p, j + mark_skipw(m, p + j, n - j, 4, be),
		    n, be);
		if (j > i)
			last = c = unit_at(p + j - u, u, be);
	}
	for (; j + u <= n; j += u, last = c) {
		c = unit_at(p + j, u, be);
		if (c < 0x100 ? (c >= 0x0A && c <= 0x0D) ||
		    (c >= 0x80 && c <= 0xF4) : c == 0x2028 || c == STRAY ||
		    (u == 2 && c >= 0xD800 && c <= 0xDFFF))
			break;
	}
	if (j > i) {
		if (counting(m)) {
			m->pos.col += (j - i) / u;
			m->pos.prev = last;
		}
		m->prevc = last;
	}
	return j;
}

/* UTF-16 and UTF-32: a character at a time, past the runs skipw()
 * passes over. */
static void
feedw(struct moj *m, const unsigned char *p, size_t n)
{
	size_t i = 0, u = m->form == FORM_UTF16BE ||
	    m->form == FORM_UTF16LE ? 2 : 4;
	int be = m->form == FORM_UTF16BE || m->form == FORM_UTF32BE;

	while (i < n) {
		unsigned char b[8];
		size_t have = m->npart, take, k;
		uint32_t c, lo;

		if (have == 0 && m->need == 0 &&
		    (i = skipw(m, p, i, n, u, be)) >= n)
			break;
		take = n - i < 2 * u - have ? n - i : 2 * u - have;
		memcpy(b, m->part, have);
		memcpy(b + have, p + i, take);
		if (have + take < u)
			goto part;
		if (u == 4)
			c = be ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
			    (uint32_t)b[2] << 8 | b[3] : (uint32_t)b[3] << 24 |
			    (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
		else
			c = be ? (uint32_t)b[0] << 8 | b[1] :
			    (uint32_t)b[1] << 8 | b[0];
		k = u;
		if (u == 2 && c >= 0xD800 && c <= 0xDBFF) {
			if (have + take < 4)
				goto part;
			lo = be ? (uint32_t)b[2] << 8 | b[3] :
			    (uint32_t)b[3] << 8 | b[2];
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) +
				    (lo - 0xDC00);
				k = 4;
			} else
				c = 0xFFFD;
		}
		step(m, c, m->off + i - have);
		part_used(m, &i, k);
		continue;
part:
		memcpy(m->part + have, p + i, take);
		m->npart += (unsigned)take;
		return;
	}
}

/* The next n bytes of the entity, p[0..n), after the ones before. */
void
moj_feed(struct moj *m, const unsigned char *p, size_t n)
{
	if (m->form == FORM_NONE)
		return;
	if (m->skip > 0) {
		size_t k = m->skip < n ? (size_t)m->skip : n;

		p += k;
		n -= k;
		m->skip -= k;
		m->off += k;
	}
	if (m->form == FORM_UTF8)
		feed8(m, p, n);
	else
		feedw(m, p, n);
	m->off += n;
}

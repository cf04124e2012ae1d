/*
 * What the kernels share and what is not a kernel: the map of a
 * single-byte encoding's plain bytes, the sizes and cuts of conversion
 * runs, the tables of the UTF-8 lookup method that the vector kernels
 * use, the kinds of marks8's marks, and the line ends of moj_lines.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

/*
 * Make the map of the bytes for which ok[b] is set, less CR: as a bitmap,
 * and as the two tables the AVX2 path looks up by low nibble (bit h of
 * lo[l] for byte h << 4 | l, of hi[l] for byte (h + 8) << 4 | l).
 */
void
plain_sb_map(struct plainmap *m, const unsigned char *ok)
{
	unsigned b;

	memset(m, 0, sizeof(*m));
	m->cr = ok['\r'] != 0;
	for (b = 0; b < 256; b++)
		if (ok[b] && b != '\r') {
			m->bits[b >> 3] |= (unsigned char)(1 << (b & 7));
			if (b < 0x80)
				m->lo[b & 15] |= (unsigned char)(1 << (b >> 4));
			else
				m->hi[b & 15] |= (unsigned char)(1 <<
				    ((b >> 4) - 8));
		}
}

/* The most bytes n bytes in form from can become in form to, plus the
 * room the wide stores may overwrite. */
size_t
conv_room(int from, int to, size_t n)
{
	size_t w = from == FORM_UTF8 ? (to == FORM_UTF8 ? n : form_u32(to) ? 4 * n :
	    2 * n) : form_u32(from) ? n : form_u32(to) ? 2 * n : to == FORM_UTF8 ?
	    n / 2 * 3 : n;

	return w + CONV_SLACK;
}

/* The longest prefix of p[0..n) of at most max bytes that ends on a
 * character boundary (max: 4 or more). */
size_t
conv_cut(int from, const unsigned char *p, size_t n, size_t max)
{
	size_t m;

	if (n <= max)
		return n;
	if (from == FORM_UTF8) {
		for (m = max; m > 0 && (p[m] & 0xC0) == 0x80; m--)
			;
		return m;
	}
	if (form_u32(from))
		return max & ~(size_t)3;
	m = max & ~(size_t)1;
	/* Not between the two halves of a pair. */
	if ((p[m - 2 + (from == FORM_UTF16LE)] & 0xFC) == 0xD8)
		m -= 2;
	return m;
}

/*
 * The lookup method of Keiser and Lemire, "Validating UTF-8 in less than
 * one instruction per byte" (2021): each pair of bytes is looked up by
 * three nibbles, and the error classes that all three tables share are
 * the errors.  One bit per class.
 */
#define TOO_SHORT	(1 << 0)
#define TOO_LONG	(1 << 1)
#define OVERLONG_3	(1 << 2)
#define TOO_LARGE	(1 << 3)
#define SURROGATE	(1 << 4)
#define OVERLONG_2	(1 << 5)
#define TOO_LARGE_1000	(1 << 6)
#define OVERLONG_4	(1 << 6)
#define TWO_CONTS	(-128)	/* bit 7, as the signed char _mm256_setr_epi8 takes */
#define CARRY		(TOO_SHORT | TOO_LONG | TWO_CONTS)

const signed char utf8_lane[3][16] = {
	/* by the high nibble of the first byte of a pair */
	{ TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
	  TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
	  TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
	  TOO_SHORT | OVERLONG_2, TOO_SHORT,
	  TOO_SHORT | OVERLONG_3 | SURROGATE,
	  TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4 },
	/* by its low nibble */
	{ CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
	  CARRY | OVERLONG_2, CARRY, CARRY,
	  CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
	  CARRY | TOO_LARGE | TOO_LARGE_1000,
	  CARRY | TOO_LARGE | TOO_LARGE_1000 },
	/* by the high nibble of the second byte */
	{ TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
	  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
	  TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 |
	  TOO_LARGE_1000 | OVERLONG_4,
	  TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
	  TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
	  TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
	  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT },
};

/* The usable() of kernels in portable C: every machine runs them. */
int
simd_everywhere(void)
{
	return 1;
}

/* See kernels.h.  The bytes of the marks were read by marks8 or marksw16
 * a moment before; a kind a mark, with no branch on it. */
void
marks_harden(const unsigned char *p, size_t n, struct marks *m, size_t k)
{
	uint32_t *lt = m->lt;
	size_t nlt = m->nlt, o = k;
	unsigned sum = 0;
	uint64_t w[4];
	int be = m->be, kind;

	mark_words16(w, be);
	for (; k < nlt; k++) {
		uint32_t at = lt[k];

		if (m->usz == 2)
			kind = at % 2 != 0 ? MK_NOT : at + 18 > n ? MK_OTHER :
			    mark_kindw(p + at, be, w);
		else
			kind = at + 9 <= n ? mark_kind8(p + at) : MK_OTHER;
		lt[o] = at;
		o += kind == MK_OTHER;
		sum |= 1u << kind;
	}
	m->ksum |= sum & ((1u << MK_COMMENT) | (1u << MK_PI) |
	    (1u << MK_CDATA));
	m->nlt = m->nhd = o;
}

#if defined(__GNUC__) || defined(__clang__)
/*
 * The vector loop of moj_lines and moj_linesw over p[i..n), i moved on:
 * vectors of type V of N lanes (units of U bytes), c taking each lane's
 * CRs and LFs less its CRs before an LF, pairs its lanes where PAIR (of
 * a, the units, and b, the units after them) holds; the lanes summed
 * every LIM steps, before any can overflow.  cr and lf: the units as the
 * host reads them.
 */
#define ENDS_LOOP(V, N, U, SUMT, LIM, PAIR)				\
	while (i + 16 + (U) <= n) {					\
		V acc = { 0 }, pac = { 0 }, a, b;			\
		SUMT sum[N];						\
		int j;							\
									\
		for (j = 0; j < (LIM) && i + 16 + (U) <= n; j++, i += 16) { \
			memcpy(&a, p + i, 16);				\
			memcpy(&b, p + i + (U), 16);			\
			acc -= (V)(a == cr) + (V)(a == lf);		\
			acc += (V)((a == cr) & (b == lf));		\
			pac -= (V)(PAIR);				\
		}							\
		memcpy(sum, &acc, 16);					\
		for (j = 0; j < (N); j++)				\
			c += sum[j];					\
		memcpy(sum, &pac, 16);					\
		for (j = 0; j < (N); j++)				\
			pairs += sum[j];				\
	}
#endif

/*
 * moj_lines(): CR, and LF not after CR, counted 16 bytes a step where the
 * compiler has vectors of its own (GCC and Clang: SSE2, NEON, the z
 * vector facility, or words where there are none): each lane adds 1 for a
 * CR or an LF and takes 1 back for a CR before an LF, at most 127 a lane
 * before the lanes are summed: 16.8 GB/s over 1 MB of text in the cache
 * with SSE2, a plain loop 6.7.  The last line end is then looked for
 * backwards from n.
 */
void
moj_lines(const unsigned char *p, size_t n, struct mojskip *k)
{
	uint64_t c = 0, pairs = 0;
	size_t i = 0, t;
#if defined(__GNUC__) || defined(__clang__)
	typedef unsigned char v16 __attribute__((vector_size(16)));
	const v16 cr = { '\r', '\r', '\r', '\r', '\r', '\r', '\r', '\r',
	    '\r', '\r', '\r', '\r', '\r', '\r', '\r', '\r' };
	const v16 lf = cr - 3;

	/* no pairs of bytes: a != a is none, which the compiler drops */
	ENDS_LOOP(v16, 16, 1, unsigned char, 127, a != a)
#endif
	(void)pairs;
	for (; i < n; i++)
		c += (uint64_t)(p[i] == '\r') + (p[i] == '\n') -
		    (i + 1 < n && p[i] == '\r' && p[i + 1] == '\n');
	/* an LF first, after the CR before p: no line end */
	if (n > 0 && k->prevcr && p[0] == '\n')
		c--;
	k->lines += c;
	for (t = n; c > 0 && t-- > 0;)
		if (p[t] == '\r' || p[t] == '\n') {
			/* an LF after a CR: the CR is the line end */
			k->ls = p[t] == '\n' && t > 0 && p[t - 1] == '\r' ? t :
			    t + 1;
			k->cut = 1;
			break;
		}
	if (n > 0)
		k->prevcr = p[n - 1] == '\r';
}

/* The UTF-16 unit at p, of byte order be (utf.h's loads). */
#define UNIT16(p, be)	((be) ? load_be16(p) : load_le16(p))

/*
 * moj_linesw(): moj_lines() over UTF-16, 8 units a step in the compiler's
 * vectors as there, each lane also taking 1 for a high surrogate before a
 * low one, which two units make one character.  The constants are the
 * units' two bytes in the stream's order read as the host reads them, so
 * that no unit is swapped, on either host.
 */
uint64_t
moj_linesw(const unsigned char *p, size_t n, int be, struct mojskip *k)
{
	uint64_t c = 0, pairs = 0;
	size_t i = 0, t;
	uint32_t x;

	n &= ~(size_t)1;
#if defined(__GNUC__) || defined(__clang__)
	typedef uint16_t v8 __attribute__((vector_size(16)));
	const unsigned char b_cr[2] = { be ? 0 : '\r', be ? '\r' : 0 };
	const unsigned char b_lf[2] = { be ? 0 : '\n', be ? '\n' : 0 };
	const unsigned char b_m[2] = { be ? 0xFC : 0, be ? 0 : 0xFC };
	const unsigned char b_hi[2] = { be ? 0xD8 : 0, be ? 0 : 0xD8 };
	const unsigned char b_lo[2] = { be ? 0xDC : 0, be ? 0 : 0xDC };
	uint16_t cr, lf, m, hi, lo;

	memcpy(&cr, b_cr, 2);
	memcpy(&lf, b_lf, 2);
	memcpy(&m, b_m, 2);
	memcpy(&hi, b_hi, 2);
	memcpy(&lo, b_lo, 2);
	ENDS_LOOP(v8, 8, 2, uint16_t, 4096, ((a & m) == hi) & ((b & m) == lo))
#endif
	for (; i < n; i += 2) {
		x = UNIT16(p + i, be);
		c += (uint64_t)(x == '\r') + (x == '\n') - (i + 4 <= n &&
		    x == '\r' && UNIT16(p + i + 2, be) == '\n');
		pairs += (x & 0xFC00) == 0xD800 && i + 4 <= n &&
		    (UNIT16(p + i + 2, be) & 0xFC00) == 0xDC00;
	}
	if (n > 0 && k->prevcr && UNIT16(p, be) == '\n')
		c--;
	k->lines += c;
	for (t = n; c > 0 && t >= 2; t -= 2) {
		x = UNIT16(p + t - 2, be);
		if (x == '\r' || x == '\n') {
			/* an LF after a CR: the CR is the line end */
			k->ls = x == '\n' && t >= 4 && UNIT16(p + t - 4, be) ==
			    '\r' ? t - 2 : t;
			k->cut = 1;
			break;
		}
	}
	if (n > 0)
		k->prevcr = UNIT16(p + n - 2, be) == '\r';
	return n / 2 - pairs;
}

/*
 * Level sse2 (x86-64, where SSE2 is always there): ASCII blocks of UTF-8,
 * and the search for markup, 16 bytes at a time.  The rest is word.c's.
 */
#include <stdint.h>
#include <stdlib.h>

#include "kernels.h"
#include "simd.h"
#include "late_run.h"

#ifdef HAVE_X86
#include <emmintrin.h>

/* SSE2: 16 plain ASCII bytes at a time. */
static size_t
plain_utf8_sse2(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	const __m128i lf = _mm_set1_epi8('\n');
	const __m128i cr = _mm_set1_epi8('\r');
	const __m128i tab = _mm_set1_epi8('\t');
	const __m128i sp = _mm_set1_epi8(0x20);
	size_t i = 0;
	uint32_t carry = 0;	/* the byte before block i is CR */

	while (i + 16 <= n) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i bad = _mm_cmplt_epi8(v, sp);	/* < 0x20 or >= 0x80 */
		__m128i eol = _mm_cmpeq_epi8(v, lf), vcr;
		uint32_t nl, r = 0;

		bad = _mm_andnot_si128(_mm_or_si128(eol,
		    _mm_cmpeq_epi8(v, tab)), bad);
		if (_mm_movemask_epi8(bad) != 0) {
			/* CR too, looked for only now */
			vcr = _mm_cmpeq_epi8(v, cr);
			if (_mm_movemask_epi8(_mm_andnot_si128(vcr, bad)) != 0)
				break;
			r = (uint32_t)_mm_movemask_epi8(vcr);
		}
		nl = (uint32_t)_mm_movemask_epi8(eol);
		count_block_cr(nl, r, 0xFFFFu, 1, 15, &carry, lines, col);
		i += 16;
	}
	/* All ASCII: no character goes on past i. */
	return plain_utf8_rest(p, n, i, lines, col);
}

/* late_find, 16 bytes at a time; the rest as word.c does it. */
size_t
late_find_sse2(const struct late *lt, const unsigned char *p, size_t n,
    size_t i)
{
	size_t step = lt->usz;
	const unsigned char *b;
	__m128i vl = _mm_set1_epi8((char)lt->lt_byte);
	__m128i vq = _mm_set1_epi8((char)lt->q_byte);
	__m128i vb = _mm_set1_epi8((char)lt->bang_byte);

	for (; i + lt->lt_at + step + 16 <= n; i += 16) {
		__m128i a, c;
		unsigned m;

		b = p + i + lt->lt_at;
		a = _mm_loadu_si128((const __m128i *)b);
		c = _mm_loadu_si128((const __m128i *)(b + step));
		m = (unsigned)_mm_movemask_epi8(_mm_and_si128(
		    _mm_cmpeq_epi8(a, vl), _mm_or_si128(
		    _mm_cmpeq_epi8(c, vq), _mm_cmpeq_epi8(c, vb))));
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
	return late_find_word(lt, p, n, i);
}

/* The mask of the 64 bytes in the four vectors v that are c, bit k for
 * the k-th byte (each vector's 16 bits at 0, 16, 32 and 48). */
static inline uint64_t
win8_is(const __m128i *v, char c)
{
	__m128i k = _mm_set1_epi8(c);
	uint64_t m = 0;
	int j;

	for (j = 0; j < 4; j++)
		m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[j],
		    k)) << 16 * j;
	return m;
}

/* The masks of late_run_walk's window: 64 bytes in four vectors. */
static inline void
win8_sse2(const unsigned char *p, int be, struct late_win *m)
{
	__m128i v[4];
	int j;

	(void)be;
	for (j = 0; j < 4; j++)
		v[j] = _mm_loadu_si128((const __m128i *)(p + 16 * j));
	m->lt = win8_is(v, '<');
	m->q = win8_is(v, '?');
	m->x = win8_is(v, '!');
	m->d = win8_is(v, '-');
	m->g = win8_is(v, '>');
	m->r = win8_is(v, ']');
}

/* late_run (late_run.h) of 8-bit text. */
static size_t
late_run_sse2(const unsigned char *p, size_t n, size_t i, size_t u, int be)
{
	(void)be;
	return u == 1 ? late_run_walk(p, n, i, 1, 0, win8_sse2) : i;
}

static int
sse2_usable(void)
{
	return 1;
}

/* moj_skip(), sixteen bytes at a time. */
static size_t
moj_skip_sse2(const unsigned char *p, size_t n, struct mojskip *k)
{
	MOJ_SKIP_BODY(16, __m128i, _mm_loadu_si128, _mm_set1_epi8,
	    _mm_and_si128, _mm_or_si128, _mm_cmpeq_epi8, _mm_cmplt_epi8,
	    _mm_movemask_epi8, (unsigned)__builtin_popcount)
}

const struct kernels kernels_sse2 = {
	.name = "sse2",
	.usable = sse2_usable,
	.plain_utf8 = plain_utf8_sse2,
	.plain_utf16 = plain_utf16_word,
	.plain_utf32 = plain_utf32_word,
	.plain_sb = plain_sb_word,
	.conv = conv_word,
	.find32 = find32_word,
	.late_find = late_find_sse2,
	.late_run = late_run_sse2,
	.moj_skip = moj_skip_sse2,
};
#else
const struct kernels kernels_sse2 = { .name = "sse2" };
#endif

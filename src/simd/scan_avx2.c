/*
 * Level avx2, the searches that need no state (avx2.c has the level's
 * table): "<?" and "<!" for late declarations (late.c), and the mojibake
 * candidates of UTF-8 and UTF-16 (mojibake.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "avx2.h"

/* late_find, 64 bytes a step (one test a step: "<?" and "<!" are rare);
 * the rest as sse2.c does it. */
__attribute__((target("avx2")))
size_t
late_find_avx2(const struct late *lt, const unsigned char *p, size_t n,
    size_t i)
{
	size_t step = lt->usz;
	__m256i vl = _mm256_set1_epi8((char)lt->lt_byte);
	__m256i vq = _mm256_set1_epi8((char)lt->q_byte);
	__m256i vb = _mm256_set1_epi8((char)lt->bang_byte);

	for (; i + lt->lt_at + step + 64 <= n; i += 64) {
		const unsigned char *b = p + i + lt->lt_at;
		__m256i a0 = _mm256_loadu_si256((const __m256i *)b);
		__m256i a1 = _mm256_loadu_si256((const __m256i *)(b + 32));
		__m256i c0 = _mm256_loadu_si256((const __m256i *)(b + step));
		__m256i c1 = _mm256_loadu_si256((const __m256i *)(b + step +
		    32));
		__m256i m0 = _mm256_and_si256(_mm256_cmpeq_epi8(a0, vl),
		    _mm256_or_si256(_mm256_cmpeq_epi8(c0, vq),
		    _mm256_cmpeq_epi8(c0, vb)));
		__m256i m1 = _mm256_and_si256(_mm256_cmpeq_epi8(a1, vl),
		    _mm256_or_si256(_mm256_cmpeq_epi8(c1, vq),
		    _mm256_cmpeq_epi8(c1, vb)));
		__m256i m = _mm256_or_si256(m0, m1);
		unsigned k;

		if (_mm256_testz_si256(m, m))
			continue;
		k = (unsigned)_mm256_movemask_epi8(m0);
		if (k != 0)
			return i + (size_t)__builtin_ctz(k);
		return i + 32 + (size_t)__builtin_ctz((unsigned)
		    _mm256_movemask_epi8(m1));
	}
	return late_find_sse2(lt, p, n, i);
}

/* moj_skip(), thirty-two bytes at a time (a signed less-than is a
 * greater-than turned round). */
#define LT256(a, b)	_mm256_cmpgt_epi8(b, a)
AVX2 static size_t
moj_skip_avx2_32(const unsigned char *p, size_t n, struct mojskip *k)
{
	MOJ_SKIP_BODY(32, __m256i, _mm256_loadu_si256, _mm256_set1_epi8,
	    _mm256_and_si256, _mm256_or_si256, _mm256_cmpeq_epi8, LT256,
	    _mm256_movemask_epi8, (unsigned)__builtin_popcount)
}

/*
 * The candidates of the 32 bytes at p, as a mask: C3 with C2, C4..C7, CB
 * or E2 two bytes on, or (c1 all ones) C2 with 80..9F one byte on.  Reads
 * p[0..34).
 */
AVX2 __attribute__((always_inline)) static inline uint32_t
moj_mask32(const unsigned char *p, __m256i c1)
{
	__m256i v0 = _mm256_loadu_si256((const __m256i *)p);
	__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 1));
	__m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 2));
	__m256i trail = _mm256_or_si256(_mm256_or_si256(
	    _mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xC2)),
	    _mm256_cmpeq_epi8(_mm256_and_si256(v2, _mm256_set1_epi8((char)0xFC)),
	    _mm256_set1_epi8((char)0xC4))), _mm256_or_si256(
	    _mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xCB)),
	    _mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xE2))));
	/* 80..9F: below A0 as signed */
	__m256i ctl = _mm256_and_si256(_mm256_and_si256(c1,
	    _mm256_cmpeq_epi8(v0, _mm256_set1_epi8((char)0xC2))),
	    _mm256_cmpgt_epi8(_mm256_set1_epi8((char)0xA0), v1));

	return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_and_si256(
	    _mm256_cmpeq_epi8(v0, _mm256_set1_epi8((char)0xC3)), trail), ctl));
}

/*
 * moj_skip(), 64 bytes at a time when no lines are counted: the whole
 * mask of candidates at once (Latin text has a C3 in nearly every block),
 * one branch a block; the rest, and counting, 32 bytes at a time.
 */
AVX2 size_t
moj_skip_avx2(const unsigned char *p, size_t n, struct mojskip *k)
{
	const __m256i c1 = _mm256_set1_epi8(k->c1 ? -1 : 0);
	const __m256i c3 = _mm256_set1_epi8((char)0xC3);
	/* C2 (with c1) and C3 both C3 once 01 is set */
	const __m256i o1 = _mm256_set1_epi8(k->c1 ? 1 : 0);
	size_t i = 0;

	if (k->count)
		return moj_skip_avx2_32(p, n, k);
	while (i + 64 + 2 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i lead = _mm256_or_si256(_mm256_cmpeq_epi8(
		    _mm256_or_si256(a, o1), c3), _mm256_cmpeq_epi8(
		    _mm256_or_si256(b, o1), c3));
		uint64_t mask;

		/* No C2 or C3 (CJK, Cyrillic, ASCII): nothing to look at. */
		if (_mm256_testz_si256(lead, lead)) {
			i += 64;
			continue;
		}
		mask = (uint64_t)moj_mask32(p + i, c1) |
		    (uint64_t)moj_mask32(p + i + 32, c1) << 32;
		while (mask != 0) {
			size_t at = (size_t)__builtin_ctzll(mask);

			if (k->candidate(k->ctx, p + i + at))
				return i + at;
			mask &= mask - 1;
		}
		i += 64;
	}
	return i + moj_skip_avx2_32(p + i, n - i, k);
}

/*
 * moj_skipw(), sixteen units at a time: 80..9F, or C2..F4 (its largest
 * with C2 the same as its smallest with F4) before a unit other than
 * 00..7F and C0..FF.
 */
AVX2 size_t
moj_skipw_avx2(const unsigned char *p, size_t n, int be)
{
	const __m256i ffe0 = _mm256_set1_epi16((short)0xFFE0);
	const __m256i x80 = _mm256_set1_epi16(0x80);
	const __m256i x7f = _mm256_set1_epi16(0x7F);
	const __m256i xc0 = _mm256_set1_epi16(0xC0);
	const __m256i xff = _mm256_set1_epi16(0xFF);
	const __m256i xc2 = _mm256_set1_epi16(0xC2);
	const __m256i xf4 = _mm256_set1_epi16(0xF4);
	size_t j = 0;

	for (; j + 34 <= n; j += 32) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + j));
		__m256i nx = _mm256_loadu_si256((const __m256i *)(p + j + 2));
		__m256i c1, lead, plain, stop;

		if (be) {
			u = swap16(u);
			nx = swap16(nx);
		}
		c1 = _mm256_cmpeq_epi16(_mm256_and_si256(u, ffe0), x80);
		lead = _mm256_cmpeq_epi16(_mm256_max_epu16(u, xc2),
		    _mm256_min_epu16(u, xf4));
		/* the next unit 00..7F or C0..FF: no trail */
		plain = _mm256_or_si256(_mm256_cmpeq_epi16(
		    _mm256_min_epu16(nx, x7f), nx), _mm256_cmpeq_epi16(
		    _mm256_max_epu16(nx, xc0), _mm256_min_epu16(nx, xff)));
		stop = _mm256_or_si256(c1, _mm256_andnot_si256(plain, lead));
		if (!_mm256_testz_si256(stop, stop))
			return j + (size_t)__builtin_ctz((unsigned)
			    _mm256_movemask_epi8(stop));
	}
	return j + moj_skipw_word(p + j, n - j, be);
}
#endif

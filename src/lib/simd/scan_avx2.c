/*
 * Level avx2, the searches that need no state (avx2.c has the level's
 * table): "<?" and "<!" for late declarations (late.c), the mojibake
 * candidates of UTF-8 and UTF-16 (mojibake.c), and both of UTF-8 in one
 * pass (marks8_avx2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "avx2_int.h"

/* The bytes of a that are '<' (vl) with '?' (vq) or '!' (vb) in next, the
 * vector one unit on: where "<?" and "<!" start. */
/* (Level avx2 alone: late_find_avx2 asks for no more.) */
__attribute__((target("avx2"), always_inline)) static inline __m256i
lt_mask(__m256i a, __m256i next, __m256i vl, __m256i vq, __m256i vb)
{
	return _mm256_and_si256(_mm256_cmpeq_epi8(a, vl), _mm256_or_si256(
	    _mm256_cmpeq_epi8(next, vq), _mm256_cmpeq_epi8(next, vb)));
}

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
		__m256i m0 = lt_mask(a0, c0, vl, vq, vb);
		__m256i m1 = lt_mask(a1, c1, vl, vq, vb);
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
 * The bytes of the 32 at p that may begin a candidate, as a mask: C3 with
 * C2, C5, C6, CB or E2 (the first bytes of the trail characters) two
 * bytes on, or (c1 all ones) C2 with 80..9F one byte on.  Reads p[0..34).
 */
AVX2 __attribute__((always_inline)) static inline uint32_t
moj_mask32(const unsigned char *p, __m256i c1)
{
	__m256i v0 = _mm256_loadu_si256((const __m256i *)p);
	__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 1));
	__m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 2));
	__m256i trail = _mm256_or_si256(_mm256_or_si256(
	    _mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xC2)),
	    _mm256_or_si256(_mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xC5)),
	    _mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xC6)))),
	    _mm256_or_si256(_mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xCB)),
	    _mm256_cmpeq_epi8(v2, _mm256_set1_epi8((char)0xE2))));
	/* 80..9F: below A0 as signed */
	__m256i ctl = _mm256_and_si256(_mm256_and_si256(c1,
	    _mm256_cmpeq_epi8(v0, _mm256_set1_epi8((char)0xC2))),
	    _mm256_cmpgt_epi8(_mm256_set1_epi8((char)0xA0), v1));

	return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_and_si256(
	    _mm256_cmpeq_epi8(v0, _mm256_set1_epi8((char)0xC3)), trail), ctl));
}

/*
 * moj_skip(), 64 bytes at a time when no lines are counted: blocks with
 * no C2 or C3 (CJK, Cyrillic, ASCII) passed over with one test; in the
 * others (Latin text has a C3 in nearly every block) the whole mask of
 * possible candidates at once, one branch a block, and only a C3 two
 * bytes before the first byte of a trail character (or a C2 before
 * 80..9F) asked of moj_exact8(); the rest, and counting, 32 bytes at a
 * time.
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

		if (_mm256_testz_si256(lead, lead)) {
			i += 64;
			continue;
		}
		mask = (uint64_t)moj_mask32(p + i, c1) |
		    (uint64_t)moj_mask32(p + i + 32, c1) << 32;
		for (; mask != 0; mask &= mask - 1) {
			size_t at = (size_t)__builtin_ctzll(mask);

			if (moj_exact8(p + i + at, n - i - at, k->c1))
				return i + at;
		}
		i += 64;
	}
	return i + moj_skip_avx2_32(p + i, n - i, k);
}

/* The 16-bit lanes of x from lo to lo + span (d: x less lo). */
#define IN16(x, lo, span)	_mm256_cmpeq_epi16(_mm256_min_epu16(	\
	    _mm256_sub_epi16(x, lo), span), _mm256_sub_epi16(x, lo))

/*
 * moj_skipw(), sixteen units at a time: those that may begin a candidate,
 * 80..9F, or C2..F4 (its largest with C2 the same as its smallest with
 * F4) before a unit that may be a trail character (80..BF, and the
 * ranges of windows-1252's 27 from 0152 to 2122), each asked of
 * moj_exactw().
 */
/* Add mark j to the list l (*nl of cap); 0 when it is full. */
static inline int
mark_add(uint32_t *l, size_t *nl, size_t cap, size_t j)
{
	if (*nl == cap)
		return 0;
	l[(*nl)++] = (uint32_t)j;
	return 1;
}

/*
 * The marks of p[i..n) a byte at a time (the tail of marks8_avx2): *lon
 * and *mon say each list still takes marks, and are cleared, its
 * coverage set, when one fills.
 */
static void
marks8_tail(const unsigned char *p, size_t n, size_t i, struct marks *m,
    int *lon, int *mon)
{
	for (; i + 1 < n; i++) {
		if (*lon && p[i] == '<' && (p[i + 1] == '?' || p[i + 1] == '!') &&
		    !mark_add(m->lt, &m->nlt, m->cap, i)) {
			m->lcov = i;
			*lon = 0;
		}
		if (*mon && i + 3 <= n && (p[i] == 0xC2 || p[i] == 0xC3) &&
		    moj_exact8(p + i, n - i, 1) &&
		    !mark_add(m->mj, &m->nmj, m->cap, i)) {
			m->mcov = i;
			*mon = 0;
		}
	}
}

/*
 * marks8() in one pass, 64 bytes at a time: blocks with no "<?", "<!"
 * (the next bytes loaded again) and no C2 or C3 (markup and text of any
 * script but Latin) cost one test; in the others the marks, and the bytes
 * that may begin a candidate (moj_mask32, each asked of moj_exact8()).
 * What late_find_avx2 and moj_skip_avx2 find in two passes, at the cost
 * of a little more than the second alone.
 */
AVX2 void
marks8_avx2(const unsigned char *p, size_t n, struct marks *m)
{
	const __m256i lt = _mm256_set1_epi8('<'), q = _mm256_set1_epi8('?');
	const __m256i x = _mm256_set1_epi8('!');
	const __m256i c3 = _mm256_set1_epi8((char)0xC3);
	const __m256i o1 = _mm256_set1_epi8(1), ones = _mm256_set1_epi8(-1);
	size_t i = 0;
	int lon = 1, mon = 1;

	m->nlt = m->nmj = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	m->mcov = n > 2 ? n - 2 : 0;
	while (i + 64 + 2 <= n && (lon || mon)) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i a1 = _mm256_loadu_si256((const __m256i *)(p + i + 1));
		__m256i b1 = _mm256_loadu_si256((const __m256i *)(p + i + 33));
		/* "<?" and "<!" exactly, not every '<': markup has one in
		 * nearly every block. */
		__m256i la = lt_mask(a, a1, lt, q, x);
		__m256i lb = lt_mask(b, b1, lt, q, x);
		__m256i ca = _mm256_cmpeq_epi8(_mm256_or_si256(a, o1), c3);
		__m256i cb = _mm256_cmpeq_epi8(_mm256_or_si256(b, o1), c3);
		__m256i l = _mm256_or_si256(la, lb), c = _mm256_or_si256(ca, cb);
		uint64_t mask;

		if (_mm256_testz_si256(_mm256_or_si256(l, c),
		    _mm256_or_si256(l, c))) {
			i += 64;
			continue;
		}
		if (lon && !_mm256_testz_si256(l, l)) {
			mask = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
			for (; mask != 0 && lon; mask &= mask - 1) {
				size_t at = i + (size_t)__builtin_ctzll(mask);

				if (!mark_add(m->lt, &m->nlt, m->cap, at)) {
					m->lcov = at;
					lon = 0;
				}
			}
		}
		if (mon && !_mm256_testz_si256(c, c)) {
			mask = (uint64_t)moj_mask32(p + i, ones) |
			    (uint64_t)moj_mask32(p + i + 32, ones) << 32;
			for (; mask != 0 && mon; mask &= mask - 1) {
				size_t at = i + (size_t)__builtin_ctzll(mask);

				if (moj_exact8(p + at, n - at, 1) &&
				    !mark_add(m->mj, &m->nmj, m->cap, at)) {
					m->mcov = at;
					mon = 0;
				}
			}
		}
		i += 64;
	}
	marks8_tail(p, n, i, m, &lon, &mon);
}

/* Keep the vector v in a register from here on: the compiler may no
 * longer make it again from its value (which it did with the constants
 * of moj_skipw_avx2, a broadcast each in every round of its loop). */
#define OPAQUE(v)	__asm__("" : "+x"(v))

/*
 * moj_skipw(), sixteen units at a time: those that may begin a candidate,
 * 80..9F, or C2..F4 (its largest with C2 the same as its smallest with
 * F4) before a unit that may be a trail character (80..BF, or from 0152,
 * the first of windows-1252's 27, to 2122, the last: x less lo no more
 * than span), each asked of moj_exactw().  Blocks with no C1 control nor
 * lead (every script but Latin) cost one test.
 */
AVX2 size_t
moj_skipw_avx2(const unsigned char *p, size_t n, int be)
{
	__m256i ffe0 = _mm256_set1_epi16((short)0xFFE0);
	__m256i x80 = _mm256_set1_epi16(0x80), xc2 = _mm256_set1_epi16(0xC2);
	__m256i xf4 = _mm256_set1_epi16(0xF4), l1 = _mm256_set1_epi16(0x152);
	__m256i s0 = _mm256_set1_epi16(0xBF - 0x80);
	__m256i s1 = _mm256_set1_epi16(0x2122 - 0x152);
	size_t j = 0;

	OPAQUE(ffe0);
	OPAQUE(x80);
	OPAQUE(xc2);
	OPAQUE(xf4);
	OPAQUE(l1);
	OPAQUE(s0);
	OPAQUE(s1);
	for (; j + 34 <= n; j += 32) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + j));
		__m256i nx, c1, lead, d0, d1, stop;
		unsigned m;

		if (be)
			u = swap16(u);
		c1 = _mm256_cmpeq_epi16(_mm256_and_si256(u, ffe0), x80);
		lead = _mm256_cmpeq_epi16(_mm256_max_epu16(u, xc2),
		    _mm256_min_epu16(u, xf4));
		nx = _mm256_loadu_si256((const __m256i *)(p + j + 2));
		if (be)
			nx = swap16(nx);
		d0 = _mm256_sub_epi16(nx, x80);
		d1 = _mm256_sub_epi16(nx, l1);
		stop = _mm256_or_si256(c1, _mm256_and_si256(lead,
		    _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_min_epu16(d0, s0),
		    d0), _mm256_cmpeq_epi16(_mm256_min_epu16(d1, s1), d1))));
		if (_mm256_testz_si256(stop, stop))
			continue;
		for (m = (unsigned)_mm256_movemask_epi8(stop) & 0x55555555u;
		    m != 0; m &= m - 1) {
			size_t at = j + (size_t)__builtin_ctz(m);

			if (moj_exactw(p + at, n - at, 2, be))
				return at;
		}
	}
	return j + moj_skipw_word(p + j, n - j, be);
}
#endif

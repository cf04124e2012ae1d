/*
 * Level avx512's search for late declarations (late.c): late_find over 64
 * bytes a step, and the window of late_run_walk (late_run.h) over 64
 * bytes or 64 UTF-16 units, each test's bytes in a mask register.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "late_run.h"

#define AVX512	__attribute__((target( \
	    "avx512f,avx512bw,avx512vl,avx512vbmi,popcnt,bmi,bmi2")))

/* late_find(), 64 bytes a step with the tests in mask registers (one test
 * a step: "<?" and "<!" are rare); the rest as late_find_avx2 does it. */
AVX512 size_t
late_find_avx512(const struct late *lt, const unsigned char *p, size_t n,
    size_t i)
{
	size_t step = lt->usz;
	__m512i vl = _mm512_set1_epi8((char)lt->lt_byte);
	__m512i vq = _mm512_set1_epi8((char)lt->q_byte);
	__m512i vb = _mm512_set1_epi8((char)lt->bang_byte);

	for (; i + lt->lt_at + step + 64 <= n; i += 64) {
		const unsigned char *b = p + i + lt->lt_at;
		__m512i a = _mm512_loadu_si512((const void *)b);
		__m512i c = _mm512_loadu_si512((const void *)(b + step));
		__mmask64 m = _mm512_mask_cmpeq_epi8_mask(
		    _mm512_cmpeq_epi8_mask(c, vq) | _mm512_cmpeq_epi8_mask(c,
		    vb), a, vl);

		if (m != 0)
			return i + (size_t)__builtin_ctzll(m);
	}
	return late_find_avx2(lt, p, n, i);
}

/* The masks of late_run_walk's window: 64 bytes in one vector. */
AVX512 __attribute__((always_inline)) static inline void
win8_avx512(const unsigned char *p, int be, struct late_win *m)
{
	__m512i v = _mm512_loadu_si512((const void *)p);

	(void)be;
	m->lt = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('<'));
	m->q = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('?'));
	m->x = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('!'));
	m->d = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('-'));
	m->g = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('>'));
	m->r = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(']'));
}

/* The mask of the 64 16-bit units in a and b (the first 32 in a) that are
 * the ASCII c (be: big-endian). */
AVX512 __attribute__((always_inline)) static inline uint64_t
win16_is(__m512i a, __m512i b, int be, int c)
{
	__m512i k = _mm512_set1_epi16((short)(be ? c << 8 : c));

	return (uint64_t)_mm512_cmpeq_epi16_mask(a, k) |
	    (uint64_t)_mm512_cmpeq_epi16_mask(b, k) << 32;
}

/* The same of 64 UTF-16 units in two vectors. */
AVX512 __attribute__((always_inline)) static inline void
win16_avx512(const unsigned char *p, int be, struct late_win *m)
{
	__m512i a = _mm512_loadu_si512((const void *)p);
	__m512i b = _mm512_loadu_si512((const void *)(p + 64));

	m->lt = win16_is(a, b, be, '<');
	m->q = win16_is(a, b, be, '?');
	m->x = win16_is(a, b, be, '!');
	m->d = win16_is(a, b, be, '-');
	m->g = win16_is(a, b, be, '>');
	m->r = win16_is(a, b, be, ']');
}

/* late_run (late_run.h) of 8-bit text and of UTF-16. */
AVX512 size_t
late_run_avx512(const unsigned char *p, size_t n, size_t i, size_t u, int be)
{
	if (u == 1)
		return late_run_walk(p, n, i, 1, 0, win8_avx512);
	if (u == 2)
		return late_run_walk(p, n, i, 2, be, win16_avx512);
	return i;
}
#endif

/*
 * Error-dense text counted 32 bytes at a time with AVX2 (dense_utf8 and
 * its siblings, kernels.h), for the check once it only counts: which
 * bytes begin a token (a character or a bad sequence, one column each),
 * how many tokens are bad, and the non-Chars among the characters, all
 * from byte masks.
 *
 * UTF-8 (RFC 3629 section 4; a bad sequence is a maximal subpart, as the
 * character path takes it): a lead C2 to F4 takes the continuation bytes
 * that follow while they fit its sequence (the second in the narrower
 * range after E0, ED, F0 and F4), and its token is bad unless complete;
 * every other byte from 80 up that no lead takes is bad alone; a token
 * begins at every byte that no lead takes.  A block looks three bytes
 * past its end, so that a sequence begun in it is known whole.
 *
 * UTF-16 (RFC 2781 section 2.2): a high surrogate with a low one next is
 * a pair, one character; any other surrogate is bad.  UTF-32: a unit
 * above U+10FFFF or a surrogate is bad.
 *
 * Line ends (XML 1.0 section 2.11): LF and CR, but an LF whose character
 * before (bad sequences between do not count) is a CR (pair_lf).  The
 * tokens after the last line end give the column.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#define B(x)	_mm256_set1_epi8((char)(x))

__attribute__((target("avx2,popcnt,bmi")))
size_t
dense_utf8_avx2(const unsigned char *p, size_t n, int chars,
    struct dense_tally *t)
{
	size_t i = 0;
	int calm = 0;

	t->clean = 0;
	/* A block and the three bytes after it. */
	while (n - i >= 35) {
		__m256i v0 = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + i + 1));
		__m256i v2 = _mm256_loadu_si256((const __m256i *)(p + i + 2));
		__m256i v3 = _mm256_loadu_si256((const __m256i *)(p + i + 3));
		struct u8masks m;
		uint32_t ctl;
		__m256i x;
		int quiet;

		/* As signed bytes: 80..BF are -128..-65, C0 on -64 on. */
		m.c0 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(B(-64),
		    v0));
		m.c1 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(B(-64),
		    v1));
		m.c2 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(B(-64),
		    v2));
		m.c3 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(B(-64),
		    v3));
		/* C2..DF, E0..EF, F0..F4 */
		m.l2 = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		    _mm256_cmpgt_epi8(v0, B(0xC1)), _mm256_cmpgt_epi8(B(0xE0),
		    v0)));
		m.l3 = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		    _mm256_cmpgt_epi8(v0, B(0xDF)), _mm256_cmpgt_epi8(B(0xF0),
		    v0)));
		m.l4 = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		    _mm256_cmpgt_epi8(v0, B(0xEF)), _mm256_cmpgt_epi8(B(0xF5),
		    v0)));
		/* C0, C1 and F5..FF */
		m.lone = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_and_si256(_mm256_cmpgt_epi8(v0, B(0xBF)),
		    _mm256_cmpgt_epi8(B(0xC2), v0)), _mm256_and_si256(
		    _mm256_cmpgt_epi8(v0, B(0xF4)), _mm256_cmpgt_epi8(B(0),
		    v0))));
		/* A second byte outside the narrow range of its lead. */
		x = _mm256_or_si256(_mm256_or_si256(
		    _mm256_and_si256(_mm256_cmpeq_epi8(v0, B(0xE0)),
		    _mm256_cmpgt_epi8(B(0xA0), v1)),
		    _mm256_and_si256(_mm256_cmpeq_epi8(v0, B(0xED)),
		    _mm256_cmpgt_epi8(v1, B(0x9F)))), _mm256_or_si256(
		    _mm256_and_si256(_mm256_cmpeq_epi8(v0, B(0xF0)),
		    _mm256_cmpgt_epi8(B(0x90), v1)),
		    _mm256_and_si256(_mm256_cmpeq_epi8(v0, B(0xF4)),
		    _mm256_cmpgt_epi8(v1, B(0x8F)))));
		m.narrow = (uint32_t)_mm256_movemask_epi8(x);
		m.lf = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0,
		    B('\n')));
		m.cr = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0,
		    B('\r')));
		m.ascii = ~(uint32_t)_mm256_movemask_epi8(v0);
		/* Controls other than tab, LF and CR (XML 1.0 [2]); EF BF BE
		 * and EF BF BF, U+FFFE and U+FFFF. */
		ctl = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		    _mm256_cmpgt_epi8(v0, B(-1)), _mm256_cmpgt_epi8(B(0x20),
		    v0))) & ~(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_cmpeq_epi8(v0, B('\t')), _mm256_or_si256(
		    _mm256_cmpeq_epi8(v0, B('\n')), _mm256_cmpeq_epi8(v0,
		    B('\r')))));
		m.nc = ((uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		    _mm256_and_si256(_mm256_cmpeq_epi8(v0, B(0xEF)),
		    _mm256_cmpeq_epi8(v1, B(0xBF))), _mm256_cmpgt_epi8(v2,
		    B(0xBD)))) & (uint32_t)m.c2) | ctl;
		if (m.nc != 0 && !chars)
			break;
		i += dense_u8_step(&m, 32, t, &quiet);
		calm = quiet ? calm + 1 : 0;
		if (calm == DENSE_CALM) {
			t->clean = 1;
			break;
		}
	}
	return i;
}

/* Each unit of v in its own order, for a big-endian form. */
__attribute__((target("avx2")))
static inline __m256i
swap16(__m256i v)
{
	return _mm256_shuffle_epi8(v, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6,
	    9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
	    13, 12, 15, 14));
}

__attribute__((target("avx2")))
static inline __m256i
swap32(__m256i v)
{
	return _mm256_shuffle_epi8(v, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
	    11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
	    15, 14, 13, 12));
}

/*
 * The units' masks below come two bits (UTF-16) or four (UTF-32) a unit,
 * from the bytes; the tokens' and line ends' masks keep one bit a unit,
 * its first.
 */
#define W16(x)	_mm256_set1_epi16((short)(x))
#define W32(x)	_mm256_set1_epi32((int)(x))

__attribute__((target("avx2,popcnt,bmi")))
size_t
dense_utf16_avx2(const unsigned char *p, size_t n, int be, int chars,
    struct dense_tally *t)
{
	const uint64_t first = 0x55555555ULL;
	size_t i = 0;
	int calm = 0;

	t->clean = 0;
	/* A block and the unit after it. */
	while (n - i >= 34) {
		__m256i v0 = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + i + 2));
		uint32_t hi, lo, lo1, lf, cr, nc, badm, pair;
		uint64_t used, ts, bad, e;

		if (be) {
			v0 = swap16(v0);
			v1 = swap16(v1);
		}
		hi = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(
		    _mm256_and_si256(v0, W16(0xFC00)), W16(0xD800)));
		lo = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(
		    _mm256_and_si256(v0, W16(0xFC00)), W16(0xDC00)));
		lo1 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(
		    _mm256_and_si256(v1, W16(0xFC00)), W16(0xDC00)));
		lf = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(v0,
		    W16('\n')));
		cr = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(v0,
		    W16('\r')));
		/* Controls but tab, LF and CR; U+FFFE and U+FFFF. */
		nc = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_cmpeq_epi16(_mm256_and_si256(v0, W16(0xFFE0)),
		    W16(0)), _mm256_cmpeq_epi16(_mm256_or_si256(v0, W16(1)),
		    W16(0xFFFF)))) & ~(uint32_t)_mm256_movemask_epi8(
		    _mm256_or_si256(_mm256_cmpeq_epi16(v0, W16('\t')),
		    _mm256_or_si256(_mm256_cmpeq_epi16(v0, W16('\n')),
		    _mm256_cmpeq_epi16(v0, W16('\r')))));
		if (nc != 0 && !chars)
			break;
		/* A high surrogate takes the low one after it. */
		used = (uint64_t)(hi & lo1) << 2;
		ts = ~used & first;
		badm = (hi & ~lo1) | (lo & ~(uint32_t)used);
		bad = (uint64_t)__builtin_popcount(badm) / 2;
		cr &= (uint32_t)first;
		lf &= (uint32_t)first;
		pair = pair_lf(lf, cr, (uint32_t)ts & ~badm, &t->cr);
		e = cr | (lf & ~pair);
		tally_lines(e, ts & ~(uint64_t)pair, t);
		t->bad += bad;
		t->nonchar += (uint64_t)__builtin_popcount(nc) / 2;
		i += 32 + (used >> 32 != 0 ? 2 : 0);
		calm = bad + nc == 0 ? calm + 1 : 0;
		if (calm == DENSE_CALM) {
			t->clean = 1;
			break;
		}
	}
	return i;
}

__attribute__((target("avx2,popcnt,bmi")))
size_t
dense_utf32_avx2(const unsigned char *p, size_t n, int be, int chars,
    struct dense_tally *t)
{
	const uint64_t first = 0x11111111ULL;
	size_t i = 0;
	int calm = 0;

	t->clean = 0;
	while (n - i >= 32) {
		__m256i v0 = _mm256_loadu_si256((const __m256i *)(p + i));
		uint32_t bad, lf, cr, nc, pair;
		uint64_t e;

		if (be)
			v0 = swap32(v0);
		/* Above U+10FFFF, or a surrogate. */
		bad = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_cmpeq_epi32(_mm256_max_epu32(v0, W32(0x110000)), v0),
		    _mm256_cmpeq_epi32(_mm256_and_si256(v0, W32(0xFFFFF800)),
		    W32(0xD800))));
		lf = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi32(v0,
		    W32('\n')));
		cr = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi32(v0,
		    W32('\r')));
		nc = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_cmpeq_epi32(_mm256_and_si256(v0, W32(0xFFFFFFE0)),
		    W32(0)), _mm256_cmpeq_epi32(_mm256_or_si256(v0, W32(1)),
		    W32(0xFFFF)))) & ~(uint32_t)_mm256_movemask_epi8(
		    _mm256_or_si256(_mm256_cmpeq_epi32(v0, W32('\t')),
		    _mm256_or_si256(_mm256_cmpeq_epi32(v0, W32('\n')),
		    _mm256_cmpeq_epi32(v0, W32('\r')))));
		if (nc != 0 && !chars)
			break;
		/* Every unit is a token. */
		cr &= (uint32_t)first;
		lf &= (uint32_t)first;
		pair = pair_lf(lf, cr, (uint32_t)first & ~bad, &t->cr);
		e = cr | (lf & ~pair);
		tally_lines(e, first & ~(uint64_t)pair, t);
		t->bad += (uint64_t)__builtin_popcount(bad) / 4;
		t->nonchar += (uint64_t)__builtin_popcount(nc) / 4;
		i += 32;
		calm = bad + nc == 0 ? calm + 1 : 0;
		if (calm == DENSE_CALM) {
			t->clean = 1;
			break;
		}
	}
	return i;
}
#endif /* HAVE_X86 */

/*
 * Level avx2, conversions from UTF-8 to UTF-16 and UTF-32 and between
 * those two (avx2.c has the level's table).  Each UTF-8 byte is decoded
 * as if it ended a character (its value, plus the previous bytes shifted
 * in; the lead bytes' marker bits cancel out by subtraction), and the
 * lanes of the bytes that do end one are packed by a table lookup.
 * Blocks where four-byte UTF-8 characters end have kernels of their own
 * (u8_surr_block, u8_u32_block), and the tails shorter than a vector go
 * to word.c.  Then the mojibake searches of UTF-16 and UTF-32
 * (moj_skipw_avx2, moj_skip32_avx2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "avx2_int.h"

/*
 * pack16[m]: the shuffle that gathers the 16-bit lanes named by the bits
 * of m (eight lanes) at the front.
 */
static unsigned char pack16[256][16];

/* pack32[m]: the permutation that gathers the 32-bit lanes named by the
 * bits of m (eight lanes) at the front. */
static int32_t pack32[256][8];

/* Build the table (once, by avx2_init()). */
void
wide_avx2_tables(void)
{
	unsigned m, j, k;

	for (m = 0; m < 256; m++) {
		memset(pack16[m], 0x80, 16);
		memset(pack32[m], 0, sizeof pack32[m]);
		for (j = 0, k = 0; j < 8; j++)
			if (m & (1u << j)) {
				pack32[m][k / 2] = (int32_t)j;
				pack16[m][k++] = (unsigned char)(2 * j);
				pack16[m][k++] = (unsigned char)(2 * j + 1);
			}
	}
}

/* Sixteen ASCII bytes b widened to UTF-16 or UTF-32 at o; return the end
 * of what was written. */
AVX2 __attribute__((always_inline)) static inline unsigned char *
widen_ascii(__m128i b, int wide, int be, unsigned char *o)
{
	if (!wide) {
		__m256i v = _mm256_cvtepu8_epi16(b);

		_mm256_storeu_si256((__m256i *)o, be ? swap16(v) : v);
		return o + 32;
	} else {
		__m256i a = _mm256_cvtepu8_epi32(b);
		__m256i z = _mm256_cvtepu8_epi32(_mm_srli_si128(b, 8));

		_mm256_storeu_si256((__m256i *)o, be ? swap32(a) : a);
		_mm256_storeu_si256((__m256i *)(o + 32), be ? swap32(z) : z);
		return o + 64;
	}
}

/*
 * Which bytes of the sixteen at p + i of p[0..n) end a character (a bit a
 * byte): those the next does not continue (cont: the continuation bytes),
 * the byte after the block deciding for the last.
 */
AVX2 __attribute__((always_inline)) static inline unsigned
u8_ends(const unsigned char *p, size_t n, size_t i, __m128i cont)
{
	unsigned ends = (~(unsigned)_mm_movemask_epi8(cont) >> 1) & 0x7FFF;

	if (i + 16 == n || (p[i + 16] & 0xC0) != 0x80)
		ends |= 0x8000;
	return ends;
}

/*
 * Each byte of block b taken as the end of a character, the value of that
 * character in 16 bits: its own, plus the byte before (b1) shifted by 6
 * when it is a continuation (cont), plus the one before that (b2) shifted
 * by 12, which drops the lead's marker bits, when both are (c1: b1 is a
 * continuation); then the markers of the continuation and two-byte lead
 * bytes subtracted.
 */
AVX2 __attribute__((always_inline)) static inline __m256i
u8_as_ends(__m128i b, __m128i b1, __m128i b2, __m128i cont, __m128i c1)
{
	__m256i mc = _mm256_cvtepi8_epi16(cont);
	__m256i m3 = _mm256_cvtepi8_epi16(_mm_and_si128(cont, c1));
	__m256i m2 = _mm256_cvtepi8_epi16(_mm_andnot_si128(c1, cont));
	__m256i v;

	v = _mm256_add_epi16(_mm256_cvtepu8_epi16(b), _mm256_and_si256(
	    _mm256_slli_epi16(_mm256_cvtepu8_epi16(b1), 6), mc));
	v = _mm256_add_epi16(v, _mm256_and_si256(_mm256_slli_epi16(
	    _mm256_cvtepu8_epi16(b2), 12), m3));
	return _mm256_sub_epi16(v, _mm256_or_si256(_mm256_and_si256(m3,
	    _mm256_set1_epi16(0x2080)), _mm256_and_si256(m2,
	    _mm256_set1_epi16(0x3080))));
}

/* The lanes of v that ends marks (a bit a byte), packed at the front of
 * each half and written at o as UTF-16 or UTF-32; return the end of what
 * was written. */
AVX2 __attribute__((always_inline)) static inline unsigned char *
put_ends(__m256i v, unsigned ends, int wide, int be, unsigned char *o)
{
	unsigned lo = ends & 0xFF, hi = ends >> 8;

	v = _mm256_shuffle_epi8(v, _mm256_inserti128_si256(
	    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)
	    pack16[lo])), _mm_loadu_si128((const __m128i *)pack16[hi]), 1));
	if (!wide) {
		if (be)
			v = swap16(v);
		_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
		o += 2 * __builtin_popcount(lo);
		_mm_storeu_si128((__m128i *)o, _mm256_extracti128_si256(v, 1));
		o += 2 * __builtin_popcount(hi);
	} else {
		__m256i a = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v));
		__m256i z = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v,
		    1));

		_mm256_storeu_si256((__m256i *)o, be ? swap32(a) : a);
		o += 4 * __builtin_popcount(lo);
		_mm256_storeu_si256((__m256i *)o, be ? swap32(z) : z);
		o += 4 * __builtin_popcount(hi);
	}
	return o;
}

/*
 * The block of sixteen bytes at p + i (i >= 3) in UTF-16, where four-byte
 * characters end (b3: the bytes three places before each).  Each such
 * character is two units: its high surrogate is written at its third
 * byte, its low one at its fourth (RFC 2781 section 2.1), so each byte
 * still decides alone what it writes; the rest is as in u8_wide_avx2().
 */
AVX2 static unsigned char *
u8_surr_block(const unsigned char *p, size_t n, size_t i, __m128i b3,
    int be, unsigned char *o)
{
	const __m128i ef = _mm_set1_epi8((char)0xEF);
	__m128i b = _mm_loadu_si128((const __m128i *)(p + i));
	__m128i b1 = _mm_loadu_si128((const __m128i *)(p + i - 1));
	__m128i b2 = _mm_loadu_si128((const __m128i *)(p + i - 2));
	__m128i cont = _mm_cmplt_epi8(b, _mm_set1_epi8((char)0xC0));
	__m128i c1 = _mm_cmplt_epi8(b1, _mm_set1_epi8((char)0xC0));
	/* Third and fourth bytes of four-byte characters: their lead is two
	 * or three places before (0xF0 and up). */
	__m128i t3 = _mm_cmpeq_epi8(_mm_subs_epu8(b2, ef), _mm_setzero_si128());
	__m128i t4 = _mm_cmpeq_epi8(_mm_subs_epu8(b3, ef), _mm_setzero_si128());
	__m256i v = u8_as_ends(b, b1, b2, cont, c1), hi, lo;
	__m256i w1 = _mm256_cvtepu8_epi16(b1);
	unsigned ends;

	t3 = _mm_andnot_si128(t3, _mm_set1_epi8(-1));
	t4 = _mm_andnot_si128(t4, _mm_set1_epi8(-1));
	/* High: 0xD800 + ((c - 0x10000) >> 10), from the lead's three bits,
	 * the second byte's six and the third's top two. */
	hi = _mm256_add_epi16(_mm256_set1_epi16((short)0xD7C0),
	    _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(
	    _mm256_cvtepu8_epi16(b2), _mm256_set1_epi16(7)), 8),
	    _mm256_slli_epi16(_mm256_and_si256(w1, _mm256_set1_epi16(0x3F)), 2)),
	    _mm256_and_si256(_mm256_srli_epi16(_mm256_cvtepu8_epi16(b), 4),
	    _mm256_set1_epi16(3))));
	/* Low: 0xDC00 and the ten bits below, which the end value has. */
	lo = _mm256_or_si256(_mm256_and_si256(v, _mm256_set1_epi16(0x3FF)),
	    _mm256_set1_epi16((short)0xDC00));
	v = _mm256_blendv_epi8(v, hi, _mm256_cvtepi8_epi16(t3));
	v = _mm256_blendv_epi8(v, lo, _mm256_cvtepi8_epi16(t4));
	ends = u8_ends(p, n, i, cont) | (unsigned)_mm_movemask_epi8(t3);
	return put_ends(v, ends, 0, be, o);
}

/*
 * The block of sixteen bytes at p + i (i >= 3) in UTF-32, where four-byte
 * characters end (b3: the bytes three places before each): each byte
 * taken as the end of a character in a 32-bit lane, eight lanes at a
 * time, as u8_as_ends() does in 16 (the bytes one, two and three places
 * before added in, shifted by 6, 12 and 18, while each byte after them is
 * a continuation; then the marker bits of the lead and the continuations
 * subtracted, by the character's length), and the lanes of the bytes that
 * end one packed by pack32.  The rest is as in u8_wide_avx2().
 */
AVX2 static unsigned char *
u8_u32_block(const unsigned char *p, size_t n, size_t i, __m128i b3,
    int be, unsigned char *o)
{
	const __m128i xc0 = _mm_set1_epi8((char)0xC0);
	__m128i b = _mm_loadu_si128((const __m128i *)(p + i));
	__m128i b1 = _mm_loadu_si128((const __m128i *)(p + i - 1));
	__m128i b2 = _mm_loadu_si128((const __m128i *)(p + i - 2));
	/* Continuations (0x80-0xBF: below 0xC0 as signed) among the byte,
	 * the one before and the one before that. */
	__m128i c0 = _mm_cmplt_epi8(b, xc0), c1 = _mm_cmplt_epi8(b1, xc0);
	__m128i c2 = _mm_cmplt_epi8(b2, xc0);
	unsigned ends, e;
	int h;

	ends = u8_ends(p, n, i, c0);
	for (h = 0; h < 2; h++, ends >>= 8) {
		/* m1: two bytes or more; m2: three or more; m3: four. */
		__m256i m1 = _mm256_cvtepi8_epi32(c0);
		__m256i m2 = _mm256_and_si256(m1, _mm256_cvtepi8_epi32(c1));
		__m256i m3 = _mm256_and_si256(m2, _mm256_cvtepi8_epi32(c2));
		__m256i v, mk;

		v = _mm256_add_epi32(_mm256_cvtepu8_epi32(b), _mm256_and_si256(
		    _mm256_slli_epi32(_mm256_cvtepu8_epi32(b1), 6), m1));
		v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_slli_epi32(
		    _mm256_cvtepu8_epi32(b2), 12), m2));
		v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_slli_epi32(
		    _mm256_cvtepu8_epi32(b3), 18), m3));
		/* C0 << 6 | 80; E0 << 12 | 80 << 6 | 80; F0 << 18 | ... */
		mk = _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(
		    _mm256_andnot_si256(m2, m1), _mm256_set1_epi32(0x3080)),
		    _mm256_and_si256(_mm256_andnot_si256(m3, m2),
		    _mm256_set1_epi32(0xE2080))), _mm256_and_si256(m3,
		    _mm256_set1_epi32(0x3C82080)));
		e = ends & 0xFF;
		v = _mm256_permutevar8x32_epi32(_mm256_sub_epi32(v, mk),
		    _mm256_loadu_si256((const __m256i *)pack32[e]));
		_mm256_storeu_si256((__m256i *)o, be ? swap32(v) : v);
		o += 4 * __builtin_popcount(e);
		b = _mm_srli_si128(b, 8);
		b1 = _mm_srli_si128(b1, 8);
		b2 = _mm_srli_si128(b2, 8);
		b3 = _mm_srli_si128(b3, 8);
		c0 = _mm_srli_si128(c0, 8);
		c1 = _mm_srli_si128(c1, 8);
		c2 = _mm_srli_si128(c2, 8);
	}
	return o;
}

/*
 * UTF-8 to UTF-16 or UTF-32, sixteen bytes at a time.  Each block writes
 * the characters that end in it, whose first bytes may be in the block
 * before: so the blocks are independent of each other, and the next one
 * does not wait for this one's count.
 */
AVX2 static size_t
u8_wide_avx2(const unsigned char *p, size_t n, int to, unsigned char *o)
{
	const int wide = form_u32(to), be = form_be(to);
	unsigned char *o0 = o;
	size_t i = 0;

	while (i + 16 <= n) {
		__m128i b = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i b1, b2, b3 = b, cont, c1, lead;
		unsigned ends;

		if (_mm_movemask_epi8(b) == 0) {
			/* Sixteen ASCII bytes (so the block before ended on a
			 * whole character). */
			o = widen_ascii(b, wide, be, o);
			i += 16;
			continue;
		}
		/* The leads of the characters that begin in the block and
		 * of those that end in it (which u8_surr_block and
		 * u8_u32_block write): from three bytes before it. */
		lead = b;
		if (i >= 3)
			lead = _mm_max_epu8(b, b3 = _mm_loadu_si128(
			    (const __m128i *)(p + i - 3)));
		if (!_mm_testz_si128(_mm_subs_epu8(lead,
		    _mm_set1_epi8((char)0xEF)), _mm_set1_epi8(-1))) {
			size_t stop = i + 16;

			if (i >= 3) {
				o = wide ? u8_u32_block(p, n, i, b3, be, o) :
				    u8_surr_block(p, n, i, b3, be, o);
				i += 16;
				continue;
			}
			/* A four-byte character begins in the first block: a
			 * character at a time, from the first that ends in the
			 * block to the first that begins after it. */
			while (i > 0 && (p[i] & 0xC0) == 0x80)
				i--;
			i += conv_word_from(FORM_UTF8, to, p + i, stop - i, &o);
			continue;
		}
		/* The same bytes one and two places on (the block before's
		 * last bytes first; none before the first block, which
		 * starts a character). */
		if (i >= 2) {
			b1 = _mm_loadu_si128((const __m128i *)(p + i - 1));
			b2 = _mm_loadu_si128((const __m128i *)(p + i - 2));
		} else {
			b1 = _mm_slli_si128(b, 1);
			b2 = _mm_slli_si128(b, 2);
		}
		/* Continuation bytes (0x80-0xBF: below 0xC0 as signed), and
		 * the same for the byte before each. */
		cont = _mm_cmplt_epi8(b, _mm_set1_epi8((char)0xC0));
		c1 = _mm_cmplt_epi8(b1, _mm_set1_epi8((char)0xC0));
		ends = u8_ends(p, n, i, cont);
		/* No three-byte lead from two bytes before the block on:
		 * two-byte characters at most (Latin, Cyrillic), whose
		 * last byte needs only the one before. */
		if (_mm_testz_si128(_mm_subs_epu8(_mm_max_epu8(b, b2),
		    _mm_set1_epi8((char)0xDF)), _mm_set1_epi8(-1))) {
			__m256i mc = _mm256_cvtepi8_epi16(cont);

			o = put_ends(_mm256_sub_epi16(_mm256_add_epi16(
			    _mm256_cvtepu8_epi16(b), _mm256_and_si256(
			    _mm256_slli_epi16(_mm256_cvtepu8_epi16(b1), 6), mc)),
			    _mm256_and_si256(mc, _mm256_set1_epi16(0x3080))),
			    ends, wide, be, o);
		} else
			o = put_ends(u8_as_ends(b, b1, b2, cont, c1), ends,
			    wide, be, o);
		i += 16;
	}
	/* The rest from the first character that has not ended.  A
	 * four-byte one cut after its third byte has its high surrogate
	 * written already (u8_surr_block): it is written again whole. */
	if (!wide && i >= 3 && i < n && p[i - 3] >= 0xF0)
		o -= 2;
	while (i > 0 && i < n && (p[i] & 0xC0) == 0x80)
		i--;
	return (size_t)(o - o0) + conv_word(FORM_UTF8, to, p + i, n - i, o);
}

/* UTF-16 to UTF-16 in the other byte order, or UTF-32 to UTF-32. */
AVX2 static size_t
swap_avx2(const unsigned char *p, size_t n, int from, int to,
    unsigned char *o)
{
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));

		_mm256_storeu_si256((__m256i *)(o + i), form_u32(from) ? swap32(v) :
		    swap16(v));
	}
	return i + conv_word(from, to, p + i, n - i, o + i);
}

/* UTF-16 to UTF-32, eight units at a time. */
AVX2 static size_t
u16_u32_avx2(const unsigned char *p, size_t n, int from, int to,
    unsigned char *o)
{
	unsigned char *o0 = o;
	size_t i = 0;

	while (i + 16 <= n) {
		__m128i u = _mm_loadu_si128((const __m128i *)(p + i));
		__m256i v;

		if (from == FORM_UTF16BE)
			u = _mm_shuffle_epi8(u, _mm_setr_epi8(1, 0, 3, 2, 5, 4,
			    7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
		if (!_mm_testz_si128(_mm_cmpeq_epi16(_mm_and_si128(u,
		    _mm_set1_epi16((short)0xF800)), _mm_set1_epi16((short)0xD800)),
		    _mm_set1_epi8(-1))) {
			/* A surrogate pair: the units one at a time (the last
			 * may be a high surrogate: its pair goes too). */
			i += conv_word_from(from, to, p + i, 16, &o);
			continue;
		}
		v = _mm256_cvtepu16_epi32(u);
		_mm256_storeu_si256((__m256i *)o, to == FORM_UTF32BE ? swap32(v) :
		    v);
		o += 32;
		i += 16;
	}
	return (size_t)(o - o0) + conv_word(from, to, p + i, n - i, o);
}

/* UTF-32 to UTF-16, eight characters at a time. */
AVX2 static size_t
u32_u16_avx2(const unsigned char *p, size_t n, int from, int to,
    unsigned char *o)
{
	unsigned char *o0 = o;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));

		if (from == FORM_UTF32BE)
			v = swap32(v);
		if (!_mm256_testz_si256(v, _mm256_set1_epi32((int)0xFFFF0000))) {
			o += conv_word(from, to, p + i, 32, o);
			continue;
		}
		/* Narrowed within each half, then the halves joined. */
		v = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0x08);
		if (to == FORM_UTF16BE)
			v = swap16(v);
		_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
		o += 16;
	}
	return (size_t)(o - o0) + conv_word(from, to, p + i, n - i, o);
}

/* conv_find32, eight characters at a time. */
AVX2 size_t
find32_avx2(const unsigned char *u, size_t nc, uint32_t a, uint32_t b,
    uint32_t c)
{
	const __m256i va = _mm256_set1_epi32((int)a);
	const __m256i vb = _mm256_set1_epi32((int)b);
	const __m256i vc = _mm256_set1_epi32((int)c);
	size_t k = 0;

	for (; k + 8 <= nc; k += 8) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(u + 4 * k));
		unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
		    _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi32(v, va),
		    _mm256_cmpeq_epi32(v, vb)), _mm256_cmpeq_epi32(v, vc))));

		if (m != 0)
			return k + (size_t)__builtin_ctz(m);
	}
	return k + find32_word(u + 4 * k, nc - k, a, b, c);
}

size_t
conv_avx2(int from, int to, const unsigned char *p, size_t n,
    unsigned char *o)
{
	if (from == FORM_UTF8)
		return u8_wide_avx2(p, n, to, o);
	if (to == FORM_UTF8)
		return form_u32(from) ? u32_u8_avx2(p, n, from, o) :
		    u16_u8_avx2(p, n, from, o);
	if (form_u32(from) == form_u32(to))
		return swap_avx2(p, n, from, to, o);
	if (form_u32(to))
		return u16_u32_avx2(p, n, from, to, o);
	return u32_u16_avx2(p, n, from, to, o);
}

/* Keep the vector v in a register from here on: the compiler may no
 * longer make it again from its value (which it did with the constants
 * of moj_skipw_avx2, a broadcast each in every round of its loop). */
#define OPAQUE(v)	__asm__("" : "+x"(v))

/* The 16-bit lanes of x that may be a trail character: x less lo no
 * more than span, of 80..BF or of 0152..2122. */
AVX2 __attribute__((always_inline)) static inline __m256i
trail16(__m256i x, __m256i x80, __m256i s0, __m256i l1, __m256i s1)
{
	__m256i d0 = _mm256_sub_epi16(x, x80), d1 = _mm256_sub_epi16(x, l1);

	return _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_min_epu16(d0, s0),
	    d0), _mm256_cmpeq_epi16(_mm256_min_epu16(d1, s1), d1));
}

/*
 * moj_skipw(), sixteen units at a time: those that may begin a candidate,
 * 80..9F, or C2..F4 (its largest with C2 the same as its smallest with
 * F4) before a unit that may be a trail character (80..BF, or from 0152,
 * the first of windows-1252's 27, to 2122, the last: trail16), and of
 * E0..F4, a lead that needs two or more, before a second two units on,
 * each asked of moj_exactw().  Blocks with no C1 control nor lead
 * (every script but Latin) cost one test.
 */
AVX2 size_t
moj_skipw_avx2(const unsigned char *p, size_t n, int be)
{
	__m256i ffe0 = _mm256_set1_epi16((short)0xFFE0);
	__m256i x80 = _mm256_set1_epi16(MOJ_TRAIL0_LO);
	__m256i xc2 = _mm256_set1_epi16(MOJ_LEAD_LO);
	__m256i xf4 = _mm256_set1_epi16(MOJ_LEAD_LO + MOJ_LEAD_SPAN);
	__m256i l1 = _mm256_set1_epi16(MOJ_TRAIL1_LO);
	__m256i s0 = _mm256_set1_epi16(MOJ_TRAIL0_SPAN);
	__m256i s1 = _mm256_set1_epi16(MOJ_TRAIL1_SPAN);
	__m256i xdf = _mm256_set1_epi16(0xDF);
	size_t j = 0;

	OPAQUE(ffe0);
	OPAQUE(x80);
	OPAQUE(xc2);
	OPAQUE(xf4);
	OPAQUE(l1);
	OPAQUE(s0);
	OPAQUE(s1);
	OPAQUE(xdf);
	for (; j + 34 <= n; j += 32) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + j));
		__m256i nx, c1, lead, stop;
		unsigned m;

		if (be)
			u = swap16(u);
		c1 = _mm256_cmpeq_epi16(_mm256_and_si256(u, ffe0), x80);
		lead = _mm256_cmpeq_epi16(_mm256_max_epu16(u, xc2),
		    _mm256_min_epu16(u, xf4));
		nx = _mm256_loadu_si256((const __m256i *)(p + j + 2));
		if (be)
			nx = swap16(nx);
		stop = _mm256_or_si256(c1, _mm256_and_si256(lead,
		    trail16(nx, x80, s0, l1, s1)));
		if (_mm256_testz_si256(stop, stop))
			continue;
		/* a lead of E0..F4 needs a second trail character two
		 * units on (twow5, scan_avx512.c: Czech "náš") */
		if (j + 36 <= n) {
			nx = _mm256_loadu_si256((const __m256i *)(p + j + 4));
			if (be)
				nx = swap16(nx);
			stop = _mm256_and_si256(stop, _mm256_or_si256(
			    _mm256_cmpeq_epi16(_mm256_min_epu16(u, xdf), u),
			    trail16(nx, x80, s0, l1, s1)));
		}
		for (m = (unsigned)_mm256_movemask_epi8(stop) & 0x55555555u;
		    m != 0; m &= m - 1) {
			size_t at = j + (size_t)__builtin_ctz(m);

			if (moj_exactw(p + at, n - at, 2, be))
				return at;
		}
	}
	return j + moj_skipw_word(p + j, n - j, be);
}

/*
 * moj_skip32(), eight units a step: those that may stop it, FFFFFFFF, a
 * C1 control (80..9F), or C2..F4 before a unit that may be a trail
 * character (80..BF, or 0152..2122 as moj_skipw_avx2 tests them), each
 * asked of moj_stop32(); the rest as the word does it.  Text of every
 * script, Latin-1 letters included, costs one test a block: with the
 * leads alone each of those letters stopped it (Latin text in UTF-32,
 * 31 % of the run in moj_skip32_avx512, doc/BENCHMARKS.md).
 */
AVX2 size_t
moj_skip32_avx2(const unsigned char *p, size_t n, int be)
{
	__m256i x80 = _mm256_set1_epi32(MOJ_TRAIL0_LO);
	__m256i xc2 = _mm256_set1_epi32(MOJ_LEAD_LO);
	__m256i ffe0 = _mm256_set1_epi32((int)0xFFFFFFE0);
	__m256i sl = _mm256_set1_epi32(MOJ_LEAD_SPAN);
	__m256i l1 = _mm256_set1_epi32(MOJ_TRAIL1_LO);
	__m256i s0 = _mm256_set1_epi32(MOJ_TRAIL0_SPAN);
	__m256i s1 = _mm256_set1_epi32(MOJ_TRAIL1_SPAN);
	__m256i ones = _mm256_set1_epi32(-1);
	size_t j = 0;

	OPAQUE(x80);
	OPAQUE(xc2);
	OPAQUE(ffe0);
	OPAQUE(sl);
	OPAQUE(l1);
	OPAQUE(s0);
	OPAQUE(s1);
	OPAQUE(ones);
	for (; j + 32 + 4 <= n; j += 32) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + j));
		__m256i nx = _mm256_loadu_si256((const __m256i *)(p + j + 4));
		__m256i d, d0, d1, lead, stop;
		unsigned m;

		if (be) {
			u = swap32(u);
			nx = swap32(nx);
		}
		d = _mm256_sub_epi32(u, xc2);
		d0 = _mm256_sub_epi32(nx, x80);
		d1 = _mm256_sub_epi32(nx, l1);
		lead = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(d,
		    sl), d), _mm256_or_si256(_mm256_cmpeq_epi32(
		    _mm256_min_epu32(d0, s0), d0), _mm256_cmpeq_epi32(
		    _mm256_min_epu32(d1, s1), d1)));
		stop = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi32(u,
		    ones), _mm256_cmpeq_epi32(_mm256_and_si256(u, ffe0), x80)),
		    lead);
		if (_mm256_testz_si256(stop, stop))
			continue;
		for (m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
		    stop)); m != 0; m &= m - 1) {
			size_t at = j + 4 * (size_t)__builtin_ctz(m);

			if (moj_stop32(p + at, n - at, be))
				return at;
		}
	}
	return j + moj_skip32_word(p + j, n - j, be);
}
#endif

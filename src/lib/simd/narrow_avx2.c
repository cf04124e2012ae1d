/*
 * Level avx2, conversions to UTF-8 (avx2.c has the level's table): each
 * UTF-16 or UTF-32 code point is spread into a lane as its one, two or
 * three UTF-8 bytes, and a table indexed by their lengths packs them.
 * The tails shorter than a vector go to the portable kernels of word.c.
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
 * pack8[k]: the shuffle that gathers the UTF-8 bytes of four 32-bit
 * lanes, where bit j of k says lane j has two bytes or more and bit j + 4
 * that it has three; pack8_len[k] is their total.  pack2[m]: the shuffle
 * that keeps the first byte of each of eight 16-bit lanes and the second
 * of those named by the bits of m.
 */
static unsigned char pack8[256][16];
static unsigned char pack8_len[256];
static unsigned char pack2[256][16];

/* Build the tables (once, by avx2_init()). */
void
narrow_avx2_tables(void)
{
	unsigned m, j, k;

	for (m = 0; m < 256; m++) {
		memset(pack8[m], 0x80, 16);
		for (j = 0, k = 0; j < 4; j++) {
			unsigned len = 1 + (m >> j & 1) + (m >> (j + 4) & 1), b;

			for (b = 0; b < len; b++)
				pack8[m][k++] = (unsigned char)(4 * j + b);
		}
		pack8_len[m] = (unsigned char)k;
		memset(pack2[m], 0x80, 16);
		for (j = 0, k = 0; j < 8; j++) {
			pack2[m][k++] = (unsigned char)(2 * j);
			if (m & (1u << j))
				pack2[m][k++] = (unsigned char)(2 * j + 1);
		}
	}
}

/* Eight code points below U+10000, one per 32-bit lane, as UTF-8 at o;
 * return the new end.  Up to 16 bytes past it may be overwritten. */
AVX2 static inline unsigned char *
bmp_to_u8(unsigned char *o, __m256i c)
{
	const __m256i x3f = _mm256_set1_epi32(0x3F);
	const __m256i x80 = _mm256_set1_epi32(0x80);
	__m256i last = _mm256_or_si256(_mm256_and_si256(c, x3f), x80);
	__m256i mid = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(c, 6),
	    x3f), x80);
	__m256i two = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c, 6),
	    _mm256_set1_epi32(0xC0)), _mm256_slli_epi32(last, 8));
	__m256i three = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c,
	    12), _mm256_set1_epi32(0xE0)), _mm256_or_si256(_mm256_slli_epi32(mid,
	    8), _mm256_slli_epi32(last, 16)));
	__m256i m2 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7F));
	__m256i m3 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7FF));
	__m256i w = _mm256_blendv_epi8(_mm256_blendv_epi8(c, two, m2), three,
	    m3);
	unsigned k2 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m2));
	unsigned k3 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m3));
	unsigned a = (k2 & 15) | (k3 & 15) << 4, b = k2 >> 4 | (k3 >> 4) << 4;

	w = _mm256_shuffle_epi8(w, _mm256_inserti128_si256(
	    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)pack8[a])),
	    _mm_loadu_si128((const __m128i *)pack8[b]), 1));
	_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(w));
	o += pack8_len[a];
	_mm_storeu_si128((__m128i *)o, _mm256_extracti128_si256(w, 1));
	return o + pack8_len[b];
}

/*
 * The UTF-8 bytes of the surrogate halves in v (pv: the unit before each,
 * s6 = v >> 6, last = 80 | the low six bits): *h for a high half, F0 and
 * the top three bits of its value less 10000 (the unit less D7C0), then
 * 80 and the next six; *l for a low half, 80, the high half's two low
 * bits and its own bits 9..6, then 80 and its last six.
 */
AVX2 __attribute__((always_inline)) static inline void
pair_u8(__m256i v, __m256i pv, __m256i s6, __m256i last, __m256i *h,
    __m256i *l)
{
	const __m256i x3f = _mm256_set1_epi16(0x3F);
	const __m256i x80 = _mm256_set1_epi16(0x80);
	__m256i u = _mm256_sub_epi16(v, _mm256_set1_epi16((short)0xD7C0));

	*h = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(u, 8),
	    _mm256_set1_epi16(0xF0)), _mm256_slli_epi16(_mm256_or_si256(
	    _mm256_and_si256(_mm256_srli_epi16(u, 2), x3f), x80), 8));
	*l = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(
	    _mm256_and_si256(pv, _mm256_set1_epi16(3)), 4),
	    _mm256_and_si256(s6, _mm256_set1_epi16(0xF))),
	    _mm256_or_si256(x80, _mm256_slli_epi16(last, 8)));
}

/*
 * Sixteen UTF-16 units v (host order), pv the same units one place back
 * (the unit before the first in its first lane), as UTF-8 at o; return
 * the new end.  Each unit writes its own bytes (RFC 3629 section 3): one
 * to three for a unit below U+D800 or above U+DFFF; for a pair, its high
 * half writes the first two bytes of the four, its low half the last two,
 * taking the two low bits of the high half from pv.  So a pair may be cut
 * between two calls.  Up to 16 bytes past the end may be overwritten.
 */
AVX2 __attribute__((always_inline)) static inline unsigned char *
u16_any_u8(__m256i v, __m256i pv, unsigned char *o)
{
	const __m256i x3f = _mm256_set1_epi16(0x3F);
	const __m256i x80 = _mm256_set1_epi16(0x80);
	const __m256i z = _mm256_setzero_si256();
	__m256i top = _mm256_and_si256(v, _mm256_set1_epi16((short)0xF800));
	__m256i last = _mm256_or_si256(_mm256_and_si256(v, x3f), x80);
	__m256i s6 = _mm256_srli_epi16(v, 6);
	__m256i surr = _mm256_cmpeq_epi16(top, _mm256_set1_epi16((short)0xD800));
	/* Two bytes or more (m2), three (m3). */
	__m256i m2 = _mm256_andnot_si256(_mm256_cmpeq_epi16(_mm256_and_si256(v,
	    _mm256_set1_epi16((short)0xFF80)), z), _mm256_set1_epi8(-1));
	__m256i m3 = _mm256_andnot_si256(_mm256_or_si256(_mm256_cmpeq_epi16(top,
	    z), surr), _mm256_set1_epi8(-1));
	/* The first two bytes in the low 16 bits, the third in the high. */
	__m256i two = _mm256_or_si256(_mm256_or_si256(s6,
	    _mm256_set1_epi16(0xC0)), _mm256_slli_epi16(last, 8));
	__m256i three = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(v,
	    12), _mm256_set1_epi16(0xE0)), _mm256_slli_epi16(_mm256_or_si256(
	    _mm256_and_si256(s6, x3f), x80), 8));
	__m256i w = _mm256_blendv_epi8(_mm256_blendv_epi8(v, two, m2), three,
	    m3), lo, hi;
	unsigned m, k0, k1, k2, k3;

	if (!_mm256_testz_si256(surr, surr)) {
		/* the halves' bytes (pair_u8); hs: the high halves */
		__m256i hs = _mm256_cmpeq_epi16(_mm256_and_si256(v,
		    _mm256_set1_epi16((short)0xFC00)),
		    _mm256_set1_epi16((short)0xD800));
		__m256i h, l;

		pair_u8(v, pv, s6, last, &h, &l);
		w = _mm256_blendv_epi8(w, _mm256_blendv_epi8(l, h, hs), surr);
	}
	lo = _mm256_unpacklo_epi16(w, last);
	hi = _mm256_unpackhi_epi16(w, last);
	/* Bits 0-7: m2 of lanes 0-7, 8-15: m3 of lanes 0-7, 16-31 the same
	 * for lanes 8-15; each pack8 key is four lanes of each. */
	m = (unsigned)_mm256_movemask_epi8(_mm256_packs_epi16(m2, m3));
	k0 = (m & 0xF) | (m >> 4 & 0xF0);
	k1 = (m >> 4 & 0xF) | (m >> 8 & 0xF0);
	k2 = (m >> 16 & 0xF) | (m >> 20 & 0xF0);
	k3 = (m >> 20 & 0xF) | (m >> 24 & 0xF0);
	lo = _mm256_shuffle_epi8(lo, _mm256_inserti128_si256(
	    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)pack8[k0])),
	    _mm_loadu_si128((const __m128i *)pack8[k2]), 1));
	hi = _mm256_shuffle_epi8(hi, _mm256_inserti128_si256(
	    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)pack8[k1])),
	    _mm_loadu_si128((const __m128i *)pack8[k3]), 1));
	_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(lo));
	o += pack8_len[k0];
	_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(hi));
	o += pack8_len[k1];
	_mm_storeu_si128((__m128i *)o, _mm256_extracti128_si256(lo, 1));
	o += pack8_len[k2];
	_mm_storeu_si128((__m128i *)o, _mm256_extracti128_si256(hi, 1));
	return o + pack8_len[k3];
}

/*
 * Sixteen units v (host order; pv as for u16_any_u8) of one or two bytes
 * each in UTF-8 as UTF-8 at o: ASCII (asc: those lanes), below U+0800,
 * and when pairs is set the halves of surrogate pairs, two bytes each as
 * u16_any_u8 writes them.  keys: the lanes of two bytes (bits 0-7 the low
 * eight, 16-23 the high).  Return the new end; up to 8 bytes past it may
 * be overwritten.
 */
AVX2 __attribute__((always_inline)) static inline unsigned char *
u16_two_u8(__m256i v, __m256i pv, __m256i asc, unsigned keys, int pairs,
    unsigned char *o)
{
	const __m256i x3f = _mm256_set1_epi16(0x3F);
	const __m256i x80 = _mm256_set1_epi16(0x80);
	__m256i s6 = _mm256_srli_epi16(v, 6);
	__m256i last = _mm256_or_si256(_mm256_and_si256(v, x3f), x80);
	__m256i w = _mm256_or_si256(_mm256_or_si256(s6,
	    _mm256_set1_epi16(0xC0)), _mm256_slli_epi16(last, 8));
	unsigned a = keys & 0xFF, b = keys >> 16 & 0xFF;

	if (pairs) {
		__m256i hs = _mm256_cmpeq_epi16(_mm256_and_si256(v,
		    _mm256_set1_epi16((short)0xFC00)),
		    _mm256_set1_epi16((short)0xD800));
		__m256i ls = _mm256_cmpeq_epi16(_mm256_and_si256(v,
		    _mm256_set1_epi16((short)0xFC00)),
		    _mm256_set1_epi16((short)0xDC00));
		__m256i h, l;

		pair_u8(v, pv, s6, last, &h, &l);
		w = _mm256_blendv_epi8(_mm256_blendv_epi8(w, h, hs), l, ls);
	}
	v = _mm256_shuffle_epi8(_mm256_blendv_epi8(w, v, asc),
	    _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(
	    (const __m128i *)pack2[a])), _mm_loadu_si128((const __m128i *)
	    pack2[b]), 1));
	_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
	o += 8 + __builtin_popcount(a);
	_mm_storeu_si128((__m128i *)o, _mm256_extracti128_si256(v, 1));
	return o + 8 + __builtin_popcount(b);
}

/* The lanes of v whose unit is three bytes in UTF-8: from U+0800 on, but
 * surrogates (whose top five bits are neither 0 nor 11011). */
AVX2 __attribute__((always_inline)) static inline __m256i
u16_wide3(__m256i v)
{
	__m256i t = _mm256_and_si256(v, _mm256_set1_epi16((short)0xF800));

	return _mm256_min_epu16(t, _mm256_xor_si256(t,
	    _mm256_set1_epi16((short)0xD800)));
}

/*
 * UTF-16 to UTF-8, 32 units (64 bytes) at a time: all ASCII; or one or
 * two bytes each (u16_two_u8: Latin, Cyrillic, and ASCII with surrogate
 * pairs such as emoji); or any mixture (u16_any_u8), in vector code.
 */
AVX2 size_t
u16_u8_avx2(const unsigned char *p, size_t n, int from, unsigned char *o)
{
	const __m256i ff80 = _mm256_set1_epi16((short)0xFF80);
	unsigned char *o0 = o;
	__m256i prev = _mm256_setzero_si256();
	size_t i = 0;

	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i ab, asca, ascb, pa, pb, w3;
		unsigned m;

		if (from == FORM_UTF16BE) {
			a = swap16(a);
			b = swap16(b);
		}
		ab = _mm256_or_si256(a, b);
		if (_mm256_testz_si256(ab, ff80)) {
			/* Packed in each half: a's low, b's low, a's high,
			 * b's high; reordered. */
			_mm256_storeu_si256((__m256i *)o, _mm256_permute4x64_epi64(
			    _mm256_packus_epi16(a, b), 0xD8));
			o += 32;
			prev = b;
			i += 64;
			continue;
		}
		/* The units one place back: the last of the block before,
		 * then a's, then b's. */
		pa = _mm256_alignr_epi8(a, _mm256_permute2x128_si256(prev, a,
		    0x21), 14);
		pb = _mm256_alignr_epi8(b, _mm256_permute2x128_si256(a, b, 0x21),
		    14);
		asca = _mm256_cmpeq_epi16(_mm256_and_si256(a, ff80),
		    _mm256_setzero_si256());
		ascb = _mm256_cmpeq_epi16(_mm256_and_si256(b, ff80),
		    _mm256_setzero_si256());
		/* Not ASCII: bits 0-7 a's lanes 0-7, 8-15 b's, 16-23 a's
		 * lanes 8-15, 24-31 b's. */
		m = ~(unsigned)_mm256_movemask_epi8(_mm256_packs_epi16(asca,
		    ascb));
		if (_mm256_testz_si256(ab, _mm256_set1_epi16((short)0xF800))) {
			o = u16_two_u8(a, pa, asca, m, 0, o);
			o = u16_two_u8(b, pb, ascb, m >> 8, 0, o);
		} else if (w3 = _mm256_or_si256(u16_wide3(a), u16_wide3(b)),
		    _mm256_testz_si256(w3, w3)) {
			o = u16_two_u8(a, pa, asca, m, 1, o);
			o = u16_two_u8(b, pb, ascb, m >> 8, 1, o);
		} else {
			o = u16_any_u8(a, pa, o);
			o = u16_any_u8(b, pb, o);
		}
		prev = b;
		i += 64;
	}
	/* A pair cut after its high half: it is written again whole. */
	if (i > 0 && i < n && (p[i - 2 + (from == FORM_UTF16LE)] & 0xFC) ==
	    0xD8) {
		i -= 2;
		o -= 2;
	}
	return (size_t)(o - o0) + conv_word(from, FORM_UTF8, p + i, n - i, o);
}

/* UTF-32 to UTF-8, eight characters at a time. */
AVX2 size_t
u32_u8_avx2(const unsigned char *p, size_t n, int from, unsigned char *o)
{
	unsigned char *o0 = o;
	size_t i = 0;

	while (i + 32 <= n) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));

		if (from == FORM_UTF32BE)
			v = swap32(v);
		if (_mm256_testz_si256(v, _mm256_set1_epi32((int)0xFFFFFF80))) {
			/* Eight ASCII characters: the low byte of each. */
			__m256i b = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 4,
			    8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
			    0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
			    -1));

			b = _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4,
			    1, 1, 1, 1, 1, 1));
			_mm_storel_epi64((__m128i *)o, _mm256_castsi256_si128(b));
			o += 8;
		} else if (_mm256_testz_si256(v,
		    _mm256_set1_epi32((int)0xFFFF0000)))
			o = bmp_to_u8(o, v);
		else
			o += conv_word(from, FORM_UTF8, p + i, 32, o);
		i += 32;
	}
	return (size_t)(o - o0) + conv_word(from, FORM_UTF8, p + i, n - i, o);
}
#endif

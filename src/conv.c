/*
 * Plain runs from one Unicode form into another: the pairs the transcoder
 * writes itself (--transcode-to) rather than through iconv(3).  A run
 * holds whole characters that the validator has checked (fast.c), so
 * nothing here checks again; a UTF-16 run has no surrogates in practice,
 * but a pair is still converted right.
 *
 * On x86-64 with AVX2 (chosen at run time) the work is done 16 or 32 bytes
 * at a time:
 *  - UTF-8 to UTF-16/32: each byte is decoded as if it ended a character
 *    (its value, plus the previous bytes shifted in; the lead bytes'
 *    marker bits cancel out by subtraction), and the lanes of the bytes
 *    that do end one are packed by a table lookup.
 *  - UTF-16/32 to UTF-8: each code point is spread into a 32-bit lane as
 *    its one, two or three UTF-8 bytes, and a table indexed by the four
 *    lengths packs them.
 *  - Four-byte UTF-8 characters (rare) take the portable path for their
 *    block.
 * Every other case, and every machine, has the portable path, which gives
 * the same bytes; any level but avx2 (simd/select.c) forces it for tests.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xmlsniff.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_X86 1
#include <immintrin.h>
#endif

static int conv_mode = -1;	/* 1: AVX2, 0: portable */

static int
is_be(int form)
{
	return form == RUN_UTF16BE || form == RUN_UTF32BE;
}

static int
is_u32(int form)
{
	return form == RUN_UTF32BE || form == RUN_UTF32LE;
}

/* Decode the whole, valid character at p in form; return its length. */
static inline int
get_char(const unsigned char *p, int form, uint32_t *c)
{
	uint32_t u, lo;

	switch (form) {
	case RUN_UTF8:
		u = p[0];
		if (u < 0x80) {
			*c = u;
			return 1;
		}
		if (u < 0xE0) {
			*c = (u & 0x1F) << 6 | (p[1] & 0x3F);
			return 2;
		}
		if (u < 0xF0) {
			*c = (u & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 |
			    (p[2] & 0x3F);
			return 3;
		}
		*c = (u & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
		    (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
		return 4;
	case RUN_UTF16BE:
	case RUN_UTF16LE:
		u = form == RUN_UTF16BE ? load_be16(p) : load_le16(p);
		if (u >= 0xD800 && u < 0xDC00) {
			/* Only then is there a second unit to read. */
			lo = form == RUN_UTF16BE ? load_be16(p + 2) :
			    load_le16(p + 2);
			*c = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			return 4;
		}
		*c = u;
		return 2;
	case RUN_UTF32BE:
		*c = load_be32(p);
		return 4;
	default:
		*c = load_le32(p);
		return 4;
	}
}

/* Write c in form at o; return the bytes written. */
static inline int
put_char(unsigned char *o, int form, uint32_t c)
{
	int be = is_be(form);

	switch (form) {
	case RUN_UTF8:
		return utf8_enc(o, c);
	case RUN_UTF16BE:
	case RUN_UTF16LE:
		if (c >= 0x10000) {
			uint32_t hi = 0xD800 + ((c - 0x10000) >> 10);
			uint32_t lo = 0xDC00 + ((c - 0x10000) & 0x3FF);

			o[be ? 0 : 1] = (unsigned char)(hi >> 8);
			o[be ? 1 : 0] = (unsigned char)hi;
			o[be ? 2 : 3] = (unsigned char)(lo >> 8);
			o[be ? 3 : 2] = (unsigned char)lo;
			return 4;
		}
		o[be ? 0 : 1] = (unsigned char)(c >> 8);
		o[be ? 1 : 0] = (unsigned char)c;
		return 2;
	default:
		o[be ? 0 : 3] = (unsigned char)(c >> 24);
		o[be ? 1 : 2] = (unsigned char)(c >> 16);
		o[be ? 2 : 1] = (unsigned char)(c >> 8);
		o[be ? 3 : 0] = (unsigned char)c;
		return 4;
	}
}

/* The portable path: the characters that begin in p[0..n) (the last may
 * end past n, where a block cuts one), a character at a time, written at
 * *o, which moves on.  Return the input bytes taken. */
static size_t
scalar_from(int from, int to, const unsigned char *p, size_t n,
    unsigned char **o)
{
	size_t i = 0;

	while (i < n) {
		uint32_t c;

		i += (size_t)get_char(p + i, from, &c);
		*o += put_char(*o, to, c);
	}
	return i;
}

/* The whole characters p[0..n) at o; return the bytes written. */
static size_t
conv_scalar(int from, int to, const unsigned char *p, size_t n,
    unsigned char *o)
{
	unsigned char *e = o;

	scalar_from(from, to, p, n, &e);
	return (size_t)(e - o);
}

/* conv_find32, a character at a time. */
static size_t
find32_scalar(const unsigned char *u, size_t nc, uint32_t a, uint32_t b,
    uint32_t c)
{
	size_t k;

	for (k = 0; k < nc; k++) {
		uint32_t x = load_le32(u + 4 * k);

		if (x == a || x == b || x == c)
			break;
	}
	return k;
}

#ifdef HAVE_X86
/*
 * pack16[m]: the shuffle that gathers the 16-bit lanes named by the bits
 * of m (eight lanes) at the front.  pack8[k]: the shuffle that gathers the
 * UTF-8 bytes of four 32-bit lanes, where bit j of k says lane j has two
 * bytes or more and bit j + 4 that it has three; pack8_len[k] is their
 * total.
 */
static unsigned char pack16[256][16];
static unsigned char pack8[256][16];
static unsigned char pack8_len[256];

static void
build_tables(void)
{
	unsigned m, j, k;

	for (m = 0; m < 256; m++) {
		memset(pack16[m], 0x80, 16);
		for (j = 0, k = 0; j < 8; j++)
			if (m & (1u << j)) {
				pack16[m][k++] = (unsigned char)(2 * j);
				pack16[m][k++] = (unsigned char)(2 * j + 1);
			}
		memset(pack8[m], 0x80, 16);
		for (j = 0, k = 0; j < 4; j++) {
			unsigned len = 1 + (m >> j & 1) + (m >> (j + 4) & 1), b;

			for (b = 0; b < len; b++)
				pack8[m][k++] = (unsigned char)(4 * j + b);
		}
		pack8_len[m] = (unsigned char)k;
	}
}

#define AVX2 __attribute__((target("avx2,popcnt")))

AVX2 static inline __m256i
swap16(__m256i v)
{
	return _mm256_shuffle_epi8(v, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6,
	    9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
	    13, 12, 15, 14));
}

AVX2 static inline __m256i
swap32(__m256i v)
{
	return _mm256_shuffle_epi8(v, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
	    11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
	    15, 14, 13, 12));
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

/* UTF-16 to UTF-8, sixteen units at a time. */
AVX2 static size_t
u16_u8_avx2(const unsigned char *p, size_t n, int from, unsigned char *o)
{
	unsigned char *o0 = o;
	size_t i = 0;

	while (i + 32 <= n) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));

		if (from == RUN_UTF16BE)
			v = swap16(v);
		if (_mm256_testz_si256(v, _mm256_set1_epi16((short)0xFF80))) {
			_mm_storeu_si128((__m128i *)o, _mm_packus_epi16(
			    _mm256_castsi256_si128(v),
			    _mm256_extracti128_si256(v, 1)));
			o += 16;
			i += 32;
			continue;
		}
		if (!_mm256_testz_si256(_mm256_cmpeq_epi16(_mm256_and_si256(v,
		    _mm256_set1_epi16((short)0xF800)),
		    _mm256_set1_epi16((short)0xD800)), _mm256_set1_epi8(-1))) {
			/* A surrogate pair: these units one at a time (the
			 * last may be a high surrogate: its pair goes too). */
			i += scalar_from(from, RUN_UTF8, p + i, 32, &o);
			continue;
		}
		o = bmp_to_u8(o, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
		o = bmp_to_u8(o, _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v,
		    1)));
		i += 32;
	}
	return (size_t)(o - o0) + conv_scalar(from, RUN_UTF8, p + i, n - i, o);
}

/* UTF-32 to UTF-8, eight characters at a time. */
AVX2 static size_t
u32_u8_avx2(const unsigned char *p, size_t n, int from, unsigned char *o)
{
	unsigned char *o0 = o;
	size_t i = 0;

	while (i + 32 <= n) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));

		if (from == RUN_UTF32BE)
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
			o += conv_scalar(from, RUN_UTF8, p + i, 32, o);
		i += 32;
	}
	return (size_t)(o - o0) + conv_scalar(from, RUN_UTF8, p + i, n - i, o);
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
	const int wide = is_u32(to), be = is_be(to);
	unsigned char *o0 = o;
	size_t i = 0;

	while (i + 16 <= n) {
		__m128i b = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i b1, b2, cont, c1;
		__m256i v, m2, m3, mc;
		unsigned ends, lo, hi;

		if (_mm_movemask_epi8(b) == 0) {
			/* Sixteen ASCII bytes (so the block before ended on a
			 * whole character), widened. */
			if (!wide) {
				v = _mm256_cvtepu8_epi16(b);
				_mm256_storeu_si256((__m256i *)o, be ? swap16(v) :
				    v);
				o += 32;
			} else {
				__m256i a = _mm256_cvtepu8_epi32(b);
				__m256i z = _mm256_cvtepu8_epi32(_mm_srli_si128(b,
				    8));

				_mm256_storeu_si256((__m256i *)o, be ? swap32(a) :
				    a);
				_mm256_storeu_si256((__m256i *)(o + 32), be ?
				    swap32(z) : z);
				o += 64;
			}
			i += 16;
			continue;
		}
		if (!_mm_testz_si128(_mm_subs_epu8(b, _mm_set1_epi8((char)0xEF)),
		    _mm_set1_epi8(-1))) {
			/* A four-byte character begins here: a character at a
			 * time, from the first that ends in the block to the
			 * first that begins after it. */
			size_t stop = i + 16;

			while (i > 0 && (p[i] & 0xC0) == 0x80)
				i--;
			i += scalar_from(RUN_UTF8, to, p + i, stop - i, &o);
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
		/* A byte ends a character when the next does not continue
		 * it; the byte after the block decides for the last. */
		ends = (~(unsigned)_mm_movemask_epi8(cont) >> 1) & 0x7FFF;
		if (i + 16 == n || (p[i + 16] & 0xC0) != 0x80)
			ends |= 0x8000;
		/* As the end of a character, each byte's value: its own,
		 * plus the byte before shifted by 6 when it is a
		 * continuation, plus the one before that shifted by 12 (in
		 * 16 bits, which drops the lead's marker bits) when both
		 * are; then the markers of the continuation and two-byte
		 * lead bytes subtracted. */
		mc = _mm256_cvtepi8_epi16(cont);
		m3 = _mm256_cvtepi8_epi16(_mm_and_si128(cont, c1));
		m2 = _mm256_cvtepi8_epi16(_mm_andnot_si128(c1, cont));
		v = _mm256_add_epi16(_mm256_cvtepu8_epi16(b), _mm256_and_si256(
		    _mm256_slli_epi16(_mm256_cvtepu8_epi16(b1), 6), mc));
		v = _mm256_add_epi16(v, _mm256_and_si256(_mm256_slli_epi16(
		    _mm256_cvtepu8_epi16(b2), 12), m3));
		v = _mm256_sub_epi16(v, _mm256_or_si256(_mm256_and_si256(m3,
		    _mm256_set1_epi16(0x2080)), _mm256_and_si256(m2,
		    _mm256_set1_epi16(0x3080))));
		/* Keep the lanes of the ends, packed at the front of each
		 * half. */
		lo = ends & 0xFF;
		hi = ends >> 8;
		v = _mm256_shuffle_epi8(v, _mm256_inserti128_si256(
		    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)
		    pack16[lo])), _mm_loadu_si128((const __m128i *)pack16[hi]),
		    1));
		if (!wide) {
			if (be)
				v = swap16(v);
			_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
			o += 2 * __builtin_popcount(lo);
			_mm_storeu_si128((__m128i *)o, _mm256_extracti128_si256(v,
			    1));
			o += 2 * __builtin_popcount(hi);
		} else {
			__m256i a = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v));
			__m256i z = _mm256_cvtepu16_epi32(
			    _mm256_extracti128_si256(v, 1));

			_mm256_storeu_si256((__m256i *)o, be ? swap32(a) : a);
			o += 4 * __builtin_popcount(lo);
			_mm256_storeu_si256((__m256i *)o, be ? swap32(z) : z);
			o += 4 * __builtin_popcount(hi);
		}
		i += 16;
	}
	/* The rest from the first character that has not ended. */
	while (i > 0 && i < n && (p[i] & 0xC0) == 0x80)
		i--;
	return (size_t)(o - o0) + conv_scalar(RUN_UTF8, to, p + i, n - i, o);
}

/* UTF-16 to UTF-16 in the other byte order, or UTF-32 to UTF-32. */
AVX2 static size_t
swap_avx2(const unsigned char *p, size_t n, int from, int to,
    unsigned char *o)
{
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));

		_mm256_storeu_si256((__m256i *)(o + i), is_u32(from) ? swap32(v) :
		    swap16(v));
	}
	return i + conv_scalar(from, to, p + i, n - i, o + i);
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

		if (from == RUN_UTF16BE)
			u = _mm_shuffle_epi8(u, _mm_setr_epi8(1, 0, 3, 2, 5, 4,
			    7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
		if (!_mm_testz_si128(_mm_cmpeq_epi16(_mm_and_si128(u,
		    _mm_set1_epi16((short)0xF800)), _mm_set1_epi16((short)0xD800)),
		    _mm_set1_epi8(-1))) {
			/* A surrogate pair: the units one at a time (the last
			 * may be a high surrogate: its pair goes too). */
			i += scalar_from(from, to, p + i, 16, &o);
			continue;
		}
		v = _mm256_cvtepu16_epi32(u);
		_mm256_storeu_si256((__m256i *)o, to == RUN_UTF32BE ? swap32(v) :
		    v);
		o += 32;
		i += 16;
	}
	return (size_t)(o - o0) + conv_scalar(from, to, p + i, n - i, o);
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

		if (from == RUN_UTF32BE)
			v = swap32(v);
		if (!_mm256_testz_si256(v, _mm256_set1_epi32((int)0xFFFF0000))) {
			o += conv_scalar(from, to, p + i, 32, o);
			continue;
		}
		/* Narrowed within each half, then the halves joined. */
		v = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0x08);
		if (to == RUN_UTF16BE)
			v = swap16(v);
		_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
		o += 16;
	}
	return (size_t)(o - o0) + conv_scalar(from, to, p + i, n - i, o);
}

/* conv_find32, eight characters at a time. */
AVX2 static size_t
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
	return k + find32_scalar(u + 4 * k, nc - k, a, b, c);
}

static size_t
conv_avx2(int from, int to, const unsigned char *p, size_t n,
    unsigned char *o)
{
	if (from == RUN_UTF8)
		return u8_wide_avx2(p, n, to, o);
	if (to == RUN_UTF8)
		return is_u32(from) ? u32_u8_avx2(p, n, from, o) :
		    u16_u8_avx2(p, n, from, o);
	if (is_u32(from) == is_u32(to))
		return swap_avx2(p, n, from, to, o);
	if (is_u32(to))
		return u16_u32_avx2(p, n, from, to, o);
	return u32_u16_avx2(p, n, from, to, o);
}
#endif

/* Use the kernels of level l (simd/select.c): AVX2 for SIMD_AVX2, the
 * portable path for every other. */
void
conv_select(enum simd l)
{
	conv_mode = 0;
	(void)l;
#ifdef HAVE_X86
	if (l == SIMD_AVX2) {
		static int built;

		if (!built) {
			build_tables();
			built = 1;
		}
		conv_mode = 1;
	}
#endif
}

/* The most bytes n bytes in form from can become in form to, plus the
 * room the wide stores may overwrite. */
size_t
conv_room(int from, int to, size_t n)
{
	size_t w = from == RUN_UTF8 ? (to == RUN_UTF8 ? n : is_u32(to) ? 4 * n :
	    2 * n) : is_u32(from) ? n : is_u32(to) ? 2 * n : to == RUN_UTF8 ?
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
	if (from == RUN_UTF8) {
		for (m = max; m > 0 && (p[m] & 0xC0) == 0x80; m--)
			;
		return m;
	}
	if (is_u32(from))
		return max & ~(size_t)3;
	m = max & ~(size_t)1;
	/* Not between the two halves of a pair. */
	if ((p[m - 2 + (from == RUN_UTF16LE)] & 0xFC) == 0xD8)
		m -= 2;
	return m;
}

/*
 * Convert the plain run p[0..n) (whole characters) from form from to form
 * to (RUN_UTF8, RUN_UTF16BE/LE, RUN_UTF32BE/LE) at o, which has room for
 * conv_room(from, to, n) bytes.  Return the bytes written.
 */
size_t
conv_run(int from, int to, const unsigned char *p, size_t n,
    unsigned char *o)
{
	if (from == to) {
		memcpy(o, p, n);
		return n;
	}
	if (conv_mode < 0)
		conv_select(simd_level());
#ifdef HAVE_X86
	if (conv_mode == 1)
		return conv_avx2(from, to, p, n, o);
#endif
	return conv_scalar(from, to, p, n, o);
}

/* The index of the first of the nc characters u (UTF-32LE) that is a, b
 * or c; nc if none is. */
size_t
conv_find32(const unsigned char *u, size_t nc, uint32_t a, uint32_t b,
    uint32_t c)
{
	if (conv_mode < 0)
		conv_select(simd_level());
#ifdef HAVE_X86
	if (conv_mode == 1)
		return find32_avx2(u, nc, a, b, c);
#endif
	return find32_scalar(u, nc, a, b, c);
}

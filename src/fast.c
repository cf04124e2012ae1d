/*
 * Fast paths of the validator (validate.c): runs of "plain" characters,
 * which need nothing but counting.  A plain character is an XML 1.0 Char
 * other than CR (whose line-end rules the caller applies): TAB, LF,
 * U+0020..U+10FFFF less surrogates, U+FFFE and U+FFFF.  Each function
 * returns how many bytes from the start of p are plain characters, ending
 * on a character boundary, and adds their line ends to *lines and their
 * columns to *col as the character-at-a-time path would.  Anything else is
 * left to that path, so the answers never depend on the path taken.
 *
 * UTF-8 validation on x86-64 with AVX2 follows the lookup method of
 * Keiser and Lemire, "Validating UTF-8 in less than one instruction per
 * byte" (2021); SSE2 (always there on x86-64) takes ASCII blocks; other
 * machines take eight ASCII bytes at a time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xmlsniff.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_X86 1
#include <immintrin.h>
#endif
/* Advanced SIMD is part of every AArch64 processor; little-endian only. */
#if defined(__aarch64__) && !defined(__ARM_BIG_ENDIAN) && \
    (defined(__GNUC__) || defined(__clang__))
#define HAVE_NEON 1
#include <arm_neon.h>
#endif

/* Add the line ends and columns of the plain bytes p[0..n) (whole
 * characters) to the counters: the portable reference for all paths. */
static void
count_plain(const unsigned char *p, size_t n, uint64_t *lines, uint64_t *col)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			(*lines)++;
			*col = 1;
		} else if ((p[i] & 0xC0) != 0x80)
			(*col)++;
	}
}

/* The character-at-a-time definition of the plain UTF-8 prefix. */
size_t
plain_utf8_ref(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	size_t i = 0;

	while (i < n) {
		uint32_t c;
		int r = utf8_dec(p + i, n - i, &c);

		if (r <= 0 || c == '\r' || !xml_char_ok(c, 0))
			break;
		i += (size_t)r;
	}
	count_plain(p, i, lines, col);
	return i;
}

/* Portable: eight plain ASCII bytes at a time, else one character. */
static size_t
plain_utf8_word(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	size_t i = 0;

	for (;;) {
		uint32_t c;
		int r;

		while (i + 8 <= n) {
			uint64_t w;

			memcpy(&w, p + i, 8);
			/* Bytes 0x20..0x7F: no high bit, none below 0x20. */
			if (((w | (w - 0x2020202020202020ULL)) &
			    0x8080808080808080ULL) != 0)
				break;
			i += 8;
			*col += 8;
		}
		if (i >= n)
			break;
		r = utf8_dec(p + i, n - i, &c);
		if (r <= 0 || c == '\r' || !xml_char_ok(c, 0))
			break;
		if (c == '\n') {
			(*lines)++;
			*col = 1;
		} else
			(*col)++;
		i += (size_t)r;
	}
	return i;
}

/* The plain prefix of UTF-16 (be: big-endian), one unit at a time:
 * surrogates, controls other than TAB/LF, U+FFFE and U+FFFF end it. */
static size_t
plain_utf16_word(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	size_t i;

	for (i = 0; i + 2 <= n; i += 2) {
		uint32_t u = be ? load_be16(p + i) : load_le16(p + i);

		if (u >= 0x20 && (u < 0xD800 || u > 0xDFFF) && u < 0xFFFE)
			(*col)++;
		else if (u == '\n') {
			(*lines)++;
			*col = 1;
		} else if (u != '\t')
			break;
		else
			(*col)++;
	}
	return i;
}

/* The plain prefix of UTF-32 (be: big-endian), one unit at a time:
 * surrogates, controls other than TAB/LF, U+FFFE, U+FFFF and values
 * past U+10FFFF end it. */
static size_t
plain_utf32_word(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		uint32_t u = be ? load_be32(p + i) : load_le32(p + i);

		if (u >= 0x20 && (u < 0xD800 || u > 0xDFFF) && u != 0xFFFE &&
		    u != 0xFFFF && u <= 0x10FFFF)
			(*col)++;
		else if (u == '\n') {
			(*lines)++;
			*col = 1;
		} else if (u != '\t')
			break;
		else
			(*col)++;
	}
	return i;
}

/* Whether byte b is in the map. */
#define IN_MAP(m, b)	((m)->bits[(b) >> 3] >> ((b) & 7) & 1)

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

/* The prefix of single-byte text whose bytes are all in map (which has
 * neither CR nor anything that is not a plain character), a byte at a
 * time. */
static size_t
plain_sb_word(const unsigned char *p, size_t n, const struct plainmap *map,
    uint64_t *lines, uint64_t *col)
{
	size_t i;

	for (i = 0; i < n && IN_MAP(map, p[i]); i++) {
		if (p[i] == '\n') {
			(*lines)++;
			*col = 1;
		} else
			(*col)++;
	}
	return i;
}

#if defined(HAVE_X86) || defined(HAVE_NEON)

/* How many bytes at the end of p[0..e) start a sequence that goes on
 * past e (the bytes before e are valid UTF-8). */
static size_t
partial_tail(const unsigned char *p, size_t e)
{
	if (e >= 1 && p[e - 1] >= 0xC0)
		return 1;
	if (e >= 2 && p[e - 2] >= 0xE0)
		return 2;
	if (e >= 3 && p[e - 3] >= 0xF0)
		return 3;
	return 0;
}

/* After the vector blocks of a UTF-8 kernel up to i: back up to the start
 * of a character that goes on past i (its lead was counted as a column),
 * and take the rest eight bytes at a time. */
static size_t
utf8_rest(const unsigned char *p, size_t n, size_t i, uint64_t *lines,
    uint64_t *col)
{
	size_t b = partial_tail(p, i);

	if (b > 0) {
		i -= b;
		(*col)--;
	}
	return i + plain_utf8_word(p + i, n - i, lines, col);
}

/* Columns and line ends of one block of plain characters, from the masks
 * of its LF characters and of the first bytes of its characters (lead). */
static inline void
count_block(uint32_t nl, uint32_t lead, uint64_t *lines, uint64_t *col)
{
	if (nl == 0) {
		*col += (uint64_t)__builtin_popcount(lead);
		return;
	}
	*lines += (uint64_t)__builtin_popcount(nl);
	{
		int last = 31 - __builtin_clz(nl);
		uint32_t after = last == 31 ? 0 : lead >> (last + 1);

		*col = 1 + (uint64_t)__builtin_popcount(after);
	}
}

/* Error classes of the lookup method: one bit each. */
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

/* The three tables of the lookup method, one 16-byte lane each. */
static const signed char lane[3][16] = {
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
#endif

#ifdef HAVE_X86

__attribute__((target("avx2")))
static inline __m256i
prev_n(__m256i cur, __m256i prev, int n)
{
	__m256i t = _mm256_permute2x128_si256(prev, cur, 0x21);

	switch (n) {
	case 1:
		return _mm256_alignr_epi8(cur, t, 15);
	case 2:
		return _mm256_alignr_epi8(cur, t, 14);
	default:
		return _mm256_alignr_epi8(cur, t, 13);
	}
}

__attribute__((target("avx2")))
static size_t
plain_utf8_avx2(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	const __m256i t1h = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)lane[0]));
	const __m256i t1l = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)lane[1]));
	const __m256i t2h = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)lane[2]));
	const __m256i nib = _mm256_set1_epi8(0x0F);
	const __m256i lf = _mm256_set1_epi8('\n');
	const __m256i tab = _mm256_set1_epi8('\t');
	const __m256i c1f = _mm256_set1_epi8(0x1F);
	const __m256i ef = _mm256_set1_epi8((char)0xEF);
	const __m256i bf = _mm256_set1_epi8((char)0xBF);
	const __m256i be = _mm256_set1_epi8((char)0xBE);
	const __m256i m64 = _mm256_set1_epi8(-64);
	const __m256i e0 = _mm256_set1_epi8((char)(0xE0 - 0x80));
	const __m256i f0 = _mm256_set1_epi8((char)(0xF0 - 0x80));
	const __m256i x80 = _mm256_set1_epi8((char)0x80);
	const __m256i sp = _mm256_set1_epi8(0x20);
	__m256i prev = _mm256_setzero_si256();
	size_t i = 0;
	int ascii_prev = 1;

	while (i + 32 <= n) {
		__m256i v, ctl, err;
		uint32_t hi, nl, lead;

		/* Two blocks of plain ASCII at a time, the common case. */
		while (ascii_prev && i + 64 <= n) {
			__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
			__m256i b = _mm256_loadu_si256((const __m256i *)(p + i +
			    32));
			__m256i la = _mm256_cmpeq_epi8(a, lf);
			__m256i lb = _mm256_cmpeq_epi8(b, lf);
			/* Below 0x20 (signed: or 0x80 up), less TAB and LF. */
			__m256i ba = _mm256_andnot_si256(_mm256_or_si256(la,
			    _mm256_cmpeq_epi8(a, tab)), _mm256_cmpgt_epi8(sp, a));
			__m256i bb = _mm256_andnot_si256(_mm256_or_si256(lb,
			    _mm256_cmpeq_epi8(b, tab)), _mm256_cmpgt_epi8(sp, b));
			uint64_t m;

			if (!_mm256_testz_si256(_mm256_or_si256(ba, bb),
			    _mm256_or_si256(ba, bb)))
				break;
			m = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
			if (m == 0)
				*col += 64;
			else {
				*lines += (uint64_t)__builtin_popcountll(m);
				*col = 1 + (uint64_t)__builtin_clzll(m);
			}
			prev = b;
			i += 64;
		}
		if (i + 32 > n)
			break;
		v = _mm256_loadu_si256((const __m256i *)(p + i));
		hi = (uint32_t)_mm256_movemask_epi8(v);
		/* Controls other than TAB and LF (CR included) end the run. */
		ctl = _mm256_cmpeq_epi8(_mm256_max_epu8(v, c1f), c1f);
		ctl = _mm256_andnot_si256(_mm256_or_si256(
		    _mm256_cmpeq_epi8(v, lf), _mm256_cmpeq_epi8(v, tab)), ctl);
		nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lf));
		if (hi == 0 && ascii_prev) {
			if (!_mm256_testz_si256(ctl, ctl))
				break;
			count_block(nl, 0xFFFFFFFFu, lines, col);
			prev = v;
			i += 32;
			continue;
		}
		{
			__m256i p1 = prev_n(v, prev, 1);
			__m256i p2 = prev_n(v, prev, 2);
			__m256i p3 = prev_n(v, prev, 3);
			__m256i b1h = _mm256_shuffle_epi8(t1h,
			    _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib));
			__m256i b1l = _mm256_shuffle_epi8(t1l,
			    _mm256_and_si256(p1, nib));
			__m256i b2h = _mm256_shuffle_epi8(t2h,
			    _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
			__m256i sc = _mm256_and_si256(_mm256_and_si256(b1h, b1l),
			    b2h);
			/* Third and fourth bytes: must be continuations
			 * exactly where a 3- or 4-byte lead came before. */
			__m256i m3 = _mm256_subs_epu8(p2, e0);
			__m256i m4 = _mm256_subs_epu8(p3, f0);
			__m256i must = _mm256_and_si256(_mm256_or_si256(m3, m4),
			    x80);
			/* U+FFFE and U+FFFF: EF BF BE, EF BF BF. */
			__m256i nc = _mm256_and_si256(_mm256_and_si256(
			    _mm256_cmpeq_epi8(p2, ef), _mm256_cmpeq_epi8(p1, bf)),
			    _mm256_cmpeq_epi8(_mm256_max_epu8(v, be), v));

			err = _mm256_or_si256(_mm256_xor_si256(must, sc),
			    _mm256_or_si256(ctl, nc));
			if (!_mm256_testz_si256(err, err))
				break;
			lead = ~(uint32_t)_mm256_movemask_epi8(
			    _mm256_cmpgt_epi8(m64, v));
			count_block(nl, lead, lines, col);
		}
		ascii_prev = (p[i + 31] < 0x80 && p[i + 30] < 0x80 &&
		    p[i + 29] < 0x80);
		prev = v;
		i += 32;
	}
	return utf8_rest(p, n, i, lines, col);
}

__attribute__((target("avx2")))
static size_t
plain_utf16_avx2(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8,
	    11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13,
	    12, 15, 14);
	const __m256i c1f = _mm256_set1_epi16(0x1F);
	const __m256i lf = _mm256_set1_epi16('\n');
	const __m256i tab = _mm256_set1_epi16('\t');
	const __m256i f800 = _mm256_set1_epi16((short)0xF800);
	const __m256i d800 = _mm256_set1_epi16((short)0xD800);
	const __m256i fffe = _mm256_set1_epi16((short)0xFFFE);
	size_t i = 0;

	while (i + 32 <= n) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i eol, bad;
		uint32_t nl;

		if (be)
			u = _mm256_shuffle_epi8(u, swap);
		eol = _mm256_cmpeq_epi16(u, lf);
		bad = _mm256_cmpeq_epi16(_mm256_max_epu16(u, c1f), c1f);
		bad = _mm256_andnot_si256(_mm256_or_si256(eol,
		    _mm256_cmpeq_epi16(u, tab)), bad);
		bad = _mm256_or_si256(bad, _mm256_cmpeq_epi16(
		    _mm256_and_si256(u, f800), d800));
		bad = _mm256_or_si256(bad, _mm256_cmpeq_epi16(
		    _mm256_max_epu16(u, fffe), u));
		if (!_mm256_testz_si256(bad, bad))
			break;
		nl = (uint32_t)_mm256_movemask_epi8(eol);
		/* Each unit is a character; an LF unit sets two bits. */
		count_block(nl & 0x55555555u, 0x55555555u, lines, col);
		i += 32;
	}
	return i + plain_utf16_word(p + i, n - i, be, lines, col);
}

__attribute__((target("avx2")))
static size_t
plain_utf32_avx2(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	const __m256i swap = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10,
	    9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14,
	    13, 12);
	const __m256i lf = _mm256_set1_epi32('\n');
	size_t i = 0;

	while (i + 32 <= n) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i eol, bad;
		unsigned nl;

		if (be)
			u = _mm256_shuffle_epi8(u, swap);
		eol = _mm256_cmpeq_epi32(u, lf);
		/* Below 0x20 (as signed: so are values of 2^31 and up,
		 * which the next test takes anyway) but not TAB or LF. */
		bad = _mm256_andnot_si256(_mm256_or_si256(eol,
		    _mm256_cmpeq_epi32(u, _mm256_set1_epi32('\t'))),
		    _mm256_cmpgt_epi32(_mm256_set1_epi32(0x20), u));
		/* Past U+10FFFF, a surrogate, U+FFFE or U+FFFF. */
		bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(
		    _mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x10)));
		bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(_mm256_and_si256(u,
		    _mm256_set1_epi32((int)0xFFFFF800)),
		    _mm256_set1_epi32(0xD800)));
		bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(_mm256_or_si256(u,
		    _mm256_set1_epi32(1)), _mm256_set1_epi32(0xFFFF)));
		if (!_mm256_testz_si256(bad, bad))
			break;
		nl = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(eol));
		count_block(nl, 0xFFu, lines, col);
		i += 32;
	}
	return i + plain_utf32_word(p + i, n - i, be, lines, col);
}

/*
 * The same, 32 bytes at a time: each byte's bit is found with two table
 * lookups by its low nibble (one table for high nibbles 0-7, one for
 * 8-15, chosen by the byte's top bit) and a third that turns the high
 * nibble into a bit.
 */
__attribute__((target("avx2")))
static size_t
plain_sb_avx2(const unsigned char *p, size_t n, const struct plainmap *map,
    uint64_t *lines, uint64_t *col)
{
	const __m256i lo_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)map->lo));
	const __m256i hi_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)map->hi));
	const __m256i bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2,
	    4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16,
	    32, 64, -128);
	const __m256i x0f = _mm256_set1_epi8(0x0F);
	const __m256i lf = _mm256_set1_epi8('\n');
	size_t i = 0;

	while (i + 32 <= n) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i lo = _mm256_and_si256(v, x0f);
		__m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4),
		    _mm256_set1_epi8(7));
		__m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(lo_t, lo),
		    _mm256_shuffle_epi8(hi_t, lo), v);
		__m256i in = _mm256_and_si256(row, _mm256_shuffle_epi8(bit, hi));
		uint32_t bad = ~(uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpgt_epi8(_mm256_min_epu8(in, _mm256_set1_epi8(1)),
		    _mm256_setzero_si256()));
		uint32_t nl;

		if (bad != 0)
			break;
		nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lf));
		count_block(nl, 0xFFFFFFFFu, lines, col);
		i += 32;
	}
	return i + plain_sb_word(p + i, n - i, map, lines, col);
}

/* SSE2: 16 plain ASCII bytes at a time. */
static size_t
plain_utf8_sse2(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	const __m128i lf = _mm_set1_epi8('\n');
	const __m128i tab = _mm_set1_epi8('\t');
	const __m128i sp = _mm_set1_epi8(0x20);
	size_t i = 0;

	while (i + 16 <= n) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i bad = _mm_cmplt_epi8(v, sp);	/* < 0x20 or >= 0x80 */
		__m128i eol = _mm_cmpeq_epi8(v, lf);
		unsigned nl;

		bad = _mm_andnot_si128(_mm_or_si128(eol,
		    _mm_cmpeq_epi8(v, tab)), bad);
		if (_mm_movemask_epi8(bad) != 0)
			break;
		nl = (unsigned)_mm_movemask_epi8(eol);
		count_block(nl, 0xFFFFu, lines, col);
		i += 16;
	}
	return i + plain_utf8_word(p + i, n - i, lines, col);
}
#endif

#ifdef HAVE_NEON

/* The bit of each true byte lane of m (0xFF or 0) in a 16-bit mask. */
static inline uint32_t
neon_mask8(uint8x16_t m)
{
	static const uint8_t w[16] = {
		1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128
	};
	uint8x16_t t = vandq_u8(m, vld1q_u8(w));

	return (uint32_t)vaddv_u8(vget_low_u8(t)) |
	    (uint32_t)vaddv_u8(vget_high_u8(t)) << 8;
}

/* The same for the eight 16-bit lanes of m, in an 8-bit mask. */
static inline uint32_t
neon_mask16(uint16x8_t m)
{
	static const uint16_t w[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };

	return (uint32_t)vaddvq_u16(vandq_u16(m, vld1q_u16(w)));
}

/* Advanced SIMD, 16 bytes at a time: the lookup method of the AVX2 path,
 * with TBL for the table lookups and EXT for the bytes of the block
 * before. */
static size_t
plain_utf8_neon(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	const uint8x16_t t1h = vld1q_u8((const uint8_t *)lane[0]);
	const uint8x16_t t1l = vld1q_u8((const uint8_t *)lane[1]);
	const uint8x16_t t2h = vld1q_u8((const uint8_t *)lane[2]);
	const uint8x16_t lf = vdupq_n_u8('\n'), tab = vdupq_n_u8('\t');
	uint8x16_t prev = vdupq_n_u8(0);
	size_t i = 0;
	int ascii_prev = 1;

	while (i + 16 <= n) {
		uint8x16_t v = vld1q_u8(p + i);
		uint8x16_t eol = vceqq_u8(v, lf);
		/* Controls other than TAB and LF (CR included) end the run. */
		uint8x16_t ctl = vbicq_u8(vcltq_u8(v, vdupq_n_u8(0x20)),
		    vorrq_u8(eol, vceqq_u8(v, tab)));
		uint32_t nl = neon_mask8(eol), lead;

		if (ascii_prev && vmaxvq_u8(v) < 0x80) {
			if (vmaxvq_u8(ctl) != 0)
				break;
			count_block(nl, 0xFFFFu, lines, col);
			prev = v;
			i += 16;
			continue;
		}
		{
			uint8x16_t p1 = vextq_u8(prev, v, 15);
			uint8x16_t p2 = vextq_u8(prev, v, 14);
			uint8x16_t p3 = vextq_u8(prev, v, 13);
			uint8x16_t sc = vandq_u8(vandq_u8(
			    vqtbl1q_u8(t1h, vshrq_n_u8(p1, 4)),
			    vqtbl1q_u8(t1l, vandq_u8(p1, vdupq_n_u8(0x0F)))),
			    vqtbl1q_u8(t2h, vshrq_n_u8(v, 4)));
			/* Third and fourth bytes: must be continuations
			 * exactly where a 3- or 4-byte lead came before. */
			uint8x16_t must = vandq_u8(vorrq_u8(
			    vqsubq_u8(p2, vdupq_n_u8(0xE0 - 0x80)),
			    vqsubq_u8(p3, vdupq_n_u8(0xF0 - 0x80))),
			    vdupq_n_u8(0x80));
			/* U+FFFE and U+FFFF: EF BF BE, EF BF BF. */
			uint8x16_t nc = vandq_u8(vandq_u8(
			    vceqq_u8(p2, vdupq_n_u8(0xEF)),
			    vceqq_u8(p1, vdupq_n_u8(0xBF))),
			    vcgeq_u8(v, vdupq_n_u8(0xBE)));
			uint8x16_t err = vorrq_u8(veorq_u8(must, sc),
			    vorrq_u8(ctl, nc));

			if (vmaxvq_u8(err) != 0)
				break;
			/* Leads: all but the continuations 80-BF. */
			lead = ~neon_mask8(vcltq_s8(vreinterpretq_s8_u8(v),
			    vdupq_n_s8(-64))) & 0xFFFFu;
			count_block(nl, lead, lines, col);
		}
		ascii_prev = p[i + 15] < 0x80 && p[i + 14] < 0x80 &&
		    p[i + 13] < 0x80;
		prev = v;
		i += 16;
	}
	return utf8_rest(p, n, i, lines, col);
}

/* Advanced SIMD: eight UTF-16 units at a time. */
static size_t
plain_utf16_neon(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	const uint16x8_t lf = vdupq_n_u16('\n'), tab = vdupq_n_u16('\t');
	size_t i = 0;

	while (i + 16 <= n) {
		uint8x16_t b = vld1q_u8(p + i);
		uint16x8_t u, eol, bad;

		if (be)
			b = vrev16q_u8(b);
		u = vreinterpretq_u16_u8(b);
		eol = vceqq_u16(u, lf);
		bad = vbicq_u16(vcltq_u16(u, vdupq_n_u16(0x20)),
		    vorrq_u16(eol, vceqq_u16(u, tab)));
		bad = vorrq_u16(bad, vceqq_u16(vandq_u16(u,
		    vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800)));
		bad = vorrq_u16(bad, vcgeq_u16(u, vdupq_n_u16(0xFFFE)));
		if (vmaxvq_u16(bad) != 0)
			break;
		count_block(neon_mask16(eol), 0xFFu, lines, col);
		i += 16;
	}
	return i + plain_utf16_word(p + i, n - i, be, lines, col);
}
#endif

static size_t (*plain_utf8_fn)(const unsigned char *, size_t, uint64_t *,
    uint64_t *);
static size_t (*plain_utf16_fn)(const unsigned char *, size_t, int,
    uint64_t *, uint64_t *);
static size_t (*plain_utf32_fn)(const unsigned char *, size_t, int,
    uint64_t *, uint64_t *);
static size_t (*plain_sb_fn)(const unsigned char *, size_t,
    const struct plainmap *, uint64_t *, uint64_t *);

/*
 * Use the kernels of level l (simd/select.c): SIMD_AVX2, SIMD_SSE2 (UTF-8
 * only), SIMD_NEON (UTF-8 and UTF-16), SIMD_NONE (eight bytes at a time)
 * or SIMD_REF (UTF-8 a character at a time); the word-at-a-time code for
 * whatever level l has no kernel of its own.
 */
void
plain_select(enum simd l)
{
	plain_utf8_fn = l == SIMD_REF ? plain_utf8_ref : plain_utf8_word;
	plain_utf16_fn = plain_utf16_word;
	plain_utf32_fn = plain_utf32_word;
	plain_sb_fn = plain_sb_word;
#ifdef HAVE_X86
	if (l == SIMD_SSE2)
		plain_utf8_fn = plain_utf8_sse2;
	if (l == SIMD_AVX2) {
		plain_utf8_fn = plain_utf8_avx2;
		plain_utf16_fn = plain_utf16_avx2;
		plain_utf32_fn = plain_utf32_avx2;
		plain_sb_fn = plain_sb_avx2;
	}
#endif
#ifdef HAVE_NEON
	if (l == SIMD_NEON) {
		plain_utf8_fn = plain_utf8_neon;
		plain_utf16_fn = plain_utf16_neon;
	}
#endif
}

size_t
plain_utf8(const unsigned char *p, size_t n, uint64_t *lines, uint64_t *col)
{
	if (plain_utf8_fn == NULL)
		plain_select(simd_level());
	return plain_utf8_fn(p, n, lines, col);
}

/* The unit-at-a-time definition, for tests. */
size_t
plain_utf16_ref(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	return plain_utf16_word(p, n, be, lines, col);
}

size_t
plain_utf16(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	if (plain_utf16_fn == NULL)
		plain_select(simd_level());
	return plain_utf16_fn(p, n, be, lines, col);
}

size_t
plain_utf32(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	if (plain_utf32_fn == NULL)
		plain_select(simd_level());
	return plain_utf32_fn(p, n, be, lines, col);
}

/*
 * The prefix of single-byte text p[0..n) whose bytes are all in the map
 * (plain_sb_map: plain characters, one column each, LF a line end; CR is
 * left to the caller, which applies its line-end rule).
 */
size_t
plain_sb(const unsigned char *p, size_t n, const struct plainmap *map,
    uint64_t *lines, uint64_t *col)
{
	if (plain_sb_fn == NULL)
		plain_select(simd_level());
	return plain_sb_fn(p, n, map, lines, col);
}

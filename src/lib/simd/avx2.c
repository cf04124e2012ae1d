/*
 * Level avx2 (x86-64; each function compiled for AVX2, which is asked of
 * the processor at run time): every kernel 32 bytes at a time.
 *
 * UTF-8 validation follows the lookup method of Keiser and Lemire,
 * "Validating UTF-8 in less than one instruction per byte" (2021), with
 * the tables of common.c; single-byte text is looked up in the map of
 * plain_sb_map() by nibbles.
 *
 * Conversions between the Unicode forms, 16 or 32 bytes at a time:
 *  - UTF-8 to UTF-16/32: each byte is decoded as if it ended a character
 *    (its value, plus the previous bytes shifted in; the lead bytes'
 *    marker bits cancel out by subtraction), and the lanes of the bytes
 *    that do end one are packed by a table lookup.
 *  - UTF-16/32 to UTF-8: each code point is spread into a 32-bit lane as
 *    its one, two or three UTF-8 bytes, and a table indexed by the four
 *    lengths packs them.
 *  - Four-byte UTF-8 characters (rare) take the portable path for their
 *    block.
 * The tails shorter than a vector go to the portable kernels of word.c.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <cpuid.h>
#include <immintrin.h>

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

/* The constant vectors of plain_utf8_avx2 and its steps. */
struct u8k {
	__m256i		 t1h, t1l, t2h, nib, lf, cr, tab, c1f, ef, bf, be,
			 m64, e0, f0, x80, sp;
};

/*
 * Plain ASCII 64 bytes at a time from p[i] on, the common case: stop at
 * the first pair of blocks with a byte other than TAB, LF, CR and 20-7F.
 * Return where it stopped, with *prev the last block taken; *carry as
 * count_block_cr's.
 */
__attribute__((target("avx2"), always_inline))
static inline size_t
ascii_pairs(const unsigned char *p, size_t n, size_t i, const struct u8k *k,
    __m256i *prev, uint32_t *carry, uint64_t *lines, uint64_t *col)
{
	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i la = _mm256_cmpeq_epi8(a, k->lf);
		__m256i lb = _mm256_cmpeq_epi8(b, k->lf);
		/* Below 0x20 (signed: or 0x80 up), less TAB and LF. */
		__m256i ba = _mm256_andnot_si256(_mm256_or_si256(la,
		    _mm256_cmpeq_epi8(a, k->tab)), _mm256_cmpgt_epi8(k->sp, a));
		__m256i bb = _mm256_andnot_si256(_mm256_or_si256(lb,
		    _mm256_cmpeq_epi8(b, k->tab)), _mm256_cmpgt_epi8(k->sp, b));
		uint64_t m, r, pair;

		m = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
		if (_mm256_testz_si256(_mm256_or_si256(ba, bb),
		    _mm256_or_si256(ba, bb))) {
			if (*carry == 0) {
				/* No CR, as in LF text. */
				if (m == 0)
					*col += 64;
				else {
					*lines += (uint64_t)
					    __builtin_popcountll(m);
					*col = 1 + (uint64_t)__builtin_clzll(m);
				}
				*prev = b;
				i += 64;
				continue;
			}
			r = 0;
		} else {
			/* CR too (looked for only now, LF text has none) */
			__m256i ra = _mm256_cmpeq_epi8(a, k->cr);
			__m256i rb = _mm256_cmpeq_epi8(b, k->cr);

			ba = _mm256_andnot_si256(ra, ba);
			bb = _mm256_andnot_si256(rb, bb);
			if (!_mm256_testz_si256(_mm256_or_si256(ba, bb),
			    _mm256_or_si256(ba, bb)))
				break;
			r = (uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32;
		}
		/* As count_block_cr: the LF of a CR LF pair is neither a
		 * line end nor a column. */
		pair = m & (r << 1 | *carry);
		m = r | (m & ~pair);
		*carry = (uint32_t)(r >> 63);
		if (m == 0)
			*col += 64 - (uint64_t)__builtin_popcountll(pair);
		else {
			int z = __builtin_clzll(m);

			*lines += (uint64_t)__builtin_popcountll(m);
			*col = 1 + (uint64_t)z - (z == 0 ? 0 :
			    (uint64_t)__builtin_popcountll(pair >> (64 - z)));
		}
		*prev = b;
		i += 64;
	}
	return i;
}

/*
 * The lanes of block v (prev the block before it) that break UTF-8 or are
 * no XML Char: the lookup of Keiser and Lemire for the first two bytes of
 * each character, continuations where a 3- or 4-byte lead calls for
 * them, U+FFFE and U+FFFF, and the controls ctl.  Non-zero lanes are
 * errors.
 */
__attribute__((target("avx2"), always_inline))
static inline __m256i
u8_errors(__m256i v, __m256i prev, __m256i ctl, const struct u8k *k)
{
	__m256i p1 = prev_n(v, prev, 1);
	__m256i p2 = prev_n(v, prev, 2);
	__m256i p3 = prev_n(v, prev, 3);
	__m256i b1h = _mm256_shuffle_epi8(k->t1h,
	    _mm256_and_si256(_mm256_srli_epi16(p1, 4), k->nib));
	__m256i b1l = _mm256_shuffle_epi8(k->t1l, _mm256_and_si256(p1, k->nib));
	__m256i b2h = _mm256_shuffle_epi8(k->t2h,
	    _mm256_and_si256(_mm256_srli_epi16(v, 4), k->nib));
	__m256i sc = _mm256_and_si256(_mm256_and_si256(b1h, b1l), b2h);
	/* Third and fourth bytes: must be continuations exactly where a
	 * 3- or 4-byte lead came before. */
	__m256i m3 = _mm256_subs_epu8(p2, k->e0);
	__m256i m4 = _mm256_subs_epu8(p3, k->f0);
	__m256i must = _mm256_and_si256(_mm256_or_si256(m3, m4), k->x80);
	/* U+FFFE and U+FFFF: EF BF BE, EF BF BF. */
	__m256i nc = _mm256_and_si256(_mm256_and_si256(
	    _mm256_cmpeq_epi8(p2, k->ef), _mm256_cmpeq_epi8(p1, k->bf)),
	    _mm256_cmpeq_epi8(_mm256_max_epu8(v, k->be), v));

	return _mm256_or_si256(_mm256_xor_si256(must, sc),
	    _mm256_or_si256(ctl, nc));
}

/*
 * Whether block v has no errors but CR characters: bad its errors, ctl its
 * controls other than TAB and LF.  CR is looked for only when there are
 * such controls, which LF text has none of; its mask goes to *r.
 */
__attribute__((target("avx2"), always_inline))
static inline int
cr_only(__m256i v, __m256i bad, __m256i ctl, const struct u8k *k,
    uint32_t *r)
{
	__m256i err = _mm256_or_si256(bad, ctl), vcr;

	*r = 0;
	if (_mm256_testz_si256(err, err))
		return 1;
	vcr = _mm256_cmpeq_epi8(v, k->cr);
	err = _mm256_or_si256(bad, _mm256_andnot_si256(vcr, ctl));
	if (!_mm256_testz_si256(err, err))
		return 0;
	*r = (uint32_t)_mm256_movemask_epi8(vcr);
	return 1;
}

/* The characters of p[a..b): its bytes other than 80..BF. */
__attribute__((target("avx2,popcnt")))
static uint64_t
u8_nchars(const unsigned char *p, size_t a, size_t b)
{
	const __m256i m64 = _mm256_set1_epi8(-64);
	uint64_t c = 0;

	for (; a + 32 <= b; a += 32)
		c += 32 - (uint64_t)__builtin_popcount((uint32_t)
		    _mm256_movemask_epi8(_mm256_cmpgt_epi8(m64,
		    _mm256_loadu_si256((const __m256i *)(p + a)))));
	for (; a < b; a++)
		c += (p[a] & 0xC0) != 0x80;
	return c;
}

/*
 * Plain UTF-8 64 bytes at a time from p[i] on: the errors of both blocks
 * gathered and asked once, the line ends counted by their masks, and the
 * column left until the end, where the characters since the last line
 * end are counted (the LF of a CR LF pair is neither a line end nor a
 * column, XML 1.0 section 2.11).  Stop before the first pair of blocks
 * with a byte that is no plain character but CR; *prev, *carry and
 * *ascii as in plain_utf8_avx2.
 */
__attribute__((target("avx2,popcnt"), always_inline))
static inline size_t
u8_pairs(const unsigned char *p, size_t n, size_t i, const struct u8k *k,
    __m256i *prev, uint32_t *carry, int *ascii, uint64_t *lines,
    uint64_t *col)
{
	const size_t from = i;
	const uint32_t carry0 = *carry;
	size_t ls = i;		/* just past the last line end */
	uint64_t c0 = *col;	/* the column at ls */
	uint64_t cr = *carry, nl;

	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i la = _mm256_cmpeq_epi8(a, k->lf);
		__m256i lb = _mm256_cmpeq_epi8(b, k->lf);
		/* Controls other than TAB and LF. */
		__m256i ca = _mm256_andnot_si256(_mm256_or_si256(la,
		    _mm256_cmpeq_epi8(a, k->tab)), _mm256_cmpeq_epi8(
		    _mm256_max_epu8(a, k->c1f), k->c1f));
		__m256i cb = _mm256_andnot_si256(_mm256_or_si256(lb,
		    _mm256_cmpeq_epi8(b, k->tab)), _mm256_cmpeq_epi8(
		    _mm256_max_epu8(b, k->c1f), k->c1f));
		__m256i bad, err;
		uint64_t r = 0, pair, m;

		bad = _mm256_or_si256(u8_errors(a, *prev,
		    _mm256_setzero_si256(), k), u8_errors(b, a,
		    _mm256_setzero_si256(), k));
		err = _mm256_or_si256(bad, _mm256_or_si256(ca, cb));
		if (!_mm256_testz_si256(err, err)) {
			/* CR too, looked for only now */
			__m256i ra = _mm256_cmpeq_epi8(a, k->cr);
			__m256i rb = _mm256_cmpeq_epi8(b, k->cr);

			err = _mm256_or_si256(bad, _mm256_or_si256(
			    _mm256_andnot_si256(ra, ca),
			    _mm256_andnot_si256(rb, cb)));
			if (!_mm256_testz_si256(err, err))
				break;
			r = (uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32;
		}
		m = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
		if ((r | cr) != 0) {
			pair = m & (r << 1 | cr);
			m = r | (m & ~pair);
			cr = r >> 63;
		}
		*lines += (uint64_t)__builtin_popcountll(m);
		/* without a branch: line ends come at random */
		ls = m != 0 ? i + 64 - (size_t)__builtin_clzll(m | 1) : ls;
		c0 = m != 0 ? 1 : c0;
		/* Its last three bytes ASCII: no character goes on. */
		*ascii = ((uint32_t)_mm256_movemask_epi8(b) & 0xE0000000u) == 0;
		*prev = b;
		i += 64;
	}
	*carry = (uint32_t)cr;
	if (i > ls) {
		/* An LF at ls right after a CR takes no column. */
		nl = p[ls] == '\n' && (ls == from ? carry0 != 0 :
		    p[ls - 1] == '\r');
		c0 += u8_nchars(p, ls, i) - nl;
	}
	*col = c0;
	return i;
}

__attribute__((target("avx2")))
static size_t
plain_utf8_avx2(const unsigned char *p, size_t n, uint64_t *plines,
    uint64_t *pcol)
{
	/* The counters in registers: the stores through the pointers
	 * could alias the bytes. */
	uint64_t lines[1] = { *plines }, col[1] = { *pcol };
	struct u8k k;
	__m256i prev = _mm256_setzero_si256();
	size_t i = 0;
	uint32_t carry = 0;	/* the byte before block i is CR */
	int ascii_prev = 1;

	k.t1h = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)utf8_lane[0]));
	k.t1l = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)utf8_lane[1]));
	k.t2h = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)utf8_lane[2]));
	k.nib = _mm256_set1_epi8(0x0F);
	k.lf = _mm256_set1_epi8('\n');
	k.cr = _mm256_set1_epi8('\r');
	k.tab = _mm256_set1_epi8('\t');
	k.c1f = _mm256_set1_epi8(0x1F);
	k.ef = _mm256_set1_epi8((char)0xEF);
	k.bf = _mm256_set1_epi8((char)0xBF);
	k.be = _mm256_set1_epi8((char)0xBE);
	k.m64 = _mm256_set1_epi8(-64);
	k.e0 = _mm256_set1_epi8((char)(0xE0 - 0x80));
	k.f0 = _mm256_set1_epi8((char)(0xF0 - 0x80));
	k.x80 = _mm256_set1_epi8((char)0x80);
	k.sp = _mm256_set1_epi8(0x20);
	while (i + 32 <= n) {
		__m256i v, ctl;
		uint32_t hi, nl, r, lead;

		if (ascii_prev)
			i = ascii_pairs(p, n, i, &k, &prev, &carry, lines, col);
		/* Then 64 bytes at a time; a pair that fails is taken a
		 * block at a time below. */
		if (i + 64 <= n)
			i = u8_pairs(p, n, i, &k, &prev, &carry, &ascii_prev,
			    lines, col);
		if (i + 32 > n)
			break;
		v = _mm256_loadu_si256((const __m256i *)(p + i));
		hi = (uint32_t)_mm256_movemask_epi8(v);
		/* Controls other than TAB and LF end the run, but CR. */
		ctl = _mm256_cmpeq_epi8(_mm256_max_epu8(v, k.c1f), k.c1f);
		ctl = _mm256_andnot_si256(_mm256_or_si256(
		    _mm256_cmpeq_epi8(v, k.lf), _mm256_cmpeq_epi8(v, k.tab)), ctl);
		nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, k.lf));
		if (hi == 0 && ascii_prev) {
			if (!cr_only(v, _mm256_setzero_si256(), ctl, &k, &r))
				break;
			count_block_cr(nl, r, 0xFFFFFFFFu, 1, 31, &carry, lines,
			    col);
			prev = v;
			i += 32;
			continue;
		}
		if (!cr_only(v, u8_errors(v, prev, _mm256_setzero_si256(), &k),
		    ctl, &k, &r))
			break;
		lead = ~(uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpgt_epi8(k.m64, v));
		count_block_cr(nl, r, lead, 1, 31, &carry, lines, col);
		/* Its last three bytes ASCII: no character goes on. */
		ascii_prev = (hi & 0xE0000000u) == 0;
		prev = v;
		i += 32;
	}
	*plines = *lines;
	*pcol = *col;
	return plain_utf8_rest(p, n, i, plines, pcol);
}

/* The constant vectors of plain_utf16_avx2. */
struct u16k {
	__m256i		 swap, c1f, lf, cr, tab, f800, fc00, d800, fffe;
};

/* The units of block u (in the machine's order) that are no plain
 * character, surrogates aside: controls but TAB and those of eol (LF, or
 * LF and CR), U+FFFE and U+FFFF. */
__attribute__((target("avx2"), always_inline))
static inline __m256i
u16_bad_ns(__m256i u, __m256i eol, const struct u16k *k)
{
	__m256i bad;

	bad = _mm256_cmpeq_epi16(_mm256_max_epu16(u, k->c1f), k->c1f);
	bad = _mm256_andnot_si256(_mm256_or_si256(eol,
	    _mm256_cmpeq_epi16(u, k->tab)), bad);
	return _mm256_or_si256(bad, _mm256_cmpeq_epi16(
	    _mm256_max_epu16(u, k->fffe), u));
}

/* The same, and every surrogate. */
__attribute__((target("avx2"), always_inline))
static inline __m256i
u16_bad(__m256i u, __m256i eol, const struct u16k *k)
{
	return _mm256_or_si256(u16_bad_ns(u, eol, k), _mm256_cmpeq_epi16(
	    _mm256_and_si256(u, k->f800), k->d800));
}

/*
 * Plain UTF-16 64 bytes at a time from p[i] on, as u8_pairs: errors asked
 * once a step, line ends by their masks, and the column (a unit is a
 * character, but the low half of a pair) only at the end.  A surrogate
 * pair is one plain character (RFC 2781 section 2.2): a high half with a
 * low half after it, the two maybe in two steps.  Stop before the first
 * pair of blocks with a unit that is no plain character but CR, or with
 * a lone half; and before a high half whose low half is not taken.
 */
__attribute__((target("avx2,popcnt"), always_inline))
static inline size_t
u16_pairs(const unsigned char *p, size_t n, size_t i, int be,
    const struct u16k *k, uint32_t *carry, uint64_t *lines, uint64_t *col)
{
	const uint64_t ev = 0x5555555555555555ull;	/* a bit a unit */
	const size_t from = i;
	const uint32_t carry0 = *carry;
	size_t ls = i;		/* just past the last line end */
	uint64_t c0 = *col;	/* the column at ls */
	uint64_t cr = *carry;
	uint64_t hc = 0;	/* the step before ended with a high half */
	uint64_t nlow = 0;	/* low halves from ls to i */
	int lf;

	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i ea, eb, ra, rb, ba, bb, sa, sb;
		uint64_t r, pair, m, lo = 0;

		if (be) {
			a = _mm256_shuffle_epi8(a, k->swap);
			b = _mm256_shuffle_epi8(b, k->swap);
		}
		ea = _mm256_cmpeq_epi16(a, k->lf);
		eb = _mm256_cmpeq_epi16(b, k->lf);
		ra = _mm256_cmpeq_epi16(a, k->cr);
		rb = _mm256_cmpeq_epi16(b, k->cr);
		/* CR found at once: CR LF text has one in most steps */
		ba = u16_bad_ns(a, _mm256_or_si256(ea, ra), k);
		bb = u16_bad_ns(b, _mm256_or_si256(eb, rb), k);
		if (!_mm256_testz_si256(_mm256_or_si256(ba, bb),
		    _mm256_or_si256(ba, bb)))
			break;
		sa = _mm256_cmpeq_epi16(_mm256_and_si256(a, k->f800), k->d800);
		sb = _mm256_cmpeq_epi16(_mm256_and_si256(b, k->f800), k->d800);
		if (hc != 0 || !_mm256_testz_si256(_mm256_or_si256(sa, sb),
		    _mm256_or_si256(sa, sb))) {
			/* Every low half right after a high one. */
			uint64_t s = ((uint64_t)(uint32_t)_mm256_movemask_epi8(
			    sa) | (uint64_t)(uint32_t)_mm256_movemask_epi8(sb) <<
			    32) & ev;
			uint64_t h = ((uint64_t)(uint32_t)_mm256_movemask_epi8(
			    _mm256_cmpeq_epi16(_mm256_and_si256(a, k->fc00),
			    k->d800)) | (uint64_t)(uint32_t)_mm256_movemask_epi8(
			    _mm256_cmpeq_epi16(_mm256_and_si256(b, k->fc00),
			    k->d800)) << 32) & ev;

			lo = s & ~h;
			if (lo != (h << 2 | hc))
				break;
			hc = h >> 62;
		}
		r = ((uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32) & ev;
		m = ((uint64_t)(uint32_t)_mm256_movemask_epi8(ea) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(eb) << 32) & ev;
		if ((r | cr) != 0) {
			pair = m & (r << 2 | cr);
			m = r | (m & ~pair);
			cr = r >> 62;
		}
		if (m != 0) {
			*lines += (uint64_t)__builtin_popcountll(m);
			/* the unit after the last line end */
			ls = i + 65 - (size_t)__builtin_clzll(m);
			c0 = 1;
			nlow = 0;
			if (__builtin_clzll(m) > 1)
				lo &= ~0ull << (64 - __builtin_clzll(m));
			else
				lo = 0;
		}
		nlow += (uint64_t)__builtin_popcountll(lo);
		i += 64;
	}
	/* A high half whose low half is not taken is not taken either (it
	 * is no line end, so ls is before it). */
	if (hc != 0)
		i -= 2;
	*carry = (uint32_t)cr;
	if (i > ls) {
		/* An LF at ls right after a CR takes no column. */
		lf = p[ls + !be] == 0 && p[ls + be] == '\n' && (ls == from ?
		    carry0 != 0 : p[ls - 2 + !be] == 0 && p[ls - 2 + be] == '\r');
		c0 += (i - ls) / 2 - nlow - (uint64_t)lf;
	}
	*col = c0;
	return i;
}

__attribute__((target("avx2")))
static size_t
plain_utf16_avx2(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	struct u16k k;
	size_t i = 0;
	uint32_t carry = 0;	/* the unit before block i is CR */

	k.swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13,
	    12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
	k.c1f = _mm256_set1_epi16(0x1F);
	k.lf = _mm256_set1_epi16('\n');
	k.cr = _mm256_set1_epi16('\r');
	k.tab = _mm256_set1_epi16('\t');
	k.f800 = _mm256_set1_epi16((short)0xF800);
	k.fc00 = _mm256_set1_epi16((short)0xFC00);
	k.d800 = _mm256_set1_epi16((short)0xD800);
	k.fffe = _mm256_set1_epi16((short)0xFFFE);
	/* 64 bytes a step; then, and around an error, a block at a time */
	if (n >= 64) {
		uint64_t l = *lines, c = *col;

		i = u16_pairs(p, n, 0, be, &k, &carry, &l, &c);
		*lines = l;
		*col = c;
	}
	while (i + 32 <= n) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i eol, ucr, bad;
		uint32_t nl, r;

		if (be)
			u = _mm256_shuffle_epi8(u, k.swap);
		eol = _mm256_cmpeq_epi16(u, k.lf);
		bad = u16_bad(u, eol, &k);
		r = 0;
		if (!_mm256_testz_si256(bad, bad)) {
			/* CR too, looked for only now */
			ucr = _mm256_cmpeq_epi16(u, k.cr);
			bad = _mm256_andnot_si256(ucr, bad);
			if (!_mm256_testz_si256(bad, bad))
				break;
			r = (uint32_t)_mm256_movemask_epi8(ucr);
		}
		nl = (uint32_t)_mm256_movemask_epi8(eol);
		/* Each unit is a character; an LF or CR unit sets two
		 * bits. */
		count_block_cr(nl & 0x55555555u, r & 0x55555555u, 0x55555555u,
		    2, 30, &carry, lines, col);
		i += 32;
	}
	/* The rest takes pairs too (word.c). */
	return plain_utf16_rest(p, n, i, be, lines, col);
}

__attribute__((target("avx2")))
size_t
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
	const __m256i cr = _mm256_set1_epi8('\r');
	const __m256i cr_ok = _mm256_set1_epi8(map->cr ? -1 : 0);
	uint32_t carry = 0;	/* the byte before block i is CR */
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
		uint32_t nl, r = 0;

		/* CR, where plain, is taken with its line-end rule. */
		if (bad != 0) {
			r = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
			    _mm256_cmpeq_epi8(v, cr), cr_ok));
			if ((bad & ~r) != 0)
				break;
		}
		nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lf));
		count_block_cr(nl, r, 0xFFFFFFFFu, 1, 31, &carry, lines, col);
		i += 32;
	}
	/* After a CR the caller looks at the next byte. */
	if (carry)
		return i;
	return i + plain_sb_word(p + i, n - i, map, lines, col);
}

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
/* pack2[m]: the shuffle that keeps the first byte of each of eight 16-bit
 * lanes and the second of those named by the bits of m. */
static unsigned char pack2[256][16];

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
		memset(pack2[m], 0x80, 16);
		for (j = 0, k = 0; j < 8; j++) {
			pack2[m][k++] = (unsigned char)(2 * j);
			if (m & (1u << j))
				pack2[m][k++] = (unsigned char)(2 * j + 1);
		}
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
AVX2 static size_t
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
AVX2 static size_t
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
 * characters end (b3: the bytes three places on).  Each such character
 * is two units: its high surrogate is written at its third byte, its low
 * one at its fourth (RFC 2781 section 2.1), so each byte still decides
 * alone what it writes; the rest is as in u8_wide_avx2().
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
	ends = (~(unsigned)_mm_movemask_epi8(cont) >> 1) & 0x7FFF;
	if (i + 16 == n || (p[i + 16] & 0xC0) != 0x80)
		ends |= 0x8000;
	ends |= (unsigned)_mm_movemask_epi8(t3);
	return put_ends(v, ends, 0, be, o);
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
		/* The leads of the characters that begin in the block and,
		 * in UTF-16 (where u8_surr_block writes four-byte ones),
		 * of those that end in it: from three bytes before it. */
		lead = b;
		if (!wide && i >= 3)
			lead = _mm_max_epu8(b, b3 = _mm_loadu_si128(
			    (const __m128i *)(p + i - 3)));
		if (!_mm_testz_si128(_mm_subs_epu8(lead,
		    _mm_set1_epi8((char)0xEF)), _mm_set1_epi8(-1))) {
			size_t stop = i + 16;

			if (!wide && i >= 3) {
				o = u8_surr_block(p, n, i, b3, be, o);
				i += 16;
				continue;
			}
			/* A four-byte character begins here: a character at a
			 * time, from the first that ends in the block to the
			 * first that begins after it. */
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
		/* A byte ends a character when the next does not continue
		 * it; the byte after the block decides for the last. */
		ends = (~(unsigned)_mm_movemask_epi8(cont) >> 1) & 0x7FFF;
		if (i + 16 == n || (p[i + 16] & 0xC0) != 0x80)
			ends |= 0x8000;
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

/*
 * AVX2 usable: CPUID leaf 7 says AVX2 (EBX bit 5), leaf 1 says AVX and
 * that the system saves the vector state (ECX bits 28 and 27), and XCR0
 * has the XMM and YMM states (bits 1 and 2).  Asked here rather than by
 * __builtin_cpu_supports(), whose initialisation asks many more leaves:
 * each CPUID leaves a virtual machine, which made it a tenth of the time
 * a small file took.
 */
__attribute__((target("xsave")))
int
avx2_usable(void)
{
	static atomic_int known = -1;
	unsigned a, b, c, d;

	if (known >= 0)
		return known;
	/* AVX implies XSAVE and its leaf 13, so leaf 7 exists. */
	__cpuid(1, a, b, c, d);
	known = 0;
	if ((c & (1u << 27 | 1u << 28)) != (1u << 27 | 1u << 28) ||
	    (_xgetbv(0) & 6) != 6)
		return known;
	__cpuid_count(7, 0, a, b, c, d);
	known = (b & 1u << 5) != 0;
	return known;
}

/* Build the packing tables once, whichever thread asks first. */
void
avx2_init(void)
{
	static pthread_once_t built = PTHREAD_ONCE_INIT;

	pthread_once(&built, build_tables);
}

const struct kernels kernels_avx2 = {
	.name = "avx2",
	.usable = avx2_usable,
	.init = avx2_init,
	.plain_utf8 = plain_utf8_avx2,
	.plain_utf16 = plain_utf16_avx2,
	.plain_utf32 = plain_utf32_avx2,
	.plain_sb = plain_sb_avx2,
	.conv = conv_avx2,
	.find32 = find32_avx2,
	.late_find = late_find_avx2,
	.moj_skip = moj_skip_avx2,
	.moj_skipw = moj_skipw_avx2,
	.dense_utf8 = dense_utf8_avx2,
	.dense_utf16 = dense_utf16_avx2,
	.dense_utf32 = dense_utf32_avx2,
};
#else
const struct kernels kernels_avx2 = { .name = "avx2" };
#endif

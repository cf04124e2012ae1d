/*
 * Level avx2, validation: plain characters of UTF-8 and single-byte text
 * counted 32 or 64 bytes at a time (avx2.c has the level's table; UTF-16
 * and UTF-32 are plainw_avx2.c's).
 *
 * UTF-8 validation follows the lookup method of Keiser and Lemire,
 * "Validating UTF-8 in less than one instruction per byte" (2021), with
 * the tables of common.c; single-byte text is looked up in the map of
 * plain_sb_map() by nibbles.  The tails shorter than a vector go to the
 * portable kernels of word.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "avx2_int.h"

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

/* Just past the last CR or LF of p[from..i) (i - from a multiple of 32),
 * or from when there is none: searched back from i, 32 bytes at a time,
 * once a run. */
AVX2 static size_t
u8_last_eol(const unsigned char *p, size_t from, size_t i,
    const struct u8k *k)
{
	for (; i > from; i -= 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + i - 32));
		uint32_t e = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_cmpeq_epi8(v, k->lf), _mm256_cmpeq_epi8(v, k->cr)));

		if (e != 0)
			return i - (size_t)__builtin_clz(e);
	}
	return from;
}

/*
 * Plain ASCII 64 bytes at a time from p[i] on, the common case: stop at
 * the first pair of blocks with a byte other than TAB, LF, CR and 20-7F.
 * Return where it stopped, with *prev the last block taken; *carry as
 * count_block_cr's.  The line ends are counted by their masks and the
 * column found once at the end, after the last line end, as u8_pairs
 * does.  cr: the text has shown a CR (CR LF lines), and it is sought in
 * every block and paired with LF without a branch, as u8_pairs's ctab;
 * without it, the first block with a CR ends the run with *seen set.
 */
__attribute__((target("avx2,popcnt"), always_inline))
static inline size_t
ascii_pairs(const unsigned char *p, size_t n, size_t i, const struct u8k *k,
    __m256i *prev, uint32_t *carry, uint64_t *lines, uint64_t *col,
    const int cr, int *seen)
{
	const size_t from = i;
	uint64_t c = *carry;
	size_t ls;
	int rest = 0;

	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i la = _mm256_cmpeq_epi8(a, k->lf);
		__m256i lb = _mm256_cmpeq_epi8(b, k->lf);
		__m256i oka = _mm256_or_si256(la, _mm256_cmpeq_epi8(a, k->tab));
		__m256i okb = _mm256_or_si256(lb, _mm256_cmpeq_epi8(b, k->tab));
		__m256i ra, rb, ba, bb;
		uint64_t m, r = 0;

		if (cr) {
			ra = _mm256_cmpeq_epi8(a, k->cr);
			rb = _mm256_cmpeq_epi8(b, k->cr);
			oka = _mm256_or_si256(oka, ra);
			okb = _mm256_or_si256(okb, rb);
		}
		/* Below 0x20 (signed: or 0x80 up), less TAB and LF (and
		 * with cr CR). */
		ba = _mm256_andnot_si256(oka, _mm256_cmpgt_epi8(k->sp, a));
		bb = _mm256_andnot_si256(okb, _mm256_cmpgt_epi8(k->sp, b));
		if (!_mm256_testz_si256(_mm256_or_si256(ba, bb),
		    _mm256_or_si256(ba, bb))) {
			if (cr)
				break;
			/* CR too (looked for only now, LF text has none) */
			ra = _mm256_cmpeq_epi8(a, k->cr);
			rb = _mm256_cmpeq_epi8(b, k->cr);
			ba = _mm256_andnot_si256(ra, ba);
			bb = _mm256_andnot_si256(rb, bb);
			if (!_mm256_testz_si256(_mm256_or_si256(ba, bb),
			    _mm256_or_si256(ba, bb)))
				break;
			r = (uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32;
			rest = 1;
		}
		m = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
		if (cr)
			r = (uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32;
		if (cr || (r | c) != 0)
			m = crlf_ends(m, r, 1, &c);
		*lines += (uint64_t)__builtin_popcountll(m);
		i += 64;
		if (!cr && rest)
			break;
	}
	if (rest)
		*seen = 1;
	if (i == from)
		return i;
	*prev = _mm256_loadu_si256((const __m256i *)(p + i - 32));
	*carry = (uint32_t)c;
	/* ASCII: a column a byte */
	if ((ls = u8_last_eol(p, from, i, k)) > from)
		*col = 1 + (i - ls);
	else
		*col += i - from;
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
 * The lookup of Keiser and Lemire for the block of 32 bytes at q (which
 * has three bytes of its run before it): the bytes one, two and three
 * places back loaded again from memory, not shifted in (loads are cheap;
 * the shuffle units do the lookups).  Non-zero lanes break UTF-8; *v2 is
 * the bytes two places back, for the look at U+FFFE and U+FFFF.
 */
AVX2 __attribute__((always_inline)) static inline __m256i
u8_lookup(__m256i v, const unsigned char *q, const struct u8k *k,
    __m256i *v2)
{
	__m256i p1 = _mm256_loadu_si256((const __m256i *)(q - 1));
	__m256i p2 = _mm256_loadu_si256((const __m256i *)(q - 2));
	__m256i p3 = _mm256_loadu_si256((const __m256i *)(q - 3));
	__m256i sc = _mm256_and_si256(_mm256_and_si256(
	    _mm256_shuffle_epi8(k->t1h, _mm256_and_si256(
	    _mm256_srli_epi16(p1, 4), k->nib)),
	    _mm256_shuffle_epi8(k->t1l, _mm256_and_si256(p1, k->nib))),
	    _mm256_shuffle_epi8(k->t2h, _mm256_and_si256(
	    _mm256_srli_epi16(v, 4), k->nib)));
	__m256i must = _mm256_and_si256(_mm256_or_si256(
	    _mm256_subs_epu8(p2, k->e0), _mm256_subs_epu8(p3, k->f0)), k->x80);

	*v2 = p2;
	return _mm256_xor_si256(must, sc);
}

/*
 * Whether block v at q (after u8_lookup; v2 its bytes two places back)
 * holds nothing but plain characters and CR (whose mask goes to *r): no
 * control but TAB, LF and CR, no U+FFFE or U+FFFF (EF BF BE, EF BF BF).
 * Asked only of the blocks where such bytes may be.
 */
AVX2 __attribute__((always_inline)) static inline int
u8_rare_ok(__m256i v, const unsigned char *q, __m256i v2, const struct u8k *k,
    uint32_t *r)
{
	__m256i vcr = _mm256_cmpeq_epi8(v, k->cr);
	__m256i ctl = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(
	    _mm256_cmpeq_epi8(v, k->lf), _mm256_cmpeq_epi8(v, k->tab)), vcr),
	    _mm256_cmpeq_epi8(_mm256_min_epu8(v, k->c1f), v));
	__m256i nc = _mm256_and_si256(_mm256_and_si256(
	    _mm256_cmpeq_epi8(v2, k->ef), _mm256_cmpeq_epi8(
	    _mm256_loadu_si256((const __m256i *)(q - 1)), k->bf)),
	    _mm256_cmpeq_epi8(_mm256_max_epu8(v, k->be), v));

	ctl = _mm256_or_si256(ctl, nc);
	*r = (uint32_t)_mm256_movemask_epi8(vcr);
	return _mm256_testz_si256(ctl, ctl);
}

/*
 * Plain UTF-8 64 bytes at a time from p[i] on (i >= 32): the errors of
 * both blocks gathered and asked once, with the bytes that are rare in
 * text (controls, CR and TAB among them, and EF, the lead of U+FFFE and
 * U+FFFF) looked at closely only in the blocks that have them; the line
 * ends counted by their masks, and the column left until the end, where
 * the characters since the last line end (found by a search back) are
 * counted (the LF of a CR LF pair is neither a line end nor a column, XML
 * 1.0 section 2.11).  Stop before the first pair of blocks with a byte
 * that is no plain character but CR; *carry and *ascii as in
 * plain_utf8_avx2.
 *
 * ctab: the text has CR or TAB (CR LF lines, indentation by TAB), in so
 * many blocks that the branch to the close look would go one way or the
 * other at random: both are sought in every block and CR taken without a
 * branch.  Without it, the first block that has either ends the run, with
 * *seen set, for the caller to go on with ctab.
 */
__attribute__((target("avx2,popcnt"), always_inline))
static inline size_t
u8_pairs(const unsigned char *p, size_t n, size_t i, const struct u8k *k,
    uint32_t *carry, int *ascii, uint64_t *lines, uint64_t *col,
    const int ctab, int *seen)
{
	const size_t from = i;
	uint64_t cr = *carry;
	size_t ls;
	int rest = 0;

	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i a2, b2, la, lb, ra, rb, bad, rare, oka, okb;
		uint64_t r = 0, m;

		bad = _mm256_or_si256(u8_lookup(a, p + i, k, &a2),
		    u8_lookup(b, p + i + 32, k, &b2));
		la = _mm256_cmpeq_epi8(a, k->lf);
		lb = _mm256_cmpeq_epi8(b, k->lf);
		oka = la;
		okb = lb;
		if (ctab) {
			ra = _mm256_cmpeq_epi8(a, k->cr);
			rb = _mm256_cmpeq_epi8(b, k->cr);
			oka = _mm256_or_si256(_mm256_or_si256(la, ra),
			    _mm256_cmpeq_epi8(a, k->tab));
			okb = _mm256_or_si256(_mm256_or_si256(lb, rb),
			    _mm256_cmpeq_epi8(b, k->tab));
		}
		/* 00..1F but LF (and with ctab CR and TAB), and EF two
		 * bytes back */
		rare = _mm256_or_si256(_mm256_or_si256(_mm256_andnot_si256(oka,
		    _mm256_cmpeq_epi8(_mm256_min_epu8(a, k->c1f), a)),
		    _mm256_andnot_si256(okb, _mm256_cmpeq_epi8(
		    _mm256_min_epu8(b, k->c1f), b))), _mm256_or_si256(
		    _mm256_cmpeq_epi8(a2, k->ef), _mm256_cmpeq_epi8(b2, k->ef)));
		if (!_mm256_testz_si256(_mm256_or_si256(bad, rare),
		    _mm256_or_si256(bad, rare))) {
			uint32_t ua, ub;

			if (!_mm256_testz_si256(bad, bad) ||
			    !u8_rare_ok(a, p + i, a2, k, &ua) ||
			    !u8_rare_ok(b, p + i + 32, b2, k, &ub))
				break;
			r = (uint64_t)ua | (uint64_t)ub << 32;
			/* on without a branch to here, next run */
			rest = 1;
		}
		m = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
		if (ctab)
			r = (uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32;
		if (ctab || (r | cr) != 0)
			m = crlf_ends(m, r, 1, &cr);
		*lines += (uint64_t)__builtin_popcountll(m);
		i += 64;
		if (!ctab && rest)
			break;
	}
	if (rest)
		*seen = 1;
	if (i == from)
		return i;
	/* Its last three bytes ASCII: no character goes on. */
	*ascii = (p[i - 1] | p[i - 2] | p[i - 3]) < 0x80;
	*carry = (uint32_t)cr;
	/* The column: after the last CR or LF (of a CR LF pair, the LF,
	 * which takes none, as the CR before it ended the line), else on
	 * from where it was. */
	if ((ls = u8_last_eol(p, from, i, k)) > from)
		*col = 1 + u8_nchars(p, ls, i);
	else
		*col += u8_nchars(p, from, i);
	return i;
}

__attribute__((target("avx2")))
size_t
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
	int ctab = 0;		/* CR or TAB seen: u8_pairs's */
	int crs = 0;		/* CR seen: ascii_pairs's */

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
			i = crs ? ascii_pairs(p, n, i, &k, &prev, &carry, lines,
			    col, 1, &crs) : ascii_pairs(p, n, i, &k, &prev, &carry,
			    lines, col, 0, &crs);
		/* Then 64 bytes at a time; a pair that fails is taken a
		 * block at a time below. */
		if (i + 64 <= n && i >= 32)
			i = ctab ? u8_pairs(p, n, i, &k, &carry, &ascii_prev,
			    lines, col, 1, &ctab) : u8_pairs(p, n, i, &k, &carry,
			    &ascii_prev, lines, col, 0, &ctab);
		if (i + 32 > n)
			break;
		/* the block before, whichever loop took it */
		if (i >= 32)
			prev = _mm256_loadu_si256((const __m256i *)(p + i - 32));
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

/*
 * The same, 32 bytes at a time: each byte's bit is found with two table
 * lookups by its low nibble (one table for high nibbles 0-7, one for
 * 8-15, chosen by the byte's top bit) and a third that turns the high
 * nibble into a bit.
 */
__attribute__((target("avx2")))
size_t
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
#endif

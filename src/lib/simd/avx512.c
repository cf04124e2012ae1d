/*
 * Level avx512 (x86-64; compiled per function for AVX-512 F, BW, VL and
 * VBMI, which are asked of the processor at run time): the validation of
 * UTF-8, UTF-16 and single-byte text, the count of error-dense UTF-8 and
 * the one pass of the searches of UTF-8 (scan_avx512.c), 64 bytes at a
 * time, with the byte masks in mask registers; every other kernel of the
 * level is avx2's.
 *
 * The UTF-8 check is the lookup method of Keiser and Lemire, as avx2.c has
 * it, on one 512-bit vector: the errors of each block are asked once, with
 * its controls (all but TAB, LF and CR) and U+FFFE/U+FFFF, and the line
 * ends are counted from the masks of LF and CR.  The column is left until
 * the end of the run, where the characters since the last line end are
 * counted (XML 1.0 section 2.11: a CR LF pair is one line end).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <cpuid.h>
#include <immintrin.h>

#define AVX512	"avx512f,avx512bw,avx512vl,avx512vbmi,popcnt,bmi,bmi2"

/* ASCII blocks in a row after which plain_utf8_avx512 looks for more
 * with the ASCII check alone. */
#define ASCII_RUN	4

/* The bytes of v shifted up by n (1 to 3), prev's last ones below. */
__attribute__((target(AVX512), always_inline))
static inline __m512i
prev_n512(__m512i v, __m512i prev, int n)
{
	/* t: prev's last 16 bytes, then v's first 48 */
	__m512i t = _mm512_alignr_epi64(v, prev, 6);

	switch (n) {
	case 1:
		return _mm512_alignr_epi8(v, t, 15);
	case 2:
		return _mm512_alignr_epi8(v, t, 14);
	default:
		return _mm512_alignr_epi8(v, t, 13);
	}
}

/*
 * The line ends of a block, from the masks of its LF (m) and CR (r)
 * characters, a bit each, top that of the last, counted in *lines: the
 * LF of a CR LF pair is neither a line end nor a column (XML 1.0 section
 * 2.11).  *carry: the character before is a CR, set to whether the
 * block's last is.  Return their mask.
 */
__attribute__((always_inline))
static inline uint64_t
ends_of(uint64_t m, uint64_t r, int top, uint64_t *carry, uint64_t *lines)
{
	uint64_t pair = m & (r << 1 | *carry), e = r | (m & ~pair);

	*carry = r >> top;
	*lines += (uint64_t)__builtin_popcountll(e);
	return e;
}

/* Just past the last line end of e, the mask of the line ends of the
 * block at i. */
#define PAST_LAST(i, e)	((i) + 64 - (size_t)__builtin_clzll(e))

/*
 * After a block whose line ends are e: *ls (just past the last line end)
 * becomes past and *c0 (the column there) 1 when e has one.  Without a
 * branch: line ends come at random, and mispredict more than the wait
 * for ls costs.
 */
__attribute__((always_inline))
static inline void
last_end(uint64_t e, size_t past, size_t *ls, uint64_t *c0)
{
	uint64_t any = -(uint64_t)(e != 0);	/* all ones when it has one */

	*ls = (past & any) | (*ls & ~any);
	*c0 = (1 & any) | (*c0 & ~any);
}

/* The characters of p[a..b): its bytes other than 80..BF. */
__attribute__((target(AVX512)))
static uint64_t
nchars512(const unsigned char *p, size_t a, size_t b)
{
	const __m512i m64 = _mm512_set1_epi8(-64);
	uint64_t c = 0;

	for (; a + 64 <= b; a += 64)
		c += (uint64_t)__builtin_popcountll(_mm512_cmpge_epi8_mask(
		    _mm512_loadu_si512((const void *)(p + a)), m64));
	for (; a < b; a++)
		c += (p[a] & 0xC0) != 0x80;
	return c;
}

/* The constant vectors of plain_utf8_avx512. */
struct u8k512 {
	__m512i		 t1h, t1l, t2h, ctltab, lf, cr, ef, bf, be, e0, f0,
			 x80, zero;
};

/*
 * The bytes of block v (p1, p2, p3: the bytes one, two and three before
 * each) that break UTF-8 or are no XML Char, as a mask: the lookup of
 * Keiser and Lemire for the first two bytes of each character,
 * continuations where a 3- or 4-byte lead calls for them, U+FFFE and
 * U+FFFF, and the controls but TAB, LF and CR.
 */
__attribute__((target(AVX512), always_inline))
static inline __mmask64
u8_bad512(__m512i v, __m512i p1, __m512i p2, __m512i p3,
    const struct u8k512 *k)
{
	__m512i b1h = _mm512_permutexvar_epi8(_mm512_srli_epi16(p1, 4),
	    k->t1h);
	__m512i b1l = _mm512_permutexvar_epi8(p1, k->t1l);
	__m512i b2h = _mm512_permutexvar_epi8(_mm512_srli_epi16(v, 4),
	    k->t2h);
	/* Third and fourth bytes: continuations exactly where a 3- or
	 * 4-byte lead came before ((m3 | m4) & 0x80). */
	__m512i must = _mm512_ternarylogic_epi32(_mm512_subs_epu8(p2, k->e0),
	    _mm512_subs_epu8(p3, k->f0), k->x80, 0xA8);
	/* the controls: bit 7 of the table's entry by the low seven bits
	 * (none for 40..7F), for bytes below 0x80 */
	__m512i ctl = _mm512_permutex2var_epi8(k->ctltab, v, k->zero);
	/* b1h & b1l & b2h, xored with must */
	__m512i err = _mm512_ternarylogic_epi32(_mm512_and_si512(b1h, b1l),
	    b2h, must, 0x6A);

	/* err | (ctl & ~v) */
	err = _mm512_ternarylogic_epi32(err, ctl, v, 0xF4);
	/* U+FFFE and U+FFFF: EF BF BE, EF BF BF */
	return _mm512_test_epi8_mask(err, err) | _mm512_mask_cmpge_epu8_mask(
	    _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(p2, k->ef), p1,
	    k->bf), v, k->be);
}

/*
 * A run of ASCII from p[i] on, 128 bytes at a time with the ASCII check
 * alone (bit 7 of the byte, or of its entry in the table of controls by
 * the low seven bits: none for 40..7F), to the first pair of blocks that
 * fails it; the line ends as ends_of's.  Return where it stopped.
 */
__attribute__((target(AVX512), always_inline))
static inline size_t
ascii512(const unsigned char *p, size_t n, size_t i, const struct u8k512 *k,
    uint64_t *carry, uint64_t *lines, size_t *lb, uint64_t *le)
{
	while (i + 128 <= n) {
		__m512i a = _mm512_loadu_si512((const void *)(p + i));
		__m512i b = _mm512_loadu_si512((const void *)(p + i + 64));
		__m512i any = _mm512_ternarylogic_epi32(a, b,
		    _mm512_permutex2var_epi8(k->ctltab, a, k->zero), 0xFE);
		uint64_t ea, eb;

		any = _mm512_ternarylogic_epi32(any, _mm512_permutex2var_epi8(
		    k->ctltab, b, k->zero), k->x80, 0xA8);
		if (_mm512_test_epi8_mask(any, any) != 0)
			break;
		/* ASCII text has a line end in most blocks: the branch is
		 * seldom wrong */
		ea = ends_of(_mm512_cmpeq_epi8_mask(a, k->lf),
		    _mm512_cmpeq_epi8_mask(a, k->cr), 63, carry, lines);
		eb = ends_of(_mm512_cmpeq_epi8_mask(b, k->lf),
		    _mm512_cmpeq_epi8_mask(b, k->cr), 63, carry, lines);
		if ((ea | eb) != 0) {
			*lb = eb != 0 ? i + 64 : i;
			*le = eb != 0 ? eb : ea;
		}
		i += 128;
	}
	return i;
}

/*
 * The prefix of p[0..n) that is plain UTF-8, as plain_utf8() says: valid
 * sequences of XML Chars (every control but TAB, LF and CR stops it).
 * Whole blocks of 64 bytes are taken while they hold no error; the block
 * with one, and the tail, go to the portable kernel, which finds the
 * exact stop (plain_utf8_rest backs up to the lead of a character that
 * the last block left unfinished).
 */
__attribute__((target(AVX512)))
static size_t
plain_utf8_avx512(const unsigned char *p, size_t n, uint64_t *plines,
    uint64_t *pcol)
{
	struct u8k512 k;
	uint64_t lines = *plines, c0 = *pcol;
	uint64_t carry = 0;	/* the byte before block i is CR */
	size_t i = 0, ls = 0;	/* ls: just past the last line end */
	size_t lb = 0;		/* the last block with a line end ... */
	uint64_t le = 0;	/* ... and its line ends, or none */
	unsigned ascii = 0;	/* ASCII blocks in a row before i */

	k.t1h = _mm512_broadcast_i32x4(_mm_loadu_si128(
	    (const __m128i *)utf8_lane[0]));
	k.t1l = _mm512_broadcast_i32x4(_mm_loadu_si128(
	    (const __m128i *)utf8_lane[1]));
	k.t2h = _mm512_broadcast_i32x4(_mm_loadu_si128(
	    (const __m128i *)utf8_lane[2]));
	/* bit 7 for the controls but TAB, LF and CR, by the byte */
	k.ctltab = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0,
	    (int)0x80808080, (int)0x80808080, (int)0x80808080,
	    (int)0x80808080, (int)0x80800080, (int)0x80000080,
	    (int)0x80808080, (int)0x80808080);
	k.lf = _mm512_set1_epi8('\n');
	k.cr = _mm512_set1_epi8('\r');
	k.ef = _mm512_set1_epi8((char)0xEF);
	k.bf = _mm512_set1_epi8((char)0xBF);
	k.be = _mm512_set1_epi8((char)0xBE);
	k.e0 = _mm512_set1_epi8((char)(0xE0 - 0x80));
	k.f0 = _mm512_set1_epi8((char)(0xF0 - 0x80));
	k.x80 = _mm512_set1_epi8((char)0x80);
	k.zero = _mm512_setzero_si512();
	/* The constants stay in registers (else each is made again in
	 * the loop, from a general register). */
	__asm__("" : "+v"(k.t1h), "+v"(k.t1l), "+v"(k.t2h), "+v"(k.ctltab),
	    "+v"(k.lf), "+v"(k.cr), "+v"(k.ef));
	__asm__("" : "+v"(k.bf), "+v"(k.be), "+v"(k.e0), "+v"(k.f0),
	    "+v"(k.x80), "+v"(k.zero));
	/* No branch but the ones out: the blocks of ASCII and of other
	 * characters come mixed, and a guess at which is wrong too often. */
	while (i + 64 <= n) {
		__m512i v = _mm512_loadu_si512((const void *)(p + i));
		uint64_t e;

		/* The bytes before each, loaded again after the first block:
		 * a load takes no vector unit, and this loop is bound by its
		 * vector operations */
		if (i == 0 ? u8_bad512(v, prev_n512(v, k.zero, 1),
		    prev_n512(v, k.zero, 2), prev_n512(v, k.zero, 3), &k) :
		    u8_bad512(v, _mm512_loadu_si512((const void *)(p + i - 1)),
		    _mm512_loadu_si512((const void *)(p + i - 2)),
		    _mm512_loadu_si512((const void *)(p + i - 3)), &k))
			break;
		e = ends_of(_mm512_cmpeq_epi8_mask(v, k.lf),
		    _mm512_cmpeq_epi8_mask(v, k.cr), 63, &carry, &lines);
		/* two selects (line ends come at random: a branch would
		 * mispredict), the last line end worked out once at the end */
		lb = e != 0 ? i : lb;
		le = e != 0 ? e : le;
		ascii = _mm512_movepi8_mask(v) == 0 ? ascii + 1 : 0;
		i += 64;
		/* A run of ASCII, which mixed text seldom has: the branch
		 * is seldom wrong. */
		if (ascii >= ASCII_RUN) {
			i = ascii512(p, n, i, &k, &carry, &lines, &lb, &le);
			ascii = 0;
		}
	}
	if (le != 0) {
		ls = PAST_LAST(lb, le);
		c0 = 1;
	}
	if (i > ls) {
		/* An LF at ls right after a CR takes no column. */
		int nl = ls > 0 && p[ls] == '\n' && p[ls - 1] == '\r';

		c0 += nchars512(p, ls, i) - (uint64_t)nl;
	}
	*plines = lines;
	*pcol = c0;
	return plain_utf8_rest(p, n, i, plines, pcol);
}

/* The constant vectors of plain_utf16_avx512. */
struct u16k512 {
	__m512i		 swap, lf, cr, tab, c1f, fffe, f800, fc00, d800, dc00;
};

__attribute__((target(AVX512), always_inline))
static inline void
u16k512_init(struct u16k512 *k)
{
	k->swap = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7,
	    6, 9, 8, 11, 10, 13, 12, 15, 14));
	k->lf = _mm512_set1_epi16('\n');
	k->cr = _mm512_set1_epi16('\r');
	k->tab = _mm512_set1_epi16('\t');
	k->c1f = _mm512_set1_epi16(0x1F);
	k->fffe = _mm512_set1_epi16((short)0xFFFE);
	k->f800 = _mm512_set1_epi16((short)0xF800);
	k->fc00 = _mm512_set1_epi16((short)0xFC00);
	k->d800 = _mm512_set1_epi16((short)0xD800);
	k->dc00 = _mm512_set1_epi16((short)0xDC00);
}

/* The units of v that are val under mask (surrogates, high halves). */
__attribute__((target(AVX512), always_inline))
static inline __mmask32
u16_is(__m512i v, __m512i mask, __m512i val)
{
	return _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, mask), val);
}

/*
 * plain_utf16_avx512's blocks two at a time while they hold nothing to
 * stop at, the masks of their 64 units joined (the first block's the low
 * half): the tests, the line ends and the last of them are taken once for
 * both.  A block at a time spent most of its time moving masks to general
 * registers and working on them there (9.2 GB/s on markup-heavy text in
 * cache).  The state is plain_utf16_avx512's; return where it stopped,
 * before the pair that holds a stop, which the loop there then finds.
 */
__attribute__((target(AVX512), always_inline))
static inline size_t
u16_pairs512(const unsigned char *p, size_t n, size_t i, int be,
    const struct u16k512 *k, uint64_t *carry, uint64_t *lines, size_t *ls,
    uint64_t *c0, uint32_t *hc)
{
	uint64_t h1 = *hc;	/* the unit before is a high half */

	while (i + 128 <= n) {
		__m512i a = _mm512_loadu_si512((const void *)(p + i));
		__m512i b = _mm512_loadu_si512((const void *)(p + i + 64));
		uint64_t m, r, bad, s, h, e;

		if (be) {
			a = _mm512_shuffle_epi8(a, k->swap);
			b = _mm512_shuffle_epi8(b, k->swap);
		}
		m = _mm512_kunpackd(_mm512_cmpeq_epi16_mask(b, k->lf),
		    _mm512_cmpeq_epi16_mask(a, k->lf));
		r = _mm512_kunpackd(_mm512_cmpeq_epi16_mask(b, k->cr),
		    _mm512_cmpeq_epi16_mask(a, k->cr));
		/* the one-block loop's test, each compare joined before they
		 * are combined: combined a block at a time, then joined (one
		 * function for both loops), took 9% longer in cache */
		bad = (_mm512_kunpackd(_mm512_cmple_epu16_mask(b, k->c1f),
		    _mm512_cmple_epu16_mask(a, k->c1f)) & ~(m | r |
		    _mm512_kunpackd(_mm512_cmpeq_epi16_mask(b, k->tab),
		    _mm512_cmpeq_epi16_mask(a, k->tab)))) |
		    _mm512_kunpackd(_mm512_cmpge_epu16_mask(b, k->fffe),
		    _mm512_cmpge_epu16_mask(a, k->fffe));
		s = _mm512_kunpackd(u16_is(b, k->f800, k->d800), u16_is(a,
		    k->f800, k->d800));
		h = _mm512_kunpackd(u16_is(b, k->fc00, k->d800), u16_is(a,
		    k->fc00, k->d800));
		/* every low half right after a high one, and no other */
		if (bad != 0 || (s & ~h) != (h << 1 | h1))
			break;
		h1 = h >> 63;
		e = ends_of(m, r, 63, carry, lines);
		last_end(e, i + 2 * (64 - (size_t)__builtin_clzll(e | 1)), ls,
		    c0);
		i += 128;
	}
	*hc = (uint32_t)h1;
	return i;
}

/*
 * The prefix of p[0..n) that is plain UTF-16 (be: big-endian), as
 * plain_utf16() says, 32 units at a time, each unit's tests a bit of a
 * mask: controls but TAB, LF and CR, U+FFFE and U+FFFF, and surrogates,
 * which must come as pairs, a high half and a low half right after it,
 * the two maybe in two blocks (RFC 2781 section 2.2; a pair is one
 * character).  Line ends as in plain_utf8_avx512; the column is counted
 * at the end, from the last line end: its units but the low halves.
 */
__attribute__((target(AVX512)))
static size_t
plain_utf16_avx512(const unsigned char *p, size_t n, int be,
    uint64_t *plines, uint64_t *pcol)
{
	struct u16k512 k;
	uint64_t lines = *plines, c0 = *pcol, carry = 0;
	uint32_t hc = 0;	/* the block before ended with a high half */
	size_t i = 0, ls = 0, j;	/* ls: just past the last line end */

	u16k512_init(&k);
	i = u16_pairs512(p, n, i, be, &k, &carry, &lines, &ls, &c0, &hc);
	while (i + 64 <= n) {
		__m512i v = _mm512_loadu_si512((const void *)(p + i));
		uint32_t m, r, bad, s, h;
		uint64_t e;

		if (be)
			v = _mm512_shuffle_epi8(v, k.swap);
		m = _mm512_cmpeq_epi16_mask(v, k.lf);
		r = _mm512_cmpeq_epi16_mask(v, k.cr);
		bad = (_mm512_cmple_epu16_mask(v, k.c1f) & ~(m | r |
		    _mm512_cmpeq_epi16_mask(v, k.tab))) |
		    _mm512_cmpge_epu16_mask(v, k.fffe);
		s = u16_is(v, k.f800, k.d800);
		h = u16_is(v, k.fc00, k.d800);
		/* every low half right after a high one, and no other */
		if (bad != 0 || (s & ~h) != (h << 1 | hc))
			break;
		hc = h >> 31;
		e = ends_of(m, r, 31, &carry, &lines);
		last_end(e, i + 2 * (32 - (size_t)__builtin_clz((uint32_t)e | 1)),
		    &ls, &c0);
		i += 64;
	}
	/* A high half whose low half is not taken is not taken either (it
	 * is no line end, so ls is before it). */
	if (hc != 0)
		i -= 2;
	if (i > ls) {
		/* the units from ls on, but the low halves and an LF right
		 * after a CR */
		for (j = ls; j + 64 <= i; j += 64) {
			__m512i v = _mm512_loadu_si512((const void *)(p + j));

			if (be)
				v = _mm512_shuffle_epi8(v, k.swap);
			c0 += 32 - (uint64_t)__builtin_popcount(
			    _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, k.fc00),
			    k.dc00));
		}
		for (; j < i; j += 2)
			c0 += (p[j + !be] & 0xFC) != 0xDC;
		c0 -= ls > 0 && p[ls + be] == '\n' && p[ls + !be] == 0 &&
		    p[ls - 2 + be] == '\r' && p[ls - 2 + !be] == 0;
	}
	*plines = lines;
	*pcol = c0;
	return plain_utf16_rest(p, n, i, be, plines, pcol);
}

/* The units of u (e: its LF units) that are no plain character of
 * plain_utf32_avx512, in a mask register; tab, x20, max, f800, d800, one
 * and ffff are that function's constants. */
#define U32_BAD(u, e)	_kor_mask16(_kor_mask16( \
	    _mm512_mask_cmplt_epu32_mask(_knot_mask16(_kor_mask16(e, \
	    _mm512_cmpeq_epi32_mask(u, tab))), u, x20), \
	    _mm512_cmpgt_epu32_mask(u, max)), _kor_mask16( \
	    _mm512_cmpeq_epi32_mask(_mm512_and_si512(u, f800), d800), \
	    _mm512_cmpeq_epi32_mask(_mm512_or_si512(u, one), ffff)))

/*
 * The prefix of UTF-32 p[0..n) that is plain, as plain_utf32_avx2 takes
 * it, 32 units a step in two vectors, the tests in mask registers: a unit
 * below 20 but TAB and LF (CR too: the portable kernel takes its line
 * end), past U+10FFFF, a surrogate, U+FFFE or U+FFFF stops the step; the
 * rest goes to the portable kernel.
 */
__attribute__((target(AVX512)))
static size_t
plain_utf32_avx512(const unsigned char *p, size_t n, int be,
    uint64_t *lines, uint64_t *col)
{
	__m512i swap = _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6,
	    5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
	__m512i lf = _mm512_set1_epi32('\n'), tab = _mm512_set1_epi32('\t');
	__m512i x20 = _mm512_set1_epi32(0x20), max = _mm512_set1_epi32(0x10FFFF);
	__m512i f800 = _mm512_set1_epi32((int)0xFFFFF800);
	__m512i d800 = _mm512_set1_epi32(0xD800), one = _mm512_set1_epi32(1);
	__m512i ffff = _mm512_set1_epi32(0xFFFF);
	size_t i = 0;

	/* in registers from here on (the compiler would make them again in
	 * every round) */
	__asm__("" : "+v"(swap), "+v"(lf), "+v"(tab), "+v"(x20), "+v"(max),
	    "+v"(f800), "+v"(d800), "+v"(one), "+v"(ffff));
	while (i + 128 <= n) {
		__m512i u0 = _mm512_loadu_si512((const void *)(p + i));
		__m512i u1 = _mm512_loadu_si512((const void *)(p + i + 64));
		__mmask16 e0, e1;

		if (be) {
			u0 = _mm512_shuffle_epi8(u0, swap);
			u1 = _mm512_shuffle_epi8(u1, swap);
		}
		e0 = _mm512_cmpeq_epi32_mask(u0, lf);
		e1 = _mm512_cmpeq_epi32_mask(u1, lf);
		/* the masks stay in mask registers: one test for both */
		if (!_kortestz_mask16_u8(U32_BAD(u0, e0), U32_BAD(u1, e1)))
			break;
		count_block((uint32_t)e0 | (uint32_t)e1 << 16, 0xFFFFFFFFu,
		    lines, col);
		i += 128;
	}
	return i + plain_utf32_avx2(p + i, n - i, be, lines, col);
}

/* The bytes of block v in the map of plain_sb_avx512 (bits, bit). */
__attribute__((target(AVX512), always_inline))
static inline __mmask64
sb_in_map(__m512i v, __m512i bits, __m512i bit)
{
	return _mm512_test_epi8_mask(_mm512_permutexvar_epi8(
	    _mm512_srli_epi16(v, 3), bits), _mm512_permutexvar_epi8(v, bit));
}

/*
 * The prefix of single-byte text p[0..n) whose bytes are in the map, as
 * plain_sb() says, 64 bytes at a time: bit b & 7 of the map's byte b >> 3
 * for each byte b (two permutations, the map repeated in both halves of
 * the table, since the shift brings the next byte's low bit in as bit 5
 * of the index).  CR, where the map allows it, is a line end, and so is
 * LF but right after a CR; the column is counted at the end, from the
 * last line end.  After a CR taken last, stop: the caller looks at the
 * next byte.
 */
__attribute__((target(AVX512)))
static size_t
plain_sb_avx512(const unsigned char *p, size_t n, const struct plainmap *map,
    uint64_t *plines, uint64_t *pcol)
{
	const __m512i bits = _mm512_broadcast_i64x4(_mm256_loadu_si256(
	    (const __m256i *)map->bits));
	const __m512i bit = _mm512_set1_epi64((long long)0x8040201008040201ULL);
	const __m512i lf = _mm512_set1_epi8('\n');
	const __m512i cr = _mm512_set1_epi8('\r');
	const uint64_t cr_ok = map->cr ? ~(uint64_t)0 : 0;
	uint64_t lines = *plines, c0 = *pcol, carry = 0;
	size_t i = 0, ls = 0;	/* ls: just past the last line end */

	/* Two blocks a step while both are plain: the tests stay in mask
	 * registers (a CR, where allowed, counts as in the map), one test
	 * for both; the block with a stop is the loop's below. */
	while (i + 128 <= n) {
		__m512i a = _mm512_loadu_si512((const void *)(p + i));
		__m512i b = _mm512_loadu_si512((const void *)(p + i + 64));
		__mmask64 ra = _mm512_cmpeq_epi8_mask(a, cr) & cr_ok;
		__mmask64 rb = _mm512_cmpeq_epi8_mask(b, cr) & cr_ok;
		__mmask64 ga = sb_in_map(a, bits, bit) | ra;
		__mmask64 gb = sb_in_map(b, bits, bit) | rb;
		uint64_t ea, eb;

		if (!_kortestc_mask64_u8(_kand_mask64(ga, gb), 0))
			break;
		ea = ends_of(_mm512_cmpeq_epi8_mask(a, lf), ra, 63, &carry,
		    &lines);
		eb = ends_of(_mm512_cmpeq_epi8_mask(b, lf), rb, 63, &carry,
		    &lines);
		/* text has a line end in most pairs: the branch is seldom
		 * wrong, and spares the wait for ls */
		if ((ea | eb) != 0) {
			ls = eb != 0 ? PAST_LAST(i + 64, eb) : PAST_LAST(i, ea);
			c0 = 1;
		}
		i += 128;
	}
	while (i + 64 <= n) {
		__m512i v = _mm512_loadu_si512((const void *)(p + i));
		uint64_t bad = ~(uint64_t)sb_in_map(v, bits, bit);
		uint64_t r = 0, e;

		if (bad != 0) {
			r = _mm512_cmpeq_epi8_mask(v, cr) & cr_ok;
			if ((bad & ~r) != 0)
				break;
		}
		e = ends_of(_mm512_cmpeq_epi8_mask(v, lf), r, 63, &carry, &lines);
		last_end(e, PAST_LAST(i, e | 1), &ls, &c0);
		i += 64;
	}
	/* An LF at ls right after a CR takes no column. */
	*pcol = c0 + (i - ls) - (i > ls && ls > 0 && p[ls] == '\n' &&
	    p[ls - 1] == '\r');
	*plines = lines;
	if (carry)
		return i;
	return i + plain_sb_word(p + i, n - i, map, plines, pcol);
}

#define B512(x)	_mm512_set1_epi8((char)(x))

/*
 * dense_utf8() 64 bytes at a time: dense_avx2.c's walk, with every byte
 * test a compare into a mask (see there for the rules).  A block looks
 * three bytes past its end, so that a sequence begun in it is known
 * whole; the continuation bytes past it that its last sequence took are
 * passed over.
 */
__attribute__((target(AVX512)))
static size_t
dense_utf8_avx512(const unsigned char *p, size_t n, int chars,
    struct dense_tally *t)
{
	size_t i = 0;
	int calm = 0;

	t->clean = 0;
	while (n - i >= 67) {
		__m512i v0 = _mm512_loadu_si512((const void *)(p + i));
		__m512i v1 = _mm512_loadu_si512((const void *)(p + i + 1));
		__m512i v2 = _mm512_loadu_si512((const void *)(p + i + 2));
		__m512i v3 = _mm512_loadu_si512((const void *)(p + i + 3));
		struct u8masks m;
		int quiet;

		/* continuation bytes (80..BF, signed below -64) */
		m.c0 = _mm512_cmplt_epi8_mask(v0, B512(-64));
		m.c1 = _mm512_cmplt_epi8_mask(v1, B512(-64));
		m.c2 = _mm512_cmplt_epi8_mask(v2, B512(-64));
		m.c3 = _mm512_cmplt_epi8_mask(v3, B512(-64));
		/* C2..DF, E0..EF, F0..F4; C0, C1 and F5..FF */
		m.l2 = _mm512_mask_cmple_epu8_mask(_mm512_cmpge_epu8_mask(v0,
		    B512(0xC2)), v0, B512(0xDF));
		m.l3 = _mm512_mask_cmple_epu8_mask(_mm512_cmpge_epu8_mask(v0,
		    B512(0xE0)), v0, B512(0xEF));
		m.l4 = _mm512_mask_cmple_epu8_mask(_mm512_cmpge_epu8_mask(v0,
		    B512(0xF0)), v0, B512(0xF4));
		m.lone = _mm512_mask_cmple_epu8_mask(_mm512_cmpge_epu8_mask(v0,
		    B512(0xC0)), v0, B512(0xC1)) | _mm512_cmpge_epu8_mask(v0,
		    B512(0xF5));
		/* a second byte outside the narrow range of its lead (only
		 * continuation bytes matter) */
		m.narrow = _mm512_mask_cmplt_epu8_mask(_mm512_cmpeq_epi8_mask(v0,
		    B512(0xE0)), v1, B512(0xA0)) | _mm512_mask_cmpgt_epu8_mask(
		    _mm512_cmpeq_epi8_mask(v0, B512(0xED)), v1, B512(0x9F)) |
		    _mm512_mask_cmplt_epu8_mask(_mm512_cmpeq_epi8_mask(v0,
		    B512(0xF0)), v1, B512(0x90)) | _mm512_mask_cmpgt_epu8_mask(
		    _mm512_cmpeq_epi8_mask(v0, B512(0xF4)), v1, B512(0x8F));
		m.lf = _mm512_cmpeq_epi8_mask(v0, B512('\n'));
		m.cr = _mm512_cmpeq_epi8_mask(v0, B512('\r'));
		m.ascii = ~(uint64_t)_mm512_movepi8_mask(v0);
		/* Controls other than tab, LF and CR (XML 1.0 [2]); EF BF BE
		 * and EF BF BF, U+FFFE and U+FFFF. */
		m.nc = (_mm512_cmplt_epu8_mask(v0, B512(0x20)) &
		    ~(_mm512_cmpeq_epi8_mask(v0, B512('\t')) | m.lf | m.cr)) |
		    (_mm512_mask_cmpge_epu8_mask(_mm512_mask_cmpeq_epi8_mask(
		    _mm512_cmpeq_epi8_mask(v0, B512(0xEF)), v1, B512(0xBF)), v2,
		    B512(0xBE)) & m.c2);
		if (m.nc != 0 && !chars)
			break;
		i += dense_u8_step(&m, 64, t, &quiet);
		calm = quiet ? calm + 1 : 0;
		if (calm == DENSE_CALM) {
			t->clean = 1;
			break;
		}
	}
	return i;
}

/*
 * Whether the processor and the system run AVX-512 F, BW, VL and VBMI:
 * AVX2's conditions, XCR0 with the opmask and both halves of the ZMM
 * state (bits 5 to 7), and leaf 7's EBX bits 16 (F), 30 (BW) and 31 (VL)
 * and ECX bit 1 (VBMI); with BMI1 and BMI2 (leaf 7's EBX bits 3 and 8)
 * and POPCNT (leaf 1's ECX bit 23), which the level's functions are
 * compiled for too (every processor with AVX-512 has them).
 */
__attribute__((target("xsave")))
static int
avx512_usable(void)
{
	static atomic_int known = -1;
	unsigned a, b, c, d;

	if (known >= 0)
		return known;
	known = 0;
	if (!avx2_usable() || (_xgetbv(0) & 0xE0) != 0xE0)
		return known;
	__cpuid(1, a, b, c, d);
	if ((c & 1u << 23) == 0)
		return known;
	__cpuid_count(7, 0, a, b, c, d);
	known = (b & (1u << 3 | 1u << 8 | 1u << 16 | 1u << 30 | 1u << 31)) ==
	    (1u << 3 | 1u << 8 | 1u << 16 | 1u << 30 | 1u << 31) &&
	    (c & 1u << 1) != 0;
	return known;
}

const struct kernels kernels_avx512 = {
	.name = "avx512",
	.usable = avx512_usable,
	.init = avx2_init,
	.plain_utf8 = plain_utf8_avx512,
	.plain_utf16 = plain_utf16_avx512,
	.plain_utf32 = plain_utf32_avx512,
	.plain_sb = plain_sb_avx512,
	.conv = conv_avx2,
	.find32 = find32_avx2,
	.late_find = late_find_avx512,
	.late_run = late_run_avx512,
	.moj_skip = moj_skip_avx2,
	.moj_skipw = moj_skipw_avx512,
	.moj_skip32 = moj_skip32_avx512,
	.marks8 = marks8_avx512,
	.marksw16 = marksw16_avx512,
	.dense_utf8 = dense_utf8_avx512,
	.dense_utf16 = dense_utf16_avx2,
	.dense_utf32 = dense_utf32_avx2,
};
#else
const struct kernels kernels_avx512 = { .name = "avx512" };
#endif

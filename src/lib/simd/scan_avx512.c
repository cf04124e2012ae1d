/*
 * Level avx512's marks8: the one pass of marks8_avx2 (scan_avx2.c) over
 * 64 bytes a step in one 512-bit vector, the bytes of each test in a mask
 * register.  The marks and their order are the same: "<?" and "<!"; the
 * bytes of moj_mask32 where a mojibake candidate may begin, each asked of
 * moj_exact8().  The test of a block costs a few instructions whatever the
 * script and is made of every block, with no branch on its answer:
 * marks8_avx2's first test of C2 and C3 alone, for text with few,
 * branched at random on Central European, Turkish and markup-heavy text
 * here (44 ms against 33 on 100 MB of the latter).  Which of two tests a
 * run of blocks makes is chosen run by run (RUN_C3, RUN_EXACT below).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "avx2_int.h"

#define AVX512	__attribute__((target( \
	    "avx512f,avx512bw,avx512vl,avx512vbmi,popcnt,bmi,bmi2")))

/* The constant vectors of the tests (of scan_avx2.c's tables, the one of
 * nibbles in each 128-bit lane, the two of 64 whole). */
struct mojk5 {
	__m512i		 l64, n64, c0, m64, lis, nib, c3, c2, e2, a0, lt, q, x,
			 one, x82, b4;
};

AVX512 static void
mojk5_init(struct mojk5 *k)
{
	k->l64 = _mm512_loadu_si512((const void *)moj_lead64);
	k->n64 = _mm512_loadu_si512((const void *)moj_next64);
	k->c0 = _mm512_set1_epi8((char)0xC0);
	k->m64 = _mm512_set1_epi8(-64);
	k->lis = _mm512_broadcast_i32x4(_mm_loadu_si128(
	    (const __m128i *)moj_lead_is));
	k->nib = _mm512_set1_epi8(0x0F);
	k->c3 = _mm512_set1_epi8((char)0xC3);
	k->c2 = _mm512_set1_epi8((char)0xC2);
	k->e2 = _mm512_set1_epi8((char)0xE2);
	k->a0 = _mm512_set1_epi8((char)0xA0);
	k->lt = _mm512_set1_epi8('<');
	k->q = _mm512_set1_epi8('?');
	k->x = _mm512_set1_epi8('!');
	k->one = _mm512_set1_epi8(1);
	k->x82 = _mm512_set1_epi8((char)0x82);
	k->b4 = _mm512_set1_epi8((char)0xB4);
}

/* C2 before 80..9F (a C1 control: 80..9F are below A0 as signed). */
AVX512 __attribute__((always_inline)) static inline __mmask64
ctl5(__m512i v0, __m512i v1, const struct mojk5 *k)
{
	return _mm512_cmpeq_epi8_mask(v0, k->c2) &
	    _mm512_cmpgt_epi8_mask(k->a0, v1);
}

/* moj_first (scan_avx2.c) of v0, v1 and v2 (one and two bytes on). */
AVX512 __attribute__((always_inline)) static inline __mmask64
first5(__m512i v0, __m512i v1, __m512i v2, const struct mojk5 *k)
{
	__mmask64 lead = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(k->lis,
	    _mm512_and_si512(v2, k->nib)), v2) |
	    _mm512_cmpeq_epi8_mask(v2, k->e2);

	return (lead & _mm512_cmpeq_epi8_mask(v0, k->c3)) | ctl5(v0, v1, k);
}

/* moj_mask32 (scan_avx2.c) of the 64 bytes of v0 (v1, v2, v3: one, two
 * and three bytes on), its pair test by whole bytes: the bits of v2 if a
 * lead (C0..FF) and of v3 if a continuation (80..BF, below C0 as signed),
 * each one vpermb of a table of 64 (moj_lead64, moj_next64), not two
 * shuffles of nibbles: marks8 over Polish text in the cache, 17.0 GB/s
 * with the nibbles, 22.6 with this (bench/kernels). */
AVX512 __attribute__((always_inline)) static inline __mmask64
mask5(__m512i v0, __m512i v1, __m512i v2, __m512i v3, const struct mojk5 *k)
{
	__m512i lb = _mm512_maskz_permutexvar_epi8(_mm512_cmpge_epu8_mask(v2,
	    k->c0), v2, k->l64);
	__m512i nb = _mm512_maskz_permutexvar_epi8(_mm512_cmplt_epi8_mask(v3,
	    k->m64), v3, k->n64);

	return _mm512_mask_test_epi8_mask(_mm512_cmpeq_epi8_mask(v0, k->c3),
	    lb, nb) | ctl5(v0, v1, k);
}

/*
 * The lanes of mask5 whose C3 may begin a candidate by the lead it gives
 * (v1, one byte on) and what that lead needs (v4, four bytes on), as
 * moj_mask32's: 82..B4, and past 9F (a lead of three or four bytes, which
 * needs two trail characters) a byte past ASCII four bytes on.  Slovak
 * "môže" (C3 B4 C5 BE 65) and Czech "píše" pass mask5 and fail here:
 * asked only of the blocks that pass mask5 (run_mj5), not in every block
 * of a run (Hungarian and Icelandic text, which seldom fail mask5, took
 * 10% more processor time with the test in mask5).  C1 controls pass.
 */
AVX512 __attribute__((always_inline)) static inline __mmask64
lead5(__m512i v0, __m512i v1, __m512i v4, const struct mojk5 *k)
{
	return (_mm512_cmpge_epu8_mask(v1, k->x82) &
	    _mm512_cmple_epu8_mask(v1, k->b4) &
	    (_mm512_cmplt_epu8_mask(v1, k->a0) | _mm512_movepi8_mask(v4))) |
	    _mm512_cmpneq_epi8_mask(v0, k->c3);
}

/* "<?" and "<!" exactly, not every '<', in a (a1: one byte on; lt, q, x:
 * the three bytes in every lane). */
AVX512 __attribute__((always_inline)) static inline __mmask64
ltq5(__m512i a, __m512i a1, __m512i lt, __m512i q, __m512i x)
{
	return _mm512_cmpeq_epi8_mask(a, lt) & (_mm512_cmpeq_epi8_mask(a1,
	    q) | _mm512_cmpeq_epi8_mask(a1, x));
}

/* The same with marks8's constants. */
AVX512 __attribute__((always_inline)) static inline __mmask64
lt5(__m512i a, __m512i a1, const struct mojk5 *k)
{
	return ltq5(a, a1, k->lt, k->q, k->x);
}

/*
 * The marks of the block of 64 at p + i (a, a1, a2: its bytes, one and two
 * on) that keep has: l its "<?" and "<!", c where a candidate may begin
 * (first5), each list while it takes marks (*lon, *mon: as marks8_tail's).
 * Reads p[i..i+68).
 */
AVX512 __attribute__((always_inline)) static inline void
marks5(const unsigned char *p, size_t n, size_t i, uint64_t keep,
    __m512i a, __m512i a1, __m512i a2, __mmask64 l, __mmask64 c,
    const struct mojk5 *k, struct marks *m, int *lon, int *mon)
{
	marks_lt_bits(m, i, l & keep, lon);
	if (!*mon || (c & keep) == 0)
		return;
	marks_mj_bits(p, n, m, i, mask5(a, a1, a2,
	    _mm512_loadu_si512((const void *)(p + i + 3)), k) & lead5(a, a1,
	    _mm512_loadu_si512((const void *)(p + i + 4)), k) & keep, mon);
}

/*
 * The "<?" and "<!" of a run of nb blocks of 64 from i of p[0..n), l[b]
 * those of block b (a bit of ls for each block that has some, 4 bytes
 * after each), into m's list while *lon (marks_lt_run).  With m->hard,
 * only those the lexer must lex: in each block with some, a comment's
 * open ("<!--") and a PI's whose target does not begin with 'x' are told
 * by their first four bytes in vectors, left out and their kinds set in
 * m->ksum (a mark with fewer than 9 bytes to read is left in); the rest
 * are listed and marks_harden keeps those of kind MK_OTHER.
 */
AVX512 static void
marks_lt_hard(const unsigned char *p, size_t n, struct marks *m, size_t i,
    uint64_t *l, unsigned nb, uint64_t ls, int *lon)
{
	const __m512i bang = _mm512_set1_epi8('!'), q = _mm512_set1_epi8('?');
	const __m512i dash = _mm512_set1_epi8('-'), x = _mm512_set1_epi8('x');
	uint64_t s, cms = 0, pis = 0;

	for (s = m->hard ? ls : 0; s != 0; s = _blsr_u64(s)) {
		unsigned b = (unsigned)_tzcnt_u64(s);
		size_t o = i + (size_t)b * 64;
		const unsigned char *v = p + o;
		__m512i a1 = _mm512_loadu_si512((const void *)(v + 1));
		__m512i a2 = _mm512_loadu_si512((const void *)(v + 2));
		__m512i a3 = _mm512_loadu_si512((const void *)(v + 3));
		uint64_t cm = _mm512_mask_cmpeq_epi8_mask(
		    _mm512_mask_cmpeq_epi8_mask(_mm512_mask_cmpeq_epi8_mask(
		    l[b], a1, bang), a2, dash), a3, dash);
		uint64_t pi = _mm512_mask_cmpeq_epi8_mask(l[b], a1, q) &
		    ~(uint64_t)_mm512_cmpeq_epi8_mask(a2, x);

		if (n - o < 72) {
			/* a mark at j has n - o - j bytes: 9 or more? */
			uint64_t ok = ~(uint64_t)0 >> (72 - (n - o));

			cm &= ok;
			pi &= ok;
		}
		cms |= cm;
		pis |= pi;
		l[b] &= ~(cm | pi);
		ls &= ~((uint64_t)(l[b] == 0) << b);
	}
	m->ksum |= (unsigned)(cms != 0) << MK_COMMENT |
	    (unsigned)(pis != 0) << MK_PI;
	if (ls == 0)
		return;
	marks_lt_run(m, i, l, nb, ls, lon);
	if (m->hard)
		marks_harden(p, n, m, m->nhd);
}

/*
 * The "<?" and "<!" of the ASCII that p[0..n) begins with, into m's list
 * while *lon, 128 bytes a step to the first pair of blocks that is not
 * ASCII throughout (with 4 bytes after it): no candidate begins at an
 * ASCII byte, so a pair costs the test of bit 7 and the one for "<?" and
 * "<!".  The marks of up to 64 blocks are listed at once, as a run of
 * marks8_avx512's (l: room for 64).  Return where it stopped.
 */
AVX512 __attribute__((noinline)) static size_t
ascii_marks5(const unsigned char *p, size_t n, struct marks *m, int *lon,
    uint64_t *l)
{
	__m512i lt = _mm512_set1_epi8('<'), q = _mm512_set1_epi8('?');
	__m512i x = _mm512_set1_epi8('!');
	size_t i = 0, i0;
	unsigned nb;
	uint64_t ls;

	do {
		for (i0 = i, nb = 0, ls = 0; nb < 64 && i + 128 + 4 <= n;
		    i += 128, nb += 2) {
			__m512i a = _mm512_loadu_si512((const void *)(p + i));
			__m512i b = _mm512_loadu_si512((const void *)(p + i +
			    64));
			__m512i a1 = _mm512_loadu_si512((const void *)(p + i +
			    1));
			__m512i b1 = _mm512_loadu_si512((const void *)(p + i +
			    65));

			if (_mm512_movepi8_mask(_mm512_or_si512(a, b)) != 0)
				break;
			l[nb] = ltq5(a, a1, lt, q, x);
			l[nb + 1] = ltq5(b, b1, lt, q, x);
			ls |= (uint64_t)(l[nb] != 0) << nb |
			    (uint64_t)(l[nb + 1] != 0) << (nb + 1);
		}
		if (ls != 0 && *lon)
			marks_lt_hard(p, n, m, i0, l, nb, ls, lon);
	} while (nb == 64);
	return i;
}

/* The mojibake marks of the blocks of 64 from i whose bits are set in cs
 * (blocks where one may begin: first5 or mask5), each block's candidates
 * (mask5, or cm[] where run5 kept it, and lead5) asked of moj_exact8(),
 * while *mon. */
AVX512 __attribute__((noinline)) static void
run_mj5(const unsigned char *p, size_t n, size_t i, uint64_t cs,
    const uint64_t *cm, struct marks *m, int *mon)
{
	struct mojk5 k;

	mojk5_init(&k);
	for (; cs != 0 && *mon; cs = _blsr_u64(cs)) {
		size_t b = (size_t)_tzcnt_u64(cs), j = i + b * 64;
		const unsigned char *q = p + j;
		__m512i a = _mm512_loadu_si512((const void *)q);
		__m512i a1 = _mm512_loadu_si512((const void *)(q + 1));
		uint64_t c = cm != NULL ? cm[b] : mask5(a, a1,
		    _mm512_loadu_si512((const void *)(q + 2)),
		    _mm512_loadu_si512((const void *)(q + 3)), &k);

		marks_mj_bits(p, n, m, j, c & lead5(a, a1,
		    _mm512_loadu_si512((const void *)(q + 4)), &k), mon);
	}
}

/*
 * The two tests of where a mojibake candidate may begin, the second finer
 * and dearer: a C2 or C3 in the block; the bytes of moj_mask32 (mask5).
 * A run with RUN_BUSY_C3 blocks or more that pass the first takes the
 * second for RUN_STAY runs, then the first again: text with no C2 nor C3
 * (CJK, Cyrillic, Greek...) costs the least (mask5 in every block cost it
 * 50% more when it shuffled nibbles), and Latin text, with its C3 in many blocks, the bytes of
 * mask5, so that run_mj5 seldom reloads a block.  A third test between
 * the two, the first bytes (first5), was dropped once mask5 looked its
 * pairs up by whole bytes: the two tests were then as fast or 1 to 2%
 * faster on every shape (doc/BENCHMARKS.md, December 3).
 */
enum { RUN_C3, RUN_EXACT };
#define RUN_BUSY_C3	4
#define RUN_STAY	64

/*
 * The tests of a run of nb blocks of 64 at p (with 4 bytes after it):
 * each block's "<?" and "<!" into l[], a bit in *ls for each block that
 * has some and in *cs for each that passes the test (RUN_C3 or RUN_EXACT)
 * of where a mojibake candidate may begin; RUN_EXACT's masks into cm[],
 * for run_mj5 (Czech "náš" and "píše" pass mask5 in most blocks: made
 * again there, mask5 took a fifth of the run).
 */
AVX512 __attribute__((always_inline)) static inline void
run5(const unsigned char *p, size_t nb, uint64_t *l, uint64_t *ls,
    uint64_t *cs, uint64_t *cm, int test, const struct mojk5 *k)
{
	size_t b;

	for (b = 0; b < nb; b++) {
		const unsigned char *q = p + b * 64;
		__m512i a = _mm512_loadu_si512((const void *)q);
		__m512i a1 = _mm512_loadu_si512((const void *)(q + 1));
		__mmask64 c = test == RUN_EXACT ? mask5(a, a1,
		    _mm512_loadu_si512((const void *)(q + 2)),
		    _mm512_loadu_si512((const void *)(q + 3)), k) :
		    _mm512_cmpeq_epi8_mask(_mm512_or_si512(a, k->one), k->c3);

		l[b] = lt5(a, a1, k);
		if (test == RUN_EXACT)
			cm[b] = c;
		*ls |= (uint64_t)(l[b] != 0) << b;
		*cs |= (uint64_t)(c != 0) << b;
	}
}

/*
 * marks8() in one pass: the ASCII the piece begins with (ascii_marks5: a
 * piece of ASCII text is ASCII throughout; a look in the loop, even once in
 * 16 KB, cost other text 3 to 12%: doc/BENCHMARKS.md); then runs of up to 64
 * blocks of 64 with 4 bytes after them (lead5 reads the fourth, and a
 * candidate cut short by the end is the tail's).  A run's tests store
 * each block's "<?" and "<!" and note the blocks where a candidate may
 * begin, with no branch on either: where markup comes every hundred bytes
 * or so, or Latin Extended letters every few, a branch on each block
 * missed at random (43 ms against 10 for 200 MB with none).  Then marks_lt_hard and run_mj5 list them,
 * the former only those to lex with m->hard, from bytes still in the
 * cache.  Then the block that ends 4 bytes before the end,
 * less what was searched; then the last bytes one at a time.
 */
AVX512 void
marks8_avx512(const unsigned char *p, size_t n, struct marks *m)
{
	size_t i = 0, j;
	int lon = 1, mon = !m->nomj;
	struct mojk5 k;
	__m512i a, a1, a2;
	uint64_t l[64], cm[64];
	int test = RUN_C3, stay = 0, was;

	m->nlt = m->nmj = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	m->mcov = n > 2 ? n - 2 : 0;
	/* first, before the constants: a call takes every vector register */
	i = ascii_marks5(p, n, m, &lon, l);
	while (i + 64 + 4 <= n && (lon || mon)) {
		size_t nb = (n - 4 - i) / 64;
		uint64_t ls = 0, cs = 0;

		if (nb > 64)
			nb = 64;
		mojk5_init(&k);
		was = test;
		if (test == RUN_EXACT)
			run5(p + i, nb, l, &ls, &cs, cm, RUN_EXACT, &k);
		else
			run5(p + i, nb, l, &ls, &cs, cm, RUN_C3, &k);
		if (mon && test == RUN_C3 && _mm_popcnt_u64(cs) >=
		    RUN_BUSY_C3) {
			test = RUN_EXACT;
			stay = RUN_STAY;
		} else if (test == RUN_EXACT && --stay == 0)
			test = RUN_C3;
		if (ls != 0 && lon)
			marks_lt_hard(p, n, m, i, l, (unsigned)nb, ls, &lon);
		if (cs != 0 && mon)
			run_mj5(p, n, i, cs, was == RUN_EXACT ? cm : NULL, m,
			    &mon);
		i += nb * 64;
	}
	mojk5_init(&k);
	if (n >= 68 && i + 4 < n && (lon || mon)) {
		j = n - 68;
		a = _mm512_loadu_si512((const void *)(p + j));
		a1 = _mm512_loadu_si512((const void *)(p + j + 1));
		a2 = _mm512_loadu_si512((const void *)(p + j + 2));
		marks5(p, n, j, ~(uint64_t)0 << (i - j), a, a1, a2, lt5(a, a1,
		    &k), first5(a, a1, a2, &k), &k, m, &lon, &mon);
		i = n - 4;
	}
	marks8_tail(p, n, i, m, &lon, &mon);
}

/* The constant vectors of the stop test of moj_skipw (skipw5). */
struct skwk5 {
	__m512i		 swap, ffe0, x80, xc2, l1, s0, s1, sl, xe0;
};

AVX512 __attribute__((always_inline)) static inline void
skwk5_init(struct skwk5 *k)
{
	k->swap = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7,
	    6, 9, 8, 11, 10, 13, 12, 15, 14));
	k->ffe0 = _mm512_set1_epi16((short)0xFFE0);
	k->x80 = _mm512_set1_epi16(MOJ_TRAIL0_LO);
	k->xc2 = _mm512_set1_epi16(MOJ_LEAD_LO);
	k->l1 = _mm512_set1_epi16(MOJ_TRAIL1_LO);
	k->s0 = _mm512_set1_epi16(MOJ_TRAIL0_SPAN);
	k->s1 = _mm512_set1_epi16(MOJ_TRAIL1_SPAN);
	k->sl = _mm512_set1_epi16(MOJ_LEAD_SPAN);
	k->xe0 = _mm512_set1_epi16(0xE0);
	/* in registers from here on: the compiler would broadcast each
	 * again in every round (as it did moj_skipw_avx2's) */
	__asm__("" : "+v"(k->swap), "+v"(k->ffe0), "+v"(k->x80),
	    "+v"(k->xc2), "+v"(k->l1), "+v"(k->s0), "+v"(k->s1), "+v"(k->sl),
	    "+v"(k->xe0));
}

/* Of the 16-bit lanes in, those where x may be a trail character
 * (80..BF, or 0152..2122, which holds windows-1252's 27: x less lo no
 * more than span); compares under the mask in, which skipw5 and
 * moj_skip32_avx512 took 2 to 3% longer without. */
AVX512 __attribute__((always_inline)) static inline __mmask32
trailw5(__mmask32 in, __m512i x, const struct skwk5 *k)
{
	return _mm512_mask_cmple_epu16_mask(in, _mm512_sub_epi16(x, k->x80),
	    k->s0) | _mm512_mask_cmple_epu16_mask(in, _mm512_sub_epi16(x,
	    k->l1), k->s1);
}

/*
 * The units of the 32 at p (be: big-endian; p[0..66) readable) where
 * moj_skipw may stop, the tests of moj_skipw_avx2 in mask registers: a
 * C1 control, or C2..F4 before a unit that may be a trail character
 * (80..BF, or 0152..2122, which holds windows-1252's 27).
 */
AVX512 __attribute__((always_inline)) static inline uint32_t
skipw5(const unsigned char *p, int be, const struct skwk5 *k)
{
	__m512i u = _mm512_loadu_si512((const void *)p);
	__m512i nx = _mm512_loadu_si512((const void *)(p + 2));
	__mmask32 lead;

	if (be) {
		u = _mm512_shuffle_epi8(u, k->swap);
		nx = _mm512_shuffle_epi8(nx, k->swap);
	}
	lead = trailw5(_mm512_cmple_epu16_mask(_mm512_sub_epi16(u, k->xc2),
	    k->sl), nx, k);
	return (uint32_t)(lead | _mm512_cmpeq_epi16_mask(_mm512_and_si512(u,
	    k->ffe0), k->x80));
}

/*
 * Of the 32 units at p (be: big-endian; p[0..68) readable), those below
 * E0 (a lead that needs one trail character, or none) or two units
 * before one that may be a trail character (skipw5's test): a lead of
 * E0..F4 needs two or more.  Czech "náš" (00E1 0161 0020) and Slovak
 * "môže" are stops of skipw5 and fail here.  Asked of the stops skipw5
 * found, not in every block (as lead5 of UTF-8).
 */
AVX512 __attribute__((always_inline)) static inline uint32_t
twow5(const unsigned char *p, int be, const struct skwk5 *k)
{
	__m512i u = _mm512_loadu_si512((const void *)p);
	__m512i n2 = _mm512_loadu_si512((const void *)(p + 4));

	if (be) {
		u = _mm512_shuffle_epi8(u, k->swap);
		n2 = _mm512_shuffle_epi8(n2, k->swap);
	}
	return (uint32_t)(_mm512_cmplt_epu16_mask(u, k->xe0) |
	    trailw5(~(__mmask32)0, n2, k));
}

/*
 * moj_skipw(), thirty-two units a step (skipw5 and twow5), each stop
 * asked of moj_exactw(); the rest as moj_skipw_avx2 does it.
 */
AVX512 size_t
moj_skipw_avx512(const unsigned char *p, size_t n, int be)
{
	struct skwk5 k;
	size_t j = 0;
	uint32_t m;

	skwk5_init(&k);
	for (; j + 68 <= n; j += 64) {
		if ((m = skipw5(p + j, be, &k)) != 0)
			m &= twow5(p + j, be, &k);
		for (; m != 0; m &= m - 1) {
			size_t at = j + 2 * (size_t)__builtin_ctz(m);

			if (moj_exactw(p + at, n - at, 2, be))
				return at;
		}
	}
	return j + moj_skipw_avx2(p + j, n - j, be);
}

/*
 * The "<?" and "<!" of a run of nb blocks of UTF-16 from p[j] of p[0..n)
 * (l and ls as marks_lt_run takes them; be: big-endian, p and j on a
 * unit), less, in each block with some and 82 bytes or more to read, the
 * opens of a comment and of a PI whose target's first unit is not 'x',
 * told by their first four units in vectors, a lane a unit, their kinds
 * into m->ksum; the rest go to marks_harden.  Return ls less the blocks
 * left with none.  After the run's loop, not in it: a branch on each
 * block's marks there missed at random (markup every 220 bytes took 55
 * ms for 300 MB where the scalar kinds took 33).
 */
AVX512 static uint64_t
opens16(const unsigned char *p, size_t n, size_t j, uint64_t *l,
    uint64_t ls, int be, struct marks *m)
{
	int sh = be ? 8 : 0;
	const __m512i lt = _mm512_set1_epi16((short)('<' << sh));
	const __m512i bang = _mm512_set1_epi16((short)('!' << sh));
	const __m512i q = _mm512_set1_epi16((short)('?' << sh));
	const __m512i dash = _mm512_set1_epi16((short)('-' << sh));
	const __m512i x = _mm512_set1_epi16((short)('x' << sh));
	/* a lane a unit: bit 2i of l */
	const uint64_t even = 0x5555555555555555;
	uint32_t cms = 0, pis = 0;
	uint64_t s;

	for (s = ls; s != 0; s = _blsr_u64(s)) {
		unsigned b = (unsigned)_tzcnt_u64(s);
		const unsigned char *r = p + j + (size_t)b * 64;
		__m512i u1, u2;
		uint32_t o, cm, pi;

		if (n - (j + (size_t)b * 64) < 82)
			continue;
		u1 = _mm512_loadu_si512((const void *)(r + 2));
		u2 = _mm512_loadu_si512((const void *)(r + 4));
		o = _mm512_cmpeq_epi16_mask(_mm512_loadu_si512((const void *)r),
		    lt);
		cm = _mm512_mask_cmpeq_epi16_mask(_mm512_mask_cmpeq_epi16_mask(
		    _mm512_mask_cmpeq_epi16_mask(o, u1, bang), u2, dash),
		    _mm512_loadu_si512((const void *)(r + 6)), dash);
		pi = _mm512_mask_cmpeq_epi16_mask(o, u1, q) &
		    ~(uint32_t)_mm512_cmpeq_epi16_mask(u2, x);
		cms |= cm;
		pis |= pi;
		l[b] &= ~_pdep_u64(cm | pi, even);
		ls &= ~((uint64_t)(l[b] == 0) << b);
	}
	m->ksum |= (unsigned)(cms != 0) << MK_COMMENT |
	    (unsigned)(pis != 0) << MK_PI;
	return ls;
}

/*
 * The mojibake marks of a run of UTF-16 from p[j] of p[0..n) (be:
 * big-endian): of each block b whose bit cs has, the units where
 * moj_skipw may stop (st[b], skipw5's, and twow5), each asked of
 * moj_exactw(), into m's list while *mon.  After the run, as run_mj5
 * is: called from its loop, the call took every vector register and the
 * run's own state went to the stack (doc/BENCHMARKS.md).
 */
AVX512 __attribute__((noinline)) static void
run_mjw5(const unsigned char *p, size_t n, size_t j, const uint32_t *st,
    uint64_t cs, int be, const struct skwk5 *k, struct marks *m, int *mon)
{
	for (; cs != 0 && *mon; cs = _blsr_u64(cs)) {
		unsigned b = (unsigned)_tzcnt_u64(cs);
		size_t o = j + (size_t)b * 64;
		uint32_t s;

		for (s = st[b] & twow5(p + o, be, k); s != 0 && *mon;
		    s &= s - 1) {
			size_t at = o + 2 * (size_t)__builtin_ctz(s);

			if (moj_exactw(p + at, n - at, 2, be) &&
			    !mark_add(m->mj, &m->nmj, m->cap, at)) {
				m->mcov = at;
				*mon = 0;
			}
		}
	}
}

/*
 * The first part of marksw() for UTF-16 (be: big-endian) in one pass, 64
 * bytes a step, where the two searches in turn (select.c) call late_find
 * and moj_skipw again at every mark, which markup-heavy text has every
 * few hundred bytes: the "<?" and "<!" as late_find finds them (a '<'
 * byte at the unit's low byte, '?' or '!' a unit on, at any byte) and
 * the units where moj_skipw stops (skipw5, each asked of moj_exactw),
 * into m's lists while *lon and *mon (as marks8_tail's: when one fills,
 * its coverage is set and its flag cleared).  Whole blocks with 4 bytes
 * after them, in runs of up to 64 whose "<?" and "<!" (marks_lt_run, as
 * marks8_avx512's: a branch on each block's missed at random on
 * markup-heavy text) and mojibake marks (run_mjw5) are listed after the
 * run; return where it stopped: every
 * mark before is listed, none after, for the caller to go on with the
 * two searches.
 */
AVX512 size_t
marksw16_avx512(const unsigned char *p, size_t n, int be, struct marks *m,
    int *lon, int *mon)
{
	struct skwk5 k;
	__m512i lt = _mm512_set1_epi8('<'), q = _mm512_set1_epi8('?');
	__m512i x = _mm512_set1_epi8('!');
	size_t j = 0, lo = be ? 1 : 0;	/* a unit's low byte */

	uint64_t l[64], ls, cs;
	uint32_t st[64];
	size_t nb, b;

	skwk5_init(&k);
	__asm__("" : "+v"(lt), "+v"(q), "+v"(x));
	while (j + 68 <= n && (*lon || *mon)) {
		nb = (n - 4 - j) / 64;
		nb = nb > 64 ? 64 : nb;
		for (b = 0, ls = cs = 0; b < nb; b++) {
			const unsigned char *r = p + j + b * 64;
			__m512i a = _mm512_loadu_si512((const void *)(r + lo));
			__m512i c = _mm512_loadu_si512((const void *)(r + lo +
			    2));

			l[b] = ltq5(a, c, lt, q, x);
			ls |= (uint64_t)(l[b] != 0) << b;
			st[b] = skipw5(r, be, &k);
			cs |= (uint64_t)(st[b] != 0) << b;
		}
		if (cs != 0 && *mon)
			run_mjw5(p, n, j, st, cs, be, &k, m, mon);
		if (ls != 0 && *lon && m->hard)
			ls = opens16(p, n, j, l, ls, be, m);
		if (ls != 0 && *lon) {
			marks_lt_run(m, j, l, (unsigned)nb, ls, lon);
			if (m->hard)
				marks_harden(p, n, m, m->nhd);
		}
		j += nb * 64;
	}
	return j;
}

/* The same of 32-bit lanes (trailw5). */
AVX512 __attribute__((always_inline)) static inline __mmask16
trail32_5(__mmask16 in, __m512i x, __m512i x80, __m512i s0, __m512i l1,
    __m512i s1)
{
	return _mm512_mask_cmple_epu32_mask(in, _mm512_sub_epi32(x, x80), s0) |
	    _mm512_mask_cmple_epu32_mask(in, _mm512_sub_epi32(x, l1), s1);
}

/*
 * moj_skip32(), sixteen units a step, the tests of moj_skip32_avx2 in
 * mask registers; the rest as moj_skip32_avx2 does it.
 */
AVX512 size_t
moj_skip32_avx512(const unsigned char *p, size_t n, int be)
{
	__m512i swap = _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6,
	    5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
	__m512i x80 = _mm512_set1_epi32(MOJ_TRAIL0_LO);
	__m512i xc2 = _mm512_set1_epi32(MOJ_LEAD_LO);
	__m512i ffe0 = _mm512_set1_epi32((int)0xFFFFFFE0);
	__m512i sl = _mm512_set1_epi32(MOJ_LEAD_SPAN);
	__m512i l1 = _mm512_set1_epi32(MOJ_TRAIL1_LO);
	__m512i s0 = _mm512_set1_epi32(MOJ_TRAIL0_SPAN);
	__m512i s1 = _mm512_set1_epi32(MOJ_TRAIL1_SPAN);
	__m512i ones = _mm512_set1_epi32(-1);
	__m512i xe0 = _mm512_set1_epi32(0xE0);
	size_t j = 0;

	__asm__("" : "+v"(swap), "+v"(x80), "+v"(xc2), "+v"(ffe0), "+v"(sl),
	    "+v"(l1), "+v"(s0), "+v"(s1), "+v"(ones), "+v"(xe0));
	for (; j + 64 + 8 <= n; j += 64) {
		__m512i u = _mm512_loadu_si512((const void *)(p + j));
		__m512i nx = _mm512_loadu_si512((const void *)(p + j + 4));
		__mmask16 lead;
		uint32_t m;

		if (be) {
			u = _mm512_shuffle_epi8(u, swap);
			nx = _mm512_shuffle_epi8(nx, swap);
		}
		lead = trail32_5(_mm512_cmple_epu32_mask(_mm512_sub_epi32(u,
		    xc2), sl), nx, x80, s0, l1, s1);
		/* a lead of E0..F4 needs a second trail character two
		 * units on (twow5: Czech "náš"); made in every block, it
		 * cost Latin-1 text 5%, where this branch is seldom taken */
		if (lead != 0) {
			nx = _mm512_loadu_si512((const void *)(p + j + 8));
			if (be)
				nx = _mm512_shuffle_epi8(nx, swap);
			lead &= _mm512_cmplt_epu32_mask(u, xe0) |
			    trail32_5(lead, nx, x80, s0, l1, s1);
		}
		m = (uint32_t)(lead | _mm512_cmpeq_epi32_mask(u, ones) |
		    _mm512_cmpeq_epi32_mask(_mm512_and_si512(u, ffe0), x80));
		for (; m != 0; m &= m - 1) {
			size_t at = j + 4 * (size_t)__builtin_ctz(m);

			if (moj_stop32(p + at, n - at, be))
				return at;
		}
	}
	return j + moj_skip32_avx2(p + j, n - j, be);
}
#endif

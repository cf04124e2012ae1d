/*
 * Level avx2, the searches that need no state (avx2.c has the level's
 * table): "<?" and "<!" for late declarations (late.c), the mojibake
 * candidates of UTF-8 and UTF-16 (mojibake.c), and both of UTF-8 in one
 * pass (marks8_avx2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_X86
#include <immintrin.h>

#include "avx2_int.h"
#include "late_run.h"

/* The bytes of a that are '<' (vl) with '?' (vq) or '!' (vb) in next, the
 * vector one unit on: where "<?" and "<!" start. */
/* (Level avx2 alone: late_find_avx2 asks for no more.) */
__attribute__((target("avx2"), always_inline)) static inline __m256i
lt_mask(__m256i a, __m256i next, __m256i vl, __m256i vq, __m256i vb)
{
	return _mm256_and_si256(_mm256_cmpeq_epi8(a, vl), _mm256_or_si256(
	    _mm256_cmpeq_epi8(next, vq), _mm256_cmpeq_epi8(next, vb)));
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
		__m256i m0 = lt_mask(a0, c0, vl, vq, vb);
		__m256i m1 = lt_mask(a1, c1, vl, vq, vb);
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

/* The 64-bit mask of the bytes of a and b (the first 32 in a) that are
 * c. */
__attribute__((target("avx2"), always_inline)) static inline uint64_t
win8_is(__m256i a, __m256i b, char c)
{
	__m256i k = _mm256_set1_epi8(c);

	return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, k)) |
	    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b,
	    k)) << 32;
}

/* The masks of late_run_walk's window: 64 bytes in two vectors. */
__attribute__((target("avx2"), always_inline)) static inline void
win8_avx2(const unsigned char *p, int be, struct late_win *m)
{
	__m256i a = _mm256_loadu_si256((const __m256i *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));

	(void)be;
	m->lt = win8_is(a, b, '<');
	m->q = win8_is(a, b, '?');
	m->x = win8_is(a, b, '!');
	m->d = win8_is(a, b, '-');
	m->g = win8_is(a, b, '>');
	m->r = win8_is(a, b, ']');
}

/* late_run (late_run.h) of 8-bit text; the wider units go the way of
 * every level without it. */
__attribute__((target("avx2")))
size_t
late_run_avx2(const unsigned char *p, size_t n, size_t i, size_t u, int be)
{
	(void)be;
	return u == 1 ? late_run_walk(p, n, i, 1, 0, win8_avx2) : i;
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
 * The pairs of bytes that may begin a trail character (moj_trail8: the
 * UTF-8 of 80..BF, or of windows-1252's 27 at 80..9F), as bits that the
 * first byte's nibbles (moj_lead_hi, moj_lead_lo) and the second's
 * (moj_next_hi, moj_next_lo) must all have: C2 with 80..BF (bit 0); C5
 * with 92, 93 (1), A0, A1 (2), B8, BD, BE (3); C6 92 (4); CB 86 (5), CB
 * 9C (6); E2 with 80, 82 or 84 (7).  A pair is one of them when the four have a bit in common;
 * the first byte's two tables alone say whether it is C2, C5, C6, CB or
 * E2.  The bytes of Latin Extended letters (C4, C5 81..91, C5 94..9F...)
 * have none, so their text costs no look at the exact rule.
 */
const uint8_t moj_lead_hi[16] = {
	[0xC] = 0x7F, [0xE] = 0x80
};
const uint8_t moj_lead_lo[16] = {
	[0x2] = 0x81, [0x5] = 0x0E, [0x6] = 0x10, [0xB] = 0x60
};
const uint8_t moj_next_hi[16] = {
	[0x8] = 0xA1, [0x9] = 0x53, [0xA] = 0x05, [0xB] = 0x09
};
const uint8_t moj_next_lo[16] = {
	0x85, 0x05, 0x93, 0x03, 0x81, 0x01, 0x21, 0x01,
	0x09, 0x01, 0x01, 0x01, 0x41, 0x09, 0x09, 0x01
};

/* The same bits for a whole byte, by its low six bits (level avx512's
 * mask5 looks them up 64 bytes at a time): moj_lead64[x] those of lead
 * byte C0 + x, moj_next64[x] those of continuation byte 80 + x.  Built
 * once from the nibble tables above (moj_tables64, from avx2_init), so
 * that the two tests agree on every pair of bytes. */
uint8_t moj_lead64[64], moj_next64[64];

void
moj_tables64(void)
{
	unsigned x;

	for (x = 0; x < 64; x++) {
		moj_lead64[x] = moj_lead_hi[(0xC0 | x) >> 4] &
		    moj_lead_lo[x & 15];
		moj_next64[x] = moj_next_hi[(0x80 | x) >> 4] &
		    moj_next_lo[x & 15];
	}
}

/* The byte of each low nibble that is C2, C5, C6 or CB, else one with
 * another low nibble. */
const uint8_t moj_lead_is[16] = {
	0x01, 0x02, 0xC2, 0x04, 0x05, 0xC5, 0xC6, 0x08,
	0x09, 0x0A, 0x0B, 0xCB, 0x0D, 0x0E, 0x0F, 0x00
};

/* The constant vectors of moj_first and moj_mask32. */
struct mojk {
	__m256i		 lhi, llo, nhi, nlo, lis, nib, c3, c2, e2, a0, c1, x81,
			 b5;
};

AVX2 static void
mojk_init(struct mojk *k, int c1)
{
	k->lhi = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)moj_lead_hi));
	k->llo = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)moj_lead_lo));
	k->nhi = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)moj_next_hi));
	k->nlo = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)moj_next_lo));
	k->lis = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)moj_lead_is));
	k->nib = _mm256_set1_epi8(0x0F);
	k->e2 = _mm256_set1_epi8((char)0xE2);
	k->c3 = _mm256_set1_epi8((char)0xC3);
	k->c2 = _mm256_set1_epi8((char)0xC2);
	k->a0 = _mm256_set1_epi8((char)0xA0);
	k->c1 = _mm256_set1_epi8(c1 ? -1 : 0);
	k->x81 = _mm256_set1_epi8((char)0x81);
	k->b5 = _mm256_set1_epi8((char)0xB5);
}

/* The bits of the table pair (hi, lo) for the nibbles of v. */
AVX2 __attribute__((always_inline)) static inline __m256i
nib_bits(__m256i v, __m256i hi, __m256i lo, __m256i nib)
{
	return _mm256_and_si256(_mm256_shuffle_epi8(hi, _mm256_and_si256(
	    _mm256_srli_epi16(v, 4), nib)), _mm256_shuffle_epi8(lo,
	    _mm256_and_si256(v, nib)));
}

/*
 * The lanes of v0 (v1, v2: the bytes one and two on) where a candidate
 * may begin, by their first bytes: C3 two bytes before C2, C5, C6, CB or
 * E2, or (k->c1) C2 before 80..9F.  Latin text of every script has few:
 * its letters past ASCII are C3 before ASCII, C3 before C3, C4 or C5
 * beside C3, but a Latin-1 letter two bytes before one of Latin
 * Extended-A that begins C5 is not rare (Polish "ół", Turkish "üş").
 */
AVX2 __attribute__((always_inline)) static inline __m256i
moj_first(__m256i v0, __m256i v1, __m256i v2, const struct mojk *k)
{
	/* C2, C5, C6 and CB are the bytes their low nibble gives in
	 * moj_lead_is (E2 shares C2's) */
	__m256i lead = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(
	    k->lis, _mm256_and_si256(v2, k->nib)), v2),
	    _mm256_cmpeq_epi8(v2, k->e2));
	/* 80..9F: below A0 as signed */
	__m256i ctl = _mm256_and_si256(_mm256_and_si256(k->c1,
	    _mm256_cmpeq_epi8(v0, k->c2)), _mm256_cmpgt_epi8(k->a0, v1));

	return _mm256_or_si256(_mm256_and_si256(lead,
	    _mm256_cmpeq_epi8(v0, k->c3)), ctl);
}

/* moj_first() of the block of 64 at p + i: a and b its halves, a1 and b1
 * the same one byte on. */
AVX2 __attribute__((always_inline)) static inline __m256i
moj_first64(const unsigned char *p, size_t i, __m256i a, __m256i b,
    __m256i a1, __m256i b1, const struct mojk *k)
{
	return _mm256_or_si256(moj_first(a, a1, _mm256_loadu_si256(
	    (const __m256i *)(p + i + 2)), k), moj_first(b, b1,
	    _mm256_loadu_si256((const __m256i *)(p + i + 34)), k));
}

/*
 * The bytes of the 32 at p that may begin a candidate, as a mask: those
 * of moj_first() but a C3 whose trail is not the first two bytes of a
 * trail character (the tables above: C5 81..91 and the other letters of
 * Latin Extended-A that begin C5 are none).  Every candidate of
 * moj_exact8() with 4 bytes after it is in it (not one that the end cuts
 * short: E2 and a continuation, the last bytes).  Reads p[0..35).
 */
AVX2 __attribute__((always_inline)) static inline uint32_t
moj_mask32(const unsigned char *p, const struct mojk *k)
{
	__m256i v0 = _mm256_loadu_si256((const __m256i *)p);
	__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 1));
	__m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 2));
	__m256i v3 = _mm256_loadu_si256((const __m256i *)(p + 3));
	__m256i pair = _mm256_and_si256(nib_bits(v2, k->lhi, k->llo, k->nib),
	    nib_bits(v3, k->nhi, k->nlo, k->nib));
	/* 80..9F: below A0 as signed */
	__m256i ctl = _mm256_and_si256(_mm256_and_si256(k->c1,
	    _mm256_cmpeq_epi8(v0, k->c2)), _mm256_cmpgt_epi8(k->a0, v1));

	return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_andnot_si256(
	    _mm256_cmpeq_epi8(pair, _mm256_setzero_si256()),
	    _mm256_cmpeq_epi8(v0, k->c3)), ctl));
}

/*
 * Of the 64 bytes at p, those that are no C3 or whose C3 may begin a
 * candidate by the lead it gives: 82..B4, and past 9F (a lead of three or
 * four bytes, which needs two trail characters) a byte past ASCII four
 * bytes on.  Slovak "môže" (C3 B4 C5 BE 65) and Czech "píše" pass
 * moj_mask32 and fail here: asked of the masks that are not 0 (made of
 * every block, at level avx512, the test cost Hungarian text a tenth:
 * scan_avx512.c's lead5).  Signed: 82..B4 above 81 and below B5, 80..9F
 * below A0, and the sign bit of the byte four on.  Reads p[0..68).
 */
AVX2 __attribute__((always_inline)) static inline uint64_t
moj_leadok64(const unsigned char *p, const struct mojk *k)
{
	uint64_t ok = 0;
	int h;

	for (h = 0; h < 64; h += 32) {
		__m256i v0 = _mm256_loadu_si256((const __m256i *)(p + h));
		__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + h + 1));
		__m256i v4 = _mm256_loadu_si256((const __m256i *)(p + h + 4));
		__m256i lead = _mm256_and_si256(_mm256_and_si256(
		    _mm256_cmpgt_epi8(v1, k->x81), _mm256_cmpgt_epi8(k->b5,
		    v1)), _mm256_or_si256(_mm256_cmpgt_epi8(k->a0, v1), v4));

		ok |= (uint64_t)(uint32_t)(_mm256_movemask_epi8(lead) |
		    ~_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, k->c3))) << h;
	}
	return ok;
}

/*
 * moj_skip(), 64 bytes at a time when no lines are counted: blocks where
 * no candidate may begin by its first bytes (moj_first: text of every
 * script, Latin Extended included) passed over with one test, one branch
 * a block; in the others the whole mask of moj_mask32 at once, each of
 * its bytes asked of moj_exact8(); the rest, and counting, 32 bytes at a
 * time.
 */
AVX2 size_t
moj_skip_avx2(const unsigned char *p, size_t n, struct mojskip *k)
{
	size_t i = 0;
	struct mojk mk;

	if (k->count)
		return moj_skip_avx2_32(p, n, k);
	mojk_init(&mk, k->c1);
	/* 4 bytes after the block: as marks8_avx2's */
	while (i + 64 + 4 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i c = moj_first64(p, i, a, b, _mm256_loadu_si256(
		    (const __m256i *)(p + i + 1)), _mm256_loadu_si256(
		    (const __m256i *)(p + i + 33)), &mk);
		uint64_t mask;

		if (_mm256_testz_si256(c, c)) {
			i += 64;
			continue;
		}
		mask = (uint64_t)moj_mask32(p + i, &mk) |
		    (uint64_t)moj_mask32(p + i + 32, &mk) << 32;
		if (mask != 0)
			mask &= moj_leadok64(p + i, &mk);
		for (; mask != 0; mask &= mask - 1) {
			size_t at = (size_t)__builtin_ctzll(mask);

			if (moj_exact8(p + i + at, n - i - at, k->c1))
				return i + at;
		}
		i += 64;
	}
	return i + moj_skip_avx2_32(p + i, n - i, k);
}

/*
 * The marks of p[i..n) a byte at a time (the tail of marks8_avx2 and
 * marks8_avx512): *lon and *mon say each list still takes marks, and are
 * cleared, its coverage set, when one fills.
 */
void
marks8_tail(const unsigned char *p, size_t n, size_t i, struct marks *m,
    int *lon, int *mon)
{
	for (; i + 1 < n; i++) {
		if (*lon && p[i] == '<' && (p[i + 1] == '?' || p[i + 1] == '!') &&
		    !mark_add(m->lt, &m->nlt, m->cap, i)) {
			m->lcov = i;
			*lon = 0;
		}
		if (*mon && i + 3 <= n && (p[i] == 0xC2 || p[i] == 0xC3) &&
		    moj_exact8(p + i, n - i, 1) &&
		    !mark_add(m->mj, &m->nmj, m->cap, i)) {
			m->mcov = i;
			*mon = 0;
		}
	}
}

/*
 * The "<?" and "<!" of a run of nb blocks of 64 from i, l[b] those of block b
 * (a bit of ls for each block that has some), into m's list while *lon:
 * marks8_avx2's and level avx512's marks8 and marksw16.  Where the list has
 * room for every bit and four more, each block's first four are stored
 * whether it has them or not (a bit past the last is 64: _tzcnt_u64) and the
 * list moves on by its count, with no branch on how many there are; the rest
 * of a block with more than four, and a list near full, go a mark at a time.
 */
__attribute__((target("avx2,popcnt,bmi"))) void
marks_lt_run(struct marks *m, size_t i, const uint64_t *l, unsigned nb,
    uint64_t ls, int *lon)
{
	uint32_t *o = m->lt + m->nlt;
	unsigned k;

	if (m->cap - m->nlt < (size_t)nb * 64 + 4) {
		for (k = 0; k < nb; k++)
			marks_lt_bits(m, i + (size_t)k * 64, l[k], lon);
		return;
	}
	for (; ls != 0; ls = _blsr_u64(ls)) {
		unsigned b = (unsigned)_tzcnt_u64(ls);
		uint64_t x = l[b];
		uint32_t at = (uint32_t)(i + (size_t)b * 64);
		unsigned cnt = (unsigned)_mm_popcnt_u64(x);

		o[0] = at + (uint32_t)_tzcnt_u64(x);
		x = _blsr_u64(x);
		o[1] = at + (uint32_t)_tzcnt_u64(x);
		x = _blsr_u64(x);
		o[2] = at + (uint32_t)_tzcnt_u64(x);
		x = _blsr_u64(x);
		o[3] = at + (uint32_t)_tzcnt_u64(x);
		x = _blsr_u64(x);
		for (k = 4; x != 0; k++, x = _blsr_u64(x))
			o[k] = at + (uint32_t)_tzcnt_u64(x);
		o += cnt;
	}
	m->nlt = (size_t)(o - m->lt);
}

/* The marks of the block of 64 at p + i, less its first skip bytes: la
 * and lb the "<?" and "<!" of its halves, c where a candidate may begin
 * (moj_first), each list while it takes marks (*lon, *mon: as
 * marks8_tail's). */
AVX2 __attribute__((always_inline)) static inline void
marks8_block(const unsigned char *p, size_t n, size_t i, unsigned skip,
    __m256i la, __m256i lb, __m256i c, const struct mojk *mk,
    struct marks *m, int *lon, int *mon)
{
	__m256i l = _mm256_or_si256(la, lb);
	uint64_t mask, keep = ~(uint64_t)0 << skip;

	if (*lon && !_mm256_testz_si256(l, l)) {
		mask = ((uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32) & keep;
		marks_lt_bits(m, i, mask, lon);
	}
	if (*mon && !_mm256_testz_si256(c, c)) {
		mask = ((uint64_t)moj_mask32(p + i, mk) |
		    (uint64_t)moj_mask32(p + i + 32, mk) << 32) & keep;
		if (mask != 0)
			marks_mj_bits(p, n, m, i, mask &
			    moj_leadok64(p + i, mk), mon);
	}
}

/* The blocks marks8_avx2 takes in one mode before it chooses again; how
 * many of them with a C2 or C3 choose Latin (MK_FIRST), how many of those
 * that pass moj_first choose MK_EXACT, and for how many rounds.  MK_BUSY
 * of 3 against 6, 10 and 0 (MK_EXACT for every Latin round): 6 and 10
 * left Central European and Turkish text 5 to 9% slower, 0 Latin-1 and
 * Vietnamese 7 to 9% (processor time of the command). */
#define MK_ROUND	16
#define MK_LATIN	4
#define MK_BUSY		3
#define MK_STAY		8
enum { MK_ANY, MK_FIRST, MK_EXACT };

/* Blocks of marks8_avx2 from i to stop (MK_ROUND at most) in mode:
 * MK_ANY, candidates sought only in a block with a C2 or C3 (the test of
 * text of every script but Latin); MK_FIRST, text with a C2 or C3 in most
 * blocks, sought in each at once (moj_first), then by moj_mask32 in a
 * block that passes; MK_EXACT, text where MK_BUSY blocks of a round or
 * more pass moj_first (Polish "ół", C3 B3 C5), by moj_mask32 in every
 * block, with no branch on moj_first that would miss at random.  The "<?" and "<!" of all
 * listed at the end (marks_lt_run).  Return where it stopped, with *busy
 * the blocks with a C2 or C3 and *firsts those that passed moj_first. */
AVX2 __attribute__((always_inline)) static inline size_t
marks8_run(const unsigned char *p, size_t n, size_t i, size_t stop,
    int mode, const struct mojk *mk, struct marks *m, int *lon, int *mon,
    unsigned *busy, unsigned *firsts)
{
	const __m256i lt = _mm256_set1_epi8('<'), q = _mm256_set1_epi8('?');
	const __m256i x = _mm256_set1_epi8('!');
	const __m256i c3 = _mm256_set1_epi8((char)0xC3);
	const __m256i o1 = _mm256_set1_epi8(1);
	uint64_t l[MK_ROUND], ls = 0;
	size_t i0 = i;
	unsigned nb = 0;

	for (; i < stop && (*lon || *mon); i += 64, nb++) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i a1 = _mm256_loadu_si256((const __m256i *)(p + i + 1));
		__m256i b1 = _mm256_loadu_si256((const __m256i *)(p + i + 33));
		/* "<?" and "<!" exactly, not every '<': markup has one in
		 * nearly every block. */
		__m256i la = lt_mask(a, a1, lt, q, x);
		__m256i lb = lt_mask(b, b1, lt, q, x);
		__m256i c;
		/* C2 and C3 alike once 01 is set */
		__m256i cc = _mm256_or_si256(_mm256_cmpeq_epi8(
		    _mm256_or_si256(a, o1), c3), _mm256_cmpeq_epi8(
		    _mm256_or_si256(b, o1), c3));

		/* the marks listed after the round, with no branch on
		 * each block's (which missed at random on markup-heavy
		 * text: marks_lt_run) */
		l[nb] = (uint64_t)(uint32_t)_mm256_movemask_epi8(la) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(lb) << 32;
		ls |= (uint64_t)(l[nb] != 0) << nb;
		*busy += !_mm256_testz_si256(cc, cc);
		if (!*mon || (mode == MK_ANY && _mm256_testz_si256(cc, cc)))
			continue;
		if (mode == MK_EXACT) {
			uint64_t mask = (uint64_t)moj_mask32(p + i, mk) |
			    (uint64_t)moj_mask32(p + i + 32, mk) << 32;

			if (mask != 0)
				marks_mj_bits(p, n, m, i, mask &
				    moj_leadok64(p + i, mk), mon);
			continue;
		}
		c = moj_first64(p, i, a, b, a1, b1, mk);
		if (_mm256_testz_si256(c, c))
			continue;
		(*firsts)++;
		marks8_block(p, n, i, 0, _mm256_setzero_si256(),
		    _mm256_setzero_si256(), c, mk, m, lon, mon);
	}
	if (ls != 0 && *lon) {
		marks_lt_run(m, i0, l, nb, ls, lon);
		/* those to lex while their bytes are at hand */
		if (m->hard)
			marks_harden(p, n, m, m->nhd);
	}
	return i;
}

/* The last bytes of marks8_avx2 from i on (i + 68 > n >= 68, i + 4 < n):
 * the block of 64 that ends 4 bytes before n, less what is before i.
 * Return where the bytes left begin (n - 4: a candidate there may be cut
 * short, E2 and a continuation at the end, which moj_mask32 would not
 * take). */
AVX2 static size_t
marks8_end(const unsigned char *p, size_t n, size_t i, const struct mojk *mk,
    struct marks *m, int *lon, int *mon)
{
	const __m256i lt = _mm256_set1_epi8('<'), q = _mm256_set1_epi8('?');
	const __m256i x = _mm256_set1_epi8('!');
	size_t j = n - 68;
	__m256i a = _mm256_loadu_si256((const __m256i *)(p + j));
	__m256i b = _mm256_loadu_si256((const __m256i *)(p + j + 32));
	__m256i a1 = _mm256_loadu_si256((const __m256i *)(p + j + 1));
	__m256i b1 = _mm256_loadu_si256((const __m256i *)(p + j + 33));
	__m256i c = moj_first64(p, j, a, b, a1, b1, mk);

	marks8_block(p, n, j, (unsigned)(i - j), lt_mask(a, a1, lt, q, x),
	    lt_mask(b, b1, lt, q, x), c, mk, m, lon, mon);
	return n - 4;
}

/*
 * marks8() in one pass, 64 bytes at a time: blocks with no "<?", "<!"
 * (the next bytes loaded again) and no byte where a candidate may begin
 * cost one test, one branch.  Where few blocks have a C2 or C3 (markup,
 * and text of every script but Latin) that test is of C2 and C3 alone;
 * where most do (Latin text, Latin Extended included), a second test of
 * C2 and C3 would branch at random, and the test is of where a candidate
 * may begin by its first bytes (moj_first), which Latin letters seldom
 * are; where MK_BUSY blocks of a round or more pass that (Polish "ół",
 * Turkish "üş"), its branch would miss at random too, and the blocks are
 * given to moj_mask32 at once for MK_STAY rounds: on 200 MB of Polish
 * text, a quarter less processor time (doc/BENCHMARKS.md).  The
 * mode is chosen again every MK_ROUND blocks.  In the blocks that fail
 * the test the marks, and the bytes of moj_mask32, each asked of
 * moj_exact8().  What late_find_avx2 and moj_skip_avx2 find in two
 * passes, at the cost of a little more than the second alone.
 */
AVX2 void
marks8_avx2(const unsigned char *p, size_t n, struct marks *m)
{
	size_t i = 0, stop;
	int lon = 1, mon = !m->nomj, mode = MK_ANY, stay = 0;
	struct mojk mk;

	m->nlt = m->nmj = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	m->mcov = n > 2 ? n - 2 : 0;
	mojk_init(&mk, 1);
	/* Blocks of 64 with 4 bytes after them: moj_mask32 reads 3, and a
	 * candidate cut short by the end (moj_exact8) is the tail's. */
	while (i + 64 + 4 <= n && (lon || mon)) {
		unsigned busy = 0, firsts = 0;

		stop = n - 68 - i < (MK_ROUND - 1) * 64 ? n - 67 : i +
		    MK_ROUND * 64;
		if (mode == MK_EXACT)
			i = marks8_run(p, n, i, stop, MK_EXACT, &mk, m, &lon,
			    &mon, &busy, &firsts);
		else if (mode == MK_FIRST)
			i = marks8_run(p, n, i, stop, MK_FIRST, &mk, m, &lon,
			    &mon, &busy, &firsts);
		else
			i = marks8_run(p, n, i, stop, MK_ANY, &mk, m, &lon,
			    &mon, &busy, &firsts);
		if (busy < MK_LATIN)
			mode = MK_ANY;
		else if (mode == MK_EXACT && --stay > 0)
			continue;
		else if (firsts >= MK_BUSY) {
			mode = MK_EXACT;
			stay = MK_STAY;
		} else
			mode = MK_FIRST;
	}
	if (n >= 68 && i + 4 < n && (lon || mon))
		i = marks8_end(p, n, i, &mk, m, &lon, &mon);
	marks8_tail(p, n, i, m, &lon, &mon);
}
#endif

/*
 * Level avx2, validation: plain characters of UTF-16 and UTF-32 counted 32
 * or 64 bytes at a time (avx2.c has the level's table; UTF-8 and
 * single-byte text are plain_avx2.c's).  A unit is a character but the
 * low half of a surrogate pair; the line ends are counted as
 * plain_avx2.c counts them.  The tails shorter than a vector go to the
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
 * Just past the last LF or CR unit of UTF-16 p[from..i) (i - from a
 * multiple of 32; be: big-endian), or from when there is none: searched
 * back 32 bytes at a time, once a run.
 */
AVX2 static size_t
u16_last_eol(const unsigned char *p, size_t from, size_t i, int be,
    const struct u16k *k)
{
	for (; i > from; i -= 32) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + i - 32));
		uint32_t e;

		if (be)
			u = _mm256_shuffle_epi8(u, k->swap);
		e = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_cmpeq_epi16(u, k->lf), _mm256_cmpeq_epi16(u, k->cr)));
		if (e != 0)
			return i - (size_t)__builtin_clz(e);
	}
	return from;
}

/* The characters of UTF-16 p[a..b) (b - a even, its pairs whole): its
 * units but the low halves. */
AVX2 static uint64_t
u16_nchars(const unsigned char *p, size_t a, size_t b, int be,
    const struct u16k *k)
{
	const __m256i dc00 = _mm256_set1_epi16((short)0xDC00);
	uint64_t c = (b - a) / 2;

	for (; a + 32 <= b; a += 32) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(p + a));

		if (be)
			u = _mm256_shuffle_epi8(u, k->swap);
		c -= (uint64_t)__builtin_popcount((uint32_t)
		    _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(u,
		    k->fc00), dc00))) / 2;
	}
	for (; a < b; a += 2)
		c -= (p[a + !be] & 0xFC) == 0xDC;
	return c;
}

/*
 * Plain UTF-16 64 bytes at a time from p[i] on, as u8_pairs: errors asked
 * once a step, line ends by their masks (a CR LF pair without a branch:
 * CR LF text has one in most steps and not in all), and the column (a
 * unit is a character, but the low half of a pair) only at the end,
 * after the last line end.  A surrogate pair is one plain character (RFC
 * 2781 section 2.2): a high half with a low half after it, the two maybe
 * in two steps.  Stop before the first pair of blocks with a unit that is
 * no plain character but CR, or with a lone half; and before a high half
 * whose low half is not taken.
 */
__attribute__((target("avx2,popcnt"), always_inline))
static inline size_t
u16_pairs(const unsigned char *p, size_t n, size_t i, int be,
    const struct u16k *k, uint32_t *carry, uint64_t *lines, uint64_t *col)
{
	const uint64_t ev = 0x5555555555555555ull;	/* a bit a unit */
	const size_t from = i;
	uint64_t cr = *carry;
	uint64_t hc = 0;	/* the step before ended with a high half */
	size_t ls;

	while (i + 64 <= n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
		__m256i ea, eb, ra, rb, ba, bb, sa, sb;
		uint64_t r, m;

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

			if ((s & ~h) != (h << 2 | hc))
				break;
			hc = h >> 62;
		}
		r = ((uint64_t)(uint32_t)_mm256_movemask_epi8(ra) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(rb) << 32) & ev;
		m = ((uint64_t)(uint32_t)_mm256_movemask_epi8(ea) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(eb) << 32) & ev;
		m = crlf_ends(m, r, 2, &cr);
		*lines += (uint64_t)__builtin_popcountll(m);
		i += 64;
	}
	if (i == from)
		return i;
	*carry = (uint32_t)cr;
	/* The column: after the last CR or LF (of a CR LF pair, the LF,
	 * which takes none), else on from where it was.  (Before the high
	 * half left for the next run: no line end.) */
	ls = u16_last_eol(p, from, i, be, k);
	if (hc != 0)
		i -= 2;
	if (ls > from)
		*col = 1 + u16_nchars(p, ls, i, be, k);
	else
		*col += u16_nchars(p, from, i, be, k);
	return i;
}

__attribute__((target("avx2")))
size_t
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
#endif

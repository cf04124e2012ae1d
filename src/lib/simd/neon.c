/*
 * Level neon (little-endian AArch64, where Advanced SIMD is always
 * there): UTF-8 validation by the lookup method of the AVX2 kernel,
 * UTF-16 validation, the search for late declarations and the mojibake
 * scan of UTF-8, 16 bytes at a time.  The rest is word.c's.
 */
#include <stdint.h>
#include <stdlib.h>

#include "kernels.h"
#include "simd.h"

#ifdef HAVE_NEON
#include <arm_neon.h>

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
	const uint8x16_t t1h = vld1q_u8((const uint8_t *)utf8_lane[0]);
	const uint8x16_t t1l = vld1q_u8((const uint8_t *)utf8_lane[1]);
	const uint8x16_t t2h = vld1q_u8((const uint8_t *)utf8_lane[2]);
	const uint8x16_t lf = vdupq_n_u8('\n'), tab = vdupq_n_u8('\t');
	const uint8x16_t cr = vdupq_n_u8('\r');
	uint8x16_t prev = vdupq_n_u8(0);
	size_t i = 0;
	uint32_t carry = 0;	/* the byte before block i is CR */
	int ascii_prev = 1;

	while (i + 16 <= n) {
		uint8x16_t v = vld1q_u8(p + i);
		uint8x16_t eol = vceqq_u8(v, lf), vcr = vceqq_u8(v, cr);
		/* Controls other than TAB, LF and CR end the run. */
		uint8x16_t ctl = vbicq_u8(vcltq_u8(v, vdupq_n_u8(0x20)),
		    vorrq_u8(vorrq_u8(eol, vcr), vceqq_u8(v, tab)));
		uint32_t nl = neon_mask8(eol), r = neon_mask8(vcr), lead;

		if (ascii_prev && vmaxvq_u8(v) < 0x80) {
			if (vmaxvq_u8(ctl) != 0)
				break;
			count_block_cr(nl, r, 0xFFFFu, 1, 15, &carry, lines,
			    col);
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
			count_block_cr(nl, r, lead, 1, 15, &carry, lines,
			    col);
		}
		ascii_prev = p[i + 15] < 0x80 && p[i + 14] < 0x80 &&
		    p[i + 13] < 0x80;
		prev = v;
		i += 16;
	}
	return plain_utf8_rest(p, n, i, lines, col);
}

/* Advanced SIMD: eight UTF-16 units at a time. */
static size_t
plain_utf16_neon(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	const uint16x8_t lf = vdupq_n_u16('\n'), tab = vdupq_n_u16('\t');
	const uint16x8_t cr = vdupq_n_u16('\r');
	size_t i = 0;
	uint32_t carry = 0;	/* the unit before block i is CR */

	while (i + 16 <= n) {
		uint8x16_t b = vld1q_u8(p + i);
		uint16x8_t u, eol, ucr, bad;

		if (be)
			b = vrev16q_u8(b);
		u = vreinterpretq_u16_u8(b);
		eol = vceqq_u16(u, lf);
		ucr = vceqq_u16(u, cr);
		bad = vbicq_u16(vcltq_u16(u, vdupq_n_u16(0x20)),
		    vorrq_u16(vorrq_u16(eol, ucr), vceqq_u16(u, tab)));
		bad = vorrq_u16(bad, vceqq_u16(vandq_u16(u,
		    vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800)));
		bad = vorrq_u16(bad, vcgeq_u16(u, vdupq_n_u16(0xFFFE)));
		if (vmaxvq_u16(bad) != 0)
			break;
		count_block_cr(neon_mask16(eol), neon_mask16(ucr), 0xFFu, 1, 7,
		    &carry, lines, col);
		i += 16;
	}
	return plain_utf16_rest(p, n, i, be, lines, col);
}

/* late_find, 16 bytes at a time (sse2.c's test); the rest as word.c
 * does it. */
static size_t
late_find_neon(const struct late *lt, const unsigned char *p, size_t n,
    size_t i)
{
	size_t step = lt->usz;
	const unsigned char *b;
	uint8x16_t vl = vdupq_n_u8(lt->lt_byte);
	uint8x16_t vq = vdupq_n_u8(lt->q_byte);
	uint8x16_t vb = vdupq_n_u8(lt->bang_byte);

	for (; i + lt->lt_at + step + 16 <= n; i += 16) {
		uint8x16_t a, c, m;

		b = p + i + lt->lt_at;
		a = vld1q_u8(b);
		c = vld1q_u8(b + step);
		m = vandq_u8(vceqq_u8(a, vl), vorrq_u8(vceqq_u8(c, vq),
		    vceqq_u8(c, vb)));
		/* one test a block: "<?" and "<!" are rare */
		if (vmaxvq_u8(m) != 0)
			return i + (size_t)__builtin_ctz(neon_mask8(m));
	}
	return late_find_word(lt, p, n, i);
}

/* The vector operations MOJ_SKIP_BODY (simd.h) is written in. */
#define NLOAD(x)	vld1q_u8((const uint8_t *)(x))
#define NSET1(x)	vdupq_n_u8((uint8_t)(x))
#define NLT(a, b)	vcltq_s8(vreinterpretq_s8_u8(a),		\
			    vreinterpretq_s8_u8(b))

/* moj_skip(), sixteen bytes at a time. */
static size_t
moj_skip_neon(const unsigned char *p, size_t n, struct mojskip *k)
{
	MOJ_SKIP_BODY(16, uint8x16_t, NLOAD, NSET1, vandq_u8, vorrq_u8,
	    vceqq_u8, NLT, neon_mask8, (unsigned)__builtin_popcount)
}

static int
neon_usable(void)
{
	return 1;
}

const struct kernels kernels_neon = {
	.name = "neon",
	.usable = neon_usable,
	.plain_utf8 = plain_utf8_neon,
	.plain_utf16 = plain_utf16_neon,
	.plain_utf32 = plain_utf32_word,
	.plain_sb = plain_sb_word,
	.conv = conv_word,
	.find32 = find32_word,
	.late_find = late_find_neon,
	.moj_skip = moj_skip_neon,
};
#else
const struct kernels kernels_neon = { .name = "neon" };
#endif

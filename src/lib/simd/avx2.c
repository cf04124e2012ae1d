/*
 * Level avx2 (x86-64; each function compiled for AVX2, which is asked of
 * the processor at run time): every kernel 32 bytes at a time, in one
 * file per family of kernels,
 *
 *	plain_avx2.c	validation of UTF-8 and single-byte text
 *	plainw_avx2.c	validation of UTF-16 and UTF-32
 *	dense_avx2.c	error-dense text counted a block at a time
 *	narrow_avx2.c	conversions to UTF-8
 *	wide_avx2.c	conversions from UTF-8 to UTF-16 and UTF-32, and
 *			between those
 *	scan_avx2.c	the searches for late declarations and mojibake
 *
 * and here the level's table, the question whether the processor runs it,
 * and the tables its conversions build once.
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

#include "avx2_int.h"

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
	static atomic_int known = -1;	/* asked once; racing threads
					 * find the same answer */
	unsigned a, b, c, d;

	if (known >= 0)
		return known;
	/* AVX implies XSAVE and its leaf 13, so leaf 7 exists.  With
	 * POPCNT (leaf 1's ECX bit 23) and BMI1 (leaf 7's EBX bit 3), which
	 * the level's functions are compiled for too. */
	__cpuid(1, a, b, c, d);
	known = 0;
	if ((c & (1u << 23 | 1u << 27 | 1u << 28)) != (1u << 23 | 1u << 27 |
	    1u << 28) || (_xgetbv(0) & 6) != 6)
		return known;
	__cpuid_count(7, 0, a, b, c, d);
	known = (b & (1u << 3 | 1u << 5)) == (1u << 3 | 1u << 5);
	return known;
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void
build_tables(void)
{
	narrow_avx2_tables();
	wide_avx2_tables();
	moj_tables64();
}

/* Build the packing tables of the conversions, once whatever the threads. */
void
avx2_init(void)
{
	(void)pthread_once(&tables_once, build_tables);
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
	.late_run = late_run_avx2,
	.moj_skip = moj_skip_avx2,
	.moj_skipw = moj_skipw_avx2,
	.moj_skip32 = moj_skip32_avx2,
	.marks8 = marks8_avx2,
	.dense_utf8 = dense_utf8_avx2,
	.dense_utf16 = dense_utf16_avx2,
	.dense_utf32 = dense_utf32_avx2,
};
#else
const struct kernels kernels_avx2 = { .name = "avx2" };
#endif


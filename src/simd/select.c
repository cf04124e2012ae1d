/*
 * The one choice of kernels for a run: the instruction set that the fast
 * paths (validation, conversion between the Unicode forms, the search for
 * late declarations) use.  It is made once, from the value main() passes
 * (the environment variable XMLSNIFF_SIMD, see the man page), or by the unit
 * driver and the fuzz targets, which compare the kernels.  Every kernel
 * gives the same answers; only the speed differs.
 */
#include <string.h>

#include "../xmlsniff.h"

static const char *const names[] = {
	[SIMD_REF] = "ref", [SIMD_NONE] = "none", [SIMD_SSE2] = "sse2",
	[SIMD_AVX2] = "avx2", [SIMD_NEON] = "neon",
};

static int chosen = -1;

/* Whether this machine (and this build) can run level l. */
static int
simd_has(enum simd l)
{
	switch (l) {
	case SIMD_REF:
	case SIMD_NONE:
		return 1;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	case SIMD_SSE2:
		return 1;
	case SIMD_AVX2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2") != 0;
#endif
#if defined(__aarch64__) && !defined(__ARM_BIG_ENDIAN) && \
    (defined(__GNUC__) || defined(__clang__))
	case SIMD_NEON:		/* fast.c's condition for its NEON kernels */
		return 1;
#endif
	default:
		return 0;
	}
}

/* The fastest level this machine has. */
static enum simd
simd_best(void)
{
	if (simd_has(SIMD_AVX2))
		return SIMD_AVX2;
	if (simd_has(SIMD_SSE2))
		return SIMD_SSE2;
	if (simd_has(SIMD_NEON))
		return SIMD_NEON;
	return SIMD_NONE;
}

/*
 * Choose the kernels named by name (NULL or empty: the fastest this machine
 * has).  A level the machine lacks means the portable one, none.  Return -1,
 * choosing nothing, for a name that is no level.
 */
int
simd_init(const char *name)
{
	enum simd l = simd_best();
	size_t i;

	if (name != NULL && *name != '\0') {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(name, names[i]) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return -1;
		l = simd_has((enum simd)i) ? (enum simd)i : SIMD_NONE;
	}
	simd_set(l);
	return 0;
}

/* Use level l (one the machine has) from now on. */
void
simd_set(enum simd l)
{
	chosen = (int)l;
	plain_select(l);
	conv_select(l);
	val_char_only = l == SIMD_REF;
}

/* The level in use: the fastest, if none was chosen. */
enum simd
simd_level(void)
{
	if (chosen < 0)
		simd_set(simd_best());
	return (enum simd)chosen;
}

/* The name of level l, for messages. */
const char *
simd_name(enum simd l)
{
	return names[l];
}

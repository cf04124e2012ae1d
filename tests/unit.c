/*
 * Unit tests for the detection core: the branches that the command line
 * cannot reach one at a time.  No framework: CHECK() counts, prints each
 * failure as "unit: FILE:LINE: failed: EXPR", and main() ends with
 * "N passed, M failed" and a non-zero exit status when anything failed.
 * The tests are in files by subject (tests/unit_*.c, tests/api.c, the
 * kernel sweeps in tests/kern_*.c); tests/unit.h names each one's entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "simd.h"
#include "unit.h"

static unsigned long npass, nfail;

/*
 * Every table of kernels that simd_init() takes, the reference first.  The
 * sweeps compare those this machine runs, and none, the portable one: a
 * level the machine lacks falls back to none (select.c): sweeping it
 * would compare the same table again, a third of the sweeps' time on a
 * machine with neither AVX-512 nor NEON.
 */
static const struct kernels *const all_levels[] = {
	&kernels_ref, &kernels_avx512, &kernels_avx2, &kernels_sse2,
	&kernels_neon, &kernels_word
};
const char *unit_levels[NELEM(all_levels)];
int unit_nlevels;

/* Fill unit_levels, and say which levels are swept as none. */
static void
pick_levels(void)
{
	const struct kernels *k;
	size_t i;
	int lacks = 0;

	for (i = 0; i < NELEM(all_levels); i++) {
		k = all_levels[i];
		if (k == &kernels_ref || k == &kernels_word ||
		    (k->usable != NULL && k->usable()))
			unit_levels[unit_nlevels++] = k->name;
		else {
			printf("%s%s", lacks++ ? ", " : "unit: levels ",
			    k->name);
		}
	}
	if (lacks > 0)
		printf(": not on this machine (simd_init() gives none"
		    " there), not swept twice\n");
}

/*
 * On x86-64 Linux, the levels whose CPUID test passes are those whose
 * features /proc/cpuinfo lists (their vector instructions, and BMI1 and
 * POPCNT, which their functions are compiled for too; AVX-512's BMI2),
 * and no others.  Not under valgrind (UNIT_SWEEPS=no), whose CPUID hides
 * AVX-512.
 */
static void
levels_cpuinfo(void)
{
#if defined(__x86_64__) && defined(__linux__)
	static const char *const want[][9] = {
		{ "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "bmi1",
		    "bmi2", "popcnt", "avx2", NULL },
		{ "avx2", "bmi1", "popcnt", NULL }
	};
	const struct kernels *k[] = { &kernels_avx512, &kernels_avx2 };
	char line[8192], flag[64];
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t i, j;
	int has;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "flags", 5) == 0)
			break;
	fclose(f);
	if (strncmp(line, "flags", 5) != 0)
		return;
	line[strcspn(line, "\n")] = ' ';
	for (i = 0; i < NELEM(k); i++) {
		for (has = 1, j = 0; want[i][j] != NULL; j++) {
			snprintf(flag, sizeof(flag), " %s ", want[i][j]);
			has &= strstr(line, flag) != NULL;
		}
		if (!CHECK(k[i]->usable() == has))
			printf("  (%s: /proc/cpuinfo says %d)\n", k[i]->name,
			    has);
	}
#endif
}

int
check(int ok, const char *file, int line, const char *expr)
{
	if (ok)
		npass++;
	else {
		nfail++;
		printf("unit: %s:%d: failed: %s\n", file, line, expr);
	}
	return ok;
}

int
main(void)
{
	int sweeps;

	pick_levels();
	simd_init(NULL);
	unit_repo_norm();
	unit_sniff();
	unit_decl();
	unit_enc();
	unit_diag();
	unit_suggest();
	unit_not_xml();
	unit_guess();
	unit_utf();
	unit_stream();
	unit_conv();
	unit_xlex();
	unit_api();
	unit_api_keep();
	kern_ahead();
	/* UNIT_SWEEPS=no: the kernel sweeps are left out (CI's valgrind
	 * run, where they would take many minutes; the ASan, TSan, qemu
	 * and native runs have them), and the last line says so. */
	sweeps = getenv("UNIT_SWEEPS") == NULL ||
	    strcmp(getenv("UNIT_SWEEPS"), "no") != 0;
	if (sweeps) {
		levels_cpuinfo();
		kern_fastpath();
		kern_dense();
		kern_mapped();
		simd_init(NULL);
	}
	printf("%lu passed, %lu failed%s\n", npass, nfail, sweeps ? "" :
	    " (UNIT_SWEEPS=no: without the kernel sweeps)");
	return nfail > 0;
}

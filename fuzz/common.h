/* Shared by the fuzz targets: quiet standard output and choose the
 * kernels, once.  Included after xmlsniff.h. */
#include <stdio.h>

static void
fuzz_quiet(void)
{
	static int done;

	if (!done) {
		done = 1;
		simd_init(NULL);	/* the kernels, chosen once */
		if (freopen("/dev/null", "w", stdout) == NULL)
			perror("freopen");
	}
}

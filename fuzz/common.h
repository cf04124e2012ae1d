/* Shared by the fuzz targets: quiet standard output once. */
#include <stdio.h>

static void
fuzz_quiet(void)
{
	static int done;

	if (!done) {
		done = 1;
		if (freopen("/dev/null", "w", stdout) == NULL)
			perror("freopen");
	}
}

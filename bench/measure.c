/*
 * measure RUNS CMD [ARG...]: run CMD RUNS times with standard output and
 * standard error to /dev/null; print the median wall-clock seconds and the largest peak RSS
 * (KiB) of the command and its descendants.  Used by bench/run.
 */
#define _DEFAULT_SOURCE
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char *argv[])
{
	int runs, i, st;
	double t[64];
	long maxrss = 0;

	if (argc < 3 || (runs = atoi(argv[1])) < 1 || runs > 64) {
		fputs("usage: measure RUNS CMD [ARG...]\n", stderr);
		return 2;
	}
	for (i = 0; i < runs; i++) {
		struct timespec a, b;
		struct rusage ru;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &a);
		if ((pid = fork()) == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			dup2(fd, 2);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) {
			perror("measure");
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
			fprintf(stderr, "measure: cannot run %s\n", argv[2]);
			return 2;
		}
		t[i] = (double)(b.tv_sec - a.tv_sec) +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		getrusage(RUSAGE_CHILDREN, &ru);
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	qsort(t, (size_t)runs, sizeof(t[0]), cmp);
	printf("%.6f %ld\n", t[runs / 2], maxrss);
	return 0;
}

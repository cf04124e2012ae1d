/*
 * measure RUNS CMD [ARG...] [::: CMD [ARG...]]...: run each CMD RUNS
 * times with standard output and standard error to /dev/null, the
 * commands in turn (the first, the second..., then the first again), so
 * that a stretch of a shared machine's slowness falls on each of them
 * alike; print a line for each command, in order: its median wall-clock
 * seconds and the largest peak RSS (KiB) of its runs and their
 * descendants.  Used by bench/run.
 */
#define _DEFAULT_SOURCE
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXRUNS	256
#define MAXCMDS	8

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
refuse(void)
{
	fprintf(stderr, "measure: an empty command, or more than %d\n",
	    MAXCMDS);
	return 2;
}

/* Run argv once: its seconds into *t, its peak RSS (KiB) into *rss;
 * 0, or -1 when it could not be run (said on standard error). */
static int
once(char *argv[], double *t, long *rss)
{
	struct timespec a, b;
	struct rusage ru;
	pid_t pid;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &a);
	if ((pid = fork()) == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) {
		perror("measure");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		fprintf(stderr, "measure: cannot run %s\n", argv[0]);
		return -1;
	}
	*t = (double)(b.tv_sec - a.tv_sec) +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	/* wait4's usage is the child's with the descendants it waited for */
	*rss = ru.ru_maxrss;
	return 0;
}

int
main(int argc, char *argv[])
{
	static double t[MAXCMDS][MAXRUNS];
	char **cmd[MAXCMDS];
	long maxrss[MAXCMDS] = { 0 }, rss;
	int runs, ncmd = 0, i, c;

	if (argc < 3 || (runs = atoi(argv[1])) < 1 || runs > MAXRUNS) {
		fputs("usage: measure RUNS CMD [ARG...] [::: CMD [ARG...]]...\n",
		    stderr);
		return 2;
	}
	/* the commands: argv from 2 on, cut at each ":::" (one at the end
	 * leaves argv[argc], NULL: an empty command) */
	cmd[ncmd++] = argv + 2;
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], ":::") != 0)
			continue;
		argv[i] = NULL;
		if (ncmd == MAXCMDS)
			return refuse();
		cmd[ncmd++] = argv + i + 1;
	}
	for (c = 0; c < ncmd; c++)
		if (cmd[c][0] == NULL)
			return refuse();
	for (i = 0; i < runs; i++)
		for (c = 0; c < ncmd; c++) {
			if (once(cmd[c], &t[c][i], &rss) != 0)
				return 2;
			if (rss > maxrss[c])
				maxrss[c] = rss;
		}
	for (c = 0; c < ncmd; c++) {
		qsort(t[c], (size_t)runs, sizeof(t[c][0]), cmp);
		printf("%.6f %ld\n", t[c][runs / 2], maxrss[c]);
	}
	return 0;
}

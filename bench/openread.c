/*
 * openread LIST N: open, fstat, read and close each file LIST names (a
 * file of names each ended by a NUL, as --files0-from takes), the four
 * calls xmlsniff -r makes for a small file, in N processes at once, each
 * the next share of the names; exit 0, or 1 when a file could not be
 * read whole, 2 on a usage or list error.  bench/run times N=1 against
 * N=2: how far the kernel's part of the tree's work scales with the
 * processors here, which bounds what -j can gain (doc/BENCHMARKS.md).
 * cat is no measure of it: GNU cat maps a fresh buffer for each file,
 * so two of them spend their time in page faults.
 */
#define _DEFAULT_SOURCE
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[1 << 20];

/* Open and read the names numbered from..to (from counted, to not) of
 * list p[0..len); return 0, or 1 when one could not be read. */
static int
share(const char *p, size_t len, long from, long to)
{
	long i = 0;
	size_t at = 0;
	int bad = 0;

	while (at < len && i < to) {
		const char *name = p + at;
		size_t nlen = strnlen(name, len - at);
		struct stat st;
		int fd;

		at += nlen + 1;
		if (i++ < from)
			continue;
		if ((fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)) < 0) {
			bad = 1;
			continue;
		}
		if (fstat(fd, &st) < 0 || st.st_size >= (off_t)sizeof(buf) ||
		    read(fd, buf, (size_t)st.st_size + 1) != st.st_size)
			bad = 1;
		close(fd);
	}
	return bad;
}

int
main(int argc, char *argv[])
{
	static char list[16 << 20];
	long n, names = 0, k;
	size_t len = 0, i;
	ssize_t r;
	int fd, st, bad = 0;

	if (argc != 3 || (n = atol(argv[2])) < 1 || n > 64) {
		fprintf(stderr, "usage: openread LIST N (1 to 64)\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0) {
		perror(argv[1]);
		return 2;
	}
	while ((r = read(fd, list + len, sizeof(list) - len)) > 0)
		len += (size_t)r;
	close(fd);
	if (r < 0 || len == sizeof(list)) {
		fprintf(stderr, "openread: %s: cannot read it whole\n", argv[1]);
		return 2;
	}
	for (i = 0; i < len; i++)
		names += list[i] == '\0';
	for (k = 1; k < n; k++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (pid == 0)
			_exit(share(list, len, names * k / n,
			    names * (k + 1) / n));
	}
	bad = share(list, len, 0, names / n);
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			bad = 1;
	return bad;
}

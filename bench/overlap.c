/*
 * bench/overlap.c: whether a second thread that reads pays on this
 * machine (issue 27: "I/O overlapped with work where it pays: measure").
 * The validator's two passes over UTF-8 (plain_utf8, marks8) run over a
 * file read in pieces of 320 KB, as xmlsniff reads it, in three ways:
 *
 *   one	one thread reads each piece and runs both passes on it, as
 *		xmlsniff does by default;
 *   copy	a second thread reads the pieces into a ring of slots, and
 *		the first runs both passes on each;
 *   split	the second thread reads each piece and runs marks8 on it
 *		while its bytes are in that core's cache; the first runs
 *		plain_utf8.
 *
 * usage: overlap [-r RUNS] [-s SLOTS] FILE...	(bench/overlap builds it)
 *
 * RUNS is 1 to 101 (default 11), SLOTS 2 to 64 (default 4, as
 * src/lib/decode/ahead.c has).
 * The threads wait for each other by spinning on two counters (the
 * pieces read, the pieces done), which costs nothing while both cores
 * are this program's.  Prints, per file and way, the median wall time of
 * RUNS runs (default 11) in ms and the ratio to "one"; the files should
 * be in the page cache (run it twice).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernels.h"

#define PIECE	(320u << 10)
#define MAXSLOT	64
#define NMARK	4096

enum way { ONE, COPY, SPLIT, NWAY };

struct slot {
	unsigned char	*p;
	size_t		 n;
	uint32_t	 lt[NMARK], mj[NMARK];
	size_t		 nlt, nmj;
};

struct ring {
	int		 fd;
	enum way	 way;
	size_t		 nslot;
	struct slot	*s;
	_Atomic size_t	 filled, done;
	int		 err;
};

static volatile uint64_t sink;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The two passes, or one of them, over a piece; what they found goes to
 * sink, so that neither is left out. */
static void
passes(struct slot *s, int plain, int marks)
{
	uint64_t lines = 1, col = 1;
	struct marks m;

	if (plain)
		sink += plain_utf8(s->p, s->n, &lines, &col) + lines + col;
	if (marks) {
		m.lt = s->lt;
		m.mj = s->mj;
		m.cap = NMARK;
		m.hard = 0;
		marks8(s->p, s->n, &m);
		s->nlt = m.nlt;
		s->nmj = m.nmj;
	}
	sink += s->nlt + s->nmj;
}

/* Read the next piece into s; 0 at the end. */
static size_t
fill(int fd, struct slot *s, int *err)
{
	size_t got = 0;
	ssize_t r;

	while (got < PIECE) {
		r = read(fd, s->p + got, PIECE - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			*err = errno;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	s->n = got;
	return got;
}

static void *
reader(void *arg)
{
	struct ring *r = arg;
	size_t k = 0;
	struct slot *s;

	for (;;) {
		while (k - atomic_load_explicit(&r->done,
		    memory_order_acquire) >= r->nslot)
			;
		s = &r->s[k % r->nslot];
		if (fill(r->fd, s, &r->err) > 0 && r->way == SPLIT)
			passes(s, 0, 1);
		atomic_store_explicit(&r->filled, k + 1, memory_order_release);
		if (s->n == 0)
			return NULL;
		k++;
	}
}

/* One run of way over the file at path: its wall time in seconds, or
 * -1. */
static double
run(const char *path, enum way way, size_t nslot, struct slot *slots)
{
	struct ring r = { .way = way, .nslot = nslot, .s = slots };
	pthread_t t;
	size_t k = 0;
	struct slot *s;
	double t0 = now();

	if ((r.fd = open(path, O_RDONLY)) < 0)
		return -1;
	if (way == ONE) {
		while (fill(r.fd, &slots[0], &r.err) > 0)
			passes(&slots[0], 1, 1);
	} else {
		if (pthread_create(&t, NULL, reader, &r) != 0) {
			close(r.fd);
			return -1;
		}
		for (;;) {
			while (atomic_load_explicit(&r.filled,
			    memory_order_acquire) == k)
				;
			s = &slots[k % nslot];
			if (s->n == 0)
				break;
			passes(s, 1, way == COPY);
			atomic_store_explicit(&r.done, ++k,
			    memory_order_release);
		}
		pthread_join(t, NULL);
	}
	close(r.fd);
	return r.err != 0 ? -1 : now() - t0;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
usage(void)
{
	fputs("usage: overlap [-r RUNS] [-s SLOTS] FILE...\n", stderr);
	exit(2);
}

/* The number s, lo to hi, or usage(). */
static long
number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		usage();
	return v;
}

int
main(int argc, char *argv[])
{
	struct slot *slots;
	double t[NWAY][101], med[NWAY];
	size_t nslot = 4, k;
	int runs = 11, c, f, w, i, status = 0;

	while ((c = getopt(argc, argv, "r:s:")) != -1) {
		switch (c) {
		case 'r':
			runs = (int)number(optarg, 1, 101);
			break;
		case 's':
			nslot = (size_t)number(optarg, 2, MAXSLOT);
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		usage();
	for (f = optind; f < argc; f++)
		if ((c = open(argv[f], O_RDONLY)) < 0) {
			fprintf(stderr, "overlap: %s: %s\n", argv[f],
			    strerror(errno));
			return 1;
		} else
			close(c);
	if ((slots = calloc(nslot, sizeof(*slots))) == NULL)
		return 1;
	for (k = 0; k < nslot; k++)
		if (posix_memalign((void **)&slots[k].p, 4096, PIECE) != 0) {
			status = 1;
			goto out;
		}
	printf("pieces of %u KB, %zu slots, medians of %d runs, ms\n",
	    PIECE >> 10, nslot, runs);
	printf("%-28s %8s %8s %8s\n", "file", "one", "copy", "split");
	for (f = optind; f < argc; f++) {
		/* the ways in turn, so that the machine's moods fall on
		 * each alike */
		for (i = 0; i < runs; i++)
			for (w = 0; w < NWAY; w++)
				if ((t[w][i] = run(argv[f], (enum way)w, nslot,
				    slots)) < 0) {
					fprintf(stderr, "overlap: %s: cannot "
					    "read it\n", argv[f]);
					status = 1;
					goto out;
				}
		for (w = 0; w < NWAY; w++) {
			qsort(t[w], (size_t)runs, sizeof(t[w][0]), cmp);
			med[w] = t[w][runs / 2];
		}
		printf("%-28s %8.1f %8.1f %8.1f   x%.2f x%.2f\n", argv[f],
		    med[ONE] * 1e3, med[COPY] * 1e3, med[SPLIT] * 1e3,
		    med[ONE] / med[COPY], med[ONE] / med[SPLIT]);
	}
out:
	for (k = 0; k < nslot; k++)
		free(slots[k].p);
	free(slots);
	return status;
}

/*
 * bench/lib.c: the library's own benchmark (issue 24, Speed): many small
 * documents through the one-call form, xmlsniff_check_buffer, on one
 * thread, and what each call costs beyond validating its bytes.
 *
 * usage: lib [-s SECONDS] [-r RUNS] [-n DOCS]
 *
 * For each shape (ascii: markup and ASCII text; utf8: the same with one
 * character in five beyond ASCII, Latin and CJK) and size (1 KB, 4 KB,
 * 64 KB), DOCS different documents of exactly that size, all valid
 * UTF-8 XML with a declaration, are checked in turn for SECONDS, RUNS
 * times; the median run gives documents per second.  The time to
 * validate the bytes alone is measured on one document of 16 MB of the
 * same shape, checked in one call: its time per byte times the size is
 * what a small document's bytes cost, and the rest of the time per call
 * is the per-call overhead (creating the checker, sniffing, the result).
 * "+json" is what asking for the record as JSON adds to a call.  Times
 * are this thread's CPU time, so that other work on the machine does
 * not count; the wall-clock time is printed at the end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xmlsniff.h>

#define BIG	(16u << 20)

static const size_t sizes[] = { 1024, 4096, 65536 };
static const char *const shapes[] = { "ascii", "utf8" };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))
#define NSHAPES	(sizeof(shapes) / sizeof(shapes[0]))

static double	seconds = 1.0;
static int	runs = 5, ndocs = 64;
static xmlsniff_options *opts;

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double
now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One character of text of the shape into p (room for 4 bytes); its
 * length. */
static size_t
textchar(unsigned char *p, int utf8, uint64_t *s)
{
	unsigned c;

	if (!utf8 || rnd(s) % 5 != 0) {
		p[0] = "etaoin shrdlu cmfwyp vbgkqjxz ETAOIN,."[rnd(s) % 38];
		return 1;
	}
	if (rnd(s) % 2) {
		c = 0xe0 + rnd(s) % 0x20;		/* Latin-1 letters */
		p[0] = 0xc0 | c >> 6;
		p[1] = 0x80 | (c & 0x3f);
		return 2;
	}
	c = 0x4e00 + rnd(s) % 0x5000;			/* CJK */
	p[0] = 0xe0 | c >> 12;
	p[1] = 0x80 | (c >> 6 & 0x3f);
	p[2] = 0x80 | (c & 0x3f);
	return 3;
}

/* A document of exactly size bytes: the declaration, elements of text
 * on lines of about 70, the end tag, spaces to make up the size. */
static unsigned char *
document(size_t size, int utf8, uint64_t *s)
{
	static const char head[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n";
	static const char tail[] = "</doc>\n";
	unsigned char *d, *p, *end;
	size_t line;
	int id = 0;

	if ((d = malloc(size)) == NULL) {
		perror("lib: malloc");
		exit(2);
	}
	memcpy(d, head, sizeof(head) - 1);
	p = d + sizeof(head) - 1;
	end = d + size - (sizeof(tail) - 1);
	while (end - p > 100) {
		p += sprintf((char *)p, "<p n=\"%d\">", id++);
		for (line = 0; line < 60; )
			line += textchar(p + line, utf8, s);
		p += line;
		memcpy(p, "</p>\n", 5);
		p += 5;
	}
	memset(p, ' ', end - p);
	memcpy(end, tail, sizeof(tail) - 1);
	return d;
}

/* Check docs[0..n) in turn for the given time, json saying whether to
 * ask for the record too; the CPU seconds per document. */
static double
timed(unsigned char **docs, int n, size_t size, int json)
{
	xmlsniff_result *r;
	char err[128];
	double t0, t;
	long done = 0;
	int i;

	t0 = now(CLOCK_THREAD_CPUTIME_ID);
	do {
		for (i = 0; i < n; i++) {
			if (xmlsniff_check_buffer(opts, "bench.xml", docs[i], size,
			    &r, err, sizeof(err)) != XMLSNIFF_OK) {
				fprintf(stderr, "lib: %s\n", err);
				exit(2);
			}
			if (json && xmlsniff_result_json(r) == NULL) {
				fprintf(stderr, "lib: no JSON record\n");
				exit(2);
			}
			xmlsniff_result_free(r);
		}
		done += n;
		t = now(CLOCK_THREAD_CPUTIME_ID) - t0;
	} while (t < seconds);
	return t / done;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(unsigned char **docs, int n, size_t size, int json)
{
	double *t, m;
	int i;

	if ((t = malloc(runs * sizeof(*t))) == NULL) {
		perror("lib: malloc");
		exit(2);
	}
	for (i = 0; i < runs; i++)
		t[i] = timed(docs, n, size, json);
	qsort(t, runs, sizeof(*t), cmp);
	m = t[runs / 2];
	free(t);
	return m;
}

/* The CPU seconds per byte of validating one big document of the shape,
 * in one call: what the bytes cost without the per-call work. */
static double
per_byte(int utf8)
{
	uint64_t s = 7;
	unsigned char *big = document(BIG, utf8, &s);
	double t, sec = seconds;

	/* At least a few calls of a big document, whatever -s says. */
	if (seconds < 0.2)
		seconds = 0.2;
	t = median(&big, 1, BIG, 0) / BIG;
	seconds = sec;
	free(big);
	return t;
}

static double
number(const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "lib: %s: not a number from %g to %g\n", s,
		    min, max);
		exit(2);
	}
	return v;
}

int
main(int argc, char *argv[])
{
	unsigned char **docs;
	double wall, tdoc, tjson, tbyte, rate4 = 0;
	uint64_t s = 1;
	size_t i, k;
	int ch, d;

	while ((ch = getopt(argc, argv, "n:r:s:")) != -1)
		switch (ch) {
		case 'n':
			ndocs = (int)number(optarg, 1, 100000);
			break;
		case 'r':
			runs = (int)number(optarg, 1, 1000);
			break;
		case 's':
			seconds = number(optarg, 0, 3600);
			break;
		default:
			fprintf(stderr, "usage: lib [-s SECONDS] [-r RUNS] [-n DOCS]\n");
			return 2;
		}
	if ((opts = xmlsniff_options_new()) == NULL ||
	    (docs = malloc(ndocs * sizeof(*docs))) == NULL) {
		fprintf(stderr, "lib: out of memory\n");
		return 2;
	}
	wall = now(CLOCK_MONOTONIC);
	printf("libxmlsniff %s benchmark: xmlsniff_check_buffer on one thread, "
	    "%d documents a row, median of %d runs of %.2f s of CPU time\n",
	    xmlsniff_version(), ndocs, runs, seconds);
	printf("%-6s %6s %10s %8s %8s %9s %9s %9s %8s\n", "shape", "size",
	    "docs/s", "MB/s", "us/doc", "bytes us", "call us", "call %",
	    "+json us");
	for (k = 0; k < NSHAPES; k++) {
		tbyte = per_byte(k == 1);
		for (i = 0; i < NSIZES; i++) {
			for (d = 0; d < ndocs; d++)
				docs[d] = document(sizes[i], k == 1, &s);
			tdoc = median(docs, ndocs, sizes[i], 0);
			tjson = median(docs, ndocs, sizes[i], 1);
			printf("%-6s %3zu KB %10.0f %8.1f %8.3f %9.3f %9.3f %8.0f%% %8.3f\n",
			    shapes[k], sizes[i] / 1024, 1 / tdoc,
			    sizes[i] / tdoc / 1e6, tdoc * 1e6,
			    sizes[i] * tbyte * 1e6,
			    (tdoc - sizes[i] * tbyte) * 1e6,
			    100 * (tdoc - sizes[i] * tbyte) / tdoc,
			    (tjson - tdoc) * 1e6);
			if (k == 1 && sizes[i] == 4096)
				rate4 = 1 / tdoc;
			for (d = 0; d < ndocs; d++)
				free(docs[d]);
		}
		printf("%-6s 16 MB in one call: %.0f MB/s\n", shapes[k],
		    1 / tbyte / 1e6);
	}
	printf("goal: 500000 4-KB documents/s on one core; utf8 4 KB: %.0f/s, "
	    "%s\n", rate4, rate4 >= 500000 ? "met" : "not met");
	printf("wall-clock time: %.1f s\n", now(CLOCK_MONOTONIC) - wall);
	free(docs);
	xmlsniff_options_free(opts);
	return 0;
}

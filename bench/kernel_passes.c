/*
 * bench/kernel_passes.c: what each pass over UTF-8 text costs by itself,
 * per script (issue 27: "a block of letters from any script costs the same
 * as a block of Latin-1 letters").  The whole-command numbers of
 * bench/run mix the passes with the page cache, the mapping and the
 * second thread; these are the kernels alone, at the level the library
 * chooses (or -l LEVEL), over the same text.
 *
 * usage: kernels [-s SECONDS] [-l LEVEL] [-m MB] NAME=FILE...
 *
 * LEVEL is one of XMLSNIFF_SIMD's (xmlsniff(1)); one this machine cannot
 * run means the portable one, "none", as there.
 *
 * Each FILE is UTF-8 text (bench/kernels makes them with bench/text.awk).
 * Its bytes are cut into pieces of 64 KB (the validator's size, each cut
 * before a character) laid end to end twice: 1 MB of them, which stays
 * in the processor's cache, and MB megabytes (default 64), which do not.
 * Over each, for SECONDS of CPU time (the best of three):
 *   read	 memchr for a NUL, which plain text has none of: the cost of
 *		 reading the bytes at all (the C library's vector search);
 *   plain	 plain_utf8, the validation with lines and columns;
 *   marks	 marks8, the "<?" and "<!" and the mojibake candidates,
 *		 as the validator and the look-ahead thread ask for them
 *		 (struct marks, hard: only the opens the late lexer must
 *		 lex are listed, the comments, PIs and CDATA sections told
 *		 apart as the pass goes);
 *   both	 the two in turn, a piece at a time, as the validator does
 *		 them where no second thread searches ahead.
 * The table gives GB/s, and last each pass's time in cache against the
 * first row's (a script that costs more than the first costs > 1.00).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernels.h"

#define PIECE	(64u << 10)
#define SMALL	(1u << 20)
#define MAXIN	64
#define NPASS	4

static const char *const pass_name[NPASS] = { "read", "plain", "marks",
	"both" };

static double	seconds = 0.2;
static size_t	large = 64u << 20;
/* The piece ends and the marks' lists (held here to the end: memory the
 * program still reaches, for LeakSanitizer). */
static size_t	*ends;
static uint32_t	*lt_list, *mj_list;
static volatile uint64_t sink;

static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die(const char *what)
{
	perror(what);
	exit(2);
}

/* The bytes of file, whole; their length in *n. */
static unsigned char *
slurp(const char *file, size_t *n)
{
	FILE *f = fopen(file, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, got;

	if (f == NULL)
		die(file);
	*n = 0;
	do {
		if (*n == cap && (p = realloc(p, cap = cap * 2 + 65536)) ==
		    NULL)
			die("kernels: realloc");
		got = fread(p + *n, 1, cap - *n, f);
		*n += got;
	} while (got > 0);
	if (ferror(f))
		die(file);
	fclose(f);
	return p;
}

/* size bytes of pieces of text t[0..tn) (each up to PIECE, cut before a
 * character), their ends in ends[] (*np of them, room for size / 4096);
 * 64 bytes after the last for the kernels that read ahead. */
static unsigned char *
lay(const unsigned char *t, size_t tn, size_t size, size_t *ends,
    size_t *np)
{
	unsigned char *p = malloc(size + 64);
	size_t at = 0, from = 0, k;

	if (p == NULL)
		die("kernels: malloc");
	*np = 0;
	while (at < size) {
		k = PIECE < size - at ? PIECE : size - at;
		if (k > tn - from)
			k = tn - from;
		/* not in a character, nor after a CR */
		while (k > 4 && from + k < tn && ((t[from + k] & 0xC0) ==
		    0x80 || t[from + k - 1] == '\r'))
			k--;
		if (k < 4096)
			break;
		memcpy(p + at, t + from, k);
		at += k;
		ends[(*np)++] = at;
		from = from + k + 4096 <= tn ? from + k : 0;
	}
	memset(p + at, 0, size + 64 - at);
	return p;
}

/* One pass over the pieces p[0..ends[np-1]); the bytes passed over. */
static uint64_t
pass(int which, const unsigned char *p, const size_t *ends, size_t np,
    uint32_t *lt, uint32_t *mj)
{
	uint64_t lines = 0, col = 1, sum = 0, done = 0;
	struct marks m;
	size_t i, a = 0, n;

	m.lt = lt;
	m.mj = mj;
	m.cap = PIECE;
	/* as validate.c and ahead.c ask: with hard 0 the pass lists every
	 * open, which costs markup-heavy text a quarter less here than
	 * what the program does */
	m.hard = 1;
	for (i = 0; i < np; a = ends[i++]) {
		n = ends[i] - a;
		switch (which) {
		case 0:
			/* no NUL in text that is plain */
			sum += memchr(p + a, 0, n) != NULL;
			done += n;
			break;
		case 1:
			done += plain_utf8(p + a, n, &lines, &col);
			break;
		case 2:
			marks8(p + a, n, &m);
			done += n;
			sum += m.nlt + m.nmj;
			break;
		default:
			done += plain_utf8(p + a, n, &lines, &col);
			marks8(p + a, n, &m);
			sum += m.nlt + m.nmj;
			break;
		}
	}
	sink += sum + lines;
	return done;
}

/* GB/s of pass which over the pieces, the best of three runs of seconds
 * each; 0 when the pass stopped short of the bytes (not plain text). */
static double
rate(int which, const unsigned char *p, const size_t *ends, size_t np,
    uint32_t *lt, uint32_t *mj)
{
	double best = 0, t0, t;
	uint64_t bytes;
	int r;

	if (pass(which, p, ends, np, lt, mj) != ends[np - 1])
		return 0;
	for (r = 0; r < 3; r++) {
		bytes = 0;
		t0 = cpu();
		do
			bytes += pass(which, p, ends, np, lt, mj);
		while ((t = cpu() - t0) < seconds);
		if (bytes / t / 1e9 > best)
			best = bytes / t / 1e9;
	}
	return best;
}

static void
usage(void)
{
	fputs("usage: kernels [-s SECONDS] [-l LEVEL] [-m MB] NAME=FILE...\n",
	    stderr);
	exit(2);
}

int
main(int argc, char *argv[])
{
	static double base[NPASS];
	const char *level = NULL;
	char *eq, mem[32];
	int c, f, w, bad;
	size_t tn, np;

	while ((c = getopt(argc, argv, "s:l:m:")) != -1) {
		if (c == 's' && (seconds = atof(optarg)) > 0 && seconds <= 60)
			continue;
		if (c == 'm' && atoi(optarg) >= 2 && atoi(optarg) <= 4096) {
			large = (size_t)atoi(optarg) << 20;
			continue;
		}
		if (c == 'l') {
			level = optarg;
			continue;
		}
		usage();
	}
	if (optind == argc || argc - optind > MAXIN)
		usage();
	if (level != NULL && simd_init(level) != 0) {
		char names[128];

		fprintf(stderr, "kernels: no level %s (%s)\n", level,
		    simd_names(names, sizeof(names)));
		return 2;
	}
	/* the one in use: a level this machine cannot run is the portable
	 * one's */
	level = simd_ready(&bad);
	if ((ends = malloc(large / 4096 * sizeof(*ends))) == NULL ||
	    (lt_list = malloc(2 * PIECE * sizeof(*lt_list))) == NULL)
		die("kernels: malloc");
	mj_list = lt_list + PIECE;
	printf("kernels at level %s, GB/s, the best of 3 runs of %g s of "
	    "CPU time\n", level, seconds);
	printf("%-10s", "text");
	for (w = 0; w < NPASS; w++)
		printf(" %6s", pass_name[w]);
	printf("   |");
	for (w = 0; w < NPASS; w++)
		printf(" %6s", pass_name[w]);
	printf("   | in cache against %.*s\n", (int)strcspn(argv[optind],
	    "="), argv[optind]);
	snprintf(mem, sizeof(mem), "from memory (%zu MB)", large >> 20);
	printf("%-10s %27s   | %27s   |\n", "", "in cache (1 MB)", mem);
	for (f = optind; f < argc; f++) {
		unsigned char *t, *p;
		double r[2][NPASS];
		int s;

		if ((eq = strchr(argv[f], '=')) == NULL)
			usage();
		*eq = '\0';
		t = slurp(eq + 1, &tn);
		if (tn < 2 * PIECE) {
			fprintf(stderr, "kernels: %s: under %u bytes\n", eq + 1,
			    2 * PIECE);
			free(t);
			return 2;
		}
		for (s = 0; s < 2; s++) {
			p = lay(t, tn, s == 0 ? SMALL : large, ends, &np);
			for (w = 0; w < NPASS; w++)
				r[s][w] = rate(w, p, ends, np, lt_list, mj_list);
			free(p);
		}
		free(t);
		printf("%-10s", argv[f]);
		for (s = 0; s < 2; s++) {
			for (w = 0; w < NPASS; w++)
				printf(" %6.2f", r[s][w]);
			printf("   |");
		}
		for (w = 0; w < NPASS; w++) {
			if (f == optind)
				base[w] = r[0][w];
			if (r[0][w] == 0) {
				fprintf(stderr, "kernels: %s: %s stopped before "
				    "the end: not plain UTF-8 text\n", argv[f],
				    pass_name[w]);
				return 1;
			}
			printf(" %5.2fx", base[w] / r[0][w]);
		}
		printf("\n");
	}
	return 0;
}

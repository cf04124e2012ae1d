/*
 * The library from many threads at once (issue 24, thread safety by
 * construction): each option set is built once and then shared read-only
 * by every thread; each thread checks and transcodes every input under
 * every option set, by the one-call forms, by a checker fed in random
 * pieces and by a transcoder fed the same way, and every result (status,
 * JSON record, transcoded bytes) must equal the one computed serially.
 * The first round starts all threads at once on a library no call has
 * yet touched, so that its one-time work (the kernel choice, tables,
 * iconv probes) is raced; its results are kept as hashes and compared
 * once the serial ones are known.  Built with -fsanitize=thread by
 * .ci/run, run by tests/library.bats.
 *
 * usage: threads [-t THREADS] [-r ROUNDS] [-g GENERATED] [-s SEED] [FILE...]
 *
 * The inputs are the FILEs (read whole; checked by descriptor as well)
 * and GENERATED documents made from SEED: XML in UTF-8, ISO-8859-1,
 * Shift_JIS, UTF-16 with and without a BOM, with stray bytes, controls
 * and sizes across the engine's buffers, and plain random bytes.  Prints
 * one line of counts and exits 0 when every result matched; 1 on a
 * mismatch (each described on standard error), 2 on a usage or system
 * error.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xmlsniff.h>

struct input {
	char		*name;		/* what the checker is told */
	const char	*path;		/* a FILE, for check_fd; NULL if made */
	unsigned char	*p;
	size_t		 n;
};

/* What a check or transcode gave: the reference from the serial pass. */
struct outcome {
	int		 status;
	char		*json;		/* NULL unless status is XMLSNIFF_OK */
	unsigned char	*out;		/* transcoded bytes */
	size_t		 outn;
};

struct buf {
	unsigned char	*p;
	size_t		 n, cap;
	int		 oom;
};

/* The option sets, each shared by every thread.  Values as xmlsniff(1)
 * spells them. */
static const char *const optsets[][7] = {
	{ NULL },
	{ "all", "yes", NULL },
	{ "max-errors", "2", NULL },
	{ "browser", "yes", NULL },
	{ "content-type", "text/xml; charset=ISO-8859-1", NULL },
	{ "default-encoding", "windows-1252", "ignore", "utf8-bom", NULL },
	{ "error", "all", "allow-encoding", "UTF-8,UTF-16", NULL },
};
#define NOPTSETS	(sizeof(optsets) / sizeof(optsets[0]))
static const char *const targets[] = { "UTF-8", "UTF-16LE" };
#define NTARGETS	(sizeof(targets) / sizeof(targets[0]))

static xmlsniff_options	*opts[NOPTSETS];
static struct input	*inputs;
static size_t		 ninputs;
static struct outcome	*want;		/* [set][input][1 + NTARGETS] */
static uint64_t		*first;		/* [thread][item]: round one */
static size_t		 nitems;
static int		 nthreads = 8, nrounds = 3;
static unsigned long	 seed = 1;

static pthread_mutex_t	 lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 gate = PTHREAD_COND_INITIALIZER;
static int		 open_gate, nfirst;
static unsigned long	 ncompared, nmismatch;

/* xorshift64*: the same inputs and splits for the same seed. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL) {
		perror("threads: malloc");
		exit(2);
	}
	return p;
}

static int
buf_write(void *arg, const void *p, size_t n)
{
	struct buf *b = arg;
	unsigned char *np;
	size_t cap;

	if (n == 0)
		return 0;
	if (b->n + n > b->cap) {
		cap = (b->n + n) * 2;
		if ((np = realloc(b->p, cap)) == NULL) {
			b->oom = 1;
			return -1;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

static void
put(struct buf *b, const void *p, size_t n)
{
	if (buf_write(b, p, n) != 0) {
		perror("threads: realloc");
		exit(2);
	}
}

static void
puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* One character c as UTF-16 (big-endian when be) into b. */
static void
put16(struct buf *b, unsigned c, int be)
{
	unsigned char u[4];
	unsigned hi, lo;

	if (c < 0x10000) {
		u[be ? 0 : 1] = c >> 8;
		u[be ? 1 : 0] = c & 0xff;
		put(b, u, 2);
		return;
	}
	hi = 0xd800 + ((c - 0x10000) >> 10);
	lo = 0xdc00 + ((c - 0x10000) & 0x3ff);
	put16(b, hi, be);
	put16(b, lo, be);
}

static void
put8(struct buf *b, unsigned c)
{
	unsigned char u[4];

	if (c < 0x80) {
		u[0] = c;
		put(b, u, 1);
	} else if (c < 0x800) {
		u[0] = 0xc0 | c >> 6;
		u[1] = 0x80 | (c & 0x3f);
		put(b, u, 2);
	} else if (c < 0x10000) {
		u[0] = 0xe0 | c >> 12;
		u[1] = 0x80 | (c >> 6 & 0x3f);
		u[2] = 0x80 | (c & 0x3f);
		put(b, u, 3);
	} else {
		u[0] = 0xf0 | c >> 18;
		u[1] = 0x80 | (c >> 12 & 0x3f);
		u[2] = 0x80 | (c >> 6 & 0x3f);
		u[3] = 0x80 | (c & 0x3f);
		put(b, u, 4);
	}
}

/* A character of text: mostly ASCII, some Latin, CJK and astral ones,
 * now and then a line end or a control character that XML forbids. */
static unsigned
textchar(uint64_t *s)
{
	unsigned r = rnd(s) % 100;

	if (r < 70)
		return "abcdefghij <>=/\"xyz"[rnd(s) % 19];
	if (r < 78)
		return 0xe0 + rnd(s) % 0x20;
	if (r < 86)
		return 0x4e00 + rnd(s) % 0x5000;
	if (r < 88)
		return 0x1f600 + rnd(s) % 0x40;
	if (r < 97)
		return r & 1 ? '\n' : '\r';
	return rnd(s) % 0x20;
}

/* Generated input i: its kind is i modulo 8; one in eleven is longer
 * than the engine's head (256 KB) and its read buffer, one in three
 * longer than its pieces of 64 KB. */
static void
generate(size_t i, struct buf *b, uint64_t *s)
{
	const char *head;
	size_t len, k;
	int kind = i % 8, be = kind == 4;
	unsigned char c;

	if (i % 11 == 3)
		len = 300000 + rnd(s) % 100000;
	else if (i % 3 == 0)
		len = rnd(s) % 70000;
	else
		len = rnd(s) % 2000;
	switch (kind) {
	case 0:		/* random bytes */
		for (k = 0; k < len; k++) {
			c = rnd(s);
			put(b, &c, 1);
		}
		return;
	case 3:		/* UTF-16LE with a BOM, UTF-16BE declared */
	case 4:
		head = be ? "<?xml version=\"1.0\" encoding=\"UTF-16BE\"?><r>" :
		    "\xff\xfe<?xml version=\"1.0\" encoding=\"UTF-16\"?><r>";
		if (!be) {
			put(b, head, 2);
			head += 2;
		}
		for (; *head != '\0'; head++)
			put16(b, (unsigned char)*head, be);
		for (k = 0; k < len; k++)
			put16(b, textchar(s), be);
		return;
	case 1:
		puts_(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r>");
		break;
	case 2:
		puts_(b, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<r>");
		break;
	case 5:
		puts_(b, "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<r>");
		break;
	case 6:
		puts_(b, "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
		break;
	default:	/* no declaration: UTF-8 by default */
		break;
	}
	for (k = 0; k < len; k++) {
		if (kind == 2 || kind == 5) {
			/* Any byte: Latin-1 letters, Shift_JIS pairs, and
			 * what either lacks. */
			c = rnd(s) % 4 ? textchar(s) & 0x7f : 0x80 + rnd(s) % 0x80;
			put(b, &c, 1);
		} else if (rnd(s) % 500 == 0) {
			c = 0x80 + rnd(s) % 0x80;	/* a stray byte */
			put(b, &c, 1);
		} else
			put8(b, textchar(s));
	}
	puts_(b, "</r>\n");
}

static void
load(const char *path, struct input *in)
{
	struct buf b = { NULL, 0, 0, 0 };
	unsigned char chunk[65536];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1) {
		fprintf(stderr, "threads: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		put(&b, chunk, n);
	if (n < 0) {
		fprintf(stderr, "threads: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	close(fd);
	in->path = path;
	in->name = xmalloc(strlen(path) + 1);
	strcpy(in->name, path);
	in->p = b.p;
	in->n = b.n;
}

static void
make_inputs(int nfiles, char **files, size_t ngen)
{
	struct buf b;
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 1;
	size_t i;

	ninputs = nfiles + ngen;
	inputs = xmalloc(ninputs * sizeof(*inputs));
	for (i = 0; i < (size_t)nfiles; i++)
		load(files[i], &inputs[i]);
	for (i = 0; i < ngen; i++) {
		memset(&b, 0, sizeof(b));
		generate(i, &b, &s);
		inputs[nfiles + i].path = NULL;
		inputs[nfiles + i].name = xmalloc(32);
		/* Every fifth is named as an external entity or a DTD: the
		 * role comes from the name. */
		snprintf(inputs[nfiles + i].name, 32, "gen%zu.%s", i,
		    i % 5 == 1 ? "ent" : i % 5 == 3 ? "dtd" : "xml");
		inputs[nfiles + i].p = b.p;
		inputs[nfiles + i].n = b.n;
	}
}

static void
make_options(void)
{
	xmlsniff_options *o;
	size_t i, k;

	for (i = 0; i < NOPTSETS; i++) {
		if ((o = xmlsniff_options_new()) == NULL) {
			fprintf(stderr, "threads: xmlsniff_options_new failed\n");
			exit(2);
		}
		for (k = 0; optsets[i][k] != NULL; k += 2)
			if (xmlsniff_options_set(o, optsets[i][k],
			    optsets[i][k + 1]) != XMLSNIFF_OK) {
				fprintf(stderr, "threads: %s=%s: %s\n",
				    optsets[i][k], optsets[i][k + 1],
				    xmlsniff_options_error(o));
				exit(2);
			}
		/* One set is a copy, shared as any other. */
		if (i == NOPTSETS - 1) {
			opts[i] = xmlsniff_options_copy(o);
			xmlsniff_options_free(o);
			if (opts[i] == NULL) {
				fprintf(stderr, "threads: xmlsniff_options_copy failed\n");
				exit(2);
			}
		} else
			opts[i] = o;
	}
}

/* The pieces of a feed: sizes from one byte to the rest. */
static size_t
piece(uint64_t *s, size_t left)
{
	static const size_t sizes[] = { 1, 2, 3, 5, 64, 4095, 4096, 65536 };
	size_t n;

	if (rnd(s) % 8 == 0)
		return left;
	n = sizes[rnd(s) % (sizeof(sizes) / sizeof(sizes[0]))];
	return n < left ? n : left;
}

static char *
dupjson(xmlsniff_result *r)
{
	const char *j = xmlsniff_result_json(r);
	char *p;

	if (j == NULL)
		return NULL;
	p = xmalloc(strlen(j) + 1);
	strcpy(p, j);
	return p;
}

/* Check input in under o by way (0: buffer, 1: pieces, 2: descriptor)
 * into *oc; splits from s. */
static void
check(const xmlsniff_options *o, const struct input *in, int way,
    uint64_t *s, struct outcome *oc)
{
	xmlsniff_checker *c;
	xmlsniff_result *r = NULL;
	size_t off, n;
	int fd;

	memset(oc, 0, sizeof(*oc));
	if (way == 2 && in->path != NULL) {
		if ((fd = open(in->path, O_RDONLY)) == -1) {
			oc->status = -1;
			return;
		}
		oc->status = xmlsniff_check_fd(o, in->name, fd, &r, NULL, 0);
		close(fd);
	} else if (way == 1) {
		if ((c = xmlsniff_checker_new(o, in->name)) == NULL) {
			oc->status = XMLSNIFF_ERR_MEMORY;
			return;
		}
		oc->status = XMLSNIFF_OK;
		for (off = 0; off < in->n && oc->status == XMLSNIFF_OK; off += n) {
			n = piece(s, in->n - off);
			oc->status = xmlsniff_checker_feed(c, in->p + off, n);
		}
		if (oc->status == XMLSNIFF_OK)
			oc->status = xmlsniff_checker_finish(c, &r);
		xmlsniff_checker_free(c);
	} else
		oc->status = xmlsniff_check_buffer(o, in->name, in->p, in->n,
		    &r, NULL, 0);
	if (oc->status == XMLSNIFF_OK) {
		oc->json = dupjson(r);
		xmlsniff_result_free(r);
	}
}

/* Transcode in under o to target, fed in pieces from s (whole if s is
 * NULL), into *oc. */
static void
transcode(const xmlsniff_options *o, const struct input *in,
    const char *target, uint64_t *s, struct outcome *oc)
{
	xmlsniff_transcoder *t;
	xmlsniff_result *r = NULL;
	struct buf b = { NULL, 0, 0, 0 };
	size_t off, n;

	memset(oc, 0, sizeof(*oc));
	t = xmlsniff_transcoder_new(o, in->name, target, buf_write, &b);
	if (t == NULL) {
		oc->status = XMLSNIFF_ERR_MEMORY;
		return;
	}
	oc->status = XMLSNIFF_OK;
	for (off = 0; off < in->n && oc->status == XMLSNIFF_OK; off += n) {
		n = s == NULL ? in->n : piece(s, in->n - off);
		oc->status = xmlsniff_transcoder_feed(t, in->p + off, n);
	}
	if (oc->status == XMLSNIFF_OK)
		oc->status = xmlsniff_transcoder_finish(t, &r);
	xmlsniff_transcoder_free(t);
	if (b.oom)
		oc->status = XMLSNIFF_ERR_MEMORY;
	/* A refused transcode has a result as well: the analysis. */
	if (r != NULL) {
		oc->json = dupjson(r);
		xmlsniff_result_free(r);
	}
	/* What a failed one wrote is to be thrown away. */
	if (oc->status == XMLSNIFF_OK) {
		oc->out = b.p;
		oc->outn = b.n;
	} else
		free(b.p);
}

static void
forget(struct outcome *oc)
{
	free(oc->json);
	free(oc->out);
}

static uint64_t
hash(const struct outcome *oc)
{
	uint64_t h = 1469598103934665603ULL ^ (unsigned)oc->status;
	const unsigned char *p;
	size_t i;

	h *= 1099511628211ULL;
	for (p = (const unsigned char *)oc->json; p != NULL && *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211ULL;
	for (i = 0; i < oc->outn; i++)
		h = (h ^ oc->out[i]) * 1099511628211ULL;
	return h ^ oc->outn;
}

static int
same(const struct outcome *a, const struct outcome *b)
{
	if (a->status != b->status || a->outn != b->outn)
		return 0;
	if ((a->json == NULL) != (b->json == NULL))
		return 0;
	if (a->json != NULL && strcmp(a->json, b->json) != 0)
		return 0;
	return a->outn == 0 || memcmp(a->out, b->out, a->outn) == 0;
}

/* Item k: an option set, an input, and a check (0) or a target (1...). */
static void
item(size_t k, size_t *set, size_t *in, size_t *what)
{
	*what = k % (1 + NTARGETS);
	*in = k / (1 + NTARGETS) % ninputs;
	*set = k / (1 + NTARGETS) / ninputs;
}

/* Run item k the way way says (check: 0-2; transcode: whole or in
 * pieces), into *oc. */
static void
run_item(size_t k, int way, uint64_t *s, struct outcome *oc)
{
	size_t set, in, what;

	item(k, &set, &in, &what);
	if (what == 0)
		check(opts[set], &inputs[in], way % 3, s, oc);
	else
		transcode(opts[set], &inputs[in], targets[what - 1],
		    way % 2 ? s : NULL, oc);
}

static void
mismatch(int tid, int round, size_t k, int way, const struct outcome *got)
{
	size_t set, in, what;
	const struct outcome *w = &want[k];

	item(k, &set, &in, &what);
	pthread_mutex_lock(&lock);
	if (nmismatch++ < 10) {
		fprintf(stderr, "threads: thread %d round %d: %s, option set %zu, "
		    "%s (way %d): status %d, want %d\n", tid, round,
		    inputs[in].name, set, what ? targets[what - 1] : "check",
		    way, got->status, w->status);
		if (got->json != NULL && w->json != NULL &&
		    strcmp(got->json, w->json) != 0)
			fprintf(stderr, "  got  %s\n  want %s\n", got->json,
			    w->json);
		if (got->outn != w->outn)
			fprintf(stderr, "  %zu bytes written, want %zu\n",
			    got->outn, w->outn);
	}
	pthread_mutex_unlock(&lock);
}

/* Round one keeps only hashes: say which item differed. */
static void
first_mismatch(int tid, size_t k)
{
	size_t set, in, what;

	item(k, &set, &in, &what);
	if (nmismatch++ < 10)
		fprintf(stderr, "threads: thread %d round 1 (from a cold start): "
		    "%s, option set %zu, %s: not the serial result (status %d)\n",
		    tid, inputs[in].name, set, what ? targets[what - 1] : "check",
		    want[k].status);
}

static void *
worker(void *arg)
{
	int tid = (int)(intptr_t)arg, round, way;
	uint64_t s = (seed + 1) * 0x2545f4914f6cdd1dULL + tid;
	struct outcome got;
	size_t i, k, start;
	unsigned long n = 0;

	pthread_mutex_lock(&lock);
	while (!open_gate)
		pthread_cond_wait(&gate, &lock);
	pthread_mutex_unlock(&lock);
	start = (size_t)tid * nitems / nthreads;
	/* Round one, all threads from a cold start: hashes, compared
	 * after the serial pass. */
	for (i = 0; i < nitems; i++) {
		k = (start + i) % nitems;
		run_item(k, tid + (int)i, &s, &got);
		first[(size_t)tid * nitems + k] = hash(&got);
		forget(&got);
	}
	pthread_mutex_lock(&lock);
	nfirst++;
	pthread_cond_broadcast(&gate);
	while (open_gate != 2)
		pthread_cond_wait(&gate, &lock);
	pthread_mutex_unlock(&lock);
	for (round = 2; round <= nrounds; round++)
		for (i = 0; i < nitems; i++) {
			k = (start + i * 7919) % nitems;
			way = (int)(rnd(&s) % 3);
			run_item(k, way, &s, &got);
			if (!same(&got, &want[k]))
				mismatch(tid, round, k, way, &got);
			forget(&got);
			n++;
		}
	pthread_mutex_lock(&lock);
	ncompared += n;
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void
release(int state)
{
	pthread_mutex_lock(&lock);
	open_gate = state;
	pthread_cond_broadcast(&gate);
	pthread_mutex_unlock(&lock);
}

/* The serial pass: every item whole, then the first round's hashes. */
static void
serial(void)
{
	size_t k;
	int t;

	want = xmalloc(nitems * sizeof(*want));
	for (k = 0; k < nitems; k++)
		run_item(k, 0, NULL, &want[k]);
	for (t = 0; t < nthreads; t++)
		for (k = 0; k < nitems; k++) {
			ncompared++;
			if (first[(size_t)t * nitems + k] != hash(&want[k]))
				first_mismatch(t, k);
		}
}

static int
number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "threads: %s: not a number from %ld to %ld\n",
		    s, min, max);
		exit(2);
	}
	return (int)v;
}

int
main(int argc, char *argv[])
{
	pthread_t *tids;
	size_t ngen = 48, k;
	int ch, t, e;

	while ((ch = getopt(argc, argv, "g:r:s:t:")) != -1)
		switch (ch) {
		case 'g':
			ngen = number(optarg, 0, 100000);
			break;
		case 'r':
			nrounds = number(optarg, 1, 100000);
			break;
		case 's':
			seed = number(optarg, 0, 1000000000);
			break;
		case 't':
			nthreads = number(optarg, 1, 1024);
			break;
		default:
			fprintf(stderr, "usage: threads [-t THREADS] [-r ROUNDS] "
			    "[-g GENERATED] [-s SEED] [FILE...]\n");
			return 2;
		}
	argc -= optind;
	argv += optind;
	make_inputs(argc, argv, ngen);
	make_options();
	nitems = NOPTSETS * ninputs * (1 + NTARGETS);
	first = xmalloc((size_t)nthreads * nitems * sizeof(*first));
	tids = xmalloc(nthreads * sizeof(*tids));
	for (t = 0; t < nthreads; t++)
		if ((e = pthread_create(&tids[t], NULL, worker,
		    (void *)(intptr_t)t)) != 0) {
			fprintf(stderr, "threads: pthread_create: %s\n",
			    strerror(e));
			return 2;
		}
	release(1);
	/* The serial pass runs alone, once every thread has done round
	 * one; they wait for it at the second gate. */
	pthread_mutex_lock(&lock);
	while (nfirst < nthreads)
		pthread_cond_wait(&gate, &lock);
	pthread_mutex_unlock(&lock);
	serial();
	release(2);
	for (t = 0; t < nthreads; t++)
		pthread_join(tids[t], NULL);
	printf("threads: %d threads, %d rounds, %zu inputs, %zu option sets, "
	    "%zu targets: %lu results, %lu differ from the serial ones\n",
	    nthreads, nrounds, ninputs, NOPTSETS, NTARGETS, ncompared,
	    nmismatch);
	for (k = 0; k < nitems; k++)
		forget(&want[k]);
	for (k = 0; k < NOPTSETS; k++)
		xmlsniff_options_free(opts[k]);
	for (k = 0; k < ninputs; k++) {
		free(inputs[k].name);
		free(inputs[k].p);
	}
	free(inputs);
	free(want);
	free(first);
	free(tids);
	return nmismatch ? 1 : 0;
}

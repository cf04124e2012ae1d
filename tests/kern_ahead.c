/*
 * The input layer reading ahead (src/lib/decode/ahead.c), below the
 * engine, in process: the pieces a second thread reads are the file's
 * bytes, whatever is kept of each, where the ring runs out and where the
 * file shrinks meanwhile.  Not a sweep: it runs under valgrind and
 * ThreadSanitizer too, which watch the thread.  (kern_mapped.c runs the
 * engine over files read ahead, against the reference.)
 */
#define _DEFAULT_SOURCE	/* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "all.h"
#include "unit.h"
#include "kern.h"

#define READ	327680		/* IN_SIZE: a read, or a piece */

static struct inbuf in;

/* Whether in's piece is the file's bytes (the pattern of ahead_pieces)
 * that end where it has read to. */
static int
piece_ok(void)
{
	size_t k;
	long long at = in.got - (long long)in.n;

	for (k = 0; k < in.n; k++)
		if (in.p[k] != (unsigned char)((at + (long long)k) % 251))
			return 0;
	return at >= 0;
}

/* b made the file's bytes, each its offset modulo 251 (piece_ok). */
static void
pattern(struct buf *b, size_t size)
{
	size_t k;

	for (b->n = 0, k = 0; k < size; k++)
		bput(b, (const char []){ (char)(k % 251) }, 1);
}

/* The file of b opened into in, to be read from its start with its size
 * trusted or not; 0 when it cannot be (checked). */
static int
start(const struct buf *b, int trust)
{
	if (in.mem == NULL && !CHECK(posix_memalign((void **)&in.mem, 4096,
	    IN_PAD + IN_SIZE) == 0))
		return 0;
	if (!CHECK(kern_put_file(b)) ||
	    !CHECK((in.fd = open(kern_path, O_RDONLY)) >= 0))
		return 0;
	in.p = in.mem + IN_PAD;
	in.n = 0;
	in.got = 0;
	in.eof = 0;
	in.mapped = 0;
	in.size = (long long)b->n;
	in.trust_size = trust;
	return 1;
}

/*
 * The input layer reading ahead (ahead.c), below the engine: a file
 * whose bytes say their offset (its last slot a few bytes, all but a
 * few, none, one), read ahead from its second piece, each
 * piece used in part at random as the engine never does (a few bytes
 * kept, none, more than the room before a slot holds: then the piece is
 * made in the buffer), with the size trusted or not: every piece is the
 * file's bytes from the kept ones on, the last ends at its end, and the
 * file offset is left where reading would leave it, at the end and when
 * reading stops half way.  In half the trials the first thread reads
 * four pieces in five itself and the second the fifth
 * (ahead_test_alternate), so that the first thread's own reads, and each
 * slot filled by one thread and then the other, are taken whatever the
 * two threads' speeds.  In six trials of seven the second thread also
 * searches its pieces for their marks, each kind in turn (UTF-8, UTF-16
 * and UTF-32 of both orders, some with their units at odd offsets,
 * and single bytes), each under that hook too, and the marks handed on
 * with a piece must be those of its bytes, from its first whole unit.
 */
static void
ahead_pieces(void)
{
	static const size_t last[] = { 12345, READ - 100, 0, 1 };
	struct buf b = { NULL, 0, 0 };
	static const int marks[] = { AHM_NONE, AHM_UTF8, AHM_UTF16LE,
	    AHM_UTF16BE | AHM_AT(1), AHM_UTF32LE | AHM_AT(3), AHM_UTF32BE,
	    AHM_BYTES };
	static const size_t usz[] = { 0, 0, 2, 2, 4, 4, 1 };
	const struct marks *m;
	size_t size = 0, used, keep;
	long long before, at;
	int trial, pieces, mark, given[NELEM(marks)] = { 0 }, fail = 0, i;

	krand_seed(7);
	atomic_store(&ahead_test_min, 1);
	for (trial = 0; trial < 32 && !fail; trial++) {
		/* in turn: each slot used three times and more */
		size = (trial % 8 >= 4 ? 3 * AH_SLOTS + 3 : 3) * READ +
		    last[trial % 4];
		pattern(&b, size);
		if (!start(&b, trial % 2))
			break;
		atomic_store(&ahead_test_alternate, trial % 8 >= 4 ? 4 : 0);
		/* each kind under the hook and not */
		mark = marks[(trial / 2 + trial / 8) % NELEM(marks)];
		fail |= !CHECK(in_refill(&in, 0) == 0);
		in_ahead_begin(&in, mark);
		fail |= !CHECK(in.ra != NULL);
		for (pieces = 0; !fail && !in.eof; pieces++) {
			/* keep: 0 to 3 bytes, to a few more than the pad */
			keep = krand(4) == 0 ? IN_PAD + krand(3000) :
			    krand(4);
			if (keep > in.n)
				keep = in.n;
			used = in.n - keep;
			before = in.got;
			fail |= !CHECK(in_refill(&in, used) == 0);
			fail |= !CHECK(piece_ok() && in.got -
			    (long long)in.n == before - (long long)keep);
			/* the marks of a piece the second thread read, when
			 * asked: those of its bytes, which end in's */
			if ((m = in_marks(&in)) != NULL) {
				given[AHM_KIND(mark)]++;
				at = in.got - (long long)in.n +
				    (m->base - in.p);
				fail |= !CHECK(mark != AHM_NONE &&
				    m->base + m->len == in.p + in.n &&
				    m->usz == (int)usz[AHM_KIND(mark)] &&
				    m->be == (AHM_KIND(mark) == AHM_UTF16BE ||
				    AHM_KIND(mark) == AHM_UTF32BE) &&
				    (m->usz == 0 || at % m->usz == mark >> 3) &&
				    kern_marks_same(m));
			}
			/* half way through, in every third trial: stop */
			if (trial % 3 == 2 && pieces == trial % 5)
				break;
		}
		if (!fail && in.eof)
			fail |= !CHECK(in.got == (long long)size);
		/* every slot given: asked again, the input reads on from
		 * where the thread stopped (the end), the kept bytes kept */
		if (!fail && in.eof && trial % 2 == 0) {
			keep = krand(4);
			if (keep > in.n)
				keep = in.n;
			fail |= !CHECK(in_refill(&in, in.n - keep) == 0);
			fail |= !CHECK(in.ra == NULL && in.n == keep &&
			    in.eof && in.got == (long long)size &&
			    piece_ok());
		}
		before = in.got;
		fail |= !CHECK(in_ahead_end(&in) == 0 && in.ra == NULL);
		fail |= !CHECK(lseek(in.fd, 0, SEEK_CUR) == (off_t)before);
		if (fail)
			printf("  (trial %d, piece %d)\n", trial, pieces);
		close(in.fd);
	}
	/* (the second thread's pieces under the hook, marks asked, at
	 * least one handed on whole, of each kind) */
	for (i = 1; i < (int)NELEM(marks) && !fail; i++)
		if (!CHECK(given[AHM_KIND(marks[i])] > 0))
			printf("  (no marks of kind %d)\n", i);
	atomic_store(&ahead_test_min, 0);
	atomic_store(&ahead_test_alternate, 0);
	bfree(&b);
}

/*
 * A file that shrinks while it is read ahead (another process truncates
 * it), cut once the thread has read what it may and waits: the pieces
 * read before are handed out, as read(2) had given them; the reads after
 * are short, and the input ends where the file now ends, or past it at
 * the end of a piece read before the cut (the first AH_SLOTS + 1 pieces
 * at most: the one the first read gave, the one taken and the slots
 * beyond), with no error and no hang.  Every piece is the file's bytes.
 */
static void
ahead_shrink(void)
{
	static const long long cuts[] = { 3000, READ + 5, 4 * READ + 100,
	    5 * READ, 6 * READ + 500, 7 * READ };
	struct buf b = { NULL, 0, 0 };
	long long cut;
	int trial, pieces, wfd, k, fail = 0;

	atomic_store(&ahead_test_min, 1);
	pattern(&b, (AH_SLOTS + 5) * READ + 77);
	for (trial = 0; trial < 12 && !fail; trial++) {
		cut = cuts[trial % 6];
		if (!start(&b, trial / 6))
			break;
		fail |= !CHECK(in_refill(&in, 0) == 0);
		in_ahead_begin(&in, 0);
		fail |= !CHECK(in.ra != NULL);
		/* the second piece taken; the ring filled (ten seconds at
		 * most); then the file cut short */
		fail |= !CHECK(in_refill(&in, in.n) == 0 && piece_ok());
		for (k = 0; !fail && !ah_ring_full(in.ra) && k < 10000; k++)
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		fail |= !CHECK(ah_ring_full(in.ra));
		wfd = open(kern_path, O_WRONLY);
		fail |= !CHECK(wfd >= 0 && ftruncate(wfd, (off_t)cut) == 0);
		if (wfd >= 0)
			close(wfd);
		for (pieces = 0; !fail && !in.eof && pieces < 40; pieces++)
			fail |= !CHECK(in_refill(&in, in.n) == 0 &&
			    piece_ok());
		fail |= !CHECK(in.eof && (in.got == cut || (in.got > cut &&
		    in.got % READ == 0 &&
		    in.got <= (AH_SLOTS + 1) * (long long)READ)));
		fail |= !CHECK(in_ahead_end(&in) == 0 && in.ra == NULL &&
		    lseek(in.fd, 0, SEEK_CUR) == (off_t)in.got);
		if (fail)
			printf("  (trial %d, cut at %lld, ended at %lld)\n",
			    trial, cut, in.got);
		close(in.fd);
	}
	atomic_store(&ahead_test_min, 0);
	bfree(&b);
}

/*
 * The first thread waiting for a piece the second has claimed and not
 * yet read (ahead_test_hold holds each until it does):
 * meanwhile it reads the pieces after that one itself (ah_help), with
 * their marks when the second would search them.  Each piece is the
 * file's bytes, the marks handed on with one are those of its bytes,
 * the input ends at the file's end, and the first thread did read
 * pieces while it waited.
 */
static void
ahead_help(void)
{
	struct buf b = { NULL, 0, 0 };
	const struct marks *m;
	uint64_t helped;
	int trial, mark, marked, fail = 0;

	atomic_store(&ahead_test_min, 1);
	atomic_store(&ahead_test_hold, 1);
	pattern(&b, (2 * AH_SLOTS + 3) * READ + 99);
	for (trial = 0; trial < 4 && !fail; trial++) {
		mark = trial % 2 ? AHM_UTF8 : AHM_NONE;
		if (!start(&b, trial / 2))
			break;
		fail |= !CHECK(in_refill(&in, 0) == 0);
		in_ahead_begin(&in, mark);
		fail |= !CHECK(in.ra != NULL);
		for (marked = 0; !fail && !in.eof; ) {
			fail |= !CHECK(in_refill(&in, in.n - krand(4)) == 0 &&
			    piece_ok());
			if ((m = in_marks(&in)) != NULL) {
				marked++;
				fail |= !CHECK(mark == AHM_UTF8 &&
				    m->base + m->len == in.p + in.n &&
				    kern_marks_same(m));
			}
		}
		helped = in.ra != NULL ? ah_helped(in.ra) : 0;
		fail |= !CHECK(in.eof && in.got == (long long)b.n);
		fail |= !CHECK(helped > 0);
		fail |= !CHECK(mark == AHM_NONE || marked > 0);
		fail |= !CHECK(in_ahead_end(&in) == 0 && in.ra == NULL &&
		    lseek(in.fd, 0, SEEK_CUR) == (off_t)in.got);
		if (fail)
			printf("  (trial %d: %llu read while waiting, %d marked)\n",
			    trial, (unsigned long long)helped, marked);
		close(in.fd);
	}
	atomic_store(&ahead_test_hold, 0);
	atomic_store(&ahead_test_min, 0);
	bfree(&b);
}

/*
 * "THPeligible" of the mapping of /proc/self/smaps that holds p: 1 or 0,
 * or -1 when smaps does not say (an older kernel, no /proc).
 */
static int
thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	int on = 0, e = -1;
	unsigned long lo, hi;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			on = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (on && sscanf(line, "THPeligible: %d", &e) == 1)
			break;
	}
	fclose(f);
	return e;
}

/*
 * Whether memory that asks for huge pages is told eligible here: a
 * mapping of 4 MiB made and advised by the test itself, read back from
 * smaps (1, 0, or -1 when smaps does not say).  Under qemu-user the
 * advice is taken and dropped, and smaps is the emulator's: 0, and then
 * ah_map's cannot be checked either.
 */
static int
thp_control(void)
{
	size_t len = (size_t)4 << 20;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	int e;

	if (m == MAP_FAILED)
		return -1;
#ifdef MADV_HUGEPAGE
	(void)madvise(m, len, MADV_HUGEPAGE);
#endif
	e = thp_eligible(m);
	munmap(m, len);
	return e;
}

/*
 * ah_map: the ring's memory in whole huge pages of 2 MiB, aligned on one,
 * every byte of it writable; where memory that asks for huge pages is
 * eligible for them, it asked.
 */
static void
ahead_map(void)
{
	static const size_t lens[] = { 1, (size_t)2 << 20,
	    ((size_t)2 << 20) + 1, 3702784 };
	static const size_t want[] = { (size_t)2 << 20, (size_t)2 << 20,
	    (size_t)4 << 20, (size_t)4 << 20 };
	size_t i, len, k;
	int said = 0, control = thp_control();

	for (i = 0; i < NELEM(lens); i++) {
		unsigned char *m = ah_map(lens[i], &len);

		if (!CHECK(m != NULL))
			continue;
		CHECK(len == want[i]);
		CHECK(((uintptr_t)m & (((uintptr_t)2 << 20) - 1)) == 0);
		for (k = 0; k < len; k += 4096)
			m[k] = (unsigned char)k;
		m[len - 1] = 1;
		/* as eligible as memory that asked (ah_map asked) */
		if (control == 1)
			CHECK(thp_eligible(m) == 1);
		else if (!said++)
			printf("unit: memory that asks for huge pages is not "
			    "told eligible here (smaps: %d): whether the "
			    "ring asks for them not checked\n", control);
		CHECK(munmap(m, len) == 0);
	}
	/* nothing, and lengths that would wrap once rounded up */
	errno = 0;
	CHECK(ah_map(0, &len) == NULL && errno == EINVAL);
	errno = 0;
	CHECK(ah_map(SIZE_MAX, &len) == NULL && errno == ENOMEM);
	errno = 0;
	CHECK(ah_map(SIZE_MAX / 2 + 1, &len) == NULL && errno == ENOMEM);
}

/* Not a sweep: also where the sweeps are left out (under valgrind and
 * ThreadSanitizer, which watch the thread). */
void
kern_ahead(void)
{
	ahead_map();
	ahead_pieces();
	ahead_shrink();
	ahead_help();
	if (kern_path[0] != '\0')
		unlink(kern_path);
	kern_path[0] = '\0';
	free(in.mem);
	in.mem = NULL;
}

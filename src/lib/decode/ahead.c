/*
 * Reading ahead: a big regular file that is read, not mapped, is read by
 * a second thread into a ring of slots while the first analyses the
 * piece before (input.c hands the slots on as its pieces).  The copy
 * from the page cache, a third to a half of the time of one thread that
 * reads and validates, then runs beside the validation: bench/overlap.c
 * measured 1.4 to 1.6 times as fast on text of most scripts on a 2-core
 * machine, where mapping was slower than reading (page faults there cost
 * more than the copy).
 *
 * The pieces are numbered from the offset where reading ahead began,
 * piece k at IN_SIZE * k after it (every piece but the last is IN_SIZE
 * long, as in_refill() reads them), in slot k % AH_SLOTS.  Either thread
 * may read a piece: whichever claims it first (the slot's claim, set
 * from the last piece of the slot to this one by compare-and-swap).  The
 * second thread leaves the piece after the one the first thread holds to
 * the first thread and reads those after it; the first thread, finding
 * its next piece neither read nor claimed, reads it itself rather than
 * wait.  So where the copy from the page cache costs the second thread
 * more than the first thread's work (a copy across cores costs more than
 * one on the core that reads the bytes next: UTF-16, ISO-8859-1), the
 * first thread reads every other piece itself, and where the second
 * thread is not given a processor at all, the first reads them all.
 * Where the second thread has begun the next piece but not finished it,
 * the first reads the first piece after it that neither has claimed
 * while it waits (ah_help): on ASCII, whose validation costs less than
 * the copy, it waited for a part of every piece, 20% of its time, and
 * now the two threads share the copying (200 MB of ASCII, LF or CRLF:
 * 8 to 17% faster, doc/BENCHMARKS.md).  When the host takes the second
 * processor away for a while, the first thread reads on instead of
 * waiting for the piece the second thread holds.
 *
 * Reads are pread(2)s at the piece's offset, so the file offset does not
 * move until in_ahead_end() sets it where reading would have left it.  A
 * slot's bytes sit after IN_PAD bytes of room, where the bytes the first
 * thread keeps from its last piece go, as in b's own buffer.
 *
 * Where the validator takes marks (UTF-8: kernels.h's marks8, the "<?"
 * and "<!" and the mojibake candidates; UTF-16 and UTF-32: marksw, the
 * same from the two searches the first thread would make, late_find and
 * moj_skipw or moj_skip32; an ASCII-based single-byte encoding: the
 * first of them), the second thread also searches each piece it reads for
 * them before it hands it on, into the slot's own lists; the validator
 * takes them from there (ah_marks) and searches only the bytes kept in
 * front of the piece.  That pass, about as long as the validator's own
 * on most text, then runs beside the validation too.
 * A piece the first thread reads itself, or that it will want next when
 * the second has read it (the second thread would keep it waiting), the
 * validator searches, as before.  On 100 to 200 MB of UTF-8 text this
 * took 9 to 18% off the time of most scripts; markup-heavy text, whose
 * late lexer sets the first thread's pace, did not gain
 * (doc/BENCHMARKS.md).
 *
 * A slot's bytes, n, err, last, marked and marks are written by the
 * thread that claimed its piece, then its seq with release order; the
 * other thread reads them only after reading seq with acquire order.
 * Only the first thread writes freed and quit.
 */
#define _DEFAULT_SOURCE

#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "testhooks.h"

/* The pauses a wait polls for before it sleeps (a disk to wait for, a
 * first thread gone slow): about 150 microseconds on a 2-core Zen 5
 * virtual machine, whose PAUSE takes 18 ns, about what the first thread
 * takes over a slot.  There a nanosleep of 50 microseconds lasts 143;
 * after 1024 pauses the thread slept too soon and fell behind, losing
 * part of the gain on 200 MB files and all of it on ASCII (ascii-crlf
 * took 1.04 times the one-thread time, against 0.83 polling). */
#define AH_POLL		8192
/* The room for each kind of mark in a slot (as the validator's own,
 * VAL_MARKS: past it, the kernels search). */
#define AH_MARKS	16384

struct ahslot {
	unsigned char	*mem;		/* IN_PAD + IN_SIZE bytes */
	size_t		 n;		/* read into mem + IN_PAD */
	int		 err;		/* the errno of a read that failed */
	int		 last;		/* no piece follows this one */
	int		 marked;	/* mk holds the marks of the piece */
	struct marks	 mk;		/* lists of AH_MARKS each */
	uint64_t	 claim;		/* 1 + the last piece claimed here */
	uint64_t	 seq;		/* 1 + the piece whose bytes are here */
};

struct ahead {
	int		 fd;
	long long	 base;		/* the offset of piece 0 */
	long long	 stop;		/* no read past it just to see the end
					 * (trust_size), or -1 */
	unsigned char	*mem;		/* the slots' memory */
	size_t		 len;		/* its length */
	int		 mark;		/* search pieces for marks (AHM_);
					 * atomic: ah_mark, ah_set_mark */
	struct ahslot	 s[AH_SLOTS];
	uint64_t	 freed;		/* pieces let go (the first thread) */
	int		 quit;
	pthread_t	 t;
	/* the first thread's own */
	uint64_t	 cur;		/* the piece it holds, if held */
	uint64_t	 helped;	/* pieces it read while it waited */
	uint64_t	 waiting;	/* 1 + the piece it waits for */
	int		 held;
	size_t		 start;		/* of slot cur, the bytes handed on */
};

atomic_int ahead_test_alternate;
atomic_int ahead_test_hold;
/* Under ahead_test_alternate (m, not 0), the pieces the second thread
 * reads, and the first never: every (m + 1)th. */
#define AH_TEST_SECOND(k, m)	((k) % (uint64_t)((m) + 1) == (uint64_t)(m))

/* A short while polling, then asleep: i counts the rounds of a wait. */
static void
ah_wait(long *i)
{
	struct timespec ts = { 0, 50000 };

	if ((*i)++ < AH_POLL)
		TH_PAUSE();
	else
		nanosleep(&ts, NULL);
}

/* The size of the units of the marks of kind (AHM_, engine.h). */
static size_t
ah_unit(int kind)
{
	return kind == AHM_UTF16LE || kind == AHM_UTF16BE ? 2 :
	    kind == AHM_UTF32LE || kind == AHM_UTF32BE ? 4 : 1;
}

/*
 * Read piece k into its slot as in_refill()'s read_full() would: up to
 * IN_SIZE bytes, short reads retried until the end or, with a stop, the
 * stop reached; search it for its marks if mark; then publish it.  The
 * piece is the last after a short read or an error: return whether it
 * is (once published, the slot is the first thread's, which may fill it
 * again).
 */
static int
ah_fill(struct ahead *a, uint64_t k, int mark)
{
	struct ahslot *s = &a->s[k % AH_SLOTS];
	unsigned char *p = s->mem + IN_PAD;
	long long off = a->base + (long long)(k * IN_SIZE);
	size_t done = 0, sh, u;
	ssize_t r;
	int last;

	s->err = 0;
	while (done < IN_SIZE) {
		if (a->stop >= 0 && off + (long long)done >= a->stop &&
		    done > 0)
			break;
		r = pread(a->fd, p + done, IN_SIZE - done,
		    (off_t)(off + (long long)done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			s->err = errno != 0 ? errno : EIO;
			done = 0;
			break;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	last = s->err != 0 || done < IN_SIZE;
	s->n = done;
	s->last = last;
	/* not the first thread's next piece, which it may be waiting for:
	 * that one goes on at once, and the validator searches it (but
	 * under the test hook, whose first thread waits for every piece of
	 * the second's) */
	/* the units from the first whole one of the piece */
	u = ah_unit(AHM_KIND(mark));
	sh = (size_t)(((long long)(mark >> 3) - off % (long long)u +
	    (long long)u) % (long long)u);
	s->marked = AHM_KIND(mark) != AHM_NONE && s->err == 0 && sh < done &&
	    (k >= th_ld(&a->freed) + 2 ||
	    atomic_load(&ahead_test_alternate) != 0);
	if (s->marked) {
		s->mk.cap = AH_MARKS;
		/* the opens the lexer must lex only (UTF-32's: every one) */
		s->mk.hard = 1;
		if (AHM_KIND(mark) == AHM_UTF8)
			marks8(p, done, &s->mk);
		else
			marksw(p + sh, done - sh, u, AHM_KIND(mark) ==
			    AHM_UTF16BE || AHM_KIND(mark) == AHM_UTF32BE,
			    &s->mk);
	}
	th_st(&s->seq, k + 1);
	return last;
}

/* The marks the pieces are searched for now (ah_set_mark). */
static int
ah_mark(const struct ahead *a)
{
	return __atomic_load_n(&a->mark, __ATOMIC_ACQUIRE);
}

/* Claim piece k for the calling thread: 1, or 0 when the other has. */
static int
ah_claim(struct ahead *a, uint64_t k)
{
	uint64_t was = k >= AH_SLOTS ? k - AH_SLOTS + 1 : 0;

	return __atomic_compare_exchange_n(&a->s[k % AH_SLOTS].claim, &was,
	    k + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Under ahead_test_hold: piece k, claimed, held unread until the first
 * thread waits for it and has read a piece after it meanwhile, or it
 * has stopped reading ahead (a piece past the end, which it will never
 * wait for), or for a second at most. */
static void
ah_hold(struct ahead *a, uint64_t k)
{
	uint64_t h = th_ld(&a->helped);
	int i;

	for (i = 0; i < 10000 && (th_ld(&a->waiting) != k + 1 ||
	    th_ld(&a->helped) == h) &&
	    !__atomic_load_n(&a->quit, __ATOMIC_ACQUIRE); i++)
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
}

static void *
ah_reader(void *arg)
{
	struct ahead *a = arg;
	int alt = atomic_load(&ahead_test_alternate), last;
	uint64_t k = 0, f;
	long i;

	for (;;) {
		/* not the piece after the first thread's: that one it
		 * reads itself if it gets there first */
		for (i = 0;; ah_wait(&i)) {
			if (__atomic_load_n(&a->quit, __ATOMIC_ACQUIRE))
				return NULL;
			f = th_ld(&a->freed);
			if (k < f + 2 - (alt != 0))
				k = f + 2 - (alt != 0);
			if (k - f < AH_SLOTS)
				break;
		}
		if ((alt && !AH_TEST_SECOND(k, alt)) || !ah_claim(a, k)) {
			k++;
			continue;
		}
		if (atomic_load(&ahead_test_hold))
			ah_hold(a, k);
		last = ah_fill(a, k, ah_mark(a));
		if (last)
			return NULL;
		k++;
	}
}

/*
 * The ring's memory: len bytes (*maplen: what was mapped, for munmap),
 * or NULL with errno (EINVAL for none, ENOMEM for more than half the
 * address space).  Where the system has transparent huge pages, whole ones of
 * 2 MiB: a page of 4 KiB first written costs a fault, and on the virtual
 * machines here a fault cost about 10 microseconds (4 MiB written for
 * the first time: 10 ms in small pages, 0.3 to 0.5 in huge ones), which
 * on 200 MB of text was a fifth of the processor time of the whole run
 * (doc/BENCHMARKS.md).  So the length is rounded up to whole huge pages,
 * the start aligned on one (mapped 2 MiB longer and the ends given back;
 * Linux 6.7 and later align a mapping this big themselves), and
 * madvise(2) asks for them.  Where it cannot (no MADV_HUGEPAGE, the
 * pages "never"), the ring is in small pages, as before.  A huge page is
 * resident whole: up to 2 MiB more than the pages written.
 */
#define AH_HUGE		((size_t)2 << 20)

void *
ah_map(size_t len, size_t *maplen)
{
	size_t big, lead;
	unsigned char *r;
	uintptr_t at;

	/* nothing to map; or rounded up, and a huge page more, it wraps */
	if (len == 0 || len > SIZE_MAX / 2) {
		errno = len == 0 ? EINVAL : ENOMEM;
		return NULL;
	}
	len = (len + AH_HUGE - 1) & ~(AH_HUGE - 1);
	big = len + AH_HUGE;
	r = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	at = ((uintptr_t)r + AH_HUGE - 1) & ~(uintptr_t)(AH_HUGE - 1);
	lead = (size_t)(at - (uintptr_t)r);
	if (lead > 0)
		(void)munmap(r, lead);
	(void)munmap((unsigned char *)at + len, big - lead - len);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)at, len, MADV_HUGEPAGE);
#endif
	*maplen = len;
	return (void *)at;
}

/*
 * Read fd ahead from offset off (stop: as in_refill()'s, or -1) with a
 * second thread, which searches the pieces it reads for the marks mark
 * names (AHM_, engine.h).  NULL when it cannot start (no memory, no
 * thread): then the caller reads as before.
 */
struct ahead *
ah_begin(int fd, long long off, long long stop, int mark)
{
	size_t one = IN_PAD + IN_SIZE, lists = 2 * AH_MARKS * sizeof(uint32_t);
	size_t k;
	struct ahead *a = calloc(1, sizeof(*a));
	void *m;

	if (a == NULL)
		return NULL;
	/* the lists after the slots, whatever mark is now (ah_set_mark);
	 * the huge pages hold them anyway */
	if ((m = ah_map(AH_SLOTS * (one + lists), &a->len)) == NULL) {
		free(a);
		return NULL;
	}
	a->mem = m;
	__atomic_store_n(&a->mark, mark, __ATOMIC_RELAXED);
	for (k = 0; k < AH_SLOTS; k++) {
		a->s[k].mem = a->mem + k * one;
		a->s[k].mk.lt = (uint32_t *)(void *)(a->mem + AH_SLOTS * one +
		    k * lists);
		a->s[k].mk.mj = a->s[k].mk.lt + AH_MARKS;
	}
	a->fd = fd;
	a->base = off;
	a->stop = stop;
	if (th_start(&a->t, ah_reader, a) != 0) {
		munmap(a->mem, a->len);
		free(a);
		return NULL;
	}
	return a;
}

/*
 * The marks to search the pieces read from now on for (AHM_): a ring
 * begun with the input, before its head said what they are (AHM_NONE
 * then; the pieces read meanwhile the validator searches itself).
 */
void
ah_set_mark(struct ahead *a, int mark)
{
	__atomic_store_n(&a->mark, mark, __ATOMIC_RELEASE);
}

/*
 * Start a second thread (prescan.c's, this file's) running fn(arg) into
 * *t: 0, or pthread_create()'s error.  Signals are the first thread's (a
 * transcode's handlers remove its temporary file), but for those a fault
 * raises: a blocked SIGBUS, of a mapped file that shrank, would kill.
 */
int
th_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Stop the thread and let a go (NULL: nothing). */
void
ah_end(struct ahead *a)
{
	if (a == NULL)
		return;
	__atomic_store_n(&a->quit, 1, __ATOMIC_RELEASE);
	pthread_join(a->t, NULL);
	munmap(a->mem, a->len);
	free(a);
}

/*
 * Whether the thread has read every piece it may and waits for the first
 * thread, with no read under way.  For the tests, which change the file
 * only then (a read that a truncation overtakes may give zeros for the
 * bytes cut off, as read(2) would).
 */
int
ah_ring_full(struct ahead *a)
{
	uint64_t f = th_ld(&a->freed), k;
	const struct ahslot *s;

	/* it may claim from the piece after next to the last slot: each
	 * read; the next (the first thread's, unless it was claimed
	 * before) not claimed, or read */
	for (k = f + 1; k < f + AH_SLOTS; k++) {
		s = &a->s[k % AH_SLOTS];
		if (th_ld(&s->seq) != k + 1 && (k > f + 1 ||
		    th_ld(&s->claim) == k + 1))
			return 0;
	}
	return 1;
}

/* The pieces the first thread has read while it waited for the second
 * (ah_help), for the tests. */
uint64_t
ah_helped(const struct ahead *a)
{
	return th_ld(&a->helped);
}

/*
 * The marks the second thread found in the piece b holds, when b holds
 * all of it, from the slot, with the bytes kept in front of it (as
 * ah_next() hands it on); else NULL.  Their base is where the piece
 * starts, their len its length: the validator searches what lies before.
 */
const struct marks *
ah_marks(const struct ahead *a, const struct inbuf *b)
{
	const struct ahslot *s = &a->s[a->cur % AH_SLOTS];
	uintptr_t p = (uintptr_t)b->p, m;

	/* (the slot's fields only once it is known to be held) */
	if (!a->held || !s->marked)
		return NULL;
	m = (uintptr_t)s->mk.base;
	if (p > m || p + b->n != m + s->mk.len)
		return NULL;
	return &s->mk;
}

/*
 * The first thread waits for piece k, which the second is reading: it
 * reads the first piece after k that neither thread has claimed and that
 * the ring has room for, searched for its marks as the second thread's
 * are (the validator gets to it after k).  Where the copy out of the page
 * cache sets the pace (ASCII, whose validation is the cheapest), the
 * first thread would otherwise wait for a share of every piece; now both
 * threads copy.  Return whether it read one.
 */
static int
ah_help(struct ahead *a, uint64_t k, int alt)
{
	uint64_t f = a->held ? a->cur : k, j;

	for (j = k + 1; j < f + AH_SLOTS; j++) {
		if ((alt && AH_TEST_SECOND(j, alt)) ||
		    th_ld(&a->s[j % AH_SLOTS].claim) == j + 1)
			continue;
		if (!ah_claim(a, j))
			continue;
		(void)ah_fill(a, j, ah_mark(a));
		th_st(&a->helped, a->helped + 1);
		return 1;
	}
	return 0;
}

/* Let go of the slot the first thread holds, if it holds one. */
static void
ah_release(struct ahead *a)
{
	if (a->held) {
		a->held = 0;
		th_st(&a->freed, a->cur + 1);
	}
}

/*
 * The next piece for b, whose bytes from used on are kept in front of
 * it, from the slots, as in_refill() reads it: the kept bytes go in the
 * room before the slot's bytes, where they fit (else both go to b's own
 * buffer, as much of the slot as fits there).  Return 1 with b's piece
 * set (b->eof after the last slot's bytes), 0 when the ring has given
 * every slot (the caller stops reading ahead and reads on), or -1 with
 * errno on a read error.
 */
int
ah_next(struct ahead *a, struct inbuf *b, size_t used)
{
	size_t keep = b->n - used, left, room, take;
	const unsigned char *src = b->p + used;
	struct ahslot *s;
	unsigned char *dst;
	long i;
	int alt = atomic_load(&ahead_test_alternate);

	if (!a->held || a->start == a->s[a->cur % AH_SLOTS].n) {
		if (a->held && a->s[a->cur % AH_SLOTS].last)
			return 0;
		/* the next slot; the one held goes once its kept bytes are
		 * out of it */
		uint64_t k = a->held ? a->cur + 1 : th_ld(&a->freed);

		s = &a->s[k % AH_SLOTS];
		/* neither read nor being read: read it here */
		if (th_ld(&s->seq) != k + 1 && (!alt ||
		    !AH_TEST_SECOND(k, alt)) && ah_claim(a, k))
			(void)ah_fill(a, k, 0);
		if (th_ld(&s->seq) != k + 1)
			th_st(&a->waiting, k + 1);
		for (i = 0; th_ld(&s->seq) != k + 1; ah_wait(&i))
			if (ah_help(a, k, alt))
				i = 0;
		if (s->err != 0) {
			ah_release(a);
			errno = s->err;
			return -1;
		}
		if (keep <= IN_PAD) {
			dst = s->mem + IN_PAD - keep;
			memcpy(dst, src, keep);
			ah_release(a);
			a->cur = k;
			a->held = 1;
			a->start = s->n;
			b->p = dst;
			b->n = keep + s->n;
			b->got += (long long)s->n;
			b->eof = s->last;
			return 1;
		}
		/* the kept bytes out of the slot held before it goes */
		memmove(b->mem, src, keep);
		ah_release(a);
		a->cur = k;
		a->held = 1;
		a->start = 0;
	} else
		memmove(b->mem, src, keep);
	/* More is kept than the room before a slot holds (not expected:
	 * characters are short): into b's buffer, with what fits of the
	 * slot after it. */
	s = &a->s[a->cur % AH_SLOTS];
	room = IN_PAD + IN_SIZE - keep;
	left = s->n - a->start;
	take = left < room ? left : room;
	memcpy(b->mem + keep, s->mem + IN_PAD + a->start, take);
	a->start += take;
	b->p = b->mem;
	b->n = keep + take;
	b->got += (long long)take;
	b->eof = s->last && a->start == s->n;
	return 1;
}

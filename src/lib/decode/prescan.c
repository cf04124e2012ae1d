/*
 * The searches that need no state, done ahead by a second thread over a
 * mapped file in a Unicode form, while the first thread validates (input.c maps a big
 * regular file whole).  Of the three passes over each piece of input, the
 * validator's (plain_utf8) carries the decoder's state, but the search
 * for "<?" and "<!" (late_find, for late declarations) and the search for
 * mojibake candidates (moj_skip) are functions of the bytes alone.  The
 * second thread runs those same kernels over the file a few megabytes
 * ahead and keeps the offsets where they stop; the first thread's calls
 * (pre_late_find, pre_moj_skip) then take their answer from the lists
 * instead of reading the bytes again, or, where the thread has not got
 * that far or gave up, call the kernels as before.  The answers are the
 * kernels' in every case: the lists hold every offset the kernels would
 * stop at, in order.
 */
#define _DEFAULT_SOURCE

#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "testhooks.h"

/* The offsets kept for each search, unread, before the thread gives up
 * (a file of nothing but "<!<!<!"): a ring of PRE_CAP. */
#define PRE_CAP		4096
/* How far ahead of the first thread the second may read (the pages it
 * maps in are memory), and the piece it searches at a time. */
#define PRE_AHEAD	((uint64_t)1 << 20)
#define PRE_SEG		((uint64_t)64 << 10)
/* The pages it searched more than this behind the first thread are given
 * back (the first thread still reads a piece behind where it asks). */
#define PRE_BEHIND	((uint64_t)IN_PAD + 2 * IN_SIZE)

/* About 50 microseconds of PAUSE on a current x86 processor. */
#define PRE_POLL	1024

#if defined(__x86_64__) || defined(__i386__)
#define PAUSE()		__builtin_ia32_pause()
#else
#define PAUSE()		do { } while (0)
#endif

/*
 * Only the second thread writes: the head counters, lo and cov, stopped;
 * only the first: the tail counters, lat, mat and quit.  Each is read by the
 * other with acquire order after a store with release order.  Every
 * offset from lo to below cov has been searched, and what was found is
 * in the ring (in order: lo and cov only grow).  When the first thread
 * has gone past the second, which then searches on from there, lo is
 * moved before cov: cov is read before lo.
 */
struct pre {
	pthread_t	 t;
	int		 on;
	const unsigned char *base;
	uint64_t	 size;
	struct late	 lt;
	int		 form;		/* the entity's: FORM_UTF8, 16 or 32 */
	int		 be;
	uint64_t	 ustart;	/* a unit starts here (UTF-16) */
	uint64_t	 lhit[PRE_CAP], mhit[PRE_CAP];
	uint64_t	 lhead, mhead, ltail, mtail;
	uint64_t	 llo, lcov, mlo, mcov;
	uint64_t	 lat, mat;	/* where the first thread is */
	int		 stopped, quit;
	int		 full;		/* the moj ring filled (thread only) */
};

static uint64_t
ld(const uint64_t *x)
{
	return __atomic_load_n(x, __ATOMIC_ACQUIRE);
}

static void
st(uint64_t *x, uint64_t v)
{
	__atomic_store_n(x, v, __ATOMIC_RELEASE);
}

/* A mojibake candidate seen by the kernel: kept, never taken (the first
 * thread asks the real test); 1 stops the kernel when the ring is full. */
static int
keep_candidate(const void *ctx, const unsigned char *p)
{
	struct pre *pre = (struct pre *)(uintptr_t)ctx;
	uint64_t h = pre->mhead;

	if (h - ld(&pre->mtail) >= PRE_CAP) {
		pre->full = 1;
		return 1;
	}
	pre->mhit[h % PRE_CAP] = (uint64_t)(p - pre->base);
	st(&pre->mhead, h + 1);
	return 0;
}

/*
 * Where the first thread is: the furthest it asked of either search (in
 * a piece it asks the markup first; a search that is not asked at all,
 * mojibake in a single-byte encoding, or no longer, stays behind).
 */
static uint64_t
first_at(struct pre *pre)
{
	uint64_t l = ld(&pre->lat), m = ld(&pre->mat);

	return l > m ? l : m;
}

/*
 * Wait while the second thread is more than PRE_AHEAD ahead.  It polls
 * while the first thread goes fast (validation: a megabyte in a fraction
 * of a millisecond; a sleep on a virtual machine lasts longer than asked,
 * and a thread that slept would wake behind, its work done by the first
 * thread after all), and sleeps while that one goes slowly (a transcode
 * through iconv), rather than burn a processor.
 */
static int
hold_back(struct pre *pre, uint64_t pos)
{
	struct timespec ts = { 0, 100000 };
	uint64_t seen = first_at(pre), now;
	long i = 0;

	while (pos > (now = first_at(pre)) + PRE_AHEAD) {
		if (__atomic_load_n(&pre->quit, __ATOMIC_ACQUIRE))
			return -1;
		if (++i % PRE_POLL != 0) {
			PAUSE();
			continue;
		}
		/* less than a step in the time of PRE_POLL pauses */
		if (now - seen < PRE_SEG)
			nanosleep(&ts, NULL);
		seen = now;
	}
	return 0;
}

/*
 * The UTF-16 units from *pos to e that moj_skipw() stops at, kept; *pos
 * moves to where it stopped for want of units.  UTF-32 has no such
 * kernel: nothing is searched.  -1 when the ring is full.
 */
static int
search_units(struct pre *pre, uint64_t *pos, uint64_t e)
{
	size_t n = (size_t)(e - *pos), j = 0, r;
	uint64_t h;

	if (pre->form != FORM_UTF16BE && pre->form != FORM_UTF16LE) {
		*pos = e;
		return 0;
	}
	for (;;) {
		r = moj_skipw(pre->base + *pos + j, n - j, pre->be);
		if (j + r + 4 > n)
			break;
		h = pre->mhead;
		if (h - ld(&pre->mtail) >= PRE_CAP)
			return -1;
		pre->mhit[h % PRE_CAP] = *pos + j + r;
		st(&pre->mhead, h + 1);
		j += r + 2;
	}
	*pos = e == pre->size ? e : *pos + j + r;
	st(&pre->mcov, *pos);
	return 0;
}

/*
 * The pages of [from, e), which this thread just searched, given back if
 * the first thread is already well past them (it went on while this one
 * did not run): it gave back its own pages behind it (input.c), and
 * these would stay mapped, memory that grows with the file.
 */
static void
give_back(struct pre *pre, uint64_t from, uint64_t e)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t a = first_at(pre);
	uint64_t lo = from - from % pg, hi;

	if (a < PRE_BEHIND)
		return;
	hi = e < a - PRE_BEHIND ? e : a - PRE_BEHIND;
	hi -= hi % pg;
	if (hi > lo)
		(void)madvise((void *)(uintptr_t)(pre->base + lo),
		    (size_t)(hi - lo), MADV_DONTNEED);
}

static void *
searcher(void *arg)
{
	struct pre *pre = arg;
	struct mojskip k;
	uint64_t lpos = ld(&pre->lcov), mpos = ld(&pre->mcov), e, h;
	size_t back = pre->lt.lt_at + pre->lt.usz, i, j, r, n;

	memset(&k, 0, sizeof(k));
	k.candidate = keep_candidate;
	k.ctx = pre;
	k.c1 = 1;	/* all of them; the first thread drops C2 for XML 1.1 */
	while (lpos < pre->size || mpos < pre->size) {
		uint64_t from, at = ld(&pre->lat);

		/* Behind the first thread: on from where it is. */
		if (at > lpos) {
			lpos = at;
			st(&pre->llo, lpos);
			st(&pre->lcov, lpos);
		}
		if ((at = ld(&pre->mat)) > mpos) {
			/* on a unit, in UTF-16 */
			mpos = at + (pre->form == FORM_UTF16BE ||
			    pre->form == FORM_UTF16LE ? (at - pre->ustart) % 2 : 0);
			st(&pre->mlo, mpos);
			st(&pre->mcov, mpos);
		}
		from = lpos < mpos ? lpos : mpos;
		if (hold_back(pre, from) < 0)
			break;
		e = from + PRE_SEG < pre->size ? from + PRE_SEG : pre->size;
		/* "<?" and "<!" with both units before e */
		if (e > lpos && e - lpos > back) {
			n = (size_t)(e - lpos);
			for (i = 0; (j = late_find(&pre->lt, pre->base + lpos, n,
			    i)) < n; i = j + 1) {
				h = pre->lhead;
				if (h - ld(&pre->ltail) >= PRE_CAP)
					goto out;
				pre->lhit[h % PRE_CAP] = lpos + j;
				st(&pre->lhead, h + 1);
			}
			lpos = e == pre->size ? e : e - back;
			st(&pre->lcov, lpos);
		} else if (e == pre->size) {
			lpos = e;
			st(&pre->lcov, lpos);
		}
		/* candidates, up to where the kernel stops */
		if (e > mpos && pre->form == FORM_UTF8) {
			r = moj_skip(pre->base + mpos, (size_t)(e - mpos), &k);
			if (pre->full)
				goto out;
			mpos = e == pre->size ? e : mpos + r;
			st(&pre->mcov, mpos);
		} else if (e > mpos && pre->form != FORM_UTF8) {
			if (search_units(pre, &mpos, e) < 0)
				goto out;
		}
		give_back(pre, from, e);
	}
out:
	__atomic_store_n(&pre->stopped, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Start the second thread over the mapped file base[0..size), from the
 * offset from on, for the entity s that starts at ustart (sbmap: its
 * single-byte map, or NULL).  The mojibake search is the Unicode forms';
 * where the markup cannot be searched for byte by byte either (a
 * multi-byte encoding that iconv decodes), there is no thread.  Return
 * the search, for pre_late_find() and the others and then pre_end(), or
 * NULL where there is none (they call the kernels then).
 */
struct pre *
pre_begin(const unsigned char *base, uint64_t size, uint64_t from,
    uint64_t ustart, const struct sniff *s, const uint32_t *sbmap)
{
	struct pre *pre;
	sigset_t all, old;
	int rc;

	if (base == NULL || val_char_only ||
	    (pre = calloc(1, sizeof(*pre))) == NULL)
		return NULL;
	pre->form = s->dec;
	pre->be = s->dec == FORM_UTF16BE || s->dec == FORM_UTF32BE;
	pre->ustart = ustart;
	if (pre->form == FORM_UTF16BE || pre->form == FORM_UTF16LE) {
		if (from < ustart)
			from = ustart;
		from += (from - ustart) % 2;
	}
	late_init(&pre->lt, s, sbmap);
	if (!pre->lt.scan) {
		free(pre);
		return NULL;
	}
	pre->base = base;
	pre->size = size;
	pre->llo = pre->lcov = pre->mlo = pre->mcov = pre->lat = pre->mat =
	    from;
	/* Signals are the first thread's (a transcode's handlers remove
	 * its temporary file), but for those a fault raises: a blocked
	 * SIGBUS, of a file that shrank, would kill. */
	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&pre->t, NULL, searcher, pre);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		free(pre);
		return NULL;
	}
	pre->on = 1;
	return pre;
}

/* Stop the second thread (before the mapping goes) and let pre go; NULL
 * is no search. */
void
pre_end(struct pre *pre)
{
	if (pre == NULL)
		return;
	__atomic_store_n(&pre->quit, 1, __ATOMIC_RELEASE);
	pthread_join(pre->t, NULL);
	free(pre);
}

/*
 * Whether the thread has searched every offset from a to below lim (it is
 * not waited for: where it has not been, the kernels search).  a is where
 * the first thread is now in this search, kept in *at.
 */
static int
covered(uint64_t *at, const uint64_t *lo, const uint64_t *cov, uint64_t a,
    uint64_t lim)
{
	if (a > *at)
		st(at, a);
	return ld(cov) >= lim && ld(lo) <= a;
}

static int
mapped_here(const struct pre *pre, const unsigned char *p, size_t n)
{
	return pre != NULL && pre->on && p >= pre->base && (uint64_t)(p - pre->base) + n <=
	    pre->size;
}

/* late_find(), from the list when the search ctx (a struct pre) has been
 * there: the finder the validator gives late.c (val_set_finder). */
size_t
pre_late_find(void *ctx, const struct late *lt, const unsigned char *p,
    size_t n, size_t i)
{
	struct pre *pre = ctx;
	uint64_t a, lim, h, t, back = lt->lt_at + lt->usz;

	if (!mapped_here(pre, p, n) || lt->lt_byte != pre->lt.lt_byte ||
	    lt->lt_at != pre->lt.lt_at || lt->usz != pre->lt.usz)
		return late_find(lt, p, n, i);
	if (i + back >= n)
		return n;
	a = (uint64_t)(p - pre->base);
	lim = a + n - back;	/* the kernel looks at offsets below */
	if (!covered(&pre->lat, &pre->llo, &pre->lcov, a + i, lim))
		return late_find(lt, p, n, i);
	h = ld(&pre->lhead);
	for (t = pre->ltail; t < h && pre->lhit[t % PRE_CAP] < a + i; t++)
		;
	st(&pre->ltail, t);
	if (t < h && pre->lhit[t % PRE_CAP] < lim)
		return (size_t)(pre->lhit[t % PRE_CAP] - a);
	return n;
}

/*
 * moj_skip(), from the list for its whole 64-byte blocks (those the AVX2
 * kernel takes: each has two bytes after it), the kernel for the rest.
 * The candidates are asked in order, as the kernel asks them.
 */
size_t
pre_moj_skip(struct pre *pre, const unsigned char *p, size_t n,
    struct mojskip *k)
{
	uint64_t a, lim, h, t, j;
	size_t m;

	if (k->count || n < 66 || !mapped_here(pre, p, n) ||
	    pre->form != FORM_UTF8)
		return moj_skip(p, n, k);
	m = ((n - 66) / 64 + 1) * 64;
	a = (uint64_t)(p - pre->base);
	lim = a + m;
	if (!covered(&pre->mat, &pre->mlo, &pre->mcov, a, lim))
		return moj_skip(p, n, k);
	h = ld(&pre->mhead);
	for (t = pre->mtail; t < h && pre->mhit[t % PRE_CAP] < a; t++)
		;
	for (; t < h && (j = pre->mhit[t % PRE_CAP]) < lim; t++) {
		/* C2 before 80..9F is one in XML 1.0 only */
		if (!k->c1 && pre->base[j] == 0xC2)
			continue;
		if (k->candidate(k->ctx, pre->base + j)) {
			st(&pre->mtail, t);
			return (size_t)(j - a);
		}
	}
	st(&pre->mtail, t);
	return m + moj_skip(p + m, n - m, k);
}

/*
 * moj_skipw(), from the list: the first unit kept at or after p, or where
 * the kernel stops for want of a next unit.
 */
size_t
pre_moj_skipw(struct pre *pre, const unsigned char *p, size_t n, int be)
{
	uint64_t a, lim, h, t;

	if (n < 4 || !mapped_here(pre, p, n) || be != pre->be ||
	    (pre->form != FORM_UTF16BE && pre->form != FORM_UTF16LE))
		return moj_skipw(p, n, be);
	a = (uint64_t)(p - pre->base);
	if (a < pre->ustart || (a - pre->ustart) % 2 != 0)
		return moj_skipw(p, n, be);
	lim = a + ((n - 2) & ~(size_t)1);	/* the units with a next one */
	if (!covered(&pre->mat, &pre->mlo, &pre->mcov, a, lim))
		return moj_skipw(p, n, be);
	h = ld(&pre->mhead);
	for (t = pre->mtail; t < h && pre->mhit[t % PRE_CAP] < a; t++)
		;
	st(&pre->mtail, t);
	if (t < h && pre->mhit[t % PRE_CAP] < lim)
		return (size_t)(pre->mhit[t % PRE_CAP] - a);
	return (size_t)(lim - a);
}

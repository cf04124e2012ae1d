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

/* The offsets kept for each search, unread, before the thread waits for
 * the first one (a file of nothing but "<!<!<!"): a ring of PRE_CAP. */
#define PRE_CAP		4096
/* How far ahead of the first thread the second may read (the pages it
 * maps in are memory), and the piece it searches at a time. */
#define PRE_AHEAD	((uint64_t)1 << 20)
#define PRE_SEG		((uint64_t)64 << 10)
/* The pages it searched more than this behind the first thread are given
 * back (the first thread still reads a piece behind where it asks). */
#define PRE_BEHIND	((uint64_t)IN_PAD + 2 * IN_SIZE)

atomic_int pre_test_split;

/* About 50 microseconds of PAUSE on a current x86 processor. */
#define PRE_POLL	1024

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
};

/*
 * Where the first thread is: the furthest it asked of either search (in
 * a piece it asks the markup first; a search that is not asked at all,
 * mojibake in a single-byte encoding, or no longer, stays behind).
 */
static uint64_t
first_at(struct pre *pre)
{
	uint64_t l = th_ld(&pre->lat), m = th_ld(&pre->mat);

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
			TH_PAUSE();
			continue;
		}
		/* less than a step in the time of PRE_POLL pauses */
		if (now - seen < PRE_SEG)
			nanosleep(&ts, NULL);
		seen = now;
	}
	return 0;
}

/* Marks of each kind a pass of search_both() takes (on the thread's
 * stack); a segment with more is searched on from where its list
 * filled. */
#define PRE_MARKS	4096

/*
 * Keep offset at in the ring of head and tail (hit).  A full ring is
 * waited on: the first thread lets go of the offsets it has gone past
 * (let_go), so there is room again as soon as it goes on, as it does
 * whatever this thread does.  -1 when the first thread is done.
 */
static int
keep(struct pre *pre, uint64_t *hit, uint64_t *head, const uint64_t *tail,
    uint64_t at)
{
	struct timespec ts = { 0, 100000 };
	uint64_t h = *head;
	long i = 0;

	while (h - th_ld(tail) >= PRE_CAP) {
		if (__atomic_load_n(&pre->quit, __ATOMIC_ACQUIRE))
			return -1;
		/* a while, then asleep: the first thread may have stopped
		 * asking (a search it no longer needs) */
		if (i++ < PRE_POLL)
			TH_PAUSE();
		else
			nanosleep(&ts, NULL);
	}
	hit[h % PRE_CAP] = at;
	th_st(head, h + 1);
	return 0;
}

/*
 * Let go of the offsets kept in a ring (hit, tail, head) below a, where
 * the first thread has been: it asks in order and never below the piece
 * it is at (pre_covered), or where its search is (pre_late_find, the
 * mojibake scan's pre_moj_skip and pre_moj_skipw, in every form).  Those
 * of the pieces it searched for itself, where the thread had not been,
 * would stay otherwise: the ring would fill with them, and the thread
 * wait (keep()) for room that never came: markup with a comment every
 * few hundred bytes stopped it within a few megabytes, and the first
 * thread searched the rest itself.
 */
static void
let_go(const uint64_t *hit, uint64_t *tail, const uint64_t *head, uint64_t a)
{
	uint64_t h = th_ld(head), t = *tail;

	while (t < h && hit[t % PRE_CAP] < a)
		t++;
	if (t != *tail)
		th_st(tail, t);
}

/*
 * UTF-8: both searches, from *lpos and from *mpos to e, in one pass over
 * the bytes (marks8: the "<?" and "<!", and the mojibake candidates with
 * the C1 controls), the marks kept in their rings; each position moves
 * to where its list holds every mark below.  -1 when the first thread is
 * done (keep()).
 */
static int
search_both(struct pre *pre, uint64_t *lpos, uint64_t *mpos,
    uint64_t e)
{
	uint32_t lt[PRE_MARKS], mj[PRE_MARKS];
	uint64_t from = *lpos < *mpos ? *lpos : *mpos;
	size_t n = (size_t)(e - from), k;
	struct marks m;

	m.lt = lt;
	m.mj = mj;
	m.cap = PRE_MARKS;
	m.hard = 0;
	marks8(pre->base + from, n, &m);
	for (k = 0; k < m.nlt; k++)
		if (from + m.lt[k] >= *lpos &&
		    keep(pre, pre->lhit, &pre->lhead, &pre->ltail,
		    from + m.lt[k]) < 0)
			return -1;
	for (k = 0; k < m.nmj; k++)
		if (from + m.mj[k] >= *mpos &&
		    keep(pre, pre->mhit, &pre->mhead, &pre->mtail,
		    from + m.mj[k]) < 0)
			return -1;
	/* at the end, all of it; else below the marks' coverage */
	if (e == pre->size && m.lcov + 1 >= n)
		*lpos = e;
	else if (from + m.lcov > *lpos)
		*lpos = from + m.lcov;
	if (e == pre->size && m.mcov + 2 >= n)
		*mpos = e;
	else if (from + m.mcov > *mpos)
		*mpos = from + m.mcov;
	th_st(&pre->lcov, *lpos);
	th_st(&pre->mcov, *mpos);
	return 0;
}

/* Keep the candidate at offset off in the ring (keep()). */
static int
hit_put(struct pre *pre, uint64_t off)
{
	return keep(pre, pre->mhit, &pre->mhead, &pre->mtail, off);
}

/*
 * The first kept candidate from a up to lim that is one (moj_exact8 with
 * c1, or moj_exactw where wide) in the bytes up to end; lim where none
 * is.  The ring's tail moves past those looked at: the first thread asks
 * in order.
 */
static uint64_t
hit_next(struct pre *pre, uint64_t a, uint64_t lim, uint64_t end, int c1,
    int wide)
{
	uint64_t h, t, j;

	let_go(pre->mhit, &pre->mtail, &pre->mhead, a);
	h = th_ld(&pre->mhead);
	for (t = pre->mtail; t < h && (j = pre->mhit[t % PRE_CAP]) < lim; t++)
		if (wide ? moj_exactw(pre->base + j, (size_t)(end - j), 2,
		    pre->be) : moj_exact8(pre->base + j, (size_t)(end - j),
		    c1)) {
			th_st(&pre->mtail, t);
			return j;
		}
	th_st(&pre->mtail, t);
	return lim;
}

/*
 * The UTF-8 bytes from *pos to e that moj_skip() stops at (the C1
 * controls too: the first thread drops them for XML 1.1), kept; *pos
 * moves to where the kernel stopped for want of bytes.  -1 when the
 * first thread is done (keep()).
 */
static int
search_bytes(struct pre *pre, uint64_t *pos, uint64_t e)
{
	struct mojskip k;
	size_t n = (size_t)(e - *pos), j = 0, r;

	memset(&k, 0, sizeof(k));
	k.c1 = 1;
	for (;;) {
		r = moj_skip(pre->base + *pos + j, n - j, &k);
		/* a candidate has two bytes after it */
		if (j + r + 3 > n)
			break;
		if (hit_put(pre, *pos + j + r) < 0)
			return -1;
		j += r + 1;
	}
	*pos = e == pre->size ? e : *pos + j + r;
	th_st(&pre->mcov, *pos);
	return 0;
}

/*
 * The UTF-16 units from *pos to e that moj_skipw() stops at, kept; *pos
 * moves to where it stopped for want of units.  UTF-32 has no such
 * kernel: nothing is searched.  -1 when the first thread is done
 * (keep()).
 */
static int
search_units(struct pre *pre, uint64_t *pos, uint64_t e)
{
	size_t n = (size_t)(e - *pos), j = 0, r;

	if (pre->form != FORM_UTF16BE && pre->form != FORM_UTF16LE) {
		*pos = e;
		return 0;
	}
	for (;;) {
		r = moj_skipw(pre->base + *pos + j, n - j, pre->be);
		if (j + r + 4 > n)
			break;
		if (hit_put(pre, *pos + j + r) < 0)
			return -1;
		j += r + 2;
	}
	*pos = e == pre->size ? e : *pos + j + r;
	th_st(&pre->mcov, *pos);
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
	uint64_t lpos = th_ld(&pre->lcov), mpos = th_ld(&pre->mcov), e;
	size_t back = pre->lt.lt_at + pre->lt.usz, i, j, n;

	while (lpos < pre->size || mpos < pre->size) {
		uint64_t from, at = th_ld(&pre->lat);

		/* Behind the first thread: on from where it is. */
		if (at > lpos) {
			lpos = at;
			th_st(&pre->llo, lpos);
			th_st(&pre->lcov, lpos);
		}
		if ((at = th_ld(&pre->mat)) > mpos) {
			/* on a unit, in UTF-16 */
			mpos = at + (pre->form == FORM_UTF16BE ||
			    pre->form == FORM_UTF16LE ? (at - pre->ustart) % 2 : 0);
			th_st(&pre->mlo, mpos);
			th_st(&pre->mcov, mpos);
		}
		from = lpos < mpos ? lpos : mpos;
		if (hold_back(pre, from) < 0)
			break;
		e = from + PRE_SEG < pre->size ? from + PRE_SEG : pre->size;
		if (pre->form == FORM_UTF8) {
			if (search_both(pre, &lpos, &mpos, e) < 0)
				goto out;
			give_back(pre, from, e);
			continue;
		}
		/* "<?" and "<!" with both units before e */
		if (e > lpos && e - lpos > back) {
			n = (size_t)(e - lpos);
			for (i = 0; (j = late_find(&pre->lt, pre->base + lpos, n,
			    i)) < n; i = j + 1)
				if (keep(pre, pre->lhit, &pre->lhead,
				    &pre->ltail, lpos + j) < 0)
					goto out;
			lpos = e == pre->size ? e : e - back;
			th_st(&pre->lcov, lpos);
		} else if (e == pre->size) {
			lpos = e;
			th_st(&pre->lcov, lpos);
		}
		/* candidates, up to where the kernel stops */
		if (e > mpos && (pre->form == FORM_UTF8 ?
		    search_bytes(pre, &mpos, e) :
		    search_units(pre, &mpos, e)) < 0)
			goto out;
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
	rc = th_start(&pre->t, searcher, pre);
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
		th_st(at, a);
	return th_ld(cov) >= lim && th_ld(lo) <= a;
}

static int
mapped_here(const struct pre *pre, const unsigned char *p, size_t n)
{
	return pre != NULL && pre->on && p >= pre->base && (uint64_t)(p - pre->base) + n <=
	    pre->size;
}

/*
 * Whether the thread has searched all of p[0..n) for both kinds (then the
 * lists answer pre_late_find and pre_moj_skip there); the first thread
 * is there now, which the thread is told, as by the searches.
 */
int
pre_covered(struct pre *pre, const unsigned char *p, size_t n)
{
	uint64_t a;

	if (n < 3 || !mapped_here(pre, p, n))
		return 0;
	a = (uint64_t)(p - pre->base);
	if (a > pre->lat)
		th_st(&pre->lat, a);
	if (a > pre->mat)
		th_st(&pre->mat, a);
	let_go(pre->lhit, &pre->ltail, &pre->lhead, a);
	let_go(pre->mhit, &pre->mtail, &pre->mhead, a);
	if (atomic_load(&pre_test_split))
		return 0;
	return th_ld(&pre->lcov) >= a + n - 1 && th_ld(&pre->llo) <= a &&
	    (pre->form != FORM_UTF8 || (th_ld(&pre->mcov) >= a + n - 2 &&
	    th_ld(&pre->mlo) <= a));
}

/* The offsets of the ring (hit, tail, head) from a to below e, less a,
 * into l, *nl of cap: up to the first that does not fit, returned (e
 * when all do). */
static uint64_t
take_ring(const uint64_t *hit, uint64_t *tail, const uint64_t *head,
    uint64_t a, uint64_t e, uint32_t *l, size_t *nl, size_t cap)
{
	uint64_t h, t, j;

	let_go(hit, tail, head, a);
	h = th_ld(head);
	for (t = *tail; t < h && (j = hit[t % PRE_CAP]) < e; t++) {
		if (*nl == cap)
			return j;
		l[(*nl)++] = (uint32_t)(j - a);
	}
	return e;
}

/* pre_test_split: wait until the thread has searched both kinds below
 * e, or stopped, or cannot go on: a ring it keeps is full of marks at a
 * and above, which only this thread's take lets go (a second at most: a
 * test must not hang).  The marks below a are let go first, as
 * take_ring() would. */
static void
split_wait(struct pre *pre, uint64_t a, uint64_t e)
{
	struct timespec ts = { 0, 100000 };
	int i;

	let_go(pre->lhit, &pre->ltail, &pre->lhead, a);
	let_go(pre->mhit, &pre->mtail, &pre->mhead, a);
	for (i = 0; i < 10000 && !__atomic_load_n(&pre->stopped,
	    __ATOMIC_ACQUIRE) && (th_ld(&pre->lcov) < e || th_ld(&pre->mcov) < e) &&
	    th_ld(&pre->lhead) - pre->ltail < PRE_CAP &&
	    th_ld(&pre->mhead) - pre->mtail < PRE_CAP; i++)
		nanosleep(&ts, NULL);
}

/*
 * A piece p[0..n) of UTF-8 that the thread has searched only in part
 * (pre_covered() said no): the marks it found from p on, as far as it has
 * searched both kinds, into m's lists (offsets from p, m->cap each); the
 * bytes that far are returned (0: it has not been at p), and the first
 * thread searches the rest itself.  The thread is sent on past the
 * piece, less the bytes the next piece may take again (IN_PAD), so that
 * the two search no byte twice but those of the step the thread is in.
 * A list that fills ends the bytes taken at the mark that did not fit.
 */
size_t
pre_take(struct pre *pre, const unsigned char *p, size_t n, struct marks *m)
{
	uint64_t a, c, lc, mc, e;

	m->nlt = m->nmj = 0;
	m->hard = 0;
	if (n < 3 || !mapped_here(pre, p, n) || pre->form != FORM_UTF8)
		return 0;
	a = (uint64_t)(p - pre->base);
	if (atomic_load(&pre_test_split))
		split_wait(pre, a, a + n / 2);
	/* cov before lo, as pre_covered() */
	lc = th_ld(&pre->lcov);
	mc = th_ld(&pre->mcov);
	if (th_ld(&pre->llo) > a || th_ld(&pre->mlo) > a || lc <= a || mc <= a)
		return 0;
	c = lc < mc ? lc : mc;
	if (c > a + n)
		c = a + n;
	if (atomic_load(&pre_test_split) && c > a + n / 2)
		c = a + n / 2;
	e = take_ring(pre->lhit, &pre->ltail, &pre->lhead, a, c, m->lt,
	    &m->nlt, m->cap);
	if (e < c)
		c = e;
	e = take_ring(pre->mhit, &pre->mtail, &pre->mhead, a, c, m->mj,
	    &m->nmj, m->cap);
	if (e < c) {
		c = e;
		while (m->nlt > 0 && m->lt[m->nlt - 1] >= c - a)
			m->nlt--;
	}
	e = a + n - (n < IN_PAD ? n : IN_PAD);
	if (e > pre->lat)
		th_st(&pre->lat, e);
	if (e > pre->mat)
		th_st(&pre->mat, e);
	return (size_t)(c - a);
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
	let_go(pre->lhit, &pre->ltail, &pre->lhead, a);
	lim = a + n - back;	/* the kernel looks at offsets below */
	if (!covered(&pre->lat, &pre->llo, &pre->lcov, a + i, lim))
		return late_find(lt, p, n, i);
	let_go(pre->lhit, &pre->ltail, &pre->lhead, a + i);
	h = th_ld(&pre->lhead);
	t = pre->ltail;
	/* the bytes of a hit further on, for the lexer (MARK_AHEAD) */
	if (t + MARK_AHEAD < h)
		__builtin_prefetch(pre->base + pre->lhit[(t + MARK_AHEAD) %
		    PRE_CAP]);
	if (t < h && pre->lhit[t % PRE_CAP] < lim)
		return (size_t)(pre->lhit[t % PRE_CAP] - a);
	return n;
}

/*
 * moj_skip(), from the list: the first offset kept at or after p that is
 * a candidate within p[0..n) (moj_exact8 with the C1 controls as k asks),
 * or where the kernel stops for want of bytes.
 */
size_t
pre_moj_skip(struct pre *pre, const unsigned char *p, size_t n,
    struct mojskip *k)
{
	uint64_t a, lim;

	if (k->count || n < 3 || !mapped_here(pre, p, n) ||
	    pre->form != FORM_UTF8)
		return moj_skip(p, n, k);
	a = (uint64_t)(p - pre->base);
	let_go(pre->mhit, &pre->mtail, &pre->mhead, a);
	lim = a + n - 2;	/* the offsets the kernel looks at */
	if (!covered(&pre->mat, &pre->mlo, &pre->mcov, a, lim))
		return moj_skip(p, n, k);
	return (size_t)(hit_next(pre, a, lim, a + n, k->c1, 0) - a);
}

/*
 * moj_skipw(), from the list: the first unit kept at or after p that is a
 * candidate within p[0..n) (moj_exactw), or where the kernel stops for
 * want of a next unit.
 */
size_t
pre_moj_skipw(struct pre *pre, const unsigned char *p, size_t n, int be)
{
	uint64_t a, lim;

	if (n < 4 || !mapped_here(pre, p, n) || be != pre->be ||
	    (pre->form != FORM_UTF16BE && pre->form != FORM_UTF16LE))
		return moj_skipw(p, n, be);
	a = (uint64_t)(p - pre->base);
	if (a < pre->ustart || (a - pre->ustart) % 2 != 0)
		return moj_skipw(p, n, be);
	let_go(pre->mhit, &pre->mtail, &pre->mhead, a);
	lim = a + ((n - 2) & ~(size_t)1);	/* the units with a next one */
	if (!covered(&pre->mat, &pre->mlo, &pre->mcov, a, lim))
		return moj_skipw(p, n, be);
	return (size_t)(hit_next(pre, a, lim, a + n, 0, 1) - a);
}

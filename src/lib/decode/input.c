/*
 * Reading an input in fixed buffers, so that memory stays constant
 * whatever the size of the input, shared by validation and transcoding.
 *
 * A big regular file is mapped instead, and handed on in pieces of the
 * size reads have: the kernels then read the page cache where it is,
 * with no copy, the bytes a character or a '<' held back are already in
 * front of the next piece, and a second thread may search the bytes
 * ahead (prescan.c).  The pages behind are given back as it goes.
 * The bytes are the same, in the same order, as reading gives, and the
 * file offset is left where reading would leave it.  A file that shrinks
 * while it is mapped (its pages past the new end raise SIGBUS) is an
 * error: the pages are replaced by zeros and the input fails with
 * "the file shrank while it was read" (or, when a page of a file that
 * kept its size could not be read, with EIO).
 */
/* MAP_ANONYMOUS (POSIX.1-2024; not in the 2008 edition) */
#define _DEFAULT_SOURCE

#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "testhooks.h"

/* Map only when this much is left: mapping costs a few system calls,
 * about what four reads cost. */
#ifndef MAP_MIN
#define MAP_MIN		(4 * (long long)IN_SIZE)
#endif
/* Read ahead on a second thread only when this much is left: the thread
 * costs a fraction of a millisecond to start. */
#ifndef AHEAD_MIN
#define AHEAD_MIN	(16 * (long long)IN_SIZE)
#endif
/* The pages behind are given back each time this much is behind. */
#define MAP_DROP	((long long)1 << 20)

/*
 * Read up to n bytes from fd into p, retrying short reads until EOF or,
 * when stop >= 0, until the offset stop is reached (got: bytes read from
 * the file before this call; no read just to see the end: a file that
 * grows meanwhile is analysed as it was).  -1 on error.
 */
static ssize_t
read_full(int fd, unsigned char *p, size_t n, long long got, long long stop)
{
	size_t done = 0;

	while (done < n) {
		if (stop >= 0 && got + (long long)done >= stop && done > 0)
			break;
		ssize_t r = read(fd, p + done, n - done);

		if (r < 0) {
			int fl;

			if (errno == EINTR)
				continue;
			/* Opened with O_NONBLOCK (under -r) on a file system
			 * that honours it for regular files: block after all. */
			if (errno == EAGAIN && (fl = fcntl(fd, F_GETFL)) >= 0 &&
			    (fl & O_NONBLOCK) && fcntl(fd, F_SETFL,
			    fl & ~O_NONBLOCK) == 0)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

/*
 * Drop the first used bytes of b and keep the rest just before the read
 * area, or, when more is kept than the pad holds (not expected:
 * characters are short), at the start of the buffer; return where the
 * bytes that follow them go.
 */
static unsigned char *
keep_rest(struct inbuf *b, size_t used)
{
	size_t keep = b->n - used;
	unsigned char *to = keep > IN_PAD ? b->mem : b->mem + IN_PAD - keep;

	memmove(to, b->p + used, keep);
	b->p = to;
	return to + keep;
}

/* Fill b's buffer from dst on from b->fd (the kept bytes are before it). */
static int
refill_read(struct inbuf *b, unsigned char *dst)
{
	long long stop = b->trust_size ? b->size : -1;
	size_t room = (size_t)(b->mem + IN_PAD + IN_SIZE - dst);
	ssize_t r;

	if ((r = read_full(b->fd, dst, room, b->got, stop)) < 0)
		return -1;
	b->got += r;
	b->n = (size_t)(dst - b->p) + (size_t)r;
	b->eof = (size_t)r < room;
	return 0;
}

/*
 * The mappings that the SIGBUS handler may have to mend, one a slot: a
 * mapping takes a free slot for as long as it lasts (none free: the file
 * is read, not mapped).  Any thread may map, and on_bus() runs on
 * whichever thread touched the page (the look-ahead thread of prescan.c
 * as often as the one that maps): base, len and shrunk are C11 atomics,
 * lock-free and so usable in a handler (C11 7.14.1.1).  A slot is taken
 * by its used flag, then filled, then published by its base.
 */
#define MAP_SLOTS	64
static struct {
	atomic_int	 used;
	_Atomic(uintptr_t) base;	/* 0: no mapping here */
	_Atomic(size_t)	 len;
	atomic_int	 shrunk;	/* a page past the end was mended */
} slots[MAP_SLOTS];
/* The handler there was before on_bus(), set once (bus_once). */
static struct sigaction old_bus;
static int bus_ok;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;

/* SIGBUS on a page of a mapping past the end of a file that shrank:
 * zeros instead, and the input fails at its next refill.  Any other
 * SIGBUS is the previous handler's (or kills, as it would have). */
static void
on_bus(int sig, siginfo_t *si, void *uc)
{
	unsigned char *a = si->si_addr;
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), base;
	int i;

	(void)uc;
	for (i = 0; i < MAP_SLOTS; i++) {
		base = atomic_load(&slots[i].base);
		if (base == 0 || (uintptr_t)a < base ||
		    (uintptr_t)a >= base + atomic_load(&slots[i].len))
			continue;
		if (mmap((void *)((uintptr_t)a & ~(pg - 1)), (size_t)pg,
		    PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		    0) == MAP_FAILED)
			break;
		atomic_store(&slots[i].shrunk, 1);
		return;
	}
	sigaction(sig, &old_bus, NULL);
}

static void
bus_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	bus_ok = sigaction(SIGBUS, &sa, &old_bus) == 0;
}

/* Whether on_bus() is the SIGBUS handler (set once, by whichever thread
 * maps first). */
static int
bus_guard(void)
{
	pthread_once(&bus_once, bus_install);
	return bus_ok;
}

/* A slot for the mapping base[0..len) into m, or -1 with none free. */
static int
slot_take(struct inmap *m, unsigned char *base, size_t len)
{
	int i, no;

	for (i = 0; i < MAP_SLOTS; i++) {
		no = 0;
		if (!atomic_compare_exchange_strong(&slots[i].used, &no, 1))
			continue;
		atomic_store(&slots[i].shrunk, 0);
		atomic_store(&slots[i].len, len);
		atomic_store(&slots[i].base, (uintptr_t)base);
		m->slot = i;
		return 0;
	}
	return -1;
}

/* The slot of m given up (before its mapping goes); whether a page of it
 * was mended. */
static int
slot_give(struct inmap *m)
{
	int shrunk = atomic_load(&slots[m->slot].shrunk);

	atomic_store(&slots[m->slot].base, 0);
	atomic_store(&slots[m->slot].used, 0);
	return shrunk;
}

/* Whether a page of m has been mended so far. */
static int
map_shrunk(const struct inmap *m)
{
	return atomic_load(&slots[m->slot].shrunk);
}

/* base[0..len) mapped for m, with a slot; -1 (and no mapping) when no
 * slot is free. */
static int
map_set(struct inmap *m, void *base, size_t len)
{
	if (slot_take(m, base, len) < 0) {
		(void)munmap(base, len);
		return -1;
	}
	m->base = base;
	m->len = len;
	return 0;
}

/* The mapping of m goes; whether a page of it was mended. */
static int
map_unset(struct inmap *m)
{
	int shrunk = slot_give(m);

	(void)munmap(m->base, m->len);
	m->base = NULL;
	return shrunk;
}

/*
 * Map b from here on, when it is worth it: a regular file with enough
 * left (by its size when it was opened), the fast paths in use (not
 * XMLSNIFF_SIMD=ref, which reads, for a second way to the same answers).
 * Where mapping fails it is read as before.  in_map_end() must follow.
 */
void
in_map_begin(struct inbuf *b)
{
	void *m;

	if (b->mapped || b->nomap || b->ra != NULL || b->size < 0 || b->eof ||
	    val_char_only || b->size - b->got < MAP_MIN ||
	    (unsigned long long)b->size > SIZE_MAX / 4 || !bus_guard())
		return;
	m = mmap(NULL, (size_t)b->size, PROT_READ, MAP_PRIVATE, b->fd, 0);
	if (m == MAP_FAILED || map_set(&b->mp, m, (size_t)b->size) < 0)
		return;
	(void)madvise(m, (size_t)b->size, MADV_SEQUENTIAL);
	b->mp.end = b->size;
	b->mp.dropped = 0;
	b->mp.reading = 0;
	b->mapped = 1;
}

/* The mapping of b, and its length (NULL: not mapped). */
const unsigned char *
in_map(const struct inbuf *b, size_t *len)
{
	*len = b->mp.len;
	return b->mapped ? b->mp.base : NULL;
}

/*
 * A page of the mapping could not be read (SIGBUS): the file shrank
 * (b->shrunk), or, at the size it had, the disk or the file system
 * failed.  Return -1 with errno EIO.
 */
static int
map_failed(struct inbuf *b)
{
	struct stat st;

	b->shrunk = fstat(b->fd, &st) == 0 && st.st_size < b->mp.end;
	errno = EIO;
	return -1;
}

/*
 * Stop mapping: the mapping goes and the file offset is set where
 * reading would have left it.  Return 0, or -1 with errno (EIO when a
 * page could not be read: map_failed()).
 */
int
in_map_end(struct inbuf *b)
{
	int rc = 0;

	if (!b->mapped)
		return 0;
	b->mapped = 0;
	/* nothing of the mapping may be read once it is gone */
	if (!b->mp.reading) {
		b->p = b->mem + IN_PAD;
		b->n = 0;
	}
	if (map_unset(&b->mp))
		rc = map_failed(b);
	else if (!b->mp.reading && lseek(b->fd, (off_t)b->got, SEEK_SET) < 0)
		rc = -1;
	return rc;
}

/*
 * A second look at len bytes of b's file from offset off (the guess, once
 * the input is analysed and its mapping gone): mapped, with the same
 * guard against a file that shrinks, or NULL where it cannot be (then
 * read it).  in_view_end() must follow.
 */
const unsigned char *
in_view(struct inbuf *b, long long off, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), lead;
	void *m;

	if (b->mp.base != NULL || b->nomap || len == 0 || off < 0 ||
	    val_char_only || !bus_guard())
		return NULL;
	lead = (size_t)off % pg;
	if (len > SIZE_MAX / 4 - lead)
		return NULL;
	m = mmap(NULL, lead + len, PROT_READ, MAP_PRIVATE, b->fd,
	    (off_t)(off - (long long)lead));
	if (m == MAP_FAILED || map_set(&b->mp, m, lead + len) < 0)
		return NULL;
	(void)madvise(m, lead + len, MADV_SEQUENTIAL);
	return (const unsigned char *)m + lead;
}

/* The view of b goes; return 0, or -1 when a page of it could not be read
 * (the file shrank: zeros were read in its place). */
int
in_view_end(struct inbuf *b)
{
	if (b->mp.base == NULL)
		return 0;
	return map_unset(&b->mp) ? -1 : 0;
}

/*
 * in_refill() from the mapping: the next piece, as long as a read would
 * give (IN_SIZE after what was handed on, or after IN_PAD kept bytes),
 * with the kept bytes in front where they are.  The pages behind are
 * given back now and then, so that memory stays constant.  Past the
 * mapped end (a transcode reads to the real end: the file may have
 * grown) the kept bytes go to b's buffer and reading takes over.
 */
static int
refill_map(struct inbuf *b, size_t used)
{
	struct inmap *mp = &b->mp;
	long long pg = (long long)sysconf(_SC_PAGESIZE);
	size_t keep = b->n - used;
	long long x = b->got - (long long)keep, e;

	if (map_shrunk(mp))
		return map_failed(b);
	if (b->got >= mp->end) {
		mp->reading = 1;
		if (lseek(b->fd, (off_t)b->got, SEEK_SET) < 0)
			return -1;
		return refill_read(b, keep_rest(b, used));
	}
	if (x - mp->dropped >= MAP_DROP) {
		e = x - x % pg;
		(void)madvise(mp->base + mp->dropped, (size_t)(e -
		    mp->dropped), MADV_DONTNEED);
		mp->dropped = e;
	}
	e = keep > IN_PAD ? x + (long long)(IN_PAD + IN_SIZE) :
	    b->got + (long long)IN_SIZE;
	if (e > mp->end)
		e = mp->end;
	b->p = mp->base + x;
	b->n = (size_t)(e - x);
	b->got = e;
	b->eof = b->trust_size && e == mp->end;
	return 0;
}

/*
 * Bytes pushed rather than read (a checker's feeds): in_push() takes
 * what a read would take into the room after the bytes b holds, and
 * in_drop() drops the first used bytes, keeping the rest just before the
 * read area, as in_refill() does; the pieces are then those reads give.
 */
size_t
in_push(struct inbuf *b, const unsigned char *p, size_t n)
{
	unsigned char *dst = b->p + b->n;
	size_t room = (size_t)(b->mem + IN_PAD + IN_SIZE - dst);

	if (n > room)
		n = room;
	memcpy(dst, p, n);
	b->n += n;
	b->got += (long long)n;
	return n;
}

/* Whether b has no room left: the piece is as long as a read gives. */
int
in_full(const struct inbuf *b)
{
	return b->p + b->n == b->mem + IN_PAD + IN_SIZE;
}

void
in_drop(struct inbuf *b, size_t used)
{
	unsigned char *end = keep_rest(b, used);

	b->n = (size_t)(end - b->p);
}

/*
 * Bytes of a buffer in memory, buf[0..len), read in place: the next
 * piece of b as a read of them would give it (the kept bytes are before
 * it already), with nothing copied.
 */
void
in_from(struct inbuf *b, const unsigned char *buf, size_t len, size_t used)
{
	size_t keep = b->n - used;
	long long x = b->got - (long long)keep;
	size_t room = keep > IN_PAD ? IN_PAD + IN_SIZE - keep : IN_SIZE;
	size_t r = len - (size_t)b->got < room ? len - (size_t)b->got : room;

	/* Read only: nothing writes through b->p (keep_rest copies to mem,
	 * which a buffer read in place does not use). */
	b->p = (unsigned char *)(uintptr_t)(buf + x);
	b->n = keep + r;
	b->got += (long long)r;
	b->eof = r < room;
}

/*
 * Drop the first used bytes of b, keep the rest just before the read area
 * and fill it from b->fd.  Return 0, or -1 with errno on a read error.
 */
int
in_refill(struct inbuf *b, size_t used)
{
	unsigned char *dst;
	int rc;

	if (b->mapped && !b->mp.reading)
		return refill_map(b, used);
	if (b->ra != NULL) {
		if ((rc = ah_next(b->ra, b, used)) != 0)
			return rc < 0 ? -1 : 0;
		/* every slot given: the kept bytes to b's buffer, and
		 * reading on from where the thread stopped */
		dst = keep_rest(b, used);
		if (in_ahead_end(b) < 0)
			return -1;
		return refill_read(b, dst);
	}
	return refill_read(b, keep_rest(b, used));
}

/*
 * Read b ahead on a second thread (ahead.c) from here on, when it is
 * worth it: a regular file, not mapped, with at least AHEAD_MIN left by
 * its size, the fast paths in use (not XMLSNIFF_SIMD=ref, which reads in
 * one thread).  The thread also searches what it reads for the marks
 * that mark names (AHM_, engine.h: UTF-8, UTF-16, UTF-32 or ASCII-based
 * single-byte text; the validator takes them with the piece:
 * val_feed_in(), in_marks()); in_ahead_mark() changes them.  Where the
 * thread cannot start it is read as before.  in_ahead_end() must follow.
 */
atomic_llong ahead_test_min;

void
in_ahead_begin(struct inbuf *b, int mark)
{
	long long min = atomic_load(&ahead_test_min);
	struct stat st;

	if (min == 0)
		min = AHEAD_MIN;
	if (b->ra != NULL || b->mapped || b->size < 0 || b->eof ||
	    val_char_only || b->size - b->got < min ||
	    fstat(b->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	b->ra = ah_begin(b->fd, b->got, b->trust_size ? b->size : -1, mark);
}

/* Whether b is read ahead; the thread then searches the pieces it reads
 * from now on for the marks mark names (AHM_). */
int
in_ahead_mark(struct inbuf *b, int mark)
{
	if (b->ra == NULL)
		return 0;
	ah_set_mark(b->ra, mark);
	return 1;
}

/* The marks of the piece b holds that the thread reading ahead found
 * (ah_marks), or NULL. */
const struct marks *
in_marks(const struct inbuf *b)
{
	return b->ra != NULL ? ah_marks(b->ra, b) : NULL;
}

/*
 * Stop reading ahead: the thread goes, with the bytes it read past those
 * handed on, and the file offset is set where reading would have left
 * it.  Nothing of a piece in a slot may be read once it is gone.  Return
 * 0, or -1 with errno.
 */
int
in_ahead_end(struct inbuf *b)
{
	uintptr_t p = (uintptr_t)b->p, m = (uintptr_t)b->mem;

	if (b->ra == NULL)
		return 0;
	ah_end(b->ra);
	b->ra = NULL;
	if (p < m || p > m + IN_PAD + IN_SIZE) {
		b->p = b->mem + IN_PAD;
		b->n = 0;
	}
	return lseek(b->fd, (off_t)b->got, SEEK_SET) < 0 ? -1 : 0;
}

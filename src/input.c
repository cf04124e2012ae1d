/*
 * Reading an input in fixed buffers, so that memory stays constant
 * whatever the size of the input, shared by validation and transcoding.
 *
 * A big regular file is read ahead: a second thread
 * reads the next buffer while the caller works on this one, so that the
 * kernel's copy and the validation overlap on two processors.  The two
 * buffers are swapped, never copied; the bytes read are the same, in the
 * same order, and the file offset is left where the serial reading would
 * leave it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "testhooks.h"

/* Read ahead only when this much is left: a thread costs tens of
 * microseconds to start, a buffer's read about as much. */
#ifndef AHEAD_MIN
#define AHEAD_MIN	(4 * (long long)IN_SIZE)
#endif

#ifndef SPIN
#define SPIN	4000
#endif
#if defined(__x86_64__) || defined(__i386__)
#define SPIN_PAUSE()	__builtin_ia32_pause()
#else
#define SPIN_PAUSE()	do { } while (0)
#endif

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
 * The reader: its buffer (IN_PAD + IN_SIZE bytes, the bytes at IN_PAD),
 * and what it holds.  The buffer and the result are the reader's from
 * want until ready; the flags are set with release and read with acquire
 * order, and a thread that waits long sleeps on its condition under mu.
 */
struct ahead {
	pthread_t	 t;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv_reader, cv_main;
	int		 asleep_reader, asleep_main;	/* under mu */
	int		 want, ready, quit;
	int		 fd;
	long long	 got;		/* bytes the reader has read */
	long long	 stop;
	unsigned char	*mem;
	size_t		 off, len;	/* the bytes not handed on yet */
	int		 eof;		/* nothing after them */
	int		 err;		/* the read failed: its errno */
};

static int
seen(int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

/*
 * Wait until *flag or a->quit is set.  Polled first, for about as long as
 * a read of a buffer takes: being put to sleep and woken costs more on a
 * virtual machine (an interrupt between processors).
 */
static void
wait_for(struct ahead *a, int *flag, pthread_cond_t *cv, int *asleep)
{
	int i;

	for (i = 0; i < SPIN; i++) {
		if (seen(flag) || seen(&a->quit))
			return;
		SPIN_PAUSE();
	}
	pthread_mutex_lock(&a->mu);
	*asleep = 1;
	while (!seen(flag) && !seen(&a->quit))
		pthread_cond_wait(cv, &a->mu);
	*asleep = 0;
	pthread_mutex_unlock(&a->mu);
}

/* Set *flag, and wake the thread that waits for it if it sleeps. */
static void
post(struct ahead *a, int *flag, pthread_cond_t *cv, const int *asleep)
{
	pthread_mutex_lock(&a->mu);
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
	if (*asleep)
		pthread_cond_signal(cv);
	pthread_mutex_unlock(&a->mu);
}

static void *
reader(void *arg)
{
	struct ahead *a = arg;
	ssize_t r;

	for (;;) {
		wait_for(a, &a->want, &a->cv_reader, &a->asleep_reader);
		if (seen(&a->quit))
			break;
		__atomic_store_n(&a->want, 0, __ATOMIC_RELAXED);
		r = read_full(a->fd, a->mem + IN_PAD, IN_SIZE, a->got,
		    a->stop);
		if (r < 0) {
			a->err = errno != 0 ? errno : EIO;
			a->len = 0;
		} else {
			a->got += r;
			a->off = IN_PAD;
			a->len = (size_t)r;
			a->eof = (size_t)r < IN_SIZE;
		}
		post(a, &a->ready, &a->cv_main, &a->asleep_main);
	}
	return NULL;
}

/* Ask the reader for the next buffer (its own is free). */
static void
ask(struct ahead *a)
{
	__atomic_store_n(&a->ready, 0, __ATOMIC_RELAXED);
	post(a, &a->want, &a->cv_reader, &a->asleep_reader);
}

/* Wait for the buffer asked for. */
static void
await(struct ahead *a)
{
	wait_for(a, &a->ready, &a->cv_main, &a->asleep_main);
}

static struct ahead ah;
static int ah_init;		/* mu and cv made */
static int ah_off;		/* in_ahead_allow(0) */

/* Whether big files may be read ahead: not in the workers of -j, whose
 * number is that of the processors already. */
void
in_ahead_allow(int yes)
{
	ah_off = !yes;
}

/*
 * Read b ahead from here on, when it is worth it: a regular file with
 * enough left (by its size when it was opened), the fast paths in use
 * (not XMLSNIFF_SIMD=ref).  Without a thread, or a buffer, it is read as
 * before.  in_ahead_end() must follow.
 */
void
in_ahead_begin(struct inbuf *b)
{
	sigset_t all, old;
	int e;

	if (b->ahead || ah_off || b->size < 0 || b->eof || val_char_only ||
	    b->size - b->got < AHEAD_MIN)
		return;
	if (ah.mem == NULL && posix_memalign((void **)&ah.mem, 4096,
	    IN_PAD + IN_SIZE) != 0) {
		ah.mem = NULL;
		return;
	}
	if (!ah_init) {
		if (pthread_mutex_init(&ah.mu, NULL) != 0)
			return;
		if (pthread_cond_init(&ah.cv_reader, NULL) != 0) {
			pthread_mutex_destroy(&ah.mu);
			return;
		}
		if (pthread_cond_init(&ah.cv_main, NULL) != 0) {
			pthread_cond_destroy(&ah.cv_reader);
			pthread_mutex_destroy(&ah.mu);
			return;
		}
		ah_init = 1;
	}
	ah.fd = b->fd;
	ah.got = b->got;
	ah.stop = b->trust_size ? b->size : -1;
	ah.want = 1;
	ah.ready = 0;
	ah.quit = 0;
	ah.err = 0;
	ah.len = 0;
	ah.eof = 0;
	/* Signals are the first thread's (a transcode's handlers remove
	 * its temporary file; a read is never interrupted). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&ah.t, NULL, reader, &ah);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e == 0)
		b->ahead = 1;
}

/*
 * Stop reading ahead: the reader is joined, and what it read beyond what
 * was handed on is given back to the file (its offset is where reading
 * b alone would have left it).  Return 0, or -1 with errno.
 */
int
in_ahead_end(struct inbuf *b)
{
	int rc = 0;

	if (!b->ahead)
		return 0;
	b->ahead = 0;
	await(&ah);
	post(&ah, &ah.quit, &ah.cv_reader, &ah.asleep_reader);
	pthread_join(ah.t, NULL);
	if (ah.got > b->got &&
	    lseek(b->fd, -(off_t)(ah.got - b->got), SEEK_CUR) < 0)
		rc = -1;
	return rc;
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

/* in_refill() from the reader's buffer. */
static int
refill_ahead(struct inbuf *b, size_t used)
{
	unsigned char *dst, *t;
	size_t keep = b->n - used, c;

	await(&ah);
	if (ah.err != 0) {
		errno = ah.err;
		return -1;
	}
	if (keep <= IN_PAD && ah.off == IN_PAD) {
		/* The usual case: the full buffer changes hands. */
		memcpy(ah.mem + IN_PAD - keep, b->p + used, keep);
		t = b->mem;
		b->mem = ah.mem;
		ah.mem = t;
		b->p = b->mem + IN_PAD - keep;
		b->n = keep + ah.len;
		b->got += (long long)ah.len;
		b->eof = ah.eof;
		ah.len = 0;
		if (!ah.eof)
			ask(&ah);
		return 0;
	}
	/* More kept than the pad holds (not expected: characters are
	 * short), or the rest of such a buffer: copied. */
	dst = keep_rest(b, used);
	c = (size_t)(b->mem + IN_PAD + IN_SIZE - dst);
	if (c > ah.len)
		c = ah.len;
	memcpy(dst, ah.mem + ah.off, c);
	ah.off += c;
	ah.len -= c;
	b->n = keep + c;
	b->got += (long long)c;
	b->eof = ah.eof && ah.len == 0;
	if (ah.len == 0 && !ah.eof)
		ask(&ah);
	return 0;
}

/*
 * Drop the first used bytes of b, keep the rest just before the read area
 * and fill it from b->fd.  Return 0, or -1 with errno on a read error.
 */
int
in_refill(struct inbuf *b, size_t used)
{
	long long stop = b->trust_size ? b->size : -1;
	unsigned char *dst;
	size_t room;
	ssize_t r;

	if (b->ahead)
		return refill_ahead(b, used);
	dst = keep_rest(b, used);
	room = (size_t)(b->mem + IN_PAD + IN_SIZE - dst);
	if ((r = read_full(b->fd, dst, room, b->got, stop)) < 0)
		return -1;
	b->got += r;
	b->n = (size_t)(dst - b->p) + (size_t)r;
	b->eof = (size_t)r < room;
	return 0;
}

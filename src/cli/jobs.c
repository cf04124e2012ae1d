/*
 * -j N: the inputs analysed by N worker processes at once, the output
 * byte for byte that of one process (xmlsniff(1), -j).
 *
 * The parent walks as ever (operands, --files0-from, -r), but hands each
 * input it would open to a worker instead, in chunks of consecutive
 * inputs; what it prints itself on the way (a directory it cannot read)
 * is kept in the chunk in its place.  A chunk goes to the worker with
 * the fewest inputs left (pick()); each worker reads names on its task
 * pipe, analyses them one after the other, and sends its records
 * (record.c) back on its result pipe as frames: a byte saying the
 * descriptor (1, 2, or 3 for a SARIF notification), the length, the
 * bytes; then, at the end of each input, a frame of kind 0 carrying the
 * exit status so far.  The parent writes the chunks out in order.  It
 * reads a worker's records ahead of their turn only up to AHEAD_BUF, so
 * that no pipe holds more than it can (backpressure), and at most about
 * RING_PER chunks a worker are in flight.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs.h"
#include "opts.h"
#include "worker.h"

#define CHUNK_FIRST	16	/* inputs in each of the first chunks */
#define CHUNK_INPUTS	64	/* inputs in a chunk after them */
#define RING_PER	4	/* the ring: this many chunks a worker, and 2 */
#define CHUNK_BYTES	65536	/* a chunk is sent when it holds this */
#define AHEAD_BUF	(1 << 20)	/* the parent reads a worker's frames
				 * ahead of their turn up to this */

struct chunk {
	struct buf	 items;	/* local records and K_TASK, in order */
	struct buf	 task;	/* the message for the worker */
	size_t		 sent;	/* of task */
	size_t		 last;	/* where in task the last input is */
	size_t		 ntasks;
	size_t		 at;	/* parent: the next item to write out */
	int		 w;	/* the worker, -1 for none */
};

struct worker {
	pid_t		 pid;
	int		 tfd;	/* tasks, to it */
	int		 rfd;	/* results, from it */
	struct buf	 in;	/* results read, from off */
	size_t		 off;
	size_t		 scan;	/* in: the frames before this are counted */
	unsigned long	 send;	/* the first chunk it may yet be sent */
	unsigned long	 given;	/* inputs sent to it */
	unsigned long	 done;	/* inputs whose end frame has come */
	int		 eof;	/* its result pipe has ended */
};

static struct {
	int		 on;
	int		 n;		/* workers */
	int		 started;
	int		 dead;
	struct worker	 w[JOBS_MAX];
	struct chunk	*ring;
	unsigned long	 nring;
	unsigned long	 head;		/* the chunk written out next */
	unsigned long	 tail;		/* the chunk being filled */
	unsigned long	 ntask;		/* chunks with inputs so far */
	int		 status;
	int		 (*fn)(const char *, int);
} j;

/* Start the workers; return 0, or -1 (the run stays in the parent). */
static int
start(void)
{
	int i, k, tp[2], rp[2];
	pid_t pid;

	/* Nothing the parent holds is written twice. */
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < j.n; i++) {
		if (pipe(tp) < 0)
			return -1;
		if (pipe(rp) < 0) {
			close(tp[0]);
			close(tp[1]);
			return -1;
		}
		if ((pid = fork()) < 0) {
			close(tp[0]);
			close(tp[1]);
			close(rp[0]);
			close(rp[1]);
			return -1;
		}
		if (pid == 0) {
			/* Another worker's pipe held open would keep it
			 * from seeing the end of its tasks. */
			for (k = 0; k < i; k++) {
				close(j.w[k].tfd);
				close(j.w[k].rfd);
			}
			close(tp[1]);
			close(rp[0]);
			worker_run(tp[0], rp[1], j.fn);
		}
		close(tp[0]);
		close(rp[1]);
		fcntl(tp[1], F_SETFD, FD_CLOEXEC);
		fcntl(rp[0], F_SETFD, FD_CLOEXEC);
		fcntl(tp[1], F_SETFL, fcntl(tp[1], F_GETFL) | O_NONBLOCK);
		j.w[i].pid = pid;
		j.w[i].tfd = tp[1];
		j.w[i].rfd = rp[0];
		j.started = i + 1;
	}
	return 0;
}

static void local(int, const char *, size_t);

/* A worker is gone before its inputs were reported: say so once, stop
 * the others; nothing after is written, and the run ends with exit
 * status 2. */
static void
died(int w)
{
	int st, i;

	if (j.dead)
		return;
	j.dead = 1;
	j.status = 2;
	for (i = 0; i < j.started; i++)
		if (i != w)
			kill(j.w[i].pid, SIGTERM);
	rec_divert(NULL);
	if (waitpid(j.w[w].pid, &st, 0) == j.w[w].pid && WIFSIGNALED(st))
		report_warn(NULL, 0, "worker process %ld was killed by signal "
		    "%d; the inputs after this point are not reported",
		    (long)j.w[w].pid, WTERMSIG(st));
	else
		report_warn(NULL, 0, "worker process %ld ended early; the "
		    "inputs after this point are not reported",
		    (long)j.w[w].pid);
	rec_divert(local);
}

/*
 * Write out what the head chunks hold that is here: their local records,
 * and the frames their workers have sent.  Return 1 when the head chunk
 * waits for its worker, 0 when every sealed chunk is written out.
 */
static int
drain(void)
{
	while (j.head < j.tail) {
		struct chunk *c = &j.ring[j.head % j.nring];

		while (c->at < c->items.n) {
			char kind = c->items.p[c->at];
			uint32_t len;

			memcpy(&len, c->items.p + c->at + 1, 4);
			if (kind != K_TASK) {
				format_splice(opt.fmt, kind,
				    c->items.p + c->at + HDR, len);
				c->at += HDR + len;
				continue;
			}
			/* The worker's frames for this input, to its end. */
			for (;;) {
				struct worker *w = &j.w[c->w];
				char *f = w->in.p + w->off;
				size_t fs = frame_size(f, w->in.n - w->off);
				uint32_t flen;

				if (fs == 0)
					return 1;
				memcpy(&flen, f + 1, 4);
				w->off += fs;
				if (f[0] == K_END) {
					if ((int)flen > j.status)
						j.status = (int)flen;
					break;
				}
				format_splice(opt.fmt, f[0], f + HDR, flen);
			}
			c->at += HDR;
		}
		c->items.n = c->task.n = c->sent = c->ntasks = c->at = 0;
		j.head++;
	}
	return 0;
}

/* The frames of w come in whole or in part: count the inputs it has
 * finished, which seal() weighs. */
static void
count_ends(struct worker *w)
{
	size_t fs;

	while ((fs = frame_size(w->in.p + w->scan, w->in.n - w->scan)) > 0) {
		w->done += w->in.p[w->scan] == K_END;
		w->scan += fs;
	}
}

/* Read what worker w has sent; return 0, or -1 at its end. */
static int
take(struct worker *w)
{
	ssize_t r;

	/* off <= scan <= in.n: drain() takes whole frames only, and every
	 * whole frame was counted when it came; so moving the bytes down by
	 * off moves scan with them, and an emptied buffer has scan at 0. */
	if (w->off > 0 && w->off == w->in.n)
		w->in.n = w->scan = w->off = 0;
	else if (w->off > w->in.cap / 2) {
		memmove(w->in.p, w->in.p + w->off, w->in.n - w->off);
		w->in.n -= w->off;
		w->scan -= w->off;
		w->off = 0;
	}
	if (w->in.cap - w->in.n < 4096) {
		size_t cap = w->in.cap ? 2 * w->in.cap : 65536;
		char *np = realloc(w->in.p, cap);

		if (np == NULL)
			return -1;
		w->in.p = np;
		w->in.cap = cap;
	}
	while ((r = read(w->rfd, w->in.p + w->in.n, w->in.cap - w->in.n)) < 0 &&
	    errno == EINTR)
		;
	if (r <= 0) {
		w->eof = 1;
		return -1;
	}
	w->in.n += (size_t)r;
	count_ends(w);
	return 0;
}

/* The chunk worker w is to be sent next, or NULL. */
static struct chunk *
to_send(struct worker *w, int wi)
{
	if (w->send < j.head)
		w->send = j.head;
	for (; w->send < j.tail; w->send++) {
		struct chunk *c = &j.ring[w->send % j.nring];

		if (c->w == wi && c->sent < c->task.n)
			return c;
	}
	return NULL;
}

/* Send what chunk c holds for worker w that its pipe takes now.  A
 * worker gone (EPIPE) is seen at its result pipe: SIGPIPE is held. */
static void
give(struct worker *w, struct chunk *c)
{
	sigset_t pipe_set, old, pend;
	ssize_t r;
	int sig;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	r = write(w->tfd, c->task.p + c->sent, c->task.n - c->sent);
	if (r > 0)
		c->sent += (size_t)r;
	else if (r < 0 && errno == EPIPE) {
		c->sent = c->task.n;
		if (sigpending(&pend) == 0 && sigismember(&pend, SIGPIPE))
			sigwait(&pipe_set, &sig);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * Move the run on: send tasks, read results, write out what is in order.
 * Return when the chunks in flight are below the limit (until all are
 * written out, when all).
 */
static void
pump(int all)
{
	struct pollfd pf[2 * JOBS_MAX];
	int who[2 * JOBS_MAX];
	int i, np;

	for (;;) {
		struct chunk *h;

		if (drain() == 0 && all)
			return;
		if (j.dead || (!all && j.tail - j.head < j.nring - 1))
			return;
		h = &j.ring[j.head % j.nring];
		np = 0;
		for (i = 0; i < j.started; i++)
			if (to_send(&j.w[i], i) != NULL) {
				pf[np].fd = j.w[i].tfd;
				pf[np].events = POLLOUT;
				who[np++] = i;
			}
		pf[np].fd = j.w[h->w].rfd;
		pf[np].events = POLLIN;
		who[np++] = -1 - h->w;
		/* The others' frames too, while they are few: what they
		 * have finished is how seal() knows who is ahead. */
		for (i = 0; i < j.started; i++)
			if (i != h->w && !j.w[i].eof &&
			    j.w[i].in.n - j.w[i].off < AHEAD_BUF) {
				pf[np].fd = j.w[i].rfd;
				pf[np].events = POLLIN;
				who[np++] = -1 - i;
			}
		while (poll(pf, (nfds_t)np, -1) < 0)
			if (errno != EINTR)
				return;
		for (i = 0; i < np; i++) {
			if (pf[i].revents == 0)
				continue;
			if (who[i] >= 0) {
				struct chunk *c = to_send(&j.w[who[i]], who[i]);

				if (c != NULL)
					give(&j.w[who[i]], c);
			} else if (take(&j.w[-1 - who[i]]) < 0 &&
			    -1 - who[i] == h->w) {
				/* Another's end is seen when its chunk is
				 * next, after all before it is written. */
				died(h->w);
				return;
			}
		}
	}
}

/* The parent's record.c diversion while it analyses: in place. */
static void
direct(int fd, const char *p, size_t n)
{
	format_splice(opt.fmt, fd, p, n);
}

/* No worker: the parent analyses the inputs of chunk c itself, each
 * record in its place, and empties it. */
static void
run_local(struct chunk *c)
{
	size_t at = 0, t = 0;
	char *name = NULL;

	rec_divert(direct);
	while (at < c->items.n) {
		uint32_t len;
		int st;

		memcpy(&len, c->items.p + at + 1, 4);
		if (c->items.p[at] != K_TASK) {
			format_splice(opt.fmt, c->items.p[at],
			    c->items.p + at + HDR, len);
			at += HDR + len;
			continue;
		}
		at += HDR;
		memcpy(&len, c->task.p + t + 1, 4);
		if ((name = realloc(name, (size_t)len + 1)) == NULL) {
			report_warn(NULL, 0, "%s", strerror(ENOMEM));
			j.status = 2;
			break;
		}
		memcpy(name, c->task.p + t + HDR, len);
		name[len] = '\0';
		if ((st = j.fn(name, c->task.p[t] & T_TOP)) > j.status)
			j.status = st;
		t += HDR + len;
	}
	free(name);
	c->items.n = c->task.n = c->sent = c->ntasks = c->at = 0;
	rec_divert(local);
}

/*
 * The worker the chunk being sealed goes to: each its first in turn, then
 * the one with the fewest inputs left of those it was given.  A worker
 * that shares its processor with the parent, or with anything else, is
 * given less, and the others do not wait for it (a ring assigned in turn
 * held the faster to the pace of the slower).
 */
static int
pick(void)
{
	unsigned long least = (unsigned long)-1;
	int i, k, best = 0;

	if (j.ntask < (unsigned long)j.n)
		return (int)j.ntask;
	for (k = 0; k < j.n; k++) {
		i = (int)((j.ntask + (unsigned long)k) % (unsigned long)j.n);
		if (j.w[i].given - j.w[i].done < least) {
			least = j.w[i].given - j.w[i].done;
			best = i;
		}
	}
	return best;
}

/* The chunk being filled is done: to its worker, and a new one begun. */
static void
seal(void)
{
	struct chunk *c = &j.ring[j.tail % j.nring];

	if (c->items.n == 0)
		return;
	c->w = -1;
	if (c->ntasks > 0) {
		if (!j.started && start() < 0)
			j.n = j.started;
		if (j.n == 0) {
			run_local(c);
			return;
		}
		c->task.p[c->last] |= T_LAST;
		c->w = pick();
		j.w[c->w].given += c->ntasks;
		j.ntask++;
	}
	j.tail++;
	pump(0);
}

/* The number of inputs the chunk being filled may take. */
static size_t
chunk_inputs(void)
{
	return j.ntask < (unsigned long)j.n ? CHUNK_FIRST : CHUNK_INPUTS;
}

/* The parent's record.c diversion while it walks: a local item. */
static void
local(int fd, const char *p, size_t n)
{
	struct chunk *c = &j.ring[j.tail % j.nring];

	if (j.dead)
		return;
	if (buf_add(&c->items, fd, p, n, (uint32_t)n) < 0) {
		rec_divert(NULL);
		format_splice(opt.fmt, fd, p, n);
		rec_divert(local);
		return;
	}
	if (c->items.n > CHUNK_BYTES)
		seal();
}

/*
 * Whether the run goes in parallel: -j N, or by default the number of
 * processors online where there is more than one input (argc operands);
 * never for what must be done in one process (xmlsniff(1), -j).  fn
 * analyses one input and returns the exit status so far.
 */
void
jobs_begin(int argc, int (*fn)(const char *, int))
{
	long n = opt.jobs;

	if (n == 0) {
		n = argc > 1 || opt.recursive || opt.files0_from != NULL ?
		    sysconf(_SC_NPROCESSORS_ONLN) : 1;
	}
	if (n > JOBS_MAX)
		n = JOBS_MAX;
	if (n <= 1 || opt.fix || opt.in_place || opt.transcode_to != NULL ||
	    opt.output != NULL || opt.list_files)
		return;
	j.nring = RING_PER * (unsigned long)n + 2;
	if ((j.ring = calloc(j.nring, sizeof(*j.ring))) == NULL)
		return;
	j.n = (int)n;
	j.fn = fn;
	j.on = 1;
	format_jobs();
	rec_divert(local);
}

/*
 * Input name (top: an operand, or a name of --files0-from) goes to a
 * worker: return 1; or 0 when the parent opens it in its turn, as it
 * does standard input and a directory that -r walks.
 */
int
jobs_take(const char *name, int top)
{
	struct chunk *c;
	struct stat st;
	size_t len = strlen(name);
	int flags = top ? T_TOP : 0;

	if (!j.on)
		return 0;
	if (j.dead)
		return 1;
	if (top && (strcmp(name, "-") == 0 || (opt.recursive &&
	    stat(name, &st) == 0 && S_ISDIR(st.st_mode))))
		return 0;
	c = &j.ring[j.tail % j.nring];
	if (buf_add(&c->items, K_TASK, NULL, 0, 0) < 0)
		return 0;
	if (buf_add(&c->task, flags, name, len, (uint32_t)len) < 0) {
		c->items.n -= HDR;
		return 0;
	}
	c->last = c->task.n - HDR - len;
	if (++c->ntasks >= chunk_inputs() || c->task.n > CHUNK_BYTES)
		seal();
	return 1;
}

/* The end of the inputs: everything written out, the workers gone;
 * return the exit status they raised. */
int
jobs_end(void)
{
	struct chunk *c;
	int i, st;

	if (!j.on)
		return 0;
	c = &j.ring[j.tail % j.nring];
	/* Few inputs: no worker is started for them. */
	if (!j.dead && !j.started && c->ntasks > 0)
		run_local(c);
	else if (!j.dead)
		seal();
	if (!j.dead)
		pump(1);
	rec_divert(NULL);
	for (i = 0; i < j.started; i++) {
		close(j.w[i].tfd);
		close(j.w[i].rfd);
	}
	/* A worker that ends badly after all it was given (a checker such
	 * as valgrind found something) fails the run too. */
	for (i = 0; i < j.started; i++) {
		pid_t r;

		while ((r = waitpid(j.w[i].pid, &st, 0)) < 0 && errno == EINTR)
			;
		if (r == j.w[i].pid && !j.dead && (WIFSIGNALED(st) ||
		    (WIFEXITED(st) && WEXITSTATUS(st) != 0))) {
			report_warn(NULL, 0, "worker process %ld ended with "
			    "status %d", (long)r, WIFSIGNALED(st) ?
			    128 + WTERMSIG(st) : WEXITSTATUS(st));
			j.status = 2;
		}
	}
	return j.status;
}

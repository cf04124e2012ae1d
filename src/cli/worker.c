/*
 * -j N: a worker process (jobs.c starts it).  It reads the names of its
 * inputs on its task pipe, a pipe's worth at a time, analyses each, and
 * sends what it would have written, framed (worker.h), on its result
 * pipe, gathered up to RESULT_BUF and sent at the end of each chunk.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "out.h"
#include "worker.h"

#define RESULT_BUF	65536	/* a worker's frames gathered up to this */

static struct buf res;		/* a worker's frames not yet sent */
static int res_fd = -1;

/* Add a frame of kind to b: n bytes of p, with len as its length (n, or
 * K_END's status); -1 out of memory. */
int
buf_add(struct buf *b, int kind, const char *p, size_t n, uint32_t len)
{
	if (b->n + HDR + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *np;

		while (cap < b->n + HDR + n)
			cap *= 2;
		if ((np = realloc(b->p, cap)) == NULL)
			return -1;
		b->p = np;
		b->cap = cap;
	}
	b->p[b->n] = (char)kind;
	memcpy(b->p + b->n + 1, &len, 4);
	if (n > 0)
		memcpy(b->p + b->n + HDR, p, n);
	b->n += HDR + n;
	return 0;
}

/* The worker: send the frames gathered; a parent gone ends it. */
static void
res_flush(void)
{
	if (res.n > 0 && rec_write_all(res_fd, res.p, res.n) < 0)
		_exit(2);
	res.n = 0;
}

/* The worker's record.c diversion: a record, framed. */
static void
res_record(int fd, const char *p, size_t n)
{
	if (res.n + HDR + n > RESULT_BUF)
		res_flush();
	if (buf_add(&res, fd, p, n, (uint32_t)n) < 0)
		_exit(2);
}

/* The task pipe, read a pipe's worth at a time: a name costs no call of
 * its own. */
static struct {
	char	 b[64 * 1024];
	size_t	 at, n;
} tin;

/* n bytes of the task pipe fd into p; -1 at its end or on an error. */
static int
read_full(int fd, void *p, size_t n)
{
	char *c = p;

	while (n > 0) {
		size_t k;

		if (tin.at == tin.n) {
			ssize_t r = read(fd, tin.b, sizeof(tin.b));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return -1;
			tin.at = 0;
			tin.n = (size_t)r;
		}
		k = tin.n - tin.at < n ? tin.n - tin.at : n;
		memcpy(c, tin.b + tin.at, k);
		tin.at += k;
		c += k;
		n -= k;
	}
	return 0;
}

/* A worker: each name of the task pipe tfd analysed by fn, its records
 * sent on rfd, to the end of the tasks; then it exits. */
void
worker_run(int tfd, int rfd, int (*fn)(const char *, int))
{
	char *name = NULL;
	size_t cap = 0;
	unsigned char flags;
	uint32_t len;
	const char *hook = getenv("XMLSNIFF_TEST_JOBS");
	const char *kill_at = getenv("XMLSNIFF_TEST_JOBS_KILL");

	/* Test hooks (testhooks.h): each worker that runs says so. */
	if (hook != NULL && *hook != '\0') {
		FILE *f = fopen(hook, "a");

		if (f != NULL) {
			fprintf(f, "%ld\n", (long)getpid());
			fclose(f);
		}
	}
	res_fd = rfd;
	rec_divert(res_record);
	/* The workers have the processors: none searches ahead as well. */
	perfile_lookahead(0);
	while (read_full(tfd, &flags, 1) == 0 &&
	    read_full(tfd, &len, 4) == 0) {
		int st;

		if (len + 1 > cap) {
			free(name);
			cap = len + 1;
			if ((name = malloc(cap)) == NULL)
				_exit(2);
		}
		if (read_full(tfd, name, len) < 0)
			_exit(2);
		name[len] = '\0';
		if (kill_at != NULL && strcmp(name, kill_at) == 0)
			raise(SIGKILL);
		st = fn(name, flags & T_TOP);
		if (buf_add(&res, K_END, NULL, 0, (uint32_t)st) < 0)
			_exit(2);
		if ((flags & T_LAST) || res.n > RESULT_BUF)
			res_flush();
	}
	free(name);
	res_flush();
	_exit(0);
}

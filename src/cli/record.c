/*
 * Output records: each output line (the per-input line, a JSON object, a
 * diagnostic, a workflow command) is built in memory and reaches its
 * descriptor in one write(2), so that processes sharing a pipe never tear
 * one another's records.  POSIX write(): a write of at most PIPE_BUF
 * bytes to a pipe is atomic; a longer record may still be interleaved
 * with other writers' (xmlsniff(1), Output).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

#ifndef PIPE_BUF
#define PIPE_BUF	512	/* the least POSIX allows */
#endif

struct rec {
	FILE	*f;
	char	*p;
	size_t	 n;
	int	 fd;
};

/* Records for standard output gathered up to PIPE_BUF bytes. */
static struct {
	int		 on;
	size_t		 n;
	char		 b[PIPE_BUF];
} batch;

static int out_errno;		/* of the first failed write to stdout */
static struct rec cur;
static void (*divert)(int, const char *, size_t);

/* Write all of p to fd; return 0, or -1 with errno set (also the
 * frames of jobs.c). */
int
rec_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void
put_out(int fd, const char *p, size_t n)
{
	if (fd == 1 && out_errno != 0)
		return;
	/* What stdio holds for the descriptor goes first. */
	fflush(fd == 1 ? stdout : stderr);
	if (rec_write_all(fd, p, n) < 0 && fd == 1)
		out_errno = errno;
}

/*
 * Gather the records for standard output (not for a terminal): on 1, or
 * 2 when standard error shares the file, where the order of the two
 * matters: then the records gathered go out before each record for
 * standard error, so that the file has them in the order they were made
 * (a tree of small files, with a line each, then costs a write for a
 * hundred of them, not one each).  While this is on, whatever else writes
 * to standard output must call rec_flush first, or it would overtake the
 * records gathered.
 */
void
rec_batch(int on)
{
	batch.on = on;
}

/* Write out the gathered records; return 0, or -1 after a write error. */
int
rec_flush(void)
{
	if (batch.n > 0) {
		put_out(1, batch.b, batch.n);
		batch.n = 0;
	}
	return out_errno != 0 ? -1 : 0;
}

/* The errno of the first write to standard output that failed, or 0. */
int
rec_error(void)
{
	return out_errno;
}

/*
 * Begin a record for descriptor fd (1 or 2) and return the stream to
 * build it on: a memory stream, or, when there is no memory for one, the
 * stdio stream of fd itself.
 */
FILE *
rec_open(int fd)
{
	cur.fd = fd;
	cur.p = NULL;
	cur.n = 0;
	if ((cur.f = open_memstream(&cur.p, &cur.n)) == NULL) {
		if (fd == 1 || batch.on == 2)
			rec_flush();
		return fd == 1 ? stdout : stderr;
	}
	return cur.f;
}

/*
 * -j (jobs.c): send each record to fn, whole, instead of writing it; fn
 * NULL writes again.
 */
void
rec_divert(void (*fn)(int, const char *, size_t))
{
	divert = fn;
}

/* Write the record p, n bytes, to fd (1 or 2), through the batch. */
void
rec_put(int fd, const char *p, size_t n)
{
	if (fd == 2 && batch.on == 2)
		rec_flush();
	if (fd == 1 && batch.on) {
		if (batch.n + n > sizeof(batch.b))
			rec_flush();
		if (n <= sizeof(batch.b)) {
			memcpy(batch.b + batch.n, p, n);
			batch.n += n;
			return;
		}
	} else if (fd == 1)
		rec_flush();
	put_out(fd, p, n);
}

/* End the record begun on f and send it to its descriptor, whole. */
void
rec_close(FILE *f)
{
	char *p;

	if (f != cur.f || f == NULL) {
		fflush(f);
		return;
	}
	if (fclose(f) != 0 || cur.p == NULL) {
		free(cur.p);
		cur.f = NULL;
		return;
	}
	/* The diversion may begin a record of its own. */
	p = cur.p;
	cur.f = NULL;
	if (divert != NULL)
		divert(cur.fd, p, cur.n);
	else
		rec_put(cur.fd, p, cur.n);
	free(p);
}

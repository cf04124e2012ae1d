/*
 * Where a run's bytes come from (run.c): pushed by a checker's feeds, a
 * buffer read in place, or a descriptor read here.  Each gives the
 * analysis the same pieces, as long as reads give them (IN_SIZE after the
 * bytes kept from the piece before), so that the result does not depend
 * on how the bytes arrived: pushed bytes are gathered until a piece is
 * full, a buffer is cut into pieces in place.  --http: the response's
 * head is read first and dropped, and a body with a content coding is
 * decoded into a file first (coding.c), which is then read.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "coding.h"

/* The input buffer of a run (made when first needed), empty. */
static int
buffer(struct run *r)
{
	struct inbuf *in = &r->in;

	if (in->mem == NULL && posix_memalign((void **)&in->mem, 4096,
	    IN_PAD + IN_SIZE) != 0) {
		in->mem = NULL;
		return run_fail(r, XMLSNIFF_ERR_MEMORY, "%s", ERRTEXT(ENOMEM));
	}
	in->p = in->mem + IN_PAD;
	in->n = 0;
	in->got = 0;
	in->eof = 0;
	in->shrunk = 0;
	in->mapped = 0;
	return 0;
}

/* The first phase of an input. */
static void
start(struct run *r)
{
	r->in.nomap = !r->set->mmap;
	r->phase = r->set->http ? PH_HTTP : PH_HEAD;
}

/*
 * Drop the first used bytes of the piece and get the next: 1 when it is
 * there (a buffer, a descriptor), 0 when it must be pushed first, -1
 * after a read error (errno).
 */
static int
next(struct run *r, size_t used)
{
	switch (r->mode) {
	case RM_PUSH:
		in_drop(&r->in, used);
		return 0;
	case RM_BUFFER:
		in_from(&r->in, r->buf, r->buflen, used);
		return 1;
	default:
		return in_refill(&r->in, used) < 0 ? -1 : 1;
	}
}

/*
 * --http, the first piece of the body in r->in: a coded body that this
 * build decodes is decoded first, into a file that is then the input.
 * Read here from a descriptor; gathered into a file from other sources
 * (PH_SPOOL), and decoded when they end.  Return 0, or the status.
 */
static int
coding(struct run *r)
{
	struct inbuf *in = &r->in;

	if (r->mode != RM_FD && coding_needed(&r->hr, in->p, in->n)) {
		if ((r->spool = coding_tmp()) < 0 || coding_write(r->spool, in->p,
		    in->n) < 0)
			return run_fail(r, XMLSNIFF_ERR_READ, "no temporary "
			    "file for the body: %s", ERRTEXT(errno));
		in->p += in->n;
		in->n = 0;
		r->phase = PH_SPOOL;
		return 0;
	}
	if (coding_body(in, &r->hr, r->transcode, &r->tfd) < 0)
		return run_fail(r, XMLSNIFF_ERR_READ, "%s", ERRTEXT(errno));
	if (r->tfd >= 0) {
		r->head_len = 0;	/* the decoded body is the input */
		r->fd = r->tfd;
	}
	r->phase = PH_HEAD;
	return 0;
}

/* --http, the response's head in r->in: read and dropped, so that the
 * entity, and every offset, starts at the body.  1: the body's first
 * piece is in r->in; 0: it is to be pushed; -1: a read failed (errno). */
static int
http_head(struct run *r)
{
	struct inbuf *in = &r->in;
	size_t len = http_parse(in->p, in->n, &r->hr);

	r->head_len = len;
	r->phase = PH_CODING;
	if (len > 0 && !in->eof)
		return next(r, len);
	in->p += len;
	in->n -= len;
	return 1;
}

/* The head is sniffed; the transcoder makes its validator.  1 when
 * nothing is to be read on. */
static int
head(struct run *r)
{
	if (run_begin(r) != 0)
		return -1;
	if (r->phase == PH_SKIP)
		return 1;
	if (r->head_hook != NULL && r->head_hook(r) != 0) {
		if (r->phase == PH_FAILED)
			return -1;
		/* Refused (a transcode's head): no validator was made, so
		 * the bytes after the head are not looked at. */
		r->phase = PH_SKIP;
		return 1;
	}
	if (r->mode == RM_FD)
		run_map(r);
	return 0;
}

/*
 * Take the analysis as far as the bytes in r->in go (a piece as long as
 * a read gives, or the last: in->eof), reading on where the source can.
 * Return 0 (done, or waiting for pushed bytes), or the status it failed
 * with; a read error ends the input (run_end says so).
 */
static int
step(struct run *r)
{
	int k;

	for (;;) {
		switch (r->phase) {
		case PH_HTTP:
			if ((k = http_head(r)) < 0)
				return run_fail_errno(r, errno);
			if (k == 0)
				return 0;
			break;
		case PH_CODING:
			if (coding(r) != 0 || r->phase == PH_SPOOL)
				return r->status;
			break;
		case PH_HEAD:
			if ((k = head(r)) < 0)
				return r->status;
			if (k > 0)
				return 0;
			r->phase = PH_BODY;
			break;
		case PH_BODY: {
			size_t used = run_piece(r);

			if (r->phase == PH_DONE)
				return 0;
			if ((k = next(r, used)) < 0) {
				/* the input ends here: run_end says so */
				r->read_errno = errno != 0 ? errno : EIO;
				r->phase = PH_DONE;
				return 0;
			}
			if (k == 0)
				return 0;
			break;
		}
		default:
			return r->status;
		}
	}
}

/* Pushed bytes: gathered into pieces as reads would give them. */
int
run_push(struct run *r, const unsigned char *p, size_t n)
{
	size_t k;

	if (r->phase == PH_NEW) {
		r->mode = RM_PUSH;
		r->in.size = -1;
		if (buffer(r) != 0)
			return r->status;
		start(r);
	}
	while (n > 0) {
		switch (r->phase) {
		case PH_HTTP:
		case PH_CODING:
		case PH_HEAD:
		case PH_BODY:
			k = in_push(&r->in, p, n);
			p += k;
			n -= k;
			if (in_full(&r->in) && step(r) != 0)
				return r->status;
			break;
		case PH_SPOOL:
			if (coding_write(r->spool, p, n) < 0)
				return run_fail(r, XMLSNIFF_ERR_READ, "writing "
				    "the body to a temporary file: %s",
				    ERRTEXT(errno));
			return 0;
		case PH_FAILED:
			return r->status;
		default:
			return 0;	/* not looked at */
		}
	}
	return 0;
}

/* --http: the coded body gathered in r->spool, decoded and read. */
static int
unspool(struct run *r)
{
	struct inbuf *in = &r->in;

	if (lseek(r->spool, 0, SEEK_SET) < 0 || (in->mem == NULL &&
	    buffer(r) != 0))
		return run_fail(r, XMLSNIFF_ERR_READ, "%s", ERRTEXT(errno));
	r->mode = RM_FD;
	in->fd = r->fd = r->spool;
	in->size = -1;
	in->trust_size = 0;
	in->p = in->mem + IN_PAD;
	in->n = 0;
	in->got = 0;
	in->eof = 0;
	if (in_refill(in, 0) < 0)
		return run_fail(r, XMLSNIFF_ERR_READ, "%s", ERRTEXT(errno));
	r->phase = PH_CODING;
	return step(r);
}

/* The end of the input: the last piece, then what comes after it. */
int
run_finish(struct run *r)
{
	if (r->ended)
		return r->status;
	if (r->phase == PH_NEW && run_push(r, NULL, 0) != 0)
		return r->status;
	if (r->phase == PH_SPOOL && unspool(r) != 0)
		return r->status;
	if (r->mode == RM_PUSH && r->phase != PH_DONE &&
	    r->phase != PH_SKIP && r->phase != PH_FAILED) {
		r->in.eof = 1;
		if (step(r) != 0)
			return r->status;
	}
	if (r->phase == PH_FAILED)
		return r->status;
	return run_end(r, r->read_errno);
}

/* A buffer read in place. */
int
run_buffer(struct run *r, const unsigned char *p, size_t n)
{
	r->mode = RM_BUFFER;
	r->buf = p;
	r->buflen = n;
	r->in.size = -1;
	r->in.n = 0;
	r->in.got = 0;
	in_from(&r->in, p, n, 0);
	start(r);
	if (step(r) != 0)
		return r->status;
	return run_finish(r);
}

/*
 * A descriptor read to its end: a regular file read from its start is
 * mapped when big and read again for positions, excerpts and guesses;
 * anything else is read once, as a pipe.  size: XMLSNIFF_SIZE_ASK (then
 * fstat(2) says), XMLSNIFF_SIZE_STREAM (a pipe), or the size of the
 * regular file the caller knows it to be.
 */
int
run_fd(struct run *r, int fd, int64_t size)
{
	struct inbuf *in = &r->in;
	struct stat st;

	r->mode = RM_FD;
	if (buffer(r) != 0)
		return r->status;
	in->fd = r->fd = fd;
	in->size = size >= 0 ? (long long)size : -1;
	if (size == XMLSNIFF_SIZE_ASK && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode))
		in->size = st.st_size;
	/* /proc and the like say 0 for what they hold. */
	in->trust_size = in->size > 0 && !r->transcode && !r->set->fix;
	/* A big regular file is read ahead from its first piece: the second
	 * thread copies the next ones while this one reads the head, and
	 * searches them for marks once run_map() knows which. */
	if (run_reads_ahead(r))
		in_ahead_begin(in, AHM_NONE);
	if (in_refill(in, 0) < 0)
		return run_fail_errno(r, errno);
	start(r);
	if (step(r) != 0)
		return r->status;
	return run_finish(r);
}

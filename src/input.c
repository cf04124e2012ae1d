/*
 * Reading an input in fixed buffers, so that memory stays constant
 * whatever the size of the input, shared by validation and transcoding.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

/* Read up to n bytes, retrying short reads until EOF (or, for a regular
 * file being only analysed, until its size is reached: no read just to
 * see the end; a file that grows meanwhile is analysed as it was); -1 on
 * error. */
static ssize_t
read_full(struct inbuf *b, unsigned char *p, size_t n)
{
	int fd = b->fd;
	size_t got = 0;

	while (got < n) {
		if (b->trust_size && b->got + (long long)got >= b->size &&
		    got > 0)
			break;
		ssize_t r = read(fd, p + got, n - got);

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
		got += (size_t)r;
	}
	b->got += (long long)got;
	return (ssize_t)got;
}

/*
 * Drop the first used bytes of b, keep the rest just before the read area
 * and fill it from b->fd.  Return 0, or -1 with errno on a read error.
 */
int
in_refill(struct inbuf *b, size_t used)
{
	unsigned char *area = b->mem + IN_PAD;
	size_t keep = b->n - used;
	ssize_t r;

	if (keep > IN_PAD) {
		/* Not expected (characters are short); stay correct. */
		memmove(b->mem, b->p + used, keep);
		b->p = b->mem;
		r = read_full(b, b->mem + keep, IN_PAD + IN_SIZE - keep);
		if (r < 0)
			return -1;
		b->n = keep + (size_t)r;
		b->eof = (size_t)r < IN_PAD + IN_SIZE - keep;
		return 0;
	}
	memmove(area - keep, b->p + used, keep);
	b->p = area - keep;
	if ((r = read_full(b, area, IN_SIZE)) < 0)
		return -1;
	b->n = keep + (size_t)r;
	b->eof = (size_t)r < IN_SIZE;
	return 0;
}


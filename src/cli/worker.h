/*
 * -j N: what the parent (jobs.c) and its workers (worker.c) say to each
 * other.  A task, a result and an item of a chunk are each a frame: a
 * kind byte, a length of four bytes in this machine's order, then that
 * many bytes (none for K_END, whose length is the exit status so far).
 */
#ifndef WORKER_H
#define WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HDR		5
#define K_END		0	/* result: the input's end; length: status */
#define K_TASK		4	/* item: the next input a worker has */
#define T_TOP		1	/* task flags: named by the user */
#define T_LAST		2	/* ... the last input of its chunk */

struct buf {
	char	*p;
	size_t	 n, cap;
};

/* The size of the whole frame at f, of which left bytes are here, or 0
 * when it is not all here: K_END's length is a status, not a size. */
static inline size_t
frame_size(const char *f, size_t left)
{
	uint32_t len;

	if (left < HDR)
		return 0;
	if (f[0] == K_END)
		return HDR;
	memcpy(&len, f + 1, 4);
	return left < HDR + (size_t)len ? 0 : HDR + (size_t)len;
}

int		 buf_add(struct buf *, int, const char *, size_t, uint32_t);
void		 worker_run(int, int, int (*)(const char *, int))
		    __attribute__((noreturn));

#endif

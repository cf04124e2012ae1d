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

#define HDR		5
#define K_END		0	/* result: the input's end; length: status */
#define K_TASK		4	/* item: the next input a worker has */
#define T_TOP		1	/* task flags: named by the user */
#define T_LAST		2	/* ... the last input of its chunk */

struct buf {
	char	*p;
	size_t	 n, cap;
};

int		 buf_add(struct buf *, int, const char *, size_t, uint32_t);
void		 worker_run(int, int, int (*)(const char *, int))
		    __attribute__((noreturn));

#endif

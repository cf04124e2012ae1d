/*
 * -j N: the inputs analysed by worker processes at once (jobs.c).
 */
#ifndef JOBS_H
#define JOBS_H

#define JOBS_MAX	256	/* -j above this is taken as this */

void		 jobs_begin(int, int (*)(const char *, int));
int		 jobs_take(const char *, int);
int		 jobs_end(void);

#endif

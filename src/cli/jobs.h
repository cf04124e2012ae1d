/*
 * -j N: the inputs analysed by worker processes at once (jobs.c).
 */
#ifndef JOBS_H
#define JOBS_H

void		 jobs_begin(int, int (*)(const char *, int));
int		 jobs_take(const char *, int);
int		 jobs_end(void);

#endif

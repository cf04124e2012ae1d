/*
 * The command line's usage line and --help (usage.c), for opts.c.
 */
#ifndef USAGE_H
#define USAGE_H

#include <stdio.h>

void		 usage(FILE *);
void		 help(void);

#endif

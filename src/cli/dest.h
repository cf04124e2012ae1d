/*
 * The destination of --transcode-to, replaced only when finished (dest.c).
 */
#ifndef DEST_H
#define DEST_H

#include <limits.h>

#include "engine.h"

/* Where the output goes: standard output or a non-regular file directly
 * (direct), a regular file by way of a temporary file beside it. */
struct dest {
	int		 fd;
	int		 direct;
	const char	*name;		/* as given, for messages */
	char		 real[PATH_MAX];	/* where a link points */
};

int		 dest_open(struct dest *, const char *);
int		 dest_compare(struct dest *, int, const struct sniff *,
		    const struct xopts *);
int		 dest_close(struct dest *, int, int);
int		 dest_error(const char *, const char *);

#endif

/*
 * The command line's options (opts.c), for main.c.
 */
#ifndef OPTS_H
#define OPTS_H

#include "io.h"

struct options {
	const char	*content_type;
	struct mt	 mt;
	int		 has_mt;
	int		 strict;
	const char	*transcode_to;
	const char	*output;
	int		 in_place;
	enum fallback	 fallback;
	int		 fallback_given;	/* --fallback, whatever its value */
	int		 utf8_bom;
	int		 byte_order_le;
	int		 byte_order_given;
	int		 brief;
	enum fmt	 fmt;
	const char	*files0_from;
	int		 recursive;
	int		 quiet;
	int		 verbose;	/* -v: the files -r passes over */
	struct walkopts	 walk;
	int		 no_ignore;
	int		 list_files;
	int		 print0;
	int		 fix;
	int		 dry_run;
	int		 list_codes;
	int		 list_encodings;
	const char	*explain;
	int		 http;
	int		 browser;	/* --browser */
	int		 no_lookahead;	/* big files get no second thread (-j's
					 * workers) */
	const char	*stdin_name;
	int		 excerpt;	/* --excerpt: enum when */
	int		 color;		/* --color */
	int		 excerpt_on;	/* --excerpt, resolved */
	int		 color_on;	/* --color, resolved */
	int		 all;
	size_t		 max_errors;	/* 0: not given */
	const char	*encoding;
	const char	*default_encoding;
	struct enc	 dflt;
	long		 jobs;		/* -j: 0 not given */
};

/* --excerpt and --color. */
enum when {
	WHEN_AUTO,
	WHEN_ALWAYS,
	WHEN_NEVER
};

extern struct options opt;

int		 opts_parse(int *, char ***);
int		 opts_check(int, char **, struct xopts *);
void		 opts_add_glob(const char ***, size_t *, const char *);

#endif

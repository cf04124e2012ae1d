/*
 * The command line's options (opts.c), for main.c and analyse.c; what
 * changes the analysis is in the library's options, xo.
 */
#ifndef OPTS_H
#define OPTS_H

#include "io.h"

#define JOBS_MAX	256	/* -j above this is taken as this */

struct options {
	xmlsniff_options *xo;		/* the library's: the command line's */
	const char	*content_type;
	int		 strict;
	const char	*transcode_to;
	const char	*output;
	int		 in_place;
	const char	*fallback;
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
	const char	*stdin_name;
	int		 excerpt;	/* --excerpt: enum when */
	int		 color;		/* --color */
	int		 excerpt_on;	/* --excerpt, resolved */
	int		 color_on;	/* --color, resolved */
	int		 all;
	int		 mmap;		/* --mmap */
	size_t		 max_errors;	/* 0: not given */
	const char	*encoding;
	const char	*default_encoding;
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
int		 opts_check(int, char **);
void		 opts_add_glob(const char ***, size_t *, const char *);

/* status.c */

extern int	 same_out;
extern int	 stdin_closed;
void		 raise_status(int);
int		 exit_status(void);
void		 fail_input(const char *, const char *);
void		 std_guard(void);
int		 finish_stdout(int);

/* analyse.c */

void		 analyse(const char *, int, long long);
void		 analyse_end(void);

#endif

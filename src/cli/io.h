/*
 * Input, output and the command line: the input buffer, the output
 * formats, the repository walk, policy, --fix and the configuration file.
 */
#ifndef IO_H
#define IO_H

#include <stdarg.h>
#include <stdio.h>

#include "engine.h"

#include "version.h"	/* XMLSNIFF_VERSION, from the Makefile */
/* The project's home page: SARIF's informationUri, and with "#CODE"
 * each rule's helpUri. */
#ifndef XMLSNIFF_URL
#define XMLSNIFF_URL "https://github.com/xmlsniff/xmlsniff"
#endif


/* report.c */

/* The formats after FMT_JSON are format.c's. */
enum fmt {
	FMT_TEXT,
	FMT_MIME,
	FMT_MIME_ENCODING,
	FMT_JSON,
	FMT_GITHUB,
	FMT_SARIF,
	FMT_GITLAB,
	FMT_CHECKSTYLE
};

void		 report_line(const char *, const struct sniff *, enum fmt, int);
struct excerpt_src;
void		 report_diags(const char *, const struct sniff *, enum fmt,
		    struct excerpt_src *);
void		 report_failure(const char *, const char *, enum fmt, int);
void		 report_set(int, int);
void		 report_mime(const struct sniff *, char *, size_t);

/* format.c */

#define FMT_NAMES	6	/* the values of --format */
extern const char *const format_names[FMT_NAMES];
int		 format_lookup(const char *, enum fmt *);
void		 format_start(enum fmt);
void		 format_diags(const char *, const struct sniff *, enum fmt);
void		 format_failure(const char *, const char *, enum fmt);
int		 format_end(enum fmt, int);
void		 format_jobs(void);
void		 format_splice(enum fmt, int, const char *, size_t);
void		 list_codes(void);
int		 explain_code(const char *);
void		 format_uri(FILE *, const char *);
void		 gh_text(FILE *, const char *, int);

/* github.c: the kinds of gathered records */

#define GH_ERROR	'e'
#define GH_WARNING	'w'
#define GH_NOTE		'n'	/* a list cut by --max-errors */
#define GH_UNREADABLE	'u'
#define GH_FILE		'f'	/* an input read */

void		 gh_start(void);
void		 gh_finding(int, const char *, const char *, uint64_t,
		    uint64_t, uint64_t, const char *);
void		 gh_take(int, const char *, size_t);
int		 gh_end(int);

/* repo.c */

char		*repo_norm(const char *);
void		 repo_init(void);
const char	*repo_root(void);
char		*repo_path(const char *, int *);
char		*repo_abs(const char *);

/* perfile.c */

struct pf_layer;
struct pf_layer	*perfile_base(int);
void		 perfile_keep(size_t, int);
const struct dpolicy *perfile_policy(void);
struct pf_layer	*perfile_section(const char *);
int		 perfile_add(struct pf_layer *, const char *, size_t,
		    const char *, char *, size_t);
void		 perfile_root(const char *);
void		 perfile_start(void);
int		 perfile_apply(const char *, const unsigned char *, size_t,
		    char *, size_t);

/* fix.c */

#define FIX_MAX		6

/* What --fix or --in-place did to one file. */
struct fixres {
	const char	*action;	/* written, unchanged, would-write,
					 * refused, failed */
	char		 why[400];	/* refused, failed: the reason */
	int		 nchanges;
	char		 changes[FIX_MAX][160];
};

int		 fix_plan(const struct sniff *, const char *, int,
		    struct xopts *, struct fixres *);

/* walk.c */

struct gitset;

/* What -r selects besides git: the --include and --exclude globs. */
struct walkopts {
	const char	**incl;
	size_t		  nincl;
	const char	**excl;
	size_t		  nexcl;
};

int		 walk_xml_name(const char *);
int		 walk_passes_over(const char *, int);
int		 walk_glob(const char *, const char *, int);
int		 walk_wanted(const struct walkopts *, const char *, int);
struct gitset	*walk_git(const char *);
void		 walk_git_free(struct gitset *);
char		*walk_git_top(const char *);
int		 walk_git_has(const struct gitset *, const char *, int);

/* config.c */

struct option;
int		 config_args(int, char **, const struct option *, const char *,
		    char ***);
int		 config_line(int, const char **);
const char	*config_suggest(const struct option *, const char *, size_t);

#endif

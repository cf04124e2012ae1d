/*
 * The library behind <xmlsniff.h>: the settings an options object holds,
 * the analysis of one input (run.c) that a checker or a transcoder
 * drives, and the result it leaves.  Internal to src/lib/api/.
 */
#ifndef API_H
#define API_H

#include <stdatomic.h>

#include "xmlsniff.h"
#include "engine.h"
#include "browser.h"
#include "excerpt.h"
#include "guess.h"
#include "http.h"
#include "mojibake.h"
#include "sbuf.h"

/* A layer of the policy (xmlsniff(1), PER-FILE POLICY): what it says of
 * each code (DP_IGNORE, DP_ERROR), and its encodings (n 0: nothing). */
struct layer {
	unsigned char	 code[D_NCODES];
	struct allowset	 allow;
};

int		 layer_add(struct layer *, const char *, size_t, const char *,
		    char *, size_t);
void		 layer_lay(struct dpolicy *, const struct layer *);
int		 marker_read(struct layer **, const unsigned char *, size_t,
		    char *, size_t);

/*
 * The settings of the analysis (options.c): everything of the command
 * line that changes what an input is found to be, each set by its long
 * option's name.  Built once, then only read, by any number of checkers.
 */
struct settings {
	/* --content-type and --encoding, and the Content-Type they make */
	char		*ctype;
	char		*encoding;
	struct mt	 mt;
	int		 has_mt;
	struct enc	 dflt;		/* --default-encoding */
	int		 has_dflt;
	int		 browser;	/* --browser */
	int		 guess;		/* look for the real encoding */
	int		 excerpt;	/* --excerpt: excerpts of diagnostics */
	int		 color;		/* --color: in them */
	int		 http;		/* --http: each input a response */
	int		 marker;	/* read an input's own marker */
	int		 lookahead;	/* a second thread searches ahead */
	int		 mmap;		/* map big regular files */
	size_t		 keep;		/* --all, --max-errors */
	int		 keep_asked;
	int		 all;
	size_t		 max_errors;
	struct layer	 top;		/* --ignore, --error, --allow-encoding */
	struct layer	 base;		/* the configuration's, below the marker */
	/* transcoding: --transcode-to, --fallback, --utf8-bom, --byte-order,
	 * --strict; --fix and --dry-run */
	char		*target;
	enum fallback	 fallback;
	int		 utf8_bom;
	int		 byte_order_le;
	int		 strict;
	int		 fix;
	int		 dry_run;
	int		 in_place;	/* the output replaces the input */
};

struct xmlsniff_options {
	struct settings	 set;
	char		 err[512];
	/* A checker the one-call forms (checker.c) take and give back: one
	 * thread at a time has it, by an atomic exchange.  Not copied. */
	_Atomic(struct xmlsniff_checker *) spare;
};

void		 api_spare_free(xmlsniff_options *);

/*
 * --fix: what fix_plan() (fixplan.c) decided for one entity.  action is
 * NULL when no fix was asked, else "unchanged", "refused", or, for a
 * rewrite still to be done, "would-write"; the caller sets what it did.
 */
#define FIX_MAX		6
struct fixplan {
	const char	*action;
	char		 why[400];
	int		 nchanges;
	char		 changes[FIX_MAX][160];
	struct xopts	 xo;		/* the target of the rewrite */
	char		 read_as[16];	/* BOM-less UTF-16 read again as */
};

int		 fix_plan(const struct sniff *, const char *, int,
		    struct xopts *, struct fixplan *);

/* The phases of a run. */
enum phase {
	PH_NEW,		/* nothing fed yet */
	PH_HTTP,	/* --http: the response's head is being gathered */
	PH_CODING,	/* --http: the body's first piece is being gathered */
	PH_HEAD,	/* the entity's head is being gathered */
	PH_BODY,	/* the entity is being validated */
	PH_SPOOL,	/* --http: a coded body goes to a file, to decode */
	PH_SKIP,	/* what follows is not looked at: the entity cannot
			 * be decoded, or is a body not examined */
	PH_DONE,	/* finished */
	PH_FAILED	/* a feed or a read failed: finish says why */
};

/*
 * The analysis of one input: the loop that reads it through the
 * validator, the browser's view, the excerpts, the guess, the mojibake
 * scan and the policy (what main.c did for each input).  Bytes come
 * pushed (run_push: a checker's feeds, kept in in.mem), from a buffer in
 * place (run_buffer), or pulled from a descriptor (run_fd).
 */
struct run {
	const struct settings *set;
	const char	*name;		/* for messages and the guess */
	const char	*rname;		/* for the role and sections: no "-" */
	struct dpolicy	 pol;
	struct layer	*mark;		/* the input's marker, when read */
	struct sniff	 s;
	uint64_t	 head_len;	/* --http: bytes before the entity */
	struct inbuf	 in;
	int		 fd;		/* the input's descriptor, or -1 */
	int		 tfd;		/* --http: the decoded body */
	int		 spool;		/* --http: the coded body, gathered */
	struct excerpt_src *exc;
	struct gkeep	 gk;
	struct pre	*pre;
	struct val	*v;
	struct val	*vkeep;		/* v closed, kept for the next input */
	struct dcaches	*dc;		/* kept from one input to the next */
	/* where the bytes come from: pushed (a checker's feeds), a buffer
	 * read in place, or a descriptor read here */
	enum { RM_PUSH, RM_BUFFER, RM_FD } mode;
	const unsigned char *buf;	/* RM_BUFFER: the buffer */
	size_t		 buflen;
	/* a transcode (transcoder.c): its validator is the sink's, made
	 * once the head is sniffed, by head_hook */
	int		 transcode;
	struct xlate	*xl;
	int		(*head_hook)(struct run *);
	void		*hook_ctx;
	enum phase	 phase;
	int		 unexamined;	/* --http: a coded body, not the entity */
	int		 read_errno;	/* a read that ended the input */
	int		 ended;		/* run_end() is done */
	const struct mt	*mt;		/* the Content-Type, over the settings' */
	int		 status;	/* XMLSNIFF_ERR_* once it failed */
	/* From here on, the members are not cleared whole for each input
	 * but as far as what reads them needs (run.c, run_zero): their
	 * kilobytes are read only with their options. */
	struct guess	 guess;		/* set whole by guess_input() */
	struct moj	 mj;		/* set whole by moj_init() (run_watch),
					 * before the first piece */
	struct http	 hr;		/* --http: the response's head */
	struct browser	 br;
	struct fixplan	 fix;
	char		 msg[512];
	char		 namebuf[128];	/* name, when it fits */
};

int		 run_init(struct run *, const struct settings *, const char *);
void		 run_reset(struct run *, const struct settings *, const char *);
void		 run_clear(struct run *);
void		 run_free(struct run *);
int		 run_push(struct run *, const unsigned char *, size_t);
int		 run_finish(struct run *);
int		 run_fd(struct run *, int, int64_t);
int		 run_buffer(struct run *, const unsigned char *, size_t);
int		 run_fail(struct run *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
int		 run_fail_errno(struct run *, int);
int		 run_begin(struct run *);
void		 run_watch(struct run *);
void		 run_map(struct run *);
int		 run_reads_ahead(const struct run *);
size_t		 run_piece(struct run *);
int		 run_end(struct run *, int);
void		 run_plan(struct run *);

/* One diagnostic line of a result: the record's, or an occurrence. */
struct xmlsniff_diagnostic {
	int		 code;
	int		 error;
	uint64_t	 off, line, col, count;
	char		*msg;
	char		*excerpt;
	/* the record's: its occurrences (--all), the first included */
	const struct xmlsniff_diagnostic **occ;
	size_t		 nocc;
};

struct xmlsniff_result {
	/* the members of the record (json.c) */
	char		*encoding, *charset, *mime, *mime_label;
	int		 has_decl;
	char		*decl_version, *decl_encoding;
	char		*head;		/* the strings above, in the result's own
					 * block, after it */
	/* names from the library's tables */
	const char	*source, *bom, *decl_kind, *decl_standalone;
	int		 has_http;
	int		 http_status;	/* -1: null */
	char		*http_ctype, *http_coding;
	uint64_t	 errors, warnings;
	struct xmlsniff_diagnostic *diag;	/* the record's */
	size_t		 ndiag;
	struct xmlsniff_diagnostic *line;	/* every line the report lists */
	size_t		 nline;
	char		*browser;
	int		 listing;	/* --all: "unlisted" is a member */
	uint64_t	 unlisted;
	char		*cut_note;
	int		 guess_sought;
	char		*guess_enc, *guess_sample, *guess_note;
	int		 is_xml;
	int		 examined;
	unsigned char	 pcode[D_NCODES];	/* the input's policy of each
						 * code (dpolicy's code) */
	uint64_t	 content_at;
	/* --fix, --in-place */
	int		 has_fix;
	char		*fix_action, *fix_why;
	int		 nfix;
	char		*fix_changes[FIX_MAX];
	struct fixplan	*plan;		/* the rewrite to do, or NULL */
	/* made when first asked (an atomic: results may be read by
	 * several threads) */
	_Atomic(char *)	 json;
	_Atomic(char *)	 summary;
};

xmlsniff_result	*result_make(struct run *);
char		*result_json(const xmlsniff_result *);
char		*result_summary(const xmlsniff_result *);

/* checker.c and transcoder.c: the one-time choices before any input */
int		 api_ready(void);

#endif

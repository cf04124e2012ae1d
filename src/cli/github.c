/*
 * --format=github (xmlsniff(1), Report formats): the workflow commands,
 * in the order GitHub's limits ask for, and the step summary.
 *
 * A step shows at most 10 error and 10 warning annotations (GitHub's
 * documentation of workflow commands and actions/toolkit's problem
 * matchers); the rest are only in the step's log.  So the commands are
 * gathered for the whole run and written at its end: the errors, then
 * the warnings, each in the order of the inputs; then, when some will not
 * show, a notice that says how many and where they all are; then the
 * notes of lists cut by --max-errors.  With $GITHUB_STEP_SUMMARY set, a
 * Markdown summary is appended to the file it names, also on a clean run.
 *
 * Each finding travels as a record of its own (record.c) that begins
 * with a NUL byte, so that the records of -j's workers (jobs.c) reach the
 * parent in the order of the inputs, and are gathered there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

#define GH_SHOWN	10	/* annotations of each level a step shows */
#define GH_ROWS		20	/* findings in the summary's table */

/* One gathered finding, its fields pointing into the record's copy. */
struct ghent {
	int		 kind;
	const char	*name, *code, *msg;
	uint64_t	 line, col, count;
};

static struct {
	char		*p;		/* the records, each after its length */
	size_t		 n, cap;
	unsigned long	 files, errors, warnings, notes, unreadable;
	uint64_t	 occ[D_NCODES + 1];	/* + 1: unreadable */
	unsigned long	 infiles[D_NCODES + 1];
	unsigned long	 lastfile[D_NCODES + 1];
	int		 on;
} gh;

/* The summary being written. */
static struct {
	FILE	*f;
	int	 rows;
} sum;

static void gh_put(FILE *, const struct ghent *);
static void gh_write(int, const struct ghent *);
static int gh_summary(const char *);

/*
 * Send one finding of kind (GH_*) to be gathered: a record of a NUL, the
 * kind, then each field ended by a NUL.  For GH_FILE only the name.
 * Without memory for a record, the command is written at once.
 */
void
gh_finding(int kind, const char *name, const char *code, uint64_t line,
    uint64_t col, uint64_t count, const char *msg)
{
	FILE *f = rec_open(1);

	if (f == stdout) {
		struct ghent e = { kind, name, code, msg, line, col, count };

		if (kind != GH_FILE)
			gh_put(f, &e);
		rec_close(f);
		return;
	}
	putc('\0', f);
	putc(kind, f);
	fprintf(f, "%s%c%s%c%" PRIu64 "%c%" PRIu64 "%c%" PRIu64 "%c%s%c",
	    name, 0, code, 0, line, 0, col, 0, count, 0, msg, 0);
	rec_close(f);
}

/* Read the fields of record p, n bytes, into e; -1 if it is not one. */
static int
parse(const char *p, size_t n, struct ghent *e)
{
	const char *f[6], *end = p + n;
	int i;

	if (n < 3 || p[0] != '\0' || p[n - 1] != '\0')
		return -1;
	e->kind = (unsigned char)p[1];
	p += 2;
	for (i = 0; i < 6; i++) {
		if (p >= end)
			return -1;
		f[i] = p;
		p += strlen(p) + 1;
	}
	e->name = f[0];
	e->code = f[1];
	e->line = strtoull(f[2], NULL, 10);
	e->col = strtoull(f[3], NULL, 10);
	e->count = strtoull(f[4], NULL, 10);
	e->msg = f[5];
	return 0;
}

/* Count e: per level, and per code its occurrences and files. */
static void
tally(const struct ghent *e)
{
	int c;

	if (e->kind == GH_FILE) {
		gh.files++;
		return;
	}
	if (e->kind == GH_NOTE) {
		gh.notes++;
		return;
	}
	if (e->kind == GH_UNREADABLE) {
		gh.unreadable++;
		c = D_NCODES;
	} else if ((c = diag_lookup(e->code)) < 0)
		return;
	if (e->kind == GH_WARNING)
		gh.warnings++;
	else
		gh.errors++;
	gh.occ[c] += e->count > 0 ? e->count : 1;
	if (gh.lastfile[c] != gh.files + gh.unreadable + 1) {
		gh.lastfile[c] = gh.files + gh.unreadable + 1;
		gh.infiles[c]++;
	}
}

/*
 * A record for standard output (record.c's diversion, or jobs.c's
 * records through format_splice): a finding is gathered; anything else
 * goes on.  Without memory to keep a finding, it is written at once.
 */
void
gh_take(int fd, const char *p, size_t n)
{
	struct ghent e;

	if (fd != 1 || parse(p, n, &e) < 0) {
		rec_put(fd, p, n);
		return;
	}
	tally(&e);
	if (e.kind == GH_FILE)
		return;
	if (gh.n + n + sizeof(size_t) > gh.cap) {
		size_t cap = gh.cap ? gh.cap : 65536;
		char *np;

		while (cap < gh.n + n + sizeof(size_t))
			cap *= 2;
		if ((np = realloc(gh.p, cap)) == NULL) {
			gh_write(0, &e);
			return;
		}
		gh.p = np;
		gh.cap = cap;
	}
	memcpy(gh.p + gh.n, &n, sizeof(n));
	memcpy(gh.p + gh.n + sizeof(n), p, n);
	gh.n += sizeof(n) + n;
}

/* Gather from here on (format_start). */
void
gh_start(void)
{
	gh.on = 1;
	rec_divert(gh_take);
}

/* The workflow command of e on f. */
static void
gh_put(FILE *f, const struct ghent *e)
{
	fprintf(f, "::%s file=", e->kind == GH_WARNING ? "warning" :
	    e->kind == GH_NOTE ? "notice" : "error");
	gh_text(f, e->name, 1);
	if (e->kind == GH_ERROR || e->kind == GH_WARNING)
		fprintf(f, ",line=%" PRIu64 ",col=%" PRIu64 ",title=%s",
		    e->line, e->col, e->code);
	fputs("::", f);
	gh_text(f, e->msg, 0);
	putc('\n', f);
}

/* The workflow command of e, one record on standard output (through a
 * diversion, gh_take passes it on). */
static void
gh_write(int unused, const struct ghent *e)
{
	FILE *f = rec_open(1);

	(void)unused;
	gh_put(f, e);
	rec_close(f);
}

/* Each finding gathered whose kind is in kinds, in order, to fn. */
static void
each(const char *kinds, void (*fn)(int, const struct ghent *), int arg)
{
	size_t at = 0, n;
	struct ghent e;

	while (at < gh.n) {
		memcpy(&n, gh.p + at, sizeof(n));
		if (parse(gh.p + at + sizeof(n), n, &e) == 0 &&
		    strchr(kinds, e.kind) != NULL)
			fn(arg, &e);
		at += sizeof(n) + n;
	}
}

/* How many of the errors and warnings will not show as annotations. */
static void
hidden(unsigned long *err, unsigned long *warn)
{
	*err = gh.errors > GH_SHOWN ? gh.errors - GH_SHOWN : 0;
	*warn = gh.warnings > GH_SHOWN ? gh.warnings - GH_SHOWN : 0;
}

/* The notice that some annotations will not show. */
static void
limit_notice(void)
{
	unsigned long he, hw;
	FILE *f;

	hidden(&he, &hw);
	if (he == 0 && hw == 0)
		return;
	f = rec_open(1);
	fprintf(f, "::notice title=xmlsniff::%lu error%s and %lu warning%s; "
	    "GitHub shows %d of each as annotations, so %lu error%s and %lu "
	    "warning%s do not show. This step's log lists them all (and the "
	    "job summary counts them); so does xmlsniff with the same "
	    "arguments and --format=text.\n", gh.errors,
	    gh.errors == 1 ? "" : "s", gh.warnings, gh.warnings == 1 ? "" :
	    "s", GH_SHOWN, he, he == 1 ? "" : "s", hw, hw == 1 ? "" : "s");
	rec_close(f);
}

/*
 * The end of the run: the commands in their order, then the summary;
 * return status, or 2 when the summary could not be written.
 */
int
gh_end(int status)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");

	if (!gh.on)
		return status;
	rec_divert(NULL);
	each("eu", gh_write, 1);
	each("w", gh_write, 1);
	limit_notice();
	each("n", gh_write, 1);
	if (path != NULL && *path != '\0' && gh_summary(path) < 0) {
		report_warn("GITHUB_STEP_SUMMARY", 0, "%s: %s", path,
		    strerror(errno));
		status = 2;
	}
	free(gh.p);
	gh.p = NULL;
	gh.n = gh.cap = 0;
	return status;
}

/* s in Markdown text: the punctuation GFM acts on escaped by a
 * backslash, what is not printable UTF-8 written \xHH (format.c). */
static void
md_text(FILE *f, const char *s)
{
	gh_text(f, s, 2);
}

/* The link to e's file and line on GitHub, when the workflow's variables
 * say where the repository is and the name is a path in it. */
static void
md_where(FILE *f, const struct ghent *e)
{
	const char *srv = getenv("GITHUB_SERVER_URL");
	const char *repo = getenv("GITHUB_REPOSITORY");
	const char *sha = getenv("GITHUB_SHA");
	int link = srv != NULL && *srv != '\0' && repo != NULL &&
	    *repo != '\0' && sha != NULL && *sha != '\0' &&
	    e->name[0] != '/' && strcmp(e->name, "-") != 0 &&
	    strncmp(e->name, "../", 3) != 0 && strcmp(e->name, "..") != 0;

	if (link)
		putc('[', f);
	md_text(f, strcmp(e->name, "-") == 0 ? "standard input" : e->name);
	if (e->line > 0)
		fprintf(f, ":%" PRIu64, e->line);
	if (!link)
		return;
	fputs("](", f);
	fputs(srv, f);
	putc('/', f);
	format_uri(f, repo);
	fputs("/blob/", f);
	format_uri(f, sha);
	putc('/', f);
	format_uri(f, e->name);
	if (e->line > 0)
		fprintf(f, "#L%" PRIu64, e->line);
	putc(')', f);
}

/* A row of the table of findings, while there is room. */
static void
md_row(int unused, const struct ghent *e)
{
	FILE *f = sum.f;

	(void)unused;
	if (sum.rows++ >= GH_ROWS)
		return;
	fputs("| ", f);
	md_where(f, e);
	fprintf(f, " | %s | ", e->kind == GH_WARNING ? "warning" : "error");
	md_text(f, e->kind == GH_UNREADABLE ? "unreadable" : e->code);
	fputs(" | ", f);
	md_text(f, e->msg);
	fputs(" |\n", f);
}

/* The plural of what, for n. */
static const char *
s_(unsigned long n)
{
	return n == 1 ? "" : "s";
}

/* The summary's count of each code found, in the order of the codes. */
static void
md_codes(FILE *f)
{
	int c;

	fputs("| Code | Severity | Occurrences | Files |\n"
	    "| --- | --- | ---: | ---: |\n", f);
	for (c = 0; c <= D_NCODES; c++) {
		if (gh.occ[c] == 0)
			continue;
		fprintf(f, "| %s | %s | %" PRIu64 " | %lu |\n", c < D_NCODES ?
		    diag_code((enum code)c) : "unreadable", c == D_NCODES ||
		    diag_error_in(perfile_policy(), (enum code)c) ? "error" : "warning",
		    gh.occ[c], gh.infiles[c]);
	}
}

/*
 * Append the Markdown summary of the run to path: the files checked and
 * the counts, a table of the codes found, and the first findings (errors
 * first) with links to their lines.  Return 0, or -1 with errno set.
 */
static int
gh_summary(const char *path)
{
	unsigned long he, hw;
	int bad;

	if ((sum.f = fopen(path, "a")) == NULL)
		return -1;
	sum.rows = 0;
	fprintf(sum.f, "### xmlsniff\n\n%lu file%s checked", gh.files,
	    s_(gh.files));
	if (gh.errors == 0 && gh.warnings == 0)
		fputs(": no problems found.\n", sum.f);
	else
		fprintf(sum.f, ": %lu error%s, %lu warning%s.\n", gh.errors,
		    s_(gh.errors), gh.warnings, s_(gh.warnings));
	if (gh.unreadable > 0)
		fprintf(sum.f, "%lu input%s could not be read (counted as "
		    "errors, code unreadable).\n", gh.unreadable,
		    s_(gh.unreadable));
	if (gh.notes > 0)
		fprintf(sum.f, "In %lu file%s the list was cut by "
		    "--max-errors.\n", gh.notes, s_(gh.notes));
	if (gh.errors + gh.warnings > 0) {
		putc('\n', sum.f);
		md_codes(sum.f);
		if (gh.errors + gh.warnings > GH_ROWS)
			fprintf(sum.f, "\nThe first %d of %lu findings",
			    GH_ROWS, gh.errors + gh.warnings);
		else
			fputs("\nThe findings", sum.f);
		fputs(", errors first:\n\n| Where | Severity | Code | Message "
		    "|\n| --- | --- | --- | --- |\n", sum.f);
		each("eu", md_row, 0);
		each("w", md_row, 0);
		hidden(&he, &hw);
		if (he + hw > 0)
			fprintf(sum.f, "\nGitHub shows %d error and %d warning "
			    "annotations a step: %lu error%s and %lu warning%s "
			    "are only in the step's log.\n", GH_SHOWN, GH_SHOWN,
			    he, s_(he), hw, s_(hw));
	}
	putc('\n', sum.f);
	bad = ferror(sum.f);
	if (fclose(sum.f) != 0 || bad) {
		sum.f = NULL;
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	sum.f = NULL;
	return 0;
}

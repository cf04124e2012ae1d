/*
 * One input, analysed by the library (xmlsniff(3)) and reported: its
 * check, --transcode-to's transcode into -o, standard output or itself
 * (--in-place), and --fix's repair in place.  The destination is written
 * here (dest.c); what each input is found to be is the library's.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dest.h"
#include "opts.h"

/* The checker, kept from one input to the next (its buffers and
 * decoders). */
static xmlsniff_checker *chk;

/* A transcode's destination, and what was found of it as it began. */
struct target {
	struct dest	 d;
	const char	*name;		/* of the input */
	const char	*path;		/* where it goes: NULL standard output */
	int		 in_fd;
	int		 regular;	/* the input is a regular file */
	int		 in_place;
	int		 opened;	/* d is open */
	int		 refused;	/* ... or was refused (status 2) */
};

/* The transcoder's writer: as it begins (no bytes), the command line's
 * own refusals and the destination; then the bytes. */
static int
twrite(void *ctx, const void *p, size_t n)
{
	struct target *t = ctx;
	struct stat a, b;

	if (p != NULL || n > 0)
		return dest_write(&t->d, p, n);
	/* In place means a regular file, replaced by rename(2). */
	if (t->in_place && !t->regular) {
		report_warn(t->name, 0, "not transcoded: %s", "--in-place "
		    "needs a regular file");
		t->refused = 1;
		return -1;
	}
	/* Writing into the FIFO or device being read would never end. */
	if (!t->in_place && t->path != NULL && strcmp(t->path, "-") != 0 &&
	    stat(t->path, &a) == 0 && !S_ISREG(a.st_mode) &&
	    fstat(t->in_fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		report_warn(t->name, 0, "not transcoded: %s", "-o names the "
		    "input itself, which is not a regular file");
		t->refused = 1;
		return -1;
	}
	if (dest_open(&t->d, t->in_place ? t->name : t->path) < 0) {
		t->refused = 1;
		return -1;
	}
	t->opened = 1;
	return 0;
}

/*
 * Read the input fd (a regular file of fsize bytes read from its start,
 * or with fsize -1 anything else) through a transcoder, into the target
 * tg; then the destination is
 * replaced, or left as it was.  Return the status as --transcode-to has
 * it (0, 1 refused, 2 an I/O error), with *res the transcoder's result
 * and *changed whether a file's bytes changed (or, --dry-run, would).
 */
static int
transcode(xmlsniff_transcoder *x, struct target *tg, int fd, long long fsize,
    int same_content, xmlsniff_result **res, int *changed, char *why,
    size_t size)
{
	int rc, st, same = 0;

	*changed = 0;
	why[0] = '\0';
	(void)xmlsniff_transcoder_read(x, fd, fsize >= 0 ? fsize :
	    XMLSNIFF_SIZE_STREAM);
	st = xmlsniff_transcoder_finish(x, res);
	if (st == XMLSNIFF_OK)
		rc = 0;
	else if (st == XMLSNIFF_ERR_REFUSED) {
		if (!xmlsniff_transcoder_reported(x))
			report_warn(tg->name, 0, "not transcoded: %s",
			    xmlsniff_transcoder_error(x));
		snprintf(why, size, "%s", xmlsniff_transcoder_error(x));
		rc = 1;
	} else if (st == XMLSNIFF_ERR_WRITE && tg->refused)
		rc = 2;	/* said as it began */
	else if (st == XMLSNIFF_ERR_WRITE) {
		errno = tg->d.werrno;
		rc = dest_error("write error on", tg->path != NULL &&
		    !tg->in_place ? tg->path : tg->in_place ? tg->name :
		    "standard output");
	} else if (st == XMLSNIFF_ERR_READ) {
		report_warn(NULL, 0, "read error on %s: %s", tg->name,
		    xmlsniff_transcoder_error(x));
		rc = 2;
	} else {
		report_warn(NULL, 0, "%s", xmlsniff_transcoder_error(x));
		rc = 2;
	}
	if (!tg->opened)
		return rc;
	/* The same bytes: nothing to replace. */
	if (!tg->d.direct && rc == 0 && tg->in_place && *res != NULL) {
		switch (dest_compare(&tg->d, fd,
		    xmlsniff_result_content_offset(*res), same_content)) {
		case 1:
			same = 1;
			break;
		case -1:
			snprintf(why, size, "%s", "re-encoding would change the "
			    "content, not only the BOM and declaration");
			report_warn(tg->name, 0, "not transcoded: %s", why);
			rc = 1;
			break;
		case -2:
			rc = dest_error("cannot compare", tg->name);
			break;
		}
	}
	rc = dest_close(&tg->d, rc, !same && !opt.dry_run);
	if (!tg->d.direct)
		*changed = rc == 0 && !same;
	return rc;
}

/* What --in-place or --fix did, from transcode()'s rc, into res. */
static void
outcome(xmlsniff_result *res, int rc, int changed, const char *why)
{
	if (rc == 0 && !changed)
		xmlsniff_result_set_fix(res, "unchanged", NULL);
	else if (rc == 0)
		xmlsniff_result_set_fix(res, opt.dry_run ? "would-write" :
		    "written", NULL);
	else
		xmlsniff_result_set_fix(res, rc == 1 ? "refused" : "failed",
		    rc == 2 ? "an I/O error" : why);
}

/* A file --fix does not repair: one line on standard error. */
static void
not_fixed(const char *name, const char *why)
{
	report_warn(name, 0, "not fixed: %s", why);
}

/*
 * --fix, the input fd (regular: a regular file) analysed in res: carry
 * out the repair the library planned, reading the file again from its
 * start and rewriting it in place, which leaves a file whose bytes would
 * not change alone.  Return 1 when the plan refused the file, to be said
 * after its diagnostics.
 */
static int
fix_file(const char *name, const xmlsniff_options *o, xmlsniff_result *res,
    int fd, long long fsize)
{
	xmlsniff_transcoder *x;
	xmlsniff_result *t = NULL;
	struct target tg;
	const char *a = xmlsniff_result_fix_action(res);
	char why[512] = "";
	int rc, changed = 0;

	if (fsize < 0) {
		xmlsniff_result_set_fix(res, "failed", "not a regular file");
		not_fixed(name, "--fix needs a regular file");
		raise_status(2);
		return 0;
	}
	if (a != NULL && strcmp(a, "refused") == 0) {
		raise_status(1);
		return 1;
	}
	/* Nothing to change: not even read again. */
	if (a == NULL || strcmp(a, "would-write") != 0)
		return 0;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		not_fixed(name, strerror(errno));
		outcome(res, 2, 0, NULL);
		raise_status(2);
		return 0;
	}
	memset(&tg, 0, sizeof(tg));
	tg.name = name;
	tg.in_fd = fd;
	tg.regular = 1;
	tg.in_place = 1;
	if ((x = xmlsniff_transcoder_fix(o, res, name, twrite, &tg)) == NULL)
		rc = dest_error("out of memory for", name);
	else
		rc = transcode(x, &tg, fd, fsize,
		    xmlsniff_result_fix_keeps_content(res), &t, &changed, why,
		    sizeof(why));
	outcome(res, rc, changed, why);
	xmlsniff_result_free(t);
	xmlsniff_transcoder_free(x);
	a = xmlsniff_result_fix_action(res);
	raise_status(strcmp(a, "unchanged") == 0 ? 0 : strcmp(a, "failed") ==
	    0 ? 2 : 1);
	return 0;
}

/* --transcode-to: the input fd (regular: a regular file this program
 * opened) through a transcoder of the options o, then reported. */
static void
transcode_input(const char *name, const xmlsniff_options *o, int fd,
    long long fsize)
{
	xmlsniff_transcoder *x;
	xmlsniff_result *res = NULL;
	struct target tg;
	char why[512] = "";
	int rc, changed = 0;

	memset(&tg, 0, sizeof(tg));
	tg.name = name;
	tg.path = opt.output;
	tg.in_fd = fd;
	tg.regular = fsize >= 0;
	tg.in_place = opt.in_place;
	if ((x = xmlsniff_transcoder_new(o, name, NULL, twrite, &tg)) ==
	    NULL) {
		fail_input(name, strerror(ENOMEM));
		return;
	}
	rc = transcode(x, &tg, fd, fsize, 0, &res, &changed, why,
	    sizeof(why));
	if (res == NULL) {
		/* Its head could not be read, or its marker. */
		fail_input(name, xmlsniff_transcoder_error(x));
		xmlsniff_transcoder_free(x);
		return;
	}
	perfile_seen(res);
	if (!xmlsniff_result_examined(res))
		rc = 1;	/* --http, a coded body: not transcoded */
	else if (opt.in_place)
		outcome(res, rc, changed, why);
	if (!opt.quiet && (opt.output != NULL || opt.in_place))
		report_line(name, res, opt.fmt, opt.brief);
	if (same_out)
		fflush(stdout);
	report_diags(name, res, opt.fmt);
	raise_status(rc);
	xmlsniff_result_free(res);
	xmlsniff_transcoder_free(x);
}

/*
 * How the checker is to read fd (analyse's fsize): the size of a regular
 * file this program opened; else, for standard input at offset 0, the
 * library's fstat(2) (XMLSNIFF_SIZE_ASK): "xmlsniff - < FILE" is then
 * read as FILE is, by the second thread, with the bytes before a hit read
 * again for its position instead of every line counted as the bytes go
 * by (four times the time on 200 MB of text: doc/BENCHMARKS.md).  Input
 * read from before (an offset past 0), a pipe (lseek fails) or a
 * terminal stays a stream, read once.  Only the check: a transcode or
 * --fix of standard input never takes it for a file to replace.
 */
static int64_t
read_size(int fd, long long fsize)
{
	if (fsize >= 0)
		return fsize;
	return lseek(fd, 0, SEEK_CUR) == 0 ? XMLSNIFF_SIZE_ASK :
	    XMLSNIFF_SIZE_STREAM;
}

/*
 * Analyse and report the opened input fd called name (a regular file of
 * fsize bytes this program opened, read from its start; with fsize -1
 * anything else, read once, as a pipe, but see read_size).
 */
void
analyse(const char *name, int fd, long long fsize)
{
	const xmlsniff_options *o;
	xmlsniff_result *res = NULL;
	int rc, refused = 0;

	if (opt.list_files) {
		rec_flush();	/* nothing gathered may come after */
		if (opt.print0) {
			fputs(name, stdout);
			putchar('\0');
		} else {
			put_name(name);
			putchar('\n');
		}
		return;
	}
	/* Its policy: its sections (and its marker, the library's). */
	if ((o = perfile_options(strcmp(name, "-") == 0 ? NULL : name)) ==
	    NULL) {
		fail_input(name, strerror(ENOMEM));
		return;
	}
	if (opt.transcode_to != NULL) {
		transcode_input(name, o, fd, fsize);
		return;
	}
	if (chk == NULL)
		chk = xmlsniff_checker_new(o, name);
	else
		(void)xmlsniff_checker_reset(chk, o, name);
	if (chk == NULL) {
		fail_input(name, strerror(ENOMEM));
		return;
	}
	if ((rc = xmlsniff_checker_read(chk, fd, read_size(fd, fsize))) ==
	    XMLSNIFF_OK)
		rc = xmlsniff_checker_finish(chk, &res);
	if (rc != XMLSNIFF_OK) {
		if (rc == XMLSNIFF_ERR_MARKER)
			perfile_seen_options(o);
		fail_input(name, xmlsniff_checker_error(chk));
		return;
	}
	perfile_seen(res);
	/* -r: a file that is not XML, of an extension that is XML only
	 * sometimes, is passed over (walk.c). */
	if (opt.recursive && !xmlsniff_result_is_xml(res) &&
	    walk_passes_over(name, opt.verbose)) {
		xmlsniff_result_free(res);
		return;
	}
	/* --http, a coded body: neither checked nor repaired. */
	if (xmlsniff_result_examined(res) && opt.fix)
		refused = fix_file(name, o, res, fd, fsize);
	if (!opt.quiet)
		report_line(name, res, opt.fmt, opt.brief);
	if (same_out)
		fflush(stdout);
	report_diags(name, res, opt.fmt);
	if (refused)
		not_fixed(name, xmlsniff_result_fix_reason(res));
	if (opt.strict && (xmlsniff_result_errors(res) > 0 ||
	    !xmlsniff_result_examined(res)))
		raise_status(1);
	xmlsniff_result_free(res);
}

/* The end of the run: what the inputs shared goes. */
void
analyse_end(void)
{
	xmlsniff_checker_free(chk);
	chk = NULL;
}

/*
 * xmlsniff: the command line, the inputs and the per-input loop.
 */
/* d_type of readdir(3), a BSD and Linux extension (DT_UNKNOWN otherwise
 * takes an fstatat). */
#define _DEFAULT_SOURCE
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http.h"
#include "coding.h"
#include "excerpt.h"
#include "jobs.h"
#include "guess.h"
#include "mojibake.h"
#include "opts.h"
#include "browser.h"


static struct xopts xo;
static int status;
static int stdout_closed;
static int stdin_closed;
static int same_out;	/* stdout and stderr are one file: keep order */
static struct inbuf in;
static struct http hr;	/* --http: the head of the input in in */
/* What each input's analysis uses, kept from one input to the next: its
 * decoders, the browser's view, its excerpts, the block kept for its
 * guess and the guess, what a transcode did. */
static struct dcaches *dcache;
static struct browser br;
static struct excerpt_src exc;
static struct gkeep gk;
static struct guess guessed;
static struct xlout xout;

static void
raise_status(int s)
{
	if (s > status)
		status = s;
}

/* An input that cannot be read: reported, and exit status 2 (the man
 * page's EXIT STATUS); the other inputs go on. */
static void
fail_input(const char *name, const char *why)
{
	report_failure(name, why, opt.fmt, opt.quiet);
	raise_status(2);
}

/* What --in-place or --fix did, from transcode's return rc; t is the
 * analysis the transcode made. */
static void
outcome(struct fixres *f, int rc, const struct sniff *t)
{
	if (rc == 0 && !xout.changed) {
		f->action = "unchanged";
		f->nchanges = 0;
		return;
	}
	if (rc == 0) {
		f->action = opt.dry_run ? "would-write" : "written";
		if (f->nchanges == 0 && opt.fix)
			snprintf(f->changes[f->nchanges++],
			    sizeof(f->changes[0]), "rewrote the BOM and "
			    "declaration as RFC 7303 section 3.3 requires");
		return;
	}
	f->nchanges = 0;
	f->action = rc == 1 ? "refused" : "failed";
	if (rc == 2)
		snprintf(f->why, sizeof(f->why), "an I/O error");
	else if (xout.refusal[0] != '\0')
		snprintf(f->why, sizeof(f->why), "%s", xout.refusal);
	else if (t->dg.d[D_UNREPRESENTABLE].count > 0)
		snprintf(f->why, sizeof(f->why), "%s",
		    t->dg.d[D_UNREPRESENTABLE].msg);
	else
		snprintf(f->why, sizeof(f->why), "the input has illegal bytes; "
		    "nothing is guessed");
}

/* Sniff the head of the input in b, with the Content-Type mt, into s,
 * under the input's policy. */
static void
sniff_in(const struct inbuf *b, const struct mt *mt, const char *name,
    struct sniff *s)
{
	const struct sset ss = { mt, opt.default_encoding != NULL ?
	    &opt.dflt : NULL, perfile_policy() };

	sniff_set(b->p, b->n < HEAD_MAX ? b->n : HEAD_MAX, b->n <= HEAD_MAX &&
	    b->eof, &ss, name, s);
}

/* Sniff the head of the input in the buffer into s. */
static void
sniff_head(const char *name, struct sniff *s)
{
	const struct mt *mt = opt.has_mt ? &opt.mt : NULL;

	diag_free(&s->dg);	/* --all: the last input's list */
	if (opt.http)	/* the response's own, never --content-type */
		mt = hr.has_mt ? &hr.mt : NULL;
	sniff_in(&in, mt, strcmp(name, "-") == 0 ? NULL : name, s);
	s->fix = NULL;
	if (!opt.http)
		return;
	/* A compressed body is not the entity: nothing of it is told. */
	if (hr.coding[0] != '\0' && !hr.examined) {
		memset(&s->dg, 0, sizeof(s->dg));
		s->have_enc = 0;
		s->source = SRC_NONE;
	}
	http_note(&hr, &s->dg);
	s->http = &hr;
}

/* --http: the bytes of the response's head, before the entity. */
static uint64_t head_len;

/* --http: read the response's head from the buffer into hr, and drop
 * it, so that the entity, and every offset, starts at the body.  Return
 * 0, or -1 with errno on a read error. */
static int
skip_head(void)
{
	size_t len = http_parse(in.p, in.n, &hr);

	head_len = len;
	if (len == 0 || !in.eof)
		return len == 0 ? 0 : in_refill(&in, len);
	in.p += len;
	in.n -= len;
	return 0;
}

/* A file --fix does not repair: one line on standard error. */
static void
not_fixed(const char *name, const char *why)
{
	report_warn(name, 0, "not fixed: %s", why);
}

/*
 * Where in the file the entity of the current input starts, for what
 * reads a regular file again (--http skips the response's head): -1 when
 * it cannot be.  A regular file is one this program opened, read from
 * its start (standard input is never taken for one: in.size is -1), so
 * no lseek(2) is spent on asking.
 */
static long long
entity_start(void)
{
	return in.size >= 0 ? (long long)head_len : -1;
}

/*
 * The one read loop: the rest of the input (in.p holds its head) through
 * the validator v, and with it through the transcode xl when there is one,
 * which may end it early.  Return 0, or the errno of a read that failed.
 */
static int
feed_input(struct val *v, struct xlate *xl, struct sniff *s)
{
	static struct moj mj;
	struct pre *pre = NULL;
	long long at = entity_start();
	int e = 0;

	/* A regular file is read again for the position of a hit; other
	 * inputs count lines as they go. */
	moj_init(&mj, s, at >= 0 ? in.fd : -1, at >= 0 ? (uint64_t)at : 0);
	/* A big file is mapped, not read, and searched ahead (not in the
	 * workers of -j, whose number is that of the processors). */
	in_map_begin(&in);
	{
		size_t len;
		const unsigned char *m = in_map(&in, &len);

		if (!opt.no_lookahead)
			pre = pre_begin(m, len, (uint64_t)(in.got -
			    (long long)in.n), at >= 0 ? (uint64_t)at : 0, s,
			    val_sbmap(v));
	}
	if (pre != NULL)
		val_set_finder(v, pre_late_find, pre);
	mj.pre = pre;
	for (;;) {
		size_t used = val_feed(v, in.p, in.n, in.eof);

		if (opt.browser)
			browser_feed(&br, in.p, in.eof ? in.n : used);
		/* --excerpt: the bytes of a pipe while they are here. */
		excerpt_capture(&exc, in.p, in.n, (uint64_t)in.got - in.n -
		    head_len, in.eof);
		/* A pipe: the block where a problem shows, for the guess
		 * (analysis only). */
		if (xl == NULL && in.size < 0)
			guess_keep(&gk, &in, head_len, &s->dg);
		/* The same bytes, once each, for the mojibake warning. */
		moj_feed(&mj, in.p, used);
		if ((xl != NULL && xlate_failed(xl)) || in.eof) {
			moj_end(&mj, &s->dg);
			break;
		}
		if (in_refill(&in, used) < 0) {
			e = errno != 0 ? errno : EIO;
			break;
		}
	}
	pre_end(pre);
	val_set_finder(v, NULL, NULL);
	mj.pre = NULL;
	if (in_map_end(&in) < 0 && e == 0)
		e = errno != 0 ? errno : EIO;
	return e;
}

/* Transcode the input whose sniff is s (its head in in); return the
 * status. */
static int
transcode_input(const char *name, struct sniff *s, const struct xopts *x,
    int strict, const char *output, int in_place)
{
	struct xlate *xl;
	struct val *v;
	int rc;

	if ((rc = xlate_begin(name, &in, s, x, strict, output, in_place, &xl,
	    &v, &xout)) != 0 || xl == NULL)
		return rc;
	return xlate_end(xl, &in, feed_input(v, xl, s));
}

/*
 * --fix: plan the repair of the analysed input s, then read it again
 * from the start and rewrite it in place through the transcoder, which
 * leaves a file whose bytes would not change alone.  Return 1 when the
 * plan refused the file, to be said after its diagnostics.
 */
static int
fix_file(const char *name, struct sniff *s)
{
	static struct fixres fr;
	static struct sniff t;
	static struct mt m;
	struct xopts fx;
	const char *read_as;
	char ct[64], err[64];

	s->fix = &fr;
	if (in.size < 0) {
		memset(&fr, 0, sizeof(fr));
		fr.action = "failed";
		snprintf(fr.why, sizeof(fr.why), "not a regular file");
		not_fixed(name, "--fix needs a regular file");
		raise_status(2);
		return 0;
	}
	/* BOM-less UTF-16 read as UTF-8 for want of a label, whose first
	 * characters show it beyond question: read again as that. */
	read_as = s->bom == BOM_NONE && s->source == SRC_DEFAULT ?
	    guess_utf16_layout(in.p, in.n) : NULL;
	if (fix_plan(s, read_as, opt.byte_order_le, &fx, &fr) < 0) {
		raise_status(1);
		return 1;
	}
	/* Nothing to change: not even read again. */
	if (fr.nchanges == 0) {
		fr.action = "unchanged";
		return 0;
	}
	fx.dry_run = opt.dry_run;
	in.n = 0;
	in.got = 0;
	in.shrunk = 0;
	in.eof = 0;
	in.p = in.mem + IN_PAD;
	in.trust_size = 0;
	if (lseek(in.fd, 0, SEEK_SET) < 0 || in_refill(&in, 0) < 0) {
		not_fixed(name, strerror(errno));
		outcome(&fr, 2, s);
		raise_status(2);
		return 0;
	}
	/* BOM-less UTF-16: read as --encoding=UTF-16LE (or BE) would. */
	snprintf(ct, sizeof(ct), "application/xml; charset=%s",
	    read_as != NULL ? read_as : "");
	if (read_as == NULL || mt_parse(ct, &m, err, sizeof(err)) < 0)
		sniff_head(name, &t);
	else {
		diag_free(&t.dg);
		sniff_in(&in, &m, name, &t);
	}
	outcome(&fr, transcode_input(name, &t, &fx, 0, NULL, 1), &t);
	raise_status(strcmp(fr.action, "unchanged") == 0 ? 0 :
	    strcmp(fr.action, "failed") == 0 ? 2 : 1);
	return 0;
}

static void analyse_head(const char *, int);

/* Validate and report one opened input. */
static void
analyse(const char *name, int fd)
{
	int tfd = -1;

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
	in.fd = fd;
	in.n = 0;
	in.got = 0;
	in.shrunk = 0;
	in.p = in.mem + IN_PAD;
	/* The head: up to HEAD_MAX bytes, sniffed once, never read again. */
	if (in_refill(&in, 0) < 0 || (opt.http && (skip_head() < 0 ||
	    coding_body(&in, &hr, opt.transcode_to != NULL, &tfd) < 0)))
		fail_input(name, strerror(errno));
	else {
		if (tfd >= 0)
			head_len = 0;	/* the decoded body is the input */
		analyse_head(name, tfd >= 0 ? tfd : fd);
	}
	if (tfd >= 0)
		close(tfd);
}

/* ... once its head is in in. */
static void
analyse_head(const char *name, int fd)
{
	static struct sniff sn;
	struct sniff *s = &sn;
	struct val *v;
	char why[300];
	int refused = 0;

	/* Its policy: its sections, its marker (xmlsniff(1), PER-FILE
	 * POLICY).  A marker that cannot be read leaves it unchecked. */
	if (perfile_apply(strcmp(name, "-") == 0 ? NULL : name, in.p, in.n,
	    why, sizeof(why)) < 0) {
		fail_input(name, why);
		return;
	}
	sniff_head(name, s);
	/* -r: a file that is not XML, of an extension that is XML only
	 * sometimes, is passed over (walk.c). */
	if (opt.recursive && s->not_xml && walk_passes_over(name, opt.verbose))
		return;
	/* A regular file that --fix and --in-place leave as it is is read
	 * again for excerpts; the others' bytes (and a --http body's, whose
	 * offsets are not the file's) are kept as they pass. */
	excerpt_begin(&exc, opt.excerpt_on, s, in.size >= 0 && !opt.fix &&
	    !opt.in_place && !opt.http ? fd : -1, in.size);
	if (policy_active(s->dg.pol))
		policy_check(s);
	/* --http, a compressed body: neither checked nor transcoded. */
	if (opt.http && hr.coding[0] != '\0' && !hr.examined) {
		s->browser = opt.browser ? browser_name(&br) : NULL;
		if (!opt.quiet && (opt.transcode_to == NULL ||
		    opt.output != NULL))
			report_line(name, s, opt.fmt, opt.brief);
		if (same_out)
			fflush(stdout);
		report_diags(name, s, opt.fmt, &exc);
		if (opt.transcode_to != NULL || opt.strict)
			raise_status(1);
		return;
	}
	if (opt.browser)
		browser_begin(&br, s);
	excerpt_capture(&exc, in.p, in.n, 0, in.eof);
	if (opt.transcode_to != NULL) {
		static struct fixres fr;
		int rc = transcode_input(name, s, &xo, opt.strict, opt.output,
		    opt.in_place);

		if (opt.browser)
			browser_end(&br, s);
		if (opt.in_place) {
			memset(&fr, 0, sizeof(fr));
			outcome(&fr, rc, s);
			s->fix = &fr;
		}

		s->browser = opt.browser ? browser_name(&br) : NULL;
		if (!opt.quiet && (opt.output != NULL || opt.in_place))
			report_line(name, s, opt.fmt, opt.brief);
		report_diags(name, s, opt.fmt, &exc);
		raise_status(rc);
		return;
	}
	guess_reset(&gk);
	if ((v = val_open(s, &s->dg, dcache)) != NULL) {
		int e = feed_input(v, NULL, s);

		val_free(v);
		if (e != 0) {
			fail_input(name, in.shrunk ?
			    "the file shrank while it was read" : strerror(e));
			return;
		}
	} else if (opt.browser)
		browser_feed(&br, in.p, in.n);
	if (opt.browser)
		browser_end(&br, s);
	/* The encoding it is really in, when the bytes refute the one
	 * found (only then: this reads a file again), for the reports
	 * that say it. */
	if (opt.fmt == FMT_TEXT || opt.fmt == FMT_JSON)
		s->guess = guess_input(&gk, name, &in, entity_start(),
		    opt.http, s, &guessed);
	if (opt.fix)
		refused = fix_file(name, s);
	s->browser = opt.browser ? browser_name(&br) : NULL;
	if (!opt.quiet)
		report_line(name, s, opt.fmt, opt.brief);
	if (same_out)
		fflush(stdout);
	report_diags(name, s, opt.fmt, &exc);
	if (refused)
		not_fixed(name, s->fix->why);
	if (opt.strict && s->dg.errors > 0)
		raise_status(1);
}

static void walk(int, const char *, const char *, size_t, size_t,
    const struct gitset *);
static void input_at(int, const char *, const char *, int);

static void
input(const char *name, int top)
{
	if (!jobs_take(name, top))
		input_at(AT_FDCWD, name, name, top);
}

/* -j: one input, in a worker process or the parent (jobs.c); return the
 * exit status so far. */
static int
job(const char *name, int top)
{
	input_at(AT_FDCWD, name, name, top);
	return status;
}

/*
 * Open and analyse one named input ("-" is standard input).  top: named
 * by the user; else found by -r as the regular file leaf in directory
 * dirfd (opened relative to it, which saves the kernel a path walk).
 */
static void
input_at(int dirfd, const char *leaf, const char *name, int top)
{
	struct stat st;
	int fd;

	if (strcmp(name, "-") == 0 && top) {
		if (opt.stdin_name != NULL)
			name = opt.stdin_name;
		if (stdin_closed) {
			fail_input(name, "standard input is closed");
			return;
		}
		if (fstat(0, &st) < 0) {
			fail_input(name, strerror(errno));
			return;
		}
		if (S_ISDIR(st.st_mode)) {
			fail_input(name, "is a directory");
			return;
		}
		in.size = -1;	/* it may have been read from already */
		in.trust_size = 0;
		analyse(name, 0);
		return;
	}
	/* Devices are reported, not opened (opening a tape
	 * or a terminal can block or have effects).  -r has seen the type. */
	if (top && stat(name, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		fail_input(name, S_ISCHR(st.st_mode) ? "is a character device; "
		    "not read (redirect it to standard input to read it)" :
		    "is a block device; not read (redirect it to standard "
		    "input to read it)");
		return;
	}
	/* Under -r, a name swapped for a link or a FIFO since readdir is
	 * neither followed nor waited on. */
	if ((fd = openat(dirfd, leaf, O_RDONLY | O_NOCTTY |
	    (top ? 0 : O_NOFOLLOW | O_NONBLOCK))) < 0) {
		fail_input(name, strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0) {
		fail_input(name, strerror(errno));
		close(fd);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		if (opt.recursive)
			walk(AT_FDCWD, name, name, 0, 0, NULL);
		else
			fail_input(name, "is a directory (use -r to descend "
			    "into it)");
		return;
	}
	if (!top && !S_ISREG(st.st_mode)) {
		/* -r passes over what is not a regular file any more. */
		close(fd);
		return;
	}
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		fail_input(name, "became a device while it was opened; not "
		    "read");
		close(fd);
		return;
	}
	/* Under -r the file is regular, where O_NONBLOCK has no effect
	 * (POSIX read(): it matters for FIFOs and special files); a file
	 * system that still says EAGAIN has it cleared in in_refill's
	 * reads, so no call is spent on it per file. */
	in.size = S_ISREG(st.st_mode) ? st.st_size : -1;
	/* /proc and the like say 0 for what they hold. */
	in.trust_size = in.size > 0 && opt.transcode_to == NULL && !opt.fix;
	analyse(name, fd);
	close(fd);
}

/* Order by name (after the type character). */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

/*
 * Read the entries of directory dp but "." and "..", each as its type
 * ('f', 'd', '?' unknown, 'o' other) then its name, into *names (*n of
 * them; the longest name *longest bytes; *dotgit when one is ".git").
 * Return 0, or the errno that stopped the listing (ENOMEM included).
 */
static int
list_dir(DIR *dp, char ***names, size_t *n, size_t *longest, int *dotgit)
{
	struct dirent *de;
	size_t cap = 0, nlen;

	for (;;) {
		errno = 0;	/* readdir's end and its error look alike */
		if ((de = readdir(dp)) == NULL)
			return errno;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			char **nn = realloc(*names, ncap * sizeof(*nn));

			if (nn == NULL)
				return ENOMEM;
			*names = nn;
			cap = ncap;
		}
		/* The type, from readdir where it knows, ahead of the name. */
		nlen = strlen(de->d_name);
		if (((*names)[*n] = malloc(nlen + 2)) == NULL)
			return ENOMEM;
#ifdef DT_UNKNOWN
		(*names)[*n][0] = (char)(de->d_type == DT_REG ? 'f' :
		    de->d_type == DT_DIR ? 'd' : de->d_type == DT_UNKNOWN ? '?' :
		    'o');
#else
		(*names)[*n][0] = '?';
#endif
		memcpy((*names)[*n] + 1, de->d_name, nlen + 1);
		*dotgit |= strcmp(de->d_name, ".git") == 0;
		if (nlen > *longest)
			*longest = nlen;
		(*n)++;
	}
}

/*
 * -r: the regular files below dir that the walk selects (walk_wanted,
 * and git where dir is in a work tree), in byte order of names; symbolic
 * links, FIFOs, sockets and devices found there are passed over.  The
 * paths of the entries of dir are relative to the walk's root from
 * offset off, to the directory gs lists from offset goff; the top call
 * (parent AT_FDCWD) sets them.  A directory that holds a .git is a work
 * tree of its own, and git is asked about it.  A directory that cannot
 * be listed whole, for want of memory or a read error, is an unreadable
 * input (the man page's EXIT STATUS): one line, exit status 2, nothing in
 * it is checked, rather than whatever part of it readdir gave first.
 */
static void
walk(int parent, const char *leaf, const char *dir, size_t off, size_t goff,
    const struct gitset *gs)
{
	DIR *dp;
	char **names = NULL, *path = NULL;
	size_t n = 0, i, dlen = strlen(dir), longest = 0;
	int dfd, dotgit = 0, e_list = 0;
	/* dir "": the current directory, its files named without "./" */
	const char *sep = dlen == 0 || dir[dlen - 1] == '/' ? "" : "/";
	const char *shown = dlen > 0 ? dir : ".";
	struct gitset *own = NULL;

	/* Below the top, relative to the parent and never through a link. */
	if ((dfd = openat(parent, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (parent == AT_FDCWD ? 0 : O_NOFOLLOW))) < 0 ||
	    (dp = fdopendir(dfd)) == NULL) {
		fail_input(shown, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return;
	}
	e_list = list_dir(dp, &names, &n, &longest, &dotgit);
	/* One buffer for the path of every entry, each in its turn. */
	if (e_list == 0 && n > 0 &&
	    (path = malloc(dlen + longest + 2)) == NULL)
		e_list = ENOMEM;
	if (e_list != 0) {
		/* The names go first: the report needs memory too. */
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		closedir(dp);
		fail_input(shown, e_list == ENOMEM ? "out of memory listing the "
		    "directory; nothing in it is checked" : strerror(e_list));
		return;
	}
	qsort(names, n, sizeof(*names), name_cmp);
	if (parent == AT_FDCWD)
		off = dlen + (*sep != '\0');
	if (!opt.no_ignore && (parent == AT_FDCWD || dotgit)) {
		gs = own = walk_git(shown);
		goff = dlen + (*sep != '\0');
	}
	for (i = 0; i < n; i++) {
		const char *e = names[i] + 1;
		char type = names[i][0];
		struct stat st;

		snprintf(path, dlen + longest + 2, "%s%s%s", dir, sep, e);
		if (type == '?') {
			if (fstatat(dfd, e, &st, AT_SYMLINK_NOFOLLOW) < 0)
				fail_input(path, strerror(errno));
			else
				type = S_ISDIR(st.st_mode) ? 'd' :
				    S_ISREG(st.st_mode) ? 'f' : 'o';
		}
		if ((type == 'd' || type == 'f') &&
		    walk_wanted(&opt.walk, path + off, type == 'd') &&
		    (gs == NULL || walk_git_has(gs, path + goff, type == 'd'))) {
			if (type == 'd')
				walk(dfd, e, path, off, goff, gs);
			else if (!jobs_take(path, 0))
				input_at(dfd, e, path, 0);
		}
		free(names[i]);
	}
	free(path);
	free(names);
	walk_git_free(own);
	closedir(dp);
}

/*
 * The next NUL-terminated name from f into name (PATH_MAX + 2 bytes; a
 * final name may lack its NUL); return its length with the NUL, 0 at the
 * end.  A name longer than PATH_MAX is read to its end but kept only in
 * part (length PATH_MAX + 2 then), so that no list can take all memory.
 */
static ssize_t
read_name(FILE *f, char *name)
{
	size_t len = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\0') {
		if (len < PATH_MAX + 1)
			name[len] = (char)c;
		len++;
	}
	if (c == EOF && len == 0)
		return 0;
	if (len > PATH_MAX + 1)
		len = PATH_MAX + 1;
	name[len] = '\0';
	return (ssize_t)len + 1;
}

/* A bad entry in a --files0-from list: one escaped line, exit 2 (in the
 * report, for the formats that put everything on standard output). */
static void
list_error(const char *from, unsigned long n, const char *what)
{
	char why[200];

	snprintf(why, sizeof(why), "name %lu %s", n, what);
	report_failure(from, why, opt.fmt > FMT_JSON ? opt.fmt : FMT_TEXT,
	    opt.quiet);
	raise_status(2);
}

/* --files0-from: NUL-separated names from F. */
static void
files0(const char *from)
{
	static char name[PATH_MAX + 2];
	FILE *f;
	ssize_t len;
	unsigned long n = 0;
	struct stat st;

	/* Not a device (/dev/zero would be names without end). */
	if (strcmp(from, "-") != 0 && stat(from, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		fail_input(from, "is a device; names are not read from it");
		return;
	}
	if (strcmp(from, "-") == 0 && stdin_closed) {
		fail_input(from, "standard input is closed");
		return;
	}
	if ((f = strcmp(from, "-") == 0 ? stdin : fopen(from, "rb")) == NULL) {
		fail_input(from, strerror(errno));
		return;
	}
	while ((len = read_name(f, name)) > 0) {
		n++;
		if (len == 1) {
			list_error(from, n, "is empty");
			continue;
		}
		if (len > PATH_MAX + 1) {
			list_error(from, n, "is longer than PATH_MAX");
			continue;
		}
		if (strcmp(name, "-") == 0 && (f == stdin || opt.in_place ||
		    opt.fix)) {
			list_error(from, n, opt.in_place || opt.fix ? "is \"-\", "
			    "but --in-place and --fix cannot write back to "
			    "standard input" :
			    "is \"-\", but the names are read from standard "
			    "input");
			continue;
		}
		input(name, 1);
	}
	if (ferror(f))
		fail_input(from, strerror(errno));
	if (f != stdin)
		fclose(f);
}

/* Check that standard output took everything; return status, or 2. */
static int
finish_stdout(int st)
{
	if (stdout_closed && (!opt.quiet || opt.fmt > FMT_JSON ||
	    (opt.transcode_to != NULL && opt.output == NULL && !opt.in_place))) {
		report_warn(NULL, 0, "%s",
		    "write error: standard output is closed");
		return 2;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		report_warn(NULL, 0, "write error: %s", strerror(errno));
		return 2;
	}
	if (rec_error() != 0) {
		report_warn(NULL, 0, "write error: %s", strerror(rec_error()));
		return 2;
	}
	return st;
}

/* Keep descriptors 0-2 open, so that no input is opened as fd 1. */
static void
guard_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);

			if (fd == 1)
				stdout_closed = 1;
			if (fd == 0)
				stdin_closed = 1;
			if (nfd != fd && nfd >= 0)
				close(nfd);
		}
}

int
main(int argc, char *argv[])
{
	int i;

	guard_fds();
	{
		/* One write per diagnostic line; order kept with stdout when
		 * both go to the same file. */
		static char errbuf[BUFSIZ];
		struct stat a, b;

		setvbuf(stderr, errbuf, _IOLBF, sizeof(errbuf));
		same_out = fstat(1, &a) == 0 && fstat(2, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	}
	argv[0] = (char *)"xmlsniff";	/* getopt's messages name it so */
	/* Which kernels run: XMLSNIFF_SIMD's, read once by the engine. */
	{
		char err[300];

		if (simd_check(err, sizeof(err)) < 0) {
			report_warn("XMLSNIFF_SIMD", 0, "%s", err);
			return 2;
		}
	}
	if (opts_parse(&argc, &argv) != 0 || opts_check(argc, argv, &xo) != 0)
		return finish_stdout(0);
	if ((errno = posix_memalign((void **)&in.mem, 4096, IN_PAD + IN_SIZE))
	    != 0 || (dcache = dcaches_new()) == NULL) {
		if (errno == 0)
			errno = ENOMEM;
		report_warn(NULL, 0, "%s", strerror(errno));
		return 2;
	}
	transcode_signals();
	rec_batch(!same_out && !isatty(1));
	report_set(opt.browser, opt.color_on);
	format_start(opt.fmt);
	jobs_begin(argc, job);

	if (opt.files0_from != NULL)
		files0(opt.files0_from);
	else if (argc == 0 && opt.recursive)
		walk(AT_FDCWD, ".", "", 0, 0, NULL);	/* as rg: "." */
	else if (argc == 0)
		input("-", 1);
	else
		for (i = 0; i < argc; i++)
			input(argv[i], 1);
	raise_status(jobs_end());

	free(in.mem);
	dcaches_free(dcache);
	browser_free(&br);
	excerpt_free(&exc);
	guess_keep_free(&gk);
	status = format_end(opt.fmt, status);
	return finish_stdout(status);
}

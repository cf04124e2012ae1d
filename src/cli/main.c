/*
 * xmlsniff: the command line and its inputs (named, -r's tree,
 * --files0-from); each input is analysed and reported by analyse.c,
 * through the library.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dest.h"
#include "jobs.h"
#include "opts.h"

static void input_at(int, const char *, const char *, int);
static void walk(const char *, const char *);

static void
input(const char *name, int top)
{
	if (!jobs_take(name, top))
		input_at(AT_FDCWD, name, name, top);
}

/*
 * -j: the directory of a name that -r found, opened once for all the
 * names in it that come one after the other (a chunk holds a run of
 * them), so that each file is opened relative to it as the walk of one
 * process does, and the kernel does not walk the whole path again for
 * each.  len: the name's length to its last '/', the '/' included ("/"
 * is the root).  Return its descriptor, or -1 (the name is then opened
 * whole).
 */
static int
job_dir(const char *name, size_t len)
{
	static char *dir;
	static size_t dlen, cap;
	static int dfd = -1;

	if (dfd >= 0 && len == dlen && memcmp(dir, name, len) == 0)
		return dfd;
	if (dfd >= 0)
		close(dfd);
	dfd = -1;
	if (len + 1 > cap) {
		char *np = realloc(dir, len + 1);

		if (np == NULL)
			return -1;
		dir = np;
		cap = len + 1;
	}
	memcpy(dir, name, len);
	dir[len] = '\0';
	dlen = len;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dfd;
}

/* -j: one input, in a worker process or the parent (jobs.c); return the
 * exit status so far. */
static int
job(const char *name, int top)
{
	const char *slash = strrchr(name, '/');
	int dfd;

	if (!top && slash != NULL && slash[1] != '\0' &&
	    (dfd = job_dir(name, (size_t)(slash - name) + 1)) >= 0)
		input_at(dfd, slash + 1, name, 0);
	else
		input_at(AT_FDCWD, name, name, top);
	return exit_status();
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
		/* Read as a pipe: it may have been read from already. */
		analyse(name, 0, -1);
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
			walk(name, name);
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
	 * system that still says EAGAIN has it cleared by the library's
	 * reads, so no call is spent on it per file. */
	analyse(name, fd, S_ISREG(st.st_mode) ? (long long)st.st_size :
	    -1);
	close(fd);
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

/* -r's visitor: a file the walk selects, and a directory it cannot
 * read. */
static void
walk_file(int dirfd, const char *leaf, const char *path)
{
	if (!jobs_take(path, 0))
		input_at(dirfd, leaf, path, 0);
}

static const struct walkvisit visit = { walk_file, fail_input };

/* -r: the tree below dir (leaf: its name for openat), its root the
 * top. */
static void
walk(const char *leaf, const char *dir)
{
	walk_tree(AT_FDCWD, leaf, dir, 0, 0, NULL, &opt.walk, opt.no_ignore,
	    &visit);
}

int
main(int argc, char *argv[])
{
	int i;

	std_guard();
	argv[0] = (char *)"xmlsniff";	/* getopt's messages name it so */
	/* Which kernels run: XMLSNIFF_SIMD's, read once by the library. */
	{
		char err[300];

		if (xmlsniff_init(err, sizeof(err)) != XMLSNIFF_OK) {
			report_warn("XMLSNIFF_SIMD", 0, "%s", err);
			return 2;
		}
	}
	if (opts_parse(&argc, &argv) != 0 || opts_check(argc, argv) != 0)
		return finish_stdout(0);
	transcode_signals();
	rec_batch(isatty(1) ? 0 : same_out ? 2 : 1);
	report_set(opt.browser, opt.color_on);
	format_start(opt.fmt);
	jobs_begin(argc, job);

	if (opt.files0_from != NULL)
		files0(opt.files0_from);
	else if (argc == 0 && opt.recursive)
		walk(".", "");	/* as rg: "." */
	else if (argc == 0)
		input("-", 1);
	else
		for (i = 0; i < argc; i++)
			input(argv[i], 1);
	raise_status(jobs_end());

	analyse_end();
	return finish_stdout(format_end(opt.fmt, exit_status()));
}

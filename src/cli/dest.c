/*
 * The destination of --transcode-to, replaced only when finished: a
 * regular file is written as a temporary file beside it, synced and
 * renamed over it (rename(2) is atomic), so that a failure, an error or a
 * signal leaves it as it was; standard output and other files are
 * written directly.  --in-place and --fix leave a file whose bytes would
 * not change alone (its inode, links and times too).  The transcoder's
 * output buffer is written here too (xc_flush).
 */
/* realpath(3) is XSI; sync_file_range(2), where there is one, Linux's. */
#define _XOPEN_SOURCE 700
#ifdef __linux__
#define _GNU_SOURCE
#endif

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "dest.h"
#include "xc.h"

/* The temporary file, removed by the signal handler. */
static volatile sig_atomic_t tmp_active;
static char tmp_path[PATH_MAX];

/*
 * The temporary file's descriptor, the bytes written to it and how many
 * of those have been handed to the disk: on Linux, every WB_STEP bytes
 * are sent to the disk as they come (sync_file_range(2), which waits for
 * nothing), so that the fsync(2) before the rename has only the last of
 * them to wait for, not the whole file.
 */
#define WB_STEP		(8 * 1024 * 1024)
static int tmp_fd = -1;
static off_t tmp_written, tmp_kicked;

static void
on_signal(int sig)
{
	if (tmp_active)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The signals that end the process, caught and held off alike. */
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM,
    SIGUSR1, SIGUSR2, SIGPIPE };

/* Nothing is lost: the signals that end the process remove the temporary
 * file first. */
void
transcode_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* A signal ignored on entry (a background job's SIGINT, a
		 * caller's SIGPIPE) stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	/* Over a file size limit, write(2) fails with EFBIG and the normal
	 * clean-up runs, instead of a silent death. */
	signal(SIGXFSZ, SIG_IGN);
}

/* The signals that end the process: held off while the temporary file
 * comes into being and is recorded, and while it is renamed. */
static void
hold_signals(int hold, sigset_t *old)
{
	sigset_t set;
	size_t i;

	if (hold) {
		sigemptyset(&set);
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaddset(&set, sigs[i]);
		sigprocmask(SIG_BLOCK, &set, old);
	} else
		sigprocmask(SIG_SETMASK, old, NULL);
}

/* "xmlsniff: WHAT NAME: the error" for errno; return 2, the status of an
 * I/O error. */
int
dest_error(const char *what, const char *name)
{
	int e = errno;

	/* report_warn escapes the name with the rest of the line. */
	if (name == NULL)
		report_warn(NULL, 0, "%s: %s", what, strerror(e));
	else
		report_warn(NULL, 0, "%s %s: %s", what, name, strerror(e));
	return 2;
}

/* Directory part of path, for the temporary file. */
static void
dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* The temporary file beside d->real, with the mode (and, where allowed,
 * the owner) of the file it replaces; return its descriptor or -1. */
static int
open_tmp(struct dest *d, const struct stat *st, int exists)
{
	char dir[PATH_MAX];
	const char *base;
	mode_t mode, um;
	sigset_t old;
	int fd;

	dir_of(d->real, dir, sizeof(dir));
	base = strrchr(d->real, '/') != NULL ? strrchr(d->real, '/') + 1 :
	    d->real;
	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s/.%s.xmlsniff-XXXXXX",
	    dir, base) >= sizeof(tmp_path)) {
		errno = ENAMETOOLONG;
		dest_error("cannot create a temporary file for", d->name);
		return -1;
	}
	hold_signals(1, &old);
	if ((fd = mkstemp(tmp_path)) < 0) {
		hold_signals(0, &old);
		dest_error("cannot create a temporary file in", dir);
		return -1;
	}
	tmp_active = 1;
	tmp_fd = fd;
	tmp_written = tmp_kicked = 0;
	hold_signals(0, &old);
	um = umask(0);
	umask(um);
	mode = exists ? st->st_mode & 07777 : 0666 & ~um;
	/* Keep the owner (as root); where that fails, no set-ID bits. */
	if (exists && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) < 0)
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
	if (fchmod(fd, mode) < 0) {
		dest_error("cannot set the mode of", tmp_path);
		close(fd);
		unlink(tmp_path);
		tmp_active = 0;
		return -1;
	}
	return fd;
}

/* Open the destination dest (NULL or "-": standard output): directly for
 * standard output and non-regular files, else a temporary file beside
 * it.  Return the descriptor (also in d->fd) or -1. */
int
dest_open(struct dest *d, const char *dest)
{
	struct stat st;
	int exists;

	d->direct = 0;
	d->name = dest;
	if (dest == NULL || strcmp(dest, "-") == 0) {
		d->direct = 1;
		return d->fd = 1;
	}
	/* Keep a symbolic link: write where it points. */
	if (realpath(dest, d->real) == NULL)
		snprintf(d->real, sizeof(d->real), "%s", dest);
	exists = stat(d->real, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		d->direct = 1;
		if ((d->fd = open(d->real, O_WRONLY | O_TRUNC | O_NOCTTY)) < 0)
			dest_error("cannot open", dest);
		return d->fd;
	}
	return d->fd = open_tmp(d, &st, exists);
}

/*
 * Compare len bytes of descriptor a from offset ao with those of b from
 * bo: 1 the same, 0 not, -1 a read error.
 */
static int
same_bytes(int a, off_t ao, int b, off_t bo, off_t len)
{
	static unsigned char ba[64 * 1024], bb[64 * 1024];

	while (len > 0) {
		size_t n = len < (off_t)sizeof(ba) ? (size_t)len : sizeof(ba);
		ssize_t ra = pread(a, ba, n, ao), rb = pread(b, bb, n, bo);

		if (ra < 0 || rb < 0)
			return -1;
		if (ra != (ssize_t)n || rb != (ssize_t)n)
			return 0;
		if (memcmp(ba, bb, n) != 0)
			return 0;
		ao += (off_t)n;
		bo += (off_t)n;
		len -= (off_t)n;
	}
	return 1;
}

/*
 * --in-place and --fix: compare the finished output in the temporary file
 * with the input in.  Return 1 when they are the same bytes (the file is
 * left alone, keeping its inode, links and times), 0 when they differ, -1
 * when xo->same_content is set and the bytes after the declaration (or
 * BOM) would change, -2 on a read error.
 */
int
dest_compare(struct dest *d, int in, const struct sniff *s,
    const struct xopts *xo)
{
	struct stat a, b;
	off_t from, tail;
	int r;

	if (fstat(in, &a) < 0 || fstat(d->fd, &b) < 0)
		return -2;
	if (xo->same_content) {
		from = (off_t)(s->decl.present ? s->decl.end : s->bomlen);
		tail = a.st_size - from;
		if (tail < 0 || b.st_size < tail)
			return -1;
		if ((r = same_bytes(in, from, d->fd, b.st_size - tail,
		    tail)) <= 0)
			return r < 0 ? -2 : -1;
	}
	if (a.st_size != b.st_size)
		return 0;
	if ((r = same_bytes(in, 0, d->fd, 0, a.st_size)) < 0)
		return -2;
	return r;
}

/*
 * Finish the destination, rc being the transcode's status so far: with rc
 * 0 and replace set, sync the temporary file and rename it over the
 * destination (then sync its directory, so the rename lasts); otherwise
 * remove it.  Return the status, 2 after an I/O error here.
 */
int
dest_close(struct dest *d, int rc, int replace)
{
	sigset_t held;

	if (d->direct) {
		if (d->name != NULL && strcmp(d->name, "-") != 0)
			close(d->fd);
		return rc;
	}
	if (rc == 0 && replace && fsync(d->fd) < 0)
		rc = dest_error("cannot sync", tmp_path);
	if (close(d->fd) < 0 && rc == 0)
		rc = dest_error("cannot close", tmp_path);
	hold_signals(1, &held);
	if (rc == 0 && replace && rename(tmp_path, d->real) < 0)
		rc = dest_error("cannot replace", d->name);
	if (rc != 0 || !replace)
		unlink(tmp_path);
	tmp_active = 0;
	tmp_fd = -1;
	hold_signals(0, &held);
	if (rc == 0 && replace) {
		char dir[PATH_MAX];
		int dfd;

		dir_of(d->real, dir, sizeof(dir));
		if ((dfd = open(dir, O_RDONLY)) >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	return rc;
}

/* Write out the output buffer; a write error fails the transcode. */
void
xc_flush(struct xc *x)
{
	size_t done = 0;

	while (done < x->on && x->failed != 2) {
		ssize_t w = write(x->fd, x->obuf + done, x->on - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			x->werrno = errno;
			x->failed = 2;
			break;
		}
		done += (size_t)w;
	}
	x->on = 0;
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
	if (x->fd == tmp_fd && tmp_active) {
		tmp_written += (off_t)done;
		if (tmp_written - tmp_kicked >= WB_STEP) {
			/* Only a start: an error shows at the fsync. */
			(void)sync_file_range(tmp_fd, tmp_kicked, tmp_written -
			    tmp_kicked, SYNC_FILE_RANGE_WRITE);
			tmp_kicked = tmp_written;
		}
	}
#endif
}

/*
 * The command line's exit status, and its three standard descriptors:
 * kept open, whether standard output and standard error are one file,
 * and whether standard output took everything at the end.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"

static int status;
static int stdout_closed;
int stdin_closed;	/* it was closed when we started: "-" reads nothing */
int same_out;		/* stdout and stderr are one file: keep order */

void
raise_status(int s)
{
	if (s > status)
		status = s;
}

int
exit_status(void)
{
	return status;
}

/* An input that cannot be read: reported, and exit status 2 (the man
 * page's EXIT STATUS); the other inputs go on. */
void
fail_input(const char *name, const char *why)
{
	report_failure(name, why, opt.fmt, opt.quiet);
	raise_status(2);
}

/*
 * Keep descriptors 0-2 open, so that no input is opened as fd 1; one
 * write per diagnostic line, and order kept with stdout when both go to
 * the same file.
 */
void
std_guard(void)
{
	static char errbuf[BUFSIZ];
	struct stat a, b;
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
	setvbuf(stderr, errbuf, _IOLBF, sizeof(errbuf));
	same_out = fstat(1, &a) == 0 && fstat(2, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Check that standard output took everything; return status, or 2. */
int
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

/*
 * The configuration file: long options, one a line, read before the
 * command line's.  See FILES in xmlsniff(1).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

#define RC_NAME		".xmlsniffrc"
#define RC_MAX		(1 << 20)	/* bytes; more is not a config */

/* Options a file may not give: actions, inputs and what writes. */
static const char *const not_here[] = {
	"config", "files0-from", "fix", "help", "in-place", "list-files",
	"no-config", "output", "print0", "version"
};

static const char *rc_file;	/* the file read, for messages */
static int *rc_lines;		/* the line of each argument it gave */
static int rc_n;
static char **rc_argv;		/* the new argv */
static char **rc_args;		/* the arguments the file gave */

/* At exit: what config_args allocated. */
static void
rc_free(void)
{
	int i;

	for (i = 0; i < rc_n; i++)
		free(rc_args[i]);
	free(rc_args);
	free(rc_argv);
	free(rc_lines);
}

static void rc_die(int, const char *, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* A bad configuration: "xmlsniff: FILE:LINE: message", exit 2. */
static void
rc_die(int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vwarn(rc_file, line, fmt, ap);
	va_end(ap);
	exit(2);
}

/* The long option of lo nearest to s (up to len), which names none, for
 * "did you mean": its name, or NULL. */
const char *
config_suggest(const struct option *lo, const char *s, size_t len)
{
	const struct option *e;
	char word[64];

	for (e = lo; e->name != NULL; e++)
		continue;
	if (len == 0 || len >= sizeof(word))
		return NULL;
	memcpy(word, s, len);
	word[len] = '\0';
	return suggest(word, lo, (size_t)(e - lo), sizeof(*lo));
}

/* The long option of lo that s (up to len) names, as getopt_long takes
 * it: exactly, or by an unambiguous prefix when prefix. */
static const struct option *
find_long(const struct option *lo, const char *s, size_t len, int prefix)
{
	const struct option *o, *hit = NULL;

	for (o = lo; o->name != NULL; o++) {
		if (strncmp(o->name, s, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o;
		if (prefix)
			hit = hit == NULL ? o : lo;	/* lo: ambiguous */
	}
	return hit == lo ? NULL : hit;
}

/*
 * What the command line says of the configuration: *file is set to the
 * FILE of the last --config=FILE, or to NULL for a last --no-config;
 * return 0 when neither is given.  Option arguments are skipped as
 * getopt_long(3) would take them, and "--" ends the options.
 */
static int
scan_argv(int argc, char **argv, const struct option *lo,
    const char *shortopts, const char **file)
{
	const struct option *o;
	const char *a, *eq, *sp;
	int i, said = 0;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] != '-') {
			/* A cluster of short options; one may take the rest,
			 * or the next argument, as its value. */
			for (a++; *a != '\0'; a++)
				if ((sp = strchr(shortopts, *a)) != NULL &&
				    sp[1] == ':') {
					if (a[1] == '\0')
						i++;
					break;
				}
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		o = find_long(lo, a, eq != NULL ? (size_t)(eq - a) : strlen(a),
		    1);
		if (o == NULL)
			continue;
		if (strcmp(o->name, "no-config") == 0) {
			*file = NULL;
			said = 1;
		} else if (strcmp(o->name, "config") == 0) {
			if (eq != NULL)
				*file = eq + 1;
			else if (i + 1 < argc)
				*file = argv[++i];
			said = 1;
		} else if (o->has_arg == required_argument && eq == NULL)
			i++;
	}
	return said;
}

/*
 * The nearest .xmlsniffrc: in the current directory or the nearest
 * parent, not above the first one that holds a .git (a directory, or
 * the file of a linked work tree) or the root.  Return its path in buf,
 * relative ("../../.xmlsniffrc"), or NULL.
 */
static const char *
find_rc(char *buf, size_t size)
{
	struct stat here, up, st;
	size_t n = 0;

	for (;;) {
		if (n + sizeof(RC_NAME) + 3 > size)
			return NULL;
		strcpy(buf + n, RC_NAME);
		if (stat(buf, &st) == 0 || errno != ENOENT)
			return buf;
		strcpy(buf + n, ".git");
		if (lstat(buf, &st) == 0)
			return NULL;
		strcpy(buf + n, ".");
		if (stat(buf, &here) < 0)
			return NULL;
		strcpy(buf + n, "..");
		if (stat(buf, &up) < 0 ||
		    (here.st_dev == up.st_dev && here.st_ino == up.st_ino))
			return NULL;
		strcpy(buf + n, "../");
		n += 3;
	}
}

/* One line of the file (trimmed, not empty, no comment) as the argument
 * "--name[=value]" it stands for. */
static char *
rc_arg(const struct option *lo, char *s, int line)
{
	const struct option *o;
	const char *eq;
	size_t i, len;
	char *arg;

	if (s[0] == '-' && s[1] == '-')
		s += 2;
	else if (s[0] == '-')
		rc_die(line, "\"%s\": only long options, one a line (such as "
		    "--strict)", s);
	eq = strchr(s, '=');
	len = eq != NULL ? (size_t)(eq - s) : strlen(s);
	if (len == 0 || (o = find_long(lo, s, len, 0)) == NULL) {
		const char *near = config_suggest(lo, s, len);

		/* The line quoted (report_vwarn escapes it). */
		if (near != NULL)
			rc_die(line, "\"%s\" is not an option of xmlsniff; did "
			    "you mean --%s?", s, near);
		rc_die(line, "\"%s\" is not an option of xmlsniff (a "
		    "configuration file holds options only, no FILE "
		    "operands)", s);
	}
	for (i = 0; i < sizeof(not_here) / sizeof(not_here[0]); i++)
		if (strcmp(o->name, not_here[i]) == 0)
			rc_die(line, "--%s is for the command line only",
			    o->name);
	if (o->has_arg == required_argument && eq == NULL)
		rc_die(line, "--%s needs a value: --%s=VALUE", o->name,
		    o->name);
	if (o->has_arg == no_argument && eq != NULL)
		rc_die(line, "--%s takes no value", o->name);
	if ((arg = malloc(strlen(s) + 3)) == NULL)
		rc_die(0, "%s", strerror(errno));
	arg[0] = arg[1] = '-';
	strcpy(arg + 2, s);
	return arg;
}

/*
 * A line s (trimmed) from the first section on: a header "[GLOB]", which
 * begins a section (its layer returned), or "KEY = VALUE" of the section
 * sec, KEY ignore, error or allow-encoding (a leading "--" allowed).
 */
static struct pf_layer *
rc_section(struct pf_layer *sec, char *s, int line)
{
	char err[256], *eq, *k, *v;
	size_t n = strlen(s);

	if (s[0] == '[') {
		if (n < 3 || s[n - 1] != ']')
			rc_die(line, "\"%s\": a section begins with a line "
			    "[GLOB]", s);
		s[n - 1] = '\0';
		if ((sec = perfile_section(s + 1)) == NULL)
			rc_die(line, "%s", strerror(errno));
		return sec;
	}
	if ((eq = strchr(s, '=')) == NULL)
		rc_die(line, "\"%s\": a section holds ignore=CODES, "
		    "error=CODES and allow-encoding=LIST lines; the general "
		    "options go before the first [GLOB]", s);
	if (s[0] == '-' && s[1] == '-')
		s += 2;
	for (k = eq; k > s && (k[-1] == ' ' || k[-1] == '\t'); k--)
		continue;
	for (v = eq + 1; *v == ' ' || *v == '\t'; v++)
		continue;
	if (perfile_add(sec, s, (size_t)(k - s), v, err, sizeof(err)) < 0)
		rc_die(line, "%s", err);
	return sec;
}

/* The arguments of the configuration file path, appended to *args. */
static void
read_rc(const char *path, const struct option *lo, char ***args, int *n)
{
	static char buf[RC_MAX + 1];
	struct stat st;
	FILE *f;
	struct pf_layer *sec = NULL;	/* the section being read */
	size_t len, k;
	char *s, *e, *next;
	int fd, line = 0;

	rc_file = path;
	perfile_root(path);
	/* Not waiting on a FIFO, nor reading a device. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) < 0 ||
	    fstat(fd, &st) < 0)
		rc_die(0, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		rc_die(0, "is a directory");
	if (!S_ISREG(st.st_mode))
		rc_die(0, "is not a regular file");
	if ((f = fdopen(fd, "rb")) == NULL)
		rc_die(0, "%s", strerror(errno));
	len = fread(buf, 1, sizeof(buf), f);
	if (ferror(f))
		rc_die(0, "%s", strerror(errno));
	fclose(f);
	if (len > RC_MAX)
		rc_die(0, "is larger than %d bytes", RC_MAX);
	if (memchr(buf, '\0', len) != NULL)
		rc_die(0, "holds a NUL byte; it is not a text file");
	buf[len] = '\0';
	/* A UTF-8 BOM, as Notepad saves one, is no part of the first line. */
	s = buf;
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		s += 3;
	for (; s < buf + len; s = next) {
		line++;
		if ((e = strchr(s, '\n')) != NULL) {
			*e = '\0';
			next = e + 1;
		} else
			next = buf + len;
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
		    *s == '\v')
			s++;
		for (k = strlen(s); k > 0 && (s[k - 1] == ' ' ||
		    s[k - 1] == '\t' || s[k - 1] == '\r' || s[k - 1] == '\f' ||
		    s[k - 1] == '\v'); k--)
			s[k - 1] = '\0';
		if (*s == '\0' || *s == '#')
			continue;
		if (*s == '[' || sec != NULL) {
			sec = rc_section(sec, s, line);
			continue;
		}
		if ((*args = realloc(*args, (size_t)(*n + 1) *
		    sizeof(**args))) == NULL ||
		    (rc_lines = realloc(rc_lines, (size_t)(*n + 1) *
		    sizeof(*rc_lines))) == NULL)
			rc_die(0, "%s", strerror(errno));
		(*args)[*n] = rc_arg(lo, s, line);
		rc_lines[*n] = line;
		(*n)++;
	}
}

/*
 * The command line with the configuration's options placed before its
 * own, in *out (argv itself when there is no configuration); return the
 * new argc.  A bad or unreadable configuration ends the program with a
 * one-line message and status 2.
 */
int
config_args(int argc, char **argv, const struct option *lo,
    const char *shortopts, char ***out)
{
	static char found[PATH_MAX];
	const char *path = NULL;
	char **args = NULL, **nv;
	int n = 0, i;

	*out = argv;
	if (!scan_argv(argc, argv, lo, shortopts, &path))
		path = find_rc(found, sizeof(found));
	if (path == NULL)
		return argc;
	read_rc(path, lo, &args, &n);
	if (n == 0) {
		free(args);
		return argc;
	}
	if ((nv = rc_argv = calloc((size_t)(argc + n + 1), sizeof(*nv))) ==
	    NULL)
		rc_die(0, "%s", strerror(errno));
	nv[0] = argv[0];
	for (i = 0; i < n; i++)
		nv[1 + i] = args[i];
	for (i = 1; i < argc; i++)
		nv[n + i] = argv[i];
	rc_args = args;
	rc_n = n;
	atexit(rc_free);
	*out = nv;
	return argc + n;
}

/* The line of the configuration that gave argument i of the new argv,
 * with its file in *file; 0 when the command line gave it. */
int
config_line(int i, const char **file)
{
	if (i < 1 || i > rc_n)
		return 0;
	*file = rc_file;
	return rc_lines[i - 1];
}

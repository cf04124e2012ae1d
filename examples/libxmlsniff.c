/*
 * libxmlsniff.c: a small program on libxmlsniff (xmlsniff(3)), the way a
 * program that reads entities as streams would use it: each input read
 * from its descriptor in pieces into a checker (or a transcoder), the
 * result through its accessors.
 *
 * usage: libxmlsniff [-j] [-o NAME=VALUE]... [-t ENCODING] [FILE...]
 *
 * For each FILE (none, or -: standard input, named "-"), one line on
 * standard output, "NAME: " and what xmlsniff(1) says of it, and each
 * diagnostic on standard error as "NAME:LINE:COLUMN: SEVERITY: MESSAGE
 * [CODE]" (with "(N times)" before the code when it stands for several;
 * each occurrence, with -o all=yes).  -j prints the record instead, with
 * the file's name first, as xmlsniff --json does.  -o sets
 * an option as xmlsniff_options_set() takes it.  -t writes the entity
 * re-encoded in ENCODING to standard output.  Exits 1 when an input has
 * an error or could not be transcoded, 2 when an input or an option is
 * bad.
 *
 * Build it against an installed library:
 *	cc -o libxmlsniff libxmlsniff.c $(pkg-config --cflags --libs xmlsniff)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xmlsniff.h>

static int
to_stdout(void *arg, const void *p, size_t n)
{
	(void)arg;
	return fwrite(p, 1, n, stdout) == n ? 0 : -1;
}

/* s as a JSON string (RFC 8259 section 7). */
static void
json_string(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* NAME:LINE:COLUMN: SEVERITY: MESSAGE [CODE], with the count when the
 * diagnostic stands for several occurrences. */
static void
diagnostic(const char *name, const xmlsniff_diagnostic *d)
{
	uint64_t n = xmlsniff_diagnostic_count(d);

	fprintf(stderr, "%s:%llu:%llu: %s: %s", name,
	    (unsigned long long)xmlsniff_diagnostic_line(d),
	    (unsigned long long)xmlsniff_diagnostic_column(d),
	    xmlsniff_diagnostic_severity(d), xmlsniff_diagnostic_message(d));
	if (n > 1)
		fprintf(stderr, " (%llu times)", (unsigned long long)n);
	fprintf(stderr, " [%s]\n", xmlsniff_diagnostic_code(d));
}

static void
report(const char *name, const xmlsniff_result *r, int json, int quiet)
{
	const xmlsniff_diagnostic *d;
	size_t i, k, n;

	if (json) {
		/* The record, with "file" first; it holds the diagnostics. */
		printf("{\"file\":");
		json_string(name);
		printf(",%s\n", xmlsniff_result_json(r) + 1);
		return;
	}
	if (!quiet)
		printf("%s: %s\n", name, xmlsniff_result_summary(r));
	fflush(stdout);
	for (i = 0; i < xmlsniff_result_ndiagnostics(r); i++) {
		d = xmlsniff_result_diagnostic(r, i);
		if ((n = xmlsniff_diagnostic_noccurrences(d)) == 0)
			diagnostic(name, d);
		for (k = 0; k < n; k++)
			diagnostic(name, xmlsniff_diagnostic_occurrence(d, k));
	}
}

/* Feed the entity read from fd to a checker, or to a transcoder to
 * target; its result (NULL after saying why), and in *bad 1 when the
 * transcode was refused, 2 when it or the reading failed. */
static xmlsniff_result *
run(const xmlsniff_options *o, const char *name, int fd, const char *target,
    int *bad)
{
	static char buf[65536];
	xmlsniff_checker *c = NULL;
	xmlsniff_transcoder *t = NULL;
	xmlsniff_result *r = NULL;
	ssize_t n;
	int st = XMLSNIFF_OK;

	if (target != NULL)
		t = xmlsniff_transcoder_new(o, name, target, to_stdout, NULL);
	else
		c = xmlsniff_checker_new(o, name);
	if (c == NULL && t == NULL) {
		fprintf(stderr, "libxmlsniff: out of memory\n");
		*bad = 2;
		return NULL;
	}
	while (st == XMLSNIFF_OK && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			perror(name);
			*bad = 2;
			break;
		}
		st = t != NULL ? xmlsniff_transcoder_feed(t, buf, n) :
		    xmlsniff_checker_feed(c, buf, n);
	}
	if (*bad == 0 && st == XMLSNIFF_OK)
		st = t != NULL ? xmlsniff_transcoder_finish(t, &r) :
		    xmlsniff_checker_finish(c, &r);
	/* A refused transcode has a result too, whose diagnostics say
	 * why; otherwise the message does. */
	if (*bad == 0 && st != XMLSNIFF_OK) {
		if (r == NULL)
			fprintf(stderr, "%s: %s\n", name, t != NULL ?
			    xmlsniff_transcoder_error(t) :
			    xmlsniff_checker_error(c));
		*bad = st == XMLSNIFF_ERR_REFUSED ? 1 : 2;
	}
	xmlsniff_checker_free(c);
	xmlsniff_transcoder_free(t);
	return r;
}

static void
usage(void)
{
	fprintf(stderr, "usage: libxmlsniff [-j] [-o NAME=VALUE]... "
	    "[-t ENCODING] [FILE...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	xmlsniff_options *o;
	xmlsniff_result *r;
	const char *target = NULL, *name;
	char *eq;
	int ch, fd, i, json = 0, bad, status = 0;

	if ((o = xmlsniff_options_new()) == NULL) {
		fprintf(stderr, "libxmlsniff: out of memory\n");
		return 2;
	}
	while ((ch = getopt(argc, argv, "jo:t:")) != -1)
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'o':
			if ((eq = strchr(optarg, '=')) == NULL)
				usage();
			*eq = '\0';
			if (xmlsniff_options_set(o, optarg, eq + 1) !=
			    XMLSNIFF_OK) {
				fprintf(stderr, "libxmlsniff: %s\n",
				    xmlsniff_options_error(o));
				xmlsniff_options_free(o);
				return 2;
			}
			break;
		case 't':
			target = optarg;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	for (i = 0; i < argc || (i == 0 && argc == 0); i++) {
		name = argc == 0 ? "-" : argv[i];
		if (strcmp(name, "-") == 0)
			fd = STDIN_FILENO;
		else if ((fd = open(name, O_RDONLY)) == -1) {
			perror(name);
			status = 2;
			continue;
		}
		bad = 0;
		r = run(o, name, fd, target, &bad);
		if (fd != STDIN_FILENO)
			close(fd);
		if (r != NULL) {
			report(name, r, json, target != NULL);
			if (xmlsniff_result_errors(r) > 0 && bad < 1)
				bad = 1;
			xmlsniff_result_free(r);
		}
		if (bad > status)
			status = bad;
	}
	xmlsniff_options_free(o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("libxmlsniff: standard output");
		status = 2;
	}
	return status;
}

/*
 * A program on the library that prints nothing, for tests/library.bats
 * to run under strace: every input named is checked by descriptor, by
 * buffer and by a checker fed in pieces (and fed again after finish), and
 * transcoded to a target that may take it, one that may refuse it and
 * one this system lacks, under option sets that list, excerpt, read HTTP
 * responses and are refused; then a descriptor that cannot be read.  What
 * the library writes to standard output or standard error, strace shows.
 * Exits 0, or 3 when an input cannot be opened or memory is short.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <xmlsniff.h>

static int
sink(void *arg, const void *p, size_t n)
{
	(void)arg;
	(void)p;
	(void)n;
	return 0;
}

/* Everything the library does with one input under o, quietly. */
static void
each(const xmlsniff_options *o, const char *name)
{
	static const char *const to[] = { "UTF-16", "US-ASCII", "x-nope" };
	static unsigned char buf[1 << 20];
	xmlsniff_checker *c;
	xmlsniff_transcoder *t;
	xmlsniff_result *r;
	ssize_t n;
	size_t i, k;
	int fd;

	if ((fd = open(name, O_RDONLY)) == -1)
		exit(3);
	if (xmlsniff_check_fd(o, name, fd, &r, NULL, 0) == XMLSNIFF_OK) {
		(void)xmlsniff_result_json(r);
		(void)xmlsniff_result_summary(r);
		xmlsniff_result_free(r);
	}
	if ((n = pread(fd, buf, sizeof(buf), 0)) < 0)
		n = 0;
	close(fd);
	if (xmlsniff_check_buffer(o, name, buf, (size_t)n, &r, NULL, 0) ==
	    XMLSNIFF_OK)
		xmlsniff_result_free(r);
	if ((c = xmlsniff_checker_new(o, name)) == NULL)
		exit(3);
	for (i = 0; i < (size_t)n; i += 7)
		(void)xmlsniff_checker_feed(c, buf + i,
		    (size_t)n - i < 7 ? (size_t)n - i : 7);
	if (xmlsniff_checker_finish(c, &r) == XMLSNIFF_OK)
		xmlsniff_result_free(r);
	(void)xmlsniff_checker_feed(c, buf, 1);
	xmlsniff_checker_free(c);
	for (k = 0; k < sizeof(to) / sizeof(to[0]); k++) {
		if ((t = xmlsniff_transcoder_new(o, name, to[k], sink, NULL)) ==
		    NULL)
			exit(3);
		r = NULL;
		if (xmlsniff_transcoder_feed(t, buf, (size_t)n) == XMLSNIFF_OK)
			(void)xmlsniff_transcoder_finish(t, &r);
		xmlsniff_result_free(r);	/* a refusal has one too */
		xmlsniff_transcoder_free(t);
	}
}

int
main(int argc, char *argv[])
{
	static const char *const sets[][4] = {
		{ "all", "no", "all", "no" },
		{ "all", "yes", "browser", "yes" },
		{ "excerpt", "always", "default-encoding", "windows-1252" },
		{ "http", "yes", "max-errors", "2" },
		{ "nonesuch", "1", "max-errors", "0" },
	};
	xmlsniff_options *o;
	xmlsniff_result *r;
	size_t s;
	int i, fd;

	for (s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		if ((o = xmlsniff_options_new()) == NULL)
			return 3;
		(void)xmlsniff_options_set(o, sets[s][0], sets[s][1]);
		(void)xmlsniff_options_set(o, sets[s][2], sets[s][3]);
		for (i = 1; i < argc; i++)
			each(o, argv[i]);
		/* A descriptor that cannot be read: a folder. */
		if ((fd = open(".", O_RDONLY)) != -1) {
			if (xmlsniff_check_fd(o, ".", fd, &r, NULL, 0) ==
			    XMLSNIFF_OK)
				xmlsniff_result_free(r);
			close(fd);
		}
		xmlsniff_options_free(o);
	}
	return 0;
}

/*
 * What the library keeps from one call to the next gives no call another
 * answer: the checker an options object lends its one-call forms
 * (xmlsniff_check_buffer, xmlsniff_check_fd), and the validator a
 * checker keeps through xmlsniff_checker_reset.  Inputs of every kind of
 * decoder, with and without diagnostics, follow one another in two
 * orders; each record must be the one fresh objects give.  Only the
 * public header is included.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xmlsniff.h>

#include "unit.h"

/* The inputs: what each decoder reads, problems and none, a name longer
 * than the checker keeps in place, nothing at all. */
static const struct {
	const char	*name;
	const char	*doc;
	size_t		 len;
} ins[] = {
#define IN(name, s)	{ name, s, sizeof(s) - 1 }
	IN("clean.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>ok</a>\n"),
	IN("moj.xml", "<?xml version=\"1.0\"?>\n<a>caf\xC3\x83\xC2\xA9 "
	    "\xFF\xFE <?xml version=\"1.0\"?></a>\n"),
	IN("u16.xml", "\xFF\xFE<\0a\0>\0\xE9\0<\0/\0a\0>\0"),
	IN("latin.xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?>"
	    "<a>\xB1\xE6\x85</a>"),
	IN("sjis.xml", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>"
	    "<a>\x82\xA0\x82</a>"),
	IN("ebcdic.xml", "\x4C\x6F\xA7\x94\x93\x40\xA5\x85\x99\xA2\x89\x96"
	    "\x95\x7E\x7D\xF1\x4B\xF0\x7D\x40\x85\x95\x83\x96\x84\x89\x95\x87"
	    "\x7E\x7D\xC5\xC2\xC3\xC4\xC9\xC3\x60\xC3\xD7\xF0\xF3\xF7\x7D\x6F"
	    "\x6E\x4C\x81\x6E"),
	IN("bad-name.xml", "<?xml version=\"1.0\" encoding=\"no-such\"?><a/>"),
	IN("text.txt", "just some words, no markup \xC3\xA9\n"),
	IN("late.xml", "\xEF\xBB\xBF<a/>\n<?xml version=\"1.0\"?>\n"),
	IN("-", ""),
	IN("a-name-longer-than-the-one-hundred-and-twenty-eight-bytes-a-"
	    "checker-keeps-in-place-so-that-it-is-copied-out-of-the-checker-"
	    "and-freed.xml", "<a>\xC3\x83\xC2\xA9</a>"),
#undef IN
};

/* The record of input i on fresh options of set (a copy). */
static char *
fresh(const char *const *set, size_t i)
{
	xmlsniff_options *o = xmlsniff_options_new();
	xmlsniff_result *r;
	char *j = NULL;

	for (; set != NULL && set[0] != NULL; set += 2)
		CHECK(xmlsniff_options_set(o, set[0], set[1]) == XMLSNIFF_OK);
	if (CHECK(xmlsniff_check_buffer(o, ins[i].name, ins[i].doc,
	    ins[i].len, &r, NULL, 0) == XMLSNIFF_OK)) {
		j = strdup(xmlsniff_result_json(r));
		xmlsniff_result_free(r);
	}
	xmlsniff_options_free(o);
	return j;
}

/* Whether the record of input i through o by way (0: check_buffer, 1:
 * check_fd on a file, 2: the checker c reset) is want. */
static int
same(const xmlsniff_options *o, xmlsniff_checker *c, size_t i, int way,
    const char *want)
{
	xmlsniff_result *r = NULL;
	char path[] = "/tmp/xmlsniff-keep-XXXXXX";
	int fd, rc = XMLSNIFF_ERR_ARGUMENT, ok;

	if (way == 0)
		rc = xmlsniff_check_buffer(o, ins[i].name, ins[i].doc,
		    ins[i].len, &r, NULL, 0);
	else if (way == 1 && (fd = mkstemp(path)) >= 0) {
		if (write(fd, ins[i].doc, ins[i].len) == (ssize_t)ins[i].len &&
		    lseek(fd, 0, SEEK_SET) == 0)
			rc = xmlsniff_check_fd(o, ins[i].name, fd, &r, NULL, 0);
		close(fd);
		unlink(path);
	} else if (way == 2 &&
	    xmlsniff_checker_reset(c, o, ins[i].name) == XMLSNIFF_OK &&
	    xmlsniff_checker_feed(c, ins[i].doc, ins[i].len) == XMLSNIFF_OK)
		rc = xmlsniff_checker_finish(c, &r);
	ok = rc == XMLSNIFF_OK && want != NULL &&
	    strcmp(xmlsniff_result_json(r), want) == 0;
	if (!ok)
		printf("  (input %zu, way %d: %s)\n", i, way,
		    r != NULL ? xmlsniff_result_json(r) : "no result");
	xmlsniff_result_free(r);
	return ok;
}

static void
test_kept(const char *const *set)
{
	char *want[NELEM(ins)];
	xmlsniff_options *o = xmlsniff_options_new(), *copy;
	xmlsniff_checker *c;
	size_t i, k, n = NELEM(ins);
	int way;

	for (i = 0; set != NULL && set[i] != NULL; i += 2)
		CHECK(xmlsniff_options_set(o, set[i], set[i + 1]) ==
		    XMLSNIFF_OK);
	c = xmlsniff_checker_new(o, "first.xml");
	for (i = 0; i < n; i++)
		want[i] = fresh(set, i);
	/* Forwards, backwards, and each input after every other. */
	for (way = 0; way < 3; way++) {
		for (i = 0; i < n; i++)
			CHECK(same(o, c, i, way, want[i]));
		for (i = n; i-- > 0;)
			CHECK(same(o, c, i, way, want[i]));
		for (i = 0; i < n; i++)
			for (k = 0; k < n; k++)
				if (k != i && !(CHECK(same(o, c, k, way,
				    want[k])) && CHECK(same(o, c, i, way,
				    want[i]))))
					goto next;
next:		;
	}
	/* A call that fails (a directory, a closed descriptor, a marker
	 * that is bad) gives the checker back as usable as one that did
	 * not. */
	{
		static const char badmark[] = "<!-- xmlsniff: error=no-code "
		    "-->\n<a/>\n";
		xmlsniff_result *r = NULL;
		int dir = open("/", O_RDONLY);

		CHECK(dir >= 0 && xmlsniff_check_fd(o, "dir", dir, &r, NULL,
		    0) == XMLSNIFF_ERR_READ && r == NULL);
		if (dir >= 0)
			close(dir);
		CHECK(same(o, c, 1, 0, want[1]));
		CHECK(xmlsniff_check_fd(o, "closed", -1, &r, NULL, 0) ==
		    XMLSNIFF_ERR_READ && r == NULL);
		CHECK(same(o, c, 2, 0, want[2]));
		CHECK(xmlsniff_check_buffer(o, "m.xml", badmark,
		    sizeof(badmark) - 1, &r, NULL, 0) == XMLSNIFF_ERR_MARKER &&
		    r == NULL);
		for (i = 0; i < n; i++)
			CHECK(same(o, c, i, 0, want[i]));
	}
	/* A copy made while the options keep a checker has its own; either
	 * is freed without the other. */
	copy = xmlsniff_options_copy(o);
	CHECK(copy != NULL);
	xmlsniff_options_free(o);
	for (i = 0; copy != NULL && i < n; i++)
		CHECK(same(copy, c, i, 0, want[i]));
	xmlsniff_options_free(copy);
	xmlsniff_checker_free(c);
	for (i = 0; i < n; i++)
		free(want[i]);
}

/* Options set again after calls have used the checker they keep: the
 * next calls answer as the new settings do. */
static void
test_kept_set_again(const char *const *set)
{
	xmlsniff_options *o = xmlsniff_options_new();
	char *before[NELEM(ins)], *after[NELEM(ins)];
	size_t i, n = NELEM(ins);

	for (i = 0; i < n; i++) {
		before[i] = fresh(NULL, i);
		after[i] = fresh(set, i);
	}
	for (i = 0; i < n; i++)
		CHECK(same(o, NULL, i, 0, before[i]));
	for (i = 0; set[i] != NULL; i += 2)
		CHECK(xmlsniff_options_set(o, set[i], set[i + 1]) ==
		    XMLSNIFF_OK);
	for (i = 0; i < n; i++)
		CHECK(same(o, NULL, i, 0, after[i]));
	xmlsniff_options_free(o);
	for (i = 0; i < n; i++) {
		free(before[i]);
		free(after[i]);
	}
}

void
unit_api_keep(void)
{
	static const char *const all[] = { "all", "yes", "excerpt", "always",
	    "browser", "yes", "guess", "yes", NULL };
	static const char *const typed[] = { "content-type",
	    "text/xml; charset=windows-1252", NULL };

	test_kept(NULL);
	test_kept(all);
	test_kept(typed);
	test_kept_set_again(all);
	test_kept_set_again(typed);
}

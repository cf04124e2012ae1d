/*
 * The library's interface (<xmlsniff.h>, xmlsniff(3)) as a caller has it:
 * every function, every status, pieces fed in any split against the one
 * buffer, and the record against the command line's --json line.  Only
 * the public header is included: what is tested is what a caller sees.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xmlsniff.h>

#include "unit.h"

/* An options object with the name=value pairs of set (NULL-ended). */
static xmlsniff_options *
opts(const char *const *set)
{
	xmlsniff_options *o = xmlsniff_options_new();

	if (!CHECK(o != NULL))
		abort();
	for (; set != NULL && set[0] != NULL; set += 2)
		if (!CHECK(xmlsniff_options_set(o, set[0], set[1]) ==
		    XMLSNIFF_OK))
			printf("  (%s=%s: %s)\n", set[0], set[1],
			    xmlsniff_options_error(o));
	return o;
}

/* The record of p[0..n) in one buffer (a copy, NULL on failure). */
static char *
record(const xmlsniff_options *o, const char *name, const void *p, size_t n)
{
	xmlsniff_result *r;
	char err[256], *j = NULL;

	if (xmlsniff_check_buffer(o, name, p, n, &r, err, sizeof(err)) !=
	    XMLSNIFF_OK) {
		printf("  (check_buffer: %s)\n", err);
		return NULL;
	}
	j = strdup(xmlsniff_result_json(r));
	xmlsniff_result_free(r);
	return j;
}

/* The record of p[0..n) fed in pieces: the sizes cycle through cut[]. */
static char *
record_fed(const xmlsniff_options *o, const char *name, const unsigned char *p,
    size_t n, const size_t *cut, size_t ncut)
{
	xmlsniff_checker *c = xmlsniff_checker_new(o, name);
	xmlsniff_result *r = NULL;
	size_t off = 0, i = 0, k;
	char *j = NULL;

	if (!CHECK(c != NULL))
		return NULL;
	while (off < n) {
		k = cut[i++ % ncut];
		if (k > n - off)
			k = n - off;
		if (xmlsniff_checker_feed(c, p + off, k) != XMLSNIFF_OK) {
			CHECK(0);
			break;
		}
		off += k;
	}
	if (CHECK(xmlsniff_checker_finish(c, &r) == XMLSNIFF_OK))
		j = strdup(xmlsniff_result_json(r));
	xmlsniff_result_free(r);
	xmlsniff_checker_free(c);
	return j;
}

/* A document of n bytes or so with problems far apart: illegal bytes, a
 * C1 control, mojibake, a late declaration, every 100 KB. */
static unsigned char *
big_doc(size_t n, size_t *len)
{
	static const char piece[] = "<p>caf\xC3\xA9 \xE9\xE8 \xC2\x85 "
	    "caf\xC3\x83\xC2\xA9 <?xml version=\"1.0\"?></p>\n";
	unsigned char *b = malloc(n + 256);
	size_t k = 0, next = 0;

	if (b == NULL)
		abort();
	k += (size_t)sprintf((char *)b, "<?xml version=\"1.0\"?>\n<a>\n");
	while (k < n) {
		if (k >= next) {
			memcpy(b + k, piece, sizeof(piece) - 1);
			k += sizeof(piece) - 1;
			next += 100 * 1024;
		} else {
			b[k] = (unsigned char)(k % 64 == 63 ? '\n' : 'x');
			k++;
		}
	}
	k += (size_t)sprintf((char *)b + k, "</a>\n");
	*len = k;
	return b;
}

/* Split feeds give what one buffer gives, whatever the sizes. */
static void
test_splits(void)
{
	static const char *const all[] = { "all", "yes", "excerpt", "always",
	    "browser", "yes", NULL };
	static const char *const http[] = { "http", "yes", NULL };
	static const size_t cuts[][4] = {
		{ 1, 1, 1, 1 }, { 7, 13, 1, 4096 }, { 65536, 3, 262144, 1 },
		{ 327680, 327680, 327680, 327680 }, { 327681, 5, 9, 2 },
	};
	static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Type: text/xml; "
	    "charset=iso-8859-1\r\n\r\n<a>\xE9\x85</a>";
	xmlsniff_options *o[3];
	unsigned char *doc;
	size_t n, i, k;
	int ok;

	o[0] = opts(NULL);
	o[1] = opts(all);
	o[2] = opts(http);
	doc = big_doc(900 * 1024, &n);
	for (k = 0; k < 2; k++) {
		char *whole = record(o[k], "big.xml", doc, n);

		for (i = 0; i < NELEM(cuts); i++) {
			char *part = record_fed(o[k], "big.xml", doc, n,
			    cuts[i], 4);

			ok = CHECK(whole != NULL && part != NULL &&
			    strcmp(whole, part) == 0);
			if (!ok)
				printf("  (split %zu, options %zu differ)\n", i, k);
			free(part);
		}
		free(whole);
	}
	{
		char *whole = record(o[2], "r", resp, sizeof(resp) - 1);

		for (i = 0; i < NELEM(cuts); i++) {
			char *part = record_fed(o[2], "r", (const unsigned char *)
			    resp, sizeof(resp) - 1, cuts[i], 4);

			CHECK(whole != NULL && part != NULL &&
			    strcmp(whole, part) == 0);
			free(part);
		}
		CHECK(whole != NULL && strstr(whole, "\"http\":{\"status\":200,"
		    "\"content_type\":\"text/xml; charset=iso-8859-1\"}") !=
		    NULL);
		free(whole);
	}
	free(doc);
	for (k = 0; k < 3; k++)
		xmlsniff_options_free(o[k]);
}

/*
 * A buffer handed over whole finds the line and column of the first
 * mojibake sequence by reading it again up to there, not by counting as
 * the bytes go by: the same as fed a byte at a time, which counts.
 * After a BOM, CR LF and NEL line ends (XML 1.1), stray bytes, a C1
 * control, and in UTF-16.
 */
static void
test_buffer_positions(void)
{
	static const struct {
		const char *p;
		size_t n;
		const char *at;		/* "line":L,"column":C of the hit */
	} doc[] = {
#define D(s, at)	{ s, sizeof(s) - 1, at }
		D("<a>caf\xC3\x83\xC2\xA9 caf\xC3\x83\xC2\xA9</a>",
		    "\"line\":1,\"column\":7"),
		D("\xEF\xBB\xBF<a>\r\n\r\nx\xC3\x83\xC2\xA9 \xC2\x85</a>",
		    "\"line\":3,\"column\":2"),
		D("<?xml version=\"1.1\"?>\n<a>\xC2\x85x\r\xC2\x85\xC3\x83"
		    "\xC2\xA9 \xC3\x83\xC2\xA9</a>", "\"line\":4,\"column\":1"),
		D("<a>\xA9\xA9\n\xE9t\xC3\xA9\n  \xC2\x85 \xC2\x96</a>",
		    "\"line\":3,\"column\":3"),
		D("<a>\xE2\x82\n\xC3\x83\xC2\xA9\xC3\x83\xC2</a>",
		    "\"line\":2,\"column\":1"),
		D("\xFF\xFE<\0a\0>\0\n\0x\0\xC3\0\xA9\0\xC3\0\xA9\0<\0/\0a\0>\0",
		    "\"line\":2,\"column\":2"),
#undef D
	};
	static const size_t one[] = { 1 };
	xmlsniff_options *o = opts(NULL);
	size_t i;

	for (i = 0; i < NELEM(doc); i++) {
		char *whole = record(o, "m.xml", doc[i].p, doc[i].n);
		char *fed = record_fed(o, "m.xml", (const unsigned char *)
		    doc[i].p, doc[i].n, one, 1);

		if (!CHECK(whole != NULL && fed != NULL &&
		    strcmp(whole, fed) == 0 && strstr(whole,
		    "\"code\":\"mojibake\"") != NULL &&
		    strstr(whole, doc[i].at) != NULL))
			printf("  (document %zu: %s\n   fed: %s)\n", i,
			    whole != NULL ? whole : "(none)",
			    fed != NULL ? fed : "(none)");
		free(whole);
		free(fed);
	}
	xmlsniff_options_free(o);
}

/* The command line built with the same C library and iconv as this
 * driver: UNIT_XMLSNIFF (tests/cross names its own build), or
 * ./xmlsniff. */
static const char *
cli_path(void)
{
	const char *p = getenv("UNIT_XMLSNIFF");

	return p != NULL && *p != '\0' ? p : "./xmlsniff";
}

/* The command line's --json line of file, with extra options. */
static char *
cli_json(const char *args, const char *file)
{
	char cmd[1024], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' --json --no-config %s '%s' "
	    "2>/dev/null", cli_path(), args, file);
	if ((p = popen(cmd, "r")) == NULL)
		return NULL;
	if ((n = getline(&line, &cap, p)) > 0 && line[n - 1] == '\n')
		line[n - 1] = '\0';
	pclose(p);
	return line;
}

/* The record of the file as the library reads it, with "file" first as
 * the command line writes it. */
static char *
lib_json(const xmlsniff_options *o, const char *file)
{
	xmlsniff_result *r;
	char err[256], esc[1024], *line = NULL;
	int fd;

	if ((fd = open(file, O_RDONLY)) < 0)
		return NULL;
	if (xmlsniff_check_fd(o, file, fd, &r, err, sizeof(err)) ==
	    XMLSNIFF_OK) {
		xmlsniff_escape(esc, sizeof(esc), file, XMLSNIFF_ESCAPE_JSON);
		if ((line = malloc(strlen(esc) + strlen(xmlsniff_result_json(r))
		    + 16)) != NULL)
			sprintf(line, "{\"file\":%s,%s", esc,
			    xmlsniff_result_json(r) + 1);
		xmlsniff_result_free(r);
	} else
		printf("  (%s: %s)\n", file, err);
	close(fd);
	return line;
}

/* The record is the command line's --json line, less "file", on the
 * examples, with and without options that add members. */
static void
test_cli_json(void)
{
	static const char *const files[] = {
		"examples/ebcdic.xml", "examples/latin1.xml",
		"examples/mislabelled.xml", "examples/shift_jis.xml",
		"examples/utf16be-decl.xml", "examples/utf16le-bom.xml",
		"examples/utf8-bom.xml", "examples/utf8.xml",
	};
	static const char *const set[] = { "browser", "yes", "all", "yes",
	    "error", "utf8-bom", NULL };
	static const char *const http[] = { "http", "yes", NULL };
	xmlsniff_options *plain = opts(NULL), *more = opts(set), *ho = opts(http);
	size_t i;

	if (access(cli_path(), X_OK) != 0) {
		printf("unit: %s not built: the records are not "
		    "compared with it\n", cli_path());
		goto out;
	}
	for (i = 0; i < NELEM(files); i++) {
		char *a = cli_json("", files[i]), *b = lib_json(plain, files[i]);
		char *c = cli_json("--browser --all --error=utf8-bom", files[i]);
		char *d = lib_json(more, files[i]);

		if (!CHECK(a != NULL && b != NULL && strcmp(a, b) == 0))
			printf("  (%s:\n   %s\n   %s)\n", files[i], a, b);
		if (!CHECK(c != NULL && d != NULL && strcmp(c, d) == 0))
			printf("  (%s:\n   %s\n   %s)\n", files[i], c, d);
		free(a);
		free(b);
		free(c);
		free(d);
	}
	{
		char *a = cli_json("--http", "examples/http-response.txt");
		char *b = lib_json(ho, "examples/http-response.txt");

		if (!CHECK(a != NULL && b != NULL && strcmp(a, b) == 0))
			printf("  (http:\n   %s\n   %s)\n", a, b);
		free(a);
		free(b);
	}
out:
	xmlsniff_options_free(plain);
	xmlsniff_options_free(more);
	xmlsniff_options_free(ho);
}

/* Each bad option or value: XMLSNIFF_ERR_ARGUMENT, the command line's
 * message, and nothing changed. */
static void
test_options(void)
{
	static const struct {
		const char	*name, *value, *msg;
	} bad[] = {
		{ "no-such", "yes", "unknown option \"no-such\"" },
		{ "brwser", "yes", "unknown option \"brwser\"; did you mean "
		    "browser?" },
		{ "browser", "maybe", "--browser: \"maybe\" is not yes or no" },
		{ "content-type", "text", "--content-type: " },
		{ "encoding", "no-such-code", "--encoding: \"no-such-code\" is "
		    "not an encoding that the IANA registry or this system's "
		    "iconv knows" },
		{ "default-encoding", "UTF-16", "--default-encoding: \"UTF-16\" "
		    "does not read \"<?xml\" as UTF-8 does" },
		{ "error", "no-code", "--error: \"no-code\" is not a diagnostic "
		    "code" },
		{ "max-errors", "0", "--max-errors: \"0\" is not a number from "
		    "1 to 100000" },
		{ "fallback", "nrc", "--fallback: \"nrc\" is not error or ncr; "
		    "did you mean ncr?" },
		{ "transcode-to", "NO-SUCH-ENC", "--transcode-to: " },
		{ "excerpt", "auto", "--excerpt: \"auto\" is not always or "
		    "never" },
	};
	xmlsniff_options *o = opts(NULL), *c;
	xmlsniff_result *r;
	char *before, *after;
	size_t i;

	before = record(o, "a.xml", "<a>\xE9</a>", 8);
	for (i = 0; i < NELEM(bad); i++) {
		CHECK(xmlsniff_options_set(o, bad[i].name, bad[i].value) ==
		    XMLSNIFF_ERR_ARGUMENT);
		if (!CHECK(strncmp(xmlsniff_options_error(o), bad[i].msg,
		    strlen(bad[i].msg)) == 0))
			printf("  (%s: %s)\n", bad[i].name,
			    xmlsniff_options_error(o));
	}
	after = record(o, "a.xml", "<a>\xE9</a>", 8);
	CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
	/* --encoding and a charset in --content-type exclude each other,
	 * and --http --content-type. */
	CHECK(xmlsniff_options_set(o, "content-type", "text/xml; charset=x") ==
	    XMLSNIFF_OK);
	CHECK(xmlsniff_options_set(o, "encoding", "UTF-8") ==
	    XMLSNIFF_ERR_ARGUMENT);
	CHECK(xmlsniff_options_set(o, "http", "yes") == XMLSNIFF_ERR_ARGUMENT);
	/* A copy is the same options, apart. */
	c = xmlsniff_options_copy(o);
	CHECK(c != NULL);
	CHECK(xmlsniff_check_buffer(c, NULL, "<a/>", 4, &r, NULL, 0) ==
	    XMLSNIFF_OK && strcmp(xmlsniff_result_charset(r), "x") == 0);
	xmlsniff_result_free(r);
	xmlsniff_options_free(o);
	CHECK(xmlsniff_check_buffer(c, NULL, "<a/>", 4, &r, NULL, 0) ==
	    XMLSNIFF_OK && strcmp(xmlsniff_result_charset(r), "x") == 0);
	xmlsniff_result_free(r);
	CHECK(strcmp(xmlsniff_options_severity(c, "utf8-bom"), "warning") ==
	    0);
	CHECK(xmlsniff_options_set(c, "error", "utf8-bom") == XMLSNIFF_OK);
	CHECK(strcmp(xmlsniff_options_severity(c, "utf8-bom"), "error") == 0);
	CHECK(xmlsniff_options_severity(c, "no-code") == NULL);
	xmlsniff_options_free(c);
	xmlsniff_options_free(NULL);
	free(before);
	free(after);
}

/* The order of a checker's calls; a descriptor that fails to read. */
static void
test_states(void)
{
	xmlsniff_options *o = opts(NULL);
	xmlsniff_checker *c = xmlsniff_checker_new(o, "a.xml");
	xmlsniff_result *r = NULL;
	int fd;

	CHECK(c != NULL);
	CHECK(xmlsniff_checker_feed(c, "<a/>", 4) == XMLSNIFF_OK);
	CHECK(xmlsniff_checker_finish(c, &r) == XMLSNIFF_OK && r != NULL);
	xmlsniff_result_free(r);
	CHECK(xmlsniff_checker_feed(c, "x", 1) == XMLSNIFF_ERR_STATE);
	CHECK(strstr(xmlsniff_checker_error(c), "finished") != NULL);
	CHECK(xmlsniff_checker_finish(c, &r) == XMLSNIFF_ERR_STATE &&
	    r == NULL);
	/* Reset: another entity, the same checker. */
	CHECK(xmlsniff_checker_reset(c, o, "b.xml") == XMLSNIFF_OK);
	CHECK(xmlsniff_checker_feed(c, "<b/>", 4) == XMLSNIFF_OK);
	CHECK(xmlsniff_checker_read(c, 0, XMLSNIFF_SIZE_ASK) == XMLSNIFF_ERR_STATE);
	CHECK(xmlsniff_checker_finish(c, &r) == XMLSNIFF_OK);
	xmlsniff_result_free(r);
	/* A directory: EISDIR. */
	CHECK(xmlsniff_checker_reset(c, o, "dir") == XMLSNIFF_OK);
	if ((fd = open(".", O_RDONLY)) >= 0) {
		CHECK(xmlsniff_checker_read(c, fd, XMLSNIFF_SIZE_ASK) == XMLSNIFF_ERR_READ);
		CHECK(strcmp(xmlsniff_checker_error(c), strerror(EISDIR)) == 0);
		CHECK(xmlsniff_checker_feed(c, "x", 1) == XMLSNIFF_ERR_STATE);
		CHECK(xmlsniff_checker_finish(c, &r) == XMLSNIFF_ERR_READ &&
		    r == NULL);
		close(fd);
	}
	/* A closed descriptor: EBADF, through the one call. */
	if ((fd = open(".", O_RDONLY)) >= 0) {
		char err[64];

		close(fd);
		CHECK(xmlsniff_check_fd(o, "closed", fd, &r, err, sizeof(err)) ==
		    XMLSNIFF_ERR_READ && r == NULL &&
		    strcmp(err, strerror(EBADF)) == 0);
	}
	/* The input's own marker, malformed. */
	CHECK(xmlsniff_checker_reset(c, o, "m.xml") == XMLSNIFF_OK);
	CHECK(xmlsniff_checker_feed(c, "<?xml version=\"1.0\"?>"
	    "<!-- xmlsniff: ignore=no-code --><a/>", 58) == XMLSNIFF_OK);
	CHECK(xmlsniff_checker_finish(c, &r) == XMLSNIFF_ERR_MARKER);
	CHECK(strstr(xmlsniff_checker_error(c), "the marker on line 1") !=
	    NULL);
	xmlsniff_checker_free(c);
	xmlsniff_checker_free(NULL);
	xmlsniff_options_free(o);
}

/* The name of an input, of every length, tells the role by its suffix
 * (.ent, .mod, .dtd, in any case), and a checker reset under one name
 * after another keeps each: short names are kept in the checker, long
 * ones apart. */
static void
test_input_names(void)
{
	static const struct {
		size_t		 len;	/* of the name, suffix included */
		const char	*suffix;
		const char	*mime;
	} names[] = {
		{ 5, ".ent", "application/xml-external-parsed-entity" },
		{ 300, ".dtd", "application/xml-dtd" },
		{ 127, ".ent", "application/xml-external-parsed-entity" },
		{ 128, ".dtd", "application/xml-dtd" },
		{ 5, ".xml", "application/xml;" },
		{ 129, ".xml", "application/xml;" },
		{ 2000, ".ent", "application/xml-external-parsed-entity" },
	};
	xmlsniff_options *o = opts(NULL);
	xmlsniff_checker *c = xmlsniff_checker_new(o, "first.xml");
	xmlsniff_result *r;
	char name[2001];
	size_t i, k;

	CHECK(c != NULL);
	for (k = 0; k < 2; k++)
		for (i = 0; i < NELEM(names); i++) {
			size_t n = names[i].len;

			memset(name, 'n', n - 4);
			memcpy(name + n - 4, names[i].suffix, 5);
			/* One checker reset for each name, and the one call. */
			r = NULL;
			if (k == 0) {
				CHECK(xmlsniff_checker_reset(c, o, name) ==
				    XMLSNIFF_OK);
				CHECK(xmlsniff_checker_feed(c, "<a/>\n", 5) ==
				    XMLSNIFF_OK);
				CHECK(xmlsniff_checker_finish(c, &r) ==
				    XMLSNIFF_OK);
			} else
				CHECK(xmlsniff_check_buffer(o, name, "<a/>\n",
				    5, &r, NULL, 0) == XMLSNIFF_OK);
			CHECK(r != NULL && strncmp(xmlsniff_result_mime(r),
			    names[i].mime, strlen(names[i].mime)) == 0);
			xmlsniff_result_free(r);
		}
	/* The suffix in any case, after the last dot, not the name alone. */
	{
		static const struct {
			const char	*name, *mime;
		} suf[] = {
			{ "X.ENT", "application/xml-external-parsed-entity" },
			{ "a.Dtd", "application/xml-dtd" },
			{ "a.b.mod", "application/xml-dtd" },
			{ "dir/.ent", "application/xml-external-parsed-entity" },
			{ ".ent", "application/xml;" },
			{ "a.entx", "application/xml;" },
			{ "a.ent.xml", "application/xml;" },
			{ "ent", "application/xml;" },
			{ "a.", "application/xml;" },
		};

		for (i = 0; i < NELEM(suf); i++) {
			r = NULL;
			CHECK(xmlsniff_check_buffer(o, suf[i].name, "<a/>\n", 5,
			    &r, NULL, 0) == XMLSNIFF_OK && r != NULL &&
			    strncmp(xmlsniff_result_mime(r), suf[i].mime,
			    strlen(suf[i].mime)) == 0);
			xmlsniff_result_free(r);
		}
	}
	xmlsniff_checker_free(c);
	xmlsniff_options_free(o);
}

/*
 * An entity fed whole in one piece (one feed, or a few that fit one
 * piece) and finished is read back for the position of a mojibake hit,
 * as a buffer handed over is: the same record as the buffer's and as
 * pieces cut small, with hits on line 1, after LF and after CR LF, at
 * the end, and listed (--all).
 */
static void
test_whole_piece(void)
{
	static const char *const all[] = { "all", "yes", NULL };
	static const char *const docs[] = {
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>caf\xC3\x83\xC2"
		    "\xA9</a>",
		"<?xml version=\"1.0\"?>\r\n<a>\r\nline two\r\n\xC3\xA9t\xC3\xA9 "
		    "\xC3\x83\xC2\xA9t\xC3\x83\xC2\xA9\r\n</a>\r\n",
		"<a>\n\n\n  x \xE2\x80\x94 \xC3\xA2\xE2\x82\xAC\xE2\x80\x9D\n"
		    "\xC3\x83\xC2\xA8\n</a>\n\xC3\x83\xC2\xA9",
		"<a>\xC3\x83\xC2\xA9</a>\n<!-- \xC3\x83\xC2\xBC -->",
	};
	static const size_t one[] = { 1000000 }, two[] = { 5, 1000000 };
	static const size_t small[] = { 1, 2, 3 };
	xmlsniff_options *o[2];
	size_t d, k, n;

	o[0] = opts(NULL);
	o[1] = opts(all);
	for (k = 0; k < 2; k++)
		for (d = 0; d < NELEM(docs); d++) {
			const unsigned char *p = (const unsigned char *)docs[d];
			char *whole, *fed1, *fed2, *cut;

			n = strlen(docs[d]);
			whole = record(o[k], "w.xml", p, n);
			fed1 = record_fed(o[k], "w.xml", p, n, one, 1);
			fed2 = record_fed(o[k], "w.xml", p, n, two, 2);
			cut = record_fed(o[k], "w.xml", p, n, small, 3);
			CHECK(whole != NULL && strstr(whole, "\"mojibake\"") !=
			    NULL);
			CHECK(whole != NULL && fed1 != NULL &&
			    strcmp(whole, fed1) == 0);
			CHECK(whole != NULL && fed2 != NULL &&
			    strcmp(whole, fed2) == 0);
			CHECK(whole != NULL && cut != NULL &&
			    strcmp(whole, cut) == 0);
			free(whole);
			free(fed1);
			free(fed2);
			free(cut);
		}
	xmlsniff_options_free(o[0]);
	xmlsniff_options_free(o[1]);
}

/* The severity of each code in a result: the library's own, the
 * options' --error, the input's own marker; the same in its lines. */
static void
test_result_severity(void)
{
	static const char *const raise[] = { "error", "utf8-bom", NULL };
	static const char plain[] = "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n"
	    "<a>\xFF</a>\n";
	static const char marked[] = "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n"
	    "<!-- xmlsniff: error=utf8-bom -->\n<a/>\n";
	static const struct {
		int		 opt;	/* with --error=utf8-bom */
		const char	*doc;
		size_t		 len;
		const char	*bom;	/* utf8-bom's severity */
	} runs[] = {
		{ 0, plain, sizeof(plain) - 1, "warning" },
		{ 1, plain, sizeof(plain) - 1, "error" },
		{ 0, marked, sizeof(marked) - 1, "error" },
		{ 0, plain, sizeof(plain) - 1, "warning" },
	};
	xmlsniff_options *def = opts(NULL), *up = opts(raise);
	xmlsniff_result *r;
	size_t i, k;

	for (i = 0; i < NELEM(runs); i++) {
		r = NULL;
		if (!CHECK(xmlsniff_check_buffer(runs[i].opt ? up : def, "s.xml",
		    runs[i].doc, runs[i].len, &r, NULL, 0) == XMLSNIFF_OK))
			continue;
		CHECK(strcmp(xmlsniff_result_severity(r, "utf8-bom"),
		    runs[i].bom) == 0);
		CHECK(strcmp(xmlsniff_result_severity(r, "illegal-sequence"),
		    "error") == 0);
		CHECK(strcmp(xmlsniff_result_severity(r, "mojibake"),
		    "warning") == 0);
		CHECK(xmlsniff_result_severity(r, "no-code") == NULL);
		for (k = 0; k < xmlsniff_result_ndiagnostics(r); k++) {
			const xmlsniff_diagnostic *d =
			    xmlsniff_result_diagnostic(r, k);

			CHECK(strcmp(xmlsniff_diagnostic_severity(d),
			    xmlsniff_result_severity(r,
			    xmlsniff_diagnostic_code(d))) == 0);
		}
		xmlsniff_result_free(r);
	}
	xmlsniff_options_free(def);
	xmlsniff_options_free(up);
}

/* The record's members through the accessors. */
static void
test_accessors(void)
{
	static const char *const set[] = { "all", "yes", "excerpt", "always",
	    "browser", "yes", "content-type", "text/xml; charset=iso-8859-1",
	    NULL };
	static const char doc[] = "<?xml version=\"1.0\" encoding=\"UTF-8\" "
	    "standalone=\"yes\"?>\n<a>\x85 \x85</a>";
	xmlsniff_options *o = opts(set);
	xmlsniff_result *r;
	const xmlsniff_diagnostic *d, *line;
	size_t i;

	if (!CHECK(xmlsniff_check_buffer(o, "a.xml", doc, sizeof(doc) - 1, &r,
	    NULL, 0) == XMLSNIFF_OK))
		return;
	CHECK(strcmp(xmlsniff_result_encoding(r), "ISO-8859-1") == 0);
	CHECK(strcmp(xmlsniff_result_source(r), "charset") == 0);
	CHECK(xmlsniff_result_bom(r) == NULL);
	CHECK(strcmp(xmlsniff_result_charset(r), "iso-8859-1") == 0);
	CHECK(strcmp(xmlsniff_result_mime(r), "text/xml; charset=iso-8859-1")
	    == 0);
	CHECK(strcmp(xmlsniff_result_mime_encoding(r), "iso-8859-1") == 0);
	CHECK(strcmp(xmlsniff_result_browser(r), "windows-1252") == 0);
	CHECK(strcmp(xmlsniff_result_decl_kind(r), "xml") == 0);
	CHECK(strcmp(xmlsniff_result_decl_version(r), "1.0") == 0);
	CHECK(strcmp(xmlsniff_result_decl_encoding(r), "UTF-8") == 0);
	CHECK(strcmp(xmlsniff_result_decl_standalone(r), "yes") == 0);
	CHECK(xmlsniff_result_http_status(r) == -1);
	CHECK(xmlsniff_result_http_content_type(r) == NULL);
	CHECK(xmlsniff_result_http_content_encoding(r) == NULL);
	CHECK(xmlsniff_result_errors(r) == 0 && xmlsniff_result_warnings(r) >= 2);
	CHECK(xmlsniff_result_unlisted(r) == 0);
	CHECK(xmlsniff_result_unlisted_note(r) == NULL);
	CHECK(xmlsniff_result_is_xml(r) && xmlsniff_result_examined(r));
	CHECK(xmlsniff_result_content_offset(r) == 55);
	CHECK(strcmp(xmlsniff_result_severity(r, "suspicious-label"),
	    "warning") == 0);
	CHECK(xmlsniff_result_guess_note(r) == NULL ||
	    xmlsniff_result_guess_encoding(r) != NULL);
	CHECK(xmlsniff_result_guess_sample(r) == NULL ||
	    xmlsniff_result_guess_encoding(r) != NULL);
	CHECK(xmlsniff_result_fix_action(r) == NULL &&
	    xmlsniff_result_fix_nchanges(r) == 0 &&
	    xmlsniff_result_fix_change(r, 0) == NULL &&
	    xmlsniff_result_fix_reason(r) == NULL &&
	    !xmlsniff_result_fix_keeps_content(r));
	CHECK(xmlsniff_result_ndiagnostics(r) >= 2);
	CHECK(xmlsniff_result_diagnostic(r, xmlsniff_result_ndiagnostics(r))
	    == NULL);
	CHECK(xmlsniff_result_line(r, xmlsniff_result_nlines(r)) == NULL);
	/* suspicious-label: both C1 controls, the first with its count. */
	for (i = 0; (d = xmlsniff_result_diagnostic(r, i)) != NULL; i++)
		if (strcmp(xmlsniff_diagnostic_code(d), "suspicious-label") == 0)
			break;
	if (CHECK(d != NULL)) {
		CHECK(strcmp(xmlsniff_diagnostic_severity(d), "warning") == 0);
		CHECK(xmlsniff_diagnostic_offset(d) == 59);
		CHECK(xmlsniff_diagnostic_line(d) == 2 &&
		    xmlsniff_diagnostic_column(d) == 4);
		CHECK(xmlsniff_diagnostic_count(d) == 2);
		CHECK(strstr(xmlsniff_diagnostic_message(d), "C1 control") !=
		    NULL);
		CHECK(xmlsniff_diagnostic_excerpt(d) != NULL &&
		    strstr(xmlsniff_diagnostic_excerpt(d), " 2 | <a>") != NULL);
		CHECK(xmlsniff_diagnostic_noccurrences(d) >= 1);
		line = xmlsniff_diagnostic_occurrence(d, 0);
		CHECK(line != NULL && xmlsniff_diagnostic_offset(line) == 59);
		CHECK(xmlsniff_diagnostic_occurrence(d,
		    xmlsniff_diagnostic_noccurrences(d)) == NULL);
	}
	CHECK(strncmp(xmlsniff_result_summary(r), "ISO-8859-1 (charset), "
	    "declared \"UTF-8\", charset \"iso-8859-1\"", 60) == 0);
	CHECK(strcmp(xmlsniff_result_json(r), xmlsniff_result_json(r)) == 0);
	/* What the caller did with a rewrite, in the record. */
	CHECK(xmlsniff_result_set_fix(r, "rewritten", NULL) ==
	    XMLSNIFF_ERR_ARGUMENT);
	CHECK(xmlsniff_result_set_fix(r, "failed", "an I/O error") ==
	    XMLSNIFF_OK);
	CHECK(strstr(xmlsniff_result_json(r), ",\"fix\":{\"action\":\"failed\","
	    "\"reason\":\"an I/O error\",\"changes\":[]}}") != NULL);
	CHECK(strstr(xmlsniff_result_summary(r), "; failed: an I/O error") !=
	    NULL);
	xmlsniff_result_free(r);
	xmlsniff_result_free(NULL);
	xmlsniff_options_free(o);
}

struct out {
	unsigned char	 b[4096];
	size_t		 n;
	int		 begun, fail;
};

static int
writer(void *ctx, const void *p, size_t n)
{
	struct out *o = ctx;

	if (p == NULL && n == 0) {
		o->begun++;
		return 0;
	}
	if (o->fail || o->n + n > sizeof(o->b))
		return 1;
	memcpy(o->b + o->n, p, n);
	o->n += n;
	return 0;
}

/* Transcodes: the bytes, the refusals, the writer's failure, --fix. */
static void
test_transcoder(void)
{
	static const char *const fix[] = { "fix", "yes", "error", "utf8-bom",
	    NULL };
	xmlsniff_options *o = opts(NULL), *fo = opts(fix);
	xmlsniff_transcoder *t;
	xmlsniff_result *r, *plan;
	struct out w;

	memset(&w, 0, sizeof(w));
	t = xmlsniff_transcoder_new(o, "a.xml", "UTF-16LE", writer, &w);
	CHECK(t != NULL);
	CHECK(xmlsniff_transcoder_feed(t, "<a>\xC3", 4) == XMLSNIFF_OK);
	CHECK(xmlsniff_transcoder_feed(t, "\xA9</a>", 5) == XMLSNIFF_OK);
	CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_OK && r != NULL);
	CHECK(w.begun == 1);
	CHECK(w.n == 98 && memcmp(w.b, "<\0?\0x\0m\0l\0", 10) == 0);
	CHECK(memcmp(w.b + w.n - 10, "\xE9\0<\0/\0a\0>\0", 10) == 0);
	CHECK(xmlsniff_transcoder_feed(t, "x", 1) == XMLSNIFF_ERR_STATE);
	xmlsniff_result_free(r);
	xmlsniff_transcoder_free(t);
	/* A target this system cannot write. */
	t = xmlsniff_transcoder_new(o, "a.xml", "NO-SUCH-ENC", writer, &w);
	CHECK(xmlsniff_transcoder_feed(t, "<a/>", 4) ==
	    XMLSNIFF_ERR_ENCODING);
	CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_ERR_ENCODING &&
	    r == NULL);
	CHECK(strlen(xmlsniff_transcoder_error(t)) > 0);
	xmlsniff_transcoder_free(t);
	/* A head the transcode refuses (an encoding no one knows), in a
	 * feed of more than a piece: the bytes after it are not read on,
	 * for no validator was made for them. */
	{
		static const char head[] = "<?xml version=\"1.0\" "
		    "encoding=\"x-no-such\"?><a>";
		size_t n = 400 * 1024;
		char *big = malloc(n);

		if (CHECK(big != NULL)) {
			memset(big, 'x', n);
			memcpy(big, head, sizeof(head) - 1);
			t = xmlsniff_transcoder_new(o, "a.xml", "UTF-8",
			    writer, &w);
			CHECK(xmlsniff_transcoder_feed(t, big, n) ==
			    XMLSNIFF_ERR_REFUSED);
			CHECK(xmlsniff_transcoder_finish(t, &r) ==
			    XMLSNIFF_ERR_REFUSED);
			xmlsniff_result_free(r);
			xmlsniff_transcoder_free(t);
		}
		free(big);
	}
	/* No faithful transcode: a character US-ASCII lacks. */
	memset(&w, 0, sizeof(w));
	t = xmlsniff_transcoder_new(o, "a.xml", "US-ASCII", writer, &w);
	(void)xmlsniff_transcoder_feed(t, "<a>\xC3\xA9</a>", 9);
	CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_ERR_REFUSED);
	CHECK(xmlsniff_transcoder_reported(t));
	CHECK(r != NULL && xmlsniff_result_errors(r) == 1);
	xmlsniff_result_free(r);
	xmlsniff_transcoder_free(t);
	/* Illegal bytes: refused before anything, said by no diagnostic
	 * under --strict. */
	memset(&w, 0, sizeof(w));
	CHECK(xmlsniff_options_set(o, "strict", "yes") == XMLSNIFF_OK);
	t = xmlsniff_transcoder_new(o, "a.xml", "UTF-8", writer, &w);
	CHECK(xmlsniff_transcoder_feed(t, "<?xml encoding=\"x\"?><a/>", 24) ==
	    XMLSNIFF_OK);
	CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_ERR_REFUSED);
	CHECK(strcmp(xmlsniff_transcoder_error(t), "the input has errors "
	    "(--strict)") == 0 && !xmlsniff_transcoder_reported(t));
	CHECK(w.begun == 0 && w.n == 0);
	xmlsniff_result_free(r);
	xmlsniff_transcoder_free(t);
	/* The writer fails. */
	memset(&w, 0, sizeof(w));
	w.fail = 1;
	t = xmlsniff_transcoder_new(fo, "a.xml", "UTF-8", writer, &w);
	(void)xmlsniff_transcoder_feed(t, "<a/>", 4);
	CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_ERR_WRITE);
	xmlsniff_result_free(r);
	xmlsniff_transcoder_free(t);
	/* --fix: a UTF-8 BOM made an error goes. */
	if (CHECK(xmlsniff_check_buffer(fo, "b.xml", "\xEF\xBB\xBF<b/>", 7,
	    &plan, NULL, 0) == XMLSNIFF_OK)) {
		CHECK(strcmp(xmlsniff_result_fix_action(plan), "would-write") ==
		    0 && xmlsniff_result_fix_nchanges(plan) == 1 &&
		    strcmp(xmlsniff_result_fix_change(plan, 0), "stripped the "
		    "UTF-8 BOM") == 0 && xmlsniff_result_fix_keeps_content(plan));
		memset(&w, 0, sizeof(w));
		t = xmlsniff_transcoder_fix(fo, plan, "b.xml", writer, &w);
		CHECK(xmlsniff_transcoder_feed(t, "\xEF\xBB\xBF<b/>", 7) ==
		    XMLSNIFF_OK);
		CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_OK);
		CHECK(w.n == 4 && memcmp(w.b, "<b/>", 4) == 0);
		CHECK(xmlsniff_result_content_offset(r) == 3);
		CHECK(xmlsniff_result_set_fix(plan, "written", NULL) ==
		    XMLSNIFF_OK && xmlsniff_result_fix_nchanges(plan) == 1);
		xmlsniff_result_free(r);
		xmlsniff_transcoder_free(t);
		xmlsniff_result_free(plan);
	}
	/* A fix of a result that planned none. */
	if (CHECK(xmlsniff_check_buffer(o, "c.xml", "<c/>", 4, &plan, NULL,
	    0) == XMLSNIFF_OK)) {
		t = xmlsniff_transcoder_fix(o, plan, "c.xml", writer, &w);
		CHECK(xmlsniff_transcoder_feed(t, "<c/>", 4) ==
		    XMLSNIFF_ERR_ARGUMENT);
		xmlsniff_transcoder_free(t);
		xmlsniff_result_free(plan);
	}
	xmlsniff_transcoder_free(NULL);
	xmlsniff_options_free(o);
	xmlsniff_options_free(fo);
}

/* A transcoder reading a descriptor. */
static void
test_transcoder_fd(void)
{
	xmlsniff_options *o = opts(NULL);
	xmlsniff_transcoder *t;
	xmlsniff_result *r;
	struct out w;
	char path[] = "/tmp/xmlsniff-api-XXXXXX";
	int fd;

	if ((fd = mkstemp(path)) < 0)
		return;
	unlink(path);
	CHECK(write(fd, "<a>\xE9</a>", 8) == 8 && lseek(fd, 0, SEEK_SET) == 0);
	CHECK(xmlsniff_options_set(o, "encoding", "ISO-8859-1") ==
	    XMLSNIFF_OK);
	memset(&w, 0, sizeof(w));
	t = xmlsniff_transcoder_new(o, "a.xml", "UTF-8", writer, &w);
	CHECK(xmlsniff_transcoder_read(t, fd, XMLSNIFF_SIZE_ASK) == XMLSNIFF_OK);
	CHECK(xmlsniff_transcoder_read(t, fd, XMLSNIFF_SIZE_ASK) == XMLSNIFF_ERR_STATE);
	CHECK(xmlsniff_transcoder_finish(t, &r) == XMLSNIFF_OK);
	CHECK(w.n == 9 && memcmp(w.b, "<a>\xC3\xA9</a>", 9) == 0);
	xmlsniff_result_free(r);
	xmlsniff_transcoder_free(t);
	close(fd);
	xmlsniff_options_free(o);
}

/* The library's own names and helpers. */
static void
test_names(void)
{
	char buf[64], err[128];
	size_t i;

	CHECK(strcmp(xmlsniff_version(), XMLSNIFF_VERSION_STRING) == 0);
	CHECK(xmlsniff_version_number() == XMLSNIFF_VERSION_NUMBER);
	CHECK(strcmp(xmlsniff_status_name(XMLSNIFF_OK), "ok") == 0);
	CHECK(strcmp(xmlsniff_status_name(XMLSNIFF_ERR_MARKER), "marker") ==
	    0);
	for (i = 0; i <= XMLSNIFF_ERR_MARKER; i++)
		CHECK(xmlsniff_status_name((int)i) != NULL);
	CHECK(xmlsniff_status_name(-1) == NULL &&
	    xmlsniff_status_name(XMLSNIFF_ERR_MARKER + 1) == NULL);
	CHECK(xmlsniff_init(err, sizeof(err)) == XMLSNIFF_OK && err[0] == '\0');
	CHECK(xmlsniff_about("kernels") != NULL);
	CHECK(xmlsniff_about("guess") != NULL);
	CHECK(xmlsniff_about("http-codings") != NULL);
	CHECK(xmlsniff_about("other") == NULL);
	CHECK(xmlsniff_encoding(0) != NULL);
	for (i = 0; xmlsniff_encoding(i) != NULL; i++)
		continue;
	CHECK(i > 10);
	CHECK(strcmp(xmlsniff_code(0), "decl-mismatch") == 0);
	for (i = 0; xmlsniff_code(i) != NULL; i++)
		continue;
	CHECK(i == 27);
	CHECK(strcmp(xmlsniff_code_info("utf8-bom", "severity"), "warning") ==
	    0);
	CHECK(strcmp(xmlsniff_code_info("decl-mismatch", "clause"), "XML 1.0 "
	    "section 4.3.3 and Appendix F") == 0);
	CHECK(xmlsniff_code_info("utf8-bom", "summary") != NULL &&
	    xmlsniff_code_info("utf8-bom", "description") != NULL &&
	    xmlsniff_code_info("utf8-bom", "example") != NULL &&
	    xmlsniff_code_info("utf8-bom", "fix") != NULL);
	CHECK(xmlsniff_code_info("utf8-bom", "other") == NULL);
	CHECK(xmlsniff_code_info("no-code", "summary") == NULL);
	CHECK(strcmp(xmlsniff_code_suggest("utf8bom"), "utf8-bom") == 0);
	CHECK(xmlsniff_escape(buf, sizeof(buf), "a\"\\\x01\xFF",
	    XMLSNIFF_ESCAPE_QUOTED) == 13 && strcmp(buf,
	    "a\\\"\\\\\\x01\\xFF") == 0);
	CHECK(xmlsniff_escape(buf, sizeof(buf), "a\n\xFF",
	    XMLSNIFF_ESCAPE_JSON) == 11 && strcmp(buf, "\"a\\n\\udcff\"") == 0);
	CHECK(xmlsniff_escape(buf, 4, "abcdef", XMLSNIFF_ESCAPE_NAME) == 6 &&
	    strcmp(buf, "abc") == 0);
	{
		static const char *const names[] = { "alpha", "beta" };

		CHECK(strcmp(xmlsniff_nearest("alhpa", names, 2), "alpha") ==
		    0);
		CHECK(xmlsniff_nearest("zzzzz", names, 2) == NULL);
	}
}

void
unit_api(void)
{
	test_names();
	test_options();
	test_states();
	test_input_names();
	test_result_severity();
	test_accessors();
	test_transcoder();
	test_transcoder_fd();
	test_splits();
	test_whole_piece();
	test_buffer_positions();
	test_cli_json();
}

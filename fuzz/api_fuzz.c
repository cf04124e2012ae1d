/*
 * The public interface, <xmlsniff.h>, as its callers drive it (issue 24,
 * item 5): options set from the valid names and values and from garbage,
 * the entity fed to a checker and to a transcoder in random pieces.
 * Traps (abort, for libFuzzer) when
 *   - an option refused has no message, or changed anything: the
 *     results under the options with the refused settings tried equal
 *     those under the options where they never were;
 *   - the check of a buffer fails (only memory may fail it);
 *   - the JSON record is not one line of valid JSON (jsonv.c), or its
 *     "errors", "warnings" and "diagnostics" disagree with the
 *     accessors;
 *   - the record of the entity fed in pieces (random sizes, and one
 *     byte at a time for short entities) differs from the one-buffer
 *     record;
 *   - a feed or finish after finish is anything but XMLSNIFF_ERR_STATE;
 *   - a transcode fed in pieces writes other bytes, or ends with
 *     another status or record, than the transcode fed whole.
 *
 * The input: the entity, then a tail of control bytes read from the end
 * backwards (the options, the name, the target, the seed of the pieces),
 * so that the seeds of the other targets, whole XML documents, mutate
 * into useful inputs here as well.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xmlsniff.h>

#include "jsonv.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NVALUES	8
/* The names of the options and values to try for each: valid ones and
 * near misses.  A value may also come from the input itself. */
static const struct {
	const char	*name;
	const char	*values[NVALUES];
} table[] = {
	{ "content-type", { "application/xml", "text/xml; charset=ISO-8859-1",
	    "text/xml; charset=\"utf-16\"", "application/xml; charset=",
	    "text/plain", ";;", "", "application/xhtml+xml; charset=Shift_JIS" } },
	{ "encoding", { "UTF-8", "ISO-8859-1", "Shift_JIS", "UTF-16",
	    "x-nope", "", "IBM037", "UTF-32" } },
	{ "default-encoding", { "windows-1252", "UTF-16", "UTF-8", "x-nope",
	    "", "ISO-8859-2", "EUC-JP", "utf8" } },
	{ "browser", { "yes", "no", "", "maybe", "YES", "1", "no ", "yes" } },
	{ "error", { "all", "utf8-bom", "utf8-bom,missing-decl", "nope", "",
	    ",", "suspicious-label", "all,utf8-bom" } },
	{ "ignore", { "utf8-bom", "suspicious-label,not-xml", "all", "bogus",
	    "", "missing-decl", "illegal-sequence", "utf8-bom," } },
	{ "allow-encoding", { "UTF-8", "UTF-8,UTF-16", "", "x-nope",
	    "ISO-8859-1", ",", "utf-8,shift_jis", "UTF-16LE" } },
	{ "all", { "yes", "no", "1", "", "yes", "no", "true", "all" } },
	{ "max-errors", { "1", "2", "1000", "100000", "0", "100001", "x",
	    "-1" } },
	{ "http", { "yes", "no", "", "maybe", "yes", "no", "on", "off" } },
	{ "fallback", { "error", "ncr", "nope", "", "ncr", "error", "NCR",
	    "ncr " } },
	{ "utf8-bom", { "yes", "no", "", "x", "yes", "no", "y", "n" } },
	{ "byte-order", { "be", "le", "xe", "", "BE", "le", "be", "big" } },
	{ "excerpt", { "always", "never", "auto", "", "sometimes", "never",
	    "always", "x" } },
	{ "nonesuch", { "yes", "", "1", "x", "no", "", "", "" } },
	{ "", { "", "yes", "", "", "", "", "", "" } },
	{ "ALL", { "yes", "no", "", "", "", "", "", "" } },
	{ "transcode-to", { "UTF-16", "", "x", "UTF-8", "", "", "", "" } },
};
#define NTABLE	(sizeof(table) / sizeof(table[0]))

static const char *const names[] = {
	NULL, "in.xml", "in.ent", "in.dtd", "-", "dir/in.mod", "a\"b\\c\n.xml",
	""
};
static const char *const targets[] = {
	"UTF-8", "UTF-16", "UTF-16LE", "UTF-32BE", "ISO-8859-1", "Shift_JIS",
	"windows-1252", "x-nope", "", "ISO-2022-JP", "IBM037", "US-ASCII"
};

struct input {
	const uint8_t	*p;
	size_t		 n;	/* what is left of the tail */
};

/* The next control byte, from the end of the input (0 once it is used
 * up: the tail shrinks the entity). */
static unsigned
ctl(struct input *in)
{
	if (in->n == 0)
		return 0;
	return in->p[--in->n];
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void
trap(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "api-fuzz: %s\n", what);
	if (a != NULL)
		fprintf(stderr, "  one: %s\n", a);
	if (b != NULL)
		fprintf(stderr, "  two: %s\n", b);
	abort();
}

/* The record's JSON: one line of valid JSON that agrees with the
 * accessors; a copy is returned for comparing. */
static char *
record(xmlsniff_result *r)
{
	struct json_top top;
	const xmlsniff_diagnostic *d;
	const char *j = xmlsniff_result_json(r);
	size_t i, k, n;
	char *copy;

	if (j == NULL)
		trap("no JSON record", NULL, NULL);
	n = strlen(j);
	if (!json_valid(j, n, &top))
		trap("the record is not valid JSON", j, NULL);
	if (memchr(j, '\n', n) != NULL || memchr(j, '\r', n) != NULL)
		trap("the record is not one line", j, NULL);
	if (top.errors != (long long)xmlsniff_result_errors(r) ||
	    top.warnings != (long long)xmlsniff_result_warnings(r) ||
	    top.ndiag != (long)xmlsniff_result_ndiagnostics(r))
		trap("the record's counts are not the accessors'", j, NULL);
	/* Every accessor, for the sanitizers. */
	(void)xmlsniff_result_encoding(r);
	(void)xmlsniff_result_source(r);
	(void)xmlsniff_result_bom(r);
	(void)xmlsniff_result_charset(r);
	(void)xmlsniff_result_mime(r);
	(void)xmlsniff_result_browser(r);
	(void)xmlsniff_result_decl_kind(r);
	(void)xmlsniff_result_decl_version(r);
	(void)xmlsniff_result_decl_encoding(r);
	(void)xmlsniff_result_decl_standalone(r);
	(void)xmlsniff_result_guess_encoding(r);
	(void)xmlsniff_result_guess_sample(r);
	(void)xmlsniff_result_unlisted(r);
	(void)xmlsniff_result_summary(r);
	for (i = 0; i < xmlsniff_result_ndiagnostics(r); i++) {
		d = xmlsniff_result_diagnostic(r, i);
		if (d == NULL || xmlsniff_diagnostic_code(d) == NULL ||
		    xmlsniff_diagnostic_message(d) == NULL ||
		    xmlsniff_diagnostic_severity(d) == NULL)
			trap("a diagnostic lacks its code, message or severity",
			    j, NULL);
		(void)xmlsniff_diagnostic_offset(d);
		(void)xmlsniff_diagnostic_line(d);
		(void)xmlsniff_diagnostic_column(d);
		(void)xmlsniff_diagnostic_count(d);
		(void)xmlsniff_diagnostic_excerpt(d);
		for (k = 0; k < xmlsniff_diagnostic_noccurrences(d); k++)
			if (xmlsniff_diagnostic_occurrence(d, k) == NULL)
				trap("an occurrence is missing", j, NULL);
	}
	if (xmlsniff_result_diagnostic(r, i) != NULL)
		trap("a diagnostic past the last", j, NULL);
	if ((copy = strdup(j)) == NULL)
		abort();
	return copy;
}

/* The size of the next piece of a feed. */
static size_t
piece(uint64_t *s, size_t left, int bytewise)
{
	size_t n;

	if (bytewise)
		return left ? 1 : 0;
	switch (rnd(s) % 4) {
	case 0:
		n = 1 + rnd(s) % 4;
		break;
	case 1:
		n = 1 + rnd(s) % 64;
		break;
	case 2:
		n = 1 + rnd(s) % 5000;
		break;
	default:
		n = left;
		break;
	}
	return n < left ? n : left;
}

/* Check the entity by a checker fed in pieces; its record, or NULL when
 * memory failed it. */
static char *
fed(const xmlsniff_options *o, const char *name, const uint8_t *p, size_t n,
    uint64_t *s, int bytewise)
{
	xmlsniff_checker *c;
	xmlsniff_result *r, *again;
	size_t off, k;
	char *j;
	int st = XMLSNIFF_OK;

	if ((c = xmlsniff_checker_new(o, name)) == NULL)
		return NULL;
	for (off = 0; off < n && st == XMLSNIFF_OK; off += k) {
		k = piece(s, n - off, bytewise);
		st = xmlsniff_checker_feed(c, p + off, k);
	}
	if (st == XMLSNIFF_OK)
		st = xmlsniff_checker_feed(c, p, 0);	/* nothing: allowed */
	if (st == XMLSNIFF_OK)
		st = xmlsniff_checker_finish(c, &r);
	if (st != XMLSNIFF_OK) {
		if (st != XMLSNIFF_ERR_MEMORY)
			trap("a feed or finish failed", xmlsniff_status_name(st),
			    xmlsniff_checker_error(c));
		xmlsniff_checker_free(c);
		return NULL;
	}
	if (xmlsniff_checker_feed(c, p, n) != XMLSNIFF_ERR_STATE ||
	    xmlsniff_checker_finish(c, &again) != XMLSNIFF_ERR_STATE)
		trap("a feed or finish after finish is not a state error",
		    NULL, NULL);
	if (xmlsniff_checker_error(c) == NULL ||
	    *xmlsniff_checker_error(c) == '\0')
		trap("a state error without a message", NULL, NULL);
	xmlsniff_checker_free(c);
	j = record(r);
	xmlsniff_result_free(r);
	return j;
}

struct sink {
	uint8_t	*p;
	size_t	 n, cap;
};

static int
sink_write(void *arg, const void *p, size_t n)
{
	struct sink *s = arg;
	uint8_t *np;

	if (n == 0)
		return 0;
	if (s->n + n > s->cap) {
		if ((np = realloc(s->p, (s->n + n) * 2)) == NULL)
			abort();
		s->p = np;
		s->cap = (s->n + n) * 2;
	}
	memcpy(s->p + s->n, p, n);
	s->n += n;
	return 0;
}

/* Transcode the entity to target, fed in pieces (whole when s is NULL):
 * its status, the bytes written in *out and the record in *json. */
static int
transcode(const xmlsniff_options *o, const char *name, const char *target,
    const uint8_t *p, size_t n, uint64_t *s, struct sink *out, char **json)
{
	xmlsniff_transcoder *t;
	xmlsniff_result *r;
	size_t off, k;
	int st = XMLSNIFF_OK;

	memset(out, 0, sizeof(*out));
	*json = NULL;
	if ((t = xmlsniff_transcoder_new(o, name, target, sink_write, out)) ==
	    NULL)
		return XMLSNIFF_ERR_MEMORY;
	for (off = 0; off < n && st == XMLSNIFF_OK; off += k) {
		k = s == NULL ? n : piece(s, n - off, 0);
		st = xmlsniff_transcoder_feed(t, p + off, k);
	}
	r = NULL;
	if (st == XMLSNIFF_OK)
		st = xmlsniff_transcoder_finish(t, &r);
	/* A refused transcode has a result as well: the analysis. */
	if (r != NULL) {
		*json = record(r);
		xmlsniff_result_free(r);
	}
	if (st != XMLSNIFF_OK && (xmlsniff_transcoder_error(t) == NULL ||
	    *xmlsniff_transcoder_error(t) == '\0'))
		trap("a transcode failed without a message",
		    xmlsniff_status_name(st), NULL);
	xmlsniff_transcoder_free(t);
	return st;
}

/* The options from the tail: every setting tried on o, the accepted ones
 * alone on plain.  Returns 0 when memory failed. */
static int
options(struct input *in, const uint8_t *doc, size_t ndoc,
    xmlsniff_options *o, xmlsniff_options *plain)
{
	char own[17];
	const char *name, *value;
	unsigned i, n = ctl(in) % 6, c, v;
	size_t k, len;
	int st;

	for (i = 0; i < n; i++) {
		c = ctl(in);
		v = ctl(in);
		name = table[c % NTABLE].name;
		value = table[c % NTABLE].values[v % NVALUES];
		if (v >= 0xf0 && ndoc > 0) {
			/* A value of the input's own bytes. */
			k = v % ndoc;
			len = ndoc - k < 16 ? ndoc - k : 16;
			memcpy(own, doc + k, len);
			own[len] = '\0';
			value = own;
		}
		st = xmlsniff_options_set(o, name, value);
		if (st == XMLSNIFF_ERR_MEMORY)
			return 0;
		if (st != XMLSNIFF_OK) {
			if (st != XMLSNIFF_ERR_ARGUMENT)
				trap("an option refused with a status other "
				    "than argument", name, value);
			if (xmlsniff_options_error(o) == NULL ||
			    *xmlsniff_options_error(o) == '\0')
				trap("an option refused without a message",
				    name, value);
			continue;
		}
		if (xmlsniff_options_set(plain, name, value) != XMLSNIFF_OK)
			trap("an option accepted once and refused again",
			    name, value);
	}
	return 1;
}

static void
compare_transcodes(const xmlsniff_options *o, const char *name,
    const char *target, const uint8_t *doc, size_t n, uint64_t *s)
{
	struct sink a, b;
	char *ja, *jb;
	int sa, sb;

	sa = transcode(o, name, target, doc, n, NULL, &a, &ja);
	sb = transcode(o, name, target, doc, n, s, &b, &jb);
	if (sa == XMLSNIFF_ERR_MEMORY || sb == XMLSNIFF_ERR_MEMORY)
		goto done;
	if (sa != sb)
		trap("a transcode in pieces ends otherwise than whole",
		    xmlsniff_status_name(sa), xmlsniff_status_name(sb));
	/* What was written before a failure is the caller's to throw
	 * away; what a success writes must not depend on the pieces. */
	if (sa == XMLSNIFF_OK && (a.n != b.n ||
	    (a.n != 0 && memcmp(a.p, b.p, a.n) != 0)))
		trap("a transcode in pieces writes other bytes", target, NULL);
	if ((ja == NULL) != (jb == NULL) ||
	    (ja != NULL && strcmp(ja, jb) != 0))
		trap("a transcode in pieces has another record", ja, jb);
done:
	free(a.p);
	free(b.p);
	free(ja);
	free(jb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	xmlsniff_options *o, *plain;
	xmlsniff_result *r;
	const char *name, *target;
	uint64_t s;
	char *whole, *same, *split, err[64];
	size_t n;
	int st;

	if (size > 65536)
		return 0;
	o = xmlsniff_options_new();
	plain = xmlsniff_options_new();
	if (o == NULL || plain == NULL)
		goto out;
	/* The tail: the options (they may take bytes of the entity's
	 * start as a value), the name, the target, the seed. */
	n = size > 24 ? size - 24 : 0;
	in.n = size;
	if (!options(&in, data, n, o, plain))
		goto out;
	name = names[ctl(&in) % (sizeof(names) / sizeof(names[0]))];
	target = targets[ctl(&in) % (sizeof(targets) / sizeof(targets[0]))];
	s = (uint64_t)ctl(&in) << 8 | ctl(&in);
	s = s * 0x9e3779b97f4a7c15ULL + 1;
	n = in.n;		/* the entity: what the tail left */

	st = xmlsniff_check_buffer(o, name, data, n, &r, err, sizeof(err));
	if (st == XMLSNIFF_ERR_MEMORY)
		goto out;
	if (st != XMLSNIFF_OK)
		trap("the check of a buffer failed", xmlsniff_status_name(st),
		    err);
	whole = record(r);
	xmlsniff_result_free(r);

	if ((same = fed(plain, name, data, n, &s, 0)) != NULL) {
		if (strcmp(whole, same) != 0)
			trap("a refused option changed the record", whole, same);
		free(same);
	}
	if ((split = fed(o, name, data, n, &s, 0)) != NULL) {
		if (strcmp(whole, split) != 0)
			trap("the record fed in pieces differs", whole, split);
		free(split);
	}
	if (n <= 2048 && (split = fed(o, name, data, n, &s, 1)) != NULL) {
		if (strcmp(whole, split) != 0)
			trap("the record fed a byte at a time differs", whole,
			    split);
		free(split);
	}
	compare_transcodes(o, name, target, data, n, &s);
	free(whole);
out:
	xmlsniff_options_free(o);
	xmlsniff_options_free(plain);
	return 0;
}

/*
 * Options (xmlsniff(3)): every setting of the command line that changes
 * the analysis or a transcode, set by its long option's name and value as
 * xmlsniff(1) spells them, checked as it is set.  A bad one is
 * XMLSNIFF_ERR_ARGUMENT with the message the command line gives, and
 * changes nothing.  Once set, options are only read: any number of
 * checkers in any number of threads share them.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "target.h"

static int	 fail(xmlsniff_options *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Why the last xmlsniff_options_set failed; XMLSNIFF_ERR_ARGUMENT. */
static int
fail(xmlsniff_options *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->err, sizeof(o->err), fmt, ap);
	va_end(ap);
	return XMLSNIFF_ERR_ARGUMENT;
}

/* The defaults: what xmlsniff(1) does with no option. */
static void
defaults(struct settings *set)
{
	memset(set, 0, sizeof(*set));
	set->guess = 1;
	set->marker = 1;
	set->lookahead = 1;
	set->mmap = 0;
	set->fallback = FB_ERROR;
}

xmlsniff_options *
xmlsniff_options_new(void)
{
	xmlsniff_options *o;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	atomic_init(&o->spare, NULL);
	defaults(&o->set);
	return o;
}

static char *
dup_or_null(const char *s, int *bad)
{
	char *d;

	if (s == NULL)
		return NULL;
	if ((d = strdup(s)) == NULL)
		*bad = 1;
	return d;
}

xmlsniff_options *
xmlsniff_options_copy(const xmlsniff_options *from)
{
	xmlsniff_options *o;
	int bad = 0;

	if ((o = malloc(sizeof(*o))) == NULL)
		return NULL;
	memcpy(o, from, offsetof(xmlsniff_options, spare));
	atomic_init(&o->spare, NULL);
	o->set.ctype = dup_or_null(from->set.ctype, &bad);
	o->set.encoding = dup_or_null(from->set.encoding, &bad);
	o->set.target = dup_or_null(from->set.target, &bad);
	if (bad) {
		xmlsniff_options_free(o);
		return NULL;
	}
	return o;
}

void
xmlsniff_options_free(xmlsniff_options *o)
{
	if (o == NULL)
		return;
	api_spare_free(o);
	free(o->set.ctype);
	free(o->set.encoding);
	free(o->set.target);
	free(o);
}

const char *
xmlsniff_options_error(const xmlsniff_options *o)
{
	return o->err;
}

/* The index of v in vals (n of them), or -1. */
static int
pick(const char *v, const char *const *vals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v, vals[i]) == 0)
			return (int)i;
	return -1;
}

/* A value of option name that is none of vals: the list, the nearest. */
static int
bad_value(xmlsniff_options *o, const char *name, const char *v,
    const char *const *vals, size_t n)
{
	char list[200];
	const char *near = suggest_list(v, vals, n, list, sizeof(list));

	if (near != NULL)
		return fail(o, "--%s: \"%s\" is not %s; did you mean %s?", name,
		    v, list, near);
	return fail(o, "--%s: \"%s\" is not %s", name, v, list);
}

/* A yes-or-no value into *flag. */
static int
yes_no(xmlsniff_options *o, const char *name, const char *v, int *flag)
{
	static const char *const yn[] = { "yes", "no" };
	int i = pick(v, yn, 2);

	if (i < 0)
		return bad_value(o, name, v, yn, 2);
	*flag = i == 0;
	return XMLSNIFF_OK;
}

/* --excerpt and --color: always or never (auto is the command line's,
 * which asks its terminal); yes and no too. */
static int
always_never(xmlsniff_options *o, const char *name, const char *v,
    int *flag)
{
	static const char *const an[] = { "always", "never", "yes", "no" };
	int i = pick(v, an, 4);

	if (i < 0)
		return bad_value(o, name, v, an, 2);
	*flag = i == 0 || i == 2;
	return XMLSNIFF_OK;
}

/* name: "\"%s\" is not an encoding that ..." unless v is one. */
static int
known_encoding(xmlsniff_options *o, const char *name, const char *v,
    struct enc *e)
{
	if (enc_lookup(v, e) < 0 || !e->known)
		return fail(o, "--%s: \"%s\" is not an encoding that the IANA "
		    "registry or this system's iconv knows", name, v);
	return XMLSNIFF_OK;
}

/*
 * The Content-Type of --content-type ctype and --encoding enc (either
 * NULL) into set, or XMLSNIFF_ERR_ARGUMENT: --encoding is the charset
 * parameter on --content-type's type, or application/xml (so that a
 * BOM still wins, RFC 7303 section 3.2).
 */
static int
content_type(xmlsniff_options *o, const char *ctype, const char *enc,
    struct mt *mt, int *has)
{
	char err[256], ct[400];

	*has = 0;
	if (ctype != NULL) {
		if (mt_parse(ctype, mt, err, sizeof(err)) < 0)
			return fail(o, "--content-type: %s", err);
		*has = 1;
	}
	if (enc == NULL)
		return XMLSNIFF_OK;
	if (*has && mt->has_charset)
		return fail(o, "%s", "--encoding and a charset in "
		    "--content-type exclude each other");
	snprintf(ct, sizeof(ct), "%s; charset=\"%s\"", *has ? mt->type :
	    "application/xml", enc);
	if (mt_parse(ct, mt, err, sizeof(err)) < 0)
		return fail(o, "--encoding: %s", err);
	*has = 1;
	return XMLSNIFF_OK;
}

/* Replace *slot with a copy of v (or NULL). */
static int
keep_string(xmlsniff_options *o, char **slot, const char *v)
{
	char *d = NULL;

	if (v != NULL && (d = strdup(v)) == NULL) {
		snprintf(o->err, sizeof(o->err), "%s", ERRTEXT(ENOMEM));
		return XMLSNIFF_ERR_MEMORY;
	}
	free(*slot);
	*slot = d;
	return XMLSNIFF_OK;
}

/* --content-type, --encoding (which=0, 1): checked together. */
static int
set_ctype(xmlsniff_options *o, int which, const char *v)
{
	struct settings *set = &o->set;
	struct mt mt;
	struct enc e;
	int has, rc;

	if (which == 0 && set->http)
		return fail(o, "%s", "--http takes the Content-Type of each "
		    "response; it excludes --content-type");
	if (which == 1 && (rc = known_encoding(o, "encoding", v, &e)) != 0)
		return rc;
	if ((rc = content_type(o, which == 0 ? v : set->ctype, which == 1 ?
	    v : set->encoding, &mt, &has)) != 0)
		return rc;
	if ((rc = keep_string(o, which == 0 ? &set->ctype : &set->encoding,
	    v)) != 0)
		return rc;
	set->mt = mt;
	set->has_mt = has;
	return XMLSNIFF_OK;
}

/* --default-encoding: what unlabelled entities are read in instead of
 * UTF-8; it must read "<?xml" as UTF-8 does. */
static int
set_default(xmlsniff_options *o, const char *v)
{
	struct enc e;
	int rc;

	if ((rc = known_encoding(o, "default-encoding", v, &e)) != 0)
		return rc;
	if (e.family != ENC_F_ASCII && e.family != ENC_F_UTF8)
		return fail(o, "--default-encoding: \"%s\" does not read "
		    "\"<?xml\" as UTF-8 does (an entity in it needs a BOM or a "
		    "declaration)", v);
	o->set.dflt = e;
	o->set.has_dflt = 1;
	return XMLSNIFF_OK;
}

/* --max-errors=N: a decimal number from 1 to DIAG_MAX_MAX. */
static int
set_max_errors(xmlsniff_options *o, const char *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || n < 1 ||
	    n > DIAG_MAX_MAX)
		return fail(o, "--max-errors: \"%s\" is not a number from 1 to "
		    "%d", v, DIAG_MAX_MAX);
	o->set.max_errors = (size_t)n;
	return XMLSNIFF_OK;
}

/* --error, --ignore, --allow-encoding (top) and their configuration
 * forms (the layer below the marker): lists that add up. */
static int
set_policy(xmlsniff_options *o, const char *key, const char *v, int top)
{
	struct layer l = top ? o->set.top : o->set.base;
	char err[400];

	if (layer_add(&l, key, strlen(key), v, err, sizeof(err)) < 0)
		return fail(o, "--%s", err);
	if (top)
		o->set.top = l;
	else
		o->set.base = l;
	return XMLSNIFF_OK;
}

/* --transcode-to: a target this system can write (with the byte order
 * and BOM set by then; they are applied again when a transcode begins). */
static int
set_target(xmlsniff_options *o, const char *v)
{
	struct xopts xo;
	char err[256];

	if (target_resolve(v, o->set.byte_order_le, o->set.utf8_bom, &xo, err,
	    sizeof(err)) < 0)
		return fail(o, "--transcode-to: %s", err);
	return keep_string(o, &o->set.target, v);
}

/* The options that take a flag: their name and where it goes. */
static int *
flag_of(struct settings *set, const char *name)
{
	static const struct {
		const char	*name;
		size_t		 off;
	} flags[] = {
		{ "browser", offsetof(struct settings, browser) },
		{ "guess", offsetof(struct settings, guess) },
		{ "all", offsetof(struct settings, all) },
		{ "marker", offsetof(struct settings, marker) },
		{ "lookahead", offsetof(struct settings, lookahead) },
		{ "mmap", offsetof(struct settings, mmap) },
		{ "utf8-bom", offsetof(struct settings, utf8_bom) },
		{ "strict", offsetof(struct settings, strict) },
		{ "fix", offsetof(struct settings, fix) },
		{ "dry-run", offsetof(struct settings, dry_run) },
		{ "in-place", offsetof(struct settings, in_place) },
	};
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strcmp(name, flags[i].name) == 0)
			return (int *)(void *)((char *)set + flags[i].off);
	return NULL;
}

/* Every name, for "did you mean". */
static const char *const names[] = {
	"content-type", "encoding", "default-encoding", "browser", "guess",
	"error", "ignore", "allow-encoding", "config-error", "config-ignore",
	"config-allow-encoding", "all", "max-errors", "excerpt", "color",
	"http", "marker", "lookahead", "mmap", "transcode-to", "fallback",
	"utf8-bom", "byte-order", "strict", "fix", "dry-run", "in-place",
};

/* --all and --max-errors make the cap of the list (--max-errors implies
 * --all, xmlsniff(1)). */
static void
cap(struct settings *set)
{
	set->keep = set->max_errors > 0 ? set->max_errors : set->all ?
	    DIAG_ALL_MAX : 0;
	set->keep_asked = set->max_errors > 0;
}

static int
set_other(xmlsniff_options *o, const char *name, const char *v)
{
	static const char *const fallbacks[] = { "error", "ncr" };
	static const char *const orders[] = { "be", "le" };
	struct settings *set = &o->set;
	int i;

	if (strcmp(name, "http") == 0) {
		if (strcmp(v, "yes") == 0 && set->ctype != NULL)
			return fail(o, "%s", "--http takes the Content-Type of "
			    "each response; it excludes --content-type");
		return yes_no(o, name, v, &set->http);
	}
	if (strcmp(name, "excerpt") == 0)
		return always_never(o, name, v, &set->excerpt);
	if (strcmp(name, "color") == 0)
		return always_never(o, name, v, &set->color);
	if (strcmp(name, "fallback") == 0) {
		if ((i = pick(v, fallbacks, 2)) < 0)
			return bad_value(o, name, v, fallbacks, 2);
		set->fallback = i == 0 ? FB_ERROR : FB_NCR;
		return XMLSNIFF_OK;
	}
	if (strcmp(name, "byte-order") == 0) {
		if ((i = pick(v, orders, 2)) < 0)
			return bad_value(o, name, v, orders, 2);
		set->byte_order_le = i;
		return XMLSNIFF_OK;
	}
	if (strcmp(name, "transcode-to") == 0)
		return set_target(o, v);
	if (strcmp(name, "max-errors") == 0)
		return set_max_errors(o, v);
	if (suggest(name, names, sizeof(names) / sizeof(names[0]),
	    sizeof(names[0])) != NULL)
		return fail(o, "unknown option \"%s\"; did you mean %s?", name,
		    suggest(name, names, sizeof(names) / sizeof(names[0]),
		    sizeof(names[0])));
	return fail(o, "unknown option \"%s\"", name);
}

int
xmlsniff_options_set(xmlsniff_options *o, const char *name,
    const char *value)
{
	struct settings *set = &o->set;
	int *flag, rc;

	o->err[0] = '\0';
	if (strcmp(name, "content-type") == 0)
		return set_ctype(o, 0, value);
	if (strcmp(name, "encoding") == 0)
		return set_ctype(o, 1, value);
	if (strcmp(name, "default-encoding") == 0)
		return set_default(o, value);
	if (strcmp(name, "error") == 0 || strcmp(name, "ignore") == 0 ||
	    strcmp(name, "allow-encoding") == 0)
		return set_policy(o, name, value, 1);
	if (strncmp(name, "config-", 7) == 0 && (strcmp(name + 7, "error") ==
	    0 || strcmp(name + 7, "ignore") == 0 ||
	    strcmp(name + 7, "allow-encoding") == 0))
		return set_policy(o, name + 7, value, 0);
	if ((flag = flag_of(set, name)) != NULL)
		rc = yes_no(o, name, value, flag);
	else
		rc = set_other(o, name, value);
	cap(set);
	return rc;
}

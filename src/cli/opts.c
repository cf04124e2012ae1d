/*
 * The command line: the option table, --help, the usage line, and the
 * rules of which options go together.  A wrong one is one line on
 * standard error (with "did you mean" when a name is near one that
 * exists), a line that points at --help, and exit status 2.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "usage.h"

struct options opt = { .fmt = FMT_TEXT };

static int parsing;	/* in the options: a bad one may be the config's */

enum {
	OPT_CONTENT_TYPE = 256, OPT_STRICT, OPT_TRANSCODE_TO,
	OPT_IN_PLACE, OPT_FALLBACK, OPT_UTF8_BOM, OPT_BYTE_ORDER,
	OPT_MIME_ENCODING, OPT_JSON, OPT_FILES0_FROM, OPT_VERSION,
	OPT_INCLUDE, OPT_EXCLUDE, OPT_NO_IGNORE, OPT_LIST_FILES,
	OPT_CONFIG, OPT_NO_CONFIG,
	OPT_ALLOW_ENCODING, OPT_ERROR, OPT_IGNORE, OPT_FIX, OPT_DRY_RUN,
	OPT_FORMAT, OPT_LIST_CODES, OPT_LIST_ENCODINGS, OPT_EXPLAIN,
	OPT_HTTP, OPT_STDIN_NAME, OPT_BROWSER, OPT_EXCERPT, OPT_COLOR,
	OPT_ALL, OPT_MAX_ERRORS, OPT_ENCODING, OPT_DEFAULT_ENCODING, OPT_MMAP
};
static const struct option longopts[] = {
	{ "content-type", required_argument, NULL, OPT_CONTENT_TYPE },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "transcode-to", required_argument, NULL, OPT_TRANSCODE_TO },
	{ "output", required_argument, NULL, 'o' },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "fallback", required_argument, NULL, OPT_FALLBACK },
	{ "utf8-bom", no_argument, NULL, OPT_UTF8_BOM },
	{ "byte-order", required_argument, NULL, OPT_BYTE_ORDER },
	{ "brief", no_argument, NULL, 'b' },
	{ "mime", no_argument, NULL, 'i' },
	{ "mime-encoding", no_argument, NULL, OPT_MIME_ENCODING },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "list-codes", no_argument, NULL, OPT_LIST_CODES },
	{ "list-encodings", no_argument, NULL, OPT_LIST_ENCODINGS },
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "files0-from", required_argument, NULL, OPT_FILES0_FROM },
	{ "recursive", no_argument, NULL, 'r' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "no-ignore", no_argument, NULL, OPT_NO_IGNORE },
	{ "list-files", no_argument, NULL, OPT_LIST_FILES },
	{ "print0", no_argument, NULL, '0' },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "allow-encoding", required_argument, NULL, OPT_ALLOW_ENCODING },
	{ "error", required_argument, NULL, OPT_ERROR },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "fix", no_argument, NULL, OPT_FIX },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "http", no_argument, NULL, OPT_HTTP },
	{ "stdin-name", required_argument, NULL, OPT_STDIN_NAME },
	{ "browser", no_argument, NULL, OPT_BROWSER },
	{ "excerpt", required_argument, NULL, OPT_EXCERPT },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
	{ "encoding", required_argument, NULL, OPT_ENCODING },
	{ "default-encoding", required_argument, NULL, OPT_DEFAULT_ENCODING },
	{ "jobs", required_argument, NULL, 'j' },
	{ "mmap", no_argument, NULL, OPT_MMAP },
	{ NULL, 0, NULL, 0 }
};
/* The leading ':' and opterr = 0: bad_option says what is wrong. */
static const char shortopts[] = ":0bhij:o:qrv";

static void die_usage(const char *, ...)
    __attribute__((format(printf, 1, 2), noreturn));

static void
die_usage(const char *fmt, ...)
{
	va_list ap;
	const char *file = NULL;
	int line = 0;

	/* An option the configuration file gave: its name and line. */
	if (parsing && (line = config_line(optind - 1, &file)) <= 0)
		file = NULL;
	va_start(ap, fmt);
	report_vwarn(file, line, fmt, ap);
	va_end(ap);
	fputs("Try 'xmlsniff --help' for more information.\n", stderr);
	exit(2);
}

/* Set the library's option name to value, or exit 2 with what it says
 * is wrong (the command line's own words). */
static void
setopt(const char *name, const char *value)
{
	if (xmlsniff_options_set(opt.xo, name, value) != XMLSNIFF_OK)
		die_usage("%s", xmlsniff_options_error(opt.xo));
}

/* A value of option name that is none of vals (n of them): the list of
 * those it may be, and the nearest, in one line. */
static void bad_value(const char *, const char *, const char *const *,
    size_t) __attribute__((noreturn));

static void
bad_value(const char *name, const char *arg, const char *const *vals,
    size_t n)
{
	char list[200];
	const char *near = xmlsniff_nearest(arg, vals, n);
	size_t i, len = 0;

	list[0] = '\0';
	for (i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
		    i == 0 ? "" : i + 1 == n ? " or " : ", ", vals[i]);

	if (near != NULL)
		die_usage("--%s: \"%s\" is not %s; did you mean %s?", name,
		    arg, list, near);
	die_usage("--%s: \"%s\" is not %s", name, arg, list);
}

/*
 * getopt_long(3) returned ch ('?' or ':') for the element argv[optind - 1]
 * (or an element still being taken apart; for ':', the last element, past
 * which musl's optind may point): say why in one line, the same
 * whatever C library the program is built with (their getopt messages
 * differ), then the usage.  A bad option is always on the command line:
 * the configuration file's lines are checked as they are read.
 */
static void
bad_option(int ch, int argc, char **argv, const struct option *lo,
    const char *so)
{
	const struct option *o;
	const char *arg = argv[ch == ':' ? argc - 1 : optind - 1], *eq;
	size_t len;
	int n;

	parsing = 0;
	if (ch == ':' || (optopt != 0 && optopt != ':' && (optopt > 255 ||
	    strchr(so, optopt) != NULL))) {
		/* A known option, without its argument or with one it does
		 * not take: name it in full (it may be abbreviated). */
		for (o = lo; o->name != NULL && o->val != optopt; o++)
			continue;
		if (strncmp(arg, "--", 2) != 0 || o->name == NULL)
			die_usage("option requires an argument -- '%c'",
			    optopt);
		if (ch == ':')
			die_usage("option '--%s' requires an argument",
			    o->name);
		die_usage("option '--%s' doesn't allow an argument", o->name);
	}
	if (optopt != 0)
		die_usage("invalid option -- '%c'", optopt);
	/* An unknown long option, or a prefix of more than one. */
	eq = strchr(arg + 2, '=');
	len = eq != NULL ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	for (n = 0, o = lo; o->name != NULL; o++)
		if (len > 0 && strncmp(o->name, arg + 2, len) == 0)
			n++;
	if (n > 1)
		die_usage("option '%.*s' is ambiguous", (int)len + 2, arg);
	if (config_suggest(lo, arg + 2, len) != NULL)
		die_usage("unrecognized option '%s'; did you mean --%s?", arg,
		    config_suggest(lo, arg + 2, len));
	die_usage("unrecognized option '%s'", arg);
}

/* --include, --exclude: one more pattern in the list *v of *n. */
void
opts_add_glob(const char ***v, size_t *n, const char *pat)
{
	const char **nv;

	if (*pat == '\0')
		die_usage("%s", "--include and --exclude need a pattern");
	if ((nv = realloc(*v, (*n + 1) * sizeof(*nv))) == NULL) {
		report_warn(NULL, 0, "%s", strerror(errno));
		exit(2);
	}
	nv[(*n)++] = pat;
	*v = nv;
}

/* The options that set a flag, and those that keep their argument. */
static const struct {
	int		 ch;
	int		*flag;
} flags[] = {
	{ OPT_STRICT, &opt.strict },
	{ OPT_IN_PLACE, &opt.in_place },
	{ OPT_UTF8_BOM, &opt.utf8_bom },
	{ 'b', &opt.brief },
	{ OPT_LIST_CODES, &opt.list_codes },
	{ OPT_LIST_ENCODINGS, &opt.list_encodings },
	{ 'r', &opt.recursive },
	{ 'q', &opt.quiet },
	{ 'v', &opt.verbose },
	{ OPT_NO_IGNORE, &opt.no_ignore },
	{ OPT_LIST_FILES, &opt.list_files },
	{ '0', &opt.print0 },
	{ OPT_FIX, &opt.fix },
	{ OPT_DRY_RUN, &opt.dry_run },
	{ OPT_HTTP, &opt.http },
	{ OPT_BROWSER, &opt.browser },
	{ OPT_ALL, &opt.all },
	{ OPT_MMAP, &opt.mmap },
};
static const struct {
	int		 ch;
	const char	**value;
} values[] = {
	{ OPT_CONTENT_TYPE, &opt.content_type },
	{ OPT_TRANSCODE_TO, &opt.transcode_to },
	{ 'o', &opt.output },
	{ OPT_EXPLAIN, &opt.explain },
	{ OPT_FILES0_FROM, &opt.files0_from },
	{ OPT_STDIN_NAME, &opt.stdin_name },
	{ OPT_ENCODING, &opt.encoding },
	{ OPT_DEFAULT_ENCODING, &opt.default_encoding },
};

/* The values of --excerpt and --color, of --fallback, of --byte-order,
 * each list in the order of its enum. */
static const char *const whens[] = { "auto", "always", "never" };
static const char *const fallbacks[] = { "error", "ncr" };
static const char *const orders[] = { "be", "le" };

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

/* --excerpt and --color: WHEN_AUTO, WHEN_ALWAYS, WHEN_NEVER. */
static int
when(const char *name, const char *v)
{
	int i = pick(v, whens, 3);

	if (i < 0)
		bad_value(name, v, whens, 3);
	return i == 0 ? WHEN_AUTO : i == 1 ? WHEN_ALWAYS : WHEN_NEVER;
}

/*
 * Resolve --excerpt and --color for the text diagnostics, which go to
 * standard error: auto is whether it is a terminal, and for colour also
 * whether NO_COLOR is unset or empty (no-color.org); always wins over
 * NO_COLOR.  The other formats have neither.
 */
static void
resolve_when(void)
{
	const char *nc = getenv("NO_COLOR");
	int text = opt.fmt < FMT_JSON, tty = isatty(2);

	opt.excerpt_on = text && (opt.excerpt == WHEN_ALWAYS ||
	    (opt.excerpt == WHEN_AUTO && tty));
	opt.color_on = text && (opt.color == WHEN_ALWAYS ||
	    (opt.color == WHEN_AUTO && tty && (nc == NULL || nc[0] == '\0')));
	setopt("excerpt", opt.excerpt_on ? "always" : "never");
	setopt("color", opt.color_on ? "always" : "never");
}

/* arg as a decimal number with nothing around it, into *n (a number too
 * big for it is ULLONG_MAX); -1 when it is not one. */
static int
decimal(const char *arg, unsigned long long *n)
{
	char *end;

	errno = 0;
	*n = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end != '\0')
		return -1;
	if (errno != 0)
		*n = ULLONG_MAX;
	return 0;
}

/* -j N: a decimal number from 1 up; above JOBS_MAX it is taken as
 * that (jobs.c). */
static long
jobs(const char *arg)
{
	unsigned long long n;

	if (decimal(arg, &n) < 0 || n < 1)
		die_usage("-j: \"%s\" is not a number of processes from 1 up",
		    arg);
	return n > JOBS_MAX ? JOBS_MAX : (long)n;
}

/* Take option ch (its argument in optarg); return 1 when --help or
 * --version has printed what it prints. */
static int
take(int ch, int argc, char **argv)
{
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].ch == ch) {
			*flags[i].flag = 1;
			return 0;
		}
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if (values[i].ch == ch) {
			*values[i].value = optarg;
			return 0;
		}
	switch (ch) {
	case OPT_FALLBACK:
		opt.fallback_given = 1;
		if (pick(optarg, fallbacks, 2) < 0)
			bad_value("fallback", optarg, fallbacks, 2);
		opt.fallback = optarg;
		break;
	case OPT_BYTE_ORDER:
		opt.byte_order_given = 1;
		if ((opt.byte_order_le = pick(optarg, orders, 2)) < 0)
			bad_value("byte-order", optarg, orders, 2);
		break;
	case 'i':
		opt.fmt = FMT_MIME;
		break;
	case OPT_MIME_ENCODING:
		opt.fmt = FMT_MIME_ENCODING;
		break;
	case OPT_JSON:
		opt.fmt = FMT_JSON;
		break;
	case OPT_FORMAT:
		if (format_lookup(optarg, &opt.fmt) < 0)
			bad_value("format", optarg, format_names, FMT_NAMES);
		break;
	case OPT_EXCERPT:
		opt.excerpt = when("excerpt", optarg);
		break;
	case OPT_COLOR:
		opt.color = when("color", optarg);
		break;
	case OPT_INCLUDE:
		opts_add_glob(&opt.walk.incl, &opt.walk.nincl, optarg);
		break;
	case OPT_EXCLUDE:
		opts_add_glob(&opt.walk.excl, &opt.walk.nexcl, optarg);
		break;
	case OPT_CONFIG:
	case OPT_NO_CONFIG:
		break;	/* config_args has seen them */
	case 'h':
		help();
		return 1;
	case OPT_VERSION:
		puts("xmlsniff " XMLSNIFF_VERSION);
		return 1;
	/* Policy and repair: the lists add up over repeated options. */
	/* The configuration file's general options are the lowest layer
	 * of each file's policy, the command line's the highest. */
	case OPT_ALLOW_ENCODING:
	case OPT_ERROR:
	case OPT_IGNORE: {
		const char *key = ch == OPT_IGNORE ? "ignore" : ch == OPT_ERROR ?
		    "error" : "allow-encoding", *file;

		/* The command line's are the library's options; the
		 * configuration file's general ones its layer below the
		 * marker, with the sections (perfile.c). */
		if (config_line(optind - 1, &file) == 0)
			setopt(key, optarg);
		else if (perfile_add(perfile_base(), key, strlen(key), optarg,
		    err, sizeof(err)) < 0)
			die_usage("--%s", err);
		break;
	}
	case OPT_MAX_ERRORS:
		setopt("max-errors", optarg);
		opt.max_errors = 1;
		break;
	case 'j':
		opt.jobs = jobs(optarg);
		break;
	default:
		bad_option(ch, argc, argv, longopts, shortopts);
	}
	return 0;
}

/*
 * Read the options of the configuration file and the command line into
 * opt; *argcp and *argvp are left at the operands.  Return 1 when --help
 * or --version has printed what it prints and nothing is left to do.
 */
int
opts_parse(int *argcp, char ***argvp)
{
	int ch;

	if ((opt.xo = xmlsniff_options_new()) == NULL) {
		report_warn(NULL, 0, "%s", strerror(ENOMEM));
		exit(2);
	}
	/* The configuration file's options go first: the command line's
	 * come later and win. */
	*argcp = config_args(*argcp, *argvp, longopts, shortopts, argvp);
	parsing = 1;
	opterr = 0;
	while ((ch = getopt_long(*argcp, *argvp, shortopts, longopts,
	    NULL)) != -1)
		if (take(ch, *argcp, *argvp) != 0)
			return 1;
	parsing = 0;
	*argcp -= optind;
	*argvp += optind;
	return 0;
}

/*
 * --encoding=ENC: the charset parameter ENC, with --content-type's type
 * or application/xml (so a BOM still wins, RFC 7303 section 3.2).
 * --default-encoding=ENC: what unlabelled entities are read in instead
 * of UTF-8; it must read "<?xml" as UTF-8 does.  The library checks them.
 */
static void
encoding_opts(void)
{
	if (opt.encoding != NULL)
		setopt("encoding", opt.encoding);
	if (opt.default_encoding != NULL)
		setopt("default-encoding", opt.default_encoding);
}

/* The rest of what the library is to do as the command line says:
 * --browser, --strict, --fix, --dry-run, --mmap, and the guess, which
 * only the text line and --json report. */
static void
lib_opts(void)
{
	setopt("browser", opt.browser ? "yes" : "no");
	setopt("strict", opt.strict ? "yes" : "no");
	setopt("fix", opt.fix ? "yes" : "no");
	setopt("dry-run", opt.dry_run ? "yes" : "no");
	setopt("mmap", opt.mmap ? "yes" : "no");
	setopt("guess", opt.fmt == FMT_TEXT || opt.fmt == FMT_JSON ? "yes" :
	    "no");
}

/*
 * The options that only qualify another, as the usage line nests them,
 * are refused without it when they are given at all, whatever their value
 * (the default one too): one given alone was meant for a run that is not
 * this one.  The first of them, in the usage line's order, is named.
 */
static void
needs_parent(void)
{
	const struct {
		int		 given;
		const char	*name;
		int		 parent;
		const char	*pname;
	} rule[] = {
		{ opt.print0, "-0", opt.list_files, "--list-files" },
		{ opt.output != NULL, "-o", opt.transcode_to != NULL,
		    "--transcode-to" },
		{ opt.in_place, "--in-place", opt.transcode_to != NULL,
		    "--transcode-to" },
		{ opt.fallback_given, "--fallback", opt.transcode_to != NULL,
		    "--transcode-to" },
		{ opt.utf8_bom, "--utf8-bom", opt.transcode_to != NULL,
		    "--transcode-to" },
		{ opt.byte_order_given, "--byte-order",
		    opt.transcode_to != NULL, "--transcode-to" },
		{ opt.dry_run, "--dry-run", opt.fix, "--fix" },
	};
	size_t i;

	for (i = 0; i < sizeof(rule) / sizeof(rule[0]); i++)
		if (rule[i].given && !rule[i].parent)
			die_usage("%s goes with %s", rule[i].name,
			    rule[i].pname);
}

/* --list-codes, --list-encodings and --explain: what they print, with
 * no input. */
static void
listing(int argc)
{
	char err[256];

	if (argc > 0 || opt.files0_from != NULL)
		die_usage("%s", "--list-codes, --list-encodings and "
		    "--explain read no inputs");
	if (perfile_start(opt.xo, err, sizeof(err)) < 0)
		die_usage("%s", err);
	if (opt.list_codes)
		list_codes();
	if (opt.list_encodings) {
		const char *e;
		size_t k;

		for (k = 0; (e = xmlsniff_encoding(k)) != NULL; k++)
			puts(e);
	}
	if (opt.explain != NULL && explain_code(opt.explain) < 0) {
		if (xmlsniff_code_suggest(opt.explain) != NULL)
			die_usage("--explain: \"%s\" is not a "
			    "diagnostic code; did you mean %s?",
			    opt.explain,
			    xmlsniff_code_suggest(opt.explain));
		die_usage("--explain: \"%s\" is not a diagnostic code "
		    "(see --list-codes)", opt.explain);
	}
}

/* --fix: what it needs, and what it excludes. */
static void
check_fix(int argc, char **argv)
{
	int i;

	if (opt.transcode_to != NULL)
		die_usage("%s", "--fix and --transcode-to exclude each "
		    "other (--fix keeps the encoding, or takes the first "
		    "--allow-encoding)");
	if (opt.output != NULL)
		die_usage("%s", "--fix rewrites each FILE in place; it "
		    "takes no -o");
	if (argc == 0 && opt.files0_from == NULL)
		die_usage("%s", "--fix needs FILE operands, not standard "
		    "input");
	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "-") == 0)
			die_usage("%s", "--fix cannot write back to "
			    "standard input (\"-\")");
	if (opt.fmt == FMT_MIME || opt.fmt == FMT_MIME_ENCODING)
		die_usage("%s", "--fix reports in the text line or with "
		    "--json, not with -i or --mime-encoding");
}

/* --transcode-to: its inputs and outputs, and the library's options of
 * the transcode. */
static void
check_transcode(int argc, char **argv)
{
	int i;

	if (opt.output != NULL && opt.in_place)
		die_usage("%s", "-o and --in-place exclude each other");
	/* -o - is standard output, as no -o: the entity alone goes
	 * there, without the per-input line (xmlsniff(1)). */
	if (opt.output != NULL && strcmp(opt.output, "-") == 0)
		opt.output = NULL;
	if (!opt.in_place && (argc > 1 || opt.files0_from != NULL ||
	    opt.recursive))
		die_usage("%s", "several inputs need --in-place");
	if (opt.in_place && argc == 0 && opt.files0_from == NULL)
		die_usage("%s", "--in-place needs FILE operands, not "
		    "standard input");
	for (i = 0; opt.in_place && i < argc; i++)
		if (strcmp(argv[i], "-") == 0)
			die_usage("%s", "--in-place cannot write back "
			    "to standard input (\"-\")");
	if (opt.fmt != FMT_TEXT && !opt.in_place && opt.output == NULL)
		die_usage("%s", "-i, --mime-encoding, --json and --format "
		    "print to standard output, where the transcoded entity "
		    "goes; use -o FILE");
	setopt("byte-order", opt.byte_order_le ? "le" : "be");
	setopt("utf8-bom", opt.utf8_bom ? "yes" : "no");
	setopt("transcode-to", opt.transcode_to);
	if (opt.fallback != NULL)
		setopt("fallback", opt.fallback);
	setopt("in-place", opt.in_place ? "yes" : "no");
}

/* The rules of which options go together, and what they need (argc
 * operands argv); *xo gets the transcoding target.  Return 1 when
 * --list-codes, --list-encodings or --explain has printed what it
 * prints. */
int
opts_check(int argc, char **argv)
{
	char err[256];

	if (opt.content_type != NULL)
		setopt("content-type", opt.content_type);
	if (opt.stdin_name != NULL && *opt.stdin_name == '\0')
		die_usage("%s", "--stdin-name needs a name");
	/* --http: each response brings its own Content-Type, and its head,
	 * which a rewrite in place would lose. */
	if (opt.http && opt.content_type != NULL)
		die_usage("%s", "--http takes the Content-Type of each "
		    "response; it excludes --content-type");
	if (opt.http && (opt.fix || opt.in_place))
		die_usage("%s", "--http excludes --fix and --in-place: the "
		    "response's head would be lost");
	encoding_opts();
	if (opt.http)
		setopt("http", "yes");
	if (opt.list_files)
		opt.fmt = FMT_TEXT;	/* the list has one form */
	if (opt.list_codes || opt.list_encodings || opt.explain != NULL) {
		listing(argc);
		return 1;
	}
	/* No FILE at a terminal: standard input would be waited on, which
	 * is never what was meant; "-" still reads it, and -r checks "."
	 * (main.c). */
	if (argc == 0 && opt.files0_from == NULL && !opt.recursive &&
	    isatty(0)) {
		fputs("usage: xmlsniff [OPTION]... FILE... (- reads standard "
		    "input, -r checks .; see xmlsniff --help)\n", stderr);
		exit(2);
	}
	/* --max-errors implies --all (xmlsniff(1)). */
	if (opt.all)
		setopt("all", "yes");
	if (opt.files0_from != NULL && argc > 0)
		die_usage("%s", "--files0-from takes no FILE operands as well");
	if (opt.fix)
		check_fix(argc, argv);
	/* After --fix's own, which say more of -o with it. */
	needs_parent();
	if (opt.transcode_to != NULL)
		check_transcode(argc, argv);
	resolve_when();
	lib_opts();
	if (perfile_start(opt.xo, err, sizeof(err)) < 0)
		die_usage("%s", err);
	return 0;
}

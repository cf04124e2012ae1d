/*
 * Per-file policy: which codes are ignored or errors, and which
 * encodings are allowed, for each input.  Four layers say it, and for
 * each code (and for the list of encodings) the first that says
 * anything wins (xmlsniff(1), PER-FILE POLICY):
 *
 *   1. the command line's --ignore, --error and --allow-encoding;
 *   2. the input's own marker, a comment <!-- xmlsniff: ... --> near
 *      its top, which the library reads;
 *   3. the sections [GLOB] of the configuration file that match the
 *      input's path, the most specific first (more_specific);
 *   4. the configuration file's general options.
 *
 * The library takes the first as its options' "error", "ignore" and
 * "allow-encoding" (opts.c), and 3 and 4 laid over each other here as
 * one layer below the marker ("config-error" and the others): each input
 * gets the options of the sections that match it, made once for each
 * set of sections.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* The bits of a code in a layer. */
#define PF_IGNORE	1
#define PF_ERROR	2

struct pf_layer {
	unsigned char	 code[NCODES_MAX];	/* PF_IGNORE, PF_ERROR */
	char		*allow;		/* its --allow-encoding values, or NULL */
	xmlsniff_options *check;	/* where the library checks them */
};

struct section {
	char		*glob;
	int		 path;		/* the glob has a '/': it names paths */
	size_t		 literal;	/* its characters that are no wildcard */
	struct pf_layer	 l;
};

/* The options of an input of some set of sections, made once for it. */
#define PF_CACHE	32
static struct {
	char		*key;		/* the sections, by index */
	xmlsniff_options *o;
} cache[PF_CACHE];
static size_t ncache, next_out;

static struct pf_layer general;
static xmlsniff_options *cmd;	/* the command line's (opts.c) */
static xmlsniff_options *gen;	/* and the general options' */
static struct section *sect;
static size_t nsect;
static char root[PATH_MAX];	/* the configuration file's directory */
static char cwd[PATH_MAX];
/* The severity of each code as the last input analysed had it. */
static unsigned char last_err[NCODES_MAX];
static int seen;

/* The number of codes the library has. */
int
ncodes(void)
{
	static int n = -1;

	if (n < 0)
		for (n = 0; xmlsniff_code((size_t)n) != NULL; n++)
			continue;
	return n;
}

/* The index of code name, or -1. */
int
code_index(const char *name)
{
	const char *c;
	size_t i;

	for (i = 0; (c = xmlsniff_code(i)) != NULL; i++)
		if (strcmp(c, name) == 0)
			return (int)i;
	return -1;
}

/* The layer of the configuration file's general part. */
struct pf_layer *
perfile_base(void)
{
	return &general;
}

/* The codes of list (checked) marked with bit in bits. */
static void
mark(unsigned char *bits, const char *list, int bit)
{
	char name[64];
	const char *p = list, *e;
	int c, i;

	do {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) < sizeof(name)) {
			memcpy(name, p, (size_t)(e - p));
			name[e - p] = '\0';
			if (strcmp(name, "all") == 0)
				for (i = 0; i < ncodes(); i++)
					bits[i] |= (unsigned char)bit;
			else if ((c = code_index(name)) >= 0)
				bits[c] |= (unsigned char)bit;
		}
		p = *e == ',' ? e + 1 : e;
	} while (*e != '\0');
}

/*
 * Add "key" = val to layer l, key one of ignore, error, allow-encoding
 * (klen bytes of key); -1 with the reason in err for another key or a
 * bad value, as the library says it.
 */
int
perfile_add(struct pf_layer *l, const char *key, size_t klen,
    const char *val, char *err, size_t errsize)
{
	char opt[40];
	const char *why;
	char *na;

	if (!((klen == 6 && strncmp(key, "ignore", 6) == 0) || (klen == 5 &&
	    strncmp(key, "error", 5) == 0) || (klen == 14 &&
	    strncmp(key, "allow-encoding", 14) == 0))) {
		snprintf(err, errsize, "\"%.*s\": only ignore, error and "
		    "allow-encoding set a file's policy",
		    (int)(klen > 40 ? 40 : klen), key);
		return -1;
	}
	snprintf(opt, sizeof(opt), "config-%.*s", (int)klen, key);
	if (l->check == NULL && (l->check = xmlsniff_options_new()) == NULL) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	if (xmlsniff_options_set(l->check, opt, val) != XMLSNIFF_OK) {
		why = xmlsniff_options_error(l->check);
		snprintf(err, errsize, "%s", strncmp(why, "--", 2) == 0 ?
		    why + 2 : why);
		return -1;
	}
	if (klen != 14) {
		mark(l->code, val, klen == 6 ? PF_IGNORE : PF_ERROR);
		return 0;
	}
	if ((na = malloc((l->allow != NULL ? strlen(l->allow) + 1 : 0) +
	    strlen(val) + 1)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	sprintf(na, "%s%s%s", l->allow != NULL ? l->allow : "",
	    l->allow != NULL ? "," : "", val);
	free(l->allow);
	l->allow = na;
	return 0;
}

/*
 * path, relative to dir unless absolute, made absolute and lexical: no
 * "." or empty component, ".." takes the one before away (links are not
 * followed).  Into out; -1 when it does not fit.
 */
static int
lexical(const char *dir, const char *path, char *out, size_t size)
{
	char buf[2 * PATH_MAX + 2], *p, *next, *slash;
	size_t n = 0, len;

	if (snprintf(buf, sizeof(buf), "%s/%s", path[0] == '/' ? "" : dir,
	    path) >= (int)sizeof(buf))
		return -1;
	out[0] = '\0';
	for (p = buf; p != NULL; p = next) {
		if ((slash = strchr(p, '/')) != NULL) {
			*slash = '\0';
			next = slash + 1;
		} else
			next = NULL;
		len = strlen(p);
		if (len == 0 || strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			while (n > 0 && out[--n] != '/')
				continue;
			out[n] = '\0';
			continue;
		}
		if (n + len + 2 > size)
			return -1;
		out[n++] = '/';
		memcpy(out + n, p, len + 1);
		n += len;
	}
	if (n == 0)
		strcpy(out, "/");
	return 0;
}

/* The configuration file rc is read: its directory is where the paths
 * of the sections' globs begin. */
void
perfile_root(const char *rc)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(rc, '/');

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		cwd[0] = '\0';
	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == rc)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rc), rc);
	if (cwd[0] == '\0' || lexical(cwd, dir, root, sizeof(root)) < 0)
		root[0] = '\0';
}

/* A new section of the configuration file, for glob; its layer. */
struct pf_layer *
perfile_section(const char *glob)
{
	struct section *ns, *s;
	const char *p;

	if ((ns = realloc(sect, (nsect + 1) * sizeof(*ns))) == NULL)
		return NULL;
	sect = ns;
	s = &sect[nsect];
	memset(s, 0, sizeof(*s));
	if ((s->glob = strdup(glob)) == NULL)
		return NULL;
	nsect++;
	s->path = strchr(glob, '/') != NULL;
	for (p = glob; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0') {
			p++;
			s->literal++;
		} else if (*p == '[') {
			/* A set is one character, and no literal. */
			const char *e = strchr(p + 2, ']');

			if (e != NULL)
				p = e;
		} else if (*p != '*' && *p != '?')
			s->literal++;
	}
	return &s->l;
}

/* Whether section a is more specific than section b: a path glob over a
 * name glob, then more literal characters, then the later one. */
static int
more_specific(const struct section *a, const struct section *b)
{
	if (a->path != b->path)
		return a->path;
	if (a->literal != b->literal)
		return a->literal > b->literal;
	return a > b;
}

/*
 * Whether section s applies to the file rel (its path from the
 * configuration's directory, or NULL outside it) of base name base: a
 * glob with no '/' is matched against base, one with a '/' against rel,
 * and one that ends in '/' names directories: every file below them.
 */
static int
section_matches(const struct section *s, const char *rel, const char *base)
{
	char dir[PATH_MAX];
	const char *slash;
	size_t n = strlen(s->glob);

	if (!s->path)
		return walk_glob(s->glob, base, 0);
	if (rel == NULL)
		return 0;
	if (n == 0 || s->glob[n - 1] != '/')
		return walk_glob(s->glob, rel, 0);
	for (slash = strchr(rel, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		if ((size_t)(slash - rel) >= sizeof(dir))
			break;
		memcpy(dir, rel, (size_t)(slash - rel));
		dir[slash - rel] = '\0';
		if (walk_glob(s->glob, dir, 1))
			return 1;
	}
	return 0;
}

/* Lay l over the layer to: each code l says something of, and its
 * encodings. */
static void
lay(struct pf_layer *to, const struct pf_layer *l)
{
	int i;

	for (i = 0; i < NCODES_MAX; i++)
		if (l->code[i] != 0)
			to->code[i] = l->code[i];
	if (l->allow != NULL)
		to->allow = l->allow;
}

/* The codes of l marked with bit, as a list, into buf. */
static void
list(const struct pf_layer *l, int bit, char *buf, size_t size)
{
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < ncodes() && k < size; i++)
		if (l->code[i] & bit)
			k += (size_t)snprintf(buf + k, size - k, "%s%s",
			    k > 0 ? "," : "", xmlsniff_code((size_t)i));
}

/* The command line's options with the layer l below the marker; NULL
 * with the reason in err. */
static xmlsniff_options *
with_layer(const struct pf_layer *l, char *err, size_t size)
{
	xmlsniff_options *o;
	char codes[NCODES_MAX * 32];
	int rc = XMLSNIFF_OK;

	if ((o = xmlsniff_options_copy(cmd)) == NULL) {
		snprintf(err, size, "out of memory");
		return NULL;
	}
	list(l, PF_IGNORE, codes, sizeof(codes));
	if (codes[0] != '\0')
		rc = xmlsniff_options_set(o, "config-ignore", codes);
	list(l, PF_ERROR, codes, sizeof(codes));
	if (rc == XMLSNIFF_OK && codes[0] != '\0')
		rc = xmlsniff_options_set(o, "config-error", codes);
	if (rc == XMLSNIFF_OK && l->allow != NULL)
		rc = xmlsniff_options_set(o, "config-allow-encoding", l->allow);
	if (rc != XMLSNIFF_OK) {
		snprintf(err, size, "%s", xmlsniff_options_error(o));
		xmlsniff_options_free(o);
		return NULL;
	}
	return o;
}

/* What holds before any input: the command line's options o over the
 * general options.  -1 with the reason in err. */
int
perfile_start(xmlsniff_options *o, char *err, size_t size)
{
	cmd = o;
	xmlsniff_options_free(gen);
	return (gen = with_layer(&general, err, size)) == NULL ? -1 : 0;
}

/* -j's workers: whether big files get a second thread (not where the
 * workers have the processors already), in every options made so far
 * and from now on. */
void
perfile_lookahead(int yes)
{
	const char *v = yes ? "yes" : "no";
	size_t i;

	(void)xmlsniff_options_set(cmd, "lookahead", v);
	if (gen != NULL)
		(void)xmlsniff_options_set(gen, "lookahead", v);
	for (i = 0; i < ncache; i++)
		(void)xmlsniff_options_set(cache[i].o, "lookahead", v);
}

/* The options of the inputs no section matches. */
const xmlsniff_options *
perfile_general(void)
{
	return gen;
}

/* The sections that match name, the least specific first (the most
 * specific has the last word), by index into key ("" for none). */
static void
matching(const char *name, char *key, size_t size)
{
	char abs[PATH_MAX];
	const char *rel = NULL, *base = strrchr(name, '/');
	const struct section *done = NULL, *next;
	size_t i, rl = strlen(root), k = 0;

	key[0] = '\0';
	base = base != NULL ? base + 1 : name;
	if (root[0] != '\0' && lexical(cwd, name, abs, sizeof(abs)) == 0 &&
	    strncmp(abs, root, rl) == 0 && (rl == 1 || abs[rl] == '/'))
		rel = abs + (rl == 1 ? 1 : rl + 1);
	/* Few sections: a selection of the next one each round. */
	for (;;) {
		next = NULL;
		for (i = 0; i < nsect; i++) {
			const struct section *s = &sect[i];

			if ((done != NULL && !more_specific(s, done)) ||
			    (next != NULL && !more_specific(next, s)))
				continue;
			if (section_matches(s, rel, base))
				next = s;
		}
		if (next == NULL)
			break;
		if (k < size)
			k += (size_t)snprintf(key + k, size - k, "%zu,",
			    (size_t)(next - sect));
		done = next;
	}
}

/*
 * The options of the input name (NULL: standard input, with no name):
 * the command line's over its sections over the general options (the
 * library reads its marker); NULL for want of memory.
 */
const xmlsniff_options *
perfile_options(const char *name)
{
	struct pf_layer l;
	char key[1024], err[256];
	const char *p;
	size_t i;

	if (name == NULL || nsect == 0)
		return gen;
	matching(name, key, sizeof(key));
	if (key[0] == '\0')
		return gen;
	for (i = 0; i < ncache; i++)
		if (strcmp(cache[i].key, key) == 0)
			return cache[i].o;
	l = general;
	for (p = key; *p != '\0'; p = strchr(p, ',') + 1)
		lay(&l, &sect[strtoul(p, NULL, 10)].l);
	/* The oldest goes when the cache is full: no result outlives the
	 * input it was made for. */
	i = ncache < PF_CACHE ? ncache++ : next_out++ % PF_CACHE;
	free(cache[i].key);
	xmlsniff_options_free(cache[i].o);
	cache[i].key = strdup(key);
	cache[i].o = with_layer(&l, err, sizeof(err));
	if (cache[i].key == NULL || cache[i].o == NULL) {
		free(cache[i].key);
		xmlsniff_options_free(cache[i].o);
		cache[i].key = NULL;
		cache[i].o = NULL;
		ncache = i;
		return NULL;
	}
	return cache[i].o;
}

/* A severity as the library gives it, "error" or "warning" (xmlsniff.h),
 * told apart by its first letter: this runs for every code of every
 * input, and strcmp() there took 2.4% of the time of -r over 5,000 small
 * files. */
static int
is_error(const char *severity)
{
	return severity != NULL && severity[0] == 'e';
}

/* The input just analysed had res: the severity of each code there, for
 * what is written of the codes after it (SARIF, the step summary). */
void
perfile_seen(const xmlsniff_result *res)
{
	int i;

	for (i = 0; i < ncodes(); i++)
		last_err[i] = is_error(xmlsniff_result_severity(res,
		    xmlsniff_code((size_t)i)));
	seen = 1;
}

/* An input whose marker could not be read: its options' severities. */
void
perfile_seen_options(const xmlsniff_options *o)
{
	int i;

	for (i = 0; i < ncodes(); i++)
		last_err[i] = is_error(xmlsniff_options_severity(o,
		    xmlsniff_code((size_t)i)));
	seen = 1;
}

/* The severity of code as the policy last applied has it: the last
 * input's, or before any, the command line's over the general options'. */
const char *
perfile_severity(const char *code)
{
	int c = code_index(code);

	if (c < 0)
		return NULL;
	if (seen)
		return last_err[c] ? "error" : "warning";
	return xmlsniff_options_severity(gen, code);
}

/*
 * Per-file policy: which codes are ignored or errors, and which
 * encodings are allowed, for each input.  Four layers say it, and for
 * each code (and for the list of encodings) the first that says
 * anything wins (xmlsniff(1), PER-FILE POLICY):
 *
 *   1. the command line's --ignore, --error and --allow-encoding;
 *   2. the input's own marker, a comment <!-- xmlsniff: ... --> near
 *      its top (marker_scan);
 *   3. the sections [GLOB] of the configuration file that match the
 *      input's path, the most specific first (more_specific);
 *   4. the configuration file's general options.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* How far into the entity a marker is looked for (bytes of the head). */
#define MARK_SCAN	4096

struct pf_layer {
	unsigned char	 code[D_NCODES];	/* DP_IGNORE, DP_ERROR */
	struct allowset	 allow;			/* n == 0: says nothing */
};

struct section {
	char		*glob;
	int		 path;		/* the glob has a '/': it names paths */
	size_t		 literal;	/* its characters that are no wildcard */
	struct pf_layer	 l;
};

static struct pf_layer general, cmdline, mark;
static struct dpolicy eff;	/* the layers laid over each other */
static struct section *sect;
static size_t nsect;
static char root[PATH_MAX];	/* the configuration file's directory */
static char cwd[PATH_MAX];

/* --all and --max-errors: the lines listed an input (0: not --all);
 * asked: the cap is --max-errors's. */
void
perfile_keep(size_t keep, int asked)
{
	eff.keep = keep;
	eff.keep_asked = asked;
}

/* The policy of the input last applied (perfile_apply), or, before any,
 * the command line's over the configuration's. */
const struct dpolicy *
perfile_policy(void)
{
	return &eff;
}

/* The layer of the command line's options (cli) or of the configuration
 * file's general part. */
struct pf_layer *
perfile_base(int cli)
{
	return cli ? &cmdline : &general;
}

/*
 * Add "key" = val to layer l, key one of ignore, error, allow-encoding
 * (klen bytes of key); -1 with the reason in err for another key or a
 * bad value.
 */
int
perfile_add(struct pf_layer *l, const char *key, size_t klen,
    const char *val, char *err, size_t errsize)
{
	char why[256];
	int rc;

	if (klen == 6 && strncmp(key, "ignore", 6) == 0)
		rc = diag_policy(val, l->code, DP_IGNORE, why, sizeof(why));
	else if (klen == 5 && strncmp(key, "error", 5) == 0)
		rc = diag_policy(val, l->code, DP_ERROR, why, sizeof(why));
	else if (klen == 14 && strncmp(key, "allow-encoding", 14) == 0)
		rc = policy_allow(&l->allow, val, why, sizeof(why));
	else {
		snprintf(err, errsize, "\"%.*s\": only ignore, error and "
		    "allow-encoding set a file's policy",
		    (int)(klen > 40 ? 40 : klen), key);
		return -1;
	}
	if (rc < 0)
		snprintf(err, errsize, "%.*s: %s", (int)klen, key, why);
	return rc;
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

/* Lay l over eff: each code l says something of, and its encodings. */
static void
lay(const struct pf_layer *l)
{
	int i;

	for (i = 0; i < D_NCODES; i++)
		if (l->code[i] != 0)
			eff.code[i] = l->code[i];
	if (l->allow.n > 0)
		eff.allow = &l->allow;
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

/* Lay the sections that match name over eff, the least specific first:
 * the most specific has the last word. */
static void
lay_sections(const char *name)
{
	char abs[PATH_MAX];
	const char *rel = NULL, *base = strrchr(name, '/');
	const struct section *done = NULL, *next;
	size_t i, rl = strlen(root);

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
		lay(&next->l);
		done = next;
	}
}

/*
 * The head of the entity as ASCII into out (at most MARK_SCAN bytes):
 * as it is, or, for UTF-16 (a BOM, or "<" as Appendix F's 3C 00 or
 * 00 3C), a byte a unit, with '?' for the units above U+007F.  Return
 * the length.  Other encodings are read as ASCII, which is what an
 * ASCII-compatible one needs; in EBCDIC no marker is found.
 */
static size_t
ascii_head(const unsigned char *p, size_t n, char *out)
{
	size_t i, k = 0;
	int le = -1;

	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		p += 3;
		n -= 3;
	} else if (n >= 2 && (p[0] == 0xFF && p[1] == 0xFE)) {
		le = 1;
		p += 2;
		n -= 2;
	} else if (n >= 2 && (p[0] == 0xFE && p[1] == 0xFF)) {
		le = 0;
		p += 2;
		n -= 2;
	} else if (n >= 2 && p[0] == 0x3C && p[1] == 0x00)
		le = 1;
	else if (n >= 2 && p[0] == 0x00 && p[1] == 0x3C)
		le = 0;
	if (le < 0) {
		k = n < MARK_SCAN ? n : MARK_SCAN;
		memcpy(out, p, k);
		return k;
	}
	for (i = 0; i + 1 < n && k < MARK_SCAN; i += 2) {
		unsigned u = le ? p[i] | p[i + 1] << 8 : p[i] << 8 | p[i + 1];

		out[k++] = u < 0x80 ? (char)u : '?';
	}
	return k;
}

/*
 * The items of one marker (the text after "xmlsniff:", len bytes):
 * KEY=VALUE words separated by white space, added to mark.
 */
static int
marker_items(const char *t, size_t len, char *err, size_t errsize)
{
	char item[512];
	const char *e = t + len, *w, *eq;

	for (;;) {
		while (t < e && strchr(" \t\r\n", *t) != NULL)
			t++;
		if (t == e)
			return 0;
		for (w = t; t < e && strchr(" \t\r\n", *t) == NULL; t++)
			continue;
		if ((size_t)(t - w) >= sizeof(item)) {
			snprintf(err, errsize, "%s", "an item is too long");
			return -1;
		}
		memcpy(item, w, (size_t)(t - w));
		item[t - w] = '\0';
		if ((eq = strchr(item, '=')) == NULL) {
			snprintf(err, errsize, "\"%.60s\" is not KEY=VALUE "
			    "(ignore=, error= or allow-encoding=)", item);
			return -1;
		}
		if (perfile_add(&mark, item, (size_t)(eq - item), eq + 1, err,
		    errsize) < 0)
			return -1;
	}
}

/* No marker read yet (its encodings are not copied a file). */
static void
mark_clear(void)
{
	memset(mark.code, 0, sizeof(mark.code));
	mark.allow.n = 0;
	mark.allow.names[0] = '\0';
}

/*
 * Read the markers of the head h (len bytes, ASCII) into mark: comments
 * whose text begins with "xmlsniff:", before the first tag of an element
 * and after the XML or text declaration, if any (one before it is not
 * read: the declaration must come first).  Return -1 with the reason
 * (and the line) in err for a marker that cannot be read.
 */
static int
marker_scan(const char *h, size_t len, char *err, size_t errsize)
{
	const char *p = h, *e = h + len, *end, *t;
	char why[256];
	int seen = 0;

	while ((p = memchr(p, '<', (size_t)(e - p))) != NULL &&
	    e - p >= 2) {
		if (p[1] == '?') {
			/* A declaration after a marker: the marker is not
			 * near the top the way XML allows. */
			if (e - p >= 6 && memcmp(p, "<?xml", 5) == 0 &&
			    strchr(" \t\r\n", p[5]) != NULL && seen) {
				mark_clear();
				seen = 0;
			}
			p += 2;
			continue;
		}
		if (p[1] != '!') {
			if (strchr(" \t\r\n", p[1]) == NULL)
				break;	/* the first tag of an element */
			p++;
			continue;
		}
		if (e - p < 4 || memcmp(p, "<!--", 4) != 0) {
			p += 2;	/* a DOCTYPE and its declarations */
			continue;
		}
		for (end = p + 4; end + 3 <= e && memcmp(end, "-->", 3) != 0;
		    end++)
			continue;
		if (end + 3 > e)
			break;	/* not closed within the head */
		for (t = p + 4; t < end && strchr(" \t\r\n", *t) != NULL; t++)
			continue;
		if (end - t >= 9 && memcmp(t, "xmlsniff:", 9) == 0) {
			seen = 1;
			if (marker_items(t + 9, (size_t)(end - t - 9), why,
			    sizeof(why)) < 0) {
				size_t line = 1;

				for (t = h; t < p; t++)
					line += *t == '\n';
				snprintf(err, errsize, "the marker on line %zu: "
				    "%s", line, why);
				return -1;
			}
		}
		p = end + 3;
	}
	return 0;
}

/* No layer laid yet: every code as it is, any encoding. */
static void
clear(void)
{
	memset(eff.code, 0, sizeof(eff.code));
	eff.allow = NULL;
}

/* What holds before any input: the command line over the general
 * options. */
void
perfile_start(void)
{
	clear();
	lay(&general);
	lay(&cmdline);
}

/*
 * The policy of the input name (NULL: standard input, with no name),
 * whose entity begins with the n bytes of head: made the one that
 * perfile_policy() gives, which its diagnostics are to point at.  Return -1 with the reason in err when its
 * marker cannot be read (the general policy holds then).
 */
int
perfile_apply(const char *name, const unsigned char *head, size_t n,
    char *err, size_t errsize)
{
	static char text[MARK_SCAN];
	size_t len;
	int rc;

	clear();
	mark_clear();
	lay(&general);
	if (name != NULL && nsect > 0)
		lay_sections(name);
	len = ascii_head(head, n, text);
	if ((rc = marker_scan(text, len, err, errsize)) == 0)
		lay(&mark);
	lay(&cmdline);
	return rc;
}

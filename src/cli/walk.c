/*
 * What -r selects: the default set of XML file name extensions, the
 * --include/--exclude globs, and the files git does not ignore (asked of
 * git itself, never re-implemented).  See "Walking" in xmlsniff(1).
 */
/* realpath(3) is XSI */
#define _XOPEN_SOURCE 700

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

extern char **environ;

/* The files git lists below a directory, sorted. */
struct gitset {
	char		**names;	/* relative to the directory */
	size_t		  n;
	char		 *buf;		/* holds the names */
};

/* xml_exts and sometimes_exts, made from data/xml-types.tsv, the one
 * list of XML file types (make xmltypes). */
#include "xmltypes.h"

static int
ext_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* Whether the last extension of base name is one of list (n of them),
 * in any case (ASCII). */
static int
ext_in(const char *base, const char *const *list, size_t n)
{
	const char *dot = strrchr(base, '.');
	char low[16];
	size_t i, len;

	if (dot == NULL || dot == base || (len = strlen(dot + 1)) == 0 ||
	    len >= sizeof(low))
		return 0;
	for (i = 0; dot[1 + i] != '\0'; i++)
		low[i] = (char)tolower((unsigned char)dot[1 + i]);
	low[i] = '\0';
	/* list is sorted (tools/gen-xmltypes.py): a name costs a few
	 * comparisons, not one for each extension. */
	return bsearch(low, list, n, sizeof(*list), ext_cmp) != NULL;
}

/* Whether the last extension of base name is in the default set. */
int
walk_xml_name(const char *base)
{
	return ext_in(base, xml_exts, sizeof(xml_exts) / sizeof(xml_exts[0]));
}

/*
 * -r: whether to pass over input name, which is not XML (not-xml): so it
 * is when its extension is XML only sometimes (data/xml-types.tsv), as
 * .props is MSBuild's in .NET projects and a Java properties file
 * elsewhere; with verbose, a note says so on standard error.  A file of
 * an extension that is always XML is checked, and draws not-xml.
 */
int
walk_passes_over(const char *name, int verbose)
{
	const char *base = strrchr(name, '/');

	base = base != NULL ? base + 1 : name;
	if (!ext_in(base, sometimes_exts, sizeof(sometimes_exts) /
	    sizeof(sometimes_exts[0])))
		return 0;
	if (verbose)
		report_warn(name, 0, "passed over: not XML, and .%s files are "
		    "XML only sometimes", strrchr(base, '.') + 1);
	return 1;
}

/*
 * A bracket expression at p ('[' already passed) against c; return the
 * position after its ']', or NULL when it is not closed (then '[' is an
 * ordinary character).  *hit says whether c is in the set.
 */
static const char *
bracket(const char *p, unsigned char c, int *hit)
{
	int neg = 0;

	*hit = 0;
	if (*p == '!' || *p == '^') {
		neg = 1;
		p++;
	}
	if (*p == ']') {	/* a ']' first is a member */
		*hit |= c == ']';
		p++;
	}
	while (*p != '\0' && *p != ']') {
		unsigned char lo = (unsigned char)*p, hi = lo;

		if (p[1] == '-' && p[2] != '\0' && p[2] != ']') {
			hi = (unsigned char)p[2];
			p += 3;
		} else
			p++;
		if (c >= lo && c <= hi)
			*hit = 1;
	}
	if (*p != ']')
		return NULL;
	*hit ^= neg;
	return p + 1;
}

/* The length of the element of a pattern at p: one of "**\/", "**",
 * "*", a bracket expression, '\' and the character it quotes, or one
 * character. */
static size_t
elem_len(const char *p)
{
	const char *e;
	int hit;

	if (p[0] == '*' && p[1] == '*')
		return p[2] == '/' ? 3 : 2;
	if (p[0] == '[' && (e = bracket(p + 1, 0, &hit)) != NULL)
		return (size_t)(e - p);
	if (p[0] == '\\' && p[1] != '\0')
		return 2;
	return 1;
}

/* Put state i of pattern p into set, with the states it reaches without
 * a character: past a star, which may match nothing. */
static void
reach(unsigned char *set, const char *p, size_t i)
{
	for (;;) {
		set[i] = 1;
		if (p[i] != '*')
			return;
		i += elem_len(p + i);
	}
}

/*
 * Glob p against s: '*' any run of characters but '/', '**' any run
 * including '/', '**' followed by '/' any number of whole directories
 * (none too), '?' one character but '/', '[...]' one character of a set
 * (never '/'), '\' quotes the next character.  The pattern runs as a
 * set of states over s, one character at a time, so that no pattern
 * takes more than length of p times length of s steps.
 */
static int
glob(const char *p, const char *s)
{
	size_t n = strlen(p), i, len;
	unsigned char *cur, *next, *t;
	int hit, ok = 0;

	if ((cur = calloc(2, n + 1)) == NULL)
		return 0;
	next = cur + n + 1;
	reach(cur, p, 0);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		int any = 0;

		memset(next, 0, n + 1);
		for (i = 0; i < n; i++) {
			if (!cur[i])
				continue;
			len = elem_len(p + i);
			if (p[i] == '*' && len == 3) {
				reach(next, p, i);
				if (c == '/')
					reach(next, p, i + 3);
			} else if (p[i] == '*' && (len == 2 || c != '/'))
				reach(next, p, i);
			else if (p[i] == '?' && c != '/')
				reach(next, p, i + 1);
			else if (p[i] == '[' && len > 1) {
				if (c != '/' && bracket(p + i + 1, c, &hit) &&
				    hit)
					reach(next, p, i + len);
			} else if (p[i] == '\\' && len == 2) {
				if (c == (unsigned char)p[i + 1])
					reach(next, p, i + 2);
			} else if (p[i] != '*' && p[i] != '?' &&
			    c == (unsigned char)p[i])
				reach(next, p, i + 1);
		}
		t = cur;
		cur = next;
		next = t;
		for (i = 0; i <= n && !any; i++)
			any = cur[i];
		if (!any)
			break;
	}
	ok = cur[n];
	free(cur < next ? cur : next);
	return ok;
}

/*
 * Whether pattern pat matches rel, the path below the walk's root (of a
 * directory when dir).  A trailing '/' makes it match directories only;
 * then a pattern with no '/' matches the base name at any depth, one
 * with a '/' the whole of rel (a leading '/' only anchors it).
 */
int
walk_glob(const char *pat, const char *rel, int dir)
{
	char buf[4096];
	size_t n = strlen(pat);
	const char *base;

	if (n > 0 && pat[n - 1] == '/') {
		if (!dir || n >= sizeof(buf))
			return 0;
		memcpy(buf, pat, n - 1);
		buf[n - 1] = '\0';
		pat = buf;
		n--;
	}
	if (pat[0] == '/')
		return glob(pat + 1, rel);
	if (memchr(pat, '/', n) != NULL)
		return glob(pat, rel);
	base = strrchr(rel, '/');
	return glob(pat, base != NULL ? base + 1 : rel);
}

/*
 * Whether the walk takes rel, a path below its root (a directory to
 * enter when dir): never a .git, .hg or .svn; nothing an --exclude
 * matches; a file only when an --include matches it or, with none, when
 * its extension is in the default set.
 */
int
walk_wanted(const struct walkopts *w, const char *rel, int dir)
{
	const char *base = strrchr(rel, '/');
	size_t i;

	base = base != NULL ? base + 1 : rel;
	if (strcmp(base, ".git") == 0 || strcmp(base, ".hg") == 0 ||
	    strcmp(base, ".svn") == 0)
		return 0;
	for (i = 0; i < w->nexcl; i++)
		if (walk_glob(w->excl[i], rel, dir))
			return 0;
	if (dir)
		return 1;
	if (w->nincl == 0)
		return walk_xml_name(base);
	for (i = 0; i < w->nincl; i++)
		if (walk_glob(w->incl[i], rel, 0))
			return 1;
	return 0;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Whether git could find a repository for dir.  git's discovery goes up
 * the path of the directory (physical, as getcwd(3) gives it after
 * git -C), and stops at the first directory that holds an entry named
 * .git, or that is itself a git directory (a bare repository, which
 * core.worktree may tie to a work tree elsewhere).  Where no directory on
 * the way up to the root holds a .git or a HEAD (every git directory has
 * one), git finds no work tree, and running it, a millisecond or more
 * before the walk can start, is spared; walk_git passes on no variable
 * that would point it elsewhere.  The way up is by the path, as git's,
 * not by "..", which a bind mount can make point back at the directory.
 * Anything in doubt (an error on the way) says yes.
 */
static int
git_may_find(const char *dir)
{
	static const char *const marks[] = { ".git", "HEAD" };
	char *path, *buf;
	struct stat st;
	size_t n, i, size;
	int found = 0;

	if ((path = realpath(dir, NULL)) == NULL)
		return 1;
	/* path[0..n): the directory, then each one above it, "" the root */
	n = strlen(path);
	size = n + sizeof("/.git");
	if ((buf = malloc(size)) == NULL) {
		free(path);
		return 1;
	}
	for (;;) {
		for (i = 0; i < 2 && !found; i++) {
			snprintf(buf, size, "%.*s/%s", (int)n, path, marks[i]);
			found = lstat(buf, &st) == 0 || errno != ENOENT;
		}
		if (found || n == 0)
			break;
		while (n > 0 && path[--n] != '/')
			;
	}
	free(buf);
	free(path);
	return found;
}

/*
 * Run git -C dir with the arguments args (NULL-terminated) and return
 * what it writes on standard output, *np bytes, NUL-terminated; NULL when
 * git is missing, fails or cannot be read.  git runs without a shell,
 * reads /dev/null, and its messages are discarded; the variables that
 * would point it at another repository than dir's are not passed on.
 */
static char *
git_out(const char *dir, const char *const *args, size_t *np)
{
	char *argv[10], **env, *buf = NULL;
	posix_spawn_file_actions_t fa;
	size_t n = 0, cap = 0, i, k;
	pid_t pid;
	int fds[2], st, ok;
	ssize_t r;

	argv[0] = (char *)"git";
	argv[1] = (char *)"-C";
	argv[2] = (char *)dir;
	for (i = 0; i < 6 && args[i] != NULL; i++)
		argv[3 + i] = (char *)args[i];
	argv[3 + i] = NULL;
	for (n = 0; environ[n] != NULL; n++)
		;
	if ((env = calloc(n + 1, sizeof(*env))) == NULL)
		return NULL;
	for (i = k = 0; i < n; i++)
		if (strncmp(environ[i], "GIT_DIR=", 8) != 0 &&
		    strncmp(environ[i], "GIT_WORK_TREE=", 14) != 0 &&
		    strncmp(environ[i], "GIT_INDEX_FILE=", 15) != 0)
			env[k++] = environ[i];
	if (pipe(fds) < 0) {
		free(env);
		return NULL;
	}
	if (posix_spawn_file_actions_init(&fa) != 0) {
		free(env);
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	ok = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
	    0) == 0 &&
	    posix_spawn_file_actions_adddup2(&fa, fds[1], 1) == 0 &&
	    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
	    0) == 0 &&
	    posix_spawn_file_actions_addclose(&fa, fds[0]) == 0 &&
	    posix_spawn_file_actions_addclose(&fa, fds[1]) == 0 &&
	    posix_spawnp(&pid, "git", &fa, NULL, argv, env) == 0;
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(fds[1]);
	if (!ok) {
		close(fds[0]);
		return NULL;
	}
	n = 0;
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (nb == NULL) {
				ok = 0;
				break;
			}
			buf = nb;
		}
		if ((r = read(fds[0], buf + n, cap - n - 1)) < 0 &&
		    errno == EINTR)
			continue;
		if (r <= 0) {
			ok = r == 0;
			break;
		}
		n += (size_t)r;
	}
	close(fds[0]);
	/* No status (SIGCHLD ignored, so the child was reaped): no answer. */
	while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (!ok || r < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*np = n;
	return buf;
}

/*
 * The files below dir that git does not ignore, tracked or not (paths
 * relative to dir, sorted); NULL when git is missing, fails, or dir is
 * not in a work tree.
 */
struct gitset *
walk_git(const char *dir)
{
	static const char *const args[] = { "ls-files", "-z", "--cached",
	    "--others", "--exclude-standard", NULL };
	struct gitset *g;
	char *buf, *p, *end;
	size_t n, k;

	if (!git_may_find(dir) || (buf = git_out(dir, args, &n)) == NULL)
		return NULL;
	if ((g = calloc(1, sizeof(*g))) == NULL) {
		free(buf);
		return NULL;
	}
	/* NUL-terminated names: count, then point into buf. */
	for (p = buf, end = buf + n, k = 0; p < end; p++)
		k += *p == '\0';
	if ((g->names = calloc(k + 1, sizeof(*g->names))) == NULL) {
		free(buf);
		free(g);
		return NULL;
	}
	for (p = buf; p < end; p += strlen(p) + 1) {
		if (memchr(p, '\0', (size_t)(end - p)) == NULL)
			break;
		g->names[g->n++] = p;
	}
	qsort(g->names, g->n, sizeof(*g->names), str_cmp);
	g->buf = buf;
	return g;
}

/*
 * The top of the git work tree that holds dir (an absolute, physical
 * path, as git gives it), or NULL when there is none or git cannot say.
 */
char *
walk_git_top(const char *dir)
{
	static const char *const args[] = { "rev-parse", "--show-toplevel",
	    NULL };
	char *buf;
	size_t n;

	if (!git_may_find(dir) || (buf = git_out(dir, args, &n)) == NULL)
		return NULL;
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	/* One line, an absolute path: anything else is no answer. */
	if (n == 0 || buf[0] != '/' || strchr(buf, '\n') != NULL) {
		free(buf);
		return NULL;
	}
	return buf;
}

void
walk_git_free(struct gitset *g)
{
	if (g == NULL)
		return;
	free(g->buf);
	free(g->names);
	free(g);
}

/* The first name in g not below key (binary search). */
static size_t
lower(const struct gitset *g, const char *key)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(g->names[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether git lists rel: the file itself or, for a directory, a file
 * below it (or the directory, as git lists a submodule or a nested
 * repository).
 */
int
walk_git_has(const struct gitset *g, const char *rel, int dir)
{
	char key[PATH_MAX + 2];
	size_t i, n = strlen(rel);

	i = lower(g, rel);
	if (i < g->n && strcmp(g->names[i], rel) == 0)
		return 1;
	if (!dir || n + 2 > sizeof(key))
		return 0;
	memcpy(key, rel, n);
	key[n] = '/';
	key[n + 1] = '\0';
	i = lower(g, key);
	return i < g->n && strncmp(g->names[i], key, n + 1) == 0;
}

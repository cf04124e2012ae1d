/*
 * The names the CI formats write (xmlsniff(1), Report formats): relative
 * to the repository root, normalised.  GitHub's annotations and GitLab's
 * Code Quality view match a finding to a file of the repository by such
 * a path, and show nothing for "./docs/x.xml" or "/home/ci/docs/x.xml".
 *
 * The root is the top of the git work tree that holds the current
 * directory, as git itself finds it (walk.c asks it), or else the current
 * directory.  A name is normalised by its text alone, as a URI's dot
 * segments are removed (RFC 3986 section 5.2.4): "." and empty segments
 * go, "a/.." goes with its "a".
 */
/* realpath(3) is XSI */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

static struct {
	int	 init;
	char	*cwd;		/* physical, as getcwd(3) gives it */
	char	*root;		/* normalised; NULL when unknown */
} repo;

/*
 * path normalised: no "." or empty segment, no "name/.."; a ".." that
 * has nothing before it stays in a relative path and goes at the top of
 * an absolute one.  "" and "." are ".".  NULL when out of memory.
 */
char *
repo_norm(const char *path)
{
	size_t len = strlen(path), n = 0;
	int abs = *path == '/';
	char *out;

	if ((out = malloc(len + 2)) == NULL)
		return NULL;
	if (abs)
		out[n++] = '/';
	while (*path != '\0') {
		size_t w;

		while (*path == '/')
			path++;
		if ((w = strcspn(path, "/")) == 0)
			break;
		if (w == 1 && *path == '.') {
			path += w;
			continue;
		}
		if (w == 2 && path[0] == '.' && path[1] == '.') {
			size_t start = n;

			/* out never ends in "/" but for the root "/". */
			while (start > (size_t)abs && out[start - 1] != '/')
				start--;
			if (start < n && !(n - start == 2 &&
			    out[start] == '.' && out[start + 1] == '.')) {
				n = start > (size_t)abs ? start - 1 : start;
				path += w;
				continue;
			}
			if (abs) {
				path += w;
				continue;
			}
		}
		if (n > (size_t)abs)
			out[n++] = '/';
		memcpy(out + n, path, w);
		n += w;
		path += w;
	}
	if (n == 0)
		out[n++] = '.';
	out[n] = '\0';
	return out;
}

/*
 * Find the root, once, before any worker is started (jobs.c): they all
 * write the same names.  Without a current directory there is no root,
 * and every name is only normalised.
 */
void
repo_init(void)
{
	char buf[PATH_MAX], *top;

	if (repo.init)
		return;
	repo.init = 1;
	if (getcwd(buf, sizeof(buf)) == NULL || *buf != '/' ||
	    (repo.cwd = strdup(buf)) == NULL)
		return;
	if ((top = walk_git_top(".")) == NULL)
		top = repo.cwd;
	repo.root = repo_norm(top);
	if (top != repo.cwd)
		free(top);
}

/* The root, an absolute path, or NULL when there is none. */
const char *
repo_root(void)
{
	repo_init();
	return repo.root;
}

/* The part of full (absolute, normalised) below the root, or NULL. */
static const char *
below(const char *full)
{
	size_t n = strlen(repo.root);

	if (n == 1)
		return full[1] != '\0' ? full + 1 : ".";
	if (strncmp(full, repo.root, n) != 0 ||
	    (full[n] != '/' && full[n] != '\0'))
		return NULL;
	return full[n] == '/' ? full + n + 1 : ".";
}

/* name's directory as realpath(3) gives it, then its last segment:
 * the way to the root through a symbolic link or a bind mount. */
static char *
physical(const char *full)
{
	const char *slash = strrchr(full, '/');
	char *dir, *real, *out = NULL;

	if (slash == full || (dir = strndup(full,
	    (size_t)(slash - full))) == NULL)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	if (real != NULL && (out = malloc(strlen(real) +
	    strlen(slash) + 1)) != NULL) {
		strcpy(out, real);
		strcat(out, slash);
	}
	free(real);
	return out;
}

/*
 * The name a CI format writes for input name: below the root, the path
 * from the root (*inside 1); elsewhere, name as given, normalised
 * (*inside 0).  Standard input, "-", stays so.  The caller frees it;
 * NULL when out of memory.
 */
char *
repo_path(const char *name, int *inside)
{
	char *full, *p, *out = NULL;
	const char *rest;

	*inside = 0;
	if (strcmp(name, "-") == 0)
		return strdup(name);
	repo_init();
	if (repo.root == NULL)
		return repo_norm(name);
	if (*name == '/')
		full = repo_norm(name);
	else if ((p = malloc(strlen(repo.cwd) + strlen(name) + 2)) != NULL) {
		strcpy(p, repo.cwd);
		strcat(p, "/");
		strcat(p, name);
		full = repo_norm(p);
		free(p);
	} else
		full = NULL;
	if (full == NULL)
		return NULL;
	if ((rest = below(full)) == NULL && (p = physical(full)) != NULL) {
		free(full);
		full = p;
		rest = below(full);
	}
	if (rest != NULL) {
		*inside = 1;
		out = strdup(rest);
	} else
		out = repo_norm(name);
	free(full);
	return out;
}

/* name (as repo_path gives one outside the root) as an absolute path,
 * normalised; NULL without a current directory or memory. */
char *
repo_abs(const char *name)
{
	char *p, *out;

	if (*name == '/')
		return repo_norm(name);
	repo_init();
	if (repo.cwd == NULL ||
	    (p = malloc(strlen(repo.cwd) + strlen(name) + 2)) == NULL)
		return NULL;
	strcpy(p, repo.cwd);
	strcat(p, "/");
	strcat(p, name);
	out = repo_norm(p);
	free(p);
	return out;
}

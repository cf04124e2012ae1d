/*
 * -r: the walk of a directory tree (xmlsniff(1), Walking), in byte
 * order of names, each regular file it selects handed to a visitor (the
 * command line's input_at), so that the walk knows nothing of what is
 * done with them.
 */
/* d_type of readdir(3), a BSD and Linux extension (DT_UNKNOWN otherwise
 * takes an fstatat). */
#define _DEFAULT_SOURCE
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* Order by name (after the type character). */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

/*
 * Read the entries of directory dp but "." and "..", each as its type
 * ('f', 'd', '?' unknown, 'o' other) then its name, into *names (*n of
 * them; the longest name *longest bytes; *dotgit when one is ".git").
 * Return 0, or the errno that stopped the listing (ENOMEM included).
 */
static int
list_dir(DIR *dp, char ***names, size_t *n, size_t *longest, int *dotgit)
{
	struct dirent *de;
	size_t cap = 0, nlen;

	for (;;) {
		errno = 0;	/* readdir's end and its error look alike */
		if ((de = readdir(dp)) == NULL)
			return errno;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			char **nn = realloc(*names, ncap * sizeof(*nn));

			if (nn == NULL)
				return ENOMEM;
			*names = nn;
			cap = ncap;
		}
		/* The type, from readdir where it knows, ahead of the name. */
		nlen = strlen(de->d_name);
		if (((*names)[*n] = malloc(nlen + 2)) == NULL)
			return ENOMEM;
#ifdef DT_UNKNOWN
		(*names)[*n][0] = (char)(de->d_type == DT_REG ? 'f' :
		    de->d_type == DT_DIR ? 'd' : de->d_type == DT_UNKNOWN ? '?' :
		    'o');
#else
		(*names)[*n][0] = '?';
#endif
		memcpy((*names)[*n] + 1, de->d_name, nlen + 1);
		*dotgit |= strcmp(de->d_name, ".git") == 0;
		if (nlen > *longest)
			*longest = nlen;
		(*n)++;
	}
}

/*
 * -r: the regular files below dir that the walk selects (walk_wanted,
 * and git where dir is in a work tree), in byte order of names; symbolic
 * links, FIFOs, sockets and devices found there are passed over.  The
 * paths of the entries of dir are relative to the walk's root from
 * offset off, to the directory gs lists from offset goff; the top call
 * (parent AT_FDCWD) sets them.  Each file is v's to analyse, and a
 * directory that cannot be read v's to report (wo: what -r selects;
 * no_ignore: --no-ignore).  A directory that holds a .git is a work
 * tree of its own, and git is asked about it.  A directory that cannot
 * be listed whole, for want of memory or a read error, is an unreadable
 * input (the man page's EXIT STATUS): one line, exit status 2, nothing in
 * it is checked, rather than whatever part of it readdir gave first.
 */
void
walk_tree(int parent, const char *leaf, const char *dir, size_t off,
    size_t goff, const struct gitset *gs, const struct walkopts *wo,
    int no_ignore, const struct walkvisit *v)
{
	DIR *dp;
	char **names = NULL, *path = NULL;
	size_t n = 0, i, dlen = strlen(dir), longest = 0, plen = 0;
	int dfd, dotgit = 0, e_list = 0;
	/* dir "": the current directory, its files named without "./" */
	const char *sep = dlen == 0 || dir[dlen - 1] == '/' ? "" : "/";
	const char *shown = dlen > 0 ? dir : ".";
	struct gitset *own = NULL;

	/* Below the top, relative to the parent and never through a link. */
	if ((dfd = openat(parent, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (parent == AT_FDCWD ? 0 : O_NOFOLLOW))) < 0 ||
	    (dp = fdopendir(dfd)) == NULL) {
		v->fail(shown, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return;
	}
	e_list = list_dir(dp, &names, &n, &longest, &dotgit);
	/* One buffer for the path of every entry, each in its turn. */
	if (e_list == 0 && n > 0 &&
	    (path = malloc(dlen + longest + 2)) == NULL)
		e_list = ENOMEM;
	if (e_list != 0) {
		/* The names go first: the report needs memory too. */
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		closedir(dp);
		v->fail(shown, e_list == ENOMEM ? "out of memory listing the "
		    "directory; nothing in it is checked" : strerror(e_list));
		return;
	}
	qsort(names, n, sizeof(*names), name_cmp);
	if (n > 0) {
		plen = dlen + strlen(sep);
		memcpy(path, dir, dlen);
		memcpy(path + dlen, sep, plen - dlen);
	}
	if (parent == AT_FDCWD)
		off = dlen + (*sep != '\0');
	if (!no_ignore && (parent == AT_FDCWD || dotgit)) {
		gs = own = walk_git(shown);
		goff = dlen + (*sep != '\0');
	}
	for (i = 0; i < n; i++) {
		const char *e = names[i] + 1;
		char type = names[i][0];
		struct stat st;

		/* path holds dir and sep already, and room for the longest
		 * name after them. */
		memcpy(path + plen, e, strlen(e) + 1);
		if (type == '?') {
			if (fstatat(dfd, e, &st, AT_SYMLINK_NOFOLLOW) < 0)
				v->fail(path, strerror(errno));
			else
				type = S_ISDIR(st.st_mode) ? 'd' :
				    S_ISREG(st.st_mode) ? 'f' : 'o';
		}
		if ((type == 'd' || type == 'f') &&
		    walk_wanted(wo, path + off, type == 'd') &&
		    (gs == NULL || walk_git_has(gs, path + goff, type == 'd'))) {
			if (type == 'd')
				walk_tree(dfd, e, path, off, goff, gs, wo,
				    no_ignore, v);
			else
				v->file(dfd, e, path);
		}
		free(names[i]);
	}
	free(path);
	free(names);
	walk_git_free(own);
	closedir(dp);
}


/*
 * Optional libraries loaded with dlopen(3) when they are first needed,
 * not linked: a linked library is loaded, and its relocations written,
 * by every process at its start, though most runs never call it
 * (libuchardet, guess_ud.c; zlib and libbrotli, coding.c).  Part of the
 * text layer: only the C library's dlopen and dlsym.  Included by the
 * files whose build has such a library, which then link DL_LIBS.
 */
#ifndef DYNLOAD_H
#define DYNLOAD_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Whether the tests ask, with the environment variable var set to "no",
 * that the library be taken as not loading (testhooks.h). */
static inline int
dl_refused(const char *var)
{
	const char *t = getenv(var);

	return t != NULL && strcmp(t, "no") == 0;
}

/* The first of the n names (an ELF soname, then Mach-O's) that loads,
 * or NULL. */
static inline void *
dl_first(const char *const *names, size_t n)
{
	void *h = NULL;
	size_t i;

	for (i = 0; i < n && h == NULL; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	return h;
}

/* The function name of h into the function pointer at fp (NULL where h
 * has none), through a union: ISO C has no conversion from an object
 * pointer to a function pointer.  Return whether it was found. */
static inline int
dl_fn(void *h, const char *name, void *fp)
{
	union {
		void	*obj;
		void	(*fn)(void);
	} u;

	u.obj = dlsym(h, name);
	memcpy(fp, &u.fn, sizeof(u.fn));
	return u.obj != NULL;
}

/* A function to find in a library: its name, and the function pointer
 * it is stored in. */
struct dl_sym {
	const char	*name;
	void		*fp;
};

/* The first of the n names that loads and has each of the ns functions
 * of s (stored), or NULL (the pointers then undefined). */
static inline void *
dl_load(const char *const *names, size_t n, const struct dl_sym *s,
    size_t ns)
{
	void *h = dl_first(names, n);
	size_t i;

	for (i = 0; h != NULL && i < ns; i++)
		if (!dl_fn(h, s[i].name, s[i].fp)) {
			dlclose(h);
			h = NULL;
		}
	return h;
}

#endif

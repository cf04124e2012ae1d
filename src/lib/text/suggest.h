/*
 * "Did you mean ...?" (suggest.c): the nearest of a list of names to a
 * word that is none of them.  Part of the text layer: it depends on
 * nothing but the C library and keeps no state.
 */
#ifndef SUGGEST_H
#define SUGGEST_H

#include <stddef.h>

const char	*suggest(const char *, const void *, size_t, size_t);
const char	*suggest_list(const char *, const char *const *, size_t, char *,
		    size_t);

#endif

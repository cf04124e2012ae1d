/*
 * --http (coding.c): a body with a content coding, decoded with zlib or
 * libbrotli where the build has them.
 */
#ifndef CODING_H
#define CODING_H

#include "engine.h"

enum coding {
	CODING_NONE,	/* not one decoded here */
	CODING_GZIP,
	CODING_DEFLATE,
	CODING_BR
};

enum coding	 coding_lookup(const char *);
const char	*coding_methods(void);
const char	*coding_built(enum coding, const char **);
int		 coding_plain(enum coding, const unsigned char *, size_t);
int		 coding_decode(enum coding, struct inbuf *, char *, size_t);

#endif

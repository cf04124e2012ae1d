/*
 * --http (coding.c): a body with a content coding, decoded with zlib or
 * libbrotli where the build has them.
 */
#ifndef CODING_H
#define CODING_H

#include "engine.h"
#include "http.h"

enum coding {
	CODING_NONE,	/* not one decoded here */
	CODING_GZIP,
	CODING_DEFLATE,
	CODING_BR
};

const char	*coding_methods(void);
int		 coding_tmp(void);
int		 coding_write(int, const unsigned char *, size_t);
int		 coding_needed(const struct http *, const unsigned char *, size_t);
int		 coding_body(struct inbuf *, struct http *, int, int *);

#endif

/*
 * --http (http.c): the head of an HTTP response, as curl -i or -D -
 * writes it, before the entity that is its body.
 */
#ifndef HTTP_H
#define HTTP_H

#include "core.h"

/* The most bytes the header sections of one input may take, all the
 * responses of a redirect chain together. */
#define HTTP_HEAD_MAX	(64 * 1024)

/* What the head of one response said; only the last response counts. */
struct http {
	size_t		 len;		/* bytes of the head, before the body */
	int		 status;	/* of the last response; 0 when none */
	int		 malformed;	/* no head could be read: len is 0 */
	char		 why[200];	/* ... and why */
	int		 nct;		/* Content-Type fields of the last one */
	char		 ctype[1024];	/* the first one's value, folded lines
					 * joined, without OWS at either end */
	int		 ct_long;	/* ... which did not fit */
	int		 has_mt;	/* mt is the one Content-Type, parsed */
	struct mt	 mt;
	char		 ct_err[200];	/* why it could not be parsed */
	char		 coding[64];	/* a Content-Encoding other than
					 * identity, else "" */
	int		 ncodings;	/* how many codings but identity */
	int		 examined;	/* the body is the entity: decoded
					 * (coding.c) or plain already */
	char		 coding_why[200]; /* why it is not examined */
};

size_t		 http_parse(const unsigned char *, size_t, struct http *);
void		 http_note(const struct http *, struct diags *);

#endif

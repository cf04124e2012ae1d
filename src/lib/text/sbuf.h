/*
 * A string built in memory (sbuf.c): the library's records, summaries
 * and excerpts are made here, never printed (it writes to no stream).
 * Out of memory, a string stays as it was and remembers the failure,
 * which sb_take() reports.
 */
#ifndef SBUF_H
#define SBUF_H

#include <stdarg.h>
#include <stddef.h>

struct sbuf {
	char		*p;		/* NUL-terminated once anything is in */
	size_t		 n, cap;
	int		 nomem;
};

void		 sb_put(struct sbuf *, const void *, size_t);
void		 sb_str(struct sbuf *, const char *);
void		 sb_chr(struct sbuf *, int);
void		 sb_fmt(struct sbuf *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 sb_escaped(struct sbuf *, const char *, int);
void		 sb_json(struct sbuf *, const char *);
void		 sb_json_or_null(struct sbuf *, const char *);
char		*sb_take(struct sbuf *);
void		 sb_free(struct sbuf *);
const char	*sb_errno(int, char *, size_t);
/* errno e's text, in a buffer of the full expression's. */
#define ERRTEXT(e)	sb_errno((e), (char[128]){ 0 }, 128)

#endif

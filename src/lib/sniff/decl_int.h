/*
 * The declaration's readers, private to src/lib/sniff/decl.c (where the
 * declaration stands and what follows it) and declparse.c (what its
 * pseudo-attributes say): the head of an entity as characters, one per
 * code unit, in any Appendix F family.
 */
#ifndef DECL_INT_H
#define DECL_INT_H

#include <string.h>

#include "core.h"

/* The head of an entity as characters, one per code unit. */
struct units {
	enum unit		 u;
	const unsigned char	*p;
	size_t			 n;
	size_t			 start;	/* byte offset of unit 0 */
	int			 usz;
	int			 eof;	/* p[0..n) is the whole entity */
	size_t			 lim;	/* units from 0 that ch() reads: those
					 * before n, at most DECL_MAX * 4 + 1 */
	const unsigned char	*p0;	/* p + start */
};

/* The units of the head p[0..n) from byte start on, in layout u. */
static inline void
units_set(struct units *s, enum unit u, const unsigned char *p, size_t n,
    size_t start, int eof)
{
	size_t usz = (size_t)unit_size(u);

	s->u = u;
	s->p = p;
	s->n = n;
	s->start = start;
	s->usz = (int)usz;
	s->eof = eof;
	s->p0 = p + start;
	/* Unit i is read while start + i * usz < n and i <= DECL_MAX * 4. */
	s->lim = start < n ? (n - start + usz - 1) / usz : 0;
	if (s->lim > DECL_MAX * 4 + 1)
		s->lim = DECL_MAX * 4 + 1;
}

/* In line at each caller: the head of every input is read through it a
 * character at a time. */
__attribute__((always_inline)) static inline long
ch(const struct units *s, size_t i)
{
	if (i >= s->lim)
		return -1;
	/* The layout of nearly every entity read here without the call:
	 * what unit_get (bom.c) gives for it. */
	if (s->u == UNIT_8)
		return s->p0[i] < 0x80 ? s->p0[i] : 0x100;
	return unit_get(s->u, s->p, s->n, s->start + i * (size_t)s->usz);
}

static inline size_t
boff(const struct units *s, size_t i)
{
	return s->start + i * (size_t)s->usz;
}

static inline int
is_s(long c)
{
	return c == 0x20 || c == 0x9 || c == 0xD || c == 0xA;
}

static inline int
is_alpha(long c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int
is_digit(long c)
{
	return c >= '0' && c <= '9';
}

/* Return whether the characters at unit i spell lit (in line, so that
 * lit's length is the compiler's). */
__attribute__((always_inline)) static inline int
at(const struct units *s, size_t i, const char *lit)
{
	/* An ASCII-compatible layout: the bytes are the characters (lit is
	 * ASCII), each before the end and within the limit of ch(). */
	if (s->u == UNIT_8) {
		size_t len = strlen(lit), off = boff(s, i);

		return i + len <= DECL_MAX * 4 + 1 && off <= s->n &&
		    s->n - off >= len && memcmp(s->p + off, lit, len) == 0;
	}
	for (; *lit != '\0'; lit++, i++)
		if (ch(s, i) != (unsigned char)*lit)
			return 0;
	return 1;
}


/* declparse.c: the pseudo-attributes of the declaration at unit 0, after
 * "<?xml", into d: by any layout's characters (decl_parse), or, in an
 * ASCII-compatible layout, by its bytes when nothing in it is wrong
 * (decl_parse8: 0 when something is, d untouched). */
void		 decl_parse(struct decl *, const struct units *);
int		 decl_parse8(struct decl *, const struct units *);

#endif /* DECL_INT_H */

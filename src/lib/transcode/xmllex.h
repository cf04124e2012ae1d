/*
 * Where a character reference may stand (xmllex.c), for --fallback=ncr:
 * XML 1.0 sections 2.3-2.8, 3.1 and 4.1.
 */
#ifndef XMLLEX_H
#define XMLLEX_H

#include <stddef.h>
#include <stdint.h>

/* Where a character stands, for --fallback=ncr (XML 1.0 section 4.1: a
 * character reference is allowed in content and attribute values only). */
enum lex {
	L_TEXT,		/* character data */
	L_LT,		/* after "<" */
	L_BANG,		/* after "<!" */
	L_BANG_DASH,	/* after "<!-" */
	L_BANG_BRACKET,	/* after "<![", matching "CDATA[" */
	L_TAG,		/* in a start or end tag, outside values */
	L_ATTR,		/* in an attribute value */
	L_COMMENT,
	L_PI,
	L_CDATA,
	L_DECL,		/* in <!DOCTYPE ...> or another markup declaration */
	L_DECL_QUOTE,	/* in a quoted literal of a markup declaration */
	L_SUBSET	/* in the internal subset, between declarations */
};

/* The lexical context; all zero is the start of a document entity. */
struct xlex {
	enum lex	 lex;
	int		 subset;	/* in the internal subset */
	int		 dtd;		/* an external subset: markup ends
					 * between declarations */
	uint32_t	 quote;
	unsigned	 match;		/* progress through a literal */
	/* In a markup declaration: its keyword and whether SYSTEM or PUBLIC
	 * came, which decide whether a quoted literal takes references. */
	char		 word[12];
	unsigned	 wlen, nwords;
	int		 dkind;		/* 'A' ATTLIST, 'E' ENTITY */
	int		 dext;
	int		 lit_ok;
	int		 xml11;		/* the entity is XML 1.1 */
	/* The last character for which no reference may stand because the
	 * parser reads it literally as another (a line end, a space), or
	 * 0: xlex() says. */
	uint32_t	 norm;
};

void		 xlex_dtd(struct xlex *);
int		 xlex(struct xlex *, uint32_t);
size_t		 xlex_skip(struct xlex *, const unsigned char *, size_t,
		    size_t);
void		 xlex_bytes(struct xlex *, const unsigned char *, size_t,
		    const uint32_t *);
void		 xlex_chars(struct xlex *, const unsigned char *, size_t);
void		 xlex_utf8(struct xlex *, const unsigned char *, size_t);
const char	*xlex_where(const struct xlex *);

#endif

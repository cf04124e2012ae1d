/*
 * The parts of --transcode-to (transcode.c) that live in their own files:
 * the lexer that says where a character reference may stand (xmllex.c),
 * what the target's iconv converter can do (iconvcap.c) and the
 * destination that is replaced only when finished (dest.c).  Internal to
 * those files and the unit driver; src/xmlsniff.h has the rest.
 */
#ifndef TRANSCODE_H
#define TRANSCODE_H

#include <iconv.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* xmllex.c */

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
	uint32_t	 quote;
	unsigned	 match;		/* progress through a literal */
	/* In a markup declaration: its keyword and whether SYSTEM or PUBLIC
	 * came, which decide whether a quoted literal takes references. */
	char		 word[12];
	unsigned	 wlen, nwords;
	int		 dkind;		/* 'A' ATTLIST, 'E' ENTITY */
	int		 dext;
	int		 lit_ok;
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

/* iconvcap.c */

/*
 * What the iconv target (UTF-32LE in, the target out) can do, each answer
 * found once and kept: which characters survive a round trip, which ASCII
 * it writes as the same byte, and, for a single-byte target, the byte of
 * each character it has.
 */
struct icap {
	iconv_t		 enc, dec;	/* to and from the target */
	unsigned char	 tested[65536 / 8];
	unsigned char	 good[65536 / 8];
	/* ASCII characters the target writes as the same byte. */
	unsigned char	 ident[128];
	int		 ident_all;	/* TAB, LF, 0x20-0x7F all are */
	/* A single-byte target: the byte of each BMP character it writes
	 * and reads back the same, when sb_has says it has one. */
	int		 sbt;
	unsigned char	 sb_has[65536 / 8];
	unsigned char	 sb_byte[65536];
};

int		 icap_open(struct icap *, const char *);
void		 icap_close(struct icap *);
int		 icap_rt(struct icap *, uint32_t);
void		 icap_probe(struct icap *);
int		 icap_writes_bom(const char *);

/* Whether character c survives the target, from the kept answers when
 * there are any (icap_rt otherwise). */
static inline int
icap_known(struct icap *ic, uint32_t c)
{
	if (c < 0x10000 && (ic->tested[c >> 3] & (1 << (c & 7))))
		return (ic->good[c >> 3] & (1 << (c & 7))) != 0;
	return icap_rt(ic, c);
}

/* dest.c */

struct sniff;
struct xopts;

/* Where the output goes: standard output or a non-regular file directly
 * (direct), a regular file by way of a temporary file beside it. */
struct dest {
	int		 fd;
	int		 direct;
	const char	*name;		/* as given, for messages */
	char		 real[PATH_MAX];	/* where a link points */
};

int		 dest_open(struct dest *, const char *);
int		 dest_compare(struct dest *, int, const struct sniff *,
		    const struct xopts *);
int		 dest_close(struct dest *, int, int);
int		 dest_error(const char *, const char *);

#endif

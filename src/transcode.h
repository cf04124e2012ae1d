/*
 * The parts of --transcode-to: the target and its declaration (target.c),
 * the lexer that says where a character reference may stand (xmllex.c),
 * what the target's iconv converter can do (iconvcap.c), the transcoder
 * (transcode.c) and its iconv side (iconvout.c), and the destination that
 * is replaced only when finished (dest.c).  Internal to those files and
 * the unit driver; src/xmlsniff.h has the rest.
 */
#ifndef TRANSCODE_H
#define TRANSCODE_H

#include <iconv.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xmlsniff.h"

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

/* target.c (and target_resolve in xmlsniff.h) */

/* What target_decl may add to a declaration: a name, " encoding=" and
 * quotes, or a whole declaration. */
#define TARGET_DECL_SLACK	(sizeof(((struct xopts *)0)->declname) + 32)

int		 target_form(enum tkind);
size_t		 target_put(enum tkind, uint32_t, unsigned char *);
int		 target_decl_ok(const struct sniff *);
size_t		 target_decl(const struct xopts *, const struct decl *,
		    size_t, const uint32_t *, size_t, uint32_t *);

/* transcode.c */

#define OBUF_SIZE	(128 * 1024)
#define PEND_MAX	4096		/* characters queued for iconv */
#define BULK_MAX	4096		/* characters converted at once */

/* One transcode: where it stands and what it has still to write. */
struct xc {
	const struct xopts	*xo;
	const struct sniff	*s;
	struct diags		*dg;
	int			 fd;
	int			 failed;	/* 1 unfaithful, 2 I/O error */
	int			 werrno;
	size_t			 on;
	unsigned char		 obuf[OBUF_SIZE];
	/* The target through iconv. */
	iconv_t			 cd;
	struct icap		 ic;		/* what it can do */
	size_t			 np;
	unsigned char		 pb[PEND_MAX * 4];	/* UTF-32LE */
	unsigned char		 pok[PEND_MAX];
	uint64_t		 poff[PEND_MAX], pline[PEND_MAX];
	uint64_t		 pcol[PEND_MAX];
	/* The declaration, held until it is complete. */
	int			 started;
	size_t			 ndecl;
	uint32_t		 decl[DECL_MAX];
	/* ... and as it is written (target_decl). */
	uint32_t		 dout[DECL_MAX + TARGET_DECL_SLACK];
	struct xlex		 lx;		/* the lexical context */
	/* A single-byte source: its table, and each byte in UTF-8. */
	const uint32_t		*sbmap;
	unsigned char		 sb8[256][4];	/* the bytes, then the length */
	int			 sb_ascii;	/* bytes below 0x80 are ASCII */
	/* Plain runs for an iconv target, as UTF-32LE (BULK_MAX characters
	 * at most at a time). */
	unsigned char		 ubuf[4 * BULK_MAX + CONV_SLACK];
	/* ... and a single-byte source: each source byte's byte, when
	 * xlat_ok says it has one; bytes from 0x80 up are not ASCII, so
	 * xlex_skip may pass over source bytes (xlat_on). */
	int			 xlat_on;
	unsigned char		 xlat[256], xlat_ok[256];
};

void		 xc_flush(struct xc *);

/* Room for need bytes at the end of the output buffer. */
static inline unsigned char *
out_room(struct xc *x, size_t need)
{
	if (OBUF_SIZE - x->on < need)
		xc_flush(x);
	return x->obuf + x->on;
}

static inline void
out_bytes(struct xc *x, const void *p, size_t n)
{
	const unsigned char *q = p;

	while (n > 0) {
		size_t k = OBUF_SIZE - x->on < n ? OBUF_SIZE - x->on : n;

		memcpy(x->obuf + x->on, q, k);
		x->on += k;
		q += k;
		n -= k;
		if (x->on == OBUF_SIZE)
			xc_flush(x);
	}
}

/* iconvout.c */

void		 iout_char(struct xc *, uint32_t, int, uint64_t, uint64_t,
		    uint64_t);
void		 iout_drain(struct xc *);
size_t		 iout_run(struct xc *, const unsigned char *, size_t, int);
void		 iout_end(struct xc *);

#endif

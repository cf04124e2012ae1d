/*
 * Transcoding (--transcode-to).  The entity is decoded with its
 * authoritative encoding (by the validator, which sends each character
 * here) and written in the target with exactly the BOM and declaration
 * that RFC 7303 section 3.3 and XML 1.0 section 4.3.3 require.  Output to
 * a file goes through a temporary file renamed over it on success only.
 */
/* realpath(3) is XSI. */
#define _XOPEN_SOURCE 700

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmlsniff.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define OBUF_SIZE	(128 * 1024)
#define PEND_MAX	4096		/* characters queued for iconv */
#define BULK_MAX	4096		/* characters converted at once */

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
	iconv_t			 rt_enc, rt_dec;	/* round-trip checks */
	unsigned char		 rt_tested[65536 / 8];
	unsigned char		 rt_good[65536 / 8];
	size_t			 np;
	unsigned char		 pb[PEND_MAX * 4];	/* UTF-32LE */
	unsigned char		 pok[PEND_MAX];
	uint64_t		 poff[PEND_MAX], pline[PEND_MAX];
	uint64_t		 pcol[PEND_MAX];
	/* The declaration, held until it is complete. */
	int			 started;
	size_t			 ndecl;
	uint32_t		 decl[DECL_MAX];
	/* The lexical context. */
	enum lex		 lex;
	int			 subset;	/* in the internal subset */
	uint32_t		 quote;
	unsigned		 match;		/* progress through a literal */
	/* In a markup declaration: its keyword and whether SYSTEM or PUBLIC
	 * came, which decide whether a quoted literal takes references. */
	char			 word[12];
	unsigned		 wlen, nwords;
	int			 dkind;		/* 'A' ATTLIST, 'E' ENTITY */
	int			 dext;
	int			 lit_ok;
	/* A single-byte source: its table, and each byte in UTF-8. */
	const uint32_t		*sbmap;
	unsigned char		 sb8[256][4];	/* the bytes, then the length */
	int			 sb_ascii;	/* bytes below 0x80 are ASCII */
	/* Plain runs for an iconv target, as UTF-32LE (BULK_MAX characters
	 * at most at a time). */
	unsigned char		 ubuf[4 * BULK_MAX + CONV_SLACK];
	/* A single-byte iconv target: the byte of each BMP character it
	 * writes and reads back the same, when sb_has says it has one. */
	int			 sbt;
	unsigned char		 sb_has[65536 / 8];
	unsigned char		 sb_byte[65536];
	/* ... and a single-byte source: each source byte's byte, when
	 * xlat_ok says it has one; bytes from 0x80 up are not ASCII, so
	 * lex_skip may pass over source bytes (xlat_on). */
	int			 xlat_on;
	unsigned char		 xlat[256], xlat_ok[256];
	/* ASCII characters the iconv target writes as the same byte. */
	unsigned char		 ident[128];
	int			 ident_all;	/* TAB, LF, 0x20-0x7F all are */
};

/* The temporary file, removed by the signal handler. */
static volatile sig_atomic_t tmp_active;
static char tmp_path[PATH_MAX];

static void
on_signal(int sig)
{
	if (tmp_active)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The signals that end the process, caught and held off alike. */
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM,
    SIGUSR1, SIGUSR2, SIGPIPE };

/* Nothing is lost: the signals that end the process remove the temporary
 * file first. */
void
transcode_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* A signal ignored on entry (a background job's SIGINT, a
		 * caller's SIGPIPE) stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	/* Over a file size limit, write(2) fails with EFBIG and the normal
	 * clean-up runs, instead of a silent death. */
	signal(SIGXFSZ, SIG_IGN);
}

/* The signals that end the process: held off while the temporary file
 * comes into being and is recorded, and while it is renamed. */
static void
hold_signals(int hold, sigset_t *old)
{
	sigset_t set;
	size_t i;

	if (hold) {
		sigemptyset(&set);
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaddset(&set, sigs[i]);
		sigprocmask(SIG_BLOCK, &set, old);
	} else
		sigprocmask(SIG_SETMASK, old, NULL);
}

/* Return whether iconv, writing "<" in name, starts with a BOM. */
static int
writes_bom(const char *name)
{
	iconv_t cd = iconv_open(name, "UTF-8");
	char in[] = "<", out[16], *ip = in, *op = out;
	size_t il = 1, ol = sizeof(out), len;
	int bom = 0;

	if (cd == (iconv_t)-1)
		return 0;
	if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1) {
		len = sizeof(out) - ol;
		bom = (len >= 2 && ((unsigned char)out[0] == 0xFE &&
		    (unsigned char)out[1] == 0xFF)) || (len >= 2 &&
		    (unsigned char)out[0] == 0xFF &&
		    (unsigned char)out[1] == 0xFE) || (len >= 3 &&
		    memcmp(out, "\xEF\xBB\xBF", 3) == 0) || (len >= 4 &&
		    memcmp(out, "\0\0\xFE\xFF", 4) == 0);
	}
	iconv_close(cd);
	return bom;
}

/*
 * Resolve the target label: the registry name and how it is written.
 * RFC 7303 section 3.3: UTF-16 and UTF-32 carry a BOM (big-endian unless
 * le), their byte-order forms never do, and anything but UTF-8 and
 * UTF-16/32-with-BOM must declare its encoding.  Return -1 with the reason
 * in err for an unknown target or one iconv cannot write.
 */
int
target_resolve(const char *label, int le, int utf8_bom, struct xopts *xo,
    char *err, size_t errsize)
{
	struct enc *e = &xo->to;
	const char *n;

	memset(xo, 0, sizeof(*xo));
	if (enc_lookup(label, e) < 0) {
		snprintf(err, errsize, "\"%s\" is not an encoding that the IANA "
		    "registry or this system's iconv knows", label);
		return -1;
	}
	n = e->name;
	snprintf(xo->declname, sizeof(xo->declname), "%s", n);
	xo->need_decl = 1;
	if (strcmp(n, "UTF-8") == 0) {
		xo->kind = T_UTF8;
		xo->bom = utf8_bom;
		xo->need_decl = 0;
	} else if (strcmp(n, "UTF-16") == 0) {
		xo->kind = le ? T_UTF16LE : T_UTF16BE;
		xo->bom = 1;
		xo->need_decl = 0;
	} else if (strcmp(n, "UTF-16BE") == 0)
		xo->kind = T_UTF16BE;
	else if (strcmp(n, "UTF-16LE") == 0)
		xo->kind = T_UTF16LE;
	else if (strcmp(n, "UTF-32") == 0) {
		/* XML 1.0 section 4.3.3: neither UTF-8 nor UTF-16, so the
		 * declaration is required, BOM or not. */
		xo->kind = le ? T_UTF32LE : T_UTF32BE;
		xo->bom = 1;
	} else if (strcmp(n, "UTF-32BE") == 0)
		xo->kind = T_UTF32BE;
	else if (strcmp(n, "UTF-32LE") == 0)
		xo->kind = T_UTF32LE;
	else if (strcmp(n, "ISO-10646-UCS-4") == 0)
		/* Not UTF-32: no BOM, big-endian as ISO/IEC 10646 reads
		 * unmarked text, and the declaration that names it (RFC
		 * 7303 section 3.3, XML 1.0 section 4.3.3). */
		xo->kind = T_UTF32BE;
	else if (strcmp(n, "ISO-10646-UCS-2") == 0) {
		/* Likewise; what is above U+FFFF is unrepresentable. */
		xo->kind = T_ICONV;
		snprintf(xo->iconv, sizeof(xo->iconv), "UCS-2BE");
	} else {
		xo->kind = T_ICONV;
		snprintf(xo->iconv, sizeof(xo->iconv), "%s", enc_iconv(e));
	}
	if (xo->kind == T_ICONV && !enc_iconv_ok(xo->iconv)) {
		snprintf(err, errsize, "this system's iconv cannot write %s", n);
		return -1;
	}
	/* RFC 7303 section 3.3: "anything else" never begins with a BOM;
	 * a converter that writes one of its own (UCS-2 in some iconvs;
	 * glibc's UNICODE is looked up as ISO-10646-UCS-2 before this)
	 * cannot be used. */
	if (xo->kind == T_ICONV && !xo->bom && writes_bom(xo->iconv)) {
		snprintf(err, errsize, "iconv writes a byte order mark of its "
		    "own for %s; use UTF-16 or UTF-32", n);
		return -1;
	}
	return 0;
}

static void
out_flush(struct xc *x)
{
	size_t done = 0;

	while (done < x->on && x->failed != 2) {
		ssize_t w = write(x->fd, x->obuf + done, x->on - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			x->werrno = errno;
			x->failed = 2;
			break;
		}
		done += (size_t)w;
	}
	x->on = 0;
}

static void
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
			out_flush(x);
	}
}

static void
unrepresentable(struct xc *x, uint32_t c, uint64_t off, uint64_t line,
    uint64_t col, int ncr_possible)
{
	/* Where c stands: the state the lexer is in once it has read c. */
	static const char *const where[] = {
		[L_TEXT] = "character data",
		[L_LT] = "the markup after \"<\"",
		[L_BANG] = "the opening of a comment or markup declaration",
		[L_BANG_DASH] = "the opening of a comment",
		[L_BANG_BRACKET] = ("the opening \"<![CDATA[\" of a CDATA "
		    "section"),
		[L_TAG] = "a name", [L_ATTR] = "an attribute value",
		[L_COMMENT] = "a comment",
		[L_PI] = "a processing instruction",
		[L_CDATA] = "a CDATA section",
		[L_DECL] = "a markup declaration",
		[L_DECL_QUOTE] = "a markup declaration",
		[L_SUBSET] = "the internal subset",
	};
	const char *w = x->lex < sizeof(where) / sizeof(where[0]) &&
	    where[x->lex] != NULL ? where[x->lex] : "the markup";

	if (x->failed)
		return;
	x->failed = 1;
	if (c == '&' && !ncr_possible && (x->lex == L_TEXT ||
	    x->lex == L_ATTR))
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "%s cannot "
		    "write \"&\", so not even a character reference can stand "
		    "for a character it lacks; choose another target",
		    x->xo->to.name);
	else if (ncr_possible)
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "U+%04X "
		    "cannot be written in %s; use --fallback=ncr to write "
		    "&#x%X; or choose a target that has it", (unsigned)c,
		    x->xo->to.name, (unsigned)c);
	else
		diag_add(x->dg, D_UNREPRESENTABLE, off, line, col, "U+%04X in "
		    "%s cannot be written in %s, and XML allows no character "
		    "reference there; choose a target that has it",
		    (unsigned)c, w, x->xo->to.name);
}

/* Convert the queued characters through iconv; on one the target lacks,
 * write a character reference where allowed, else fail. */
static void
drain(struct xc *x)
{
	unsigned char tmp[PEND_MAX * 4];
	size_t k = 0;

	while (k < x->np && !x->failed) {
		char *ip = (char *)x->pb + 4 * k, *op = (char *)tmp;
		size_t il = 4 * (x->np - k), ol = sizeof(tmp);
		size_t r = iconv(x->cd, &ip, &il, &op, &ol);
		int e = errno;

		out_bytes(x, tmp, (size_t)(op - (char *)tmp));
		k = (size_t)(ip - (char *)x->pb) / 4;
		if (r != (size_t)-1 && r > 0) {
			/* musl and others substitute instead of failing. */
			x->failed = 1;
			diag_add(x->dg, D_UNREPRESENTABLE, x->poff[0],
			    x->pline[0], x->pcol[0], "iconv replaced %zu "
			    "characters that %s lacks; nothing was written",
			    r, x->xo->to.name);
			break;
		}
		if (r != (size_t)-1 || e == E2BIG)
			continue;
		{
			const unsigned char *b = x->pb + 4 * k;
			uint32_t c = load_le32(b);

			if (e == EILSEQ && x->xo->fallback == FB_NCR &&
			    x->pok[k]) {
				char ref[16];
				unsigned char rb[64];
				int i, len = snprintf(ref, sizeof(ref),
				    "&#x%04X;", (unsigned)c);

				for (i = 0; i < len; i++) {
					rb[4 * i] = (unsigned char)ref[i];
					rb[4 * i + 1] = rb[4 * i + 2] =
					    rb[4 * i + 3] = 0;
				}
				ip = (char *)rb;
				il = 4 * (size_t)len;
				op = (char *)tmp;
				ol = sizeof(tmp);
				if (iconv(x->cd, &ip, &il, &op, &ol) ==
				    (size_t)-1) {
					unrepresentable(x, '&', x->poff[k],
					    x->pline[k], x->pcol[k], 0);
					break;
				}
				out_bytes(x, tmp, (size_t)(op - (char *)tmp));
				k++;
				continue;
			}
			unrepresentable(x, c, x->poff[k], x->pline[k],
			    x->pcol[k], x->pok[k]);
		}
	}
	x->np = 0;
}

/*
 * Return whether character c survives the target: iconv writes it, and
 * reading those bytes back gives c again.  glibc's Shift_JIS, for one,
 * writes U+007E and U+005C as bytes that it reads back as U+203E and
 * U+00A5 without reporting a loss, so success alone proves nothing.  The
 * answer for each BMP character is computed once and kept.
 */
static int
rt_ok(struct xc *x, uint32_t c)
{
	unsigned char in[4], mid[32], back[16];
	char *ip, *op;
	size_t il, ol, m;
	int ok = 0;

	if (c < 0x10000 && (x->rt_tested[c >> 3] & (1 << (c & 7))))
		return (x->rt_good[c >> 3] & (1 << (c & 7))) != 0;
	in[0] = (unsigned char)c;
	in[1] = (unsigned char)(c >> 8);
	in[2] = (unsigned char)(c >> 16);
	in[3] = (unsigned char)(c >> 24);
	iconv(x->rt_enc, NULL, NULL, NULL, NULL);
	iconv(x->rt_dec, NULL, NULL, NULL, NULL);
	ip = (char *)in;
	il = 4;
	op = (char *)mid;
	ol = sizeof(mid);
	if (iconv(x->rt_enc, &ip, &il, &op, &ol) == 0 &&
	    iconv(x->rt_enc, NULL, NULL, &op, &ol) == 0) {
		m = sizeof(mid) - ol;
		ip = (char *)mid;
		il = m;
		op = (char *)back;
		ol = sizeof(back);
		ok = iconv(x->rt_dec, &ip, &il, &op, &ol) == 0 && il == 0 &&
		    iconv(x->rt_dec, NULL, NULL, &op, &ol) == 0 &&
		    sizeof(back) - ol == 4 && memcmp(back, in, 4) == 0;
	}
	if (c < 0x10000) {
		x->rt_tested[c >> 3] |= (unsigned char)(1 << (c & 7));
		if (ok)
			x->rt_good[c >> 3] |= (unsigned char)(1 << (c & 7));
	}
	return ok;
}

/* Room for need bytes at the end of the output buffer. */
static unsigned char *
out_room(struct xc *x, size_t need)
{
	if (OBUF_SIZE - x->on < need)
		out_flush(x);
	return x->obuf + x->on;
}

/* The run form (RUN_...) a Unicode target writes. */
static int
target_form(enum tkind k)
{
	switch (k) {
	case T_UTF8:
		return RUN_UTF8;
	case T_UTF16BE:
		return RUN_UTF16BE;
	case T_UTF16LE:
		return RUN_UTF16LE;
	case T_UTF32BE:
		return RUN_UTF32BE;
	default:
		return RUN_UTF32LE;
	}
}

/* A plain run p[0..n) (whole, valid characters) in form from, written in
 * the Unicode target (conv.c), in pieces that fit the output buffer. */
static void
unicode_to(struct xc *x, const unsigned char *p, size_t n, int from)
{
	int to = target_form(x->xo->kind);

	while (n > 0) {
		size_t m = conv_cut(from, p, n, OBUF_SIZE / 8);
		unsigned char *o = out_room(x, conv_room(from, to, m));

		x->on += conv_run(from, to, p, m, o);
		p += m;
		n -= m;
	}
}

static int lex(struct xc *, uint32_t);
static void emit(struct xc *, uint32_t, int, uint64_t, uint64_t, uint64_t);

/* Bytes p[0..n) of the single-byte source in a Unicode target. */
static void
sb_to(struct xc *x, const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (x->xo->kind != T_UTF8) {
		/* Single-byte encodings stay in the BMP. */
		int to = target_form(x->xo->kind), be = to == RUN_UTF16BE ||
		    to == RUN_UTF32BE, w = to == RUN_UTF16BE ||
		    to == RUN_UTF16LE ? 2 : 4;

		while (i < n) {
			size_t chunk = n - i < OBUF_SIZE / 8 ? n - i :
			    OBUF_SIZE / 8;
			unsigned char *o = out_room(x, (size_t)w * chunk);

			memset(o, 0, (size_t)w * chunk);
			for (; chunk > 0; chunk--, i++, o += w) {
				uint32_t c = x->sbmap[p[i]];

				o[be ? w - 2 : 1] = (unsigned char)(c >> 8);
				o[be ? w - 1 : 0] = (unsigned char)c;
			}
			x->on = (size_t)(o - x->obuf);
		}
		return;
	}
	while (i < n) {
		size_t chunk = n - i < OBUF_SIZE / 4 ? n - i : OBUF_SIZE / 4;
		unsigned char *o = out_room(x, 3 * chunk + 8);

		for (; chunk > 0; chunk--, i++) {
			const unsigned char *e = x->sb8[p[i]];
			uint64_t w;

			/* Eight ASCII bytes that stand for themselves. */
			if (x->sb_ascii && chunk >= 8 && (memcpy(&w, p + i, 8),
			    (w & 0x8080808080808080ULL) == 0)) {
				memcpy(o, &w, 8);
				o += 8;
				i += 7;
				chunk -= 7;
				continue;
			}

			/* The bytes and (past them, to be overwritten) the
			 * length, in one store. */
			memcpy(o, e, 4);
			o += e[3];
		}
		x->on = (size_t)(o - x->obuf);
	}
}

/*
 * The characters that can change the lexical context in its present state
 * (up to three; 0x110000, no character, for the others), so that runs of
 * any other can be passed over; or 0 when the next character must go to
 * lex() whatever it is.  Passing over never leaves a partial match of
 * "-->", "?>" or "]]>" behind: it happens only with none under way.
 */
static int
lex_stops(const struct xc *x, uint32_t stop[3])
{
	stop[1] = stop[2] = 0x110000;
	switch (x->lex) {
	case L_TEXT:
		stop[0] = '<';
		return 1;
	case L_ATTR:
	case L_DECL_QUOTE:
		stop[0] = x->quote;
		return 1;
	case L_COMMENT:
	case L_PI:
	case L_CDATA:
		/* Right after "-", "?" or "]", the next character decides. */
		if (x->match > 0)
			return 0;
		stop[0] = x->lex == L_COMMENT ? '-' : x->lex == L_PI ? '?' : ']';
		return 1;
	case L_TAG:
		stop[0] = '"';
		stop[1] = '\'';
		stop[2] = '>';
		return 1;
	default:
		return 0;
	}
}

/* The next byte of p[j..m) (UTF-8 or ASCII-compatible single-byte text)
 * that can change the lexical context, or m. */
static size_t
lex_skip(struct xc *x, const unsigned char *p, size_t j, size_t m)
{
	const unsigned char *q;
	uint32_t stop[3];
	size_t k;

	if (!lex_stops(x, stop))
		return j;
	if (stop[1] == 0x110000) {
		q = j < m ? memchr(p + j, (int)stop[0], m - j) : NULL;
		return q == NULL ? m : (size_t)(q - p);
	}
	for (k = j; k < m && p[k] != stop[0] && p[k] != stop[1] &&
	    p[k] != stop[2]; k++)
		;
	return k;
}

/* Whether character c survives the target, from the kept answers when
 * there are any (rt_ok otherwise). */
static inline int
rt_known(struct xc *x, uint32_t c)
{
	if (c < 0x10000 && (x->rt_tested[c >> 3] & (1 << (c & 7))))
		return (x->rt_good[c >> 3] & (1 << (c & 7))) != 0;
	return rt_ok(x, c);
}

/*
 * The lexical context after the characters u[0..nc) (UTF-32LE): lex() for
 * each, except that runs which cannot change it are passed over (as
 * lex_skip does for bytes).
 */
static void
lex_chars(struct xc *x, const unsigned char *u, size_t nc)
{
	size_t j = 0, k;

	while (j < nc) {
		uint32_t stop[3];

		if (!lex_stops(x, stop)) {
			lex(x, load_le32(u + 4 * j++));
			continue;
		}
		k = j + conv_find32(u + 4 * j, nc - j, stop[0], stop[1],
		    stop[2]);
		if (k == nc)
			break;
		lex(x, load_le32(u + 4 * k));
		j = k + 1;
	}
}

/* The lexical context after the UTF-8 characters p[0..n): as lex_chars,
 * passing over bytes with lex_skip. */
static void
lex_utf8(struct xc *x, const unsigned char *p, size_t n)
{
	size_t j;

	for (j = lex_skip(x, p, 0, n); j < n; j = lex_skip(x, p, j, n)) {
		uint32_t c = p[j];
		int r = 1;

		if (c >= 0x80)
			r = utf8_dec(p + j, n - j, &c);
		lex(x, c);
		j += (size_t)(r > 0 ? r : 1);
	}
}

/* The bytes of the first k characters of p (form). */
static size_t
chars_bytes(const unsigned char *p, size_t k, int form)
{
	size_t i = 0;

	if (form == RUN_UTF32LE || form == RUN_UTF32BE)
		return 4 * k;
	if (form == RUN_SB)
		return k;
	while (k-- > 0) {
		if (form == RUN_UTF8)
			i += p[i] < 0x80 ? 1 : p[i] < 0xE0 ? 2 : p[i] < 0xF0 ?
			    3 : 4;
		else
			i += (p[i + (form == RUN_UTF16LE)] & 0xFC) == 0xD8 ? 4 :
			    2;
	}
	return i;
}

/* The first k of the nc characters of the block q[0..m) (form; in
 * x->ubuf as UTF-32LE) are written: follow the lexical context through
 * them, and return their bytes. */
static size_t
written(struct xc *x, const unsigned char *q, size_t m, size_t k, size_t nc,
    int form)
{
	if (k < nc)
		m = chars_bytes(q, k, form);
	if (form == RUN_UTF8)
		lex_utf8(x, q, m);
	else
		lex_chars(x, x->ubuf, k);
	return m;
}

/*
 * A plain run p[0..n) (form RUN_UTF8, RUN_UTF16BE/LE, RUN_UTF32BE/LE or
 * RUN_SB) in an iconv target.  ASCII that the target writes as it is goes out as
 * it is; the rest is converted through iconv in blocks, up to the first
 * character the target lacks (which the validator then passes a
 * character at a time, with its position, for the diagnostic or the
 * reference).  Return the bytes taken.
 */
static size_t
iconv_run(struct xc *x, const unsigned char *p, size_t n, int form)
{
	size_t done = 0, want = 64;

	/* Queued characters come first. */
	drain(x);
	while (done < n && !x->failed) {
		const unsigned char *q = p + done;
		size_t m, nb, nc, k;

		if ((form == RUN_UTF8 || (form == RUN_SB && x->sb_ascii)) &&
		    q[0] < 0x80 && x->ident[q[0]]) {
			unsigned char tmp[64];
			char *op = (char *)tmp;
			size_t ol = sizeof(tmp), j;

			if (x->ident_all) {
				/* Only TAB, LF and 0x20-0x7F below 0x80
				 * here, all written as they are. */
				for (m = 0; m + 8 <= n - done; m += 8) {
					uint64_t w;

					memcpy(&w, q + m, 8);
					if (w & 0x8080808080808080ULL)
						break;
				}
				while (m < n - done && q[m] < 0x80)
					m++;
			} else
				for (m = 0; m < n - done && q[m] < 0x80 &&
				    x->ident[q[m]]; m++)
					;
			/* Back to the initial shift state, in which the
			 * ASCII is written as it is. */
			iconv(x->cd, NULL, NULL, &op, &ol);
			out_bytes(x, tmp, (size_t)(op - (char *)tmp));
			out_bytes(x, q, m);
			for (j = lex_skip(x, q, 0, m); j < m;
			    j = lex_skip(x, q, j + 1, m))
				lex(x, q[j]);
			done += m;
			continue;
		}
		if (form == RUN_SB && x->xlat_on) {
			/* Single-byte to single-byte: byte for byte. */
			size_t j, len = n - done < BULK_MAX ? n - done : BULK_MAX;
			unsigned char *o = out_room(x, len);

			for (k = 0; k < len && x->xlat_ok[q[k]]; k++)
				o[k] = x->xlat[q[k]];
			x->on += k;
			for (j = lex_skip(x, q, 0, k); j < k;
			    j = lex_skip(x, q, j + 1, k))
				lex(x, x->sbmap[q[j]]);
			done += k;
			if (k < len)
				break;
			continue;
		}
		/* A block, growing: a run that stops at once costs little. */
		if (form == RUN_SB) {
			m = n - done < want ? n - done : want;
			for (k = 0; k < m; k++) {
				uint32_t c = x->sbmap[q[k]];

				x->ubuf[4 * k] = (unsigned char)c;
				x->ubuf[4 * k + 1] = (unsigned char)(c >> 8);
				x->ubuf[4 * k + 2] = x->ubuf[4 * k + 3] = 0;
			}
			nc = m;
		} else {
			m = conv_cut(form, q, n - done, want);
			nb = conv_run(form, RUN_UTF32LE, q, m, x->ubuf);
			nc = nb / 4;
		}
		if (want < BULK_MAX)
			want *= 4;
		if (x->sbt) {
			/* From the table, up to a character it lacks. */
			unsigned char *o = out_room(x, nc);

			for (k = 0; k < nc; k++) {
				uint32_t c = load_le32(x->ubuf + 4 * k);

				if (c >= 0x10000 ||
				    !(x->sb_has[c >> 3] & (1 << (c & 7))))
					break;
				o[k] = x->sb_byte[c];
			}
			x->on += k;
			done += written(x, q, m, k, nc, form);
			if (k < nc)
				break;
			continue;
		}
		for (k = 0; k < nc; k++) {
			uint32_t c = load_le32(x->ubuf + 4 * k);

			/* Known good (the usual case) in one test. */
			if (c < 0x10000 && (x->rt_good[c >> 3] & (1 << (c & 7))))
				continue;
			if (!rt_known(x, c))
				break;
		}
		if (k > 0) {
			char *ip = (char *)x->ubuf, *op;
			size_t il = 4 * k, ol, r = 0;

			while (il > 0) {
				op = (char *)out_room(x, OBUF_SIZE / 2);
				ol = OBUF_SIZE / 2;
				r = iconv(x->cd, &ip, &il, &op, &ol);
				x->on = (size_t)((unsigned char *)op - x->obuf);
				if (r == (size_t)-1 && errno == E2BIG)
					continue;
				break;
			}
			if (r != (size_t)-1 && r > 0) {
				/* Substituted despite the round trip: say so
				 * rather than write it. */
				x->failed = 1;
				diag_add(x->dg, D_UNREPRESENTABLE, 0, 1, 1,
				    "iconv replaced %zu characters that %s "
				    "lacks; nothing was written", r,
				    x->xo->to.name);
				break;
			}
			/* Anything iconv refused after all goes a character
			 * at a time. */
			k = (size_t)(ip - (char *)x->ubuf) / 4;
			done += written(x, q, m, k, nc, form);
		}
		if (k < nc)
			break;
	}
	return done;
}

/*
 * The validator's run sink: a run of plain characters as bytes (form
 * RUN_UTF8, RUN_UTF16BE/LE or RUN_UTF32BE/LE; or RUN_SB).  Unicode targets
 * convert it directly; an iconv target takes the ASCII it writes
 * unchanged.  Return how many bytes were taken; the rest comes character
 * by character.
 */
static size_t
run(void *ctx, const unsigned char *p, size_t n, int form)
{
	struct xc *x = ctx;
	enum tkind k = x->xo->kind;

	if (!x->failed && x->dg->d[D_ILLEGAL_SEQUENCE].count > 0)
		x->failed = 1;
	if (!x->started || x->failed)
		return 0;
	if (form == RUN_BLOCKS)
		return 1;
	if (form == RUN_DECODED) {
		size_t j, t;

		if (k != T_ICONV) {
			unicode_to(x, p, n, RUN_UTF32LE);
			return n;
		}
		/* All or nothing: nothing is written unless the target
		 * has every character. */
		for (j = 0; j + 4 <= n; j += 4)
			if (!rt_known(x, load_le32(p + j)))
				return 0;
		if ((t = iconv_run(x, p, n, RUN_UTF32LE)) < n && !x->failed) {
			/* iconv refused what it wrote before: stop rather
			 * than write the block twice. */
			x->failed = 1;
			diag_add(x->dg, D_UNREPRESENTABLE, 0, 1, 1, "iconv "
			    "refused a character it had written before; "
			    "nothing was written");
		}
		return n;
	}
	if (k != T_ICONV) {
		if (form == RUN_SB)
			sb_to(x, p, n);
		else if (form == target_form(k))
			out_bytes(x, p, n);
		else
			unicode_to(x, p, n, form);
		return n;
	}
	return iconv_run(x, p, n, form);
}

/* Return whether the iconv target writes ASCII c as the one byte c. */
static int
ascii_ident(struct xc *x, uint32_t c)
{
	unsigned char in[4] = { (unsigned char)c, 0, 0, 0 }, out[16];
	char *ip = (char *)in, *op = (char *)out;
	size_t il = 4, ol = sizeof(out);

	if (!rt_ok(x, c))
		return 0;
	iconv(x->rt_enc, NULL, NULL, NULL, NULL);
	if (iconv(x->rt_enc, &ip, &il, &op, &ol) != 0 ||
	    iconv(x->rt_enc, NULL, NULL, &op, &ol) != 0)
		return 0;
	return op - (char *)out == 1 && out[0] == c;
}

/*
 * Return whether the iconv target has shift states: a character it has
 * beyond ASCII leaves bytes to write on the return to the initial state
 * (ISO-2022-JP, HZ, UTF-7).  Writing ASCII as it is there would put that
 * return wherever the runs happen to break, so the output would depend
 * on the reads.
 */
static int
stateful(struct xc *x)
{
	static const uint32_t probe[] = { 0xE9, 0x3042, 0x410, 0x4E00, 0x3B1 };
	size_t i;

	for (i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		unsigned char in[4], out[32];
		char *ip = (char *)in, *op = (char *)out;
		size_t il = 4, ol = sizeof(out);

		if (!rt_ok(x, probe[i]))
			continue;
		in[0] = (unsigned char)probe[i];
		in[1] = (unsigned char)(probe[i] >> 8);
		in[2] = in[3] = 0;
		iconv(x->rt_enc, NULL, NULL, NULL, NULL);
		if (iconv(x->rt_enc, &ip, &il, &op, &ol) != 0)
			continue;
		ip = op;
		if (iconv(x->rt_enc, NULL, NULL, &op, &ol) == 0 && op != ip)
			return 1;
	}
	return 0;
}

/*
 * A single-byte target is written from a table instead of through iconv:
 * each byte's character (sb_build), kept when iconv writes that character
 * as a byte that reads back as it.  The table then holds exactly the
 * characters rt_ok accepts, with the bytes iconv writes for them.
 */
static void
sb_target(struct xc *x)
{
	uint32_t map[256];
	int b;

	if (!sb_build(x->rt_dec, map))
		return;
	for (b = 0; b < 256; b++) {
		uint32_t c = map[b];
		unsigned char in[4], out[16];
		char *ip = (char *)in, *op = (char *)out;
		size_t il = 4, ol = sizeof(out);

		if (c == SB_BAD || c >= 0x10000 ||
		    (x->sb_has[c >> 3] & (1 << (c & 7))))
			continue;
		in[0] = (unsigned char)c;
		in[1] = (unsigned char)(c >> 8);
		in[2] = in[3] = 0;
		iconv(x->rt_enc, NULL, NULL, NULL, NULL);
		if (iconv(x->rt_enc, &ip, &il, &op, &ol) != 0 ||
		    op - (char *)out != 1 || map[out[0]] != c)
			continue;
		x->sb_has[c >> 3] |= (unsigned char)(1 << (c & 7));
		x->sb_byte[c] = out[0];
	}
	iconv(x->rt_enc, NULL, NULL, NULL, NULL);
	x->sbt = 1;
}

/* Write character c in the target (ok: a reference may stand for it). */
static void
emit(struct xc *x, uint32_t c, int ok, uint64_t off, uint64_t line,
    uint64_t col)
{
	unsigned char b[4];

	switch (x->xo->kind) {
	case T_UTF8: {
		unsigned char *o = out_room(x, 4);

		o += utf8_enc(o, c);
		x->on = (size_t)(o - x->obuf);
		return;
	}
	case T_UTF16BE:
	case T_UTF16LE: {
		int be = x->xo->kind == T_UTF16BE;
		uint32_t u[2];
		int i, n = 1;

		if (c >= 0x10000) {
			u[0] = 0xD800 + ((c - 0x10000) >> 10);
			u[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
			n = 2;
		} else
			u[0] = c;
		for (i = 0; i < n; i++) {
			b[be ? 0 : 1] = (unsigned char)(u[i] >> 8);
			b[be ? 1 : 0] = (unsigned char)u[i];
			out_bytes(x, b, 2);
		}
		return;
	}
	case T_UTF32BE:
	case T_UTF32LE:
		if (x->xo->kind == T_UTF32BE) {
			b[0] = (unsigned char)(c >> 24);
			b[1] = (unsigned char)(c >> 16);
			b[2] = (unsigned char)(c >> 8);
			b[3] = (unsigned char)c;
		} else {
			b[3] = (unsigned char)(c >> 24);
			b[2] = (unsigned char)(c >> 16);
			b[1] = (unsigned char)(c >> 8);
			b[0] = (unsigned char)c;
		}
		out_bytes(x, b, 4);
		return;
	case T_ICONV:
		if (!rt_ok(x, c)) {
			char ref[16];
			int i, len;

			if (x->xo->fallback != FB_NCR || !ok) {
				drain(x);
				unrepresentable(x, c, off, line, col, ok);
				return;
			}
			len = snprintf(ref, sizeof(ref), "&#x%04X;", (unsigned)c);
			for (i = 0; i < len; i++)
				emit(x, (unsigned char)ref[i], 0, off, line, col);
			return;
		}
		x->pb[4 * x->np] = (unsigned char)c;
		x->pb[4 * x->np + 1] = (unsigned char)(c >> 8);
		x->pb[4 * x->np + 2] = (unsigned char)(c >> 16);
		x->pb[4 * x->np + 3] = (unsigned char)(c >> 24);
		x->pok[x->np] = (unsigned char)ok;
		x->poff[x->np] = off;
		x->pline[x->np] = line;
		x->pcol[x->np] = col;
		if (++x->np == PEND_MAX)
			drain(x);
		return;
	}
}

static void
emit_ascii(struct xc *x, const char *s, uint64_t off)
{
	for (; *s != '\0'; s++)
		emit(x, (unsigned char)*s, 0, off, 1, 1);
}

/* Start a markup declaration whose first character is c. */
static void
decl_begin(struct xc *x)
{
	x->lex = L_DECL;
	x->wlen = x->nwords = 0;
	x->dkind = x->dext = 0;
}

/* A character of a markup declaration outside literals: keep its words. */
static void
decl_word(struct xc *x, uint32_t c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
		if (x->wlen + 1 < sizeof(x->word))
			x->word[x->wlen] = (char)c;
		x->wlen++;
		return;
	}
	if (x->wlen == 0)
		return;
	x->word[x->wlen < sizeof(x->word) ? x->wlen : sizeof(x->word) - 1] =
	    '\0';
	if (x->nwords++ == 0)
		x->dkind = strcmp(x->word, "ATTLIST") == 0 ? 'A' :
		    strcmp(x->word, "ENTITY") == 0 ? 'E' : 0;
	else if (strcmp(x->word, "SYSTEM") == 0 ||
	    strcmp(x->word, "PUBLIC") == 0)
		x->dext = 1;
	x->wlen = 0;
}

/*
 * Follow the lexical context (XML 1.0 sections 2.3-2.8, 3.1, 3.3.2, 4.1,
 * 4.2) far enough to know where a character reference may stand: character
 * data, attribute values, attribute defaults and entity values, but not
 * names, comments, PIs, CDATA sections or system and public literals.
 * Return whether one may stand for c.
 */
static int
lex(struct xc *x, uint32_t c)
{
	static const char cdata[] = "CDATA[";
	enum lex back = x->subset ? L_SUBSET : L_TEXT;

	switch (x->lex) {
	case L_TEXT:
		if (c == '<')
			x->lex = L_LT;
		return c != '<';
	case L_SUBSET:
		if (c == '<')
			x->lex = L_LT;
		else if (c == ']' && x->subset) {
			x->subset = 0;
			decl_begin(x);
			x->nwords = 1;
		}
		return 0;
	case L_LT:
		x->lex = c == '!' ? L_BANG : c == '?' ? L_PI : L_TAG;
		x->match = 0;
		return 0;
	case L_BANG:
		if (c == '-')
			x->lex = L_BANG_DASH;
		else if (c == '[' && !x->subset) {
			x->lex = L_BANG_BRACKET;
			x->match = 0;
		} else {
			decl_begin(x);
			decl_word(x, c);
		}
		return 0;
	case L_BANG_DASH:
		if (c == '-')
			x->lex = L_COMMENT;
		else
			decl_begin(x);
		x->match = 0;
		return 0;
	case L_BANG_BRACKET:
		if (c == (unsigned char)cdata[x->match]) {
			if (++x->match == sizeof(cdata) - 1) {
				x->lex = L_CDATA;
				x->match = 0;
			}
		} else
			decl_begin(x);
		return 0;
	case L_TAG:
		if (c == '"' || c == '\'') {
			x->quote = c;
			x->lex = L_ATTR;
		} else if (c == '>')
			x->lex = back;
		return 0;
	case L_ATTR:
		if (c == x->quote) {
			x->lex = L_TAG;
			return 0;
		}
		return c != '<' && c != '&';
	case L_COMMENT:
		if (c == '-')
			x->match++;
		else {
			if (c == '>' && x->match >= 2)
				x->lex = back;
			x->match = 0;
		}
		return 0;
	case L_PI:
		if (c == '>' && x->match)
			x->lex = back;
		x->match = c == '?';
		return 0;
	case L_CDATA:
		if (c == '>' && x->match >= 2)
			x->lex = back;
		x->match = c == ']' ? x->match + 1 : 0;
		return 0;
	case L_DECL:
		decl_word(x, c);
		if (c == '"' || c == '\'') {
			x->quote = c;
			x->lex = L_DECL_QUOTE;
			x->lit_ok = x->dkind == 'A' || (x->dkind == 'E' &&
			    !x->dext);
		} else if (c == '[' && !x->subset) {
			x->subset = 1;
			x->lex = L_SUBSET;
		} else if (c == '>')
			x->lex = x->subset ? L_SUBSET : L_TEXT;
		return 0;
	case L_DECL_QUOTE:
		if (c == x->quote) {
			x->lex = L_DECL;
			return 0;
		}
		return x->lit_ok && c != '&' && c != '%' && c != '<';
	}
	return 0;
}

/*
 * Write the BOM and the declaration, before the first character of
 * content (first, or none when has_first is 0).  RFC 7303 section 3.3 and
 * XML 1.0 section 4.3.3: an existing encoding value is rewritten to the
 * target's name keeping its quotes; a declaration without one gets one
 * after its version when the target needs it; an entity without a
 * declaration gets one when the target needs it.  Nothing else changes.
 */
static void
start(struct xc *x, uint32_t first, int has_first)
{
	const struct decl *d = &x->s->decl;
	const struct xopts *xo = x->xo;
	size_t usz = (size_t)unit_size(x->s->bom != BOM_NONE ?
	    unit_of_bom(x->s->bom) : unit_of_pat(x->s->pat));
	size_t i;

	x->started = 1;
	/* RFC 3629 section 6: a leading U+FEFF of content would read as a
	 * BOM, so in UTF-8 without a declaration it gets a real BOM first. */
	if (xo->bom || (xo->kind == T_UTF8 && !d->present && has_first &&
	    first == 0xFEFF))
		emit(x, 0xFEFF, 0, 0, 1, 1);
	if (d->present) {
		size_t es = (d->enc_off - d->start) / usz;
		size_t ee = (d->enc_end - d->start) / usz;
		size_t ve = (d->ver_end - d->start) / usz;

		int redo = d->has_encoding && !xo->keep_decl;

		for (i = 0; i < x->ndecl; i++) {
			if (redo && i == es)
				emit_ascii(x, xo->declname, d->start);
			if (redo && i >= es && i < ee)
				continue;
			emit(x, x->decl[i], 0, d->start, 1, 1);
			if (!d->has_encoding && xo->need_decl && i + 1 == ve) {
				char q[2] = { (char)x->decl[i], '\0' };

				emit_ascii(x, " encoding=", d->start);
				emit_ascii(x, q, d->start);
				emit_ascii(x, xo->declname, d->start);
				emit_ascii(x, q, d->start);
			}
		}
		/* An empty encoding value ends where it starts. */
		if (redo && es >= x->ndecl)
			emit_ascii(x, xo->declname, d->start);
	} else if (xo->need_decl) {
		emit_ascii(x, "<?xml version=\"1.0\" encoding=\"", 0);
		emit_ascii(x, xo->declname, 0);
		emit_ascii(x, "\"?>", 0);
	}
	if (x->s->role == ROLE_DTD) {
		x->lex = L_SUBSET;
		x->subset = 0;
	}
}

/* The validator's sink: every character of the entity after the BOM. */
static void
sink(void *ctx, uint32_t c, uint64_t off, uint64_t line, uint64_t col)
{
	struct xc *x = ctx;

	/* An illegal sequence fails the transcode (no character may be
	 * guessed); write nothing more. */
	if (!x->failed && x->dg->d[D_ILLEGAL_SEQUENCE].count > 0)
		x->failed = 1;
	if (x->failed)
		return;
	if (!x->started) {
		const struct decl *d = &x->s->decl;

		if (d->present && off < d->end && x->ndecl < DECL_MAX) {
			x->decl[x->ndecl++] = c;
			return;
		}
		start(x, c, 1);
	}
	/* Only an iconv target can lack a character: only it needs the
	 * lexical context. */
	emit(x, c, x->xo->kind == T_ICONV ? lex(x, c) : 0, off, line, col);
}

static void
xc_free(struct xc *x)
{
	if (x->cd != (iconv_t)-1)
		iconv_close(x->cd);
	if (x->rt_enc != (iconv_t)-1)
		iconv_close(x->rt_enc);
	if (x->rt_dec != (iconv_t)-1)
		iconv_close(x->rt_dec);
	free(x);
}

/* Directory part of path, for the temporary file. */
static void
dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

static int
fail_io(const char *what, const char *name)
{
	int e = errno;

	fprintf(stderr, "xmlsniff: %s", what);
	if (name != NULL) {
		fputs(" ", stderr);
		put_name_err(name);
	}
	fprintf(stderr, ": %s\n", strerror(e));
	return 2;
}

/* The outcome of the last transcode, for --in-place and --fix. */
static int changed;
static char refusal[200];

/* A transcode not done, for a reason that is no I/O error. */
static int
refuse(const char *name, const char *why)
{
	snprintf(refusal, sizeof(refusal), "%s", why);
	fputs("xmlsniff: ", stderr);
	put_name_err(name);
	fprintf(stderr, ": not transcoded: %s\n", why);
	return 1;
}

/*
 * Return whether the declaration's characters, as the authoritative
 * decoder reads them, are laid out as the sniffed bytes were (one unit a
 * character): only then do its byte offsets say where the encoding value
 * is.  A charset parameter that contradicts the byte pattern breaks this.
 */
static int
decl_layout_ok(const struct sniff *s)
{
	enum unit u = s->bom != BOM_NONE ? unit_of_bom(s->bom) :
	    unit_of_pat(s->pat);

	switch (s->dec) {
	case DEC_UTF8:
		return u == UNIT_8;
	case DEC_UTF16BE:
		return u == UNIT_16BE;
	case DEC_UTF16LE:
		return u == UNIT_16LE;
	case DEC_UTF32BE:
		return u == UNIT_32BE;
	case DEC_UTF32LE:
		return u == UNIT_32LE;
	case DEC_ICONV:
		return s->enc.family == ENC_F_EBCDIC ? u == UNIT_EBCDIC :
		    enc_is_16(s->enc.family) ? u == UNIT_16BE ||
		    u == UNIT_16LE : u == UNIT_8;
	default:
		return 0;
	}
}

/* Open the destination: directly for standard output and non-regular
 * files, else a temporary file beside it.  Return the descriptor or -1. */
static int
open_dest(const char *dest, char *real, size_t realsize, int *direct)
{
	struct stat st;
	char dir[PATH_MAX];
	const char *base;
	mode_t mode, um;
	sigset_t old;
	int fd, exists;

	*direct = 0;
	if (dest == NULL || strcmp(dest, "-") == 0) {
		*direct = 1;
		return 1;
	}
	/* Keep a symbolic link: write where it points. */
	if (realpath(dest, real) == NULL)
		snprintf(real, realsize, "%s", dest);
	exists = stat(real, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		*direct = 1;
		if ((fd = open(real, O_WRONLY | O_TRUNC | O_NOCTTY)) < 0)
			fail_io("cannot open", dest);
		return fd;
	}
	dir_of(real, dir, sizeof(dir));
	base = strrchr(real, '/') != NULL ? strrchr(real, '/') + 1 : real;
	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s/.%s.xmlsniff-XXXXXX",
	    dir, base) >= sizeof(tmp_path)) {
		errno = ENAMETOOLONG;
		fail_io("cannot create a temporary file for", dest);
		return -1;
	}
	hold_signals(1, &old);
	if ((fd = mkstemp(tmp_path)) < 0) {
		hold_signals(0, &old);
		fail_io("cannot create a temporary file in", dir);
		return -1;
	}
	tmp_active = 1;
	hold_signals(0, &old);
	um = umask(0);
	umask(um);
	mode = exists ? st.st_mode & 07777 : 0666 & ~um;
	/* Keep the owner (as root); where that fails, no set-ID bits. */
	if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) < 0)
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
	if (fchmod(fd, mode) < 0) {
		fail_io("cannot set the mode of", tmp_path);
		close(fd);
		unlink(tmp_path);
		tmp_active = 0;
		return -1;
	}
	return fd;
}

/* Whether the last transcode to a file changed (or, --dry-run, would
 * change) its bytes. */
int
transcode_changed(void)
{
	return changed;
}

/* Why the last transcode was refused ("" when no reason was given). */
const char *
transcode_refusal(void)
{
	return refusal;
}

/*
 * Compare len bytes of descriptor a from offset ao with those of b from
 * bo: 1 the same, 0 not, -1 a read error.
 */
static int
same_bytes(int a, off_t ao, int b, off_t bo, off_t len)
{
	static unsigned char ba[64 * 1024], bb[64 * 1024];

	while (len > 0) {
		size_t n = len < (off_t)sizeof(ba) ? (size_t)len : sizeof(ba);
		ssize_t ra = pread(a, ba, n, ao), rb = pread(b, bb, n, bo);

		if (ra < 0 || rb < 0)
			return -1;
		if (ra != (ssize_t)n || rb != (ssize_t)n)
			return 0;
		if (memcmp(ba, bb, n) != 0)
			return 0;
		ao += (off_t)n;
		bo += (off_t)n;
		len -= (off_t)n;
	}
	return 1;
}

/*
 * --in-place and --fix: compare the finished output out with the input
 * in.  Return 1 when they are the same bytes (the file is left alone,
 * keeping its inode, links and times), 0 when they differ, -1 when
 * xo->same_content is set and the bytes after the declaration (or BOM)
 * would change, -2 on a read error.
 */
static int
compare_out(int in, int out, const struct sniff *s, const struct xopts *xo)
{
	struct stat a, b;
	off_t from, tail;
	int r;

	if (fstat(in, &a) < 0 || fstat(out, &b) < 0)
		return -2;
	if (xo->same_content) {
		from = (off_t)(s->decl.present ? s->decl.end : s->bomlen);
		tail = a.st_size - from;
		if (tail < 0 || b.st_size < tail)
			return -1;
		if ((r = same_bytes(in, from, out, b.st_size - tail, tail)) <= 0)
			return r < 0 ? -2 : -1;
	}
	if (a.st_size != b.st_size)
		return 0;
	if ((r = same_bytes(in, 0, out, 0, a.st_size)) < 0)
		return -2;
	return r;
}

/*
 * Transcode one entity: s is its sniff, in holds its first bytes and reads
 * the rest.  The output goes to
 * standard output, to output, or over the input (in_place).  Return 0 on
 * success, 1 when it could not be done faithfully (nothing is written to
 * a file then), 2 on an I/O error.
 */
int
transcode(const char *name, struct inbuf *in, struct sniff *s,
    const struct xopts *xo, int strict, const char *output, int in_place)
{
	const char *dest = in_place ? name : output;
	char real[PATH_MAX];
	sigset_t held;
	struct xc *x;
	struct val *v;
	int direct, rc = 0, same = 0;

	changed = 0;
	refusal[0] = '\0';
	if (strict && s->dg.errors > 0)
		return refuse(name, "the input has errors (--strict)");
	if (s->dec == DEC_NONE)
		return refuse(name, "its encoding cannot be decoded");
	if (s->dg.d[D_BAD_DECLARATION].count || s->dg.d[D_DECL_NOT_AT_START].count)
		return refuse(name, "the declaration must be mended first");
	if (s->doubt)
		return refuse(name, "the bytes after the BOM contradict it, so "
		    "the encoding is in doubt; correct the BOM or the content "
		    "first");
	if (s->decl.present && !decl_layout_ok(s))
		return refuse(name, "the charset parameter contradicts the byte "
		    "layout of the declaration; correct the charset");
	/* In place means a regular file, replaced by rename(2). */
	if (in_place && in->size < 0)
		return refuse(name, "--in-place needs a regular file") + 1;
	{
		struct stat a, b;

		/* Writing into the FIFO or device being read would never
		 * end. */
		if (!in_place && output != NULL && strcmp(output, "-") != 0 &&
		    stat(output, &a) == 0 && !S_ISREG(a.st_mode) &&
		    fstat(in->fd, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return refuse(name, "-o names the input itself, which "
			    "is not a regular file") + 1;
	}
	if ((x = calloc(1, sizeof(*x))) == NULL)
		return fail_io("out of memory for", name);
	x->xo = xo;
	x->s = s;
	x->dg = &s->dg;
	x->cd = (iconv_t)-1;
	x->rt_enc = x->rt_dec = (iconv_t)-1;
	if (xo->kind == T_ICONV &&
	    ((x->cd = iconv_open(xo->iconv, enc_u32le())) == (iconv_t)-1 ||
	    (x->rt_enc = iconv_open(xo->iconv, enc_u32le())) == (iconv_t)-1 ||
	    (x->rt_dec = iconv_open(enc_u32le(), xo->iconv)) == (iconv_t)-1)) {
		xc_free(x);
		return fail_io("iconv cannot write", xo->to.name);
	}
	if ((v = val_new(s, &s->dg)) == NULL) {
		xc_free(x);
		return fail_io("cannot decode", name);
	}
	val_set_sink(v, sink, run, x);
	if ((x->sbmap = val_sbmap(v)) != NULL) {
		int b;

		x->sb_ascii = 1;
		for (b = 0; b < 0x80; b++)
			if (x->sbmap[b] != (uint32_t)b)
				x->sb_ascii = 0;
		for (b = 0; b < 256; b++) {
			uint32_t c = x->sbmap[b];
			unsigned char *e = x->sb8[b];

			/* Only characters that need no check reach sb_to;
			 * they are all in the BMP. */
			if (c < 0x10000)
				e[3] = (unsigned char)utf8_enc(e, c);
		}
	}
	if (xo->kind == T_ICONV) {
		uint32_t c;

		x->ident_all = 1;
		for (c = 0; c < 0x80; c++) {
			x->ident[c] = (unsigned char)ascii_ident(x, c);
			if ((c >= 0x20 || c == '\t' || c == '\n') && !x->ident[c])
				x->ident_all = 0;
		}
		/* With shift states, everything goes through the one
		 * converter. */
		if (stateful(x)) {
			memset(x->ident, 0, sizeof(x->ident));
			x->ident_all = 0;
		}
		sb_target(x);
		if (x->sbt && x->sbmap != NULL && x->sb_ascii) {
			int b;

			x->xlat_on = 1;
			for (b = 0; b < 256; b++) {
				uint32_t u = x->sbmap[b];

				if (b >= 0x80 && u < 0x80)
					x->xlat_on = 0;
				if (u < 0x10000 &&
				    (x->sb_has[u >> 3] & (1 << (u & 7)))) {
					x->xlat[b] = x->sb_byte[u];
					x->xlat_ok[b] = 1;
				}
			}
		}
	}
	if ((x->fd = open_dest(dest, real, sizeof(real), &direct)) < 0) {
		val_free(v);
		xc_free(x);
		return 2;
	}
	if (enc_is_32(xo->to.family))
		diag_add(&s->dg, D_UTF32, 0, 1, 1, "the output is UTF-32, "
		    "which is NOT RECOMMENDED for XML (RFC 7303 section 2.2)");

	for (;;) {
		size_t used = val_feed(v, in->p, in->n, in->eof);

		/* Illegal input bytes always fail: no character is guessed. */
		if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 && !x->failed)
			x->failed = 1;
		if (in->eof || x->failed)
			break;
		if (in_refill(in, used) < 0) {
			x->werrno = errno;
			rc = fail_io("read error on", name);
			break;
		}
	}
	if (rc == 0 && !x->failed) {
		if (!x->started)
			start(x, 0, 0);
		if (xo->kind == T_ICONV) {
			drain(x);
			if (!x->failed) {
				unsigned char tmp[64];
				char *op = (char *)tmp;
				size_t ol = sizeof(tmp);

				iconv(x->cd, NULL, NULL, &op, &ol);
				out_bytes(x, tmp, (size_t)(op - (char *)tmp));
			}
		}
	}
	if (strict && s->dg.errors > 0 && !x->failed)
		x->failed = 1;
	if (rc == 0 && !x->failed)
		out_flush(x);
	if (rc == 0 && x->failed == 2) {
		errno = x->werrno;
		rc = fail_io("write error on", dest != NULL ? dest :
		    "standard output");
	} else if (rc == 0 && x->failed)
		rc = 1;
	if (!direct) {
		/* The same bytes: nothing to replace. */
		if (rc == 0 && in_place) {
			switch (compare_out(in->fd, x->fd, s, xo)) {
			case 1:
				same = 1;
				break;
			case -1:
				rc = refuse(name, "re-encoding would change "
				    "the content, not only the BOM and "
				    "declaration");
				break;
			case -2:
				rc = fail_io("cannot compare", name);
				break;
			}
		}
		if (rc == 0 && !same && !xo->dry_run && fsync(x->fd) < 0)
			rc = fail_io("cannot sync", tmp_path);
		if (close(x->fd) < 0 && rc == 0)
			rc = fail_io("cannot close", tmp_path);
		hold_signals(1, &held);
		if (rc == 0 && !same && !xo->dry_run &&
		    rename(tmp_path, real) < 0)
			rc = fail_io("cannot replace", dest);
		if (rc != 0 || same || xo->dry_run)
			unlink(tmp_path);
		tmp_active = 0;
		hold_signals(0, &held);
		changed = rc == 0 && !same;
		if (rc == 0 && !same && !xo->dry_run) {
			char dir[PATH_MAX];
			int dfd;

			dir_of(real, dir, sizeof(dir));
			if ((dfd = open(dir, O_RDONLY)) >= 0) {
				fsync(dfd);
				close(dfd);
			}
		}
	} else if (dest != NULL && strcmp(dest, "-") != 0)
		close(x->fd);
	/* Say why, unless a diagnostic or a refusal already does; --ignore
	 * hides a code, never the failure. */
	if (rc == 1 && refusal[0] == '\0') {
		if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 &&
		    diag_ignored(D_ILLEGAL_SEQUENCE))
			refuse(name, "the input has illegal bytes (ignored "
			    "illegal-sequence); nothing is guessed");
		else if (s->dg.d[D_UNREPRESENTABLE].count > 0 &&
		    diag_ignored(D_UNREPRESENTABLE))
			refuse(name, "a character cannot be written in the "
			    "target (ignored unrepresentable)");
		else if (s->dg.d[D_UNREPRESENTABLE].count == 0 &&
		    s->dg.d[D_ILLEGAL_SEQUENCE].count == 0)
			refuse(name, "the input has errors (--strict)");
	}
	val_free(v);
	xc_free(x);
	return rc;
}

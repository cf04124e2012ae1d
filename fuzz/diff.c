/*
 * The differential check: the same bytes (and optionally the same charset
 * label) to xmlsniff's core, to libxml2 and to expat, and the verdicts
 * that must agree:
 *
 *  a  the characters decoded.  A parser's decoding is observed, not asked
 *     for: the character data of its parse is compared with the character
 *     data of the same parser reading xmlsniff's decoding of the entity as
 *     UTF-8 (XML 1.0 §4.3.3: the encoding decides the characters, nothing
 *     else does).  Compared when xmlsniff finds no error and both parses
 *     succeed.
 *  b  whether the entity decodes: xmlsniff's illegal-sequence and
 *     illegal-char against a parser's encoding errors (libxml2:
 *     XML_ERR_INVALID_CHAR, XML_ERR_INVALID_ENCODING,
 *     XML_I18N_CONV_FAILED; expat: XML_ERROR_PARTIAL_CHAR,
 *     XML_ERROR_INCORRECT_ENCODING, and XML_ERROR_INVALID_TOKEN where the
 *     bytes at its offset are bad in xmlsniff's decoding, since expat
 *     says the same of misplaced markup).  A parser's first error that is
 *     about something else (well-formedness) leaves the input uncompared
 *     for that parser.  Where xmlsniff finds labels that the bytes refute
 *     (decl-mismatch, bom-missing, no-declaration, bom-charset-conflict),
 *     XML 1.0 §4.3.3 asks only for a fatal error, of any kind: a parser
 *     that reads the entity without one diverges.
 *  c  the offset of the first bad byte, where both give one: expat's
 *     XML_GetCurrentByteIndex(); libxml2's position only when it reads the
 *     bytes without a converter (UTF-8), since a converter's error has no
 *     byte position in libxml2 2.9.
 *  u  one side decodes an encoding the other refuses (libxml2:
 *     XML_ERR_UNSUPPORTED_ENCODING and relatives; expat:
 *     XML_ERROR_UNKNOWN_ENCODING; xmlsniff: unsupported-encoding): a
 *     parser that refuses what xmlsniff decodes, or reads without error
 *     what xmlsniff cannot decode.
 *
 * Expat knows UTF-8, UTF-16, ISO-8859-1 and US-ASCII; it is given the
 * single-byte encodings iconv knows through XML_SetUnknownEncodingHandler,
 * as xmlwf does.  A divergence is looked up in the divergences table
 * (divergences.tsv), where each class a parser gets wrong is listed once
 * with the clause that says so; an unlisted one is a finding.
 *
 * Here are the three verdicts and their comparison; the table is read in
 * diff_table.c, the generated inputs are built in diff_gen.c.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>

#include "all.h"
#include "diff_int.h"

/* A parser's verdict. */
enum pkind {
	PK_OK,
	PK_ENC,		/* an encoding error */
	PK_UNSUP,	/* the encoding is not supported */
	PK_OTHER	/* first error not about encoding: not compared */
};

struct pv {
	enum pkind	 kind;
	int		 code;
	long long	 off;		/* of the error, -1 if not known */
	char		*text;		/* character data of a good parse */
	size_t		 tlen;
};

static int	 dec_at(const struct sniff *, const unsigned char *, size_t,
		    long long, uint32_t *);

/* --- xmlsniff -------------------------------------------------------- */

static void
xs_verdict(const unsigned char *buf, size_t len, const char *charset,
    const char *name, struct sniff *s, struct xv *x)
{
	struct mt mt, *mtp = NULL;
	char ct[200], err[256];
	struct val *v;
	int c;

	memset(x, 0, sizeof(*x));
	if (charset != NULL) {
		snprintf(ct, sizeof(ct), "application/xml; charset=%s",
		    charset);
		if (mt_parse(ct, &mt, err, sizeof(err)) == 0)
			mtp = &mt;
	}
	sniff(buf, len, 1, mtp, name, s);
	if ((v = val_new(s, &s->dg)) != NULL) {
		val_feed(v, buf, len, 1);
		val_free(v);
	}
	x->off = -1;
	for (c = 0; c < D_NCODES; c++) {
		const struct diag *d = &s->dg.d[c];

		if (d->count == 0 || !diag_is_error(&s->dg, c))
			continue;
		x->errors = 1;
		x->codes |= 1UL << c;
		if (c == D_ILLEGAL_SEQUENCE || c == D_ILLEGAL_CHAR) {
			if (!x->bad || (long long)d->off < x->off)
				x->off = (long long)d->off;
			x->bad = 1;
		} else if (c == D_DECL_MISMATCH || c == D_BOM_MISSING ||
		    c == D_NO_DECLARATION || c == D_BOM_CHARSET_CONFLICT)
			x->label = 1;
		else if (c == D_UNSUPPORTED_ENCODING)
			x->unsup = 1;
	}
	if (s->dec == FORM_NONE)
		x->unsup = 1;
	snprintf(x->enc, sizeof(x->enc), "%s", s->have_enc ? s->encname :
	    "-");
	x->bom = s->bom != BOM_NONE;
	x->decl = s->decl.present;
	x->charset = charset != NULL;
	x->u16shape = len >= 2 && (buf[0] == 0) != (buf[1] == 0);
	if (x->bad && (s->dec == FORM_UTF16BE || s->dec == FORM_UTF16LE) &&
	    (size_t)x->off + 1 < len) {
		unsigned hi = buf[x->off + (s->dec == FORM_UTF16LE)];

		x->lead = hi >= 0xD8 && hi <= 0xDB;
	}
	if (x->bad) {
		uint32_t ch;

		x->truncated = dec_at(s, buf, len, x->off, &ch) == 0;
	}
}

/*
 * Decode the character at off as xmlsniff decodes the entity: return its
 * length (the character in *c), 0 if the input ends inside it, or -1 for
 * an illegal sequence or when there is nothing to decode.
 */
static int
dec_at(const struct sniff *s, const unsigned char *buf, size_t len,
    long long off, uint32_t *c)
{
	const unsigned char *p = buf + off;
	size_t n = len - (size_t)off;

	if (off < 0 || (size_t)off >= len)
		return -1;
	switch (s->dec) {
	case FORM_UTF8:
		return utf8_dec(p, n, c);
	case FORM_UTF16BE:
	case FORM_UTF16LE:
		return utf16_dec(p, n, s->dec == FORM_UTF16BE, c);
	case FORM_UTF32BE:
	case FORM_UTF32LE:
		return utf32_dec(p, n, s->dec == FORM_UTF32BE, c);
	case FORM_ICONV: {
		/* One character: room for no more than one. */
		unsigned char out[4];
		char *ip = (char *)(uintptr_t)p, *op = (char *)out;
		size_t il = n < 16 ? n : 16, ol = sizeof(out);
		iconv_t cd = iconv_open(enc_u32le(), s->dec_iconv);
		int k;

		if (cd == (iconv_t)-1)
			return -1;
		k = iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 ||
		    errno == E2BIG ? 1 : errno == EINVAL ? 0 : -1;
		iconv_close(cd);
		if (ol != 0)
			return k == 0 ? 0 : -1;
		*c = (uint32_t)out[0] | (uint32_t)out[1] << 8 |
		    (uint32_t)out[2] << 16 | (uint32_t)out[3] << 24;
		return 1;
	}
	default:
		return -1;
	}
}

/*
 * Whether the bytes at off are an illegal or truncated sequence or a
 * character that is not an XML Char (XML 1.0 [2]).  Expat says
 * XML_ERROR_INVALID_TOKEN both for such bytes and for misplaced markup;
 * this tells the two apart.
 */
static int
bad_at(const struct sniff *s, const unsigned char *buf, size_t len,
    long long off)
{
	uint32_t c = 0;

	if (off < 0 || (size_t)off >= len)
		return 0;
	return dec_at(s, buf, len, off, &c) <= 0 || !xml_char_ok(c, s->xml11);
}

/* The iconv name of the decoder xmlsniff chose. */
static const char *
dec_name(const struct sniff *s)
{
	switch (s->dec) {
	case FORM_UTF8:
		return "UTF-8";
	case FORM_UTF16BE:
		return "UTF-16BE";
	case FORM_UTF16LE:
		return "UTF-16LE";
	case FORM_UTF32BE:
		return "UTF-32BE";
	case FORM_UTF32LE:
		return "UTF-32LE";
	case FORM_ICONV:
		return s->dec_iconv;
	default:
		return NULL;
	}
}

/*
 * The entity after its BOM and declaration, decoded as xmlsniff decodes
 * it, in UTF-8 (malloc'd, *outlen bytes); NULL if iconv cannot.
 */
static char *
xs_utf8(const unsigned char *buf, size_t len, const struct sniff *s,
    size_t *outlen)
{
	const char *from = dec_name(s);
	size_t start = s->bomlen, il, ol, cap;
	char *ip, *out, *op;
	iconv_t cd;

	if (from == NULL)
		return NULL;
	if (s->decl.present && s->decl.closed)
		start = s->decl.end;
	if (start > len)
		return NULL;
	if ((cd = iconv_open("UTF-8", from)) == (iconv_t)-1)
		return NULL;
	il = len - start;
	cap = il * 4 + 1;
	if ((out = malloc(cap)) == NULL) {
		iconv_close(cd);
		return NULL;
	}
	ip = (char *)(uintptr_t)(buf + start);
	op = out;
	ol = cap;
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 ||
	    iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1) {
		free(out);
		iconv_close(cd);
		return NULL;
	}
	iconv_close(cd);
	*outlen = cap - ol;
	return out;
}

/* --- libxml2 --------------------------------------------------------- */

static void
lx_error(void *data, xmlErrorPtr e)
{
	struct pv *pv = data;
	xmlParserCtxtPtr ctxt;

	if (pv->code != 0 || e == NULL || e->level < XML_ERR_ERROR)
		return;
	pv->code = e->code;
	pv->off = -1;
	switch (e->code) {
	case XML_ERR_INVALID_CHAR:
	case XML_ERR_INVALID_ENCODING:
	case XML_I18N_CONV_FAILED:
		pv->kind = PK_ENC;
		break;
	case XML_ERR_UNSUPPORTED_ENCODING:
	case XML_ERR_UNKNOWN_ENCODING:
	case XML_I18N_NO_HANDLER:
	case XML_I18N_NO_NAME:
		pv->kind = PK_UNSUP;
		break;
	default:
		pv->kind = PK_OTHER;
		break;
	}
	/* A byte position only where no converter stands between. */
	ctxt = e->domain == XML_FROM_PARSER ? e->ctxt : NULL;
	if (pv->kind == PK_ENC && ctxt != NULL && ctxt->input != NULL &&
	    ctxt->input->buf != NULL && ctxt->input->buf->encoder == NULL &&
	    ctxt->input->cur != NULL && ctxt->input->base != NULL)
		pv->off = (long long)ctxt->input->consumed +
		    (ctxt->input->cur - ctxt->input->base);
}

static void
lx_quiet(void *data, const char *fmt, ...)
{
	(void)data;
	(void)fmt;
}

static void
lx_verdict(const unsigned char *buf, size_t len, const char *charset,
    struct pv *pv)
{
	xmlDocPtr doc;
	xmlNodePtr root;

	memset(pv, 0, sizeof(*pv));
	pv->off = -1;
	xmlSetGenericErrorFunc(NULL, lx_quiet);
	xmlSetStructuredErrorFunc(pv, lx_error);
	doc = xmlReadMemory((const char *)buf, (int)len, "diff.xml", charset,
	    XML_PARSE_NONET);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (pv->code == 0 && doc == NULL)
		pv->kind = PK_OTHER;
	if (pv->code == 0 && doc != NULL &&
	    (root = xmlDocGetRootElement(doc)) != NULL) {
		xmlChar *t = xmlNodeGetContent(root);

		if (t != NULL) {
			pv->tlen = strlen((const char *)t);
			pv->text = strdup((const char *)t);
			xmlFree(t);
		}
	}
	if (doc != NULL)
		xmlFreeDoc(doc);
}

/* --- expat ----------------------------------------------------------- */

/* Single-byte encodings by way of iconv, as xmlwf offers them. */
static int XMLCALL
ex_unknown(void *data, const XML_Char *name, XML_Encoding *info)
{
	struct enc e;
	uint32_t map[256];
	iconv_t cd;
	int b, ok;

	(void)data;
	if (enc_lookup(name, &e) != 0 || enc_iconv(&e)[0] == '\0')
		return XML_STATUS_ERROR;
	if ((cd = iconv_open(enc_u32le(), enc_iconv(&e))) == (iconv_t)-1)
		return XML_STATUS_ERROR;
	ok = sb_build(cd, map);
	iconv_close(cd);
	if (!ok)
		return XML_STATUS_ERROR;
	for (b = 0; b < 256; b++)
		info->map[b] = map[b] == SB_BAD || map[b] > 0xFFFF ? -1 :
		    (int)map[b];
	info->data = NULL;
	info->convert = NULL;
	info->release = NULL;
	return XML_STATUS_OK;
}

static void XMLCALL
ex_chars(void *data, const XML_Char *t, int n)
{
	struct pv *pv = data;
	char *p;

	if (n <= 0 || (p = realloc(pv->text, pv->tlen + (size_t)n + 1)) ==
	    NULL)
		return;
	memcpy(p + pv->tlen, t, (size_t)n);
	pv->tlen += (size_t)n;
	p[pv->tlen] = '\0';
	pv->text = p;
}

static void
ex_verdict(const unsigned char *buf, size_t len, const char *charset,
    struct pv *pv)
{
	XML_Parser p;

	memset(pv, 0, sizeof(*pv));
	pv->off = -1;
	if ((p = XML_ParserCreate(charset)) == NULL) {
		pv->kind = PK_OTHER;
		return;
	}
	XML_SetUserData(p, pv);
	XML_SetUnknownEncodingHandler(p, ex_unknown, NULL);
	XML_SetCharacterDataHandler(p, ex_chars);
	if (XML_Parse(p, (const char *)buf, (int)len, 1) == XML_STATUS_ERROR) {
		pv->code = XML_GetErrorCode(p);
		switch (pv->code) {
		case XML_ERROR_INVALID_TOKEN:
		case XML_ERROR_PARTIAL_CHAR:
			pv->kind = PK_ENC;
			pv->off = (long long)XML_GetCurrentByteIndex(p);
			break;
		case XML_ERROR_INCORRECT_ENCODING:
			pv->kind = PK_ENC;
			break;
		case XML_ERROR_UNKNOWN_ENCODING:
			pv->kind = PK_UNSUP;
			break;
		default:
			pv->kind = PK_OTHER;
			break;
		}
		free(pv->text);
		pv->text = NULL;
		pv->tlen = 0;
	}
	XML_ParserFree(p);
}

/* --- the comparison -------------------------------------------------- */

static void
pv_run(enum diff_parser p, const unsigned char *buf, size_t len,
    const char *charset, struct pv *pv)
{
	if (p == DP_LIBXML2)
		lx_verdict(buf, len, charset, pv);
	else
		ex_verdict(buf, len, charset, pv);
}

static const char *
pv_say(const struct pv *pv, char *b, size_t bsz)
{
	static const char *const k[] = { "decodes", "encoding error",
	    "unsupported encoding", "other error" };

	if (pv->kind == PK_OK)
		return k[PK_OK];
	snprintf(b, bsz, "%s (code %d, offset %lld)", k[pv->kind], pv->code,
	    pv->off);
	return b;
}

static const char *
xv_say(const struct xv *x, char *b, size_t bsz)
{
	int c, n = 0;

	if (!x->errors)
		return "decodes";
	b[0] = '\0';
	for (c = 0; c < D_NCODES; c++)
		if (x->codes & 1UL << c)
			n += snprintf(b + n, bsz - (size_t)n, "%s%s",
			    n > 0 ? "," : "", diag_code(c));
	if (x->bad)
		snprintf(b + n, bsz - (size_t)n, " (offset %lld)", x->off);
	return b;
}

/* Report one divergence (a listed one only if all); return 1 if it is
 * not listed. */
static int
diverge(FILE *log, int all, const char *name, enum diff_parser p, int what,
    const struct xv *x, const struct pv *pv)
{
	int listed = diff_table_lists(p, what, x);
	char xb[400], pb[100];

	if (log != NULL && (!listed || all))
		fprintf(log, "%s: %s %c: xmlsniff %s %s, %s %s: %s\n", name,
		    diff_pnames[p], what, x->enc, xv_say(x, xb, sizeof(xb)),
		    diff_pnames[p], pv_say(pv, pb, sizeof(pb)), listed ?
		    "listed" : "NOT LISTED");
	return !listed;
}

/*
 * Compare xmlsniff with each parser on buf (with the charset label, if
 * not NULL); divergences the table does not list are written to log, and
 * the listed ones too if all.  Return the number of unlisted divergences.
 */
int
diff_check(const unsigned char *buf, size_t len, const char *charset,
    const char *name, FILE *log, int all, struct diff_counts *cnt)
{
	static struct sniff s;
	struct xv x;
	struct pv pv, ref;
	char *u8 = NULL;
	size_t u8len = 0;
	int p, nd = 0, unlisted = 0;
	unsigned long ncmp[2] = { 0, 0 };

	if (len > INT32_MAX)
		return 0;
	xs_verdict(buf, len, charset, name, &s, &x);
	if (!x.errors)
		u8 = xs_utf8(buf, len, &s, &u8len);
	for (p = 0; p < DP_N; p++) {
		pv_run(p, buf, len, charset, &pv);
		if (p == DP_EXPAT && pv.code == XML_ERROR_INVALID_TOKEN &&
		    !bad_at(&s, buf, len, pv.off))
			pv.kind = PK_OTHER;
		if (x.label) {
			/* Labels the bytes refute: a fatal error (XML 1.0
			 * §4.3.3), of whatever kind, is all that is due. */
			if (pv.kind == PK_OK) {
				nd++;
				unlisted += diverge(log, all, name, p, DW_DECODES,
				    &x, &pv);
			}
		} else if (x.unsup ? pv.kind == PK_OK : pv.kind == PK_UNSUP) {
			nd++;
			unlisted += diverge(log, all, name, p, DW_SUPPORT, &x, &pv);
		} else if (x.unsup || pv.kind == PK_UNSUP) {
			/* neither decodes it */
		} else if (pv.kind == PK_OTHER) {
			/* well-formedness first: nothing to compare */
		} else if ((pv.kind == PK_ENC) != (x.bad || x.label)) {
			nd++;
			unlisted += diverge(log, all, name, p, DW_DECODES, &x, &pv);
		} else if (pv.kind == PK_ENC && x.bad && pv.off >= 0) {
			ncmp[1]++;
			if (pv.off != x.off) {
				nd++;
				unlisted += diverge(log, all, name, p,
				    DW_OFFSET, &x, &pv);
			}
		} else if (pv.kind == PK_OK && u8 != NULL) {
			pv_run(p, (const unsigned char *)u8, u8len, "UTF-8",
			    &ref);
			ncmp[0] += ref.kind == PK_OK;
			if (ref.kind == PK_OK && (ref.tlen != pv.tlen ||
			    (pv.tlen > 0 && memcmp(ref.text, pv.text,
			    pv.tlen) != 0))) {
				nd++;
				unlisted += diverge(log, all, name, p, DW_ENCODING,
				    &x, &pv);
			}
			free(ref.text);
		}
		free(pv.text);
	}
	free(u8);
	if (cnt != NULL) {
		cnt->inputs++;
		if (nd == 0)
			cnt->agree++;
		cnt->known += (unsigned long)(nd - unlisted);
		cnt->unlisted += (unsigned long)unlisted;
		cnt->texts += ncmp[0];
		cnt->offsets += ncmp[1];
	}
	return unlisted;
}

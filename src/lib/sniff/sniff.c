/*
 * Which encoding an entity is in, and why (RFC 7303 section 3.2, XML 1.0
 * section 4.3.3 and Appendix F), with the checks that the BOM, the charset
 * parameter, the declaration and the bytes agree (the man page's
 * DIAGNOSTICS list each).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core.h"

const char *
source_name(enum source s)
{
	static const char *const names[] = {
		"none", "bom", "charset", "declaration", "default", "sniffed"
	};

	return names[s];
}

/* Line and column (1-based, columns in characters) of byte offset off, for
 * the head p[0..n) read in layout u from byte start. */
static void
pos(const unsigned char *p, size_t n, enum unit u, size_t start, size_t off,
    uint64_t *line, uint64_t *col)
{
	size_t i, usz = (size_t)unit_size(u);
	struct linepos lp = { 1, 1, 0 };

	for (i = start; i + usz <= off && i + usz <= n; i += usz) {
		if (u == UNIT_8 && p[i] >= 0x80 && p[i] < 0xC0)
			continue;
		linepos_step(&lp, (uint32_t)unit_get(u, p, n, i), 0);
	}
	*line = lp.line;
	*col = lp.col;
}

/* Shorthand for a diagnostic at a byte offset of the head. */
#define AT(s, code, off, ...) do {					\
	uint64_t l_, c_;						\
	pos(p, n, unit, (s)->bomlen, (off), &l_, &c_);			\
	diag_add(&(s)->dg, (code), (off), l_, c_, __VA_ARGS__);		\
} while (0)

/* A label naming one byte order: RFC 7303 section 3.3 forbids a BOM. */
static int
endian_label(const struct enc *e)
{
	return e->known && (e->family == ENC_F_16BE || e->family == ENC_F_16LE ||
	    e->family == ENC_F_32BE || e->family == ENC_F_32LE);
}

/* Set the encoding to the one named (a Unicode form or a BOM name). */
static void
set_unicode(struct sniff *s, const char *name)
{
	enc_lookup(strncmp(name, "UCS-4-", 6) == 0 ? "ISO-10646-UCS-4" : name,
	    &s->enc);
	s->have_enc = 1;
	str_put(s->encname, sizeof(s->encname), name);
}

/* Use label e, giving UTF-16/UTF-32/UCS byte order from the pattern (big
 * endian when the pattern says nothing, RFC 2781 section 4.3). */
static void
set_label(struct sniff *s, const struct enc *e)
{
	int le = s->pat == PAT_16LE || s->pat == PAT_32LE ||
	    s->bom == BOM_UTF16LE || s->bom == BOM_UTF32LE;

	s->enc = *e;
	s->have_enc = 1;
	str_put(s->encname, sizeof(s->encname), enc_report_name(e));
	if (enc_order_free_32(e) &&
	    (s->pat == PAT_32_2143 || s->pat == PAT_32_3412))
		str_put(s->encname, sizeof(s->encname),
		    pat_encoding(s->pat));
	else if (strcmp(e->name, "UTF-16") == 0)
		snprintf(s->encname, sizeof(s->encname), "UTF-16%s",
		    le ? "LE" : "BE");
	else if (strcmp(e->name, "UTF-32") == 0)
		snprintf(s->encname, sizeof(s->encname), "UTF-32%s",
		    le ? "LE" : "BE");
}

/* Whether s is read as UCS-4 in the octet order 2143 or 3412, which has
 * no decoder and no label (its name is then "UCS-4-2143" or "-3412"). */
int
sniff_odd_order(const struct sniff *s)
{
	return s->have_enc && (s->enc.family == ENC_F_32 ||
	    s->enc.family == ENC_F_UCS4) && (s->pat == PAT_32_2143 ||
	    s->pat == PAT_32_3412 || s->bom == BOM_UCS4_2143 ||
	    s->bom == BOM_UCS4_3412);
}

/*
 * Choose how to decode, from the family of the encoding found and the byte
 * order that the BOM or the pattern shows (never from its name): own
 * decoders for the Unicode forms, iconv else.  A UTF-16 or UTF-32 label
 * takes its order as set_label() reads it; UCS-2 and UCS-4 take theirs
 * from a BOM or pattern of their own width; the 2143 and 3412 octet
 * orders of UCS-4 have no decoder.
 */
static void
choose_decoder(struct sniff *s)
{
	int le16 = s->pat == PAT_16LE || s->bom == BOM_UTF16LE;
	int le32 = s->pat == PAT_32LE || s->bom == BOM_UTF32LE;
	int odd = sniff_odd_order(s);

	s->dec = FORM_NONE;
	/* A name neither the registry nor iconv knows says nothing of the
	 * bytes: they are not judged in any encoding (XML 1.0 section
	 * 4.3.3 allows only "unable to process" there). */
	if (!s->have_enc || !s->enc.known)
		return;
	switch (s->enc.family) {
	case ENC_F_UTF8:
		s->dec = FORM_UTF8;
		return;
	case ENC_F_16BE:
	case ENC_F_16LE:
	case ENC_F_16:
		s->dec = s->enc.family == ENC_F_16LE || (s->enc.family ==
		    ENC_F_16 && (le16 || le32)) ? FORM_UTF16LE : FORM_UTF16BE;
		return;
	case ENC_F_32BE:
	case ENC_F_32LE:
		s->dec = s->enc.family == ENC_F_32LE ? FORM_UTF32LE :
		    FORM_UTF32BE;
		return;
	case ENC_F_32:
	case ENC_F_UCS4:
		if (!odd)
			s->dec = le32 || (s->enc.family == ENC_F_32 && le16) ?
			    FORM_UTF32LE : FORM_UTF32BE;
		return;
	case ENC_F_UCS2:
		s->dec = FORM_ICONV;
		snprintf(s->dec_iconv, sizeof(s->dec_iconv), "UCS-2%s",
		    le16 ? "LE" : "BE");
		return;
	default:
		break;
	}
	if (enc_iconv_ok(enc_iconv(&s->enc))) {
		s->dec = FORM_ICONV;
		str_put(s->dec_iconv, sizeof(s->dec_iconv),
		    enc_iconv(&s->enc));
	}
}

/* The role a file name's suffix says, in any case: .ent an external
 * parsed entity, .mod and .dtd markup declarations; else a document
 * (and for a name that is nothing but the suffix). */
static enum role
role_of_name(const char *name)
{
	const char *dot = name != NULL ? strrchr(name, '.') : NULL;

	if (dot == NULL || dot == name || strlen(dot) != 4)
		return ROLE_DOCUMENT;
	if (strcasecmp(dot, ".ent") == 0)
		return ROLE_ENTITY;
	if (strcasecmp(dot, ".mod") == 0 || strcasecmp(dot, ".dtd") == 0)
		return ROLE_DTD;
	return ROLE_DOCUMENT;
}

/* unregistered-name: a label that is no name or alias in the IANA
 * registry (XML 1.0 section 4.3.3 asks for registered names, and "x-" for
 * others). */
static void
check_registered(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit, const struct enc *e, const char *raw, const char *what,
    size_t off)
{
	if (e->registered)
		return;
	if (e->known && strcasecmp(raw, e->name) != 0)
		AT(s, D_UNREGISTERED_NAME, off, "%s \"%s\" is not a name in "
		    "the IANA registry; write \"%s\"", what, raw, e->name);
	else if (strncasecmp(raw, "x-", 2) != 0)
		AT(s, D_UNREGISTERED_NAME, off, "%s \"%s\" is not a name in "
		    "the IANA registry and has no \"x-\" prefix; use a "
		    "registered name", what, raw);
}

/* decl-mismatch: the declaration names an encoding that the byte pattern
 * of its own characters refutes (XML 1.0 section 4.3.3, Appendix F). */
static void
decl_vs_pattern(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit)
{
	const struct decl *d = &s->decl;

	AT(s, D_DECL_MISMATCH, d->enc_off, "declared \"%s\" (%s) but the "
	    "bytes are %s; %s", d->encoding, enc_family_name(s->de.family),
	    pat_name(s->pat), pat_encoding(s->pat) != NULL ?
	    "declare the encoding the bytes are in" : "declare the encoding "
	    "the bytes are in, or re-encode the file");
}

/* The layout whose zero bytes pat_zeros() named. */
static enum unit
unit_of_zeros(const char *z)
{
	return strcmp(z, "UTF-32LE") == 0 ? UNIT_32LE : strcmp(z,
	    "UTF-32BE") == 0 ? UNIT_32BE : strcmp(z, "UTF-16LE") == 0 ?
	    UNIT_16LE : UNIT_16BE;
}

/*
 * A BOM followed by another layout's declaration or root (XML 1.0 Appendix
 * F): FE FF then 8-bit "<?xm", or then little-endian "<\0a\0"; a UTF-8 BOM
 * then UTF-16.  The BOM still names the encoding (RFC 7303 section 3.2),
 * but the declaration must be read and checked (Appendix F), and here the
 * bytes refute it: decl-mismatch, and the encoding is in doubt, so that
 * nothing is transcoded from it.  Bytes that read as XML Chars in the
 * BOM's order are no evidence against it (FE FF 03 00 is U+0300, not
 * little-endian): only a reading impossible in the BOM's order (no Chars)
 * or implausible there (the other layout's markup, "<?xml" or a start tag
 * in ASCII), and clean in the other layout, contradicts the BOM.
 */
static void
bom_contradicted(struct sniff *s, const unsigned char *p, size_t n, int eof)
{
	const unsigned char *q = p + s->bomlen;
	size_t m = n - s->bomlen;
	enum pat own = pat_of_bom(s->bom), after = pat_sniff(q, m);
	const char *z = pat_zeros(q, m), *own_z = pat_encoding(own);
	char what[400], dv[300] = "";
	struct decl od;
	enum unit ou;
	int markup, pattern = after != PAT_UNKNOWN;

	/* 8-bit markup after a 16- or 32-bit BOM, without "<?xm". */
	if (!pattern && z == NULL && own != PAT_ASCII &&
	    pat_markup(q, m, UNIT_8))
		after = PAT_ASCII;
	if (after == own || (after == PAT_UNKNOWN && (z == NULL ||
	    (own_z != NULL && strcmp(z, own_z) == 0))))
		return;
	ou = after != PAT_UNKNOWN ? unit_of_pat(after) : unit_of_zeros(z);
	markup = pat_markup(q, m, ou);
	if (!(ou == UNIT_8 || ou == UNIT_EBCDIC ? markup :
	    pat_reads_clean(q, m, ou)) || (!markup &&
	    pat_reads_clean(q, m, unit_of_bom(s->bom))))
		return;
	if (after != PAT_UNKNOWN) {
		decl_read(p, n, s->bomlen, unit_of_pat(after), eof, &od);
		if (od.present && od.has_encoding)
			snprintf(dv, sizeof(dv), " declaring \"%s\"",
			    od.encoding);
		snprintf(what, sizeof(what), "%s%s %s%s", after == PAT_ASCII ?
		    "an " : "a ", after == PAT_ASCII ?
		    "8-bit (ASCII-compatible)" : pat_name(after), od.present ?
		    "XML declaration" : pattern ? "\"<?xml\"" :
		    "start of markup", dv);
	} else
		snprintf(what, sizeof(what), "%s characters (zero bytes "
		    "between them)", z);
	s->doubt = 1;
	diag_add(&s->dg, D_DECL_MISMATCH, s->bomlen, 1, 1, "the %s BOM is "
	    "followed by %s, not by %s bytes: the BOM and the content "
	    "contradict each other (XML 1.0 Appendix F), so the encoding is "
	    "in doubt; remove the wrong BOM, or re-encode the content to match "
	    "it", bom_name(s->bom), what, bom_name(s->bom));
}

/* The role decides the grammar, XMLDecl or TextDecl (XML 1.0 [23],
 * [77]): the media type's, else the declaration's, else the name's. */
static void
step_role(struct sniff *s, const struct mt *mt, const char *name)
{
	struct decl *d = &s->decl;

	s->role = d->role;
	if (mt != NULL && mt->role_known)
		s->role = mt->role;
	else if (s->role == ROLE_DOCUMENT)
		s->role = role_of_name(name);
	d->role = s->role;
}

/* What is wrong in the declaration itself (XML 1.0 [23]-[26], [77]). */
static void
step_declaration(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit)
{
	const struct decl *d = &s->decl;

	if (d->bad)
		AT(s, D_BAD_DECLARATION, d->bad_off, "malformed %s declaration: "
		    "%s; the form is <?xml version=\"1.0\" encoding=\"...\"?>",
		    s->role == ROLE_DOCUMENT ? "XML" : "text", d->bad_msg);
	if (d->present && s->role == ROLE_DOCUMENT && !d->has_version)
		AT(s, D_BAD_DECLARATION, d->start, "the XML declaration has no "
		    "version (XML 1.0 [23]); add version=\"1.0\" right after "
		    "\"<?xml\"");
	if (d->present && s->role != ROLE_DOCUMENT && !d->has_encoding)
		AT(s, D_BAD_DECLARATION, d->start, "the text declaration of an "
		    "external %s has no encoding (XML 1.0 [77]); add "
		    "encoding=\"...\"", s->role == ROLE_DTD ? "subset" :
		    "parsed entity");
	if (d->present && s->role != ROLE_DOCUMENT && d->standalone >= 0)
		AT(s, D_BAD_DECLARATION, d->start, "a text declaration may not "
		    "have standalone (XML 1.0 [77]); remove it");
	if (d->upper)
		AT(s, D_BAD_DECLARATION, d->start, "the declaration must begin "
		    "with \"<?xml\" in lower case (XML 1.0 [23]); as written "
		    "it is an illegal processing instruction and is ignored");
	if (d->late)
		AT(s, D_DECL_NOT_AT_START, d->late_off, "the XML declaration "
		    "comes after %s; it must be the very first thing in the "
		    "entity (after the BOM, if any): remove what precedes it",
		    d->late_what);

	if (d->feff && s->role == ROLE_DOCUMENT)
		AT(s, D_BOM_IN_PROLOG, d->feff_off, "a U+FEFF before the root "
		    "element: after the start it is not a byte order mark but a "
		    "character (RFC 3629 section 6), which a document's prolog "
		    "does not allow (XML 1.0 [1], [22], [27]); remove it (a "
		    "second BOM, often from joining files)");
}

/* Read the two labels, the charset parameter and the declared encoding
 * (*has_cs, *has_de: each is there and names something). */
static void
step_labels(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit, int *has_cs, int *has_de)
{
	const struct mt *mt = s->mt;
	const struct decl *d = &s->decl;

	if (mt != NULL && !mt->xml)
		diag_add(&s->dg, D_NOT_XML_MEDIA_TYPE, 0, 1, 1, "\"%s\" is not "
		    "an XML media type; serve XML as application/xml, text/xml "
		    "or a +xml type (RFC 7303 sections 4 and 9)", mt->type);
	else if (mt != NULL && !mt_fits(mt, s->role))
		diag_add(&s->dg, D_NOT_XML_MEDIA_TYPE, 0, 1, 1, "\"%s\" must "
		    "not be used for an external DTD subset or parameter "
		    "entity (RFC 7303 section 3); serve it as "
		    "application/xml-dtd", mt->type);
	if (mt != NULL && mt->has_charset) {
		*has_cs = 1;
		enc_lookup(mt->charset, &s->cs);
		check_registered(s, p, n, unit, &s->cs, mt->charset,
		    "charset", 0);
	}
	if (d->present && d->has_encoding && d->enc_ok) {
		*has_de = 1;
		enc_lookup(d->encoding, &s->de);
		check_registered(s, p, n, unit, &s->de, d->encoding,
		    "declared encoding", d->enc_off);
	}
}

/* The BOM names the encoding (RFC 7303 section 3.2); the labels must
 * agree with it. */
static void
from_bom(struct sniff *s, const unsigned char *p, size_t n, enum unit unit,
    int eof, int has_cs, int has_de)
{
	const struct mt *mt = s->mt;
	const struct decl *d = &s->decl;

	/* RFC 7303 section 3.2, WHATWG decode: the BOM wins. */
	s->source = SRC_BOM;
	set_unicode(s, bom_name(s->bom));
	if (has_cs && !bom_allows(s->bom, &s->cs))
		diag_add(&s->dg, D_BOM_CHARSET_CONFLICT, 0, 1, 1,
		    "the charset parameter says \"%s\" but the %s BOM "
		    "wins (RFC 7303 section 8.9); serve it with "
		    "charset=%s", mt->charset, bom_name(s->bom),
		    enc_is_utf16(s->enc.family) ? "utf-16" :
		    enc_is_utf32(s->enc.family) ? "utf-32" : "utf-8");
	/* RFC 7303 section 3.3: a byte-order label forbids a BOM,
	 * whether or not it also contradicts the BOM. */
	if (has_cs && endian_label(&s->cs))
		diag_add(&s->dg, D_BOM_FORBIDDEN, 0, 1, 1, "labelled "
		    "charset=%s yet begins with a BOM (RFC 7303 section "
		    "3.3 forbids it); label it %s, or strip the BOM "
		    "with --transcode-to=%s", mt->charset,
		    enc_is_utf16(s->cs.family) ? "utf-16" : "utf-32",
		    s->cs.name);
	bom_contradicted(s, p, n, eof);
	/*
	 * XML 1.0 section 4.3.3 makes a declaration that does not match
	 * the encoding fatal only "in the absence of information provided
	 * by an external transport protocol": with a charset parameter,
	 * a declaration that the BOM refutes is judged against the
	 * parameter alone (charset-decl-conflict, a warning, RFC 7303
	 * section 3.2), and one that agrees with the parameter leaves the
	 * error to the parameter (bom-charset-conflict).  A second source
	 * agreeing with the first cannot make the entity worse.
	 */
	if (has_de && !has_cs && !bom_allows(s->bom, &s->de))
		AT(s, D_DECL_MISMATCH, d->enc_off, "declared \"%s\" "
		    "but the %s BOM wins; change encoding= to %s or "
		    "re-encode with --transcode-to", d->encoding,
		    bom_name(s->bom), enc_is_utf16(s->enc.family) ?
		    "UTF-16" : enc_is_utf32(s->enc.family) ? "UTF-32" :
		    "UTF-8");
	if (has_de && has_cs && !enc_compatible(&s->cs, &s->de))
		AT(s, D_CHARSET_DECL_CONFLICT, d->enc_off, "the charset "
		    "parameter \"%s\" and the declaration \"%s\" "
		    "disagree; the BOM decides (%s): correct whichever "
		    "of the two is wrong", mt->charset, d->encoding,
		    s->encname);
	if (has_de && endian_label(&s->de))
		AT(s, D_BOM_FORBIDDEN, d->enc_off, "declared \"%s\" "
		    "yet begins with a BOM (RFC 7303 section 3.3 "
		    "forbids a BOM under a byte-order label); declare "
		    "\"%s\" or strip the BOM with --transcode-to=%s",
		    d->encoding, enc_is_utf16(s->de.family) ? "UTF-16" :
		    "UTF-32", s->de.name);
}

/* No BOM: the charset parameter is authoritative (RFC 7303 section 3.2). */
static void
from_charset(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit, int has_de)
{
	const struct mt *mt = s->mt;
	const struct decl *d = &s->decl;

	s->source = SRC_CHARSET;
	if (!s->cs.known) {
		s->have_enc = 1;
		s->enc = s->cs;
		str_put(s->encname, sizeof(s->encname), mt->charset);
		diag_add(&s->dg, D_UNSUPPORTED_ENCODING, 0, 1, 1,
		    "charset \"%s\" is not an encoding that the IANA "
		    "registry or this system's iconv knows; correct "
		    "the Content-Type", mt->charset);
	} else
		set_label(s, &s->cs);
	if (has_de && !enc_compatible(&s->cs, &s->de))
		AT(s, D_CHARSET_DECL_CONFLICT, d->enc_off, "the "
		    "charset parameter \"%s\" overrides the "
		    "declaration \"%s\" (RFC 7303 section 3.2); make "
		    "them agree", mt->charset, d->encoding);
	/* A declaration the bytes refute is not decl-mismatch here: with
	 * external information, XML 1.0 section 4.3.3 makes no mismatch
	 * fatal, and the disagreement with the parameter is reported
	 * above; a parameter the bytes refute is suspicious-label below. */
	if (s->cs.known && (s->cs.family == ENC_F_ASCII ||
	    s->cs.family == ENC_F_UTF8 || s->cs.family == ENC_F_EBCDIC) &&
	    pat_zeros(p, n) != NULL)
		diag_add(&s->dg, D_SUSPICIOUS_LABEL, 0, 1, 1, "the "
		    "bytes have the zero pattern of %s, but the "
		    "charset says \"%s\"; the label is probably "
		    "wrong", pat_zeros(p, n), mt->charset);
	else if (s->cs.known && s->pat != PAT_UNKNOWN &&
	    !pat_allows(s->pat, &s->cs))
		diag_add(&s->dg, D_SUSPICIOUS_LABEL, 0, 1, 1, "the "
		    "bytes are %s, but the charset says \"%s\" (%s); "
		    "the label is probably wrong", pat_name(s->pat),
		    mt->charset, enc_family_name(s->cs.family));
}

/* No BOM, no charset: the declaration names the encoding, unless the byte
 * pattern refutes it (XML 1.0 section 4.3.3, Appendix F). */
static void
from_declaration(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit)
{
	const struct decl *d = &s->decl;

	s->source = SRC_DECLARATION;
	if (!s->de.known) {
		s->have_enc = 1;
		s->enc = s->de;
		str_put(s->encname, sizeof(s->encname), d->encoding);
		AT(s, D_UNSUPPORTED_ENCODING, d->enc_off, "declared "
		    "encoding \"%s\" is not one that the IANA registry "
		    "or this system's iconv knows; declare a "
		    "registered name", d->encoding);
	} else if (!pat_allows(s->pat, &s->de)) {
		/* XML 1.0 section 4.3.3: a fatal error.  The bytes
		 * show the real family; an 8-bit family does not say
		 * which encoding. */
		s->source = SRC_SNIFFED;
		if (pat_encoding(s->pat) != NULL)
			set_unicode(s, pat_encoding(s->pat));
		decl_vs_pattern(s, p, n, unit);
	} else
		set_label(s, &s->de);
}

/* Unlabelled, but the bytes show a 16/32-bit form or EBCDIC, which must
 * be labelled (Appendix F). */
static void
from_pattern(struct sniff *s)
{
	s->source = SRC_SNIFFED;
	if (pat_encoding(s->pat) != NULL)
		set_unicode(s, pat_encoding(s->pat));
	diag_add(&s->dg, D_NO_DECLARATION, 0, 1, 1, "the bytes are %s "
	    "but there is no BOM and no encoding declaration (XML 1.0 "
	    "section 4.3.3); %s", pat_name(s->pat),
	    s->pat == PAT_EBCDIC ? "declare the code page, as in "
	    "encoding=\"IBM037\"" : "add a BOM, or declare the "
	    "encoding");
}

/* Nothing says otherwise: UTF-8 (XML 1.0 section 4.3.3), or the
 * --default-encoding dflt (NULL: none) where there is no declaration at
 * all (one without encoding says UTF-8) and the bytes show no zero
 * pattern. */
static void
from_default(struct sniff *s, const unsigned char *p, size_t n,
    const struct enc *dflt)
{
	struct enc utf8;

	s->source = SRC_DEFAULT;
	if (dflt != NULL && !s->decl.present && pat_zeros(p, n) == NULL)
		set_label(s, dflt);
	else {
		enc_lookup("UTF-8", &utf8);
		set_label(s, &utf8);
	}
	if (pat_zeros(p, n) != NULL)
		diag_add(&s->dg, D_SUSPICIOUS_LABEL, 0, 1, 1, "the "
		    "bytes look like %s (zero bytes between the "
		    "characters) but there is no BOM and no "
		    "declaration, so they are read as UTF-8 (XML 1.0 "
		    "Appendix F); add a BOM", pat_zeros(p, n));
}

/* What XML 1.0 section 4.3.3 and RFC 7303 say of the form found: a BOM
 * for UTF-16, none wanted for UTF-8, no UTF-32, a declaration for the
 * others. */
static void
step_form(struct sniff *s, int has_de)
{
	const struct mt *mt = s->mt;
	const struct decl *d = &s->decl;

	/* XML 1.0 section 4.3.3: UTF-16 must begin with a BOM. */
	if (s->bom == BOM_NONE && s->have_enc && s->enc.family == ENC_F_16 &&
	    (s->source == SRC_CHARSET || s->source == SRC_DECLARATION))
		diag_add(&s->dg, D_BOM_MISSING, 0, 1, 1, "labelled \"%s\" but "
		    "there is no BOM (XML 1.0 section 4.3.3: UTF-16 entities "
		    "must begin with one); add the BOM, or label it %s",
		    s->source == SRC_CHARSET ? mt->charset : d->encoding,
		    s->encname);
	else if (s->source == SRC_SNIFFED && !has_de &&
	    (s->pat == PAT_16LE || s->pat == PAT_16BE))
		diag_add(&s->dg, D_BOM_MISSING, 0, 1, 1, "UTF-16 without a "
		    "BOM (XML 1.0 section 4.3.3: UTF-16 entities must begin "
		    "with one); re-encode with --transcode-to=UTF-16");

	if (s->bom == BOM_UTF8)
		diag_add(&s->dg, D_UTF8_BOM, 0, 1, 1, "UTF-8 with a BOM: XML "
		    "1.0 section 4.3.3 allows it, but Unicode neither requires "
		    "nor recommends one for UTF-8, and many consumers mishandle "
		    "it (\"Content is not allowed in prolog\"); strip it with "
		    "--transcode-to=UTF-8");
	if (s->have_enc && (enc_is_32(s->enc.family) || sniff_odd_order(s)))
		diag_add(&s->dg, D_UTF32, 0, 1, 1, "UTF-32 is NOT RECOMMENDED "
		    "for XML (RFC 7303 section 2.2); use UTF-8");
	if (s->have_enc && s->enc.known && !d->has_encoding &&
	    !sniff_odd_order(s) &&
	    s->dg.d[D_NO_DECLARATION].count == 0 &&
	    s->enc.family != ENC_F_UTF8 &&
	    s->bom != BOM_UTF16LE && s->bom != BOM_UTF16BE)
		diag_add(&s->dg, D_MISSING_DECL, 0, 1, 1, "no encoding "
		    "declaration: the entity relies on %s alone, which a "
		    "saved copy loses (XML 1.0 section 4.3.3: an entity in "
		    "another encoding than UTF-8 or UTF-16 must declare it); "
		    "add encoding=\"%s\" to the declaration",
		    s->source == SRC_BOM ? "its BOM" : s->source == SRC_DEFAULT ?
		    "--default-encoding" : "the charset parameter", s->encname);
}

/* Decide how to decode; an encoding that cannot be is unsupported. */
static void
step_decoder(struct sniff *s, const unsigned char *p, size_t n,
    enum unit unit)
{
	const struct decl *d = &s->decl;

	choose_decoder(s);
	if (s->have_enc && s->dec == FORM_NONE &&
	    s->dg.d[D_UNSUPPORTED_ENCODING].count == 0)
		AT(s, D_UNSUPPORTED_ENCODING, s->source == SRC_DECLARATION ?
		    d->enc_off : 0, "%s cannot "
		    "be decoded: %s; re-encode the entity in UTF-8",
		    s->encname, sniff_odd_order(s) ?
		    "no iconv supports this octet order" :
		    "this system's iconv does not support it");
}

/* s empty: all zero bytes but for its diagnostics, which are cleared as
 * diag_clear does (their messages are most of its size), and marked so:
 * a run clears its sniff when it begins, and sniff_set() then need not
 * again (two kilobytes and the codes' counts, for every input). */
void
sniff_clear(struct sniff *s)
{
	size_t after = offsetof(struct sniff, dg) + sizeof(s->dg);

	mem_zero(s, offsetof(struct sniff, dg));
	diag_clear(&s->dg);
	mem_zero((char *)s + after, sizeof(*s) - after);
	s->clean = 1;
}

/*
 * Determine the encoding of the entity whose first n bytes are p (eof: that
 * is all of it), with the Content-Type ss->mt (or NULL) and the default
 * encoding ss->dflt (or NULL), and check that its labels agree; the
 * diagnostics follow the policy ss->pol.  name is the file name, or NULL.
 * The steps: the BOM, the byte pattern and the declaration are read; then
 * the encoding comes from the BOM, the charset parameter, the declaration,
 * the pattern or the default, in that order (RFC 7303 section 3.2, XML 1.0
 * section 4.3.3 and Appendix F); then what the form found requires is
 * checked.
 */
void
sniff_set(const unsigned char *p, size_t n, int eof, const struct sset *ss,
    const char *name, struct sniff *s)
{
	const struct mt *mt = ss->mt;
	struct decl *d = &s->decl;
	enum unit unit;
	int has_cs = 0, has_de = 0;

	if (!s->clean)
		sniff_clear(s);
	s->clean = 0;
	s->dg.pol = ss->pol;
	s->mt = mt;
	s->bom = bom_sniff(p, n, &s->bomlen);
	s->pat = s->bom == BOM_NONE ? pat_sniff(p, n) : PAT_UNKNOWN;
	unit = s->bom != BOM_NONE ? unit_of_bom(s->bom) : unit_of_pat(s->pat);
	decl_read(p, n, s->bomlen, unit, eof, d);
	s->xml11 = d->has_version && strcmp(d->version, "1.1") == 0;
	step_role(s, mt, name);
	step_declaration(s, p, n, unit);
	step_labels(s, p, n, unit, &has_cs, &has_de);
	if (s->bom != BOM_NONE)
		from_bom(s, p, n, unit, eof, has_cs, has_de);
	else if (has_cs)
		from_charset(s, p, n, unit, has_de);
	else if (has_de)
		from_declaration(s, p, n, unit);
	else if (pat_encoding(s->pat) != NULL || s->pat == PAT_EBCDIC)
		from_pattern(s);
	else
		from_default(s, p, n, ss->dflt);
	step_form(s, has_de);
	/* A declaration after more white space than the head holds is
	 * looked for by the validator (decl-not-at-start). */
	if (!eof && !d->present && !d->late && !d->upper && unit == UNIT_8) {
		size_t i = s->bomlen;

		while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
		    p[i] == '\r'))
			i++;
		s->ws_lead = i == n;
	}
	step_decoder(s, p, n, unit);
	sniff_not_xml(p, n, eof, s);
}

/* sniff_set() with the Content-Type mt (or NULL) alone: no default
 * encoding, no policy. */
void
sniff(const unsigned char *p, size_t n, int eof, const struct mt *mt,
    const char *name, struct sniff *s)
{
	const struct sset ss = { mt, NULL, NULL };

	sniff_set(p, n, eof, &ss, name, s);
}

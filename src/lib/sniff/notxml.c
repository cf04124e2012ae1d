/*
 * not-xml: an entity that is not XML at all.  A document (XML 1.0
 * production [1]) is a prolog, which may begin with white space (S,
 * production [3]), then markup; an external DTD subset (productions
 * [30], [31]) is markup, parameter-entity references and white space.
 * So after the byte order mark and any white space, a document's first
 * character is '<', and a subset's is '<' or '%'.  An entity whose first
 * character is another, or a document with no character but white space
 * (an empty file), is not XML.  The character is read in the encoding the
 * entity was found to be in (UTF-8, UTF-16, UTF-32, an ASCII-based or an
 * EBCDIC code page), so that "<" in UTF-16 is "<".  External parsed
 * entities (production [78]) may begin with any text and are not judged;
 * nor are entities in an encoding of none of these families, those whose
 * head is white space only without being the whole entity, those whose
 * bytes refute their BOM (decl-mismatch says so), and those read as
 * UTF-8 for want of a label whose first bytes have the zero bytes of
 * UTF-16 or UTF-32 (suspicious-label says so).  Nor is a '<' read in the
 * wrong byte order (U+3C00 in UTF-16): that is XML whose byte order is
 * wrong, which bom-missing and the like say.
 */
#include <stdio.h>

#include "core.h"

/* The layout in which the first characters of s are read, or -1 when
 * it is none that tells '<' apart. */
static int
layout(const struct sniff *s)
{
	switch (s->dec) {
	case FORM_UTF8:
		return UNIT_8;
	case FORM_UTF16BE:
		return UNIT_16BE;
	case FORM_UTF16LE:
		return UNIT_16LE;
	case FORM_UTF32BE:
		return UNIT_32BE;
	case FORM_UTF32LE:
		return UNIT_32LE;
	case FORM_SB:
	case FORM_ICONV:
		if (s->enc.family == ENC_F_ASCII || s->enc.family == ENC_F_UTF8)
			return UNIT_8;
		if (s->enc.family == ENC_F_EBCDIC)
			return UNIT_EBCDIC;
		return -1;
	default:
		return -1;
	}
}

/* The character c (a unit_get value, in units of usz bytes) as a message
 * shows it: in an 8-bit layout 0x100 stands for any byte that is not
 * ASCII (or not invariant EBCDIC), in UTF-16 it is U+0100. */
static void
show(long c, size_t usz, const unsigned char *at, char *buf, size_t size)
{
	if (c >= 0x21 && c < 0x7F && c != '\'')
		snprintf(buf, size, "'%c'", (int)c);
	else if (c == 0x100 && usz == 1)
		snprintf(buf, size, "the byte 0x%02X", at[0]);
	else
		snprintf(buf, size, "U+%04lX", (unsigned long)c);
}

/*
 * Judge the head p[0..n) (the whole entity when eof) of the entity s
 * has sniffed; set s->not_xml and report not-xml when it is not XML.
 */
void
sniff_not_xml(const unsigned char *p, size_t n, int eof, struct sniff *s)
{
	struct linepos lp = { 1, 1, 0 };
	int u = layout(s);
	size_t i, usz;
	long c = -1;
	char what[32];

	if (u < 0 || s->role == ROLE_ENTITY || s->doubt ||
	    (s->source == SRC_DEFAULT && s->bom == BOM_NONE &&
	    pat_zeros(p, n) != NULL))
		return;
	usz = (size_t)unit_size((enum unit)u);
	for (i = s->bomlen; (c = unit_get((enum unit)u, p, n, i)) >= 0;
	    i += usz) {
		/* A second U+FEFF is bom-in-prolog's, not this. */
		if (c == 0xFEFF || (u == UNIT_8 && n - i >= 3 &&
		    p[i] == 0xEF && p[i + 1] == 0xBB && p[i + 2] == 0xBF)) {
			i += u == UNIT_8 ? 2 : 0;
			lp.col++;
			continue;
		}
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		linepos_step(&lp, (uint32_t)c, 0);
	}
	if (c < 0) {
		/* Nothing but white space: a document needs an element; an
		 * empty subset is a subset. */
		if (!eof || s->role != ROLE_DOCUMENT)
			return;
		s->not_xml = 1;
		diag_add(&s->dg, D_NOT_XML, i, lp.line, lp.col, "%s: an XML "
		    "document has at least one element (XML 1.0 [1]); this "
		    "is not XML", i == 0 ? "the entity is empty" :
		    i == s->bomlen ? "the entity is a BOM and nothing else" :
		    "the entity holds nothing but white space");
		return;
	}
	if (c == '<' || (c == '%' && s->role == ROLE_DTD) ||
	    (usz > 1 && (c == 0x3C00 || c == 0x3C000000L || c == 0x3C0000L)))
		return;
	s->not_xml = 1;
	show(c, usz, p + i, what, sizeof(what));
	diag_add(&s->dg, D_NOT_XML, i, lp.line, lp.col, "the first character "
	    "(after any BOM and white space) is %s, not '<'%s: this is not "
	    "XML (XML 1.0 [1], [22])", what, s->role == ROLE_DTD ?
	    " or '%' of an external DTD subset" : "");
}

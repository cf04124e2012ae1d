/*
 * Signatures and byte patterns: the byte order mark and the first bytes of
 * an entity, XML 1.0 section 4.3.3 and Appendix F.1, RFC 7303 section 3.3,
 * RFC 3629 section 6; and which labels each of them allows.
 */
#include <stddef.h>

#include "core.h"

/*
 * Return the BOM at the start of p[0..n) and its length in *len.  The
 * four-byte signatures are tried first, so FF FE 00 00 is UTF-32LE (an XML
 * entity cannot begin with U+0000, so it is not UTF-16LE plus a NUL).
 */
enum bom
bom_sniff(const unsigned char *p, size_t n, size_t *len)
{
	*len = 0;
	if (n >= 4) {
		unsigned long w = (unsigned long)p[0] << 24 | p[1] << 16 |
		    p[2] << 8 | p[3];

		*len = 4;
		switch (w) {
		case 0x0000FEFFUL:
			return BOM_UTF32BE;
		case 0xFFFE0000UL:
			return BOM_UTF32LE;
		case 0x0000FFFEUL:
			return BOM_UCS4_2143;
		case 0xFEFF0000UL:
			return BOM_UCS4_3412;
		}
	}
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		*len = 3;
		return BOM_UTF8;
	}
	if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF) {
		*len = 2;
		return BOM_UTF16BE;
	}
	if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
		*len = 2;
		return BOM_UTF16LE;
	}
	*len = 0;
	return BOM_NONE;
}

const char *
bom_name(enum bom b)
{
	static const char *const names[] = {
		NULL, "UTF-8", "UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE",
		"UCS-4-2143", "UCS-4-3412"
	};

	return names[b];
}

/*
 * Return the Appendix F family of an entity without a BOM from its first
 * four bytes.  Fewer than four bytes, or any other start, is PAT_UNKNOWN:
 * UTF-8 without a declaration, or not XML.
 */
enum pat
pat_sniff(const unsigned char *p, size_t n)
{
	static const struct {
		unsigned char	 b[4];
		enum pat	 pat;
	} tab[] = {
		{ { 0x00, 0x00, 0x00, 0x3C }, PAT_32BE },
		{ { 0x3C, 0x00, 0x00, 0x00 }, PAT_32LE },
		{ { 0x00, 0x00, 0x3C, 0x00 }, PAT_32_2143 },
		{ { 0x00, 0x3C, 0x00, 0x00 }, PAT_32_3412 },
		{ { 0x00, 0x3C, 0x00, 0x3F }, PAT_16BE },
		{ { 0x3C, 0x00, 0x3F, 0x00 }, PAT_16LE },
		{ { 0x3C, 0x3F, 0x78, 0x6D }, PAT_ASCII },
		{ { 0x4C, 0x6F, 0xA7, 0x94 }, PAT_EBCDIC },
	};
	size_t i;

	if (n < 4)
		return PAT_UNKNOWN;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (p[0] == tab[i].b[0] && p[1] == tab[i].b[1] &&
		    p[2] == tab[i].b[2] && p[3] == tab[i].b[3])
			return tab[i].pat;
	return PAT_UNKNOWN;
}

const char *
pat_name(enum pat pat)
{
	static const char *const names[] = {
		"no recognisable pattern", "32-bit big-endian",
		"32-bit little-endian", "32-bit octet order 2143",
		"32-bit octet order 3412", "16-bit big-endian",
		"16-bit little-endian", "ASCII-compatible", "EBCDIC"
	};

	return names[pat];
}

enum unit
unit_of_bom(enum bom b)
{
	switch (b) {
	case BOM_UTF16BE:
		return UNIT_16BE;
	case BOM_UTF16LE:
		return UNIT_16LE;
	case BOM_UTF32BE:
		return UNIT_32BE;
	case BOM_UTF32LE:
		return UNIT_32LE;
	case BOM_UCS4_2143:
		return UNIT_32_2143;
	case BOM_UCS4_3412:
		return UNIT_32_3412;
	default:
		return UNIT_8;
	}
}

enum unit
unit_of_pat(enum pat pat)
{
	switch (pat) {
	case PAT_32BE:
		return UNIT_32BE;
	case PAT_32LE:
		return UNIT_32LE;
	case PAT_32_2143:
		return UNIT_32_2143;
	case PAT_32_3412:
		return UNIT_32_3412;
	case PAT_16BE:
		return UNIT_16BE;
	case PAT_16LE:
		return UNIT_16LE;
	case PAT_EBCDIC:
		return UNIT_EBCDIC;
	default:
		return UNIT_8;
	}
}

int
unit_size(enum unit u)
{
	switch (u) {
	case UNIT_16BE:
	case UNIT_16LE:
		return 2;
	case UNIT_32BE:
	case UNIT_32LE:
	case UNIT_32_2143:
	case UNIT_32_3412:
		return 4;
	default:
		return 1;
	}
}

/*
 * EBCDIC invariant characters (those common to every EBCDIC code page) to
 * ASCII: enough to read a declaration, Appendix F.1.  Other bytes are 0.
 */
static const unsigned char ebcdic_invariant[256] = {
	/* 0x15 is NEL, which is no XML white space (S). */
	[0x05] = '\t', [0x25] = '\n', [0x0D] = '\r',
	[0x40] = ' ', [0x4B] = '.', [0x4C] = '<', [0x4D] = '(', [0x4E] = '+',
	[0x50] = '&', [0x5C] = '*', [0x5D] = ')', [0x5E] = ';', [0x60] = '-',
	[0x61] = '/', [0x6B] = ',', [0x6C] = '%', [0x6D] = '_', [0x6E] = '>',
	[0x6F] = '?', [0x7A] = ':', [0x7D] = '\'', [0x7E] = '=', [0x7F] = '"',
	[0x81] = 'a', [0x82] = 'b', [0x83] = 'c', [0x84] = 'd', [0x85] = 'e',
	[0x86] = 'f', [0x87] = 'g', [0x88] = 'h', [0x89] = 'i',
	[0x91] = 'j', [0x92] = 'k', [0x93] = 'l', [0x94] = 'm', [0x95] = 'n',
	[0x96] = 'o', [0x97] = 'p', [0x98] = 'q', [0x99] = 'r',
	[0xA2] = 's', [0xA3] = 't', [0xA4] = 'u', [0xA5] = 'v', [0xA6] = 'w',
	[0xA7] = 'x', [0xA8] = 'y', [0xA9] = 'z',
	[0xC1] = 'A', [0xC2] = 'B', [0xC3] = 'C', [0xC4] = 'D', [0xC5] = 'E',
	[0xC6] = 'F', [0xC7] = 'G', [0xC8] = 'H', [0xC9] = 'I',
	[0xD1] = 'J', [0xD2] = 'K', [0xD3] = 'L', [0xD4] = 'M', [0xD5] = 'N',
	[0xD6] = 'O', [0xD7] = 'P', [0xD8] = 'Q', [0xD9] = 'R',
	[0xE2] = 'S', [0xE3] = 'T', [0xE4] = 'U', [0xE5] = 'V', [0xE6] = 'W',
	[0xE7] = 'X', [0xE8] = 'Y', [0xE9] = 'Z',
	[0xF0] = '0', [0xF1] = '1', [0xF2] = '2', [0xF3] = '3', [0xF4] = '4',
	[0xF5] = '5', [0xF6] = '6', [0xF7] = '7', [0xF8] = '8', [0xF9] = '9',
};

/*
 * Return the character of the code unit at byte offset off of p[0..n),
 * read in unit layout u: the code point for the Unicode layouts, the ASCII
 * character for EBCDIC invariants and bytes below 0x80, 0x100 for any other
 * byte, or -1 past the end.  Only what a declaration needs is decoded.
 */
long
unit_get(enum unit u, const unsigned char *p, size_t n, size_t off)
{
	const unsigned char *q = p + off;

	if (off + (size_t)unit_size(u) > n || off + (size_t)unit_size(u) < off)
		return -1;
	switch (u) {
	case UNIT_8:
		return q[0] < 0x80 ? q[0] : 0x100;
	case UNIT_EBCDIC:
		return ebcdic_invariant[q[0]] ? ebcdic_invariant[q[0]] :
		    q[0] == 0 ? 0 : 0x100;
	case UNIT_16BE:
		return (long)q[0] << 8 | q[1];
	case UNIT_16LE:
		return (long)q[1] << 8 | q[0];
	default:
		break;
	}
	/* 32-bit: bytes b0..b3 from most to least significant. */
	static const unsigned char order[][4] = {
		[UNIT_32BE] = { 0, 1, 2, 3 },
		[UNIT_32LE] = { 3, 2, 1, 0 },
		[UNIT_32_2143] = { 1, 0, 3, 2 },
		[UNIT_32_3412] = { 2, 3, 0, 1 },
	};
	const unsigned char *o = order[u];
	unsigned long v = (unsigned long)q[o[0]] << 24 |
	    (unsigned long)q[o[1]] << 16 | (unsigned long)q[o[2]] << 8 | q[o[3]];

	return v > 0x10FFFF ? 0x100 : (long)v;
}

/* Return whether label e can be right for an entity with BOM b. */
int
bom_allows(enum bom b, const struct enc *e)
{
	if (!e->known)
		return 0;
	switch (b) {
	case BOM_UTF8:
		return e->family == ENC_F_UTF8;
	case BOM_UTF16BE:
		return enc_order_free_16(e) || e->family == ENC_F_16BE;
	case BOM_UTF16LE:
		return enc_order_free_16(e) || e->family == ENC_F_16LE;
	case BOM_UTF32BE:
		return enc_order_free_32(e) || e->family == ENC_F_32BE;
	case BOM_UTF32LE:
		return enc_order_free_32(e) || e->family == ENC_F_32LE;
	case BOM_UCS4_2143:
	case BOM_UCS4_3412:
		return enc_order_free_32(e);
	default:
		return 1;
	}
}

/* Return whether a declaration naming e can be read in pattern pat. */
int
pat_allows(enum pat pat, const struct enc *e)
{
	switch (pat) {
	case PAT_16BE:
		return enc_order_free_16(e) || e->family == ENC_F_16BE;
	case PAT_16LE:
		return enc_order_free_16(e) || e->family == ENC_F_16LE;
	case PAT_32BE:
		return enc_order_free_32(e) || e->family == ENC_F_32BE;
	case PAT_32LE:
		return enc_order_free_32(e) || e->family == ENC_F_32LE;
	case PAT_32_2143:
	case PAT_32_3412:
		return enc_order_free_32(e);
	case PAT_EBCDIC:
		return e->family == ENC_F_EBCDIC || e->family == ENC_F_OTHER;
	default:
		return e->family == ENC_F_UTF8 || e->family == ENC_F_ASCII ||
		    e->family == ENC_F_OTHER;
	}
}

/* The encoding that a 16/32-bit pattern implies, or NULL. */
const char *
pat_encoding(enum pat pat)
{
	switch (pat) {
	case PAT_16BE:
		return "UTF-16BE";
	case PAT_16LE:
		return "UTF-16LE";
	case PAT_32BE:
		return "UTF-32BE";
	case PAT_32LE:
		return "UTF-32LE";
	case PAT_32_2143:
		return "UCS-4-2143";
	case PAT_32_3412:
		return "UCS-4-3412";
	default:
		return NULL;
	}
}

/* The Unicode form whose zero bytes the first four bytes show (any
 * characters, not only "<?" as Appendix F lists), or NULL. */
const char *
pat_zeros(const unsigned char *p, size_t n)
{
	if (n < 4)
		return NULL;
	if (p[0] && !p[1] && !p[2] && !p[3])
		return "UTF-32LE";
	if (!p[0] && !p[1] && !p[2] && p[3])
		return "UTF-32BE";
	if (p[0] && !p[1] && p[2] && !p[3])
		return "UTF-16LE";
	if (!p[0] && p[1] && !p[2] && p[3])
		return "UTF-16BE";
	return NULL;
}

/* The Appendix F pattern that the bytes of BOM b's own layout show. */
enum pat
pat_of_bom(enum bom b)
{
	switch (b) {
	case BOM_UTF16BE:
		return PAT_16BE;
	case BOM_UTF16LE:
		return PAT_16LE;
	case BOM_UTF32BE:
		return PAT_32BE;
	case BOM_UTF32LE:
		return PAT_32LE;
	case BOM_UCS4_2143:
		return PAT_32_2143;
	case BOM_UCS4_3412:
		return PAT_32_3412;
	default:
		return PAT_ASCII;
	}
}

/* How much of the head the evidence about a BOM is read from. */
#define EVIDENCE_MAX 256

/*
 * Whether the head q[0..m) reads in layout u (UTF-8 for UNIT_8, the
 * 16- and 32-bit forms) as XML Chars only (XML 1.0 [2]), as far as
 * EVIDENCE_MAX bytes; a character cut off at the end counts as clean.
 * EBCDIC has no one reading: clean.
 */
int
pat_reads_clean(const unsigned char *q, size_t m, enum unit u)
{
	size_t i = 0, w = m < EVIDENCE_MAX ? m : EVIDENCE_MAX;
	uint32_t c = 0;
	long v;
	int r;

	while (i < w && u != UNIT_EBCDIC) {
		if (u == UNIT_8)
			r = utf8_dec(q + i, w - i, &c);
		else if (u == UNIT_16BE || u == UNIT_16LE)
			r = utf16_dec(q + i, w - i, u == UNIT_16BE, &c);
		else if ((v = unit_get(u, q, w, i)) < 0)
			r = 0;
		else {
			c = (uint32_t)v;
			r = v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) ?
			    -4 : 4;
		}
		if (r == 0)
			break;
		if (r < 0 || !xml_char_ok(c, 0))
			return 0;
		i += (size_t)r;
	}
	return 1;
}

static int
name_start(long c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	    c == ':';
}

static int
space(long c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/*
 * Whether the head q[0..m) read in layout u begins, after white space, with
 * XML markup spelt in ASCII: "<?xml" and white space, "<!--", "<!DOCTYPE"
 * and white space, or a start tag ("<", a name, then ">", "/" or white
 * space).  Text of another layout is never that in the BOM's own reading
 * except by an implausible choice of characters (every one U+xx00, or
 * CJK ideographs spelling "<?xml" byte by byte).
 */
int
pat_markup(const unsigned char *q, size_t m, enum unit u)
{
	static const char *const opens[] = { "<?xml", "<!--", "<!DOCTYPE" };
	size_t usz = (size_t)unit_size(u), w = m < EVIDENCE_MAX ? m :
	    EVIDENCE_MAX, i = 0, k, j;
	long c;

	while ((c = unit_get(u, q, w, i)) >= 0 && space(c))
		i += usz;
	for (k = 0; k < sizeof(opens) / sizeof(opens[0]); k++) {
		for (j = 0; opens[k][j] != '\0' &&
		    unit_get(u, q, w, i + j * usz) == opens[k][j]; j++)
			;
		if (opens[k][j] == '\0' && (k == 1 ||
		    space(unit_get(u, q, w, i + j * usz))))
			return 1;
	}
	if (unit_get(u, q, w, i) != '<' || !name_start(unit_get(u, q, w,
	    i + usz)))
		return 0;
	for (i += 2 * usz; (c = unit_get(u, q, w, i)) >= 0; i += usz)
		if (!name_start(c) && !(c >= '0' && c <= '9') && c != '.' &&
		    c != '-')
			return c == '>' || c == '/' || space(c);
	return 0;
}

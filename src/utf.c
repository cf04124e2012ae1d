/*
 * The Unicode text layer (utf.h): the decoders of the Unicode forms and
 * the XML Char production, shared by validation, transcoding and output.
 */
#include "utf.h"

/* XML 1.0 [2] Char, or with xml11 the characters XML 1.1 allows literally
 * (its Char less RestrictedChar [2a]). */
int
xml_char_ok(uint32_t c, int xml11)
{
	if (c < 0x20)
		return c == 0x9 || c == 0xA || c == 0xD;
	if (c < 0x7F)
		return 1;
	if (xml11 && c <= 0x9F)
		return c == 0x85;
	if (c <= 0xD7FF)
		return 1;
	if (c < 0xE000)
		return 0;
	if (c <= 0xFFFD)
		return 1;
	return c >= 0x10000 && c <= 0x10FFFF;
}

/*
 * UTF-8 (RFC 3629 section 4): no overlongs, surrogates or code points past
 * U+10FFFF.  An illegal sequence skips its maximal valid prefix (at least
 * one byte), as the Unicode standard recommends for resynchronisation.
 */
int
utf8_dec(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned b = p[0], lo = 0x80, hi = 0xBF;
	size_t len, i;
	uint32_t c;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xC2 && b <= 0xDF) {
		len = 2;
		c = b & 0x1F;
	} else if (b >= 0xE0 && b <= 0xEF) {
		len = 3;
		c = b & 0x0F;
		if (b == 0xE0)
			lo = 0xA0;
		else if (b == 0xED)
			hi = 0x9F;
	} else if (b >= 0xF0 && b <= 0xF4) {
		len = 4;
		c = b & 0x07;
		if (b == 0xF0)
			lo = 0x90;
		else if (b == 0xF4)
			hi = 0x8F;
	} else
		return -1;
	for (i = 1; i < len; i++) {
		if (i >= n)
			return 0;
		if (p[i] < lo || p[i] > hi)
			return -(int)i;
		lo = 0x80;
		hi = 0xBF;
		c = c << 6 | (p[i] & 0x3F);
	}
	*cp = c;
	return (int)len;
}

/* UTF-16 (RFC 2781 section 2.2): surrogates must pair, high then low. */
int
utf16_dec(const unsigned char *p, size_t n, int be, uint32_t *cp)
{
	uint32_t u, w;

	if (n < 2)
		return 0;
	u = be ? load_be16(p) : load_le16(p);
	if (u < 0xD800 || u > 0xDFFF) {
		*cp = u;
		return 2;
	}
	if (u >= 0xDC00)
		return -2;
	if (n < 4)
		return 0;
	w = be ? load_be16(p + 2) : load_le16(p + 2);
	if (w < 0xDC00 || w > 0xDFFF)
		return -2;
	*cp = 0x10000 + ((u - 0xD800) << 10) + (w - 0xDC00);
	return 4;
}

/* UTF-32: one unit a character, no surrogates, nothing past U+10FFFF. */
int
utf32_dec(const unsigned char *p, size_t n, int be, uint32_t *cp)
{
	uint32_t u;

	if (n < 4)
		return 0;
	u = be ? load_be32(p) : load_le32(p);
	if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF))
		return -4;
	*cp = u;
	return 4;
}

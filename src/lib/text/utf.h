/*
 * The Unicode text layer: decoders and an encoder for the Unicode forms,
 * the XML Char production, byte-order loads and the XML line-end rule
 * (and str_put, a copy into a fixed field).
 * It depends on nothing but the C library's integer types, does no I/O
 * and keeps no state, so that every other part can use it.
 */
#ifndef UTF_H
#define UTF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The loads, the decoders and xml_char_ok are C99 inline definitions, so
 * that the compiler sees them at each caller (the character-at-a-time
 * paths call them for every character); utf.c holds the one external
 * definition of each.  The encoder and the stepper are static inline.
 */

/* Loads of 16- and 32-bit code units in either byte order. */
inline uint32_t	load_le16(const unsigned char *);
inline uint32_t	load_be16(const unsigned char *);
inline uint32_t	load_le32(const unsigned char *);
inline uint32_t	load_be32(const unsigned char *);

/*
 * Decoders: return the length of the sequence at p[0..n) (decoding it
 * into *cp), 0 if more bytes are needed, or -n for an illegal sequence of
 * n bytes to skip.  be: big-endian.
 */
inline int	utf8_dec(const unsigned char *, size_t, uint32_t *);
inline int	utf16_dec(const unsigned char *, size_t, int, uint32_t *);
inline int	utf32_dec(const unsigned char *, size_t, int, uint32_t *);

inline int	xml_char_ok(uint32_t, int);

/* Why a sequence the decoders reject is illegal, in words (utf.c). */
const char	*utf8_why(const unsigned char *, size_t);
void		 utf16_why(const unsigned char *, int, char *, size_t);
void		 utf32_why(const unsigned char *, int, char *, size_t);

inline uint32_t
load_le16(const unsigned char *p)
{
	return (uint32_t)p[1] << 8 | p[0];
}

inline uint32_t
load_be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

inline uint32_t
load_le32(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | p[0];
}

inline uint32_t
load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* XML 1.0 [2] Char, or with xml11 the characters XML 1.1 allows literally
 * (its Char less RestrictedChar [2a]). */
inline int
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
inline int
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
inline int
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
inline int
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

/*
 * The length of the UTF-8 sequence that byte b begins, by its high bits
 * alone (RFC 3629 section 3): 1 below 0x80, 2 up to 0xDF, 3 up to 0xEF,
 * 4 above.  Whether b may lead at all (C2..F4), and whether what follows
 * fits, is the caller's to ask.
 */
static inline int
utf8_lead_len(unsigned b)
{
	return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

/*
 * Write c (below 0x110000) at o in UTF-8 (RFC 3629 section 3) and return
 * the bytes written, 1 to 4.  Surrogates are written as three bytes like
 * any other BMP value; callers that must not write them check first.
 */
static inline int
utf8_enc(unsigned char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (unsigned char)(0xC0 | c >> 6);
		o[1] = (unsigned char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (unsigned char)(0xE0 | c >> 12);
		o[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
		o[2] = (unsigned char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | c >> 18);
	o[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
	o[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
	o[3] = (unsigned char)(0x80 | (c & 0x3F));
	return 4;
}

/* A position in decoded text: line and column, 1-based, columns counted
 * in characters; prev is the character before (0 at the start). */
struct linepos {
	uint64_t	line, col;
	uint32_t	prev;
};

/*
 * Move pos past character c.  XML 1.0 section 2.11: CR, LF and the pair
 * CR LF each end a line.  XML 1.1 section 2.11 (xml11) adds NEL (U+0085),
 * the pair CR NEL and LS (U+2028).  The second character of a pair
 * neither ends a line nor takes a column.
 */
static inline void
linepos_step(struct linepos *pos, uint32_t c, int xml11)
{
	if (c == '\n' || (xml11 && c == 0x85)) {
		if (pos->prev != '\r') {
			pos->line++;
			pos->col = 1;
		}
	} else if (c == '\r' || (xml11 && c == 0x2028)) {
		pos->line++;
		pos->col = 1;
	} else
		pos->col++;
	pos->prev = c;
}

/*
 * src into dst of size (not 0), cut short to size - 1 bytes: what
 * snprintf(dst, size, "%s", src) writes, without its cost (the head of
 * every input is read into fixed fields this way).  In line: a string
 * the caller names has its length known to the compiler.
 */
static inline void
str_put(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * memset(p, 0, n) by the C library's own function, never expanded in
 * line (utf.c): compilers expand a memset of a known size of hundreds
 * of bytes as "rep stos", whose start costs tens of cycles on some x86
 * cores, where the library's memset uses vector stores.  For the
 * structures cleared once for each input.
 */
void		 mem_zero(void *, size_t);

#endif /* UTF_H */

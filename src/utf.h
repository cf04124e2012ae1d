/*
 * The Unicode text layer: decoders and an encoder for the Unicode forms,
 * the XML Char production, byte-order loads and the XML line-end rule.
 * It depends on nothing but the C library's integer types, does no I/O
 * and keeps no state, so that every other part can use it.
 */
#ifndef UTF_H
#define UTF_H

#include <stddef.h>
#include <stdint.h>

/* Loads of 16- and 32-bit code units in either byte order. */
static inline uint32_t
load_le16(const unsigned char *p)
{
	return (uint32_t)p[1] << 8 | p[0];
}

static inline uint32_t
load_be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint32_t
load_le32(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | p[0];
}

static inline uint32_t
load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
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

/*
 * Decoders: return the length of the sequence at p[0..n) (decoding it
 * into *cp), 0 if more bytes are needed, or -n for an illegal sequence of
 * n bytes to skip.  be: big-endian.
 */
int	utf8_dec(const unsigned char *, size_t, uint32_t *);
int	utf16_dec(const unsigned char *, size_t, int, uint32_t *);
int	utf32_dec(const unsigned char *, size_t, int, uint32_t *);

int	xml_char_ok(uint32_t, int);

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

#endif /* UTF_H */

/*
 * Level none: the portable kernels, a word or a unit at a time, which
 * every machine has and every other table falls back on for what it has
 * no kernel of its own (and for the tail of a buffer too short for a
 * vector).
 *
 * Validation: a plain character is an XML 1.0 Char: TAB, LF, CR,
 * U+0020..U+10FFFF less surrogates, U+FFFE and U+FFFF (UTF-32 and
 * single-byte text: less CR, whose line-end rule the caller applies).
 * Each plain_* function returns how many bytes from the start of p are
 * plain characters, ending on a character boundary, and adds their line
 * ends to *lines and their columns to *col as the character-at-a-time
 * path would (XML 1.0 section 2.11: a CR is a line end, an LF is one
 * but right after a CR).  The caller never starts a run right after a
 * CR; a run may end with one, and the caller then keeps it as the
 * character before the next (struct linepos prev), so an LF that comes
 * next, in this call or the next, is no second line end.  Anything else
 * is left to the character path, so the answers never depend on the
 * path taken.
 *
 * In UTF-16 a surrogate pair (a high half, then a low one) is one plain
 * character.
 *
 * Conversion: a run holds whole characters that the validator has
 * checked, so nothing here checks again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd.h"

/*
 * Portable: eight plain ASCII bytes at a time, else one character, from
 * p[i] on (the bytes before are plain characters, and the last of them
 * may be a CR).
 */
static size_t
utf8_from(const unsigned char *p, size_t n, size_t i, uint64_t *lines,
    uint64_t *col)
{
	int cr = i > 0 && p[i - 1] == '\r';

	for (;;) {
		uint32_t c = 0;	/* set where the decoder reads one */
		int r;

		while (i + 8 <= n) {
			uint64_t w;

			memcpy(&w, p + i, 8);
			/* Bytes 0x20..0x7F: no high bit, none below 0x20. */
			if (((w | (w - 0x2020202020202020ULL)) &
			    0x8080808080808080ULL) != 0)
				break;
			i += 8;
			*col += 8;
			cr = 0;
		}
		if (i >= n)
			break;
		r = utf8_dec(p + i, n - i, &c);
		if (r <= 0 || !xml_char_ok(c, 0))
			break;
		if (c == '\r' || (c == '\n' && !cr)) {
			(*lines)++;
			*col = 1;
		} else if (c != '\n')
			(*col)++;
		cr = c == '\r';
		i += (size_t)r;
	}
	return i;
}

size_t
plain_utf8_word(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	return utf8_from(p, n, 0, lines, col);
}

/* The plain prefix of UTF-16 (be: big-endian), one unit at a time from
 * p[i] on (as utf8_from): surrogates, controls other than TAB, LF and
 * CR, U+FFFE and U+FFFF end it. */
size_t
plain_utf16_rest(const unsigned char *p, size_t n, size_t i, int be,
    uint64_t *lines, uint64_t *col)
{
	int cr = i >= 2 && (be ? load_be16(p + i - 2) :
	    load_le16(p + i - 2)) == '\r';

	for (; i + 2 <= n; i += 2) {
		uint32_t u = be ? load_be16(p + i) : load_le16(p + i);

		if (u >= 0x20 && (u < 0xD800 || u > 0xDFFF) && u < 0xFFFE) {
			(*col)++;
			cr = 0;
		} else if ((u & 0xFC00) == 0xD800 && i + 4 <= n &&
		    ((be ? load_be16(p + i + 2) : load_le16(p + i + 2)) &
		    0xFC00) == 0xDC00) {
			/* A surrogate pair: one character, U+10000 and up. */
			(*col)++;
			cr = 0;
			i += 2;
		} else if (u == '\r' || (u == '\n' && !cr)) {
			(*lines)++;
			*col = 1;
			cr = u == '\r';
		} else if (u == '\n')
			cr = 0;
		else if (u == '\t') {
			(*col)++;
			cr = 0;
		} else
			break;
	}
	return i;
}

size_t
plain_utf16_word(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	return plain_utf16_rest(p, n, 0, be, lines, col);
}

/* The plain prefix of UTF-32 (be: big-endian), one unit at a time:
 * surrogates, controls other than TAB/LF, U+FFFE, U+FFFF and values
 * past U+10FFFF end it. */
size_t
plain_utf32_word(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		uint32_t u = be ? load_be32(p + i) : load_le32(p + i);

		if (u >= 0x20 && (u < 0xD800 || u > 0xDFFF) && u != 0xFFFE &&
		    u != 0xFFFF && u <= 0x10FFFF)
			(*col)++;
		else if (u == '\n') {
			(*lines)++;
			*col = 1;
		} else if (u != '\t')
			break;
		else
			(*col)++;
	}
	return i;
}

/* The prefix of single-byte text whose bytes are all in map (which has
 * neither CR nor anything that is not a plain character), a byte at a
 * time. */
size_t
plain_sb_word(const unsigned char *p, size_t n, const struct plainmap *map,
    uint64_t *lines, uint64_t *col)
{
	size_t i;

	for (i = 0; i < n && IN_MAP(map, p[i]); i++) {
		if (p[i] == '\n') {
			(*lines)++;
			*col = 1;
		} else
			(*col)++;
	}
	return i;
}

/* How many bytes at the end of p[0..e) start a sequence that goes on
 * past e (the bytes before e are valid UTF-8). */
static size_t
partial_tail(const unsigned char *p, size_t e)
{
	if (e >= 1 && p[e - 1] >= 0xC0)
		return 1;
	if (e >= 2 && p[e - 2] >= 0xE0)
		return 2;
	if (e >= 3 && p[e - 3] >= 0xF0)
		return 3;
	return 0;
}

/* After the vector blocks of a UTF-8 kernel up to i: back up to the start
 * of a character that goes on past i (its lead was counted as a column),
 * and take the rest eight bytes at a time. */
size_t
plain_utf8_rest(const unsigned char *p, size_t n, size_t i, uint64_t *lines,
    uint64_t *col)
{
	size_t b = partial_tail(p, i);

	if (b > 0) {
		i -= b;
		(*col)--;
	}
	return utf8_from(p, n, i, lines, col);
}

/* Decode the whole, valid character at p in form; return its length. */
static inline int
get_char(const unsigned char *p, int form, uint32_t *c)
{
	uint32_t u, lo;

	switch (form) {
	case FORM_UTF8:
		u = p[0];
		if (u < 0x80) {
			*c = u;
			return 1;
		}
		if (u < 0xE0) {
			*c = (u & 0x1F) << 6 | (p[1] & 0x3F);
			return 2;
		}
		if (u < 0xF0) {
			*c = (u & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 |
			    (p[2] & 0x3F);
			return 3;
		}
		*c = (u & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
		    (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
		return 4;
	case FORM_UTF16BE:
	case FORM_UTF16LE:
		u = form == FORM_UTF16BE ? load_be16(p) : load_le16(p);
		if (u >= 0xD800 && u < 0xDC00) {
			/* Only then is there a second unit to read. */
			lo = form == FORM_UTF16BE ? load_be16(p + 2) :
			    load_le16(p + 2);
			*c = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			return 4;
		}
		*c = u;
		return 2;
	case FORM_UTF32BE:
		*c = load_be32(p);
		return 4;
	default:
		*c = load_le32(p);
		return 4;
	}
}

/* Write c in form at o; return the bytes written. */
static inline int
put_char(unsigned char *o, int form, uint32_t c)
{
	int be = form_be(form);

	switch (form) {
	case FORM_UTF8:
		return utf8_enc(o, c);
	case FORM_UTF16BE:
	case FORM_UTF16LE:
		if (c >= 0x10000) {
			uint32_t hi = 0xD800 + ((c - 0x10000) >> 10);
			uint32_t lo = 0xDC00 + ((c - 0x10000) & 0x3FF);

			o[be ? 0 : 1] = (unsigned char)(hi >> 8);
			o[be ? 1 : 0] = (unsigned char)hi;
			o[be ? 2 : 3] = (unsigned char)(lo >> 8);
			o[be ? 3 : 2] = (unsigned char)lo;
			return 4;
		}
		o[be ? 0 : 1] = (unsigned char)(c >> 8);
		o[be ? 1 : 0] = (unsigned char)c;
		return 2;
	default:
		o[be ? 0 : 3] = (unsigned char)(c >> 24);
		o[be ? 1 : 2] = (unsigned char)(c >> 16);
		o[be ? 2 : 1] = (unsigned char)(c >> 8);
		o[be ? 3 : 0] = (unsigned char)c;
		return 4;
	}
}

/* The portable path: the characters that begin in p[0..n) (the last may
 * end past n, where a block cuts one), a character at a time, written at
 * *o, which moves on.  Return the input bytes taken. */
size_t
conv_word_from(int from, int to, const unsigned char *p, size_t n,
    unsigned char **o)
{
	size_t i = 0;

	while (i < n) {
		uint32_t c;

		i += (size_t)get_char(p + i, from, &c);
		*o += put_char(*o, to, c);
	}
	return i;
}

/* The whole characters p[0..n) at o; return the bytes written. */
size_t
conv_word(int from, int to, const unsigned char *p, size_t n,
    unsigned char *o)
{
	unsigned char *e = o;

	conv_word_from(from, to, p, n, &e);
	return (size_t)(e - o);
}

/* conv_find32, a character at a time. */
size_t
find32_word(const unsigned char *u, size_t nc, uint32_t a, uint32_t b,
    uint32_t c)
{
	size_t k;

	for (k = 0; k < nc; k++) {
		uint32_t x = load_le32(u + 4 * k);

		if (x == a || x == b || x == c)
			break;
	}
	return k;
}

/* late_find: memchr(3) for the byte of '<', then a look one unit on. */
size_t
late_find_word(const struct late *lt, const unsigned char *p, size_t n,
    size_t i)
{
	size_t step = lt->usz, j;

	for (j = i + lt->lt_at; j + step < n; j++) {
		const unsigned char *q = memchr(p + j, lt->lt_byte, n - step - j);

		if (q == NULL)
			break;
		j = (size_t)(q - p);
		if (p[j + step] == lt->q_byte || p[j + step] == lt->bang_byte)
			return j - lt->lt_at;
	}
	return n;
}

/*
 * moj_skip() a word at a time while no lines are counted: eight bytes
 * with no C2 or C3 (the bytes that begin a candidate) passed over at
 * once; the rest a byte at a time (moj_skip_tail), as the vector passes.
 */
size_t
moj_skip_word(const unsigned char *p, size_t n, struct mojskip *k)
{
	const uint64_t ones = 0x0101010101010101ull;
	size_t i = 0;
	uint64_t w, x;

	if (!k->count)
		for (; i + 8 + 2 <= n; i += 8) {
			memcpy(&w, p + i, 8);
			/* a byte of x is zero where w has C2 or C3 */
			x = (w ^ 0xC2C2C2C2C2C2C2C2ull) & ~ones;
			if (((x - ones) & ~x & 0x8080808080808080ull) != 0)
				break;
		}
	return moj_skip_tail(p, n, i, k);
}

/*
 * moj_skipw() four units a word: those of 0080..00FF found at once (the
 * lanes whose high byte is 0 and low byte's top bit set), and only such
 * words asked a unit at a time (moj_exactw).
 */
size_t
moj_skipw_word(const unsigned char *p, size_t n, int be)
{
	static const uint16_t one = 1;
	const uint64_t hi = 0xFF00FF00FF00FF00ull;
	const uint64_t h7 = 0x7F007F007F007F00ull;
	/* A word's 16-bit lanes are the units when the data's byte order
	 * is the machine's; else each is turned round. */
	int swap = be == (*(const unsigned char *)&one == 1);
	uint64_t w, t;
	size_t j = 0, k;

	for (; j + 10 <= n; j += 8) {
		memcpy(&w, p + j, 8);
		if (swap)
			w = (w & 0x00FF00FF00FF00FFull) << 8 | (w & hi) >> 8;
		t = w & hi;
		/* bit 15 of a lane: its high byte is 0 */
		if ((~(((t & h7) + h7) | t) & 0x8000800080008000ull &
		    w << 8) == 0)
			continue;
		for (k = j; k < j + 8; k += 2)
			if (moj_exactw(p + k, n - k, 2, be))
				return k;
	}
	for (; j + 4 <= n; j += 2)
		if (moj_exactw(p + j, n - j, 2, be))
			break;
	return j;
}

/* Whether a 32-bit half of x is zero (a half above a zero one may be
 * called zero too: both units are asked again). */
#define HALF_ZERO(x)	(((x) - 0x0000000100000001ULL) & ~(x) & \
			    0x8000000080000000ULL)

/*
 * moj_skip32() two units a word: a pair with no unit 80..FF (the first
 * byte in memory's order with its top bit set and the other three 0, a
 * mask and a value of bytes in that order, so the host's order does not
 * matter) and none FFFFFFFF is passed over at once; the others are asked
 * a unit at a time (moj_stop32).
 */
size_t
moj_skip32_word(const unsigned char *p, size_t n, int be)
{
	static const unsigned char mle[8] = { 0x80, 0xFF, 0xFF, 0xFF, 0x80,
	    0xFF, 0xFF, 0xFF }, mbe[8] = { 0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF,
	    0xFF, 0x80 }, vle[8] = { 0x80, 0, 0, 0, 0x80, 0, 0, 0 },
	    vbe[8] = { 0, 0, 0, 0x80, 0, 0, 0, 0x80 };
	uint64_t m, v, x;
	size_t j = 0;

	memcpy(&m, be ? mbe : mle, 8);
	memcpy(&v, be ? vbe : vle, 8);
	for (; j + 12 <= n; j += 8) {
		memcpy(&x, p + j, 8);
		if ((HALF_ZERO((x & m) ^ v) | HALF_ZERO(~x)) == 0)
			continue;
		if (moj_stop32(p + j, n - j, be))
			return j;
		if (moj_stop32(p + j + 4, n - j - 4, be))
			return j + 4;
	}
	for (; j + 8 <= n; j += 4)
		if (moj_stop32(p + j, n - j, be))
			break;
	return j;
}

const struct kernels kernels_word = {
	.name = "none",
	.usable = simd_everywhere,
	.plain_utf8 = plain_utf8_word,
	.plain_utf16 = plain_utf16_word,
	.plain_utf32 = plain_utf32_word,
	.plain_sb = plain_sb_word,
	.conv = conv_word,
	.find32 = find32_word,
	.late_find = late_find_word,
	.moj_skip = moj_skip_word,
	.moj_skipw = moj_skipw_word,
	.moj_skip32 = moj_skip32_word,
};

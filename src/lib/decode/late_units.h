/*
 * The late lexer's reading of the entity's code units (late.c), which its
 * leaps (leap.c) read the same way: a unit, a unit's offset on the
 * units, a string of ASCII at an offset, and the search for one.
 */
#ifndef LATE_UNITS_H
#define LATE_UNITS_H

#include <string.h>

#include "kernels.h"

/* The character of the unit at offset i of p[0..n), -1 past the end
 * (bytes of an ASCII-compatible encoding, the common case, in line). */
static inline long
get(const struct late *lt, const unsigned char *p, size_t n, size_t i)
{
	if (lt->unit == UNIT_8 && lt->map == NULL) {
		if (i >= n)
			return -1;
		return p[i] < 0x80 ? p[i] : 0x100;
	}
	if (lt->map != NULL) {
		if (i >= n)
			return -1;
		return lt->map[p[i]] == SB_BAD ? 0x100 : (long)lt->map[p[i]];
	}
	/* UTF-16 in line too, as unit_get() reads it: a call for each
	 * unit was 6% of the time of markup-heavy UTF-16 */
	if (lt->unit == UNIT_16LE || lt->unit == UNIT_16BE) {
		if (i >= n || n - i < 2)
			return -1;
		return (long)(lt->unit == UNIT_16LE ? load_le16(p + i) :
		    load_be16(p + i));
	}
	return unit_get(lt->unit, p, n, i);
}

/* x modulo the unit size, 1, 2 or 4 bytes (unit_size()): a mask, where a
 * division by the size held in lt was half of find_units()' time on
 * markup-heavy text. */
static inline size_t
unit_rem(const struct late *lt, size_t x)
{
	return x & (lt->usz - 1);
}

/* Whether p[i..n) begins with the k ASCII characters s in the entity's
 * code units (bytes: compared at once). */
static inline int
units_at(const struct late *lt, const unsigned char *p, size_t n, size_t i,
    const char *s, size_t k)
{
	size_t j;

	if (lt->usz == 1 && lt->map == NULL) {
		/* byte by byte: k is 2 to 9, and memcmp() a call */
		if (k > n - i)
			return 0;
		for (j = 0; j < k; j++)
			if (p[i + j] != (unsigned char)s[j])
				return 0;
		return 1;
	}
	for (j = 0; j < k; j++, i += lt->usz)
		if (get(lt, p, n, i) != (unsigned char)s[j])
			return 0;
	return 1;
}

/* units_at() of a string literal */
#define UNITS_AT(lt, p, n, i, s)	units_at(lt, p, n, i, s, sizeof(s) - 1)

/*
 * The first unit at or after j (on j's units) of p[0..n) where the ASCII
 * s begins, whole, or n: a search for the byte that carries its first
 * character (memchr), the rest compared.  The first, not the '>' that
 * ends all three of "-->", "?>" and "]]>": the leaps (leap.c) search for
 * an end from anywhere in character data, where every tag's '>' came
 * before it on markup-heavy text.  8-bit text is the case of one byte a
 * unit.
 */
static size_t
find_units(const struct late *lt, const unsigned char *p, size_t n, size_t j,
    const char *s, size_t k)
{
	const unsigned char *q;
	size_t at;

	for (at = j + lt->lt_at; at < n && (q = memchr(p + at, s[0], n - at)) !=
	    NULL; at = (size_t)(q - p) + 1) {
		size_t st = (size_t)(q - p) - lt->lt_at;

		if (unit_rem(lt, st - j) == 0 && units_at(lt, p, n, st, s, k))
			return st;
	}
	return n;
}

/* find_units() of a string literal */
#define FIND_UNITS(lt, p, n, j, s)	find_units(lt, p, n, j, s, sizeof(s) - 1)

#endif

/*
 * The late lexer's runs of markup (late.c, skip_whole), shared by the
 * levels that find them from bit masks (late_run in struct kernels): from
 * a "<?" or "<!" in character data, the comments, CDATA sections and PIs
 * that follow one another are passed over a window of 64 units at a time.
 * A level gives the masks of a window (a late_win_fn); the walk over them
 * is this one, so every level that has one answers alike.
 *
 * On markup-heavy text (a comment or a PI every few dozen bytes) the
 * search of each end and then of the next "<?" or "<!" cost the lexer a
 * few calls each; from the masks each is a shift and a count of zeros.
 */
#ifndef LATE_RUN_H
#define LATE_RUN_H

#include <stdint.h>
#include <string.h>

#include "kernels.h"

/* The units of a window of 64 that are '<', '?', '!', '-', '>' and ']',
 * the first unit the lowest bit. */
struct late_win {
	uint64_t	 lt, q, x, d, g, r;
};

/* The masks of the 64 units of u bytes at p (be: big-endian) */
typedef void	(*late_win_fn)(const unsigned char *, int, struct late_win *);

/* The unit of u bytes (1 or 2) at p. */
__attribute__((always_inline))
static inline uint32_t
lr_unit(const unsigned char *p, size_t u, int be)
{
	return u == 1 ? p[0] : mark_unit16(p, be);
}

/* Whether the k units of u bytes at p are the ASCII s. */
__attribute__((always_inline))
static inline int
lr_at(const unsigned char *p, size_t u, int be, const char *s, size_t k)
{
	size_t j;

	if (u == 1)
		return memcmp(p, s, k) == 0;
	for (j = 0; j < k; j++)
		if (lr_unit(p + j * u, u, be) != (unsigned char)s[j])
			return 0;
	return 1;
}

/*
 * From the "<?" or "<!" at p[i] of p[0..n), in units of u bytes (1 or 2;
 * be: big-endian), lexed in character data: the offset that the lexer
 * (late.c, lex_one) reaches in character data, past the comments ("<!--"
 * to the first "-->" after it), CDATA sections ("<![CDATA[" to the first
 * "]]>") and PIs ("<?" to the first "?>" after it, whose target does not
 * begin "xml") that follow one another from i, as far as the windows
 * show them.  The answer is just past the end of the last one taken, or
 * the "<?" or "<!" after it that this does not take (other markup
 * declarations, a target that begins "xml", an end out of sight); i when
 * it takes none.  A window is 64 units from an open; it moves on to the
 * next open past its first half.
 */
__attribute__((always_inline))
static inline size_t
late_run_walk(const unsigned char *p, size_t n, size_t i, size_t u, int be,
    late_win_fn win)
{
	size_t w = i;

	while (n - w >= 64 * u) {
		struct late_win m;
		uint64_t open, cm, ce, pe, de, ends, nx;
		const unsigned char *o;
		unsigned b = 0, from, e;

		win(p + w, be, &m);
		/* '<' with '?' or '!' after it (the last unit has none in
		 * sight); "<!--"; and the '>' of each kind of end */
		open = m.lt & (m.q | m.x) >> 1;
		cm = m.lt & m.x >> 1 & m.d >> 2 & m.d >> 3;
		ce = m.g & m.d << 1 & m.d << 2;
		pe = m.g & m.q << 1;
		de = m.g & m.r << 1 & m.r << 2;
		for (;;) {
			/* the open at unit b (b < 32: its first nine units
			 * in the window) */
			o = p + w + (size_t)b * u;
			if (cm >> b & 1) {
				ends = ce;
				from = b + 6;
			} else if (m.q >> (b + 1) & 1) {
				if (lr_at(o + 2 * u, u, be, "xml", 3))
					return w + (size_t)b * u;
				ends = pe;
				from = b + 3;
			} else if (lr_at(o + 2 * u, u, be, "[CDATA[", 7)) {
				ends = de;
				from = b + 11;
			} else
				return w + (size_t)b * u;
			if ((ends &= ~0ull << from) == 0)
				return w + (size_t)b * u;
			e = (unsigned)__builtin_ctzll(ends);
			nx = e == 63 ? 0 : open & ~0ull << (e + 1);
			if (nx == 0)
				return w + (size_t)(e + 1) * u;
			b = (unsigned)__builtin_ctzll(nx);
			if (b >= 32)
				break;
		}
		w += (size_t)b * u;
	}
	return w;
}

#endif

/*
 * The late lexer's leaps (late.c, late_next): over character data dense
 * with comments, CDATA sections and PIs, from the marks of the piece
 * (struct marks, every "<?" and "<!"), without lexing each one: 8-bit
 * text read as bytes and UTF-16.
 *
 * The lexer reports only late declarations, and where "<?" and "<!" open
 * nothing but comments, CDATA sections and PIs whose target does not
 * begin "xml", it reports nothing and never leaves those four states:
 * character data, a comment, a PI, a CDATA section.  Its state at a later
 * point s then depends on all the markup before s, but not for long: from
 * s, each of the four states it may be in there goes back to character
 * data at the first end of its kind ("-->", "?>", "]]>"), and from there
 * on it lexes as the lexer that began at s in character data does,
 * unless that one is inside a construct there.  Where every state the
 * lexer can be in at s meets the one from character data so, lexing from
 * s in character data is lexing from where it stands, for every report.
 *
 * So from the open that stops a leap (any other "<!", or a PI whose
 * target begins "xml": the lexer's own work) or the end of the piece, the
 * lexer goes back a few hundred bytes and tries that; if the states do not
 * meet there, further back, and else it lexes from where it stands.  Each
 * "<?" and "<!" on the way costs a look at its bytes, not a walk.  Where
 * the list holds only the opens to lex (struct marks, hard: the
 * validator's of UTF-8 and of bytes), the stop is the next of them, and
 * the kinds the others have (m->ksum) are the states the lexer may be in
 * after them; the marks the states meet by are found in the bytes.
 */
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "late_run.h"
#include "late_units.h"
#include "testhooks.h"

#define LEAP_MIN	4096	/* the least stretch worth leaping, in bytes */
#define LEAP_BACK	512	/* from the stop, back to try first */
#define LEAP_TRIES	3	/* each four times as far back */
#define LEAP_TAIL	32	/* the end of a piece is never leapt into */
#define LEAP_AHEAD	128	/* the marks ahead whose bytes are fetched */
#define NONE		((size_t)-1)

atomic_long late_leap_count[2];

/* the kinds of open (kernels.h, mark_kind8); K_N, one the lexer must
 * lex; K_NOT, a mark that is no open of whole units (UTF-16: the bytes
 * matched across units) */
enum { K_COMMENT = MK_COMMENT, K_PI = MK_PI, K_CDATA = MK_CDATA,
	K_N = MK_OTHER, K_NOT = MK_NOT };

/* The text: p (at offset a of the marks' base), in units of u bytes (1,
 * 2; be: big-endian), read by the lexer lt, with the marks m. */
struct text {
	const struct late	*lt;
	const unsigned char	*p;
	size_t			 a, u;
	int			 be;
	const struct marks	*m;
	int			 hard;	/* m holds only the opens to lex */
	uint64_t		 w[4];	/* UTF-16: mark_words16 */
};

/* The unit at p[j], of the text's u bytes (late_run.h, lr_unit: a load,
 * where late_units.h's get() asks the lexer's encoding each time). */
static inline uint32_t
unit(const struct text *x, size_t j)
{
	return lr_unit(x->p + j, x->u, x->be);
}

/*
 * Whether the unit c leaves the lexer, whatever it read before c, in one
 * of the four states with nothing of an open or an end matched: it is no
 * character of "<!?-[]" nor of "CDATA" nor of "xml" (which an open or an
 * end may be going through), and in a comment, a CDATA section or a PI
 * after it no end has begun.  Only '<', '!' and '-' are needed out (an
 * open half read: tests/kern_lrun.c, late_leap_splits); after the
 * others, a state that differs from the four ends where the one it
 * stands for does, or sooner, where the lexer from c on is in character
 * data too.
 */
static int
neutral(uint32_t c)
{
	if (c >= 0x80 || c == ' ' || c == '\n' || c == '\r' || c == '\t' ||
	    c == '>' || (c >= '0' && c <= '9'))
		return 1;
	return c >= 'a' && c <= 'z' && c != 'x' && c != 'm' && c != 'l';
}

/*
 * The kind of the mark at p[j], of which 9 units can be read: in UTF-16,
 * K_NOT unless it is on the units of p (as the lexer reads them from p,
 * find_markup) and an open (mark_kindw).
 */
static inline int
kind_at(const struct text *x, size_t j)
{
	if (x->u == 1)
		return mark_kind8(x->p + j);
	return j % 2 != 0 ? K_NOT : mark_kindw(x->p + j, x->be, x->w);
}

/*
 * The offset just past the first end of a construct of kind k that
 * begins at or after from in p[0..to) ("-->", "?>", "]]>" whole, and
 * none of it before from), or NONE.
 */
static size_t
end_after(const struct text *x, size_t from, size_t to, int k)
{
	static const char *const ends[K_N] = { "-->", "?>", "]]>" };
	size_t len = k == K_PI ? 2 : 3,
	    g = find_units(x->lt, x->p, to, from, ends[k], len);

	return g < to ? g + len * x->u : NONE;
}

/* The index of the first of m's marks at or after offset y of its base. */
static size_t
mark_at(const struct marks *m, size_t y)
{
	size_t lo = 0, hi = m->nlt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->lt[mid] < y)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether the lexer in any of the states first[] allows at s (a state X
 * only where an open of kind X is before s) meets, by p[0..h), the lexer
 * that begins at s in character data: each, once back in character data
 * at the first end of its kind, must find that one in character data
 * too, not inside a construct.  t: the first mark at or after s.
 */
static int
meets(const struct text *x, size_t t, size_t s, size_t h,
    const size_t first[K_N])
{
	const struct marks *m = x->m;
	size_t e[K_N], last = s, at = s, o, b, u = x->u;
	int k, kind;

	for (k = 0; k < K_N; k++) {
		e[k] = first[k] < s ? end_after(x, s, h, k) : s;
		if (e[k] == NONE)
			return 0;
		last = e[k] > last ? e[k] : last;
	}
	/* the lexer from s in character data, as far as the last of them */
	for (;; t++) {
		if (x->hard) {
			/* the marks before last, from the bytes (an open's
			 * two units before last + 4u, h at most) */
			b = last + 4 * u < h ? last + 4 * u : h;
			if ((o = late_find(x->lt, x->p, b, at)) >= last)
				return 1;
		} else {
			for (; t < m->nlt && m->lt[t] < x->a + at; t++)
				;
			if (t == m->nlt || (o = m->lt[t] - x->a) >= last)
				return 1;
		}
		kind = kind_at(x, o);
		if (kind == K_NOT) {
			/* (bytes across units) */
			at = o + 1;
			continue;
		}
		/* (none before the stop; not met, were there one) */
		if (kind == K_N)
			return 0;
		b = end_after(x, o + (kind == K_COMMENT ? 4 : kind == K_PI ?
		    2 : 9) * u, h, kind);
		for (k = 0; k < K_N; k++)
			if (e[k] > o && (b == NONE || e[k] < b))
				return 0;
		/* (an end out of sight has some e[k] past o: not met) */
		at = b;
	}
}

/*
 * Where late_next() may go on lexing p[0..n) (p at absolute offset off),
 * in character data at i, as if from i: i, or a later offset by the
 * rule above.  8-bit text read as bytes and UTF-16, with the marks of the
 * piece (lt->mk) whole over it; elsewhere, and at level ref, i.  An
 * attempt, taken or not, is not made again before the stop it looked
 * back from.
 */
size_t
late_leap(struct late *lt, const unsigned char *p, size_t n, size_t i,
    uint64_t off)
{
	struct marks *m = lt->mk;
	size_t first[K_N] = { NONE, NONE, NONE };
	size_t t, t0, h, j, s, back;
	int k, try;
	struct text x;

	/* (a list of the opens to lex has those on the units of its base:
	 * p must be on one of them) */
	if (!lt->whole || lt->usz > 2 || lt->map != NULL || m == NULL ||
	    m->base == NULL || p < m->base || (m->hard &&
	    (size_t)(p - m->base) % lt->usz != 0) ||
	    n < LEAP_MIN + LEAP_TAIL || i > n - LEAP_MIN - LEAP_TAIL || off + i < lt->leap_at ||
	    (size_t)(p - m->base) + n > m->len ||
	    (size_t)(p - m->base) + n - 1 > m->lcov)
		return i;
	x.lt = lt;
	x.p = p;
	x.a = (size_t)(p - m->base);
	x.u = lt->usz;
	x.be = lt->unit == UNIT_16BE;
	mark_words16(x.w, x.be);
	x.m = m;
	x.hard = m->hard;
	t0 = mark_at(m, x.a + i);
	/* the first open the lexer must lex, or near the end of the piece */
	h = n - LEAP_TAIL;
	if (x.hard) {
		/* each kind of the opens left out may be before it */
		if (t0 < m->nlt && m->lt[t0] - x.a < h)
			h = m->lt[t0] - x.a;
		for (k = 0; k < K_N; k++)
			first[k] = m->ksum >> k & 1 ? i : NONE;
	} else for (t = t0; t < m->nlt && (j = m->lt[t] - x.a) < h; t++) {
		if (t + LEAP_AHEAD < m->nlt)
			__builtin_prefetch(m->base + m->lt[t + LEAP_AHEAD]);
		k = kind_at(&x, j);
		if (k == K_N) {
			h = j;
			break;
		}
		if (k != K_NOT && first[k] == NONE)
			first[k] = j;
	}
	lt->leap_at = off + h;
	if (h - i < LEAP_MIN)
		return i;
	for (try = 0, back = LEAP_BACK; try < LEAP_TRIES; try++, back *= 4) {
		if (h - i < back + LEAP_MIN / 2)
			break;
		/* on i's units, after a unit that leaves nothing matched */
		s = h - back;
		s -= (s - i) % x.u;
		for (; s > i && !neutral(unit(&x, s - x.u)); s -= x.u)
			;
		if (s <= i)
			break;
		t = mark_at(m, x.a + s);
		if (meets(&x, t, s, h, first)) {
			atomic_fetch_add_explicit(&late_leap_count[0], 1,
			    memory_order_relaxed);
			m->lat = t;
			return s;
		}
		atomic_fetch_add_explicit(&late_leap_count[1], 1,
		    memory_order_relaxed);
	}
	return i;
}

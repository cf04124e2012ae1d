/*
 * XML declarations that are not the first thing in the entity.  XML 1.0
 * [17] reserves the PI target "xml" and [22]-[23] allow the declaration
 * only at the very start (after a BOM), so every later "<?xml" followed by
 * white space or "?>" is decl-not-at-start, wherever it stands: after a
 * DOCTYPE, after the root element, a second declaration in a row.  The
 * same bytes inside a comment, a CDATA section or another PI are text, and
 * are not reported.
 *
 * Cost: character data is searched for "<?" and "<!" by the kernels of
 * the level in use (late_find(): 32 bytes at a time at level avx2, 16 at
 * sse2); comments, CDATA sections and PIs are passed over whole, those
 * that follow one another from the bit masks of 64 units at a time where
 * the level has them (late_run.h); other markup, rare, is lexed a
 * character at a time.  Over long stretches with no other markup, the
 * lexer leaps from the marks of the piece (leap.c) to a few hundred
 * bytes before the next markup it must lex, or the end of the piece.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "late_units.h"

enum {
	LX_TEXT,	/* character data, or the internal subset */
	LX_LT,		/* after '<' */
	LX_PI_TARGET,	/* after "<?", matching "xml" */
	LX_PI,
	LX_PI_Q,	/* in a PI after '?' */
	LX_BANG,	/* after "<!" */
	LX_BANG_DASH,	/* after "<!-" */
	LX_COMMENT,
	LX_CDATA_OPEN,	/* after "<![", matching "CDATA[" */
	LX_CDATA,
	LX_DECL,	/* a markup declaration or DOCTYPE */
	LX_DECL_QUOTE
};

/* The layout the entity's characters are read in, for its decoder. */
static enum unit
unit_of(const struct sniff *s)
{
	switch (s->dec) {
	case FORM_UTF16BE:
		return UNIT_16BE;
	case FORM_UTF16LE:
		return UNIT_16LE;
	case FORM_UTF32BE:
		return UNIT_32BE;
	case FORM_UTF32LE:
		return UNIT_32LE;
	case FORM_ICONV:
		/* A 16-bit form that iconv decodes (UCS-2), in the order
		 * sniff chose for it. */
		if (s->enc.family == ENC_F_UCS2)
			return s->pat == PAT_16LE || s->bom == BOM_UTF16LE ?
			    UNIT_16LE : UNIT_16BE;
		return UNIT_8;
	default:
		return UNIT_8;
	}
}

/* The one byte that map gives c for, or -1 when none or several do. */
static int
byte_of(const uint32_t *map, uint32_t c)
{
	int b, found = -1;

	for (b = 0; b < 256; b++)
		if (map[b] == c) {
			if (found >= 0)
				return -1;
			found = b;
		}
	return found;
}

/*
 * Start on the entity s.  Its markup is lexed from its own characters:
 * the Unicode forms by their code units; a single-byte encoding through
 * its byte map sbmap (every EBCDIC page has its own '!', '[' and ']',
 * which the invariant set of Appendix F.1 lacks); any other encoding that
 * iconv decodes (ASCII bytes can be trail bytes in Shift_JIS, Big5 and
 * GBK, and any pair in ISO-2022-JP) only from the decoded characters,
 * which the validator passes to late_char().
 */
void
late_init(struct late *lt, const struct sniff *s, const uint32_t *sbmap)
{
	int b, ascii = 1;

	mem_zero(lt, sizeof(*lt));
	lt->unit = unit_of(s);
	lt->usz = (size_t)unit_size(lt->unit);
	/* The declaration at the start, and one sniff found late, are
	 * reported already (or are the declaration). */
	lt->known[0] = s->decl.present ? s->decl.start : (uint64_t)-1;
	lt->known[1] = s->decl.late ? s->decl.late_off : (uint64_t)-1;
	lt->pos = s->bomlen;
	lt->lt_byte = '<';
	lt->q_byte = '?';
	lt->bang_byte = '!';
	if (s->dec == FORM_ICONV && lt->unit == UNIT_8) {
		if (sbmap == NULL) {
			lt->decoded = 1;
			return;
		}
		/* A map that is ASCII below 0x80 and has no ASCII above it
		 * reads as bytes do. */
		for (b = 0; b < 256 && ascii; b++)
			ascii = b < 0x80 ? sbmap[b] == (uint32_t)b :
			    sbmap[b] >= 0x80;
		if (!ascii) {
			int l = byte_of(sbmap, '<'), q = byte_of(sbmap, '?');
			int x = byte_of(sbmap, '!');

			lt->map = sbmap;
			lt->scan = l >= 0 && q >= 0 && x >= 0;
			if (lt->scan) {
				lt->lt_byte = (unsigned char)l;
				lt->q_byte = (unsigned char)q;
				lt->bang_byte = (unsigned char)x;
			}
			return;
		}
	}
	lt->scan = 1;
	lt->whole = !simd_char_only();
	/* Where '<' and '?' have their non-zero byte within a unit. */
	lt->lt_at = lt->unit == UNIT_16BE ? 1 : lt->unit == UNIT_32BE ? 3 : 0;
}

static int
space(long c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * late_find(), from the marks of the piece (lt->mk, which the validator
 * finds with the mojibake candidates in one pass) where they hold all of
 * p[i..n) and every open (not m->hard: leap.c reads those lists); else
 * by the finder the engine gave (prescan.c's lists) or by the kernels.
 */
static size_t
mark_find(const struct late *lt, const unsigned char *p, size_t n, size_t i)
{
	struct marks *m = lt->mk;
	size_t a, t;

	if (m == NULL || m->hard || m->base == NULL || p < m->base || n == 0 ||
	    (size_t)(p - m->base) + n > m->len ||
	    (size_t)(p - m->base) + n - 1 > m->lcov)
		return lt->find != NULL ? lt->find(lt->find_ctx, lt, p, n, i) :
		    late_find(lt, p, n, i);
	a = (size_t)(p - m->base);
	/* the lookups of a piece go forward; back to the start if not */
	t = m->lat > 0 && m->lt[m->lat - 1] >= a + i ? 0 : m->lat;
	for (; t < m->nlt && m->lt[t] < a + i; t++)
		;
	m->lat = t;
	/* the bytes of a mark further on, for the lexer (MARK_AHEAD) */
	if (t + MARK_AHEAD < m->nlt)
		__builtin_prefetch(m->base + m->lt[t + MARK_AHEAD]);
	if (t < m->nlt && m->lt[t] < a + n - 1)
		return m->lt[t] - a;
	return n;
}

/*
 * The first unit at or after i of p[0..n) that is '<' followed by '?' or
 * '!' (a PI, comment, CDATA section or markup declaration), or n when
 * there is none before the last unit.
 */
static size_t
find_markup(const struct late *lt, const unsigned char *p, size_t n, size_t i)
{
	size_t step = lt->usz;

	for (;; i++) {
		if (!lt->scan) {
			/* No unique bytes to search for: unit by unit. */
			for (; i + step < n; i++)
				if (get(lt, p, n, i) == '<' &&
				    (get(lt, p, n, i + step) == '?' ||
				    get(lt, p, n, i + step) == '!'))
					return i;
			return n;
		}
		if ((i = mark_find(lt, p, n, i)) >= n)
			return n;
		/* The bytes matched; are they whole units? */
		if (unit_rem(lt, i) == 0 && get(lt, p, n, i) == '<') {
			long c = get(lt, p, n, i + step);

			if (c == '?' || c == '!')
				return i;
		}
	}
}

/* Lex one character c of the unit at absolute offset at; return 1 when it
 * completes a late declaration (then begun at lt->lt_off). */
static inline int
lex_one(struct late *lt, long c, uint64_t at)
{
	static const char cdata[] = "CDATA[";

	switch (lt->st) {
	case LX_TEXT:
		if (c == '<') {
			lt->st = LX_LT;
			lt->lt_off = at;
		}
		return 0;
	case LX_LT:
		/* A tag is read as character data, as late_next() reads it:
		 * it holds no '<' (XML 1.0 [10], [40]), so a '<' in one, in
		 * a quoted value too, begins the next markup in every
		 * encoding alike. */
		if (c == '<')
			lt->lt_off = at;
		else
			lt->st = c == '?' ? LX_PI_TARGET : c == '!' ? LX_BANG :
			    LX_TEXT;
		lt->match = 0;
		return 0;
	case LX_PI_TARGET:
		if (lt->match < 3 && c == "xml"[lt->match]) {
			lt->match++;
			return 0;
		}
		lt->st = c == '?' ? LX_PI_Q : LX_PI;
		return lt->match == 3 && (space(c) || c == '?');
	case LX_PI:
		if (c == '?')
			lt->st = LX_PI_Q;
		return 0;
	case LX_PI_Q:
		lt->st = c == '>' ? LX_TEXT : c == '?' ? LX_PI_Q : LX_PI;
		return 0;
	case LX_BANG:
		lt->match = 0;
		lt->st = c == '-' ? LX_BANG_DASH : c == '[' ? LX_CDATA_OPEN :
		    c == '>' ? LX_TEXT : LX_DECL;
		return 0;
	case LX_BANG_DASH:
		lt->st = c == '-' ? LX_COMMENT : LX_DECL;
		lt->match = 0;
		return 0;
	case LX_COMMENT:
		if (c == '>' && lt->match >= 2)
			lt->st = LX_TEXT;
		lt->match = c == '-' ? lt->match + 1 : 0;
		return 0;
	case LX_CDATA_OPEN:
		if (c == cdata[lt->match]) {
			if (++lt->match == sizeof(cdata) - 1) {
				lt->st = LX_CDATA;
				lt->match = 0;
			}
		} else
			lt->st = LX_DECL;	/* a conditional section */
		return 0;
	case LX_CDATA:
		if (c == '>' && lt->match >= 2)
			lt->st = LX_TEXT;
		lt->match = c == ']' ? lt->match + 1 : 0;
		return 0;
	case LX_DECL:
		if (c == '"' || c == '\'') {
			lt->quote = c;
			lt->st = LX_DECL_QUOTE;
		} else if (c == '>' || c == '[')
			lt->st = LX_TEXT;	/* '[': the internal subset */
		return 0;
	case LX_DECL_QUOTE:
		if (c == lt->quote)
			lt->st = LX_DECL;
		return 0;
	}
	return 0;
}

/* In a comment, CDATA section or PI: the offset of the next possible end
 * of it at or after i, as far as that can be skipped to without losing a
 * partly matched end.  8-bit text read as bytes, and the 16- and 32-bit
 * forms but at level ref, which lexes their every character. */
static size_t
skip_inside(const struct late *lt, const unsigned char *p, size_t n, size_t i)
{
	const char *end;
	size_t u = lt->usz, j, k;

	if (lt->map != NULL || lt->match != 0 || (u > 1 && !lt->whole))
		return i;
	switch (lt->st) {
	case LX_COMMENT:
		end = "-->";
		k = 3;
		break;
	case LX_CDATA:
		end = "]]>";
		k = 3;
		break;
	case LX_PI:
		end = "?>";
		k = 2;
		break;
	default:
		return i;
	}
	if ((j = find_units(lt, p, n, i, end, k)) < n)
		return j;
	/* the last two units, which may begin the end */
	return n - i > 2 * u ? n - 2 * u - unit_rem(lt, n - i - 2 * u) : i;
}

/*
 * The offset of the first '>' in p[g..n) (n when none): eight bytes a
 * step for the first few words, which hold the end of most comments,
 * CDATA sections and PIs, without a call; memchr() after them.
 */
static inline size_t
gt_at(const unsigned char *p, size_t n, size_t g)
{
	const unsigned char *q;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    defined(__ORDER_BIG_ENDIAN__)
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
	int k;

	for (k = 0; k < 4 && g + 8 <= n; k++, g += 8) {
		uint64_t w, t;

		memcpy(&w, p + g, 8);
		w ^= 0x3E3E3E3E3E3E3E3Eull;	/* '>': a byte of 0 */
		/* the top bit of each byte of w that is 0, no other */
		t = ~(((w & low7) + low7) | w | low7);
		if (t != 0) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return g + (size_t)__builtin_ctzll(t) / 8;
#else
			return g + (size_t)__builtin_clzll(t) / 8;
#endif
		}
	}
#endif
	if (g >= n || (q = memchr(p + g, '>', n - g)) == NULL)
		return n;
	return (size_t)(q - p);
}

/*
 * skip_whole() of 8-bit text read as bytes, most of markup-heavy text:
 * first a run of them from bit masks (late_run), where the level has
 * one; else the kind of markup told from its first bytes, and its end
 * found by a search for its '>' (gt_at), the bytes before that compared
 * after.  A comment ends at "-->" from its fifth byte on, a CDATA section
 * at "]]>" from its tenth, a PI at "?>" from its third, as FIND_UNITS
 * finds them.
 */
static size_t
skip_whole8(const struct late *lt, const unsigned char *p, size_t n,
    size_t i, uint64_t off)
{
	const unsigned char *m = p + i;
	size_t g, r = n - i;
	unsigned char a = 0, b;	/* the bytes the end has before '>' */

	if (r < 4)
		return 0;
	/* a run of them from the masks of windows (late_run.h), where
	 * the level has it */
	if ((g = late_run(p, n, i, 1, 0)) > i)
		return g;
	if (m[1] == '!') {
		if (m[2] == '-' && m[3] == '-') {
			g = i + 4 + 2;
			a = '-';
		} else if (r >= 9 && memcmp(m + 2, "[CDATA[", 7) == 0) {
			g = i + 9 + 2;
			a = ']';
		} else
			return 0;
		b = a;
	} else {
		/* "<?xml" is lexed (a declaration to report) unless it is
		 * one known already. */
		if (r < 5 || (m[2] == 'x' && m[3] == 'm' && m[4] == 'l' &&
		    off + i != lt->known[0] && off + i != lt->known[1]))
			return 0;
		g = i + 2 + 1;
		b = '?';
	}
	for (; (g = gt_at(p, n, g)) < n; g++)
		if (p[g - 1] == b && (a == 0 || p[g - 2] == a))
			return g + 1;
	return 0;
}

/*
 * Markup that begins at p[i] ("<?" or "<!" in character data; p[0] at
 * offset off) and is a comment, a CDATA section or a PI that is no
 * declaration to report (its target does not begin "xml", or it is one
 * known already: the entity's own declaration, whose lexing would end in
 * a hit not reported), whole in p[0..n): the offset just past its end,
 * as lex_one() would reach it a character at a time (a comment ends at
 * the first "-->" after "<!--", a CDATA section at the first "]]>", a PI
 * at the first "?>" after "<?"); 0 for any other, which goes a character
 * at a time.  Where a run of them is taken (late_run, 8-bit text and
 * UTF-16), the offset just past the last, or of the "<?" or "<!" after it
 * that the run left, which late_next() then finds again in character
 * data.  Markup-heavy text (comments, PIs and CDATA sections every few
 * dozen bytes) then costs a search for each end, not a step of the lexer
 * for each character, in 8-bit text read as bytes and in the 16- and
 * 32-bit forms alike.  Level ref lexes every character (lt->whole is 0),
 * the answer the others are held to.
 */
static size_t
skip_whole(const struct late *lt, const unsigned char *p, size_t n, size_t i,
    uint64_t off)
{
	size_t u = lt->usz, q = n, run;
	int pi = 0;

	if (!lt->whole)
		return 0;
	if (u == 1 && lt->map == NULL)
		return skip_whole8(lt, p, n, i, off);
	if (u == 2 && lt->map == NULL && (run = late_run(p, n, i, 2,
	    lt->unit == UNIT_16BE)) > i)
		return run;
	if (UNITS_AT(lt, p, n, i, "<!--"))
		q = FIND_UNITS(lt, p, n, i + 4 * u, "-->");
	else if (UNITS_AT(lt, p, n, i, "<![CDATA["))
		q = FIND_UNITS(lt, p, n, i + 9 * u, "]]>");
	else if (i + 5 * u <= n && get(lt, p, n, i + u) == '?' &&
	    (!UNITS_AT(lt, p, n, i + 2 * u, "xml") || off + i == lt->known[0] ||
	    off + i == lt->known[1])) {
		q = FIND_UNITS(lt, p, n, i + 2 * u, "?>");
		pi = 1;
	}
	if (q >= n)
		return 0;
	return q + (pi ? 2 : 3) * u;
}

/*
 * Look at p[0..n), which begins at absolute byte offset off (eof: it ends
 * the entity).  Return the offset in p of the next late declaration's
 * '<' (*hit = 1), or else of the point the caller may validate up to and
 * no further (*hit = 0): bytes past it may begin a declaration that the
 * next buffer completes, and are to be passed again.
 *
 * Character data is searched for "<?" and "<!" only; from there, units are
 * lexed one by one until the markup ends (a tag holds no '<', XML 1.0 [10]
 * and [40], so tags are passed over with the text).
 */
size_t
late_next(struct late *lt, const unsigned char *p, size_t n, uint64_t off,
    int eof, int *hit)
{
	size_t i = lt->pos > off ? (size_t)(lt->pos - off) : 0;

	*hit = 0;
	if (lt->decoded)
		return n;	/* late_char() sees the characters */
	for (;;) {
		if (lt->st == LX_TEXT) {
			size_t e, from = i;

			/* over markup-dense text, from the marks (leap.c) */
			i = late_leap(lt, p, n, i, off);
			i = find_markup(lt, p, n, i);
			if (i >= n) {
				/* The last unit may be a '<' of the next: the
				 * last whole one, where from's units start (a
				 * piece may end in part of a unit). */
				i = n >= lt->usz && !eof ? n - lt->usz : n;
				if (i < n && i > from)
					i -= unit_rem(lt, i - from);
				lt->pos = off + i;
				return i;
			}
			if ((e = skip_whole(lt, p, n, i, off)) > 0) {
				i = e;
				continue;
			}
		}
		for (; i + lt->usz <= n; i += lt->usz) {
			long c;

			if ((i = skip_inside(lt, p, n, i)) + lt->usz > n)
				break;
			c = get(lt, p, n, i);
			if (lex_one(lt, c, off + i) && lt->lt_off != lt->known[0] &&
			    lt->lt_off != lt->known[1]) {
				lt->pos = off + i + lt->usz;
				*hit = 1;
				return (size_t)(lt->lt_off - off);
			}
			if (lt->st == LX_TEXT) {
				i += lt->usz;
				break;
			}
		}
		if (i + lt->usz > n)
			break;
	}
	lt->pos = off + i;
	/* At the end, everything (a part of a unit left over too, which the
	 * validator calls truncated); else, a '<' whose target is still
	 * being read: validate up to it only. */
	if (eof)
		return n;
	if ((lt->st == LX_LT || lt->st == LX_PI_TARGET) && lt->lt_off >= off)
		return (size_t)(lt->lt_off - off);
	return i;
}

/* Whether a '<' has been read that may still begin a declaration: then
 * its offset, line and column are needed. */
int
late_pending(const struct late *lt)
{
	return lt->st == LX_LT || lt->st == LX_PI_TARGET;
}

/* Decoded mode: lex character c, which starts at byte offset at on line
 * and column; return 1 when it completes a late declaration (begun at
 * lt->lt_off, lt->lt_line, lt->lt_col). */
int
late_char(struct late *lt, long c, uint64_t at, uint64_t line, uint64_t col)
{
	if ((lt->st == LX_TEXT || lt->st == LX_LT) && c == '<') {
		lt->lt_line = line;
		lt->lt_col = col;
	}
	return lex_one(lt, c, at) && lt->lt_off != lt->known[0] &&
	    lt->lt_off != lt->known[1];
}

/*
 * Lex the nc characters of the UTF-32LE block u, decoded without their
 * offsets: return 1 when one of them completes a late declaration.  The
 * characters that cannot move the lexer where it is (all but '<' in
 * character data, but the closing quote in a literal, but '?' in a PI:
 * see lex_one) are passed over here, without
 * a call each.
 */
int
late_block(struct late *lt, const unsigned char *u, size_t nc)
{
	size_t k;

	for (k = 0; k < nc; k++) {
		long c = (long)load_le32(u + 4 * k);

		switch (lt->st) {
		case LX_TEXT:
			if (c != '<')
				continue;
			break;
		case LX_DECL_QUOTE:
			if (c != lt->quote)
				continue;
			break;
		case LX_PI:
			if (c != '?')
				continue;
			break;
		default:
			break;
		}
		if (late_char(lt, c, (uint64_t)-2, 0, 0))
			return 1;
	}
	return 0;
}

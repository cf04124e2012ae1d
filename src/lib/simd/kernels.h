/*
 * The kernels: runs of plain characters, conversions between the Unicode
 * forms, the search for late declarations (src/simd/, late.c), and the
 * one choice of them for a run (src/lib/simd/select.c).
 */
#ifndef KERNELS_H
#define KERNELS_H

#include <string.h>

#include "core.h"

/* simd/select.c: the kernels for a run (XMLSNIFF_SIMD, see the man page) */


int		 simd_init(const char *);
const char	*simd_ready(int *);
int		 simd_check(char *, size_t);
int		 simd_char_only(void);
const char	*simd_names(char *, size_t);

/* late.c: "<?xml" after the start (decl-not-at-start) */

struct late;
struct marks;
/* Where "<?" or "<!" may be (late_find's contract), as the engine finds
 * it: the kernels, or what a search ahead found (prescan.c). */
typedef size_t	(*late_find_fn)(void *, const struct late *,
		    const unsigned char *, size_t, size_t);
/* How many marks ahead of the one it answers a finder from a list
 * (late.c's mark_find, prescan.c's pre_late_find) prefetches the bytes
 * the lexer will read there: they are in no line this core has walked,
 * and in the other core's cache when the search ahead found them.  From
 * 4 to 16, text with a comment, CDATA section or PI every 110 bytes took
 * 77.0 ms against 83.4, and bench/run's mixed-lf 47.9 against 52.9
 * (medians of 21 runs in turn, one round); 24, 32 and 64 did no better.
 * Against other builds those shapes stay within the host's noise, so the
 * gain is small at best (doc/BENCHMARKS.md). */
#define MARK_AHEAD	16

struct late {
	enum unit	 unit;
	size_t		 usz;
	uint64_t	 known[2];	/* declarations already accounted for */
	uint64_t	 pos;		/* absolute offset lexed or searched to */
	int		 st, match;
	long		 quote;
	uint64_t	 lt_off;	/* of the last '<' */
	unsigned char	 lt_byte, q_byte, bang_byte;
	size_t		 lt_at;
	const uint32_t	*map;		/* single-byte: the byte map */
	int		 scan;		/* the bytes of '<', '?', '!' are known */
	int		 decoded;	/* lexed by late_char() only */
	int		 whole;		/* skip_whole() may take markup at once */
	uint64_t	 lt_line, lt_col;	/* of the last '<' (decoded) */
	late_find_fn	 find;		/* NULL: late_find(), the kernels */
	void		*find_ctx;
	struct marks	*mk;		/* the piece's marks (UTF-8), or NULL */
	uint64_t	 leap_at;	/* no leap (leap.c) tried before it */
};

void		 late_init(struct late *, const struct sniff *,
		    const uint32_t *);
int		 late_char(struct late *, long, uint64_t, uint64_t,
		    uint64_t);
int		 late_pending(const struct late *);
int		 late_block(struct late *, const unsigned char *, size_t);
size_t		 late_next(struct late *, const unsigned char *, size_t,
		    uint64_t, int, int *);
/* decode/leap.c */
size_t		 late_leap(struct late *, const unsigned char *, size_t, size_t,
		    uint64_t);

/* simd/: the kernels (select.c sends each call to the level's table;
 * ref.c, common.c) */

#define CONV_SLACK	64	/* room past the output that may be overwritten */

size_t		 conv_room(int, int, size_t);
size_t		 conv_cut(int, const unsigned char *, size_t, size_t);
size_t		 conv_run(int, int, const unsigned char *, size_t,
		    unsigned char *);
size_t		 conv_find32(const unsigned char *, size_t, uint32_t, uint32_t,
		    uint32_t);

size_t		 plain_utf8(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);
size_t		 plain_utf32(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);
/* The bytes of a single-byte encoding that are plain characters. */
struct plainmap {
	unsigned char	 bits[32];
	unsigned char	 lo[16], hi[16];
	unsigned char	 cr;		/* CR is plain but for its line end */
};

void		 plain_sb_map(struct plainmap *, const unsigned char *);
size_t		 plain_sb(const unsigned char *, size_t,
		    const struct plainmap *, uint64_t *, uint64_t *);
size_t		 late_find(const struct late *, const unsigned char *, size_t,
		    size_t);
size_t		 late_run(const unsigned char *, size_t, size_t, size_t, int);

/*
 * The windows the vector stop tests of moj_skipw and moj_skip32 use (each
 * a value less its low end no more than the span, unsigned): a lead
 * U+00C2..U+00F4, and a trail character U+0080..U+00BF or from U+0152 to
 * U+2122, the first and last of windows-1252's 27 that moj_trail() knows.
 */
#define MOJ_LEAD_LO	0xC2
#define MOJ_LEAD_SPAN	(0xF4 - MOJ_LEAD_LO)
#define MOJ_TRAIL0_LO	0x80
#define MOJ_TRAIL0_SPAN	(0xBF - MOJ_TRAIL0_LO)
#define MOJ_TRAIL1_LO	0x152
#define MOJ_TRAIL1_SPAN	(0x2122 - MOJ_TRAIL1_LO)

/*
 * The mojibake candidates (mojibake.c): where UTF-8 text read as
 * windows-1252 or ISO-8859-1 and encoded again may begin.  A trail byte of
 * UTF-8 (80..BF) read so is U+0080..U+00BF or one of the 27 characters
 * windows-1252 has at 80..9F; a lead (C2..F4) is U+00C2..U+00F4.
 *
 * moj_trail(c): the byte 80..BF that character c is the reading of, or
 * -1.
 */
static inline int
moj_trail(uint32_t c)
{
	if (c >= 0x80 && c <= 0xBF)
		return (int)c;
	switch (c) {
	case 0x20AC: return 0x80;
	case 0x201A: return 0x82;
	case 0x0192: return 0x83;
	case 0x201E: return 0x84;
	case 0x2026: return 0x85;
	case 0x2020: return 0x86;
	case 0x2021: return 0x87;
	case 0x02C6: return 0x88;
	case 0x2030: return 0x89;
	case 0x0160: return 0x8A;
	case 0x2039: return 0x8B;
	case 0x0152: return 0x8C;
	case 0x017D: return 0x8E;
	case 0x2018: return 0x91;
	case 0x2019: return 0x92;
	case 0x201C: return 0x93;
	case 0x201D: return 0x94;
	case 0x2022: return 0x95;
	case 0x2013: return 0x96;
	case 0x2014: return 0x97;
	case 0x02DC: return 0x98;
	case 0x2122: return 0x99;
	case 0x0161: return 0x9A;
	case 0x203A: return 0x9B;
	case 0x0153: return 0x9C;
	case 0x017E: return 0x9E;
	case 0x0178: return 0x9F;
	}
	return -1;
}

/* Whether trail byte b may follow lead byte lead first (RFC 3629 section
 * 4: no overlong form, surrogate or value past U+10FFFF). */
static inline int
moj_first_ok(unsigned lead, unsigned b)
{
	return !((lead == 0xE0 && b < 0xA0) || (lead == 0xED && b > 0x9F) ||
	    (lead == 0xF0 && b < 0x90) || (lead == 0xF4 && b > 0x8F));
}

/*
 * The UTF-8 at p[0..n) of a trail character (moj_trail): its byte, and its
 * length in *len; -1 when p begins none; 0 when p[0..n) ends before that
 * can be told.  Every trail character is two bytes (C2, C5, C6, CB) or
 * three (E2).
 */
static inline int
moj_trail8(const unsigned char *p, size_t n, size_t *len)
{
	uint32_t c;

	if (n == 0)
		return 0;
	switch (p[0]) {
	case 0xC2: case 0xC5: case 0xC6: case 0xCB:
		if (n < 2)
			return 0;
		if ((p[1] & 0xC0) != 0x80)
			return -1;
		*len = 2;
		c = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
		break;
	case 0xE2:
		if (n < 2 || ((p[1] & 0xC0) == 0x80 && n < 3))
			return 0;
		if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
			return -1;
		*len = 3;
		c = 0x2000 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
		break;
	default:
		return -1;
	}
	return moj_trail(c);
}

/*
 * Whether a candidate begins at p[0] of UTF-8 p[0..n), n >= 3: C3 82..B4
 * (the UTF-8 of a lead U+00C2..U+00F4) followed by the trail characters
 * that lead needs, the first within its bounds; or a sequence that p[0..n)
 * cuts short, which may be one; or, with c1, C2 80..9F (a C1 control).
 */
static inline int
moj_exact8(const unsigned char *p, size_t n, int c1)
{
	size_t j = 2, len = 0;
	unsigned lead;
	int need, k, b;

	if (p[0] == 0xC2)
		return c1 && p[1] >= 0x80 && p[1] < 0xA0;
	if (p[0] != 0xC3 || p[1] < 0x82 || p[1] > 0xB4)
		return 0;
	lead = p[1] + 0x40u;
	need = lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
	for (k = 0; k < need; k++, j += len) {
		if ((b = moj_trail8(p + j, n - j, &len)) <= 0)
			return b == 0;
		if (k == 0 && !moj_first_ok(lead, (unsigned)b))
			return 0;
	}
	return 1;
}

/*
 * The same for the unit of u bytes (2: UTF-16, 4: UTF-32) at p[0] of
 * p[0..n) (be: big-endian), n >= 2 * u: a C1 control, or a lead unit
 * C2..F4 followed by the trail units it needs (or cut short by the end).
 */
static inline int
moj_exactw(const unsigned char *p, size_t n, size_t u, int be)
{
	uint32_t c, t;
	size_t j;
	int need, b;

	if (u == 4)
		c = be ? load_be32(p) : load_le32(p);
	else
		c = be ? load_be16(p) : load_le16(p);
	if (c >= 0x80 && c <= 0x9F)
		return 1;
	if (c < 0xC2 || c > 0xF4)
		return 0;
	need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
	for (j = u; need > 0; need--, j += u) {
		if (j + u > n)
			return 1;
		if (u == 4)
			t = be ? load_be32(p + j) : load_le32(p + j);
		else
			t = be ? load_be16(p + j) : load_le16(p + j);
		b = moj_trail(t);
		if (b < 0 || (j == u && !moj_first_ok(c, (unsigned)b)))
			return 0;
	}
	return 1;
}

/*
 * A pass of the mojibake scan over UTF-8 p[0..n): the first offset i,
 * with two bytes after it, where moj_exact8() finds a candidate (with the
 * C1 controls when c1); n - 2 when there is none (0 when n < 3).  With
 * count, the line ends of p[0..i) (CR, and LF not after CR) are counted.
 */
struct mojskip {
	int		 c1;		/* C2 80..9F is one (XML 1.0) */
	int		 count;
	unsigned	 prevcr;	/* in and out: the byte before is CR */
	uint64_t	 lines;		/* out: line ends passed */
	size_t		 ls;		/* out: just past the last of them */
	int		 cut;		/* out: one was passed */
};

size_t		 moj_skip(const unsigned char *, size_t, struct mojskip *);
/* The line ends of p[0..n) into k, as moj_skip() with count leaves them
 * when it stops at n (common.c): for the scan that takes its stops from
 * marks8's list and must still count a pipe's lines. */
void		 moj_lines(const unsigned char *, size_t, struct mojskip *);
/* The same for UTF-16 p[0..n) (whole units; be: big-endian), ls in bytes;
 * return its characters (units less the surrogate pairs). */
uint64_t	 moj_linesw(const unsigned char *, size_t, int,
		    struct mojskip *);

/*
 * The marks of UTF-8 text for the two searches that need no state, found
 * in one pass over the bytes (marks8): the offsets of "<?" and "<!" (lt:
 * late_find's answers for UTF-8) and of the candidates of moj_skip() with
 * the C1 controls (mj: moj_exact8 with c1), in order.  The caller owns the
 * arrays and the struct: the validator for the piece it is fed, prescan.c's
 * thread for the piece it searches ahead.
 */
struct marks {
	uint32_t	*lt, *mj;	/* the caller's arrays, cap each */
	size_t		 cap;
	size_t		 nlt, nmj;	/* out: the marks found */
	size_t		 lcov, mcov;	/* out: every mark below is listed */
	const unsigned char *base;	/* what the offsets are in, len bytes */
	size_t		 len;
	size_t		 lat, mat;	/* where the last lookups ended */
	int		 usz;		/* marksw's unit (1, 2, 4), or 0: marks8 */
	int		 be;		/* (usz) big-endian */
	int		 hard;		/* in and out: lt holds the opens to lex */
	unsigned	 ksum;		/* out (hard): the kinds of those not */
	size_t		 nhd;		/* (in marks8) lt[0..nhd) are such */
	int		 nomj;		/* (in marks8) no mojibake list wanted */
};

/*
 * The kind of the "<?" or "<!" at p[0] of 8-bit text, of which 9 bytes
 * can be read, for the late lexer's leaps (leap.c): a comment, a PI
 * whose target does not begin "xml", a CDATA section, or any other open
 * (a markup declaration, "<?xml"), which the lexer lexes.  Words
 * compared, no branch on the kind.
 */
enum { MK_COMMENT, MK_PI, MK_CDATA, MK_OTHER, MK_NOT };

/* The kind of an open that is a comment (cm), a PI not "<?xml" (pi) or a
 * CDATA section (cd), each 0 or 1 and at most one: no branch, the kinds
 * come at random (mark_kind8, and leap.c's for units). */
static inline int
mark_kind_of(int cm, int pi, int cd)
{
	/* MK_COMMENT 0, MK_PI 1, MK_CDATA 2, MK_OTHER 3 */
	return (int)((3 - 2 * (unsigned)pi - (unsigned)cd) & ((unsigned)cm - 1));
}

static inline int
mark_kind8(const unsigned char *p)
{
	static const unsigned char cm8[8] = "<!--", pi8[8] = "<?",
	    xml8[8] = "<?xml", cd8[8] = "<![CDATA", m2[8] = { 255, 255 },
	    m4[8] = { 255, 255, 255, 255 }, m5[8] = { 255, 255, 255, 255, 255 };
	uint64_t w, c, x, d, k2, k4, k5;
	int cm, pi, cd;

	memcpy(&w, p, 8);
	memcpy(&c, cm8, 8);
	memcpy(&x, xml8, 8);
	memcpy(&d, cd8, 8);
	memcpy(&k2, m2, 8);
	memcpy(&k4, m4, 8);
	memcpy(&k5, m5, 8);
	cm = (w & k4) == c;
	memcpy(&c, pi8, 8);
	pi = (int)((w & k2) == c) & (int)((w & k5) != x);
	cd = (int)(w == d) & (int)(p[8] == '[');
	return mark_kind_of(cm, pi, cd);
}

/* The 16-bit unit at p (be: big-endian), by utf.h's loaders (late_run.h's
 * lr_unit too). */
static inline unsigned
mark_unit16(const unsigned char *p, int be)
{
	return be ? load_be16(p) : load_le16(p);
}

/* The words of four units that mark_kindw compares with (be: big-endian):
 * "<!--", "<?xm", "<![C", "DATA". */
static inline void
mark_words16(uint64_t w[4], int be)
{
	static const unsigned char w16[2][4][8] = {
		{ "<\0!\0-\0-", "<\0?\0x\0m", "<\0!\0[\0C", "D\0A\0T\0A" },
		{ "\0<\0!\0-\0-", "\0<\0?\0x\0m", "\0<\0!\0[\0C",
		    "\0D\0A\0T\0A" } };

	memcpy(w, w16[be != 0], 32);
}

/*
 * The same of UTF-16 text at p, on a unit, of which 9 units can be read
 * (be: big-endian; w: its mark_words16): MK_NOT unless its first two
 * units are '<' and '?' or '!' (late_find's marks are bytes, which may
 * lie across units); else its nine units taken as mark_kind8 takes bytes
 * (a unit is the ASCII character c only where it is c), by words of four
 * units.
 */
static inline int
mark_kindw(const unsigned char *p, int be, const uint64_t w[4])
{
	uint64_t w0, w1;
	unsigned c = mark_unit16(p + 2, be);
	int cm, pi, cd;

	if (mark_unit16(p, be) != '<' || (c != '?' && c != '!'))
		return MK_NOT;
	memcpy(&w0, p, 8);
	memcpy(&w1, p + 8, 8);
	cm = w0 == w[0];
	pi = (int)(c == '?') & (int)((w0 != w[1]) |
	    (mark_unit16(p + 8, be) != 'l'));
	cd = (int)(w0 == w[2]) & (int)(w1 == w[3]) &
	    (int)(mark_unit16(p + 16, be) == '[');
	return mark_kind_of(cm, pi, cd);
}

/*
 * Of m's "<?" and "<!" from the k-th on, of text p[0..n) (m's base or its
 * start), keep in the list those of kind MK_OTHER (mark_kind8; a mark with
 * fewer than 9 bytes to read is one) and set the bit 1 << kind of m->ksum
 * for each of the others.  Of UTF-16 (m->usz 2, m->be), by mark_kindw: a
 * mark at an odd offset, or no open, leaves the list (MK_NOT, in no bit),
 * and one with fewer than 9 units to read stays.  Then m->nhd is m->nlt.
 */
void		 marks_harden(const unsigned char *, size_t, struct marks *,
		    size_t);

/*
 * The marks of p[0..n) into m (its base and length set to p and n): a
 * "<?" or "<!" at j with j + 1 < n, a candidate at j with j + 3 <= n.  A
 * list that fills stops its coverage at the mark that did not fit.
 *
 * With m->hard, lt holds only the "<?" and "<!" that the late lexer must
 * lex: those of kind MK_OTHER, every one below lcov (a markup
 * declaration, a PI whose target begins "xml", any with fewer than 9
 * bytes to read); m->ksum has the bit 1 << k of each kind k of the
 * others (a comment, a PI, a CDATA section) that are below lcov, and
 * perhaps of the others.  Where comments and PIs come every few dozen
 * bytes, listing each cost more than the rest of the pass (leap.c reads
 * such a list).  A list with hard 0 holds every "<?" and "<!".  marksw()
 * keeps m->hard for bytes (u 1: marks8's) and UTF-16 and
 * clears it for UTF-32 and, at level ref, for bytes.
 */
void		 marks8(const unsigned char *, size_t, struct marks *);

/*
 * The same for text p[0..n) in units of u bytes at offsets that are
 * multiples of u (be: big-endian), for the thread that reads ahead
 * (ahead.c): lt, the answers of late_find() for the form (of the bytes:
 * whether a mark is whole units the lexer checks, find_markup); mj, for
 * UTF-16 (u 2) and UTF-32 (u 4), the units with a unit after them where
 * moj_skipw() or moj_skip32() stops, candidates as far as p[0..n) shows
 * (moj_exactw), so that the scan asks them again of bytes that end
 * sooner.  u 1 is an ASCII-based single-byte encoding, which has no
 * mojibake scan: its mj is empty.  Every mark below lcov, every stop
 * below mcov is listed: lcov is n - 1 and mcov the last unit, with no
 * unit after it, unless a list filled.
 */
void		 marksw(const unsigned char *, size_t, size_t, int,
		    struct marks *);

/* late_find() and moj_skip(), answered from what prescan.c's thread
 * found ahead where it has been, else by the kernels (a NULL search: the
 * kernels) */
struct pre;
size_t		 pre_late_find(void *, const struct late *,
		    const unsigned char *, size_t, size_t);
size_t		 pre_moj_skip(struct pre *, const unsigned char *, size_t,
		    struct mojskip *);
size_t		 pre_moj_skipw(struct pre *, const unsigned char *, size_t,
		    int);

/*
 * The same for UTF-16 (be: big-endian) when no lines are counted: the
 * first unit, with another after it in p[0..n), where moj_exactw() finds
 * a candidate; the first unit without one when there is none.
 */
size_t		 moj_skipw(const unsigned char *, size_t, int);

/*
 * The same for UTF-32: the first unit, with another after it in p[0..n),
 * that is FFFFFFFF (a unit no character is, the scan's own stop) or where
 * moj_exactw() finds a candidate; the first unit without one after it
 * when there is none.  moj_stop32 is the test of one unit.
 */
size_t		 moj_skip32(const unsigned char *, size_t, int);

static inline int
moj_stop32(const unsigned char *p, size_t n, int be)
{
	uint32_t c = be ? load_be32(p) : load_le32(p);

	return c == 0xFFFFFFFFu || (c - 0x80 < 0x75 &&
	    moj_exactw(p, n, 4, be));
}

/*
 * The first unit of UTF-32 p[0..n) at or after j, with another after it,
 * that moj_stop32() takes; where the units with another after them end
 * when there is none.  What follows a pass that may stop early (a
 * level's moj_skip32, the marks of the search ahead), as the mojibake
 * scan and the search ahead both finish it.
 */
static inline size_t
moj_stop32_from(const unsigned char *p, size_t j, size_t n, int be)
{
	for (; j + 8 <= n && !moj_stop32(p + j, n - j, be); j += 4)
		;
	return j;
}

/* simd/select.c, simd/dense_avx2.c: error-dense text counted a block
 * at a time once the check only counts (decode_utf.c) */

/* The position and the counts, carried from block to block: line and
 * column of the next character, illegal sequences and non-Chars. */
struct dense_tally {
	uint64_t	 line, col, bad, nonchar;
	int		 cr;		/* the character before is a CR */
	int		 clean;		/* the last block had no error */
};

/*
 * XML 1.0 text in UTF-8 (dense_utf8), UTF-16 or UTF-32 (dense_utf16,
 * dense_utf32; be: big-endian) from p[0], where nothing is pending (t->cr
 * says the character before is a CR, and is kept): whole blocks counted
 * into *t as the character path counts them (a bad sequence under the
 * maximal-subpart rule a column, each character a step of the position).
 * The walk stops before a block that it cannot count (a non-Char unless
 * chars, too few bytes left to see its end), and after a block with no
 * error (t->clean); it returns the bytes taken, a character boundary with
 * nothing pending.
 */
int		 dense_have(void);	/* whether they take anything */
size_t		 dense_utf8(const unsigned char *, size_t, int,
		    struct dense_tally *);
size_t		 dense_utf16(const unsigned char *, size_t, int, int,
		    struct dense_tally *);
size_t		 dense_utf32(const unsigned char *, size_t, int, int,
		    struct dense_tally *);

#endif

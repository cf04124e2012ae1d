/*
 * The kernels: runs of plain characters, conversions between the Unicode
 * forms, the search for late declarations (src/simd/, late.c), and the
 * one choice of them for a run (src/lib/simd/select.c).
 */
#ifndef KERNELS_H
#define KERNELS_H

#include "core.h"

/* simd/select.c: the kernels for a run (XMLSNIFF_SIMD, see the man page) */


int		 simd_init(const char *);
const char	*simd_ready(int *);
int		 simd_check(char *, size_t);
const char	*simd_names(char *, size_t);

/* late.c: "<?xml" after the start (decl-not-at-start) */

struct late;
/* Where "<?" or "<!" may be (late_find's contract), as the engine finds
 * it: the kernels, or what a search ahead found (prescan.c). */
typedef size_t	(*late_find_fn)(void *, const struct late *,
		    const unsigned char *, size_t, size_t);

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
	uint64_t	 lt_line, lt_col;	/* of the last '<' (decoded) */
	late_find_fn	 find;		/* NULL: late_find(), the kernels */
	void		*find_ctx;
};

void		 late_init(struct late *, const struct sniff *,
		    const uint32_t *);
int		 late_char(struct late *, long, uint64_t, uint64_t,
		    uint64_t);
int		 late_pending(const struct late *);
int		 late_block(struct late *, const unsigned char *, size_t);
size_t		 late_next(struct late *, const unsigned char *, size_t,
		    uint64_t, int, int *);

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

/*
 * A pass of the mojibake scan (mojibake.c) over UTF-8, up to a byte that
 * candidate() accepts: C3 two bytes before C2, C4..C7, CB or E2, or (with
 * c1) C2 before 80..9F; each such byte is asked.  With count, the line
 * ends passed over (CR, and LF not after CR) are counted.
 */
struct mojskip {
	int		(*candidate)(const void *, const unsigned char *);
	const void	*ctx;
	int		 c1;		/* C2 80..9F may be one (XML 1.0) */
	int		 count;
	unsigned	 prevcr;	/* in and out: the byte before is CR */
	uint64_t	 lines;		/* out: line ends passed */
	size_t		 ls;		/* out: just past the last of them */
	int		 cut;		/* out: one was passed */
};

size_t		 moj_skip(const unsigned char *, size_t, struct mojskip *);

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
 * The same for UTF-16 (be: big-endian) when no lines are counted: pass
 * over the units that step() in mojibake.c drops as they come, up to one
 * of 80..9F, or of C2..F4 before a unit of 80..BF or 100 and up (which
 * trail_byte() may take); a lead before any other unit is dropped.  Each
 * unit passed over has the next one in p[0..n) too.
 */
size_t		 moj_skipw(const unsigned char *, size_t, int);

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

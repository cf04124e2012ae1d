/*
 * The kernels, inside src/simd/ only: one table per instruction set, what
 * the vector kernels share, and the portable kernels that every table
 * falls back on.  The rest of the program calls the entry points in
 * src/cli/all.h (plain_utf8(), conv_run(), late_find(), ...), which
 * select.c sends to the table in use.  Include it after ../xmlsniff.h.
 */
#ifndef SIMD_H
#define SIMD_H

#include <stdint.h>

/* The instruction sets this build can have: x86-64 with gcc or clang
 * (SSE2 always; AVX2 per function, asked of the processor at run time),
 * and Advanced SIMD, part of every AArch64 processor (little-endian
 * only). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_X86 1
#endif
#if defined(__aarch64__) && !defined(__ARM_BIG_ENDIAN) && \
    (defined(__GNUC__) || defined(__clang__))
#define HAVE_NEON 1
#endif

/*
 * The kernels of one level.  Every function has the contract of the entry
 * point of its name (src/lib/simd/select.c) and gives the answers of the
 * character-at-a-time reference; only the speed differs.  A table whose
 * instruction set this build lacks has its name only.
 */
struct kernels {
	const char	*name;		/* XMLSNIFF_SIMD's value for it */
	int		 char_only;	/* ref: the validator a character at a time too */
	int		(*usable)(void); /* this machine runs it (portable
					 * code: simd_everywhere); NULL: not
					 * built here */
	void		(*init)(void);	/* tables to build first, or NULL */
	size_t		(*plain_utf8)(const unsigned char *, size_t,
			    uint64_t *, uint64_t *);
	size_t		(*plain_utf16)(const unsigned char *, size_t, int,
			    uint64_t *, uint64_t *);
	size_t		(*plain_utf32)(const unsigned char *, size_t, int,
			    uint64_t *, uint64_t *);
	size_t		(*plain_sb)(const unsigned char *, size_t,
			    const struct plainmap *, uint64_t *, uint64_t *);
	size_t		(*conv)(int, int, const unsigned char *, size_t,
			    unsigned char *);
	size_t		(*find32)(const unsigned char *, size_t, uint32_t,
			    uint32_t, uint32_t);
	size_t		(*late_find)(const struct late *,
			    const unsigned char *, size_t, size_t);
	/* late_run_walk() (late_run.h) of units of u bytes (1, 2), or
	 * i: none of them; NULL: none at all */
	size_t		(*late_run)(const unsigned char *, size_t, size_t,
			    size_t, int);
	size_t		(*moj_skip)(const unsigned char *, size_t,
			    struct mojskip *);
	size_t		(*moj_skipw)(const unsigned char *, size_t, int);
	size_t		(*moj_skip32)(const unsigned char *, size_t, int);
	/* marks8() in one pass; NULL: by late_find and moj_skip in turn */
	void		(*marks8)(const unsigned char *, size_t,
			    struct marks *);
	/* marksw() of UTF-16 in one pass as far as it returns (whole
	 * blocks); NULL: by late_find and moj_skipw in turn */
	size_t		(*marksw16)(const unsigned char *, size_t, int,
			    struct marks *, int *, int *);
	/* Error-dense text counted a block at a time (kernels.h); NULL:
	 * none at this level, and the validator's walk counts it all. */
	size_t		(*dense_utf8)(const unsigned char *, size_t, int,
			    struct dense_tally *);
	size_t		(*dense_utf16)(const unsigned char *, size_t, int, int,
			    struct dense_tally *);
	size_t		(*dense_utf32)(const unsigned char *, size_t, int, int,
			    struct dense_tally *);
};

/* One file each; select.c lists them. */
int		 simd_everywhere(void);
extern const struct kernels kernels_ref;	/* ref.c */
extern const struct kernels kernels_word;	/* word.c */
extern const struct kernels kernels_sse2;	/* sse2.c */
extern const struct kernels kernels_avx512;	/* avx512.c */
extern const struct kernels kernels_avx2;	/* avx2.c */
extern const struct kernels kernels_neon;	/* neon.c */

/* word.c: the portable kernels, and the tails of the vector ones */
size_t		 plain_utf8_word(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16_word(const unsigned char *, size_t, int,
		    uint64_t *, uint64_t *);
size_t		 plain_utf32_word(const unsigned char *, size_t, int,
		    uint64_t *, uint64_t *);
size_t		 plain_sb_word(const unsigned char *, size_t,
		    const struct plainmap *, uint64_t *, uint64_t *);
size_t		 plain_utf8_rest(const unsigned char *, size_t, size_t,
		    uint64_t *, uint64_t *);
size_t		 plain_utf16_rest(const unsigned char *, size_t, size_t, int,
		    uint64_t *, uint64_t *);
size_t		 conv_word(int, int, const unsigned char *, size_t,
		    unsigned char *);
size_t		 conv_word_from(int, int, const unsigned char *, size_t,
		    unsigned char **);
size_t		 find32_word(const unsigned char *, size_t, uint32_t,
		    uint32_t, uint32_t);
size_t		 moj_skip_word(const unsigned char *, size_t, struct mojskip *);
size_t		 moj_skipw_word(const unsigned char *, size_t, int);
size_t		 moj_skip32_word(const unsigned char *, size_t, int);
size_t		 late_find_word(const struct late *, const unsigned char *,
		    size_t, size_t);

/* sse2.c: the search for markup, which scan_avx2.c ends with */
#ifdef HAVE_X86
size_t		 late_find_sse2(const struct late *, const unsigned char *,
		    size_t, size_t);
#endif

/* avx2.c and its files (avx2_int.h): the kernels that level avx512
 * (avx512.c) takes from avx2 */
#ifdef HAVE_X86
int		 avx2_usable(void);
void		 avx2_init(void);
size_t		 plain_utf32_avx2(const unsigned char *, size_t, int,
		    uint64_t *, uint64_t *);
size_t		 conv_avx2(int, int, const unsigned char *, size_t,
		    unsigned char *);
size_t		 find32_avx2(const unsigned char *, size_t, uint32_t,
		    uint32_t, uint32_t);
size_t		 late_find_avx2(const struct late *, const unsigned char *,
		    size_t, size_t);
size_t		 moj_skip_avx2(const unsigned char *, size_t,
		    struct mojskip *);
size_t		 moj_skipw_avx2(const unsigned char *, size_t, int);
size_t		 moj_skip32_avx2(const unsigned char *, size_t, int);
void		 marks8_avx2(const unsigned char *, size_t, struct marks *);
void		 marks8_avx512(const unsigned char *, size_t, struct marks *);
size_t		 late_find_avx512(const struct late *, const unsigned char *,
		    size_t, size_t);
size_t		 late_run_avx2(const unsigned char *, size_t, size_t, size_t,
		    int);
size_t		 late_run_avx512(const unsigned char *, size_t, size_t, size_t,
		    int);
size_t		 moj_skipw_avx512(const unsigned char *, size_t, int);
size_t		 marksw16_avx512(const unsigned char *, size_t, int,
		    struct marks *, int *, int *);
size_t		 moj_skip32_avx512(const unsigned char *, size_t, int);
#endif

/* dense_avx2.c: the dense counts of level avx2, in avx2.c's table */
#ifdef HAVE_X86
size_t		 dense_utf8_avx2(const unsigned char *, size_t, int,
		    struct dense_tally *);
size_t		 dense_utf16_avx2(const unsigned char *, size_t, int, int,
		    struct dense_tally *);
size_t		 dense_utf32_avx2(const unsigned char *, size_t, int, int,
		    struct dense_tally *);
#endif

/* common.c: the three tables of the UTF-8 lookup method (plain_avx2.c,
 * neon.c),
 * one 16-byte lane each */
extern const signed char utf8_lane[3][16];

/* Whether byte b is in the map. */
#define IN_MAP(m, b)	((m)->bits[(b) >> 3] >> ((b) & 7) & 1)

static inline int
form_be(int form)
{
	return form == FORM_UTF16BE || form == FORM_UTF32BE;
}

static inline int
form_u32(int form)
{
	return form == FORM_UTF32BE || form == FORM_UTF32LE;
}

#if defined(HAVE_X86) || defined(HAVE_NEON)
/* Columns and line ends of one block of plain characters, from the masks
 * of its LF characters and of the first bytes of its characters (lead). */
static inline void
count_block(uint32_t nl, uint32_t lead, uint64_t *lines, uint64_t *col)
{
	if (nl == 0) {
		*col += (uint64_t)__builtin_popcount(lead);
		return;
	}
	*lines += (uint64_t)__builtin_popcount(nl);
	{
		int last = 31 - __builtin_clz(nl);
		uint32_t after = last == 31 ? 0 : lead >> (last + 1);

		*col = 1 + (uint64_t)__builtin_popcount(after);
	}
}

/*
 * The same for a block that may hold CR characters (cr, their mask): a
 * CR is a line end, and so is an LF but right after a CR, which is then
 * neither a line end nor a column (XML 1.0 section 2.11).  step is how
 * far apart the bits of two characters in a row are, top the bit of the
 * last character; *carry says that the character before the block is a
 * CR (bit 0), and is set to whether the block's last one is.
 */
static inline void
count_block_cr(uint32_t nl, uint32_t cr, uint32_t lead, int step, int top,
    uint32_t *carry, uint64_t *lines, uint64_t *col)
{
	uint32_t pair;

	if ((cr | *carry) == 0) {
		count_block(nl, lead, lines, col);
		return;
	}
	pair = nl & (cr << step | *carry);
	*carry = cr >> top & 1;
	count_block(cr | (nl & ~pair), lead & ~pair, lines, col);
}

/* The line ends of a block of 64 bytes with LF at m and CR at r, as
 * count_block_cr has them (step, *carry: as there; the last character's
 * bit is 64 - step): CR, and LF but right after a CR. */
static inline uint64_t
crlf_ends(uint64_t m, uint64_t r, int step, uint64_t *carry)
{
	uint64_t pair = m & (r << step | *carry);

	*carry = r >> (64 - step);
	return r | (m & ~pair);
}
#endif


/* The dense walks (dense_avx2.c, avx512.c) stop (t->clean) after this
 * many blocks in a row without an error: text with an error every few
 * dozen bytes (Latin-1 read as UTF-8) has clean blocks between, and
 * leaving at the first sent each stretch to the run kernel and back, a
 * call and a setup for a few dozen bytes. */
#define DENSE_CALM	4

/* Columns and line ends of a block whose tokens begin at the bits of ts:
 * line ends at e (CR, and LF but after a CR), the LF after a CR (pair)
 * neither a line end nor a column. */
static inline void
tally_lines(uint64_t e, uint64_t ts, struct dense_tally *t)
{
	if (e == 0) {
		t->col += (uint64_t)__builtin_popcountll(ts);
		return;
	}
	t->line += (uint64_t)__builtin_popcountll(e);
	t->col = 1 + (uint64_t)__builtin_popcountll(ts &
	    ~((2ULL << (63 - __builtin_clzll(e))) - 1));
}

/*
 * The LF characters of lf that follow a CR as the character before them
 * (XML 1.0 section 2.11), the bad sequences between not counting: the
 * characters begin at the bits of v, the CR characters at those of cr,
 * and *prevcr says the one before the block is a CR, and is set to
 * whether the block's last one is.  (A bit a byte or unit, 64 at most.)
 */
static inline uint64_t
pair_lf(uint64_t lf, uint64_t cr, uint64_t v, int *prevcr)
{
	uint64_t pair = 0, m, below;
	int j;

	if ((cr | (uint64_t)*prevcr) == 0)
		return 0;
	for (m = lf; m != 0; m &= m - 1) {
		j = __builtin_ctzll(m);
		below = v & ((1ULL << j) - 1);
		if (below != 0 ? cr >> (63 - __builtin_clzll(below)) & 1 :
		    (uint64_t)*prevcr)
			pair |= 1ULL << j;
	}
	if (v != 0)
		*prevcr = (int)(cr >> (63 - __builtin_clzll(v)) & 1);
	return pair;
}

/* The masks of one block of error-dense UTF-8, a bit a byte. */
struct u8masks {
	uint64_t	 l2, l3, l4;	/* leads of two, three, four bytes */
	uint64_t	 lone;		/* C0, C1, F5..FF: they begin nothing */
	uint64_t	 narrow;	/* a lead whose second byte is out of its
					 * narrow range (E0, ED, F0, F4) */
	uint64_t	 c0, c1, c2, c3; /* continuation bytes 0..3 bytes on */
	uint64_t	 lf, cr, ascii, nc; /* nc: the non-Chars */
};

/*
 * The count of a block of bits (32 or 64) bytes of error-dense UTF-8 from
 * its masks m, into *t, as dense_avx2.c says: a lead takes the
 * continuation bytes that fit its sequence, its token bad unless
 * complete; a continuation byte no lead takes is bad alone.  Return the
 * bytes taken: the block, and those past it that its last sequence took;
 * *quiet: the block had no error and no non-Char.
 */
static inline size_t
dense_u8_step(const struct u8masks *m, int bits, struct dense_tally *t,
    int *quiet)
{
	const uint64_t all = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	uint64_t lead = m->l2 | m->l3 | m->l4, s, a3, a4, full, used, over;
	uint64_t bad, pair, e;

	s = lead & m->c1 & ~m->narrow;		/* two bytes at least */
	a3 = s & (m->l3 | m->l4) & m->c2;	/* three */
	a4 = a3 & m->l4 & m->c3;		/* four */
	full = (s & m->l2) | (a3 & m->l3) | a4;
	/* the bytes the sequences take, in the block and past it */
	used = s << 1 | a3 << 2 | a4 << 3;
	over = bits == 64 ? s >> 63 | a3 >> 62 | a4 >> 61 : used >> bits;
	used &= all;
	bad = (uint64_t)__builtin_popcountll(lead & ~full) +
	    (uint64_t)__builtin_popcountll(m->lone) +
	    (uint64_t)__builtin_popcountll(m->c0 & ~used);
	/* An LF after a CR only ends the pair: neither a line end nor a
	 * column. */
	pair = pair_lf(m->lf, m->cr, m->ascii | full, &t->cr);
	e = m->cr | (m->lf & ~pair);
	tally_lines(e, ~used & all & ~pair, t);
	t->bad += bad;
	t->nonchar += (uint64_t)__builtin_popcountll(m->nc);
	*quiet = bad == 0 && m->nc == 0;
	return (size_t)bits + (size_t)__builtin_popcountll(over);
}

/*
 * moj_skip() a byte at a time from p[i] on: the first byte of a candidate
 * (moj_exact8), or n - 2 (see struct mojskip); the tail of the vector
 * passes, and the whole of the portable one.
 */
static inline size_t
moj_skip_tail(const unsigned char *p, size_t n, size_t i, struct mojskip *k)
{
	for (; i + 3 <= n; i++) {
		if ((p[i] == 0xC2 || p[i] == 0xC3) &&
		    moj_exact8(p + i, n - i, k->c1))
			break;
		if (!k->count)
			continue;
		if (p[i] == '\r' || (p[i] == '\n' && !k->prevcr)) {
			k->lines++;
			k->ls = i + 1;
			k->cut = 1;
		}
		k->prevcr = p[i] == '\r';
	}
	return i;
}

/*
 * The vector pass of moj_skip(), W bytes at a time (T the vector type and
 * the intrinsics its operations; LT a signed less-than): the bits of the
 * bytes that may begin a candidate (C3 two bytes before C2, C5, C6, CB or
 * E2, the first bytes of the trail characters; with c1, C2 before 80..9F),
 * each asked of moj_exact8() in turn, and with count the CR and LF bytes
 * before the one taken; the last bytes by moj_skip_tail().  One text for
 * SSE2 and AVX2.  Latin Extended text (C4, C5 and C3 letters side by
 * side) stops only where a windows-1252 letter (Š, š, Ž, ž, Œ, œ, Ÿ, ƒ)
 * follows a C3 letter, and goes on after one look.
 */
#define MOJ_SKIP_BODY(W, T, LOAD, SET1, AND, OR, EQ, LT, MASK, POPCNT)	\
	const T c3 = SET1((char)0xC3), c2 = SET1((char)0xC2);		\
	const T c5 = SET1((char)0xC5), c6 = SET1((char)0xC6);		\
	const T cb = SET1((char)0xCB), e2 = SET1((char)0xE2);		\
	const T a0 = SET1((char)0xA0);					\
	const T vcr = SET1('\r'), vlf = SET1('\n');			\
	const T ctl = SET1(k->c1 ? -1 : 0);				\
	unsigned prevcr = k->prevcr;					\
	size_t i = 0;							\
									\
	while (i + (W) + 2 <= n) {					\
		T v0 = LOAD((const T *)(p + i));			\
		uint32_t mask, lim, r, l, e, b;				\
		int w = (W);						\
									\
		/* Most blocks have no C3, nor a C2 that matters. */	\
		mask = (uint32_t)MASK(OR(EQ(v0, c3), AND(ctl,		\
		    EQ(v0, c2))));					\
		if (mask != 0) {					\
			T v1 = LOAD((const T *)(p + i + 1));		\
			T v2 = LOAD((const T *)(p + i + 2));		\
									\
			/* C3 before C2, C5, C6, CB or E2; C2 before	\
			 * 80..9F */					\
			mask = (uint32_t)MASK(OR(AND(EQ(v0, c3), OR(OR( \
			    EQ(v2, c2), OR(EQ(v2, c5), EQ(v2, c6))),	\
			    OR(EQ(v2, cb), EQ(v2, e2)))), AND(ctl, AND(	\
			    EQ(v0, c2), LT(v1, a0)))));			\
		}							\
		while (mask != 0) {					\
			b = (uint32_t)__builtin_ctz(mask);		\
			if (moj_exact8(p + i + b, n - i - b, k->c1)) {	\
				w = (int)b;				\
				break;					\
			}						\
			mask &= mask - 1;				\
		}							\
		if (k->count && w > 0) {				\
			lim = w == 32 ? 0xFFFFFFFFu : (1u << w) - 1;	\
			r = (uint32_t)MASK(EQ(v0, vcr)) & lim;		\
			l = (uint32_t)MASK(EQ(v0, vlf)) & lim;		\
			e = r | (l & ~(r << 1 | prevcr));		\
			if (e != 0) {					\
				k->cut = 1;				\
				k->lines += POPCNT(e);			\
				k->ls = i + (size_t)(32 - __builtin_clz(e)); \
			}						\
			prevcr = r >> (w - 1) & 1;			\
		}							\
		if (w < (W)) {						\
			k->prevcr = prevcr;				\
			return i + (size_t)w;				\
		}							\
		i += (W);						\
	}								\
	k->prevcr = prevcr;						\
	return moj_skip_tail(p, n, i, k);

#endif /* SIMD_H */

/*
 * The kernels, inside src/simd/ only: one table per instruction set, what
 * the vector kernels share, and the portable kernels that every table
 * falls back on.  The rest of the program calls the entry points in
 * src/xmlsniff.h (plain_utf8(), conv_run(), late_find(), ...), which
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
 * point of its name (src/simd/select.c) and gives the answers of the
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
};

/* One file each; select.c lists them. */
int		 simd_everywhere(void);
extern const struct kernels kernels_ref;	/* ref.c */
extern const struct kernels kernels_word;	/* word.c */
extern const struct kernels kernels_sse2;	/* sse2.c */
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
size_t		 conv_word(int, int, const unsigned char *, size_t,
		    unsigned char *);
size_t		 conv_word_from(int, int, const unsigned char *, size_t,
		    unsigned char **);
size_t		 find32_word(const unsigned char *, size_t, uint32_t,
		    uint32_t, uint32_t);
size_t		 late_find_word(const struct late *, const unsigned char *,
		    size_t, size_t);

/* sse2.c: the search for markup, which avx2.c ends with */
#ifdef HAVE_X86
size_t		 late_find_sse2(const struct late *, const unsigned char *,
		    size_t, size_t);
#endif

/* common.c: the three tables of the UTF-8 lookup method (avx2.c, neon.c),
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
#endif

#endif /* SIMD_H */

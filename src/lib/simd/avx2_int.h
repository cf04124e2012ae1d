/*
 * What the files of level avx2 (avx2.c lists them) share: the attribute
 * of their functions, two byte swaps, and the kernels one file gives
 * another.  Include it inside #ifdef HAVE_X86, after <immintrin.h>.
 */
#ifndef SIMD_AVX2_INT_H
#define SIMD_AVX2_INT_H

#define AVX2 __attribute__((target("avx2,popcnt")))

AVX2 static inline __m256i
swap16(__m256i v)
{
	return _mm256_shuffle_epi8(v, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6,
	    9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
	    13, 12, 15, 14));
}

AVX2 static inline __m256i
swap32(__m256i v)
{
	return _mm256_shuffle_epi8(v, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
	    11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
	    15, 14, 13, 12));
}

/* scan_avx2.c: the tables of moj_first and moj_mask32 (level avx512's
 * marks8 takes them too), and the byte-at-a-time end of marks8 */
extern const uint8_t moj_lead_hi[16], moj_lead_lo[16], moj_next_hi[16],
		    moj_next_lo[16], moj_lead_is[16];
extern uint8_t	 moj_lead64[64], moj_next64[64];
void		 moj_tables64(void);
void		 marks8_tail(const unsigned char *, size_t, size_t,
		    struct marks *, int *, int *);
void		 marks_lt_run(struct marks *, size_t, const uint64_t *,
		    unsigned, uint64_t, int *);

/* Add mark j to the list l (*nl of cap); 0 when it is full. */
static inline int
mark_add(uint32_t *l, size_t *nl, size_t cap, size_t j)
{
	if (*nl == cap)
		return 0;
	l[(*nl)++] = (uint32_t)j;
	return 1;
}

/* The "<?" and "<!" at i and the bits of mask on into m's list while
 * *lon: when it fills, its coverage ends at the mark that did not fit
 * and *lon is cleared (marks8_tail's rule, a block at a time). */
static inline __attribute__((always_inline)) void
marks_lt_bits(struct marks *m, size_t i, uint64_t mask, int *lon)
{
	for (; mask != 0 && *lon; mask &= mask - 1) {
		size_t at = i + (size_t)__builtin_ctzll(mask);

		if (!mark_add(m->lt, &m->nlt, m->cap, at)) {
			m->lcov = at;
			*lon = 0;
		}
	}
}

/* The same for the bytes of p[..n) at i and the bits of mask that may
 * begin a mojibake candidate: each that moj_exact8() (with the C1
 * controls) takes is a mark, while *mon. */
static inline __attribute__((always_inline)) void
marks_mj_bits(const unsigned char *p, size_t n, struct marks *m, size_t i,
    uint64_t mask, int *mon)
{
	for (; mask != 0 && *mon; mask &= mask - 1) {
		size_t at = i + (size_t)__builtin_ctzll(mask);

		if (moj_exact8(p + at, n - at, 1) &&
		    !mark_add(m->mj, &m->nmj, m->cap, at)) {
			m->mcov = at;
			*mon = 0;
		}
	}
}

/* plain_avx2.c */
size_t		 plain_utf8_avx2(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_sb_avx2(const unsigned char *, size_t,
		    const struct plainmap *, uint64_t *, uint64_t *);

/* plainw_avx2.c (plain_utf32_avx2: simd.h, level avx512 takes it too) */
size_t		 plain_utf16_avx2(const unsigned char *, size_t, int,
		    uint64_t *, uint64_t *);

/* narrow_avx2.c, wide_avx2.c */
void		 narrow_avx2_tables(void);
void		 wide_avx2_tables(void);
size_t		 u16_u8_avx2(const unsigned char *, size_t, int,
		    unsigned char *);
size_t		 u32_u8_avx2(const unsigned char *, size_t, int,
		    unsigned char *);

#endif

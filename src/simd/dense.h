/*
 * Error-dense text counted a block at a time (dense_avx2.c), once the
 * check only counts (decode_utf.c, feed_quiet10 and feed_quiet_units):
 * the entry points, which select.c sends to the AVX2 kernels when those
 * are the level in use, and which take nothing (return 0) otherwise.
 */
#ifndef DENSE_H
#define DENSE_H

#include <stddef.h>
#include <stdint.h>

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
int	dense_have(void);	/* whether they take anything */
size_t	dense_utf8(const unsigned char *, size_t, int, struct dense_tally *);
size_t	dense_utf16(const unsigned char *, size_t, int, int,
	    struct dense_tally *);
size_t	dense_utf32(const unsigned char *, size_t, int, int,
	    struct dense_tally *);

#ifdef HAVE_X86
size_t	dense_utf8_avx2(const unsigned char *, size_t, int,
	    struct dense_tally *);
size_t	dense_utf16_avx2(const unsigned char *, size_t, int, int,
	    struct dense_tally *);
size_t	dense_utf32_avx2(const unsigned char *, size_t, int, int,
	    struct dense_tally *);
#endif

#endif /* DENSE_H */

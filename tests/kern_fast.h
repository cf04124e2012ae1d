/*
 * What the sweeps that left tests/fastpath.bats, runs.bats, mojibake.bats
 * and xc.bats share (tests/kern_util.c): byte buffers and the generators
 * of their inputs, and the engine driven in process as main.c drives it,
 * once per kernel level, compared with the reference.
 */
#ifndef KERN_FAST_H
#define KERN_FAST_H

#include <stddef.h>

/* A growing byte buffer; { NULL } is empty. */
struct buf {
	unsigned char	*p;
	size_t		 n, cap;
};

void	 bput(struct buf *, const void *, size_t);
void	 bstr(struct buf *, const char *);
void	 brep(struct buf *, const char *, size_t);
void	 bfmt(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 bfree(struct buf *);
/* One byte c; n bytes c; the value v as one unit of w bytes (2: UTF-16,
 * 4: UTF-32), big-endian if be. */
void	 bbyte(struct buf *, int);
void	 bbytes(struct buf *, int, size_t);
void	 bunit(struct buf *, unsigned long, int, int);
/* Append n bytes of UTF-8 re-encoded in to (iconv); 0, or -1 when
 * this iconv cannot. */
int	 brecode(struct buf *, const char *, const void *, size_t);
/* What the bats files called mktext N: N lines of ASCII and CJK. */
void	 mktext(struct buf *, int);
/* A deterministic pseudo-random number below k (seeded by krand_seed). */
void	 krand_seed(unsigned long);
unsigned krand(unsigned);
/* One token of mixed(): a character of 1 to 4 bytes, or an ASCII word. */
void	 ktoken(struct buf *);
/* Lines of markup with 1- to 4-byte characters and ASCII words; one
 * in cr (none if 0) ends in CR LF or a lone CR. */
void	 mixed(struct buf *, unsigned long, int, int);

/*
 * The analysis of p[0..n) (--content-type ctype, or NULL), as main.c's
 * feed_input wires the validator and the mojibake scan, the bytes
 * arriving up to each of cuts[] in turn; mojfd: the bytes in a file
 * that the mojibake scan reads again, or -1 (a pipe).  Every diagnostic
 * occurrence (diag_keep decides how many are listed) goes into out as
 * lines "code@off:line:col*count message", after one line
 * "encoding errors warnings".
 */
void	 k_analyse(const unsigned char *, size_t, const char *,
	    const size_t *, size_t, int, struct buf *);
/*
 * At every kernel level: the analysis whole (the mojibake scan reading a
 * file), up to each of cuts[] and in chunks of 4099 bytes (from a pipe)
 * as the reference's whole.  Return 1 when all agree; the reference's
 * answer is left in ref (NUL-terminated).
 */
int	 k_same(const char *, const unsigned char *, size_t, const char *,
	    const size_t *, size_t, struct buf *);
/* Whether the text t holds s. */
int	 has(const struct buf *, const char *);
/* How many lines of t hold s. */
int	 nhas(const struct buf *, const char *);

/*
 * Transcode p[0..n) to target (ncr: --fallback=ncr) at the current level,
 * the bytes arriving up to each of cuts[] then in chunks of chunk bytes
 * (0: at once); the bytes written into out, the diagnostics (as
 * k_analyse) into dg; return the status (0, 1 or 2).
 */
int	 k_xlate(const unsigned char *, size_t, const char *, int,
	    const size_t *, size_t, size_t, struct buf *, struct buf *);
/*
 * At every kernel level, whole, in chunks of 4099 bytes and up to each
 * of cuts[]: the status and diagnostics of the reference fed the same
 * way, and its bytes when it succeeds (and then those of the reference
 * whole).  Return the reference's status (-1 when they disagree); its
 * bytes whole in out, its diagnostics in dg.
 */
int	 k_xsame(const char *, const unsigned char *, size_t, const char *,
	    int, const size_t *, size_t, struct buf *, struct buf *);
/* UTF-8 in[0..n) as iconv writes it in to, after the declaration
 * <?xml version="1.0" encoding="to"?> (and for "UTF-16" and "UTF-32",
 * the big-endian BOM): what a transcode into to must write. */
void	 k_expect(struct buf *, const char *, const void *, size_t);

void	 kern_errdense(void);
void	 kern_xc(void);
void	 kern_xc2(void);
void	 kern_runs(void);
void	 kern_moj(void);
/* tests/kern_late.c; its markup whose end is not where it looks to be */
void	 kern_late(void);
extern const char *const late_tricky[];
extern const size_t late_ntricky;
/* tests/kern_lrun.c (kern_late() runs it) */
void	 kern_late_runs(void);
/* the sequences of moj_pairs_seq(): two leads by 31 first bytes by 64
 * second bytes */
#define MOJ_PAIRS	(2 * 31 * 64)
size_t	 moj_pairs_seq(size_t, unsigned char *);

#endif

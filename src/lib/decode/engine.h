/*
 * The engine: decoding a whole entity (decode.c, decode_iconv.c: their
 * own header, decode.h), checking it (validate.c) and writing it in
 * another encoding (transcode.c and its parts).
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <pthread.h>

#include "kernels.h"

/* input.c: the input buffer.  Reads land page-aligned at mem + IN_PAD
 * (unaligned copies from the page cache are many times slower on some
 * CPUs); bytes carried over from the last read go just before them. */

#define IN_PAD		4096
#define IN_SIZE		(HEAD_MAX + 64 * 1024)
/* Slots in the ring of reading ahead (ahead.c): the thread may be this
 * many pieces ahead.  Eight took 5 to 20% off four on every shape of
 * bench/run (2-core EPYC, 2 MiB of L2 a core: doc/BENCHMARKS.md): the
 * host's pauses of either thread are absorbed further ahead.  The slots
 * are about 2.6 MiB; the peak RSS stays near 5.5 MiB. */
#define AH_SLOTS	8

/*
 * The mapping of the file an inbuf reads (input.c): all of it, len bytes
 * from offset 0 (offsets are the file's: got counts from its start); end
 * is the size it had when it was mapped; dropped, the pages below it given
 * back.  reading: past end, a transcode reads on (the file may have
 * grown).  slot: its place in the list the SIGBUS handler looks in.
 */
struct inmap {
	unsigned char	*base;
	size_t		 len;
	long long	 end;
	long long	 dropped;
	int		 reading;
	int		 slot;
};

struct inbuf {
	int		 fd;
	unsigned char	*mem;		/* IN_PAD + IN_SIZE bytes, page-aligned */
	unsigned char	*p;		/* the bytes not yet used */
	size_t		 n;
	int		 eof;		/* p[0..n) runs to the end of input */
	long long	 size;		/* a regular file's size, else -1 */
	int		 trust_size;	/* stop reading at size (no read to see
					 * the end); never when transcoding */
	long long	 got;		/* bytes read so far */
	int		 mapped;	/* a big file, mapped (input.c) */
	int		 shrunk;	/* it shrank while it was mapped */
	int		 nomap;		/* never map it: read it */
	struct inmap	 mp;		/* the mapping, or the view */
	struct ahead	*ra;		/* read ahead by a second thread */
};

int		 in_refill(struct inbuf *, size_t);
size_t		 in_push(struct inbuf *, const unsigned char *, size_t);
int		 in_full(const struct inbuf *);
void		 in_drop(struct inbuf *, size_t);
void		 in_from(struct inbuf *, const unsigned char *, size_t, size_t);
void		 in_map_begin(struct inbuf *);
int		 in_map_end(struct inbuf *);
const unsigned char *in_map(const struct inbuf *, size_t *);
const unsigned char *in_view(struct inbuf *, long long, size_t);
int		 in_view_end(struct inbuf *);
/* What the thread reading ahead searches each piece for (ahead.c): its
 * kind, nothing or the marks of UTF-8 (marks8), UTF-16, UTF-32 or an
 * ASCII-based single-byte encoding (marksw), with AHM_AT(k) where the
 * units start at offsets of the file that are k modulo their size. */
#define AHM_NONE	0
#define AHM_UTF8	1
#define AHM_UTF16LE	2
#define AHM_UTF16BE	3
#define AHM_UTF32LE	4
#define AHM_UTF32BE	5
#define AHM_BYTES	6
#define AHM_KIND(m)	((m) & 7)
#define AHM_AT(k)	((k) << 3)
void		 in_ahead_begin(struct inbuf *, int);
int		 in_ahead_mark(struct inbuf *, int);
const struct marks *in_marks(const struct inbuf *);
int		 in_ahead_end(struct inbuf *);

/* ahead.c: a file read ahead by a second thread (input.c's) */

struct ahead;
struct ahead	*ah_begin(int, long long, long long, int);
int		 ah_next(struct ahead *, struct inbuf *, size_t);
const struct marks *ah_marks(const struct ahead *, const struct inbuf *);
void		 ah_end(struct ahead *);
void		 ah_set_mark(struct ahead *, int);
void		*ah_map(size_t, size_t *);
int		 ah_ring_full(struct ahead *);
uint64_t	 ah_helped(const struct ahead *);

/*
 * What the second threads (prescan.c, ahead.c) and the first share: a
 * counter one writes, with release order, and the other reads, with
 * acquire order; and a pause in a loop that polls one.
 */
static inline uint64_t
th_ld(const uint64_t *x)
{
	return __atomic_load_n(x, __ATOMIC_ACQUIRE);
}

static inline void
th_st(uint64_t *x, uint64_t v)
{
	__atomic_store_n(x, v, __ATOMIC_RELEASE);
}

/* ahead.c: a second thread started with the first thread's signals
 * blocked, but for those a fault raises */
int		 th_start(pthread_t *, void *(*)(void *), void *);

#if defined(__x86_64__) || defined(__i386__)
#define TH_PAUSE()	__builtin_ia32_pause()
#else
#define TH_PAUSE()	do { } while (0)
#endif

/* prescan.c: a mapped file searched ahead by a second thread (struct
 * pre, kernels.h) */

struct pre	*pre_begin(const unsigned char *, uint64_t, uint64_t, uint64_t,
		    const struct sniff *, const uint32_t *);
void		 pre_end(struct pre *);
int		 pre_covered(struct pre *, const unsigned char *, size_t);
size_t		 pre_take(struct pre *, const unsigned char *, size_t,
		    struct marks *);

/* validate.c: the validator, which also drives the decoder (decode.h);
 * the sink functions go through it to the decoder. */

struct val;
typedef void	(*val_sink_fn)(void *, uint32_t, uint64_t, uint64_t, uint64_t);
typedef size_t	(*val_run_fn)(void *, const unsigned char *, size_t, int);
/* A block of decoded characters (UTF-32LE): all are taken, or none. */
typedef size_t	(*val_block_fn)(void *, const unsigned char *, size_t);



struct dcaches;
struct dcaches	*dcaches_new(void);
void		 dcaches_free(struct dcaches *);
struct val	*val_open(const struct sniff *, struct diags *,
		    struct dcaches *);
struct val	*val_open_in(struct val *, const struct sniff *,
		    struct diags *, struct dcaches *);
struct val	*val_new(const struct sniff *, struct diags *);
void		 val_set_sink(struct val *, val_sink_fn, val_run_fn, val_block_fn,
		    void *);
void		 val_set_finder(struct val *, late_find_fn, void *);
const uint32_t	*val_sbmap(const struct val *);
size_t		 val_feed(struct val *, const unsigned char *, size_t, int);
size_t		 val_feed_in(struct val *, const struct inbuf *);
struct marks	*val_marks(struct val *);
int		 val_ahead_marks(const struct val *, long long);
void		 val_close(struct val *);
void		 val_free(struct val *);

/* transcode.c (target_resolve: target.c) */

enum fallback {
	FB_ERROR,
	FB_NCR
};

struct xopts {
	struct enc	 to;		/* the target */
	enum form	 kind;		/* how the target is written */
	int		 bom;		/* RFC 7303 section 3.3: write a BOM */
	int		 need_decl;	/* the output must declare its encoding */
	char		 declname[64];	/* the name the declaration gives */
	char		 iconv[64];	/* iconv name, for FORM_ICONV */
	enum fallback	 fallback;
	int		 utf8_bom;
	/* --fix (fix.c) */
	int		 keep_decl;	/* keep the declared value as it is */
	int		 same_content;	/* refuse unless the bytes after the
					 * declaration stay the same */
	int		 dry_run;	/* never replace the file */
};

int		 target_resolve(const char *, int, int, struct xopts *, char *,
		    size_t);
struct xlate;
/* The caller's writer: 0, or anything else to stop (transcode.c). */
typedef int	(*xlate_write_fn)(void *, const void *, size_t);
int		 xlate_check(const struct sniff *, int, char *, size_t);
struct xlate	*xlate_new(struct sniff *, const struct xopts *, int,
		    xlate_write_fn, void *, struct dcaches *, struct val **,
		    int *, char *, size_t);
int		 xlate_failed(struct xlate *);
int		 xlate_status(const struct xlate *);
int		 xlate_end(struct xlate *, int, char *, size_t);
void		 xlate_free(struct xlate *);

#endif

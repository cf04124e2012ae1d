/*
 * The decoding layer (decode.c, decode_iconv.c): it walks the entity's
 * bytes in the entity's form and hands what it finds to two consumers,
 * the check (the validator, validate.c) and the sink (a transcoder,
 * transcode.c): plain runs, which need only counting; characters, with
 * their offsets, lines and columns; blocks that iconv decoded at once;
 * and bad sequences.  It keeps the offset and the position itself, and
 * the bookkeeping of a run that the sink took only part of.  It includes
 * nothing above it: the consumers come as functions.
 */
#ifndef DECODE_H
#define DECODE_H

#include <iconv.h>

#include "kernels.h"

/* The sink: as val_sink_fn, val_run_fn and val_block_fn (engine.h). */
typedef void	(*dec_char_fn)(void *, uint32_t, uint64_t, uint64_t, uint64_t);
typedef size_t	(*dec_run_fn)(void *, const unsigned char *, size_t, int);
typedef size_t	(*dec_block_fn)(void *, const unsigned char *, size_t);

/* The check: what it is told of every character and every bad sequence. */
struct dec_check {
	/* character c at offset off, line, column */
	void	(*chr)(void *, uint32_t, uint64_t, uint64_t, uint64_t);
	/* n more of the NUL just passed to chr (a run of NUL bytes) */
	void	(*nuls)(void *, uint64_t);
	/* bytes p[0..len) at offset, line, column are not a character
	 * (truncated: the entity ends inside one) */
	void	(*bad)(void *, const unsigned char *, size_t, int, uint64_t,
		    uint64_t, uint64_t);
	/* bytes p[0..n) from offset, line, column on are each a bad
	 * sequence of one byte, one column apart: bad for each, at once */
	void	(*bads)(void *, const unsigned char *, size_t, uint64_t,
		    uint64_t, uint64_t);
	/* whether it would only count further bad sequences (no message,
	 * no position kept): 0 no, 1 and characters that are no Char too,
	 * 2 but not those; then tally(bad, nonchar) counts many at once */
	int	(*quiet)(void *);
	void	(*tally)(void *, uint64_t, uint64_t);
	/* a block of nc decoded characters (UTF-32LE): may it pass
	 * without its positions?  blk_take: it did (the sink took it). */
	int	(*blk)(void *, const unsigned char *, size_t);
	void	(*blk_take)(void *);
};

/*
 * Decoders kept from one input to the next (struct dcaches, engine.h:
 * each checker has its own): opening one and building its byte table
 * cost more than reading a small file.  An entry in use by a decoder is
 * never handed to another.
 */
#define NDCACHE	8

struct dcache {
	char		 name[64];
	iconv_t		 cd;
	int		 sb;
	int		 ascii;		/* bytes below 0x80 are ASCII */
	int		 stateless;	/* no shift states: blocks decode alone */
	int		 busy;
	/* single-byte: the bytes whose character needs only counting (an
	 * XML 1.0 Char, no C1 control under ISO-8859-n) */
	unsigned char	 simple[256];
	unsigned char	 simple_lo[256];	/* the same, below 0x80 only */
	struct plainmap	 pm, pm_lo;	/* both, less CR, for plain_sb */
	unsigned long	 last;
	uint32_t	 sbmap[256];
	unsigned char	*bulk;		/* dec_feed_bulk's characters, once
					 * needed: DEC_BULK bytes */
};

#define DEC_BULK	(4 * 4096 + 64)

struct dcaches {
	struct dcache	 e[NDCACHE];
	unsigned long	 tick;
};

struct dec {
	enum form	 form;
	int		 xml11;		/* line ends of XML 1.1 (2.11) */
	uint64_t	 skip;		/* BOM bytes still to pass over */
	uint64_t	 off;		/* offset of the next byte */
	struct linepos	 pos;		/* of the next character */
	uint64_t	 exact_to;	/* decode a character at a time to here */
	iconv_t		 cd;
	struct dcache	*dc;		/* where cd and sbmap come from */
	int		 sb;		/* single-byte: sbmap is valid */
	int		 ascii;		/* ... and ASCII below 0x80 */
	int		 stateless;	/* blocks may be decoded at once */
	unsigned	 step;		/* bytes an illegal code unit spans */
	const uint32_t	*sbmap;		/* code point, or SB_BAD */
	const unsigned char *simple;	/* see struct dcache */
	/* A single-byte entity is followed as UTF-8 too: its bytes from
	 * 0x80 up are plain only once they are known not to be UTF-8, and
	 * the check reports them when they are (suspicious-label). */
	int		 u8bad;		/* raw bytes are not UTF-8 */
	uint64_t	 u8mb;		/* multi-byte UTF-8 sequences seen */
	uint64_t	 u8off, u8line, u8col;
	unsigned	 u8skip;
	struct dcaches	*cache;		/* where dc comes from */
	const struct dec_check *chk;
	void		*chk_ctx;
	int		 chk_every;	/* chk->chr wants every character, not
					 * only those that are no Char */
	/* Where decoded characters go (transcoding), if anywhere; runs of
	 * plain characters go to run as bytes, when it is set. */
	dec_char_fn	 sink;
	dec_run_fn	 run;
	dec_block_fn	 block;
	void		*sink_ctx;
};

/*
 * A plain run that the sink took only part of: p[stopped..declined) of
 * the bytes fed is plain, and the character at stopped goes the character
 * path (dec_take, dec_retake).
 */
struct decline {
	size_t		 declined, stopped;
};

static inline int
dec_again(const struct decline *dl, size_t i)
{
	return i < dl->declined && i > dl->stopped;
}

/* decode.c */
int		 dec_init(struct dec *, const struct sniff *,
		    const struct dec_check *, void *, struct dcaches *);
void		 dec_fini(struct dec *);
void		 dec_set_sink(struct dec *, dec_char_fn, dec_run_fn,
		    dec_block_fn, void *);
size_t		 dec_skip(struct dec *, size_t);
size_t		 dec_feed(struct dec *, const unsigned char *, size_t, int);
int		 dec_ref(void);
size_t		 dec_plain(int, const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 dec_take(struct dec *, const unsigned char *, size_t, int,
		    const struct linepos *, struct decline *, size_t);
size_t		 dec_retake(struct dec *, const unsigned char *, int,
		    struct decline *, size_t);
void		 dec_bad(struct dec *, const unsigned char *, size_t, int);
size_t		 dec_bad_run(struct dec *, const unsigned char *, size_t);
size_t		 dec_lone_span(const unsigned char *, size_t);

/* Character c starts at byte offset off: to the sink, and to the check
 * when it is no Char (XML 1.0 [2], XML 1.1 [2]) or the check wants them
 * all. */
static inline void
dec_put(struct dec *d, uint32_t c, uint64_t off)
{
	if (d->sink != NULL)
		d->sink(d->sink_ctx, c, off, d->pos.line, d->pos.col);
	if (d->chk_every || !xml_char_ok(c, d->xml11))
		d->chk->chr(d->chk_ctx, c, off, d->pos.line, d->pos.col);
	linepos_step(&d->pos, c, d->xml11);
}

/* decode_iconv.c */
struct dcache	*dec_dcache(struct dcaches *, const char *);
size_t		 dec_feed_sb(struct dec *, const unsigned char *, size_t, int);
size_t		 dec_feed_iconv(struct dec *, const unsigned char *, size_t,
		    int);
int		 dec_bulk_ready(struct dec *);
size_t		 dec_feed_bulk(struct dec *, const unsigned char *, size_t,
		    int);

#endif

/*
 * The validator's own state and the parts of it that its two files share:
 * validate.c (the Unicode forms, positions, late declarations) and
 * validate_iconv.c (the encodings iconv decodes).  Internal to them.
 */
#ifndef VAL_H
#define VAL_H

#include <iconv.h>

#include "engine.h"

struct val {
	enum form	 dec;
	int		 xml11;
	struct diags	*dg;
	const char	*encname;
	uint64_t	 skip;		/* BOM bytes still to pass over */
	uint64_t	 off;		/* offset of the next byte */
	struct linepos	 pos;		/* of the next character */
	iconv_t		 cd;
	struct dcache	*dc;		/* where cd and sbmap come from */
	int		 sb;		/* single-byte: sbmap is valid */
	int		 ascii;		/* ... and ASCII below 0x80 */
	int		 stateless;	/* blocks may be decoded at once */
	unsigned	 step;		/* bytes an illegal code unit spans */
	const uint32_t	*sbmap;		/* code point, or SB_BAD */
	const unsigned char *simple;	/* see struct dcache */
	/* suspicious-label hints for single-byte encodings */
	int		 iso8859;
	int		 u8bad;		/* raw bytes are not UTF-8 */
	uint64_t	 u8mb;		/* multi-byte UTF-8 sequences seen */
	uint64_t	 u8off, u8line, u8col;
	unsigned	 u8skip;
	int		 ws_lead;	/* only white space so far: see sniff */
	struct late	 late;
	uint64_t	 exact_to;	/* decode a character at a time to here */
	uint64_t	 c1;		/* C1 controls under ISO-8859-n */
	uint32_t	 c1char;
	uint64_t	 c1off, c1line, c1col;
	/* Where decoded characters go (transcoding), if anywhere; runs of
	 * plain characters go to run as bytes, when it is set. */
	val_sink_fn	 sink;
	val_run_fn	 run;
	val_block_fn	 block;
	void		*sink_ctx;
};

/*
 * Decoders kept from one input to the next: opening one and building its
 * byte table cost more than reading a small file.  An entry in use by a
 * validator is never handed to another.
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
};

struct dcache	*val_dcache(const char *);
int		 val_ref(void);
size_t		 val_run_done(struct val *, size_t, uint64_t, uint64_t);
size_t		 val_take_run(struct val *, const unsigned char *, size_t, int,
		    uint64_t *, uint64_t *);
void		 val_late_report(struct val *, uint64_t, uint64_t, uint64_t);
void		 val_put(struct val *, uint32_t, uint64_t);
void		 val_illegal(struct val *, const unsigned char *, size_t, int);
size_t		 val_feed_sb(struct val *, const unsigned char *, size_t, int);
size_t		 val_feed_iconv(struct val *, const unsigned char *, size_t, int);
size_t		 val_feed_bulk(struct val *, const unsigned char *, size_t, int);

#endif

/*
 * The validator's own state (validate.c): the checks it makes of what the
 * decoding layer (decode.h) hands it.  Internal to validate.c.
 */
#ifndef VAL_H
#define VAL_H

#include "decode.h"
#include "engine.h"

struct val {
	struct dec	 d;		/* the decoder, and where it is */
	struct dcaches	*own;		/* its cache, when the caller has none */
	int		 xml11;
	struct diags	*dg;
	const char	*encname;
	/* suspicious-label hints for single-byte encodings (the raw UTF-8
	 * ones are followed by the decoder: u8bad and its siblings) */
	int		 iso8859;
	int		 ws_lead;	/* only white space so far: see sniff */
	struct late	 late;
	struct late	 blk_late;	/* the lexer after a block (check_blk) */
	uint64_t	 c1;		/* C1 controls under ISO-8859-n */
	uint32_t	 c1char;
	uint64_t	 c1off, c1line, c1col;
	/* The marks of the piece fed (UTF-8, kernels.h): the "<?" the late
	 * lexer looks for and the mojibake scan's candidates, found in one
	 * pass; mkbuf, their arrays, mkcap marks each, is kept from piece
	 * to piece and grows with them (val_mark).  UTF-16, UTF-32 and the
	 * ASCII-based single-byte encodings (mkw, the size of their units):
	 * only those the thread reading ahead found (marksw), with the bytes
	 * kept in front of its piece; else the lexer and the scan search
	 * alone. */
	int		 mkon;
	int		 mkw;
	struct marks	 mk;
	uint32_t	*mkbuf;
	size_t		 mkcap;
};

/* The room for each kind of mark in a piece: past it, the kernels.  A
 * piece of IN_SIZE bytes with a comment or a PI every 35 bytes has 9,400
 * "<!" and "<?": with room for 8,192 the last tenth of it was searched
 * again here, by the kernels a construct at a time (bench/run's dense-lf
 * 94.8 ms, against 83.1 with this room). */
#define VAL_MARKS	16384

#endif

/*
 * Excerpts (excerpt.c): under a text diagnostic, the line it is on,
 * decoded, a caret under its column and the bytes at its offset in hex
 * (xmlsniff(1), Excerpts).
 */
#ifndef EXCERPT_H
#define EXCERPT_H

#include <stdint.h>
#include <stdio.h>

#include "core.h"

/* Bytes kept before and after the offset of a diagnostic. */
#define EXC_BEFORE	384
#define EXC_AFTER	384

/* Bytes of an input from offset start, copied while they were in the
 * read buffer. */
struct excerpt_win {
	uint64_t	 start;
	size_t		 len;		/* 0: none */
	int		 eof;		/* the input ends at start + len */
	unsigned char	 buf[EXC_BEFORE + EXC_AFTER];
};

/*
 * Where the bytes around an offset come from: a regular file is read
 * again with pread(2) when the excerpt is printed; of a pipe, a window
 * is kept when a code first occurs (excerpt_capture), one per code, so
 * memory stays bounded.
 */
struct excerpt_item;
struct excerpt_src {
	int		 on;		/* --excerpt: print excerpts */
	int		 fd;		/* pread(2) from it, or -1 */
	long long	 size;		/* the regular file's size */
	const struct diags *dg;
	uint64_t	 seen;		/* dg->nseq at the last capture */
	enum form	 form;
	char		 iconv[64];	/* FORM_ICONV: the name */
	int		 unit;		/* bytes a code unit: 1, 2 or 4 */
	size_t		 bomlen;
	int		 xml11;
	struct excerpt_win win[D_NCODES];
	/* excerpt_print's: the window and its characters */
	struct excerpt_win scratch;
	struct excerpt_item *items;	/* EXC_BEFORE + EXC_AFTER + 1 */
};

void		 excerpt_begin(struct excerpt_src *, int,
		    const struct sniff *, int, long long);
void		 excerpt_capture(struct excerpt_src *, const unsigned char *,
		    size_t, uint64_t, int);
int		 excerpt_print(FILE *, struct excerpt_src *, uint64_t,
		    uint64_t, uint64_t, int);
void		 excerpt_free(struct excerpt_src *);

/* The SGR sequences of --color (ECMA-48 section 8.3.117). */
#define EXC_SGR_ERROR	"\033[1;31m"
#define EXC_SGR_WARNING	"\033[1;35m"
#define EXC_SGR_CODE	"\033[1m"
#define EXC_SGR_CARET	"\033[1;32m"
#define EXC_SGR_BAD	"\033[1;31m"
#define EXC_SGR_OFF	"\033[0m"

#endif

/*
 * Naming the encoding an entity is really in, when the bytes refute the
 * encoding it is read with (guess.c; the command line calls it, the
 * reports print what it found).
 */
#ifndef GUESS_H
#define GUESS_H

#include <stddef.h>
#include <stdint.h>

/* Bytes past ASCII below which no guess is made: too few to tell one
 * encoding from another (with four, the models name none wrongly on the
 * corpora of bench/guess-corpus; with three, a few). */
#define GUESS_MIN	4
/* Nor below this many different non-ASCII byte values: one byte over
 * and over is no text. */
#define GUESS_DISTINCT	2

/* What was guessed for one entity. */
struct guess {
	int		 tried;		/* the entity has the problem */
	int		 found;		/* encoding, sample and note mean
					 * something */
	int		 mostly_utf8;	/* UTF-8 with a few stray bytes */
	int		 partial;	/* from a part of the input only */
	int		 http;		/* a --http body: no command to give */
	char		 encoding[64];
	char		 sample[160];	/* decoded text, UTF-8 */
	char		 note[1024];	/* the text report's line: room for its
					   longest form, with a name of 511 bytes */
};

/* Of an input that is not a regular file: the block in which the
 * problem was first seen (guess_keep). */
struct gkeep {
	unsigned char	*p;
	size_t		 n;
	int		 whole;		/* the block is the whole input */
};

struct sniff;
struct inbuf;
struct diags;

int		 guess_wanted(const struct sniff *);
const char	*guess_utf16_layout(const unsigned char *, size_t);
void		 guess_reset(struct gkeep *);
void		 guess_keep(struct gkeep *, const struct inbuf *, uint64_t,
		    const struct diags *);
void		 guess_keep_free(struct gkeep *);
const struct guess *guess_input(struct gkeep *, const char *,
		    struct inbuf *, long long, int, const struct sniff *,
		    struct guess *);
void		 guess_bytes(const unsigned char *, size_t,
		    const struct sniff *, const char *, struct guess *);
const char	*guess_method(void);

#endif

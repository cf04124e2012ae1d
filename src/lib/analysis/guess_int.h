/*
 * The parts of the encoding guess, between its files and for the unit
 * driver; not an interface.  guess.c chooses and reports; guess_cand.c
 * has the candidates and reads bytes with them; guess_char.c the classes
 * of characters; guess_model.c scores a reading with the language models
 * (guess_lm.h); guess_ud.c asks libuchardet.
 */
#ifndef GUESS_INT_H
#define GUESS_INT_H

#include <stddef.h>
#include <stdint.h>

/* Scripts: what a letter is written in.  GS_CJK holds ideographs, kana
 * and the full-width forms that Chinese and Japanese text mixes. */
enum gscript {
	GS_NONE, GS_LATIN, GS_GREEK, GS_CYRILLIC, GS_HEBREW, GS_ARABIC,
	GS_THAI, GS_CJK, GS_HANGUL, GS_N
};

/* A character as the models see it (guess_char.c). */
struct gch {
	uint32_t	 fold;		/* lower case, where it has case */
	unsigned char	 script;	/* enum gscript */
	unsigned char	 letter;	/* GL_ below */
};
#define GL_NONE		0	/* no letter: punctuation, symbol, digit */
#define GL_LOWER	1
#define GL_UPPER	2
#define GL_CASELESS	3	/* a letter without case, or a mark */

/* The class of a neighbour: an ASCII letter, another letter, else. */
#define GN_ASCII	0
#define GN_LETTER	1
#define GN_OTHER	2
/* What precedes a character, for its context and its case. */
enum gprev {
	GP_ALOWER, GP_AUPPER, GP_LOWER, GP_UPPER, GP_CASELESS, GP_OTHER, GP_N
};

void		 gch_info(uint32_t, struct gch *);
enum gprev	 gch_prev(uint32_t);
int		 gch_next(uint32_t);
uint64_t	 gch_digest(void);

/* A language model (guess_lm.h, made by tools/gen-guessmodel.py): how
 * often each character past ASCII is found, folded, in log probability
 * (hundredths of a nat), and in what company. */
struct lm_tok {
	uint32_t	 c;
	int16_t		 lp;
	uint16_t	 ctx;		/* index in ctx[] */
};
struct lm_ctx {
	int16_t		 prev[3];	/* log P(the class before | this) */
	int16_t		 next[3];	/* log P(the class after | this) */
};
/* A script's characters in all languages pooled: what an unlisted
 * character of a model is worth (its share of the unlisted mass). */
struct lm_pool {
	uint16_t	 ntok;
	const struct lm_tok *tok;	/* by code point */
	int16_t		 other;		/* log share of one not listed */
};
struct lm {
	const char	*lang;
	unsigned char	 script;
	unsigned char	 cjk;		/* of a multi-byte encoding's texts */
	uint16_t	 ntok;
	const struct lm_tok *tok;	/* by code point */
	const struct lm_ctx *ctx;
	int16_t		 unk[GS_N];	/* log share of the characters not
					 * listed, by script (GS_NONE:
					 * symbols), spread as the pool */
	int16_t		 up[3];		/* log P(upper case | after a lower-
					 * case letter, upper-case, other) */
	int16_t		 lo[3];
	uint16_t	 letter_ctx;	/* the context of an unlisted letter */
	uint16_t	 sym_ctx;	/* and symbol */
	int16_t		 wl[26];	/* log odds of each ASCII letter, a to
					 * z, in a word with a letter past
					 * ASCII, against all languages' */
};

/*
 * What a reading of the bytes holds, for the models: each different
 * character past ASCII, how often, after what (enum gprev) and before
 * what (GN_*).  Made from the bytes at once for a single-byte candidate,
 * from its decoded characters for another.
 */
struct grec {
	uint32_t	 c;
	uint32_t	 n;
	uint32_t	 prev[GP_N];
	uint32_t	 next[3];
};
struct gtext {
	struct grec	*rec;
	size_t		 nrec, cap;
	uint32_t	*slot;		/* hash of c to 1 + index in rec */
	size_t		 nslot;
	uint64_t	 nchars;	/* characters past ASCII */
	uint64_t	 glued;		/* ideographs, kana, hangul between two
					 * ASCII letters */
	uint64_t	 ascii_eaten;	/* ASCII bytes read as part of others */
	uint32_t	 wl[26];	/* the ASCII letters, a to z, of the
					 * words that hold a byte past ASCII
					 * (struct gbytes's, kept by
					 * gtext_clear) */
};

/* The score of a reading (guess_model.c): the best language's. */
struct gscore {
	int64_t		 score;		/* hundredths of a nat */
	int		 lm;		/* index in the models, or -1 */
	unsigned char	 script;	/* of that model */
};

int		 gtext_init(struct gtext *, size_t);
void		 gtext_free(struct gtext *);
void		 gtext_clear(struct gtext *);
int		 gtext_addn(struct gtext *, uint32_t, uint32_t, int, int);
void		 gmodel_score(const struct gtext *, int, struct gscore *);
size_t		 gmodel_count(void);
const struct lm	*gmodel_at(size_t);
uint64_t	 gmodel_digest(void);

/* The pairs of neighbouring bytes of a sample, for the single-byte
 * readings (guess_read.c). */
struct gpair {
	uint16_t	 a, b;		/* a byte past ASCII or a control, or a
					 * class of ASCII */
	uint32_t	 n;
};
struct gbytes {
	struct gpair	*pairs;
	size_t		 npairs;
	unsigned char	 present[256];
	uint32_t	 wl[26];	/* as struct gtext's */
};

unsigned char	*glines_once(const unsigned char *, size_t, size_t *);
int		 gbytes_init(struct gbytes *, const unsigned char *, size_t);
void		 gbytes_free(struct gbytes *);
int		 gread_table(const struct gbytes *, const uint32_t *,
		    const unsigned char *, size_t, struct gtext *, uint64_t *);
int		 gread_iconv(const char *, const unsigned char *, size_t,
		    struct gtext *, uint64_t *, uint64_t *);

/* The candidates (guess_cand.c). */
enum gkind {
	GK_TABLE,		/* a byte a character: read by a table */
	GK_ICONV,		/* anything else, read by iconv */
	GK_WIDE			/* UTF-16 or UTF-32 without a BOM */
};
struct gcand {
	const char	*name;		/* as reported (IANA's, where it has
					 * one) */
	const char	*iconv;		/* as iconv knows it */
	unsigned char	 kind;		/* enum gkind */
	unsigned char	 family;	/* encodings of one script and region:
					 * the label's wins a tie */
	const char	*sub;		/* the subset a superset extends */
	unsigned char	 pref;		/* named before its equals */
};
/* A single-byte candidate's table: the character of each byte, or
 * GB_BAD where it has none or none that XML text is made of. */
#define GB_BAD	0xFFFFFFFFu

size_t		 gcand_count(void);
const struct gcand *gcand_at(size_t);
const uint32_t	*gcand_table(size_t);
int		 gcand_find(const char *);
int		 gcand_of_name(const char *);

/* Choosing and saying (guess_choose.c, guess_note.c). */
struct sniff;
struct guess;

int		 guess_choose(const unsigned char *, size_t,
		    const struct sniff *, int *);
void		 guess_note(const unsigned char *, size_t, const struct sniff *,
		    const char *, int, int, struct guess *);
int		 guess_mostly_utf8(const unsigned char *, size_t, uint64_t,
		    const struct sniff *, struct guess *);

/* libuchardet (guess_ud.c): its answer for the bytes, "" for none. */
const char	*gud_detect(const unsigned char *, size_t, char *, size_t);
int		 gud_loaded(void);

#endif

/*
 * The mojibake warning (mojibake.c): text of a Unicode form that holds
 * UTF-8 read as windows-1252 or ISO-8859-1 and encoded again, or C1
 * controls.  It scans the raw bytes the validator has taken, block by
 * block, beside it.
 */
#ifndef MOJIBAKE_H
#define MOJIBAKE_H

#include "core.h"

/* One sequence found: where it starts and what it says. */
struct moj_hit {
	uint64_t	 off, line, col;
	uint32_t	 cp[4];		/* the characters as read */
	int		 n;
	uint32_t	 meant;		/* what they decode to; 0 for a C1 */
};

struct pre;
struct moj {
	enum form	 form;		/* FORM_NONE: nothing to scan */
	struct pre	*pre;		/* a search ahead (prescan.c), or NULL */
	int		 fd;		/* a file to read again for the position
					 * of a hit, or -1: count lines as the
					 * bytes go by */
	uint64_t	 base;		/* the file offset of the entity's first
					 * byte */
	const unsigned char *mem;	/* or the whole entity in memory, to
					 * read again the same way (NULL) */
	uint64_t	 memlen;
	size_t		 bomlen;
	int		 xml11;
	uint64_t	 skip;		/* BOM bytes still to pass over */
	uint64_t	 off;		/* offset of the next byte */
	struct linepos	 pos;		/* of the next character, until a hit */
	unsigned char	 part[4];	/* a character split over two blocks */
	unsigned	 npart;
	uint32_t	 prevc;		/* the character before the next one */
	/* The sequence being matched: a lead and its trail characters. */
	struct moj_hit	 cur;
	uint64_t	 toff[4], tline[4], tcol[4];	/* of each */
	uint32_t	 before;	/* the character before the lead */
	int		 need;		/* trail characters still wanted */
	uint64_t	 strong, weak;	/* sequences found, by kind */
	struct moj_hit	 first_strong, first_weak;
	struct marks	*mk;		/* the validator's marks, or NULL */
};

/* Bytes 80 to 9F of windows-1252 (mojibake.c). */
extern const uint16_t moj_cp1252[32];

void	 moj_init(struct moj *, const struct sniff *, int, uint64_t);
void	 moj_marks(struct moj *, struct marks *);
void	 moj_memory(struct moj *, const unsigned char *, size_t);
void	 moj_feed(struct moj *, const unsigned char *, size_t);
void	 moj_end(struct moj *, struct diags *);

#endif

/*
 * The differential check: xmlsniff's core against libxml2 and expat on
 * the same bytes.  Shared by the fuzz target (fuzz/diff_fuzz.c) and the
 * driver the test suite runs (tests/diffcheck.c).
 */
#ifndef DIFF_H
#define DIFF_H

#include <stddef.h>
#include <stdio.h>

/* The parsers compared with xmlsniff. */
enum diff_parser {
	DP_LIBXML2,
	DP_EXPAT,
	DP_N
};

/* What differed (the letters of the divergences table). */
enum diff_what {
	DW_ENCODING = 'a',	/* the characters decoded from the same bytes */
	DW_DECODES = 'b',	/* whether the entity decodes without error */
	DW_OFFSET = 'c',	/* the offset of the first bad byte */
	DW_SUPPORT = 'u'	/* one side decodes what the other refuses */
};

struct diff_counts {
	unsigned long	 inputs;
	unsigned long	 agree;		/* no divergence at all */
	unsigned long	 known;		/* divergences found in the table */
	unsigned long	 unlisted;	/* divergences not in the table */
	unsigned long	 texts;		/* decoded texts compared (a) */
	unsigned long	 offsets;	/* error offsets compared (c) */
};

int	 diff_table_load(const char *, char *, size_t);
size_t	 diff_table_unused(FILE *);
int	 diff_check(const unsigned char *, size_t, const char *,
	    const char *, FILE *, int, struct diff_counts *);

/* Generated inputs: a prolog and a root element around text bytes. */
size_t	 diff_nforms(void);
size_t	 diff_nlabels(void);
#define DIFF_NBOMS	5	/* none, the form's own, UTF-8, UTF-16BE, -LE */
#define DIFF_NDECLS	3	/* none, version only, version and encoding */

struct diff_gen {
	size_t		 form;		/* < diff_nforms() */
	int		 bom;		/* < DIFF_NBOMS */
	int		 decl;		/* < DIFF_NDECLS */
	size_t		 label;		/* the declared name, < diff_nlabels() */
	size_t		 charset;	/* 0 none, else label charset - 1 */
	const unsigned char *text;	/* raw bytes in the form */
	size_t		 textlen;
};

const char *diff_form_name(size_t);
const char *diff_label(size_t);
size_t	 diff_build(const struct diff_gen *, unsigned char *, size_t,
	    const char **);

#endif

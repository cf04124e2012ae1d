/*
 * Inside the differential check: xmlsniff's verdict on an input
 * (fuzz/diff.c makes it), which the conditions of the divergences table
 * read, and the lookup of a divergence in that table (fuzz/diff_table.c).
 */
#ifndef DIFF_INT_H
#define DIFF_INT_H

#include "diff.h"

/* xmlsniff's verdict. */
struct xv {
	int		 bad;		/* illegal-sequence or illegal-char */
	long long	 off;		/* the first of them */
	int		 label;		/* a labelling error */
	int		 unsup;		/* cannot be decoded */
	int		 errors;	/* any error-level diagnostic */
	unsigned long	 codes;		/* error codes present, 1 << code */
	char		 enc[256];	/* the reported encoding name */
	/* What the input is, as the table's conditions name it
	 * (cond_holds(), diff_table.c). */
	int		 bom, decl, charset, u16shape, lead, truncated;
};

/* The parsers by the names the table gives them. */
extern const char *const diff_pnames[DP_N];

int	 diff_table_lists(enum diff_parser, int, const struct xv *);

#endif

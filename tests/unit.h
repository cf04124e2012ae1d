/*
 * The unit driver's one framework, shared by tests/unit.c, the tests by
 * subject (tests/unit_*.c, tests/api.c) and the kernel equivalence sweeps
 * (tests/kern_*.c): CHECK() counts, prints each failure as
 * "unit: FILE:LINE: failed: EXPR"; main() in tests/unit.c calls each
 * file's entry below and ends with "N passed, M failed".
 */
#ifndef UNIT_H
#define UNIT_H

int		 check(int, const char *, int, const char *);

#define CHECK(e)	check((e) ? 1 : 0, __FILE__, __LINE__, #e)
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
/* A byte string literal and its length (it may hold NUL bytes). */
#define B(s)		(const unsigned char *)(s), sizeof(s) - 1

/*
 * The kernel levels the sweeps compare, by the names simd_init() takes,
 * the reference first: those this machine runs, and none (tests/unit.c).
 */
extern const char	*unit_levels[];
extern int		 unit_nlevels;

/* The sweeps that compare every kernel level with the reference, each in
 * its own file (tests/kern_*.c). */
void		 kern_fastpath(void);
void		 kern_dense(void);
void		 kern_mapped(void);
void		 kern_ahead(void);

/* The library's interface, as a caller has it (tests/api.c). */
void		 unit_api(void);
void		 unit_api_keep(void);

/* The names of suggest.c, the not-xml rule and repo.c's path names
 * (tests/unit_names.c). */
void		 unit_suggest(void);
void		 unit_not_xml(void);
void		 unit_repo_norm(void);

/* The tests by subject, each file's in the order main() calls them. */
void		 unit_sniff(void);	/* tests/unit_sniff.c: BOM, patterns */
void		 unit_decl(void);	/* tests/unit_decl.c: the declaration */
void		 unit_enc(void);	/* tests/unit_enc.c: names, media types */
void		 unit_diag(void);	/* tests/unit_diag.c: diagnostics */
void		 unit_utf(void);	/* tests/unit_utf.c: the text layer */
void		 unit_stream(void);	/* tests/unit_stream.c: fed in pieces */
void		 unit_conv(void);	/* tests/unit_conv.c: conv, plain */
void		 unit_xlex(void);	/* tests/unit_xlex.c: --fallback=ncr */

/* The encoding guess (tests/unit_guess.c). */
void		 unit_guess(void);

#endif

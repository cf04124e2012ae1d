/*
 * The unit driver's one framework, shared by tests/unit.c and the kernel
 * equivalence sweeps (tests/kern_*.c): CHECK() counts, prints each
 * failure as "unit: FILE:LINE: failed: EXPR"; main() in tests/unit.c ends
 * with "N passed, M failed".
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

/* The names of suggest.c and the not-xml rule (tests/unit_names.c). */
void		 unit_suggest(void);
void		 unit_not_xml(void);

/* The encoding guess (tests/unit_guess.c). */
void		 unit_guess(void);

#endif

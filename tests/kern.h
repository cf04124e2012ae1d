/*
 * The engine driven in process, for the kernel equivalence sweeps
 * (tests/kern_engine.c): an input through the validator and the mojibake
 * scan as src/cli/main.c feed_input() wires them, its diagnostics written out
 * as text (every first occurrence and the --all list), and the same input
 * compared at every kernel level and feed with the reference's answer.
 */
#ifndef KERN_H
#define KERN_H

#include <stddef.h>
#include <stdint.h>

#include "kern_fast.h"	/* struct buf: an input built in C */

struct diags;
struct mt;

uint32_t	 kern_rand(uint32_t *);

/*
 * How the bytes reach the validator: the head is sniffed as main.c sniffs
 * the first read; then first bytes, and step more each time after that;
 * pipe: the end is seen only by one more read (the last call has no new
 * bytes), as from a pipe; else with the last bytes, as from a file whose
 * size is trusted.
 */
struct kfeed {
	const char	*name;
	size_t		 first, step;
	int		 pipe;
};

extern const struct kfeed kern_feeds[];
extern const int	 kern_nfeeds;

/* The policy the sweeps analyse under, as main.c's inputs do (its cap
 * of --all set by unit_keep()); the engines here point their
 * diagnostics at it. */
struct dpolicy;
extern struct dpolicy unit_pol;
void		 unit_keep(size_t, int);

char		*kern_dump(const struct diags *);
char		*kern_run(const unsigned char *, size_t, const struct mt *,
		    const struct kfeed *, size_t, struct diags *);
int		 kern_same(const char *, const char *, const char *,
		    const char *);
void		 kern_sweep(const char *, const unsigned char *, size_t,
		    const struct mt *);
#define KANY	UINT64_MAX	/* kern_first(): any count */
int		 kern_first(const struct diags *, const char *, uint64_t,
		    uint64_t, uint64_t, uint64_t);
void		 kern_default(const struct buf *, struct diags *);
/* kern_mapped.c: the file the input-layer tests read; marks against
 * one pass over their bytes */
extern char	 kern_path[64];
int		 kern_put_file(const struct buf *);
int		 kern_marks_same(const struct marks *);
int		 kern_kind_def(const unsigned char *, size_t, size_t);
int		 kern_kind_defw(const unsigned char *, size_t, size_t, int);
int		 kern_hard_same(const struct marks *, const struct marks *);

/* The sweeps of dense.bats in single-byte encodings and in UTF-16 and
 * UTF-32 (tests/kern_wide.c), and of the level loops of spec.bats and
 * spec2.bats (tests/kern_spec.c). */
void		 kern_dense_sb(void);
void		 kern_dense_wide(void);
void		 kern_spec(void);

#endif

/*
 * The target of --transcode-to: its form, BOM and declaration (target.c;
 * target_resolve is in xmlsniff.h).
 */
#ifndef TARGET_H
#define TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* What target_decl may add to a declaration: a name, " encoding=" and
 * quotes, or a whole declaration. */
#define TARGET_DECL_SLACK	(sizeof(((struct xopts *)0)->declname) + 32)

size_t		 target_put(enum form, uint32_t, unsigned char *);
int		 target_decl_ok(const struct sniff *);
size_t		 target_decl(const struct xopts *, const struct decl *,
		    size_t, const uint32_t *, size_t, uint32_t *);

#endif

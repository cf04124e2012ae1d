/*
 * Writing a target that only iconv knows (iconvout.c), for the
 * transcoder.
 */
#ifndef ICONVOUT_H
#define ICONVOUT_H

#include "xc.h"

void		 iout_char(struct xc *, uint32_t, int, uint64_t, uint64_t,
		    uint64_t);
void		 iout_drain(struct xc *);
size_t		 iout_run(struct xc *, const unsigned char *, size_t, int);
void		 iout_end(struct xc *);

#endif

/*
 * What the unit driver and the fuzz targets set or call to compare the
 * fast paths with their references; not part of any interface.
 */
#ifndef TESTHOOKS_H
#define TESTHOOKS_H

#include <stddef.h>
#include <stdint.h>

/* Every path of the validator a character at a time (validate.c; set
 * by simd_init() for XMLSNIFF_SIMD=ref). */
extern int	 val_char_only;

/* The reference kernels (src/simd/ref.c). */
size_t		 plain_utf8_ref(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16_ref(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);

#endif

/*
 * What the unit driver and the fuzz targets set or call to compare the
 * fast paths with their references; not part of any interface.
 */
#ifndef TESTHOOKS_H
#define TESTHOOKS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Every path of the validator a character at a time (validate.c; set
 * by simd_init() for XMLSNIFF_SIMD=ref). */
extern atomic_int val_char_only;

/*
 * -j (jobs.c), from the environment: XMLSNIFF_TEST_JOBS=FILE, each
 * worker process appends its process ID and a newline to FILE as it
 * starts; XMLSNIFF_TEST_JOBS_KILL=NAME, the worker handed the input NAME
 * kills itself with SIGKILL before it opens it.
 */

/* The reference kernels (src/lib/simd/ref.c). */
size_t		 plain_utf8_ref(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16_ref(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);

#endif

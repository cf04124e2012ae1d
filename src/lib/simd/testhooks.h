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
 *
 * XMLSNIFF_TEST_UCHARDET=no: the encoding guess (guess_ud.c) does as if
 * libuchardet did not load, so that the built-in models are tested alone
 * in a build that has it.
 *
 * XMLSNIFF_TEST_CODING=no: --http (coding.c) does as if neither zlib nor
 * libbrotli loaded, so that what a coded body draws then is tested in a
 * build that has them.
 */

/* The look-ahead thread's search (prescan.c) taken in part for every
 * piece: the first thread waits until the thread has searched half of
 * it (or cannot go on, a ring of its marks full), takes the marks so far
 * and searches the rest itself (pre_take), as it does wherever the
 * thread has been only so far. */
extern atomic_int pre_test_split;

/* The least a file must have left to be read ahead by a second thread
 * (input.c), when not 0: the unit driver reads small files ahead, and
 * at 1 every piece of every size. */
extern atomic_llong ahead_test_min;

/* When m, not 0, the second thread that reads ahead (ahead.c) reads only
 * every (m + 1)th piece (m, 2m + 1...) and the first thread only the
 * others, waiting for those: the slot of each piece the second thread
 * fills is filled next by the first, with nothing of the second's
 * between, whatever their speeds (the unit driver, under ThreadSanitizer
 * too; kern_ahead.c's trials take 4, kern_mapped.c's 2). */
extern atomic_int ahead_test_alternate;

/* When not 0, the second thread that reads ahead holds each piece it
 * claims unread until the first thread waits for it and has read a piece
 * after it meanwhile (ahead.c's ah_help), or for a second at most: the
 * path of a first thread that reads while it waits, taken whatever the
 * two threads' speeds (kern_ahead.c). */
extern atomic_int ahead_test_hold;

/* The late lexer's leaps (leap.c): [0] those taken, [1] those tried and
 * not taken because the states did not meet, counted for the unit driver
 * to see that its texts take both ways. */
extern atomic_long late_leap_count[2];

/* The reference kernels (src/lib/simd/ref.c). */
size_t		 plain_utf8_ref(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16_ref(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);

#endif

/*
 * Level ref: a character at a time, the definition every other kernel is
 * held to.  The validation of UTF-8 has a reference of its own, and the
 * mojibake scan passes over nothing (its every character then takes the
 * scan's own character path, mojibake.c's step(), which decides what a
 * candidate is); the other kernels of this level are the portable ones of
 * word.c, which are already a unit at a time.  The level's runs of UTF-8 and UTF-16 end at
 * a CR, though: every CR then takes the character path, as it did before
 * the runs held CR, and the callers' handling of a CR in a run (the
 * character before the next run, decode.c) is held to that.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "testhooks.h"
#include "simd.h"

/* Add the line ends and columns of the plain bytes p[0..n) (whole
 * characters; the one before p[0] is no CR) to the counters: a CR is a
 * line end, and so is an LF but right after a CR (XML 1.0 section 2.11). */
static void
count_plain(const unsigned char *p, size_t n, uint64_t *lines, uint64_t *col)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\r' || (p[i] == '\n' && (i == 0 ||
		    p[i - 1] != '\r'))) {
			(*lines)++;
			*col = 1;
		} else if (p[i] != '\n' && (p[i] & 0xC0) != 0x80)
			(*col)++;
	}
}

/* The character-at-a-time definition of the plain UTF-8 prefix. */
size_t
plain_utf8_ref(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	size_t i = 0;

	while (i < n) {
		uint32_t c = 0;	/* set where the decoder reads one */
		int r = utf8_dec(p + i, n - i, &c);

		if (r <= 0 || !xml_char_ok(c, 0))
			break;
		i += (size_t)r;
	}
	count_plain(p, i, lines, col);
	return i;
}

/* The unit-at-a-time definition, for tests. */
size_t
plain_utf16_ref(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	return plain_utf16_word(p, n, be, lines, col);
}

/*
 * The level's runs: up to the first CR.  The CR is looked for only in
 * the run the definition takes (a run that stops early would otherwise
 * cost a search to the next CR each time: text with many stops and few
 * CRs took quadratic time).
 */
static size_t
plain_utf8_nocr(const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	uint64_t l = *lines, c = *col;
	size_t k = plain_utf8_ref(p, n, &l, &c);
	const unsigned char *cr = memchr(p, '\r', k);

	if (cr == NULL) {
		*lines = l;
		*col = c;
		return k;
	}
	return plain_utf8_ref(p, (size_t)(cr - p), lines, col);
}

static size_t
plain_utf16_nocr(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	uint64_t l = *lines, c = *col;
	size_t k = plain_utf16_word(p, n, be, &l, &c), m;

	for (m = 0; m + 2 <= k; m += 2)
		if ((be ? load_be16(p + m) : load_le16(p + m)) == '\r')
			break;
	if (m + 2 > k) {
		*lines = l;
		*col = c;
		return k;
	}
	return plain_utf16_word(p, m, be, lines, col);
}

/* The mojibake scan's passes: nothing passed over, no line end counted. */
static size_t
moj_skip_ref(const unsigned char *p, size_t n, struct mojskip *k)
{
	(void)p;
	(void)n;
	(void)k;
	return 0;
}

/* The passes over UTF-16 and UTF-32 (moj_skipw, moj_skip32) alike. */
static size_t
moj_skipw_ref(const unsigned char *p, size_t n, int be)
{
	(void)p;
	(void)n;
	(void)be;
	return 0;
}

const struct kernels kernels_ref = {
	.name = "ref",
	.char_only = 1,
	.usable = simd_everywhere,
	.plain_utf8 = plain_utf8_nocr,
	.plain_utf16 = plain_utf16_nocr,
	.plain_utf32 = plain_utf32_word,
	.plain_sb = plain_sb_word,
	.conv = conv_word,
	.find32 = find32_word,
	.late_find = late_find_word,
	.moj_skip = moj_skip_ref,
	.moj_skipw = moj_skipw_ref,
	.moj_skip32 = moj_skipw_ref,
};

/*
 * Which encoding an entity is really in, when the encoding it is read
 * with gives illegal sequences or its label is suspicious (issue 26): the
 * input is read again (a regular file) or kept (a pipe), and its bytes go
 * to guess_choose(), which scores what each candidate encoding reads them
 * as (guess_choose.c and the files it names); UTF-16 and UTF-32 without a
 * BOM are told apart here, by their byte order.  guess_note.c says what
 * was found.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine.h"
#include "guess.h"
#include "guess_int.h"

/* A pipe: the block in which the problem was first seen is kept. */
static unsigned char *kept;
static size_t nkept;
static int kept_whole;		/* the block is the whole input */

/* A regular file longer than this is guessed from its start: enough for
 * any text's encoding to show, and what an error-dense file of hundreds
 * of megabytes pays for its guess stays a few tens of milliseconds, its
 * mapped pages a few MiB. */
#define GUESS_FILE_MAX	((size_t)16 * 1024 * 1024)
/* The candidates are ranked on this much of a longer entity, from the line
 * of its first non-ASCII byte; the one chosen must then decode the whole.
 * A quarter of a megabyte of text is plenty to rank them on. */
#define GUESS_SAMPLE	((size_t)256 * 1024)
/* Eight bytes at a time: ones in each, the high bits, the low bits. */
#define CB_ONES	0x0101010101010101ULL
#define CB_HI	0x8080808080808080ULL
#define CB_LO	0x7F7F7F7F7F7F7F7FULL
/* UTF-16 or UTF-32 in one byte order must read this many times as many
 * ASCII characters (the markup of XML) as in any other, plus a few. */
#define WIDE_RATIO	2
#define WIDE_LEAD	4
/* And at least this many. */
#define WIDE_MIN	8

/*
 * The bytes of p[0..n) at 80 and above into *high, the zero bytes into
 * *zeros: eight at a time, each byte's flag moved to its low bit and the
 * eight summed by a multiplication (no byte carries into the next).
 */
static void
count_bytes(const unsigned char *p, size_t n, uint64_t *high, size_t *zeros)
{
	uint64_t h = 0, z = 0;
	size_t i = 0;

	for (; n - i >= 8; i += 8) {
		uint64_t w, nz;

		memcpy(&w, p + i, 8);
		/* bit 7 of a byte of nz: the byte is not zero */
		nz = (((w & CB_LO) + CB_LO) | w) & CB_HI;
		h += (((w & CB_HI) >> 7) * CB_ONES) >> 56;
		z += 8 - (((nz >> 7) * CB_ONES) >> 56);
	}
	for (; i < n; i++) {
		h += p[i] >= 0x80;
		z += p[i] == 0;
	}
	*high = h;
	*zeros = (size_t)z;
}

/*
 * guess_choose() for an entity p[0..n) longer than GUESS_SAMPLE, not
 * UTF-16: on up to GUESS_SAMPLE bytes from just after the line feed or
 * '>' before its first non-ASCII byte to just after a line feed or '>'.
 * Every candidate
 * (the ASCII-compatible encodings) writes those two as the bytes 0A and 3E
 * and never as part of another character, so the sample starts and ends
 * on characters.  Ranking every candidate on the whole took seconds for a
 * hundred megabytes; the caller decodes the whole with the one chosen,
 * which must read it cleanly.
 */
static int
choose_sampled(const unsigned char *p, size_t n, const struct sniff *s,
    int *alt)
{
	size_t a = 0, m;

	while (a < n && p[a] < 0x80)
		a++;
	while (a > 0 && p[a - 1] != '\n' && p[a - 1] != '>')
		a--;
	m = n - a < GUESS_SAMPLE ? n - a : GUESS_SAMPLE;
	if (a + m < n)
		while (m > 0 && p[a + m - 1] != '\n' && p[a + m - 1] != '>')
			m--;
	if (m == 0)
		return -1;
	return guess_choose(p + a, m, s, alt);
}

/*
 * Whether p[0..n) decodes cleanly with candidate k, as guess_choose()
 * reads it (XML Chars only, no C1 control).  A single-byte candidate is
 * checked a byte at a time against its table, which reads a big file many
 * times faster than iconv decoding it does.
 */
static int
clean_whole(int k, const unsigned char *p, size_t n)
{
	const struct gcand *c = gcand_at((size_t)k);
	const uint32_t *map;
	struct gtext t;
	uint64_t h, a;
	size_t i;
	int ok;

	if (c->kind != GK_TABLE) {
		if (gtext_init(&t, 256) < 0)
			return 0;
		ok = gread_iconv(c->iconv, p, n, &t, &h, &a) == 0;
		gtext_free(&t);
		return ok;
	}
	map = gcand_table((size_t)k);
	/* Eight bytes a step, their flags or-ed: one test a step. */
	for (i = 0; n - i >= 8; i += 8)
		if ((map[p[i]] == GB_BAD) | (map[p[i + 1]] == GB_BAD) |
		    (map[p[i + 2]] == GB_BAD) | (map[p[i + 3]] == GB_BAD) |
		    (map[p[i + 4]] == GB_BAD) | (map[p[i + 5]] == GB_BAD) |
		    (map[p[i + 6]] == GB_BAD) | (map[p[i + 7]] == GB_BAD))
			return 0;
	for (; i < n; i++)
		if (map[p[i]] == GB_BAD)
			return 0;
	return 1;
}

/*
 * UTF-16 or UTF-32 without a BOM, p[0..n) (it has zero bytes): of the four
 * forms, the one that reads the bytes cleanly with
 * by far the most ASCII characters, which the markup of XML is made of.
 * In the other byte order, ASCII becomes U+XX00 ('<' U+3C00) in UTF-16
 * and no character at all in UTF-32.  -1 where none leads so.
 */
static int
wide_choose(const unsigned char *p, size_t n)
{
	static const char *const forms[] = { "UTF-16LE", "UTF-16BE",
		"UTF-32LE", "UTF-32BE" };
	uint64_t ascii[4], h;
	struct gtext t;
	int best = -1, second = -1, k, i;

	if (gtext_init(&t, 256) < 0)
		return -1;
	for (i = 0; i < 4; i++) {
		ascii[i] = 0;
		if ((k = gcand_find(forms[i])) < 0 ||
		    gread_iconv(forms[i], p, n - n % 4, &t, &h, &ascii[i]) < 0)
			continue;
		if (best < 0 || ascii[i] > ascii[best]) {
			second = best;
			best = i;
		} else if (second < 0 || ascii[i] > ascii[second])
			second = i;
	}
	gtext_free(&t);
	if (best < 0 || ascii[best] < WIDE_MIN || (second >= 0 &&
	    ascii[best] < WIDE_RATIO * ascii[second] + WIDE_LEAD))
		return -1;
	return gcand_find(forms[best]);
}

/* Whether GUESS_DISTINCT different bytes past ASCII are in p[0..n): eight
 * bytes with none from 80 on, or the same as the eight looked at last,
 * add none (0x81 filling a file). */
static int
distinct_enough(const unsigned char *p, size_t n)
{
	unsigned char seen[256];
	uint64_t w, lastw = 0;
	size_t i, nd = 0;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n && nd < GUESS_DISTINCT; i++) {
		if (i % 8 == 0 && n - i >= 8) {
			memcpy(&w, p + i, 8);
			if ((w & CB_HI) == 0 || w == lastw) {
				i += 7;	/* and the loop's step */
				continue;
			}
			lastw = w;
		}
		if (p[i] >= 0x80 && !seen[p[i]]) {
			seen[p[i]] = 1;
			nd++;
		}
	}
	return nd >= GUESS_DISTINCT;
}

/*
 * The bytes of an entity read as s, p[0..n), whole or (g->partial) in
 * part: which encoding they are in, into g; name is the input's name,
 * for the command in the note.
 */
void
guess_bytes(const unsigned char *p, size_t n, const struct sniff *s,
    const char *name, struct guess *g)
{
	uint64_t nonascii = 0;
	size_t zeros = 0, m;
	int pick, alt = -1, sampled, wide;

	g->tried = 1;
	g->found = 0;
	if (s->bomlen <= n) {
		p += s->bomlen;
		n -= s->bomlen;
	}
	count_bytes(p, n, &nonascii, &zeros);
	if (guess_mostly_utf8(p, n, nonascii, s, g))
		return;
	/* A zero byte: no 8-bit encoding reads it as text (U+0000 is no
	 * Char), UTF-16 and UTF-32 may. */
	wide = zeros > 0;
	/* Too few bytes past ASCII to tell one encoding from another, unless
	 * the shifts of ISO-2022 are there. */
	if (!wide && (nonascii < GUESS_MIN || !distinct_enough(p, n)) &&
	    (nonascii > 0 || memchr(p, 0x1B, n) == NULL))
		return;
	sampled = n > GUESS_SAMPLE;
	if (wide) {
		m = sampled ? GUESS_SAMPLE : n;
		pick = wide_choose(p, m);
	} else if (sampled)
		pick = choose_sampled(p, n, s, &alt);
	else
		pick = guess_choose(p, n, s, &alt);
	if (pick < 0)
		return;
	/* The sample's choice must read the rest too. */
	if (sampled && !clean_whole(pick, p, n))
		return;
	guess_note(p, n, s, name, pick, alt, g);
}

/* A 16-bit unit of p, in the byte order le says. */
static uint32_t
unit16(const unsigned char *p, int le)
{
	return le ? load_le16(p) : load_be16(p);
}

/*
 * Whether the head p[0..n) of an entity with no BOM is UTF-16 whose byte
 * order its first characters put beyond question: after any white space,
 * '<' then '?' (Appendix F's 3C 00 3F 00 and 00 3C 00 3F), '!' or the
 * first character of a name (an ASCII letter, '_' or ':'), each a 16-bit
 * unit whose high byte is zero, so that the other order reads them as
 * U+3C00 and the like.  "UTF-16LE", "UTF-16BE", or NULL.
 */
const char *
guess_utf16_layout(const unsigned char *p, size_t n)
{
	uint32_t c, d;
	size_t i;
	int le;

	for (le = 0; le <= 1; le++) {
		for (i = 0; n - i >= 4 && ((c = unit16(p + i, le)) == ' ' ||
		    c == '\t' || c == '\r' || c == '\n'); i += 2)
			continue;
		if (n - i < 4)
			continue;
		c = unit16(p + i, le);
		d = unit16(p + i + 2, le);
		if (c == '<' && (d == '?' || d == '!' || d == '_' ||
		    d == ':' || (d >= 'a' && d <= 'z') ||
		    (d >= 'A' && d <= 'Z')))
			return le ? "UTF-16LE" : "UTF-16BE";
	}
	return NULL;
}

/*
 * Whether the analysis of s calls for a guess: bytes the encoding does
 * not have, a suspicious label, or an ESC where the encoding reads it as
 * a character (U+001B, no Char), which is how ISO-2022-JP, -KR and -CN
 * shift into their double-byte sets (the first illegal-char's message
 * names the character).
 */
static int
wanted(const struct diags *dg)
{
	return dg->d[D_ILLEGAL_SEQUENCE].count > 0 ||
	    dg->d[D_SUSPICIOUS_LABEL].count > 0 ||
	    (dg->d[D_ILLEGAL_CHAR].count > 0 &&
	    strncmp(dg->d[D_ILLEGAL_CHAR].msg, "U+001B ", 7) == 0);
}

int
guess_wanted(const struct sniff *s)
{
	return wanted(&s->dg);
}

/* A new input. */
void
guess_reset(void)
{
	nkept = 0;
	kept_whole = 0;
}

/*
 * After each block of an input that is not a regular file, b holding
 * it: keep it when it is the first where dg has the problem, as the part
 * of the input a guess is made from (the rest has gone by).  skipped: the
 * bytes read before the entity (a --http head).
 */
void
guess_keep(const struct inbuf *b, uint64_t skipped, const struct diags *dg)
{
	unsigned char *nk;

	if (b->size >= 0 || nkept > 0 || !wanted(dg) || b->n == 0)
		return;
	if ((nk = realloc(kept, b->n)) == NULL)
		return;
	kept = nk;
	memcpy(kept, b->p, b->n);
	nkept = b->n;
	kept_whole = b->eof && (uint64_t)b->got == b->n + skipped;
}

/*
 * Whether the want bytes of file fd from start hold too few bytes past
 * ASCII for a guess, and no zero byte (UTF-16 or UTF-32) or ESC (the
 * shifts of ISO-2022): found in blocks, before the whole is read into
 * memory, a word at a time.
 */
static int
too_little(int fd, long long start, size_t want)
{
	uint64_t blk[8192];
	const unsigned char *q = (const unsigned char *)blk;
	size_t off = 0, i, k, high = 0;
	ssize_t r;

	while (off < want && (r = pread(fd, blk, want - off < sizeof(blk) ?
	    want - off : sizeof(blk), (off_t)(start + (long long)off))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (memchr(q, 0, (size_t)r) != NULL ||
		    memchr(q, 0x1B, (size_t)r) != NULL)
			return 0;
		for (i = 0; i < (size_t)r / 8; i++)
			if (blk[i] & CB_HI)
				for (k = 0; k < 8; k++)
					high += q[8 * i + k] >= 0x80;
		for (i = (size_t)r / 8 * 8; i < (size_t)r; i++)
			high += q[i] >= 0x80;
		if (high >= GUESS_MIN)
			return 0;
		off += (size_t)r;
	}
	return 1;
}

/*
 * The guess for the input b, sniffed as s, once analysed: a regular file
 * whose entity starts at byte start is read again whole from there (start
 * -1: it cannot be); of another, the block guess_keep kept.  http: the
 * entity is the body of a --http response.  NULL when nothing is to be
 * guessed.
 */
const struct guess *
guess_input(const char *name, const struct inbuf *b, long long start,
    int http, const struct sniff *s)
{
	static struct guess g;
	const unsigned char *view;
	unsigned char *buf;
	size_t n = 0, want;
	ssize_t r;

	if (!guess_wanted(s))
		return NULL;
	memset(&g, 0, sizeof(g));
	g.tried = 1;
	g.http = http;
	if (b->size < 0 || start < 0 || start > b->size) {
		if (nkept == 0)
			return &g;
		g.partial = !kept_whole;
		guess_bytes(kept, nkept, s, name, &g);
		return &g;
	}
	want = (unsigned long long)(b->size - start) > GUESS_FILE_MAX ?
	    GUESS_FILE_MAX : (size_t)(b->size - start);
	if (too_little(b->fd, start, want))
		return &g;
	g.partial = want < (size_t)(b->size - start);
	/* Mapped where it can be: no copy, no memory of its own. */
	if ((view = in_view(b, start, want)) != NULL) {
		guess_bytes(view, want, s, name, &g);
		if (in_view_end() < 0)
			g.found = 0;	/* it shrank: no guess from zeros */
		return &g;
	}
	if ((buf = malloc(want + 1)) == NULL)
		return &g;
	while (n < want && ((r = pread(b->fd, buf + n, want - n,
	    (off_t)(start + (long long)n))) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			n += (size_t)r;
	guess_bytes(buf, n, s, name, &g);
	free(buf);
	return &g;
}


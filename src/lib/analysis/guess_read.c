/*
 * Reading the bytes with each candidate: whether they read cleanly, as
 * what text (a hash of it, to tell readings apart), and what that text
 * holds for the models (struct gtext).  A single-byte candidate is read
 * from the pairs of neighbouring bytes, counted once for all of them;
 * another is decoded by iconv.  UTF-16 and UTF-32 are read by guess.c.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "guess_int.h"

/* FNV-1a: its start, and one value more. */
#define H0		1469598103934665603ULL
#define FNV_STEP(h, c)	(((h) ^ (c)) * 1099511628211ULL)

/* The keys of the byte pairs: a byte past ASCII or a control keeps its
 * value; printable ASCII and the white space of XML are a lower-case
 * letter, an upper-case one, or anything else. */
#define K_LOWER	256
#define K_UPPER	257
#define K_OTHER	258
#define NKEYS	259

static unsigned
key_of(unsigned char b)
{
	if (b >= 'a' && b <= 'z')
		return K_LOWER;
	if (b >= 'A' && b <= 'Z')
		return K_UPPER;
	if ((b >= 0x20 && b < 0x7F) || b == '\t' || b == '\n' || b == '\r')
		return K_OTHER;
	return b;
}

/*
 * Count into wl the ASCII letters, folded, of the words of p[0..n) that
 * hold a byte past ASCII, a word being a run of ASCII letters and such
 * bytes (which every alphabet's encoding reads as letters, mostly): what
 * the models tell the language by, besides the letters past ASCII.
 */
static void
word_letters(const unsigned char *p, size_t n, uint32_t *wl)
{
	uint32_t w[26];
	size_t i;
	int high = 0, any = 0, k;

	memset(w, 0, sizeof(w));
	for (i = 0; i <= n; i++) {
		unsigned c = i < n ? p[i] : ' ';

		if (c >= 0x80) {
			high = 1;
			continue;
		}
		if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
			w[(c | 0x20) - 'a']++;
			any = 1;
			continue;
		}
		if (high && any)
			for (k = 0; k < 26; k++)
				wl[k] += w[k];
		if (any)
			memset(w, 0, sizeof(w));
		high = any = 0;
	}
}

/* Count the pairs of neighbouring bytes of p[0..n) of which one is past
 * ASCII or a control, which bytes there are, and the letters of the words
 * with a byte past ASCII. */
int
gbytes_init(struct gbytes *gb, const unsigned char *p, size_t n)
{
	uint32_t *cnt;
	unsigned a = K_OTHER, b;
	size_t i, k;

	memset(gb, 0, sizeof(*gb));
	if ((cnt = calloc((size_t)NKEYS * NKEYS, sizeof(*cnt))) == NULL)
		return -1;
	for (i = 0; i <= n; i++) {
		b = i < n ? key_of(p[i]) : K_OTHER;
		if (i < n)
			gb->present[p[i]] = 1;
		if (a < 256 || b < 256)
			cnt[a * NKEYS + b]++;
		a = b;
	}
	word_letters(p, n, gb->wl);
	for (k = 0; k < (size_t)NKEYS * NKEYS; k++)
		gb->npairs += cnt[k] != 0;
	if ((gb->pairs = malloc((gb->npairs + 1) * sizeof(*gb->pairs))) ==
	    NULL) {
		free(cnt);
		return -1;
	}
	gb->npairs = 0;
	for (k = 0; k < (size_t)NKEYS * NKEYS; k++)
		if (cnt[k] != 0) {
			gb->pairs[gb->npairs].a = (uint16_t)(k / NKEYS);
			gb->pairs[gb->npairs].b = (uint16_t)(k % NKEYS);
			gb->pairs[gb->npairs++].n = cnt[k];
		}
	free(cnt);
	return 0;
}

/* A line of the bytes: where, how long, and a hash of it. */
struct gline {
	uint64_t	 h;
	size_t		 off, len;
};

/*
 * p[0..n) with every line (to and with its line feed) that came before
 * left out, into a new buffer, its length into *m; NULL when memory ran
 * out.  The same line again says nothing new of its encoding (a record
 * repeated, a text over and over), yet would weigh as much again as all
 * the rest.  Every candidate reads a line feed as itself and as no part
 * of another character, so the lines kept are read as they were.
 */
unsigned char *
glines_once(const unsigned char *p, size_t n, size_t *m)
{
	struct gline *tab;
	unsigned char *out;
	const unsigned char *nl;
	size_t nlines = 1, size, i, off, len, j;

	for (i = 0; (nl = memchr(p + i, '\n', n - i)) != NULL;
	    i = (size_t)(nl - p) + 1)
		nlines++;
	for (size = 16; size < nlines * 2; size *= 2)
		continue;
	tab = calloc(size, sizeof(*tab));
	out = malloc(n > 0 ? n : 1);
	if (tab == NULL || out == NULL) {
		free(tab);
		free(out);
		return NULL;
	}
	*m = 0;
	for (off = 0; off < n; off += len) {
		uint64_t h = H0;

		nl = memchr(p + off, '\n', n - off);
		len = nl != NULL ? (size_t)(nl - p) + 1 - off : n - off;
		for (i = 0; i < len; i++)
			h = FNV_STEP(h, p[off + i]);
		h |= 1;		/* 0 marks a free slot */
		for (j = (size_t)h & (size - 1); tab[j].h != 0;
		    j = (j + 1) & (size - 1))
			if (tab[j].h == h && tab[j].len == len &&
			    memcmp(p + tab[j].off, p + off, len) == 0)
				break;
		if (tab[j].h != 0)
			continue;
		tab[j].h = h;
		tab[j].off = off;
		tab[j].len = len;
		memcpy(out + *m, p + off, len);
		*m += len;
	}
	free(tab);
	return out;
}

void
gbytes_free(struct gbytes *gb)
{
	free(gb->pairs);
	gb->pairs = NULL;
}

static uint32_t
key_char(unsigned k, const uint32_t *map)
{
	return k == K_LOWER ? 'a' : k == K_UPPER ? 'A' : k == K_OTHER ? ' ' :
	    map[k];
}

/* FNV-1a over the characters of a reading, Romanian s and t with a
 * comma below taken for those with a cedilla: the readings that differ
 * in those alone (ISO-8859-16 and ISO-8859-2) give the same text. */
#define HSTEP(h, c)	FNV_STEP(h, canon(c))

static uint32_t
canon(uint32_t c)
{
	return c >= 0x218 && c <= 0x21B ? (c < 0x21A ? 0x15E : 0x162) +
	    c % 2 : c;
}

/*
 * Read p[0..n), whose pairs gb holds, with the table map: into t, the
 * hash of the text into *hash.  0, or -1 when a byte present has no
 * character in it (or memory ran out).
 */
int
gread_table(const struct gbytes *gb, const uint32_t *map,
    const unsigned char *p, size_t n, struct gtext *t, uint64_t *hash)
{
	uint64_t h = H0;
	size_t i;
	int b;

	for (b = 0; b < 256; b++)
		if (gb->present[b] && map[b] == GB_BAD)
			return -1;
	gtext_clear(t);
	for (i = 0; i < gb->npairs; i++) {
		const struct gpair *q = &gb->pairs[i];
		uint32_t ca = key_char(q->a, map), cb = key_char(q->b, map);

		if (cb >= 0x80 && gtext_addn(t, cb, q->n, (int)gch_prev(ca),
		    -1) < 0)
			return -1;
		if (ca >= 0x80 && gtext_addn(t, ca, q->n, -1, gch_next(cb)) < 0)
			return -1;
	}
	for (i = 0; i < n; i++)
		h = HSTEP(h, map[p[i]]);
	*hash = h;
	return 0;
}

/* What a stream of characters is read into: the character before the
 * one waiting for its neighbour after. */
struct feed {
	struct gtext	*t;
	uint32_t	 prev, cur;
	uint64_t	 hash, ascii;
	int		 bad;
};

static int
cjk(uint32_t c)
{
	struct gch g;

	gch_info(c, &g);
	return g.script == GS_CJK || g.script == GS_HANGUL;
}

static int
ascii_letter(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void
feed(struct feed *f, uint32_t c)
{
	if (f->cur >= 0x80) {
		if (gtext_addn(f->t, f->cur, 1, (int)gch_prev(f->prev),
		    gch_next(c)) < 0)
			f->bad = 1;
		/* An ideograph inside a word of ASCII letters is what a
		 * double-byte table makes of Latin text. */
		if (ascii_letter(f->prev) && ascii_letter(c) && cjk(f->cur))
			f->t->glued++;
	} else
		f->ascii++;
	f->prev = f->cur;
	f->cur = c;
}

/*
 * Decode p[0..n) with iconv name enc into t and *hash; *ascii gets the
 * ASCII characters read.  0, or -1 when it does not decode cleanly to
 * characters of text (XML Chars, no C1 controls).
 */
int
gread_iconv(const char *enc, const unsigned char *p, size_t n,
    struct gtext *t, uint64_t *hash, uint64_t *ascii)
{
	unsigned char out[16384];
	char *ip = (char *)(uintptr_t)p;
	size_t il = n;
	struct feed f = { t, ' ', ' ', H0, 0, 0 };
	iconv_t cd;

	gtext_clear(t);
	if ((cd = iconv_open_held(enc_u32le(), enc)) == (iconv_t)-1)
		return -1;
	while (il > 0 && !f.bad) {
		char *op = (char *)out;
		size_t ol = sizeof(out), r, k;
		int e;

		r = iconv(cd, &ip, &il, &op, &ol);
		e = errno;
		for (k = 0; k + 4 <= sizeof(out) - ol && !f.bad; k += 4) {
			uint32_t c = load_le32(out + k);

			if (!xml_char_ok(c, 0) || (c >= 0x80 && c <= 0x9F))
				f.bad = 1;
			f.hash = HSTEP(f.hash, c);
			feed(&f, c);
		}
		if (r == (size_t)-1 && e != E2BIG)
			f.bad = 1;
	}
	iconv_close(cd);
	feed(&f, ' ');
	*hash = f.hash;
	/* The first space is the sentinel's, not the text's. */
	*ascii = f.ascii - 1;
	return f.bad ? -1 : 0;
}

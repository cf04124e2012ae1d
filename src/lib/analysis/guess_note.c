/*
 * What the guess reports (guess.c chooses): the sample of the text read
 * in the encoding named, the command that converts it, and UTF-8 with a
 * few stray bytes, which no conversion mends.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "guess.h"
#include "guess_int.h"

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

/* Valid multi-byte characters below which stray bytes are not "mostly
 * UTF-8". */
#define MOSTLY_MIN	4
/* Eight bytes at a time: the high bits. */
#define CB_HI	0x8080808080808080ULL

/* Append c in UTF-8 to buf (size sz) at o while it fits; the new end. */
static size_t
put_utf8(char *buf, size_t sz, size_t o, uint32_t c)
{
	unsigned char u[4];
	int k = utf8_enc(u, c);

	if (k <= 0 || o + (size_t)k >= sz)
		return o;
	memcpy(buf + o, u, (size_t)k);
	buf[o + (size_t)k] = '\0';
	return o + (size_t)k;
}

/*
 * Whether p[0..n), of which high bytes are 80 or above, is UTF-8 but for
 * a few stray bytes: *good gets its multi-byte characters, *bad its
 * illegal bytes, *first the offset of the first of those; counted only as
 * far as the answer is open.
 */
static void
utf8_count(const unsigned char *p, size_t n, uint64_t high, uint64_t *good,
    uint64_t *bad, size_t *first)
{
	size_t i = 0;
	uint64_t w;

	*good = *bad = 0;
	*first = 0;
	while (i < n) {
		unsigned char b = p[i];
		size_t len = b < 0x80 || (b >= 0xC2 && b <= 0xF4) ?
		    (size_t)utf8_lead_len(b) : 0;
		size_t j;

		if (len == 1) {
			i++;
			while (n - i >= 8 && (memcpy(&w, p + i, 8),
			    (w & CB_HI) == 0))
				i += 8;
			continue;
		}
		/* Each character still to come takes two of the high bytes
		 * left at least: once the stray bytes outnumber a quarter of
		 * the most there can be, mostly_utf8 says no whatever the
		 * rest holds (random bytes, Latin-1 text, decided in a part
		 * of the input). */
		if (*bad * 4 > *good + high / 2)
			return;
		for (j = 1; len > 0 && j < len; j++)
			if (i + j >= n || (p[i + j] & 0xC0) != 0x80)
				len = 0;
		if (len == 3 && ((b == 0xE0 && p[i + 1] < 0xA0) ||
		    (b == 0xED && p[i + 1] >= 0xA0)))
			len = 0;
		if (len == 4 && ((b == 0xF0 && p[i + 1] < 0x90) ||
		    (b == 0xF4 && p[i + 1] >= 0x90)))
			len = 0;
		if (len == 0) {
			if (*bad == 0)
				*first = i;
			(*bad)++;
			high--;
			i++;
		} else {
			(*good)++;
			high -= len;
			i += len;
		}
	}
}

/*
 * The text around the stray byte at p[at] of p[0..n) into buf (size sz):
 * from the start of its line (24 bytes back at most) to 40 bytes on, the
 * stray bytes as U+FFFD.
 */
static void
stray_sample(const unsigned char *p, size_t n, size_t at, char *buf,
    size_t sz)
{
	size_t i = at, end, o = 0;

	buf[0] = '\0';
	while (i > 0 && at - i < 24 && p[i - 1] != '\n' && p[i - 1] != '\r')
		i--;
	/* Not in the middle of a character. */
	while (i < at && (p[i] & 0xC0) == 0x80)
		i++;
	end = n - at > 40 ? at + 40 : n;
	while (i < end && p[i] != '\n' && p[i] != '\r') {
		uint32_t c = 0;	/* set where the decoder reads one */
		int k = utf8_dec(p + i, n - i, &c);

		if (k <= 0) {
			c = 0xFFFD;
			k = k < 0 ? -k : 1;
		}
		o = put_utf8(buf, sz, o, c);
		i += (size_t)k;
	}
}


/* The name quoted for a POSIX shell where it needs it, into buf: in
 * single quotes, or double quotes where it holds a single quote (and
 * nothing a double-quoted word expands).  A name that does not fit whole
 * is written FILE: a command with a name cut short would name another
 * file. */
static void
shell_word(char *buf, size_t sz, const char *s)
{
	int n;

	if (strcmp(s, "-") == 0 || (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789._/-+,:@%=") == strlen(s) &&
	    s[0] != '-'))
		n = snprintf(buf, sz, "%s", s);
	else if (strchr(s, '\'') == NULL)
		n = snprintf(buf, sz, "'%s'", s);
	else if (strpbrk(s, "$`\\\"!") == NULL)
		n = snprintf(buf, sz, "\"%s\"", s);
	else
		n = snprintf(buf, sz, "'%s'", s);	/* not for a shell as it is */
	if (n < 0 || (size_t)n >= sz)
		snprintf(buf, sz, "FILE");
}

/* UTF-8 with stray bytes, four valid multi-byte characters and more for
 * each, read as UTF-8 (s): say so in g and return 1. */
int
guess_mostly_utf8(const unsigned char *p, size_t n, uint64_t high,
    const struct sniff *s, struct guess *g)
{
	uint64_t good, bad;
	size_t first;

	if (s->enc.family != ENC_F_UTF8)
		return 0;
	utf8_count(p, n, high, &good, &bad, &first);
	if (bad == 0 || good < MOSTLY_MIN ||
	    bad * 4 > good)
		return 0;
	g->found = g->mostly_utf8 = 1;
	snprintf(g->encoding, sizeof(g->encoding), "UTF-8");
	stray_sample(p, n, first, g->sample, sizeof(g->sample));
	snprintf(g->note, sizeof(g->note), "it is mostly UTF-8, with "
	    "%llu stray byte%s (the first at byte offset %llu) among "
	    "%llu valid multi-byte characters%s: correct those bytes "
	    "by hand rather than convert the entity",
	    (unsigned long long)bad, bad > 1 ? "s" : "",
	    (unsigned long long)(first + s->bomlen),
	    (unsigned long long)good, g->partial ? " (in the part of "
	    "the input that was looked at)" : "");
	return 1;
}

/* The sample of UTF-16 text p[0..n) (little-endian when le) that has no
 * character past ASCII: its first line, up to 48 characters. */
static void
utf16_sample(const unsigned char *p, size_t n, int le, char *buf,
    size_t sz)
{
	size_t i, o = 0;
	uint32_t c;

	for (i = 0; i + 2 <= n && i < 96; i += 2) {
		c = le ? load_le16(p + i) : load_be16(p + i);
		if (c == '\n' || c == '\r')
			break;
		o = put_utf8(buf, sz, o, c);
	}
}

/*
 * The sample of p[0..n) read with iconv name enc, into buf (size sz,
 * UTF-8): up to 24 characters before the first past ASCII, from the start
 * of its line, and 32 to 48 from it on, to the end of a word.
 */
static void
sample_of(const char *enc, const unsigned char *p, size_t n, char *buf,
    size_t sz)
{
	unsigned char out[4096];
	char *ip = (char *)(uintptr_t)p;
	size_t il = n, so = 0, nring = 0, after = 0, k;
	uint32_t ring[24];
	int started = 0, done = 0;
	iconv_t cd;

	buf[0] = '\0';
	if ((cd = iconv_open_held(enc_u32le(), enc)) == (iconv_t)-1)
		return;
	while (il > 0 && !done) {
		char *op = (char *)out;
		size_t ol = sizeof(out), r = iconv(cd, &ip, &il, &op, &ol);
		int e = errno;

		for (k = 0; k + 4 <= sizeof(out) - ol && !done; k += 4) {
			uint32_t c = load_le32(out + k);

			if (!started && c < 0x80) {
				if (c == '\n' || c == '\r')
					nring = 0;
				else if (nring < 24)
					ring[nring++] = c;
				else {
					memmove(ring, ring + 1,
					    23 * sizeof(*ring));
					ring[23] = c;
				}
				continue;
			}
			if (!started) {
				size_t j;

				started = 1;
				for (j = 0; j < nring; j++)
					so = put_utf8(buf, sz, so, ring[j]);
			}
			if (c == '\n' || c == '\r' || after >= 48 ||
			    (after >= 32 && c == ' '))
				done = 1;
			else {
				so = put_utf8(buf, sz, so, c);
				after++;
			}
		}
		if (r == (size_t)-1 && e != E2BIG)
			break;
	}
	iconv_close(cd);
}

/*
 * What is said of the bytes p[0..n) of an entity read as s, found to be
 * in candidate pick (alt: another that reads them alike, or -1), into g;
 * name is the input's name, for the command.
 */
void
guess_note(const unsigned char *p, size_t n, const struct sniff *s,
    const char *name, int pick, int alt, struct guess *g)
{
	const struct gcand *c = gcand_at((size_t)pick);
	const char *layout = guess_utf16_layout(p, n);
	char word[512], also[120] = "";

	sample_of(c->iconv, p, n, g->sample, sizeof(g->sample));
	if (g->sample[0] == '\0' && c->kind == GK_WIDE &&
	    strncmp(c->iconv, "UTF-16", 6) == 0)
		utf16_sample(p, n, strcmp(c->iconv, "UTF-16LE") == 0,
		    g->sample, sizeof(g->sample));
	g->found = 1;
	snprintf(g->encoding, sizeof(g->encoding), "%s", c->name);
	if (alt >= 0)
		snprintf(also, sizeof(also), " (and as %s, which reads these "
		    "bytes alike)", gcand_at((size_t)alt)->name);
	shell_word(word, sizeof(word), name);
	if (g->http)	/* the body of a response: its label is the fix */
		snprintf(g->note, sizeof(g->note), "it decodes cleanly as "
		    "%s%s%s: \"%s\"; serve it with Content-Type: "
		    "application/xml; charset=%s, or convert the body to the "
		    "charset it is served with", c->name, also,
		    g->partial ? " (the part of the input looked at)" : "",
		    g->sample, c->name);
	else if (s->bom == BOM_NONE && s->source == SRC_DEFAULT &&
	    layout != NULL && strcmp(layout, c->name) == 0)
		/* The byte order beyond question: --fix adds the BOM. */
		snprintf(g->note, sizeof(g->note), "it decodes cleanly as "
		    "%s%s: \"%s\"; it lacks the BOM that UTF-16 needs: "
		    "xmlsniff --fix %s adds it", c->name,
		    g->partial ? " (the part of the input looked at)" : "",
		    g->sample, word);
	else
		snprintf(g->note, sizeof(g->note), "it decodes cleanly as "
		    "%s%s%s: \"%s\"; to convert it: xmlsniff --encoding=%s "
		    "--transcode-to=UTF-8 -o out.xml %s", c->name, also,
		    g->partial ? " (the part of the input looked at)" : "",
		    g->sample, c->name, word);
}

/*
 * count ENC FILE: decode FILE (utf-8, utf-16le, utf-32le or iso-8859-1)
 * and print what it takes in each Unicode form, so that bench/run can tell
 * whether a converter wrote all of its output without trusting any of the
 * converters it times.  One line, nine fields:
 *
 *	bom u8 u16 u32 l1 body-u8 body-u16 body-u32 body-l1
 *
 * bom is 1 when the first character is U+FEFF (then left out of the other
 * counts); u8, u16 and u32 are the bytes of the text in UTF-8, UTF-16 and
 * UTF-32 (no BOM); l1 is its bytes in ISO-8859-1, or -1 when a character
 * is above U+00FF.  The body-* fields count the same after the first line
 * feed: the part a transcoder copies once it has rewritten the XML
 * declaration.  Exit status 1 when the input is not well formed in ENC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tally {
	long long	u8, u16, u32, l1;
};

static void
add(struct tally *t, unsigned long c)
{
	t->u8 += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
	t->u16 += c < 0x10000 ? 2 : 4;
	t->u32 += 4;
	if (t->l1 >= 0)
		t->l1 = c < 0x100 ? t->l1 + 1 : -1;
}

static int
bad(const char *why, long long at)
{
	fprintf(stderr, "count: %s at byte %lld\n", why, at);
	return 1;
}

/* The bytes of one character as they arrive, in encoding enc (1, 8, 16
 * or 32: ISO-8859-1, UTF-8, UTF-16LE, UTF-32LE). */
struct dec {
	int		 enc;
	unsigned char	 pend[8];
	int		 npend;
};

/* The *_char functions: 1 with the character in *c when the bytes
 * pending make one, 0 when it needs more, -1 with *why when they are not
 * well formed. */
static int
utf8_char(const struct dec *d, unsigned long *c, const char **why)
{
	const unsigned char *p = d->pend;
	int need, i;

	if (p[0] < 0x80)
		need = 1;
	else if (p[0] >= 0xc2 && p[0] < 0xe0)
		need = 2;
	else if (p[0] >= 0xe0 && p[0] < 0xf0)
		need = 3;
	else if (p[0] >= 0xf0 && p[0] < 0xf5)
		need = 4;
	else {
		*why = "bad UTF-8 lead byte";
		return -1;
	}
	if (d->npend > 1 && (p[d->npend - 1] & 0xc0) != 0x80) {
		*why = "bad UTF-8 trail byte";
		return -1;
	}
	if (d->npend < need)
		return 0;
	*c = need == 1 ? p[0] : need == 2 ? p[0] & 0x1f : need == 3 ?
	    p[0] & 0x0f : p[0] & 0x07;
	for (i = 1; i < d->npend; i++)
		*c = *c << 6 | (p[i] & 0x3f);
	if ((d->npend == 3 && *c < 0x800) ||
	    (d->npend == 4 && (*c < 0x10000 || *c > 0x10ffff)) ||
	    (*c >= 0xd800 && *c < 0xe000)) {
		*why = "bad UTF-8 sequence";
		return -1;
	}
	return 1;
}

static int
utf16_char(const struct dec *d, unsigned long *c, const char **why)
{
	const unsigned char *p = d->pend;
	unsigned long lo;

	if (d->npend == 2) {
		*c = p[0] | p[1] << 8;
		if (*c >= 0xdc00 && *c < 0xe000) {
			*why = "lone low surrogate";
			return -1;
		}
		return *c >= 0xd800 && *c < 0xdc00 ? 0 : 1;
	}
	if (d->npend != 4)
		return 0;
	lo = p[2] | p[3] << 8;
	if (lo < 0xdc00 || lo >= 0xe000) {
		*why = "lone high surrogate";
		return -1;
	}
	*c = 0x10000 + (((unsigned long)(p[0] | p[1] << 8) - 0xd800) << 10) +
	    (lo - 0xdc00);
	return 1;
}

static int
utf32_char(const struct dec *d, unsigned long *c, const char **why)
{
	const unsigned char *p = d->pend;

	if (d->npend < 4)
		return 0;
	*c = p[0] | p[1] << 8 | p[2] << 16 | (unsigned long)p[3] << 24;
	if (*c > 0x10ffff || (*c >= 0xd800 && *c < 0xe000)) {
		*why = "bad UTF-32 unit";
		return -1;
	}
	return 1;
}

/* Take byte b: as the *_char functions say, the bytes pending cleared
 * once they made a character. */
static int
dec_byte(struct dec *d, unsigned char b, unsigned long *c, const char **why)
{
	int r;

	d->pend[d->npend++] = b;
	switch (d->enc) {
	case 1:
		*c = d->pend[0];
		r = 1;
		break;
	case 8:
		r = utf8_char(d, c, why);
		break;
	case 16:
		r = utf16_char(d, c, why);
		break;
	default:
		r = utf32_char(d, c, why);
		break;
	}
	if (r == 1)
		d->npend = 0;
	return r;
}

/* What the characters so far take: all of them, and those after the
 * first line feed; a first U+FEFF is the BOM, counted in neither. */
struct counts {
	struct tally	 all, body;
	int		 bom, first, inbody;
};

static void
count_char(struct counts *k, unsigned long c)
{
	if (k->first && c == 0xfeff) {
		k->bom = 1;
		k->first = 0;
		return;
	}
	k->first = 0;
	add(&k->all, c);
	if (k->inbody)
		add(&k->body, c);
	else if (c == '\n')
		k->inbody = 1;
}

/* The encoding by its name on the command line, 0 for none known. */
static int
enc_of(const char *name)
{
	if (strcmp(name, "utf-8") == 0)
		return 8;
	if (strcmp(name, "utf-16le") == 0)
		return 16;
	if (strcmp(name, "utf-32le") == 0)
		return 32;
	if (strcmp(name, "iso-8859-1") == 0)
		return 1;
	return 0;
}

int
main(int argc, char *argv[])
{
	struct counts k = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, 0, 1, 0 };
	struct dec d = { 0, { 0 }, 0 };
	unsigned char buf[1 << 16];
	const char *why = NULL;
	long long off = 0;
	unsigned long c = 0;
	size_t n, i;
	int r;
	FILE *f;

	if (argc != 3) {
		fputs("usage: count utf-8|utf-16le|utf-32le|iso-8859-1 FILE\n",
		    stderr);
		return 2;
	}
	if ((d.enc = enc_of(argv[1])) == 0)
		return bad("unknown encoding", 0);
	if ((f = fopen(argv[2], "rb")) == NULL) {
		perror(argv[2]);
		return 2;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (i = 0; i < n; i++, off++) {
			if ((r = dec_byte(&d, buf[i], &c, &why)) < 0)
				return bad(why, off);
			if (r > 0)
				count_char(&k, c);
		}
	}
	if (ferror(f)) {
		perror(argv[2]);
		return 2;
	}
	if (d.npend != 0)
		return bad("truncated character", off);
	printf("%d %lld %lld %lld %lld %lld %lld %lld %lld\n", k.bom,
	    k.all.u8, k.all.u16, k.all.u32, k.all.l1, k.body.u8, k.body.u16,
	    k.body.u32, k.body.l1);
	return 0;
}

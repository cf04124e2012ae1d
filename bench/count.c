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

int
main(int argc, char *argv[])
{
	struct tally all = { 0, 0, 0, 0 }, body = { 0, 0, 0, 0 };
	unsigned char buf[1 << 16];
	unsigned char pend[8];
	int enc, npend = 0, need, bom = 0, first = 1, inbody = 0;
	long long off = 0;
	unsigned long c;
	size_t n, i;
	FILE *f;

	if (argc != 3) {
		fputs("usage: count utf-8|utf-16le|utf-32le|iso-8859-1 FILE\n",
		    stderr);
		return 2;
	}
	if (strcmp(argv[1], "utf-8") == 0)
		enc = 8;
	else if (strcmp(argv[1], "utf-16le") == 0)
		enc = 16;
	else if (strcmp(argv[1], "utf-32le") == 0)
		enc = 32;
	else if (strcmp(argv[1], "iso-8859-1") == 0)
		enc = 1;
	else
		return bad("unknown encoding", 0);
	if ((f = fopen(argv[2], "rb")) == NULL) {
		perror(argv[2]);
		return 2;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (i = 0; i < n; i++, off++) {
			pend[npend++] = buf[i];
			/* Gather the bytes of one character. */
			switch (enc) {
			case 1:
				c = pend[0];
				break;
			case 8:
				if (pend[0] < 0x80)
					need = 1;
				else if (pend[0] >= 0xc2 && pend[0] < 0xe0)
					need = 2;
				else if (pend[0] >= 0xe0 && pend[0] < 0xf0)
					need = 3;
				else if (pend[0] >= 0xf0 && pend[0] < 0xf5)
					need = 4;
				else
					return bad("bad UTF-8 lead byte", off);
				if (npend > 1 && (pend[npend - 1] & 0xc0) != 0x80)
					return bad("bad UTF-8 trail byte", off);
				if (npend < need)
					continue;
				c = need == 1 ? pend[0] : need == 2 ?
				    pend[0] & 0x1f : need == 3 ?
				    pend[0] & 0x0f : pend[0] & 0x07;
				for (need = 1; need < npend; need++)
					c = c << 6 | (pend[need] & 0x3f);
				if ((npend == 3 && c < 0x800) ||
				    (npend == 4 && (c < 0x10000 || c > 0x10ffff)) ||
				    (c >= 0xd800 && c < 0xe000))
					return bad("bad UTF-8 sequence", off);
				break;
			case 16:
				if (npend == 2) {
					c = pend[0] | pend[1] << 8;
					if (c >= 0xdc00 && c < 0xe000)
						return bad("lone low surrogate",
						    off);
					if (c >= 0xd800 && c < 0xdc00)
						continue;
				} else if (npend == 4) {
					unsigned long lo = pend[2] | pend[3] << 8;

					if (lo < 0xdc00 || lo >= 0xe000)
						return bad("lone high surrogate",
						    off);
					c = 0x10000 + (((unsigned long)(pend[0] |
					    pend[1] << 8) - 0xd800) << 10) +
					    (lo - 0xdc00);
				} else
					continue;
				break;
			default:
				if (npend < 4)
					continue;
				c = pend[0] | pend[1] << 8 | pend[2] << 16 |
				    (unsigned long)pend[3] << 24;
				if (c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
					return bad("bad UTF-32 unit", off);
				break;
			}
			npend = 0;
			if (first && c == 0xfeff) {
				bom = 1;
				first = 0;
				continue;
			}
			first = 0;
			add(&all, c);
			if (inbody)
				add(&body, c);
			else if (c == '\n')
				inbody = 1;
		}
	}
	if (ferror(f)) {
		perror(argv[2]);
		return 2;
	}
	if (npend != 0)
		return bad("truncated character", off);
	printf("%d %lld %lld %lld %lld %lld %lld %lld %lld\n", bom, all.u8,
	    all.u16, all.u32, all.l1, body.u8, body.u16, body.u32, body.l1);
	return 0;
}

/*
 * Kernel equivalence, the rest of tests/dense.bats: windows-1252 dense
 * with the bytes it leaves undefined, and UTF-16 and UTF-32 dense with
 * unpaired surrogates and values above U+10FFFF, every kernel level and
 * feed against the reference (kern_sweep).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"

/* sb_text: windows-1252 dense with the bytes it leaves undefined (81 8D
 * 8F 90 9D), in runs of every length from 1 to 33 at every offset of a
 * word, after a CR, before an LF, between CR and LF, among letters, the
 * euro sign (80) and a control (01). */
static void
sb_text(struct buf *b)
{
	static const int und[] = { 0x81, 0x8D, 0x8F, 0x90, 0x9D };
	static const int lens[] = { 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33 };
	size_t u, l;

	for (u = 0; u < NELEM(und); u++)
		for (l = 0; l < NELEM(lens); l++) {
			bstr(b, "ab\r");
			bbytes(b, und[u], (size_t)lens[l]);
			bstr(b, "\n\351");
			bbytes(b, und[u], (size_t)lens[l]);
			bstr(b, "\r\201\n\200a\201b\215");
		}
}

static const char decl1252[] =
    "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<a>";

void
kern_dense_sb(void)
{
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	int i;

	bstr(&b, decl1252);
	sb_text(&b);
	bbyte(&b, 1);
	sb_text(&b);
	bstr(&b, "</a>\n");
	kern_sweep("windows-1252 runs", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 52, 3, 1, 3840);
	kern_first(&dg, "illegal-char", 2569, 122, 7, 1);
	if (!CHECK(strncmp(dg.d[D_ILLEGAL_SEQUENCE].msg, "bytes 81 are not "
	    "valid in windows-1252; ", 40) == 0))
		printf("  (%s)\n", dg.d[D_ILLEGAL_SEQUENCE].msg);
	/* C3 81 is UTF-8 (U+00C1): the raw-UTF-8 hint skips the 81 after
	 * it, and still follows the text. */
	b.n = 0;
	bstr(&b, decl1252);
	bstr(&b, "\303\201\201");
	sb_text(&b);
	bstr(&b, "</a>\n");
	kern_sweep("windows-1252 after the raw-UTF-8 hint", b.p, b.n, NULL);
	b.n = 0;
	bstr(&b, "<?xml version=\"1.1\" encoding=\"windows-1252\"?>\n<a>");
	sb_text(&b);
	bstr(&b, "\205\r\205</a>\n");
	kern_sweep("windows-1252 in XML 1.1", b.p, b.n, NULL);
	/* Across the read buffers: 700000 undefined bytes from 327049. */
	b.n = 0;
	bstr(&b, decl1252);
	bbytes(&b, 'x', 327000);
	bbytes(&b, 0x81, 700000);
	bbyte(&b, '\r');
	for (i = 0; i < 20000; i++)
		bstr(&b, "a\201\215\220\n");
	bstr(&b, "</a>");
	kern_sweep("windows-1252 across read buffers", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 327049, 2, 327004, 760000);
	bfree(&b);
}

/* The four forms: unit width and byte order. */
static const struct {
	const char	*name;
	int		 w, be;
} forms[] = {
	{ "UTF-16LE", 2, 0 }, { "UTF-16BE", 2, 1 },
	{ "UTF-32LE", 4, 0 }, { "UTF-32BE", 4, 1 },
};

/*
 * s in the form f, a byte a character (Latin-1), but X, Y and Z, which
 * stand for what the form cannot hold: U+D800 and U+DC00 alone, and in
 * UTF-16 U+DBFF alone, in UTF-32 the values 110000 and FFFFFFFF; '#' is
 * U+2028.
 */
static void
wide_str(struct buf *b, int f, const char *s)
{
	int w = forms[f].w, be = forms[f].be;
	uint32_t c;

	for (; *s != '\0'; s++) {
		switch (*s) {
		case 'X':
			c = 0xD800;
			break;
		case 'Y':
			c = w == 2 ? 0xDC00 : 0x110000;
			break;
		case 'Z':
			c = w == 2 ? 0xDBFF : 0xFFFFFFFF;
			break;
		case '#':
			c = 0x2028;
			break;
		default:
			c = (unsigned char)*s;
		}
		bunit(b, c, w, be);
	}
}

/* wide_text: text dense with X, Y and Z among letters, CR and LF, a CR
 * with a bad unit then LF, and a control (U+0001) late. */
static void
wide_doc(struct buf *b, int f, int xml11)
{
	char line[80];
	int i;

	snprintf(line, sizeof(line), "<?xml version=\"1.%d\" encoding=\"%s\"?>"
	    "\n<a>", xml11, forms[f].name);
	wide_str(b, f, line);
	for (i = 1; i <= 400; i++) {
		snprintf(line, sizeof(line), "aX\rY\nZ\351XX\r\nYZa\rX\n"
		    "bcdefgh%d\n", i);
		wide_str(b, f, line);
	}
	wide_str(b, f, "XYZ\001XYZ");
	for (i = 0; i < 50; i++)
		wide_str(b, f, "aXbYcZ\r\n");
	wide_str(b, f, xml11 ? "\205#</a>\n" : "</a>\n");
}

/* edgew: unpaired surrogates (in UTF-32 also values above U+10FFFF)
 * around pairs, CR and LF, after a pad of 0 to 40 units, which puts each
 * shape at every unit of the 32-byte block; first as edge8's in
 * kern_dense.c.  Shapes are lists of decimal values. */
static void
shapesw(struct buf *b, int f, const char *list)
{
	const char *s;
	uint32_t v;
	int pad, i;

	for (s = list; *s != '\0';) {
		while (*s == ' ')
			s++;
		for (pad = 0; pad <= 40; pad++) {
			const char *q = s;

			for (i = 0; i < pad; i++)
				bunit(b, i % 3 == 2 ? 56320 : 55296,
				    forms[f].w, forms[f].be);
			while (*q != '\0' && *q != ' ') {
				v = (uint32_t)strtoul(q, (char **)&q, 10);
				bunit(b, v, forms[f].w, forms[f].be);
				if (*q == ',')
					q++;
			}
			bunit(b, 233, forms[f].w, forms[f].be);
		}
		while (*s != '\0' && *s != ' ')
			s++;
	}
}

static void
edgew(struct buf *b, int f, int first)
{
	char a[400], all[480];

	snprintf(a, sizeof(a), "55296,56320 56319 56320 55296,55296,56320 "
	    "13,10 10 13 13,55296,10 13,56320,56320,10 13,55296,56320,10 "
	    "13,97,10 56319,13,56320,10%s", forms[f].w == 4 ? " 1114112 "
	    "13,1114112,10 4294967295 57343" : "");
	snprintf(all, sizeof(all), "%s 65534 65535 1 13,1,10 31", a);
	if (first == 2) {
		shapesw(b, f, a);
		return;
	}
	shapesw(b, f, first ? a : all);
	if (first)
		bunit(b, 1, forms[f].w, forms[f].be);
	shapesw(b, f, all);
	wide_str(b, f, "</a>");
}

void
kern_dense_wide(void)
{
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	char label[80];
	size_t h;
	int f, x, i;

	for (f = 0; f < (int)NELEM(forms); f++) {
		for (x = 0; x < 2; x++) {
			b.n = 0;
			wide_doc(&b, f, x);
			snprintf(label, sizeof(label), "%s XML 1.%d bad units",
			    forms[f].name, x);
			kern_sweep(label, b.p, b.n, NULL);
			if (x == 0 && f == 0) {
				kern_default(&b, &dg);
				kern_first(&dg, "illegal-sequence", 92, 2, 5,
				    3352);
				kern_first(&dg, "illegal-char", 22280, 1602, 3,
				    1);
			}
			if (x == 0 && f == 3) {
				kern_default(&b, &dg);
				kern_first(&dg, "illegal-sequence", 184, 2, 5,
				    3356);
				kern_first(&dg, "illegal-char", 44560, 1602, 4,
				    1);
			}
		}
		for (x = 1; x >= 0; x--) {
			b.n = 0;
			wide_str(&b, f, "<?xml version=\"1.0\" encoding=\"");
			wide_str(&b, f, forms[f].name);
			wide_str(&b, f, "\"?>\n<a>");
			edgew(&b, f, x);
			snprintf(label, sizeof(label), "%s shapes, first %d",
			    forms[f].name, x);
			kern_sweep(label, b.p, b.n, NULL);
			if (x == 1 && f == 0) {
				kern_default(&b, &dg);
				kern_first(&dg, "illegal-sequence", 96, 2, 6,
				    9248);
				kern_first(&dg, "illegal-char", 23132, 412, 3,
				    206);
			}
			if (x == 1 && f == 3) {
				kern_default(&b, &dg);
				kern_first(&dg, "illegal-sequence", 180, 2, 4,
				    31816);
				kern_first(&dg, "illegal-char", 61024, 412, 1807,
				    206);
			}
		}
	}
	/* UTF-16LE shapes across the 320 KiB read buffers, cut at a
	 * megabyte, then the first non-Char near the end. */
	b.n = 0;
	wide_str(&b, 0, "<?xml version=\"1.0\" encoding=\"UTF-16LE\"?>\n<a>");
	h = b.n;
	for (i = 0; i < 45; i++)
		edgew(&b, 0, 2);
	CHECK(b.n > h + 1000000);
	b.n = h + 1000000;
	bunit(&b, 1, 2, 0);
	bunit(&b, 0, 2, 0);
	wide_str(&b, 0, "</a>");
	kern_sweep("UTF-16LE shapes across read buffers", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 96, 2, 6, 168128);
	kern_first(&dg, "illegal-char", 1000090, 17671, 8, 2);
	bfree(&b);
}

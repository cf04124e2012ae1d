/*
 * Kernel equivalence: the sweeps of tests/dense.bats, every kernel level
 * against the reference, in process.  Error-dense input is counted in
 * bulk (decode_utf.c's block walk, dense_utf8/16/32 of src/lib/simd/, the
 * single-byte run of undefined bytes): every level, in every feed, with
 * and without --all and a cap, must give the reference's counts, first
 * positions and lists (kern_sweep); where dense.bats asserted a value,
 * it is asserted here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"

static const char decl8[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>";
static const char tail8[] = "</a> <?xml version=\"1.0\"?>";

/* Octal byte lists as dense.bats wrote them ("15,377,12"), each shape of
 * a list separated by a space. */
static size_t
shape_bytes(const char *s, unsigned char *out)
{
	size_t n = 0;

	while (*s != '\0' && *s != ' ') {
		out[n++] = (unsigned char)strtoul(s, (char **)&s, 8);
		if (*s == ',')
			s++;
	}
	return n;
}

/* Steered noise: bytes that steer the UTF-8 automaton (line ends, leads
 * of every kind, both ends of the narrow second-byte ranges, continuation
 * bytes, bytes never used, a control, NUL, letters), across stretches
 * and read buffers. */
static void
dense_steer(void)
{
	static const unsigned char a[] = { 13, 10, 13, 97, 98, 32, 128, 143,
	    144, 159, 160, 190, 191, 192, 193, 194, 223, 224, 225, 237, 239,
	    240, 241, 244, 245, 255, 1, 0 };
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	uint32_t x = 5;
	int i;

	bstr(&b, decl8);
	for (i = 0; i < 700000; i++)
		bbyte(&b, a[kern_rand(&x) % NELEM(a)]);
	bstr(&b, tail8);
	kern_sweep("steered noise", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 43, 2, 5, 429703);
	kern_first(&dg, "illegal-char", 56, 3, 3, 49990);
	kern_first(&dg, "decl-not-at-start", 700047, 69560, 6, KANY);
	bfree(&b);
}

/*
 * Each shape of list after a pad of 0 to npad - 1 bytes, then é: each
 * shape at every offset of a stretch, a block and their quarters.  The
 * pads: FF and letters (every third an 'a'), or with edge, FF and E1
 * (every fourth), as dense.bats made them.
 */
static void
pads(struct buf *b, const char *list, int npad, int edge)
{
	unsigned char sh[16];
	const char *s;
	size_t m;
	int pad, i;

	for (s = list; *s != '\0';) {
		while (*s == ' ')
			s++;
		m = shape_bytes(s, sh);
		for (pad = 0; pad < npad; pad++) {
			for (i = 0; i < pad; i++)
				bbyte(b, edge ? (i % 4 == 3 ? 225 : 255) :
				    (i % 3 ? 255 : 97));
			bput(b, sh, m);
			bstr(b, "\303\251");
		}
		while (*s != '\0' && *s != ' ')
			s++;
	}
}

static void
dense_reasons(void)
{
	struct buf b = { NULL, 0, 0 };
	struct diags dg;

	bstr(&b, decl8);
	bstr(&b, "\377\001");
	pads(&b, "300,200 340,200,200 355,240,200 364,220,200,200 341,200 "
	    "200 377 357,277,276 1 15,12 15,377,12 12 15,341,12 "
	    "360,220,200,15 302", 300, 0);
	bstr(&b, tail8);
	kern_sweep("each reason at every offset", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 42, 2, 4, 452701);
	kern_first(&dg, "illegal-char", 43, 2, 5, 601);
	kern_first(&dg, "decl-not-at-start", 691999, 1502, 45457, KANY);
	bfree(&b);
}

/* Random bytes (fixed seed), after a declaration and alone. */
static void
dense_random(void)
{
	struct buf b = { NULL, 0, 0 };
	size_t h;
	uint32_t x = 3;
	int i;

	bstr(&b, decl8);
	h = b.n;
	for (i = 0; i < 400000; i++)
		bbyte(&b, (int)(kern_rand(&x) & 0xFF));
	kern_sweep("random bytes, declared", b.p, b.n, NULL);
	kern_sweep("random bytes, undeclared", b.p + h, b.n - h, NULL);
	bfree(&b);
}

/* A line end at every offset of a stretch among bad bytes, then the first
 * non-Char a stretch later: it is located from the line and column the
 * counting walk carried, whichever walk of a stretch saw the line end. */
static void
dense_line_ends(void)
{
	static const char *const le[] = { "12", "15", "15,12", "15,377,12",
	    "15,341,12" };
	static const struct kfeed *const fd[] = { &kern_feeds[0],
	    &kern_feeds[3] };
	struct buf b = { NULL, 0, 0 };
	unsigned char sh[8];
	struct diags dg;
	char label[64], *ref, *got;
	size_t m, j, f;
	int pad, i, l;

	for (j = 0; j < NELEM(le); j++) {
		m = shape_bytes(le[j], sh);
		for (pad = 0; pad < 260; pad++) {
			b.n = 0;
			bstr(&b, decl8);
			bbyte(&b, 0377);
			for (i = 0; i < pad; i++)
				bbyte(&b, i % 3 ? 255 : 97);
			bput(&b, sh, m);
			for (i = 0; i < 300; i++)
				bbyte(&b, i % 5 ? 191 : 98);
			bstr(&b, "\001</a>");
			snprintf(label, sizeof(label), "line end %s after %d",
			    le[j], pad);
			simd_init("ref");
			ref = kern_run(b.p, b.n, NULL, fd[0], 0, NULL);
			for (l = 1; l < unit_nlevels; l++) {
				simd_init(unit_levels[l]);
				for (f = 0; f < NELEM(fd); f++) {
					got = kern_run(b.p, b.n, NULL, fd[f], 0,
					    NULL);
					kern_same(label, unit_levels[l], ref,
					    got);
					free(got);
				}
			}
			free(ref);
			if (j == 3 && pad == 100) {
				kern_default(&b, &dg);
				kern_first(&dg, "illegal-char", 446, 3, 302, 1);
			}
		}
	}
	simd_init(NULL);
	bfree(&b);
}

/* NUL runs of every length from 1 to 40 after 0 to 8 bad bytes. */
static void
dense_nul(void)
{
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	int len, o;

	bstr(&b, decl8);
	for (len = 1; len <= 40; len++)
		for (o = 0; o < 9; o++) {
			bbytes(&b, 255, (size_t)o);
			bbytes(&b, 0, (size_t)len);
			bstr(&b, "\r\n");
		}
	bstr(&b, tail8);
	kern_sweep("NUL runs", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-char", 42, 2, 4, 7380);
	bfree(&b);
}

/* edge8: each shape of a sequence and of a line end after a pad of 0 to
 * 70 bytes, at every offset of the 32-byte block of the vector walk and of
 * the three bytes it looks past it.  first 1: the first non-Char (U+0001)
 * after the shapes that hold none, then every shape again; 0: every shape
 * twice; 2: only those that hold none. */
static const char shapes8[] = "340,240,200 340,200 355,240,200 "
    "355,237,277 360,220,200,200 360,220,200,101 360,217 364,217,277,277 "
    "364,220 302 337,277 341,200 300,200 301 365 370 200,200 15,12 12 15 "
    "15,377,12 15,341,200,12 15,303,251,12 15,200,200,200,12 15,360,220,12 "
    "15,355,240,200,12 15,101,12";
static const char nonchar8[] = " 357,277,276 357,277,277 357,277,275 1 37 "
    "15,1,12 0";

static void
edge8(struct buf *b, int first)
{
	char all[sizeof(shapes8) + sizeof(nonchar8)];

	snprintf(all, sizeof(all), "%s%s", shapes8, nonchar8);
	if (first == 2) {
		pads(b, shapes8, 71, 1);
		return;
	}
	pads(b, first ? shapes8 : all, 71, 1);
	if (first)
		bbyte(b, 1);
	pads(b, all, 71, 1);
}

static void
dense_edge8(void)
{
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	int i;

	bstr(&b, decl8);
	edge8(&b, 1);
	bstr(&b, tail8);
	kern_sweep("UTF-8 shapes, the non-Char after", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 47, 2, 6, 155459);
	kern_first(&dg, "illegal-char", 76012, 854, 2, 427);
	kern_first(&dg, "decl-not-at-start", 171442, 1848, 2634, KANY);
	b.n = 0;
	bstr(&b, decl8);
	edge8(&b, 0);
	bstr(&b, tail8);
	kern_sweep("UTF-8 shapes, the non-Chars among", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 47, 2, 6, 172854);
	CHECK(strncmp(dg.d[D_ILLEGAL_SEQUENCE].msg, "bytes FF are not valid in "
	    "UTF-8 (a byte never used in UTF-8)", 60) == 0);
	kern_first(&dg, "illegal-char", 76012, 854, 2, 852);
	CHECK(strncmp(dg.d[D_ILLEGAL_CHAR].msg, "U+FFFE is not an XML Char",
	    25) == 0);
	kern_first(&dg, "decl-not-at-start", KANY, 1990, 2634, KANY);
	/* Across the 320 KiB read buffers: the shapes with no non-Char
	 * cut at a megabyte, then the first non-Char near the end. */
	b.n = 0;
	bstr(&b, decl8);
	for (i = 0; i < 14; i++)
		edge8(&b, 2);
	CHECK(b.n > sizeof(decl8) - 1 + 1000000);
	b.n = sizeof(decl8) - 1 + 1000000;
	bstr(&b, "\001\357\277\277");
	bstr(&b, tail8);
	kern_sweep("UTF-8 shapes across read buffers", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 47, 2, 6, 908566);
	kern_first(&dg, "illegal-char", 1000042, 11078, 11660, 2);
	bfree(&b);
}

/* Errors with 1 to 6 clean blocks between (DENSE_CALM: the walk leaves
 * the block kernel only after clean blocks in a row), at every offset of
 * a block, CR, LF and CR LF in the gaps, then a non-Char. */
static void
dense_calm(void)
{
	struct buf b = { NULL, 0, 0 };
	static const int js[] = { 0, 7, 13, 31 };
	int r, k, j, i;

	bstr(&b, decl8);
	for (r = 0; r < 3; r++)
		for (k = 1; k <= 6; k++)
			for (j = 0; j < 4; j++) {
				bbyte(&b, 0351);
				bbytes(&b, 'x', (size_t)(32 * k + js[j]));
				bstr(&b, "a\r\nb\rc\nd");
			}
	bstr(&b, "\001</a>");
	kern_sweep("UTF-8 clean blocks between errors", b.p, b.n, NULL);
	b.n = 0;
	bstr(&b, "\377\376");
	for (r = 0; r < 2; r++)
		for (k = 1; k <= 6; k++)
			for (j = 0; j < 3; j++) {
				bunit(&b, 0xDC00, 2, 0);
				for (i = 0; i < 16 * k + js[j]; i++)
					bunit(&b, 'x', 2, 0);
				bunit(&b, 'a', 2, 0);
				bunit(&b, '\r', 2, 0);
				bunit(&b, '\n', 2, 0);
			}
	bunit(&b, 1, 2, 0);
	kern_sweep("UTF-16LE clean blocks between errors", b.p, b.n, NULL);
	bfree(&b);
}

void
kern_dense(void)
{
	dense_steer();
	dense_reasons();
	dense_random();
	dense_line_ends();
	dense_nul();
	dense_edge8();
	dense_calm();
	kern_dense_sb();
	kern_dense_wide();
	kern_spec();
	simd_init(NULL);
}

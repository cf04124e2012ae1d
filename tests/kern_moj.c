/*
 * Kernel equivalence of the mojibake scan (moj_skip, moj_skipw in
 * src/lib/simd/): the sweeps of tests/mojibake.bats, tests/fastpath.bats and
 * tests/xc.bats, every kernel level against the reference, a file (read
 * again for the position of a hit) and a pipe (lines counted as the
 * bytes go), split at read boundaries (tests/kern.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern_fast.h"

#define NLATIN	(sizeof(latin) / sizeof(latin[0]))

/* Words of Central European, Baltic, Turkish, Romanian and Vietnamese
 * text: letters of Latin-1 (C3) beside those of Latin Extended (C4, C5,
 * C6, C8, E1 BA/BB), and windows-1252's letters Š, š, Ž, ž right after a
 * C3 letter ("píše", "éž"), none of them mojibake. */
static const char *const latin[] = {
	"p\303\255\305\241e", "t\303\251\305\276", "m\303\263\305\202",
	"\303\241\304\215", "\305\202\303\263d\305\272",
	"gy\303\266ny\303\266r\305\261", "f\305\221v\303\241ros",
	"\305\241\303\255p", "\304\215\303\251\305\241", "\305\276\303\241k",
	"\303\274\305\237", "\304\237\303\266\305\237", "\304\261\303\247",
	"\310\231\303\242\310\233", "\304\203\303\256",
	"\304\227\305\253\303\266", "\304\201\303\244\305\241",
	"vi\341\273\207t", "\304\221\341\272\277n", "\303\240\341\273\223",
	"\303\251\342\200\231s", "\303\242\313\206x", "\303\257\302\253",
	"\303\250\305\223ur", "\303\240\305\270"
};

/* The sequences: é, ’ and ü encoded twice, a C1 control, Ø encoded
 * twice (its trail a windows-1252 character from U+02xx), and Ã before
 * Š (Ê encoded twice, a lead before C5: a doubtful pair, no warning
 * alone, but the kernels must stop there all the same). */
static const char *const seqs[] = {
	"\303\203\302\251", "\303\242\342\202\254\342\204\242", "\302\222",
	"\303\203\302\274", "\303\203\313\234", "\303\203\305\240"
};

/* Each sequence at every offset of a 64-byte stretch after CR LF lines
 * of ASCII and CJK text. */
static void
moj_offsets(void)
{
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t i, j;
	int off;

	mktext(&t, 40);
	for (i = 0; i < NELEM(seqs); i++)
		for (off = 0; off < 64; off++) {
			b.n = 0;
			bstr(&b, "<?xml version=\"1.0\"?>\r\n<a>\r\n");
			for (j = 0; j < t.n; j++)
				bput(&b, t.p[j] == '\n' ? "\r\n" : (char *)t.p + j,
				    t.p[j] == '\n' ? 2 : 1);
			brep(&b, "x", (size_t)off);
			bstr(&b, seqs[i]);
			bstr(&b, " \303\251t\303\251 \302\251\r\n</a>\r\n");
			k_same("a sequence at an offset", b.p, b.n, NULL, NULL,
			    0, &r);
			CHECK(has(&r, "mojibake@") == (i != 5));
		}
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* UTF-16 Latin text, whose leads (U+00C2..U+00F4) no trail follows,
 * then each sequence at every offset of two vectors. */
static void
moj_utf16_latin(void)
{
	static const char *const s16[] = {
		"\303\203\302\251", "\303\242\342\202\254\342\204\242",
		"\302\222", "\303\251\303\203\302\251",
		"\303\251\346\227\245\303\203\302\274"
	};
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t i;
	int off, k, be;

	for (i = 0; i < NELEM(s16); i++)
		for (be = 0; be < 2; be++)
			for (off = 0; off < 40; off++) {
				t.n = 0;
				bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
				    "\r\n<a>\r\n");
				brep(&t, "for\303\252t m\303\252me d\303\251j\303\240 "
				    "\302\277d\303\263nde \303\277 \303\265\r\n",
				    30);
				for (k = 0; k < off; k++)
					bstr(&t, k % 3 ? "a" : "\303\251");
				bstr(&t, s16[i]);
				bstr(&t, " \303\251t\303\251 \302\251\r\n</a>\r\n");
				b.n = 0;
				brecode(&b, be ? "UTF-16BE" : "UTF-16LE", t.p, t.n);
				k_same("UTF-16 Latin", b.p, b.n, NULL, NULL, 0, &r);
				CHECK(has(&r, "mojibake@"));
			}
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* A sequence split by a read boundary after each of its bytes, and a
 * CR LF split by one before a sequence. */
static void
moj_split(void)
{
	static const size_t bases[] = { 4096, 65536, 327680 };
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t i, off, cut;
	char want[128];
	int d;

	for (i = 0; i < NELEM(bases); i++)
		for (d = 1; d <= 8; d++) {
			/* the last base only for the first, a middle and the
			 * last byte: the input is big */
			if (i == 2 && d != 1 && d != 4 && d != 8)
				continue;
			off = bases[i] - (size_t)d;
			b.n = 0;
			bstr(&b, "<r>");
			brep(&b, "a", off - 3);
			bstr(&b, seqs[1]);
			brep(&b, "b", 7000);
			bstr(&b, "</r>");
			cut = bases[i];
			k_same("a sequence across a read", b.p, b.n, NULL, &cut,
			    1, &r);
			snprintf(want, sizeof(want), "mojibake@%zu:1:%zu*1 ", off,
			    off + 1);
			CHECK(has(&r, want));
		}
	for (i = 0; i < 2; i++) {
		b.n = 0;
		bstr(&b, "<r>");
		brep(&b, "a", bases[i] - 4);
		bstr(&b, "\r\nab\303\203\302\251</r>");
		cut = bases[i];
		k_same("CR LF across a read", b.p, b.n, NULL, &cut, 1, &r);
		snprintf(want, sizeof(want), "mojibake@%zu:2:3*1 ", bases[i] + 3);
		CHECK(has(&r, want));
	}
	bfree(&b);
	bfree(&r);
}

/*
 * "ÉÃ©" (a doubtful pair: no warning alone) and "中Ã©" (a warning) with
 * their last byte at each offset of a small input, and around a read
 * boundary of a bigger one: the character before a sequence is read
 * whole wherever a kernel stops.
 */
static void
moj_pairs(void)
{
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t o, size, cut = 4096;
	char want[128];
	int big;

	for (big = 0; big < 2; big++)
		for (o = big ? 4016 : 10; o <= (big ? 4106u : 150u); o++) {
			size = big ? 8000 : 160;
			b.n = 0;
			bstr(&b, "<r>");
			brep(&b, "a", o - 7);
			bstr(&b, "\303\211\303\203\302\251");
			brep(&b, "b", size - o - 5);
			bstr(&b, "</r>");
			k_same("ÉÃ©", b.p, b.n, NULL, &cut, big, &r);
			CHECK(!has(&r, "mojibake@"));
			b.n = 0;
			bstr(&b, "<r>");
			brep(&b, "a", o - 9);
			bstr(&b, "\344\270\255\303\203\302\251");
			brep(&b, "b", size - o - 5);
			bstr(&b, "</r>");
			k_same("中Ã©", b.p, b.n, NULL, &cut, big, &r);
			snprintf(want, sizeof(want), "mojibake@%zu:1:%zu*1 ",
			    o - 3, o - 4);
			if (!CHECK(has(&r, want)))
				printf("  (中Ã© ending at %zu: %s)\n", o, r.p);
		}
	bfree(&b);
	bfree(&r);
}

/* UTF-16 and UTF-32 in both orders, labelled by --content-type: a
 * sequence after long CJK text at each offset of a word. */
static void
moj_wide_cjk(void)
{
	static const char *const encs[] = { "UTF-16LE", "UTF-16BE",
	    "UTF-32LE", "UTF-32BE" };
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	char ct[64], want[64];
	size_t e;
	int off, i;

	for (e = 0; e < NELEM(encs); e++)
		for (off = 0; off < 8; off++) {
			t.n = b.n = 0;
			bstr(&t, "<r>\n");
			for (i = 0; i < 200; i++)
				bstr(&t, "\346\227\245\346\234\254\350\252\236 "
				    "\344\270\255\n");
			brep(&t, "x", (size_t)off);
			bstr(&t, "\303\203\302\251\346\227\245</r>\n");
			brecode(&b, encs[e], t.p, t.n);
			snprintf(ct, sizeof(ct), "application/xml; charset=%s",
			    encs[e]);
			k_same(ct, b.p, b.n, ct, NULL, 0, &r);
			snprintf(want, sizeof(want), ":202:%d*1 \"Ã©\" is \"é\"",
			    off + 1);
			CHECK(has(&r, want));
		}
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* UTF-32 in both orders: long CJK text, then at each offset of two
 * words "Ã", a unit FFFFFFFF (no character: it breaks the sequence), "©",
 * and after it "A", FFFFFFFF and "Ã©", which is mojibake (whether the
 * letter before it is a capital, which the unit hides, is part of how
 * sure it is), and " Ã©", which is too; every level as the reference,
 * whose scan looks at each unit. */
static void
moj_wide_stray(void)
{
	static const char *const encs[] = { "UTF-32LE", "UTF-32BE" };
	static const unsigned char ff[4] = { 0xFF, 0xFF, 0xFF, 0xFF };
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	char ct[64];
	size_t e;
	int off, i;

	for (e = 0; e < NELEM(encs); e++)
		for (off = 0; off < 16; off++) {
			t.n = b.n = 0;
			bstr(&t, "<r>\n");
			for (i = 0; i < 200; i++)
				bstr(&t, "\346\227\245\346\234\254 \344\270\255\n");
			brep(&t, "x", (size_t)off);
			bstr(&t, "\303\203");
			brecode(&b, encs[e], t.p, t.n);
			bput(&b, (const char *)ff, 4);
			t.n = 0;
			bstr(&t, "\302\251 \346\227\245\346\234\254A");
			brecode(&b, encs[e], t.p, t.n);
			bput(&b, (const char *)ff, 4);
			t.n = 0;
			bstr(&t, "\303\203\302\251\346\227\245 \303\203\302\251"
			    "</r>\n");
			brecode(&b, encs[e], t.p, t.n);
			snprintf(ct, sizeof(ct), "application/xml; charset=%s",
			    encs[e]);
			k_same(ct, (const unsigned char *)b.p, b.n, ct, NULL,
			    0, &r);
			if (!CHECK(has(&r, "\"Ã©\" is \"é\"")))
				printf("  (%s at %d)\n", encs[e], off);
		}
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* Latin leads followed by ASCII at every offset of a word, in UTF-16 and
 * UTF-32; a UTF-16 trail that is a windows-1252 character. */
static void
moj_leads(void)
{
	static const char *const encs[] = { "UTF-16LE", "UTF-16BE",
	    "UTF-32LE" };
	static const char *const boms[] = { "\377\376", "\376\377",
	    "\377\376\000\000" };
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t e;
	int i;

	for (e = 0; e < NELEM(encs); e++) {
		t.n = b.n = 0;
		bfmt(&t, "<?xml version=\"1.0\" encoding=\"%.6s\"?>\n<d>",
		    encs[e]);
		for (i = 1; i <= 9; i++) {
			bstr(&t, "caf\303\251 \303\274ber x");
			brep(&t, "y", (size_t)i);
		}
		bstr(&t, "d\303\203\302\251j\303\240</d>\n");
		bput(&b, boms[e], e == 2 ? 4 : 2);
		brecode(&b, encs[e], t.p, t.n);
		k_same(encs[e], b.p, b.n, NULL, NULL, 0, &r);
		CHECK(has(&r, "mojibake@") && has(&r, ":2:149*1 \"Ã©\" is \"é\""));
	}
	t.n = b.n = 0;
	bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<d>"
	    "ab\303\251c\303\203\342\202\254x</d>\n<!--\303\203-->");
	bstr(&b, "\377\376");
	brecode(&b, "UTF-16LE", t.p, t.n);
	k_same("a windows-1252 trail", b.p, b.n, NULL, NULL, 0, &r);
	CHECK(has(&r, " 0 1 0\nmojibake@") &&
	    has(&r, ":2:8*1 \"Ã€\" is \"À\" encoded twice"));
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/*
 * Latin Extended text (latin[]) with, at every offset of 64 bytes, a
 * sequence: near misses a kernel must not take for mojibake (a C3 letter
 * before Š, š, Ž, ž, ’ with no second trail; "à€©", E0 80 A9, overlong)
 * and sequences that are ("íš" and a no-break space: ED 9A A0 read as
 * windows-1252; "à" before two C1 controls, which count alone when the
 * sequence fails, E0 8F), in UTF-8,
 * UTF-16 in both orders and UTF-32: every level as the reference, whose
 * scan passes over nothing.
 */
static void
moj_latin_ext(void)
{
	static const char *const encs[] = { NULL, "UTF-16LE", "UTF-16BE",
	    "UTF-32LE" };
	static const struct {
		const char	*s;
		int		 hit;
	} sq[] = {
		{ "\303\255\305\241e", 0 }, { "\303\251\342\200\231s", 0 },
		{ "\303\242\313\206x", 0 }, { "\303\255\305\241\302\240", 1 },
		{ "\303\243\342\202\254\305\241!", 1 },
		{ "\303\240\302\217\302\200", 1 },
		{ "\303\240\342\202\254\302\251", 0 }
	};
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t e, i, j;
	int off;

	for (e = 0; e < NELEM(encs); e++)
		for (i = 0; i < NELEM(sq); i++)
			for (off = 0; off < 64; off += e == 0 ? 1 : 7) {
				t.n = b.n = 0;
				bfmt(&t, "<?xml version=\"1.0\" encoding=\"%s\"?>"
				    "\n<d>", e == 0 ? "UTF-8" : encs[e]);
				for (j = 0; j < 3 * NLATIN; j++)
					bfmt(&t, "%s%s", latin[j % NLATIN],
					    j % 7 == 6 ? "\r\n" : " ");
				brep(&t, "y", (size_t)off);
				bstr(&t, sq[i].s);
				bstr(&t, " \303\251t\303\251</d>\n");
				if (e == 0)
					bput(&b, t.p, t.n);
				else
					brecode(&b, encs[e], t.p, t.n);
				k_same("Latin Extended", b.p, b.n, NULL, NULL, 0,
				    &r);
				if (!CHECK(has(&r, "mojibake@") == sq[i].hit))
					printf("  (%s, sequence %zu at %d)\n",
					    encs[e] ? encs[e] : "UTF-8", i, off);
			}
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* moj_lines() as kernels.h defines it, a byte at a time. */
static void
lines_def(const unsigned char *p, size_t n, struct mojskip *k)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\r' || (p[i] == '\n' && !k->prevcr)) {
			k->lines++;
			k->ls = i + 1;
			k->cut = 1;
		}
		k->prevcr = p[i] == '\r';
	}
}

/* moj_skip() as struct mojskip defines it, a byte at a time: where it
 * stops, and with count the line ends before. */
static size_t
skip_def(const unsigned char *p, size_t n, struct mojskip *k)
{
	size_t i;

	for (i = 0; i + 3 <= n; i++)
		if (moj_exact8(p + i, n - i, k->c1))
			break;
	if (k->count)
		lines_def(p, i, k);
	return i;
}

/* Whether moj_lines() of p[0..n), after a CR or not, counts as its
 * definition. */
static int
lines_same(const unsigned char *p, size_t n, unsigned prevcr)
{
	struct mojskip want, got;

	memset(&want, 0, sizeof(want));
	want.prevcr = prevcr;
	want.lines = 5;		/* added to */
	got = want;
	lines_def(p, n, &want);
	moj_lines(p, n, &got);
	return want.lines == got.lines && want.prevcr == got.prevcr &&
	    want.cut == got.cut && (!want.cut || want.ls == got.ls);
}

/*
 * moj_lines() against its definition: the strings of moj_kernels below
 * at every length up to 300 and start in a vector; and 5,000 bytes, more
 * than a lane takes before the lanes are summed, of CR alone, of LF
 * alone, of CR LF, and of CR, LF and letters at random.
 */
static void
moj_lines_def(void)
{
	static const unsigned char abc[] = { '\r', '\n', '\r', '\n', 'a',
	    0xC3, 0x83 };
	static unsigned char p[5000];
	size_t n, at;
	int round, fail = 0;

	krand_seed(31);
	for (round = 0; round < 8 && !fail; round++) {
		for (at = 0; at < sizeof(p); at++)
			p[at] = round == 0 ? '\r' : round == 1 ? '\n' :
			    round == 2 ? (at % 2 ? '\n' : '\r') :
			    abc[krand(round == 3 ? 2 : sizeof(abc))];
		for (at = 0; at < 17 && !fail; at++)
			for (n = 0; at + n <= 300 && !fail; n++)
				fail = !CHECK(lines_same(p + at, n, (unsigned)
				    (n % 3 == 0)));
		for (n = sizeof(p) - 40; n <= sizeof(p) && !fail; n++)
			fail = !CHECK(lines_same(p, n, (unsigned)(n % 2)) &&
			    lines_same(p + 1, n - 1, 1));
		if (fail)
			printf("  (round %d, %zu bytes at %zu)\n", round, n,
			    at);
	}
}

/* moj_linesw() as kernels.h defines it, a unit at a time (be: big-endian):
 * its characters, a high surrogate before a low one one with it. */
static uint64_t
linesw_def(const unsigned char *p, size_t n, int be, struct mojskip *k)
{
	uint64_t chars = 0;
	size_t i;
	uint32_t c;

	for (i = 0; i + 2 <= n; i += 2) {
		c = be ? load_be16(p + i) : load_le16(p + i);
		if (c == '\r' || (c == '\n' && !k->prevcr)) {
			k->lines++;
			k->ls = i + 2;
			k->cut = 1;
		}
		k->prevcr = c == '\r';
		chars += !(c >= 0xDC00 && c <= 0xDFFF && i >= 2 &&
		    ((be ? load_be16(p + i - 2) : load_le16(p + i - 2)) &
		    0xFC00) == 0xD800);
	}
	return chars;
}

/*
 * moj_linesw() against its definition in both byte orders: random units
 * of CR, LF, high and low surrogates, letters and the bytes 0D and 0A in
 * the other half of a unit, at every length to 300 bytes (odd ones cut
 * to whole units) and start, and 40,000 bytes, more than a lane takes
 * before the lanes are summed.
 */
static void
moj_linesw_def(void)
{
	static const uint16_t abc[] = { '\r', '\n', '\r', '\n', 0xD83D,
	    0xDE00, 0xDC00, 'a', 0x0D00, 0x0A0D, 0x4E2D };
	static unsigned char p[40000];
	struct mojskip want, got;
	uint64_t w, g;
	size_t n, at, i;
	int round, be, fail = 0;

	krand_seed(37);
	for (round = 0; round < 6 && !fail; round++)
		for (be = 0; be < 2 && !fail; be++) {
			for (i = 0; i + 1 < sizeof(p); i += 2) {
				uint16_t u = round == 0 ? '\r' : round == 1 ?
				    (i % 4 ? 0xDE00 : 0xD83D) :
				    abc[krand(sizeof(abc) / sizeof(abc[0]))];

				p[i + be] = (unsigned char)(u & 0xFF);
				p[i + !be] = (unsigned char)(u >> 8);
			}
			for (at = 0; at < 34 && !fail; at += 2)
				for (n = 0; at + n <= 300 && !fail; n++) {
					memset(&want, 0, sizeof(want));
					want.prevcr = n % 3 == 0;
					want.lines = 2;
					got = want;
					w = linesw_def(p + at, n & ~(size_t)1, be,
					    &want);
					g = moj_linesw(p + at, n, be, &got);
					fail = !CHECK(w == g && want.lines ==
					    got.lines && want.prevcr ==
					    got.prevcr && want.cut == got.cut &&
					    (!want.cut || want.ls == got.ls));
				}
			memset(&want, 0, sizeof(want));
			got = want;
			w = linesw_def(p, sizeof(p), be, &want);
			g = moj_linesw(p, sizeof(p), be, &got);
			fail |= !CHECK(w == g && want.lines == got.lines &&
			    want.cut == got.cut && want.ls == got.ls);
			if (fail)
				printf("  (round %d, be %d, %zu bytes at %zu)\n",
				    round, be, n, at);
		}
}

/* moj_skipw() as kernels.h defines it, a unit at a time. */
static size_t
skipw_def(const unsigned char *p, size_t n, int be)
{
	size_t j;

	for (j = 0; j + 4 <= n; j += 2)
		if (moj_exactw(p + j, n - j, 2, be))
			break;
	return j;
}

/* moj_skip32() as kernels.h defines it, a unit at a time. */
static size_t
skip32_def(const unsigned char *p, size_t n, int be)
{
	size_t j;

	for (j = 0; j + 8 <= n; j += 4)
		if (moj_stop32(p + j, n - j, be))
			break;
	return j;
}

/*
 * The passes themselves at every level but ref (which passes over
 * nothing) on random strings of the bytes that matter, at every length
 * up to 300 and every start in a vector: where each stops, and with
 * count the line ends, as their definition.  Levels this machine lacks
 * run the portable kernels (simd_init).
 */
static void
moj_kernels(void)
{
	static const unsigned char abc[] = { 0xC2, 0xC3, 0xC3, 0xC5, 0xC6,
	    0xCB, 0xE2, 0x80, 0x82, 0x84, 0x86, 0x92, 0x93, 0x9A, 0x9C, 0xA0,
	    0xA1, 0xA2, 0xAC, 0xA9, 0xB8, 0xBD, 0xBE, 0xAD, 0x83, '\r', '\n',
	    'a', 0x00, 0xD8, 0x01 };
	unsigned char p[400];
	struct mojskip want, got;
	size_t n, at, w, g;
	int l, round, fail = 0;

	krand_seed(27);
	for (round = 0; round < 20 && !fail; round++) {
		for (at = 0; at < sizeof(p); at++)
			p[at] = krand(3) == 0 ? (unsigned char)('a' + krand(26)) :
			    abc[krand(sizeof(abc))];
		for (l = 1; l < unit_nlevels && !fail; l++) {
			simd_init(unit_levels[l]);
			for (at = 0; at < 33 && !fail; at += round % 2 ? 1 : 5)
				for (n = 0; at + n <= 300 && !fail; n++) {
					memset(&want, 0, sizeof(want));
					want.c1 = n % 2;
					want.count = round % 4 < 2;
					want.prevcr = n % 3 == 0;
					got = want;
					w = skip_def(p + at, n, &want);
					g = moj_skip(p + at, n, &got);
					fail = !CHECK(w == g && want.lines ==
					    got.lines && want.prevcr == got.prevcr &&
					    want.cut == got.cut &&
					    (!want.cut || want.ls == got.ls));
					w = skipw_def(p + at, n, n % 2);
					g = moj_skipw(p + at, n, n % 2);
					fail |= !CHECK(w == g);
					w = skip32_def(p + at, n, n % 2);
					g = moj_skip32(p + at, n, n % 2);
					fail |= !CHECK(w == g);
					if (fail)
						printf("  (%s: round %d at %zu, %zu "
						    "bytes)\n", unit_levels[l], round,
						    at, n);
				}
		}
	}
	simd_init(NULL);
}

/*
 * moj_skip() at every level against its definition where each pair of
 * moj_pairs_seq() follows a lead encoded twice, at every offset of a
 * block of 64 after Latin text with and without the C1 controls, and at
 * the end, cut short: where it stops, the candidate or the end (ref's
 * passes over nothing: not asked).
 */
static void
moj_trail_pairs(void)
{
	unsigned char p[256];
	struct mojskip want, got;
	size_t k, n, s, off, w, g;
	int l, fail = 0;

	for (l = 1; l < unit_nlevels && !fail; l++) {
		simd_init(unit_levels[l]);
		for (k = 0; k < MOJ_PAIRS && !fail; k++)
			for (off = 0; off < 64 && !fail; off++) {
				for (n = 0; n < off; n++)
					p[n] = n % 2 ? 0xA9 : 0xC3;
				if (n % 2)
					p[n - 1] = 'e';
				n += moj_pairs_seq(k, p + n);
				for (s = n; n < s + 100; n++)
					p[n] = (n - s) % 2 ? 0xB3 : 0xC3;
				memset(&want, 0, sizeof(want));
				want.c1 = (int)(off % 2);
				got = want;
				w = skip_def(p, n, &want);
				g = moj_skip(p, n, &got);
				fail = !CHECK(w == g);
				if (fail)
					printf("  (%s: pair %zu at %zu)\n",
					    unit_levels[l], k, off);
			}
		/* the sequence at the end, cut after each of its bytes
		 * from the third: a candidate the end may cut short */
		for (k = 0; k < MOJ_PAIRS && !fail; k++)
			for (off = 3; off <= 7 && !fail; off++) {
				for (n = 0; n < 64 + k % 64; n++)
					p[n] = n % 2 ? 0xA9 : 0xC3;
				s = moj_pairs_seq(k, p + n);
				if (off > s)
					break;
				n += off;
				memset(&want, 0, sizeof(want));
				want.c1 = 1;
				got = want;
				w = skip_def(p, n, &want);
				g = moj_skip(p, n, &got);
				fail = !CHECK(w == g);
				if (fail)
					printf("  (%s: pair %zu, %zu bytes, at the "
					    "end)\n", unit_levels[l], k, n);
			}
	}
	simd_init(NULL);
}

/* The units of moj_wide_units, é a é a ... (leads, with no trail after
 * them) but lead, next and A9 at unit off, u bytes each (be: big-endian);
 * then moj_skipw() (u 2) or moj_skip32() (u 4) of its first bytes against
 * its definition, at lengths that cut it in every place near the three.
 * 1 when it failed. */
static int
wide_case(uint32_t lead, uint32_t next, size_t off, size_t u, int be)
{
	unsigned char p[4 * 140];
	size_t k, b, n, len = u * 140, w, g;
	uint32_t c;

	for (k = 0; k < 140; k++) {
		c = k % 2 ? 'a' : 0xE9;
		if (k == off)
			c = lead;
		else if (k == off + 1)
			c = next;
		else if (k == off + 2)
			c = 0xA9;
		for (b = 0; b < u; b++)
			p[u * k + (be ? u - 1 - b : b)] =
			    (unsigned char)(c >> 8 * b);
	}
	for (n = u * (off + 1); n <= len; n += n < u * off + 4 * u ? 1 : 74) {
		w = u == 2 ? skipw_def(p, n, be) : skip32_def(p, n, be);
		g = u == 2 ? moj_skipw(p, n, be) : moj_skip32(p, n, be);
		if (!CHECK(w == g)) {
			printf("  (%04X %04X at unit %zu of %zu bytes, %zu "
			    "bytes, %s)\n", (unsigned)lead, (unsigned)next,
			    off, u, n, be ? "BE" : "LE");
			return 1;
		}
	}
	return 0;
}

/*
 * moj_skipw() and moj_skip32() at every level against their definition
 * where a unit that may be the reading of a lead (and those around it)
 * stands before one that may be a trail character (windows-1252's 27,
 * the ends of the ranges the vector passes test, and their neighbours),
 * at every unit of a block and past it, in both orders; in UTF-32 also
 * the unit FFFFFFFF, and units whose upper half is not 0 (ref's passes
 * over nothing: not asked).
 */
static void
moj_wide_units(void)
{
	static const uint32_t lead[] = { 0x7F, 0x80, 0x9F, 0xA0, 0xC1, 0xC2,
	    0xC3, 0xDF, 0xE0, 0xE2, 0xEF, 0xF0, 0xF4, 0xF5, 0x1C3, 0x20C3,
	    0xFFFFFFFF, 0x100C3, 0xC3000000, 0xFFFFFFC3 };
	static const uint32_t next[] = { 0x7F, 0x80, 0x81, 0x9D, 0xA9, 0xBF,
	    0xC0, 0x151, 0x152, 0x153, 0x159, 0x160, 0x161, 0x178, 0x17D,
	    0x17E, 0x192, 0x2C6, 0x2DC, 0x2013, 0x2014, 0x2018, 0x2019,
	    0x201A, 0x201C, 0x201D, 0x201E, 0x2020, 0x2021, 0x2022, 0x2026,
	    0x2030, 0x2039, 0x203A, 0x20AC, 0x2121, 0x2122, 0x2123, 0x430,
	    0x8000, 0xFFFFFFFF, 0x10080 };
	size_t a, b, off, u;
	int l, be, fail = 0;

	for (l = 1; l < unit_nlevels && !fail; l++) {
		simd_init(unit_levels[l]);
		for (u = 2; u <= 4 && !fail; u += 2)
			for (be = 0; be < 2 && !fail; be++)
				for (a = 0; a < NELEM(lead) && !fail; a++)
					for (b = 0; b < NELEM(next) && !fail;
					    b++)
						for (off = 0; off < 40 && !fail;
						    off++)
							fail = wide_case(lead[a],
							    next[b], off, u, be);
		if (fail)
			printf("  (at level %s)\n", unit_levels[l]);
	}
	simd_init(NULL);
}

void
kern_moj(void)
{
	moj_latin_ext();
	moj_kernels();
	moj_lines_def();
	moj_linesw_def();
	moj_offsets();
	moj_utf16_latin();
	moj_split();
	moj_pairs();
	moj_wide_cjk();
	moj_wide_stray();
	moj_leads();
	moj_trail_pairs();
	moj_wide_units();
}

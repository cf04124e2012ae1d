/*
 * Kernel equivalence of the transcoder's fast paths (the conversion
 * kernels, conv_run and its kin, and the runs the validator hands over):
 * the transcoding sweeps of tests/fastpath.bats and tests/xc.bats.  Every
 * level writes the bytes of the reference, whole, in chunks and split at
 * the sweep's read boundaries, with its status and diagnostics, and they
 * are the target's declaration and what iconv(3) makes of the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern_fast.h"

#define DECL8	38	/* <?xml version="1.0" encoding="UTF-8"?> */

/* The entity e (text under the UTF-8 declaration) into to at every
 * level: no error, and the expected bytes; the diagnostics into dg. */
static void
to_target(const char *label, const struct buf *e, size_t skip,
    const struct buf *body, const char *to, const size_t *cuts,
    size_t ncuts, struct buf *dg)
{
	struct buf out = { NULL, 0, 0 }, want = { NULL, 0, 0 };
	int rc;

	rc = k_xsame(label, e->p, e->n, to, 0, cuts, ncuts, &out, dg);
	if (!CHECK(rc == 0))
		printf("  (%s -> %s: status %d: %s)\n", label, to, rc, dg->p);
	k_expect(&want, to, body != NULL ? body->p : e->p + skip,
	    body != NULL ? body->n : e->n - skip);
	if (!CHECK(want.n == out.n && memcmp(want.p, out.p, out.n) == 0))
		printf("  (%s -> %s: not the declaration and what iconv "
		    "makes)\n", label, to);
	bfree(&out);
	bfree(&want);
}

/* e (UTF-8 under the UTF-8 declaration) in UTF-16 after its BOM, under
 * a declaration of "UTF-16". */
static void
u16(struct buf *b, const struct buf *e, int be)
{
	struct buf t = { NULL, 0, 0 };

	bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>");
	bput(&t, e->p + DECL8, e->n - DECL8);
	b->n = 0;
	bstr(b, be ? "\376\377" : "\377\376");
	brecode(b, be ? "UTF-16BE" : "UTF-16LE", t.p, t.n);
	bfree(&t);
}

/* Cuts every step bytes or so, each inside a character: of UTF-8 after
 * each of its bytes in turn, of UTF-16 between the halves of a pair. */
static size_t
inside(const struct buf *b, int wide, size_t *cuts, size_t max, size_t step)
{
	size_t k = 0, o, len;
	int turn = 0;

	for (o = step; o + 4 < b->n && k < max; o += step) {
		if (wide) {
			o &= ~(size_t)1;
			while (o + 4 < b->n && (b->p[o + 1] & 0xFC) != 0xD8 &&
			    (b->p[o] & 0xFC) != 0xD8)
				o += 2;
			if (o + 4 < b->n)
				cuts[k++] = o + 2;
			continue;
		}
		while (o + 4 < b->n && (b->p[o] < 0xC2 || b->p[o] > 0xF4))
			o++;
		if (o + 4 >= b->n)
			break;
		len = b->p[o] < 0xE0 ? 2 : b->p[o] < 0xF0 ? 3 : 4;
		cuts[k++] = o + 1 + (size_t)turn++ % (len - 1);
	}
	return k;
}

/* What the bats file called all_targets: the UTF-8 entity e into each
 * Unicode target, its UTF-16 forms into UTF-8, UTF-16 and UTF-32LE; with
 * cut, read boundaries inside characters as well. */
static void
all_targets(const char *label, const struct buf *e, int cut)
{
	static const char *const t8[] = { "UTF-16", "UTF-16LE", "UTF-16BE",
	    "UTF-32", "UTF-32LE", "UTF-32BE" };
	static const char *const t16[] = { "UTF-8", "UTF-16LE", "UTF-16BE",
	    "UTF-32LE" };
	struct buf w = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	struct buf body = { e->p + DECL8, e->n - DECL8, 0 };
	size_t i, nc = 0, cuts[64];
	int be;

	if (cut)
		nc = inside(e, 0, cuts, NELEM(cuts), e->n / 40);
	for (i = 0; i < NELEM(t8); i++)
		to_target(label, e, DECL8, NULL, t8[i], cuts, nc, &dg);
	for (be = 0; be < 2; be++) {
		u16(&w, e, be);
		if (cut)
			nc = inside(&w, 1, cuts, NELEM(cuts), w.n / 40);
		for (i = 0; i < NELEM(t16); i++)
			to_target(label, &w, 0, &body, t16[i], cuts, nc, &dg);
	}
	bfree(&w);
	bfree(&dg);
}

/* The entity around text t. */
static void
entity(struct buf *b, const struct buf *t)
{
	b->n = 0;
	bstr(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n");
	bput(b, t->p, t->n);
	bstr(b, "</doc>\n");
}

/* Pseudo-random text, long runs, runs of every length between others,
 * an astral character at every offset mod 64, runs ending at and after
 * 16- and 32-byte boundaries; with read boundaries inside characters. */
static void
xc_families(void)
{
	static const size_t lens[] = { 1, 15, 16, 17, 31, 32, 33, 4095, 4096,
	    4097, 16383, 16384, 16385 };
	static const char *const tails[] = { "a", "\303\251", "\346\227\245",
	    "\360\237\230\200" };
	struct buf t = { NULL, 0, 0 }, e = { NULL, 0, 0 }, c = { NULL, 0, 0 };
	size_t i, j, k, m;

	mixed(&t, 1, 400, 8);
	entity(&e, &t);
	all_targets("pseudo-random", &e, 1);
	t.n = 0;
	mixed(&t, 2, 400, 0);
	entity(&e, &t);
	all_targets("pseudo-random, no CR", &e, 1);
	t.n = 0;
	for (i = 0; i < NELEM(lens); i++) {
		bstr(&t, "<p>");
		brep(&t, "a", lens[i]);
		bstr(&t, "\346\227\245</p>\n<p>");
		brep(&t, "b", lens[i]);
		bstr(&t, "\360\237\230\200\t</p>\r\n");
	}
	bstr(&t, "<p>");
	brep(&t, "\346\227\245\346\234\254\350\252\236", 2000);
	bstr(&t, "x</p>\n<p>");
	brep(&t, "\360\240\200\200", 2000);
	bstr(&t, "x</p>\n<p>");
	brep(&t, "\303\251", 5000);
	bstr(&t, "x</p>\n");
	entity(&e, &t);
	all_targets("long runs", &e, 1);
	t.n = 0;
	for (i = 1; i <= 40; i++) {
		brep(&t, "x", i);
		bstr(&t, "\346\227\245\343\200\202");
	}
	bstr(&t, "\n");
	for (i = 1; i <= 40; i++) {
		brep(&t, "\346\227\245", i);
		bstr(&t, "a");
	}
	bstr(&t, "\r\n");
	for (i = 1; i <= 40; i++) {
		brep(&t, "\303\237", i);
		brep(&t, "y", i);
		brep(&t, "\360\237\230\200", i);
	}
	bstr(&t, "\n");
	entity(&e, &t);
	all_targets("runs of 1 to 40", &e, 0);
	/* astral characters at every offset mod 64, after ASCII or after
	 * 3- and 2-byte characters; LF, then CR LF */
	t.n = c.n = 0;
	for (j = 0; j < 2; j++)
		for (k = 0; k < 64; k++) {
			bstr(&t, "<p>");
			for (m = k; m > 0; m -= i) {
				i = j == 0 || m == 1 ? 1 : m == 2 || m % 3 == 1 ?
				    2 : 3;
				bstr(&t, i == 1 ? "a" : i == 2 ? "\303\251" :
				    "\346\227\245");
			}
			bstr(&t, k % 2 ? "\360\240\200\200" : "\360\237\230\200");
			brep(&t, "b", 116 - k);
			bstr(&t, "</p>\n");
		}
	entity(&e, &t);
	all_targets("astral at every offset", &e, 0);
	for (i = 0; i < t.n; i++)
		bput(&c, t.p[i] == '\n' ? "\r\n" : (char *)t.p + i,
		    t.p[i] == '\n' ? 2 : 1);
	entity(&e, &c);
	all_targets("astral at every offset, CR LF", &e, 0);
	/* runs of every length 1..70 from a CR LF to a CR, ending in a
	 * character of each length */
	t.n = 0;
	for (i = 1; i <= 70; i++)
		for (k = 0; k < NELEM(tails); k++) {
			for (m = strlen(tails[k]); m < i; m++)
				bstr(&t, "x");
			bstr(&t, tails[k]);
			bstr(&t, "\r\n");
		}
	entity(&e, &t);
	all_targets("runs ending at each offset", &e, 0);
	bfree(&t);
	bfree(&e);
	bfree(&c);
}

/* What the bats file called exact: "<r>" and pseudo-random text, len
 * bytes in all in UTF-8 (or UTF-16: wide), ending in a character of any
 * length (only ASCII words and characters with ascii). */
static void
exact(struct buf *b, unsigned long seed, size_t len, int wide, int ascii)
{
	static const char *const f8[] = { "", "a", "\303\251", "\346\227\245",
	    "\360\237\230\200" };
	static const char *const f16[] = { "", "", "\343\200\202", "",
	    "\360\237\230\200" };
	struct buf t = { NULL, 0, 0 };
	size_t w = wide ? 2 : 1, l = 3 * w, l8, l16;

	krand_seed(seed);
	bstr(b, "<r>");
	while (len - l > 4) {
		t.n = 0;
		ktoken(&t);
		l8 = t.n;
		l16 = t.p[0] < 0x80 ? 2 * l8 : l8 == 4 ? 4 : 2;
		if (l + (wide ? l16 : l8) <= len && (!ascii || l16 == 2 * l8)) {
			bput(b, t.p, t.n);
			l += wide ? l16 : l8;
		}
	}
	if (len > l)
		bput(b, ascii ? "abcd" : wide ? f16[len - l] : f8[len - l],
		    ascii ? (len - l) / w : strlen(wide ? f16[len - l] :
		    f8[len - l]));
	bfree(&t);
}

/* Input that ends at every offset mod 32 of the run after the
 * declaration's line: UTF-8 into each Unicode target, UTF-16 (every even
 * offset) into UTF-8, UTF-16 and UTF-32LE. */
static void
xc_ends(void)
{
	static const char *const t8[] = { "UTF-16", "UTF-16LE", "UTF-16BE",
	    "UTF-32", "UTF-32LE", "UTF-32BE" };
	static const char *const t16[] = { "UTF-8", "UTF-16LE", "UTF-16BE",
	    "UTF-32LE" };
	struct buf e = { NULL, 0, 0 }, w = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	struct buf body = { NULL, 0, 0 };
	size_t n, i;
	int ascii, be;

	for (ascii = 0; ascii < 2; ascii++)
		for (n = ascii ? 48 : 32; n < 64; n++) {
			e.n = 0;
			bstr(&e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
			exact(&e, n, n, 0, ascii);
			CHECK(e.n == 39 + n);
			for (i = 0; i < NELEM(t8); i++)
				to_target("an end mod 32", &e, DECL8, NULL, t8[i],
				    NULL, 0, &dg);
		}
	for (ascii = 0; ascii < 2; ascii++)
		for (n = 64; n <= 94; n += 2) {
			e.n = 0;
			bstr(&e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
			exact(&e, n, n, 1, ascii);
			body.p = e.p + DECL8;
			body.n = e.n - DECL8;
			for (be = 0; be < 2; be++) {
				u16(&w, &e, be);
				CHECK(w.n == 82 + n);
				for (i = 0; i < NELEM(t16); i++)
					to_target("a UTF-16 end mod 32", &w, 0,
					    &body, t16[i], NULL, 0, &dg);
			}
		}
	bfree(&e);
	bfree(&w);
	bfree(&dg);
}

/* The transcode of b into to fails on illegal input with the message
 * msg, the same way at every level. */
static void
fails(const char *label, const struct buf *b, const char *to,
    const char *msg)
{
	struct buf out = { NULL, 0, 0 }, dg = { NULL, 0, 0 };

	if (!CHECK(k_xsame(label, b->p, b->n, to, 0, NULL, 0, &out, &dg) == 1 &&
	    has(&dg, msg)))
		printf("  (%s -> %s: %s)\n", label, to, dg.p);
	bfree(&out);
	bfree(&dg);
}

/* An illegal byte deep inside, past the first output buffer; a sequence
 * cut by the end; both; a lone surrogate deep inside UTF-16, and a unit
 * cut by the end. */
static void
xc_failures(void)
{
	static const char *const t8[] = { "UTF-16", "UTF-16LE", "UTF-16BE",
	    "UTF-32", "UTF-32LE", "UTF-32BE" };
	static const char *const t16[] = { "UTF-8", "UTF-16LE", "UTF-16BE",
	    "UTF-32LE" };
	struct buf t = { NULL, 0, 0 }, tail = { NULL, 0, 0 };
	struct buf ff = { NULL, 0, 0 }, cut = { NULL, 0, 0 };
	struct buf both = { NULL, 0, 0 }, e = { NULL, 0, 0 };
	size_t i;
	int be;

	mixed(&t, 3, 700, 8);
	mixed(&tail, 4, 30, 8);
	CHECK(2 * t.n > 128 * 1024);
	bstr(&ff, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>");
	bput(&ff, t.p, t.n);
	bput(&ff, t.p, t.n);
	bstr(&ff, "x\377y");
	bput(&ff, tail.p, tail.n);
	bstr(&cut, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>");
	bput(&cut, t.p, t.n);
	bstr(&cut, "x\360\237\230");
	bstr(&both, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>");
	bput(&both, tail.p, tail.n);
	bstr(&both, "\377");
	bput(&both, tail.p, tail.n);
	bstr(&both, "\346\227");
	for (i = 0; i < NELEM(t8); i++) {
		fails("FF deep inside", &ff, t8[i], "bytes FF are not valid in "
		    "UTF-8");
		fails("cut by the end", &cut, t8[i], "bytes F0 9F 98 are "
		    "incomplete in UTF-8");
		fails("both", &both, t8[i], "*2 bytes FF are not valid");
	}
	t.n = 0;
	mixed(&t, 5, 800, 8);
	entity(&e, &t);
	for (be = 0; be < 2; be++) {
		u16(&ff, &e, be);
		bput(&ff, be ? "\330\000\000x" : "\000\330x\000", 4);
		brecode(&ff, be ? "UTF-16BE" : "UTF-16LE", tail.p, tail.n);
		bput(&ff, be ? "\000" : "x", 1);
		for (i = 0; i < NELEM(t16); i++)
			fails("a lone surrogate", &ff, t16[i], "*2 ");
	}
	bfree(&t);
	bfree(&tail);
	bfree(&ff);
	bfree(&cut);
	bfree(&both);
	bfree(&e);
}

void
kern_xc(void)
{
	xc_families();
	xc_ends();
	xc_failures();
	kern_xc2();
	kern_runs();
}

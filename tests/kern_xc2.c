/*
 * Kernel equivalence of the conversions at their edges: the sweeps of
 * tests/xc.bats (UTF-8 to UTF-16 and UTF-32 with four-byte characters at
 * every offset of a block and across read boundaries, UTF-16 back to
 * UTF-8 with pairs and line ends at every offset, UTF-8 into single-byte
 * targets from the table, references through long tags, values and
 * comments, the columns UTF-16 validation counts past pairs).  Every
 * level writes the reference's bytes, and they are what iconv(3) makes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern_fast.h"

#define DECL8	38	/* <?xml version="1.0" encoding="UTF-8"?> */

static const char *const pre[] = { "a", "\303\251", "\346\227\245" };
static const char *const ast[] = { "\360\237\230\200", "\364\217\277\277",
    "\360\220\200\200" };

/* The entity around text t: the UTF-8 declaration, <doc>. */
static void
head8(struct buf *b, const struct buf *t)
{
	b->n = 0;
	bstr(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n");
	bput(b, t->p, t->n);
	bstr(b, "</doc>\n");
}

/* The transcode of e into to at every level (ncr: with references)
 * gives status want and, when 0, the bytes of w; the diagnostics in dg. */
static void
like(const char *label, const struct buf *e, const char *to, int ncr,
    const size_t *cuts, size_t ncuts, int want, const struct buf *w,
    struct buf *dg)
{
	struct buf out = { NULL, 0, 0 };
	int rc = k_xsame(label, e->p, e->n, to, ncr, cuts, ncuts, &out, dg);

	if (!CHECK(rc == want))
		printf("  (%s -> %s: status %d: %s)\n", label, to, rc, dg->p);
	if (want == 0 && !CHECK(w->n == out.n && memcmp(w->p, out.p,
	    out.n) == 0))
		printf("  (%s -> %s: not the bytes expected)\n", label, to);
	bfree(&out);
}

/* UTF-8 e into to: the declaration and what iconv makes, and no
 * diagnostic but utf32. */
static void
to_unicode(const char *label, const struct buf *e, const char *to,
    const size_t *cuts, size_t ncuts)
{
	struct buf w = { NULL, 0, 0 }, dg = { NULL, 0, 0 };

	k_expect(&w, to, e->p + DECL8, e->n - DECL8);
	like(label, e, to, 0, cuts, ncuts, 0, &w, &dg);
	CHECK(nhas(&dg, "@") == nhas(&dg, "utf32@"));
	bfree(&w);
	bfree(&dg);
}

/* e in UTF-16 (be: big-endian) under a declaration of "UTF-16", into
 * UTF-8: e again. */
static void
to_utf8(const char *label, const struct buf *e, int be, const size_t *cuts,
    size_t ncuts)
{
	struct buf t = { NULL, 0, 0 }, w = { NULL, 0, 0 }, dg = { NULL, 0, 0 };

	bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>");
	bput(&t, e->p + DECL8, e->n - DECL8);
	bstr(&w, be ? "\376\377" : "\377\376");
	brecode(&w, be ? "UTF-16BE" : "UTF-16LE", t.p, t.n);
	like(label, &w, "UTF-8", 0, cuts, ncuts, 0, e, &dg);
	CHECK(!has(&dg, "@"));
	bfree(&t);
	bfree(&w);
	bfree(&dg);
}

/* Runs of 1 to 9 pairs after k units of one kind, then 0 to 4 ASCII;
 * m: k % m units before the run. */
static void
pair_lines(struct buf *t, int m, int kinds, const char *eol)
{
	int kind, k, i;

	t->n = 0;
	for (kind = 0; kind < kinds; kind++)
		for (k = 0; k < (m == 16 ? 48 : 64); k++) {
			bstr(t, "<p>");
			brep(t, pre[kind], (size_t)(k % m));
			for (i = 1 + k % 9; i > 0; i--)
				bstr(t, ast[(k + i) % 3]);
			brep(t, "z", (size_t)(k % 5));
			bstr(t, "</p>");
			bstr(t, eol);
		}
}

/* Cuts every step bytes from first. */
static size_t
every(size_t *c, size_t max, size_t n, size_t first, size_t step)
{
	size_t k = 0;

	for (; first < n && k < max; first += step)
		c[k++] = first;
	return k;
}

/* UTF-8 into UTF-16 and UTF-32: four-byte characters at every offset of
 * a 16-byte block, a conversion ending on each byte of one, pseudo-random
 * text, read boundaries after each byte of one (u8_surr_block and
 * u8_u32_block, and the blocks either side of them). */
static void
xc_astral(void)
{
	static const char *const to[] = { "UTF-16LE", "UTF-16BE", "UTF-32LE",
	    "UTF-32BE" };
	static const char *const eols[] = { "\n", "\r\n" };
	static const char *const mix[] = { "a", "\303\251", "\337\277",
	    "\340\240\200", "\346\227\245", "\357\277\275", "\360\237\230\200",
	    "\364\217\277\277", "\r\n", "\n" };
	struct buf t = { NULL, 0, 0 }, e = { NULL, 0, 0 };
	size_t i, k, n, cuts[64], nc;

	for (k = 0; k < 2; k++) {
		pair_lines(&t, 16, 3, eols[k]);
		head8(&e, &t);
		for (i = 0; i < NELEM(to); i++)
			to_unicode("pairs at every offset of 16", &e, to[i], NULL,
			    0);
	}
	for (k = 0; k < 4; k++)
		for (n = 1; n <= 12; n++) {
			t.n = 0;
			brep(&t, "a", 10);
			brep(&t, "b", k);
			brep(&t, "\360\237\230\200", n);
			head8(&e, &t);
			for (i = 0; i < NELEM(to); i++)
				to_unicode("a conversion's end", &e, to[i], NULL,
				    0);
		}
	t.n = 0;
	krand_seed(7);
	for (i = 0; i < 60000; i++)
		bstr(&t, mix[krand(NELEM(mix))]);
	head8(&e, &t);
	for (i = 0; i < NELEM(to); i++)
		to_unicode("pseudo-random", &e, to[i], NULL, 0);
	for (k = 0; k < 4; k++) {
		t.n = 0;
		brep(&t, "a", k);
		for (i = 0; i < 10000; i++)
			bstr(&t, i % 1000 == 999 ? "\r\n" : "\360\237\230\200");
		head8(&e, &t);
		/* a boundary after each byte of a character in turn */
		nc = every(cuts, NELEM(cuts), e.n, 1001, 1001);
		to_unicode("read boundaries", &e, "UTF-16LE", cuts, nc);
		to_unicode("read boundaries", &e, "UTF-32LE", cuts, nc);
	}
	bfree(&t);
	bfree(&e);
}

/* UTF-16 into UTF-8: pairs after 1-, 2- and 3-byte characters at every
 * offset of a 64-byte step, LF, CR LF and CR; pseudo-random text; read
 * boundaries at each unit of a pair, a CR LF and a 2-byte character. */
static void
xc_from16(void)
{
	static const char *const eols[] = { "\n", "\r\n", "\r" };
	static const char *const mix[] = { "a", "\303\251", "\337\277",
	    "\340\240\200", "\346\227\245", "\355\237\277", "\356\200\200",
	    "\357\277\275", "\360\237\230\200", "\364\217\277\277", "\r\n",
	    "\n", "\r" };
	struct buf t = { NULL, 0, 0 }, e = { NULL, 0, 0 };
	size_t i, k, cuts[512], nc;

	for (k = 0; k < NELEM(eols); k++) {
		pair_lines(&t, 64, 3, eols[k]);
		head8(&e, &t);
		to_utf8("pairs at every offset of 64", &e, 0, NULL, 0);
		to_utf8("pairs at every offset of 64", &e, 1, NULL, 0);
	}
	t.n = 0;
	krand_seed(11);
	for (i = 0; i < 60000; i++)
		bstr(&t, mix[krand(NELEM(mix))]);
	head8(&e, &t);
	to_utf8("pseudo-random", &e, 0, NULL, 0);
	to_utf8("pseudo-random", &e, 1, NULL, 0);
	/* eight units repeated: a boundary every 1030 bytes falls on each
	 * even offset mod 16 in turn */
	t.n = 0;
	for (i = 0; i < 3000; i++)
		bstr(&t, "\360\237\230\200\r\n\364\217\277\277\303\251a");
	head8(&e, &t);
	nc = every(cuts, NELEM(cuts), 2 * e.n, 1030, 1030);
	to_utf8("read boundaries", &e, 0, cuts, nc);
	to_utf8("read boundaries", &e, 1, cuts, nc);
	bfree(&t);
	bfree(&e);
}

/* UTF-8 into ISO-8859-1 and windows-1252 from the table, Latin characters
 * at every offset of a word; ISO-8859-1 into windows-1252 byte for byte. */
static void
xc_table(void)
{
	static const char *const to[] = { "ISO-8859-1", "windows-1252" };
	static const char l1[] = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
	    "\r\n<a b=\"\351>\" c='\"\374'>caf\351 <!-- \340 --> \377</a>\r\n";
	struct buf t = { NULL, 0, 0 }, e = { NULL, 0, 0 }, w = { NULL, 0, 0 };
	struct buf dg = { NULL, 0, 0 };
	size_t i, k;

	for (k = 0; k < 24; k++) {
		bstr(&t, "<p a=\"\303\251\">");
		brep(&t, "x", k);
		bstr(&t, "\303\251\303\274\302\240y\303\277</p>\n");
	}
	head8(&e, &t);
	for (i = 0; i < NELEM(to); i++) {
		w.n = 0;
		k_expect(&w, to[i], e.p + DECL8, e.n - DECL8);
		like("Latin at every offset", &e, to[i], 0, NULL, 0, 0, &w, &dg);
	}
	e.n = w.n = 0;
	bput(&e, l1, sizeof(l1) - 1);
	bstr(&w, "<?xml version=\"1.0\" encoding=\"windows-1252\"?>");
	bput(&w, l1 + 43, sizeof(l1) - 1 - 43);
	like("ISO-8859-1 into windows-1252", &e, "windows-1252", 0, NULL, 0, 0,
	    &w, &dg);
	bfree(&t);
	bfree(&e);
	bfree(&w);
	bfree(&dg);
}

/* A character ISO-8859-1 lacks after a long run it has, after tags whose
 * values hold ">" and the other quote, after a value and in a comment
 * longer than a read: a reference, or the failure at its place. */
static void
xc_refs(void)
{
	struct buf e = { NULL, 0, 0 }, w = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	size_t cuts[64], nc;

	bstr(&e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>");
	brep(&e, "caf\303\251 x ", 5000);
	bstr(&e, "\342\202\254</a>\n");
	bstr(&w, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>");
	brep(&w, "caf\351 x ", 5000);
	bstr(&w, "&#x20AC;</a>\n");
	like("a long run, then a reference", &e, "ISO-8859-1", 1, NULL, 0, 0,
	    &w, &dg);
	like("a long run, then a failure", &e, "ISO-8859-1", 0, NULL, 0, 1,
	    &w, &dg);
	CHECK(has(&dg, "unrepresentable@") && has(&dg, ":2:35004*1 U+20AC "
	    "cannot be written in ISO-8859-1"));
	e.n = w.n = 0;
	bstr(&e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a b=\"x>y\" "
	    "c='z\"w>'>\342\202\254</a>\n");
	bstr(&w, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a b=\"x>y\" "
	    "c='z\"w>'>&#x20AC;</a>\n");
	like("values with > and quotes", &e, "ISO-8859-1", 1, NULL, 0, 0, &w,
	    &dg);
	/* a value, then a comment, longer than several reads */
	e.n = w.n = 0;
	bstr(&e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a v=\"");
	brep(&e, "x>y<", 20000);
	bstr(&e, "\">\342\202\254</a>\n");
	bstr(&w, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a v=\"");
	brep(&w, "x>y<", 20000);
	bstr(&w, "\">&#x20AC;</a>\n");
	nc = every(cuts, NELEM(cuts), e.n, 1999, 2001);
	like("a long value", &e, "ISO-8859-1", 1, cuts, nc, 0, &w, &dg);
	e.n = 0;
	bstr(&e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a><!--");
	brep(&e, "x>-y", 20000);
	bstr(&e, " \342\202\254 --></a>\n");
	like("a long comment", &e, "ISO-8859-1", 1, cuts, nc, 1, &w, &dg);
	CHECK(has(&dg, ":2:80009*1 U+20AC in a comment cannot be written in "
	    "ISO-8859-1, and XML allows no character reference there"));
	bfree(&e);
	bfree(&w);
	bfree(&dg);
}

/* The column after surrogate pairs at every offset of a 64-byte step;
 * a high half with no low one after them, at the end of a step or in
 * one: an illegal sequence where the pair would be. */
static void
xc_columns(void)
{
	static const size_t ks[] = { 0, 1, 2, 3, 17, 18 };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	struct buf w = { NULL, 0, 0 };
	char want[160];
	size_t k;

	for (k = 0; k <= 40; k++) {
		t.n = b.n = 0;
		bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a>");
		brep(&t, "x", k);
		brep(&t, "\360\237\230\200", 40);
		bstr(&t, "\001z</a>\n");
		bstr(&b, "\377\376");
		brecode(&b, "UTF-16LE", t.p, t.n);
		k_same("the column after pairs", b.p, b.n, NULL, NULL, 0, &r);
		snprintf(want, sizeof(want), "UTF-16LE 1 0 0\nillegal-char@"
		    "%zu:2:%zu*1 U+0001 is not", 2 + 2 * (40 + 3 + k + 80),
		    3 + k + 40 + 1);
		if (!CHECK(has(&r, want)))
			printf("  (want %s: %s)\n", want, r.p);
	}
	for (k = 0; k < NELEM(ks); k++) {
		t.n = b.n = 0;
		bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a>");
		brep(&t, "x", ks[k]);
		brep(&t, "\360\237\230\200", 20);
		bstr(&b, "\377\376");
		brecode(&b, "UTF-16LE", t.p, t.n);
		bput(&b, "\000\330", 2);
		brecode(&b, "UTF-16LE", "x</a>\n", 6);
		like("a lone high half", &b, "UTF-8", 0, NULL, 0, 1, &w, &r);
		snprintf(want, sizeof(want), ":2:%zu*1 bytes 00 D8 are not "
		    "valid in UTF-16LE (a high surrogate U+D800 not followed "
		    "by a low one)", 3 + ks[k] + 20 + 1);
		if (!CHECK(has(&r, want)))
			printf("  (want %s: %s)\n", want, r.p);
	}
	bfree(&t);
	bfree(&b);
	bfree(&r);
	bfree(&w);
}

void
kern_xc2(void)
{
	xc_astral();
	xc_from16();
	xc_table();
	xc_refs();
	xc_columns();
}

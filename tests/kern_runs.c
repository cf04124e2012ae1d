/*
 * Kernel equivalence of the runs the validator hands the transcoder in
 * one piece (UTF-8, UTF-16, UTF-32 and single-byte sources; Unicode and
 * iconv targets): the sweeps of tests/runs.bats, which compared each
 * answer with XMLSNIFF_SIMD=ref (every character alone).  Every level
 * gives the reference's status and diagnostics, and its bytes when it
 * succeeds; where the bats file asserted a place, so does this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern_fast.h"

/* Whether this iconv writes target (else say so: it is not swept). */
static int
have(const char *target)
{
	struct xopts xo;
	char err[256];

	if (target_resolve(target, 0, 0, &xo, err, sizeof(err)) == 0)
		return 1;
	printf("unit: %s: %s, not swept\n", target, err);
	return 0;
}

/* Like the reference at every level, into to (ncr: with references);
 * the reference's status (0 or 1), its diagnostics in dg; -1, said on a
 * line of its own, where this system cannot write to (musl: GB18030). */
static int
like_ref(const char *label, const struct buf *b, const char *to, int ncr,
    struct buf *dg)
{
	struct buf out = { NULL, 0, 0 };
	int rc;

	dg->n = 0;
	if (!have(to))
		return -1;
	rc = k_xsame(label, b->p, b->n, to, ncr, NULL, 0, &out, dg);
	CHECK(rc == 0 || rc == 1);
	bfree(&out);
	return rc;
}

/* What the bats file called lines N: ASCII, Latin, Greek and CJK. */
static void
lines(struct buf *b, int n)
{
	int i;

	for (i = 1; i <= n; i++)
		bfmt(b, "  <p n=\"%d\" t=\"caf\303\251\">na\303\257ve "
		    "\316\261\316\262 \346\227\245\346\234\254\350\252\236 x "
		    "&amp; y</p>\n", i);
}

/* UTF-8 into iconv targets, stateless and stateful, with and without
 * references; a character the target lacks deep in; references in text
 * and attributes, none in a comment. */
static void
runs_utf8(void)
{
	static const char *const st[] = { "GB18030", "UTF-7", "ISO-2022-JP",
	    "HZ", "EUC-JP" };
	static const char *const sb[] = { "ISO-8859-1", "WINDOWS-1252",
	    "ISO-8859-7", "SHIFT_JIS", "IBM037", "ASCII" };
	struct buf b = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	size_t i;

	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r>\n");
	lines(&b, 800);
	bstr(&b, "</r>\n");
	for (i = 0; i < NELEM(st); i++)
		like_ref("lines", &b, st[i], 0, &dg);
	for (i = 0; i < NELEM(sb); i++) {
		like_ref("lines", &b, sb[i], 1, &dg);
		like_ref("lines", &b, sb[i], 0, &dg);
	}
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r>\n");
	brep(&b, "  <p a=\"caf\303\251\">na\303\257ve text, 50 characters or "
	    "so</p>\n", 2000);
	bstr(&b, "<q>ab\342\202\254</q>\n</r>\n");
	CHECK(like_ref("a character ISO-8859-1 lacks", &b, "ISO-8859-1", 0,
	    &dg) == 1 && has(&dg, ":2003:6*1 U+20AC cannot be written in "
	    "ISO-8859-1"));
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\"?>\n<r>\n");
	lines(&b, 500);
	bstr(&b, "<!-- \316\261 -->\n</r>\n");
	CHECK(like_ref("references, then a comment", &b, "ISO-8859-1", 1,
	    &dg) == 1 && has(&dg, ":503:6*1 U+03B1 in a comment cannot be "
	    "written"));
	bfree(&b);
	bfree(&dg);
}

/* UTF-16 and UTF-32 sources, both orders, into every Unicode form and
 * iconv targets; the text survives back to UTF-8; UTF-32 errors deep in
 * the file. */
static void
runs_wide(void)
{
	static const char *const src[] = { "UTF-16LE", "UTF-16BE", "UTF-32LE",
	    "UTF-32BE" };
	static const char *const bom[] = { "\377\376", "\376\377",
	    "\377\376\000\000", "\000\000\376\377" };
	static const char *const to[] = { "UTF-8", "UTF-16", "UTF-16LE",
	    "UTF-16BE", "UTF-32LE", "UTF-32BE", "GB18030" };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	struct buf out = { NULL, 0, 0 }, w = { NULL, 0, 0 };
	size_t i, j;

	for (i = 0; i < NELEM(src); i++) {
		t.n = b.n = w.n = out.n = 0;
		bfmt(&t, "<?xml version=\"1.0\" encoding=\"%.6s\"?>\n<r>\n",
		    src[i]);
		lines(&t, 600);
		bstr(&t, "<s>\360\237\230\200 \360\240\200\200</s>\n</r>\n");
		bput(&b, bom[i], i < 2 ? 2 : 4);
		brecode(&b, src[i], t.p, t.n);
		for (j = 0; j < NELEM(to); j++)
			CHECK(like_ref(src[i], &b, to[j], 0, &dg) != 1);
		like_ref(src[i], &b, "ISO-8859-1", 1, &dg);
		/* back to UTF-8: the text again */
		k_expect(&w, "UTF-8", t.p + 39, t.n - 39);
		k_xlate(b.p, b.n, "UTF-8", 0, NULL, 0, 0, &out, &dg);
		CHECK(out.n == w.n && memcmp(out.p, w.p, w.n) == 0);
	}
	t.n = b.n = 0;
	bstr(&t, "<?xml version=\"1.0\" encoding=\"UTF-32\"?>\n<r>\n");
	lines(&t, 900);
	bstr(&t, "a\001b\n");
	bput(&b, bom[2], 4);
	brecode(&b, "UTF-32LE", t.p, t.n);
	bput(&b, "\000\330\000\000x\000\000\000\r\000\000\000\n\000\000\000"
	    "\000\000\021\000</r>", 24);
	k_same("UTF-32 errors", b.p, b.n, NULL, NULL, 0, &dg);
	CHECK(has(&dg, "illegal-char@") && has(&dg, ":903:2*"));
	like_ref("UTF-32 errors", &b, "UTF-8", 0, &dg);
	bfree(&t);
	bfree(&b);
	bfree(&dg);
	bfree(&out);
	bfree(&w);
}

/* Single-byte sources: CR LF, lone CR, C1 controls, bytes the table
 * lacks, into Unicode and iconv targets, some lacking characters. */
static void
runs_sb(void)
{
	static const char *const to[] = { "UTF-8", "UTF-16LE", "UTF-32BE",
	    "WINDOWS-1252", "IBM037" };
	struct buf b = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	size_t i;
	int k;

	bstr(&b, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\r\n<r>\r\n");
	for (k = 1; k <= 2000; k++)
		bfmt(&b, "<l n=\"%d\">Texte fran\347ais : \340 bient\364t, "
		    "d\351j\340 vu\r\n", k);
	bstr(&b, "a\rb\r\r\nc\n\r\205d</r>\r\n");
	k_same("ISO-8859-1 lines", b.p, b.n, NULL, NULL, 0, &dg);
	CHECK(has(&dg, ":2008:1*1 C1 control U+0085"));
	for (i = 0; i < NELEM(to); i++)
		like_ref("ISO-8859-1 lines", &b, to[i], 0, &dg);
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"windows-1253\"?>\n<r>\n");
	brep(&b, "<l>\341\342\343 abc</l>\n", 3000);
	bstr(&b, "xy\252</r>\n");
	k_same("windows-1253", b.p, b.n, NULL, NULL, 0, &dg);
	CHECK(has(&dg, "illegal-sequence@") && has(&dg, ":3003:3*"));
	like_ref("windows-1253", &b, "ISO-8859-7", 0, &dg);
	like_ref("windows-1253", &b, "UTF-8", 0, &dg);
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\r\n<r>\r\n");
	brep(&b, "<l a=\"\327\">\351t\351 \251\r\n\r\367</l>\r\n", 600);
	bstr(&b, "<!-- \327 -->\r\n</r>\r\n");
	CHECK(like_ref("ISO-8859-1 into ISO-8859-7", &b, "ISO-8859-7", 0,
	    &dg) == 1 && has(&dg, ":3:7*1 U+00D7 cannot be written in "
	    "ISO-8859-7"));
	CHECK(like_ref("ISO-8859-1 into ISO-8859-7", &b, "ISO-8859-7", 1,
	    &dg) == 1 && has(&dg, ":1803:6*1 U+00D7 in a comment cannot be "
	    "written"));
	bfree(&b);
	bfree(&dg);
}

/* A multi-byte source (Shift_JIS), decoded in blocks, into iconv
 * targets; the characters ISO-8859-1 lacks. */
static void
runs_sjis(void)
{
	static const char *const to[] = { "EUC-JP", "ISO-2022-JP", "UTF-16LE",
	    "GB18030" };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, dg = { NULL, 0, 0 };
	size_t i;
	int k;

	bstr(&t, "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<r>\n");
	for (k = 1; k <= 600; k++)
		bfmt(&t, "<p n=\"%d\">\346\227\245\346\234\254\350\252\236 text "
		    "\343\201\202</p>\n", k);
	bstr(&t, "<!-- \346\227\245 -->\n</r>\n");
	if (brecode(&b, "SHIFT_JIS", t.p, t.n) < 0) {
		printf("unit: SHIFT_JIS: not in this iconv, not swept\n");
		goto out;
	}
	for (i = 0; i < NELEM(to); i++)
		CHECK(like_ref("Shift_JIS", &b, to[i], 0, &dg) != 1);
	CHECK(like_ref("Shift_JIS", &b, "ISO-8859-1", 0, &dg) == 1 &&
	    has(&dg, ":3:10*1 U+65E5 cannot be written in ISO-8859-1"));
	CHECK(like_ref("Shift_JIS", &b, "ISO-8859-1", 1, &dg) == 1 &&
	    has(&dg, ":603:6*1 U+65E5 in a comment cannot be written"));
out:
	bfree(&t);
	bfree(&b);
	bfree(&dg);
}

void
kern_runs(void)
{
	runs_utf8();
	runs_wide();
	runs_sb();
	runs_sjis();
}

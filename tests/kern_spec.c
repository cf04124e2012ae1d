/*
 * Kernel equivalence: the level loops of tests/spec.bats and
 * tests/spec2.bats, in process: line ends of long EBCDIC text, late
 * declarations in multi-byte encodings decoded a block at a time, across
 * block edges, under every split, and right after a character the '<'
 * cannot finish; every kernel level and feed against the reference
 * (kern_sweep), and the values the bats files asserted.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"

/* The C string s (UTF-8) in the encoding to, into b; 0 if this iconv
 * lacks it or cannot write all of s in it. */
static int
in_enc(struct buf *b, const char *to, const char *s)
{
	iconv_t cd = iconv_open(to, "UTF-8");
	char out[64], *ip = (char *)s, *op;
	size_t il = strlen(s), ol, r;

	b->n = 0;
	if (cd == (iconv_t)-1)
		return 0;
	do {
		op = out;
		ol = sizeof(out);
		r = iconv(cd, &ip, &il, &op, &ol);
		bput(b, out, sizeof(out) - ol);
	} while (r == (size_t)-1 && errno == E2BIG);
	if (r != (size_t)-1) {
		op = out;
		ol = sizeof(out);
		r = iconv(cd, NULL, NULL, &op, &ol);	/* back to ASCII */
		bput(b, out, sizeof(out) - ol);
	}
	iconv_close(cd);
	return r != (size_t)-1;
}

/* spec2.bats, lines: long EBCDIC text, every fast path gives the decoded
 * line of an error (LF is the byte 25 there, and 0A is U+008E). */
static void
spec_ebcdic_lines(void)
{
	static const char *const eb[] = { "IBM037", "IBM500", "IBM1047" };
	struct buf u = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	struct diags dg;
	char line[120];
	size_t e;
	int i;

	for (e = 0; e < NELEM(eb); e++) {
		u.n = 0;
		snprintf(line, sizeof(line), "<?xml version=\"1.0\" "
		    "encoding=\"%s\"?>\n<r>\n", eb[e]);
		bstr(&u, line);
		for (i = 1; i <= 300; i++) {
			snprintf(line, sizeof(line), "<p n=\"%d\">some plain "
			    "text, long enough to fill a vector or two</p>\n",
			    i);
			bstr(&u, line);
		}
		bstr(&u, "\001</r>");
		bbyte(&u, '\0');
		if (!in_enc(&b, eb[e], (const char *)u.p)) {
			printf("  (kern_spec: no %s in iconv: not tried)\n",
			    eb[e]);
			continue;
		}
		kern_sweep(eb[e], b.p, b.n, NULL);
		kern_default(&b, &dg);
		kern_first(&dg, "illegal-char", KANY, 303, 1, 1);
		CHECK(strcmp(dg.d[D_ILLEGAL_CHAR].msg, "U+0001 is not an XML "
		    "Char (XML 1.0 [2]); remove it") == 0);
	}
	bfree(&u);
	bfree(&b);
}

/* The splits of spec.bats (a pipe read in pieces of these sizes), every
 * level, against the reference reading it whole. */
static void
splits(const char *label, const struct buf *b)
{
	static const size_t sizes[] = { 1, 2, 3, 5, 8, 13, 21, 34, 55, 60,
	    62, 64, 70, 80 };
	struct kfeed f;
	char what[80], *ref, *got;
	size_t i;
	int l;

	simd_init("ref");
	ref = kern_run(b->p, b->n, NULL, &kern_feeds[0], 0, NULL);
	for (l = 0; l < unit_nlevels; l++) {
		simd_init(unit_levels[l]);
		for (i = 0; i < NELEM(sizes); i++) {
			f.name = "split";
			f.first = f.step = sizes[i];
			f.pipe = 1;
			got = kern_run(b->p, b->n, NULL, &f, 0, NULL);
			snprintf(what, sizeof(what), "%s, pieces of %zu",
			    unit_levels[l], sizes[i]);
			kern_same(label, what, ref, got);
			free(got);
		}
	}
	free(ref);
	simd_init(NULL);
}

/* spec.bats, late declaration: every split gives the same answer in
 * UTF-8, single-byte, EBCDIC and multi-byte encodings. */
static void
spec_late_splits(void)
{
	static const char *const enc[][2] = { { "UTF-8", "" },
	    { "windows-1252", "\303\251" }, { "IBM500", "\303\251" },
	    { "Shift_JIS", "\346\254\241" }, { "ISO-2022-JP", "\346\254\241" } };
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	char doc[200];
	size_t e;

	for (e = 0; e < NELEM(enc); e++) {
		snprintf(doc, sizeof(doc), "<?xml version=\"1.0\"%s%s%s?><!-- c "
		    "--><a>%s<![CDATA[<?xml ?>]]></a><?xml version=\"1.0\"?>",
		    e > 0 ? " encoding=\"" : "", e > 0 ? enc[e][0] : "",
		    e > 0 ? "\"" : "", enc[e][1]);
		if (!in_enc(&b, enc[e][0], doc)) {
			printf("  (kern_spec: no %s in iconv: not tried)\n",
			    enc[e][0]);
			continue;
		}
		kern_default(&b, &dg);
		if (!CHECK(dg.d[D_DECL_NOT_AT_START].count == 1))
			printf("  (late declaration missed in %s)\n",
			    enc[e][0]);
		splits(enc[e][0], &b);
		kern_sweep(enc[e][0], b.p, b.n, NULL);
	}
	bfree(&b);
}

/* spec.bats, late declaration: multi-byte blocks decoded at once give
 * the offsets of a character at a time, also across every block edge
 * near 4096. */
static void
spec_late_blocks(void)
{
	static const char *const enc[] = { "Shift_JIS", "EUC-JP", "GB18030",
	    "BIG5" };
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	struct mt mt;
	char ct[80], err[200], label[80];
	size_t e, k;

	for (e = 0; e < NELEM(enc); e++) {
		if (!in_enc(&b, enc[e], "x")) {
			printf("  (kern_spec: no %s in iconv: not tried)\n",
			    enc[e]);
			continue;
		}
		snprintf(ct, sizeof(ct), "text/xml; charset=%s", enc[e]);
		if (!CHECK(mt_parse(ct, &mt, err, sizeof(err)) == 0))
			continue;
		b.n = 0;
		bstr(&b, "<?xm\377\377l encoding=\"x\"?><a/>");
		kern_sweep(ct, b.p, b.n, &mt);
		for (k = 4090; k <= 4096; k++) {
			if (k == 4091)
				continue;
			b.n = 0;
			bstr(&b, "<?xml version=\"1.0\" encoding=\"");
			bstr(&b, enc[e]);
			bstr(&b, "\"?><a>");
			bbytes(&b, 'x', k - 46 - strlen(enc[e]));
			bstr(&b, "</a><?xml version=\"1.0\"?>");
			snprintf(label, sizeof(label), "%s, late at %zu",
			    enc[e], k);
			kern_sweep(label, b.p, b.n, NULL);
			kern_default(&b, &dg);
			CHECK(dg.d[D_DECL_NOT_AT_START].count == 1);
		}
	}
	bfree(&b);
}

/* spec.bats, found by fuzzing: a late declaration right after the start
 * of a character the '<' cannot finish; the validator is fed up to it,
 * and what it held back must still be judged. */
static void
spec_late_cut(void)
{
	struct buf b = { NULL, 0, 0 };
	struct diags dg;
	const char *d = "<?xml version=\"1.0\"?>";

	bstr(&b, "<a>x\341<?xml version=\"1.0\"?>\001</a>");
	kern_sweep("UTF-8 lead before a late declaration", b.p, b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 4, 1, 5, 1);
	kern_first(&dg, "decl-not-at-start", 5, 1, 6, KANY);
	kern_first(&dg, "illegal-char", 26, 1, 27, KANY);
	b.n = 0;
	bstr(&b, "\377\376");
	bunit(&b, '<', 2, 0);
	bunit(&b, 'a', 2, 0);
	bunit(&b, '>', 2, 0);
	bunit(&b, 0xD800, 2, 0);
	for (; *d != '\0'; d++)
		bunit(&b, (unsigned char)*d, 2, 0);
	bunit(&b, 1, 2, 0);
	kern_sweep("UTF-16 high surrogate before a late declaration", b.p,
	    b.n, NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 8, 1, 4, KANY);
	kern_first(&dg, "decl-not-at-start", 10, 1, 5, KANY);
	CHECK(dg.d[D_ILLEGAL_CHAR].count > 0);
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a>\202"
	    "<?xml version=\"1.0\"?>\001</a>");
	kern_sweep("Shift_JIS lead before a late declaration", b.p, b.n,
	    NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "illegal-sequence", 45, 1, 46, KANY);
	kern_first(&dg, "decl-not-at-start", 46, 1, 47, KANY);
	CHECK(dg.d[D_ILLEGAL_CHAR].count > 0);
	/* spec.bats, found across read buffers: a megabyte and a half of
	 * text, then a late declaration. */
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\"?>\n<a>");
	bbytes(&b, 'x', 1500000);
	bstr(&b, "</a>\n<?xml version=\"1.0\"?>");
	kern_sweep("a late declaration past the read buffers", b.p, b.n,
	    NULL);
	kern_default(&b, &dg);
	kern_first(&dg, "decl-not-at-start", 1500030, 3, 1, KANY);
	bfree(&b);
}

void
kern_spec(void)
{
	spec_ebcdic_lines();
	spec_late_splits();
	spec_late_blocks();
	spec_late_cut();
	simd_init(NULL);
}

/*
 * Kernel equivalence: the sweeps of tests/fastpath.bats that analyse
 * (validation, line ends, late declarations, error-dense text), every
 * kernel level against the reference, in process (tests/kern.h); the
 * transcoding and mojibake sweeps are in kern_xc.c and kern_moj.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"
#include "kern_fast.h"

/* UTF-8 text t as UTF-16 (be: big-endian) after its BOM. */
static void
utf16(struct buf *b, int be, const struct buf *t)
{
	bstr(b, be ? "\376\377" : "\377\376");
	brecode(b, be ? "UTF-16BE" : "UTF-16LE", t->p, t->n);
}

/* Clean text, each kind of UTF-8 error deep in it, a sequence cut by the
 * end, UTF-16 with errors: split inside the bad sequence too. */
static void
fp_errors(void)
{
	static const char *const bad[] = {
		"\300\200", "\340\200\200", "\355\240\200", "\364\220\200\200",
		"\357\277\276", "\357\277\277", "\001", "\r\n", "\302",
		"\377", "\200"
	};
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t i, at, cuts[3];

	mktext(&b, 300);
	k_same("clean UTF-8", b.p, b.n, NULL, NULL, 0, &r);
	CHECK(strcmp((char *)r.p, "UTF-8 0 0 0\n") == 0);
	for (i = 0; i < NELEM(bad); i++) {
		b.n = 0;
		mktext(&b, 97);
		at = b.n + 1;
		bfmt(&b, "x%s y", bad[i]);
		mktext(&b, 5);
		cuts[0] = at;
		cuts[1] = at + 1;
		cuts[2] = at + 2;
		k_same(bad[i], b.p, b.n, NULL, cuts, 3, &r);
		CHECK(has(&r, i == 7 ? "UTF-8 0 0" : "UTF-8 1 0"));
	}
	b.n = 0;
	mktext(&b, 40);
	bstr(&b, "abc\346\227");
	k_same("cut by the end", b.p, b.n, NULL, NULL, 0, &r);
	CHECK(has(&r, "illegal-sequence@"));
	/* UTF-16LE without a BOM, UTF-16BE with one */
	b.n = t.n = 0;
	mktext(&t, 200);
	brecode(&b, "UTF-16LE", t.p, t.n);
	bput(&b, "\000\330x\000", 4);
	t.n = 0;
	mktext(&t, 3);
	brecode(&b, "UTF-16LE", t.p, t.n);
	k_same("UTF-16LE", b.p, b.n, NULL, NULL, 0, &r);
	CHECK(has(&r, "illegal-sequence@"));
	b.n = t.n = 0;
	mktext(&t, 200);
	utf16(&b, 1, &t);
	bput(&b, "\377\376\000\r\000\n", 6);
	k_same("UTF-16BE", b.p, b.n, NULL, NULL, 0, &r);
	CHECK(has(&r, "UTF-16BE 0 0") || has(&r, "@"));
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* A read boundary inside a character past the head, and the multi-byte
 * encodings decoded in blocks. */
static void
fp_boundary(void)
{
	static const char *const mb[] = { "SHIFT_JIS", "EUC-JP", "GB18030",
	    "BIG5" };
	struct buf b = { NULL, 0, 0 }, t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t i, cuts[4] = { 327680, 327681, 327682, 327683 };
	int k;

	bstr(&b, "<r>");
	while (b.n < 327680 - 1)
		bstr(&b, "a");
	bstr(&b, "\346\227\245");
	mktext(&b, 600);
	bstr(&b, "\377</r>");
	k_same("a read boundary in a character", b.p, b.n, NULL, cuts, 4, &r);
	CHECK(has(&r, "illegal-sequence@"));
	for (i = 0; i < NELEM(mb); i++) {
		b.n = t.n = 0;
		bfmt(&t, "<?xml version=\"1.0\" encoding=\"%s\"?>\n", mb[i]);
		for (k = 1; k <= 1500; k++)
			bfmt(&t, "<p>\346\227\245\346\234\254 text %d</p>\n", k);
		if (brecode(&b, mb[i], t.p, t.n) < 0) {
			printf("unit: %s: not in this iconv, not swept\n", mb[i]);
			continue;
		}
		bstr(&b, "\377\377");
		brecode(&b, mb[i], "x\r\n\001 \346\227\245\n", 10);
		k_same(mb[i], b.p, b.n, NULL, NULL, 0, &r);
		CHECK(has(&r, "illegal-sequence@"));
		CHECK(has(&r, "illegal-char@"));
	}
	bfree(&b);
	bfree(&t);
	bfree(&r);
}

/* What the bats file called block64: 64 lines of 64 characters after a
 * first one, the k-th with a CR at its k-th character and after right
 * after it, each line starting with lead; in the form given. */
static void
block64(struct buf *b, const char *form, const char *after,
    const char *lead)
{
	struct buf t = { NULL, 0, 0 };
	size_t s;
	int k, i;

	bstr(&t, "<r>");
	brep(&t, "y", 60);
	bstr(&t, "\n");
	for (k = 0; k < 64; k++) {
		s = t.n;
		bstr(&t, lead);
		for (i = *lead != '\0'; i < k; i++)
			bstr(&t, "x");
		bstr(&t, "\r");
		bstr(&t, after);
		/* 63 characters (lead is one) */
		while (t.n - s - (*lead != '\0' ? strlen(lead) - 1 : 0) < 63)
			bstr(&t, "z");
		bstr(&t, "\n");
	}
	bstr(&t, "</r>\n");
	if (strcmp(form, "UTF-8") == 0)
		bput(b, t.p, t.n);
	else if (strncmp(form, "UTF-16", 6) == 0)
		utf16(b, form[6] == 'B', &t);
	else {
		bfmt(b, "<?xml version=\"1.0\" encoding=\"%s\"?>", form);
		brecode(b, form, t.p, t.n);
	}
	bfree(&t);
}

/* CR LF, lone CR, CR CR and CR before a bad character at every offset of
 * a 64-byte block, every occurrence listed, in every form. */
static void
fp_crlf(void)
{
	static const char *const forms[] = { "UTF-8", "UTF-16LE", "UTF-16BE",
	    "ISO-8859-1", "windows-1252", "KOI8-R" };
	static const char *const afters[] = { "\n", "w" };
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 }, u = { NULL, 0, 0 };
	size_t f, l, a;
	char label[128];

	unit_keep(DIAG_MAX_MAX, 1);
	for (f = 0; f < NELEM(forms); f++)
		for (l = 0; l < 2; l++) {
			const char *lead = l == 0 ? "" : f == 5 ?
			    "\320\226" : "\303\251";

			for (a = 0; a < NELEM(afters); a++) {
				snprintf(label, sizeof(label), "block64 %s "
				    "lead %zu after %zu", forms[f], l, a);
				b.n = 0;
				block64(&b, forms[f], afters[a], lead);
				k_same(label, b.p, b.n, NULL, NULL, 0, &r);
				CHECK(has(&r, " 0 0 0\n") && !has(&r, "@"));
				u.n = 0;
				brecode(&u, forms[f], "\001", 1);
				bput(&b, u.p, u.n);
				k_same(label, b.p, b.n, NULL, NULL, 0, &r);
				CHECK(nhas(&r, "illegal-char@") == 1);
			}
			b.n = 0;
			block64(&b, forms[f], "\r\001", lead);
			k_same(forms[f], b.p, b.n, NULL, NULL, 0, &r);
			CHECK(has(&r, ":4:1*64 "));
			CHECK(nhas(&r, "illegal-char@") == 64);
			b.n = 0;
			block64(&b, forms[f], "\001\n", lead);
			k_same(forms[f], b.p, b.n, NULL, NULL, 0, &r);
			CHECK(has(&r, ":3:1*64 "));
		}
	/* the positions themselves: two line ends a line */
	b.n = 0;
	block64(&b, "UTF-8", "\001", "");
	k_same("block64 U+0001", b.p, b.n, NULL, NULL, 0, &r);
	CHECK(nhas(&r, "illegal-char@") == 64);
	CHECK(has(&r, ":3:1*64 U+0001 is not an XML Char"));
	CHECK(has(&r, ":129:1*0 U+0001"));
	unit_keep(0, 0);
	bfree(&b);
	bfree(&u);
	bfree(&r);
}

/* Single-byte text: a CR LF or CR CR across the end of the last whole
 * vector block, after 0 to 40 bytes. */
static void
fp_sb_pair(void)
{
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	int pad, cr;

	unit_keep(DIAG_MAX_MAX, 1);
	for (pad = 0; pad <= 40; pad++)
		for (cr = 0; cr < 2; cr++) {
			b.n = 0;
			bstr(&b, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
			    "<r>");
			brep(&b, "a", (size_t)pad);
			bstr(&b, cr ? "\r\r" : "\r\n");
			bstr(&b, "bcd\001</r>");
			k_same("a pair across a block", b.p, b.n, NULL, NULL, 0,
			    &r);
			CHECK(has(&r, cr ? ":3:4*1 " : ":2:4*1 "));
		}
	unit_keep(0, 0);
	bfree(&b);
	bfree(&r);
}

/* The entity around text: the UTF-8 declaration and <doc>. */
static void
entity(struct buf *b, const struct buf *t)
{
	bstr(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n");
	bput(b, t->p, t->n);
	bstr(b, "</doc>\n");
}

/* Mixed LF, CR LF and lone CR lines, errors and a late declaration after
 * a CR, in UTF-8, UTF-16LE and UTF-16BE. */
static void
fp_mixed(void)
{
	struct buf t = { NULL, 0, 0 }, e = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	struct buf tail = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	int f, be;

	unit_keep(DIAG_MAX_MAX, 1);
	for (f = 1; f <= 3; f++) {
		t.n = e.n = tail.n = b.n = 0;
		mixed(&t, (unsigned long)f, 250, f);
		entity(&e, &t);
		mixed(&tail, (unsigned long)f + 10, 50, 2);
		bput(&b, e.p, e.n);
		bstr(&b, "x\r\001\r\n\377\r<?xml version=\"1.0\"?>\r");
		bput(&b, tail.p, tail.n);
		k_same("mixed UTF-8", b.p, b.n, NULL, NULL, 0, &r);
		CHECK(has(&r, "illegal-sequence@") && has(&r, "illegal-char@")
		    && has(&r, "decl-not-at-start@"));
		for (be = 0; be < 2; be++) {
			b.n = 0;
			utf16(&b, be, &e);
			/* a lone high surrogate for the bad byte */
			bput(&b, be ? "\000x\000\r\000\001\000\r\000\n\330\000"
			    "\000\r" : "x\000\r\000\001\000\r\000\n\000\000\330"
			    "\r\000", 14);
			brecode(&b, be ? "UTF-16BE" : "UTF-16LE",
			    "<?xml version=\"1.0\"?>\r", 22);
			brecode(&b, be ? "UTF-16BE" : "UTF-16LE", tail.p,
			    tail.n);
			k_same("mixed UTF-16", b.p, b.n, NULL, NULL, 0, &r);
			CHECK(has(&r, "illegal-sequence@") &&
			    has(&r, "illegal-char@") &&
			    has(&r, "decl-not-at-start@"));
		}
	}
	unit_keep(0, 0);
	bfree(&t);
	bfree(&e);
	bfree(&b);
	bfree(&tail);
	bfree(&r);
}

/* The number of CR bytes in t. */
static int
ncr(const struct buf *t)
{
	size_t i;
	int k = 0;

	for (i = 0; i < t->n; i++)
		k += t->p[i] == '\r';
	return k;
}

/*
 * The read boundaries of fp_cr_read8(): the cuts say where they are, so
 * that the input need not be as big as a read (and the reference's runs
 * look for a CR past each, so that text with a CR on every line costs it
 * time by the square of its length: keep it short).
 */
#define READ	16384

/* A CR as the last character of a read, or the one before it, before an
 * LF, a character, a bad one, a CR LF: UTF-8. */
static void
fp_cr_read8(void)
{
	static const char *const tails[] = { "\n", "b", "\001", "\377",
	    "\r\n" };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t at, i, cuts[3];
	char want[128];
	int n;

	mixed(&t, 5, 60, 1);
	n = ncr(&t);
	unit_keep(DIAG_MAX_MAX, 1);
	for (at = t.n + 100; at < t.n + 102; at++)
		for (i = 0; i < NELEM(tails); i++) {
			b.n = 0;
			bstr(&b, "<r>");
			bput(&b, t.p, t.n);
			while (b.n < at)
				bstr(&b, "a");
			bstr(&b, "\r");
			bstr(&b, tails[i]);
			bput(&b, t.p, t.n);
			while (b.n < at + READ)
				bstr(&b, "a");
			bstr(&b, "\r\n\002</r>\r\n");
			cuts[0] = at + 1;
			cuts[1] = at + READ + 1;
			cuts[2] = at + READ + 2;
			k_same("CR at a read's end", b.p, b.n, NULL, cuts, 3,
			    &r);
			if (i == 2 || i == 3) {
				snprintf(want, sizeof(want), "@%zu:%d:1*", at + 1,
				    n + 2);
				if (!CHECK(has(&r, want)))
					printf("  (want %s: %s)\n", want, r.p);
			}
			snprintf(want, sizeof(want), "@%zu:%d:1*", at + READ + 2,
			    2 * n + 3 + (i == 4));
			if (!CHECK(has(&r, want)))
				printf("  (want %s: %s)\n", want, r.p);
		}
	unit_keep(0, 0);
	bfree(&t);
	bfree(&b);
	bfree(&r);
}

/* The same in UTF-16: the CR the last unit of a read, or the one before. */
static void
fp_cr_read16(void)
{
	static const char *const tails[] = { "\n\000", "b\000", "\001\000",
	    "\000\330", "\r\000\n\000" };
	struct buf t = { NULL, 0, 0 }, u = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	struct buf r = { NULL, 0, 0 };
	size_t at, i, k, len, cuts[2];
	int be;

	mixed(&t, 6, 40, 1);
	unit_keep(DIAG_MAX_MAX, 1);
	for (be = 0; be < 2; be++) {
		u.n = 0;
		brecode(&u, be ? "UTF-16BE" : "UTF-16LE", t.p, t.n);
		for (at = 2 * t.n + 100; at <= 2 * t.n + 102; at += 2)
			for (i = 0; i < NELEM(tails); i++) {
				b.n = 0;
				utf16(&b, be, &(struct buf){ (unsigned char *)
				    "<r>", 3, 0 });
				bput(&b, u.p, u.n);
				while (b.n < at)
					bput(&b, be ? "\000a" : "a\000", 2);
				bput(&b, be ? "\000\r" : "\r\000", 2);
				len = i == 4 ? 4 : 2;
				for (k = 0; k < len; k += 2) {
					unsigned char c[2] = { tails[i][k],
					    tails[i][k + 1] };

					bput(&b, c + be, 1);
					bput(&b, c + !be, 1);
				}
				bput(&b, u.p, u.n);
				cuts[0] = at + 2;
				cuts[1] = at + 3;
				k_same("UTF-16 CR at a read's end", b.p, b.n, NULL,
				    cuts, 1 + (i & 1), &r);
			}
	}
	unit_keep(0, 0);
	bfree(&t);
	bfree(&u);
	bfree(&b);
	bfree(&r);
}

/* What the bats file called latin_runs: 192 runs of Latin, CJK and emoji
 * text each ended by U+0001, the k-th k bytes longer than the first,
 * with eol after every 37th character. */
static void
latin_runs(struct buf *b, const char *eol)
{
	static const char *const ch[] = { "a", "\303\251", "b",
	    "\346\227\245", "c", "\360\237\230\200", "d", "\303\274" };
	size_t k, j, s;
	const char *c;

	bstr(b, "<r>\n");
	for (k = 0; k < 192; k++) {
		s = b->n;
		for (j = 0; b->n - s < 150 + k; j++) {
			c = ch[(j * 7 + k) % 8];
			if (b->n - s + strlen(c) > 150 + k)
				c = "e";
			bstr(b, c);
			if (j % 37 == 36 && b->n - s < 150 + k)
				bstr(b, eol);
		}
		bstr(b, "\001");
	}
	bstr(b, "\n</r>\n");
}

/* Latin, CJK and emoji runs ended by a bad character at every offset of
 * two 64-byte steps, LF, CR LF and CR lines, in the three forms. */
static void
fp_latin_runs(void)
{
	static const char *const eols[] = { "\n", "\r\n", "\r" };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t e;
	int form;

	unit_keep(DIAG_ALL_MAX, 0);
	for (e = 0; e < NELEM(eols); e++) {
		t.n = 0;
		latin_runs(&t, eols[e]);
		for (form = 0; form < 3; form++) {
			b.n = 0;
			if (form == 0)
				bput(&b, t.p, t.n);
			else
				utf16(&b, form == 2, &t);
			k_same("latin runs", b.p, b.n, NULL, NULL, 0, &r);
			CHECK(nhas(&r, "illegal-char@") == 192);
			CHECK(has(&r, "*192 "));
		}
		/* the positions themselves, for LF and lone CR */
		if (e == 1)
			continue;
		b.n = 0;
		simd_init("ref");
		k_analyse(t.p, t.n, NULL, NULL, 0, -1, &b);
		CHECK(has(&b, ":4:6*192 "));
		CHECK(has(&b, ":6:6*0 "));
		CHECK(has(&b, ":8:7*0 "));
		CHECK(has(&b, ":580:32*0 "));
		simd_init(NULL);
	}
	unit_keep(0, 0);
	bfree(&t);
	bfree(&b);
	bfree(&r);
}

/*
 * The run kernels themselves (plain_utf8, plain_utf16), called on text
 * whose CR (before an LF, a character, another CR) falls at every offset
 * of two 64-byte blocks counted from the start of what they are given,
 * after ASCII or after two-byte characters: the same length, lines and
 * column at every level as the portable one, none (ref's runs stop at
 * each CR: the validator then goes on a character at a time).
 */
static void
fp_kernels(void)
{
	static const char *const afters[] = { "\n", "w", "\r" };
	struct buf t = { NULL, 0, 0 }, w = { NULL, 0, 0 };
	uint64_t l0 = 0, c0 = 0, l, c;
	size_t r0 = 0, r, k, a;
	int lead, form, i;

	for (lead = 0; lead < 2; lead++)
		for (k = 0; k < 128; k++)
			for (a = 0; a < NELEM(afters); a++) {
				t.n = 0;
				while (t.n < k)
					bstr(&t, lead && t.n + 2 <= k ? "\303\251" :
					    "x");
				bstr(&t, "\r");
				bstr(&t, afters[a]);
				while (t.n < 200)
					bstr(&t, lead ? "\303\251" : "z");
				bstr(&t, "\001");
				for (form = 0; form < 3; form++) {
					w.n = 0;
					if (form == 0)
						bput(&w, t.p, t.n);
					else
						brecode(&w, form == 1 ? "UTF-16LE" :
						    "UTF-16BE", t.p, t.n);
					for (i = -1; i < unit_nlevels; i++) {
						if (i >= 0 && strcmp(unit_levels[i],
						    "ref") == 0)
							continue;
						simd_init(i < 0 ? "none" :
						    unit_levels[i]);
						l = c = 1;
						r = form == 0 ? plain_utf8(w.p, w.n,
						    &l, &c) : plain_utf16(w.p, w.n,
						    form == 2, &l, &c);
						if (i < 0) {
							r0 = r;
							l0 = l;
							c0 = c;
						} else if (!CHECK(r == r0 &&
						    l == l0 && c == c0))
							printf("  (%s, form %d, "
							    "CR at %zu: %zu %llu:%llu,"
							    " not %zu %llu:%llu)\n",
							    unit_levels[i], form, k,
							    r, (unsigned long long)l,
							    (unsigned long long)c, r0,
							    (unsigned long long)l0,
							    (unsigned long long)c0);
					}
				}
			}
	simd_init(NULL);
	bfree(&t);
	bfree(&w);
}

/*
 * plain_utf8() of p[0..n) at every level but ref (whose runs stop at
 * each CR) against its definition a character at a time
 * (plain_utf8_ref): the first level whose answer differs, with it in *r,
 * *l, *c and the definition's in *r0, *l0, *c0; NULL when all agree.
 */
static const char *
plain8_levels(const unsigned char *p, size_t n, size_t *r, uint64_t *l,
    uint64_t *c, size_t *r0, uint64_t *l0, uint64_t *c0)
{
	int i;

	*l0 = *c0 = 1;
	*r0 = plain_utf8_ref(p, n, l0, c0);
	for (i = 0; i < unit_nlevels; i++) {
		if (strcmp(unit_levels[i], "ref") == 0)
			continue;
		simd_init(unit_levels[i]);
		*l = *c = 1;
		*r = plain_utf8(p, n, l, c);
		if (*r != *r0 || *l != *l0 || *c != *c0)
			return unit_levels[i];
	}
	return NULL;
}

/*
 * The UTF-8 run kernel (plain_utf8) at every level against its
 * definition a character at a time (plain_utf8_ref): after text of one,
 * two, three or four bytes a character of every length up to 160, a
 * sequence that ends a run or may (the non-Chars U+FFFE and U+FFFF and
 * their neighbours, controls, CR, TAB, each kind of bad UTF-8), then more
 * text; from four starts, so that every byte of it falls at every offset
 * of the kernels' blocks and pairs of blocks.
 */
static void
fp_plain8(void)
{
	static const char *const texts[] = { "x", "\303\251", "\346\227\245",
	    "\360\237\230\200", "a\303\251\346\227\245 " };
	static const char *const events[] = {
		"\357\277\276", "\357\277\277", "\357\277\275", "\357\276\277",
		"\357\274\201", "\001", "\t", "\r", "\r\n", "\n\r",
		"\300\200", "\340\200\200", "\355\240\200", "\364\220\200\200",
		"\302", "\200", "\377", "\346\227"
	};
	struct buf t = { NULL, 0, 0 };
	uint64_t l0, c0, l, c;
	size_t x, e, k, s, r0, r;
	const char *lev;
	int fail = 0;

	for (x = 0; x < NELEM(texts) && !fail; x++)
		for (e = 0; e < NELEM(events) && !fail; e++)
			for (k = 0; k <= 160 && !fail; k++) {
				t.n = 0;
				bstr(&t, "abc");
				while (t.n < k + 3)
					bstr(&t, texts[x]);
				bstr(&t, events[e]);
				while (t.n < 320)
					bstr(&t, texts[(x + 1) % NELEM(texts)]);
				for (s = 0; s < 4 && !fail; s++) {
					lev = plain8_levels(t.p + s, t.n - s, &r,
					    &l, &c, &r0, &l0, &c0);
					if (!CHECK(lev == NULL)) {
						fail = 1;
						printf("  (%s: text %zu, event %zu at "
						    "%zu, start %zu: %zu %llu:%llu, "
						    "not %zu %llu:%llu)\n", lev, x, e,
						    k, s, r, (unsigned long long)l,
						    (unsigned long long)c, r0,
						    (unsigned long long)l0,
						    (unsigned long long)c0);
					}
				}
			}
	simd_init(NULL);
	bfree(&t);
}

/*
 * The UTF-8 run kernel once the text has shown a CR or a TAB, which
 * plain_utf8_avx2 then seeks in every block (u8_pairs's ctab,
 * ascii_pairs's cr): Latin, CJK, Cyrillic and ASCII text with CR LF
 * lines, lone CRs or TAB indents, then each byte
 * 00..1F and 7F (the controls are no Char but TAB, LF and CR) at every
 * offset of two pairs of blocks, at every level against the definition.
 */
static void
fp_ctab(void)
{
	static const char *const texts[] = { "d\303\251j\303\240 ",
	    "\346\227\245\346\234\254", "\320\264\320\260 ",
	    "<a>text</a> " };
	static const char *const shows[] = { "\r\n", "\t", "\r" };
	struct buf t = { NULL, 0, 0 };
	uint64_t l0, c0, l, c;
	size_t x, w, k, r0, r, reps;
	const char *lev;
	int ctl, fail = 0;

	for (x = 0; x < NELEM(texts) && !fail; x++)
		for (w = 0; w < NELEM(shows) && !fail; w++)
			for (ctl = 0; ctl <= 0x20 && !fail; ctl++)
				for (k = 0; k < 256 && !fail; k++) {
					t.n = 0;
					bstr(&t, "abc");
					/* lines of three texts, the first
					 * blocks with and without a CR or TAB */
					for (reps = 1; t.n < 80 + k; reps++) {
						bstr(&t, texts[x]);
						if (reps % 3 == 0)
							bstr(&t, shows[w]);
					}
					{
						unsigned char z = (unsigned char)
						    (ctl == 0x20 ? 0x7F : ctl);

						bput(&t, &z, 1);
					}
					while (t.n < 420) {
						bstr(&t, texts[x]);
						if (t.n % 7 == 0)
							bstr(&t, shows[w]);
					}
					lev = plain8_levels(t.p, t.n, &r, &l, &c,
					    &r0, &l0, &c0);
					if (!CHECK(lev == NULL)) {
						fail = 1;
						printf("  (%s: text %zu, %zu, byte "
						    "%02X at %zu: %zu %llu:%llu, not "
						    "%zu %llu:%llu)\n", lev, x, w, ctl,
						    k, r, (unsigned long long)l,
						    (unsigned long long)c, r0,
						    (unsigned long long)l0,
						    (unsigned long long)c0);
					}
				}
	simd_init(NULL);
	bfree(&t);
}

void
kern_fastpath(void)
{
	fp_kernels();
	fp_plain8();
	fp_ctab();
	fp_errors();
	fp_boundary();
	fp_crlf();
	fp_sb_pair();
	fp_mixed();
	fp_cr_read8();
	fp_cr_read16();
	fp_latin_runs();
	kern_errdense();
	kern_moj();
	kern_late();
	kern_xc();
	simd_init(NULL);
}

/*
 * Kernel equivalence of the search for late declarations (late.c and the
 * late_find kernels): markup-heavy text, whose comments, CDATA sections
 * and processing instructions the fast levels take whole (late.c,
 * skip_whole) and level ref a character at a time, the bytes arriving up
 * to every offset of its trickiest part, in UTF-8, in an 8-bit encoding
 * and in UTF-16 and UTF-32 of both orders; every level as the
 * reference.  And the marks of UTF-8 that
 * the validator finds for the late lexer and the mojibake scan in one
 * pass (marks8), at every level against their definition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"
#include "kern_fast.h"

/* Markup that ends where the lexer says, not where it looks to: empty and
 * odd comments, "]]]>", PIs with a '?' first, targets that begin "xml"
 * and are none, and "<?xml" inside each, which is text there. */
const char *const late_tricky[] = {
	"<!---->", "<!-- a --->", "<!-->x-->", "<!--->y-->",
	"<![CDATA[a]]]>", "<![CDATA[]]>", "<![CDAT <x/>", "<?\?>", "<?xm?>",
	"<?xml-stylesheet href='s.css'?>", "<?pi <?xml version='1.0'?> ?>",
	"<!-- <?xml version=\"1.0\"?> -->",
	"<![CDATA[<?xml version=\"1.0\"?>]]>", "<!DOCTYPE d [<!-- ] -->]>",
	"<?p ?? >?>", "<!--> <?xml version=\"1.0\"?> -->",
	"<!---> <?xml version=\"1.0\"?> -->",
	"<![CDATA[]]]] ]> <?xml version=\"1.0\"?>]]>",
	"<?p ? > <?xml version=\"1.0\"?>", "<?xmlx <?xml version='1.0'?>",
	"<?> <?xml version='1.0'?> ?>"
};
const size_t late_ntricky = NELEM(late_tricky);

/* A line of markup-heavy text in UTF-8 (k picks its parts). */
static void
markup_line(struct buf *b, unsigned k)
{
	bfmt(b, "<p id=\"i%u\" class=\"c\">w\303\251rd <b>\305\241</b>", k);
	switch (k % 5) {
	case 0:
		bfmt(b, "<!-- note %u -->", k);
		break;
	case 1:
		bstr(b, "<![CDATA[a < b && c]]>");
		break;
	case 2:
		bfmt(b, "<?pi %u?>", k);
		break;
	case 3:
		bstr(b, late_tricky[k / 5 % late_ntricky]);
		break;
	default:
		bstr(b, "<i/>&amp;&#x17D;");
		break;
	}
	bstr(b, " \305\276\303\241k</p>\n");
}

/*
 * The text with a late declaration after it (or none), in UTF-8, as
 * ISO-8859-2 and in the 16- and 32-bit forms, with the bytes cut at
 * offsets all through a stretch holding
 * every tricky piece: the same answer at every level as the reference's,
 * the declaration found exactly when it is there.
 */
static void
late_markup(void)
{
	/* the 16- and 32-bit forms cut at every byte (UTF-16LE) or every
	 * third or fifth, which meets every place in a unit */
	static const char *const encs[] = { "UTF-8", "ISO-8859-2", "UTF-16LE",
	    "UTF-16BE", "UTF-32LE", "UTF-32BE" };
	static const size_t steps[] = { 1, 1, 1, 3, 5, 7 };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	struct buf x = { NULL, 0, 0 };
	size_t e, at, from, to, cut;
	unsigned k;
	int late;

	for (e = 0; e < NELEM(encs); e++)
		for (late = 0; late < 2; late++) {
			t.n = b.n = 0;
			bfmt(&t, "<?xml version=\"1.0\" encoding=\"%s\"?>\n<d>\n",
			    encs[e]);
			for (k = 0; k < 40; k++)
				markup_line(&t, k);
			from = t.n;
			for (k = 0; k < late_ntricky; k++)
				bfmt(&t, "%s<q>%u</q>", late_tricky[k], k);
			to = t.n;
			for (k = 40; k < 80; k++)
				markup_line(&t, k);
			if (late)
				bstr(&t, "<?xml version=\"1.0\"?>");
			bstr(&t, "</d>\n");
			if (e == 0)
				bput(&b, t.p, t.n);
			else if (brecode(&b, encs[e], t.p, t.n) < 0) {
				printf("unit: %s: not in this iconv, not swept\n",
				    encs[e]);
				continue;
			}
			/* the stretch where the recoded text has it */
			if (e > 0) {
				x.n = 0;
				CHECK(brecode(&x, encs[e], t.p, from) == 0);
				from = x.n;
				x.n = 0;
				CHECK(brecode(&x, encs[e], t.p, to) == 0);
				to = x.n;
			}
			for (at = from; at <= to; at += steps[e]) {
				cut = at;
				k_same("markup-heavy text", b.p, b.n, NULL, &cut,
				    1, &r);
				if (!CHECK(has(&r, "decl-not-at-start@") == late))
					printf("  (%s, cut at %zu)\n", encs[e], at);
			}
		}
	bfree(&t);
	bfree(&b);
	bfree(&r);
	bfree(&x);
}

/* The marks of p[0..n) as struct marks defines them, a byte at a time,
 * into m (its lists of cap). */
static void
marks_def(const unsigned char *p, size_t n, struct marks *m)
{
	size_t j;

	m->nlt = m->nmj = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	m->mcov = n > 2 ? n - 2 : 0;
	for (j = 0; j + 1 < n; j++)
		if (p[j] == '<' && (p[j + 1] == '?' || p[j + 1] == '!')) {
			if (m->nlt == m->cap) {
				m->lcov = j;
				break;
			}
			m->lt[m->nlt++] = (uint32_t)j;
		}
	for (j = 0; j + 3 <= n; j++)
		if (moj_exact8(p + j, n - j, 1)) {
			if (m->nmj == m->cap) {
				m->mcov = j;
				break;
			}
			m->mj[m->nmj++] = (uint32_t)j;
		}
}

/* The marks of UTF-16 text p[0..n) (be: big-endian) as marksw() defines
 * them, a byte and a unit at a time, into m (its lists of cap). */
static void
marksw_def(const unsigned char *p, size_t n, int be, struct marks *m)
{
	size_t j, lo = be ? 1 : 0;

	m->nlt = m->nmj = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	for (j = 0; j + lo + 2 < n; j++)
		if (p[j + lo] == '<' && (p[j + lo + 2] == '?' ||
		    p[j + lo + 2] == '!')) {
			if (m->nlt == m->cap) {
				m->lcov = j;
				break;
			}
			m->lt[m->nlt++] = (uint32_t)j;
		}
	for (j = 0; j + 4 <= n; j += 2)
		if (moj_exactw(p + j, n - j, 2, be)) {
			if (m->nmj == m->cap)
				break;
			m->mj[m->nmj++] = (uint32_t)j;
		}
	m->mcov = j;
}

/*
 * The marks of p[0..n) by their definition into *want and at the level
 * in use into *got, lists of cap (at most 10000) each: marks8() (w 0) or
 * marksw() of UTF-16 (w 2; be: big-endian).
 */
static void
marks_both(const unsigned char *p, size_t n, size_t cap, int w, int be,
    struct marks *want, struct marks *got)
{
	static uint32_t l0[10000], m0[10000], l1[10000], m1[10000];

	want->lt = l0;
	want->mj = m0;
	want->hard = 0;
	got->lt = l1;
	got->mj = m1;
	got->hard = 0;
	want->cap = got->cap = cap;
	if (w == 0) {
		marks_def(p, n, want);
		marks8(p, n, got);
	} else {
		marksw_def(p, n, be, want);
		marksw(p, n, 2, be, got);
	}
}

/*
 * Whether marks8() (w 0) or marksw() of UTF-16 (w 2; be: big-endian) of
 * p[0..n) with m->hard is as struct marks defines it (kern_hard_same),
 * against want, the definition of every mark (lists of the same cap):
 * the same candidates, and a list of opens that fills no sooner.
 */
static int
hard_same(const unsigned char *p, size_t n, int w, int be,
    const struct marks *want)
{
	static uint32_t l2[10000], m2[10000], l3[10000], m3[10000];
	struct marks got, all;

	all.lt = l3;
	all.mj = m3;
	all.cap = NELEM(l3);
	got.lt = l2;
	got.mj = m2;
	got.cap = want->cap;
	got.hard = 1;
	if (w == 0) {
		marks_def(p, n, &all);
		marks8(p, n, &got);
	} else {
		marksw_def(p, n, be, &all);
		marksw(p, n, 2, be, &got);
	}
	return got.hard && kern_hard_same(&got, &all) &&
	    got.lcov >= want->lcov && got.nmj == want->nmj &&
	    got.mcov == want->mcov && memcmp(got.mj, want->mj, want->nmj *
	    4) == 0 && got.base == p && got.len == n;
}

/* Whether the marks of p[0..n) are those of their definition, both lists
 * whole (marks_both), and those with m->hard (hard_same). */
static int
marks_same(const unsigned char *p, size_t n, size_t cap, int w, int be)
{
	struct marks want, got;

	marks_both(p, n, cap, w, be, &want, &got);
	return !got.hard && hard_same(p, n, w, be, &want) &&
	    want.nlt == got.nlt && want.nmj == got.nmj &&
	    want.lcov == got.lcov && want.mcov == got.mcov &&
	    memcmp(want.lt, got.lt, want.nlt * 4) == 0 &&
	    memcmp(want.mj, got.mj, want.nmj * 4) == 0 && got.base == p &&
	    got.len == n;
}

/* marks_same() of p + at, n bytes, with lists of each of the ncaps caps,
 * while they agree (level l, round say where, on a failure).  Return
 * whether all did. */
static int
marks_caps(const unsigned char *p, size_t at, size_t n, const size_t *caps,
    size_t ncaps, int w, int be, int l, int round)
{
	size_t c;

	for (c = 0; c < ncaps; c++)
		if (!CHECK(marks_same(p + at, n, caps[c], w, be))) {
			printf("  (%s: round %d at %zu, %zu bytes, cap %zu)\n",
			    unit_levels[l], round, at, n, caps[c]);
			return 0;
		}
	return 1;
}

/* hard_same() of p[0..n) (w, be: as hard_same's) against the definition
 * of every mark, with lists that fill (cap 2) and lists that do not
 * (level l; what: the input, on a failure).  Return whether both passed. */
static int
hard_caps(const unsigned char *p, size_t n, int w, int be, int l,
    const char *what)
{
	static uint32_t l0[10000], m0[10000];
	static const size_t caps[] = { 2, 10000 };
	struct marks want;
	size_t c;

	for (c = 0; c < NELEM(caps); c++) {
		want.lt = l0;
		want.mj = m0;
		want.cap = caps[c];
		if (w == 0)
			marks_def(p, n, &want);
		else
			marksw_def(p, n, be, &want);
		if (!CHECK(hard_same(p, n, w, be, &want))) {
			printf("  (%s: %s, %s, %zu bytes, cap %zu)\n",
			    unit_levels[l], w == 0 ? "UTF-8" : be ?
			    "UTF-16BE" : "UTF-16LE", what, n, caps[c]);
			return 0;
		}
	}
	return 1;
}

/* Text of n characters into q, in UTF-8 (w 0) or UTF-16 (w 2, be:
 * big-endian), of 'a' (f 0) or of Latin (f 1: "\305\237", U+015F), with
 * the ASCII s at character j, cut short by the end; return its bytes. */
static size_t
hard_text(unsigned char *q, size_t n, int f, int w, int be, size_t j,
    const char *s)
{
	size_t k;
	unsigned c;

	for (k = 0; k < n; k++) {
		c = k >= j && k - j < strlen(s) ? (unsigned char)s[k - j] :
		    f == 0 ? 'a' : w == 0 ? (k % 2 == 0 ? 0xC5 : 0x9F) :
		    0x015F;
		if (w == 0)
			q[k] = (unsigned char)c;
		else {
			q[2 * k + be] = (unsigned char)(c & 0xFF);
			q[2 * k + !be] = (unsigned char)(c >> 8);
		}
	}
	return w == 0 ? n : 2 * n;
}

/*
 * marks8() and marksw() of UTF-16, with m->hard, at every level
 * (hard_same) where each open, whole or cut short or a byte off ("<!-a",
 * "<?xm", "<![CDAT"...), is in the last 16 characters of text of every
 * length from 60 to 270 (UTF-16: 30 to 140), in ASCII and in Latin text
 * (whose blocks go different ways); and in random text of the bytes of
 * the opens.
 */
static void
late_marks_hard(void)
{
	static const char *const opens[] = { "<!--", "<!-a", "<!-", "<?a",
	    "<?x", "<?xm", "<?xmL", "<?xml", "<![CDATA[", "<![CDAT", "<![CDATA",
	    "<![CDATAx", "<!D", "<?" };
	static const unsigned char abc[] = { '<', '<', '?', '!', '-', '-',
	    'x', 'm', 'l', '[', 'C', 'D', 'A', 'T', 'a', 0xC3, 0xA9 };
	unsigned char p[600];
	size_t n, j, o, k, lo, hi;
	int l, f, w, ok = 1;

	for (l = 0; l < unit_nlevels && ok; l++) {
		simd_init(unit_levels[l]);
		for (w = 0; w < 3 && ok; w++) {
			lo = w == 0 ? 60 : 30;
			hi = w == 0 ? 270 : 140;
			for (f = 0; f < 2 && ok; f++)
				for (n = lo; n <= hi && ok; n++)
					for (j = n - 16; j < n && ok; j++)
						for (o = 0; o < NELEM(opens) &&
						    ok; o++)
							ok = hard_caps(p,
							    hard_text(p, n, f,
							    w, w == 2, j,
							    opens[o]), w ? 2 :
							    0, w == 2, l,
							    opens[o]);
		}
		krand_seed(2828);
		for (f = 0; f < 40 && ok; f++) {
			for (k = 0; k < 300; k++)
				p[k] = abc[krand(sizeof(abc))];
			for (n = 0; n <= 300 && ok; n++)
				ok = hard_caps(p, n, 0, 0, l, "random");
		}
	}
	simd_init(NULL);
}

/*
 * marks8() at every level (ref's is the two searches of word.c in turn)
 * against its definition on random strings of the bytes that matter, at
 * every length up to 300 and every start in a vector, with lists that
 * fill early and lists that never do.
 */
static void
late_marks(void)
{
	static const unsigned char abc[] = { '<', '<', '?', '!', 'a', 0xC2,
	    0xC3, 0xC3, 0xC5, 0xE2, 0x80, 0x82, 0x92, 0xA0, 0xA1, 0xA9, 0xAC,
	    0x83, 0x9A, '\n' };
	static const size_t caps[] = { 2, 9, 10000 };
	unsigned char p[400];
	size_t n, at;
	int l, round, fail = 0;

	krand_seed(2727);
	for (round = 0; round < 12 && !fail; round++) {
		for (at = 0; at < sizeof(p); at++)
			p[at] = abc[krand(sizeof(abc))];
		for (l = 0; l < unit_nlevels && !fail; l++) {
			simd_init(unit_levels[l]);
			for (at = 0; at < 33 && !fail; at += 1 + round % 4)
				for (n = 0; at + n <= 300 && !fail; n++)
					fail = !marks_caps(p, at, n, caps,
					    NELEM(caps), 0, 0, l, round);
		}
	}
	simd_init(NULL);
}

/*
 * The UTF-8 into q of the sequence k (of MOJ_PAIRS) of moj_pairs_seq(): a
 * lead U+00C3 (2 bytes) or U+00E2 (3 bytes, with a second trail C2 80)
 * encoded twice, "\303\203" or "\303\242", before the pair of bytes k says
 * (its first byte one of C2..DF and E2, its second 80..BF): each pair that
 * begins a trail character, as the first trail, and those that do not.
 * Return its length.
 */
size_t
moj_pairs_seq(size_t k, unsigned char *q)
{
	size_t pair = k / 2, n = 0;
	unsigned b1 = (unsigned)(pair / 64), b2 = 0x80 + (unsigned)(pair % 64);

	q[n++] = 0xC3;
	q[n++] = k % 2 ? 0xA2 : 0x83;
	q[n++] = (unsigned char)(b1 < 30 ? 0xC2 + b1 : 0xE2);
	q[n++] = (unsigned char)b2;
	if (b1 == 30)
		q[n++] = 0x99;	/* E2 80 99, E2 82 99... */
	if (k % 2) {
		q[n++] = 0xC2;
		q[n++] = 0x80;
	}
	return n;
}

/* The text of pair_text() before a sequence: Latin (a C3 letter in
 * every block), ASCII, CJK (E6 97 A5), Polish ("żółw ": a C3 two bytes
 * before a C5 in every block, which takes marks8_avx2 to its MK_EXACT
 * mode and level avx512's to RUN_EXACT). */
static const char *const pair_fill[] = { "\303\251t\303\251 ", "ab<c> ",
	"\346\227\245 ", "\305\274\303\263\305\202w " };

/*
 * Into p: len bytes of the text kind of pair_fill (cut before a lead or
 * continuation where it ends), the sequence k of moj_pairs_seq(), a
 * "<?" and 100 bytes of Latin text.  Return its length.
 */
static size_t
pair_text(unsigned char *p, int kind, size_t len, size_t k)
{
	const char *f = pair_fill[kind];
	size_t n, s, fl = strlen(f);

	for (n = 0; n < len; n++)
		p[n] = (unsigned char)f[n % fl];
	for (; n > 0 && p[n - 1] >= 0x80; n--)
		;
	for (; n < len; n++)
		p[n] = 'x';
	n += moj_pairs_seq(k, p + n);
	memcpy(p + n, "<?", 2);
	n += 2;
	for (s = n; n < s + 100; n++)
		p[n] = (n - s) % 2 ? 0xA9 : 0xC3;
	return n;
}

/* Whether marks8() of p[0..n) at the level in use finds the candidates
 * of its definition (and with lt, the "<?" and "<!" too, at least one),
 * in lists of 64. */
static int
marks_agree(const unsigned char *p, size_t n, int lt)
{
	struct marks want, got;

	marks_both(p, n, 64, 0, 0, &want, &got);
	return want.nmj == got.nmj && want.mcov == got.mcov &&
	    memcmp(want.mj, got.mj, want.nmj * 4) == 0 && (!lt ||
	    (want.nlt == got.nlt && want.nlt > 0 && want.lcov == got.lcov &&
	    memcmp(want.lt, got.lt, want.nlt * 4) == 0));
}

/*
 * marks8() at every level against its definition where each pair of
 * moj_pairs_seq() follows a lead encoded twice: at offsets of a block of
 * 64 after Latin text, and after blocks enough of each kind of text for
 * marks8_avx2 to choose its mode by (MK_ROUND is 16):
 * the vector search that passes over Latin Extended letters must still
 * stop at every trail character, and find the "<?" after it.
 */
static void
late_pairs(void)
{
	/* each lane, about the middle and the end of a block */
	static const size_t offs[] = { 0, 1, 2, 30, 31, 32, 33, 62, 63 };
	static const size_t ends[] = { 0, 32, 63 };
	static unsigned char p[2048];
	size_t k, n, off, o;
	int l, kind, fail = 0;

	for (l = 0; l < unit_nlevels && !fail; l++) {
		simd_init(unit_levels[l]);
		for (k = 0; k < MOJ_PAIRS && !fail; k++)
			for (o = 0; o < NELEM(offs) + 3 * NELEM(pair_fill) &&
			    !fail; o++) {
				/* after Latin text up to a block, then 20
				 * blocks of each kind (offsets 0, 32, 63) */
				kind = o < NELEM(offs) ? 0 :
				    (int)(o - NELEM(offs)) / 3;
				off = o < NELEM(offs) ? offs[o] : 20 * 64 +
				    ends[(o - NELEM(offs)) % 3];
				n = pair_text(p, kind, off, k);
				fail = !CHECK(marks_agree(p, n, 1));
				if (fail)
					printf("  (%s: pair %zu after %zu bytes of "
					    "%s)\n", unit_levels[l], k, off,
					    pair_fill[kind]);
			}
		/* the sequence at the end, cut after each of its bytes
		 * from the third: a candidate the end may cut short */
		for (k = 0; k < MOJ_PAIRS && !fail; k++)
			for (off = 0; off < 7 && !fail; off++) {
				n = pair_text(p, 0, 64 + k % 64, k);
				n -= 102 + off;
				if (n < 64 + k % 64 + 3)
					break;
				fail = !CHECK(marks_agree(p, n, 0));
				if (fail)
					printf("  (%s: pair %zu, %zu bytes, at the "
					    "end)\n", unit_levels[l], k, n);
			}
	}
	simd_init(NULL);
}

/*
 * marks8() at every level against its definition on ASCII markup of more
 * than a KB, which late_marks' strings (300 bytes, half of them bytes
 * from 80 on) never are, and which marks8_avx512 takes 128 bytes a step
 * as far as it is ASCII (ascii_marks5), marks8_avx2 in its mode for text
 * of few C2 and C3: random "<?" and "<!" (and '<' before other
 * bytes) at every offset of a block and across blocks, the ASCII broken
 * by a Latin letter or a mojibake candidate (moj_pairs_seq) after the
 * first KB, every length from 1,100 bytes on, and lists that fill in the
 * ASCII.
 */
static void
late_ascii(void)
{
	static const unsigned char abc[] = { '<', '<', '?', '!', 'a', '>',
	    '\n', ' ' };
	static const size_t caps[] = { 1, 7, 10000 };
	static unsigned char p[1700];
	size_t at, n, brk;
	int l, round, fail = 0;

	krand_seed(1024);
	for (round = 0; round < 48 && !fail; round++) {
		for (at = 0; at < sizeof(p); at++)
			p[at] = abc[krand(sizeof(abc))];
		/* a break in three rounds of four, past the first KB */
		brk = 1024 + krand(400);
		if (round % 4 == 1)
			memcpy(p + brk, "\303\251", 2);
		else if (round % 4 > 1)
			moj_pairs_seq(krand(MOJ_PAIRS), p + brk);
		at = (size_t)round % 3 * 5;
		for (l = 0; l < unit_nlevels && !fail; l++) {
			simd_init(unit_levels[l]);
			for (n = 1100; at + n <= sizeof(p) && !fail;
			    n += 1 + krand(5))
				fail = !marks_caps(p, at, n, caps, NELEM(caps),
				    0, 0, l, round);
		}
	}
	simd_init(NULL);
}

/*
 * marksw() of UTF-16 at every level (avx512's one pass of both
 * searches, marksw16, the others' two in turn) against its definition:
 * random units of the kinds that matter ('<' before '?' and '!', units
 * whose other byte is '<' or '?', C1 controls, leads C2..F4 before trail
 * units of 80..BF and of windows-1252's 27 from 0152 to 2122, and not)
 * in both byte orders, every length to 400 bytes (odd ones too) at four
 * starts, lists of 1, 3 and 10,000.
 */
static void
late_marksw(void)
{
	static const uint16_t abc[] = { '<', '<', '?', '!', 'a', 0x3C00,
	    0x013C, 0x3F00, 0x00C3, 0x00C2, 0x00E2, 0x00F0, 0x0083, 0x0080,
	    0x00A9, 0x00BF, 0x0152, 0x2122, 0x2123, 0x00C1, '\n' };
	static const size_t caps[] = { 1, 3, 10000 };
	unsigned char p[420];
	size_t at, n, k;
	int l, be, round, fail = 0;

	krand_seed(16);
	for (round = 0; round < 16 && !fail; round++) {
		be = round % 2;
		for (k = 0; k + 1 < sizeof(p); k += 2) {
			uint16_t u = abc[krand(NELEM(abc))];

			p[k + !be] = (unsigned char)(u & 0xFF);
			p[k + be] = (unsigned char)(u >> 8);
		}
		for (l = 0; l < unit_nlevels && !fail; l++) {
			simd_init(unit_levels[l]);
			for (at = 0; at < 8 && !fail; at += 2 + (size_t)round % 2)
				for (n = 0; at + n <= 400 && !fail; n++)
					fail = !marks_caps(p, at, n, caps,
					    NELEM(caps), 2, be, l, round);
		}
	}
	simd_init(NULL);
}

void
kern_late(void)
{
	kern_late_runs();
	late_markup();
	late_marks();
	late_marks_hard();
	late_pairs();
	late_ascii();
	late_marksw();
}

/*
 * Kernel equivalence of the late lexer's runs of markup (late_run.h):
 * comments, CDATA sections and PIs back to back, which the levels with a
 * late_run take from the bit masks of windows, against the reference,
 * which lexes them a character at a time; and the walk itself, at every
 * level, against the masks of their definition and what the lexer passes
 * (run_ok).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern_fast.h"
#include "late_run.h"

/* Markup for late_dense(): constructs of every kind, ends the windows of
 * late_run.h see or do not (the long ones), other markup it leaves to the
 * lexer, and a little text. */
static const char *const dense_parts[] = {
	"<!---->", "<!-- c -->", "<?p x?>", "<?\?>", "<![CDATA[x]]>",
	"<!-- a comment that goes on past the window of sixty-four units, "
	"and on -->", "<?pi a processing instruction longer than a window "
	"of sixty-four units ?>", "<![CDATA[a CDATA section ] ]> ]] > "
	"longer than a window of sixty-four units]]>", "<a b='1'/>", "t",
	"\n", "<!ENTITY e 'x'>", "<?xml-model href='m'?>", "<?xmlx?>", "<",
	"<<!-- two -->", "<!-x>", ">", "<? ?>", "<?-- ?>", "<!-- ?> -->"
};

/*
 * Constructs back to back, the kinds and lengths at random (dense_parts
 * and every tricky piece), with a late declaration among them or none, in
 * UTF-8 and UTF-16 of both orders, cut at random offsets: the answer at
 * every level the reference's, the declaration found exactly when it is
 * there.  The levels with late_run take most of them in runs.
 */
static void
late_dense(void)
{
	static const char *const encs[] = { "UTF-8", "UTF-16LE", "UTF-16BE" };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t cuts[6], e, c, k, at;
	int late, round;

	krand_seed(4077);
	for (round = 0; round < 6; round++)
		for (e = 0; e < NELEM(encs); e++)
			for (late = 0; late < 2; late++) {
				t.n = b.n = 0;
				bfmt(&t, "<?xml version=\"1.0\" encoding=\"%s\"?>"
				    "<d>", encs[e]);
				at = late ? 200 + krand(1500) : (size_t)-1;
				for (k = 0; k < 1800; k++) {
					if (k == at)
						bstr(&t, "<?xml version='1.0'?>");
					if (krand(8) == 0)
						bstr(&t, late_tricky[krand(
						    late_ntricky)]);
					else
						bstr(&t, dense_parts[krand(NELEM(
						    dense_parts))]);
				}
				bstr(&t, "</d>\n");
				if (e == 0)
					bput(&b, t.p, t.n);
				else
					CHECK(brecode(&b, encs[e], t.p, t.n) ==
					    0);
				for (c = 0; c < NELEM(cuts); c++)
					cuts[c] = (c + 1) * b.n / 8 + krand(200);
				k_same("markup back to back", b.p, b.n, NULL,
				    cuts, NELEM(cuts), &r);
				if (!CHECK(has(&r, "decl-not-at-start@") ==
				    late))
					printf("  (%s, round %d)\n", encs[e],
					    round);
			}
	bfree(&t);
	bfree(&b);
	bfree(&r);
}

/* The masks of a window of late_run.h by their definition, a unit at a
 * time, for 8-bit text (u 1) and UTF-16 (u 2). */
static void
win_def(const unsigned char *p, size_t u, int be, struct late_win *m)
{
	static const char ch[] = "<?!->]";
	uint64_t *f[6];
	size_t j, c;

	f[0] = &m->lt;
	f[1] = &m->q;
	f[2] = &m->x;
	f[3] = &m->d;
	f[4] = &m->g;
	f[5] = &m->r;
	for (c = 0; c < 6; c++) {
		*f[c] = 0;
		for (j = 0; j < 64; j++)
			if (lr_unit(p + j * u, u, be) == (unsigned char)ch[c])
				*f[c] |= 1ull << j;
	}
}

static void
win_def8(const unsigned char *p, int be, struct late_win *m)
{
	win_def(p, 1, be, m);
}

static void
win_def16(const unsigned char *p, int be, struct late_win *m)
{
	win_def(p, 2, be, m);
}

/* The first unit at or after j of p[0..n) (units of u bytes, be) where
 * the k ASCII s begin, or n. */
static size_t
units_find(const unsigned char *p, size_t n, size_t j, size_t u, int be,
    const char *s, size_t k)
{
	for (; j + k * u <= n; j += u)
		if (lr_at(p + j, u, be, s, k))
			return j;
	return n;
}

/*
 * Whether the lexer, from the "<?" or "<!" at i in character data, comes
 * to r in character data having passed only what late_run may take:
 * comments to the first "-->" after "<!--", CDATA sections to the first
 * "]]>", PIs whose target does not begin "xml" to the first "?>" after
 * "<?", and character data between them (with no other "<?" or "<!"):
 * then the number of them passed, else -1.
 */
static int
run_ok(const unsigned char *p, size_t n, size_t i, size_t r, size_t u,
    int be)
{
	size_t j = i, e;
	int k = 0;

	/* the ASCII s at unit j, whole in p[0..n) */
#define AT(j, s)	((j) + (sizeof(s) - 1) * u <= n && lr_at(p + (j), u, \
			    be, s, sizeof(s) - 1))
	while (j < r) {
		if (!AT(j, "<!") && !AT(j, "<?")) {
			j += u;
			continue;
		}
		if (AT(j, "<!--"))
			e = units_find(p, n, j + 4 * u, u, be, "-->", 3) + 2 * u;
		else if (AT(j, "<![CDATA["))
			e = units_find(p, n, j + 9 * u, u, be, "]]>", 3) + 2 * u;
		else if (AT(j, "<?") && !AT(j + 2 * u, "xml"))
			e = units_find(p, n, j + 2 * u, u, be, "?>", 2) + u;
		else
			return -1;
		if (e >= n)
			return -1;
		j = e + u;
		k++;
	}
	return j == r ? k : -1;
#undef AT
}

/* Whether level l has a late_run of units of u bytes (the others' is
 * the start it is given). */
static int
run_covers(int l, size_t u)
{
	return strcmp(unit_levels[l], "avx512") == 0 || (u == 1 &&
	    (strcmp(unit_levels[l], "avx2") == 0 ||
	    strcmp(unit_levels[l], "sse2") == 0));
}

/*
 * late_run() at every level against late_run_walk() with the masks of
 * their definition (win_def): random strings of the pieces of markup's
 * ends and starts, in bytes and in UTF-16 of both orders (with units
 * whose other byte is '<' or '>'), from every "<?" and "<!", with the
 * text cut at every length past it that leaves up to three windows.
 * What the walk takes is what the lexer passes (run_ok); the runs must
 * take some of them, and some more than one.
 */
static void
late_runs(void)
{
	static const char *const bits[] = { "<!--", "-->", "--", "<?", "?>",
	    "<![CDATA[", "]]>", "]", "<", ">", "-", "?", "!", "xml", " ",
	    "a", "<!D", "<!-x", "[CDATA" };
	static const uint16_t odd[] = { 0x3C00, 0x3E00, 0x013C, 0x2D2D };
	static unsigned char s[700], p[1400];
	size_t n, sn, u, i, cut, want, got, taken = 0, runs = 0, j;
	int l, be, round, k, fail = 0;

	krand_seed(6464);
	for (round = 0; round < 24 && !fail; round++) {
		u = round % 3 == 0 ? 2 : 1;
		be = round % 6 == 3;
		for (sn = 0; sn + 10 < sizeof(s); sn += strlen(bits[j])) {
			j = krand(NELEM(bits));
			memcpy(s + sn, bits[j], strlen(bits[j]));
		}
		for (n = j = 0; j < sn; j++, n += u)
			if (u == 1)
				p[n] = s[j];
			else {
				uint16_t v = krand(16) == 0 ? odd[krand(
				    NELEM(odd))] : s[j];

				p[n + !be] = (unsigned char)(v >> 8);
				p[n + be] = (unsigned char)v;
			}
		for (i = 0; i + 2 * u <= n && !fail; i += u) {
			if (lr_unit(p + i, u, be) != '<' || (lr_unit(p + i +
			    u, u, be) != '?' && lr_unit(p + i + u, u, be) !=
			    '!'))
				continue;
			for (cut = i + 2 * u; cut <= n && cut <= i + 192 * u &&
			    !fail; cut += u) {
				want = late_run_walk(p, cut, i, u, be, u == 1 ?
				    win_def8 : win_def16);
				if (!CHECK((k = run_ok(p, cut, i, want, u,
				    be)) >= 0)) {
					printf("  (round %d, from %zu of %zu: "
					    "%zu)\n", round, i, cut, want);
					fail = 1;
				}
				taken += k > 0;
				runs += k > 1;
				for (l = 0; l < unit_nlevels && !fail; l++) {
					simd_init(unit_levels[l]);
					got = late_run(p, cut, i, u, be);
					if (!CHECK(got == (run_covers(l, u) ?
					    want : i))) {
						printf("  (%s: round %d, from "
						    "%zu of %zu: %zu, not %zu)\n",
						    unit_levels[l], round, i,
						    cut, got, want);
						fail = 1;
					}
				}
			}
		}
	}
	CHECK(taken > 10000 && runs > 1000);
	simd_init(NULL);
}

/* late_leaps()'s constructs that the leaps pass (leap.c), and what they
 * stop at: a late declaration, other markup the lexer must lex. */
static const char *const leap_parts[] = {
	"<!---->", "<!-- c -->", "<?p x?>", "<?\?>", "<![CDATA[x]]>",
	"<a b='1'/>", "t", "\n", "<", "<<!-- two -->", ">", "<? ?>",
	"<?-- ?>", "<!-- ?> -->", "<![CDATA[]]]>", "<!-- a --->", "<?xm?>",
	"<!--->y-->", "<!-->x-->", "<?> ?>", "<?p ?? >?>", "w\303\251rd ",
	"<![CDATA[ -- ]] ?]]>", "\343\260\241\343\260\277",
	"<!-- \342\264\255\343\270\255 -->", "\304\274"
};
static const char *const leap_stops[] = {
	"<?xml version='1.0'?>", "<?xml version='1.0'?>",
	"<?xml-model href='m'?>", "<!DOCTYPE d [<!ENTITY e '--> ?> ]]>'>]>",
	"<!>", "<![INCLUDE[ x ]]>", "<!-x>", "<!ELEMENT d ANY>"
};
/* long ones, whose inside holds the opens and ends of the others */
static const char *const leap_opens[] = {
	"<!-- <![CDATA[ <?p ", "<![CDATA[ <!-- <?p ", "<?p <!-- <![CDATA[ "
};
static const char *const leap_closes[] = { "-->", "]]>", "?>" };
/* (in UTF-16, U+013C, U+3C21, U+3C3F, U+213C and U+3F3C have a byte of
 * '<', '?' or '!', U+2D2D and U+3E2D of '-' and '>': no unit of them is) */
static const char *const leap_fill[] = {
	"a", " ", "-", "]", "?", ">", "\n", "\303\251", "<a>", "--", "]]",
	"x", "m", "l", "C", "-- ", "] ]>", "? >", "\304\274",
	"\343\260\241", "\343\260\277", "\342\204\274", "\343\274\274",
	"\342\264\255", "\343\270\255", "\304\274?"
};

/* The leaps of leap_direct() in UTF-8 ([0]), UTF-16LE ([1]) and
 * UTF-16BE ([2]), and the same with lists of the opens to lex only ([3]
 * to [5]): taken, refused (the same on every machine: k_same()'s, one
 * set a level, are not counted here). */
static long leap_seen[6][2];

/*
 * The late declarations that late_next() finds in p[0..n) (units of u
 * bytes, be: big-endian) from its start, fed whole, into got (offsets,
 * at most cap): as every level lexes (whole) with the marks of the text
 * (marks8, marksw) in m, or as the reference does (a character at a
 * time, no marks).  Return how many.
 */
static size_t
leap_hits(const unsigned char *p, size_t n, size_t u, int be, int whole,
    struct marks *m, uint64_t *got, size_t cap)
{
	struct sniff sn;
	struct late lt;
	size_t nh = 0;
	int hit = 1;

	memset(&sn, 0, sizeof(sn));
	sn.dec = u == 1 ? FORM_UTF8 : be ? FORM_UTF16BE : FORM_UTF16LE;
	late_init(&lt, &sn, NULL);
	lt.whole = whole;
	if (whole) {
		if (u == 1)
			marks8(p, n, m);
		else
			marksw(p, n, u, be, m);
		lt.mk = m;
	}
	while (hit) {
		late_next(&lt, p, n, 0, 1, &hit);
		if (hit && nh < cap)
			got[nh++] = lt.lt_off;
	}
	return nh;
}

/*
 * The leaps of late_next() over the markup body (from "<d>" on) under a
 * declaration, in UTF-8 (u 1) or UTF-16 (u 2, be: big-endian), the
 * piece's marks given (as the thread reading ahead gives them): the
 * declarations found those of the reference, the leaps taken and refused
 * added to leap_seen.  Again with a list of the opens to lex only
 * (m.hard, as the validator's), which must find the same.
 */
static void
leap_direct(const char *label, const struct buf *body, size_t u, int be)
{
	static uint32_t lts[1 << 17], mjs[1 << 17];
	static uint64_t want[4096], got[4096];
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	const char *enc = u == 1 ? "UTF-8" : be ? "UTF-16BE" : "UTF-16LE";
	struct marks m;
	size_t nw, ng, k;
	long was[2];

	for (k = 0; k < 2; k++)
		was[k] = atomic_load(&late_leap_count[k]);
	bfmt(&t, "<?xml version=\"1.0\" encoding=\"%s\"?>", enc);
	bput(&t, body->p, body->n);
	if (u == 1)
		bput(&b, t.p, t.n);
	else
		CHECK(brecode(&b, enc, t.p, t.n) == 0);
	memset(&m, 0, sizeof(m));
	m.lt = lts;
	m.mj = mjs;
	m.cap = NELEM(lts);
	nw = leap_hits(b.p, b.n, u, be, 0, NULL, want, NELEM(want));
	ng = leap_hits(b.p, b.n, u, be, 1, &m, got, NELEM(got));
	if (!CHECK(m.nlt < m.cap && nw == ng && memcmp(want, got, nw *
	    sizeof(want[0])) == 0))
		printf("  (%s, %s: %zu declarations, not %zu)\n", label, enc,
		    ng, nw);
	for (k = 0; k < 2; k++) {
		was[k] = atomic_load(&late_leap_count[k]) - was[k];
		leap_seen[u == 1 ? 0 : be ? 2 : 1][k] += was[k];
	}
	/* again with the opens to lex only: the same declarations, the
	 * stops and states of the leaps from m.ksum */
	m.hard = 1;
	for (k = 0; k < 2; k++)
		was[k] = atomic_load(&late_leap_count[k]);
	ng = leap_hits(b.p, b.n, u, be, 1, &m, got, NELEM(got));
	if (!CHECK(m.hard && nw == ng && memcmp(want, got, nw *
	    sizeof(want[0])) == 0))
		printf("  (%s, %s, the opens to lex only: %zu declarations, "
		    "not %zu)\n", label, enc, ng, nw);
	for (k = 0; k < 2; k++)
		leap_seen[u == 1 ? 3 : be ? 5 : 4][k] +=
		    atomic_load(&late_leap_count[k]) - was[k];
	bfree(&t);
	bfree(&b);
}

/*
 * k_same() of the markup body under a declaration in UTF-8, the answer
 * into r; and leap_direct() in UTF-8 and UTF-16 (be: big-endian).
 */
static void
leap_same(const char *label, const struct buf *body, int be,
    const size_t *cuts, size_t ncuts, struct buf *r)
{
	struct buf t = { NULL, 0, 0 };

	bstr(&t, "<?xml version=\"1.0\"?>");
	bput(&t, body->p, body->n);
	k_same(label, t.p, t.n, NULL, cuts, ncuts, r);
	leap_direct(label, body, 1, 0);
	leap_direct(label, body, 2, be);
	bfree(&t);
}

/*
 * Text of 200 KB and more of markup back to back, with long comments,
 * CDATA sections and PIs whose inside holds the opens and ends of the
 * other kinds, and a declaration or other markup to lex every few
 * kilobytes (or few dozen): fed whole from a file and in pieces cut at
 * random, in UTF-8 and UTF-16 of both orders, every level gives the
 * reference's answer, the declarations found.  The leaps are taken and
 * refused thousands of times; the reference (which lexes every
 * character) takes none.
 */
static void
late_leaps(void)
{
	struct buf t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t cuts[12], c, k, stop;
	long was;
	int round;

	krand_seed(5150);
	for (round = 0; round < 16; round++) {
		t.n = 0;
		bstr(&t, "<d>");
		/* a stop every so many parts: few, many, or very many */
		stop = round % 4 == 0 ? 40 : round % 4 == 1 ? 400 : 3000;
		while (t.n < 200000 + 20000 * (size_t)round) {
			unsigned x = krand(100);

			if (krand(stop) == 0)
				bstr(&t, leap_stops[krand(NELEM(leap_stops))]);
			else if (x < 80)
				bstr(&t, leap_parts[krand(NELEM(leap_parts))]);
			else if (x < 97)
				bstr(&t, leap_fill[krand(NELEM(leap_fill))]);
			else {
				size_t kind = krand(3), len = 100 + krand(
				    round % 2 ? 600 : 3000);

				bstr(&t, leap_opens[kind]);
				for (k = 0; k < len; k++)
					bstr(&t, leap_fill[krand(NELEM(
					    leap_fill))]);
				bstr(&t, leap_closes[kind]);
			}
		}
		bstr(&t, "<?xml version='1.0'?></d>\n");
		for (c = 0; c < NELEM(cuts); c++)
			cuts[c] = (c + 1) * t.n / (NELEM(cuts) + 1) +
			    krand(5000);
		was = atomic_load(&late_leap_count[0]);
		leap_same("leaps over markup", &t, round % 2, cuts,
		    NELEM(cuts), &r);
		CHECK(has(&r, "decl-not-at-start@"));
		/* from a file and in pieces too, at the levels but ref */
		CHECK(atomic_load(&late_leap_count[0]) - was > 0);
	}
	bfree(&t);
	bfree(&r);
}

/*
 * Append to t the UTF-8 of the characters that, in UTF-16 (be:
 * big-endian), are the bytes "A", the ASCII string a in UTF-16, "A": the
 * units of a on the bytes across the units of those characters, which
 * the marks list (marksw finds bytes) and no lexer reads.
 */
static void
leap_shadow(struct buf *t, const char *a, int be)
{
	unsigned char by[64];
	size_t n = 0, k, l = strlen(a);

	by[n++] = 'A';
	for (k = 0; k < l; k++) {
		by[n++] = be ? 0 : (unsigned char)a[k];
		by[n++] = be ? (unsigned char)a[k] : 0;
	}
	by[n++] = 'A';
	for (k = 0; k < n; k += 2) {
		unsigned c = be ? (unsigned)by[k] << 8 | by[k + 1] :
		    (unsigned)by[k + 1] << 8 | by[k];

		bfmt(t, "%c%c%c", 0xE0 | c >> 12, 0x80 | (c >> 6 & 0x3F),
		    0x80 | (c & 0x3F));
	}
}

/* The markup before a case of late_leap_splits() or late_leap_diverge()
 * in t: enough for a leap. */
static void
leap_before(struct buf *t)
{
	size_t want = 5000;

	t->n = 0;
	bstr(t, "<d>");
	while (t->n < want)
		bstr(t, leap_parts[krand(NELEM(leap_parts))]);
}

/*
 * A leap goes back from the stop to a byte after which the lexer, in
 * any state, has nothing of an open or an end matched.  Here the stop, a
 * declaration inside a comment, a PI or a CDATA section, is 512 bytes
 * after each point inside the open of that construct, followed by
 * every end in turn: a leap that went on from such a point would lex
 * the construct as text and report the declaration.
 */
static void
late_leap_splits(void)
{
	static const char *const opens[] = { "<!--", "<?p", "<![CDATA[" };
	static const char *const fills[] = {
		" ?> ]]> b", " --> ]]> b", " --> ?> b"
	};
	static const char *const closes[] = { " -->", "", " ]]>" };
	static const char *const tails[] = {
		"", "->", ">", "-->", "?>", "]]>", "-", "]"
	};
	struct buf t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t o, k, tl, h, u;

	krand_seed(512);
	for (u = 1; u <= 2; u++)
		for (o = 0; o < NELEM(opens); o++)
			for (k = 1; k <= strlen(opens[o]); k++)
				for (tl = 0; tl < NELEM(tails); tl++) {
					leap_before(&t);
					/* the open's first k units end 512
					 * bytes before the declaration */
					h = t.n + k + 512 / u;
					bstr(&t, opens[o]);
					bstr(&t, tails[tl]);
					while (t.n + strlen(fills[o]) <= h)
						bstr(&t, fills[o]);
					while (t.n < h)
						bstr(&t, "b");
					bstr(&t, "<?xml version='1.0'?>");
					bstr(&t, closes[o]);
					bstr(&t, "</d>\n");
					if (u == 1)
						leap_same("a leap inside an "
						    "open", &t, (int)(k + tl) %
						    2, NULL, 0, &r);
					else
						leap_direct("a leap inside an "
						    "open", &t, 2, (int)(k +
						    tl) % 2);
				}
	bfree(&t);
	bfree(&r);
}

/*
 * The leap back from a declaration lands inside a long comment, PI or
 * CDATA section (or markup declaration whose first bytes are those of a
 * CDATA section) that holds the open of another kind, whose end is past
 * the declaration (some look closed and are not: "<!-->", "<?>"), and a
 * second open of its own kind: lexed from there as text, the other would
 * hide the declaration that follows the first's end.  The lexer's states
 * must be seen not to meet there, and every level give the reference's
 * answer.
 */
static void
late_leap_diverge(void)
{
	/* the last four markup declarations (U+012D, whose byte is '-';
	 * two that are a CDATA section's open but for a unit of "DATA",
	 * with a quote after it that holds the '[') */
	static const char *const opens[] = {
		"<!--", "<?p", "<![CDATA[", "<![CDATAx '",
		"<!\304\255\304\255 '", "<![CxA'A[ ", "<![CDAx'[ "
	};
	static const char *const closes[] = {
		"-->", "?>", "]]>", "' >", "' >", "' >", "' >"
	};
	/* the ends of the other kinds, for their states to meet; and what
	 * looks like the end of its own and is not */
	static const char *const fills[] = {
		" -> ?> ]]> ", " --> ]]> ", " ]> --> ?> ", " --> ?> ]]> ",
		" --> ?> ]]> ", " --> ?> ]]> ", " --> ?> ]]> "
	};
	static const char *const inner[] = {
		"<!--", "<?p", "<![CDATA[", "<!-->", "<!--->", "<?>"
	};
	static const int inkind[] = { 0, 1, 2, 0, 0, 1 };
	struct buf t = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t x, y, h, u;

	krand_seed(800);
	for (u = 1; u <= 2; u++)
		for (x = 0; x < NELEM(opens); x++)
			for (y = 0; y < NELEM(inner); y++) {
				if ((int)x == inkind[y])
					continue;
				leap_before(&t);
				/* the leap back, 512 bytes, lands in the b */
				h = t.n + 800 / u;
				bstr(&t, opens[x]);
				while (t.n < h - 400 / u)
					bstr(&t, "b");
				bstr(&t, fills[x]);
				/* in UTF-16, a comment on the bytes across
				 * units around the open: none to the lexer */
				if (u == 2)
					leap_shadow(&t, "<!--", (int)y % 2);
				bstr(&t, inner[y]);
				bstr(&t, " b ");
				if (u == 2)
					leap_shadow(&t, "--> ]]>", (int)y % 2);
				bstr(&t, x < 3 ? opens[x] : "");
				bstr(&t, " b ");
				bstr(&t, closes[x]);
				while (t.n < h)
					bstr(&t, "b");
				bstr(&t, "<?xml version='1.0'?> ");
				bstr(&t, closes[inkind[y]]);
				bstr(&t, "</d>\n");
				if (u == 2) {
					leap_direct("a leap where the states "
					    "part", &t, 2, (int)y % 2);
					continue;
				}
				leap_same("a leap where the states part", &t,
				    (int)y % 2, NULL, 0, &r);
				if (!CHECK(has(&r, "decl-not-at-start@")))
					printf("  (%s in %s)\n", inner[y],
					    opens[x]);
			}
	bfree(&t);
	bfree(&r);
}

void
kern_late_runs(void)
{
	int k;

	late_dense();
	late_runs();
	late_leaps();
	late_leap_splits();
	late_leap_diverge();
	/* both ways, in both forms */
	for (k = 0; k < 6; k++)
		if (!CHECK(leap_seen[k][0] > (k % 3 ? 100 : 150) &&
		    leap_seen[k][1] > (k % 3 ? 100 : 150)) || getenv("LEAPS"))
			printf("  (leaps taken and refused, %s%s: %ld, %ld)\n",
			    k % 3 == 0 ? "UTF-8" : k % 3 == 1 ? "UTF-16LE" :
			    "UTF-16BE", k < 3 ? "" : ", the opens to lex only",
			    leap_seen[k][0], leap_seen[k][1]);
}

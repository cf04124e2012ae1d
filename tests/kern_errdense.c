/*
 * Kernel equivalence on error-dense UTF-8 (the "error-dense" sweeps of
 * tests/fastpath.bats): bytes each illegal alone counted a run at a time,
 * the characters after a bad sequence, and the counts summed once both
 * codes are only counted.  Every level gives the reference's counts,
 * first positions and --all lists, with a cap reached early (3), one
 * that holds them all (5000), and no list; whole, in chunks and split
 * at read boundaries (tests/kern.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"
#include "kern_fast.h"

/* Every cap: no list, --all, --max-errors=3 and =5000; the answer
 * without a list left in r. */
static void
dense(const char *label, const struct buf *b, struct buf *r)
{
	static const size_t caps[] = { 5000, 3, 0 };
	static const size_t cuts[] = { 327680, 327681, 655360 };
	size_t i;

	for (i = 0; i < NELEM(caps); i++) {
		unit_keep(caps[i], 1);
		k_same(label, b->p, b->n, NULL, cuts, NELEM(cuts), r);
	}
}

/* noise: n pseudo-random bytes. */
static void
noise(struct buf *b, unsigned long seed, size_t n)
{
	unsigned char c;

	krand_seed(seed);
	while (n-- > 0) {
		c = (unsigned char)krand(256);
		bput(b, &c, 1);
	}
}

static void
fill(struct buf *b, size_t n, int c)
{
	unsigned char x = (unsigned char)c;

	while (n-- > 0)
		bput(b, &x, 1);
}

/* Runs of each byte illegal alone, of every length at every offset of
 * a word; FF across read boundaries; NUL runs between bad bytes. */
static void
dense_runs(void)
{
	static const int bytes[] = { 0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xF8, 0xFF };
	static const size_t lens[] = { 1, 2, 7, 8, 9, 15, 16, 17, 31 };
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t i, j;

	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>");
	for (i = 0; i < NELEM(bytes); i++)
		for (j = 0; j < NELEM(lens); j++) {
			bstr(&b, "ab");
			fill(&b, lens[j], bytes[i]);
			bstr(&b, "\r");
			fill(&b, lens[j], bytes[i]);
			bstr(&b, "\n\303\251");
			fill(&b, lens[j], bytes[i]);
			bstr(&b, "\346\227\245\r\n\001");
		}
	bstr(&b, "</a>\n");
	dense("runs of illegal bytes", &b, &r);
	CHECK(has(&r, "illegal-sequence@44:2:6*2226 "));

	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<a>");
	fill(&b, 327600, 'a');
	bstr(&b, "\r");
	fill(&b, 200, 0xFF);
	bstr(&b, "\n");
	fill(&b, 327000, 0xFF);
	bput(&b, "\302\205\000\000\000", 5);
	fill(&b, 1000, 0xBF);
	bstr(&b, "\340\200</a>");
	dense("FF across reads", &b, &r);
	CHECK(has(&r, "illegal-sequence@327644:3:1*328202 "));
	CHECK(has(&r, "illegal-char@654847:3:327202*3 "));

	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>");
	fill(&b, 327000, 0);
	bput(&b, "\377\000\200\000\000\351\000", 7);
	fill(&b, 2000, 0);
	bput(&b, "\r\000\377\n", 4);
	fill(&b, 700000, 0);
	dense("NUL runs", &b, &r);
	CHECK(has(&r, "illegal-char@42:2:4*1029005 "));
	CHECK(has(&r, "illegal-sequence@327042:2:327004*4 "));
	bfree(&b);
	bfree(&r);
}

/* Pseudo-random bytes declared UTF-8 (XML 1.0 with a late declaration,
 * and XML 1.1 with C1 controls, NEL and LS).  The seed is one whose noise
 * leaves the lexer outside markup at its end, so that the declaration
 * after it is reported. */
static void
dense_noise(void)
{
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 };

	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>");
	noise(&b, 8, 400000);
	bstr(&b, "</a> \351\377 <?xml version=\"1.0\"?>");
	dense("noise", &b, &r);
	CHECK(has(&r, "illegal-sequence@") && has(&r, "illegal-char@") &&
	    has(&r, "decl-not-at-start@"));
	b.n = 0;
	bstr(&b, "<?xml version=\"1.1\" encoding=\"UTF-8\"?>\n<a>");
	noise(&b, 11, 100000);
	bstr(&b, "\302\205\342\200\250\177\302\200");
	noise(&b, 12, 100000);
	dense("noise, XML 1.1", &b, &r);
	bfree(&b);
	bfree(&r);
}

/* Latin-1 text read as UTF-8, CR LF lines, across read boundaries: a
 * late declaration at its end, or a first non-Char deep inside, which
 * the character path locates. */
static void
dense_latin(void)
{
	static const char line[] = "caf\351 na\357ve gar\347on d\351j\340 "
	    "\374ber stra\337e \r\n";
	struct buf b = { NULL, 0, 0 }, r = { NULL, 0, 0 };

	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>");
	brep(&b, line, 12000);
	bstr(&b, "caf\351 na\357ve <?xml version=\"1.0\"?>");
	dense("Latin-1, a late declaration", &b, &r);
	CHECK(has(&r, "decl-not-at-start@444053:12002:12*"));
	CHECK(has(&r, "illegal-sequence@45:2:7*84002 "));
	b.n = 0;
	bstr(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>");
	brep(&b, line, 9000);
	bstr(&b, "caf\351 na\357ve \001 \351\002\r\n</a>\n");
	dense("Latin-1, a non-Char", &b, &r);
	CHECK(has(&r, "illegal-char@333053:9002:12*2 "));
	bfree(&b);
	bfree(&r);
}

void
kern_errdense(void)
{
	dense_runs();
	dense_noise();
	dense_latin();
	unit_keep(0, 0);
}

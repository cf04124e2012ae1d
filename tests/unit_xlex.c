/*
 * The unit driver: the lexer of --fallback=ncr (xmllex.c), which says
 * where a character reference may stand (XML 1.0 section 4.1).
 */
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "xmllex.h"
#include "unit.h"

/*
 * The answers of the lexer of --fallback=ncr (xmllex.c) for the characters
 * of s (ASCII), one '1' (a character reference may stand there, XML 1.0
 * section 4.1) or '0' each, from the start of a document entity or, with
 * dtd, of an external subset.
 */
static const char *
lex_answers(const char *s, int dtd, char *buf)
{
	struct xlex l;
	size_t i;

	memset(&l, 0, sizeof(l));
	if (dtd)
		xlex_dtd(&l);
	for (i = 0; s[i] != '\0'; i++)
		buf[i] = xlex(&l, (unsigned char)s[i]) ? '1' : '0';
	buf[i] = '\0';
	return buf;
}

/* XML 1.0 sections 2.3-2.8, 3.1, 3.3.2, 4.1: where a reference may stand. */
static void
test_xlex(void)
{
	static const struct {
		const char	*in;
		int		 dtd;
		const char	*want;
	} t[] = {
		/* Content [43]: yes, but not the "<" of markup nor a name. */
		{ "ab<x>c</x>d", 0, "11000100001" },
		/* Attribute values [10], either quote; "<" and "&" never. */
		{ "<a b=\"x&y<\">", 0, "000000101000" },
		{ "<a b='\"'>z", 0, "0000001001" },
		/* Comments (2.5), PIs (2.6), CDATA sections (2.7): no. */
		{ "<!--x-y-->z", 0, "00000000001" },
		{ "<?p x?y?>z", 0, "0000000001" },
		{ "<![CDATA[x]>]]>z", 0, "0000000000000001" },
		/* The DOCTYPE outside and inside its literals (2.8): no. */
		{ "<!DOCTYPE d SYSTEM \"u\">z", 0, "000000000000000000000001" },
		/* An internal entity's value [9] yes, less "&", "%", "<". */
		{ "<!DOCTYPE d [<!ENTITY e \"v&%<w\">]>z", 0,
		    "00000000000000000000000001000100001" },
		/* An external entity's system literal [11]: no. */
		{ "<!DOCTYPE d [<!ENTITY e SYSTEM \"v\">]>z", 0,
		    "00000000000000000000000000000000000001" },
		{ "<!DOCTYPE d [<!ENTITY e PUBLIC \"p\" \"v\">]>z", 0,
		    "000000000000000000000000000000000000000001" },
		/* An attribute default [60]: yes. */
		{ "<!DOCTYPE d [<!ATTLIST a b CDATA \"v\">]>z", 0,
		    "0000000000000000000000000000000000100001" },
		/* Between declarations of the internal subset: no. */
		{ "<!DOCTYPE d [ <!-- c --> ]>z", 0,
		    "0000000000000000000000000001" },
		/* An external subset starts between declarations, and
		 * is back there after each declaration, comment or PI;
		 * "<![" begins a conditional section there [61], whose
		 * attribute defaults [60] take references. */
		{ "x<!ENTITY e \"v\">", 1, "0000000000000100" },
		{ "<!-- c -->x<?p?>y<!ENTITY e \"v\">", 1,
		    "00000000000000000000000000000100" },
		{ "<![INCLUDE[<!ATTLIST a b CDATA \"v\">]]>z", 1,
		    "000000000000000000000000000000001000000" },
	};
	char buf[128];
	size_t i;

	for (i = 0; i < NELEM(t); i++)
		if (!CHECK(strcmp(lex_answers(t[i].in, t[i].dtd, buf),
		    t[i].want) == 0))
			printf("unit: xlex: \"%s\": %s, want %s\n", t[i].in,
			    buf, t[i].want);
}

/*
 * XML 1.0 and 1.1 sections 2.11 and 3.3.3: no reference stands for a
 * character that the parser reads literally as another.  Each row: the
 * text before the character, the character, whether XML 1.1, the answer
 * and, when it is 0, whether it is for normalisation (l.norm).
 */
static void
test_xlex_norm(void)
{
	static const struct {
		const char	*pre;
		uint32_t	 c;
		int		 xml11, ok, norm;
	} t[] = {
		/* Character data: CR always, NEL and LS in 1.1 only. */
		{ "<a>", '\r', 0, 0, 1 }, { "<a>", '\r', 1, 0, 1 },
		{ "<a>", 0x85, 0, 1, 0 }, { "<a>", 0x85, 1, 0, 1 },
		{ "<a>", 0x2028, 0, 1, 0 }, { "<a>", 0x2028, 1, 0, 1 },
		{ "<a>", '\n', 1, 1, 0 }, { "<a>", '\t', 1, 1, 0 },
		{ "<a>", 0xE9, 1, 1, 0 },
		/* Attribute values, either quote: TAB, LF, CR too. */
		{ "<a b=\"", '\t', 0, 0, 1 }, { "<a b='", '\n', 0, 0, 1 },
		{ "<a b=\"", '\r', 0, 0, 1 }, { "<a b=\"", 0x85, 0, 1, 0 },
		{ "<a b=\"", 0x85, 1, 0, 1 }, { "<a b='", 0x2028, 1, 0, 1 },
		{ "<a b=\"", ' ', 1, 1, 0 },
		/* Attribute defaults [60] are attribute values. */
		{ "<!DOCTYPE d [<!ATTLIST a b CDATA \"", '\t', 0, 0, 1 },
		{ "<!DOCTYPE d [<!ATTLIST a b CDATA '", 0x2028, 1, 0, 1 },
		/* Entity values: the line ends only. */
		{ "<!DOCTYPE d [<!ENTITY e \"", '\t', 0, 1, 0 },
		{ "<!DOCTYPE d [<!ENTITY e \"", '\n', 1, 1, 0 },
		{ "<!DOCTYPE d [<!ENTITY e \"", '\r', 0, 0, 1 },
		{ "<!DOCTYPE d [<!ENTITY e \"", 0x85, 1, 0, 1 },
		/* Where no reference may stand anyway, not for this. */
		{ "<!--", '\r', 1, 0, 0 }, { "<a", '\t', 1, 0, 0 },
	};
	size_t i, j;

	for (i = 0; i < NELEM(t); i++) {
		struct xlex l;
		int ok;

		memset(&l, 0, sizeof(l));
		l.xml11 = t[i].xml11;
		for (j = 0; t[i].pre[j] != '\0'; j++)
			xlex(&l, (unsigned char)t[i].pre[j]);
		ok = xlex(&l, t[i].c);
		if (!CHECK(ok == t[i].ok && (l.norm == t[i].c) == t[i].norm))
			printf("unit: xlex_norm: \"%s\" U+%04X (1.%d): %d, "
			    "norm %04X\n", t[i].pre, (unsigned)t[i].c,
			    t[i].xml11, ok, (unsigned)l.norm);
	}
}

/* Equal lexical contexts, in every field that decides an answer. */
static int
xlex_same(const struct xlex *a, const struct xlex *b)
{
	return a->lex == b->lex && a->subset == b->subset &&
	    a->dtd == b->dtd &&
	    a->quote == b->quote && a->match == b->match &&
	    a->nwords == b->nwords && a->wlen == b->wlen &&
	    a->dkind == b->dkind && a->dext == b->dext &&
	    a->lit_ok == b->lit_ok;
}

/*
 * The run paths (xlex_utf8, xlex_chars, xlex_bytes) pass over characters
 * that cannot change the context: cut anywhere, they leave it as xlex()
 * a character at a time does.
 */
static void
test_xlex_runs(void)
{
	static const char *const doc[] = {
		"<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY e \"\xC3\xA9\">"
		    "<!-- -\xE2\x82\xAC- -->]><d a='\xC3\xA9\"' b=\"'\">"
		    "t\xC3\xA9"
		    "<![CDATA[]]]]><?p ?\?>--></d>",
		"<a>x]]>y<!--a--b-->z<?q?x?>\xF0\x9F\x98\x80</a>",
	};
	size_t d, cut, i;

	for (d = 0; d < NELEM(doc); d++) {
		const unsigned char *p = (const unsigned char *)doc[d];
		size_t n = strlen(doc[d]);

		for (cut = 0; cut <= n; cut++) {
			struct xlex one, run, wide, bytes;
			unsigned char u[4 * 256];
			uint32_t c;
			size_t nc = 0;
			int r;

			memset(&one, 0, sizeof(one));
			memset(&run, 0, sizeof(run));
			memset(&wide, 0, sizeof(wide));
			memset(&bytes, 0, sizeof(bytes));
			for (i = 0; i < cut; i += (size_t)(r > 0 ? r : 1)) {
				c = p[i];
				r = 1;
				if (c >= 0x80)
					r = utf8_dec(p + i, cut - i, &c);
				xlex(&one, c);
				u[4 * nc] = (unsigned char)c;
				u[4 * nc + 1] = (unsigned char)(c >> 8);
				u[4 * nc + 2] = (unsigned char)(c >> 16);
				u[4 * nc + 3] = (unsigned char)(c >> 24);
				nc++;
			}
			xlex_utf8(&run, p, cut);
			xlex_chars(&wide, u, nc);
			CHECK(xlex_same(&one, &run));
			CHECK(xlex_same(&one, &wide));
			/* Bytes as Latin-1 characters: the same wherever the
			 * cut leaves only ASCII behind. */
			for (i = 0; i < cut && p[i] < 0x80; i++)
				;
			if (i == cut) {
				xlex_bytes(&bytes, p, cut, NULL);
				CHECK(xlex_same(&one, &bytes));
			}
		}
	}
	{
		struct xlex l;

		memset(&l, 0, sizeof(l));
		xlex_utf8(&l, (const unsigned char *)"<a b='", 6);
		CHECK(strcmp(xlex_where(&l), "an attribute value") == 0);
		xlex_utf8(&l, (const unsigned char *)"'><!--", 6);
		CHECK(strcmp(xlex_where(&l), "a comment") == 0);
	}
}

void
unit_xlex(void)
{
	test_xlex();
	test_xlex_norm();
	test_xlex_runs();
}

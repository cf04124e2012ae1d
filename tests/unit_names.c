/*
 * The unit driver: the nearest name of suggest.c ("did you mean"), the
 * not-xml rule of notxml.c, from exact bytes in every layout, and the
 * path names the CI formats write (repo.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"

static const char *const words[] = { "strict", "recursive", "format",
    "quiet", "json" };

/* The nearest of words to w, or "" for none. */
static const char *
near(const char *w)
{
	const char *s = suggest(w, words, NELEM(words), sizeof(words[0]));

	return s != NULL ? s : "";
}

void
unit_suggest(void)
{
	CHECK(strcmp(near("strcit"), "strict") == 0);	/* a swap */
	CHECK(strcmp(near("strit"), "strict") == 0);	/* a deletion */
	CHECK(strcmp(near("STRICT"), "strict") == 0);	/* case */
	CHECK(strcmp(near("recusrive"), "recursive") == 0);
	CHECK(strcmp(near("fromat"), "format") == 0);
	CHECK(strcmp(near("jsn"), "json") == 0);
	CHECK(strcmp(near("zzzz"), "") == 0);		/* nothing near */
	CHECK(strcmp(near("js"), "") == 0);		/* 2 edits: too many */
	CHECK(strcmp(near(""), "") == 0);
	CHECK(diag_suggest("mojibak") != NULL &&
	    strcmp(diag_suggest("mojibak"), "mojibake") == 0);
	CHECK(diag_suggest("utterly-wrong") == NULL);
}

/* Whether the entity p[0..n) (whole) is not XML, as name. */
static int
not_xml(const unsigned char *p, size_t n, const char *name)
{
	static struct sniff s;

	sniff(p, n, 1, NULL, name, &s);
	return s.not_xml && s.dg.d[D_NOT_XML].count == 1;
}

void
unit_not_xml(void)
{
	CHECK(!not_xml(B("<a/>"), "a.xml"));
	CHECK(!not_xml(B(" \r\n\t<a/>"), "a.xml"));
	CHECK(!not_xml(B("\xEF\xBB\xBF<a/>"), "a.xml"));
	CHECK(not_xml(B("a=b"), "a.xml"));
	CHECK(not_xml(B(""), "a.xml"));
	CHECK(not_xml(B("\xEF\xBB\xBF"), "a.xml"));
	CHECK(not_xml(B("  \n"), "a.xml"));
	/* UTF-16 and UTF-32 with BOMs; the second U+FEFF is bom-in-prolog's. */
	CHECK(!not_xml(B("\xFF\xFE\n\0<\0a\0/\0>\0"), "a.xml"));
	CHECK(not_xml(B("\xFE\xFF\0x"), "a.xml"));
	CHECK(!not_xml(B("\xFE\xFF\xFE\xFF\0<\0a\0/\0>"), "a.xml"));
	CHECK(!not_xml(B("\0\0\xFE\xFF\0\0\0<\0\0\0a\0\0\0/\0\0\0>"),
	    "a.xml"));
	/* No BOM, the zero bytes of UTF-16: suspicious-label's, not this. */
	CHECK(!not_xml(B("\0<\0a\0/\0>"), "a.xml"));
	/* A DTD may begin with '%'; an entity with anything; empty both. */
	CHECK(!not_xml(B("%pe;"), "a.dtd"));
	CHECK(not_xml(B("x"), "a.mod"));
	CHECK(!not_xml(B(""), "a.dtd"));
	CHECK(!not_xml(B("text"), "a.ent"));
	/* EBCDIC (IBM037 declared): 4C is '<'. */
	CHECK(!not_xml(B("\x4C\x6F\xA7\x94\x93\x40\xA5\x85\x99\xA2\x89\x96"
	    "\x95\x7E\x7F\xF1\x4B\xF0\x7F\x40\x85\x95\x83\x96\x84\x89\x95\x87"
	    "\x7E\x7F\xC9\xC2\xD4\xF0\xF3\xF7\x7F\x6F\x6E\x4C\x81\x61\x6E"),
	    "a.xml"));
}

/* repo_norm: the names the CI formats write, normalised by their text
 * (RFC 3986 section 5.2.4's dot segments, on a path). */
void
unit_repo_norm(void)
{
	static const char *const cases[][2] = {
		{ "./docs/x.xml", "docs/x.xml" },
		{ "docs//./x.xml", "docs/x.xml" },
		{ "a/../docs/x.xml", "docs/x.xml" },
		{ "a/b/../../x.xml", "x.xml" },
		{ "../x.xml", "../x.xml" },
		{ "./../../x.xml", "../../x.xml" },
		{ "a/../../x.xml", "../x.xml" },
		{ "../a/../b", "../b" },
		{ "/a/./b/../c.xml", "/a/c.xml" },
		{ "/../x.xml", "/x.xml" },
		{ "//a//b/", "/a/b" },
		{ "/", "/" },
		{ "/a/..", "/" },
		{ ".", "." },
		{ "", "." },
		{ "a/..", "." },
		{ "docs/", "docs" },
		{ "...", "..." },
		{ "..a/.b/x", "..a/.b/x" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *n = repo_norm(cases[i][0]);

		CHECK(n != NULL && strcmp(n, cases[i][1]) == 0);
		if (n != NULL && strcmp(n, cases[i][1]) != 0)
			printf("repo_norm(\"%s\") = \"%s\"\n", cases[i][0], n);
		free(n);
	}
}

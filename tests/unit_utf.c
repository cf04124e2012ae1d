/*
 * The unit driver: the text layer (utf.c) -- the UTF-8, UTF-16 and UTF-32
 * decoders and why they reject, Char, the UTF-8 encoder, the byte-order
 * loads, and lines and columns (XML 1.0 and 1.1 section 2.11).
 */
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "unit.h"

/* Decode with utf8_dec; return its result, the code point in *cp. */
static int
u8(const char *s, size_t n, uint32_t *cp)
{
	*cp = 0xDEADBEEF;
	return utf8_dec((const unsigned char *)s, n, cp);
}

/* RFC 3629: every boundary, the "need more" and the skip lengths. */
static void
test_utf8_dec(void)
{
	uint32_t c;

	CHECK(u8("\x00", 1, &c) == 1 && c == 0);
	CHECK(u8("A", 1, &c) == 1 && c == 'A');
	CHECK(u8("\x7F", 1, &c) == 1 && c == 0x7F);
	CHECK(u8("\x80", 1, &c) == -1);
	CHECK(u8("\xBF", 1, &c) == -1);
	CHECK(u8("\xC0\x80", 2, &c) == -1);
	CHECK(u8("\xC1\xBF", 2, &c) == -1);
	CHECK(u8("\xC2\x80", 2, &c) == 2 && c == 0x80);
	CHECK(u8("\xC3\xA9", 2, &c) == 2 && c == 0xE9);
	CHECK(u8("\xDF\xBF", 2, &c) == 2 && c == 0x7FF);
	CHECK(u8("\xC3", 1, &c) == 0);
	CHECK(u8("\xC3\x41", 2, &c) == -1);
	CHECK(u8("\xC3\xC3", 2, &c) == -1);
	CHECK(u8("\xDF\xC0", 2, &c) == -1);

	CHECK(u8("\xE0\x80", 2, &c) == -1);
	CHECK(u8("\xE0\x9F\xBF", 3, &c) == -1);
	CHECK(u8("\xE0\xA0\x80", 3, &c) == 3 && c == 0x800);
	CHECK(u8("\xE0\xA0", 2, &c) == 0);
	CHECK(u8("\xE0", 1, &c) == 0);
	CHECK(u8("\xE2\x82\xAC", 3, &c) == 3 && c == 0x20AC);
	CHECK(u8("\xE2\x82", 2, &c) == 0);
	CHECK(u8("\xE2\x82\x41", 3, &c) == -2);
	CHECK(u8("\xE2\x41", 2, &c) == -1);
	CHECK(u8("\xE2\x82\xC0", 3, &c) == -2);
	CHECK(u8("\xEC\xBF\xBF", 3, &c) == 3 && c == 0xCFFF);
	CHECK(u8("\xED\x80\x80", 3, &c) == 3 && c == 0xD000);
	CHECK(u8("\xED\x9F\xBF", 3, &c) == 3 && c == 0xD7FF);
	CHECK(u8("\xED\xA0\x80", 3, &c) == -1);
	CHECK(u8("\xED\xBF\xBF", 3, &c) == -1);
	CHECK(u8("\xEE\x80\x80", 3, &c) == 3 && c == 0xE000);
	CHECK(u8("\xEF\xBF\xBD", 3, &c) == 3 && c == 0xFFFD);
	CHECK(u8("\xEF\xBF\xBF", 3, &c) == 3 && c == 0xFFFF);

	CHECK(u8("\xF0\x80\x80\x80", 4, &c) == -1);
	CHECK(u8("\xF0\x8F\xBF\xBF", 4, &c) == -1);
	CHECK(u8("\xF0\x90\x80\x80", 4, &c) == 4 && c == 0x10000);
	CHECK(u8("\xF0\x9F\x98\x80", 4, &c) == 4 && c == 0x1F600);
	CHECK(u8("\xF0\x90\x80", 3, &c) == 0);
	CHECK(u8("\xF0\x90", 2, &c) == 0);
	CHECK(u8("\xF1", 1, &c) == 0);
	CHECK(u8("\xF0\x90\x80\x41", 4, &c) == -3);
	CHECK(u8("\xF0\x90\x41", 3, &c) == -2);
	CHECK(u8("\xF3\xBF\xBF\xBF", 4, &c) == 4 && c == 0xFFFFF);
	CHECK(u8("\xF4\x80\x80\x80", 4, &c) == 4 && c == 0x100000);
	CHECK(u8("\xF4\x8F\xBF\xBF", 4, &c) == 4 && c == 0x10FFFF);
	CHECK(u8("\xF4\x90", 2, &c) == -1);
	CHECK(u8("\xF4\x90\x80\x80", 4, &c) == -1);
	CHECK(u8("\xF5\x80\x80\x80", 4, &c) == -1);
	CHECK(u8("\xF7\xBF\xBF\xBF", 4, &c) == -1);
	CHECK(u8("\xF8\x88\x80\x80\x80", 5, &c) == -1);
	CHECK(u8("\xFC\x84\x80\x80\x80\x80", 6, &c) == -1);
	CHECK(u8("\xFE", 1, &c) == -1);
	CHECK(u8("\xFF", 1, &c) == -1);
}

static int
u16(const char *s, size_t n, int be, uint32_t *cp)
{
	*cp = 0xDEADBEEF;
	return utf16_dec((const unsigned char *)s, n, be, cp);
}

/* RFC 2781: units, pairs, lone surrogates, short input. */
static void
test_utf16_dec(void)
{
	uint32_t c;

	CHECK(u16("", 0, 1, &c) == 0);
	CHECK(u16("\x00", 1, 1, &c) == 0);
	CHECK(u16("\x00\x41", 2, 1, &c) == 2 && c == 0x41);
	CHECK(u16("\x41\x00", 2, 0, &c) == 2 && c == 0x41);
	CHECK(u16("\x00\x00", 2, 1, &c) == 2 && c == 0);
	CHECK(u16("\xD7\xFF", 2, 1, &c) == 2 && c == 0xD7FF);
	CHECK(u16("\xE0\x00", 2, 1, &c) == 2 && c == 0xE000);
	CHECK(u16("\xFF\xFF", 2, 1, &c) == 2 && c == 0xFFFF);
	CHECK(u16("\xFE\xFF", 2, 1, &c) == 2 && c == 0xFEFF);
	CHECK(u16("\x42\x30", 2, 0, &c) == 2 && c == 0x3042);
	/* Pairs. */
	CHECK(u16("\xD8\x00\xDC\x00", 4, 1, &c) == 4 && c == 0x10000);
	CHECK(u16("\xD8\x3D\xDE\x00", 4, 1, &c) == 4 && c == 0x1F600);
	CHECK(u16("\xDB\xFF\xDF\xFF", 4, 1, &c) == 4 && c == 0x10FFFF);
	CHECK(u16("\x3D\xD8\x00\xDE", 4, 0, &c) == 4 && c == 0x1F600);
	CHECK(u16("\xFF\xDB\xFF\xDF", 4, 0, &c) == 4 && c == 0x10FFFF);
	/* A high surrogate needs its pair. */
	CHECK(u16("\xD8\x00", 2, 1, &c) == 0);
	CHECK(u16("\xD8\x00\xDC", 3, 1, &c) == 0);
	CHECK(u16("\x00\xD8", 2, 0, &c) == 0);
	CHECK(u16("\xD8\x00\x00\x41", 4, 1, &c) == -2);
	CHECK(u16("\xD8\x00\xD8\x00", 4, 1, &c) == -2);
	CHECK(u16("\xDB\xFF\xE0\x00", 4, 1, &c) == -2);
	CHECK(u16("\x00\xD8\x41\x00", 4, 0, &c) == -2);
	/* A lone low surrogate. */
	CHECK(u16("\xDC\x00", 2, 1, &c) == -2);
	CHECK(u16("\xDF\xFF\xDC\x00", 4, 1, &c) == -2);
	CHECK(u16("\x00\xDC", 2, 0, &c) == -2);
	CHECK(u16("\xDC\x00", 2, 0, &c) == 2 && c == 0xDC);
}

static int
u32(const char *s, size_t n, int be, uint32_t *cp)
{
	*cp = 0xDEADBEEF;
	return utf32_dec((const unsigned char *)s, n, be, cp);
}

static void
test_utf32_dec(void)
{
	uint32_t c;

	CHECK(u32("", 0, 1, &c) == 0);
	CHECK(u32("\x00", 1, 1, &c) == 0);
	CHECK(u32("\x00\x00", 2, 1, &c) == 0);
	CHECK(u32("\x00\x00\x00", 3, 1, &c) == 0);
	CHECK(u32("\x00\x00\x00\x41", 4, 1, &c) == 4 && c == 0x41);
	CHECK(u32("\x41\x00\x00\x00", 4, 0, &c) == 4 && c == 0x41);
	CHECK(u32("\x00\x00\x00\x00", 4, 1, &c) == 4 && c == 0);
	CHECK(u32("\x00\x00\xD7\xFF", 4, 1, &c) == 4 && c == 0xD7FF);
	CHECK(u32("\x00\x00\xD8\x00", 4, 1, &c) == -4);
	CHECK(u32("\x00\x00\xDF\xFF", 4, 1, &c) == -4);
	CHECK(u32("\x00\xDC\x00\x00", 4, 0, &c) == -4);
	CHECK(u32("\x00\x00\xE0\x00", 4, 1, &c) == 4 && c == 0xE000);
	CHECK(u32("\x00\x00\xFF\xFF", 4, 1, &c) == 4 && c == 0xFFFF);
	CHECK(u32("\x00\x10\xFF\xFF", 4, 1, &c) == 4 && c == 0x10FFFF);
	CHECK(u32("\xFF\xFF\x10\x00", 4, 0, &c) == 4 && c == 0x10FFFF);
	CHECK(u32("\x00\x11\x00\x00", 4, 1, &c) == -4);
	CHECK(u32("\x00\x00\x11\x00", 4, 0, &c) == -4);
	CHECK(u32("\xFF\xFF\xFF\xFF", 4, 1, &c) == -4);
	CHECK(u32("\x00\x00\xFE\xFF", 4, 1, &c) == 4 && c == 0xFEFF);
	CHECK(u32("\xFF\xFE\x00\x00", 4, 1, &c) == -4);
}

/* XML 1.0 [2] Char; XML 1.1 [2] less [2a] RestrictedChar. */
static void
test_xml_char_ok(void)
{
	static const struct {
		uint32_t	 c;
		int		 ok10, ok11;
	} t[] = {
		{ 0x0, 0, 0 }, { 0x1, 0, 0 }, { 0x8, 0, 0 }, { 0x9, 1, 1 },
		{ 0xA, 1, 1 }, { 0xB, 0, 0 }, { 0xC, 0, 0 }, { 0xD, 1, 1 },
		{ 0xE, 0, 0 }, { 0x1F, 0, 0 }, { 0x20, 1, 1 }, { 0x7E, 1, 1 },
		{ 0x7F, 1, 0 }, { 0x80, 1, 0 }, { 0x84, 1, 0 }, { 0x85, 1, 1 },
		{ 0x86, 1, 0 }, { 0x9F, 1, 0 }, { 0xA0, 1, 1 }, { 0xFF, 1, 1 },
		{ 0x2028, 1, 1 }, { 0xD7FF, 1, 1 }, { 0xD800, 0, 0 },
		{ 0xDBFF, 0, 0 }, { 0xDC00, 0, 0 }, { 0xDFFF, 0, 0 },
		{ 0xE000, 1, 1 }, { 0xFEFF, 1, 1 }, { 0xFFFD, 1, 1 },
		{ 0xFFFE, 0, 0 }, { 0xFFFF, 0, 0 }, { 0x10000, 1, 1 },
		{ 0x1FFFE, 1, 1 }, { 0x10FFFF, 1, 1 }, { 0x110000, 0, 0 },
		{ 0xFFFFFFFF, 0, 0 },
	};
	size_t i;

	for (i = 0; i < NELEM(t); i++)
		if ((CHECK(xml_char_ok(t[i].c, 0) == t[i].ok10) &
		    CHECK(xml_char_ok(t[i].c, 1) == t[i].ok11)) == 0)
			printf("  (xml_char_ok U+%04lX)\n", (unsigned long)t[i].c);
}

/* utf8_enc: the bytes at each length boundary, and every scalar value
 * back through utf8_dec (RFC 3629 section 3). */
static void
test_utf8_enc(void)
{
	static const struct {
		uint32_t	 c;
		const char	*bytes;
		int		 len;
	} t[] = {
		{ 0x0, "\x00", 1 }, { 0x41, "A", 1 }, { 0x7F, "\x7F", 1 },
		{ 0x80, "\xC2\x80", 2 }, { 0xE9, "\xC3\xA9", 2 },
		{ 0x7FF, "\xDF\xBF", 2 }, { 0x800, "\xE0\xA0\x80", 3 },
		{ 0x20AC, "\xE2\x82\xAC", 3 }, { 0xD7FF, "\xED\x9F\xBF", 3 },
		{ 0xE000, "\xEE\x80\x80", 3 }, { 0xFFFF, "\xEF\xBF\xBF", 3 },
		{ 0x10000, "\xF0\x90\x80\x80", 4 },
		{ 0x1F600, "\xF0\x9F\x98\x80", 4 },
		{ 0x10FFFF, "\xF4\x8F\xBF\xBF", 4 },
	};
	unsigned char b[8];
	uint32_t c, d = 0;
	unsigned bad = 0;
	size_t i;
	int n, r;

	for (i = 0; i < NELEM(t); i++) {
		memset(b, 0xAA, sizeof(b));
		n = utf8_enc(b, t[i].c);
		if (!CHECK(n == t[i].len && memcmp(b, t[i].bytes,
		    (size_t)n) == 0 && b[n] == 0xAA))
			printf("  (utf8_enc U+%04lX)\n", (unsigned long)t[i].c);
	}
	for (c = 0; c <= 0x10FFFF; c++) {
		if (c == 0xD800)
			c = 0xE000;
		n = utf8_enc(b, c);
		r = utf8_dec(b, (size_t)n, &d);
		if (n != (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 :
		    4) || r != n || d != c)
			bad++;
	}
	if (!CHECK(bad == 0))
		printf("  (%u values do not round-trip)\n", bad);
	/* A surrogate is written like any BMP value; the decoder refuses
	 * it. */
	CHECK(utf8_enc(b, 0xD800) == 3 && memcmp(b, "\xED\xA0\x80", 3) == 0);
	CHECK(utf8_dec(b, 3, &d) == -1);
}

/* The byte-order loads. */
static void
test_loads(void)
{
	static const unsigned char p[] = { 0x12, 0x34, 0x56, 0x78, 0xFF };

	CHECK(load_le16(p) == 0x3412);
	CHECK(load_be16(p) == 0x1234);
	CHECK(load_le32(p) == 0x78563412);
	CHECK(load_be32(p) == 0x12345678);
	CHECK(load_le32(p + 1) == 0xFF785634);
	CHECK(load_be32(p + 1) == 0x345678FF);
}

/* Step a fresh position over the characters c[0..n); return it. */
static struct linepos
steps(const uint32_t *c, size_t n, int xml11)
{
	struct linepos pos = { 1, 1, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		linepos_step(&pos, c[i], xml11);
	return pos;
}

/* XML 1.0 and XML 1.1 section 2.11: the line ends, by the position after
 * "a", the ends, "b". */
static void
test_linepos(void)
{
	static const struct {
		uint32_t	 c[6];
		size_t		 n;
		uint64_t	 line10, col10, line11, col11;
	} t[] = {
		{ { 'a', 'b' }, 2, 1, 3, 1, 3 },
		{ { 'a', '\n', 'b' }, 3, 2, 2, 2, 2 },
		{ { 'a', '\r', 'b' }, 3, 2, 2, 2, 2 },
		{ { 'a', '\r', '\n', 'b' }, 4, 2, 2, 2, 2 },
		{ { 'a', '\n', '\r', 'b' }, 4, 3, 2, 3, 2 },
		{ { 'a', '\n', '\n', 'b' }, 4, 3, 2, 3, 2 },
		{ { 'a', '\r', '\r', '\n', 'b' }, 5, 3, 2, 3, 2 },
		{ { 'a', '\r', '\n', '\n', 'b' }, 5, 3, 2, 3, 2 },
		/* NEL and LS: characters in 1.0, line ends in 1.1. */
		{ { 'a', 0x85, 'b' }, 3, 1, 4, 2, 2 },
		{ { 'a', '\r', 0x85, 'b' }, 4, 2, 3, 2, 2 },
		{ { 'a', 0x85, '\n', 'b' }, 4, 2, 2, 3, 2 },
		{ { 'a', 0x85, 0x85, 'b' }, 4, 1, 5, 3, 2 },
		{ { 'a', 0x2028, 'b' }, 3, 1, 4, 2, 2 },
		{ { 'a', '\r', 0x2028, 'b' }, 4, 2, 3, 3, 2 },
		{ { 'a', 0x2028, '\n', 'b' }, 4, 2, 2, 3, 2 },
		{ { 'a', 0x2029, 'b' }, 3, 1, 4, 1, 4 },
		/* A line end may be first. */
		{ { '\n' }, 1, 2, 1, 2, 1 },
		{ { '\r', '\n' }, 2, 2, 1, 2, 1 },
	};
	struct linepos p10, p11;
	size_t i;

	for (i = 0; i < NELEM(t); i++) {
		p10 = steps(t[i].c, t[i].n, 0);
		p11 = steps(t[i].c, t[i].n, 1);
		if ((CHECK(p10.line == t[i].line10 && p10.col == t[i].col10) &
		    CHECK(p11.line == t[i].line11 && p11.col == t[i].col11)) ==
		    0)
			printf("  (linepos case %zu: 1.0 %llu:%llu, 1.1 "
			    "%llu:%llu)\n", i, (unsigned long long)p10.line,
			    (unsigned long long)p10.col,
			    (unsigned long long)p11.line,
			    (unsigned long long)p11.col);
		CHECK(p10.prev == t[i].c[t[i].n - 1] &&
		    p11.prev == t[i].c[t[i].n - 1]);
	}
}

/* utf8_why names each way utf8_dec rejects; the byte after a lead byte
 * is the one that stopped the sequence. */
static void
test_utf_why(void)
{
	static const struct {
		const char	*b;
		size_t		 n;	/* the illegal length utf8_dec gives */
		const char	*why;
	} t[] = {
		{ "\x80", 1, "a stray continuation byte" },
		{ "\xBF", 1, "a stray continuation byte" },
		{ "\xC0\xAF", 1, "an overlong encoding: C0 and C1 are never "
		    "used" },
		{ "\xC1\xBF", 1, "an overlong encoding: C0 and C1 are never "
		    "used" },
		{ "\xE0\x80\xAF", 1, "an overlong encoding" },
		{ "\xF0\x8F\xBF\xBF", 1, "an overlong encoding" },
		{ "\xED\xA0\x80", 1, "a surrogate encoded in UTF-8" },
		{ "\xED\xBF\xBF", 1, "a surrogate encoded in UTF-8" },
		{ "\xF4\x90\x80\x80", 1, "above U+10FFFF" },
		{ "\xF5\x80", 1, "above U+10FFFF: F5 to F7 are never used" },
		{ "\xF7", 1, "above U+10FFFF: F5 to F7 are never used" },
		{ "\xF8", 1, "a byte never used in UTF-8" },
		{ "\xFF", 1, "a byte never used in UTF-8" },
		{ "\xC2\x41", 1, "a truncated sequence: too few continuation "
		    "bytes" },
		{ "\xE2\x82\x41", 2, "a truncated sequence: too few "
		    "continuation bytes" },
		{ "\xF0\x9F\x98<", 3, "a truncated sequence: too few "
		    "continuation bytes" },
		{ "\xED\x41", 1, "a truncated sequence: too few continuation "
		    "bytes" },
	};
	char buf[64];
	size_t i;
	uint32_t c;

	for (i = 0; i < NELEM(t); i++) {
		const unsigned char *p = (const unsigned char *)t[i].b;

		/* The cases are what the decoder rejects, as long as said. */
		if (!CHECK(utf8_dec(p, strlen(t[i].b), &c) == -(int)t[i].n) ||
		    !CHECK(strcmp(utf8_why(p, t[i].n), t[i].why) == 0))
			printf("unit: case %zu: %s\n", i, utf8_why(p, t[i].n));
	}

	utf16_why((const unsigned char *)"\xD8\x00", 1, buf, sizeof(buf));
	CHECK(strcmp(buf, "a high surrogate U+D800 not followed by a low "
	    "one") == 0);
	utf16_why((const unsigned char *)"\x3D\xD8", 0, buf, sizeof(buf));
	CHECK(strcmp(buf, "a high surrogate U+D83D not followed by a low "
	    "one") == 0);
	utf16_why((const unsigned char *)"\xDC\x00", 1, buf, sizeof(buf));
	CHECK(strcmp(buf, "a low surrogate U+DC00 without a high one before "
	    "it") == 0);
	utf16_why((const unsigned char *)"\xFF\xDF", 0, buf, sizeof(buf));
	CHECK(strcmp(buf, "a low surrogate U+DFFF without a high one before "
	    "it") == 0);
	utf32_why((const unsigned char *)"\x00\x11\x00\x00", 1, buf,
	    sizeof(buf));
	CHECK(strcmp(buf, "0x110000, above U+10FFFF") == 0);
	utf32_why((const unsigned char *)"\xFF\xFF\xFF\xFF", 0, buf,
	    sizeof(buf));
	CHECK(strcmp(buf, "0xFFFFFFFF, above U+10FFFF") == 0);
	utf32_why((const unsigned char *)"\x00\xDC\x00\x00", 0, buf,
	    sizeof(buf));
	CHECK(strcmp(buf, "the surrogate U+DC00") == 0);
	utf32_why((const unsigned char *)"\x00\x00\xD8\x00", 1, buf,
	    sizeof(buf));
	CHECK(strcmp(buf, "the surrogate U+D800") == 0);
}

void
unit_utf(void)
{
	test_utf8_dec();
	test_utf16_dec();
	test_utf32_dec();
	test_utf_why();
	test_xml_char_ok();
	test_utf8_enc();
	test_loads();
	test_linepos();
}

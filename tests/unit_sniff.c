/*
 * The unit driver: the first bytes of an entity (bom.c) -- the byte order
 * mark and the patterns of XML 1.0 Appendix F.1 -- and the code units
 * read in every layout (unit_get).
 */
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "unit.h"

/* XML 1.0 Appendix F.1, with a BOM: every signature, its length, and short
 * buffers. */
static void
test_bom_sniff(void)
{
	static const struct {
		const char	*bytes;
		size_t		 n;
		enum bom	 bom;
		size_t		 len;
	} t[] = {
		{ "\x00\x00\xFE\xFF", 4, BOM_UTF32BE, 4 },
		{ "\xFF\xFE\x00\x00", 4, BOM_UTF32LE, 4 },
		{ "\x00\x00\xFF\xFE", 4, BOM_UCS4_2143, 4 },
		{ "\xFE\xFF\x00\x00", 4, BOM_UCS4_3412, 4 },
		{ "\xFE\xFF\x00\x3C", 4, BOM_UTF16BE, 2 },
		{ "\xFF\xFE\x3C\x00", 4, BOM_UTF16LE, 2 },
		{ "\xEF\xBB\xBF\x3C", 4, BOM_UTF8, 3 },
		{ "\x00\x00\xFE\xFF\x00\x00\x00\x3C", 8, BOM_UTF32BE, 4 },
		/* Short buffers: 0 to 3 bytes. */
		{ "", 0, BOM_NONE, 0 },
		{ "\xFE", 1, BOM_NONE, 0 },
		{ "\xFF", 1, BOM_NONE, 0 },
		{ "\xEF", 1, BOM_NONE, 0 },
		{ "\xFE\xFF", 2, BOM_UTF16BE, 2 },
		{ "\xFF\xFE", 2, BOM_UTF16LE, 2 },
		{ "\xEF\xBB", 2, BOM_NONE, 0 },
		{ "\x00\x00", 2, BOM_NONE, 0 },
		{ "\xEF\xBB\xBF", 3, BOM_UTF8, 3 },
		/* Three bytes cannot be a UTF-32 BOM. */
		{ "\xFF\xFE\x00", 3, BOM_UTF16LE, 2 },
		{ "\xFE\xFF\x00", 3, BOM_UTF16BE, 2 },
		{ "\x00\x00\xFE", 3, BOM_NONE, 0 },
		{ "\x00\x00\xFF", 3, BOM_NONE, 0 },
		/* Not signatures. */
		{ "\x3C\x3F\x78\x6D", 4, BOM_NONE, 0 },
		{ "\xEF\xBB\xBE\x3C", 4, BOM_NONE, 0 },
		{ "\xFE\xFE\x00\x00", 4, BOM_NONE, 0 },
		{ "\x00\x00\x00\x3C", 4, BOM_NONE, 0 },
		{ "\x00\xFE\xFF\x00", 4, BOM_NONE, 0 },
	};
	size_t i, len;

	for (i = 0; i < NELEM(t); i++) {
		len = 99;
		if ((CHECK(bom_sniff((const unsigned char *)t[i].bytes, t[i].n,
		    &len) == t[i].bom) & CHECK(len == t[i].len)) == 0)
			printf("  (bom_sniff case %zu)\n", i);
	}
	/* FF FE 00 00 is UTF-32LE; FF FE 3C 00 is UTF-16LE and "<". */
	CHECK(bom_sniff(B("\xFF\xFE\x00\x00\x3C\x00\x00\x00"), &len) ==
	    BOM_UTF32LE && len == 4);
	CHECK(bom_sniff(B("\xFF\xFE\x3C\x00\x3F\x00"), &len) == BOM_UTF16LE &&
	    len == 2);

	CHECK(bom_name(BOM_NONE) == NULL);
	CHECK(strcmp(bom_name(BOM_UTF8), "UTF-8") == 0);
	CHECK(strcmp(bom_name(BOM_UTF16BE), "UTF-16BE") == 0);
	CHECK(strcmp(bom_name(BOM_UTF16LE), "UTF-16LE") == 0);
	CHECK(strcmp(bom_name(BOM_UTF32BE), "UTF-32BE") == 0);
	CHECK(strcmp(bom_name(BOM_UTF32LE), "UTF-32LE") == 0);
	CHECK(strcmp(bom_name(BOM_UCS4_2143), "UCS-4-2143") == 0);
	CHECK(strcmp(bom_name(BOM_UCS4_3412), "UCS-4-3412") == 0);

	CHECK(unit_of_bom(BOM_NONE) == UNIT_8);
	CHECK(unit_of_bom(BOM_UTF8) == UNIT_8);
	CHECK(unit_of_bom(BOM_UTF16BE) == UNIT_16BE);
	CHECK(unit_of_bom(BOM_UTF16LE) == UNIT_16LE);
	CHECK(unit_of_bom(BOM_UTF32BE) == UNIT_32BE);
	CHECK(unit_of_bom(BOM_UTF32LE) == UNIT_32LE);
	CHECK(unit_of_bom(BOM_UCS4_2143) == UNIT_32_2143);
	CHECK(unit_of_bom(BOM_UCS4_3412) == UNIT_32_3412);
}

/* XML 1.0 Appendix F.1, without a BOM: every row of its table, and fewer
 * than 4 bytes. */
static void
test_pat_sniff(void)
{
	static const struct {
		unsigned char	 b[4];
		enum pat	 pat;
		enum unit	 unit;
	} t[] = {
		{ { 0x00, 0x00, 0x00, 0x3C }, PAT_32BE, UNIT_32BE },
		{ { 0x3C, 0x00, 0x00, 0x00 }, PAT_32LE, UNIT_32LE },
		{ { 0x00, 0x00, 0x3C, 0x00 }, PAT_32_2143, UNIT_32_2143 },
		{ { 0x00, 0x3C, 0x00, 0x00 }, PAT_32_3412, UNIT_32_3412 },
		{ { 0x00, 0x3C, 0x00, 0x3F }, PAT_16BE, UNIT_16BE },
		{ { 0x3C, 0x00, 0x3F, 0x00 }, PAT_16LE, UNIT_16LE },
		{ { 0x3C, 0x3F, 0x78, 0x6D }, PAT_ASCII, UNIT_8 },
		{ { 0x4C, 0x6F, 0xA7, 0x94 }, PAT_EBCDIC, UNIT_EBCDIC },
		{ { 0x3C, 0x61, 0x2F, 0x3E }, PAT_UNKNOWN, UNIT_8 },
		{ { 0x3C, 0x3F, 0x78, 0x4D }, PAT_UNKNOWN, UNIT_8 },
		{ { 0x00, 0x00, 0x00, 0x00 }, PAT_UNKNOWN, UNIT_8 },
		{ { 0x00, 0x3C, 0x00, 0x61 }, PAT_UNKNOWN, UNIT_8 },
		{ { 0x4C, 0x6F, 0xA7, 0x95 }, PAT_UNKNOWN, UNIT_8 },
	};
	size_t i, n;

	for (i = 0; i < NELEM(t); i++) {
		if ((CHECK(pat_sniff(t[i].b, 4) == t[i].pat) &
		    CHECK(unit_of_pat(t[i].pat) == t[i].unit)) == 0)
			printf("  (pat_sniff case %zu)\n", i);
		/* A prefix of fewer than four bytes says nothing. */
		for (n = 0; n < 4; n++)
			if (!CHECK(pat_sniff(t[i].b, n) == PAT_UNKNOWN))
				printf("  (pat_sniff case %zu, n %zu)\n", i, n);
	}
	/* Only the first four bytes count. */
	CHECK(pat_sniff(B("<?xml version")) == PAT_ASCII);
	CHECK(strcmp(pat_name(PAT_16LE), "16-bit little-endian") == 0);
	CHECK(strcmp(pat_name(PAT_EBCDIC), "EBCDIC") == 0);
	CHECK(strcmp(pat_name(PAT_UNKNOWN), "no recognisable pattern") == 0);
}

/* unit_get in every layout. */
static void
test_unit_get(void)
{
	/* "<" in each layout, then a byte past the end. */
	CHECK(unit_size(UNIT_8) == 1);
	CHECK(unit_size(UNIT_EBCDIC) == 1);
	CHECK(unit_size(UNIT_16BE) == 2);
	CHECK(unit_size(UNIT_16LE) == 2);
	CHECK(unit_size(UNIT_32BE) == 4);
	CHECK(unit_size(UNIT_32LE) == 4);
	CHECK(unit_size(UNIT_32_2143) == 4);
	CHECK(unit_size(UNIT_32_3412) == 4);

	CHECK(unit_get(UNIT_8, B("<a"), 0) == '<');
	CHECK(unit_get(UNIT_8, B("<a"), 1) == 'a');
	CHECK(unit_get(UNIT_8, B("<a"), 2) == -1);
	CHECK(unit_get(UNIT_8, B("\x7F\x80\xFF"), 0) == 0x7F);
	CHECK(unit_get(UNIT_8, B("\x7F\x80\xFF"), 1) == 0x100);
	CHECK(unit_get(UNIT_8, B("\x7F\x80\xFF"), 2) == 0x100);
	CHECK(unit_get(UNIT_8, B("\x00"), 0) == 0);

	CHECK(unit_get(UNIT_16BE, B("\x00\x3C\x30\x42"), 0) == 0x3C);
	CHECK(unit_get(UNIT_16BE, B("\x00\x3C\x30\x42"), 2) == 0x3042);
	CHECK(unit_get(UNIT_16BE, B("\x00\x3C\x30"), 2) == -1);
	CHECK(unit_get(UNIT_16BE, B("\xFE\xFF"), 0) == 0xFEFF);
	CHECK(unit_get(UNIT_16LE, B("\x3C\x00\x42\x30"), 0) == 0x3C);
	CHECK(unit_get(UNIT_16LE, B("\x3C\x00\x42\x30"), 2) == 0x3042);
	CHECK(unit_get(UNIT_16LE, B("\x3C\x00\x42"), 2) == -1);
	CHECK(unit_get(UNIT_16LE, B("\xFF\xFE"), 0) == 0xFEFF);

	CHECK(unit_get(UNIT_32BE, B("\x00\x00\x00\x3C"), 0) == 0x3C);
	CHECK(unit_get(UNIT_32BE, B("\x00\x01\x02\x03"), 0) == 0x10203);
	CHECK(unit_get(UNIT_32BE, B("\x00\x10\xFF\xFF"), 0) == 0x10FFFF);
	CHECK(unit_get(UNIT_32BE, B("\x00\x11\x00\x00"), 0) == 0x100);
	CHECK(unit_get(UNIT_32BE, B("\xFF\xFF\xFF\xFF"), 0) == 0x100);
	CHECK(unit_get(UNIT_32BE, B("\x00\x00\x00"), 0) == -1);
	CHECK(unit_get(UNIT_32BE, B("\x00\x00\x00\x3C\x00"), 2) == -1);
	CHECK(unit_get(UNIT_32LE, B("\x3C\x00\x00\x00"), 0) == 0x3C);
	CHECK(unit_get(UNIT_32LE, B("\x03\x02\x01\x00"), 0) == 0x10203);
	CHECK(unit_get(UNIT_32LE, B("\x00\x00\x11\x00"), 0) == 0x100);
	CHECK(unit_get(UNIT_32_2143, B("\x00\x00\x3C\x00"), 0) == 0x3C);
	CHECK(unit_get(UNIT_32_2143, B("\x01\x00\x03\x02"), 0) == 0x10203);
	CHECK(unit_get(UNIT_32_3412, B("\x00\x3C\x00\x00"), 0) == 0x3C);
	CHECK(unit_get(UNIT_32_3412, B("\x02\x03\x00\x01"), 0) == 0x10203);
	CHECK(unit_get(UNIT_32_3412, B("\x00\x3C\x00"), 0) == -1);

	/* EBCDIC: the invariant characters read as ASCII, others as 0x100. */
	CHECK(unit_get(UNIT_EBCDIC, B("\x4C"), 0) == '<');
	CHECK(unit_get(UNIT_EBCDIC, B("\x6F"), 0) == '?');
	CHECK(unit_get(UNIT_EBCDIC, B("\xA7"), 0) == 'x');
	CHECK(unit_get(UNIT_EBCDIC, B("\x94"), 0) == 'm');
	CHECK(unit_get(UNIT_EBCDIC, B("\x93"), 0) == 'l');
	CHECK(unit_get(UNIT_EBCDIC, B("\x40"), 0) == ' ');
	CHECK(unit_get(UNIT_EBCDIC, B("\x7E"), 0) == '=');
	CHECK(unit_get(UNIT_EBCDIC, B("\x7F"), 0) == '"');
	CHECK(unit_get(UNIT_EBCDIC, B("\x7D"), 0) == '\'');
	CHECK(unit_get(UNIT_EBCDIC, B("\xC9"), 0) == 'I');
	CHECK(unit_get(UNIT_EBCDIC, B("\xE9"), 0) == 'Z');
	CHECK(unit_get(UNIT_EBCDIC, B("\xF0"), 0) == '0');
	CHECK(unit_get(UNIT_EBCDIC, B("\xF9"), 0) == '9');
	CHECK(unit_get(UNIT_EBCDIC, B("\x60"), 0) == '-');
	CHECK(unit_get(UNIT_EBCDIC, B("\x6D"), 0) == '_');
	CHECK(unit_get(UNIT_EBCDIC, B("\x4B"), 0) == '.');
	/* 0x15 is NEL in EBCDIC: no XML white space. */
	CHECK(unit_get(UNIT_EBCDIC, B("\x15"), 0) == 0x100);
	CHECK(unit_get(UNIT_EBCDIC, B("\x25"), 0) == '\n');
	CHECK(unit_get(UNIT_EBCDIC, B("\x0D"), 0) == '\r');
	CHECK(unit_get(UNIT_EBCDIC, B("\x05"), 0) == '\t');
	CHECK(unit_get(UNIT_EBCDIC, B("\x00"), 0) == 0);
	CHECK(unit_get(UNIT_EBCDIC, B("\x4A"), 0) == 0x100);
	CHECK(unit_get(UNIT_EBCDIC, B("\xFF"), 0) == 0x100);
	CHECK(unit_get(UNIT_EBCDIC, B("\x4C"), 1) == -1);

	/* An offset so large that off + size wraps around. */
	CHECK(unit_get(UNIT_32BE, B("\x00\x00\x00\x3C"), (size_t)-2) == -1);
	CHECK(unit_get(UNIT_16LE, B("\x3C\x00"), (size_t)-1) == -1);
}

void
unit_sniff(void)
{
	test_bom_sniff();
	test_pat_sniff();
	test_unit_get();
}

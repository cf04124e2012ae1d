/*
 * Unit tests for the detection core: the branches that the command line
 * cannot reach one at a time.  No framework: CHECK() counts, prints each
 * failure as "unit: FILE:LINE: failed: EXPR", and main() ends with
 * "N passed, M failed" and a non-zero exit status when anything failed.
 */
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "iconvcap.h"
#include "target.h"
#include "xmllex.h"
#include "simd.h"
#include "unit.h"
#include "kern.h"

static unsigned long npass, nfail;

/*
 * Every table of kernels that simd_init() takes, the reference first.  The
 * sweeps compare those this machine runs, and none, the portable one: a
 * level the machine lacks falls back to none (select.c): sweeping it
 * would compare the same table again, a third of the sweeps' time on a
 * machine with neither AVX-512 nor NEON.
 */
static const struct kernels *const all_levels[] = {
	&kernels_ref, &kernels_avx512, &kernels_avx2, &kernels_sse2,
	&kernels_neon, &kernels_word
};
const char *unit_levels[NELEM(all_levels)];
int unit_nlevels;

/* Fill unit_levels, and say which levels are swept as none. */
static void
pick_levels(void)
{
	const struct kernels *k;
	size_t i;
	int lacks = 0;

	for (i = 0; i < NELEM(all_levels); i++) {
		k = all_levels[i];
		if (k == &kernels_ref || k == &kernels_word ||
		    (k->usable != NULL && k->usable()))
			unit_levels[unit_nlevels++] = k->name;
		else {
			printf("%s%s", lacks++ ? ", " : "unit: levels ",
			    k->name);
		}
	}
	if (lacks > 0)
		printf(": not on this machine (simd_init() gives none"
		    " there), not swept twice\n");
}

int
check(int ok, const char *file, int line, const char *expr)
{
	if (ok)
		npass++;
	else {
		nfail++;
		printf("unit: %s:%d: failed: %s\n", file, line, expr);
	}
	return ok;
}

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

/* Whether this iconv has IBM037, the EBCDIC code page used below as a
 * table independent of the one in bom.c (glibc and GNU libiconv have it). */
static int
have_ebcdic(void)
{
	static int known = -1;

	if (known < 0)
		known = enc_iconv_ok("IBM037");
	return known;
}

/*
 * Lay the ASCII string a out in layout u at out[0..); return the byte
 * count.  EBCDIC goes through iconv's IBM037.
 */
static size_t
lay(enum unit u, const char *a, unsigned char *out)
{
	size_t i, n = strlen(a), k = 0;

	if (u == UNIT_EBCDIC) {
		iconv_t cd = iconv_open("IBM037", "US-ASCII");
		char *ip = (char *)(uintptr_t)a, *op = (char *)out;
		size_t il = n, ol = n;

		if (!CHECK(cd != (iconv_t)-1))
			return 0;
		CHECK(iconv(cd, &ip, &il, &op, &ol) == 0 && il == 0);
		iconv_close(cd);
		return n;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)a[i];

		switch (u) {
		case UNIT_8:
			out[k++] = c;
			break;
		case UNIT_16BE:
			out[k++] = 0;
			out[k++] = c;
			break;
		case UNIT_16LE:
			out[k++] = c;
			out[k++] = 0;
			break;
		case UNIT_32BE:
			out[k++] = 0;
			out[k++] = 0;
			out[k++] = 0;
			out[k++] = c;
			break;
		case UNIT_32LE:
			out[k++] = c;
			out[k++] = 0;
			out[k++] = 0;
			out[k++] = 0;
			break;
		case UNIT_32_2143:
			out[k++] = 0;
			out[k++] = 0;
			out[k++] = c;
			out[k++] = 0;
			break;
		case UNIT_32_3412:
			out[k++] = 0;
			out[k++] = c;
			out[k++] = 0;
			out[k++] = 0;
			break;
		default:
			break;
		}
	}
	return k;
}

static const enum unit all_units[] = {
	UNIT_8, UNIT_16BE, UNIT_16LE, UNIT_32BE, UNIT_32LE, UNIT_32_2143,
	UNIT_32_3412, UNIT_EBCDIC
};

/* Read the ASCII text a laid out in u after pre bytes of junk. */
static void
read_in(enum unit u, size_t pre, const char *a, int eof, struct decl *d)
{
	static unsigned char buf[4 * 70000];
	size_t n;

	memset(buf, 0xAB, pre);
	n = lay(u, a, buf + pre);
	decl_read(buf, pre + n, pre, u, eof, d);
}

/* A complete XML declaration, read in every layout, at two starts. */
static void
test_decl_layouts(void)
{
	static const char text[] =
	    "<?xml version=\"1.0\" encoding=\"IBM037\" standalone=\"yes\"?>"
	    "<a/>";
	/* Character indexes in text. */
	const size_t ver_end = 19, enc_off = 30, enc_end = 36, end = 56;
	size_t i, pre;
	struct decl d;

	for (i = 0; i < NELEM(all_units); i++) {
		enum unit u = all_units[i];
		size_t us = (size_t)unit_size(u);

		if (u == UNIT_EBCDIC && !have_ebcdic()) {
			printf("unit: no IBM037 in iconv; EBCDIC layout not "
			    "tested\n");
			continue;
		}
		for (pre = 0; pre <= 4; pre += us) {
			int ok = 1;

			read_in(u, pre, text, 1, &d);
			ok &= CHECK(d.present == 1);
			ok &= CHECK(d.bad == 0);
			ok &= CHECK(d.has_version == 1);
			ok &= CHECK(strcmp(d.version, "1.0") == 0);
			ok &= CHECK(d.has_encoding == 1);
			ok &= CHECK(strcmp(d.encoding, "IBM037") == 0);
			ok &= CHECK(d.enc_ok == 1);
			ok &= CHECK(d.quote == '"');
			ok &= CHECK(d.standalone == 1);
			ok &= CHECK(d.start == pre);
			ok &= CHECK(d.ver_end == pre + ver_end * us);
			ok &= CHECK(d.enc_off == pre + enc_off * us);
			ok &= CHECK(d.enc_end == pre + enc_end * us);
			ok &= CHECK(d.end == pre + end * us);
			ok &= CHECK(d.late == 0);
			ok &= CHECK(d.role == ROLE_DOCUMENT);
			if (!ok)
				printf("  (layout %d, start %zu)\n", (int)u, pre);
		}
	}
}

/* Quotes, standalone, versions and roles. */
static void
test_decl_values(void)
{
	struct decl d;

	read_in(UNIT_8, 0, "<?xml version='1.1' encoding='utf-8'?>", 1, &d);
	CHECK(d.present && !d.bad);
	CHECK(strcmp(d.version, "1.1") == 0);
	CHECK(d.quote == '\'');
	CHECK(strcmp(d.encoding, "utf-8") == 0);
	CHECK(d.standalone == -1);
	CHECK(d.ver_end == 19 && d.enc_off == 30 && d.enc_end == 35);
	CHECK(d.end == 38);

	read_in(UNIT_8, 0, "<?xml version=\"1.0\" standalone='no'?>", 1, &d);
	CHECK(d.present && !d.bad && !d.has_encoding);
	CHECK(d.standalone == 0);
	CHECK(d.quote == '\0');

	/* White space around "=" and before "?>". */
	read_in(UNIT_16LE, 0, "<?xml\tversion = \"1.0\"\r\n encoding\n=\n'x-a'"
	    "  ?>", 1, &d);
	CHECK(d.present && !d.bad);
	CHECK(strcmp(d.encoding, "x-a") == 0 && d.enc_ok);
	CHECK(d.enc_off == 2 * 36);
	CHECK(d.end == 2 * 44);

	/* A text declaration: encoding without version. */
	read_in(UNIT_8, 0, "<?xml encoding=\"ISO-8859-1\"?>text", 1, &d);
	CHECK(d.present && !d.bad && !d.has_version && d.has_encoding);
	CHECK(d.role == ROLE_ENTITY);

	/* "<?xml?>" is a declaration without pseudo-attributes. */
	read_in(UNIT_8, 0, "<?xml?><a/>", 1, &d);
	CHECK(d.present && !d.bad && !d.has_version && !d.has_encoding);
	CHECK(d.end == 7);

	/* Not declarations: other names that begin with "xml". */
	read_in(UNIT_8, 0, "<?xml-stylesheet href=\"a\"?><a/>", 1, &d);
	CHECK(!d.present && !d.late && !d.bad);
	CHECK(d.late_what[0] == '\0');
	read_in(UNIT_8, 0, "<?xmlfoo?><a/>", 1, &d);
	CHECK(!d.present && !d.late);
	read_in(UNIT_8, 0, "<?XML version=\"1.0\"?>", 1, &d);
	CHECK(!d.present);
	read_in(UNIT_8, 0, "", 1, &d);
	CHECK(!d.present && !d.late && !d.bad && d.standalone == -1);
	CHECK(d.role == ROLE_DOCUMENT);

	/* Roles from what follows. */
	read_in(UNIT_8, 0, "<?xml version=\"1.0\"?>\n<!DOCTYPE a><a/>", 1, &d);
	CHECK(d.role == ROLE_DOCUMENT);
	read_in(UNIT_8, 0, "<?xml encoding=\"UTF-8\"?>\n<!ELEMENT a ANY>", 1,
	    &d);
	CHECK(d.role == ROLE_DTD);
	read_in(UNIT_8, 0, "<?xml encoding=\"UTF-8\"?><!-- c --><?pi?>"
	    "<!ATTLIST a b CDATA #IMPLIED>", 1, &d);
	CHECK(d.role == ROLE_DTD);
	read_in(UNIT_8, 0, "<!ENTITY e \"x\">", 1, &d);
	CHECK(d.role == ROLE_DTD);
	read_in(UNIT_8, 0, "%pe;", 1, &d);
	CHECK(d.role == ROLE_DTD);
	read_in(UNIT_8, 0, "<![INCLUDE[ ]]>", 1, &d);
	CHECK(d.role == ROLE_DTD);
	read_in(UNIT_8, 0, "<a>text</a>", 1, &d);
	CHECK(d.role == ROLE_DOCUMENT);
	read_in(UNIT_16BE, 0, "<?xml encoding=\"UTF-16\"?>some text", 1, &d);
	CHECK(d.role == ROLE_ENTITY);
	/* Without a text declaration, content that is not markup counts as
	 * a document (RFC 7303 section 9.3: the external parsed entity
	 * type is for entities that begin with a text declaration). */
	read_in(UNIT_8, 0, "</a>", 1, &d);
	CHECK(d.role == ROLE_DOCUMENT);
	read_in(UNIT_8, 0, "<?xml encoding=\"UTF-8\"?></a>", 1, &d);
	CHECK(d.role == ROLE_ENTITY);
}

/* Read the UTF-8 text a; check the first syntax error and where it is. */
static void
bad_case(int line, const char *a, size_t off, const char *what)
{
	struct decl d;
	char where[32];

	snprintf(where, sizeof(where), "decl case at line %d", line);
	read_in(UNIT_8, 0, a, 1, &d);
	if ((CHECK(d.bad == 1) & CHECK(d.bad_off == off) &
	    CHECK(strstr(d.bad_msg, what) != NULL)) == 0)
		printf("  (%s: bad %d at %zu, \"%s\")\n", where, d.bad,
		    d.bad_off, d.bad_msg);
}

/* Every syntax error of decl.c: the flag, the offset, the message. */
static void
test_decl_errors(void)
{
	static char big[20100];
	struct decl d;

	bad_case(__LINE__, "<?xml version=1.0?>", 14, "in quotes");
	bad_case(__LINE__, "<?xml version=\"1.0", 14, "not closed");
	bad_case(__LINE__, "<?xml version=\"1.0?>", 18, "not closed");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"a>b\"?>", 31,
	    "not closed");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"UTF\n8\"?>", 33,
	    "not closed");
	bad_case(__LINE__, "<?xml version=\"1.0\" ", 20, "not closed by");
	bad_case(__LINE__, "<?xml version=\"1.0\"", 19, "not closed by");
	bad_case(__LINE__, "<?xml version=\"1.0\" 5?>", 20,
	    "unexpected character");
	bad_case(__LINE__, "<?xml version=\"1.0\"?<a/>", 19,
	    "unexpected character");
	bad_case(__LINE__, "<?xml version=\"1.0\"encoding=\"UTF-8\"?>", 19,
	    "white space is missing");
	bad_case(__LINE__, "<?xml version \"1.0\"?>", 14, "\"=\" expected");
	bad_case(__LINE__, "<?xml version=\"1.0\" version=\"1.0\"?>", 20,
	    "version appears twice");
	bad_case(__LINE__, "<?xml encoding=\"UTF-8\" version=\"1.0\"?>", 23,
	    "version must come first");
	bad_case(__LINE__, "<?xml version=\"2.0\"?>", 15, "version must be");
	bad_case(__LINE__, "<?xml version=\"1.\"?>", 15, "version must be");
	bad_case(__LINE__, "<?xml version=\"1.0a\"?>", 15, "version must be");
	bad_case(__LINE__, "<?xml version=\"\"?>", 15, "version must be");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"a\" "
	    "encoding=\"b\"?>", 33, "encoding appears twice");
	bad_case(__LINE__, "<?xml version=\"1.0\" standalone=\"no\" "
	    "encoding=\"UTF-8\"?>", 36, "encoding must come before standalone");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"8bit\"?>", 30,
	    "EncName");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"UTF 8\"?>", 30,
	    "EncName");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"\"?>", 30,
	    "EncName");
	bad_case(__LINE__, "<?xml version=\"1.0\" encoding=\"caf\xC3\xA9\"?>",
	    30, "EncName");
	bad_case(__LINE__, "<?xml version=\"1.0\" standalone=\"yes\" "
	    "standalone=\"no\"?>", 37, "standalone appears twice");
	bad_case(__LINE__, "<?xml version=\"1.0\" standalone=\"maybe\"?>", 32,
	    "\"yes\" or \"no\"");
	bad_case(__LINE__, "<?xml version=\"1.0\" standalone=\"YES\"?>", 32,
	    "\"yes\" or \"no\"");
	bad_case(__LINE__, "<?xml version=\"1.0\" foo=\"bar\"?>", 20,
	    "unknown pseudo-attribute");

	/* What is still recorded after an error. */
	read_in(UNIT_8, 0, "<?xml version=\"1.0\" encoding=\"a\" encoding=\"b\"?>"
	    "<a/>", 1, &d);
	CHECK(strcmp(d.encoding, "a") == 0 && d.enc_off == 30);
	read_in(UNIT_8, 0, "<?xml version=\"1.0\" standalone=\"no\" "
	    "encoding=\"UTF-8\"?>", 1, &d);
	CHECK(d.has_encoding && strcmp(d.encoding, "UTF-8") == 0);
	CHECK(d.standalone == 0);
	read_in(UNIT_8, 0, "<?xml encoding=\"UTF-8\" version=\"1.0\"?>", 1, &d);
	CHECK(!d.has_version && d.has_encoding);
	read_in(UNIT_8, 0, "<?xml version=\"1.0\" encoding=\"8bit\"?>", 1, &d);
	CHECK(d.has_encoding && !d.enc_ok && strcmp(d.encoding, "8bit") == 0);
	read_in(UNIT_8, 0, "<?xml version=\"1.0\" encoding=\"caf\xC3\xA9\"?>", 1,
	    &d);
	CHECK(!d.enc_ok && strcmp(d.encoding, "caf\xC3\xA9") == 0);
	/* The value as written, never '?' for what is not ASCII. */
	read_in(UNIT_8, 0, "<?xml version=\"1.0\" encoding=\"a\tb\xE9\"?>", 1,
	    &d);
	CHECK(!d.enc_ok && strcmp(d.encoding, "a\tb\xE9") == 0);
	/* After an error the end is still found. */
	read_in(UNIT_8, 0, "<?xml version=\"1.0\" 5?><a/>", 1, &d);
	CHECK(d.bad && d.end == 23);
	read_in(UNIT_8, 0, "<?xml version=1.0?><a/>", 1, &d);
	CHECK(d.bad && d.end == 19);
	read_in(UNIT_8, 0, "<?xml version=\"1.0", 1, &d);
	CHECK(d.bad && d.end == 18);

	/* Offsets of an error scale with the unit size. */
	read_in(UNIT_16LE, 2, "<?xml version=\"1.0\" foo=\"bar\"?>", 1, &d);
	CHECK(d.bad && d.bad_off == 2 + 2 * 20);
	read_in(UNIT_32BE, 4, "<?xml version=1.0?>", 1, &d);
	CHECK(d.bad && d.bad_off == 4 + 4 * 14);
	if (have_ebcdic()) {
		read_in(UNIT_EBCDIC, 0, "<?xml version=\"1.0\" "
		    "encoding=\"8bit\"?>", 1, &d);
		CHECK(d.bad && d.bad_off == 30);
	}

	/* A long encoding name: kept to 255 characters, never an EncName. */
	memcpy(big, "<?xml version=\"1.0\" encoding=\"", 30);
	memset(big + 30, 'a', 300);
	memcpy(big + 330, "\"?>", 4);
	read_in(UNIT_8, 0, big, 1, &d);
	CHECK(d.has_encoding && strlen(d.encoding) == 255);
	CHECK(!d.enc_ok && d.bad && d.bad_off == 30);
	CHECK(d.enc_end == 330 && d.end == 333);

	/* A declaration longer than DECL_MAX characters. */
	memcpy(big, "<?xml", 5);
	memset(big + 5, ' ', 17000);
	strcpy(big + 17005, "version=\"1.0\"?>");
	read_in(UNIT_8, 0, big, 1, &d);
	CHECK(d.present && d.bad && d.bad_off == 0);
	CHECK(strstr(d.bad_msg, "longer than") != NULL);
}

/* decl-not-at-start: white space, a second U+FEFF, a comment or PI. */
static void
test_decl_late(void)
{
	struct decl d;

	read_in(UNIT_8, 0, "  <?xml version=\"1.0\"?>", 1, &d);
	CHECK(!d.present && d.late && d.late_off == 2);
	CHECK(strcmp(d.late_what, "white space") == 0);
	read_in(UNIT_8, 0, "\n<?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.late && d.late_off == 1);
	read_in(UNIT_16BE, 2, "\t\r\n <?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.late && d.late_off == 2 + 2 * 4);
	read_in(UNIT_32LE, 4, " <?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.late && d.late_off == 4 + 4);
	if (have_ebcdic()) {
		read_in(UNIT_EBCDIC, 0, " <?xml version=\"1.0\"?>", 1, &d);
		CHECK(d.late && d.late_off == 1);
	}

	read_in(UNIT_8, 0, "<!-- c --><?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.late && d.late_off == 10);
	CHECK(strcmp(d.late_what, "a comment or processing instruction") == 0);
	read_in(UNIT_8, 0, "<?pi x?>\n<?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.late && d.late_off == 9);
	CHECK(strcmp(d.late_what, "a comment or processing instruction") == 0);
	/* The first thing that precedes is what is named. */
	read_in(UNIT_8, 0, " <!-- c --><?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.late && d.late_off == 11);
	CHECK(strcmp(d.late_what, "white space") == 0);

	/* A second U+FEFF after the BOM (RFC 3629 section 6). */
	{
		static const unsigned char u8[] =
		    "\xEF\xBB\xBF\xEF\xBB\xBF<?xml version=\"1.0\"?>";
		static const unsigned char u16le[] =
		    "\xFF\xFE\xFF\xFE<\0?\0x\0m\0l\0 \0v\0e\0r\0s\0i\0o\0n\0=\0"
		    "'\0001\0.\0000\0'\0?\0>\0";
		static const unsigned char u32be[] =
		    "\0\0\xFE\xFF\0\0\xFE\xFF\0\0\0<\0\0\0?\0\0\0x\0\0\0m\0\0\0l"
		    "\0\0\0?\0\0\0>";
		static const unsigned char u8ws[] =
		    "\xEF\xBB\xBF\xEF\xBB\xBF <?xml version=\"1.0\"?>";

		decl_read(u8, sizeof(u8) - 1, 3, UNIT_8, 1, &d);
		CHECK(!d.present && d.late && d.late_off == 6);
		CHECK(strcmp(d.late_what, "a second U+FEFF") == 0);
		decl_read(u16le, sizeof(u16le) - 1, 2, UNIT_16LE, 1, &d);
		CHECK(!d.present && d.late && d.late_off == 4);
		CHECK(strcmp(d.late_what, "a second U+FEFF") == 0);
		decl_read(u32be, sizeof(u32be) - 1, 4, UNIT_32BE, 1, &d);
		CHECK(!d.present && d.late && d.late_off == 8);
		CHECK(strcmp(d.late_what, "a second U+FEFF") == 0);
		decl_read(u8ws, sizeof(u8ws) - 1, 3, UNIT_8, 1, &d);
		CHECK(d.late && d.late_off == 7);
		CHECK(strcmp(d.late_what, "a second U+FEFF") == 0);
	}

	/* Nothing late: no declaration after what precedes, or none at all. */
	read_in(UNIT_8, 0, "  <a/>", 1, &d);
	CHECK(!d.present && !d.late && d.late_what[0] == '\0');
	read_in(UNIT_8, 0, "<!-- c --><a/>", 1, &d);
	CHECK(!d.late && d.late_what[0] == '\0');
	read_in(UNIT_8, 0, "<a/><?xml version=\"1.0\"?>", 1, &d);
	CHECK(!d.late);
	read_in(UNIT_8, 0, "<!-- not closed <?xml version=\"1.0\"?>", 1, &d);
	CHECK(!d.late);
	read_in(UNIT_8, 0, "<?xml version=\"1.0\"?>", 1, &d);
	CHECK(d.present && !d.late);
}

/* EncName, XML 1.0 [81]. */
static void
test_encname(void)
{
	CHECK(decl_encname_ok("UTF-8"));
	CHECK(decl_encname_ok("a"));
	CHECK(decl_encname_ok("Z"));
	CHECK(decl_encname_ok("ISO_8859-1"));
	CHECK(decl_encname_ok("x.y_z-9"));
	CHECK(decl_encname_ok("a--"));
	CHECK(!decl_encname_ok(""));
	CHECK(!decl_encname_ok("8bit"));
	CHECK(!decl_encname_ok("-a"));
	CHECK(!decl_encname_ok("_a"));
	CHECK(!decl_encname_ok(".a"));
	CHECK(!decl_encname_ok("UTF 8"));
	CHECK(!decl_encname_ok("utf8:x"));
	CHECK(!decl_encname_ok("a+b"));
	CHECK(!decl_encname_ok("caf\xC3\xA9"));
	CHECK(!decl_encname_ok("\xC3\xA9"));
}

/* XML 1.0 section 4.3.3, IANA registered names: names, aliases, case,
 * loose matches, iconv names. */
static void
test_enc_lookup(void)
{
	static const struct {
		const char	*label;
		const char	*name;
		enum family	 family;
		int		 registered;
	} t[] = {
		{ "UTF-8", "UTF-8", ENC_F_UTF8, 1 },
		{ "utf-8", "UTF-8", ENC_F_UTF8, 1 },
		{ "Utf-16", "UTF-16", ENC_F_16, 1 },
		{ "UTF-16BE", "UTF-16BE", ENC_F_16BE, 1 },
		{ "utf-16le", "UTF-16LE", ENC_F_16LE, 1 },
		{ "UTF-32", "UTF-32", ENC_F_32, 1 },
		{ "UTF-32BE", "UTF-32BE", ENC_F_32BE, 1 },
		{ "UTF-32LE", "UTF-32LE", ENC_F_32LE, 1 },
		{ "ISO-10646-UCS-2", "ISO-10646-UCS-2", ENC_F_UCS2, 1 },
		{ "csUnicode", "ISO-10646-UCS-2", ENC_F_UCS2, 1 },
		{ "ISO-10646-UCS-4", "ISO-10646-UCS-4", ENC_F_UCS4, 1 },
		{ "Shift_JIS", "Shift_JIS", ENC_F_ASCII, 1 },
		{ "MS_Kanji", "Shift_JIS", ENC_F_ASCII, 1 },
		{ "csShiftJIS", "Shift_JIS", ENC_F_ASCII, 1 },
		{ "IBM037", "IBM037", ENC_F_EBCDIC, 1 },
		{ "cp037", "IBM037", ENC_F_EBCDIC, 1 },
		{ "ebcdic-cp-us", "IBM037", ENC_F_EBCDIC, 1 },
		{ "latin1", "ISO-8859-1", ENC_F_ASCII, 1 },
		{ "ISO_8859-1:1987", "ISO-8859-1", ENC_F_ASCII, 1 },
		{ "LATIN1", "ISO-8859-1", ENC_F_ASCII, 1 },
		{ "us-ascii", "US-ASCII", ENC_F_ASCII, 1 },
		{ "EUC-JP", "EUC-JP", ENC_F_ASCII, 1 },
		{ "windows-1252", "windows-1252", ENC_F_ASCII, 1 },
		/* Loose matches: known, not registered as written. */
		{ "utf8", "UTF-8", ENC_F_UTF8, 0 },
		{ "UTF_16", "UTF-16", ENC_F_16, 0 },
		{ "IBM-1141", "IBM01141", ENC_F_EBCDIC, 0 },
		{ "iso8859-1", "ISO-8859-1", ENC_F_ASCII, 0 },
		{ "ISO 8859 1", "ISO-8859-1", ENC_F_ASCII, 0 },
		/* iconv's spellings: the registry entry they mean. */
		{ "UCS-2", "ISO-10646-UCS-2", ENC_F_UCS2, 0 },
		{ "UCS-4", "ISO-10646-UCS-4", ENC_F_UCS4, 0 },
		{ "UNICODE", "ISO-10646-UCS-2", ENC_F_UCS2, 0 },
		{ "cp1252", "windows-1252", ENC_F_ASCII, 0 },
		{ "sjis", "Shift_JIS", ENC_F_ASCII, 0 },
		{ "ascii", "US-ASCII", ENC_F_ASCII, 0 },
		{ "cp932", "Windows-31J", ENC_F_ASCII, 0 },
		{ "CP1047", "IBM1047", ENC_F_EBCDIC, 0 },
	};
	struct enc e;
	char longname[200];
	size_t i;

	for (i = 0; i < NELEM(t); i++) {
		int ok = 1;

		ok &= CHECK(enc_lookup(t[i].label, &e) == 0);
		ok &= CHECK(strcmp(e.name, t[i].name) == 0);
		ok &= CHECK(e.family == t[i].family);
		ok &= CHECK(e.registered == t[i].registered);
		ok &= CHECK(e.known == 1);
		if (!ok)
			printf("  (enc_lookup \"%s\": \"%s\" family %d "
			    "registered %d)\n", t[i].label, e.name,
			    (int)e.family, e.registered);
	}
	/* The name for iconv: the first of the entry's that this iconv
	 * accepts (src/lib/sniff/enctab.h), "" where it accepts none. */
	CHECK(enc_lookup("UTF-16", &e) == 0 &&
	    strcmp(enc_iconv(&e), "UTF-16") == 0);
	CHECK(enc_lookup("ISO-10646-UCS-2", &e) == 0 &&
	    strcmp(enc_iconv(&e), "UCS-2") == 0);
	CHECK(enc_lookup("latin1", &e) == 0 &&
	    strcmp(enc_iconv(&e), "ISO-8859-1") == 0);
	CHECK(enc_lookup("IBM037", &e) == 0 && strcmp(enc_iconv(&e),
	    enc_iconv_ok("IBM037") ? "IBM037" : "") == 0);
	/* glibc knows IBM01141 only without the padding zero. */
	CHECK(enc_lookup("IBM01141", &e) == 0);
	if (enc_iconv_ok("IBM1141") && !enc_iconv_ok("IBM01141"))
		CHECK(strcmp(enc_iconv(&e), "IBM1141") == 0);

	/* Names of one entry are one label, not one encoding: ISO-8859-11
	 * (an alias of TIS-620, NO-BREAK SPACE at A0 besides) is decoded
	 * and reported by its own name where iconv reads it otherwise; an
	 * alias iconv reads alike (latin1) is not.  glibc's TIS-620 lacks
	 * A0; other C libraries may read the two alike. */
#ifdef __GLIBC__
	if (enc_iconv_ok("ISO-8859-11") && enc_iconv_ok("TIS-620")) {
		struct enc tis;

		CHECK(enc_lookup("iso-8859-11", &e) == 0 && e.registered);
		CHECK(enc_lookup("TIS-620", &tis) == 0 && enc_same(&e, &tis));
		CHECK(strcmp(e.name, "TIS-620") == 0);
		CHECK(strcmp(enc_iconv(&e), "iso-8859-11") == 0);
		CHECK(strcmp(enc_report_name(&e), "ISO-8859-11") == 0);
		CHECK(strcmp(enc_report_name(&tis), "TIS-620") == 0);
	} else
		printf("unit: no ISO-8859-11 or TIS-620 in iconv; not "
		    "tested\n");
#endif
	CHECK(enc_lookup("latin1", &e) == 0 &&
	    strcmp(enc_report_name(&e), "ISO-8859-1") == 0);

	/* Known to iconv only (names glibc and GNU libiconv accept): the
	 * family comes from how the encoding writes "<?xml". */
	if (enc_iconv_ok("CP1125")) {
		CHECK(enc_lookup("CP1125", &e) == 0);
		CHECK(e.known && !e.registered &&
		    strcmp(enc_iconv(&e), "CP1125") == 0);
		CHECK(strcmp(e.name, "CP1125") == 0 && e.family == ENC_F_ASCII);
	} else
		printf("unit: no CP1125 in iconv; not tested\n");
	/* ... or how it writes "<?xml" in 16/32-bit units of one order. */
	if (enc_iconv_ok("UCS-2LE")) {
		CHECK(enc_lookup("UCS-2LE", &e) == 0);
		CHECK(e.known && !e.registered && e.family == ENC_F_16LE);
	} else
		printf("unit: no UCS-2LE in iconv; not tested\n");
	if (enc_iconv_ok("UCS-4LE")) {
		CHECK(enc_lookup("UCS-4LE", &e) == 0);
		CHECK(e.known && !e.registered && e.family == ENC_F_32LE);
	} else
		printf("unit: no UCS-4LE in iconv; not tested\n");

	/* Unknown: -1, the name as given, nothing known. */
	CHECK(enc_lookup("no-such-encoding", &e) == -1);
	CHECK(strcmp(e.name, "no-such-encoding") == 0);
	CHECK(!e.known && !e.registered && enc_iconv(&e)[0] == '\0');
	CHECK(enc_lookup("", &e) == -1 && !e.known);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK(enc_lookup(longname, &e) == -1 && !e.known);
	CHECK(strncmp(e.name, longname, 100) == 0);

	CHECK(enc_iconv_ok("UTF-8"));
	CHECK(enc_iconv_ok("ISO-8859-1"));
	CHECK(!enc_iconv_ok(""));
	CHECK(!enc_iconv_ok("no-such-encoding"));

	CHECK(enc_is_utf16(ENC_F_16) && enc_is_utf16(ENC_F_16BE) &&
	    enc_is_utf16(ENC_F_16LE));
	CHECK(!enc_is_utf16(ENC_F_32) && !enc_is_utf16(ENC_F_UTF8));
	CHECK(enc_is_utf32(ENC_F_32) && enc_is_utf32(ENC_F_32BE) &&
	    enc_is_utf32(ENC_F_32LE));
	CHECK(!enc_is_utf32(ENC_F_16) && !enc_is_utf32(ENC_F_ASCII));
	CHECK(enc_is_16(ENC_F_UCS2) && !enc_is_utf16(ENC_F_UCS2) &&
	    enc_is_16(ENC_F_16) && !enc_is_16(ENC_F_UCS4));
	CHECK(enc_is_32(ENC_F_UCS4) && !enc_is_utf32(ENC_F_UCS4) &&
	    enc_is_32(ENC_F_32LE) && !enc_is_32(ENC_F_UCS2));
	CHECK(strcmp(enc_family_name(ENC_F_EBCDIC), "an EBCDIC encoding") == 0);
	CHECK(strcmp(enc_family_name(ENC_F_16LE),
	    "a 16-bit little-endian encoding") == 0);
	CHECK(strcmp(enc_family_name(ENC_F_UCS4), "a 32-bit encoding") == 0);

	{
		char low[8];

		enc_lower(low, "ABCDEFGHIJ", sizeof(low));
		CHECK(strcmp(low, "abcdefg") == 0);
		enc_lower(low, "Shift_JIS", 1);
		CHECK(low[0] == '\0');
	}
}

/* Look two labels up and ask whether they can describe the same bytes. */
static int
compat(const char *a, const char *b)
{
	struct enc ea, eb;

	enc_lookup(a, &ea);
	enc_lookup(b, &eb);
	return enc_compatible(&ea, &eb);
}

static void
test_enc_compatible(void)
{
	CHECK(compat("UTF-16", "UTF-16LE"));
	CHECK(compat("UTF-16BE", "utf-16"));
	CHECK(compat("UTF-16", "UTF-16"));
	CHECK(compat("UTF-32", "UTF-32BE"));
	CHECK(compat("UTF-32LE", "UTF-32"));
	CHECK(compat("latin1", "ISO-8859-1"));
	CHECK(compat("utf8", "UTF-8"));
	CHECK(compat("MS_Kanji", "shift_jis"));
	CHECK(compat("x-unknown", "X-UNKNOWN"));
	CHECK(!compat("UTF-16BE", "UTF-16LE"));
	CHECK(!compat("UTF-16", "UTF-32LE"));
	CHECK(!compat("UTF-32", "UTF-16BE"));
	CHECK(!compat("UTF-8", "UTF-16"));
	CHECK(!compat("ISO-10646-UCS-2", "UTF-16LE"));
	CHECK(!compat("ISO-8859-1", "windows-1252"));
	CHECK(!compat("x-unknown", "UTF-8"));
	CHECK(!compat("x-unknown", "x-other"));
	{
		struct enc a, b;

		enc_lookup("latin1", &a);
		enc_lookup("l1", &b);
		CHECK(enc_same(&a, &b));
		enc_lookup("UTF-16", &b);
		CHECK(!enc_same(&a, &b));
	}
}

/* Parse a Content-Type that must be accepted. */
static int
mt_good(const char *v, struct mt *m)
{
	char err[200] = "";

	if (mt_parse(v, m, err, sizeof(err)) != 0) {
		printf("  (mt_parse \"%s\": %s)\n", v, err);
		return 0;
	}
	return 1;
}

/* Parse a Content-Type that must be refused with a reason holding what. */
static int
mt_bad(const char *v, const char *what)
{
	struct mt m;
	char err[200] = "";

	if (mt_parse(v, &m, err, sizeof(err)) != -1 ||
	    strstr(err, what) == NULL) {
		printf("  (mt_parse \"%.60s\": \"%s\")\n", v, err);
		return 0;
	}
	return 1;
}

static void
test_mt_parse(void)
{
	struct mt m;
	char v[5000];

	CHECK(mt_good("application/xml", &m));
	CHECK(strcmp(m.type, "application/xml") == 0 && m.xml);
	CHECK(!m.has_charset && !m.role_known);
	CHECK(mt_good("text/xml;charset=UTF-8", &m));
	CHECK(strcmp(m.type, "text/xml") == 0 && m.xml);
	CHECK(m.has_charset && strcmp(m.charset, "UTF-8") == 0);
	CHECK(mt_good(" Text/XML ;  Charset=\"Shift_JIS\"  ", &m));
	CHECK(strcmp(m.type, "text/xml") == 0);
	CHECK(strcmp(m.charset, "Shift_JIS") == 0);
	CHECK(mt_good("application/xml; q=1; CHARSET=utf-16; x=\"y;z\"", &m));
	CHECK(strcmp(m.charset, "utf-16") == 0);
	CHECK(mt_good("application/xml; charset=\"a\\\"b\"", &m));
	CHECK(strcmp(m.charset, "a\"b") == 0);
	CHECK(mt_good("application/xml;;charset=utf-8;", &m));
	CHECK(m.has_charset && strcmp(m.charset, "utf-8") == 0);
	CHECK(mt_good("application/xml\t;\tcharset=utf-8", &m));
	CHECK(mt_good("application/atom+xml; charset=iso-8859-1", &m));
	CHECK(m.xml && !m.role_known);
	CHECK(mt_good("image/svg+xml", &m));
	CHECK(m.xml);
	CHECK(mt_good("text/plain; charset=us-ascii", &m));
	CHECK(!m.xml && m.has_charset);
	CHECK(mt_good("application/json", &m));
	CHECK(!m.xml);
	CHECK(mt_good("application/+xml", &m));
	CHECK(!m.xml);
	CHECK(mt_good("application/xml-dtd", &m));
	CHECK(m.xml && m.role_known && m.role == ROLE_DTD);
	CHECK(mt_good("application/xml-external-parsed-entity", &m));
	CHECK(m.xml && m.role_known && m.role == ROLE_ENTITY);
	CHECK(mt_good("Text/XML-External-Parsed-Entity; charset=utf-8", &m));
	CHECK(m.xml && m.role_known && m.role == ROLE_ENTITY);
	/* 127 characters of charset fit; 128 do not. */
	memcpy(v, "text/xml; charset=", 18);
	memset(v + 18, 'a', 127);
	v[18 + 127] = '\0';
	CHECK(mt_good(v, &m));
	CHECK(strlen(m.charset) == 127);

	/* Every error path. */
	memset(v + 18, 'a', 128);
	v[18 + 128] = '\0';
	CHECK(mt_bad(v, "the charset value is too long"));
	memset(v, ' ', 4097);
	memcpy(v, "text/xml", 8);
	v[4097] = '\0';
	CHECK(mt_bad(v, "longer than 4096 bytes"));
	CHECK(mt_bad("", "expected type/subtype"));
	CHECK(mt_bad("application", "expected type/subtype"));
	CHECK(mt_bad("/xml", "expected type/subtype"));
	CHECK(mt_bad("application xml", "expected type/subtype"));
	CHECK(mt_bad("application/", "the subtype is missing"));
	CHECK(mt_bad("application/;charset=utf-8", "the subtype is missing"));
	memset(v, 'a', 64);
	strcpy(v + 64, "/xml");
	CHECK(mt_bad(v, "the media type is too long"));
	memcpy(v, "application/", 12);
	memset(v + 12, 'a', 64);
	v[76] = '\0';
	CHECK(mt_bad(v, "the media type is too long"));
	CHECK(mt_bad("application/xml x", "unexpected \"x\" at byte 17"));
	CHECK(mt_bad("application/xml, text/xml", "unexpected \",\" at byte 16"));
	CHECK(mt_bad("application/xml; charset",
	    "a parameter at byte 18 is not name=value"));
	CHECK(mt_bad("application/xml; =utf-8",
	    "a parameter at byte 18 is not name=value"));
	CHECK(mt_bad("application/xml; charset = utf-8", "not name=value"));
	CHECK(mt_bad("application/xml; charset=\"utf-8",
	    "a quoted parameter value is not closed"));
	CHECK(mt_bad("application/xml; charset=\"utf-8\\",
	    "a quoted parameter value is not closed"));
	CHECK(mt_bad("application/xml; charset=",
	    "parameter \"charset\" has no value"));
	CHECK(mt_bad("application/xml; charset=;",
	    "parameter \"charset\" has no value"));
	CHECK(mt_bad("application/xml; charset=a; Charset=b",
	    "charset is given twice"));
	CHECK(mt_bad("application/xml; charset=\"\"",
	    "the charset value is empty"));
}

/* diag_add keeps the first occurrence and counts; diag_order sorts. */
static void
test_diag(void)
{
	struct diags dg;
	enum code order[D_NCODES];
	char big[600];
	int n;

	memset(&dg, 0, sizeof(dg));
	CHECK(diag_order(&dg, order) == 0);

	diag_add(&dg, D_ILLEGAL_CHAR, 10, 2, 3, "first %d", 1);
	diag_add(&dg, D_ILLEGAL_CHAR, 5, 1, 6, "second %d", 2);
	diag_add(&dg, D_ILLEGAL_CHAR, 20, 4, 1, "third");
	CHECK(dg.d[D_ILLEGAL_CHAR].count == 3);
	CHECK(dg.d[D_ILLEGAL_CHAR].off == 10);
	CHECK(dg.d[D_ILLEGAL_CHAR].line == 2);
	CHECK(dg.d[D_ILLEGAL_CHAR].col == 3);
	CHECK(strcmp(dg.d[D_ILLEGAL_CHAR].msg, "first 1") == 0);
	CHECK(dg.errors == 1 && dg.warnings == 0);

	diag_add(&dg, D_UTF8_BOM, 0, 1, 1, "bom");
	diag_add(&dg, D_DECL_MISMATCH, 10, 2, 3, "mismatch");
	diag_add(&dg, D_SUSPICIOUS_LABEL, 3, 1, 4, "hint");
	diag_add(&dg, D_SUSPICIOUS_LABEL, 0, 1, 1, "hint again");
	CHECK(dg.errors == 2 && dg.warnings == 2);
	CHECK(dg.d[D_SUSPICIOUS_LABEL].count == 2);
	CHECK(dg.d[D_SUSPICIOUS_LABEL].off == 3);
	CHECK(dg.nseq == 4);

	/* By offset, then by the order found. */
	n = diag_order(&dg, order);
	CHECK(n == 4);
	CHECK(order[0] == D_UTF8_BOM);
	CHECK(order[1] == D_SUSPICIOUS_LABEL);
	CHECK(order[2] == D_ILLEGAL_CHAR);
	CHECK(order[3] == D_DECL_MISMATCH);

	/* Same offset: the one found first comes first, whatever its code. */
	memset(&dg, 0, sizeof(dg));
	diag_add(&dg, D_UTF32, 0, 1, 1, "a");
	diag_add(&dg, D_BOM_MISSING, 0, 1, 1, "b");
	diag_add(&dg, D_DECL_MISMATCH, 0, 1, 1, "c");
	n = diag_order(&dg, order);
	CHECK(n == 3 && order[0] == D_UTF32 && order[1] == D_BOM_MISSING &&
	    order[2] == D_DECL_MISMATCH);

	/* A long message is cut, not overflowed. */
	memset(&dg, 0, sizeof(dg));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	diag_add(&dg, D_BAD_DECLARATION, 0, 1, 1, "%s", big);
	CHECK(strlen(dg.d[D_BAD_DECLARATION].msg) ==
	    sizeof(dg.d[0].msg) - 1);

	CHECK(strcmp(diag_code(D_DECL_MISMATCH), "decl-mismatch") == 0);
	CHECK(strcmp(diag_code(D_BOM_CHARSET_CONFLICT),
	    "bom-charset-conflict") == 0);
	CHECK(strcmp(diag_code(D_BOM_FORBIDDEN), "bom-forbidden") == 0);
	CHECK(strcmp(diag_code(D_BOM_MISSING), "bom-missing") == 0);
	CHECK(strcmp(diag_code(D_BAD_DECLARATION), "bad-declaration") == 0);
	CHECK(strcmp(diag_code(D_DECL_NOT_AT_START), "decl-not-at-start") == 0);
	CHECK(strcmp(diag_code(D_ILLEGAL_SEQUENCE), "illegal-sequence") == 0);
	CHECK(strcmp(diag_code(D_ILLEGAL_CHAR), "illegal-char") == 0);
	CHECK(strcmp(diag_code(D_UNSUPPORTED_ENCODING),
	    "unsupported-encoding") == 0);
	CHECK(strcmp(diag_code(D_NO_DECLARATION), "no-declaration") == 0);
	CHECK(strcmp(diag_code(D_CHARSET_DECL_CONFLICT),
	    "charset-decl-conflict") == 0);
	CHECK(strcmp(diag_code(D_UTF8_BOM), "utf8-bom") == 0);
	CHECK(strcmp(diag_code(D_UTF32), "utf32") == 0);
	CHECK(strcmp(diag_code(D_MISSING_DECL), "missing-decl") == 0);
	CHECK(strcmp(diag_code(D_UNREGISTERED_NAME), "unregistered-name") == 0);
	CHECK(strcmp(diag_code(D_NOT_XML_MEDIA_TYPE),
	    "not-xml-media-type") == 0);
	CHECK(strcmp(diag_code(D_SUSPICIOUS_LABEL), "suspicious-label") == 0);
	/* DIAGNOSTICS in xmlsniff(1): the severities. */
	CHECK(diag_error_in(NULL, D_DECL_MISMATCH) && diag_error_in(NULL, D_BOM_FORBIDDEN) &&
	    diag_error_in(NULL, D_BOM_CHARSET_CONFLICT) &&
	    diag_error_in(NULL, D_BOM_MISSING) && diag_error_in(NULL, D_BAD_DECLARATION) &&
	    diag_error_in(NULL, D_DECL_NOT_AT_START) &&
	    diag_error_in(NULL, D_ILLEGAL_SEQUENCE) && diag_error_in(NULL, D_ILLEGAL_CHAR) &&
	    diag_error_in(NULL, D_UNSUPPORTED_ENCODING) &&
	    diag_error_in(NULL, D_NO_DECLARATION));
	CHECK(!diag_error_in(NULL, D_CHARSET_DECL_CONFLICT) &&
	    !diag_error_in(NULL, D_UTF8_BOM) && !diag_error_in(NULL, D_UTF32) &&
	    !diag_error_in(NULL, D_MISSING_DECL) &&
	    !diag_error_in(NULL, D_UNREGISTERED_NAME) &&
	    !diag_error_in(NULL, D_NOT_XML_MEDIA_TYPE) &&
	    !diag_error_in(NULL, D_SUSPICIOUS_LABEL));
}

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
	uint32_t c, d;
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

/* What the sink saw: a count and a running hash of characters and
 * positions. */
struct seen {
	uint64_t	 n;
	uint64_t	 h;
};

static void
sink(void *ctx, uint32_t c, uint64_t off, uint64_t line, uint64_t col)
{
	struct seen *s = ctx;

	s->n++;
	s->h = (s->h ^ c) * 1099511628211ULL;
	s->h = (s->h ^ off) * 1099511628211ULL;
	s->h = (s->h ^ line) * 1099511628211ULL;
	s->h = (s->h ^ col) * 1099511628211ULL;
}

/*
 * Validate p[0..n) as main.c does: the bytes arrive up to each of the cuts
 * in turn (then to n, with eof), and what val_feed leaves unconsumed is
 * passed again with what follows.  Return 0 if the feeding itself went
 * wrong (bytes left over at the end).
 */
static int
feed(const struct sniff *s, const unsigned char *p, size_t n,
    const size_t *cuts, size_t ncuts, struct diags *dg, struct seen *seen)
{
	struct val *v;
	size_t off = 0, have, i;

	memset(dg, 0, sizeof(*dg));
	if ((v = val_new(s, dg)) == NULL)
		return 0;
	if (seen != NULL) {
		memset(seen, 0, sizeof(*seen));
		val_set_sink(v, sink, NULL, NULL, seen);
	}
	for (i = 0; i <= ncuts; i++) {
		have = i < ncuts ? cuts[i] : n;
		off += val_feed(v, p + off, have - off, i == ncuts);
		if (off > have)
			break;
	}
	val_free(v);
	return off == n;
}

/* Whether two runs found the same diagnostics. */
static int
same_diags(const struct diags *a, const struct diags *b)
{
	int i;

	if (a->errors != b->errors || a->warnings != b->warnings)
		return 0;
	for (i = 0; i < D_NCODES; i++) {
		const struct diag *x = &a->d[i], *y = &b->d[i];

		if (x->count != y->count || x->off != y->off ||
		    x->line != y->line || x->col != y->col ||
		    strcmp(x->msg, y->msg) != 0)
			return 0;
	}
	return 1;
}

static void
show_diags(const char *what, const struct diags *dg)
{
	int i;

	for (i = 0; i < D_NCODES; i++)
		if (dg->d[i].count > 0)
			printf("  %s: %s off %llu line %llu col %llu count %llu: "
			    "%s\n", what, diag_code((enum code)i),
			    (unsigned long long)dg->d[i].off,
			    (unsigned long long)dg->d[i].line,
			    (unsigned long long)dg->d[i].col,
			    (unsigned long long)dg->d[i].count, dg->d[i].msg);
}

/* Whether this iconv finds the bytes in (a C string) illegal in name; also
 * when it cannot open name at all. */
static int
rejects(const char *name, const char *in)
{
	iconv_t cd = iconv_open(enc_u32le(), name);
	char out[64], *ip = (char *)in, *op = out;
	size_t il = strlen(in), ol = sizeof(out), r;

	if (cd == (iconv_t)-1)
		return 1;
	r = iconv(cd, &ip, &il, &op, &ol);
	iconv_close(cd);
	return r == (size_t)-1;
}

/* The expected first occurrence of one code. */
struct want {
	enum code	 code;
	uint64_t	 off, line, col, count;
};

/*
 * Sniff p[0..n) (it must be read with encname), validate it whole, check
 * the diagnostics against want[], then feed it split in two at every
 * position, and in chunks of 1 to 7 bytes, and with and without a sink:
 * the diagnostics must be the same every time.
 */
static void
stream_case(const char *label, const unsigned char *p, size_t n,
    const char *encname, const struct want *want, size_t nwant)
{
	struct sniff *s = calloc(1, sizeof(*s));
	struct diags whole, part;
	struct seen seen_whole, seen_part;
	size_t *cuts = calloc(n + 1, sizeof(*cuts));
	size_t i, k, chunk, nc;
	int ok = 1, e = 0, w = 0;

	if (!CHECK(s != NULL && cuts != NULL))
		return;
	sniff(p, n, 1, NULL, NULL, s);
	if (!CHECK(strcmp(s->encname, encname) == 0))
		printf("  (%s: read as %s)\n", label, s->encname);

	/* The whole buffer, once: the expected diagnostics. */
	CHECK(feed(s, p, n, NULL, 0, &whole, NULL));
	for (i = 0; i < nwant; i++) {
		const struct diag *g = &whole.d[want[i].code];

		ok &= CHECK(g->count == want[i].count);
		ok &= CHECK(g->off == want[i].off);
		ok &= CHECK(g->line == want[i].line);
		ok &= CHECK(g->col == want[i].col);
		if (diag_error_in(NULL, want[i].code))
			e++;
		else
			w++;
	}
	ok &= CHECK(whole.errors == e && whole.warnings == w);
	if (!ok) {
		printf("  (%s: the whole buffer)\n", label);
		show_diags("got", &whole);
	}

	/* Two pieces, split at every position. */
	for (k = 0; k <= n; k++) {
		cuts[0] = k;
		if ((CHECK(feed(s, p, n, cuts, 1, &part, NULL)) &
		    CHECK(same_diags(&whole, &part))) == 0) {
			printf("  (%s: split at %zu)\n", label, k);
			show_diags("whole", &whole);
			show_diags("split", &part);
			break;
		}
	}
	/* Three pieces, every pair of positions. */
	for (k = 1; k < n; k++)
		for (i = k; i < n && i < k + 6; i++) {
			cuts[0] = k;
			cuts[1] = i;
			if ((CHECK(feed(s, p, n, cuts, 2, &part, NULL)) &
			    CHECK(same_diags(&whole, &part))) == 0) {
				printf("  (%s: split at %zu and %zu)\n", label,
				    k, i);
				show_diags("whole", &whole);
				show_diags("split", &part);
				k = n;
				break;
			}
		}
	/* Fixed chunks, as a reader of short reads would deliver them. */
	for (chunk = 1; chunk <= 7; chunk++) {
		for (nc = 0; (nc + 1) * chunk < n; nc++)
			cuts[nc] = (nc + 1) * chunk;
		if ((CHECK(feed(s, p, n, cuts, nc, &part, NULL)) &
		    CHECK(same_diags(&whole, &part))) == 0) {
			printf("  (%s: chunks of %zu)\n", label, chunk);
			show_diags("whole", &whole);
			show_diags("chunks", &part);
		}
	}
	/* With a sink (no fast path): the same diagnostics, and the same
	 * characters at the same places whole or byte by byte. */
	CHECK(feed(s, p, n, NULL, 0, &part, &seen_whole));
	if (!CHECK(same_diags(&whole, &part)))
		printf("  (%s: with a sink)\n", label);
	for (nc = 0; nc + 1 < n; nc++)
		cuts[nc] = nc + 1;
	CHECK(feed(s, p, n, cuts, nc, &part, &seen_part));
	if ((CHECK(same_diags(&whole, &part)) & CHECK(seen_whole.n ==
	    seen_part.n && seen_whole.h == seen_part.h)) == 0)
		printf("  (%s: byte by byte with a sink)\n", label);
	free(cuts);
	free(s);
}

/* Validation (XML 1.0 section 2.2) and transcoding read in blocks
 * (xmlsniff(1), TRANSCODING): streaming gives what the whole buffer gives. */
static void
test_streaming(void)
{
	static const unsigned char utf8[] =
	    "<a>0123456789"		/* 0-12 */
	    "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"	/* 13-21 */
	    "\r\n"			/* 22-23 */
	    "\xE0\x80" "x"		/* 24-26: 2 bad, col 1-3 */
	    "\xED\xA0\x80"		/* 27-29: 3 bad, col 4-6 */
	    "\x01" "\n"			/* 30: illegal-char, line 2 col 7 */
	    "\xF4\x90\x80\x80"		/* 32-35: 4 bad */
	    "\xC3" "A"			/* 36-37: 1 bad */
	    "\xEF\xBF\xBE"		/* 38: U+FFFE */
	    " abcdefghijklmnopqrstuvwxyz</a>"
	    "\xE2\x82";			/* truncated: 1 bad */
	static const struct want w_utf8[] = {
		{ D_ILLEGAL_SEQUENCE, 24, 2, 1, 11 },
		{ D_ILLEGAL_CHAR, 30, 2, 7, 2 },
	};
	static const unsigned char utf16le[] =
	    "\xFF\xFE"			/* 0 */
	    "<\0a\0>\0\xE9\0"		/* 2-9 */
	    "\x3D\xD8\x00\xDE"		/* 10: U+1F600 */
	    "\r\0\n\0"			/* 14-17 */
	    "\x00\xDC"			/* 18: lone low, line 2 col 1 */
	    "b\0"			/* 20 */
	    "\x00\xD8" "A\0"		/* 22: high then "A" */
	    "\xFE\xFF"			/* 26: U+FFFE, line 2 col 5 */
	    "\x01\0"			/* 28: U+0001 */
	    "c\0"			/* 30 */
	    "A";			/* 32: odd final byte */
	static const struct want w_utf16le[] = {
		{ D_ILLEGAL_SEQUENCE, 18, 2, 1, 3 },
		{ D_ILLEGAL_CHAR, 26, 2, 5, 2 },
	};
	static const unsigned char utf16be[] =
	    "\xFE\xFF" "\0<\0a\0>"
	    "\xD8\x3D\xDE\x00"		/* 8 */
	    "\xDE\x00"			/* 12: lone low, col 5 */
	    "\0\n"			/* 14 */
	    "\xD8\x3D"			/* 16: truncated pair at the end */
	    ;
	static const struct want w_utf16be[] = {
		{ D_ILLEGAL_SEQUENCE, 12, 1, 5, 2 },
	};
	static const unsigned char utf32be[] =
	    "\0\0\xFE\xFF"		/* 0 */
	    "\0\0\0<\0\0\0a"		/* 4, 8 */
	    "\0\x10\xFF\xFF"		/* 12: U+10FFFF */
	    "\0\0\0\n"			/* 16 */
	    "\0\x11\0\0"		/* 20: bad, line 2 col 1 */
	    "\0\0\xD8\0"		/* 24: bad, col 2 */
	    "\0\0\0\x01"		/* 28: U+0001, col 3 */
	    "\0\0\xE0\0"		/* 32 */
	    "\0\0\xFF\xFF"		/* 36: U+FFFF */
	    "\0\0\0b"			/* 40 */
	    "\0\0";			/* 44: truncated */
	static const struct want w_utf32be[] = {
		{ D_ILLEGAL_SEQUENCE, 20, 2, 1, 3 },
		{ D_ILLEGAL_CHAR, 28, 2, 3, 2 },
	};
	static const unsigned char utf32le[] =
	    "\xFF\xFE\0\0" "<\0\0\0" "\0\xD8\0\0" "\0\0\0\0" "a\0\0";
	static const struct want w_utf32le[] = {
		{ D_ILLEGAL_SEQUENCE, 8, 1, 2, 2 },
		{ D_ILLEGAL_CHAR, 12, 1, 3, 1 },
	};
#define LATIN1_DECL "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
	static const unsigned char latin1[] = LATIN1_DECL
	    "\ncaf\xE9 "		/* h .. h+5 */
	    "\x85"			/* h+6: C1, line 2 col 6 */
	    "\x01"			/* h+7: not a Char, col 7 */
	    "\x9F"			/* h+8: C1 again */
	    "\r\nx\x00";		/* h+12: NUL */
	const size_t h = sizeof(LATIN1_DECL) - 1;
	const struct want w_latin1[] = {
		{ D_SUSPICIOUS_LABEL, h + 6, 2, 6, 2 },
		{ D_ILLEGAL_CHAR, h + 7, 2, 7, 2 },
	};
	/* UTF-8 text labelled ISO-8859-1, with no C1 byte in it. */
	static const unsigned char latin1u8[] = LATIN1_DECL
	    "\ncaf\xC3\xA9 "		/* h+4: the first UTF-8 sequence */
	    "\xEF\xBF\xBD "		/* h+7 */
	    "\xF0\xA0\xA0\xA0 "		/* h+11 */
	    "x\x01";			/* h+17: col 17 */
	const struct want w_latin1u8[] = {
		{ D_SUSPICIOUS_LABEL, h + 4, 2, 4, 1 },
		{ D_ILLEGAL_CHAR, h + 17, 2, 17, 1 },
	};
#define SJIS_DECL "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>"
	static const unsigned char sjis[] = SJIS_DECL
	    "\n\x82\xA0"		/* j+1: U+3042, col 1 */
	    "\xB1"			/* j+3: U+FF71, col 2 */
	    "\x80"			/* j+4: illegal, line 2 col 3 */
	    "a"				/* j+5 */
	    "\x81\x20"			/* j+6: illegal lead, then a space */
	    "\x01"			/* j+8: not a Char, col 7 */
	    "\xFD"			/* j+9: illegal */
	    "\r\n\x82\xA2\xA0"		/* j+12: U+3044, j+14: illegal */
	    "\x82";			/* j+15: truncated */
	const size_t j = sizeof(SJIS_DECL) - 1;
	const struct want w_sjis[] = {
		{ D_ILLEGAL_SEQUENCE, j + 4, 2, 3, 5 },
		{ D_ILLEGAL_CHAR, j + 8, 2, 7, 1 },
	};
#define V11_DECL "<?xml version=\"1.1\"?>"
	static const unsigned char v11[] = V11_DECL
	    "a\r\xC2\x85"		/* 21, 22, 23: CR NEL is one line end */
	    "b\xE2\x80\xA8"		/* 25, 26: LINE SEPARATOR */
	    "c\xC2\x85"			/* 29, 30: NEL */
	    "d\x7F\xC2\x80";		/* 32, 33: line 4 col 2, 34 */
	static const struct want w_v11[] = {
		{ D_ILLEGAL_CHAR, 33, 4, 2, 2 },
	};
	/* A clean entity: nothing at all, however it is split. */
	static const unsigned char clean[] =
	    "<?xml version=\"1.0\"?>\n<a b='\xC3\xA9'>\xE2\x82\xAC "
	    "\xF0\x9F\x98\x80 \r\n0123456789abcdef</a>\n";

	stream_case("UTF-8", B(utf8), "UTF-8", w_utf8, NELEM(w_utf8));
	stream_case("UTF-16LE", B(utf16le), "UTF-16LE", w_utf16le,
	    NELEM(w_utf16le));
	stream_case("UTF-16BE", B(utf16be), "UTF-16BE", w_utf16be,
	    NELEM(w_utf16be));
	stream_case("UTF-32BE", B(utf32be), "UTF-32BE", w_utf32be,
	    NELEM(w_utf32be));
	stream_case("UTF-32LE", B(utf32le), "UTF-32LE", w_utf32le,
	    NELEM(w_utf32le));
	stream_case("ISO-8859-1", B(latin1), "ISO-8859-1", w_latin1,
	    NELEM(w_latin1));
	stream_case("ISO-8859-1 holding UTF-8", B(latin1u8), "ISO-8859-1",
	    w_latin1u8, NELEM(w_latin1u8));
	/* Which bytes Shift_JIS allows is the C library's verdict: musl
	 * takes 81 20 for U+301C, and the positions after it move. */
	if (rejects("Shift_JIS", "\x81\x20"))
		stream_case("Shift_JIS", B(sjis), "Shift_JIS", w_sjis,
		    NELEM(w_sjis));
	else
		printf("unit: this iconv's Shift_JIS accepts 81 20; the "
		    "Shift_JIS stream case not tested\n");
	stream_case("UTF-8, XML 1.1", B(v11), "UTF-8", w_v11, NELEM(w_v11));
	stream_case("clean UTF-8", B(clean), "UTF-8", NULL, 0);

	/* The messages of the first occurrences. */
	{
		struct sniff *s = calloc(1, sizeof(*s));
		struct diags dg;

		if (!CHECK(s != NULL))
			return;
		sniff(B(latin1u8), 1, NULL, NULL, s);
		CHECK(feed(s, B(latin1u8), NULL, 0, &dg, NULL));
		CHECK(strstr(dg.d[D_SUSPICIOUS_LABEL].msg,
		    "3 multi-byte sequences") != NULL);
		sniff(B(utf8), 1, NULL, NULL, s);
		CHECK(feed(s, B(utf8), NULL, 0, &dg, NULL));
		CHECK(strstr(dg.d[D_ILLEGAL_SEQUENCE].msg, "E0") != NULL);
		CHECK(strstr(dg.d[D_ILLEGAL_CHAR].msg, "U+0001") != NULL);
		sniff(B(utf16be), 1, NULL, NULL, s);
		CHECK(feed(s, B(utf16be), NULL, 0, &dg, NULL));
		if (!CHECK(strstr(dg.d[D_ILLEGAL_SEQUENCE].msg, "DE 00") != NULL))
			printf("  (message: %s)\n", dg.d[D_ILLEGAL_SEQUENCE].msg);
		sniff(B("<a/>\xE2\x82"), 1, NULL, NULL, s);
		CHECK(feed(s, B("<a/>\xE2\x82"), NULL, 0, &dg, NULL));
		if (!CHECK(strstr(dg.d[D_ILLEGAL_SEQUENCE].msg, "E2 82") != NULL))
			printf("  (message: %s)\n", dg.d[D_ILLEGAL_SEQUENCE].msg);
		/* An entity that cannot be decoded has no validator. */
		sniff(B("\x00\x00\xFF\xFE\x00\x00\x3C\x00"), 1, NULL, NULL, s);
		CHECK(s->dec == FORM_NONE);
		CHECK(val_new(s, &dg) == NULL);
		free(s);
	}
}

/*
 * conv_run() against an encoder written here, for every pair of forms, on
 * random mixtures that put characters of every length at every offset of
 * the SIMD blocks; both paths (AVX2 where there is one, and portable).
 */
static uint32_t rnd_state = 12345;

static uint32_t
rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

static size_t
enc_form(int form, const uint32_t *c, size_t nc, unsigned char *o)
{
	size_t i, k = 0;

	for (i = 0; i < nc; i++) {
		uint32_t u = c[i];
		unsigned char b[4];
		int n = 0, j;

		if (form == FORM_UTF8) {
			if (u < 0x80)
				b[n++] = (unsigned char)u;
			else if (u < 0x800) {
				b[n++] = (unsigned char)(0xC0 + (u >> 6));
				b[n++] = (unsigned char)(0x80 + u % 64);
			} else if (u < 0x10000) {
				b[n++] = (unsigned char)(0xE0 + (u >> 12));
				b[n++] = (unsigned char)(0x80 + (u >> 6) % 64);
				b[n++] = (unsigned char)(0x80 + u % 64);
			} else {
				b[n++] = (unsigned char)(0xF0 + (u >> 18));
				b[n++] = (unsigned char)(0x80 + (u >> 12) % 64);
				b[n++] = (unsigned char)(0x80 + (u >> 6) % 64);
				b[n++] = (unsigned char)(0x80 + u % 64);
			}
			for (j = 0; j < n; j++)
				o[k++] = b[j];
			continue;
		}
		if (form == FORM_UTF16BE || form == FORM_UTF16LE) {
			uint32_t units[2];
			int nu = 1;

			units[0] = u;
			if (u >= 0x10000) {
				units[0] = 0xD800 + ((u - 0x10000) >> 10);
				units[1] = 0xDC00 + ((u - 0x10000) & 0x3FF);
				nu = 2;
			}
			for (j = 0; j < nu; j++) {
				o[k++] = (unsigned char)(form == FORM_UTF16BE ?
				    units[j] >> 8 : units[j]);
				o[k++] = (unsigned char)(form == FORM_UTF16BE ?
				    units[j] : units[j] >> 8);
			}
			continue;
		}
		for (j = 0; j < 4; j++)
			o[k++] = (unsigned char)(u >> (form == FORM_UTF32BE ?
			    24 - 8 * j : 8 * j));
	}
	return k;
}

/* A random character in one of five mixes. */
static uint32_t
rnd_char(int mix)
{
	static const uint32_t pool[] = {
		'a', ' ', '<', '\n', '\t', '"', 0x7F, 0x80, 0xE9, 0x3B1, 0x7FF,
		0x800, 0x3042, 0x65E5, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000,
		0x1F600, 0x20000, 0x10FFFF
	};
	uint32_t r = rnd();

	switch (mix) {
	case 0:		/* mostly ASCII */
		return r % 16 ? 0x20 + r % 95 : pool[r % NELEM(pool)];
	case 1:		/* mostly CJK */
		return r % 8 ? 0x4E00 + r % 0x5000 : pool[r % NELEM(pool)];
	case 2:		/* two-byte text */
		return r % 4 ? 0x80 + r % 0x780 : 0x20 + r % 95;
	case 3:		/* astral now and then */
		return r % 6 ? 0x3000 + r % 0x100 : 0x10000 + r % 0x100000;
	default:	/* anything */
		r %= 0x10F800;
		return r < 0xD800 ? r : r + 0x800;
	}
}

static void
test_conv(void)
{
	static const int forms[] = { FORM_UTF8, FORM_UTF16BE, FORM_UTF16LE,
	    FORM_UTF32BE, FORM_UTF32LE };
	static const char *modes[] = { NULL, "ref" };
	static uint32_t cs[700];
	static unsigned char in[4 * 700], want[4 * 700], got[16 * 700];
	unsigned fails = 0;
	int round, m, f, t;

	for (m = 0; m < 2; m++) {
		simd_init(modes[m]);
		for (round = 0; round < 3000; round++) {
			size_t nc = rnd() % (round < 1000 ? 40 : 700), i;

			for (i = 0; i < nc; i++)
				cs[i] = rnd_char(round % 5);
			for (f = 0; f < 5; f++) {
				size_t n = enc_form(forms[f], cs, nc, in);

				for (t = 0; t < 5; t++) {
					size_t wn = enc_form(forms[t], cs, nc, want);
					size_t room = conv_room(forms[f], forms[t], n);
					size_t gn;

					memset(got, 0xA5, sizeof(got));
					gn = conv_run(forms[f], forms[t], in, n, got);
					if (gn != wn || memcmp(got, want, wn) != 0 ||
					    got[room] != 0xA5)
						fails++;
				}
			}
		}
	}
	simd_init(NULL);
	if (!CHECK(fails == 0))
		printf("  (%u conversions differ)\n", fails);
	/* Cuts fall between characters, within the limit. */
	fails = 0;
	for (round = 0; round < 2000; round++) {
		size_t nc = 1 + rnd() % 200, i;

		for (i = 0; i < nc; i++)
			cs[i] = rnd_char(round % 5);
		for (f = 0; f < 5; f++) {
			size_t n = enc_form(forms[f], cs, nc, in);
			size_t max = 4 + rnd() % 64;
			size_t k = conv_cut(forms[f], in, n, max), j, sum = 0;

			/* The prefix must be the encoding of whole
			 * characters. */
			for (i = 0; i < nc && sum < k; i++)
				sum += enc_form(forms[f], cs + i, 1, want);
			for (j = 0; j < 1; j++)
				if (k > max || k == 0 || sum != k)
					fails++;
		}
	}
	if (!CHECK(fails == 0))
		printf("  (%u cuts wrong)\n", fails);
}

/* plain_utf32: the AVX2 path against the unit-at-a-time one. */
static void
test_plain_utf32(void)
{
	static uint32_t cs[300];
	static unsigned char in[4 * 300 + 4];
	static const uint32_t bad[] = { 0, 1, 0x1F, '\r', 0xD800, 0xDFFF,
	    0xFFFE, 0xFFFF, 0x110000, 0x80000000u, 0xFFFFFFFFu };
	unsigned fails = 0;
	int round, be;

	for (round = 0; round < 4000; round++) {
		size_t nc = rnd() % 300, i, n;

		for (i = 0; i < nc; i++)
			cs[i] = rnd_char(round % 5);
		if (nc > 0 && round % 3)
			cs[rnd() % nc] = bad[rnd() % NELEM(bad)];
		for (be = 0; be < 2; be++) {
			uint64_t l1 = 1, c1 = 1, l2 = 1, c2 = 1;
			size_t k1, k2;

			/* enc_form cannot write the values past U+10FFFF
			 * as UTF-8, but writes them as UTF-32 as they are */
			n = enc_form(be ? FORM_UTF32BE : FORM_UTF32LE, cs, nc, in);
			in[n] = 0xEE;	/* a stray byte after */
			simd_init("none");
			k1 = plain_utf32(in, n + 1, be, &l1, &c1);
			simd_init(NULL);
			k2 = plain_utf32(in, n + 1, be, &l2, &c2);
			if (k1 != k2 || l1 != l2 || c1 != c2 || k1 % 4 != 0)
				fails++;
		}
	}
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

/*
 * The plain prefix of UTF-8 or UTF-16 (form; a surrogate pair is one
 * plain character), a character at a time with the stepper of the
 * character path (XML 1.0 section 2.11: CR LF one line end, a lone CR one
 * too): what every kernel must answer.
 */
static size_t
plain_def(int form, const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	struct linepos pos = { *lines, *col, 0 };
	size_t i = 0;

	while (i < n) {
		uint32_t c = 0;	/* set where r > 0; gcc -O1 cannot see it */
		int r = form == FORM_UTF8 ? utf8_dec(p + i, n - i, &c) :
		    utf16_dec(p + i, n - i, form == FORM_UTF16BE, &c);

		if (r <= 0 || !xml_char_ok(c, 0))
			break;
		linepos_step(&pos, c, 0);
		i += (size_t)r;
	}
	*lines = pos.line;
	*col = pos.col;
	return i;
}

/* Whether a CR character starts at p[j] (of n bytes) in form. */
static int
is_cr(int form, const unsigned char *p, size_t j, size_t n)
{
	if (form == FORM_UTF8)
		return p[j] == '\r';
	return j % 2 == 0 && j + 1 < n && (form == FORM_UTF16BE ?
	    load_be16(p + j) : load_le16(p + j)) == '\r';
}

/*
 * The characters cs[0..nc) in UTF-8 and UTF-16 (both orders), each cut at
 * a CR, right after one and anywhere (a CR last, an LF first), through
 * plain_utf8 and plain_utf16 at every level: return how many answers
 * differ from plain_def's.
 */
static unsigned
plain_case(const uint32_t *cs, size_t nc)
{
	static const int forms[] = { FORM_UTF8, FORM_UTF16LE, FORM_UTF16BE };
	/* (ref's runs end at a CR: see src/lib/simd/ref.c) */
	static const char *const modes[] = { "avx512", "avx2", "sse2", "neon",
	    "none" };
	static unsigned char in[4 * 2100 + 4];
	unsigned fails = 0;
	size_t f, m, n, cut, len, j, u;

	for (f = 0; f < NELEM(forms); f++) {
		n = enc_form(forms[f], cs, nc, in);
		u = forms[f] == FORM_UTF8 ? 1 : 2;
		for (cut = 0; cut < 4; cut++) {
			len = cut == 3 && n > 0 ? rnd() % n : n;
			if (cut == 1 || cut == 2)
				for (j = rnd() % (n + 1); j < n; j++)
					if (is_cr(forms[f], in, j, n)) {
						len = j + (cut == 2 ? u : 0);
						break;
					}
			for (m = 0; m <= NELEM(modes); m++) {
				uint64_t l1 = 1, c1 = 1, l2 = 1, c2 = 1;
				size_t k1, k2;

				k1 = plain_def(forms[f], in, len, &l1, &c1);
				if (m == NELEM(modes)) {
					/* and the definition in ref.c */
					if (forms[f] == FORM_UTF8 &&
					    (plain_utf8_ref(in, len, &l2,
					    &c2) != k1 || l1 != l2 || c1 != c2))
						fails++;
					break;
				}
				simd_init(modes[m]);
				k2 = forms[f] == FORM_UTF8 ? plain_utf8(in, len,
				    &l2, &c2) : plain_utf16(in, len, forms[f] ==
				    FORM_UTF16BE, &l2, &c2);
				if ((k1 != k2 || l1 != l2 || c1 != c2) &&
				    fails++ == 0)
					printf("  %s, form %d, %zu bytes: %zu "
					    "%llu:%llu, not %zu %llu:%llu\n",
					    modes[m], forms[f], len, k2,
					    (unsigned long long)l2,
					    (unsigned long long)c2, k1,
					    (unsigned long long)l1,
					    (unsigned long long)c1);
			}
		}
	}
	simd_init(NULL);
	return fails;
}

/*
 * plain_utf8 and plain_utf16 against plain_def: a CR LF at every offset
 * of two 64-byte blocks, in ASCII and after a two-byte character; then
 * text of CR, LF and CR LF line ends among characters of every length
 * (or plain ASCII), with a bad one now and then.
 */
static void
test_plain_crlf(void)
{
	static const uint32_t ends[][2] = { { '\r', '\n' }, { '\r', 0 },
	    { '\n', 0 }, { '\r', '\r' } };
	static const uint32_t bad[] = { 1, 0x1F, 0xFFFE, 0xD800 };
	static uint32_t cs[400];
	unsigned fails = 0;
	size_t nc, at;
	int round;

	for (at = 0; at < 260; at++) {
		for (nc = 0; nc < 200; nc++)
			cs[nc] = at >= 130 && nc == 3 ? 0xE9 : 'a';
		cs[at % 130] = '\r';
		cs[at % 130 + 1] = '\n';
		fails += plain_case(cs, nc);
	}
	for (round = 0; round < 3000; round++) {
		nc = 0;
		while (nc + 2 < NELEM(cs) && nc < (size_t)(rnd() % 400)) {
			if (rnd() % (round % 2 ? 6 : 40) == 0) {
				const uint32_t *e = ends[rnd() % NELEM(ends)];

				cs[nc++] = e[0];
				if (e[1] != 0)
					cs[nc++] = e[1];
			} else
				cs[nc++] = round % 5 == 4 ? 0x20 + rnd() % 95 :
				    rnd_char(round % 5);
		}
		if (nc > 0 && round % 4 == 0)
			cs[rnd() % nc] = bad[rnd() % NELEM(bad)];
		fails += plain_case(cs, nc);
	}
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

/*
 * plain_utf8 and plain_utf16 against plain_def on long runs of ASCII (up
 * to 2,000 characters, which the kernels take with an ASCII check alone
 * once a few blocks have been ASCII), with line ends of every kind and
 * then one character that is not ASCII, a control (any of them, TAB, LF
 * and CR too), or a CR LF, anywhere.
 */
static void
test_plain_ascii_runs(void)
{
	static const uint32_t odd[] = { 0xE9, 0x4E2D, 0x1F600, 1, 0x1F, 0x7F,
	    0x85, 0xFFFE, '\t' };
	static uint32_t cs[2100];
	unsigned fails = 0;
	int round;

	for (round = 0; round < 600; round++) {
		size_t nc = 300 + rnd() % 1700, i, at;
		unsigned gap = 20 + rnd() % 200;

		for (i = 0; i < nc; i++)
			cs[i] = rnd() % gap == 0 ? (round % 3 == 0 ? '\r' :
			    '\n') : 0x20 + rnd() % 95;
		at = rnd() % nc;
		if (round % 4 == 3 && at + 1 < nc) {
			cs[at] = '\r';
			cs[at + 1] = '\n';
		} else if (round % 4 == 1)
			cs[at] = (uint32_t)(rnd() % 0x20);	/* every control */
		else if (round % 4 == 2)
			cs[at] = odd[rnd() % NELEM(odd)];
		fails += plain_case(cs, nc);
	}
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

/*
 * The walk of the validator over single-byte text (decode_iconv.c): many
 * bytes at a time with plain_sb, and a CR, or the byte after one, with
 * the character path's stepper.  Return where it stops.
 */
static size_t
sb_walk(const unsigned char *p, size_t n, const struct plainmap *pm,
    const unsigned char *ok, uint64_t *lines, uint64_t *col)
{
	struct linepos pos = { *lines, *col, 0 };
	size_t j;

	for (j = 0; j < n; j++) {
		if ((j > 0 ? p[j - 1] : 0) != '\r') {
			j += plain_sb(p + j, n - j, pm, &pos.line, &pos.col);
			if (j >= n)
				break;
		}
		if (!ok[p[j]])
			break;
		pos.prev = j > 0 ? p[j - 1] : 0;
		linepos_step(&pos, p[j], 0);
	}
	*lines = pos.line;
	*col = pos.col;
	return j;
}

/*
 * plain_sb at every level against the portable kernel, through the
 * validator's walk: random maps (with CR and without), text of their
 * bytes with CR, LF and CR LF line ends, long and short, and a byte out
 * of the map now and then, at every offset: NUL, or any other the map
 * lacks (a kernel that takes one for plain must differ; one that stops
 * early at a plain byte gives the same answers, only slower).
 */
static void
test_plain_sb(void)
{
	static const char *const modes[] = { "avx512", "avx2", "sse2", "neon",
	    "none" };
	static unsigned char in[2100], ok[256];
	struct plainmap pm;
	unsigned fails = 0;
	int round;
	size_t m;

	for (round = 0; round < 3000; round++) {
		size_t n = round < 2000 ? rnd() % 300 : rnd() % 2100, i;
		unsigned b, gap = 2 + rnd() % 150, nok = 0, nout = 0, k;
		unsigned char pick[256], out[256];
		uint64_t l1 = 1, c1 = 1;
		size_t k1;

		for (b = 0; b < 256; b++) {
			/* most bytes plain; LF always; CR in half the maps */
			ok[b] = b == '\n' || (b != '\r' && b != 0 &&
			    rnd() % 16 != 0) || (b == '\r' && round % 2);
			if (ok[b] && b != '\r' && b != '\n')
				pick[nok++] = (unsigned char)b;
			else if (!ok[b] && b != '\r' && b != 0)
				out[nout++] = (unsigned char)b;
		}
		for (i = 0; i < n; i++)
			in[i] = rnd() % gap == 0 ? "\r\n\n"[rnd() % 3] :
			    pick[rnd() % nok];
		for (i = 0; i + 1 < n && round % 3 == 0; i++)
			if (in[i] == '\r' && rnd() % 2)
				in[i + 1] = '\n';
		if (n > 0 && round % 4 == 1)
			in[rnd() % n] = 0;
		for (k = 0; n > 0 && nout > 0 && round % 4 == 3 && k < 3; k++)
			in[rnd() % n] = out[rnd() % nout];
		plain_sb_map(&pm, ok);
		simd_init("none");
		k1 = sb_walk(in, n, &pm, ok, &l1, &c1);
		for (m = 0; m < NELEM(modes); m++) {
			uint64_t l2 = 1, c2 = 1;
			size_t k2;

			simd_init(modes[m]);
			k2 = sb_walk(in, n, &pm, ok, &l2, &c2);
			if ((k1 != k2 || l1 != l2 || c1 != c2) && fails++ == 0)
				printf("  %s, %zu bytes: %zu %llu:%llu, not "
				    "%zu %llu:%llu\n", modes[m], n, k2,
				    (unsigned long long)l2,
				    (unsigned long long)c2, k1,
				    (unsigned long long)l1,
				    (unsigned long long)c1);
		}
	}
	simd_init(NULL);
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

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

/* --all: further occurrences listed in offset order up to the cap,
 * merged with the first ones; diag_repeat lists a run. */
static void
test_diag_all(void)
{
	struct diags dg;
	struct diter it;
	struct dent e;
	int n = 0;

	memset(&dg, 0, sizeof(dg));
	dg.pol = &unit_pol;
	unit_keep(5, 1);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 3, 1, 4, "s%d", 1);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 9, 1, 10, "s%d", 2);
	diag_add(&dg, D_ILLEGAL_CHAR, 5, 1, 6, "c%d", 1);
	diag_repeat(&dg, D_ILLEGAL_CHAR, 2);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 12, 2, 1, "s%d", 3);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 13, 2, 2, "s%d", 4);
	CHECK(dg.d[D_ILLEGAL_SEQUENCE].count == 4);
	CHECK(dg.d[D_ILLEGAL_CHAR].count == 3);
	CHECK(dg.errors == 2);
	CHECK(dg.nocc == 3 && dg.unlisted == 2);
	diag_iter(&it, &dg);
	while (diag_next(&it, &e)) {
		switch (n++) {
		case 0:
			CHECK(e.code == D_ILLEGAL_SEQUENCE && e.off == 3 &&
			    e.count == 4 && strcmp(e.msg, "s1") == 0);
			break;
		case 1:
			CHECK(e.code == D_ILLEGAL_CHAR && e.off == 5 &&
			    e.col == 6 && e.count == 3);
			break;
		case 2:
			CHECK(e.code == D_ILLEGAL_CHAR && e.off == 6 &&
			    e.col == 7 && e.count == 0 &&
			    strcmp(e.msg, "c1") == 0);
			break;
		case 3:
			CHECK(e.code == D_ILLEGAL_CHAR && e.off == 7 &&
			    e.col == 8);
			break;
		default:
			CHECK(e.code == D_ILLEGAL_SEQUENCE && e.off == 9 &&
			    e.count == 0 && strcmp(e.msg, "s2") == 0);
			break;
		}
	}
	CHECK(n == 5);
	diag_free(&dg);
	CHECK(dg.occ == NULL && dg.nocc == 0 && dg.unlisted == 0);

	/* At the cap, a new code's first takes the last further one's
	 * place: the list stays at the cap. */
	unit_keep(2, 1);
	memset(&dg, 0, sizeof(dg));
	dg.pol = &unit_pol;
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 3, 1, 4, "s");
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 4, 1, 5, "s");
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 5, 1, 6, "s");
	CHECK(dg.nocc == 1 && dg.unlisted == 1);
	diag_add(&dg, D_ILLEGAL_CHAR, 6, 1, 7, "c");
	CHECK(dg.nocc == 0 && dg.unlisted == 2 && dg.errors == 2);
	diag_add(&dg, D_BAD_DECLARATION, 7, 1, 8, "d");
	CHECK(dg.nocc == 0 && dg.unlisted == 2 && dg.errors == 3);
	diag_free(&dg);

	/* Without --all nothing is kept past the first. */
	unit_keep(0, 0);
	memset(&dg, 0, sizeof(dg));
	dg.pol = &unit_pol;
	diag_add(&dg, D_ILLEGAL_CHAR, 5, 1, 6, "c");
	diag_repeat(&dg, D_ILLEGAL_CHAR, 7);
	diag_add(&dg, D_ILLEGAL_CHAR, 50, 1, 60, "c");
	CHECK(dg.d[D_ILLEGAL_CHAR].count == 9);
	CHECK(dg.occ == NULL && dg.nocc == 0 && dg.unlisted == 0);
}

/* repo_norm: the names the CI formats write, normalised by their text
 * (RFC 3986 section 5.2.4's dot segments, on a path). */
static void
test_repo_norm(void)
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

int
main(void)
{
	int sweeps;

	pick_levels();
	simd_init(NULL);
	test_repo_norm();
	test_bom_sniff();
	test_pat_sniff();
	test_unit_get();
	test_decl_layouts();
	test_decl_values();
	test_decl_errors();
	test_decl_late();
	test_encname();
	test_enc_lookup();
	test_enc_compatible();
	test_mt_parse();
	test_diag();
	unit_suggest();
	unit_not_xml();
	unit_guess();
	test_utf8_dec();
	test_utf16_dec();
	test_utf32_dec();
	test_utf_why();
	test_diag_all();
	test_xml_char_ok();
	test_utf8_enc();
	test_loads();
	test_linepos();
	test_streaming();
	test_conv();
	test_plain_utf32();
	test_plain_crlf();
	test_plain_ascii_runs();
	test_plain_sb();
	test_xlex();
	test_xlex_norm();
	test_xlex_runs();
	unit_api();
	/* UNIT_SWEEPS=no: the kernel sweeps are left out (CI's valgrind
	 * run, where they would take many minutes; the ASan, TSan, qemu
	 * and native runs have them), and the last line says so. */
	sweeps = getenv("UNIT_SWEEPS") == NULL ||
	    strcmp(getenv("UNIT_SWEEPS"), "no") != 0;
	if (sweeps) {
		kern_fastpath();
		kern_dense();
		kern_mapped();
		simd_init(NULL);
	}
	printf("%lu passed, %lu failed%s\n", npass, nfail, sweeps ? "" :
	    " (UNIT_SWEEPS=no: without the kernel sweeps)");
	return nfail > 0;
}

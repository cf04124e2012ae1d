/*
 * The unit driver: the XML declaration as decl.c reads it (XML 1.0
 * sections 2.8 and 4.3.1) in every layout -- its values, each syntax
 * error, a declaration not at the start -- and EncName (XML 1.0 [81]).
 */
#include <iconv.h>
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "unit.h"

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
}

/* What a declaration with an error still gives: the values read before
 * and after it, its end, and offsets in units of its layout. */
static void
test_decl_after_error(void)
{
	struct decl d;

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
}

/* Declarations longer than decl.c keeps: the name cut, the whole
 * refused. */
static void
test_decl_too_long(void)
{
	static char big[20100];
	struct decl d;

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

/* decl_read() and decl_read_ref() on the n bytes of p from start, with
 * eof and without: the same declaration, byte for byte. */
static int
fast_agrees(const unsigned char *p, size_t n, size_t start)
{
	struct decl a, b;
	int eof, ok = 1;

	for (eof = 0; eof < 2; eof++) {
		decl_read(p, n, start, UNIT_8, eof, &a);
		decl_read_ref(p, n, start, UNIT_8, eof, &b);
		ok &= memcmp(&a, &b, sizeof(a)) == 0;
	}
	return ok;
}

/*
 * The one-pass reading of a declaration in an ASCII-compatible layout
 * (decl_parse8) against the reference, decl_parse(): declarations of every form
 * (each pseudo-attribute or not, either quote, white space of each kind,
 * the longest values), then each with every byte replaced by one that
 * matters to the syntax, each byte left out, each byte doubled, and cut
 * at every length: whatever decl_parse8 takes it must read as decl_parse()
 * does, and what it does not take, decl_parse() reads.
 */
static void
test_decl_fast(void)
{
	static const char *const decls[] = {
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
		"<?xml version='1.0' encoding='ISO-8859-1' standalone='yes'?>",
		"<?xml version=\"1.1\"?>",
		"<?xml encoding=\"utf-8\"?>",
		"<?xml version = \"1.0\"\tencoding\n=\r'x'  standalone=\"no\"  ?>",
		"<?xml ?>",
		"<?xml version=\"1.0\" standalone=\"yes\"?>",
		"<?xml version=\"1.0000000000000000001\" encoding=\"A.b_c-9\"?>",
		"<?xml\nversion=\"1.0\"\rencoding=\"Shift_JIS\"\t?>",
	};
	static const unsigned char subst[] = { ' ', '\t', '\n', '\r', '"',
	    '\'', '?', '>', '<', '=', 'a', 'Z', '1', '0', '.', '-', '_', 'y',
	    'n', 'e', 'v', 's', 'x', 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF };
	unsigned char buf[700];
	size_t d, i, k, n, len, fails = 0, runs = 0;

	for (d = 0; d < NELEM(decls); d++) {
		/* The declaration alone, then after a BOM and before the
		 * root element. */
		len = strlen(decls[d]);
		memcpy(buf, "\xEF\xBB\xBF", 3);
		memcpy(buf + 3, decls[d], len);
		memcpy(buf + 3 + len, "\n<r/>", 6);
		fails += !fast_agrees(buf + 3, len, 0);
		fails += !fast_agrees(buf, len + 9, 3);
		for (n = 0; n < len + 9; n++)
			fails += !fast_agrees(buf, n, n < 3 ? 0 : 3);
		runs += 2 + len + 9;
		for (i = 3; i < len + 9; i++) {
			unsigned char was = buf[i];

			for (k = 0; k < sizeof(subst); k++) {
				buf[i] = subst[k];
				fails += !fast_agrees(buf, len + 9, 3);
				runs++;
			}
			buf[i] = was;
			/* Left out, and doubled. */
			memmove(buf + i, buf + i + 1, len + 9 - i - 1);
			fails += !fast_agrees(buf, len + 8, 3);
			memmove(buf + i + 1, buf + i, len + 8 - i);
			buf[i] = was;
			memmove(buf + i + 1, buf + i, len + 9 - i);
			fails += !fast_agrees(buf, len + 10, 3);
			memmove(buf + i, buf + i + 1, len + 9 - i);
			runs += 2;
		}
	}
	/* The longest encoding name decl_parse() keeps whole, and one more. */
	for (len = 254; len <= 257; len++) {
		n = (size_t)snprintf((char *)buf, sizeof(buf),
		    "<?xml version=\"1.0\" encoding=\"");
		memset(buf + n, 'A', len);
		n += len;
		memcpy(buf + n, "\"?><r/>", 7);
		fails += !fast_agrees(buf, n + 7, 0);
		runs++;
	}
	CHECK(runs > 10000);
	CHECK(fails == 0);
}

void
unit_decl(void)
{
	test_decl_fast();
	test_decl_layouts();
	test_decl_values();
	test_decl_errors();
	test_decl_after_error();
	test_decl_too_long();
	test_decl_late();
	test_encname();
}

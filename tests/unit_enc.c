/*
 * The unit driver: the labels an entity carries -- encoding names looked
 * up in the IANA registry and iconv (enc.c, XML 1.0 section 4.3.3), and
 * the media type with its charset (mt.c, RFC 7303).
 */
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "unit.h"

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
}

/* The name for iconv: the first of the entry's that this iconv accepts
 * (src/lib/sniff/enctab.h), "" where it accepts none; the name reported;
 * and the names iconv alone knows. */
static void
test_enc_iconv_names(void)
{
	struct enc e;

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
}

/* An unknown name: -1, the name as given, nothing known. */
static void
test_enc_unknown(void)
{
	struct enc e;
	char longname[200];

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
}

/* The families of encodings by how they write "<?xml", their names in
 * messages, and the lower-casing of labels. */
static void
test_enc_families(void)
{
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

void
unit_enc(void)
{
	test_enc_lookup();
	test_enc_iconv_names();
	test_enc_unknown();
	test_enc_families();
	test_enc_compatible();
	test_mt_parse();
}

/*
 * The diagnostic codes (xmlsniff(1), DIAGNOSTICS): what each is called,
 * its severity and what the manual says of it, and the lists of codes
 * that --error and --ignore take.  diag.c keeps the occurrences.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

/*
 * Each code with its severity and what xmlsniff(1) says of it: a one-line
 * meaning, a full description, the clause it comes from, a command line
 * that draws it, and the fix.  --list-codes, --explain and the rules of
 * --format=sarif all read this one table.
 */
static const struct code_info codes[D_NCODES] = {
	[D_DECL_MISMATCH] = { "decl-mismatch", 1,
	    "the encoding declaration contradicts the BOM or the byte pattern",
	    "The encoding declaration names an encoding that the bytes "
	    "cannot be in: a UTF-8 BOM declared Shift_JIS, 16-bit bytes "
	    "declared ISO-8859-1, a little-endian pattern declared UTF-16BE, "
	    "8-bit bytes declared UTF-16; or a BOM followed by another "
	    "layout's declaration or root element (FE FF then an 8-bit "
	    "<?xml), whose encoding is then in doubt and which is never "
	    "transcoded.  With a charset parameter the declaration is "
	    "judged against it instead (charset-decl-conflict, a warning): "
	    "XML makes the mismatch fatal only without external "
	    "information.  The BOM or the byte pattern decides how the "
	    "entity is read.",
	    "XML 1.0 section 4.3.3 and Appendix F",
	    "printf '\\357\\273\\277<?xml version=\"1.0\" "
	    "encoding=\"Shift_JIS\"?><a/>' | xmlsniff",
	    "Correct the declaration, or let --transcode-to rewrite it." },
	[D_BOM_CHARSET_CONFLICT] = { "bom-charset-conflict", 1,
	    "the charset parameter contradicts the BOM",
	    "The charset parameter of the Content-Type names an encoding "
	    "that the byte order mark rules out.  A BOM is authoritative "
	    "over the charset parameter, so the BOM wins.",
	    "RFC 7303 sections 3.2 and 8.9",
	    "printf '\\377\\376<\\0a\\0/\\0>\\0' | xmlsniff "
	    "--content-type='application/xml; charset=utf-8'",
	    "Fix the label the server sends." },
	[D_BOM_FORBIDDEN] = { "bom-forbidden", 1,
	    "a byte-order label such as utf-16le on an entity with a BOM",
	    "The entity is labelled utf-16le, utf-16be, utf-32le or "
	    "utf-32be, by the charset parameter or the declaration, yet "
	    "begins with a byte order mark, whether or not the label also "
	    "contradicts the BOM.  A label that names the byte order forbids "
	    "a BOM.",
	    "RFC 7303 section 3.3",
	    "printf '\\377\\376<\\0a\\0/\\0>\\0' | xmlsniff "
	    "--content-type='application/xml; charset=utf-16le'",
	    "Label it utf-16 (or utf-32), or strip the BOM by transcoding "
	    "to the byte-order label." },
	[D_BOM_MISSING] = { "bom-missing", 1,
	    "UTF-16 without a BOM and without a byte-order label",
	    "The entity is UTF-16 labelled UTF-16, or detected from its zero "
	    "bytes with no label at all, and does not begin with a byte "
	    "order mark.  An entity in UTF-16 must begin with one unless a "
	    "label names the byte order.",
	    "XML 1.0 section 4.3.3; RFC 7303 section 3.3",
	    "printf '<\\0a\\0/\\0>\\0' | xmlsniff "
	    "--content-type='application/xml; charset=utf-16'",
	    "Add the BOM with --transcode-to=UTF-16, or label the byte "
	    "order, UTF-16LE or UTF-16BE." },
	[D_BAD_DECLARATION] = { "bad-declaration", 1,
	    "a malformed XML or text declaration",
	    "The XML or text declaration does not match its grammar: a "
	    "missing version in an XML declaration or encoding in a text "
	    "declaration, standalone in a text declaration, pseudo-attributes "
	    "out of order, repeated or unknown, unmatched quotes, no ?>, more "
	    "than 16384 characters, or an encoding name that is not an "
	    "EncName.",
	    "XML 1.0 productions [23] to [32], [77], [80] and [81]",
	    "printf '<?xml encoding=\"UTF-8\"?><a/>' | xmlsniff",
	    "Mend the declaration by hand; it is not transcoded." },
	[D_DECL_NOT_AT_START] = { "decl-not-at-start", 1,
	    "the declaration is not the very first thing in the entity",
	    "<?xml ...?> comes after white space, a second U+FEFF, a comment "
	    "or a processing instruction, or anywhere later: after a "
	    "document type declaration, after the root element, or as a "
	    "second declaration in a row.  A declaration may only stand at "
	    "the very start of the entity, after the BOM; elsewhere it is a "
	    "processing instruction with a reserved target.  The same "
	    "characters inside a comment, a CDATA section or another "
	    "processing instruction are text.",
	    "XML 1.0 productions [17], [22] and [23], section 4.3.1",
	    "printf ' <?xml version=\"1.0\"?><a/>' | xmlsniff",
	    "Remove what precedes the declaration." },
	[D_ILLEGAL_SEQUENCE] = { "illegal-sequence", 1,
	    "bytes that are not legal in the encoding",
	    "Bytes that no character of the encoding is written as, or a "
	    "sequence cut short at the end of the input.  The entity is not "
	    "in the encoding it is read with, or is damaged.",
	    "XML 1.0 section 4.3.3; RFC 3629 section 3; RFC 2781 section 2",
	    "printf '<a>\\377</a>' | xmlsniff",
	    "Declare the right encoding or re-encode the entity; it is "
	    "never transcoded as it is." },
	[D_ILLEGAL_CHAR] = { "illegal-char", 1,
	    "a decoded character that is not an XML Char",
	    "A character that XML does not allow in an entity, such as "
	    "U+0000, another C0 control, a lone surrogate or U+FFFE; in XML "
	    "1.1, a RestrictedChar written literally.  A NUL byte often means "
	    "a binary file or mislabelled UTF-16.",
	    "XML 1.0 section 2.2, production [2]; XML 1.1 section 2.2",
	    "printf '<a>\\001</a>' | xmlsniff",
	    "Remove the character, or in XML 1.1 write it as a character "
	    "reference." },
	[D_UNSUPPORTED_ENCODING] = { "unsupported-encoding", 1,
	    "an encoding that is not known or cannot be decoded here",
	    "The encoding name is neither in the IANA registry nor known to "
	    "the system's iconv, or the encoding cannot be decoded here (the "
	    "UCS-4 octet orders 2143 and 3412).  An entity in an encoding "
	    "the processor cannot read is a fatal error.",
	    "XML 1.0 section 4.3.3",
	    "printf '<?xml version=\"1.0\" encoding=\"no-such-code\"?><a/>' "
	    "| xmlsniff",
	    "Declare a registered name, or re-encode the entity in UTF-8." },
	[D_NO_DECLARATION] = { "no-declaration", 1,
	    "a 16-bit, 32-bit or EBCDIC pattern without BOM or declaration",
	    "The bytes are laid out in 16- or 32-bit units, or are EBCDIC, "
	    "yet there is neither a byte order mark nor an encoding "
	    "declaration: the encoding is sniffed from the bytes, not known. "
	    "Only UTF-8 may go without both.",
	    "XML 1.0 section 4.3.3 and Appendix F",
	    "printf '<\\0?\\0p\\0i\\0?\\0>\\0<\\0a\\0/\\0>\\0' | xmlsniff",
	    "Add a BOM or an encoding declaration." },
	[D_UNREPRESENTABLE] = { "unrepresentable", 1,
	    "while transcoding, a character the target cannot represent",
	    "While transcoding: a character that the target encoding does "
	    "not have, or one that --fallback=ncr cannot write as a "
	    "character reference because it is in a name, a comment, a "
	    "processing instruction, a CDATA section or the document type "
	    "declaration, or because the parser would read it literally as "
	    "another character (CR, and NEL and LS in XML 1.1, as a line "
	    "end; TAB and LF in an attribute value as a space) while a "
	    "reference is read as the character itself.  Nothing is written "
	    "to a destination file.",
	    "XML 1.0 sections 2.3, 2.11, 3.3.2, 3.3.3, 4.1 and 4.3.3",
	    "printf '<a>\\303\\251</a>' | xmlsniff --transcode-to=US-ASCII",
	    "Choose a target that has the character, or use --fallback=ncr "
	    "for characters in text and attribute values." },
	[D_CHARSET_DECL_CONFLICT] = { "charset-decl-conflict", 0,
	    "the charset parameter and the declaration disagree",
	    "The charset parameter and the encoding declaration name "
	    "different encodings.  Without a BOM the charset parameter is "
	    "authoritative and wins; XML does not make the disagreement an "
	    "error.",
	    "RFC 7303 sections 3.2 and 8.8",
	    "printf '<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>' | "
	    "xmlsniff --content-type='application/xml; charset=utf-8'",
	    "Make the label and the declaration agree." },
	[D_UTF8_BOM] = { "utf8-bom", 0,
	    "UTF-8 with a BOM",
	    "The entity is UTF-8 and begins with a byte order mark.  XML "
	    "allows it, but Unicode neither requires nor recommends a BOM "
	    "for UTF-8, and many consumers mishandle one: they show it, "
	    "compare it, or fail on the bytes before <?xml.",
	    "The Unicode Standard, section 2.6; RFC 3629 section 6",
	    "printf '\\357\\273\\277<a/>' | xmlsniff",
	    "Strip it with --transcode-to=UTF-8." },
	[D_UTF32] = { "utf32", 0,
	    "UTF-32, which is NOT RECOMMENDED for XML",
	    "The entity, or the transcoded output, is UTF-32.  Support for "
	    "its serializations varies widely and their use raises security "
	    "concerns, so it is not recommended for XML.",
	    "RFC 7303 section 2.2",
	    "printf '\\0\\0\\376\\377\\0\\0\\0<\\0\\0\\0a\\0\\0\\0/\\0\\0\\0>' "
	    "| xmlsniff",
	    "Use UTF-8." },
	[D_MISSING_DECL] = { "missing-decl", 0,
	    "no encoding declaration in an entity that needs one",
	    "There is no encoding declaration although the entity is neither "
	    "UTF-8 nor UTF-16 with a BOM: it relies on the charset parameter "
	    "or a UTF-32 BOM alone, or is labelled utf-16le or utf-16be, and "
	    "says nothing of its encoding once saved to a file.",
	    "XML 1.0 section 4.3.3; RFC 7303 sections 3.1 and 3.3",
	    "printf '<a>\\351</a>' | xmlsniff "
	    "--content-type='application/xml; charset=iso-8859-1'",
	    "Add an encoding to the declaration." },
	[D_UNREGISTERED_NAME] = { "unregistered-name", 0,
	    "an encoding name that is not registered",
	    "An encoding name that is not a name or alias in the IANA "
	    "character-sets registry and has no x- prefix.",
	    "XML 1.0 section 4.3.3",
	    "printf '<?xml version=\"1.0\" encoding=\"utf8\"?><a/>' | "
	    "xmlsniff",
	    "Write the registered name, which the message gives when it is "
	    "known." },
	[D_NOT_XML_MEDIA_TYPE] = { "not-xml-media-type", 0,
	    "the Content-Type is not an XML media type for this entity",
	    "The type of --content-type is not application/xml, text/xml, "
	    "the external parsed entity or DTD types, or a +xml type, so "
	    "the rules for XML media types do not apply to it; or it is "
	    "application/xml or text/xml for an external DTD subset or "
	    "parameter entity, which they must not be used for.",
	    "RFC 7303 sections 3, 4 and 9",
	    "printf '<a/>' | xmlsniff --content-type=text/plain",
	    "Serve XML with an XML media type, and a DTD as "
	    "application/xml-dtd." },
	[D_SUSPICIOUS_LABEL] = { "suspicious-label", 0,
	    "the label is probably wrong",
	    "A single-byte label on content that is valid multi-byte UTF-8, "
	    "C1 control characters under an ISO-8859 label (but not NEL "
	    "in XML 1.1, where it ends a line; the bytes are "
	    "probably in the Windows code page of that script, or in a "
	    "multi-byte encoding such as Shift_JIS), or the zero bytes of "
	    "UTF-16 or UTF-32 "
	    "under an 8-bit label or no label at all.",
	    "RFC 7303 section 3",
	    "printf '<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
	    "<a>\\303\\251</a>' | xmlsniff",
	    "Declare the encoding the bytes are really in, or re-encode "
	    "them." },
	[D_BOM_IN_PROLOG] = { "bom-in-prolog", 1,
	    "a U+FEFF before the root element of a document",
	    "After the start of the entity U+FEFF is not a signature but "
	    "ZERO WIDTH NO-BREAK SPACE, and a document's prolog allows only "
	    "white space, comments and processing instructions before the "
	    "root element; parsers reject it.  It is often left by joining "
	    "files or by an editor that adds a BOM to a file that has one.  "
	    "In an external parsed entity it is content and is not reported.",
	    "XML 1.0 productions [1], [22] and [27]; RFC 3629 section 6",
	    "printf '\\357\\273\\277\\357\\273\\277<doc/>' | xmlsniff",
	    "Remove it." },
	[D_ENCODING_NOT_ALLOWED] = { "encoding-not-allowed", 1,
	    "the input is not in an encoding that --allow-encoding allows",
	    "The encoding of the input is not in the list of "
	    "--allow-encoding, or cannot be determined.  A UTF-8 BOM does "
	    "not make an input another encoding (see --error=utf8-bom).",
	    "xmlsniff(1), --allow-encoding",
	    "printf '<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
	    "<a/>' | xmlsniff --allow-encoding=UTF-8",
	    "Convert it with xmlsniff --transcode-to=ENC --in-place FILE, "
	    "or xmlsniff --fix --allow-encoding=LIST FILE." },
	[D_HTTP_MALFORMED] = { "http-malformed", 1,
	    "--http: the input is not an HTTP response",
	    "With --http, the input does not begin with a status line such "
	    "as HTTP/1.1 200 OK, a line of the head is not a field line, the "
	    "empty line that ends the head never comes, or the heads take "
	    "more than 65536 bytes.  The whole input is then read as the "
	    "entity, without a Content-Type.",
	    "RFC 9112 sections 2.1, 4 and 5",
	    "printf '<a/>' | xmlsniff --http",
	    "Save the response with its head, as curl -si URL writes it, "
	    "or check the input without --http." },
	[D_HTTP_NO_CONTENT_TYPE] = { "http-no-content-type", 0,
	    "--http: the response has no Content-Type",
	    "The last response of the input has no Content-Type field, so "
	    "no media type and no charset parameter labels the entity; the "
	    "encoding comes from the BOM, the declaration or the default.",
	    "RFC 9110 section 8.3; RFC 7303 section 3",
	    "printf 'HTTP/1.1 200 OK\\r\\n\\r\\n<a/>' | xmlsniff --http",
	    "Serve XML as application/xml, with a charset parameter that "
	    "agrees with the entity." },
	[D_HTTP_CONTENT_TYPE] = { "http-content-type", 1,
	    "--http: the Content-Type is malformed or given more than once",
	    "The last response of the input has a Content-Type field that "
	    "does not parse as a media type, or more than one Content-Type "
	    "field: Content-Type is a single value, not a list, so a "
	    "repeated one is an error.  No Content-Type is used then.",
	    "RFC 9110 sections 5.3 and 8.3; RFC 7303 section 3",
	    "printf 'HTTP/1.1 200 OK\\r\\nContent-Type: xml\\r\\n\\r\\n"
	    "<a/>' | xmlsniff --http",
	    "Send one Content-Type, such as application/xml; "
	    "charset=utf-8." },
	[D_HTTP_ENCODED] = { "http-encoded", 1,
	    "--http: the body has a content coding that is not decoded",
	    "The last response of the input has a Content-Encoding that is "
	    "not decoded: one other than gzip, x-gzip, deflate and br, more "
	    "than one, a body that does not decode as its coding, or one "
	    "whose library (zlib, libbrotli) this build lacks.  Its bytes "
	    "are not the entity and are not examined.",
	    "RFC 9110 section 8.4",
	    "printf 'HTTP/1.1 200 OK\\r\\nContent-Type: text/xml\\r\\n"
	    "Content-Encoding: compress\\r\\n\\r\\n\\037\\235' | "
	    "xmlsniff --http",
	    "Fetch the body with curl --compressed, which decodes it." },
	[D_BROWSER_DIFFERS] = { "browser-differs", 0,
	    "a web browser would read other characters than XML does",
	    "With --browser: a web browser decodes by the WHATWG Encoding "
	    "Standard, where ISO-8859-1 and US-ASCII mean windows-1252, "
	    "ISO-8859-9 means windows-1254, UTF-16 without a BOM means "
	    "UTF-16LE, Shift_JIS, EUC-KR and GB2312 are the Windows code "
	    "pages, and UTF-32, EBCDIC and labels it does not know do not "
	    "exist (it reads UTF-8).  The bytes of this entity decode to "
	    "other characters there than an XML processor reads; the "
	    "position is that of the first byte that does.",
	    "XML 1.0 Appendix F; RFC 7303 section 3; WHATWG Encoding "
	    "Standard",
	    "printf '<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
	    "<a>\\223</a>' | xmlsniff --browser",
	    "Declare the encoding a browser and XML agree on, or transcode "
	    "to UTF-8: xmlsniff --transcode-to=UTF-8 --in-place FILE." },
	[D_MOJIBAKE] = { "mojibake", 0,
	    "text encoded twice, or C1 controls",
	    "Text of a UTF-8, UTF-16 or UTF-32 entity holds the UTF-8 bytes "
	    "of characters read as windows-1252 or ISO-8859-1 and encoded "
	    "again: U+00E9 (C3 A9) written as U+00C3 U+00A9, U+2019 (E2 80 "
	    "99) as U+00E2 U+20AC U+2122; or C1 control characters U+0080 "
	    "to U+009F (in XML 1.1 they are illegal-char).  One sequence is "
	    "enough, unless it is a pair that could be real text (a letter "
	    "after the lead, or a capital lead after a capital letter): then "
	    "two sequences are.",
	    "XML 1.0 section 2.2 (C1 controls); RFC 3629 and XML 1.0 section "
	    "4.3.3 (the text is not what was meant)",
	    "printf '<a>caf\\303\\203\\302\\251</a>' | xmlsniff",
	    "Undo one layer: iconv -f UTF-8 -t WINDOWS-1252 FILE > NEW (C1 "
	    "controls: iconv -f UTF-8 -t ISO-8859-1 FILE | iconv -f "
	    "WINDOWS-1252 -t UTF-8 > NEW); convert UTF-16 or UTF-32 to UTF-8 "
	    "first.  Mend by hand text that mixes in other characters." },
	[D_NOT_XML] = { "not-xml", 0,
	    "the entity is not XML: empty, or not '<' first",
	    "After the byte order mark and any white space, the first "
	    "character of a document is not '<' (nor '<' or '%' of an "
	    "external DTD subset), read in the encoding found, or the "
	    "document is empty or white space only: a properties file, plain "
	    "text or a binary file with an XML name.  Under -r, a file of an "
	    "extension that is XML only sometimes (.props, .mod, .sch) is "
	    "passed over instead.",
	    "XML 1.0 productions [1], [3], [22], [30] and [31]",
	    "printf 'key=value\\n' | xmlsniff",
	    "Give the file a name that is not XML's, --exclude it, or "
	    "--ignore=not-xml." },
};

const char *
diag_code(enum code c)
{
	return codes[c].code;
}

/* Whether c is an error under the policy bits pcode[D_NCODES] (a
 * policy's code, or a result's copy of it): by its nature or by --error. */
int
diag_error_of(const unsigned char *pcode, enum code c)
{
	return codes[c].error || (pcode[c] & DP_ERROR);
}

/* The same under the policy pol (NULL: none). */
int
diag_error_in(const struct dpolicy *pol, enum code c)
{
	return pol != NULL ? diag_error_of(pol->code, c) : codes[c].error;
}

/*
 * The table's own strings (xmlsniff_code(), diag_code()) by their
 * address: callers that go through every code pass them, once for each
 * input (the command line's perfile_seen), and a search of the table for
 * each took 2.5% of the time of -r over 5,000 small files.  Open
 * addressing, at most half full, made once.
 */
#define BYADDR_BITS	6
#define BYADDR		(1 << BYADDR_BITS)
_Static_assert(2 * D_NCODES <= BYADDR, "the table of addresses is too full");

static const char *byaddr[BYADDR];
static unsigned char byaddr_code[BYADDR];
static pthread_once_t byaddr_once = PTHREAD_ONCE_INIT;

static size_t
addr_slot(const char *name)
{
	uint64_t x = (uint64_t)(uintptr_t)name;

	return (size_t)((x * 0x9E3779B97F4A7C15ULL) >> (64 - BYADDR_BITS));
}

static void
byaddr_build(void)
{
	size_t i, j;

	for (i = 0; i < D_NCODES; i++) {
		for (j = addr_slot(codes[i].code); byaddr[j] != NULL;
		    j = (j + 1) % BYADDR)
			;
		byaddr[j] = codes[i].code;
		byaddr_code[j] = (unsigned char)i;
	}
}

/* The code named name, or -1. */
int
diag_lookup(const char *name)
{
	size_t j;
	int i;

	(void)pthread_once(&byaddr_once, byaddr_build);
	for (j = addr_slot(name); byaddr[j] != NULL; j = (j + 1) % BYADDR)
		if (byaddr[j] == name)
			return byaddr_code[j];
	for (i = 0; i < D_NCODES; i++)
		if (strcmp(codes[i].code, name) == 0)
			return i;
	return -1;
}

/* The code nearest to name, for "did you mean", or NULL. */
const char *
diag_suggest(const char *name)
{
	return suggest(name, codes, D_NCODES, sizeof(codes[0]));
}

/*
 * --error=LIST or --ignore=LIST: comma-separated codes, or "all", marked
 * with bit (DP_ERROR or DP_IGNORE) in bits[D_NCODES], a layer of the
 * policy (perfile.c); lists add up.  Return -1 with the reason in err
 * for an unknown or empty name; nothing is set then.
 */
int
diag_policy(const char *list, unsigned char *bits, int bit, char *err,
    size_t errsize)
{
	unsigned char want[D_NCODES];
	const char *p = list, *e;
	char name[64];
	int c, i;

	memset(want, 0, sizeof(want));
	do {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) >= sizeof(name) || e == p) {
			snprintf(err, errsize, "\"%.*s\" is not a diagnostic code",
			    (int)(e - p > 60 ? 60 : e - p), p);
			return -1;
		}
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = '\0';
		if (strcmp(name, "all") == 0)
			memset(want, 1, sizeof(want));
		else if ((c = diag_lookup(name)) < 0) {
			const char *near = diag_suggest(name);

			if (near != NULL)
				snprintf(err, errsize, "\"%s\" is not a "
				    "diagnostic code; did you mean %s?", name,
				    near);
			else
				snprintf(err, errsize, "\"%s\" is not a "
				    "diagnostic code (see DIAGNOSTICS in "
				    "xmlsniff(1))", name);
			return -1;
		} else
			want[c] = 1;
		p = *e == ',' ? e + 1 : e;
	} while (*e != '\0');
	for (i = 0; i < D_NCODES; i++)
		if (want[i])
			bits[i] |= (unsigned char)bit;
	return 0;
}

const struct code_info *
diag_info(enum code c)
{
	return &codes[c];
}


/*
 * Diagnostics (xmlsniff(1), DIAGNOSTICS).  Each code is kept once per
 * input, at its first occurrence, with a count of all its occurrences;
 * with --all the further occurrences are kept too, up to a cap.
 * The policy of --error and --ignore lives here too, so that every output
 * format follows it by asking diag_is_error and diag_order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --error and --ignore: codes raised to errors, codes not reported, for
 * the input at hand (diag_use). */
static unsigned char as_error[D_NCODES];
static unsigned char ignored[D_NCODES];
/* --all: the lines listed per input at most; 0: the first of each code
 * only, as without --all. */
static size_t keep;
static int keep_asked;	/* keep is --max-errors's, not --all's default */

const char *
diag_code(enum code c)
{
	return codes[c].code;
}

/* Whether c is reported as an error: by its nature or by --error. */
int
diag_is_error(enum code c)
{
	return codes[c].error || as_error[c];
}

/* Whether --ignore hides c from every report and count. */
int
diag_ignored(enum code c)
{
	return ignored[c];
}

/* The code named name, or -1. */
int
diag_lookup(const char *name)
{
	int i;

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

/* The policy of the next input: bits[c] is what its layers say of code c
 * (DP_IGNORE and DP_ERROR; ignoring wins when both). */
void
diag_use(const unsigned char *bits)
{
	int i;

	for (i = 0; i < D_NCODES; i++) {
		ignored[i] = (bits[i] & DP_IGNORE) != 0;
		as_error[i] = (bits[i] & DP_ERROR) != 0;
	}
}

const struct code_info *
diag_info(enum code c)
{
	return &codes[c];
}

/*
 * --all: whether the list of dg is at the cap, which counts the lines
 * listed: the first occurrence of each code present (which is always
 * listed) and the further ones.
 */
static int
full(const struct diags *dg)
{
	return (size_t)(dg->errors + dg->warnings) + dg->nocc >= keep;
}

/*
 * --all: a place in the list for a further occurrence at offset off, in
 * offset order, or NULL when the list is at the cap.
 */
static struct occ *
occ_slot(struct diags *dg, uint64_t off)
{
	struct occ *o;
	size_t i, cap;

	if (full(dg))
		return NULL;
	if (dg->nocc == dg->occcap) {
		/* Grown by doubling: a short list costs little. */
		cap = dg->occcap > 0 ? dg->occcap * 2 : 16;
		if (cap > keep)
			cap = keep;
		if ((o = realloc(dg->occ, cap * sizeof(*o))) == NULL)
			return NULL;
		dg->occ = o;
		dg->occcap = cap;
	}
	/* Almost always at the end: occurrences come in offset order. */
	for (i = dg->nocc; i > 0 && dg->occ[i - 1].off > off; i--)
		continue;
	memmove(&dg->occ[i + 1], &dg->occ[i], (dg->nocc - i) *
	    sizeof(*dg->occ));
	dg->nocc++;
	o = &dg->occ[i];
	o->off = off;
	return o;
}

static void	occ_add(struct diags *, enum code, uint64_t, uint64_t,
		    uint64_t, const char *, va_list)
		    __attribute__((format(printf, 6, 0)));

/* --all: keep a further occurrence of c, or count it as unlisted. */
static void
occ_add(struct diags *dg, enum code c, uint64_t off, uint64_t line,
    uint64_t col, const char *fmt, va_list ap)
{
	struct occ *o;

	if ((o = occ_slot(dg, off)) == NULL) {
		dg->unlisted++;
		return;
	}
	o->code = c;
	o->line = line;
	o->col = col;
	vsnprintf(o->msg, sizeof(o->msg), fmt, ap);
}

/*
 * Record an occurrence of code c at byte offset off, line and col.  The
 * first occurrence keeps its position and message; later ones only count,
 * or with --all are kept in the list as well.
 * An ignored code is still recorded (a transcode with illegal bytes must
 * fail all the same) but counts neither as an error nor as a warning.
 */
void
diag_add(struct diags *dg, enum code c, uint64_t off, uint64_t line,
    uint64_t col, const char *fmt, ...)
{
	struct diag *d = &dg->d[c];
	va_list ap;

	if (d->count++ > 0) {
		if (keep > 0 && !ignored[c]) {
			va_start(ap, fmt);
			occ_add(dg, c, off, line, col, fmt, ap);
			va_end(ap);
		}
		return;
	}
	/* The first of each code is always listed: at the cap it takes the
	 * place of the further occurrence listed last, so that the list
	 * stays at the cap while it holds any (xmlsniff(1), --max-errors). */
	if (keep > 0 && !ignored[c] && full(dg) && dg->nocc > 0) {
		dg->nocc--;
		dg->unlisted++;
	}
	d->off = off;
	d->line = line;
	d->col = col;
	d->seq = dg->nseq++;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (ignored[c])
		return;
	if (diag_is_error(c))
		dg->errors++;
	else
		dg->warnings++;
}

/*
 * Fill out[] with the codes present and not ignored, by byte offset and
 * then by the order in which they were found; return how many.
 */
int
diag_order(const struct diags *dg, enum code *out)
{
	int n = 0, i, j;

	for (i = 0; i < D_NCODES; i++)
		if (dg->d[i].count > 0 && !ignored[i])
			out[n++] = (enum code)i;
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			const struct diag *a = &dg->d[out[j - 1]];
			const struct diag *b = &dg->d[out[j]];
			enum code t;

			if (a->off < b->off ||
			    (a->off == b->off && a->seq < b->seq))
				break;
			t = out[j - 1];
			out[j - 1] = out[j];
			out[j] = t;
		}
	return n;
}

/*
 * n more occurrences of c, each one byte and one column past the one
 * before, on the line of the last one recorded (a run of NUL bytes,
 * counted at once).  With --all each is listed, up to the cap.
 */
void
diag_repeat(struct diags *dg, enum code c, uint64_t n)
{
	struct diag *d = &dg->d[c];
	char msg[sizeof(d->msg)];
	uint64_t off, line, col, i;
	size_t j;

	if (n == 0)
		return;
	d->count += n;
	if (keep == 0 || ignored[c])
		return;
	if (full(dg)) {
		dg->unlisted += n;
		return;
	}
	/* The last one recorded: the first, or the last listed of c. */
	off = d->off;
	line = d->line;
	col = d->col;
	memcpy(msg, d->msg, sizeof(msg));
	if (d->count - n > 1) {
		for (j = dg->nocc; j > 0 && dg->occ[j - 1].code != c; j--)
			continue;
		if (j == 0) {
			dg->unlisted += n;
			return;
		}
		off = dg->occ[j - 1].off;
		line = dg->occ[j - 1].line;
		col = dg->occ[j - 1].col;
		memcpy(msg, dg->occ[j - 1].msg, sizeof(msg));
	}
	for (i = 1; i <= n; i++) {
		struct occ *o = occ_slot(dg, off + i);

		if (o == NULL) {
			dg->unlisted += n - i + 1;
			return;
		}
		o->code = c;
		o->line = line;
		o->col = col + i;
		memcpy(o->msg, msg, sizeof(msg));
	}
}

/* --all, --max-errors: list up to max lines an input (0: not at all);
 * asked: max is what --max-errors gave, else --all's default. */
void
diag_keep(size_t max, int asked)
{
	keep = max;
	keep_asked = asked;
}

/* The cap of --all, or 0 without it. */
size_t
diag_listing(void)
{
	return keep;
}

/*
 * Whether the next occurrence of c in dg would be kept with its message:
 * the first, or with --all one that the list has room for.  When not,
 * diag_repeat(dg, c, 1) counts it without one.
 */
int
diag_wants(const struct diags *dg, enum code c)
{
	return dg->d[c].count == 0 || (keep > 0 && !ignored[c] && !full(dg));
}

/* Free the list of dg, before dg is used for another input. */
void
diag_free(struct diags *dg)
{
	free(dg->occ);
	dg->occ = NULL;
	dg->nocc = dg->occcap = 0;
	dg->unlisted = 0;
}

/*
 * What the reports say when the list of dg was cut: how many lines it
 * has, what capped it, and how many occurrences it leaves out.  It has
 * more lines than the cap only when more codes are present than that,
 * the first of each being always listed.
 */
void
diag_cut_note(const struct diags *dg, char *buf, size_t size)
{
	size_t lines = (size_t)(dg->errors + dg->warnings) + dg->nocc;
	char why[80];

	if (!keep_asked)
		snprintf(why, sizeof(why), "--all lists at most %zu an "
		    "input", keep);
	else if (lines > keep)
		snprintf(why, sizeof(why), "--max-errors=%zu, but the first "
		    "of each code is always listed", keep);
	else
		snprintf(why, sizeof(why), "--max-errors=%zu", keep);
	snprintf(buf, size, "the list stops at %zu line%s (%s): %llu more "
	    "occurrence%s not listed", lines, lines == 1 ? "" : "s", why,
	    (unsigned long long)dg->unlisted, dg->unlisted == 1 ? " is" :
	    "s are");
}

/* Start listing the diagnostics of dg in the order the reports give. */
void
diag_iter(struct diter *it, const struct diags *dg)
{
	it->dg = dg;
	it->n = diag_order(dg, it->order);
	it->i = 0;
	it->j = 0;
}

/*
 * The next line to report into *e; 0 at the end.  Without --all, the
 * first occurrence of each code, with its count; with it, the further
 * occurrences listed too, merged in by offset (count 0).
 */
int
diag_next(struct diter *it, struct dent *e)
{
	const struct diags *dg = it->dg;
	const struct occ *o = it->j < dg->nocc ? &dg->occ[it->j] : NULL;

	if (it->i < it->n) {
		const struct diag *g = &dg->d[it->order[it->i]];

		if (o == NULL || g->off <= o->off) {
			e->code = it->order[it->i++];
			e->off = g->off;
			e->line = g->line;
			e->col = g->col;
			e->count = g->count;
			e->msg = g->msg;
			return 1;
		}
	}
	if (o == NULL)
		return 0;
	it->j++;
	e->code = o->code;
	e->off = o->off;
	e->line = o->line;
	e->col = o->col;
	e->count = 0;
	e->msg = o->msg;
	return 1;
}

/*
 * How names and strings are written: file names escaped so that any name
 * reads back unambiguously, JSON strings (RFC 8259), as the library's
 * records write them (xmlsniff_escape), and the program's own one-line
 * messages on standard error; the escapes of the CI formats (put_text)
 * and URI references (format_uri).  Used by every output format
 * (report.c, format.c, github.c) and by the command line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xmlsniff.h>

#include "out.h"

/*
 * Print s escaped as the library's records escape it (xmlsniff_escape):
 * a name so that any name reads back unambiguously, control characters,
 * backslash (and with quote, the double quote) and bytes that are not
 * UTF-8 as C escapes; how, one of XMLSNIFF_ESCAPE_*.
 */
static void
put_how(FILE *f, const char *s, int how)
{
	char small[512], *big;
	size_t n = xmlsniff_escape(small, sizeof(small), s, how);

	if (n < sizeof(small)) {
		fwrite(small, 1, n, f);
		return;
	}
	if ((big = malloc(n + 1)) == NULL)
		return;
	xmlsniff_escape(big, n + 1, s, how);
	fwrite(big, 1, n, f);
	free(big);
}

void
put_escaped(FILE *f, const char *name, int quote)
{
	put_how(f, name, quote ? XMLSNIFF_ESCAPE_QUOTED : XMLSNIFF_ESCAPE_NAME);
}

/*
 * The UTF-8 character at p[0..n) (RFC 3629 section 4: no overlong form,
 * no surrogate, nothing past U+10FFFF): its length, with it in *cp, or 0
 * where it is not one (for the formats' own escapes, format.c).
 */
int
utf8_char(const unsigned char *p, size_t n, uint32_t *cp)
{
	uint32_t c = p[0], min;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		c &= 0x1F;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		c &= 0x0F;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return (int)len;
}

static void
put_name_to(FILE *f, const char *name)
{
	put_escaped(f, name, 0);
}

void
put_name(const char *name)
{
	put_name_to(stdout, name);
}

void
put_name_err(const char *name)
{
	put_name_to(stderr, name);
}

/*
 * A message of the program's own, about an input or the command line
 * rather than the content (one line each, as the man page's DIAGNOSTICS
 * say):
 * "xmlsniff: NAME: message", NAME escaped, "NAME:LINE" when line > 0,
 * "xmlsniff: message" when name is NULL.  The message is escaped as a
 * whole, as names are: what it quotes of the user's (an option's value,
 * a line of the configuration, a file name) is written by the one rule
 * of the terminal, whoever formats it.  The line is one record, written
 * whole (record.c).
 */
void
report_vwarn(const char *name, int line, const char *fmt, va_list ap)
{
	FILE *f = rec_open(2);
	char msg[8192];

	fputs("xmlsniff: ", f);
	if (name != NULL) {
		put_escaped(f, name, 0);
		if (line > 0)
			fprintf(f, ":%d", line);
		fputs(": ", f);
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	put_escaped(f, msg, 0);
	putc('\n', f);
	rec_close(f);
}

void
report_warn(const char *name, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vwarn(name, line, fmt, ap);
	va_end(ap);
}

/* Print s as a JSON string on standard output. */
void
put_json_string(const char *s)
{
	json_string(stdout, s);
}

/*
 * Write s as a JSON string (RFC 8259) on f.  Bytes that are not UTF-8
 * become \udcXX, the lone-surrogate escape of Python's surrogateescape, so
 * that any file name survives and the output stays valid UTF-8.
 */
void
json_string(FILE *f, const char *s)
{
	put_how(f, s, XMLSNIFF_ESCAPE_JSON);
}

/*
 * Write s escaped for mode: the one rule of each of these formats, for
 * every string they write (file names, messages with the charset and
 * declaration values they quote).  The workflow commands take the
 * escapes of GitHub's actions/toolkit (% CR LF, and : , in property
 * values); XML gets its five predefined entities and character references
 * for the white space that attribute-value normalisation would turn into
 * spaces (XML 1.0 section 3.3.3); Markdown a backslash before the
 * punctuation that GFM acts on in a table cell.  The rest is the text
 * format's rule (put_escaped): a backslash doubled, TAB as \t, bytes
 * that are not UTF-8, other control characters and the non-characters
 * U+FFFE and U+FFFF, which XML 1.0 production [2] does not allow, as \xHH
 * or \uHHHH, so the output stays valid UTF-8 and reads back unambiguously.
 */
void
put_text(FILE *f, const char *s, enum esc mode)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	while (p < end) {
		uint32_t c;
		int r = utf8_char(p, (size_t)(end - p), &c);

		if (r > 1) {
			if (c == 0xFFFE || c == 0xFFFF)
				fprintf(f, "\\u%04X", (unsigned)c);
			else
				fwrite(p, 1, (size_t)r, f);
			p += r;
			continue;
		}
		c = *p++;
		if (mode == ESC_MD && c != '\0' && strchr("\\`*_[]<>|~&",
		    (int)c) != NULL) {
			putc('\\', f);
			putc((int)c, f);
		} else if (mode == ESC_MD && (c == '\r' || c == '\n'))
			fprintf(f, "\\x%02X", (unsigned)c);
		else if (mode != ESC_XML && (c == '%' || c == '\r' || c == '\n' ||
		    (mode == ESC_GH_PROP && (c == ':' || c == ','))))
			fprintf(f, "%%%02X", (unsigned)c);
		else if (c == '\\')
			fputs("\\\\", f);
		else if (mode != ESC_XML && c == '\t')
			fputs("\\t", f);
		else if (mode == ESC_XML && c == '&')
			fputs("&amp;", f);
		else if (mode == ESC_XML && c == '<')
			fputs("&lt;", f);
		else if (mode == ESC_XML && c == '>')
			fputs("&gt;", f);
		else if (mode == ESC_XML && c == '"')
			fputs("&quot;", f);
		else if (mode == ESC_XML && (c == '\t' || c == '\n' ||
		    c == '\r'))
			fprintf(f, "&#%u;", (unsigned)c);
		else if (c >= 0x80 || c < 0x20 || c == 0x7F)
			fprintf(f, "\\x%02X", (unsigned)c);
		else
			putc((int)c, f);
	}
}

/*
 * name as a URI reference (RFC 3986 section 4.1): a relative path with
 * every byte but the unreserved characters and "/" percent-encoded, so
 * that spaces, "%", "#", "?", a ":" in the first segment and bytes that
 * are not UTF-8 all read back; an absolute path as a file URI (RFC 8089).
 */
void
format_uri(FILE *f, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (*p == '/')
		fputs("file://", f);
	for (; *p != '\0'; p++)
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			putc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

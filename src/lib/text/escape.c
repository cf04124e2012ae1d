/*
 * How names and strings are written: file names escaped so that any name
 * reads back unambiguously, JSON strings (RFC 8259), and the program's own
 * one-line messages on standard error.  Used by every output format
 * (report.c, format.c) and by the command line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "utf.h"

/*
 * Print a file name so that any name reads back unambiguously: control
 * characters, backslash and bytes that are not UTF-8 as C escapes.
 */
void
put_escaped(FILE *f, const char *name, int quote)
{
	const unsigned char *p = (const unsigned char *)name;
	const unsigned char *end = p + strlen(name);

	while (p < end) {
		const unsigned char *run = p;
		uint32_t c;
		int r;

		/* What is written as it is goes out in one call. */
		for (;;) {
			if (*p >= 0x20 && *p < 0x7F && *p != '\\' &&
			    !(*p == '"' && quote))
				p++;
			else if (*p >= 0x80 && (r = utf8_dec(p,
			    (size_t)(end - p), &c)) > 1)
				p += r;
			else
				break;
		}
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (p == end)
			break;
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else
			fprintf(f, "\\x%02X", *p);
		p++;
	}
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
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	putc('"', f);
	while (*p != '\0') {
		uint32_t c;
		int r = utf8_dec(p, (size_t)(end - p), &c);

		if (r > 1) {
			fwrite(p, 1, (size_t)r, f);
			p += r;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				fprintf(f, "\\u%04x", *p);
			else if (*p >= 0x80)
				fprintf(f, "\\udc%02x", *p);
			else
				putc(*p, f);
		}
		p++;
	}
	putc('"', f);
}

/*
 * Output (xmlsniff(1), Output).  The per-input line (file(1) style, -i,
 * --mime-encoding, --json) goes to standard output; diagnostics go to
 * standard error as FILE:LINE:COLUMN: SEVERITY: MESSAGE [code].  Each
 * line is one record (record.c).  What they say is the library's result:
 * its record, its summary, its lines and notes; the other --format
 * values are in format.c; names are escaped by escape.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

/* The SGR sequences of --color around a diagnostic's severity and code
 * (ECMA-48 section 8.3.117); the library colours the excerpts. */
#define SGR_ERROR	"\033[1;31m"
#define SGR_WARNING	"\033[1;35m"
#define SGR_CODE	"\033[1m"
#define SGR_OFF		"\033[0m"

/* --browser (every record has the member), and --color resolved. */
static int browser, color;

void
report_set(int browser_on, int color_on)
{
	browser = browser_on;
	color = color_on;
}

/*
 * Print the per-input line for res in format fmt (brief: no name), as
 * one record on standard output.  The formats of format.c have no such
 * line.  --json: the library's record with "file" first.
 */
void
report_line(const char *name, const xmlsniff_result *res, enum fmt fmt,
    int brief)
{
	const char *v;
	FILE *f;

	if (fmt > FMT_JSON)
		return;
	f = rec_open(1);
	if (fmt == FMT_JSON) {
		fputs("{\"file\":", f);
		json_string(f, name);
		if ((v = xmlsniff_result_json(res)) != NULL) {
			putc(',', f);
			fputs(v + 1, f);
		} else
			putc('}', f);
		putc('\n', f);
		rec_close(f);
		return;
	}
	if (!brief) {
		put_escaped(f, name, 0);
		fputs(": ", f);
	}
	if (fmt == FMT_MIME)
		put_escaped(f, xmlsniff_result_mime(res), 0);
	else if (fmt == FMT_MIME_ENCODING)
		put_escaped(f, (v = xmlsniff_result_mime_encoding(res)) != NULL ?
		    v : "unknown", 0);
	else if ((v = xmlsniff_result_summary(res)) != NULL)
		fputs(v, f);	/* escaped by the library */
	putc('\n', f);
	rec_close(f);
}

/* A note of the text report after the diagnostics: "NAME: note: ...". */
static void
note(const char *name, const char *text)
{
	FILE *f = rec_open(2);

	put_escaped(f, name, 0);
	fputs(": note: ", f);
	put_escaped(f, text, 0);
	putc('\n', f);
	rec_close(f);
}

/*
 * Print the diagnostics of res: on standard error, one record a line,
 * with its excerpt, for the text formats; in the object for --json; as
 * format.c writes them for the others.
 */
void
report_diags(const char *name, const xmlsniff_result *res, enum fmt fmt)
{
	const xmlsniff_diagnostic *d;
	const char *v;
	size_t i;
	FILE *f;

	if (fmt == FMT_JSON)
		return;
	if (fmt > FMT_JSON) {
		format_diags(name, res, fmt);
		return;
	}
	/* Each code once, or with --all each occurrence listed. */
	for (i = 0; (d = xmlsniff_result_line(res, i)) != NULL; i++) {
		int err = strcmp(xmlsniff_diagnostic_severity(d), "error") == 0;

		f = rec_open(2);
		/* --color: sequences around the severity and the code only,
		 * so that the line still parses (xmlsniff(1), Excerpts). */
		put_escaped(f, name, 0);
		fprintf(f, ":%llu:%llu: %s%s%s: ",
		    (unsigned long long)xmlsniff_diagnostic_line(d),
		    (unsigned long long)xmlsniff_diagnostic_column(d), color ?
		    err ? SGR_ERROR : SGR_WARNING : "", err ? "error" :
		    "warning", color ? SGR_OFF : "");
		/* The charset and declaration values it quotes are the
		 * user's: escaped as names are. */
		put_escaped(f, xmlsniff_diagnostic_message(d), 0);
		if (xmlsniff_diagnostic_count(d) > 1)
			fprintf(f, " (%llu times)",
			    (unsigned long long)xmlsniff_diagnostic_count(d));
		fprintf(f, " [%s%s%s]\n", color ? SGR_CODE : "",
		    xmlsniff_diagnostic_code(d), color ? SGR_OFF : "");
		if ((v = xmlsniff_diagnostic_excerpt(d)) != NULL)
			fputs(v, f);
		rec_close(f);
	}
	if ((v = xmlsniff_result_unlisted_note(res)) != NULL)
		note(name, v);
	/* What the entity is really in, after its diagnostics. */
	if ((v = xmlsniff_result_guess_note(res)) != NULL)
		note(name, v);
}

/*
 * An input that could not be read: a line on standard error and, for
 * --json, an object of nulls; the formats of format.c report it on
 * standard output alone.
 */
void
report_failure(const char *name, const char *why, enum fmt fmt, int quiet)
{
	FILE *f;

	if (fmt > FMT_JSON) {
		format_failure(name, why, fmt);
		return;
	}
	report_warn(name, 0, "%s", why);
	if (fmt != FMT_JSON || quiet)
		return;
	f = rec_open(1);
	fputs("{\"file\":", f);
	json_string(f, name);
	fputs(",\"error\":", f);
	json_string(f, why);
	fputs(",\"encoding\":null,\"source\":null,\"bom\":null,"
	    "\"declaration\":null,\"charset\":null,\"mime\":null,"
	    "\"errors\":null,\"warnings\":null,\"diagnostics\":null", f);
	fputs(browser ? ",\"browser\":null}\n" : "}\n", f);
	rec_close(f);
}

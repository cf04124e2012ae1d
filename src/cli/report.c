/*
 * Output (xmlsniff(1), Output).  The per-input line (file(1) style, -i,
 * --mime-encoding, --json) goes to standard output; diagnostics go to
 * standard error as FILE:LINE:COLUMN: SEVERITY: MESSAGE [code].  Each
 * line is one record (record.c).  The other --format values are in
 * format.c; names and JSON strings are escaped by escape.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "excerpt.h"
#include "guess.h"
#include "io.h"

/* --browser (every record has the member), and --color resolved. */
static int browser, color;

void
report_set(int browser_on, int color_on)
{
	browser = browser_on;
	color = color_on;
}

/* A value from the entity or the command line, in double quotes. */
static void
put_quoted(FILE *f, const char *v)
{
	putc('"', f);
	put_escaped(f, v, 1);
	putc('"', f);
}

static void
json_or_null(FILE *f, const char *s)
{
	if (s == NULL)
		fputs("null", f);
	else
		json_string(f, s);
}

/*
 * The charset label a producer should send: the registered name (RFC
 * 7303 section 3; enc.c maps iconv's spellings to it), in lower case.
 * UCS-4 in octet order 2143 or 3412 has no label anyone could send:
 * "" (-i then gives no charset parameter, xmlsniff(1)).
 */
static void
mime_label(const struct sniff *s, char *buf, size_t size)
{
	/* RFC 7303 section 3: a charset is supplied only when it is
	 * reliably known.  Not for an entity whose encoding was not found
	 * (EBCDIC without a declaration), nor under a name neither the
	 * registry nor iconv knows, nor for UCS-4 2143 or 3412. */
	if (!s->have_enc || !s->enc.known || sniff_odd_order(s)) {
		buf[0] = '\0';
		return;
	}
	if (s->bom != BOM_NONE && enc_is_utf16(s->enc.family))
		snprintf(buf, size, "utf-16");
	else if (s->bom != BOM_NONE && enc_is_utf32(s->enc.family))
		snprintf(buf, size, "utf-32");
	else
		enc_lower(buf, s->encname, size);
}

/* The Content-Type the entity should be served with. */
void
report_mime(const struct sniff *s, char *buf, size_t size)
{
	static const char *const types[] = {
		[ROLE_DOCUMENT] = "application/xml",
		[ROLE_ENTITY] = "application/xml-external-parsed-entity",
		[ROLE_DTD] = "application/xml-dtd",
	};
	char label[300], q[620];
	const char *type = mt_fits(s->mt, s->role) ? s->mt->type :
	    types[s->role];
	size_t i, k = 0;
	int token = 1;

	mime_label(s, label, sizeof(label));
	if (label[0] == '\0') {
		snprintf(buf, size, "%s", type);
		return;
	}
	/* RFC 7231 section 3.1.1.1: a value that is not a token is sent as
	 * a quoted-string. */
	for (i = 0; label[i] != '\0'; i++)
		if (!((label[i] >= 'a' && label[i] <= 'z') ||
		    (label[i] >= '0' && label[i] <= '9') ||
		    strchr("!#$%&'*+-.^_`|~", label[i]) != NULL ||
		    (label[i] >= 'A' && label[i] <= 'Z')))
			token = 0;
	if (token)
		snprintf(q, sizeof(q), "%s", label);
	else {
		q[k++] = '"';
		for (i = 0; label[i] != '\0' && k + 3 < sizeof(q); i++) {
			if (label[i] == '"' || label[i] == '\\')
				q[k++] = '\\';
			q[k++] = label[i];
		}
		q[k++] = '"';
		q[k] = '\0';
	}
	snprintf(buf, size, "%s; charset=%s", type, q);
}

static const char *
source_text(enum source src)
{
	static const char *const names[] = {
		"none", "BOM", "charset", "declaration", "default", "sniffed"
	};

	return names[src];
}

/* --fix and --in-place: what was done to the file, in JSON, on out. */
static void
json_fix(FILE *out, const struct fixres *f)
{
	int i;

	fputs(",\"fix\":{\"action\":", out);
	json_string(out, f->action);
	fputs(",\"reason\":", out);
	json_or_null(out, f->why[0] != '\0' ? f->why : NULL);
	fputs(",\"changes\":[", out);
	for (i = 0; i < f->nchanges; i++) {
		if (i > 0)
			putc(',', out);
		json_string(out, f->changes[i]);
	}
	fputs("]}", out);
}

/* ... and at the end of the text line. */
static void
text_fix(FILE *out, const struct fixres *f)
{
	int i;

	fprintf(out, "; %s", f->action);
	if (f->why[0] != '\0') {
		fputs(": ", out);
		put_escaped(out, f->why, 0);
	}
	for (i = 0; i < f->nchanges; i++) {
		fputs(i ? "; " : ": ", out);
		put_escaped(out, f->changes[i], 0);
	}
}

/* --all: the occurrences of code c listed, the first included. */
static void
json_occurrences(FILE *f, const struct diags *dg, enum code c)
{
	struct diter it;
	struct dent e;
	int k = 0;

	fputs(",\"occurrences\":[", f);
	diag_iter(&it, dg);
	while (diag_next(&it, &e)) {
		if (e.code != c)
			continue;
		fprintf(f, "%s{\"offset\":%llu,\"line\":%llu,\"column\":%llu,"
		    "\"message\":", k++ ? "," : "", (unsigned long long)e.off,
		    (unsigned long long)e.line, (unsigned long long)e.col);
		json_string(f, e.msg);
		putc('}', f);
	}
	putc(']', f);
}

static void
json_line(FILE *f, const char *name, const struct sniff *s)
{
	const struct decl *d = &s->decl;
	enum code order[D_NCODES];
	char mime[1024];
	int i, n;

	fputs("{\"file\":", f);
	json_string(f, name);
	fputs(",\"encoding\":", f);
	json_or_null(f, s->have_enc ? s->encname : NULL);
	fprintf(f, ",\"source\":\"%s\",\"bom\":", source_name(s->source));
	json_or_null(f, s->bom != BOM_NONE ? bom_name(s->bom) : NULL);
	fputs(",\"declaration\":", f);
	if (d->present) {
		fprintf(f, "{\"kind\":\"%s\",\"version\":",
		    s->role == ROLE_DOCUMENT ? "xml" : "text");
		json_or_null(f, d->has_version ? d->version : NULL);
		fputs(",\"encoding\":", f);
		json_or_null(f, d->has_encoding ? d->encoding : NULL);
		fprintf(f, ",\"standalone\":%s}", d->standalone < 0 ? "null" :
		    d->standalone ? "\"yes\"" : "\"no\"");
	} else
		fputs("null", f);
	fputs(",\"charset\":", f);
	json_or_null(f, s->mt != NULL && s->mt->has_charset ? s->mt->charset :
	    NULL);
	report_mime(s, mime, sizeof(mime));
	fputs(",\"mime\":", f);
	json_string(f, mime);
	/* --http: the last response's status and its one Content-Type. */
	if (s->http != NULL) {
		fputs(",\"http\":{\"status\":", f);
		if (s->http->malformed)
			fputs("null", f);
		else
			fprintf(f, "%d", s->http->status);
		fputs(",\"content_type\":", f);
		json_or_null(f, s->http->nct == 1 ? s->http->ctype : NULL);
		/* Only where there is one: what the body was sent in. */
		if (s->http->coding[0] != '\0') {
			fputs(",\"content_encoding\":", f);
			json_string(f, s->http->coding);
		}
		putc('}', f);
	}
	fprintf(f, ",\"errors\":%d,\"warnings\":%d,\"diagnostics\":[",
	    s->dg.errors, s->dg.warnings);
	n = diag_order(&s->dg, order);
	for (i = 0; i < n; i++) {
		const struct diag *g = &s->dg.d[order[i]];

		fprintf(f, "%s{\"severity\":\"%s\",\"code\":\"%s\","
		    "\"offset\":%llu,\"line\":%llu,\"column\":%llu,"
		    "\"count\":%llu,\"message\":",
		    i ? "," : "", diag_is_error(&s->dg, order[i]) ? "error" : "warning",
		    diag_code(order[i]), (unsigned long long)g->off,
		    (unsigned long long)g->line, (unsigned long long)g->col,
		    (unsigned long long)g->count);
		json_string(f, g->msg);
		if (diag_listing(&s->dg))
			json_occurrences(f, &s->dg, order[i]);
		putc('}', f);
	}
	putc(']', f);
	if (s->browser != NULL) {
		fputs(",\"browser\":", f);
		json_string(f, s->browser);
	}
	if (diag_listing(&s->dg))
		fprintf(f, ",\"unlisted\":%llu",
		    (unsigned long long)s->dg.unlisted);
	/* Where a guess was sought (guess.c): what it found, or null. */
	if (s->guess != NULL && !s->guess->found)
		fputs(",\"guess\":null", f);
	else if (s->guess != NULL) {
		fputs(",\"guess\":{\"encoding\":", f);
		json_string(f, s->guess->encoding);
		fputs(",\"sample\":", f);
		json_string(f, s->guess->sample);
		putc('}', f);
	}
	if (s->fix != NULL)
		json_fix(f, s->fix);
	fputs("}\n", f);
}

/* The per-input line of the text formats, on f. */
static void
text_line(FILE *f, const char *name, const struct sniff *s, enum fmt fmt,
    int brief)
{
	const struct decl *d = &s->decl;
	char buf[1024];

	if (!brief) {
		put_escaped(f, name, 0);
		fputs(": ", f);
	}
	switch (fmt) {
	case FMT_MIME:
		report_mime(s, buf, sizeof(buf));
		put_escaped(f, buf, 0);
		putc('\n', f);
		return;
	case FMT_MIME_ENCODING:
		mime_label(s, buf, sizeof(buf));
		put_escaped(f, buf[0] != '\0' ? buf : "unknown", 0);
		putc('\n', f);
		return;
	default:
		break;
	}
	put_escaped(f, s->have_enc ? s->encname : "unknown", 0);
	fprintf(f, " (%s), ", source_text(s->source));
	if (!d->present)
		fputs("no declaration", f);
	else if (!d->has_encoding)
		fputs("declaration without encoding", f);
	else {
		fputs("declared ", f);
		put_quoted(f, d->encoding);
	}
	if (s->mt != NULL && s->mt->has_charset) {
		fputs(", charset ", f);
		put_quoted(f, s->mt->charset);
	}
	if (s->dg.errors)
		fprintf(f, ", %d error%s", s->dg.errors,
		    s->dg.errors > 1 ? "s" : "");
	if (s->dg.warnings)
		fprintf(f, ", %d warning%s", s->dg.warnings,
		    s->dg.warnings > 1 ? "s" : "");
	if (s->browser != NULL)
		fprintf(f, "; browser: %s", s->browser);
	if (s->fix != NULL)
		text_fix(f, s->fix);
	putc('\n', f);
}

/*
 * Print the per-input line for s in format fmt (brief: no name), as one
 * record on standard output.  The formats of format.c have no such line.
 */
void
report_line(const char *name, const struct sniff *s, enum fmt fmt, int brief)
{
	FILE *f;

	if (fmt > FMT_JSON)
		return;
	f = rec_open(1);
	if (fmt == FMT_JSON)
		json_line(f, name, s);
	else
		text_line(f, name, s, fmt, brief);
	rec_close(f);
}

/*
 * Print the diagnostics of s: on standard error, one record a line, for
 * the text formats; in the object for --json; as format.c writes them
 * for the others (exc: where excerpts come from).
 */
void
report_diags(const char *name, const struct sniff *s, enum fmt fmt,
    struct excerpt_src *exc)
{
	struct diter it;
	struct dent e;
	FILE *f;

	if (fmt == FMT_JSON)
		return;
	if (fmt > FMT_JSON) {
		format_diags(name, s, fmt);
		return;
	}
	/* Each code once, or with --all each occurrence listed. */
	diag_iter(&it, &s->dg);
	while (diag_next(&it, &e)) {
		int err = diag_is_error(&s->dg, e.code), col = color;

		f = rec_open(2);
		/* --color: sequences around the severity and the code only,
		 * so that the line still parses (xmlsniff(1), Excerpts). */
		put_escaped(f, name, 0);
		fprintf(f, ":%llu:%llu: %s%s%s: ", (unsigned long long)e.line,
		    (unsigned long long)e.col, col ? err ? EXC_SGR_ERROR :
		    EXC_SGR_WARNING : "", err ? "error" : "warning",
		    col ? EXC_SGR_OFF : "");
		/* The charset and declaration values it quotes are the
		 * user's: escaped as names are. */
		put_escaped(f, e.msg, 0);
		if (e.count > 1)
			fprintf(f, " (%llu times)", (unsigned long long)e.count);
		fprintf(f, " [%s%s%s]\n", col ? EXC_SGR_CODE : "",
		    diag_code(e.code), col ? EXC_SGR_OFF : "");
		if (exc != NULL)
			excerpt_print(f, exc, e.off, e.line, e.col, col);
		rec_close(f);
	}
	if (s->dg.unlisted > 0) {
		char note[160];

		diag_cut_note(&s->dg, note, sizeof(note));
		f = rec_open(2);
		put_escaped(f, name, 0);
		fprintf(f, ": note: %s\n", note);
		rec_close(f);
	}
	/* What the entity is really in, after its diagnostics. */
	if (s->guess != NULL && s->guess->found) {
		f = rec_open(2);
		put_escaped(f, name, 0);
		fputs(": note: ", f);
		put_escaped(f, s->guess->note, 0);
		putc('\n', f);
		rec_close(f);
	}
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

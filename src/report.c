/*
 * Output: SPEC section 5.  The per-input line (file(1) style, -i,
 * --mime-encoding, --json) goes to standard output; diagnostics go to
 * standard error as FILE:LINE:COLUMN: SEVERITY: MESSAGE [code].
 */
#include <stdio.h>
#include <string.h>

#include "xmlsniff.h"

/*
 * Print a file name so that any name reads back unambiguously: control
 * characters, backslash and bytes that are not UTF-8 as C escapes.
 */
static void
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

/* A value from the entity or the command line, in double quotes. */
static void
put_quoted(const char *v)
{
	putchar('"');
	put_escaped(stdout, v, 1);
	putchar('"');
}

/*
 * Print s as a JSON string (RFC 8259).  Bytes that are not UTF-8 become
 * \udcXX, the lone-surrogate escape of Python's surrogateescape, so that
 * any file name survives and the output stays valid UTF-8.
 */
void
put_json_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	putchar('"');
	while (*p != '\0') {
		uint32_t c;
		int r = utf8_dec(p, (size_t)(end - p), &c);

		if (r > 1) {
			fwrite(p, 1, (size_t)r, stdout);
			p += r;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				printf("\\u%04x", *p);
			else if (*p >= 0x80)
				printf("\\udc%02x", *p);
			else
				putchar(*p);
		}
		p++;
	}
	putchar('"');
}

static void
json_or_null(const char *s)
{
	if (s == NULL)
		fputs("null", stdout);
	else
		put_json_string(s);
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
	if (!s->have_enc) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (strncmp(s->encname, "UCS-4-", 6) == 0) {
		buf[0] = '\0';
		return;
	}
	if (s->bom != BOM_NONE && strncmp(s->encname, "UTF-16", 6) == 0)
		snprintf(buf, size, "utf-16");
	else if (s->bom != BOM_NONE && strncmp(s->encname, "UTF-32", 6) == 0)
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
	size_t i, k = 0;
	int token = 1;

	mime_label(s, label, sizeof(label));
	if (label[0] == '\0') {
		snprintf(buf, size, "%s", s->mt != NULL && s->mt->xml ?
		    s->mt->type : types[s->role]);
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
	snprintf(buf, size, "%s; charset=%s", s->mt != NULL && s->mt->xml ?
	    s->mt->type : types[s->role], q);
}

static const char *
source_text(enum source src)
{
	static const char *const names[] = {
		"none", "BOM", "charset", "declaration", "default", "sniffed"
	};

	return names[src];
}

static void
json_line(const char *name, const struct sniff *s)
{
	const struct decl *d = &s->decl;
	enum code order[D_NCODES];
	char mime[1024];
	int i, n;

	fputs("{\"file\":", stdout);
	put_json_string(name);
	fputs(",\"encoding\":", stdout);
	json_or_null(s->have_enc ? s->encname : NULL);
	printf(",\"source\":\"%s\",\"bom\":", source_name(s->source));
	json_or_null(s->bom != BOM_NONE ? bom_name(s->bom) : NULL);
	fputs(",\"declaration\":", stdout);
	if (d->present) {
		printf("{\"kind\":\"%s\",\"version\":",
		    s->role == ROLE_DOCUMENT ? "xml" : "text");
		json_or_null(d->has_version ? d->version : NULL);
		fputs(",\"encoding\":", stdout);
		json_or_null(d->has_encoding ? d->encoding : NULL);
		printf(",\"standalone\":%s}", d->standalone < 0 ? "null" :
		    d->standalone ? "\"yes\"" : "\"no\"");
	} else
		fputs("null", stdout);
	fputs(",\"charset\":", stdout);
	json_or_null(s->mt != NULL && s->mt->has_charset ? s->mt->charset :
	    NULL);
	report_mime(s, mime, sizeof(mime));
	fputs(",\"mime\":", stdout);
	put_json_string(mime);
	printf(",\"errors\":%d,\"warnings\":%d,\"diagnostics\":[",
	    s->dg.errors, s->dg.warnings);
	n = diag_order(&s->dg, order);
	for (i = 0; i < n; i++) {
		const struct diag *g = &s->dg.d[order[i]];

		printf("%s{\"severity\":\"%s\",\"code\":\"%s\",\"offset\":%llu,"
		    "\"line\":%llu,\"column\":%llu,\"count\":%llu,\"message\":",
		    i ? "," : "", diag_is_error(order[i]) ? "error" : "warning",
		    diag_code(order[i]), (unsigned long long)g->off,
		    (unsigned long long)g->line, (unsigned long long)g->col,
		    (unsigned long long)g->count);
		put_json_string(g->msg);
		putchar('}');
	}
	fputs("]}\n", stdout);
}

/* Print the per-input line for s in format fmt (brief: no name). */
void
report_line(const char *name, const struct sniff *s, enum fmt fmt, int brief)
{
	const struct decl *d = &s->decl;
	char buf[1024];

	if (fmt == FMT_JSON) {
		json_line(name, s);
		return;
	}
	if (!brief) {
		put_name(name);
		fputs(": ", stdout);
	}
	switch (fmt) {
	case FMT_MIME:
		report_mime(s, buf, sizeof(buf));
		puts(buf);
		return;
	case FMT_MIME_ENCODING:
		mime_label(s, buf, sizeof(buf));
		puts(buf[0] != '\0' ? buf : "unknown");
		return;
	default:
		break;
	}
	put_name(s->have_enc ? s->encname : "unknown");
	printf(" (%s), ", source_text(s->source));
	if (!d->present)
		fputs("no declaration", stdout);
	else if (!d->has_encoding)
		fputs("declaration without encoding", stdout);
	else {
		fputs("declared ", stdout);
		put_quoted(d->encoding);
	}
	if (s->mt != NULL && s->mt->has_charset) {
		fputs(", charset ", stdout);
		put_quoted(s->mt->charset);
	}
	if (s->dg.errors)
		printf(", %d error%s", s->dg.errors, s->dg.errors > 1 ? "s" : "");
	if (s->dg.warnings)
		printf(", %d warning%s", s->dg.warnings,
		    s->dg.warnings > 1 ? "s" : "");
	putchar('\n');
}

/* Print the diagnostics of s on standard error. */
void
report_diags(const char *name, const struct sniff *s)
{
	enum code order[D_NCODES];
	int i, n = diag_order(&s->dg, order);

	for (i = 0; i < n; i++) {
		const struct diag *g = &s->dg.d[order[i]];

		put_name_to(stderr, name);
		fprintf(stderr, ":%llu:%llu: %s: %s", (unsigned long long)g->line,
		    (unsigned long long)g->col, diag_is_error(order[i]) ?
		    "error" : "warning", g->msg);
		if (g->count > 1)
			fprintf(stderr, " (%llu times)",
			    (unsigned long long)g->count);
		fprintf(stderr, " [%s]\n", diag_code(order[i]));
	}
}

/* An input that could not be read: stderr, and a JSON object of nulls. */
void
report_failure(const char *name, const char *why, enum fmt fmt, int quiet)
{
	fputs("xmlsniff: ", stderr);
	put_name_to(stderr, name);
	fprintf(stderr, ": %s\n", why);
	if (fmt != FMT_JSON || quiet)
		return;
	fputs("{\"file\":", stdout);
	put_json_string(name);
	fputs(",\"error\":", stdout);
	put_json_string(why);
	fputs(",\"encoding\":null,\"source\":null,\"bom\":null,"
	    "\"declaration\":null,\"charset\":null,\"mime\":null,"
	    "\"errors\":null,\"warnings\":null,\"diagnostics\":null}\n", stdout);
}

/*
 * A result as xmlsniff(1) writes it: the --json record (less "file",
 * which the caller names) and the text of the per-input line after
 * "NAME: ".  Both are built in memory (sbuf.c) when first asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* The source as the text line names it. */
static const char *
source_text(const char *json)
{
	return strcmp(json, "bom") == 0 ? "BOM" : json;
}

/* --all: the occurrences of d listed, the first included. */
static void
json_occurrences(struct sbuf *b, const struct xmlsniff_diagnostic *d)
{
	size_t i;

	sb_str(b, ",\"occurrences\":[");
	for (i = 0; i < d->nocc; i++) {
		sb_fmt(b, "%s{\"offset\":%llu,\"line\":%llu,\"column\":%llu,"
		    "\"message\":", i > 0 ? "," : "",
		    (unsigned long long)d->occ[i]->off,
		    (unsigned long long)d->occ[i]->line,
		    (unsigned long long)d->occ[i]->col);
		sb_json(b, d->occ[i]->msg);
		sb_chr(b, '}');
	}
	sb_chr(b, ']');
}

static void
json_head(struct sbuf *b, const xmlsniff_result *res)
{
	sb_str(b, "{\"encoding\":");
	sb_json_or_null(b, res->encoding);
	sb_fmt(b, ",\"source\":\"%s\",\"bom\":", res->source);
	sb_json_or_null(b, res->bom);
	sb_str(b, ",\"declaration\":");
	if (res->has_decl) {
		sb_fmt(b, "{\"kind\":\"%s\",\"version\":", res->decl_kind);
		sb_json_or_null(b, res->decl_version);
		sb_str(b, ",\"encoding\":");
		sb_json_or_null(b, res->decl_encoding);
		sb_str(b, ",\"standalone\":");
		if (res->decl_standalone == NULL)
			sb_str(b, "null");
		else
			sb_fmt(b, "\"%s\"", res->decl_standalone);
		sb_chr(b, '}');
	} else
		sb_str(b, "null");
	sb_str(b, ",\"charset\":");
	sb_json_or_null(b, res->charset);
	sb_str(b, ",\"mime\":");
	sb_json(b, res->mime);
	/* --http: the last response's status and its one Content-Type. */
	if (res->has_http) {
		sb_str(b, ",\"http\":{\"status\":");
		if (res->http_status < 0)
			sb_str(b, "null");
		else
			sb_fmt(b, "%d", res->http_status);
		sb_str(b, ",\"content_type\":");
		sb_json_or_null(b, res->http_ctype);
		/* Only where there is one: what the body was sent in. */
		if (res->http_coding != NULL) {
			sb_str(b, ",\"content_encoding\":");
			sb_json(b, res->http_coding);
		}
		sb_chr(b, '}');
	}
}

/* --fix and --in-place: what was done to the file. */
static void
json_fix(struct sbuf *b, const xmlsniff_result *res)
{
	int i;

	sb_str(b, ",\"fix\":{\"action\":");
	sb_json(b, res->fix_action);
	sb_str(b, ",\"reason\":");
	sb_json_or_null(b, res->fix_why);
	sb_str(b, ",\"changes\":[");
	for (i = 0; i < res->nfix; i++) {
		if (i > 0)
			sb_chr(b, ',');
		sb_json(b, res->fix_changes[i]);
	}
	sb_str(b, "]}");
}

/* The --json record of res, less "file"; NULL for want of memory. */
char *
result_json(const xmlsniff_result *res)
{
	struct sbuf b = { NULL, 0, 0, 0 };
	size_t i;

	json_head(&b, res);
	sb_fmt(&b, ",\"errors\":%llu,\"warnings\":%llu,\"diagnostics\":[",
	    (unsigned long long)res->errors, (unsigned long long)res->warnings);
	for (i = 0; i < res->ndiag; i++) {
		const struct xmlsniff_diagnostic *d = &res->diag[i];

		sb_fmt(&b, "%s{\"severity\":\"%s\",\"code\":\"%s\","
		    "\"offset\":%llu,\"line\":%llu,\"column\":%llu,"
		    "\"count\":%llu,\"message\":", i > 0 ? "," : "",
		    d->error ? "error" : "warning", diag_code(d->code),
		    (unsigned long long)d->off, (unsigned long long)d->line,
		    (unsigned long long)d->col, (unsigned long long)d->count);
		sb_json(&b, d->msg);
		if (res->listing)
			json_occurrences(&b, d);
		sb_chr(&b, '}');
	}
	sb_chr(&b, ']');
	if (res->browser != NULL) {
		sb_str(&b, ",\"browser\":");
		sb_json(&b, res->browser);
	}
	if (res->listing)
		sb_fmt(&b, ",\"unlisted\":%llu",
		    (unsigned long long)res->unlisted);
	/* Where a guess was sought: what it found, or null. */
	if (res->guess_sought && res->guess_enc == NULL)
		sb_str(&b, ",\"guess\":null");
	else if (res->guess_sought) {
		sb_str(&b, ",\"guess\":{\"encoding\":");
		sb_json(&b, res->guess_enc);
		sb_str(&b, ",\"sample\":");
		sb_json(&b, res->guess_sample);
		sb_chr(&b, '}');
	}
	if (res->has_fix)
		json_fix(&b, res);
	sb_chr(&b, '}');
	return sb_take(&b);
}

/* A value of the entity's or the command line's, in double quotes. */
static void
quoted(struct sbuf *b, const char *v)
{
	sb_chr(b, '"');
	sb_escaped(b, v, 1);
	sb_chr(b, '"');
}

/* The per-input text line of res after "NAME: "; NULL for want of
 * memory. */
char *
result_summary(const xmlsniff_result *res)
{
	struct sbuf b = { NULL, 0, 0, 0 };
	int i;

	sb_escaped(&b, res->encoding != NULL ? res->encoding : "unknown", 0);
	sb_fmt(&b, " (%s), ", source_text(res->source));
	if (!res->has_decl)
		sb_str(&b, "no declaration");
	else if (res->decl_encoding == NULL)
		sb_str(&b, "declaration without encoding");
	else {
		sb_str(&b, "declared ");
		quoted(&b, res->decl_encoding);
	}
	if (res->charset != NULL) {
		sb_str(&b, ", charset ");
		quoted(&b, res->charset);
	}
	if (res->errors > 0)
		sb_fmt(&b, ", %llu error%s", (unsigned long long)res->errors,
		    res->errors > 1 ? "s" : "");
	if (res->warnings > 0)
		sb_fmt(&b, ", %llu warning%s",
		    (unsigned long long)res->warnings,
		    res->warnings > 1 ? "s" : "");
	if (res->browser != NULL)
		sb_fmt(&b, "; browser: %s", res->browser);
	if (res->has_fix) {
		sb_fmt(&b, "; %s", res->fix_action);
		if (res->fix_why != NULL) {
			sb_str(&b, ": ");
			sb_escaped(&b, res->fix_why, 0);
		}
		for (i = 0; i < res->nfix; i++) {
			sb_str(&b, i ? "; " : ": ");
			sb_escaped(&b, res->fix_changes[i], 0);
		}
	}
	return sb_take(&b);
}

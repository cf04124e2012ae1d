/*
 * What a result holds, member by member (xmlsniff(3)); the version, the
 * status names, and what the build and the system have.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coding.h"

/* The version the library was built as: its header's then. */
const char *
xmlsniff_version(void)
{
	return XMLSNIFF_VERSION_STRING;
}

int
xmlsniff_version_number(void)
{
	return XMLSNIFF_VERSION_NUMBER;
}

const char *
xmlsniff_status_name(int st)
{
	static const char *const names[] = {
		"ok", "argument", "memory", "read", "state", "encoding",
		"refused", "write", "marker"
	};

	if (st < 0 || (size_t)st >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[st];
}

const char *
xmlsniff_about(const char *what)
{
	if (strcmp(what, "kernels") == 0)
		return simd_ready(NULL);
	if (strcmp(what, "guess") == 0)
		return guess_method();
	if (strcmp(what, "http-codings") == 0)
		return coding_methods();
	return NULL;
}

size_t
xmlsniff_escape(char *buf, size_t size, const char *s, int how)
{
	struct sbuf b = { NULL, 0, 0, 0 };
	size_t n;

	if (how == XMLSNIFF_ESCAPE_JSON)
		sb_json(&b, s);
	else
		sb_escaped(&b, s, how == XMLSNIFF_ESCAPE_QUOTED);
	if (b.nomem) {
		sb_free(&b);
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	n = b.n;
	if (size > 0) {
		size_t k = n < size ? n : size - 1;

		if (k > 0)
			memcpy(buf, b.p, k);
		buf[k] = '\0';
	}
	sb_free(&b);
	return n;
}

const char *
xmlsniff_nearest(const char *word, const char *const *names, size_t n)
{
	return suggest(word, names, n, sizeof(names[0]));
}

const char *
xmlsniff_encoding(size_t i)
{
	return enc_known(i);
}

const char *
xmlsniff_code(size_t i)
{
	return i < D_NCODES ? diag_code((enum code)i) : NULL;
}

const char *
xmlsniff_code_info(const char *code, const char *field)
{
	const struct code_info *ci;
	int c;

	if ((c = diag_lookup(code)) < 0)
		return NULL;
	ci = diag_info((enum code)c);
	if (strcmp(field, "severity") == 0)
		return ci->error ? "error" : "warning";
	if (strcmp(field, "summary") == 0)
		return ci->summary;
	if (strcmp(field, "description") == 0)
		return ci->full;
	if (strcmp(field, "clause") == 0)
		return ci->clause;
	if (strcmp(field, "example") == 0)
		return ci->example;
	if (strcmp(field, "fix") == 0)
		return ci->fix;
	return NULL;
}

const char *
xmlsniff_code_suggest(const char *name)
{
	return diag_suggest(name);
}

/* Made once, then the same string: a loser of a race frees its own. */
static const char *
publish(_Atomic(char *) *slot, char *made)
{
	char *none = NULL;

	if (made == NULL)
		return atomic_load(slot);
	if (!atomic_compare_exchange_strong(slot, &none, made)) {
		free(made);
		return none;
	}
	return made;
}

const char *
xmlsniff_result_json(const xmlsniff_result *res)
{
	xmlsniff_result *r = (xmlsniff_result *)(uintptr_t)res;
	char *j = atomic_load(&r->json);

	return j != NULL ? j : publish(&r->json, result_json(res));
}

const char *
xmlsniff_result_summary(const xmlsniff_result *res)
{
	xmlsniff_result *r = (xmlsniff_result *)(uintptr_t)res;
	char *s = atomic_load(&r->summary);

	return s != NULL ? s : publish(&r->summary, result_summary(res));
}

#define STRING(name, member)						\
const char *								\
xmlsniff_result_##name(const xmlsniff_result *res)			\
{									\
	return res->member;						\
}

STRING(encoding, encoding)
STRING(source, source)
STRING(bom, bom)
STRING(charset, charset)
STRING(mime, mime)
STRING(mime_encoding, mime_label)
STRING(browser, browser)
STRING(decl_kind, decl_kind)
STRING(decl_version, decl_version)
STRING(decl_encoding, decl_encoding)
STRING(decl_standalone, decl_standalone)
STRING(http_content_type, http_ctype)
STRING(http_content_encoding, http_coding)
STRING(guess_encoding, guess_enc)
STRING(guess_sample, guess_sample)
STRING(guess_note, guess_note)
STRING(unlisted_note, cut_note)
STRING(fix_action, fix_action)
STRING(fix_reason, fix_why)

int
xmlsniff_result_http_status(const xmlsniff_result *res)
{
	return res->has_http ? res->http_status : -1;
}

uint64_t
xmlsniff_result_errors(const xmlsniff_result *res)
{
	return res->errors;
}

uint64_t
xmlsniff_result_warnings(const xmlsniff_result *res)
{
	return res->warnings;
}

int64_t
xmlsniff_result_unlisted(const xmlsniff_result *res)
{
	return res->listing ? (int64_t)res->unlisted : -1;
}

int
xmlsniff_result_is_xml(const xmlsniff_result *res)
{
	return res->is_xml;
}

int
xmlsniff_result_examined(const xmlsniff_result *res)
{
	return res->examined;
}

const char *
xmlsniff_result_severity(const xmlsniff_result *res, const char *code)
{
	int c = diag_lookup(code);

	if (c < 0)
		return NULL;
	return diag_error_of(res->pcode, (enum code)c) ? "error" : "warning";
}

const char *
xmlsniff_options_severity(const xmlsniff_options *o, const char *code)
{
	struct dpolicy pol;
	int c = diag_lookup(code);

	if (c < 0)
		return NULL;
	memset(&pol, 0, sizeof(pol));
	layer_lay(&pol, &o->set.base);
	layer_lay(&pol, &o->set.top);
	return diag_error_in(&pol, (enum code)c) ? "error" : "warning";
}

uint64_t
xmlsniff_result_content_offset(const xmlsniff_result *res)
{
	return res->content_at;
}

size_t
xmlsniff_result_ndiagnostics(const xmlsniff_result *res)
{
	return res->ndiag;
}

const xmlsniff_diagnostic *
xmlsniff_result_diagnostic(const xmlsniff_result *res, size_t i)
{
	return i < res->ndiag ? &res->diag[i] : NULL;
}

size_t
xmlsniff_result_nlines(const xmlsniff_result *res)
{
	return res->nline;
}

const xmlsniff_diagnostic *
xmlsniff_result_line(const xmlsniff_result *res, size_t i)
{
	return i < res->nline ? &res->line[i] : NULL;
}

const char *
xmlsniff_diagnostic_severity(const xmlsniff_diagnostic *d)
{
	return d->error ? "error" : "warning";
}

const char *
xmlsniff_diagnostic_code(const xmlsniff_diagnostic *d)
{
	return diag_code((enum code)d->code);
}

uint64_t
xmlsniff_diagnostic_offset(const xmlsniff_diagnostic *d)
{
	return d->off;
}

uint64_t
xmlsniff_diagnostic_line(const xmlsniff_diagnostic *d)
{
	return d->line;
}

uint64_t
xmlsniff_diagnostic_column(const xmlsniff_diagnostic *d)
{
	return d->col;
}

uint64_t
xmlsniff_diagnostic_count(const xmlsniff_diagnostic *d)
{
	return d->count;
}

const char *
xmlsniff_diagnostic_message(const xmlsniff_diagnostic *d)
{
	return d->msg;
}

const char *
xmlsniff_diagnostic_excerpt(const xmlsniff_diagnostic *d)
{
	return d->excerpt;
}

size_t
xmlsniff_diagnostic_noccurrences(const xmlsniff_diagnostic *d)
{
	return d->nocc;
}

const xmlsniff_diagnostic *
xmlsniff_diagnostic_occurrence(const xmlsniff_diagnostic *d, size_t i)
{
	return i < d->nocc ? d->occ[i] : NULL;
}

size_t
xmlsniff_result_fix_nchanges(const xmlsniff_result *res)
{
	return (size_t)res->nfix;
}

const char *
xmlsniff_result_fix_change(const xmlsniff_result *res, size_t i)
{
	return i < (size_t)res->nfix ? res->fix_changes[i] : NULL;
}

int
xmlsniff_result_fix_keeps_content(const xmlsniff_result *res)
{
	return res->plan != NULL && res->plan->xo.same_content;
}

/*
 * What the caller did with the rewrite, for the record and the summary:
 * the changes stay with "written" and "would-write", and go otherwise.
 * The record and summary made before are made again.
 */
int
xmlsniff_result_set_fix(xmlsniff_result *res, const char *action,
    const char *reason)
{
	static const char *const actions[] = { "written", "would-write",
	    "unchanged", "refused", "failed" };
	char *a, *w = NULL;
	size_t i;
	int k;

	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (strcmp(action, actions[i]) == 0)
			break;
	if (i == sizeof(actions) / sizeof(actions[0]))
		return XMLSNIFF_ERR_ARGUMENT;
	if ((a = strdup(action)) == NULL || (reason != NULL &&
	    (w = strdup(reason)) == NULL)) {
		free(a);
		return XMLSNIFF_ERR_MEMORY;
	}
	free(res->fix_action);
	free(res->fix_why);
	res->fix_action = a;
	res->fix_why = w;
	res->has_fix = 1;
	if (i >= 2) {
		for (k = 0; k < res->nfix; k++)
			free(res->fix_changes[k]);
		res->nfix = 0;
	}
	free(atomic_exchange(&res->json, NULL));
	free(atomic_exchange(&res->summary, NULL));
	return XMLSNIFF_OK;
}

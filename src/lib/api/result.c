/*
 * The result of a checker or a transcoder (xmlsniff(3)): the members of
 * xmlsniff(1)'s --json record, the lines its text report lists with
 * their excerpts, and the notes it adds, copied out of the analysis so
 * that the result lives on its own.  Once made it only changes by
 * xmlsniff_result_set_fix(); its record and summary are made when first
 * asked for, and published atomically, so that threads may read it.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

static char *
dup(const char *s, int *bad)
{
	char *d;

	if (s == NULL)
		return NULL;
	if ((d = strdup(s)) == NULL)
		*bad = 1;
	return d;
}

/* The charset label a producer should send (RFC 7303 section 3): the
 * registered name in lower case, or "" where none is reliably known. */
static void
mime_label(const struct sniff *s, char *buf, size_t size)
{
	/* Not for an entity whose encoding was not found (EBCDIC without a
	 * declaration), nor under a name neither the registry nor iconv
	 * knows, nor for UCS-4 2143 or 3412. */
	if (!s->have_enc || !s->enc.known || sniff_odd_order(s)) {
		buf[0] = '\0';
		return;
	}
	if (s->bom != BOM_NONE && enc_is_utf16(s->enc.family))
		str_put(buf, size, "utf-16");
	else if (s->bom != BOM_NONE && enc_is_utf32(s->enc.family))
		str_put(buf, size, "utf-32");
	else
		enc_lower(buf, s->encname, size);
}

/* The Content-Type the entity should be served with. */
static void
mime_type(const struct sniff *s, const char *label, char *buf, size_t size)
{
	static const char *const types[] = {
		[ROLE_DOCUMENT] = "application/xml",
		[ROLE_ENTITY] = "application/xml-external-parsed-entity",
		[ROLE_DTD] = "application/xml-dtd",
	};
	char q[620];
	const char *type = mt_fits(s->mt, s->role) ? s->mt->type :
	    types[s->role];
	size_t i, k = 0;
	int token = 1;

	if (label[0] == '\0') {
		str_put(buf, size, type);
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
		str_put(q, sizeof(q), label);
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
	str_put(buf, size, type);
	k = strlen(buf);
	str_put(buf + k, size - k, "; charset=");
	k += strlen(buf + k);
	str_put(buf + k, size - k, q);
}

/* The strings of the head, gathered to be copied into one block. */
#define NHEAD	10
struct heads {
	char		**to[NHEAD];
	const char	*from[NHEAD];
	int		 n;
};

static void
head_str(struct heads *h, char **to, const char *from)
{
	h->to[h->n] = to;
	h->from[h->n++] = from;
}

/* The encoding, its source, BOM, declaration, charset and type, their
 * strings in one block (res->head), as the result lives on its own. */
static void
take_head(xmlsniff_result *res, const struct sniff *s, int *bad)
{
	const struct decl *d = &s->decl;
	char label[300], mime[1024];
	struct heads h;
	size_t len[NHEAD], total = 0;
	char *p;
	int i;

	h.n = 0;
	head_str(&h, &res->encoding, s->have_enc ? s->encname : NULL);
	head_str(&h, &res->source, source_name(s->source));
	head_str(&h, &res->bom, s->bom != BOM_NONE ? bom_name(s->bom) : NULL);
	if ((res->has_decl = d->present)) {
		head_str(&h, &res->decl_kind, s->role == ROLE_DOCUMENT ?
		    "xml" : "text");
		head_str(&h, &res->decl_version, d->has_version ? d->version :
		    NULL);
		head_str(&h, &res->decl_encoding, d->has_encoding ?
		    d->encoding : NULL);
		head_str(&h, &res->decl_standalone, d->standalone < 0 ? NULL :
		    d->standalone ? "yes" : "no");
	}
	head_str(&h, &res->charset, s->mt != NULL && s->mt->has_charset ?
	    s->mt->charset : NULL);
	mime_label(s, label, sizeof(label));
	mime_type(s, label, mime, sizeof(mime));
	head_str(&h, &res->mime, mime);
	head_str(&h, &res->mime_label, label[0] != '\0' ? label : NULL);
	for (i = 0; i < h.n; i++)
		total += len[i] = h.from[i] != NULL ? strlen(h.from[i]) + 1 : 0;
	if ((res->head = malloc(total > 0 ? total : 1)) == NULL)
		*bad = 1;
	for (i = 0, p = res->head; p != NULL && i < h.n; i++)
		if (h.from[i] != NULL) {
			memcpy(p, h.from[i], len[i]);
			*h.to[i] = p;
			p += len[i];
		}
	res->is_xml = !s->not_xml;
	for (i = 0; i < D_NCODES; i++)
		res->error[i] = (unsigned char)diag_is_error(&s->dg,
		    (enum code)i);
	res->content_at = s->decl.present ? s->decl.end : s->bomlen;
	if ((res->has_http = s->http != NULL)) {
		res->http_status = s->http->malformed ? -1 : s->http->status;
		res->http_ctype = dup(s->http->nct == 1 ? s->http->ctype :
		    NULL, bad);
		res->http_coding = dup(s->http->coding[0] != '\0' ?
		    s->http->coding : NULL, bad);
	}
}

/* One line of the report: e, its excerpt when r has excerpts. */
static void
take_line(struct xmlsniff_diagnostic *l, const struct dent *e,
    struct run *r, int *bad)
{
	l->code = (int)e->code;
	l->error = diag_is_error(&r->s.dg, e->code);
	l->off = e->off;
	l->line = e->line;
	l->col = e->col;
	l->count = e->count;
	l->msg = dup(e->msg, bad);
	if (r->exc != NULL && r->exc->on) {
		struct sbuf b = { NULL, 0, 0, 0 };

		if (excerpt_text(&b, r->exc, e->off, e->line, e->col,
		    r->set->color))
			l->excerpt = sb_take(&b);
		else
			sb_free(&b);
	}
}

/* The lines the report lists (each code's first and, with --all, the
 * further ones, by offset) and the record's diagnostics, each with its
 * occurrences among the lines. */
static void
take_diags(xmlsniff_result *res, struct run *r, int *bad)
{
	const struct diags *dg = &r->s.dg;
	enum code order[D_NCODES];
	struct diter it;
	struct dent e;
	size_t i, j, n = 0, k;

	diag_iter(&it, dg);
	while (diag_next(&it, &e))
		n++;
	res->ndiag = (size_t)diag_order(dg, order);
	if ((n > 0 && (res->line = calloc(n, sizeof(*res->line))) == NULL) ||
	    (res->ndiag > 0 && (res->diag = calloc(res->ndiag,
	    sizeof(*res->diag))) == NULL)) {
		res->ndiag = 0;
		*bad = 1;
		return;
	}
	diag_iter(&it, dg);
	while (res->nline < n && diag_next(&it, &e))
		take_line(&res->line[res->nline++], &e, r, bad);
	for (i = 0; i < res->ndiag; i++) {
		struct xmlsniff_diagnostic *d = &res->diag[i];
		const struct diag *g = &dg->d[order[i]];

		d->code = (int)order[i];
		d->error = diag_is_error(dg, order[i]);
		d->off = g->off;
		d->line = g->line;
		d->col = g->col;
		d->count = g->count;
		d->msg = dup(g->msg, bad);
		for (j = 0; j < res->nline; j++)
			d->nocc += res->line[j].code == d->code;
		if ((d->occ = calloc(d->nocc + 1, sizeof(*d->occ))) == NULL) {
			d->nocc = 0;
			*bad = 1;
			continue;
		}
		for (j = k = 0; j < res->nline; j++)
			if (res->line[j].code == d->code)
				d->occ[k++] = &res->line[j];
		/* Its excerpt is its first line's. */
		if (k > 0 && d->occ[0]->excerpt != NULL)
			d->excerpt = dup(d->occ[0]->excerpt, bad);
	}
}

/* The guess, the browser, the cut list's note, the plan of --fix. */
static void
take_rest(xmlsniff_result *res, struct run *r, int *bad)
{
	const struct sniff *s = &r->s;
	char note[160];
	int i;

	res->examined = !r->unexamined;
	res->errors = (uint64_t)s->dg.errors;
	res->warnings = (uint64_t)s->dg.warnings;
	res->listing = diag_listing(&s->dg) > 0;
	res->unlisted = s->dg.unlisted;
	if (s->dg.unlisted > 0) {
		diag_cut_note(&s->dg, note, sizeof(note));
		res->cut_note = dup(note, bad);
	}
	if (r->set->browser)
		res->browser = dup(browser_name(&r->br), bad);
	if ((res->guess_sought = s->guess != NULL) && s->guess->found) {
		res->guess_enc = dup(s->guess->encoding, bad);
		res->guess_sample = dup(s->guess->sample, bad);
		res->guess_note = dup(s->guess->note, bad);
	}
	if (r->fix.action == NULL)
		return;
	res->has_fix = 1;
	res->fix_action = dup(r->fix.action, bad);
	res->fix_why = dup(r->fix.why[0] != '\0' ? r->fix.why : NULL, bad);
	for (i = 0; i < r->fix.nchanges; i++)
		res->fix_changes[res->nfix++] = dup(r->fix.changes[i], bad);
	if (strcmp(r->fix.action, "would-write") == 0) {
		if ((res->plan = malloc(sizeof(*res->plan))) == NULL)
			*bad = 1;
		else
			*res->plan = r->fix;
	}
}

/* The result of the input r analysed, or NULL for want of memory. */
xmlsniff_result *
result_make(struct run *r)
{
	xmlsniff_result *res;
	int bad = 0;

	if ((res = calloc(1, sizeof(*res))) == NULL)
		return NULL;
	take_head(res, &r->s, &bad);
	take_diags(res, r, &bad);
	take_rest(res, r, &bad);
	if (bad) {
		xmlsniff_result_free(res);
		return NULL;
	}
	return res;
}

static void
free_diag(struct xmlsniff_diagnostic *d)
{
	free(d->msg);
	free(d->excerpt);
	free(d->occ);
}

void
xmlsniff_result_free(xmlsniff_result *res)
{
	size_t i;
	int k;

	if (res == NULL)
		return;
	for (i = 0; i < res->ndiag; i++)
		free_diag(&res->diag[i]);
	for (i = 0; i < res->nline; i++)
		free_diag(&res->line[i]);
	free(res->diag);
	free(res->line);
	free(res->head);
	free(res->http_ctype);
	free(res->http_coding);
	free(res->browser);
	free(res->cut_note);
	free(res->guess_enc);
	free(res->guess_sample);
	free(res->guess_note);
	free(res->fix_action);
	free(res->fix_why);
	for (k = 0; k < res->nfix; k++)
		free(res->fix_changes[k]);
	free(res->plan);
	free(atomic_load(&res->json));
	free(atomic_load(&res->summary));
	free(res);
}

/*
 * The result of a checker or a transcoder (xmlsniff(3)): the members of
 * xmlsniff(1)'s --json record, the lines its text report lists with
 * their excerpts, and the notes it adds, copied out of the analysis so
 * that the result lives on its own.  Once made it only changes by
 * xmlsniff_result_set_fix(); its record and summary are made when first
 * asked for, and published atomically, so that threads may read it.
 */
#include <stddef.h>
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

/* Whether c is a tchar of RFC 9110 section 5.6.2: a letter, a digit or
 * one of !#$%&'*+-.^_`|~ (a bit of the two words per character). */
static int
tchar(unsigned char c)
{
	static const uint64_t lo = 0x03ff6cfa00000000ULL;	/* 00..3F */
	static const uint64_t hi = 0x57ffffffc7fffffeULL;	/* 40..7F */

	return c < 64 ? (int)(lo >> c & 1) : c < 128 ?
	    (int)(hi >> (c - 64) & 1) : 0;
}

/* src (n bytes) at buf + *k, as far as size leaves room (one byte is
 * left for the NUL). */
static void
put_n(char *buf, size_t size, size_t *k, const char *src, size_t n)
{
	if (n > size - 1 - *k)
		n = size - 1 - *k;
	memcpy(buf + *k, src, n);
	*k += n;
}

/* The Content-Type the entity should be served with; its length. */
static size_t
mime_type(const struct sniff *s, const char *label, char *buf, size_t size)
{
	static const char *const types[] = {
		[ROLE_DOCUMENT] = "application/xml",
		[ROLE_ENTITY] = "application/xml-external-parsed-entity",
		[ROLE_DTD] = "application/xml-dtd",
	};
	static const char cs[] = "; charset=";
	char q[620];
	const char *type = mt_fits(s->mt, s->role) ? s->mt->type :
	    types[s->role];
	size_t i, k = 0, qn = 0;
	int token = 1;

	put_n(buf, size, &k, type, strlen(type));
	if (label[0] == '\0') {
		buf[k] = '\0';
		return k;
	}
	/* RFC 7231 section 3.1.1.1: a value that is not a token is sent as
	 * a quoted-string. */
	for (i = 0; label[i] != '\0' && token; i++)
		token = tchar((unsigned char)label[i]);
	if (!token) {
		q[qn++] = '"';
		for (i = 0; label[i] != '\0' && qn + 3 < sizeof(q); i++) {
			if (label[i] == '"' || label[i] == '\\')
				q[qn++] = '\\';
			q[qn++] = label[i];
		}
		q[qn++] = '"';
	}
	put_n(buf, size, &k, cs, sizeof(cs) - 1);
	if (token)
		put_n(buf, size, &k, label, strlen(label));
	else
		put_n(buf, size, &k, q, qn);
	buf[k] = '\0';
	return k;
}

/* The strings of the head, gathered to be copied after the result, in
 * the same block: each string and the member (its offset) it goes to. */
#define NHEAD	10
struct heads {
	size_t		 to[NHEAD];
	const char	*from[NHEAD];
	size_t		 len[NHEAD];
	size_t		 total;
	int		 n;
	char		 label[300];
	char		 mime[1024];
};

#define HEAD(h, member, from)	head_str(h, offsetof(xmlsniff_result, \
				    member), from)

/* from (NULL: none), of len bytes, to the member at offset to. */
static void
head_strn(struct heads *h, size_t to, const char *from, size_t len)
{
	if (from == NULL)
		return;
	h->to[h->n] = to;
	h->from[h->n] = from;
	h->total += h->len[h->n++] = len + 1;
}

static void
head_str(struct heads *h, size_t to, const char *from)
{
	if (from != NULL)
		head_strn(h, to, from, strlen(from));
}

/* The encoding, its source, BOM, declaration, charset and type. */
static void
gather_head(struct heads *h, const struct sniff *s)
{
	const struct decl *d = &s->decl;

	h->n = 0;
	h->total = 0;
	HEAD(h, encoding, s->have_enc ? s->encname : NULL);
	if (d->present) {
		HEAD(h, decl_version, d->has_version ? d->version : NULL);
		HEAD(h, decl_encoding, d->has_encoding ? d->encoding : NULL);
	}
	HEAD(h, charset, s->mt != NULL && s->mt->has_charset ?
	    s->mt->charset : NULL);
	mime_label(s, h->label, sizeof(h->label));
	head_strn(h, offsetof(xmlsniff_result, mime), h->mime,
	    mime_type(s, h->label, h->mime, sizeof(h->mime)));
	HEAD(h, mime_label, h->label[0] != '\0' ? h->label : NULL);
}

/* The head's strings into the block after res (res->head), as the result
 * lives on its own, the names of the library's own tables as they are,
 * and the rest of what the sniff says. */
static void
take_head(xmlsniff_result *res, const struct heads *h,
    const struct sniff *s, int *bad)
{
	const struct decl *d = &s->decl;
	char *p = (char *)(res + 1);
	int i;

	res->head = p;
	for (i = 0; i < h->n; i++) {
		memcpy(p, h->from[i], h->len[i]);
		*(char **)(void *)((char *)res + h->to[i]) = p;
		p += h->len[i];
	}
	res->source = source_name(s->source);
	if (s->bom != BOM_NONE)
		res->bom = bom_name(s->bom);
	if (d->present) {
		res->decl_kind = s->role == ROLE_DOCUMENT ? "xml" : "text";
		if (d->standalone >= 0)
			res->decl_standalone = d->standalone ? "yes" : "no";
	}
	res->has_decl = s->decl.present;
	res->is_xml = !s->not_xml;
	if (s->dg.pol != NULL)
		memcpy(res->pcode, s->dg.pol->code, sizeof(res->pcode));
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
	const enum code *order;
	struct diter it;
	struct dent e;
	size_t i, j, n, k;

	/* The lines are the first of each code present (the record's
	 * diagnostics, in it.order) and the further occurrences listed. */
	diag_iter(&it, dg);
	order = it.order;
	n = (size_t)it.n + dg->nocc;
	res->ndiag = (size_t)it.n;
	if ((n > 0 && (res->line = calloc(n, sizeof(*res->line))) == NULL) ||
	    (res->ndiag > 0 && (res->diag = calloc(res->ndiag,
	    sizeof(*res->diag))) == NULL)) {
		res->ndiag = 0;
		*bad = 1;
		return;
	}
	while (res->nline < n && diag_next(&it, &e))
		take_line(&res->line[res->nline++], &e, r, bad);
	for (i = 0; i < res->ndiag; i++) {
		struct xmlsniff_diagnostic *d = &res->diag[i];
		const struct diag *g = &dg->d[order[i]];

		d->code = (int)order[i];
		d->error = diag_error_of(res->pcode, order[i]);
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
	struct heads h;
	int bad = 0;

	gather_head(&h, &r->s);
	/* malloc and memset (of the members; the strings are copied in):
	 * glibc's calloc passes over the thread's cache of small blocks. */
	if ((res = malloc(sizeof(*res) + h.total)) == NULL)
		return NULL;
	mem_zero(res, sizeof(*res));
	take_head(res, &h, &r->s, &bad);
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

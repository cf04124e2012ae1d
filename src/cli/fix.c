/*
 * --fix: the smallest change that makes an entity consistent
 * (xmlsniff(1), --fix).  fix_plan decides, from the analysis alone, the
 * target the entity is rewritten into by the transcoder: its own encoding
 * with the BOM and declaration RFC 7303 section 3.3 and XML 1.0 section
 * 4.3.3 require, or the first --allow-encoding.  Nothing is guessed: an
 * entity with illegal bytes or characters, or whose encoding or byte
 * order is in doubt, is refused.  UTF-16 without a BOM or a label is not
 * in doubt where its first characters show the byte order beyond
 * question (guess_utf16_layout): it is read as that, and gets its BOM.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io.h"

static int
refused(struct fixres *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
refused(struct fixres *r, const char *fmt, ...)
{
	va_list ap;

	r->action = "refused";
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -1;
}

static void
change(struct fixres *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
change(struct fixres *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nchanges == FIX_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->changes[r->nchanges++], sizeof(r->changes[0]), fmt, ap);
	va_end(ap);
}

/* Whether code c of s stands in the way: present, reported and an error. */
static int
blocking(const struct sniff *s, enum code c)
{
	return s->dg.d[c].count > 0 && !diag_ignored(&s->dg, c) &&
	    diag_is_error(&s->dg, c);
}

/* Whether the byte order of a UTF-16 or UTF-32 entity is certain: from
 * its BOM, or from the pattern of its first characters (Appendix F). */
static int
order_certain(const struct sniff *s)
{
	if (s->bom != BOM_NONE)
		return 1;
	if (enc_is_utf16(s->enc.family))
		return s->pat == PAT_16BE || s->pat == PAT_16LE;
	return s->pat == PAT_32BE || s->pat == PAT_32LE;
}

/* The label that names the entity's encoding: charset, else declaration;
 * NULL when neither is known. */
static const struct enc *
label_of(const struct sniff *s)
{
	if (s->mt != NULL && s->mt->has_charset && s->cs.known)
		return &s->cs;
	if (s->decl.has_encoding && s->de.known)
		return &s->de;
	return NULL;
}

/*
 * Choose the target for a UTF-16 or UTF-32 entity kept in its encoding
 * (form "UTF-16" or "UTF-32"): the byte-order form without a BOM when a
 * label names it and the byte order agrees (RFC 7303 section 3.3: such a
 * label forbids the BOM), else the form with a BOM (XML 1.0 section 4.3.3:
 * UTF-16 must have one).
 */
static void
unicode_target(const struct sniff *s, const char *form, char *to,
    size_t size, int *le)
{
	const struct enc *l = label_of(s);

	*le = s->dec == FORM_UTF16LE || s->dec == FORM_UTF32LE;
	if (l != NULL && strncmp(l->name, form, 6) == 0 &&
	    strcmp(l->name, s->encname) == 0)
		snprintf(to, size, "%s", s->encname);
	else
		snprintf(to, size, "%s", form);
}

/* What the rewrite does, as fix_plan decides it. */
struct rewrite {
	int	 transcoded, stripped, added_bom, decl_fixed, decl_added;
};

/* What stops a fix before any target is chosen: -1 with r refused. */
static int
unfixable(const struct sniff *s, int own, struct fixres *r)
{
	if (s->dg.d[D_ILLEGAL_SEQUENCE].count > 0)
		return refused(r, "it has bytes that are illegal in %s; "
		    "nothing is guessed, mend them by hand", s->encname);
	if (s->dg.d[D_ILLEGAL_CHAR].count > 0)
		return refused(r, "it has characters that XML does not allow; "
		    "nothing is guessed, mend them by hand");
	if (!s->have_enc || s->dec == FORM_NONE ||
	    s->dg.d[D_UNSUPPORTED_ENCODING].count > 0)
		return refused(r, "its encoding cannot be determined or "
		    "decoded");
	if (s->dg.d[D_BAD_DECLARATION].count > 0 ||
	    s->dg.d[D_DECL_NOT_AT_START].count > 0)
		return refused(r, "its declaration is malformed or not at the "
		    "start; mend it by hand");
	if (s->dg.d[D_BOM_CHARSET_CONFLICT].count > 0)
		return refused(r, "the charset parameter contradicts the BOM; "
		    "correct the Content-Type, which is not in the file");
	if (own && (enc_is_utf16(s->enc.family) ||
	    enc_is_utf32(s->enc.family)) && !sniff_odd_order(s) &&
	    !order_certain(s))
		return refused(r, "its byte order is in doubt: there is no "
		    "BOM and the first characters do not show it");
	return 0;
}

/* The target and how it is written: the first --allow-encoding when the
 * policy refuses the entity's own (own = 0), else its own encoding. */
static int
fix_target(const struct sniff *s, int own, int le, struct xopts *xo,
    struct fixres *r)
{
	const struct decl *d = &s->decl;
	char to[256], err[256];
	int strip_u8;

	if (!own) {
		snprintf(to, sizeof(to), "%s", policy_first(s->dg.pol));
		if (target_resolve(to, le, 0, xo, err, sizeof(err)) < 0)
			return refused(r, "%s", err);
	} else {
		if (enc_is_utf16(s->enc.family))
			unicode_target(s, "UTF-16", to, sizeof(to), &le);
		else if (enc_is_utf32(s->enc.family) && !sniff_odd_order(s))
			unicode_target(s, "UTF-32", to, sizeof(to), &le);
		else
			snprintf(to, sizeof(to), "%s", s->encname);
		/* A UTF-8 BOM goes only when the policy makes it an error. */
		strip_u8 = s->bom == BOM_UTF8 && blocking(s, D_UTF8_BOM);
		if (target_resolve(to, le, s->bom == BOM_UTF8 && !strip_u8, xo,
		    err, sizeof(err)) < 0)
			return refused(r, "%s", err);
		/* Re-encoding into the same encoding must leave the content
		 * as it was, byte for byte. */
		xo->same_content = 1;
	}
	xo->fallback = FB_ERROR;
	/* A declared value that already names the target stays as written
	 * ("utf-8" is not rewritten to "UTF-8"). */
	if (d->present && d->has_encoding) {
		struct enc de;

		xo->keep_decl = enc_lookup(d->encoding, &de) == 0 &&
		    strcasecmp(de.name, xo->declname) == 0;
	}
	return 0;
}

/* Every error left must be one that the rewrite w mends: -1 with r
 * refused otherwise. */
static int
all_mended(const struct sniff *s, const struct xopts *xo,
    const struct rewrite *w, struct fixres *r)
{
	int c, mended;

	for (c = 0; c < D_NCODES; c++) {
		if (!blocking(s, (enum code)c))
			continue;
		switch (c) {
		case D_BOM_FORBIDDEN:
		case D_UTF8_BOM:
			mended = w->stripped || w->transcoded;
			break;
		case D_DECL_MISMATCH:
		case D_CHARSET_DECL_CONFLICT:
			mended = w->decl_fixed || w->transcoded;
			break;
		case D_BOM_MISSING:
		case D_NO_DECLARATION:
			mended = w->added_bom || w->transcoded;
			break;
		case D_MISSING_DECL:
			mended = w->decl_added || w->transcoded;
			break;
		case D_ENCODING_NOT_ALLOWED:
			mended = w->transcoded;
			break;
		case D_UTF32:
			mended = w->transcoded && !enc_is_utf32(xo->to.family);
			break;
		default:
			mended = 0;
			break;
		}
		if (!mended)
			return refused(r, "%s cannot be fixed automatically",
			    diag_code((enum code)c));
	}
	return 0;
}

/* What will change, in words. */
static void
describe(const struct sniff *s, const struct xopts *xo,
    const struct rewrite *w, struct fixres *r)
{
	const struct decl *d = &s->decl;

	if (w->transcoded)
		change(r, "transcoded from %s to %s", s->encname, xo->to.name);
	else if (w->stripped)
		change(r, s->bom == BOM_UTF8 ? "stripped the UTF-8 BOM" :
		    "stripped a forbidden BOM");
	else if (w->added_bom)
		change(r, "added a %s BOM (byte order from the first "
		    "characters)", xo->kind == FORM_UTF16LE || xo->kind ==
		    FORM_UTF32LE ? "little-endian" : "big-endian");
	if (w->decl_fixed)
		change(r, "declared encoding \"%s\" corrected to \"%s\"",
		    d->encoding, xo->declname);
	else if (w->decl_added && d->present)
		change(r, "added encoding=\"%s\" to the declaration",
		    xo->declname);
	else if (w->decl_added)
		change(r, "added a declaration with encoding=\"%s\"",
		    xo->declname);
}

/*
 * fix_plan for BOM-less UTF-16 in the byte order read_as, which the
 * entity was not read in (no label says UTF-16): its own encoding with
 * the BOM it lacks (XML 1.0 section 4.3.3), in the same byte order, or
 * the first --allow-encoding when the policy refuses UTF-16 (le: its byte
 * order, --byte-order).  Whether every character is legal is known only
 * as it is rewritten: the transcoder refuses, and leaves the file, when
 * one is not.
 */
static int
plan_utf16(const struct sniff *s, const char *read_as, int le,
    struct xopts *xo, struct fixres *r)
{
	char err[256];
	int own = policy_allows_name(s->dg.pol, read_as);

	if (target_resolve(own ? "UTF-16" : policy_first(s->dg.pol), own ?
	    strcmp(read_as, "UTF-16LE") == 0 : le, 0, xo, err,
	    sizeof(err)) < 0)
		return refused(r, "%s", err);
	xo->fallback = FB_ERROR;
	xo->same_content = own;
	if (own)
		change(r, "added a %s BOM (read as %s: the first characters "
		    "show the byte order)", strcmp(read_as, "UTF-16LE") == 0 ?
		    "little-endian" : "big-endian", read_as);
	else
		change(r, "transcoded from %s to %s", read_as, xo->to.name);
	return 0;
}

/*
 * Plan the fix of the entity analysed in s (le: --byte-order=le for a
 * UTF-16/UTF-32 target chosen from --allow-encoding); read_as: the byte
 * order of BOM-less UTF-16 that s read as something else, as
 * guess_utf16_layout found it, or NULL.  Return 0 with the target in xo and
 * the changes expected in r (none: the file is left as it is), or -1 with
 * r refused and why.
 */
int
fix_plan(const struct sniff *s, const char *read_as, int le,
    struct xopts *xo, struct fixres *r)
{
	const struct decl *d = &s->decl;
	struct rewrite w;
	int own, old_bom = s->bom != BOM_NONE;

	memset(r, 0, sizeof(*r));
	if (read_as != NULL)
		return plan_utf16(s, read_as, le, xo, r);
	own = policy_allows(s);
	if (unfixable(s, own, r) < 0 || fix_target(s, own, le, xo, r) < 0)
		return -1;
	w.transcoded = !own;
	w.stripped = own && old_bom && !xo->bom;
	w.added_bom = own && !old_bom && xo->bom;
	w.decl_fixed = d->present && d->has_encoding && !xo->keep_decl;
	w.decl_added = xo->need_decl && !(d->present && d->has_encoding);
	if (all_mended(s, xo, &w, r) < 0)
		return -1;
	describe(s, xo, &w, r);
	return 0;
}

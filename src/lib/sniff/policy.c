/*
 * --allow-encoding: the encodings an input may be in (xmlsniff(1),
 * encoding-not-allowed).  Names go through the registry lookup, so that
 * "utf8", "UTF8" and "utf-8" are one encoding; "UTF-16" and "UTF-32"
 * allow either byte order, with or without a BOM.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core.h"

/*
 * Add the comma-separated encodings of list to the set as; lists add up
 * over repeated options.  Return -1 with the reason in err for an
 * unknown or empty name.
 */
int
policy_allow(struct allowset *as, const char *list, char *err,
    size_t errsize)
{
	const char *p = list, *e;
	char name[256];
	struct enc en;

	do {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p || (size_t)(e - p) >= sizeof(name)) {
			snprintf(err, errsize, "\"%.*s\" is not an encoding name",
			    (int)(e - p > 60 ? 60 : e - p), p);
			return -1;
		}
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = '\0';
		if (enc_lookup(name, &en) < 0) {
			snprintf(err, errsize, "\"%s\" is not an encoding that "
			    "the IANA registry or this system's iconv knows",
			    name);
			return -1;
		}
		if (as->n == ALLOW_MAX) {
			snprintf(err, errsize, "more than %d encodings",
			    ALLOW_MAX);
			return -1;
		}
		/* fits: below ALLOW_NAME bytes, and fewer than ALLOW_MAX */
		as->at[as->n++] = (unsigned short)as->used;
		memcpy(as->pool + as->used, en.name, strlen(en.name) + 1);
		as->used += strlen(en.name) + 1;
		p = *e == ',' ? e + 1 : e;
	} while (*e != '\0');
	return 0;
}

/* The set of the input under policy pol, or NULL: any encoding. */
static const struct allowset *
allowed(const struct dpolicy *pol)
{
	return pol != NULL && pol->allow != NULL && pol->allow->n > 0 ?
	    pol->allow : NULL;
}

/* Whether pol has an --allow-encoding list. */
int
policy_active(const struct dpolicy *pol)
{
	return allowed(pol) != NULL;
}

/* The first allowed encoding: the target of --fix. */
const char *
policy_first(const struct dpolicy *pol)
{
	return allowed(pol) != NULL ? ALLOW_NAME_AT(allowed(pol), 0) : NULL;
}

/* Whether a, an allowed name, admits the entity's encoding name n (which
 * carries the byte order of UTF-16 and UTF-32). */
static int
admits(const char *a, const char *n)
{
	if (strcmp(a, "UTF-16") == 0)
		return strncmp(n, "UTF-16", 6) == 0;
	if (strcmp(a, "UTF-32") == 0)
		return strncmp(n, "UTF-32", 6) == 0;
	return strcasecmp(a, n) == 0;
}

/* Whether encoding name n (with the byte order of UTF-16 and UTF-32) is
 * allowed under pol (any, without a list). */
int
policy_allows_name(const struct dpolicy *pol, const char *n)
{
	const struct allowset *cur = allowed(pol);
	int i;

	if (cur == NULL)
		return 1;
	for (i = 0; i < cur->n; i++)
		if (admits(ALLOW_NAME_AT(cur, i), n))
			return 1;
	return 0;
}

/* Whether the entity of s is in an encoding its policy allows (any,
 * without a list).  An entity whose encoding cannot be told is not. */
int
policy_allows(const struct sniff *s)
{
	return !policy_active(s->dg.pol) || (s->have_enc &&
	    policy_allows_name(s->dg.pol, s->encname));
}

/* The longest list of allowed names a message gives whole, and the most
 * of one it gives (then "and N more"): a diagnostic holds 400 bytes, and
 * a short list is given twice, in the list and in the --fix command. */
#define ALLOW_WHOLE	80
#define ALLOW_SHOWN	120

/* The allowed names of as joined by commas into buf (size >= ALLOW_SHOWN
 * + 24): all of them, or as many as ALLOW_SHOWN bytes take and "and N
 * more".  Return whether that is all of them. */
static int
allow_list(const struct allowset *as, char *buf, size_t size)
{
	size_t used = 0, len;
	int k;

	buf[0] = '\0';
	for (k = 0; k < as->n; k++) {
		len = strlen(ALLOW_NAME_AT(as, k));
		if (used + len + 1 > ALLOW_SHOWN && k > 0) {
			snprintf(buf + used, size - used, ", and %d more",
			    as->n - k);
			return 0;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
		    k > 0 ? "," : "", ALLOW_NAME_AT(as, k));
	}
	return used <= ALLOW_WHOLE;
}

/* Add encoding-not-allowed to s when its encoding is not in the list,
 * with the commands that convert it: the --fix command names the list
 * where it is short, else says to give the same. */
void
policy_check(struct sniff *s)
{
	const struct allowset *cur = allowed(s->dg.pol);
	char names[ALLOW_SHOWN + 24];
	int whole;

	if (policy_allows(s))
		return;
	whole = allow_list(cur, names, sizeof(names));
	if (!s->have_enc)
		diag_add(&s->dg, D_ENCODING_NOT_ALLOWED, 0, 1, 1, "the encoding "
		    "cannot be determined, so it is not one of the allowed "
		    "(%s); label it, or convert it by hand", names);
	else if (whole)
		diag_add(&s->dg, D_ENCODING_NOT_ALLOWED, 0, 1, 1, "%s is not "
		    "an allowed encoding (%s); convert it with \"xmlsniff "
		    "--transcode-to=%s --in-place FILE\" or \"xmlsniff --fix "
		    "--allow-encoding=%s FILE\"", s->encname, names,
		    ALLOW_NAME_AT(cur, 0), names);
	else
		diag_add(&s->dg, D_ENCODING_NOT_ALLOWED, 0, 1, 1, "%s is not "
		    "an allowed encoding (%s); convert it with \"xmlsniff "
		    "--transcode-to=%s --in-place FILE\", or with xmlsniff "
		    "--fix and the same --allow-encoding", s->encname, names,
		    ALLOW_NAME_AT(cur, 0));
}

/*
 * The policy of one input (xmlsniff(1), PER-FILE POLICY): its layers,
 * and the one the input brings itself, a comment <!-- xmlsniff: ... -->
 * near its top.  For each code (and for the list of encodings) the
 * highest layer that says anything wins: the options' --ignore, --error
 * and --allow-encoding, then the marker, then the configuration's layer
 * below it (the command line lays the sections of .xmlsniffrc there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* How far into the entity a marker is looked for (bytes of the head). */
#define MARK_SCAN	4096

/*
 * Add "key" = val to layer l, key one of ignore, error, allow-encoding
 * (klen bytes of key); -1 with the reason in err for another key or a
 * bad value, and l as it was.
 */
int
layer_add(struct layer *l, const char *key, size_t klen, const char *val,
    char *err, size_t errsize)
{
	char why[256];
	int rc;

	if (klen == 6 && strncmp(key, "ignore", 6) == 0)
		rc = diag_policy(val, l->code, DP_IGNORE, why, sizeof(why));
	else if (klen == 5 && strncmp(key, "error", 5) == 0)
		rc = diag_policy(val, l->code, DP_ERROR, why, sizeof(why));
	else if (klen == 14 && strncmp(key, "allow-encoding", 14) == 0) {
		struct allowset as = l->allow;

		if ((rc = policy_allow(&as, val, why, sizeof(why))) == 0)
			l->allow = as;
	} else {
		snprintf(err, errsize, "\"%.*s\": only ignore, error and "
		    "allow-encoding set a file's policy",
		    (int)(klen > 40 ? 40 : klen), key);
		return -1;
	}
	if (rc < 0)
		snprintf(err, errsize, "%.*s: %s", (int)klen, key, why);
	return rc;
}

/* Lay l over pol: each code l says something of, and its encodings. */
void
layer_lay(struct dpolicy *pol, const struct layer *l)
{
	uint64_t w, any = 0;
	int i;

	/* Most layers say nothing of any code (the options' and the
	 * configuration's unless asked, and most inputs have no marker),
	 * and this runs three times for each input: the test first, eight
	 * codes a word. */
	for (i = 0; i + 8 <= D_NCODES; i += 8) {
		memcpy(&w, l->code + i, 8);
		any |= w;
	}
	for (; i < D_NCODES; i++)
		any |= l->code[i];
	for (i = 0; any != 0 && i < D_NCODES; i++)
		if (l->code[i] != 0)
			pol->code[i] = l->code[i];
	if (l->allow.n > 0)
		pol->allow = &l->allow;
}

/*
 * The head of the entity as ASCII (at most MARK_SCAN bytes, *len): as it
 * is, in place, or, for UTF-16 (a BOM, or "<" as Appendix F's 3C 00 or
 * 00 3C), into out a byte a unit, with '?' for the units above U+007F.
 * Other encodings are read as ASCII, which is what an ASCII-compatible
 * one needs; in EBCDIC no marker is found.
 */
static const char *
ascii_head(const unsigned char *p, size_t n, char *out, size_t *len)
{
	size_t i, k = 0;
	int le = -1;

	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		p += 3;
		n -= 3;
	} else if (n >= 2 && (p[0] == 0xFF && p[1] == 0xFE)) {
		le = 1;
		p += 2;
		n -= 2;
	} else if (n >= 2 && (p[0] == 0xFE && p[1] == 0xFF)) {
		le = 0;
		p += 2;
		n -= 2;
	} else if (n >= 2 && p[0] == 0x3C && p[1] == 0x00)
		le = 1;
	else if (n >= 2 && p[0] == 0x00 && p[1] == 0x3C)
		le = 0;
	if (le < 0) {
		*len = n < MARK_SCAN ? n : MARK_SCAN;
		return (const char *)p;
	}
	for (i = 0; i + 1 < n && k < MARK_SCAN; i += 2) {
		unsigned u = le ? p[i] | p[i + 1] << 8 : p[i] << 8 | p[i + 1];

		out[k++] = u < 0x80 ? (char)u : '?';
	}
	*len = k;
	return out;
}

/*
 * The items of one marker (the text after "xmlsniff:", len bytes):
 * KEY=VALUE words separated by white space, added to mark.
 */
static int
marker_items(struct layer *mark, const char *t, size_t len, char *err,
    size_t errsize)
{
	char item[512];
	const char *e = t + len, *w, *eq;

	for (;;) {
		while (t < e && strchr(" \t\r\n", *t) != NULL)
			t++;
		if (t == e)
			return 0;
		for (w = t; t < e && strchr(" \t\r\n", *t) == NULL; t++)
			continue;
		if ((size_t)(t - w) >= sizeof(item)) {
			snprintf(err, errsize, "%s", "an item is too long");
			return -1;
		}
		memcpy(item, w, (size_t)(t - w));
		item[t - w] = '\0';
		if ((eq = strchr(item, '=')) == NULL) {
			snprintf(err, errsize, "\"%.60s\" is not KEY=VALUE "
			    "(ignore=, error= or allow-encoding=)", item);
			return -1;
		}
		if (layer_add(mark, item, (size_t)(eq - item), eq + 1, err,
		    errsize) < 0)
			return -1;
	}
}

/* No marker read yet. */
static void
mark_clear(struct layer *mark)
{
	if (mark == NULL)
		return;
	memset(mark->code, 0, sizeof(mark->code));
	mark->allow.n = 0;
	mark->allow.used = 0;
}

/* The comment at p (e: the end of the head) that ends at *end: whether
 * it is closed within the head. */
static int
comment_end(const char *p, const char *e, const char **end)
{
	for (*end = p + 4; *end + 3 <= e && memcmp(*end, "-->", 3) != 0;
	    (*end)++)
		continue;
	return *end + 3 <= e;
}

/*
 * Read the markers of the head h (len bytes, ASCII) into mark: comments
 * whose text begins with "xmlsniff:", before the first tag of an element
 * and after the XML or text declaration, if any (one before it is not
 * read: the declaration must come first).  Return -1 with the reason
 * (and the line) in err for a marker that cannot be read.
 */
static int
marker_scan(struct layer **markp, const char *h, size_t len, char *err,
    size_t errsize)
{
	const char *p = h, *e = h + len, *end, *t;
	char why[256];
	int seen = 0;

	while ((p = memchr(p, '<', (size_t)(e - p))) != NULL &&
	    e - p >= 2) {
		if (p[1] == '?') {
			/* A declaration after a marker: the marker is not
			 * near the top the way XML allows. */
			if (e - p >= 6 && memcmp(p, "<?xml", 5) == 0 &&
			    strchr(" \t\r\n", p[5]) != NULL && seen) {
				mark_clear(*markp);
				seen = 0;
			}
			p += 2;
			continue;
		}
		if (p[1] != '!') {
			if (strchr(" \t\r\n", p[1]) == NULL)
				break;	/* the first tag of an element */
			p++;
			continue;
		}
		if (e - p < 4 || memcmp(p, "<!--", 4) != 0) {
			p += 2;	/* a DOCTYPE and its declarations */
			continue;
		}
		if (!comment_end(p, e, &end))
			break;	/* not closed within the head */
		for (t = p + 4; t < end && strchr(" \t\r\n", *t) != NULL; t++)
			continue;
		if (end - t >= 9 && memcmp(t, "xmlsniff:", 9) == 0) {
			/* The layer is made when a first marker is found:
			 * most inputs have none. */
			if (*markp == NULL) {
				if ((*markp = malloc(sizeof(**markp))) == NULL)
					return -2;
				mark_clear(*markp);
			}
			seen = 1;
			if (marker_items(*markp, t + 9, (size_t)(end - t - 9), why,
			    sizeof(why)) < 0) {
				size_t line = 1;

				for (t = h; t < p; t++)
					line += *t == '\n';
				snprintf(err, errsize, "the marker on line %zu: "
				    "%s", line, why);
				return -1;
			}
		}
		p = end + 3;
	}
	return 0;
}

/*
 * The marker of the entity whose head is p[0..n) into *markp (cleared
 * first; made when the entity has a marker and *markp is NULL, else left
 * NULL).  Return 0; -1 with the reason in err when it cannot be read, -2
 * for want of memory (*markp says nothing then).
 */
int
marker_read(struct layer **markp, const unsigned char *p, size_t n,
    char *err, size_t errsize)
{
	char text[MARK_SCAN];
	const char *h;
	size_t len;
	int rc;

	mark_clear(*markp);
	h = ascii_head(p, n, text, &len);
	if ((rc = marker_scan(markp, h, len, err, errsize)) < 0)
		mark_clear(*markp);
	return rc < 0 ? rc : 0;
}

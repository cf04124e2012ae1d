/*
 * "Did you mean ...?": the nearest of a list of names to a word that is
 * none of them, by edit distance (insertions, deletions, substitutions
 * and the swap of two neighbours, each counting one: the optimal string
 * alignment distance), for a mistyped option, option value or
 * diagnostic code.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

#define SUGGEST_MAX	64	/* longer words are not compared */

static int
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* The optimal string alignment distance between a and b (both shorter
 * than SUGGEST_MAX), in ASCII case-insensitive terms. */
static size_t
distance(const char *a, size_t la, const char *b, size_t lb)
{
	/* Rows i - 2, i - 1 and i of the table, each in turn. */
	size_t r[3][SUGGEST_MAX + 1], *d2 = r[0], *d1 = r[1], *d0 = r[2], *t;
	size_t i, j, v;

	for (j = 0; j <= lb; j++)
		d1[j] = j;
	for (i = 1; i <= la; i++) {
		d0[0] = i;
		for (j = 1; j <= lb; j++) {
			int same = lower(a[i - 1]) == lower(b[j - 1]);

			v = d1[j - 1] + !same;
			if (d1[j] + 1 < v)
				v = d1[j] + 1;
			if (d0[j - 1] + 1 < v)
				v = d0[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d2[j - 2] + 1 < v)
				v = d2[j - 2] + 1;
			d0[j] = v;
		}
		t = d2;
		d2 = d1;
		d1 = d0;
		d0 = t;
	}
	return d1[lb];
}

/*
 * The name of names (n of them, each reached through stride bytes from
 * the last, so that a table of structures whose first member is the name
 * serves too) nearest to word, the first of equals; NULL when none is
 * near: a word of up to 4 characters may be 1 edit away, up to 8
 * characters 2, longer ones 3, and never more than half its length.
 */
const char *
suggest(const char *word, const void *names, size_t n, size_t stride)
{
	const char *best = NULL;
	size_t lw = strlen(word), i, bd = (size_t)-1, lim;

	if (lw == 0 || lw >= SUGGEST_MAX)
		return NULL;
	lim = lw <= 4 ? 1 : lw <= 8 ? 2 : 3;
	if (lim > lw / 2 && lw > 1)
		lim = lw / 2;
	for (i = 0; i < n; i++) {
		const char *name = *(const char *const *)(const void *)
		    ((const char *)names + i * stride);
		size_t ln, dd;

		if (name == NULL || (ln = strlen(name)) >= SUGGEST_MAX)
			continue;
		dd = distance(word, lw, name, ln);
		if (dd <= lim && dd < bd) {
			best = name;
			bd = dd;
		}
	}
	return best;
}

/*
 * The values vals (n of them) as a message lists them, "a, b or c", into
 * list (size bytes); return the one nearest to word, or NULL.
 */
const char *
suggest_list(const char *word, const char *const *vals, size_t n,
    char *list, size_t size)
{
	size_t i, len = 0;

	list[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(list + len, size - len, "%s%s",
		    i == 0 ? "" : i + 1 == n ? " or " : ", ", vals[i]);
	return suggest(word, vals, n, sizeof(vals[0]));
}

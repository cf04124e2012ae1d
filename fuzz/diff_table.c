/*
 * The divergences table of the differential check (fuzz/divergences.tsv):
 * each class of input a parser gets wrong, listed once with the clause
 * that says so, and the conditions on xmlsniff's verdict that pick it
 * out.  diff_check() (fuzz/diff.c) asks it of every divergence it finds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "all.h"
#include "diff_int.h"

/* One row of the divergences table. */
struct row {
	char		 parser[16];
	char		 what;
	char		 code[200];	/* conditions: see cond_holds() */
	char		 enc[64];	/* an xmlsniff encoding name or "*" */
	unsigned long	 used;
};

static struct row *rows;
static size_t nrows;

static int	 conds_eval(const char *, const struct xv *);

const char *const diff_pnames[DP_N] = { "libxml2", "expat" };

/*
 * Load the divergences table: tab-separated parser, what (a, b, c, u),
 * xmlsniff code, encoding, what the parser does, the clause; '#' starts a
 * comment line.  Return 0, or -1 with a message in err.
 */
int
diff_table_load(const char *path, char *err, size_t errsz)
{
	FILE *f;
	char line[1024];
	unsigned long ln = 0;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	free(rows);
	rows = NULL;
	nrows = 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *field[6], *p = line;
		struct row *r;
		struct xv zero;
		int i;

		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		for (i = 0; i < 6 && p != NULL; i++) {
			field[i] = p;
			if ((p = strchr(p, '\t')) != NULL)
				*p++ = '\0';
		}
		if (i < 6 || field[5][0] == '\0' || field[4][0] == '\0' ||
		    strlen(field[1]) != 1 || strchr("abcu", field[1][0]) ==
		    NULL || (strcmp(field[0], diff_pnames[DP_LIBXML2]) != 0 &&
		    strcmp(field[0], diff_pnames[DP_EXPAT]) != 0)) {
			snprintf(err, errsz, "%s:%lu: want parser, a|b|c|u, "
			    "code, encoding, behaviour, clause", path, ln);
			fclose(f);
			return -1;
		}
		if ((r = realloc(rows, (nrows + 1) * sizeof(*rows))) == NULL) {
			snprintf(err, errsz, "%s", strerror(errno));
			fclose(f);
			return -1;
		}
		rows = r;
		memset(&zero, 0, sizeof(zero));
		if (conds_eval(field[2], &zero) < 0) {
			snprintf(err, errsz, "%s:%lu: unknown condition in "
			    "\"%s\"", path, ln, field[2]);
			fclose(f);
			return -1;
		}
		r += nrows++;
		memset(r, 0, sizeof(*r));
		snprintf(r->parser, sizeof(r->parser), "%s", field[0]);
		r->what = field[1][0];
		snprintf(r->code, sizeof(r->code), "%s", field[2]);
		snprintf(r->enc, sizeof(r->enc), "%s", field[3]);
	}
	fclose(f);
	return 0;
}

/*
 * Whether condition c of a table row holds: an xmlsniff error code,
 * "clean" (no error), "*", or a property of the input: "bom", "decl" (a
 * declaration at the start), "charset" (a label came with the bytes),
 * "u16shape" (one of the first two bytes is zero, the other not: a 16-bit
 * layout), "lead-surrogate" (xmlsniff's first bad bytes are a UTF-16 high
 * surrogate), "truncated" (the input ends inside xmlsniff's first bad
 * sequence).  A leading '!' negates.  -1 for a name that is none of
 * these.
 */
static int
cond_holds(const char *c, const struct xv *x)
{
	const struct {
		const char	*name;
		int		 val;
	} props[] = {
		{ "*", 1 },
		{ "clean", !x->errors },
		{ "bom", x->bom },
		{ "decl", x->decl },
		{ "charset", x->charset },
		{ "u16shape", x->u16shape },
		{ "lead-surrogate", x->lead },
		{ "truncated", x->truncated }
	};
	int neg = c[0] == '!';
	size_t i;

	c += neg;
	for (i = 0; i < sizeof(props) / sizeof(props[0]); i++)
		if (strcmp(c, props[i].name) == 0)
			return neg != (props[i].val != 0);
	for (i = 0; i < D_NCODES; i++)
		if (strcmp(c, diag_code(i)) == 0)
			return neg != ((x->codes & 1UL << i) != 0);
	return -1;
}

/* Whether every condition of a comma-separated list holds: 1 or 0, or -1
 * when one is not a known name. */
static int
conds_eval(const char *list, const struct xv *x)
{
	char conds[sizeof(rows->code)], *c, *next;
	int all = 1, r;

	if (snprintf(conds, sizeof(conds), "%s", list) >= (int)sizeof(conds))
		return -1;
	for (c = conds; c != NULL; c = next) {
		if ((next = strchr(c, ',')) != NULL)
			*next++ = '\0';
		if ((r = cond_holds(c, x)) < 0)
			return -1;
		all &= r;
	}
	return all;
}

/* Print the rows of the table that no divergence has matched; return how
 * many. */
size_t
diff_table_unused(FILE *f)
{
	size_t i, n = 0;

	for (i = 0; i < nrows; i++)
		if (rows[i].used == 0) {
			fprintf(f, "diffcheck: unused row: %s %c %s %s\n",
			    rows[i].parser, rows[i].what, rows[i].code,
			    rows[i].enc);
			n++;
		}
	return n;
}

/* Whether a row lists a divergence of parser p: every condition of its
 * list holds and the encoding matches.  The row counts the use. */
int
diff_table_lists(enum diff_parser p, int what, const struct xv *x)
{
	size_t i;

	for (i = 0; i < nrows; i++) {
		struct row *r = &rows[i];

		if (strcmp(r->parser, diff_pnames[p]) == 0 && r->what == what &&
		    (strcmp(r->enc, "*") == 0 || strcasecmp(r->enc, x->enc) ==
		    0) && conds_eval(r->code, x) == 1) {
			r->used++;
			return 1;
		}
	}
	return 0;
}

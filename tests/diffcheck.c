/*
 * The differential check (fuzz/diff.c) over files and over a generated
 * set of documents: every form, BOM, declaration and charset label the
 * fuzz target can build, each around a few texts (non-ASCII where the
 * encoding has it, with a character that is not an XML Char, with two
 * kinds of illegal sequence, and long).
 *
 * usage: diffcheck -t TABLE [-gluv] [-c CHARSET] [FILE ...]
 *
 * -g checks the generated set, -l also the files named on standard input
 * (one a line), -c gives every file the charset label CHARSET.
 * Divergences the table does not list are printed; -v prints the listed
 * ones too, -u the rows of the table that nothing matched.  The last line
 * is the summary.  Exit 0 when every divergence is listed, 1 when one is
 * not, 2 on a usage or input error.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff.h"

static struct diff_counts cnt;
static int verbose;

/* Check one file; return -1 if it cannot be read. */
static int
check_file(const char *path, const char *charset)
{
	FILE *f;
	unsigned char *buf = NULL, *nb;
	size_t n = 0, cap = 0, k;

	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "diffcheck: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (n == cap) {
			cap = cap == 0 ? 65536 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "diffcheck: %s\n",
				    strerror(errno));
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k > 0);
	if (ferror(f)) {
		fprintf(stderr, "diffcheck: %s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	diff_check(buf, n, charset, path, stdout, verbose, &cnt);
	free(buf);
	return 0;
}

/* Raw text bytes in form: the first of the candidates iconv can encode. */
static size_t
text_in(const char *form, unsigned char *out, size_t cap)
{
	static const char *const cand[] = { "\xE6\x97\xA5\xE6\x9C\xAC caf\xC3\xA9",
	    "caf\xC3\xA9 \xE2\x82\xAC", "caf\xC3\xA9 \xC5\x91", "caf\xC3\xA9",
	    "cafe" };
	size_t i;

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		iconv_t cd = iconv_open(form, "UTF-8");
		char *ip = (char *)(uintptr_t)cand[i], *op = (char *)out;
		size_t il = strlen(cand[i]), ol = cap, r;

		if (cd == (iconv_t)-1)
			return 0;
		r = iconv(cd, &ip, &il, &op, &ol);
		iconv_close(cd);
		if (r == 0)
			return cap - ol;
	}
	return 0;
}

/* Append code unit c in the layout of form (by its name). */
static size_t
unit_put(const char *form, uint32_t c, unsigned char *out, size_t n)
{
	int w = strstr(form, "32") != NULL ? 4 : strstr(form, "16") != NULL ?
	    2 : 1, be = strstr(form, "BE") != NULL, i;

	for (i = 0; i < w; i++)
		out[n + (size_t)i] = (unsigned char)(c >> 8 * (be ?
		    w - 1 - i : i));
	return n + (size_t)w;
}

/* Every generated document; each text five ways. */
static void
check_generated(void)
{
	unsigned char text[400], doc[1024];
	struct diff_gen g;
	const char *charset;
	char name[200];
	size_t nl = diff_nlabels(), n, tl, v;

	for (g.form = 0; g.form < diff_nforms(); g.form++) {
		const char *form = diff_form_name(g.form);
		int w = strstr(form, "32") != NULL ? 4 :
		    strstr(form, "16") != NULL ? 2 : 1;

		for (v = 0; v < 5; v++) {
			tl = text_in(form, text, 64);
			if (v == 4)		/* long: past a parser's first
						 * block */
				while (tl * 2 <= sizeof(text) - 8) {
					memcpy(text + tl, text, tl);
					tl *= 2;
				}
			if (v == 1)		/* U+0001: not an XML Char */
				tl = unit_put(form, 1, text, tl);
			else if (v == 2)	/* an illegal sequence */
				tl = unit_put(form, w == 4 ? 0x110000 :
				    w == 2 ? 0xD800 : 0xFF, text, tl);
			else if (v == 3)	/* another one */
				tl = unit_put(form, w == 4 ? 0xD800 :
				    w == 2 ? 0xDC00 : 0x81, text, tl);
			if (v >= 2)		/* not the end of the text */
				tl = unit_put(form, 'x', text, tl);
			g.text = text;
			g.textlen = tl;
			for (g.bom = 0; g.bom < DIFF_NBOMS; g.bom++)
			for (g.decl = 0; g.decl < DIFF_NDECLS; g.decl++)
			for (g.label = 0; g.label < (g.decl == 2 ? nl : 1);
			    g.label++)
			for (g.charset = 0; g.charset <= nl; g.charset++) {
				if ((n = diff_build(&g, doc, sizeof(doc),
				    &charset)) == 0)
					continue;
				snprintf(name, sizeof(name),
				    "gen:%s,bom=%d,decl=%s,charset=%s,text=%zu",
				    form, g.bom, g.decl == 0 ? "none" :
				    g.decl == 1 ? "version" :
				    diff_label(g.label), charset != NULL ?
				    charset : "none", v);
				diff_check(doc, n, charset, name, stdout,
				    verbose, &cnt);
			}
		}
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: diffcheck -t table [-gluv] [-c charset] "
	    "[file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	const char *table = NULL, *charset = NULL;
	char err[300];
	int ch, gen = 0, list = 0, unused = 0, status = 0;

	while ((ch = getopt(argc, argv, "c:glt:uv")) != -1) {
		switch (ch) {
		case 'c':
			charset = optarg;
			break;
		case 'g':
			gen = 1;
			break;
		case 'l':
			list = 1;
			break;
		case 't':
			table = optarg;
			break;
		case 'u':
			unused = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (table == NULL || (!gen && !list && argc == 0))
		usage();
	if (diff_table_load(table, err, sizeof(err)) != 0) {
		fprintf(stderr, "diffcheck: %s\n", err);
		return 2;
	}
	if (gen)
		check_generated();
	for (; argc > 0; argc--, argv++)
		if (check_file(*argv, charset) != 0)
			status = 2;
	if (list) {
		char path[4096];

		while (fgets(path, sizeof(path), stdin) != NULL) {
			path[strcspn(path, "\n")] = '\0';
			if (path[0] != '\0' && check_file(path, charset) != 0)
				status = 2;
		}
	}
	if (unused)
		diff_table_unused(stdout);
	printf("diffcheck: %lu inputs (%lu decoded texts, %lu error offsets "
	    "compared), %lu agree, %lu listed divergences, %lu unlisted\n",
	    cnt.inputs, cnt.texts, cnt.offsets, cnt.agree, cnt.known,
	    cnt.unlisted);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "diffcheck: standard output: %s\n",
		    strerror(errno));
		return 2;
	}
	if (status == 0 && cnt.unlisted > 0)
		status = 1;
	return status;
}

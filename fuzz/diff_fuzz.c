/*
 * xmlsniff against libxml2 and expat (fuzz/diff.c) on generated documents:
 * input FORM BOM DECL CHARSET TEXT..., where FORM picks the encoding the
 * document is written in, BOM the signature (none, the form's own, UTF-8,
 * UTF-16BE, UTF-16LE), DECL the declaration (none, version only, or an
 * encoding label: DECL / 3 picks it), CHARSET a charset label from 0xA0 up
 * (below, none), and TEXT the raw bytes of the root element's content.
 * A divergence that the divergences table does not list aborts.  The
 * table is $DIFF_DIVERGENCES, else divergences.tsv or fuzz/divergences.tsv
 * from the working directory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
load_table(void)
{
	static int done;
	const char *env = getenv("DIFF_DIVERGENCES");
	char err[300];

	if (done)
		return;
	done = 1;
	if (env != NULL ? diff_table_load(env, err, sizeof(err)) == 0 :
	    diff_table_load("divergences.tsv", err, sizeof(err)) == 0 ||
	    diff_table_load("fuzz/divergences.tsv", err, sizeof(err)) == 0)
		return;
	fprintf(stderr, "diff-fuzz: %s\n", err);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char doc[4096];
	struct diff_gen g;
	const char *charset;
	size_t n;

	load_table();
	if (size < 4)
		return 0;
	g.form = data[0] % diff_nforms();
	g.bom = data[1] % DIFF_NBOMS;
	g.decl = data[2] % DIFF_NDECLS;
	g.label = (size_t)(data[2] / DIFF_NDECLS) % diff_nlabels();
	g.charset = data[3] >= 0xA0 ? 1 + (size_t)(data[3] - 0xA0) %
	    diff_nlabels() : 0;
	g.text = data + 4;
	g.textlen = size - 4 > 512 ? 512 : size - 4;
	if ((n = diff_build(&g, doc, sizeof(doc), &charset)) == 0)
		return 0;
	if (diff_check(doc, n, charset, "fuzz.xml", stderr, 0, NULL) > 0)
		abort();
	return 0;
}

/*
 * The unit driver: the diagnostics (diag.c) -- the first occurrence of
 * each code, their order and severities, and --all's list of further
 * occurrences under its cap.
 */
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "unit.h"
#include "kern.h"		/* unit_keep(), unit_pol: --all's cap */

/* diag_add keeps the first occurrence and counts; diag_order sorts. */
static void
test_diag(void)
{
	struct diags dg;
	enum code order[D_NCODES];
	char big[600];
	int n;

	memset(&dg, 0, sizeof(dg));
	CHECK(diag_order(&dg, order) == 0);

	diag_add(&dg, D_ILLEGAL_CHAR, 10, 2, 3, "first %d", 1);
	diag_add(&dg, D_ILLEGAL_CHAR, 5, 1, 6, "second %d", 2);
	diag_add(&dg, D_ILLEGAL_CHAR, 20, 4, 1, "third");
	CHECK(dg.d[D_ILLEGAL_CHAR].count == 3);
	CHECK(dg.d[D_ILLEGAL_CHAR].off == 10);
	CHECK(dg.d[D_ILLEGAL_CHAR].line == 2);
	CHECK(dg.d[D_ILLEGAL_CHAR].col == 3);
	CHECK(strcmp(dg.d[D_ILLEGAL_CHAR].msg, "first 1") == 0);
	CHECK(dg.errors == 1 && dg.warnings == 0);

	diag_add(&dg, D_UTF8_BOM, 0, 1, 1, "bom");
	diag_add(&dg, D_DECL_MISMATCH, 10, 2, 3, "mismatch");
	diag_add(&dg, D_SUSPICIOUS_LABEL, 3, 1, 4, "hint");
	diag_add(&dg, D_SUSPICIOUS_LABEL, 0, 1, 1, "hint again");
	CHECK(dg.errors == 2 && dg.warnings == 2);
	CHECK(dg.d[D_SUSPICIOUS_LABEL].count == 2);
	CHECK(dg.d[D_SUSPICIOUS_LABEL].off == 3);
	CHECK(dg.nseq == 4);

	/* By offset, then by the order found. */
	n = diag_order(&dg, order);
	CHECK(n == 4);
	CHECK(order[0] == D_UTF8_BOM);
	CHECK(order[1] == D_SUSPICIOUS_LABEL);
	CHECK(order[2] == D_ILLEGAL_CHAR);
	CHECK(order[3] == D_DECL_MISMATCH);

	/* Same offset: the one found first comes first, whatever its code. */
	memset(&dg, 0, sizeof(dg));
	diag_add(&dg, D_UTF32, 0, 1, 1, "a");
	diag_add(&dg, D_BOM_MISSING, 0, 1, 1, "b");
	diag_add(&dg, D_DECL_MISMATCH, 0, 1, 1, "c");
	n = diag_order(&dg, order);
	CHECK(n == 3 && order[0] == D_UTF32 && order[1] == D_BOM_MISSING &&
	    order[2] == D_DECL_MISMATCH);

	/* A long message is cut, not overflowed. */
	memset(&dg, 0, sizeof(dg));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	diag_add(&dg, D_BAD_DECLARATION, 0, 1, 1, "%s", big);
	CHECK(strlen(dg.d[D_BAD_DECLARATION].msg) ==
	    sizeof(dg.d[0].msg) - 1);

	CHECK(strcmp(diag_code(D_DECL_MISMATCH), "decl-mismatch") == 0);
	CHECK(strcmp(diag_code(D_BOM_CHARSET_CONFLICT),
	    "bom-charset-conflict") == 0);
	CHECK(strcmp(diag_code(D_BOM_FORBIDDEN), "bom-forbidden") == 0);
	CHECK(strcmp(diag_code(D_BOM_MISSING), "bom-missing") == 0);
	CHECK(strcmp(diag_code(D_BAD_DECLARATION), "bad-declaration") == 0);
	CHECK(strcmp(diag_code(D_DECL_NOT_AT_START), "decl-not-at-start") == 0);
	CHECK(strcmp(diag_code(D_ILLEGAL_SEQUENCE), "illegal-sequence") == 0);
	CHECK(strcmp(diag_code(D_ILLEGAL_CHAR), "illegal-char") == 0);
	CHECK(strcmp(diag_code(D_UNSUPPORTED_ENCODING),
	    "unsupported-encoding") == 0);
	CHECK(strcmp(diag_code(D_NO_DECLARATION), "no-declaration") == 0);
	CHECK(strcmp(diag_code(D_CHARSET_DECL_CONFLICT),
	    "charset-decl-conflict") == 0);
	CHECK(strcmp(diag_code(D_UTF8_BOM), "utf8-bom") == 0);
	CHECK(strcmp(diag_code(D_UTF32), "utf32") == 0);
	CHECK(strcmp(diag_code(D_MISSING_DECL), "missing-decl") == 0);
	CHECK(strcmp(diag_code(D_UNREGISTERED_NAME), "unregistered-name") == 0);
	CHECK(strcmp(diag_code(D_NOT_XML_MEDIA_TYPE),
	    "not-xml-media-type") == 0);
	CHECK(strcmp(diag_code(D_SUSPICIOUS_LABEL), "suspicious-label") == 0);
	/* DIAGNOSTICS in xmlsniff(1): the severities. */
	CHECK(diag_error_in(NULL, D_DECL_MISMATCH) && diag_error_in(NULL, D_BOM_FORBIDDEN) &&
	    diag_error_in(NULL, D_BOM_CHARSET_CONFLICT) &&
	    diag_error_in(NULL, D_BOM_MISSING) && diag_error_in(NULL, D_BAD_DECLARATION) &&
	    diag_error_in(NULL, D_DECL_NOT_AT_START) &&
	    diag_error_in(NULL, D_ILLEGAL_SEQUENCE) && diag_error_in(NULL, D_ILLEGAL_CHAR) &&
	    diag_error_in(NULL, D_UNSUPPORTED_ENCODING) &&
	    diag_error_in(NULL, D_NO_DECLARATION));
	CHECK(!diag_error_in(NULL, D_CHARSET_DECL_CONFLICT) &&
	    !diag_error_in(NULL, D_UTF8_BOM) && !diag_error_in(NULL, D_UTF32) &&
	    !diag_error_in(NULL, D_MISSING_DECL) &&
	    !diag_error_in(NULL, D_UNREGISTERED_NAME) &&
	    !diag_error_in(NULL, D_NOT_XML_MEDIA_TYPE) &&
	    !diag_error_in(NULL, D_SUSPICIOUS_LABEL));
}

/* --all: further occurrences listed in offset order up to the cap,
 * merged with the first ones; diag_repeat lists a run. */
static void
test_diag_all(void)
{
	struct diags dg;
	struct diter it;
	struct dent e;
	int n = 0;

	memset(&dg, 0, sizeof(dg));
	dg.pol = &unit_pol;
	unit_keep(5, 1);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 3, 1, 4, "s%d", 1);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 9, 1, 10, "s%d", 2);
	diag_add(&dg, D_ILLEGAL_CHAR, 5, 1, 6, "c%d", 1);
	diag_repeat(&dg, D_ILLEGAL_CHAR, 2);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 12, 2, 1, "s%d", 3);
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 13, 2, 2, "s%d", 4);
	CHECK(dg.d[D_ILLEGAL_SEQUENCE].count == 4);
	CHECK(dg.d[D_ILLEGAL_CHAR].count == 3);
	CHECK(dg.errors == 2);
	CHECK(dg.nocc == 3 && dg.unlisted == 2);
	diag_iter(&it, &dg);
	while (diag_next(&it, &e)) {
		switch (n++) {
		case 0:
			CHECK(e.code == D_ILLEGAL_SEQUENCE && e.off == 3 &&
			    e.count == 4 && strcmp(e.msg, "s1") == 0);
			break;
		case 1:
			CHECK(e.code == D_ILLEGAL_CHAR && e.off == 5 &&
			    e.col == 6 && e.count == 3);
			break;
		case 2:
			CHECK(e.code == D_ILLEGAL_CHAR && e.off == 6 &&
			    e.col == 7 && e.count == 0 &&
			    strcmp(e.msg, "c1") == 0);
			break;
		case 3:
			CHECK(e.code == D_ILLEGAL_CHAR && e.off == 7 &&
			    e.col == 8);
			break;
		default:
			CHECK(e.code == D_ILLEGAL_SEQUENCE && e.off == 9 &&
			    e.count == 0 && strcmp(e.msg, "s2") == 0);
			break;
		}
	}
	CHECK(n == 5);
	diag_free(&dg);
	CHECK(dg.occ == NULL && dg.nocc == 0 && dg.unlisted == 0);

	/* At the cap, a new code's first takes the last further one's
	 * place: the list stays at the cap. */
	unit_keep(2, 1);
	memset(&dg, 0, sizeof(dg));
	dg.pol = &unit_pol;
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 3, 1, 4, "s");
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 4, 1, 5, "s");
	diag_add(&dg, D_ILLEGAL_SEQUENCE, 5, 1, 6, "s");
	CHECK(dg.nocc == 1 && dg.unlisted == 1);
	diag_add(&dg, D_ILLEGAL_CHAR, 6, 1, 7, "c");
	CHECK(dg.nocc == 0 && dg.unlisted == 2 && dg.errors == 2);
	diag_add(&dg, D_BAD_DECLARATION, 7, 1, 8, "d");
	CHECK(dg.nocc == 0 && dg.unlisted == 2 && dg.errors == 3);
	diag_free(&dg);

	/* Without --all nothing is kept past the first. */
	unit_keep(0, 0);
	memset(&dg, 0, sizeof(dg));
	dg.pol = &unit_pol;
	diag_add(&dg, D_ILLEGAL_CHAR, 5, 1, 6, "c");
	diag_repeat(&dg, D_ILLEGAL_CHAR, 7);
	diag_add(&dg, D_ILLEGAL_CHAR, 50, 1, 60, "c");
	CHECK(dg.d[D_ILLEGAL_CHAR].count == 9);
	CHECK(dg.occ == NULL && dg.nocc == 0 && dg.unlisted == 0);
}

/* diag_lookup: each code by the table's own string (found by its
 * address) and by a copy of it (found by its text); other names not. */
static void
test_diag_lookup(void)
{
	char copy[64];
	int c;

	for (c = 0; c < D_NCODES; c++) {
		CHECK(diag_lookup(diag_code((enum code)c)) == c);
		snprintf(copy, sizeof(copy), "%s", diag_code((enum code)c));
		CHECK(diag_lookup(copy) == c);
		/* one letter short, and one more */
		copy[strlen(copy) - 1] = '\0';
		CHECK(diag_lookup(copy) == -1);
		snprintf(copy, sizeof(copy), "%sx", diag_code((enum code)c));
		CHECK(diag_lookup(copy) == -1);
	}
	CHECK(diag_lookup("") == -1);
	CHECK(diag_lookup("no-such-code") == -1);
}

void
unit_diag(void)
{
	test_diag_lookup();
	test_diag();
	test_diag_all();
}

/*
 * The sniffing core and the validator on any bytes, with an optional
 * charset: input "\x01" CHARSET "\0" BYTES gives --content-type
 * "application/xml; charset=CHARSET".  The whole report of the library's
 * result for the same bytes and options is written (to /dev/null), so
 * the output code sees every result too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mojibake.h"
#include "all.h"
#include "xmlsniff.h"
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The command line's report of the library's result for the bytes, with
 * the content type ct (or none), in every format: the messages carry
 * entity bytes. */
static void
report_all(const uint8_t *data, size_t size, const char *ct)
{
	static const enum fmt line[] = { FMT_JSON, FMT_TEXT, FMT_MIME };
	static const enum fmt diag[] = { FMT_TEXT, FMT_GITHUB, FMT_SARIF,
	    FMT_GITLAB, FMT_CHECKSTYLE };
	xmlsniff_options *o = xmlsniff_options_new();
	xmlsniff_result *r = NULL;
	size_t i;

	if (o == NULL)
		return;
	if ((ct == NULL ||
	    xmlsniff_options_set(o, "content-type", ct) == XMLSNIFF_OK) &&
	    xmlsniff_check_buffer(o, "fuzz.xml", data, size, &r, NULL, 0) ==
	    XMLSNIFF_OK) {
		for (i = 0; i < sizeof(line) / sizeof(line[0]); i++)
			report_line("fuzz.xml", r, line[i], 0);
		for (i = 0; i < sizeof(diag) / sizeof(diag[0]); i++)
			report_diags("fuzz.xml", r, diag[i]);
	}
	xmlsniff_result_free(r);
	xmlsniff_options_free(o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sniff s;
	struct mt mt, *mtp = NULL;
	char ct[200], err[256];
	struct val *v;

	fuzz_quiet();
	if (size > 0 && data[0] == 1) {
		const uint8_t *z = memchr(data + 1, 0, size - 1);
		size_t k = z != NULL ? (size_t)(z - data - 1) : 0;

		if (z != NULL && k < 100) {
			snprintf(ct, sizeof(ct), "application/xml; charset=%.*s",
			    (int)k, (const char *)data + 1);
			if (mt_parse(ct, &mt, err, sizeof(err)) == 0)
				mtp = &mt;
			data += k + 2;
			size -= k + 2;
		}
	}
	sniff(data, size, 1, mtp, "fuzz.xml", &s);
	if ((v = val_new(&s, &s.dg)) != NULL) {
		/* Fed in two pieces, as reads would cut it. */
		size_t half = size / 2, used = val_feed(v, data, half, 0), i;
		static struct moj mj, mj1;
		static struct diags d1;

		val_feed(v, data + used, size - used, 1);
		val_free(v);
		/* The mojibake scan as main.c runs it, and a byte at a time:
		 * the same answer. */
		moj_init(&mj, &s, -1, 0);
		moj_feed(&mj, data, used);
		moj_feed(&mj, data + used, size - used);
		moj_init(&mj1, &s, -1, 0);
		for (i = 0; i < size; i++)
			moj_feed(&mj1, data + i, 1);
		memset(&d1, 0, sizeof(d1));
		moj_end(&mj1, &d1);
		moj_end(&mj, &s.dg);
		/* A code's members but its count mean something only while
		 * the count is above 0 (diag_clear leaves them). */
		if (d1.d[D_MOJIBAKE].count != s.dg.d[D_MOJIBAKE].count ||
		    (d1.d[D_MOJIBAKE].count > 0 &&
		    (d1.d[D_MOJIBAKE].off != s.dg.d[D_MOJIBAKE].off ||
		    d1.d[D_MOJIBAKE].line != s.dg.d[D_MOJIBAKE].line ||
		    d1.d[D_MOJIBAKE].col != s.dg.d[D_MOJIBAKE].col ||
		    strcmp(d1.d[D_MOJIBAKE].msg, s.dg.d[D_MOJIBAKE].msg) != 0)))
			abort();
	}
	report_all(data, size, mtp != NULL ? ct : NULL);
	return 0;
}

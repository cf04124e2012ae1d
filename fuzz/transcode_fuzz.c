/*
 * The transcoder as a round-trip property: valid UTF-8 (with no
 * declaration, a declaration without encoding, or one declaring UTF-8)
 * transcoded to X and back to UTF-8 gives back the same characters after
 * the BOM and declaration, whenever X can represent them; every
 * intermediate output is labelled so that xmlsniff finds no error in it;
 * and the run paths (native conversions, iconv in blocks, tables) write
 * what the character-at-a-time path writes.  Whatever xmlsniff writes it
 * reads back clean: in the target's own encoding, with no error and no
 * doubt about the BOM (issue 29: FE FF 03 00 is U+0300, not a
 * contradicted BOM), and transcoding it to the same target again writes
 * the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "xmlsniff.h"
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What the transcoder writes, gathered. */
struct sink {
	unsigned char	*p;
	size_t		 n, cap;
};

static int
gather(void *arg, const void *p, size_t n)
{
	struct sink *k = arg;

	if (k->n + n + 1 > k->cap) {
		k->cap = (k->n + n + 1) * 2;
		if ((k->p = realloc(k->p, k->cap)) == NULL)
			abort();
	}
	if (n > 0)
		memcpy(k->p + k->n, p, n);
	k->n += n;
	return 0;
}

/* Transcode in[0..n) to target through the library's transcoder, the
 * entity in one feed, into a fresh buffer (*out, *outn); return 0 when it
 * was written, 1 when it was refused, 2 for any other status. */
static int
run(const unsigned char *in, size_t n, const char *target, unsigned char **out,
    size_t *outn)
{
	struct sink k = { NULL, 0, 0 };
	xmlsniff_options *o = xmlsniff_options_new();
	xmlsniff_transcoder *t;
	xmlsniff_result *r = NULL;
	int st;

	/* The entity's own policy comment is another target's concern
	 * (api-fuzz): a bad one is no transcode property. */
	if (o == NULL || xmlsniff_options_set(o, "marker", "no") !=
	    XMLSNIFF_OK ||
	    (t = xmlsniff_transcoder_new(o, "fuzz", target, gather, &k)) ==
	    NULL)
		abort();
	st = xmlsniff_transcoder_feed(t, in, n);
	if (st == XMLSNIFF_OK)
		st = xmlsniff_transcoder_finish(t, &r);
	xmlsniff_result_free(r);
	xmlsniff_transcoder_free(t);
	xmlsniff_options_free(o);
	gather(&k, NULL, 0);	/* a buffer even when nothing was written */
	*out = k.p;
	*outn = k.n;
	return st == XMLSNIFF_OK ? 0 : st == XMLSNIFF_ERR_REFUSED ? 1 : 2;
}

/* Where the characters after the BOM and declaration begin; the number of
 * errors xmlsniff finds in the entity goes to *errors (and 1 more when it
 * is not read as UTF-8, which the comparison needs). */
static size_t
body(const unsigned char *p, size_t n, int *errors)
{
	static struct sniff s;
	struct val *v;

	sniff(p, n, 1, NULL, NULL, &s);
	if ((v = val_new(&s, &s.dg)) != NULL) {
		val_feed(v, p, n, 1);
		val_free(v);
	}
	*errors = s.dg.errors + (s.dec != FORM_UTF8);
	return s.decl.present ? s.decl.end : s.bomlen;
}

/* Whether xmlsniff reads p[0..n), which it wrote in target, back as
 * clean: in an encoding the target's name allows, with no error, its
 * BOM (if any) in no doubt. */
static int
read_back_clean(const unsigned char *p, size_t n, const char *target)
{
	static struct sniff s;
	struct enc te;
	struct val *v;

	sniff(p, n, 1, NULL, NULL, &s);
	if ((v = val_new(&s, &s.dg)) != NULL) {
		val_feed(v, p, n, 1);
		val_free(v);
	}
	enc_lookup(target, &te);
	return s.dg.errors == 0 && !s.doubt && s.have_enc &&
	    enc_compatible(&te, &s.enc);
}

/* The same status, and the same bytes when it succeeds, with every
 * character passed alone (val_char_only). */
static void
like_ref(const unsigned char *in, size_t n, const char *target, int rc,
    const unsigned char *out, size_t outn)
{
	unsigned char *ref = NULL;
	size_t refn;
	int rrc;

	val_char_only = 1;
	rrc = run(in, n, target, &ref, &refn);
	val_char_only = 0;
	if (rrc != rc || (rc == 0 && (refn != outn ||
	    memcmp(ref, out, outn) != 0)))
		__builtin_trap();
	free(ref);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const prefix[] = {
		"", "<?xml version=\"1.0\"?>",
		"<?xml version='1.0' encoding='UTF-8'?>"
	};
	static const char *const targets[] = {
		"UTF-16", "UTF-16LE", "UTF-16BE", "UTF-32", "UTF-32LE",
		"ISO-8859-1", "Shift_JIS", "IBM037", "UTF-8", "EUC-JP",
		"ISO-2022-JP", "windows-1252"
	};
	unsigned char *in, *mid = NULL, *back = NULL;
	size_t n, midn, backn, b0, b2;
	const char *target;
	int e, rc;

	fuzz_quiet();
	if (size < 1 || size > 8192)
		return 0;
	target = targets[(data[0] / 3) % 12];
	n = strlen(prefix[data[0] % 3]) + size - 1;
	in = malloc(n);
	memcpy(in, prefix[data[0] % 3], n - (size - 1));
	memcpy(in + n - (size - 1), data + 1, size - 1);
	b0 = body(in, n, &e);
	if (e > 0)
		goto out;
	val_char_only = 0;
	rc = run(in, n, target, &mid, &midn);
	if (rc == 2)
		__builtin_trap();
	like_ref(in, n, target, rc, mid, midn);
	if (rc == 1) {
		/* Only a target without the character may refuse. */
		if (strncmp(target, "UTF-", 4) == 0)
			__builtin_trap();
		goto out;
	}
	body(mid, midn, &e);
	if (e > (strcmp(target, "UTF-8") != 0) ||
	    !read_back_clean(mid, midn, target))
		__builtin_trap();
	/* Written again in the same target: the same bytes. */
	if (run(mid, midn, target, &back, &backn) != 0 || backn != midn ||
	    memcmp(back, mid, midn) != 0)
		__builtin_trap();
	free(back);
	back = NULL;
	if (run(mid, midn, "UTF-8", &back, &backn) != 0)
		__builtin_trap();
	like_ref(mid, midn, "UTF-8", 0, back, backn);
	b2 = body(back, backn, &e);
	if (e > 0 || backn - b2 != n - b0 || memcmp(back + b2, in + b0, n - b0))
		__builtin_trap();
out:
	free(in);
	free(mid);
	free(back);
	return 0;
}

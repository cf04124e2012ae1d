/*
 * The unit driver: validation fed in pieces (validate.c, val_feed) gives
 * what the whole buffer gives, in every encoding form and split at every
 * place.
 */
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "unit.h"

/* What the sink saw: a count and a running hash of characters and
 * positions. */
struct seen {
	uint64_t	 n;
	uint64_t	 h;
};

static void
sink(void *ctx, uint32_t c, uint64_t off, uint64_t line, uint64_t col)
{
	struct seen *s = ctx;

	s->n++;
	s->h = (s->h ^ c) * 1099511628211ULL;
	s->h = (s->h ^ off) * 1099511628211ULL;
	s->h = (s->h ^ line) * 1099511628211ULL;
	s->h = (s->h ^ col) * 1099511628211ULL;
}

/*
 * Validate p[0..n) as main.c does: the bytes arrive up to each of the cuts
 * in turn (then to n, with eof), and what val_feed leaves unconsumed is
 * passed again with what follows.  Return 0 if the feeding itself went
 * wrong (bytes left over at the end).
 */
static int
feed(const struct sniff *s, const unsigned char *p, size_t n,
    const size_t *cuts, size_t ncuts, struct diags *dg, struct seen *seen)
{
	struct val *v;
	size_t off = 0, have, i;

	memset(dg, 0, sizeof(*dg));
	if ((v = val_new(s, dg)) == NULL)
		return 0;
	if (seen != NULL) {
		memset(seen, 0, sizeof(*seen));
		val_set_sink(v, sink, NULL, NULL, seen);
	}
	for (i = 0; i <= ncuts; i++) {
		have = i < ncuts ? cuts[i] : n;
		off += val_feed(v, p + off, have - off, i == ncuts);
		if (off > have)
			break;
	}
	val_free(v);
	return off == n;
}

/* Whether two runs found the same diagnostics. */
static int
same_diags(const struct diags *a, const struct diags *b)
{
	int i;

	if (a->errors != b->errors || a->warnings != b->warnings)
		return 0;
	for (i = 0; i < D_NCODES; i++) {
		const struct diag *x = &a->d[i], *y = &b->d[i];

		if (x->count != y->count || x->off != y->off ||
		    x->line != y->line || x->col != y->col ||
		    strcmp(x->msg, y->msg) != 0)
			return 0;
	}
	return 1;
}

static void
show_diags(const char *what, const struct diags *dg)
{
	int i;

	for (i = 0; i < D_NCODES; i++)
		if (dg->d[i].count > 0)
			printf("  %s: %s off %llu line %llu col %llu count %llu: "
			    "%s\n", what, diag_code((enum code)i),
			    (unsigned long long)dg->d[i].off,
			    (unsigned long long)dg->d[i].line,
			    (unsigned long long)dg->d[i].col,
			    (unsigned long long)dg->d[i].count, dg->d[i].msg);
}

/* Whether this iconv finds the bytes in (a C string) illegal in name; also
 * when it cannot open name at all. */
static int
rejects(const char *name, const char *in)
{
	iconv_t cd = iconv_open(enc_u32le(), name);
	char out[64], *ip = (char *)in, *op = out;
	size_t il = strlen(in), ol = sizeof(out), r;

	if (cd == (iconv_t)-1)
		return 1;
	r = iconv(cd, &ip, &il, &op, &ol);
	iconv_close(cd);
	return r == (size_t)-1;
}

/* The expected first occurrence of one code. */
struct want {
	enum code	 code;
	uint64_t	 off, line, col, count;
};

/*
 * Sniff p[0..n) (it must be read with encname), validate it whole, check
 * the diagnostics against want[], then feed it split in two at every
 * position, and in chunks of 1 to 7 bytes, and with and without a sink:
 * the diagnostics must be the same every time.
 */
static void
stream_case(const char *label, const unsigned char *p, size_t n,
    const char *encname, const struct want *want, size_t nwant)
{
	struct sniff *s = calloc(1, sizeof(*s));
	struct diags whole, part;
	struct seen seen_whole, seen_part;
	size_t *cuts = calloc(n + 1, sizeof(*cuts));
	size_t i, k, chunk, nc;
	int ok = 1, e = 0, w = 0;

	if (!CHECK(s != NULL && cuts != NULL))
		return;
	sniff(p, n, 1, NULL, NULL, s);
	if (!CHECK(strcmp(s->encname, encname) == 0))
		printf("  (%s: read as %s)\n", label, s->encname);

	/* The whole buffer, once: the expected diagnostics. */
	CHECK(feed(s, p, n, NULL, 0, &whole, NULL));
	for (i = 0; i < nwant; i++) {
		const struct diag *g = &whole.d[want[i].code];

		ok &= CHECK(g->count == want[i].count);
		ok &= CHECK(g->off == want[i].off);
		ok &= CHECK(g->line == want[i].line);
		ok &= CHECK(g->col == want[i].col);
		if (diag_error_in(NULL, want[i].code))
			e++;
		else
			w++;
	}
	ok &= CHECK(whole.errors == e && whole.warnings == w);
	if (!ok) {
		printf("  (%s: the whole buffer)\n", label);
		show_diags("got", &whole);
	}

	/* Two pieces, split at every position. */
	for (k = 0; k <= n; k++) {
		cuts[0] = k;
		if ((CHECK(feed(s, p, n, cuts, 1, &part, NULL)) &
		    CHECK(same_diags(&whole, &part))) == 0) {
			printf("  (%s: split at %zu)\n", label, k);
			show_diags("whole", &whole);
			show_diags("split", &part);
			break;
		}
	}
	/* Three pieces, every pair of positions. */
	for (k = 1; k < n; k++)
		for (i = k; i < n && i < k + 6; i++) {
			cuts[0] = k;
			cuts[1] = i;
			if ((CHECK(feed(s, p, n, cuts, 2, &part, NULL)) &
			    CHECK(same_diags(&whole, &part))) == 0) {
				printf("  (%s: split at %zu and %zu)\n", label,
				    k, i);
				show_diags("whole", &whole);
				show_diags("split", &part);
				k = n;
				break;
			}
		}
	/* Fixed chunks, as a reader of short reads would deliver them. */
	for (chunk = 1; chunk <= 7; chunk++) {
		for (nc = 0; (nc + 1) * chunk < n; nc++)
			cuts[nc] = (nc + 1) * chunk;
		if ((CHECK(feed(s, p, n, cuts, nc, &part, NULL)) &
		    CHECK(same_diags(&whole, &part))) == 0) {
			printf("  (%s: chunks of %zu)\n", label, chunk);
			show_diags("whole", &whole);
			show_diags("chunks", &part);
		}
	}
	/* With a sink (no fast path): the same diagnostics, and the same
	 * characters at the same places whole or byte by byte. */
	CHECK(feed(s, p, n, NULL, 0, &part, &seen_whole));
	if (!CHECK(same_diags(&whole, &part)))
		printf("  (%s: with a sink)\n", label);
	for (nc = 0; nc + 1 < n; nc++)
		cuts[nc] = nc + 1;
	CHECK(feed(s, p, n, cuts, nc, &part, &seen_part));
	if ((CHECK(same_diags(&whole, &part)) & CHECK(seen_whole.n ==
	    seen_part.n && seen_whole.h == seen_part.h)) == 0)
		printf("  (%s: byte by byte with a sink)\n", label);
	free(cuts);
	free(s);
}

/*
 * Validation (XML 1.0 section 2.2) and transcoding read in blocks
 * (xmlsniff(1), TRANSCODING): streaming gives what the whole buffer
 * gives.  Each entity below holds its errors where a split can cut
 * them, the offsets of its comments those of the bytes; the three
 * here are read by the test of the messages as well.
 */
static const unsigned char ent_utf8[] =
    "<a>0123456789"		/* 0-12 */
    "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"	/* 13-21 */
    "\r\n"			/* 22-23 */
    "\xE0\x80" "x"		/* 24-26: 2 bad, col 1-3 */
    "\xED\xA0\x80"		/* 27-29: 3 bad, col 4-6 */
    "\x01" "\n"			/* 30: illegal-char, line 2 col 7 */
    "\xF4\x90\x80\x80"		/* 32-35: 4 bad */
    "\xC3" "A"			/* 36-37: 1 bad */
    "\xEF\xBF\xBE"		/* 38: U+FFFE */
    " abcdefghijklmnopqrstuvwxyz</a>"
    "\xE2\x82";			/* truncated: 1 bad */
static const unsigned char ent_utf16be[] =
    "\xFE\xFF" "\0<\0a\0>"
    "\xD8\x3D\xDE\x00"		/* 8 */
    "\xDE\x00"			/* 12: lone low, col 5 */
    "\0\n"			/* 14 */
    "\xD8\x3D"			/* 16: truncated pair at the end */
    ;
#define LATIN1_DECL "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
/* UTF-8 text labelled ISO-8859-1, with no C1 byte in it. */
static const unsigned char ent_latin1u8[] = LATIN1_DECL
    "\ncaf\xC3\xA9 "		/* h+4: the first UTF-8 sequence */
    "\xEF\xBF\xBD "		/* h+7 */
    "\xF0\xA0\xA0\xA0 "		/* h+11 */
    "x\x01";			/* h+17: col 17 */

/* The UTF forms: bad sequences, lone and truncated surrogates, and
 * characters that are not Char. */
static void
test_streaming_utf(void)
{
	static const struct want w_utf8[] = {
		{ D_ILLEGAL_SEQUENCE, 24, 2, 1, 11 },
		{ D_ILLEGAL_CHAR, 30, 2, 7, 2 },
	};
	static const unsigned char utf16le[] =
	    "\xFF\xFE"			/* 0 */
	    "<\0a\0>\0\xE9\0"		/* 2-9 */
	    "\x3D\xD8\x00\xDE"		/* 10: U+1F600 */
	    "\r\0\n\0"			/* 14-17 */
	    "\x00\xDC"			/* 18: lone low, line 2 col 1 */
	    "b\0"			/* 20 */
	    "\x00\xD8" "A\0"		/* 22: high then "A" */
	    "\xFE\xFF"			/* 26: U+FFFE, line 2 col 5 */
	    "\x01\0"			/* 28: U+0001 */
	    "c\0"			/* 30 */
	    "A";			/* 32: odd final byte */
	static const struct want w_utf16le[] = {
		{ D_ILLEGAL_SEQUENCE, 18, 2, 1, 3 },
		{ D_ILLEGAL_CHAR, 26, 2, 5, 2 },
	};
	static const struct want w_utf16be[] = {
		{ D_ILLEGAL_SEQUENCE, 12, 1, 5, 2 },
	};
	static const unsigned char utf32be[] =
	    "\0\0\xFE\xFF"		/* 0 */
	    "\0\0\0<\0\0\0a"		/* 4, 8 */
	    "\0\x10\xFF\xFF"		/* 12: U+10FFFF */
	    "\0\0\0\n"			/* 16 */
	    "\0\x11\0\0"		/* 20: bad, line 2 col 1 */
	    "\0\0\xD8\0"		/* 24: bad, col 2 */
	    "\0\0\0\x01"		/* 28: U+0001, col 3 */
	    "\0\0\xE0\0"		/* 32 */
	    "\0\0\xFF\xFF"		/* 36: U+FFFF */
	    "\0\0\0b"			/* 40 */
	    "\0\0";			/* 44: truncated */
	static const struct want w_utf32be[] = {
		{ D_ILLEGAL_SEQUENCE, 20, 2, 1, 3 },
		{ D_ILLEGAL_CHAR, 28, 2, 3, 2 },
	};
	static const unsigned char utf32le[] =
	    "\xFF\xFE\0\0" "<\0\0\0" "\0\xD8\0\0" "\0\0\0\0" "a\0\0";
	static const struct want w_utf32le[] = {
		{ D_ILLEGAL_SEQUENCE, 8, 1, 2, 2 },
		{ D_ILLEGAL_CHAR, 12, 1, 3, 1 },
	};

	stream_case("UTF-8", B(ent_utf8), "UTF-8", w_utf8, NELEM(w_utf8));
	stream_case("UTF-16LE", B(utf16le), "UTF-16LE", w_utf16le,
	    NELEM(w_utf16le));
	stream_case("UTF-16BE", B(ent_utf16be), "UTF-16BE", w_utf16be,
	    NELEM(w_utf16be));
	stream_case("UTF-32BE", B(utf32be), "UTF-32BE", w_utf32be,
	    NELEM(w_utf32be));
	stream_case("UTF-32LE", B(utf32le), "UTF-32LE", w_utf32le,
	    NELEM(w_utf32le));
}

/* Encodings by their label (ISO-8859-1, Shift_JIS read through iconv),
 * XML 1.1's line ends, and a clean entity. */
static void
test_streaming_labelled(void)
{
	static const unsigned char latin1[] = LATIN1_DECL
	    "\ncaf\xE9 "		/* h .. h+5 */
	    "\x85"			/* h+6: C1, line 2 col 6 */
	    "\x01"			/* h+7: not a Char, col 7 */
	    "\x9F"			/* h+8: C1 again */
	    "\r\nx\x00";		/* h+12: NUL */
	const size_t h = sizeof(LATIN1_DECL) - 1;
	const struct want w_latin1[] = {
		{ D_SUSPICIOUS_LABEL, h + 6, 2, 6, 2 },
		{ D_ILLEGAL_CHAR, h + 7, 2, 7, 2 },
	};
	const struct want w_latin1u8[] = {
		{ D_SUSPICIOUS_LABEL, h + 4, 2, 4, 1 },
		{ D_ILLEGAL_CHAR, h + 17, 2, 17, 1 },
	};
#define SJIS_DECL "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>"
	static const unsigned char sjis[] = SJIS_DECL
	    "\n\x82\xA0"		/* j+1: U+3042, col 1 */
	    "\xB1"			/* j+3: U+FF71, col 2 */
	    "\x80"			/* j+4: illegal, line 2 col 3 */
	    "a"				/* j+5 */
	    "\x81\x20"			/* j+6: illegal lead, then a space */
	    "\x01"			/* j+8: not a Char, col 7 */
	    "\xFD"			/* j+9: illegal */
	    "\r\n\x82\xA2\xA0"		/* j+12: U+3044, j+14: illegal */
	    "\x82";			/* j+15: truncated */
	const size_t j = sizeof(SJIS_DECL) - 1;
	const struct want w_sjis[] = {
		{ D_ILLEGAL_SEQUENCE, j + 4, 2, 3, 5 },
		{ D_ILLEGAL_CHAR, j + 8, 2, 7, 1 },
	};
#define V11_DECL "<?xml version=\"1.1\"?>"
	static const unsigned char v11[] = V11_DECL
	    "a\r\xC2\x85"		/* 21, 22, 23: CR NEL is one line end */
	    "b\xE2\x80\xA8"		/* 25, 26: LINE SEPARATOR */
	    "c\xC2\x85"			/* 29, 30: NEL */
	    "d\x7F\xC2\x80";		/* 32, 33: line 4 col 2, 34 */
	static const struct want w_v11[] = {
		{ D_ILLEGAL_CHAR, 33, 4, 2, 2 },
	};
	/* A clean entity: nothing at all, however it is split. */
	static const unsigned char clean[] =
	    "<?xml version=\"1.0\"?>\n<a b='\xC3\xA9'>\xE2\x82\xAC "
	    "\xF0\x9F\x98\x80 \r\n0123456789abcdef</a>\n";

	stream_case("ISO-8859-1", B(latin1), "ISO-8859-1", w_latin1,
	    NELEM(w_latin1));
	stream_case("ISO-8859-1 holding UTF-8", B(ent_latin1u8), "ISO-8859-1",
	    w_latin1u8, NELEM(w_latin1u8));
	/* Which bytes Shift_JIS allows is the C library's verdict: musl
	 * takes 81 20 for U+301C, and the positions after it move. */
	if (rejects("Shift_JIS", "\x81\x20"))
		stream_case("Shift_JIS", B(sjis), "Shift_JIS", w_sjis,
		    NELEM(w_sjis));
	else
		printf("unit: this iconv's Shift_JIS accepts 81 20; the "
		    "Shift_JIS stream case not tested\n");
	stream_case("UTF-8, XML 1.1", B(v11), "UTF-8", w_v11, NELEM(w_v11));
	stream_case("clean UTF-8", B(clean), "UTF-8", NULL, 0);
}

/* The messages of the first occurrences. */
static void
test_streaming_messages(void)
{
	struct sniff *s = calloc(1, sizeof(*s));
	struct diags dg;

	if (!CHECK(s != NULL))
		return;
	sniff(B(ent_latin1u8), 1, NULL, NULL, s);
	CHECK(feed(s, B(ent_latin1u8), NULL, 0, &dg, NULL));
	CHECK(strstr(dg.d[D_SUSPICIOUS_LABEL].msg,
	    "3 multi-byte sequences") != NULL);
	sniff(B(ent_utf8), 1, NULL, NULL, s);
	CHECK(feed(s, B(ent_utf8), NULL, 0, &dg, NULL));
	CHECK(strstr(dg.d[D_ILLEGAL_SEQUENCE].msg, "E0") != NULL);
	CHECK(strstr(dg.d[D_ILLEGAL_CHAR].msg, "U+0001") != NULL);
	sniff(B(ent_utf16be), 1, NULL, NULL, s);
	CHECK(feed(s, B(ent_utf16be), NULL, 0, &dg, NULL));
	if (!CHECK(strstr(dg.d[D_ILLEGAL_SEQUENCE].msg, "DE 00") != NULL))
		printf("  (message: %s)\n", dg.d[D_ILLEGAL_SEQUENCE].msg);
	sniff(B("<a/>\xE2\x82"), 1, NULL, NULL, s);
	CHECK(feed(s, B("<a/>\xE2\x82"), NULL, 0, &dg, NULL));
	if (!CHECK(strstr(dg.d[D_ILLEGAL_SEQUENCE].msg, "E2 82") != NULL))
		printf("  (message: %s)\n", dg.d[D_ILLEGAL_SEQUENCE].msg);
	/* An entity that cannot be decoded has no validator. */
	sniff(B("\x00\x00\xFF\xFE\x00\x00\x3C\x00"), 1, NULL, NULL, s);
	CHECK(s->dec == FORM_NONE);
	CHECK(val_new(s, &dg) == NULL);
	free(s);
}

void
unit_stream(void)
{
	test_streaming_utf();
	test_streaming_labelled();
	test_streaming_messages();
}

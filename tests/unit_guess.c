/*
 * The unit driver: the parts of the encoding guess (src/guess_*.c) that
 * the command line cannot reach one at a time: the candidates and the
 * names they are reported by, libuchardet's every answer mapped to its
 * candidate, the character classes the models were counted with, and
 * the scores of readings of exact bytes.
 */
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "all.h"
#include "guess.h"
#include "guess_int.h"
#include "unit.h"

/* Whether iconv names a and b read every byte alone alike. */
static int
sb_alike(const char *a, const char *b)
{
	uint32_t ma[256], mb[256];
	iconv_t ca, cb;
	int ok;

	ca = iconv_open(enc_u32le(), a);
	cb = iconv_open(enc_u32le(), b);
	if (ca == (iconv_t)-1 || cb == (iconv_t)-1)
		return 0;
	ok = sb_build(ca, ma) && sb_build(cb, mb) &&
	    memcmp(ma, mb, sizeof(ma)) == 0;
	iconv_close(ca);
	iconv_close(cb);
	return ok;
}

/*
 * Every candidate this iconv has is reported by a name that --encoding
 * takes (enc_lookup) and that reads the bytes as the candidate does: the
 * same iconv name, or the same table byte for byte.
 */
static void
test_names(void)
{
	size_t i, n = 0;

	for (i = 0; i < gcand_count(); i++) {
		const struct gcand *c = gcand_at(i);
		struct enc e;
		const char *in;

		if (c == NULL)
			continue;
		n++;
		CHECK(enc_lookup(c->name, &e) == 0);
		in = enc_iconv(&e);
		if (!CHECK(*in != '\0'))
			continue;
		if (strcasecmp(in, c->iconv) != 0 && c->kind == GK_TABLE &&
		    !CHECK(sb_alike(in, c->iconv)))
			printf("unit: %s reads otherwise than %s\n", in,
			    c->iconv);
		CHECK(gcand_find(c->name) == (int)i);
		CHECK(gcand_of_name(c->name) == (int)i);
	}
	/* glibc and GNU libiconv have nearly all of them; musl's reads the
	 * single-byte tables and few of the multi-byte ones it cannot
	 * write (reportable() in guess_cand.c). */
#if defined(__GLIBC__) || defined(_LIBICONV_VERSION)
	CHECK(n >= 40);
#else
	if (!CHECK(n >= 25))
		printf("unit: %zu candidates\n", n);
#endif
}

/*
 * Every name libuchardet can answer (its versions 0.0.6 to 0.0.8), and
 * the candidate it stands for: the same encoding, never a neighbour;
 * NULL where no candidate is that encoding (pure ASCII, the UCS-4 orders
 * iconv lacks, Georgian).  A candidate this iconv lacks is passed over.
 */
static void
test_ud_names(void)
{
	static const struct {
		const char	*ud, *cand;
	} t[] = {
		{ "ASCII", NULL }, { "UTF-8", "UTF-8" },
		{ "UTF-16BE", "UTF-16BE" }, { "UTF-16LE", "UTF-16LE" },
		{ "UTF-32BE", "UTF-32BE" }, { "UTF-32LE", "UTF-32LE" },
		{ "X-ISO-10646-UCS-4-3412", NULL },
		{ "X-ISO-10646-UCS-4-2143", NULL },
		{ "ISO-2022-JP", "ISO-2022-JP" },
		{ "ISO-2022-KR", "ISO-2022-KR" },
		{ "ISO-2022-CN", "ISO-2022-CN" },
		{ "HZ-GB-2312", "HZ-GB-2312" },
		{ "BIG5", "Big5" }, { "EUC-TW", "EUC-TW" },
		{ "GB18030", "GB18030" }, { "SHIFT_JIS", "Shift_JIS" },
		{ "EUC-JP", "EUC-JP" }, { "EUC-KR", "EUC-KR" },
		{ "UHC", "CP949" }, { "JOHAB", "JOHAB" },
		{ "KOI8-R", "KOI8-R" }, { "KOI8-U", "KOI8-U" },
		{ "IBM852", "IBM852" }, { "IBM855", "IBM855" },
		{ "IBM862", "IBM862" }, { "IBM865", "IBM865" },
		{ "IBM866", "IBM866" },
		{ "MAC-CENTRALEUROPE", "MAC-CENTRALEUROPE" },
		{ "MAC-CYRILLIC", "MAC-CYRILLIC" },
		{ "ISO-8859-1", "ISO-8859-1" }, { "ISO-8859-2", "ISO-8859-2" },
		{ "ISO-8859-3", "ISO-8859-3" }, { "ISO-8859-4", "ISO-8859-4" },
		{ "ISO-8859-5", "ISO-8859-5" }, { "ISO-8859-6", "ISO-8859-6" },
		{ "ISO-8859-7", "ISO-8859-7" }, { "ISO-8859-8", "ISO-8859-8" },
		{ "ISO-8859-9", "ISO-8859-9" },
		{ "ISO-8859-10", "ISO-8859-10" },
		{ "ISO-8859-11", "ISO-8859-11" },
		{ "ISO-8859-13", "ISO-8859-13" },
		{ "ISO-8859-15", "ISO-8859-15" },
		{ "ISO-8859-16", "ISO-8859-16" },
		{ "WINDOWS-1250", "windows-1250" },
		{ "WINDOWS-1251", "windows-1251" },
		{ "WINDOWS-1252", "windows-1252" },
		{ "WINDOWS-1253", "windows-1253" },
		{ "WINDOWS-1254", "windows-1254" },
		{ "WINDOWS-1255", "windows-1255" },
		{ "WINDOWS-1256", "windows-1256" },
		{ "WINDOWS-1257", "windows-1257" },
		{ "WINDOWS-1258", "windows-1258" },
		{ "TIS-620", "TIS-620" }, { "VISCII", "VISCII" },
		{ "GEORGIAN-ACADEMY", NULL }, { "GEORGIAN-PS", NULL },
	};
	size_t i;

	for (i = 0; i < NELEM(t); i++) {
		int k = gcand_of_name(t[i].ud), want = -1;

		if (t[i].cand != NULL && (want = gcand_find(t[i].cand)) < 0 &&
		    !enc_iconv_ok(t[i].ud))
			continue;	/* this iconv has neither */
		if (!CHECK(k == want))
			printf("unit: libuchardet's %s: candidate %s, not %s\n",
			    t[i].ud,
			    k >= 0 ? gcand_at((size_t)k)->name : "none",
			    t[i].cand != NULL ? t[i].cand : "none");
		/* The same encoding: a single-byte one reads every byte
		 * alike under both names. */
		if (k >= 0 && gcand_at((size_t)k)->kind == GK_TABLE &&
		    strcasecmp(t[i].ud, gcand_at((size_t)k)->iconv) != 0 &&
		    !CHECK(sb_alike(t[i].ud, gcand_at((size_t)k)->iconv)))
			printf("unit: %s reads otherwise than %s\n", t[i].ud,
			    gcand_at((size_t)k)->iconv);
	}
}

/* The classes the models were counted with are guess_char.c's. */
static void
test_classes(void)
{
	struct gch g;

	CHECK(gch_digest() == gmodel_digest());
	gch_info(0xC9, &g);	/* É */
	CHECK(g.script == GS_LATIN && g.letter == GL_UPPER && g.fold == 0xE9);
	gch_info(0x0419, &g);	/* Й */
	CHECK(g.script == GS_CYRILLIC && g.letter == GL_UPPER &&
	    g.fold == 0x0439);
	gch_info(0x0E01, &g);	/* ก */
	CHECK(g.script == GS_THAI && g.letter == GL_CASELESS);
	gch_info(0x0627, &g);	/* ا */
	CHECK(g.script == GS_ARABIC);
	gch_info(0x00B1, &g);	/* ± */
	CHECK(g.letter == GL_NONE);
	gch_info(0x0219, &g);	/* ș: counted as ş */
	CHECK(g.fold == 0x015F && g.letter == GL_LOWER);
	CHECK(gch_prev('a') == GP_ALOWER && gch_prev(0x0416) == GP_UPPER &&
	    gch_prev(' ') == GP_OTHER);
	CHECK(gch_next('Z') == GN_ASCII && gch_next(0x5D0) == GN_LETTER &&
	    gch_next(0x2019) == GN_OTHER);
}

/* The score of p[0..n) read with candidate name, into *sc. */
static int
score_of(const char *name, const char *p, struct gscore *sc)
{
	const unsigned char *b = (const unsigned char *)p;
	int k = gcand_find(name), ok;
	struct gbytes gb;
	struct gtext t;
	uint64_t h, a;

	sc->lm = -1;
	if (k < 0 || gtext_init(&t, 64) < 0)
		return -1;
	/* As guess_choose() reads: the words' letters from the bytes. */
	if (gbytes_init(&gb, b, strlen(p)) < 0) {
		gtext_free(&t);
		return -1;
	}
	memcpy(t.wl, gb.wl, sizeof(t.wl));
	if (gcand_at((size_t)k)->kind == GK_TABLE)
		ok = gread_table(&gb, gcand_table((size_t)k), b, strlen(p),
		    &t, &h) == 0;
	else
		ok = gread_iconv(gcand_at((size_t)k)->iconv, b, strlen(p), &t,
		    &h, &a) == 0;
	gbytes_free(&gb);
	if (ok)
		gmodel_score(&t, gcand_at((size_t)k)->kind == GK_ICONV &&
		    strcasecmp(name, "windows-1258") != 0, sc);
	gtext_free(&t);
	return ok ? 0 : -1;
}

/*
 * Readings of exact bytes: the right one scores highest, in the right
 * language; a wrong table makes letters of another script or symbols in
 * words, which cost; a byte a table lacks is no clean reading.
 */
static void
test_scores(void)
{
	/* "Привет, как дела? Хорошо." in KOI8-R. */
	static const char koi[] = "\xF0\xD2\xC9\xD7\xC5\xD4, \xCB\xC1\xCB "
	    "\xC4\xC5\xCC\xC1? \xE8\xCF\xD2\xCF\xDB\xCF.";
	/* "Grüße aus München, schöne Tür" in ISO-8859-1. */
	static const char de[] = "Gr\xFC\xDF" "e aus M\xFCnchen, sch\xF6ne "
	    "T\xFCr";
	struct gscore a, b;

	CHECK(score_of("KOI8-R", koi, &a) == 0 && a.lm >= 0);
	CHECK(score_of("windows-1251", koi, &b) == 0 && b.lm >= 0);
	CHECK(a.script == GS_CYRILLIC && a.score > b.score + 600);
	CHECK(score_of("ISO-8859-1", de, &a) == 0 && a.script == GS_LATIN);
	CHECK(score_of("KOI8-R", de, &b) == 0);
	CHECK(a.score > b.score + 600);
	CHECK(score_of("ISO-8859-2", de, &b) == 0 && a.score >= b.score);
	/* 0x81 is no character of windows-1252; nor ESC text in any. */
	CHECK(score_of("windows-1252", "caf\x81 noir", &a) < 0);
	CHECK(score_of("ISO-8859-5", "a\x1B" "b", &a) < 0);
}

/*
 * The evidence besides the characters past ASCII: the ASCII letters of the
 * words that hold one, which tell the language where those characters fit
 * several; and each line once.
 */
static void
test_words(void)
{
	/* á é í ó, which Hungarian and Spanish both write, in words of
	 * each, read by the one table. */
	static const char hu[] = "<p>A sz\xE9p h\xE1z el\xF3tt \xE1ll egy "
	    "gy\xF3gyszert\xE1r, \xEDgy k\xE9rt\xE9k.</p>";
	static const char es[] = "<p>La canci\xF3n est\xE1 en el \xE1lbum "
	    "de la m\xFAsica cl\xE1sica, dijo el m\xE9" "dico.</p>";
	static const char lines[] = "a\nb\na\nc\nb";
	static const char cafe[] = "<p>caf\xE9 au lait, na\xEFve</p>";
	struct gbytes gb;
	struct gscore sc;
	unsigned char *q;
	size_t m;

	/* "caf\xE9" and "na\xEFve" count, "au" and "lait" and the tag do
	 * not. */
	if (CHECK(gbytes_init(&gb, (const unsigned char *)cafe,
	    sizeof(cafe) - 1) == 0)) {
		CHECK(gb.wl['a' - 'a'] == 2 && gb.wl['c' - 'a'] == 1 &&
		    gb.wl['f' - 'a'] == 1 && gb.wl['n' - 'a'] == 1 &&
		    gb.wl['v' - 'a'] == 1 && gb.wl['e' - 'a'] == 1 &&
		    gb.wl['l' - 'a'] == 0 && gb.wl['u' - 'a'] == 0 &&
		    gb.wl['p' - 'a'] == 0 && gb.wl['i' - 'a'] == 0);
		gbytes_free(&gb);
	}
	CHECK(score_of("windows-1252", hu, &sc) == 0 && sc.lm >= 0 &&
	    strcmp(gmodel_at((size_t)sc.lm)->lang, "hu") == 0);
	CHECK(score_of("windows-1252", es, &sc) == 0 && sc.lm >= 0 &&
	    strcmp(gmodel_at((size_t)sc.lm)->lang, "hu") != 0);
	/* A line again is left out; "b" without its line feed is another. */
	q = glines_once((const unsigned char *)lines, sizeof(lines) - 1, &m);
	CHECK(q != NULL && m == 7 && memcmp(q, "a\nb\nc\nb", 7) == 0);
	free(q);
	q = glines_once((const unsigned char *)"", 0, &m);
	CHECK(q != NULL && m == 0);
	free(q);
}

void
unit_guess(void)
{
	test_names();
	test_ud_names();
	test_classes();
	test_scores();
	test_words();
}

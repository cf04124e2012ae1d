/*
 * The candidates of the guess: the encodings real text is found in that
 * this system's iconv decodes (issue 26), each with the name it is
 * reported by (the IANA registry's where it has one, as enc_lookup()
 * resolves it), and, for the single-byte ones, the character of each
 * byte, read from iconv once per process.
 */
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "guess_int.h"

/* Families: a label of one wins a tie among those that read the same. */
enum { F_WEST, F_CE, F_BALT, F_SOUTH, F_VI, F_CYR, F_GREEK, F_HEBREW,
	F_ARABIC, F_THAI, F_JA, F_ZH, F_KO, F_UNI };

/*
 * In order of preference where two read the bytes as the same text: a
 * label before its superset (Shift_JIS before Windows-31J), so that the
 * superset is named only when the bytes need it, except where the
 * superset is what such text is written in and labelled with in practice,
 * as the WHATWG Encoding Standard reads the subset's labels (pref:
 * windows-1252 for ISO-8859-1, GBK for GB2312, windows-1254 for
 * ISO-8859-9, windows-874 for TIS-620).  sub: the subset a superset
 * extends.
 */
static const struct gcand cands[] = {
	{ "ISO-8859-1", "ISO-8859-1", GK_TABLE, F_WEST, NULL, 0 },
	{ "windows-1252", "WINDOWS-1252", GK_TABLE, F_WEST, "ISO-8859-1", 1 },
	{ "ISO-8859-15", "ISO-8859-15", GK_TABLE, F_WEST, NULL, 0 },
	{ "ISO-8859-14", "ISO-8859-14", GK_TABLE, F_WEST, NULL, 0 },
	{ "IBM850", "IBM850", GK_TABLE, F_WEST, NULL, 0 },
	{ "IBM437", "IBM437", GK_TABLE, F_WEST, NULL, 0 },
	{ "macintosh", "MACINTOSH", GK_TABLE, F_WEST, NULL, 0 },
	{ "IBM860", "IBM860", GK_TABLE, F_WEST, NULL, 0 },
	{ "IBM865", "IBM865", GK_TABLE, F_WEST, NULL, 0 },
	{ "ISO-8859-2", "ISO-8859-2", GK_TABLE, F_CE, NULL, 0 },
	{ "windows-1250", "WINDOWS-1250", GK_TABLE, F_CE, NULL, 0 },
	{ "ISO-8859-16", "ISO-8859-16", GK_TABLE, F_CE, NULL, 0 },
	{ "IBM852", "IBM852", GK_TABLE, F_CE, NULL, 0 },
	{ "MAC-CENTRALEUROPE", "MAC-CENTRALEUROPE", GK_TABLE, F_CE, NULL, 0 },
	{ "ISO-8859-13", "ISO-8859-13", GK_TABLE, F_BALT, NULL, 0 },
	{ "windows-1257", "WINDOWS-1257", GK_TABLE, F_BALT, NULL, 0 },
	{ "ISO-8859-4", "ISO-8859-4", GK_TABLE, F_BALT, NULL, 0 },
	{ "ISO-8859-10", "ISO-8859-10", GK_TABLE, F_BALT, NULL, 0 },
	{ "ISO-8859-9", "ISO-8859-9", GK_TABLE, F_SOUTH, NULL, 0 },
	{ "windows-1254", "WINDOWS-1254", GK_TABLE, F_SOUTH, "ISO-8859-9", 1 },
	{ "ISO-8859-3", "ISO-8859-3", GK_TABLE, F_SOUTH, NULL, 0 },
	{ "IBM857", "IBM857", GK_TABLE, F_SOUTH, NULL, 0 },
	{ "windows-1258", "WINDOWS-1258", GK_ICONV, F_VI, NULL, 0 },
	{ "VISCII", "VISCII", GK_TABLE, F_VI, NULL, 0 },
	{ "windows-1251", "WINDOWS-1251", GK_TABLE, F_CYR, NULL, 0 },
	{ "KOI8-R", "KOI8-R", GK_TABLE, F_CYR, NULL, 0 },
	{ "KOI8-U", "KOI8-U", GK_TABLE, F_CYR, "KOI8-R", 0 },
	{ "ISO-8859-5", "ISO-8859-5", GK_TABLE, F_CYR, NULL, 0 },
	{ "IBM866", "IBM866", GK_TABLE, F_CYR, NULL, 0 },
	{ "IBM855", "IBM855", GK_TABLE, F_CYR, NULL, 0 },
	{ "MAC-CYRILLIC", "MAC-CYRILLIC", GK_TABLE, F_CYR, NULL, 0 },
	{ "ISO-8859-7", "ISO-8859-7", GK_TABLE, F_GREEK, NULL, 0 },
	{ "windows-1253", "WINDOWS-1253", GK_TABLE, F_GREEK, NULL, 0 },
	{ "windows-1255", "WINDOWS-1255", GK_TABLE, F_HEBREW, NULL, 1 },
	{ "ISO-8859-8", "ISO-8859-8", GK_TABLE, F_HEBREW, NULL, 0 },
	{ "IBM862", "IBM862", GK_TABLE, F_HEBREW, NULL, 0 },
	{ "ISO-8859-6", "ISO-8859-6", GK_TABLE, F_ARABIC, NULL, 0 },
	{ "windows-1256", "WINDOWS-1256", GK_TABLE, F_ARABIC, NULL, 0 },
	{ "TIS-620", "TIS-620", GK_TABLE, F_THAI, NULL, 0 },
	{ "windows-874", "CP874", GK_TABLE, F_THAI, "TIS-620", 1 },
	{ "ISO-8859-11", "ISO-8859-11", GK_TABLE, F_THAI, "TIS-620", 0 },
	{ "Shift_JIS", "SHIFT_JIS", GK_ICONV, F_JA, NULL, 0 },
	{ "Windows-31J", "CP932", GK_ICONV, F_JA, "Shift_JIS", 0 },
	{ "EUC-JP", "EUC-JP", GK_ICONV, F_JA, NULL, 0 },
	{ "ISO-2022-JP", "ISO-2022-JP", GK_ICONV, F_JA, NULL, 0 },
	{ "GB2312", "EUC-CN", GK_ICONV, F_ZH, NULL, 0 },
	{ "GBK", "GBK", GK_ICONV, F_ZH, "GB2312", 1 },
	{ "GB18030", "GB18030", GK_ICONV, F_ZH, "GBK", 0 },
	{ "HZ-GB-2312", "HZ", GK_ICONV, F_ZH, NULL, 0 },
	{ "Big5", "BIG5", GK_ICONV, F_ZH, NULL, 0 },
	{ "Big5-HKSCS", "BIG5-HKSCS", GK_ICONV, F_ZH, "Big5", 0 },
	{ "EUC-TW", "EUC-TW", GK_ICONV, F_ZH, NULL, 0 },
	{ "ISO-2022-CN", "ISO-2022-CN", GK_ICONV, F_ZH, NULL, 0 },
	{ "EUC-KR", "EUC-KR", GK_ICONV, F_KO, NULL, 0 },
	{ "CP949", "CP949", GK_ICONV, F_KO, "EUC-KR", 0 },
	{ "ISO-2022-KR", "ISO-2022-KR", GK_ICONV, F_KO, NULL, 0 },
	{ "JOHAB", "JOHAB", GK_ICONV, F_KO, NULL, 0 },
	{ "UTF-8", "UTF-8", GK_ICONV, F_UNI, NULL, 0 },
	{ "UTF-16LE", "UTF-16LE", GK_WIDE, F_UNI, NULL, 0 },
	{ "UTF-16BE", "UTF-16BE", GK_WIDE, F_UNI, NULL, 0 },
	{ "UTF-32LE", "UTF-32LE", GK_WIDE, F_UNI, NULL, 0 },
	{ "UTF-32BE", "UTF-32BE", GK_WIDE, F_UNI, NULL, 0 },
};
#define NCANDS	(sizeof(cands) / sizeof(cands[0]))

/* Built once: the tables, and which candidates this iconv has. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint32_t tables[NCANDS][256];
static unsigned char avail[NCANDS];

/* Byte b alone decoded by cd, flushing what it holds back (windows-1258
 * keeps a letter for a combining mark that may follow): its character, or
 * GB_BAD. */
static uint32_t
byte_char(iconv_t cd, unsigned char b)
{
	char in = (char)b, *ip = &in, *op;
	unsigned char out[16];
	size_t il = 1, ol = sizeof(out);

	iconv(cd, NULL, NULL, NULL, NULL);
	op = (char *)out;
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0)
		return GB_BAD;
	if (ol == sizeof(out) &&
	    iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1)
		return GB_BAD;
	if (ol != sizeof(out) - 4)
		return GB_BAD;
	return load_le32(out);
}

/* Whether c is a character XML text is made of: a Char (XML 1.0 [2]) and
 * no C1 control, which section 2.2 discourages and which text never holds
 * (a wrong table's reading does). */
static int
text_char(uint32_t c)
{
	return xml_char_ok(c, 0) && !(c >= 0x80 && c <= 0x9F);
}

/*
 * Whether the name candidate i is reported by is one the rest of the
 * program decodes (--encoding=NAME, the note's command): an iconv that
 * reads an encoding it cannot write (musl's GBK, Big5, EUC-KR) gives it
 * no iconv name, and a guess naming it would send the user to a command
 * that fails.
 */
static int
reportable(size_t i)
{
	struct enc e;

	return enc_lookup(cands[i].name, &e) == 0 && *enc_iconv(&e) != '\0';
}

static void
build(void)
{
	size_t i;
	int b;

	for (i = 0; i < NCANDS; i++) {
		iconv_t cd;

		if (!reportable(i) ||
		    (cd = iconv_open(enc_u32le(), cands[i].iconv)) ==
		    (iconv_t)-1)
			continue;
		avail[i] = 1;
		if (cands[i].kind == GK_TABLE)
			for (b = 0; b < 256; b++) {
				uint32_t c = byte_char(cd, (unsigned char)b);

				tables[i][b] = c != GB_BAD && text_char(c) ?
				    c : GB_BAD;
			}
		iconv_close(cd);
	}
}

size_t
gcand_count(void)
{
	return NCANDS;
}

/* Candidate i, or NULL where this iconv lacks it or cannot decode it by
 * the name it is reported by (reportable). */
const struct gcand *
gcand_at(size_t i)
{
	pthread_once(&once, build);
	return i < NCANDS && avail[i] ? &cands[i] : NULL;
}

/* The table of single-byte candidate i. */
const uint32_t *
gcand_table(size_t i)
{
	pthread_once(&once, build);
	return tables[i];
}

/* The candidate called name, as reported or as iconv knows it, or -1. */
int
gcand_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCANDS; i++)
		if (strcasecmp(name, cands[i].name) == 0 ||
		    strcasecmp(name, cands[i].iconv) == 0)
			return gcand_at(i) != NULL ? (int)i : -1;
	return -1;
}

/* Whether iconv names a and b decode every byte alone alike. */
static int
tables_alike(const char *a, const char *b)
{
	iconv_t ca = iconv_open(enc_u32le(), a), cb;
	int k, alike = 1;

	if (ca == (iconv_t)-1)
		return 0;
	if ((cb = iconv_open(enc_u32le(), b)) == (iconv_t)-1) {
		iconv_close(ca);
		return 0;
	}
	for (k = 0; k < 256 && alike; k++)
		alike = byte_char(ca, (unsigned char)k) ==
		    byte_char(cb, (unsigned char)k);
	iconv_close(ca);
	iconv_close(cb);
	return alike;
}

/* What cd makes of the two bytes a, b alone: a status and the first
 * character, folded into one value to compare. */
static uint64_t
pair_char(iconv_t cd, unsigned char a, unsigned char b)
{
	char in[2] = { (char)a, (char)b }, *ip = in, *op;
	unsigned char out[16];
	size_t il = 2, ol = sizeof(out), r;

	iconv(cd, NULL, NULL, NULL, NULL);
	op = (char *)out;
	r = iconv(cd, &ip, &il, &op, &ol);
	return (r == (size_t)-1 ? (uint64_t)1 << 40 : 0) | (uint64_t)il << 36 |
	    (ol < sizeof(out) ? load_le32(out) : 0xFFFFFFFFu);
}

/*
 * Whether iconv names a and b read every pair of bytes from 80 on (the
 * double-byte codes of the 8-bit multi-byte encodings) alike; a few
 * pairs first, where most that differ do.
 */
static int
pairs_alike(const char *a, const char *b)
{
	iconv_t ca = iconv_open(enc_u32le(), a), cb;
	unsigned x, y, step;
	int alike = 1;

	if (ca == (iconv_t)-1)
		return 0;
	if ((cb = iconv_open(enc_u32le(), b)) == (iconv_t)-1) {
		iconv_close(ca);
		return 0;
	}
	for (step = 37; step > 0 && alike; step = step == 37 ? 1 : 0)
		for (x = 0x80; x <= 0xFF && alike; x += step)
			for (y = 0x40; y <= 0xFF && alike; y += step)
				alike = pair_char(ca, (unsigned char)x,
				    (unsigned char)y) == pair_char(cb,
				    (unsigned char)x, (unsigned char)y);
	iconv_close(ca);
	iconv_close(cb);
	return alike;
}

/*
 * The candidate an encoding name stands for, as another detector gives
 * it (libuchardet: "WINDOWS-1252", "SHIFT_JIS", "UHC", "MAC-CYRILLIC"),
 * or -1: the candidate of that name; else the one the IANA registry or
 * this iconv resolves it to (enc_lookup(), enc_iconv()), as the same
 * registered encoding or the same iconv name; else the one that iconv
 * reads every byte (a single-byte candidate) or every pair of bytes (an
 * 8-bit multi-byte one) of alike: "UHC" is CP949.  Never a neighbour: a
 * name no candidate reads as its own is -1.
 */
int
gcand_of_name(const char *name)
{
	struct enc e, ce;
	const char *in;
	size_t i;
	int k;

	if ((k = gcand_find(name)) >= 0)
		return k;
	if (enc_lookup(name, &e) != 0 || *(in = enc_iconv(&e)) == '\0')
		return -1;
	for (i = 0; i < NCANDS; i++) {
		if (gcand_at(i) == NULL)
			continue;
		if (enc_lookup(cands[i].name, &ce) == 0 &&
		    (enc_same(&e, &ce) || strcasecmp(in, enc_iconv(&ce)) == 0))
			return (int)i;
	}
	for (i = 0; i < NCANDS; i++)
		if (gcand_at(i) != NULL && cands[i].kind == GK_TABLE &&
		    tables_alike(in, cands[i].iconv))
			return (int)i;
	for (i = 0; i < NCANDS; i++)
		if (gcand_at(i) != NULL && cands[i].kind == GK_ICONV &&
		    cands[i].family != F_UNI && cands[i].family != F_VI &&
		    strncasecmp(cands[i].iconv, "ISO-2022", 8) != 0 &&
		    strcasecmp(cands[i].iconv, "HZ") != 0 &&
		    pairs_alike(in, cands[i].iconv))
			return (int)i;
	return -1;
}

/*
 * Which encoding an entity is really in, when the encoding it is read
 * with gives illegal sequences or its label is suspicious.  Only the
 * encodings under which the whole entity decodes, without an illegal
 * sequence and with nothing but Chars (XML 1.0 [2]), are candidates;
 * libuchardet ranks them where the build has it and the library loads,
 * and a score of our own (what the decoded text looks like) where not,
 * or where libuchardet's answer is not a candidate.  Too little text, or two
 * candidates that read differently with no clear winner, gives no guess.
 */
#include <sys/types.h>

#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifdef HAVE_UCHARDET
#include <dlfcn.h>
#include <uchardet/uchardet.h>
#endif

#include "engine.h"
#include "guess.h"

/* A regular file longer than this is guessed from its start: enough for
 * any text's encoding to show, and what an error-dense file of hundreds
 * of megabytes pays for its guess stays a few tens of milliseconds, its
 * mapped pages a few MiB. */
#define GUESS_FILE_MAX	((size_t)16 * 1024 * 1024)
/* The candidates are ranked on this much of a longer entity, from the line
 * of its first non-ASCII byte; the one chosen must then decode the whole.
 * Each of some thirty is decoded over it, and libuchardet reads it: a
 * quarter of a megabyte of text is plenty to rank them on, and costs a
 * quarter of what a megabyte did. */
#define GUESS_SAMPLE	((size_t)256 * 1024)

/*
 * The candidates, in order of preference where two decode to the same
 * text: a label before its superset (Shift_JIS before Windows-31J), so
 * that the superset is named only when the bytes need it, except where
 * the superset is what such text is written in and labelled with in
 * practice, as the WHATWG Encoding Standard reads the subset's labels
 * (pref: windows-1252 for ISO-8859-1, GBK for GB2312).  sub: the index of
 * the subset a superset extends, or -1.
 */
static const struct cand {
	const char	*name;
	const char	*iconv;
	int		 sub;
	int		 pref;
} cands[] = {
	{ "ISO-8859-1", "ISO-8859-1", -1, 0 },		/* 0 */
	{ "windows-1252", "WINDOWS-1252", 0, 1 },	/* 1 */
	{ "ISO-8859-15", "ISO-8859-15", -1, 0 },
	{ "ISO-8859-2", "ISO-8859-2", -1, 0 },
	{ "windows-1250", "WINDOWS-1250", -1, 0 },
	{ "windows-1251", "WINDOWS-1251", -1, 0 },		/* 5 */
	{ "KOI8-R", "KOI8-R", -1, 0 },
	{ "KOI8-U", "KOI8-U", 6, 0 },
	{ "ISO-8859-5", "ISO-8859-5", -1, 0 },
	{ "ISO-8859-7", "ISO-8859-7", -1, 0 },
	{ "windows-1253", "WINDOWS-1253", -1, 0 },		/* 10 */
	{ "ISO-8859-9", "ISO-8859-9", -1, 0 },
	{ "windows-1254", "WINDOWS-1254", 11, 0 },
	{ "ISO-8859-8", "ISO-8859-8", -1, 0 },
	{ "windows-1255", "WINDOWS-1255", -1, 0 },
	{ "windows-1256", "WINDOWS-1256", -1, 0 },		/* 15 */
	{ "windows-1257", "WINDOWS-1257", -1, 0 },
	{ "TIS-620", "TIS-620", -1, 0 },
	{ "windows-874", "CP874", 17, 0 },
	{ "Shift_JIS", "SHIFT_JIS", -1, 0 },
	{ "Windows-31J", "CP932", 19, 0 },			/* 20 */
	{ "EUC-JP", "EUC-JP", -1, 0 },
	{ "GB2312", "EUC-CN", -1, 0 },
	{ "GBK", "GBK", 22, 1 },
	{ "GB18030", "GB18030", 23, 0 },
	{ "Big5", "BIG5", -1, 0 },				/* 25 */
	{ "EUC-KR", "EUC-KR", -1, 0 },
	{ "CP949", "CP949", 26, 0 },
	{ "UTF-16LE", "UTF-16LE", -1, 0 },
	{ "UTF-16BE", "UTF-16BE", -1, 0 },
};
#define GUESS_MARGIN	2
/* Eight bytes at a time: ones in each, the high bits, the low bits. */
#define CB_ONES	0x0101010101010101ULL
#define CB_HI	0x8080808080808080ULL
#define CB_LO	0x7F7F7F7F7F7F7F7FULL
#define GUESS_PRIOR	1
#define NCANDS		(sizeof(cands) / sizeof(cands[0]))
#define C_UTF16LE	28

/* What decoding the entity with one candidate gave. */
struct tally {
	int		 ok;		/* decoded whole, Chars only */
	double		 score;
	uint64_t	 hash;		/* of the decoded text */
	uint64_t	 nonascii;
	uint64_t	 ascii;
	uint64_t	 odd;		/* U+XX00 and private use */
};

/* Scripts, for the score. */
enum script { SC_NONE, SC_LATIN, SC_GREEK, SC_CYR, SC_HEBREW, SC_ARABIC,
	SC_THAI, SC_KANA, SC_HAN, SC_HANGUL, SC_N };

static enum script
script_of(uint32_t c)
{
	if ((c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7))
		return SC_LATIN;
	if (c >= 0x386 && c <= 0x3CE)
		return SC_GREEK;
	if (c >= 0x400 && c <= 0x45F)
		return SC_CYR;
	if (c >= 0x5D0 && c <= 0x5EA)
		return SC_HEBREW;
	if (c >= 0x621 && c <= 0x64A)
		return SC_ARABIC;
	if (c >= 0xE01 && c <= 0xE4E)
		return SC_THAI;
	if (c >= 0x3041 && c <= 0x30FF)
		return SC_KANA;
	if (c >= 0x4E00 && c <= 0x9FFF)
		return SC_HAN;
	if (c >= 0xAC00 && c <= 0xD7A3)
		return SC_HANGUL;
	return SC_NONE;
}

static int
ascii_letter(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * The common ideographs: those of the first levels of GB 2312 (3755),
 * JIS X 0208 (2965) and Big5 (5401), which the texts of each language
 * are nearly all made of; the rest of 4E00-9FFF is what a wrong double-
 * byte table makes of them.  Built with iconv, once, when first needed.
 */
static unsigned char common_han[(0xA000 - 0x4E00) / 8];
static pthread_once_t common_han_once = PTHREAD_ONCE_INIT;

static void
build_common_han_once(void)
{
	static const struct {
		const char	*enc;
		unsigned char	 lo, hi;	/* the first byte of level 1 */
	} lv1[] = {
		{ "EUC-CN", 0xB0, 0xD7 },
		{ "EUC-JP", 0xB0, 0xCF },
		{ "BIG5", 0xA4, 0xC6 },
	};
	size_t i;
	uint32_t c;

	for (i = 0; i < sizeof(lv1) / sizeof(lv1[0]); i++) {
		iconv_t cd = iconv_open(lv1[i].enc, enc_u32le());

		if (cd == (iconv_t)-1)
			continue;
		for (c = 0x4E00; c < 0xA000; c++) {
			unsigned char in[4] = { (unsigned char)c,
			    (unsigned char)(c >> 8), 0, 0 }, out[8];
			char *ip = (char *)in, *op = (char *)out;
			size_t il = 4, ol = sizeof(out);

			if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 &&
			    ol == sizeof(out) - 2 && out[0] >= lv1[i].lo &&
			    out[0] <= lv1[i].hi)
				common_han[(c - 0x4E00) / 8] |=
				    (unsigned char)(1 << (c % 8));
			iconv(cd, NULL, NULL, NULL, NULL);
		}
		iconv_close(cd);
	}
}

static void
build_common_han(void)
{
	pthread_once(&common_han_once, build_common_han_once);
}

/* The Latin letters of the western European languages (Latin-1's, and
 * those windows-1252 adds). */
static int
western(uint32_t c)
{
	return c < 0x100 || c == 0x152 || c == 0x153 || c == 0x160 ||
	    c == 0x161 || c == 0x17D || c == 0x17E || c == 0x178;
}

/*
 * The score of character c after p, counted per byte it takes in its
 * encoding, from how text in a language looks: a Latin letter with
 * accents mostly sits in a word of ASCII letters, and seldom after
 * another (a run of them is what a wrong single-byte table makes of
 * another alphabet), those of western languages being the most common;
 * the letters of other alphabets make words of their own; Russian text
 * is mostly lower case, so that an upper-case Cyrillic letter after a
 * lower-case one (what KOI8-R read as windows-1251 makes, and the
 * reverse) counts against; ideographs outside the first levels of the
 * national sets are rare.  Half-width katakana, box drawing and the
 * like are what a wrong table makes of letters.  n[]
 * counts the letters of each script.
 */
static double
char_score(uint32_t p, uint32_t c, uint64_t *n)
{
	enum script sc = script_of(c);

	n[sc]++;
	switch (sc) {
	case SC_LATIN:
		return (ascii_letter(p) ? 1 : script_of(p) == SC_LATIN ? 0.1 :
		    0.5) * (western(c) ? 1 : 0.3);
	case SC_CYR:
		if (ascii_letter(p))
			return -1;
		/* The letters of Russian, Ukrainian and the like: А-я, Ё,
		 * ё; the others (Serbian, Macedonian) less. */
		if (c >= 0x410 && c <= 0x42F)	/* upper case */
			return p >= 0x430 && p <= 0x44F ? -1 : 0.3;
		if ((c >= 0x430 && c <= 0x44F) || c == 0x451 || c == 0x401)
			return 1;
		return 0.2;
	case SC_GREEK:
		/* Greek as well: mostly lower case; the final sigma ends
		 * a word; ΐ and ΰ are rare. */
		if (ascii_letter(p) || (p == 0x3C2 && c >= 0x386) ||
		    (c >= 0x386 && c <= 0x3AB && p >= 0x3AC && p <= 0x3CE))
			return -1;
		return c == 0x390 || c == 0x3B0 ? 0.2 : c <= 0x3AB ? 0.3 : 1;
	case SC_HEBREW:
	case SC_ARABIC:
	case SC_THAI:
		return ascii_letter(p) ? -1 : 1;
	case SC_HANGUL:
	case SC_KANA:
		return ascii_letter(p) ? -2 : 2;
	case SC_HAN:
		build_common_han();
		return common_han[(c - 0x4E00) / 8] & (1 << (c % 8)) ? 2 : 0.3;
	default:
		break;
	}
	/* Punctuation of the scripts: quotes, dashes, ideographic and
	 * full-width forms. */
	if ((c >= 0x2010 && c <= 0x2026) || (c >= 0x3000 && c <= 0x3011) ||
	    (c >= 0xFF01 && c <= 0xFF5E))
		return c >= 0x3000 ? 1 : 0.5;
	if (c == 0x20AC || c == 0xA0 || c == 0xAB || c == 0xBB || c == 0xB0)
		return 0.5;
	if (c >= 0xA1 && c <= 0xBF)
		return -0.3;
	return -1;
}

/*
 * The score of the text as a whole, from n[], its letters by script:
 * text is in one script (ideographs and kana together), and the letters
 * of the others count against; Japanese has kana for a fifth and more
 * of its letters.
 */
static double
text_score(const uint64_t *n)
{
	uint64_t all = 0, top = 0;
	int i, k = SC_LATIN;

	for (i = SC_LATIN; i < SC_N; i++) {
		uint64_t m = i == SC_KANA || i == SC_HAN ? n[SC_KANA] +
		    n[SC_HAN] : n[i];

		all += n[i];
		if (m > top) {
			top = m;
			k = i;
		}
	}
	(void)k;
	return -1.5 * (double)(all - top) + (n[SC_KANA] * 5 >= n[SC_KANA] +
	    n[SC_HAN] ? 0.5 * (double)(n[SC_KANA] + n[SC_HAN]) : 0);
}

/* Append c in UTF-8 to buf (size sz) at o while it fits; the new end. */
static size_t
put_utf8(char *buf, size_t sz, size_t o, uint32_t c)
{
	unsigned char u[4];
	int k = utf8_enc(u, c);

	if (k <= 0 || o + (size_t)k >= sz)
		return o;
	memcpy(buf + o, u, (size_t)k);
	buf[o + (size_t)k] = '\0';
	return o + (size_t)k;
}

/*
 * Decode p[0..n) with iconv name enc into t; when sample is not NULL,
 * also the text around the first non-ASCII character into it (size
 * sz, UTF-8), and when stop, only that far (t is then of no use).
 */
static void
decode(const char *enc, const unsigned char *p, size_t n, struct tally *t,
    char *sample, size_t sz, int stop)
{
	iconv_t cd;
	unsigned char out[16384];
	char *ip = (char *)(uintptr_t)p;
	size_t il = n;
	uint32_t prev = 0;
	uint64_t nsc[SC_N] = { 0 }, seen = 0, first = 0;
	/* The sample: up to 24 characters before the first non-ASCII one,
	 * from the start of its line, and 32 to 48 from it on. */
	uint32_t ring[24];
	size_t nring = 0, after = 0, so = 0;
	int in_sample = 0;

	memset(t, 0, sizeof(*t));
	t->hash = 1469598103934665603ULL;
	if ((cd = iconv_open(enc_u32le(), enc)) == (iconv_t)-1)
		return;
	while (il > 0) {
		char *op = (char *)out;
		size_t ol = sizeof(out), r, k;
		int e;

		r = iconv(cd, &ip, &il, &op, &ol);
		e = errno;
		for (k = 0; k + 4 <= sizeof(out) - ol; k += 4) {
			uint32_t c = load_le32(out + k);

			/* Chars only; not C1 controls either, which XML 1.0
			 * section 2.2 discourages: text is never made of them,
			 * a wrong table is. */
			if (!xml_char_ok(c, 0) || (c >= 0x80 && c <= 0x9F)) {
				iconv_close(cd);
				return;
			}
			t->hash = (t->hash ^ c) * 1099511628211ULL;
			if (c >= 0x80) {
				t->nonascii++;
				t->score += char_score(prev, c, nsc);
				t->odd += (c & 0xFF) == 0 || (c >= 0xE000 &&
				    c <= 0xF8FF);
			} else
				t->ascii++;
			prev = c;
			seen++;
			if (sample == NULL)
				continue;
			/* The sample. */
			if (!in_sample && c >= 0x80) {
				in_sample = 1;
				first = seen;
			}
			if (!in_sample) {
				if (c == '\n' || c == '\r')
					nring = 0;
				else if (nring < 24)
					ring[nring++] = c;
				else {
					memmove(ring, ring + 1,
					    23 * sizeof(*ring));
					ring[23] = c;
				}
				continue;
			}
			if (seen == first) {
				size_t j;

				for (j = 0; j < nring; j++)
					so = put_utf8(sample, sz, so, ring[j]);
			}
			/* To the end of a word after 32, at most 48. */
			if (c == '\n' || c == '\r' || after >= 48 ||
			    (after >= 32 && c == ' ')) {
				sample = NULL;
				if (stop) {
					iconv_close(cd);
					return;
				}
			} else {
				so = put_utf8(sample, sz, so, c);
				after++;
			}
		}
		if (r == (size_t)-1 && e != E2BIG) {
			iconv_close(cd);
			return;
		}
	}
	t->score += text_score(nsc);
	t->ok = 1;
	iconv_close(cd);
}

/*
 * Whether p[0..n), of which high bytes are 80 or above, is UTF-8 but for
 * a few stray bytes: *good gets its multi-byte characters, *bad its
 * illegal bytes, *first the offset of the first of those; counted only as
 * far as the answer is open.
 */
static void
utf8_count(const unsigned char *p, size_t n, uint64_t high, uint64_t *good,
    uint64_t *bad, size_t *first)
{
	size_t i = 0;
	uint64_t w;

	*good = *bad = 0;
	*first = 0;
	while (i < n) {
		unsigned char b = p[i];
		size_t len = b < 0x80 || (b >= 0xC2 && b <= 0xF4) ?
		    (size_t)utf8_lead_len(b) : 0;
		size_t j;

		if (len == 1) {
			i++;
			while (n - i >= 8 && (memcpy(&w, p + i, 8),
			    (w & CB_HI) == 0))
				i += 8;
			continue;
		}
		/* Each character still to come takes two of the high bytes
		 * left at least: once the stray bytes outnumber a quarter of
		 * the most there can be, mostly_utf8 says no whatever the
		 * rest holds (random bytes, Latin-1 text, decided in a part
		 * of the input). */
		if (*bad * 4 > *good + high / 2)
			return;
		for (j = 1; len > 0 && j < len; j++)
			if (i + j >= n || (p[i + j] & 0xC0) != 0x80)
				len = 0;
		if (len == 3 && ((b == 0xE0 && p[i + 1] < 0xA0) ||
		    (b == 0xED && p[i + 1] >= 0xA0)))
			len = 0;
		if (len == 4 && ((b == 0xF0 && p[i + 1] < 0x90) ||
		    (b == 0xF4 && p[i + 1] >= 0x90)))
			len = 0;
		if (len == 0) {
			if (*bad == 0)
				*first = i;
			(*bad)++;
			high--;
			i++;
		} else {
			(*good)++;
			high -= len;
			i += len;
		}
	}
}

/*
 * The text around the stray byte at p[at] of p[0..n) into buf (size sz):
 * from the start of its line (24 bytes back at most) to 40 bytes on, the
 * stray bytes as U+FFFD.
 */
static void
stray_sample(const unsigned char *p, size_t n, size_t at, char *buf,
    size_t sz)
{
	size_t i = at, end, o = 0;

	buf[0] = '\0';
	while (i > 0 && at - i < 24 && p[i - 1] != '\n' && p[i - 1] != '\r')
		i--;
	/* Not in the middle of a character. */
	while (i < at && (p[i] & 0xC0) == 0x80)
		i++;
	end = n - at > 40 ? at + 40 : n;
	while (i < end && p[i] != '\n' && p[i] != '\r') {
		uint32_t c;
		int k = utf8_dec(p + i, n - i, &c);

		if (k <= 0) {
			c = 0xFFFD;
			k = k < 0 ? -k : 1;
		}
		o = put_utf8(buf, sz, o, c);
		i += (size_t)k;
	}
}

/* The candidate named name (any spelling, as libuchardet gives), or -1. */
static int
cand_find(const char *name)
{
	static const struct {
		const char	*alias;
		const char	*name;
	} aliases[] = {
		{ "SHIFT_JIS", "Shift_JIS" }, { "CP932", "Windows-31J" },
		{ "ISO-8859-11", "TIS-620" }, { "UHC", "CP949" },
		{ "BIG5-HKSCS", "Big5" }, { "MAC-CYRILLIC", "windows-1251" },
		{ "IBM866", "windows-1251" },
	};
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcasecmp(name, aliases[i].alias) == 0)
			name = aliases[i].name;
	for (i = 0; i < NCANDS; i++)
		if (strcasecmp(name, cands[i].name) == 0)
			return (int)i;
	return -1;
}

#ifdef HAVE_UCHARDET
/*
 * libuchardet, loaded when a guess first needs it (once, whichever thread
 * asks first): linked, it would bring the C++ runtime into every run,
 * which doubles the time to start.
 */
static pthread_once_t ud_once = PTHREAD_ONCE_INIT;
static struct {
	void		 *h;
	uchardet_t	(*make)(void);
	int		(*feed)(uchardet_t, const char *, size_t);
	void		(*end)(uchardet_t);
	const char	*(*charset)(uchardet_t);
	void		(*drop)(uchardet_t);
} ud;

/* Its names: the ELF soname, and Mach-O's. */
static const char *const ud_names[] = {
	"libuchardet.so.0", "libuchardet.so", "libuchardet.0.dylib",
	"libuchardet.dylib"
};

/* A function of the library (through a union, as ISO C has no
 * conversion from an object pointer to a function pointer). */
static void
ud_sym(void *fp, const char *name)
{
	union {
		void	*obj;
		void	(*fn)(void);
	} u;

	u.obj = dlsym(ud.h, name);
	memcpy(fp, &u.fn, sizeof(u.fn));
}

static void
ud_open(void)
{
	size_t i;

	for (i = 0; i < sizeof(ud_names) / sizeof(ud_names[0]) &&
	    ud.h == NULL; i++)
		ud.h = dlopen(ud_names[i], RTLD_NOW | RTLD_LOCAL);
	if (ud.h == NULL)
		return;
	ud_sym(&ud.make, "uchardet_new");
	ud_sym(&ud.feed, "uchardet_handle_data");
	ud_sym(&ud.end, "uchardet_data_end");
	ud_sym(&ud.charset, "uchardet_get_charset");
	ud_sym(&ud.drop, "uchardet_delete");
	if (ud.make == NULL || ud.feed == NULL || ud.end == NULL ||
	    ud.charset == NULL || ud.drop == NULL) {
		dlclose(ud.h);
		ud.h = NULL;
	}
}

static int
ud_load(void)
{
	pthread_once(&ud_once, ud_open);
	return ud.h != NULL;
}
#endif

/* libuchardet's answer for p[0..n), or "" (none, or not in the build or
 * not loaded). */
static const char *
detector(const unsigned char *p, size_t n, char *buf, size_t sz)
{
	buf[0] = '\0';
#ifdef HAVE_UCHARDET
	if (ud_load()) {
		uchardet_t d = ud.make();

		if (d == NULL)
			return buf;
		if (ud.feed(d, (const char *)p, n) == 0) {
			ud.end(d);
			snprintf(buf, sz, "%s", ud.charset(d));
		}
		ud.drop(d);
	}
#else
	(void)p;
	(void)n;
	(void)sz;
#endif
	return buf;
}

/* What ranks the candidates in this build, for --help. */
const char *
guess_method(void)
{
#ifdef HAVE_UCHARDET
	return ud_load() ? "libuchardet, then the built-in score" :
	    "the built-in score (libuchardet did not load)";
#else
	return "the built-in score (built without libuchardet)";
#endif
}

/* The name quoted for a POSIX shell where it needs it, into buf: in
 * single quotes, or double quotes where it holds a single quote (and
 * nothing a double-quoted word expands). */
static void
shell_word(char *buf, size_t sz, const char *s)
{
	if (strcmp(s, "-") == 0 || (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789._/-+,:@%=") == strlen(s) &&
	    s[0] != '-'))
		snprintf(buf, sz, "%s", s);
	else if (strchr(s, '\'') == NULL)
		snprintf(buf, sz, "'%s'", s);
	else if (strpbrk(s, "$`\\\"!") == NULL)
		snprintf(buf, sz, "\"%s\"", s);
	else
		snprintf(buf, sz, "'%s'", s);	/* not for a shell as it is */
}

/* UTF-8 with stray bytes, four valid multi-byte characters and more for
 * each: say so in g and return 1. */
static int
mostly_utf8(const unsigned char *p, size_t n, uint64_t high,
    const struct sniff *s, struct guess *g)
{
	uint64_t good, bad;
	size_t first;

	if (s->enc.family != ENC_F_UTF8)
		return 0;
	utf8_count(p, n, high, &good, &bad, &first);
	if (bad == 0 || good < GUESS_MIN / 2 ||
	    bad * 4 > good)
		return 0;
	g->found = g->mostly_utf8 = 1;
	snprintf(g->encoding, sizeof(g->encoding), "UTF-8");
	stray_sample(p, n, first, g->sample, sizeof(g->sample));
	snprintf(g->note, sizeof(g->note), "it is mostly UTF-8, with "
	    "%llu stray byte%s (the first at byte offset %llu) among "
	    "%llu valid multi-byte characters%s: correct those bytes "
	    "by hand rather than convert the entity",
	    (unsigned long long)bad, bad > 1 ? "s" : "",
	    (unsigned long long)(first + s->bomlen),
	    (unsigned long long)good, g->partial ? " (in the part of "
	    "the input that was looked at)" : "");
	return 1;
}

/* The sample of UTF-16 text p[0..n) (little-endian when le) that has no
 * character past ASCII: its first line, up to 48 characters. */
static void
utf16_sample(const unsigned char *p, size_t n, int le, char *buf,
    size_t sz)
{
	size_t i, o = 0;
	uint32_t c;

	for (i = 0; i + 2 <= n && i < 96; i += 2) {
		c = le ? load_le16(p + i) : load_be16(p + i);
		if (c == '\n' || c == '\r')
			break;
		o = put_utf8(buf, sz, o, c);
	}
}

/*
 * A UTF-16 candidate's tally t, which decoded cleanly.  The other byte
 * order makes of ASCII characters U+XX00 (U+3C00 for '<'), and of others
 * unassigned and private-use ones as often: a decode of which a quarter
 * of the characters past ASCII are U+XX00 or private use is no text
 * (real text has a U+XX00 once in hundreds), and is not clean.  In the
 * right order, the ASCII characters are the markup and text of XML:
 * they count as the letters of the score do.
 */
static void
utf16_tally(struct tally *t)
{
	if (t->odd * 4 > t->nonascii) {
		t->ok = 0;
		return;
	}
	t->nonascii += t->ascii;
	t->score += (double)t->ascii;
}

/*
 * Decode p[0..n) with every candidate into t (UTF-16 only where a quarter
 * of the bytes, zeros of them, are zero) and return the one to name, or
 * -1: the superset of the label where the label falls short, else
 * libuchardet's pick among those that decode, else a clear winner of our
 * own score; of those that read the same, the preferred one or the first.
 */
static int
choose(const unsigned char *p, size_t n, const struct sniff *s,
    struct tally *t, size_t zeros)
{
	int best = -1, second = -1, pick = -1;
	char det[64];
	size_t i;

	for (i = 0; i < NCANDS; i++) {
		if (i >= C_UTF16LE && zeros * 4 < n) {
			t[i].ok = 0;
			continue;
		}
		decode(cands[i].iconv, p, n, &t[i], NULL, 0, 0);
		if (i >= C_UTF16LE && t[i].ok)
			utf16_tally(&t[i]);
		if (!t[i].ok || t[i].nonascii < GUESS_MIN)
			continue;
		/* The most common encodings of Latin text in the wild win
		 * where another Latin table reads the letters as well. */
		if (i <= 1)
			t[i].score += GUESS_PRIOR;
		if (best < 0 || t[i].score > t[best].score)
			best = (int)i;
	}
	if (best < 0)
		return -1;
	/* A label whose superset reads the bytes: the superset. */
	for (i = 0; i < NCANDS; i++)
		if (cands[i].sub >= 0 && t[i].ok &&
		    !t[cands[i].sub].ok && s->have_enc &&
		    strcasecmp(s->enc.name, cands[cands[i].sub].name) == 0)
			pick = (int)i;
	/* Where every candidate that counts reads the text alike, the
	 * detector cannot change what is named (the first or preferred of
	 * them, if its score is positive): it is not asked (it took seconds
	 * for tens of megabytes of UTF-16). */
	for (i = 0; i < NCANDS; i++)
		if (t[i].ok && t[i].nonascii >= GUESS_MIN &&
		    t[i].hash != t[best].hash)
			break;
	if (pick < 0 && i < NCANDS && detector(p, n, det,
	    sizeof(det))[0] != '\0') {
		int k = cand_find(det);

		if (k >= 0 && t[k].ok && t[k].nonascii >= GUESS_MIN &&
		    t[k].score > 0)
			pick = k;
	}
	if (pick < 0) {
		/* Our own score: a clear winner among those that read
		 * differently. */
		for (i = 0; i < NCANDS; i++)
			if ((int)i != best && t[i].ok && t[i].hash !=
			    t[best].hash && t[i].nonascii >= GUESS_MIN &&
			    (second < 0 || t[i].score > t[second].score))
				second = (int)i;
		if (t[best].score <= 0 || (second >= 0 && t[best].score <
		    t[second].score + GUESS_MARGIN))
			return -1;
		pick = best;
	}
	for (i = 0; i < NCANDS; i++)
		if (t[i].ok && t[i].hash == t[pick].hash && cands[i].pref)
			return (int)i;
	for (i = 0; i < NCANDS; i++)
		if (t[i].ok && t[i].hash == t[pick].hash)
			return (int)i;
	return pick;
}

/*
 * Whether p[0..n) decodes cleanly with iconv name enc, as decode() sees
 * it (XML Chars only, no C1 control).  A single-byte encoding is checked
 * a byte at a time against its table (sb_build), which reads a big file
 * many times faster than iconv decoding it does; any other is decoded.
 */
static int
clean_whole(const char *enc, const unsigned char *p, size_t n)
{
	uint32_t map[256];
	unsigned char bad[256];
	struct tally t;
	iconv_t cd;
	size_t i;
	int b, sb;

	if ((cd = iconv_open(enc_u32le(), enc)) == (iconv_t)-1)
		return 0;
	sb = sb_build(cd, map);
	iconv_close(cd);
	if (!sb) {
		decode(enc, p, n, &t, NULL, 0, 0);
		return t.ok;
	}
	for (b = 0; b < 256; b++)
		bad[b] = map[b] == SB_BAD || !xml_char_ok(map[b], 0) ||
		    (map[b] >= 0x80 && map[b] <= 0x9F);
	/* Eight bytes a step, their flags or-ed: one test a step. */
	for (i = 0; n - i >= 8; i += 8)
		if (bad[p[i]] | bad[p[i + 1]] | bad[p[i + 2]] | bad[p[i + 3]] |
		    bad[p[i + 4]] | bad[p[i + 5]] | bad[p[i + 6]] |
		    bad[p[i + 7]])
			return 0;
	for (; i < n; i++)
		if (bad[p[i]])
			return 0;
	return 1;
}

/*
 * choose() for an entity p[0..n) longer than GUESS_SAMPLE, not UTF-16: on
 * up to GUESS_SAMPLE bytes from just after the line feed or '>' before its
 * first non-ASCII byte to just after a line feed or '>'.  Every candidate
 * (the ASCII-compatible encodings) writes those two as the bytes 0A and 3E
 * and never as part of another character, so the sample starts and ends
 * on characters.  Ranking every candidate on the whole took seconds for a
 * hundred megabytes; the caller decodes the whole with the one chosen,
 * which must read it cleanly.
 */
static int
choose_sampled(const unsigned char *p, size_t n, const struct sniff *s,
    struct tally *t)
{
	size_t a = 0, m;

	while (a < n && p[a] < 0x80)
		a++;
	while (a > 0 && p[a - 1] != '\n' && p[a - 1] != '>')
		a--;
	m = n - a < GUESS_SAMPLE ? n - a : GUESS_SAMPLE;
	if (a + m < n)
		while (m > 0 && p[a + m - 1] != '\n' && p[a + m - 1] != '>')
			m--;
	if (m == 0)
		return -1;
	return choose(p + a, m, s, t, 0);
}

/*
 * The bytes of p[0..n) at 80 and above into *high, the zero bytes into
 * *zeros: eight at a time, each byte's flag moved to its low bit and the
 * eight summed by a multiplication (no byte carries into the next).
 */

static void
count_bytes(const unsigned char *p, size_t n, uint64_t *high, size_t *zeros)
{
	uint64_t h = 0, z = 0;
	size_t i = 0;

	for (; n - i >= 8; i += 8) {
		uint64_t w, nz;

		memcpy(&w, p + i, 8);
		/* bit 7 of a byte of nz: the byte is not zero */
		nz = (((w & CB_LO) + CB_LO) | w) & CB_HI;
		h += (((w & CB_HI) >> 7) * CB_ONES) >> 56;
		z += 8 - (((nz >> 7) * CB_ONES) >> 56);
	}
	for (; i < n; i++) {
		h += p[i] >= 0x80;
		z += p[i] == 0;
	}
	*high = h;
	*zeros = (size_t)z;
}

/*
 * The bytes of an entity read as s, p[0..n), whole or (g->partial) in
 * part: which encoding they are in, into g; name is the input's name,
 * for the command in the note.
 */
void
guess_bytes(const unsigned char *p, size_t n, const struct sniff *s,
    const char *name, struct guess *g)
{
	struct tally t[NCANDS], scratch;
	uint64_t nonascii = 0, w, lastw = 0;
	size_t i, zeros = 0, ndistinct;
	unsigned char distinct[256];
	char word[300];
	int pick, sampled;

	g->tried = 1;
	g->found = 0;
	if (s->bomlen <= n) {
		p += s->bomlen;
		n -= s->bomlen;
	}
	count_bytes(p, n, &nonascii, &zeros);
	/* Only whether there are GUESS_DISTINCT is asked; eight bytes with
	 * none from 80 on, or the same as the eight looked at last, add
	 * none (0x81 filling a file). */
	memset(distinct, 0, sizeof(distinct));
	for (i = 0, ndistinct = 0; i < n && ndistinct < GUESS_DISTINCT; i++) {
		if (i % 8 == 0 && n - i >= 8) {
			memcpy(&w, p + i, 8);
			if ((w & CB_HI) == 0 || w == lastw) {
				i += 7;	/* and the loop's step */
				continue;
			}
			lastw = w;
		}
		if (p[i] >= 0x80 && !distinct[p[i]]) {
			distinct[p[i]] = 1;
			ndistinct++;
		}
	}
	if (mostly_utf8(p, n, nonascii, s, g))
		return;
	if ((nonascii < GUESS_MIN || ndistinct < GUESS_DISTINCT) &&
	    zeros * 4 < n)
		return;
	sampled = n > GUESS_SAMPLE && zeros * 4 < n;
	if (sampled)
		pick = choose_sampled(p, n, s, t);
	else
		pick = choose(p, n, s, t, zeros);
	if (pick < 0)
		return;
	g->sample[0] = '\0';
	/* The sample's choice must read the rest too; choose() read the
	 * whole of a shorter entity with it already. */
	if (sampled && !clean_whole(cands[pick].iconv, p, n))
		return;
	decode(cands[pick].iconv, p, n, &scratch, g->sample,
	    sizeof(g->sample), 1);
	if (g->sample[0] == '\0' && pick >= (int)C_UTF16LE)
		utf16_sample(p, n, pick == C_UTF16LE, g->sample,
		    sizeof(g->sample));
	g->found = 1;
	snprintf(g->encoding, sizeof(g->encoding), "%s", cands[pick].name);
	shell_word(word, sizeof(word), name);
	if (g->http)	/* the body of a response: its label is the fix */
		snprintf(g->note, sizeof(g->note), "it decodes cleanly as "
		    "%s%s: \"%s\"; serve it with Content-Type: "
		    "application/xml; charset=%s, or convert the body to the "
		    "charset it is served with", cands[pick].name,
		    g->partial ? " (the part of the input looked at)" : "",
		    g->sample, cands[pick].name);
	else if (s->bom == BOM_NONE && s->source == SRC_DEFAULT &&
	    guess_utf16_layout(p, n) != NULL &&
	    strcmp(guess_utf16_layout(p, n), cands[pick].name) == 0)
		/* The byte order beyond question: --fix adds the BOM. */
		snprintf(g->note, sizeof(g->note), "it decodes cleanly as "
		    "%s%s: \"%s\"; it lacks the BOM that UTF-16 needs: "
		    "xmlsniff --fix %s adds it", cands[pick].name,
		    g->partial ? " (the part of the input looked at)" : "",
		    g->sample, word);
	else
		snprintf(g->note, sizeof(g->note), "it decodes cleanly as "
		    "%s%s: \"%s\"; to convert it: xmlsniff --encoding=%s "
		    "--transcode-to=UTF-8 -o out.xml %s", cands[pick].name,
		    g->partial ? " (the part of the input looked at)" : "",
		    g->sample, cands[pick].name, word);
}

/* A 16-bit unit of p, in the byte order le says. */
static uint32_t
unit16(const unsigned char *p, int le)
{
	return le ? load_le16(p) : load_be16(p);
}

/*
 * Whether the head p[0..n) of an entity with no BOM is UTF-16 whose byte
 * order its first characters put beyond question: after any white space,
 * '<' then '?' (Appendix F's 3C 00 3F 00 and 00 3C 00 3F), '!' or the
 * first character of a name (an ASCII letter, '_' or ':'), each a 16-bit
 * unit whose high byte is zero, so that the other order reads them as
 * U+3C00 and the like.  "UTF-16LE", "UTF-16BE", or NULL.
 */
const char *
guess_utf16_layout(const unsigned char *p, size_t n)
{
	uint32_t c, d;
	size_t i;
	int le;

	for (le = 0; le <= 1; le++) {
		for (i = 0; n - i >= 4 && ((c = unit16(p + i, le)) == ' ' ||
		    c == '\t' || c == '\r' || c == '\n'); i += 2)
			continue;
		if (n - i < 4)
			continue;
		c = unit16(p + i, le);
		d = unit16(p + i + 2, le);
		if (c == '<' && (d == '?' || d == '!' || d == '_' ||
		    d == ':' || (d >= 'a' && d <= 'z') ||
		    (d >= 'A' && d <= 'Z')))
			return le ? "UTF-16LE" : "UTF-16BE";
	}
	return NULL;
}

/* Whether the analysis of s calls for a guess. */
int
guess_wanted(const struct sniff *s)
{
	return s->dg.d[D_ILLEGAL_SEQUENCE].count > 0 ||
	    s->dg.d[D_SUSPICIOUS_LABEL].count > 0;
}

/* A new input. */
void
guess_reset(struct gkeep *k)
{
	k->n = 0;
	k->whole = 0;
}

/* What k holds, let go. */
void
guess_keep_free(struct gkeep *k)
{
	free(k->p);
	k->p = NULL;
	k->n = 0;
}

/*
 * After each block of an input that is not a regular file, b holding
 * it: keep it when it is the first where dg has the problem, as the part
 * of the input a guess is made from (the rest has gone by).  skipped: the
 * bytes read before the entity (a --http head).
 */
void
guess_keep(struct gkeep *k, const struct inbuf *b, uint64_t skipped,
    const struct diags *dg)
{
	unsigned char *nk;

	if (b->size >= 0 || k->n > 0 || (dg->d[D_ILLEGAL_SEQUENCE].count ==
	    0 && dg->d[D_SUSPICIOUS_LABEL].count == 0) || b->n == 0)
		return;
	if ((nk = realloc(k->p, b->n)) == NULL)
		return;
	k->p = nk;
	memcpy(k->p, b->p, b->n);
	k->n = b->n;
	k->whole = b->eof && (uint64_t)b->got == b->n + skipped;
}

/*
 * Whether the want bytes of file fd from start hold too few non-ASCII bytes
 * for a guess, and no zero bytes of UTF-16 in its first block: found in
 * blocks, before the whole is read into memory, a word at a time.
 */
static int
too_little(int fd, long long start, size_t want)
{
	const size_t bsz = (size_t)1 << 20;
	uint64_t *blk = malloc(bsz);
	const unsigned char *q = (const unsigned char *)blk;
	size_t off = 0, i, k, high = 0, zeros = 0;
	ssize_t r;
	int little = 1;

	if (blk == NULL)
		return 1;
	while (off < want && (r = pread(fd, blk, want - off < bsz ?
	    want - off : bsz, (off_t)(start + (long long)off))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (off == 0)
			for (i = 0; i < (size_t)r; i++)
				zeros += q[i] == 0;
		if (zeros * 4 >= (size_t)r) {
			little = 0;
			break;
		}
		for (i = 0; i < (size_t)r / 8; i++)
			if (blk[i] & 0x8080808080808080ULL)
				for (k = 0; k < 8; k++)
					high += q[8 * i + k] >= 0x80;
		for (i = (size_t)r / 8 * 8; i < (size_t)r; i++)
			high += q[i] >= 0x80;
		if (high >= GUESS_MIN) {
			little = 0;
			break;
		}
		off += (size_t)r;
	}
	free(blk);
	return little;
}

/*
 * The guess for the input b, sniffed as s, once analysed, into g: a
 * regular file whose entity starts at byte start is read again whole from
 * there (start -1: it cannot be); of another, the block guess_keep kept
 * in k.  http: the entity is the body of a --http response.  NULL when
 * nothing is to be guessed, else g.
 */
const struct guess *
guess_input(struct gkeep *k, const char *name, struct inbuf *b,
    long long start, int http, const struct sniff *s, struct guess *g)
{
	const unsigned char *view;
	unsigned char *buf;
	size_t n = 0, want;
	ssize_t r;

	if (!guess_wanted(s))
		return NULL;
	memset(g, 0, sizeof(*g));
	g->tried = 1;
	g->http = http;
	if (b->size < 0 || start < 0 || start > b->size) {
		if (k->n == 0)
			return g;
		g->partial = !k->whole;
		guess_bytes(k->p, k->n, s, name, g);
		return g;
	}
	want = (unsigned long long)(b->size - start) > GUESS_FILE_MAX ?
	    GUESS_FILE_MAX : (size_t)(b->size - start);
	if (too_little(b->fd, start, want))
		return g;
	g->partial = want < (size_t)(b->size - start);
	/* Mapped where it can be: no copy, no memory of its own. */
	if ((view = in_view(b, start, want)) != NULL) {
		guess_bytes(view, want, s, name, g);
		if (in_view_end(b) < 0)
			g->found = 0;	/* it shrank: no guess from zeros */
		return g;
	}
	if ((buf = malloc(want + 1)) == NULL)
		return g;
	while (n < want && ((r = pread(b->fd, buf + n, want - n,
	    (off_t)(start + (long long)n))) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			n += (size_t)r;
	guess_bytes(buf, n, s, name, g);
	free(buf);
	return g;
}

/*
 * The unit driver: the converters between encoding forms (conv_run) and
 * the plain-text fast paths (plain_*), each against a reference written
 * here, on random text and at every SIMD block boundary.
 */
#include <stdio.h>
#include <string.h>

#include "all.h"
#include "unit.h"

/*
 * conv_run() against an encoder written here, for every pair of forms, on
 * random mixtures that put characters of every length at every offset of
 * the SIMD blocks; both paths (AVX2 where there is one, and portable).
 */
static uint32_t rnd_state = 12345;

static uint32_t
rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

static size_t
enc_form(int form, const uint32_t *c, size_t nc, unsigned char *o)
{
	size_t i, k = 0;

	for (i = 0; i < nc; i++) {
		uint32_t u = c[i];
		unsigned char b[4];
		int n = 0, j;

		if (form == FORM_UTF8) {
			if (u < 0x80)
				b[n++] = (unsigned char)u;
			else if (u < 0x800) {
				b[n++] = (unsigned char)(0xC0 + (u >> 6));
				b[n++] = (unsigned char)(0x80 + u % 64);
			} else if (u < 0x10000) {
				b[n++] = (unsigned char)(0xE0 + (u >> 12));
				b[n++] = (unsigned char)(0x80 + (u >> 6) % 64);
				b[n++] = (unsigned char)(0x80 + u % 64);
			} else {
				b[n++] = (unsigned char)(0xF0 + (u >> 18));
				b[n++] = (unsigned char)(0x80 + (u >> 12) % 64);
				b[n++] = (unsigned char)(0x80 + (u >> 6) % 64);
				b[n++] = (unsigned char)(0x80 + u % 64);
			}
			for (j = 0; j < n; j++)
				o[k++] = b[j];
			continue;
		}
		if (form == FORM_UTF16BE || form == FORM_UTF16LE) {
			uint32_t units[2];
			int nu = 1;

			units[0] = u;
			if (u >= 0x10000) {
				units[0] = 0xD800 + ((u - 0x10000) >> 10);
				units[1] = 0xDC00 + ((u - 0x10000) & 0x3FF);
				nu = 2;
			}
			for (j = 0; j < nu; j++) {
				o[k++] = (unsigned char)(form == FORM_UTF16BE ?
				    units[j] >> 8 : units[j]);
				o[k++] = (unsigned char)(form == FORM_UTF16BE ?
				    units[j] : units[j] >> 8);
			}
			continue;
		}
		for (j = 0; j < 4; j++)
			o[k++] = (unsigned char)(u >> (form == FORM_UTF32BE ?
			    24 - 8 * j : 8 * j));
	}
	return k;
}

/* A random character in one of five mixes. */
static uint32_t
rnd_char(int mix)
{
	static const uint32_t pool[] = {
		'a', ' ', '<', '\n', '\t', '"', 0x7F, 0x80, 0xE9, 0x3B1, 0x7FF,
		0x800, 0x3042, 0x65E5, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000,
		0x1F600, 0x20000, 0x10FFFF
	};
	uint32_t r = rnd();

	switch (mix) {
	case 0:		/* mostly ASCII */
		return r % 16 ? 0x20 + r % 95 : pool[r % NELEM(pool)];
	case 1:		/* mostly CJK */
		return r % 8 ? 0x4E00 + r % 0x5000 : pool[r % NELEM(pool)];
	case 2:		/* two-byte text */
		return r % 4 ? 0x80 + r % 0x780 : 0x20 + r % 95;
	case 3:		/* astral now and then */
		return r % 6 ? 0x3000 + r % 0x100 : 0x10000 + r % 0x100000;
	default:	/* anything */
		r %= 0x10F800;
		return r < 0xD800 ? r : r + 0x800;
	}
}

static void
test_conv(void)
{
	static const int forms[] = { FORM_UTF8, FORM_UTF16BE, FORM_UTF16LE,
	    FORM_UTF32BE, FORM_UTF32LE };
	static const char *modes[] = { NULL, "ref" };
	static uint32_t cs[700];
	static unsigned char in[4 * 700], want[4 * 700], got[16 * 700];
	unsigned fails = 0;
	int round, m, f, t;

	for (m = 0; m < 2; m++) {
		simd_init(modes[m]);
		for (round = 0; round < 3000; round++) {
			size_t nc = rnd() % (round < 1000 ? 40 : 700), i;

			for (i = 0; i < nc; i++)
				cs[i] = rnd_char(round % 5);
			for (f = 0; f < 5; f++) {
				size_t n = enc_form(forms[f], cs, nc, in);

				for (t = 0; t < 5; t++) {
					size_t wn = enc_form(forms[t], cs, nc, want);
					size_t room = conv_room(forms[f], forms[t], n);
					size_t gn;

					memset(got, 0xA5, sizeof(got));
					gn = conv_run(forms[f], forms[t], in, n, got);
					if (gn != wn || memcmp(got, want, wn) != 0 ||
					    got[room] != 0xA5)
						fails++;
				}
			}
		}
	}
	simd_init(NULL);
	if (!CHECK(fails == 0))
		printf("  (%u conversions differ)\n", fails);
	/* Cuts fall between characters, within the limit. */
	fails = 0;
	for (round = 0; round < 2000; round++) {
		size_t nc = 1 + rnd() % 200, i;

		for (i = 0; i < nc; i++)
			cs[i] = rnd_char(round % 5);
		for (f = 0; f < 5; f++) {
			size_t n = enc_form(forms[f], cs, nc, in);
			size_t max = 4 + rnd() % 64;
			size_t k = conv_cut(forms[f], in, n, max), j, sum = 0;

			/* The prefix must be the encoding of whole
			 * characters. */
			for (i = 0; i < nc && sum < k; i++)
				sum += enc_form(forms[f], cs + i, 1, want);
			for (j = 0; j < 1; j++)
				if (k > max || k == 0 || sum != k)
					fails++;
		}
	}
	if (!CHECK(fails == 0))
		printf("  (%u cuts wrong)\n", fails);
}

/* plain_utf32: every level's kernel against the portable one. */
static void
test_plain_utf32(void)
{
	static uint32_t cs[300];
	static unsigned char in[4 * 300 + 4];
	static const uint32_t bad[] = { 0, 1, 0x1F, '\r', 0xD800, 0xDFFF,
	    0xFFFE, 0xFFFF, 0x110000, 0x80000000u, 0xFFFFFFFFu };
	unsigned fails = 0;
	int round, be, l;

	for (round = 0; round < 4000; round++) {
		size_t nc = rnd() % 300, i, n;

		for (i = 0; i < nc; i++)
			cs[i] = rnd_char(round % 5);
		if (nc > 0 && round % 3)
			cs[rnd() % nc] = bad[rnd() % NELEM(bad)];
		for (be = 0; be < 2; be++) {
			uint64_t l1 = 1, c1 = 1, l2, c2;
			size_t k1, k2;

			/* enc_form cannot write the values past U+10FFFF
			 * as UTF-8, but writes them as UTF-32 as they are */
			n = enc_form(be ? FORM_UTF32BE : FORM_UTF32LE, cs, nc, in);
			in[n] = 0xEE;	/* a stray byte after */
			simd_init("none");
			k1 = plain_utf32(in, n + 1, be, &l1, &c1);
			for (l = 0; l < unit_nlevels; l++) {
				simd_init(unit_levels[l]);
				l2 = c2 = 1;
				k2 = plain_utf32(in, n + 1, be, &l2, &c2);
				if (k1 != k2 || l1 != l2 || c1 != c2 ||
				    k1 % 4 != 0)
					fails++;
			}
		}
	}
	simd_init(NULL);
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

/*
 * The plain prefix of UTF-8 or UTF-16 (form; a surrogate pair is one
 * plain character), a character at a time with the stepper of the
 * character path (XML 1.0 section 2.11: CR LF one line end, a lone CR one
 * too): what every kernel must answer.
 */
static size_t
plain_def(int form, const unsigned char *p, size_t n, uint64_t *lines,
    uint64_t *col)
{
	struct linepos pos = { *lines, *col, 0 };
	size_t i = 0;

	while (i < n) {
		uint32_t c = 0;	/* set where r > 0; gcc -O1 cannot see it */
		int r = form == FORM_UTF8 ? utf8_dec(p + i, n - i, &c) :
		    utf16_dec(p + i, n - i, form == FORM_UTF16BE, &c);

		if (r <= 0 || !xml_char_ok(c, 0))
			break;
		linepos_step(&pos, c, 0);
		i += (size_t)r;
	}
	*lines = pos.line;
	*col = pos.col;
	return i;
}

/* Whether a CR character starts at p[j] (of n bytes) in form. */
static int
is_cr(int form, const unsigned char *p, size_t j, size_t n)
{
	if (form == FORM_UTF8)
		return p[j] == '\r';
	return j % 2 == 0 && j + 1 < n && (form == FORM_UTF16BE ?
	    load_be16(p + j) : load_le16(p + j)) == '\r';
}

/*
 * The characters cs[0..nc) in UTF-8 and UTF-16 (both orders), each cut at
 * a CR, right after one and anywhere (a CR last, an LF first), through
 * plain_utf8 and plain_utf16 at every level: return how many answers
 * differ from plain_def's.
 */
static unsigned
plain_case(const uint32_t *cs, size_t nc)
{
	static const int forms[] = { FORM_UTF8, FORM_UTF16LE, FORM_UTF16BE };
	/* (ref's runs end at a CR: see src/lib/simd/ref.c) */
	static const char *const modes[] = { "avx512", "avx2", "sse2", "neon",
	    "none" };
	static unsigned char in[4 * 2100 + 4];
	unsigned fails = 0;
	size_t f, m, n, cut, len, j, u;

	for (f = 0; f < NELEM(forms); f++) {
		n = enc_form(forms[f], cs, nc, in);
		u = forms[f] == FORM_UTF8 ? 1 : 2;
		for (cut = 0; cut < 4; cut++) {
			len = cut == 3 && n > 0 ? rnd() % n : n;
			if (cut == 1 || cut == 2)
				for (j = rnd() % (n + 1); j < n; j++)
					if (is_cr(forms[f], in, j, n)) {
						len = j + (cut == 2 ? u : 0);
						break;
					}
			for (m = 0; m <= NELEM(modes); m++) {
				uint64_t l1 = 1, c1 = 1, l2 = 1, c2 = 1;
				size_t k1, k2;

				k1 = plain_def(forms[f], in, len, &l1, &c1);
				if (m == NELEM(modes)) {
					/* and the definition in ref.c */
					if (forms[f] == FORM_UTF8 &&
					    (plain_utf8_ref(in, len, &l2,
					    &c2) != k1 || l1 != l2 || c1 != c2))
						fails++;
					break;
				}
				simd_init(modes[m]);
				k2 = forms[f] == FORM_UTF8 ? plain_utf8(in, len,
				    &l2, &c2) : plain_utf16(in, len, forms[f] ==
				    FORM_UTF16BE, &l2, &c2);
				if ((k1 != k2 || l1 != l2 || c1 != c2) &&
				    fails++ == 0)
					printf("  %s, form %d, %zu bytes: %zu "
					    "%llu:%llu, not %zu %llu:%llu\n",
					    modes[m], forms[f], len, k2,
					    (unsigned long long)l2,
					    (unsigned long long)c2, k1,
					    (unsigned long long)l1,
					    (unsigned long long)c1);
			}
		}
	}
	simd_init(NULL);
	return fails;
}

/*
 * plain_utf8 and plain_utf16 against plain_def: a CR LF at every offset
 * of two 64-byte blocks, in ASCII and after a two-byte character; then
 * text of CR, LF and CR LF line ends among characters of every length
 * (or plain ASCII), with a bad one now and then.
 */
static void
test_plain_crlf(void)
{
	static const uint32_t ends[][2] = { { '\r', '\n' }, { '\r', 0 },
	    { '\n', 0 }, { '\r', '\r' } };
	static const uint32_t bad[] = { 1, 0x1F, 0xFFFE, 0xD800 };
	static uint32_t cs[400];
	unsigned fails = 0;
	size_t nc, at;
	int round;

	for (at = 0; at < 260; at++) {
		for (nc = 0; nc < 200; nc++)
			cs[nc] = at >= 130 && nc == 3 ? 0xE9 : 'a';
		cs[at % 130] = '\r';
		cs[at % 130 + 1] = '\n';
		fails += plain_case(cs, nc);
	}
	for (round = 0; round < 3000; round++) {
		nc = 0;
		while (nc + 2 < NELEM(cs) && nc < (size_t)(rnd() % 400)) {
			if (rnd() % (round % 2 ? 6 : 40) == 0) {
				const uint32_t *e = ends[rnd() % NELEM(ends)];

				cs[nc++] = e[0];
				if (e[1] != 0)
					cs[nc++] = e[1];
			} else
				cs[nc++] = round % 5 == 4 ? 0x20 + rnd() % 95 :
				    rnd_char(round % 5);
		}
		if (nc > 0 && round % 4 == 0)
			cs[rnd() % nc] = bad[rnd() % NELEM(bad)];
		fails += plain_case(cs, nc);
	}
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

/*
 * plain_utf8 and plain_utf16 against plain_def on long runs of ASCII (up
 * to 2,000 characters, which the kernels take with an ASCII check alone
 * once a few blocks have been ASCII), with line ends of every kind and
 * then one character that is not ASCII, a control (any of them, TAB, LF
 * and CR too), or a CR LF, anywhere.
 */
static void
test_plain_ascii_runs(void)
{
	static const uint32_t odd[] = { 0xE9, 0x4E2D, 0x1F600, 1, 0x1F, 0x7F,
	    0x85, 0xFFFE, '\t' };
	static uint32_t cs[2100];
	unsigned fails = 0;
	int round;

	for (round = 0; round < 600; round++) {
		size_t nc = 300 + rnd() % 1700, i, at;
		unsigned gap = 20 + rnd() % 200;

		for (i = 0; i < nc; i++)
			cs[i] = rnd() % gap == 0 ? (round % 3 == 0 ? '\r' :
			    '\n') : 0x20 + rnd() % 95;
		at = rnd() % nc;
		if (round % 4 == 3 && at + 1 < nc) {
			cs[at] = '\r';
			cs[at + 1] = '\n';
		} else if (round % 4 == 1)
			cs[at] = (uint32_t)(rnd() % 0x20);	/* every control */
		else if (round % 4 == 2)
			cs[at] = odd[rnd() % NELEM(odd)];
		fails += plain_case(cs, nc);
	}
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

/*
 * The walk of the validator over single-byte text (decode_iconv.c): many
 * bytes at a time with plain_sb, and a CR, or the byte after one, with
 * the character path's stepper.  Return where it stops.
 */
static size_t
sb_walk(const unsigned char *p, size_t n, const struct plainmap *pm,
    const unsigned char *ok, uint64_t *lines, uint64_t *col)
{
	struct linepos pos = { *lines, *col, 0 };
	size_t j;

	for (j = 0; j < n; j++) {
		if ((j > 0 ? p[j - 1] : 0) != '\r') {
			j += plain_sb(p + j, n - j, pm, &pos.line, &pos.col);
			if (j >= n)
				break;
		}
		if (!ok[p[j]])
			break;
		pos.prev = j > 0 ? p[j - 1] : 0;
		linepos_step(&pos, p[j], 0);
	}
	*lines = pos.line;
	*col = pos.col;
	return j;
}

/*
 * plain_sb at every level against the portable kernel, through the
 * validator's walk: random maps (with CR and without), text of their
 * bytes with CR, LF and CR LF line ends, long and short, and a byte out
 * of the map now and then, at every offset: NUL, or any other the map
 * lacks (a kernel that takes one for plain must differ; one that stops
 * early at a plain byte gives the same answers, only slower).
 */
static void
test_plain_sb(void)
{
	static const char *const modes[] = { "avx512", "avx2", "sse2", "neon",
	    "none" };
	static unsigned char in[2100], ok[256];
	struct plainmap pm;
	unsigned fails = 0;
	int round;
	size_t m;

	for (round = 0; round < 3000; round++) {
		size_t n = round < 2000 ? rnd() % 300 : rnd() % 2100, i;
		unsigned b, gap = 2 + rnd() % 150, nok = 0, nout = 0, k;
		unsigned char pick[256], out[256];
		uint64_t l1 = 1, c1 = 1;
		size_t k1;

		for (b = 0; b < 256; b++) {
			/* most bytes plain; LF always; CR in half the maps */
			ok[b] = b == '\n' || (b != '\r' && b != 0 &&
			    rnd() % 16 != 0) || (b == '\r' && round % 2);
			if (ok[b] && b != '\r' && b != '\n')
				pick[nok++] = (unsigned char)b;
			else if (!ok[b] && b != '\r' && b != 0)
				out[nout++] = (unsigned char)b;
		}
		for (i = 0; i < n; i++)
			in[i] = rnd() % gap == 0 ? "\r\n\n"[rnd() % 3] :
			    pick[rnd() % nok];
		for (i = 0; i + 1 < n && round % 3 == 0; i++)
			if (in[i] == '\r' && rnd() % 2)
				in[i + 1] = '\n';
		if (n > 0 && round % 4 == 1)
			in[rnd() % n] = 0;
		for (k = 0; n > 0 && nout > 0 && round % 4 == 3 && k < 3; k++)
			in[rnd() % n] = out[rnd() % nout];
		plain_sb_map(&pm, ok);
		simd_init("none");
		k1 = sb_walk(in, n, &pm, ok, &l1, &c1);
		for (m = 0; m < NELEM(modes); m++) {
			uint64_t l2 = 1, c2 = 1;
			size_t k2;

			simd_init(modes[m]);
			k2 = sb_walk(in, n, &pm, ok, &l2, &c2);
			if ((k1 != k2 || l1 != l2 || c1 != c2) && fails++ == 0)
				printf("  %s, %zu bytes: %zu %llu:%llu, not "
				    "%zu %llu:%llu\n", modes[m], n, k2,
				    (unsigned long long)l2,
				    (unsigned long long)c2, k1,
				    (unsigned long long)l1,
				    (unsigned long long)c1);
		}
	}
	simd_init(NULL);
	if (!CHECK(fails == 0))
		printf("  (%u runs differ)\n", fails);
}

void
unit_conv(void)
{
	test_conv();
	test_plain_utf32();
	test_plain_crlf();
	test_plain_ascii_runs();
	test_plain_sb();
}

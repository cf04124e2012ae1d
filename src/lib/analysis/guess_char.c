/*
 * The classes of characters that the language models of the guess count
 * in: the script of a letter, its case and its lower-case form, over the
 * repertoires of the candidate encodings (Latin, Greek, Cyrillic, Hebrew,
 * Arabic, Thai, CJK, Hangul).  tools/gen-guessmodel.py has the same
 * rules, in info(); the unit driver checks that the two agree.
 */
#include <stdint.h>

#include "guess_int.h"

static void
set(struct gch *g, enum gscript s, int letter, uint32_t fold)
{
	g->script = (unsigned char)s;
	g->letter = (unsigned char)letter;
	g->fold = fold;
}

/* Latin past ASCII: Latin-1, Extended-A and -B, IPA, the combining marks
 * and Extended Additional (Vietnamese).  Returns 0 when c is none. */
static int
latin(uint32_t c, struct gch *g)
{
	int odd_upper;

	if (c == 0xD7 || c == 0xF7)
		return 0;
	if (c >= 0xC0 && c <= 0xDE)
		set(g, GS_LATIN, GL_UPPER, c + 0x20);
	else if (c >= 0xDF && c <= 0xFF)
		set(g, GS_LATIN, GL_LOWER, c);
	else if (c >= 0x100 && c <= 0x17F) {
		odd_upper = (c >= 0x139 && c <= 0x148) ||
		    (c >= 0x179 && c <= 0x17E);
		if (c == 0x138 || c == 0x149 || c == 0x17F)
			set(g, GS_LATIN, GL_LOWER, c);
		else if (c == 0x178)
			set(g, GS_LATIN, GL_UPPER, 0xFF);
		else if ((c % 2 == 1) == odd_upper)
			set(g, GS_LATIN, GL_UPPER, c == 0x130 ? 0x69 : c + 1);
		else
			set(g, GS_LATIN, GL_LOWER, c);
	} else if (c >= 0x218 && c <= 0x21B)
		/* Romanian s and t with a comma below are those with a
		 * cedilla that ISO-8859-2 and windows-1250 write them with. */
		set(g, GS_LATIN, c % 2 == 0 ? GL_UPPER : GL_LOWER,
		    c < 0x21A ? 0x15F : 0x163);
	else if (c >= 0x180 && c <= 0x24F) {
		if (c == 0x1A0 || c == 0x1AF ||
		    (c >= 0x1CD && c <= 0x1DC && c % 2 == 1))
			set(g, GS_LATIN, GL_UPPER, c + 1);
		else if (c == 0x192 || c == 0x1A1 || c == 0x1B0 ||
		    (c >= 0x1CD && c <= 0x1DC))
			set(g, GS_LATIN, GL_LOWER, c);
		else
			set(g, GS_LATIN, GL_CASELESS, c);
	} else if (c >= 0x250 && c <= 0x2AF)
		set(g, GS_LATIN, GL_LOWER, c);
	else if (c >= 0x300 && c <= 0x36F)
		set(g, GS_LATIN, GL_CASELESS, c);
	else if (c >= 0x1E00 && c <= 0x1EFF)
		set(g, GS_LATIN, c % 2 == 0 ? GL_UPPER : GL_LOWER,
		    c % 2 == 0 ? c + 1 : c);
	else
		return 0;
	return 1;
}

static int
greek_cyrillic(uint32_t c, struct gch *g)
{
	if (c >= 0x386 && c <= 0x3CE && c != 0x387 && c != 0x3A2) {
		if (c == 0x386)
			set(g, GS_GREEK, GL_UPPER, 0x3AC);
		else if (c >= 0x388 && c <= 0x38A)
			set(g, GS_GREEK, GL_UPPER, c + 0x25);
		else if (c == 0x38C)
			set(g, GS_GREEK, GL_UPPER, 0x3CC);
		else if (c == 0x38E || c == 0x38F)
			set(g, GS_GREEK, GL_UPPER, c + 0x3F);
		else if (c >= 0x391 && c <= 0x3AB)
			set(g, GS_GREEK, GL_UPPER, c + 0x20);
		else
			set(g, GS_GREEK, GL_LOWER, c);
	} else if (c >= 0x400 && c <= 0x40F)
		set(g, GS_CYRILLIC, GL_UPPER, c + 0x50);
	else if (c >= 0x410 && c <= 0x42F)
		set(g, GS_CYRILLIC, GL_UPPER, c + 0x20);
	else if (c >= 0x430 && c <= 0x45F)
		set(g, GS_CYRILLIC, GL_LOWER, c);
	else if ((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) ||
	    (c >= 0x4D0 && c <= 0x52F))
		set(g, GS_CYRILLIC, c % 2 == 0 ? GL_UPPER : GL_LOWER,
		    c % 2 == 0 ? c + 1 : c);
	else if (c >= 0x4C0 && c <= 0x4CF)
		set(g, GS_CYRILLIC, GL_CASELESS, c);
	else
		return 0;
	return 1;
}

/* The scripts without case. */
static int
caseless(uint32_t c, struct gch *g)
{
	enum gscript s;

	if ((c >= 0x5B0 && c <= 0x5C7 && c != 0x5BE && c != 0x5C0 &&
	    c != 0x5C3 && c != 0x5C6) || (c >= 0x5D0 && c <= 0x5EA) ||
	    (c >= 0x5F0 && c <= 0x5F2))
		s = GS_HEBREW;
	else if ((c >= 0x621 && c <= 0x65F) || (c >= 0x670 && c <= 0x6D3) ||
	    (c >= 0xFB50 && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFC))
		s = GS_ARABIC;
	else if ((c >= 0xE01 && c <= 0xE3A) || (c >= 0xE40 && c <= 0xE4E))
		s = GS_THAI;
	else if ((c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x1100 &&
	    c <= 0x11FF) || (c >= 0x3131 && c <= 0x318E))
		s = GS_HANGUL;
	else if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x309D &&
	    c <= 0x309F) || (c >= 0x30A1 && c <= 0x30FA) ||
	    (c >= 0x30FC && c <= 0x30FF) || (c >= 0xFF66 && c <= 0xFF9F) ||
	    c == 0x3005 || (c >= 0x3400 && c <= 0x4DBF) ||
	    (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
	    (c >= 0x20000 && c <= 0x2FFFF))
		s = GS_CJK;
	else if (c >= 0xFF21 && c <= 0xFF3A) {
		set(g, GS_CJK, GL_UPPER, c + 0x20);
		return 1;
	} else if (c >= 0xFF41 && c <= 0xFF5A) {
		set(g, GS_CJK, GL_LOWER, c);
		return 1;
	} else
		return 0;
	set(g, s, GL_CASELESS, c);
	return 1;
}

void
gch_info(uint32_t c, struct gch *g)
{
	if (c < 0x80) {
		if (c >= 'A' && c <= 'Z')
			set(g, GS_LATIN, GL_UPPER, c + 0x20);
		else if (c >= 'a' && c <= 'z')
			set(g, GS_LATIN, GL_LOWER, c);
		else
			set(g, GS_NONE, GL_NONE, c);
		return;
	}
	if (!latin(c, g) && !greek_cyrillic(c, g) && !caseless(c, g))
		set(g, GS_NONE, GL_NONE, c);
}

/* What c, before a character, is to it. */
enum gprev
gch_prev(uint32_t c)
{
	struct gch g;

	gch_info(c, &g);
	switch (g.letter) {
	case GL_LOWER:
		return c < 0x80 ? GP_ALOWER : GP_LOWER;
	case GL_UPPER:
		return c < 0x80 ? GP_AUPPER : GP_UPPER;
	case GL_CASELESS:
		return GP_CASELESS;
	default:
		return GP_OTHER;
	}
}

/* The class of c after a character. */
int
gch_next(uint32_t c)
{
	struct gch g;

	gch_info(c, &g);
	if (g.letter == GL_NONE)
		return GN_OTHER;
	return c < 0x80 ? GN_ASCII : GN_LETTER;
}

/* FNV-1a over the classes of every code point to U+2FFFF, which
 * tools/gen-guessmodel.py computes too: the models were counted with
 * these classes only if the two agree (the unit driver compares). */
uint64_t
gch_digest(void)
{
	uint64_t h = 1469598103934665603ULL, v[4];
	struct gch g;
	uint32_t c;
	int k;

	for (c = 0; c < 0x30000; c++) {
		gch_info(c, &g);
		v[0] = c;
		v[1] = g.script;
		v[2] = g.letter;
		v[3] = g.fold;
		for (k = 0; k < 4; k++)
			h = (h ^ v[k]) * 1099511628211ULL;
	}
	return h;
}

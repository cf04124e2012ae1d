/*
 * The lexical context of a transcoded entity, followed only far enough to
 * know whether a character reference may stand for the next character
 * (XML 1.0 sections 2.3-2.8, 3.1, 3.3.2, 4.1, 4.2): in character data,
 * attribute values, attribute defaults and entity values, but not in
 * names, comments, PIs, CDATA sections or system and public literals.
 * Pure: characters in, answers out.
 */
#include <stdint.h>
#include <string.h>

#include "engine.h"
#include "xmllex.h"

/* A DTD (external subset) starts between declarations, as an internal
 * subset does, but no "]" ends it (XML 1.0 section 2.8). */
void
xlex_dtd(struct xlex *l)
{
	l->lex = L_SUBSET;
	l->subset = 0;
	l->dtd = 1;
}

/* Start a markup declaration. */
static void
decl_begin(struct xlex *l)
{
	l->lex = L_DECL;
	l->wlen = l->nwords = 0;
	l->dkind = l->dext = 0;
}

/* A character of a markup declaration outside literals: keep its words. */
static void
decl_word(struct xlex *l, uint32_t c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
		if (l->wlen + 1 < sizeof(l->word))
			l->word[l->wlen] = (char)c;
		l->wlen++;
		return;
	}
	if (l->wlen == 0)
		return;
	l->word[l->wlen < sizeof(l->word) ? l->wlen : sizeof(l->word) - 1] =
	    '\0';
	if (l->nwords++ == 0)
		l->dkind = strcmp(l->word, "ATTLIST") == 0 ? 'A' :
		    strcmp(l->word, "ENTITY") == 0 ? 'E' : 0;
	else if (strcmp(l->word, "SYSTEM") == 0 ||
	    strcmp(l->word, "PUBLIC") == 0)
		l->dext = 1;
	l->wlen = 0;
}

/* Where markup ends: between the declarations of a subset, or in
 * character data. */
static enum lex
back(const struct xlex *l)
{
	return l->subset || l->dtd ? L_SUBSET : L_TEXT;
}

/* Character c after "<", "<!", "<!-" or "<![": which markup begins.  In
 * a DTD "<![" begins a conditional section (XML 1.0 [61]), never CDATA. */
static void
markup_open(struct xlex *l, uint32_t c)
{
	static const char cdata[] = "CDATA[";

	switch (l->lex) {
	case L_LT:
		l->lex = c == '!' ? L_BANG : c == '?' ? L_PI : L_TAG;
		l->match = 0;
		break;
	case L_BANG:
		if (c == '-')
			l->lex = L_BANG_DASH;
		else if (c == '[' && !l->subset && !l->dtd) {
			l->lex = L_BANG_BRACKET;
			l->match = 0;
		} else {
			decl_begin(l);
			decl_word(l, c);
		}
		break;
	case L_BANG_DASH:
		if (c == '-')
			l->lex = L_COMMENT;
		else
			decl_begin(l);
		l->match = 0;
		break;
	default:	/* L_BANG_BRACKET */
		if (c == (unsigned char)cdata[l->match]) {
			if (++l->match == sizeof(cdata) - 1) {
				l->lex = L_CDATA;
				l->match = 0;
			}
		} else
			decl_begin(l);
		break;
	}
}

/* Character c in a markup declaration: whether a reference may stand for
 * it (only in the literals of attribute defaults [60] and of internal
 * entities' values [9], less "&", "%" and "<"). */
static int
in_decl(struct xlex *l, uint32_t c)
{
	if (l->lex == L_DECL_QUOTE) {
		if (c == l->quote) {
			l->lex = L_DECL;
			return 0;
		}
		return l->lit_ok && c != '&' && c != '%' && c != '<';
	}
	decl_word(l, c);
	if (c == '"' || c == '\'') {
		l->quote = c;
		l->lex = L_DECL_QUOTE;
		l->lit_ok = l->dkind == 'A' || (l->dkind == 'E' && !l->dext);
	} else if (c == '[' && !l->subset) {
		l->subset = 1;
		l->lex = L_SUBSET;
	} else if (c == '>')
		l->lex = back(l);
	return 0;
}

/*
 * Take character c and return whether the grammar allows a character
 * reference for it where it is: XML 1.0 section 4.1 [66] may stand in
 * content [43] and attribute values [10]; section 2.3 [9] in entity values
 * of internal entities and section 3.3.2 [60] in attribute defaults (whose
 * literals, as [10] and [9], exclude "&", "%" and "<" as characters),
 * never in names (2.3), comments (2.5), PIs (2.6), CDATA sections (2.7),
 * the DOCTYPE outside literals (2.8) or system and public literals [11]
 * [12].
 */
static int
place(struct xlex *l, uint32_t c)
{
	switch (l->lex) {
	case L_TEXT:
		if (c == '<')
			l->lex = L_LT;
		return c != '<';
	case L_SUBSET:
		if (c == '<')
			l->lex = L_LT;
		else if (c == ']' && l->subset) {
			l->subset = 0;
			decl_begin(l);
			l->nwords = 1;
		}
		return 0;
	case L_LT:
	case L_BANG:
	case L_BANG_DASH:
	case L_BANG_BRACKET:
		markup_open(l, c);
		return 0;
	case L_TAG:
		if (c == '"' || c == '\'') {
			l->quote = c;
			l->lex = L_ATTR;
		} else if (c == '>')
			l->lex = back(l);
		return 0;
	case L_ATTR:
		if (c == l->quote) {
			l->lex = L_TAG;
			return 0;
		}
		return c != '<' && c != '&';
	case L_COMMENT:
		if (c == '-')
			l->match++;
		else {
			if (c == '>' && l->match >= 2)
				l->lex = back(l);
			l->match = 0;
		}
		return 0;
	case L_PI:
		if (c == '>' && l->match)
			l->lex = back(l);
		l->match = c == '?';
		return 0;
	case L_CDATA:
		if (c == '>' && l->match >= 2)
			l->lex = back(l);
		l->match = c == ']' ? l->match + 1 : 0;
		return 0;
	case L_DECL:
	case L_DECL_QUOTE:
		return in_decl(l, c);
	}
	return 0;
}

/*
 * Whether the parser reads a literal c, where the lexer now is, as another
 * character, while a reference is read as c itself: XML 1.0 and 1.1
 * section 2.11 read CR, and XML 1.1 also NEL and LINE SEPARATOR, as the
 * line end LF; section 3.3.3 reads TAB, LF and CR (and so, in 1.1, NEL
 * and LS) in an attribute value, and in an attribute default [60], as a
 * space.  In an entity value only the line ends change: its TAB, literal
 * or referenced, is a TAB of the replacement text alike.
 */
static int
normalised(const struct xlex *l, uint32_t c)
{
	if (c == '\r' || (l->xml11 && (c == 0x85 || c == 0x2028)))
		return 1;
	return (c == '\t' || c == '\n') && (l->lex == L_ATTR ||
	    (l->lex == L_DECL_QUOTE && l->dkind == 'A'));
}

/*
 * Take character c and return whether a character reference may stand
 * for it where it is: where the grammar allows one (place), unless the
 * literal character would be read as another (normalised), when a
 * reference would change the document: l->norm then says which.
 */
int
xlex(struct xlex *l, uint32_t c)
{
	int ok = place(l, c);

	l->norm = 0;
	if (ok && normalised(l, c)) {
		l->norm = c;
		return 0;
	}
	return ok;
}

/*
 * The characters that can change the lexical context in its present state
 * (up to three; 0x110000, no character, for the others), so that runs of
 * any other can be passed over; or 0 when the next character must go to
 * xlex() whatever it is.  Passing over never leaves a partial match of
 * "-->", "?>" or "]]>" behind: it happens only with none under way.
 */
static int
stops(const struct xlex *l, uint32_t stop[3])
{
	stop[1] = stop[2] = 0x110000;
	switch (l->lex) {
	case L_TEXT:
		stop[0] = '<';
		return 1;
	case L_ATTR:
	case L_DECL_QUOTE:
		stop[0] = l->quote;
		return 1;
	case L_COMMENT:
	case L_PI:
	case L_CDATA:
		/* Right after "-", "?" or "]", the next character decides. */
		if (l->match > 0)
			return 0;
		stop[0] = l->lex == L_COMMENT ? '-' : l->lex == L_PI ? '?' : ']';
		return 1;
	case L_TAG:
		stop[0] = '"';
		stop[1] = '\'';
		stop[2] = '>';
		return 1;
	default:
		return 0;
	}
}

/* The next byte of p[j..m) (UTF-8 or ASCII-compatible single-byte text)
 * that can change the lexical context, or m. */
size_t
xlex_skip(struct xlex *l, const unsigned char *p, size_t j, size_t m)
{
	const unsigned char *q;
	uint32_t stop[3];
	size_t k;

	if (!stops(l, stop))
		return j;
	if (stop[1] == 0x110000) {
		q = j < m ? memchr(p + j, (int)stop[0], m - j) : NULL;
		return q == NULL ? m : (size_t)(q - p);
	}
	for (k = j; k < m && p[k] != stop[0] && p[k] != stop[1] &&
	    p[k] != stop[2]; k++)
		;
	return k;
}

/* Whether xlex_common() follows the present state. */
static int
common(const struct xlex *l)
{
	return l->lex == L_TEXT || l->lex == L_LT || l->lex == L_TAG ||
	    l->lex == L_ATTR;
}

/*
 * The states most text and markup is in, character data, tags and their
 * values, and "<" before a name, followed through p[j..n) (UTF-8 or
 * ASCII-compatible single-byte text, as xlex_skip) in one loop with the
 * same transitions as xlex(), and without a call for each character that
 * changes them.  Return where a character of another state is, or n.
 */
static size_t
xlex_common(struct xlex *l, const unsigned char *p, size_t j, size_t n,
    const uint32_t *map)
{
	const unsigned char *q;
	uint32_t c;

	while (j < n) {
		switch (l->lex) {
		case L_TEXT:
			if ((q = memchr(p + j, '<', n - j)) == NULL)
				return n;
			l->lex = L_LT;
			j = (size_t)(q - p) + 1;
			break;
		case L_LT:
			/* A byte from 0x80 up starts a name here (it is no
			 * "!" or "?" in any such text): past it, the tag is
			 * searched bytewise as xlex_skip does. */
			c = map != NULL ? map[p[j]] : p[j];
			if (c == '!' || c == '?')
				return j;
			l->lex = L_TAG;
			l->match = 0;
			j++;
			break;
		case L_TAG:
			while (j < n && p[j] != '"' && p[j] != '\'' &&
			    p[j] != '>')
				j++;
			if (j == n)
				return n;
			if (p[j] == '>') {
				if ((l->lex = back(l)) != L_TEXT)
					return j + 1;
			} else {
				l->quote = p[j];
				l->lex = L_ATTR;
			}
			j++;
			break;
		case L_ATTR:
			if ((q = memchr(p + j, (int)l->quote, n - j)) == NULL)
				return n;
			l->lex = L_TAG;
			j = (size_t)(q - p) + 1;
			break;
		default:
			return j;
		}
	}
	return j;
}

/* The lexical context after the bytes p[0..n), each one character: the
 * byte itself (map NULL: ASCII) or map[byte], which is ASCII exactly for
 * the bytes below 0x80. */
void
xlex_bytes(struct xlex *l, const unsigned char *p, size_t n,
    const uint32_t *map)
{
	size_t j = 0;

	while ((j = xlex_common(l, p, j, n, map)) < n)
		for (j = xlex_skip(l, p, j, n); j < n; j = xlex_skip(l, p,
		    j + 1, n)) {
			xlex(l, map != NULL ? map[p[j]] : p[j]);
			if (common(l)) {
				j++;
				break;
			}
		}
}

/*
 * The lexical context after the characters u[0..nc) (UTF-32LE): xlex() for
 * each, except that runs which cannot change it are passed over (as
 * xlex_skip does for bytes).
 */
void
xlex_chars(struct xlex *l, const unsigned char *u, size_t nc)
{
	size_t j = 0, k;

	while (j < nc) {
		uint32_t stop[3];

		if (!stops(l, stop)) {
			xlex(l, load_le32(u + 4 * j++));
			continue;
		}
		k = j + conv_find32(u + 4 * j, nc - j, stop[0], stop[1],
		    stop[2]);
		if (k == nc)
			break;
		xlex(l, load_le32(u + 4 * k));
		j = k + 1;
	}
}

/* The lexical context after the UTF-8 characters p[0..n): as xlex_chars,
 * passing over bytes with xlex_skip. */
void
xlex_utf8(struct xlex *l, const unsigned char *p, size_t n)
{
	size_t j = 0;

	while ((j = xlex_common(l, p, j, n, NULL)) < n)
		for (j = xlex_skip(l, p, j, n); j < n; j = xlex_skip(l, p, j,
		    n)) {
			uint32_t c = p[j];
			int r = 1;

			if (c >= 0x80)
				r = utf8_dec(p + j, n - j, &c);
			xlex(l, c);
			j += (size_t)(r > 0 ? r : 1);
			if (common(l))
				break;
		}
}

/* Where the last character taken stands, in words for a message. */
const char *
xlex_where(const struct xlex *l)
{
	static const char *const where[] = {
		[L_TEXT] = "character data",
		[L_LT] = "the markup after \"<\"",
		[L_BANG] = "the opening of a comment or markup declaration",
		[L_BANG_DASH] = "the opening of a comment",
		[L_BANG_BRACKET] = ("the opening \"<![CDATA[\" of a CDATA "
		    "section"),
		[L_TAG] = "a name", [L_ATTR] = "an attribute value",
		[L_COMMENT] = "a comment",
		[L_PI] = "a processing instruction",
		[L_CDATA] = "a CDATA section",
		[L_DECL] = "a markup declaration",
		[L_DECL_QUOTE] = "a markup declaration",
		[L_SUBSET] = "the internal subset",
	};

	return l->lex < sizeof(where) / sizeof(where[0]) &&
	    where[l->lex] != NULL ? where[l->lex] : "the markup";
}

/*
 * The XML declaration (XML 1.0 section 2.8 [23]-[32]) and the text
 * declaration (section 4.3.1 [77]) in any Appendix F family: whether the
 * entity starts with one, one that comes too late, and what follows it
 * (the role it suggests, a U+FEFF in the prolog).  What its
 * pseudo-attributes say is declparse.c's.
 */
#include <stdio.h>
#include <string.h>

#include "decl_int.h"

/* Return whether a U+FEFF (ZWNBSP, RFC 3629 section 6) is at unit i, and
 * how many units it takes. */
static int
zwnbsp(const struct units *s, size_t i)
{
	size_t off = boff(s, i);

	if (s->u == UNIT_8)
		return off + 3 <= s->n && s->p[off] == 0xEF &&
		    s->p[off + 1] == 0xBB && s->p[off + 2] == 0xBF ? 3 : 0;
	return ch(s, i) == 0xFEFF ? 1 : 0;
}

/* Return whether "<?xml" followed by S or "?" is at unit i. */
static int
decl_at(const struct units *s, size_t i)
{
	long c;

	if (!at(s, i, "<?xml"))
		return 0;
	c = ch(s, i + 5);
	return is_s(c) || c == '?';
}

/* Skip a comment or a processing instruction (an XML declaration too when
 * any_pi) at unit i; return the unit after it, or i if there is none or it
 * does not end within the head. */
static size_t
skip_misc(const struct units *s, size_t i, int any_pi)
{
	size_t j;

	if (at(s, i, "<!--")) {
		for (j = i + 4; ch(s, j) >= 0; j++)
			if (at(s, j, "-->"))
				return j + 3;
		return i;
	}
	if (at(s, i, "<?") && (any_pi || !decl_at(s, i))) {
		for (j = i + 2; ch(s, j) >= 0; j++)
			if (at(s, j, "?>"))
				return j + 2;
		return i;
	}
	return i;
}

/*
 * What follows the declaration (or starts the entity) tells whether it is
 * a document, an external subset (markup declarations) or an external
 * parsed entity: content that is not a document element after a text
 * declaration.  Anything else counts as a document.
 */
static enum role
guess_role(const struct units *s, size_t i, int have_decl)
{
	size_t j;
	long c;

	for (;;) {
		/* A U+FEFF says nothing of the role (bom-in-prolog). */
		while (is_s(ch(s, i)) || zwnbsp(s, i) != 0)
			i += is_s(ch(s, i)) ? 1 : (size_t)zwnbsp(s, i);
		j = skip_misc(s, i, 1);
		if (j == i)
			break;
		i = j;
	}
	c = ch(s, i);
	/* A start tag, the common case, first: every string below has '!'
	 * or '?' after its '<'. */
	if (c == '<') {
		long c1 = ch(s, i + 1);

		if (is_alpha(c1) || c1 == '_' || c1 == ':' || c1 >= 0x80)
			return ROLE_DOCUMENT;
	}
	/* Nothing more, a comment or PI that does not end within the head
	 * (they say nothing), or a DOCTYPE. */
	if (c < 0 || at(s, i, "<!--") || at(s, i, "<?") ||
	    at(s, i, "<!DOCTYPE"))
		return ROLE_DOCUMENT;
	if (at(s, i, "<!ELEMENT") || at(s, i, "<!ATTLIST") ||
	    at(s, i, "<!ENTITY") || at(s, i, "<!NOTATION") ||
	    at(s, i, "<![") || c == '%')
		return ROLE_DTD;
	return have_decl ? ROLE_ENTITY : ROLE_DOCUMENT;
}

/*
 * A U+FEFF in the prolog, after the BOM and before the first element or
 * DOCTYPE: content there (RFC 3629 section 6), which a document's prolog
 * does not allow (XML 1.0 [1], [22], [27]: only comments, PIs and white
 * space).  Unit i is where the prolog's Misc begins.
 */
static void
prolog_feff(struct decl *d, const struct units *s, size_t i)
{
	size_t j;

	for (;;) {
		while (is_s(ch(s, i)))
			i++;
		if (zwnbsp(s, i) != 0) {
			d->feff = 1;
			d->feff_off = boff(s, i);
			return;
		}
		if ((j = skip_misc(s, i, 1)) == i)
			return;
		i = j;
	}
}

/*
 * Read the declaration of the entity p[0..n) whose characters begin at byte
 * offset start in layout u; eof says whether p[0..n) is the whole entity.
 * Fills d: what the declaration says, where, its first syntax error, a
 * declaration that comes too late (decl-not-at-start), and the role that the
 * content after it suggests.  fast: a declaration of an ASCII-compatible
 * layout is read by decl_parse8() when it can be (decl_read_ref: never, the
 * reference the tests hold it to).
 */
static void
read_decl(const unsigned char *p, size_t n, size_t start, enum unit u,
    int eof, struct decl *d, int fast)
{
	struct units s;
	size_t i, j, text = 0;

	units_set(&s, u, p, n, start, eof);
	mem_zero(d, sizeof(*d));
	d->standalone = -1;
	d->start = d->end = start;
	if (decl_at(&s, 0)) {
		d->present = 1;
		if (!fast || u != UNIT_8 || !decl_parse8(d, &s))
			decl_parse(d, &s);
		/* Without its "?>", nothing after it can be told apart. */
		if (d->end <= start || !d->closed)
			return;
		d->role = guess_role(&s, (d->end - start) / (size_t)s.usz, 1);
		prolog_feff(d, &s, (d->end - start) / (size_t)s.usz);
		return;
	}
	d->role = guess_role(&s, 0, 0);
	prolog_feff(d, &s, 0);
	/* XML 1.0 [17]: "xml" in any case is reserved; only "<?xml" starts
	 * a declaration. */
	{
		static const char lit[] = "<?xml";
		long c;

		for (i = 0; i < 5; i++) {
			c = ch(&s, i);
			if (c < 0 || (c | 0x20) != lit[i])
				break;
		}
		c = ch(&s, 5);
		if (i == 5 && (is_s(c) || c == '?')) {
			d->upper = 1;
			return;
		}
	}
	/* RFC 3629 section 6: a second U+FEFF is content; XML 1.0 [22]: the
	 * declaration comes first, before any white space or markup. */
	for (i = 0;;) {
		int z;

		if ((z = zwnbsp(&s, i)) != 0) {
			if (d->late_what[0] == '\0')
				snprintf(d->late_what, sizeof(d->late_what),
				    "a second U+FEFF");
			i += (size_t)z;
			continue;
		}
		if (is_s(ch(&s, i))) {
			if (d->late_what[0] == '\0')
				snprintf(d->late_what, sizeof(d->late_what),
				    "white space");
			i++;
			continue;
		}
		j = skip_misc(&s, i, 0);
		if (j != i) {
			if (d->late_what[0] == '\0')
				snprintf(d->late_what, sizeof(d->late_what),
				    "a comment or processing instruction");
			i = j;
			continue;
		}
		/* Text before the first markup: 1024 characters of it in
		 * all (counted as characters, so that the answer does not
		 * depend on the encoding). */
		if (ch(&s, i) >= 0 && ch(&s, i) != '<' && text < 1024) {
			for (j = i; text < 1024 && ch(&s, j) >= 0 &&
			    ch(&s, j) != '<'; j++)
				if (u != UNIT_8 || (s.p[boff(&s, j)] & 0xC0) != 0x80)
					text++;
			if (ch(&s, j) == '<' && j > i) {
				if (d->late_what[0] == '\0')
					snprintf(d->late_what,
					    sizeof(d->late_what), "text");
				i = j;
				continue;
			}
		}
		break;
	}
	if (i > 0 && decl_at(&s, i)) {
		d->late = 1;
		d->late_off = boff(&s, i);
	} else
		d->late_what[0] = '\0';
}

void
decl_read(const unsigned char *p, size_t n, size_t start, enum unit u,
    int eof, struct decl *d)
{
	read_decl(p, n, start, u, eof, d, 1);
}

void
decl_read_ref(const unsigned char *p, size_t n, size_t start, enum unit u,
    int eof, struct decl *d)
{
	read_decl(p, n, start, u, eof, d, 0);
}

/*
 * What the pseudo-attributes of an XML declaration (XML 1.0 section 2.8
 * [23]-[32]) or a text declaration (section 4.3.1 [77]) say, and the
 * first thing wrong with them: read by the characters of any Appendix F
 * family (decl_parse), or by the bytes of an ASCII-compatible one when
 * nothing is wrong (decl_parse8).  decl.c finds the declaration.
 */
#include <iconv.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "decl_int.h"

/* The first syntax error of d, at unit i. */
static void
bad(struct decl *d, const struct units *s, size_t i, const char *msg)
{
	if (d->bad)
		return;
	d->bad = 1;
	d->bad_off = boff(s, i);
	str_put(d->bad_msg, sizeof(d->bad_msg), msg);
}


/*
 * A byte of an EBCDIC declaration that is not an invariant character, as
 * IBM037 (CCSID 37) has it: the code page is what the declaration names,
 * which cannot be read yet.  -1 if iconv lacks IBM037.
 */
static long ebcdic_map[256];
static pthread_once_t ebcdic_once = PTHREAD_ONCE_INIT;

/* The table, built once by whichever thread needs it first. */
static void
ebcdic_build(void)
{
	iconv_t cd = iconv_open(enc_u32le(), "IBM037");
	int b;

	for (b = 0; b < 256; b++) {
		char in[1], out[8], *ip = in, *op = out;
		size_t il = 1, ol = sizeof(out);

		in[0] = (char)b;
		ebcdic_map[b] = -1;
		if (cd != (iconv_t)-1 && iconv(cd, &ip, &il, &op, &ol) !=
		    (size_t)-1 && op - out == 4)
			ebcdic_map[b] = (long)load_le32((unsigned char *)out);
	}
	if (cd != (iconv_t)-1)
		iconv_close(cd);
}

static long
ebcdic_other(unsigned char byte)
{
	pthread_once(&ebcdic_once, ebcdic_build);
	return ebcdic_map[byte];
}

/*
 * Append the character at unit j (value v) to buf[*k..size-1), whole or
 * not at all, as the value is written: a character of a 16- or 32-bit
 * layout in UTF-8 (a surrogate pair as one character), an EBCDIC one in
 * UTF-8 too (ebcdic_other), a byte of an ASCII-compatible layout that is
 * not ASCII as the byte itself (its encoding is not known yet), a 32-bit
 * unit past U+10FFFF as its four bytes, U+0000 (and a 00 byte of those
 * four) as C0 80 (xmlsniff(1), --json).  Return how many units were used.
 */
static size_t
value_char(const struct units *s, size_t j, long v, char *buf, size_t size,
    size_t *k)
{
	const unsigned char *q = s->p + boff(s, j);
	unsigned char b[8];
	size_t len = 0, used = 1;
	unsigned long c = (unsigned long)v;

	if (s->u == UNIT_EBCDIC && v >= 0x80 && ebcdic_other(q[0]) >= 0)
		c = (unsigned long)ebcdic_other(q[0]);
	else if (s->usz == 1 && v >= 0x80) {
		b[len++] = q[0];
		c = 0x80;	/* no character: the byte alone */
	} else if (s->usz == 4 && v == 0x100 &&
	    q[0] + q[1] + q[2] + q[3] != 1) {
		/* unit_get's 0x100 for past U+10FFFF, not U+0100 (whose
		 * bytes, in any octet order, are three 00 and one 01). */
		int i;

		for (i = 0; i < 4; i++)
			if (q[i] != 0)
				b[len++] = q[i];
			else {
				b[len++] = 0xC0;
				b[len++] = 0x80;
			}
	}
	if (s->usz == 2 && c >= 0xD800 && c <= 0xDBFF) {
		long lo = ch(s, j + 1);

		if (lo >= 0xDC00 && lo <= 0xDFFF) {
			c = 0x10000 + ((c - 0xD800) << 10) +
			    ((unsigned long)lo - 0xDC00);
			used = 2;
		}
	}
	if (len > 0)
		;
	else if (c == 0) {
		/* No C string holds a NUL: C0 80, as modified UTF-8 writes
		 * it, which is not UTF-8 and so is shown escaped. */
		b[len++] = 0xC0;
		b[len++] = 0x80;
	} else
		len = (size_t)utf8_enc(b, (uint32_t)c);
	if (*k + len < size) {
		size_t x;

		/* A character is at most 8 bytes here: no call for them. */
		for (x = 0; x < len; x++)
			buf[*k + x] = (char)b[x];
		*k += len;
	}
	return used;
}

/*
 * Read one pseudo-attribute value in quotes at unit *i into buf (at most
 * size-1 bytes, as value_char writes it); return its length in units, or
 * -1 on a syntax error (already recorded).  *q gets the quote.
 */
static long
read_value(struct decl *d, const struct units *s, size_t *i, char *buf,
    size_t size, char *q, int *nonascii)
{
	long c = ch(s, *i);
	size_t j, len = 0, k = 0, full = 0;

	*nonascii = 0;
	if (c != '"' && c != '\'') {
		bad(d, s, *i, "a value must be in quotes");
		return -1;
	}
	*q = (char)c;
	for (j = *i + 1;; j++) {
		long v = ch(s, j);

		if (v < 0 || j >= DECL_MAX) {
			bad(d, s, *i, j >= DECL_MAX ? "the declaration is longer "
			    "than 16384 characters" : "a quoted value is not "
			    "closed");
			return -1;
		}
		if (v == c)
			break;
		if (v == '<' || v == '?' || v == '>' || v == '\n' || v == '\r') {
			bad(d, s, j, "a quoted value is not closed");
			return -1;
		}
		if (v >= 0x80 || v < 0x20)
			*nonascii = 1;
		if (!full) {
			size_t k0 = k, used = value_char(s, j, v, buf, size, &k);

			full = k == k0;
			len += used - 1;
			j += used - 1;
		}
		len++;
	}
	buf[k] = '\0';
	*i = j + 1;
	return (long)len;
}

/* Return whether name matches EncName, XML 1.0 section 4.3.3 [81]. */
int
decl_encname_ok(const char *name)
{
	const char *p;

	if (!is_alpha((unsigned char)name[0]))
		return 0;
	for (p = name + 1; *p != '\0'; p++)
		if (!is_alpha((unsigned char)*p) && !is_digit((unsigned char)*p) &&
		    *p != '.' && *p != '_' && *p != '-')
			return 0;
	return 1;
}

/* VersionNum, XML 1.0 [26]: "1." followed by digits. */
static int
version_ok(const char *v)
{
	if (v[0] != '1' || v[1] != '.' || v[2] == '\0')
		return 0;
	for (v += 2; *v != '\0'; v++)
		if (!is_digit((unsigned char)*v))
			return 0;
	return 1;
}

/* A pseudo-attribute's value as read_value() found it. */
struct value {
	char		 text[256];
	char		 q;		/* its quote */
	int		 nonascii;
	long		 len;		/* its length, or more than fits */
	size_t		 open;		/* unit of the opening quote */
	size_t		 end;		/* unit just past the closing quote */
};

/* VersionInfo, XML 1.0 [24], [26]: kept only when it comes first. */
static void
set_version(struct decl *d, const struct units *s, const struct value *v,
    int order)
{
	if (order >= 1)
		return;
	d->has_version = 1;
	str_put(d->version, sizeof(d->version), v->text);
	d->ver_end = boff(s, v->end);
	if (!version_ok(v->text))
		bad(d, s, v->open + 1, "the version must be \"1.0\" (or "
		    "\"1.1\")");
}

/* EncodingDecl, XML 1.0 [80], [81]: the first one is kept, wherever it
 * stands (its place is a syntax error of its own). */
static void
set_encoding(struct decl *d, const struct units *s, const struct value *v,
    int order)
{
	(void)order;
	if (d->has_encoding)
		return;
	d->has_encoding = 1;
	str_put(d->encoding, sizeof(d->encoding), v->text);
	d->quote = v->q;
	d->enc_off = boff(s, v->open + 1);
	d->enc_end = boff(s, v->end - 1);
	d->enc_ok = !v->nonascii && v->len < (long)sizeof(v->text) &&
	    decl_encname_ok(v->text);
	if (!d->enc_ok)
		bad(d, s, v->open + 1, "the encoding name is not a valid "
		    "EncName ([A-Za-z] followed by [A-Za-z0-9._-])");
}

/* SDDecl, XML 1.0 [32]. */
static void
set_standalone(struct decl *d, const struct units *s, const struct value *v,
    int order)
{
	if (order >= 3)
		return;
	if (strcmp(v->text, "yes") == 0)
		d->standalone = 1;
	else if (strcmp(v->text, "no") == 0)
		d->standalone = 0;
	else
		bad(d, s, v->open + 1, "standalone must be \"yes\" or \"no\"");
}

/*
 * The pseudo-attributes of XMLDecl [23] and TextDecl [77], in the order
 * they must come: rank 1 version, 2 encoding, 3 standalone.
 */
static const struct pseudo {
	const char	*name;
	int		 rank;
	const char	*twice;		/* the same name again */
	const char	*misplaced;	/* after one of a higher rank */
	void		(*set)(struct decl *, const struct units *,
			    const struct value *, int);
} pseudos[] = {
	{ "version", 1, "version appears twice", "version must come first",
	    set_version },
	{ "encoding", 2, "encoding appears twice",
	    "encoding must come before standalone", set_encoding },
	{ "standalone", 3, "standalone appears twice",
	    "standalone appears twice", set_standalone },
};
#define NPSEUDO	(sizeof(pseudos) / sizeof(pseudos[0]))

/*
 * Read the value at *i of pseudo-attribute a, whose name is at unit
 * name_at; order is the highest rank seen so far.  Return -1 when the
 * value cannot be read.
 */
static int
take(struct decl *d, const struct units *s, size_t *i, size_t name_at,
    int *order, const struct pseudo *a)
{
	struct value v;

	v.open = *i;
	if ((v.len = read_value(d, s, i, v.text, sizeof(v.text), &v.q,
	    &v.nonascii)) < 0)
		return -1;
	v.end = *i;
	if (*order >= a->rank)
		bad(d, s, name_at, *order == a->rank ? a->twice :
		    a->misplaced);
	a->set(d, s, &v, *order);
	if (*order < a->rank)
		*order = a->rank;
	return 0;
}

void
decl_parse(struct decl *d, const struct units *s)
{
	size_t i = 5, name_at;
	int order = 0;		/* 1 version, 2 encoding, 3 standalone seen */
	char name[16];

	for (;;) {
		int space = 0;
		size_t nl, k;

		while (is_s(ch(s, i))) {
			i++;
			space = 1;
		}
		if (at(s, i, "?>")) {
			d->end = boff(s, i + 2);
			d->closed = 1;
			return;
		}
		if (i >= DECL_MAX) {
			bad(d, s, 0, "the declaration is longer than 16384 "
			    "characters");
			return;
		}
		if (ch(s, i) < 0) {
			bad(d, s, i, "the declaration is not closed by \"?>\"");
			return;
		}
		name_at = i;
		for (nl = 0; is_alpha(ch(s, i)); i++, nl++)
			if (nl + 1 < sizeof(name))
				name[nl] = (char)ch(s, i);
		name[nl < sizeof(name) ? nl : sizeof(name) - 1] = '\0';
		if (nl == 0) {
			bad(d, s, i, "unexpected character in the declaration; "
			    "only version, encoding and standalone may appear");
			break;
		}
		if (!space)
			bad(d, s, name_at, "white space is missing before a "
			    "pseudo-attribute");
		while (is_s(ch(s, i)))
			i++;
		if (ch(s, i) != '=') {
			bad(d, s, i, "\"=\" expected after a pseudo-attribute "
			    "name");
			break;
		}
		i++;
		while (is_s(ch(s, i)))
			i++;
		for (k = 0; k < NPSEUDO; k++)
			if (strcmp(name, pseudos[k].name) == 0)
				break;
		if (k == NPSEUDO) {
			bad(d, s, name_at, "unknown pseudo-attribute; only "
			    "version, encoding and standalone may appear");
			break;
		}
		if (take(d, s, &i, name_at, &order, &pseudos[k]) < 0)
			break;
	}
	/* After a syntax error: find the end so that what follows is seen. */
	for (; i < DECL_MAX && ch(s, i) >= 0; i++)
		if (at(s, i, "?>")) {
			d->end = boff(s, i + 2);
			d->closed = 1;
			return;
		}
	d->end = boff(s, i);
}

/*
 * decl_parse() for an ASCII-compatible layout, in one pass over the bytes,
 * for a declaration without a fault: each pseudo-attribute in its place
 * and rank, after white space, with a value of printable ASCII that its
 * rule allows (VersionNum [26], EncName [81], "yes" or "no" [32]), then
 * "?>".  Return 1 with d filled as decl_parse() fills it; 0 for anything
 * else (d untouched), which decl_parse() then reads, and says what is
 * wrong.
 */
int
decl_parse8(struct decl *d, const struct units *s)
{
	static const char *const names[] = { "version", "encoding",
	    "standalone" };
	static const size_t lens[] = { 7, 8, 10 };
	const unsigned char *p = s->p0;
	size_t lim = s->lim < DECL_MAX ? s->lim : DECL_MAX;
	size_t i = 5, j, k, next = 0, open[3] = { 0 }, end[3] = { 0 };
	char text[3][256];
	unsigned char q;
	int space;

	for (;;) {
		for (space = 0; i < lim && is_s(p[i]); i++)
			space = 1;
		if (i + 1 < lim && p[i] == '?' && p[i + 1] == '>')
			break;
		/* The next name, of a rank above those seen. */
		for (k = next; k < 3; k++)
			if (lim - i > lens[k] && memcmp(p + i, names[k],
			    lens[k]) == 0 && !is_alpha(p[i + lens[k]]))
				break;
		if (!space || k == 3)
			return 0;
		for (i += lens[k]; i < lim && is_s(p[i]); i++)
			continue;
		if (i >= lim || p[i] != '=')
			return 0;
		for (i++; i < lim && is_s(p[i]); i++)
			continue;
		if (i >= lim || (p[i] != '"' && p[i] != '\''))
			return 0;
		q = p[i];
		for (j = i + 1; j < lim && p[j] != q; j++)
			if (p[j] < 0x20 || p[j] >= 0x7F || p[j] == '<' ||
			    p[j] == '?' || p[j] == '>')
				return 0;
		if (j >= lim || j - i - 1 >= sizeof(text[k]))
			return 0;
		memcpy(text[k], p + i + 1, j - i - 1);
		text[k][j - i - 1] = '\0';
		open[k] = i;
		end[k] = i = j + 1;
		next = k + 1;
		switch (k) {
		case 0:
			if (!version_ok(text[0]))
				return 0;
			break;
		case 1:
			if (!decl_encname_ok(text[1]))
				return 0;
			break;
		default:
			if (strcmp(text[2], "yes") != 0 &&
			    strcmp(text[2], "no") != 0)
				return 0;
		}
	}
	if (end[0] != 0) {
		d->has_version = 1;
		str_put(d->version, sizeof(d->version), text[0]);
		d->ver_end = boff(s, end[0]);
	}
	if (end[1] != 0) {
		d->has_encoding = 1;
		str_put(d->encoding, sizeof(d->encoding), text[1]);
		d->quote = (char)p[open[1]];
		d->enc_off = boff(s, open[1] + 1);
		d->enc_end = boff(s, end[1] - 1);
		d->enc_ok = 1;
	}
	if (end[2] != 0)
		d->standalone = text[2][0] == 'y';
	d->end = boff(s, i + 2);
	d->closed = 1;
	return 1;
}


/*
 * A strict JSON validator (RFC 8259) for the API fuzz target: one value,
 * the grammar of section 2 to 7 exactly (no trailing commas, no leading
 * zeros, no bare control characters in strings, escapes as listed), the
 * text in UTF-8 (section 8.1: no overlong form, no surrogate, nothing
 * above U+10FFFF) and \u escapes of surrogates in pairs (section 8.2),
 * but for \udc80 to \udcff alone: xmlsniff(1) writes each byte of a
 * name that is not UTF-8 so, as Python's "surrogateescape" reads it.
 * Nesting is capped, so that no input can exhaust the stack.  It also
 * notes a few members of a top-level object, for the fuzz target to
 * compare with the accessors.
 */
#include <stddef.h>
#include <string.h>

#include "jsonv.h"

#define MAXDEPTH	64

struct jp {
	const unsigned char	*p, *end;
	int			 depth;
	struct json_top		*top;
};

static int	value(struct jp *, const char *);

static void
ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int
lit(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return 0;
	j->p += n;
	return 1;
}

static int
hex4(struct jp *j, unsigned *v)
{
	int i, c;

	if (j->end - j->p < 4)
		return 0;
	*v = 0;
	for (i = 0; i < 4; i++) {
		c = *j->p++;
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return 0;
		*v = *v << 4 | (unsigned)c;
	}
	return 1;
}

/* One UTF-8 sequence of two to four bytes (Unicode table 3-7). */
static int
utf8(struct jp *j)
{
	const unsigned char *p = j->p;
	unsigned c = *p, lo = 0x80, hi = 0xbf;
	int n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 1;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (j->end - p <= n)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i <= n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	j->p += n + 1;
	return 1;
}

/* A string; its text, when it is a plain ASCII one short enough, in
 * key (for the member names). */
static int
string(struct jp *j, char *key, size_t keylen)
{
	size_t k = 0;
	unsigned u, lo;
	int plain = 1;

	if (j->p >= j->end || *j->p != '"')
		return 0;
	j->p++;
	for (;;) {
		if (j->p >= j->end)
			return 0;
		if (*j->p == '"')
			break;
		if (*j->p < 0x20)
			return 0;
		if (*j->p >= 0x80) {
			plain = 0;
			if (!utf8(j))
				return 0;
			continue;
		}
		if (*j->p != '\\') {
			if (key != NULL && k + 1 < keylen)
				key[k++] = (char)*j->p;
			j->p++;
			continue;
		}
		plain = 0;
		if (++j->p >= j->end)
			return 0;
		if (strchr("\"\\/bfnrt", *j->p) != NULL && *j->p != '\0') {
			j->p++;
			continue;
		}
		if (*j->p++ != 'u' || !hex4(j, &u))
			return 0;
		if (u >= 0xdc00 && u <= 0xdfff && (u < 0xdc80 || u > 0xdcff))
			return 0;		/* a low surrogate alone */
		if (u >= 0xd800 && u <= 0xdbff &&
		    (!lit(j, "\\u") || !hex4(j, &lo) || lo < 0xdc00 ||
		    lo > 0xdfff))
			return 0;		/* a high one without its low */
	}
	j->p++;
	if (key != NULL)
		key[plain && k + 1 < keylen ? k : 0] = '\0';
	return 1;
}

/* A number; its value in *v when it is an integer that fits. */
static int
number(struct jp *j, long long *v)
{
	int neg = 0, integer = 1, big = 0;
	long long n = 0;

	if (j->p < j->end && *j->p == '-') {
		neg = 1;
		j->p++;
	}
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return 0;
	if (*j->p == '0')
		j->p++;
	else
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
			if (n > (0x7fffffffffffffffLL - 9) / 10)
				big = 1;
			else
				n = n * 10 + (*j->p - '0');
			j->p++;
		}
	if (j->p < j->end && *j->p == '.') {
		integer = 0;
		if (++j->p >= j->end || *j->p < '0' || *j->p > '9')
			return 0;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		integer = 0;
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return 0;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (v != NULL)
		*v = integer && !big ? (neg ? -n : n) : -1;
	return 1;
}

static int
array(struct jp *j, const char *member)
{
	long n = 0;

	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
	} else
		for (;;) {
			if (!value(j, NULL))
				return 0;
			n++;
			ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == ']') {
				j->p++;
				break;
			}
			return 0;
		}
	if (member != NULL && strcmp(member, "diagnostics") == 0)
		j->top->ndiag = n;
	return 1;
}

static int
object(struct jp *j)
{
	char key[32];
	int top = j->depth == 1;

	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 1;
	}
	for (;;) {
		ws(j);
		if (!string(j, key, sizeof(key)))
			return 0;
		ws(j);
		if (j->p >= j->end || *j->p++ != ':')
			return 0;
		if (!value(j, top ? key : NULL))
			return 0;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return 1;
		}
		return 0;
	}
}

/* A value; member is the name it has in the top-level object, if it is
 * a member of that. */
static int
value(struct jp *j, const char *member)
{
	long long v;
	int ok;

	ws(j);
	if (j->p >= j->end)
		return 0;
	switch (*j->p) {
	case '{':
	case '[':
		if (++j->depth > MAXDEPTH)
			return 0;
		ok = *j->p == '{' ? object(j) : array(j, member);
		j->depth--;
		return ok;
	case '"':
		return string(j, NULL, 0);
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	default:
		if (!number(j, &v))
			return 0;
		if (member != NULL && strcmp(member, "errors") == 0)
			j->top->errors = v;
		else if (member != NULL && strcmp(member, "warnings") == 0)
			j->top->warnings = v;
		return 1;
	}
}

int
json_valid(const char *s, size_t n, struct json_top *top)
{
	struct json_top dummy;
	struct jp j;

	j.p = (const unsigned char *)s;
	j.end = j.p + n;
	j.depth = 0;
	j.top = top != NULL ? top : &dummy;
	j.top->errors = j.top->warnings = -1;
	j.top->ndiag = -1;
	if (!value(&j, NULL))
		return 0;
	ws(&j);
	return j.p == j.end;
}

/*
 * Strings built in memory (sbuf.h), and the two escapes every record of
 * xmlsniff uses: a name or a value of the user's, so that any bytes read
 * back unambiguously (control characters, backslash and bytes that are
 * not UTF-8 as C escapes), and JSON strings (RFC 8259) that stay valid
 * UTF-8 whatever the bytes (a byte that is not UTF-8 becomes \udcXX, the
 * lone-surrogate escape of Python's surrogateescape).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "utf.h"

/* Room for n more bytes and the NUL; 0, or -1 (b->nomem) without it. */
static int
room(struct sbuf *b, size_t n)
{
	size_t cap;
	char *np;

	if (b->nomem)
		return -1;
	if (b->n + n + 1 <= b->cap)
		return 0;
	for (cap = b->cap > 0 ? b->cap : 256; cap < b->n + n + 1; cap *= 2)
		if (cap > (size_t)-1 / 4) {
			b->nomem = 1;
			return -1;
		}
	if ((np = realloc(b->p, cap)) == NULL) {
		b->nomem = 1;
		return -1;
	}
	b->p = np;
	b->cap = cap;
	return 0;
}

void
sb_put(struct sbuf *b, const void *p, size_t n)
{
	if (room(b, n) < 0)
		return;
	memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = '\0';
}

void
sb_str(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

void
sb_chr(struct sbuf *b, int c)
{
	char ch = (char)c;

	sb_put(b, &ch, 1);
}

void
sb_fmt(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0 || room(b, (size_t)k) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

/*
 * s so that any name reads back unambiguously: control characters,
 * backslash (and with quote, the double quote) and bytes that are not
 * UTF-8 as C escapes.
 */
void
sb_escaped(struct sbuf *b, const char *s, int quote)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	while (p < end) {
		const unsigned char *run = p;
		uint32_t c;
		int r;

		/* What is written as it is goes in at once. */
		for (;;) {
			if (*p >= 0x20 && *p < 0x7F && *p != '\\' &&
			    !(*p == '"' && quote))
				p++;
			else if (*p >= 0x80 && (r = utf8_dec(p,
			    (size_t)(end - p), &c)) > 1)
				p += r;
			else
				break;
		}
		if (p > run)
			sb_put(b, run, (size_t)(p - run));
		if (p == end)
			break;
		if (*p == '\\')
			sb_str(b, "\\\\");
		else if (*p == '"')
			sb_str(b, "\\\"");
		else if (*p == '\n')
			sb_str(b, "\\n");
		else if (*p == '\t')
			sb_str(b, "\\t");
		else
			sb_fmt(b, "\\x%02X", *p);
		p++;
	}
}

/* s as a JSON string (RFC 8259), in its quotes. */
void
sb_json(struct sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	sb_chr(b, '"');
	while (*p != '\0') {
		const unsigned char *run = p;
		uint32_t c;
		int r;

		/* Printable ASCII and whole UTF-8 characters at once. */
		for (;;) {
			if (*p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\')
				p++;
			else if (*p >= 0x80 && (r = utf8_dec(p,
			    (size_t)(end - p), &c)) > 1)
				p += r;
			else
				break;
		}
		if (p > run)
			sb_put(b, run, (size_t)(p - run));
		if (*p == '\0')
			break;
		switch (*p) {
		case '"':
			sb_str(b, "\\\"");
			break;
		case '\\':
			sb_str(b, "\\\\");
			break;
		case '\n':
			sb_str(b, "\\n");
			break;
		case '\r':
			sb_str(b, "\\r");
			break;
		case '\t':
			sb_str(b, "\\t");
			break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				sb_fmt(b, "\\u%04x", *p);
			else
				sb_fmt(b, "\\udc%02x", *p);
		}
		p++;
	}
	sb_chr(b, '"');
}

/* s as a JSON string, or null when it is NULL. */
void
sb_json_or_null(struct sbuf *b, const char *s)
{
	if (s == NULL)
		sb_str(b, "null");
	else
		sb_json(b, s);
}

/* The string built (b is empty again), or NULL when memory ran out on
 * the way (then it is freed). */
char *
sb_take(struct sbuf *b)
{
	char *p = b->p;

	if (b->nomem || (p == NULL && (p = calloc(1, 1)) == NULL)) {
		free(b->p);
		p = NULL;
	}
	memset(b, 0, sizeof(*b));
	return p;
}

void
sb_free(struct sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* errno e's text into buf, for a message (strerror_r: strerror may
 * share its buffer between threads). */
const char *
sb_errno(int e, char *buf, size_t size)
{
	if (strerror_r(e, buf, size) != 0)
		snprintf(buf, size, "error %d", e);
	return buf;
}

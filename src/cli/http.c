/*
 * --http: an input is an HTTP response as curl -i or curl -D - writes it
 * (xmlsniff(1), Over HTTP): one or more heads, each a status line
 * (RFC 9112 section 4; "HTTP/2 200" for HTTP/2 and HTTP/3), field lines
 * and an empty line, then the body, which is the entity.  Informational
 * responses and redirects come first; the last head is the response.
 * Its Content-Type takes part in the determination as --content-type
 * does (RFC 7303 section 3).  Transfer-Encoding is not looked at: curl
 * has taken the chunks apart before it writes the body.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "http.h"

/* Which field a line holds, for the obs-fold lines after it. */
enum field {
	F_NONE,		/* the status line: no field yet */
	F_OTHER,
	F_CTYPE,
	F_CODING
};

static int
tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' &&
	    strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static int
digit(int c)
{
	return c >= '0' && c <= '9';
}

static size_t	bad(struct http *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* No head could be read: say why in h; the body is the whole input. */
static size_t
bad(struct http *h, const char *fmt, ...)
{
	va_list ap;

	memset(h, 0, sizeof(*h));
	h->malformed = 1;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof(h->why), fmt, ap);
	va_end(ap);
	return 0;
}

/*
 * The line of p at *pos that an LF ends below lim: *l and *ln, without
 * the CR LF or LF (RFC 9112 section 2.2 accepts a bare LF); *pos moves
 * past it.  Return -1 when no LF comes before lim.
 */
static int
next_line(const unsigned char *p, size_t lim, size_t *pos,
    const unsigned char **l, size_t *ln)
{
	const unsigned char *e = memchr(p + *pos, '\n', lim - *pos);

	if (e == NULL)
		return -1;
	*l = p + *pos;
	*ln = (size_t)(e - *l);
	if (*ln > 0 && (*l)[*ln - 1] == '\r')
		(*ln)--;
	*pos = (size_t)(e - p) + 1;
	return 0;
}

/*
 * RFC 9112 section 4: HTTP-version SP 3DIGIT SP [reason-phrase], and the
 * "HTTP/2 200" of HTTP/2 and HTTP/3 (RFC 9113 section 8.3.2 has no status
 * line; curl writes one so).  Return the status code, or 0.
 */
static int
status_line(const unsigned char *l, size_t n)
{
	size_t i = 6;

	if (n < 6 || memcmp(l, "HTTP/", 5) != 0 || !digit(l[5]))
		return 0;
	if (i < n && l[i] == '.') {
		if (++i >= n || !digit(l[i]))
			return 0;
		i++;
	}
	if (i >= n || l[i++] != ' ' || n - i < 3 || !digit(l[i]) ||
	    !digit(l[i + 1]) || !digit(l[i + 2]) || (n - i > 3 &&
	    l[i + 3] != ' '))
		return 0;
	/* RFC 9110 section 15: 100 to 599. */
	if (l[i] < '1' || l[i] > '5')
		return 0;
	return (l[i] - '0') * 100 + (l[i + 1] - '0') * 10 + (l[i + 2] - '0');
}

/* v (n bytes) without the OWS at either end (RFC 9110 section 5.5). */
static void
trim(const unsigned char **v, size_t *n)
{
	while (*n > 0 && (**v == ' ' || **v == '\t')) {
		(*v)++;
		(*n)--;
	}
	while (*n > 0 && ((*v)[*n - 1] == ' ' || (*v)[*n - 1] == '\t'))
		(*n)--;
}

/* More of the value of the one Content-Type. */
static void
ct_add(struct http *h, const char *sep, const unsigned char *v, size_t n)
{
	size_t have = strlen(h->ctype), s = strlen(sep);

	if (h->ct_long || have + s + n >= sizeof(h->ctype)) {
		h->ct_long = 1;
		return;
	}
	memcpy(h->ctype + have, sep, s);
	memcpy(h->ctype + have + s, v, n);
	h->ctype[have + s + n] = '\0';
}

/*
 * RFC 9110 section 8.4: a Content-Encoding is a list of codings; keep
 * the first one of v (n bytes) that is not "identity", shown in
 * printable ASCII, in h->coding.
 */
static void
codings(struct http *h, const unsigned char *v, size_t n)
{
	size_t i = 0, j, k, m;

	while (i < n) {
		while (i < n && (v[i] == ',' || v[i] == ' ' || v[i] == '\t'))
			i++;
		for (j = i; j < n && v[j] != ','; j++)
			continue;
		for (k = j; k > i && (v[k - 1] == ' ' || v[k - 1] == '\t'); k--)
			continue;
		if (k > i && !(k - i == 8 &&
		    strncasecmp((const char *)v + i, "identity", 8) == 0) &&
		    h->ncodings++ == 0) {
			for (m = 0; m < k - i && m + 1 < sizeof(h->coding); m++)
				h->coding[m] = v[i + m] > 0x20 && v[i + m] < 0x7F ?
				    (char)v[i + m] : '?';
			h->coding[m] = '\0';
		}
		i = j;
	}
}

/*
 * Read the heads at the start of the input p (n bytes: all of it, or
 * more than HTTP_HEAD_MAX) into h.  Return the bytes they take, which the body follows; 0
 * with h->malformed when the input does not begin with a status line,
 * a line is not a field line, the empty line never comes, or the heads
 * take more than HTTP_HEAD_MAX bytes.
 */
size_t
http_parse(const unsigned char *p, size_t n, struct http *h)
{
	size_t pos = 0, lim = n < HTTP_HEAD_MAX ? n : HTTP_HEAD_MAX, ln, i;
	const unsigned char *l;
	unsigned long lineno = 0;
	enum field last;

	memset(h, 0, sizeof(*h));
	do {
		/* A response: what earlier ones said does not count. */
		h->nct = 0;
		h->ctype[0] = '\0';
		h->ct_long = 0;
		h->coding[0] = '\0';
		h->ncodings = 0;
		last = F_NONE;
		if (next_line(p, lim, &pos, &l, &ln) < 0 ||
		    (h->status = status_line(l, ln)) == 0) {
			if (lineno == 0)
				return bad(h, "not an HTTP response: it does not "
				    "begin with a status line such as "
				    "\"HTTP/1.1 200 OK\"");
			return bad(h, "line %lu of the response head is not a "
			    "status line", lineno + 1);
		}
		lineno++;
		for (;;) {
			if (next_line(p, lim, &pos, &l, &ln) < 0) {
				if (lim == HTTP_HEAD_MAX)
					return bad(h, "the response head is longer "
					    "than %d bytes", HTTP_HEAD_MAX);
				return bad(h, "the response head never ends: no "
				    "empty line before the end of the input");
			}
			lineno++;
			if (ln == 0)
				break;
			if (memchr(l, '\0', ln) != NULL)
				return bad(h, "line %lu of the response head has "
				    "a NUL byte", lineno);
			/* RFC 9112 section 5.2: obs-fold, one more line of
			 * the field before; never before the first field. */
			if (l[0] == ' ' || l[0] == '\t') {
				if (last == F_NONE)
					return bad(h, "line %lu of the response "
					    "head begins with white space",
					    lineno);
				trim(&l, &ln);
				if (last == F_CTYPE && h->nct == 1)
					ct_add(h, " ", l, ln);
				else if (last == F_CODING)
					codings(h, l, ln);
				continue;
			}
			for (i = 0; i < ln && tchar(l[i]); i++)
				continue;
			if (i == 0 || i == ln || l[i] != ':')
				return bad(h, "line %lu of the response head is "
				    "not a field line (name: value)", lineno);
			last = F_OTHER;
			/* Field names are case-insensitive (RFC 9110
			 * section 5.1). */
			if (i == 12 && strncasecmp((const char *)l,
			    "content-type", 12) == 0)
				last = F_CTYPE;
			else if (i == 16 && strncasecmp((const char *)l,
			    "content-encoding", 16) == 0)
				last = F_CODING;
			l += i + 1;
			ln -= i + 1;
			trim(&l, &ln);
			if (last == F_CTYPE && ++h->nct == 1)
				ct_add(h, "", l, ln);
			else if (last == F_CODING)
				codings(h, l, ln);
		}
		/* Another head follows: a 1xx, a redirect, a proxy's. */
	} while (n - pos >= 6 && memcmp(p + pos, "HTTP/", 5) == 0 &&
	    digit(p[pos + 5]));
	h->len = pos;
	if (h->nct == 1 && h->ct_long)
		snprintf(h->ct_err, sizeof(h->ct_err), "longer than %zu bytes",
		    sizeof(h->ctype) - 1);
	else if (h->nct == 1 && mt_parse(h->ctype, &h->mt, h->ct_err,
	    sizeof(h->ct_err)) == 0)
		h->has_mt = 1;
	return pos;
}

/*
 * Add what the head h says is wrong to dg, ahead of what is there at
 * the same offset: the head comes before the body (the diagnostics are
 * ordered by offset, then by the order they were found in).
 */
void
http_note(const struct http *h, struct diags *dg)
{
	uint64_t before = dg->nseq;
	char shown[120];
	size_t i;
	int c;

	if (h->malformed)
		diag_add(dg, D_HTTP_MALFORMED, 0, 1, 1, "%s; the whole input "
		    "is read as the entity, without a Content-Type", h->why);
	else if (h->nct == 0)
		diag_add(dg, D_HTTP_NO_CONTENT_TYPE, 0, 1, 1, "the response "
		    "(status %d) has no Content-Type field (RFC 9110 section "
		    "8.3), so nothing outside the entity labels it; serve it "
		    "as application/xml with a charset", h->status);
	else if (h->nct > 1)
		diag_add(dg, D_HTTP_CONTENT_TYPE, 0, 1, 1, "the response has "
		    "%d Content-Type fields; Content-Type is one value, not a "
		    "list (RFC 9110 section 5.3), so none of them is used; "
		    "send one", h->nct);
	else if (!h->has_mt) {
		for (i = 0; h->ctype[i] != '\0' && i + 4 < sizeof(shown); i++)
			shown[i] = (unsigned char)h->ctype[i] >= 0x20 &&
			    (unsigned char)h->ctype[i] < 0x7F ? h->ctype[i] : '?';
		shown[i] = '\0';
		if (h->ctype[i] != '\0')
			memcpy(shown + i, "...", 4);
		diag_add(dg, D_HTTP_CONTENT_TYPE, 0, 1, 1, "the Content-Type "
		    "\"%s\" is malformed (%s; RFC 9110 section 8.3), so it is "
		    "not used; send a media type such as application/xml; "
		    "charset=utf-8", shown, h->ct_err);
	}
	if (h->coding[0] != '\0' && !h->examined)
		diag_add(dg, D_HTTP_ENCODED, 0, 1, 1, "the body has the content "
		    "coding \"%s\" (RFC 9110 section 8.4), %s: its bytes are "
		    "not the entity and are not examined; fetch it with curl "
		    "--compressed, which decodes it", h->coding,
		    h->coding_why);
	for (c = 0; c < D_NCODES; c++)
		if (dg->d[c].count > 0)
			dg->d[c].seq = dg->d[c].seq >= before ?
			    dg->d[c].seq - before : dg->d[c].seq + dg->nseq -
			    before;
}

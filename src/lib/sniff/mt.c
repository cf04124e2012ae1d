/*
 * The Content-Type value: RFC 7231 section 3.1.1.1 (media-type, token,
 * quoted-string; empty parameters as RFC 9110 allows), and the XML media
 * types of RFC 7303 sections 4 and 9.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core.h"

static int
tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' && strchr("!#$%&'*+-.^_`|~", c));
}

static const char *
ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Read a token at p into buf (lower case when lower); return the end. */
static const char *
token(const char *p, char *buf, size_t size, int lower)
{
	size_t n = 0;

	for (; tchar((unsigned char)*p); p++, n++)
		if (n + 1 < size)
			buf[n] = lower && *p >= 'A' && *p <= 'Z' ? (char)(*p + 32) :
			    *p;
	buf[n < size ? n : size - 1] = '\0';
	return p;
}

/* The value of a parameter at p (after its '='), into val; *np is its
 * length.  Return where it ends, or NULL (err says why). */
static const char *
param_value(const char *p, const char *name, char *val, size_t valsize,
    size_t *np, char *err, size_t errsize)
{
	const char *q;
	size_t n;

	if (*p != '"') {
		q = token(p, val, valsize, 0);
		if (q == p) {
			snprintf(err, errsize, "parameter \"%s\" has no value",
			    name);
			return NULL;
		}
		*np = (size_t)(q - p);
		return q;
	}
	for (n = 0, p++; *p != '"'; p++, n++) {
		if (*p == '\\' && p[1] != '\0')
			p++;
		else if (*p == '\0' || *p == '\\') {
			snprintf(err, errsize, "a quoted parameter value is not "
			    "closed");
			return NULL;
		}
		/* RFC 9110 qdtext and quoted-pair: no controls but HTAB. */
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7F) {
			snprintf(err, errsize, "a control character in a "
			    "quoted value");
			return NULL;
		}
		if (n + 1 < valsize)
			val[n] = *p;
	}
	val[n < valsize ? n : valsize - 1] = '\0';
	*np = n;
	return p + 1;
}

/* One "; name=value" of v at *pp (at the ';'); a charset goes to m.
 * Return -1 (err says why) when it is malformed. */
static int
parameter(const char *v, const char **pp, struct mt *m, char *err,
    size_t errsize)
{
	char name[128], val[128], shown[8];
	const char *p = *pp, *q;
	size_t n;

	if (*p != ';') {
		/* The byte as it is: each output escapes it by its rule. */
		shown[0] = *p;
		shown[1] = '\0';
		snprintf(err, errsize, "unexpected \"%s\" at byte %zu; "
		    "parameters are \"; name=value\"", shown,
		    (size_t)(p - v) + 1);
		return -1;
	}
	p = ows(p + 1);
	*pp = p;
	if (*p == ';' || *p == '\0')
		return 0;
	q = token(p, name, sizeof(name), 1);
	if (q == p || *q != '=') {
		snprintf(err, errsize, "a parameter at byte %zu is not "
		    "name=value", (size_t)(p - v) + 1);
		return -1;
	}
	if ((p = param_value(q + 1, name, val, sizeof(val), &n, err,
	    errsize)) == NULL)
		return -1;
	*pp = ows(p);
	if (strcmp(name, "charset") != 0)
		return 0;
	if (m->has_charset) {
		snprintf(err, errsize, "charset is given twice");
		return -1;
	}
	if (n == 0 || n >= sizeof(val)) {
		snprintf(err, errsize, "the charset value is %s", n == 0 ?
		    "empty" : "too long");
		return -1;
	}
	m->has_charset = 1;
	str_put(m->charset, sizeof(m->charset), val);
	return 0;
}

/*
 * Whether m (or NULL) is an XML media type that may be used for an entity
 * of role r.  RFC 7303 section 3: application/xml and text/xml MUST NOT
 * be used for an external DTD subset or an external parameter entity.
 * (For an external parsed entity they may be, where it is also a
 * well-formed document entity, which the bytes alone cannot tell.)
 */
int
mt_fits(const struct mt *m, enum role r)
{
	if (m == NULL || !m->xml)
		return 0;
	return r != ROLE_DTD || (strcmp(m->type, "application/xml") != 0 &&
	    strcmp(m->type, "text/xml") != 0);
}

/*
 * Parse a Content-Type value into m.  Return 0, or -1 with the reason in
 * err.  Names are case-insensitive; the charset value is kept as written.
 */
int
mt_parse(const char *v, struct mt *m, char *err, size_t errsize)
{
	static const char *const types[] = {
		"application/xml", "text/xml",
		"application/xml-external-parsed-entity",
		"text/xml-external-parsed-entity", "application/xml-dtd"
	};
	char type[128], sub[128];
	const char *p = ows(v), *q;
	size_t i, n;

	memset(m, 0, sizeof(*m));
	if (strlen(v) > 4096) {
		snprintf(err, errsize, "longer than 4096 bytes");
		return -1;
	}
	q = token(p, type, sizeof(type), 1);
	if (q == p || *q != '/') {
		snprintf(err, errsize, "expected type/subtype, as in "
		    "\"application/xml\"");
		return -1;
	}
	p = q + 1;
	q = token(p, sub, sizeof(sub), 1);
	if (q == p) {
		snprintf(err, errsize, "the subtype is missing after \"/\"");
		return -1;
	}
	if (strlen(type) > 63 || strlen(sub) > 63) {
		snprintf(err, errsize, "the media type is too long");
		return -1;
	}
	snprintf(m->type, sizeof(m->type), "%.63s/%.63s", type, sub);
	p = ows(q);
	while (*p != '\0')
		if (parameter(v, &p, m, err, errsize) < 0)
			return -1;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(m->type, types[i]) == 0)
			m->xml = 1;
	n = strlen(sub);
	if (n > 4 && strcmp(sub + n - 4, "+xml") == 0)
		m->xml = 1;
	if (strstr(m->type, "/xml-external-parsed-entity") != NULL && m->xml) {
		m->role = ROLE_ENTITY;
		m->role_known = 1;
	} else if (strcmp(m->type, "application/xml-dtd") == 0) {
		m->role = ROLE_DTD;
		m->role_known = 1;
	}
	return 0;
}

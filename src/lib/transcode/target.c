/*
 * The target of --transcode-to: its registry name, how it is written and
 * which BOM and declaration it gets (RFC 7303 section 3.3, XML 1.0
 * section 4.3.3).  Pure: the label in, struct xopts out; the only
 * questions asked are iconv's (iconvcap.c), never a file's.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "iconvcap.h"
#include "target.h"

/*
 * Resolve the target label: the registry name and how it is written.
 * RFC 7303 section 3.3: UTF-16 and UTF-32 carry a BOM (big-endian unless
 * le), their byte-order forms never do, and anything but UTF-8 and
 * UTF-16/32-with-BOM must declare its encoding.  Return -1 with the reason
 * in err for an unknown target or one iconv cannot write.
 */
int
target_resolve(const char *label, int le, int utf8_bom, struct xopts *xo,
    char *err, size_t errsize)
{
	struct enc *e = &xo->to;
	const char *n;

	memset(xo, 0, sizeof(*xo));
	if (enc_lookup(label, e) < 0) {
		snprintf(err, errsize, "\"%s\" is not an encoding that the IANA "
		    "registry or this system's iconv knows", label);
		return -1;
	}
	n = enc_report_name(e);
	snprintf(xo->declname, sizeof(xo->declname), "%s", n);
	xo->need_decl = 1;
	if (strcmp(n, "UTF-8") == 0) {
		xo->kind = FORM_UTF8;
		xo->bom = utf8_bom;
		xo->need_decl = 0;
	} else if (strcmp(n, "UTF-16") == 0) {
		xo->kind = le ? FORM_UTF16LE : FORM_UTF16BE;
		xo->bom = 1;
		xo->need_decl = 0;
	} else if (strcmp(n, "UTF-16BE") == 0)
		xo->kind = FORM_UTF16BE;
	else if (strcmp(n, "UTF-16LE") == 0)
		xo->kind = FORM_UTF16LE;
	else if (strcmp(n, "UTF-32") == 0) {
		/* XML 1.0 section 4.3.3: neither UTF-8 nor UTF-16, so the
		 * declaration is required, BOM or not. */
		xo->kind = le ? FORM_UTF32LE : FORM_UTF32BE;
		xo->bom = 1;
	} else if (strcmp(n, "UTF-32BE") == 0)
		xo->kind = FORM_UTF32BE;
	else if (strcmp(n, "UTF-32LE") == 0)
		xo->kind = FORM_UTF32LE;
	else if (strcmp(n, "ISO-10646-UCS-4") == 0)
		/* Not UTF-32: no BOM, big-endian as ISO/IEC 10646 reads
		 * unmarked text, and the declaration that names it (RFC
		 * 7303 section 3.3, XML 1.0 section 4.3.3). */
		xo->kind = FORM_UTF32BE;
	else if (strcmp(n, "ISO-10646-UCS-2") == 0) {
		/* Likewise; what is above U+FFFF is unrepresentable. */
		xo->kind = FORM_ICONV;
		snprintf(xo->iconv, sizeof(xo->iconv), "UCS-2BE");
	} else {
		xo->kind = FORM_ICONV;
		snprintf(xo->iconv, sizeof(xo->iconv), "%s", enc_iconv(e));
	}
	if (xo->kind == FORM_ICONV && !enc_iconv_ok(xo->iconv)) {
		snprintf(err, errsize, "this system's iconv cannot write %s", n);
		return -1;
	}
	/* RFC 7303 section 3.3: "anything else" never begins with a BOM;
	 * a converter that writes one of its own (UCS-2 in some iconvs;
	 * glibc's UNICODE is looked up as ISO-10646-UCS-2 before this)
	 * cannot be used. */
	if (xo->kind == FORM_ICONV && !xo->bom && icap_writes_bom(xo->iconv)) {
		snprintf(err, errsize, "iconv writes a byte order mark of its "
		    "own for %s; use UTF-16 or UTF-32", n);
		return -1;
	}
	return 0;
}

/*
 * Return whether the declaration's characters, as the authoritative
 * decoder reads them, are laid out as the sniffed bytes were (one unit a
 * character): only then do its byte offsets say where the encoding value
 * is.  A charset parameter that contradicts the byte pattern breaks this.
 */
int
target_decl_ok(const struct sniff *s)
{
	enum unit u = s->bom != BOM_NONE ? unit_of_bom(s->bom) :
	    unit_of_pat(s->pat);

	switch (s->dec) {
	case FORM_UTF8:
		return u == UNIT_8;
	case FORM_UTF16BE:
		return u == UNIT_16BE;
	case FORM_UTF16LE:
		return u == UNIT_16LE;
	case FORM_UTF32BE:
		return u == UNIT_32BE;
	case FORM_UTF32LE:
		return u == UNIT_32LE;
	case FORM_ICONV:
		return s->enc.family == ENC_F_EBCDIC ? u == UNIT_EBCDIC :
		    enc_is_16(s->enc.family) ? u == UNIT_16BE ||
		    u == UNIT_16LE : u == UNIT_8;
	default:
		return 0;
	}
}

/* The ASCII string s at out + k; return the new end. */
static size_t
put_ascii(uint32_t *out, size_t k, const char *s)
{
	for (; *s != '\0'; s++)
		out[k++] = (unsigned char)*s;
	return k;
}

/*
 * The declaration of the output (RFC 7303 section 3.3, XML 1.0 section
 * 4.3.3), from the characters in[0..n) of the entity's own declaration d
 * (usz bytes a character as it was sniffed): an existing encoding value
 * is rewritten to the target's name keeping its quotes (unless
 * xo->keep_decl); a declaration without one gets one after its version
 * when the target needs it; an entity without a declaration gets one when
 * the target needs it.  Nothing else changes.  Return the characters
 * written to out, which has room for n + TARGET_DECL_SLACK.
 */
size_t
target_decl(const struct xopts *xo, const struct decl *d, size_t usz,
    const uint32_t *in, size_t n, uint32_t *out)
{
	size_t es, ee, ve, i, k = 0;
	int redo;

	if (!d->present) {
		if (xo->need_decl) {
			k = put_ascii(out, k, "<?xml version=\"1.0\" "
			    "encoding=\"");
			k = put_ascii(out, k, xo->declname);
			k = put_ascii(out, k, "\"?>");
		}
		return k;
	}
	es = (d->enc_off - d->start) / usz;
	ee = (d->enc_end - d->start) / usz;
	ve = (d->ver_end - d->start) / usz;
	redo = d->has_encoding && !xo->keep_decl;
	for (i = 0; i < n; i++) {
		if (redo && i == es)
			k = put_ascii(out, k, xo->declname);
		if (redo && i >= es && i < ee)
			continue;
		out[k++] = in[i];
		if (!d->has_encoding && xo->need_decl && i + 1 == ve) {
			char q[2] = { (char)in[i], '\0' };

			k = put_ascii(out, k, " encoding=");
			k = put_ascii(out, k, q);
			k = put_ascii(out, k, xo->declname);
			k = put_ascii(out, k, q);
		}
	}
	/* An empty encoding value ends where it starts. */
	if (redo && es >= n)
		k = put_ascii(out, k, xo->declname);
	return k;
}

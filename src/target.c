/*
 * The target of --transcode-to: its registry name, how it is written and
 * which BOM and declaration it gets (RFC 7303 section 3.3, XML 1.0
 * section 4.3.3).  Pure: the label in, struct xopts out; the only
 * questions asked are iconv's (iconvcap.c), never a file's.
 */
#include <stdio.h>
#include <string.h>

#include "xmlsniff.h"
#include "transcode.h"

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
	n = e->name;
	snprintf(xo->declname, sizeof(xo->declname), "%s", n);
	xo->need_decl = 1;
	if (strcmp(n, "UTF-8") == 0) {
		xo->kind = T_UTF8;
		xo->bom = utf8_bom;
		xo->need_decl = 0;
	} else if (strcmp(n, "UTF-16") == 0) {
		xo->kind = le ? T_UTF16LE : T_UTF16BE;
		xo->bom = 1;
		xo->need_decl = 0;
	} else if (strcmp(n, "UTF-16BE") == 0)
		xo->kind = T_UTF16BE;
	else if (strcmp(n, "UTF-16LE") == 0)
		xo->kind = T_UTF16LE;
	else if (strcmp(n, "UTF-32") == 0) {
		/* XML 1.0 section 4.3.3: neither UTF-8 nor UTF-16, so the
		 * declaration is required, BOM or not. */
		xo->kind = le ? T_UTF32LE : T_UTF32BE;
		xo->bom = 1;
	} else if (strcmp(n, "UTF-32BE") == 0)
		xo->kind = T_UTF32BE;
	else if (strcmp(n, "UTF-32LE") == 0)
		xo->kind = T_UTF32LE;
	else if (strcmp(n, "ISO-10646-UCS-4") == 0)
		/* Not UTF-32: no BOM, big-endian as ISO/IEC 10646 reads
		 * unmarked text, and the declaration that names it (RFC
		 * 7303 section 3.3, XML 1.0 section 4.3.3). */
		xo->kind = T_UTF32BE;
	else if (strcmp(n, "ISO-10646-UCS-2") == 0) {
		/* Likewise; what is above U+FFFF is unrepresentable. */
		xo->kind = T_ICONV;
		snprintf(xo->iconv, sizeof(xo->iconv), "UCS-2BE");
	} else {
		xo->kind = T_ICONV;
		snprintf(xo->iconv, sizeof(xo->iconv), "%s", enc_iconv(e));
	}
	if (xo->kind == T_ICONV && !enc_iconv_ok(xo->iconv)) {
		snprintf(err, errsize, "this system's iconv cannot write %s", n);
		return -1;
	}
	/* RFC 7303 section 3.3: "anything else" never begins with a BOM;
	 * a converter that writes one of its own (UCS-2 in some iconvs;
	 * glibc's UNICODE is looked up as ISO-10646-UCS-2 before this)
	 * cannot be used. */
	if (xo->kind == T_ICONV && !xo->bom && icap_writes_bom(xo->iconv)) {
		snprintf(err, errsize, "iconv writes a byte order mark of its "
		    "own for %s; use UTF-16 or UTF-32", n);
		return -1;
	}
	return 0;
}

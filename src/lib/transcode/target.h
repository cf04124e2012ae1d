/*
 * The target of --transcode-to: its form, BOM and declaration (target.c;
 * target_resolve is in xmlsniff.h).
 */
#ifndef TARGET_H
#define TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* What target_decl may add to a declaration: a name, " encoding=" and
 * quotes, or a whole declaration. */
#define TARGET_DECL_SLACK	(sizeof(((struct xopts *)0)->declname) + 32)

int		 target_decl_ok(const struct sniff *);
size_t		 target_decl(const struct xopts *, const struct decl *,
		    size_t, const uint32_t *, size_t, uint32_t *);

/* Write c in the Unicode target k at o (room for 4 bytes); return the
 * bytes written. */
static inline size_t
target_put(enum form k, uint32_t c, unsigned char *o)
{
	uint32_t hi, lo;

	switch (k) {
	case FORM_UTF8:
		return (size_t)utf8_enc(o, c);
	case FORM_UTF16BE:
	case FORM_UTF16LE:
		if (c < 0x10000) {
			o[k == FORM_UTF16BE ? 0 : 1] = (unsigned char)(c >> 8);
			o[k == FORM_UTF16BE ? 1 : 0] = (unsigned char)c;
			return 2;
		}
		hi = 0xD800 + ((c - 0x10000) >> 10);
		lo = 0xDC00 + ((c - 0x10000) & 0x3FF);
		o[k == FORM_UTF16BE ? 0 : 1] = (unsigned char)(hi >> 8);
		o[k == FORM_UTF16BE ? 1 : 0] = (unsigned char)hi;
		o[k == FORM_UTF16BE ? 2 : 3] = (unsigned char)(lo >> 8);
		o[k == FORM_UTF16BE ? 3 : 2] = (unsigned char)lo;
		return 4;
	case FORM_UTF32BE:
		o[0] = (unsigned char)(c >> 24);
		o[1] = (unsigned char)(c >> 16);
		o[2] = (unsigned char)(c >> 8);
		o[3] = (unsigned char)c;
		return 4;
	default:
		o[3] = (unsigned char)(c >> 24);
		o[2] = (unsigned char)(c >> 16);
		o[1] = (unsigned char)(c >> 8);
		o[0] = (unsigned char)c;
		return 4;
	}
}

#endif

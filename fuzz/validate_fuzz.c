/*
 * The validators, differentially: every fast path against the
 * character-at-a-time definition (same plain prefix, lines and columns),
 * the UTF-8 decoder against a plain bit-pattern reference, and the
 * UTF-16/UTF-32 validators against iconv(3): the same verdict and the same
 * first error offset.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Reference UTF-8: length of the valid sequence at p, or 0 if invalid or
 * incomplete (RFC 3629 section 4, written out by value ranges). */
static size_t
ref_utf8(const uint8_t *p, size_t n)
{
	uint32_t c;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xE0) == 0xC0)
		len = 2, c = p[0] & 0x1F;
	else if ((p[0] & 0xF0) == 0xE0)
		len = 3, c = p[0] & 0x0F;
	else if ((p[0] & 0xF8) == 0xF0)
		len = 4, c = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3F);
	}
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
	    (len == 4 && c < 0x10000) || c > 0x10FFFF ||
	    (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return len;
}

/* First offset that is not valid UTF-8, or n. */
static size_t
first_bad_utf8(const uint8_t *p, size_t n)
{
	size_t i = 0, k;

	while (i < n && (k = ref_utf8(p + i, n - i)) > 0)
		i += k;
	return i;
}

/* Validate p as the iconv encoding name, in two pieces; the diagnostics
 * go to dg. */
static void
val_iconv(const uint8_t *p, size_t n, const char *name, struct diags *dg)
{
	static struct sniff s;
	struct val *v;
	size_t used;

	memset(&s, 0, sizeof(s));
	s.dec = FORM_ICONV;
	snprintf(s.dec_iconv, sizeof(s.dec_iconv), "%s", name);
	snprintf(s.encname, sizeof(s.encname), "%s", name);
	if ((v = val_new(&s, &s.dg)) == NULL)
		abort();
	used = val_feed(v, p, n / 2, 0);
	val_feed(v, p + used, n - used, 1);
	val_free(v);
	*dg = s.dg;
}

/* Whether two runs gave the same diagnostics (count, first position). */
static int
same_diags(const struct diags *a, const struct diags *b)
{
	int k;

	/* A code's position means something only while its count is
	 * above 0 (diag_clear leaves the rest). */
	for (k = 0; k < D_NCODES; k++)
		if (a->d[k].count != b->d[k].count || (a->d[k].count > 0 &&
		    (a->d[k].off != b->d[k].off ||
		    a->d[k].line != b->d[k].line ||
		    a->d[k].col != b->d[k].col)))
			return 0;
	return 1;
}

/* The validator's first illegal-sequence offset, or n. */
static size_t
val_first_bad(const uint8_t *p, size_t n, enum form dec)
{
	static struct sniff s;
	struct val *v;
	size_t off = n;

	memset(&s, 0, sizeof(s));
	s.dec = dec;
	snprintf(s.encname, sizeof(s.encname), "x");
	v = val_new(&s, &s.dg);
	val_feed(v, p, n, 1);
	val_free(v);
	if (s.dg.d[D_ILLEGAL_SEQUENCE].count)
		off = (size_t)s.dg.d[D_ILLEGAL_SEQUENCE].off;
	return off;
}

/* iconv's first failing offset decoding p as from, or n. */
static size_t
iconv_first_bad(const uint8_t *p, size_t n, const char *from)
{
	iconv_t cd = iconv_open("UTF-32LE", from);
	char out[4096], *ip = (char *)p, *op;
	size_t il = n, ol, bad = n;

	if (cd == (iconv_t)-1)
		abort();
	while (il > 0) {
		op = out;
		ol = sizeof(out);
		if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 && errno != E2BIG) {
			bad = (size_t)(ip - (char *)p);
			break;
		}
	}
	iconv_close(cd);
	return bad;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const modes[] = { "avx512", "avx2", "sse2", "none" };
	uint64_t rl = 1, rc = 1, l, c;
	size_t ref, i, be;

	/* Fast paths against the reference. */
	simd_init("ref");
	ref = plain_utf8_ref(data, size, &rl, &rc);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		l = c = 1;
		simd_init(modes[i]);
		if (plain_utf8(data, size, &l, &c) != ref || l != rl || c != rc)
			__builtin_trap();
	}
	for (be = 0; be < 2; be++) {
		rl = rc = 1;
		ref = plain_utf16_ref(data, size, (int)be, &rl, &rc);
		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			l = c = 1;
			simd_init(modes[i]);
			if (plain_utf16(data, size, (int)be, &l, &c) != ref ||
			    l != rl || c != rc)
				__builtin_trap();
		}
	}
	simd_init(NULL);

	/* Multi-byte encodings decoded in blocks against a character at a
	 * time: the same diagnostics. */
	{
		static const char *const mb[] = { "SHIFT_JIS", "EUC-JP",
		    "GB18030", "BIG5" };
		static struct diags a, b;

		for (i = 0; i < 4; i++) {
			val_char_only = 0;
			val_iconv(data, size, mb[i], &a);
			val_char_only = 1;
			val_iconv(data, size, mb[i], &b);
			val_char_only = 0;
			if (!same_diags(&a, &b))
				__builtin_trap();
		}
	}

	/* Single-byte encodings, whose plain bytes go through plain_sb at
	 * every level, against a character at a time. */
	{
		static const char *const sb[] = { "ISO-8859-1", "WINDOWS-1252",
		    "KOI8-R" };
		static struct diags a, b;
		size_t m;

		for (i = 0; i < 3; i++) {
			val_char_only = 1;
			val_iconv(data, size, sb[i], &b);
			val_char_only = 0;
			for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
				simd_init(modes[m]);
				val_iconv(data, size, sb[i], &a);
				if (!same_diags(&a, &b))
					__builtin_trap();
			}
		}
		simd_init(NULL);
	}

	/* Decoders against references. */
	if (val_first_bad(data, size, FORM_UTF8) != first_bad_utf8(data, size))
		__builtin_trap();
	if (val_first_bad(data, size, FORM_UTF16LE) !=
	    iconv_first_bad(data, size, "UTF-16LE"))
		__builtin_trap();
	if (val_first_bad(data, size, FORM_UTF16BE) !=
	    iconv_first_bad(data, size, "UTF-16BE"))
		__builtin_trap();
	if (val_first_bad(data, size, FORM_UTF32LE) !=
	    iconv_first_bad(data, size, "UTF-32LE"))
		__builtin_trap();
	return 0;
}

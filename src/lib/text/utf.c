/*
 * The Unicode text layer (utf.h): the one external definition of each of
 * its C99 inline functions, for the callers that do not take them inline;
 * why a rejected sequence is illegal, for the messages.
 */
#include <stdio.h>
#include <string.h>

#include "utf.h"

extern inline uint32_t	load_le16(const unsigned char *);
extern inline uint32_t	load_be16(const unsigned char *);
extern inline uint32_t	load_le32(const unsigned char *);
extern inline uint32_t	load_be32(const unsigned char *);
extern inline int	utf8_dec(const unsigned char *, size_t, uint32_t *);
extern inline int	utf16_dec(const unsigned char *, size_t, int,
			    uint32_t *);
extern inline int	utf32_dec(const unsigned char *, size_t, int,
			    uint32_t *);
extern inline int	xml_char_ok(uint32_t, int);

/*
 * Why utf8_dec rejected the n bytes at p (RFC 3629 sections 3 and 4, the
 * table of well-formed sequences).  When p[0] is a lead byte, p[n] is the
 * byte that stopped the sequence (utf8_dec read it); otherwise n is 1 and
 * nothing past p[0] is read.  Never NULL.
 */
const char *
utf8_why(const unsigned char *p, size_t n)
{
	unsigned b = p[0], t;

	if (b >= 0x80 && b <= 0xBF)
		return "a stray continuation byte";
	if (b == 0xC0 || b == 0xC1)
		return "an overlong encoding: C0 and C1 are never used";
	if (b >= 0xF5 && b <= 0xF7)
		return "above U+10FFFF: F5 to F7 are never used";
	if (b >= 0xF8 || b < 0x80)
		return "a byte never used in UTF-8";
	/* A lead byte: its second byte may be a continuation byte outside
	 * the range that this lead allows. */
	t = n == 1 ? p[1] : 0;
	if (t >= 0x80 && t <= 0xBF) {
		if ((b == 0xE0 && t < 0xA0) || (b == 0xF0 && t < 0x90))
			return "an overlong encoding";
		if (b == 0xED)
			return "a surrogate encoded in UTF-8";
		if (b == 0xF4)
			return "above U+10FFFF";
	}
	return "a truncated sequence: too few continuation bytes";
}

/* Why utf16_dec rejected the unit at p (RFC 2781 section 2.2), into
 * buf: an unpaired surrogate, high or low.  be: big-endian. */
void
utf16_why(const unsigned char *p, int be, char *buf, size_t size)
{
	uint32_t u = be ? load_be16(p) : load_le16(p);

	if (u >= 0xDC00)
		snprintf(buf, size, "a low surrogate U+%04X without a high "
		    "one before it", (unsigned)u);
	else
		snprintf(buf, size, "a high surrogate U+%04X not followed by "
		    "a low one", (unsigned)u);
}

/* Why utf32_dec rejected the unit at p, into buf: a surrogate or a
 * value above U+10FFFF.  be: big-endian. */
void
utf32_why(const unsigned char *p, int be, char *buf, size_t size)
{
	uint32_t u = be ? load_be32(p) : load_le32(p);

	if (u >= 0xD800 && u <= 0xDFFF)
		snprintf(buf, size, "the surrogate U+%04X", (unsigned)u);
	else
		snprintf(buf, size, "0x%lX, above U+10FFFF", (unsigned long)u);
}

void
mem_zero(void *p, size_t n)
{
	memset(p, 0, n);
}

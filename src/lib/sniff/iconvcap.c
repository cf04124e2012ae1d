/*
 * What this system's iconv(3) can do, found by asking it: which names it
 * accepts, how it writes "<?xml" (XML 1.0 Appendix F), whether a decoder
 * has shift states or a byte table, and, for a transcoding target, which
 * characters survive a round trip, which ASCII it writes unchanged and
 * which byte a single-byte target writes for each character.  Converters
 * differ (glibc, musl, GNU libiconv): nothing here is assumed, and every
 * answer that costs a converter is kept.
 */
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core.h"
#include "iconvcap.h"

/*
 * The iconv name of the code-point layout the converters use: UTF-32LE,
 * or WCHAR_T where that is the same bytes (glibc: UCS-4 in host order on a
 * little-endian machine), since glibc converts to it in one step instead
 * of two, four times as fast.
 */
static const char *u32le;
static pthread_once_t u32le_once = PTHREAD_ONCE_INIT;

static void
u32le_find(void)
{
	iconv_t cd = iconv_open("WCHAR_T", "UTF-8");
	char in[] = "A\xC3\xA9", out[16], *ip = in, *op = out;
	size_t il = 3, ol = sizeof(out);

	u32le = "UTF-32LE";
	if (cd != (iconv_t)-1) {
		if (iconv(cd, &ip, &il, &op, &ol) == 0 && ol ==
		    sizeof(out) - 8 && memcmp(out, "A\0\0\0\xE9\0\0\0", 8)
		    == 0)
			u32le = "WCHAR_T";
		iconv_close(cd);
	}
}

const char *
enc_u32le(void)
{
	pthread_once(&u32le_once, u32le_find);
	return u32le;
}

/*
 * Return whether iconv(3) can decode from (and encode to) name.  The
 * answers are kept (memo.c): a tree of files in one encoding would
 * otherwise open and close two converters per file.
 */
int
enc_iconv_ok(const char *name)
{
	static struct memo known;
	iconv_t cd;
	int ok = 0;

	if (name[0] == '\0')
		return 0;
	if (memo_get(&known, name, &ok))
		return ok;
	if ((cd = iconv_open("UTF-8", name)) != (iconv_t)-1) {
		iconv_close(cd);
		if ((cd = iconv_open(name, "UTF-8")) != (iconv_t)-1) {
			iconv_close(cd);
			ok = 1;
		}
	}
	memo_put(&known, name, ok);
	return ok;
}

/*
 * iconv_open(to, from), for a descriptor of one entity's (a decoder, a
 * transcoder, the guess's reading): the first time a pair is asked for, a
 * second descriptor of it is opened and kept for the life of the process,
 * and with it the converter's module.  glibc unloads a module that no
 * descriptor holds once three others have been released after it, and
 * these descriptors are opened and closed by the entity: a run over
 * entities in several encodings loaded a dozen modules again for each
 * (an openat, four mmaps, a munmap and the relocations: where page
 * faults are dear the guess of 1,000 entities in one run took 4.4 to
 * 4.8 s instead of 0.49, the Python package's tests 17.5 s instead of
 * 9.8).  No lock: the pairs seen are a memo (memo.c), the descriptors a
 * row of atomic slots; two threads that meet a pair at once may both
 * keep one.  At most ICAP_HELD are kept; past them a pair is only opened.
 */
#define ICAP_HELD	MEMO_SLOTS

iconv_t
iconv_open_held(const char *to, const char *from)
{
	static struct memo seen;
	static _Atomic(iconv_t) held[ICAP_HELD];
	iconv_t cd = iconv_open(to, from), keep, none;
	char key[128];
	size_t i;
	int v;

	if (cd == (iconv_t)-1 || !memo_pair(key, sizeof(key), to, from) ||
	    memo_get(&seen, key, &v))
		return cd;
	memo_put(&seen, key, 1);
	if ((keep = iconv_open(to, from)) == (iconv_t)-1)
		return cd;
	for (i = 0; i < ICAP_HELD; i++) {
		none = NULL;
		if (atomic_compare_exchange_strong(&held[i], &none, keep))
			return cd;
	}
	iconv_close(keep);
	return cd;
}

/*
 * Family of an encoding only iconv knows: how it writes "<?xml"
 * (XML Appendix F), 8-bit or in 16/32-bit units of one byte order.
 */
enum family
icap_family(const char *name)
{
	char in[] = "<?xml", out[32];
	char *ip = in, *op = out;
	size_t il = 5, ol = sizeof(out);
	iconv_t cd;
	enum family f = ENC_F_OTHER;

	if ((cd = iconv_open(name, "UTF-8")) == (iconv_t)-1)
		return f;
	if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0) {
		if (op - out == 5 && memcmp(out, "<?xml", 5) == 0)
			f = ENC_F_ASCII;
		else if (op - out == 5 &&
		    memcmp(out, "\x4C\x6F\xA7\x94\x93", 5) == 0)
			f = ENC_F_EBCDIC;
		else if (op - out == 10 && memcmp(out, "\0<\0?\0x", 6) == 0)
			f = ENC_F_16BE;
		else if (op - out == 10 && memcmp(out, "<\0?\0x\0", 6) == 0)
			f = ENC_F_16LE;
		else if (op - out == 20 &&
		    memcmp(out, "\0\0\0<\0\0\0?", 8) == 0)
			f = ENC_F_32BE;
		else if (op - out == 20 &&
		    memcmp(out, "<\0\0\0?\0\0\0", 8) == 0)
			f = ENC_F_32LE;
	}
	iconv_close(cd);
	return f;
}

/* Build the byte table of a single-byte encoding (decoder cd, to
 * enc_u32le()): the code point of each byte, or SB_BAD; return 0 if it is
 * not one (some byte starts a longer sequence, or the converter has
 * state). */
int
sb_build(iconv_t cd, uint32_t *map)
{
	int b;

	for (b = 0; b < 256; b++) {
		char in = (char)b, *ip = &in;
		unsigned char out[8];
		char *op = (char *)out;
		size_t il = 1, ol = sizeof(out);

		iconv(cd, NULL, NULL, NULL, NULL);
		if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1) {
			if (errno != EILSEQ)
				return 0;
			map[b] = SB_BAD;
			continue;
		}
		if (ol != sizeof(out) - 4 || il != 0)
			return 0;
		map[b] = load_le32(out);
	}
	iconv(cd, NULL, NULL, NULL, NULL);
	return 1;
}

/*
 * Return whether a decoder has no shift states: ESC, SO, "+" and "~", which
 * start the escapes of ISO-2022-*, EBCDIC DBCS, UTF-7 and HZ, each decode
 * to a character on their own.  Its input then decodes the same cut at
 * any character boundary.
 */
int
icap_stateless(iconv_t cd)
{
	static const char *const escapes[] = { "\x1B", "\x0E", "+", "~" };
	static const char *const letters[] = { "a", "\xE0", "\x88\x62" };
	size_t i;

	for (i = 0; i < 7; i++) {
		const char *in = i < 4 ? escapes[i] : letters[i - 4];
		char out[16], *ip = (char *)in, *op = out;
		size_t il = strlen(in), ol = sizeof(out);
		size_t r;

		iconv(cd, NULL, NULL, NULL, NULL);
		r = iconv(cd, &ip, &il, &op, &ol);
		/* An escape byte must make its character alone... */
		if (i < 4 && (r == (size_t)-1 || ol != sizeof(out) - 4))
			break;
		/* ... and no letter may be held back for what follows. */
		if (i >= 4 && r != (size_t)-1 && il == 0 && ol == sizeof(out))
			break;
	}
	iconv(cd, NULL, NULL, NULL, NULL);
	return i == 7;
}

/*
 * Whether p[0..len), which the stateless decoder cd calls incomplete at
 * the end of the input, starts some character: one byte more decodes or
 * is still incomplete.  glibc says EILSEQ for a lone byte that starts no
 * sequence (Shift_JIS FD), musl says EINVAL for every lead byte it has
 * not seen the rest of; asking again makes "truncated" mean the same on
 * both.  The probes reset the decoder's state.
 */
int
icap_starts_char(iconv_t cd, const unsigned char *p, size_t len)
{
	unsigned char buf[16], out[64];
	int b, r = 0;

	if (len >= sizeof(buf))
		return 1;
	memcpy(buf, p, len);
	for (b = 0; b < 256 && !r; b++) {
		char *ip = (char *)buf, *op = (char *)out;
		size_t il = len + 1, ol = sizeof(out);

		buf[len] = (unsigned char)b;
		iconv(cd, NULL, NULL, NULL, NULL);
		r = iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 ||
		    errno != EILSEQ || ip != (char *)buf;
	}
	iconv(cd, NULL, NULL, NULL, NULL);
	return r;
}

/* Return whether iconv, writing "<" in name, starts with a BOM (RFC 7303
 * section 3.3 forbids one for all but UTF-8, UTF-16 and UTF-32). */
int
icap_writes_bom(const char *name)
{
	iconv_t cd = iconv_open(name, "UTF-8");
	char in[] = "<", out[16], *ip = in, *op = out;
	size_t il = 1, ol = sizeof(out), len;
	int bom = 0;

	if (cd == (iconv_t)-1)
		return 0;
	if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1) {
		len = sizeof(out) - ol;
		bom = (len >= 2 && ((unsigned char)out[0] == 0xFE &&
		    (unsigned char)out[1] == 0xFF)) || (len >= 2 &&
		    (unsigned char)out[0] == 0xFF &&
		    (unsigned char)out[1] == 0xFE) || (len >= 3 &&
		    memcmp(out, "\xEF\xBB\xBF", 3) == 0) || (len >= 4 &&
		    memcmp(out, "\0\0\xFE\xFF", 4) == 0);
	}
	iconv_close(cd);
	return bom;
}

/* Open the probing converters of the iconv target name (ic all zero
 * before); return -1 when iconv cannot, with both closed. */
int
icap_open(struct icap *ic, const char *name)
{
	ic->enc = ic->dec = (iconv_t)-1;
	if ((ic->enc = iconv_open(name, enc_u32le())) == (iconv_t)-1 ||
	    (ic->dec = iconv_open(enc_u32le(), name)) == (iconv_t)-1) {
		icap_close(ic);
		return -1;
	}
	return 0;
}

void
icap_close(struct icap *ic)
{
	if (ic->enc != (iconv_t)-1)
		iconv_close(ic->enc);
	if (ic->dec != (iconv_t)-1)
		iconv_close(ic->dec);
	ic->enc = ic->dec = (iconv_t)-1;
}

/*
 * Return whether character c survives the target: iconv writes it, and
 * reading those bytes back gives c again.  glibc's Shift_JIS, for one,
 * writes U+007E and U+005C as bytes that it reads back as U+203E and
 * U+00A5 without reporting a loss, so success alone proves nothing.  The
 * answer for each BMP character is computed once and kept.
 */
int
icap_rt(struct icap *ic, uint32_t c)
{
	unsigned char in[4], mid[32], back[16];
	char *ip, *op;
	size_t il, ol, m;
	int ok = 0;

	if (c < 0x10000 && (ic->tested[c >> 3] & (1 << (c & 7))))
		return (ic->good[c >> 3] & (1 << (c & 7))) != 0;
	in[0] = (unsigned char)c;
	in[1] = (unsigned char)(c >> 8);
	in[2] = (unsigned char)(c >> 16);
	in[3] = (unsigned char)(c >> 24);
	iconv(ic->enc, NULL, NULL, NULL, NULL);
	iconv(ic->dec, NULL, NULL, NULL, NULL);
	ip = (char *)in;
	il = 4;
	op = (char *)mid;
	ol = sizeof(mid);
	if (iconv(ic->enc, &ip, &il, &op, &ol) == 0 &&
	    iconv(ic->enc, NULL, NULL, &op, &ol) == 0) {
		m = sizeof(mid) - ol;
		ip = (char *)mid;
		il = m;
		op = (char *)back;
		ol = sizeof(back);
		ok = iconv(ic->dec, &ip, &il, &op, &ol) == 0 && il == 0 &&
		    iconv(ic->dec, NULL, NULL, &op, &ol) == 0 &&
		    sizeof(back) - ol == 4 && memcmp(back, in, 4) == 0;
	}
	if (c < 0x10000) {
		ic->tested[c >> 3] |= (unsigned char)(1 << (c & 7));
		if (ok)
			ic->good[c >> 3] |= (unsigned char)(1 << (c & 7));
	}
	return ok;
}

/* Return whether the target writes ASCII c as the one byte c. */
static int
ascii_ident(struct icap *ic, uint32_t c)
{
	unsigned char in[4] = { (unsigned char)c, 0, 0, 0 }, out[16];
	char *ip = (char *)in, *op = (char *)out;
	size_t il = 4, ol = sizeof(out);

	if (!icap_rt(ic, c))
		return 0;
	iconv(ic->enc, NULL, NULL, NULL, NULL);
	if (iconv(ic->enc, &ip, &il, &op, &ol) != 0 ||
	    iconv(ic->enc, NULL, NULL, &op, &ol) != 0)
		return 0;
	return op - (char *)out == 1 && out[0] == c;
}

/*
 * Return whether the target has shift states: a character it has beyond
 * ASCII leaves bytes to write on the return to the initial state
 * (ISO-2022-JP, HZ, UTF-7).  Writing ASCII as it is there would put that
 * return wherever the runs happen to break, so the output would depend
 * on the reads.
 */
static int
stateful(struct icap *ic)
{
	static const uint32_t probe[] = { 0xE9, 0x3042, 0x410, 0x4E00, 0x3B1 };
	size_t i;

	for (i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		unsigned char in[4], out[32];
		char *ip = (char *)in, *op = (char *)out;
		size_t il = 4, ol = sizeof(out);

		if (!icap_rt(ic, probe[i]))
			continue;
		in[0] = (unsigned char)probe[i];
		in[1] = (unsigned char)(probe[i] >> 8);
		in[2] = in[3] = 0;
		iconv(ic->enc, NULL, NULL, NULL, NULL);
		if (iconv(ic->enc, &ip, &il, &op, &ol) != 0)
			continue;
		ip = op;
		if (iconv(ic->enc, NULL, NULL, &op, &ol) == 0 && op != ip)
			return 1;
	}
	return 0;
}

/*
 * A single-byte target is written from a table instead of through iconv:
 * each byte's character (sb_build), kept when iconv writes that character
 * as a byte that reads back as it.  The table then holds exactly the
 * characters icap_rt accepts, with the bytes iconv writes for them.
 */
static void
sb_target(struct icap *ic)
{
	uint32_t map[256];
	int b;

	if (!sb_build(ic->dec, map))
		return;
	for (b = 0; b < 256; b++) {
		uint32_t c = map[b];
		unsigned char in[4], out[16];
		char *ip = (char *)in, *op = (char *)out;
		size_t il = 4, ol = sizeof(out);

		if (c == SB_BAD || c >= 0x10000 ||
		    (ic->sb_has[c >> 3] & (1 << (c & 7))))
			continue;
		in[0] = (unsigned char)c;
		in[1] = (unsigned char)(c >> 8);
		in[2] = in[3] = 0;
		iconv(ic->enc, NULL, NULL, NULL, NULL);
		if (iconv(ic->enc, &ip, &il, &op, &ol) != 0 ||
		    op - (char *)out != 1 || map[out[0]] != c)
			continue;
		ic->sb_has[c >> 3] |= (unsigned char)(1 << (c & 7));
		ic->sb_byte[c] = out[0];
	}
	iconv(ic->enc, NULL, NULL, NULL, NULL);
	ic->sbt = 1;
}

/* Probe the target once, before the first character: the ASCII it
 * writes unchanged (none with shift states: everything then goes through
 * the one converter) and its byte table when it is single-byte. */
void
icap_probe(struct icap *ic)
{
	uint32_t c;

	ic->ident_all = 1;
	for (c = 0; c < 0x80; c++) {
		ic->ident[c] = (unsigned char)ascii_ident(ic, c);
		if ((c >= 0x20 || c == '\t' || c == '\n') && !ic->ident[c])
			ic->ident_all = 0;
	}
	if (stateful(ic)) {
		memset(ic->ident, 0, sizeof(ic->ident));
		ic->ident_all = 0;
	}
	sb_target(ic);
}

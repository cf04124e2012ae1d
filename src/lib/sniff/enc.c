/*
 * Encoding names (XML 1.0 section 4.3.3: registered names, RFC 7303
 * section 3.2: charset labels).  The table is generated from the IANA
 * character-sets registry by tools/gen-enctab.py; which name iconv knows
 * an entry by is found here, at run time.
 */
#include <ctype.h>
#include <iconv.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "enctab.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int
label_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct enc_label *)e)->label);
}

/* Copy at most size-1 characters of src to dst in lower case. */
void
enc_lower(char *dst, const char *src, size_t size)
{
	size_t i;

	for (i = 0; src[i] != '\0' && i + 1 < size; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

/* The loose form of a name: lower-case letters and digits, numbers without
 * leading zeros (as tools/gen-enctab.py's loose_key). */
static void
loose_key(char *dst, const char *src, size_t size)
{
	size_t i = 0;
	int prevdigit = 0;

	for (; *src != '\0' && i + 1 < size; src++) {
		unsigned char c = (unsigned char)*src;

		if (!isalnum(c))
			continue;
		if (c == '0' && !prevdigit) {
			const char *n = src + 1;

			while (*n != '\0' && !isalnum((unsigned char)*n))
				n++;
			if (isdigit((unsigned char)*n))
				continue;
		}
		dst[i++] = (char)tolower(c);
		prevdigit = isdigit(c) != 0;
	}
	dst[i] = '\0';
}

/*
 * The name this system's iconv(3) knows table entry idx by: the first of
 * the entry's names (in the generator's order) that iconv_open accepts,
 * "" if it accepts none.  Each entry is asked about once: the answer,
 * either way, is kept.
 */
static const char *
entry_iconv(int idx)
{
	/* Set once, by whichever thread asks first: two that ask at once
	 * find and store the same answer. */
	static _Atomic(const char *) memo[NELEM(enc_table)];
	const char *n, *found = "";
	iconv_t cd;

	if ((n = atomic_load(&memo[idx])) != NULL)
		return n;
	for (n = enc_table[idx].iconv; *n != '\0'; n += strlen(n) + 1)
		if ((cd = iconv_open(n, "UTF-8")) != (iconv_t)-1) {
			iconv_close(cd);
			found = n;
			break;
		}
	atomic_store(&memo[idx], found);
	return found;
}

/* Byte b alone decoded by cd: the character, or -1 if it is none. */
static long
byte_char(iconv_t cd, unsigned char b)
{
	unsigned char out[16];
	char *ip = (char *)&b, *op = (char *)out;
	size_t il = 1, ol = sizeof(out);

	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0 ||
	    sizeof(out) - ol != 4)
		return -1;
	return (long)out[0] | (long)out[1] << 8 | (long)out[2] << 16 |
	    (long)out[3] << 24;
}

/* Whether iconv reads every byte alone alike under names a and b (the
 * answer kept, memo.c). */
static int
decodes_alike(const char *a, const char *b)
{
	static struct memo pairs;
	char key[260];
	iconv_t ca, cb;
	unsigned i;
	int alike = 1, keyed;

	keyed = memo_pair(key, sizeof(key), a, b);
	if (keyed && memo_get(&pairs, key, &alike))
		return alike;
	ca = iconv_open(enc_u32le(), a);
	cb = iconv_open(enc_u32le(), b);
	if (ca != (iconv_t)-1 && cb != (iconv_t)-1)
		for (i = 0; i < 256 && alike; i++)
			alike = byte_char(ca, (unsigned char)i) ==
			    byte_char(cb, (unsigned char)i);
	if (ca != (iconv_t)-1)
		iconv_close(ca);
	if (cb != (iconv_t)-1)
		iconv_close(cb);
	if (keyed)
		memo_put(&pairs, key, alike);
	return alike;
}

/*
 * Whether e is decoded by the label it was given rather than by its table
 * entry's name n: names that share an IANA entry are the same label, not
 * one encoding (ISO-8859-11 is TIS-620 with NO-BREAK SPACE at A0), so a
 * label that this system's iconv knows, and reads otherwise than n, is
 * decoded by itself.  The Unicode forms have decoders of their own.
 */
static int
by_given(const struct enc *e, const char *n)
{
	if (e->entry == 0 || e->given[0] == '\0' ||
	    (e->family != ENC_F_ASCII && e->family != ENC_F_EBCDIC &&
	    e->family != ENC_F_OTHER) || strcasecmp(e->given, n) == 0 ||
	    !enc_iconv_ok(e->given))
		return 0;
	return n[0] == '\0' || !decodes_alike(n, e->given);
}

/* --list-encodings: the name of the k-th registered encoding (from 0,
 * in the table's order) that this system's iconv knows; NULL past the
 * last. */
const char *
enc_known(size_t k)
{
	size_t i;

	for (i = 0; i < NELEM(enc_table); i++)
		if (*entry_iconv((int)i) != '\0' && k-- == 0)
			return enc_table[i].name;
	return NULL;
}

/* The name for iconv_open of a looked-up encoding; "" if iconv lacks it. */
const char *
enc_iconv(const struct enc *e)
{
	const char *n;

	if (e->entry == 0)
		return e->iconv_only;
	n = entry_iconv(e->entry - 1);
	return by_given(e, n) ? e->given : n;
}

/* The name to report e by: the registry's, unless it is decoded by the
 * label given (by_given), which is then reported as the registry spells
 * it, or as given where the registry does not have it. */
const char *
enc_report_name(const struct enc *e)
{
	const char *n;

	if (e->entry == 0 || !by_given(e, entry_iconv(e->entry - 1)))
		return e->name;
	for (n = enc_table[e->entry - 1].iconv; *n != '\0'; n += strlen(n) + 1)
		if (strcasecmp(n, e->given) == 0)
			return n;
	return e->given;
}

static void
fill(struct enc *e, int idx)
{
	const struct enc_entry *t = &enc_table[idx];

	str_put(e->name, sizeof(e->name), t->name);
	e->entry = idx + 1;
	e->family = (enum family)t->family;
	e->known = 1;
}

/* The label "utf-8", the one nearly every declaration and default
 * names: found once, then without a search. */
static const struct enc_label *utf8_label;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void
utf8_find(void)
{
	utf8_label = bsearch("utf-8", enc_labels, NELEM(enc_labels),
	    sizeof(enc_labels[0]), label_cmp);
}

/*
 * Look up an encoding name: case-insensitively among the IANA names and
 * aliases (registered), else loosely ("IBM-1141" for IBM01141, "utf8" for
 * UTF-8), else as a name iconv itself accepts.  Return 0 when the name is
 * known in any of these ways, -1 when it is not (e->name is then the name as
 * given).
 */
int
enc_lookup(const char *name, struct enc *e)
{
	char key[128];
	const struct enc_label *l;

	mem_zero(e, sizeof(*e));
	str_put(e->name, sizeof(e->name), name);
	if (strlen(name) >= sizeof(key))
		return -1;
	enc_lower(key, name, sizeof(key));
	if (strcmp(key, "utf-8") == 0) {
		pthread_once(&utf8_once, utf8_find);
		l = utf8_label;
	} else
		l = bsearch(key, enc_labels, NELEM(enc_labels),
		    sizeof(enc_labels[0]), label_cmp);
	if (l != NULL) {
		fill(e, l->idx);
		e->registered = 1;
		if (strlen(name) < sizeof(e->given))
			memcpy(e->given, name, strlen(name) + 1);
		return 0;
	}
	loose_key(key, name, sizeof(key));
	l = bsearch(key, enc_loose, NELEM(enc_loose), sizeof(enc_loose[0]),
	    label_cmp);
	if (l != NULL) {
		fill(e, l->idx);
		if (strlen(name) < sizeof(e->given))
			memcpy(e->given, name, strlen(name) + 1);
		return 0;
	}
	/* Not "UTF-8//IGNORE" and the like: iconv's suffixes are no names. */
	if (strchr(name, '/') == NULL && enc_iconv_ok(name)) {
		str_put(e->iconv_only, sizeof(e->iconv_only), name);
		e->family = icap_family(name);
		e->known = 1;
		return 0;
	}
	return -1;
}

/* The layout of a family in words for messages (no internal names). */
const char *
enc_family_name(enum family f)
{
	static const char *const names[] = {
		"UTF-8", "a 16-bit encoding", "a 16-bit big-endian encoding",
		"a 16-bit little-endian encoding", "a 32-bit encoding",
		"a 32-bit big-endian encoding", "a 32-bit little-endian encoding",
		"an 8-bit ASCII-compatible encoding", "an EBCDIC encoding",
		"an encoding of no byte pattern XML recognises",
		"a 16-bit encoding", "a 32-bit encoding"
	};

	return names[f];
}

int
enc_is_utf16(enum family f)
{
	return f == ENC_F_16 || f == ENC_F_16BE || f == ENC_F_16LE;
}

int
enc_is_utf32(enum family f)
{
	return f == ENC_F_32 || f == ENC_F_32BE || f == ENC_F_32LE;
}

/* 16-bit code units, big- or little-endian: UTF-16 in any form or UCS-2. */
int
enc_is_16(enum family f)
{
	return enc_is_utf16(f) || f == ENC_F_UCS2;
}

/* 32-bit code units: UTF-32 in any form or UCS-4. */
int
enc_is_32(enum family f)
{
	return enc_is_utf32(f) || f == ENC_F_UCS4;
}

/* Return whether two resolved encodings name the same encoding. */
int
enc_same(const struct enc *a, const struct enc *b)
{
	if (a->known && b->known)
		return strcmp(a->name, b->name) == 0;
	return strcasecmp(a->name, b->name) == 0;
}

/*
 * Return whether labels a and b can describe the same bytes: the same
 * encoding, or a byte-order-free Unicode label (UTF-16, UTF-32) and one of
 * its byte orders.
 */
int
enc_compatible(const struct enc *a, const struct enc *b)
{
	if (enc_same(a, b))
		return 1;
	if (!a->known || !b->known)
		return 0;
	if (a->family == ENC_F_16 && strcmp(a->name, "UTF-16") == 0)
		return b->family == ENC_F_16BE || b->family == ENC_F_16LE;
	if (b->family == ENC_F_16 && strcmp(b->name, "UTF-16") == 0)
		return a->family == ENC_F_16BE || a->family == ENC_F_16LE;
	if (a->family == ENC_F_32 && strcmp(a->name, "UTF-32") == 0)
		return b->family == ENC_F_32BE || b->family == ENC_F_32LE;
	if (b->family == ENC_F_32 && strcmp(b->name, "UTF-32") == 0)
		return a->family == ENC_F_32BE || a->family == ENC_F_32LE;
	return 0;
}

/*
 * A 16-bit (32-bit) label that leaves the byte order to the BOM or the
 * pattern: UTF-16 (UTF-32), or ISO-10646-UCS-2 (-UCS-4), which XML 1.0
 * Appendix F finds in either order by reading the declaration, and which
 * a BOM may precede (Appendix F's 4-byte BOM table names UCS-4).
 */
int
enc_order_free_16(const struct enc *e)
{
	return e->family == ENC_F_16 || e->family == ENC_F_UCS2;
}

int
enc_order_free_32(const struct enc *e)
{
	return e->family == ENC_F_32 || e->family == ENC_F_UCS4;
}

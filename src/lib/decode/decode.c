/*
 * What every path of the decoding layer shares (decode.h): where the
 * sink is, the BOM passed over, runs of plain characters counted and
 * offered to the sink with the bookkeeping of what it took or declined
 * (struct decline), once for every form, and bytes that are no character
 * handed to the check.  The paths are decode_utf.c (the Unicode forms,
 * and the entry points) and decode_iconv.c (the encodings iconv decodes).
 */
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "testhooks.h"

/* XMLSNIFF_SIMD=ref (simd/select.c sets it with the kernels it chooses,
 * in the same one choice), or val_char_only = 1: every path a character
 * at a time (for tests and fuzz targets).  An atomic, as every thread
 * reads it; -1 until the kernels are chosen. */
atomic_int val_char_only = -1;

int
dec_ref(void)
{
	if (val_char_only < 0)
		(void)simd_ready(NULL);	/* which sets it */
	return val_char_only;
}

void
dec_set_sink(struct dec *d, dec_char_fn fn, dec_run_fn run,
    dec_block_fn block, void *ctx)
{
	d->sink = fn;
	/* XMLSNIFF_SIMD=ref: every character through fn, the reference
	 * that the run paths are tested against. */
	d->run = dec_ref() ? NULL : run;
	d->block = dec_ref() ? NULL : block;
	d->sink_ctx = ctx;
}

/* Pass over the BOM bytes among the next n; return how many. */
size_t
dec_skip(struct dec *d, size_t n)
{
	size_t skip = 0;

	if (d->skip > 0) {
		skip = d->skip < n ? (size_t)d->skip : n;
		d->skip -= skip;
		d->off += skip;
	}
	return skip;
}

/* The plain prefix of p[0..n) in form (FORM_UTF8, FORM_UTF16BE/LE,
 * FORM_UTF32BE/LE), counted (plain_utf8 and its siblings, src/simd/). */
size_t
dec_plain(int form, const unsigned char *p, size_t n, uint64_t *l,
    uint64_t *c)
{
	switch (form) {
	case FORM_UTF8:
		return plain_utf8(p, n, l, c);
	case FORM_UTF16BE:
	case FORM_UTF16LE:
		return plain_utf16(p, n, form == FORM_UTF16BE, l, c);
	default:
		return plain_utf32(p, n, form == FORM_UTF32BE, l, c);
	}
}

/* The code unit at p in form (UTF-8: the byte), and the size of one. */
static uint32_t
unit_at(int form, const unsigned char *p)
{
	switch (form) {
	case FORM_UTF8:
		return p[0];
	case FORM_UTF16BE:
		return load_be16(p);
	case FORM_UTF16LE:
		return load_le16(p);
	case FORM_UTF32BE:
		return load_be32(p);
	default:
		return load_le32(p);
	}
}

static size_t
unit_size_of(int form)
{
	return form == FORM_UTF8 ? 1 : form == FORM_UTF16BE ||
	    form == FORM_UTF16LE ? 2 : 4;
}

/* The prev of struct linepos after the plain run p[0..m) (m > 0) of a
 * Unicode form: whether its last character is a CR (no other unit ends in
 * 0D, not even the low half of a surrogate pair). */
static uint32_t
run_prev(int form, const unsigned char *p, size_t m)
{
	size_t u = unit_size_of(form);

	return unit_at(form, p + m - u) == '\r' ? '\r' : 0;
}

/*
 * Move pos past the plain run p[0..m) in form.  Every run may hold line
 * ends: a single-byte run the bytes 0A and 0D (see dec_dcache), a run of
 * a Unicode form LF and CR characters, counted by the kernels as if the
 * character before were no CR; when it is (the sink stopped at a CR), an
 * LF that starts the run is stepped over here.
 */
static void
count_run(int form, const unsigned char *p, size_t m, struct linepos *pos)
{
	size_t j, u;

	if (form == FORM_SB) {
		for (j = 0; j < m; j++)
			linepos_step(pos, p[j], 0);
	} else if (m > 0) {
		u = unit_size_of(form);
		if (pos->prev == '\r' && unit_at(form, p) == '\n') {
			linepos_step(pos, '\n', 0);
			p += u;
			m -= u;
		}
		if (m > 0) {
			dec_plain(form, p, m, &pos->line, &pos->col);
			pos->prev = run_prev(form, p, m);
		}
	}
}

/*
 * The plain run p[0..k) in form starts at the next character, and end is
 * the position after it: hand it to the sink, if any, and advance past
 * what it took, which is returned.  When the sink stops at a character,
 * that one goes through the character path, and the rest of the run is
 * noted in dl, to be offered again (dec_retake) without being scanned
 * again (which was quadratic).
 */
size_t
dec_take(struct dec *d, const unsigned char *p, size_t k, int form,
    const struct linepos *end, struct decline *dl, size_t i)
{
	size_t t = k;

	if (d->sink != NULL && k > 0 && (t = d->run(d->sink_ctx, p, k,
	    form)) < k) {
		dl->declined = i + k;
		dl->stopped = i + t;
		count_run(form, p, t, &d->pos);
	} else {
		d->pos = *end;
		/* A run may end with a CR, which an LF next must see. */
		if (form != FORM_SB && k > 0)
			d->pos.prev = run_prev(form, p, k);
	}
	d->off += t;
	return t;
}

/* p[i..dl->declined) is plain, and the sink stopped before p[i]: offer
 * it again; return how much it took. */
size_t
dec_retake(struct dec *d, const unsigned char *p, int form,
    struct decline *dl, size_t i)
{
	size_t t = d->run(d->sink_ctx, p, dl->declined - i, form);

	count_run(form, p, t, &d->pos);
	d->off += t;
	dl->stopped = i + t;
	return t;
}

/* p[0..len), at the next offset, is no character. */
void
dec_bad(struct dec *d, const unsigned char *p, size_t len, int truncated)
{
	d->chk->bad(d->chk_ctx, p, len, truncated, d->off, d->pos.line,
	    d->pos.col);
}

/*
 * UTF-8 bytes that are an illegal sequence on their own, whatever follows
 * (RFC 3629 section 4: 80 to BF continue a character, C0 and C1 would
 * be overlong, F5 to FF are never used): utf8_dec rejects each alone.
 * In eight bytes at once, each byte b tested as y = b & 7F: b >= 80, and
 * y <= 41 (y + 3E keeps bit 7 clear) or y >= 75 (y + 0B sets it); no
 * byte carries into the next.
 */
#define U8_HI	0x8080808080808080ULL
#define U8_LO	0x7F7F7F7F7F7F7F7FULL

static int
u8_lone(unsigned b)
{
	return (b >= 0x80 && b <= 0xC1) || b >= 0xF5;
}

size_t
dec_lone_span(const unsigned char *p, size_t n)
{
	size_t k = 0;

	for (; n - k >= 8; k += 8) {
		uint64_t x, y;

		memcpy(&x, p + k, 8);
		y = x & U8_LO;
		if ((x & (~(y + 0x3E3E3E3E3E3E3E3EULL) |
		    (y + 0x0B0B0B0B0B0B0B0BULL)) & U8_HI) != U8_HI)
			break;
	}
	while (k < n && u8_lone(p[k]))
		k++;
	return k;
}

/*
 * UTF-8: the bytes from p[0] on that are each an illegal sequence alone
 * (a run of FF, stray continuation bytes) go to the check at once, one
 * column each, as the character path would report them one by one; the
 * line and the last character (a CR) are left as they were.  Return how
 * many; 0 when p[0] is not one.
 */
size_t
dec_bad_run(struct dec *d, const unsigned char *p, size_t n)
{
	size_t k;

	if (n == 0 || !u8_lone(p[0]))
		return 0;
	k = dec_lone_span(p, n);
	d->chk->bads(d->chk_ctx, p, k, d->off, d->pos.line, d->pos.col);
	d->pos.col += k;
	d->off += k;
	return k;
}

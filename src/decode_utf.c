/*
 * Decoding the whole entity in its authoritative encoding (XML 1.0
 * section 4.3.3), for the check and the sink (decode.h): the entry points,
 * and UTF-8, UTF-16 and UTF-32, which have their own decoders (utf.h) and
 * run kernels (src/simd/); other encodings go through iconv(3)
 * (decode_iconv.c).
 */
#include <iconv.h>
#include <string.h>

#include "decode.h"

/* Start decoding the entity s for the check chk; -1 when iconv cannot
 * open its decoder. */
int
dec_init(struct dec *d, const struct sniff *s, const struct dec_check *chk,
    void *ctx)
{
	memset(d, 0, sizeof(*d));
	d->form = s->dec;
	d->xml11 = s->xml11;
	d->skip = s->bomlen;
	d->pos.line = d->pos.col = 1;
	d->cd = (iconv_t)-1;
	d->chk = chk;
	d->chk_ctx = ctx;
	if (d->form == FORM_ICONV) {
		if ((d->dc = dec_dcache(s->dec_iconv)) == NULL)
			return -1;
		d->cd = d->dc->cd;
		d->sb = d->dc->sb;
		d->ascii = d->dc->ascii;
		d->stateless = d->dc->stateless;
		d->sbmap = d->dc->sbmap;
		d->simple = d->dc->simple;
		/* UCS-2 (UCS-4) resynchronises by whole code units. */
		d->step = enc_is_16(s->enc.family) ? 2 :
		    enc_is_32(s->enc.family) ? 4 : 1;
	}
	return 0;
}

void
dec_fini(struct dec *d)
{
	if (d->dc != NULL)
		d->dc->busy = 0;
	d->dc = NULL;
}

/* See val_set_sink(). */

/*
 * UTF-8 just after a bad sequence, for the check alone: the characters
 * that follow, while errors stay dense (random bytes, Latin-1 read as
 * UTF-8), go the character path here, as the reference takes them,
 * rather than each through the run kernel for a run of a byte or two.
 * It stops at eight plain ASCII bytes (a run the kernel should count), at
 * a NUL (counted as a run by feed_unicode), at a character cut by the
 * end of p, and after DENSE_MAX bytes; it returns how many it took.
 */
#define DENSE_MAX	4096

/* Eight bytes at p that are all 0x20..0x7F: no high bit, none below. */
static int
ascii8(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return ((w | (w - 0x2020202020202020ULL)) &
	    0x8080808080808080ULL) == 0;
}

/*
 * feed_dense once the check only counts (check_quiet): the same walk,
 * with the errors summed here and told to it at the end, and the
 * position stepped as dec_put and the bad paths step it.  NULs are
 * counted here too.
 */
static size_t
feed_quiet(struct dec *d, const unsigned char *p, size_t n)
{
	struct linepos pos = d->pos;
	uint64_t bad = 0, nonchar = 0;
	const int xml11 = d->xml11;
	size_t i = 0, k;

	while (i < n) {
		unsigned b = p[i];
		uint32_t c;
		int r;

		if (b >= 0x20 && b < 0x7F) {
			if (n - i >= 8 && ascii8(p + i))
				break;
			pos.col++;
			pos.prev = b;
			i++;
			continue;
		}
		if (b >= 0x80 && (k = dec_lone_span(p + i, n - i)) > 0) {
			/* dec_bad_run: a column each, prev kept */
			bad += k;
			pos.col += k;
			i += k;
			continue;
		}
		if ((r = utf8_dec(p + i, n - i, &c)) == 0)
			break;
		if (r > 0) {
			if (!xml_char_ok(c, xml11))
				nonchar++;
			linepos_step(&pos, c, xml11);
		} else {
			bad++;
			pos.col++;
			r = -r;
		}
		i += (size_t)r;
	}
	d->pos = pos;
	d->off += i;
	d->chk->tally(d->chk_ctx, bad, nonchar);
	return i;
}

static size_t
feed_dense(struct dec *d, const unsigned char *p, size_t n)
{
	size_t i = 0, k;

	if (d->chk->quiet(d->chk_ctx))
		return feed_quiet(d, p, n);
	if (n > DENSE_MAX)
		n = DENSE_MAX;
	while (i < n && p[i] != 0) {
		uint32_t c;
		int r;

		if (n - i >= 8 && ascii8(p + i))
			break;
		if ((k = dec_bad_run(d, p + i, n - i)) > 0) {
			i += k;
			continue;
		}
		if ((r = utf8_dec(p + i, n - i, &c)) == 0)
			break;
		if (r > 0)
			dec_put(d, c, d->off);
		else {
			dec_bad(d, p + i, (size_t)-r, 0);
			d->pos.col++;
			r = -r;
		}
		i += (size_t)r;
		d->off += (uint64_t)r;
	}
	return i;
}

/* Unicode forms: p[0..n) are whole input bytes from d->off on. */
static size_t
feed_unicode(struct dec *d, const unsigned char *p, size_t n, int eof)
{
	const int form = d->form;
	struct decline dl = { 0, 0 };
	size_t i = 0;

	while (i < n) {
		uint32_t c;
		int r;

		/* Runs of plain characters need only counting (src/simd/). */
		if ((d->sink == NULL || d->run != NULL) && !d->xml11 &&
		    d->pos.prev != '\r' && i >= dl.declined) {
			struct linepos end = d->pos;
			size_t k = dec_plain(form, p + i, n - i, &end.line,
			    &end.col);

			if (k > 0)
				end.prev = 0;
			i += dec_take(d, p + i, k, form, &end, &dl, i);
			if (i >= n)
				break;
		} else if (dec_again(&dl, i)) {
			i += dec_retake(d, p + i, form, &dl, i);
			if (i >= n)
				break;
			if (i >= dl.declined)
				continue;
		}
		if (form == FORM_UTF8 && p[i] == 0 && d->sink == NULL) {
			/* A run of NUL bytes (a binary file, a sparse hole):
			 * one character for the check, and a count. */
			size_t k = 1;

			while (i + k < n && p[i + k] == 0)
				k++;
			dec_put(d, 0, d->off);
			if (k > 1)
				d->chk->nuls(d->chk_ctx, k - 1);
			d->pos.col += k - 1;
			i += k;
			d->off += k;
			continue;
		}
		if (form == FORM_UTF8 && d->sink == NULL && !dec_ref() &&
		    (r = (int)dec_bad_run(d, p + i, n - i)) > 0) {
			/* Bytes each illegal alone (0xFF filling a file):
			 * counted a run at a time, the first located. */
			i += (size_t)r;
			i += feed_dense(d, p + i, n - i);
			continue;
		}
		if (form == FORM_UTF8) {
			r = utf8_dec(p + i, n - i, &c);
		} else if (form == FORM_UTF16BE || form == FORM_UTF16LE)
			r = utf16_dec(p + i, n - i, form == FORM_UTF16BE, &c);
		else
			r = utf32_dec(p + i, n - i, form == FORM_UTF32BE, &c);
		if (r > 0) {
			dec_put(d, c, d->off);
		} else if (r < 0) {
			dec_bad(d, p + i, (size_t)-r, 0);
			d->pos.col++;
			r = -r;
			if (form == FORM_UTF8 && d->sink == NULL && !dec_ref()) {
				i += (size_t)r;
				d->off += (uint64_t)r;
				i += feed_dense(d, p + i, n - i);
				continue;
			}
		} else {
			if (!eof)
				break;
			dec_bad(d, p + i, n - i, 1);
			r = (int)(n - i);
		}
		i += (size_t)r;
		d->off += (uint64_t)r;
	}
	return i;
}

/*
 * Decode the next n bytes of the entity; eof says they are the last.
 * Return how many were consumed: fewer than n only when not eof and the
 * data ends inside a character, whose bytes the caller passes again.
 */
size_t
dec_feed(struct dec *d, const unsigned char *p, size_t n, int eof)
{
	size_t k = 0, m;

	if (d->form != FORM_ICONV)
		return feed_unicode(d, p, n, eof);
	if (d->sb)
		return dec_feed_sb(d, p, n, eof);
	if (d->off < d->exact_to) {
		m = d->exact_to - d->off < n ? (size_t)(d->exact_to - d->off) :
		    n;
		if ((k = dec_feed_iconv(d, p, m, eof && m == n)) < m || k == n)
			return k;
	}
	return k + (d->stateless && !d->xml11 && !dec_ref() &&
	    (d->sink == NULL || d->block != NULL) ?
	    dec_feed_bulk(d, p + k, n - k, eof) :
	    dec_feed_iconv(d, p + k, n - k, eof));
}

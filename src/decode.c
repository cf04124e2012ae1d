/*
 * Decoding the whole entity in its authoritative encoding (XML 1.0
 * section 4.3.3), for the check and the sink (decode.h).  UTF-8, UTF-16
 * and UTF-32 have their own decoders (utf.h) and run kernels (src/simd/);
 * other encodings go through iconv(3) (decode_iconv.c).  Runs of plain
 * characters need only counting; the sink may take them as bytes, or the
 * part of them it can write (the bookkeeping of what it took is here,
 * once, for every form).
 */
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "testhooks.h"

/* XMLSNIFF_SIMD=ref (simd/select.c), or val_char_only = 1: every path a
 * character at a time (for tests and fuzz targets). */
int val_char_only = -1;

int
dec_ref(void)
{
	if (val_char_only < 0)
		simd_ready();	/* which sets it */
	return val_char_only;
}

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
static size_t
plain_form(int form, const unsigned char *p, size_t n, uint64_t *l,
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

/* Move pos past the plain run p[0..m) in form.  A single-byte run may
 * hold line ends, the bytes 0A and 0D (see dec_dcache); a run of a
 * Unicode form holds none, nor a CR. */
static void
count_run(int form, const unsigned char *p, size_t m, struct linepos *pos)
{
	size_t j;

	if (form == FORM_SB) {
		for (j = 0; j < m; j++)
			linepos_step(pos, p[j], 0);
	} else if (m > 0) {
		plain_form(form, p, m, &pos->line, &pos->col);
		pos->prev = 0;
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
	} else
		d->pos = *end;
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
			size_t k = plain_form(form, p + i, n - i, &end.line,
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

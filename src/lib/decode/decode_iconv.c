/*
 * Decoding the entities that iconv(3) decodes (decode.h): a single-byte
 * encoding through its byte table (runs of plain bytes at once), any other
 * a block at a time when it has no shift states, else a character at a
 * time, so that every offset is exact.  The decoders are kept from one
 * input to the next.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

/* A decoder from name to UTF-32LE, from the cache c or new; NULL if iconv
 * cannot open it. */
struct dcache *
dec_dcache(struct dcaches *dcs, const char *name)
{
	struct dcache *e, *victim = NULL;
	int i;

	for (i = 0; i < NDCACHE; i++) {
		e = &dcs->e[i];
		if (e->busy)
			continue;
		if (e->cd != NULL && strcmp(e->name, name) == 0) {
			iconv(e->cd, NULL, NULL, NULL, NULL);
			e->busy = 1;
			e->last = ++dcs->tick;
			return e;
		}
		/* An empty entry, else the least recently used. */
		if (victim == NULL || (victim->cd != NULL && (e->cd == NULL ||
		    e->last < victim->last)))
			victim = e;
	}
	if (victim == NULL || strlen(name) >= sizeof(victim->name))
		return NULL;
	if (victim->cd != NULL)
		iconv_close(victim->cd);
	if ((victim->cd = iconv_open_held(enc_u32le(), name)) == (iconv_t)-1) {
		victim->cd = NULL;
		return NULL;
	}
	snprintf(victim->name, sizeof(victim->name), "%s", name);
	victim->sb = sb_build(victim->cd, victim->sbmap);
	victim->stateless = icap_stateless(victim->cd);
	for (i = 0; i < 256; i++) {
		uint32_t c = victim->sbmap[i];

		/* The counting paths (count_run, plain_sb) take the bytes
		 * 0A and 0D for LF and CR: a byte that is a line end under
		 * another value (EBCDIC's LF is 25), or 0A/0D when they are
		 * something else (U+008E in IBM037), goes the character
		 * path, which counts decoded characters (XML 1.0 2.11). */
		victim->simple[i] = (unsigned char)(victim->sb &&
		    c != SB_BAD && xml_char_ok(c, 0) && !(c >= 0x80 &&
		    c <= 0x9F && strncmp(name, "ISO-8859-", 9) == 0) &&
		    !((c == '\n' || c == '\r') && c != (uint32_t)i) &&
		    !((i == '\n' || i == '\r') && c != (uint32_t)i));
		victim->simple_lo[i] = i < 0x80 ? victim->simple[i] : 0;
	}
	plain_sb_map(&victim->pm, victim->simple);
	plain_sb_map(&victim->pm_lo, victim->simple_lo);
	victim->ascii = victim->sb;
	for (i = 0; i < 0x80 && victim->ascii; i++)
		victim->ascii = victim->sbmap[i] == (uint32_t)i;
	victim->busy = 1;
	victim->last = ++dcs->tick;
	return victim;
}

/*
 * The raw-UTF-8 hint (suspicious-label) for a single-byte label: follow the
 * bytes as UTF-8 too.  Return 1 when the data ends inside a sequence and
 * more is to come (the caller passes those bytes again).
 */
static int
sb_utf8(struct dec *d, const unsigned char *p, size_t i, size_t n, int eof)
{
	uint32_t u;
	int r;

	if (d->u8skip > 0) {
		d->u8skip--;
		return 0;
	}
	if (p[i] < 0x80 || d->u8bad)
		return 0;
	r = utf8_dec(p + i, n - i, &u);
	if (r == 0 && !eof)
		return 1;
	if (r <= 1) {
		d->u8bad = 1;
		return 0;
	}
	if (d->u8mb++ == 0) {
		d->u8off = d->off;
		d->u8line = d->pos.line;
		d->u8col = d->pos.col;
	}
	d->u8skip = (unsigned)r - 1;
	return 0;
}

/*
 * dec_feed_sb after undefined bytes, the raw-UTF-8 hint given up, while
 * the check only counts (check_quiet): the bytes that follow, while such
 * bytes stay dense (0x81 0x8D 0x90 among letters), are counted here as
 * the loop would take them (an undefined byte a column, a byte that needs
 * only counting a step of the position), rather than each short run
 * through plain_sb.  It stops at any other byte, SB_DENSE bytes past the
 * last undefined one, and the end of p; it returns how many it took.
 */
#define SB_DENSE	64

static size_t
sb_dense(struct dec *d, const unsigned char *p, size_t n)
{
	struct linepos pos = d->pos;
	uint64_t bad = 0;
	size_t j, last = 0;

	for (j = 0; j < n && j - last < SB_DENSE; j++) {
		if (d->sbmap[p[j]] == SB_BAD) {
			bad++;
			pos.col++;
			last = j + 1;
		} else if (d->simple[p[j]])
			linepos_step(&pos, p[j], 0);
		else
			break;
	}
	d->pos = pos;
	d->off += j;
	d->chk->tally(d->chk_ctx, bad, 0);
	return j;
}

size_t
dec_feed_sb(struct dec *d, const unsigned char *p, size_t n, int eof)
{
	struct decline dl = { 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t c;

		/*
		 * Runs of characters that need only counting, in one tight
		 * loop.  Bytes from 0x80 up join them once the raw bytes are
		 * known not to be UTF-8 (the hint is settled).  A transcoder
		 * takes them as bytes, or the part it can write: the next
		 * character then comes the slow way, with its position.
		 */
		if (!d->xml11 && d->u8skip == 0 && (d->sink == NULL ||
		    d->sink_run != NULL) && i >= dl.declined) {
			struct linepos pos = d->pos;
			size_t j = i, end = d->sink != NULL && n - i > 4096 ?
			    i + 4096 : n;

			const unsigned char *ok = d->u8bad ? d->simple :
			    d->dc->simple_lo;
			const struct plainmap *pm = d->u8bad ? &d->dc->pm :
			    &d->dc->pm_lo;

			for (; j < end; j++) {
				/* Many at a time (src/simd/), up to a CR or a
				 * byte that needs more than counting; the
				 * byte after a CR here. */
				if ((j > i ? p[j - 1] : d->pos.prev) != '\r') {
					j += plain_sb(p + j, end - j, pm,
					    &pos.line, &pos.col);
					if (j >= end)
						break;
				}
				if (!ok[p[j]])
					break;
				/* A CR, or the byte after one. */
				pos.prev = j > i ? p[j - 1] : d->pos.prev;
				linepos_step(&pos, p[j], 0);
			}
			if (j > i) {
				pos.prev = p[j - 1];
				i += dec_take(d, p + i, j - i, FORM_SB, &pos,
				    &dl, i);
				if (i >= n)
					break;
			}
		} else if (dec_again(&dl, i)) {
			i += dec_retake(d, p + i, FORM_SB, &dl, i);
			if (i >= n)
				break;
			if (i >= dl.declined) {
				i--;	/* the loop's step */
				continue;
			}
		}
		c = d->sbmap[p[i]];
		if ((p[i] >= 0x80 || d->u8skip > 0) && sb_utf8(d, p, i, n, eof))
			break;
		if (c == SB_BAD) {
			size_t k = 1;

			/* Bytes the table leaves undefined, one after
			 * another (0x81 filling a windows-1252 file): to
			 * the check at once, as one by one (dec_bad_run),
			 * once the raw-UTF-8 hint has given up on the
			 * bytes and skips none (sb_utf8 does nothing). */
			if (d->u8bad && d->u8skip == 0 && d->sink == NULL &&
			    !dec_ref()) {
				while (i + k < n &&
				    d->sbmap[p[i + k]] == SB_BAD)
					k++;
				d->chk->bads(d->chk_ctx, p + i, k, d->off,
				    d->pos.line, d->pos.col);
				d->pos.col += k;
				d->off += k;
				if (!d->xml11 && d->chk->quiet(d->chk_ctx))
					k += sb_dense(d, p + i + k, n - i - k);
			} else {
				dec_bad(d, p + i, 1, 0);
				d->pos.col++;
				d->off++;
			}
			i += k - 1;	/* and the loop's step */
			continue;
		}
		dec_put(d, c, d->off);
		d->off++;
	}
	return i;
}

/* Account for the characters iconv wrote to out[0..len), all at the
 * current offset. */
static void
put_out(struct dec *d, const unsigned char *out, size_t len)
{
	size_t k;

	for (k = 0; k + 4 <= len; k += 4)
		dec_put(d, load_le32(out + k), d->off);
}

/* At the end of the input: the characters a decoder still holds
 * (windows-1258 keeps a letter back for a combining mark). */
static void
flush_decoder(struct dec *d)
{
	unsigned char out[64];
	char *op = (char *)out;
	size_t ol = sizeof(out);

	iconv(d->cd, NULL, NULL, &op, &ol);
	put_out(d, out, (size_t)(op - (char *)out));
}

/* Whether p[0..len), which the decoder calls incomplete at the end of
 * the input, starts some character (icap_starts_char); only a stateless
 * decoder is asked, since the probes reset its state. */
static int
starts_char(struct dec *d, const unsigned char *p, size_t len)
{
	return !d->stateless || icap_starts_char(d->cd, p, len);
}

/* Any other encoding: one character at a time, so that every offset is
 * exact and stateful encodings (ISO-2022-*) keep their state. */
size_t
dec_feed_iconv(struct dec *d, const unsigned char *p, size_t n, int eof)
{
	size_t i = 0;

	while (i < n) {
		unsigned char out[64];
		char *ip = (char *)(p + i), *op = (char *)out;
		/* A small window: glibc converts far ahead of a small output
		 * buffer, so the whole rest would cost its length per call. */
		size_t win = n - i < 32 ? n - i : 32;
		size_t il = win, ol = 4, used;
		size_t r = iconv(d->cd, &ip, &il, &op, &ol);
		int e = errno, progress;

		if (r == (size_t)-1 && e == E2BIG && op == (char *)out) {
			/* One input sequence, several characters. */
			ol = sizeof(out);
			r = iconv(d->cd, &ip, &il, &op, &ol);
			e = errno;
		}
		if (r == (size_t)-1 && e == EINVAL && ip == (char *)(p + i) &&
		    op == (char *)out && win < n - i) {
			/* A sequence longer than the window. */
			il = n - i;
			r = iconv(d->cd, &ip, &il, &op, &ol);
			e = errno;
		}
		used = (size_t)(ip - (char *)(p + i));
		progress = used > 0 || op != (char *)out;
		put_out(d, out, (size_t)(op - (char *)out));
		i += used;
		d->off += used;
		if (r != (size_t)-1 || (progress && (e == E2BIG || e == EINVAL)))
			continue;
		if (e == EINVAL && (!eof || starts_char(d, p + i, n - i))) {
			/* The rest of the data is one incomplete sequence. */
			if (!eof)
				break;
			dec_bad(d, p + i, n - i, 1);
			d->off += n - i;
			i = n;
		} else {
			/* EILSEQ, or a sequence that makes more characters
			 * than any known one (E2BIG with no progress): one
			 * byte, or one code unit of a 16/32-bit encoding. */
			size_t k = d->step < n - i ? d->step : n - i;

			dec_bad(d, p + i, k, 0);
			d->pos.col++;
			d->off += k;
			i += k;
		}
	}
	if (eof && i == n)
		flush_decoder(d);
	return i;
}


/* Whether dec_feed_bulk() has its buffer (in the decoder's cache entry,
 * made when first needed); where memory is short, it is not used. */
int
dec_bulk_ready(struct dec *d)
{
	if (d->dc->bulk == NULL)
		d->dc->bulk = malloc(DEC_BULK);
	return d->dc->bulk != NULL;
}

/*
 * A stateless multi-byte encoding: decode blocks at once and count lines
 * and columns from the characters.  A block with anything to report (an
 * illegal sequence, a character the check does not pass) or that the
 * sink does not take is decoded again a character at a time for exact
 * positions.
 */
size_t
dec_feed_bulk(struct dec *d, const unsigned char *p, size_t n, int eof)
{
	unsigned char *out = d->dc->bulk;
	size_t i = 0;

	while (i < n) {
		size_t block = n - i < 4096 ? n - i : 4096, used, k, nc;
		char *ip = (char *)(p + i), *op = (char *)out;
		size_t il = block, ol = DEC_BULK;
		size_t r = iconv(d->cd, &ip, &il, &op, &ol);
		int e = errno;
		struct linepos pos = d->pos;
		int clean;

		used = (size_t)(ip - (char *)(p + i));
		nc = (size_t)(op - (char *)out) / 4;
		/* The check may pass the block as it is; else (a character
		 * to report) it goes a character at a time. */
		if ((clean = d->chk->blk(d->chk_ctx, out, nc)) != 0)
			for (k = 0; k < nc; k++)
				linepos_step(&pos, load_le32(out + 4 * k), 0);
		/* A transcoder takes the characters, or none of them when
		 * it lacks one: then the block goes a character at a time,
		 * for the position of that one. */
		if (clean && used > 0 && d->sink != NULL && (d->block == NULL ||
		    d->block(d->sink_ctx, out, 4 * nc) != 4 * nc))
			clean = 0;
		if (clean && used > 0) {
			d->chk->blk_take(d->chk_ctx);
			d->pos = pos;
			d->off += used;
			i += used;
		}
		/* A character cut by the end of the block: the next block
		 * starts with it; cut by the end of the data: carry it. */
		if (clean && r == (size_t)-1 && e == EINVAL) {
			if (i < n && block < n - (i - used) && used > 0)
				continue;
			if (!eof)
				break;
		}
		if (!clean || (r == (size_t)-1 && e != E2BIG)) {
			/* Exact positions, a character at a time, for this
			 * block (or what is left of it). */
			size_t rest = n - i < 4096 ? n - i : 4096, m;

			iconv(d->cd, NULL, NULL, NULL, NULL);
			m = dec_feed_iconv(d, p + i, rest, eof && rest == n - i);
			if (m == 0)
				break;
			i += m;
		} else if (used == 0)
			break;
	}
	if (eof && i == n)
		flush_decoder(d);
	return i;
}

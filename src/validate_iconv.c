/*
 * Validation of the entities that iconv(3) decodes: a single-byte
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

#include "engine.h"
#include "val.h"

static struct dcache dcache[NDCACHE];
static unsigned long dtick;

/* A decoder from name to UTF-32LE, from the cache or new; NULL if iconv
 * cannot open it. */
struct dcache *
val_dcache(const char *name)
{
	struct dcache *e, *victim = NULL;
	int i;

	for (i = 0; i < NDCACHE; i++) {
		e = &dcache[i];
		if (e->busy)
			continue;
		if (e->cd != NULL && strcmp(e->name, name) == 0) {
			iconv(e->cd, NULL, NULL, NULL, NULL);
			e->busy = 1;
			e->last = ++dtick;
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
	if ((victim->cd = iconv_open(enc_u32le(), name)) == (iconv_t)-1) {
		victim->cd = NULL;
		return NULL;
	}
	snprintf(victim->name, sizeof(victim->name), "%s", name);
	victim->sb = sb_build(victim->cd, victim->sbmap);
	victim->stateless = icap_stateless(victim->cd);
	for (i = 0; i < 256; i++) {
		uint32_t c = victim->sbmap[i];

		/* The counting paths (count_sb, plain_sb) take the bytes
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
	victim->last = ++dtick;
	return victim;
}

/*
 * The raw-UTF-8 hint (suspicious-label) for a single-byte label: follow the
 * bytes as UTF-8 too.  Return 1 when the data ends inside a sequence and
 * more is to come (the caller passes those bytes again).
 */
static int
sb_utf8(struct val *v, const unsigned char *p, size_t i, size_t n, int eof)
{
	uint32_t u;
	int r;

	if (v->u8skip > 0) {
		v->u8skip--;
		return 0;
	}
	if (p[i] < 0x80 || v->u8bad)
		return 0;
	r = utf8_dec(p + i, n - i, &u);
	if (r == 0 && !eof)
		return 1;
	if (r <= 1) {
		v->u8bad = 1;
		return 0;
	}
	if (v->u8mb++ == 0) {
		v->u8off = v->off;
		v->u8line = v->pos.line;
		v->u8col = v->pos.col;
	}
	v->u8skip = (unsigned)r - 1;
	return 0;
}

/* Move pos past the single-byte characters p[0..n) that need only
 * counting (whose line ends are the bytes 0A and 0D: see dcache_get). */
static void
count_sb(const unsigned char *p, size_t n, struct linepos *pos)
{
	size_t j;

	for (j = 0; j < n; j++)
		linepos_step(pos, p[j], 0);
}

size_t
val_feed_sb(struct val *v, const unsigned char *p, size_t n, int eof)
{
	/* As in feed_unicode: p[i..declined) is plain, but the transcoder
	 * stopped at offset stopped. */
	size_t i, declined = 0, stopped = 0;

	for (i = 0; i < n; i++) {
		uint32_t c;

		/*
		 * Runs of characters that need only counting, in one tight
		 * loop.  Bytes from 0x80 up join them once the raw bytes are
		 * known not to be UTF-8 (the hint is settled).  A transcoder
		 * takes them as bytes, or the part it can write: the next
		 * character then comes the slow way, with its position.
		 */
		if (!v->xml11 && v->u8skip == 0 && (v->sink == NULL ||
		    v->run != NULL) && i >= declined) {
			struct linepos pos = v->pos;
			size_t j = i, end = v->sink != NULL && n - i > 4096 ?
			    i + 4096 : n;

			const unsigned char *ok = v->u8bad ? v->simple :
			    v->dc->simple_lo;
			const struct plainmap *pm = v->u8bad ? &v->dc->pm :
			    &v->dc->pm_lo;

			for (; j < end; j++) {
				/* Many at a time (src/simd/), up to a CR or a
				 * byte that needs more than counting; the
				 * byte after a CR here. */
				if ((j > i ? p[j - 1] : v->pos.prev) != '\r') {
					j += plain_sb(p + j, end - j, pm,
					    &pos.line, &pos.col);
					if (j >= end)
						break;
				}
				if (!ok[p[j]])
					break;
				/* A CR, or the byte after one. */
				pos.prev = j > i ? p[j - 1] : v->pos.prev;
				linepos_step(&pos, p[j], 0);
			}
			if (j > i) {
				size_t t = j - i;

				pos.prev = p[j - 1];
				if (v->sink != NULL && (t = v->run(v->sink_ctx,
				    p + i, j - i, FORM_SB)) < j - i) {
					declined = j;
					stopped = i + t;
					pos = v->pos;
					count_sb(p + i, t, &pos);
				}
				v->pos = pos;
				v->off += t;
				i += t;
				if (i >= n)
					break;
			}
		} else if (i < declined && i > stopped) {
			size_t t = v->run(v->sink_ctx, p + i, declined - i,
			    FORM_SB);

			count_sb(p + i, t, &v->pos);
			v->off += t;
			i += t;
			stopped = i;
			if (i >= n)
				break;
			if (i >= declined) {
				i--;	/* the loop's step */
				continue;
			}
		}
		c = v->sbmap[p[i]];
		if ((p[i] >= 0x80 || v->u8skip > 0) && sb_utf8(v, p, i, n, eof))
			break;
		if (c == SB_BAD) {
			val_illegal(v, p + i, 1, 0);
			v->pos.col++;
			v->off++;
			continue;
		}
		/* XML 1.0 section 2.2 discourages C1 controls: under
		 * ISO-8859-n they are reported (at the end, unless the
		 * text is UTF-8 after all). */
		if (v->iso8859 && c >= 0x80 && c <= 0x9F && v->c1++ == 0) {
			v->c1char = c;
			v->c1off = v->off;
			v->c1line = v->pos.line;
			v->c1col = v->pos.col;
		}
		val_put(v, c, v->off);
		v->off++;
	}
	return i;
}

/* Account for the characters iconv wrote to out[0..len), all at the
 * current offset. */
static void
put_out(struct val *v, const unsigned char *out, size_t len)
{
	size_t k;

	for (k = 0; k + 4 <= len; k += 4)
		val_put(v, load_le32(out + k), v->off);
}

/* At the end of the input: the characters a decoder still holds
 * (windows-1258 keeps a letter back for a combining mark). */
static void
flush_decoder(struct val *v)
{
	unsigned char out[64];
	char *op = (char *)out;
	size_t ol = sizeof(out);

	iconv(v->cd, NULL, NULL, &op, &ol);
	put_out(v, out, (size_t)(op - (char *)out));
}

/* Whether p[0..len), which the decoder calls incomplete at the end of
 * the input, starts some character (icap_starts_char); only a stateless
 * decoder is asked, since the probes reset its state. */
static int
starts_char(struct val *v, const unsigned char *p, size_t len)
{
	return !v->stateless || icap_starts_char(v->cd, p, len);
}

/* Any other encoding: one character at a time, so that every offset is
 * exact and stateful encodings (ISO-2022-*) keep their state. */
size_t
val_feed_iconv(struct val *v, const unsigned char *p, size_t n, int eof)
{
	size_t i = 0;

	while (i < n) {
		unsigned char out[64];
		char *ip = (char *)(p + i), *op = (char *)out;
		/* A small window: glibc converts far ahead of a small output
		 * buffer, so the whole rest would cost its length per call. */
		size_t win = n - i < 32 ? n - i : 32;
		size_t il = win, ol = 4, used;
		size_t r = iconv(v->cd, &ip, &il, &op, &ol);
		int e = errno, progress;

		if (r == (size_t)-1 && e == E2BIG && op == (char *)out) {
			/* One input sequence, several characters. */
			ol = sizeof(out);
			r = iconv(v->cd, &ip, &il, &op, &ol);
			e = errno;
		}
		if (r == (size_t)-1 && e == EINVAL && ip == (char *)(p + i) &&
		    op == (char *)out && win < n - i) {
			/* A sequence longer than the window. */
			il = n - i;
			r = iconv(v->cd, &ip, &il, &op, &ol);
			e = errno;
		}
		used = (size_t)(ip - (char *)(p + i));
		progress = used > 0 || op != (char *)out;
		put_out(v, out, (size_t)(op - (char *)out));
		i += used;
		v->off += used;
		if (r != (size_t)-1 || (progress && (e == E2BIG || e == EINVAL)))
			continue;
		if (e == EINVAL && (!eof || starts_char(v, p + i, n - i))) {
			/* The rest of the data is one incomplete sequence. */
			if (!eof)
				break;
			val_illegal(v, p + i, n - i, 1);
			v->off += n - i;
			i = n;
		} else {
			/* EILSEQ, or a sequence that makes more characters
			 * than any known one (E2BIG with no progress): one
			 * byte, or one code unit of a 16/32-bit encoding. */
			size_t k = v->step < n - i ? v->step : n - i;

			val_illegal(v, p + i, k, 0);
			v->pos.col++;
			v->off += k;
			i += k;
		}
	}
	if (eof && i == n)
		flush_decoder(v);
	return i;
}


/*
 * A stateless multi-byte encoding, validated only: decode blocks at once
 * and count lines and columns from the characters.  A block with anything
 * to report (an illegal sequence, a character that is not a Char) is
 * decoded again a character at a time for exact positions.
 */
size_t
val_feed_bulk(struct val *v, const unsigned char *p, size_t n, int eof)
{
	static unsigned char out[4 * 4096 + 64];
	size_t i = 0;

	while (i < n) {
		size_t block = n - i < 4096 ? n - i : 4096, used, k, nc;
		char *ip = (char *)(p + i), *op = (char *)out;
		size_t il = block, ol = sizeof(out);
		size_t r = iconv(v->cd, &ip, &il, &op, &ol);
		int e = errno;
		struct linepos pos = v->pos;
		struct late lt = v->late;
		int clean = 1;

		used = (size_t)(ip - (char *)(p + i));
		nc = (size_t)(op - (char *)out) / 4;
		for (k = 0; k < nc && clean; k++) {
			uint32_t c = load_le32(out + 4 * k);

			/* A late declaration, too, is found again a
			 * character at a time, for its offset. */
			if (!xml_char_ok(c, 0) || (v->late.decoded &&
			    late_char(&lt, (long)c, (uint64_t)-2, 0, 0)))
				clean = 0;
			else
				linepos_step(&pos, c, 0);
		}
		/* The lexer may be left after a '<' whose offset the block
		 * does not tell. */
		if (clean && v->late.decoded && late_pending(&lt))
			clean = 0;
		/* A transcoder takes the characters, or none of them when
		 * it lacks one: then the block goes a character at a time,
		 * for the position of that one. */
		if (clean && used > 0 && v->sink != NULL && (v->block == NULL ||
		    v->block(v->sink_ctx, out, 4 * nc) != 4 * nc))
			clean = 0;
		if (clean && used > 0) {
			v->late = lt;
			v->pos = pos;
			v->off += used;
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

			iconv(v->cd, NULL, NULL, NULL, NULL);
			m = val_feed_iconv(v, p + i, rest, eof && rest == n - i);
			if (m == 0)
				break;
			i += m;
		} else if (used == 0)
			break;
	}
	if (eof && i == n)
		flush_decoder(v);
	return i;
}

/*
 * Validate the next n bytes of the entity; eof says they are the last.
 * Return how many were consumed: fewer than n only when not eof and the
 * data ends inside a character, whose bytes the caller passes again.
 */

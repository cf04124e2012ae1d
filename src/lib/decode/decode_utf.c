/*
 * Decoding the whole entity in its authoritative encoding (XML 1.0
 * section 4.3.3), for the check and the sink (decode.h): the entry points,
 * and UTF-8, UTF-16 and UTF-32, which have their own decoders (utf.h) and
 * run kernels (src/simd/); other encodings go through iconv(3)
 * (decode_iconv.c).
 */
#include <iconv.h>
#include <pthread.h>
#include <string.h>

#include "decode.h"

/* Start decoding the entity s for the check chk, an iconv decoder taken
 * from cache; -1 when iconv cannot open its decoder. */
int
dec_init(struct dec *d, const struct sniff *s, const struct dec_check *chk,
    void *ctx, struct dcaches *cache)
{
	mem_zero(d, sizeof(*d));
	d->cache = cache;
	d->form = s->dec;
	d->xml11 = s->xml11;
	d->skip = s->bomlen;
	d->pos.line = d->pos.col = 1;
	d->cd = (iconv_t)-1;
	d->chk = chk;
	d->chk_ctx = ctx;
	if (d->form == FORM_ICONV) {
		if ((d->dc = dec_dcache(cache, s->dec_iconv)) == NULL)
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
		uint32_t c = 0;	/* set where the decoder reads one */
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

/*
 * The same walk for XML 1.0 as an automaton of utf8_dec (RFC 3629
 * section 4) and linepos_step (XML 1.0 section 2.11), a table lookup a
 * byte with no branch.  A state is what is pending of a sequence (none;
 * 1, 2 or 3 continuation bytes; the narrower second byte after E0, ED,
 * F0 and F4; EF and EF BF, which may end in U+FFFE or U+FFFF) and whether
 * the last character was a CR (which a bad sequence leaves last).  An
 * entry is the next state and what the byte did: columns to add, a new
 * line, bad sequences ended (two when the byte that ends one is bad
 * alone), a character that is no Char, and whether it leads a sequence
 * still pending (after the bad one it ended, perhaps).
 */
enum { Q_S, Q_N1, Q_N2, Q_N3, Q_E0, Q_ED, Q_EF, Q_EFBF, Q_F0, Q_F4, Q_NSEQ };

#define QE_NEXT(e)	((e) & 31)
#define QE_ADD(e)	(((e) >> 5) & 3)
#define QE_NL(e)	(((e) >> 7) & 1)
#define QE_BAD(e)	(((e) >> 8) & 3)
#define QE_NONCHAR(e)	(((e) >> 10) & 1)
#define QE_LEAD		0x800	/* the byte begins the pending sequence */

static uint16_t qtab[Q_NSEQ * 2 * 256];

static unsigned
qent(unsigned seq, unsigned cr, unsigned add, unsigned nl, unsigned bad,
    unsigned nonchar)
{
	return (seq * 2 + cr) | add << 5 | nl << 7 | bad << 8 | nonchar << 10;
}

/* Byte b with nothing pending, after a CR when cr. */
static unsigned
qstart(unsigned b, unsigned cr)
{
	if (b == '\n')
		return cr ? qent(Q_S, 0, 0, 0, 0, 0) : qent(Q_S, 0, 1, 1, 0, 0);
	if (b == '\r')
		return qent(Q_S, 1, 1, 1, 0, 0);
	if (b < 0x80)
		return qent(Q_S, 0, 1, 0, 0, b < 0x20 && b != '\t');
	if (b <= 0xC1 || b >= 0xF5)
		return qent(Q_S, cr, 1, 0, 1, 0);
	return qent(b <= 0xDF ? Q_N1 : b == 0xE0 ? Q_E0 : b == 0xED ? Q_ED :
	    b == 0xEF ? Q_EF : b <= 0xEF ? Q_N2 : b == 0xF0 ? Q_F0 :
	    b == 0xF4 ? Q_F4 : Q_N3, cr, 0, 0, 0, 0) | QE_LEAD;
}

static void
qtab_init(void)
{
	static const unsigned char lo[Q_NSEQ] = { 0, 0x80, 0x80, 0x80, 0xA0,
	    0x80, 0x80, 0x80, 0x90, 0x80 };
	static const unsigned char hi[Q_NSEQ] = { 0, 0xBF, 0xBF, 0xBF, 0xBF,
	    0x9F, 0xBF, 0xBF, 0xBF, 0x8F };
	static const unsigned char after[Q_NSEQ] = { Q_S, Q_S, Q_N1, Q_N2,
	    Q_N1, Q_N1, Q_N1, Q_S, Q_N2, Q_N2 };
	unsigned q, cr, b, e, next;

	for (q = 0; q < Q_NSEQ; q++)
		for (cr = 0; cr < 2; cr++)
			for (b = 0; b < 256; b++) {
				if (q == Q_S)
					e = qstart(b, cr);
				else if (b < lo[q] || b > hi[q]) {
					/* A bad sequence, a column; then b
					 * starts afresh. */
					e = qstart(b, cr);
					e = qent(QE_NEXT(e) / 2, QE_NEXT(e) & 1,
					    QE_NL(e) ? 1 : QE_ADD(e) + 1,
					    QE_NL(e), QE_BAD(e) + 1,
					    QE_NONCHAR(e)) | (e & QE_LEAD);
				} else {
					next = q == Q_EF && b == 0xBF ?
					    Q_EFBF : after[q];
					e = next == Q_S ? qent(Q_S, 0, 1, 0, 0,
					    q == Q_EFBF && b >= 0xBE) :
					    qent(next, cr, 0, 0, 0, 0);
				}
				qtab[(q * 2 + cr) << 8 | b] = (uint16_t)e;
			}
}

/*
 * A stretch of QW_SPAN bytes walked through the automaton four ways at
 * once, each walk a chain of table lookups of its own, for the processor
 * to overlap: the stretch is cut after ASCII bytes other than CR, which
 * end whatever was pending and begin nothing (UTF-8 resynchronises on
 * them, RFC 3629 section 3), and after which no CR is last; the walks
 * after the first start from there with nothing pending.  Their table,
 * qwtab, has qtab's entries spread for a walk to add them up in one
 * word, acc: from bit 16 on the line ends, bad sequences, non-Chars and
 * columns (QW_LINES and so on), twelve bits each (a walk is shorter than
 * QW_SPAN bytes, and a byte adds two at most); below, the next state as
 * an index (state << 8).  The column after a line end is 1 (XML 1.0
 * section 2.11), so a walk keeps acc as it was after its last one, at.
 */
#define QW_SPAN		256
#define QW_CUT		32	/* a cut this near a quarter */

static uint64_t qwtab[Q_NSEQ * 2 * 256];

#define QW_NL		(1ULL << 16)
#define QW_LINES(a)	((a) & 0xFFF)
#define QW_BAD(a)	(((a) >> 12) & 0xFFF)
#define QW_NONCHAR(a)	(((a) >> 24) & 0xFFF)
#define QW_COLS(a)	((a) >> 36)

struct qwalk {
	unsigned	 i;	/* state << 8 */
	uint64_t	 acc;
	uint64_t	 at;	/* acc after the last line end */
};

#define QW_STEP(w, b) do {						\
	uint64_t e_ = qwtab[(w).i | (b)];				\
									\
	(w).i = (unsigned)e_ & 0x1F00;					\
	(w).acc += e_ >> 16;						\
	(w).at = e_ & QW_NL ? (w).acc : (w).at;				\
} while (0)

static void
qwtab_init(void)
{
	size_t k;

	for (k = 0; k < sizeof(qwtab) / sizeof(qwtab[0]); k++) {
		unsigned e = qtab[k];

		qwtab[k] = (uint64_t)QE_NEXT(e) << 8 |
		    (uint64_t)QE_NL(e) << 16 | (uint64_t)QE_BAD(e) << 28 |
		    (uint64_t)QE_NONCHAR(e) << 40 | (uint64_t)QE_ADD(e) << 52;
	}
}

/* The column after walk w, which began at column col. */
static uint64_t
qw_col(const struct qwalk *w, uint64_t col)
{
	if (QW_LINES(w->acc) == 0)
		return col + QW_COLS(w->acc);
	return 1 + QW_COLS(w->acc) - QW_COLS(w->at);
}

/* Where a walk may start at or after p[a] (within QW_CUT), or 0. */
static size_t
qcut(const unsigned char *p, size_t a)
{
	size_t j;

	for (j = a; j < a + QW_CUT; j++)
		if (p[j] < 0x80 && p[j] != '\r')
			return j + 1;
	return 0;
}

/* The two tables, built once by whichever thread needs them first. */
static pthread_once_t qtab_once = PTHREAD_ONCE_INIT;

static void
qtabs_build(void)
{
	qtab_init();
	qwtab_init();
}

static void
qtabs_ready(void)
{
	pthread_once(&qtab_once, qtabs_build);
}

/* Walk p[0..QW_SPAN) from state *st, line *line, column *col, into them
 * and *bad, *nonchar; 0 when it cannot be cut (nothing done). */
static int
qwide(const unsigned char *p, unsigned *st, uint64_t *line, uint64_t *col,
    uint64_t *bad, uint64_t *nonchar)
{
	struct qwalk w0 = { 0, 0, 0 }, w1 = { 0, 0, 0 }, w2 = { 0, 0, 0 },
	    w3 = { 0, 0, 0 };
	size_t c1, c2, c3, m, k;
	uint64_t acc;

	if ((c1 = qcut(p, QW_SPAN / 4)) == 0 ||
	    (c2 = qcut(p, QW_SPAN / 2)) == 0 ||
	    (c3 = qcut(p, QW_SPAN / 4 * 3)) == 0)
		return 0;
	w0.i = *st << 8;
	m = c1;
	if (c2 - c1 < m)
		m = c2 - c1;
	if (c3 - c2 < m)
		m = c3 - c2;
	if (QW_SPAN - c3 < m)
		m = QW_SPAN - c3;
	for (k = 0; k < m; k++) {
		QW_STEP(w0, p[k]);
		QW_STEP(w1, p[c1 + k]);
		QW_STEP(w2, p[c2 + k]);
		QW_STEP(w3, p[c3 + k]);
	}
	for (k = m; k < c1; k++)
		QW_STEP(w0, p[k]);
	for (k = c1 + m; k < c2; k++)
		QW_STEP(w1, p[k]);
	for (k = c2 + m; k < c3; k++)
		QW_STEP(w2, p[k]);
	for (k = c3 + m; k < QW_SPAN; k++)
		QW_STEP(w3, p[k]);
	*col = qw_col(&w3, qw_col(&w2, qw_col(&w1, qw_col(&w0, *col))));
	acc = w0.acc + w1.acc + w2.acc + w3.acc;
	*st = w3.i >> 8;
	*line += QW_LINES(acc);
	*bad += QW_BAD(acc);
	*nonchar += QW_NONCHAR(acc);
	return 1;
}

/*
 * feed_quiet for XML 1.0, through the automaton: stretches of QW_SPAN
 * bytes (qwide) or else 64 while errors stay dense; it stops before eight
 * and eight plain ASCII bytes, and after a stretch with no error, for the
 * run kernels.  A sequence pending at the end is left for the caller, as
 * utf8_dec would.  Unless chars, a stretch with a non-Char in it is undone
 * and left to the character path, which reports it.  Where the vector
 * kernel is (kernels.h), it takes whole blocks whenever nothing is pending,
 * and the automaton only the 32 bytes of a block it stopped before.
 */
static size_t
feed_quiet10(struct dec *d, const unsigned char *p, size_t n, int chars)
{
	uint64_t line = d->pos.line, col = d->pos.col, bad = 0, nonchar = 0;
	unsigned st = d->pos.prev == '\r';
	size_t i = 0, done = 0, end, k, lim = 64;
	const int vec = dense_have();

	qtabs_ready();
	while (i < n) {
		uint64_t errs = bad + nonchar, sline = line, scol = col;
		unsigned sst = st;
		size_t sdone = done;

		if (st < 2 && n - i >= 16 && ascii8(p + i) && ascii8(p + i + 8))
			break;
		if (vec && st < 2 && lim == 64) {
			/* Whole blocks with nothing pending, by the vector
			 * kernel (kernels.h) where there is one; the block it
			 * stopped before goes a byte at a time. */
			struct dense_tally dt = { line, col, bad, nonchar,
			    (int)st, 0 };

			lim = 32;
			if ((k = dense_utf8(p + i, n - i, chars, &dt)) > 0) {
				line = dt.line;
				col = dt.col;
				bad = dt.bad;
				nonchar = dt.nonchar;
				st = (unsigned)dt.cr;
				done = i += k;
				if (dt.clean)
					break;
				continue;
			}
		}
		if (lim == 64 && n - i >= QW_SPAN && qwide(p + i, &st, &line,
		    &col, &bad, &nonchar)) {
			/* What is pending began at its lead, the last byte
			 * from C0 on (the rest continue it). */
			i += QW_SPAN;
			for (done = i; st >= 2 && p[done - 1] < 0xC0; done--)
				;
			if (st >= 2)
				done--;
		} else {
			for (end = n - i > lim ? i + lim : n; i < end; i++) {
				unsigned e = qtab[st << 8 | p[i]];

				st = QE_NEXT(e);
				col = (col & ((uint64_t)QE_NL(e) - 1)) +
				    QE_ADD(e);
				line += QE_NL(e);
				bad += QE_BAD(e);
				nonchar += QE_NONCHAR(e);
				/* What is pending began at done. */
				done = st < 2 ? i + 1 : e & QE_LEAD ? i : done;
			}
		}
		if (!chars && nonchar > 0) {
			line = sline;
			col = scol;
			st = sst;
			done = sdone;
			bad = errs;
			nonchar = 0;
			break;
		}
		if (bad + nonchar == errs && st < 2)
			break;
		lim = 64;
	}
	d->pos.line = line;
	d->pos.col = col;
	if (st & 1)
		d->pos.prev = '\r';
	else if (d->pos.prev == '\r')
		d->pos.prev = 0;
	d->off += done;
	d->chk->tally(d->chk_ctx, bad, nonchar);
	return done;
}

/*
 * UTF-8 just after a bad sequence, for the check alone: the characters
 * that follow, while errors stay dense (random bytes, Latin-1 read as
 * UTF-8), go the character path here, as the reference takes them,
 * rather than each through the run kernel for a run of a byte or two.
 * It stops at eight plain ASCII bytes (a run the kernel should count),
 * DENSE_CLEAN bytes past the last bad sequence (clean text again: CJK
 * with an error now and then), at a NUL (counted as a run by
 * feed_unicode), at a character cut by the end of p, and after DENSE_MAX
 * bytes; it returns how many it took.
 * Once the check only counts, the walks above take over, which stop
 * only where the text turns clean.
 */
#define DENSE_MAX	4096
#define DENSE_CLEAN	64

static size_t
feed_dense(struct dec *d, const unsigned char *p, size_t n)
{
	size_t i = 0, k, last = 0;

	switch (d->chk->quiet(d->chk_ctx)) {
	case 1:
		return d->xml11 ? feed_quiet(d, p, n) : feed_quiet10(d, p, n, 1);
	case 2:
		/* Up to the stretch with the first non-Char, if any. */
		if (!d->xml11)
			i = feed_quiet10(d, p, n, 0);
		break;
	}
	if (n > DENSE_MAX)
		n = DENSE_MAX;
	while (i < n && p[i] != 0 && i - last < DENSE_CLEAN) {
		uint32_t c = 0;	/* set where r > 0; gcc -O1 cannot see it */
		int r;

		if (n - i >= 8 && ascii8(p + i))
			break;
		if ((k = dec_bad_run(d, p + i, n - i)) > 0) {
			i += k;
			last = i;
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
			last = i + (size_t)r;
		}
		i += (size_t)r;
		d->off += (uint64_t)r;
	}
	return i;
}

/* Whether the eight bytes at p are all zero. */
static int
load_le64z(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w == 0;
}

/*
 * UTF-16 and UTF-32 just after a bad sequence, once the check only
 * counts illegal sequences (check_quiet): the characters that follow,
 * while errors stay dense (unpaired surrogates, values above U+10FFFF),
 * are counted here as the character path would take them (a bad sequence
 * a column, told to the check at the end; a character a step of the
 * position), rather than each through the run kernel and the check.  It
 * stops before a non-Char unless those are only counted too, at a
 * character cut by the end of p, and DENSE_CLEAN bytes past the last bad
 * sequence; it returns how many bytes it took.  After a bad sequence the
 * vector kernel (kernels.h), where there is one, takes whole blocks of XML
 * 1.0 text first.
 */
static size_t
feed_quiet_units(struct dec *d, const unsigned char *p, size_t n)
{
	struct linepos pos = d->pos;
	uint64_t bad = 0, nonchar = 0;
	const int form = d->form, be = form == FORM_UTF16BE ||
	    form == FORM_UTF32BE, xml11 = d->xml11;
	const int u16 = form == FORM_UTF16BE || form == FORM_UTF16LE;
	size_t i = 0, last = 0;
	int quiet;

	if ((quiet = d->chk->quiet(d->chk_ctx)) == 0)
		return 0;
	while (i < n && i - last < DENSE_CLEAN) {
		uint32_t c;
		int r;

		if (!xml11 && i == last) {
			/* Whole blocks by the vector kernel (kernels.h),
			 * where there is one. */
			struct dense_tally dt = { pos.line, pos.col, bad,
			    nonchar, pos.prev == '\r', 0 };
			size_t k = u16 ? dense_utf16(p + i, n - i, be,
			    quiet == 1, &dt) : dense_utf32(p + i, n - i, be,
			    quiet == 1, &dt);

			if (k > 0) {
				pos.line = dt.line;
				pos.col = dt.col;
				pos.prev = dt.cr ? '\r' : 0;
				bad = dt.bad;
				nonchar = dt.nonchar;
				i += k;
				if (dt.clean)
					break;
				last = i;
			}
		}

		r = u16 ? utf16_dec(p + i, n - i, be, &c) :
		    utf32_dec(p + i, n - i, be, &c);
		if (r == 0)
			break;
		if (r > 0) {
			if (!xml_char_ok(c, xml11)) {
				if (quiet != 1)
					break;
				nonchar++;
			}
			linepos_step(&pos, c, xml11);
		} else {
			bad++;
			pos.col++;
			r = -r;
			last = i + (size_t)r;
		}
		i += (size_t)r;
	}
	d->pos = pos;
	d->off += i;
	d->chk->tally(d->chk_ctx, bad, nonchar);
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
		uint32_t c = 0;	/* set where the decoder reads one */
		int r;

		/* Runs of plain characters need only counting (src/simd/);
		 * none starts right after a CR (the kernels would count an
		 * LF next as a line end), and dec_take() keeps a CR that ends
		 * one as the character before the next. */
		if ((d->sink == NULL || d->sink_run != NULL) && !d->xml11 &&
		    d->pos.prev != '\r' && i >= dl.declined) {
			struct linepos end = d->pos;
			size_t k = dec_plain(form, p + i, n - i, &end.line,
			    &end.col);

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

			while (n - i - k >= 8 && load_le64z(p + i + k))
				k += 8;
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
		if (form == FORM_UTF8 && p[i] >= 0x80 && d->sink == NULL &&
		    !dec_ref() && (r = (int)dec_bad_run(d, p + i, n - i)) > 0) {
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
			if (d->sink == NULL && !dec_ref()) {
				i += (size_t)r;
				d->off += (uint64_t)r;
				i += form == FORM_UTF8 ? feed_dense(d, p + i,
				    n - i) : feed_quiet_units(d, p + i, n - i);
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
	    (d->sink == NULL || d->block != NULL) && dec_bulk_ready(d) ?
	    dec_feed_bulk(d, p + k, n - k, eof) :
	    dec_feed_iconv(d, p + k, n - k, eof));
}

/*
 * Kernel equivalence: the sweeps of tests/mapped.bats, every kernel level
 * against the reference, in process.  A regular file of more than 1.25
 * MiB is mapped (src/lib/decode/input.c) and handed on in pieces of 320 KiB, and
 * searched ahead by a second thread (src/lib/decode/prescan.c); the reference reads
 * it a buffer at a time with no thread.  Here a file is written and read
 * through the same input layer as the library's run.c: mapped with
 * the thread, mapped without it (the workers of -j), read ahead by a
 * second thread (src/lib/decode/ahead.c, however small the file), read
 * with mapping off and as from a pipe, at every level; each must give
 * the diagnostics
 * the reference gives, with and without --all, whatever falls on the
 * edge of a piece, of the thread's 64 KiB steps, of the pages given back
 * behind (every MiB) or of the file's last page.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all.h"
#include "http.h"
#include "mojibake.h"
#include "unit.h"
#include "kern.h"
#include "kern_fast.h"

#define READ	327680		/* IN_SIZE: a read, or a piece */
#define SEG	65536		/* the second thread's step */

/* How the file reaches the engine. */
enum how {
	H_MAP,		/* mapped, searched ahead by the second thread */
	H_SPLIT,	/* the same, each piece's marks half the thread's
			 * (pre_test_split) */
	H_AHEAD,	/* read ahead by a second thread (ahead.c), however
			 * small (ahead_test_min) */
	H_MAPONE,	/* mapped, no thread (a worker of -j) */
	H_READ,		/* read, mapping off */
	H_PIPE		/* read as from a pipe: no size, no second look */
};
static const char *const hows[] = { "mapped", "mapped, searched in part",
    "read ahead", "mapped, no thread", "read", "pipe" };

char kern_path[64];	/* the file of kern_put_file() */
static struct inbuf in;
/* Whether the validator takes the marks of a big file read ahead: of
 * the text of every form but an EBCDIC encoding. */
static int want_marks = 1;

/* b written over the file kern_path (created once, in TMPDIR or /tmp). */
int
kern_put_file(const struct buf *b)
{
	const char *dir = getenv("TMPDIR");
	size_t done = 0;
	ssize_t r;
	int fd;

	if (kern_path[0] == '\0') {
		snprintf(kern_path, sizeof(kern_path), "%.40s/kernXXXXXX",
		    dir != NULL && *dir != '\0' ? dir : "/tmp");
		if ((fd = mkstemp(kern_path)) < 0) {
			kern_path[0] = '\0';
			return 0;
		}
		close(fd);
	}
	if ((fd = open(kern_path, O_WRONLY | O_TRUNC)) < 0)
		return 0;
	while (done < b->n && (r = write(fd, b->p + done, b->n - done)) > 0)
		done += (size_t)r;
	close(fd);
	return done == b->n;
}

/* Whether a's n marks below cov, in order and none twice, are b's below
 * cov (b: all there are), and a has none past it. */
static int
list_same(const uint32_t *a, size_t na, size_t cov, const uint32_t *b,
    size_t nb)
{
	size_t i, j;

	for (i = 1; i < na; i++)
		if (a[i] <= a[i - 1])
			return 0;
	for (i = j = 0; j < nb && b[j] < cov; i++, j++)
		if (i >= na || a[i] != b[j])
			return 0;
	return i == na;
}

/* The kind of the "<?" or "<!" at p[j] of p[0..n) as mark_kind8
 * (kernels.h) defines it, a string at a time: MK_OTHER where fewer than 9
 * bytes can be read. */
int
kern_kind_def(const unsigned char *p, size_t n, size_t j)
{
	if (j + 9 > n)
		return MK_OTHER;
	if (memcmp(p + j, "<!--", 4) == 0)
		return MK_COMMENT;
	if (memcmp(p + j, "<![CDATA[", 9) == 0)
		return MK_CDATA;
	if (p[j + 1] == '?' && memcmp(p + j, "<?xml", 5) != 0)
		return MK_PI;
	return MK_OTHER;
}

/* The same of the mark at p[j] of UTF-16 text p[0..n) on a unit (be:
 * big-endian), as mark_kindw and marks_harden take it: MK_NOT at an odd
 * offset, MK_OTHER with fewer than 9 units to read, MK_NOT unless '<'
 * and '?' or '!', else the kind of its units narrowed. */
int
kern_kind_defw(const unsigned char *p, size_t n, size_t j, int be)
{
	unsigned char s[9];
	size_t k;

	if (j % 2 != 0)
		return MK_NOT;
	if (j + 18 > n)
		return MK_OTHER;
	for (k = 0; k < 9; k++) {
		const unsigned char *q = p + j + 2 * k;
		unsigned u = be ? (unsigned)q[0] << 8 | q[1] :
		    (unsigned)q[1] << 8 | q[0];

		s[k] = u < 128 ? (unsigned char)u : 0xFF;
	}
	if (s[0] != '<' || (s[1] != '?' && s[1] != '!'))
		return MK_NOT;
	return kern_kind_def(s, 9, 0);
}

/*
 * Whether m's list of "<?" and "<!", of its base (bytes, or UTF-16), is
 * as struct marks defines it with m->hard (kernels.h), all being the
 * list of every mark of the same bytes, whole: the marks of kind
 * MK_OTHER below lcov and no other, in order; in ksum the kind of each
 * other open below lcov, and no kind that no open there has.  A list of
 * every open (hard 0) passes.
 */
int
kern_hard_same(const struct marks *m, const struct marks *all)
{
	const unsigned char *p = m->base;
	size_t n = m->len, t, j, k = 0;
	unsigned below = 0, every = 0;
	int kind;

	if (!m->hard)
		return 1;
	if (n > 0 && all->lcov + 1 < n)
		return 0;
	for (t = 0; t < all->nlt; t++) {
		j = all->lt[t];
		kind = m->usz == 2 ? kern_kind_defw(p, n, j, m->be) :
		    kern_kind_def(p, n, j);
		if (kind == MK_NOT)
			continue;
		if (kind != MK_OTHER) {
			every |= 1u << kind;
			below |= j < m->lcov ? 1u << kind : 0;
		} else if (j < m->lcov && (k >= m->nlt || m->lt[k++] != j))
			return 0;
	}
	return k == m->nlt && (below & ~m->ksum) == 0 &&
	    (m->ksum & ~every) == 0;
}

/*
 * The marks the validator holds for the piece it was fed (the thread
 * that read it ahead found them, the search ahead, or its own pass), or
 * those of a piece read ahead (kern_ahead.c), against one pass over the
 * same bytes, as far as they say they are complete, and the list of
 * opens, where it holds only those to lex, as the definition has it.
 */
int
kern_marks_same(const struct marks *m)
{
	static uint32_t *r;
	static size_t rcap;
	struct marks o;

	if (m == NULL || m->base == NULL)
		return 1;
	if (m->lcov > m->len || m->mcov > m->len)
		return 0;
	if (rcap < m->len + 1) {
		free(r);
		rcap = m->len + 1;
		if ((r = malloc(2 * rcap * sizeof(*r))) == NULL) {
			rcap = 0;
			return 0;
		}
	}
	o.lt = r;
	o.mj = r + rcap;
	o.cap = rcap;
	o.hard = 0;
	if (m->usz > 0)
		marksw(m->base, m->len, (size_t)m->usz, m->be, &o);
	else
		marks8(m->base, m->len, &o);
	/* (o, of one pass with room for all, holds every open) */
	return (m->hard ? kern_hard_same(m, &o) : list_same(m->lt, m->nlt,
	    m->lcov, o.lt, o.nlt)) && list_same(m->mj, m->nmj, m->mcov, o.mj,
	    o.nmj);
}

/* The read loop of run.c over in, for the sniff s (entity from
 * at), mapping the file if map and it is worth it, else reading it ahead
 * if readahead (*mapped: whether it was either).  Return 0 or an errno. */
static int
feed(struct sniff *s, struct val *v, long long at, int map, int ahead,
    int readahead, int *mapped)
{
	static struct moj mj;
	const unsigned char *m;
	struct pre *pre = NULL;
	struct marks *mk;
	size_t len;
	long long pos;
	int e = 0, given = 0, ra, ak;

	moj_init(&mj, s, at >= 0 ? in.fd : -1, at >= 0 ? (uint64_t)at : 0);
	moj_marks(&mj, val_marks(v));
	if (map)
		in_map_begin(&in);
	else if (readahead)
		in_ahead_begin(&in, val_ahead_marks(v, at >= 0 ? at : 0));
	*mapped = in.mapped || in.ra != NULL;
	ra = in.ra != NULL && in.size > 5 * READ;
	m = in_map(&in, &len);
	if (ahead)
		pre = pre_begin(m, len, (uint64_t)(in.got - (long long)in.n),
		    at >= 0 ? (uint64_t)at : 0, s, val_sbmap(v));
	if (pre != NULL)
		val_set_finder(v, pre_late_find, pre);
	mj.pre = pre;
	for (;;) {
		size_t used = val_feed_in(v, &in);

		CHECK(kern_marks_same(mk = val_marks(v)));
		/* of the piece fed, to its end, from a unit of the entity
		 * (which begins at at; the validator is fed from past a
		 * BOM) */
		if (mk != NULL && mk->base != NULL) {
			pos = in.got - (long long)in.n + (mk->base - in.p) -
			    (at > 0 ? at : 0);
			CHECK(mk->base >= in.p && mk->base + mk->len ==
			    in.p + in.n && (mk->usz < 2 || pos % mk->usz == 0));
		}
		/* UTF-16 and bytes: every piece has them, the thread's or
		 * the validator's own (but at level ref) */
		ak = AHM_KIND(val_ahead_marks(v, 0));
		if (!simd_char_only() && (ak == AHM_BYTES || ak ==
		    AHM_UTF16LE || ak == AHM_UTF16BE))
			CHECK(mk != NULL && mk->base != NULL);
		given += mk != NULL && mk->base != NULL;
		moj_feed(&mj, in.p, used);
		if (in.eof) {
			moj_end(&mj, &s->dg);
			break;
		}
		if (in_refill(&in, used) < 0) {
			e = errno != 0 ? errno : EIO;
			break;
		}
	}
	/* read ahead, the thread's marks were taken (under the hook it
	 * reads every third piece), where the validator takes marks */
	if (ra && !CHECK(want_marks ? given > 0 : given == 0))
		printf("  (%d pieces with marks)\n", given);
	pre_end(pre);
	if (in_map_end(&in) < 0 && e == 0)
		e = errno != 0 ? errno : EIO;
	if (in_ahead_end(&in) < 0 && e == 0)
		e = errno != 0 ? errno : EIO;
	return e;
}

/*
 * The file read as how says at the level in use, as analyse() in main.c
 * reads it (http: a response whose head is skipped, its Content-Type the
 * entity's), --all's list capped at keep; kern_dump() of the diagnostics
 * and a line for a failure.  *mapped: whether it was mapped.
 */
static char *
file_run(enum how how, int http, size_t keep, int *mapped)
{
	static struct sniff s;
	static struct http hr;
	struct stat st;
	struct val *v;
	char *d, *r;
	size_t hl = 0;
	int e = 0;

	*mapped = 0;
	if (in.mem == NULL && posix_memalign((void **)&in.mem, 4096,
	    IN_PAD + IN_SIZE) != 0)
		return strdup("no memory");
	if ((in.fd = open(kern_path, O_RDONLY)) < 0 || fstat(in.fd, &st) < 0)
		return strdup("cannot open");
	in.n = 0;
	in.got = 0;
	in.eof = 0;
	in.shrunk = 0;
	in.mapped = 0;
	in.p = in.mem + IN_PAD;
	in.size = how == H_PIPE ? -1 : st.st_size;
	in.trust_size = in.size > 0;
	unit_keep(keep, 1);
	memset(&s, 0, sizeof(s));
	/* skip_head() in main.c */
	if (in_refill(&in, 0) < 0)
		e = errno;
	else if (http && (hl = http_parse(in.p, in.n, &hr)) > 0) {
		if (!in.eof && in_refill(&in, hl) < 0)
			e = errno;
		else if (in.eof) {
			in.p += hl;
			in.n -= hl;
		}
	}
	if (e == 0)
		sniff(in.p, in.n < HEAD_MAX ? in.n : HEAD_MAX, in.n <= HEAD_MAX &&
		    in.eof, http && hr.has_mt ? &hr.mt : NULL, NULL, &s);
	s.dg.pol = &unit_pol;
	if (e == 0 && (v = val_new(&s, &s.dg)) != NULL) {
		atomic_store(&pre_test_split, how == H_SPLIT);
		atomic_store(&ahead_test_min, how == H_AHEAD);
		/* read ahead, every third piece by the second thread, which
		 * searches it for its marks, whatever the threads' speeds;
		 * each slot holds pieces of both threads in turn */
		atomic_store(&ahead_test_alternate, how == H_AHEAD ? 2 : 0);
		e = feed(&s, v, how == H_PIPE ? -1 : (long long)hl,
		    how <= H_SPLIT || how == H_MAPONE, how != H_MAPONE,
		    how == H_AHEAD, mapped);
		atomic_store(&pre_test_split, 0);
		atomic_store(&ahead_test_min, 0);
		atomic_store(&ahead_test_alternate, 0);
		val_free(v);
	}
	close(in.fd);
	d = kern_dump(&s.dg);
	diag_free(&s.dg);
	unit_keep(0, 0);
	if (e == 0)
		return d;
	if ((r = malloc(strlen(d) + 100)) != NULL)
		sprintf(r, "%sfailed: %.80s\n", d, strerror(e));
	free(d);
	return r;
}

/*
 * The file b (a response with --http when http) at every level must give
 * what the reference gives reading it: mapped, and when all, also mapped
 * with no thread, read and as from a pipe, and with every occurrence
 * listed (--all) mapped.  Where it is big enough, the levels that have
 * fast paths must have mapped it.
 */
static void
same(const char *label, const struct buf *b, int http, int all)
{
	static const size_t keeps[] = { 0, DIAG_MAX_MAX };
	char what[120], *ref, *got;
	size_t k;
	int l, h, m, ok = 1;

	if (!CHECK(kern_put_file(b)))
		return;
	for (k = 0; k < (all ? NELEM(keeps) : 1) && ok; k++) {
		simd_init("ref");
		ref = file_run(H_READ, http, keeps[k], &m);
		CHECK(ref != NULL && m == 0);
		for (l = 1; l < unit_nlevels && ok && ref != NULL; l++) {
			simd_init(unit_levels[l]);
			for (h = H_MAP; h <= (all && k == 0 ? H_PIPE : H_AHEAD) &&
			    ok; h++) {
				got = file_run((enum how)h, http, keeps[k], &m);
				snprintf(what, sizeof(what), "%s, %s, keep %zu",
				    unit_levels[l], hows[h], keeps[k]);
				if (h <= H_MAPONE && b->n >= READ + 4 * READ)
					ok &= CHECK(m == 1);
				ok &= got != NULL &&
				    kern_same(label, what, ref, got);
				free(got);
			}
		}
		free(ref);
	}
	simd_init(NULL);
}

/*
 * text: n lines of UTF-8 text with two- to four-byte characters, every
 * cr-th ended by CR LF (0: none).  mapped.bats ended every fifth so; the
 * reference level reads such text in time quadratic in its CRs a buffer
 * (ref.c, plain_utf8_nocr), so CR LF is put where it is wanted instead,
 * across each edge of a piece (mapped_edges).
 */
static void
text(struct buf *b, int n, int cr)
{
	static const char *const w[] = { "caf\303\251", "na\303\257ve",
	    "\344\270\255\346\226\207", "\360\237\230\200", "plain", "words",
	    "\320\226\320\266", "x", "" };
	char num[32];
	int i, k;

	for (i = 1; i <= n; i++) {
		snprintf(num, sizeof(num), "<p n=\"%d\">", i);
		bstr(b, num);
		for (k = 0; k < 12; k++) {
			bstr(b, w[(i * 7 + k * 3) % 9]);
			bbyte(b, ' ');
		}
		bstr(b, cr > 0 && i % cr == 0 ? "</p>\r\n" : "</p>\n");
	}
}

/* s written over b at off. */
static void
at(struct buf *b, size_t off, const char *s)
{
	size_t n = strlen(s);

	if (CHECK(off + n <= b->n))
		memcpy(b->p + off, s, n);
}

static const char decl8[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/* Errors just before, on and after each edge of a piece; a character cut
 * by each edge in every length; files that end on, before and after an
 * edge. */
static void
mapped_edges(void)
{
	static const char *const cut[] = { "\303\251", "\344\270\255",
	    "\360\237\230\200", "\r\n" };
	struct buf b = { NULL, 0, 0 };
	size_t e, n, c;
	int k;

	bstr(&b, decl8);
	bstr(&b, "<r>\n");
	text(&b, 40000, 200);
	bstr(&b, "</r>\n");
	CHECK(b.n > 3000000);
	for (k = 1; k <= 9; k++) {
		e = (size_t)k * READ;
		at(&b, e - 2, "\377");
		at(&b, e - 1, "\001");
		at(&b, e, "\200");
		at(&b, e + 1, "\357\277\276");
	}
	same("errors at every edge of a piece", &b, 0, 1);
	for (c = 0; c < NELEM(cut); c++) {
		b.n = 0;
		bstr(&b, "<r>");
		bbytes(&b, 'a', 2000000);
		bstr(&b, "</r>\n");
		for (k = 1; k <= 5; k++)
			at(&b, (size_t)k * READ - (size_t)(k % 3), cut[c]);
		same("a character cut by the edge of a piece", &b, 0, 1);
	}
	for (k = 0; k < 4; k++) {
		n = k == 3 ? 6 * READ - 4096 : 5 * READ + (size_t)k - 1;
		b.n = 0;
		bstr(&b, "<r>");
		bbytes(&b, 'b', n - 9);
		bstr(&b, "</r>\n\377");
		CHECK(b.n == n);
		same("a file that ends near the edge of a piece", &b, 0, 1);
	}
	bfree(&b);
}

/* s written over b at off where it fits (the marks of a smaller file). */
static void
over(struct buf *b, size_t off, const char *s)
{
	if (off + strlen(s) <= b->n)
		at(b, off, s);
}

/* marks: "<?xml", a comment, a PI, mojibake ("Ã©", "Ã¨") and a C1
 * control (C2 85) written over b at the edges of the second thread's
 * steps, of the pieces and of the MiB given back, and in its first step. */
static void
marks(struct buf *b)
{
	static const size_t decl[] = { 100, SEG - 3, 3 * SEG + 1, READ - 2,
	    2 * READ + 5, 1048576 - 4, 2097152 + 30, 4194304 - 1,
	    4194304 + 64 };
	static const size_t ks[] = { 1, 2, 5, 9, 17, 30, 47, 63, 64, 65, 70 };
	size_t i, o;

	for (i = 0; i < NELEM(decl); i++)
		over(b, decl[i], "\n<?xml version=\"1.0\"?>\n");
	for (i = 0; i < NELEM(ks); i++) {
		o = ks[i] * SEG;
		over(b, o - 3, "\303\203\302\251");
		over(b, o + 40, "<!--\303\203\302\250-->");
		over(b, o + 90, "\302\205<?pi x?>");
		over(b, o - 70, "\303\203\302\251\303\203\302\251");
	}
	/* at the edges of pieces (of a file read ahead, those at 3, 9 and
	 * 12 READ begin the second thread's pieces: its marks, and the
	 * validator's of the bytes kept in front): a candidate from a lead
	 * byte kept (C3 | 83 C2 A9); a lone lead kept before a candidate, or
	 * a declaration, at the piece's start; two bytes of four kept before
	 * a candidate; a candidate across the edge, nothing kept */
	over(b, 3 * READ - 1, "\303\203\302\251");
	over(b, 9 * READ - 1, "\303\303\203\302\251");
	over(b, 12 * READ - 1, "\303<?xml version=\"1.0\"?>");
	over(b, 2 * READ - 1, "\303\303\203\302\251");
	over(b, 4 * READ - 2, "\360\237\303\203\302\251");
	over(b, 8 * READ - 2, "\303\203\302\251");
}

/* File i of a tree for -r: big, small, big and declared, small. */
static void
tree_file(struct buf *b, int i)
{
	b->n = 0;
	if (i == 2)
		bstr(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
	bstr(b, "<r>");
	if (i % 2 == 0)
		text(b, i == 0 ? 20000 : 30000, 200);
	bstr(b, i == 2 ? "\001</r>\n" : "\377</r>\n");
}

/* Late declarations and mojibake after the first pieces, where the
 * thread's steps end, more marks than it keeps; files one after another,
 * big and small, mapped and read. */
static void
mapped_marks(void)
{
	struct buf b = { NULL, 0, 0 };
	char *ref[4], *got, name[40];
	int v, i, m;

	bstr(&b, "<r>\n");
	text(&b, 20000, 200);
	bstr(&b, "<?xml version=\"1.0\"?>\n\303\203\302\251t\303\203\302\251\n");
	text(&b, 2000, 200);
	bstr(&b, "</r>\n");
	CHECK(b.n > 1400000);
	same("a late declaration and mojibake after the first pieces", &b, 0,
	    1);
	for (v = 0; v < 2; v++) {
		b.n = 0;
		bstr(&b, v ? "<?xml version=\"1.1\" encoding=\"UTF-8\"?>\n<r>\n" :
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r>\n");
		text(&b, 64000, 200);
		bstr(&b, "</r>\n");
		CHECK(b.n > 4700000);
		marks(&b);
		same("marks where the thread's steps end", &b, 0, v == 0);
	}
	b.n = 0;
	bstr(&b, "<r>\n");
	/* (late declarations past the marks a piece's lists hold) */
	for (i = 0; i < 80000; i++)
		bstr(&b, i == 40000 || i == 60000 ?
		    "<?xml version=\"1.0\"?>\n" :
		    "<!--c-->\303\203\302\251 <?p?>\n");
	text(&b, 3000, 200);
	bstr(&b, "<?xml version=\"1.0\"?>\n</r>\n");
	/* a candidate in the byte kept in front of a piece whose lists
	 * are full: the validator's lists then cannot hold all the
	 * thread's, and are complete only up to the first left out */
	for (i = 2; i <= 4; i++)
		over(&b, (size_t)i * READ - 1, "\303\203\302\251");
	/* and opens of a comment and a PI cut by the end of a piece: the
	 * lists of the opens to lex of neither piece hold them, and the
	 * lexer carries them over */
	CHECK(b.n > 4 * READ + 8);
	over(&b, 1 * READ - 1, "<!--c-->");
	over(&b, 3 * READ - 3, "<!-- -->");
	over(&b, 4 * READ - 1, "<?p?>");
	same("more marks than the thread keeps", &b, 0, 1);
	/* -r: big and small files in turn, mapped, as read one by one. */
	for (i = 0; i < 4; i++) {
		tree_file(&b, i);
		if (!CHECK(kern_put_file(&b)))
			break;
		simd_init("ref");
		ref[i] = file_run(H_READ, 0, 0, &m);
	}
	simd_init(NULL);
	for (v = 0; v < 2; v++)
		for (i = 0; i < 4; i++) {
			tree_file(&b, i);
			CHECK(kern_put_file(&b));
			got = file_run(v ? H_MAPONE : H_MAP, 0, 0, &m);
			snprintf(name, sizeof(name), "file %d of a tree", i);
			kern_same(name, hows[v], ref[i], got);
			free(got);
		}
	for (i = 0; i < 4; i++)
		free(ref[i]);
	bfree(&b);
}

/* Files that end at the end of a page, on each length of a character
 * and a CR: past the last page of a mapped file nothing may be read. */
static void
mapped_page_end(void)
{
	static const char *const last[] = { "", "\303\251", "\344\270\255",
	    "\360\237\230\200", "\r" };
	struct buf b = { NULL, 0, 0 };
	size_t n, c;
	int k;

	for (k = 0; k < 4; k++) {
		n = 4096 * (size_t)(400 + k) - (size_t)k;
		for (c = 0; c < NELEM(last); c++) {
			b.n = 0;
			bstr(&b, "<r>");
			bbytes(&b, 'a', n - 4 - strlen(last[c]));
			bstr(&b, last[c]);
			bbyte(&b, '>');
			CHECK(b.n == n);
			same("a file that ends at the end of a page", &b, 0, 0);
		}
	}
	bfree(&b);
}

/* UTF-8 p[0..n) in the encoding to, appended to b; what does not convert
 * is left out, a byte at a time (as iconv -c).  The input goes in short
 * pieces: glibc converts a whole input again after each refusal.  Return
 * 0 if iconv lacks the encoding. */
static int
convert(struct buf *b, const char *to, const unsigned char *p, size_t n)
{
	iconv_t cd = iconv_open(to, "UTF-8");
	char out[1024], *ip = (char *)p, *op;
	size_t il, ol, r, left = n;

	if (cd == (iconv_t)-1)
		return 0;
	while (left > 0) {
		il = left < 64 ? left : 64;
		left -= il;
		op = out;
		ol = sizeof(out);
		r = iconv(cd, &ip, &il, &op, &ol);
		bput(b, out, sizeof(out) - ol);
		if (r == (size_t)-1 && errno == EILSEQ) {
			ip++;
			il--;
		} else if (r == (size_t)-1 && left == 0)
			break;	/* a character cut at the end */
		left += il;
	}
	iconv_close(cd);
	return 1;
}

/* The units u[0..n) written over b at off in UTF-16 (be: big-endian). */
static void
units_at(struct buf *b, size_t off, int be, const uint16_t *u, size_t n)
{
	size_t k;

	if (!CHECK(off + 2 * n <= b->n))
		return;
	for (k = 0; k < n; k++) {
		b->p[off + 2 * k + !be] = (char)(u[k] >> 8);
		b->p[off + 2 * k + be] = (char)(u[k] & 0xFF);
	}
}

/*
 * UTF-16 marks where the second thread's pieces begin and end (at 3, 6
 * and 9 READ under the hook): a surrogate pair cut by the edge (its high
 * half kept in front of the piece) before a PI, a comment and mojibake
 * ("Ã©": 00C3 00A9); and at a piece's end a lead unit before a high
 * surrogate kept for the next, a candidate where the validator is fed
 * (its trail unit not fed yet) but not in the thread's bytes.
 */
static void
wide_edges(struct buf *b, int be)
{
	static const uint16_t start[] = { 0xD83D, 0xDE00, '<', '?', 'p',
	    '?', '>', 0xC3, 0xA9, '<', '!', '-', '-', 0xC3, 0xA8, '-', '-',
	    '>' };
	static const uint16_t end[] = { 0xC3, 0xD83D, 0xDE00, 0xC3, 0xA9 };
	size_t e;

	for (e = 3; e <= 9; e += 3) {
		units_at(b, e * READ - 2, be, start, NELEM(start));
		units_at(b, (e + 1) * READ - 4, be, end, NELEM(end));
	}
}

/* The marks in UTF-16 and UTF-32 (with a BOM), in a UTF-16 --http body
 * that starts at an odd offset, and in single-byte encodings, ASCII-based
 * and EBCDIC. */
static void
mapped_forms(void)
{
	static const char *const wide[] = { "UTF-16LE", "UTF-16BE",
	    "UTF-32LE", "UTF-32BE" };
	static const char *const sb[] = { "ISO-8859-1", "windows-1252",
	    "IBM037" };
	struct buf u = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	char label[80];
	size_t i;

	bstr(&u, "\357\273\277<?xml version=\"1.0\"?>\n<r>\n");
	text(&u, 32000, 200);
	bstr(&u, "</r>\n");
	marks(&u);
	for (i = 0; i < NELEM(wide); i++) {
		b.n = 0;
		if (!CHECK(convert(&b, wide[i], u.p, u.n)))
			continue;
		snprintf(label, sizeof(label), "marks in %s", wide[i]);
		same(label, &b, 0, i == 0);
		if (i < 2) {
			wide_edges(&b, i == 1);
			snprintf(label, sizeof(label),
			    "marks at the edges of %s pieces", wide[i]);
			same(label, &b, 0, 0);
		}
		if (i == 0) {
			/* an odd unit: a lone byte at the end */
			bbyte(&b, 'x');
			same("marks in UTF-16LE and a lone byte", &b, 0, 0);
		}
	}
	b.n = 0;
	bstr(&b, "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n");
	convert(&b, "UTF-16LE", u.p, u.n);
	same("a UTF-16 --http body at an odd offset", &b, 1, 0);
	b.n = 0;
	bstr(&b, "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n");
	convert(&b, "UTF-32BE", u.p, u.n);
	same("a UTF-32 --http body at an offset of 4k + 3", &b, 1, 0);
	for (i = 0; i < NELEM(sb); i++) {
		u.n = 0;
		bstr(&u, "<?xml version=\"1.0\" encoding=\"");
		bstr(&u, sb[i]);
		bstr(&u, "\"?>\n<r>\n");
		text(&u, 40000, 200);
		bstr(&u, "</r>\n");
		marks(&u);
		b.n = 0;
		if (!convert(&b, sb[i], u.p, u.n)) {
			printf("  (kern_mapped: no %s in iconv: not tried)\n",
			    sb[i]);
			continue;
		}
		CHECK(b.n > 2000000);
		snprintf(label, sizeof(label), "marks in %s", sb[i]);
		want_marks = i != 2;
		same(label, &b, 0, i != 1);
		want_marks = 1;
	}
	bfree(&u);
	bfree(&b);
}

/* The file and buffer of a group of tests go. */
static void
done(void)
{
	if (kern_path[0] != '\0')
		unlink(kern_path);
	kern_path[0] = '\0';
	free(in.mem);
	in.mem = NULL;
}

void
kern_mapped(void)
{
	mapped_edges();
	mapped_marks();
	mapped_page_end();
	mapped_forms();
	done();
	simd_init(NULL);
}

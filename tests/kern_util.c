/*
 * The sweeps' shared parts (tests/kern.h): buffers, generators, and the
 * engine driven in process, as src/cli/main.c drives it, at each kernel level.
 */
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all.h"
#include "mojibake.h"
#include "unit.h"
#include "kern.h"
#include "kern_fast.h"

void
bput(struct buf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap < 4096 ? 4096 : b->cap;

		while (b->n + n + 1 > cap)
			cap *= 2;
		if ((b->p = realloc(b->p, cap)) == NULL)
			abort();
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = '\0';
}

void
bstr(struct buf *b, const char *s)
{
	bput(b, s, strlen(s));
}

void
brep(struct buf *b, const char *s, size_t n)
{
	while (n-- > 0)
		bstr(b, s);
}

void
bfmt(struct buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	bput(b, tmp, k < 0 ? 0 : (size_t)k < sizeof(tmp) ? (size_t)k :
	    sizeof(tmp) - 1);
}

void
bfree(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/*
 * UTF-8 into UTF-16BE/LE or UTF-32BE/LE (to), written here rather than
 * asked of iconv: the reference must not be the machine's own converter,
 * which on s390x under qemu-user is glibc's hardware path (CU12, CU14)
 * as the emulator runs it.  Return -1 on bytes that are not UTF-8.
 */
static int
unicode_form(struct buf *b, const char *to, const void *in, size_t n)
{
	const unsigned char *p = in;
	int be = strcmp(to + 6, "BE") == 0, wide = to[4] == '3';
	unsigned char o[4];
	size_t i = 0, k, len;
	unsigned long c, u[2];
	int nu, j;

	if (!be && strcmp(to + 6, "LE") != 0)
		return -1;
	while (i < n) {
		len = p[i] < 0x80 ? 1 : p[i] >= 0xF0 ? 4 : p[i] >= 0xE0 ? 3 :
		    p[i] >= 0xC2 ? 2 : 0;
		if (len == 0 || i + len > n)
			return -1;
		c = len == 1 ? p[i] : p[i] & (0x7F >> len);
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				return -1;
			c = c << 6 | (p[i + k] & 0x3F);
		}
		i += len;
		nu = 1;
		u[0] = c;
		if (!wide && c >= 0x10000) {
			u[0] = 0xD800 | (c - 0x10000) >> 10;
			u[1] = 0xDC00 | (c & 0x3FF);
			nu = 2;
		}
		for (j = 0; j < nu; j++) {
			size_t w = wide ? 4 : 2;

			for (k = 0; k < w; k++)
				o[be ? w - 1 - k : k] =
				    (unsigned char)(u[j] >> (8 * k));
			bput(b, o, w);
		}
	}
	return 0;
}

int
brecode(struct buf *b, const char *to, const void *in, size_t n)
{
	iconv_t cd;
	char out[4096], *ip = (char *)(uintptr_t)in, *op;
	size_t il = n, ol, r;

	if (strncmp(to, "UTF-16", 6) == 0 || strncmp(to, "UTF-32", 6) == 0)
		if (to[6] != '\0')
			return unicode_form(b, to, in, n);
	if ((cd = iconv_open(to, "UTF-8")) == (iconv_t)-1)
		return -1;
	do {
		op = out;
		ol = sizeof(out);
		r = iconv(cd, &ip, &il, &op, &ol);
		bput(b, out, sizeof(out) - ol);
	} while (r == (size_t)-1 && sizeof(out) - ol > 0);
	iconv_close(cd);
	return r == (size_t)-1 ? -1 : 0;
}

void
mktext(struct buf *b, int n)
{
	int i;

	for (i = 1; i <= n; i++)
		bfmt(b, "  <p n=\"%d\">plain ASCII text, then "
		    "\346\227\245\346\234\254\350\252\236 and more</p>\n", i);
}

static unsigned long kx;

void
krand_seed(unsigned long seed)
{
	kx = seed;
}

unsigned
krand(unsigned k)
{
	kx = (kx * 69069 + 1) % 4294967296UL;
	return (unsigned)(kx / 65536) % k;
}

/* One token of mixed(): a character of one to four bytes (the edges of
 * each length among them), or an ASCII word of 1 to 24 bytes. */
void
ktoken(struct buf *b)
{
	static const char *const c[] = {
		"a", "Z", "9", " ", "\t", "\303\251", "\303\237", "\337\277",
		"\346\227\245", "\343\200\202", "\340\240\200", "\355\237\277",
		"\356\200\200", "\357\277\275", "\360\237\230\200",
		"\360\240\200\200", "\360\220\200\200", "\364\217\277\277"
	};
	static const char words[] =
	    "the quick brown fox jumps over the lazy dog";

	if (krand(4) == 0) {
		unsigned at = krand(20), len = 1 + krand(24);

		bput(b, words + at, len);
	} else
		bstr(b, c[krand(NELEM(c))]);
}

void
mixed(struct buf *b, unsigned long seed, int lines, int cr)
{
	int i, n;

	krand_seed(seed);
	for (i = 1; i <= lines; i++) {
		bfmt(b, "<p n=\"%d\" t=\"", i);
		ktoken(b);
		ktoken(b);
		bstr(b, "\">");
		for (n = (int)krand(60); n > 0; n--)
			ktoken(b);
		bstr(b, "</p>");
		if (cr > 0 && krand((unsigned)cr) == 0)
			bstr(b, krand(2) ? "\r\n" : "\r");
		else
			bstr(b, "\n");
	}
}

/* Every diagnostic of dg, as k_analyse lists them. */
static void
put_diags(struct buf *out, const char *enc, struct diags *dg)
{
	struct diter it;
	struct dent e;

	bfmt(out, "%s %d %d %llu\n", enc, dg->errors, dg->warnings,
	    (unsigned long long)dg->unlisted);
	diag_iter(&it, dg);
	while (diag_next(&it, &e))
		bfmt(out, "%s@%llu:%llu:%llu*%llu %s\n", diag_code(e.code),
		    (unsigned long long)e.off, (unsigned long long)e.line,
		    (unsigned long long)e.col, (unsigned long long)e.count,
		    e.msg);
}

/* The head sniffed, as main.c sniffs it (up to HEAD_MAX bytes). */
static void
head(const unsigned char *p, size_t n, const char *ctype, struct sniff *s)
{
	static struct mt mt;
	char err[256];
	const struct mt *m = NULL;

	if (ctype != NULL) {
		if (mt_parse(ctype, &mt, err, sizeof(err)) < 0)
			abort();
		m = &mt;
	}
	memset(s, 0, sizeof(*s));
	sniff(p, n < HEAD_MAX ? n : HEAD_MAX, n <= HEAD_MAX, m, NULL, s);
	s->dg.pol = &unit_pol;
}

void
k_analyse(const unsigned char *p, size_t n, const char *ctype,
    const size_t *cuts, size_t ncuts, int mojfd, struct buf *out)
{
	static struct sniff s;
	static struct moj mj;
	struct val *v;
	size_t off = 0, have, used, i;

	head(p, n, ctype, &s);
	if (s.dec != FORM_NONE && (v = val_new(&s, &s.dg)) != NULL) {
		moj_init(&mj, &s, mojfd, 0);
		for (i = 0; i <= ncuts; i++) {
			have = i < ncuts && cuts[i] < n ? cuts[i] : n;
			if (have < off)
				continue;
			used = val_feed(v, p + off, have - off, have == n);
			moj_feed(&mj, p + off, used);
			off += used;
			if (have == n)
				break;
		}
		moj_end(&mj, &s.dg);
		val_free(v);
		if (off != n)
			bfmt(out, "left over: %zu of %zu\n", n - off, n);
	}
	put_diags(out, s.encname, &s.dg);
	diag_free(&s.dg);
}

int
has(const struct buf *t, const char *s)
{
	return t->p != NULL && strstr((const char *)t->p, s) != NULL;
}

int
nhas(const struct buf *t, const char *s)
{
	const char *b = (const char *)t->p, *q = b, *l, *last = NULL;
	int k = 0;

	while (q != NULL && (q = strstr(q, s)) != NULL) {
		for (l = q; l > b && l[-1] != '\n'; l--)
			continue;
		if (l != last)
			k++;
		last = l;
		q++;
	}
	return k;
}

/* The offsets from step to n by step (at most max of them) into c. */
static size_t
chunks(size_t *c, size_t max, size_t n, size_t step)
{
	size_t k = 0, o;

	for (o = step; o < n && k < max; o += step)
		c[k++] = o;
	return k;
}

/* Say how got differs from want, a line of each. */
static void
show(const char *label, const char *level, const char *how,
    const struct buf *want, const struct buf *got)
{
	size_t i = 0, l = 0;

	while (i < want->n && i < got->n && want->p[i] == got->p[i])
		if (want->p[i++] == '\n')
			l = i;
	printf("  (%s: level %s, %s: differs at byte %zu)\n"
	    "    ref: %.200s\n    got: %.200s\n", label, level, how, i,
	    want->p + l, got->p + l);
}

/* The bytes in a file, for the mojibake scan to read again. */
static int
as_file(const unsigned char *p, size_t n)
{
	FILE *f = tmpfile();
	int fd;

	if (f == NULL || fwrite(p, 1, n, f) != n || fflush(f) != 0)
		abort();
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

/* Whether got is want; if not, say where. */
static int
same(const char *label, const char *level, const char *how,
    const struct buf *want, const struct buf *got)
{
	if (CHECK(got->n == want->n && memcmp(got->p, want->p, got->n) == 0))
		return 1;
	show(label, level, how, want, got);
	return 0;
}

int
k_same(const char *label, const unsigned char *p, size_t n,
    const char *ctype, const size_t *cuts, size_t ncuts, struct buf *ref)
{
	static size_t c[1 << 12];
	struct buf got = { NULL, 0, 0 }, reff = { NULL, 0, 0 };
	size_t nc = chunks(c, NELEM(c), n, 4099);
	int i, ok = 1, fd = as_file(p, n);

	ref->n = 0;
	simd_init("ref");
	k_analyse(p, n, ctype, NULL, 0, -1, ref);
	k_analyse(p, n, ctype, NULL, 0, fd, &reff);
	ok &= same(label, "ref", "a file and a pipe", ref, &reff);
	for (i = 0; i < unit_nlevels; i++) {
		simd_init(unit_levels[i]);
		got.n = 0;
		k_analyse(p, n, ctype, NULL, 0, fd, &got);
		ok &= same(label, unit_levels[i], "whole, a file", &reff, &got);
		got.n = 0;
		k_analyse(p, n, ctype, c, nc, -1, &got);
		ok &= same(label, unit_levels[i], "4099-byte chunks", ref, &got);
		if (ncuts == 0)
			continue;
		got.n = 0;
		k_analyse(p, n, ctype, cuts, ncuts, -1, &got);
		ok &= same(label, unit_levels[i], "the cuts", ref, &got);
	}
	close(fd);
	bfree(&got);
	bfree(&reff);
	simd_init(NULL);
	return ok;
}

/* Run the transcode xl, whose validator is v, over p[0..n). */
static void
xfeed(struct xlate *xl, struct val *v, const unsigned char *p, size_t n,
    const size_t *cuts, size_t ncuts, size_t chunk)
{
	size_t off = 0, have, i;

	for (i = 0; off < n || i == 0; i++) {
		if (i < ncuts)
			have = cuts[i] < n ? cuts[i] : n;
		else
			have = chunk == 0 || n - off <= chunk ? n : off + chunk;
		if (have < off)
			continue;
		off += val_feed(v, p + off, have - off, have == n);
		if (xlate_failed(xl) || have == n)
			break;
	}
}

int
k_xlate(const unsigned char *p, size_t n, const char *target, int ncr,
    const size_t *cuts, size_t ncuts, size_t chunk, struct buf *out,
    struct buf *dg)
{
	static unsigned char mem[IN_PAD + IN_SIZE];
	static struct sniff s;
	struct inbuf ib;
	struct xopts xo;
	struct xlate *xl;
	struct xlout xout;
	struct val *v;
	char err[256], tmp[65536];
	FILE *f;
	int rc, fd, saved;
	ssize_t k;

	if (target_resolve(target, 0, 0, &xo, err, sizeof(err)) < 0) {
		printf("  (%s: %s)\n", target, err);
		return 2;
	}
	xo.fallback = ncr ? FB_NCR : FB_ERROR;
	memset(&ib, 0, sizeof(ib));
	ib.fd = -1;
	ib.mem = mem;
	ib.p = mem + IN_PAD;
	ib.size = -1;
	head(p, n, NULL, &s);
	ib.n = n < HEAD_MAX ? n : HEAD_MAX;
	ib.eof = n <= HEAD_MAX;
	memcpy(ib.p, p, ib.n);
	/* The transcode writes to standard output: a file meanwhile. */
	fflush(stdout);
	if ((f = tmpfile()) == NULL)
		abort();
	fd = fileno(f);
	saved = dup(1);
	dup2(fd, 1);
	if ((rc = xlate_begin("in", &ib, &s, &xo, 0, NULL, 0, &xl, &v,
	    &xout)) == 0 &&
	    xl != NULL) {
		xfeed(xl, v, p, n, cuts, ncuts, chunk);
		rc = xlate_end(xl, &ib, 0);
	}
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	while ((k = read(fd, tmp, sizeof(tmp))) > 0)
		bput(out, tmp, (size_t)k);
	fclose(f);
	put_diags(dg, s.encname, &s.dg);
	diag_free(&s.dg);
	return rc;
}

int
k_xsame(const char *label, const unsigned char *p, size_t n,
    const char *target, int ncr, const size_t *cuts, size_t ncuts,
    struct buf *out, struct buf *dg)
{
	struct buf o = { NULL, 0, 0 }, d = { NULL, 0, 0 };
	struct buf ro = { NULL, 0, 0 }, rd = { NULL, 0, 0 };
	static const char *const how[] = { "whole", "4099-byte chunks",
	    "the cuts" };
	int i, j, rc, ref, wref = 0, ok = 1;

	out->n = dg->n = 0;
	/* A transcode that fails stops where the bytes fed so far show it:
	 * each way of feeding is compared with the reference's own. */
	for (j = 0; j < (ncuts > 0 ? 3 : 2); j++) {
		struct buf *eo = j == 0 ? out : &ro, *ed = j == 0 ? dg : &rd;

		simd_init("ref");
		ro.n = rd.n = 0;
		ref = k_xlate(p, n, target, ncr, j == 2 ? cuts : NULL,
		    j == 2 ? ncuts : 0, j == 1 ? 4099 : 0, eo, ed);
		if (j == 0)
			wref = ref;
		else if (!CHECK(ref == wref && (ref != 0 || (ro.n == out->n &&
		    memcmp(ro.p, out->p, ro.n) == 0 && rd.n == dg->n &&
		    memcmp(rd.p, dg->p, rd.n) == 0))))
			printf("  (%s -> %s: ref, %s: status %d, whole %d, or "
			    "other bytes)\n", label, target, how[j], ref, wref);
		for (i = 1; i < unit_nlevels; i++) {
			simd_init(unit_levels[i]);
			o.n = d.n = 0;
			rc = k_xlate(p, n, target, ncr, j == 2 ? cuts : NULL,
			    j == 2 ? ncuts : 0, j == 1 ? 4099 : 0, &o, &d);
			if (CHECK(rc == ref && d.n == ed->n && memcmp(d.p,
			    ed->p, d.n) == 0 && (rc != 0 || (o.n == eo->n &&
			    memcmp(o.p, eo->p, o.n) == 0))))
				continue;
			printf("  (%s -> %s: status %d, ref %d)\n", label,
			    target, rc, ref);
			show(label, unit_levels[i], how[j], ed, &d);
			if (o.n != eo->n || memcmp(o.p, eo->p, o.n) != 0)
				show(label, unit_levels[i], "output", eo, &o);
			ok = 0;
		}
	}
	bfree(&o);
	bfree(&d);
	bfree(&ro);
	bfree(&rd);
	simd_init(NULL);
	return ok ? wref : -1;
}

void
k_expect(struct buf *b, const char *to, const void *in, size_t n)
{
	struct buf u = { NULL, 0, 0 };
	const char *ord = to;

	if (strcmp(to, "UTF-16") == 0 || strcmp(to, "UTF-32") == 0) {
		ord = to[4] == '1' ? "UTF-16BE" : "UTF-32BE";
		bstr(&u, "\357\273\277");
	}
	bfmt(&u, "<?xml version=\"1.0\" encoding=\"%s\"?>", to);
	bput(&u, in, n);
	if (brecode(b, ord, u.p, u.n) < 0)
		bstr(b, "(iconv failed)");
	bfree(&u);
}

struct dpolicy unit_pol;

/* --all's cap for the engines of the sweeps (0: no --all; asked: the cap
 * is --max-errors's). */
void
unit_keep(size_t keep, int asked)
{
	unit_pol.keep = keep;
	unit_pol.keep_asked = asked;
}

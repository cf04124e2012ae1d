/*
 * --http: a body sent with a content coding (RFC 9110 section 8.4),
 * decoded for the analysis.  gzip and x-gzip (RFC 9110 section 18.6)
 * and deflate (the zlib format of RFC 1950; a bare RFC 1951 stream, which
 * some servers send under that name, is taken too) go through zlib, br
 * (RFC 7932) through libbrotli, each where the build found its header
 * (the Makefile's HAVE_ZLIB and HAVE_BROTLI), loaded with dlopen(3) when
 * a body first needs it (dynload.h): linked, the three objects cost every
 * process about 0.3 ms at its start on the machines of doc/BENCHMARKS.md,
 * and few inputs are coded responses.  The decoded body goes to an
 * unnamed temporary file that is then read as the input is: memory
 * stays constant whatever the body expands to, and a body that does not
 * decode is known before anything of it is reported.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pthread.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_BROTLI
#include <brotli/decode.h>
#endif

#include "coding.h"
#include "sbuf.h"
#if defined(HAVE_ZLIB) || defined(HAVE_BROTLI)
#include "dynload.h"
#endif

#ifdef HAVE_ZLIB
/* zlib's functions, set once by zl_load() (under zl_once), only read
 * after; h is NULL where it did not load. */
static struct {
	void		*h;
	int		(*init2)(z_streamp, int, const char *, int);
	int		(*inflate)(z_streamp, int);
	int		(*reset)(z_streamp);
	int		(*end)(z_streamp);
} zl;
static pthread_once_t zl_once = PTHREAD_ONCE_INIT;

static void
zl_load(void)
{
	static const char *const names[] = { "libz.so.1", "libz.so",
	    "libz.1.dylib", "libz.dylib" };
	const struct dl_sym s[] = {
		{ "inflateInit2_", &zl.init2 }, { "inflate", &zl.inflate },
		{ "inflateReset", &zl.reset }, { "inflateEnd", &zl.end }
	};

	zl.h = dl_load(names, sizeof(names) / sizeof(names[0]), s,
	    sizeof(s) / sizeof(s[0]));
}
#endif

#ifdef HAVE_BROTLI
/* libbrotli's decoder, as zlib's above. */
static struct {
	void		*h;
	BrotliDecoderState *(*make)(brotli_alloc_func, brotli_free_func,
			    void *);
	BrotliDecoderResult (*run)(BrotliDecoderState *, size_t *,
			    const uint8_t **, size_t *, uint8_t **, size_t *);
	BrotliDecoderErrorCode (*code)(const BrotliDecoderState *);
	const char	*(*text)(BrotliDecoderErrorCode);
	void		(*drop)(BrotliDecoderState *);
} br;
static pthread_once_t br_once = PTHREAD_ONCE_INIT;

static void
br_load(void)
{
	static const char *const names[] = { "libbrotlidec.so.1",
	    "libbrotlidec.so", "libbrotlidec.1.dylib", "libbrotlidec.dylib" };
	const struct dl_sym s[] = {
		{ "BrotliDecoderCreateInstance", &br.make },
		{ "BrotliDecoderDecompressStream", &br.run },
		{ "BrotliDecoderGetErrorCode", &br.code },
		{ "BrotliDecoderErrorString", &br.text },
		{ "BrotliDecoderDestroyInstance", &br.drop }
	};

	br.h = dl_load(names, sizeof(names) / sizeof(names[0]), s,
	    sizeof(s) / sizeof(s[0]));
}
#endif

/* Whether the library that decodes c (libbrotli for br, else zlib) is in
 * the build (*built) and loads. */
static int
lib_ok(enum coding c, int *built)
{
	(void)c;
	*built = 0;
#ifdef HAVE_BROTLI
	if (c == CODING_BR) {
		*built = 1;
		if (dl_refused("XMLSNIFF_TEST_CODING"))
			return 0;
		pthread_once(&br_once, br_load);
		return br.h != NULL;
	}
#endif
#ifdef HAVE_ZLIB
	if (c != CODING_BR) {
		*built = 1;
		if (dl_refused("XMLSNIFF_TEST_CODING"))
			return 0;
		pthread_once(&zl_once, zl_load);
		return zl.h != NULL;
	}
#endif
	return 0;
}

/* The coding name (any case), or CODING_NONE for one not decoded here. */
static enum coding
coding_lookup(const char *name)
{
	if (strcasecmp(name, "gzip") == 0 || strcasecmp(name, "x-gzip") == 0)
		return CODING_GZIP;
	if (strcasecmp(name, "deflate") == 0)
		return CODING_DEFLATE;
	if (strcasecmp(name, "br") == 0)
		return CODING_BR;
	return CODING_NONE;
}

/* Whether this build decodes c: 1; else 0, with the library that would
 * (zlib, libbrotli) in *lib and *built saying whether the build has it
 * (it did not load) or not. */
static int
coding_can(enum coding c, const char **lib, int *built)
{
	int ok = lib_ok(c, built);

	*lib = c == CODING_BR ? "libbrotli" : "zlib";
	return ok;
}

/* What this build decodes, for --help: made once, since it loads them. */
static char methods[160];
static pthread_once_t methods_once = PTHREAD_ONCE_INIT;

static void
methods_make(void)
{
	int zb, bb, z = lib_ok(CODING_GZIP, &zb), b = lib_ok(CODING_BR, &bb);
	const char *zw = zb ? "zlib did not load" : "built without zlib";
	const char *bw = bb ? "libbrotli did not load" :
	    "built without libbrotli";

	if (z && b)
		snprintf(methods, sizeof(methods), "gzip and deflate (zlib), "
		    "br (libbrotli)");
	else if (z)
		snprintf(methods, sizeof(methods), "gzip and deflate (zlib); "
		    "not br (%s)", bw);
	else if (b)
		snprintf(methods, sizeof(methods), "br (libbrotli); not gzip "
		    "nor deflate (%s)", zw);
	else if (!zb && !bb)
		snprintf(methods, sizeof(methods), "none (built without zlib "
		    "and libbrotli)");
	else if (zb && bb)
		snprintf(methods, sizeof(methods), "none (zlib and libbrotli "
		    "did not load)");
	else
		snprintf(methods, sizeof(methods), "none (%s; %s)", zw, bw);
}

const char *
coding_methods(void)
{
	pthread_once(&methods_once, methods_make);
	return methods;
}

/* Whether p (n bytes) begins with the two bytes of a zlib stream (RFC
 * 1950 section 2.2: method 8, and a header that is a multiple of 31). */
static int
zlib_head(const unsigned char *p, size_t n)
{
	return n >= 2 && (p[0] & 0x0F) == 8 && (p[0] >> 4) <= 7 &&
	    ((unsigned)p[0] << 8 | p[1]) % 31 == 0;
}

/*
 * Whether the body that begins with p (n bytes) is already plain text
 * though the field names coding c: curl --compressed decodes the body but
 * keeps Content-Encoding in the head it writes.  gzip has its magic
 * number (RFC 1952 section 2.3.1) and deflate the zlib header; br has
 * neither, so a br body is taken as plain where it begins as an XML entity
 * does: a BOM, "<" then "?", "!" or a letter, or "<?" in a 16-bit or
 * EBCDIC layout.
 */
static int
coding_plain(enum coding c, const unsigned char *p, size_t n)
{
	if (c == CODING_GZIP)
		return !(n >= 2 && p[0] == 0x1F && p[1] == 0x8B);
	if (c == CODING_DEFLATE && zlib_head(p, n))
		return 0;
	if (n < 2)
		return n == 0;
	if ((p[0] == 0xEF && p[1] == 0xBB) || (p[0] == 0xFE && p[1] == 0xFF) ||
	    (p[0] == 0xFF && p[1] == 0xFE))
		return 1;
	if (p[0] == '<' && (p[1] == '?' || p[1] == '!' ||
	    ((p[1] | 0x20) >= 'a' && (p[1] | 0x20) <= 'z')))
		return 1;
	return (p[0] == 0 && p[1] == '<') || (p[0] == '<' && p[1] == 0) ||
	    (p[0] == 0x4C && p[1] == 0x6F);
}

/* An unnamed file in TMPDIR (else /tmp); -1 with errno. */
int
coding_tmp(void)
{
	const char *d = getenv("TMPDIR");
	char path[PATH_MAX];
	int fd;

	if (d == NULL || *d == '\0')
		d = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/.xmlsniff-body.XXXXXX",
	    d) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkstemp(path)) >= 0)
		(void)unlink(path);
	return fd;
}

/* Write all of p to fd (the spool of a body, a decoding's output); -1
 * with errno. */
int
coding_write(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Whether coding_body() would decode the body of h that begins with
 * p[0..n) (rather than take it as it is, or leave it unexamined): one
 * coding, which this build decodes, and a body not plain already.
 */
int
coding_needed(const struct http *h, const unsigned char *p, size_t n)
{
	const char *lib;
	enum coding c;
	int built;

	if (h->coding[0] == '\0' || h->ncodings != 1)
		return 0;
	c = coding_lookup(h->coding);
	return c != CODING_NONE && !coding_plain(c, p, n) &&
	    coding_can(c, &lib, &built);
}

#if defined(HAVE_ZLIB) || defined(HAVE_BROTLI)

/* The state of one decoding: where the input is, what went wrong. */
struct dec {
	struct inbuf	*in;
	int		 out;
	unsigned long long at;		/* body bytes taken so far */
	char		*why;
	size_t		 size;
};

/* The next bytes of the body into in (none left: 0), or -1 with why. */
static int
more(struct dec *d)
{
	d->at += d->in->n;
	if (d->in->eof) {
		d->in->p += d->in->n;
		d->in->n = 0;
		return 0;
	}
	if (in_refill(d->in, d->in->n) < 0) {
		snprintf(d->why, d->size, "reading it: %s", ERRTEXT(errno));
		return -1;
	}
	return d->in->n > 0 || !d->in->eof ? 1 : 0;
}

#ifdef HAVE_ZLIB
/* One piece of input through z into d's file; the last inflate() code,
 * or Z_ERRNO when the file could not be written. */
static int
z_piece(struct dec *d, z_stream *z, enum coding c)
{
	unsigned char buf[64 * 1024];
	int rc;

	z->next_in = d->in->p;
	z->avail_in = (uInt)d->in->n;
	for (;;) {
		z->next_out = buf;
		z->avail_out = sizeof(buf);
		rc = zl.inflate(z, Z_NO_FLUSH);
		if (rc == Z_NEED_DICT)
			rc = Z_DATA_ERROR;
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
			return rc;
		if (coding_write(d->out, buf, sizeof(buf) - z->avail_out) < 0)
			return Z_ERRNO;
		/* gzip members may follow one another (RFC 1952
		 * section 2.2). */
		if (rc == Z_STREAM_END && c == CODING_GZIP && z->avail_in > 0)
			rc = zl.reset(z);
		else if (rc == Z_STREAM_END || z->avail_out > 0)
			return rc;
	}
}

/* gzip or deflate through zlib. */
static int
z_decode(struct dec *d, enum coding c)
{
	const char *name = c == CODING_GZIP ? "gzip" : "deflate";
	z_stream z;
	int rc, go = 1;

	memset(&z, 0, sizeof(z));
	/* inflateInit2(), a macro of the header, through the loaded
	 * function it names, with the header's version and size */
	if (zl.init2(&z, c == CODING_GZIP ? 15 + 16 :
	    zlib_head(d->in->p, d->in->n) ? 15 : -15, ZLIB_VERSION,
	    (int)sizeof(z_stream)) != Z_OK) {
		snprintf(d->why, d->size, "out of memory");
		return -1;
	}
	while (go > 0) {
		rc = z_piece(d, &z, c);
		if (rc == Z_ERRNO) {
			snprintf(d->why, d->size, "writing it: %s",
			    ERRTEXT(errno));
			go = -1;
		} else if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
			snprintf(d->why, d->size, "%s, before byte %llu of "
			    "the body", z.msg != NULL ? z.msg : "bad data",
			    d->at + (d->in->n - z.avail_in) + 1);
			go = -1;
		} else if (rc == Z_STREAM_END && z.avail_in > 0) {
			snprintf(d->why, d->size, "bytes follow the end of the "
			    "%s stream, at byte %llu of the body", name,
			    d->at + (d->in->n - z.avail_in) + 1);
			go = -1;
		} else if ((go = more(d)) == 0 && rc != Z_STREAM_END) {
			snprintf(d->why, d->size, "the %s stream is cut short "
			    "at byte %llu", name, d->at);
			go = -1;
		}
	}
	zl.end(&z);
	return go;
}
#endif

#ifdef HAVE_BROTLI
/* br through libbrotli's streaming decoder. */
static int
br_decode(struct dec *d)
{
	unsigned char buf[64 * 1024];
	BrotliDecoderState *st;
	BrotliDecoderResult r = BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT;
	int go = 1;

	if ((st = br.make(NULL, NULL, NULL)) == NULL) {
		snprintf(d->why, d->size, "out of memory");
		return -1;
	}
	while (go > 0) {
		const uint8_t *ip = d->in->p;
		size_t il = d->in->n;

		do {
			uint8_t *op = buf;
			size_t ol = sizeof(buf);

			r = br.run(st, &il, &ip, &ol, &op, NULL);
			if (coding_write(d->out, buf, sizeof(buf) - ol) < 0) {
				snprintf(d->why, d->size, "writing it: %s",
				    ERRTEXT(errno));
				go = -1;
			}
		} while (go > 0 && r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT);
		if (go < 0)
			break;
		if (r == BROTLI_DECODER_RESULT_ERROR) {
			snprintf(d->why, d->size, "%s, before byte %llu of "
			    "the body", br.text(br.code(st)), d->at +
			    (d->in->n - il) + 1);
			go = -1;
		} else if (r == BROTLI_DECODER_RESULT_SUCCESS && il > 0) {
			snprintf(d->why, d->size, "bytes follow the end of the "
			    "br stream, at byte %llu of the body", d->at +
			    (d->in->n - il) + 1);
			go = -1;
		} else if ((go = more(d)) == 0 &&
		    r != BROTLI_DECODER_RESULT_SUCCESS) {
			snprintf(d->why, d->size, "the br stream is cut short "
			    "at byte %llu", d->at);
			go = -1;
		}
	}
	br.drop(st);
	return go;
}
#endif

/*
 * Decode the rest of the body in in, coded with c (which this build
 * decodes), into an unnamed temporary file; return it, rewound, or -1
 * with the reason in why.  in is left at the end of the body.
 */
static int
coding_decode(enum coding c, struct inbuf *in, char *why, size_t size)
{
	struct dec d = { in, -1, 0, why, size };
	int rc = -1;

	if ((d.out = coding_tmp()) < 0) {
		snprintf(why, size, "no temporary file for the decoded body: "
		    "%s", ERRTEXT(errno));
		return -1;
	}
	snprintf(why, size, "not decoded here");
#ifdef HAVE_ZLIB
	if (c == CODING_GZIP || c == CODING_DEFLATE)
		rc = z_decode(&d, c);
#endif
#ifdef HAVE_BROTLI
	if (c == CODING_BR)
		rc = br_decode(&d);
#endif
	if (rc >= 0 && lseek(d.out, 0, SEEK_SET) < 0) {
		snprintf(why, size, "%s", ERRTEXT(errno));
		rc = -1;
	}
	if (rc < 0) {
		close(d.out);
		return -1;
	}
	return d.out;
}
#else
static int
coding_decode(enum coding c, struct inbuf *in, char *why, size_t size)
{
	(void)c;
	(void)in;
	snprintf(why, size, "not decoded here");
	return -1;
}
#endif

/*
 * --http, a body with a content coding (h, the response's head; in holds
 * the start of the body): decoded into a temporary file, which becomes
 * the input in in (*tfd, for the caller to close), or taken as it is
 * where it is plain already (curl --compressed keeps the field); else it
 * is not examined, and h->coding_why says why.  transcode: the input is
 * transcoded (its size is then not trusted).  Return -1 with errno when
 * the decoded body cannot be read.
 */
int
coding_body(struct inbuf *in, struct http *h, int transcode, int *tfd)
{
	char why[160];
	const char *lib;
	enum coding c;
	struct stat st;
	int built;

	*tfd = -1;
	if (h->coding[0] == '\0')
		return 0;
	c = h->ncodings == 1 ? coding_lookup(h->coding) : CODING_NONE;
	if (c != CODING_NONE && coding_plain(c, in->p, in->n)) {
		h->examined = 1;
		return 0;
	}
	if (h->ncodings > 1)
		snprintf(h->coding_why, sizeof(h->coding_why), "one of %d, "
		    "which xmlsniff does not undo together", h->ncodings);
	else if (c == CODING_NONE)
		snprintf(h->coding_why, sizeof(h->coding_why), "which "
		    "xmlsniff does not decode");
	else if (!coding_can(c, &lib, &built))
		snprintf(h->coding_why, sizeof(h->coding_why), built ?
		    "which this xmlsniff cannot decode (%s did not load)" :
		    "which this xmlsniff was built without %s to decode", lib);
	else if ((*tfd = coding_decode(c, in, why, sizeof(why))) < 0)
		snprintf(h->coding_why, sizeof(h->coding_why), "which does "
		    "not decode (%s)", why);
	if (*tfd < 0)
		return 0;
	/* The decoded body is the input from its first byte on. */
	h->examined = 1;
	in->fd = *tfd;
	in->size = fstat(*tfd, &st) == 0 ? (long long)st.st_size : -1;
	in->trust_size = in->size > 0 && !transcode;
	in->n = 0;
	in->got = 0;
	in->p = in->mem + IN_PAD;
	return in_refill(in, 0);
}

/*
 * The one choice of kernels for a process: the instruction set that the
 * fast paths (validation, conversion between the Unicode forms, the search
 * for late declarations) use.  It is made once, by whichever thread first
 * needs a kernel, from the environment variable XMLSNIFF_SIMD (see the man
 * page), and kept in one atomic pointer, as every thread reads it; the unit
 * driver and the fuzz targets, which compare the kernels, choose again
 * with simd_init().  Every kernel gives the same answers; only the speed
 * differs.
 *
 * This is the only file that knows every table of kernels (one per file of
 * src/simd/), and the entry points that the rest of the program calls send
 * each call to the table chosen.  The kernels never call back here.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "testhooks.h"
#include "simd.h"

/* Every table, fastest first; the first this machine runs is the default.
 * ref, the slowest, comes after none, which every machine runs. */
static const struct kernels *const list[] = {
	&kernels_avx512,
	&kernels_avx2,
	&kernels_sse2,
	&kernels_neon,
	&kernels_word,
	&kernels_ref,
};

#define NLIST	(sizeof(list) / sizeof(list[0]))

/* In use; NULL: none chosen yet.  The first call of kernels() chooses,
 * once (choose_once); simd_init() chooses again. */
static _Atomic(const struct kernels *) kern;
static pthread_once_t kern_once = PTHREAD_ONCE_INIT;
/* XMLSNIFF_SIMD named no kernels when the first choice was made. */
static atomic_int kern_bad;

/* XMLSNIFF_SIMD=ref, set with the kernels chosen, in the same one
 * choice, or val_char_only = 1 (the tests and fuzz targets): every path
 * of the decoders a character at a time (testhooks.h).  An atomic, as
 * every thread reads it; -1 until the kernels are chosen. */
atomic_int val_char_only = -1;

/* Whether this machine (and this build) runs the kernels k. */
static int
usable(const struct kernels *k)
{
	return k->usable != NULL && k->usable();
}

/* The fastest kernels this machine has. */
static const struct kernels *
best(void)
{
	size_t i;

	for (i = 0; i < NLIST; i++)
		if (usable(list[i]))
			return list[i];
	return &kernels_word;
}

/* Use the kernels k (ones the machine runs) from now on. */
static void
use(const struct kernels *k)
{
	if (k->init != NULL)
		k->init();
	val_char_only = k->char_only;
	atomic_store_explicit(&kern, k, memory_order_release);
}

/* The kernels named by name (NULL or empty: the fastest this machine
 * has; those it cannot run: the portable ones), or NULL for a name that
 * no table has. */
static const struct kernels *
named(const char *name)
{
	size_t i;

	if (name == NULL || *name == '\0')
		return best();
	for (i = 0; i < NLIST; i++)
		if (strcmp(name, list[i]->name) == 0)
			return usable(list[i]) ? list[i] : &kernels_word;
	return NULL;
}

/* The first choice: XMLSNIFF_SIMD's, else (or where it names none, which
 * simd_status() tells) the fastest. */
static void
choose_once(void)
{
	const struct kernels *k;

	if (atomic_load(&kern) != NULL)
		return;	/* simd_init() chose */
	if ((k = named(getenv("XMLSNIFF_SIMD"))) == NULL) {
		atomic_store(&kern_bad, 1);
		k = best();
	}
	use(k);
}

/* The kernels in use, chosen the first time. */
static inline const struct kernels *
kernels(void)
{
	const struct kernels *k = atomic_load_explicit(&kern,
	    memory_order_acquire);

	if (k != NULL)
		return k;
	pthread_once(&kern_once, choose_once);
	return atomic_load_explicit(&kern, memory_order_acquire);
}

/*
 * Choose the kernels named by name (NULL or empty: the fastest this machine
 * has), for the unit driver and the fuzz targets.  Kernels the machine
 * cannot run mean the portable ones, none.  Return -1, choosing nothing,
 * for a name that no table has.
 */
int
simd_init(const char *name)
{
	const struct kernels *k = named(name);

	if (k == NULL)
		return -1;
	use(k);
	return 0;
}

/* The names XMLSNIFF_SIMD takes, for a message, into buf: "a, b or c". */
const char *
simd_names(char *buf, size_t size)
{
	size_t i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < NLIST && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%s",
		    i == 0 ? "" : i + 1 == NLIST ? " or " : ", ", list[i]->name);
	return buf;
}

/* Whether the kernels in use are the reference's, a character at a time:
 * then the callers' own shortcuts (late.c's whole comments) are left out
 * too, so that the sweeps compare them with the character path. */
int
simd_char_only(void)
{
	return kernels()->char_only;
}

/* Make sure kernels are chosen: XMLSNIFF_SIMD's, or the fastest.  Return
 * the name of those in use; *bad (when not NULL) is whether XMLSNIFF_SIMD
 * named none when the choice was made. */
const char *
simd_ready(int *bad)
{
	const char *name = kernels()->name;

	if (bad != NULL)
		*bad = atomic_load(&kern_bad);
	return name;
}

/* simd_ready(), and -1 with the reason in err when XMLSNIFF_SIMD named no
 * kernels (the fastest run then). */
int
simd_check(char *err, size_t size)
{
	char names[128];
	const char *v;
	int bad;

	(void)simd_ready(&bad);
	if (!bad)
		return 0;
	v = getenv("XMLSNIFF_SIMD");
	snprintf(err, size, "unknown value \"%s\" (%s)", v != NULL ? v : "",
	    simd_names(names, sizeof(names)));
	return -1;
}

/*
 * The prefix of p[0..n) that is plain characters of UTF-8 (word.c says
 * which those are): its length in bytes, on a character boundary, with
 * its line ends and columns added to *lines and *col.
 */
size_t
plain_utf8(const unsigned char *p, size_t n, uint64_t *lines, uint64_t *col)
{
	return kernels()->plain_utf8(p, n, lines, col);
}

/* The same for UTF-16 (be: big-endian). */
size_t
plain_utf16(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	return kernels()->plain_utf16(p, n, be, lines, col);
}

/* The same for UTF-32 (be: big-endian). */
size_t
plain_utf32(const unsigned char *p, size_t n, int be, uint64_t *lines,
    uint64_t *col)
{
	return kernels()->plain_utf32(p, n, be, lines, col);
}

/*
 * The prefix of single-byte text p[0..n) whose bytes are all in the map
 * (plain_sb_map: plain characters, one column each, LF a line end).  CR is
 * left to the caller, which applies its line-end rule; but where the map
 * allows CR (map->cr) a vector kernel may take it, CR and CR LF each one
 * line end (XML 1.0 section 2.11), and stops after a CR it took so that
 * the caller sees the byte after it.  The byte before p is not a CR.
 */
size_t
plain_sb(const unsigned char *p, size_t n, const struct plainmap *map,
    uint64_t *lines, uint64_t *col)
{
	return kernels()->plain_sb(p, n, map, lines, col);
}

/*
 * Convert the plain run p[0..n) (whole characters) from form from to form
 * to (FORM_UTF8, FORM_UTF16BE/LE, FORM_UTF32BE/LE) at o, which has room for
 * conv_room(from, to, n) bytes.  Return the bytes written.
 */
size_t
conv_run(int from, int to, const unsigned char *p, size_t n,
    unsigned char *o)
{
	if (from == to) {
		memcpy(o, p, n);
		return n;
	}
	return kernels()->conv(from, to, p, n, o);
}

/* The index of the first of the nc characters u (UTF-32LE) that is a, b
 * or c; nc if none is. */
size_t
conv_find32(const unsigned char *u, size_t nc, uint32_t a, uint32_t b,
    uint32_t c)
{
	return kernels()->find32(u, nc, a, b, c);
}

/*
 * For late.c: the first offset j >= i of p[0..n) whose byte lt_at on is
 * lt->lt_byte and whose byte a unit after that is lt->q_byte or
 * lt->bang_byte (both before n); n if there is none.  Whether the bytes
 * are whole units is the caller's to check.
 */
size_t
late_find(const struct late *lt, const unsigned char *p, size_t n, size_t i)
{
	return kernels()->late_find(lt, p, n, i);
}

/* For late.c: late_run_walk() (late_run.h) of p[0..n) from the open at i,
 * in units of u bytes (be: big-endian), at the level in use; i at a
 * level without it. */
size_t
late_run(const unsigned char *p, size_t n, size_t i, size_t u, int be)
{
	const struct kernels *k = kernels();

	return k->late_run != NULL ? k->late_run(p, n, i, u, be) : i;
}

/* See struct mojskip (kernels.h): where the pass stopped, a candidate or
 * near the end of p[0..n). */
size_t
moj_skip(const unsigned char *p, size_t n, struct mojskip *k)
{
	return kernels()->moj_skip(p, n, k);
}

/*
 * The "<?" and "<!" of p[0..n) in units of u bytes (1, 2 or 4; be:
 * big-endian) from i on, by find (a level's late_find), into m's list lt
 * after those it holds, and how far it holds them all (lcov, which the
 * caller set for a list that did not fill).
 */
static void
late_marks(size_t (*find)(const struct late *, const unsigned char *,
    size_t, size_t), size_t u, int be, const unsigned char *p, size_t n,
    size_t i, struct marks *m)
{
	struct late lt;
	size_t j;

	memset(&lt, 0, sizeof(lt));
	lt.unit = u == 1 ? UNIT_8 : u == 2 ? (be ? UNIT_16BE : UNIT_16LE) :
	    be ? UNIT_32BE : UNIT_32LE;
	lt.usz = u;
	lt.lt_at = be ? u - 1 : 0;
	lt.lt_byte = '<';
	lt.q_byte = '?';
	lt.bang_byte = '!';
	lt.scan = 1;
	for (; (j = find(&lt, p, n, i)) < n; i = j + 1) {
		if (m->nlt == m->cap) {
			m->lcov = j;
			break;
		}
		m->lt[m->nlt++] = (uint32_t)j;
	}
}

/*
 * marks8() by the two searches in turn, for the levels that have no pass
 * of both at once: the level's own, but at ref, whose mojibake pass
 * passes over nothing, word.c's.  The definition the fused passes are
 * held to.
 */
static void
marks8_two(const struct kernels *kt, const unsigned char *p, size_t n,
    struct marks *m)
{
	size_t (*skip)(const unsigned char *, size_t, struct mojskip *) =
	    kt->char_only ? moj_skip_word : kt->moj_skip;
	struct mojskip k;
	size_t i, j;

	m->nlt = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	late_marks(kt->char_only ? late_find_word : kt->late_find, 1, 0,
	    p, n, 0, m);
	if (m->nomj)
		return;
	memset(&k, 0, sizeof(k));
	k.c1 = 1;
	m->nmj = 0;
	m->mcov = n > 2 ? n - 2 : 0;
	for (i = 0; i + 3 <= n; i = j + 1) {
		j = i + skip(p + i, n - i, &k);
		if (j + 3 > n)
			break;
		if (m->nmj == m->cap) {
			m->mcov = j;
			break;
		}
		m->mj[m->nmj++] = (uint32_t)j;
	}
}

/* marks8() of p[0..n) into m, its mojibake list left empty where nomj
 * (the levels' passes then test for no candidate). */
static void
marks8_pass(const struct kernels *kt, const unsigned char *p, size_t n,
    struct marks *m, int nomj)
{
	m->base = p;
	m->len = n;
	m->lat = m->mat = 0;
	m->usz = m->be = 0;
	m->ksum = 0;
	m->nhd = 0;
	m->nomj = nomj;
	if (kt->marks8 != NULL)
		kt->marks8(p, n, m);
	else
		marks8_two(kt, p, n, m);
	/* (a level's pass may have kept the first nhd as it went) */
	if (m->hard)
		marks_harden(p, n, m, m->nhd);
	if (nomj) {
		m->nmj = 0;
		m->mcov = 0;
	}
}

/* See struct marks (kernels.h). */
void
marks8(const unsigned char *p, size_t n, struct marks *m)
{
	marks8_pass(kernels(), p, n, m, 0);
}

/* See marksw (kernels.h): late_find() and the mojibake pass of the form
 * in turn, each to the end or until its list fills (at ref, whose
 * mojibake passes pass over nothing, the word's, as marks8_two; for
 * UTF-32 each unit asked after moj_skip32, as the scan does); for
 * UTF-16, at a level with a pass of both (marksw16), that pass first,
 * and the two from where it stopped. */
void
marksw(const unsigned char *p, size_t n, size_t u, int be, struct marks *m)
{
	const struct kernels *kt = kernels();
	size_t i = 0, j;
	int lon = 1, mon = 1;

	if (u == 1 && kt->marks8 != NULL) {
		/* bytes: the "<?" and "<!" of marks8's one pass (late_find
		 * called at each cost markup-dense text a third of its
		 * time), those to lex only where m->hard; no mojibake scan */
		marks8_pass(kt, p, n, m, 1);
		m->usz = 1;
		return;
	}
	m->base = p;
	m->len = n;
	m->lat = m->mat = 0;
	m->usz = (int)u;
	m->be = be;
	/* the opens to lex only: of UTF-16 (UTF-32 has no leaps) */
	m->hard = m->hard && u == 2;
	m->ksum = 0;
	m->nhd = 0;
	m->nlt = m->nmj = 0;
	m->lcov = n > 0 ? n - 1 : 0;
	m->mcov = 0;
	if (u == 2 && kt->marksw16 != NULL)
		i = kt->marksw16(p, n, be, m, &lon, &mon);
	if (lon)
		late_marks(kt->char_only ? late_find_word : kt->late_find, u,
		    be, p, n, i, m);
	/* (marksw16 may have kept the first nhd as it went) */
	if (m->hard)
		marks_harden(p, n, m, m->nhd);
	for (; u > 1 && mon; i = j + u) {
		j = i;
		if (i + 2 * u > n)
			;
		else if (u == 2)
			j += kt->char_only ? moj_skipw_word(p + i, n - i, be) :
			    moj_skipw(p + i, n - i, be);
		else
			j = moj_stop32_from(p, j + moj_skip32(p + i, n - i,
			    be), n, be);
		if (j + 2 * u > n || m->nmj == m->cap) {
			m->mcov = j;
			break;
		}
		m->mj[m->nmj++] = (uint32_t)j;
	}
}

/* See moj_skipw (kernels.h): where the pass stopped, a unit that may
 * matter or near the end of p[0..n). */
size_t
moj_skipw(const unsigned char *p, size_t n, int be)
{
	const struct kernels *k = kernels();

	return k->moj_skipw != NULL ? k->moj_skipw(p, n, be) :
	    moj_skipw_word(p, n, be);
}

/* See moj_skip32 (kernels.h); levels with no pass of their own take the
 * word's. */
size_t
moj_skip32(const unsigned char *p, size_t n, int be)
{
	const struct kernels *k = kernels();

	return k->moj_skip32 != NULL ? k->moj_skip32(p, n, be) :
	    moj_skip32_word(p, n, be);
}

/*
 * Error-dense text counted a block at a time (kernels.h), by the level in
 * use where it has such kernels (avx2: dense_avx2.c); elsewhere nothing is
 * taken, and the caller's walk counts it all.
 */
int
dense_have(void)
{
	return kernels()->dense_utf8 != NULL;
}

size_t
dense_utf8(const unsigned char *p, size_t n, int chars, struct dense_tally *t)
{
	const struct kernels *k = kernels();

	return k->dense_utf8 != NULL ? k->dense_utf8(p, n, chars, t) : 0;
}

size_t
dense_utf16(const unsigned char *p, size_t n, int be, int chars,
    struct dense_tally *t)
{
	const struct kernels *k = kernels();

	return k->dense_utf16 != NULL ? k->dense_utf16(p, n, be, chars, t) : 0;
}

size_t
dense_utf32(const unsigned char *p, size_t n, int be, int chars,
    struct dense_tally *t)
{
	const struct kernels *k = kernels();

	return k->dense_utf32 != NULL ? k->dense_utf32(p, n, be, chars, t) : 0;
}

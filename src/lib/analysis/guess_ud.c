/*
 * libuchardet, where the build has it (HAVE_UCHARDET): loaded with
 * dlopen(3) when a guess first needs it, once per process, since linked
 * it would bring the C++ runtime into every run, which doubles the time
 * to start.  Its answer is a name; guess_cand.c maps it to a candidate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_UCHARDET
#include <pthread.h>
#include <uchardet/uchardet.h>

#include "dynload.h"
#endif

#include "guess.h"
#include "guess_int.h"

#ifdef HAVE_UCHARDET
/* The library's functions, set once by ud_load() (under ud_once) and only
 * read after. */
static struct {
	void		 *h;
	uchardet_t	(*make)(void);
	int		(*feed)(uchardet_t, const char *, size_t);
	void		(*end)(uchardet_t);
	const char	*(*charset)(uchardet_t);
	void		(*drop)(uchardet_t);
} ud;
static pthread_once_t ud_once = PTHREAD_ONCE_INIT;

/* Its names: the ELF soname, and Mach-O's. */
static const char *const ud_names[] = {
	"libuchardet.so.0", "libuchardet.so", "libuchardet.0.dylib",
	"libuchardet.dylib"
};

static void
ud_load(void)
{
	const struct dl_sym s[] = {
		{ "uchardet_new", &ud.make },
		{ "uchardet_handle_data", &ud.feed },
		{ "uchardet_data_end", &ud.end },
		{ "uchardet_get_charset", &ud.charset },
		{ "uchardet_delete", &ud.drop }
	};

	ud.h = dl_load(ud_names, sizeof(ud_names) / sizeof(ud_names[0]), s,
	    sizeof(s) / sizeof(s[0]));
}
#endif

/* Whether libuchardet is in the build and loads (and the tests have not
 * left it out, testhooks.h). */
int
gud_loaded(void)
{
#ifdef HAVE_UCHARDET
	if (dl_refused("XMLSNIFF_TEST_UCHARDET"))
		return 0;
	pthread_once(&ud_once, ud_load);
	return ud.h != NULL;
#else
	return 0;
#endif
}

/* libuchardet's answer for p[0..n) into buf (size sz), "" for none (no
 * answer, or not in the build, or not loaded). */
const char *
gud_detect(const unsigned char *p, size_t n, char *buf, size_t sz)
{
	buf[0] = '\0';
#ifdef HAVE_UCHARDET
	if (gud_loaded()) {
		uchardet_t d = ud.make();

		if (d == NULL)
			return buf;
		if (ud.feed(d, (const char *)p, n) == 0) {
			ud.end(d);
			snprintf(buf, sz, "%s", ud.charset(d));
		}
		ud.drop(d);
	}
#else
	(void)p;
	(void)n;
	(void)sz;
#endif
	return buf;
}

/* What ranks the candidates in this build, for --help. */
const char *
guess_method(void)
{
#ifdef HAVE_UCHARDET
	return gud_loaded() ? "the built-in language models and libuchardet" :
	    "the built-in language models (libuchardet did not load)";
#else
	return "the built-in language models (built without libuchardet)";
#endif
}

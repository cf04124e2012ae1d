/*
 * The checker (xmlsniff(3)): one entity fed in pieces, or read from a
 * descriptor, then finished into a result; and the one-call forms.  A
 * checker keeps its buffers and decoders from one entity to the next
 * (xmlsniff_checker_reset).  The one-time choices of the process are
 * made before the first object is (api_ready).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

struct xmlsniff_checker {
	struct run	 r;
	int		 finished;
	int		 fed_fd;	/* read from a descriptor */
};

int
api_ready(void)
{
	int bad;

	(void)simd_ready(&bad);
	return bad;
}

int
xmlsniff_init(char *err, size_t size)
{
	char why[300];

	if (simd_check(why, sizeof(why)) == 0) {
		if (err != NULL && size > 0)
			err[0] = '\0';
		return XMLSNIFF_OK;
	}
	if (err != NULL && size > 0)
		snprintf(err, size, "%s", why);
	return XMLSNIFF_ERR_ARGUMENT;
}

xmlsniff_checker *
xmlsniff_checker_new(const xmlsniff_options *o, const char *name)
{
	xmlsniff_checker *c;

	(void)api_ready();
	if ((c = malloc(sizeof(*c))) == NULL)
		return NULL;
	if (run_init(&c->r, &o->set, name) < 0) {
		free(c);
		return NULL;
	}
	c->finished = 0;
	c->fed_fd = 0;
	return c;
}

int
xmlsniff_checker_reset(xmlsniff_checker *c, const xmlsniff_options *o,
    const char *name)
{
	run_reset(&c->r, &o->set, name);
	c->finished = 0;
	c->fed_fd = 0;
	if (c->r.name == NULL)
		return run_fail(&c->r, XMLSNIFF_ERR_MEMORY, "out of memory");
	return XMLSNIFF_OK;
}

/* A call out of order: XMLSNIFF_ERR_STATE and why, the checker as it
 * was (a failure before stays its failure). */
static int
out_of_order(xmlsniff_checker *c, const char *why)
{
	if (c->r.phase != PH_FAILED)
		snprintf(c->r.msg, sizeof(c->r.msg), "%s", why);
	return XMLSNIFF_ERR_STATE;
}

/* Whether c may take more input; else the status, with its message. */
static int
open_for_input(xmlsniff_checker *c)
{
	if (c->finished)
		return out_of_order(c, "the checker is finished: reset it for "
		    "another entity");
	if (c->r.phase == PH_FAILED)
		return out_of_order(c, "a feed failed before");
	if (c->fed_fd)
		return out_of_order(c, "the checker read a descriptor: finish "
		    "it");
	return XMLSNIFF_OK;
}

int
xmlsniff_checker_feed(xmlsniff_checker *c, const void *p, size_t n)
{
	int rc;

	if ((rc = open_for_input(c)) != XMLSNIFF_OK)
		return rc;
	return run_push(&c->r, p, n);
}

int
xmlsniff_checker_read(xmlsniff_checker *c, int fd, int64_t size)
{
	int rc;

	if ((rc = open_for_input(c)) != XMLSNIFF_OK)
		return rc;
	if (c->r.phase != PH_NEW)
		return out_of_order(c, "the checker was fed already: a "
		    "descriptor is its only input");
	c->fed_fd = 1;
	return run_fd(&c->r, fd, size);
}

int
xmlsniff_checker_finish(xmlsniff_checker *c, xmlsniff_result **res)
{
	int rc;

	*res = NULL;
	if (c->finished)
		return out_of_order(c, "the checker is finished already");
	c->finished = 1;
	if ((rc = run_finish(&c->r)) != XMLSNIFF_OK)
		return rc;
	if ((*res = result_make(&c->r)) == NULL)
		return run_fail(&c->r, XMLSNIFF_ERR_MEMORY, "out of memory");
	return XMLSNIFF_OK;
}

const char *
xmlsniff_checker_error(const xmlsniff_checker *c)
{
	return c->r.msg;
}

void
xmlsniff_checker_free(xmlsniff_checker *c)
{
	if (c == NULL)
		return;
	run_free(&c->r);
	free(c);
}

/* The message of a one-call form into err. */
static int
said(int rc, const char *msg, char *err, size_t size)
{
	if (err != NULL && size > 0)
		str_put(err, size, rc == XMLSNIFF_OK ? "" : msg);
	return rc;
}

/*
 * The checker of a one-call form: the one the options keep, when no
 * other thread has it, reset for this input; else a new one.  The 23-KB
 * checker, its validator and its arrays are then made once for a run of
 * calls, not once a call (bench/lib).  The exchange hands the spare to
 * one thread at a time; the options are otherwise only read.
 */
static xmlsniff_checker *
take_checker(const xmlsniff_options *o, const char *name)
{
	xmlsniff_options *w = (xmlsniff_options *)(uintptr_t)o;
	xmlsniff_checker *c = atomic_exchange(&w->spare, NULL);

	if (c == NULL)
		return xmlsniff_checker_new(o, name);
	if (xmlsniff_checker_reset(c, o, name) != XMLSNIFF_OK) {
		xmlsniff_checker_free(c);
		return NULL;
	}
	return c;
}

/* c, done with: what its input held let go of (a descriptor's mapping,
 * --http's files), then given to the options as their spare when they
 * have none, else freed. */
static void
give_checker(const xmlsniff_options *o, xmlsniff_checker *c)
{
	xmlsniff_options *w = (xmlsniff_options *)(uintptr_t)o;
	xmlsniff_checker *none = NULL;

	run_clear(&c->r);
	if (!atomic_compare_exchange_strong(&w->spare, &none, c))
		xmlsniff_checker_free(c);
}

/* The options' spare checker freed, with them. */
void
api_spare_free(xmlsniff_options *o)
{
	xmlsniff_checker_free(atomic_exchange(&o->spare, NULL));
}

int
xmlsniff_check_buffer(const xmlsniff_options *o, const char *name,
    const void *p, size_t n, xmlsniff_result **res, char *err, size_t size)
{
	xmlsniff_checker *c;
	int rc;

	*res = NULL;
	if ((c = take_checker(o, name)) == NULL)
		return said(XMLSNIFF_ERR_MEMORY, "out of memory", err, size);
	c->finished = 1;
	if ((rc = run_buffer(&c->r, p, n)) == XMLSNIFF_OK &&
	    (*res = result_make(&c->r)) == NULL)
		rc = run_fail(&c->r, XMLSNIFF_ERR_MEMORY, "out of memory");
	said(rc, c->r.msg, err, size);
	give_checker(o, c);
	return rc;
}

int
xmlsniff_check_fd(const xmlsniff_options *o, const char *name, int fd,
    xmlsniff_result **res, char *err, size_t size)
{
	xmlsniff_checker *c;
	int rc;

	*res = NULL;
	if ((c = take_checker(o, name)) == NULL)
		return said(XMLSNIFF_ERR_MEMORY, "out of memory", err, size);
	if ((rc = xmlsniff_checker_read(c, fd, XMLSNIFF_SIZE_ASK)) ==
	    XMLSNIFF_OK)
		rc = xmlsniff_checker_finish(c, res);
	said(rc, c->r.msg, err, size);
	give_checker(o, c);
	return rc;
}

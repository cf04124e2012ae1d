/*
 * The transcoder (xmlsniff(3), --transcode-to): the entity re-encoded
 * with the BOM and declaration RFC 7303 section 3.3 and XML 1.0 section
 * 4.3.3 require (transcode.c), through the caller's writer, read as a
 * checker reads it (run.c) and analysed on the way; and --fix's rewrite,
 * the same with the target a checker's result planned.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "target.h"

struct xmlsniff_transcoder {
	struct run	 r;
	struct settings	 set;		/* the options', for this transcode */
	struct xopts	 xo;
	struct mt	 read_as;	/* --fix: BOM-less UTF-16 read so */
	xmlsniff_write_fn write;
	void		*ctx;
	int		 status;	/* XMLSNIFF_ERR_* once it failed */
	int		 reported;	/* a diagnostic says why */
	int		 finished, fed_fd;
	char		 msg[512];
};

static int	 tfail(xmlsniff_transcoder *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static int
tfail(xmlsniff_transcoder *t, int status, const char *fmt, ...)
{
	va_list ap;

	if (t->status != XMLSNIFF_OK)
		return t->status;	/* the first says why */
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->status = status;
	return status;
}

/*
 * The input's head is sniffed: the transcoder's checks, then the
 * transcode (which calls the writer once as it begins) and the validator
 * that feeds it.  Return 0 to read on, 1 when it is not done.
 */
static int
head(struct run *r)
{
	xmlsniff_transcoder *t = r->hook_ctx;
	char why[400];
	int st;

	if (t->status != XMLSNIFF_OK)
		return 1;
	if (xlate_check(&r->s, t->set.strict, why, sizeof(why)) != 0) {
		tfail(t, XMLSNIFF_ERR_REFUSED, "%s", why);
		return 1;
	}
	if (r->s.dec == FORM_ICONV && r->dc == NULL &&
	    (r->dc = dcaches_new()) == NULL) {
		tfail(t, XMLSNIFF_ERR_MEMORY, "out of memory");
		return 1;
	}
	if ((r->xl = xlate_new(&r->s, &t->xo, t->set.strict,
	    t->write, t->ctx, r->dc, &r->v, &st, why,
	    sizeof(why))) == NULL) {
		tfail(t, st == 3 ? XMLSNIFF_ERR_WRITE : strncmp(why, "out of",
		    6) == 0 ? XMLSNIFF_ERR_MEMORY : XMLSNIFF_ERR_ENCODING, "%s",
		    why);
		return 1;
	}
	run_watch(r);
	return 0;
}

/* A transcoder of the settings set to the target xo (resolved: ok). */
static xmlsniff_transcoder *
tc_make(const struct settings *set, const char *name, xmlsniff_write_fn write,
    void *ctx)
{
	xmlsniff_transcoder *t;

	(void)api_ready();
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->set = *set;
	/* nothing of it is its own: the options keep the strings */
	if (run_init(&t->r, &t->set, name) < 0) {
		free(t);
		return NULL;
	}
	t->r.transcode = 1;
	t->r.head_hook = head;
	t->r.hook_ctx = t;
	t->write = write;
	t->ctx = ctx;
	return t;
}

xmlsniff_transcoder *
xmlsniff_transcoder_new(const xmlsniff_options *o, const char *name,
    const char *target, xmlsniff_write_fn write, void *ctx)
{
	xmlsniff_transcoder *t;
	char err[256];

	if ((t = tc_make(&o->set, name, write, ctx)) == NULL)
		return NULL;
	/* A transcode is neither guessed about nor planned for --fix. */
	t->set.guess = 0;
	t->set.fix = 0;
	if (target == NULL)
		target = o->set.target;
	if (target == NULL)
		tfail(t, XMLSNIFF_ERR_ARGUMENT, "%s", "no target: give one, or "
		    "set the option transcode-to");
	else if (target_resolve(target, o->set.byte_order_le,
	    o->set.utf8_bom, &t->xo, err, sizeof(err)) < 0)
		tfail(t, XMLSNIFF_ERR_ENCODING, "%s", err);
	t->xo.fallback = o->set.fallback;
	return t;
}

xmlsniff_transcoder *
xmlsniff_transcoder_fix(const xmlsniff_options *o,
    const xmlsniff_result *plan, const char *name, xmlsniff_write_fn write,
    void *ctx)
{
	xmlsniff_transcoder *t;
	char ct[64], err[64];

	if ((t = tc_make(&o->set, name, write, ctx)) == NULL)
		return NULL;
	t->set.guess = 0;
	t->set.fix = 0;
	t->set.strict = 0;
	t->set.in_place = 1;
	if (plan->plan == NULL) {
		tfail(t, XMLSNIFF_ERR_ARGUMENT, "%s", "the result plans no "
		    "rewrite (option fix, action would-write)");
		return t;
	}
	t->xo = plan->plan->xo;
	/* BOM-less UTF-16: read as --encoding=UTF-16LE (or BE) would. */
	snprintf(ct, sizeof(ct), "application/xml; charset=%s",
	    plan->plan->read_as);
	if (plan->plan->read_as[0] != '\0' && mt_parse(ct, &t->read_as, err,
	    sizeof(err)) == 0)
		t->r.mt = &t->read_as;
	return t;
}

/* A call out of order: XMLSNIFF_ERR_STATE and why, the transcoder as
 * it was (a failure before stays its failure). */
static int
out_of_order(xmlsniff_transcoder *t, const char *why)
{
	if (t->status == XMLSNIFF_OK)
		snprintf(t->msg, sizeof(t->msg), "%s", why);
	return XMLSNIFF_ERR_STATE;
}

/* Whether t may take more input; else the status. */
static int
open_for_input(xmlsniff_transcoder *t)
{
	if (t->finished)
		return out_of_order(t, "the transcoder is finished");
	if (t->fed_fd)
		return out_of_order(t, "the transcoder read a descriptor: "
		    "finish it");
	return t->status;
}

/* After input: the status a failed transcode or run has come to. */
static int
progress(xmlsniff_transcoder *t, int rc)
{
	if (rc != XMLSNIFF_OK)
		return tfail(t, rc, "%s", t->r.msg);
	if (t->r.xl != NULL && xlate_failed(t->r.xl))
		return xlate_status(t->r.xl) == 2 ? tfail(t, XMLSNIFF_ERR_WRITE,
		    "%s", "the writer failed") : XMLSNIFF_ERR_REFUSED;
	return t->status;
}

int
xmlsniff_transcoder_feed(xmlsniff_transcoder *t, const void *p, size_t n)
{
	int rc;

	if ((rc = open_for_input(t)) != XMLSNIFF_OK)
		return rc;
	return progress(t, run_push(&t->r, p, n));
}

int
xmlsniff_transcoder_read(xmlsniff_transcoder *t, int fd, int64_t size)
{
	int rc;

	if ((rc = open_for_input(t)) != XMLSNIFF_OK)
		return rc;
	if (t->r.phase != PH_NEW)
		return out_of_order(t, "the transcoder was fed already: a "
		    "descriptor is its only input");
	t->fed_fd = 1;
	return progress(t, run_fd(&t->r, fd, size));
}

/* The transcode's end: what is left written, and why it failed. */
static void
tc_end(xmlsniff_transcoder *t)
{
	struct run *r = &t->r;
	struct sniff *s = &r->s;
	char why[400];
	int rc;

	if (r->xl == NULL)
		return;
	rc = xlate_end(r->xl, r->read_errno != 0, why, sizeof(why));
	if (rc == 2 && r->read_errno != 0)
		tfail(t, XMLSNIFF_ERR_READ, "%s", ERRTEXT(r->read_errno));
	else if (rc == 2)
		tfail(t, XMLSNIFF_ERR_WRITE, "%s", "the writer failed");
	else if (rc == 1 && why[0] != '\0')
		tfail(t, XMLSNIFF_ERR_REFUSED, "%s", why);
	else if (rc == 1) {
		/* A diagnostic says it (xmlsniff(1), --in-place). */
		t->reported = 1;
		tfail(t, XMLSNIFF_ERR_REFUSED, "%s",
		    s->dg.d[D_UNREPRESENTABLE].count > 0 ?
		    s->dg.d[D_UNREPRESENTABLE].msg : "the input has illegal "
		    "bytes; nothing is guessed");
	}
}

int
xmlsniff_transcoder_finish(xmlsniff_transcoder *t, xmlsniff_result **res)
{
	struct run *r = &t->r;
	int rc;

	*res = NULL;
	if (t->finished)
		return out_of_order(t, "the transcoder is finished already");
	t->finished = 1;
	if (t->status == XMLSNIFF_ERR_ARGUMENT ||
	    t->status == XMLSNIFF_ERR_ENCODING)
		return t->status;
	if ((rc = run_finish(r)) != XMLSNIFF_OK && r->phase == PH_FAILED &&
	    !r->ended)
		return tfail(t, rc, "%s", r->msg);
	tc_end(t);
	if (t->set.browser && !r->unexamined)
		browser_end(&r->br, &r->s);
	if ((*res = result_make(r)) == NULL)
		return tfail(t, XMLSNIFF_ERR_MEMORY, "out of memory");
	return t->status;
}

const char *
xmlsniff_transcoder_error(const xmlsniff_transcoder *t)
{
	return t->msg;
}

int
xmlsniff_transcoder_reported(const xmlsniff_transcoder *t)
{
	return t->reported;
}

void
xmlsniff_transcoder_free(xmlsniff_transcoder *t)
{
	if (t == NULL)
		return;
	xlate_free(t->r.xl);
	t->r.xl = NULL;
	t->r.v = NULL;	/* the transcode's */
	run_free(&t->r);
	free(t);
}

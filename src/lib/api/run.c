/*
 * The analysis of one input (what xmlsniff(1) does for each FILE): the
 * head is sniffed under the input's policy; the whole entity then goes
 * once through the validator, and beside it the browser's view, the
 * excerpts, the block a guess is made from and the mojibake scan; at the
 * end, the guess and, with --fix, the plan of the repair.  A checker
 * pushes the bytes it is fed, a piece at a time as reads would give them
 * (so that any split gives the one result), or hands a buffer over in
 * place; a descriptor is read here, a big regular file mapped and
 * searched ahead, and read again for positions, excerpts and guesses.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "coding.h"

int
run_fail(struct run *r, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->status = status;
	r->phase = PH_FAILED;
	return status;
}

/* errno's text, as the command line gives it for an unreadable input. */
int
run_fail_errno(struct run *r, int e)
{
	char buf[256];

	if (strerror_r(e, buf, sizeof(buf)) != 0)
		snprintf(buf, sizeof(buf), "error %d", e);
	return run_fail(r, XMLSNIFF_ERR_READ, "%s", buf);
}

/* The name of the input for messages, and for the role and sections. */
static void
set_name(struct run *r, const char *name)
{
	const char *src = name != NULL ? name : "-";
	char *old = r->name != r->namebuf ? (char *)r->name : NULL;
	size_t len = strlen(src);

	/* A name that fits is kept in the run: no allocation a call. */
	if (len < sizeof(r->namebuf)) {
		memmove(r->namebuf, src, len + 1);
		r->name = r->namebuf;
	} else
		r->name = strdup(src);
	free(old);
	r->rname = r->name != NULL && strcmp(r->name, "-") != 0 ? r->name :
	    NULL;
}

/*
 * r empty for an input under set: all zero bytes but for its sniff,
 * cleared as sniff_clear does (most of its size is messages not yet
 * written), and the members after it: the guess and the mojibake scan,
 * which guess_input and moj_init set whole before anything reads them,
 * are not cleared; --http's head (which http_parse clears again), the
 * browser's view (browser_begin) and the plan of --fix (fix_plan) are
 * cleared whole only with their options, and without them only what
 * reads them looks at.
 */
static void
run_zero(struct run *r, const struct settings *set)
{
	size_t after = offsetof(struct run, s) + sizeof(r->s);

	mem_zero(r, offsetof(struct run, s));
	sniff_clear(&r->s);
	mem_zero((char *)r + after, offsetof(struct run, hr) - after);
	if (set->http)
		mem_zero(&r->hr, sizeof(r->hr));
	if (set->browser)
		mem_zero(&r->br, sizeof(r->br));
	r->br.enc = NULL;
	r->br.xcd = r->br.bcd = NULL;
	if (set->fix)
		mem_zero(&r->fix, sizeof(r->fix));
	r->fix.action = NULL;
	r->fix.why[0] = '\0';
	r->fix.nchanges = 0;
	r->msg[0] = '\0';
}

int
run_init(struct run *r, const struct settings *set, const char *name)
{
	run_zero(r, set);
	r->set = set;
	r->fd = r->tfd = r->spool = -1;
	r->in.fd = -1;
	set_name(r, name);
	return r->name != NULL ? 0 : -1;
}

/* The validator closed and kept for the next input (one at most). */
static void
run_keep_val(struct run *r)
{
	if (r->v == NULL)
		return;
	val_close(r->v);
	if (r->vkeep == NULL)
		r->vkeep = r->v;
	else
		val_free(r->v);
	r->v = NULL;
}

/* Let go of what the input held (the decoders and buffers stay). */
void
run_clear(struct run *r)
{
	run_keep_val(r);
	pre_end(r->pre);
	r->pre = NULL;
	(void)in_ahead_end(&r->in);
	if (r->in.mapped)
		(void)in_map_end(&r->in);
	(void)in_view_end(&r->in);
	if (r->tfd >= 0)
		close(r->tfd);
	if (r->spool >= 0)
		close(r->spool);
	r->tfd = r->spool = -1;
	browser_free(&r->br);
	diag_free(&r->s.dg);
}

/* Ready for another input, with the settings set. */
void
run_reset(struct run *r, const struct settings *set, const char *name)
{
	unsigned char *mem = r->in.mem;
	struct excerpt_src *exc = r->exc;
	struct layer *mark = r->mark;
	struct dcaches *dc = r->dc;
	struct val *vkeep = r->vkeep;
	struct gkeep gk = r->gk;
	const char *n = r->name;

	run_clear(r);
	run_zero(r, set);
	r->set = set;
	r->fd = r->tfd = r->spool = -1;
	r->in.fd = -1;
	r->in.mem = mem;
	r->exc = exc;
	r->mark = mark;
	r->dc = dc;
	r->vkeep = vkeep;
	r->gk = gk;
	r->name = n;
	set_name(r, name);
}

void
run_free(struct run *r)
{
	run_clear(r);
	free(r->in.mem);
	if (r->exc != NULL)
		excerpt_free(r->exc);
	free(r->exc);
	free(r->mark);
	dcaches_free(r->dc);
	val_free(r->vkeep);
	guess_keep_free(&r->gk);
	if (r->name != r->namebuf)
		free((char *)r->name);
}

/* Where the entity starts in a file read again: -1 when it cannot be. */
static long long
entity_start(const struct run *r)
{
	return r->in.size >= 0 ? (long long)r->head_len : -1;
}

/* The input's policy: the configuration's layer, its own marker, the
 * options' --ignore, --error, --allow-encoding (marker.c). */
static int
policy(struct run *r)
{
	const struct settings *set = r->set;
	char why[300];

	memset(&r->pol, 0, sizeof(r->pol));
	r->pol.keep = set->keep;
	r->pol.keep_asked = set->keep_asked;
	layer_lay(&r->pol, &set->base);
	if (set->marker) {
		switch (marker_read(&r->mark, r->in.p, r->in.n, why,
		    sizeof(why))) {
		case -2:
			return run_fail(r, XMLSNIFF_ERR_MEMORY, "%s",
			    ERRTEXT(ENOMEM));
		case -1:
			return run_fail(r, XMLSNIFF_ERR_MARKER, "%s", why);
		}
		if (r->mark != NULL)
			layer_lay(&r->pol, r->mark);
	}
	layer_lay(&r->pol, &set->top);
	return 0;
}

/* Sniff the head in r->in under the input's policy. */
static void
sniff_head(struct run *r)
{
	const struct settings *set = r->set;
	const struct inbuf *b = &r->in;
	struct sset ss;

	ss.mt = set->has_mt ? &set->mt : NULL;
	if (set->http)	/* the response's own, never --content-type */
		ss.mt = r->hr.has_mt ? &r->hr.mt : NULL;
	if (r->mt != NULL)	/* --fix: BOM-less UTF-16, read as such */
		ss.mt = r->mt;
	ss.dflt = set->has_dflt ? &set->dflt : NULL;
	ss.pol = &r->pol;
	diag_free(&r->s.dg);
	sniff_set(b->p, b->n < HEAD_MAX ? b->n : HEAD_MAX, b->n <= HEAD_MAX &&
	    b->eof, &ss, r->rname, &r->s);
	r->s.fix = NULL;
	if (!set->http)
		return;
	/* A compressed body is not the entity: nothing of it is told. */
	if (r->hr.coding[0] != '\0' && !r->hr.examined) {
		memset(&r->s.dg, 0, sizeof(r->s.dg));
		r->s.dg.pol = &r->pol;
		r->s.have_enc = 0;
		r->s.source = SRC_NONE;
	}
	http_note(&r->hr, &r->s.dg);
	r->s.http = &r->hr;
}

/* The bytes r may read again for excerpts: a regular file that nothing
 * rewrites (--fix rewrites it) and whose offsets are the entity's. */
static int
rereadable(const struct run *r)
{
	return r->in.size >= 0 && !r->set->fix && !r->set->in_place &&
	    !r->set->http;
}

/*
 * The head of the entity is in r->in: its policy, its sniff, and what
 * watches the bytes as they go through the validator.  Return 0, or the
 * status it failed with.  With nothing to read on (the entity cannot be
 * decoded, or is a coded body not examined), r->phase is PH_SKIP.
 */
int
run_begin(struct run *r)
{
	const struct settings *set = r->set;
	struct inbuf *in = &r->in;

	if (policy(r) != 0)
		return r->status;
	sniff_head(r);
	if (set->excerpt) {
		if (r->exc == NULL && (r->exc = calloc(1, sizeof(*r->exc))) ==
		    NULL)
			return run_fail(r, XMLSNIFF_ERR_MEMORY, "%s",
			    ERRTEXT(ENOMEM));
		excerpt_begin(r->exc, 1, &r->s, rereadable(r) ? r->fd : -1,
		    in->size);
	}
	if (policy_active(r->s.dg.pol))
		policy_check(&r->s);
	r->phase = PH_BODY;
	/* --http, a compressed body: neither checked nor transcoded. */
	if (set->http && r->hr.coding[0] != '\0' && !r->hr.examined) {
		r->unexamined = 1;
		r->phase = PH_SKIP;
		return 0;
	}
	if (set->browser)
		browser_begin(&r->br, &r->s);
	if (r->exc != NULL)
		excerpt_capture(r->exc, in->p, in->n, 0, in->eof);
	if (r->transcode)
		return 0;	/* the transcoder makes its validator */
	guess_reset(&r->gk);
	if (r->s.dec == FORM_ICONV && r->dc == NULL &&
	    (r->dc = dcaches_new()) == NULL)
		return run_fail(r, XMLSNIFF_ERR_MEMORY, "%s", ERRTEXT(ENOMEM));
	r->v = val_open_in(r->vkeep, &r->s, &r->s.dg, r->dc);
	r->vkeep = NULL;
	if (r->v == NULL) {
		if (set->browser)
			browser_feed(&r->br, in->p, in->n);
		r->phase = PH_SKIP;
		return 0;
	}
	run_watch(r);
	return 0;
}

/* The mojibake scan, beside the validator r->v: a regular file is read
 * again for the position of a hit; other inputs count lines as they go. */
void
run_watch(struct run *r)
{
	long long at = entity_start(r);

	moj_init(&r->mj, &r->s, at >= 0 ? r->fd : -1, at >= 0 ?
	    (uint64_t)at : 0);
	/* A buffer handed over in place is there to read again, as a
	 * regular file is (--http's entity starts after the head); so is
	 * an entity pushed or piped whole into the one piece, from its
	 * first byte to its end (a document fed at once and finished), for
	 * as long as the scan runs: that piece. */
	if (r->mode == RM_BUFFER && !r->set->http)
		moj_memory(&r->mj, r->buf, r->buflen);
	else if (at < 0 && !r->set->http && r->in.eof && r->in.got >= 0 &&
	    (unsigned long long)r->in.got == r->in.n)
		moj_memory(&r->mj, r->in.p, r->in.n);
	/* Its candidates from the validator's one pass over each piece. */
	moj_marks(&r->mj, val_marks(r->v));
}

/*
 * Whether a big regular file of r is read ahead by a second thread
 * (input.c): where the settings ask for it and it is not mapped instead
 * (--mmap; run_map).  The thread starts with the first piece (run_fd).
 */
int
run_reads_ahead(const struct run *r)
{
	return r->set->lookahead && !r->set->http && !r->set->mmap;
}

/*
 * Past the head: a big regular file read ahead by a second thread has it
 * search the pieces for the validator's marks from here on.  Under
 * --mmap it is mapped, and, where the settings ask for it, searched
 * ahead in the mapping (pre.c), or, where it could not be mapped, read
 * ahead from here on as run_fd would have.
 */
void
run_map(struct run *r)
{
	struct inbuf *in = &r->in;
	const unsigned char *m;
	long long at = entity_start(r);
	int mark = r->v != NULL ? val_ahead_marks(r->v, at >= 0 ? at : 0) :
	    AHM_NONE;
	size_t len;

	if (in_ahead_mark(in, mark))
		return;
	in_map_begin(in);
	if (!r->set->lookahead || r->set->http)
		return;
	if ((m = in_map(in, &len)) == NULL) {
		in_ahead_begin(in, mark);
		return;
	}
	r->pre = pre_begin(m, len, (uint64_t)(in->got - (long long)in->n),
	    at >= 0 ? (uint64_t)at : 0, &r->s, val_sbmap(r->v));
	if (r->pre != NULL)
		val_set_finder(r->v, pre_late_find, r->pre);
	r->mj.pre = r->pre;
}

/*
 * One piece of the entity, in r->in, through the validator (and with it
 * a transcode's sink) and what watches it.  Return the bytes it used;
 * r->phase is PH_DONE after the last piece, or a failed transcode.
 */
size_t
run_piece(struct run *r)
{
	struct inbuf *in = &r->in;
	size_t used = val_feed_in(r->v, in);

	if (r->set->browser)
		browser_feed(&r->br, in->p, in->eof ? in->n : used);
	/* --excerpt: the bytes of a pipe while they are here. */
	if (r->exc != NULL)
		excerpt_capture(r->exc, in->p, in->n, (uint64_t)in->got -
		    in->n - r->head_len, in->eof);
	/* A pipe: the block where a problem shows, for the guess (analysis
	 * only). */
	if (r->xl == NULL && in->size < 0)
		guess_keep(&r->gk, in, r->head_len, &r->s.dg);
	/* The same bytes, once each, for the mojibake warning. */
	moj_feed(&r->mj, in->p, used);
	if ((r->xl != NULL && xlate_failed(r->xl)) || in->eof) {
		moj_end(&r->mj, &r->s.dg);
		r->phase = PH_DONE;
	}
	return used;
}

/*
 * The end of the input, which was read (read_errno: the errno of a read
 * that failed, else 0): the search ahead and the mapping go; the
 * browser's difference, the guess and the plan of --fix are made.
 */
int
run_end(struct run *r, int read_errno)
{
	const struct settings *set = r->set;
	struct inbuf *in = &r->in;
	int e = read_errno;

	pre_end(r->pre);
	r->pre = NULL;
	r->mj.pre = NULL;
	if (r->v != NULL)
		val_set_finder(r->v, NULL, NULL);
	if (in_map_end(in) < 0 && e == 0)
		e = errno != 0 ? errno : EIO;
	if (in_ahead_end(in) < 0 && e == 0)
		e = errno != 0 ? errno : EIO;
	r->ended = 1;
	if (r->transcode) {
		/* the transcoder ends it (transcoder.c) */
		r->read_errno = e;
		return 0;
	}
	run_keep_val(r);
	if (e != 0) {
		if (in->shrunk)
			return run_fail(r, XMLSNIFF_ERR_READ, "%s",
			    "the file shrank while it was read");
		return run_fail_errno(r, e);
	}
	r->phase = PH_DONE;
	if (r->unexamined)
		return 0;
	if (set->browser)
		browser_end(&r->br, &r->s);
	/* The encoding it is really in, when the bytes refute the one
	 * found (only then: this reads a file again). */
	if (set->guess)
		r->s.guess = guess_input(&r->gk, r->name, in, entity_start(r),
		    set->http, &r->s, &r->guess);
	if (set->fix)
		run_plan(r);
	return 0;
}

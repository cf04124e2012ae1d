/*
 * Which candidate to name (issue 26).  Every candidate that reads the
 * bytes cleanly is scored by the language models (guess_model.c) on the
 * text it gives; a multi-byte reading must also look like text of its
 * script, not like Latin letters cut into ideographs.  The best reading
 * is named if it leads every reading that gives another text by a clear
 * margin.  Where it does not, libuchardet (where the build has it and it
 * loads) decides between the readings within that margin: its answer is
 * taken if it is one of them.  Nothing otherwise: no answer is better
 * than a wrong one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "guess.h"
#include "guess_int.h"

#define NCMAX	64

/*
 * The lead, in hundredths of a nat of log likelihood, that the best
 * reading must have over the next that gives another text: a likelihood
 * ratio of e^6, some 400 to one, so that a letter or two that fit
 * another language better do not decide.
 */
#define MARGIN		600
/* A reading with fewer characters past ASCII than this is too little to
 * rank; one with two (a multi-byte reading of four bytes) is ranked, so
 * that it can make the margin of a short text's best too thin. */
#define READ_MIN	2
/* A multi-byte reading whose ideographs sit between ASCII letters this
 * often (in hundredths) is Latin text cut into pairs of bytes. */
#define GLUED_MAX	5

struct gread {
	int		 ok;
	uint64_t	 hash;
	uint64_t	 nchars;
	int64_t		 score;
	int		 lm;
};

struct gwork {
	struct gtext	 t;
	struct gbytes	 gb;
	struct gread	 r[NCMAX];
	size_t		 nc;
};

/* Which models read candidate c's text: a multi-byte encoding's (1), a
 * single-byte one's (0), or both (2, UTF-8). */
static int
models_of(const struct gcand *c)
{
	if (strcasecmp(c->iconv, "UTF-8") == 0)
		return 2;
	return c->kind == GK_ICONV && strcasecmp(c->iconv, "WINDOWS-1258") !=
	    0;
}

static void
score_one(struct gwork *w, size_t i, const unsigned char *p, size_t n)
{
	const struct gcand *c = gcand_at(i);
	struct gread *r = &w->r[i];
	struct gscore sc, sc2;
	uint64_t ascii = 0;
	int which;

	memset(r, 0, sizeof(*r));
	r->lm = -1;
	if (c == NULL || c->kind == GK_WIDE)
		return;
	if (c->kind == GK_TABLE) {
		if (gread_table(&w->gb, gcand_table(i), p, n, &w->t,
		    &r->hash) < 0)
			return;
	} else if (gread_iconv(c->iconv, p, n, &w->t, &r->hash,
	    &ascii) < 0)
		return;
	r->nchars = w->t.nchars;
	if (r->nchars == 0)
		return;
	which = models_of(c);
	/* Script: ideographs glued into ASCII words are no CJK text. */
	if (which == 1 && w->t.glued * 100 > r->nchars * GLUED_MAX)
		return;
	gmodel_score(&w->t, which == 1, &sc);
	if (which == 2) {
		gmodel_score(&w->t, 1, &sc2);
		if (sc2.lm >= 0 && sc2.score > sc.score)
			sc = sc2;
	}
	if (sc.lm < 0)
		return;
	r->ok = 1;
	r->score = sc.score;
	r->lm = sc.lm;
}

/*
 * Of the candidates that read the text as i does, the one to name: the
 * superset of the label where the label falls short, else one of the
 * label's family, else the preferred, else the first.  Romanian text is
 * the exception among the preferred: ISO-8859-2 and windows-1250 read
 * the bytes of its s and t with a comma below as those with a cedilla,
 * which the models take for the same letters; ISO-8859-16, made for it,
 * reads them as written today.  *alt gets the one named without the
 * label, where the label changed the choice, else -1.
 */
static int
name_of(const struct gwork *w, int i, const struct sniff *s, int *alt)
{
	int label = s->have_enc ? gcand_of_name(s->enc.name) : -1;
	int best = -1, plain = -1, rank, brank = 9, prank = 9, ro;
	size_t k;

	ro = w->r[i].lm >= 0 &&
	    strcmp(gmodel_at((size_t)w->r[i].lm)->lang, "ro") == 0;
	for (k = 0; k < w->nc; k++) {
		const struct gcand *c = gcand_at(k);

		if (!w->r[k].ok || w->r[k].hash != w->r[i].hash)
			continue;
		rank = (ro && strcmp(c->name, "ISO-8859-16") == 0) || c->pref ?
		    3 : 4;
		if (rank < prank) {
			prank = rank;
			plain = (int)k;
		}
		if (label >= 0 && c->sub != NULL &&
		    strcmp(c->sub, gcand_at((size_t)label)->name) == 0)
			rank = 0;
		else if (label >= 0 && c->family == gcand_at((size_t)label)->
		    family)
			rank = rank == 3 ? 1 : 2;
		if (rank < brank) {
			brank = rank;
			best = (int)k;
		}
	}
	*alt = plain != best ? plain : -1;
	return best;
}

/* libuchardet's pick, where it reads the text cleanly and within the
 * margin of the best: its candidate, or -1. */
static int
ud_pick(struct gwork *w, const unsigned char *p, size_t n, int best)
{
	char det[64];
	int k;

	if (gud_detect(p, n, det, sizeof(det))[0] == '\0' ||
	    (k = gcand_of_name(det)) < 0 || !w->r[k].ok)
		return -1;
	if (w->r[k].score <= w->r[best].score - MARGIN)
		return -1;
	/* Within the margin the models may be unsure of the table, not of
	 * the script: libuchardet naming another (Greek for a little
	 * Russian) is no answer. */
	if (gmodel_at((size_t)w->r[k].lm)->script !=
	    gmodel_at((size_t)w->r[best].lm)->script)
		return -1;
	return k;
}

/*
 * The candidate to name for p[0..n) (not UTF-16 or UTF-32), read as s;
 * -1 for none.  *alt as name_of() has it.
 */
int
guess_choose(const unsigned char *p, size_t n, const struct sniff *s,
    int *alt)
{
	struct gwork *w;
	unsigned char *q = NULL;
	int best = -1, second = -1, pick = -1;
	size_t i, m;

	*alt = -1;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return -1;
	w->nc = gcand_count() < NCMAX ? gcand_count() : NCMAX;
	/* Each line once: the repeated weigh no more than the rest. */
	if ((q = glines_once(p, n, &m)) == NULL ||
	    gbytes_init(&w->gb, q, m) < 0 || gtext_init(&w->t, 256) < 0)
		goto out;
	memcpy(w->t.wl, w->gb.wl, sizeof(w->t.wl));
	for (i = 0; i < w->nc; i++) {
		score_one(w, i, q, m);
		if (w->r[i].ok && w->r[i].nchars >= READ_MIN &&
		    (best < 0 || w->r[i].score > w->r[best].score))
			best = (int)i;
	}
	if (best < 0)
		goto out;
	for (i = 0; i < w->nc; i++)
		if (w->r[i].ok && w->r[i].nchars >= READ_MIN &&
		    w->r[i].hash != w->r[best].hash &&
		    (second < 0 || w->r[i].score > w->r[second].score))
			second = (int)i;
	if (second < 0 || w->r[best].score >= w->r[second].score + MARGIN)
		pick = best;
	else
		pick = ud_pick(w, q, m, best);
	if (pick >= 0)
		pick = name_of(w, pick, s, alt);
out:
	gbytes_free(&w->gb);
	gtext_free(&w->t);
	free(w);
	free(q);
	return pick;
}

/*
 * The score of a reading of the bytes: how likely the text it gives is,
 * in the language whose model it fits best.  A model (guess_lm.h, counted
 * on real text in each language by tools/gen-guessmodel.py) gives each
 * character past ASCII a log probability, its chances to follow and to
 * precede an ASCII letter, another letter or anything else, and those of
 * upper case after lower case; a character it does not list gets its
 * script's share of what the unlisted have, so that letters of another
 * script (Thai letters where Arabic was meant) and symbols in the middle
 * of words cost much.  The sum over the text is its log likelihood, in
 * hundredths of a nat: readings of the same bytes compare by it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guess_int.h"
#include "guess_lm.h"

#define NMODELS	(sizeof(lm_models) / sizeof(lm_models[0]))

size_t
gmodel_count(void)
{
	return NMODELS;
}

/* The digest of the classes the models were counted with. */
uint64_t
gmodel_digest(void)
{
	return LM_CLASS_DIGEST;
}

const struct lm *
gmodel_at(size_t i)
{
	return i < NMODELS ? &lm_models[i] : NULL;
}

/* --- What a reading holds ------------------------------------------------ */

int
gtext_init(struct gtext *t, size_t cap)
{
	memset(t, 0, sizeof(*t));
	if (cap < 64)
		cap = 64;
	for (t->nslot = 128; t->nslot < cap * 2; t->nslot *= 2)
		continue;
	t->cap = cap;
	t->rec = malloc(cap * sizeof(*t->rec));
	t->slot = calloc(t->nslot, sizeof(*t->slot));
	if (t->rec == NULL || t->slot == NULL) {
		gtext_free(t);
		return -1;
	}
	return 0;
}

void
gtext_free(struct gtext *t)
{
	free(t->rec);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

void
gtext_clear(struct gtext *t)
{
	memset(t->slot, 0, t->nslot * sizeof(*t->slot));
	t->nrec = 0;
	t->nchars = t->glued = t->ascii_eaten = 0;
}

static size_t
slot_of(uint32_t c, size_t nslot)
{
	return (size_t)((c * 2654435761u) >> 7) & (nslot - 1);
}

/* Room for one more record: the records and the hash doubled. */
static int
grow(struct gtext *t)
{
	struct grec *r;
	uint32_t *s;
	size_t i, j, ns = t->nslot * 2;

	if ((r = realloc(t->rec, t->cap * 2 * sizeof(*r))) == NULL)
		return -1;
	t->rec = r;
	t->cap *= 2;
	if ((s = calloc(ns, sizeof(*s))) == NULL)
		return -1;
	for (i = 0; i < t->nrec; i++) {
		for (j = slot_of(t->rec[i].c, ns); s[j] != 0;
		    j = (j + 1) & (ns - 1))
			continue;
		s[j] = (uint32_t)i + 1;
	}
	free(t->slot);
	t->slot = s;
	t->nslot = ns;
	return 0;
}

/*
 * count occurrences of character c past ASCII: after p (enum gprev) and
 * before class nx; p or nx -1 where that side is counted apart (a
 * single-byte reading counts each pair of bytes once).  An occurrence is
 * counted with its side before.
 */
int
gtext_addn(struct gtext *t, uint32_t c, uint32_t count, int p, int nx)
{
	struct grec *r;
	size_t j;

	for (j = slot_of(c, t->nslot); t->slot[j] != 0;
	    j = (j + 1) & (t->nslot - 1))
		if (t->rec[t->slot[j] - 1].c == c)
			break;
	if (t->slot[j] == 0) {
		if (t->nrec == t->cap) {
			if (grow(t) < 0)
				return -1;
			return gtext_addn(t, c, count, p, nx);
		}
		r = &t->rec[t->nrec];
		memset(r, 0, sizeof(*r));
		r->c = c;
		t->slot[j] = (uint32_t)++t->nrec;
	}
	r = &t->rec[t->slot[j] - 1];
	if (p >= 0) {
		r->n += count;
		r->prev[p] += count;
		t->nchars += count;
	}
	if (nx >= 0)
		r->next[nx] += count;
	return 0;
}

/* --- The score ------------------------------------------------------------ */

static const struct lm_tok *
tok_find(const struct lm_tok *tok, size_t ntok, uint32_t c)
{
	size_t lo = 0, hi = ntok;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (tok[mid].c == c)
			return &tok[mid];
		if (tok[mid].c < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The log share of c among the characters of its script in all
 * languages. */
static int
pool_lp(const struct gch *g)
{
	int s = g->letter == GL_NONE ? GS_NONE : g->script;
	const struct lm_pool *p = &lm_pools[s];
	const struct lm_tok *t = tok_find(p->tok, p->ntok, g->fold);

	return t != NULL ? t->lp : p->other;
}

/* The class and the case context of what precedes. */
static const int prev_class[GP_N] = { GN_ASCII, GN_ASCII, GN_LETTER,
	GN_LETTER, GN_LETTER, GN_OTHER };
static const int prev_case[GP_N] = { 0, 1, 0, 1, 2, 2 };

/* The log likelihood of t's characters in model m; pl[i] is the pool's
 * share of character i. */
static int64_t
score_in(const struct lm *m, const struct gtext *t, const struct gch *g,
    const int *pl)
{
	int64_t s = 0;
	size_t i;
	int k;

	for (i = 0; i < t->nrec; i++) {
		const struct grec *r = &t->rec[i];
		const struct lm_tok *tk = tok_find(m->tok, m->ntok, g[i].fold);
		const struct lm_ctx *x;
		const int16_t *cs;
		int lp;

		if (tk != NULL) {
			lp = tk->lp;
			x = &m->ctx[tk->ctx];
		} else {
			lp = m->unk[g[i].letter == GL_NONE ? GS_NONE :
			    g[i].script] + pl[i];
			x = &m->ctx[g[i].letter == GL_NONE ? m->sym_ctx :
			    m->letter_ctx];
		}
		s += (int64_t)r->n * lp;
		cs = g[i].letter == GL_UPPER ? m->up : g[i].letter ==
		    GL_LOWER ? m->lo : NULL;
		for (k = 0; k < GP_N; k++) {
			if (r->prev[k] == 0)
				continue;
			s += (int64_t)r->prev[k] * (x->prev[prev_class[k]] +
			    (cs != NULL ? cs[prev_case[k]] : 0));
		}
		for (k = 0; k < 3; k++)
			s += (int64_t)r->next[k] * x->next[k];
	}
	/* The words around the letters past ASCII: which language their
	 * ASCII letters are of. */
	for (k = 0; k < 26; k++)
		s += (int64_t)t->wl[k] * m->wl[k];
	return s;
}

/*
 * The score of t in the best of the models of single-byte (cjk 0) or
 * multi-byte (cjk 1) encodings' texts, into *out (lm -1 and the lowest
 * score where t holds nothing past ASCII or memory ran out).
 */
void
gmodel_score(const struct gtext *t, int cjk, struct gscore *out)
{
	struct gch *g;
	int *pl;
	size_t i;

	out->score = INT64_MIN;
	out->lm = -1;
	out->script = GS_NONE;
	if (t->nrec == 0 || (g = malloc(t->nrec * (sizeof(*g) +
	    sizeof(*pl)))) == NULL)
		return;
	pl = (int *)(void *)(g + t->nrec);
	for (i = 0; i < t->nrec; i++) {
		gch_info(t->rec[i].c, &g[i]);
		pl[i] = pool_lp(&g[i]);
	}
	for (i = 0; i < NMODELS; i++) {
		int64_t s;

		if (lm_models[i].cjk != cjk)
			continue;
		s = score_in(&lm_models[i], t, g, pl);
		if (out->lm < 0 || s > out->score) {
			out->score = s;
			out->lm = (int)i;
			out->script = lm_models[i].script;
		}
	}
	free(g);
}

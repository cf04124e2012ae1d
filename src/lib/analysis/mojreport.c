/*
 * The mojibake warning, once the scan (mojibake.c) is over: the first
 * sequence found, its line and column (a regular file is read again up
 * to it), and what it says.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mojibake.h"

/* Append the UTF-8 of c to b (size left), a C1 control as U+XXXX. */
static size_t
put(char *b, size_t left, uint32_t c)
{
	unsigned char u[4];
	size_t k;

	if (c >= 0x80 && c <= 0x9F) {
		int w = snprintf(b, left, "<U+%04X>", (unsigned)c);

		return w < 0 || (size_t)w >= left ? 0 : (size_t)w;
	}
	k = (size_t)utf8_enc(u, c);
	if (k >= left)
		return 0;
	memcpy(b, u, k);
	b[k] = '\0';
	return k;
}

/* A scan that counts positions, as m's would have from its start. */
static void
counter(const struct moj *m, struct moj *c)
{
	memset(c, 0, sizeof(*c));
	c->form = m->form;
	c->fd = -1;
	c->xml11 = m->xml11;
	c->skip = m->bomlen;
	c->pos.line = c->pos.col = 1;
}

/* The line and column of h, from the entity in memory read again up to
 * it (as locate does a file's). */
static void
locate_mem(const struct moj *m, struct moj_hit *h)
{
	struct moj *c = malloc(sizeof(*c));
	uint64_t end = h->off < m->memlen ? h->off : m->memlen;

	h->line = h->col = 1;
	if (c == NULL)
		return;
	counter(m, c);
	moj_feed(c, m->mem, (size_t)end);
	if (c->npart > 0 && end < m->memlen)
		moj_feed(c, m->mem + end, 1);
	h->line = c->pos.line;
	h->col = c->pos.col;
	free(c);
}

/* The line and column of h, from the file read again up to it; line 1
 * column 1 if it cannot be read. */
static void
locate(const struct moj *m, struct moj_hit *h)
{
	const size_t bsz = 64 * 1024;
	unsigned char *buf = malloc(bsz);
	struct moj *c = malloc(sizeof(*c));
	uint64_t off = 0;
	ssize_t k;

	h->line = h->col = 1;
	if (buf == NULL || c == NULL)
		goto out;
	counter(m, c);
	while (off < h->off) {
		size_t want = h->off - off < bsz ? (size_t)(h->off - off) : bsz;

		if ((k = pread(m->fd, buf, want, (off_t)(m->base + off))) <= 0)
			goto out;
		moj_feed(c, buf, (size_t)k);
		off += (uint64_t)k;
	}
	/* A sequence cut short by the hit is one bad character, as the scan
	 * that read on past it counted it (the hit's first byte continues
	 * none): its next byte resolves it. */
	if (c->npart > 0 && pread(m->fd, buf, 1, (off_t)(m->base + off)) == 1)
		moj_feed(c, buf, 1);
	h->line = c->pos.line;
	h->col = c->pos.col;
out:
	free(buf);
	free(c);
}

/* What XML 1.0 says of C1 control c, which XML 1.1 restricts and where
 * mojibake is not looked for: section 2.2 discourages #x80-#x84 and
 * #x86-#x9F; NEL, #x85, is not a line end there (it is in 1.1). */
static const char *
c1_why(uint32_t c)
{
	return c == 0x85 ? "NEL, which XML 1.0 does not read as a line end" :
	    "XML 1.0 section 2.2 discourages it";
}

/*
 * The end of the entity: one mojibake diagnostic at the first sequence,
 * with the count of all.  A single pair that may be real text (see
 * complete) is not enough; two sequences of any kind are.
 */
void
moj_end(struct moj *m, struct diags *dg)
{
	struct moj_hit *h;
	char seen[64], meant[16];
	const char *how = "windows-1252";
	uint64_t n = m->strong + m->weak;
	size_t k = 0;
	int i;

	if (m->form == FORM_NONE || (m->strong == 0 && m->weak < 2))
		return;
	if (m->strong == 0 || (m->weak > 0 &&
	    m->first_weak.off < m->first_strong.off))
		h = &m->first_weak;
	else
		h = &m->first_strong;
	if (m->mem != NULL)
		locate_mem(m, h);
	else if (m->fd >= 0)
		locate(m, h);
	seen[0] = '\0';
	for (i = 0; i < h->n; i++) {
		k += put(seen + k, sizeof(seen) - k, h->cp[i]);
		if (i > 0 && h->cp[i] >= 0x80 && h->cp[i] <= 0x9F)
			how = "ISO-8859-1";
	}
	if (h->n == 1) {
		uint32_t w = moj_cp1252[h->cp[0] - 0x80];

		if (w != 0) {
			put(meant, sizeof(meant), w);
			diag_add(dg, D_MOJIBAKE, h->off, h->line, h->col,
			    "C1 control U+%04X (%s): probably \"%s\", "
			    "windows-1252 byte %02X read as ISO-8859-1 and "
			    "encoded again", (unsigned)h->cp[0],
			    c1_why(h->cp[0]), meant, (unsigned)h->cp[0]);
		} else
			diag_add(dg, D_MOJIBAKE, h->off, h->line, h->col,
			    "C1 control U+%04X (%s): byte %02X of another "
			    "encoding read as ISO-8859-1", (unsigned)h->cp[0],
			    c1_why(h->cp[0]), (unsigned)h->cp[0]);
	} else {
		put(meant, sizeof(meant), h->meant);
		diag_add(dg, D_MOJIBAKE, h->off, h->line, h->col,
		    "\"%s\" is \"%s\" encoded twice (its UTF-8 read as %s "
		    "and encoded again)", seen, meant, how);
	}
	dg->d[D_MOJIBAKE].count += n - 1;
}

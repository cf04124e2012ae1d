/*
 * One transcode's state, struct xc, and its output buffer, shared by the
 * transcoder (transcode.c) and its iconv side (iconvout.c); the buffer is
 * written out by dest.c (xc_flush).
 */
#ifndef XC_H
#define XC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine.h"
#include "iconvcap.h"
#include "target.h"
#include "xmllex.h"

#define OBUF_SIZE	(128 * 1024)
#define PEND_MAX	4096		/* characters queued for iconv */
#define BULK_MAX	4096		/* characters converted at once */

/* One transcode: where it stands and what it has still to write. */
struct xc {
	const struct xopts	*xo;
	const struct sniff	*s;
	struct diags		*dg;
	int			 fd;
	int			 failed;	/* 1 unfaithful, 2 I/O error */
	int			 werrno;
	size_t			 on;
	unsigned char		 obuf[OBUF_SIZE];
	/* The target through iconv. */
	iconv_t			 cd;
	struct icap		 ic;		/* what it can do */
	size_t			 np;
	unsigned char		 pb[PEND_MAX * 4];	/* UTF-32LE */
	unsigned char		 pok[PEND_MAX];
	uint64_t		 poff[PEND_MAX], pline[PEND_MAX];
	uint64_t		 pcol[PEND_MAX];
	/* The declaration, held until it is complete. */
	int			 started;
	size_t			 ndecl;
	uint32_t		 decl[DECL_MAX];
	/* ... and as it is written (target_decl). */
	uint32_t		 dout[DECL_MAX + TARGET_DECL_SLACK];
	struct xlex		 lx;		/* the lexical context */
	/* A single-byte source: its table, and each byte in UTF-8. */
	const uint32_t		*sbmap;
	unsigned char		 sb8[256][4];	/* the bytes, then the length */
	int			 sb_ascii;	/* bytes below 0x80 are ASCII */
	/* Plain runs for an iconv target, as UTF-32LE (BULK_MAX characters
	 * at most at a time). */
	unsigned char		 ubuf[4 * BULK_MAX + CONV_SLACK];
	/* ... and a single-byte source: each source byte's byte, when
	 * xlat_ok says it has one; bytes from 0x80 up are not ASCII, so
	 * xlex_skip may pass over source bytes (xlat_on). */
	int			 xlat_on;
	unsigned char		 xlat[256], xlat_ok[256];
	/* A single-byte target's table has every ASCII character as it
	 * is. */
	int			 sbt_ascii;
};

void		 xc_flush(struct xc *);	/* dest.c */

/* Room for need bytes at the end of the output buffer. */
static inline unsigned char *
out_room(struct xc *x, size_t need)
{
	if (OBUF_SIZE - x->on < need)
		xc_flush(x);
	return x->obuf + x->on;
}

static inline void
out_bytes(struct xc *x, const void *p, size_t n)
{
	const unsigned char *q = p;

	while (n > 0) {
		size_t k = OBUF_SIZE - x->on < n ? OBUF_SIZE - x->on : n;

		memcpy(x->obuf + x->on, q, k);
		x->on += k;
		q += k;
		n -= k;
		if (x->on == OBUF_SIZE)
			xc_flush(x);
	}
}

#endif

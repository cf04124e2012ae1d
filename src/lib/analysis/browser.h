/*
 * --browser (browser.c): the encoding a web browser reads an entity in,
 * by the WHATWG Encoding Standard, and browser-differs where its
 * characters are not the XML processor's.
 */
#ifndef BROWSER_H
#define BROWSER_H

#include <iconv.h>

#include "core.h"

struct whatwg_enc;

/* One input as a browser reads it (browser.c). */
struct browser {
	const struct whatwg_enc *enc;
	char		 from[120];	/* where the browser took it */
	const char	*xname;		/* what XML reads it as */
	int		 mode;		/* how the two are compared */
	unsigned char	 diff[256];
	int		 maps;		/* xmap and bmap are set */
	uint32_t	 xmap[256], bmap[256];
	iconv_t		 xcd, bcd;	/* XML's decoder and the browser's */
	uint64_t	 off, line, col;
	int		 cr;
	int		 found;
	uint64_t	 at, at_line, at_col;
	char		 what[120];	/* what differs there */
};

void		 browser_begin(struct browser *, const struct sniff *);
void		 browser_feed(struct browser *, const unsigned char *, size_t);
void		 browser_end(struct browser *, struct sniff *);
const char	*browser_name(const struct browser *);
void		 browser_free(struct browser *);

#endif

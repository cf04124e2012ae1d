/*
 * --browser (browser.c): the encoding a web browser reads an entity in,
 * by the WHATWG Encoding Standard, and browser-differs where its
 * characters are not the XML processor's.
 */
#ifndef BROWSER_H
#define BROWSER_H

#include "core.h"

extern int	 browser_on;	/* --browser was given */

void		 browser_begin(const struct sniff *);
void		 browser_feed(const unsigned char *, size_t);
void		 browser_end(struct sniff *);
const char	*browser_name(void);

#endif

/*
 * What this system's iconv can do for a target (iconvcap.c), asked once
 * and kept.
 */
#ifndef ICONVCAP_H
#define ICONVCAP_H

#include <iconv.h>
#include <stdint.h>

/*
 * What the iconv target (UTF-32LE in, the target out) can do, each answer
 * found once and kept: which characters survive a round trip, which ASCII
 * it writes as the same byte, and, for a single-byte target, the byte of
 * each character it has.
 */
struct icap {
	iconv_t		 enc, dec;	/* to and from the target */
	unsigned char	 tested[65536 / 8];
	unsigned char	 good[65536 / 8];
	/* ASCII characters the target writes as the same byte. */
	unsigned char	 ident[128];
	int		 ident_all;	/* TAB, LF, 0x20-0x7F all are */
	/* A single-byte target: the byte of each BMP character it writes
	 * and reads back the same, when sb_has says it has one. */
	int		 sbt;
	unsigned char	 sb_has[65536 / 8];
	unsigned char	 sb_byte[65536];
};

int		 icap_open(struct icap *, const char *);
void		 icap_close(struct icap *);
int		 icap_rt(struct icap *, uint32_t);
void		 icap_probe(struct icap *);
int		 icap_writes_bom(const char *);

/* Whether character c survives the target, from the kept answers when
 * there are any (icap_rt otherwise). */
static inline int
icap_known(struct icap *ic, uint32_t c)
{
	if (c < 0x10000 && (ic->tested[c >> 3] & (1 << (c & 7))))
		return (ic->good[c >> 3] & (1 << (c & 7))) != 0;
	return icap_rt(ic, c);
}

#endif

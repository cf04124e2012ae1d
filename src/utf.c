/*
 * The Unicode text layer (utf.h): the one external definition of each of
 * its C99 inline functions, for the callers that do not take them inline.
 */
#include "utf.h"

extern inline uint32_t	load_le16(const unsigned char *);
extern inline uint32_t	load_be16(const unsigned char *);
extern inline uint32_t	load_le32(const unsigned char *);
extern inline uint32_t	load_be32(const unsigned char *);
extern inline int	utf8_dec(const unsigned char *, size_t, uint32_t *);
extern inline int	utf16_dec(const unsigned char *, size_t, int,
			    uint32_t *);
extern inline int	utf32_dec(const unsigned char *, size_t, int,
			    uint32_t *);
extern inline int	xml_char_ok(uint32_t, int);

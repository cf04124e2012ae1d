/* The Content-Type parser, and the encoding-name lookup of its charset. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[256];
	struct mt m;
	struct enc e;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (mt_parse(s, &m, err, sizeof(err)) == 0 && m.has_charset)
		enc_lookup(m.charset, &e);
	if (size < 200)
		enc_lookup(s, &e);
	free(s);
	return 0;
}

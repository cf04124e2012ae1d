/* The declaration reader in every layout, and EncName. */
#include <stdint.h>
#include <string.h>

#include "all.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum unit units[] = {
		UNIT_8, UNIT_16BE, UNIT_16LE, UNIT_32BE, UNIT_32LE,
		UNIT_32_2143, UNIT_32_3412, UNIT_EBCDIC
	};
	static struct decl d;
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		decl_read(data, size, 0, units[i], i & 1, &d);
		if (d.present && d.has_encoding) {
			decl_encname_ok(d.encoding);
			if (d.enc_off > d.enc_end || d.enc_end > size)
				__builtin_trap();
		}
		if (d.end > size || (d.bad && d.bad_off > size + 8))
			__builtin_trap();
		if (size > 3)
			decl_read(data, size, 3, units[i], 1, &d);
	}
	return 0;
}

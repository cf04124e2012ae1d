/*
 * Answers that iconv(3) gives the same way every time, kept for the
 * process once found (iconvcap.c, enc.c): asking costs a converter or
 * two, and a tree of files in one encoding would otherwise ask for each
 * file.  Any thread may look up and add: a table is a fixed row of atomic
 * pointers to entries that never change once published (compare and
 * swap into an empty slot), so no lock is taken and nothing is torn.  An
 * entry is never freed; a full table keeps no more (the answer is
 * found again each time), so the memory stays bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

struct memo_ent {
	int		 val;
	char		 key[];
};

/* FNV-1a of key: where its search starts. */
static size_t
slot_of(const char *key)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *key != '\0'; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ULL;
	return (size_t)(h % MEMO_SLOTS);
}

/* The answer kept for key in m into *val; 0 when none is. */
int
memo_get(struct memo *m, const char *key, int *val)
{
	size_t i, k = slot_of(key);

	for (i = 0; i < MEMO_SLOTS; i++, k = (k + 1) % MEMO_SLOTS) {
		const struct memo_ent *e = atomic_load_explicit(&m->e[k],
		    memory_order_acquire);

		if (e == NULL)
			return 0;
		if (strcmp(e->key, key) == 0) {
			*val = e->val;
			return 1;
		}
	}
	return 0;
}

/* Keep val as the answer for key in m (where it has room, and memory is
 * to be had; a key another thread kept meanwhile is left as it is). */
void
memo_put(struct memo *m, const char *key, int val)
{
	size_t i, k = slot_of(key), len = strlen(key);
	struct memo_ent *e, *none;

	if ((e = malloc(sizeof(*e) + len + 1)) == NULL)
		return;
	e->val = val;
	memcpy(e->key, key, len + 1);
	for (i = 0; i < MEMO_SLOTS; i++, k = (k + 1) % MEMO_SLOTS) {
		const struct memo_ent *o;

		none = NULL;
		if (atomic_compare_exchange_strong_explicit(&m->e[k], &none, e,
		    memory_order_acq_rel, memory_order_acquire))
			return;
		o = none;
		if (strcmp(o->key, key) == 0)
			break;
	}
	free(e);
}

/* The key of the pair of names (a, b) into key (size bytes), apart by a
 * byte no name has; 0 when it does not fit. */
int
memo_pair(char *key, size_t size, const char *a, const char *b)
{
	return (size_t)snprintf(key, size, "%s\n%s", a, b) < size;
}

/* fuzz/jsonv.c: a strict JSON validator (RFC 8259). */

/* Members of the top-level object that json_valid notes: -1 where the
 * text has none (or not an integer). */
struct json_top {
	long long	errors, warnings;	/* "errors", "warnings" */
	long		ndiag;			/* elements of "diagnostics" */
};

/* 1 when s[0..n) is exactly one JSON value in UTF-8, else 0; top (may
 * be NULL) receives the members above. */
int	json_valid(const char *, size_t, struct json_top *);

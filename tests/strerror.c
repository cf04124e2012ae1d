/*
 * strerror ENAME...: the C library's text for each named errno value, one
 * a line.  The suite compares xmlsniff's messages with the texts of the C
 * library it was built with (glibc, musl and the BSDs word them apart).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char	*name;
	int		 value;
} names[] = {
	{ "EACCES", EACCES },
	{ "EIO", EIO },
	{ "EISDIR", EISDIR },
	{ "ELOOP", ELOOP },
	{ "EMFILE", EMFILE },
	{ "ENAMETOOLONG", ENAMETOOLONG },
	{ "ENOENT", ENOENT },
	{ "ENOSPC", ENOSPC },
	{ "ENOTDIR", ENOTDIR },
	{ "EPIPE", EPIPE },
	{ "EXDEV", EXDEV }
};

int
main(int argc, char *argv[])
{
	size_t k;
	int i;

	for (i = 1; i < argc; i++) {
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strcmp(argv[i], names[k].name) == 0)
				break;
		if (k == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "strerror: unknown errno name %s\n",
			    argv[i]);
			return 2;
		}
		puts(strerror(names[k].value));
	}
	return 0;
}

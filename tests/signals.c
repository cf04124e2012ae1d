/*
 * Which signal dispositions a program's use of the library changes, for
 * tests/library.bats: every FILE is checked by descriptor (a big one is
 * mapped when mapping is on, a mislabelled one read again for its guess)
 * under the defaults (which map nothing), then with "mmap" "no", then
 * with "mmap" "yes", and after each pass the disposition of every signal
 * is compared with the one before.  Prints one line a pass: "default:
 * ...", "mmap=no: ..." and "mmap=yes: ...", saying which dispositions
 * changed.  Exits 0, or 3 when a file cannot be opened or
 * memory is short.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xmlsniff.h>

#define NSIGS	65

/* The disposition of every signal into acts. */
static void
dispositions(struct sigaction *acts)
{
	int i;

	for (i = 1; i < NSIGS; i++)
		if (sigaction(i, NULL, &acts[i]) == -1)
			memset(&acts[i], 0, sizeof(acts[i]));
}

/* One pass under o: what changed, on one line after what. */
static int
pass(const char *what, const xmlsniff_options *o, int argc, char *argv[])
{
	static struct sigaction before[NSIGS], after[NSIGS];
	xmlsniff_result *r;
	int i, fd, n = 0;

	dispositions(before);
	for (i = 1; i < argc; i++) {
		if ((fd = open(argv[i], O_RDONLY)) == -1)
			return 3;
		if (xmlsniff_check_fd(o, argv[i], fd, &r, NULL, 0) ==
		    XMLSNIFF_OK)
			xmlsniff_result_free(r);
		close(fd);
	}
	dispositions(after);
	printf("%s:", what);
	for (i = 1; i < NSIGS; i++)
		if (before[i].sa_handler != after[i].sa_handler ||
		    before[i].sa_flags != after[i].sa_flags) {
			printf(" %s", i == SIGBUS ? "SIGBUS" : "another");
			n++;
		}
	printf("%s\n", n == 0 ? " none changed" : "");
	return 0;
}

int
main(int argc, char *argv[])
{
	static const char *const how[] = { NULL, "no", "yes" };
	static const char *const name[] = { "default", "mmap=no", "mmap=yes" };
	xmlsniff_options *o;
	int i, rc = 0;

	for (i = 0; i < 3 && rc == 0; i++) {
		if ((o = xmlsniff_options_new()) == NULL || (how[i] != NULL &&
		    xmlsniff_options_set(o, "mmap", how[i]) != XMLSNIFF_OK))
			return 3;
		rc = pass(name[i], o, argc, argv);
		xmlsniff_options_free(o);
	}
	return rc;
}

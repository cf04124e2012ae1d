# The file every bash of a bats run reads first (BASH_ENV, exported by
# setup_suite in tests/setup_suite.bash where bash's loadable builtins are
# installed: Debian's bash-builtins).  It makes mkdir and rm builtins of
# that bash.  bats starts a bash for each test, which runs mkdir twice and
# rm once before the test begins; where a process costs milliseconds to
# start (doc/TESTING.md), those three were an eighth of make check.  The
# builtins take the options the suite and bats use (mkdir -p, -m; rm -r,
# -f); a test that needs another runs /usr/bin/mkdir or /usr/bin/rm.
# Neither line may fail: a bash started with -e or -u reads this too.
enable -f "${XMLSNIFF_LOADABLES:-/usr/lib/bash}/mkdir" mkdir 2> /dev/null ||
    true
enable -f "${XMLSNIFF_LOADABLES:-/usr/lib/bash}/rm" rm 2> /dev/null || true
# A BASH_ENV of the caller's own still runs.
if [ -n "${XMLSNIFF_BASH_ENV_WAS:-}" ] &&
    [[ $XMLSNIFF_BASH_ENV_WAS != */builtins.bash ]]; then
	# shellcheck disable=SC1090
	. "$XMLSNIFF_BASH_ENV_WAS"
fi
true

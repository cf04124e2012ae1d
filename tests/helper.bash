# Shared setup for the bats suites: the binary under test and bats-assert.
# XMLSNIFF may name another binary (an installed one, a sanitizer build).

load_lib() {
	local d
	for d in /usr/lib/bats /usr/local/lib/bats /usr/share/bats; do
		if [ -f "$d/$1/load.bash" ]; then
			load "$d/$1/load.bash"
			return
		fi
	done
	echo "bats library $1 not found (apt-get install bats-support bats-assert)" >&2
	return 1
}

bats_require_minimum_version 1.5.0
load_lib bats-support
load_lib bats-assert

TOP="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
XMLSNIFF="${XMLSNIFF:-$TOP/xmlsniff}"
export LC_ALL=C

# XMLSNIFF_WRAP runs every call under a tool, e.g.
# XMLSNIFF_WRAP='valgrind -q --error-exitcode=99 --leak-check=full'.
if [ -n "${XMLSNIFF_WRAP:-}" ]; then
	wrapped="$BATS_RUN_TMPDIR/xmlsniff-wrapped"
	if [ ! -x "$wrapped" ]; then
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$XMLSNIFF_WRAP" \
		    "$XMLSNIFF" > "$wrapped"
		chmod +x "$wrapped"
	fi
	XMLSNIFF=$wrapped
fi

# xs ARGS...: run xmlsniff, keeping stdout and stderr apart
# ($output/$stderr, $status).
xs() {
	run --separate-stderr "$XMLSNIFF" "$@"
}

# hexof FILE: the bytes of FILE as lower-case hex, no spaces.
hexof() {
	od -An -v -tx1 "$1" | tr -d ' \n'
}

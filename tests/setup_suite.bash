# What a bats run does once, before and after every file it was given
# (bats takes this file from the folder of the files it runs).

# builtins_for_tests: where bash's loadable builtins mkdir and rm are
# installed (Debian: bash-builtins, in /usr/lib/bash), every bash of the
# run reads tests/builtins.bash first (BASH_ENV), which makes them
# builtins: bats starts mkdir twice and rm once for each test.  The
# caller's own BASH_ENV is kept and read after it.  Without them the run
# is as before; tests/cli.bats says which it had.
builtins_for_tests() {
	local d here
	for d in /usr/lib/bash /usr/lib64/bash /usr/local/lib/bash; do
		[ -f "$d/mkdir" ] && [ -f "$d/rm" ] && break
	done
	[ -f "$d/mkdir" ] && [ -f "$d/rm" ] || return 0
	# The loadables must be those of this bash's version.
	bash -c "enable -f '$d/mkdir' mkdir && enable -f '$d/rm' rm" \
	    2> /dev/null || return 0
	here=$(cd "${BASH_SOURCE[0]%/*}" && pwd) || return 0
	export XMLSNIFF_LOADABLES=$d
	# A run inside a run (make check in the tarball) keeps the first
	# caller's file, not the outer run's builtins.bash.
	case ${BASH_ENV:-} in
	*/builtins.bash)	;;
	*)	export XMLSNIFF_BASH_ENV_WAS=${BASH_ENV:-} ;;
	esac
	export BASH_ENV=$here/builtins.bash
}

# setup_suite: python3 as a program of its own, not a version manager's
# shim (pyenv's runs a dozen shell scripts a call, and the tests call
# python3 a hundred times): the interpreter the shim chooses, found once.
setup_suite() {
	local py sh
	builtins_for_tests
	sh=$(command -v python3) || return 0
	[ "$(head -c 2 "$sh")" = '#!' ] || return 0
	py=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null) ||
	    return 0
	[[ $py == /* && $py != *[!A-Za-z0-9_./+-]* ]] || return 0
	mkdir -p "$BATS_RUN_TMPDIR/bin" &&
	    printf '#!/bin/sh\nexec %s "$@"\n' "$py" \
	    > "$BATS_RUN_TMPDIR/bin/python3" &&
	    chmod +x "$BATS_RUN_TMPDIR/bin/python3" || return 1
	export PATH="$BATS_RUN_TMPDIR/bin:$PATH"
}

# teardown_suite: every --json record that the tests printed through xs
# (helper.bash, json_keep) validates against the JSON Schema of the
# record, doc/xmlsniff-record.schema.json, in one python3 run
# (tests/schema-check, which names the file and test of a record that
# fails; passed over without python3 or python3-jsonschema).
teardown_suite() {
	local rc=0 top=${BASH_SOURCE[0]%/*/*}
	[ -d "$BATS_RUN_TMPDIR/json-records" ] || return 0
	command -v python3 > /dev/null || return 0
	python3 "$top/tests/schema-check" \
	    "$top/doc/xmlsniff-record.schema.json" \
	    "$BATS_RUN_TMPDIR/json-records" || rc=$?
	[ "$rc" = 77 ] && rc=0
	return "$rc"
}

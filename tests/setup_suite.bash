# What a bats run does once, before and after every file it was given
# (bats takes this file from the folder of the files it runs).

# setup_suite: python3 as a program of its own, not a version manager's
# shim (pyenv's runs a dozen shell scripts a call, and the tests call
# python3 a hundred times): the interpreter the shim chooses, found once.
setup_suite() {
	local py sh
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

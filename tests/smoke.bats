#!/usr/bin/env bats
load helper

@test "smoke: UTF-8 default" {
	printf '<a/>' > "$BATS_TEST_TMPDIR/a.xml"
	xs "$BATS_TEST_TMPDIR/a.xml"
	assert_success
	assert_output "$BATS_TEST_TMPDIR/a.xml: UTF-8 (default), no declaration"
	[ -z "$stderr" ]
}

# tests/setup_suite.bash and tests/builtins.bash: where bash's loadable
# builtins are installed, the bash of each test has mkdir and rm built in
# (bats runs them for every test; doc/TESTING.md), taking the options the
# suite uses.
@test "the suite: each test's bash has mkdir and rm built in (bash-builtins)" {
	[ -n "${XMLSNIFF_LOADABLES:-}" ] ||
	    skip "bash-builtins is not installed (apt-get install bash-builtins): bats starts mkdir and rm for each test"
	[[ $BASH_ENV == /*/tests/builtins.bash ]]
	[ "$(type -t mkdir)" = builtin ]
	[ "$(type -t rm)" = builtin ]
	mkdir -p "$BATS_TEST_TMPDIR/a/b" && mkdir -m 700 "$BATS_TEST_TMPDIR/c"
	[ -d "$BATS_TEST_TMPDIR/a/b" ] && [ -d "$BATS_TEST_TMPDIR/c" ]
	[ "$(stat -c %a "$BATS_TEST_TMPDIR/c")" = 700 ]
	touch "$BATS_TEST_TMPDIR/a/b/f"
	rm -rf "$BATS_TEST_TMPDIR/a" && rm -f "$BATS_TEST_TMPDIR/none"
	[ ! -e "$BATS_TEST_TMPDIR/a" ]
	# The tested bash reads it too, and a caller's own BASH_ENV after it.
	printf 'SEEN=yes\n' > "$BATS_TEST_TMPDIR/own.bash"
	run env XMLSNIFF_BASH_ENV_WAS="$BATS_TEST_TMPDIR/own.bash" \
	    bash -c 'echo "$(type -t mkdir) $(type -t rm) $SEEN"'
	assert_success
	assert_output 'builtin builtin yes'
	# A bash with -e and -u starts, silent, where the loadables are
	# missing and where their folder is not said.
	run_apart env XMLSNIFF_LOADABLES=/nonexistent bash -eu -c 'echo "$(type -t rm)"'
	assert_success
	assert_output file
	[ -z "$stderr" ]
	run_apart env -u XMLSNIFF_LOADABLES bash -eu -c 'echo "$(type -t rm)"'
	assert_success
	[ -z "$stderr" ]
}

# emit OUT ERR STATUS: OUT (printf format) on standard output, ERR on
# standard error, then STATUS.
emit() {
	printf "$1"
	printf "$2" >&2
	return "$3"
}

# same_as_run CMD...: run_apart CMD gives what bats' run --separate-stderr
# CMD gives, variable by variable (the arrays compared as declare -p
# prints them).
same_as_run() {
	local o s e l el
	run --separate-stderr "$@"
	o=$output s=$status e=$stderr
	l=$(declare -p lines) el=$(declare -p stderr_lines)
	run_apart "$@"
	assert_equal "$output" "$o"
	assert_equal "$status" "$s"
	assert_equal "$stderr" "$e"
	assert_equal "$(declare -p lines)" "$l"
	assert_equal "$(declare -p stderr_lines)" "$el"
}

@test "helper: run_apart sets output, lines, stderr, stderr_lines and status as bats' run --separate-stderr does" {
	same_as_run emit '' '' 0
	same_as_run emit 'a\n\nb\n\n' ' x \n\n y\n\n' 3
	same_as_run emit '  lead\ttab\n' '\n\nerr' 1
	same_as_run emit 'no newline' '' 2
	same_as_run emit '\n' ' ' 0
	# A path is run by exec; a missing one is status 127, said on stderr.
	same_as_run "$XMLSNIFF" --version
	printf '<a>\377</a>' > "$BATS_TEST_TMPDIR/bad.xml"
	same_as_run "$XMLSNIFF" --strict "$BATS_TEST_TMPDIR/bad.xml"
	run_apart "$BATS_TEST_TMPDIR/missing-program"
	assert_equal "$status" 127
	[[ $stderr == *missing-program* ]] || fail "stderr: $stderr"
}

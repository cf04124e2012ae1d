#!/usr/bin/env bats
# The names the CI formats write (xmlsniff(1), Report formats): relative
# to the repository root and normalised, whichever way the name arrived
# (an operand, -r, --files0-from, --stdin-name, the configuration file);
# the text format keeps the name as typed.
load helper

setup_file() {
	# One work tree for the file's tests, some of which write in it:
	# they run one after another.
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	command -v git > /dev/null || return 0
	# A work tree with docs/x.xml (a UTF-8 BOM: warning utf8-bom at 1:1).
	R="$BATS_FILE_TMPDIR/repo"
	mkdir -p "$R/docs" "$R/other"
	git -C "$R" init -q
	printf '\357\273\277<a/>' > "$R/docs/x.xml"
	printf '\357\273\277<a/>' > "$BATS_FILE_TMPDIR/outside.xml"
	ln -s "$R" "$BATS_FILE_TMPDIR/link"
}

setup() {
	command -v git > /dev/null || skip "git is not installed"
	R="$BATS_FILE_TMPDIR/repo"
	cd "$R" || return 1
}

# in_all NAME ARGS...: run xmlsniff ARGS in the four CI formats, standard
# input from $IN, and check that each writes the file as NAME, below the
# root (SARIF: from SRCROOT).
in_all() {
	local name=$1
	shift
	xs --format=github "$@" < "${IN:-/dev/null}"
	assert_success
	assert_output --regexp "^::warning file=$name,line=1,col=1,title=utf8-bom::"
	xs --format=sarif "$@" < "${IN:-/dev/null}"
	assert_success
	assert_output --partial "\"artifactLocation\":{\"uri\":\"$name\",\"uriBaseId\":\"SRCROOT\"}"
	xs --format=gitlab "$@" < "${IN:-/dev/null}"
	assert_success
	assert_output --partial "\"location\":{\"path\":\"$name\",\"lines\":{\"begin\":1}}"
	xs --format=checkstyle "$@" < "${IN:-/dev/null}"
	assert_success
	assert_line --index 2 "<file name=\"$name\">"
}

@test "paths: an operand with ./ and a/.. is the path from the root" {
	in_all docs/x.xml ./other/../docs/./x.xml
	xs ./other/../docs/./x.xml
	assert_output './other/../docs/./x.xml: UTF-8 (BOM), no declaration, 1 warning'
}

@test "paths: an operand given from a directory below the root" {
	cd docs
	in_all docs/x.xml ./x.xml
	xs ./x.xml
	assert_output './x.xml: UTF-8 (BOM), no declaration, 1 warning'
}

@test "paths: -r . (the Action's default) writes no ./" {
	in_all docs/x.xml -r .
	xs -r .
	assert_output './docs/x.xml: UTF-8 (BOM), no declaration, 1 warning'
}

@test "paths: -r from below the root, and with a trailing slash" {
	cd other
	in_all docs/x.xml -r ../docs/
}

@test "paths: --files0-from names" {
	printf './docs//x.xml\0' > "$BATS_TEST_TMPDIR/list"
	in_all docs/x.xml --files0-from="$BATS_TEST_TMPDIR/list"
}

@test "paths: --stdin-name, on the command line and in the configuration file" {
	IN=docs/x.xml in_all docs/x.xml --stdin-name=./docs/../docs/x.xml -
	printf 'stdin-name=./other/../docs/x.xml\n' > "$BATS_TEST_TMPDIR/rc"
	IN=docs/x.xml in_all docs/x.xml --config="$BATS_TEST_TMPDIR/rc" -
	xs --config="$BATS_TEST_TMPDIR/rc" - < docs/x.xml
	assert_output './other/../docs/x.xml: UTF-8 (BOM), no declaration, 1 warning'
}

@test "paths: an absolute name, and one through a symbolic link to the tree" {
	in_all docs/x.xml "$R/docs/x.xml"
	in_all docs/x.xml "$BATS_FILE_TMPDIR/link/docs/x.xml"
}

@test "paths: -j gives the same names as one process" {
	cp docs/x.xml other/y.xml
	xs --format=github -j1 -r .
	local one="$output"
	xs --format=github -j2 -r .
	[ "$output" = "$one" ]
	assert_line --index 1 --regexp '^::warning file=other/y.xml,'
	rm other/y.xml
}

@test "paths: outside the root a name stays as given, normalised; SARIF makes it a file URI" {
	cd docs
	xs --format=github ./../../outside.xml
	assert_output --regexp '^::warning file=\.\./\.\./outside\.xml,line=1,'
	xs --format=checkstyle ../other/../../outside.xml
	assert_line --index 2 '<file name="../../outside.xml">'
	xs --format=gitlab "$BATS_FILE_TMPDIR/./outside.xml"
	assert_output --partial "\"path\":\"$BATS_FILE_TMPDIR/outside.xml\","
	xs --format=sarif ../../outside.xml
	assert_output --partial "\"artifactLocation\":{\"uri\":\"file://$BATS_FILE_TMPDIR/outside.xml\"}"
	assert_output --partial "\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\"file://$(cd "$R" && pwd -P)/\"}}"
}

@test "paths: with no work tree the root is the current directory" {
	cd "$BATS_FILE_TMPDIR"
	xs --format=github ./repo/../outside.xml
	assert_output --regexp '^::warning file=outside\.xml,line=1,'
	xs --format=sarif "$BATS_FILE_TMPDIR/outside.xml"
	assert_output --partial '"artifactLocation":{"uri":"outside.xml","uriBaseId":"SRCROOT"}'
	assert_output --partial "\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\"file://$(pwd -P)/\"}}"
}

@test "paths: an input that cannot be read is named the same way" {
	cd docs
	xs --format=github ./../other/./nosuch.xml
	assert_failure 2
	assert_output '::error file=other/nosuch.xml::No such file or directory'
	xs --format=sarif ./../other/./nosuch.xml
	assert_output --partial '"artifactLocation":{"uri":"other/nosuch.xml","uriBaseId":"SRCROOT"}'
	xs --format=gitlab ./../other/./nosuch.xml
	assert_output --partial '"location":{"path":"other/nosuch.xml","lines":{"begin":1}}'
	xs --format=checkstyle ./../other/./nosuch.xml
	assert_line --index 2 '<file name="other/nosuch.xml">'
}

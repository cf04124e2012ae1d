#!/usr/bin/env bats
# The documents as they stand: every example of the README, the guide,
# the report formats and the manual pages run and its output compared
# (tests/doc-examples); the option table, --help and xmlsniff(1) agree
# option by option and value by value (tests/options-agree); the sizes
# the documents are kept to; what xmlsniff(1) lists against the data it
# lists.  The README's two commands and CI snippets are readme.bats's.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

setup() {
	python3 -c 'import yaml' 2> /dev/null ||
	    skip "python3 with PyYAML is needed"
	command -v git > /dev/null || skip "git is not installed"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# examples DOC TOOL...: run the examples of DOC, as this build and as a
# build without the optional libraries (libuchardet, zlib, libbrotli):
# what an example shows is what every build prints.  The tools they call
# must be there (Debian: jq, file, uchardet, moreutils, libxml2-utils).
examples() {
	local t
	for t in "${@:2}"; do
		command -v "$t" > /dev/null ||
		    skip "$t is not installed; the examples of $1 use it"
	done
	run python3 "$TOP/tests/doc-examples" "$XMLSNIFF" "$1"
	assert_success
	assert_line --regexp "^$1: [0-9]+ examples run, 0 failed\$"
	run python3 "$TOP/tests/doc-examples" --without-optional "$XMLSNIFF" \
	    "$1"
	assert_success
	assert_line --regexp "^$1: [0-9]+ examples run, 0 failed \(without the optional libraries\)\$"
}

@test "docs: the README's examples, run as they stand" {
	examples README
}

@test "docs: doc/GUIDE.md's examples, run as they stand" {
	examples doc/GUIDE.md jq file uchardet isutf8 xmllint iconv od
}

@test "docs: doc/FORMATS.md's examples, run as they stand" {
	examples doc/FORMATS.md
}

@test "docs: xmlsniff(1)'s examples, run as they stand" {
	examples man/xmlsniff.1 jq od
}

@test "docs: xmlsniffrc(5)'s examples, run as they stand" {
	examples man/xmlsniffrc.5
}

@test "docs: a changed output in an example fails the run, and says where" {
	mkdir -p doc
	printf '# t\n\n```console\n$ xmlsniff examples/utf8.xml\nexamples/utf8.xml: UTF-8 (BOM)\n```\n\n```text\nx\n```\n' \
	    > doc/T.md
	cp -R "$TOP/tests" "$TOP/examples" .
	run python3 tests/doc-examples "$XMLSNIFF" doc/T.md
	assert_failure
	assert_line 'examples/utf8.xml: UTF-8 (default), no declaration'
	assert_line '  output differs'
	assert_line --partial 'a block of no known kind (text)'
	assert_line 'doc/T.md: 1 examples run, 2 failed'
}

# A guess that only libuchardet decides (a few French letters, within
# the built-in models' margin): shown as this build prints it, it passes
# as built and fails as a build without libuchardet, which the other
# tests' second run would catch in a document.
@test "docs: an example that only a build with libuchardet prints fails without the optional libraries" {
	"$XMLSNIFF" --help | grep -q 'language models and libuchardet' ||
	    skip "libuchardet is not in this build or did not load"
	mkdir -p doc
	cp -R "$TOP/tests" "$TOP/examples" .
	printf '<?xml version="1.0"?>\n<a>Caf\351 cr\350me br\373l\351e</a>\n' > m.xml
	"$XMLSNIFF" -q --excerpt=never m.xml > shown 2>&1 && true
	grep -q 'note: it decodes cleanly as windows-1252' shown ||
	    fail "no guess as built: $(cat shown)"
	{
		printf '# t\n\n```console\n$ printf %s > m.xml\n' \
		    "'<?xml version=\"1.0\"?>\\n<a>Caf\\351 cr\\350me br\\373l\\351e</a>\\n'"
		printf '$ xmlsniff -q --excerpt=never m.xml\n'
		cat shown
		printf '```\n'
	} > doc/T.md
	run python3 tests/doc-examples "$XMLSNIFF" doc/T.md
	assert_success
	assert_line 'doc/T.md: 2 examples run, 0 failed'
	run python3 tests/doc-examples --without-optional "$XMLSNIFF" doc/T.md
	assert_failure
	assert_line '  output differs'
	assert_line 'doc/T.md: 2 examples run, 1 failed (without the optional libraries)'
}

@test "docs: tests/doc-examples without a document says how it is used" {
	run python3 "$TOP/tests/doc-examples" --without-optional "$XMLSNIFF"
	assert_failure 1
	assert_output 'usage: tests/doc-examples [--without-optional] XMLSNIFF DOC'
}

@test "docs: the option table, --help and xmlsniff(1) agree, option by option, value by value" {
	run python3 "$TOP/tests/options-agree" "$XMLSNIFF"
	assert_success
	assert_output --regexp '^[0-9]+ options: agree$'
}

@test "docs: a drift between the table and the manual page is found" {
	mkdir -p man src/cli tests
	cp "$TOP/src/cli/opts.c" "$TOP/src/cli/format.c" src/cli/
	cp "$TOP/tests/options-agree" tests/
	sed -e 's/^\.It Fl -fallback Ns = Ns Cm error Ns | Ns Cm ncr$/.It Fl -fallback Ns = Ns Cm error/' \
	    -e 's/^\.It Fl q , Fl -quiet$/.It Fl -quiet/' \
	    -e '/^\.It Fl -dry-run$/,/^\.It /{/^\.It Fl -dry-run$/d;}' \
	    "$TOP/man/xmlsniff.1" > man/xmlsniff.1
	run python3 tests/options-agree "$XMLSNIFF"
	assert_failure
	assert_line '--fallback: xmlsniff(1) gives the values error, the table error|ncr'
	assert_line '--quiet: xmlsniff(1) gives the short option None, the table q'
	assert_line '--dry-run: not in xmlsniff(1)'
}

@test "docs: the README is at most 250 lines, xmlsniff(1) at most 900" {
	[ "$(wc -l < "$TOP/README")" -le 250 ] ||
	    fail "README: $(wc -l < "$TOP/README") lines"
	[ "$(wc -l < "$TOP/man/xmlsniff.1")" -le 900 ] ||
	    fail "man/xmlsniff.1: $(wc -l < "$TOP/man/xmlsniff.1") lines"
}

@test "docs: the README's first section after the commands is examples, and Use in CI comes before line 120" {
	run grep -n -e '^Examples$' -e '^Use in CI$' "$TOP/README"
	assert_line --index 0 --regexp '^[0-9]+:Examples$'
	[ "$(sed -n 2p <<< "$output" | cut -d: -f1)" -lt 120 ]
}

@test "docs: xmlsniff(1) gives the extensions of -r that data/xml-types.tsv lists, and each diagnostic as --list-codes does" {
	sed -n '/^A file is XML by its extension: /{s/^[^:]*: //;s/;.*//;s/,* or /, /;p;}' \
	    "$TOP/man/xmlsniff.1" | tr ',' '\n' | tr -d ' ' > man
	grep -v '^#' "$TOP/data/xml-types.tsv" | cut -f1 > data
	run diff data man
	assert_success
	"$XMLSNIFF" --list-codes | sed 's/  */ /g' > codes
	sed -n '/^\.Sh DIAGNOSTICS/,/^\.El/p' "$TOP/man/xmlsniff.1" |
	    awk '/^\.It Cm / { c = $3 " " $5; getline; print c " " $0 }' > manc
	run diff codes manc
	assert_success
}

#!/usr/bin/env bats
# The configuration file: where .xmlsniffrc is found, its syntax, its
# place before the command line, --config and --no-config, and its errors.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export HOME="$BATS_TEST_TMPDIR/home" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/home"
	export GIT_CONFIG_NOSYSTEM=1
	mkdir -p home w
	cd w || return 1
	printf '<a/>' > a.xml
	printf '<a>\377</a>' > bad.xml
}

OK=': UTF-8 (default), no declaration'
MIME='a.xml: application/xml; charset=utf-8'

# ---------------------------------------------------------------------------
# Where it is found

@test ".xmlsniffrc in the current directory is read" {
	printf -- '--mime\n' > .xmlsniffrc
	xs a.xml
	assert_success
	assert_output "$MIME"
}

@test ".xmlsniffrc in a parent directory is read" {
	printf -- '--mime\n' > .xmlsniffrc
	mkdir -p sub/deeper
	cd sub/deeper
	printf '<a/>' > a.xml
	xs a.xml
	assert_success
	assert_output "$MIME"
}

@test "only the nearest .xmlsniffrc is read" {
	printf -- '--strict\n' > .xmlsniffrc
	mkdir sub
	printf -- '--mime\n' > sub/.xmlsniffrc
	cp bad.xml sub/
	cd sub
	xs bad.xml
	assert_success
	assert_output 'bad.xml: application/xml; charset=utf-8'
}

@test "the search stops at the top of a git work tree" {
	command -v git > /dev/null || skip "git is not installed"
	printf -- '--mime\n' > .xmlsniffrc
	git init -q repo
	mkdir repo/sub
	printf '<a/>' > repo/sub/a.xml
	cd repo/sub
	xs a.xml
	assert_success
	assert_output "a.xml$OK"
	printf -- '--mime\n' > ../.xmlsniffrc
	xs a.xml
	assert_success
	assert_output "$MIME"
}

@test "a .git file (a linked work tree) ends the search as well" {
	printf -- '--mime\n' > .xmlsniffrc
	mkdir wt
	printf 'gitdir: /nowhere\n' > wt/.git
	printf '<a/>' > wt/a.xml
	cd wt
	xs a.xml
	assert_success
	assert_output "a.xml$OK"
}

@test "no .xmlsniffrc anywhere: the defaults" {
	xs a.xml
	assert_success
	assert_output "a.xml$OK"
}

# ---------------------------------------------------------------------------
# Syntax

@test "comments, blank lines, white space around, CRLF and names without '--'" {
	printf '# the house rules\n\n   \t\n  strict  \r\n\t# indented comment\nmime\n' \
	    > .xmlsniffrc
	xs bad.xml
	assert_failure 1
	assert_output 'bad.xml: application/xml; charset=utf-8'
}

@test "the value is the rest of the line after '=', verbatim" {
	printf -- '--content-type=text/xml; charset="ISO-8859-1" \n' > .xmlsniffrc
	printf '<a>\351</a>' > l.xml
	xs l.xml
	assert_success
	assert_output 'l.xml: ISO-8859-1 (charset), no declaration, charset "ISO-8859-1", 1 warning'
}

@test "a '#' after an option is part of its value" {
	printf -- '--include=#*.xml\n' > .xmlsniffrc
	mkdir t
	printf '<a/>' > 't/#1.xml'
	printf '<a/>' > t/2.xml
	xs -r t
	assert_success
	assert_output "t/#1.xml$OK"
}

@test "an empty file gives nothing" {
	: > .xmlsniffrc
	xs a.xml
	assert_success
	assert_output "a.xml$OK"
}

# ---------------------------------------------------------------------------
# Precedence

@test "the command line wins over the file for an option of one value" {
	printf -- '--json\n' > .xmlsniffrc
	xs -i a.xml
	assert_success
	assert_output "$MIME"
	printf -- '--content-type=text/xml; charset=utf-8\n' > .xmlsniffrc
	printf '<a>\351</a>' > l.xml
	xs --content-type='text/xml; charset=iso-8859-1' l.xml
	assert_success
	assert_output 'l.xml: ISO-8859-1 (charset), no declaration, charset "iso-8859-1", 1 warning'
}

@test "--include of the command line adds to the file's" {
	printf -- '--include=*.css\n' > .xmlsniffrc
	mkdir t
	printf 'a{}' > t/s.css
	printf 'x' > t/n.txt
	printf '<a/>' > t/x.xml
	xs --list-files -r --include='*.txt' t
	assert_success
	assert_output 't/n.txt
t/s.css'
}

@test "--exclude in the file applies to the walk" {
	printf -- 'exclude=vendor/\n--recursive\n' > .xmlsniffrc
	mkdir -p t/vendor
	printf '<a/>' > t/vendor/v.xml
	printf '<a/>' > t/x.xml
	xs t
	assert_success
	assert_output "t/x.xml$OK"
}

# ---------------------------------------------------------------------------
# --config and --no-config

@test "--no-config: the file is not read" {
	printf -- '--mime\n' > .xmlsniffrc
	xs --no-config a.xml
	assert_success
	assert_output "a.xml$OK"
}

@test "--no-config: even a broken file is not read" {
	printf 'nonsense\n' > .xmlsniffrc
	xs --no-config a.xml
	assert_success
	assert_output "a.xml$OK"
}

@test "--config=FILE: that file, not .xmlsniffrc" {
	printf -- '--strict\n' > .xmlsniffrc
	printf -- '--mime\n' > other.rc
	xs --config=other.rc bad.xml
	assert_success
	assert_output 'bad.xml: application/xml; charset=utf-8'
	xs --config other.rc bad.xml
	assert_success
	assert_output 'bad.xml: application/xml; charset=utf-8'
}

@test "--config=FILE that does not exist: exit 2, one line" {
	xs --config=missing.rc a.xml
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" 'xmlsniff: missing.rc: No such file or directory'
}

@test "--config=FILE that is a directory: exit 2, one line" {
	mkdir rc.d
	xs --config=rc.d a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: rc.d: is a directory'
}

@test "the last of --config and --no-config counts" {
	printf -- '--mime\n' > other.rc
	xs --config=other.rc --no-config a.xml
	assert_success
	assert_output "a.xml$OK"
	xs --no-config --config=other.rc a.xml
	assert_success
	assert_output "$MIME"
}

@test "--config after -- is a FILE operand; an option's value that looks like --no-config is not one" {
	printf -- '--mime\n' > .xmlsniffrc
	xs -- --no-config
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: --no-config: No such file or directory'
	printf 'a.xml\0' > ./--no-config
	xs --files0-from --no-config
	assert_success
	assert_output "$MIME"
}

@test "a FIFO as .xmlsniffrc is not waited on; --config=/dev/null is not read: exit 2, one line" {
	mkfifo .xmlsniffrc
	run_apart timeout 10 "$XMLSNIFF" a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc: is not a regular file'
	run_apart timeout 10 "$XMLSNIFF" --config=/dev/null a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: /dev/null: is not a regular file'
}

@test "an unreadable .xmlsniffrc: exit 2, one line" {
	[ "$(id -u)" -ne 0 ] || skip "root reads any file"
	printf -- '--mime\n' > .xmlsniffrc
	chmod 000 .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc: Permission denied'
}

# ---------------------------------------------------------------------------
# Errors: one line naming the file and the line, exit 2

@test "an unknown option: FILE:LINE, exit 2, nothing checked" {
	printf -- '# ok\n--strict\n--frobnicate\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:3: "frobnicate" is not an option of xmlsniff (a configuration file holds options only, no FILE operands)'
}

@test "a FILE operand in the file is a usage error" {
	printf 'a.xml\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:1: "a.xml" is not an option of xmlsniff (a configuration file holds options only, no FILE operands)'
}

@test "a short option in the file is a usage error" {
	printf -- '-r\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:1: "-r": only long options, one a line (such as --strict)'
}

@test "an abbreviated name in the file is a usage error" {
	printf -- '--stri\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:1: "stri" is not an option of xmlsniff (a configuration file holds options only, no FILE operands)'
}

@test "actions, inputs and writing options are for the command line only" {
	local o
	for o in help version config=x no-config files0-from=x list-files \
	    print0 output=x in-place fix; do
		printf -- '--%s\n' "$o" > .xmlsniffrc
		xs a.xml
		assert_failure 2
		assert_output ''
		assert_equal "$stderr" "xmlsniff: .xmlsniffrc:1: --${o%%=*} is for the command line only"
	done
}

@test "an option that takes a value, without one; one that takes none, with one" {
	printf -- '--include\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:1: --include needs a value: --include=VALUE'
	printf -- '\n--strict=yes\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:2: --strict takes no value'
}

@test "a bad value in the file: the option's message, after FILE:LINE" {
	printf -- '--strict\n--fallback=none\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	[[ "$stderr" == $'xmlsniff: .xmlsniffrc:2: --fallback: "none" is not error or ncr\n'"Try 'xmlsniff --help' for more information." ]]
}

@test "a bad value on the command line has no FILE:LINE though a file was read" {
	printf -- '--strict\n' > .xmlsniffrc
	xs --fallback=none a.xml
	assert_failure 2
	[[ "$stderr" == $'xmlsniff: --fallback: "none" is not error or ncr\n'"Try 'xmlsniff --help' for more information." ]]
}

@test "a file found in a parent is named by its relative path" {
	printf 'bogus\n' > .xmlsniffrc
	mkdir sub
	cd sub
	xs ../a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: ../.xmlsniffrc:1: "bogus" is not an option of xmlsniff (a configuration file holds options only, no FILE operands)'
}

@test "a UTF-8 BOM at the start, as Notepad saves the file, is no part of the first option" {
	printf '\357\273\277--mime\r\nstrict\r\n' > .xmlsniffrc
	xs a.xml
	assert_success
	assert_output "$MIME"
	xs bad.xml
	assert_failure 1
	printf '\357\273\277# a comment\nmime\n' > .xmlsniffrc
	xs a.xml
	assert_success
	assert_output "$MIME"
}

@test "a UTF-8 BOM anywhere but at the start is still a bad line" {
	printf 'mime\n\357\273\277strict\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_output ''
	stderr_has 'xmlsniff: .xmlsniffrc:2: '
}

@test "a NUL byte in the file: exit 2, one line" {
	printf -- '--strict\0\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc: holds a NUL byte; it is not a text file'
}

@test "a file larger than 1 MiB: exit 2, one line" {
	head -c 1048577 /dev/zero | tr '\0' '#' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc: is larger than 1048576 bytes'
}

@test "a control character in a bad line is escaped in the message" {
	printf 'bo\033gus\n' > .xmlsniffrc
	xs a.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:1: "bo\x1Bgus" is not an option of xmlsniff (a configuration file holds options only, no FILE operands)'
}

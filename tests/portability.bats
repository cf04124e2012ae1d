#!/usr/bin/env bats
# What must not depend on the C library xmlsniff is built with (glibc,
# musl, GNU libiconv): the messages for bad options, and whether an
# entity that ends in a byte no character starts with is "truncated".
load helper

setup() {
	scratch_samples
}

# bad_opt MESSAGE ARGS...: xmlsniff ARGS is a usage error whose first line
# of standard error is "xmlsniff: MESSAGE", then the usage.
bad_opt() {
	local want=$1
	shift
	xs "$@"
	assert_failure 2
	assert_output ''
	[ "${stderr%%$'\n'*}" = "xmlsniff: $want" ] ||
	    fail "first line of stderr: ${stderr%%$'\n'*}"
	try_help
}

@test "options: an unknown long option is named whole, with its value" {
	bad_opt "unrecognized option '--bogus=1'" --bogus=1 plain.xml
}

@test "options: an unknown short option in a cluster" {
	bad_opt "invalid option -- 'Z'" -qZb plain.xml
}

@test "options: ':' is no short option" {
	bad_opt "invalid option -- ':'" -: plain.xml
}

@test "options: a long option without its argument, named in full" {
	bad_opt "option '--content-type' requires an argument" --conte
}

@test "options: --output without its argument" {
	bad_opt "option '--output' requires an argument" --output
}

@test "options: -o without its argument, alone and in a cluster" {
	bad_opt "option requires an argument -- 'o'" -o
	bad_opt "option requires an argument -- 'o'" -qo
}

@test "options: an argument to a long option that takes none" {
	bad_opt "option '--strict' doesn't allow an argument" --strict=yes \
	    plain.xml
	bad_opt "option '--brief' doesn't allow an argument" --brief=1 \
	    plain.xml
}

@test "options: an abbreviation of two long options is ambiguous" {
	bad_opt "option '--e' is ambiguous" --e=x plain.xml
}

@test "options: an unambiguous abbreviation is taken" {
	xs --stri plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (default), no declaration'
}

# The last byte of the entity: one that starts a two-byte character (82)
# is a truncated character, one that starts none (FD) is not valid, on
# every C library (musl's decoder calls both incomplete).
@test "Shift_JIS: a lone FD at the end is not valid, not truncated" {
	need_iconv Shift_JIS
	put sj.xml '<?xml version="1.0" encoding="Shift_JIS"?><a/>\375'
	xs sj.xml
	assert_success
	assert_output 'sj.xml: Shift_JIS (declaration), declared "Shift_JIS", 1 error'
	assert_equal "$stderr" 'sj.xml:1:47: error: bytes FD are not valid in Shift_JIS; the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "Shift_JIS: a lone lead byte 82 at the end is a truncated character" {
	need_iconv Shift_JIS
	put sj.xml '<?xml version="1.0" encoding="Shift_JIS"?><a/>\202'
	xs sj.xml
	assert_success
	assert_output 'sj.xml: Shift_JIS (declaration), declared "Shift_JIS", 1 error'
	assert_equal "$stderr" 'sj.xml:1:47: error: the entity ends inside a character: bytes 82 are incomplete in Shift_JIS; the file is truncated [illegal-sequence]'
}

@test "EUC-JP: a lone FF at the end is not valid, 8E a truncated character" {
	need_iconv EUC-JP
	put e.xml '<?xml version="1.0" encoding="EUC-JP"?><a/>\377'
	xs e.xml
	assert_success
	stderr_has 'bytes FF are not valid in EUC-JP'
	put e.xml '<?xml version="1.0" encoding="EUC-JP"?><a/>\216'
	xs e.xml
	assert_success
	stderr_has 'bytes 8E are incomplete in EUC-JP'
}

@test "errtext: the C library's text for an errno name" {
	run errtext ENOENT
	assert_success
	assert_output 'No such file or directory'
	run errtext EBOGUS
	assert_failure 2
}

# musl writes ISO-2022-JP with other shift sequences than glibc, so the
# test of its exact bytes skips there; what must hold everywhere is that
# the output decodes to the input, across many read buffers.
@test "ISO-2022-JP: a large transcode reads back as the input on every iconv" {
	need_iconv ISO-2022-JP to
	{ printf '<?xml version="1.0" encoding="ISO-2022-JP"?>\n<r>'
	  yes "$(printf 'ab\346\227\245\346\234\254 c\343\201\202')" |
	      head -n 50000
	  printf '</r>\n'; } > want.xml
	sed '1s/ISO-2022-JP/UTF-8/' want.xml > in.xml
	xs --transcode-to=ISO-2022-JP -o out.xml in.xml
	assert_success
	assert_output 'in.xml: UTF-8 (declaration), declared "UTF-8"'
	iconv -f ISO-2022-JP -t UTF-8 out.xml | cmp - want.xml
}

@test "has_iconv: yes for UTF-8 and ISO-8859-1, no for a name no iconv has" {
	has_iconv UTF-8
	has_iconv ISO-8859-1 to
	! has_iconv X-NO-SUCH-CHARSET
	! has_iconv X-NO-SUCH-CHARSET to
}

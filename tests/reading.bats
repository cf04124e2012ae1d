#!/usr/bin/env bats
# Issue 29, "the letter, third reading": each rule over its whole class.
# XML 1.1 entities judged by XML 1.1 (NEL a line end, C1 controls
# restricted, Char cited from 1.1); more in the sections below.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# --- XML 1.1 entities are judged by XML 1.1 ---------------------------------

@test "XML 1.1: NEL line ends under ISO-8859-n draw no hint, and count as line ends" {
	# XML 1.1 section 2.11: NEL ends a line; it is no C1 hint there.
	printf '<?xml version="1.1" encoding="ISO-8859-15"?>\205<a>\205caf\351\205\001</a>' > a.xml
	xs --json a.xml
	assert_output --partial '"errors":1,"warnings":0'
	assert_output --partial '"code":"illegal-char","offset":54,"line":4,"column":1'
	refute_output --partial suspicious-label
	printf '<?xml version="1.1" encoding="ISO-8859-1"?>\205<a>\205caf\351\205</a>\205' > b.xml
	xs --strict b.xml
	assert_success
	assert_output 'b.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_equal "$stderr" ''
}

@test "XML 1.0: NEL under ISO-8859-1 is still a hint, said to be no line end there" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\205<a>\205</a>' > c.xml
	xs c.xml
	assert_success
	assert_equal "$stderr" 'c.xml:1:44: warning: C1 control U+0085 under ISO-8859-1 (NEL, which XML 1.0 does not read as a line end): bytes 80-9F are probably meant in another encoding, such as windows-1252 or a multi-byte one (Shift_JIS, GBK, Big5); find which and declare it (2 times) [suspicious-label]'
}

@test "XML 1.1: other C1 controls are restricted, and the hint cites XML 1.1 [2a]" {
	printf '<?xml version="1.1" encoding="ISO-8859-5"?>\r\n<a>\205\237</a>' > d.xml
	xs --format=github d.xml
	assert_success
	assert_output '::error file=d.xml,line=3,col=1,title=illegal-char::U+009F may not appear literally in XML 1.1 (RestrictedChar [2a]); write &#x9F; instead
::warning file=d.xml,line=3,col=1,title=suspicious-label::C1 control U+009F under ISO-8859-5 (XML 1.1 [2a] allows C1 controls only as references): bytes 80-9F are probably meant in another encoding, such as windows-1251 or a multi-byte one (Shift_JIS, GBK, Big5); find which and declare it'
	refute_output --partial '1.0'
}

@test "XML 1.1: a character outside Char cites XML 1.1 [2], in every Unicode form" {
	printf '<?xml version="1.1" encoding="UTF-8"?><a>\000\357\277\276</a>' > e.xml
	xs e.xml
	assert_equal "$stderr" 'e.xml:1:42: error: U+0000 is not an XML Char (XML 1.1 [2]); remove it (a NUL byte: is this a binary file, or mislabelled UTF-16?) (2 times) [illegal-char]'
	{ printf '\377\376'; printf '<?xml version="1.1"?><a>\357\277\276</a>' |
	    iconv -f UTF-8 -t UTF-16LE; } > f.xml
	xs --json f.xml
	assert_output --partial '"message":"U+FFFE is not an XML Char (XML 1.1 [2]); remove it"'
}

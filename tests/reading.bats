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

# --- names that share an IANA entry are not one encoding --------------------

@test "ISO-8859-11 is decoded as itself: A0 is NO-BREAK SPACE, in every output format" {
	need_iconv ISO-8859-11
	need_rejects TIS-620 '\240'
	printf '<?xml version="1.0" encoding="ISO-8859-11"?><a>\240\241</a>' > t.xml
	xs --strict t.xml
	assert_success
	assert_output 't.xml: ISO-8859-11 (declaration), declared "ISO-8859-11"'
	assert_equal "$stderr" ''
	xs -i t.xml
	assert_output 't.xml: application/xml; charset=iso-8859-11'
	xs --json --content-type='text/xml; charset=iso-8859-11' t.xml
	assert_output --partial '"encoding":"ISO-8859-11","source":"charset"'
	assert_output --partial '"errors":0,"warnings":0'
	# TIS-620 itself has no A0; the same bytes declared TIS-620 are wrong.
	printf '<?xml version="1.0" encoding="TIS-620"?><a>\240\241</a>' > u.xml
	xs --format=github u.xml
	assert_output --partial 'title=illegal-sequence::bytes A0 are not valid in TIS-620'
}

@test "names of one entry stay the same label: no charset-decl-conflict, the charset decides" {
	need_iconv ISO-8859-11
	need_rejects TIS-620 '\240'
	printf '<?xml version="1.0" encoding="ISO-8859-11"?><a>\240</a>' > t.xml
	xs --json --content-type='text/xml; charset=TIS-620' t.xml
	refute_output --partial charset-decl-conflict
	assert_output --partial '"encoding":"TIS-620","source":"charset"'
	assert_output --partial '"code":"illegal-sequence","offset":47'
}

@test "an alias read alike is still reported by the registry's name" {
	printf '<?xml version="1.0" encoding="latin1"?><a>\351</a>' > l.xml
	xs l.xml
	assert_output 'l.xml: ISO-8859-1 (declaration), declared "latin1"'
	printf '<?xml version="1.0" encoding="csTIS620"?><a>\241</a>' > c.xml
	xs --json c.xml
	assert_output --partial '"encoding":"TIS-620"'
}

@test "--transcode-to=ISO-8859-11 writes A0 and declares ISO-8859-11; TIS-620 refuses NO-BREAK SPACE" {
	need_iconv ISO-8859-11 to
	need_rejects TIS-620 '\240'
	printf '<a>\302\240\340\270\201</a>' > u.xml
	xs --transcode-to=iso-8859-11 u.xml
	assert_success
	assert_equal "$(printf '%s' "$output" | od -An -v -tx1 | tr -d ' \n')" \
	    "$(printf '<?xml version="1.0" encoding="ISO-8859-11"?><a>\240\241</a>' | od -An -v -tx1 | tr -d ' \n')"
	xs --transcode-to=TIS-620 -o out.xml u.xml
	assert_failure 1
	assert_equal "$stderr" 'u.xml:1:4: error: U+00A0 cannot be written in TIS-620; use --fallback=ncr to write &#xA0; or choose a target that has it [unrepresentable]'
	[ ! -e out.xml ]
}

# --- no character reference for a character the parser would normalise -----
# XML 1.1 section 2.11 reads a literal NEL or LS as a line end, XML 1.0 and
# 1.1 a literal CR; section 3.3.3 reads TAB, LF and CR in an attribute
# value as a space; a reference is read as the character itself.  (No
# target this tests can reach lacks TAB, LF or CR: tests/unit_xlex.c,
# test_xlex_norm, has those.)

# refused FILE TARGET WHERE CODEPOINT LINE:COL: --fallback=ncr refuses with
# the normalisation message, exit 1, and no destination file.
refused() {
	xs --transcode-to="$2" --fallback=ncr -o out.xml "$1"
	assert_failure 1
	assert_output --regexp "^$1: .*, 1 error\$"
	[[ "$stderr" == "$1:$5: error: U+$4 in $3 cannot be written in $2, and no character reference can stand for it: "*"while a reference is read as the character itself; choose a target that has it [unrepresentable]" ]] ||
	    fail "stderr: $stderr"
	[ ! -e out.xml ]
}

@test "--fallback=ncr refuses NEL and LS of XML 1.1 in character data, in every Unicode form and EBCDIC" {
	printf '<?xml version="1.1" encoding="UTF-8"?><a>\303\251\302\205</a>' > u8.xml
	refused u8.xml windows-1252 'character data' 0085 1:43
	stderr_has 'XML 1.1 reads it literally as a line end, LF (section 2.11)'
	{ printf '\376\377'; printf '<?xml version="1.1"?><a>x\342\200\250</a>' |
	    iconv -f UTF-8 -t UTF-16BE; } > be.xml
	refused be.xml ISO-8859-1 'character data' 2028 1:26
	{ printf '\377\376'; printf '<?xml version="1.1"?>\n<a>\342\200\250</a>' |
	    iconv -f UTF-8 -t UTF-16LE; } > le.xml
	refused le.xml US-ASCII 'character data' 2028 2:4
	need_iconv IBM037
	printf '<?xml version="1.1" encoding="IBM037"?><a>x\302\205y</a>' |
	    iconv -f UTF-8 -t IBM037 > e.xml
	refused e.xml windows-1252 'character data' 0085 1:44
}

@test "--fallback=ncr refuses NEL and LS of XML 1.1 in attribute values and attribute defaults" {
	printf '<?xml version="1.1" encoding="UTF-8"?><a b="x\302\205"/>' > a.xml
	refused a.xml windows-1252 'an attribute value' 0085 1:46
	stderr_has 'XML 1.1 reads it literally as a line end (section 2.11), and in an attribute value a line end as a space (section 3.3.3)'
	printf '<?xml version="1.1" encoding="ISO-8859-1"?><a b=\x27\205\x27/>' > l.xml
	refused l.xml Shift_JIS 'an attribute value' 0085 1:50
	printf '<?xml version="1.1"?><!DOCTYPE a [<!ATTLIST a b CDATA "\342\200\250">]><a/>' > d.xml
	refused d.xml ISO-8859-1 'a markup declaration' 2028 1:56
	printf '<?xml version="1.1"?><!DOCTYPE a [<!ENTITY e "\342\200\250">]><a/>' > n.xml
	refused n.xml ISO-8859-1 'a markup declaration' 2028 1:47
	stderr_has 'XML 1.1 reads it literally as a line end, LF (section 2.11)'
}

@test "--fallback=ncr: in XML 1.0 NEL and LS are characters, and references stand for them" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a b="\302\205">\302\205\342\200\250</a>' > t.xml
	xs --transcode-to=windows-1252 --fallback=ncr t.xml
	assert_success
	assert_output '<?xml version="1.0" encoding="windows-1252"?><a b="&#x0085;">&#x0085;&#x2028;</a>'
	# In 1.1 other characters still get references; the first NEL fails
	# the transcode, with its position in every output format.
	printf '<?xml version="1.1" encoding="UTF-8"?><a b="\303\251">\303\251\342\200\250</a>' > v.xml
	xs --json --transcode-to=US-ASCII --fallback=ncr -o out.xml v.xml
	assert_failure 1
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"unrepresentable","offset":50,"line":1,"column":49,"count":1,"message":"U+2028 in character data cannot be written in US-ASCII, and no character reference can stand for it'
	[ ! -e out.xml ]
	printf '<?xml version="1.1" encoding="UTF-8"?><a b="\303\251">\303\251</a>' > w.xml
	xs --transcode-to=US-ASCII --fallback=ncr w.xml
	assert_success
	assert_output '<?xml version="1.1" encoding="US-ASCII"?><a b="&#x00E9;">&#x00E9;</a>'
}

# --- a BOM is contradicted only by a reading impossible or implausible in its order
# Bytes that read as XML Chars in the BOM's order are no evidence against
# it: FE FF 03 00 is U+0300, whatever 03 00 would be little-endian.

@test "BOM kept: UTF-16 text whose first characters look like the other byte order, both orders" {
	printf '\376\377\003\000\003\000\001\300' > be.xml
	xs --strict be.xml
	assert_success
	# No markup at all: not-xml, a warning, and nothing against the BOM.
	assert_output 'be.xml: UTF-16BE (BOM), no declaration, 1 warning'
	assert_equal "$stderr" "be.xml:1:1: warning: the first character (after any BOM and white space) is U+0300, not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
	{ printf '\376\377'; printf '\304\200\304\201<a/>' | iconv -f UTF-8 -t UTF-16BE; } > a.xml
	xs --json a.xml
	assert_output --partial '"encoding":"UTF-16BE","source":"bom"'
	# Text before the root: not-xml (U+0100, not a byte), and only that.
	assert_output --partial '"errors":0,"warnings":1,"diagnostics":[{"severity":"warning","code":"not-xml","offset":2,"line":1,"column":1,"count":1,"message":"the first character (after any BOM and white space) is U+0100, not '"'<'"': this is not XML (XML 1.0 [1], [22])"}]}'
	{ printf '\377\376'; printf '\320\200\320\201<a/>' | iconv -f UTF-8 -t UTF-16LE; } > le.xml
	xs --strict --format=github le.xml
	assert_success
	assert_output "::warning file=le.xml,line=1,col=1,title=not-xml::the first character (after any BOM and white space) is U+0400, not '<': this is not XML (XML 1.0 [1], [22])"
}

@test "BOM kept: UTF-32LE text whose first character reads as \"<\" in octet order 3412" {
	{ printf '\377\376\000\000'; printf '\343\260\200x' | iconv -f UTF-8 -t UTF-32LE; } > f.xml
	xs --strict f.xml
	assert_success
	assert_output 'f.xml: UTF-32LE (BOM), no declaration, 2 warnings'
	stderr_has '[utf32]'
	stderr_lacks decl-mismatch
}

@test "BOM contradicted: another layout's markup, or bytes the BOM's order cannot read" {
	# Little-endian markup after FE FF: a declaration, a comment, a root.
	printf '\376\377<\000?\000x\000m\000l\000 \000v\000=\000\0421\000.\0000\000\042\000?\000>\000' > d.xml
	printf '\376\377<\000!\000-\000-\000 \000-\000-\000>\000' > c.xml
	printf '\377\376\000<\000a\000>\000<\000/\000a\000>' > r.xml
	# Zero bytes after a UTF-8 BOM: no UTF-8 text has them.
	printf '\357\273\277a\000b\000' > u.xml
	# 8-bit markup after a 16-bit BOM, without a declaration.
	printf '\376\377<a>x</a>' > e.xml
	for f in d c r u e; do
		xs --json "$f.xml"
		assert_output --partial '"severity":"error","code":"decl-mismatch","offset":'
	done
	xs r.xml
	stderr_has 'r.xml:1:1: error: the UTF-16LE BOM is followed by UTF-16BE characters (zero bytes between them), not by UTF-16LE bytes'
	xs e.xml
	stderr_has 'e.xml:1:1: error: the UTF-16BE BOM is followed by an 8-bit (ASCII-compatible) start of markup, not by UTF-16BE bytes'
	# Text of the BOM's order, neither markup nor impossible: no error.
	printf '\376\377ab' > t.xml
	xs --strict t.xml
	assert_success
}

@test "transcode round trip: text that looks like the other byte order is read back and transcoded back" {
	printf '\314\200\314\200\307\200' > t.txt
	xs --transcode-to=UTF-16 -o t16.xml t.txt
	assert_success
	[ "$(hexof t16.xml)" = feff0300030001c0 ]
	xs --strict t16.xml
	assert_success
	xs --transcode-to=UTF-8 -o back.xml t16.xml
	assert_success
	[ "$(hexof back.xml)" = "$(hexof t.txt)" ]
	printf '\320\200<a/>' > e.txt
	xs --transcode-to=UTF-16 --byte-order=le -o e16.xml e.txt
	assert_success
	xs --transcode-to=UTF-8 -o eback.xml e16.xml
	assert_success
	[ "$(hexof eback.xml)" = "$(hexof e.txt)" ]
}

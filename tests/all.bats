#!/usr/bin/env bats
# --all and --max-errors (xmlsniff(1)): every occurrence of each code, in
# order, in the text, JSON and CI formats; the cap and the note that the
# list was cut.  And the reasons that illegal sequences of UTF-8, UTF-16
# and UTF-32 give (DIAGNOSTICS).
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# The end of every illegal-sequence message that is not a truncation.
TAIL='; the entity is not in this encoding: declare the encoding it is in, or re-encode it'
NEVER='(a byte never used in UTF-8)'

# seq_line FILE LINE COL BYTES ENC WHY: one text line of illegal-sequence.
seq_line() {
	printf '%s:%s:%s: error: bytes %s are not valid in %s (%s)%s' \
	    "$1" "$2" "$3" "$4" "$5" "$6" "$TAIL"
}

# --- --all in each format ---------------------------------------------------

@test "without --all: each code once, with its count, as before" {
	put f.xml '<a>\377x\377</a>'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" "f.xml:1:4: error: bytes FF are not valid in UTF-8 $NEVER$TAIL (2 times) [illegal-sequence]"
}

@test "--all: one text line per occurrence; the first keeps its count" {
	put f.xml '<a>\377x\n\200</a>'
	xs --all f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" "$(seq_line f.xml 1 4 FF UTF-8 'a byte never used in UTF-8') (2 times) [illegal-sequence]
$(seq_line f.xml 2 1 80 UTF-8 'a stray continuation byte') [illegal-sequence]"
}

@test "--all: occurrences of several codes are merged by offset" {
	put f.xml '<a>\001\377\002</a>'
	xs --all f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 2 errors'
	assert_equal "$stderr" "f.xml:1:4: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it (2 times) [illegal-char]
$(seq_line f.xml 1 5 FF UTF-8 'a byte never used in UTF-8') [illegal-sequence]
f.xml:1:6: error: U+0002 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
}

@test "--all: a run of NUL bytes is listed byte by byte" {
	put f.xml '<a>\0\0\0</a>'
	xs --all f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error'
	m='U+0000 is not an XML Char (XML 1.0 [2]); remove it (a NUL byte: is this a binary file, or mislabelled UTF-16?)'
	assert_equal "$stderr" "f.xml:1:4: error: $m (3 times) [illegal-char]
f.xml:1:5: error: $m [illegal-char]
f.xml:1:6: error: $m [illegal-char]"
}

@test "--all --json: an occurrences array per code and unlisted" {
	put f.xml '<a>\377x\377</a>'
	xs --all --json f.xml
	assert_success
	m="bytes FF are not valid in UTF-8 $NEVER$TAIL"
	assert_output "{\"file\":\"f.xml\",\"encoding\":\"UTF-8\",\"source\":\"default\",\"bom\":null,\"declaration\":null,\"charset\":null,\"mime\":\"application/xml; charset=utf-8\",\"errors\":1,\"warnings\":0,\"diagnostics\":[{\"severity\":\"error\",\"code\":\"illegal-sequence\",\"offset\":3,\"line\":1,\"column\":4,\"count\":2,\"message\":\"$m\",\"occurrences\":[{\"offset\":3,\"line\":1,\"column\":4,\"message\":\"$m\"},{\"offset\":5,\"line\":1,\"column\":6,\"message\":\"$m\"}]}],\"unlisted\":0,\"guess\":null}"
	assert_equal "$stderr" ''
}

@test "--json without --all: no occurrences, no unlisted" {
	put f.xml '<a>\377x\377</a>'
	xs --json f.xml
	assert_success
	refute_output --partial 'occurrences'
	refute_output --partial 'unlisted'
}

@test "--all --format=github: one command per occurrence" {
	put f.xml '<a>\377x\377</a>'
	xs --all --format=github f.xml
	assert_success
	assert_output "::error file=f.xml,line=1,col=4,title=illegal-sequence::bytes FF are not valid in UTF-8 $NEVER$TAIL (2 times)
::error file=f.xml,line=1,col=6,title=illegal-sequence::bytes FF are not valid in UTF-8 $NEVER$TAIL"
	assert_equal "$stderr" ''
}

@test "--all --format=checkstyle: one error element per occurrence" {
	put f.xml '<a>\377\377</a>'
	xs --all --format=checkstyle f.xml
	assert_success
	m="bytes FF are not valid in UTF-8 $NEVER$TAIL"
	assert_output "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<checkstyle version=\"4.3\">
<file name=\"f.xml\">
<error line=\"1\" column=\"4\" severity=\"error\" message=\"$m (2 times)\" source=\"xmlsniff.illegal-sequence\"/>
<error line=\"1\" column=\"5\" severity=\"error\" message=\"$m\" source=\"xmlsniff.illegal-sequence\"/>
</file>
</checkstyle>"
}

@test "--all --format=sarif: one result per occurrence" {
	put f.xml '<a>\377\377</a>'
	xs --all --format=sarif f.xml
	assert_success
	# Each occurrence its own partial fingerprint: FNV-1a 64 of the path,
	# the code and the number of earlier ones of that code.
	assert_output --partial '"region":{"startLine":1,"startColumn":4,"byteOffset":3}}}],"partialFingerprints":{"xmlsniff/v1":"89962e24c76d272e"}},{"ruleId":"illegal-sequence","ruleIndex":7,"level":"error","message":{"text":"bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"f.xml","uriBaseId":"SRCROOT"},"region":{"startLine":1,"startColumn":5,"byteOffset":4}}}],"partialFingerprints":{"xmlsniff/v1":"89999424c7700a57"}}],"invocations"'
}

@test "--all: an ignored code is not listed" {
	put f.xml '<a>\377\001\377\001</a>'
	xs --all --ignore=illegal-sequence f.xml
	assert_success
	assert_equal "$stderr" "f.xml:1:5: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it (2 times) [illegal-char]
f.xml:1:7: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
}

# --- the cap ----------------------------------------------------------------

@test "--max-errors=N: the list stops at N lines, and a note says how many more" {
	put f.xml '<a>\377\377\377\377\377</a>'
	xs --all --max-errors=2 f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" "$(seq_line f.xml 1 4 FF UTF-8 'a byte never used in UTF-8') (5 times) [illegal-sequence]
$(seq_line f.xml 1 5 FF UTF-8 'a byte never used in UTF-8') [illegal-sequence]
f.xml: note: the list stops at 2 lines (--max-errors=2): 3 more occurrences are not listed"
}

@test "--max-errors implies --all; one more is said in the singular" {
	put f.xml '<a>\377\377</a>'
	xs --max-errors=1 f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 FF UTF-8 'a byte never used in UTF-8') (2 times) [illegal-sequence]
f.xml: note: the list stops at 1 line (--max-errors=1): 1 more occurrence is not listed"
}

@test "--max-errors: the first occurrence of each code is always listed" {
	put f.xml '<a>\377\377\001</a>'
	xs --max-errors=1 f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 FF UTF-8 'a byte never used in UTF-8') (2 times) [illegal-sequence]
f.xml:1:6: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]
f.xml: note: the list stops at 2 lines (--max-errors=1, but the first of each code is always listed): 1 more occurrence is not listed"
}

@test "--max-errors=N: a code found past the cap takes the place of the last further occurrence" {
	put f.xml '<a>\377\377\377\001\001</a>'
	xs --max-errors=2 f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 FF UTF-8 'a byte never used in UTF-8') (3 times) [illegal-sequence]
f.xml:1:7: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it (2 times) [illegal-char]
f.xml: note: the list stops at 2 lines (--max-errors=2): 3 more occurrences are not listed"
	xs --max-errors=2 --json f.xml
	assert_output --partial '"errors":2,'
	refute_output --partial '"offset":4,'
	refute_output --partial '"offset":7,'
	assert_output --partial ',"unlisted":3,'
	xs --max-errors=2 --format=github f.xml
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 '::notice file=f.xml::the list stops at 2 lines (--max-errors=2): 3 more occurrences are not listed'
}

@test "--max-errors --json: unlisted counts what was cut; count stays exact" {
	put f.xml '<a>\377\377\377</a>'
	xs --max-errors=2 --json f.xml
	assert_success
	assert_output --partial '"count":3,'
	assert_output --partial '{"offset":4,"line":1,"column":5,"message":"bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it"}]}],"unlisted":1,"guess":null}'
	refute_output --partial '"offset":5,'
}

@test "--max-errors --format=github: a notice says the list was cut" {
	put f.xml '<a>\377\377\377</a>'
	xs --max-errors=2 --format=github f.xml
	assert_success
	assert_line --index 2 '::notice file=f.xml::the list stops at 2 lines (--max-errors=2): 1 more occurrence is not listed'
	assert_equal "${#lines[@]}" 3
}

@test "--max-errors --format=gitlab, checkstyle, sarif: the cut is noted" {
	put f.xml '<a>\377\377\377</a>'
	note='the list stops at 2 lines (--max-errors=2): 1 more occurrence is not listed'
	xs --max-errors=2 --format=gitlab f.xml
	assert_success
	assert_output --partial "{\"description\":\"$note\",\"check_name\":\"max-errors\","
	assert_output --partial '"severity":"info","location":{"path":"f.xml","lines":{"begin":1}}}'
	xs --max-errors=2 --format=checkstyle f.xml
	assert_success
	assert_line "<error line=\"1\" severity=\"info\" message=\"$note\" source=\"xmlsniff.max-errors\"/>"
	xs --max-errors=2 --format=sarif f.xml
	assert_success
	# A run-level notification, not a result: a result must have a rule.
	assert_output --partial "\"results\":[{\"ruleId\":\"illegal-sequence\","
	assert_output --partial "\"toolExecutionNotifications\":[{\"descriptor\":{\"id\":\"max-errors\",\"index\":1},\"level\":\"note\",\"message\":{\"text\":\"$note\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"f.xml\",\"uriBaseId\":\"SRCROOT\"}}}]}]}]}]}"
}

@test "--all: 1000 occurrences an input by default, the rest counted" {
	{ printf '<a>'; head -c 1500 /dev/zero | tr '\0' '\377'; printf '</a>'; } > f.xml
	xs --all f.xml
	assert_success
	assert_equal "${#stderr_lines[@]}" 1001
	[[ "${stderr_lines[0]}" == 'f.xml:1:4: error: bytes FF'*' (1500 times) [illegal-sequence]' ]]
	[[ "${stderr_lines[999]}" == 'f.xml:1:1003: error: bytes FF'*'re-encode it [illegal-sequence]' ]]
	assert_equal "${stderr_lines[1000]}" 'f.xml: note: the list stops at 1000 lines (--all lists at most 1000 an input): 500 more occurrences are not listed'
}

@test "--max-errors: 0, a word, a sign or more than 100000 is a usage error" {
	put f.xml '<a/>'
	for v in 0 abc -1 +5 100001 ''; do
		xs --max-errors="$v" f.xml
		assert_failure 2
		assert_output ''
		assert_equal "${stderr_lines[0]}" "xmlsniff: --max-errors: \"$v\" is not a number from 1 to 100000"
	done
	xs --max-errors=100000 f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration'
}

@test "--all and --max-errors are in --help" {
	xs --help
	assert_success
	assert_output --partial '      --all             list every occurrence of each code, not'
	assert_output --partial '      --max-errors=N    with --all (which it implies): list up'
}

# --- why a sequence is illegal ----------------------------------------------

# why8 BYTES SHOWN WHY: <a>BYTES</a> in UTF-8 draws that reason first
# (the bytes after the first illegal ones may draw more).
why8() {
	local want
	put f.xml "<a>$1</a>"
	xs f.xml
	assert_success
	want=$(seq_line f.xml 1 4 "$2" UTF-8 "$3")
	[[ "${stderr_lines[0]}" == "$want"' ['* ||
	    "${stderr_lines[0]}" == "$want"' ('* ]] ||
	    fail "first line: ${stderr_lines[0]}
wanted: $want"
}

@test "UTF-8: an overlong encoding (C0 AF, E0 80 AF, F0 8F BF BF)" {
	why8 '\300\257' C0 'an overlong encoding: C0 and C1 are never used'
	why8 '\301\201' C1 'an overlong encoding: C0 and C1 are never used'
	why8 '\340\200\257' E0 'an overlong encoding'
	why8 '\360\217\277\277' F0 'an overlong encoding'
}

@test "UTF-8: a surrogate encoded in UTF-8 (ED A0 80)" {
	why8 '\355\240\200' ED 'a surrogate encoded in UTF-8'
	why8 '\355\277\277' ED 'a surrogate encoded in UTF-8'
}

@test "UTF-8: above U+10FFFF (F4 90 80 80, F5 to F7)" {
	why8 '\364\220\200\200' F4 'above U+10FFFF'
	why8 '\365\200\200\200' F5 'above U+10FFFF: F5 to F7 are never used'
	why8 '\367' F7 'above U+10FFFF: F5 to F7 are never used'
}

@test "UTF-8: a truncated sequence inside the entity" {
	why8 '\342\202A' 'E2 82' 'a truncated sequence: too few continuation bytes'
	why8 '\303<' C3 'a truncated sequence: too few continuation bytes'
	why8 '\360\237\230x' 'F0 9F 98' 'a truncated sequence: too few continuation bytes'
}

@test "UTF-8: a stray continuation byte" {
	why8 '\200' 80 'a stray continuation byte'
	why8 '\277' BF 'a stray continuation byte'
}

@test "UTF-8: a byte never used (F8 to FF)" {
	why8 '\370' F8 'a byte never used in UTF-8'
	why8 '\376' FE 'a byte never used in UTF-8'
	why8 '\377' FF 'a byte never used in UTF-8'
}

@test "UTF-8: a truncation at the end of the input keeps its message" {
	put f.xml '<a/>\342\202'
	xs f.xml
	assert_success
	assert_equal "$stderr" 'f.xml:1:5: error: the entity ends inside a character: bytes E2 82 are incomplete in UTF-8; the file is truncated [illegal-sequence]'
}

@test "UTF-16BE: an unpaired high surrogate, and a low one alone" {
	put f.xml '\376\377\0<\0a\0>\330\0\0<\0/\0a\0>'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-16BE (BOM), no declaration, 1 error'
	assert_equal "$stderr" "$(seq_line f.xml 1 4 'D8 00' UTF-16BE 'a high surrogate U+D800 not followed by a low one') [illegal-sequence]"
	put f.xml '\376\377\0<\0a\0>\337\377\0<\0/\0a\0>'
	xs f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 'DF FF' UTF-16BE 'a low surrogate U+DFFF without a high one before it') [illegal-sequence]"
}

@test "UTF-16LE: an unpaired high surrogate, and a low one alone" {
	put f.xml '\377\376<\0a\0>\0\75\330<\0/\0a\0>\0'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-16LE (BOM), no declaration, 1 error'
	assert_equal "$stderr" "$(seq_line f.xml 1 4 '3D D8' UTF-16LE 'a high surrogate U+D83D not followed by a low one') [illegal-sequence]"
	put f.xml '\377\376<\0a\0>\0\0\334<\0/\0a\0>\0'
	xs f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 '00 DC' UTF-16LE 'a low surrogate U+DC00 without a high one before it') [illegal-sequence]"
}

@test "UTF-32: a value above U+10FFFF and a surrogate, in both byte orders" {
	put f.xml '\0\0\376\377\0\0\0<\0\0\0a\0\0\0>\0\21\0\0\0\0\0<'
	xs --ignore=utf32,missing-decl f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 '00 11 00 00' UTF-32BE '0x110000, above U+10FFFF') [illegal-sequence]"
	put f.xml '\377\376\0\0<\0\0\0a\0\0\0>\0\0\0\0\330\0\0<\0\0\0'
	xs --ignore=utf32,missing-decl f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 '00 D8 00 00' UTF-32LE 'the surrogate U+D800') [illegal-sequence]"
}

@test "an encoding iconv decodes gives no reason" {
	put f.xml '<?xml version="1.0" encoding="Shift_JIS"?><a>\375</a>'
	xs f.xml
	assert_success
	assert_equal "$stderr" 'f.xml:1:46: error: bytes FD are not valid in Shift_JIS; the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

# --- error-dense runs -----------------------------------------------------

@test "--all: a run of bytes each illegal alone lists each with its own reason and column" {
	# 80 C1 F5 F8 are counted as one run, then FF after a CR: the bad
	# bytes step the column and leave the CR last, so the LF after
	# them starts no new line (XML 1.0 section 2.11: CR LF is one end).
	put f.xml '<a>\200\301\365\370\r\377\n\377\377\001</a>'
	xs --all f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 2 errors'
	assert_equal "$stderr" "$(seq_line f.xml 1 4 80 UTF-8 'a stray continuation byte') (7 times) [illegal-sequence]
$(seq_line f.xml 1 5 C1 UTF-8 'an overlong encoding: C0 and C1 are never used') [illegal-sequence]
$(seq_line f.xml 1 6 F5 UTF-8 'above U+10FFFF: F5 to F7 are never used') [illegal-sequence]
$(seq_line f.xml 1 7 F8 UTF-8 'a byte never used in UTF-8') [illegal-sequence]
$(seq_line f.xml 2 1 FF UTF-8 'a byte never used in UTF-8') [illegal-sequence]
$(seq_line f.xml 2 2 FF UTF-8 'a byte never used in UTF-8') [illegal-sequence]
$(seq_line f.xml 2 3 FF UTF-8 'a byte never used in UTF-8') [illegal-sequence]
f.xml:2:4: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
}

@test "--max-errors: the cap reached inside a run; the rest counted, the next code still located" {
	put f.xml '<a>\200\301\365\370\r\377\n\377\377\001</a>'
	xs --max-errors=3 f.xml
	assert_success
	assert_equal "$stderr" "$(seq_line f.xml 1 4 80 UTF-8 'a stray continuation byte') (7 times) [illegal-sequence]
$(seq_line f.xml 1 5 C1 UTF-8 'an overlong encoding: C0 and C1 are never used') [illegal-sequence]
f.xml:2:4: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]
f.xml: note: the list stops at 3 lines (--max-errors=3): 5 more occurrences are not listed"
}

@test "--all: a 64 KiB run of FF listed to the cap, the rest counted; the next code still located" {
	{ printf '<a>'; head -c 65536 /dev/zero | tr '\0' '\377'; printf '\001</a>'; } > f.xml
	xs --all --json f.xml
	assert_success
	assert_output --partial '"count":65536,'
	assert_output --partial '{"offset":1001,"line":1,"column":1002,"message":"bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it"}]}'
	refute_output --partial '"offset":1002,'
	assert_output --partial '"unlisted":64537,'
	assert_output --partial '"code":"illegal-char","offset":65539,"line":1,"column":65540,"count":1,'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":65536,'
}

#!/usr/bin/env bats
# Excerpts under the text diagnostics (Excerpts in xmlsniff(1)): the line
# decoded in the entity's encoding, the caret, the bytes and their offset;
# --excerpt and --color, NO_COLOR, and auto on and off a terminal.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ESC: the escape character of the SGR sequences.
E=$'\033'

BAD_U8='error: bytes E9 are not valid in UTF-8 (a truncated sequence: too few continuation bytes); the entity is not in this encoding: declare the encoding it is in, or re-encode it'

# on_tty CMD: run the shell command CMD with standard output and standard
# error on a pseudo-terminal (script(1)); its output, carriage returns
# dropped, in $output.
on_tty() {
	command -v script >/dev/null 2>&1 || skip "script(1) is not installed"
	run bash -c "script -qec $(printf '%q' "$1") /dev/null < /dev/null | tr -d '\r'"
}

# --- what an excerpt shows ---------------------------------------------------

@test "excerpt: UTF-8 with a bad byte: the line, the caret, the bytes" {
	put bad.xml '<?xml version="1.0"?>\n<a>caf\351 au lait</a>\n'
	xs -q --excerpt=always bad.xml
	assert_success
	assert_output ''
	assert_equal "$stderr" "bad.xml:2:7: $BAD_U8 [illegal-sequence]
 2 | <a>caf\\xE9 au lait</a>
   |       ^~~~
   = bytes E9 at offset 28 (next: 20 61 75 20)"
}

@test "excerpt: windows-1252 bytes under ISO-8859-1: C1 controls as \\u escapes" {
	put w.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<q>\223hi\224 caf\351</q>\n'
	xs -q --excerpt=always w.xml
	assert_success
	assert_equal "$stderr" 'w.xml:2:4: warning: C1 control U+0093 under ISO-8859-1 (XML 1.0 section 2.2 discourages C1 controls): bytes 80-9F are probably meant in another encoding, such as windows-1252 or a multi-byte one (Shift_JIS, GBK, Big5); find which and declare it (2 times) [suspicious-label]
 2 | <q>\u0093hi\u0094 café</q>
   |    ^~~~~~
   = bytes 93 at offset 47'
}

@test "excerpt: windows-1252 bytes declared UTF-8: each byte an escape" {
	put w.xml '<?xml version="1.0" encoding="UTF-8"?>\n<q>\223hi\224</q>\n'
	xs -q --excerpt=always w.xml
	assert_success
	assert_equal "$stderr" 'w.xml:2:4: error: bytes 93 are not valid in UTF-8 (a stray continuation byte); the entity is not in this encoding: declare the encoding it is in, or re-encode it (2 times) [illegal-sequence]
 2 | <q>\x93hi\x94</q>
   |    ^~~~
   = bytes 93 at offset 42 (next: 68 69 94 3C)'
}

@test "excerpt: windows-1252 decoded through iconv, a control in it" {
	need_iconv windows-1252
	put w.xml '<?xml version="1.0" encoding="windows-1252"?>\n<q>\223hi\224 caf\351 \001</q>\n'
	xs -q --excerpt=always w.xml
	assert_success
	assert_equal "$stderr" 'w.xml:2:14: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]
 2 | <q>“hi” café \u0001</q>
   |              ^~~~~~
   = bytes 01 at offset 59'
}

@test "excerpt: UTF-16LE with an unpaired surrogate: the code unit as bytes" {
	printf '\377\376<\0a\0>\0\0\330x\0<\0/\0a\0>\0' > u16.xml
	xs -q --excerpt=always u16.xml
	assert_success
	assert_equal "$stderr" 'u16.xml:1:4: error: bytes 00 D8 are not valid in UTF-16LE (a high surrogate U+D800 not followed by a low one); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]
 1 | <a>\x00\xD8x</a>
   |    ^~~~~~~~
   = bytes 00 D8 at offset 8 (next: 78 00 3C 00)'
}

@test "excerpt: a tab, a backslash and a control in the line" {
	put c.xml '<a>\n\tx\\y\001</a>\n'
	xs -q --excerpt=always c.xml
	assert_success
	assert_equal "$stderr" 'c.xml:2:5: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]
 2 | \tx\\y\u0001</a>
   |       ^~~~~~
   = bytes 01 at offset 8'
}

@test "excerpt: wide CJK characters take two cells before the caret" {
	put cjk.xml '<a>漢字かな\377</a>'
	xs -q --excerpt=always cjk.xml
	assert_success
	assert_equal "$stderr" 'cjk.xml:1:8: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]
 1 | <a>漢字かな\xFF</a>
   |            ^~~~
   = bytes FF at offset 15 (next: 3C 2F 61 3E)
cjk.xml: note: it is mostly UTF-8, with 1 stray byte (the first at byte offset 15) among 4 valid multi-byte characters: correct those bytes by hand rather than convert the entity'
}

@test "excerpt: Shift_JIS through iconv, wide characters before the caret" {
	need_iconv Shift_JIS
	put sj.xml '<?xml version="1.0" encoding="Shift_JIS"?>\n<a>\212\277\216\232\001</a>'
	xs -q --excerpt=always sj.xml
	assert_success
	assert_equal "$stderr" 'sj.xml:2:6: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]
 2 | <a>漢字\u0001</a>
   |        ^~~~~~
   = bytes 01 at offset 50'
}

@test "excerpt: a 5,000-character line is cut around the caret" {
	{
		printf '<a>'
		printf 'abcdefghij%.0s' {1..250}
		printf '\377'
		printf 'abcdefghij%.0s' {1..250}
		printf '</a>\n'
	} > long.xml
	xs -q --excerpt=always long.xml
	assert_success
	assert_equal "$stderr" 'long.xml:1:2504: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]
 1 | ...abcdefghijabcdefghijabcdefghij\xFFabcdefghijabcdefghijabcdef...
   |                                  ^~~~
   = bytes FF at offset 2503 (next: 61 62 63 64)'
}

@test "excerpt: a long line cut on the left only when the caret is near its end" {
	{
		printf '<a>'
		printf 'abcdefghij%.0s' {1..100}
		printf '\377</a>\n'
	} > end.xml
	xs -q --excerpt=always end.xml
	assert_success
	assert_equal "${stderr_lines[1]}" ' 1 | ...ijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij\xFF</a>'
	assert_equal "${stderr_lines[2]}" '   |                                                        ^~~~'
}

@test "excerpt: a diagnostic on line 1 (the declaration contradicts the BOM)" {
	put d.xml '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a/>'
	xs -q --excerpt=always d.xml
	assert_success
	assert_equal "$stderr" 'd.xml:1:1: warning: UTF-8 with a BOM: XML 1.0 section 4.3.3 allows it, but Unicode neither requires nor recommends one for UTF-8, and many consumers mishandle it ("Content is not allowed in prolog"); strip it with --transcode-to=UTF-8 [utf8-bom]
 1 | \uFEFF<?xml version="1.0" encoding="Shift_JIS"?><a/>
   | ^~~~~~
   = bytes EF BB BF at offset 0
d.xml:1:31: error: declared "Shift_JIS" but the UTF-8 BOM wins; change encoding= to UTF-8 or re-encode with --transcode-to [decl-mismatch]
 1 | <?xml version="1.0" encoding="Shift_JIS"?><a/>
   |                               ^
   = bytes 53 at offset 33'
}

@test "excerpt: an entity that cannot be decoded shows ASCII and escapes" {
	put u.xml '<?xml version="1.0" encoding="UTF-16"?><a>\351</a>'
	xs -q --excerpt=always u.xml
	assert_success
	assert_equal "$stderr" 'u.xml:1:31: error: declared "UTF-16" (a 16-bit encoding) but the bytes are ASCII-compatible; declare the encoding the bytes are in, or re-encode the file [decl-mismatch]
 1 | <?xml version="1.0" encoding="UTF-16"?><a>\xE9</a>
   |                               ^
   = bytes 55 at offset 30'
}

@test "excerpt: standard input through a pipe, bytes kept as they pass" {
	run_apart bash -c "printf '<?xml version=\"1.0\"?>\n<a>caf\351 au lait</a>\n' | cat | '$XMLSNIFF' -q --excerpt=always"
	assert_success
	assert_equal "$stderr" "-:2:7: $BAD_U8 [illegal-sequence]
 2 | <a>caf\\xE9 au lait</a>
   |       ^~~~
   = bytes E9 at offset 28 (next: 20 61 75 20)"
}

@test "excerpt: a pipe longer than the read buffer, the error near its end" {
	run_apart bash -c "{ printf '<a>\n'; head -c 1000000 /dev/zero | tr '\0' a; printf '\n<b>caf\351</b></a>'; } | '$XMLSNIFF' -q --excerpt=always"
	assert_success
	assert_equal "$stderr" "-:3:7: $BAD_U8 [illegal-sequence]
 3 | <b>caf\\xE9</b></a>
   |       ^~~~
   = bytes E9 at offset 1000011 (next: 3C 2F 62 3E)"
}

@test "excerpt: --fix reads no file again for its excerpts" {
	put f.xml '<?xml version="1.0" encoding="UTF-8"?><a>caf\351</a>'
	xs -q --excerpt=always --fix f.xml
	assert_failure 1
	stderr_has ' 1 | <?xml version="1.0" encoding="UTF-8"?><a>caf\xE9</a>
   |                                             ^~~~
   = bytes E9 at offset 44 (next: 3C 2F 61 3E)'
}

@test "excerpt: the per-input line on stdout is unchanged, -q keeps excerpts" {
	put bad.xml '<a>\377</a>'
	xs --excerpt=always bad.xml
	assert_success
	assert_output 'bad.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "${#stderr_lines[@]}" 4
	xs -q --excerpt=always bad.xml
	assert_output ''
	assert_equal "${#stderr_lines[@]}" 4
}

# --- --excerpt and --color ---------------------------------------------------

@test "--excerpt=never: the diagnostic line alone" {
	put bad.xml '<a>\377</a>'
	xs -q --excerpt=never bad.xml
	assert_success
	assert_equal "$stderr" 'bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "--excerpt: auto (the default) off a terminal: no excerpt" {
	put bad.xml '<a>\377</a>'
	xs -q bad.xml
	assert_equal "${#stderr_lines[@]}" 1
	xs -q --excerpt=auto bad.xml
	assert_equal "${#stderr_lines[@]}" 1
}

@test "--excerpt=always: never in JSON or the CI formats" {
	put bad.xml '<a>\377</a>'
	local f
	for f in json github sarif gitlab checkstyle; do
		xs --excerpt=always --color=always --format=$f bad.xml
		assert_success
		# The excerpt's gutter and caret (a rule's text may hold a
		# pipe of its own: the mojibake fix does).
		refute_output --partial ' 1 | '
		refute_output --partial '^~~~'
		refute_output --partial "$E"
		[[ "$stderr" != *' 1 | '* ]] || fail "--format=$f: $stderr"
	done
}

@test "--excerpt, --color: a value that is not auto, always or never" {
	xs --excerpt=yes x.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --excerpt: "yes" is not auto, always or never'
	xs --color=on x.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --color: "on" is not auto, always or never'
}

@test "--color=always: exact sequences around the severity, code, caret and bytes" {
	put bad.xml '<a>\n\tx\001</a>'
	xs -q --excerpt=always --color=always bad.xml
	assert_success
	assert_equal "$stderr" "bad.xml:2:3: ${E}[1;31merror${E}[0m: U+0001 is not an XML Char (XML 1.0 [2]); remove it [${E}[1millegal-char${E}[0m]
 2 | \\tx${E}[1;31m\\u0001${E}[0m</a>
   |    ${E}[1;32m^~~~~~${E}[0m
   = bytes ${E}[1;31m01${E}[0m at offset 6"
}

@test "--color=always: a warning is magenta, other bad bytes red too" {
	put w.xml '\357\273\277<a>\377</a>'
	xs -q --excerpt=never --color=always w.xml
	assert_success
	stderr_has "w.xml:1:1: ${E}[1;35mwarning${E}[0m: UTF-8 with a BOM"
	stderr_has "[${E}[1mutf8-bom${E}[0m]"
	put two.xml '<a>\377\001</a>'
	xs -q --excerpt=always --color=always two.xml
	assert_equal "${stderr_lines[5]}" " 1 | <a>${E}[1;31m\\xFF${E}[0m${E}[1;31m\\u0001${E}[0m</a>"
}

@test "--color=always without excerpts: the first line only is coloured" {
	put bad.xml '<a>\377</a>'
	xs -q --color=always bad.xml
	assert_success
	assert_equal "$stderr" "bad.xml:1:4: ${E}[1;31merror${E}[0m: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [${E}[1millegal-sequence${E}[0m]"
}

@test "--color=always wins over NO_COLOR" {
	put bad.xml '<a>\377</a>'
	NO_COLOR=1 xs -q --color=always bad.xml
	assert_success
	stderr_has "bad.xml:1:4: ${E}[1;31merror${E}[0m"
}

@test "--color=never: no sequences even with --excerpt=always" {
	put bad.xml '<a>\377</a>'
	xs -q --excerpt=always --color=never bad.xml
	[[ "$stderr" != *"$E"* ]] || fail "$stderr"
}

@test "auto on a terminal: excerpt and colour" {
	put bad.xml '<a>\377</a>'
	on_tty "env -u NO_COLOR '$XMLSNIFF' -q bad.xml"
	assert_success
	assert_output "bad.xml:1:4: ${E}[1;31merror${E}[0m: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [${E}[1millegal-sequence${E}[0m]
 1 | <a>${E}[1;31m\\xFF${E}[0m</a>
   |    ${E}[1;32m^~~~${E}[0m
   = bytes ${E}[1;31mFF${E}[0m at offset 3 (next: 3C 2F 61 3E)"
}

@test "auto on a terminal with NO_COLOR set: the excerpt without colour" {
	put bad.xml '<a>\377</a>'
	on_tty "NO_COLOR=1 '$XMLSNIFF' -q bad.xml"
	assert_success
	assert_output 'bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]
 1 | <a>\xFF</a>
   |    ^~~~
   = bytes FF at offset 3 (next: 3C 2F 61 3E)'
}

@test "auto on a terminal with NO_COLOR empty: colour" {
	put bad.xml '<a>\377</a>'
	on_tty "NO_COLOR= '$XMLSNIFF' -q bad.xml"
	assert_line -n 0 --partial "${E}[1;31merror${E}[0m"
}

@test "auto: standard error off the terminal, standard output on it: neither" {
	put bad.xml '<a>\377</a>'
	on_tty "env -u NO_COLOR '$XMLSNIFF' -q bad.xml 2>err.txt"
	assert_success
	assert_equal "$(cat err.txt)" 'bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "--excerpt=never and --color=never on a terminal" {
	put bad.xml '<a>\377</a>'
	on_tty "env -u NO_COLOR '$XMLSNIFF' -q --excerpt=never --color=never bad.xml"
	assert_success
	assert_output 'bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "excerpt: --http: the body's line and offset, from a file and a pipe, before and after the first read" {
	# The head is not the entity: offsets count from the body, and a
	# file is not read again at them (its offsets are not the body's).
	printf 'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n\r\n<?xml version="1.0"?>\n<a>caf\351</a>\n' > h1.txt
	local want=' 2 | <a>caf\xE9</a>
   |       ^~~~
   = bytes E9 at offset 28 (next: 3C 2F 61 3E)'
	xs --http -q --excerpt=always h1.txt
	assert_equal "$stderr" "h1.txt:2:7: $BAD_U8 [illegal-sequence]
$want"
	run_apart sh -c '"$0" --http -q --excerpt=always < h1.txt' "$XMLSNIFF"
	assert_equal "$stderr" "-:2:7: $BAD_U8 [illegal-sequence]
$want"
	{ printf 'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n\r\n<a>'
	  head -c 300000 /dev/zero | tr '\0' x; printf 'caf\351</a>\n'; } > h2.txt
	xs --http -q --excerpt=always h2.txt
	assert_equal "${stderr_lines[0]}" "h2.txt:1:300007: $BAD_U8 [illegal-sequence]"
	assert_equal "${stderr_lines[3]}" '   = bytes E9 at offset 300006 (next: 3C 2F 61 3E)'
	[[ "${stderr_lines[1]}" == *'xxxcaf\xE9</a>' ]]
	run_apart sh -c '"$0" --http -q --excerpt=always < h2.txt' "$XMLSNIFF"
	[[ "${stderr_lines[1]}" == *'xxxcaf\xE9</a>' ]]
	assert_equal "${stderr_lines[3]}" '   = bytes E9 at offset 300006 (next: 3C 2F 61 3E)'
}

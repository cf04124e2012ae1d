#!/usr/bin/env bats
# --browser: the encoding a web browser reads an entity in (the WHATWG
# Encoding Standard), and the warning browser-differs (xmlsniff(1), What a
# browser reads).
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

W='a browser reads this as'

@test "--browser: 0x93 0x94 under ISO-8859-1 are windows-1252 quotes for a browser" {
	put w.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>\223q\224</a>'
	xs --browser w.xml
	assert_success
	assert_output 'w.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 2 warnings; browser: windows-1252'
	stderr_has "w.xml:2:4: warning: $W windows-1252 of the WHATWG Encoding Standard (from the declaration), XML as ISO-8859-1: byte 0x93 is U+0093 for XML, U+201C for a browser; declare \"windows-1252\" if the bytes are in it, or transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
	[ "$(printf '%s\n' "$stderr" | grep -c 'browser-differs')" = 1 ]
}

@test "--browser: ISO-8859-1 without bytes 80-9F reads the same: no warning" {
	put l.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>\351\377</a>'
	xs --browser l.xml
	assert_success
	assert_output 'l.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"; browser: windows-1252'
	[ -z "$stderr" ]
}

@test "--browser: us-ascii declared, byte 0x80 is the euro sign for a browser" {
	put a.xml '<?xml version="1.0" encoding="us-ascii"?><a>x\200</a>'
	xs --browser a.xml
	assert_success
	assert_output 'a.xml: US-ASCII (declaration), declared "us-ascii", 1 error, 1 warning; browser: windows-1252'
	stderr_has 'a.xml:1:46: error: '
	stderr_has "a.xml:1:46: warning: $W windows-1252 of the WHATWG Encoding Standard (from the declaration), XML as US-ASCII: byte 0x80 is no character for XML, U+20AC for a browser; declare \"windows-1252\" if the bytes are in it, or transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: us-ascii declared, ASCII bytes only: no warning" {
	put a.xml '<?xml version="1.0" encoding="us-ascii"?><a>x</a>'
	xs --browser a.xml
	assert_success
	assert_output 'a.xml: US-ASCII (declaration), declared "us-ascii"; browser: windows-1252'
	[ -z "$stderr" ]
}

@test "--browser: UTF-16 without a BOM, big-endian: UTF-16LE for a browser" {
	printf '\0<\0?\0x\0m\0l\0 \0v\0e\0r\0s\0i\0o\0n\0=\0"\0001\0.\0000\0"\0 \0e\0n\0c\0o\0d\0i\0n\0g\0=\0"\0U\0T\0F\0-\0001\0006\0"\0?\0>\0<\0a\0/\0>' > be.xml
	xs --browser be.xml
	assert_success
	assert_output 'be.xml: UTF-16BE (declaration), declared "UTF-16", 1 error, 1 warning; browser: UTF-16LE'
	stderr_has "be.xml:1:1: warning: $W UTF-16LE of the WHATWG Encoding Standard (from the declaration), XML as UTF-16BE: every character is read otherwise; give it a BOM (--transcode-to=UTF-16) or transcode it to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: UTF-16LE with a BOM reads the same" {
	printf '\377\376<\0a\0/\0>\0' > le.xml
	xs --browser le.xml
	assert_success
	assert_output 'le.xml: UTF-16LE (BOM), no declaration; browser: UTF-16LE'
	[ -z "$stderr" ]
}

@test "--browser: UTF-32BE with a BOM is UTF-8 for a browser" {
	printf '\0\0\376\377\0\0\0<\0\0\0a\0\0\0/\0\0\0>' > u32.xml
	xs --browser u32.xml
	assert_success
	assert_output 'u32.xml: UTF-32BE (BOM), no declaration, 3 warnings; browser: UTF-8'
	stderr_has "u32.xml:1:1: warning: $W UTF-8 of the WHATWG Encoding Standard (from the default), XML as UTF-32BE: every character is read otherwise; transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: a UTF-32LE BOM is a UTF-16LE BOM for a browser" {
	printf '\377\376\0\0<\0\0\0a\0\0\0/\0\0\0>\0\0\0' > u32.xml
	xs --browser u32.xml
	assert_success
	assert_output 'u32.xml: UTF-32LE (BOM), no declaration, 3 warnings; browser: UTF-16LE'
	stderr_has "u32.xml:1:1: warning: $W UTF-16LE of the WHATWG Encoding Standard (from the BOM), XML as UTF-32LE: every character is read otherwise; transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: EBCDIC (IBM037) is UTF-8 for a browser" {
	need_iconv IBM037
	# <?xml version="1.0" encoding="IBM037"?><a/> in IBM037.
	printf '\114\157\247\224\223\100\245\205\231\242\211\226\225\176\177\361\113\360\177\100\205\225\203\226\204\211\225\207\176\177\311\302\324\360\363\367\177\157\156\114\201\141\156' > e.xml
	xs --browser e.xml
	assert_success
	assert_output 'e.xml: IBM037 (declaration), declared "IBM037", 1 warning; browser: UTF-8'
	assert_equal "$stderr" "e.xml:1:1: warning: $W UTF-8 of the WHATWG Encoding Standard (from the default: no browser knows \"IBM037\"), XML as IBM037: every character is read otherwise; transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: a NEC extension pair under Shift_JIS is a character only for a browser" {
	need_iconv Shift_JIS
	need_rejects Shift_JIS '\207\100'
	need_iconv CP932
	put sj.xml '<?xml version="1.0" encoding="Shift_JIS"?><a>\202\240\207\100</a>'
	xs --browser sj.xml
	assert_success
	assert_output 'sj.xml: Shift_JIS (declaration), declared "Shift_JIS", 1 error, 1 warning; browser: Shift_JIS'
	stderr_has "sj.xml:1:47: warning: $W Shift_JIS of the WHATWG Encoding Standard (from the declaration), XML as Shift_JIS: bytes 0x87 0x40 are no character for XML, U+2460 for a browser; declare \"Windows-31J\" if the bytes are in it, or transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: JIS X 0208 characters under Shift_JIS read the same" {
	need_iconv Shift_JIS
	put sj.xml '<?xml version="1.0" encoding="Shift_JIS"?><a>\202\240\223\372</a>'
	xs --browser sj.xml
	assert_success
	assert_output 'sj.xml: Shift_JIS (declaration), declared "Shift_JIS"; browser: Shift_JIS'
	[ -z "$stderr" ]
}

@test "--browser: ISO-8859-9 is windows-1254 for a browser" {
	put t.xml '<?xml version="1.0" encoding="ISO-8859-9"?><a>\320\200</a>'
	xs --browser t.xml
	assert_success
	assert_output 't.xml: ISO-8859-9 (declaration), declared "ISO-8859-9", 2 warnings; browser: windows-1254'
	stderr_has "t.xml:1:48: warning: $W windows-1254 of the WHATWG Encoding Standard (from the declaration), XML as ISO-8859-9: byte 0x80 is U+0080 for XML, U+20AC for a browser;"
}

@test "--browser: a label browsers do not know (IBM437) falls back to UTF-8" {
	need_iconv IBM437
	put i.xml '<?xml version="1.0" encoding="IBM437"?>\r\n<a>\202</a>'
	xs --browser i.xml
	assert_success
	assert_output 'i.xml: IBM437 (declaration), declared "IBM437", 1 warning; browser: UTF-8'
	assert_equal "$stderr" "i.xml:2:4: warning: $W UTF-8 of the WHATWG Encoding Standard (from the default: no browser knows \"IBM437\"), XML as IBM437: byte 0x82 is read otherwise; transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: the charset parameter goes before the declaration" {
	put c.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\223</a>'
	xs --browser --content-type='application/xml; charset=windows-1252' c.xml
	assert_success
	assert_output 'c.xml: windows-1252 (charset), declared "ISO-8859-1", charset "windows-1252", 1 warning; browser: windows-1252'
	stderr_has '[charset-decl-conflict]'
	stderr_lacks 'browser-differs'
}

@test "--browser: an unknown charset label is passed over for the declaration" {
	put c.xml '<?xml version="1.0" encoding="ISO-8859-2"?><a>\261</a>'
	xs --browser --content-type='application/xml; charset=ISO-8859-2' c.xml
	assert_output 'c.xml: ISO-8859-2 (charset), declared "ISO-8859-2", charset "ISO-8859-2"; browser: ISO-8859-2'
	put d.xml '<?xml version="1.0" encoding="ISO-8859-2"?><a>\261</a>'
	xs --browser --content-type='application/xml; charset=x-no-such' d.xml
	assert_line --partial 'browser: ISO-8859-2'
}

@test "--browser: x-user-defined is decoded natively: 80-FF are U+F780-U+F7FF" {
	need_iconv IBM437
	put x.xml '<?xml version="1.0" encoding="x-user-defined"?><a>\351</a>'
	xs --browser --content-type='application/xml; charset=IBM437' x.xml
	assert_success
	assert_output 'x.xml: IBM437 (charset), declared "x-user-defined", charset "IBM437", 2 warnings; browser: x-user-defined'
	stderr_has "x.xml:1:51: warning: $W x-user-defined of the WHATWG Encoding Standard (from the declaration), XML as IBM437: byte 0xE9 is U+0398 for XML, U+F7E9 for a browser; transcode to UTF-8 (--transcode-to=UTF-8) [browser-differs]"
}

@test "--browser: x-user-defined, which XML cannot decode: unsupported-encoding alone" {
	put x.xml '<a>\351</a>'
	xs --browser --content-type='application/xml; charset=x-user-defined' x.xml
	assert_success
	assert_output 'x.xml: x-user-defined (charset), no declaration, charset "x-user-defined", 1 error; browser: x-user-defined'
	assert_equal "$stderr" 'x.xml:1:1: error: charset "x-user-defined" is not an encoding that the IANA registry or this system'"'"'s iconv knows; correct the Content-Type [unsupported-encoding]'
}

@test "--browser: charset=replacement, which XML cannot decode, is not compared" {
	put r.xml '<a>\351</a>'
	xs --browser --content-type='application/xml; charset=replacement' r.xml
	assert_success
	assert_output 'r.xml: replacement (charset), no declaration, charset "replacement", 1 error, 1 warning; browser: replacement'
	stderr_has '[unsupported-encoding]'
	stderr_has '[unregistered-name]'
	stderr_lacks 'browser-differs'
	stderr_lacks 'illegal-sequence'
}

@test "--browser: \"utf-16\" declared in ASCII-compatible bytes is UTF-8 for a browser" {
	put u.xml '<?xml version="1.0" encoding="utf-16"?><a/>'
	xs --browser u.xml
	assert_line --partial '; browser: UTF-8'
	stderr_lacks 'browser-differs'
}

@test "--browser --json: the member browser" {
	put w.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>\223q\224</a>'
	xs --browser --json w.xml
	assert_success
	assert_output --partial '"code":"browser-differs","offset":47,"line":2,"column":4,"count":1,"message":"a browser reads this as windows-1252 of the WHATWG Encoding Standard (from the declaration), XML as ISO-8859-1: byte 0x93 is U+0093 for XML, U+201C for a browser; declare \"windows-1252\" if the bytes are in it, or transcode to UTF-8 (--transcode-to=UTF-8)"}],"browser":"windows-1252","guess":null}'
	[ -z "$stderr" ]
}

@test "--browser --format=json: the same member" {
	put p.xml '<a/>'
	xs --browser --format=json p.xml
	assert_success
	assert_output '{"file":"p.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":0,"diagnostics":[],"browser":"UTF-8"}'
}

@test "--browser --json: an unreadable input has browser null" {
	xs --browser --json missing.xml
	assert_failure 2
	assert_output --partial '"diagnostics":null,"browser":null}'
}

@test "without --browser nothing changes: no browser, no browser-differs" {
	put w.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>\223q\224</a>'
	xs w.xml
	assert_output 'w.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 warning'
	stderr_lacks 'browser'
	xs --json w.xml
	refute_output --partial '"browser"'
	refute_output --partial 'browser-differs'
	xs --json missing.xml
	assert_output --partial '"diagnostics":null}'
}

@test "--browser: -i and --mime-encoding lines are as without it" {
	put l.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'
	xs --browser -i l.xml
	assert_output 'l.xml: application/xml; charset=iso-8859-1'
	xs --browser --mime-encoding l.xml
	assert_output 'l.xml: iso-8859-1'
}

@test "--browser --ignore=browser-differs: the name, not the warning" {
	put w.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\223</a>'
	xs --browser --ignore=browser-differs,suspicious-label w.xml
	assert_success
	assert_output 'w.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"; browser: windows-1252'
	[ -z "$stderr" ]
}

@test "--browser: a difference past the first buffer of input is found" {
	huge "a 3 MB input"
	{ printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>'
	  head -c 3000000 /dev/zero | tr '\0' 'x'
	  printf '\226</a>'; } > big.xml
	xs --browser big.xml
	assert_success
	stderr_has 'big.xml:1:3000047: warning: a browser reads this as windows-1252'
	xs --browser --json big.xml
	assert_output --partial '"code":"browser-differs","offset":3000046,'
}

@test "--explain=browser-differs: meaning, clause and fix" {
	xs --explain=browser-differs
	assert_success
	assert_output --partial 'browser-differs (warning): a web browser would read other characters than XML does'
	assert_output --partial 'WHATWG Encoding Standard'
	assert_output --partial 'xmlsniff --transcode-to=UTF-8 --in-place FILE'
}

@test "make check-whatwg: src/lib/analysis/whatwg.h is what tools/gen-whatwg.py makes" {
	command -v python3 >/dev/null || skip "python3 not installed"
	cd "$TOP"
	run python3 tools/gen-whatwg.py tools/whatwg-encodings.json tools/whatwg-iconv.tsv
	assert_success
	[ "$output" = "$(cat src/lib/analysis/whatwg.h)" ]
}

#!/usr/bin/env bats
# Determining the encoding: signatures, the byte patterns of XML Appendix F,
# the priority of BOM, charset and declaration, declarations in every
# family, XMLDecl and TextDecl, encoding names, and legacy encodings read
# through iconv.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ucs4 2143|3412 TEXT: TEXT in one of the unusual UCS-4 octet orders.
ucs4() {
	if [ "$1" = 2143 ]; then
		enc UTF-32BE "$2" | dd conv=swab status=none
	else
		enc UTF-32LE "$2" | dd conv=swab status=none
	fi
}

# head4 FILE: the first four bytes of FILE in hex.
head4() {
	hexof "$1" | cut -c1-8
}

DECL32='<?xml version="1.0" encoding="UTF-32"?><a/>'
DECL16='<?xml version="1.0" encoding="UTF-16"?><a/>'
DECLUCS4='<?xml version="1.0" encoding="ISO-10646-UCS-4"?><a/>'

# --- XML 1.0 Appendix F.1, with a BOM: signatures ---------------------------

@test "BOM 00 00 FE FF is UTF-32BE" {
	{ printf '\0\0\376\377'; enc UTF-32BE "$DECL32"; } > f.xml
	[ "$(head4 f.xml)" = 0000feff ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-32BE","source":"bom","bom":"UTF-32BE"'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-32","standalone":null}'
	assert_output --partial '"errors":0'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-32BE (BOM), declared "UTF-32", 1 warning'
	stderr_has '[utf32]'
}

@test "BOM FF FE 00 00 is UTF-32LE, not UTF-16LE followed by U+0000" {
	{ printf '\377\376\0\0'; enc UTF-32LE "$DECL32"; } > f.xml
	[ "$(head4 f.xml)" = fffe0000 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-32LE","source":"bom","bom":"UTF-32LE"'
	assert_output --partial '"errors":0'
	refute_output --partial 'illegal-char'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-32LE (BOM), declared "UTF-32", 1 warning'
	stderr_has '[utf32]'
}

@test "BOM 00 00 FF FE is UCS-4 octet order 2143, which cannot be decoded" {
	{ printf '\0\0\377\376'; ucs4 2143 "$DECLUCS4"; } > f.xml
	[ "$(head4 f.xml)" = 0000fffe ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UCS-4-2143","source":"bom","bom":"UCS-4-2143"'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"ISO-10646-UCS-4","standalone":null}'
	assert_output --partial '"severity":"error","code":"unsupported-encoding"'
	refute_output --partial 'illegal-sequence'
	xs f.xml
	assert_success
	assert_output 'f.xml: UCS-4-2143 (BOM), declared "ISO-10646-UCS-4", 1 error, 1 warning'
	stderr_has '[unsupported-encoding]'
}

@test "BOM FE FF 00 00 is UCS-4 octet order 3412, which cannot be decoded" {
	{ printf '\376\377\0\0'; ucs4 3412 "$DECLUCS4"; } > f.xml
	[ "$(head4 f.xml)" = feff0000 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UCS-4-3412","source":"bom","bom":"UCS-4-3412"'
	assert_output --partial '"severity":"error","code":"unsupported-encoding"'
	refute_output --partial 'illegal-sequence'
	xs f.xml
	assert_success
	assert_output 'f.xml: UCS-4-3412 (BOM), declared "ISO-10646-UCS-4", 1 error, 1 warning'
	stderr_has '[unsupported-encoding]'
}

@test "BOM FE FF is UTF-16BE" {
	{ printf '\376\377'; enc UTF-16BE "$DECL16"; } > f.xml
	[ "$(head4 f.xml)" = feff003c ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16BE","source":"bom","bom":"UTF-16BE"'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-16","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-16BE (BOM), declared "UTF-16"'
	[ -z "$stderr" ]
}

@test "BOM FF FE is UTF-16LE" {
	{ printf '\377\376'; enc UTF-16LE "$DECL16"; } > f.xml
	[ "$(head4 f.xml)" = fffe3c00 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE"'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-16LE (BOM), declared "UTF-16"'
	[ -z "$stderr" ]
}

@test "BOM EF BB BF is UTF-8" {
	put f.xml '\357\273\277<?xml version="1.0" encoding="UTF-8"?><a>\303\251</a>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-8","source":"bom","bom":"UTF-8"'
	assert_output --partial '"errors":0,"warnings":1'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (BOM), declared "UTF-8", 1 warning'
	stderr_has '[utf8-bom]'
}

@test "a UTF-16LE BOM without a declaration needs none" {
	{ printf '\377\376'; enc UTF-16LE '<a>\342\202\254</a>'; } > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE","declaration":null'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: UTF-16LE (BOM), no declaration'
}

# --- XML 1.0 Appendix F.1, without a BOM: the byte patterns -----------------

@test "pattern 00 00 00 3C: 32-bit big-endian, declaration read in 4-byte units" {
	enc UTF-32BE '<?xml version="1.0" encoding="UTF-32BE"?><a/>' > f.xml
	[ "$(head4 f.xml)" = 0000003c ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-32BE","source":"declaration","bom":null'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-32BE","standalone":null}'
	assert_output --partial '"errors":0'
	xs f.xml
	assert_output 'f.xml: UTF-32BE (declaration), declared "UTF-32BE", 1 warning'
	stderr_has '[utf32]'
}

@test "pattern 3C 00 00 00: 32-bit little-endian, declaration read in 4-byte units" {
	enc UTF-32LE '<?xml version="1.0" encoding="UTF-32LE"?><a/>' > f.xml
	[ "$(head4 f.xml)" = 3c000000 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-32LE","source":"declaration","bom":null'
	assert_output --partial '"errors":0'
	xs f.xml
	assert_output 'f.xml: UTF-32LE (declaration), declared "UTF-32LE", 1 warning'
}

@test "pattern 00 00 3C 00: 32-bit order 2143 with a declaration is UCS-4-2143, not UTF-32BE" {
	ucs4 2143 "$DECLUCS4" > f.xml
	[ "$(head4 f.xml)" = 00003c00 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UCS-4-2143","source":"declaration","bom":null'
	assert_output --partial '"encoding":"ISO-10646-UCS-4"'
	assert_output --partial '"code":"unsupported-encoding"'
	xs f.xml
	assert_line --index 0 --partial 'f.xml: UCS-4-2143 (declaration), declared "ISO-10646-UCS-4", 1 error'
	stderr_has '[unsupported-encoding]'
}

@test "pattern 00 3C 00 00: 32-bit order 3412 with a declaration is UCS-4-3412, not UTF-32BE" {
	ucs4 3412 "$DECLUCS4" > f.xml
	[ "$(head4 f.xml)" = 003c0000 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UCS-4-3412","source":"declaration","bom":null'
	assert_output --partial '"code":"unsupported-encoding"'
	refute_output --partial 'illegal-sequence'
	xs f.xml
	assert_line --index 0 --partial 'f.xml: UCS-4-3412 (declaration), declared "ISO-10646-UCS-4", 1 error'
}

@test "pattern 00 3C 00 3F: 16-bit big-endian, declaration read in 2-byte units" {
	enc UTF-16BE '<?xml version="1.0" encoding="UTF-16BE"?><a/>' > f.xml
	[ "$(head4 f.xml)" = 003c003f ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16BE","source":"declaration","bom":null'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-16BE","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: UTF-16BE (declaration), declared "UTF-16BE"'
	[ -z "$stderr" ]
}

@test "pattern 3C 00 3F 00: 16-bit little-endian, declaration read in 2-byte units" {
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' > f.xml
	[ "$(head4 f.xml)" = 3c003f00 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16LE","source":"declaration","bom":null'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: UTF-16LE (declaration), declared "UTF-16LE"'
	[ -z "$stderr" ]
}

@test "pattern 3C 3F 78 6D: ASCII-compatible, the declaration names the encoding" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\351</a>'
	[ "$(head4 f.xml)" = 3c3f786d ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration","bom":null'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"ISO-8859-1","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "pattern 4C 6F A7 94: EBCDIC, the declaration read through the invariant characters" {
	need_iconv IBM037
	enc IBM037 '<?xml version="1.0" encoding="IBM037"?>\n<a>caf\303\251 [1]</a>\n' > f.xml
	[ "$(head4 f.xml)" = 4c6fa794 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"IBM037","source":"declaration","bom":null'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"IBM037","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: IBM037 (declaration), declared "IBM037"'
	[ -z "$stderr" ]
}

@test "any other start: UTF-8 by default" {
	put f.xml '<a>\342\202\254</a>'
	[ "$(head4 f.xml)" = 3c613ee2 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "a declaration without encoding in ASCII bytes: UTF-8 by default" {
	put f.xml '<?xml version="1.0"?><a/>'
	xs --json f.xml
	assert_output --partial '"encoding":"UTF-8","source":"default","bom":null'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":null,"standalone":null}'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), declaration without encoding'
	[ -z "$stderr" ]
}

# --- Priority: RFC 7303 section 3.2, XML 1.0 section 4.3.3 ------------------

@test "priority: a BOM wins over the charset parameter" {
	{ printf '\377\376'; enc UTF-16LE '<a/>'; } > f.xml
	xs --json --content-type 'application/xml; charset=iso-8859-1' f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE"'
	assert_output --partial '"charset":"iso-8859-1"'
	assert_output --partial '"code":"bom-charset-conflict"'
	xs --content-type 'application/xml; charset=iso-8859-1' f.xml
	assert_output 'f.xml: UTF-16LE (BOM), no declaration, charset "iso-8859-1", 1 error'
	stderr_has '[bom-charset-conflict]'
}

@test "priority: a BOM wins over the declaration" {
	put f.xml '\357\273\277<?xml version="1.0" encoding="ISO-8859-1"?><a>\303\251</a>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-8","source":"bom","bom":"UTF-8"'
	assert_output --partial '"encoding":"ISO-8859-1","standalone":null'
	assert_output --partial '"code":"decl-mismatch"'
	xs f.xml
	assert_output 'f.xml: UTF-8 (BOM), declared "ISO-8859-1", 1 error, 1 warning'
}

@test "priority: a BOM wins over both charset and declaration" {
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > f.xml
	xs --json --content-type 'text/xml; charset=windows-1252' f.xml
	assert_output --partial '"encoding":"UTF-16BE","source":"bom","bom":"UTF-16BE"'
	assert_output --partial '"charset":"windows-1252"'
}

@test "priority: the charset parameter wins over the declaration" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\223x\224</a>'
	xs --json --content-type 'application/xml; charset=windows-1252' f.xml
	assert_success
	assert_output --partial '"encoding":"windows-1252","source":"charset","bom":null'
	assert_output --partial '"charset":"windows-1252"'
	assert_output --partial '"code":"charset-decl-conflict"'
	refute_output --partial 'suspicious-label'
	xs --content-type 'application/xml; charset=windows-1252' f.xml
	assert_output 'f.xml: windows-1252 (charset), declared "ISO-8859-1", charset "windows-1252", 1 warning'
}

@test "priority: the charset parameter alone decides an entity without BOM or declaration" {
	put f.xml '<a>caf\351</a>'
	xs --json --content-type 'text/xml; charset=ISO-8859-1' f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"charset","bom":null,"declaration":null,"charset":"ISO-8859-1"'
	refute_output --partial 'illegal-sequence'
	xs --content-type 'text/xml; charset=ISO-8859-1' f.xml
	assert_output 'f.xml: ISO-8859-1 (charset), no declaration, charset "ISO-8859-1", 1 warning'
	stderr_has '[missing-decl]'
}

@test "priority: a Content-Type without charset leaves the declaration in charge" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\351</a>'
	xs --json --content-type 'application/xml' f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration"'
	assert_output --partial '"charset":null'
	xs --content-type 'application/xml' f.xml
	assert_output 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
}

@test "priority: the declaration wins over the UTF-8 default" {
	put f.xml '<?xml version="1.0" encoding="windows-1252"?><a>\200</a>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"windows-1252","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "priority: 16-bit big-endian bytes without BOM or encoding declaration are sniffed, with an error" {
	enc UTF-16BE '<?xml version="1.0"?><a/>' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16BE","source":"sniffed","bom":null'
	assert_output --partial '"severity":"error","code":"no-declaration"'
	xs f.xml
	assert_output 'f.xml: UTF-16BE (sniffed), declaration without encoding, 2 errors'
	stderr_has '[no-declaration]'
	stderr_has '[bom-missing]'
}

@test "priority: 16-bit little-endian bytes without BOM or encoding declaration are sniffed, with an error" {
	enc UTF-16LE '<?xml version="1.0"?><a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"encoding":"UTF-16LE","source":"sniffed","bom":null'
	assert_output --partial '"severity":"error","code":"no-declaration"'
	xs --strict f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-16LE (sniffed), declaration without encoding, 2 errors'
}

@test "priority: 32-bit big-endian bytes without BOM or declaration are sniffed, with an error" {
	enc UTF-32BE '<a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"encoding":"UTF-32BE","source":"sniffed","bom":null,"declaration":null'
	assert_output --partial '"severity":"error","code":"no-declaration"'
	xs f.xml
	assert_output 'f.xml: UTF-32BE (sniffed), no declaration, 1 error, 1 warning'
}

@test "priority: 32-bit little-endian bytes without BOM or declaration are sniffed, with an error" {
	enc UTF-32LE '<a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"encoding":"UTF-32LE","source":"sniffed","bom":null,"declaration":null'
	assert_output --partial '"severity":"error","code":"no-declaration"'
	xs f.xml
	assert_output 'f.xml: UTF-32LE (sniffed), no declaration, 1 error, 1 warning'
}

@test "priority: 32-bit order 2143 without BOM or declaration is sniffed, with an error" {
	ucs4 2143 '<a/>' > f.xml
	[ "$(head4 f.xml)" = 00003c00 ]
	xs --json f.xml
	assert_output --partial '"encoding":"UCS-4-2143","source":"sniffed","bom":null'
	assert_output --partial '"code":"no-declaration"'
	assert_output --partial '"code":"unsupported-encoding"'
}

@test "priority: 32-bit order 3412 without BOM or declaration is sniffed, with an error" {
	ucs4 3412 '<a/>' > f.xml
	[ "$(head4 f.xml)" = 003c0000 ]
	xs --json f.xml
	assert_output --partial '"encoding":"UCS-4-3412","source":"sniffed","bom":null'
	assert_output --partial '"code":"no-declaration"'
}

@test "priority: a charset parameter labels 16-bit bytes that have no declaration" {
	enc UTF-16LE '<?xml version="1.0"?><a/>' > f.xml
	xs --json --content-type 'application/xml; charset=utf-16le' f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-16LE","source":"charset","bom":null'
	refute_output --partial 'no-declaration'
	refute_output --partial 'bom-missing'
	assert_output --partial '"errors":0'
}

@test "priority: EBCDIC bytes without an encoding declaration are an error" {
	enc IBM037 '<?xml version="1.0"?><a/>' > f.xml
	[ "$(head4 f.xml)" = 4c6fa794 ]
	xs --json f.xml
	refute_output --partial '"source":"declaration"'
	refute_output --partial '"errors":0'
	xs --strict f.xml
	assert_failure 1
}

# --- declarations in every family, both quote styles ------------------------

@test "declaration in 8-bit bytes, double and single quotes" {
	put d.xml '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?><a/>'
	put s.xml "<?xml version='1.0' encoding='ISO-8859-1' standalone='no'?><a/>"
	xs --json d.xml
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration"'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"ISO-8859-1","standalone":"yes"}'
	xs --json s.xml
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration"'
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"ISO-8859-1","standalone":"no"}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "declaration in UTF-16BE with a BOM, double and single quotes" {
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > d.xml
	{ printf '\376\377'; enc UTF-16BE "<?xml version='1.0' encoding='UTF-16'?><a/>"; } > s.xml
	for f in d.xml s.xml; do
		xs --json "$f"
		assert_output --partial '"encoding":"UTF-16BE","source":"bom","bom":"UTF-16BE","declaration":{"kind":"xml","version":"1.0","encoding":"UTF-16","standalone":null}'
		assert_output --partial '"errors":0,"warnings":0'
	done
}

@test "declaration in UTF-16LE with a BOM, double and single quotes" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="utf-16"?><a/>'; } > d.xml
	{ printf '\377\376'; enc UTF-16LE "<?xml version='1.0' encoding='utf-16'?><a/>"; } > s.xml
	for f in d.xml s.xml; do
		xs --json "$f"
		assert_output --partial '"encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE","declaration":{"kind":"xml","version":"1.0","encoding":"utf-16","standalone":null}'
		assert_output --partial '"errors":0,"warnings":0'
	done
}

@test "declaration in UTF-16BE and UTF-16LE without a BOM, single quotes" {
	enc UTF-16BE "<?xml version='1.0' encoding='UTF-16BE'?><a/>" > be.xml
	enc UTF-16LE "<?xml version='1.0' encoding='UTF-16LE'?><a/>" > le.xml
	xs --json be.xml
	assert_output --partial '"encoding":"UTF-16BE","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-16BE","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs --json le.xml
	assert_output --partial '"encoding":"UTF-16LE","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-16LE","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "declaration in UTF-32BE, double and single quotes" {
	enc UTF-32BE '<?xml version="1.0" encoding="UTF-32BE"?><a/>' > d.xml
	{ printf '\0\0\376\377'; enc UTF-32BE "<?xml version='1.0' encoding='UTF-32'?><a/>"; } > s.xml
	xs --json d.xml
	assert_output --partial '"encoding":"UTF-32BE","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-32BE","standalone":null}'
	assert_output --partial '"errors":0'
	xs --json s.xml
	assert_output --partial '"encoding":"UTF-32BE","source":"bom","bom":"UTF-32BE","declaration":{"kind":"xml","version":"1.0","encoding":"UTF-32","standalone":null}'
	assert_output --partial '"errors":0'
}

@test "declaration in UTF-32LE, double and single quotes" {
	enc UTF-32LE '<?xml version="1.0" encoding="UTF-32LE"?><a/>' > d.xml
	{ printf '\377\376\0\0'; enc UTF-32LE "<?xml version='1.0' encoding='UTF-32'?><a/>"; } > s.xml
	xs --json d.xml
	assert_output --partial '"encoding":"UTF-32LE","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-32LE","standalone":null}'
	assert_output --partial '"errors":0'
	xs --json s.xml
	assert_output --partial '"encoding":"UTF-32LE","source":"bom","bom":"UTF-32LE","declaration":{"kind":"xml","version":"1.0","encoding":"UTF-32","standalone":null}'
	assert_output --partial '"errors":0'
}

@test "declaration in EBCDIC (IBM037), double and single quotes" {
	need_iconv IBM037
	enc IBM037 '<?xml version="1.0" encoding="IBM037"?><a/>' > d.xml
	enc IBM037 "<?xml version='1.0' encoding='ebcdic-cp-us'?><a/>" > s.xml
	xs --json d.xml
	assert_output --partial '"encoding":"IBM037","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"IBM037","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs --json s.xml
	assert_output --partial '"encoding":"IBM037","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"ebcdic-cp-us","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "declaration in EBCDIC (IBM1047), content validated through iconv" {
	need_iconv IBM1047
	enc IBM1047 '<?xml version="1.0" encoding="IBM1047"?>\n<a>[\303\244\303\266]</a>\n' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"IBM1047","source":"declaration","bom":null'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "declaration: white space around = and before ?> is allowed" {
	put f.xml '<?xml  version = "1.0"\n\tencoding = '"'"'ISO-8859-1'"'"'  standalone="yes" ?><a/>'
	xs --json f.xml
	assert_success
	assert_output --partial '"declaration":{"kind":"xml","version":"1.0","encoding":"ISO-8859-1","standalone":"yes"}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "declaration: version 1.1 is read" {
	put f.xml '<?xml version="1.1" encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_success
	assert_output --partial '"declaration":{"kind":"xml","version":"1.1","encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

# --- XMLDecl and TextDecl ---------------------------------------------------

@test "a document's declaration is an XML declaration" {
	put f.xml '<?xml version="1.0" encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_success
	assert_output --partial '"source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl: a .ent file's declaration needs no version" {
	put f.ent '<?xml encoding="ISO-8859-1"?>caf\351 &amp; more'
	xs --json f.ent
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration","bom":null,"declaration":{"kind":"text","version":null,"encoding":"ISO-8859-1","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.ent
	assert_output 'f.ent: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "TextDecl: version and encoding together are allowed" {
	put f.ent '<?xml version="1.0" encoding="UTF-8"?>text'
	xs --json f.ent
	assert_success
	assert_output --partial '"declaration":{"kind":"text","version":"1.0","encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl: content starting with <!ENTITY makes it a text declaration" {
	put f.xml '<?xml encoding="UTF-8"?>\n<!ENTITY a "b">\n'
	xs --json f.xml
	assert_success
	assert_output --partial '"declaration":{"kind":"text","version":null,"encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl: a .dtd file's declaration is a text declaration" {
	put f.dtd '<?xml encoding="UTF-8"?><!ELEMENT a EMPTY>'
	xs --json f.dtd
	assert_success
	assert_output --partial '"declaration":{"kind":"text","version":null,"encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl: --content-type application/xml-external-parsed-entity" {
	put f.xml '<?xml encoding="UTF-8"?><a/>'
	xs --json --content-type application/xml-external-parsed-entity f.xml
	assert_success
	assert_output --partial '"declaration":{"kind":"text","version":null,"encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl: --content-type application/xml-dtd" {
	put f.xml '<?xml encoding="UTF-8"?><a/>'
	xs --json --content-type application/xml-dtd f.xml
	assert_success
	assert_output --partial '"declaration":{"kind":"text","version":null,"encoding":"UTF-8","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl: the same bytes as a document lack the version" {
	put f.xml '<?xml encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_output --partial '"declaration":{"kind":"xml","version":null,"encoding":"UTF-8","standalone":null}'
	assert_output --partial '"code":"bad-declaration"'
}

@test "TextDecl in UTF-16 with a BOM" {
	{ printf '\377\376'; enc UTF-16LE "<?xml encoding='UTF-16'?>text"; } > f.ent
	xs --json f.ent
	assert_success
	assert_output --partial '"encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE","declaration":{"kind":"text","version":null,"encoding":"UTF-16","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl in EBCDIC" {
	need_iconv IBM037
	enc IBM037 "<?xml encoding='IBM037'?>text" > f.ent
	xs --json f.ent
	assert_success
	assert_output --partial '"encoding":"IBM037","source":"declaration","bom":null,"declaration":{"kind":"text","version":null,"encoding":"IBM037","standalone":null}'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "TextDecl in UTF-32BE without a BOM" {
	enc UTF-32BE '<?xml encoding="UTF-32BE"?><!ELEMENT a EMPTY>' > f.dtd
	xs --json f.dtd
	assert_success
	assert_output --partial '"encoding":"UTF-32BE","source":"declaration","bom":null,"declaration":{"kind":"text","version":null,"encoding":"UTF-32BE","standalone":null}'
	assert_output --partial '"errors":0'
}

# --- Encoding names: IANA registered names, XML 1.0 section 4.3.3 -----------

@test "names: latin1 is reported as ISO-8859-1, the raw name kept" {
	put f.xml '<?xml version="1.0" encoding="latin1"?><a>caf\351</a>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration"'
	assert_output --partial '"encoding":"latin1","standalone":null'
	assert_output --partial '"errors":0,"warnings":0'
	xs f.xml
	assert_output 'f.xml: ISO-8859-1 (declaration), declared "latin1"'
	[ -z "$stderr" ]
}

@test "names: lookup is case-insensitive" {
	for n in LATIN1 Latin1 iso-8859-1 Iso-8859-1 ISO-8859-1; do
		put f.xml "<?xml version=\"1.0\" encoding=\"$n\"?><a/>"
		xs f.xml
		assert_success
		assert_output "f.xml: ISO-8859-1 (declaration), declared \"$n\""
		[ -z "$stderr" ]
	done
}

@test "names: MS_Kanji is reported as Shift_JIS" {
	enc SHIFT_JIS '<?xml version="1.0" encoding="MS_Kanji"?><a>\346\227\245\346\234\254</a>' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"Shift_JIS","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
	put g.xml '<?xml version="1.0" encoding="ms_kanji"?><a/>'
	xs g.xml
	assert_output 'g.xml: Shift_JIS (declaration), declared "ms_kanji"'
}

@test "names: csUTF8 is a registered alias of UTF-8" {
	put f.xml '<?xml version="1.0" encoding="csUTF8"?><a>\303\251</a>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-8","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "names: registered aliases give the preferred MIME name, without a warning" {
	while read -r alias want; do
		put f.xml "<?xml version=\"1.0\" encoding=\"$alias\"?><a/>"
		xs f.xml
		assert_success
		assert_output "f.xml: $want (declaration), declared \"$alias\""
		[ -z "$stderr" ] || fail "$alias: $stderr"
	done <<-'EOF'
		l1 ISO-8859-1
		csISOLatin1 ISO-8859-1
		ISO_8859-1 ISO-8859-1
		cp819 ISO-8859-1
		csShiftJIS Shift_JIS
		ANSI_X3.4-1968 US-ASCII
		us US-ASCII
		Extended_UNIX_Code_Packed_Format_for_Japanese EUC-JP
		csEUCPkdFmtJapanese EUC-JP
		csISO2022JP ISO-2022-JP
		Windows-1252 windows-1252
	EOF
}

@test "names: the charset parameter is looked up the same way" {
	put f.xml '<a>caf\351</a>'
	xs --json --content-type 'application/xml; charset=LATIN1' f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"charset"'
	assert_output --partial '"charset":"LATIN1"'
	refute_output --partial 'unregistered-name'
}

@test "names: a loose name (IBM-1141) is found, with an unregistered-name warning" {
	need_iconv IBM01141
	enc IBM1141 '<?xml version="1.0" encoding="IBM-1141"?><a>\303\244</a>' > f.xml
	[ "$(head4 f.xml)" = 4c6fa794 ]
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"IBM01141","source":"declaration"'
	assert_output --partial '"encoding":"IBM-1141","standalone":null'
	assert_output --partial '"severity":"warning","code":"unregistered-name","offset":30,"line":1,"column":31'
	assert_output --partial '"errors":0,"warnings":1'
	xs f.xml
	assert_output 'f.xml: IBM01141 (declaration), declared "IBM-1141", 1 warning'
	stderr_has 'IBM01141'
	stderr_has '[unregistered-name]'
}

@test "names: the registered IBM01141 draws no warning" {
	need_iconv IBM01141
	enc IBM1141 '<?xml version="1.0" encoding="IBM01141"?><a>\303\244</a>' > f.xml
	xs f.xml
	assert_success
	assert_output 'f.xml: IBM01141 (declaration), declared "IBM01141"'
	[ -z "$stderr" ]
}

@test "names: utf8 is found loosely as UTF-8, with an unregistered-name warning" {
	put f.xml '<?xml version="1.0" encoding="utf8"?><a/>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"UTF-8","source":"declaration"'
	assert_output --partial '"code":"unregistered-name"'
	xs f.xml
	assert_output 'f.xml: UTF-8 (declaration), declared "utf8", 1 warning'
	stderr_has '"UTF-8"'
}

@test "names: an unknown name is unsupported and unregistered" {
	put f.xml '<?xml version="1.0" encoding="no-such-encoding"?><a/>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"no-such-encoding","source":"declaration"'
	assert_output --partial '"severity":"error","code":"unsupported-encoding"'
	assert_output --partial '"severity":"warning","code":"unregistered-name"'
	xs f.xml
	assert_output 'f.xml: no-such-encoding (declaration), declared "no-such-encoding", 1 error, 1 warning'
}

@test "names: an unknown x- name is unsupported but draws no unregistered-name warning" {
	put f.xml '<?xml version="1.0" encoding="x-private-thing"?><a/>'
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"x-private-thing","source":"declaration"'
	assert_output --partial '"code":"unsupported-encoding"'
	refute_output --partial 'unregistered-name'
	xs f.xml
	assert_output 'f.xml: x-private-thing (declaration), declared "x-private-thing", 1 error'
}

# --- legacy encodings, validated through iconv ------------------------------

@test "legacy: ISO-8859-1 content is valid" {
	enc ISO-8859-1 '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>caf\303\251 \303\277</a>\n' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-8859-1","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "legacy: Shift_JIS content is valid" {
	enc SHIFT_JIS '<?xml version="1.0" encoding="Shift_JIS"?>\n<a>\346\227\245\346\234\254\350\252\236 \343\201\213\343\201\252 \357\275\261</a>\n' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"Shift_JIS","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "legacy: EUC-JP content is valid" {
	enc EUC-JP '<?xml version="1.0" encoding="EUC-JP"?>\n<a>\346\227\245\346\234\254\350\252\236 \343\201\213\343\201\252</a>\n' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"EUC-JP","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "legacy: ISO-2022-JP content is valid" {
	enc ISO-2022-JP '<?xml version="1.0" encoding="ISO-2022-JP"?>\n<a>\346\227\245\346\234\254\350\252\236 \343\201\213\343\201\252</a>\n' > f.xml
	grep -q "$(printf '\033\$B')" f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"ISO-2022-JP","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "legacy: windows-1252 content is valid" {
	enc WINDOWS-1252 '<?xml version="1.0" encoding="windows-1252"?>\n<a>\342\200\234caf\303\251\342\200\235 \342\202\254</a>\n' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"encoding":"windows-1252","source":"declaration"'
	assert_output --partial '"errors":0,"warnings":0'
}

@test "legacy: a byte windows-1252 leaves undefined is an illegal sequence" {
	put f.xml '<?xml version="1.0" encoding="windows-1252"?>\n<a>\201</a>'
	xs --json f.xml
	assert_success
	assert_output --partial '"code":"illegal-sequence","offset":49,"line":2,"column":4'
	xs f.xml
	assert_output 'f.xml: windows-1252 (declaration), declared "windows-1252", 1 error'
	stderr_has 'f.xml:2:4: error: '
}

@test "legacy: a Shift_JIS lead byte without a trail byte is an illegal sequence" {
	put f.xml '<?xml version="1.0" encoding="Shift_JIS"?>\n<a>\202\240\202</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":48,"line":2,"column":5'
}

@test "legacy: Shift_JIS cut inside a character at the end is a truncated sequence" {
	put f.xml '<?xml version="1.0" encoding="Shift_JIS"?>\n<a/>\202'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":47,"line":2,"column":5'
	assert_output --partial 'ends inside a character'
}

@test "legacy: an EUC-JP lead byte followed by ASCII is an illegal sequence" {
	put f.xml '<?xml version="1.0" encoding="EUC-JP"?>\n<a>\244\242\244A</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":45,"line":2,"column":5'
}

@test "legacy: an 8-bit byte in ISO-2022-JP is an illegal sequence" {
	put f.xml '<?xml version="1.0" encoding="ISO-2022-JP"?>\n<a>\033$B$"\033(B\244</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":56,"line":2,"column":5'
}

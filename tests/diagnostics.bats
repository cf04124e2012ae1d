#!/usr/bin/env bats
# Diagnostics: the consistency checks of XML 1.0 section 4.3.3 and RFC 7303
# sections 3.2 and 3.3, the validation against the Char production of XML 1.0
# section 2.2, and every code of DIAGNOSTICS in xmlsniff(1), each with a case
# that triggers it and a close case that must not; the stderr line format,
# offsets, lines and columns, counts, and --strict.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# stderr_line REGEX: some line of stderr matches the extended regex.
stderr_line() {
	local l
	for l in "${stderr_lines[@]}"; do
		[[ "$l" =~ $1 ]] && return 0
	done
	fail "no stderr line matches: $1
stderr: $stderr"
}

# has CODE / lacks CODE: the --json line of the last run has a diagnostic
# with that code, or none.
has() {
	assert_output --partial "\"code\":\"$1\""
}

lacks() {
	refute_output --partial "\"code\":\"$1\""
}

CT_LATIN1='application/xml; charset=iso-8859-1'

# --- the line format --------------------------------------------------------

@test "format: an error is FILE:LINE:COLUMN: error: MESSAGE [code] on stderr" {
	put bad.xml '<a>\n<b/>\n\303\251abc\377</a>\n'
	xs bad.xml
	assert_success
	assert_output 'bad.xml: UTF-8 (default), no declaration, 1 error'
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" =~ ^bad\.xml:3:5:\ error:\ .+\ \[illegal-sequence\]$ ]] ||
	    fail "stderr: $stderr"
}

@test "format: a warning is FILE:LINE:COLUMN: warning: MESSAGE [code]" {
	put w.xml '\357\273\277<a/>'
	xs w.xml
	assert_success
	assert_output 'w.xml: UTF-8 (BOM), no declaration, 1 warning'
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" =~ ^w\.xml:1:1:\ warning:\ .+\ \[utf8-bom\]$ ]] ||
	    fail "stderr: $stderr"
}

@test "format: a clean file prints nothing on stderr" {
	put ok.xml '<?xml version="1.0" encoding="UTF-8"?>\n<a>\303\251</a>\n'
	xs ok.xml
	assert_success
	assert_output 'ok.xml: UTF-8 (declaration), declared "UTF-8"'
	[ -z "$stderr" ]
}

@test "format: every diagnostic line carries its severity" {
	put f.xml '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a/>'
	xs f.xml
	stderr_line '^f\.xml:1:1: warning: .* \[utf8-bom\]$'
	stderr_line '^f\.xml:1:31: error: .* \[decl-mismatch\]$'
}

@test "json: severity, code, 0-based offset, 1-based line and column, count" {
	put bad.xml '<a>\n<b/>\n\303\251abc\377</a>\n'
	xs --json bad.xml
	assert_success
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":14,"line":3,"column":5,"count":1,"message":"'
}

@test "json: offsets count the BOM, columns do not" {
	put bad.xml '\357\273\277<a>\n<b/>\n\303\251abc\377</a>\n'
	xs --json bad.xml
	assert_output --partial '"code":"illegal-sequence","offset":17,"line":3,"column":5,"count":1'
	assert_output --partial '"code":"utf8-bom","offset":0,"line":1,"column":1'
}

@test "json: in UTF-16 offsets are bytes, columns are characters" {
	{ printf '\377\376'; enc UTF-16LE '<a>\n\n\360\237\230\200bc'; printf '\000\334'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":20,"line":3,"column":4,"count":1'
}

@test "json: CR LF is one line end, a lone CR is one too" {
	put crlf.xml '<a>\r\n<b/>\r\n\377</a>'
	put cr.xml '<a>\r<b/>\r\377</a>'
	xs --json crlf.xml
	assert_output --partial '"code":"illegal-sequence","offset":11,"line":3,"column":1'
	xs --json cr.xml
	assert_output --partial '"code":"illegal-sequence","offset":9,"line":3,"column":1'
}

@test "count: a code is reported once, with the number of occurrences" {
	put f.xml '<a>\377x\377y\377</a>'
	xs --json f.xml
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":3,"line":1,"column":4,"count":3,'
	xs f.xml
	[ "${#stderr_lines[@]}" -eq 1 ]
	stderr_line '^f\.xml:1:4: error: .*3 times.* \[illegal-sequence\]$'
}

@test "count: ten thousand bad bytes make one line" {
	{ printf '<a>'; head -c 10000 /dev/zero | tr '\0' '\377'; printf '</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":10000,'
	xs f.xml
	assert_success
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "validation goes on after an error and finds later codes" {
	put f.xml '<a>\377</a>\n<b>\001</b>\n<c>\357\277\276</c>\n<d>\303</d>'
	xs --json f.xml
	assert_success
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":2,'
	assert_output --partial '"code":"illegal-char","offset":12,"line":2,"column":4,"count":2,'
	assert_output --partial '"errors":2'
	xs f.xml
	assert_output 'f.xml: UTF-8 (default), no declaration, 2 errors'
	stderr_line '^f\.xml:1:4: error: .* \[illegal-sequence\]$'
	stderr_line '^f\.xml:2:4: error: .* \[illegal-char\]$'
}

@test "an error in one input does not stop the next" {
	put bad.xml '<a>\377</a>'
	put good.xml '<a/>'
	xs bad.xml good.xml
	assert_success
	assert_line --index 0 'bad.xml: UTF-8 (default), no declaration, 1 error'
	assert_line --index 1 'good.xml: UTF-8 (default), no declaration'
	[ "${#stderr_lines[@]}" -eq 1 ]
	stderr_has 'bad.xml:1:4: error:'
}

@test "each input has its own diagnostics and counts" {
	put a.xml '<a>\377\377</a>'
	put b.xml '<b>\377</b>'
	xs --json a.xml b.xml
	assert_line --index 0 --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":2,'
	assert_line --index 1 --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":1,'
}

# --- --strict ---------------------------------------------------------------

@test "--strict: an error makes exit status 1" {
	put f.xml '<a>\377</a>'
	xs --strict f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error'
	stderr_has '[illegal-sequence]'
}

@test "--strict: warnings only leave exit status 0" {
	put f.xml '\357\273\277<a/>'
	xs --strict --content-type text/plain f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (BOM), no declaration, 2 warnings'
	stderr_has '[utf8-bom]'
	stderr_has '[not-xml-media-type]'
}

@test "--strict: a clean file exits 0" {
	put f.xml '<a/>'
	xs --strict f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "without --strict an error leaves exit status 0" {
	put f.xml '<a>\000</a>'
	xs f.xml
	assert_success
	stderr_has '[illegal-char]'
}

@test "--strict: one bad input among good ones makes exit status 1, all reported" {
	put a.xml '<a/>'
	put b.xml '<b>\377</b>'
	put c.xml '<c/>'
	xs --strict a.xml b.xml c.xml
	assert_failure 1
	assert_line --index 0 'a.xml: UTF-8 (default), no declaration'
	assert_line --index 1 'b.xml: UTF-8 (default), no declaration, 1 error'
	assert_line --index 2 'c.xml: UTF-8 (default), no declaration'
}

# --- decl-mismatch ----------------------------------------------------------

@test "decl-mismatch: a UTF-8 BOM declared Shift_JIS" {
	put f.xml '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a/>'
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"decl-mismatch","offset":33,"line":1,"column":31,"count":1'
	xs f.xml
	stderr_line '^f\.xml:1:31: error: .*Shift_JIS.* \[decl-mismatch\]$'
}

@test "decl-mismatch: a UTF-16LE BOM declared ISO-8859-1" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"decl-mismatch","offset":62,"line":1,"column":31'
}

@test "decl-mismatch: a UTF-16 BOM and a declaration of ISO-8859-1 with a charset is only the conflict" {
	# This test asserted decl-mismatch beside the conflict; XML 1.0
	# section 4.3.3 makes the mismatch fatal only without external
	# information (issue 29, item 10): the charset and the declaration
	# disagree, a warning, and nothing else.
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'; } > f.xml
	xs --json --content-type 'application/xml; charset=utf-16' f.xml
	assert_output --partial '"errors":0,"warnings":1'
	refute_output --partial '"code":"decl-mismatch"'
	assert_output --partial '"severity":"warning","code":"charset-decl-conflict","offset":62,"line":1,"column":31'
}

@test "decl-mismatch: a 16-bit pattern declared ISO-8859-1" {
	enc UTF-16BE '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"decl-mismatch","offset":60,"line":1,"column":31'
}

@test "decl-mismatch: a little-endian pattern declared UTF-16BE" {
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16BE"?><a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"decl-mismatch","offset":60,"line":1,"column":31'
}

@test "decl-mismatch: ASCII bytes declared UTF-16" {
	put f.xml '<?xml version="1.0" encoding="UTF-16"?><a/>'
	xs --json f.xml
	has decl-mismatch
}

@test "decl-mismatch: EBCDIC bytes declared ISO-8859-1" {
	enc IBM037 '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > f.xml
	xs --json f.xml
	has decl-mismatch
}

@test "no decl-mismatch: BOM and declaration agree" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > a.xml
	put b.xml '\357\273\277<?xml version="1.0" encoding="utf-8"?><a/>'
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' > c.xml
	for f in a.xml b.xml c.xml; do
		xs --json "$f"
		lacks decl-mismatch
		assert_output --partial '"errors":0'
	done
}

# --- bom-charset-conflict ---------------------------------------------------

@test "bom-charset-conflict: a UTF-16LE BOM served as iso-8859-1" {
	{ printf '\377\376'; enc UTF-16LE '<a/>'; } > f.xml
	xs --json --content-type "$CT_LATIN1" f.xml
	assert_output --partial '"severity":"error","code":"bom-charset-conflict","offset":0,"line":1,"column":1,"count":1'
	xs --content-type "$CT_LATIN1" f.xml
	stderr_line '^f\.xml:1:1: error: .* \[bom-charset-conflict\]$'
}

@test "bom-charset-conflict: a UTF-8 BOM served as utf-16" {
	put f.xml '\357\273\277<a/>'
	xs --json --content-type 'application/xml; charset=utf-16' f.xml
	has bom-charset-conflict
}

@test "no bom-charset-conflict: the charset matches the BOM" {
	{ printf '\377\376'; enc UTF-16LE '<a/>'; } > a.xml
	put b.xml '\357\273\277<a/>'
	xs --json --content-type 'application/xml; charset=UTF-16' a.xml
	lacks bom-charset-conflict
	assert_output --partial '"errors":0'
	xs --json --content-type 'application/xml; charset=utf-8' b.xml
	lacks bom-charset-conflict
	assert_output --partial '"errors":0'
}

# --- bom-forbidden ----------------------------------------------------------

@test "bom-forbidden: charset=utf-16le yet a BOM" {
	{ printf '\377\376'; enc UTF-16LE '<a/>'; } > f.xml
	xs --json --content-type 'application/xml; charset=utf-16le' f.xml
	assert_output --partial '"severity":"error","code":"bom-forbidden","offset":0,"line":1,"column":1'
	lacks bom-charset-conflict
}

@test "bom-forbidden: declared UTF-16BE yet a BOM" {
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16BE"?><a/>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"bom-forbidden","offset":62,"line":1,"column":31'
	lacks decl-mismatch
}

@test "bom-forbidden: declared UTF-32LE yet a BOM" {
	{ printf '\377\376\0\0'; enc UTF-32LE '<?xml version="1.0" encoding="UTF-32LE"?><a/>'; } > f.xml
	xs --json f.xml
	has bom-forbidden
}

@test "no bom-forbidden: utf-16 with a BOM, utf-16le without one" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > a.xml
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' > b.xml
	xs --json --content-type 'application/xml; charset=utf-16' a.xml
	lacks bom-forbidden
	xs --json --content-type 'application/xml; charset=utf-16le' b.xml
	lacks bom-forbidden
	assert_output --partial '"errors":0'
}

# --- bom-missing ------------------------------------------------------------

@test "bom-missing: declared UTF-16 without a BOM" {
	enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"encoding":"UTF-16BE","source":"declaration"'
	assert_output --partial '"severity":"error","code":"bom-missing"'
	lacks no-declaration
}

@test "bom-missing: charset=utf-16 without a BOM" {
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>' > f.xml
	xs --json --content-type 'application/xml; charset=utf-16' f.xml
	assert_output --partial '"encoding":"UTF-16LE","source":"charset"'
	has bom-missing
}

@test "bom-missing: unlabelled 16-bit bytes" {
	enc UTF-16LE '<?xml version="1.0"?><a/>' > f.xml
	xs --json f.xml
	has bom-missing
}

@test "no bom-missing: UTF-16 with a BOM, or labelled with a byte order" {
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > a.xml
	enc UTF-16BE '<?xml version="1.0" encoding="UTF-16BE"?><a/>' > b.xml
	for f in a.xml b.xml; do
		xs --json "$f"
		lacks bom-missing
		assert_output --partial '"errors":0'
	done
}

# --- bad-declaration --------------------------------------------------------

@test "bad-declaration: a document's declaration without version" {
	put f.xml '<?xml encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"bad-declaration","offset":0,"line":1,"column":1'
	xs f.xml
	stderr_line '^f\.xml:1:1: error: .*version.* \[bad-declaration\]$'
}

@test "bad-declaration: encoding before version" {
	put f.xml '<?xml encoding="UTF-8" version="1.0"?><a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: standalone before encoding" {
	put f.xml '<?xml version="1.0" standalone="yes" encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":37,"line":1,"column":38'
}

@test "bad-declaration: standalone in a text declaration" {
	put f.ent '<?xml encoding="UTF-8" standalone="yes"?>text'
	xs --json f.ent
	has bad-declaration
	assert_output --partial '"kind":"text"'
	xs f.ent
	stderr_line '^f\.ent:1:[0-9]+: error: .*standalone.* \[bad-declaration\]$'
}

@test "bad-declaration: a text declaration without encoding" {
	put f.ent '<?xml version="1.0"?>text'
	xs --json f.ent
	has bad-declaration
	assert_output --partial '"kind":"text"'
}

@test "bad-declaration: an unclosed quote" {
	put f.xml '<?xml version="1.0" encoding="UTF-8?><a/>'
	xs --json f.xml
	has bad-declaration
	assert_output --partial '"source":"default"'
}

@test "bad-declaration: mismatched quotes" {
	put f.xml '<?xml version="1.0" encoding="UTF-8'"'"'?><a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: an unquoted value" {
	put f.xml '<?xml version="1.0" encoding=UTF-8?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":29,"line":1,"column":30'
}

@test "bad-declaration: ?> missing at the end of the file" {
	put f.xml '<?xml version="1.0" encoding="UTF-8"'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":36,"line":1,"column":37'
	xs f.xml
	assert_success
}

@test "bad-declaration: ?> missing before the content" {
	put f.xml '<?xml version="1.0" encoding="UTF-8" <a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: EncName with a space, encoding=\"UTF 8\"" {
	put f.xml '<?xml version="1.0" encoding="UTF 8"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":30,"line":1,"column":31'
	assert_output --partial 'EncName'
	lacks unsupported-encoding
}

@test "bad-declaration: EncName starting with a digit, encoding=\"8bit\"" {
	put f.xml '<?xml version="1.0" encoding="8bit"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":30,"line":1,"column":31'
}

@test "bad-declaration: an empty encoding name" {
	put f.xml '<?xml version="1.0" encoding=""?><a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: version=\"2.0\"" {
	put f.xml '<?xml version="2.0"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":15,"line":1,"column":16'
}

@test "bad-declaration: an unknown pseudo-attribute" {
	put f.xml '<?xml version="1.0" charset="UTF-8"?><a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: standalone=\"maybe\"" {
	put f.xml '<?xml version="1.0" standalone="maybe"?><a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: no white space between pseudo-attributes" {
	put f.xml '<?xml version="1.0"encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"bad-declaration","offset":19,"line":1,"column":20'
}

@test "bad-declaration: encoding given twice" {
	put f.xml '<?xml version="1.0" encoding="UTF-8" encoding="UTF-8"?><a/>'
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: a declaration in UTF-16 is checked the same way" {
	{ printf '\377\376'; enc UTF-16LE '<?xml encoding="UTF-16" version="1.0"?><a/>'; } > f.xml
	xs --json f.xml
	has bad-declaration
}

@test "bad-declaration: uppercase <?XML is not a declaration, and is an error" {
	put f.xml '<?XML version="1.0" encoding="ISO-8859-1"?><a/>'
	xs --json f.xml
	assert_output --partial '"encoding":"UTF-8","source":"default","bom":null,"declaration":null'
	has bad-declaration
	xs --strict f.xml
	assert_failure 1
}

@test "no bad-declaration: well-formed declarations of every shape" {
	put a.xml '<?xml version="1.0"?><a/>'
	put b.xml "<?xml version='1.0' encoding='UTF-8' standalone='yes'?><a/>"
	put c.xml '<?xml version = "1.1"  encoding = "UTF-8"\n?><a/>'
	put d.ent '<?xml encoding="UTF-8"?>text'
	put e.xml '<?xml-stylesheet href="s.css"?><a/>'
	for f in a.xml b.xml c.xml d.ent e.xml; do
		xs --json "$f"
		assert_success
		lacks bad-declaration
		assert_output --partial '"errors":0,"warnings":0'
	done
	put g.xml '<?xml version="1.0" encoding="Shift_JIS.x-_9"?><a/>'
	xs --json g.xml
	lacks bad-declaration
	assert_output --partial '"encoding":"Shift_JIS.x-_9","standalone":null'
}

# --- decl-not-at-start ------------------------------------------------------

@test "decl-not-at-start: a space before <?xml" {
	put f.xml ' <?xml version="1.0" encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"decl-not-at-start","offset":1,"line":1,"column":2'
}

@test "decl-not-at-start: an empty line before <?xml" {
	put f.xml '\n<?xml version="1.0"?><a/>'
	xs f.xml
	stderr_line '^f\.xml:2:1: error: .* \[decl-not-at-start\]$'
}

@test "decl-not-at-start: a comment before <?xml" {
	put f.xml '<!-- c --><?xml version="1.0"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"decl-not-at-start","offset":10,"line":1,"column":11'
}

@test "decl-not-at-start: a processing instruction before <?xml" {
	put f.xml '<?xml-stylesheet href="s.css"?><?xml version="1.0"?><a/>'
	xs --json f.xml
	has decl-not-at-start
}

@test "decl-not-at-start: a second U+FEFF after a UTF-8 BOM" {
	put f.xml '\357\273\277\357\273\277<?xml version="1.0"?><a/>'
	xs --json f.xml
	assert_output --partial '"code":"decl-not-at-start","offset":6,"line":1,"column":2'
}

@test "decl-not-at-start: a second U+FEFF after a UTF-16 BOM" {
	{ printf '\377\376\377\376'; enc UTF-16LE '<?xml version="1.0"?><a/>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"decl-not-at-start","offset":4,"line":1,"column":2'
}

@test "decl-not-at-start: other text before <?xml" {
	put f.xml 'x<?xml version="1.0" encoding="ISO-8859-1"?><a/>'
	xs --json f.xml
	has decl-not-at-start
}

@test "no decl-not-at-start: a U+FEFF after the BOM in an entity without declaration" {
	# In an external parsed entity it is content; in a document's prolog
	# it is bom-in-prolog (tests/spec.bats).
	put a.ent '\357\273\277\357\273\277<a/>'
	{ printf '\377\376\377\376'; enc UTF-16LE '<a/>'; } > b.ent
	xs --json a.ent
	lacks decl-not-at-start
	assert_output --partial '"errors":0'
	xs --json b.ent
	lacks decl-not-at-start
	assert_output --partial '"errors":0'
}

@test "no decl-not-at-start: <?xml right after the BOM" {
	put f.xml '\357\273\277<?xml version="1.0"?><a/>'
	xs --json f.xml
	lacks decl-not-at-start
	assert_output --partial '"errors":0'
}

# --- illegal-sequence: UTF-8 ------------------------------------------------

@test "illegal-sequence: overlong C0 80" {
	put f.xml '<a>\300\200</a>'
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"illegal-sequence","offset":3,"line":1,"column":4'
	lacks illegal-char
}

@test "illegal-sequence: overlong E0 80 80" {
	put f.xml '<a>\340\200\200</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4'
}

@test "illegal-sequence: overlong F0 80 80 80" {
	put f.xml '<a>\360\200\200\200</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4'
}

@test "illegal-sequence: the encoded surrogate ED A0 80" {
	put f.xml '<a>\355\240\200</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4'
}

@test "illegal-sequence: F4 90 80 80, beyond U+10FFFF" {
	put f.xml '<a>\364\220\200\200</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4'
}

@test "illegal-sequence: 5-byte and 6-byte forms" {
	put five.xml '<a>\370\210\200\200\200</a>'
	put six.xml '<a>\374\204\200\200\200\200</a>'
	for f in five.xml six.xml; do
		xs --json "$f"
		assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4'
	done
}

@test "illegal-sequence: a sequence cut by the end of the file" {
	put f.xml '<a>x</a>\342\202'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":8,"line":1,"column":9,"count":1'
	assert_output --partial 'ends inside a character'
}

@test "illegal-sequence: the message names every byte of a cut sequence" {
	put f.xml '<a>x</a>\342\202'
	xs f.xml
	stderr_has 'E2 82'
}

@test "illegal-sequence: lone continuation bytes" {
	put f.xml '<a>\200 \277</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":2'
}

@test "illegal-sequence: a lead byte followed by ASCII" {
	put f.xml '<a>\303x</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":3,"line":1,"column":4,"count":1'
}

@test "no illegal-sequence: the longest and the highest legal UTF-8" {
	put f.xml '<a>\302\200 \337\277 \340\240\200 \355\237\277 \356\200\200 \360\220\200\200 \364\217\277\275</a>'
	xs --json f.xml
	lacks illegal-sequence
	assert_output --partial '"errors":0'
}

# --- illegal-sequence: UTF-16 and UTF-32 ------------------------------------

@test "illegal-sequence: a lone high surrogate in UTF-16" {
	{ printf '\377\376'; enc UTF-16LE '<a>'; printf '\000\330'; enc UTF-16LE 'x</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":8,"line":1,"column":4,"count":1'
}

@test "illegal-sequence: the message shows both bytes of a bad UTF-16 unit" {
	{ printf '\377\376'; enc UTF-16LE '<a>'; printf '\000\330'; enc UTF-16LE 'x</a>'; } > f.xml
	xs f.xml
	stderr_has '00 D8'
}

@test "illegal-sequence: a lone low surrogate in UTF-16" {
	{ printf '\376\377'; enc UTF-16BE '<a>'; printf '\334\000'; enc UTF-16BE 'x</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":8,"line":1,"column":4,"count":1'
}

@test "illegal-sequence: a surrogate pair in reverse order" {
	{ printf '\377\376'; enc UTF-16LE '<a>'; printf '\000\334\000\330'; enc UTF-16LE '</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":8,"line":1,"column":4'
}

@test "illegal-sequence: an odd trailing byte in UTF-16" {
	{ printf '\377\376'; enc UTF-16LE '<a/>'; printf '\n'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":10,"line":1,"column":5'
}

@test "no illegal-sequence: a surrogate pair in the right order" {
	{ printf '\377\376'; enc UTF-16LE '<a>\360\237\230\200</a>'; } > f.xml
	xs --json f.xml
	lacks illegal-sequence
	assert_output --partial '"errors":0'
}

@test "illegal-sequence: a surrogate value in UTF-32" {
	{ printf '\0\0\376\377'; enc UTF-32BE '<a>'; printf '\0\0\330\0'; enc UTF-32BE '</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":16,"line":1,"column":4'
}

@test "illegal-sequence: a value beyond 10FFFF in UTF-32" {
	{ printf '\377\376\0\0'; enc UTF-32LE '<a>'; printf '\0\0\021\0'; enc UTF-32LE '</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":16,"line":1,"column":4'
}

@test "no illegal-sequence: U+10FFFF in UTF-32 is legal" {
	{ printf '\377\376\0\0'; enc UTF-32LE '<a>\364\217\277\275</a>'; } > f.xml
	xs --json f.xml
	lacks illegal-sequence
	lacks illegal-char
	assert_output --partial '"encoding":"UTF-32LE","source":"bom"'
	assert_output --partial '"errors":0'
}

# --- illegal-char -----------------------------------------------------------

@test "illegal-char: NUL" {
	put f.xml '<a>\000</a>'
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"illegal-char","offset":3,"line":1,"column":4,"count":1'
	lacks illegal-sequence
}

@test "illegal-char: U+FFFE" {
	put f.xml '<a>\357\277\276</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-char","offset":3,"line":1,"column":4'
	assert_output --partial 'U+FFFE'
}

@test "illegal-char: U+FFFF" {
	put f.xml '<a>\357\277\277</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-char","offset":3,"line":1,"column":4'
	assert_output --partial 'U+FFFF'
}

@test "illegal-char: C0 controls" {
	put f.xml '<a>\001\010\013\014\016\037</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-char","offset":3,"line":1,"column":4,"count":6'
}

@test "illegal-char: U+FFFE in UTF-16" {
	{ printf '\376\377'; enc UTF-16BE '<a>\357\277\276</a>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"illegal-char","offset":8,"line":1,"column":4'
}

@test "illegal-char: NUL in ISO-8859-1 (through iconv)" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\000</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-char","offset":46,"line":1,"column":47'
}

@test "no illegal-char: TAB, CR, LF, DEL, C1 and the edges of Char in XML 1.0" {
	put f.xml '<a>\t\r\n \177 \302\205 \302\237 \355\237\277 \356\200\200 \357\277\275 \360\220\200\200</a>'
	xs --json f.xml
	lacks illegal-char
	assert_output --partial '"errors":0'
}

@test "XML 1.1: a RestrictedChar such as U+0001 is an error" {
	put f.xml '<?xml version="1.1"?><a>\001</a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-char","offset":24,"line":1,"column":25'
	assert_output --partial 'RestrictedChar'
}

@test "XML 1.1: DEL and C1 controls other than NEL are errors" {
	put a.xml '<?xml version="1.1"?><a>\177</a>'
	put b.xml '<?xml version="1.1"?><a>\302\206</a>'
	for f in a.xml b.xml; do
		xs --json "$f"
		assert_output --partial '"code":"illegal-char","offset":24,"line":1,"column":25'
	done
}

@test "XML 1.1: NEL is a line end" {
	put f.xml '<?xml version="1.1"?><a>\302\205<b>\377</b></a>'
	xs --json f.xml
	lacks illegal-char
	assert_output --partial '"code":"illegal-sequence","offset":29,"line":2,"column":4'
}

@test "XML 1.1: LINE SEPARATOR is a line end" {
	put f.xml '<?xml version="1.1"?><a>\342\200\250<b>\377</b></a>'
	xs --json f.xml
	assert_output --partial '"code":"illegal-sequence","offset":30,"line":2,"column":4'
}

@test "XML 1.0: NEL is an ordinary character, not a line end" {
	put f.xml '<?xml version="1.0"?><a>\302\205<b>\377</b></a>'
	xs --json f.xml
	lacks illegal-char
	assert_output --partial '"code":"illegal-sequence","offset":29,"line":1,"column":29'
}

@test "XML 1.1: NUL is still an error" {
	put f.xml '<?xml version="1.1"?><a>\000</a>'
	xs --json f.xml
	has illegal-char
}

# --- unsupported-encoding ---------------------------------------------------

@test "unsupported-encoding: an unknown declared name" {
	put f.xml '<?xml version="1.0" encoding="no-such-encoding"?><a/>'
	xs --json f.xml
	assert_output --partial '"severity":"error","code":"unsupported-encoding","offset":30,"line":1,"column":31'
}

@test "unsupported-encoding: an unknown charset" {
	put f.xml '<a/>'
	xs --json --content-type 'application/xml; charset=no-such-thing' f.xml
	assert_output --partial '"severity":"error","code":"unsupported-encoding"'
}

@test "unsupported-encoding stands alone: no verdict on bytes an unknown declared name was not decoded in" {
	put f.xml '<?xml version="1.0" encoding="x-foo"?><a>\351\000</a>'
	xs f.xml
	assert_success
	assert_output 'f.xml: x-foo (declaration), declared "x-foo", 1 error'
	assert_equal "$stderr" 'f.xml:1:31: error: declared encoding "x-foo" is not one that the IANA registry or this system'"'"'s iconv knows; declare a registered name [unsupported-encoding]'
	xs --strict --ignore=unsupported-encoding f.xml
	assert_success
	assert_output 'f.xml: x-foo (declaration), declared "x-foo"'
	[ -z "$stderr" ]
}

@test "unsupported-encoding stands alone: an unknown charset, every format" {
	put f.xml '<a>\351</a>'
	xs --json --content-type 'application/xml; charset=x-bogus' f.xml
	assert_output --partial '"errors":1,"warnings":0,'
	assert_output --partial '"code":"unsupported-encoding"'
	lacks illegal-sequence
	xs --format=github --content-type 'application/xml; charset=x-bogus' f.xml
	[ "$(printf '%s\n' "$output" | grep -c '::error')" = 1 ]
	xs --strict --ignore=unsupported-encoding --content-type 'application/xml; charset=x-bogus' f.xml
	assert_success
}

@test "unsupported-encoding: a registered name this iconv cannot decode" {
	put f.xml '<?xml version="1.0" encoding="ISO-10646-UTF-1"?><a/>'
	xs --json f.xml
	has unsupported-encoding
	lacks unregistered-name
}

@test "unsupported-encoding: UCS-4 octet order 2143" {
	{ printf '\0\0\377\376'; enc UTF-32BE '<a/>' | dd conv=swab status=none; } > f.xml
	xs --json f.xml
	has unsupported-encoding
	lacks illegal-sequence
}

@test "no unsupported-encoding: names this system decodes" {
	for n in ISO-8859-1 Shift_JIS EUC-JP ISO-2022-JP windows-1252 KOI8-R; do
		put f.xml "<?xml version=\"1.0\" encoding=\"$n\"?><a/>"
		xs --json f.xml
		lacks unsupported-encoding
		assert_output --partial '"errors":0'
	done
}

# --- no-declaration ---------------------------------------------------------

@test "no-declaration: 16-bit bytes without BOM or encoding declaration" {
	enc UTF-16LE '<?xml version="1.0"?><a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"source":"sniffed"'
	assert_output --partial '"severity":"error","code":"no-declaration","offset":0,"line":1,"column":1'
}

@test "no-declaration: 32-bit bytes without BOM or declaration" {
	enc UTF-32BE '<a/>' > f.xml
	xs --json f.xml
	has no-declaration
}

@test "no no-declaration: the same 16-bit bytes with a BOM or a declared encoding" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0"?><a/>'; } > a.xml
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' > b.xml
	for f in a.xml b.xml; do
		xs --json "$f"
		lacks no-declaration
		assert_output --partial '"errors":0'
	done
}

# --- charset-decl-conflict --------------------------------------------------

@test "charset-decl-conflict: charset windows-1252, declared ISO-8859-1" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'
	xs --json --content-type 'application/xml; charset=windows-1252' f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"charset-decl-conflict","offset":30,"line":1,"column":31'
	xs --strict --content-type 'application/xml; charset=windows-1252' f.xml
	assert_success
	stderr_line '^f\.xml:1:31: warning: .* \[charset-decl-conflict\]$'
}

@test "no charset-decl-conflict: two names of the same encoding" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'
	xs --json --content-type 'application/xml; charset=latin1' f.xml
	lacks charset-decl-conflict
	put g.xml '<?xml version="1.0" encoding="UTF-8"?><a/>'
	xs --json --content-type 'application/xml; charset=utf-8' g.xml
	lacks charset-decl-conflict
	assert_output --partial '"errors":0,"warnings":0'
}

# --- utf8-bom ---------------------------------------------------------------

@test "utf8-bom: UTF-8 with a BOM" {
	put f.xml '\357\273\277<?xml version="1.0" encoding="UTF-8"?><a/>'
	xs --json f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"utf8-bom","offset":0,"line":1,"column":1,"count":1'
}

@test "no utf8-bom: UTF-8 without a BOM, UTF-16 with one" {
	put a.xml '<?xml version="1.0" encoding="UTF-8"?><a/>'
	{ printf '\377\376'; enc UTF-16LE '<a/>'; } > b.xml
	for f in a.xml b.xml; do
		xs --json "$f"
		lacks utf8-bom
		assert_output --partial '"errors":0,"warnings":0'
	done
}

# --- utf32 ------------------------------------------------------------------

@test "utf32: UTF-32 with a BOM" {
	{ printf '\0\0\376\377'; enc UTF-32BE '<?xml version="1.0" encoding="UTF-32"?><a/>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"utf32"'
}

@test "utf32: UTF-32 named by the charset" {
	enc UTF-32LE '<?xml version="1.0" encoding="UTF-32LE"?><a/>' > f.xml
	xs --json --content-type 'application/xml; charset=utf-32le' f.xml
	has utf32
}

@test "no utf32: UTF-16" {
	{ printf '\376\377'; enc UTF-16BE '<a/>'; } > f.xml
	xs --json f.xml
	lacks utf32
	assert_output --partial '"errors":0,"warnings":0'
}

# --- missing-decl -----------------------------------------------------------

@test "missing-decl: an ISO-8859-1 entity that relies on the charset alone" {
	put f.xml '<a>caf\351</a>'
	xs --json --content-type "$CT_LATIN1" f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"missing-decl"'
}

@test "missing-decl: a declaration without encoding, labelled only by charset" {
	put f.xml '<?xml version="1.0"?><a>caf\351</a>'
	xs --json --content-type "$CT_LATIN1" f.xml
	has missing-decl
}

@test "missing-decl: charset=utf-16le without a declaration" {
	enc UTF-16LE '<a/>' > f.xml
	xs --json --content-type 'application/xml; charset=utf-16le' f.xml
	has missing-decl
}

@test "missing-decl: UTF-32 with a BOM but no declaration" {
	{ printf '\377\376\0\0'; enc UTF-32LE '<a/>'; } > f.xml
	xs --json f.xml
	has missing-decl
}

@test "no missing-decl: UTF-8, UTF-16 with a BOM, or a declared encoding" {
	put a.xml '<a>\303\251</a>'
	{ printf '\377\376'; enc UTF-16LE '<a/>'; } > b.xml
	put c.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' > d.xml
	for f in a.xml b.xml; do
		xs --json "$f"
		lacks missing-decl
		assert_output --partial '"errors":0,"warnings":0'
	done
	xs --json --content-type "$CT_LATIN1" c.xml
	lacks missing-decl
	xs --json --content-type 'application/xml; charset=utf-16le' d.xml
	lacks missing-decl
	assert_output --partial '"errors":0,"warnings":0'
}

# --- unregistered-name ------------------------------------------------------

@test "unregistered-name: a declared name outside the registry" {
	put f.xml '<?xml version="1.0" encoding="utf8"?><a/>'
	xs --json f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"unregistered-name","offset":30,"line":1,"column":31'
}

@test "unregistered-name: a charset outside the registry" {
	put f.xml '<a/>'
	xs --json --content-type 'application/xml; charset=utf8' f.xml
	has unregistered-name
}

@test "no unregistered-name: registered names and x- names" {
	put a.xml '<?xml version="1.0" encoding="latin1"?><a/>'
	put b.xml '<?xml version="1.0" encoding="x-private"?><a/>'
	for f in a.xml b.xml; do
		xs --json "$f"
		assert_success
		assert_output --partial '"source":"declaration"'
		lacks unregistered-name
	done
	xs --json --content-type 'application/xml; charset=UTF-8' a.xml
	assert_output --partial '"source":"charset"'
	lacks unregistered-name
}

# --- not-xml-media-type -----------------------------------------------------

@test "not-xml-media-type: text/plain and application/json" {
	put f.xml '<a/>'
	for t in text/plain 'application/json; charset=utf-8' application/xml+json; do
		xs --json --content-type "$t" f.xml
		assert_output --partial '"errors":0,"warnings":1'
		assert_output --partial '"severity":"warning","code":"not-xml-media-type","offset":0,"line":1,"column":1'
	done
}

@test "no not-xml-media-type: the XML types and +xml" {
	put f.xml '<a/>'
	for t in application/xml text/xml Application/XML application/atom+xml \
	    image/svg+xml application/xml-dtd \
	    application/xml-external-parsed-entity \
	    text/xml-external-parsed-entity; do
		xs --json --content-type "$t" f.xml
		assert_success
		lacks not-xml-media-type
		assert_output --partial '"errors":0,"warnings":0'
	done
}

# --- suspicious-label -------------------------------------------------------

@test "suspicious-label: ISO-8859-1 label on valid multi-byte UTF-8" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\303\251 na\303\257ve</a>'
	xs --json f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"suspicious-label","offset":49,"line":1,"column":50'
	assert_output --partial 'UTF-8'
}

@test "suspicious-label: C1 control bytes under ISO-8859-1" {
	put f.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\223quoted\224</a>'
	xs --json f.xml
	assert_output --partial '"errors":0,"warnings":1'
	assert_output --partial '"severity":"warning","code":"suspicious-label","offset":46,"line":1,"column":47,"count":2'
}

@test "suspicious-label: a 16-bit zero pattern under charset=iso-8859-1" {
	enc UTF-16LE '<a/>' > f.xml
	xs --json --content-type "$CT_LATIN1" f.xml
	assert_output --partial '"severity":"warning","code":"suspicious-label","offset":0,"line":1,"column":1'
}

@test "no suspicious-label: real ISO-8859-1 text and C1 bytes under windows-1252" {
	put a.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\351 \340 \377</a>'
	put b.xml '<?xml version="1.0" encoding="windows-1252"?><a>\223quoted\224</a>'
	put c.xml '<a/>'
	for f in a.xml b.xml; do
		xs --json "$f"
		lacks suspicious-label
		assert_output --partial '"errors":0,"warnings":0'
	done
	xs --json --content-type "$CT_LATIN1" c.xml
	lacks suspicious-label
}

@test "decl-not-at-start: text before it is counted in characters, so every encoding agrees" {
	# 600 two-byte characters: 1200 bytes in UTF-8, 1200 in UTF-16 too,
	# but 600 characters either way (found by the transcode fuzz target).
	local body
	body=$(printf '\303\251%.0s' $(seq 1 600))
	printf '%s<?xml version="1.0"?><a/>' "$body" > u8.xml
	{ printf '\376\377'; printf '%s<?xml version="1.0"?><a/>' "$body" | iconv -f UTF-8 -t UTF-16BE; } > u16.xml
	xs --json u8.xml
	assert_output --partial '"code":"decl-not-at-start"'
	xs --json u16.xml
	assert_output --partial '"code":"decl-not-at-start"'
}

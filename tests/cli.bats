#!/usr/bin/env bats
# The command line (SYNOPSIS and DESCRIPTION in xmlsniff(1)), the output
# forms (Output) and the exit status (EXIT STATUS): options and their
# aliases, option syntax, inputs, usage errors.
load helper

# The bytes of the UTF-16 samples, made once for the file's tests.
setup_file() {
	# FF FE, then <?xml version="1.0" encoding="UTF-16"?><a/> in UTF-16LE.
	U16BOM_FMT=$({ printf '\377\376'
	    enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } | fmt_of)
	# No BOM, declared UTF-16LE.
	U16LE_FMT=$(enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' |
	    fmt_of)
	# latin1.xml re-encoded in UTF-8, declaration rewritten, in hex.
	U8_HEX=$(printf '<?xml version="1.0" encoding="UTF-8"?><a>\303\251</a>' |
	    od -An -v -tx1 | tr -d ' \n')
	export U16BOM_FMT U16LE_FMT U8_HEX
}

# Every test works in its own scratch directory, so that file names in the
# output stay short.
setup() {
	scratch_samples
	printf "$U16BOM_FMT" > u16bom.xml
	printf "$U16LE_FMT" > u16le.xml
	# One illegal byte at offset 3: one error.
	printf '<a>\377</a>' > bad.xml
}

USAGE_RE='^usage: xmlsniff '

# ---------------------------------------------------------------------------
# Inputs: operands, standard input, several files

@test "no FILE operand reads standard input, named -" {
	xs < latin1.xml
	assert_success
	assert_output '-: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "FILE - reads standard input" {
	xs - < latin1.xml
	assert_success
	assert_output '-: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "- from a regular file at its start is read as that file (hits read again: excerpts, positions past the first piece); from further on, or from a pipe, as a stream from where it stands" {
	local f=$BATS_TEST_TMPDIR/mj.xml e
	# a double encoding past the first 320 KiB piece, CR LF lines
	{ printf '<r>\r\n'
	  printf 'l\303\263d\305\272 %d\r\n' $(seq 1 30000)
	  printf 'caf\303\203\302\251\r\n</r>\r\n'; } > "$f"
	e=$("$XMLSNIFF" --all --excerpt=always "$f" 2>&1; echo "status $?")
	[[ $e == *'mj.xml:30002:4: warning: "'*'[mojibake]'* ]] || fail "$e"
	[[ $e == *' 30002 | caf'* ]] || fail "$e"
	run sh -c '"$0" --all --excerpt=always --stdin-name="$1" - < "$1" 2>&1
	    echo "status $?"' "$XMLSNIFF" "$f"
	assert_output "$e"
	# the same position from a pipe, counted as the bytes go by
	run sh -c 'cat "$1" | "$0" --stdin-name="$1" - 2>&1' "$XMLSNIFF" "$f"
	assert_output --partial 'mj.xml:30002:4: warning: "'
	# read from before: the entity starts where standard input stands
	printf 'garbage<?xml version="1.0" encoding="ISO-8859-1"?><r>\351</r>\n' \
	    > "$f"
	run sh -c '{ dd bs=7 count=1 of=/dev/null 2>/dev/null; "$0" -; } < "$1"' \
	    "$XMLSNIFF" "$f"
	assert_success
	assert_output '-: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	xs --strict - < "$f"
	assert_failure 1
	assert_output '-: UTF-8 (default), no declaration, 2 errors, 1 warning'
	# and what it reads from there is not read again at the file's
	# offsets (a hit's bytes would be the garbage's): as from a pipe
	printf 'garbage<r>caf\303\203\302\251</r>\n' > "$f"
	run sh -c '{ dd bs=7 count=1 of=/dev/null 2>/dev/null
	    "$0" --excerpt=always -; } < "$1" 2>&1' "$XMLSNIFF" "$f"
	assert_success
	assert_output "$(tail -c +8 "$f" | "$XMLSNIFF" --excerpt=always - 2>&1)"
	assert_line -n 1 --partial '-:1:7: warning: "'
}

@test "- among other operands reads standard input in its place" {
	xs plain.xml - u16bom.xml < latin1.xml
	assert_success
	assert_equal "${#lines[@]}" 3
	assert_line -n 0 'plain.xml: UTF-8 (default), no declaration'
	assert_line -n 1 '-: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_line -n 2 'u16bom.xml: UTF-16LE (BOM), declared "UTF-16"'
}

@test "several files give one line each, in operand order" {
	xs u16bom.xml plain.xml latin1.xml
	assert_success
	assert_equal "${#lines[@]}" 3
	assert_line -n 0 'u16bom.xml: UTF-16LE (BOM), declared "UTF-16"'
	assert_line -n 1 'plain.xml: UTF-8 (default), no declaration'
	assert_line -n 2 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "-- ends the options: a later --json is a file name" {
	printf '<a/>' > ./--json
	xs -- --json
	assert_success
	assert_output -- '--json: UTF-8 (default), no declaration'
}

@test "options after operands still apply (GNU argument permutation)" {
	xs plain.xml --brief
	assert_success
	assert_output 'UTF-8 (default), no declaration'
}

# ---------------------------------------------------------------------------
# Default output (xmlsniff(1), Output)

@test "default line: FILE: ENC (BOM), declared \"X\"" {
	xs u16bom.xml
	assert_success
	assert_output 'u16bom.xml: UTF-16LE (BOM), declared "UTF-16"'
	[ -z "$stderr" ]
}

@test "default line: FILE: UTF-8 (default), no declaration" {
	xs plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "default line: a declaration without encoding says so" {
	printf '<?xml version="1.0"?><a/>' > v.xml
	xs v.xml
	assert_success
	assert_output 'v.xml: UTF-8 (default), declaration without encoding'
}

@test "default line: one error is counted as ', 1 error'" {
	xs bad.xml
	assert_success
	assert_output 'bad.xml: UTF-8 (default), no declaration, 1 error'
}

@test "default line: two error codes are counted as ', 2 errors'" {
	# An illegal byte (illegal-sequence) and U+0001 (illegal-char).
	printf '<a>\377\001</a>' > two.xml
	xs two.xml
	assert_success
	assert_output 'two.xml: UTF-8 (default), no declaration, 2 errors'
}

@test "default line: a warning is counted as ', 1 warning'" {
	printf '\357\273\277<a/>' > bom8.xml
	xs bom8.xml
	assert_success
	assert_output 'bom8.xml: UTF-8 (BOM), no declaration, 1 warning'
}

@test "default line: errors then warnings, a UTF-8 BOM declared ISO-8859-1" {
	printf '\357\273\277<?xml version="1.0" encoding="ISO-8859-1"?><a/>' \
	    > bad8.xml
	xs bad8.xml
	assert_success
	assert_output 'bad8.xml: UTF-8 (BOM), declared "ISO-8859-1", 1 error, 1 warning'
}

@test "default line: the charset parameter is shown after the declaration" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > l.xml
	xs --content-type='application/xml; charset=utf-8' l.xml
	assert_success
	assert_output 'l.xml: UTF-8 (charset), declared "ISO-8859-1", charset "utf-8", 1 warning'
	[[ "$stderr" =~ ^l\.xml:1:31:\ warning:\ .*\[charset-decl-conflict\]$ ]]
}

@test "default line: a UTF-16 pattern without label is (sniffed)" {
	# 00 3C 00 3F: Appendix F's 16-bit big-endian pattern; no encoding.
	printf '<?xml version="1.0"?><a/>' | iconv -f UTF-8 -t UTF-16BE > s.xml
	xs s.xml
	assert_success
	assert_output 's.xml: UTF-16BE (sniffed), declaration without encoding, 2 errors'
}

@test "default line: a newline in a file name is escaped, one line per input" {
	printf '<a/>' > "$(printf 'a\nb.xml')"
	xs "$(printf 'a\nb.xml')"
	assert_success
	assert_equal "${#lines[@]}" 1
	assert_output 'a\nb.xml: UTF-8 (default), no declaration'
}

@test "diagnostics go to stderr as FILE:LINE:COLUMN: error: MESSAGE [code]" {
	printf '<a>\n  <b>\377</b></a>' > pos.xml
	xs pos.xml
	assert_success
	assert_output 'pos.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'pos.xml:2:6: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "diagnostics: a warning uses the word warning" {
	printf '\357\273\277<a/>' > bom8.xml
	xs bom8.xml
	assert_success
	[[ "$stderr" =~ ^bom8\.xml:1:1:\ warning:\ .+\ \[utf8-bom\]$ ]]
}

@test "diagnostics: a repeated code is one line with its count" {
	printf '<a>\377\n\377\377</a>' > rep.xml
	xs rep.xml
	assert_success
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" =~ ^rep\.xml:1:4:\ error:\ .+\ \(3\ times\)\ \[illegal-sequence\]$ ]]
}

@test "diagnostics: one line per code, in offset order" {
	printf '<a>\377\001</a>' > two.xml
	xs two.xml
	assert_success
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 2 ]
	[[ "$(printf '%s\n' "$stderr" | sed -n 1p)" =~ ^two\.xml:1:4:\ error:\ .*\[illegal-sequence\]$ ]]
	[[ "$(printf '%s\n' "$stderr" | sed -n 2p)" =~ ^two\.xml:1:5:\ error:\ .*U\+0001.*\[illegal-char\]$ ]]
}

@test "an input without diagnostics writes nothing to stderr" {
	xs plain.xml latin1.xml u16bom.xml u16le.xml
	assert_success
	[ -z "$stderr" ]
}

# ---------------------------------------------------------------------------
# --content-type (RFC 7303 section 3.2: the charset parameter comes first)

@test "--content-type=VALUE: the charset parameter is authoritative" {
	xs --content-type='application/xml; charset=ISO-8859-1' plain.xml
	assert_success
	assert_output 'plain.xml: ISO-8859-1 (charset), no declaration, charset "ISO-8859-1", 1 warning'
	[[ "$stderr" == *'[missing-decl]' ]]
}

@test "--content-type VALUE (separate argument) works the same" {
	xs --content-type 'application/xml; charset=ISO-8859-1' plain.xml
	assert_success
	assert_output 'plain.xml: ISO-8859-1 (charset), no declaration, charset "ISO-8859-1", 1 warning'
}

@test "--content-type applies to every input" {
	xs --content-type='text/xml; charset=utf-8' plain.xml bad.xml
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'plain.xml: UTF-8 (charset), no declaration, charset "utf-8"'
	assert_line -n 1 'bad.xml: UTF-8 (charset), no declaration, charset "utf-8", 1 error'
}

@test "--content-type without charset: the declaration decides" {
	xs --content-type=application/xml latin1.xml
	assert_success
	assert_output 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "--content-type: a quoted charset value is unquoted" {
	xs --json --content-type='application/xml; charset="ISO-8859-1"' plain.xml
	assert_success
	[[ "$output" == *'"encoding":"ISO-8859-1","source":"charset",'* ]]
	[[ "$output" == *'"charset":"ISO-8859-1",'* ]]
}

@test "--content-type: a quoted-pair in a quoted value is unescaped" {
	xs --content-type='application/xml; charset="utf\-8"' plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (charset), no declaration, charset "utf-8"'
}

@test "--content-type: type and parameter names are case-insensitive" {
	xs -i --content-type='Application/XML; CHARSET=iso-8859-1' plain.xml
	assert_success
	assert_output 'plain.xml: application/xml; charset=iso-8859-1'
}

@test "--content-type: the charset value keeps its spelling" {
	xs --json --content-type='application/xml; Charset=Iso-8859-1' plain.xml
	assert_success
	[[ "$output" == *'"charset":"Iso-8859-1",'* ]]
	[[ "$output" == *'"encoding":"ISO-8859-1",'* ]]
}

@test "--content-type: white space before ';' is allowed" {
	xs --content-type='application/xml ;charset=iso-8859-1' plain.xml
	assert_success
	assert_line -n 0 'plain.xml: ISO-8859-1 (charset), no declaration, charset "iso-8859-1", 1 warning'
}

@test "--content-type: spaces and tabs after ';' are allowed" {
	xs --content-type="$(printf 'application/xml;\t  charset=iso-8859-1')" plain.xml
	assert_success
	assert_line -n 0 'plain.xml: ISO-8859-1 (charset), no declaration, charset "iso-8859-1", 1 warning'
}

@test "--content-type: other parameters and a trailing ';' are passed over" {
	xs --content-type='application/xml; q=1; charset=utf-8;' plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (charset), no declaration, charset "utf-8"'
}

@test "--content-type: a +xml type is an XML media type" {
	xs --content-type='application/atom+xml; charset=utf-8' plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (charset), no declaration, charset "utf-8"'
	[ -z "$stderr" ]
}

@test "--content-type: text/xml is an XML media type" {
	xs --content-type='text/xml' plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "--content-type: a non-XML type draws not-xml-media-type" {
	xs --content-type='text/plain; charset=utf-8' plain.xml
	assert_success
	assert_output 'plain.xml: UTF-8 (charset), no declaration, charset "utf-8", 1 warning'
	[[ "$stderr" =~ ^plain\.xml:1:1:\ warning:\ .*text/plain.*\[not-xml-media-type\]$ ]]
}

@test "--content-type: a missing subtype is a usage error (exit 2)" {
	xs --content-type='application/' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: the subtype is missing after "/"'
	try_help
}

@test "--content-type: a type without '/' is a usage error (exit 2)" {
	xs --content-type='application' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: expected type/subtype, as in "application/xml"'
}

@test "--content-type: an empty value is a usage error (exit 2)" {
	xs --content-type= plain.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "${stderr%%$'\n'*}" == 'xmlsniff: --content-type: '* ]]
}

@test "--content-type: a parameter without '=' is a usage error (exit 2)" {
	xs --content-type='application/xml; charset' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: a parameter at byte 18 is not name=value'
}

@test "--content-type: a parameter without a name is a usage error (exit 2)" {
	xs --content-type='application/xml; =utf-8' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: a parameter at byte 18 is not name=value'
}

@test "--content-type: an empty charset value is a usage error (exit 2)" {
	xs --content-type='application/xml; charset=' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: parameter "charset" has no value'
}

@test "--content-type: an unclosed quote is a usage error (exit 2)" {
	xs --content-type='application/xml; charset="utf-8' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: a quoted parameter value is not closed'
}

@test "--content-type: text after the type without ';' is a usage error" {
	xs --content-type='application/xml utf-8' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: unexpected "u" at byte 17; parameters are "; name=value"'
}

@test "--content-type: charset given twice is a usage error (exit 2)" {
	xs --content-type='application/xml; charset=utf-8; charset=utf-16' plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --content-type: charset is given twice'
}

@test "--content-type: a parse error reads no input" {
	xs --content-type='application/' - < latin1.xml
	assert_failure 2
	[ -z "$output" ]
}

# ---------------------------------------------------------------------------
# --strict

@test "--strict: exit 1 when an input has an error" {
	xs --strict bad.xml
	assert_failure 1
	assert_output 'bad.xml: UTF-8 (default), no declaration, 1 error'
	[[ "$stderr" == *'[illegal-sequence]' ]]
}

@test "--strict: exit 0 when there are only warnings" {
	printf '\357\273\277<a/>' > bom8.xml
	xs --strict bom8.xml
	assert_success
	assert_output 'bom8.xml: UTF-8 (BOM), no declaration, 1 warning'
}

@test "--strict: exit 0 when nothing is wrong" {
	xs --strict plain.xml latin1.xml u16bom.xml
	assert_success
	[ -z "$stderr" ]
}

@test "--strict: the inputs after one with an error are still reported" {
	xs --strict bad.xml plain.xml
	assert_failure 1
	assert_equal "${#lines[@]}" 2
	assert_line -n 1 'plain.xml: UTF-8 (default), no declaration'
}

# ---------------------------------------------------------------------------
# -b, --brief

@test "-b: no file name before the line" {
	xs -b latin1.xml
	assert_success
	assert_output 'ISO-8859-1 (declaration), declared "ISO-8859-1"'
}

@test "--brief: the same as -b" {
	xs --brief latin1.xml plain.xml
	assert_success
	assert_line -n 0 'ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_line -n 1 'UTF-8 (default), no declaration'
}

@test "-b: diagnostics on stderr keep the file name" {
	xs -b bad.xml
	assert_success
	assert_output 'UTF-8 (default), no declaration, 1 error'
	[[ "$stderr" =~ ^bad\.xml:1:4:\ error: ]]
}

@test "-b with -i: the Content-Type alone" {
	xs -bi u16bom.xml
	assert_success
	assert_output 'application/xml; charset=utf-16'
}

@test "-b with --mime-encoding: the label alone" {
	xs -b --mime-encoding u16le.xml
	assert_success
	assert_output 'utf-16le'
}

# ---------------------------------------------------------------------------
# -i, --mime and --mime-encoding (RFC 7303 sections 3.3 and 9)

@test "-i: UTF-16 with a BOM is charset=utf-16" {
	xs -i u16bom.xml
	assert_success
	assert_output 'u16bom.xml: application/xml; charset=utf-16'
}

@test "--mime: the same as -i" {
	xs --mime u16bom.xml
	assert_success
	assert_output 'u16bom.xml: application/xml; charset=utf-16'
}

@test "-i: big-endian UTF-16 with a BOM is charset=utf-16 too" {
	printf '\376\377' > be.xml
	printf '<?xml version="1.0" encoding="UTF-16"?><a/>' |
	    iconv -f UTF-8 -t UTF-16BE >> be.xml
	xs -i be.xml
	assert_success
	assert_output 'be.xml: application/xml; charset=utf-16'
}

@test "-i: UTF-16LE without a BOM is charset=utf-16le" {
	xs -i u16le.xml
	assert_success
	assert_output 'u16le.xml: application/xml; charset=utf-16le'
}

@test "-i: UTF-16BE without a BOM is charset=utf-16be" {
	printf '<?xml version="1.0" encoding="UTF-16BE"?><a/>' |
	    iconv -f UTF-8 -t UTF-16BE > be.xml
	xs -i be.xml
	assert_success
	assert_output 'be.xml: application/xml; charset=utf-16be'
}

@test "-i: a declared legacy encoding is its lower-case label" {
	xs -i latin1.xml
	assert_success
	assert_output 'latin1.xml: application/xml; charset=iso-8859-1'
}

@test "-i: an unlabelled document is application/xml; charset=utf-8" {
	xs -i plain.xml
	assert_success
	assert_output 'plain.xml: application/xml; charset=utf-8'
}

@test "-i: a DTD is application/xml-dtd" {
	printf '<!ELEMENT a (#PCDATA)>\n<!ATTLIST a b CDATA #IMPLIED>\n' > a.dtd
	xs -i a.dtd
	assert_success
	assert_output 'a.dtd: application/xml-dtd; charset=utf-8'
}

@test "-i: a DTD with a text declaration is application/xml-dtd" {
	printf '<?xml encoding="ISO-8859-1"?>\n<!ELEMENT a (#PCDATA)>\n' > d.x
	xs -i d.x
	assert_success
	assert_output 'd.x: application/xml-dtd; charset=iso-8859-1'
}

@test "-i: a DTD served as application/xml or text/xml is named application/xml-dtd, with a warning" {
	printf '<!ELEMENT a (#PCDATA)>\n' > a.dtd
	xs -i --content-type='application/xml; charset=utf-8' a.dtd
	assert_success
	assert_output 'a.dtd: application/xml-dtd; charset=utf-8'
	assert_equal "$stderr" 'a.dtd:1:1: warning: "application/xml" must not be used for an external DTD subset or parameter entity (RFC 7303 section 3); serve it as application/xml-dtd [not-xml-media-type]'
	printf '<?xml encoding="ISO-8859-1"?>\n<!ENTITY %% e "x">\n' > p.x
	xs -i --content-type=text/xml p.x
	assert_output 'p.x: application/xml-dtd; charset=iso-8859-1'
	stderr_has '"text/xml" must not be used for an external DTD subset'
	xs -i --stdin-name=m.mod --content-type=text/xml - < a.dtd
	assert_output 'm.mod: application/xml-dtd; charset=utf-8'
	xs --json --content-type=application/xml-dtd a.dtd
	assert_output --partial '"mime":"application/xml-dtd; charset=utf-8","errors":0,"warnings":0,'
}

@test "-i: no charset where it is not reliably known (EBCDIC undeclared, an unknown name)" {
	printf '\114\157\247\224\223\100\245\205\231\242\211\226\225\176\175\361\113\360\175\157\156' > e.xml
	xs -i e.xml
	assert_output 'e.xml: application/xml'
	xs --mime-encoding e.xml
	assert_output 'e.xml: unknown'
	printf '<?xml version="1.0" encoding="x-foo"?><a/>' > x.xml
	xs -i x.xml
	assert_output 'x.xml: application/xml'
	xs --json --content-type='text/xml; charset=x-bogus' e.xml
	assert_output --partial '"mime":"text/xml",'
}

@test "-i: a text-declaration entity is application/xml-external-parsed-entity" {
	printf '<?xml encoding="UTF-8"?>some text &amp; <b>markup</b>' > e.x
	xs -i e.x
	assert_success
	assert_output 'e.x: application/xml-external-parsed-entity; charset=utf-8'
}

@test "-i: the --content-type type is kept when it is an XML type" {
	xs -i --content-type='application/atom+xml' u16le.xml
	assert_success
	assert_output 'u16le.xml: application/atom+xml; charset=utf-16le'
}

@test "-i: the --content-type type is lower-cased" {
	xs -i --content-type='Image/SVG+XML' plain.xml
	assert_success
	assert_output 'plain.xml: image/svg+xml; charset=utf-8'
}

@test "-i: a non-XML --content-type is replaced by application/xml" {
	xs -i --content-type='text/plain' plain.xml
	assert_success
	assert_output 'plain.xml: application/xml; charset=utf-8'
}

@test "-i: the charset parameter decides the label" {
	xs -i --content-type='text/xml; charset=ISO-8859-1' plain.xml
	assert_success
	assert_output 'plain.xml: text/xml; charset=iso-8859-1'
}

@test "--mime-encoding: utf-16 with a BOM, utf-16le without" {
	xs --mime-encoding u16bom.xml u16le.xml
	assert_success
	assert_line -n 0 'u16bom.xml: utf-16'
	assert_line -n 1 'u16le.xml: utf-16le'
}

@test "--mime-encoding: a legacy encoding in lower case" {
	xs --mime-encoding latin1.xml plain.xml
	assert_success
	assert_line -n 0 'latin1.xml: iso-8859-1'
	assert_line -n 1 'plain.xml: utf-8'
}

@test "--mime is an exact option, not an ambiguous prefix of --mime-encoding" {
	xs --mime plain.xml
	assert_success
	assert_output 'plain.xml: application/xml; charset=utf-8'
	[ -z "$stderr" ]
}

@test "a unique prefix of a long option is accepted (--mime-enc)" {
	xs --mime-enc plain.xml
	assert_success
	assert_output 'plain.xml: utf-8'
}

# ---------------------------------------------------------------------------
# --json (xmlsniff(1), Output)

@test "--json: the keys xmlsniff(1) lists, in that order" {
	xs --json plain.xml
	assert_success
	assert_output '{"file":"plain.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":0,"diagnostics":[]}'
	[ -z "$stderr" ]
	json_ok
}

@test "--json: BOM and XML declaration" {
	xs --json u16bom.xml
	assert_success
	assert_output '{"file":"u16bom.xml","encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE","declaration":{"kind":"xml","version":"1.0","encoding":"UTF-16","standalone":null},"charset":null,"mime":"application/xml; charset=utf-16","errors":0,"warnings":0,"diagnostics":[]}'
	json_ok
}

@test "--json: standalone, and the declared encoding as written" {
	printf '<?xml version="1.0" encoding="utf-8" standalone="yes"?><a/>' > sa.xml
	xs --json sa.xml
	assert_success
	assert_output '{"file":"sa.xml","encoding":"UTF-8","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"utf-8","standalone":"yes"},"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":0,"diagnostics":[]}'
	json_ok
}

@test "--json: a text declaration has kind text and version null" {
	printf '<?xml encoding="UTF-8"?>some text' > e.x
	xs --json e.x
	assert_success
	assert_output '{"file":"e.x","encoding":"UTF-8","source":"declaration","bom":null,"declaration":{"kind":"text","version":null,"encoding":"UTF-8","standalone":null},"charset":null,"mime":"application/xml-external-parsed-entity; charset=utf-8","errors":0,"warnings":0,"diagnostics":[]}'
	json_ok
}

@test "--json: the raw charset value and source charset" {
	xs --json --content-type='application/xml; charset="ISO-8859-1"' latin1.xml
	assert_success
	assert_output '{"file":"latin1.xml","encoding":"ISO-8859-1","source":"charset","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"ISO-8859-1","standalone":null},"charset":"ISO-8859-1","mime":"application/xml; charset=iso-8859-1","errors":0,"warnings":0,"diagnostics":[]}'
	json_ok
}

@test "--json: a diagnostic has severity, code, offset, line, column, count, message" {
	xs --json bad.xml
	assert_success
	assert_output '{"file":"bad.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":3,"line":1,"column":4,"count":1,"message":"bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it"}],"guess":null}'
	# The diagnostics are in the object, not on stderr.
	[ -z "$stderr" ]
	json_ok
}

@test "--json: quotes in a message are escaped" {
	printf '\357\273\277<?xml version="1.0" encoding="ISO-8859-1"?><a/>' \
	    > bad8.xml
	xs --json bad8.xml
	assert_success
	[[ "$output" == *'"code":"decl-mismatch","offset":33,"line":1,"column":31,"count":1,"message":"declared \"ISO-8859-1\" but '* ]]
	json_ok
}

@test "--json: source sniffed for a UTF-16 pattern without label" {
	printf '<?xml version="1.0"?><a/>' | iconv -f UTF-8 -t UTF-16LE > s.xml
	xs --json s.xml
	assert_success
	[[ "$output" == '{"file":"s.xml","encoding":"UTF-16LE","source":"sniffed","bom":null,'* ]]
	json_ok
}

@test "--json: one object per input, one per line" {
	xs --json plain.xml latin1.xml u16bom.xml bad.xml
	assert_success
	assert_equal "${#lines[@]}" 4
	assert_line -n 0 --partial '{"file":"plain.xml",'
	assert_line -n 1 --partial '{"file":"latin1.xml",'
	assert_line -n 2 --partial '{"file":"u16bom.xml",'
	assert_line -n 3 --partial '{"file":"bad.xml",'
	json_ok
}

@test "--json: an unreadable input gets error and nulls" {
	xs --json nope.xml plain.xml
	assert_failure 2
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 '{"file":"nope.xml","error":"No such file or directory","encoding":null,"source":null,"bom":null,"declaration":null,"charset":null,"mime":null,"errors":null,"warnings":null,"diagnostics":null}'
	assert_line -n 1 --partial '{"file":"plain.xml",'
	assert_equal "$stderr" 'xmlsniff: nope.xml: No such file or directory'
	json_ok
}

@test "--json: a newline in a file name is escaped" {
	printf '<a/>' > "$(printf 'a\nb.xml')"
	xs --json "$(printf 'a\nb.xml')"
	assert_success
	assert_equal "${#lines[@]}" 1
	[[ "$output" == '{"file":"a\nb.xml","encoding":"UTF-8",'* ]]
	json_ok
}

@test "--json: quotes and backslashes in a file name are escaped" {
	printf '<a/>' > 'q"u\o.xml'
	xs --json 'q"u\o.xml'
	assert_success
	[[ "$output" == '{"file":"q\"u\\o.xml","encoding":"UTF-8",'* ]]
	json_ok
}

@test "--json: control characters in a file name are escaped" {
	printf '<a/>' > "$(printf 't\tc\001d\177.xml')"
	xs --json "$(printf 't\tc\001d\177.xml')"
	assert_success
	[[ "$output" == '{"file":"t\tc\u0001d\u007f.xml","encoding":"UTF-8",'* ]]
	json_ok
}

@test "--json: UTF-8 in a file name is kept as it is" {
	printf '<a/>' > "$(printf 'caf\303\251.xml')"
	xs --json "$(printf 'caf\303\251.xml')"
	assert_success
	[[ "$output" == "$(printf '{"file":"caf\303\251.xml","encoding":"UTF-8",')"* ]]
	json_ok
}

@test "--json: bytes of a file name that are not UTF-8 give valid JSON" {
	printf '<a/>' > "$(printf 'inv\377\376.xml')"
	xs --json "$(printf 'inv\377\376.xml')"
	assert_success
	assert_equal "${#lines[@]}" 1
	# Each such byte is a lone low surrogate (\udcXX), as Python's
	# surrogateescape reads it back.
	[[ "$output" == '{"file":"inv\udcff\udcfe.xml","encoding":"UTF-8",'* ]]
	json_ok
}

@test "--json: a non-UTF-8 file name reads back to the same bytes" {
	command -v python3 > /dev/null || skip "python3 is not installed"
	printf '<a/>' > "$(printf 'n\377\nq"\\.xml')"
	xs --json "$(printf 'n\377\nq"\\.xml')"
	assert_success
	run python3 -c '
import json, sys
obj = json.loads(sys.stdin.read())
sys.stdout.write(obj["file"].encode("utf-8", "surrogateescape").hex())
' <<< "$output"
	assert_success
	assert_output "$(printf 'n\377\nq"\\.xml' | od -An -v -tx1 | tr -d ' \n')"
}

@test "--json: -b changes nothing (the file name is a key)" {
	xs --json -b plain.xml
	assert_success
	assert_output --partial '{"file":"plain.xml",'
}

# ---------------------------------------------------------------------------
# --files0-from

@test "--files0-from=F reads NUL-separated names from a file" {
	printf 'plain.xml\0latin1.xml\0' > list
	xs --files0-from=list
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'plain.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
}

@test "--files0-from F (separate argument) works the same" {
	printf 'plain.xml\0latin1.xml\0' > list
	xs --files0-from list
	assert_success
	assert_equal "${#lines[@]}" 2
}

@test "--files0-from=- reads the names from standard input" {
	printf 'latin1.xml\0plain.xml\0' | {
		xs --files0-from=-
		assert_success
		assert_line -n 0 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
		assert_line -n 1 'plain.xml: UTF-8 (default), no declaration'
	}
}

@test "--files0-from: the last name may lack its NUL" {
	printf 'plain.xml\0latin1.xml' > list
	xs --files0-from=list
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 1 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
}

@test "--files0-from: names with spaces and newlines" {
	printf '<a/>' > 'with space.xml'
	printf '<a/>' > "$(printf 'new\nline.xml')"
	printf 'with space.xml\0new\nline.xml\0' > list
	xs --files0-from=list
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'with space.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'new\nline.xml: UTF-8 (default), no declaration'
}

@test "--files0-from: an empty name is an error (exit 2), the rest are read" {
	printf 'plain.xml\0\0latin1.xml\0' > list
	xs --files0-from=list
	assert_failure 2
	assert_equal "${#lines[@]}" 2
	assert_line -n 1 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_equal "$stderr" 'xmlsniff: list: name 2 is empty'
}

@test "--files0-from=-: the name - is refused" {
	printf 'plain.xml\0-\0' | {
		xs --files0-from=-
		assert_failure 2
		assert_output 'plain.xml: UTF-8 (default), no declaration'
		[[ "$stderr" == 'xmlsniff: -: name 2 is "-"'* ]]
	}
}

@test "--files0-from: a missing list file is exit 2" {
	xs --files0-from=nolist
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: nolist: No such file or directory'
}

@test "--files0-from: an empty list reads nothing and exits 0" {
	: > list
	xs --files0-from=list
	assert_success
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "--files0-from with FILE operands is a usage error" {
	printf 'plain.xml\0' > list
	xs --files0-from=list latin1.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --files0-from takes no FILE operands as well'
	try_help
}

# ---------------------------------------------------------------------------
# -r, --recursive

mktree() {
	mkdir -p tree/b tree/a/c
	printf '<a/>' > tree/z.xml
	printf '<a/>' > tree/b/y.xml
	printf '<a/>' > tree/a/c/x.xml
	printf '<a/>' > tree/a/B.xml
	printf '<a/>' > tree/M.xml
}

@test "-r: every file below, sorted by name (bytewise)" {
	mktree
	xs -r tree
	assert_success
	assert_equal "${#lines[@]}" 5
	assert_line -n 0 'tree/M.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'tree/a/B.xml: UTF-8 (default), no declaration'
	assert_line -n 2 'tree/a/c/x.xml: UTF-8 (default), no declaration'
	assert_line -n 3 'tree/b/y.xml: UTF-8 (default), no declaration'
	assert_line -n 4 'tree/z.xml: UTF-8 (default), no declaration'
}

@test "--recursive: the same as -r" {
	mktree
	xs --recursive tree
	assert_success
	assert_equal "${#lines[@]}" 5
}

@test "-r: a trailing slash does not double the separator" {
	mktree
	xs -r tree/
	assert_success
	assert_line -n 0 'tree/M.xml: UTF-8 (default), no declaration'
}

@test "-r: symbolic links below the directory are not followed" {
	mkdir -p tree/sub elsewhere
	printf '<a/>' > tree/sub/real.xml
	printf '<a/>' > elsewhere/target.xml
	ln -s ../elsewhere/target.xml tree/link.xml
	ln -s ../elsewhere tree/linkdir
	xs -r tree
	assert_success
	assert_output 'tree/sub/real.xml: UTF-8 (default), no declaration'
}

@test "-r: directories and files mix on the command line" {
	mktree
	xs -r plain.xml tree/b
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'plain.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'tree/b/y.xml: UTF-8 (default), no declaration'
}

@test "a directory without -r is exit 2, and the other inputs are read" {
	mktree
	xs tree plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: tree: is a directory (use -r to descend into it)'
}

# ---------------------------------------------------------------------------
# -q, --quiet

@test "-q: no per-input line" {
	xs -q plain.xml latin1.xml
	assert_success
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "--quiet: diagnostics are still printed" {
	xs --quiet bad.xml
	assert_success
	[ -z "$output" ]
	[[ "$stderr" =~ ^bad\.xml:1:4:\ error:\ .*\[illegal-sequence\]$ ]]
}

@test "-q --strict: the exit status still tells" {
	xs -q --strict plain.xml bad.xml
	assert_failure 1
	[ -z "$output" ]
}

@test "-q: an unreadable input still gets its message and exit 2" {
	xs -q nope.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: nope.xml: No such file or directory'
}

# ---------------------------------------------------------------------------
# -h, --help, --version

@test "-h: usage and help on stdout, exit 0" {
	xs -h
	assert_success
	[ -z "$stderr" ]
	assert_line -n 0 --regexp "$USAGE_RE"
}

@test "--help: the same as -h" {
	xs --help
	assert_success
	[ -z "$stderr" ]
	assert_line -n 0 --regexp "$USAGE_RE"
}

@test "--help: names the core options" {
	xs --help
	assert_success
	local o
	for o in --content-type --strict --transcode-to -o, --output --in-place \
	    --fallback --utf8-bom -b, --brief -i, --mime --mime-encoding \
	    --json --files0-from -r, --recursive -q, --quiet -h, --help \
	    --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing: $o"; return 1; }
	done
}

@test "--help: reads no input" {
	xs --help - < latin1.xml
	assert_success
	refute_output --partial 'ISO-8859-1'
}

@test "--version: one line on stdout, exit 0" {
	xs --version
	assert_success
	[ -z "$stderr" ]
	assert_output --regexp '^xmlsniff [0-9]+\.[0-9]+(\.[0-9]+)?$'
}

# ---------------------------------------------------------------------------
# The transcoding options: their spellings (what they do is for the
# transcoding tests)

# U8_HEX (setup_file): latin1.xml re-encoded in UTF-8, declaration
# rewritten.

@test "--transcode-to=ENC writes the entity to stdout" {
	xs --transcode-to=UTF-8 latin1.xml
	assert_success
	[ -z "$stderr" ]
	assert_equal "$(printf '%s' "$output" | od -An -v -tx1 | tr -d ' \n')" \
	    "$U8_HEX"
}

@test "--transcode-to ENC (separate argument) works the same" {
	"$XMLSNIFF" --transcode-to UTF-8 latin1.xml > out.xml
	assert_equal "$(hexof out.xml)" "$U8_HEX"
}

@test "-o FILE writes the transcoded entity there" {
	xs --transcode-to=UTF-8 -o out.xml latin1.xml
	assert_success
	assert_output 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_equal "$(hexof out.xml)" "$U8_HEX"
}

@test "-oFILE (argument attached) works the same" {
	xs --transcode-to=UTF-8 -oout.xml latin1.xml
	assert_success
	assert_equal "$(hexof out.xml)" "$U8_HEX"
}

@test "--output=FILE works the same as -o" {
	xs --transcode-to=UTF-8 --output=out.xml latin1.xml
	assert_success
	assert_equal "$(hexof out.xml)" "$U8_HEX"
}

@test "--output FILE (separate argument) works the same as -o" {
	xs --transcode-to=UTF-8 --output out.xml latin1.xml
	assert_success
	assert_equal "$(hexof out.xml)" "$U8_HEX"
}

@test "--in-place rewrites the FILE itself" {
	cp latin1.xml ip.xml
	xs --transcode-to=UTF-8 --in-place ip.xml
	assert_success
	assert_equal "$(hexof ip.xml)" "$U8_HEX"
}

@test "--utf8-bom puts EF BB BF before the UTF-8 output" {
	xs --transcode-to=UTF-8 --utf8-bom -o out.xml latin1.xml
	assert_success
	assert_equal "$(hexof out.xml)" "efbbbf$U8_HEX"
}

@test "--fallback=ncr and --fallback ncr both write a reference" {
	printf '<a>\342\202\254</a>' > euro.xml
	xs --transcode-to=ISO-8859-1 --fallback=ncr -o one.xml euro.xml
	assert_success
	xs --transcode-to=ISO-8859-1 --fallback ncr -o two.xml euro.xml
	assert_success
	assert_equal "$(cat one.xml)" '<?xml version="1.0" encoding="ISO-8859-1"?><a>&#x20AC;</a>'
	assert_equal "$(hexof two.xml)" "$(hexof one.xml)"
}

@test "--fallback=error (the default) fails on an unrepresentable character" {
	printf '<a>\342\202\254</a>' > euro.xml
	xs --transcode-to=ISO-8859-1 --fallback=error -o out.xml euro.xml
	assert_failure 1
	[[ "$stderr" == *'[unrepresentable]'* ]]
	[ ! -e out.xml ]
}

@test "--fallback with another value is a usage error" {
	xs --transcode-to=UTF-8 --fallback=replace latin1.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fallback: "replace" is not error or ncr'
}

@test "--byte-order=le and --byte-order le: a little-endian UTF-16 BOM" {
	xs --transcode-to=UTF-16 --byte-order=le -o one.xml latin1.xml
	assert_success
	xs --transcode-to=UTF-16 --byte-order le -o two.xml latin1.xml
	assert_success
	[[ "$(hexof one.xml)" == fffe3c003f00* ]]
	assert_equal "$(hexof two.xml)" "$(hexof one.xml)"
}

@test "--byte-order with another value is a usage error" {
	xs --transcode-to=UTF-16 --byte-order=middle latin1.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --byte-order: "middle" is not be or le'
}

@test "--transcode-to with an unknown encoding is a usage error" {
	xs --transcode-to=NO-SUCH-ENCODING latin1.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "${stderr%%$'\n'*}" == 'xmlsniff: --transcode-to: "NO-SUCH-ENCODING" '* ]]
}

# ---------------------------------------------------------------------------
# Usage errors (exit 2, one line and the pointer at --help on stderr,
# nothing on stdout)

@test "an unknown long option: exit 2, one line and --help on stderr" {
	xs --bogus plain.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == *"unrecognized option '--bogus'"* ]]
	try_help
}

@test "an unknown short option: exit 2, one line and --help on stderr" {
	xs -Z plain.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == *"invalid option -- 'Z'"* ]]
	try_help
}

@test "a missing option argument: exit 2, one line and --help on stderr" {
	xs --content-type
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == *"'--content-type' requires an argument"* ]]
	try_help
}

@test "an argument to an option that takes none: exit 2" {
	xs --strict=yes plain.xml
	assert_failure 2
	[ -z "$output" ]
	try_help
}

@test "-o without --transcode-to is a usage error" {
	xs -o out.xml plain.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "${stderr%%$'\n'*}" == 'xmlsniff: '*'-o'*'--transcode-to'* ]]
	try_help
	[ ! -e out.xml ]
}

@test "--output=FILE without --transcode-to is a usage error" {
	xs --output=out.xml plain.xml
	assert_failure 2
	[ -z "$output" ]
	[ ! -e out.xml ]
}

@test "--in-place without --transcode-to is a usage error" {
	cp u16bom.xml copy.xml
	xs --in-place copy.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$(hexof copy.xml)" "$(hexof u16bom.xml)"
}

@test "--fallback, --utf8-bom, --byte-order without --transcode-to" {
	local o
	for o in --fallback=ncr --utf8-bom --byte-order=le; do
		xs "$o" plain.xml
		assert_failure 2
		[ -z "$output" ]
		[[ "${stderr%%$'\n'*}" == 'xmlsniff: '*'--transcode-to' ]]
	done
}

@test "an option that needs another is refused when given at all, its default value too" {
	local o
	for o in --fallback=error --byte-order=be --fallback=ncr --byte-order=le; do
		xs "$o" plain.xml
		assert_failure 2
		[ -z "$output" ]
		assert_equal "${stderr%%$'\n'*}" "xmlsniff: ${o%%=*} goes with --transcode-to"
	done
	xs --utf8-bom plain.xml
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --utf8-bom goes with --transcode-to'
	xs -o out.xml plain.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: -o goes with --transcode-to'
	[ ! -e out.xml ]
	xs --transcode-to=UTF-16 --byte-order=be -o out.xml plain.xml
	assert_success
	assert_equal "$(hexof out.xml)" "feff003c0061002f003e"
}

@test "an option that needs another, from the configuration file: refused as well" {
	printf 'fallback=error\n' > rc
	xs --config=rc plain.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fallback goes with --transcode-to'
	xs --config=rc --transcode-to=UTF-8 -o out.xml plain.xml
	assert_success
}

@test "-o and --in-place together are a usage error" {
	cp latin1.xml ip.xml
	xs --transcode-to=UTF-8 -o out.xml --in-place ip.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: -o and --in-place exclude each other'
	[ ! -e out.xml ]
	assert_equal "$(hexof ip.xml)" "$(hexof latin1.xml)"
}

@test "--in-place with standard input is a usage error" {
	xs --transcode-to=UTF-8 --in-place - < latin1.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "${stderr%%$'\n'*}" == 'xmlsniff: --in-place '*'standard input'* ]]
}

@test "-i with --transcode-to to stdout is a usage error" {
	xs -i --transcode-to=UTF-8 latin1.xml
	assert_failure 2
	[ -z "$output" ]
	[[ "${stderr%%$'\n'*}" == 'xmlsniff: '*'use -o FILE' ]]
}

@test "several inputs with --transcode-to but without --in-place" {
	xs --transcode-to=UTF-8 plain.xml latin1.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: several inputs need --in-place'
	try_help
}

@test "--transcode-to with -r but without --in-place is a usage error" {
	mkdir d
	xs --transcode-to=UTF-8 -r d
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: several inputs need --in-place'
}

@test "--transcode-to with --files0-from but without --in-place" {
	printf 'plain.xml\0' > list
	xs --transcode-to=UTF-8 --files0-from=list
	assert_failure 2
	[ -z "$output" ]
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: several inputs need --in-place'
}

# ---------------------------------------------------------------------------
# Exit status (xmlsniff(1), EXIT STATUS)

@test "exit 0: errors in the content do not count without --strict" {
	xs bad.xml plain.xml
	assert_success
	assert_equal "${#lines[@]}" 2
	[[ "$stderr" == *'[illegal-sequence]' ]]
}

@test "exit 2: a missing input, and the others are still reported" {
	xs plain.xml nope.xml latin1.xml
	assert_failure 2
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'plain.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_equal "$stderr" 'xmlsniff: nope.xml: No such file or directory'
}

@test "exit 2 wins over 1: --strict, an error and then a missing input" {
	xs --strict bad.xml nope.xml plain.xml
	assert_failure 2
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'bad.xml: UTF-8 (default), no declaration, 1 error'
	assert_line -n 1 'plain.xml: UTF-8 (default), no declaration'
	[[ "$stderr" == *'[illegal-sequence]'* ]]
	[[ "$stderr" == *'xmlsniff: nope.xml: No such file or directory'* ]]
}

@test "exit 2 wins over 1: a missing input and then --strict errors" {
	xs --strict nope.xml bad.xml
	assert_failure 2
	assert_output 'bad.xml: UTF-8 (default), no declaration, 1 error'
}

@test "exit 1 stays: a later clean input does not lower it" {
	xs --strict bad.xml plain.xml latin1.xml
	assert_failure 1
	assert_equal "${#lines[@]}" 3
}

# ---------------------------------------------------------------------------
# Suggestions: the nearest name by edit distance (issue 23 item 8)

@test "a mistyped long option: did you mean, one line and the pointer at --help" {
	xs --strcit plain.xml
	assert_failure 2
	assert_output ''
	assert_equal "${stderr_lines[0]}" "xmlsniff: unrecognized option '--strcit'; did you mean --strict?"
	try_help
	# Nothing near: no suggestion.
	xs --zqxwv plain.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "xmlsniff: unrecognized option '--zqxwv'"
	try_help
}

@test "--format, --color and --excerpt values: did you mean" {
	xs --format=sarfi plain.xml
	assert_failure 2
	assert_output ''
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --format: "sarfi" is not text, json, github, sarif, gitlab or checkstyle; did you mean sarif?'
	try_help
	xs --color=nevr plain.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --color: "nevr" is not auto, always or never; did you mean never?'
	try_help
	xs --excerpt=Always plain.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --excerpt: "Always" is not auto, always or never; did you mean always?'
	try_help
}

@test "a mistyped code in --error, --ignore, --explain and the config file: did you mean" {
	xs --error=utf8bom plain.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --error: "utf8bom" is not a diagnostic code; did you mean utf8-bom?'
	try_help
	xs --ignore=decl-mismatch,illegal-sequnce plain.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --ignore: "illegal-sequnce" is not a diagnostic code; did you mean illegal-sequence?'
	xs --explain=mojibak
	assert_failure 2
	assert_output ''
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --explain: "mojibak" is not a diagnostic code; did you mean mojibake?'
	try_help
	printf -- '--ignore=bom-mising\n' > .xmlsniffrc
	xs plain.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: .xmlsniffrc:1: --ignore: "bom-mising" is not a diagnostic code; did you mean bom-missing?'
	printf -- 'strcit\n' > .xmlsniffrc
	xs plain.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: .xmlsniffrc:1: "strcit" is not an option of xmlsniff; did you mean --strict?'
}

@test "--help keeps the whole usage and gives examples" {
	xs --help
	assert_success
	assert_line 'Examples:'
	assert_line '  xmlsniff -r --strict          check the XML files below ., exit 1'
	assert_line '  xmlsniff --explain=decl-mismatch'
	assert_line 'is a usage error); -r with no FILE checks the current directory.'
	assert_line --regexp '^ +\[--color=WHEN\] \[--all\] \[--max-errors=N\] \[-j N\] \[--mmap\]$'
	assert_line --regexp '^ +\[FILE \.\.\.\]$'
	assert_line '      --mmap            map big regular files instead of reading'
}

# ---------------------------------------------------------------------------
# No hang (issue 23 item 5)

@test "-r and no path checks ., its files named without ./" {
	mkdir -p t/d && cd t
	printf '<a/>' > a.xml
	printf '<b/>' > d/b.svg
	printf 'x' > notes.txt
	xs -r
	assert_success
	assert_output $'a.xml: UTF-8 (default), no declaration\nd/b.svg: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "no FILE while standard input is a terminal: one line of usage, exit 2; - still reads it" {
	command -v script > /dev/null || skip "no script(1) to give a terminal"
	run script -qec "$XMLSNIFF --strict; echo rc=\$?" /dev/null
	assert_output $'usage: xmlsniff [OPTION]... FILE... (- reads standard input, -r checks .; see xmlsniff --help)\r\nrc=2\r'
	# "-" reads the terminal: a line, then end of file (^D).
	run bash -c 'printf "<a/>\n\004" | script -qec "$1 -; echo rc=\$?" /dev/null' _ "$XMLSNIFF"
	assert_line --partial '-: UTF-8 (default), no declaration'
	assert_line --partial 'rc=0'
}

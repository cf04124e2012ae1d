#!/usr/bin/env bats
# The table of diagnostic codes: --list-codes and --explain.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# The codes of the manual page's DIAGNOSTICS section, one a line.
man_codes() {
	sed -n '/^\.Sh DIAGNOSTICS/,/^\.Sh SEE ALSO/p' "$TOP/man/xmlsniff.1" |
	    sed -n 's/^\.It Cm \([a-z0-9-]*\) Pq \(error\|warning\)$/\1 \2/p'
}

@test "--list-codes: every code of the manual, with its severity, in its order" {
	xs --list-codes
	assert_success
	[ -z "$stderr" ]
	[ "$(printf '%s\n' "$output" | awk '{ print $1, $2 }')" = "$(man_codes)" ]
	[ "${#lines[@]}" -ge 18 ]
}

@test "--list-codes: the columns are aligned, a meaning on every line" {
	xs --list-codes
	assert_success
	assert_line 'decl-mismatch          error    the encoding declaration contradicts the BOM or the byte pattern'
	assert_line 'utf32                  warning  UTF-32, which is NOT RECOMMENDED for XML'
	assert_line 'charset-decl-conflict  warning  the charset parameter and the declaration disagree'
	local l
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^[a-z0-9-]+\ +(error|warning)\ +[^\ ] ]] ||
		    fail "not a code line: $l"
		[[ "${l:23:8}" == "error   " || "${l:23:8}" == "warning " ]] ||
		    fail "severity not in column 24: $l"
	done
}

@test "--list-codes with a FILE operand is a usage error" {
	xs --list-codes a.xml
	assert_failure 2
	[ -z "$output" ]
	stderr_has 'xmlsniff: --list-codes, --list-encodings and --explain read no inputs'
	try_help
}

@test "--explain=utf32: meaning, clause, example and fix" {
	xs --explain=utf32
	assert_success
	[ -z "$stderr" ]
	assert_output "utf32 (warning): UTF-32, which is NOT RECOMMENDED for XML

  The entity, or the transcoded output, is UTF-32. Support for its
  serializations varies widely and their use raises security concerns,
  so it is not recommended for XML.

Clause:
  RFC 7303 section 2.2

Example:
  \$ printf '\\0\\0\\376\\377\\0\\0\\0<\\0\\0\\0a\\0\\0\\0/\\0\\0\\0>' | xmlsniff

Fix:
  Use UTF-8."
}

@test "--explain CODE, as a separate argument, is the same" {
	xs --explain decl-mismatch
	assert_success
	assert_line --index 0 'decl-mismatch (error): the encoding declaration contradicts the BOM or the byte pattern'
	assert_line '  XML 1.0 section 4.3.3 and Appendix F'
}

@test "--explain=utf8-bom gives Unicode's reason, not RFC 7303 section 3.3" {
	xs --explain=utf8-bom
	assert_success
	assert_output --partial 'neither requires nor recommends'
	refute_output --partial '7303'
}

@test "--explain: an unknown code is a usage error" {
	xs --explain=no-such-code
	assert_failure 2
	[ -z "$output" ]
	stderr_has 'xmlsniff: --explain: "no-such-code" is not a diagnostic code (see --list-codes)'
	try_help
}

@test "--explain: the code name must match exactly" {
	xs --explain=UTF32
	assert_failure 2
	xs --explain=
	assert_failure 2
}

@test "--explain: the example of every code draws that code" {
	local bin code example
	bin="$BATS_TEST_TMPDIR/bin"
	mkdir -p "$bin"
	ln -s "$XMLSNIFF" "$bin/xmlsniff"
	"$XMLSNIFF" --list-codes | awk '{ print $1 }' > codes
	[ "$(wc -l < codes)" -eq "$(man_codes | wc -l)" ]
	while read -r code; do
		example=$("$XMLSNIFF" --explain="$code" |
		    sed -n 's/^  \$ //p')
		[ -n "$example" ] || fail "$code: no example"
		PATH="$bin:$PATH" sh -c "$example" > out 2> err || true
		grep -q "\[$code\]" err || fail "$code: $example drew: $(cat err)"
	done < codes
}

# not-xml: after the BOM and white space, not '<' in the entity's own
# encoding, or nothing at all (issue 23 item 4).
NOTX="this is not XML (XML 1.0 [1], [22]) [not-xml]"

@test "not-xml: text, an empty file, a lone BOM and white space only; a warning, --strict exits 0" {
	printf 'key=value\n' > a.xml
	: > e.xml
	printf '\357\273\277' > b.xml
	printf ' \r\n\t\n' > w.xml
	xs --strict a.xml e.xml b.xml w.xml
	assert_success
	assert_output "a.xml: UTF-8 (default), no declaration, 1 warning
e.xml: UTF-8 (default), no declaration, 1 warning
b.xml: UTF-8 (BOM), no declaration, 2 warnings
w.xml: UTF-8 (default), no declaration, 1 warning"
	[ "${stderr_lines[0]}" = "a.xml:1:1: warning: the first character (after any BOM and white space) is 'k', not '<': $NOTX" ]
	[ "${stderr_lines[1]}" = "e.xml:1:1: warning: the entity is empty: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]" ]
	[[ "${stderr_lines[2]}" == *"[utf8-bom]" ]]
	[ "${stderr_lines[3]}" = "b.xml:1:1: warning: the entity is a BOM and nothing else: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]" ]
	[ "${stderr_lines[4]}" = "w.xml:3:1: warning: the entity holds nothing but white space: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]" ]
	xs --error=not-xml --strict e.xml
	assert_failure 1
}

@test "not-xml: read in the entity's encoding: UTF-16, UTF-32 and EBCDIC '<' are '<'" {
	# UTF-16LE BOM, LF, "<a/>": XML.  UTF-16BE BOM, "x": not.
	printf '\377\376\n\0<\0a\0/\0>\0' > le.xml
	printf '\376\377\0x' > be.xml
	# UTF-32BE BOM, "<a/>" (utf32 and missing-decl only).
	printf '\0\0\376\377\0\0\0<\0\0\0a\0\0\0/\0\0\0>' > u32.xml
	# IBM037: "<a/>" is 4C 81 61 6E; "ab" is 81 82.
	printf '\114\201\141\156' > e1.xml
	printf '\201\202' > e2.xml
	xs le.xml be.xml u32.xml
	assert_success
	assert_output "le.xml: UTF-16LE (BOM), no declaration
be.xml: UTF-16BE (BOM), no declaration, 1 warning
u32.xml: UTF-32BE (BOM), no declaration, 2 warnings"
	assert_equal "${stderr_lines[0]}" "be.xml:1:1: warning: the first character (after any BOM and white space) is 'x', not '<': $NOTX"
	[[ "${stderr_lines[1]}" == *"[utf32]" ]]
	[[ "${stderr_lines[2]}" == *"[missing-decl]" ]]
	[ "${#stderr_lines[@]}" -eq 3 ]
	need_iconv IBM037
	xs --encoding=IBM037 --ignore=missing-decl e1.xml e2.xml
	assert_success
	assert_line --index 0 'e1.xml: IBM037 (charset), no declaration, charset "IBM037"'
	assert_line --index 1 'e2.xml: IBM037 (charset), no declaration, charset "IBM037", 1 warning'
	assert_equal "$stderr" "e2.xml:1:1: warning: the first character (after any BOM and white space) is 'a', not '<': $NOTX"
}

@test "not-xml: a DTD may begin with '%'; an external parsed entity with text; neither with anything for a DTD" {
	printf '%%pe;\n<!ELEMENT a EMPTY>' > a.dtd
	printf 'Some text &amp; more' > t.ent
	: > empty.dtd
	printf 'x' > x.dtd
	xs a.dtd t.ent empty.dtd x.dtd
	assert_success
	assert_output "a.dtd: UTF-8 (default), no declaration
t.ent: UTF-8 (default), no declaration
empty.dtd: UTF-8 (default), no declaration
x.dtd: UTF-8 (default), no declaration, 1 warning"
	assert_equal "$stderr" "x.dtd:1:1: warning: the first character (after any BOM and white space) is 'x', not '<' or '%' of an external DTD subset: $NOTX"
}

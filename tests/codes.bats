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
	stderr_has 'usage: xmlsniff'
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
	stderr_has 'usage: xmlsniff'
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

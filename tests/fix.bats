#!/usr/bin/env bats
# --fix: each class of repair from exact bytes, the files it refuses, the
# files it leaves alone (inode and mtime kept), --dry-run, the usage errors
# and exit statuses; and --in-place leaving a file whose bytes would not
# change untouched.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# inode_mtime FILE: "inode mtime" of FILE.
inode_mtime() {
	stat -c '%i %Y' "$1"
}

# chars FILE ENC: the characters of FILE as UTF-8, read as ENC, without
# a BOM or a declaration.
chars() {
	iconv -f "$2" -t UTF-8 "$1" | sed -e '1s/^\xef\xbb\xbf//' -e '1s/^<?xml[^>]*?>//'
}

# no_temp: no temporary file left in the current directory.
no_temp() {
	local left
	left=$(ls -A | grep 'xmlsniff-' || true)
	[ -z "$left" ] || fail "temporary files left: $left"
}

# clean ARGS... FILE...: each FILE now passes --strict without a
# diagnostic.
clean() {
	run_apart "$XMLSNIFF" --strict "$@"
	[ "$status" -eq 0 ] || fail "not clean ($status): $output $stderr"
	[ -z "$stderr" ] || fail "diagnostics: $stderr"
}

# fixed LINE [ARGS...]: xmlsniff --fix ARGS f.xml rewrites f.xml into the
# bytes of the file want, says LINE and exits 1; then f.xml passes
# --strict with ARGS, and no temporary file is left.
fixed() {
	local line=$1

	shift
	xs --fix "$@" f.xml
	assert_failure 1
	assert_output "$line"
	cmp want f.xml || fail "f.xml is not as want"
	local saved=$stderr
	clean "$@" f.xml
	stderr=$saved
	no_temp
}

# ---------------------------------------------------------------------------
# Each class of repair

@test "UTF-16LE BOM under encoding=\"UTF-16LE\": the forbidden BOM is stripped" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a>caf\303\251</a>'; } > f.xml
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a>caf\303\251</a>' > want
	chars f.xml UTF-16LE > before
	fixed 'f.xml: UTF-16LE (BOM), declared "UTF-16LE", 1 error; written: stripped a forbidden BOM'
	stderr_has '[bom-forbidden]'
	chars f.xml UTF-16LE | cmp - before
}

@test "UTF-16BE BOM under encoding=\"UTF-16BE\": stripped too" {
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16BE"?><a/>'; } > f.xml
	enc UTF-16BE '<?xml version="1.0" encoding="UTF-16BE"?><a/>' > want
	fixed 'f.xml: UTF-16BE (BOM), declared "UTF-16BE", 1 error; written: stripped a forbidden BOM'
}

@test "UTF-32LE BOM under encoding=\"UTF-32LE\": the forbidden BOM is stripped" {
	{ printf '\377\376\0\0'; enc UTF-32LE '<?xml version="1.0" encoding="UTF-32LE"?><a/>'; } > f.xml
	enc UTF-32LE '<?xml version="1.0" encoding="UTF-32LE"?><a/>' > want
	fixed 'f.xml: UTF-32LE (BOM), declared "UTF-32LE", 1 error; written: stripped a forbidden BOM' --ignore=utf32
}

@test "a UTF-8 BOM is kept by default (a warning), stripped under --error=utf8-bom" {
	printf '\357\273\277<?xml version="1.0" encoding="utf-8"?><a>\303\251</a>' > f.xml
	cp f.xml orig
	xs --fix f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (BOM), declared "utf-8", 1 warning; unchanged'
	cmp f.xml orig
	printf '<?xml version="1.0" encoding="utf-8"?><a>\303\251</a>' > want
	fixed 'f.xml: UTF-8 (BOM), declared "utf-8", 1 error; written: stripped the UTF-8 BOM' --error=utf8-bom
}

@test "a BOM'd UTF-16 file declared ISO-8859-1: the declaration is corrected, nothing else" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>\n<a>\342\202\254</a>\n'; } > f.xml
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16" standalone="yes"?>\n<a>\342\202\254</a>\n'; } > want
	chars f.xml UTF-16 > before
	fixed 'f.xml: UTF-16LE (BOM), declared "ISO-8859-1", 1 error; written: declared encoding "ISO-8859-1" corrected to "UTF-16"'
	chars f.xml UTF-16 | cmp - before
}

@test "a UTF-8 BOM declared Shift_JIS: the declaration says UTF-8, the BOM stays" {
	printf "\357\273\277<?xml version='1.0' encoding='Shift_JIS'?><a/>" > f.xml
	printf "\357\273\277<?xml version='1.0' encoding='UTF-8'?><a/>" > want
	fixed 'f.xml: UTF-8 (BOM), declared "Shift_JIS", 1 error; written: declared encoding "Shift_JIS" corrected to "UTF-8"' --ignore=utf8-bom
}

@test "a declaration the charset overrides (charset-decl-conflict) is corrected to the charset" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>caf\351</a>' > f.xml
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\351</a>' > want
	fixed 'f.xml: ISO-8859-1 (charset), declared "UTF-8", charset "ISO-8859-1", 1 warning; written: declared encoding "UTF-8" corrected to "ISO-8859-1"' --content-type='text/xml; charset=ISO-8859-1'
}

# BOM-less, unlabelled UTF-16 whose first characters are '<' and a name
# (issue 23 item 7): read as UTF-8 for want of a label, but the byte
# order is beyond question, so --fix adds the BOM in that order.
@test "UTF-16LE without a BOM or a label, '<' and a name first: the BOM is added" {
	# "<a>caf\u00e9</a>\n" in UTF-16LE, exact bytes.
	printf '<\0a\0>\0c\0a\0f\0\351\0<\0/\0a\0>\0\n\0' > f.xml
	{ printf '\377\376'; cat f.xml; } > want
	fixed 'f.xml: UTF-8 (default), no declaration, 2 errors, 1 warning; written: added a little-endian BOM (read as UTF-16LE: the first characters show the byte order)'
}

@test "UTF-16BE without a BOM or a label, white space then '<' and a name: the BOM is added" {
	printf '\0\n\0<\0B\0/\0>' > f.xml
	{ printf '\376\377'; cat f.xml; } > want
	fixed 'f.xml: UTF-8 (default), no declaration, 1 error, 1 warning; written: added a big-endian BOM (read as UTF-16BE: the first characters show the byte order)'
}

@test "BOM-less UTF-16LE with --allow-encoding=UTF-8: converted to UTF-8 instead" {
	printf '<\0a\0>\0\351\0<\0/\0a\0>\0' > f.xml
	printf '<a>\303\251</a>' > want
	fixed 'f.xml: UTF-8 (default), no declaration, 2 errors, 1 warning; written: transcoded from UTF-16LE to UTF-8' --allow-encoding=UTF-8
}

@test "BOM-less UTF-16 refused: a lone surrogate, or no '<' first to show the order; the file untouched" {
	# "<a" then an unpaired high surrogate D800.
	printf '<\0a\0\0\330>\0' > f.xml
	cp f.xml before
	xs --fix f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-8 (default), no declaration, 2 errors, 1 warning; refused: the input has illegal bytes; nothing is guessed'
	cmp before f.xml
	# "hi" first: nothing shows the byte order, the NULs stand.
	printf 'h\0i\0<\0a\0/\0>\0' > f.xml
	cp f.xml before
	xs --fix f.xml
	assert_failure 1
	assert_output --partial 'refused: it has characters that XML does not allow'
	cmp before f.xml
	no_temp
}

@test "UTF-16 labelled utf-16 without a BOM: the BOM is added, little-endian from the pattern" {
	enc UTF-16LE '<?xml version="1.0" encoding="utf-16"?><a>\303\251</a>' > f.xml
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="utf-16"?><a>\303\251</a>'; } > want
	fixed 'f.xml: UTF-16LE (declaration), declared "utf-16", 1 error; written: added a little-endian BOM (byte order from the first characters)'
}

@test "UTF-16 labelled utf-16 without a BOM: the BOM is added, big-endian from the pattern" {
	enc UTF-16BE '<?xml version="1.0" encoding="utf-16"?><a>\303\251</a>' > f.xml
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="utf-16"?><a>\303\251</a>'; } > want
	fixed 'f.xml: UTF-16BE (declaration), declared "utf-16", 1 error; written: added a big-endian BOM (byte order from the first characters)'
}

@test "16-bit bytes without a BOM or an encoding (no-declaration): the BOM is added" {
	enc UTF-16BE '<?xml version="1.0"?><a/>' > f.xml
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0"?><a/>'; } > want
	fixed 'f.xml: UTF-16BE (sniffed), declaration without encoding, 2 errors; written: added a big-endian BOM (byte order from the first characters)'
}

@test "16-bit bytes declared ISO-8859-1: a BOM and the right declaration" {
	enc UTF-16LE '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > f.xml
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > want
	fixed 'f.xml: UTF-16LE (sniffed), declared "ISO-8859-1", 1 error; written: added a little-endian BOM (byte order from the first characters); declared encoding "ISO-8859-1" corrected to "UTF-16"'
}

@test "UTF-16 whose byte order is in doubt (a charset, no BOM, no pattern) is refused" {
	enc UTF-16LE '<a/>' > f.xml
	cp f.xml orig
	xs --fix --content-type='application/xml; charset=utf-16' f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-16BE (charset), no declaration, charset "utf-16", 1 error, 1 warning; refused: its byte order is in doubt: there is no BOM and the first characters do not show it'
	stderr_has 'xmlsniff: f.xml: not fixed: its byte order is in doubt'
	cmp f.xml orig
}

@test "an entity known only by its charset gets a declaration" {
	printf '<a>caf\351</a>' > f.xml
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\351</a>' > want
	fixed 'f.xml: ISO-8859-1 (charset), no declaration, charset "ISO-8859-1", 1 warning; written: added a declaration with encoding="ISO-8859-1"' --content-type='text/xml; charset=ISO-8859-1'
}

@test "a declaration without encoding under a charset gets encoding= after its version" {
	printf "<?xml version='1.0' standalone='yes'?><a>caf\351</a>" > f.xml
	printf "<?xml version='1.0' encoding='ISO-8859-1' standalone='yes'?><a>caf\351</a>" > want
	fixed 'f.xml: ISO-8859-1 (charset), declaration without encoding, charset "latin1", 1 warning; written: added encoding="ISO-8859-1" to the declaration' --content-type='text/xml; charset=latin1'
}

@test "Latin-1 under --allow-encoding=utf-8: transcoded to UTF-8, characters unchanged" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a t="\344">caf\351 \327</a>\n' > f.xml
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a t="\303\244">caf\303\251 \303\227</a>\n' > want
	chars f.xml ISO-8859-1 > before
	fixed 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 error; written: transcoded from ISO-8859-1 to UTF-8; declared encoding "ISO-8859-1" corrected to "UTF-8"' --allow-encoding=utf-8
	chars f.xml UTF-8 | cmp - before
}

@test "--allow-encoding=UTF-16,UTF-8: the first one is the target, with its BOM" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>' > f.xml
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a>\303\251</a>'; } > want
	fixed 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 error; written: transcoded from ISO-8859-1 to UTF-16; declared encoding "ISO-8859-1" corrected to "UTF-16"' --allow-encoding=UTF-16,UTF-8
}

@test "utf32 made an error: refused in UTF-32, mended by --allow-encoding=UTF-8" {
	{ printf '\0\0\376\377'; enc UTF-32BE '<?xml version="1.0" encoding="UTF-32"?><a>\303\251</a>'; } > f.xml
	cp f.xml orig
	xs --fix --error=utf32 f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-32BE (BOM), declared "UTF-32", 1 error; refused: utf32 cannot be fixed automatically'
	cmp f.xml orig
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\303\251</a>' > want
	fixed 'f.xml: UTF-32BE (BOM), declared "UTF-32", 2 errors; written: transcoded from UTF-32BE to UTF-8; declared encoding "UTF-32" corrected to "UTF-8"' --error=utf32 --allow-encoding=UTF-8
}

@test "a file in an allowed encoding is not transcoded" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>' > f.xml
	touch -d @1000000000 f.xml
	before=$(inode_mtime f.xml)
	xs --fix --allow-encoding=UTF-8,latin1 f.xml
	assert_success
	assert_output 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"; unchanged'
	assert_equal "$(inode_mtime f.xml)" "$before"
}

@test "a character the first allowed encoding lacks: refused, untouched" {
	printf '<a>\342\202\254</a>' > f.xml
	cp f.xml orig
	xs --fix --allow-encoding=ISO-8859-1 f.xml
	assert_failure 1
	assert_output --regexp '^f\.xml: UTF-8 \(default\), no declaration, 1 error; refused: U\+20AC .*ISO-8859-1'
	cmp f.xml orig
	no_temp
}

# ---------------------------------------------------------------------------
# Refused: nothing is guessed

@test "illegal bytes: refused, the file byte-identical" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a>'; printf '\000\334'; enc UTF-16LE '</a>'; } > f.xml
	cp f.xml orig
	xs --fix f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-16LE (BOM), declared "UTF-16LE", 2 errors; refused: it has bytes that are illegal in UTF-16LE; nothing is guessed, mend them by hand'
	stderr_has 'xmlsniff: f.xml: not fixed: it has bytes that are illegal in UTF-16LE'
	stderr_has '[illegal-sequence]'
	cmp f.xml orig
	no_temp
}

@test "illegal bytes stay refused with illegal-sequence ignored" {
	printf '<a>\377</a>' > f.xml
	cp f.xml orig
	xs --fix --ignore=illegal-sequence f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-8 (default), no declaration; refused: it has bytes that are illegal in UTF-8; nothing is guessed, mend them by hand'
	cmp f.xml orig
}

@test "characters XML does not allow: refused" {
	printf '<a>\001</a>' > f.xml
	cp f.xml orig
	xs --fix f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error; refused: it has characters that XML does not allow; nothing is guessed, mend them by hand'
	cmp f.xml orig
}

@test "an encoding that cannot be determined: refused" {
	printf '<?xml version="1.0" encoding="UTF-16"?><a/>' > f.xml
	cp f.xml orig
	xs --fix f.xml
	assert_failure 1
	assert_output 'f.xml: unknown (sniffed), declared "UTF-16", 1 error; refused: its encoding cannot be determined or decoded'
	cmp f.xml orig
}

@test "a malformed declaration: refused" {
	printf '<?xml encoding="UTF-8"?><a/>' > f.xml
	cp f.xml orig
	xs --fix f.xml
	assert_failure 1
	assert_output --regexp '; refused: its declaration is malformed or not at the start; mend it by hand$'
	cmp f.xml orig
}

@test "an error no change mends (suspicious-label under --error): refused" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\303\251</a>' > f.xml
	cp f.xml orig
	xs --fix f.xml
	assert_success
	assert_output 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 warning; unchanged'
	xs --fix --error=suspicious-label f.xml
	assert_failure 1
	assert_output 'f.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 error; refused: suspicious-label cannot be fixed automatically'
	cmp f.xml orig
}

@test "a file that needs nothing is not re-encoded (a redundant ISO-2022-JP escape stays)" {
	printf '<?xml version="1.0" encoding="ISO-2022-JP"?><a>\033$B$"\033(B\033(B</a>' > f.xml
	cp f.xml orig
	xs --fix --content-type='text/xml; charset=iso-2022-jp' f.xml
	assert_success
	assert_output 'f.xml: ISO-2022-JP (charset), declared "ISO-2022-JP", charset "iso-2022-jp"; unchanged'
	cmp f.xml orig
}

@test "a repair whose re-encoding would change the content (a redundant ISO-2022-JP escape) is refused" {
	printf '<?xml version="1.0" encoding="Shift_JIS"?><a>\033$B$"\033(B\033(B</a>' > f.xml
	cp f.xml orig
	xs --fix --content-type='text/xml; charset=iso-2022-jp' f.xml
	assert_failure 1
	assert_output 'f.xml: ISO-2022-JP (charset), declared "Shift_JIS", charset "iso-2022-jp", 1 warning; refused: re-encoding would change the content, not only the BOM and declaration'
	stderr_has 'xmlsniff: f.xml: not transcoded: re-encoding would change the content'
	cmp f.xml orig
	no_temp
}

@test "the refusal comes after the file's diagnostics on standard error" {
	printf '<a>\377</a>' > f.xml
	xs --fix f.xml
	assert_failure 1
	assert_equal "$stderr" $'f.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]\nxmlsniff: f.xml: not fixed: it has bytes that are illegal in UTF-8; nothing is guessed, mend them by hand'
}

# ---------------------------------------------------------------------------
# Unchanged: not rewritten

@test "a file that needs nothing keeps its inode and mtime (exit 0)" {
	printf '<?xml version="1.0" encoding="utf-8"?>\n<a>caf\303\251</a>\n' > f.xml
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > g.xml
	printf '<a/>' > h.xml
	touch -d @1000000000 f.xml g.xml h.xml
	bf=$(inode_mtime f.xml) bg=$(inode_mtime g.xml) bh=$(inode_mtime h.xml)
	xs --fix f.xml g.xml h.xml
	assert_success
	assert_output $'f.xml: UTF-8 (declaration), declared "utf-8"; unchanged\ng.xml: UTF-16LE (BOM), declared "UTF-16"; unchanged\nh.xml: UTF-8 (default), no declaration; unchanged'
	assert_equal "$stderr" ""
	assert_equal "$(inode_mtime f.xml)" "$bf"
	assert_equal "$(inode_mtime g.xml)" "$bg"
	assert_equal "$(inode_mtime h.xml)" "$bh"
	no_temp
}

@test "a fixed file, fixed again, is unchanged" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > f.xml
	xs --fix f.xml
	assert_failure 1
	touch -d @1000000000 f.xml
	before=$(inode_mtime f.xml)
	xs --fix f.xml
	assert_success
	assert_output 'f.xml: UTF-16LE (declaration), declared "UTF-16LE"; unchanged'
	assert_equal "$(inode_mtime f.xml)" "$before"
}

# ---------------------------------------------------------------------------
# --dry-run, JSON, several files, exit status

@test "--fix --dry-run writes nothing and exits as --fix would" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > f.xml
	printf '<a/>' > ok.xml
	cp f.xml orig
	touch -d @1000000000 f.xml
	before=$(inode_mtime f.xml)
	xs --fix --dry-run f.xml ok.xml
	assert_failure 1
	assert_output $'f.xml: UTF-16LE (BOM), declared "UTF-16LE", 1 error; would-write: stripped a forbidden BOM\nok.xml: UTF-8 (default), no declaration; unchanged'
	cmp f.xml orig
	assert_equal "$(inode_mtime f.xml)" "$before"
	no_temp
	xs --fix --dry-run ok.xml
	assert_success
}

@test "--fix --json: the member fix with action, reason and changes" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > f.xml
	printf '<a>\377</a>' > bad.xml
	printf '<a/>' > ok.xml
	xs --fix --json f.xml bad.xml ok.xml
	assert_failure 1
	[[ "${lines[0]}" == *',"diagnostics":[{"severity":"error","code":"bom-forbidden",'*'}],"fix":{"action":"written","reason":null,"changes":["stripped a forbidden BOM"]}}' ]] || fail "${lines[0]}"
	[[ "${lines[1]}" == *'"fix":{"action":"refused","reason":"it has bytes that are illegal in UTF-8; nothing is guessed, mend them by hand","changes":[]}}' ]] || fail "${lines[1]}"
	[[ "${lines[2]}" == *'"diagnostics":[],"fix":{"action":"unchanged","reason":null,"changes":[]}}' ]] || fail "${lines[2]}"
	if command -v python3 > /dev/null; then
		printf '%s\n' "$output" | python3 -m json.tool --json-lines > /dev/null
	fi
	assert_equal "$stderr" 'xmlsniff: bad.xml: not fixed: it has bytes that are illegal in UTF-8; nothing is guessed, mend them by hand'
}

@test "--fix --dry-run --json says would-write" {
	printf '\357\273\277<a/>' > f.xml
	xs --fix --dry-run --json --error=utf8-bom f.xml
	assert_failure 1
	assert_output --partial '"fix":{"action":"would-write","reason":null,"changes":["stripped the UTF-8 BOM"]}}'
	printf '\357\273\277<a/>' | cmp - f.xml
}

@test "--fix -q: no line, the exit status still says a file changed" {
	printf '\357\273\277<a/>' > f.xml
	xs --fix -q --error=utf8-bom f.xml
	assert_failure 1
	assert_output ""
	printf '<a/>' | cmp - f.xml
}

@test "--fix -r fixes the files below a directory" {
	mkdir -p d/sub
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > d/sub/f.xml
	printf '<a/>' > d/ok.xml
	xs --fix -r d
	assert_failure 1
	assert_output $'d/ok.xml: UTF-8 (default), no declaration; unchanged\nd/sub/f.xml: UTF-16LE (BOM), declared "UTF-16LE", 1 error; written: stripped a forbidden BOM'
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | cmp - d/sub/f.xml
}

@test "--fix --files0-from reads the names; a \"-\" in the list is refused" {
	printf '\357\273\277<a/>' > f.xml
	printf '<a/>' > ok.xml
	printf 'f.xml\0ok.xml\0' > list
	xs --fix --error=utf8-bom --files0-from=list
	assert_failure 1
	assert_output $'f.xml: UTF-8 (BOM), no declaration, 1 error; written: stripped the UTF-8 BOM\nok.xml: UTF-8 (default), no declaration; unchanged'
	printf '<a/>' | cmp - f.xml
	printf 'ok.xml\0-\0' > list
	xs --fix --files0-from=list
	assert_failure 2
	assert_output 'ok.xml: UTF-8 (default), no declaration; unchanged'
	assert_equal "$stderr" 'xmlsniff: list: name 2 is "-", but --in-place and --fix cannot write back to standard input'
}

@test "--fix keeps the mode of the file it rewrites" {
	printf '\357\273\277<a/>' > f.xml
	chmod 640 f.xml
	xs --fix --error=utf8-bom f.xml
	assert_failure 1
	assert_equal "$(stat -c %a f.xml)" 640
}

@test "--fix on a FIFO: not fixed, exit 2" {
	mkfifo p.xml
	{ printf '<a/>' > p.xml & } 2>/dev/null
	xs --fix p.xml
	assert_failure 2
	assert_output 'p.xml: UTF-8 (default), no declaration; failed: not a regular file'
	assert_equal "$stderr" 'xmlsniff: p.xml: not fixed: --fix needs a regular file'
}

@test "--fix: a missing file is exit 2 and the others are still fixed" {
	printf '\357\273\277<a/>' > f.xml
	xs --fix --error=utf8-bom nosuch.xml f.xml
	assert_failure 2
	assert_output 'f.xml: UTF-8 (BOM), no declaration, 1 error; written: stripped the UTF-8 BOM'
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: nosuch.xml: No such file or directory'
	printf '<a/>' | cmp - f.xml
}

# ---------------------------------------------------------------------------
# Usage errors

@test "--fix usage errors: standard input, -, -o, --transcode-to, -i, --mime-encoding (exit 2)" {
	printf '<a/>' > f.xml
	xs --fix < f.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fix needs FILE operands, not standard input'
	xs --fix - < f.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fix cannot write back to standard input ("-")'
	xs --fix -o out.xml f.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fix rewrites each FILE in place; it takes no -o'
	xs --fix --transcode-to=UTF-8 f.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fix and --transcode-to exclude each other (--fix keeps the encoding, or takes the first --allow-encoding)'
	for o in -i --mime-encoding; do
		xs --fix $o f.xml
		assert_failure 2
		assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fix reports in the text line or with --json, not with -i or --mime-encoding'
	done
	[ ! -e out.xml ]
}

@test "--dry-run without --fix is a usage error (exit 2)" {
	printf '<a/>' > f.xml
	xs --dry-run f.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --dry-run goes with --fix'
	try_help
}

# ---------------------------------------------------------------------------
# --in-place: the same bytes are not written again

@test "--in-place into the file's own encoding: unchanged, inode, mtime and hard link kept" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\303\251</a>' > f.xml
	ln f.xml link.xml
	touch -d @1000000000 f.xml
	before=$(inode_mtime f.xml)
	xs --transcode-to=UTF-8 --in-place f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (declaration), declared "UTF-8"; unchanged'
	assert_equal "$(inode_mtime f.xml)" "$before"
	assert_equal "$(stat -c %h f.xml)" 2
	no_temp
}

@test "--in-place that changes the bytes: written" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\303\251</a>' > f.xml
	xs --transcode-to=UTF-16 --in-place f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (declaration), declared "UTF-8"; written'
	{ printf '\376\377'; enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a>\303\251</a>'; } | cmp - f.xml
}

@test "--in-place --json: the member fix says written or unchanged" {
	printf '<a/>' > a.xml
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > b.xml
	xs --json --transcode-to=UTF-8 --in-place a.xml b.xml
	assert_success
	[[ "${lines[0]}" == *'"fix":{"action":"unchanged","reason":null,"changes":[]}}' ]] || fail "${lines[0]}"
	[[ "${lines[1]}" == *'"fix":{"action":"written","reason":null,"changes":[]}}' ]] || fail "${lines[1]}"
}

@test "--in-place refused: the line says refused and why" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > f.xml
	xs --strict --transcode-to=UTF-8 --in-place f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-16LE (BOM), declared "UTF-16LE", 1 error; refused: the input has errors (--strict)'
	printf '<a>\377</a>' > g.xml
	xs --transcode-to=UTF-16 --in-place g.xml
	assert_failure 1
	assert_output 'g.xml: UTF-8 (default), no declaration, 1 error; refused: the input has illegal bytes; nothing is guessed'
	stderr_has '[illegal-sequence]'
}

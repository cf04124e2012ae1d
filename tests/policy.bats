#!/usr/bin/env bats
# Policy: --allow-encoding (encoding-not-allowed), --error and --ignore,
# their names and aliases, "all", and the usage errors of unknown names.
load helper

# The bytes of the UTF-16 and UTF-32 samples, made by iconv once for the
# file's tests and kept as printf formats.
setup_file() {
	# FF FE, then <?xml version="1.0" encoding="UTF-16"?><a/> in UTF-16LE.
	U16LE_BOM_FMT=$({ printf '\377\376'
	    enc UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } | fmt_of)
	U16BE_BOM_FMT=$({ printf '\376\377'
	    enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } | fmt_of)
	U16LE_FMT=$(enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' |
	    fmt_of)
	U32LE_BOM_FMT=$({ printf '\377\376\0\0'
	    enc UTF-32LE '<?xml version="1.0" encoding="UTF-32"?><a/>'; } | fmt_of)
	U32BE_BOM_FMT=$({ printf '\0\0\376\377'
	    enc UTF-32BE '<?xml version="1.0" encoding="UTF-32"?><a/>'; } | fmt_of)
	export U16LE_BOM_FMT U16BE_BOM_FMT U16LE_FMT U32LE_BOM_FMT U32BE_BOM_FMT
}

setup() {
	scratch_samples
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\303\251</a>' > u8.xml
	printf '\357\273\277<a/>' > u8bom.xml
	printf "$U16LE_BOM_FMT" > u16le-bom.xml
	printf "$U16BE_BOM_FMT" > u16be-bom.xml
	printf "$U16LE_FMT" > u16le.xml
	printf "$U32LE_BOM_FMT" > u32le-bom.xml
	printf "$U32BE_BOM_FMT" > u32be-bom.xml
	# 8-bit bytes declared UTF-16: the encoding cannot be determined.
	printf '<?xml version="1.0" encoding="UTF-16"?><a/>' > unknown.xml
}

NA_LATIN1='latin1.xml:1:1: error: ISO-8859-1 is not an allowed encoding (UTF-8); convert it with "xmlsniff --transcode-to=UTF-8 --in-place FILE" or "xmlsniff --fix --allow-encoding=UTF-8 FILE" [encoding-not-allowed]'

# ---------------------------------------------------------------------------
# --allow-encoding

@test "--allow-encoding=UTF-8: a UTF-8 file passes --strict" {
	xs --strict --allow-encoding=UTF-8 u8.xml plain.xml
	assert_success
	assert_output $'u8.xml: UTF-8 (declaration), declared "UTF-8"\nplain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" ""
}

@test "--allow-encoding=UTF-8: ISO-8859-1 is the error encoding-not-allowed, with the command that converts it" {
	xs --allow-encoding=UTF-8 latin1.xml
	assert_success
	assert_output 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 error'
	assert_equal "$stderr" "$NA_LATIN1"
}

@test "--allow-encoding with --strict: a file not allowed makes the exit status 1" {
	xs --strict --allow-encoding=UTF-8 u8.xml latin1.xml
	assert_failure 1
	assert_equal "${lines[1]}" 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 error'
	assert_equal "$stderr" "$NA_LATIN1"
}

@test "--allow-encoding: the aliases utf8, UTF8 and utf-8 all name UTF-8" {
	for name in utf8 UTF8 utf-8 csUTF8; do
		xs --strict --allow-encoding=$name u8.xml
		assert_success
		assert_equal "$stderr" ""
		xs --allow-encoding=$name latin1.xml
		assert_equal "$stderr" "$NA_LATIN1"
	done
}

@test "--allow-encoding=latin1 allows a file declared ISO-8859-1" {
	xs --strict --allow-encoding=latin1 latin1.xml
	assert_success
	assert_equal "$stderr" ""
}

@test "--allow-encoding=UTF-16 allows either byte order, with or without a BOM" {
	xs --strict --allow-encoding=utf-16 u16le-bom.xml u16be-bom.xml u16le.xml
	assert_success
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 3
}

@test "--allow-encoding=UTF-16LE allows little-endian only" {
	xs --strict --allow-encoding=UTF-16LE u16le-bom.xml u16le.xml u16be-bom.xml
	assert_failure 1
	assert_equal "$stderr" 'u16be-bom.xml:1:1: error: UTF-16BE is not an allowed encoding (UTF-16LE); convert it with "xmlsniff --transcode-to=UTF-16LE --in-place FILE" or "xmlsniff --fix --allow-encoding=UTF-16LE FILE" [encoding-not-allowed]'
}

@test "--allow-encoding=UTF-32 allows either byte order" {
	xs --strict --allow-encoding=UTF-32 --ignore=utf32 u32le-bom.xml u32be-bom.xml
	assert_success
	assert_equal "$stderr" ""
	xs --strict --allow-encoding=UTF-8 --ignore=utf32 u32le-bom.xml
	assert_failure 1
	stderr_has 'UTF-32LE is not an allowed encoding (UTF-8)'
}

@test "--allow-encoding: a list, and repeated options, add up" {
	xs --strict --allow-encoding=UTF-8,ISO-8859-1 u8.xml latin1.xml
	assert_success
	assert_equal "$stderr" ""
	xs --strict --allow-encoding=UTF-8 --allow-encoding=latin1 u8.xml latin1.xml
	assert_success
	assert_equal "$stderr" ""
	xs --allow-encoding=utf8,l1 u16le.xml
	assert_equal "$stderr" 'u16le.xml:1:1: error: UTF-16LE is not an allowed encoding (UTF-8,ISO-8859-1); convert it with "xmlsniff --transcode-to=UTF-8 --in-place FILE" or "xmlsniff --fix --allow-encoding=UTF-8,ISO-8859-1 FILE" [encoding-not-allowed]'
}

@test "--allow-encoding: 64 encodings at most, the longest names among them, the 64th matched as the first; a 65th is a usage error (exit 2)" {
	local long
	# the 63 longest names but UTF-8's (24 bytes and down)
	long=$("$XMLSNIFF" --list-encodings | grep -vx UTF-8 |
	    awk '{ print length($0), $0 }' | sort -k1,1nr -k2 | head -n 63 |
	    cut -d' ' -f2- | paste -sd, -)
	[ "$(echo "$long" | tr ',' '\n' | wc -l)" -eq 63 ]
	xs --strict --allow-encoding="$long,UTF-8" u8.xml
	assert_success
	assert_equal "$stderr" ""
	xs --strict --allow-encoding="UTF-8,$long" u8.xml
	assert_success
	assert_equal "$stderr" ""
	xs --strict --allow-encoding="$long" --allow-encoding=utf8 u8.xml
	assert_success
	# too many to name in the message: the first that fit in 120
	# bytes, how many more, and --fix told to take the same list
	xs --strict --allow-encoding="$long" u8.xml
	assert_failure 1
	assert_equal "${stderr%%,*}" "u8.xml:1:1: error: UTF-8 is not an allowed encoding (ISO-10646-Unicode-Latin1"
	assert_equal "${stderr#*ANSI_X3.110-1983}" ', and 57 more); convert it with "xmlsniff --transcode-to=ISO-10646-Unicode-Latin1 --in-place FILE", or with xmlsniff --fix and the same --allow-encoding [encoding-not-allowed]'
	xs --strict --allow-encoding="$long,UTF-8,latin1" u8.xml
	assert_failure 2
	assert_output ""
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --allow-encoding: more than 64 encodings'
}

@test "encoding-not-allowed: a list of 80 bytes is named whole, also in the --fix command; one of 81 is named, and --fix told to take the same list" {
	local seven=ISO-8859-1,ISO-8859-1,ISO-8859-1,ISO-8859-1,ISO-8859-1,ISO-8859-1,ISO-8859-1
	xs --allow-encoding="$seven,GBK" u8.xml
	assert_success
	assert_equal "$stderr" "u8.xml:1:1: error: UTF-8 is not an allowed encoding ($seven,GBK); convert it with \"xmlsniff --transcode-to=ISO-8859-1 --in-place FILE\" or \"xmlsniff --fix --allow-encoding=$seven,GBK FILE\" [encoding-not-allowed]"
	xs --allow-encoding="$seven,Big5" u8.xml
	assert_success
	assert_equal "$stderr" "u8.xml:1:1: error: UTF-8 is not an allowed encoding ($seven,Big5); convert it with \"xmlsniff --transcode-to=ISO-8859-1 --in-place FILE\", or with xmlsniff --fix and the same --allow-encoding [encoding-not-allowed]"
	# where the encoding cannot be told, the same list
	xs --allow-encoding="$seven,Big5,$seven,$seven" unknown.xml
	assert_equal "${stderr%%$'\n'*}" "unknown.xml:1:1: error: the encoding cannot be determined, so it is not one of the allowed ($seven,Big5,ISO-8859-1,ISO-8859-1,ISO-8859-1, and 11 more); label it, or convert it by hand [encoding-not-allowed]"
}

@test "--allow-encoding: an encoding that cannot be determined is not allowed, even with its error ignored" {
	xs --strict --allow-encoding=UTF-8 --ignore=decl-mismatch unknown.xml
	assert_failure 1
	assert_output 'unknown.xml: unknown (sniffed), declared "UTF-16", 1 error'
	assert_equal "$stderr" 'unknown.xml:1:1: error: the encoding cannot be determined, so it is not one of the allowed (UTF-8); label it, or convert it by hand [encoding-not-allowed]'
}

@test "--allow-encoding in JSON: the code, its severity and the error count" {
	xs --json --allow-encoding=UTF-8 latin1.xml
	assert_success
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"encoding-not-allowed","offset":0,"line":1,"column":1,"count":1,"message":"ISO-8859-1 is not an allowed encoding (UTF-8); '
	assert_equal "$stderr" ""
}

@test "--allow-encoding: an unknown name is a usage error naming it (exit 2)" {
	xs --allow-encoding=UTF-8,no-such-thing u8.xml
	assert_failure 2
	assert_output ""
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --allow-encoding: "no-such-thing" is not an encoding that the IANA registry or this system'"'"'s iconv knows'
	try_help
}

@test "--allow-encoding: an empty name is a usage error (exit 2)" {
	for list in '' 'UTF-8,' ',UTF-8' 'UTF-8,,latin1'; do
		xs --allow-encoding="$list" u8.xml
		assert_failure 2
		assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --allow-encoding: "" is not an encoding name'
	done
}

@test "--allow-encoding also checks the input of a transcode" {
	xs --strict --allow-encoding=UTF-8 --transcode-to=UTF-8 -o out.xml latin1.xml
	assert_failure 1
	stderr_has '[encoding-not-allowed]'
	stderr_has 'xmlsniff: latin1.xml: not transcoded: the input has errors (--strict)'
	[ ! -e out.xml ]
}

# ---------------------------------------------------------------------------
# --error

@test "--error=utf8-bom: the warning prints as an error and counts as one" {
	xs --error=utf8-bom u8bom.xml
	assert_success
	assert_output 'u8bom.xml: UTF-8 (BOM), no declaration, 1 error'
	assert_equal "$stderr" 'u8bom.xml:1:1: error: UTF-8 with a BOM: XML 1.0 section 4.3.3 allows it, but Unicode neither requires nor recommends one for UTF-8, and many consumers mishandle it ("Content is not allowed in prolog"); strip it with --transcode-to=UTF-8 [utf8-bom]'
}

@test "--strict --error=utf8-bom fails on a UTF-8 BOM; --strict alone does not" {
	xs --strict u8bom.xml
	assert_success
	xs --strict --error=utf8-bom u8bom.xml
	assert_failure 1
}

@test "--error in JSON: severity error, counted in errors and not in warnings" {
	xs --json --error=utf8-bom u8bom.xml
	assert_success
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"utf8-bom",'
}

@test "--error=all makes every warning an error" {
	xs --strict --error=all u32le-bom.xml
	assert_failure 1
	assert_output 'u32le-bom.xml: UTF-32LE (BOM), declared "UTF-32", 1 error'
	assert_equal "$stderr" 'u32le-bom.xml:1:1: error: UTF-32 is NOT RECOMMENDED for XML (RFC 7303 section 2.2); use UTF-8 [utf32]'
}

@test "--error: a list of codes, and repeated options, add up" {
	xs --error=utf32,utf8-bom u8bom.xml u32le-bom.xml
	assert_equal "${lines[0]}" 'u8bom.xml: UTF-8 (BOM), no declaration, 1 error'
	assert_equal "${lines[1]}" 'u32le-bom.xml: UTF-32LE (BOM), declared "UTF-32", 1 error'
	xs --error=utf32 --error=utf8-bom u8bom.xml u32le-bom.xml
	assert_equal "${lines[0]}" 'u8bom.xml: UTF-8 (BOM), no declaration, 1 error'
	assert_equal "${lines[1]}" 'u32le-bom.xml: UTF-32LE (BOM), declared "UTF-32", 1 error'
}

@test "--error naming an error code changes nothing" {
	xs --strict --error=illegal-sequence u8.xml
	assert_success
	assert_equal "$stderr" ""
}

@test "--error: an unknown code is a usage error naming it (exit 2)" {
	xs --error=utf8-bom,utf9-bom u8.xml
	assert_failure 2
	assert_output ""
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --error: "utf9-bom" is not a diagnostic code; did you mean utf8-bom?'
	try_help
}

# ---------------------------------------------------------------------------
# --ignore

@test "--ignore=utf8-bom: not printed and not counted" {
	xs --ignore=utf8-bom u8bom.xml
	assert_success
	assert_output 'u8bom.xml: UTF-8 (BOM), no declaration'
	assert_equal "$stderr" ""
}

@test "--ignore in JSON: not in the diagnostics nor in the counts" {
	xs --json --ignore=utf8-bom u8bom.xml
	assert_success
	assert_output --partial '"errors":0,"warnings":0,"diagnostics":[]}'
}

@test "--ignore of an error code: not reported, and --strict exits 0" {
	printf '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a/>' > mis.xml
	xs --strict mis.xml
	assert_failure 1
	xs --strict --ignore=decl-mismatch,utf8-bom mis.xml
	assert_success
	assert_output 'mis.xml: UTF-8 (BOM), declared "Shift_JIS"'
	assert_equal "$stderr" ""
}

@test "--ignore leaves the other codes reported" {
	printf '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a/>' > mis.xml
	xs --strict --ignore=utf8-bom mis.xml
	assert_failure 1
	assert_output 'mis.xml: UTF-8 (BOM), declared "Shift_JIS", 1 error'
	stderr_has '[decl-mismatch]'
	stderr_lacks '[utf8-bom]'
}

@test "--ignore=all hides everything" {
	printf '<a>\377</a>' > bad.xml
	xs --strict --ignore=all bad.xml
	assert_success
	assert_output 'bad.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" ""
}

@test "--ignore wins over --error" {
	xs --strict --error=all --ignore=utf8-bom u8bom.xml
	assert_success
	assert_output 'u8bom.xml: UTF-8 (BOM), no declaration'
	assert_equal "$stderr" ""
}

@test "--ignore=illegal-sequence: a transcode of illegal bytes still fails, says why and writes nothing" {
	printf '<a>\377</a>' > bad.xml
	xs --ignore=illegal-sequence --transcode-to=UTF-16 -o out.xml bad.xml
	assert_failure 1
	assert_output 'bad.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: bad.xml: not transcoded: the input has illegal bytes (ignored illegal-sequence); nothing is guessed'
	[ ! -e out.xml ]
}

@test "--ignore=illegal-sequence with --in-place: the file stays byte-identical" {
	printf '<a>\377</a>' > bad.xml
	cp bad.xml orig
	xs --ignore=illegal-sequence --transcode-to=UTF-16 --in-place bad.xml
	assert_failure 1
	assert_output 'bad.xml: UTF-8 (default), no declaration; refused: the input has illegal bytes (ignored illegal-sequence); nothing is guessed'
	cmp bad.xml orig
	[ -z "$(ls -A | grep xmlsniff-)" ]
}

@test "--ignore: an unknown or empty code is a usage error (exit 2)" {
	xs --ignore=no-such-code u8.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --ignore: "no-such-code" is not a diagnostic code (see DIAGNOSTICS in xmlsniff(1))'
	xs --ignore= u8.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --ignore: "" is not a diagnostic code'
}

@test "--ignore=encoding-not-allowed switches the allow list off" {
	xs --strict --allow-encoding=UTF-8 --ignore=encoding-not-allowed latin1.xml
	assert_success
	assert_equal "$stderr" ""
}

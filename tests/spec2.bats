#!/usr/bin/env bats
# Classes of inputs read against XML 1.0 sections 2.8, 2.11, 4.3.3,
# Appendix F and RFC 7303 section 3: line ends in single-byte encodings,
# the UCS forms, declared values as written, the declarations and BOMs of
# transcoded output, -o -, and the charset labels of -i.
#
# The loop over every kernel level of long EBCDIC text is in the unit
# driver (tests/kern_spec.c, spec_ebcdic_lines), at every level and feed
# against the reference; here the reference and the default level stay.
load helper

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
}

# in ENC TEXT: TEXT (printf escapes, UTF-8) in ENC, on standard output.
in_enc() {
	enc "$@"
}

# one_warning TEXT CODE: TEXT is exactly one line, the warning CODE at
# f.xml:1:1 (its wording is the business of the code's own tests).
one_warning() {
	[[ $1 != *$'\n'* && $1 == "f.xml:1:1: warning: "*" [$2]" ]] ||
	    fail "not one $2 warning: $1"
}

# each_path ARGS...: run xmlsniff ARGS under the character-at-a-time path
# and the default one; both must print what the first did ($output,
# $stderr and $status are those of the default path).
each_path() {
	local ref_out ref_err ref_st
	run_apart env XMLSNIFF_SIMD=ref "$XMLSNIFF" "$@"
	ref_out=$output ref_err=$stderr ref_st=$status
	xs "$@"
	assert_equal "$output" "$ref_out"
	assert_equal "$stderr" "$ref_err"
	assert_equal "$status" "$ref_st"
}

# ---- XML 1.0 section 2.11: line ends are decoded characters ----------

# Single-byte encodings whose LF is not the byte 0A (EBCDIC: 25, and 0A is
# U+008E) and, for comparison, ASCII-compatible ones.
# Only those that iconv(1) here can make and the binary under test can read;
# ebcdic_lack names the others, for skip_lacking.
ebcdic_list() {
	local e
	for e in IBM037 IBM500 IBM1047; do
		iconv -f UTF-8 -t "$e" < /dev/null 2> /dev/null &&
		    has_iconv "$e" && echo "$e"
	done
}

ebcdic_lack() {
	local e
	for e in IBM037 IBM500 IBM1047; do
		iconv -f UTF-8 -t "$e" < /dev/null 2> /dev/null &&
		    has_iconv "$e" || printf ' %s' "$e"
	done
}

@test "lines: an error on line 1 of EBCDIC, past the byte 0A (U+008E)" {
	local e d
	for e in $(ebcdic_list); do
		d="<?xml version=\"1.0\" encoding=\"$e\"?>"
		in_enc "$e" "$d<a>\302\216\001</a>" > f.xml
		each_path f.xml
		assert_output "f.xml: $e (declaration), declared \"$e\", 1 error"
		assert_equal "$stderr" "f.xml:1:$((${#d} + 5)): error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
		assert_equal "$status" 0
	done
	skip_lacking "$(ebcdic_lack)"
}

@test "lines: an error on line 3 of EBCDIC (LF is the byte 25)" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\n<a>\n\302\216\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:3:2: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
		assert_equal "$status" 0
	done
	skip_lacking "$(ebcdic_lack)"
}

@test "lines: a CR LF pair in EBCDIC is one line end, a lone CR is one" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\r\n<a>\r\r\n\302\205\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:4:2: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
	skip_lacking "$(ebcdic_lack)"
}

@test "lines: NEL (EBCDIC 15) ends a line under version 1.1 only" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.1\" encoding=\"$e\"?>\n<a>\302\205\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:3:1: error: U+0001 may not appear literally in XML 1.1 (RestrictedChar [2a]); write &#x1; instead [illegal-char]"
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\n<a>\302\205\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:2:5: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
	skip_lacking "$(ebcdic_lack)"
}

@test "lines: ASCII-compatible single-byte encodings count the same way" {
	local e
	for e in ISO-8859-1 windows-1252 KOI8-R; do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\r\n<a>\n\r\n\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:4:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
}

@test "lines: multi-byte encodings, EBCDIC DBCS included, count decoded line ends" {
	local e lack=
	for e in IBM939 EUC-JP Shift_JIS GB18030; do
		has_iconv "$e" || { lack="$lack $e"; continue; }
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\r\n<a>\n\346\227\245\r\n\346\227\245\001</a>" > f.xml 2> /dev/null || continue
		each_path f.xml
		assert_equal "${stderr##*$'\n'}" "f.xml:4:2: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
	skip_lacking "$lack"
}

@test "lines: long EBCDIC text, the reference and the default path give the decoded line" {
	local e i
	for e in $(ebcdic_list); do
		{
			printf '<?xml version="1.0" encoding="%s"?>\n<r>\n' "$e"
			rep 300 '<p n="%d">some plain text, long enough to fill a vector or two</p>\n'
			printf '\001</r>'
		} | iconv -f UTF-8 -t "$e" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:303:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
	skip_lacking "$(ebcdic_lack)"
}

@test "lines: unrepresentable in a transcode of EBCDIC has the decoded line" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\n<a>\n\r\n x\303\251</a>" > f.xml
		run_apart env XMLSNIFF_SIMD=ref "$XMLSNIFF" --transcode-to=US-ASCII -o out.xml f.xml
		assert_equal "$status" 1
		[[ "$stderr" == *"f.xml:4:3: error: U+00E9"*"[unrepresentable]"* ]] || fail "$stderr"
		xs --transcode-to=US-ASCII -o out.xml f.xml
		assert_equal "$status" 1
		[[ "$stderr" == *"f.xml:4:3: error: U+00E9"*"[unrepresentable]"* ]] || fail "$stderr"
		[ ! -e out.xml ]
	done
	skip_lacking "$(ebcdic_lack)"
}

# ---- -o - is standard output -----------------------------------------

# hex_of_run ARGS...: xmlsniff ARGS, standard output as hex in $hex,
# standard error in $err, status in $st.
hex_of_run() {
	st=0
	"$XMLSNIFF" "$@" > out.bin 2> err.txt || st=$?
	hex=$(hexof out.bin)
	err=$(cat err.txt)
}

@test "-o -: the entity alone on standard output, exit 0" {
	printf '<a>x</a>' > p.xml
	hex_of_run --transcode-to=UTF-16 -o - p.xml
	assert_equal "$st" 0
	assert_equal "$hex" "feff003c0061003e0078003c002f0061003e"
	assert_equal "$err" ""
	hex_of_run --transcode-to=UTF-8 -o - p.xml
	assert_equal "$st" 0
	assert_equal "$hex" "$(printf '<a>x</a>' | od -An -v -tx1 | tr -d ' \n')"
	assert_equal "$err" ""
}

@test "-o -: the same bytes as without -o, and from standard input" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>' > l.xml
	"$XMLSNIFF" --transcode-to=UTF-16LE l.xml > want.bin
	hex_of_run --transcode-to=UTF-16LE -o - l.xml
	assert_equal "$st" 0
	assert_equal "$hex" "$(hexof want.bin)"
	"$XMLSNIFF" --transcode-to=UTF-16LE -o - - < l.xml > got.bin
	assert_equal "$?" 0
	assert_equal "$(hexof got.bin)" "$(hexof want.bin)"
}

@test "-o -: a failing transcode exits 1, a bad option combination 2" {
	printf '<a>\377</a>' > bad.xml
	hex_of_run --transcode-to=UTF-16 -o - bad.xml
	assert_equal "$st" 1
	assert_equal "$hex" ""
	assert_equal "$err" "bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]"
	printf '<a>\303\251</a>' > e.xml
	hex_of_run --transcode-to=US-ASCII -o - e.xml
	assert_equal "$st" 1
	[[ "$err" == *"[unrepresentable]"* ]] || fail "$err"
	hex_of_run --json --transcode-to=UTF-16 -o - e.xml
	assert_equal "$st" 2
	assert_equal "$hex" ""
}

@test "-o -: a write error on standard output is exit 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	printf '<a>x</a>' > p.xml
	run_apart sh -c '"$1" --transcode-to=UTF-16 -o - p.xml > /dev/full' sh "$XMLSNIFF"
	assert_equal "$status" 2
	assert_output ""
	[[ "$stderr" == *"write error"* ]] || fail "$stderr"
}

# ---- ISO-10646-UCS-2 and -UCS-4 are not UTF-16 and UTF-32 ------------

# decl_in FORM NAME: an XML declaration naming NAME and an element, in
# the Unicode form FORM (UTF-16BE, UTF-32LE...), no BOM.
decl_in() {
	in_enc "$1" "<?xml version=\"1.0\" encoding=\"$2\"?><a>\303\251</a>"
}

@test "UCS-2: declared without a BOM, either byte order, no bom-missing" {
	local o
	for o in BE LE; do
		decl_in UTF-16$o ISO-10646-UCS-2 > f.xml
		xs f.xml
		assert_output 'f.xml: ISO-10646-UCS-2 (declaration), declared "ISO-10646-UCS-2"'
		assert_equal "$stderr" ""
		assert_equal "$status" 0
		xs --strict --json f.xml
		assert_output --partial '"encoding":"ISO-10646-UCS-2","source":"declaration","bom":null'
		assert_output --partial '"errors":0,"warnings":0,"diagnostics":[]}'
		assert_equal "$status" 0
	done
}

@test "UCS-2: the registry alias csUnicode is the same encoding" {
	decl_in UTF-16BE csUnicode > f.xml
	xs f.xml
	assert_output 'f.xml: ISO-10646-UCS-2 (declaration), declared "csUnicode"'
	assert_equal "$stderr" ""
}

@test "UCS-2: a BOM before it is allowed in either order (not bom-forbidden)" {
	{ printf '\376\377'; decl_in UTF-16BE ISO-10646-UCS-2; } > b.xml
	{ printf '\377\376'; decl_in UTF-16LE ISO-10646-UCS-2; } > l.xml
	xs --strict b.xml l.xml
	assert_line --index 0 'b.xml: UTF-16BE (BOM), declared "ISO-10646-UCS-2"'
	assert_line --index 1 'l.xml: UTF-16LE (BOM), declared "ISO-10646-UCS-2"'
	assert_equal "$stderr" ""
	assert_equal "$status" 0
}

@test "UCS-2: a charset parameter alone needs no BOM either" {
	in_enc UTF-16BE '<a>\303\251</a>' > f.xml
	xs --content-type='application/xml; charset=ISO-10646-UCS-2' f.xml
	assert_output 'f.xml: ISO-10646-UCS-2 (charset), no declaration, charset "ISO-10646-UCS-2", 1 warning'
	assert_equal "$stderr" 'f.xml:1:1: warning: no encoding declaration: the entity relies on the charset parameter alone, which a saved copy loses (XML 1.0 section 4.3.3: an entity in another encoding than UTF-8 or UTF-16 must declare it); add encoding="ISO-10646-UCS-2" to the declaration [missing-decl]'
}

@test "UCS-2: a surrogate pair is illegal, resynchronised by code units" {
	in_enc UTF-16BE '<?xml version="1.0" encoding="ISO-10646-UCS-2"?><a>\360\237\230\200</a>' > f.xml
	xs f.xml
	assert_output 'f.xml: ISO-10646-UCS-2 (declaration), declared "ISO-10646-UCS-2", 1 error'
	# The pair is UTF-16's: the guess names it (issue 26).
	assert_equal "$stderr" 'f.xml:1:52: error: bytes D8 3D are not valid in ISO-10646-UCS-2; the entity is not in this encoding: declare the encoding it is in, or re-encode it (2 times) [illegal-sequence]
f.xml: note: it decodes cleanly as UTF-16BE: "g="ISO-10646-UCS-2"?><a>😀</a>"; to convert it: xmlsniff --encoding=UTF-16BE --transcode-to=UTF-8 -o out.xml f.xml'
}

@test "UTF-16: still bom-missing when declared without a BOM, both orders" {
	local o
	for o in BE LE; do
		decl_in UTF-16$o UTF-16 > f.xml
		xs f.xml
		assert_output "f.xml: UTF-16$o (declaration), declared \"UTF-16\", 1 error"
		assert_equal "$stderr" "f.xml:1:1: error: labelled \"UTF-16\" but there is no BOM (XML 1.0 section 4.3.3: UTF-16 entities must begin with one); add the BOM, or label it UTF-16$o [bom-missing]"
	done
}

@test "UCS-4: declared without a BOM, either order: only the utf32 warning" {
	local o
	for o in BE LE; do
		decl_in UTF-32$o ISO-10646-UCS-4 > f.xml
		xs f.xml
		assert_output 'f.xml: ISO-10646-UCS-4 (declaration), declared "ISO-10646-UCS-4", 1 warning'
		one_warning "$stderr" utf32
	done
	{ printf '\377\376\000\000'; decl_in UTF-32LE ISO-10646-UCS-4; } > f.xml
	xs f.xml
	assert_output 'f.xml: UTF-32LE (BOM), declared "ISO-10646-UCS-4", 1 warning'
}

@test "iconv's UCS spellings: unregistered-name only, with the registered name" {
	decl_in UTF-16LE UCS-2 > a.xml
	{ printf '\377\376'; decl_in UTF-16LE UCS-2; } > b.xml
	decl_in UTF-32BE UCS-4 > c.xml
	decl_in UTF-16BE UNICODE > d.xml
	{ printf '\376\377'; decl_in UTF-16BE UNICODE; } > e.xml
	xs a.xml b.xml c.xml d.xml e.xml
	assert_line --index 0 'a.xml: ISO-10646-UCS-2 (declaration), declared "UCS-2", 1 warning'
	assert_line --index 1 'b.xml: UTF-16LE (BOM), declared "UCS-2", 1 warning'
	assert_line --index 2 'c.xml: ISO-10646-UCS-4 (declaration), declared "UCS-4", 2 warnings'
	assert_line --index 3 'd.xml: ISO-10646-UCS-2 (declaration), declared "UNICODE", 1 warning'
	assert_line --index 4 'e.xml: UTF-16BE (BOM), declared "UNICODE", 1 warning'
	stderr_has 'a.xml:1:31: warning: declared encoding "UCS-2" is not a name in the IANA registry; write "ISO-10646-UCS-2" [unregistered-name]'
	stderr_has 'c.xml:1:31: warning: declared encoding "UCS-4" is not a name in the IANA registry; write "ISO-10646-UCS-4" [unregistered-name]'
	stderr_has 'e.xml:1:31: warning: declared encoding "UNICODE" is not a name in the IANA registry; write "ISO-10646-UCS-2" [unregistered-name]'
	stderr_lacks 'error'
	assert_equal "$status" 0
}

@test "decl-mismatch names layouts in words, never an internal family" {
	decl_in UTF-16LE UCS-4 > a.xml
	decl_in UTF-32BE UCS-2 > b.xml
	in_enc UTF-16BE '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > c.xml
	in_enc UTF-16LE '<?xml version="1.0" encoding="IBM037"?><a/>' > d.xml
	in_enc UTF-16BE '<?xml version="1.0" encoding="UCS-2LE"?><a/>' > e.xml
	xs a.xml b.xml c.xml d.xml e.xml
	stderr_has 'a.xml:1:31: error: declared "UCS-4" (a 32-bit encoding) but the bytes are 16-bit little-endian; declare the encoding the bytes are in [decl-mismatch]'
	stderr_has 'b.xml:1:31: error: declared "UCS-2" (a 16-bit encoding) but the bytes are 32-bit big-endian; declare the encoding the bytes are in [decl-mismatch]'
	stderr_has 'c.xml:1:31: error: declared "ISO-8859-1" (an 8-bit ASCII-compatible encoding) but the bytes are 16-bit big-endian'
	stderr_has 'd.xml:1:31: error: declared "IBM037" (an EBCDIC encoding) but the bytes are 16-bit little-endian'
	stderr_has 'e.xml:1:31: error: declared "UCS-2LE" (a 16-bit little-endian encoding) but the bytes are 16-bit big-endian'
	stderr_lacks '(other)'
	stderr_lacks '(ASCII-compatible)'
}

@test "suspicious-label names the charset's layout in words" {
	printf '<?xml version="1.0"?><a/>' > f.xml
	xs --content-type='text/xml; charset=UTF-32BE' f.xml
	stderr_has 'f.xml:1:1: warning: the bytes are ASCII-compatible, but the charset says "UTF-32BE" (a 32-bit big-endian encoding); the label is probably wrong [suspicious-label]'
	xs --content-type='text/xml; charset=UCS-2' f.xml
	stderr_has 'the charset says "UCS-2" (a 16-bit encoding)'
}

# ---- -i and --mime-encoding: registered names ------------------------

@test "-i: iconv's spellings are labelled with the registered name" {
	local pair alias want
	for pair in cp1252:windows-1252 sjis:shift_jis ascii:us-ascii \
	    cp932:windows-31j ms932:windows-31j latin1:iso-8859-1 \
	    utf8:utf-8 eucjp:euc-jp euc-jp:euc-jp gbk:gbk cp936:gbk \
	    big5hkscs:big5-hkscs koi8r:koi8-r cp850:ibm850 ujis:euc-jp \
	    ms-ansi:windows-1252 CP1251:windows-1251; do
		alias=${pair%%:*} want=${pair#*:}
		printf '<?xml version="1.0" encoding="%s"?><a/>' "$alias" > f.xml
		# Where this iconv reads the spelling otherwise than the
		# registered name (GNU libiconv's CP932 and Windows-31J), the
		# entity is decoded, and so labelled, by the spelling given
		# (issue 29 item 7; glibc reads them alike).
		run "$XMLSNIFF" --json f.xml
		shopt -s nocasematch
		[[ $output != *"\"encoding\":\"$alias\",\"source\""* ]] ||
		    want=${alias,,}
		shopt -u nocasematch
		xs -i f.xml
		assert_output "f.xml: application/xml; charset=$want"
		xs --mime-encoding -b f.xml
		assert_output "$want"
		printf '<a/>' > g.xml
		xs -i --content-type="text/xml; charset=$alias" g.xml
		assert_output "g.xml: text/xml; charset=$want"
	done
}

@test "-i: the UCS spellings, in their own layouts" {
	decl_in UTF-16BE ucs-2 > a.xml
	decl_in UTF-16LE UCS2 > b.xml
	decl_in UTF-32BE ucs-4 > c.xml
	decl_in UTF-16BE UNICODE > d.xml
	xs -i a.xml b.xml c.xml d.xml
	assert_output 'a.xml: application/xml; charset=iso-10646-ucs-2
b.xml: application/xml; charset=iso-10646-ucs-2
c.xml: application/xml; charset=iso-10646-ucs-4
d.xml: application/xml; charset=iso-10646-ucs-2'
}

@test "-i: UCS-4 in octet order 2143 or 3412 gets no charset parameter" {
	printf '\000\000\377\376' > a.xml
	printf '\376\377\000\000' > b.xml
	xs -i a.xml b.xml
	assert_output 'a.xml: application/xml
b.xml: application/xml'
	xs --mime-encoding a.xml b.xml
	assert_output 'a.xml: unknown
b.xml: unknown'
	xs --json a.xml
	assert_output --partial '"mime":"application/xml",'
	xs -i --content-type='application/atom+xml' a.xml
	assert_output 'a.xml: application/atom+xml'
}

# ---- transcoded output reads back as the target, cleanly -------------

# sample NAME: an input of one kind (declared or not, BOM or not).
sample() {
	case $1 in
	u8)	printf '<a>x</a>' ;;
	u8-decl) printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>x</a>' ;;
	u8-ver)	printf '<?xml version="1.0"?>\n<a>x</a>' ;;
	u8-text) printf '<?xml version="1.0" standalone="yes"?>\n<a>x</a>' ;;
	u8-bom)	printf '\357\273\277<a>x</a>' ;;
	u8-bom-decl) printf '\357\273\277<?xml version="1.0" encoding="UTF-8"?><a>x</a>' ;;
	u16-bom) printf '\377\376'; in_enc UTF-16LE '<a>x</a>' ;;
	u16-bom-decl) printf '\376\377'; in_enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a>x</a>' ;;
	u16le-decl) in_enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a>x</a>' ;;
	u32-bom-decl) printf '\000\000\376\377'; in_enc UTF-32BE '<?xml version="1.0" encoding="UTF-32"?><a>x</a>' ;;
	latin1)	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>x</a>' ;;
	ibm037)	in_enc IBM037 '<?xml version="1.0" encoding="IBM037"?><a>x</a>' ;;
	esac
}

@test "transcode: every target reads back as itself, with no avoidable diagnostic" {
	local t tg opt want i k json codes lack= ins=() outs=() msg lines
	# The samples once, in s/ under the names of the outputs; for each
	# target, one copy of them all transcoded in place by one run, and
	# read back by one --json run over all of them (a record a line, in
	# operand order): two processes a target, not one a sample.
	mkdir s
	for i in u8 u8-decl u8-ver u8-text u8-bom u8-bom-decl u16-bom \
	    u16-bom-decl u16le-decl u32-bom-decl latin1 ibm037; do
		[ $i = ibm037 ] && ! has_iconv IBM037 && continue
		sample $i > "s/out-$i.xml"
		ins+=("$i")
		outs+=("out-$i.xml")
	done
	for t in UTF-8 UTF-8:--utf8-bom UTF-16 UTF-16:--byte-order=le UTF-16LE \
	    UTF-16BE UTF-32 UTF-32:--byte-order=le UTF-32LE UTF-32BE \
	    ISO-10646-UCS-2 ISO-10646-UCS-4 ISO-8859-1 windows-1252 \
	    Shift_JIS EUC-JP ISO-2022-JP GB18030 Big5 KOI8-R US-ASCII \
	    IBM037 IBM500 IBM1047; do
		tg=${t%%:*} opt=
		[ "$tg" = "$t" ] || opt=${t#*:}
		has_iconv "$tg" to || { lack="$lack $tg"; continue; }
		case $t in
		UTF-16) want=UTF-16BE ;;
		UTF-16:*) want=UTF-16LE ;;
		UTF-32) want=UTF-32BE ;;
		UTF-32:*) want=UTF-32LE ;;
		*) want=$tg ;;
		esac
		cp s/out-*.xml .
		msg=$("$XMLSNIFF" --transcode-to="$tg" $opt --in-place \
		    "${outs[@]}" 2>&1) || fail "$t: exit $?: $msg"
		json=$("$XMLSNIFF" --json "${outs[@]}")
		mapfile -t lines <<< "$json"
		assert_equal "${#lines[@]}" "${#ins[@]}"
		for k in "${!ins[@]}"; do
			i=${ins[k]} json=${lines[k]}
			[[ $json == "{\"file\":\"out-$i.xml\","* ]] ||
			    fail "$t from $i: the record of another file: $json"
			[[ $json == *"\"encoding\":\"$want\","* ]] ||
			    fail "$t from $i reads back as: $json"
			[[ $json == *'"errors":0,'* ]] ||
			    fail "$t from $i has errors: $json"
			# The codes of its diagnostics, each once: exactly
			# utf32 for UTF-32, utf8-bom for the BOM asked for,
			# else none.
			case $t in
			UTF-32*|ISO-10646-UCS-4) codes='"code":"utf32"' ;;
			UTF-8:--utf8-bom) codes='"code":"utf8-bom"' ;;
			*) codes= ;;
			esac
			[[ -z $codes || $json == *"$codes"* ]] &&
			    [[ ${json//"$codes"} != *'"code":'* ]] ||
			    fail "$t from $i reads back with other codes than $codes: $json"
		done
	done
	skip_lacking "$lack"
}

@test "transcode: UTF-32 with a BOM inserts encoding=\"UTF-32\"" {
	printf '<a>x</a>' > f.xml
	hex_of_run --transcode-to=UTF-32 f.xml
	assert_equal "$st" 0
	assert_equal "$hex" "0000feff$(in_enc UTF-32BE '<?xml version="1.0" encoding="UTF-32"?><a>x</a>' | od -An -v -tx1 | tr -d ' \n')"
	one_warning "$err" utf32
	hex_of_run --transcode-to=UTF-32 --byte-order=le f.xml
	assert_equal "$hex" "fffe0000$(in_enc UTF-32LE '<?xml version="1.0" encoding="UTF-32"?><a>x</a>' | od -An -v -tx1 | tr -d ' \n')"
	printf '<?xml version="1.0"?><a>x</a>' > v.xml
	hex_of_run --transcode-to=UTF-32 v.xml
	assert_equal "$hex" "0000feff$(in_enc UTF-32BE '<?xml version="1.0" encoding="UTF-32"?><a>x</a>' | od -An -v -tx1 | tr -d ' \n')"
}

@test "transcode: ISO-10646-UCS-2 is big-endian, no BOM, declared" {
	printf '\357\273\277<a>x\303\251</a>' > f.xml
	hex_of_run --transcode-to=ISO-10646-UCS-2 f.xml
	assert_equal "$st" 0
	assert_equal "$hex" "$(in_enc UTF-16BE '<?xml version="1.0" encoding="ISO-10646-UCS-2"?><a>x\303\251</a>' | od -An -v -tx1 | tr -d ' \n')"
	one_warning "$err" utf8-bom
	hex_of_run --transcode-to=ucs-2 --byte-order=le f.xml
	assert_equal "$hex" "$(in_enc UTF-16BE '<?xml version="1.0" encoding="ISO-10646-UCS-2"?><a>x\303\251</a>' | od -An -v -tx1 | tr -d ' \n')"
}

@test "transcode: above U+FFFF is unrepresentable in UCS-2, ncr writes a reference" {
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>\360\237\230\200</a>' > f.xml
	hex_of_run --transcode-to=ISO-10646-UCS-2 -o out.xml f.xml
	assert_equal "$st" 1
	assert_equal "$err" "f.xml:2:4: error: U+1F600 cannot be written in ISO-10646-UCS-2; use --fallback=ncr to write &#x1F600; or choose a target that has it [unrepresentable]"
	[ ! -e out.xml ]
	hex_of_run --transcode-to=ISO-10646-UCS-2 --fallback=ncr f.xml
	assert_equal "$st" 0
	assert_equal "$hex" "$(in_enc UTF-16BE '<?xml version="1.0" encoding="ISO-10646-UCS-2"?>\n<a>&#x1F600;</a>' | od -An -v -tx1 | tr -d ' \n')"
}

@test "transcode: ISO-10646-UCS-4 is big-endian, no BOM, declared" {
	printf '\376\377' > f.xml
	in_enc UTF-16BE '<?xml version="1.0" encoding="UTF-16"?><a>\360\237\230\200</a>' >> f.xml
	hex_of_run --transcode-to=ISO-10646-UCS-4 f.xml
	assert_equal "$st" 0
	assert_equal "$hex" "$(in_enc UTF-32BE '<?xml version="1.0" encoding="ISO-10646-UCS-4"?><a>\360\237\230\200</a>' | od -An -v -tx1 | tr -d ' \n')"
	one_warning "$err" utf32
}

@test "transcode: a U+FEFF after a UTF-8 BOM is content, kept behind a BOM" {
	printf '\357\273\277\357\273\277<a/>' > f.xml
	hex_of_run --transcode-to=UTF-8 f.xml
	assert_equal "$st" 0
	assert_equal "$hex" "efbbbfefbbbf3c612f3e"
	hex_of_run --transcode-to=UTF-8 --utf8-bom f.xml
	assert_equal "$hex" "efbbbfefbbbf3c612f3e"
	hex_of_run --transcode-to=UTF-16LE f.xml
	assert_equal "$hex" "$(in_enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?>\357\273\277<a/>' | od -An -v -tx1 | tr -d ' \n')"
}

# ---- declared values as written ---------------------------------------

# decl_obj: the declaration object of the JSON line in $output.
decl_obj() {
	printf '%s' "$output" | grep -o '"declaration":{[^}]*}'
}

@test "declared value: tab, UTF-8 and other bytes in an 8-bit layout" {
	printf '<?xml version="1.0" encoding="a\tb\303\251\351"?><a/>' > f.xml
	xs f.xml
	assert_output 'f.xml: UTF-8 (default), declared "a\tbé\xE9", 2 errors'
	xs --json f.xml
	assert_equal "$(decl_obj)" '"declaration":{"kind":"xml","version":"1.0","encoding":"a\tbé\udce9","standalone":null}'
	printf "<?xml version='1.0' encoding='a\"b\\\\c'?><a/>" > q.xml
	xs q.xml
	assert_output 'q.xml: UTF-8 (default), declared "a\"b\\c", 1 error'
	xs --json q.xml
	assert_equal "$(decl_obj)" '"declaration":{"kind":"xml","version":"1.0","encoding":"a\"b\\c","standalone":null}'
}

@test "declared value: 16- and 32-bit layouts give the characters in UTF-8" {
	local f bom
	for f in UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
		for bom in 0 1; do
			{
				[ $bom = 0 ] || printf '\357\273\277' | iconv -f UTF-8 -t $f
				in_enc $f '<?xml version="1.0" encoding="a\tb\303\251\360\237\230\200\304\200"?><a/>'
			} > f.xml
			xs f.xml
			[[ $output == *'declared "a\tbé😀Ā"'* ]] || fail "$f bom $bom: $output"
			xs --json f.xml
			assert_equal "$(decl_obj)" '"declaration":{"kind":"xml","version":"1.0","encoding":"a\tbé😀Ā","standalone":null}'
		done
	done
}

@test "declared value: EBCDIC gives the characters in UTF-8" {
	local e
	# What is not an invariant character is read as IBM037.
	need_iconv IBM037
	for e in $(ebcdic_list); do
		in_enc $e '<?xml version="1.0" encoding="a\tb\303\251"?><a/>' > f.xml
		xs f.xml
		[[ $output == *'declared "a\tbé"'* ]] || fail "$e: $output"
		xs --json f.xml
		assert_equal "$(decl_obj)" '"declaration":{"kind":"xml","version":"1.0","encoding":"a\tbé","standalone":null}'
	done
	skip_lacking "$(ebcdic_lack)"
}

@test "declared value: a 32-bit unit past U+10FFFF is given as its bytes" {
	{ in_enc UTF-32BE '<?xml version="1.0" encoding="a'; printf '\000\021\000\000'; in_enc UTF-32BE '"?><a/>'; } > f.xml
	xs f.xml
	[[ $output == *'declared "a\xC0\x80\x11\xC0\x80\xC0\x80"'* ]] || fail "$output"
	xs --json f.xml
	assert_equal "$(decl_obj)" '"declaration":{"kind":"xml","version":"1.0","encoding":"a\udcc0\udc80\u0011\udcc0\udc80\udcc0\udc80","standalone":null}'
}

@test "declared value: U+0000 is given as C0 80, in every layout" {
	local f
	printf '<?xml version="1.0" encoding="a\000b"?><a/>' > f.xml
	xs f.xml
	[[ $output == *'declared "a\xC0\x80b"'* ]] || fail "$output"
	for f in UTF-16BE UTF-32LE; do
		printf '<?xml version="1.0" encoding="a\000b"?><a/>' | iconv -f UTF-8 -t $f > f.xml
		xs --json f.xml
		[[ $output == *'"encoding":"a\udcc0\udc80b"'* ]] || fail "$f: $output"
	done
}

@test "transcode: iconv's UCS-2, UNICODE and UCS-4 are the ISO-10646 targets" {
	local t
	printf '<a>x</a>' > f.xml
	for t in UCS-2 ucs2 UNICODE; do
		hex_of_run --transcode-to=$t f.xml
		assert_equal "$st" 0
		assert_equal "$hex" "$(in_enc UTF-16BE '<?xml version="1.0" encoding="ISO-10646-UCS-2"?><a>x</a>' | od -An -v -tx1 | tr -d ' \n')"
	done
	hex_of_run --transcode-to=UCS-4 f.xml
	assert_equal "$st" 0
	assert_equal "$hex" "$(in_enc UTF-32BE '<?xml version="1.0" encoding="ISO-10646-UCS-4"?><a>x</a>' | od -An -v -tx1 | tr -d ' \n')"
}

@test "transcode: UCS-2 and UCS-4 inputs, either byte order, to UTF-8" {
	local f
	for f in UTF-16BE UTF-16LE; do
		decl_in $f ISO-10646-UCS-2 > f.xml
		xs --transcode-to=UTF-8 f.xml
		assert_output '<?xml version="1.0" encoding="UTF-8"?><a>é</a>'
		assert_equal "$stderr" ""
		assert_equal "$status" 0
	done
	for f in UTF-32BE UTF-32LE; do
		decl_in $f ISO-10646-UCS-4 > f.xml
		xs --transcode-to=UTF-8 f.xml
		assert_output '<?xml version="1.0" encoding="UTF-8"?><a>é</a>'
		assert_equal "$status" 0
	done
}

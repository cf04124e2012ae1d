#!/usr/bin/env bats
# Classes of inputs read against XML 1.0 sections 2.8, 2.11, 4.3.3,
# Appendix F and RFC 7303 section 3: line ends in single-byte encodings,
# the UCS forms, declared values as written, the declarations and BOMs of
# transcoded output, -o -, and the charset labels of -i.
load helper

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
}

# in ENC TEXT: TEXT (printf escapes, UTF-8) in ENC, on standard output.
in_enc() {
	printf "$2" | iconv -f UTF-8 -t "$1"
}

# each_path ARGS...: run xmlsniff ARGS under the character-at-a-time path
# and the default one; both must print what the first did ($output,
# $stderr and $status are those of the default path).
each_path() {
	local ref_out ref_err ref_st
	run --separate-stderr env XMLSNIFF_SIMD=ref "$XMLSNIFF" "$@"
	ref_out=$output ref_err=$stderr ref_st=$status
	xs "$@"
	assert_equal "$output" "$ref_out"
	assert_equal "$stderr" "$ref_err"
	assert_equal "$status" "$ref_st"
}

# ---- XML 1.0 section 2.11: line ends are decoded characters ----------

# Single-byte encodings whose LF is not the byte 0A (EBCDIC: 25, and 0A is
# U+008E) and, for comparison, ASCII-compatible ones.
ebcdic_list() {
	local e
	for e in IBM037 IBM500 IBM1047; do
		iconv -f UTF-8 -t "$e" < /dev/null 2> /dev/null && echo "$e"
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
}

@test "lines: an error on line 3 of EBCDIC (LF is the byte 25)" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\n<a>\n\302\216\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:3:2: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
		assert_equal "$status" 0
	done
}

@test "lines: a CR LF pair in EBCDIC is one line end, a lone CR is one" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\r\n<a>\r\r\n\302\205\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:4:2: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
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
}

@test "lines: ASCII-compatible single-byte encodings count the same way" {
	local e
	for e in ISO-8859-1 windows-1252 KOI8-R; do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\r\n<a>\n\r\n\001</a>" > f.xml
		each_path f.xml
		assert_equal "$stderr" "f.xml:4:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
}

@test "lines: long EBCDIC text, every fast path gives the decoded line" {
	local e m i
	for e in $(ebcdic_list); do
		{
			printf '<?xml version="1.0" encoding="%s"?>\n<r>\n' "$e"
			for i in $(seq 1 300); do
				printf '<p n="%d">some plain text, long enough to fill a vector or two</p>\n' "$i"
			done
			printf '\001</r>'
		} | iconv -f UTF-8 -t "$e" > f.xml
		for m in ref avx2 sse2 none; do
			run --separate-stderr env XMLSNIFF_SIMD=$m "$XMLSNIFF" f.xml
			assert_equal "$stderr" "f.xml:303:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
		done
	done
}

@test "lines: unrepresentable in a transcode of EBCDIC has the decoded line" {
	local e
	for e in $(ebcdic_list); do
		in_enc "$e" "<?xml version=\"1.0\" encoding=\"$e\"?>\n<a>\n\r\n x\303\251</a>" > f.xml
		run --separate-stderr env XMLSNIFF_SIMD=ref "$XMLSNIFF" --transcode-to=US-ASCII -o out.xml f.xml
		assert_equal "$status" 1
		[[ "$stderr" == *"f.xml:4:3: error: U+00E9"*"[unrepresentable]"* ]] || fail "$stderr"
		xs --transcode-to=US-ASCII -o out.xml f.xml
		assert_equal "$status" 1
		[[ "$stderr" == *"f.xml:4:3: error: U+00E9"*"[unrepresentable]"* ]] || fail "$stderr"
		[ ! -e out.xml ]
	done
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
	assert_equal "$err" "bad.xml:1:4: error: bytes FF are not valid in UTF-8; the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]"
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
	run --separate-stderr sh -c '"$1" --transcode-to=UTF-16 -o - p.xml > /dev/full' sh "$XMLSNIFF"
	assert_equal "$status" 2
	assert_output ""
	[[ "$stderr" == *"write error"* ]] || fail "$stderr"
}

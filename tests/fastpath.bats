#!/usr/bin/env bats
# The fast paths (AVX2, SSE2, eight bytes at a time) must give exactly the
# answers of the character-at-a-time path: XMLSNIFF_SIMD forces each.
load helper

# same_answers FILE: --json output identical under every path.
same_answers() {
	local ref m
	ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" --json "$1")
	for m in avx2 sse2 none; do
		run env XMLSNIFF_SIMD=$m "$XMLSNIFF" --json "$1"
		assert_output "$ref"
	done
}

# text N: N lines of mixed ASCII and CJK text with the given tail.
mktext() {
	local i
	for i in $(seq 1 "$1"); do
		printf '  <p n="%d">plain ASCII text, then \346\227\245\346\234\254\350\252\236 and more</p>\n' "$i"
	done
}

@test "fast paths: clean UTF-8, many blocks" {
	mktext 300 > "$BATS_TEST_TMPDIR/a.xml"
	same_answers "$BATS_TEST_TMPDIR/a.xml"
	run "$XMLSNIFF" --json "$BATS_TEST_TMPDIR/a.xml"
	assert_output --partial '"errors":0,"warnings":0'
}

@test "fast paths: each kind of UTF-8 error deep in the file" {
	local bad
	for bad in '\300\200' '\340\200\200' '\355\240\200' '\364\220\200\200' \
	    '\357\277\276' '\357\277\277' '\001' '\r\n' '\302' '\377' '\200'; do
		{ mktext 97; printf "x$bad y"; mktext 5; } > "$BATS_TEST_TMPDIR/b.xml"
		same_answers "$BATS_TEST_TMPDIR/b.xml"
	done
}

@test "fast paths: a sequence cut by the end of the input" {
	{ mktext 40; printf 'abc\346\227'; } > "$BATS_TEST_TMPDIR/c.xml"
	same_answers "$BATS_TEST_TMPDIR/c.xml"
	run "$XMLSNIFF" --json "$BATS_TEST_TMPDIR/c.xml"
	assert_output --partial '"code":"illegal-sequence"'
}

@test "fast paths: UTF-16LE and UTF-16BE with errors" {
	mktext 200 | iconv -f UTF-8 -t UTF-16LE > "$BATS_TEST_TMPDIR/l.xml"
	printf '\000\330x\000' >> "$BATS_TEST_TMPDIR/l.xml"
	mktext 3 | iconv -f UTF-8 -t UTF-16LE >> "$BATS_TEST_TMPDIR/l.xml"
	{ printf '\376\377'; mktext 200 | iconv -f UTF-8 -t UTF-16BE; printf '\377\376\000\r\000\n'; } > "$BATS_TEST_TMPDIR/b16.xml"
	same_answers "$BATS_TEST_TMPDIR/l.xml"
	same_answers "$BATS_TEST_TMPDIR/b16.xml"
}

@test "fast paths: a read boundary inside a character (2 MB)" {
	{ printf '<r>'; head -c 1048573 /dev/zero | tr '\0' 'a'; printf '\346\227\245'; mktext 20000; printf '\377</r>'; } > "$BATS_TEST_TMPDIR/d.xml"
	same_answers "$BATS_TEST_TMPDIR/d.xml"
	run "$XMLSNIFF" --json "$BATS_TEST_TMPDIR/d.xml"
	assert_output --partial '"code":"illegal-sequence"'
}

@test "fast paths: multi-byte encodings decoded in blocks give exact positions" {
	local enc i
	for enc in SHIFT_JIS EUC-JP GB18030 BIG5; do
		{
			printf '<?xml version="1.0" encoding="%s"?>\n' "$enc"
			for i in $(seq 1 1500); do printf '<p>\346\227\245\346\234\254 text %d</p>\n' "$i"; done
		} | iconv -f UTF-8 -t "$enc" > "$BATS_TEST_TMPDIR/m.xml"
		printf '\377\377' >> "$BATS_TEST_TMPDIR/m.xml"
		printf 'x\r\n\001 \346\227\245\n' | iconv -f UTF-8 -t "$enc" >> "$BATS_TEST_TMPDIR/m.xml"
		same_answers "$BATS_TEST_TMPDIR/m.xml"
		run "$XMLSNIFF" --json "$BATS_TEST_TMPDIR/m.xml"
		assert_output --partial '"code":"illegal-sequence"'
		assert_output --partial '"code":"illegal-char"'
	done
}

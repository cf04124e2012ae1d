#!/usr/bin/env bats
# The fast paths (the kernel levels XMLSNIFF_SIMD chooses: avx512, avx2,
# sse2, neon, none) must give exactly the answers of the character-at-a-
# time path (ref).  The sweeps that compared every level with ref over
# every offset, split and family of input run in process in the unit
# driver (tests/unit), which calls the kernels, the validator, the
# mojibake scan and the transcoder directly:
#   - clean text, each UTF-8 error deep in a file, a sequence cut by the
#     end, UTF-16 with errors, a read boundary inside a character, the
#     multi-byte encodings, CR LF / lone CR / CR CR at every offset of a
#     64-byte block (UTF-8, UTF-16LE/BE, ISO-8859-1, windows-1252,
#     KOI8-R), single-byte pairs across a vector block, mixed line ends
#     with a late declaration, a CR at the end of a read, Latin/CJK/emoji
#     runs ended by a bad character: tests/kern_fastpath.c;
#   - error-dense text (runs of illegal bytes, FF across reads, noise,
#     Latin-1 read as UTF-8, NUL runs), every --max-errors cap:
#     tests/kern_errdense.c;
#   - the mojibake scan at every offset, UTF-8 and UTF-16 Latin text:
#     tests/kern_moj.c;
#   - transcoding: pseudo-random text, long runs, runs of 1 to 40,
#     astral characters at every offset mod 64, runs ending at 16- and
#     32-byte boundaries, inputs ending at every offset mod 32, read
#     boundaries inside characters, illegal bytes and lone surrogates deep
#     inside: tests/kern_xc.c.
# What is left here runs the real binary end to end: a few inputs under
# ref and the fastest level, from a file and a pipe.
load helper

# levels_agree ARGS... FILE: the output (standard output and error) of
# ref, of the fastest level and of avx2 the same, and the same again from
# a pipe (with "-" for the name); the ref output left in $output.
levels_agree() {
	local f=${!#} ref m
	ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" "$@" 2>&1)
	for m in '' avx2; do
		run env XMLSNIFF_SIMD=$m "$XMLSNIFF" "$@"
		assert_output "$ref"
	done
	run sh -c 'f=$1; shift; "$0" "$@" < "$f"' "$XMLSNIFF" "$f" "${@:1:$#-1}" -
	assert_output "${ref//"$f"/-}"
	output=$ref
}

# mktext N: N lines of mixed ASCII and CJK text (one awk: a shell loop
# over thousands of lines costs seconds under bats).
mktext() {
	rep "$1" '  <p n="%d">plain ASCII text, then \346\227\245\346\234\254\350\252\236 and more</p>\n'
}

@test "fast paths: clean UTF-8 and a bad byte deep in it, file and pipe" {
	local f=$BATS_TEST_TMPDIR/a.xml
	mktext 300 > "$f"
	levels_agree --json "$f"
	assert_output --partial '"errors":0,"warnings":0'
	{ mktext 97; printf 'x\355\240\200 y'; mktext 5; } > "$f"
	levels_agree --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":5618,"line":98,"column":2,"count":3'
}

@test "fast paths: a sequence cut by the end of the input" {
	{ mktext 40; printf 'abc\346\227'; } > "$BATS_TEST_TMPDIR/c.xml"
	levels_agree --json "$BATS_TEST_TMPDIR/c.xml"
	assert_output --partial '"code":"illegal-sequence"'
}

@test "fast paths: UTF-16LE with a lone surrogate deep inside, every occurrence" {
	local f=$BATS_TEST_TMPDIR/l.xml
	{ printf '\377\376'; mktext 200 | iconv -f UTF-8 -t UTF-16LE
	  printf '\000\330x\000\r\000\001\000'; } > "$f"
	levels_agree --all --json "$f"
	assert_output --partial '"code":"illegal-sequence"'
	assert_output --partial '"code":"illegal-char"'
}

@test "fast paths: U+0001 after a CR on 64 lines, each at its line and column" {
	local f=$BATS_TEST_TMPDIR/c.xml
	# line k+2 has k x's, a CR, then U+0001: a CR at every offset of a
	# 64-byte block, the U+0001 on the line after it
	awk 'BEGIN {
		printf "<r>"
		for (i = 3; i < 63; i++) printf "y"
		printf "\n"
		for (k = 0; k < 64; k++) {
			s = ""
			for (i = 0; i < k; i++) s = s "x"
			s = s "\r\001"
			while (length(s) < 63) s = s "z"
			print s
		}
		printf "</r>\n"
	}' > "$f"
	levels_agree --all "$f"
	xs --all "$f"
	assert_success
	assert_output "$f: UTF-8 (default), no declaration, 1 error"
	assert_equal "${#stderr_lines[@]}" 64
	assert_equal "${stderr_lines[0]}" "$f:3:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it (64 times) [illegal-char]"
	assert_equal "${stderr_lines[63]}" "$f:129:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
}

@test "fast paths: a CR as the last byte of the first read, a bad byte after it" {
	local f=$BATS_TEST_TMPDIR/r.xml
	{ printf '<r>\r\n'; head -c 327673 /dev/zero | tr '\0' a
	  printf '\r\377\r\n'; head -c 1000 /dev/zero | tr '\0' b
	  printf '</r>\r\n'; } > "$f"
	levels_agree --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":327679,"line":3,"column":1,"count":1'
}

@test "error-dense: Latin-1 text read as UTF-8, counts and the --ignore of one code" {
	local f=$BATS_TEST_TMPDIR/l.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  rep 3000 'caf\351 na\357ve gar\347on d\351j\340 \374ber stra\337e \r\n'
	  printf 'caf\351 \001 <?xml version="1.0"?>'; } > "$f"
	levels_agree --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":45,"line":2,"column":7,"count":21001'
	assert_output --partial '"code":"illegal-char"'
	assert_output --partial '"code":"decl-not-at-start"'
	# --ignore is global to a run: the unit driver cannot set it per
	# sweep, so it is checked here
	levels_agree --ignore=illegal-char --all --max-errors=5 --json "$f"
	refute_output --partial '"code":"illegal-char"'
	assert_output --partial '"code":"decl-not-at-start"'
}

@test "transcoding fast paths: CJK, astral and Latin text into UTF-16 and back, what iconv makes" {
	local d=$BATS_TEST_TMPDIR
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>\n'
	  mktext 2000
	  printf '<p>\360\237\230\200\303\251\r\n\360\240\200\200</p>\n</doc>\n'; } > "$d/in.xml"
	for m in ref ''; do
		XMLSNIFF_SIMD=$m "$XMLSNIFF" --transcode-to=UTF-16 "$d/in.xml" > "$d/$m.16"
		XMLSNIFF_SIMD=$m "$XMLSNIFF" --transcode-to=UTF-8 "$d/$m.16" > "$d/$m.8"
	done
	cmp "$d/ref.16" "$d/.16"
	{ printf '\357\273\277<?xml version="1.0" encoding="UTF-16"?>'
	  tail -c +39 "$d/in.xml"; } | iconv -f UTF-8 -t UTF-16BE | cmp - "$d/ref.16"
	cmp "$d/ref.8" "$d/in.xml"
	cmp "$d/.8" "$d/in.xml"
}

@test "transcoding fast paths: an illegal byte past the first read and output buffer" {
	local d=$BATS_TEST_TMPDIR
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>'
	  mktext 5000; printf 'x\377y</doc>'; } > "$d/ff.xml"
	for m in ref ''; do
		run_apart env XMLSNIFF_SIMD=$m "$XMLSNIFF" --transcode-to=UTF-32LE -o "$d/out" "$d/ff.xml"
		assert_failure 1
		assert_output "$d/ff.xml: UTF-8 (declaration), declared \"UTF-8\", 1 error, 1 warning"
		[[ "$stderr" == *"$d/ff.xml:5002:2: error: bytes FF are not valid in UTF-8"*'[illegal-sequence]' ]] || fail "$stderr"
		[ ! -e "$d/out" ] || fail "output written"
	done
}

@test "XMLSNIFF_SIMD: an unknown value is refused, an empty one means the fastest" {
	printf '<a/>' > "$BATS_TEST_TMPDIR/a.xml"
	run_apart env XMLSNIFF_SIMD=avx512x "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" 'xmlsniff: XMLSNIFF_SIMD: unknown value "avx512x" (avx512, avx2, sse2, neon, none or ref)'
	run_apart env XMLSNIFF_SIMD=REF "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
	assert_failure 2
	run_apart env XMLSNIFF_SIMD= "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
	assert_success
	assert_output "$BATS_TEST_TMPDIR/a.xml: UTF-8 (default), no declaration"
	# A level this machine lacks (neon on x86-64, avx2 on AArch64) runs
	# the portable code: the same answers.
	for m in avx512 avx2 sse2 neon none ref; do
		run_apart env XMLSNIFF_SIMD=$m "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
		assert_success
		assert_output "$BATS_TEST_TMPDIR/a.xml: UTF-8 (default), no declaration"
	done
}

@test "XMLSNIFF_SIMD: one place reads it" {
	local n
	n=$(grep -l 'XMLSNIFF_SIMD")' "$BATS_TEST_DIRNAME"/../src/*/*.c "$BATS_TEST_DIRNAME"/../src/*/*/*.c | wc -l)
	[ "$n" = 1 ]
}

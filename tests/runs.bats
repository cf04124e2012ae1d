#!/usr/bin/env bats
# Runs of plain characters: the validator hands them to the transcoder in
# one piece (UTF-8, UTF-16, UTF-32 and single-byte sources; Unicode and
# iconv targets).  XMLSNIFF_SIMD=ref sends every character alone, with its
# position.  The comparisons of every kernel level with that reference
# (every source form and target here, with and without --fallback=ncr)
# run in process in the unit driver: tests/kern_runs.c.  What stays here
# runs the binary: the places and bytes asserted, and two comparisons
# with ref end to end.
load helper

setup() {
	T=$BATS_TEST_TMPDIR
}

# lines N: N lines of text mixing ASCII, Latin, Greek and CJK (one awk:
# a shell loop over thousands of lines costs seconds under bats).
lines() {
	rep "$1" '  <p n="%d" t="caf\303\251">na\303\257ve \316\261\316\262 \346\227\245\346\234\254\350\252\236 x &amp; y</p>\n'
}

# like_ref ARGS...: the same status and stderr as under XMLSNIFF_SIMD=ref,
# and the same output when it succeeds (a transcode to standard output
# that fails may have written a different number of whole buffers).
like_ref() {
	local st=0 want=0
	XMLSNIFF_SIMD=ref "$XMLSNIFF" "$@" > "$T/ref.out" 2> "$T/ref.err" ||
	    want=$?
	"$XMLSNIFF" "$@" > "$T/got.out" 2> "$T/got.err" || st=$?
	[ "$st" -eq "$want" ] ||
	    fail "status $st, the reference says $want (args: $*)"
	cmp -s "$T/got.err" "$T/ref.err" ||
	    fail "stderr: $(cat "$T/got.err"); the reference: $(cat "$T/ref.err")"
	[ "$want" -ne 0 ] || cmp "$T/got.out" "$T/ref.out" ||
	    fail "output differs from the reference (args: $*)"
}

@test "runs: 10 MB of UTF-8 into IBM037 is linear (a declined run is not scanned again per character)" {
	need_iconv IBM037 to
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'; lines 1 | head -c 60 > /dev/null
	  yes '  <p>plain ASCII text, every character through the converter</p>' | head -n 160000; printf '</r>\n'; } > "$T/a.xml"
	# The quadratic version took minutes here; the timeout only
	# guards against a hang, it does not measure speed.
	run timeout 120 "$XMLSNIFF" --transcode-to=IBM037 -o "$T/out" "$T/a.xml"
	assert_success
	sed 's/encoding="UTF-8"/encoding="IBM037"/' "$T/a.xml" | iconv -f UTF-8 -t IBM037 | cmp - "$T/out"
}

@test "runs: UTF-8 into iconv targets gives the reference bytes (stateless and stateful)" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'; lines 3000; printf '</r>\n'; } > "$T/u.xml"
	like_ref --transcode-to=ISO-2022-JP "$T/u.xml"
	like_ref --transcode-to=ISO-8859-7 --fallback=ncr "$T/u.xml"
}

@test "runs: a character the iconv target lacks, 1 MB in, is reported at its line and column" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  yes '  <p a="caf\303\251">na\303\257ve text, 50 characters or so</p>' | head -n 20000
	  printf '<q>ab\342\202\254</q>\n</r>\n'; } > "$T/e.xml"
	xs --transcode-to=ISO-8859-1 -o "$T/out" "$T/e.xml"
	assert_failure 1
	stderr_has "e.xml:20003:6: error: U+20AC cannot be written in ISO-8859-1"
	[ ! -e "$T/out" ] || fail "output written"
}

@test "runs: references for many characters the target lacks, in text and attributes" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'; lines 2000; printf '</r>\n'; } > "$T/n.xml"
	xs --transcode-to=ISO-8859-1 --fallback=ncr "$T/n.xml"
	assert_success
	[[ "$output" == *'t="caf'$'\351''">na'$'\357''ve &#x03B1;&#x03B2; &#x65E5;&#x672C;&#x8A9E; x &amp; y</p>'* ]] ||
	    fail "references missing: ${output:0:300}"
	# In a comment no reference is possible: the first such character
	# fails, at its position.
	{ printf '<?xml version="1.0"?>\n<r>\n'; lines 500; printf '<!-- \316\261 -->\n</r>\n'; } > "$T/c.xml"
	xs --transcode-to=ISO-8859-1 --fallback=ncr "$T/c.xml"
	assert_failure 1
	stderr_has "c.xml:503:6: error: U+03B1 in a comment cannot be written"
}

@test "runs: UTF-16 and UTF-32 sources, both byte orders, back to UTF-8 unchanged" {
	{ printf '<?xml version="1.0" encoding="UTF-16"?>\n<r>\n'; lines 3000; printf '<s>\360\237\230\200 \360\240\200\200</s>\n</r>\n'; } > "$T/t.txt"
	{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$T/t.txt"; } > "$T/le16.xml"
	{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$T/t.txt"; } > "$T/be16.xml"
	sed '1s/UTF-16/UTF-32/' "$T/t.txt" > "$T/t32.txt"
	{ printf '\377\376\000\000'; iconv -f UTF-8 -t UTF-32LE "$T/t32.txt"; } > "$T/le32.xml"
	{ printf '\000\000\376\377'; iconv -f UTF-8 -t UTF-32BE "$T/t32.txt"; } > "$T/be32.xml"
	for f in le16 be16 le32 be32; do
		# The text survives: back to UTF-8, it is the original.
		"$XMLSNIFF" --transcode-to=UTF-8 "$T/$f.xml" 2>/dev/null | tail -n +2 |
		    cmp - <(tail -n +2 "$T/t.txt")
	done
}

@test "runs: UTF-32 errors deep in the file are found at the reference position" {
	{ printf '<?xml version="1.0" encoding="UTF-32"?>\n<r>\n'; lines 900; printf 'a\001b\n'; } |
	    iconv -f UTF-8 -t UTF-32LE > "$T/body"
	{ printf '\377\376\000\000'; cat "$T/body"; printf '\000\330\000\000'; printf 'x\000\000\000\r\000\000\000\n\000\000\000'; printf '\000\000\021\000</r>'; } > "$T/bad32.xml"
	xs --json "$T/bad32.xml"
	[[ "$output" == *'"code":"illegal-char","offset":'*',"line":903,"column":2'* ]] || fail "$output"
	like_ref --strict "$T/bad32.xml"
}

@test "runs: single-byte text with CR LF, lone CR, C1 controls and bytes the table lacks" {
	{ printf '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<r>\r\n'
	  rep 2000 '<l n="%d">Texte fran\347ais : \340 bient\364t, d\351j\340 vu\r\n'
	  printf 'a\rb\r\r\nc\n\r\205d</r>\r\n'; } > "$T/l1.xml"
	xs --json "$T/l1.xml"
	# Lines: 2 + 2000, then a, b, an empty one (CR, then CR LF as one
	# end), c, an empty one (LF), and the C1 control after a lone CR.
	[[ "$output" == *'"offset":'*',"line":2008,"column":1,"count":1,"message":"C1 control U+0085'* ]] ||
	    fail "C1 position: $output"
	# windows-1253 has no 0xAA: an illegal byte after a long plain run.
	{ printf '<?xml version="1.0" encoding="windows-1253"?>\n<r>\n'
	  rep 3000 '<l>\341\342\343 abc</l>\n'
	  printf 'xy\252</r>\n'; } > "$T/g.xml"
	xs --json "$T/g.xml"
	[[ "$output" == *'"code":"illegal-sequence","offset":'*',"line":3003,"column":3'* ]] || fail "$output"
}

@test "runs: single-byte text into an iconv target that lacks some of it" {
	{ printf '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<r>\r\n'
	  rep 3000 '<l a="\327">\351t\351 \251\r\n\r\367</l>\r\n'
	  printf '<!-- \327 -->\r\n</r>\r\n'; } > "$T/l.xml"
	xs --transcode-to=ISO-8859-7 "$T/l.xml"
	assert_failure 1
	stderr_has "l.xml:3:7: error: U+00D7 cannot be written in ISO-8859-7"
	# With references, the one in the comment fails, after 3000
	# lines of references, CR LF and lone CR.
	xs --transcode-to=ISO-8859-7 --fallback=ncr "$T/l.xml"
	assert_failure 1
	stderr_has "l.xml:9003:6: error: U+00D7 in a comment cannot be written"
}

@test "runs: a multi-byte source (Shift_JIS) in decoded blocks into iconv targets" {
	{ printf '<?xml version="1.0" encoding="Shift_JIS"?>\n<r>\n'
	  rep 3000 '<p n="%d">\346\227\245\346\234\254\350\252\236 text \343\201\202</p>\n'
	  printf '<!-- \346\227\245 -->\n</r>\n'; } | iconv -f UTF-8 -t SHIFT_JIS > "$T/sj.xml"
	"$XMLSNIFF" --transcode-to=EUC-JP "$T/sj.xml" |
	    cmp - <(sed '1s/Shift_JIS/EUC-JP/' "$T/sj.xml" | iconv -f SHIFT_JIS -t EUC-JP)
	# The target lacks the characters: the first fails at its place;
	# with references, the one in the comment does.
	xs --transcode-to=ISO-8859-1 "$T/sj.xml"
	assert_failure 1
	stderr_has "sj.xml:3:10: error: U+65E5 cannot be written in ISO-8859-1"
	xs --transcode-to=ISO-8859-1 --fallback=ncr "$T/sj.xml"
	assert_failure 1
	stderr_has "sj.xml:3003:6: error: U+65E5 in a comment cannot be written"
}


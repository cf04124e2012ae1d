#!/usr/bin/env bats
# The mojibake warning (xmlsniff(1), DIAGNOSTICS): UTF-8 read as
# windows-1252 or ISO-8859-1 and encoded again, and C1 controls, in
# entities of the Unicode forms.  Every input is built from exact bytes.
# The sweeps of the scan's kernels (moj_skip, moj_skipw: each sequence at
# every offset, split by every read boundary, after every kind of text,
# at every kernel level, file against pipe) run in process in the unit
# driver: tests/kern_moj.c.  What stays here runs the binary on one or
# two offsets of each.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# warns FILE LINE:COL MESSAGE: one mojibake warning, and nothing else.
warns() {
	xs "$1"
	assert_success
	assert_output "$1: UTF-8 (default), no declaration, 1 warning"
	[ "$stderr" = "$1:$2: warning: $3 [mojibake]" ] ||
	    fail "stderr: $stderr"
}

# pipe_pos FILE LINE COLUMN: the file's one hit is at LINE and COLUMN, and
# through a pipe, its lines counted as the bytes go by, xmlsniff says the
# same of it, byte for byte.
pipe_pos() {
	local want
	want=$("$XMLSNIFF" --json "$1")
	[[ $want == *'"line":'$2',"column":'$3,* ]] || fail "$1: $want"
	run sh -c 'cat "$1" | "$0" --json --stdin-name="$1" -' "$XMLSNIFF" "$1"
	assert_success
	assert_output "$want"
}

# clean FILE: no diagnostic at all.
clean() {
	xs "$1"
	assert_success
	assert_output "$1: UTF-8 (default), no declaration"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

# --- the families ---------------------------------------------------------

@test "mojibake: through a pipe, lines counted as the bytes go by, a hit's line and column are the file's: LF, CR LF, CR and mixed line ends, Latin Extended text, the hit in the first piece and past the 320 KiB ones" {
	local f=$BATS_TEST_TMPDIR/p.xml nl n
	for nl in '\n' '\r\n' '\r' mixed; do
		for n in 3 9000 21000; do
			awk -v n="$n" -v nl="$nl" 'BEGIN {
				split("\n|\r\n|\r", ends, "|")
				printf "<r>"
				for (i = 1; i <= n; i++)
					printf "żółw \303\263d %d%s", i,
					    nl == "mixed" ? ends[i % 3 + 1] : nl
				printf "x\303\203\302\251</r>\n"
			}' > "$f"
			pipe_pos "$f" $((n + 1)) 2
		done
	done
}

@test "mojibake: UTF-16 through a pipe, lines counted as the units go by, a hit's line and column are the file's: both byte orders, LF, CR LF and mixed line ends, a surrogate pair in every line and before the hit, and in a line longer than a piece" {
	local f=$BATS_TEST_TMPDIR/p.xml g=$BATS_TEST_TMPDIR/p16.xml nl n enc
	for enc in UTF-16LE UTF-16BE; do
		for nl in '\n' '\r\n' mixed; do
			for n in 3 21000; do
				awk -v n="$n" -v nl="$nl" 'BEGIN {
					split("\n|\r\n|\r", ends, "|")
					printf "<r>"
					for (i = 1; i <= n; i++)
						printf "\360\237\230\200\360\237\230\200\360\237\230\200\360\237\230\200 \303\263d %d%s",
						    i, nl == "mixed" ? ends[i % 3 + 1] : nl
					printf "\360\237\230\200x\303\203\302\251</r>\n"
				}' > "$f"
				{ [ $enc = UTF-16LE ] && printf '\377\376' ||
				    printf '\376\377'
				  iconv -f UTF-8 -t $enc "$f"; } > "$g"
				pipe_pos "$g" $((n + 1)) 3
			done
		done
		# one line of 120,000 pairs: a pair across a piece's end
		# is one column, not two
		awk 'BEGIN { printf "<r>"; for (i = 0; i < 120000; i++)
			printf "\360\237\230\200"
			printf "x\303\203\302\251</r>\n" }' > "$f"
		{ [ $enc = UTF-16LE ] && printf '\377\376' || printf '\376\377'
		  iconv -f UTF-8 -t $enc "$f"; } > "$g"
		pipe_pos "$g" 1 120005
	done
}

@test "mojibake: Ã© is é encoded twice" {
	put f.xml '<a>caf\303\203\302\251</a>'
	warns f.xml 1:7 '"Ã©" is "é" encoded twice (its UTF-8 read as windows-1252 and encoded again)'
}

@test "mojibake: â€™ is ’ encoded twice" {
	put f.xml '<a>it\303\242\342\202\254\342\204\242s</a>'
	warns f.xml 1:6 '"â€™" is "’" encoded twice (its UTF-8 read as windows-1252 and encoded again)'
}

@test "mojibake: Ã¼ is ü encoded twice" {
	put f.xml '<a>gr\303\203\302\274n</a>'
	warns f.xml 1:6 '"Ã¼" is "ü" encoded twice (its UTF-8 read as windows-1252 and encoded again)'
}

@test "mojibake: Â and a no-break space is a no-break space encoded twice" {
	put f.xml '<a>1\303\202\302\240000</a>'
	warns f.xml 1:5 "$(printf '"\303\202\302\240" is "\302\240" encoded twice (its UTF-8 read as windows-1252 and encoded again)')"
}

@test "mojibake: a four-byte character, ðŸ˜€, encoded twice" {
	put f.xml '<a>x\303\260\305\270\313\234\342\202\254y</a>'
	warns f.xml 1:5 '"ðŸ˜€" is "😀" encoded twice (its UTF-8 read as windows-1252 and encoded again)'
}

@test "mojibake: a byte windows-1252 lacks, read as ISO-8859-1 (Ã U+0081 for Á)" {
	put f.xml '<a>\303\203\302\201</a>'
	warns f.xml 1:4 '"Ã<U+0081>" is "Á" encoded twice (its UTF-8 read as ISO-8859-1 and encoded again)'
}

@test "mojibake: the count of all sequences, at the first" {
	put f.xml '<a>caf\303\203\302\251 cr\303\203\302\250me \303\242\342\202\254\342\204\242</a>'
	xs f.xml
	assert_success
	[ "$stderr" = 'f.xml:1:7: warning: "Ã©" is "é" encoded twice (its UTF-8 read as windows-1252 and encoded again) (3 times) [mojibake]' ]
}

# --- C1 controls ------------------------------------------------------------

@test "mojibake: C1 control U+0092 in UTF-8 (the â€™ that lost its windows-1252 reading)" {
	put f.xml '<a>it\302\222s</a>'
	warns f.xml 1:6 'C1 control U+0092 (XML 1.0 section 2.2 discourages it): probably "’", windows-1252 byte 92 read as ISO-8859-1 and encoded again'
}

@test "mojibake: C1 control that windows-1252 lacks (U+0081)" {
	put f.xml '<a>\302\201</a>'
	warns f.xml 1:4 'C1 control U+0081 (XML 1.0 section 2.2 discourages it): byte 81 of another encoding read as ISO-8859-1'
}

@test "mojibake: the trail of a sequence cut short counts as a C1 control" {
	put f.xml '<a>\303\242\302\200x</a>'
	warns f.xml 1:5 'C1 control U+0080 (XML 1.0 section 2.2 discourages it): probably "€", windows-1252 byte 80 read as ISO-8859-1 and encoded again'
}

@test "mojibake: in XML 1.1 a C1 control is illegal-char, not mojibake" {
	put f.xml '<?xml version="1.1"?><a>\302\222</a>'
	xs f.xml
	assert_success
	[ "$stderr" = 'f.xml:1:25: error: U+0092 may not appear literally in XML 1.1 (RestrictedChar [2a]); write &#x92; instead [illegal-char]' ]
}

@test "mojibake: NEL is a C1 control in XML 1.0" {
	put f.xml '<a>x\302\205y</a>'
	warns f.xml 1:5 'C1 control U+0085 (NEL, which XML 1.0 does not read as a line end): probably "…", windows-1252 byte 85 read as ISO-8859-1 and encoded again'
}

# --- UTF-16 and UTF-32 -------------------------------------------------------

@test "mojibake: UTF-16LE, after a CR LF" {
	{ printf '\377\376'; printf '<a>\r\ncaf\303\203\302\251</a>' | iconv -f UTF-8 -t UTF-16LE; } > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"warnings":1,"diagnostics":[{"severity":"warning","code":"mojibake","offset":18,"line":2,"column":4,"count":1,"message":"\"Ã©\" is \"é\" encoded twice (its UTF-8 read as windows-1252 and encoded again)"}]}'
}

@test "mojibake: UTF-16BE, a surrogate pair's character encoded twice" {
	{ printf '\376\377'; printf '<a>\360\237\230\200 x\303\260\305\270\313\234\342\202\254</a>' | iconv -f UTF-8 -t UTF-16BE; } > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"code":"mojibake","offset":16,"line":1,"column":7,"count":1,"message":"\"ðŸ˜€\" is \"😀\" encoded twice'
}

@test "mojibake: UTF-32BE" {
	{ printf '\0\0\376\377'; printf '<a>\342\200\231\303\242\342\202\254\342\204\242</a>' | iconv -f UTF-8 -t UTF-32BE; } > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '{"severity":"warning","code":"mojibake","offset":20,"line":1,"column":5,"count":1,"message":"\"â€™\" is \"’\" encoded twice (its UTF-8 read as windows-1252 and encoded again)"}'
}

@test "mojibake: UTF-32LE, C1 control" {
	{ printf '\377\376\0\0'; printf '<a>\302\222</a>' | iconv -f UTF-8 -t UTF-32LE; } > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"code":"mojibake","offset":16,"line":1,"column":4,"count":1,"message":"C1 control U+0092'
}

@test "mojibake: not in a single-byte encoding, where the characters are its own" {
	put f.xml '<?xml version="1.0" encoding="windows-1252"?><a>caf\351, \303\251</a>'
	xs f.xml
	assert_success
	refute_output --partial 'warning'
	stderr_lacks '[mojibake]'
}

# --- positions ---------------------------------------------------------------

@test "mojibake: line and column after CR, LF and CR LF, past a BOM" {
	printf '\357\273\277<a>\r\n\r\nx\n\rcaf\303\203\302\251</a>' > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"code":"mojibake","offset":16,"line":5,"column":4,"count":1'
}

@test "mojibake: line and column after 3000 CR LF lines of text" {
	local l
	l=$(printf 'caf\303\251 cr\303\250me th\303\251\303\242tre, \303\251t\303\251\r')
	{
		printf '<r>\r\n'
		yes "$l" | head -n 3000
		printf 'x\303\251\303\251 \303\203\302\251</r>'
	} > f.xml
	xs --json f.xml
	assert_success
	# "café crème théâtre, été" CR LF is 31 bytes
	assert_output --partial "\"code\":\"mojibake\",\"offset\":$((5 + 3000 * 31 + 6)),\"line\":3002,\"column\":5,\"count\":1"
}

@test "mojibake: a long line without a line end" {
	{ printf '<r>'; head -c 100000 /dev/zero | tr '\0' 'a'; printf '\303\251\303\203\302\251</r>'; } > f.xml
	xs --json f.xml
	assert_success
	assert_output --partial '"code":"mojibake","offset":100005,"line":1,"column":100005,"count":1'
}

# seq_at OFF FILE: FILE is "<r>", filler up to OFF, then "â€™" and more.
seq_at() {
	{
		printf '<r>'
		head -c $(($1 - 3)) /dev/zero | tr '\0' 'a'
		printf '\303\242\342\202\254\342\204\242'
		head -c 70000 /dev/zero | tr '\0' 'b'
		printf '</r>'
	} > "$2"
}

@test "mojibake: a sequence split over the first read boundary, file and pipe" {
	local base d off
	for base in 327680; do
		for d in 1 8; do
			off=$((base - d))
			seq_at "$off" f.xml
			xs --json f.xml
			assert_output --partial "\"code\":\"mojibake\",\"offset\":$off,\"line\":1,\"column\":$((off + 1)),\"count\":1"
			run_apart sh -c 'cat f.xml | "$1" --json' sh "$XMLSNIFF"
			assert_output --partial "\"code\":\"mojibake\",\"offset\":$off,\"line\":1,\"column\":$((off + 1)),\"count\":1"
		done
	done
}

@test "mojibake: a CR LF split over a read boundary before a sequence" {
	local base
	for base in 65536; do
		{ printf '<r>'; head -c $((base - 4)) /dev/zero | tr '\0' 'a'; printf '\r\nab\303\203\302\251</r>'; } > f.xml
		xs --json f.xml
		assert_output --partial "\"code\":\"mojibake\",\"offset\":$((base + 3)),\"line\":2,\"column\":3,\"count\":1"
		run_apart sh -c 'cat f.xml | "$1" --json' sh "$XMLSNIFF"
		assert_output --partial "\"code\":\"mojibake\",\"offset\":$((base + 3)),\"line\":2,\"column\":3,\"count\":1"
	done
}

# --- no false alarms -----------------------------------------------------------

@test "mojibake: Portuguese SÃO PAULO, irmÃ, mÃE" {
	put f.xml '<a>S\303\203O PAULO, irm\303\203 e m\303\203E</a>'
	clean f.xml
}

@test "mojibake: Â before a letter, French À, ô, théâtre, été" {
	put f.xml '<a>\303\202me \303\200 bient\303\264t, th\303\251\303\242tre, \303\251t\303\251</a>'
	clean f.xml
}

@test "mojibake: Vietnamese" {
	put f.xml '<a>Ti\341\272\277ng Vi\341\273\207t: \303\224ng, \303\212-\304\221\303\252, \303\202u, \303\202M</a>'
	clean f.xml
}

@test "mojibake: a single © after a capital Ã in capitals" {
	put f.xml '<a>S\303\203\302\251</a>'
	clean f.xml
}

@test "mojibake: a single pair whose second character is a letter" {
	put f.xml '<a>\303\203\305\223ber \303\203\302\252</a>'
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 warning'
	[ "$stderr" = 'f.xml:1:4: warning: "Ãœ" is "Ü" encoded twice (its UTF-8 read as windows-1252 and encoded again) (2 times) [mojibake]' ]
	put g.xml '<a>\303\203\305\223ber</a>'
	clean g.xml
}

@test "mojibake: a doubtful pair counts once another sequence is there" {
	put f.xml '<a>S\303\203\302\251 caf\303\203\302\251</a>'
	xs f.xml
	assert_success
	[ "$stderr" = 'f.xml:1:5: warning: "Ã©" is "é" encoded twice (its UTF-8 read as windows-1252 and encoded again) (2 times) [mojibake]' ]
}

@test "mojibake: the character before a pair is read whole, at two levels" {
	# "ÉÃ©" is a doubtful pair (a capital before the lead): no warning;
	# "中Ã©" warns (every offset and level: tests/kern_moj.c)
	local m
	{ printf '<r>'; head -c 93 /dev/zero | tr '\0' a
	  printf '\303\211\303\203\302\251'; head -c 55 /dev/zero | tr '\0' b; printf '</r>'; } > w.xml
	{ printf '<r>'; head -c 91 /dev/zero | tr '\0' a
	  printf '\344\270\255\303\203\302\251'; head -c 55 /dev/zero | tr '\0' b; printf '</r>'; } > s.xml
	for m in ref avx2; do
		run env XMLSNIFF_SIMD=$m "$XMLSNIFF" --json w.xml
		refute_output --partial '"mojibake"'
		run env XMLSNIFF_SIMD=$m "$XMLSNIFF" --json s.xml
		assert_output --partial '"code":"mojibake","offset":97,"line":1,"column":96,"count":1,'
	done
}

@test "mojibake: real no-break spaces, ©, and an emoji" {
	put f.xml '<a>1\302\240000 \302\251 \360\237\230\200 \342\200\231</a>'
	clean f.xml
}

# --- options ---------------------------------------------------------------

@test "mojibake: --ignore=mojibake hides it" {
	put f.xml '<a>caf\303\203\302\251</a>'
	xs --ignore=mojibake f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "mojibake: --strict leaves a warning at exit status 0, --error makes it 1" {
	put f.xml '<a>caf\303\203\302\251</a>'
	xs --strict f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 warning'
	xs --strict --error=mojibake f.xml
	assert_failure 1
	assert_output 'f.xml: UTF-8 (default), no declaration, 1 error'
	stderr_has 'f.xml:1:7: error: "Ã©" is "é" encoded twice'
}

@test "mojibake: --json" {
	put f.xml '<a>caf\303\203\302\251</a>'
	xs --json f.xml
	assert_success
	assert_output '{"file":"f.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":1,"diagnostics":[{"severity":"warning","code":"mojibake","offset":6,"line":1,"column":7,"count":1,"message":"\"Ã©\" is \"é\" encoded twice (its UTF-8 read as windows-1252 and encoded again)"}]}'
	[ -z "$stderr" ]
}

@test "mojibake: reported when transcoding too" {
	put f.xml '<a>caf\303\203\302\251</a>'
	xs --transcode-to=UTF-8 f.xml
	assert_success
	[ "$output" = '<a>cafÃ©</a>' ]
	stderr_has 'f.xml:1:7: warning: "Ã©" is "é" encoded twice'
}

@test "mojibake: --explain gives the clause and the fix" {
	xs --explain=mojibake
	assert_success
	assert_output --partial 'mojibake (warning): text encoded twice, or C1 controls'
	assert_output --partial 'XML 1.0 section 2.2 (C1 controls); RFC 3629 and XML 1.0 section'
	assert_output --partial 'iconv -f UTF-8 -t WINDOWS-1252 FILE > NEW'
}

# --- the fixes the manual gives ------------------------------------------------

@test "mojibake: iconv -f UTF-8 -t WINDOWS-1252 undoes one layer" {
	need_iconv WINDOWS-1252
	put f.xml '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\303\203\302\251 \303\242\342\202\254\342\204\242 \303\203\302\274</a>\n'
	iconv -f UTF-8 -t WINDOWS-1252 f.xml > g.xml
	[ "$(hexof g.xml)" = "$(printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\303\251 \342\200\231 \303\274</a>\n' | od -An -v -tx1 | tr -d ' \n')" ]
	xs g.xml
	assert_success
	assert_output 'g.xml: UTF-8 (declaration), declared "UTF-8"'
	[ -z "$stderr" ]
}

@test "mojibake: C1 controls back to windows-1252 characters" {
	need_iconv WINDOWS-1252
	put f.xml '<a>it\302\222s \302\223q\302\224</a>'
	iconv -f UTF-8 -t ISO-8859-1 f.xml | iconv -f WINDOWS-1252 -t UTF-8 > g.xml
	[ "$(hexof g.xml)" = "$(printf '<a>it\342\200\231s \342\200\234q\342\200\235</a>' | od -An -v -tx1 | tr -d ' \n')" ]
	clean g.xml
}

@test "mojibake: standard input from a file started at an offset" {
	printf 'abc<a>\r\nx\303\203\302\251</a>' > f.xml
	run_apart sh -c '{ head -c 3 > /dev/null; "$1" --json -; } < f.xml' sh "$XMLSNIFF"
	assert_success
	assert_output --partial '"code":"mojibake","offset":6,"line":2,"column":2,"count":1'
}

@test "mojibake: UTF-16 and UTF-32, both orders: a sequence after long CJK text, file and pipe agree" {
	# Files are passed over four units a word once nothing is counted;
	# a pipe goes a unit at a time: the same first hit either way.
	local enc off f ref
	for enc in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		for off in 3; do
			f=w$off.xml
			{ printf '<r>\n'
			  rep 200 '\346\227\245\346\234\254\350\252\236 \344\270\255\n'
			  head -c "$off" /dev/zero | tr '\0' x
			  printf '\303\203\302\251\346\227\245</r>\n'; } | iconv -f UTF-8 -t "$enc" > "$f"
			run "$XMLSNIFF" --content-type "application/xml; charset=$enc" -q "$f"
			ref=$output
			[[ "$ref" == *"$f:202:$((off + 1)): warning: \"Ã©\" is \"é\" encoded twice"* ]] ||
			    fail "$enc at $off: $ref"
			run sh -c '"$0" --content-type "$1" -q - < "$2" 2>&1' "$XMLSNIFF" "application/xml; charset=$enc" "$f"
			assert_output "${ref//$f/-}"
		done
	done
}

@test "mojibake: UTF-32 units FFFFFFFF before a C1 control: the same column from a file, a pipe and a byte at a time" {
	# FFFFFFFF takes no column in the scan, wherever the bytes are cut.
	{ printf '\377\376\000\000<\000\000\000a\000\000\000>\000\000\000'
	  printf 'x\000\000\000\377\377\377\377\377\377\377\377y\000\000\000'
	  printf '\200\000\000\000<\000\000\000/\000\000\000a\000\000\000>\000\000\000'; } > f.xml
	run "$XMLSNIFF" -q --ignore=illegal-sequence,utf32 f.xml
	assert_output --partial 'f.xml:1:6: warning: C1 control U+0080'
	run sh -c 'cat f.xml | "$0" -q --ignore=illegal-sequence,utf32 - 2>&1' "$XMLSNIFF"
	assert_output --partial '-:1:6: warning: C1 control U+0080'
}

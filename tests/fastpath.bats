#!/usr/bin/env bats
# The fast paths (AVX2, SSE2, eight bytes at a time) must give exactly the
# answers of the character-at-a-time path: XMLSNIFF_SIMD forces each.
load helper

# same_answers FILE: --json output identical under every path.
same_answers() {
	local ref m
	ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" --json "$1")
	for m in avx512 avx2 sse2 neon none; do
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
	local enc i lack=
	for enc in SHIFT_JIS EUC-JP GB18030 BIG5; do
		if ! has_iconv "$enc"; then
			lack="$lack $enc"
			continue
		fi
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
	skip_lacking "$lack"
}

# Transcoding: every conversion between UTF-8, UTF-16 and UTF-32 must write
# exactly the bytes of the character-at-a-time path, and those must be the
# target's BOM and declaration followed by what iconv(1) makes of the rest.

# paths_agree SRC TARGET: transcode SRC into TARGET under every path, the
# output into $BATS_TEST_TMPDIR/PATH.out; each exits with the status ($ref)
# and writes the diagnostics of ref.
paths_agree() {
	local d=$BATS_TEST_TMPDIR m st

	ref=0
	XMLSNIFF_SIMD=ref "$XMLSNIFF" --transcode-to="$2" "$1" \
	    > "$d/ref.out" 2> "$d/ref.err" || ref=$?
	for m in avx512 avx2 sse2 neon none; do
		st=0
		XMLSNIFF_SIMD=$m "$XMLSNIFF" --transcode-to="$2" "$1" \
		    > "$d/$m.out" 2> "$d/$m.err" || st=$?
		[ "$st" = "$ref" ] ||
		    fail "$1 -> $2: exit $st with XMLSNIFF_SIMD=$m, $ref with ref"
		cmp "$d/ref.err" "$d/$m.err" ||
		    fail "$1 -> $2: XMLSNIFF_SIMD=$m: other diagnostics than ref"
	done
}

# expected TARGET SRC...: what the transcodes of the SRC files into TARGET
# must be, one after the other.  Each SRC is UTF-8 beginning with
# <?xml version="1.0" encoding="UTF-8"?>, or all are UTF-16 of one byte
# order with a BOM and encoding="UTF-16"; each becomes the BOM and the
# declaration the man page gives TARGET (TRANSCODING), then what iconv
# makes of the rest of SRC (kept in SRC.body).
expected() {
	local to=$1 from=UTF-8 skip=38 ord=$1 bom= f parts=()
	local d=$BATS_TEST_TMPDIR
	shift
	case $(od -An -tx1 -N2 "$1") in
	*'ff fe')	from=UTF-16LE skip=80 ;;
	*'fe ff')	from=UTF-16BE skip=80 ;;
	esac
	case $to in
	UTF-16|UTF-32)	ord=${to}BE bom='\357\273\277' ;;
	esac
	# the BOM as U+FEFF, and the declaration, in the source encoding
	printf "$bom"'<?xml version="1.0" encoding="%s"?>' "$to" |
	    iconv -f UTF-8 -t "$from" > "$d/decl"
	for f; do
		[ "$f.body" -nt "$f" ] || tail -c +$((skip + 1)) "$f" > "$f.body"
		parts+=("$d/decl" "$f.body")
	done
	cat "${parts[@]}" | iconv -f "$from" -t "$ord"
}

# same_transcode SRC TARGET: SRC (as for expected) transcodes into TARGET
# without an error, with the same bytes under every path, and they are
# the expected ones.
same_transcode() {
	local d=$BATS_TEST_TMPDIR m

	paths_agree "$1" "$2"
	[ "$ref" = 0 ] || fail "$1 -> $2: exit $ref: $(cat "$d/ref.err")"
	for m in avx512 avx2 sse2 neon none; do
		cmp "$d/ref.out" "$d/$m.out" ||
		    fail "$1 -> $2: XMLSNIFF_SIMD=$m writes other bytes than ref"
	done
	expected "$2" "$1" > "$d/want"
	cmp "$d/want" "$d/ref.out" ||
	    fail "$1 -> $2: not the declaration and what iconv makes"
}

# same_in_place TARGET FILE...: copies of the files (as for expected, each
# name different), transcoded in place into TARGET by one run under each
# path, come out the same under every path, with the same status, report
# and diagnostics, and as expected (fewer runs than same_transcode).
same_in_place() {
	local to=$1 d=$BATS_TEST_TMPDIR m f st ref
	shift
	for m in ref avx512 avx2 sse2 none; do
		rm -rf "$d/$m"
		mkdir "$d/$m"
		cp "$@" "$d/$m"
		st=0
		(cd "$d/$m" && XMLSNIFF_SIMD=$m "$XMLSNIFF" --transcode-to="$to" \
		    --in-place "${@##*/}") > "$d/$m.log" 2>&1 || st=$?
		[ "$m" != ref ] || ref=$st
		[ "$st" = "$ref" ] ||
		    fail "-> $to: exit $st with XMLSNIFF_SIMD=$m, $ref with ref"
		cmp "$d/ref.log" "$d/$m.log" ||
		    fail "-> $to: XMLSNIFF_SIMD=$m: other report than ref"
		diff -rq "$d/ref" "$d/$m" ||
		    fail "-> $to: XMLSNIFF_SIMD=$m writes other bytes than ref"
	done
	[ "$ref" = 0 ] || fail "-> $to: exit $ref: $(cat "$d/ref.log")"
	expected "$to" "$@" > "$d/want"
	(cd "$d/ref" && cat "${@##*/}") | cmp "$d/want" - ||
	    fail "-> $to: not the declarations and what iconv makes"
}

# same_failure SRC TARGET: the transcode of SRC into TARGET fails on an
# illegal sequence, with the same status and diagnostics under every path.
same_failure() {
	paths_agree "$1" "$2"
	[ "$ref" = 1 ] || fail "$1 -> $2: exit $ref, not 1"
	grep -q '\[illegal-sequence\]$' "$BATS_TEST_TMPDIR/ref.err" ||
	    fail "$1 -> $2: no illegal-sequence: $(cat "$BATS_TEST_TMPDIR/ref.err")"
}

# utf16 FILE: FILE (UTF-8, declared so) in UTF-16 with a BOM and declared
# UTF-16, little-endian in FILE.le, big-endian in FILE.be.
utf16() {
	{ printf '\377\376'
	  sed '1s/"UTF-8"/"UTF-16"/' "$1" | iconv -f UTF-8 -t UTF-16LE; } \
	    > "$1.le"
	{ printf '\376\377'
	  sed '1s/"UTF-8"/"UTF-16"/' "$1" | iconv -f UTF-8 -t UTF-16BE; } \
	    > "$1.be"
}

# from_utf8 FILE: same_transcode into each UTF-16 and UTF-32 target.
from_utf8() {
	local t
	for t in UTF-16 UTF-16LE UTF-16BE UTF-32 UTF-32LE UTF-32BE; do
		same_transcode "$1" "$t"
	done
}

# from_utf16 FILE: same_transcode of FILE.le and FILE.be into UTF-8,
# UTF-16LE, UTF-16BE and UTF-32LE.
from_utf16() {
	local t
	for t in UTF-8 UTF-16LE UTF-16BE UTF-32LE; do
		same_transcode "$1.le" "$t"
		same_transcode "$1.be" "$t"
	done
}

# all_targets FILE: the UTF-8 entity FILE and its UTF-16 forms into each
# target.
all_targets() {
	from_utf8 "$1"
	utf16 "$1"
	from_utf16 "$1"
}

# entity FILE: standard input as the content of a UTF-8 entity, in FILE.
entity() {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>\n'
	  cat
	  printf '</doc>\n'; } > "$1"
}

# rep N TEXT: TEXT (printf escapes) N times.
rep() {
	[ "$1" -gt 0 ] || return 0
	printf "$2%.0s" $(seq "$1")
}

# The generated text (awk, which is much faster here than a shell loop):
# a deterministic generator, the same on every awk; characters of one to
# four bytes, with the edges of each length (U+07FF, U+0800, U+D7FF,
# U+E000, U+FFFD, U+10000, U+10FFFF), none of which needs escaping in XML;
# ASCII words of 1 to 24 bytes.  token() leaves the length of what it
# returns in len8 (UTF-8) and len16 (UTF-16).
GEN_AWK='
function rnd(k) {
	x = (x * 69069 + 1) % 4294967296
	return int(x / 65536) % k
}
function setup() {
	x = seed
	nc = split("a|Z|9| |\t|\303\251|\303\237|\337\277|\346\227\245|" \
	    "\343\200\202|\340\240\200|\355\237\277|\356\200\200|" \
	    "\357\277\275|\360\237\230\200|\360\240\200\200|" \
	    "\360\220\200\200|\364\217\277\277", c, "|")
}
function token(   w) {
	if (rnd(4) == 0) {
		w = substr("the quick brown fox jumps over the lazy dog",
		    1 + rnd(20), 1 + rnd(24))
		len8 = length(w)
		len16 = 2 * len8
	} else {
		w = c[1 + rnd(nc)]
		len8 = length(w)
		len16 = len8 == 4 ? 4 : 2
	}
	return w
}
function eol() {
	if (cr > 0 && rnd(cr) == 0)
		return rnd(2) ? "\r\n" : "\r"
	return "\n"
}
'

# mixed SEED LINES CR: LINES lines of markup with pseudo-random text; one
# in CR (none if 0) ends in CR LF or a lone CR instead of LF.
mixed() {
	awk -v seed="$1" -v lines="$2" -v cr="$3" "$GEN_AWK"'
	BEGIN {
		setup()
		for (i = 1; i <= lines; i++) {
			s = "<p n=\"" i "\" t=\"" token() token() "\">"
			for (n = rnd(60); n > 0; n--)
				s = s token()
			printf "%s</p>%s", s, eol()
		}
	}'
}

@test "transcoding fast paths: 1- to 4-byte characters in pseudo-random order" {
	mixed 1 400 8 | entity "$BATS_TEST_TMPDIR/mix.xml"
	all_targets "$BATS_TEST_TMPDIR/mix.xml"
}

@test "transcoding fast paths: pseudo-random runs longer than a conversion chunk (no CR)" {
	mixed 2 1500 0 | entity "$BATS_TEST_TMPDIR/long.xml"
	[ "$(wc -c < "$BATS_TEST_TMPDIR/long.xml")" -gt 100000 ]
	all_targets "$BATS_TEST_TMPDIR/long.xml"
}

@test "transcoding fast paths: long ASCII runs, long runs of CJK, astral and 2-byte characters" {
	local n
	{
		for n in 1 15 16 17 31 32 33 4095 4096 4097 16383 16384 16385 40000; do
			printf '<p>'; rep "$n" a; printf '\346\227\245</p>\n'
			printf '<p>'; rep "$n" b; printf '\360\237\230\200\t</p>\r\n'
		done
		printf '<p>'; rep 6000 '\346\227\245\346\234\254\350\252\236'; printf 'x</p>\n'
		printf '<p>'; rep 7000 '\360\240\200\200'; printf 'x</p>\n'
		printf '<p>'; rep 9000 '\303\251'; printf 'x</p>\n'
	} | entity "$BATS_TEST_TMPDIR/runs.xml"
	all_targets "$BATS_TEST_TMPDIR/runs.xml"
}

@test "transcoding fast paths: ASCII runs of 1 to 40 between CJK, CJK runs of 1 to 40 between ASCII" {
	awk 'function rep(n, s,   r) { r = ""; while (n-- > 0) r = r s; return r }
	BEGIN {
		for (n = 1; n <= 40; n++)
			printf "%s\346\227\245\343\200\202", rep(n, "x")
		printf "\n"
		for (n = 1; n <= 40; n++)
			printf "%sa", rep(n, "\346\227\245")
		printf "\r\n"
		for (n = 1; n <= 40; n++)
			printf "%s%s%s", rep(n, "\303\237"), rep(n, "y"),
			    rep(n, "\360\237\230\200")
		printf "\n"
	}' | entity "$BATS_TEST_TMPDIR/alt.xml"
	all_targets "$BATS_TEST_TMPDIR/alt.xml"
}

@test "transcoding fast paths: astral characters at every offset mod 64" {
	# Lines of 128 bytes, the k-th with an astral character at k mod 64
	# in the file, after ASCII or after 3- and 2-byte characters; after
	# CR LF, at k in a run.
	awk 'BEGIN {
		for (cjk = 0; cjk < 2; cjk++)
			for (k = 0; k < 64; k++) {
				s = "<p>"
				for (m = k; m > 0; m -= n) {
					n = !cjk || m == 1 ? 1 : m == 2 || m % 3 == 1 ? 2 : 3
					s = s (n == 1 ? "a" : n == 2 ? "\303\251" : "\346\227\245")
				}
				s = s (k % 2 ? "\360\240\200\200" : "\360\237\230\200")
				for (i = 0; i < 116 - k; i++)
					s = s "b"
				print s "</p>"
			}
	}' | entity "$BATS_TEST_TMPDIR/lf.xml"
	sed 's/$/\r/' "$BATS_TEST_TMPDIR/lf.xml" > "$BATS_TEST_TMPDIR/crlf.xml"
	all_targets "$BATS_TEST_TMPDIR/lf.xml"
	all_targets "$BATS_TEST_TMPDIR/crlf.xml"
}

@test "transcoding fast paths: runs that end at, or 1 to 3 bytes after, a 16- or 32-byte boundary" {
	# A run starts after each CR LF and ends at the next CR: runs of
	# every length 1..70, ending in a character of each length.
	awk 'BEGIN {
		split("a \303\251 \346\227\245 \360\237\230\200", t, " ")
		for (n = 1; n <= 70; n++)
			for (k = 1; k <= 4; k++) {
				s = ""
				for (i = length(t[k]); i < n; i++) s = s "x"
				printf "%s%s\r\n", s, t[k]
			}
	}' | entity "$BATS_TEST_TMPDIR/ends.xml"
	all_targets "$BATS_TEST_TMPDIR/ends.xml"
}

# exact SEED LEN UNIT [ASCII]: "<r>" and pseudo-random text (only ASCII
# words if ASCII is 1), LEN bytes in all in UTF-8 (UNIT 8) or in UTF-16
# (UNIT 16), ending in a character of any length.
exact() {
	awk -v seed="$1" -v len="$2" -v unit="$3" -v ascii="${4:-0}" "$GEN_AWK"'
	BEGIN {
		setup()
		w = unit == 16 ? 2 : 1
		s = "<r>"
		l = 3 * w
		while (len - l > 4) {
			t = token()
			tl = unit == 16 ? len16 : len8
			if (l + tl <= len && (!ascii || len8 * 2 == len16)) {
				s = s t
				l += tl
			}
		}
		# the last 0 to 4 bytes: one character of that length
		split("a \303\251 \346\227\245 \360\237\230\200", f, " ")
		if (unit == 16)
			f[2] = "\343\200\202"
		if (len > l)
			s = s (ascii ? substr("abcd", 1, (len - l) / w) : f[len - l])
		printf "%s", s
	}'
}

@test "transcoding fast paths: UTF-8 input that ends at every offset mod 32" {
	local n t f files=()
	# The run after the declaration's line starts at byte 39 and ends
	# with the file n bytes later: at every offset mod 32 from its start
	# and in the file in text of all kinds, mod 16 in ASCII.
	for n in $(seq 32 63) a{48..63}; do
		f=$BATS_TEST_TMPDIR/end$n.xml
		{ printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		  exact "${n#a}" "${n#a}" 8 "$([ "$n" = "${n#a}" ] || echo 1)"; } > "$f"
		[ "$(wc -c < "$f")" = $((39 + ${n#a})) ]
		files+=("$f")
	done
	for t in UTF-16 UTF-16LE UTF-16BE UTF-32 UTF-32LE UTF-32BE; do
		same_in_place "$t" "${files[@]}"
	done
}

@test "transcoding fast paths: UTF-16 input that ends at every even offset mod 32" {
	local n t f le=() be=()
	# After the BOM and the declaration's line the run starts at byte
	# 82 and ends with the file n bytes later, in text of all kinds and
	# in ASCII.
	for n in $(seq 64 2 94) a{64..94..2}; do
		f=$BATS_TEST_TMPDIR/end$n.xml
		{ printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		  exact "${n#a}" "${n#a}" 16 "$([ "$n" = "${n#a}" ] || echo 1)"; } > "$f"
		utf16 "$f"
		[ "$(wc -c < "$f.le")" = $((82 + ${n#a})) ]
		le+=("$f.le")
		be+=("$f.be")
	done
	for t in UTF-8 UTF-16LE UTF-16BE UTF-32LE; do
		same_in_place "$t" "${le[@]}"
		same_in_place "$t" "${be[@]}"
	done
}

# big SEED SIZE UNIT: an entity, declared UTF-8, of about SIZE bytes once in
# UTF-8 (UNIT 8) or in UTF-16 with a BOM (UNIT 16), in which every 320 KiB
# read boundary of that form falls inside a character: in UTF-8 one of 2,
# 3 or 4 bytes, cut after each of its bytes in turn; in UTF-16 between
# the halves of a surrogate pair.  Runs are long: one line in 300 ends in
# CR.
big() {
	awk -v seed="$1" -v size="$2" -v unit="$3" -v cr=300 "$GEN_AWK"'
	BEGIN {
		setup()
		split("\303\251 \346\227\245 \346\227\245 \360\237\230\200 " \
		    "\360\237\230\200 \360\237\230\200", cut8, " ")
		split("1 1 2 1 2 3", before8, " ")
		w = unit == 16 ? 2 : 1
		s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n"
		printf "%s", s
		# the UTF-16 form has a BOM and says UTF-16, one more character
		pos = unit == 16 ? 2 + 2 * (length(s) + 1) : length(s)
		b = 327680
		for (i = 1; pos < size; i++) {
			if (b - pos < 4000) {
				# no line is that long: cut the next character
				if (unit == 16) {
					ch = j % 2 ? "\360\240\200\200" : "\360\237\230\200"
					k = 2
					l = 4
				} else {
					ch = cut8[1 + j % 6]
					k = before8[1 + j % 6]
					l = length(ch)
				}
				s = "<p n=\"" i "\">"
				for (n = (b - k - pos) / w - length(s); n > 0; n--)
					s = s "x"
				printf "%s%s</p>\n", s, ch
				pos = b - k + l + 5 * w
				b += 327680
				j++
				continue
			}
			s = "<p n=\"" i "\" t=\""
			l = w * length(s)
			s = s token()
			l += unit == 16 ? len16 : len8
			s = s "\">"
			l += 2 * w
			for (n = rnd(60); n > 0; n--) {
				s = s token()
				l += unit == 16 ? len16 : len8
			}
			e = eol()
			s = s "</p>" e
			l += w * (4 + length(e))
			printf "%s", s
			pos += l
		}
		printf "</doc>\n"
	}'
}

# cut_at FILE HEX...: the bytes of FILE at each multiple of 320 KiB are
# the pairs HEX in turn (the last one repeated).
cut_at() {
	local f=$1 b=327680 got
	shift
	while [ "$b" -lt "$(wc -c < "$f")" ]; do
		got=$(od -An -tx1 -j "$b" -N 2 "$f" | tr -d ' ')
		[[ "$got" == $1 ]] || fail "$f at $b: $got, not $1"
		[ $# = 1 ] || shift
		b=$((b + 327680))
	done
}

@test "transcoding fast paths: 2.5 MB, every 320 KiB read boundary inside a character" {
	local f=$BATS_TEST_TMPDIR/big.xml
	big 11 2600000 8 > "$f"
	# cut after 1 byte of é; 1, 2 of 日; 1, 2, 3 of 😀; then again
	cut_at "$f" a9* 97a5 a5* 9f98 9880 80* a9* 97a5
	from_utf8 "$f"
	big 12 2600000 16 > "$f"
	utf16 "$f"
	# the low surrogates of 😀 and 𠀀 in turn
	cut_at "$f.le" 00de 00dc 00de 00dc 00de 00dc 00de 00dc
	cut_at "$f.be" de00 dc00 de00 dc00 de00 dc00 de00 dc00
	from_utf16 "$f"
}

@test "transcoding fast paths: an illegal byte deep inside, a sequence cut by the end" {
	local d=$BATS_TEST_TMPDIR t f
	mixed 3 1500 8 > "$d/text"
	mixed 4 30 8 > "$d/tail"
	[ "$(wc -c < "$d/text")" -gt 163840 ]
	# FF past the first read buffer and the first output buffer
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>'
	  cat "$d/text" "$d/text"; printf 'x\377y'; cat "$d/tail"; } > "$d/ff.xml"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>'
	  cat "$d/text"; printf 'x\360\237\230'; } > "$d/cut.xml"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>'
	  cat "$d/tail"; printf '\377'; cat "$d/tail"; printf '\346\227'; } > "$d/both.xml"
	for t in UTF-16 UTF-16LE UTF-16BE UTF-32 UTF-32LE UTF-32BE; do
		same_failure "$d/ff.xml" "$t"
		grep -q 'bytes FF are not valid in UTF-8' "$d/ref.err"
		same_failure "$d/cut.xml" "$t"
		grep -q 'bytes F0 9F 98 are incomplete in UTF-8' "$d/ref.err"
		same_failure "$d/both.xml" "$t"
		grep -q '(2 times) \[illegal-sequence\]' "$d/ref.err"
	done
}

@test "transcoding fast paths: a lone surrogate deep inside UTF-16, a unit cut by the end" {
	local d=$BATS_TEST_TMPDIR t f
	mixed 5 2500 8 | entity "$d/text.xml"
	utf16 "$d/text.xml"
	mixed 6 30 8 > "$d/tail"
	{ cat "$d/text.xml.le"; printf '\000\330x\000'
	  iconv -f UTF-8 -t UTF-16LE "$d/tail"; printf 'x'; } > "$d/s.le"
	{ cat "$d/text.xml.be"; printf '\330\000\000x'
	  iconv -f UTF-8 -t UTF-16BE "$d/tail"; printf '\000'; } > "$d/s.be"
	[ "$(wc -c < "$d/s.le")" -gt 327680 ]
	for f in s.le s.be; do
		for t in UTF-8 UTF-16LE UTF-16BE UTF-32LE; do
			same_failure "$d/$f" "$t"
			grep -q '(2 times) \[illegal-sequence\]' "$d/ref.err"
		done
	done
}

@test "XMLSNIFF_SIMD: an unknown value is refused, an empty one means the fastest" {
	printf '<a/>' > "$BATS_TEST_TMPDIR/a.xml"
	run --separate-stderr env XMLSNIFF_SIMD=avx512x "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" 'xmlsniff: XMLSNIFF_SIMD: unknown value "avx512x" (avx512, avx2, sse2, neon, none or ref)'
	run --separate-stderr env XMLSNIFF_SIMD=REF "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
	assert_failure 2
	run --separate-stderr env XMLSNIFF_SIMD= "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
	assert_success
	assert_output "$BATS_TEST_TMPDIR/a.xml: UTF-8 (default), no declaration"
	# A level this machine lacks (neon on x86-64, avx2 on AArch64) runs
	# the portable code: the same answers.
	for m in avx512 avx2 sse2 neon none ref; do
		run --separate-stderr env XMLSNIFF_SIMD=$m "$XMLSNIFF" "$BATS_TEST_TMPDIR/a.xml"
		assert_success
		assert_output "$BATS_TEST_TMPDIR/a.xml: UTF-8 (default), no declaration"
	done
}

@test "XMLSNIFF_SIMD: one place reads it" {
	local n
	n=$(grep -l 'XMLSNIFF_SIMD")' "$BATS_TEST_DIRNAME"/../src/*.c "$BATS_TEST_DIRNAME"/../src/*/*.c | wc -l)
	[ "$n" = 1 ]
}

@test "fast paths: the mojibake scan, each sequence at every offset of a 64-byte stretch, CR LF lines before it" {
	huge "four sequences at 64 offsets, each under every path"
	# moj_skip (src/simd/) stops at the first candidate and counts the
	# line ends before it; every path must find the same first one at
	# the same line and column, file and pipe.
	local seq off f
	for seq in '\303\203\302\251' '\303\242\342\202\254\342\204\242' '\302\222' '\303\203\302\274'; do
		for off in $(seq 0 63); do
			f=$BATS_TEST_TMPDIR/m$off.xml
			{ printf '<?xml version="1.0"?>\r\n<a>\r\n'
			  mktext 40 | sed 's/$/\r/'
			  head -c "$off" /dev/zero | tr '\0' x
			  printf "$seq"' \303\251t\303\251 \302\251\r\n</a>\r\n'; } > "$f"
			same_answers "$f"
			run "$XMLSNIFF" --json "$f"
			assert_output --partial '"code":"mojibake"'
		done
	done
	run sh -c 'XMLSNIFF_SIMD=ref "$0" --json - < "$1"' "$XMLSNIFF" "$f"
	local ref=$output
	for m in avx512 avx2 sse2 none; do
		run sh -c 'cat "$1" | XMLSNIFF_SIMD=$2 "$0" --json -' "$XMLSNIFF" "$f" "$m"
		assert_output "$ref"
	done
}

# CR in the runs of UTF-8 and UTF-16 (src/simd/): a CR LF pair is one line
# end, a lone CR one too (XML 1.0 section 2.11), wherever the CR falls in a
# vector block or a read, and whatever follows it.

# crlf_agree FILE: every occurrence of every diagnostic (--all --json) the
# same under every path as under ref, read from the file and from a pipe;
# the file's output is left in $output.
crlf_agree() {
	local ref refp m all='--all --max-errors=100000 --json'
	ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $all "$1")
	refp=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $all - < "$1")
	for m in avx512 avx2 sse2 neon none; do
		run sh -c 'cat "$1" | XMLSNIFF_SIMD=$2 "$0" '"$all"' -' \
		    "$XMLSNIFF" "$1" "$m"
		assert_success
		assert_output "$refp"
		run env XMLSNIFF_SIMD=$m "$XMLSNIFF" $all "$1"
		assert_success
		assert_output "$ref"
	done
}

# block64 FORM AFTER [LEAD]: 64 lines of 64 characters after a first one,
# the k-th with a CR at its k-th character and AFTER (awk escapes)
# right after it; LEAD (é: a two-byte character) starts each line; in
# UTF-8, or UTF-16LE or UTF-16BE with a BOM, or a single-byte encoding
# after a declaration.  A CR thus falls at every offset of a 64-byte block
# (every even one in UTF-16).
block64() {
	awk -v after="$2" -v lead="${3:-}" 'BEGIN {
		printf "<r>"
		for (i = 3; i < 63; i++) printf "y"
		printf "\n"
		for (k = 0; k < 64; k++) {
			s = lead
			for (i = length(lead) > 0; i < k; i++) s = s "x"
			s = s "\r" after
			while (length(s) < 63) s = s "z"
			print s
		}
		printf "</r>\n"
	}' > "$BATS_TEST_TMPDIR/b64"
	case $1 in
	UTF-8)	cat "$BATS_TEST_TMPDIR/b64" ;;
	UTF-16LE) printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$BATS_TEST_TMPDIR/b64" ;;
	UTF-16BE) printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$BATS_TEST_TMPDIR/b64" ;;
	*)	printf '<?xml version="1.0" encoding="%s"?>' "$1"
		iconv -f UTF-8 -t "$1" "$BATS_TEST_TMPDIR/b64" ;;
	esac
}

@test "fast paths: CR LF, lone CR, CR CR and CR before a bad character at every offset of a 64-byte block" {
	local f=$BATS_TEST_TMPDIR/c.xml form lead after forms
	# single-byte text has a vector kernel in AVX2 only: not under an
	# emulator (XMLSNIFF_WRAP), where it would only double the time
	forms="UTF-8 UTF-16LE UTF-16BE"
	[ -n "${XMLSNIFF_WRAP:-}" ] || forms="$forms ISO-8859-1 windows-1252 KOI8-R"
	for form in $forms; do
		for lead in '' "$([ $form = KOI8-R ] && echo Ж || echo é)"; do
			# CR LF: one line end each; CR, then a character: a
			# line end each; counted right up to a U+0001 at
			# the end
			for after in '\n' 'w'; do
				block64 "$form" "$after" "$lead" > "$f"
				crlf_agree "$f"
				assert_output --partial '"errors":0,"warnings":0'
				printf '\001' | iconv -f UTF-8 -t "$form" >> "$f"
				crlf_agree "$f"
				assert_output --partial '"code":"illegal-char","offset":'
			done
			# CR CR: two line ends each; U+0001 after a CR
			block64 "$form" '\r\001' "$lead" > "$f"
			crlf_agree "$f"
			assert_output --partial '"code":"illegal-char","offset":'
			assert_output --partial ',"line":4,"column":1,"count":64,'
			block64 "$form" '\001\n' "$lead" > "$f"
			crlf_agree "$f"
			assert_output --partial ',"line":3,"column":1,"count":64,'
		done
	done
	# the positions themselves: line 2 is the first with a CR, and
	# each line has two line ends, the CR and the LF
	block64 UTF-8 '\001' > "$f"
	xs --all "$f"
	assert_success
	assert_output "$f: UTF-8 (default), no declaration, 1 error"
	assert_equal "${#stderr_lines[@]}" 64
	assert_equal "${stderr_lines[0]}" "$f:3:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it (64 times) [illegal-char]"
	assert_equal "${stderr_lines[63]}" "$f:129:1: error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
}

@test "fast paths: single-byte text, a CR LF or CR CR across the end of the last whole vector block" {
	local f=$BATS_TEST_TMPDIR/s.xml pad e
	# (the vector kernel of single-byte text is AVX2's)
	huge "41 files under every path, twice"
	for e in ISO-8859-1; do
		for pad in $(seq 0 40); do
			for pair in '\r\n' '\r\r'; do
				{ printf '<?xml version="1.0" encoding="%s"?><r>' "$e"
				  head -c "$pad" /dev/zero | tr '\0' a
				  printf "$pair"'bcd\001</r>'; } > "$f"
				crlf_agree "$f"
				assert_output --partial ',"line":'"$([ "$pair" = '\r\n' ] && echo 2 || echo 3)"',"column":4,"count":1,'
			done
		done
	done
}

@test "fast paths: mixed LF, CR LF and lone CR lines, with errors and a late declaration after a CR" {
	local d=$BATS_TEST_TMPDIR f
	for f in 1 2 3; do
		# text, a bad byte (unit) after a CR, a CR before a late
		# declaration, text: in UTF-8, UTF-16LE and UTF-16BE
		mixed "$f" 700 "$f" | entity "$d/m$f.xml"
		mixed $((f + 10)) 50 2 > "$d/t$f"
		utf16 "$d/m$f.xml"
		{ cat "$d/m$f.xml"; printf 'x\r\001\r\n\377\r<?xml version="1.0"?>\r'
		  cat "$d/t$f"; } > "$d/u8.xml"
		# (UTF-16: a lone high surrogate for the bad byte)
		{ cat "$d/m$f.xml.le"
		  printf 'x\000\r\000\001\000\r\000\n\000\000\330\r\000'
		  printf '<?xml version="1.0"?>\r' | iconv -f UTF-8 -t UTF-16LE
		  iconv -f UTF-8 -t UTF-16LE "$d/t$f"; } > "$d/le.xml"
		{ cat "$d/m$f.xml.be"
		  printf '\000x\000\r\000\001\000\r\000\n\330\000\000\r'
		  printf '<?xml version="1.0"?>\r' | iconv -f UTF-8 -t UTF-16BE
		  iconv -f UTF-8 -t UTF-16BE "$d/t$f"; } > "$d/be.xml"
		for m in u8 le be; do
			crlf_agree "$d/$m.xml"
			assert_output --partial '"code":"illegal-sequence"'
			assert_output --partial '"code":"illegal-char"'
			assert_output --partial '"code":"decl-not-at-start"'
		done
	done
}

# pad_to FILE N UNIT: units of 'a' (UNIT: 8, or 16le, 16be) after FILE's
# bytes, up to N bytes in all.
pad_to() {
	local n=$(( $2 - $(wc -c < "$1") ))
	[ "$n" -ge 0 ] || fail "$1: longer than $2 bytes"
	case $3 in
	8)	head -c "$n" /dev/zero | tr '\0' a ;;
	16le)	head -c $((n / 2)) /dev/zero | tr '\0' a | iconv -f UTF-8 -t UTF-16LE ;;
	16be)	head -c $((n / 2)) /dev/zero | tr '\0' a | iconv -f UTF-8 -t UTF-16BE ;;
	esac >> "$1"
	[ "$(wc -c < "$1")" = "$2" ]
}

@test "fast paths: a CR as the last character of a 320 KiB read, before an LF, a character, a bad one" {
	local d=$BATS_TEST_TMPDIR f=$BATS_TEST_TMPDIR/r.xml tail u n more at
	huge "1 MB inputs"
	mixed 5 1400 1 > "$d/text"
	[ "$(wc -c < "$d/text")" -gt 200000 ]
	[ "$(wc -c < "$d/text")" -lt 300000 ]
	n=$(tr -dc '\r' < "$d/text" | wc -c)
	# UTF-8: the CR the last byte of the read, or the one before it
	# (the last byte of a read is held back: it may be a '<' of a late
	# declaration, so the decoder gets the bytes up to it)
	for at in 327678 327679; do
		for tail in '\n' 'b' '\001' '\377' '\r\n'; do
			{ printf '<r>'; cat "$d/text"; } > "$f"
			pad_to "$f" "$at" 8
			printf "\r$tail" >> "$f"
			cat "$d/text" >> "$f"
			pad_to "$f" $((at + 327680)) 8
			printf '\r\n\002</r>\r\n' >> "$f"
			crlf_agree "$f"
			# the text's line ends are all CR LF or CR: a bad
			# one after the CR is on the next line, U+0002 after
			# the second text and CR LF as many lines on (one
			# more after CR CR LF)
			case $tail in
			'\001'|'\377')
				assert_output --partial "\"offset\":$((at + 1)),\"line\":$((n + 2)),\"column\":1," ;;
			esac
			more=0
			[ "$tail" != '\r\n' ] || more=1
			assert_output --partial "\"offset\":$((at + 327682)),\"line\":$((2 * n + 3 + more)),\"column\":1,"
		done
	done
	# UTF-16: the CR the last unit of the read, or the one before it
	mixed 6 600 1 > "$d/text"
	iconv -f UTF-8 -t UTF-16LE "$d/text" > "$d/text.le"
	iconv -f UTF-8 -t UTF-16BE "$d/text" > "$d/text.be"
	[ "$(wc -c < "$d/text.le")" -gt 100000 ]
	[ "$(wc -c < "$d/text.le")" -lt 300000 ]
	for at in 327676 327678; do
		for tail in '\n\000' 'b\000' '\001\000' '\000\330' '\r\000\n\000'; do
			for u in le be; do
				{ [ $u = le ] && printf '\377\376<\000r\000>\000' ||
				      printf '\376\377\000<\000r\000>'
				  cat "$d/text.$u"; } > "$f"
				pad_to "$f" "$at" 16$u
				if [ $u = le ]; then
					printf "\r\000$tail" >> "$f"
				else	# the same units, big-endian
					printf "\r\000$tail" |
					    dd conv=swab status=none >> "$f"
				fi
				cat "$d/text.$u" >> "$f"
				crlf_agree "$f"
			done
		done
	done
}

# --- error-dense input ------------------------------------------------------
# Bytes each illegal alone (F5 to FF, stray continuation bytes, C0, C1) are
# counted a run at a time, the characters after a bad sequence go the
# character path while errors stay dense, and once illegal-sequence and
# illegal-char are only counted the walk sums them itself: every path, file
# and pipe, must give the reference's counts, first positions and --all
# lists, whether the cap is reached early or not at all.

# dense_answers FILE: the answers of every path as those of the reference,
# without --all, with it, with a cap of 3 and of 5000, from the file and
# from a pipe.
dense_answers() {
	local ref o m
	for o in --json '--all --json' '--max-errors=3 --json' \
	    '--max-errors=5000 --json' '--ignore=illegal-char --all --json'; do
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $o "$1")
		for m in avx512 avx2 sse2 neon none; do
			run env XMLSNIFF_SIMD=$m "$XMLSNIFF" $o "$1"
			assert_output "$ref"
		done
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $o - < "$1")
		for m in avx2 none; do
			run sh -c 'cat "$1" | XMLSNIFF_SIMD=$2 "$0" '"$o"' -' \
			    "$XMLSNIFF" "$1" "$m"
			assert_output "$ref"
		done
	done
}

# noise SEED N: N pseudo-random bytes, the same on every awk.
noise() {
	awk -v seed="$1" -v n="$2" 'BEGIN {
		x = seed
		for (i = 0; i < n; i++) {
			x = (x * 69069 + 1) % 4294967296
			printf "%c", int(x / 65536) % 256
		}
	}'
}

# fill N BYTE: N copies of the byte BYTE (octal, as \377).
fill() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

@test "error-dense: runs of each byte illegal alone, of every length at every offset of a word" {
	local b len f=$BATS_TEST_TMPDIR/e.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  for b in '\200' '\277' '\300' '\301' '\365' '\370' '\377'; do
		for len in 1 2 7 8 9 15 16 17 31; do
			printf 'ab'
			fill "$len" "$b"
			printf '\r'
			fill "$len" "$b"
			printf '\n\303\251'
			fill "$len" "$b"
			printf '\346\227\245\r\n\001'
		done
	  done
	  printf '</a>\n'; } > "$f"
	dense_answers "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":44,"line":2,"column":6,"count":2226'
}

@test "error-dense: FF across read boundaries, with CR before and LF after, file and pipe" {
	huge "megabytes of noise under every path, file and pipe"
	local f=$BATS_TEST_TMPDIR/ff.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\r\n<a>'
	  fill 327600 a
	  printf '\r'
	  fill 200 '\377'
	  printf '\n'
	  fill 327000 '\377'
	  printf '\302\205\000\000\000'
	  fill 1000 '\277'
	  printf '\340\200</a>'; } > "$f"
	dense_answers "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":327644,"line":3,"column":1,"count":328202'
	assert_output --partial '"code":"illegal-char","offset":654847,"line":3,"column":327202,"count":3'
}

@test "error-dense: pseudo-random bytes (1 MB) declared UTF-8" {
	local f=$BATS_TEST_TMPDIR/r.xml
	# The late declaration at the end is reported at the position the
	# walk has reached there, once both codes are only counted.
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'; noise 7 1000000
	  printf '</a> \351\377 <?xml version="1.0"?>'; } > "$f"
	dense_answers "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-sequence"'
	assert_output --partial '"code":"illegal-char"'
	assert_output --partial '"code":"decl-not-at-start"'
}

@test "error-dense: pseudo-random bytes in an XML 1.1 entity (C1 controls, NEL, LS)" {
	local f=$BATS_TEST_TMPDIR/r11.xml
	{ printf '<?xml version="1.1" encoding="UTF-8"?>\n<a>'
	  noise 11 300000
	  printf '\302\205\342\200\250\177\302\200'
	  noise 12 400000; } > "$f"
	dense_answers "$f"
}

@test "error-dense: Latin-1 text read as UTF-8, CR LF lines, across read boundaries" {
	huge "megabytes of noise under every path, file and pipe"
	local f=$BATS_TEST_TMPDIR/l.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  for i in $(seq 1 12000); do
		printf 'caf\351 na\357ve gar\347on d\351j\340 \374ber stra\337e \r\n'
	  done
	  printf 'caf\351 na\357ve <?xml version="1.0"?>'; } > "$f"
	dense_answers "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"decl-not-at-start","offset":444053,"line":12002,"column":12'
	assert_output --partial '"code":"illegal-sequence","offset":45,"line":2,"column":7,"count":84002'
}

@test "error-dense: runs of NUL between bad bytes and across a read boundary" {
	local f=$BATS_TEST_TMPDIR/n.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  fill 327000 '\000'
	  printf '\377\000\200\000\000\351\000'
	  fill 2000 '\000'
	  printf '\r\000\377\n'
	  fill 700000 '\000'; } > "$f"
	dense_answers "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-char","offset":42,"line":2,"column":4,"count":1029005'
	assert_output --partial '"code":"illegal-sequence","offset":327042,"line":2,"column":327004,"count":4'
}

@test "error-dense: the first non-Char deep in Latin-1 text read as UTF-8 keeps its exact place" {
	huge "megabytes of noise under every path, file and pipe"
	# Illegal sequences are only counted by then; the stretch with the
	# control character goes back to the character path, which locates it.
	local f=$BATS_TEST_TMPDIR/lc.xml i
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  for i in $(seq 1 9000); do
		printf 'caf\351 na\357ve gar\347on d\351j\340 \374ber stra\337e \r\n'
	  done
	  printf 'caf\351 na\357ve \001 \351\002\r\n</a>\n'; } > "$f"
	dense_answers "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-char","offset":333053,"line":9002,"column":12,"count":2,'
}

# latin_runs EOL: 192 runs of Latin, CJK and emoji text, each ended by a
# U+0001, the k-th k bytes longer than the first, with EOL (LF, CR LF or
# CR) after every 37th character: each U+0001 ends its run at another
# offset of two 64-byte steps, after a line end or not.
latin_runs() {
	LC_ALL=C awk -v eol="$1" 'BEGIN {
		split("a \303\251 b \346\227\245 c \360\237\230\200 d \303\274", ch, " ")
		printf "<r>\n"
		for (k = 0; k < 192; k++) {
			s = ""
			for (j = 0; length(s) < 150 + k; j++) {
				c = ch[(j * 7 + k) % 8 + 1]
				if (length(s) + length(c) > 150 + k)
					c = "e"
				s = s c
				if (j % 37 == 36 && length(s) < 150 + k)
					s = s eol
			}
			printf "%s\001", s
		}
		printf "\n</r>\n"
	}'
}

@test "fast paths: Latin, CJK and emoji runs ended by a bad character at every offset of two 64-byte steps, LF, CR LF and CR lines" {
	# plain_utf8 and plain_utf16 count the column only where a run
	# ends: every occurrence must have the line and column of ref.
	local f=$BATS_TEST_TMPDIR/l.xml eol form ref m
	for eol in '\n' '\r\n' '\r'; do
		for form in UTF-8 UTF-16LE UTF-16BE; do
			case $form in
			UTF-8)	latin_runs "$eol" > "$f" ;;
			UTF-16LE) { printf '\377\376'; latin_runs "$eol" |
			    iconv -f UTF-8 -t UTF-16LE; } > "$f" ;;
			UTF-16BE) { printf '\376\377'; latin_runs "$eol" |
			    iconv -f UTF-8 -t UTF-16BE; } > "$f" ;;
			esac
			ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" --all --json "$f")
			for m in avx512 avx2 sse2 neon none; do
				run env XMLSNIFF_SIMD=$m "$XMLSNIFF" --all --json "$f"
				assert_output "$ref"
			done
			assert_output --partial '"code":"illegal-char","offset":'
			assert_output --partial '"count":192,'
		done
	done
	# the positions themselves (counted apart), for LF and lone CR
	for eol in '\n' '\r'; do
		latin_runs "$eol" > "$f"
		xs --all "$f"
		assert_success
		assert_equal "${#stderr_lines[@]}" 192
		assert_equal "${stderr_lines[0]%%: error:*}" "$f:4:6"
		assert_equal "${stderr_lines[1]%%: error:*}" "$f:6:6"
		assert_equal "${stderr_lines[2]%%: error:*}" "$f:8:7"
		assert_equal "${stderr_lines[191]%%: error:*}" "$f:580:32"
	done
}

@test "fast paths: the mojibake scan of UTF-16 Latin text, each sequence at every offset of two vectors, file and pipe" {
	huge "five sequences at 40 offsets in two byte orders, each under every path"
	# moj_skipw (src/simd/) passes over leads (U+00C2..U+00F4) that no
	# trail character follows, as "é" in Latin text: it must stop at
	# the same first sequence as the unit-at-a-time scan of a pipe.
	local seq off f form ref m
	for seq in '\303\203\302\251' '\303\242\342\202\254\342\204\242' '\302\222' \
	    '\303\251\303\203\302\251' '\303\251\346\227\245\303\203\302\274'; do
		for form in UTF-16LE UTF-16BE; do
			for off in $(seq 0 39); do
				f=$BATS_TEST_TMPDIR/w$off.xml
				{ printf '<?xml version="1.0" encoding="UTF-16"?>\r\n<a>\r\n'
				  printf 'for\303\252t m\303\252me d\303\251j\303\240 \302\277d\303\263nde \303\277 \303\265\r\n%.0s' $(seq 1 30)
				  LC_ALL=C.UTF-8 awk -v n="$off" 'BEGIN {
					for (i = 0; i < n; i++) printf (i % 3 ? "a" : "\303\251") }'
				  printf "$seq"' \303\251t\303\251 \302\251\r\n</a>\r\n'; } |
				    iconv -f UTF-8 -t "$form" > "$f"
				ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" --json "$f")
				for m in avx512 avx2 sse2 none; do
					run env XMLSNIFF_SIMD=$m "$XMLSNIFF" --json "$f"
					assert_output "$ref"
				done
				assert_output --partial '"code":"mojibake"'
				run sh -c 'XMLSNIFF_SIMD=avx2 "$0" --json - < "$1"' "$XMLSNIFF" "$f"
				assert_output "${ref/\"file\":\"$f\"/\"file\":\"-\"}"
			done
		done
	done
}

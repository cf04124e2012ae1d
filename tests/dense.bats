#!/usr/bin/env bats
# Error-dense input counted in bulk: the UTF-8 walk of the automaton four
# ways at once over a stretch, undefined bytes of a single-byte encoding a
# run at a time and the text among them counted in one loop, and the guess
# that reads such input again.  Every path (XMLSNIFF_SIMD), from a file and
# from a pipe, with and without --all, a cap, JSON, must give exactly the
# reference's counts, first positions and lists.
load helper

# dense_same FILE: the answers of every path as those of the reference,
# without --all, with it, with a cap of 3 and of 5000, in text and JSON,
# from the file and from a pipe.  A declaration at the end, found late,
# shows where the walk has reached there.
dense_same() {
	local ref o m
	for o in --json '--all --json' '--max-errors=3 --json' \
	    '--max-errors=5000 --json' '--ignore=illegal-char --all --json' \
	    '--all --excerpt=always'; do
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $o "$1" 2>&1)
		for m in avx512 avx2 sse2 none; do
			run env XMLSNIFF_SIMD=$m "$XMLSNIFF" $o "$1"
			assert_output "$ref"
		done
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $o - < "$1" 2>&1)
		for m in avx2 none; do
			run sh -c 'cat "$1" | XMLSNIFF_SIMD=$2 "$0" '"$o"' -' \
			    "$XMLSNIFF" "$1" "$m"
			assert_output "$ref"
		done
	done
}

# steer SEED N: N pseudo-random bytes among those that steer the UTF-8
# automaton (line ends, leads of every kind, both ends of the narrow
# second-byte ranges, continuation bytes, bytes never used, a control,
# NUL, letters), the same on every awk.
steer() {
	awk -v seed="$1" -v n="$2" 'BEGIN {
		k = split("13 10 13 97 98 32 128 143 144 159 160 190 191 192 " \
		    "193 194 223 224 225 237 239 240 241 244 245 255 1 0", a, " ")
		x = seed
		for (i = 0; i < n; i++) {
			x = (x * 69069 + 1) % 4294967296
			printf "%c", a[int(x / 65536) % k + 1]
		}
	}'
}

@test "dense UTF-8: steered noise across stretches and read boundaries (700 KB)" {
	huge "hundreds of kilobytes under every path, file and pipe"
	local f=$BATS_TEST_TMPDIR/s.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  steer 5 700000; printf '</a> <?xml version="1.0"?>'; } > "$f"
	dense_same "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":43,"line":2,"column":5,"count":429703,'
	assert_output --partial '"code":"illegal-char","offset":56,"line":3,"column":3,"count":49990,'
	assert_output --partial '"code":"decl-not-at-start","offset":700047,"line":69560,"column":6,'
}

@test "dense UTF-8: each reason at every offset of a 256-byte stretch, among bad bytes" {
	local f=$BATS_TEST_TMPDIR/o.xml
	# A pad of 0 to 299 bytes of FF and letters, then the reason: every
	# reason falls at every offset of a stretch and of its quarters.
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>\377\001'
	  awk 'BEGIN {
		k = split("300,200 340,200,200 355,240,200 364,220,200,200 " \
		    "341,200 200 377 357,277,276 1 15,12 15,377,12 12 " \
		    "15,341,12 360,220,200,15 302", r, " ")
		for (j = 1; j <= k; j++)
			for (pad = 0; pad < 300; pad++) {
				for (i = 0; i < pad; i++)
					printf "%c", i % 3 ? 255 : 97
				m = split(r[j], b, ",")
				for (i = 1; i <= m; i++)
					printf "%c", oct(b[i])
				printf "\303\251"
			}
	  }
	  function oct(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 8 + substr(s, i, 1)
		return v
	  }'
	  printf '</a> <?xml version="1.0"?>'; } > "$f"
	dense_same "$f"
	run "$XMLSNIFF" --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":42,"line":2,"column":4,"count":452701,'
	assert_output --partial '"code":"illegal-char","offset":43,"line":2,"column":5,"count":601,'
	assert_output --partial '"code":"decl-not-at-start","offset":691999,"line":1502,"column":45457,'
}

@test "dense UTF-8: random bytes, declared and not, file and pipe" {
	local f=$BATS_TEST_TMPDIR/r.xml g=$BATS_TEST_TMPDIR/u.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  noise() { awk -v seed="$1" -v n="$2" 'BEGIN { x = seed
		for (i = 0; i < n; i++) { x = (x * 69069 + 1) % 4294967296
		printf "%c", int(x / 65536) % 256 } }'; }
	  noise 3 400000; } > "$f"
	tail -c 400000 "$f" > "$g"
	dense_same "$f"
	dense_same "$g"
}

# sb_text: windows-1252 text dense with the bytes it leaves undefined (81
# 8D 8F 90 9D), in runs of every length from 1 to 33 at every offset of a
# word, after a CR, before an LF, between CR and LF, among letters, the
# euro sign (80) and a control (01).
sb_text() {
	local len b
	for b in '\201' '\215' '\217' '\220' '\235'; do
		for len in 1 2 3 7 8 9 15 16 17 31 32 33; do
			printf 'ab\r'
			head -c "$len" /dev/zero | tr '\0' "$b"
			printf '\n\351'
			head -c "$len" /dev/zero | tr '\0' "$b"
			printf '\r'
			printf '\201\n\200a\201b\215'
		done
	done
}

@test "dense windows-1252: runs of undefined bytes of every length, CR and LF around them" {
	local f=$BATS_TEST_TMPDIR/w.xml
	{ printf '<?xml version="1.0" encoding="windows-1252"?>\n<a>'
	  sb_text; printf '\001'; sb_text; printf '</a>\n'; } > "$f"
	dense_same "$f"
	xs --json "$f"
	assert_success
	assert_output --partial '"code":"illegal-sequence","offset":52,"line":3,"column":1,"count":3840'
	assert_output --partial '"code":"illegal-char","offset":2569,"line":122,"column":7,"count":1'
	xs "$f"
	assert_success
	assert_output "$f: windows-1252 (declaration), declared \"windows-1252\", 2 errors"
	assert_equal "${stderr_lines[0]}" "$f:3:1: error: bytes 81 are not valid in windows-1252; the entity is not in this encoding: declare the encoding it is in, or re-encode it (3840 times) [illegal-sequence]"
}

@test "dense windows-1252: undefined bytes while the raw-UTF-8 hint still follows the text, and in XML 1.1" {
	local f=$BATS_TEST_TMPDIR/h.xml g=$BATS_TEST_TMPDIR/h11.xml
	# C3 81 is UTF-8 (U+00C1): the hint skips the 81 after it.
	{ printf '<?xml version="1.0" encoding="windows-1252"?>\n<a>\303\201\201'
	  sb_text; printf '</a>\n'; } > "$f"
	{ printf '<?xml version="1.1" encoding="windows-1252"?>\n<a>'
	  sb_text; printf '\205\r\205</a>\n'; } > "$g"
	dense_same "$f"
	dense_same "$g"
}

@test "dense windows-1252: undefined bytes across the read boundary (1 MB), file and pipe" {
	huge "a megabyte under every path, file and pipe"
	local f=$BATS_TEST_TMPDIR/b.xml
	{ printf '<?xml version="1.0" encoding="windows-1252"?>\n<a>'
	  head -c 327000 /dev/zero | tr '\0' 'x'
	  head -c 700000 /dev/zero | tr '\0' '\201'
	  printf '\r'
	  awk 'BEGIN { for (i = 0; i < 20000; i++) printf "a\201\215\220\n" }'
	  printf '</a>'; } > "$f"
	dense_same "$f"
	xs --json "$f"
	assert_output --partial '"code":"illegal-sequence","offset":327049,"line":2,"column":327004,"count":760000,'
}

@test "guess: UTF-16 with unpaired surrogates still named as the one candidate that reads it" {
	local f=$BATS_TEST_TMPDIR/s16.xml i
	{ printf '\377\376'
	  printf '<?xml version="1.0" encoding="UTF-16"?><r>' | iconv -f UTF-8 -t UTF-16LE
	  for i in $(seq 1 40); do printf '\000\330a\000'; done
	  printf '</r>' | iconv -f UTF-8 -t UTF-16LE; } > "$f"
	# The guess of UTF-16 rests on the C library's decoder: musl's gives
	# none for these bytes, with or without the bad units.
	tail -c +3 "$f" > "$f.nb"
	"$XMLSNIFF" --encoding=UTF-16BE "$f.nb" 2>&1 |
	    grep -q 'note: it decodes cleanly as UTF-16BE' ||
	    skip "no UTF-16BE guess with this system's iconv"
	xs "$f"
	assert_success
	assert_output "$f: UTF-16LE (BOM), declared \"UTF-16\", 1 error"
	assert_equal "${stderr_lines[0]}" "$f:1:43: error: bytes 00 D8 are not valid in UTF-16LE (a high surrogate U+D800 not followed by a low one); the entity is not in this encoding: declare the encoding it is in, or re-encode it (40 times) [illegal-sequence]"
	assert_equal "${stderr_lines[1]%%: \"*}" "$f: note: it decodes cleanly as UTF-16BE"
	assert_equal "${#stderr_lines[@]}" 2
}

@test "dense UTF-8: a line end at every offset of a stretch, then the first non-Char a stretch later" {
	# Once illegal sequences are only counted, the walk carries the
	# position: the non-Char after it is located from where it left the
	# line and column, whichever walk of a stretch saw the line end.
	local d=$BATS_TEST_TMPDIR/le le pad ref
	mkdir "$d"
	for le in 12 15 15,12 15,377,12 15,341,12; do
		awk -v le="$le" -v d="$d" 'BEGIN {
			n = split(le, b, ",")
			for (pad = 0; pad < 260; pad++) {
				f = sprintf("%s/%s-%03d.xml", d, le, pad)
				printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\377" > f
				for (i = 0; i < pad; i++)
					printf "%c", i % 3 ? 255 : 97 > f
				for (i = 1; i <= n; i++)
					printf "%c", oct(b[i]) > f
				for (i = 0; i < 300; i++)
					printf "%c", i % 5 ? 191 : 98 > f
				printf "\001</a>" > f
				close(f)
			}
		}
		function oct(s,   v, i) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 8 + substr(s, i, 1)
			return v
		}'
	done
	for f in "$d"/*.xml; do
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" --json "$f")
		run env XMLSNIFF_SIMD=avx2 "$XMLSNIFF" --json "$f"
		assert_output "$ref"
	done
	run "$XMLSNIFF" --json "$d/15,377,12-100.xml"
	assert_output --partial '"code":"illegal-char","offset":446,"line":3,"column":302,"count":1,'
}

# wide_text: UTF-8 text dense with what UTF-16 and UTF-32 cannot hold
# once converted by wide_bad (U+D800 and U+DC00 alone, in UTF-32 also
# values above U+10FFFF): X, Y and Z stand for them, among letters, CR and
# LF, a CR with a bad unit then LF, and a control (U+0001) late.
wide_text() {
	local i
	for i in $(seq 1 400); do
		printf 'aX\rY\nZ\303\251XX\r\nYZa\rX\nbcdefgh%d\n' "$i"
	done
	printf 'XYZ\001XYZ'
	for i in $(seq 1 50); do printf 'aXbYcZ\r\n'; done
}

# wide_bad FORM: stdin (UTF-8 with X, Y, Z) in FORM (UTF-16LE, UTF-16BE,
# UTF-32LE, UTF-32BE) with X, Y and Z replaced by bad units.
wide_bad() {
	local x y z
	case $1 in
	UTF-16LE) x='\000\330'; y='\000\334'; z='\377\333' ;;
	UTF-16BE) x='\330\000'; y='\334\000'; z='\333\377' ;;
	UTF-32LE) x='\000\330\000\000'; y='\000\000\021\000'; z='\377\377\377\377' ;;
	UTF-32BE) x='\000\000\330\000'; y='\000\021\000\000'; z='\377\377\377\377' ;;
	esac
	iconv -f UTF-8 -t "$1" | od -An -v -tx1 | tr -d '\n' | awk -v form="$1" \
	    -v x="$(printf "$x" | od -An -tx1 | tr -d ' \n')" \
	    -v y="$(printf "$y" | od -An -tx1 | tr -d ' \n')" \
	    -v z="$(printf "$z" | od -An -tx1 | tr -d ' \n')" '
	{ s = s $0 }
	END {
		gsub(/ /, "", s)
		u = form ~ /16/ ? 4 : 8
		for (i = 1; i <= length(s); i += u) {
			h = substr(s, i, u)
			c = form ~ /LE/ ? substr(h, 1, 2) : substr(h, u - 1, 2)
			if (c == "58") h = x
			else if (c == "59") h = y
			else if (c == "5a") h = z
			for (j = 1; j < length(h); j += 2)
				printf "%c", hex(substr(h, j, 2))
		}
	}
	function hex(t,   v, k) {
		v = 0
		for (k = 1; k <= 2; k++)
			v = v * 16 + index("0123456789abcdef", substr(t, k, 1)) - 1
		return v
	}'
}

@test "dense UTF-16 and UTF-32: unpaired surrogates and values above U+10FFFF among text, every form" {
	local form f
	for form in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		f=$BATS_TEST_TMPDIR/$form.xml
		{ printf '<?xml version="1.0" encoding="%s"?>\n<a>' "$form"; wide_text
		  printf '</a>\n'; } | wide_bad "$form" > "$f"
		dense_same "$f"
		f=$BATS_TEST_TMPDIR/$form-11.xml
		{ printf '<?xml version="1.1" encoding="%s"?>\n<a>' "$form"; wide_text
		  printf '\302\205\342\200\250</a>\n'; } | wide_bad "$form" > "$f"
		dense_same "$f"
	done
	xs --json "$BATS_TEST_TMPDIR/UTF-16LE.xml"
	assert_output --partial '"code":"illegal-sequence","offset":92,"line":2,"column":5,"count":3352,'
	assert_output --partial '"code":"illegal-char","offset":22280,"line":1602,"column":3,"count":1,'
	xs --json "$BATS_TEST_TMPDIR/UTF-32BE.xml"
	assert_output --partial '"code":"illegal-sequence","offset":184,"line":2,"column":5,"count":3356,'
	assert_output --partial '"code":"illegal-char","offset":44560,"line":1602,"column":4,"count":1,'
}

@test "dense UTF-8: NUL runs of every length from 1 to 40 between bad bytes" {
	local f=$BATS_TEST_TMPDIR/z.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  awk 'BEGIN { for (len = 1; len <= 40; len++) for (o = 0; o < 9; o++) {
		for (i = 0; i < o; i++) printf "%c", 255
		for (i = 0; i < len; i++) printf "%c", 0
		printf "\r\n"
	  } }'
	  printf '</a> <?xml version="1.0"?>'; } > "$f"
	dense_same "$f"
	xs --json "$f"
	assert_output --partial '"code":"illegal-char","offset":42,"line":2,"column":4,"count":7380,'
}

# edge8 FIRST: UTF-8 dense with bad bytes, each shape of a sequence and
# of a line end after a pad of 0 to 70 bytes, so that each falls at every
# offset of the 32-byte block of the vector walk and of the three bytes
# it looks past it; with FIRST = 1 the first non-Char (U+0001) comes only
# after the shapes that hold none, then every shape again with them; with
# 2 only those that hold none.
edge8() {
	awk -v first="$1" 'BEGIN {
		a = "340,240,200 340,200 355,240,200 355,237,277 360,220,200,200 " \
		    "360,220,200,101 360,217 364,217,277,277 364,220 302 337,277 " \
		    "341,200 300,200 301 365 370 200,200 15,12 12 15 15,377,12 " \
		    "15,341,200,12 15,303,251,12 15,200,200,200,12 15,360,220,12 " \
		    "15,355,240,200,12 15,101,12"
		b = a " 357,277,276 357,277,277 357,277,275 1 37 15,1,12 0"
		if (first == 2) {
			shapes(a)
			exit
		}
		shapes(first ? a : b)
		if (first)
			printf "%c", 1
		shapes(b)
	}
	function shapes(list,   k, r, j, pad, i, m, c) {
		k = split(list, r, " ")
		for (j = 1; j <= k; j++)
			for (pad = 0; pad <= 70; pad++) {
				for (i = 0; i < pad; i++)
					printf "%c", i % 4 == 3 ? 225 : 255
				m = split(r[j], c, ",")
				for (i = 1; i <= m; i++)
					printf "%c", oct(c[i])
				printf "\303\251"
			}
	}
	function oct(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 8 + substr(s, i, 1)
		return v
	}'
}

@test "dense UTF-8: every shape at every offset of a 32-byte block, with the first non-Char after them or among them" {
	local f=$BATS_TEST_TMPDIR/e1.xml g=$BATS_TEST_TMPDIR/e0.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'; edge8 1
	  printf '</a> <?xml version="1.0"?>'; } > "$f"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'; edge8 0
	  printf '</a> <?xml version="1.0"?>'; } > "$g"
	dense_same "$f"
	dense_same "$g"
	xs --json "$f"
	[ "$status" -eq 0 ]
	assert_output --partial '"code":"illegal-sequence","offset":47,"line":2,"column":6,"count":155459,'
	assert_output --partial '"code":"illegal-char","offset":76012,"line":854,"column":2,"count":427,'
	assert_output --partial '"code":"decl-not-at-start","offset":171442,"line":1848,"column":2634,'
	xs --strict -q "$g"
	[ "$status" -eq 1 ]
	assert_output ''
	stderr_has 'e0.xml:2:6: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it (172854 times) [illegal-sequence]'
	stderr_has 'e0.xml:854:2: error: U+FFFE is not an XML Char (XML 1.0 [2]); remove it (852 times) [illegal-char]'
	stderr_has 'e0.xml:1990:2634: error: an XML declaration after the start'
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 3 ]
}

# edgew FORM FIRST: the same for UTF-16 and UTF-32 (FORM): unpaired
# surrogates (and in UTF-32 values above U+10FFFF) around pairs, CR and
# LF, after a pad of 0 to 40 units, which puts each shape at every unit
# of the 32-byte block; FIRST as for edge8.
edgew() {
	awk -v form="$1" -v first="$2" 'BEGIN {
		w = form ~ /16/ ? 2 : 4
		be = form ~ /BE/
		a = "55296,56320 56319 56320 55296,55296,56320 13,10 10 13 " \
		    "13,55296,10 13,56320,56320,10 13,55296,56320,10 " \
		    "13,97,10 56319,13,56320,10"
		if (w == 4)
			a = a " 1114112 13,1114112,10 4294967295 57343"
		b = a " 65534 65535 1 13,1,10 31"
		if (first == 2) {
			shapes(a)
			exit
		}
		shapes(first ? a : b)
		if (first)
			u(1)
		shapes(b)
		u(60); u(47); u(97); u(62)
	}
	function shapes(list,   k, r, j, pad, i, m, c) {
		k = split(list, r, " ")
		for (j = 1; j <= k; j++)
			for (pad = 0; pad <= 40; pad++) {
				for (i = 0; i < pad; i++)
					u(i % 3 == 2 ? 56320 : 55296)
				m = split(r[j], c, ",")
				for (i = 1; i <= m; i++)
					u(c[i] + 0)
				u(233)
			}
	}
	function u(v,   i, by) {
		for (i = 0; i < w; i++) {
			by[i] = v % 256
			v = int(v / 256)
		}
		for (i = 0; i < w; i++)
			printf "%c", by[be ? w - 1 - i : i]
	}'
}

@test "dense UTF-16 and UTF-32: every shape at every unit of a 32-byte block, every form" {
	local form f first
	for form in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		for first in 1 0; do
			f=$BATS_TEST_TMPDIR/$form-$first.xml
			{ printf '<?xml version="1.0" encoding="%s"?>\n<a>' "$form" |
			    iconv -f UTF-8 -t "$form"; edgew "$form" "$first"; } > "$f"
			dense_same "$f"
		done
	done
	xs --json "$BATS_TEST_TMPDIR/UTF-16LE-1.xml"
	[ "$status" -eq 0 ]
	assert_output --partial '"code":"illegal-sequence","offset":96,"line":2,"column":6,"count":9248,'
	assert_output --partial '"code":"illegal-char","offset":23132,"line":412,"column":3,"count":206,'
	xs --json "$BATS_TEST_TMPDIR/UTF-32BE-1.xml"
	[ "$status" -eq 0 ]
	assert_output --partial '"code":"illegal-sequence","offset":180,"line":2,"column":4,"count":31816,'
	assert_output --partial '"code":"illegal-char","offset":61024,"line":412,"column":1807,"count":206,'
}

@test "dense: shapes across the 320 KiB read boundaries, the first non-Char near the end, file and pipe" {
	huge "a megabyte under every path, file and pipe"
	local f=$BATS_TEST_TMPDIR/b8.xml g=$BATS_TEST_TMPDIR/b16.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  for i in $(seq 1 14); do edge8 2; done | head -c 1000000
	  printf '\001\357\277\277</a> <?xml version="1.0"?>'; } > "$f"
	{ printf '<?xml version="1.0" encoding="UTF-16LE"?>\n<a>' |
	    iconv -f UTF-8 -t UTF-16LE
	  for i in $(seq 1 45); do edgew UTF-16LE 2; done |
	    head -c 1000000; printf '\001\000</a>' | iconv -f UTF-8 -t UTF-16LE
	} > "$g"
	dense_same "$f"
	dense_same "$g"
	xs --json "$f"
	[ "$status" -eq 0 ]
	assert_output --partial '"code":"illegal-sequence","offset":47,"line":2,"column":6,"count":908566,'
	assert_output --partial '"code":"illegal-char","offset":1000042,"line":11078,"column":11660,"count":2,'
	xs --json "$g"
	[ "$status" -eq 0 ]
	assert_output --partial '"code":"illegal-sequence","offset":96,"line":2,"column":6,"count":168128,'
	assert_output --partial '"code":"illegal-char","offset":1000090,"line":17671,"column":8,"count":2,'
}

@test "dense: errors with 1 to 6 clean blocks between, line ends in the clean text, then a non-Char: every path as the reference" {
	local f=$BATS_TEST_TMPDIR/calm.xml k j u8 u16
	huge "every path, file and pipe"
	# The walk leaves the block kernel only after clean blocks in a row
	# (DENSE_CALM): gaps of every length around that count, at every
	# offset of a block, with CR, LF and CR LF in the gaps.
	u8=$(for k in 1 2 3 4 5 6; do
		for j in 0 7 13 31; do
			printf '\351'
			head -c $((32 * k + j)) /dev/zero | tr '\0' x
			printf 'a\r\nb\rc\nd'
		done
	done)
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  for j in 1 2 3; do printf '%s' "$u8"; done
	  printf '\001</a>'; } > "$f"
	dense_same "$f"
	# UTF-16LE: lone surrogates with the same gaps
	u16=$(for k in 1 2 3 4 5 6; do
		for j in 0 7 13; do
			printf '\\x00\\xdc'
			head -c $((16 * k + j)) /dev/zero | tr '\0' x |
			    iconv -f UTF-8 -t UTF-16LE | od -An -v -tx1 |
			    tr -d ' \n' | sed 's/\(..\)/\\x\1/g'
			printf 'a\\x00\\r\\x00\\n\\x00'
		done
	done)
	{ printf '\377\376'; printf "$u16$u16"; printf '\001\000'; } > "$f.16"
	dense_same "$f.16"
}

@test "mojibake after a sequence cut short: a file gives the column a pipe gives" {
	# E6 (and E6 B8) before "Ã©" is one bad character, a column of its
	# own; a file is read again for the position of the first hit, and
	# that reading must count the cut sequence as the first did.
	local f=$BATS_TEST_TMPDIR/cut.xml w
	for w in '\346' '\346\270'; do
		put "$f" "<r>$w\303\203\302\251\303\203\302\251</r>\n"
		xs "$f"
		assert_success
		assert_output "$f: UTF-8 (default), no declaration, 1 error, 1 warning"
		assert_equal "${stderr_lines[1]}" "$f:1:5: warning: \"Ã©\" is \"é\" encoded twice (its UTF-8 read as windows-1252 and encoded again) (2 times) [mojibake]"
		run --separate-stderr sh -c '"$0" - < "$1"' "$XMLSNIFF" "$f"
		assert_success
		assert_equal "${stderr_lines[1]}" "-:1:5: warning: \"Ã©\" is \"é\" encoded twice (its UTF-8 read as windows-1252 and encoded again) (2 times) [mojibake]"
	done
}

#!/usr/bin/env bats
# Error-dense input counted in bulk: the UTF-8 walk of the automaton four
# ways at once over a stretch, undefined bytes of a single-byte encoding a
# run at a time and the text among them counted in one loop, and the guess
# that reads such input again.  Every path (XMLSNIFF_SIMD), from a file and
# from a pipe, with and without --all, a cap, JSON, must give exactly the
# reference's counts, first positions and lists.
#
# The sweeps are in the unit driver (tests/kern_dense.c, kern_wide.c,
# driven by kern_engine.c), which builds each family in C and runs it at
# every kernel level, read as a file, as a pipe and in splits of 4093 and
# 61 bytes, without --all and with lists capped at 3 and 5000, against the
# reference, and asserts the values this file asserted:
#   steered noise across stretches and read buffers  dense_steer
#   each reason at every offset of a 256-byte stretch  dense_reasons
#   random bytes, declared and not  dense_random
#   a line end at every offset, then a non-Char  dense_line_ends
#   NUL runs of every length from 1 to 40  dense_nul
#   every shape at every offset of a 32-byte block, and across the 320
#     KiB read buffers (UTF-8)  dense_edge8
#   errors with 1 to 6 clean blocks between (UTF-8, UTF-16LE)  dense_calm
#   windows-1252 runs of undefined bytes, after the raw-UTF-8 hint, in
#     XML 1.1 and across the read buffers  kern_dense_sb
#   UTF-16 and UTF-32 unpaired surrogates and values above U+10FFFF in
#     every form, every shape at every unit of a block, and across the
#     read buffers  kern_dense_wide
# What stays here runs the binary end to end: a few inputs at two levels
# besides the reference, from a file and a pipe.
load helper

# dense_same FILE: the answers of the default path and of the portable one
# (none) as those of the reference, without --all and with it, from the
# file; and the default path's from a pipe.
dense_same() {
	local ref o m
	for o in --json '--all --json'; do
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $o "$1" 2>&1)
		for m in '' none; do
			run env XMLSNIFF_SIMD=$m "$XMLSNIFF" $o "$1"
			assert_output "$ref"
		done
		# a pipe both ways ("- < FILE" is read as the file is)
		ref=$(cat "$1" | XMLSNIFF_SIMD=ref "$XMLSNIFF" $o - 2>&1)
		run sh -c 'cat "$1" | "$0" '"$o"' -' "$XMLSNIFF" "$1"
		assert_output "$ref"
	done
}

@test "dense UTF-8: each reason after pads of 0 to 39 bad bytes, file and pipe, two levels" {
	local f=$BATS_TEST_TMPDIR/o.xml o ref
	# A pad of 0 to 39 bytes of FF and letters, then the reason (every
	# offset of a 256-byte stretch: kern_dense.c).
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>\377\001'
	  awk 'BEGIN {
		k = split("300,200 340,200,200 355,240,200 364,220,200,200 " \
		    "341,200 200 377 357,277,276 1 15,12 15,377,12 12 " \
		    "15,341,12 360,220,200,15 302", r, " ")
		for (j = 1; j <= k; j++)
			for (pad = 0; pad < 40; pad++) {
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
	# a cap, --ignore and excerpts, at the default level
	for o in '--max-errors=3 --all --excerpt=always' \
	    '--ignore=illegal-char --all --json'; do
		run env XMLSNIFF_SIMD=ref "$XMLSNIFF" $o "$f"
		ref=$output
		run "$XMLSNIFF" $o "$f"
		assert_output "$ref"
	done
}

# sb_text: windows-1252 text dense with the bytes it leaves undefined (81
# 8D 8F 90 9D), in runs of every length from 1 to 33 at every offset of a
# word, after a CR, before an LF, between CR and LF, among letters, the
# euro sign (80) and a control (01).
sb_text() {
	local len b run
	for b in '\201' '\215' '\217' '\220' '\235'; do
		for len in 1 2 3 7 8 9 15 16 17 31 32 33; do
			# len bytes b: len blanks, each made the escape
			# (no head | tr: 480 processes for the two texts)
			printf -v run '%*s' "$len" ''
			run=${run// /$b}
			printf 'ab\r'"$run"'\n\351'"$run"'\r\201\n\200a\201b\215'
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

@test "guess: UTF-16 with unpaired surrogates: the other byte order, which reads no markup, is not offered" {
	local f=$BATS_TEST_TMPDIR/s16.xml i
	{ printf '\377\376'
	  printf '<?xml version="1.0" encoding="UTF-16"?><r>' | iconv -f UTF-8 -t UTF-16LE
	  printf '\000\330a\000%.0s' {1..40}
	  printf '</r>' | iconv -f UTF-8 -t UTF-16LE; } > "$f"
	# Read as UTF-16BE every unit is a Char (3C 00 is U+3C00), but not
	# one of them is the ASCII markup every XML entity begins with: a
	# clean decode is no evidence, and the guess says nothing rather
	# than send the user to the wrong byte order.
	xs "$f"
	assert_success
	assert_output "$f: UTF-16LE (BOM), declared \"UTF-16\", 1 error"
	assert_equal "${stderr_lines[0]}" "$f:1:43: error: bytes 00 D8 are not valid in UTF-16LE (a high surrogate U+D800 not followed by a low one); the entity is not in this encoding: declare the encoding it is in, or re-encode it (40 times) [illegal-sequence]"
	assert_equal "${#stderr_lines[@]}" 1
	xs --json "$f"
	assert_output --partial '"guess":null}'
}

# wide_text: UTF-8 text dense with what UTF-16 and UTF-32 cannot hold
# once converted by wide_bad (U+D800 and U+DC00 alone, in UTF-32 also
# values above U+10FFFF): X, Y and Z stand for them, among letters, CR and
# LF, a CR with a bad unit then LF, and a control (U+0001) late.
wide_text() {
	local i
	rep 400 'aX\rY\nZ\303\251XX\r\nYZa\rX\nbcdefgh%d\n'
	printf 'XYZ\001XYZ'
	rep 50 'aXbYcZ\r\n'
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

@test "dense UTF-16 and UTF-32: unpaired surrogates and values above U+10FFFF among text, two forms" {
	local form f
	for form in UTF-16LE UTF-32BE; do
		f=$BATS_TEST_TMPDIR/$form.xml
		{ printf '<?xml version="1.0" encoding="%s"?>\n<a>' "$form"; wide_text
		  printf '</a>\n'; } | wide_bad "$form" > "$f"
		dense_same "$f"
	done
	xs --json "$BATS_TEST_TMPDIR/UTF-16LE.xml"
	assert_output --partial '"code":"illegal-sequence","offset":92,"line":2,"column":5,"count":3352,'
	assert_output --partial '"code":"illegal-char","offset":22280,"line":1602,"column":3,"count":1,'
	xs --json "$BATS_TEST_TMPDIR/UTF-32BE.xml"
	assert_output --partial '"code":"illegal-sequence","offset":184,"line":2,"column":5,"count":3356,'
	assert_output --partial '"code":"illegal-char","offset":44560,"line":1602,"column":4,"count":1,'
}

# edge8: UTF-8 dense with bad bytes, each shape of a sequence and of a
# line end that holds no non-Char after a pad of 0 to 70 bytes, so that
# each falls at every offset of the 32-byte block of the vector walk and
# of the three bytes it looks past it.
edge8() {
	awk 'BEGIN {
		shapes("340,240,200 340,200 355,240,200 355,237,277 " \
		    "360,220,200,200 360,220,200,101 360,217 364,217,277,277 " \
		    "364,220 302 337,277 341,200 300,200 301 365 370 200,200 " \
		    "15,12 12 15 15,377,12 15,341,200,12 15,303,251,12 " \
		    "15,200,200,200,12 15,360,220,12 15,355,240,200,12 15,101,12")
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

@test "dense: shapes across the 320 KiB read boundaries, the first non-Char near the end, file and pipe" {
	huge "a megabyte at three levels, file and pipe"
	local f=$BATS_TEST_TMPDIR/b8.xml
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  for i in $(seq 1 14); do edge8; done | head -c 1000000
	  printf '\001\357\277\277</a> <?xml version="1.0"?>'; } > "$f"
	dense_same "$f"
	xs --json "$f"
	[ "$status" -eq 0 ]
	assert_output --partial '"code":"illegal-sequence","offset":47,"line":2,"column":6,"count":908566,'
	assert_output --partial '"code":"illegal-char","offset":1000042,"line":11078,"column":11660,"count":2,'
	xs --strict -q "$f"
	[ "$status" -eq 1 ]
	assert_output ''
	stderr_has 'b8.xml:2:6: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it (908566 times) [illegal-sequence]'
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
		run_apart sh -c '"$0" - < "$1"' "$XMLSNIFF" "$f"
		assert_success
		assert_equal "${stderr_lines[1]}" "-:1:5: warning: \"Ã©\" is \"é\" encoded twice (its UTF-8 read as windows-1252 and encoded again) (2 times) [mojibake]"
	done
}

#!/usr/bin/env bats
# Reading ahead (input.c): a regular file of more than 1.25 MiB that is
# only analysed is read by a second thread while the first validates, in
# buffers of 320 KiB that change hands.  XMLSNIFF_SIMD=ref reads it alone,
# a buffer at a time; every answer must be the same both ways, whatever
# falls on the edge of a buffer.

load helper

READ=327680	# IN_SIZE: the bytes of one read

# text N: N lines of UTF-8 text with two- to four-byte characters, some
# lines ended by CR LF.
text() {
	awk -v n="$1" 'BEGIN {
		split("caf\303\251 na\303\257ve \344\270\255\346\226\207 " \
		    "\360\237\230\200 plain words \320\226\320\266 x", w, " ")
		for (i = 1; i <= n; i++) {
			s = "<p n=\"" i "\">"
			for (k = 0; k < 12; k++)
				s = s w[(i * 7 + k * 3) % 9 + 1] " "
			printf "%s</p>%s\n", s, (i % 5 == 0 ? "\r" : "")
		}
	}'
}

# same FILE [ARGS...]: the answers with reading ahead and without agree,
# in text (with excerpts) and in JSON with every occurrence listed.
same() {
	local f=$1 ref
	shift
	for a in "" "--all --max-errors=100000 --json" "--json"; do
		ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" $a "$@" "$f" 2>&1; echo "rc=$?")
		run sh -c '"$0" '"$a"' "$@" 2>&1; echo "rc=$?"' "$XMLSNIFF" \
		    "$@" "$f"
		assert_output "$ref"
		# and the fast kernels without the thread: a file under the
		# limit is read alone; these are the same kernels
		run env XMLSNIFF_SIMD=none sh -c '"$0" '"$a"' "$@" 2>&1; \
		    echo "rc=$?"' "$XMLSNIFF" "$@" "$f"
		assert_output "$ref"
	done
}

# at FILE OFFSET BYTES: BYTES (printf escapes) written over FILE at OFFSET.
at() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "read ahead: errors at every edge of the 320 KiB buffers of a 3 MB file" {
	local f=$BATS_TEST_TMPDIR/big.xml k e
	huge "3 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  text 40000; printf '</r>\n'; } > "$f"
	[ "$(wc -c < "$f")" -gt 3000000 ]
	# an illegal byte, a control, a stray continuation byte and a
	# U+FFFE just before, on and after each edge of a read
	for k in 1 2 3 4 5 6 7 8 9; do
		e=$((k * READ))
		at "$f" $((e - 2)) '\377'
		at "$f" $((e - 1)) '\001'
		at "$f" "$e" '\200'
		at "$f" $((e + 1)) '\357\277\276'
	done
	same "$f"
	same "$f" --strict
}

@test "read ahead: a character cut by the edge of each buffer, in every length" {
	local f=$BATS_TEST_TMPDIR/cut.xml k c
	huge "2 MB inputs"
	for c in '\303\251' '\344\270\255' '\360\237\230\200'; do
		printf '<r>' > "$f"
		head -c 2000000 /dev/zero | tr '\0' a >> "$f"
		printf '</r>\n' >> "$f"
		for k in 1 2 3 4 5; do
			at "$f" $((k * READ - k % 3)) "$c"
		done
		same "$f"
	done
}

@test "read ahead: files that end on, before and after the edge of a buffer" {
	local f=$BATS_TEST_TMPDIR/end.xml n
	huge "2 MB inputs"
	for n in $((5 * READ)) $((5 * READ - 1)) $((5 * READ + 1)) \
	    $((6 * READ - 4096)); do
		printf '<r>' > "$f"
		head -c $((n - 9)) /dev/zero | tr "\0" b >> "$f"
		printf '</r>\n\377' >> "$f"
		[ "$(wc -c < "$f")" = "$n" ]
		same "$f"
	done
}

@test "read ahead: a late declaration and mojibake after the first buffers" {
	local f=$BATS_TEST_TMPDIR/late.xml
	huge "2 MB inputs"
	{ printf '<r>\n'; text 20000
	  printf '<?xml version="1.0"?>\n\303\203\302\251t\303\203\302\251\n'
	  text 2000; printf '</r>\n'; } > "$f"
	[ "$(wc -c < "$f")" -gt 1600000 ]
	same "$f"
}

@test "read ahead: the real encoding of a big file is guessed from the whole of it" {
	local f=$BATS_TEST_TMPDIR/l1.xml
	huge "2 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  text 30000 | sed 's/[^ -~]//g; s/caf/caf\xe9 cr\xe8me na\xefve \xe0 la fa\xe7on/g'
	  printf '</r>\n'; } > "$f"
	[ "$(wc -c < "$f")" -gt 1400000 ]
	same "$f"
	run sh -c '"$0" "$1" 2>&1' "$XMLSNIFF" "$f"
	assert_output --partial "note: it decodes cleanly as windows-1252: \"<p n=\"3\">  café crème naïve"
}

@test "read ahead: -r over big and small files, one after another" {
	local d=$BATS_TEST_TMPDIR/tree ref
	huge "2 MB inputs"
	mkdir "$d"
	{ printf '<r>'; text 20000; printf '\377</r>\n'; } > "$d/a.xml"
	printf '<r>\377</r>\n' > "$d/b.xml"
	{ printf '<?xml version="1.0" encoding="UTF-8"?><r>'; text 30000
	  printf '\001</r>\n'; } > "$d/c.xml"
	cp "$d/b.xml" "$d/d.xml"
	ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" -j1 --strict --json -r "$d" 2>&1; true)
	run "$XMLSNIFF" -j1 --strict --json -r "$d"
	assert_failure 1
	assert_output "$ref"
}

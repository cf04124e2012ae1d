#!/usr/bin/env bats
# The conversions of --transcode-to at their edges: UTF-8 to UTF-16 with
# four-byte characters (surrogate pairs) at every offset of a vector
# block and across the 320 KiB read boundary, and UTF-16 back to UTF-8
# with pairs, CR and CR LF at every offset of a 64-byte step and of a
# read, and the columns the UTF-16 validation counts past pairs; UTF-8 into a single-byte
# target straight from its table; the lexical context that says where a
# character reference may stand, through long tags, values and comments;
# and the mojibake scan of UTF-16 and UTF-32 past the Latin characters it
# passes over.  Every kernel level (XMLSNIFF_SIMD) must write the same
# bytes, and they must be the target's declaration and what iconv(1)
# makes of the rest.
#
# The sweeps over every offset, run length, read boundary and level run in
# process in the unit driver: tests/kern_xc2.c (the conversions, the
# references, the columns past pairs) and tests/kern_moj.c (the mojibake
# scan of UTF-16 and UTF-32).  What stays here runs the binary on one or
# two inputs of each family, under ref and the fastest level.

load helper

setup() {
	T=$BATS_TEST_TMPDIR
}

# levels SRC ARGS...: xmlsniff ARGS SRC under the fastest kernel level
# exits with the status ($ref) and writes the bytes and diagnostics of
# ref, kept in $T/ref.out and $T/ref.err.
levels() {
	local src=$1 m st
	shift
	ref=0
	XMLSNIFF_SIMD=ref "$XMLSNIFF" "$@" "$src" > "$T/ref.out" \
	    2> "$T/ref.err" || ref=$?
	for m in fast; do
		st=0
		XMLSNIFF_SIMD= "$XMLSNIFF" "$@" "$src" > "$T/$m.out" \
		    2> "$T/$m.err" || st=$?
		[ "$st" = "$ref" ] ||
		    fail "$src $*: exit $st with XMLSNIFF_SIMD=$m, $ref with ref"
		cmp "$T/ref.out" "$T/$m.out" ||
		    fail "$src $*: XMLSNIFF_SIMD=$m writes other bytes than ref"
		cmp "$T/ref.err" "$T/$m.err" ||
		    fail "$src $*: XMLSNIFF_SIMD=$m: other diagnostics than ref"
	done
}

# to_unicode SRC TARGET: SRC (UTF-8 under <?xml version="1.0"
# encoding="UTF-8"?>) into TARGET (UTF-16LE, UTF-16BE, UTF-32LE) under
# every level: no diagnostic (but utf32, ignored), and the declaration naming TARGET, then what
# iconv makes of the rest.
to_unicode() {
	levels "$1" --ignore=utf32 --transcode-to="$2"
	[ "$ref" = 0 ] || fail "$1 -> $2: exit $ref: $(cat "$T/ref.err")"
	[ ! -s "$T/ref.err" ] || fail "$1 -> $2: $(cat "$T/ref.err")"
	{ printf '<?xml version="1.0" encoding="%s"?>' "$2"
	  tail -c +39 "$1"; } | iconv -f UTF-8 -t "$2" > "$T/want"
	cmp "$T/want" "$T/ref.out" ||
	    fail "$1 -> $2: not the declaration and what iconv makes"
}

# head8 FILE: the UTF-8 declaration and a start tag, then standard input
# and the end tag, in FILE.
head8() {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<doc>\n'
	  cat
	  printf '</doc>\n'; } > "$1"
}

# rep N TEXT: TEXT (printf escapes) N times.
rep() {
	[ "$1" -gt 0 ] || return 0
	printf "$2%.0s" $(seq "$1")
}

# u16 SRC ORDER OUT: SRC (UTF-8 under <?xml version="1.0"
# encoding="UTF-8"?>) in UTF-16 of byte order ORDER (LE or BE), after its
# BOM and under a declaration of "UTF-16", in OUT.
u16() {
	{ if [ "$2" = LE ]; then printf '\377\376'; else printf '\376\377'; fi
	  { printf '<?xml version="1.0" encoding="UTF-16"?>'
	    tail -c +39 "$1"; } | iconv -f UTF-8 -t "UTF-16$2"; } > "$3"
}

# to_utf8 SRC ORDER: SRC as u16 makes it, into UTF-8 under every level:
# no diagnostic, and the declaration naming UTF-8, then what iconv makes
# of the rest (which is SRC again).
to_utf8() {
	u16 "$1" "$2" "$T/u16$2.xml"
	levels "$T/u16$2.xml" --transcode-to=UTF-8
	[ "$ref" = 0 ] || fail "$1 ($2) -> UTF-8: exit $ref: $(cat "$T/ref.err")"
	[ ! -s "$T/ref.err" ] || fail "$1 ($2) -> UTF-8: $(cat "$T/ref.err")"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>'
	  tail -c +$((2 + 2 * 39 + 1)) "$T/u16$2.xml" |
	    iconv -f "UTF-16$2" -t UTF-8; } > "$T/want"
	cmp "$T/want" "$T/ref.out" ||
	    fail "$1 ($2) -> UTF-8: not the declaration and what iconv makes"
	cmp "$1" "$T/ref.out" || fail "$1 ($2) -> UTF-8: not the text again"
}

@test "xc: runs of 1 to 9 four-byte characters at every offset of a 16-byte block, after 1-, 2- and 3-byte ones, LF and CR LF" {
	# Line k of each kind: k % 16 bytes before the run, then the run,
	# then ASCII; runs end at the CR of a CR LF, so the last block of a
	# run ends on each byte of a four-byte character.
	awk 'BEGIN {
		split("a|\303\251|\346\227\245", pre, "|")
		split("\360\237\230\200|\364\217\277\277|\360\220\200\200", ast, "|")
		for (kind = 1; kind <= 3; kind++)
			for (k = 0; k < 48; k++) {
				s = "<p>"
				for (m = k % 16; m > 0; m--)
					s = s pre[kind]
				for (m = 1 + k % 9; m > 0; m--)
					s = s ast[1 + (k + m) % 3]
				for (m = 0; m < k % 5; m++)
					s = s "z"
				print s "</p>"
			}
	}' | head8 "$T/lf.xml"
	sed 's/$/\r/' "$T/lf.xml" > "$T/crlf.xml"
	to_unicode "$T/lf.xml" UTF-16LE
	to_unicode "$T/crlf.xml" UTF-32LE
}

@test "xc: four-byte characters after ASCII, the last 16-byte block of the run ending inside one" {
	# After 16 ASCII bytes, 3 more and 5 four-byte characters: the
	# last 16-byte block of the run ends inside one, and the rest is
	# written a character at a time (every count of each, at every
	# level: tests/kern_xc2.c).
	{ printf 'aaaaaaaaaa'
	  rep 3 b
	  rep 5 '\360\237\230\200'; } | head8 "$T/in.xml"
	to_unicode "$T/in.xml" UTF-16LE
	to_unicode "$T/in.xml" UTF-16BE
}

@test "xc: four-byte characters mixed with 1- to 3-byte ones in every order, runs longer than a conversion chunk" {
	# A deterministic pseudo-random text: no two blocks alike.
	awk 'BEGIN {
		n = split("a|\303\251|\337\277|\340\240\200|\346\227\245|" \
		    "\357\277\275|\360\237\230\200|\364\217\277\277|\r\n|\n", c, "|")
		x = 7
		for (i = 0; i < 60000; i++) {
			x = (x * 69069 + 1) % 4294967296
			printf "%s", c[1 + int(x / 65536) % n]
		}
	}' | head8 "$T/mix.xml"
	to_unicode "$T/mix.xml" UTF-16BE
}

@test "xc: the 320 KiB read boundary after the third byte of a four-byte character" {
	huge "a 400 KB file"
	local k
	for k in 3; do
		awk -v k=$k 'BEGIN {
			for (i = 0; i < k; i++)
				printf "a"
			for (i = 0; i < 100000; i++)
				printf (i % 1000 == 999 ? "\r\n" : "\360\237\230\200")
		}' | head8 "$T/big$k.xml"
		to_unicode "$T/big$k.xml" UTF-16LE
	done
}

@test "xc: UTF-8 into ISO-8859-1 and windows-1252 from the table, Latin characters at every offset of a word" {
	awk 'BEGIN {
		for (k = 0; k < 24; k++) {
			s = "<p a=\"\303\251\">"
			for (m = 0; m < k; m++)
				s = s "x"
			print s "\303\251\303\274\302\240y\303\277</p>"
		}
	}' | head8 "$T/l.xml"
	for t in ISO-8859-1 windows-1252; do
		levels "$T/l.xml" --transcode-to="$t"
		assert_equal "$ref" 0
		{ printf '<?xml version="1.0" encoding="%s"?>' "$t"
		  tail -c +39 "$T/l.xml"; } | iconv -f UTF-8 -t "$t" > "$T/want"
		cmp "$T/want" "$T/ref.out" || fail "-> $t: not what iconv makes"
	done
}

@test "xc: a character ISO-8859-1 lacks after a long run it has: a reference, or the failure at its place" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	  awk 'BEGIN { for (i = 0; i < 5000; i++) printf "caf\303\251 x " }'
	  printf '\342\202\254</a>\n'; } > "$T/in.xml"
	{ printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>'
	  awk 'BEGIN { for (i = 0; i < 5000; i++) printf "caf\351 x " }'
	  printf '&#x20AC;</a>\n'; } > "$T/want"
	levels "$T/in.xml" --fallback=ncr --transcode-to=ISO-8859-1
	assert_equal "$ref" 0
	cmp "$T/want" "$T/ref.out" || fail "not the reference"
	run_apart "$XMLSNIFF" --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "$T/in.xml:2:35004: error: U+20AC cannot be written in ISO-8859-1; use --fallback=ncr to write &#x20AC; or choose a target that has it [unrepresentable]"
}

@test "xc: a reference after tags whose values hold \">\" and the other quote" {
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a b="x>y" c='"'"'z"w>'"'"'>\342\202\254</a>\n' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a b="x>y" c='"'"'z"w>'"'"'>&#x20AC;</a>\n' \
	    > "$T/want"
	levels "$T/in.xml" --fallback=ncr --transcode-to=ISO-8859-1
	assert_equal "$ref" 0
	cmp "$T/want" "$T/ref.out" || fail "not the reference"
}

@test "xc: a value and a comment longer than a read, then a character that may or may not be a reference" {
	huge "400 KB files"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a v="'
	  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "x>y<" }'
	  printf '">\342\202\254</a>\n'; } > "$T/val.xml"
	levels "$T/val.xml" --fallback=ncr --transcode-to=ISO-8859-1
	assert_equal "$ref" 0
	tail -c 15 "$T/ref.out" > "$T/tail"
	printf '">&#x20AC;</a>\n' | cmp - "$T/tail" || fail "not the reference"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a><!--'
	  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "x>-y" }'
	  printf ' \342\202\254 --></a>\n'; } > "$T/com.xml"
	levels "$T/com.xml" --fallback=ncr --transcode-to=ISO-8859-1
	assert_equal "$ref" 1
	assert_equal "$(cat "$T/ref.err")" "$T/com.xml:2:400009: error: U+20AC in a comment cannot be written in ISO-8859-1, and XML allows no character reference there; choose a target that has it [unrepresentable]"
}

@test "xc: no reference in a comment, a processing instruction, a CDATA section or a name" {
	local s
	for s in '<!-- \342\202\254 -->|2:9|a comment' \
	    '<?pi \342\202\254?>|2:9|a processing instruction' \
	    '<![CDATA[\342\202\254]]>|2:13|a CDATA section' \
	    '<\346\227\245/>|2:5|a name' \
	    '<a \346\227\245="1"/>|2:7|a name'; do
		IFS='|' read -r text at where <<-EOF
		$s
		EOF
		printf '<?xml version="1.0" encoding="UTF-8"?>\n<d>'"$text"'</d>\n' \
		    > "$T/in.xml"
		run_apart "$XMLSNIFF" --fallback=ncr \
		    --transcode-to=ISO-8859-1 "$T/in.xml"
		assert_failure 1
		assert_output ''
		case $where in
		'a name') c=65E5 ;;
		*) c=20AC ;;
		esac
		assert_equal "$stderr" "$T/in.xml:$at: error: U+$c in $where cannot be written in ISO-8859-1, and XML allows no character reference there; choose a target that has it [unrepresentable]"
	done
}

@test "xc: ISO-8859-1 into windows-1252 byte for byte, tags and values around Latin characters" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<a b="\351>" c='"'"'"\374'"'"'>caf\351 <!-- \340 --> \377</a>\r\n' \
	    > "$T/in.xml"
	levels "$T/in.xml" --transcode-to=windows-1252
	assert_equal "$ref" 0
	{ printf '<?xml version="1.0" encoding="windows-1252"?>'
	  tail -c +44 "$T/in.xml"; } > "$T/want"
	cmp "$T/want" "$T/ref.out" || fail "not the same bytes"
}

# moj FILE ENC BOM DECLARED: the UTF-8 text of $T/m8 in ENC after BOM,
# declared DECLARED, in FILE.
moj() {
	{ printf "$3"; sed "1s/UTF-8/$4/" "$T/m8" | iconv -f UTF-8 -t "$2"; } > "$1"
}

@test "xc: mojibake in UTF-16 and UTF-32 after Latin leads followed by ASCII at every offset of a word" {
	local f y=
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<d>'
	  for i in 1 2 3 4 5 6 7 8 9; do
		y=${y}y
		printf 'caf\303\251 \303\274ber x%s' "$y"
	  done
	  printf 'd\303\203\302\251j\303\240</d>\n'; } > "$T/m8"
	moj "$T/le.xml" UTF-16LE '\377\376' UTF-16
	moj "$T/be.xml" UTF-16BE '\376\377' UTF-16
	moj "$T/l32.xml" UTF-32LE '\377\376\000\000' UTF-32
	for f in le be l32; do
		levels "$T/$f.xml" --ignore=utf32
		assert_equal "$ref" 0
		assert_equal "$(cat "$T/ref.err")" "$T/$f.xml:2:149: warning: \"Ã©\" is \"é\" encoded twice (its UTF-8 read as windows-1252 and encoded again) [mojibake]"
	done
	assert_equal "$(cat "$T/ref.out")" "$T/l32.xml: UTF-32LE (BOM), declared \"UTF-32\", 1 warning"
}

@test "xc: UTF-16 mojibake whose trail is a windows-1252 character, after a lead that ASCII follows" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<d>'
	  printf 'ab\303\251c\303\203\342\202\254x</d>\n<!--\303\203-->'; } > "$T/m8"
	moj "$T/le.xml" UTF-16LE '\377\376' UTF-16
	levels "$T/le.xml"
	assert_equal "$ref" 0
	assert_equal "$(cat "$T/ref.err")" "$T/le.xml:2:8: warning: \"Ã€\" is \"À\" encoded twice (its UTF-8 read as windows-1252 and encoded again) [mojibake]"
}

@test "xc: UTF-16 into UTF-8, pairs after 1-, 2- and 3-byte characters at every offset of a 64-byte step, LF, CR LF and CR" {
	# Line k of each kind: k units of it before a run of 1 to 9 pairs,
	# then 0 to 4 ASCII; the lines end in LF, CR LF or CR.
	awk 'BEGIN {
		split("a|\303\251|\346\227\245", pre, "|")
		split("\360\237\230\200|\364\217\277\277|\360\220\200\200", ast, "|")
		for (kind = 1; kind <= 3; kind++)
			for (k = 0; k < 64; k++) {
				s = "<p>"
				for (m = k; m > 0; m--)
					s = s pre[kind]
				for (m = 1 + k % 9; m > 0; m--)
					s = s ast[1 + (k + m) % 3]
				for (m = 0; m < k % 5; m++)
					s = s "z"
				print s "</p>"
			}
	}' | head8 "$T/lf.xml"
	sed 's/$/\r/' "$T/lf.xml" > "$T/crlf.xml"
	tr '\n' '\r' < "$T/lf.xml" > "$T/cr.xml"
	to_utf8 "$T/crlf.xml" LE
	to_utf8 "$T/cr.xml" BE
}

@test "xc: UTF-16 into UTF-8, characters of every length and line ends in every order, runs longer than a conversion chunk" {
	# A deterministic pseudo-random text: no two steps alike.
	awk 'BEGIN {
		n = split("a|\303\251|\337\277|\340\240\200|\346\227\245|" \
		    "\355\237\277|\356\200\200|\357\277\275|\360\237\230\200|" \
		    "\364\217\277\277|\r\n|\n|\r", c, "|")
		x = 11
		for (i = 0; i < 60000; i++) {
			x = (x * 69069 + 1) % 4294967296
			printf "%s", c[1 + int(x / 65536) % n]
		}
	}' | head8 "$T/mix.xml"
	to_utf8 "$T/mix.xml" LE
}

@test "xc: UTF-16 into UTF-8, the 320 KiB read boundary between the halves of a pair" {
	huge "a 400 KB file"
	local k
	# Eight units repeated (a pair, CR LF, a pair, e-acute, a) after one
	# more: the boundary between the halves of a pair.
	for k in 1; do
		awk -v k=$k 'BEGIN {
			for (i = 0; i < k; i++)
				printf "a"
			for (i = 0; i < 25000; i++)
				printf "\360\237\230\200\r\n\364\217\277\277\303\251a"
		}' | head8 "$T/big$k.xml"
		to_utf8 "$T/big$k.xml" LE
	done
	to_utf8 "$T/big1.xml" BE
}

@test "xc: the column after surrogate pairs, and a lone half after them" {
	local k
	for k in 0 13 40; do
		{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>'
		  rep "$k" x
		  rep 40 '\360\237\230\200'
		  printf '\001z</a>\n'; } > "$T/c.xml"
		u16 "$T/c.xml" LE "$T/c16.xml"
		levels "$T/c16.xml"
		assert_equal "$ref" 0
		assert_equal "$(cat "$T/ref.out")" "$T/c16.xml: UTF-16LE (BOM), declared \"UTF-16\", 1 error"
		assert_equal "$(cat "$T/ref.err")" "$T/c16.xml:2:$((3 + k + 40 + 1)): error: U+0001 is not an XML Char (XML 1.0 [2]); remove it [illegal-char]"
	done
	# A high half with no low one after 20 pairs, at the end of a step
	# or within one: an illegal sequence where the pair would be.
	for k in 0 17; do
		{ printf '\377\376'
		  { printf '<?xml version="1.0" encoding="UTF-16"?>\n<a>'
		    rep "$k" x
		    rep 20 '\360\237\230\200'; } | iconv -f UTF-8 -t UTF-16LE
		  printf '\000\330'
		  printf 'x</a>\n' | iconv -f UTF-8 -t UTF-16LE; } > "$T/l16.xml"
		levels "$T/l16.xml" --transcode-to=UTF-8
		assert_equal "$ref" 1
		assert_equal "$(cat "$T/ref.out")" ""
		assert_equal "$(sed -n 1p "$T/ref.err")" "$T/l16.xml:2:$((3 + k + 20 + 1)): error: bytes 00 D8 are not valid in UTF-16LE (a high surrogate U+D800 not followed by a low one); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]"
	done
}

#!/usr/bin/env bats
# The guess (GUESS in xmlsniff(1)): when the bytes of an entity refute the
# encoding it is read in (illegal-sequence, suspicious-label), the encoding
# under which the whole entity decodes, a sample, and the command that
# converts it; the JSON member "guess"; --encoding and --default-encoding.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

DECL_U8='<?xml version="1.0" encoding="UTF-8"?>\n'

# French in windows-1252 (E0 à, 92 ’, 80 €) declared UTF-8.
french() {
	put fr.xml "$DECL_U8"'<p>Voil\340 l\222\351t\351 \340 P\342ques, o\371 la cr\350me br\373l\351e co\373te 5 \200.</p>\n'
}

@test "French in windows-1252 declared UTF-8: windows-1252, a sample and the command" {
	french
	xs fr.xml
	assert_success
	assert_output 'fr.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
	assert_equal "$stderr" 'fr.xml:2:8: error: bytes E0 are not valid in UTF-8 (a truncated sequence: too few continuation bytes); the entity is not in this encoding: declare the encoding it is in, or re-encode it (12 times) [illegal-sequence]
fr.xml: note: it decodes cleanly as windows-1252: "<p>Voilà l’été à Pâques, où la crème brûlée"; to convert it: xmlsniff --encoding=windows-1252 --transcode-to=UTF-8 -o out.xml fr.xml'
}

@test "the command of the note, run for real, writes the entity in UTF-8" {
	french
	xs fr.xml
	cmd=${stderr##*to convert it: xmlsniff }
	[ "$cmd" = '--encoding=windows-1252 --transcode-to=UTF-8 -o out.xml fr.xml' ]
	# shellcheck disable=SC2086
	run_apart "$XMLSNIFF" $cmd
	assert_success
	assert_output 'fr.xml: windows-1252 (charset), declared "UTF-8", charset "windows-1252", 1 warning'
	assert_equal "$(cat out.xml)" '<?xml version="1.0" encoding="UTF-8"?>
<p>Voilà l’été à Pâques, où la crème brûlée coûte 5 €.</p>'
	# And the result is clean.
	xs out.xml
	assert_success
	assert_output 'out.xml: UTF-8 (declaration), declared "UTF-8"'
	[ -z "$stderr" ]
}

@test "a name the shell would split is quoted in the command" {
	french
	mv fr.xml "l'été 1.xml"
	xs "l'été 1.xml"
	assert_success
	stderr_has "-o out.xml \"l'été 1.xml\""
	mv "l'été 1.xml" 'the file.xml'
	xs 'the file.xml'
	stderr_has "-o out.xml 'the file.xml'"
}

@test "a name too long to write whole in the command is written FILE, never cut short" {
	local d long
	d=$(printf 'd%.0s' {1..200})/$(printf 'e%.0s' {1..200})
	mkdir -p "$d"
	french
	# 511 bytes: the longest name written whole.
	long=$d/$(printf 'f%.0s' {1..105}).xml
	cp fr.xml "$long"
	xs "$long"
	assert_success
	assert_equal "${stderr_lines[1]##*-o out.xml }" "$long"
	# A byte more than the note has room for: FILE, not a name cut.
	long=$d/$(printf 'f%.0s' {1..106}).xml
	cp fr.xml "$long"
	xs "$long"
	assert_success
	assert_equal "${stderr_lines[1]##*-o out.xml }" FILE
	# Quoted, the quotes count.
	long="$d/$(printf 'f%.0s' {1..102}) .xml"
	cp fr.xml "$long"
	xs "$long"
	assert_equal "${stderr_lines[1]##*-o out.xml }" "'$long'"
	long="$d/$(printf 'f%.0s' {1..103}) .xml"
	cp fr.xml "$long"
	xs "$long"
	assert_equal "${stderr_lines[1]##*-o out.xml }" FILE
}

@test "German in ISO-8859-1 without a declaration: windows-1252, which reads it the same" {
	put de.xml '<p>Gr\374\337e aus M\374nchen: sch\366ne T\374r, \374ber die Br\374cke f\374r \304rger.</p>\n'
	xs de.xml
	assert_success
	assert_output 'de.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'de.xml:1:6: error: bytes FC are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it (9 times) [illegal-sequence]
de.xml: note: it decodes cleanly as windows-1252: "<p>Grüße aus München: schöne Tür, über"; to convert it: xmlsniff --encoding=windows-1252 --transcode-to=UTF-8 -o out.xml de.xml'
}

@test "Japanese in Shift_JIS declared UTF-8: Shift_JIS" {
	need_iconv Shift_JIS
	enc SHIFT_JIS "$DECL_U8"'<p>これは日本語の文書です。ひらがなとカタカナと漢字があります。</p>\n' > ja.xml
	xs ja.xml
	assert_success
	assert_output 'ja.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
	assert_equal "${stderr_lines[1]}" 'ja.xml: note: it decodes cleanly as Shift_JIS: "<p>これは日本語の文書です。ひらがなとカタカナと漢字があります。</p>"; to convert it: xmlsniff --encoding=Shift_JIS --transcode-to=UTF-8 -o out.xml ja.xml'
}

@test "Chinese in GBK declared UTF-8: GBK (characters GB2312 lacks)" {
	need_iconv GBK
	enc GBK "$DECL_U8"'<p>我們說這是一個中文文件，我们的人民在这里生活和工作。</p>\n' > zh.xml
	xs zh.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'zh.xml: note: it decodes cleanly as GBK: "<p>我們說這是一個中文文件，我们的人民在这里生活和工作。</p>"; to convert it: xmlsniff --encoding=GBK --transcode-to=UTF-8 -o out.xml zh.xml'
}

RU='<p>Привет, мир! Это русский текст, который нужно угадать правильно.</p>\n'

@test "Russian in KOI8-R declared UTF-8: KOI8-R" {
	need_iconv KOI8-R
	enc KOI8-R "$DECL_U8$RU" > koi.xml
	xs koi.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'koi.xml: note: it decodes cleanly as KOI8-R: "<p>Привет, мир! Это русский текст, который"; to convert it: xmlsniff --encoding=KOI8-R --transcode-to=UTF-8 -o out.xml koi.xml'
}

@test "Russian in windows-1251 declared UTF-8: windows-1251" {
	need_iconv windows-1251
	enc WINDOWS-1251 "$DECL_U8$RU" > cp.xml
	xs cp.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'cp.xml: note: it decodes cleanly as windows-1251: "<p>Привет, мир! Это русский текст, который"; to convert it: xmlsniff --encoding=windows-1251 --transcode-to=UTF-8 -o out.xml cp.xml'
}

@test "Korean in EUC-KR declared UTF-8: EUC-KR" {
	need_iconv EUC-KR
	enc EUC-KR "$DECL_U8"'<p>안녕하세요. 이것은 한국어로 쓴 문서입니다. 우리는 오늘 학교에 갑니다.</p>\n' > ko.xml
	xs ko.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'ko.xml: note: it decodes cleanly as EUC-KR: "<p>안녕하세요. 이것은 한국어로 쓴 문서입니다. 우리는 오늘 학교에"; to convert it: xmlsniff --encoding=EUC-KR --transcode-to=UTF-8 -o out.xml ko.xml'
}

@test "UTF-8 with one stray byte: mostly UTF-8, no conversion proposed" {
	put m.xml "$DECL_U8"'<p>Voil\303\240 un texte en fran\303\247ais, \303\251crit en UTF-8 ; d\303\251j\303\240 tr\303\250s bien, mais ici \351 une erreur. \303\207a marche \303\240 c\303\264t\303\251 ?</p>\n'
	xs m.xml
	assert_success
	assert_output 'm.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
	assert_equal "$stderr" 'm.xml:2:74: error: bytes E9 are not valid in UTF-8 (a truncated sequence: too few continuation bytes); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]
m.xml: note: it is mostly UTF-8, with 1 stray byte (the first at byte offset 118) among 10 valid multi-byte characters: correct those bytes by hand rather than convert the entity'
	xs --json m.xml
	assert_output --partial ',"guess":{"encoding":"UTF-8","sample":"à très bien, mais ici � une erreur. Ça marche à côté ?</p>"}}'
}

@test "mostly UTF-8 while the stray bytes are at most a quarter of the valid characters, wherever they stand" {
	local e b s f
	e=$(printf '\303\251%.0s' $(seq 1 40))
	# 10 stray bytes for 40 characters is mostly UTF-8; 11 is not.
	# Stray bytes first (the count
	# may stop early only once the rest cannot change the answer), last,
	# and among the characters.
	for b in 10 11; do
		s=$(printf '\377%.0s' $(seq 1 $b))
		printf '<r>%s%s</r>\n' "$s" "$e" > first.xml
		printf '<r>%s%s</r>\n' "$e" "$s" > last.xml
		printf '<r>%s%s%s</r>\n' "${e:0:40}" "$s" "${e:40}" > mid.xml
		for f in first.xml last.xml mid.xml; do
			xs "$f"
			if [ $b = 10 ]; then
				stderr_has "$f: note: it is mostly UTF-8, with 10 stray bytes"
			else
				[[ "$stderr" != *"mostly UTF-8"* ]] || fail "$stderr"
			fi
		done
	done
}

@test "three bytes are too few to tell: no guess, JSON guess null" {
	put amb.xml '<a>\351\350\340</a>'
	xs amb.xml
	assert_success
	assert_equal "$stderr" 'amb.xml:1:4: error: bytes E9 are not valid in UTF-8 (a truncated sequence: too few continuation bytes); the entity is not in this encoding: declare the encoding it is in, or re-encode it (3 times) [illegal-sequence]'
	xs --json amb.xml
	assert_success
	assert_output '{"file":"amb.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":3,"line":1,"column":4,"count":3,"message":"bytes E9 are not valid in UTF-8 (a truncated sequence: too few continuation bytes); the entity is not in this encoding: declare the encoding it is in, or re-encode it"}],"guess":null}'
	[ -z "$stderr" ]
}

@test "JSON: guess filled for an entity with the problem, absent for a clean one" {
	french
	put ok.xml '<a>caf\303\251</a>'
	xs --json fr.xml ok.xml
	assert_success
	assert_line --index 0 --partial '}],"guess":{"encoding":"windows-1252","sample":"<p>Voilà l’été à Pâques, où la crème brûlée"}}'
	assert_line --index 1 '{"file":"ok.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":0,"diagnostics":[]}'
	[ -z "$stderr" ]
}

@test "a Shift_JIS label with a Windows-31J character: the superset is named" {
	need_iconv Windows-31J
	need_rejects Shift_JIS '\207\100'
	{ printf '<?xml version="1.0" encoding="Shift_JIS"?>\n'
	    enc CP932 '<p>丸数字の①と②と髙橋さんの文書です。これはテストです。</p>\n'; } > sj.xml
	xs sj.xml
	assert_success
	assert_output 'sj.xml: Shift_JIS (declaration), declared "Shift_JIS", 1 error'
	assert_equal "${stderr_lines[1]}" 'sj.xml: note: it decodes cleanly as Windows-31J: "<p>丸数字の①と②と髙橋さんの文書です。これはテストです。</p>"; to convert it: xmlsniff --encoding=Windows-31J --transcode-to=UTF-8 -o out.xml sj.xml'
}

@test "Chinese that GB2312 has, in GBK declared UTF-8: GBK, as it is written and labelled in practice" {
	need_iconv GBK
	enc GBK "$DECL_U8"'<p>我们的产品质量很好，价格也很便宜。欢迎大家来购买，如果有问题请联系客服。</p>\n' > zh2.xml
	xs zh2.xml
	stderr_has 'zh2.xml: note: it decodes cleanly as GBK: "<p>我们的产品质量很好，价格也很便宜。'
	stderr_has 'to convert it: xmlsniff --encoding=GBK --transcode-to=UTF-8 -o out.xml zh2.xml'
}

@test "a GB2312 label with GBK characters: GBK" {
	need_iconv GBK
	{ printf '<?xml version="1.0" encoding="GB2312"?>\n'
	    enc GBK '<p>我們說這是一個中文文件，我们的人民在这里生活和工作。</p>\n'; } > gb.xml
	xs gb.xml
	assert_success
	stderr_has 'gb.xml: note: it decodes cleanly as GBK: '
}

@test "ISO-8859-1 with bytes 80-9F (suspicious-label): windows-1252" {
	put l1.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<p>Le caf\351 de l\222\351t\351 \340 c\364t\351 du th\351\342tre, o\371 l\222on.</p>\n'
	xs l1.xml
	assert_success
	assert_output 'l1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 warning'
	assert_equal "${stderr_lines[1]}" 'l1.xml: note: it decodes cleanly as windows-1252: "<p>Le café de l’été à côté du théâtre, où"; to convert it: xmlsniff --encoding=windows-1252 --transcode-to=UTF-8 -o out.xml l1.xml'
}

@test "standard input: the same guess, the command reads standard input" {
	french
	xs - < fr.xml
	assert_success
	assert_equal "${stderr_lines[1]}" '-: note: it decodes cleanly as windows-1252: "<p>Voilà l’été à Pâques, où la crème brûlée"; to convert it: xmlsniff --encoding=windows-1252 --transcode-to=UTF-8 -o out.xml -'
}

@test "a pipe longer than a block: the guess says it is from a part" {
	{ printf '<a>'; head -c 400000 /dev/zero | tr '\0' x
	    printf 'Le caf\351 de l\222\351t\351 \340 c\364t\351 du th\351\342tre, o\371 l\222on.</a>'; } > big.xml
	run_apart sh -c 'cat big.xml | "$0" -' "$XMLSNIFF"
	assert_success
	assert_equal "${stderr_lines[1]}" '-: note: it decodes cleanly as windows-1252 (the part of the input looked at): "xxxxxxxxxxxxxxxxxxLe café de l’été à côté du théâtre, où"; to convert it: xmlsniff --encoding=windows-1252 --transcode-to=UTF-8 -o out.xml -'
}

# --- --encoding ------------------------------------------------------------

@test "--encoding=ENC is --content-type 'application/xml; charset=ENC'" {
	french
	xs --encoding=windows-1252 fr.xml
	assert_success
	assert_output 'fr.xml: windows-1252 (charset), declared "UTF-8", charset "windows-1252", 1 warning'
	assert_equal "$stderr" 'fr.xml:1:31: warning: the charset parameter "windows-1252" overrides the declaration "UTF-8" (RFC 7303 section 3.2); make them agree [charset-decl-conflict]'
	run_apart "$XMLSNIFF" --content-type 'application/xml; charset=windows-1252' fr.xml
	assert_output 'fr.xml: windows-1252 (charset), declared "UTF-8", charset "windows-1252", 1 warning'
}

@test "--encoding keeps the type of --content-type" {
	put a.xml '<a/>'
	xs -i --encoding=ISO-8859-1 --content-type=text/xml a.xml
	assert_success
	assert_output 'a.xml: text/xml; charset=iso-8859-1'
}

@test "--encoding: a BOM still wins" {
	put bom.xml '\357\273\277<a>caf\303\251</a>'
	xs --encoding=ISO-8859-1 bom.xml
	assert_success
	assert_output 'bom.xml: UTF-8 (BOM), no declaration, charset "ISO-8859-1", 1 error, 1 warning'
	stderr_has '[bom-charset-conflict]'
}

@test "--encoding with an unknown name: exit 2 and a message" {
	put a.xml '<a/>'
	xs --encoding=no-such-thing a.xml
	assert_failure 2
	assert_output ''
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --encoding: "no-such-thing" is not an encoding that the IANA registry or this system'"'"'s iconv knows'
	try_help
}

@test "--encoding and a charset in --content-type: exit 2" {
	put a.xml '<a/>'
	xs --encoding=UTF-8 --content-type='text/xml; charset=UTF-8' a.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --encoding and a charset in --content-type exclude each other'
}

# --- --default-encoding ------------------------------------------------------

@test "--default-encoding: an unlabelled entity is read in it (source default)" {
	put de.xml '<p>Gr\374\337e aus M\374nchen</p>'
	xs --default-encoding=ISO-8859-1 de.xml
	assert_success
	assert_output 'de.xml: ISO-8859-1 (default), no declaration, 1 warning'
	assert_equal "$stderr" 'de.xml:1:1: warning: no encoding declaration: the entity relies on --default-encoding alone, which a saved copy loses (XML 1.0 section 4.3.3: an entity in another encoding than UTF-8 or UTF-16 must declare it); add encoding="ISO-8859-1" to the declaration [missing-decl]'
	xs --json --default-encoding=ISO-8859-1 de.xml
	assert_output --partial '"encoding":"ISO-8859-1","source":"default",'
}

@test "--default-encoding never overrides a declaration" {
	french
	xs --default-encoding=windows-1252 fr.xml
	assert_success
	assert_output 'fr.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
}

@test "--default-encoding: nor a declaration without encoding (UTF-8)" {
	put d.xml '<?xml version="1.0"?><a>caf\303\251</a>'
	xs --default-encoding=ISO-8859-1 d.xml
	assert_success
	assert_output 'd.xml: UTF-8 (default), declaration without encoding'
}

@test "--default-encoding never overrides a BOM or a charset" {
	put bom.xml '\357\273\277<a>caf\303\251</a>'
	xs --default-encoding=ISO-8859-1 bom.xml
	assert_success
	assert_output 'bom.xml: UTF-8 (BOM), no declaration, 1 warning'
	put a.xml '<a>caf\303\251</a>'
	xs --default-encoding=ISO-8859-1 --encoding=UTF-8 a.xml
	assert_success
	assert_output 'a.xml: UTF-8 (charset), no declaration, charset "UTF-8"'
}

@test "--default-encoding never overrides the UTF-16 pattern of Appendix F" {
	enc UTF-16LE '<?xml version="1.0"?><a/>' > u16.xml
	xs --default-encoding=ISO-8859-1 u16.xml
	assert_success
	assert_output 'u16.xml: UTF-16LE (sniffed), declaration without encoding, 2 errors'
	stderr_has '[no-declaration]'
}

@test "--default-encoding with an unknown name, or not ASCII-based: exit 2" {
	put a.xml '<a/>'
	xs --default-encoding=no-such-thing a.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --default-encoding: "no-such-thing" is not an encoding that the IANA registry or this system'"'"'s iconv knows'
	xs --default-encoding=UTF-16LE a.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: --default-encoding: "UTF-16LE" does not read "<?xml" as UTF-8 does (an entity in it needs a BOM or a declaration)'
}

@test "--help names --encoding, --default-encoding and what ranks the guesses" {
	xs --help
	assert_success
	assert_output --partial '      --encoding=ENC    the same as --content-type with charset=ENC'
	assert_output --partial '      --default-encoding=ENC  the encoding of inputs that have no'
	assert_output --regexp $'\nGuesses of the real encoding: the built-in language models( and libuchardet| \\((built without libuchardet|libuchardet did not load)\\))\\.\n'
}

@test "--http: the body is guessed, not the head, and the note names the charset to serve it with" {
	french
	# A head of 300 bytes of Latin-1 would sway a guess of the file.
	{ printf 'HTTP/1.1 200 OK\r\nContent-Type: application/xml; charset=utf-8\r\nX-Note: '
	  head -c 300 /dev/zero | tr '\0' '\351'; printf '\r\n\r\n'; cat fr.xml; } > r.txt
	local note='note: it decodes cleanly as windows-1252: "<p>Voilà l’été à Pâques, où la crème brûlée"; serve it with Content-Type: application/xml; charset=windows-1252, or convert the body to the charset it is served with'
	xs --http r.txt
	assert_equal "${stderr_lines[1]}" "r.txt: $note"
	run_apart sh -c '"$0" --http - < r.txt' "$XMLSNIFF"
	assert_equal "${stderr_lines[1]}" "-: $note"
	xs --http --json r.txt
	assert_output --partial '"guess":{"encoding":"windows-1252","sample":"<p>Voilà l’été à Pâques, où la crème brûlée"}}'
}

@test "standard input read from an offset of a file: the guess reads from there, not from the file's start" {
	# The skipped start is Cyrillic in KOI8-R; what remains is French.
	french
	{ printf '\362\325\323\323\313\311\312 \324\305\313\323\324 \324\305\313\323\324\n'; cat fr.xml; } > both.xml
	local skip; skip=$(printf '\362\325\323\323\313\311\312 \324\305\313\323\324 \324\305\313\323\324\n' | wc -c)
	run_apart sh -c '{ head -c "$1" > /dev/null; exec "$0" -; } < both.xml' "$XMLSNIFF" "$skip"
	assert_equal "${stderr_lines[1]}" '-: note: it decodes cleanly as windows-1252: "<p>Voilà l’été à Pâques, où la crème brûlée"; to convert it: xmlsniff --encoding=windows-1252 --transcode-to=UTF-8 -o out.xml -'
}

@test "an entity over 256 KiB: ranked on a sample from its first non-ASCII line, the pick checked on the whole" {
	# 2 MB of French in windows-1252: the same guess as a small file.
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  rep 30000 '<p>Voil\340 l\222\351t\351 \340 P\342ques, o\371 la cr\350me</p>\n'
	  printf '</r>\n'; } > big.xml
	xs big.xml
	stderr_has 'big.xml: note: it decodes cleanly as windows-1252: "<p>Voilà l’été à Pâques, où la crème</p>"'
	# The same with one byte windows-1252 lacks (81) at the end: the
	# sample's pick does not read the whole, so no guess.
	{ head -c -5 big.xml; printf '\201</r>\n'; } > refuted.xml
	xs refuted.xml
	[[ "$stderr" != *'note: it decodes cleanly'* ]] || fail "$stderr"
	# ... nor with a control at the end (U+0001 in every candidate),
	# nor with a NUL in the middle.
	{ head -c -5 big.xml; printf '\001</r>\n'; } > refuted.xml
	xs refuted.xml
	[[ "$stderr" != *'note: it decodes cleanly'* ]] || fail "$stderr"
	{ head -c 1500000 big.xml; printf '\000'; tail -c +1500002 big.xml; } > refuted.xml
	xs refuted.xml
	[[ "$stderr" != *'note: it decodes cleanly'* ]] || fail "$stderr"
	# One long line (no line feed for megabytes): cut after a '>'.
	tr -d '\n' < big.xml > oneline.xml
	xs oneline.xml
	stderr_has 'oneline.xml: note: it decodes cleanly as windows-1252:'
}

@test "an entity over 16 MiB: guessed from its first 16 MiB, and the note says so" {
	local line='<p>Voil\340 l\222\351t\351 \340 P\342ques, o\371 la cr\350me</p>\n'
	huge "17 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  rep 440000 "$line"
	  printf '</r>\n'; } > big.xml
	[ "$(wc -c < big.xml)" -gt 17000000 ]
	# A byte windows-1252 lacks past the first 16 MiB is not looked at;
	# one before it is.
	{ head -c 17000000 big.xml; printf '\201'; tail -c +17000002 big.xml; } > late.xml
	xs late.xml
	stderr_has 'late.xml: note: it decodes cleanly as windows-1252 (the part of the input looked at): "<p>Voilà l’été'
	{ head -c 16000000 big.xml; printf '\201'; tail -c +16000002 big.xml; } > early.xml
	xs early.xml
	[[ "$stderr" != *'note: it decodes cleanly'* ]] || fail "$stderr"
}

@test "an entity over 256 KiB in a multi-byte encoding: the pick read whole by iconv, a bad pair at the end refutes it" {
	need_iconv SHIFT_JIS
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  rep 40000 '<p>日本語の文章です。東京と大阪。</p>\n' |
	      iconv -f UTF-8 -t SHIFT_JIS
	  printf '</r>\n'; } > sj.xml
	[ "$(wc -c < sj.xml)" -gt 1100000 ]
	xs sj.xml
	stderr_has 'sj.xml: note: it decodes cleanly as Shift_JIS: "<p>日本語の文章です。東京と大阪。</p>"'
	# a lead byte with a trail byte no Shift_JIS pair has (81 7F)
	{ head -c -5 sj.xml; printf '\201\177</r>\n'; } > bad.xml
	xs bad.xml
	[[ "$stderr" != *'note: it decodes cleanly as Shift_JIS'* ]] || fail "$stderr"
}

# BOM-less UTF-16 (issue 23 item 7): the other byte order decodes ASCII
# into U+XX00 characters (U+3C00 for '<'), which is not a clean decode;
# the note names the right order, and --fix where the first characters
# leave no doubt of it.
@test "BOM-less UTF-16LE, '<a>...': the note says UTF-16LE, never UTF-16BE, and names --fix" {
	printf '<\0a\0>\0h\0e\0l\0l\0o\0<\0/\0a\0>\0\n\0' > le.xml
	xs le.xml
	assert_success
	assert_output 'le.xml: UTF-8 (default), no declaration, 1 error, 1 warning'
	assert_equal "${#stderr_lines[@]}" 3
	[[ "${stderr_lines[0]}" == *"look like UTF-16LE"*"[suspicious-label]" ]]
	[[ "${stderr_lines[1]}" == *"(13 times) [illegal-char]" ]]
	assert_equal "${stderr_lines[2]}" 'le.xml: note: it decodes cleanly as UTF-16LE: "<a>hello</a>"; it lacks the BOM that UTF-16 needs: xmlsniff --fix le.xml adds it'
}

@test "BOM-less UTF-16BE, '<a>...': the note says UTF-16BE, and no not-xml" {
	printf '\0<\0a\0>\0h\0i\0<\0/\0a\0>' > be.xml
	xs be.xml
	assert_success
	assert_output 'be.xml: UTF-8 (default), no declaration, 1 error, 1 warning'
	assert_equal "${stderr_lines[2]}" 'be.xml: note: it decodes cleanly as UTF-16BE: "<a>hi</a>"; it lacks the BOM that UTF-16 needs: xmlsniff --fix be.xml adds it'
	stderr_lacks 'not-xml'
}

@test "BOM-less UTF-16LE whose first characters do not show the order: the right order, and the command that converts" {
	# "hello <a/>" in UTF-16LE: no '<' first, so no --fix.
	printf 'h\0e\0l\0l\0o\0 \0<\0a\0/\0>\0' > t.xml
	xs t.xml
	assert_success
	assert_equal "${stderr_lines[-1]}" 't.xml: note: it decodes cleanly as UTF-16LE: "hello <a/>"; to convert it: xmlsniff --encoding=UTF-16LE --transcode-to=UTF-8 -o out.xml t.xml'
}

# --- Issue 26: every family, the script rule, thin margins ------------------

# model_only: the built-in language models alone, in any build
# (testhooks.h: libuchardet left out).
model_only() {
	export XMLSNIFF_TEST_UCHARDET=no
}

# guess_of FILE: the encoding of FILE's JSON guess, "null" for none.
guess_of() {
	run_apart "$XMLSNIFF" --json "$1"
	[[ "$output" == *'"guess":null}' ]] && { echo null; return; }
	local g=${output##*\"guess\":\{\"encoding\":\"}
	echo "${g%%\"*}"
}

@test "Maltese in ISO-8859-3 declared UTF-8: ISO-8859-3, with or without libuchardet" {
	need_iconv ISO-8859-3
	enc ISO-8859-3 "$DECL_U8"'<p>Il-għada filgħodu morna l-baħar flimkien mal-kuġini tagħna.</p>\n<p>In-nanna dejjem kienet tgħid li l-aħjar ħobż huwa dak li jinħema fil-forn tal-ħatab.</p>\n' > mt.xml
	xs mt.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'mt.xml: note: it decodes cleanly as ISO-8859-3: "<p>Il-għada filgħodu morna l-baħar flimkien"; to convert it: xmlsniff --encoding=ISO-8859-3 --transcode-to=UTF-8 -o out.xml mt.xml'
	model_only
	assert_equal "$(guess_of mt.xml)" ISO-8859-3
}

@test "Arabic in ISO-8859-6 declared UTF-8: ISO-8859-6, never Thai (TIS-620 reads it cleanly)" {
	need_iconv ISO-8859-6
	need_iconv TIS-620
	enc ISO-8859-6 "$DECL_U8"'<p>كانت جدتي تقول دائما إن أطيب خبز هو الذي يخبز في البيت في الفرن القديم.</p>\n' > ar.xml
	# Every byte of it is a Thai letter or mark in TIS-620.
	iconv -f TIS-620 -t UTF-8 ar.xml > /dev/null
	xs ar.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'ar.xml: note: it decodes cleanly as ISO-8859-6: "<p>كانت جدتي تقول دائما إن أطيب خبز"; to convert it: xmlsniff --encoding=ISO-8859-6 --transcode-to=UTF-8 -o out.xml ar.xml'
	model_only
	assert_equal "$(guess_of ar.xml)" ISO-8859-6
}

@test "Polish in windows-1250 that GBK and GB18030 read cleanly: windows-1250, never CJK" {
	need_iconv WINDOWS-1250
	need_iconv GBK
	need_iconv GB18030
	# Every letter past ASCII is followed by a letter: pairs that GBK
	# reads as ideographs.
	enc WINDOWS-1250 "$DECL_U8"'<p>Wczoraj wieczorem siedzieliśmy przy rzece i patrzyliśmy, jak słońce zachodzi za wzgórzami. Zażółć książki.</p>\n' > pl.xml
	iconv -f GBK -t UTF-8 pl.xml > /dev/null
	iconv -f GB18030 -t UTF-8 pl.xml > /dev/null
	xs pl.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'pl.xml: note: it decodes cleanly as windows-1250: "oraj wieczorem siedzieliśmy przy rzece i patrzyliśmy, jak"; to convert it: xmlsniff --encoding=windows-1250 --transcode-to=UTF-8 -o out.xml pl.xml'
	model_only
	assert_equal "$(guess_of pl.xml)" windows-1250
}

@test "Cyrillic in each of its tables: named as it is, never windows-1251 for IBM866 or MAC-CYRILLIC" {
	local e
	printf "$DECL_U8"'<p>Вчера вечером мы сидели на берегу реки и смотрели, как солнце садится за холмы.</p>\n' > ru.u8
	for e in KOI8-R WINDOWS-1251 ISO-8859-5 IBM866 IBM855 MAC-CYRILLIC; do
		has_iconv "$e" || continue
		iconv -f UTF-8 -t "$e" ru.u8 > ru.xml
		xs ru.xml
		assert_success
		stderr_has 'ru.xml: note: it decodes cleanly as '
		stderr_has ': "<p>Вчера вечером мы сидели на берегу"'
		[ "$(guess_of ru.xml)" = "$(XMLSNIFF_TEST_UCHARDET=no guess_of ru.xml)" ]
		case $e in
		WINDOWS-1251) assert_equal "$(guess_of ru.xml)" windows-1251 ;;
		*) assert_equal "$(guess_of ru.xml)" "$e" ;;
		esac
	done
}

@test "a thin margin gives no guess: Spanish with one byte that Czech reads as well" {
	model_only
	# "día más té sólo útil página médico vía" and E8, which windows-1252
	# reads as è and windows-1250 as č: nothing tells them apart.
	put es.xml '<p>d\355a m\341s t\351 s\363lo \372til p\341gina m\351dico v\355a c\350ta</p>\n'
	xs --json es.xml
	assert_success
	assert_output --partial '"guess":null}'
	# One letter more that only Spanish has (ñ) decides it.
	put es.xml '<p>d\355a m\341s t\351 s\363lo \372til p\341gina m\351dico v\355a c\350ta espa\361ol ma\361ana</p>\n'
	assert_equal "$(guess_of es.xml)" windows-1252
}

@test "a line repeated is no more evidence than once: the thin margin stays thin" {
	local i
	model_only
	# The thin Spanish line of the last test forty times: the models
	# would see forty times the letters, and their lead (č over è)
	# forty times over.
	{
		printf '<doc>\n'
		for i in $(seq 40); do
			printf '<p>d\355a m\341s t\351 s\363lo \372til p\341gina m\351dico v\355a c\350ta</p>\n'
		done
		printf '</doc>\n'
	} > rep.xml
	assert_equal "$(guess_of rep.xml)" null
	# Forty different lines do count: each adds ñ.
	{
		printf '<doc>\n'
		for i in $(seq 40); do
			printf '<p>%d: d\355a m\341s t\351 c\350ta espa\361ol</p>\n' "$i"
		done
		printf '</doc>\n'
	} > lines.xml
	assert_equal "$(guess_of lines.xml)" windows-1252
}

@test "within the margin libuchardet picks the table, never the script: a little Russian is not named Greek" {
	"$XMLSNIFF" --help | grep -q 'language models and libuchardet' ||
	    skip "libuchardet is not in this build or did not load"
	# "День" in windows-1251: libuchardet says ISO-8859-7, which reads
	# these four bytes as Greek letters as cleanly; the models find
	# Cyrillic likelier, by too little to name a table.
	enc WINDOWS-1251 '<p>День</p>\n' > ru.xml
	assert_equal "$(guess_of ru.xml)" null
	# With more text the models name it themselves.
	enc WINDOWS-1251 '<p>День добрый, как дела? Хорошо, спасибо.</p>\n' > ru.xml
	assert_equal "$(guess_of ru.xml)" windows-1251
}

@test "BOM-less UTF-16 and UTF-32 in both byte orders, Cyrillic and Japanese: the right order" {
	local e
	model_only
	for e in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		# Text first: no byte pattern of Appendix F to read it by.
		enc "$e" 'Привет <p>мир! Это русский текст.</p>\n<p>日本語の文章です。</p>\n' > w.xml
		xs w.xml
		assert_success
		stderr_has "w.xml: note: it decodes cleanly as $e: \"Привет <p>мир! Это русский текст.</p>\"; to convert it: xmlsniff --encoding=$e --transcode-to=UTF-8 -o out.xml w.xml"
	done
}

@test "ISO-2022-JP declared UTF-8 (ESC is no XML Char): ISO-2022-JP" {
	need_iconv ISO-2022-JP
	enc ISO-2022-JP "$DECL_U8"'<p>昨日の夕方、私たちは川岸に座って夕日を眺めていました。</p>\n' > j.xml
	xs j.xml
	assert_success
	assert_equal "${stderr_lines[0]}" 'j.xml:2:4: error: U+001B is not an XML Char (XML 1.0 [2]); remove it (2 times) [illegal-char]'
	assert_equal "${stderr_lines[1]}" 'j.xml: note: it decodes cleanly as ISO-2022-JP: "<p>昨日の夕方、私たちは川岸に座って夕日を眺めていました。</p>"; to convert it: xmlsniff --encoding=ISO-2022-JP --transcode-to=UTF-8 -o out.xml j.xml'
	# A lone ESC in UTF-8 text is no ISO-2022: no guess.
	put esc.xml '<p>caf\303\251 \033 noir</p>\n'
	xs --json esc.xml
	assert_output --partial '"guess":null}'
}

@test "UTF-8 content labelled ISO-8859-1 (suspicious-label): UTF-8" {
	put u.xml '<?xml version="1.0" encoding="ISO-8859-1"?>\n<p>Voil\303\240 l\342\200\231\303\251t\303\251 \303\240 P\303\242ques, o\303\271 la cr\303\250me</p>\n'
	xs u.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'u.xml: note: it decodes cleanly as UTF-8: "<p>Voilà l’été à Pâques, où la crème</p>"; to convert it: xmlsniff --encoding=UTF-8 --transcode-to=UTF-8 -o out.xml u.xml'
}

@test "readings alike: the label's superset is named, and the one named without the label too" {
	# German with a euro sign (80) labelled ISO-8859-9: windows-1254,
	# which extends the label, and windows-1252 read it alike.
	put de9.xml '<?xml version="1.0" encoding="ISO-8859-9"?>\n<p>Gr\374\337e aus M\374nchen: sch\366ne T\374r, \374ber die Br\374cke f\374r 5 \200.</p>\n'
	xs de9.xml
	assert_success
	assert_equal "${stderr_lines[1]}" 'de9.xml: note: it decodes cleanly as windows-1254 (and as windows-1252, which reads these bytes alike): "<p>Grüße aus München: schöne Tür, über"; to convert it: xmlsniff --encoding=windows-1254 --transcode-to=UTF-8 -o out.xml de9.xml'
	xs --json de9.xml
	assert_output --partial '"guess":{"encoding":"windows-1254","sample":"<p>Grüße aus München: schöne Tür, über"}}'
}

@test "Romanian in ISO-8859-16: ISO-8859-16, whose s and t with a comma ISO-8859-2 reads with a cedilla" {
	need_iconv ISO-8859-16
	enc ISO-8859-16 "$DECL_U8"'<p>Săptămâna viitoare vom merge cu trenul la Brașov, unde locuiește unchiul meu și mătușa mea.</p>\n' > ro.xml
	model_only
	assert_equal "$(guess_of ro.xml)" ISO-8859-16
}

# The corpus of bench/guess-texts.txt (texts written for xmlsniff in 40
# languages), each text in every encoding of its language and in UTF-16
# and UTF-32 without a BOM, wrapped in documents that declare UTF-8 or
# nothing: the floors of bench/guess-corpus.
# bats test_tags=slow
@test "the corpus, whole texts: right on all but a few, never wrong, with the models alone and with libuchardet" {
	command -v python3 > /dev/null || skip "no python3"
	# The few: Dutch and English whose only letters past ASCII other
	# tables read as plausibly (ï as ī, é as a Hebrew letter).
	run env XMLSNIFF_TEST_UCHARDET=no "$BATS_TEST_DIRNAME/../bench/guess-corpus" \
	    -x "$XMLSNIFF" --uchardet '' --fail-wrong --min-right 98
	assert_success
	assert_line --regexp '^all +[0-9]+/0/[0-9]+$'
	run "$BATS_TEST_DIRNAME/../bench/guess-corpus" -x "$XMLSNIFF" \
	    --uchardet '' --fail-wrong --min-right 98
	assert_success
}

# bats test_tags=slow
@test "the corpus, documents of 60 to 1000 bytes: never wrong, the models alone" {
	command -v python3 > /dev/null || skip "no python3"
	run env XMLSNIFF_TEST_UCHARDET=no "$BATS_TEST_DIRNAME/../bench/guess-corpus" \
	    -x "$XMLSNIFF" --uchardet '' --sizes 60,200,1000 --no-wide --fail-wrong
	assert_success
}

@test "the corpus, 200 bytes past ASCII and more: every single-byte family right, the models alone" {
	command -v python3 > /dev/null || skip "no python3"
	run env XMLSNIFF_TEST_UCHARDET=no "$BATS_TEST_DIRNAME/../bench/guess-corpus" \
	    -x "$XMLSNIFF" --uchardet '' --sizes 6000 --min-nonascii 200 --no-wide \
	    --fail-wrong --min-right 100
	assert_success
	assert_line --regexp '^western +[0-9]+/0/0$'
	assert_line --regexp '^central +[0-9]+/0/0$'
	assert_line --regexp '^baltic +[0-9]+/0/0$'
	assert_line --regexp '^south +[0-9]+/0/0$'
	assert_line --regexp '^vietnamese +[0-9]+/0/0$'
	assert_line --regexp '^cyrillic +[0-9]+/0/0$'
	assert_line --regexp '^greek +[0-9]+/0/0$'
	assert_line --regexp '^hebrew +[0-9]+/0/0$'
	assert_line --regexp '^arabic +[0-9]+/0/0$'
	assert_line --regexp '^thai +[0-9]+/0/0$'
}

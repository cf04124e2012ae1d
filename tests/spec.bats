#!/usr/bin/env bats
# The letter of the specs, each rule tested over its whole class: a BOM
# that the bytes after it contradict (XML 1.0 Appendix F), bom-forbidden
# beside decl-mismatch (RFC 7303 section 3.3), a declaration that its
# bytes refute whatever the charset says, "<?xml" after the start (XML
# 1.0 [17], [22]), U+FEFF in a document's prolog (XML 1.0 [1], [27]), and
# the clauses and words of messages.
#
# The loops over kernel levels and splits of the late-declaration tests
# are in the unit driver (tests/kern_spec.c), at every level and feed
# against the reference: every split of a pipe in UTF-8, windows-1252,
# IBM500, Shift_JIS and ISO-2022-JP (spec_late_splits), multi-byte blocks
# and every block edge near 4096 in Shift_JIS, EUC-JP, GB18030 and BIG5
# (spec_late_blocks), a character the '<' cannot finish and a late
# declaration past the read buffers (spec_late_cut).  Here a few splits
# and one encoding of each stay, end to end.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

has() {
	assert_output --partial "\"code\":\"$1\""
}

lacks() {
	refute_output --partial "\"code\":\"$1\""
}

# bom NAME: the bytes of the BOM NAME.
bom() {
	case $1 in
	UTF-8)		printf '\357\273\277' ;;
	UTF-16BE)	printf '\376\377' ;;
	UTF-16LE)	printf '\377\376' ;;
	UTF-32BE)	printf '\000\000\376\377' ;;
	UTF-32LE)	printf '\377\376\000\000' ;;
	esac
}

# layout NAME TEXT: TEXT (ASCII) laid out as NAME: 8 (ASCII-compatible),
# EBCDIC, or a Unicode form.
layout() {
	case $1 in
	8)	printf '%s' "$2" ;;
	*)	enc "${1/#EBCDIC/IBM037}" '%s' "$2" ;;
	esac
}

# The BOM and the layout it fits.
fits() {
	[ "$1" = "$2" ] || { [ "$1" = UTF-8 ] && [ "$2" = 8 ]; }
}

DECL='<?xml version="1.0" encoding="utf-8"?><a/>'
ROOT='<a>x</a>'

# --- 1. a BOM that the bytes after it contradict ---------------------------

# decl_for LAYOUT: a declaration that fits LAYOUT.
decl_for() {
	case $1 in
	8)	echo '<?xml version="1.0" encoding="utf-8"?><a/>' ;;
	EBCDIC)	echo '<?xml version="1.0" encoding="IBM037"?><a/>' ;;
	*)	echo "<?xml version=\"1.0\" encoding=\"${1%??}\"?><a/>" ;;
	esac
}

# FE FF or FF FE then 00 00 reads as a 32-bit BOM (the BOM table), not as
# a 16-bit BOM before 32-bit bytes.
another_bom() {
	[[ "$1 $2" == "UTF-16BE UTF-32BE" || "$1 $2" == "UTF-16LE UTF-32BE" ]]
}

@test "BOM contradicted: every BOM before every other layout's declaration is decl-mismatch" {
	local b l k n=0 bad=0 pairs=()
	for b in UTF-8 UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
		for l in 8 EBCDIC UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
			another_bom "$b" "$l" && continue
			{ bom "$b"; layout "$l" "$(decl_for "$l")"; } > "f$n.xml"
			pairs+=("$b $l")
			n=$((n + 1))
		done
	done
	[ "$n" = 28 ]
	# All at once: a --json record a line, in their order.
	xs_each $(seq -f 'f%g.xml' 0 $((n - 1)))
	for ((k = 0; k < n; k++)); do
		output=${RECORDS[k]} b=${pairs[k]% *} l=${pairs[k]#* }
		if fits "$b" "$l"; then
			[[ "$output" != *'"decl-mismatch"'* ]] || {
				echo "false alarm: $b + $l"; bad=$((bad + 1)); }
		else
			[[ "$output" == *'"code":"decl-mismatch"'* &&
			    "$output" == *"\"source\":\"bom\""* &&
			    "$output" == *"\"bom\":\"$b\""* ]] || {
				echo "missed: $b + $l: $output"; bad=$((bad + 1)); }
		fi
	done
	[ "$bad" = 0 ]
}

@test "BOM contradicted: every BOM before another layout's root element (no declaration)" {
	local b l k n=0 bad=0 pairs=()
	for b in UTF-8 UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
		for l in UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
			fits "$b" "$l" && continue
			another_bom "$b" "$l" && continue
			{ bom "$b"; layout "$l" "$ROOT"; } > "f$n.xml"
			pairs+=("$b $l")
			n=$((n + 1))
		done
	done
	xs_each $(seq -f 'f%g.xml' 0 $((n - 1)))
	for ((k = 0; k < n; k++)); do
		[[ "${RECORDS[k]}" == *'"code":"decl-mismatch"'* ]] || {
			echo "missed: ${pairs[k]/ / + } root"; bad=$((bad + 1)); }
	done
	[ "$bad" = 0 ]
}

@test "BOM contradicted: the message says what the bytes look like and what they declare" {
	{ bom UTF-16BE; printf '%s' "$DECL"; } > f.xml
	xs f.xml
	assert_success
	assert_output 'f.xml: UTF-16BE (BOM), no declaration, 1 error'
	stderr_has 'f.xml:1:1: error: the UTF-16BE BOM is followed by an 8-bit (ASCII-compatible) XML declaration declaring "utf-8", not by UTF-16BE bytes'
	stderr_has '[decl-mismatch]'
	{ bom UTF-16BE; layout UTF-16LE "$ROOT"; } > g.xml
	xs g.xml
	stderr_has 'the UTF-16BE BOM is followed by UTF-16LE characters (zero bytes between them)'
	{ bom UTF-8; layout UTF-32LE "$DECL"; } > h.xml
	xs h.xml
	stderr_has 'the UTF-8 BOM is followed by a 32-bit little-endian XML declaration'
	xs --strict f.xml
	assert_failure 1
}

@test "BOM contradicted: the consistent cases stay silent" {
	{ bom UTF-16BE; layout UTF-16BE '<a>中文</a>'; } > a.xml
	{ bom UTF-16LE; layout UTF-16LE '中文<a/>'; } > b.xml
	{ bom UTF-8; printf '<a>\303\251</a>'; } > c.xml
	{ bom UTF-32LE; layout UTF-32LE "$ROOT"; } > d.xml
	for f in a b c d; do
		xs --json $f.xml
		lacks decl-mismatch
	done
}

@test "BOM contradicted: a transcode is refused in every direction, nothing written, --strict or not" {
	local b l t bad=0
	for b in UTF-16BE UTF-16LE UTF-8 UTF-32LE; do
		for l in 8 UTF-16LE UTF-16BE; do
			fits "$b" "$l" && continue
			{ bom "$b"; layout "$l" "$DECL"; } > in.xml
			for t in UTF-8 UTF-16 ISO-8859-1; do
				rm -f out.xml
				xs --transcode-to=$t -o out.xml in.xml
				[ "$status" = 1 ] && [ ! -e out.xml ] &&
				    [[ "$stderr" == *"not transcoded: the bytes after the BOM contradict it"* ]] || {
					echo "$b + $l -> $t: $status $stderr"; bad=$((bad + 1)); }
			done
		done
	done
	[ "$bad" = 0 ]
}

@test "BOM contradicted: --in-place leaves the file as it was; standard output gets nothing" {
	{ bom UTF-16BE; printf '%s' "$DECL"; } > in.xml
	cp in.xml orig.xml
	xs --transcode-to=UTF-8 --in-place in.xml
	assert_failure 1
	cmp in.xml orig.xml
	xs --transcode-to=UTF-8 < in.xml
	assert_failure 1
	assert_output ''
	xs --strict --transcode-to=UTF-8 -o out.xml in.xml
	assert_failure 1
	[ ! -e out.xml ]
}

@test "BOM contradicted: W3C-style FE FF before an 8-bit declaration of odd length" {
	{ bom UTF-16BE; printf "<?xml version='1.0' encoding='utf-8'?>\n<doc/>\n"; } > f.xml
	xs --json f.xml
	has decl-mismatch
}

# --- 2. bom-forbidden beside a contradiction --------------------------------

@test "bom-forbidden and decl-mismatch both: a byte-order declaration that also contradicts the BOM" {
	local b d bad=0
	for b in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		for d in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
			[ "$b" = "$d" ] && continue
			# Only the declarations that can be read in the BOM's layout.
			[ "${b%??}" = "${d%??}" ] || continue
			{ bom "$b"; layout "$b" "<?xml version=\"1.0\" encoding=\"$d\"?><a/>"; } > f.xml
			xs --json f.xml
			[[ "$output" == *'"code":"bom-forbidden"'* &&
			    "$output" == *'"code":"decl-mismatch"'* ]] || {
				echo "$b declared $d: $output"; bad=$((bad + 1)); }
		done
	done
	[ "$bad" = 0 ]
}

@test "bom-forbidden and decl-mismatch both: a UTF-8 BOM declared UTF-16LE" {
	{ bom UTF-8; printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > f.xml
	xs --json f.xml
	has bom-forbidden
	has decl-mismatch
}

@test "bom-forbidden and bom-charset-conflict both: a byte-order charset that contradicts the BOM" {
	local b c bad=0
	for b in UTF-16LE UTF-16BE UTF-32LE UTF-32BE UTF-8; do
		for c in utf-16le utf-16be utf-32le utf-32be; do
			[ "$b" = "${c^^}" ] && continue
			{ bom "$b"; layout "$b" '<a/>'; } > f.xml
			xs --json --content-type="application/xml; charset=$c" f.xml
			[[ "$output" == *'"code":"bom-forbidden"'* &&
			    "$output" == *'"code":"bom-charset-conflict"'* ]] || {
				echo "$b with $c: $output"; bad=$((bad + 1)); }
		done
	done
	[ "$bad" = 0 ]
}

@test "bom-forbidden alone when the byte-order label fits the BOM" {
	{ bom UTF-16LE; layout UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > f.xml
	xs --json f.xml
	has bom-forbidden
	lacks decl-mismatch
	xs --json --content-type='application/xml; charset=utf-16le' f.xml
	has bom-forbidden
	lacks bom-charset-conflict
}

# --- 6. a declaration the bytes refute: an error only without a charset ----
# XML 1.0 section 4.3.3 makes a declaration that does not match the encoding
# fatal only "in the absence of information provided by an external
# transport protocol" (issue 29, item 10).  These tests asserted
# decl-mismatch whatever the charset said; with a charset, the declaration
# is now judged against it alone: charset-decl-conflict, a warning.

@test "decl vs BOM: an error without a charset, a warning with one that agrees with the BOM" {
	# expat's test_ext_entity_set_bom: a UTF-8 BOM, encoding='iso-8859-3',
	# charset=utf-8, then U+00E9 in UTF-8.
	printf '\357\273\277<?xml encoding='"'"'iso-8859-3'"'"'?>\303\251' > e.ent
	xs --json e.ent
	has decl-mismatch
	xs --json --content-type='text/xml; charset=utf-8' e.ent
	assert_success
	has charset-decl-conflict
	lacks decl-mismatch
	assert_output --partial '"errors":0,"warnings":2'
	xs --strict --content-type='text/xml; charset=utf-8' e.ent
	assert_success
	assert_output 'e.ent: UTF-8 (BOM), declared "iso-8859-3", charset "utf-8", 2 warnings'
	stderr_has 'e.ent:1:17: warning: the charset parameter "utf-8" and the declaration "iso-8859-3" disagree; the BOM decides (UTF-8)'
	xs --strict e.ent
	assert_failure 1
	stderr_has 'error: declared "iso-8859-3" but the UTF-8 BOM wins'
}

@test "decl vs BOM with a charset: every BOM, the charset naming the BOM's encoding" {
	local b bad=0
	for b in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		{ bom "$b"; layout "$b" '<?xml version="1.0" encoding="ISO-8859-1"?><a/>'; } > f.xml
		xs --json --content-type="application/xml; charset=${b%??}" f.xml
		[[ "$output" != *'"code":"decl-mismatch"'* &&
		    "$output" == *'"severity":"warning","code":"charset-decl-conflict"'* ]] || {
			echo "$b: $output"; bad=$((bad + 1)); }
	done
	[ "$bad" = 0 ]
}

@test "decl vs BOM with a charset that agrees with the declaration: the charset is the error" {
	{ bom UTF-8; printf '<?xml version="1.0" encoding="Shift_JIS"?><a/>'; } > f.xml
	xs --json --content-type='text/xml; charset=shift_jis' f.xml
	has bom-charset-conflict
	lacks decl-mismatch
	lacks charset-decl-conflict
	xs --strict --content-type='text/xml; charset=shift_jis' f.xml
	assert_failure 1
	stderr_has '[bom-charset-conflict]'
}

@test "decl vs byte pattern: an error without a charset, a warning with one" {
	local d
	for d in UTF-16 UTF-32LE; do
		printf '<?xml version="1.0" encoding="%s"?><a/>' "$d" > f.xml
		xs --json f.xml
		has decl-mismatch
		xs --json --content-type='application/xml; charset=iso-8859-1' f.xml
		lacks decl-mismatch
		has charset-decl-conflict
		xs --strict --content-type='application/xml; charset=iso-8859-1' f.xml
		assert_success
	done
	layout UTF-16LE '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > g.xml
	xs --json --content-type='application/xml; charset=utf-16le' g.xml
	lacks decl-mismatch
	has charset-decl-conflict
	layout UTF-32BE '<?xml version="1.0" encoding="UTF-8"?><a/>' > h.xml
	xs --json --content-type='application/xml; charset=utf-32be' h.xml
	lacks decl-mismatch
	has charset-decl-conflict
	# A charset the bytes refute is the label's fault: suspicious-label.
	printf '<?xml version="1.0" encoding="UTF-16"?><a/>' > i.xml
	xs --json --content-type='application/xml; charset=utf-16' i.xml
	lacks decl-mismatch
	has suspicious-label
}

@test "charset-decl-conflict stays a warning when the declaration could be right" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' > f.xml
	xs --json --content-type='application/xml; charset=windows-1252' f.xml
	has charset-decl-conflict
	lacks decl-mismatch
	xs --strict --content-type='application/xml; charset=windows-1252' f.xml
	assert_success
	{ bom UTF-16LE; layout UTF-16LE '<?xml version="1.0" encoding="UTF-16"?><a/>'; } > g.xml
	xs --json --content-type='application/xml; charset=utf-8' g.xml
	has bom-charset-conflict
	lacks decl-mismatch
}

# --- 5. "<?xml" after the start ---------------------------------------------

# late_want WANT WHAT: the JSON report in $output has decl-not-at-start
# (WANT 1) or not (0); else say which of WHAT, and fail.
late_want() {
	if [ "$1" = 1 ]; then
		[[ "$output" == *'"code":"decl-not-at-start"'* ]] || {
			echo "missed in $2"; return 1; }
	else
		[[ "$output" != *'"code":"decl-not-at-start"'* ]] || {
			echo "false alarm in $2"; return 1; }
	fi
}

# late_case LAYOUT TEXT WANT: TEXT in LAYOUT (behind a BOM for the Unicode
# forms) draws decl-not-at-start (WANT 1) or not (0), when late_run reads
# it with the others.
late_case() {
	{ [ "$1" = 8 ] || bom "$1"; layout "$1" "$2"; } > "late${#LATE[@]}.xml"
	late_add "$3" "$1: $2"
}

# late_add WANT WHAT: the file just written, late${#LATE[@]}.xml, is to
# draw decl-not-at-start (WANT 1) or not (0); WHAT says which case it is.
LATE=()
late_add() {
	LATE+=("$1 $2")
}

# late_run: the files of late_add read by one run of the binary (xs --json:
# a record a line, in their order), each checked with late_want; each
# that disagrees is said and counted in bad.
late_run() {
	local k n=${#LATE[@]}
	xs --json $(seq -f 'late%g.xml' 0 $((n - 1)))
	[ "${#lines[@]}" -eq "$n" ] || {
		echo "$n files, ${#lines[@]} records"; bad=$((bad + 1)); }
	for ((k = 0; k < n; k++)); do
		output=${lines[k]-}
		[[ $output == "{\"file\":\"late$k.xml\","* ]] || {
			echo "no record of ${LATE[k]#* }: $output"
			bad=$((bad + 1)); continue; }
		late_want "${LATE[k]%% *}" "${LATE[k]#* }" || bad=$((bad + 1))
	done
	LATE=()
}

@test "late declaration: after a DOCTYPE, after the root, twice in a row, in every layout" {
	local l bad=0
	for l in 8 UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
		late_case $l '<!DOCTYPE a><?xml version="1.0"?><a/>' 1 || bad=$((bad + 1))
		late_case $l '<?xml version="1.0"?><?xml version="1.0"?><a/>' 1 || bad=$((bad + 1))
		late_case $l '<?xml version="1.0"?><a/>
<?xml version="1.0"?>' 1 || bad=$((bad + 1))
		late_case $l '<a/><?xml?>' 1 || bad=$((bad + 1))
		late_case $l '<a>text<?xml	version="1.0"?></a>' 1 || bad=$((bad + 1))
		late_case $l '<!DOCTYPE a [<!ENTITY e "x">]><?xml version="1.0"?><a/>' 1 || bad=$((bad + 1))
	done
	late_run
	[ "$bad" = 0 ]
}

@test "late declaration: text, not markup, inside comments, CDATA sections, PIs and literals" {
	local l bad=0
	for l in 8 UTF-16LE UTF-32BE; do
		late_case $l '<?xml version="1.0"?><a><![CDATA[<?xml version="1.0"?>]]></a>' 0 || bad=$((bad + 1))
		late_case $l '<?xml version="1.0"?><!-- <?xml version="1.0"?> --><a/>' 0 || bad=$((bad + 1))
		late_case $l '<?xml version="1.0"?><?pi <?xml version="1.0"?><a/>' 0 || bad=$((bad + 1))
		late_case $l '<!DOCTYPE a [<!ENTITY e "<?xml version=\"1.0\"?>">]><a/>' 0 || bad=$((bad + 1))
		late_case $l '<a t=">"><?xml-stylesheet href="s"?><?xmlfoo?></a>' 0 || bad=$((bad + 1))
		late_case $l '<?xml version="1.0"?><a/>' 0 || bad=$((bad + 1))
	done
	late_run
	[ "$bad" = 0 ]
}

@test "late declaration: single-byte and EBCDIC encodings" {
	need_iconv IBM037
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a><?xml version="1.0"?>' > a.xml
	xs --json a.xml
	has decl-not-at-start
	{ printf '<?xml version="1.0" encoding="IBM037"?>\n<a/>\n<?xml version="1.0"?>'; } |
	    iconv -f UTF-8 -t IBM037 > b.xml
	xs b.xml
	stderr_has 'b.xml:3:1: error: an XML declaration after the start of the entity'
	printf '<?xml version="1.0" encoding="Shift_JIS"?><a>\x93\xfa</a><?xml version="1.0"?>' > c.xml
	xs --json c.xml
	has decl-not-at-start
}

# ebcdic_late PAGE TEXT WANT: TEXT after a declaration of PAGE, in PAGE,
# for late_run.
ebcdic_late() {
	printf '<?xml version="1.0" encoding="%s"?>%s' "$1" "$2" |
	    iconv -f UTF-8 -t "$1" > "late${#LATE[@]}.xml" || return 1
	late_add "$3" "$1: $2"
}

@test "late declaration: EBCDIC markup is read in the page's own '!', '[' and ']'" {
	local e bad=0
	# '!' is 5A in IBM037 and IBM1047 but 4F in IBM500 and IBM273; none
	# of '!', '[', ']' is an invariant (XML 1.0 Appendix F.1).
	for e in IBM037 IBM500 IBM1047 IBM273 IBM277 IBM871; do
		need_iconv $e
		ebcdic_late $e '<!-- <?xml version="1.0"?> --><a/>' 0 || bad=$((bad + 1))
		ebcdic_late $e '<a><![CDATA[<?xml version="1.0"?>]]></a>' 0 || bad=$((bad + 1))
		ebcdic_late $e '<!D`TYl<?xml vers	<D/>' 0 || bad=$((bad + 1))
		ebcdic_late $e '<?pi <?xml version="1.0"?><a/>' 0 || bad=$((bad + 1))
		ebcdic_late $e '<!DOCTYPE a [<!ENTITY e "x">]><?xml version="1.0"?><a/>' 1 || bad=$((bad + 1))
		ebcdic_late $e '<a><![CDATA[x]]></a><?xml version="1.0"?>' 1 || bad=$((bad + 1))
		ebcdic_late $e '<!-- x --><?xml version="1.0"?><a/>' 1 || bad=$((bad + 1))
	done
	late_run
	[ "$bad" = 0 ]
	# The same text in UTF-8 and in IBM037 gets the same answer.
	printf '<!D`TYl<?xml vers\t\n<D/>' > u.xml
	xs --json u.xml
	lacks decl-not-at-start
}

@test "late declaration: multi-byte encodings are lexed from their characters, not their bytes" {
	need_iconv Shift_JIS
	need_iconv BIG5
	need_iconv GBK
	need_iconv ISO-2022-JP
	local e c bad=0 decl n
	# A character whose trail byte is ']' (5D) before "]>" ends no CDATA
	# section: ゾ in Shift_JIS, 也 in Big5, 乚 in GBK.
	for e in Shift_JIS:ゾ BIG5:也 GBK:乚; do
		c=${e#*:}
		e=${e%%:*}
		printf '<?xml version="1.0" encoding="%s"?><a><![CDATA[%s]><?xml version="1.0"?>]]></a>' "$e" "$c" |
		    iconv -f UTF-8 -t "$e" > m.xml
		xs --json m.xml
		[[ "$output" != *'"code":"decl-not-at-start"'* ]] || {
			echo "false alarm in $e"; bad=$((bad + 1)); }
		printf '<?xml version="1.0" encoding="%s"?><a><![CDATA[%s]>]]></a>\n<?xml version="1.0"?>' "$e" "$c" |
		    iconv -f UTF-8 -t "$e" > m.xml
		n=$(($(wc -c < m.xml) - 21))
		xs --json m.xml
		[[ "$output" == *"\"code\":\"decl-not-at-start\",\"offset\":$n,\"line\":2,\"column\":1"* ]] || {
			echo "missed in $e: $output"; bad=$((bad + 1)); }
	done
	[ "$bad" = 0 ]
	# In ISO-2022-JP the bytes of 次帖 are "<!D!": no markup declaration
	# that would hide the declaration after them.
	decl='<?xml version="1.0" encoding="ISO-2022-JP"?><a>'
	printf '%s次帖</a>' "$decl" | iconv -f UTF-8 -t ISO-2022-JP > j.xml
	n=$(wc -c < j.xml)
	printf '<?xml version="1.0"?>' >> j.xml
	xs --json j.xml
	assert_output --partial "\"code\":\"decl-not-at-start\",\"offset\":$n,\"line\":1,\"column\":$((${#decl} + 7))"
	# ... and no comment that would hide it.
	printf '%s\x1b$B\x3c\x21\x2d\x2d\x1b(B<?xml version="1.0"?></a>' "$decl" > k.xml
	xs --json k.xml
	has decl-not-at-start
}

# every_family TEXT WANT: TEXT after a declaration, in each family of
# decoder that lexes markup (bytes, 16- and 32-bit units, a single-byte
# map, EBCDIC, characters decoded by iconv), draws decl-not-at-start
# (WANT 1) or not (0); prints the families that disagree.
every_family() {
	local e fams=()
	for e in UTF-8 UTF-16LE UTF-16BE UTF-32LE UTF-32BE ISO-8859-1 \
	    windows-1252 IBM037 IBM500 Shift_JIS EUC-JP GB18030 BIG5 \
	    ISO-2022-JP; do
		enc "$e" '<?xml version="1.0" encoding="%s"?>%s' "$e" "$1" \
		    > "e-$e.xml" || { echo "iconv $e"; continue; }
		fams+=("$e")
	done
	each_family "$1" "$2" e "${fams[@]}"
}

# each_family TEXT WANT PREFIX ENCODING...: the files PREFIX-ENCODING.xml
# read by one run of the binary (a --json record a line, in their order),
# each drawing decl-not-at-start (WANT 1) or not (0); prints the families
# that disagree.
each_family() {
	local text=$1 want=$2 pre=$3 e k records files=()
	shift 3
	for e in "$@"; do
		files+=("$pre-$e.xml")
	done
	mapfile -t records < <("$XMLSNIFF" --json "${files[@]}" 2> /dev/null)
	[ "${#records[@]}" -eq $# ] || echo "$# families, ${#records[@]} records"
	k=0
	for e in "$@"; do
		output=${records[k]}
		[[ $output == "{\"file\":\"$pre-$e.xml\","* ]] ||
		    echo "$e: the record of another file: $output"
		late_want "$want" "$e: $text" || true
		k=$((k + 1))
	done
}

# bad_family TEXT WANT: TEXT (printf escapes: ASCII and bytes that are
# illegal in every encoding below) after a declaration, in UTF-8 (whose
# markup is lexed from bytes) and in the multi-byte encodings lexed from
# decoded characters, draws decl-not-at-start (WANT 1) or not (0).
bad_family() {
	local e fams=()
	for e in UTF-8 Shift_JIS EUC-JP GB18030 BIG5 ISO-2022-JP; do
		printf '<?xml version="1.0" encoding="%s"?>\n' "$e" > "b-$e.xml"
		printf "$1" >> "b-$e.xml"
		fams+=("$e")
	done
	each_family "$1" "$2" b "${fams[@]}"
}

@test "late declaration: an illegal sequence inside markup is a character that is no markup, in every family" {
	local e out=
	for e in Shift_JIS EUC-JP GB18030 BIG5 ISO-2022-JP; do
		need_iconv $e
	done
	# 80 is illegal alone in all of them: it breaks "<?xml", "<?" and
	# "xml " alike, as a letter would.
	out+=$(bad_family '<r><?xm\x80l ?><?xml\x80 ?></r>' 0)$'\n'
	out+=$(bad_family '<r><\x80?xml ?></r>' 0)$'\n'
	out+=$(bad_family '<r/><!\x80-- --><?xml ?>' 1)$'\n'
	out+=$(bad_family '<r/><!-\x80- <?xml ?> -->' 0)$'\n'
	out+=$(bad_family '<r>\x80<?xml ?></r>' 1)$'\n'
	out+=$(bad_family '<r><?pi \x80?><?xml ?></r>' 1)$'\n'
	out+=$(bad_family '<r><?pi ?\x80><?xml ?></r>' 0)$'\n'
	[ -z "${out//$'\n'}" ] || { echo "$out"; return 1; }
}

@test "late declaration: a tag is read as character data in every family, a '<' in it beginning the next markup" {
	local e out=
	for e in Shift_JIS EUC-JP GB18030 BIG5 ISO-2022-JP IBM037 IBM500; do
		need_iconv $e
	done
	# A '<' in a quoted value or in a tag begins a PI that hides the
	# declaration after it (the entity is not well-formed either way,
	# XML 1.0 [10], [40]; the answer is the same in every encoding).
	out+=$(every_family '<a b="<?pi"><?xml version="1.0"?></a>' 0)$'\n'
	out+=$(every_family "<a/><C
/<?ppi x?pi yU?U>6TH<?xml version='1.0'?>" 0)$'\n'
	out+=$(every_family '<a/><b c="<"><?xml version="1.0"?></b>' 1)$'\n'
	# "<<?xml": the second '<' begins the declaration.
	out+=$(every_family '<a/><<?xml version="1.0"?>' 1)$'\n'
	out+=$(every_family '<a/>< <?xml version="1.0"?>' 1)$'\n'
	out+=$(every_family '<a t=">" u='"'"'<!--'"'"'><?xml version="1.0"?></a>' 0)$'\n'
	out+=$(every_family '<a t=">"><?xml version="1.0"?></a>' 1)$'\n'
	out+=$(every_family '<!DOCTYPE a [<!ATTLIST a b CDATA "<?xml ?>">]><a/>' 0)$'\n'
	out+=$(every_family '<!DOCTYPE a [<!ATTLIST a b CDATA "x">]><a/><?xml ?>' 1)$'\n'
	[ -z "${out//$'\n'}" ] || { echo "$out"; return 1; }
}

@test "late declaration: position, count, and the first one reported" {
	printf '<?xml version="1.0"?>\n<a>\n\303\251\303\251<?xml version="1.0"?>\n</a><?xml?>' > f.xml
	xs --json f.xml
	assert_output --partial '"code":"decl-not-at-start","offset":30,"line":3,"column":3,"count":2'
	xs f.xml
	stderr_has 'f.xml:3:3: error: an XML declaration after the start of the entity: "<?xml" may stand only at the very beginning (XML 1.0 [22], [23]; the target "xml" is reserved, [17]); remove it (2 times) [decl-not-at-start]'
}

@test "late declaration: after white space it is reported once" {
	printf '  \n<?xml version="1.0"?><a/>' > f.xml
	xs --json f.xml
	assert_output --partial '"code":"decl-not-at-start","offset":3,"line":2,"column":1,"count":1'
}

@test "late declaration: found across read buffers, from a file and a pipe alike" {
	local big
	{ printf '<?xml version="1.0"?>\n<a>'; head -c 1500000 /dev/zero | tr '\0' x
	    printf '</a>\n<?xml version="1.0"?>'; } > f.xml
	xs --json f.xml
	assert_output --partial '"code":"decl-not-at-start","offset":1500030,"line":3,"column":1'
	big=$output
	run_apart bash -c "cat f.xml | '$XMLSNIFF' --json -"
	assert_equal "${output#*\"encoding\"}" "${big#*\"encoding\"}"
	# A comment open across a whole read buffer hides what is in it.
	{ printf '<?xml version="1.0"?>\n<a><!--'; head -c 1500000 /dev/zero | tr '\0' x
	    printf '<?xml version="1.0"?>--></a>'; } > g.xml
	xs --json g.xml
	lacks decl-not-at-start
	{ printf '<?xml version="1.0"?>\n<a><![CDATA['; head -c 700000 /dev/zero | tr '\0' x
	    printf '<?xml version="1.0"?>]]></a>'; } > h.xml
	xs --json h.xml
	lacks decl-not-at-start
}

@test "late declaration: splits of a small entity give the same answer" {
	local i want got bad=0
	printf '<?xml version="1.0"?><!-- c --><a><![CDATA[<?xml ?>]]></a><?xml version="1.0"?>' > f.xml
	xs --json f.xml
	want=$output
	has decl-not-at-start
	for i in 1 13 62; do
		got=$(cat f.xml | dd bs=$i 2>/dev/null | "$XMLSNIFF" --json - 2>/dev/null)
		[ "${got#*\"encoding\"}" = "${want#*\"encoding\"}" ] || bad=$((bad + 1))
	done
	[ "$bad" = 0 ]
}

@test "late declaration: splits give the same answer in EBCDIC and a multi-byte encoding" {
	local e c i want got bad=0
	for e in IBM500:é Shift_JIS:次; do
		c=${e#*:}
		e=${e%%:*}
		need_iconv $e
		printf '<?xml version="1.0" encoding="%s"?><!-- c --><a>%s<![CDATA[<?xml ?>]]></a><?xml version="1.0"?>' "$e" "$c" |
		    iconv -f UTF-8 -t $e > f.xml
		xs --json f.xml
		want=$output
		[[ "$want" == *'"code":"decl-not-at-start"'* ]] || { echo "missed in $e"; bad=$((bad + 1)); }
		for i in 1 21 64; do
			got=$(cat f.xml | dd bs=$i 2>/dev/null | "$XMLSNIFF" --json - 2>/dev/null)
			[ "${got#*\"encoding\"}" = "${want#*\"encoding\"}" ] || { echo "$e split $i: $got"; bad=$((bad + 1)); }
		done
		XMLSNIFF_SIMD=ref xs --json f.xml
		assert_equal "$output" "$want"
	done
	[ "$bad" = 0 ]
}

@test "late declaration: multi-byte blocks decoded at once give the offsets of a character at a time" {
	local e k want
	for e in Shift_JIS GB18030; do
		need_iconv $e
		# "<?xm" then bytes that decode to nothing, then the rest.
		printf '<?xm\377\377l encoding="x"?><a/>' > f.xml
		XMLSNIFF_SIMD=ref xs --json --content-type="text/xml; charset=$e" f.xml
		want=$output
		xs --json --content-type="text/xml; charset=$e" f.xml
		assert_equal "$output" "$want"
		# A late declaration across every block boundary near 4096.
		for k in 4093 4096; do
			{ printf '<?xml version="1.0" encoding="%s"?><a>' "$e"
			    head -c $((k - 46 - ${#e})) /dev/zero | tr '\0' x
			    printf '</a><?xml version="1.0"?>'; } > g.xml
			XMLSNIFF_SIMD=ref xs --json g.xml
			want=$output
			has decl-not-at-start
			xs --json g.xml
			assert_equal "$output" "$want"
		done
	done
}

@test "late declaration: a transcode with --strict is refused" {
	printf '<a/><?xml version="1.0"?>' > f.xml
	xs --strict --transcode-to=UTF-16 -o out.xml f.xml
	assert_failure 1
	[ ! -e out.xml ]
}

# --- 11. U+FEFF in a document's prolog ----------------------------------------

@test "bom-in-prolog: a second BOM before the root element of a document, in every Unicode form" {
	local f bad=0
	for f in UTF-8 UTF-16BE UTF-16LE UTF-32BE UTF-32LE; do
		{ bom "$f"; bom "$f"; layout "$([ $f = UTF-8 ] && echo 8 || echo $f)" '<doc/>'; } > d.xml
		xs --json d.xml
		[[ "$output" == *'"code":"bom-in-prolog"'* ]] || {
			echo "$f: $output"; bad=$((bad + 1)); }
	done
	[ "$bad" = 0 ]
}

@test "bom-in-prolog: an error with a position, after a declaration, comment or white space too" {
	printf '\357\273\277\357\273\277<doc/>' > a.xml
	xs a.xml
	assert_output 'a.xml: UTF-8 (BOM), no declaration, 1 error, 1 warning'
	stderr_has 'a.xml:1:1: error: a U+FEFF before the root element'
	stderr_has '[bom-in-prolog]'
	xs --strict a.xml
	assert_failure 1
	printf '<?xml version="1.0"?>\n\357\273\277<doc/>' > b.xml
	xs --json b.xml
	assert_output --partial '"code":"bom-in-prolog","offset":22,"line":2,"column":1'
	lacks bad-declaration
	printf '<!-- c -->\n \357\273\277<doc/>' > c.xml
	xs --json c.xml
	has bom-in-prolog
}

@test "bom-in-prolog: content of an external parsed entity, or inside the root, is fine" {
	printf '\357\273\277\357\273\277<doc/>' > e.ent
	xs --json e.ent
	lacks bom-in-prolog
	assert_output --partial '"errors":0'
	cp e.ent e.xml
	xs --json --content-type='application/xml-external-parsed-entity' e.xml
	lacks bom-in-prolog
	printf '<doc>\357\273\277</doc>' > f.xml
	xs --json f.xml
	lacks bom-in-prolog
	printf '<?xml version="1.0" encoding="UTF-8"?>\357\273\277text' > g.ent
	xs --json g.ent
	lacks bom-in-prolog
}

@test "bom-in-prolog: with <?xml after it, decl-not-at-start is reported too" {
	printf '\357\273\277\357\273\277<?xml version="1.0"?><a/>' > f.xml
	xs --json f.xml
	has bom-in-prolog
	has decl-not-at-start
}

@test "bom-in-prolog: a transcode keeps the character (behind a BOM in UTF-8), and --strict refuses" {
	printf '\357\273\277\357\273\277<doc/>' > f.xml
	xs --transcode-to=UTF-8 -o out.xml f.xml
	assert_success
	[ "$(hexof out.xml)" = "efbbbfefbbbf3c646f632f3e" ]
	xs --strict --transcode-to=UTF-8 -o out2.xml f.xml
	assert_failure 1
	[ ! -e out2.xml ]
}

# --- 14. clauses and words ------------------------------------------------------

@test "messages: utf32 cites RFC 7303 section 2.2, utf8-bom does not misquote section 3.3" {
	{ bom UTF-32LE; layout UTF-32LE '<?xml version="1.0" encoding="UTF-32"?><a/>'; } > a.xml
	xs a.xml
	stderr_has 'UTF-32 is NOT RECOMMENDED for XML (RFC 7303 section 2.2)'
	printf '\357\273\277<a/>' > b.xml
	xs b.xml
	stderr_lacks 'recommends none'
	stderr_has 'Unicode neither requires nor recommends one for UTF-8'
}

@test "messages: one multi-byte sequence is singular" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\303\251</a>' > f.xml
	xs f.xml
	stderr_has '(1 multi-byte sequence);'
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\303\251\303\251</a>' > g.xml
	xs g.xml
	stderr_has '(2 multi-byte sequences);'
}

@test "messages: C1 controls under ISO-8859-n name the code page and the multi-byte possibility" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\x93\xfa\x96\x7b</a>' > f.xml
	xs f.xml
	stderr_has 'C1 control U+0093 under ISO-8859-1 (XML 1.0 section 2.2 discourages C1 controls)'
	stderr_has 'such as windows-1252 or a multi-byte one (Shift_JIS, GBK, Big5)'
	printf '<?xml version="1.0" encoding="ISO-8859-5"?><a>\x85</a>' > g.xml
	xs g.xml
	stderr_has 'such as windows-1251'
}

@test "messages: a '[' of <![CDATA[ that the target lacks is said to be there, not in a declaration" {
	need_iconv DIN_66003 to
	printf '<a><![CDATA[x]]></a>' > f.xml
	xs --transcode-to=DIN_66003 -o out.xml f.xml
	assert_failure 1
	[ ! -e out.xml ]
	stderr_has 'f.xml:1:6: error: U+005B in the opening "<![CDATA[" of a CDATA section cannot be written in DIN_66003, and XML allows no character reference there'
}

@test "messages: a UTF-32 transcode cites RFC 7303 section 2.2" {
	printf '<a/>' > f.xml
	xs --transcode-to=UTF-32 -o out.xml f.xml
	assert_success
	stderr_has 'which is NOT RECOMMENDED for XML (RFC 7303 section 2.2) [utf32]'
}

# Found by fuzzing: the validator is fed up to each late declaration, and
# what it held back there, or at the end, must still be judged.

@test "late declaration right after the start of a character the '<' cannot finish: still illegal, and the rest checked" {
	printf '<a>x\341<?xml version="1.0"?>\001</a>' > u8.xml
	xs --json u8.xml
	assert_output --partial '"code":"illegal-sequence","offset":4,"line":1,"column":5,"count":1'
	assert_output --partial '"code":"decl-not-at-start","offset":5,"line":1,"column":6'
	assert_output --partial '"code":"illegal-char","offset":26,"line":1,"column":27'
	{ printf '\377\376'; layout UTF-16LE '<a>'; printf '\000\330'
	    layout UTF-16LE '<?xml version="1.0"?>'; printf '\001\000'; } > u16.xml
	xs --json u16.xml
	assert_output --partial '"code":"illegal-sequence","offset":8,"line":1,"column":4'
	assert_output --partial '"code":"decl-not-at-start","offset":10,"line":1,"column":5'
	assert_output --partial '"code":"illegal-char"'
	printf '<?xml version="1.0" encoding="Shift_JIS"?><a>\202<?xml version="1.0"?>\001</a>' > sj.xml
	xs --json sj.xml
	assert_output --partial '"code":"illegal-sequence","offset":45,"line":1,"column":46'
	assert_output --partial '"code":"decl-not-at-start","offset":46,"line":1,"column":47'
	assert_output --partial '"code":"illegal-char"'
	run_apart env XMLSNIFF_SIMD=ref "$XMLSNIFF" --json u8.xml
	want=$output
	xs --json u8.xml
	assert_equal "$output" "$want"
}

@test "late declaration, then an odd last byte of UTF-16: the truncation is still found" {
	{ printf '\377\376'; layout UTF-16LE '<a/><?xml version="1.0"?>'; printf '<'; } > f.xml
	xs --json f.xml
	has decl-not-at-start
	assert_output --partial '"code":"illegal-sequence","offset":52,'
	assert_output --partial 'the file is truncated'
}

@test "late declaration: a transcode of an entity with one still finds every error" {
	printf '<a>x\341<?xml version="1.0"?></a>' > f.xml
	xs --transcode-to=UTF-16 -o out.xml f.xml
	assert_failure 1
	[ ! -e out.xml ]
	stderr_has 'bytes E1 are not valid in UTF-8'
}

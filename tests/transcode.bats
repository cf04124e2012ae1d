#!/usr/bin/env bats
# --transcode-to (TRANSCODING in xmlsniff(1)), with the BOM and declaration
# rules of RFC 7303 section 3.3 and XML 1.0 section 4.3.3.  Every output is
# checked byte by byte against bytes built here with printf and iconv(1).
load helper

setup() {
	T=$BATS_TEST_TMPDIR
}

# u8to ENC: standard input (UTF-8) to ENC through iconv(1).
u8to() {
	iconv -f UTF-8 -t "$1"
}

# _into OUT ARGS...: xmlsniff ARGS with standard output into OUT.
_into() {
	local out=$1
	shift
	"$XMLSNIFF" "$@" > "$out"
}

# xs_to OUT ARGS...: like xs, but standard output (bytes that a shell
# variable cannot hold) goes to the file OUT; $stderr and $status as usual.
xs_to() {
	run_apart _into "$@"
}

# no_temp DIR: no temporary file of a transcode is left in DIR.
no_temp() {
	local left
	left=$(find "$1" -maxdepth 1 -name '.*.xmlsniff-*')
	[ -z "$left" ] || fail "temporary files left behind: $left"
}

# mode_of FILE: the permission bits, octal.
mode_of() {
	stat -c %a "$1"
}

# The sample entity of the target-rules matrix: a declaration naming
# LABEL, then TEXT (printf escapes, UTF-8) in an element and an attribute.
sample() {
	printf '<?xml version="1.0" encoding="%s"?>\n<doc a="x">'"$2"'</doc>\n' "$1"
}

# encoded LABEL TEXT ENC: the sample of LABEL and TEXT in ENC (sample |
# u8to ENC), made by iconv once for the file and kept as a printf format:
# the matrix asks for each of them many times.
encoded() {
	local f=$BATS_FILE_TMPDIR/sample-$1-$3-${2//[!A-Za-z0-9]/_} fmt
	if [ ! -f "$f" ]; then
		sample "$1" "$2" | u8to "$3" > "$f.$$" &&
		    { fmt_of < "$f.$$" && echo; } > "$f.$$.fmt" &&
		    mv -f "$f.$$.fmt" "$f" || return 1
		rm -f "$f.$$"
	fi
	read -r fmt < "$f"
	printf "$fmt"
}

# family NAME: set F_BOM (hex), F_DECL (declared label), F_ICONV (how the
# body is encoded), F_TEXT (content it can hold) and F_OTHER/F_OTHER_ICONV
# (a target outside the UTF family that can hold F_TEXT).
family() {
	local uni='caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80'
	local latin='caf\xc3\xa9 \xc3\xb1'
	local jp='\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e'

	F_BOM= F_TEXT=$uni F_OTHER=GB18030 F_OTHER_ICONV=GB18030
	case $1 in
	utf8)		F_DECL=UTF-8 F_ICONV=UTF-8 ;;
	utf8bom)	F_DECL=UTF-8 F_ICONV=UTF-8 F_BOM=efbbbf ;;
	utf16le-bom)	F_DECL=UTF-16 F_ICONV=UTF-16LE F_BOM=fffe ;;
	utf16be-bom)	F_DECL=UTF-16 F_ICONV=UTF-16BE F_BOM=feff ;;
	utf16le)	F_DECL=UTF-16LE F_ICONV=UTF-16LE ;;
	utf16be)	F_DECL=UTF-16BE F_ICONV=UTF-16BE ;;
	utf32be-bom)	F_DECL=UTF-32 F_ICONV=UTF-32BE F_BOM=0000feff ;;
	utf32le-bom)	F_DECL=UTF-32 F_ICONV=UTF-32LE F_BOM=fffe0000 ;;
	utf32be)	F_DECL=UTF-32BE F_ICONV=UTF-32BE ;;
	utf32le)	F_DECL=UTF-32LE F_ICONV=UTF-32LE ;;
	latin1)		F_DECL=ISO-8859-1 F_ICONV=ISO-8859-1 F_TEXT=$latin
			F_OTHER=windows-1252 F_OTHER_ICONV=WINDOWS-1252 ;;
	ibm037)		F_DECL=IBM037 F_ICONV=IBM037 F_TEXT=$latin
			F_OTHER=ISO-8859-1 F_OTHER_ICONV=ISO-8859-1 ;;
	sjis)		F_DECL=Shift_JIS F_ICONV=SHIFT_JIS F_TEXT=$jp
			F_OTHER=EUC-JP F_OTHER_ICONV=EUC-JP ;;
	eucjp)		F_DECL=EUC-JP F_ICONV=EUC-JP F_TEXT=$jp
			F_OTHER=ISO-2022-JP F_OTHER_ICONV=ISO-2022-JP ;;
	iso2022jp)	F_DECL=ISO-2022-JP F_ICONV=ISO-2022-JP F_TEXT=$jp
			F_OTHER=Shift_JIS F_OTHER_ICONV=SHIFT_JIS ;;
	*)		fail "no family $1" ;;
	esac
}

# target NAME: set T_ARGS (options), T_BOM (hex), T_DECL (the name the
# output must declare), T_ICONV (how its body is encoded), T_UTF32.
target() {
	T_BOM= T_UTF32=
	case $1 in
	utf8)	  T_ARGS=(--transcode-to=UTF-8) T_DECL=UTF-8 T_ICONV=UTF-8 ;;
	utf8bom)  T_ARGS=(--transcode-to=UTF-8 --utf8-bom) T_DECL=UTF-8
		  T_ICONV=UTF-8 T_BOM=efbbbf ;;
	utf16)	  T_ARGS=(--transcode-to=UTF-16) T_DECL=UTF-16
		  T_ICONV=UTF-16BE T_BOM=feff ;;
	utf16-le) T_ARGS=(--transcode-to=UTF-16 --byte-order=le) T_DECL=UTF-16
		  T_ICONV=UTF-16LE T_BOM=fffe ;;
	utf16le)  T_ARGS=(--transcode-to=UTF-16LE) T_DECL=UTF-16LE
		  T_ICONV=UTF-16LE ;;
	utf16be)  T_ARGS=(--transcode-to=UTF-16BE) T_DECL=UTF-16BE
		  T_ICONV=UTF-16BE ;;
	utf32)	  T_ARGS=(--transcode-to=UTF-32) T_DECL=UTF-32
		  T_ICONV=UTF-32BE T_BOM=0000feff T_UTF32=1 ;;
	utf32-le) T_ARGS=(--transcode-to=UTF-32 --byte-order=le) T_DECL=UTF-32
		  T_ICONV=UTF-32LE T_BOM=fffe0000 T_UTF32=1 ;;
	utf32le)  T_ARGS=(--transcode-to=UTF-32LE) T_DECL=UTF-32LE
		  T_ICONV=UTF-32LE T_UTF32=1 ;;
	utf32be)  T_ARGS=(--transcode-to=UTF-32BE) T_DECL=UTF-32BE
		  T_ICONV=UTF-32BE T_UTF32=1 ;;
	other)	  T_ARGS=(--transcode-to="$F_OTHER") T_DECL=$F_OTHER
		  T_ICONV=$F_OTHER_ICONV ;;
	*)	  fail "no target $1" ;;
	esac
}

# check_row FAMILY TARGET: the sample in FAMILY, transcoded to TARGET,
# is exactly TARGET's BOM (if any) and the sample re-encoded, its
# declaration naming the target; no error; utf32 warned about exactly
# when UTF-32 is involved.
check_row() {
	family "$1"
	target "$2"
	need_iconv "$F_DECL"
	if [ "$2" = other ]; then
		need_iconv "$T_DECL" to
		need_same_bytes "$T_DECL"
	fi
	{ bytes "$F_BOM"; encoded "$F_DECL" "$F_TEXT" "$F_ICONV"; } \
	    > "$T/in.xml"
	{ bytes "$T_BOM"; encoded "$T_DECL" "$F_TEXT" "$T_ICONV"; } \
	    > "$T/want"
	xs_to "$T/out" "${T_ARGS[@]}" "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_lacks "error:"
	if [ -n "$T_UTF32" ]; then
		stderr_has "warning:"
		stderr_has "[utf32]"
	elif [[ $1 != utf32* ]]; then
		stderr_lacks "[utf32]"
	fi
}

# rich CONTENT: a UTF-8 document that exercises every context (DOCTYPE
# and internal subset, attributes in both quotes, character references,
# comment, PI, CDATA, CRLF and tab) with CONTENT (printf escapes) in each.
rich() {
	printf '<?xml version="1.0" encoding="UTF-8" standalone='"'"'no'"'"'?>\r\n'
	printf '<!DOCTYPE r [\r\n<!ENTITY e "'"$1"'">\r\n]>\r\n'
	printf '<r a="'"$1"'" b='"'"'&#233;'"'"'>\r\n'
	printf '\t<!-- '"$1"' -->\r\n\t<?pi '"$1"'?>\r\n'
	printf '\t<![CDATA['"$1"' <&>]]>\r\n'
	printf '\t'"$1"' &e; &#x20AC; &amp;\r\n</r>\r\n'
}

# round_trip ENC CONTENT: UTF-8 -> ENC -> UTF-8 gives back the original.
round_trip() {
	rich "$2" > "$T/orig.xml"
	xs --transcode-to="$1" -o "$T/mid" "$T/orig.xml"
	assert_success
	xs --transcode-to=UTF-8 -o "$T/back.xml" "$T/mid"
	assert_success
	stderr_lacks "error:"
	same_bytes "$T/back.xml" "$T/orig.xml"
}

# The target-rules matrix (RFC 7303 section 3.3, TRANSCODING in
# xmlsniff(1)): every input family to every row of the table.

@test "target rules: UTF-8 without BOM -> UTF-8, no BOM, declares UTF-8" {
	check_row utf8 utf8
}

@test "target rules: UTF-8 without BOM -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf8 utf8bom
}

@test "target rules: UTF-8 without BOM -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf8 utf16
}

@test "target rules: UTF-8 without BOM -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf8 utf16-le
}

@test "target rules: UTF-8 without BOM -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf8 utf16le
}

@test "target rules: UTF-8 without BOM -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf8 utf16be
}

@test "target rules: UTF-8 without BOM -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf8 utf32
}

@test "target rules: UTF-8 without BOM -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf8 utf32-le
}

@test "target rules: UTF-8 without BOM -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf8 utf32le
}

@test "target rules: UTF-8 without BOM -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf8 utf32be
}

@test "target rules: UTF-8 without BOM -> GB18030, no BOM, declares GB18030" {
	check_row utf8 other
}

@test "target rules: UTF-8 with BOM -> UTF-8, no BOM, declares UTF-8" {
	check_row utf8bom utf8
}

@test "target rules: UTF-8 with BOM -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf8bom utf8bom
}

@test "target rules: UTF-8 with BOM -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf8bom utf16
}

@test "target rules: UTF-8 with BOM -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf8bom utf16-le
}

@test "target rules: UTF-8 with BOM -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf8bom utf16le
}

@test "target rules: UTF-8 with BOM -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf8bom utf16be
}

@test "target rules: UTF-8 with BOM -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf8bom utf32
}

@test "target rules: UTF-8 with BOM -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf8bom utf32-le
}

@test "target rules: UTF-8 with BOM -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf8bom utf32le
}

@test "target rules: UTF-8 with BOM -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf8bom utf32be
}

@test "target rules: UTF-8 with BOM -> GB18030, no BOM, declares GB18030" {
	check_row utf8bom other
}

@test "target rules: UTF-16LE with BOM -> UTF-8, no BOM, declares UTF-8" {
	check_row utf16le-bom utf8
}

@test "target rules: UTF-16LE with BOM -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf16le-bom utf8bom
}

@test "target rules: UTF-16LE with BOM -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf16le-bom utf16
}

@test "target rules: UTF-16LE with BOM -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf16le-bom utf16-le
}

@test "target rules: UTF-16LE with BOM -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf16le-bom utf16le
}

@test "target rules: UTF-16LE with BOM -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf16le-bom utf16be
}

@test "target rules: UTF-16LE with BOM -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf16le-bom utf32
}

@test "target rules: UTF-16LE with BOM -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf16le-bom utf32-le
}

@test "target rules: UTF-16LE with BOM -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf16le-bom utf32le
}

@test "target rules: UTF-16LE with BOM -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf16le-bom utf32be
}

@test "target rules: UTF-16LE with BOM -> GB18030, no BOM, declares GB18030" {
	check_row utf16le-bom other
}

@test "target rules: UTF-16BE with BOM -> UTF-8, no BOM, declares UTF-8" {
	check_row utf16be-bom utf8
}

@test "target rules: UTF-16BE with BOM -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf16be-bom utf8bom
}

@test "target rules: UTF-16BE with BOM -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf16be-bom utf16
}

@test "target rules: UTF-16BE with BOM -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf16be-bom utf16-le
}

@test "target rules: UTF-16BE with BOM -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf16be-bom utf16le
}

@test "target rules: UTF-16BE with BOM -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf16be-bom utf16be
}

@test "target rules: UTF-16BE with BOM -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf16be-bom utf32
}

@test "target rules: UTF-16BE with BOM -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf16be-bom utf32-le
}

@test "target rules: UTF-16BE with BOM -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf16be-bom utf32le
}

@test "target rules: UTF-16BE with BOM -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf16be-bom utf32be
}

@test "target rules: UTF-16BE with BOM -> GB18030, no BOM, declares GB18030" {
	check_row utf16be-bom other
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-8, no BOM, declares UTF-8" {
	check_row utf16le utf8
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf16le utf8bom
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf16le utf16
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf16le utf16-le
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf16le utf16le
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf16le utf16be
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf16le utf32
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf16le utf32-le
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf16le utf32le
}

@test "target rules: UTF-16LE without BOM, declared -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf16le utf32be
}

@test "target rules: UTF-16LE without BOM, declared -> GB18030, no BOM, declares GB18030" {
	check_row utf16le other
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-8, no BOM, declares UTF-8" {
	check_row utf16be utf8
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf16be utf8bom
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf16be utf16
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf16be utf16-le
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf16be utf16le
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf16be utf16be
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf16be utf32
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf16be utf32-le
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf16be utf32le
}

@test "target rules: UTF-16BE without BOM, declared -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf16be utf32be
}

@test "target rules: UTF-16BE without BOM, declared -> GB18030, no BOM, declares GB18030" {
	check_row utf16be other
}

@test "target rules: UTF-32BE with BOM -> UTF-8, no BOM, declares UTF-8" {
	check_row utf32be-bom utf8
}

@test "target rules: UTF-32BE with BOM -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf32be-bom utf8bom
}

@test "target rules: UTF-32BE with BOM -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf32be-bom utf16
}

@test "target rules: UTF-32BE with BOM -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf32be-bom utf16-le
}

@test "target rules: UTF-32BE with BOM -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf32be-bom utf16le
}

@test "target rules: UTF-32BE with BOM -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf32be-bom utf16be
}

@test "target rules: UTF-32BE with BOM -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf32be-bom utf32
}

@test "target rules: UTF-32BE with BOM -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf32be-bom utf32-le
}

@test "target rules: UTF-32BE with BOM -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf32be-bom utf32le
}

@test "target rules: UTF-32BE with BOM -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf32be-bom utf32be
}

@test "target rules: UTF-32BE with BOM -> GB18030, no BOM, declares GB18030" {
	check_row utf32be-bom other
}

@test "target rules: UTF-32LE with BOM -> UTF-8, no BOM, declares UTF-8" {
	check_row utf32le-bom utf8
}

@test "target rules: UTF-32LE with BOM -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf32le-bom utf8bom
}

@test "target rules: UTF-32LE with BOM -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf32le-bom utf16
}

@test "target rules: UTF-32LE with BOM -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf32le-bom utf16-le
}

@test "target rules: UTF-32LE with BOM -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf32le-bom utf16le
}

@test "target rules: UTF-32LE with BOM -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf32le-bom utf16be
}

@test "target rules: UTF-32LE with BOM -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf32le-bom utf32
}

@test "target rules: UTF-32LE with BOM -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf32le-bom utf32-le
}

@test "target rules: UTF-32LE with BOM -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf32le-bom utf32le
}

@test "target rules: UTF-32LE with BOM -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf32le-bom utf32be
}

@test "target rules: UTF-32LE with BOM -> GB18030, no BOM, declares GB18030" {
	check_row utf32le-bom other
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-8, no BOM, declares UTF-8" {
	check_row utf32be utf8
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf32be utf8bom
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf32be utf16
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf32be utf16-le
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf32be utf16le
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf32be utf16be
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf32be utf32
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf32be utf32-le
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf32be utf32le
}

@test "target rules: UTF-32BE without BOM, declared -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf32be utf32be
}

@test "target rules: UTF-32BE without BOM, declared -> GB18030, no BOM, declares GB18030" {
	check_row utf32be other
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-8, no BOM, declares UTF-8" {
	check_row utf32le utf8
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row utf32le utf8bom
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row utf32le utf16
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row utf32le utf16-le
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row utf32le utf16le
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row utf32le utf16be
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row utf32le utf32
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row utf32le utf32-le
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-32LE, no BOM, utf32 warning" {
	check_row utf32le utf32le
}

@test "target rules: UTF-32LE without BOM, declared -> UTF-32BE, no BOM, utf32 warning" {
	check_row utf32le utf32be
}

@test "target rules: UTF-32LE without BOM, declared -> GB18030, no BOM, declares GB18030" {
	check_row utf32le other
}

@test "target rules: ISO-8859-1 -> UTF-8, no BOM, declares UTF-8" {
	check_row latin1 utf8
}

@test "target rules: ISO-8859-1 -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row latin1 utf8bom
}

@test "target rules: ISO-8859-1 -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row latin1 utf16
}

@test "target rules: ISO-8859-1 -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row latin1 utf16-le
}

@test "target rules: ISO-8859-1 -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row latin1 utf16le
}

@test "target rules: ISO-8859-1 -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row latin1 utf16be
}

@test "target rules: ISO-8859-1 -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row latin1 utf32
}

@test "target rules: ISO-8859-1 -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row latin1 utf32-le
}

@test "target rules: ISO-8859-1 -> UTF-32LE, no BOM, utf32 warning" {
	check_row latin1 utf32le
}

@test "target rules: ISO-8859-1 -> UTF-32BE, no BOM, utf32 warning" {
	check_row latin1 utf32be
}

@test "target rules: ISO-8859-1 -> windows-1252, no BOM, declares windows-1252" {
	check_row latin1 other
}

@test "target rules: Shift_JIS -> UTF-8, no BOM, declares UTF-8" {
	check_row sjis utf8
}

@test "target rules: Shift_JIS -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row sjis utf8bom
}

@test "target rules: Shift_JIS -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row sjis utf16
}

@test "target rules: Shift_JIS -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row sjis utf16-le
}

@test "target rules: Shift_JIS -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row sjis utf16le
}

@test "target rules: Shift_JIS -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row sjis utf16be
}

@test "target rules: Shift_JIS -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row sjis utf32
}

@test "target rules: Shift_JIS -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row sjis utf32-le
}

@test "target rules: Shift_JIS -> UTF-32LE, no BOM, utf32 warning" {
	check_row sjis utf32le
}

@test "target rules: Shift_JIS -> UTF-32BE, no BOM, utf32 warning" {
	check_row sjis utf32be
}

@test "target rules: Shift_JIS -> EUC-JP, no BOM, declares EUC-JP" {
	check_row sjis other
}

@test "target rules: EUC-JP -> UTF-8, no BOM, declares UTF-8" {
	check_row eucjp utf8
}

@test "target rules: EUC-JP -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row eucjp utf8bom
}

@test "target rules: EUC-JP -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row eucjp utf16
}

@test "target rules: EUC-JP -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row eucjp utf16-le
}

@test "target rules: EUC-JP -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row eucjp utf16le
}

@test "target rules: EUC-JP -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row eucjp utf16be
}

@test "target rules: EUC-JP -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row eucjp utf32
}

@test "target rules: EUC-JP -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row eucjp utf32-le
}

@test "target rules: EUC-JP -> UTF-32LE, no BOM, utf32 warning" {
	check_row eucjp utf32le
}

@test "target rules: EUC-JP -> UTF-32BE, no BOM, utf32 warning" {
	check_row eucjp utf32be
}

@test "target rules: EUC-JP -> ISO-2022-JP, no BOM, declares ISO-2022-JP" {
	check_row eucjp other
}

@test "target rules: ISO-2022-JP -> UTF-8, no BOM, declares UTF-8" {
	check_row iso2022jp utf8
}

@test "target rules: ISO-2022-JP -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row iso2022jp utf8bom
}

@test "target rules: ISO-2022-JP -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row iso2022jp utf16
}

@test "target rules: ISO-2022-JP -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row iso2022jp utf16-le
}

@test "target rules: ISO-2022-JP -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row iso2022jp utf16le
}

@test "target rules: ISO-2022-JP -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row iso2022jp utf16be
}

@test "target rules: ISO-2022-JP -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row iso2022jp utf32
}

@test "target rules: ISO-2022-JP -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row iso2022jp utf32-le
}

@test "target rules: ISO-2022-JP -> UTF-32LE, no BOM, utf32 warning" {
	check_row iso2022jp utf32le
}

@test "target rules: ISO-2022-JP -> UTF-32BE, no BOM, utf32 warning" {
	check_row iso2022jp utf32be
}

@test "target rules: ISO-2022-JP -> Shift_JIS, no BOM, declares Shift_JIS" {
	check_row iso2022jp other
}

@test "target rules: IBM037 (EBCDIC) -> UTF-8, no BOM, declares UTF-8" {
	check_row ibm037 utf8
}

@test "target rules: IBM037 (EBCDIC) -> UTF-8 --utf8-bom, exactly one EF BB BF" {
	check_row ibm037 utf8bom
}

@test "target rules: IBM037 (EBCDIC) -> UTF-16, exactly one BOM FE FF, big-endian" {
	check_row ibm037 utf16
}

@test "target rules: IBM037 (EBCDIC) -> UTF-16 --byte-order=le, exactly one BOM FF FE" {
	check_row ibm037 utf16-le
}

@test "target rules: IBM037 (EBCDIC) -> UTF-16LE, no BOM, declares UTF-16LE" {
	check_row ibm037 utf16le
}

@test "target rules: IBM037 (EBCDIC) -> UTF-16BE, no BOM, declares UTF-16BE" {
	check_row ibm037 utf16be
}

@test "target rules: IBM037 (EBCDIC) -> UTF-32, exactly one BOM 00 00 FE FF, utf32 warning" {
	check_row ibm037 utf32
}

@test "target rules: IBM037 (EBCDIC) -> UTF-32 --byte-order=le, exactly one BOM FF FE 00 00" {
	check_row ibm037 utf32-le
}

@test "target rules: IBM037 (EBCDIC) -> UTF-32LE, no BOM, utf32 warning" {
	check_row ibm037 utf32le
}

@test "target rules: IBM037 (EBCDIC) -> UTF-32BE, no BOM, utf32 warning" {
	check_row ibm037 utf32be
}

@test "target rules: IBM037 (EBCDIC) -> ISO-8859-1, no BOM, declares ISO-8859-1" {
	check_row ibm037 other
}

# Entities without a declaration, and declarations without encoding.

@test "target rules: UTF-8 without declaration -> UTF-16LE: <?xml version=\"1.0\" encoding=\"UTF-16LE\"?> inserted" {
	printf '<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	assert_equal "$stderr" ""
}

@test "target rules: UTF-8 without declaration -> UTF-16BE: declaration inserted, no BOM" {
	printf '<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16BE"?><a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16BE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16BE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 without declaration -> UTF-32LE: declaration inserted, utf32 warning" {
	printf '<a>\xf0\x9f\x98\x80</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-32LE"?><a>\xf0\x9f\x98\x80</a>' |
	    u8to UTF-32LE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-32LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[utf32]"
}

@test "target rules: UTF-8 without declaration -> ISO-8859-1: the declaration MUST be inserted" {
	printf '<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\xe9</a>\n' \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 without declaration -> IBM037: the declaration is inserted in EBCDIC" {
	need_iconv IBM037 to
	printf '<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="IBM037"?><a>caf\xc3\xa9</a>\n' |
	    u8to IBM037 > "$T/want"
	xs_to "$T/out" --transcode-to=IBM037 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	assert_equal "$(head -c 5 "$T/out" | od -An -tx1 | tr -d ' \n')" 4c6fa79493
}

@test "target rules: UTF-8 without declaration -> Shift_JIS: the declaration is inserted" {
	printf '<a>\xe6\x97\xa5\xe6\x9c\xac</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="Shift_JIS"?><a>\x93\xfa\x96\x7b</a>' \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=Shift_JIS "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 without declaration -> UTF-8: unchanged, nothing inserted" {
	printf '<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/in.xml"
}

@test "target rules: UTF-8 without declaration -> UTF-16: a BOM and no declaration (same as uconv --add-signature)" {
	printf '<a>caf\xc3\xa9 \xf0\x9f\x98\x80</a>\n' > "$T/in.xml"
	uconv -f UTF-8 -t UTF-16BE --add-signature < "$T/in.xml" > "$T/want"
	assert_equal "$(head -c 2 "$T/want" | od -An -tx1 | tr -d ' \n')" feff
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 without declaration -> UTF-8 --utf8-bom: same as uconv --add-signature" {
	printf '<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	uconv -f UTF-8 -t UTF-8 --add-signature < "$T/in.xml" > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 --utf8-bom "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 with BOM without declaration -> UTF-16: one BOM, not iconv's two" {
	printf '\xef\xbb\xbf<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	{ bytes feff; printf '<a>caf\xc3\xa9</a>\n' | u8to UTF-16BE; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 with BOM without declaration -> UTF-16LE: BOM stripped (same as uconv --remove-signature), declaration inserted" {
	printf '\xef\xbb\xbf<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	{ printf '<?xml version="1.0" encoding="UTF-16LE"?>'
	  uconv -f UTF-8 -t UTF-8 --remove-signature < "$T/in.xml"; } |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-16LE with BOM without declaration -> UTF-8: BOM gone, nothing inserted (same as iconv -f UTF-16)" {
	{ bytes fffe; printf '<a>caf\xc3\xa9 \xf0\x9f\x98\x80</a>\n' | u8to UTF-16LE; } \
	    > "$T/in.xml"
	iconv -f UTF-16 -t UTF-8 < "$T/in.xml" > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	printf '<a>caf\xc3\xa9 \xf0\x9f\x98\x80</a>\n' > "$T/plain"
	same_bytes "$T/out" "$T/plain"
}

@test "target rules: UTF-16LE with BOM without declaration -> UTF-16LE: BOM stripped, declaration inserted" {
	{ bytes fffe; printf '<a>caf\xc3\xa9</a>' | u8to UTF-16LE; } > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a>caf\xc3\xa9</a>' |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-32BE with BOM without declaration -> UTF-16BE: BOM stripped, declaration inserted" {
	{ bytes 0000feff; printf '<a>\xf0\x9f\x98\x80</a>' | u8to UTF-32BE; } \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16BE"?><a>\xf0\x9f\x98\x80</a>' |
	    u8to UTF-16BE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16BE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: Shift_JIS labelled only by charset -> UTF-16LE: declaration inserted" {
	printf '<a>\x93\xfa\x96\x7b</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a>\xe6\x97\xa5\xe6\x9c\xac</a>' |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --content-type='application/xml; charset=Shift_JIS' \
	    --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: Shift_JIS labelled only by charset -> EUC-JP: declaration inserted" {
	printf '<a>\x93\xfa\x96\x7b</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="EUC-JP"?><a>\xc6\xfc\xcb\xdc</a>' \
	    > "$T/want"
	xs_to "$T/out" --content-type='application/xml; charset=Shift_JIS' \
	    --transcode-to=EUC-JP "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: Shift_JIS labelled only by charset -> UTF-8: nothing inserted" {
	printf '<a>\x93\xfa\x96\x7b</a>' > "$T/in.xml"
	printf '<a>\xe6\x97\xa5\xe6\x9c\xac</a>' > "$T/want"
	xs_to "$T/out" --content-type='application/xml; charset=Shift_JIS' \
	    --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration without encoding -> UTF-16LE: encoding=\"UTF-16LE\" right after the version" {
	printf '<?xml version="1.0"?>\n<a/>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?>\n<a/>\n' |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration without encoding, single quotes -> ISO-8859-1: encoding='ISO-8859-1'" {
	printf "<?xml version='1.0'?>\n<a>caf\xc3\xa9</a>\n" > "$T/in.xml"
	printf "<?xml version='1.0' encoding='ISO-8859-1'?>\n<a>caf\xe9</a>\n" \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration without encoding, with standalone -> UTF-32BE: inserted before standalone, spacing kept" {
	printf '<?xml version="1.0"   standalone="yes" ?>\n<a/>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-32BE"   standalone="yes" ?>\n<a/>\n' |
	    u8to UTF-32BE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-32BE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration without encoding -> UTF-16: untouched, only the BOM added" {
	printf '<?xml version="1.0"?>\n<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	uconv -f UTF-8 -t UTF-16BE --add-signature < "$T/in.xml" > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration without encoding -> UTF-8: untouched" {
	printf '<?xml version="1.0"?>\n<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/in.xml"
}

@test "target rules: --utf8-bom puts no BOM on a target other than UTF-8" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>caf\xc3\xa9</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\xe9</a>' > "$T/want"
	xs_to "$T/out" --transcode-to=ISO-8859-1 --utf8-bom "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: --byte-order=le does not change UTF-16BE, which has no BOM" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a/>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16BE"?><a/>' | u8to UTF-16BE \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16BE --byte-order=le "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: --byte-order=be writes UTF-16 with FE FF, as the default does" {
	printf '<a/>' > "$T/in.xml"
	{ bytes feff; printf '<a/>' | u8to UTF-16BE; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 --byte-order=be "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: a target alias is declared by its canonical name (latin1 -> ISO-8859-1)" {
	printf '<?xml version="1.0" encoding="utf-8"?><a>caf\xc3\xa9</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\xe9</a>' > "$T/want"
	xs_to "$T/out" --transcode-to=latin1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: a lower-case target is declared by its canonical name (utf-16le -> UTF-16LE)" {
	printf '<?xml version="1.0" encoding="utf-8"?><a/>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | u8to UTF-16LE \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=utf-16le "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: UTF-8 -> UTF-16LE: same bytes as iconv once the declared value reads UTF-16LE" {
	printf '<?xml version="1.0" encoding="UTF-16LE"?>\r\n<a b="c">caf\xc3\xa9 \xf0\x9f\x98\x80</a>\r\n' \
	    > "$T/src"
	# the UTF-8 input declares nothing that must change but its value
	sed 's/UTF-16LE/UTF-8/' "$T/src" > "$T/in.xml"
	iconv -f UTF-8 -t UTF-16LE < "$T/src" > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: ISO-8859-1 -> UTF-8: the content is what iconv makes of it" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>\xe9\xe8\xff\xa0\xbf</a>\n' \
	    > "$T/in.xml"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>'
	  tail -c +44 "$T/in.xml" | iconv -f ISO-8859-1 -t UTF-8; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

# A transcode into the input's own encoding still applies the rules.

@test "target rules: own encoding: UTF-16LE with BOM (declared UTF-16) -> UTF-16LE strips the BOM" {
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-16"?><a/>' |
	    u8to UTF-16LE; } > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | u8to UTF-16LE \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: own encoding: UTF-16BE with BOM -> UTF-16 keeps exactly one BOM" {
	{ bytes feff; printf '<?xml version="1.0" encoding="UTF-16"?><a/>' |
	    u8to UTF-16BE; } > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/in.xml"
}

@test "target rules: own encoding: UTF-16LE without BOM -> UTF-16 adds a BOM" {
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | u8to UTF-16LE \
	    > "$T/in.xml"
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-16"?><a/>' |
	    u8to UTF-16LE; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 --byte-order=le "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: own encoding: UTF-8 with BOM -> UTF-8 strips the BOM" {
	printf '\xef\xbb\xbf<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: own encoding: UTF-8 with BOM -> UTF-8 --utf8-bom keeps exactly one BOM" {
	printf '\xef\xbb\xbf<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' \
	    > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-8 --utf8-bom "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/in.xml"
}

@test "target rules: own encoding: UTF-32LE with BOM -> UTF-32LE strips the BOM" {
	{ bytes fffe0000; printf '<?xml version="1.0" encoding="UTF-32"?><a/>' |
	    u8to UTF-32LE; } > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-32LE"?><a/>' | u8to UTF-32LE \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-32LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: own encoding: Shift_JIS -> Shift_JIS is byte-identical" {
	printf '<?xml version="1.0" encoding="Shift_JIS"?>\r\n<a b="\x93\xfa">\x96\x7b\x8c\xea</a>\r\n' \
	    > "$T/in.xml"
	xs_to "$T/out" --transcode-to=Shift_JIS "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/in.xml"
}

# U+FEFF after the start is content (ZWNBSP) and is kept.

@test "target rules: a U+FEFF right after the declaration is kept (UTF-8 -> UTF-16LE)" {
	printf '<?xml version="1.0" encoding="UTF-8"?>\xef\xbb\xbf<a>x</a>' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?>\xef\xbb\xbf<a>x</a>' |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: a U+FEFF in content is kept and the UTF-8 BOM is not doubled (UTF-8 BOM -> UTF-16)" {
	printf '\xef\xbb\xbf<?xml version="1.0" encoding="UTF-8"?><a>\xef\xbb\xbf</a>' \
	    > "$T/in.xml"
	{ bytes feff; printf '<?xml version="1.0" encoding="UTF-16"?><a>\xef\xbb\xbf</a>' |
	    u8to UTF-16BE; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: a U+FEFF in content is kept while the BOM goes (UTF-16LE BOM -> UTF-8)" {
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-16"?><a>\xef\xbb\xbf</a>' |
	    u8to UTF-16LE; } > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xef\xbb\xbf</a>' > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: a leading U+FEFF of content after the BOM survives into UTF-8 behind a real BOM" {
	# RFC 3629 section 6: written bare it would read as a signature
	printf '\xff\xfe\xff\xfe<\0a\0/\0>\0' > "$T/in.xml"
	printf '\xef\xbb\xbf\xef\xbb\xbf<a/>' > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: a leading U+FEFF of content after the BOM is kept after the new BOM (UTF-16)" {
	printf '\xff\xfe\xff\xfe<\0a\0/\0>\0' > "$T/in.xml"
	printf '\xfe\xff\xfe\xff\0<\0a\0/\0>' > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

# The declaration is byte-preserving apart from the encoding value.

@test "target rules: declaration: encoding=\"...\" is rewritten keeping the double quotes" {
	printf '<?xml version="1.0" encoding="utf-8"?><a/>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="EUC-JP"?><a/>' > "$T/want"
	xs_to "$T/out" --transcode-to=EUC-JP "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration: encoding='...' is rewritten keeping the single quotes" {
	printf "<?xml version=\"1.0\" encoding='utf-8'?><a/>" > "$T/in.xml"
	printf "<?xml version=\"1.0\" encoding='ISO-8859-1'?><a/>" > "$T/want"
	xs_to "$T/out" --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration: whitespace, newlines and standalone around the value are untouched" {
	printf "<?xml  version = \"1.0\"\r\n\tencoding = 'latin1'\r\n standalone='no' ?>\r\n<a/>\r\n" \
	    > "$T/in.xml"
	printf "<?xml  version = \"1.0\"\r\n\tencoding = 'UTF-16BE'\r\n standalone='no' ?>\r\n<a/>\r\n" |
	    u8to UTF-16BE > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16BE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: declaration: a longer value is replaced by a shorter one and nothing else moves" {
	printf '<?xml version="1.1" encoding="ISO-8859-1" standalone="yes"?>\n<a/>\n' \
	    > "$T/in.xml"
	printf '<?xml version="1.1" encoding="UTF-8" standalone="yes"?>\n<a/>\n' \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: nothing but the value changes: quotes, CRLF, tabs, references &#233; stay" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<!-- c -->\r\n<a b="&#233;" c='"'"'&amp;'"'"'>\t\xe9 &#x20AC; &lt;\r\n</a>\r\n' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- c -->\r\n<a b="&#233;" c='"'"'&amp;'"'"'>\t\xc3\xa9 &#x20AC; &lt;\r\n</a>\r\n' \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "target rules: text declaration of an external parsed entity: the value is rewritten" {
	printf '<?xml encoding="UTF-8"?>\n<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	printf '<?xml encoding="ISO-8859-1"?>\n<a>caf\xe9</a>\n' > "$T/want"
	xs_to "$T/out" --content-type=application/xml-external-parsed-entity \
	    --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

# Round trips UTF-8 -> X -> UTF-8.

@test "target rules: round trip UTF-8 -> UTF-16 -> UTF-8 returns the original bytes" {
	round_trip UTF-16 'caf\xc3\xa9 \xe6\x97\xa5\xef\xbb\xbf\xf0\x9f\x98\x80'
}

@test "target rules: round trip UTF-8 -> UTF-16LE -> UTF-8 returns the original bytes" {
	round_trip UTF-16LE 'caf\xc3\xa9 \xe6\x97\xa5\xef\xbb\xbf\xf0\x9f\x98\x80'
}

@test "target rules: round trip UTF-8 -> UTF-16BE -> UTF-8 returns the original bytes" {
	round_trip UTF-16BE 'caf\xc3\xa9 \xe6\x97\xa5\xef\xbb\xbf\xf0\x9f\x98\x80'
}

@test "target rules: round trip UTF-8 -> UTF-32 -> UTF-8 returns the original bytes" {
	round_trip UTF-32 'caf\xc3\xa9 \xe6\x97\xa5\xef\xbb\xbf\xf0\x9f\x98\x80'
}

@test "target rules: round trip UTF-8 -> ISO-8859-1 -> UTF-8 returns the original bytes" {
	round_trip ISO-8859-1 'caf\xc3\xa9 \xc3\xbf\xc2\xa0\xc3\x80'
}

@test "target rules: round trip UTF-8 -> Shift_JIS -> UTF-8 returns the original bytes" {
	round_trip Shift_JIS '\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xef\xbd\xb1'
}

@test "target rules: round trip UTF-8 -> EUC-JP -> UTF-8 returns the original bytes" {
	round_trip EUC-JP '\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xef\xbd\xb1'
}

@test "target rules: round trip UTF-8 -> ISO-2022-JP -> UTF-8 returns the original bytes" {
	round_trip ISO-2022-JP '\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xe3\x81\x82'
}

@test "target rules: round trip UTF-8 -> IBM037 -> UTF-8 returns the original bytes" {
	need_iconv IBM037 to
	round_trip IBM037 'caf\xc3\xa9 \xc3\xb1 [x] !|'
}

@test "target rules: round trip of a lower-case label returns the original but for the value" {
	printf '<?xml version="1.0" encoding="utf-8"?>\n<a>caf\xc3\xa9</a>\n' \
	    > "$T/orig.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\xc3\xa9</a>\n' \
	    > "$T/want"
	xs --transcode-to=ISO-8859-1 -o "$T/mid" "$T/orig.xml"
	assert_success
	xs --transcode-to=UTF-8 -o "$T/back.xml" "$T/mid"
	assert_success
	same_bytes "$T/back.xml" "$T/want"
}

# The input side: repairing a mislabelled entity (RFC 7303 section 3.2: a
# declaration known to be wrong is corrected).

@test "input side: repair: UTF-16LE with BOM declared UTF-8 -> UTF-8 declares UTF-8" {
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16LE; } > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\xc3\xa9</a>\n' > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[decl-mismatch]"
}

@test "input side: repair: UTF-16LE with BOM declared UTF-8 -> UTF-16 declares UTF-16" {
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-8"?><a/>' |
	    u8to UTF-16LE; } > "$T/in.xml"
	{ bytes feff; printf '<?xml version="1.0" encoding="UTF-16"?><a/>' |
	    u8to UTF-16BE; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "input side: repair: UTF-8 BOM declared Shift_JIS -> UTF-8: the BOM wins, declares UTF-8" {
	printf '\xef\xbb\xbf<?xml version="1.0" encoding="Shift_JIS"?><a>\xc3\xa9</a>' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[decl-mismatch]"
}

@test "input side: repair: UTF-8 declared ISO-8859-1 with charset=utf-8 is read as UTF-8 and declares UTF-8" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>caf\xc3\xa9</a>\n' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\xc3\xa9</a>\n' > "$T/want"
	xs_to "$T/out" --content-type='text/xml; charset=utf-8' \
	    --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[charset-decl-conflict]"
}

@test "input side: repair: UTF-8 declared ISO-8859-1 with charset=utf-8 -> UTF-16LE holds U+00E9, not mojibake" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a>caf\xc3\xa9</a>\n' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?>\n<a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16LE > "$T/want"
	xs_to "$T/out" --content-type='text/xml; charset=utf-8' \
	    --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "input side: repair: UTF-16 without BOM declared UTF-16 (bom-missing) -> UTF-16 gets a BOM" {
	printf '<?xml version="1.0" encoding="UTF-16"?>\n<a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16LE > "$T/in.xml"
	{ bytes feff; printf '<?xml version="1.0" encoding="UTF-16"?>\n<a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16BE; } > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[bom-missing]"
}

@test "input side: repair: UTF-16LE declared with a BOM (bom-forbidden) -> UTF-16LE loses the BOM" {
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>' |
	    u8to UTF-16LE; } > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | u8to UTF-16LE \
	    > "$T/want"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[bom-forbidden]"
}

# The input side: --strict refuses an input with errors.

@test "input side: --strict: an input with an error is not transcoded to standard output" {
	printf '<?xml version="1.0" encoding="UTF-16"?><a/>' | u8to UTF-16LE \
	    > "$T/in.xml"
	xs_to "$T/out" --strict --transcode-to=UTF-16 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ] || fail "output written: $(hexof "$T/out")"
	stderr_has "not transcoded"
	stderr_has "[bom-missing]"
}

@test "input side: --strict: -o is not created for an input with an error" {
	{ bytes fffe; printf '<?xml version="1.0" encoding="UTF-8"?><a/>' |
	    u8to UTF-16LE; } > "$T/in.xml"
	xs --strict --transcode-to=UTF-8 -o "$T/dest.xml" "$T/in.xml"
	assert_failure 1
	[ ! -e "$T/dest.xml" ] || fail "-o destination was created"
	no_temp "$T"
	stderr_has "[decl-mismatch]"
}

@test "input side: --strict: an existing -o destination is left byte-identical" {
	printf '<a>\x01</a>' > "$T/in.xml"
	printf 'precious\n' > "$T/dest.xml"
	cp "$T/dest.xml" "$T/dest.orig"
	xs --strict --transcode-to=UTF-16 -o "$T/dest.xml" "$T/in.xml"
	assert_failure 1
	cmp "$T/dest.xml" "$T/dest.orig"
	no_temp "$T"
	stderr_has "[illegal-char]"
}

@test "input side: --strict: warnings alone do not stop the transcode" {
	printf '\xef\xbb\xbf<a/>' > "$T/in.xml"
	printf '<a/>' > "$T/want"
	xs_to "$T/out" --strict --transcode-to=UTF-8 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	stderr_has "[utf8-bom]"
}

# The input side: illegal input bytes always fail.

@test "input side: illegal UTF-8 bytes fail the transcode with line:column (exit 1, nothing written)" {
	printf '<?xml version="1.0"?>\n<a>ok\xff</a>\n' > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ] || fail "output written: $(hexof "$T/out")"
	stderr_has "in.xml:2:6: error:"
	stderr_has "[illegal-sequence]"
}

@test "input side: illegal UTF-8 bytes: the offset is reported (--json)" {
	printf '<?xml version="1.0"?>\n<a>ok\xff</a>\n' > "$T/in.xml"
	xs --json --transcode-to=UTF-16LE -o "$T/dest.xml" "$T/in.xml"
	assert_failure 1
	assert_output --partial '"code":"illegal-sequence","offset":27,"line":2,"column":6'
	[ ! -e "$T/dest.xml" ]
}

@test "input side: illegal UTF-8 bytes fail with --strict too" {
	printf '<?xml version="1.0"?>\n<a>ok\xff</a>\n' > "$T/in.xml"
	xs_to "$T/out" --strict --transcode-to=UTF-16LE "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "[illegal-sequence]"
}

@test "input side: illegal bytes: -o leaves no file and no temporary" {
	printf '<?xml version="1.0"?>\n<a>ok\xff</a>\n' > "$T/in.xml"
	mkdir "$T/d"
	xs --transcode-to=UTF-16LE -o "$T/d/dest.xml" "$T/in.xml"
	assert_failure 1
	[ ! -e "$T/d/dest.xml" ] || fail "-o destination was created"
	no_temp "$T/d"
	assert_equal "$(ls -A "$T/d")" ""
}

@test "input side: illegal bytes after a megabyte of good ones: -o leaves no partial file" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>'
	  yes "$(printf '<a>caf\xc3\xa9</a>')" | head -n 100000
	  printf '\xc3(</r>\n'; } > "$T/in.xml"
	mkdir "$T/d"
	xs --transcode-to=UTF-16 -o "$T/d/dest.xml" "$T/in.xml"
	assert_failure 1
	[ ! -e "$T/d/dest.xml" ] || fail "partial output left"
	no_temp "$T/d"
	stderr_has "[illegal-sequence]"
}

@test "input side: illegal Shift_JIS bytes fail with line:column" {
	need_rejects Shift_JIS '\x81\x20'
	printf '<?xml version="1.0" encoding="Shift_JIS"?>\n<a>\x93\xfa\n\x81\x20x</a>\n' \
	    > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:3:1: error:"
	stderr_has "[illegal-sequence]"
}

@test "input side: a lone UTF-16 surrogate fails with line:column" {
	{ printf '<?xml version="1.0" encoding="UTF-16LE"?>\n<a>' | u8to UTF-16LE
	  printf '\x00\xd8<\x00/\x00a\x00>\x00'; } > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-8 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:2:4: error:"
	stderr_has "[illegal-sequence]"
}

@test "input side: a truncated final UTF-8 sequence fails" {
	printf '<a>\xe2\x82' > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-16LE "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:1:4: error:"
	stderr_has "[illegal-sequence]"
}

@test "input side: --in-place on illegal bytes leaves the file byte-identical" {
	printf '<?xml version="1.0"?>\n<a>ok\xff</a>\n' > "$T/in.xml"
	cp "$T/in.xml" "$T/orig"
	xs --transcode-to=UTF-16 --in-place "$T/in.xml"
	assert_failure 1
	cmp "$T/in.xml" "$T/orig"
	no_temp "$T"
}

# Characters the target cannot represent (--fallback).

@test "unrepresentable: U+20AC -> ISO-8859-1 fails naming U+20AC and line:column [unrepresentable]" {
	printf '<?xml version="1.0"?>\n<a t="x">1 \xe2\x82\xac</a>\n' > "$T/in.xml"
	xs_to "$T/out" --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ] || fail "output written: $(hexof "$T/out")"
	stderr_has "in.xml:2:12: error: U+20AC"
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: U+20AC -> ISO-8859-1: the offset is reported (--json)" {
	printf '<?xml version="1.0"?>\n<a t="x">1 \xe2\x82\xac</a>\n' > "$T/in.xml"
	xs --json --transcode-to=ISO-8859-1 -o "$T/dest.xml" "$T/in.xml"
	assert_failure 1
	assert_output --partial '"code":"unrepresentable","offset":33,"line":2,"column":12'
	[ ! -e "$T/dest.xml" ]
}

@test "unrepresentable: U+20AC -> ISO-8859-1 with -o: no file" {
	printf '<a>\xe2\x82\xac</a>' > "$T/in.xml"
	xs --transcode-to=ISO-8859-1 -o "$T/dest.xml" "$T/in.xml"
	assert_failure 1
	[ ! -e "$T/dest.xml" ]
	no_temp "$T"
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: --fallback=ncr: U+20AC in character data becomes &#x20AC;" {
	printf '<?xml version="1.0"?>\n<a t="x">1 \xe2\x82\xac</a>\n' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a t="x">1 &#x20AC;</a>\n' \
	    > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
	assert_equal "$stderr" ""
}

@test "unrepresentable: --fallback=ncr: U+20AC in an attribute value becomes &#x20AC;" {
	printf '<a t="\xe2\x82\xac" u='"'"'\xc3\xa9\xe2\x82\xac'"'"'/>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a t="&#x20AC;" u='"'"'\xe9&#x20AC;'"'"'/>' \
	    > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "unrepresentable: --fallback=ncr: a supplementary character into Shift_JIS becomes &#x1F600;" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xe6\x97\xa5\xf0\x9f\x98\x80</a>' \
	    > "$T/in.xml"
	printf '<?xml version="1.0" encoding="Shift_JIS"?><a>\x93\xfa&#x1F600;</a>' \
	    > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=Shift_JIS "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "unrepresentable: --fallback=ncr into IBM037: the reference itself is written in EBCDIC" {
	need_iconv IBM037 to
	printf '<a>\xe2\x82\xac</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="IBM037"?><a>&#x20AC;</a>' |
	    u8to IBM037 > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=IBM037 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "unrepresentable: --fallback=ncr: the reference has at least four hex digits (U+00E9 -> &#x00E9; in US-ASCII)" {
	printf '<a>caf\xc3\xa9</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="US-ASCII"?><a>caf&#x00E9;</a>' > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=US-ASCII "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "unrepresentable: --fallback=ncr: U+20AC in an element name still fails" {
	printf '<a\xe2\x82\xac>x</a\xe2\x82\xac>' > "$T/in.xml"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:1:3: error: U+20AC in a name"
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: --fallback=ncr: U+20AC in a comment still fails" {
	printf '<a><!-- \xe2\x82\xac --></a>' > "$T/in.xml"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:1:9: error: U+20AC in a comment"
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: --fallback=ncr: U+20AC in a processing instruction still fails" {
	printf '<a><?pi \xe2\x82\xac?></a>' > "$T/in.xml"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:1:9: error: U+20AC in a processing instruction"
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: --fallback=ncr: U+20AC in a CDATA section still fails" {
	printf '<a><![CDATA[\xe2\x82\xac]]></a>' > "$T/in.xml"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "in.xml:1:13: error: U+20AC in a CDATA section"
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: --fallback=ncr: character data after a CDATA section gets a reference again" {
	printf '<a><![CDATA[]>]]>\xe2\x82\xac<!--]]>-->\xe2\x82\xac</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a><![CDATA[]>]]>&#x20AC;<!--]]>-->&#x20AC;</a>' \
	    > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "unrepresentable: --fallback=ncr: U+20AC in an attribute default of the internal subset becomes &#x20AC;" {
	# XML 1.0 [10]: an AttValue, here in an ATTLIST default, takes references
	printf '<!DOCTYPE a [<!ATTLIST a t CDATA "\xe2\x82\xac">]><a/>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE a [<!ATTLIST a t CDATA "&#x20AC;">]><a/>' \
	    > "$T/want"
	xs_to "$T/out" --fallback=ncr --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "unrepresentable: --fallback=error is the default and can be given" {
	printf '<a>\xe2\x82\xac</a>' > "$T/in.xml"
	xs_to "$T/out" --fallback=error --transcode-to=ISO-8859-1 "$T/in.xml"
	assert_failure 1
	[ ! -s "$T/out" ]
	stderr_has "[unrepresentable]"
}

@test "unrepresentable: --in-place on an unrepresentable character leaves the file byte-identical" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xe2\x82\xac</a>' > "$T/in.xml"
	cp "$T/in.xml" "$T/orig"
	xs --transcode-to=ISO-8859-1 --in-place "$T/in.xml"
	assert_failure 1
	cmp "$T/in.xml" "$T/orig"
	no_temp "$T"
}

# Streaming: sequences split across buffer boundaries.

@test "streaming: a large UTF-8 entity -> UTF-16LE equals iconv's bytes" {
	{ printf '<?xml version="1.0" encoding="UTF-16LE"?>\n<r>'
	  yes "$(printf 'x\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80')" | head -n 300000 |
	      tr -d '\n'
	  printf '</r>\n'; } > "$T/src"
	sed '1s/UTF-16LE/UTF-8/' "$T/src" > "$T/in.xml"
	iconv -f UTF-8 -t UTF-16LE < "$T/src" > "$T/want"
	xs --transcode-to=UTF-16LE -o "$T/out" "$T/in.xml"
	assert_success
	cmp "$T/out" "$T/want"
}

@test "streaming: a Shift_JIS entity larger than the read buffer -> UTF-8 equals iconv's bytes" {
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>'
	  yes "$(printf 'x\xe6\x97\xa5\xe6\x9c\xac\xef\xbd\xb1')" | head -n 70000 |
	      tr -d '\n'
	  printf '</r>\n'; } > "$T/want"
	sed '1s/UTF-8/Shift_JIS/' "$T/want" | iconv -f UTF-8 -t SHIFT_JIS \
	    > "$T/in.xml"
	xs --transcode-to=UTF-8 -o "$T/out" "$T/in.xml"
	assert_success
	cmp "$T/out" "$T/want"
}

@test "streaming: a large UTF-8 entity -> ISO-2022-JP equals iconv's bytes (state kept across buffers)" {
	need_same_bytes ISO-2022-JP
	{ printf '<?xml version="1.0" encoding="ISO-2022-JP"?>\n<r>'
	  yes "$(printf 'ab\xe6\x97\xa5\xe6\x9c\xac c\xe3\x81\x82')" | head -n 100000
	  printf '</r>\n'; } > "$T/src"
	sed '1s/ISO-2022-JP/UTF-8/' "$T/src" > "$T/in.xml"
	iconv -f UTF-8 -t ISO-2022-JP < "$T/src" > "$T/want"
	xs --transcode-to=ISO-2022-JP -o "$T/out" "$T/in.xml"
	assert_success
	cmp "$T/out" "$T/want"
}

# Destinations (-o, --in-place): nothing lost.

@test "nothing lost: -o FILE: the file holds the bytes, standard output the report line" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16BE"?><a>\xc3\xa9</a>' |
	    u8to UTF-16BE > "$T/want"
	xs --transcode-to=UTF-16BE -o "$T/dest.xml" "$T/in.xml"
	assert_success
	assert_output "$T/in.xml: UTF-8 (declaration), declared \"UTF-8\""
	assert_equal "$stderr" ""
	same_bytes "$T/dest.xml" "$T/want"
	no_temp "$T"
}

@test "nothing lost: --output=FILE is -o FILE" {
	printf '<a/>' > "$T/in.xml"
	{ bytes feff; printf '<a/>' | u8to UTF-16BE; } > "$T/want"
	xs --transcode-to=UTF-16 --output="$T/dest.xml" "$T/in.xml"
	assert_success
	same_bytes "$T/dest.xml" "$T/want"
}

@test "nothing lost: -o onto an existing file replaces it and keeps its permission bits" {
	printf '<a>\xc3\xa9</a>' > "$T/in.xml"
	printf 'old contents that are longer than the new ones\n' > "$T/dest.xml"
	chmod 640 "$T/dest.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9</a>' > "$T/want"
	xs --transcode-to=ISO-8859-1 -o "$T/dest.xml" "$T/in.xml"
	assert_success
	same_bytes "$T/dest.xml" "$T/want"
	assert_equal "$(mode_of "$T/dest.xml")" 640
	no_temp "$T"
}

@test "nothing lost: -o creates a new file with the umask's mode" {
	printf '<a/>' > "$T/in.xml"
	umask 027
	xs --transcode-to=UTF-8 -o "$T/dest.xml" "$T/in.xml"
	assert_success
	assert_equal "$(mode_of "$T/dest.xml")" 640
}

@test "nothing lost: -o failure leaves an existing destination byte-identical and no temporary" {
	printf '<a>\xe2\x82\xac</a>' > "$T/in.xml"
	printf 'precious\n' > "$T/dest.xml"
	chmod 604 "$T/dest.xml"
	cp -p "$T/dest.xml" "$T/dest.orig"
	xs --transcode-to=ISO-8859-1 -o "$T/dest.xml" "$T/in.xml"
	assert_failure 1
	cmp "$T/dest.xml" "$T/dest.orig"
	assert_equal "$(mode_of "$T/dest.xml")" 604
	no_temp "$T"
}

@test "nothing lost: -o through a symbolic link writes the file it points to" {
	printf '<a/>' > "$T/in.xml"
	printf 'old\n' > "$T/real.xml"
	ln -s real.xml "$T/link.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | u8to UTF-16LE \
	    > "$T/want"
	xs --transcode-to=UTF-16LE -o "$T/link.xml" "$T/in.xml"
	assert_success
	[ -L "$T/link.xml" ] || fail "the link was replaced"
	same_bytes "$T/real.xml" "$T/want"
}

@test "nothing lost: --in-place: the file is transcoded and keeps mode 640" {
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\xc3\xa9</a>\n' > "$T/in.xml"
	chmod 640 "$T/in.xml"
	{ bytes feff; printf '<?xml version="1.0" encoding="UTF-16"?>\n<a>caf\xc3\xa9</a>\n' |
	    u8to UTF-16BE; } > "$T/want"
	xs --transcode-to=UTF-16 --in-place "$T/in.xml"
	assert_success
	assert_output "$T/in.xml: UTF-8 (declaration), declared \"UTF-8\"; written"
	same_bytes "$T/in.xml" "$T/want"
	assert_equal "$(mode_of "$T/in.xml")" 640
	no_temp "$T"
}

@test "nothing lost: --in-place keeps an unusual mode too (600)" {
	printf '<a/>' > "$T/in.xml"
	chmod 600 "$T/in.xml"
	xs --transcode-to=UTF-16LE --in-place "$T/in.xml"
	assert_success
	assert_equal "$(mode_of "$T/in.xml")" 600
}

@test "nothing lost: --in-place on several files transcodes each" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' > "$T/one.xml"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><b>\xe9</b>' > "$T/two.xml"
	{ bytes fffe; printf '<c>\xc3\xa9</c>' | u8to UTF-16LE; } > "$T/three.xml"
	xs --transcode-to=UTF-8 --in-place "$T/one.xml" "$T/two.xml" "$T/three.xml"
	assert_success
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' > "$T/want1"
	printf '<?xml version="1.0" encoding="UTF-8"?><b>\xc3\xa9</b>' > "$T/want2"
	printf '<c>\xc3\xa9</c>' > "$T/want3"
	same_bytes "$T/one.xml" "$T/want1"
	same_bytes "$T/two.xml" "$T/want2"
	same_bytes "$T/three.xml" "$T/want3"
	assert_equal "${#lines[@]}" 3
	no_temp "$T"
}

@test "nothing lost: --in-place: one file failing leaves it intact and the others are transcoded (exit 1)" {
	printf '<a>\xc3\xa9</a>' > "$T/one.xml"
	printf '<a>\xe2\x82\xac</a>' > "$T/two.xml"
	printf '<a>\xc3\xa0</a>' > "$T/three.xml"
	cp "$T/two.xml" "$T/two.orig"
	xs --transcode-to=ISO-8859-1 --in-place "$T/one.xml" "$T/two.xml" "$T/three.xml"
	assert_failure 1
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9</a>' > "$T/want1"
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe0</a>' > "$T/want3"
	same_bytes "$T/one.xml" "$T/want1"
	cmp "$T/two.xml" "$T/two.orig"
	same_bytes "$T/three.xml" "$T/want3"
	stderr_has "two.xml:1:4: error: U+20AC"
	no_temp "$T"
}

@test "nothing lost: --in-place with --strict leaves an erroneous file byte-identical" {
	printf '<?xml version="1.0" encoding="UTF-16"?><a/>' | u8to UTF-16LE > "$T/in.xml"
	cp "$T/in.xml" "$T/orig"
	xs --strict --transcode-to=UTF-8 --in-place "$T/in.xml"
	assert_failure 1
	cmp "$T/in.xml" "$T/orig"
	no_temp "$T"
}

@test "nothing lost: -o naming the input itself replaces it like --in-place" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\xc3\xa9</a>' > "$T/in.xml"
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a>\xc3\xa9</a>' |
	    u8to UTF-16LE > "$T/want"
	xs --transcode-to=UTF-16LE -o "$T/in.xml" "$T/in.xml"
	assert_success
	same_bytes "$T/in.xml" "$T/want"
	no_temp "$T"
}

@test "nothing lost: -o /dev/null: written directly, exit 0" {
	printf '<a/>' > "$T/in.xml"
	xs --transcode-to=UTF-16 -o /dev/null "$T/in.xml"
	assert_success
	assert_equal "$stderr" ""
	[ -c /dev/null ]
}

@test "nothing lost: -o FIFO: written directly into the FIFO" {
	printf '<a>\xc3\xa9</a>' > "$T/in.xml"
	{ bytes feff; printf '<a>\xc3\xa9</a>' | u8to UTF-16BE; } > "$T/want"
	mkfifo "$T/fifo"
	timeout 20 cat "$T/fifo" > "$T/got" &
	local reader=$!
	xs --transcode-to=UTF-16 -o "$T/fifo" "$T/in.xml"
	wait "$reader"
	assert_success
	[ -p "$T/fifo" ] || fail "the FIFO was replaced"
	same_bytes "$T/got" "$T/want"
	no_temp "$T"
}

@test "target rules: an empty entity -> UTF-16 is the BOM alone" {
	: > "$T/in.xml"
	xs_to "$T/out" --transcode-to=UTF-16 "$T/in.xml"
	assert_success
	assert_equal "$(hexof "$T/out")" feff
}

@test "nothing lost: -o /dev/full: exit 2 and a write-error message" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a/>' > "$T/in.xml"
	xs --transcode-to=UTF-16LE -o /dev/full "$T/in.xml"
	assert_failure 2
	stderr_has "/dev/full"
	stderr_has "No space left on device"
}

@test "nothing lost: standard output on /dev/full: exit 2 and a write-error message" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a/>' > "$T/in.xml"
	run_apart sh -c '"$0" --transcode-to=UTF-16LE "$1" > /dev/full' \
	    "$XMLSNIFF" "$T/in.xml"
	assert_failure 2
	stderr_has "No space left on device"
}

@test "nothing lost: -o into a missing directory: exit 2, nothing created" {
	printf '<a/>' > "$T/in.xml"
	xs --transcode-to=UTF-16LE -o "$T/no/such/dir/out.xml" "$T/in.xml"
	assert_failure 2
	stderr_has "$T/no/such/dir"
	[ ! -e "$T/no" ]
}

@test "nothing lost: standard input through a pipe is transcoded" {
	printf '<?xml version="1.0" encoding="UTF-16LE"?><a>\xc3\xa9</a>' |
	    u8to UTF-16LE > "$T/want"
	run_apart sh -c \
	    'printf "<a>\303\251</a>" | "$0" --transcode-to=UTF-16LE > "$1"' \
	    "$XMLSNIFF" "$T/out"
	assert_success
	same_bytes "$T/out" "$T/want"
}

@test "nothing lost: standard input named - through a pipe, to -o" {
	{ bytes feff; printf '<a>\xc3\xa9</a>' | u8to UTF-16BE; } > "$T/in.xml"
	printf '<a>\xc3\xa9</a>' > "$T/want"
	run_apart sh -c \
	    'cat "$1" | "$0" --transcode-to=UTF-8 -o "$2" -' \
	    "$XMLSNIFF" "$T/in.xml" "$T/dest.xml"
	assert_success
	same_bytes "$T/dest.xml" "$T/want"
}

# big_file FILE: a ~200 MB UTF-8 document.
big_file() {
	huge "a 200 MB input"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>'
	  yes '<a>x</a>' | head -c 200000000
	  printf '</r>\n'; } > "$1"
}

# transcoded_big ORIG GOT: GOT is ORIG transcoded to UTF-16LE, complete
# (ORIG's declaration line is 39 bytes).
transcoded_big() {
	{ printf '<?xml version="1.0" encoding="UTF-16LE"?>\n'
	  tail -c +40 "$1"; } | iconv -f UTF-8 -t UTF-16LE | cmp - "$2"
}

# bats test_tags=slow
@test "nothing lost: SIGTERM during a large --in-place transcode leaves the original and no temporary" {
	big_file "$T/big.xml"
	cp "$T/big.xml" "$T/orig"
	"$XMLSNIFF" --transcode-to=UTF-16LE --in-place "$T/big.xml" \
	    > /dev/null 2>&1 &
	local pid=$! rc=0
	sleep 0.05
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || rc=$?
	no_temp "$T"
	# finished before the signal, or killed after the rename (while it
	# exits): then it must be complete; else the original is untouched
	[ "$rc" -eq 0 ] || assert_equal "$rc" 143
	if [ "$rc" -eq 0 ] || ! cmp -s "$T/big.xml" "$T/orig"; then
		transcoded_big "$T/orig" "$T/big.xml"
	fi
}

# bats test_tags=slow
@test "nothing lost: SIGTERM during a large -o transcode leaves the existing destination" {
	big_file "$T/big.xml"
	printf 'precious\n' > "$T/dest.xml"
	"$XMLSNIFF" --transcode-to=UTF-16LE -o "$T/dest.xml" "$T/big.xml" \
	    > /dev/null 2>&1 &
	local pid=$! rc=0
	sleep 0.05
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || rc=$?
	no_temp "$T"
	[ "$rc" -eq 0 ] || assert_equal "$rc" 143
	if [ "$rc" -eq 0 ] || [ "$(cat "$T/dest.xml")" != precious ]; then
		transcoded_big "$T/big.xml" "$T/dest.xml"
	fi
}

# Usage errors: exit 2, nothing read.

# _unread ARGS...: xmlsniff ARGS with a document on standard input; what
# it left unread goes to $T/unread, its standard output to $T/out.
_unread() {
	printf '<?xml version="1.0"?><a/>' | {
		"$XMLSNIFF" "$@" > "$T/out"
		local rc=$?
		cat > "$T/unread"
		return $rc
	}
}

@test "usage: an unknown target is exit 2 and nothing is read" {
	run_apart _unread --transcode-to=no-such-enc -
	assert_failure 2
	stderr_has "no-such-enc"
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
	[ ! -s "$T/out" ]
}

@test "usage: an unknown target with -o creates nothing" {
	printf '<a/>' > "$T/in.xml"
	xs --transcode-to=no-such-enc -o "$T/dest.xml" "$T/in.xml"
	assert_failure 2
	assert_output ""
	[ ! -e "$T/dest.xml" ]
}

@test "usage: several inputs without --in-place are exit 2 and nothing is read" {
	printf '<a/>' > "$T/in.xml"
	cp "$T/in.xml" "$T/orig"
	run_apart _unread --transcode-to=UTF-16LE - "$T/in.xml"
	assert_failure 2
	stderr_has "--in-place"
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
	[ ! -s "$T/out" ]
	cmp "$T/in.xml" "$T/orig"
}

@test "usage: -o with --in-place is exit 2 and nothing is touched" {
	printf '<a/>' > "$T/in.xml"
	cp "$T/in.xml" "$T/orig"
	xs --transcode-to=UTF-16LE -o "$T/dest.xml" --in-place "$T/in.xml"
	assert_failure 2
	assert_output ""
	[ ! -e "$T/dest.xml" ]
	cmp "$T/in.xml" "$T/orig"
}

@test "usage: -o with --in-place on standard input reads nothing" {
	run_apart _unread --transcode-to=UTF-16LE -o "$T/dest.xml" --in-place -
	assert_failure 2
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
	[ ! -e "$T/dest.xml" ]
}

@test "usage: --in-place on standard input is exit 2" {
	run_apart _unread --transcode-to=UTF-8 --in-place
	assert_failure 2
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
}

@test "usage: --fallback with an unknown mode is exit 2" {
	run_apart _unread --transcode-to=UTF-8 --fallback=replace -
	assert_failure 2
	stderr_has "replace"
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
}

@test "usage: --byte-order with an unknown order is exit 2" {
	run_apart _unread --transcode-to=UTF-16 --byte-order=middle -
	assert_failure 2
	stderr_has "middle"
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
}

@test "usage: -o without --transcode-to is exit 2" {
	run_apart _unread -o "$T/dest.xml" -
	assert_failure 2
	assert_equal "$(cat "$T/unread")" '<?xml version="1.0"?><a/>'
	[ ! -e "$T/dest.xml" ]
}

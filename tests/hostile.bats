#!/usr/bin/env bats
# Hostile inputs and environments (xmlsniff(1), DIAGNOSTICS) and "nothing
# lost" (xmlsniff(1), TRANSCODING: -o and --in-place): files over 4 GiB, slow
# FIFOs and pipes, devices, symbolic-link loops, awkward file names in every
# output, a 100 MB line, megabyte-long declarations, malformed --content-type
# values, odd --files0-from lists, thousands of inputs under a small
# descriptor limit, standard output and standard input closed, SIGPIPE,
# signals during an --in-place transcode, a directory that cannot be written,
# a full file system, and an input replaced while it is read.  Every run must
# end (no hang), with an exit status that EXIT STATUS in xmlsniff(1) allows, no
# signal of its own (a status of 128 or more is a crash unless the test sent
# that signal), and must leave no partial file.
load helper

setup() {
	scratch_samples
}

teardown() {
	cd "$BATS_TEST_TMPDIR" || return 0
	# Undo what would stop the scratch directory from being removed,
	# and drop the big files at once (bats keeps them to the end).
	if [ -d immutable ]; then chattr -i immutable 2> /dev/null || true; fi
	if [ -d tiny ] && mountpoint -q tiny 2> /dev/null; then
		umount tiny 2> /dev/null || true
	fi
	rm -f huge.xml w.xml .w.xml.xmlsniff-* out.xml .out.xml.xmlsniff-* \
	    in.xml long.xml
}

teardown_file() {
	rm -f "$BATS_FILE_TMPDIR"/big.*
}

# xs_t ARGS...: xs under timeout(1), for runs that could hang.
xs_t() {
	run_apart timeout 20 "$XMLSNIFF" "$@"
}

# sh_run SCRIPT ARGS...: run a bash script with $0 = the binary under test.
sh_run() {
	local script=$1
	shift
	run_apart timeout 60 bash -c "$script" "$XMLSNIFF" "$@"
}

# The number of lines in $stderr (0 when empty).
nerr() {
	if [ -z "$stderr" ]; then echo 0; else printf '%s\n' "$stderr" | wc -l; fi
}

# no_temp DIR: no temporary file of a transcode is left in DIR.
no_temp() {
	local left
	left=$(find "$1" -maxdepth 1 -name '.*.xmlsniff-*')
	[ -z "$left" ] || fail "temporary files left behind: $left"
}

# sigpipe_default: skip unless SIGPIPE has its default action here.
sigpipe_default() {
	if [ -r /proc/self/status ]; then
		local ign
		ign=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status)
		(( (16#$ign & 0x1000) == 0 )) || skip "SIGPIPE is ignored here"
	fi
}

# first_err: the first line of $stderr.
first_err() {
	printf '%s\n' "${stderr%%$'\n'*}"
}

# ---------------------------------------------------------------------------
# Files over 4 GiB

# bats test_tags=slow
@test "SLOW (reads 4.3 GB): a sparse file over 4 GiB: the FF past 4 GiB at its exact offset, every NUL counted" {
	huge "a 4.3 GB input"
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>' > huge.xml
	truncate -s 4300M huge.xml 2> /dev/null || skip "cannot make a 4300 MB file"
	printf '\377' | dd of=huge.xml bs=1 seek=4294967400 conv=notrunc status=none
	[ "$(du -k huge.xml | cut -f1)" -lt 1024 ] ||
	    skip "this file system has no sparse files"
	[ "$(stat -c %s huge.xml)" -eq 4508876800 ]
	# 42 bytes of head, then NULs (U+0000, not Chars) to the end but for
	# the FF; line 2 starts at offset 39.
	run_apart timeout 900 "$XMLSNIFF" --json huge.xml
	assert_success
	assert_output --partial '"errors":2,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-char","offset":42,"line":2,"column":4,"count":4508876757,'
	assert_output --partial '{"severity":"error","code":"illegal-sequence","offset":4294967400,"line":2,"column":4294967362,"count":1,'
	[ -z "$stderr" ]
}

# ---------------------------------------------------------------------------
# FIFOs, pipes and devices

@test "a FIFO fed in slow pieces: a declaration and a character split across writes" {
	mkfifo p
	{
		printf '<?xml vers'
		sleep 0.3
		printf 'ion="1.0" encoding="UTF-8"?>\n<a>\342'
		sleep 0.3
		printf '\202\254'
		sleep 0.3
		printf '\377</a>\n'
	} > p 2> /dev/null 3>&- &
	local w=$!
	xs_t --json p
	kill "$w" 2> /dev/null || true
	wait "$w" || true
	assert_success
	# FF at 39 + 3 + 3: line 2, after "<a>" and U+20AC.
	assert_output --partial '{"file":"p","encoding":"UTF-8","source":"declaration",'
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":45,"line":2,"column":5,"count":1,'
	json_ok
}

@test "a FIFO fed 1 MB in 64 KiB pieces with pauses: the byte after them at its exact offset" {
	mkfifo p
	{
		local i
		printf '<a>'
		for ((i = 0; i < 16; i++)); do
			head -c 65536 /dev/zero | tr '\0' x
			sleep 0.02
		done
		printf '\377</a>'
	} > p 2> /dev/null 3>&- &
	local w=$!
	xs_t p
	kill "$w" 2> /dev/null || true
	wait "$w" || true
	assert_success
	assert_output 'p: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'p:1:1048580: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "a pipe fed in slow pieces is read to its end" {
	sh_run '{ printf "<?xml version=\"1.0\" enc"; sleep 0.3
		  printf "oding=\"ISO-8859-1\"?><a>\351"; sleep 0.3
		  printf "</a>"; } | "$0"'
	assert_success
	assert_output '-: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "/dev/urandom as FILE: refused as a character device, never read" {
	xs_t /dev/urandom plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: /dev/urandom: is a character device; not read (redirect it to standard input to read it)'
}

@test "/dev/zero and /dev/urandom together in --json: two error objects, exit 2" {
	xs_t --json /dev/zero /dev/urandom
	assert_failure 2
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 '{"file":"/dev/zero","error":"is a character device; not read (redirect it to standard input to read it)","encoding":null,"source":null,"bom":null,"declaration":null,"charset":null,"mime":null,"errors":null,"warnings":null,"diagnostics":null}'
	assert_line -n 1 --partial '{"file":"/dev/urandom","error":"is a character device;'
	json_ok
}

@test "5 000 000 NUL bytes through a pipe: one illegal-char line with the whole count, and not-xml" {
	sh_run 'head -c 5000000 /dev/zero | "$0"'
	assert_success
	assert_output '-: UTF-8 (default), no declaration, 1 error, 1 warning'
	assert_equal "$stderr" "-:1:1: warning: the first character (after any BOM and white space) is U+0000, not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]
-:1:1: error: U+0000 is not an XML Char (XML 1.0 [2]); remove it (a NUL byte: is this a binary file, or mislabelled UTF-16?) (5000000 times) [illegal-char]"
}

# ---------------------------------------------------------------------------
# Symbolic links under -r

@test "-r: a loop (ln -s . loop) and links to parent directories are not followed; the walk ends" {
	mkdir -p tree/sub
	printf '<a/>' > tree/sub/a.xml
	ln -s . tree/loop
	ln -s .. tree/sub/up
	ln -s ../.. tree/sub/up2
	ln -s "$PWD/tree" tree/sub/abs
	xs_t -r tree
	assert_success
	assert_output 'tree/sub/a.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "-r: a link to itself (ln -s self self) inside the tree is passed over" {
	mkdir tree
	printf '<a/>' > tree/a.xml
	ln -s self tree/self
	ln -s nowhere tree/dangling.xml
	xs_t -r tree
	assert_success
	assert_output 'tree/a.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "-r: an operand that is a link into its own tree is walked once, its loop not followed" {
	mkdir -p tree/sub
	printf '<a/>' > tree/sub/a.xml
	ln -s . tree/loop
	xs_t -r tree/loop
	assert_success
	assert_output 'tree/loop/sub/a.xml: UTF-8 (default), no declaration'
}

@test "a link to itself as an operand: exit 2, one line, the others read" {
	ln -s self self
	xs_t self plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" "xmlsniff: self: $(errtext ELOOP)"
}

@test "-r: a FIFO without a writer inside the tree is passed over, not waited for" {
	mkdir tree
	printf '<a/>' > tree/a.xml
	mkfifo tree/b.xml
	xs_t -r tree
	assert_success
	assert_output 'tree/a.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "-r: a 300-deep tree is walked to its bottom" {
	local p=deep d
	# "/d" 300 times: printf uses its format once for each number.
	printf -v d '/d%.0s' {1..300}
	p+=$d
	mkdir -p "$p"
	printf '<a>\377</a>' > "$p/x.xml"
	xs_t -r deep
	assert_success
	assert_output "$p/x.xml: UTF-8 (default), no declaration, 1 error"
	assert_equal "$stderr" "$p/x.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]"
}

# ---------------------------------------------------------------------------
# Awkward file names: escaped, one line per file, in every output

# awkward: a tree of files named with a newline, a backslash, CR, DEL,
# ESC, quotes, a space, a tab, UTF-8 and a byte that is not UTF-8, each
# holding one illegal byte at 1:4.
awkward() {
	local n
	mkdir tree
	for n in $'a\nb.xml' 'back\slash.xml' $'cr\r.xml' $'del\x7f.xml' \
	    $'esc\e[0m.xml' "q\"uo'te.xml" 'sp ace.xml' $'t\tab.xml' \
	    $'\xc3\xa9t\xc3\xa9.xml' $'\xff.xml'; do
		printf '<a>\377</a>' > "tree/$n"
	done
	[ "$(find tree -type f -printf x | wc -c)" -eq 10 ] || fail "could not make the names"
}

# The names as the default output and the diagnostics write them, in -r
# (bytewise) order.
AWKWARD_SHOWN=('tree/a\nb.xml' 'tree/back\\slash.xml' 'tree/cr\x0D.xml'
    'tree/del\x7F.xml' 'tree/esc\x1B[0m.xml' "tree/q\"uo'te.xml"
    'tree/sp ace.xml' 'tree/t\tab.xml' $'tree/\xc3\xa9t\xc3\xa9.xml'
    'tree/\xFF.xml')

@test "names: the default output escapes every awkward name, one line per file" {
	awkward
	xs_t -r tree
	assert_success
	assert_equal "${#lines[@]}" 10
	local i
	for i in "${!AWKWARD_SHOWN[@]}"; do
		assert_line -n "$i" "${AWKWARD_SHOWN[$i]}: UTF-8 (default), no declaration, 1 error"
	done
}

@test "names: diagnostics on stderr escape every awkward name, one line each" {
	awkward
	xs_t -q -r tree
	assert_success
	[ -z "$output" ]
	assert_equal "$(nerr)" 10
	local i want=''
	for i in "${!AWKWARD_SHOWN[@]}"; do
		want+="${AWKWARD_SHOWN[$i]}:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]"$'\n'
	done
	assert_equal "$stderr" "${want%$'\n'}"
}

@test "names: -i and --mime-encoding escape every awkward name, one line per file" {
	awkward
	local i
	xs_t -i -r tree
	assert_success
	assert_equal "${#lines[@]}" 10
	for i in "${!AWKWARD_SHOWN[@]}"; do
		assert_line -n "$i" "${AWKWARD_SHOWN[$i]}: application/xml; charset=utf-8"
	done
	xs_t --mime-encoding -r tree
	assert_success
	assert_equal "${#lines[@]}" 10
	for i in "${!AWKWARD_SHOWN[@]}"; do
		assert_line -n "$i" "${AWKWARD_SHOWN[$i]}: utf-8"
	done
}

@test "names: --json is valid JSON and gives back the exact bytes of every awkward name" {
	command -v python3 > /dev/null || skip "python3 is not installed"
	awkward
	xs_t --json -r tree
	assert_success
	assert_equal "${#lines[@]}" 10
	json_ok
	local got want
	got=$(printf '%s\n' "$output" | python3 -c '
import json, sys
for line in sys.stdin:
    name = json.loads(line)["file"]
    print(name.encode("utf-8", "surrogateescape").hex())
')
	want=$(cd tree && for n in *; do
		printf 'tree/%s' "$n" | od -An -v -tx1 | tr -d ' \n'
		echo
	done | LC_ALL=C sort)
	assert_equal "$(printf '%s\n' "$got" | LC_ALL=C sort)" "$want"
}

@test "names: a missing file with a tab and a newline in --files0-from: one escaped line" {
	printf 'plain.xml\0no\tsuch\nfile.xml\0' > list
	xs_t --files0-from=list
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: no\tsuch\nfile.xml: No such file or directory'
}

@test "names: an empty entry in a list whose own name has a newline: one escaped line" {
	printf 'plain.xml\0\0' > "$(printf 'li\nst')"
	xs_t --files0-from="$(printf 'li\nst')"
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: li\nst: name 2 is empty'
}

@test "names: a newline in a name stays escaped in 'not transcoded' (--in-place)" {
	printf '<?xml version="1.0"' > "$(printf 'd\nd.xml')"
	cp "$(printf 'd\nd.xml')" orig
	xs_t --transcode-to=UTF-16 --in-place "$(printf 'd\nd.xml')"
	assert_failure 1
	assert_equal "$(nerr)" 2
	assert_line --index 0 'd\nd.xml: UTF-8 (default), declaration without encoding, 1 error; refused: the declaration must be mended first'
	[[ "$stderr" == *'xmlsniff: d\nd.xml: not transcoded: the declaration must be mended first'* ]] ||
	    fail "no escaped 'not transcoded' line: $stderr"
	cmp "$(printf 'd\nd.xml')" orig
	no_temp .
}

@test "names: a newline in a name stays escaped in 'not transcoded' (--strict)" {
	printf '<a>\000</a>' > "$(printf 'z\nz.xml')"
	xs_t --strict --transcode-to=UTF-16 --in-place "$(printf 'z\nz.xml')"
	assert_failure 1
	assert_equal "$(nerr)" 2
	[[ "$stderr" == *'xmlsniff: z\nz.xml: not transcoded: the input has errors (--strict)'* ]] ||
	    fail "no escaped 'not transcoded' line: $stderr"
}

@test "names: a newline in an -o directory stays escaped in the I/O error" {
	xs_t --transcode-to=UTF-16 -o "$(printf 'no\ndir/out.xml')" plain.xml
	assert_failure 2
	assert_equal "$(nerr)" 1
	[[ "$stderr" == 'xmlsniff: '*'no\ndir'*': No such file or directory' ]] ||
	    fail "not one escaped line: $stderr"
	[ ! -e "$(printf 'no\ndir')" ]
}

@test "names: a name longer than PATH_MAX: exit 2, one line, the next input read" {
	local long
	long=$(head -c 5000 /dev/zero | tr '\0' a)
	xs_t "$long" plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" "xmlsniff: $long: $(errtext ENAMETOOLONG)"
}

# ---------------------------------------------------------------------------
# A 100 MB line (the slow tier: inputs of a hundred megabytes and more)

# hundred_mb_line FILE TAIL: "<a>", 100 000 000 x's, then TAIL (printf).
hundred_mb_line() {
	huge "a 100 MB input"
	{ printf '<a>'; head -c 100000000 /dev/zero | tr '\0' x; printf "$2"; } \
	    > "$1"
}

# bats test_tags=slow
@test "a 100 MB line: an FF after it at column 100000004, quickly" {
	hundred_mb_line long.xml '\377</a>'
	xs_t --json long.xml
	assert_success
	assert_output '{"file":"long.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":100000003,"line":1,"column":100000004,"count":1,"message":"bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it"}],"guess":null}'
}

# bats test_tags=slow
@test "a 100 MB line through a pipe: the same line:column on stderr" {
	hundred_mb_line long.xml '\377</a>'
	sh_run '"$0" < "$1"' long.xml
	assert_success
	assert_output '-: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" '-:1:100000004: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

# bats test_tags=slow
@test "a 100 MB line cut inside a character at its very end: truncated, column 100000004" {
	hundred_mb_line long.xml '\342\202'
	xs_t long.xml
	assert_success
	assert_output 'long.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'long.xml:1:100000004: error: the entity ends inside a character: bytes E2 82 are incomplete in UTF-8; the file is truncated [illegal-sequence]'
}

# bats test_tags=slow
@test "a 100 MB line in UTF-16LE: a lone surrogate at column 100000004, offset in bytes" {
	huge "a 100 MB input"
	{
		printf '\377\376<\000a\000>\000'
		yes x | tr '\n' '\0' | head -c 200000000
		printf '\000\330<\000/\000a\000>\000'
	} > long.xml
	xs_t --json long.xml
	assert_success
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"illegal-sequence","offset":200000008,"line":1,"column":100000004,"count":1,"message":"bytes 00 D8 are not valid in UTF-16LE (a high surrogate U+D800 not followed by a low one);'
}

# ---------------------------------------------------------------------------
# Megabyte-long declarations (inputs.bats has UTF-8 white space and a long
# encoding value)

# mb_decl SHAPE: a declaration with a megabyte in it, in UTF-8.
mb_decl() {
	local mb=1048576
	case $1 in
	space)	printf '<?xml version="1.0"'
		head -c $mb /dev/zero | tr '\0' ' '
		printf 'encoding="ISO-8859-1"?><a/>' ;;
	name)	printf '<?xml version="1.0" encoding="'
		head -c $mb /dev/zero | tr '\0' a
		printf '"?><a/>' ;;
	version) printf '<?xml version="1.'
		head -c $mb /dev/zero | tr '\0' 0
		printf '" encoding="ISO-8859-1"?><a/>' ;;
	open)	printf '<?xml version="1.0" encoding="ISO-8859-1" '
		head -c $mb /dev/zero | tr '\0' ' ' ;;
	attr)	printf '<?xml version="1.0" '
		head -c $mb /dev/zero | tr '\0' e
		printf '="x"?><a/>' ;;
	lead)	head -c $mb /dev/zero | tr '\0' ' '
		printf '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' ;;
	esac
}

# mb_decl16 SHAPE: the same in UTF-16LE with a BOM.
mb_decl16() {
	printf '\377\376'
	mb_decl "$1" | iconv -f UTF-8 -t UTF-16LE
}

TOO_LONG='malformed XML declaration: the declaration is longer than 16384 characters; the form is <?xml version="1.0" encoding="..."?>'

@test "1 MB declaration: a megabyte-long version: one bad-declaration line, fast" {
	mb_decl version > d.xml
	xs_t d.xml
	assert_success
	assert_output 'd.xml: UTF-8 (default), declaration without encoding, 1 error'
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" == "d.xml:1:15: error: $TOO_LONG"*'[bad-declaration]' ]]
}

@test "1 MB declaration: no ?> at all, a megabyte of spaces to the end" {
	mb_decl open > d.xml
	xs_t d.xml
	assert_success
	assert_output 'd.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 error'
	assert_equal "$stderr" "d.xml:1:1: error: $TOO_LONG [bad-declaration]"
}

@test "1 MB declaration: a megabyte-long pseudo-attribute name" {
	mb_decl attr > d.xml
	xs_t d.xml
	assert_success
	assert_output 'd.xml: UTF-8 (default), declaration without encoding, 1 error'
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" =~ ^d\.xml:1:[0-9]+:\ error:\ malformed\ XML\ declaration:\ .*\[bad-declaration\]$ ]]
}

@test "1 MB declaration: a megabyte of white space before <?xml is decl-not-at-start" {
	mb_decl lead > d.xml
	xs_t d.xml
	assert_success
	assert_output 'd.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'd.xml:1:1048577: error: the XML declaration comes after white space; it must be the very first thing in the entity (after the BOM, if any): remove what precedes it [decl-not-at-start]'
}

@test "1 MB declaration in UTF-16LE with a BOM: a megabyte of white space inside" {
	mb_decl16 space > d.xml
	xs_t --json d.xml
	assert_success
	assert_output --partial '{"file":"d.xml","encoding":"UTF-16LE","source":"bom","bom":"UTF-16LE","declaration":{"kind":"xml","version":"1.0","encoding":null,"standalone":null},'
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"bad-declaration","offset":2,"line":1,"column":1,"count":1,'
}

@test "1 MB declaration in UTF-16LE with a BOM: a megabyte-long encoding name" {
	mb_decl16 name > d.xml
	xs_t d.xml
	assert_success
	assert_output 'd.xml: UTF-16LE (BOM), declaration without encoding, 1 error'
	assert_equal "$stderr" "d.xml:1:30: error: $TOO_LONG [bad-declaration]"
}

@test "1 MB declaration in UTF-16LE with a BOM: a megabyte-long version" {
	mb_decl16 version > d.xml
	xs_t --json d.xml
	assert_success
	assert_output --partial '"diagnostics":[{"severity":"error","code":"bad-declaration","offset":30,"line":1,"column":15,'
	[ -z "$stderr" ]
}

@test "1 MB declaration in UTF-16LE with a BOM: no ?> at all; the BOM still wins" {
	mb_decl16 open > d.xml
	xs_t d.xml
	assert_success
	assert_output 'd.xml: UTF-16LE (BOM), declared "ISO-8859-1", 2 errors'
	[ "$(nerr)" -eq 2 ]
	[[ "$stderr" == "d.xml:1:1: error: $TOO_LONG [bad-declaration]"$'\n'*'[decl-mismatch]' ]]
}

@test "1 MB declaration in UTF-16LE with a BOM: a megabyte-long pseudo-attribute name" {
	mb_decl16 attr > d.xml
	xs_t --json d.xml
	assert_success
	assert_output --partial '"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"bad-declaration",'
	json_ok
}

@test "1 MB declaration in UTF-16LE through a pipe, with --strict: exit 1" {
	mb_decl16 space > d.xml
	sh_run '"$0" --strict < "$1"' d.xml
	assert_failure 1
	assert_output '-: UTF-16LE (BOM), declaration without encoding, 1 error'
	assert_equal "$stderr" "-:1:1: error: $TOO_LONG [bad-declaration]"
}

# ---------------------------------------------------------------------------
# --content-type: huge and malformed values (cli.bats has the common ones).
# Each is exit 2 with one message line (then the usage), no standard
# output, and nothing read from standard input.

# ct_refused VALUE FIRST-LINE: --content-type=VALUE is refused with
# FIRST-LINE as the first line of stderr, reading nothing.
ct_refused() {
	local doc='<?xml version="1.0"?><a/>'
	run_apart timeout 20 bash -c '
		printf "%s" "$2" | {
			"$0" --content-type="$1" > out
			rc=$?
			cat > unread
			exit $rc
		}' "$XMLSNIFF" "$1" "$doc"
	assert_failure 2
	[ ! -s out ] || fail "standard output: $(cat out)"
	assert_equal "$(cat unread)" "$doc"
	assert_equal "$(first_err)" "$2"
	[ "${stderr#*$'\n'}" = "Try 'xmlsniff --help' for more information." ] ||
	    fail "the second line does not point at --help: $stderr"
	[ "${#stderr}" -lt 2000 ] || fail "the message repeats the value"
}

@test "--content-type of 100 KB (a huge charset): refused, one short line" {
	ct_refused "application/xml; charset=$(head -c 102400 /dev/zero | tr '\0' a)" \
	    'xmlsniff: --content-type: longer than 4096 bytes'
}

@test "--content-type of 100 KB (a huge type): refused, one short line" {
	ct_refused "$(head -c 102400 /dev/zero | tr '\0' a)/xml" \
	    'xmlsniff: --content-type: longer than 4096 bytes'
}

@test "--content-type with a 200-byte subtype: refused" {
	ct_refused "application/$(head -c 200 /dev/zero | tr '\0' b)" \
	    'xmlsniff: --content-type: the media type is too long'
}

@test "--content-type with a 200-byte charset: refused, not cut short" {
	ct_refused "application/xml; charset=$(head -c 200 /dev/zero | tr '\0' b)" \
	    'xmlsniff: --content-type: the charset value is too long'
}

@test "--content-type with a 200-byte quoted charset: refused, not cut short" {
	ct_refused "application/xml; charset=\"$(head -c 200 /dev/zero | tr '\0' b)\"" \
	    'xmlsniff: --content-type: the charset value is too long'
}

@test "--content-type with a newline before the parameters: the message stays on one line" {
	ct_refused $'application/xml\n; charset=utf-8' \
	    'xmlsniff: --content-type: unexpected "\n" at byte 16; parameters are "; name=value"'
}

@test "--content-type with a newline at the end: the message stays on one line" {
	ct_refused $'application/xml; charset=utf-8\n' \
	    'xmlsniff: --content-type: unexpected "\n" at byte 31; parameters are "; name=value"'
}

@test "--content-type with a control character in the type: refused" {
	ct_refused $'appli\001cation/xml' \
	    'xmlsniff: --content-type: expected type/subtype, as in "application/xml"'
}

@test "--content-type of only spaces: refused" {
	ct_refused '   ' \
	    'xmlsniff: --content-type: expected type/subtype, as in "application/xml"'
}

@test "--content-type without a type (/xml): refused" {
	ct_refused '/xml' \
	    'xmlsniff: --content-type: expected type/subtype, as in "application/xml"'
}

@test "--content-type with a comment before the type: refused" {
	ct_refused '(comment)application/xml' \
	    'xmlsniff: --content-type: expected type/subtype, as in "application/xml"'
}

@test "--content-type with two slashes (application//xml): refused" {
	ct_refused 'application//xml' \
	    'xmlsniff: --content-type: the subtype is missing after "/"'
}

@test "--content-type with a third part (application/xml/x): refused" {
	ct_refused 'application/xml/x' \
	    'xmlsniff: --content-type: unexpected "/" at byte 16; parameters are "; name=value"'
}

@test "--content-type with an unquoted space in the charset: refused" {
	ct_refused 'application/xml; charset=utf 8' \
	    'xmlsniff: --content-type: unexpected "8" at byte 30; parameters are "; name=value"'
}

@test "--content-type with text after a quoted charset: refused" {
	ct_refused 'application/xml; charset="utf-8"x' \
	    'xmlsniff: --content-type: unexpected "x" at byte 33; parameters are "; name=value"'
}

@test "--content-type with a backslash before the end of a quoted value: refused" {
	ct_refused 'application/xml; charset="utf-8\' \
	    'xmlsniff: --content-type: a quoted parameter value is not closed'
}

@test "--content-type with an empty quoted charset: refused" {
	ct_refused 'application/xml; charset=""' \
	    'xmlsniff: --content-type: the charset value is empty'
}

@test "--content-type with spaces around '=': refused" {
	ct_refused 'application/xml ; charset = utf-8' \
	    'xmlsniff: --content-type: a parameter at byte 19 is not name=value'
}

@test "--content-type with a non-ASCII byte in a parameter name: refused" {
	ct_refused $'application/xml; chars\xe9t=utf-8' \
	    'xmlsniff: --content-type: a parameter at byte 18 is not name=value'
}

# ---------------------------------------------------------------------------
# --files0-from lists (cli.bats has an empty name in the middle and a
# last name without its NUL)

@test "--files0-from: empty names first and last: one message each, the rest read" {
	printf '\0plain.xml\0latin1.xml\0\0' > list
	xs_t --files0-from=list
	assert_failure 2
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 'plain.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'latin1.xml: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	assert_equal "$stderr" $'xmlsniff: list: name 1 is empty\nxmlsniff: list: name 4 is empty'
}

@test "--files0-from: a list of NULs only: one message per empty name, nothing read" {
	printf '\0\0\0' > list
	xs_t --files0-from=list
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" $'xmlsniff: list: name 1 is empty\nxmlsniff: list: name 2 is empty\nxmlsniff: list: name 3 is empty'
}

@test "--files0-from: a last name without its NUL naming a missing file" {
	printf 'plain.xml\0nope.xml' > list
	xs_t --files0-from=list
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: nope.xml: No such file or directory'
}

@test "--files0-from: the list is a directory: exit 2, one line" {
	mkdir dir
	xs_t --files0-from=dir
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: dir: Is a directory'
}

# bats test_tags=slow
@test "--files0-from: 10 000 names, every other one missing: 5000 lines each way, in order, exit 2" {
	xml_links m 0 2 9999
	seq -f 'm/f%g.xml' 0 9999 | tr '\n' '\0' > list
	xs_t --files0-from=list
	assert_failure 2
	assert_equal "${#lines[@]}" 5000
	assert_line -n 0 'm/f0.xml: UTF-8 (default), no declaration'
	assert_line -n 4999 'm/f9998.xml: UTF-8 (default), no declaration'
	assert_equal "$(nerr)" 5000
	assert_equal "$(printf '%s\n' "$stderr" | sed -n '1p;$p')" \
	    $'xmlsniff: m/f1.xml: No such file or directory\nxmlsniff: m/f9999.xml: No such file or directory'
	# Nothing else on stderr than those messages.
	[ "$(printf '%s\n' "$stderr" | grep -cv '^xmlsniff: m/f[0-9]*[13579]\.xml: No such file or directory$')" -eq 0 ]
}

@test "--files0-from --json: 10 000 names, every other one missing: 10 000 valid objects" {
	xml_links m 0 2 9999
	seq -f 'm/f%g.xml' 0 9999 | tr '\n' '\0' > list
	xs_t --json --files0-from=list
	assert_failure 2
	assert_equal "${#lines[@]}" 10000
	assert_equal "$(printf '%s\n' "$output" | grep -c '"error":"No such file or directory"')" 5000
	assert_line -n 9999 --partial '{"file":"m/f9999.xml","error":"No such file or directory",'
	json_ok
}

# ---------------------------------------------------------------------------
# Thousands of inputs under a small descriptor limit (no descriptor leak)

# many_files N: N files m/f0.xml ... in the directory m, each "<a/>" (an
# empty file would draw not-xml), for reading only (hard links).
many_files() {
	xml_links m 0 1 $(($1 - 1))
}

@test "3000 files via --files0-from under ulimit -n 64: all read, exit 0" {
	many_files 3000
	find m -type f -print0 > list
	sh_run 'ulimit -n 64 && exec "$0" --files0-from=list'
	assert_success
	assert_equal "${#lines[@]}" 3000
	[ -z "$stderr" ]
	[ "$(printf '%s\n' "$output" | grep -c ': UTF-8 (default), no declaration$')" -eq 3000 ]
}

@test "3000 files via -r under ulimit -n 64: all read, exit 0" {
	many_files 3000
	sh_run 'ulimit -n 64 && exec "$0" -r m'
	assert_success
	assert_equal "${#lines[@]}" 3000
	assert_line -n 0 'm/f0.xml: UTF-8 (default), no declaration'
	assert_line -n 2999 'm/f999.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "3000 operands, half of them missing, under ulimit -n 64: all reported" {
	many_files 1500
	local args
	mapfile -t args < <(seq -f 'm/f%g.xml' 0 2999)
	sh_run 'ulimit -n 64 && exec "$0" "$@"' "${args[@]}"
	assert_failure 2
	assert_equal "${#lines[@]}" 1500
	assert_equal "$(nerr)" 1500
	[ "$(printf '%s\n' "$stderr" | grep -c ': No such file or directory$')" -eq 1500 ]
}

@test "200 files --in-place -r under ulimit -n 64: every one transcoded, no temporary left" {
	xml_files m 0 1 199
	sh_run 'ulimit -n 64 && exec "$0" -q --transcode-to=UTF-16 --in-place -r m'
	assert_success
	[ -z "$stderr" ]
	# Each file is FE FF 00 3C 00 61 00 2F 00 3E, by its checksum: one
	# process for the 200 files, not two for each.
	local want
	want=$(printf '\376\377\0<\0a\0/\0>' | sha256sum)
	want=${want%% *}
	assert_equal "$(sha256sum m/*.xml | grep -c "^$want ")" 200
	assert_equal "$(ls m | wc -l)" 200
	no_temp m
}

@test "a 40-deep tree under ulimit -n 64: walked to its bottom" {
	local p=deep i
	for ((i = 0; i < 40; i++)); do p+=/d; done
	mkdir -p "$p"
	printf '<a/>' > "$p/x.xml"
	sh_run 'ulimit -n 64 && exec "$0" -r deep'
	assert_success
	assert_output "$p/x.xml: UTF-8 (default), no declaration"
}

# ---------------------------------------------------------------------------
# Standard output and standard input closed (inputs.bats has the default
# form and -q)

@test "closed standard output with -i: exit 2, one line" {
	sh_run '"$0" -i plain.xml >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with --json: exit 2, one line" {
	sh_run '"$0" --json plain.xml >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with --mime-encoding: exit 2, one line" {
	sh_run '"$0" --mime-encoding plain.xml >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with -r over many files: exit 2, one line (not one per file)" {
	many_files 500
	sh_run '"$0" -r m >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with --transcode-to to standard output: exit 2, one line" {
	sh_run '"$0" --transcode-to=UTF-16 plain.xml >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with -q --transcode-to to standard output: still exit 2 (the entity is lost)" {
	sh_run '"$0" -q --transcode-to=UTF-16 plain.xml >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with -q --json, -q -i, -q --mime-encoding: nothing to write, exit 0" {
	local mode
	for mode in --json -i --mime-encoding; do
		sh_run '"$0" -q "$1" plain.xml >&-' "$mode"
		assert_success
		[ -z "$stderr" ] || fail "$mode: $stderr"
	done
}

@test "closed standard output with -q --in-place: exit 0 and the file transcoded" {
	sh_run '"$0" -q --transcode-to=UTF-16 --in-place plain.xml >&-'
	assert_success
	[ -z "$stderr" ]
	assert_equal "$(hexof plain.xml)" feff003c0061002f003e
	no_temp .
}

@test "standard output on a full disk with --json and -i: exit 2 and a message" {
	[ -c /dev/full ] || skip "no /dev/full"
	local mode
	for mode in --json -i --mime-encoding; do
		sh_run '"$0" "$1" plain.xml > /dev/full' "$mode"
		assert_failure 2
		assert_equal "$stderr" 'xmlsniff: write error: No space left on device'
	done
}

@test "closed standard input: exit 2 and one line, not an empty entity" {
	sh_run '"$0" <&-'
	assert_failure 2
	[ -z "$output" ]
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" == 'xmlsniff: -: '* ]] || fail "stderr: $stderr"
}

@test "closed standard input with --files0-from=-: exit 2 and one line" {
	sh_run '"$0" --files0-from=- <&-'
	assert_failure 2
	[ -z "$output" ]
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" == 'xmlsniff: -: '* ]] || fail "stderr: $stderr"
}

# ---------------------------------------------------------------------------
# SIGPIPE (inputs.bats has the default form and -r)

@test "| head -1 with --json over many files: the first object, nothing on stderr" {
	sigpipe_default
	many_files 2000
	sh_run '"$0" --json -r m | head -n 1'
	assert_success
	assert_output '{"file":"m/f0.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":0,"diagnostics":[]}'
	[ -z "$stderr" ]
}

@test "| head -1 with -i over many files: nothing on stderr" {
	sigpipe_default
	many_files 2000
	sh_run '"$0" -i -r m | head -n 1'
	assert_success
	assert_output 'm/f0.xml: application/xml; charset=utf-8'
	[ -z "$stderr" ]
}

@test "| head -c 4 on a 50 MB transcode to standard output: nothing on stderr" {
	sigpipe_default
	{ printf '<a>'; head -c 50000000 /dev/zero | tr '\0' x; printf '</a>'; } \
	    > long.xml
	sh_run '"$0" --transcode-to=UTF-16 long.xml | head -c 4 | od -An -tx1 | tr -d " "'
	assert_success
	assert_output 'feff003c'
	[ -z "$stderr" ]
}

@test "| head -1 with SIGPIPE ignored: exit 2 and one write-error line" {
	many_files 2000
	sh_run 'trap "" PIPE; "$0" -r m | head -n 1; exit "${PIPESTATUS[0]}"'
	assert_failure 2
	assert_output 'm/f0.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: write error: Broken pipe'
}

# bats test_tags=slow
@test "| head -c 4 on a transcode with SIGPIPE ignored: exit 2 and one write-error line" {
	{ printf '<a>'; head -c 50000000 /dev/zero | tr '\0' x; printf '</a>'; } \
	    > long.xml
	sh_run 'trap "" PIPE; "$0" --transcode-to=UTF-16 long.xml | head -c 4 > /dev/null; exit "${PIPESTATUS[0]}"'
	assert_failure 2
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" == 'xmlsniff: write error'*'Broken pipe' ]]
}

# ---------------------------------------------------------------------------
# Nothing lost (xmlsniff(1), TRANSCODING): signals during a large
# --in-place transcode.
#
# One 300 MB UTF-8 file per run of this file, made on first use, and its
# UTF-16 transcode made beforehand by a completed run (checked against
# iconv); the tests compare checksums with both.

BIG=
REF=

big_ready() {
	BIG=$BATS_FILE_TMPDIR/big.xml
	REF=$BATS_FILE_TMPDIR/big.ref
	[ -f "$BATS_FILE_TMPDIR/big.ok" ] && return 0
	# The tests of this file may run side by side (bats --jobs): the
	# first makes the big file while the others wait on the lock.
	local lock
	exec {lock}> "$BATS_FILE_TMPDIR/big.lock"
	flock "$lock"
	if [ -f "$BATS_FILE_TMPDIR/big.ok" ]; then
		exec {lock}>&-
		return 0
	fi
	# 15 000 000 lines of 20 bytes (19 characters).
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
		yes "$(printf '<a>caf&#233; \303\251</a>')" | head -n 15000000
		printf '</r>\n'
	} > "$BIG"
	"$XMLSNIFF" -q --transcode-to=UTF-16 -o "$REF" "$BIG" ||
	    fail "the reference transcode failed"
	{ printf '\376\377'; sed '1s/"UTF-8"/"UTF-16"/' "$BIG" |
	    iconv -f UTF-8 -t UTF-16BE; } | cmp -s - "$REF" ||
	    fail "the reference transcode is not iconv's"
	cksum < "$BIG" > "$BATS_FILE_TMPDIR/big.sum"
	cksum < "$REF" > "$BATS_FILE_TMPDIR/big.refsum"
	touch "$BATS_FILE_TMPDIR/big.ok"
	exec {lock}>&-
}

# kill_in_place SIGNAL DELAY: transcode (a link to) the big file in place,
# send SIGNAL after DELAY seconds; the file must then be the original or
# the complete transcode, never anything else.  Sets RC.
kill_in_place() {
	local sig=$1 delay=$2 pid got
	big_ready
	ln "$BIG" w.xml 2> /dev/null || cp "$BIG" w.xml
	"$XMLSNIFF" --transcode-to=UTF-16 --in-place w.xml \
	    > /dev/null 2> err 3>&- &
	pid=$!
	sleep "$delay"
	kill -s "$sig" "$pid" 2> /dev/null || true
	RC=0
	wait "$pid" || RC=$?
	got=$(cksum < w.xml)
	if [ "$RC" -eq 0 ]; then
		# It finished before the signal: then it must be complete.
		assert_equal "$got" "$(cat "$BATS_FILE_TMPDIR/big.refsum")"
	else
		assert_equal "$RC" $((128 + $(kill -l "$sig")))
		[ "$got" = "$(cat "$BATS_FILE_TMPDIR/big.sum")" ] ||
		    [ "$got" = "$(cat "$BATS_FILE_TMPDIR/big.refsum")" ] ||
		    fail "after SIG$sig the file is neither the original nor the transcode (cksum $got, status $RC)"
	fi
	# The shared original is untouched too (it is a link to w.xml).
	assert_equal "$(cksum < "$BIG")" "$(cat "$BATS_FILE_TMPDIR/big.sum")"
}

# bats test_tags=slow
@test "nothing lost: SIGTERM 0.05 s into a 300 MB --in-place transcode: original intact or fully replaced, no temporary" {
	kill_in_place TERM 0.05
	no_temp .
}

# bats test_tags=slow
@test "nothing lost: SIGTERM 0.3 s into a 300 MB --in-place transcode: original intact or fully replaced, no temporary" {
	kill_in_place TERM 0.3
	no_temp .
}

# bats test_tags=slow
@test "nothing lost: SIGTERM 1.0 s into a 300 MB --in-place transcode: original intact or fully replaced, no temporary" {
	kill_in_place TERM 1.0
	no_temp .
}

# bats test_tags=slow
@test "nothing lost: SIGINT 0.5 s into a 300 MB --in-place transcode: original intact or fully replaced, no temporary" {
	kill_in_place INT 0.5
	no_temp .
}

# bats test_tags=slow
@test "nothing lost: SIGHUP 0.5 s into a 300 MB --in-place transcode: original intact or fully replaced, no temporary" {
	kill_in_place HUP 0.5
	no_temp .
}

# SIGKILL cannot be caught: a temporary file may stay behind, but never
# more than one, and the file itself is whole.
# bats test_tags=slow
@test "nothing lost: SIGKILL 0.05 s into a 300 MB --in-place transcode: original intact or fully replaced (a temporary may remain)" {
	kill_in_place KILL 0.05
	[ "$(find . -maxdepth 1 -name '.*.xmlsniff-*' | wc -l)" -le 1 ]
}

# bats test_tags=slow
@test "nothing lost: SIGKILL 0.3 s into a 300 MB --in-place transcode: original intact or fully replaced (a temporary may remain)" {
	kill_in_place KILL 0.3
	[ "$(find . -maxdepth 1 -name '.*.xmlsniff-*' | wc -l)" -le 1 ]
}

# bats test_tags=slow
@test "nothing lost: SIGKILL 1.0 s into a 300 MB --in-place transcode: original intact or fully replaced (a temporary may remain)" {
	kill_in_place KILL 1.0
	[ "$(find . -maxdepth 1 -name '.*.xmlsniff-*' | wc -l)" -le 1 ]
}

# bats test_tags=slow
@test "nothing lost: an input replaced (mv) during a -o transcode: the output is the whole transcode of the original" {
	big_ready
	ln "$BIG" in.xml 2> /dev/null || cp "$BIG" in.xml
	"$XMLSNIFF" -q --transcode-to=UTF-16 -o out.xml in.xml \
	    > /dev/null 2> err 3>&- &
	local pid=$! i rc=0
	# Wait until the input is open: the temporary file is made after it.
	for ((i = 0; i < 2000; i++)); do
		[ -n "$(find . -maxdepth 1 -name '.out.xml.xmlsniff-*')" ] && break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.01
	done
	printf '<b/>' > other.xml
	mv other.xml in.xml
	wait "$pid" || rc=$?
	assert_equal "$rc" 0
	assert_equal "$(cat err)" ""
	assert_equal "$(cksum < out.xml)" "$(cat "$BATS_FILE_TMPDIR/big.refsum")"
	assert_equal "$(cat in.xml)" '<b/>'
	no_temp .
}

# ---------------------------------------------------------------------------
# Directories that cannot be written, full file systems

@test "--in-place in a read-only directory (chmod 555): exit 2, the file intact, one line" {
	[ "$(id -u)" -ne 0 ] || skip "root writes into a mode 555 directory"
	mkdir ro
	printf '<a>\303\251</a>' > ro/a.xml
	cp ro/a.xml orig
	chmod 555 ro
	xs_t --transcode-to=UTF-16 --in-place ro/a.xml
	chmod 755 ro
	assert_failure 2
	cmp ro/a.xml orig
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" == 'xmlsniff: cannot create a temporary file in '*'ro: Permission denied' ]]
	no_temp ro
}

@test "--in-place in an immutable directory (chattr +i, which binds root too): exit 2, the file intact" {
	mkdir immutable
	printf '<a>\303\251</a>' > immutable/a.xml
	cp immutable/a.xml orig
	chattr +i immutable 2> /dev/null || skip "chattr +i does not work here"
	xs_t --transcode-to=UTF-16 --in-place immutable/a.xml
	chattr -i immutable
	assert_failure 2
	cmp immutable/a.xml orig
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" == 'xmlsniff: cannot create a temporary file in '*'immutable: Operation not permitted' ]]
	no_temp immutable
}

@test "--in-place on a full file system (a 64 KiB tmpfs): exit 2, the file intact, no temporary" {
	mkdir tiny
	mount -t tmpfs -o size=64k tmpfs tiny 2> /dev/null ||
	    skip "cannot mount a tmpfs here"
	# 40 KB of UTF-8 become 80 KB of UTF-16: it cannot fit.
	{ printf '<a>'; head -c 40000 /dev/zero | tr '\0' x; printf '</a>'; } \
	    > tiny/a.xml
	cp tiny/a.xml orig
	xs_t --transcode-to=UTF-16 --in-place tiny/a.xml
	local st=$status err=$stderr
	no_temp tiny
	cmp tiny/a.xml orig
	umount tiny
	status=$st stderr=$err
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: write error on tiny/a.xml: No space left on device'
}

@test "-o onto a full file system (a 64 KiB tmpfs): exit 2, no file, no temporary" {
	mkdir tiny
	mount -t tmpfs -o size=64k tmpfs tiny 2> /dev/null ||
	    skip "cannot mount a tmpfs here"
	{ printf '<a>'; head -c 40000 /dev/zero | tr '\0' x; printf '</a>'; } \
	    > in.xml
	xs_t --transcode-to=UTF-16 -o tiny/out.xml in.xml
	local st=$status err=$stderr left
	left=$(ls -A tiny)
	umount tiny
	status=$st stderr=$err
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: write error on tiny/out.xml: No space left on device'
	assert_equal "$left" ''
}

@test "-o onto a directory: exit 2, one line, the directory untouched" {
	mkdir dest
	xs_t --transcode-to=UTF-16 -o dest plain.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: cannot open dest: Is a directory'
	[ -d dest ]
	assert_equal "$(ls -A dest)" ''
}

# ---------------------------------------------------------------------------
# Memory that runs out under -r (ulimit -v)

@test "-r: a directory whose names do not fit in memory is one line and exit 2, never a silent part" {
	# 4000 names of 244 bytes (about 1 MiB to keep), and one XML file.
	mkdir empty names
	(cd names && seq -w 1 4000 | sed "s/^/$(printf '%0240d' 0)/" |
	    xargs touch)
	printf '<a/>' > names/a.xml
	local floor
	vm_floor -r --no-ignore empty
	# The same run over an empty directory fits 64 KiB below the limit;
	# the names need far more than the 128 KiB that are left.
	sh_run 'ulimit -v "$1" && exec "$0" -r --no-ignore names' \
	    $((floor + 64))
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" 'xmlsniff: names: out of memory listing the directory; nothing in it is checked'
	# With memory enough, the same directory is walked.
	xs -r --no-ignore names
	assert_success
	assert_output 'names/a.xml: UTF-8 (default), no declaration'
}

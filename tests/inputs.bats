#!/usr/bin/env bats
# Bad input and the environment (xmlsniff(1), DIAGNOSTICS and EXIT STATUS):
# tiny and empty files, bare BOMs, broken and huge declarations, NUL and
# binary bytes, directories, FIFOs, devices, unreadable files, pipes that
# close, a closed or full standard output, large files, /dev/fd/N, awkward
# names, the locale.
load helper

setup() {
	scratch_samples
}

# xs_t ARGS...: xs under timeout(1), for inputs that could make it hang.
xs_t() {
	run_apart timeout 10 "$XMLSNIFF" "$@"
}

# sh_run SCRIPT ARGS...: run a shell script with $0 = the binary under test.
sh_run() {
	local script=$1
	shift
	run_apart bash -c "$script" "$XMLSNIFF" "$@"
}

# The number of lines in $stderr (0 when empty).
nerr() {
	if [ -z "$stderr" ]; then echo 0; else printf '%s\n' "$stderr" | wc -l; fi
}

# ---------------------------------------------------------------------------
# Empty and tiny files.  An empty file, or one that does not begin with
# '<', is not XML (not-xml, a warning; issue 23 item 4): these tests
# asserted silence before that code existed.

@test "an empty file is UTF-8 by default, exit 0, and not XML" {
	: > empty.xml
	xs --strict empty.xml
	assert_success
	assert_output 'empty.xml: UTF-8 (default), no declaration, 1 warning'
	assert_equal "$stderr" 'empty.xml:1:1: warning: the entity is empty: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]'
}

@test "an empty file in JSON: UTF-8, default, not-xml only" {
	: > empty.xml
	xs --json empty.xml
	assert_success
	assert_output '{"file":"empty.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":1,"diagnostics":[{"severity":"warning","code":"not-xml","offset":0,"line":1,"column":1,"count":1,"message":"the entity is empty: an XML document has at least one element (XML 1.0 [1]); this is not XML"}]}'
}

@test "empty standard input is read: xmlsniff < /dev/null" {
	xs_t < /dev/null
	assert_success
	assert_output '-: UTF-8 (default), no declaration, 1 warning'
	assert_equal "$stderr" '-:1:1: warning: the entity is empty: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]'
}

@test "a 1-byte file '<'" {
	printf '<' > one.xml
	xs one.xml
	assert_success
	assert_output 'one.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "a 1-byte file FF: illegal-sequence at 1:1" {
	printf '\377' > one.xml
	xs one.xml
	assert_success
	assert_output 'one.xml: UTF-8 (default), no declaration, 1 error, 1 warning'
	assert_equal "${stderr%%$'\n'*}" "one.xml:1:1: warning: the first character (after any BOM and white space) is the byte 0xFF, not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
	assert_equal "${stderr#*$'\n'}" 'one.xml:1:1: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "a 1-byte file NUL: illegal-char at 1:1" {
	printf '\000' > one.xml
	xs --json one.xml
	assert_success
	[[ "$output" == *'"errors":1,"warnings":1,"diagnostics":[{"severity":"warning","code":"not-xml",'*'{"severity":"error","code":"illegal-char","offset":0,"line":1,"column":1,"count":1,'* ]]
}

@test "a 2-byte file '<a'" {
	printf '<a' > two.xml
	xs two.xml
	assert_success
	assert_output 'two.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "a 2-byte file EF BB (a cut UTF-8 BOM): truncated, both bytes named" {
	printf '\357\273' > two.xml
	xs two.xml
	assert_success
	assert_output 'two.xml: UTF-8 (default), no declaration, 1 error, 1 warning'
	assert_equal "${stderr%%$'\n'*}" "two.xml:1:1: warning: the first character (after any BOM and white space) is the byte 0xEF, not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
	assert_equal "${stderr#*$'\n'}" 'two.xml:1:1: error: the entity ends inside a character: bytes EF BB are incomplete in UTF-8; the file is truncated [illegal-sequence]'
}

@test "a 3-byte file '<a>'" {
	printf '<a>' > three.xml
	xs three.xml
	assert_success
	assert_output 'three.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "a 3-byte file holding one UTF-8 character (U+20AC)" {
	printf '\342\202\254' > three.xml
	xs three.xml
	assert_success
	assert_output 'three.xml: UTF-8 (default), no declaration, 1 warning'
	assert_equal "$stderr" "three.xml:1:1: warning: the first character (after any BOM and white space) is the byte 0xE2, not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
}

@test "a 3-byte file 00 00 FE (a cut UTF-32 BOM) is not a BOM" {
	printf '\000\000\376' > three.xml
	xs three.xml
	assert_success
	assert_output 'three.xml: UTF-8 (default), no declaration, 2 errors, 1 warning'
	[[ "$stderr" == *'[not-xml]'* ]]
	[[ "$stderr" == *'[illegal-char]'* ]]
	[[ "$stderr" == *'[illegal-sequence]'* ]]
}

@test "a 3-byte file E2 82 41: the cut sequence is illegal, the A is not" {
	printf '\342\202A' > three.xml
	xs --json three.xml
	assert_success
	[[ "$output" == *'"code":"illegal-sequence","offset":0,"line":1,"column":1,"count":1,'* ]]
	[[ "$output" == *'"errors":1,'* ]]
}

# ---------------------------------------------------------------------------
# A BOM and nothing else

@test "only a UTF-8 BOM" {
	printf '\357\273\277' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UTF-8 (BOM), no declaration, 2 warnings'
	[[ "${stderr_lines[0]}" =~ ^bom\.xml:1:1:\ warning:\ .*\[utf8-bom\]$ ]]
	assert_equal "${stderr_lines[1]}" 'bom.xml:1:1: warning: the entity is a BOM and nothing else: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]'
}

@test "only a UTF-16BE BOM" {
	printf '\376\377' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UTF-16BE (BOM), no declaration, 1 warning'
	assert_equal "$stderr" 'bom.xml:1:1: warning: the entity is a BOM and nothing else: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]'
}

@test "only a UTF-16LE BOM" {
	printf '\377\376' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UTF-16LE (BOM), no declaration, 1 warning'
	assert_equal "$stderr" 'bom.xml:1:1: warning: the entity is a BOM and nothing else: an XML document has at least one element (XML 1.0 [1]); this is not XML [not-xml]'
}

@test "only a UTF-32BE BOM" {
	printf '\000\000\376\377' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UTF-32BE (BOM), no declaration, 3 warnings'
	[[ "$stderr" == *'[not-xml]'* ]]
	[[ "$stderr" == *'[utf32]'* ]]
	[[ "$stderr" == *'[missing-decl]'* ]]
}

@test "only a UTF-32LE BOM (FF FE 00 00 is not UTF-16LE + U+0000)" {
	printf '\377\376\000\000' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UTF-32LE (BOM), no declaration, 3 warnings'
	[[ "$stderr" == *'[not-xml]'* ]]
	[[ "$stderr" != *'[illegal-char]'* ]]
}

@test "only a UCS-4 2143 BOM: unsupported-encoding" {
	printf '\000\000\377\376' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UCS-4-2143 (BOM), no declaration, 1 error, 1 warning'
	[[ "$stderr" =~ (^|$'\n')bom\.xml:1:1:\ warning:\ .*\[utf32\]($|$'\n') ]]
	[[ "$stderr" =~ (^|$'\n')bom\.xml:1:1:\ error:\ .*\[unsupported-encoding\]($|$'\n') ]]
}

@test "only a UCS-4 3412 BOM: unsupported-encoding" {
	printf '\376\377\000\000' > bom.xml
	xs bom.xml
	assert_success
	assert_output 'bom.xml: UCS-4-3412 (BOM), no declaration, 1 error, 1 warning'
	[[ "$stderr" =~ (^|$'\n')bom\.xml:1:1:\ warning:\ .*\[utf32\]($|$'\n') ]]
	[[ "$stderr" =~ (^|$'\n')bom\.xml:1:1:\ error:\ .*\[unsupported-encoding\]($|$'\n') ]]
}

@test "only a UCS-4 BOM, with --strict: exit 1" {
	printf '\000\000\377\376' > bom.xml
	xs --strict bom.xml
	assert_failure 1
}

# ---------------------------------------------------------------------------
# Broken and huge declarations

@test "a declaration without ?> at the end of the file" {
	printf '<?xml version="1.0" encoding="UTF-8"' > d.xml
	xs d.xml
	assert_success
	assert_output 'd.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
	assert_equal "$stderr" 'd.xml:1:37: error: malformed XML declaration: the declaration is not closed by "?>"; the form is <?xml version="1.0" encoding="..."?> [bad-declaration]'
}

@test "a declaration without ?> followed by content" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"\n<a>\351</a>' > d.xml
	xs --json d.xml
	assert_success
	[[ "$output" == *'"encoding":"ISO-8859-1","source":"declaration",'* ]]
	[[ "$output" == *'"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"bad-declaration","offset":42,"line":2,"column":1,"count":1,'* ]]
}

@test "a declaration without ?>, with --strict: exit 1" {
	printf '<?xml version="1.0" encoding="UTF-8"' > d.xml
	xs --strict d.xml
	assert_failure 1
}

@test "a megabyte of spaces inside the declaration: one bad-declaration, fast" {
	{
		printf '<?xml version="1.0"'
		head -c 1048576 /dev/zero | tr '\0' ' '
		printf 'encoding="ISO-8859-1"?><a/>'
	} > long.xml
	xs_t long.xml
	assert_success
	assert_output 'long.xml: UTF-8 (default), declaration without encoding, 1 error'
	assert_equal "$stderr" 'long.xml:1:1: error: malformed XML declaration: the declaration is longer than 16384 characters; the form is <?xml version="1.0" encoding="..."?> [bad-declaration]'
}

@test "a megabyte-long encoding value: one bad-declaration line, fast" {
	{
		printf '<?xml version="1.0" encoding="'
		head -c 1048576 /dev/zero | tr '\0' 'a'
		printf '"?><a/>'
	} > long.xml
	xs_t long.xml
	assert_success
	assert_equal "${#lines[@]}" 1
	[[ "$output" == 'long.xml: UTF-8 (default), '*', 1 error' ]]
	[ "$(nerr)" -eq 1 ]
	[[ "$stderr" =~ ^long\.xml:1:[0-9]+:\ error:\ malformed\ .*\[bad-declaration\]$ ]]
}

@test "a megabyte-long declaration on standard input" {
	{
		printf '<?xml version="1.0"'
		head -c 1048576 /dev/zero | tr '\0' ' '
		printf 'encoding="ISO-8859-1"?><a/>'
	} | {
		xs_t
		assert_success
		assert_output '-: UTF-8 (default), declaration without encoding, 1 error'
		[[ "$stderr" == *'[bad-declaration]' ]]
	}
}

# ---------------------------------------------------------------------------
# NUL bytes and binary files

@test "NUL bytes in content: one illegal-char line with the count" {
	printf '<a>x\000y</a>\n<b>\000</b>' > nul.xml
	xs nul.xml
	assert_success
	assert_output 'nul.xml: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'nul.xml:1:5: error: U+0000 is not an XML Char (XML 1.0 [2]); remove it (a NUL byte: is this a binary file, or mislabelled UTF-16?) (2 times) [illegal-char]'
}

@test "NUL bytes with --strict: exit 1" {
	printf '<a>\000</a>' > nul.xml
	xs --strict nul.xml
	assert_failure 1
}

@test "a binary file: one line per code, with exact counts" {
	# 16 times the bytes 00..FF: 16 x 29 C0 controls that are not Chars,
	# 16 x 128 bytes >= 80 that are each an illegal UTF-8 sequence.
	local fmt i
	# "\000\001...\377": printf uses its format once for each number.
	printf -v fmt '\\%03o' {0..255}
	for ((i = 0; i < 16; i++)); do
		printf "$fmt"
	done > bin
	[ "$(wc -c < bin)" -eq 4096 ]
	xs bin
	assert_success
	# Its first byte is 00, not '<': not-xml as well.
	assert_output 'bin: UTF-8 (default), no declaration, 2 errors, 1 warning'
	[ "$(nerr)" -eq 3 ]
	[[ "$(printf '%s\n' "$stderr" | sed -n 1p)" == 'bin:1:1: warning: '*'U+0000, not '*'[not-xml]' ]]
	[[ "$(printf '%s\n' "$stderr" | sed -n 2p)" == 'bin:1:1: error: U+0000 is not an XML Char'*' (464 times) [illegal-char]' ]]
	# Offset 128: after 0A (line 2) and 0D (line 3), column 128 - 14 + 1.
	[[ "$(printf '%s\n' "$stderr" | sed -n 3p)" == 'bin:3:115: error: bytes 80 are not valid in UTF-8 (a stray continuation byte);'*' (2048 times) [illegal-sequence]' ]]
}

@test "a binary file with --strict: exit 1, the next input still read" {
	printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000' > bin
	xs --strict bin plain.xml
	assert_failure 1
	assert_equal "${#lines[@]}" 2
	assert_line -n 1 'plain.xml: UTF-8 (default), no declaration'
}

# ---------------------------------------------------------------------------
# Directories

@test "a directory without -r: exit 2 and a one-line message" {
	mkdir dir
	xs dir
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: dir: is a directory (use -r to descend into it)'
}

@test "a directory without -r in JSON: an object with error" {
	mkdir dir
	xs --json dir
	assert_failure 2
	assert_output '{"file":"dir","error":"is a directory (use -r to descend into it)","encoding":null,"source":null,"bom":null,"declaration":null,"charset":null,"mime":null,"errors":null,"warnings":null,"diagnostics":null}'
}

@test "a directory as standard input: exit 2 and a message" {
	mkdir dir
	xs_t < dir
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: -: is a directory'
}

# ---------------------------------------------------------------------------
# FIFOs

@test "a FIFO whose writer is waiting is read to its end" {
	mkfifo p
	timeout 10 sh -c 'printf "%s" "$1" > p' sh \
	    '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' \
	    > /dev/null 2>&1 3>&- &
	local w=$!
	sleep 0.3
	xs_t p
	kill "$w" 2> /dev/null || true
	wait "$w" || true
	assert_success
	assert_output 'p: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "a FIFO whose writer comes later is waited for, not taken as empty" {
	mkfifo p
	timeout 10 sh -c 'sleep 1; printf "%s" "$1" > p' sh \
	    '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' \
	    > /dev/null 2>&1 3>&- &
	local w=$!
	xs_t p
	kill "$w" 2> /dev/null || true
	wait "$w" || true
	assert_success
	assert_output 'p: ISO-8859-1 (declaration), declared "ISO-8859-1"'
}

@test "a pipe as standard input is read" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a/>' | {
		xs_t
		assert_success
		assert_output '-: ISO-8859-1 (declaration), declared "ISO-8859-1"'
	}
}

@test "process substitution: /dev/fd/N is read" {
	run_apart timeout 10 "$XMLSNIFF" \
	    <(printf '<?xml version="1.0" encoding="ISO-8859-1"?><a/>')
	assert_success
	assert_output --regexp '^/dev/fd/[0-9]+: ISO-8859-1 \(declaration\), declared "ISO-8859-1"$'
	[ -z "$stderr" ]
}

# ---------------------------------------------------------------------------
# Devices

@test "/dev/null as FILE: refused as a character device, exit 2" {
	xs_t /dev/null
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: /dev/null: is a character device; not read (redirect it to standard input to read it)'
}

@test "/dev/zero as FILE: not read, no hang, the other inputs are" {
	xs_t /dev/zero plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: /dev/zero: is a character device; not read (redirect it to standard input to read it)'
}

@test "/dev/zero as FILE in JSON: an object with error" {
	xs_t --json /dev/zero
	assert_failure 2
	assert_output '{"file":"/dev/zero","error":"is a character device; not read (redirect it to standard input to read it)","encoding":null,"source":null,"bom":null,"declaration":null,"charset":null,"mime":null,"errors":null,"warnings":null,"diagnostics":null}'
}

@test "a character device that cannot be opened is still reported as a device" {
	command -v setsid > /dev/null || skip "setsid is not installed"
	[ -c /dev/tty ] || skip "no /dev/tty"
	# Without a controlling terminal, open("/dev/tty") fails (ENXIO); a
	# device is to be recognised without being opened.
	run_apart timeout 10 setsid -w "$XMLSNIFF" /dev/tty
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: /dev/tty: is a character device; not read (redirect it to standard input to read it)'
}

@test "a block device as FILE: refused, exit 2" {
	local dev
	dev=$(find /dev -maxdepth 1 -type b 2> /dev/null | sort | head -n 1)
	[ -n "$dev" ] || skip "no block device in /dev"
	xs_t "$dev"
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" "xmlsniff: $dev: is a block device; not read (redirect it to standard input to read it)"
}

@test "/dev/null in --files0-from: refused like an operand" {
	printf 'plain.xml\0/dev/null\0' > list
	xs_t --files0-from=list
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: /dev/null: is a character device; not read (redirect it to standard input to read it)'
}

# ---------------------------------------------------------------------------
# Missing and unreadable files

@test "a missing file: exit 2 and the system's reason" {
	xs nope.xml
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" 'xmlsniff: nope.xml: No such file or directory'
}

@test "a file below a missing directory: exit 2" {
	xs nodir/nope.xml plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: nodir/nope.xml: No such file or directory'
}

@test "a path through a regular file: exit 2 (not a directory)" {
	xs plain.xml/x.xml
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: plain.xml/x.xml: Not a directory'
}

@test "an unreadable file (chmod 000): exit 2 and Permission denied" {
	[ "$(id -u)" -ne 0 ] || skip "root reads files whatever their mode"
	printf '<a/>' > secret.xml
	chmod 000 secret.xml
	xs secret.xml plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" 'xmlsniff: secret.xml: Permission denied'
}

@test "a write-only /proc file (unreadable even for root): exit 2" {
	local f=/proc/sys/vm/drop_caches
	[ -f "$f" ] || skip "no $f"
	! cat "$f" > /dev/null 2>&1 || skip "$f is readable here"
	xs "$f" plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" "xmlsniff: $f: Permission denied"
}

@test "a read error after open (/proc/self/mem): exit 2 and the reason" {
	[ -e /proc/self/mem ] || skip "no /proc/self/mem"
	xs /proc/self/mem plain.xml
	assert_failure 2
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" "xmlsniff: /proc/self/mem: $(errtext EIO)"
}

# ---------------------------------------------------------------------------
# Standard output that goes away

@test "| head -1 with many inputs: the first line, nothing on stderr" {
	if [ -r /proc/self/status ]; then
		local ign
		ign=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status)
		(( (16#$ign & 0x1000) == 0 )) || skip "SIGPIPE is ignored here"
	fi
	local args
	mapfile -t args < <(yes plain.xml | head -n 5000)
	sh_run '"$0" "$@" | head -n 1' "${args[@]}"
	assert_success
	assert_output 'plain.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "| head -1 with -r over many files: nothing on stderr" {
	xml_links many 0 1 1999
	sh_run '"$0" -r many | head -n 1'
	assert_success
	assert_output 'many/f0.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "closed standard output: exit 2 and a message" {
	sh_run '"$0" plain.xml >&-'
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
	[ "$(nerr)" -eq 1 ]
}

@test "closed standard output with -q: nothing to write, exit 0" {
	sh_run '"$0" -q plain.xml >&-'
	assert_success
	[ -z "$stderr" ]
}

@test "closed standard output with --version: exit 2 and a message" {
	sh_run '"$0" --version >&-'
	assert_failure 2
	[[ "$stderr" == 'xmlsniff: '*'write error'* ]]
}

@test "closed standard output: an input is never opened as descriptor 1" {
	# Were plain.xml opened as fd 1, the report would be written into it.
	cp plain.xml keep.xml
	sh_run '"$0" keep.xml >&-'
	assert_failure 2
	assert_equal "$(hexof keep.xml)" "$(hexof plain.xml)"
}

@test "standard output on a full disk (/dev/full): exit 2 and a message" {
	[ -c /dev/full ] || skip "no /dev/full"
	sh_run '"$0" plain.xml > /dev/full'
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: write error: No space left on device'
}

# ---------------------------------------------------------------------------
# Large files

# big FILE: a 20 MB UTF-8 file whose only fault is an FF byte near the end;
# sets OFF, LINE and COL to where that byte is.
big() {
	local head='<?xml version="1.0" encoding="UTF-8"?>\n<a>'
	local row='abcdefghijklmnopqrstuvwxyz0123456789 <b>text</b> &amp; more'
	local n=20000000
	{
		printf "$head"
		yes "$row" | head -c "$n"
		printf '\377</a>\n'
	} > "$1"
	# head is 42 bytes and one newline; rows are ${#row} + 1 bytes.
	OFF=$((42 + n))
	LINE=$((2 + n / (${#row} + 1)))
	COL=$((n % (${#row} + 1) + 1))
}

@test "a 20 MB file: the illegal byte near the end at its exact offset" {
	big big.xml
	run_apart timeout 60 "$XMLSNIFF" --json big.xml
	assert_success
	assert_output --partial "\"errors\":1,\"warnings\":0,\"diagnostics\":[{\"severity\":\"error\",\"code\":\"illegal-sequence\",\"offset\":$OFF,\"line\":$LINE,\"column\":$COL,\"count\":1,"
}

@test "a 20 MB file: the stderr line gives the exact line and column" {
	big big.xml
	run_apart timeout 60 "$XMLSNIFF" big.xml
	assert_success
	assert_output 'big.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
	[[ "$stderr" == "big.xml:$LINE:$COL: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8);"*'[illegal-sequence]' ]]
}

@test "a 20 MB file through a pipe: the same offset" {
	big big.xml
	cat big.xml | {
		run_apart timeout 60 "$XMLSNIFF" --json
		assert_success
		assert_output --partial "\"code\":\"illegal-sequence\",\"offset\":$OFF,\"line\":$LINE,\"column\":$COL,\"count\":1,"
	}
}

@test "UTF-8 characters across every read boundary are not errors" {
	# 3-byte characters: some straddle every power-of-two buffer edge.
	# 16 x U+20AC (48 bytes), doubled 15 times.
	local i
	printf '\342\202\254%.0s' {1..16} > euro.xml
	for ((i = 0; i < 15; i++)); do
		cat euro.xml euro.xml > euro.tmp
		mv euro.tmp euro.xml
	done
	[ "$(wc -c < euro.xml)" -eq 1572864 ]
	xs_t euro.xml
	assert_success
	# Text alone is not XML (not-xml), and that is all that is said.
	assert_output 'euro.xml: UTF-8 (default), no declaration, 1 warning'
	[[ "$stderr" == 'euro.xml:1:1: warning: '*'[not-xml]' ]]
}

@test "UTF-16 surrogate pairs across every read boundary are not errors" {
	# A BOM (2 bytes), then U+1F600 (4 bytes each): pairs straddle every
	# power-of-two buffer edge.  16 characters (64 bytes), doubled 14 times.
	local i
	printf '\075\330\000\336%.0s' {1..16} > pairs
	for ((i = 0; i < 14; i++)); do
		cat pairs pairs > pairs.tmp
		mv pairs.tmp pairs
	done
	{ printf '\377\376'; cat pairs; } > smile.xml
	[ "$(wc -c < smile.xml)" -eq $((2 + 64 * 16384)) ]
	xs_t smile.xml
	assert_success
	assert_output 'smile.xml: UTF-16LE (BOM), no declaration, 1 warning'
	assert_equal "$stderr" "smile.xml:1:1: warning: the first character (after any BOM and white space) is U+D83D, not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
}

# ---------------------------------------------------------------------------
# Names

@test "a file name beginning with '-' after --" {
	printf '<a/>' > ./-x.xml
	xs -- -x.xml
	assert_success
	assert_output -- '-x.xml: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "a file name beginning with '-' as ./-x.xml" {
	printf '<a/>' > ./-x.xml
	xs ./-x.xml
	assert_success
	assert_output './-x.xml: UTF-8 (default), no declaration'
}

@test "a file name beginning with '-' without -- is taken as options" {
	printf '<a/>' > ./-x.xml
	xs -x.xml
	assert_failure 2
	[ -z "$output" ]
	try_help
}

@test "a file name beginning with '-' in --files0-from is a file" {
	printf '<a/>' > ./-x.xml
	printf -- '-x.xml\0' > list
	xs --files0-from=list
	assert_success
	assert_output -- '-x.xml: UTF-8 (default), no declaration'
}

@test "a missing file with a non-UTF-8 name: the name is escaped in the message" {
	xs "$(printf 'no\377\n.xml')"
	assert_failure 2
	assert_equal "$stderr" 'xmlsniff: no\xFF\n.xml: No such file or directory'
}

# ---------------------------------------------------------------------------
# The locale

@test "the output does not depend on the locale (C and C.UTF-8)" {
	locale -a 2> /dev/null | grep -Eqi '^c\.utf-?8$' ||
	    skip "no C.UTF-8 locale"
	mkdir -p tree/sub
	printf '<a/>' > tree/B.xml
	printf '<a/>' > tree/a.xml
	printf '<a/>' > "tree/$(printf '\303\251t\303\251.xml')"
	printf '<a/>' > "tree/$(printf 'raw\351.xml')"
	printf '<a>\377\000</a>' > tree/sub/bad.xml
	printf '\377\376' > tree/sub/u16.xml
	printf '<?xml version="1.0" encoding="UTF-16"?><a>\303\251</a>' |
	    iconv -f UTF-8 -t UTF-16LE >> tree/sub/u16.xml
	local mode c_out c_err u_out u_err
	for mode in '' --json -i --mime-encoding; do
		run_apart env LC_ALL=C "$XMLSNIFF" $mode -r tree \
		    latin1.xml nope.xml
		assert_failure 2
		c_out=$output c_err=$stderr
		run_apart env LC_ALL=C.UTF-8 "$XMLSNIFF" $mode -r \
		    tree latin1.xml nope.xml
		assert_failure 2
		u_out=$output u_err=$stderr
		assert_equal "$u_out" "$c_out"
		assert_equal "$u_err" "$c_err"
	done
}

@test "the -r order is bytewise whatever LC_COLLATE says" {
	locale -a 2> /dev/null | grep -Eqi '^c\.utf-?8$' ||
	    skip "no C.UTF-8 locale"
	mkdir tree
	printf '<a/>' > tree/b.xml
	printf '<a/>' > tree/B.xml
	printf '<a/>' > tree/a.xml
	printf '<a/>' > tree/_.xml
	run_apart env -u LC_ALL LANG=C.UTF-8 LC_COLLATE=C.UTF-8 \
	    "$XMLSNIFF" -r tree
	assert_success
	assert_line -n 0 'tree/B.xml: UTF-8 (default), no declaration'
	assert_line -n 1 'tree/_.xml: UTF-8 (default), no declaration'
	assert_line -n 2 'tree/a.xml: UTF-8 (default), no declaration'
	assert_line -n 3 'tree/b.xml: UTF-8 (default), no declaration'
}

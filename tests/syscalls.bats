#!/usr/bin/env bats
# The system calls xmlsniff makes, counted with strace(1) (skipped where
# it is not installed): what -r costs per file, how a big file is read
# ahead by a second thread, and how with --mmap it is mapped and searched
# ahead by one.

load helper

setup() {
	command -v strace > /dev/null || skip "strace is not installed"
	# under a wrapper (valgrind, an emulator) the calls are the tool's
	[ -z "${XMLSNIFF_WRAP:-}" ] || skip "counted without XMLSNIFF_WRAP only"
	# an ASan build: LeakSanitizer cannot run under ptrace
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	cd "$BATS_TEST_TMPDIR"
}

# calls NAME: how many times the traced run in trace.txt made the call
# NAME (the summary of strace -c).
calls() {
	awk -v n="$1" '$NF == n { print $4; f = 1 } END { if (!f) print 0 }' \
	    trace.txt
}

# trace DIR: strace -c of a serial -q -r over DIR into trace.txt.
trace() {
	run strace -f -c -o trace.txt "$XMLSNIFF" -j1 -q -r "$1"
	assert_success
}

@test "-r -j1: four system calls per file (openat, fstat, read, close), no lseek" {
	local i c n
	mkdir a b
	# one awk for the 400 files (bats traps every command of a loop)
	awk 'BEGIN { for (i = 1; i <= 300; i++) {
		if (i <= 100) { f = "a/f" i ".xml"; print "<r>" i "</r>" > f; close(f) }
		f = "b/f" i ".xml"; print "<r>" i "</r>" > f; close(f) } }'
	printf '\357\273\277<r/>\n' > a/bom.xml
	cp a/bom.xml b/bom.xml
	# the calls the 200 files more cost (what the program or a
	# sanitizer does once is the same in both runs)
	# (fstat is newfstatat on glibc)
	for c in openat read close lseek fstat; do
		trace a
		n=$(( $(calls "$c") + $(calls "new${c}at") ))
		trace b
		n=$(( $(calls "$c") + $(calls "new${c}at") - n ))
		if [ "$c" = lseek ]; then
			[ "$n" -eq 0 ] || fail "lseek: $n more"
		else
			[ "$n" -eq 200 ] || fail "$c: $n more for 200 files"
		fi
	done
	[ "$(calls lseek)" -eq 0 ] || fail "$(cat trace.txt)"
}

@test "-r: the lines of many files go out a page at a time, stdout and stderr on one file too, each warning in its place" {
	local w
	mkdir d
	awk 'BEGIN { for (i = 100; i < 300; i++) {
		f = "d/f" i ".xml"; print "<r>" i "</r>" > f; close(f) } }'
	printf '\357\273\277<r/>\n' > d/f150b.xml
	run strace -f -e trace=write -o trace.txt sh -c \
	    '"$1" -j1 -r d > out.txt 2>&1' sh "$XMLSNIFF"
	assert_success
	# 201 lines of some 40 bytes and one warning: a few writes of the
	# lines, the warning's own, and the lines before it sent first
	w=$(grep -c '^[0-9]* *write(1,' trace.txt)
	[ "$w" -le 6 ] || fail "$w writes to stdout: $(head -5 trace.txt)"
	run grep -c '^[0-9]* *write(2,' trace.txt
	assert_output 1
	run sed -n '51,54p' out.txt
	assert_line --index 0 'd/f150.xml: UTF-8 (default), no declaration'
	assert_line --index 1 'd/f150b.xml: UTF-8 (BOM), no declaration, 1 warning'
	assert_line --index 2 --partial 'd/f150b.xml:1:1: warning: UTF-8 with a BOM'
	assert_line --index 3 'd/f151.xml: UTF-8 (default), no declaration'
	[ "$(wc -l < out.txt)" -eq 202 ]
}

# maps: how many mmap calls of the traced run in trace.txt map more than a
# megabyte of a file read-only (the C library maps its small cache so).
# clones: the threads trace.txt shows started, a call each; strace splits a
# call that another thread's event interrupts into "clone3(... <unfinished
# ...>" and "<... clone3 resumed>", which is still one.
clones() {
	grep -cE 'clone3?\(' trace.txt
}

maps() {
	awk '/mmap(64)?\(/ && /PROT_READ, MAP_PRIVATE, [0-9]/ {
		sub(/.*mmap(64)?\([^,]*, /, ""); if ($1 + 0 > 1000000) n++ }
	    END { print n + 0 }' trace.txt
}

# bytes CALL: the bytes the calls CALL (read, pread64) of trace.txt that
# asked for 320 KiB returned in all (the loader's reads of the libraries
# ask for less), and big CALL: how many returned more than 320 KiB.  A
# call that the other thread's interrupts is split, its arguments and
# result on the line "<... CALL resumed>".
# Both in one awk: reads CALL bytes|big.
reads() {
	awk -v c="$1" -v what="$2" '
	    $0 ~ " " c "\\(" || $0 ~ "<\\.\\.\\. " c " resumed>" {
		if (what == "bytes" && /, 327680[,)]/)
			n += $NF
		else if (what == "big" && !/ELF/ && $NF > 327680)
			n++
	    } END { print n + 0 }' trace.txt
}
bytes() { reads "$1" bytes; }
big() { reads "$1" big; }

@test "a file of 5 MiB or more is read ahead by a second thread from its first piece, with pread of at most 320 KiB; one byte less and it is read with no thread, as one of more than 1.25 MiB is; with --mmap it is mapped and searched by a second thread; a small one, a pipe or XMLSNIFF_SIMD=ref is read" {
	{ printf '<r>'; head -c 3000000 /dev/zero | tr '\0' a; printf '</r>\n'; } > big.xml
	{ printf '<r>'; head -c 5600000 /dev/zero | tr '\0' a; printf '</r>\n'; } > huge.xml
	printf '<r/>\n' > small.xml
	# 5.6 MB: every byte read ahead from the first, the head too, in
	# reads of at most 320 KiB by either thread (each piece by the one
	# that claims it); the file offset is not moved by them (pread)
	run strace -f -e trace=clone,clone3,mmap,read,pread64 -o trace.txt "$XMLSNIFF" huge.xml
	assert_success
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes read)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes pread64)" -eq 5600008 ] || fail "$(cat trace.txt)"
	[ "$(big pread64)" -eq 0 ] || fail "$(cat trace.txt)"
	# 16 reads of 320 KiB exactly: read ahead; a byte less: not
	{ printf '<r>'; head -c 5242872 /dev/zero | tr '\0' a; printf '</r>\n'; } > edge.xml
	run strace -f -e trace=clone,clone3,read,pread64 -o trace.txt "$XMLSNIFF" edge.xml
	assert_success
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(bytes pread64)" -eq 5242880 ] || fail "$(cat trace.txt)"
	{ printf '<r>'; head -c 5242871 /dev/zero | tr '\0' a; printf '</r>\n'; } > edge.xml
	run strace -f -e trace=clone,clone3,read,pread64 -o trace.txt "$XMLSNIFF" edge.xml
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes read)" -eq 5242879 ] || fail "$(cat trace.txt)"
	# 3 MB: every byte read, in reads of at most 320 KiB, no thread
	run strace -f -e trace=clone,clone3,mmap,read,pread64 -o trace.txt "$XMLSNIFF" big.xml
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes read)" -ge 3000008 ] || fail "$(cat trace.txt)"
	[ "$(big read)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes pread64)" -eq 0 ] || fail "$(cat trace.txt)"
	# the reference reads in one thread; so does a pipe
	run env XMLSNIFF_SIMD=ref strace -f -e trace=clone,clone3 -o trace.txt \
	    "$XMLSNIFF" huge.xml
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	run sh -c 'cat huge.xml | strace -f -e trace=clone,clone3 -o trace.txt "$0" -' "$XMLSNIFF"
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	run strace -f -e trace=clone,clone3,mmap,read -o trace.txt "$XMLSNIFF" --mmap big.xml
	assert_success
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 1 ] || fail "$(cat trace.txt)"
	# the head is read (320 KiB); the rest is not
	[ "$(awk '/ read\(/ && !/ELF/ { n += $NF } END { print n + 0 }' \
	    trace.txt)" -le 400000 ] || fail "$(cat trace.txt)"
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" --mmap small.xml
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	run env XMLSNIFF_SIMD=ref strace -f -e trace=clone,clone3,mmap -o trace.txt \
	    "$XMLSNIFF" --mmap big.xml
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	# through a pipe: nothing to map
	run sh -c 'cat big.xml | strace -f -e trace=clone,clone3,mmap -o trace.txt "$0" --mmap -' "$XMLSNIFF"
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	# UTF-16: mapped and searched too
	{ printf '\357\273\277<r>'; head -c 1000000 /dev/zero | tr '\0' a
	  printf '</r>\n'; } | iconv -f UTF-8 -t UTF-16LE > u16.xml
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" --mmap u16.xml
	assert_success
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 1 ] || fail "$(cat trace.txt)"
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" u16.xml
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	# UTF-16 of more than 5 MiB: read ahead too
	iconv -f UTF-8 -t UTF-16LE huge.xml > u16.xml
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" u16.xml
	assert_success
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	# a single-byte encoding: mapped and searched (for markup)
	{ printf '<?xml version="1.0" encoding="ISO-8859-1"?><r>'
	  head -c 2000000 /dev/zero | tr '\0' '\351'; printf '</r>\n'; } > l1.xml
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" --mmap l1.xml
	assert_success
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 1 ] || fail "$(cat trace.txt)"
}

@test "standard input from a big regular file at its start is read ahead by the second thread, as the file is; from past its start, read in one thread" {
	{ printf '<r>'; head -c 5600000 /dev/zero | tr '\0' a; printf '</r>\n'; } > huge.xml
	run sh -c 'strace -f -e trace=clone,clone3,read,pread64 -o trace.txt "$0" - < huge.xml' "$XMLSNIFF"
	assert_success
	assert_output '-: UTF-8 (default), no declaration'
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(bytes pread64)" -eq 5600008 ] || fail "$(cat trace.txt)"
	run sh -c '{ dd bs=3 count=1 of=/dev/null 2>/dev/null
	    strace -f -e trace=clone,clone3,read,pread64 -o trace.txt "$0" -
	    } < huge.xml' "$XMLSNIFF"
	assert_success
	[ "$(clones)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes pread64)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(bytes read)" -ge 5600005 ] || fail "$(cat trace.txt)"
}

@test "--mmap: a big file that cannot be mapped (the address space limited) is read ahead by a second thread instead, past its head, and says the same" {
	local floor
	printf '<r/>\n' > small.xml
	# 64 MiB: more than the 32 MiB left it below
	{ printf '<r>'; head -c 67108864 /dev/zero | tr '\0' a; printf '</r>\n'; } > big.xml
	vm_floor --mmap small.xml
	run bash -c 'ulimit -v "$1" && exec strace -f -e trace=clone,clone3,mmap,read,pread64 -o trace.txt "$0" --mmap big.xml' \
	    "$XMLSNIFF" $((floor + 32768))
	assert_success
	assert_output 'big.xml: UTF-8 (default), no declaration'
	# the file's mapping refused; the ring and the thread's stack fit
	grep -qE 'mmap(64)?\(NULL, 67108872, PROT_READ, MAP_PRIVATE, [0-9]+, 0\) = -1 ENOMEM' \
	    trace.txt || fail "$(cat trace.txt)"
	[ "$(clones)" -eq 1 ] || fail "$(cat trace.txt)"
	# the head by read (a piece), all the rest by pread
	[ "$(bytes read)" -eq 327680 ] || fail "$(cat trace.txt)"
	[ "$(bytes pread64)" -eq $((67108872 - 327680)) ] ||
	    fail "$(cat trace.txt)"
	# with room, mapped
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" --mmap big.xml
	assert_success
	[ "$(maps)" -eq 1 ] || fail "$(cat trace.txt)"
}

@test "-j: the workers read big files with no thread, and with --mmap map them with none (they have the processors); -j1 starts one; without --mmap nothing is mapped" {
	local i
	mkdir t
	for i in $(seq 1 40); do printf '<r>%s</r>\n' "$i" > "t/f$i.xml"; done
	{ printf '<r>'; head -c 6000000 /dev/zero | tr '\0' a; printf '</r>\n'; } > t/big.xml
	run strace -f -e trace=clone,clone3,fork,mmap -o trace.txt "$XMLSNIFF" -j2 -r t
	assert_success
	[ "$(grep -c 'CLONE_THREAD' trace.txt)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
	run strace -f -e trace=clone,clone3,fork,mmap -o trace.txt "$XMLSNIFF" --mmap -j2 -r t
	assert_success
	# no thread (the workers are processes: fork or clone, as the C
	# library makes them)
	[ "$(grep -c 'CLONE_THREAD' trace.txt)" -eq 0 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 1 ] || fail "$(cat trace.txt)"
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" --mmap -j1 -r t
	assert_success
	[ "$(grep -c 'CLONE_THREAD' trace.txt)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 1 ] || fail "$(cat trace.txt)"
	# -j1 reads the big file ahead
	run strace -f -e trace=clone,clone3,mmap -o trace.txt "$XMLSNIFF" -j1 -r t
	assert_success
	[ "$(grep -c 'CLONE_THREAD' trace.txt)" -eq 1 ] || fail "$(cat trace.txt)"
	[ "$(maps)" -eq 0 ] || fail "$(cat trace.txt)"
}

# iconv_open_held (iconvcap.c) keeps a descriptor of each pair of
# encodings the decoders, the transcoder, the guess, the excerpt and
# --browser have opened, for the life of the process: glibc unloads a
# converter's module that no descriptor holds once three others have been
# released after it, and those descriptors are opened and closed by the
# entity, so a run over entities in several encodings loaded a dozen
# modules again for each (nine times the time of the run).  A module the
# first probes load and let go may load once more, when it is first used.
# modules_of N ARGS...: xmlsniff -j1 ARGS over the copies 0 to N of the
# entities (N-*.xml) under strace; the converters' modules it loaded,
# one line a load, sorted, into modules.N.
modules_of() {
	local n=$1
	shift
	run strace -f -e trace=openat -o opens.txt "$XMLSNIFF" -j1 "$@" [0-$n]-*.xml
	assert_success
	grep -o '/gconv/[^"]*\.so", [^)]*) = [0-9][0-9]*$' opens.txt |
	    sed 's/".*//' | sort > "modules.$n"
}

@test "iconv's converters load once a process: four copies of entities in eleven encodings (more than the decoders kept), with --all, --browser and --excerpt=always, and of mis-declared ones guessed, load the modules two load" {
	local i e o
	i=0
	for e in Shift_JIS EUC-KR KOI8-R ISO-8859-2 Big5 EUC-JP GB18030 \
	    ISO-8859-5 windows-1251 KOI8-U ISO-8859-7; do
		printf '<?xml version="1.0" encoding="%s"?><a>x\001</a>' "$e" > "d$i.src"
		i=$((i + 1))
	done
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<p>Voil\340 l\222\351t\351 \340 P\342ques, o\371 la cr\350me br\373l\351e.</p>\n' > g0.src
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<p>\304\343\272\303\243\254\312\300\275\347\241\243\316\322\303\307\324\332\325\342\300\357\241\243</p>\n' > g1.src
	mkdir d g
	for i in 0 1 2 3; do
		for e in d*.src; do ln "$e" "d/$i-${e%.src}.xml"; done
		for e in g*.src; do ln "$e" "g/$i-${e%.src}.xml"; done
	done
	cd d
	for o in --all --browser --excerpt=always; do
		modules_of 1 $o
		modules_of 3 $o
		[ -s modules.3 ] ||
		    skip "this iconv loads no modules (its converters are built in)"
		[ "$(sort -u modules.3 | grep -c .)" -ge 8 ]
		run diff modules.1 modules.3
		assert_success
	done
	cd ../g
	modules_of 1
	modules_of 3
	# The answers are those of one entity at a time.
	[ "$(grep -c 'note: it decodes cleanly as windows-1252' <<< "$output")" -eq 4 ]
	[ "$(grep -c 'note: it decodes cleanly as GBK' <<< "$output")" -eq 4 ]
	[ "$(sort -u modules.3 | grep -c .)" -ge 6 ]
	run diff modules.1 modules.3
	assert_success
}

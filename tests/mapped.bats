#!/usr/bin/env bats
# Mapping (input.c, prescan.c): with --mmap, a regular file of more than
# 1.25 MiB is mapped and handed on in pieces of 320 KiB, the size of a
# read, and a UTF-8 one is searched for "<?", "<!" and mojibake candidates
# by a second thread ahead of the validator.  Without it, and with
# XMLSNIFF_SIMD=ref, it is read, a buffer at a time (ahead by a second
# thread, src/lib/decode/ahead.c, when 5 MiB or more are left; never at
# level ref); every answer must be the same all three ways,
# whatever falls on the edge of a piece, of the thread's 64 KiB steps or
# of the pages given back behind (every MiB).
#
# The sweeps are in the unit driver (tests/kern_mapped.c), which writes
# each file and reads it through the same input layer as main.c (mapped
# with the second thread, mapped without it as the workers of -j do, read
# with mapping off, and as a pipe) at every kernel level, without --all
# and with every occurrence listed, against the reference reading it:
#   errors at every edge of the buffers, a character (and CR LF) cut by
#     each edge in every length, files ending on, before and after an
#     edge  mapped_edges
#   a late declaration and mojibake after the first buffers, marks where
#     the thread's steps end (XML 1.0 and 1.1), more marks than it keeps,
#     big and small files in turn (-r)  mapped_marks
#   files that end at the end of a page, every level  mapped_page_end
#   the marks in UTF-16 and UTF-32, an odd last byte, a UTF-16 --http
#     body at an odd offset, ISO-8859-1, windows-1252 and IBM037
#     mapped_forms
# What stays here runs the binary end to end: the reference against the
# default level and -j2 on a few big files, the guess, -r, transcoding,
# a file that shrinks, a page end.

load helper

READ=327680	# IN_SIZE: the bytes of one read or piece
SEG=65536	# the second thread's step

# text N [EVERY]: N lines of UTF-8 text with two- to four-byte characters,
# every EVERY-th (50th) ended by CR LF.  The reference reads text in time
# quadratic in the CRs of a buffer (src/lib/simd/ref.c, plain_utf8_nocr), so
# what it reads has few; kern_mapped.c puts CR LF across the edges.
text() {
	awk -v n="$1" -v every="${2:-50}" 'BEGIN {
		split("caf\303\251 na\303\257ve \344\270\255\346\226\207 " \
		    "\360\237\230\200 plain words \320\226\320\266 x", w, " ")
		for (i = 1; i <= n; i++) {
			s = "<p n=\"" i "\">"
			for (k = 0; k < 12; k++)
				s = s w[(i * 7 + k * 3) % 9 + 1] " "
			printf "%s</p>%s\n", s, (i % every == 0 ? "\r" : "")
		}
	}'
}

# same FILE [ARGS...]: the answers mapped (--mmap), read (the default)
# and read a character at a time (XMLSNIFF_SIMD=ref) agree, in text (with
# excerpts) and in JSON with every occurrence listed; and -j2 --mmap,
# whose workers map without a second thread, prints what -j1 --mmap
# prints for the file twice.  SAME_TEXT= (empty)
# compares JSON only: the marks tests of other encodings, whose text
# output is made by the same code as UTF-8's.  The outputs (megabytes,
# with every occurrence) are compared as files.
same() {
	local f=$1 a o=$BATS_TEST_TMPDIR/same
	shift
	for a in ${SAME_TEXT-""} "--all --max-errors=100000 --json"; do
		to "$o.ref" env XMLSNIFF_SIMD=ref "$XMLSNIFF" $a "$@" "$f"
		to "$o.out" "$XMLSNIFF" --mmap $a "$@" "$f"
		same_files "$o.ref" "$o.out" "--mmap $a"
		to "$o.out" "$XMLSNIFF" $a "$@" "$f"
		same_files "$o.ref" "$o.out" "$a"
	done
	a="--all --max-errors=100000 --json"
	to "$o.ref" "$XMLSNIFF" --mmap -j1 $a "$@" "$f" "$f"
	to "$o.out" "$XMLSNIFF" --mmap -j2 $a "$@" "$f" "$f"
	same_files "$o.ref" "$o.out" "-j2 $a"
}

# to FILE COMMAND...: the output and errors of COMMAND, then its exit
# status as "rc=N", into FILE.
to() {
	local out=$1 rc=0
	shift
	"$@" > "$out" 2>&1 || rc=$?
	echo "rc=$rc" >> "$out"
}

# same_files WANT GOT WHAT: the two outputs are the same bytes; else the
# first lines that differ, and failure.
same_files() {
	cmp -s "$1" "$2" && return 0
	echo "$3: the outputs differ (want, got):"
	diff "$1" "$2" | cut -c1-300 | head -20
	return 1
}

# at FILE OFFSET BYTES: BYTES (printf escapes) written over FILE at OFFSET.
at() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "mapped: errors at the edges of the 320 KiB buffers of a 3 MB file" {
	local f=$BATS_TEST_TMPDIR/big.xml k e
	huge "3 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  text 40000; printf '</r>\n'; } > "$f"
	[ "$(wc -c < "$f")" -gt 3000000 ]
	# an illegal byte, a control, a stray continuation byte and a
	# U+FFFE just before, on and after each edge of a read
	for k in 1 5 9; do
		e=$((k * READ))
		at "$f" $((e - 2)) '\377'
		at "$f" $((e - 1)) '\001'
		at "$f" "$e" '\200'
		at "$f" $((e + 1)) '\357\277\276'
	done
	same "$f" --strict
}

# bats test_tags=slow
@test "mapped: the real encoding of a big file is guessed from the whole of it" {
	local f=$BATS_TEST_TMPDIR/l1.xml
	huge "2 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  text 30000 | sed 's/[^ -~]//g; s/caf/caf\xe9 cr\xe8me na\xefve \xe0 la fa\xe7on/g'
	  printf '</r>\n'; } > "$f"
	[ "$(wc -c < "$f")" -gt 1400000 ]
	same "$f"
	run sh -c '"$0" --mmap "$1" 2>&1' "$XMLSNIFF" "$f"
	assert_output --partial "note: it decodes cleanly as windows-1252: \"<p n=\"3\">  café crème naïve"
}

@test "mapped: -r over big and small files, one after another" {
	local d=$BATS_TEST_TMPDIR/tree ref
	huge "2 MB inputs"
	mkdir "$d"
	{ printf '<r>'; text 20000; printf '\377</r>\n'; } > "$d/a.xml"
	printf '<r>\377</r>\n' > "$d/b.xml"
	{ printf '<?xml version="1.0" encoding="UTF-8"?><r>'; text 30000
	  printf '\001</r>\n'; } > "$d/c.xml"
	cp "$d/b.xml" "$d/d.xml"
	ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" -j1 --strict --json -r "$d" 2>&1; true)
	run "$XMLSNIFF" --mmap -j1 --strict --json -r "$d"
	assert_failure 1
	assert_output "$ref"
}

# marks FILE: "<?xml", a comment, a PI, mojibake ("Ã©", "Ã¨") and a C1
# control (C2 85) written over FILE at the edges of the second thread's
# steps, of the pieces and of the MiB given back, and in its first step.
marks() {
	local f=$1 k o
	for o in 100 $((SEG - 3)) $((3 * SEG + 1)) $((READ - 2)) \
	    $((2 * READ + 5)) $((1048576 - 4)) $((2097152 + 30)) \
	    $((4194304 - 1)) $((4194304 + 64)); do
		at "$f" "$o" '\n<?xml version="1.0"?>\n'
	done
	for k in 1 2 5 9 17 30 47 63 64 65 70; do
		o=$((k * SEG))
		at "$f" $((o - 3)) '\303\203\302\251'
		at "$f" $((o + 40)) '<!--\303\203\302\250-->'
		at "$f" $((o + 90)) '\302\205<?pi x?>'
		at "$f" $((o - 70)) '\303\203\302\251\303\203\302\251'
	done
}

# bats test_tags=slow
@test "mapped: late declarations, comments and mojibake where the second thread's steps end" {
	local f=$BATS_TEST_TMPDIR/marks.xml
	huge "5 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  text 64000; printf '</r>\n'; } > "$f"
	[ "$(wc -c < "$f")" -gt 4700000 ]
	marks "$f"
	same "$f"
}

@test "mapped: a transcode of a big file writes what reading writes" {
	local f=$BATS_TEST_TMPDIR/t.xml
	huge "3 MB inputs"
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'
	  text 30000; printf '</r>\n'; } > "$f"
	XMLSNIFF_SIMD=ref "$XMLSNIFF" --transcode-to=UTF-16LE -o "$f.ref" "$f"
	run "$XMLSNIFF" --mmap --transcode-to=UTF-16LE -o "$f.out" "$f"
	assert_success
	cmp "$f.ref" "$f.out"
	# in place, and --fix: the file read and written is the same one
	cp "$f" "$f.2"
	run "$XMLSNIFF" --mmap --transcode-to=UTF-16LE --in-place "$f.2"
	assert_success
	cmp "$f.ref" "$f.2"
}

# A file that shrinks after it was mapped: its pages past the new end
# cannot be read (SIGBUS).  A preloaded mmap(2) truncates the file it maps
# at once, which no timing can promise otherwise.
@test "mapped: a file that shrinks while it is read fails with a one-line message, status 2; while it is read again for the guess, no guess" {
	local f=$BATS_TEST_TMPDIR/shrink.xml so=$BATS_TEST_TMPDIR/shrink.so
	huge "3 MB inputs"
	command -v cc > /dev/null || skip "no C compiler"
	if ldd "$XMLSNIFF" 2> /dev/null | grep -q 'libasan\|libubsan'; then
		skip "a sanitizer's runtime must come first"
	fi
	cat > "$BATS_TEST_TMPDIR/shrink.c" <<'C'
#define _GNU_SOURCE
#include <sys/mman.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the call, then, at the SHRINK_AT-th mapping (default the first) of
 * the file SHRINK_FILE, its truncation to SHRINK_TO bytes (the program
 * calls mmap or mmap64) */
static void *
shrink(const char *name, void *a, size_t len, int prot, int flags, int fd,
    off_t off)
{
	static int seen;
	void *(*real)(void *, size_t, int, int, int, off_t);
	void *m;
	char p[64], path[4096];
	const char *want = getenv("SHRINK_FILE"), *at = getenv("SHRINK_AT");
	ssize_t k;

	real = (void *(*)(void *, size_t, int, int, int, off_t))
	    dlsym(RTLD_NEXT, name);
	m = real(a, len, prot, flags, fd, off);
	if (m == MAP_FAILED || fd < 0 || want == NULL ||
	    getenv("SHRINK_TO") == NULL)
		return m;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	if ((k = readlink(p, path, sizeof(path) - 1)) <= 0)
		return m;
	path[k] = '\0';
	if (strcmp(path, want) != 0 || ++seen != (at != NULL ? atoi(at) : 1))
		return m;
	if (truncate(p, atol(getenv("SHRINK_TO"))) == 0)
		fputs("shrunk\n", stderr);
	return m;
}

void *
mmap(void *a, size_t len, int prot, int flags, int fd, off_t off)
{
	return shrink("mmap", a, len, prot, flags, fd, off);
}

void *
mmap64(void *a, size_t len, int prot, int flags, int fd, off_t off)
{
	return shrink("mmap64", a, len, prot, flags, fd, off);
}
C
	cc -shared -fPIC -o "$so" "$BATS_TEST_TMPDIR/shrink.c" -ldl ||
	    skip "cannot build a preloaded library"
	for n in 100000 700000 2000000; do
		{ printf '<r>\n'; text 30000; printf '</r>\n'; } > "$f"
		run env LD_PRELOAD="$so" SHRINK_FILE="$(realpath "$f")" \
		    SHRINK_TO=$n "$XMLSNIFF" --mmap "$f"
		[ "${lines[0]}" = shrunk ] || skip "the preload did not take (a static build)"
		assert_failure 2
		assert_line "xmlsniff: $f: the file shrank while it was read"
		[ "${#lines[@]}" -eq 2 ]
	done
	# a transcode: no output file is left
	{ printf '<r>\n'; text 30000; printf '</r>\n'; } > "$f"
	run env LD_PRELOAD="$so" SHRINK_FILE="$(realpath "$f")" \
	    SHRINK_TO=500000 "$XMLSNIFF" --mmap --transcode-to=UTF-16LE -o "$f.out" "$f"
	assert_failure 2
	assert_output --partial "read error on $f"
	[ ! -e "$f.out" ]
	# Shrinking once it is analysed, while it is mapped again for the
	# guess (UTF-8 with two stray bytes: "mostly UTF-8"): the analysis
	# stands, with no guess made from what was left to read.
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n'; text 30000 5
	  printf '</r>\n'; } > "$f"
	at "$f" 100000 '\377'
	at "$f" 1000000 '\377'
	run "$XMLSNIFF" --mmap "$f"
	assert_line --index 2 --partial "$f: note: it is mostly UTF-8, with 2 stray bytes"
	run env LD_PRELOAD="$so" SHRINK_FILE="$(realpath "$f")" \
	    SHRINK_AT=2 SHRINK_TO=500000 "$XMLSNIFF" --mmap "$f"
	assert_success
	assert_line --index 0 shrunk
	assert_line --index 1 "$f: UTF-8 (declaration), declared \"UTF-8\", 1 error"
	refute_output --partial "note:"
}

# Past the last page of a mapped file there is nothing to read: no kernel
# may look beyond the last byte (a read buffer hid that).
@test "mapped: a file that ends at the end of a page, at two levels and transcoded" {
	local f=$BATS_TEST_TMPDIR/page.xml n lv c
	huge "2 MB inputs"
	for n in $((4096 * 401 - 1)); do
		for c in '\360\237\230\200' '\r'; do
			printf '<r>' > "$f"
			head -c $((n - 4)) /dev/zero | tr "\0" a >> "$f"
			truncate -s $((n - $(printf "$c" | wc -c) - 1)) "$f"
			printf "$c>" >> "$f"
			[ "$(wc -c < "$f")" -eq "$n" ]
			ref=$(XMLSNIFF_SIMD=ref "$XMLSNIFF" --json "$f" 2>&1; echo "rc=$?")
			for lv in "" none; do
				run env XMLSNIFF_SIMD=$lv sh -c '"$0" --mmap --json "$1" 2>&1; echo "rc=$?"' \
				    "$XMLSNIFF" "$f"
				assert_output "$ref"
			done
		done
		XMLSNIFF_SIMD=ref "$XMLSNIFF" --transcode-to=UTF-16BE -o "$f.ref" "$f" || true
		"$XMLSNIFF" --mmap --transcode-to=UTF-16BE -o "$f.out" "$f" || true
		cmp "$f.ref" "$f.out"
	done
}

# u16 FILE FORM: FILE (UTF-8, the marks written over it) in FORM with a
# BOM, as FILE.FORM; what does not convert is left out.
u16() {
	{ printf '\357\273\277'; cat "$1"; } |
	    iconv -c -f UTF-8 -t "$2" > "$1.$2" 2> /dev/null || true
}

# bats test_tags=slow
@test "mapped: a UTF-16 --http body that starts at an odd offset" {
	local f=$BATS_TEST_TMPDIR/h.xml
	huge "4 MB inputs"
	{ printf '<?xml version="1.0"?>\n<r>\n'; text 25000; printf '</r>\n'; } > "$f"
	marks "$f"
	u16 "$f" UTF-16LE
	{ printf 'HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n'
	  cat "$f.UTF-16LE"; } > "$f.http"
	[ $(( $(wc -c < "$f.http") - $(wc -c < "$f.UTF-16LE") )) -eq 43 ]
	SAME_TEXT= same "$f.http" --http
}

#!/usr/bin/env bats
# bench/run in its quick mode with tiny inputs: that it makes every shape,
# checks every command before it times it, and prints its table.  The
# timings themselves mean nothing at this size.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

SHAPES="ascii-lf ascii-crlf latin-lf latin-crlf cjk-lf cjk-crlf emoji-lf
emoji-crlf cyr-lf cyr-crlf ce-lf ce-crlf baltic-lf baltic-crlf tr-lf tr-crlf
vi-lf vi-crlf el-lf el-crlf arhe-lf arhe-crlf th-lf th-crlf ko-lf ko-crlf
hi-lf hi-crlf
mixed-lf mixed-crlf dense-lf dense-crlf cjk-u16 latin-u16crlf ce-u16crlf
th-u16 arhe-u16crlf mixed-u16 latin1-crlf cjk-u32 latin-u32"

setup() {
	local t
	for t in cc iconv awk sed xargs; do
		command -v "$t" >/dev/null 2>&1 || skip "bench/run needs $t"
	done
	huge "bench/run runs xmlsniff some two hundred times"
}

# bats test_tags=slow
@test "bench: quick run, a row for every shape, peers checked" {
	local fake=$BATS_TEST_TMPDIR/bin s
	mkdir -p "$fake"
	# Peers that fall short: an isutf8 that names no file (right on the
	# UTF-8 shapes, short over the tree, where 15 of the 50 files are
	# not UTF-8), and a uchardet that fails.  Neither may be timed there.
	# The isutf8 and the xmlsniff write a line to $log for each run on
	# ce-lf.xml: they are to be timed in turn.
	local log=$BATS_TEST_TMPDIR/turns
	printf '#!/bin/sh\ncase "$*" in *ce-lf.xml) echo I >> "%s" ;; esac\nexit 0\n' "$log" > "$fake/isutf8"
	printf '#!/bin/sh\necho "no such thing" >&2\nexit 3\n' > "$fake/uchardet"
	# An xmlsniff whose iconv cannot write GB18030, as musl's cannot: that
	# task is skipped and said so, not a failure.
	# It writes T for each run over the tree, J for each with -j1: the
	# two are timed in turn as well.
	local tlog=$BATS_TEST_TMPDIR/tree-turns
	printf '#!/bin/sh\ncase "$*" in *--transcode-to=GB18030*)\n\techo "xmlsniff: --transcode-to: this system'"'"'s iconv cannot write GB18030" >&2\n\texit 2 ;;\n*--transcode*) ;;\n*ce-lf.xml) echo X >> "%s" ;;\n"-j1 -r "*/tree) echo J >> "%s" ;;\n"-r "*/tree) echo T >> "%s" ;;\nesac\nexec "%s" "$@"\n' "$log" "$tlog" "$tlog" "$XMLSNIFF" > "$fake/xs"
	chmod +x "$fake/isutf8" "$fake/uchardet" "$fake/xs"
	XMLSNIFF=$fake/xs PATH=$fake:$PATH BENCH_QUICK=1 BENCH_MB=1 BENCH_FILES=50 \
	    BENCH_RUNS=1 BENCH_OUT=$BATS_TEST_TMPDIR/out.tsv \
	    run_apart sh "$TOP/bench/run"
	assert_success
	assert_line --regexp '^xmlsniff benchmark: .* inputs of 1 MB and 50 files, median of 1 runs \(4 for xmlsniff, cat and isutf8\)$'
	assert_line --regexp '^task +median s +xmlsniff +peak RSS +cat +isutf8 +iconv +uconv +against the fastest peer that did the whole job$'
	assert_line --regexp '^timed with (hyperfine .*|bench/measure \(hyperfine not installed\)); xmlsniff, cat and isutf8 on each big file in turn, and the tree with -j and -j1 in turn(, with bench/measure)?$'
	for s in $SHAPES tree tree-files0 tree-j1 u8-u16:ascii-lf u8-u16:cyr-crlf \
	    u8-u16:ce-lf u8-u16:mixed-lf u16-u8:cjk-u16 u16-u8:latin-u16crlf \
	    u16-u8:ce-u16crlf u8-u32:emoji-lf u32-u8:cjk-u32 \
	    l1-u8:latin1-crlf u8-l1:latin-lf; do
		assert_line --regexp "^$s +[0-9.]+ +[0-9.]+ (GB/s|files/s) +[0-9.]+ M +([0-9.]+|-) +([0-9.]+x|-) +([0-9.]+x|-) +([0-9.]+x|-)  [0-9a-z]"
	done
	# the UTF-8 shapes against isutf8 (which names no file here: it
	# passes its checks on them), the others not
	assert_line --regexp '^ce-lf +[0-9.]+ +[0-9.]+ GB/s +[0-9.]+ M +[0-9.]+ +[0-9.]+x '
	assert_line --regexp '^cjk-u16 +[0-9.]+ +[0-9.]+ GB/s +[0-9.]+ M +[0-9.]+ +- '
	assert_line --regexp '^UTF-8 and UTF-16 text: at least [0-9.]+ of the speed of cat \(lowest: [a-z0-9-]+\)$'
	assert_line --regexp '^UTF-8 text: at least [0-9.]+x the speed of isutf8 \(lowest: [a-z0-9-]+\)$'
	assert_line --regexp '^UTF-8 to and from UTF-16: at least [0-9.]+x the speed of iconv \(lowest: (u8-u16|u16-u8):[a-z0-9-]+\)$'
	refute_output --partial FAILED
	assert_line --regexp '^tree: -j \(the default: one worker a processor\) is [0-9.]+x the speed of -j1$'
	assert_line --regexp '^tree: opening and reading its files in two processes \(bench/openread\) is [0-9.]+x the speed of one$'
	if iconv -f UTF-8 -t GB18030 < /dev/null > /dev/null 2>&1; then
		assert_line --regexp "^u8-gb18030:cjk-lf +skipped: this system's iconv cannot write GB18030$"
	fi
	assert_line --regexp '^  tree isutf8 +cannot: reported on 0 of 15$'
	assert_line --regexp '^  ascii-lf uchardet +cannot: exit status 3: no such thing$'
	assert_line --regexp '^  latin1-crlf isutf8 +cannot: reads UTF-8 only$'
	# The TSV: a header, and xmlsniff done and timed on every task.
	run head -n 1 "$BATS_TEST_TMPDIR/out.tsv"
	assert_output "$(printf 'task\ttool\tstatus\tmedian_s\tpeak_rss_kib\tsize\tnote')"
	for s in $SHAPES tree; do
		run grep -c "^$s	xmlsniff	ok	" "$BATS_TEST_TMPDIR/out.tsv"
		assert_output 1
	done
	run grep -c -e '	uchardet	ok	' -e '^tree	isutf8	ok	' \
	    "$BATS_TEST_TMPDIR/out.tsv"
	assert_output 0
	# cat and isutf8 timed with xmlsniff on the big UTF-8 files, cat
	# alone on the others
	for s in ascii-lf ce-lf mixed-crlf cjk-u16 latin1-crlf; do
		run grep -c "^$s	cat	ok	" "$BATS_TEST_TMPDIR/out.tsv"
		assert_output 1
	done
	for s in ascii-lf ce-lf mixed-crlf; do
		run grep -c "^$s	isutf8	ok	" "$BATS_TEST_TMPDIR/out.tsv"
		assert_output 1
	done
	# each checked once, then timed in turn, 4 runs each
	run tr -d '\n' < "$log"
	assert_output XIXIXIXIXI
	run tr -d '\n' < "$tlog"
	assert_output TJTJTJTJTJ
}

# bats test_tags=slow
@test "bench: an xmlsniff that answers wrongly fails the run" {
	local fake=$BATS_TEST_TMPDIR/xmlsniff
	printf '#!/bin/sh\necho "UTF-8"\n' > "$fake"
	chmod +x "$fake"
	# A shape, a transcode and the tree: each kind of check.
	XMLSNIFF=$fake BENCH_QUICK=1 BENCH_MB=1 BENCH_FILES=20 BENCH_RUNS=1 \
	    BENCH_ONLY='ascii-lf u8-u16:ascii-lf tree' \
	    run_apart sh "$TOP/bench/run"
	assert_failure 1
	assert_line --regexp '^ascii-lf +FAILED: answered "UTF-8", not ".*ascii-lf.xml: UTF-8 \(declaration\), declared "UTF-8""$'
	assert_line --regexp '^u8-u16:ascii-lf +FAILED: wrote 6 bytes of [0-9]+$'
	assert_line --regexp '^tree +FAILED: reported on 1 of 20$'
	stderr_has "bench: xmlsniff fell short on ascii-lf"
	stderr_has "bench: xmlsniff fell short on u8-u16:ascii-lf"
	stderr_has "bench: xmlsniff fell short on tree"
	# the peers that did the job are timed all the same, each alone
	if command -v isutf8 > /dev/null; then
		assert_line --regexp '^  ascii-lf isutf8 +[0-9.]+ s +[0-9.]+ GB/s'
	fi
}

# bats test_tags=slow
@test "bench: BENCH_ONLY runs the tasks it names, by name or pattern, and makes only the inputs they read" {
	local dir=$BATS_TEST_TMPDIR/inputs
	BENCH_QUICK=1 BENCH_MB=1 BENCH_FILES=20 BENCH_RUNS=1 BENCH_DIR=$dir \
	    BENCH_ONLY='ce-u16crlf u16-u8:th-* pipe' run_apart sh "$TOP/bench/run"
	assert_success
	# The rows of the table: those two tasks alone; no tree.
	assert_equal "$(awk '/^task /, /^$/' <<< "$output" |
	    awk 'NR > 2 && NF { print $1 }')" "ce-u16crlf
u16-u8:th-u16"
	refute_output --regexp '^ *tree'
	assert_line --regexp '^xmlsniff benchmark: .*, inputs of 1 MB, median of 1 runs '
	stderr_has "bench: making inputs in $dir (1 MB each)"
	assert_line --regexp '^[0-9.]+ GiB transcode to UTF-16 from a pipe: [0-9.]+ s, peak RSS [0-9.]+ MiB \(pipeline, xmlsniff included\)$'
	# The shapes made: the two read, the UTF-8 ones they are made from,
	# ascii-lf for the pipe; no tree.
	run sh -c 'cd "$1" && ls *.xml' sh "$dir"
	assert_output "ascii-lf.xml
ce-crlf.xml
ce-u16crlf.xml
th-lf.xml
th-u16.xml"
	[ ! -e "$dir/tree" ]
	# A pattern is for task names, whatever files the folder holds; the
	# tree's three tasks come together; no pipe.
	cd "$BATS_TEST_TMPDIR" && touch tree-jx ce-lfx
	BENCH_QUICK=1 BENCH_MB=1 BENCH_FILES=20 BENCH_RUNS=1 \
	    BENCH_ONLY='tree-j*' run_apart sh "$TOP/bench/run"
	assert_success
	assert_equal "$(awk '/^task /, /^$/' <<< "$output" |
	    awk 'NR > 2 && NF { print $1 }')" "tree
tree-j1
tree-files0"
	assert_line --regexp '^tree: -j \(the default: one worker a processor\) is [0-9.]+x the speed of -j1$'
	assert_line --regexp '^xmlsniff benchmark: .*, inputs of 1 MB and 20 files, median of 1 runs '
	stderr_has " (1 MB each, 20 files)"
	refute_output --partial "from a pipe"
}

# bats test_tags=slow
@test "bench: BENCH_ONLY with a word that names no task is refused, the tasks listed, nothing made" {
	local dir=$BATS_TEST_TMPDIR/inputs t
	for t in nope ce-lff "'ce-lf'" 'u8-u16:*-u16'; do
		BENCH_QUICK=1 BENCH_MB=1 BENCH_FILES=20 BENCH_RUNS=1 \
		    BENCH_DIR=$dir BENCH_ONLY="ce-lf $t" run_apart sh "$TOP/bench/run"
		assert_failure 2
		assert_output ""
		stderr_has "bench: BENCH_ONLY: '$t' names no task; the tasks: ascii-lf ascii-crlf "
		stderr_has " u8-gb18030:cjk-lf tree tree-j1 tree-files0 pipe"
		run sh -c 'ls "$1"/*.xml 2> /dev/null' sh "$dir"
		assert_output ""
	done
}

@test "bench/measure: commands in turn, a line each of median seconds and peak KiB; an empty command, a ninth, a missing one, a bad count refused" {
	local m=$BATS_TEST_TMPDIR/measure log=$BATS_TEST_TMPDIR/log
	cc -O2 -o "$m" "$TOP/bench/measure.c" || fail "bench/measure.c does not build"
	run_apart "$m" 3 sh -c "echo A >> $log" ::: sh -c "echo B >> $log" \
	    ::: sh -c "echo C >> $log; head -c 20000000 /dev/zero | sort > /dev/null"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 --regexp '^[0-9]+\.[0-9]{6} [0-9]+$'
	assert_line --index 1 --regexp '^[0-9]+\.[0-9]{6} [0-9]+$'
	assert_line --index 2 --regexp '^[0-9]+\.[0-9]{6} [0-9]+$'
	# one run of each after the other, three times
	assert_equal "$(tr -d '\n' < "$log")" ABCABCABC
	# the third's peak: sort(1) held its 20 MB, a descendant's
	[ "${lines[2]#* }" -gt 10000 ] || fail "peak ${lines[2]#* } KiB"
	[ "${lines[0]#* }" -lt 10000 ] || fail "peak ${lines[0]#* } KiB"
	run_apart "$m" 1 true
	assert_success
	assert_equal "${#lines[@]}" 1
	for a in "true :::" "::: true" "true ::: ::: true"; do
		# shellcheck disable=SC2086
		run_apart "$m" 2 $a
		assert_failure 2
		assert_equal "$stderr" "measure: an empty command, or more than 8"
	done
	# eight commands, not nine
	run_apart "$m" 1 true ::: true ::: true ::: true ::: true ::: true \
	    ::: true ::: true
	assert_success
	assert_equal "${#lines[@]}" 8
	run_apart "$m" 1 true ::: true ::: true ::: true ::: true ::: true \
	    ::: true ::: true ::: true
	assert_failure 2
	assert_equal "$stderr" "measure: an empty command, or more than 8"
	run_apart "$m" 2 true ::: "$BATS_TEST_TMPDIR/none"
	assert_failure 2
	assert_equal "$stderr" "measure: cannot run $BATS_TEST_TMPDIR/none"
	for a in 0 257 x; do
		run_apart "$m" "$a" true
		assert_failure 2
		assert_equal "$stderr" "usage: measure RUNS CMD [ARG...] [::: CMD [ARG...]]..."
	done
}

@test "bench/lib: a row for each shape and size, the bytes' own speed, the goal, in a tiny run" {
	[ -f "$TOP/libxmlsniff.a" ] || fail "libxmlsniff.a is not built (make)"
	local s z
	BENCH_LIB_SECONDS=0.01 BENCH_LIB_RUNS=1 BENCH_LIB_DOCS=2 \
	    run_apart sh "$TOP/bench/lib"
	assert_success
	assert_equal "$stderr" ""
	assert_line --regexp '^libxmlsniff [0-9]+\.[0-9]+\.[0-9]+ benchmark: xmlsniff_check_buffer on one thread, 2 documents a row, median of 1 runs of 0\.01 s of CPU time$'
	assert_line --regexp '^shape +size +docs/s +MB/s +us/doc +bytes us +call us +call % +\+json us$'
	for s in ascii utf8; do
		for z in 1 4 64; do
			assert_line --regexp "^$s +$z KB +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +-?[0-9.]+ +-?[0-9]+% +-?[0-9.]+$"
		done
		assert_line --regexp "^$s +16 MB in one call: [0-9]+ MB/s$"
	done
	assert_line --regexp '^goal: 500000 4-KB documents/s on one core; utf8 4 KB: [0-9]+/s, (met|not met)$'
	assert_line --regexp '^wall-clock time: [0-9.]+ s$'
	assert_equal "${#lines[@]}" 12
}

@test "bench/kernels: a row for each script, each pass in cache and from memory, against Latin, in a tiny run" {
	[ -f "$TOP/libxmlsniff.a" ] || fail "libxmlsniff.a is not built (make)"
	local s n='[0-9]+\.[0-9]{2}' r='[0-9]+\.[0-9]{2}x'
	BENCH_KERNELS_SECONDS=0.001 BENCH_KERNELS_MB=2 \
	    run_apart sh "$TOP/bench/kernels"
	assert_success
	assert_equal "$stderr" ""
	assert_line --index 0 --regexp '^kernels at level [a-z0-9]+, GB/s, the best of 3 runs of 0\.001 s of CPU time$'
	assert_line --index 1 --regexp '^text +read +plain +marks +both +\| +read +plain +marks +both +\| in cache against latin$'
	assert_line --index 2 --regexp '^ +in cache \(1 MB\) +\| +from memory \(2 MB\) +\|$'
	assert_line --index 3 --regexp "^latin( +$n){4} +\|( +$n){4} +\| +1\.00x +1\.00x +1\.00x +1\.00x$"
	for s in en cjk emoji cyr ce baltic tr vi el arhe th ko hi mixed dense; do
		assert_line --regexp "^$s( +$n){4} +\|( +$n){4} +\|( +$r){4}$"
	done
	assert_equal "${#lines[@]}" 19
}

@test "bench/kernels: a level that no table has is refused with the names, status 2; one this machine cannot run is the portable one" {
	[ -f "$TOP/libxmlsniff.a" ] || fail "libxmlsniff.a is not built (make)"
	BENCH_KERNELS_LEVEL=avx3 BENCH_KERNELS_SECONDS=0.001 \
	    run_apart sh "$TOP/bench/kernels"
	assert_failure 2
	assert_output ""
	[[ $stderr =~ ^kernels:\ no\ level\ avx3\ \(([a-z0-9]+,\ )*none\ or\ ref\)$ ]] ||
	    fail "stderr: $stderr"
	BENCH_KERNELS_LEVEL=neon BENCH_KERNELS_LINES=1500 BENCH_KERNELS_MB=2 \
	    BENCH_KERNELS_SECONDS=0.001 run_apart sh "$TOP/bench/kernels"
	if [ "$(uname -m)" = aarch64 ]; then
		assert_line --index 0 --partial 'kernels at level neon,'
	else
		assert_line --index 0 --partial 'kernels at level none,'
	fi
	assert_success
}

@test "bench/kernels: texts of one's own; one that is not plain UTF-8, one too short, a bad size or time, each refused with its reason" {
	[ -f "$TOP/libxmlsniff.a" ] || fail "libxmlsniff.a is not built (make)"
	local t=$BATS_TEST_TMPDIR
	printf 'Z\303\263\305\202w <p>%d</p>\n' $(seq 9000) > "$t/pl.txt"
	cp "$t/pl.txt" "$t/bad.txt"
	printf 'a\300\257b\n' >> "$t/bad.txt"
	head -c 1000 "$t/pl.txt" > "$t/short.txt"
	BENCH_KERNELS_SECONDS=0.001 BENCH_KERNELS_MB=2 \
	    run_apart sh "$TOP/bench/kernels" "pl=$t/pl.txt" "two=$t/pl.txt"
	assert_success
	assert_line --index 1 --regexp 'in cache against pl$'
	assert_line --index 3 --regexp '^pl( +[0-9.]+){4} +\|( +[0-9.]+){4} +\| +1\.00x +1\.00x +1\.00x +1\.00x$'
	assert_line --index 4 --regexp '^two( +[0-9.]+){4} +\|( +[0-9.]+){4} +\|( +[0-9.]+x){4}$'
	assert_equal "${#lines[@]}" 5
	BENCH_KERNELS_SECONDS=0.001 BENCH_KERNELS_MB=2 \
	    run_apart sh "$TOP/bench/kernels" "pl=$t/pl.txt" "bad=$t/bad.txt"
	assert_failure 1
	assert_equal "$stderr" "kernels: bad: plain stopped before the end: not plain UTF-8 text"
	BENCH_KERNELS_SECONDS=0.001 run_apart sh "$TOP/bench/kernels" "s=$t/short.txt"
	assert_failure 2
	assert_equal "$stderr" "kernels: $t/short.txt: under 131072 bytes"
	BENCH_KERNELS_SECONDS=0.001 run_apart sh "$TOP/bench/kernels" "s=$t/none.txt"
	assert_failure 2
	assert_equal "$stderr" "$t/none.txt: No such file or directory"
	for bad in "BENCH_KERNELS_MB=1" "BENCH_KERNELS_MB=x" "BENCH_KERNELS_SECONDS=0" "BENCH_KERNELS_SECONDS=61"; do
		run_apart env "$bad" sh "$TOP/bench/kernels" "pl=$t/pl.txt"
		assert_failure 2
		assert_equal "$stderr" "usage: kernels [-s SECONDS] [-l LEVEL] [-m MB] NAME=FILE..."
	done
	run_apart sh "$TOP/bench/kernels" "nofile"
	assert_failure 2
	assert_equal "$stderr" "usage: kernels [-s SECONDS] [-l LEVEL] [-m MB] NAME=FILE..."
}

@test "bench/overlap: a row for each file with the three ways and their ratios, in a tiny run; no file, a bad count, an unreadable file refused" {
	[ -f "$TOP/libxmlsniff.a" ] || fail "libxmlsniff.a is not built (make)"
	local t=$BATS_TEST_TMPDIR n='[0-9]+\.[0-9]'
	awk 'BEGIN { for (i = 0; i < 30000; i++) printf "<p>Z\303\263\305\202w %d</p>\n", i }' \
	    > "$t/a.txt"
	BENCH_OVERLAP_RUNS=1 BENCH_OVERLAP_SLOTS=2 \
	    run_apart sh "$TOP/bench/overlap" "$t/a.txt" "$t/a.txt"
	assert_success
	assert_equal "$stderr" ""
	assert_line --index 0 'pieces of 320 KB, 2 slots, medians of 1 runs, ms'
	assert_line --index 1 --regexp '^file +one +copy +split$'
	assert_line --index 2 --regexp "^.*a\.txt( +$n){3} +x$n[0-9] x$n[0-9]$"
	assert_line --index 3 --regexp "^.*a\.txt( +$n){3} +x$n[0-9] x$n[0-9]$"
	assert_equal "${#lines[@]}" 4
	run_apart sh "$TOP/bench/overlap"
	assert_failure 2
	assert_equal "$stderr" "usage: bench/overlap FILE..."
	BENCH_OVERLAP_SLOTS=1 run_apart sh "$TOP/bench/overlap" "$t/a.txt"
	assert_failure 2
	assert_equal "$stderr" "usage: overlap [-r RUNS] [-s SLOTS] FILE..."
	BENCH_OVERLAP_RUNS=x run_apart sh "$TOP/bench/overlap" "$t/a.txt"
	assert_failure 2
	assert_equal "$stderr" "usage: overlap [-r RUNS] [-s SLOTS] FILE..."
	run_apart sh "$TOP/bench/overlap" "$t/a.txt" "$t/none"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "overlap: $t/none: No such file or directory"
}

# bats test_tags=slow
@test "bench/guess-corpus: iconv(3) in process gives the table iconv(1) a conversion gives, and the test's floors hold with it" {
	command -v python3 > /dev/null || skip "no python3"
	local args=(-x "$XMLSNIFF" --uchardet '' --sizes 6000 --min-nonascii 200 --no-wide)
	run env XMLSNIFF_TEST_UCHARDET=no XMLSNIFF_BENCH_ICONV=process \
	    "$TOP/bench/guess-corpus" "${args[@]}"
	assert_success
	local want=$output
	assert_line --regexp '^all +[0-9]+/0/0$'
	run env XMLSNIFF_TEST_UCHARDET=no "$TOP/bench/guess-corpus" "${args[@]}"
	assert_success
	assert_equal "$output" "$want"
}

#!/usr/bin/env bats
# fuzz/run, the runner of the libFuzzer targets that .ci/run and make
# fuzz-run use: each target for the seconds given, FUZZ_JOBS of them at
# once, each line in the targets' order, a failure reported and the exit
# status 1.  The targets here are stand-ins (a shell script under each
# name) that record when they ran and with what arguments: the real ones
# need clang and take seconds each, and CI runs those.
load helper

TARGETS="sniff decl mt validate transcode api diff"

# The runner in a folder of its own, with a stand-in for every target.
# A stand-in appends "start T" and "end T" to events, keeps its arguments
# in T.args, and fails with a sanitizer's report when it is FAKE_FAIL.
# With FAKE_AT_ONCE=N it does not end before the whole of its group of N
# has started (of FAKE_TOTAL targets, default 7), the group told by the
# line of its start: a runner that starts fewer at once makes it wait 5
# seconds and fail, whatever the machine's load.  FAKE_SLEEP: seconds it
# takes besides.
setup() {
	mkdir -p "$BATS_TEST_TMPDIR/fuzz/seeds/diff" "$BATS_TEST_TMPDIR/bin"
	cp "$TOP/fuzz/run" "$BATS_TEST_TMPDIR/fuzz/run"
	cat > "$BATS_TEST_TMPDIR/fuzz/stand-in" <<-'EOF'
	#!/bin/sh
	t=${0##*/}
	t=${t%-fuzz}
	echo "start $t" >> events
	printf '%s\n' "$@" > "$t.args"
	if [ -n "${FAKE_AT_ONCE:-}" ]; then
		p=$(grep "^start" events | grep -n "^start $t\$" | cut -d: -f1)
		want=$(( (p + FAKE_AT_ONCE - 1) / FAKE_AT_ONCE * FAKE_AT_ONCE ))
		[ "$want" -le "${FAKE_TOTAL:-7}" ] || want=${FAKE_TOTAL:-7}
		i=0
		until [ "$(grep -c '^start' events)" -ge "$want" ]; do
			i=$((i + 1))
			if [ $i -gt 500 ]; then
				echo "$t alone: $want were to start at once"
				exit 1
			fi
			sleep 0.01
		done
	fi
	[ -z "${FAKE_SLEEP:-}" ] || sleep "$FAKE_SLEEP"
	echo "end $t" >> events
	if [ "$t" = "${FAKE_FAIL:-}" ]; then
		echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow in $t"
		exit 1
	fi
	echo "stat::number_of_executed_units: ${#t}00"
	EOF
	cd "$BATS_TEST_TMPDIR" || return 1
	# One process for all the copies: each costs milliseconds here.
	local t names=()
	for t in $TARGETS; do names+=("fuzz/$t-fuzz"); done
	tee "${names[@]}" < fuzz/stand-in > /dev/null
	chmod +x "${names[@]}"
}

# groups: the events as the groups of targets that ran at once, one line
# a group ("sniff decl"), checking that no target of a group ends before
# every one of it has started.  The targets of a group start side by
# side, so their "start" lines come in any order: each group is given in
# the targets' order (a run under load had "transcode diff api").
groups() {
	awk -v order="$TARGETS" '
	     function flush(   k, s) {
		s = ""
		for (k = 1; k <= nt; k++)
			if (t[k] in in_g)
				s = s (s == "" ? "" : " ") t[k]
		print s
		split("", in_g)
	     }
	     BEGIN { nt = split(order, t, " ") }
	     $1 == "start" { if (ended) { flush(); ended = 0 }
			     in_g[$2] = 1 }
	     $1 == "end" { ended = 1 }
	     END { flush() }' fuzz/events
}

@test "fuzz/run: every target in order, its runs counted, each with the seconds, seed, corpus and seeds" {
	FUZZ_JOBS=2 run sh fuzz/run 3
	assert_success
	assert_output "fuzz sniff: 500 runs in 3s, no finding
fuzz decl: 400 runs in 3s, no finding
fuzz mt: 200 runs in 3s, no finding
fuzz validate: 800 runs in 3s, no finding
fuzz transcode: 900 runs in 3s, no finding
fuzz api: 300 runs in 3s, no finding
fuzz diff: 400 runs in 3s, no finding"
	run cat fuzz/sniff.args
	assert_output "-max_total_time=3
-max_len=4096
-timeout=10
-seed=1
-artifact_prefix=./
-print_final_stats=1
corpus-sniff
seeds"
	run tail -n 2 fuzz/diff.args
	assert_output "corpus-diff
seeds/diff"
	[ -d fuzz/corpus-api ] && [ -d fuzz/corpus-diff ]
	# Nothing of the run's bookkeeping is left behind.
	run ls fuzz
	refute_output --partial ".rc"
}

@test "fuzz/run: 30 seconds unless told, FUZZ_SEED passed on" {
	FUZZ_JOBS=7 FUZZ_SEED=42 run sh fuzz/run
	assert_success
	assert_line --index 0 "fuzz sniff: 500 runs in 30s, no finding"
	run grep -h -e '^-seed=' -e '^-max_total_time=' fuzz/mt.args
	assert_output "-max_total_time=30
-seed=42"
}

@test "fuzz/run: FUZZ_JOBS targets at once, the next group when the last is done" {
	FAKE_AT_ONCE=2 FUZZ_JOBS=2 run sh fuzz/run 1
	assert_success
	assert_equal "$(groups)" "sniff decl
mt validate
transcode api
diff"
	rm fuzz/events
	FAKE_AT_ONCE=3 FUZZ_JOBS=3 run sh fuzz/run 1
	assert_success
	assert_equal "$(groups)" "sniff decl mt
validate transcode api
diff"
	assert_line --index 6 "fuzz diff: 400 runs in 1s, no finding"
}

@test "fuzz/run: FUZZ_JOBS=1 runs one target at a time" {
	FAKE_SLEEP=0.05 FUZZ_JOBS=1 run sh fuzz/run 1
	assert_success
	assert_equal "$(cat fuzz/events)" "start sniff
end sniff
start decl
end decl
start mt
end mt
start validate
end validate
start transcode
end transcode
start api
end api
start diff
end diff"
	assert_equal "${#lines[@]}" 7
}

@test "fuzz/run: the default is one target a processor (getconf)" {
	printf '#!/bin/sh\necho 4\n' > bin/getconf
	chmod +x bin/getconf
	FAKE_AT_ONCE=4 PATH="$BATS_TEST_TMPDIR/bin:$PATH" run sh fuzz/run 1
	assert_success
	assert_equal "$(groups)" "sniff decl mt validate
transcode api diff"
}

@test "fuzz/run: a target that fails is reported with its log's end, the others still run, status 1" {
	FAKE_FAIL=mt FUZZ_JOBS=2 run sh fuzz/run 1
	assert_failure 1
	assert_output "fuzz sniff: 500 runs in 1s, no finding
fuzz decl: 400 runs in 1s, no finding
fuzz mt: FAILED, see fuzz/mt.log
==1==ERROR: AddressSanitizer: heap-buffer-overflow in mt
fuzz validate: 800 runs in 1s, no finding
fuzz transcode: 900 runs in 1s, no finding
fuzz api: 300 runs in 1s, no finding
fuzz diff: 400 runs in 1s, no finding"
	# A target that is missing fails too.
	rm fuzz/api-fuzz
	FUZZ_JOBS=2 run sh fuzz/run 1
	assert_failure 1
	assert_line "fuzz api: FAILED, see fuzz/api.log"
}

@test "fuzz/run: the differential target not built is skipped, saying so, in its place" {
	rm fuzz/diff-fuzz
	for jobs in 1 2 4; do
		FUZZ_JOBS=$jobs run sh fuzz/run 1
		assert_success
		assert_equal "${#lines[@]}" 7
		assert_line --index 5 "fuzz api: 300 runs in 1s, no finding"
		assert_line --index 6 "fuzz diff: skipped, not built (needs libxml2-dev and libexpat1-dev)"
	done
	run grep -c diff fuzz/events
	assert_output 0
}

@test "fuzz/run: FUZZ_JOBS that is not a number of 1 or more is refused, nothing run" {
	for bad in 0 two -1 2x ' '; do
		FUZZ_JOBS=$bad run --separate-stderr sh fuzz/run 1
		assert_failure 2
		assert_output ""
		assert_equal "$stderr" "fuzz/run: FUZZ_JOBS must be a number of 1 or more, not '$bad'"
		[ ! -e fuzz/events ]
	done
}

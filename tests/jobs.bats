#!/usr/bin/env bats
# -j N / --jobs=N: the inputs analysed by N processes at once, with the
# output (standard output, standard error, their order when they share a
# file) and the exit status of -j1, byte for byte; the modes that stay in
# one process; the default; a worker that dies.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export HOME="$BATS_TEST_TMPDIR/home" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/home"
	export GIT_CONFIG_NOSYSTEM=1
	mkdir -p home
}

# The tree of tree(), made once for the file's tests.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	make_tree
}

# make_tree: in t/, 320 good files, and beside them bad UTF-8, a
# declaration the BOM contradicts, UTF-16 with its BOM, a UTF-8 BOM (a
# warning), a Latin-1 byte in a file without a declaration (--all:
# several), and names with a newline, a space and a byte that is not
# UTF-8.
make_tree() {
	mkdir -p t/ok t/bad "t/odd dir"
	awk 'BEGIN {
		for (i = 1; i <= 320; i++) {
			f = sprintf("t/ok/f%03d.xml", i)
			printf "<?xml version=\"1.0\"?>\n<a>%03d</a>\n", i > f
			close(f)
		}
	}'
	printf '<a>\303</a>' > t/bad/badutf8.xml
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-8"?><a/>'; } \
	    > t/bad/mismatch.xml
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0"?><a>\303\251</a>'; } \
	    > t/bad/utf16.xml
	printf '\357\273\277<a/>' > t/bad/bom.xml
	printf '<a>\351\n\351\n\351</a>' > t/bad/latin1.xml
	printf '<a/>' > "t/odd dir/new
line.xml"
	printf '<a/>' > "t/odd dir/sp ace.xml"
	printf '<a>\377</a>' > "t/odd dir/$(printf '\377').xml"
}

# tree: the tree of make_tree in t/, as hard links to the file's one
# (making 328 files a test cost more than the test; none writes into
# them, and what a test adds to t/ is its own).
tree() {
	cp -al "$BATS_FILE_TMPDIR/t" t
}

# same ARGS...: xmlsniff ARGS with -j1 and with -j2, -j3 and -j8 print the
# same bytes on standard output and standard error and exit alike, with
# the two streams apart and in one file.  The sixteen files are compared
# by one md5sum (twelve runs of cmp cost more than the eight of xmlsniff,
# doc/TESTING.md); cmp says where a pair differs when its sums do.
same() {
	local n rc k f sum
	local -A md5
	"$XMLSNIFF" -j1 "$@" > out.1 2> err.1 < /dev/null && rc=0 || rc=$?
	echo "$rc" > rc.1
	"$XMLSNIFF" -j1 "$@" > both.1 2>&1 < /dev/null || true
	for n in 2 3 8; do
		"$XMLSNIFF" -j$n "$@" > out.$n 2> err.$n < /dev/null && rc=0 ||
		    rc=$?
		echo "$rc" > rc.$n
		"$XMLSNIFF" --jobs=$n "$@" > both.$n 2>&1 < /dev/null || true
	done
	while read -r sum f; do
		md5[$f]=$sum
	done <<< "$(md5sum {out,err,rc,both}.{1,2,3,8})"
	[ "${#md5[@]}" -eq 16 ] || fail "md5sum: ${#md5[@]} sums, not 16"
	for n in 2 3 8; do
		for k in out err rc both; do
			[ "${md5[$k.$n]}" = "${md5[$k.1]}" ] && continue
			cmp "$k.1" "$k.$n" || true
			case $k in
			out)	fail "-j$n $*: standard output differs" ;;
			err)	fail "-j$n $*: standard error differs" ;;
			rc)	fail "-j$n $*: exit status $(cat rc.$n), not $(cat rc.1)" ;;
			both)	fail "-j$n $*: 2>&1 differs" ;;
			esac
		done
	done
}

# held_runs ARGS...: xmlsniff -jN ARGS for N of 1, 2 and 3, where ARGS
# name held, a FIFO made here: it is read only when a writer comes, so
# its worker waits while the others analyse what follows, and their
# records wait for it.  Each run must still be going 0.3 s on; then held
# gets a bad UTF-8 byte.  Output in out.N, err.N, the status in rc.N.
held_runs() {
	local n pid
	mkfifo held
	for n in 1 2 3; do
		"$XMLSNIFF" -j$n "$@" > out.$n 2> err.$n &
		pid=$!
		sleep 0.3
		kill -0 "$pid" || fail "-j$n ended before held was written"
		printf '<a>\303</a>' > held
		wait "$pid" && echo 0 > rc.$n || echo $? > rc.$n
	done
}

# same_as_j1 N...: out.N, err.N and rc.N are out.1's, err.1's and rc.1's.
same_as_j1() {
	local n
	for n in "$@"; do
		cmp out.1 out.$n || fail "-j$n: standard output differs"
		cmp err.1 err.$n || fail "-j$n: standard error differs"
		cmp rc.1 rc.$n || fail "-j$n: exit status $(cat rc.$n)"
	done
}

@test "-j: every format prints what -j1 prints, in the same order" {
	tree
	for f in text json sarif github gitlab checkstyle; do
		same -r --format=$f t
	done
	[ "$(wc -l < out.1)" -eq 20 ] || [ "$(cat rc.1)" -eq 0 ]
	run grep -c 'xmlsniff.decl-mismatch' out.1
	assert_output 1
}

@test "-j: text output and diagnostics are those of -j1, exit 0" {
	tree
	same -r t
	assert_equal "$(cat rc.1)" 0
	assert_equal "$(wc -l < out.1)" 328
	run grep -c ': error: ' err.1
	assert_output 4
	run grep -F 't/bad/bom.xml:1:1: warning: ' err.1
	assert_success
}

@test "-j: -q, --strict, --all, --max-errors, -i, --mime-encoding, -b, --excerpt, --json -q" {
	tree
	same -r -q t
	assert_equal "$(cat out.1)" ''
	same -r --strict t
	assert_equal "$(cat rc.1)" 1
	same -r --all t
	same -r --max-errors=2 --json t
	same -r -i t
	same -r --mime-encoding t
	same -r -b t
	same -r --excerpt=always t
	same -r --json -q t
	same -r --format=sarif --strict --all t
	same -r --format=gitlab -q t
	same -r --format=checkstyle --all t
}

@test "-j: a worker opens each file in its directory: names with no directory, deep, odd, absolute" {
	tree
	mkdir -p t/a/b/c
	printf '<a>\303</a>' > t/a/b/c/deep.xml
	printf '<a/>' > t/a/b/c/ok.xml
	printf '<a/>' > t/top.xml
	same -r t
	run grep -c -e '^t/a/b/c/deep.xml:' -e '^t/top.xml:' \
	    -e '^t/odd dir/sp ace.xml:' -e '^t/ok/f320.xml:' out.1 err.1
	assert_output "out.1:4
err.1:1"
	same -r "$PWD/t"
	grep -q "^$PWD/t/top.xml: " out.1 || fail "$(head -n 1 out.1)"
	same -r ./t//
	grep -q '^\./t//a/b/c/ok.xml: ' out.1 || fail "$(head -n 1 out.1)"
	cd t
	same -r
	grep -q '^top.xml: ' out.1 || fail "$(tail -n 1 out.1)"
	same -r .
	grep -q '^\./ok/f001.xml: ' out.1 || fail "$(tail -n 1 out.1)"
}

@test "-j: --allow-encoding and --browser messages keep their place" {
	tree
	same -r --allow-encoding=UTF-8 t
	same -r --browser --json t
}

@test "-j: --list-files and -0 list what -j1 lists" {
	tree
	same -r --list-files t
	same -r --list-files -0 t
	assert_equal "$(tr -cd '\0' < out.1 | wc -c)" 328
}

@test "-j: operands: a missing file, a directory without -r, standard input, in their places" {
	tree
	same t/ok/f001.xml missing.xml t t/bad/badutf8.xml t/ok/f002.xml
	assert_equal "$(cat rc.1)" 2
	assert_equal "$(cat err.1)" "xmlsniff: missing.xml: No such file or directory
xmlsniff: t: is a directory (use -r to descend into it)
t/bad/badutf8.xml:1:4: error: $(sed -n 's/^t.bad.badutf8.xml:1:4: error: //p' err.1)"
	printf '<b/>' > in.xml
	"$XMLSNIFF" -j1 t/ok/f001.xml - t/bad t/ok/f002.xml < in.xml > s.1 2>&1 || true
	"$XMLSNIFF" -j2 -r t/ok/f001.xml - t/bad t/ok/f002.xml < in.xml > s.2 2>&1 || true
	"$XMLSNIFF" -j2 -r t/ok/f001.xml - t/ok/f002.xml < in.xml > s.3 2>&1 || true
	run sed -n 2p s.2
	assert_output '-: UTF-8 (default), no declaration'
	"$XMLSNIFF" -j1 -r t/ok/f001.xml - t/bad t/ok/f002.xml < in.xml > s.4 2>&1 || true
	cmp s.2 s.4
}

@test "-j: --files0-from, its bad entries and a missing name, in order" {
	tree
	{ find t -type f -print0 | sort -z; printf '\0missing.xml\0t/ok/f003.xml\0'; } > list
	same --files0-from=list
	assert_equal "$(cat rc.1)" 2
	run grep -c '^xmlsniff: list: name 329 is empty$' err.1
	assert_output 1
	same --files0-from=list --format=sarif
	same --files0-from=list --format=gitlab
	same --files0-from=list --format=checkstyle
	same --files0-from=list --json
}

@test "-j: an unreadable file and an unreadable directory, in every format" {
	[ "$(id -u)" -ne 0 ] || skip "root reads files whatever their mode"
	tree
	mkdir -p t/no t/zz
	printf '<a/>' > t/no/x.xml
	printf '<a/>' > t/zz/unreadable.xml
	chmod 000 t/no t/zz/unreadable.xml
	for f in text json sarif github gitlab checkstyle; do
		same -r --format=$f t
	done
	chmod 755 t/no
	assert_equal "$(cat rc.1)" 2
}

@test "-j: SARIF notifications and GitLab issues of unreadable inputs keep their order" {
	tree
	same --format=sarif missing1.xml t/ok/f001.xml t missing2.xml t/bad/badutf8.xml
	run grep -o '"toolExecutionNotifications":\[{"descriptor":{"id":"unreadable","index":0},"level":"error","message":{"text":"No such file or directory"}' out.1
	assert_success
	same --format=gitlab missing1.xml t/ok/f001.xml missing2.xml t/bad/badutf8.xml
	same --format=gitlab missing1.xml
	assert_equal "$(head -c 17 out.1)" $'[\n{"description":'
}

@test "-j0, -jx, --jobs= and -j-1 are usage errors (exit 2); -j300 is taken as 256" {
	put f.xml '<a/>'
	for v in 0 x '' -1 1x; do
		xs --jobs="$v" f.xml
		assert_failure 2
		assert_output ''
		assert_equal "${stderr_lines[0]}" "xmlsniff: -j: \"$v\" is not a number of processes from 1 up"
		try_help
	done
	xs -j0 f.xml
	assert_failure 2
	assert_equal "${stderr_lines[0]}" 'xmlsniff: -j: "0" is not a number of processes from 1 up'
	xs -j 300 f.xml f.xml
	assert_success
	assert_output 'f.xml: UTF-8 (default), no declaration
f.xml: UTF-8 (default), no declaration'
	assert_equal "$stderr" ''
}

@test "-j: by default, more than one input runs in workers; one input runs alone" {
	[ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ] || skip "one processor online"
	tree
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -r t > out 2>&1 || true
	[ "$(sort -u pids | wc -l)" -ge 2 ] || fail "no workers: $(cat pids)"
	rm -f pids
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" t/ok/f001.xml > out
	[ ! -e pids ] || fail "a worker for one input"
	# -j1, and few inputs (fewer than a chunk): no worker either.
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j1 -r t > out 2>&1 || true
	[ ! -e pids ] || fail "a worker with -j1"
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j4 -r t/bad > out 2>&1 || true
	[ ! -e pids ] || fail "a worker for five inputs"
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j3 -r t > out 2>&1 || true
	assert_equal "$(sort -u pids | wc -l)" 3
}

@test "-j: an input that holds its worker up: the others go on, the output is -j1's" {
	tree
	held_runs --strict --format=json -r held t
	assert_equal "$(cat rc.1)" 1
	assert_equal "$(wc -l < out.1)" 329
	head -n 1 out.1 | grep -q '"file":"held"' || fail "$(head -n 1 out.1)"
	same_as_j1 2 3
}

@test "-j: held up, while the others write more than the parent reads ahead of their turn" {
	local i
	mkdir t
	# 40 files of 5,000 errors, 1,000 each reported (--all): some 8
	# MB on standard error, past the 1 MiB the parent reads of a worker
	# ahead of its turn (jobs.c, AHEAD_BUF); that worker then waits on its
	# pipe until held is written.
	for i in $(seq -w 1 40); do
		awk 'BEGIN { printf "<a>"; for (k = 0; k < 5000; k++)
		    printf "\351x\n"; printf "</a>" }' > t/f$i.xml
	done
	held_runs --all --strict held t/*.xml
	assert_equal "$(cat rc.1)" 1
	# each file stops at --max-errors (1000 by default)
	assert_equal "$(grep -c ': error: ' err.1)" 40001
	[ "$(wc -c < err.1)" -gt 4000000 ] || fail "$(wc -c < err.1) bytes"
	same_as_j1 2 3
}

@test "-j: --fix, --in-place, --transcode-to -o and --list-files stay in one process" {
	tree
	cp -R t u
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j8 --fix --dry-run -r t > out.8 2> err.8 || true
	"$XMLSNIFF" -j1 --fix --dry-run -r t > out.1 2> err.1 || true
	cmp out.1 out.8
	cmp err.1 err.8
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j8 --transcode-to=UTF-8 --in-place -r u > out.8 2>&1 || true
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j8 --transcode-to=UTF-8 -o o.xml t/ok/f001.xml > out.8 2>&1
	XMLSNIFF_TEST_JOBS="$PWD/pids" "$XMLSNIFF" -j8 --list-files -r t > out.8 2>&1
	[ ! -e pids ] || fail "a worker in a serial mode: $(cat pids)"
}

@test "-j: a worker killed: the run says so and exits 2, never a silent short output" {
	tree
	"$XMLSNIFF" -j1 -r t > out.1 2> err.1 || true
	XMLSNIFF_TEST_JOBS_KILL=t/ok/f200.xml run_apart "$XMLSNIFF" -j2 -r t
	assert_failure 2
	[[ "${stderr_lines[-1]}" =~ ^xmlsniff:\ worker\ process\ [0-9]+\ was\ killed\ by\ signal\ 9\;\ the\ inputs\ after\ this\ point\ are\ not\ reported$ ]] ||
	    fail "last line: ${stderr_lines[-1]}"
	# What was written is the start of what -j1 writes.
	printf '%s\n' "$output" > out.2
	[ "$(wc -l < out.2)" -lt "$(wc -l < out.1)" ]
	head -n "$(wc -l < out.2)" out.1 | cmp - out.2
	XMLSNIFF_TEST_JOBS_KILL=t/ok/f200.xml run_apart "$XMLSNIFF" -j2 -r --format=sarif t
	assert_failure 2
	[[ "$output" == *'"executionSuccessful":false,"exitCode":2'* ]] || fail "$output"
}

@test "-j: standard output closed, full or a broken pipe: what -j1 says, and its exit status" {
	tree
	local n
	for n in 1 2; do
		"$XMLSNIFF" -j$n -r t >&- 2> closed.$n && echo 0 >> closed.$n ||
		    echo $? >> closed.$n
		if [ -w /dev/full ]; then
			"$XMLSNIFF" -j$n -r t > /dev/full 2> full.$n &&
			    echo 0 >> full.$n || echo $? >> full.$n
		else
			: > full.$n
		fi
		# More than a pipe holds, so that a write fails whatever the
		# timing.
		(trap '' PIPE; "$XMLSNIFF" -j$n -r --json t t t t 2> pipe.$n |
		    head -c 1 > /dev/null; echo "${PIPESTATUS[0]}" >> pipe.$n)
	done
	cmp closed.1 closed.2
	cmp full.1 full.2
	cmp pipe.1 pipe.2
	assert_equal "$(tail -2 closed.1)" 'xmlsniff: write error: standard output is closed
2'
	assert_equal "$(cat pipe.1)" 'xmlsniff: write error: Broken pipe
2'
}

# Shared setup for the bats suites: the binary under test and bats-assert.
# XMLSNIFF may name another binary (an installed one, a sanitizer build).

# load_libs: bats-support and bats-assert.  Their load.bash files source
# a dozen files each through $(dirname ...), a process apiece for every
# test; the files they name are put together once a run into one file in
# BATS_RUN_TMPDIR (renamed into place: tests run side by side), which
# each test then sources alone.
#
# The same file leaves them and this file out of bats' trace.  bats runs a
# trap before every command of a test, which records the stack for the
# report of a failure and costs a millisecond or so a command: the lines
# of bats-assert and of this file were most of the suite's time.  bats
# leaves its own files out of the trace, and bats-assert's when it prints
# one (--trace); these folders are added where bats adds its own, by
# bats_setup_tracing.  A failure inside them is then reported at the
# test's line that called them, and their messages say what failed.  A
# bats without that function traces everything, as before.
load_libs() {
	local d lib f libs=$BATS_RUN_TMPDIR/bats-libs/libs.bash
	if [ ! -f "$libs" ]; then
		mkdir -p "${libs%/*}" || return 1
		{
			for lib in bats-support bats-assert; do
				for d in /usr/lib/bats /usr/local/lib/bats \
				    /usr/share/bats; do
					[ -f "$d/$lib/load.bash" ] && break
				done
				if [ ! -f "$d/$lib/load.bash" ]; then
					echo "bats library $lib not found (apt-get install bats-support bats-assert)" >&2
					return 1
				fi
				sed -n 's|^source "$(dirname "${BASH_SOURCE\[0\]}")/\(.*\)"$|\1|p' \
				    "$d/$lib/load.bash" | while read -r f; do
					cat "$d/$lib/$f"
				done
			done
			if declare -F bats_setup_tracing > /dev/null &&
			    declare -F bats_add_debug_exclude_path > /dev/null
			then
				printf 'xs_'
				declare -f bats_setup_tracing
				cat <<-'EOF'
				bats_setup_tracing() {
					xs_bats_setup_tracing
					bats_add_debug_exclude_path "$BATS_RUN_TMPDIR/bats-libs"
					bats_add_debug_exclude_path "$BATS_TEST_DIRNAME"
				}
				EOF
			fi
		} > "$libs.$$" && mv -f "$libs.$$" "$libs" || return 1
	fi
	source "$libs"
}

bats_require_minimum_version 1.5.0
load_libs

# bats 1.8 reads the clock for every test (its start, and its end with
# --timing) through get_mills_since_epoch, which runs date(1): a fork and
# a program a test, a tenth of an empty test's cost where processes are
# dear (run_apart).  Where bash has EPOCHREALTIME (5.0 and later) the same
# milliseconds come from it; a bats without the function is left alone.
if [ -n "${EPOCHREALTIME:-}" ] &&
    declare -F get_mills_since_epoch > /dev/null; then
	get_mills_since_epoch() {
		local t=${EPOCHREALTIME//[!0-9]/}
		printf '%d\n' "$((t / 1000))"
	}
fi

# bats gives the test file's folder as an absolute path, with no "..".
TOP=${BATS_TEST_DIRNAME%/*}
XMLSNIFF="${XMLSNIFF:-$TOP/xmlsniff}"
export LC_ALL=C

# XMLSNIFF_WRAP runs every call under a tool, e.g.
# XMLSNIFF_WRAP='valgrind -q --error-exitcode=99 --leak-check=full'.
if [ -n "${XMLSNIFF_WRAP:-}" ]; then
	wrapped="$BATS_RUN_TMPDIR/xmlsniff-wrapped"
	if [ ! -x "$wrapped" ]; then
		# The tool by its full path, so that tests that run the
		# binary with another PATH still find it.
		tool=${XMLSNIFF_WRAP%% *}
		printf '#!/bin/sh\nexec %s%s "%s" "$@"\n' \
		    "$(command -v "$tool" || echo "$tool")" \
		    "${XMLSNIFF_WRAP#"$tool"}" "$XMLSNIFF" > "$wrapped.$$"
		# Tests run in parallel (bats --jobs): each writes its own
		# copy and renames it, so that none runs a half-written one.
		chmod +x "$wrapped.$$" && mv -f "$wrapped.$$" "$wrapped"
	fi
	XMLSNIFF=$wrapped
fi

# vm_floor ARGS...: set floor to the smallest address-space limit (KiB,
# to 64 KiB) under which xmlsniff ARGS succeeds; skip where the binary
# does not run under ulimit -v at all (a sanitizer build) or runs under a
# tool.
vm_floor() {
	local lo=1024 hi=262144 mid
	[ -z "${XMLSNIFF_WRAP:-}" ] || skip "ulimit -v would limit the tool"
	bash -c 'ulimit -v "$1" && shift && exec "$0" "$@"' \
	    "$XMLSNIFF" "$hi" "$@" > /dev/null 2>&1 ||
	    skip "the binary does not run under ulimit -v $hi"
	while [ $((hi - lo)) -gt 64 ]; do
		mid=$(((lo + hi) / 2))
		if bash -c 'ulimit -v "$1" && shift && exec "$0" "$@"' \
		    "$XMLSNIFF" "$mid" "$@" > /dev/null 2>&1; then
			hi=$mid
		else
			lo=$mid
		fi
	done
	floor=$hi
}

# huge WHAT: skip a test whose input is huge (WHAT says how) when every call
# runs under a tool (XMLSNIFF_WRAP: valgrind, an emulator), where it would
# take many minutes; everywhere else it runs.
huge() {
	[ -z "${XMLSNIFF_WRAP:-}" ] || skip "$1: too slow under XMLSNIFF_WRAP"
}

# run_apart CMD ARGS...: what bats' "run --separate-stderr CMD ARGS..."
# gives ($output and $lines, $stderr and $stderr_lines, $status, set the
# same way), in fewer processes: the command substitution's shell runs
# CMD itself (by exec when CMD is a path: a shell would fork once more to
# redirect), its standard error into a file of the test's.  bats' run
# makes that file with mktemp(1) and calls CMD through a function of its
# own: three forks and two programs a call, where this takes one fork and
# CMD.  On the machines the budgets are for a process costs milliseconds,
# and two side by side cost more than twice one (doc/TESTING.md): the
# processes a test starts are its time.
run_apart() {
	local err=${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/.run-apart-stderr
	case $1 in
	*/*)	output=$(exec "$@" 2> "$err") && status=0 || status=$? ;;
	*)	output=$("$@" 2> "$err") && status=0 || status=$? ;;
	esac
	IFS=$'\n' read -d '' -r -a lines <<< "$output" || true
	read -d '' -r stderr < "$err" || true
	IFS=$'\n' read -d '' -r -a stderr_lines <<< "$stderr" || true
}

# xs ARGS...: run xmlsniff, keeping stdout and stderr apart
# ($output/$stderr, $status).  The --json records it prints are kept for
# teardown_suite (tests/setup_suite.bash), which checks them against the
# schema.
xs() {
	unset JSON_KEPT
	run_apart "$XMLSNIFF" "$@"
	json_keep "$@"
}

# json_keep ARGS...: with --json or --format=json among ARGS (and no
# option that prints something else), keep each line of $output, after
# the test's name, for teardown_suite: in a file of the test's own (tests
# may run side by side).  The name goes before every line at once, not by
# a loop over them (bats traps every command: 10 000 lines would cost
# seconds).
json_keep() {
	local a json=0 other=0 t nl=$'\n'
	for a in "$@"; do
		case $a in
		--json|--format=json) json=1 ;;
		-i|--mime|--mime-encoding|--format=*) json=0 ;;
		--list-files|--help|-h|--version|--list-codes|--explain=*)
			other=1 ;;
		--) break ;;
		esac
	done
	[ "$json" = 1 ] && [ "$other" = 0 ] && [ -n "$output" ] || return 0
	t=$BATS_TEST_DESCRIPTION$'\t'
	[ -d "$BATS_RUN_TMPDIR/json-records" ] ||
	    mkdir -p "$BATS_RUN_TMPDIR/json-records"
	printf '%s\n' "$t${output//"$nl"/"$nl$t"}" \
	    >> "$BATS_RUN_TMPDIR/json-records/${BATS_TEST_FILENAME##*/}.$BATS_SUITE_TEST_NUMBER"
	JSON_KEPT=$output
}

# json_ok: every line of $output parses as JSON.  Lines that xs has just
# kept are parsed by teardown_suite's python3, with every record of the
# run (and checked against the schema where python3-jsonschema is), which
# fails naming the test: a python3 of its own cost a test more than the
# rest of it.  Other output is parsed here.
json_ok() {
	[ "${JSON_KEPT+set}" = set ] && [ "$JSON_KEPT" = "$output" ] &&
	    return 0
	command -v python3 > /dev/null || return 0
	printf '%s\n' "$output" | python3 -m json.tool --json-lines > /dev/null
}

# xs_each FILE...: xs --json over the FILEs at once; RECORDS[k] is the
# record of the k-th (checked by its "file" member; names that JSON would
# escape are not for this), and a test that needs every record has them.
xs_each() {
	local f k=0
	xs --json "$@"
	RECORDS=("${lines[@]}")
	[ "${#RECORDS[@]}" -eq $# ] ||
	    fail "$# files, ${#RECORDS[@]} records: $output"
	for f in "$@"; do
		[[ ${RECORDS[k]} == "{\"file\":\"$f\","* ]] ||
		    fail "record $k is not that of $f: ${RECORDS[k]}"
		k=$((k + 1))
	done
}

# rep N FORMAT: FORMAT (printf escapes; a %d in it is the repeat's number,
# from 1) N times, by one awk: bats traps every command of a test, so a
# shell loop of thousands of printf costs seconds where this costs none.
rep() {
	awk -v n="$1" -v f="$2" 'BEGIN { for (i = 1; i <= n; i++) printf f, i }'
}

# bytes HEX: write the bytes spelt by HEX (no spaces; may be empty).
bytes() {
	local h=$1 f=
	while [ -n "$h" ]; do
		f+="\\x${h:0:2}"
		h=${h:2}
	done
	printf "$f"
}

# same_bytes GOT WANT: the two files are byte-identical (shown in hex
# when they are not).
same_bytes() {
	cmp -s "$1" "$2" || assert_equal "$(hexof "$1")" "$(hexof "$2")"
}

# hexof FILE: the bytes of FILE as lower-case hex, no spaces (one od; the
# shell takes out the blanks: a process costs milliseconds, doc/TESTING.md).
hexof() {
	local h
	h=$(od -An -v -tx1 "$1") || return
	h=${h//[$' \n']/}
	printf '%s' "$h"
}

# fmt_of: the bytes of standard input as a format for printf (every byte
# as an octal escape), which a test's setup writes with no process at all.
fmt_of() {
	local f
	f=$(od -An -v -to1) || return
	f=${f//$'\n'/}
	printf '%s' "${f// /\\}"
}

# put FILE FORMAT: write the bytes that printf makes of FORMAT into FILE.
put() {
	printf "$2" > "$1"
}

# enc ENCODING FORMAT [ARG...]: what printf makes of FORMAT and ARGs (UTF-8)
# in ENCODING.  Literal text that may hold % or \ goes in as an ARG of '%s'.
# The text goes through a file of the run's, not a pipe: one process, not
# two.  The name is the shell's own, so that shells side by side never
# share it, and it is taken before the fork: $BASHPID in iconv's
# redirection would be iconv's own.
enc() {
	local f=${BATS_RUN_TMPDIR:-${TMPDIR:-/tmp}}/enc.$BASHPID
	printf "$2" "${@:3}" > "$f" && iconv -f UTF-8 -t "$1" < "$f"
}

# scratch_samples: work in the test's scratch directory (short names in
# the output), with plain.xml (UTF-8, no declaration) and latin1.xml
# (ISO-8859-1, declared) in it.
scratch_samples() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf '<a/>' > plain.xml
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>' \
	    > latin1.xml
}

# stderr_has TEXT / stderr_lacks TEXT: standard error of the last run
# (with --separate-stderr) contains TEXT / does not.
stderr_has() {
	[[ "$stderr" == *"$1"* ]] || fail "stderr lacks: $1
stderr: $stderr"
}

# xml_files DIR FIRST STEP LAST: the files DIR/fFIRST.xml, ... (every STEP
# up to LAST), each "<a/>": many small XML files, written by one awk (an
# empty file is not XML: not-xml).
xml_files() {
	mkdir -p "$1" &&
	awk 'BEGIN {
		for (i = ARGV[2]; i <= ARGV[4]; i += ARGV[3]) {
			f = ARGV[1] "/f" i ".xml"
			printf "<a/>" > f
			close(f)
		}
	}' "$@"
}

# xml_links DIR FIRST STEP LAST: the same files, for tests that only read
# them, as hard links to the files of one folder that the first test to
# ask makes for the whole run (f0.xml to f2999.xml, then every other one
# up to f9998.xml: what the tests ask for).  Making a file costs a
# journalling file system fifty times what a link costs, and the tests of
# thousands of inputs asked for 26 000 of them.  The folder is made
# apart, then renamed into place: a test beside this one (bats --jobs)
# sees all of it or none.
xml_links() {
	local all=$BATS_RUN_TMPDIR/xml-files tmp
	if [ ! -d "$all" ]; then
		tmp=$(mktemp -d "$all.XXXXXX") &&
		    awk 'BEGIN {
			for (i = 0; i < 10000; i += i < 3000 ? 1 : 2) {
				f = ARGV[1] "/f" i ".xml"
				printf "<a/>" > f
				close(f)
			}
		    }' "$tmp" || return 1
		mv -T "$tmp" "$all" 2> /dev/null || rm -rf "$tmp"
	fi
	mkdir -p "$1" &&
	    seq -f "$all/f%g.xml" "$2" "$3" "$4" | xargs ln -t "$1"
}

# try_help: standard error of the last run is a usage error: its one line
# of message, then the line that points at --help (not the usage block).
try_help() {
	[ "${#stderr_lines[@]}" -eq 2 ] &&
	    [ "${stderr_lines[1]}" = "Try 'xmlsniff --help' for more information." ] ||
	    fail "not one line and the pointer at --help: $stderr"
}

stderr_lacks() {
	[[ "$stderr" != *"$1"* ]] || fail "stderr has: $1
stderr: $stderr"
}

# has_iconv NAME [to]: whether the binary under test can read entities in
# encoding NAME (with "to": also write NAME, for --transcode-to).  The C
# libraries' iconv differ: musl has no EBCDIC code page and no UTF-7, and
# writes few of the CJK encodings it reads.  The answer comes from the
# binary itself and is kept for the rest of the run.
has_iconv() {
	local name=$1 dir=${2:-from} memo probe answer
	memo=$BATS_RUN_TMPDIR/iconv-$dir-${name//[!A-Za-z0-9_.-]/_}
	if [ ! -f "$memo" ]; then
		probe=$(mktemp "$BATS_RUN_TMPDIR/iconv-probe.XXXXXX")
		printf '<a/>' > "$probe"
		if [ "$dir" = to ]; then
			"$XMLSNIFF" --transcode-to="$name" "$probe" 2>&1 \
			    >/dev/null
		else
			"$XMLSNIFF" --content-type \
			    "application/xml; charset=$name" "$probe" 2>&1
		fi | grep -q -e 'unsupported-encoding' \
		    -e "this system's iconv" && echo no > "$memo.$$" ||
		    echo yes > "$memo.$$"
		# Renamed into place: a test running beside this one (bats
		# --jobs) reads the whole answer or asks itself.
		mv -f "$memo.$$" "$memo"
		rm -f "$probe"
	fi
	read -r answer < "$memo"
	[ "$answer" = yes ]
}

# need_iconv NAME [to]: skip the test, saying why, unless has_iconv.
need_iconv() {
	has_iconv "$@" && return
	if [ "${2:-}" = to ]; then
		skip "this system's iconv cannot write $1"
	fi
	skip "this system's iconv lacks $1"
}

# need_rejects NAME BYTES: skip unless the binary under test finds BYTES
# (printf escapes) illegal in NAME.  Which sequences a decoder accepts is
# its C library's own verdict: musl's Shift_JIS takes 81 20 for U+301C.
need_rejects() {
	local f=$BATS_TEST_TMPDIR/rejects.xml
	printf '<?xml version="1.0" encoding="%s"?><a>'"$2"'</a>' "$1" > "$f"
	"$XMLSNIFF" "$f" 2>&1 | grep -q '\[illegal-sequence\]' ||
	    skip "this system's iconv's $1 accepts $(printf "$2" |
	    od -An -tx1 | tr 'a-f' 'A-F' | sed 's/^ //')"
}

# need_same_bytes NAME: skip unless the binary under test writes NAME (a
# Japanese sample) with the bytes iconv(1) writes here.  musl's
# ISO-2022-JP goes back to ASCII after every character: valid, but not
# the bytes of glibc's, which the tests compare with.
need_same_bytes() {
	local d=$BATS_TEST_TMPDIR/same-bytes
	mkdir -p "$d" || return
	printf '<?xml version="1.0" encoding="%s"?>\n<a>ab\346\227\245\346\234\254 c</a>\n' \
	    "$1" > "$d/src"
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>ab\346\227\245\346\234\254 c</a>\n' \
	    > "$d/in.xml"
	iconv -f UTF-8 -t "$1" < "$d/src" > "$d/want" 2>/dev/null ||
	    return 0
	"$XMLSNIFF" --transcode-to="$1" -o "$d/out" "$d/in.xml" \
	    >/dev/null 2>&1
	cmp -s "$d/out" "$d/want" || skip "this system's iconv writes $1 with \
other shift sequences than iconv(1) here"
}

# skip_lacking " NAME..." [to]: at the end of a test that ran what it could,
# skip naming the encodings this iconv lacks (cannot write, with "to");
# with none, nothing happens.
skip_lacking() {
	[ -z "$1" ] && return
	if [ "${2:-}" = to ]; then
		skip "this system's iconv cannot write${1}"
	fi
	skip "this system's iconv lacks${1}"
}

# errtext ENAME: the C library's strerror text for errno ENAME (EIO,
# ELOOP, ...), as the binary under test words it: from XMLSNIFF_STRERROR
# (tests/cross builds it with the binary), else tests/strerror (make
# check), else tests/strerror.c compiled now with the native compiler.
errtext() {
	local prog=${XMLSNIFF_STRERROR:-$TOP/tests/strerror}
	if [ ! -x "$prog" ]; then
		prog=$BATS_RUN_TMPDIR/strerror
		[ -x "$prog" ] || { "${CC:-cc}" -o "$prog.$$" \
		    "$TOP/tests/strerror.c" && mv -f "$prog.$$" "$prog"; } ||
		    fail "cannot build tests/strerror.c"
	fi
	"$prog" "$1"
}

#!/usr/bin/env bats
# libxmlsniff as its users get it (issue 24): make install's files and
# xmlsniff.pc, the shared library's SONAME, exports and imports, the
# header alone in C99 and C++, and programs built against the INSTALLED
# copy with pkg-config (shared, and static) whose records are the
# command line's; the manual page's example; many threads at once.
load helper

# The file's two installs, made once: DESTDIR below PREFIX /opt/xs with
# its own LIBDIR, INCLUDEDIR and MANDIR (the layout tests), and a plain
# PREFIX with no DESTDIR (what pkg-config finds as it is).
setup_file() {
	VERSION=$(make -s --no-print-directory -C "$TOP" print-version)
	export VERSION
	ROOT=$BATS_FILE_TMPDIR/root
	P=$BATS_FILE_TMPDIR/prefix
	export ROOT P
	make -s --no-print-directory -C "$TOP" install PREFIX="$P" \
	    BASHCOMPDIR="$P/bash" FISHCOMPDIR="$P/fish" \
	    > "$BATS_FILE_TMPDIR/install.out" 2>&1 &&
	    touch "$BATS_FILE_TMPDIR/installed"
	# A library built with a sanitizer (make sanitize, .ci/run) needs
	# its runtime in every program linked with it: asked of the
	# installed archive once, not by every test.
	local undef
	undef=$(nm "$P/lib/libxmlsniff.a" 2>/dev/null | grep ' U __[at]san_') || :
	SAN=
	case $undef in
	*' U __asan_'*)	SAN="-fsanitize=address,undefined" ;;
	*' U __tsan_'*)	SAN="-fsanitize=thread" ;;
	esac
	export SAN
}

setup() {
	[ -f "$BATS_FILE_TMPDIR/installed" ] ||
	    fail "make install failed: $(cat "$BATS_FILE_TMPDIR/install.out")"
	cd "$BATS_TEST_TMPDIR" || return 1
	export PKG_CONFIG_LIBDIR=$P/lib/pkgconfig
	unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
	CC=${CC:-cc}
}

# runp PROG ARGS...: run a program built here (under XMLSNIFF_WRAP's
# tool when there is one), stdout and stderr apart.
runp() {
	# shellcheck disable=SC2086
	run_apart ${XMLSNIFF_WRAP:-} "$@"
}

# build OUT SRC [pkg-config option]: compile SRC with the installed
# library's flags from pkg-config.
build() {
	local flags
	flags=$(pkg-config ${3:-} --cflags --libs xmlsniff) ||
	    fail "pkg-config ${3:-} --cflags --libs xmlsniff failed"
	# shellcheck disable=SC2086
	"$CC" -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $SAN \
	    -o "$1" "$2" $flags || fail "cannot build $2 with: $flags"
}

# the functions the header declares, one a line, sorted (comments gone).
header_functions() {
	"$CC" -fpreprocessed -dD -E -P "$1" 2>/dev/null |
	    grep -o '\bxmlsniff_[a-z0-9_]*(' | tr -d '(' |
	    grep -v '_fn$' | sort -u
}

# nojson FILE...: the command line's --json records less "file", as the
# library gives them.
cli_records() {
	"$XMLSNIFF" --json "$@" | sed 's/^{"file":"[^"]*",/{/'
}

# bats test_tags=slow
@test "library: make install puts each file where PREFIX, LIBDIR, INCLUDEDIR and MANDIR say; make uninstall takes back each and nothing else" {
	local args="DESTDIR=$ROOT PREFIX=/opt/xs LIBDIR=/opt/xs/lib64
	    INCLUDEDIR=/opt/xs/inc MANDIR=/opt/xs/man DOCDIR=/opt/xs/doc
	    BASHCOMPDIR=/opt/xs/bc ZSHCOMPDIR=/opt/xs/zc FISHCOMPDIR=/opt/xs/fc"
	# Someone else's files in the same folders stay.
	mkdir -p "$ROOT/opt/xs/lib64/pkgconfig" "$ROOT/opt/xs/inc"
	printf 'x' > "$ROOT/opt/xs/lib64/libother.so.3"
	printf 'x' > "$ROOT/opt/xs/lib64/pkgconfig/other.pc"
	printf 'x' > "$ROOT/opt/xs/inc/other.h"
	(cd "$ROOT" && find . ! -type d | sort) > before
	# shellcheck disable=SC2086
	run make -s --no-print-directory -C "$TOP" install $args
	assert_success
	(cd "$ROOT" && find . ! -type d | sort) > after
	run comm -13 before after
	assert_output "./opt/xs/bc/xmlsniff
./opt/xs/bin/xmlsniff
./opt/xs/doc/FORMATS.md
./opt/xs/doc/GUIDE.md
./opt/xs/doc/xmlsniff-record.schema.json
./opt/xs/fc/xmlsniff.fish
./opt/xs/inc/xmlsniff.h
./opt/xs/lib64/libxmlsniff.a
./opt/xs/lib64/libxmlsniff.so
./opt/xs/lib64/libxmlsniff.so.1
./opt/xs/lib64/pkgconfig/xmlsniff.pc
./opt/xs/man/man1/xmlsniff.1
./opt/xs/man/man3/xmlsniff.3
./opt/xs/man/man5/xmlsniffrc.5
./opt/xs/zc/_xmlsniff"
	# The modes, and the link the linker finds, to the file programs load.
	run stat -c '%A %n' "$ROOT/opt/xs/lib64/libxmlsniff.a" \
	    "$ROOT/opt/xs/lib64/libxmlsniff.so.1" "$ROOT/opt/xs/inc/xmlsniff.h" \
	    "$ROOT/opt/xs/lib64/pkgconfig/xmlsniff.pc" \
	    "$ROOT/opt/xs/man/man3/xmlsniff.3"
	assert_output "-rw-r--r-- $ROOT/opt/xs/lib64/libxmlsniff.a
-rwxr-xr-x $ROOT/opt/xs/lib64/libxmlsniff.so.1
-rw-r--r-- $ROOT/opt/xs/inc/xmlsniff.h
-rw-r--r-- $ROOT/opt/xs/lib64/pkgconfig/xmlsniff.pc
-rw-r--r-- $ROOT/opt/xs/man/man3/xmlsniff.3"
	[ -L "$ROOT/opt/xs/lib64/libxmlsniff.so" ]
	run readlink "$ROOT/opt/xs/lib64/libxmlsniff.so"
	assert_output libxmlsniff.so.1
	cmp "$TOP/src/lib/xmlsniff.h" "$ROOT/opt/xs/inc/xmlsniff.h"
	run grep '^\.Os' "$ROOT/opt/xs/man/man3/xmlsniff.3"
	assert_output ".Os xmlsniff $VERSION"
	# Installing again over the first changes nothing of the list.
	# shellcheck disable=SC2086
	run make -s --no-print-directory -C "$TOP" install $args
	assert_success
	# shellcheck disable=SC2086
	run make -s --no-print-directory -C "$TOP" uninstall $args
	assert_success
	run sh -c 'cd "$1" && find . ! -type d | sort' sh "$ROOT"
	assert_output "$(cat before)"
}

# bats test_tags=slow
@test "library: xmlsniff.pc names the install's prefix, libdir and includedir, the version, and Libs.private" {
	run cat "$P/lib/pkgconfig/xmlsniff.pc"
	assert_line "prefix=$P"
	assert_line 'libdir=${prefix}/lib'
	assert_line 'includedir=${prefix}/include'
	assert_line "Version: $VERSION"
	assert_line 'Libs: -L${libdir} -lxmlsniff'
	# What the shared library was linked with.
	assert_line "Libs.private: $(cat "$TOP/libxmlsniff.libs")"
	assert_line 'Cflags: -I${includedir}'
	run pkg-config --modversion xmlsniff
	assert_output "$VERSION"
	run pkg-config --cflags --libs xmlsniff
	assert_output --regexp "^-I$P/include -L$P/lib -lxmlsniff *\$"
	# A LIBDIR outside PREFIX is written as it is.
	run make -s --no-print-directory -C "$TOP" install \
	    DESTDIR="$BATS_TEST_TMPDIR/r" PREFIX=/opt/xs LIBDIR=/usr/lib/xs \
	    BASHCOMPDIR=/b FISHCOMPDIR=/f ZSHCOMPDIR=/z DOCDIR=/d
	assert_success
	run grep '^libdir=\|^includedir=' "$BATS_TEST_TMPDIR/r/usr/lib/xs/pkgconfig/xmlsniff.pc"
	assert_output 'libdir=/usr/lib/xs
includedir=${prefix}/include'
}

# bats test_tags=slow
@test "library: the shared library's SONAME is libxmlsniff.so.1, its file's name, and it is position-independent" {
	local so=$P/lib/libxmlsniff.so.1
	run sh -c 'readelf -d "$1" | grep "(SONAME)"' sh "$so"
	assert_output --regexp '\(SONAME\) +Library soname: \[libxmlsniff\.so\.1\]$'
	run sh -c 'objdump -p "$1" | grep SONAME' sh "$so"
	assert_output --regexp '^ +SONAME +libxmlsniff\.so\.1$'
	run make -s --no-print-directory -C "$TOP" print-soname
	assert_output libxmlsniff.so.1
	# No relocation of the text: the objects were built with -fPIC.
	run sh -c 'readelf -d "$1" | grep TEXTREL' sh "$so"
	assert_output ""
}

# bats test_tags=slow
@test "library: the shared library exports the header's functions, each in version node XMLSNIFF_1, and nothing else" {
	local so=$P/lib/libxmlsniff.so.1
	header_functions "$P/include/xmlsniff.h" > header
	[ "$(wc -l < header)" -gt 40 ] || fail "too few functions found in the header"
	# The version script's list is the header's.
	sed -n 's/^[[:space:]]*\(xmlsniff_[a-z0-9_]*\);$/\1/p' \
	    "$TOP/src/lib/libxmlsniff.map" | sort > map
	run diff header map
	assert_success
	# Every defined dynamic symbol is a function of the header, but
	# the version node's own name.
	nm -D --defined-only "$so" | awk '{ print $NF }' | sed 's/@.*//' |
	    grep -vx XMLSNIFF_1 | sort > exported
	run diff header exported
	assert_success
	run sh -c 'nm -D --defined-only "$1" | grep -c " T xmlsniff_.*@@XMLSNIFF_1$"' sh "$so"
	assert_output "$(wc -l < header)"
}

# imports FILE: the dynamic symbols the shared library needs, one a line.
imports() {
	nm -D --undefined-only "$P/lib/libxmlsniff.so.1" |
	    awk '{ print $NF }' | sed 's/@.*//' | sort -u > "$1"
	[ -s "$1" ] || fail "no imports listed"
	grep -qx iconv_open "$1" || fail "the imports lack iconv_open: $(cat "$1")"
}

# banned FILE NAME...: fail naming each NAME that FILE lists.
banned() {
	local f=$1 n bad=
	shift
	for n in "$@"; do
		grep -qx -- "$n" "$f" && bad="$bad $n"
	done
	[ -z "$bad" ] || fail "the library imports:$bad"
}

# Ending the process or the thread is the caller's decision, never a
# library's (issue 24: "it must never exit, abort or print"): exit,
# _exit, _Exit, quick_exit, abort, assert's __assert_fail, err, errx and
# their v forms, pthread_exit, raise, kill.  Printing: the library reports
# through statuses and the messages on its objects, so it imports neither
# the functions that write to standard output or error without being
# told where (printf, vprintf, puts, putchar, perror, warn, warnx and
# their v forms, glibc's error and error_at_line, psignal, psiginfo,
# syslog, vsyslog, and the _FORTIFY_SOURCE forms __printf_chk and
# __vprintf_chk) nor the streams themselves (stdin, stdout, stderr and
# glibc's objects behind them), so that a FILE function could write only
# to a stream the library opened.  What it writes to descriptors is
# checked by the next test but one.
# bats test_tags=slow
@test "library: the shared library imports nothing that exits, aborts or prints" {
	imports imports
	banned imports exit _exit _Exit quick_exit abort __assert_fail err errx \
	    verr verrx pthread_exit raise kill \
	    printf vprintf puts putchar perror warn warnx vwarn vwarnx error \
	    error_at_line psignal psiginfo syslog vsyslog __printf_chk \
	    __vprintf_chk stdin stdout stderr _IO_2_1_stdin_ _IO_2_1_stdout_ \
	    _IO_2_1_stderr_
}

# The process's settings belong to the program the library is part of (a
# Python interpreter, a server, which set their own): signal dispositions
# (signal, bsd_signal, sigset, sigignore: sigaction is there for the
# option "mmap" alone, which the next test but one checks), the locale
# (setlocale), the environment (setenv, putenv, unsetenv, clearenv), the
# working folder and the file mode mask (chdir, fchdir, umask), and what
# runs at exit (atexit, on_exit).
# bats test_tags=slow
@test "library: the shared library imports nothing that changes the process's signal dispositions, locale, environment, folder or exit" {
	imports imports
	banned imports signal bsd_signal sigset sigignore setlocale setenv \
	    putenv unsetenv clearenv chdir fchdir umask atexit on_exit
}

# Options and results are shared between threads (xmlsniff(3), Threads):
# no function that POSIX (XSH 2.9.1) allows to be unsafe in threads where
# a safe one exists: strtok (strtok_r), strerror (strerror_r), localtime,
# gmtime, ctime, asctime (their _r forms), rand, srand, random, srandom
# (a state of one's own), mblen, mbtowc, wctomb (mbrlen, mbrtowc,
# wcrtomb), readdir (none needed), getpwnam, getpwuid, strsignal.
# bats test_tags=slow
@test "library: the shared library imports no function that POSIX lets be unsafe in threads" {
	imports imports
	banned imports strtok strerror localtime gmtime ctime asctime rand srand \
	    random srandom mblen mbtowc wctomb readdir getpwnam getpwuid \
	    strsignal
}

@test "library: a program on the library, checking and transcoding every kind of input, writes nothing to standard output or standard error" {
	command -v strace > /dev/null || skip "strace is not installed"
	build silent "$TOP/tests/silent.c"
	export LD_LIBRARY_PATH=$P/lib
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>\377\376</a>' > bad.xml
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\303\251</a>' > moj.xml
	printf '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a/>' > conflict.xml
	: > empty.xml
	{ printf 'HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Encoding: gzip\r\n\r\n'
	  printf '<a>\377</a>' | gzip -c; } > gz.http
	# LeakSanitizer cannot run under ptrace; the other tests look for
	# leaks.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    run_apart strace -f -qq -o trace \
	    -e trace=write,writev,pwrite64,pwritev,pwritev2 ./silent \
	    "$TOP"/examples/*.xml "$TOP/examples/http-response.txt" bad.xml \
	    moj.xml conflict.xml empty.xml gz.http
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run grep -E '^[0-9]+ +(write|writev|pwrite64|pwritev2?)\((1|2),' trace
	assert_output ""
}

# xmlsniff(3), option "mmap": with "yes" a big regular file is mapped, and
# the pages of a file that shrinks meanwhile are mended by a SIGBUS
# handler, installed once, the process's own kept for every other SIGBUS;
# by default, and with "no", the library maps nothing and touches no
# disposition.
@test "library: by default and with mmap no, checks by descriptor change no signal disposition; with mmap yes, SIGBUS alone" {
	build signals "$TOP/tests/signals.c"
	export LD_LIBRARY_PATH=$P/lib
	# Past the size that is mapped (four read buffers, 1.3 MB), and a
	# mislabelled file, read again for its guess.
	{ printf '<?xml version="1.0" encoding="UTF-8"?><a>'; rep 70000 \
	    '<b>some text, some more text</b>\n'; printf '</a>'; } > big.xml
	printf '<?xml version="1.0" encoding="US-ASCII"?><a>caf\303\251</a>' > mis.xml
	runp ./signals big.xml mis.xml
	assert_success
	assert_output "default: none changed
mmap=no: none changed
mmap=yes: SIGBUS"
}

# bats test_tags=slow
@test "library: the installed header compiles alone as C99 (-pedantic) and as C++11, and a C++ program links with the library" {
	printf '#include <xmlsniff.h>\n' > h.c
	# shellcheck disable=SC2046
	run "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only \
	    $(pkg-config --cflags xmlsniff) h.c
	assert_success
	assert_output ""
	command -v "${CXX:-c++}" > /dev/null || skip "${CXX:-c++} is not installed"
	cp h.c h.cc
	# shellcheck disable=SC2046
	run "${CXX:-c++}" -std=c++11 -pedantic -Wall -Wextra -Werror \
	    -fsyntax-only $(pkg-config --cflags xmlsniff) h.cc
	assert_success
	assert_output ""
	printf '#include <cstdio>\n#include <xmlsniff.h>\nint main() {\n\tstd::printf("%%s %%s\\n", xmlsniff_version(),\n\t    xmlsniff_status_name(XMLSNIFF_ERR_STATE));\n\treturn 0;\n}\n' > v.cc
	# shellcheck disable=SC2046,SC2086
	"${CXX:-c++}" -std=c++11 -Wall -Wextra -Werror $SAN -o v v.cc \
	    $(pkg-config --cflags --libs xmlsniff)
	LD_LIBRARY_PATH=$P/lib runp ./v
	assert_success
	assert_output "$VERSION state"
}

# bats test_tags=slow
@test "library: the header's version macros are the Makefile's VERSION, and so is the library's run-time version" {
	local num
	printf '#include <stdio.h>\n#include <xmlsniff.h>\nint main(void) {\n\tprintf("%%s %%d %%d.%%d.%%d\\n%%s %%d\\n", XMLSNIFF_VERSION_STRING,\n\t    XMLSNIFF_VERSION_NUMBER, XMLSNIFF_VERSION_MAJOR,\n\t    XMLSNIFF_VERSION_MINOR, XMLSNIFF_VERSION_PATCH,\n\t    xmlsniff_version(), xmlsniff_version_number());\n\treturn 0;\n}\n' > v.c
	build v v.c
	IFS=. read -r a b c <<< "$VERSION"
	num=$((a * 10000 + b * 100 + c))
	LD_LIBRARY_PATH=$P/lib runp ./v
	assert_success
	assert_output "$VERSION $num $VERSION
$VERSION $num"
	# The header in the source tree is the installed one, and no file
	# but the Makefile spells the version out.
	run grep -c '"'"$VERSION"'"' "$TOP/src/lib/xmlsniff.h"
	assert_output 0
}

# bats test_tags=slow
@test "library: a program built with pkg-config --cflags --libs loads the installed shared library and prints the command line's records" {
	build prog "$TOP/examples/libxmlsniff.c"
	run sh -c 'LD_LIBRARY_PATH="$1" ldd ./prog | grep libxmlsniff' sh "$P/lib"
	assert_output --regexp "^	libxmlsniff\.so\.1 => $P/lib/libxmlsniff\.so\.1 "
	export LD_LIBRARY_PATH=$P/lib
	cd "$TOP"
	runp "$BATS_TEST_TMPDIR/prog" -j examples/*.xml
	assert_success
	assert_equal "$output" "$("$XMLSNIFF" --json examples/*.xml)"
	assert_equal "$stderr" ""
	runp "$BATS_TEST_TMPDIR/prog" examples/*.xml
	assert_success
	assert_equal "$output" "$("$XMLSNIFF" examples/*.xml 2> /dev/null)"
	assert_equal "$stderr" "$("$XMLSNIFF" examples/*.xml 2>&1 > /dev/null)"
}

# bats test_tags=slow
@test "library: a static link with pkg-config --static needs no shared libxmlsniff and prints the same records" {
	# A static-only install: the same tree without the shared library.
	cp -R "$P" static
	rm -f static/lib/libxmlsniff.so static/lib/libxmlsniff.so.1
	sed -i "s|^prefix=.*|prefix=$BATS_TEST_TMPDIR/static|" \
	    static/lib/pkgconfig/xmlsniff.pc
	PKG_CONFIG_LIBDIR=$BATS_TEST_TMPDIR/static/lib/pkgconfig
	build prog "$TOP/examples/libxmlsniff.c" --static
	run sh -c 'readelf -d ./prog | grep NEEDED'
	refute_output --partial libxmlsniff
	cd "$TOP"
	runp "$BATS_TEST_TMPDIR/prog" -j examples/*.xml
	assert_success
	assert_equal "$output" "$("$XMLSNIFF" --json examples/*.xml)"
}

# bats test_tags=slow
@test "library: a fully static program (-static) links with what pkg-config --static gives, Libs.private included" {
	[ -z "$SAN" ] || skip "-static does not go with the sanitizers' runtime"
	printf 'int main(void) { return 0; }\n' > t.c
	"$CC" -static -o t t.c 2> /dev/null ||
	    skip "static libc is not installed (libc6-dev)"
	# shellcheck disable=SC2046
	"$CC" -std=c99 -D_POSIX_C_SOURCE=200809L -static -o prog \
	    "$TOP/examples/libxmlsniff.c" \
	    $(pkg-config --static --cflags --libs xmlsniff) 2> link.err ||
	    fail "cannot link statically: $(cat link.err)"
	run sh -c 'readelf -d ./prog | grep NEEDED'
	assert_output ""
	cd "$TOP"
	# Not under valgrind (XMLSNIFF_WRAP): it cannot put its own malloc in
	# a program with no dynamic linking, and reports the C library's own
	# memory as its errors.
	run_apart "$BATS_TEST_TMPDIR/prog" -j examples/*.xml
	assert_success
	assert_equal "$output" "$("$XMLSNIFF" --json examples/*.xml)"
}

@test "library: through the accessors, each report line (line, column, severity, message, count, code), excerpt and note is xmlsniff's" {
	build prog "$TOP/examples/libxmlsniff.c"
	export LD_LIBRARY_PATH=$P/lib
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>\377\376</a>\n<b>\377</b>' > bad.xml
	# An input with an error: status 1.
	runp ./prog bad.xml
	assert_failure 1
	assert_output 'bad.xml: UTF-8 (declaration), declared "UTF-8", 1 error'
	assert_equal "$stderr" 'bad.xml:2:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it (3 times) [illegal-sequence]'
	# xmlsniff's first line of a diagnostic is the same.
	assert_equal "$stderr" "$("$XMLSNIFF" bad.xml 2>&1 > /dev/null)"
	# With all, each occurrence, the first included (with its count).
	runp ./prog -o all=yes bad.xml
	assert_failure 1
	assert_equal "$stderr" "$("$XMLSNIFF" --all bad.xml 2>&1 > /dev/null)"
	assert_equal "$stderr" 'bad.xml:2:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it (3 times) [illegal-sequence]
bad.xml:2:5: error: bytes FE are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]
bad.xml:3:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
	runp ./prog -j -o all=yes bad.xml
	assert_equal "$output" "$("$XMLSNIFF" --json --all bad.xml)"
	# The note of the cap, and the excerpts.
	runp ./prog -o max-errors=1 bad.xml
	assert_equal "$stderr" "$("$XMLSNIFF" --max-errors=1 bad.xml 2>&1 > /dev/null)"
	stderr_has 'bad.xml: note: the list stops at 1 line (--max-errors=1): 2 more occurrences are not listed'
	runp ./prog -o excerpt=always bad.xml
	assert_equal "$stderr" "$("$XMLSNIFF" --excerpt=always bad.xml 2>&1 > /dev/null)"
	[ "${#stderr_lines[@]}" -eq 4 ] || fail "not a line and an excerpt of three: $stderr"
	# A name with a tab and a byte that is not UTF-8, escaped as the
	# record's "file" is.
	cp bad.xml "$(printf 'a\tb\351.xml')"
	runp ./prog -j "$(printf 'a\tb\351.xml')"
	assert_output --partial '{"file":"a\tb\udce9.xml","encoding":"UTF-8",'
	assert_equal "$output" "$("$XMLSNIFF" --json "$(printf 'a\tb\351.xml')")"
	# Fed from a pipe, in whatever pieces it comes, named "-".
	run_apart sh -c 'cat bad.xml | ./prog -j'
	assert_failure 1
	assert_equal "$output" "$("$XMLSNIFF" --json - < bad.xml)"
}

@test "library: the transcoder writes through the caller's function the bytes of xmlsniff --transcode-to, or fails as it does" {
	local f t ws gs
	build prog "$TOP/examples/libxmlsniff.c"
	export LD_LIBRARY_PATH=$P/lib
	for f in "$TOP"/examples/*.xml; do
		for t in UTF-8 UTF-16 ISO-8859-1; do
			ws=0
			"$XMLSNIFF" --transcode-to=$t "$f" > want 2> want.err ||
			    ws=$?
			gs=0
			${XMLSNIFF_WRAP:-} ./prog -t $t "$f" > got 2> got.err ||
			    gs=$?
			[ "$gs" = "$ws" ] ||
			    fail "$f to $t: status $gs, xmlsniff's $ws"
			[ "$ws" != 0 ] || cmp want got ||
			    fail "$f to $t: other bytes than xmlsniff's"
			# The diagnostics, a refusal's among them.
			diff want.err got.err ||
			    fail "$f to $t: other diagnostics than xmlsniff's"
		done
	done
}

@test "library: a bad option is refused with the library's message, and a missing file is said so" {
	build prog "$TOP/examples/libxmlsniff.c"
	export LD_LIBRARY_PATH=$P/lib
	printf '<a/>' > a.xml
	runp ./prog -o nonesuch=1 a.xml
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'libxmlsniff: unknown option "nonesuch"'
	runp ./prog -o max-errors=0 a.xml
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'libxmlsniff: --max-errors: "0" is not a number from 1 to 100000'
	runp ./prog missing.xml
	assert_failure 2
	assert_equal "$stderr" "missing.xml: $(errtext ENOENT)"
}

# bats test_tags=slow
@test "library: xmlsniff(3) names, declares and describes each function of the header, and each status" {
	local page=$TOP/man/xmlsniff.3 f n bad=
	header_functions "$TOP/src/lib/xmlsniff.h" > header
	while read -r f; do
		grep -q -x "\.Nm $f\( ,\)\{0,1\}" "$page" || bad="$bad NAME:$f"
		# The synopsis's .Fn or .Fo, and the description's.
		n=$(grep -c -E "(^|[ .])F[no] $f( |$)" "$page")
		[ "$n" -ge 2 ] || bad="$bad $f"
	done < header
	for f in $(sed -n 's/^[[:space:]]*\(XMLSNIFF_OK\|XMLSNIFF_ERR_[A-Z_]*\)[[:space:],=].*/\1/p' \
	    "$TOP/src/lib/xmlsniff.h"); do
		grep -q -x "\.It Dv $f" "$page" || bad="$bad ERRORS:$f"
	done
	[ -z "$bad" ] || fail "xmlsniff(3) lacks:$bad"
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -Wwarning "$page"
	assert_success
	assert_output ""
}

# bats test_tags=slow
@test "library: the manual page's EXAMPLE, built against the installed copy, prints the records of xmlsniff --all --json" {
	local page=$P/share/man/man3/xmlsniff.3
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" |
	    sed -n '/^\.Bd -literal/,/^\.Ed/p' | sed '1d;$d' |
	    sed 's/\\e/\\/g; s/\\&//g' > check.c
	grep -q 'xmlsniff_check_fd' check.c || fail "no example found in $page"
	build check check.c
	export LD_LIBRARY_PATH=$P/lib
	cd "$TOP"
	runp "$BATS_TEST_TMPDIR/check" examples/*.xml
	assert_success
	assert_equal "$output" "$(cli_records --all examples/*.xml)"
	cd "$BATS_TEST_TMPDIR"
	printf '<?xml version="1.0" encoding="UTF-8"?><a>\377</a>' > bad.xml
	runp ./check bad.xml
	assert_failure 1
	assert_equal "$output" "$(cli_records --all bad.xml)"
	runp ./check missing.xml
	assert_failure 2
	assert_equal "$stderr" "missing.xml: $(errtext ENOENT)"
}

@test "library: many threads over shared options, from a cold start, give every result the serial pass gives" {
	local t=4 r=2 g=24
	# Under valgrind (XMLSNIFF_WRAP) the threads run one at a time.
	[ -z "${XMLSNIFF_WRAP:-}" ] || { t=3; r=1; g=8; }
	[ -x "$TOP/tests/threads" ] || fail "tests/threads is not built (make tests/threads)"
	cd "$TOP"
	runp tests/threads -t $t -r $r -g $g examples/*.xml
	assert_success
	assert_output "threads: $t threads, $r rounds, $((8 + g)) inputs, 7 option sets, 2 targets: $((r * t * 7 * (8 + g) * 3)) results, 0 differ from the serial ones"
	assert_equal "$stderr" ""
}

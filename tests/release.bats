#!/usr/bin/env bats
# Releases: the version in one place (VERSION in the Makefile), NEWS, the
# README's snippets naming its tag, make install's manual page, and the
# tarball of make dist: what it holds, that it builds, that a change of
# the optional libraries found rebuilds what uses them, and (slow tier)
# that make check passes in it, unpacked where there is no git.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

# The tarball is made once for the file, in the source tree (a build
# product there, like xmlsniff), and unpacked in the file's scratch
# directory, away from any git work tree.
setup_file() {
	VERSION=$(make -s --no-print-directory -C "$TOP" print-version)
	export VERSION
	git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	    return 0
	make -s --no-print-directory -C "$TOP" dist > "$BATS_FILE_TMPDIR/dist.out" \
	    2>&1 || return 0
	mkdir "$BATS_FILE_TMPDIR/clean"
	tar -xzf "$TOP/xmlsniff-$VERSION.tar.gz" -C "$BATS_FILE_TMPDIR/clean"
}

setup() {
	[ -n "$VERSION" ] || fail "make print-version printed nothing"
	export GIT_CEILING_DIRECTORIES="$BATS_FILE_TMPDIR"
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
	cd "$BATS_TEST_TMPDIR" || return 1
}

# need_dist: skip unless make dist could run (a git work tree).
need_dist() {
	[ -d "$BATS_FILE_TMPDIR/clean" ] ||
	    skip "make dist needs a git work tree: $(cat "$BATS_FILE_TMPDIR/dist.out" 2>/dev/null)"
	DIR="$BATS_FILE_TMPDIR/clean/xmlsniff-$VERSION"
}

@test "release: --version prints the Makefile's VERSION, which no source repeats" {
	[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]
	xs --version
	assert_success
	assert_output "xmlsniff $VERSION"
	# The C sources take it from src/cli/version.h, which make writes.
	run grep -rlF "\"$VERSION\"" "$TOP/src" --include='*.c' --include='*.h' \
	    --exclude=version.h
	assert_output ""
}

@test "release: NEWS begins with the entry of this version" {
	run grep -m1 '^xmlsniff [0-9]' "$TOP/NEWS"
	assert_output "xmlsniff $VERSION"
}

@test "release: every version tag in the README and the guide is vVERSION" {
	# The pre-commit rev: and the Action's uses: .../xmlsniff@ name the
	# tag; there is at least one of each, and each is this version's.
	run grep -E -o 'rev: [^ ]*$' "$TOP/README"
	assert_success
	run sort -u <<< "$output"
	assert_output "rev: v$VERSION"
	run grep -E -o 'uses: [^ ]*/xmlsniff@[^ ]*' "$TOP/README"
	assert_success
	run sort -u <<< "$(sed 's|.*/xmlsniff@||' <<< "$output")"
	assert_output "v$VERSION"
	# Any other vX.Y.Z (the GitLab include's URL, XMLSNIFF_REF) too,
	# and those of the guide's configurations.
	run sort -u <<< "$(grep -E -o '\bv[0-9]+\.[0-9]+\.[0-9]+' "$TOP/README")"
	assert_output "v$VERSION"
	run sort -u <<< "$(grep -E -o '\bv[0-9]+\.[0-9]+\.[0-9]+' "$TOP/doc/GUIDE.md")"
	assert_output "v$VERSION"
}

@test "release: make install puts every manual page in its section, the version in its footer, and the guide" {
	local m d=$BATS_TEST_TMPDIR/root/usr/share
	run make -s --no-print-directory -C "$TOP" install \
	    DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr
	assert_success
	run grep '^\.Os' "$d/man/man1/xmlsniff.1"
	assert_output ".Os xmlsniff $VERSION"
	run grep '^\.Os' "$d/man/man5/xmlsniffrc.5"
	assert_output ".Os xmlsniff $VERSION"
	for m in "$TOP"/man/*.[1-9]; do
		m=${m##*/}
		[ -f "$d/man/man${m##*.}/$m" ] || fail "$m is not installed"
	done
	for m in GUIDE.md FORMATS.md xmlsniff-record.schema.json; do
		cmp "$TOP/doc/$m" "$d/doc/xmlsniff/$m" || fail "$m is not installed"
	done
	run make -s --no-print-directory -C "$TOP" uninstall \
	    DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr
	assert_success
	[ ! -e "$d/man/man1/xmlsniff.1" ]
	[ ! -e "$d/man/man5/xmlsniffrc.5" ]
	[ ! -e "$d/doc/xmlsniff" ]
	[ ! -e "$BATS_TEST_TMPDIR/root/usr/bin/xmlsniff" ]
}

@test "make dist: the tarball holds what git tracks below xmlsniff-VERSION/, no build products" {
	need_dist
	tar -tzf "$TOP/xmlsniff-$VERSION.tar.gz" | sort > listed
	(cd "$TOP" && git ls-files) | sed "s|^|xmlsniff-$VERSION/|" | sort > tracked
	# tar lists the directories too; compare the files.
	grep -v '/$' listed > files
	run diff tracked files
	assert_success
	for f in Makefile README NEWS COPYING man/xmlsniff.1 man/xmlsniffrc.5 \
	    doc/GUIDE.md doc/FORMATS.md src/cli/main.c \
	    tests/run tests/helper.bash action.yml .pre-commit-hooks.yaml \
	    completions/xmlsniff.bash completions/_xmlsniff \
	    completions/xmlsniff.fish man/xmlsniff.3 src/lib/xmlsniff.h \
	    src/lib/libxmlsniff.map src/lib/xmlsniff.pc.in; do
		[ -f "$DIR/$f" ] || fail "the tarball lacks $f"
	done
	run grep -E -e '\.o$' -e '/xmlsniff$' -e 'src/cli/version\.h$' \
	    -e 'tests/unit$' -e '\.tar\.gz$' -e '\.pico$' -e 'libxmlsniff\.a$' \
	    -e 'libxmlsniff\.so' -e 'tests/threads$' files
	assert_failure
	[ ! -e "$DIR/.git" ]
}

@test "make dist: the unpacked tarball builds with no git and says its version" {
	need_dist
	cd "$DIR"
	# -O0: the test is of the build, not of the code it makes.
	run make -s -j2 CFLAGS=-O0 xmlsniff
	assert_success
	run ./xmlsniff --version
	assert_output "xmlsniff $VERSION"
	run git rev-parse --is-inside-work-tree
	assert_failure
}

# mtime FILE...: the modification times, to the nanosecond.
mtime() {
	stat -c '%y %n' "$@"
}

@test "make: an optional library installed, removed or switched off rebuilds what uses it on the next make, and nothing else" {
	need_dist
	printf '#include <uchardet/uchardet.h>\n#include <zlib.h>\n' |
	    cc -E - > /dev/null 2>&1 ||
	    skip "libuchardet's or zlib's header is not installed (libuchardet-dev, zlib1g-dev)"
	cp -a "$DIR" t
	cd t
	local others='src/lib/analysis/guess.o src/lib/http/http.o'
	for o in $others; do
		[ -f "${o%.o}.c" ] || fail "no ${o%.o}.c: name another object"
	done
	# -O0: the test is of the build, not of the code it makes.
	run make -s -j2 CFLAGS=-O0 UCHARDET=no ZLIB=no xmlsniff
	assert_success
	run ./xmlsniff --help
	assert_line 'Guesses of the real encoding: the built-in language models (built without libuchardet).'
	refute_line --partial 'gzip and deflate (zlib)'
	mtime $others > before
	sleep 0.01
	# The libraries as if just installed: found, and used.
	run make -s -j2 CFLAGS=-O0 xmlsniff
	assert_success
	run ./xmlsniff --help
	assert_line 'Guesses of the real encoding: the built-in language models and libuchardet.'
	assert_line --partial 'gzip and deflate (zlib)'
	mtime $others > after
	diff before after
	# Nothing changed: nothing made.
	mtime xmlsniff src/lib/analysis/guess_ud.o src/lib/http/coding.o > before
	run make -s -j2 CFLAGS=-O0 xmlsniff
	assert_success
	assert_output ''
	mtime xmlsniff src/lib/analysis/guess_ud.o src/lib/http/coding.o > after
	diff before after
	# One switched off again: only its object is made again.
	mtime src/lib/http/coding.o > before
	run make -s -j2 CFLAGS=-O0 UCHARDET=no xmlsniff
	assert_success
	run ./xmlsniff --help
	assert_line 'Guesses of the real encoding: the built-in language models (built without libuchardet).'
	assert_line --partial 'gzip and deflate (zlib)'
	mtime src/lib/http/coding.o > after
	diff before after
}

# dist-check: CI runs make check in the unpacked tarball itself, under
# the sanitizers, and leaves this test out (tests/run, DIST_CHECKED).
# bats test_tags=slow,dist-check
@test "make dist: make check passes in the unpacked tarball, with no git" {
	need_dist
	cd "$DIR"
	# A clean environment: the bats running this test must not leak
	# into the one make check runs (its variables, and its libexec
	# directory, which it puts first in PATH).
	local path
	path=$(printf '%s\n' "$PATH" | tr ':' '\n' | grep -v bats-core |
	    paste -s -d: -)
	# The build may take two jobs; make check itself runs without -j,
	# as the README says (its tests call make, which under a -j parent
	# warns that the jobserver is unavailable).
	run env -i PATH="$path" HOME="$HOME" LC_ALL=C sh -c \
	    'make -j2 xmlsniff tests/unit tests/strerror && make check' 3>&-
	[ "$status" -eq 0 ] || fail "make check failed in the tarball:
$output
$(tail -n 60 build/check.log)"
	assert_line --regexp '^bats: [0-9]+ passed, 0 failed'
}

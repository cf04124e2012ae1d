#!/usr/bin/env bats
# The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit run
# with a .pre-commit-config.yaml as the README's, on a scratch Git
# repository: the check hook fails on a bad
# file and passes good ones, the fix hook repairs a fixable file.  A copy
# of this working tree, committed in a scratch repository, is the hook
# repository, so that uncommitted changes are what is tried; pre-commit
# works in a scratch HOME and needs no network (language: script).
load helper

# pre-commit copies this tree and builds xmlsniff in its own environment,
# once for the file: the tests share the hook repository and pre-commit's
# store (PRE_COMMIT_HOME), and so run one after another.  Still a minute
# or more: the slow tier (make check-slow).
# bats file_tags=slow

need_tools() {
	command -v pre-commit > /dev/null ||
	    skip "pre-commit is not installed (apt-get install pre-commit)"
	command -v git > /dev/null || skip "git is not installed"
	git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	    skip "the source tree is not a Git working tree"
}

setup_file() {
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	command -v pre-commit > /dev/null && command -v git > /dev/null &&
	    git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	    return 0
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY
	export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.org
	export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.org
	export PRE_COMMIT_HOME="$BATS_FILE_TMPDIR/pre-commit"
	export hooks="$BATS_FILE_TMPDIR/hooks"
	mkdir "$hooks"
	# The tracked and untracked files, not the build products.
	(cd "$TOP" && git ls-files -co --exclude-standard -z |
	    xargs -0 tar -cf -) | tar -xf - -C "$hooks"
	git -C "$hooks" init -q
	git -C "$hooks" add -A
	git -C "$hooks" commit -q -m hooks
	export rev
	rev=$(git -C "$hooks" rev-parse HEAD)
}

# hook ID: pre-commit run --all-files with a configuration that names
# the hook ID of the hook repository at its commit, as a project's would
# (pre-commit clones and builds it once into its store, for every test).
hook() {
	printf 'repos:\n-   repo: %s\n    rev: %s\n    hooks:\n    -   id: %s\n' \
	    "$hooks" "$rev" "$1" > .pre-commit-config.yaml
	git add .pre-commit-config.yaml
	run pre-commit run --all-files
}

setup() {
	need_tools
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	work="$BATS_TEST_TMPDIR/work"
	git init -q "$work"
	cd "$work" || return 1
}

@test "pre-commit: the check hook passes good XML files" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a>caf\303\251</a>\n' > good.xml
	printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' > pic.svg
	git add good.xml pic.svg
	hook xmlsniff
	assert_success
	assert_output --regexp 'xmlsniff \(XML encodings and labels\)\.+Passed'
}

@test "pre-commit: the check hook fails on a bad XML file and names it" {
	printf '<?xml version="1.0" encoding="UTF-8"?><a/>\n' > good.xml
	printf '<a>\377</a>\n' > bad.xml
	printf 'not XML \377\n' > notes.txt
	git add good.xml bad.xml notes.txt
	hook xmlsniff
	assert_failure 1
	assert_output --regexp 'xmlsniff \(XML encodings and labels\)\.+Failed'
	assert_output --partial 'bad.xml:1:4: error: bytes FF are not valid in UTF-8'
	refute_output --partial 'good.xml'
	refute_output --partial 'notes.txt'
}

@test "pre-commit: the fix hook repairs a fixable file, then passes" {
	{ printf '\377\376'; enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>'; } > fixme.xml
	printf '<a/>' > fine.xml
	git add fixme.xml fine.xml
	hook xmlsniff-fix
	assert_failure 1
	assert_output --regexp 'xmlsniff --fix \(repair XML encodings and labels\)\.+Failed'
	assert_output --partial 'fixme.xml: UTF-16LE (BOM), declared "UTF-16LE", 1 error; written: stripped a forbidden BOM'
	assert_output --partial 'files were modified by this hook'
	enc UTF-16LE '<?xml version="1.0" encoding="UTF-16LE"?><a/>' | cmp - fixme.xml
	printf '<a/>' | cmp - fine.xml
	git add fixme.xml
	hook xmlsniff-fix
	assert_success
	assert_output --regexp 'xmlsniff --fix \(repair XML encodings and labels\)\.+Passed'
}

@test "pre-commit: the fix hook fails on a file it cannot fix and leaves it" {
	printf '<a>\377</a>' > bad.xml
	git add bad.xml
	hook xmlsniff-fix
	assert_failure 1
	assert_output --partial 'xmlsniff: bad.xml: not fixed: it has bytes that are illegal in UTF-8'
	printf '<a>\377</a>' | cmp - bad.xml
}

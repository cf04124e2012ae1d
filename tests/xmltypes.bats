#!/usr/bin/env bats
# One list of XML file types (issue 23 item 6): data/xml-types.tsv makes
# the walk's table (src/cli/xmltypes.h) and the pre-commit hooks' files:
# pattern; the GitHub Action and the GitLab job run xmlsniff -r.  These
# fail when any of them drifts from the list.
load helper

setup() {
	command -v python3 > /dev/null || skip "python3 is needed to read the list"
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "xml-types: the walk's table is what the list makes" {
	run sh "$TOP/tools/check-gen.sh" "$TOP/src/cli/xmltypes.h" xmltypes \
	    "$TOP/tools/gen-xmltypes.py" "$TOP/data/xml-types.tsv"
	assert_success
}

@test "xml-types: the hooks' files: pattern is what the list makes, and no types_or" {
	run sh "$TOP/tools/check-gen.sh" "$TOP/.pre-commit-hooks.yaml" xmltypes \
	    "$TOP/tools/gen-xmltypes.py" --hooks "$TOP/data/xml-types.tsv" \
	    "$TOP/.pre-commit-hooks.yaml"
	assert_success
	[ "$(grep -c "^    files: '" "$TOP/.pre-commit-hooks.yaml")" -eq 2 ]
	! grep -q '^    types' "$TOP/.pre-commit-hooks.yaml" ||
	    fail "a types or types_or would hide extensions"
}

@test "xml-types: the Action and the GitLab job walk with -r and choose no files of their own" {
	local f
	for f in action.yml ci/gitlab-ci.yml; do
		# Every line that runs xmlsniff on the paths walks them.
		grep -q -- '-- \$XMLSNIFF_PATHS' "$TOP/$f" ||
		    fail "$f: xmlsniff is not run on the paths"
		! grep -- '-- \$XMLSNIFF_PATHS' "$TOP/$f" | grep -v -- ' -r ' ||
		    fail "$f: a run of xmlsniff without -r"
		! grep -q -- '--include\|--exclude\|\*\.xml' "$TOP/$f" ||
		    fail "$f chooses files of its own"
	done
}

@test "xml-types: the hook and -r check the same files of a tree with every extension" {
	local e
	python3 -c 'import yaml' 2> /dev/null ||
	    skip "python3 with PyYAML is needed to read the hooks"
	mkdir -p t/sub && cd t
	# Every extension of the list, in lower and upper case, as XML.
	while IFS=$'\t' read -r e _; do
		case $e in '#'*|'') continue ;; esac
		printf '<a/>' > "a.$e"
		printf '<a/>' > "sub/B.${e^^}"
	done < "$TOP/data/xml-types.tsv"
	# Not XML by name, and not XML by content.
	printf '<a/>' > notes.txt
	printf '<a/>' > .xml
	printf '<a/>' > a.xml.bak
	printf 'module example.com/x\n' > go.mod
	printf 'key=value\n' > java.props
	printf 'EESchema Schematic File Version 4\n' > board.sch
	printf 'plain text\n' > text.xml
	# What -r checks, and what the hook checks: the files pre-commit
	# selects with the files: pattern (re.search on each path, as
	# pre-commit does), given to the hook's entry.
	run_apart "$XMLSNIFF" -r --json
	assert_success
	sed 's/^{"file":"\([^"]*\)".*/\1/' <<< "$output" | sort > walked
	python3 -c 'import os, re, sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
for h in hooks:
    assert h["files"] == hooks[0]["files"]
pat = re.compile(hooks[0]["files"])
for d, _, fs in os.walk("."):
    for f in fs:
        p = os.path.relpath(os.path.join(d, f))
        if pat.search(p) and p != "walked":
            print(p)' "$TOP/.pre-commit-hooks.yaml" > selected
	# The entries run with -r (which the pass-over of not-XML files
	# needs); -q and --strict change nothing of which files are checked.
	[ "$(grep -c '^    entry: ci/xmlsniff-hook -r ' "$TOP/.pre-commit-hooks.yaml")" -eq 2 ]
	# shellcheck disable=SC2046
	run_apart "$XMLSNIFF" -r --json $(cat selected)
	assert_success
	sed 's/^{"file":"\([^"]*\)".*/\1/' <<< "$output" | sort > hooked
	diff walked hooked || fail "the hook and -r check different files"
	# 40 extensions twice, and text.xml: not the others.
	[ "$(wc -l < walked)" -eq "$(( 2 * $(grep -c '^[a-z]' "$TOP/data/xml-types.tsv") + 1 ))" ]
	grep -qx text.xml walked
	! grep -q 'java.props\|go.mod\|board.sch\|notes.txt\|^\.xml$\|bak' walked
}

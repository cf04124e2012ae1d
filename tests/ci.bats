#!/usr/bin/env bats
# The CI integration files: the GitHub Action's steps run as a runner
# would run them, the GitLab CI job's shape, and the pre-commit manifest.
load helper

# Whether python3 has PyYAML is asked once for the file: an interpreter
# costs a test more than the rest of it.
setup_file() {
	if python3 -c 'import yaml' 2> /dev/null; then
		export HAVE_YAML=yes
	else
		export HAVE_YAML=no
	fi
}

setup() {
	[ "$HAVE_YAML" = yes ] ||
	    skip "python3 with PyYAML is needed to read the YAML files"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# action_step N: the shell script of step N (from 0) of action.yml.
action_step() {
	python3 -c 'import sys, yaml
print(yaml.safe_load(open(sys.argv[1]))["runs"]["steps"][int(sys.argv[2])]["run"])' \
	    "$TOP/action.yml" "$1"
}

# run_action FORMAT ARGS PATHS: the build and run steps of the action, as a
# runner runs them: the action's folder in GITHUB_ACTION_PATH and the
# inputs in the environment the steps declare.
run_action() {
	action_step 0 > build.sh
	action_step 1 > run.sh
	export GITHUB_ACTION_PATH="$ACTION" RUNNER_TEMP="$BATS_TEST_TMPDIR"
	export GITHUB_OUTPUT="$BATS_TEST_TMPDIR/github-output"
	: > "$GITHUB_OUTPUT"
	bash -e build.sh || return
	XMLSNIFF_FORMAT=$1 XMLSNIFF_ARGS=$2 XMLSNIFF_PATHS=$3 \
	    XMLSNIFF_SARIF=xmlsniff.sarif XMLSNIFF_SUMMARY=${SUMMARY:-true} \
	    run_apart bash -e run.sh
}

# The action's folder: a copy of the built tree (the build step then has
# nothing to do), so that the tests never write into the source tree.
setup_action() {
	ACTION="$BATS_TEST_TMPDIR/action"
	mkdir -p "$ACTION"
	cp "$XMLSNIFF" "$ACTION/xmlsniff"
	mkdir -p repo/docs
	printf '<?xml version="1.0" encoding="UTF-8"?><a/>' > repo/docs/good.xml
	printf '<a>\377</a>' > repo/docs/bad.xml
}

# format_ok FORMAT: skip unless this build has --format=FORMAT.
format_ok() {
	printf '<a/>' | "$XMLSNIFF" --format="$1" > /dev/null 2>&1 ||
	    skip "this build has no --format=$1"
}

@test "action.yml: a composite action with the inputs paths, args, format, sarif-file" {
	run python3 -c 'import sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
print(a["runs"]["using"], sorted(a["inputs"]), a["inputs"]["format"]["default"],
    a["inputs"]["args"]["default"], a["inputs"]["paths"]["default"])' "$TOP/action.yml"
	assert_success
	assert_output "composite ['args', 'format', 'paths', 'sarif-file', 'summary'] github --strict ."
}

# bats test_tags=slow
@test "action.yml: the build step builds xmlsniff with make when it is missing" {
	ACTION="$BATS_TEST_TMPDIR/action"
	mkdir -p "$ACTION"
	(cd "$TOP" && git ls-files -co --exclude-standard -z 2> /dev/null |
	    xargs -0 tar -cf -) | tar -xf - -C "$ACTION" ||
	    skip "the source tree is not a Git working tree"
	[ -f "$ACTION/Makefile" ] || skip "the source tree is not a Git working tree"
	rm -f "$ACTION/xmlsniff"
	action_step 0 > build.sh
	GITHUB_ACTION_PATH="$ACTION" RUNNER_TEMP="$BATS_TEST_TMPDIR" run bash -e build.sh
	assert_success
	[ -x "$ACTION/xmlsniff" ]
	run "$ACTION/xmlsniff" --version
	assert_output --regexp '^xmlsniff [0-9]'
}

@test "action.yml: format text checks the paths with -r and the args, and fails on an error" {
	setup_action
	cd repo
	run_action text "--strict" "docs"
	assert_failure 1
	assert_output $'docs/bad.xml: UTF-8 (default), no declaration, 1 error\ndocs/good.xml: UTF-8 (declaration), declared "UTF-8"'
	assert_equal "$stderr" 'docs/bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "action.yml: args and paths are split into words, never run as shell code" {
	setup_action
	cd repo
	run_action text '--strict --ignore=illegal-sequence $(touch pwned)' 'docs/good.xml docs/bad.xml'
	assert_failure 2
	[ ! -e pwned ]
	run_action text '--strict --ignore=illegal-sequence -q' 'docs/good.xml docs/bad.xml'
	assert_success
	assert_output ""
}

@test "action.yml: format github gives annotations" {
	format_ok github
	setup_action
	cd repo
	run_action github "--strict" "docs"
	assert_failure 1
	[[ "$output$stderr" == *'::error'*'docs/bad.xml'* ]] || fail "no annotation: $output $stderr"
}

@test "action.yml: paths . gives repository paths, and the step summary reaches xmlsniff" {
	format_ok github
	setup_action
	cd repo
	git init -q . 2> /dev/null || skip "git is not installed"
	GITHUB_STEP_SUMMARY="$BATS_TEST_TMPDIR/summary.md" run_action github "--strict" "."
	assert_failure 1
	assert_output --regexp '^::error file=docs/bad\.xml,line=1,col=4,title=illegal-sequence::'
	grep -qx '2 files checked: 1 error, 0 warnings\.' "$BATS_TEST_TMPDIR/summary.md"
	# summary: false keeps the summary from xmlsniff.
	rm "$BATS_TEST_TMPDIR/summary.md"
	SUMMARY=false GITHUB_STEP_SUMMARY="$BATS_TEST_TMPDIR/summary.md" \
	    run_action github "--strict" "."
	assert_failure 1
	[ ! -e "$BATS_TEST_TMPDIR/summary.md" ]
}

@test "action.yml: format sarif writes the file and names it in the step outputs" {
	format_ok sarif
	setup_action
	cd repo
	run_action sarif "--strict" "docs"
	assert_failure 1
	grep -q '"version"' xmlsniff.sarif
	grep -qx 'sarif-file=xmlsniff.sarif' "$GITHUB_OUTPUT"
}

@test "ci/gitlab-ci.yml: a job that writes a Code Quality report with --format=gitlab" {
	run python3 -c 'import sys, yaml
j = yaml.safe_load(open(sys.argv[1]))["xmlsniff"]
print(j["artifacts"]["reports"]["codequality"], j["artifacts"]["when"])
print([l for l in j["script"] if "--format=gitlab" in l and "> gl-code-quality-report.json" in l] != [])
print(any("make -C /tmp/xmlsniff xmlsniff" in l for l in j["script"]))' "$TOP/ci/gitlab-ci.yml"
	assert_success
	assert_output $'gl-code-quality-report.json always\nTrue\nTrue'
}

@test ".pre-commit-hooks.yaml: the hooks xmlsniff and xmlsniff-fix, with the script entry" {
	run python3 -c 'import sys, yaml
for h in yaml.safe_load(open(sys.argv[1])):
    print(h["id"], h["entry"], h["language"], "types_or" in h, "files" in h, h["require_serial"])' \
	    "$TOP/.pre-commit-hooks.yaml"
	assert_success
	# files: from data/xml-types.tsv, no types_or, which would hide
	# extensions (tests/xmltypes.bats holds the pattern to the list).
	assert_output $'xmlsniff ci/xmlsniff-hook -r --strict -q script False True True\nxmlsniff-fix ci/xmlsniff-hook -r --fix script False True True'
	[ -x "$TOP/ci/xmlsniff-hook" ]
	if command -v pre-commit > /dev/null; then
		run pre-commit validate-manifest "$TOP/.pre-commit-hooks.yaml"
		assert_success
	fi
}

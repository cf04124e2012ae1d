#!/usr/bin/env bats
# The README's "Use in CI" section: each snippet is taken from the README
# as it stands and run with the forge simulated: the GitHub workflow
# through action.yml's steps, the pre-commit configuration with
# pre-commit, the GitLab include with ci/gitlab-ci.yml's job, the shell
# line and the output the README shows for it.  The forges' URLs of
# xmlsniff are replaced by a scratch clone of this tree, tagged as the
# snippets name it.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

# git_env DIR: git with DIR/home as its home and no configuration of the
# machine's, committing as "test".
git_env() {
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY
	export HOME="$1/home" GIT_CONFIG_NOSYSTEM=1
	export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.org
	export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.org
	mkdir -p "$HOME"
}

# The scratch repository of this tree (hook_repo) is made once for the
# file's tests, which only clone it; where setup() would skip, it is not.
setup_file() {
	python3 -c 'import yaml' 2> /dev/null && command -v git > /dev/null &&
	    git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	    return 0
	git_env "$BATS_FILE_TMPDIR"
	hook_repo "$BATS_FILE_TMPDIR"
	export VERSION HOOKS
}

setup() {
	python3 -c 'import yaml' 2> /dev/null ||
	    skip "python3 with PyYAML is needed to read the YAML snippets"
	command -v git > /dev/null || skip "git is not installed"
	git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	    skip "the source tree is not a Git working tree"
	git_env "$BATS_TEST_TMPDIR"
	cd "$BATS_TEST_TMPDIR" || return 1
	# The user's repository, as checked out.
	git init -q repo
	mkdir repo/docs
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\351</a>\n' \
	    > repo/docs/bad.xml
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<a/>\n' \
	    > repo/docs/good.xml
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a/>\n' \
	    > repo/docs/latin1.xml
}

# snippet N: the Nth indented block (from 1) of the README's "Use in CI"
# section, without its indent.
snippet() {
	awk -v want="$1" '
	/^Use in CI$/ { on = 1; getline; next }
	on && /^---/ { exit }	# the next section
	on && /^    / {
		if (!inb) { n++; inb = 1 }
		if (n == want) print substr($0, 5)
		next
	}
	on && !/^$/ { inb = 0 }' "$TOP/README"
}

# hook_repo DIR [source]: a scratch repository of this tree (tracked and
# untracked files, and without "source" the built xmlsniff, so that the
# hooks need not build it), committed and tagged vVERSION; its path,
# DIR/xmlsniff.git, in $HOOKS.  setup_file makes the one with xmlsniff.
hook_repo() {
	VERSION=$(make -s --no-print-directory -C "$TOP" print-version)
	HOOKS="$1/xmlsniff.git"
	mkdir "$HOOKS"
	(cd "$TOP" && git ls-files -co --exclude-standard -z |
	    xargs -0 tar -cf -) | tar -xf - -C "$HOOKS"
	git -C "$HOOKS" init -q
	git -C "$HOOKS" add -A
	if [ "${2:-}" != source ]; then
		cp "$XMLSNIFF" "$HOOKS/xmlsniff"
		git -C "$HOOKS" add -f xmlsniff
	fi
	git -C "$HOOKS" commit -q -m "xmlsniff $VERSION"
	git -C "$HOOKS" tag "v$VERSION"
}

@test "README: the Use in CI section has the workflow, the pre-commit and GitLab configurations, a shell line, an output" {
	run snippet 1
	assert_line --index 0 '# .github/workflows/xml.yml'
	run snippet 2
	assert_line --index 0 '# .pre-commit-config.yaml'
	run snippet 3
	assert_line --index 0 '# .gitlab-ci.yml'
	run snippet 4
	assert_output --regexp '^xmlsniff '
	run snippet 5
	assert_output --regexp '^[^ ]+:[0-9]+:[0-9]+: (error|warning): '
	# Near the top: before scaling out and the pointers.
	run grep -n -e '^Use in CI$' -e '^Scaling out$' \
	    -e '^Where the rest is$' "$TOP/README"
	assert_line --index 0 --regexp ':Use in CI$'
	[ "${#lines[@]}" -eq 3 ]
}

@test "README: the shell line fails on the bad file with the very output shown" {
	snippet 4 > line.sh
	snippet 5 > shown
	mkdir bin
	ln -s "$XMLSNIFF" bin/xmlsniff
	cd repo
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run_apart sh ../line.sh
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "$(cat ../shown)"
}

@test "README: the GitHub workflow, its xmlsniff step run through action.yml as a runner would" {
	snippet 1 > workflow.yml
	# The action's folder is the checkout of the repository the step's
	# uses: names, at its tag.
	run python3 -c 'import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
steps = [s for j in w["jobs"].values() for s in j["steps"]]
x = [s for s in steps if "/xmlsniff@" in s.get("uses", "")]
assert len(x) == 1, x
print(x[0]["uses"])' workflow.yml
	assert_success
	assert_output "xmlsniff/xmlsniff@v$VERSION"
	git clone -q --branch "v$VERSION" "$HOOKS" action 2> /dev/null
	# Each step of action.yml: its env with ${{ inputs.X }} from the
	# step's with: (else the input's default), run by bash -e.
	python3 - workflow.yml "$BATS_TEST_TMPDIR/action/action.yml" <<'EOF' > steps.sh
import re, shlex, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
step = [s for j in w["jobs"].values() for s in j["steps"]
        if "/xmlsniff@" in s.get("uses", "")][0]
a = yaml.safe_load(open(sys.argv[2]))
inputs = {k: str(v.get("default", "")) for k, v in a["inputs"].items()}
inputs.update({k: str(v) for k, v in (step.get("with") or {}).items()})
def expand(v):
    return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}",
                  lambda m: inputs.get(m.group(1), ""), str(v))
for i, s in enumerate(a["runs"]["steps"]):
    if "run" not in s:
        continue
    env = " ".join("%s=%s" % (k, shlex.quote(expand(v)))
                   for k, v in (s.get("env") or {}).items())
    print("%s bash -e -c %s || exit" % (env, shlex.quote(s["run"])))
EOF
	cd repo
	export GITHUB_ACTION_PATH="$BATS_TEST_TMPDIR/action"
	export RUNNER_TEMP="$BATS_TEST_TMPDIR" GITHUB_WORKSPACE="$PWD"
	export GITHUB_OUTPUT="$BATS_TEST_TMPDIR/output"
	export GITHUB_STEP_SUMMARY="$BATS_TEST_TMPDIR/summary"
	: > "$GITHUB_OUTPUT"
	: > "$GITHUB_STEP_SUMMARY"
	run_apart bash ../steps.sh
	assert_failure 1
	assert_line --regexp '^::error file=(\./)?docs/bad\.xml,line=2,col=7,title=illegal-sequence::bytes E9 are not valid in UTF-8'
	assert_line --regexp '^::error file=(\./)?docs/latin1\.xml,line=1,col=1,title=encoding-not-allowed::ISO-8859-1 is not an allowed encoding \(UTF-8\)'
	refute_output --partial good.xml
}

@test "README: the pre-commit configuration, run by pre-commit on a commit's files" {
	command -v pre-commit > /dev/null ||
	    skip "pre-commit is not installed (apt-get install pre-commit)"
	export PRE_COMMIT_HOME="$BATS_TEST_TMPDIR/pre-commit"
	snippet 2 > config.yml
	run grep -c "repo: https://github.com/xmlsniff/xmlsniff\$" config.yml
	assert_output 1
	run grep -c "rev: v$VERSION\$" config.yml
	assert_output 1
	# The forge's URL is this tree's scratch clone, at the same tag.
	sed "s|repo: https://github.com/xmlsniff/xmlsniff\$|repo: $HOOKS|" \
	    config.yml > repo/.pre-commit-config.yaml
	cd repo
	git add -A
	run pre-commit run --all-files
	assert_failure 1
	assert_output --regexp 'xmlsniff \(XML encodings and labels\)\.+Failed'
	assert_output --partial 'docs/bad.xml:2:7: error: bytes E9 are not valid in UTF-8'
	assert_output --partial 'docs/latin1.xml:1:1: error: ISO-8859-1 is not an allowed encoding (UTF-8)'
	refute_output --partial 'good.xml'
	git rm -qf docs/bad.xml docs/latin1.xml
	run pre-commit run --all-files
	assert_success
	assert_output --regexp 'xmlsniff \(XML encodings and labels\)\.+Passed'
}

# gitlab_job [build]: the job of the README's .gitlab-ci.yml, as GitLab
# runs it: ci/gitlab-ci.yml (which the include: remote: names, at the
# tag) with the snippet's variables over its own, each script line in
# one bash.  The image's package installation (apt-get) is this machine's
# own; the clone goes to the scratch directory, not /tmp/xmlsniff.
# Without "build" the clone and build are already done: the scratch
# clone holds the built xmlsniff.
gitlab_job() {
	snippet 3 > gitlab.yml
	[ -z "${1:-}" ] || hook_repo "$BATS_TEST_TMPDIR" source
	python3 - gitlab.yml "$HOOKS" "$VERSION" "$BATS_TEST_TMPDIR/clone" \
	    "${1:-}" <<'EOF' > job.sh
import shlex, sys, yaml
hooks, version, clone, build = sys.argv[2:]
mine = yaml.safe_load(open(sys.argv[1]))
url = mine["include"][0]["remote"]
tail = "/v%s/ci/gitlab-ci.yml" % version
assert url.endswith(tail), url
inc = yaml.safe_load(open(hooks + "/ci/gitlab-ci.yml"))
var = dict(inc.get("variables") or {})
var.update(mine.get("variables") or {})
assert var["XMLSNIFF_GIT"] == "https://github.com/xmlsniff/xmlsniff", var
assert var["XMLSNIFF_REF"] == "v" + version, var
var["XMLSNIFF_GIT"] = hooks
for k, v in var.items():
    print("export %s=%s" % (k, shlex.quote(str(v))))
for line in inc["xmlsniff"]["script"]:
    if line.startswith("apt-get"):
        continue
    if not build and ("git clone" in line or "make -C" in line):
        continue
    print(line.replace("/tmp/xmlsniff", clone) + " || exit")
EOF
	[ -n "${1:-}" ] || git clone -q "$HOOKS" clone
}

@test "README: the GitLab include, its job run as the runner would, with the clone already built" {
	gitlab_job
	cd repo
	run_apart bash -e ../job.sh
	assert_failure 1
	run python3 -c 'import json, sys
for i in json.load(open("gl-code-quality-report.json")):
    print(i["check_name"], i["severity"], i["location"]["path"].lstrip("./"))' 
	assert_success
	assert_output 'illegal-sequence major docs/bad.xml
encoding-not-allowed major docs/latin1.xml'
}

# bats test_tags=slow
@test "README: the GitLab include, its job run as the runner would, cloning and building xmlsniff" {
	gitlab_job build
	cd repo
	run_apart bash -e ../job.sh
	assert_failure 1
	[ -x "$BATS_TEST_TMPDIR/clone/xmlsniff" ]
	grep -q '"check_name":"illegal-sequence"' gl-code-quality-report.json
}

# --- the two commands at the top ---------------------------------------

# command N: the README's Nth command (the first indented block, before
# any section), without its indent.
command_n() {
	awk '/^[A-Za-z]/ && prev ~ /^[-=]+$/ && seen { exit }
	    { prev = $0 }
	    /^    S=/ { seen = 1; print substr($0, 5) }' "$TOP/README" |
	    sed -n "${1}p"
}

# shown_examples: the output the README shows for ./xmlsniff examples/*.xml.
shown_examples() {
	awk '/^    \$ \.\/xmlsniff examples\/\*\.xml$/ { on = 1; next }
	    on && /^    \$ / { exit }
	    on && /^    / { print substr($0, 5); next }
	    on { exit }' "$TOP/README"
}

# shims DIR: a sudo that runs its arguments, an apt-get that installs
# nothing but fails for a package that is not installed here, an npm
# whose install -g fails for a package npm has not installed globally,
# and (with "make") a make that records its arguments.
shims() {
	mkdir -p "$1"
	printf '#!/bin/sh\nexec "$@"\n' > "$1/sudo"
	cat > "$1/apt-get" <<'SH'
#!/bin/sh
# apt-get for the README's commands: nothing is installed, every package
# named must already be.
[ "$1" = update ] && exit 0
[ "$1" = install ] || { echo "apt-get $*: not install or update" >&2; exit 100; }
shift
for p in "$@"; do
	case $p in -*) continue ;; esac
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
	    grep -q 'install ok installed' ||
	    { echo "apt-get: $p is not installed here" >&2; exit 100; }
done
SH
	local npm
	npm=$(command -v npm) || npm=/nonexistent
	cat > "$1/npm" <<SH
#!/bin/sh
[ "\$1 \$2" = "install -g" ] || { echo "npm \$*: not install -g" >&2; exit 1; }
"$npm" ls -g --depth=0 "\$3" > /dev/null 2>&1 ||
    { echo "npm: \$3 is not installed globally here" >&2; exit 1; }
SH
	if [ "${2:-}" = make ]; then
		printf '#!/bin/sh\necho "$*" >> "%s/make.args"\n' "$1" > "$1/make"
	fi
	chmod +x "$1"/*
}

@test "README: the two commands come right after the title's paragraph" {
	run command_n 1
	assert_output --regexp '&& make && \./xmlsniff examples/\*\.xml$'
	run command_n 2
	assert_output --regexp '&& make check$'
	run grep -n -m 1 '^    S=' "$TOP/README"
	[ "${output%%:*}" -lt 20 ]
}

@test "README: the first command, here: its packages are installed, make builds, and the output is the one shown" {
	command -v dpkg-query > /dev/null || skip "not a Debian system (no dpkg-query)"
	shims "$BATS_TEST_TMPDIR/bin"
	command_n 1 > cmd.sh
	shown_examples > shown
	[ "$(wc -l < shown)" -ge 8 ]
	cd "$TOP"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run bash "$BATS_TEST_TMPDIR/cmd.sh" 3>&-
	assert_success
	tail -n "$(wc -l < "$BATS_TEST_TMPDIR/shown")" <<< "$output" > "$BATS_TEST_TMPDIR/got"
	run diff "$BATS_TEST_TMPDIR/shown" "$BATS_TEST_TMPDIR/got"
	assert_success
}

# bats test_tags=slow
@test "README: the first command in a fresh copy of the tree builds xmlsniff and prints the output shown" {
	command -v dpkg-query > /dev/null || skip "not a Debian system (no dpkg-query)"
	shims "$BATS_TEST_TMPDIR/bin"
	command_n 1 > cmd.sh
	shown_examples > shown
	mkdir fresh
	(cd "$TOP" && git ls-files -co --exclude-standard -z |
	    xargs -0 tar -cf -) | tar -xf - -C fresh
	[ ! -e fresh/xmlsniff ]
	cd fresh
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run bash ../cmd.sh 3>&-
	assert_success
	[ -x xmlsniff ]
	tail -n "$(wc -l < ../shown)" <<< "$output" > ../got
	run diff ../shown ../got
	assert_success
}

@test "README: the test command: its packages are installed here, then make check" {
	command -v dpkg-query > /dev/null || skip "not a Debian system (no dpkg-query)"
	shims "$BATS_TEST_TMPDIR/bin" make
	command_n 2 > cmd.sh
	cd "$TOP"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run bash "$BATS_TEST_TMPDIR/cmd.sh"
	assert_success
	run cat "$BATS_TEST_TMPDIR/bin/make.args"
	assert_output check
	run grep -c '^check: ' "$TOP/Makefile"
	assert_output 1
}

#!/usr/bin/env bats
# --format=github and GitHub's limits (xmlsniff(1), Report formats): the
# errors first, the notice when more than 10 errors or 10 warnings would
# be annotated, and the Markdown summary of $GITHUB_STEP_SUMMARY.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	unset GITHUB_STEP_SUMMARY GITHUB_SERVER_URL GITHUB_REPOSITORY GITHUB_SHA
	# w.xml: a warning (utf8-bom at 1:1); e.xml: an error
	# (illegal-sequence at 1:4).
	printf '\357\273\277<a/>' > w.xml
	printf '<a>\377</a>' > e.xml
	printf '<a/>' > ok.xml
}

# many N KIND: files m/KIND-1.xml .. m/KIND-N.xml, KIND w or e as above
# (the shell's own printf: no process a file).
many() {
	local i
	mkdir -p m
	for ((i = 1; i <= $1; i++)); do
		if [ "$2" = w ]; then
			printf '\357\273\277<a/>' > "m/w-$i.xml"
		else
			printf '<a>\377</a>' > "m/e-$i.xml"
		fi
	done
}

@test "github: errors first, then warnings, each in the order of the inputs" {
	local w
	w=$("$XMLSNIFF" --format=github w.xml)
	xs --format=github w.xml e.xml nosuch.xml ok.xml
	assert_failure 2
	[ -z "$stderr" ]
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 --regexp '^::error file=e\.xml,line=1,col=4,title=illegal-sequence::bytes FF '
	assert_line --index 1 '::error file=nosuch.xml::No such file or directory'
	assert_line --index 2 "$w"
	assert_line --index 2 --regexp '^::warning file=w\.xml,line=1,col=1,title=utf8-bom::UTF-8 with a BOM'

}

@test "github: -j gives the same order as one process" {
	many 3 w
	many 3 e
	xs --format=github -j1 m/w-1.xml m/e-1.xml m/w-2.xml m/e-2.xml m/w-3.xml m/e-3.xml
	local one="$output"
	xs --format=github -j3 m/w-1.xml m/e-1.xml m/w-2.xml m/e-2.xml m/w-3.xml m/e-3.xml
	assert_success
	[ "$output" = "$one" ]
	assert_line --index 0 --regexp '^::error file=m/e-1\.xml,'
	assert_line --index 2 --regexp '^::error file=m/e-3\.xml,'
	assert_line --index 3 --regexp '^::warning file=m/w-1\.xml,'
}

@test "github: 10 errors and 10 warnings all show; no notice" {
	many 10 w
	many 10 e
	xs --format=github -r m
	assert_success
	assert_equal "${#lines[@]}" 20
	refute_output --partial '::notice'
}

@test "github: 11 errors and 12 warnings: a notice says 1 and 2 will not show" {
	many 12 w
	many 11 e
	xs --format=github -r --strict m
	assert_failure 1
	assert_equal "${#lines[@]}" 24
	assert_line --index 10 --regexp '^::error file=m/e-9\.xml,'
	assert_line --index 11 --regexp '^::warning file=m/w-1\.xml,'
	assert_line --index 23 '::notice title=xmlsniff::11 errors and 12 warnings; GitHub shows 10 of each as annotations, so 1 error and 2 warnings do not show. This step'"'"'s log lists them all (and the job summary counts them); so does xmlsniff with the same arguments and --format=text.'
}

@test "github: the notice comes before the notes of lists cut by --max-errors" {
	many 11 e
	printf '<a>\377\001\376\001</a>' > cut.xml
	xs --format=github --all --max-errors=1 m/e-*.xml cut.xml
	assert_success
	assert_line --index 13 --regexp '^::notice title=xmlsniff::13 errors and 0 warnings; .* so 3 errors and 0 warnings do not show\.'
	assert_line --index 14 --regexp '^::notice file=cut\.xml::.*--max-errors'
	assert_equal "${#lines[@]}" 15
}

@test "github: the step summary of a run with findings, with links" {
	printf '# before\n' > summary.md
	mkdir -p 'd|x'
	cp w.xml 'd|x/w [1].xml'
	GITHUB_STEP_SUMMARY=summary.md GITHUB_SERVER_URL=https://github.example \
	    GITHUB_REPOSITORY=o/r GITHUB_SHA=0123abc \
	    run_apart "$XMLSNIFF" --format=github e.xml 'd|x/w [1].xml' ok.xml nosuch.xml
	assert_failure 2
	[ -z "$stderr" ]
	assert_equal "${#lines[@]}" 3
	m=$("$XMLSNIFF" --format=github e.xml | sed 's/^.*title=illegal-sequence:://')
	cat > expected <<EOF
# before
### xmlsniff

3 files checked: 2 errors, 1 warning.
1 input could not be read (counted as errors, code unreadable).

| Code | Severity | Occurrences | Files |
| --- | --- | ---: | ---: |
| illegal-sequence | error | 1 | 1 |
| utf8-bom | warning | 1 | 1 |
| unreadable | error | 1 | 1 |

The findings, errors first:

| Where | Severity | Code | Message |
| --- | --- | --- | --- |
| [e.xml:1](https://github.example/o/r/blob/0123abc/e.xml#L1) | error | illegal-sequence | $m |
| [nosuch.xml](https://github.example/o/r/blob/0123abc/nosuch.xml) | error | unreadable | No such file or directory |
| [d\\|x/w \\[1\\].xml:1](https://github.example/o/r/blob/0123abc/d%7Cx/w%20%5B1%5D.xml#L1) | warning | utf8-bom | UTF-8 with a BOM: XML 1.0 section 4.3.3 allows it, but Unicode neither requires nor recommends one for UTF-8, and many consumers mishandle it ("Content is not allowed in prolog"); strip it with --transcode-to=UTF-8 |

EOF
	diff -u expected summary.md
}

@test "github: the step summary of a clean run, and without the link variables" {
	GITHUB_STEP_SUMMARY=summary.md run_apart "$XMLSNIFF" --format=github ok.xml
	assert_success
	[ -z "$output" ]
	[ -z "$stderr" ]
	assert_equal "$(cat summary.md)" $'### xmlsniff\n\n1 file checked: no problems found.'
	GITHUB_STEP_SUMMARY=s2.md run "$XMLSNIFF" --format=github -j2 w.xml ok.xml
	assert_success
	grep -qx '2 files checked: 0 errors, 1 warning\.' s2.md
	grep -qx '| w.xml:1 | warning | utf8-bom | .* |' s2.md
	# Standard input is named so, with no link.
	GITHUB_STEP_SUMMARY=s3.md GITHUB_SERVER_URL=https://github.example \
	    GITHUB_REPOSITORY=o/r GITHUB_SHA=0123abc \
	    run "$XMLSNIFF" --format=github - < w.xml
	assert_success
	grep -qx '| standard input:1 | warning | utf8-bom | .* |' s3.md
}

@test "github: the summary of more findings than its table has rows" {
	many 12 w
	many 11 e
	GITHUB_STEP_SUMMARY=summary.md run "$XMLSNIFF" --format=github -r m
	assert_success
	grep -qx '23 files checked: 11 errors, 12 warnings\.' summary.md
	grep -qx 'The first 20 of 23 findings, errors first:' summary.md
	[ "$(grep -c '^| .*\.xml:1 | ' summary.md)" -eq 20 ]
	grep -qx "GitHub shows 10 error and 10 warning annotations a step: 1 error and 2 warnings are only in the step's log\\." summary.md
}

@test "github: a summary that cannot be written: a message, exit 2, the commands still written" {
	mkdir dir
	GITHUB_STEP_SUMMARY=dir run_apart "$XMLSNIFF" --format=github w.xml
	assert_failure 2
	assert_output --regexp '^::warning file=w\.xml,'
	[ "$stderr" = 'xmlsniff: GITHUB_STEP_SUMMARY: dir: Is a directory' ]
	# Empty, it is not set: no summary, no message.
	GITHUB_STEP_SUMMARY= run_apart "$XMLSNIFF" --format=github w.xml
	assert_success
	[ -z "$stderr" ]
}

@test "github: other formats write no step summary" {
	GITHUB_STEP_SUMMARY=summary.md run "$XMLSNIFF" --format=sarif w.xml
	assert_success
	[ ! -e summary.md ]
}

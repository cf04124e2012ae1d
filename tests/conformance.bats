#!/usr/bin/env bats
# The external encoding corpus, when it is there: tests/conformance runs
# xmlsniff over every row of its manifest.  A clone without the corpus
# skips this test.
load helper

@test "conformance: the external corpus gives the expected encodings and outcomes" {
	local corpus="${CORPUS:-$(dirname "$TOP")/shared/corpus}"

	if [ ! -f "$corpus/manifest.tsv" ]; then
		skip "corpus not found at $corpus"
	fi
	CORPUS="$corpus" XMLSNIFF="$XMLSNIFF" run "$BATS_TEST_DIRNAME/conformance"
	echo "# conformance: ${lines[${#lines[@]} - 1]}" >&3
	assert_success
	assert_line --regexp '^[0-9]+ passed, 0 failed(, [0-9]+ skipped)?$'
}

#!/usr/bin/env bats
load helper

@test "smoke: UTF-8 default" {
	printf '<a/>' > "$BATS_TEST_TMPDIR/a.xml"
	xs "$BATS_TEST_TMPDIR/a.xml"
	assert_success
	assert_output "$BATS_TEST_TMPDIR/a.xml: UTF-8 (default), no declaration"
	[ -z "$stderr" ]
}

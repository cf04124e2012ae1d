#!/usr/bin/env bats
# The generated encoding table: src/lib/sniff/enctab.h is what tools/gen-enctab.py
# makes of its committed sources (make check-enctab), the generator asks
# nothing of the machine's iconv, and it refuses a family table that names
# no registry entry or no family.
load helper

setup() {
	command -v python3 > /dev/null ||
	    skip "python3 is not installed (the generator needs it)"
	command -v make > /dev/null || skip "make is not installed"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# copy_tree: the Makefile, the generator, its sources and src/lib/sniff/enctab.h in
# the scratch folder, for the tests that change one of them.
copy_tree() {
	mkdir -p tree/src/lib/sniff tree/data tree/tools
	cp "$TOP/Makefile" tree/
	cp "$TOP/data/iana-character-sets.csv" tree/data/
	cp "$TOP/tools/gen-enctab.py" "$TOP/tools/families.tsv" \
	    "$TOP/tools/iconv-names.tsv" "$TOP/tools/check-gen.sh" tree/tools/
	cp "$TOP/src/lib/sniff/enctab.h" tree/src/lib/sniff/
}

@test "make check-enctab: src/lib/sniff/enctab.h is what its sources make" {
	run make -s -C "$TOP" check-enctab
	assert_success
	assert_output "src/lib/sniff/enctab.h is up to date"
}

@test "make check-enctab: a stale src/lib/sniff/enctab.h fails, showing the difference" {
	copy_tree
	# The family of IBM037 as the committed table would have it, had
	# tools/families.tsv lost its line.
	awk '/\{ "IBM037",$/ { f = 1 }
	    f && /ENC_F_EBCDIC/ { sub(/ENC_F_EBCDIC/, "ENC_F_ASCII"); f = 0 }
	    { print }' tree/src/lib/sniff/enctab.h > tree/src/lib/sniff/enctab.h.new
	mv tree/src/lib/sniff/enctab.h.new tree/src/lib/sniff/enctab.h
	run_apart make -s -C tree check-enctab
	assert_failure
	assert_line '-	    ENC_F_ASCII },'
	assert_line '+	    ENC_F_EBCDIC },'
	assert_line --partial '"IBM037\0" "cp037\0"'
	[ "${stderr_lines[0]}" = "src/lib/sniff/enctab.h is out of date: make enctab" ]
}

@test "gen-enctab.py: the same table where Python has no ctypes (no iconv asked)" {
	run python3 -c 'import runpy, sys
sys.modules["ctypes"] = None
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")' \
	    "$TOP/tools/gen-enctab.py" "$TOP/data/iana-character-sets.csv" \
	    "$TOP/tools/families.tsv" "$TOP/tools/iconv-names.tsv"
	assert_success
	[ "$output" = "$(cat "$TOP/src/lib/sniff/enctab.h")" ]
}

@test "gen-enctab.py: a family table line naming no registry entry is refused" {
	copy_tree
	printf 'IBM9999\tEBCDIC\n' >> tree/tools/families.tsv
	run_apart python3 tree/tools/gen-enctab.py \
	    tree/data/iana-character-sets.csv tree/tools/families.tsv \
	    tree/tools/iconv-names.tsv
	assert_failure
	[ -z "$output" ]
	[[ "$stderr" =~ ^tree/tools/families.tsv:[0-9]+:\ no\ registry\ entry\ is\ named\ IBM9999$ ]]
}

@test "gen-enctab.py: an unknown family is refused" {
	copy_tree
	printf 'IBM437\tEBCIDC\n' >> tree/tools/families.tsv
	run_apart python3 tree/tools/gen-enctab.py \
	    tree/data/iana-character-sets.csv tree/tools/families.tsv \
	    tree/tools/iconv-names.tsv
	assert_failure
	[[ "$stderr" =~ ^tree/tools/families.tsv:[0-9]+:\ unknown\ family\ EBCIDC$ ]]
}

@test "families: IBM00924 is EBCDIC, CP51932, CP50220 and HZ-GB-2312 write <?xml in ASCII" {
	# An EBCDIC label read from ASCII bytes is refuted by the pattern
	# (XML 1.0 Appendix F); the others are not, whatever iconv has.
	printf '<?xml version="1.0" encoding="IBM00924"?><a/>' > e.xml
	run "$XMLSNIFF" e.xml
	assert_output --partial 'e.xml:1:31: error: declared "IBM00924" (an EBCDIC encoding) but the bytes are ASCII-compatible'
	for e in CP51932 CP50220 HZ-GB-2312; do
		printf '<?xml version="1.0" encoding="%s"?><a/>' "$e" > a.xml
		run "$XMLSNIFF" a.xml
		refute_output --partial '[decl-mismatch]'
		assert_output --partial "a.xml: $e (declaration)"
	done
}

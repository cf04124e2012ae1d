#!/usr/bin/env bats
# Per-file policy (xmlsniff(1), Per-file policy): the sections [GLOB] of
# .xmlsniffrc, the marker <!-- xmlsniff: ... --> in a file, and their
# precedence: command line, marker, the most specific section, the
# general options.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export HOME="$BATS_TEST_TMPDIR/home" GIT_CONFIG_NOSYSTEM=1
	mkdir -p home w
	cd w || return 1
	# The top of a work tree: the search for .xmlsniffrc stops here.
	git init -q . 2> /dev/null || mkdir .git
}

BOM='\357\273\277'
DECL='<?xml version="1.0" encoding="UTF-8"?>'
# The utf8-bom warning's text, as each line of the text format ends.
WARN='warning: UTF-8 with a BOM: XML 1.0 section 4.3.3 allows it, but Unicode neither requires nor recommends one for UTF-8, and many consumers mishandle it ("Content is not allowed in prolog"); strip it with --transcode-to=UTF-8 [utf8-bom]'
ERR=${WARN/warning:/error:}

@test "a [GLOB] section without a / applies to the files of that name in any directory" {
	mkdir -p docs/img
	put docs/img/i.svg "$BOM<svg/>"
	put docs/a.xml "$BOM<a/>"
	printf -- '--strict\n--error=utf8-bom\n\n[*.svg]\nignore=utf8-bom\n' \
	    > .xmlsniffrc
	xs docs/img/i.svg docs/a.xml
	assert_failure 1
	assert_output "docs/img/i.svg: UTF-8 (BOM), no declaration
docs/a.xml: UTF-8 (BOM), no declaration, 1 error"
	assert_equal "$stderr" "docs/a.xml:1:1: $ERR"
}

@test "a section with a / matches the path from the configuration's directory, however the file is named" {
	mkdir -p legacy/sub other
	put legacy/sub/l.xml "$BOM<a/>"
	put other/o.xml "$BOM<a/>"
	printf '[legacy/**]\nerror = utf8-bom\n' > .xmlsniffrc
	cd other
	# From a subdirectory, through .. and ./ : still legacy/sub/l.xml.
	xs ./../legacy/./sub/../sub/l.xml o.xml
	assert_success
	assert_output "./../legacy/./sub/../sub/l.xml: UTF-8 (BOM), no declaration, 1 error
o.xml: UTF-8 (BOM), no declaration, 1 warning"
	assert_equal "$stderr" "./../legacy/./sub/../sub/l.xml:1:1: $ERR
o.xml:1:1: $WARN"
}

@test "a section ending in / names directories: every file below them, at any depth" {
	mkdir -p x/generated/y legacy/z sub/legacy
	for f in x/generated/y/g.xml legacy/z/l.xml sub/legacy/s.xml top.xml; do
		put "$f" "$BOM<a/>"
	done
	printf '[generated/]\nerror=utf8-bom\n[/legacy/]\nerror=utf8-bom\n' \
	    > .xmlsniffrc
	xs -q x/generated/y/g.xml legacy/z/l.xml sub/legacy/s.xml top.xml
	assert_success
	assert_equal "$stderr" "x/generated/y/g.xml:1:1: $ERR
legacy/z/l.xml:1:1: $ERR
sub/legacy/s.xml:1:1: $WARN
top.xml:1:1: $WARN"
}

@test "where sections disagree, the most specific wins: a path over a name, then more literal characters, then the later" {
	mkdir -p a/b
	for f in a/b/x.xml a/y.xml z.xml w.xsd; do put "$f" "$BOM<a/>"; done
	# x.xml: [a/b/*] beats [*.xml] although it comes first (a path);
	# y.xml: [a/*.xml] (5 literal characters) beats [a/*] (2);
	# w.xsd: two name globs of 4 literal characters, the later wins.
	printf '%s\n' '[a/b/*]' 'ignore=utf8-bom' '[*.xml]' 'error=utf8-bom' \
	    '[a/*.xml]' 'ignore=utf8-bom' '[a/*]' 'error=utf8-bom' \
	    '[*.xsd]' 'ignore=utf8-bom' '[w.xs?]' 'error=utf8-bom' > .xmlsniffrc
	xs -q a/b/x.xml a/y.xml z.xml w.xsd
	assert_success
	assert_output ""
	assert_equal "$stderr" "z.xml:1:1: $ERR
w.xsd:1:1: $ERR"
}

@test "sections add up: each says what it says, the more specific only where they disagree" {
	mkdir t
	put t/a.xml "$BOM<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>"
	printf '[*.xml]\nignore=utf8-bom\n[t/*]\nerror=decl-mismatch\n' > .xmlsniffrc
	xs --json t/a.xml
	assert_success
	assert_output --partial '"errors":1,"warnings":0,'
	assert_output --partial '"code":"decl-mismatch"'
	refute_output --partial 'utf8-bom'
}

@test "a section's allow-encoding replaces the general list, and --fix converts to its first" {
	mkdir legacy
	put legacy/l.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>'
	put new.xml '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>'
	printf -- '--allow-encoding=UTF-8\n[legacy/*]\nallow-encoding=ISO-8859-1\n' > .xmlsniffrc
	xs -q legacy/l.xml new.xml
	assert_success
	assert_output ""
	assert_equal "$stderr" 'new.xml:1:1: error: ISO-8859-1 is not an allowed encoding (UTF-8); convert it with "xmlsniff --transcode-to=UTF-8 --in-place FILE" or "xmlsniff --fix --allow-encoding=UTF-8 FILE" [encoding-not-allowed]'
	# The general UTF-8 is not added to the section's list: legacy/
	# files are fixed into ISO-8859-1, which they are in already.
	xs --fix legacy/l.xml
	assert_success
	assert_equal "$(hexof legacy/l.xml)" "$(printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>' | od -An -v -tx1 | tr -d ' \n')"
}

@test "the marker sets the policy of its file alone" {
	put m.xml "$BOM$DECL\n<!-- xmlsniff: ignore=utf8-bom -->\n<a/>"
	put n.xml "$BOM$DECL\n<a/>"
	xs --strict --error=decl-mismatch m.xml n.xml
	assert_success
	assert_output 'm.xml: UTF-8 (BOM), declared "UTF-8"
n.xml: UTF-8 (BOM), declared "UTF-8", 1 warning'
	assert_equal "$stderr" "n.xml:1:1: $WARN"
}

@test "precedence: the command line over the marker, the marker over sections, sections over the general options" {
	put a.xml "$BOM$DECL<!-- xmlsniff: ignore=utf8-bom allow-encoding=UTF-16 -->\n<a/>"
	put b.xml "$BOM<a/>"
	printf -- '--error=utf8-bom\n--allow-encoding=ISO-8859-1\n[*.xml]\nignore=utf8-bom\nallow-encoding=UTF-8\n' > .xmlsniffrc
	# a.xml: its marker (UTF-16 only) beats the section; b.xml: the
	# section beats the general options.
	xs -q a.xml b.xml
	assert_success
	assert_equal "$stderr" 'a.xml:1:1: error: UTF-8 is not an allowed encoding (UTF-16); convert it with "xmlsniff --transcode-to=UTF-16 --in-place FILE" or "xmlsniff --fix --allow-encoding=UTF-16 FILE" [encoding-not-allowed]'
	# The command line beats the marker and the section, code by code
	# and for the list of encodings.
	xs -q --error=utf8-bom --allow-encoding=utf8 a.xml b.xml
	assert_success
	assert_equal "$stderr" "a.xml:1:1: $ERR
b.xml:1:1: $ERR"
}

@test "the marker is read in UTF-16, after the declaration, and not after the first element" {
	printf '\377\376' > u.xml
	printf '<?xml version="1.0" encoding="UTF-16"?>\n<!-- xmlsniff: allow-encoding=UTF-8 -->\n<a>\351</a>' |
	    iconv -f ISO-8859-1 -t UTF-16LE >> u.xml
	put late.xml "$DECL<a><!-- xmlsniff: allow-encoding=UTF-16 --></a>"
	xs -q u.xml late.xml
	assert_success
	assert_equal "$stderr" 'u.xml:1:1: error: UTF-16LE is not an allowed encoding (UTF-8); convert it with "xmlsniff --transcode-to=UTF-8 --in-place FILE" or "xmlsniff --fix --allow-encoding=UTF-8 FILE" [encoding-not-allowed]'
}

@test "a marker before the XML declaration is not read; the declaration is then misplaced" {
	put early.xml "<!-- xmlsniff: ignore=decl-not-at-start allow-encoding=UTF-16 -->$DECL<a/>"
	xs -q early.xml
	assert_success
	assert_equal "$stderr" 'early.xml:1:66: error: the XML declaration comes after a comment or processing instruction; it must be the very first thing in the entity (after the BOM, if any): remove what precedes it [decl-not-at-start]'
}

@test "the marker changes nothing an XML parser reports but the comment" {
	command -v xmllint > /dev/null || skip "xmllint is not installed (libxml2-utils)"
	put plain.xml "$DECL\n<a x=\"1\">t</a>\n"
	put marked.xml "$DECL\n<!-- xmlsniff: ignore=mojibake,utf8-bom error=missing-decl allow-encoding=UTF-8,UTF-16 -->\n<a x=\"1\">t</a>\n"
	run xmllint --noout marked.xml
	assert_success
	assert_output ""
	# Canonical XML without comments: the same document.
	python3 -c 'import xml.etree.ElementTree' 2> /dev/null ||
	    skip "python3 is not installed"
	c14n='import sys, xml.etree.ElementTree as E
print(E.canonicalize(from_file=sys.argv[1]))'
	run python3 -c "$c14n" marked.xml
	assert_success
	assert_output '<a x="1">t</a>'
	assert_equal "$output" "$(python3 -c "$c14n" plain.xml)"
}

@test "a marker that cannot be read: that file is reported as unchecked, the others are checked, exit 2" {
	put bad.xml "$DECL\n\n<!-- xmlsniff: ignore=utf8bom -->\n<a/>"
	put key.xml "$DECL<!-- xmlsniff: strict -->\n<a/>"
	put good.xml "$BOM<a/>"
	xs bad.xml key.xml good.xml
	assert_failure 2
	assert_output 'good.xml: UTF-8 (BOM), no declaration, 1 warning'
	assert_equal "$stderr" "xmlsniff: bad.xml: the marker on line 3: ignore: \"utf8bom\" is not a diagnostic code; did you mean utf8-bom?
xmlsniff: key.xml: the marker on line 1: \"strict\" is not KEY=VALUE (ignore=, error= or allow-encoding=)
good.xml:1:1: $WARN"
	xs --format=github bad.xml
	assert_failure 2
	assert_output --partial '::error file=bad.xml::the marker on line 3: ignore: '
}

# rc_fails RC MESSAGE: xmlsniff --config=RC a.xml exits 2 with MESSAGE
# alone on standard error, and nothing on standard output.
rc_fails() {
	xs --config="$1" a.xml
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "$2"
}

@test "bad sections are usage errors naming the file and the line" {
	printf '<a/>' > a.xml
	printf -- '--strict\n[*.xml\n' > rc1
	printf -- '[*.xml]\n--strict\n' > rc2
	printf -- '[*.xml]\nstrict=1\n' > rc3
	printf -- '# x\n[*.xml]\nignore = nope\n' > rc4
	printf -- '[*.xml]\nallow-encoding=no-such-code\n' > rc5
	rc_fails rc1 'xmlsniff: rc1:2: "[*.xml": a section begins with a line [GLOB]'
	rc_fails rc2 'xmlsniff: rc2:2: "--strict": a section holds ignore=CODES, error=CODES and allow-encoding=LIST lines; the general options go before the first [GLOB]'
	rc_fails rc3 "xmlsniff: rc3:2: \"strict\": only ignore, error and allow-encoding set a file's policy"
	rc_fails rc4 'xmlsniff: rc4:3: ignore: "nope" is not a diagnostic code (see DIAGNOSTICS in xmlsniff(1))'
	rc_fails rc5 "xmlsniff: rc5:2: allow-encoding: \"no-such-code\" is not an encoding that the IANA registry or this system's iconv knows"
}

@test "standard input: no section applies unless --stdin-name names it; its marker does" {
	printf '[*.svg]\nerror=utf8-bom\n' > .xmlsniffrc
	printf "$BOM<a/>" > in
	xs -q - < in
	assert_success
	assert_equal "$stderr" "-:1:1: $WARN"
	xs -q --stdin-name=icons/i.svg < in
	assert_success
	assert_equal "$stderr" "icons/i.svg:1:1: $ERR"
	printf "$BOM$DECL<!-- xmlsniff: ignore=utf8-bom -->\n<a/>" > in
	xs -q --stdin-name=i.svg < in
	assert_success
	assert_equal "$stderr" ""
}

@test "-r with -j2: each worker applies each file's policy, and the CI formats follow it" {
	mkdir -p d/legacy
	put d/a.xml "$BOM<a/>"
	put d/legacy/b.xml "$BOM<a/>"
	put d/c.xml "$BOM$DECL<!-- xmlsniff: error=utf8-bom -->\n<a/>"
	printf '[d/legacy/*]\nerror=utf8-bom\n' > .xmlsniffrc
	xs -r -j2 --format=github d
	assert_success
	assert_line --partial '::warning file=d/a.xml,line=1,col=1,title=utf8-bom::'
	assert_line --partial '::error file=d/c.xml,line=1,col=1,title=utf8-bom::'
	assert_line --partial '::error file=d/legacy/b.xml,line=1,col=1,title=utf8-bom::'
}

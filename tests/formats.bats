#!/usr/bin/env bats
# The report formats of --format (text, json, github, sarif, gitlab,
# checkstyle), how they combine with the other options, and records that
# reach their stream whole.
load helper

# The last tests validate the SARIF logs the others kept in
# BATS_FILE_TMPDIR: this file's tests run one after another.
# The messages of bad.xml's three codes are read once for the file (msg).
setup_file() {
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	command -v python3 > /dev/null || return 0
	cd "$BATS_FILE_TMPDIR" || return 1
	bad_xml
	"$XMLSNIFF" --json bad.xml | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
for x in d["diagnostics"]:
    print(x["code"] + "\t" + x["message"])
' > bad.msgs
}

# bad_xml: a UTF-8 BOM (warning utf8-bom, offset 0), declared Shift_JIS
# (error decl-mismatch, offset 33, 1:31), then FF FF (error
# illegal-sequence, offset 48, 1:46, twice), in bad.xml.
bad_xml() {
	printf '\357\273\277<?xml version="1.0" encoding="Shift_JIS"?><a>\377\377</a>' \
	    > bad.xml
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	bad_xml
	printf '<a/>' > ok.xml
}

need_python() {
	command -v python3 > /dev/null || skip "python3 is not installed"
}

# keep_sarif NAME: keep $output, a SARIF log, for the last two tests of
# this file, which validate every log kept at once (one process each).
keep_sarif() {
	mkdir -p "$BATS_FILE_TMPDIR/sarif"
	printf '%s\n' "$output" > "$BATS_FILE_TMPDIR/sarif/$1.sarif"
}

# msg FILE CODE: the message of CODE for FILE, as --json gives it (for the
# bad.xml of bad_xml, as setup_file found it).
msg() {
	local code m
	if [ "$1" = bad.xml ] && cmp -s bad.xml "$BATS_FILE_TMPDIR/bad.xml" &&
	    [ -f "$BATS_FILE_TMPDIR/bad.msgs" ]; then
		while IFS=$'\t' read -r code m; do
			[ "$code" = "$2" ] && { printf '%s\n' "$m"; return 0; }
		done < "$BATS_FILE_TMPDIR/bad.msgs"
		return 1
	fi
	"$XMLSNIFF" --json "$1" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print(next(x["message"] for x in d["diagnostics"] if x["code"] == sys.argv[1]))
' "$2"
}

# ---------------------------------------------------------------------------
# text and json

@test "--format=text is the default output, on the same streams" {
	xs bad.xml ok.xml
	local out="$output" err="$stderr"
	xs --format=text bad.xml ok.xml
	assert_success
	[ "$output" = "$out" ]
	[ "$stderr" = "$err" ]
	assert_line --index 0 'bad.xml: UTF-8 (BOM), declared "Shift_JIS", 2 errors, 1 warning'
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 3 ]
}

@test "--format=json is --json" {
	xs --json bad.xml ok.xml nosuch.xml
	local out="$output" err="$stderr"
	xs --format=json bad.xml ok.xml nosuch.xml
	assert_failure 2
	[ "$output" = "$out" ]
	[ "$stderr" = "$err" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "--format: an unknown format is a usage error" {
	xs --format=xml ok.xml
	assert_failure 2
	[ -z "$output" ]
	stderr_has 'xmlsniff: --format: "xml" is not text, json, github, sarif, gitlab or checkstyle'
	try_help
}

@test "--format: the last of --format, --json, -i and --mime-encoding wins" {
	xs --format=github --json ok.xml
	assert_output --regexp '^\{"file":"ok.xml",'
	xs --json --format=text ok.xml
	assert_output 'ok.xml: UTF-8 (default), no declaration'
	xs -i --format=checkstyle ok.xml
	assert_line --index 0 '<?xml version="1.0" encoding="UTF-8"?>'
	xs --format=sarif -i ok.xml
	assert_output 'ok.xml: application/xml; charset=utf-8'
	xs --format=gitlab --mime-encoding ok.xml
	assert_output 'ok.xml: utf-8'
}

# ---------------------------------------------------------------------------
# github

@test "github: one workflow command per diagnostic, on standard output, errors first" {
	need_python
	local m1 m2 m3
	m1=$(msg bad.xml utf8-bom)
	m2=$(msg bad.xml decl-mismatch)
	m3=$(msg bad.xml illegal-sequence)
	xs --format=github bad.xml ok.xml
	assert_success
	[ -z "$stderr" ]
	assert_output "::error file=bad.xml,line=1,col=31,title=decl-mismatch::$m2
::error file=bad.xml,line=1,col=46,title=illegal-sequence::$m3 (2 times)
::warning file=bad.xml,line=1,col=1,title=utf8-bom::$m1"
}

@test "github: no per-input line; a clean input prints nothing" {
	xs --format=github ok.xml
	assert_success
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "github: an unreadable input is an error command, exit 2" {
	xs --format=github nosuch.xml ok.xml
	assert_failure 2
	assert_output '::error file=nosuch.xml::No such file or directory'
	[ -z "$stderr" ]
}

@test "github: --strict makes an error exit 1, warnings do not" {
	xs --format=github --strict bad.xml
	assert_failure 1
	[ "${#lines[@]}" -eq 3 ]
	printf '\357\273\277<a/>' > warn.xml
	xs --format=github --strict warn.xml
	assert_success
	assert_output --regexp '^::warning file=warn.xml,line=1,col=1,title=utf8-bom::'
}

@test "github: -q and -b change nothing" {
	xs --format=github bad.xml
	local out="$output"
	xs --format=github -q -b bad.xml
	assert_success
	[ "$output" = "$out" ]
}

@test "github: a name's %, CR, LF, colon and comma are escaped; other bytes visibly" {
	need_python
	local name
	name=$(printf 'we,ird:na%%me x\n\r\377.xml')
	cp ok.xml "$name"
	printf '\357\273\277<a/>' > "$name"
	xs --format=github "$name"
	assert_success
	assert_output --partial '::warning file=we%2Cird%3Ana%25me x%0A%0D\xFF.xml,line=1,col=1,title=utf8-bom::'
	# Undo the escapes as the runner does; the byte FF reads \xFF.
	printf '%s' "$output" | python3 -c '
import re, sys
line = sys.stdin.read()
m = re.match(r"::warning file=([^,:]*),line=1,col=1,title=utf8-bom::", line)
v = m.group(1)
for e, c in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
    v = v.replace(e, c)
assert v == "we,ird:na%me x\n\r\\xFF.xml", repr(v)
'
}

@test "github: a message's % is escaped, its colon and comma are not" {
	xs --format=github --content-type='application/xml; charset="50%,x:y"' ok.xml
	assert_success
	assert_line --partial 'title=unsupported-encoding::charset "50%25,x:y" '
}

@test "github: diagnostics of a transcode to a file" {
	printf '<a>\303\251</a>' > e.xml
	xs --format=github --transcode-to=US-ASCII -o out.xml e.xml
	assert_failure 1
	assert_output --regexp '^::error file=e.xml,line=1,col=4,title=unrepresentable::U\+00E9 '
	[ ! -e out.xml ]
	[ -z "$stderr" ]
}

@test "every format but text is a usage error with a transcode to standard output" {
	local f
	for f in json github sarif gitlab checkstyle; do
		xs --format=$f --transcode-to=UTF-16 ok.xml
		assert_failure 2
		[ -z "$output" ]
		stderr_has 'xmlsniff: -i, --mime-encoding, --json and --format print to standard output, where the transcoded entity goes; use -o FILE'
	done
	xs --format=text --transcode-to=UTF-8 ok.xml
	assert_success
	assert_output '<a/>'
}

# ---------------------------------------------------------------------------
# sarif

@test "sarif: results, a cut list, unreadable inputs, standard input and odd names in one log" {
	mkdir -p 'd i r'
	printf '<a>\001</a>' > 'd i r/odd #?%:.xml'
	xs --format=sarif --all --max-errors=1 bad.xml ok.xml nosuch.xml \
	    'd i r/odd #?%:.xml' ./d\ i\ r/../bad.xml - < ok.xml
	assert_failure 2
	[ -z "$stderr" ]
	keep_sarif many
}

@test "sarif: tool, rules from the table of codes, results, invocation" {
	need_python
	xs --list-codes
	local codes="$output"
	xs --explain=utf8-bom
	local explain="$output"
	xs --version
	local version=${output#xmlsniff }
	xs --format=sarif bad.xml ok.xml
	assert_success
	[ -z "$stderr" ]
	keep_sarif rules
	printf '%s\n' "$output" > log.sarif
	printf '%s\n' "$codes" > codes
	python3 - log.sarif codes "$(msg bad.xml decl-mismatch)" "$explain" \
	    "$version" <<'EOF'
import json, sys
log = json.load(open(sys.argv[1]))
codes = [l.split()[:2] for l in open(sys.argv[2])]
assert log["version"] == "2.1.0"
assert log["$schema"].endswith("/sarif-schema-2.1.0.json")
assert len(log["runs"]) == 1
run = log["runs"][0]
assert run["columnKind"] == "unicodeCodePoints"
d = run["tool"]["driver"]
# The version is the Makefile's, as --version says it.
assert d["name"] == "xmlsniff" and d["version"] == sys.argv[5], d["version"]
assert d["semanticVersion"] == sys.argv[5]
assert d["informationUri"].startswith("https://"), d["informationUri"]
assert [[r["id"], r["defaultConfiguration"]["level"]] for r in d["rules"]] == codes
for r in d["rules"]:
    for k in ("shortDescription", "fullDescription", "help"):
        assert r[k]["text"], (r["id"], k)
    assert r["helpUri"] == d["informationUri"] + "#" + r["id"], r["helpUri"]
    assert "name" not in r
# The full description is what --explain says, unfolded: its meaning,
# clause, example and fix.
bom = next(r for r in d["rules"] if r["id"] == "utf8-bom")
words = lambda t: " ".join(t.replace("Clause:", "").replace("Fix:", "")
                            .replace("Example:", "").split())
ex = sys.argv[4].split("\n", 2)[2]
assert words(bom["fullDescription"]["text"]) == words(ex), (bom, ex)
assert [n["id"] for n in d["notifications"]] == ["unreadable", "max-errors"]
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file:///")
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].endswith("/")
res = run["results"]
assert [(r["ruleId"], r["level"]) for r in res] == [
    ("utf8-bom", "warning"), ("decl-mismatch", "error"),
    ("illegal-sequence", "error")], res
for r in res:
    assert d["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
m = res[1]
assert m["message"]["text"] == sys.argv[3]
loc = m["locations"][0]["physicalLocation"]
assert loc["artifactLocation"] == {"uri": "bad.xml", "uriBaseId": "SRCROOT"}
assert loc["region"] == {"startLine": 1, "startColumn": 31, "byteOffset": 33}
assert res[2]["message"]["text"].endswith(" (2 times)")
assert res[2]["locations"][0]["physicalLocation"]["region"]["byteOffset"] == 48
fps = [r["partialFingerprints"]["xmlsniff/v1"] for r in res]
assert len(set(fps)) == 3 and all(len(f) == 16 for f in fps), fps
inv = run["invocations"]
assert inv == [{"executionSuccessful": True, "exitCode": 0}], inv
EOF
}

@test "sarif: the output is exactly one JSON document, with no results for clean inputs" {
	need_python
	xs --format=sarif ok.xml
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
log = json.load(sys.stdin)
assert log["runs"][0]["results"] == []
'
}

@test "sarif: URIs are percent-encoded references from SRCROOT, names outside it file URIs" {
	need_python
	# The root is the current directory, w (no work tree here): the
	# names below it are relative to SRCROOT, those outside absolute.
	mkdir -p 'w/a b'
	cd w
	printf '\357\273\277<a/>' > 'a b/x%#?.xml'
	printf '\357\273\277<a/>' > 'c:d.xml'
	printf '\357\273\277<a/>' > "$(printf 'n\377\303\251.xml')"
	printf '\357\273\277<a/>' > '../c:d.xml'
	xs --format=sarif 'a b/x%#?.xml' 'c:d.xml' "$(printf 'n\377\303\251.xml')" \
	    "$BATS_TEST_TMPDIR/w/gone.xml" "$BATS_TEST_TMPDIR/w/c:d.xml" \
	    "$(pwd -P)/../c:d.xml" ../c:d.xml
	assert_failure 2
	keep_sarif uris
	printf '%s\n' "$output" | python3 -c '
import json, sys
run = json.load(sys.stdin)["runs"][0]
tmp = sys.argv[1].replace(":", "%3A")
assert run["originalUriBaseIds"] == {"SRCROOT": {"uri": "file://" + tmp + "/w/"}}
locs = [r["locations"][0]["physicalLocation"]["artifactLocation"]
        for r in run["results"]]
src = lambda u: {"uri": u, "uriBaseId": "SRCROOT"}
assert locs == [src("a%20b/x%25%23%3F.xml"), src("c%3Ad.xml"),
                src("n%FF%C3%A9.xml"), src("c%3Ad.xml"),
                {"uri": "file://" + tmp + "/c%3Ad.xml"},
                {"uri": "file://" + tmp + "/c%3Ad.xml"}], locs
n = run["invocations"][0]["toolExecutionNotifications"]
assert n[0]["locations"][0]["physicalLocation"]["artifactLocation"] == \
    src("gone.xml"), n
' "$(cd "$BATS_TEST_TMPDIR" && pwd -P)"
}

@test "sarif: unreadable inputs are tool execution notifications, exit 2" {
	need_python
	xs --format=sarif nosuch.xml ok.xml - < /dev/null
	assert_failure 2
	[ -z "$stderr" ]
	keep_sarif unreadable
	printf '%s\n' "$output" | python3 -c '
import json, sys
inv = json.load(sys.stdin)["runs"][0]["invocations"]
assert len(inv) == 1
assert inv[0]["executionSuccessful"] is False
assert inv[0]["exitCode"] == 2
n = inv[0]["toolExecutionNotifications"]
assert n == [{"descriptor": {"id": "unreadable", "index": 0},
              "level": "error",
              "message": {"text": "No such file or directory"},
              "locations": [{"physicalLocation":
                  {"artifactLocation": {"uri": "nosuch.xml",
                                        "uriBaseId": "SRCROOT"}}}]}], n
'
}

@test "sarif: a list cut by --max-errors is a notification, every result has a rule" {
	need_python
	printf '<a>\377\001\376</a>' > three.xml
	xs --format=sarif --all --max-errors=1 three.xml
	assert_success
	keep_sarif cut
	local one="$output"
	xs --format=sarif --all --max-errors=1 -j2 three.xml ok.xml
	assert_success
	keep_sarif cut-j2
	printf '%s\n' "$output" > j2.sarif
	printf '%s\n' "$one" | python3 -c '
import json, sys
run = json.load(sys.stdin)["runs"][0]
res = run["results"]
assert [r["ruleId"] for r in res] == ["illegal-sequence", "illegal-char"], res
inv = run["invocations"][0]
assert inv["executionSuccessful"] is True and inv["exitCode"] == 0
n = inv["toolExecutionNotifications"]
assert n == [{"descriptor": {"id": "max-errors", "index": 1}, "level": "note",
              "message": {"text": n[0]["message"]["text"]},
              "locations": [{"physicalLocation": {"artifactLocation":
                  {"uri": "three.xml", "uriBaseId": "SRCROOT"}}}]}], n
assert "--max-errors" in n[0]["message"]["text"], n
assert run == json.load(open("j2.sarif"))["runs"][0], "-j2 differs"
'
}

@test "sarif: standard input has a description instead of a URI" {
	need_python
	xs --format=sarif - < bad.xml
	assert_success
	keep_sarif stdin
	printf '%s\n' "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)["runs"][0]["results"][0]
assert r["locations"][0]["physicalLocation"]["artifactLocation"] == \
    {"description": {"text": "standard input"}}
'
}

@test "sarif: --strict makes the exit status 1 and the execution still successful" {
	need_python
	xs --format=sarif --strict bad.xml
	assert_failure 1
	keep_sarif strict
	printf '%s\n' "$output" | python3 -c '
import json, sys
inv = json.load(sys.stdin)["runs"][0]["invocations"][0]
assert inv == {"executionSuccessful": True, "exitCode": 1}, inv
'
}

# ---------------------------------------------------------------------------
# gitlab

@test "gitlab: one Code Quality array, severities major and minor" {
	need_python
	xs --format=gitlab bad.xml ok.xml nosuch.xml
	assert_failure 2
	[ -z "$stderr" ]
	printf '%s\n' "$output" > cq.json
	python3 - cq.json "$(msg bad.xml decl-mismatch)" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
assert [(i["check_name"], i["severity"], i["location"]["path"],
         i["location"]["lines"]["begin"]) for i in a] == [
    ("utf8-bom", "minor", "bad.xml", 1),
    ("decl-mismatch", "major", "bad.xml", 1),
    ("illegal-sequence", "major", "bad.xml", 1),
    ("unreadable", "major", "nosuch.xml", 1)], a
assert a[1]["description"] == sys.argv[2]
assert a[2]["description"].endswith(" (2 times)")
assert a[3]["description"] == "No such file or directory"
fps = [i["fingerprint"] for i in a]
assert len(set(fps)) == 4
for f in fps:
    assert len(f) == 16 and int(f, 16) >= 0
for i in a:
    assert sorted(i) == ["check_name", "description", "fingerprint",
                         "location", "severity"], i
EOF
}

@test "gitlab: the fingerprint is FNV-1a 64 of name, code and offset" {
	need_python
	xs --format=gitlab bad.xml
	printf '%s\n' "$output" | python3 -c '
import json, sys
def fnv(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return "%016x" % h
a = json.load(sys.stdin)
offs = {"utf8-bom": 0, "decl-mismatch": 33, "illegal-sequence": 48}
for i in a:
    want = fnv(b"bad.xml\0" + i["check_name"].encode() + b"\0" +
               str(offs[i["check_name"]]).encode() + b"\0")
    assert i["fingerprint"] == want, (i, want)
'
}

@test "gitlab: fingerprints are the same on every run and differ between files" {
	need_python
	cp bad.xml bad2.xml
	xs --format=gitlab bad.xml bad2.xml
	local first="$output"
	xs --format=gitlab bad.xml bad2.xml
	[ "$output" = "$first" ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
fps = [i["fingerprint"] for i in json.load(sys.stdin)]
assert len(fps) == 6 and len(set(fps)) == 6, fps
'
}

@test "gitlab: a clean run is an empty array" {
	xs --format=gitlab ok.xml
	assert_success
	assert_output '[]'
	[ -z "$stderr" ]
}

@test "gitlab: names that are not UTF-8 stay valid JSON" {
	need_python
	printf '\357\273\277<a/>' > "$(printf 'x\377 y.xml')"
	xs --format=gitlab "$(printf 'x\377 y.xml')"
	assert_success
	assert_output --partial '"path":"x\udcff y.xml"'
	printf '%s\n' "$output" | python3 -c '
import json, sys
a = json.load(sys.stdin)
assert a[0]["location"]["path"].encode("utf-8", "surrogateescape") == b"x\xff y.xml"
'
}

# ---------------------------------------------------------------------------
# checkstyle

@test "checkstyle: the XML document, a file element per input" {
	need_python
	local m1 m2 m3
	m1=$(msg bad.xml utf8-bom | sed 's/"/\&quot;/g')
	m2=$(msg bad.xml decl-mismatch | sed 's/"/\&quot;/g')
	m3=$(msg bad.xml illegal-sequence)
	xs --format=checkstyle bad.xml ok.xml nosuch.xml
	assert_failure 2
	[ -z "$stderr" ]
	assert_output "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<checkstyle version=\"4.3\">
<file name=\"bad.xml\">
<error line=\"1\" column=\"1\" severity=\"warning\" message=\"$m1\" source=\"xmlsniff.utf8-bom\"/>
<error line=\"1\" column=\"31\" severity=\"error\" message=\"$m2\" source=\"xmlsniff.decl-mismatch\"/>
<error line=\"1\" column=\"46\" severity=\"error\" message=\"$m3 (2 times)\" source=\"xmlsniff.illegal-sequence\"/>
</file>
<file name=\"ok.xml\">
</file>
<file name=\"nosuch.xml\">
<error severity=\"error\" message=\"No such file or directory\" source=\"xmlsniff.unreadable\"/>
</file>
</checkstyle>"
}

@test "checkstyle: an empty run is still a document" {
	printf '' > list
	xs --format=checkstyle --files0-from=list
	assert_success
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<checkstyle version="4.3">
</checkstyle>'
}

@test "checkstyle: names with markup, white space, controls and bad bytes stay well-formed" {
	need_python
	local name
	name=$(printf 'a&b<c>"d\tx\ny\001\377\357\277\276.xml')
	printf '\357\273\277<a/>' > "$name"
	xs --format=checkstyle "$name"
	assert_success
	assert_line --index 2 '<file name="a&amp;b&lt;c&gt;&quot;d&#9;x&#10;y\x01\xFF\uFFFE.xml">'
	printf '%s\n' "$output" > cs.xml
	python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "checkstyle" and root.get("version") == "4.3"
f = root.find("file")
assert f.get("name") == "a&b<c>\"d\tx\ny\\x01\\xFF\\uFFFE.xml", repr(f.get("name"))
e = f.find("error")
assert e.get("source") == "xmlsniff.utf8-bom" and e.get("severity") == "warning"
' cs.xml
	if command -v xmllint > /dev/null; then
		xmllint --noout cs.xml
	fi
}

@test "checkstyle, gitlab, github: --strict gives exit 1 and the same report" {
	local f out
	for f in checkstyle gitlab github; do
		xs --format=$f bad.xml
		out="$output"
		xs --format=$f --strict bad.xml
		assert_failure 1
		[ "$output" = "$out" ]
		xs --format=$f --strict ok.xml
		assert_success
	done
}

@test "checkstyle and sarif: -q changes nothing" {
	local f
	for f in checkstyle sarif gitlab; do
		xs --format=$f bad.xml
		local out="$output"
		xs --format=$f -q bad.xml
		assert_success
		[ "$output" = "$out" ]
	done
}

# ---------------------------------------------------------------------------
# Output errors

@test "a machine format to a full device: write error, exit 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	run_apart sh -c '"$0" --format=sarif bad.xml ok.xml > /dev/full' \
	    "$XMLSNIFF"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"xmlsniff: write error: No space left on device"* ]]
}

@test "a machine format with standard output closed: exit 2" {
	run_apart sh -c '"$0" --format=github -q bad.xml >&-' \
	    "$XMLSNIFF"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"xmlsniff: write error: standard output is closed"* ]]
}

# ---------------------------------------------------------------------------
# Records never tear

# many N: N small files with long names (lines of about 600 bytes) in d/.
many() {
	mkdir -p d
	awk -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++) {
			f = "d/file-" i "-with-a-name-long-enough-that-a-few-lines-fill-a-pipe-buffer-of-standard-output.xml"
			printf "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\351\200</a>" > f
			close(f)
		}
	}'
}

@test "records: parallel --json processes on one pipe never tear a line" {
	need_python
	many 400
	cd d
	local i
	for i in 1 2 3; do
		printf '%s\0' * | xargs -0 -P8 -n20 "$XMLSNIFF" --json |
		    python3 -c '
import json, sys
n = 0
for line in sys.stdin.buffer:
    n += 1
    json.loads(line)
assert n == 400, n
'
	done
}

@test "records: parallel text and github processes keep every line whole" {
	many 400
	cd d
	printf '%s\0' * | xargs -0 -P8 -n20 "$XMLSNIFF" > ../out 2> ../err
	[ "$(grep -c '^file-[0-9]*-with-.*\.xml: ISO-8859-1 (declaration), declared "ISO-8859-1", 1 warning$' ../out)" -eq 400 ]
	[ "$(wc -l < ../out)" -eq 400 ]
	[ "$(grep -c '^file-[0-9]*-with-.*\.xml:1:[0-9]*: warning: .* \[suspicious-label\]$' ../err)" -eq 400 ]
	[ "$(wc -l < ../err)" -eq 400 ]
	printf '%s\0' * | xargs -0 -P8 -n20 "$XMLSNIFF" --format=github > ../gh
	[ "$(grep -c '^::warning file=file-[0-9]*-with-.*\.xml,line=1,col=[0-9]*,title=suspicious-label::.*[a-z]$' ../gh)" -eq 400 ]
	# Each process of 20 warnings says that 10 will not show.
	[ "$(grep -c '^::notice title=xmlsniff::0 errors and 20 warnings; .*--format=text\.$' ../gh)" -eq 20 ]
	[ "$(wc -l < ../gh)" -eq 420 ]
}

@test "records: stdout and stderr on one file keep the line before its diagnostics" {
	xs bad.xml ok.xml
	local out="$output" err="$stderr"
	"$XMLSNIFF" bad.xml ok.xml > both 2>&1
	[ "$(cat both)" = "$(printf '%s\n%s\n%s\n' "${lines[0]}" "$err" "${lines[1]}")" ]
}

@test "records: a record longer than PIPE_BUF is written whole, in its place" {
	need_python
	local long="" i
	for i in $(seq 1 20); do
		long="$long/$(printf '%0200d' "$i")"
	done
	long=${long#/}
	mkdir -p "$long"
	printf '\357\273\277<a/>' > "$long/x.xml"
	xs --json ok.xml "$long/x.xml" ok.xml
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	[ "${#lines[1]}" -gt 4096 ]
	"$XMLSNIFF" --json ok.xml "$long/x.xml" ok.xml | cat > piped
	[ "$(cat piped)" = "$output" ]
	python3 -c '
import json, sys
names = [json.loads(l)["file"] for l in open(sys.argv[1])]
assert names == ["ok.xml", sys.argv[2] + "/x.xml", "ok.xml"], names
' piped "$long"
}

@test "a directory without -r is an unreadable input in every machine format" {
	need_python
	mkdir d
	xs --format=github d
	assert_failure 2
	assert_output '::error file=d::is a directory (use -r to descend into it)'
	[ -z "$stderr" ]
	xs --format=gitlab d
	assert_failure 2
	[ -z "$stderr" ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
a = json.load(sys.stdin)
assert a[0]["check_name"] == "unreadable"
assert a[0]["description"] == "is a directory (use -r to descend into it)"
'
	xs --format=checkstyle d
	assert_failure 2
	assert_line --index 3 '<error severity="error" message="is a directory (use -r to descend into it)" source="xmlsniff.unreadable"/>'
}

@test "-r with --format=github walks the tree" {
	mkdir -p t/u
	cp bad.xml t/u/b.xml
	cp ok.xml t/a.xml
	xs -r --format=github t
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	# Errors first (github.c): the warning after them.
	assert_line --index 2 --regexp '^::warning file=t/u/b.xml,line=1,col=1,title=utf8-bom::'
}

@test "--help names --format, --list-codes and --explain" {
	xs --help
	assert_success
	assert_output --partial '      --format=FMT      text (default), json, github (workflow'
	assert_output --partial '(Code Quality) or checkstyle (XML); these
                        four name files from the repository root'
	assert_output --partial '      --list-codes      list the diagnostic codes'
	assert_output --partial '      --explain=CODE    what a code means, and the fix'
	assert_output --partial '       xmlsniff --list-codes | --list-encodings | --explain=CODE'
}

@test "every format: a name with a space, comma, colon, %, newline and a bad byte" {
	need_python
	local name m
	name=$(printf 'a b,c:d%%e\nf\377.xml')
	printf '\357\273\277<a/>' > "$name"
	m=$(msg "$name" utf8-bom)
	xs "$name"
	assert_success
	assert_output 'a b,c:d%e\nf\xFF.xml: UTF-8 (BOM), no declaration, 1 warning'
	[ "$stderr" = "a b,c:d%e\\nf\\xFF.xml:1:1: warning: $m [utf8-bom]" ]
	xs --json "$name"
	assert_output --partial '{"file":"a b,c:d%e\nf\udcff.xml",'
	xs --format=github "$name"
	assert_output "::warning file=a b%2Cc%3Ad%25e%0Af\\xFF.xml,line=1,col=1,title=utf8-bom::$m"
	xs --format=sarif "$name"
	assert_output --partial '"artifactLocation":{"uri":"a%20b%2Cc%3Ad%25e%0Af%FF.xml","uriBaseId":"SRCROOT"}'
	keep_sarif odd-name
	xs --format=gitlab "$name"
	assert_output --partial '"location":{"path":"a b,c:d%e\nf\udcff.xml","lines":{"begin":1}}'
	xs --format=checkstyle "$name"
	assert_line --index 2 '<file name="a b,c:d%e&#10;f\xFF.xml">'
}

@test "a bad --files0-from entry is in the report of the CI formats" {
	need_python
	printf 'ok.xml\0\0' > list
	xs --format=github --files0-from=list
	assert_failure 2
	assert_output '::error file=list::name 2 is empty'
	[ -z "$stderr" ]
	xs --format=sarif --files0-from=list
	assert_failure 2
	[ -z "$stderr" ]
	keep_sarif files0
	printf '%s\n' "$output" | python3 -c '
import json, sys
n = json.load(sys.stdin)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
assert n[0]["message"]["text"] == "name 2 is empty", n
'
	xs --json --files0-from=list
	assert_failure 2
	[ "${#lines[@]}" -eq 1 ]
	[ "$stderr" = 'xmlsniff: list: name 2 is empty' ]
}

@test "sarif: logs with the codes of --http, --browser, --all and a transcode, for the validators" {
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=foo\r\n\r\n<a>\377</a>' > r.txt
	xs --format=sarif --http r.txt
	assert_success
	assert_output --partial '"ruleId":"not-xml-media-type"'
	keep_sarif http
	printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\223</a>' > b.xml
	xs --format=sarif --browser --all b.xml bad.xml
	assert_success
	assert_output --partial '"ruleId":"browser-differs"'
	keep_sarif browser
	printf '<a>\303\251</a>' > e.xml
	xs --format=sarif --transcode-to=US-ASCII -o out.xml e.xml
	assert_failure 1
	assert_output --partial '"ruleId":"unrepresentable"'
	keep_sarif transcode
}

@test "every format: a charset with TAB, backslash and a bad byte is escaped by the format's one rule" {
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset="a\tb\\\\c\351"\r\n\r\n<a/>' > r.http
	m='is not an encoding that the IANA registry or this system'"'"'s iconv knows; correct the Content-Type'
	xs --http --ignore=unregistered-name r.http
	assert_output 'r.http: a\tb\\c\xE9 (charset), no declaration, charset "a\tb\\c\xE9", 1 error'
	assert_equal "$stderr" "r.http:1:1: error: charset \"a\\tb\\\\c\\xE9\" $m [unsupported-encoding]"
	xs --http --ignore=unregistered-name --format=github r.http
	assert_output "::error file=r.http,line=1,col=1,title=unsupported-encoding::charset \"a\\tb\\\\c\\xE9\" $m"
	xs --http --ignore=unregistered-name --format=checkstyle r.http
	assert_line --index 3 "<error line=\"1\" column=\"1\" severity=\"error\" message=\"charset &quot;a&#9;b\\\\c\\xE9&quot; $m\" source=\"xmlsniff.unsupported-encoding\"/>"
	xs --http --ignore=unregistered-name --json r.http
	assert_output --partial '"charset":"a\tb\\c\udce9",'
	assert_output --partial '"message":"charset \"a\tb\\c\udce9\" is not an encoding'
}

@test "github: a TAB and a backslash in a file name are \\t and \\\\, as in the text format" {
	name=$(printf 'a\tb\\c.xml')
	printf '\357\273\277<a/>' > "$name"
	xs "$name"
	assert_output 'a\tb\\c.xml: UTF-8 (BOM), no declaration, 1 warning'
	xs --format=github "$name"
	assert_output --partial '::warning file=a\tb\\c.xml,line=1,col=1,title=utf8-bom::'
}

@test "the program's own messages escape what they quote of the user's" {
	xs --fallback="$(printf 'a\tb\033[31m\351')" ok.xml
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" 'xmlsniff: --fallback: "a\tb\x1B[31m\xE9" is not error or ncr'
}

@test "--json: the schema in doc/ is versioned with the tool and enumerates every code" {
	need_python
	python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
	xs --version
	v=${output#xmlsniff }
	xs --list-codes
	printf '%s\n' "$output" | python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["$id"] == "urn:xmlsniff:json-record:" + sys.argv[2], s["$id"]
assert sys.argv[2] in s["title"], s["title"]
codes = [l.split()[0] for l in sys.stdin if l.strip()]
assert s["$defs"]["code"]["enum"] == codes, (s["$defs"]["code"]["enum"], codes)
assert s["$defs"]["source"]["enum"] == ["none", "bom", "charset", "declaration", "default", "sniffed"]
' "$TOP/doc/xmlsniff-record.schema.json" "$v"
}

# ---------------------------------------------------------------------------
# The SARIF logs of the tests above, validated at once; these two run last.
# When the file is run in part, they check the logs of the tests that ran
# and one log of their own.

@test "sarif: every log passes the SARIF 2.1.0 JSON schema" {
	need_python
	local schema
	schema="$(dirname "$TOP")/shared/data/sarif-schema-2.1.0.json"
	[ -f "$schema" ] || skip "SARIF schema not found at $schema"
	python3 -c 'import jsonschema' 2> /dev/null ||
	    skip "python3-jsonschema is not installed"
	xs --format=sarif --all --max-errors=1 bad.xml nosuch.xml
	keep_sarif own-schema
	python3 - "$schema" "$BATS_FILE_TMPDIR"/sarif/*.sarif <<'EOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
for p in sys.argv[2:]:
    jsonschema.validate(json.load(open(p)), schema)
EOF
}

# sarif-multitool (a .NET program from npm) takes seconds to start: the
# slow tier, as the other npm and integration tools.  Alone there, it has
# logs of its own besides: every example, the whole list of an input with
# every code it can draw, a file that cannot be read, standard input.
# bats test_tags=slow
@test "sarif: every log passes sarif-multitool validate with no error or warning" {
	command -v sarif-multitool > /dev/null ||
	    skip "sarif-multitool is not installed (npm install -g @microsoft/sarif-multitool)"
	xs --format=sarif --all --max-errors=1 bad.xml nosuch.xml
	keep_sarif own-multitool
	xs --format=sarif "$TOP"/examples/*.xml
	keep_sarif own-examples
	xs --format=sarif --all --browser --content-type='text/xml; charset=utf-8' \
	    bad.xml
	keep_sarif own-all
	xs --format=sarif - < bad.xml
	keep_sarif own-stdin
	local n
	n=$(ls "$BATS_FILE_TMPDIR"/sarif | wc -l)
	run sarif-multitool validate "$BATS_FILE_TMPDIR"/sarif/*.sarif
	assert_success
	assert_line "Done. $n files scanned."
	refute_output --regexp ': (error|warning) [A-Z]+[0-9]+:'
}

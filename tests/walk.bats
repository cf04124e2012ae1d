#!/usr/bin/env bats
# What -r checks: the default XML extensions, --include and --exclude,
# .git/.hg/.svn, the files git ignores, --no-ignore, --list-files and -0,
# and that --in-place writes nothing the walk did not choose.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# No user or system git configuration (a global excludes file would
	# change what git ignores), and a configuration file is never found.
	export HOME="$BATS_TEST_TMPDIR/home" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/home"
	export GIT_CONFIG_NOSYSTEM=1
	mkdir -p home
}

need_git() {
	command -v git > /dev/null || skip "git is not installed"
}

OK=': UTF-8 (default), no declaration'

# project DIR: the tree of the report: one good a.xml, a bad
# node_modules/bad.xml, a README.md, a PNG, a CSS file and a .gitignore
# that lists node_modules/.
project() {
	mkdir -p "$1/node_modules"
	printf '<a/>' > "$1/a.xml"
	printf '<a>\377</a>' > "$1/node_modules/bad.xml"
	printf '# Title\n\nText.\n' > "$1/README.md"
	printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1' > "$1/logo.png"
	printf 'body { color: red; }\n' > "$1/style.css"
	printf 'node_modules/\n' > "$1/.gitignore"
}

# repo DIR: git init DIR, with a local identity.
repo() {
	git init -q "$1"
	git -C "$1" config user.name 'T Tester'
	git -C "$1" config user.email 'tester@example.org'
}

# ---------------------------------------------------------------------------
# The report: a small git repository

@test "-r in a git repository: only a.xml; not .git, node_modules, README, PNG or CSS" {
	need_git
	project p
	repo p
	git -C p add -A
	git -C p commit -q -m init
	cd p
	xs -r .
	assert_success
	assert_output "./a.xml$OK"
	[ -z "$stderr" ]
}

@test "-r outside a work tree: the ignore file means nothing, the other rules hold" {
	project p
	xs -r p
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 "p/a.xml$OK"
	assert_line -n 1 "p/node_modules/bad.xml$OK, 1 error"
}

@test "-r with no git on PATH: walks as outside a work tree, says nothing of git" {
	need_git
	project p
	repo p
	run_apart env PATH=/nonexistent "$XMLSNIFF" -r p
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 "p/a.xml$OK"
	assert_line -n 1 "p/node_modules/bad.xml$OK, 1 error"
	assert_equal "$stderr" 'p/node_modules/bad.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
}

@test "-r: git is not run where no directory up to the root holds a .git, and is where one does" {
	local d real
	need_git
	d=$PWD
	while [ "$d" != / ]; do
		[ ! -e "$d/.git" ] || skip "the test's folder is inside a work tree"
		d=$(dirname "$d")
	done
	# a git on PATH that notes each run, then runs the real one
	real=$(command -v git)
	mkdir spy
	printf '#!/bin/sh\necho "$*" >> "%s/calls"\nexec "%s" "$@"\n' \
	    "$PWD/spy" "$real" > spy/git
	chmod +x spy/git
	project p
	run_apart env PATH="$PWD/spy:$PATH" "$XMLSNIFF" -r p
	assert_success
	assert_equal "${#lines[@]}" 2
	[ ! -e spy/calls ] || fail "git ran outside any work tree: $(cat spy/calls)"
	# a repository: asked, and node_modules is ignored
	repo p
	run_apart env PATH="$PWD/spy:$PATH" "$XMLSNIFF" -r p
	assert_success
	assert_output "p/a.xml$OK"
	assert_equal "$(cat spy/calls)" "-C p ls-files -z --cached --others --exclude-standard"
	# a .git file two directories up, whatever it says, makes git be
	# asked (here it fails, and the walk goes on without it)
	mkdir -p q/sub/deep
	printf 'gitdir: /nowhere\n' > q/.git
	printf '<a/>' > q/sub/deep/x.xml
	: > spy/calls
	run_apart env PATH="$PWD/spy:$PATH" "$XMLSNIFF" -r q/sub/deep
	assert_success
	assert_output "q/sub/deep/x.xml$OK"
	assert_equal "$(cat spy/calls)" "-C q/sub/deep ls-files -z --cached --others --exclude-standard"
}

@test "-r on a bare repository whose core.worktree is elsewhere: git is asked, as it finds that work tree" {
	local real
	need_git
	real=$(command -v git)
	mkdir spy
	printf '#!/bin/sh\necho "$*" >> "%s/calls"\nexec "%s" "$@"\n' \
	    "$PWD/spy" "$real" > spy/git
	chmod +x spy/git
	# no .git anywhere: the bare repository's HEAD is what git finds
	git init -q --bare deploy.git
	git -C deploy.git config core.bare false
	git -C deploy.git config core.worktree "$PWD/site"
	mkdir site
	printf 'ignored.xml\n' > site/.gitignore
	printf '<a/>' > site/a.xml
	# git lists the work tree's files (a.xml, not ignored.xml); the walk
	# takes its list for the directory given
	printf '<a/>' > deploy.git/a.xml
	printf '<b>\351</b>' > deploy.git/ignored.xml
	run_apart env PATH="$PWD/spy:$PATH" "$XMLSNIFF" -r deploy.git
	assert_success
	assert_output "deploy.git/a.xml$OK"
	assert_equal "$(cat spy/calls)" "-C deploy.git ls-files -z --cached --others --exclude-standard"
}

@test "-r on a bind mount of a directory below itself, in a work tree: git is asked" {
	need_git
	command -v unshare > /dev/null || skip "no unshare(1)"
	project p
	repo p
	mkdir p/sub p/sub/mnt
	unshare -m sh -c 'mount --bind p/sub p/sub/mnt' 2> /dev/null ||
	    skip "no bind mount in a mount namespace here"
	printf 'skip*.xml\n' > p/.gitignore
	printf '<b>\351</b>' > p/sub/skip1.xml
	printf '<a/>' > p/sub/a.xml
	# at the top of the mount ".." is the directory itself: the way up
	# must go by the path, as git's does
	run_apart unshare -m sh -c \
	    'mount --bind p/sub p/sub/mnt && exec "$0" -r p/sub/mnt' "$XMLSNIFF"
	assert_success
	assert_output "p/sub/mnt/a.xml$OK"
}

@test "--no-ignore: the files git ignores are checked, .git still is not" {
	need_git
	project p
	repo p
	xs -r --no-ignore p
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 "p/a.xml$OK"
	assert_line -n 1 "p/node_modules/bad.xml$OK, 1 error"
}

# ---------------------------------------------------------------------------
# The default set of extensions

@test "-r: every extension of the default set is checked, in any case; others are not" {
	local e
	mkdir t
	for e in atom csproj dtd ent fo fsproj gpx jnlp kml mod ncx nuspec \
	    opf props rdf resx rng rss sch storyboard svg targets tld vbproj \
	    vcxproj wsdl wxi wxl wxs xaml xhtml xib xjb xlf xliff xml xsd xsl \
	    xslt xul; do
		printf '<a/>' > "t/f.$e"
	done
	printf '<a/>' > t/UPPER.XML
	printf '<a/>' > t/Mixed.SvG
	for e in plist svgz kmz docx config txt md css json html htm png \
	    xml.bak xmlx; do
		printf '<a/>' > "t/n.$e"
	done
	printf '<a/>' > t/xml
	printf '<a/>' > t/.xml
	printf '<a/>' > t/noext
	xs --list-files -r t
	assert_success
	[ -z "$stderr" ]
	assert_output "t/Mixed.SvG
t/UPPER.XML
t/f.atom
t/f.csproj
t/f.dtd
t/f.ent
t/f.fo
t/f.fsproj
t/f.gpx
t/f.jnlp
t/f.kml
t/f.mod
t/f.ncx
t/f.nuspec
t/f.opf
t/f.props
t/f.rdf
t/f.resx
t/f.rng
t/f.rss
t/f.sch
t/f.storyboard
t/f.svg
t/f.targets
t/f.tld
t/f.vbproj
t/f.vcxproj
t/f.wsdl
t/f.wxi
t/f.wxl
t/f.wxs
t/f.xaml
t/f.xhtml
t/f.xib
t/f.xjb
t/f.xlf
t/f.xliff
t/f.xml
t/f.xsd
t/f.xsl
t/f.xslt
t/f.xul"
}

@test "-r passes over a .props, .mod or .sch that is not XML; -v says so; XML ones are checked" {
	mkdir -p t/j
	printf '<Project/>' > t/msbuild.props
	printf 'key=caf\351\n' > t/j/java.props
	printf '\n  module example.com/x\n' > t/go.mod
	printf '<!ENTITY %% a "b">' > t/dtd.mod
	printf '%%common;\n' > t/pe.mod
	printf 'EESchema Schematic File Version 4\n' > t/board.sch
	printf 'plain\n' > t/plain.xml
	xs -r --strict t
	assert_success
	assert_output "t/dtd.mod: UTF-8 (default), no declaration
t/msbuild.props$OK
t/pe.mod: UTF-8 (default), no declaration
t/plain.xml: UTF-8 (default), no declaration, 1 warning"
	assert_equal "$stderr" "t/plain.xml:1:1: warning: the first character (after any BOM and white space) is 'p', not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
	# -v: a note for each, in the walk's order, on standard error.
	xs -rqv t
	assert_success
	assert_output ''
	assert_equal "$stderr" "xmlsniff: t/board.sch: passed over: not XML, and .sch files are XML only sometimes
xmlsniff: t/go.mod: passed over: not XML, and .mod files are XML only sometimes
xmlsniff: t/j/java.props: passed over: not XML, and .props files are XML only sometimes
t/plain.xml:1:1: warning: the first character (after any BOM and white space) is 'p', not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
}

@test "-r: a .props named as FILE that is not XML is passed over too; without -r it is checked" {
	printf 'key=caf\351\n' > java.props
	xs -r --strict java.props
	assert_success
	assert_output ''
	[ -z "$stderr" ]
	xs --strict java.props
	assert_failure 1
	assert_output 'java.props: UTF-8 (default), no declaration, 1 error, 1 warning'
	[[ "${stderr_lines[0]}" == "java.props:1:1: warning: the first character (after any BOM and white space) is 'k', not '<': this is not XML"* ]]
	[[ "${stderr_lines[1]}" == *"[illegal-sequence]" ]]
}

@test "files named on the command line are checked whatever their name" {
	printf '<a/>' > notes.txt
	printf '<a/>' > style.css
	xs -r --exclude='*.txt' --include='*.xsd' notes.txt style.css
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 "notes.txt$OK"
	assert_line -n 1 "style.css$OK"
}

@test "names in --files0-from are checked whatever their name; directories in it are walked" {
	mkdir d
	printf '<a/>' > notes.txt
	printf '<a/>' > d/x.xml
	printf 'x' > d/y.txt
	printf 'notes.txt\0d\0' > list
	xs -r --files0-from=list
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 "notes.txt$OK"
	assert_line -n 1 "d/x.xml$OK"
}

# ---------------------------------------------------------------------------
# Version-control folders

@test "-r never enters .git, .hg or .svn, nor checks a .git file, even with --include='*'" {
	mkdir -p t/.git t/.hg t/.svn t/sub/.svn t/wt
	printf '<a/>' > t/.git/x.xml
	printf '<a/>' > t/.hg/x.xml
	printf '<a/>' > t/.svn/x.xml
	printf '<a/>' > t/sub/.svn/x.xml
	printf 'gitdir: /nowhere\n' > t/wt/.git
	printf '<a/>' > t/wt/w.xml
	printf '<a/>' > t/sub/s.xml
	xs -r --no-ignore --include='*' t
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 "t/sub/s.xml$OK"
	assert_line -n 1 "t/wt/w.xml$OK"
	[ -z "$stderr" ]
}

@test "-r in a work tree: a .git file of a linked work tree is neither entered nor checked" {
	need_git
	repo p
	printf '<a/>' > p/a.xml
	git -C p add a.xml
	git -C p commit -q -m init
	git -C p worktree add -q ../w 2> /dev/null
	[ -f w/.git ] || skip "git worktree did not make a .git file"
	xs -r --include='*' w
	assert_success
	assert_output "w/a.xml$OK"
}

# ---------------------------------------------------------------------------
# git: what it ignores, asked of git

@test "-r: a tracked file that .gitignore matches is checked" {
	need_git
	repo p
	printf '*.gen.xml\n' > p/.gitignore
	printf '<a/>' > p/kept.gen.xml
	printf '<a/>' > p/other.gen.xml
	git -C p add -f kept.gen.xml
	xs -r p
	assert_success
	assert_output "p/kept.gen.xml$OK"
}

@test "-r on a subdirectory of a work tree, from outside, from the top and from inside" {
	need_git
	repo p
	mkdir -p p/sub/deep
	printf 'ign*\n' > p/.gitignore
	printf '<a/>' > p/top.xml
	printf '<a/>' > p/sub/s.xml
	printf '<a/>' > p/sub/ign.xml
	printf '<a/>' > p/sub/deep/d.xml
	printf '<a/>' > p/sub/deep/ign2.xml
	xs -r p/sub
	assert_success
	assert_output "p/sub/deep/d.xml$OK
p/sub/s.xml$OK"
	cd p
	xs -r sub
	assert_success
	assert_output "sub/deep/d.xml$OK
sub/s.xml$OK"
	cd sub
	xs -r .
	assert_success
	assert_output "./deep/d.xml$OK
./s.xml$OK"
	xs -r deep/
	assert_success
	assert_output "deep/d.xml$OK"
}

@test "-r on a directory that git ignores as a whole: no file" {
	need_git
	project p
	repo p
	xs -r p/node_modules
	assert_success
	assert_output ''
	xs -r --no-ignore p/node_modules
	assert_success
	assert_output "p/node_modules/bad.xml$OK, 1 error"
}

@test "-r: a nested repository follows its own .gitignore, not the outer one" {
	need_git
	repo p
	repo p/inner
	printf '*.gen.xml\n' > p/.gitignore
	printf 'skip.xml\n' > p/inner/.gitignore
	printf '<a/>' > p/a.gen.xml
	printf '<a/>' > p/inner/b.gen.xml
	printf '<a/>' > p/inner/skip.xml
	printf '<a/>' > p/inner/c.xml
	xs -r p
	assert_success
	assert_output "p/inner/b.gen.xml$OK
p/inner/c.xml$OK"
}

@test "-r: a nested repository the outer one ignores is not entered" {
	need_git
	repo p
	repo p/vendor
	printf 'vendor/\n' > p/.gitignore
	printf '<a/>' > p/vendor/v.xml
	printf '<a/>' > p/a.xml
	xs -r p
	assert_success
	assert_output "p/a.xml$OK"
}

@test "-r: names with spaces, commas, colons, a newline and bytes that are not UTF-8, ignored or not" {
	need_git
	repo p
	printf 'ign*\n' > p/.gitignore
	local n
	for n in 'sp ace, co:lon.xml' $'new\nline.xml' $'\xff\xfe.xml' \
	    $'ign\nx.xml' $'ign\xff.xml' 'ign sp.xml'; do
		printf '<a/>' > "p/$n"
	done
	git -C p add 'sp ace, co:lon.xml'
	xs -r p
	assert_success
	assert_output "p/new\\nline.xml$OK
p/sp ace, co:lon.xml$OK
p/\\xFF\\xFE.xml$OK"
	[ -z "$stderr" ]
}

@test "-r: GIT_DIR and GIT_WORK_TREE of the environment do not mislead the walk" {
	need_git
	project p
	repo p
	repo other
	GIT_DIR="$PWD/other/.git" GIT_WORK_TREE="$PWD/other" xs -r p
	assert_success
	assert_output "p/a.xml$OK"
}

# ---------------------------------------------------------------------------
# --include and --exclude

# globtree: files at several depths.
globtree() {
	mkdir -p t/docs/sub t/build t/src/build
	local f
	for f in a.xml b.xsd c.css docs/d.xml docs/e.css docs/sub/f.xml \
	    build/g.xml src/build/h.xml src/i.xml 'src/j[1].xml' src/k1.xml \
	    src/k2.xml src/kx.xml; do
		printf '<a/>' > "t/$f"
	done
	printf '<a/>' > t/build.xml
}

# names: the walk's list of t, without the t/ in front, on one line.
names() {
	xs --list-files -r "$@" t
	assert_success
	output=$(printf '%s\n' "$output" | sed 's|^t/||' | tr '\n' ' ')
}

# included GLOB WANT: the walk of t with --include=GLOB lists WANT.
included() {
	names --include="$1"
	assert_output "$2"
}

@test "--include replaces the default set" {
	globtree
	included '*.css' 'c.css docs/e.css '
}

@test "--include more than once: a file any of them matches" {
	globtree
	names --include='*.css' --include='*.xsd'
	assert_output 'b.xsd c.css docs/e.css '
}

@test "--include with a '/': matched against the whole relative path; '*' stops at '/'" {
	globtree
	included 'docs/*.xml' 'docs/d.xml '
}

@test "--include: '**' crosses '/', and '**/' matches no directory too" {
	globtree
	included 'docs/**.xml' 'docs/d.xml docs/sub/f.xml '
	included '**/build/*.xml' 'build/g.xml src/build/h.xml '
	included '**/*.xsd' 'b.xsd '
	included 'docs/**' 'docs/d.xml docs/e.css docs/sub/f.xml '
}

@test "--include: a pattern of many stars against a long name ends at once" {
	mkdir t
	local long
	long=$(printf 'a%.0s' {1..250})
	printf '<a/>' > "t/$long"
	printf '<a/>' > "t/${long}b"
	run_apart timeout 10 "$XMLSNIFF" --list-files -r \
	    --include='*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b' t
	assert_success
	assert_output "t/${long}b"
}

@test "--include: a leading '/' anchors to the walk's root" {
	globtree
	included '/*.xml' 'a.xml build.xml '
}

@test "--include: '?', '[...]', '[!...]' and '\\' escapes" {
	globtree
	included 'k?.xml' 'src/k1.xml src/k2.xml src/kx.xml '
	included 'k[0-9].xml' 'src/k1.xml src/k2.xml '
	included 'k[!0-9].xml' 'src/kx.xml '
	included 'k[^12].xml' 'src/kx.xml '
	included 'j\[1].xml' 'src/j[1].xml '
}

@test "--exclude: a name pattern at any depth; a directory it matches is not entered" {
	globtree
	names --exclude='build'
	assert_output 'a.xml b.xsd build.xml docs/d.xml docs/sub/f.xml src/i.xml src/j[1].xml src/k1.xml src/k2.xml src/kx.xml '
}

@test "--exclude with a trailing '/': directories only" {
	globtree
	printf '<a/>' > t/docs/build
	names --exclude='build/' --include='*'
	assert_output 'a.xml b.xsd build.xml c.css docs/build docs/d.xml docs/e.css docs/sub/f.xml src/i.xml src/j[1].xml src/k1.xml src/k2.xml src/kx.xml '
}

@test "--exclude with a '/': only that path; more than one add up" {
	globtree
	names --exclude='src/build' --exclude='docs/sub/' --exclude='k*'
	assert_output 'a.xml b.xsd build/g.xml build.xml docs/d.xml src/i.xml src/j[1].xml '
}

@test "--exclude wins over --include" {
	globtree
	names --include='*.css' --exclude='docs/*'
	assert_output 'c.css '
}

@test "an empty --include or --exclude pattern is a usage error" {
	xs -r --include= .
	assert_failure 2
	[[ "$stderr" == $'xmlsniff: --include and --exclude need a pattern\n'"Try 'xmlsniff --help' for more information." ]]
	xs -r --exclude= .
	assert_failure 2
}

# ---------------------------------------------------------------------------
# --list-files and -0

@test "--list-files: the names only, nothing read; errors in them do not count" {
	mkdir t
	printf '<a>\377</a>' > t/bad.xml
	printf '<a/>' > t/good.xml
	xs --list-files --strict -r t
	assert_success
	assert_output 't/bad.xml
t/good.xml'
	[ -z "$stderr" ]
}

@test "--list-files: a missing or unreadable FILE is reported, exit 2, the rest listed" {
	printf '<a/>' > a.xml
	mkdir d
	xs --list-files a.xml missing.xml d -
	assert_failure 2
	assert_output 'a.xml
-'
	assert_equal "$stderr" "xmlsniff: missing.xml: No such file or directory
xmlsniff: d: is a directory (use -r to descend into it)"
}

@test "--list-files: the output format options do not change the list" {
	printf '<a/>' > a.xml
	local o
	for o in --json -i --mime-encoding -b; do
		xs --list-files "$o" a.xml missing.xml
		assert_failure 2
		assert_output 'a.xml'
		assert_equal "$stderr" 'xmlsniff: missing.xml: No such file or directory'
	done
}

@test "--list-files: names escaped as in the rest of the output" {
	mkdir t
	printf '<a/>' > $'t/new\nline.xml'
	printf '<a/>' > $'t/\xff.xml'
	xs --list-files -r t
	assert_success
	assert_output 't/new\nline.xml
t/\xFF.xml'
}

@test "-0, --print0: NUL after each name, the bytes as they are" {
	mkdir t
	printf '<a/>' > $'t/new\nline.xml'
	printf '<a/>' > $'t/\xff.xml'
	printf '<a/>' > 't/sp ace.xml'
	"$XMLSNIFF" --list-files -0 -r t > list
	[ "$(hexof list)" = "$(printf 't/new\nline.xml\0t/sp ace.xml\0t/\377.xml\0' |
	    od -An -v -tx1 | tr -d ' \n')" ]
}

@test "--print0: the same as -0; it feeds --files0-from" {
	mkdir t
	printf '<a/>' > 't/sp ace.xml'
	printf '<a/>' > $'t/new\nline.xml'
	"$XMLSNIFF" --list-files --print0 -r t > list
	xs --files0-from=list
	assert_success
	assert_output "t/new\\nline.xml$OK
t/sp ace.xml$OK"
}

@test "-0 without --list-files is a usage error" {
	printf '<a/>' > a.xml
	xs -0 a.xml
	assert_failure 2
	[[ "$stderr" == $'xmlsniff: -0 goes with --list-files\n'"Try 'xmlsniff --help' for more information." ]]
	xs --print0 a.xml
	assert_failure 2
}

@test "--list-files with --transcode-to --in-place: shows what would be rewritten, writes nothing" {
	mkdir t
	printf '<a/>' > t/a.xml
	printf 'a{}' > t/s.css
	xs --list-files -r --transcode-to=UTF-16 --in-place t
	assert_success
	assert_output 't/a.xml'
	[ "$(hexof t/a.xml)" = 3c612f3e ]
}

# ---------------------------------------------------------------------------
# --in-place writes only what the walk chose

@test "-r --in-place --transcode-to: CSS, README and ignored files stay byte for byte" {
	need_git
	project p
	repo p
	printf '<a>\351</a>' | iconv -f ISO-8859-1 -t UTF-8 > p/a.xml
	local f before=()
	for f in p/style.css p/README.md p/logo.png p/node_modules/bad.xml; do
		before+=("$(hexof "$f") $(stat -c '%i %Y' "$f")")
	done
	sleep 1
	xs -r --in-place --transcode-to=ISO-8859-1 p
	assert_success
	local i=0
	for f in p/style.css p/README.md p/logo.png p/node_modules/bad.xml; do
		assert_equal "$(hexof "$f") $(stat -c '%i %Y' "$f")" "${before[$i]}"
		i=$((i + 1))
	done
	assert_equal "$(hexof p/a.xml)" "$(printf '<?xml version="1.0" encoding="ISO-8859-1"?><a>\351</a>' | od -An -v -tx1 | tr -d ' \n')"
}

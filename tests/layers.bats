#!/usr/bin/env bats
# The layers of doc/DESIGN.md, as the folders and the include lines show
# them: src/lib/ is the library, src/cli/ the command line, its client,
# which sees the library through <xmlsniff.h> alone; the library never
# includes the command line's headers; inside the library a file includes
# its own layer's header and those below, never one above.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

SRC="$BATS_TEST_DIRNAME/../src"

# loc NAME: where the file NAME is below src/ (names are unique there),
# from one listing of the tree a test.
declare -gA WHERE
while IFS= read -r where; do
	[ -n "${WHERE[${where##*/}]:-}" ] || WHERE[${where##*/}]=$where
done < <(find "$SRC" -type f)
loc() {
	printf '%s\n' "${WHERE[$1]:-}"
}

# includes FILE: the project headers FILE includes, one a line: those in
# double quotes found below src/, and <xmlsniff.h>.  One sed a file and
# no process a header: the suite reads a few hundred include lines.
includes() {
	local k h
	sed -n -e 's/^#include "\(.*\)".*$/q \1/p' \
	    -e 's/^#include <\(xmlsniff\.h\)>.*$/a \1/p' "$1" |
	    while read -r k h; do
		if [ "$k" = a ] || [ -n "${WHERE[${h##*/}]:-}" ]; then
			echo "${h##*/}"
		fi
	done
}

# only FILE HEADER...: FILE includes no project header but these.
only() {
	local f=$1 h bad=0
	shift
	for h in $(includes "$(loc "$f")"); do
		case " $* " in
		*" $h "*) ;;
		*) echo "$f includes $h"; bad=1 ;;
		esac
	done
	return $bad
}

@test "layers: every file below src/ has a name of its own" {
	local dup
	dup=$(find "$SRC" -name '*.[ch]' | sed 's|.*/||' | sort | uniq -d)
	[ -z "$dup" ] || { echo "twice: $dup"; false; }
}

@test "layers: the command line includes no header of the library but <xmlsniff.h>" {
	local f h bad=0
	for f in "$SRC"/cli/*.[ch]; do
		for h in $(includes "$f"); do
			case ${WHERE[$h]:-} in
			"$SRC"/lib/xmlsniff.h | "$SRC"/cli/*) ;;
			*) echo "${f##*/} includes $h"; bad=1 ;;
			esac
		done
	done
	[ "$bad" = 0 ]
}

@test "layers: the library includes no header of the command line" {
	local f h bad=0
	for f in $(find "$SRC/lib" -name '*.[ch]'); do
		for h in $(includes "$f"); do
			case ${WHERE[$h]:-} in
			"$SRC"/cli/*) echo "${f##*/} includes $h"; bad=1 ;;
			esac
		done
	done
	[ "$bad" = 0 ]
}

@test "layers: the public header includes nothing of the project, and only the public header is installed as such" {
	[ -z "$(includes "$SRC/lib/xmlsniff.h")" ]
	# C99 and C++: its declarations within extern "C"
	grep -q '^extern "C" {$' "$SRC/lib/xmlsniff.h"
	! grep -n '^#include' "$SRC/lib/xmlsniff.h" | grep -v '<std'
}

@test "layers: the text layer includes nothing of the project" {
	only utf.c utf.h
	only sbuf.c sbuf.h utf.h
	only suggest.c suggest.h
	[ -z "$(includes "$(loc utf.h)")" ]
	[ -z "$(includes "$(loc sbuf.h)")" ]
	[ -z "$(includes "$(loc suggest.h)")" ]
}

@test "layers: the core includes only the core and the text layer" {
	local f
	for f in bom.c codes.c decl.c declparse.c diag.c enc.c iconvcap.c \
	    memo.c mt.c notxml.c policy.c sniff.c; do
		only $f core.h utf.h enctab.h iconvcap.h decl_int.h
	done
	[ "$(includes "$(loc core.h)" | sort | tr '\n' ' ')" = "suggest.h utf.h " ]
	# the declaration's readers' own header: the core, and only for them
	[ "$(includes "$(loc decl_int.h)")" = "core.h" ]
	[ "$(grep -l 'decl_int\.h' "$SRC"/lib/*/*.c | sed 's,.*/,,' |
	    sort | tr '\n' ' ')" = "decl.c declparse.c " ]
}

@test "layers: the kernels include only the kernels and the core" {
	local f
	only late.c kernels.h late_units.h
	only leap.c kernels.h late_run.h late_units.h testhooks.h
	# the lexer's reading of units, which its leaps share
	[ "$(includes "$(loc late_units.h)")" = kernels.h ]
	for f in "$SRC"/lib/simd/*.c; do
		only "${f##*/}" kernels.h simd.h avx2_int.h testhooks.h \
		    late_run.h
	done
	[ "$(includes "$(loc kernels.h)")" = core.h ]
	# the walk over markup that the levels share, on the kernels alone
	[ "$(includes "$(loc late_run.h)")" = kernels.h ]
	# what the files of level avx2 share, below simd.h
	[ -z "$(includes "$(loc avx2_int.h)")" ]
}

@test "layers: the engine never includes the analyses, http or the interface" {
	local f
	for f in decode.c decode_iconv.c decode_utf.c iconvout.c input.c \
	    prescan.c target.c transcode.c validate.c xmllex.c; do
		only $f engine.h testhooks.h decode.h iconvcap.h iconvout.h \
		    target.h val.h xc.h xmllex.h
	done
}

@test "layers: the decoding layer never includes the validator nor the transcoder" {
	local f
	for f in decode.c decode_iconv.c decode_utf.c; do
		only $f decode.h testhooks.h
	done
	only decode.h kernels.h
}

@test "layers: the validator includes the decoding layer, not the transcoder" {
	only validate.c engine.h val.h
	only val.h decode.h engine.h
}

@test "layers: the analyses and http stay below the interface" {
	local f
	for f in browser.c excerpt.c mojibake.c mojreport.c http.c coding.c \
	    guess.c guess_cand.c guess_char.c guess_choose.c guess_model.c \
	    guess_note.c guess_read.c guess_ud.c; do
		only $f browser.h excerpt.h guess.h mojibake.h http.h coding.h \
		    engine.h kernels.h core.h sbuf.h dynload.h whatwg.h guess_int.h \
		    guess_lm.h
	done
}

# The objects' calls between files: "A B" when A.o uses a symbol B.o
# defines, among the objects below the folders given (tsort finds a
# circle among them).  nm reads them all in two runs: a run costs tens of
# milliseconds on its own, and there are a hundred objects.
calls() {
	local objs
	objs=$(find "$@" -name '*.o')
	{
		# shellcheck disable=SC2086
		nm -A -g --defined-only $objs | awk '$2 ~ /^[TDBR]$/ {
		    f = $1; sub(/:[^:]*$/, "", f); sub(/.*\//, "", f)
		    print "D " $3 " " f }'
		# shellcheck disable=SC2086
		nm -A -u $objs | awk '{ f = $1; sub(/:[^:]*$/, "", f)
		    sub(/.*\//, "", f); print "U " $NF " " f }'
	} | awk '$1 == "D" { def[$2] = $3 } $1 == "U" { use[NR] = $3 " " $2 }
	    END { for (i in use) { split(use[i], a, " ")
		if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' |
	    sort -u
}

# no_circle DIR...: the objects below DIR call each other in no circle
# (skipped where nothing is built there).
no_circle() {
	local out
	command -v nm >/dev/null || skip "nm (binutils) is not installed"
	[ -n "$(find "$@" -name '*.o' 2>/dev/null | head -n 1)" ] ||
	    skip "nothing is built in $*"
	out=$(calls "$@" | tsort 2>&1 >/dev/null) || true
	[ -z "$out" ] || { echo "$out"; false; }
}

@test "layers: no circle of calls between the library's files" {
	no_circle "$SRC/lib"
}

@test "layers: no circle of calls between the command line's files" {
	no_circle "$SRC/cli"
}

# The extension's objects as make python leaves them (python/build/),
# one for each source and none older than it or a header: objects of an
# earlier build would hold the files as they were, not as they are.
@test "layers: no circle of calls between the Python extension's files" {
	local x="$BATS_TEST_DIRNAME/../python/xmlsniff" c o d
	d=$(find "$BATS_TEST_DIRNAME/../python/build" -name _core.o \
	    2>/dev/null | head -n 1)
	[ -n "$d" ] || skip "the extension is not built (make python)"
	d=${d%/*}
	for c in "$x"/*.c; do
		o=$d/$(basename "$c" .c).o
		[ -f "$o" ] && [ ! "$c" -nt "$o" ] &&
		    [ -z "$(find "$x" -name '*.h' -newer "$o")" ] ||
		    skip "the extension's objects are older than its sources (make python)"
	done
	no_circle $(for c in "$x"/*.c; do echo "$d/$(basename "$c" .c).o"; done)
}

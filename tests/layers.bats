#!/usr/bin/env bats
# The layers of doc/DESIGN.md, as the include lines show them: a source
# file includes its own layer's header and those below, never one above.
load helper

SRC="$BATS_TEST_DIRNAME/../src"

# loc NAME: where the file NAME is below src/ (names are unique there).
loc() {
	find "$SRC" -name "$1" | head -n 1
}

# includes FILE: the project headers FILE includes, one a line.
includes() {
	sed -n 's/^#include "\(.*\)"$/\1/p' "$1" | sed 's|^\.\./||'
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

@test "layers: the text layer includes nothing of the project" {
	only utf.c utf.h
	[ -z "$(includes "$(loc utf.h)")" ]
}

@test "layers: the core includes only the core and the text layer" {
	local f
	for f in bom.c codes.c decl.c diag.c enc.c iconvcap.c memo.c mt.c sniff.c suggest.c; do
		only $f core.h utf.h enctab.h iconvcap.h
	done
	[ "$(includes "$(loc core.h)")" = utf.h ]
}

@test "layers: the kernels include only the kernels and the core" {
	local f
	only late.c kernels.h
	for f in "$SRC"/lib/simd/*.c; do
		only "${f##*/}" kernels.h simd.h testhooks.h
	done
	[ "$(includes "$(loc kernels.h)")" = core.h ]
}

@test "layers: the output primitives and the engine never include the I/O layer" {
	local f
	only record.c out.h
	only escape.c out.h utf.h
	for f in decode.c decode_iconv.c decode_utf.c dest.c iconvout.c input.c target.c \
	    transcode.c validate.c xmllex.c; do
		only $f engine.h testhooks.h decode.h dest.h iconvcap.h \
		    iconvout.h target.h val.h xc.h xmllex.h
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

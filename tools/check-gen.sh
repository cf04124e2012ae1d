#!/bin/sh
# check-gen.sh FILE TARGET GENERATOR SOURCES...: whether the committed
# generated FILE is what GENERATOR (a Python 3 script) makes of SOURCES
# now; the difference is shown, and "make TARGET" named, when it is not.
set -u
file=$1 target=$2 gen=$3
shift 3
t=${TMPDIR:-/tmp}/xmlsniff-gen.$$
trap 'rm -f "$t"' EXIT
python3 "$gen" "$@" > "$t" || exit 1
if diff -u "$file" "$t"; then
	echo "$file is up to date"
else
	echo "$file is out of date: make $target" >&2
	exit 1
fi

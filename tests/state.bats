#!/usr/bin/env bats
# Thread safety by construction (issue 24): the library keeps no mutable
# state of the process but what is made once and then only read (behind
# pthread_once or an atomic), the one choice of kernels, the answers of
# iconv kept for the process (memo.c), and the table of mappings that
# the SIGBUS handler mends.  Every symbol in a writable section of the
# library's objects is in the list below, with the reason it may be
# there; a new one fails until it is made per-checker or one-time and
# added here.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

ROOT="$BATS_TEST_DIRNAME/.."

# The writable symbols of the objects below src/lib/, as "FILE SYMBOL",
# the compiler's numbering of function-local statics (".0") dropped, and
# AddressSanitizer's one-definition markers (__odr_asan.NAME, a byte the
# instrumentation adds beside each global of a make sanitize build) left
# out: the global itself is listed, by its own name, where it is writable.
writable() {
	local o
	for o in $(find "$ROOT/src/lib" -name '*.o' | sort); do
		objdump -t "$o" | awk -v f="${o##*/}" '
		    $0 ~ / (\.data|\.bss|\.tdata|\.tbss)[.a-zA-Z0-9_]*[ \t]/ &&
		    $0 !~ /\.data\.rel\.ro/ && $NF !~ /^\./ &&
		    $NF !~ /^__odr_asan/ {
			n = $NF; sub(/\.[0-9]+$/, "", n); print f " " n
		    }'
	done
}

@test "state: the library's objects keep no mutable state but the one-time and atomic kind" {
	command -v objdump >/dev/null || skip "objdump (binutils) is not installed"
	[ -n "$(find "$ROOT/src/lib" -name '*.o' | head -n 1)" ] ||
	    skip "the library is not built"
	local allowed bad=0 line
	# FILE SYMBOL: why it may be
	allowed='
guess_cand.o tables		the byte tables of the candidates, built once
guess_cand.o avail
guess_cand.o once
guess_ud.o ud			libuchardet, loaded once (pthread_once)
guess_ud.o ud_once
coding.o zl			zlib, loaded once (pthread_once)
coding.o zl_once
coding.o br			libbrotli, loaded once (pthread_once)
coding.o br_once
coding.o methods		what decodes, for --help, made once (pthread_once)
coding.o methods_once
select.o val_char_only		the reference paths: an atomic, set with the kernels
prescan.o pre_test_split	the look-ahead taken in part, for the unit driver: an atomic
input.o ahead_test_min		files read ahead however small, for the unit driver: an atomic
ahead.o ahead_test_alternate	both threads reading ahead in turn, for the unit driver: an atomic
ahead.o ahead_test_hold	the second thread holding each piece for the first, for the unit driver: an atomic
leap.o late_leap_count		the leaps of the late lexer counted, for the unit driver: atomics
decode_utf.o qtab		the UTF-8 automaton, built once (pthread_once)
decode_utf.o qwtab
decode_utf.o qtab_once
input.o slots			mappings the SIGBUS handler mends: atomics
input.o old_bus			the handler before ours, set once (pthread_once)
input.o bus_ok
input.o bus_once
wide_avx2.o pack16		AVX2 shuffle tables, built once (pthread_once)
wide_avx2.o pack32
narrow_avx2.o pack8
narrow_avx2.o pack8_len
narrow_avx2.o pack2
scan_avx2.o moj_lead64		the mojibake pair tests by whole bytes, built once (pthread_once)
scan_avx2.o moj_next64
avx2.o tables_once
avx2.o known			whether the CPU runs AVX2: an atomic
avx512.o known			whether the CPU runs AVX-512: an atomic
select.o kern			the kernels chosen: one atomic pointer
select.o kern_bad		XMLSNIFF_SIMD named none: an atomic
select.o kern_once
declparse.o ebcdic_map	IBM037 for EBCDIC declarations, built once
declparse.o ebcdic_once
enc.o memo			the iconv name of each table entry: atomics
enc.o pairs			iconv answers kept (memo.c: atomics)
enc.o utf8_label		the label utf-8 of the table, found once (pthread_once)
enc.o utf8_once
iconvcap.o known		iconv answers kept (memo.c: atomics)
iconvcap.o seen			the pairs whose converters are held (memo.c: atomics)
iconvcap.o held			a descriptor of each, for the process: atomics
iconvcap.o u32le		the UTF-32LE name iconv takes, found once
iconvcap.o u32le_once
codes.o byaddr			the codes by the address of their names, built once (pthread_once)
codes.o byaddr_code
codes.o byaddr_once
'
	while read -r line; do
		if ! printf '%s\n' "$allowed" | awk '{print $1 " " $2}' |
		    grep -qxF "$line"; then
			echo "mutable state: $line"
			bad=1
		fi
	done < <(writable)
	[ "$bad" = 0 ]
}

# xmlsniff -- POSIX make (GNU make and bmake).

# The version, here and nowhere else: src/version.h (--version, the SARIF
# log's tool.driver.version), the installed manual page and make dist
# take it from this line.  NEWS says what changed in each.
VERSION =	1.0.0

PREFIX ?=	/usr/local
MANPREFIX ?=	$(PREFIX)/share/man
BINDIR =	$(PREFIX)/bin
MANDIR =	$(MANPREFIX)/man1

CC ?=		cc
CFLAGS ?=	-O2 -g
# -liconv where libc has no iconv (macOS, OpenBSD); empty on glibc and musl.
# ICONV_CFLAGS: -I for another iconv.h, e.g. GNU libiconv's (see README).
ICONV_CFLAGS =
ICONV_LIBS =
# The searching thread of prescan.c (POSIX threads).
THREAD_LIBS =	-pthread

WARN =		-std=c11 -Wall -Wextra -Wpedantic -Wshadow \
		-Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
		-Wwrite-strings -Wvla
XCFLAGS =	$(WARN) -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 \
		$(ICONV_CFLAGS)

# One list of sources: everything but main.c and opts.c (the command
# line) is the core that the unit driver and the fuzz targets link.
CORE_SRCS =	src/bom.c src/config.c src/decl.c src/dest.c src/diag.c \
		src/enc.c src/escape.c src/fix.c src/format.c src/iconvcap.c \
		src/iconvout.c src/input.c src/late.c src/mt.c src/perfile.c \
		src/policy.c \
		src/record.c src/report.c src/simd/avx2.c src/simd/avx512.c \
		src/simd/common.c \
		src/simd/neon.c src/simd/ref.c src/simd/select.c \
		src/simd/sse2.c src/simd/word.c src/sniff.c src/target.c \
		src/transcode.c src/utf.c src/validate.c \
		src/walk.c src/xmllex.c src/http.c src/browser.c src/excerpt.c \
		src/github.c src/repo.c \
		src/mojibake.c src/decode.c src/decode_iconv.c \
		src/decode_utf.c src/prescan.c src/simd/dense_avx2.c src/suggest.c \
		src/notxml.c
GUESS_SRCS =	src/guess.c src/guess_cand.c src/guess_char.c \
		src/guess_choose.c src/guess_model.c src/guess_note.c \
		src/guess_read.c src/guess_ud.c
GUESS =		$(GUESS_SRCS:.c=.o)
SRCS =		$(CORE_SRCS) src/main.c src/opts.c $(GUESS_SRCS) src/jobs.c \
		src/coding.c
CORE =		$(CORE_SRCS:.c=.o)
OBJS =		$(CORE) src/main.o src/opts.o $(GUESS) src/jobs.o \
		src/coding.o
HDRS =		src/xmlsniff.h src/core.h src/kernels.h src/engine.h src/io.h \
		src/out.h src/testhooks.h src/enctab.h src/utf.h src/opts.h \
		src/simd/simd.h src/dest.h src/iconvcap.h src/iconvout.h \
		src/target.h src/val.h src/xc.h src/xmllex.h src/http.h \
		src/browser.h src/whatwg.h src/excerpt.h src/guess.h \
		src/guess_int.h \
		src/mojibake.h src/decode.h src/jobs.h src/coding.h src/xmltypes.h \
		src/version.h

all: xmlsniff

# XMLSNIFF_VERSION for the C sources, made from VERSION above (a build
# product: not in git, not in the tarball).  Rewritten only when the
# version changes, so that another edit of this file rebuilds nothing.
src/version.h: Makefile
	@printf '/* Made by make from VERSION in the Makefile. */\n#define XMLSNIFF_VERSION "%s"\n' \
	    '$(VERSION)' > src/version.h.tmp
	@if cmp -s src/version.h.tmp src/version.h; then rm -f src/version.h.tmp; \
	else mv src/version.h.tmp src/version.h; fi
print-version:
	@echo $(VERSION)

xmlsniff: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(ICONV_LIBS) $(THREAD_LIBS) \
	    `$(HAVE_UCHARDET) && echo $(DL_LIBS)` \
	    `$(HAVE_ZLIB) && echo $(ZLIB_LIBS)` \
	    `$(HAVE_BROTLI) && echo $(BROTLI_LIBS)`

# libuchardet is optional: where its header is found (Debian:
# libuchardet-dev), the guess asks it too (guess_ud.c), loading it with
# dlopen(3) when a guess first needs it (linked, it would bring the C++
# runtime into every run); elsewhere, or where it does not load, the
# built-in models rank alone
# (xmlsniff --help says which).  UCHARDET=no builds without it where it
# is installed.  DL_LIBS: what dlopen needs (-ldl; empty on glibc 2.34
# and later, musl and macOS, where it is in libc, but harmless there).
UCHARDET =
DL_LIBS =	-ldl
HAVE_UCHARDET =	{ [ "$(UCHARDET)" != no ] && printf \
		'\043include <uchardet/uchardet.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
src/guess_model.o: src/guess_lm.h
src/guess_ud.o: src/guess_ud.c $(HDRS)
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_UCHARDET) && echo -DHAVE_UCHARDET` -c -o $@ src/guess_ud.c

# zlib and libbrotli are optional too: where their headers are found
# (Debian: zlib1g-dev, libbrotli-dev), --http decodes a body sent with
# Content-Encoding gzip or deflate (zlib) and br (libbrotli), src/coding.c;
# elsewhere such a body draws http-encoded, which says how to fetch it
# plain (xmlsniff --help says which the build has).  ZLIB=no and BROTLI=no
# build without them where they are installed.
ZLIB =
BROTLI =
ZLIB_LIBS =	-lz
BROTLI_LIBS =	-lbrotlidec
HAVE_ZLIB =	{ [ "$(ZLIB)" != no ] && printf \
		'\043include <zlib.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
HAVE_BROTLI =	{ [ "$(BROTLI)" != no ] && printf \
		'\043include <brotli/decode.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
src/coding.o: src/coding.c $(HDRS)
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_ZLIB) && echo -DHAVE_ZLIB` \
	    `$(HAVE_BROTLI) && echo -DHAVE_BROTLI` -c -o $@ src/coding.c

.SUFFIXES: .c .o
.c.o:
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(OBJS): $(HDRS)

# The unit driver: tests/unit.c and the kernel equivalence sweeps.
UNIT_SRCS =	tests/unit.c tests/kern_fastpath.c tests/kern_dense.c \
		tests/kern_mapped.c tests/kern_engine.c tests/kern_wide.c \
		tests/kern_spec.c tests/kern_util.c tests/kern_errdense.c \
		tests/kern_moj.c tests/kern_xc.c tests/kern_xc2.c \
		tests/kern_runs.c tests/unit_names.c tests/unit_guess.c
tests/unit: $(UNIT_SRCS) tests/unit.h tests/kern.h tests/kern_fast.h $(CORE) \
	    $(GUESS) $(HDRS)
	$(CC) $(XCFLAGS) -Isrc $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ \
	    $(UNIT_SRCS) $(CORE) $(GUESS) $(ICONV_LIBS) $(THREAD_LIBS) \
	    `$(HAVE_UCHARDET) && echo $(DL_LIBS)`

# The encoding table is generated from the IANA registry and two tables
# of ours (tools/gen-enctab.py says what each gives); the output is
# committed so that building needs no Python.  check-enctab fails, showing
# the difference, when src/enctab.h is not what its sources make.
ENCTAB_SRCS =	data/iana-character-sets.csv tools/families.tsv \
		tools/iconv-names.tsv
enctab:
	python3 tools/gen-enctab.py $(ENCTAB_SRCS) > src/enctab.h.tmp || \
	    { rm -f src/enctab.h.tmp; exit 1; }
	mv src/enctab.h.tmp src/enctab.h

check-enctab:
	@sh tools/check-gen.sh src/enctab.h enctab tools/gen-enctab.py \
	    $(ENCTAB_SRCS)

# The WHATWG label table of --browser, generated the same way from the
# standard's data and a table of ours (tools/gen-whatwg.py).
WHATWG_SRCS =	tools/whatwg-encodings.json tools/whatwg-iconv.tsv
whatwg:
	python3 tools/gen-whatwg.py $(WHATWG_SRCS) > src/whatwg.h.tmp || \
	    { rm -f src/whatwg.h.tmp; exit 1; }
	mv src/whatwg.h.tmp src/whatwg.h

check-whatwg:
	@sh tools/check-gen.sh src/whatwg.h whatwg tools/gen-whatwg.py \
	    $(WHATWG_SRCS)

# The one list of XML file types, data/xml-types.tsv, makes the tables of
# -r (src/xmltypes.h) and the files: pattern of .pre-commit-hooks.yaml;
# check-xmltypes fails, showing the difference, when either has drifted.
xmltypes:
	python3 tools/gen-xmltypes.py data/xml-types.tsv > src/xmltypes.h.tmp \
	    || { rm -f src/xmltypes.h.tmp; exit 1; }
	mv src/xmltypes.h.tmp src/xmltypes.h
	python3 tools/gen-xmltypes.py --hooks data/xml-types.tsv \
	    .pre-commit-hooks.yaml > .pre-commit-hooks.yaml.tmp || \
	    { rm -f .pre-commit-hooks.yaml.tmp; exit 1; }
	mv .pre-commit-hooks.yaml.tmp .pre-commit-hooks.yaml

check-xmltypes:
	@sh tools/check-gen.sh src/xmltypes.h xmltypes tools/gen-xmltypes.py \
	    data/xml-types.tsv
	@sh tools/check-gen.sh .pre-commit-hooks.yaml xmltypes \
	    tools/gen-xmltypes.py --hooks data/xml-types.tsv \
	    .pre-commit-hooks.yaml

# The C library's strerror texts, which some tests compare with.
tests/strerror: tests/strerror.c
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/strerror.c

# The tiers (tests/run): make check, the README's test command, runs the
# unit driver (with the kernel equivalence sweeps), every bats test not
# tagged slow, on as many jobs as there are processors, and the man page
# lint, in a few minutes; make check-slow runs the tests tagged slow
# (huge inputs, a whole build from the tarball, pre-commit's own
# environments); make check-all runs both.  One summary line per part,
# with its seconds; the full output is in build/check*.log, and V=1
# prints it as well.  JOBS=1 runs bats one test at a time.
V =
JOBS =
# The binary and the drivers are built on every processor first.
NPROC =		`getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1`
check-build:
	@$(MAKE) -j$(NPROC) xmlsniff tests/unit tests/strerror
check: check-build
	V='$(V)' JOBS='$(JOBS)' sh tests/run fast
check-slow: check-build
	V='$(V)' JOBS='$(JOBS)' sh tests/run slow
check-all: check-build
	V='$(V)' JOBS='$(JOBS)' sh tests/run all

# make check on an AddressSanitizer + UBSan build (the slow tier runs
# natively in CI: under the sanitizers its inputs would take too long).
sanitize:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" xmlsniff tests/unit tests/strerror
	JOBS='$(JOBS)' sh tests/run fast

# libFuzzer targets (clang): make fuzz, then run e.g.
# fuzz/sniff-fuzz -max_total_time=600 fuzz/corpus-sniff fuzz/seeds
FUZZ_CC =	clang
FUZZ_FLAGS =	-g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L -Isrc
FUZZ_SRCS =	$(CORE_SRCS)
FUZZERS =	fuzz/sniff-fuzz fuzz/decl-fuzz fuzz/mt-fuzz \
		fuzz/validate-fuzz fuzz/transcode-fuzz

fuzz: $(FUZZERS) fuzz/diff-fuzz

fuzz/sniff-fuzz: fuzz/sniff_fuzz.c fuzz/common.h $(FUZZ_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/sniff_fuzz.c $(FUZZ_SRCS) \
	    $(ICONV_LIBS) $(THREAD_LIBS)
fuzz/decl-fuzz: fuzz/decl_fuzz.c $(FUZZ_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/decl_fuzz.c $(FUZZ_SRCS) \
	    $(ICONV_LIBS) $(THREAD_LIBS)
fuzz/mt-fuzz: fuzz/mt_fuzz.c $(FUZZ_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/mt_fuzz.c $(FUZZ_SRCS) \
	    $(ICONV_LIBS) $(THREAD_LIBS)
fuzz/validate-fuzz: fuzz/validate_fuzz.c $(FUZZ_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/validate_fuzz.c $(FUZZ_SRCS) \
	    $(ICONV_LIBS) $(THREAD_LIBS)
fuzz/transcode-fuzz: fuzz/transcode_fuzz.c fuzz/common.h $(FUZZ_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/transcode_fuzz.c $(FUZZ_SRCS) \
	    $(ICONV_LIBS) $(THREAD_LIBS)

# xmlsniff against libxml2 and expat (fuzz/diff.c), where their headers are
# installed (Debian: libxml2-dev libexpat1-dev); skipped with a message
# where they are not.
DIFF_CFLAGS =	`pkg-config --cflags libxml-2.0 2>/dev/null || xml2-config --cflags 2>/dev/null`
DIFF_LIBS =	-lxml2 -lexpat
fuzz/diff-fuzz: fuzz/diff_fuzz.c fuzz/diff.c fuzz/diff.h $(FUZZ_SRCS) $(HDRS)
	@if $(FUZZ_CC) $(DIFF_CFLAGS) -Isrc -E fuzz/diff.c > /dev/null 2>&1; then \
	    echo "$(FUZZ_CC) ... -o $@"; \
	    $(FUZZ_CC) $(FUZZ_FLAGS) $(DIFF_CFLAGS) -o $@ fuzz/diff_fuzz.c \
	    fuzz/diff.c $(FUZZ_SRCS) $(DIFF_LIBS) $(ICONV_LIBS) $(THREAD_LIBS); \
	else \
	    echo "fuzz/diff-fuzz skipped: libxml2 or expat headers not found (libxml2-dev, libexpat1-dev)"; \
	fi

# From the sources, not the objects: those may have been built with other
# flags (make sanitize) than this build gets when tests/differential asks.
tests/diffcheck: tests/diffcheck.c fuzz/diff.c fuzz/diff.h $(FUZZ_SRCS) $(HDRS)
	$(CC) $(XCFLAGS) -Isrc -Ifuzz $(DIFF_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/diffcheck.c fuzz/diff.c $(FUZZ_SRCS) \
	    $(DIFF_LIBS) $(ICONV_LIBS) $(THREAD_LIBS)

# The differential check over generated documents, the examples and the
# shared corpus when it is there (status 77 from the script: skipped).
check-differential: xmlsniff
	@sh tests/differential; s=$$?; [ $$s = 77 ] || exit $$s

# Each fuzz target for FUZZ_SECONDS (default 30) on its seeds.
FUZZ_SECONDS =	30
fuzz-run: fuzz
	sh fuzz/run $(FUZZ_SECONDS)

# The suite on other machines and C libraries (tests/cross): s390x
# (big-endian) and arm64 (the NEON paths) under qemu-user, musl, and
# GNU libiconv.
check-s390x:
	sh tests/cross s390x
check-arm64:
	sh tests/cross arm64
check-musl:
	sh tests/cross musl
# GNU libiconv (as on macOS and the BSDs), built from its source for the
# test only: tests/cross fetches it with npm into build/libiconv/.
check-libiconv:
	sh tests/cross libiconv

# Every call of the binary in the suite under valgrind (the cases with
# inputs of 100 MB and more skip there), and the unit driver.
VALGRIND =	valgrind -q --error-exitcode=99 --leak-check=full
check-valgrind: xmlsniff tests/unit
	$(VALGRIND) ./tests/unit > /dev/null
	XMLSNIFF_WRAP='$(VALGRIND)' bats tests

# Speed against the peers (file, isutf8, iconv, uconv, xmllint, uchardet).
bench: xmlsniff
	sh bench/run

# Shell completions (completions/), where each shell looks for them below
# PREFIX: bash-completion's and fish's completionsdir as their pkg-config
# files say (their prefix and datadir set to PREFIX's), else the usual
# places; zsh's site-functions.  BASHCOMPDIR, ZSHCOMPDIR and FISHCOMPDIR
# name others.
BASHCOMPDIR =
ZSHCOMPDIR =	$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR =
COMPDIRS =	pc() { pkg-config --define-variable=prefix='$(PREFIX)' \
		    --define-variable=datadir='$(PREFIX)/share' \
		    --variable=completionsdir "$$1" 2>/dev/null; }; \
		bc='$(BASHCOMPDIR)'; [ -n "$$bc" ] || bc=`pc bash-completion`; \
		[ -n "$$bc" ] || bc='$(PREFIX)/share/bash-completion/completions'; \
		fc='$(FISHCOMPDIR)'; [ -n "$$fc" ] || fc=`pc fish`; \
		[ -n "$$fc" ] || fc='$(PREFIX)/share/fish/vendor_completions.d'; \
		zc='$(ZSHCOMPDIR)'

# The installed manual page names the version in its footer (.Os).
install: xmlsniff
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	cp xmlsniff $(DESTDIR)$(BINDIR)/xmlsniff
	chmod 755 $(DESTDIR)$(BINDIR)/xmlsniff
	sed 's/^\.Os$$/.Os xmlsniff $(VERSION)/' man/xmlsniff.1 \
	    > $(DESTDIR)$(MANDIR)/xmlsniff.1
	chmod 644 $(DESTDIR)$(MANDIR)/xmlsniff.1
	@$(COMPDIRS); set -ex; \
	mkdir -p "$(DESTDIR)$$bc" "$(DESTDIR)$$zc" "$(DESTDIR)$$fc"; \
	cp completions/xmlsniff.bash "$(DESTDIR)$$bc/xmlsniff"; \
	cp completions/_xmlsniff "$(DESTDIR)$$zc/_xmlsniff"; \
	cp completions/xmlsniff.fish "$(DESTDIR)$$fc/xmlsniff.fish"; \
	chmod 644 "$(DESTDIR)$$bc/xmlsniff" "$(DESTDIR)$$zc/_xmlsniff" \
	    "$(DESTDIR)$$fc/xmlsniff.fish"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/xmlsniff $(DESTDIR)$(MANDIR)/xmlsniff.1
	@$(COMPDIRS); set -x; rm -f "$(DESTDIR)$$bc/xmlsniff" \
	    "$(DESTDIR)$$zc/_xmlsniff" "$(DESTDIR)$$fc/xmlsniff.fish"

# The release tarball xmlsniff-VERSION.tar.gz: the files git tracks, as
# they are in the work tree, below the directory xmlsniff-VERSION/; no
# build products.  It builds and passes make check unpacked with no git
# (tests/release.bats).
DIST =		xmlsniff-$(VERSION)
dist:
	@git rev-parse --is-inside-work-tree > /dev/null 2>&1 || \
	    { echo "make dist: the files to pack are those git tracks;" \
	    "run it in a git work tree" >&2; exit 2; }
	rm -rf build/$(DIST) $(DIST).tar.gz
	mkdir -p build/$(DIST)
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C build/$(DIST)
	tar -cf - -C build $(DIST) | gzip -9n > $(DIST).tar.gz.tmp
	mv $(DIST).tar.gz.tmp $(DIST).tar.gz
	rm -rf build/$(DIST)
	@echo $(DIST).tar.gz

clean:
	rm -f xmlsniff $(OBJS) tests/unit tests/strerror $(FUZZERS) \
	    fuzz/diff-fuzz tests/diffcheck src/version.h $(DIST).tar.gz

PHONY_CHECKS =	check-s390x check-arm64 check-musl check-libiconv \
		check-valgrind check-differential check-enctab check-whatwg \
		check-xmltypes
# The sources, for builds outside make (tests/cross).
print-core:
	@echo $(CORE_SRCS)
print-srcs:
	@echo $(SRCS)
print-unit:
	@echo $(UNIT_SRCS)

.PHONY: $(PHONY_CHECKS) check-build print-core print-srcs print-unit print-version all check check-slow check-all dist sanitize install uninstall clean enctab whatwg xmltypes fuzz fuzz-run bench

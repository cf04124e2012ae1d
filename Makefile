# xmlsniff -- POSIX make (GNU make and bmake).

# The version, here and nowhere else: src/cli/version.h (--version, the SARIF
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
		$(INC) $(ICONV_CFLAGS)

# The sources by folder (doc/DESIGN.md): src/lib/ is the engine, in
# layers (text, sniff, decode, simd, transcode, analysis); src/cli/ is
# the command line.  CORE_SRCS is what the unit driver and the fuzz
# targets link: the engine and the parts of the command line they test,
# everything but main.c, opts.c, jobs.c, coding.c and guess.c.
LIB_DIRS =	src/lib/text src/lib/sniff src/lib/decode src/lib/simd \
		src/lib/transcode src/lib/analysis
LIB_SRCS =	src/lib/text/utf.c src/lib/text/escape.c src/lib/text/suggest.c \
		src/lib/sniff/bom.c src/lib/sniff/codes.c src/lib/sniff/decl.c \
		src/lib/sniff/diag.c \
		src/lib/sniff/enc.c src/lib/sniff/iconvcap.c src/lib/sniff/mt.c \
		src/lib/sniff/notxml.c src/lib/sniff/policy.c \
		src/lib/sniff/sniff.c \
		src/lib/decode/decode.c src/lib/decode/decode_iconv.c \
		src/lib/decode/decode_utf.c src/lib/decode/input.c \
		src/lib/decode/late.c src/lib/decode/prescan.c \
		src/lib/decode/validate.c \
		src/lib/simd/avx2.c src/lib/simd/avx512.c src/lib/simd/common.c \
		src/lib/simd/dense_avx2.c src/lib/simd/neon.c src/lib/simd/ref.c \
		src/lib/simd/select.c src/lib/simd/sse2.c src/lib/simd/word.c \
		src/lib/transcode/iconvout.c src/lib/transcode/target.c \
		src/lib/transcode/transcode.c src/lib/transcode/xmllex.c \
		src/lib/analysis/browser.c src/lib/analysis/excerpt.c \
		src/lib/analysis/mojibake.c
CLI_CORE_SRCS =	src/cli/config.c src/cli/dest.c src/cli/fix.c src/cli/format.c \
		src/cli/github.c src/cli/http.c src/cli/perfile.c \
		src/cli/record.c src/cli/repo.c src/cli/report.c src/cli/walk.c
CORE_SRCS =	$(LIB_SRCS) $(CLI_CORE_SRCS)
SRCS =		$(CORE_SRCS) src/cli/main.c src/cli/opts.c src/cli/jobs.c \
		src/cli/coding.c src/lib/analysis/guess.c
CORE =		$(CORE_SRCS:.c=.o)
OBJS =		$(SRCS:.c=.o)
HDRS =		src/cli/all.h src/cli/io.h src/cli/opts.h src/cli/dest.h \
		src/cli/http.h src/cli/jobs.h src/cli/coding.h \
		src/cli/xmltypes.h src/cli/version.h \
		src/lib/text/utf.h src/lib/text/out.h \
		src/lib/sniff/core.h src/lib/sniff/enctab.h \
		src/lib/sniff/iconvcap.h \
		src/lib/decode/engine.h src/lib/decode/decode.h \
		src/lib/decode/val.h src/lib/decode/testhooks.h \
		src/lib/simd/kernels.h src/lib/simd/simd.h \
		src/lib/transcode/target.h src/lib/transcode/xc.h \
		src/lib/transcode/xmllex.h src/lib/transcode/iconvout.h \
		src/lib/analysis/browser.h src/lib/analysis/whatwg.h \
		src/lib/analysis/excerpt.h src/lib/analysis/guess.h \
		src/lib/analysis/mojibake.h
# Every folder's headers by their bare names (make print-inc: for the
# builds outside make, tests/cross and tests/differential).
INC =		-Isrc/cli -Isrc/lib/text -Isrc/lib/sniff -Isrc/lib/decode \
		-Isrc/lib/simd -Isrc/lib/transcode -Isrc/lib/analysis

all: xmlsniff

# XMLSNIFF_VERSION for the C sources, made from VERSION above (a build
# product: not in git, not in the tarball).  Rewritten only when the
# version changes, so that another edit of this file rebuilds nothing.
src/cli/version.h: Makefile
	@printf '/* Made by make from VERSION in the Makefile. */\n#define XMLSNIFF_VERSION "%s"\n' \
	    '$(VERSION)' > src/cli/version.h.tmp
	@if cmp -s src/cli/version.h.tmp src/cli/version.h; then rm -f src/cli/version.h.tmp; \
	else mv src/cli/version.h.tmp src/cli/version.h; fi
print-version:
	@echo $(VERSION)

xmlsniff: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(ICONV_LIBS) $(THREAD_LIBS) \
	    `$(HAVE_UCHARDET) && echo $(DL_LIBS)` \
	    `$(HAVE_ZLIB) && echo $(ZLIB_LIBS)` \
	    `$(HAVE_BROTLI) && echo $(BROTLI_LIBS)`

# libuchardet is optional: where its header is found (Debian:
# libuchardet-dev), guess.c ranks with it, loading it with dlopen(3) when
# a guess first needs it (linked, it would bring the C++ runtime into
# every run); elsewhere, or where it does not load, guess.c ranks alone
# (xmlsniff --help says which).  UCHARDET=no builds without it where it
# is installed.  DL_LIBS: what dlopen needs (-ldl; empty on glibc 2.34
# and later, musl and macOS, where it is in libc, but harmless there).
UCHARDET =
DL_LIBS =	-ldl
HAVE_UCHARDET =	{ [ "$(UCHARDET)" != no ] && printf \
		'\043include <uchardet/uchardet.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
src/lib/analysis/guess.o: src/lib/analysis/guess.c $(HDRS)
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_UCHARDET) && echo -DHAVE_UCHARDET` -c -o $@ src/lib/analysis/guess.c

# zlib and libbrotli are optional too: where their headers are found
# (Debian: zlib1g-dev, libbrotli-dev), --http decodes a body sent with
# Content-Encoding gzip or deflate (zlib) and br (libbrotli), src/cli/coding.c;
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
src/cli/coding.o: src/cli/coding.c $(HDRS)
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_ZLIB) && echo -DHAVE_ZLIB` \
	    `$(HAVE_BROTLI) && echo -DHAVE_BROTLI` -c -o $@ src/cli/coding.c

.SUFFIXES: .c .o
.c.o:
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(OBJS): $(HDRS)

# The unit driver: tests/unit.c and the kernel equivalence sweeps.
UNIT_SRCS =	tests/unit.c tests/kern_fastpath.c tests/kern_dense.c \
		tests/kern_mapped.c tests/kern_engine.c tests/kern_wide.c \
		tests/kern_spec.c tests/kern_util.c tests/kern_errdense.c \
		tests/kern_moj.c tests/kern_xc.c tests/kern_xc2.c \
		tests/kern_runs.c tests/unit_names.c
tests/unit: $(UNIT_SRCS) tests/unit.h tests/kern.h tests/kern_fast.h $(CORE) \
	    $(HDRS)
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ \
	    $(UNIT_SRCS) $(CORE) $(ICONV_LIBS) $(THREAD_LIBS)

# The encoding table is generated from the IANA registry and two tables
# of ours (tools/gen-enctab.py says what each gives); the output is
# committed so that building needs no Python.  check-enctab fails, showing
# the difference, when src/lib/sniff/enctab.h is not what its sources make.
ENCTAB_SRCS =	data/iana-character-sets.csv tools/families.tsv \
		tools/iconv-names.tsv
enctab:
	python3 tools/gen-enctab.py $(ENCTAB_SRCS) > src/lib/sniff/enctab.h.tmp || \
	    { rm -f src/lib/sniff/enctab.h.tmp; exit 1; }
	mv src/lib/sniff/enctab.h.tmp src/lib/sniff/enctab.h

check-enctab:
	@sh tools/check-gen.sh src/lib/sniff/enctab.h enctab tools/gen-enctab.py \
	    $(ENCTAB_SRCS)

# The WHATWG label table of --browser, generated the same way from the
# standard's data and a table of ours (tools/gen-whatwg.py).
WHATWG_SRCS =	tools/whatwg-encodings.json tools/whatwg-iconv.tsv
whatwg:
	python3 tools/gen-whatwg.py $(WHATWG_SRCS) > src/lib/analysis/whatwg.h.tmp || \
	    { rm -f src/lib/analysis/whatwg.h.tmp; exit 1; }
	mv src/lib/analysis/whatwg.h.tmp src/lib/analysis/whatwg.h

check-whatwg:
	@sh tools/check-gen.sh src/lib/analysis/whatwg.h whatwg tools/gen-whatwg.py \
	    $(WHATWG_SRCS)

# The one list of XML file types, data/xml-types.tsv, makes the tables of
# -r (src/cli/xmltypes.h) and the files: pattern of .pre-commit-hooks.yaml;
# check-xmltypes fails, showing the difference, when either has drifted.
xmltypes:
	python3 tools/gen-xmltypes.py data/xml-types.tsv > src/cli/xmltypes.h.tmp \
	    || { rm -f src/cli/xmltypes.h.tmp; exit 1; }
	mv src/cli/xmltypes.h.tmp src/cli/xmltypes.h
	python3 tools/gen-xmltypes.py --hooks data/xml-types.tsv \
	    .pre-commit-hooks.yaml > .pre-commit-hooks.yaml.tmp || \
	    { rm -f .pre-commit-hooks.yaml.tmp; exit 1; }
	mv .pre-commit-hooks.yaml.tmp .pre-commit-hooks.yaml

check-xmltypes:
	@sh tools/check-gen.sh src/cli/xmltypes.h xmltypes tools/gen-xmltypes.py \
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
	V='$(V)' JOBS='$(JOBS)' PYTHON='$(PYTHON)' sh tests/run fast
check-slow: check-build
	V='$(V)' JOBS='$(JOBS)' PYTHON='$(PYTHON)' sh tests/run slow
check-all: check-build
	V='$(V)' JOBS='$(JOBS)' PYTHON='$(PYTHON)' sh tests/run all

# The Python package, python/ (README, "Python"): make python builds its
# extension in place, linked with the libxmlsniff.a just built, so that
# PYTHONPATH=python $(PYTHON) -c 'import xmlsniff' uses this library.
# PYTHON is the interpreter to build for and test with: Debian's is
# /usr/bin/python3, and the python3 first on PATH may be another one,
# without Debian's packages (make python PYTHON=/usr/bin/python3).
# tests/run runs the package's tests not tagged slow in make check where
# PYTHON has pytest, the slow ones (a Dask cluster) in check-slow;
# check-python runs them all.
# The extension links python/libxmlsniff-pic.a, an archive of the
# position-independent objects of libxmlsniff.so.N: the package carries
# the engine and looks for no shared library at run time (setup.py).
PYTHON =	python3
PYLIB =		python/libxmlsniff-pic.a
python: $(PYLIB)
	cd python && XMLSNIFF_MADE=1 $(PYTHON) setup.py -q build_ext --inplace
$(PYLIB): $(LIBRARY_PICS)
	rm -f $@.tmp
	$(AR) -rcs $@.tmp $(LIBRARY_PICS)
	mv -f $@.tmp $@
check-python: xmlsniff python
	cd python && $(PYTHON) -m pytest -q -p no:cacheprovider tests
# What a program linked with the library's archive needs besides it.
print-lib-libs:
	@echo $(LIBRARY_LIBS)

# make check on an AddressSanitizer + UBSan build (the slow tier runs
# natively in CI: under the sanitizers its inputs would take too long).
sanitize:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" xmlsniff tests/unit tests/strerror
	JOBS='$(JOBS)' PYTHON= sh tests/run fast

# libFuzzer targets (clang): make fuzz, then run e.g.
# fuzz/sniff-fuzz -max_total_time=600 fuzz/corpus-sniff fuzz/seeds
FUZZ_CC =	clang
FUZZ_FLAGS =	-g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L $(INC)
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
	@if $(FUZZ_CC) $(DIFF_CFLAGS) $(INC) -E fuzz/diff.c > /dev/null 2>&1; then \
	    echo "$(FUZZ_CC) ... -o $@"; \
	    $(FUZZ_CC) $(FUZZ_FLAGS) $(DIFF_CFLAGS) -o $@ fuzz/diff_fuzz.c \
	    fuzz/diff.c $(FUZZ_SRCS) $(DIFF_LIBS) $(ICONV_LIBS) $(THREAD_LIBS); \
	else \
	    echo "fuzz/diff-fuzz skipped: libxml2 or expat headers not found (libxml2-dev, libexpat1-dev)"; \
	fi

# From the sources, not the objects: those may have been built with other
# flags (make sanitize) than this build gets when tests/differential asks.
tests/diffcheck: tests/diffcheck.c fuzz/diff.c fuzz/diff.h $(FUZZ_SRCS) $(HDRS)
	$(CC) $(XCFLAGS) -Ifuzz $(DIFF_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
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
	    fuzz/diff-fuzz tests/diffcheck src/cli/version.h $(DIST).tar.gz
	rm -rf $(PYLIB) python/build python/xmlsniff/_core.*.so python/xmlsniff.egg-info \
	    python/xmlsniff/__pycache__ python/tests/__pycache__

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
print-inc:
	@echo $(INC)

.PHONY: $(PHONY_CHECKS) python check-python print-lib-libs check-build print-inc print-core print-srcs print-unit print-version all check check-slow check-all dist sanitize install uninstall clean enctab whatwg xmltypes fuzz fuzz-run bench

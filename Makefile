# xmlsniff -- POSIX make (GNU make and bmake).

# The version, here and nowhere else: src/cli/version.h (--version, the SARIF
# log's tool.driver.version), the version macros of src/lib/xmlsniff.h,
# xmlsniff.pc, the installed manual pages and make dist take it from this
# line.  NEWS says what changed in each.
VERSION =	1.1.0

# The library's ABI version: the N of libxmlsniff.so.N, its SONAME, and of
# the version node XMLSNIFF_N of src/lib/libxmlsniff.map.  It changes only
# when the ABI breaks, so that a program built against the library before
# would misbehave with it now: a function of <xmlsniff.h> removed or its
# parameters or result changed, an enum constant renumbered, a type's
# meaning changed, an option name or value taken away.  A new function,
# enum constant, option or record member does not break it (VERSION's
# minor number goes up, and new functions go in a version node of their
# own in the map); nor does anything that only the command line sees.
# xmlsniff(3) says the same to the library's users.
SOVERSION =	1

PREFIX ?=	/usr/local
BINDIR =	$(PREFIX)/bin
LIBDIR =	$(PREFIX)/lib
INCLUDEDIR =	$(PREFIX)/include
PKGCONFIGDIR =	$(LIBDIR)/pkgconfig
# The root of the manual: each page goes to MANDIR/manN (MANPREFIX, its
# name before 1.1.0, still sets it).
MANPREFIX ?=	$(PREFIX)/share/man
MANDIR =	$(MANPREFIX)
# The guide and the report formats (doc/GUIDE.md, doc/FORMATS.md, the
# record's JSON Schema), which the manual pages name.
DOCDIR ?=	$(PREFIX)/share/doc/xmlsniff
DOCS =		doc/GUIDE.md doc/FORMATS.md doc/xmlsniff-record.schema.json

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
# Every object is built with hidden symbols: the library's exported names
# are those the public header declares (its visibility pragma) and
# src/lib/libxmlsniff.map lists, nothing else; the objects of
# libxmlsniff.so.N are built position-independent as well (PICFLAGS).
VISIBILITY =	-fvisibility=hidden
PICFLAGS =	-fPIC
XCFLAGS =	$(WARN) -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 \
		$(VISIBILITY) $(INC) $(ICONV_CFLAGS)

# The sources by folder (doc/DESIGN.md): src/lib/ is the library, in
# layers (text, sniff, decode, simd, transcode, analysis, http, api);
# src/cli/ is the command line, its client.  CORE_SRCS is what the unit
# driver and the fuzz targets link: the library and the parts of the
# command line they test, everything but main.c, analyse.c, opts.c,
# usage.c, jobs.c, worker.c and status.c.
LIB_DIRS =	src/lib/text src/lib/sniff src/lib/decode src/lib/simd \
		src/lib/transcode src/lib/analysis src/lib/http \
		src/lib/api
LIB_SRCS =	src/lib/text/utf.c src/lib/text/sbuf.c \
		src/lib/text/suggest.c \
		src/lib/sniff/bom.c src/lib/sniff/codes.c src/lib/sniff/decl.c \
		src/lib/sniff/declparse.c \
		src/lib/sniff/diag.c \
		src/lib/sniff/enc.c src/lib/sniff/iconvcap.c src/lib/sniff/memo.c \
		src/lib/sniff/mt.c \
		src/lib/sniff/notxml.c src/lib/sniff/policy.c \
		src/lib/sniff/sniff.c \
		src/lib/decode/decode.c src/lib/decode/decode_iconv.c \
		src/lib/decode/decode_utf.c src/lib/decode/input.c \
		src/lib/decode/late.c src/lib/decode/prescan.c \
		src/lib/decode/ahead.c src/lib/decode/leap.c \
		src/lib/decode/validate.c \
		src/lib/simd/avx2.c src/lib/simd/avx512.c src/lib/simd/common.c \
		src/lib/simd/dense_avx2.c src/lib/simd/late_avx512.c \
		src/lib/simd/narrow_avx2.c \
		src/lib/simd/neon.c src/lib/simd/plain_avx2.c \
		src/lib/simd/plainw_avx2.c src/lib/simd/ref.c \
		src/lib/simd/scan_avx2.c src/lib/simd/scan_avx512.c \
		src/lib/simd/select.c \
		src/lib/simd/sse2.c src/lib/simd/wide_avx2.c src/lib/simd/word.c \
		src/lib/transcode/iconvout.c src/lib/transcode/target.c \
		src/lib/transcode/transcode.c src/lib/transcode/xmllex.c \
		src/lib/analysis/browser.c src/lib/analysis/excerpt.c \
		src/lib/analysis/mojibake.c src/lib/analysis/mojreport.c \
		src/lib/http/http.c src/lib/http/coding.c \
		src/lib/analysis/guess.c src/lib/analysis/guess_cand.c \
		src/lib/analysis/guess_char.c src/lib/analysis/guess_choose.c \
		src/lib/analysis/guess_model.c src/lib/analysis/guess_note.c \
		src/lib/analysis/guess_read.c src/lib/analysis/guess_ud.c \
		src/lib/api/access.c src/lib/api/checker.c src/lib/api/feed.c \
		src/lib/api/fixplan.c src/lib/api/json.c src/lib/api/marker.c \
		src/lib/api/options.c src/lib/api/result.c src/lib/api/run.c \
		src/lib/api/transcoder.c
CLI_CORE_SRCS =	src/cli/config.c src/cli/dest.c \
		src/cli/escape.c src/cli/format.c \
		src/cli/github.c src/cli/perfile.c \
		src/cli/record.c src/cli/repo.c src/cli/report.c src/cli/tree.c \
		src/cli/walk.c
CORE_SRCS =	$(LIB_SRCS) $(CLI_CORE_SRCS)
# The library, libxmlsniff: everything below src/lib/.
LIBRARY_SRCS =	$(LIB_SRCS)
LIBRARY_OBJS =	$(LIBRARY_SRCS:.c=.o)
LIBRARY_PICS =	$(LIBRARY_SRCS:.c=.pico)
# The command line, a client of the library.
CLI_SRCS =	$(CLI_CORE_SRCS) src/cli/main.c src/cli/analyse.c src/cli/opts.c \
		src/cli/usage.c src/cli/jobs.c src/cli/worker.c src/cli/status.c
CLI_OBJS =	$(CLI_SRCS:.c=.o)
SRCS =		$(LIBRARY_SRCS) $(CLI_SRCS)
CORE =		$(CORE_SRCS:.c=.o)
OBJS =		$(SRCS:.c=.o)
HDRS =		tests/all.h src/cli/io.h src/cli/opts.h src/cli/dest.h \
		src/cli/jobs.h src/cli/worker.h src/cli/usage.h \
		src/cli/xmltypes.h src/cli/version.h \
		src/lib/text/utf.h src/cli/out.h src/lib/text/sbuf.h \
		src/lib/text/suggest.h src/lib/text/dynload.h \
		src/lib/sniff/core.h src/lib/sniff/enctab.h \
		src/lib/sniff/iconvcap.h src/lib/sniff/decl_int.h \
		src/lib/decode/engine.h src/lib/decode/decode.h \
		src/lib/decode/val.h src/lib/decode/late_units.h \
		src/lib/simd/testhooks.h \
		src/lib/simd/kernels.h src/lib/simd/simd.h src/lib/simd/avx2_int.h \
		src/lib/simd/late_run.h \
		src/lib/transcode/target.h src/lib/transcode/xc.h \
		src/lib/transcode/xmllex.h src/lib/transcode/iconvout.h \
		src/lib/analysis/browser.h src/lib/analysis/whatwg.h \
		src/lib/analysis/excerpt.h src/lib/analysis/guess.h \
		src/lib/analysis/guess_int.h src/lib/analysis/mojibake.h \
		src/lib/http/http.h src/lib/http/coding.h \
		src/lib/xmlsniff.h src/lib/api/api.h
# Every folder's headers by their bare names (make print-inc: for the
# builds outside make, tests/cross and tests/differential); the unit
# driver's and the fuzz targets' own (tests/all.h) in TEST_INC.
TEST_INC =	-Itests
INC =		-Isrc/cli -Isrc/lib/text -Isrc/lib/sniff -Isrc/lib/decode \
		-Isrc/lib/simd -Isrc/lib/transcode -Isrc/lib/analysis \
		-Isrc/lib/http -Isrc/lib/api -Isrc/lib

SHLIB =		libxmlsniff.so.$(SOVERSION)
all: xmlsniff libxmlsniff.a $(SHLIB)

# A generated file's recipe writes $@.$$$$, then $(STAMP), in the same
# shell line, puts it in place only when it differs, so that what depends
# on it is rebuilt only then.  The copy is named for the shell that makes
# it, as two makes may run at once (the suite runs make install, make
# print-inc and make tests/diffcheck side by side): with one name for
# all, one make's mv took the copy another was about to compare ("mv:
# cannot stat 'build/codings.tmp'").
STAMP =	if cmp -s $@.$$$$ $@; then rm -f $@.$$$$; else mv -f $@.$$$$ $@; fi

# XMLSNIFF_VERSION for the C sources, made from VERSION above (a build
# product: not in git, not in the tarball).  Rewritten only when the
# version changes, so that another edit of this file rebuilds nothing.
src/cli/version.h: Makefile
	@printf '/* Made by make from VERSION in the Makefile. */\n#define XMLSNIFF_VERSION "%s"\n' \
	    '$(VERSION)' > $@.$$$$; $(STAMP)
print-version:
	@echo $(VERSION)

# The version macros of the public header, from VERSION above.  The header
# is in git, for it is what the library's users read: make rewrites its
# three numbers in place when they differ from VERSION (the string is made
# of them), so that VERSION stays the one place to change.  Looked at on
# every run (FORCE), whichever of the two files was edited last; when
# nothing changes, nothing is rebuilt.  The new copy is named for the
# shell that makes it, as two makes may run at once (the suite runs make
# install).
# tests/library.bats compiles the header and compares.
src/lib/xmlsniff.h: FORCE
	@set -- `echo '$(VERSION)' | tr . ' '`; \
	sed -e "s/^\(#define XMLSNIFF_VERSION_MAJOR[^0-9]*\)[0-9]*$$/\1$$1/" \
	    -e "s/^\(#define XMLSNIFF_VERSION_MINOR[^0-9]*\)[0-9]*$$/\1$$2/" \
	    -e "s/^\(#define XMLSNIFF_VERSION_PATCH[^0-9]*\)[0-9]*$$/\1$$3/" \
	    src/lib/xmlsniff.h > src/lib/xmlsniff.h.$$$$ || exit 1; \
	if cmp -s src/lib/xmlsniff.h.$$$$ src/lib/xmlsniff.h; then \
	    rm -f src/lib/xmlsniff.h.$$$$; \
	else echo "src/lib/xmlsniff.h: the version macros say $(VERSION)"; \
	    mv -f src/lib/xmlsniff.h.$$$$ src/lib/xmlsniff.h; fi

# The libraries.  libxmlsniff.a holds the objects as the command line has
# them; libxmlsniff.so.N the same sources built position-independent,
# linked with its SONAME, the version script that exports the public
# names alone, and -z defs: every symbol it needs is in the libraries it
# names, LIBRARY_LIBS, which libxmlsniff.libs keeps as they were for
# make install to write as xmlsniff.pc's Libs.private, what a static
# link needs (the optional libraries are loaded when needed, dynload.h,
# and are not linked).  Each library is
# written under another name and renamed, so that an interrupted build
# leaves no half-written library behind.
AR =		ar
SHLIB_LDFLAGS =	-shared -Wl,-soname,$(SHLIB) \
		-Wl,--version-script=src/lib/libxmlsniff.map -Wl,-z,defs
LIBRARY_LIBS =	$(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)
libxmlsniff.a: $(LIBRARY_OBJS)
	rm -f $@.tmp
	$(AR) -rcs $@.tmp $(LIBRARY_OBJS)
	mv -f $@.tmp $@
$(SHLIB): $(LIBRARY_PICS) src/lib/libxmlsniff.map
	$(CC) $(CFLAGS) $(LDFLAGS) $(SHLIB_LDFLAGS) -o $@.tmp $(LIBRARY_PICS) \
	    $(LIBRARY_LIBS)
	echo $(LIBRARY_LIBS) > libxmlsniff.libs
	mv -f $@.tmp $@

# The command line links the static library: the binary stands alone (the
# suite, the Action and a copied binary run it with no library path), it
# keeps the speed of code built without -fPIC, and it may call engine
# functions that the shared library does not export.
xmlsniff: $(CLI_OBJS) libxmlsniff.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) libxmlsniff.a \
	    $(LIBRARY_LIBS)

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
# What the library links with, as the build found it (the libraries of
# the optional parts below): for everything that links the library.
LIB_LIBS =	`{ $(HAVE_UCHARDET) || $(HAVE_ZLIB) || $(HAVE_BROTLI); } && \
		    echo $(DL_LIBS)`
HAVE_UCHARDET =	{ [ "$(UCHARDET)" != no ] && printf \
		'\043include <uchardet/uchardet.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
src/lib/analysis/guess_model.o src/lib/analysis/guess_model.pico: src/lib/analysis/guess_lm.h
src/lib/analysis/guess_ud.o: src/lib/analysis/guess_ud.c $(HDRS) build/uchardet
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_UCHARDET) && echo -DHAVE_UCHARDET` -c -o $@ \
	    src/lib/analysis/guess_ud.c
src/lib/analysis/guess_ud.pico: src/lib/analysis/guess_ud.c $(HDRS) build/uchardet
	$(CC) $(XCFLAGS) $(PICFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_UCHARDET) && echo -DHAVE_UCHARDET` -c -o $@ \
	    src/lib/analysis/guess_ud.c

# zlib and libbrotli are optional too: where their headers are found
# (Debian: zlib1g-dev, libbrotli-dev), --http decodes a body sent with
# Content-Encoding gzip or deflate (zlib) and br (libbrotli),
# src/lib/http/coding.c, loading each with dlopen(3) when a body first
# needs it (linked, the three objects cost every process's start about
# 0.3 ms); elsewhere, or where it does not load, such a body draws
# http-encoded, which says how to fetch it plain (xmlsniff --help says
# which decode).  ZLIB=no and BROTLI=no build without them where they
# are installed.
ZLIB =
BROTLI =
HAVE_ZLIB =	{ [ "$(ZLIB)" != no ] && printf \
		'\043include <zlib.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
HAVE_BROTLI =	{ [ "$(BROTLI)" != no ] && printf \
		'\043include <brotli/decode.h>\n' | \
		$(CC) $(CPPFLAGS) -E - > /dev/null 2>&1; }
src/lib/http/coding.o: src/lib/http/coding.c $(HDRS) build/codings
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_ZLIB) && echo -DHAVE_ZLIB` \
	    `$(HAVE_BROTLI) && echo -DHAVE_BROTLI` -c -o $@ src/lib/http/coding.c
src/lib/http/coding.pico: src/lib/http/coding.c $(HDRS) build/codings
	$(CC) $(XCFLAGS) $(PICFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    `$(HAVE_ZLIB) && echo -DHAVE_ZLIB` \
	    `$(HAVE_BROTLI) && echo -DHAVE_BROTLI` -c -o $@ src/lib/http/coding.c

# Which optional libraries the build found (or was told to leave out with
# UCHARDET=no, ZLIB=no, BROTLI=no), looked at on every run and each file
# rewritten only when what it says changes: the objects that use them
# depend on it, so that installing one, removing one or changing a switch
# rebuilds what uses it on the next make, and nothing else ($(STAMP):
# FORCE, every make writes them).
build/uchardet: FORCE
	@mkdir -p build
	@if $(HAVE_UCHARDET); then echo yes; else echo no; fi > $@.$$$$; \
	$(STAMP)
build/codings: FORCE
	@mkdir -p build
	@{ if $(HAVE_ZLIB); then echo zlib; fi; \
	  if $(HAVE_BROTLI); then echo brotli; fi; } > $@.$$$$; \
	$(STAMP)

FORCE:

.SUFFIXES: .c .o .pico .to
.c.o:
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
.c.pico:
	$(CC) $(XCFLAGS) $(PICFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
.c.to:
	$(CC) $(XCFLAGS) $(TEST_INC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(OBJS) $(LIBRARY_PICS): $(HDRS)

# The unit driver: tests/unit.c and the kernel equivalence sweeps.
UNIT_SRCS =	tests/unit.c tests/unit_sniff.c tests/unit_decl.c \
		tests/unit_enc.c tests/unit_diag.c tests/unit_utf.c \
		tests/unit_stream.c tests/unit_conv.c tests/unit_xlex.c \
		tests/unit_names.c tests/unit_guess.c tests/api.c \
		tests/api_keep.c \
		tests/kern_fastpath.c tests/kern_dense.c \
		tests/kern_mapped.c tests/kern_ahead.c tests/kern_engine.c \
		tests/kern_wide.c tests/kern_spec.c tests/kern_util.c \
		tests/kern_errdense.c tests/kern_moj.c tests/kern_late.c \
		tests/kern_xc.c tests/kern_xc2.c tests/kern_runs.c \
		tests/kern_lrun.c
# Each source an object of its own, so that make -j compiles them side by
# side (in one cc command they were the build's longest step); .to, so
# that they alone are compiled with the test headers' folder (TEST_INC).
UNIT_OBJS =	$(UNIT_SRCS:.c=.to)
$(UNIT_OBJS): tests/unit.h tests/kern.h tests/kern_fast.h $(HDRS)
tests/unit: $(UNIT_OBJS) $(CORE)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(CORE) \
	    $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)

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

# The library from many threads over shared options (tests/threads.c),
# through the public header alone, linked with the static library as
# built (with the sanitizer of the build, if any: .ci/run's TSan step).
tests/threads: tests/threads.c libxmlsniff.a
	$(CC) $(WARN) -D_POSIX_C_SOURCE=200809L -Isrc/lib $(CPPFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/threads.c libxmlsniff.a $(LIBRARY_LIBS)

# The C library's strerror texts, which some tests compare with.
tests/strerror: tests/strerror.c
	$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/strerror.c

# The tiers (tests/run): make check, the README's test command, runs the
# unit driver (with the kernel equivalence sweeps), every bats test not
# tagged slow, on as many jobs as there are processors, and the man page
# lint, in a few minutes; make check-slow runs the tests tagged slow
# (huge inputs, and the project around the program: install, the
# tarball, pre-commit's own environments, the benchmark, completion, the
# documents' examples); make check-all runs both.  One summary line per part,
# with its seconds; the full output is in build/check*.log, and V=1
# prints it as well.  JOBS=1 runs bats one test at a time.
V =
JOBS =
# The binary and the drivers are built on every processor first, and
# tests/diffcheck with them where the libxml2 and expat headers are
# installed (tests/differential.bats would otherwise make it alone).
NPROC =		`getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1`
# The two headers alone: fuzz/diff.c includes src/cli/version.h, which
# make has not written yet when this is asked after make clean.
HAVE_DIFF =	{ printf '\043include <libxml/parser.h>\n\043include <expat.h>\n' | \
		$(CC) $(DIFF_CFLAGS) $(CPPFLAGS) -E - > /dev/null 2>&1; }
check-build:
	@t0=`date +%s`; $(MAKE) -j$(NPROC) all tests/unit tests/strerror \
	    tests/threads $$($(HAVE_DIFF) && echo tests/diffcheck) || exit; \
	    echo "build (xmlsniff, the library and the test programs): $$((`date +%s` - t0)) s"
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
# PYTHON has pytest (the default python3 without it: /usr/bin/python3,
# where that one has it), the slow ones (a Dask cluster, pip) in
# check-slow; check-python runs them all.
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

# make check on an AddressSanitizer + UBSan build (the slow tier runs
# natively in CI: under the sanitizers its inputs would take too long).
sanitize:
	$(MAKE) clean
	$(MAKE) -j$(NPROC) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" all tests/unit \
	    tests/strerror tests/threads $$($(HAVE_DIFF) && echo tests/diffcheck)
	JOBS='$(JOBS)' PYTHON= sh tests/run fast

# libFuzzer targets (clang): make fuzz, then run e.g.
# fuzz/sniff-fuzz -max_total_time=600 fuzz/corpus-sniff fuzz/seeds
# The core is compiled once for all of them, with the fuzzer's coverage but
# not its main (fuzzer-no-link), into build/fuzz/core.a: each target
# compiling it again cost CI minutes.
FUZZ_CC =	clang
FUZZ_SAN =	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS =	-g -O1 -fsanitize=fuzzer $(FUZZ_SAN) \
		-D_POSIX_C_SOURCE=200809L $(INC) $(TEST_INC)
FUZZ_SRCS =	$(CORE_SRCS)
FUZZ_CORE =	build/fuzz/core.a
FUZZERS =	fuzz/sniff-fuzz fuzz/decl-fuzz fuzz/mt-fuzz \
		fuzz/validate-fuzz fuzz/transcode-fuzz fuzz/api-fuzz

fuzz: $(FUZZERS) fuzz/diff-fuzz

$(FUZZ_CORE): $(FUZZ_SRCS) $(HDRS)
	@rm -rf build/fuzz && mkdir -p build/fuzz
	@echo "$(FUZZ_CC) -fsanitize=fuzzer-no-link ... -o $@"
	@for s in $(FUZZ_SRCS); do \
	    o=build/fuzz/`echo "$$s" | tr / _`; \
	    $(FUZZ_CC) -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) \
	    -D_POSIX_C_SOURCE=200809L $(INC) $(TEST_INC) -c -o "$${o%.c}.o" "$$s" || \
	    exit 1; \
	done
	ar rcs $@ build/fuzz/*.o

fuzz/sniff-fuzz: fuzz/sniff_fuzz.c fuzz/common.h $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/sniff_fuzz.c $(FUZZ_CORE) \
	    $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)
fuzz/decl-fuzz: fuzz/decl_fuzz.c $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/decl_fuzz.c $(FUZZ_CORE) \
	    $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)
fuzz/mt-fuzz: fuzz/mt_fuzz.c $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/mt_fuzz.c $(FUZZ_CORE) \
	    $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)
fuzz/validate-fuzz: fuzz/validate_fuzz.c $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/validate_fuzz.c $(FUZZ_CORE) \
	    $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)
fuzz/transcode-fuzz: fuzz/transcode_fuzz.c fuzz/common.h $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/transcode_fuzz.c $(FUZZ_CORE) \
	    $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)

# The public interface (fuzz/api_fuzz.c): the library's sources, reached
# through <xmlsniff.h> alone.
fuzz/api-fuzz: fuzz/api_fuzz.c fuzz/jsonv.c fuzz/jsonv.h $(LIBRARY_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc/lib -o $@ fuzz/api_fuzz.c fuzz/jsonv.c \
	    $(LIBRARY_SRCS) $(LIBRARY_LIBS)

# xmlsniff against libxml2 and expat (fuzz/diff.c), where their headers are
# installed (Debian: libxml2-dev libexpat1-dev); skipped with a message
# where they are not.
DIFF_CFLAGS =	`pkg-config --cflags libxml-2.0 2>/dev/null || xml2-config --cflags 2>/dev/null`
DIFF_LIBS =	-lxml2 -lexpat
# The check itself (fuzz/diff.c, which alone includes their headers), its
# divergences table and its generated inputs.
DIFF_SRCS =	fuzz/diff.c fuzz/diff_table.c fuzz/diff_gen.c
DIFF_HDRS =	fuzz/diff.h fuzz/diff_int.h
fuzz/diff-fuzz: fuzz/diff_fuzz.c $(DIFF_SRCS) $(DIFF_HDRS) $(FUZZ_CORE)
	@if $(FUZZ_CC) $(DIFF_CFLAGS) $(INC) $(TEST_INC) -E fuzz/diff.c > /dev/null 2>&1; then \
	    echo "$(FUZZ_CC) ... -o $@"; \
	    $(FUZZ_CC) $(FUZZ_FLAGS) $(DIFF_CFLAGS) -o $@ fuzz/diff_fuzz.c \
	    $(DIFF_SRCS) $(FUZZ_CORE) $(DIFF_LIBS) $(ICONV_LIBS) $(THREAD_LIBS) \
	    $(LIB_LIBS); \
	else \
	    echo "fuzz/diff-fuzz skipped: libxml2 or expat headers not found (libxml2-dev, libexpat1-dev)"; \
	fi

# Linked with the core's objects, as the unit driver is (compiling the
# core again for it alone cost make check a tenth of its time): check-build
# and sanitize make it with them, with the same flags, so that the make
# of tests/differential finds it done.
tests/diffcheck: tests/diffcheck.c $(DIFF_SRCS) $(DIFF_HDRS) $(CORE) $(HDRS)
	$(CC) $(XCFLAGS) -Ifuzz $(TEST_INC) $(DIFF_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/diffcheck.c $(DIFF_SRCS) $(CORE) \
	    $(DIFF_LIBS) $(ICONV_LIBS) $(THREAD_LIBS) $(LIB_LIBS)

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

# The library's own: many small documents through the one-call form.
bench-lib: libxmlsniff.a
	sh bench/lib

# Each pass over UTF-8 text by itself, for every script family.
bench-kernels: libxmlsniff.a
	sh bench/kernels

# Whether a second thread that reads pays here: make bench-overlap
# FILES="a.xml b.xml" (UTF-8 files, in the page cache).
bench-overlap: libxmlsniff.a
	sh bench/overlap $(FILES)

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

# make install: the command line, every manual page of man/ (NAME.N goes
# to MANDIR/manN, with the version in its footer, .Os), the guide, the
# formats and the record's schema (DOCDIR) and the completions; the
# libraries (libxmlsniff.so.N, which programs load, and the link
# libxmlsniff.so, which a build finds), the header and xmlsniff.pc (made
# here for this PREFIX, LIBDIR and INCLUDEDIR; Libs.private is what the
# build linked the library with).  Each file is written under a
# temporary name and renamed into place, so that a program running the
# installed binary or library keeps its copy.  After installing into a
# system library folder, run ldconfig(8).
PUT =		put() { cp "$$1" "$$3.tmp" && chmod "$$2" "$$3.tmp" && \
		    mv -f "$$3.tmp" "$$3"; }; \
		manpage() { sed 's/^\.Os$$/.Os xmlsniff $(VERSION)/' "$$1" > "$$2.tmp" && \
		    chmod 644 "$$2.tmp" && mv -f "$$2.tmp" "$$2"; }; \
		rel() { case $$1 in "$(PREFIX)"/*) echo "\$${prefix}$${1\#"$(PREFIX)"}";; \
		    *) echo "$$1";; esac; }
install: all
	@$(PUT); set -ex; \
	mkdir -p "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(DOCDIR)" \
	    "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)" \
	    "$(DESTDIR)$(PKGCONFIGDIR)"; \
	put xmlsniff 755 "$(DESTDIR)$(BINDIR)/xmlsniff"; \
	for m in man/*.[1-9]; do \
	    d="$(DESTDIR)$(MANDIR)/man$${m##*.}"; mkdir -p "$$d"; \
	    manpage "$$m" "$$d/$${m#man/}"; \
	done; \
	for f in $(DOCS); do put "$$f" 644 "$(DESTDIR)$(DOCDIR)/$${f#doc/}"; done; \
	put libxmlsniff.a 644 "$(DESTDIR)$(LIBDIR)/libxmlsniff.a"; \
	put $(SHLIB) 755 "$(DESTDIR)$(LIBDIR)/$(SHLIB)"; \
	ln -sf $(SHLIB) "$(DESTDIR)$(LIBDIR)/libxmlsniff.so"; \
	put src/lib/xmlsniff.h 644 "$(DESTDIR)$(INCLUDEDIR)/xmlsniff.h"; \
	pc="$(DESTDIR)$(PKGCONFIGDIR)/xmlsniff.pc"; \
	libs=`cat libxmlsniff.libs`; \
	sed -e "s|@PREFIX@|$(PREFIX)|" -e "s|@LIBDIR@|`rel '$(LIBDIR)'`|" \
	    -e "s|@INCLUDEDIR@|`rel '$(INCLUDEDIR)'`|" \
	    -e "s|@VERSION@|$(VERSION)|" -e "s|@LIBS_PRIVATE@|$$libs|" \
	    src/lib/xmlsniff.pc.in > "$$pc.tmp" || { rm -f "$$pc.tmp"; exit 1; }; \
	chmod 644 "$$pc.tmp"; \
	mv -f "$$pc.tmp" "$$pc"
	@$(COMPDIRS); set -ex; \
	mkdir -p "$(DESTDIR)$$bc" "$(DESTDIR)$$zc" "$(DESTDIR)$$fc"; \
	cp completions/xmlsniff.bash "$(DESTDIR)$$bc/xmlsniff"; \
	cp completions/_xmlsniff "$(DESTDIR)$$zc/_xmlsniff"; \
	cp completions/xmlsniff.fish "$(DESTDIR)$$fc/xmlsniff.fish"; \
	chmod 644 "$(DESTDIR)$$bc/xmlsniff" "$(DESTDIR)$$zc/_xmlsniff" \
	    "$(DESTDIR)$$fc/xmlsniff.fish"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/xmlsniff" \
	    "$(DESTDIR)$(LIBDIR)/libxmlsniff.a" "$(DESTDIR)$(LIBDIR)/$(SHLIB)" \
	    "$(DESTDIR)$(LIBDIR)/libxmlsniff.so" \
	    "$(DESTDIR)$(INCLUDEDIR)/xmlsniff.h" \
	    "$(DESTDIR)$(PKGCONFIGDIR)/xmlsniff.pc"
	@for m in man/*.[1-9]; do \
	    echo "rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m#man/}"; \
	    rm -f "$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m#man/}"; \
	done
	cd $(DESTDIR)$(DOCDIR) 2>/dev/null && rm -f GUIDE.md FORMATS.md \
	    xmlsniff-record.schema.json || :
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
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
	rm -f xmlsniff $(OBJS) $(LIBRARY_PICS) libxmlsniff.a $(SHLIB) \
	    libxmlsniff.libs tests/unit $(UNIT_OBJS) tests/strerror \
	    tests/threads $(FUZZERS) fuzz/diff-fuzz tests/diffcheck \
	    src/cli/version.h $(DIST).tar.gz
	rm -rf build/fuzz build/uchardet build/codings $(PYLIB) python/build python/xmlsniff/_core.*.so \
	    python/xmlsniff.egg-info python/xmlsniff/__pycache__ \
	    python/tests/__pycache__

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
	@echo $(INC) $(TEST_INC)
print-library-libs:
	@echo $(LIBRARY_LIBS)
print-soname:
	@echo $(SHLIB)

.PHONY: $(PHONY_CHECKS) FORCE check-build print-inc python check-python print-library-libs print-soname bench-lib bench-kernels bench-overlap print-core print-srcs print-unit print-version all check check-slow check-all dist sanitize install uninstall clean enctab whatwg xmltypes fuzz fuzz-run bench

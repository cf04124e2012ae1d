"""Build of the xmlsniff package: the extension xmlsniff._core over
libxmlsniff.

Where the library comes from (README, "Python"):

  In the source tree (this folder beside src/lib/xmlsniff.h), the
  extension links libxmlsniff-pic.a, the position-independent objects of
  the library that make builds (make python, or here, when pip builds
  the package: make and a C compiler suffice): the package then carries
  the engine it was built with, and finds no shared library at run time
  (no LD_LIBRARY_PATH, no ctypes.util.find_library, no version skew
  between the package and a system copy).  Its symbols are hidden in the
  extension, so that a libxmlsniff.so.1 that another module loads does
  not interpose on them.

  XMLSNIFF_LINK=pkg-config (or outside the source tree) links the
  installed shared library instead, as pkg-config --cflags --libs
  xmlsniff says (for distributions that package the library).
"""

import os
import shlex
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HEADER = os.path.join(ROOT, "src", "lib", "xmlsniff.h")
ARCHIVE = os.path.join(HERE, "libxmlsniff-pic.a")
# The extension's files, the module (_core.c) above its types and their
# common ground (_base.c): _base.h draws the layers.
SOURCES = ["xmlsniff/_core.c", "xmlsniff/_checker.c", "xmlsniff/_result.c",
           "xmlsniff/_transcode.c", "xmlsniff/_base.c"]
DEPENDS = ["xmlsniff/_base.h", "xmlsniff/_checker.h", "xmlsniff/_result.h",
           "xmlsniff/_transcode.h"]


def run(cmd):
    try:
        return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("xmlsniff: %s failed: %s" % (" ".join(cmd), e))


def in_tree():
    """Compile and link options for the library of this source tree."""
    make = os.environ.get("MAKE", "make")
    # make's own python target has just made it; pip install ./python
    # makes it here (nothing is fetched: make and a C compiler suffice).
    if not os.environ.get("XMLSNIFF_MADE"):
        run([make, "-s", "-C", ROOT, "python/libxmlsniff-pic.a"])
    libs = shlex.split(run([make, "-s", "-C", ROOT,
                            "print-library-libs"]).strip())
    link = [ARCHIVE] + libs
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        link.append("-Wl,--exclude-libs,ALL")
    return {"include_dirs": [os.path.dirname(HEADER)],
            "extra_link_args": link,
            "depends": DEPENDS + [HEADER, ARCHIVE]}


def installed():
    """Compile and link options for the installed shared library."""
    cflags = shlex.split(run(["pkg-config", "--cflags", "xmlsniff"]))
    libs = shlex.split(run(["pkg-config", "--libs", "xmlsniff"]))
    return {"extra_compile_args": cflags, "extra_link_args": libs,
            "depends": DEPENDS}


def version():
    """The version the header says (the package's is the library's)."""
    path = HEADER if os.path.exists(HEADER) else None
    if path is None:
        inc = run(["pkg-config", "--variable=includedir", "xmlsniff"])
        path = os.path.join(inc.strip(), "xmlsniff.h")
    parts = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "#define" and w[1] in (
                    "XMLSNIFF_VERSION_MAJOR", "XMLSNIFF_VERSION_MINOR",
                    "XMLSNIFF_VERSION_PATCH"):
                parts[w[1]] = w[2]
    if len(parts) != 3:
        sys.exit("xmlsniff: no version macros in " + path)
    return "%s.%s.%s" % (parts["XMLSNIFF_VERSION_MAJOR"],
                         parts["XMLSNIFF_VERSION_MINOR"],
                         parts["XMLSNIFF_VERSION_PATCH"])


how = os.environ.get("XMLSNIFF_LINK",
                     "static" if os.path.exists(HEADER) else "pkg-config")
if how not in ("static", "pkg-config"):
    sys.exit("xmlsniff: XMLSNIFF_LINK is static or pkg-config, not " + how)
opts = in_tree() if how == "static" else installed()
# The house's C: C11 and POSIX; warnings as the library has them.
opts.setdefault("extra_compile_args", []).extend(
    ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra",
     "-Wno-missing-field-initializers", "-Wno-cast-function-type"])
if sysconfig.get_config_var("CC") is None:
    sys.exit("xmlsniff: this Python has no C compiler configuration")

setup(
    version=version(),
    packages=["xmlsniff"],
    package_data={"xmlsniff": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("xmlsniff._core", SOURCES, **opts)],
)

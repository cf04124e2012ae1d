"""A corpus of XML entities checked on a Dask cluster.

    records(bag, **options)   a bag of paths, or of (name, bytes) pairs,
                              to a bag of --json record dicts
    record(item, **options)   one such element to its record dict

and, as a program, what ``xmlsniff --json -r PATH...`` prints, computed
on the workers of a cluster:

    python3 -m xmlsniff.dask [--scheduler ADDRESS] [--jobs N]
        [--xmlsniff PROGRAM] [walk and analysis options] PATH...

The files are the command line's own list (``xmlsniff -r --list-files``:
the same extensions, --include, --exclude, .gitignore); each worker
checks its share with the library, and the lines come back in any
order.  Without --scheduler, a LocalCluster of N worker processes is
started and stopped here.  Dask is imported only when it is needed:
without it, an ImportError names the package to install.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

import xmlsniff

__all__ = ["records", "record", "record_line", "main"]

_NEED = ("xmlsniff.dask needs Dask distributed: apt-get install "
         "python3-distributed (Debian), or pip install 'dask[distributed]'")

# The members of the record of an input that could not be read, after
# "file" and "error" (xmlsniff(1), JSON OUTPUT).
_NULLS = ("encoding", "source", "bom", "declaration", "charset", "mime",
          "errors", "warnings", "diagnostics")


def _dask():
    """dask.bag and distributed, or the ImportError that says how."""
    try:
        import dask.bag
        import distributed
    except ImportError as e:
        raise ImportError(_NEED) from e
    return dask.bag, distributed


# A JSON string as the command line writes it (RFC 8259): UTF-8 as it is,
# a byte that is not UTF-8 as \udcXX (the file name read with
# surrogateescape), the control characters, DEL, quote and backslash
# escaped.
_ESC = re.compile('[\x00-\x1f\x7f"\\\\\udc80-\udcff]')
_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _esc(m: "re.Match[str]") -> str:
    c = m.group()
    return _SHORT.get(c) or "\\u%04x" % ord(c)


def json_string(name: Union[str, bytes]) -> str:
    """name as a JSON string, escaped as xmlsniff(1) escapes it."""
    if isinstance(name, bytes):
        name = name.decode("utf-8", "surrogateescape")
    return '"' + _ESC.sub(_esc, name) + '"'


def _item(item: Any) -> Tuple[str, Any, bool]:
    """(name, source, is_path) of a bag element: a path (str, bytes or
    os.PathLike), or a (name, bytes-like) pair."""
    if isinstance(item, tuple):
        if len(item) != 2:
            raise TypeError("a (name, bytes) pair expected, not a tuple "
                            "of %d" % len(item))
        return os.fsdecode(item[0]), item[1], False
    if isinstance(item, (str, bytes, os.PathLike)):
        path = os.fsdecode(item)
        return path, path, True
    raise TypeError("a path or a (name, bytes) pair expected, not %s"
                    % type(item).__name__)


def _failure(name: str, why: str, browser: bool) -> str:
    line = '{"file":%s,"error":%s' % (json_string(name), json_string(why))
    line += "".join(',"%s":null' % k for k in _NULLS)
    return line + (',"browser":null}' if browser else "}")


def _why(e: OSError) -> str:
    return os.strerror(e.errno) if e.errno else str(e)


def record_line(item: Any, **options: Any) -> str:
    """The --json line of xmlsniff(1) for one element (no newline): a
    path (read where this runs) or a (name, bytes) pair.  A path that
    cannot be read gets the command line's record of nulls with its
    "error"."""
    name, src, is_path = _item(item)
    try:
        r = xmlsniff.check(src, name=name, **options)
    except OSError as e:
        if not is_path:
            raise
        return _failure(name, _why(e), bool(options.get("browser")))
    return '{"file":' + json_string(name) + "," + r.to_json()[1:]


def record(item: Any, **options: Any) -> Dict[str, Any]:
    """The --json record of one element as a dict ("file" first)."""
    return json.loads(record_line(item, **options))


def _lines(items: Iterable[Any], options: Dict[str, Any]) -> List[str]:
    return [record_line(i, **options) for i in items]


def _dicts(items: Iterable[Any], options: Dict[str, Any]) -> List[dict]:
    return [json.loads(line) for line in _lines(items, options)]


def records(bag: Any, **options: Any) -> Any:
    """A Dask bag of paths, or of (name, bytes) pairs, mapped to a bag of
    the --json record dicts of xmlsniff(1) ("file" is the path or the
    name).  The keywords are xmlsniff.check()'s.  Paths are read on the
    workers: on a cluster, they must see the same files."""
    _dask()
    # The options are checked here, once, rather than on every worker.
    xmlsniff.check(b"", **options)
    return bag.map_partitions(_dicts, options)


def lines(bag: Any, **options: Any) -> Any:
    """As records(), but each record as the command line's JSON line."""
    _dask()
    xmlsniff.check(b"", **options)
    return bag.map_partitions(_lines, options)


# The program ---------------------------------------------------------------

def _xmlsniff_program(given: Optional[str]) -> str:
    """The command line whose -r file list is used: --xmlsniff, else
    XMLSNIFF, else the one built beside this package in a source tree,
    else xmlsniff on PATH."""
    if given:
        return given
    if os.environ.get("XMLSNIFF"):
        return os.environ["XMLSNIFF"]
    here = os.path.dirname(os.path.abspath(xmlsniff.__file__))
    built = os.path.join(os.path.dirname(os.path.dirname(here)), "xmlsniff")
    if os.path.isfile(built) and os.access(built, os.X_OK):
        return built
    found = shutil.which("xmlsniff")
    if found is None:
        sys.exit("xmlsniff.dask: the file list comes from xmlsniff -r "
                 "--list-files, and xmlsniff is not on PATH (give "
                 "--xmlsniff PROGRAM)")
    return found


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m xmlsniff.dask",
        description="What xmlsniff --json -r PATH... prints, computed on "
        "a Dask cluster: one JSON object per file, in any order.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files and directories (default: .)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the scheduler to use (tcp://HOST:8786); else a "
                   "LocalCluster is started")
    p.add_argument("-j", "--jobs", type=int, metavar="N",
                   help="worker processes of the LocalCluster (default: "
                   "one a processor)")
    p.add_argument("--xmlsniff", metavar="PROGRAM",
                   help="the xmlsniff whose -r file list is used")
    w = p.add_argument_group("the walk (as xmlsniff -r)")
    w.add_argument("--include", action="append", metavar="GLOB")
    w.add_argument("--exclude", action="append", metavar="GLOB")
    w.add_argument("--no-ignore", action="store_true")
    w.add_argument("--config", metavar="FILE")
    w.add_argument("--no-config", action="store_true")
    a = p.add_argument_group("the analysis (as xmlsniff)")
    a.add_argument("--content-type", metavar="VALUE")
    a.add_argument("--encoding", metavar="ENC")
    a.add_argument("--default-encoding", metavar="ENC")
    a.add_argument("--browser", action="store_true")
    a.add_argument("--error", metavar="CODES")
    a.add_argument("--ignore", metavar="CODES")
    a.add_argument("--allow-encoding", metavar="LIST")
    a.add_argument("--all", action="store_true")
    a.add_argument("--max-errors", type=int, metavar="N")
    a.add_argument("--http", action="store_true")
    return p


def _file_list(prog: str, args: argparse.Namespace) -> Tuple[List[bytes],
                                                               int]:
    """The names xmlsniff -r would check, as it spells them, and the
    status of the listing (2 where a PATH could not be read: it has said
    why on standard error)."""
    cmd = [prog, "-r", "--list-files", "-0"]
    for g in args.include or ():
        cmd.append("--include=" + g)
    for g in args.exclude or ():
        cmd.append("--exclude=" + g)
    if args.no_ignore:
        cmd.append("--no-ignore")
    if args.config:
        cmd.append("--config=" + args.config)
    if args.no_config:
        cmd.append("--no-config")
    cmd.append("--")
    cmd.extend(args.paths)
    p = subprocess.run(cmd, stdout=subprocess.PIPE)
    if p.returncode not in (0, 2):
        sys.exit(p.returncode)
    return [n for n in p.stdout.split(b"\0") if n], p.returncode


def _analysis(args: argparse.Namespace) -> Dict[str, Any]:
    o: Dict[str, Any] = {}
    for k in ("content_type", "encoding", "default_encoding", "error",
              "ignore", "allow_encoding", "max_errors"):
        v = getattr(args, k)
        if v is not None:
            o[k] = v
    for k in ("browser", "all", "http"):
        if getattr(args, k):
            o[k] = True
    return o


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    options = _analysis(args)
    try:
        xmlsniff.check(b"", **options)
    except ValueError as e:
        sys.exit("xmlsniff.dask: %s" % e)
    try:
        bag_mod, distributed = _dask()
    except ImportError as e:
        sys.exit("python3 -m xmlsniff.dask: %s" % e)
    names, status = _file_list(_xmlsniff_program(args.xmlsniff), args)
    out = sys.stdout.buffer
    # A PATH that cannot be read has its record of nulls, as with
    # xmlsniff --json -r (the listing has said why on standard error).
    for path in args.paths:
        try:
            os.stat(path)
        except OSError as e:
            out.write((_failure(path, _why(e), bool(options.get(
                "browser"))) + "\n").encode("utf-8", "surrogateescape"))
            status = 2
    # Each worker opens the file by its absolute path (its directory may
    # differ); the record names it as the command line does.
    cwd = os.getcwd()
    items = [(n, os.path.join(os.fsencode(cwd), n)) for n in names]
    cluster = None
    if args.scheduler:
        client = distributed.Client(args.scheduler)
    else:
        cluster = distributed.LocalCluster(
            n_workers=args.jobs or os.cpu_count() or 1,
            threads_per_worker=1, processes=True, dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        nworkers = max(1, len(client.scheduler_info()["workers"]))
        nparts = max(1, min(len(items), 4 * nworkers))
        bag = bag_mod.from_sequence(items, npartitions=nparts) \
            if items else None
        if bag is not None:
            futures = client.compute(
                bag.map_partitions(_named_lines, options).to_delayed())
            for fut in distributed.as_completed(futures):
                for ok, line in fut.result():
                    if not ok:
                        status = 2
                        sys.stderr.write("xmlsniff: %s: %s\n" % line[1:])
                        line = line[0]
                    out.write(line.encode("utf-8", "surrogateescape")
                              + b"\n")
                out.flush()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return status


def _named_lines(items: Iterable[Tuple[bytes, bytes]],
                 options: Dict[str, Any]) -> List[Tuple[bool, Any]]:
    """For the program: each (name, path) to (True, line), or, for a
    file that could not be read, (False, (line, name, why))."""
    out = []
    for name, path in items:
        try:
            r = xmlsniff.check(os.fsdecode(path), name=name, **options)
        except OSError as e:
            why = _why(e)
            out.append((False, (_failure(os.fsdecode(name), why,
                                         bool(options.get("browser"))),
                                os.fsdecode(name), why)))
            continue
        out.append((True, '{"file":' + json_string(name) + "," +
                    r.to_json()[1:]))
    return out


if __name__ == "__main__":
    # The workers unpickle the functions by their module's name: run
    # them from xmlsniff.dask, not from __main__.
    from xmlsniff.dask import main as _main
    sys.exit(_main())

"""Which encoding an XML entity is in, and why: a binding over libxmlsniff.

The answers are those of the command line xmlsniff(1): a Result has the
members of its ``--json`` record as attributes, and ``Result.to_json()``
is that record, less ``"file"``, byte for byte.

    >>> import xmlsniff
    >>> r = xmlsniff.check(b'<?xml version="1.0" encoding="ISO-8859-1"?><a/>')
    >>> r.encoding, r.source, r.errors
    ('ISO-8859-1', 'declaration', 0)

check(source, ...)       one entity: bytes-like, a path, or a binary file
Checker(...)             one entity fed in pieces: feed(data), finish()
transcode(source, to)    the entity re-encoded, as --transcode-to writes it
xmlsniff.dask            a corpus on a Dask cluster (needs Dask distributed)

The keywords of each are the command line's analysis options, spelled
with underscores: content_type, encoding, default_encoding, browser,
error, ignore, allow_encoding, all, max_errors, http.  Bad arguments
raise TypeError (a wrong type), ValueError (a bad value: OptionError,
EncodingError), the OSError of a path (FileNotFoundError,
IsADirectoryError, PermissionError), StateError (a feed after finish)
and TranscodeError (no faithful transcode; it carries the diagnostics).
Every function may be called from any number of threads at once; the
library works without the GIL.
"""

from __future__ import annotations

import errno as _errno
import io as _io
import json as _json
import os as _os
import shutil as _shutil
import tempfile as _tempfile
from typing import (Any, BinaryIO, Dict, Iterable, List, NamedTuple,
                    Optional, Tuple, Union)

from . import _core

__all__ = [
    "check", "Checker", "transcode", "Result", "Declaration", "Guess",
    "Diagnostic", "Error", "OptionError", "EncodingError", "StateError",
    "TranscodeError", "library_version", "__version__",
]

#: The version of the library the package is built with.
library_version: str = _core.library_version
__version__: str = _core.library_version

#: Bytes read from a file object for each feed: memory stays this size
#: whatever the length of the stream.
CHUNK = 1 << 20

Source = Union[bytes, bytearray, memoryview, str, "_os.PathLike[Any]",
               BinaryIO]
Codes = Union[str, Iterable[str], None]


# The exceptions -----------------------------------------------------------

class Error(ValueError):
    """What the library refused to do with the values it was given.

    A subclass of ValueError.  ``message`` is the library's message,
    ``result`` the analysis that came with the failure (None where there
    is none) and ``diagnostics`` its diagnostics (a list, maybe empty).
    """

    status = "error"

    def __init__(self, message: str, result: Optional["Result"] = None):
        super().__init__(message)
        self.message = message
        self.result = result

    @property
    def diagnostics(self) -> List["Diagnostic"]:
        return self.result.diagnostics if self.result is not None else []


class OptionError(Error):
    """A bad option value: a malformed content type, an unknown
    encoding or diagnostic code, a list cap out of range."""

    status = "argument"


class EncodingError(OptionError):
    """A target encoding this system cannot write (transcode())."""

    status = "encoding"


class StateError(Error):
    """A call out of order: a feed after finish() or close()."""

    status = "state"


class TranscodeError(Error):
    """No faithful transcode of this entity: an illegal sequence, or a
    character the target cannot represent (with fallback='error').  The
    diagnostics say which and where; nothing was written to ``out``."""

    status = "refused"


def _read_error(message: str, result: Any = None) -> OSError:
    return OSError(_errno.EIO, message)


def _write_error(message: str, result: Any = None) -> OSError:
    return OSError(_errno.EIO, message)


# The result ---------------------------------------------------------------

class Declaration(NamedTuple):
    """The XML or text declaration, its raw values as written."""

    kind: str                   #: "xml" (a document) or "text"
    version: Optional[str]
    encoding: Optional[str]
    standalone: Optional[str]   #: "yes", "no" or None


class Guess(NamedTuple):
    """The encoding the entity is most likely really in, and a sample of
    its text read so."""

    encoding: str
    sample: str


class Diagnostic(NamedTuple):
    """One diagnostic code present in the entity, at its first
    occurrence, with the count of its occurrences.  ``excerpt`` is the
    line, a caret and the bytes under it (None where there is none);
    ``occurrences`` lists each occurrence, the first included, as a
    Diagnostic of the same code, with all=True; else it is None."""

    severity: str               #: "error" or "warning"
    code: str                   #: one of xmlsniff --list-codes
    offset: int
    line: int
    column: int
    count: int
    message: str
    excerpt: Optional[str] = None
    occurrences: Optional[List["Diagnostic"]] = None

    def to_dict(self) -> Dict[str, Any]:
        """The diagnostic's object in the --json record."""
        d: Dict[str, Any] = {
            "severity": self.severity, "code": self.code,
            "offset": self.offset, "line": self.line,
            "column": self.column, "count": self.count,
            "message": self.message}
        if self.occurrences is not None:
            d["occurrences"] = [
                {"offset": o.offset, "line": o.line, "column": o.column,
                 "message": o.message} for o in self.occurrences]
        return d


def _diagnostic(t: tuple) -> Diagnostic:
    occ = t[8]
    if occ is not None:
        occ = [Diagnostic(*o) for o in occ]
    return Diagnostic(*t[:8], occ)


class Result(_core.ResultBase):
    """The analysis of one entity: the members of xmlsniff(1)'s --json
    record as attributes.

    encoding, source, bom, charset, mime, errors, warnings: as in the
    record; declaration (a Declaration or None), guess (a Guess or None),
    diagnostics (a list of Diagnostic), browser (with browser=True),
    unlisted (with all=True), http (with http=True: a dict); summary is
    the command line's text line after "NAME: ".  to_dict() and
    to_json() give the record itself, less "file".  A Result is read
    only and may be shared between threads.
    """

    __slots__ = ("_diags",)

    @property
    def declaration(self) -> Optional[Declaration]:
        """The declaration, or None where the entity has none."""
        t = self._declaration()
        return None if t is None else Declaration(*t)

    @property
    def guess(self) -> Optional[Guess]:
        """What the entity is most likely really in, or None."""
        t = self._guess()
        return None if t is None else Guess(*t)

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """The diagnostics, in the record's order (by offset)."""
        try:
            d = self._diags
        except AttributeError:
            d = self._diags = tuple(_diagnostic(t)
                                    for t in self._diagnostics())
        return list(d)

    @property
    def http(self) -> Optional[Dict[str, Any]]:
        """With http=True: the response's status, content_type and
        content_encoding as the record has them; else None."""
        return self.to_dict().get("http")

    def to_dict(self) -> Dict[str, Any]:
        """The --json record less "file", as a new dict in its order."""
        return _json.loads(self.to_json())

    def __repr__(self) -> str:
        return ("<xmlsniff.Result encoding=%r source=%r errors=%d "
                "warnings=%d>" % (self.encoding, self.source, self.errors,
                                  self.warnings))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


_core._set_classes(Result, {
    "argument": OptionError, "encoding": EncodingError,
    "state": StateError, "refused": TranscodeError,
    "read": _read_error, "write": _write_error,
})


# Options ------------------------------------------------------------------

def _str(kw: str, v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError("%s: a str expected, not %s"
                        % (kw, type(v).__name__))
    return v


def _flag(kw: str, v: Any) -> str:
    if not isinstance(v, bool):
        raise TypeError("%s: True or False expected, not %s"
                        % (kw, type(v).__name__))
    return "yes" if v else "no"


def _int(kw: str, v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("%s: an int expected, not %s"
                        % (kw, type(v).__name__))
    return str(v)


def _list(kw: str, v: Any) -> str:
    """A comma-separated list, from a str or an iterable of str."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray)) or not hasattr(v, "__iter__"):
        raise TypeError("%s: a str or an iterable of str expected, not %s"
                        % (kw, type(v).__name__))
    items = list(v)
    for i in items:
        if not isinstance(i, str):
            raise TypeError("%s: a str expected in the list, not %s"
                            % (kw, type(i).__name__))
    return ",".join(items)


# keyword -> (the long option of xmlsniff(1), its conversion)
_OPTIONS = {
    "content_type": ("content-type", _str),
    "encoding": ("encoding", _str),
    "default_encoding": ("default-encoding", _str),
    "browser": ("browser", _flag),
    "error": ("error", _list),
    "ignore": ("ignore", _list),
    "allow_encoding": ("allow-encoding", _list),
    "all": ("all", _flag),
    "max_errors": ("max-errors", _int),
    "http": ("http", _flag),
    "fallback": ("fallback", _str),
    "utf8_bom": ("utf8-bom", _flag),
    "byte_order": ("byte-order", _str),
}

# Options are immutable once built and the library lets any number of
# threads share them: one object per distinct set, kept (a few dozen).
_cache: Dict[Tuple[Tuple[str, str], ...], "_core.Options"] = {}
_CACHE_MAX = 64
_default = _core.Options(())


def _options(kw: Dict[str, Any]) -> "_core.Options":
    """The options for the keywords kw (None: not given)."""
    pairs = []
    for k, v in kw.items():
        opt, conv = _OPTIONS[k]
        if v is None or v is False and conv is _flag:
            continue
        pairs.append((opt, conv(k, v)))
    if not pairs:
        return _default
    key = tuple(pairs)
    o = _cache.get(key)
    if o is None:
        o = _core.Options(key)
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        _cache[key] = o
    return o


def _name(name: Any) -> Optional[bytes]:
    """A name for the library: None, or bytes (a str as os.fsencode)."""
    if name is None:
        return None
    if isinstance(name, (str, bytes)) or isinstance(name, _os.PathLike):
        return _os.fsencode(name)
    raise TypeError("name: a str, bytes or os.PathLike expected, not %s"
                    % type(name).__name__)


def _stream_name(f: Any) -> Optional[bytes]:
    """A file object's own name, where it has one (open()'s path)."""
    n = getattr(f, "name", None)
    if isinstance(n, (str, bytes)):
        return _os.fsencode(n)
    return None


# The sources --------------------------------------------------------------

def _buffer(source: Any) -> Optional[Any]:
    """source as an object the library reads in place, or None where it
    is not bytes-like.  A memoryview that is not contiguous is copied."""
    t = type(source)
    if t is bytes or t is bytearray:
        return source
    if t is not memoryview:
        if isinstance(source, (str, _os.PathLike)) or \
                hasattr(source, "read") and not hasattr(source, "__len__"):
            return None
        try:
            source = memoryview(source)
        except TypeError:
            return None
    if not source.c_contiguous:
        return source.tobytes()
    return source


def _feed_stream(feeder: Any, f: Any) -> None:
    """Feed what f reads, CHUNK bytes at a time, into feeder."""
    if isinstance(f, _io.TextIOBase):
        raise TypeError("a binary file object is needed, not a text one "
                        "(open the file with 'rb')")
    readinto = getattr(f, "readinto", None)
    if readinto is not None:
        buf = bytearray(CHUNK)
        mv = memoryview(buf)
        while True:
            n = readinto(mv)
            if n is None:
                raise BlockingIOError(_errno.EAGAIN, "the file object is "
                                      "non-blocking and has no data")
            if not n:
                break
            feeder.feed(mv[:n])
        return
    while True:
        b = f.read(CHUNK)
        if b is None:
            raise BlockingIOError(_errno.EAGAIN, "the file object is "
                                  "non-blocking and has no data")
        if isinstance(b, str):
            raise TypeError("a binary file object is needed: read() "
                            "returned str")
        if not b:
            break
        feeder.feed(b)


def _kinds_error(what: str, source: Any) -> TypeError:
    return TypeError("%s: bytes-like, a path (str or os.PathLike) or a "
                     "binary file object expected, not %s"
                     % (what, type(source).__name__))


# The functions ------------------------------------------------------------

def check(source: Source, *, name: Union[str, bytes, None] = None,
          content_type: Optional[str] = None,
          encoding: Optional[str] = None,
          default_encoding: Optional[str] = None,
          browser: bool = False, error: Codes = None, ignore: Codes = None,
          allow_encoding: Codes = None, all: bool = False,
          max_errors: Optional[int] = None, http: bool = False) -> Result:
    """Analyse one XML entity as xmlsniff(1) does, and return a Result.

    source is the entity: bytes, bytearray, memoryview or any other
    bytes-like object (read in place, not copied); a path (str or
    os.PathLike; bytes are content, not a path); or a binary file object,
    read to its end in chunks (memory stays constant however long the
    stream).  name is what diagnostics call the input and what the role
    is guessed from (a ".dtd" or ".ent" name is an external entity); a
    path or an open file is its own name unless one is given.

    The keywords are xmlsniff(1)'s options:
      content_type      the external Content-Type (--content-type)
      encoding          the charset alone (--encoding)
      default_encoding  for entities with no BOM, charset or declaration
      browser           also what a web browser reads (--browser)
      error, ignore     diagnostic codes to report as errors, or not at
                        all ("all" or a list; --error, --ignore)
      allow_encoding    the encodings allowed (--allow-encoding)
      all, max_errors   list every occurrence, up to max_errors (--all)
      http              the source is an HTTP response (--http)

    Raises TypeError for a wrong type, OptionError (a ValueError) for a
    bad value, FileNotFoundError, IsADirectoryError, PermissionError or
    another OSError for a path that cannot be read.
    """
    if (content_type is None and encoding is None and
            default_encoding is None and browser is False and
            error is None and ignore is None and allow_encoding is None and
            all is False and max_errors is None and http is False):
        opts = _default
    else:
        opts = _options({
            "content_type": content_type, "encoding": encoding,
            "default_encoding": default_encoding, "browser": browser,
            "error": error, "ignore": ignore,
            "allow_encoding": allow_encoding, "all": all,
            "max_errors": max_errors, "http": http})
    buf = _buffer(source)
    if buf is not None:
        return _core.check_buffer(opts, _name(name), buf)
    if isinstance(source, (str, _os.PathLike)):
        path = _os.fsencode(source)
        return _core.check_path(opts, path if name is None else
                                _name(name), path)
    if hasattr(source, "read"):
        c = _core.Checker(opts, _stream_name(source) if name is None else
                          _name(name))
        try:
            _feed_stream(c, source)
            return c.finish()
        finally:
            c.close()
    raise _kinds_error("source", source)


class Checker(_core.Checker):
    """One entity fed in pieces: feed(data) any number of times, then
    finish() for its Result.  The keywords are those of check().

        with xmlsniff.Checker(name="feed.xml") as c:
            for piece in pieces:
                c.feed(piece)
            result = c.finish()

    feed() takes any bytes-like object (TypeError otherwise); a feed
    after finish() or close() raises StateError.  Leaving the with block
    closes the checker.  Calls from several threads on one checker are
    taken one at a time.
    """

    def __new__(cls, *, name: Union[str, bytes, None] = None,
                content_type: Optional[str] = None,
                encoding: Optional[str] = None,
                default_encoding: Optional[str] = None,
                browser: bool = False, error: Codes = None,
                ignore: Codes = None, allow_encoding: Codes = None,
                all: bool = False, max_errors: Optional[int] = None,
                http: bool = False) -> "Checker":
        opts = _options({
            "content_type": content_type, "encoding": encoding,
            "default_encoding": default_encoding, "browser": browser,
            "error": error, "ignore": ignore,
            "allow_encoding": allow_encoding, "all": all,
            "max_errors": max_errors, "http": http})
        return super().__new__(cls, opts, _name(name))

    def __enter__(self) -> "Checker":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def transcode(source: Source, to: str, *, fallback: str = "error",
              utf8_bom: bool = False, byte_order: Optional[str] = None,
              content_type: Optional[str] = None,
              encoding: Optional[str] = None,
              default_encoding: Optional[str] = None,
              http: bool = False,
              name: Union[str, bytes, None] = None,
              out: Optional[BinaryIO] = None) -> Optional[bytes]:
    """The entity re-encoded in the encoding to, with the BOM and
    declaration RFC 7303 section 3.3 and XML 1.0 section 4.3.3 require:
    byte for byte what ``xmlsniff --transcode-to=TO -o - FILE`` writes.

    source is as for check().  fallback is "error" (a character the
    target cannot represent refuses the transcode) or "ncr" (it becomes
    &#xHHHH;); utf8_bom writes a BOM on a UTF-8 target; byte_order is
    "be" or "le" for a UTF-16 or UTF-32 target with a BOM.  The other
    keywords are check()'s.

    Returns the bytes, or writes them to the binary file object out and
    returns None.  Raises TranscodeError (a ValueError, with the
    diagnostics) when the entity cannot be transcoded faithfully, and
    EncodingError for a target this system cannot write; in either case
    nothing is written to out.  TypeError, OptionError and OSError as
    for check().
    """
    if not isinstance(to, str):
        raise TypeError("to: a str expected, not %s" % type(to).__name__)
    opts = _options({
        "content_type": content_type, "encoding": encoding,
        "default_encoding": default_encoding, "http": http,
        "fallback": fallback, "utf8_bom": utf8_bom,
        "byte_order": byte_order})
    spool = None
    if out is not None:
        if isinstance(out, _io.TextIOBase) or not hasattr(out, "write"):
            raise TypeError("out: a binary file object expected, not %s"
                            % type(out).__name__)
        spool = _tempfile.SpooledTemporaryFile(max_size=8 * CHUNK)
    try:
        buf = _buffer(source)
        if buf is None and isinstance(source, (str, _os.PathLike)):
            with open(source, "rb", buffering=0) as f:
                tc = _core.Transcoder(opts, _os.fsencode(source) if name
                                      is None else _name(name), to,
                                      None if spool is None else
                                      spool.write)
                _feed_stream(tc, f)
        elif buf is None and hasattr(source, "read"):
            tc = _core.Transcoder(opts, _stream_name(source) if name is
                                  None else _name(name), to,
                                  None if spool is None else spool.write)
            _feed_stream(tc, source)
        elif buf is not None:
            tc = _core.Transcoder(opts, _name(name), to,
                                  None if spool is None else spool.write)
            tc.feed(buf)
        else:
            raise _kinds_error("source", source)
        _result, data = tc.finish()
        if spool is None:
            return data
        spool.seek(0)
        _shutil.copyfileobj(spool, out, CHUNK)
        return None
    finally:
        if spool is not None:
            spool.close()

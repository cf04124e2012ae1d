"""xmlsniff.check and Checker against the command line's --json record:
from bytes, bytearray, memoryview, paths, file objects and fed pieces,
on the examples and on the generated entities."""

import array
import io
import json
import mmap
import os
import pathlib

import pytest

import entities
import xmlsniff
from conftest import EXAMPLES, ROOT, cli_records, run_cli


def test_the_package_is_the_one_built_here():
    assert pathlib.Path(xmlsniff.__file__).resolve().parent == \
        ROOT / "python" / "xmlsniff" or os.environ.get("XMLSNIFF_INSTALLED")
    assert xmlsniff.library_version == xmlsniff.__version__
    assert xmlsniff.library_version.count(".") == 2


def attributes_match(r, rec):
    """Every member of the record against the Result's attribute."""
    d = json.loads(rec)
    for k in ("encoding", "source", "bom", "charset", "mime", "errors",
              "warnings"):
        assert getattr(r, k) == d[k], k
    if d["declaration"] is None:
        assert r.declaration is None
    else:
        assert r.declaration._asdict() == d["declaration"]
    assert [x.to_dict() for x in r.diagnostics] == d["diagnostics"]
    for x, y in zip(r.diagnostics, d["diagnostics"]):
        assert (x.severity, x.code, x.offset, x.line, x.column, x.count,
                x.message) == tuple(y[k] for k in (
                    "severity", "code", "offset", "line", "column",
                    "count", "message"))
    g = d.get("guess")
    assert (r.guess._asdict() if r.guess else None) == g
    assert r.browser == d.get("browser")
    assert r.unlisted == d.get("unlisted")
    assert r.http == d.get("http")


def test_bytes_paths_files_and_pieces_give_the_command_lines_record(
        all_inputs, expected):
    for path, data in all_inputs:
        want = expected[str(path)]
        for r in (xmlsniff.check(data, name=str(path)),
                  xmlsniff.check(bytearray(data), name=str(path)),
                  xmlsniff.check(memoryview(data), name=str(path)),
                  xmlsniff.check(str(path)),
                  xmlsniff.check(path)):
            assert r.to_json() == want, path
        with open(path, "rb") as f:
            assert xmlsniff.check(f).to_json() == want, path
        with open(path, "rb", buffering=0) as f:
            assert xmlsniff.check(f).to_json() == want, path
        assert xmlsniff.check(io.BytesIO(data),
                              name=str(path)).to_json() == want
        with xmlsniff.Checker(name=str(path)) as c:
            for piece in entities.pieces(data, len(data)):
                c.feed(piece)
            r = c.finish()
        assert r.to_json() == want, path
        assert r.to_dict() == json.loads(want)
        assert list(r.to_dict()) == list(json.loads(want))
        attributes_match(r, want)


def test_other_bytes_like_objects_are_read_in_place(tmp_path):
    data = b"\xff\xfe" + "<a>\u00e9</a>".encode("utf-16-le")
    want = xmlsniff.check(data).to_json()
    assert xmlsniff.check(array.array("B", data)).to_json() == want
    p = tmp_path / "m.xml"
    p.write_bytes(data)
    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0,
                                       access=mmap.ACCESS_READ) as m:
        assert xmlsniff.check(m).to_json() == want
    # Not contiguous: copied, same answer.
    spaced = bytes(b for c in data for b in (c, 0))
    assert xmlsniff.check(memoryview(spaced)[::2]).to_json() == want


def test_a_bytearray_in_use_cannot_be_resized_under_the_library():
    b = bytearray(b"<a/>" * 1000)
    with xmlsniff.Checker() as c:
        c.feed(b)
        b.extend(b"<b/>")      # after the feed: allowed again
        c.feed(b)
        assert c.finish().errors == 0


def test_the_name_gives_the_role(tmp_path):
    # Content that looks like a document: the name decides (xmlsniff(1),
    # The role of an entity).
    data = b'<?xml version="1.0" encoding="UTF-8"?><a/>'
    for name in ("x.dtd", "x.ent", "x.xml", "X.ENT", "x.mod"):
        p = tmp_path / name
        p.write_bytes(data)
        want = cli_records([p])[str(p)]
        assert xmlsniff.check(data, name=str(p)).to_json() == want
        assert xmlsniff.check(data, name=name).declaration.kind == \
            json.loads(want)["declaration"]["kind"]
    assert xmlsniff.check(data, name=b"y.dtd").declaration.kind == "text"
    assert xmlsniff.check(data, name=pathlib.Path("y.dtd")) \
        .declaration.kind == "text"


def test_a_file_object_is_named_by_its_name(tmp_path):
    p = tmp_path / "e.ent"
    data = b'<?xml version="1.0" encoding="UTF-8"?><a/>'
    p.write_bytes(data)
    as_ent = xmlsniff.check(data, name=str(p)).to_json()
    as_doc = xmlsniff.check(data, name="doc.xml").to_json()
    assert as_ent != as_doc     # an external entity, not a document
    with open(p, "rb") as f:
        assert xmlsniff.check(f).to_json() == as_ent
    with open(p, "rb") as f:
        assert xmlsniff.check(f, name="doc.xml").to_json() == as_doc


OPTION_CASES = [
    ({"content_type": "text/xml; charset=iso-8859-1"},
     ["--content-type=text/xml; charset=iso-8859-1"]),
    ({"content_type": "text/plain"}, ["--content-type=text/plain"]),
    ({"content_type": "application/xml; charset=utf-16"},
     ["--content-type=application/xml; charset=utf-16"]),
    ({"encoding": "windows-1252"}, ["--encoding=windows-1252"]),
    ({"default_encoding": "ISO-8859-1"}, ["--default-encoding=ISO-8859-1"]),
    ({"browser": True}, ["--browser"]),
    ({"error": "all"}, ["--error=all"]),
    ({"error": ["utf8-bom", "missing-decl"]},
     ["--error=utf8-bom,missing-decl"]),
    ({"ignore": "not-xml,mojibake"}, ["--ignore=not-xml,mojibake"]),
    ({"ignore": ("illegal-sequence",)}, ["--ignore=illegal-sequence"]),
    ({"allow_encoding": ["UTF-8"]}, ["--allow-encoding=UTF-8"]),
    ({"allow_encoding": "UTF-8,UTF-16"}, ["--allow-encoding=UTF-8,UTF-16"]),
    ({"all": True}, ["--all"]),
    ({"all": True, "max_errors": 2}, ["--all", "--max-errors=2"]),
    ({"max_errors": 1}, ["--max-errors=1"]),
    ({"browser": True, "all": True, "content_type": "text/html"},
     ["--browser", "--all", "--content-type=text/html"]),
]


@pytest.mark.parametrize("kw,flags", OPTION_CASES,
                         ids=[" ".join(f) for _, f in OPTION_CASES])
def test_each_option_as_the_command_line_has_it(all_inputs, kw, flags):
    want = cli_records([p for p, _ in all_inputs], *flags)
    for path, data in all_inputs:
        r = xmlsniff.check(data, name=str(path), **kw)
        assert r.to_json() == want[str(path)], path
        attributes_match(r, want[str(path)])
        with xmlsniff.Checker(name=str(path), **kw) as c:
            for piece in entities.pieces(data, 7):
                c.feed(piece)
            assert c.finish().to_json() == want[str(path)], path


def test_occurrences_are_listed_with_all(tmp_path):
    p = tmp_path / "many.xml"
    p.write_bytes(b"<a>" + b"\x01x\x80" * 50 + b"</a>")
    want = cli_records([p], "--all", "--max-errors=7")[str(p)]
    r = xmlsniff.check(p, all=True, max_errors=7)
    assert r.to_json() == want
    d = json.loads(want)
    assert r.unlisted == d["unlisted"] > 0
    for x, y in zip(r.diagnostics, d["diagnostics"]):
        assert [(o.offset, o.line, o.column, o.message)
                for o in x.occurrences] == \
            [(o["offset"], o["line"], o["column"], o["message"])
             for o in y["occurrences"]]
        assert all(o.code == x.code and o.severity == x.severity
                   for o in x.occurrences)
        assert x.occurrences[0].offset == x.offset
    assert xmlsniff.check(p).diagnostics[0].occurrences is None
    assert xmlsniff.check(p).unlisted is None


def test_http_responses(tmp_path):
    paths = []
    for name, data in entities.http_responses():
        p = tmp_path / name
        p.write_bytes(data)
        paths.append(p)
    want = cli_records(paths, "--http")
    for p in paths:
        r = xmlsniff.check(p, http=True)
        assert r.to_json() == want[str(p)]
        assert r.http == json.loads(want[str(p)])["http"]


def test_the_summary_is_the_command_lines_text_line(all_inputs):
    paths = [str(p) for p, _ in all_inputs]
    status, out, err = run_cli(["--"] + paths)
    lines = {}
    for line in out.decode("utf-8").splitlines():
        name, _, rest = line.partition(": ")
        lines[name] = rest
    assert len(lines) == len(paths), err
    for path, data in all_inputs:
        assert xmlsniff.check(data, name=str(path)).summary == \
            lines[str(path)], path


def test_a_long_stream_is_read_in_constant_memory(tmp_path):
    """256 MiB from a file object that makes it as it is read: the
    answer is the command line's on the same bytes through a pipe, and
    the process grows by far less than the stream."""
    import subprocess
    import sys
    prog = r'''
import io, resource, sys, json
sys.path.insert(0, sys.argv[1])
import xmlsniff
class Gen(io.RawIOBase):
    def __init__(self, n):
        self.left = n
        self.block = (b"<r>" + "caf\u00e9 ".encode() * 200000)[:1 << 20]
    def readable(self):
        return True
    def readinto(self, b):
        n = min(len(b), self.left, len(self.block))
        b[:n] = self.block[:n]
        self.left -= n
        return n
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
r = xmlsniff.check(Gen(256 << 20))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grew_kb": after - before, "json": r.to_json()}))
'''
    p = subprocess.run([sys.executable, "-c", prog,
                        str(ROOT / "python")], stdout=subprocess.PIPE,
                       check=True)
    got = json.loads(p.stdout)
    assert got["grew_kb"] < 64 * 1024, got["grew_kb"]
    block = (b"<r>" + "caf\u00e9 ".encode() * 200000)[:1 << 20]
    gen = subprocess.Popen(
        [sys.executable, "-c", "import sys\nb=sys.stdin.buffer.read()\n"
         "for i in range(256): sys.stdout.buffer.write(b)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    cli = subprocess.Popen(
        [str(ROOT / "xmlsniff"), "--no-config", "--json",
         "--stdin-name=x"], stdin=gen.stdout, stdout=subprocess.PIPE)
    gen.stdin.write(block)
    gen.stdin.close()
    gen.stdout.close()
    out = cli.communicate()[0]
    gen.wait()
    want = "{" + out.decode().strip()[len('{"file":"x",'):]
    assert got["json"] == want

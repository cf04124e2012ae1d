"""xmlsniff.transcode against xmlsniff --transcode-to=TO -o - FILE, byte
for byte, from bytes, paths and file objects, to bytes and to a file."""

import io

import pytest

import xmlsniff
from conftest import EXAMPLES, cli_transcode

TARGETS = ["UTF-8", "UTF-16", "UTF-16LE", "UTF-32", "ISO-8859-1",
           "windows-1252", "Shift_JIS", "US-ASCII", "IBM037"]
VARIANTS = [
    ({}, []),
    ({"utf8_bom": True}, ["--utf8-bom"]),
    ({"byte_order": "le"}, ["--byte-order=le"]),
    ({"fallback": "ncr"}, ["--fallback=ncr"]),
    ({"fallback": "ncr", "byte_order": "be"},
     ["--fallback=ncr", "--byte-order=be"]),
]


def same_as_the_command_line(path, data, to, kw, flags):
    status, want = cli_transcode(path, "--transcode-to=" + to, *flags)
    for source in (data, path, io.BytesIO(data)):
        if status == 0:
            assert xmlsniff.transcode(source, to, name=str(path),
                                      **kw) == want, (path, to, kw)
            if not isinstance(source, (bytes, str)) and \
                    hasattr(source, "seek"):
                source.seek(0)
            out = io.BytesIO()
            assert xmlsniff.transcode(source, to, name=str(path), out=out,
                                      **kw) is None
            assert out.getvalue() == want
        elif status == 1:
            out = io.BytesIO()
            with pytest.raises(xmlsniff.TranscodeError):
                xmlsniff.transcode(source, to, name=str(path), out=out,
                                   **kw)
            assert out.getvalue() == b""
        else:
            with pytest.raises(ValueError):
                xmlsniff.transcode(source, to, name=str(path), **kw)


@pytest.mark.parametrize("to", TARGETS)
def test_the_examples(to):
    for path in EXAMPLES:
        same_as_the_command_line(path, path.read_bytes(), to, {}, [])


@pytest.mark.slow
@pytest.mark.parametrize("to", TARGETS)
def test_the_examples_in_every_variant(to):
    for path in EXAMPLES:
        data = path.read_bytes()
        for kw, flags in VARIANTS[1:]:
            same_as_the_command_line(path, data, to, kw, flags)


@pytest.mark.parametrize("to", ["UTF-8", "UTF-16"])
def test_the_generated_entities(generated, to):
    for path, data in generated:
        same_as_the_command_line(path, data, to, {}, [])


def test_the_analysis_options_count(tmp_path):
    p = tmp_path / "nodecl.xml"
    data = "<a>caf\u00e9</a>".encode("latin-1")
    p.write_bytes(data)
    for kw, flags in (({"default_encoding": "ISO-8859-1"},
                       ["--default-encoding=ISO-8859-1"]),
                      ({"content_type": "text/xml; charset=iso-8859-1"},
                       ["--content-type=text/xml; charset=iso-8859-1"]),
                      ({"encoding": "windows-1252"},
                       ["--encoding=windows-1252"])):
        same_as_the_command_line(p, data, "UTF-8", kw, flags)


def test_a_long_stream_goes_to_a_file_through_a_spool(tmp_path):
    data = ('<?xml version="1.0" encoding="UTF-8"?><a>' +
            "caf\u00e9 \u20ac " * 400000 + "</a>").encode()
    p = tmp_path / "long.xml"
    p.write_bytes(data)
    status, want = cli_transcode(p, "--transcode-to=UTF-16")
    assert status == 0
    with open(tmp_path / "out.xml", "wb") as out:
        xmlsniff.transcode(p, "UTF-16", out=out)
    assert (tmp_path / "out.xml").read_bytes() == want


def test_the_transcoder_feed_takes_bytes_like_and_nothing_after_finish():
    # The object transcode() drives: a feed that is not bytes-like is a
    # TypeError and feeds nothing, one after finish a StateError.
    from xmlsniff import _core
    tc = _core.Transcoder(xmlsniff._options({}), None, "UTF-16", None)
    for bad in ("<a/>", 3, None):
        with pytest.raises(TypeError):
            tc.feed(bad)
    tc.feed(b"<a>")
    tc.feed(memoryview(b"x</a>"))
    _result, data = tc.finish()
    assert data == b"\xfe\xff" + "<a>x</a>".encode("utf-16-be")
    with pytest.raises(xmlsniff.StateError, match="finished"):
        tc.feed(b"<b/>")
    with pytest.raises(xmlsniff.StateError, match="finished"):
        tc.finish()

"""Every bad argument and every exception class: the right exception,
never a crash, never a half-written output."""

import io
import os
import subprocess
import sys

import pytest

import xmlsniff
from conftest import ROOT, cli_transcode, run_cli


def test_the_hierarchy():
    assert issubclass(xmlsniff.Error, ValueError)
    for cls in (xmlsniff.OptionError, xmlsniff.StateError,
                xmlsniff.TranscodeError):
        assert issubclass(cls, xmlsniff.Error)
    assert issubclass(xmlsniff.EncodingError, xmlsniff.OptionError)


@pytest.mark.parametrize("source", [None, 42, 4.2, ["<a/>"], {"a": 1},
                                    object()])
def test_a_source_of_another_type_is_a_type_error(source):
    with pytest.raises(TypeError, match="bytes-like, a path"):
        xmlsniff.check(source)
    with pytest.raises(TypeError):
        xmlsniff.transcode(source, "UTF-8")


def test_str_is_a_path_and_bytes_are_content():
    with pytest.raises(FileNotFoundError):
        xmlsniff.check("<a/>")
    assert xmlsniff.check(b"<a/>").errors == 0


@pytest.mark.parametrize("kw", [
    {"content_type": 5}, {"content_type": b"text/xml"}, {"encoding": 1},
    {"default_encoding": ["UTF-8"]}, {"browser": "yes"}, {"browser": 1},
    {"all": "no"}, {"max_errors": "5"}, {"max_errors": 5.0},
    {"max_errors": True}, {"error": 3}, {"ignore": b"not-xml"},
    {"ignore": ["not-xml", 3]}, {"allow_encoding": 8}, {"http": 0},
    {"name": 12},
])
def test_an_option_of_another_type_is_a_type_error(kw):
    with pytest.raises(TypeError):
        xmlsniff.check(b"<a/>", **kw)
    with pytest.raises(TypeError):
        xmlsniff.Checker(**kw)


def test_an_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError):
        xmlsniff.check(b"<a/>", colour=True)
    with pytest.raises(TypeError):
        xmlsniff.Checker(strict=True)
    with pytest.raises(TypeError):
        xmlsniff.check(b"<a/>", "text/xml")     # keywords only


BAD_VALUES = [
    ({"content_type": "text/xml; charset"}, "--content-type=text/xml; charset"),
    ({"content_type": "no slash"}, "--content-type=no slash"),
    ({"content_type": 'text/xml; charset="open'},
     '--content-type=text/xml; charset="open'),
    ({"encoding": ""}, "--encoding="),
    ({"default_encoding": "x-no-such-encoding"},
     "--default-encoding=x-no-such-encoding"),
    ({"error": "no-such-code"}, "--error=no-such-code"),
    ({"ignore": ["not-xml", "bogus"]}, "--ignore=not-xml,bogus"),
    ({"allow_encoding": ""}, "--allow-encoding="),
    ({"max_errors": 0}, "--max-errors=0"),
    ({"max_errors": 100001}, "--max-errors=100001"),
    ({"max_errors": -1}, "--max-errors=-1"),
]


@pytest.mark.parametrize("kw,flag", BAD_VALUES,
                         ids=[f for _, f in BAD_VALUES])
def test_a_bad_value_is_an_option_error_as_the_command_line_refuses_it(
        kw, flag):
    status, _, err = run_cli([flag, "-"], stdin=b"<a/>")
    assert status == 2, err
    with pytest.raises(xmlsniff.OptionError) as e:
        xmlsniff.check(b"<a/>", **kw)
    assert isinstance(e.value, ValueError)
    assert e.value.message and str(e.value) == e.value.message
    assert e.value.diagnostics == [] and e.value.result is None
    with pytest.raises(xmlsniff.OptionError):
        xmlsniff.Checker(**kw)


def test_paths_that_cannot_be_read(tmp_path):
    missing = tmp_path / "missing.xml"
    with pytest.raises(FileNotFoundError) as e:
        xmlsniff.check(missing)
    assert e.value.filename == os.fsencode(str(missing))
    with pytest.raises(FileNotFoundError):
        xmlsniff.check(str(missing))
    with pytest.raises(FileNotFoundError):
        xmlsniff.transcode(missing, "UTF-8")
    with pytest.raises(IsADirectoryError):
        xmlsniff.check(tmp_path)
    with pytest.raises(IsADirectoryError):
        xmlsniff.transcode(tmp_path, "UTF-8")
    with pytest.raises(NotADirectoryError):
        xmlsniff.check(_file(tmp_path) / "x")
    with pytest.raises(ValueError):
        xmlsniff.check("a\0b")


def _file(d):
    p = d / "plain.xml"
    p.write_bytes(b"<a/>")
    return p


def test_a_path_without_permission_is_a_permission_error(tmp_path):
    p = tmp_path / "secret.xml"
    p.write_bytes(b"<a/>")
    p.chmod(0)
    if os.geteuid() != 0:
        with pytest.raises(PermissionError):
            xmlsniff.check(p)
        return
    # root reads anything: ask as nobody, in a process of its own that
    # imports the package as root first (the tree may sit in a folder
    # nobody cannot enter, as make dist's test unpacks it).
    os.chmod(tmp_path, 0o755)
    prog = ("import os, sys; sys.path.insert(0, sys.argv[1])\n"
            "import xmlsniff\n"
            "os.setgroups([]); os.setgid(65534); os.setuid(65534)\n"
            "try:\n    xmlsniff.check(sys.argv[2])\n"
            "except PermissionError as e:\n    print('PermissionError',"
            " e.filename)\n")
    r = subprocess.run([sys.executable, "-c", prog, str(ROOT / "python"),
                        str(p)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert r.stdout.decode().startswith("PermissionError"), r.stderr


def test_a_text_file_object_is_a_type_error(tmp_path):
    with pytest.raises(TypeError, match="binary"):
        xmlsniff.check(io.StringIO("<a/>"))
    p = _file(tmp_path)
    with open(p) as f, pytest.raises(TypeError, match="binary"):
        xmlsniff.check(f)

    class ReadsStr:
        def read(self, n):
            return "<a/>"
    with pytest.raises(TypeError, match="str"):
        xmlsniff.check(ReadsStr())


def test_a_file_objects_own_error_goes_through():
    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise OSError(5, "the disk is on fire")
    with pytest.raises(OSError, match="on fire"):
        xmlsniff.check(Broken())


def test_feed_takes_bytes_like_only():
    with xmlsniff.Checker() as c:
        for bad in ("<a/>", 3, None, [1, 2]):
            with pytest.raises(TypeError):
                c.feed(bad)
        c.feed(b"<a/>")
        assert c.finish().errors == 0


def test_a_feed_after_finish_is_a_state_error():
    c = xmlsniff.Checker()
    c.feed(b"<a/>")
    c.finish()
    with pytest.raises(xmlsniff.StateError) as e:
        c.feed(b"<b/>")
    assert isinstance(e.value, ValueError)
    c.close()
    with pytest.raises(xmlsniff.StateError):
        c.feed(b"<b/>")
    with pytest.raises(xmlsniff.StateError):
        c.finish()


def test_the_with_block_closes_the_checker():
    with xmlsniff.Checker() as c:
        c.feed(b"<a/>")
    assert c.closed
    with pytest.raises(xmlsniff.StateError):
        c.feed(b"<a/>")
    with pytest.raises(ZeroDivisionError):
        with xmlsniff.Checker() as c:
            1 / 0
    assert c.closed


def test_results_are_made_by_the_package_only():
    with pytest.raises(TypeError):
        xmlsniff.Result()


def test_transcode_argument_types():
    with pytest.raises(TypeError):
        xmlsniff.transcode(b"<a/>", 8)
    with pytest.raises(TypeError):
        xmlsniff.transcode(b"<a/>", "UTF-8", out=io.StringIO())
    with pytest.raises(TypeError):
        xmlsniff.transcode(b"<a/>", "UTF-8", out="file.xml")
    with pytest.raises(TypeError):
        xmlsniff.transcode(b"<a/>", "UTF-8", utf8_bom="yes")


@pytest.mark.parametrize("kw", [{"fallback": "replace"},
                                {"byte_order": "middle"},
                                {"content_type": "no slash"}])
def test_transcode_bad_values_are_option_errors(kw):
    with pytest.raises(xmlsniff.OptionError):
        xmlsniff.transcode(b"<a/>", "UTF-8", **kw)


def test_an_unknown_target_is_an_encoding_error():
    for to in ("x-no-such-encoding", ""):
        with pytest.raises(xmlsniff.EncodingError) as e:
            xmlsniff.transcode(b"<a/>", to)
        assert isinstance(e.value, ValueError)
        out = io.BytesIO()
        with pytest.raises(xmlsniff.EncodingError):
            xmlsniff.transcode(b"<a/>", to, out=out)
        assert out.getvalue() == b""


def test_a_refused_transcode_carries_the_diagnostics(tmp_path):
    bad = b"<a>" + b"x" * (3 << 20) + b"\xff</a>"     # refused at the end
    p = tmp_path / "bad.xml"
    p.write_bytes(bad)
    status, written = cli_transcode(p, "--transcode-to=UTF-16")
    assert status == 1
    for source in (bad, p, io.BytesIO(bad)):
        out = io.BytesIO()
        with pytest.raises(xmlsniff.TranscodeError) as e:
            xmlsniff.transcode(source, "UTF-16", out=out)
        assert out.getvalue() == b""        # nothing half-written
        assert isinstance(e.value, xmlsniff.Error)
        assert isinstance(e.value, ValueError)
        assert "illegal-sequence" in [d.code for d in e.value.diagnostics]
        assert e.value.result is not None


def test_an_unrepresentable_character_is_refused_or_referenced():
    data = '<?xml version="1.0" encoding="UTF-8"?><a>\u20ac</a>'.encode()
    with pytest.raises(xmlsniff.TranscodeError) as e:
        xmlsniff.transcode(data, "ISO-8859-1")
    assert "unrepresentable" in [d.code for d in e.value.diagnostics]
    assert b"&#x20AC;" in xmlsniff.transcode(data, "ISO-8859-1",
                                             fallback="ncr").upper() \
        .replace(b"&#X", b"&#x")


def test_an_output_that_fails_is_the_outputs_error():
    class Full(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            raise OSError(28, "No space left on device")
    with pytest.raises(OSError, match="No space"):
        xmlsniff.transcode(b"<a/>", "UTF-8", out=Full())

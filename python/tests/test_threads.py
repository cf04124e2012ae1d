"""Many threads on shared options and on shared objects: every result
the serial one (and the command line's); the GIL released while the
library works."""

import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import entities
import xmlsniff

THREADS = 8
OPTIONS = [{}, {"all": True, "browser": True},
           {"content_type": "text/xml; charset=windows-1252"},
           {"error": "all", "ignore": "not-xml"}]


def test_eight_threads_sharing_options_give_the_serial_results(
        all_inputs, expected):
    jobs = [(i, kw) for i in range(len(all_inputs))
            for kw in range(len(OPTIONS))] * 3
    serial = {}
    for path, data in all_inputs:
        for k, kw in enumerate(OPTIONS):
            serial[str(path), k] = xmlsniff.check(
                data, name=str(path), **kw).to_json()
        assert serial[str(path), 0] == expected[str(path)]

    def work(job):
        i, k = job
        path, data = all_inputs[i]
        how = (i + k) % 3
        if how == 0:
            r = xmlsniff.check(data, name=str(path), **OPTIONS[k])
        elif how == 1:
            r = xmlsniff.check(path, **OPTIONS[k])
        else:
            with xmlsniff.Checker(name=str(path), **OPTIONS[k]) as c:
                for piece in entities.pieces(data, i):
                    c.feed(piece)
                r = c.finish()
        return (str(path), k), r.to_json()

    with ThreadPoolExecutor(THREADS) as ex:
        for key, got in ex.map(work, jobs):
            assert got == serial[key], key


def test_threads_sharing_one_result_read_the_same():
    r = xmlsniff.check(b"\xff\xfe" + "<a>\x01</a>".encode("utf-16-le"),
                       all=True)
    want = (r.to_json(), r.diagnostics, r.declaration, r.encoding)

    def read(_):
        return (r.to_json(), r.diagnostics, r.declaration, r.encoding)
    with ThreadPoolExecutor(THREADS) as ex:
        assert all(got == want for got in ex.map(read, range(400)))


def test_threads_sharing_one_checker_take_turns():
    """Pieces fed from eight threads at once into one checker: the calls
    are taken one at a time (no race in C), and since every piece is the
    same, the result is that of the whole."""
    piece = "<a>caf\u00e9</a>\n".encode() * 1000
    with xmlsniff.Checker() as c:
        c.feed(b"<r>")

        def feed(_):
            c.feed(piece)
        with ThreadPoolExecutor(THREADS) as ex:
            list(ex.map(feed, range(64)))
        c.feed(b"</r>")
        got = c.finish().to_json()
    assert got == xmlsniff.check(b"<r>" + piece * 64 + b"</r>").to_json()


def test_threads_transcoding_at_once():
    data = ('<?xml version="1.0" encoding="ISO-8859-1"?><a>' +
            "caf\u00e9 " * 20000 + "</a>").encode("latin-1")
    want = xmlsniff.transcode(data, "UTF-16")
    with ThreadPoolExecutor(THREADS) as ex:
        assert all(x == want for x in ex.map(
            lambda _: xmlsniff.transcode(data, "UTF-16"), range(32)))


def test_the_gil_is_released_while_the_library_works():
    """With thread switching turned off, another thread runs during a
    call only if the call lets go of the GIL: a counter it increments
    moves while check() works on a large buffer, and while feed() and
    transcode() do (no timing: whether it moves at all)."""
    big = ("<a>" + "caf\u00e9 \u20ac" * (2 << 20) + "</a>").encode()
    ticks = [0]
    running = threading.Event()
    stop = threading.Event()

    def spin():
        running.set()
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0)       # lets the GIL go: the main thread resumes

    old = sys.getswitchinterval()
    t = threading.Thread(target=spin)
    t.start()
    running.wait()
    sys.setswitchinterval(1000)
    try:
        for call in (lambda: xmlsniff.check(big),
                     lambda: xmlsniff.Checker().feed(big),
                     lambda: xmlsniff.transcode(big, "UTF-16")):
            # Held, the GIL lets the counter move in none of the calls;
            # released, in all but those too short for the other thread
            # to be woken in time.
            before = ticks[0]
            for _ in range(50):
                call()
                if ticks[0] > before:
                    break
            assert ticks[0] > before
    finally:
        sys.setswitchinterval(old)
        stop.set()
        t.join()

"""xmlsniff.dask on a LocalCluster of two worker processes, against
xmlsniff --json -r (slow tier: starting a cluster takes seconds)."""

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys

import pytest

import entities
import xmlsniff
from conftest import EXAMPLES, ROOT, XMLSNIFF

ENV = dict(os.environ, PYTHONPATH=str(ROOT / "python"))


def have_dask():
    try:
        import dask.bag  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


# In CI (CI_REQUIRED, .ci/run), where the install step put it there, a
# missing Dask fails rather than skips.
needs_dask = pytest.mark.skipif(
    not have_dask() and not os.environ.get("CI_REQUIRED"),
    reason="Dask distributed is not installed (python3-distributed)")


def test_without_dask_the_import_error_says_what_to_install():
    prog = ("import sys\nsys.modules['distributed'] = None\n"
            "sys.modules['dask'] = None\nimport xmlsniff.dask\n"
            "try:\n    xmlsniff.dask.records([])\n"
            "except ImportError as e:\n    print(e)\n")
    p = subprocess.run([sys.executable, "-c", prog], env=ENV,
                       stdout=subprocess.PIPE, check=True)
    assert b"python3-distributed" in p.stdout
    prog = ("import sys, runpy\nsys.modules['distributed'] = None\n"
            "sys.modules['dask'] = None\nsys.argv = ['x', '.']\n"
            "runpy.run_module('xmlsniff.dask', run_name='__main__')\n")
    p = subprocess.run([sys.executable, "-c", prog], env=ENV,
                       stderr=subprocess.PIPE)
    assert p.returncode != 0 and b"python3-distributed" in p.stderr


def test_the_json_string_rule_is_the_command_lines(tmp_path):
    from xmlsniff.dask import json_string
    names = ["plain.xml", "quote\".xml", "back\\slash.xml", "tab\t.xml",
             "nl\n.xml", "caf\u00e9.xml", "del\x7f.xml", "bell\x07.xml"]
    raw = [os.fsencode(n) for n in names] + [b"latin\xe9.xml",
                                             b"cut\xe2\x82.xml"]
    for n in raw:
        (tmp_path / os.fsdecode(n)).write_bytes(b"<a/>")
    p = subprocess.run([XMLSNIFF, "--no-config", "--json", "--"] +
                       [os.fsdecode(n) for n in raw], cwd=tmp_path,
                       stdout=subprocess.PIPE, check=True)
    lines = p.stdout.decode("utf-8").splitlines()
    assert sorted(line[len('{"file":'):line.index(',"encoding"')]
                  for line in lines) == sorted(json_string(n) for n in raw)


def make_corpus(d):
    """A git work tree: the examples, generated entities in folders, a
    file git ignores, files -r passes over, odd names."""
    d.mkdir()
    for p in EXAMPLES:
        shutil.copy(p, d / p.name)
    sub = d / "deep" / "er"
    sub.mkdir(parents=True)
    for i, (name, data) in enumerate(entities.entities()):
        ((d / "deep") if i % 2 else sub).joinpath(name).write_bytes(data)
    (d / "ignored.xml").write_bytes(b"<ignored/>")
    (d / ".gitignore").write_bytes(b"ignored.xml\n")
    (d / "notes.txt").write_bytes(b"not XML, not an XML extension\n")
    (d / "odd \"name\"\n.xml").write_bytes(b"<a>\xff</a>")
    (d / os.fsdecode(b"caf\xe9.svg")).write_bytes(b"<svg/>")
    subprocess.run(["git", "init", "-q", str(d)], check=True)


def cli_lines(corpus, *opts, status=0):
    p = subprocess.run([XMLSNIFF, "--json", "-r"] + list(opts) +
                       [corpus.name], cwd=corpus.parent,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == status, p.stderr.decode()
    return sorted(p.stdout.splitlines())


def dask_lines(corpus, *opts, status=0):
    p = subprocess.run([sys.executable, "-m", "xmlsniff.dask", "--jobs",
                        "2"] + list(opts) + [corpus.name],
                       cwd=corpus.parent, env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode == status, p.stderr.decode()
    return sorted(p.stdout.splitlines())


@pytest.mark.slow
@needs_dask
def test_the_program_prints_what_xmlsniff_json_r_prints(tmp_path):
    corpus = tmp_path / "corpus"
    make_corpus(corpus)
    want = cli_lines(corpus)
    assert len(want) > 100
    assert not any(b"ignored.xml" in line or b"notes.txt" in line
                   for line in want)
    assert dask_lines(corpus) == want
    flags = ["--browser", "--all", "--max-errors=3",
             "--content-type=text/xml; charset=windows-1252",
             "--exclude=deep/er"]
    assert dask_lines(corpus, *flags) == cli_lines(corpus, *flags)
    # A path that is not there: its record of nulls, and status 2.
    flags = ["--browser", "no-such-dir"]
    assert dask_lines(corpus, *flags, status=2) == \
        cli_lines(corpus, *flags, status=2)


@pytest.fixture(scope="module")
def client():
    if not have_dask() and not os.environ.get("CI_REQUIRED"):
        pytest.skip("Dask distributed is not installed (python3-distributed)")
    import distributed
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                       processes=True,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.slow
def test_a_bag_of_paths_and_a_bag_of_pairs(client, generated):
    import dask.bag as db
    import xmlsniff.dask as xd
    paths = [str(p) for p, _ in generated]
    want = {p: {"file": p, **xmlsniff.check(p).to_dict()} for p in paths}
    got = xd.records(db.from_sequence(paths, npartitions=6)).compute()
    assert sorted(got, key=lambda r: r["file"]) == \
        [want[p] for p in sorted(paths)]
    pairs = [(str(p), d) for p, d in generated]
    got = xd.records(db.from_sequence(pairs, npartitions=6),
                     all=True).compute()
    assert {r["file"]: r for r in got} == {
        p: {"file": p, **xmlsniff.check(d, name=p, all=True).to_dict()}
        for p, d in pairs}
    missing = str(generated[0][0]) + ".missing"
    rec = xd.records(db.from_sequence([missing])).compute()[0]
    assert rec["error"] == os.strerror(2) and rec["encoding"] is None
    with pytest.raises(ValueError):
        xd.records(db.from_sequence(paths), max_errors=0)
    assert json.loads(xd.record_line(pairs[0])) == xd.record(pairs[0])


def readme_cluster_commands():
    """The README's cluster commands: the block of "Scaling out" that is
    no session, each line less its comment."""
    text = (ROOT / "README").read_text(encoding="utf-8")
    section = text.split("\nScaling out\n-----------\n", 1)[1]
    section = re.split(r"\n\n[^\n]+\n-{3,}\n", section, 1)[0]
    blocks = [b for b in re.findall(r"(?m)^(?:    \S.*\n)+", section)
              if not b.startswith("    $ ")]
    assert len(blocks) == 1, blocks
    return [line[4:].split("#", 1)[0].strip()
            for line in blocks[0].splitlines()]


@pytest.mark.slow
@needs_dask
def test_the_readmes_cluster_commands_as_written(tmp_path):
    """A scheduler, a worker and the program as the README writes them,
    on this machine: the address is 127.0.0.1 and a free port instead of
    scheduler:8786, two worker processes instead of eight, and no
    dashboards (their ports may be taken)."""
    sched, worker, prog = readme_cluster_commands()
    assert sched == "dask scheduler"
    assert worker.startswith("dask worker tcp://scheduler:8786 ")
    assert prog.startswith("python3 -m xmlsniff.dask "
                           "--scheduler tcp://scheduler:8786 ")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = "127.0.0.1:%d" % port

    def argv(cmd):
        return shlex.split(cmd.replace("scheduler:8786", addr))
    procs = []
    try:
        procs.append(subprocess.Popen(
            argv(sched) + ["--host", "127.0.0.1", "--port", str(port),
                           "--no-dashboard"], env=ENV, cwd=tmp_path,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        w = argv(worker)
        w[w.index("--nworkers") + 1] = "2"
        procs.append(subprocess.Popen(
            w + ["--no-dashboard"], env=ENV, cwd=tmp_path,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        import distributed
        with distributed.Client("tcp://" + addr, timeout=60) as c:
            c.wait_for_workers(2, timeout=60)
        corpus = tmp_path / "corpus"
        make_corpus(corpus)
        cmd = prog.replace("scheduler:8786", addr).replace(
            "python3", shlex.quote(sys.executable), 1)
        d = subprocess.run(cmd, shell=True, cwd=tmp_path, env=ENV,
                           stderr=subprocess.PIPE)
        got = sorted((tmp_path / "records.jsonl").read_bytes().splitlines())
        p = subprocess.run([XMLSNIFF, "--json", "-r", "corpus/"],
                           cwd=tmp_path, stdout=subprocess.PIPE)
        assert d.returncode == p.returncode, d.stderr.decode()
        assert len(got) > 100
        assert got == sorted(p.stdout.splitlines())
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

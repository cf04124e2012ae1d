"""What every test file shares: the command line to compare with, the
examples, and the generated entities written once to a folder."""

import json
import os
import pathlib
import subprocess

import pytest

import entities

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
#: The command line the binding is compared with: the one built beside it.
XMLSNIFF = os.environ.get("XMLSNIFF", str(ROOT / "xmlsniff"))
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.is_file())


def run_cli(args, stdin=None):
    """xmlsniff ARGS (no configuration file): (status, stdout, stderr)."""
    p = subprocess.run([XMLSNIFF, "--no-config"] + [str(a) for a in args],
                       input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def cli_records(paths, *opts):
    """{file name: its --json line less "file", as text} for each path,
    from one run of the command line."""
    status, out, err = run_cli(["--json"] + list(opts) + ["--"] +
                               [str(p) for p in paths])
    assert status in (0, 1), err
    recs = {}
    for line in out.decode("utf-8").splitlines():
        name = json.loads(line)["file"]
        prefix = '{"file":' + json.dumps(name, ensure_ascii=False) + ","
        assert line.startswith(prefix), line
        recs[name] = "{" + line[len(prefix):]
    assert len(recs) == len(paths), err
    return recs


def cli_transcode(path, *opts):
    """xmlsniff --transcode-to=... -o - PATH: (status, bytes written)."""
    status, out, _ = run_cli(list(opts) + ["-o", "-", "--", str(path)])
    return status, out


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """[(path, bytes)] of entities.entities(), written to a folder."""
    d = tmp_path_factory.mktemp("entities")
    out = []
    for name, data in entities.entities():
        p = d / name
        p.write_bytes(data)
        out.append((p, data))
    return out


@pytest.fixture(scope="session")
def all_inputs(generated):
    """The examples and the generated entities: [(path, bytes)]."""
    return [(p, p.read_bytes()) for p in EXAMPLES] + generated


@pytest.fixture(scope="session")
def expected(all_inputs):
    """{str(path): the command line's record less "file"}."""
    return cli_records([p for p, _ in all_inputs])

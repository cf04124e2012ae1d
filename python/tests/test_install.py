"""python3 -m pip install ./python, with no network: the installed
package stands alone (slow tier: pip builds the extension again)."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.slow
def test_pip_installs_the_package_with_no_network(tmp_path):
    site = tmp_path / "site"
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    p = subprocess.run([sys.executable, "-m", "pip", "install", "-q",
                        "--no-build-isolation", "--no-index", "--no-deps",
                        "--target", str(site), str(ROOT / "python")],
                       env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode()
    # Imported from elsewhere, with nothing of the source tree in reach.
    prog = ("import sys, xmlsniff\n"
            "print(xmlsniff.__file__)\n"
            "print(xmlsniff.check(sys.stdin.buffer.read()).to_json())\n")
    data = b"\xff\xfe" + '<?xml version="1.0"?><a/>'.encode("utf-16-le")
    p = subprocess.run([sys.executable, "-c", prog], cwd=tmp_path,
                       env=dict(env, PYTHONPATH=str(site)), input=data,
                       stdout=subprocess.PIPE, check=True)
    where, got = p.stdout.decode().splitlines()
    assert where.startswith(str(site))
    import xmlsniff
    assert got == xmlsniff.check(data).to_json()
    assert (site / "xmlsniff" / "py.typed").exists()

"""Run a page module's code under Node from a test: an ES module's source (`script`) that
prints one JSON line, with `args` as process.argv[1:]. Skips the test where Node is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
import pytest

from helpers import ROOT


def run_module_script(script: str, *args: str, flags: tuple[str, ...] = ()) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    proc = subprocess.run([node, *flags, "--no-warnings", "--input-type=module", "-e", script, *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)

"""The engine's invariants and golden playthroughs inside Pyodide (WebAssembly) under Node."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # Pyodide under Node (half a minute)
def test_engine_checks_pass_inside_pyodide_under_node():
    node = shutil.which("node")
    assert node, "Node 20 is needed to run the engine inside Pyodide"
    assert (ROOT / "node_modules" / "pyodide").is_dir(), "run `npm ci` first: the pinned pyodide package is missing"
    # 5 random games per configuration inside Pyodide (CPython plays 60 of each in
    # tests/engine/test_engine_properties.py): what is checked here is the same engine there.
    run = subprocess.run([node, str(ROOT / "tests" / "pyodide" / "run_engine_checks.mjs"), "5"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "random games passed every invariant" in run.stdout
    assert "golden playthroughs match" in run.stdout

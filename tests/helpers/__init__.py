"""What the tests share besides fixtures (those are in tests/conftest.py): the checkout's
folders and the build. `helpers.browser` drives pages in Chromium, `helpers.table` the
table page through its hooks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"


def run_build(env: dict | None = None) -> subprocess.CompletedProcess:
    """`python build.py` as a user runs it; fails the test with its output on error."""
    proc = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"build.py failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc

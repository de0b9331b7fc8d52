"""What the tests share besides fixtures (those are in tests/conftest.py): the checkout's
folders and the build. `helpers.browser` drives pages in Chromium, `helpers.table` the
table page through its hooks."""

from __future__ import annotations

import contextlib
import fcntl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"


@contextlib.contextmanager
def dist_lock() -> Iterator[None]:
    """Hold dist/ alone: pytest-xdist's workers are separate sessions that each build dist/
    once, and a test that changes dist/ and builds again must not have a worker's build come
    in between."""
    path = ROOT / ".cache" / "dist.lock"
    path.parent.mkdir(exist_ok=True)
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def run_build(env: dict | None = None) -> subprocess.CompletedProcess:
    """`python build.py` as a user runs it; fails the test with its output on error."""
    proc = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"build.py failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc

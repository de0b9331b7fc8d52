"""What every job of the build shares: the repository's folders, the error, the log."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

# The checkout: this package lives in py/truco_tools/ (installed editable, never copied).
ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
# Overridable for the tests (a build from scratch into a temporary folder).
DIST = Path(os.environ.get("TRUCO_DIST_DIR") or ROOT / "dist")
CACHE = Path(os.environ.get("TRUCO_CACHE_DIR") or ROOT / ".cache")
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"


class BuildError(Exception):
    pass


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def log(msg: str) -> None:
    print(f"build: {msg}", flush=True)


def prune_cache(keep: Path, limit: int = 8) -> None:
    """Keep `keep` and the newest `limit - 1` other entries of its cache folder."""
    dirs = sorted((p for p in keep.parent.iterdir() if p.is_dir() and p != keep),
                  key=lambda p: p.stat().st_mtime, reverse=True)
    for old in dirs[limit - 1:]:
        shutil.rmtree(old, ignore_errors=True)

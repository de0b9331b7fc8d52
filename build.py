#!/usr/bin/env python3
"""Build the static site: site/ + py/ + the pinned Pyodide -> dist/.

Usage: ``python3 build.py`` (no arguments; TRUCO_DIST_DIR and TRUCO_CACHE_DIR override the
output folder and the cache folder). What it makes, and how, is py/truco_tools/ (one module
per job; the package's docstring lists them), installed editable with the engine by
``scripts/pydeps.py --install build`` (./play and ./run-tests run it).
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

try:
    from truco_tools import build, common
except ImportError:
    sys.exit("build: the tooling is not installed: run ./play, or `python3 scripts/pydeps.py --install build`")

if common.ROOT != HERE:
    # This Python's editable install is another checkout's (work trees sharing one .venv):
    # run again with this checkout's py/ first on the path, once.
    mine = str(HERE / "py")
    if os.environ.get("PYTHONPATH", "").split(os.pathsep)[0] == mine:
        sys.exit(f"build: truco_tools comes from {common.ROOT}, not from {mine}")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [mine, os.environ.get("PYTHONPATH")])))
    os.execve(sys.executable, [sys.executable, str(HERE / "build.py"), *sys.argv[1:]], env)

if __name__ == "__main__":
    sys.exit(build.main(sys.argv[1:]))

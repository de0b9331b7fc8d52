#!/usr/bin/env python3
"""Build the static site: site/ + py/ + the pinned Pyodide -> dist/.

Usage: ``python3 build.py`` (no arguments; TRUCO_DIST_DIR and TRUCO_CACHE_DIR override the
output folder and the cache folder). What it makes, and how, is py/truco_tools/ (one module
per job; the package's docstring lists them), installed editable with the engine by
``scripts/pydeps.py --install build`` (./play and ./run-tests run it).
"""

import sys
from pathlib import Path

try:
    from truco_tools import build, common
except ImportError:
    sys.exit("build: the tooling is not installed: run ./play, or `python3 scripts/pydeps.py --install build`")

if common.ROOT != Path(__file__).resolve().parent:
    # An editable install points at one checkout; a Python shared by several would build another.
    sys.exit(f"build: this Python's truco_tools is {common.ROOT}'s, not this checkout's: run "
             f"`python3 scripts/pydeps.py --install build` here (or set PYTHONPATH=py)")

if __name__ == "__main__":
    sys.exit(build.main(sys.argv[1:]))

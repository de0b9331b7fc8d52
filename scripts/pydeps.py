#!/usr/bin/env python3
"""Print (or install) the pinned Python tools that pyproject.toml lists as optional extras.

    python3 scripts/pydeps.py build test e2e            # one requirement a line
    python3 scripts/pydeps.py --install build           # pip install them (and this project,
                                                        # editable) into this Python

`--install` also installs this project editable (`pip install -e .`, no dependencies): py/ goes
on the Python's path, so `truco` (the engine) and `truco_tools` (build, lessons, the local
server) import from the checkout in build.py, scripts/, bench/ and the tests, with no sys.path
edits. build.py makes the browser's engine wheel itself.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def requirements(extras: list[str]) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = project.get("optional-dependencies", {})
    reqs: list[str] = []
    for extra in extras:
        if extra not in groups:
            raise SystemExit(f"pydeps: pyproject.toml has no extra {extra!r} (has {sorted(groups)})")
        reqs += [r for r in groups[extra] if r not in reqs]
    return reqs


def main(argv: list[str]) -> int:
    install = "--install" in argv
    extras = [a for a in argv if a != "--install"]
    if not extras:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    reqs = requirements(extras)
    if not install:
        print("\n".join(reqs))
        return 0
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--quiet", *reqs]
    print("pydeps: pip install " + " ".join(reqs), flush=True)
    code = subprocess.run(cmd).returncode
    if code:
        return code
    # hatchling (the `build` extra) is the build backend: once installed, no isolated
    # environment (and no download) is needed for it.
    have_backend = subprocess.run([sys.executable, "-c", "import hatchling"], capture_output=True).returncode == 0
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--quiet", "--no-deps",
           *(["--no-build-isolation"] if have_backend else []), "--editable", str(ROOT)]
    print(f"pydeps: pip install --editable {ROOT}", flush=True)
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

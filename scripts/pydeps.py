#!/usr/bin/env python3
"""Print (or install) the pinned Python tools that pyproject.toml lists as optional extras.

    python3 scripts/pydeps.py build test e2e            # one requirement a line
    python3 scripts/pydeps.py --install build           # pip install them into this Python

Only the tools are installed, not the truco package itself: build.py makes its wheel, and
the tests import it from py/ (pytest's pythonpath).
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
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

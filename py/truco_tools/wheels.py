"""The two wheels of dist/wheels/: micropip (from PyPI, the version pyodide-lock.json names,
checked against a vetted sha256) and the engine (py/truco, built with `python -m build` and
a fixed SOURCE_DATE_EPOCH, cached under a hash of its sources)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import CACHE, ROOT, BuildError, log, prune_cache, sha256

# sha256 of the micropip wheels on PyPI that we have checked (the one pyodide-lock.json
# names is a different build of the same version, hence loaded by URL, not by name).
MICROPIP_SHA256 = {
    "0.11.1": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
}


# A fixed timestamp for the wheel's zip entries (1980-01-02, the zip epoch + 1 day).
SOURCE_DATE_EPOCH = "315619200"


def micropip_wheel(lock: dict) -> Path:
    """The micropip wheel of the version pyodide-lock.json names, from PyPI (cached)."""
    entry = lock["packages"]["micropip"]
    version, file_name = entry["version"], entry["file_name"]
    cache_dir = CACHE / "micropip"
    wheel = cache_dir / file_name
    if not wheel.is_file():
        log(f"downloading {file_name} from the package index")
        started = time.perf_counter()
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
            cmd = [
                sys.executable, "-m", "pip", "download", f"micropip=={version}",
                "--no-deps", "--only-binary=:all:", "--python-version", lock["info"]["python"],
                "--disable-pip-version-check", "--quiet", "--dest", tmp,
            ]
            subprocess.run(cmd, check=True)
            got = Path(tmp) / file_name
            if not got.is_file():
                raise BuildError(f"pip download gave {os.listdir(tmp)}, expected {file_name}")
            os.replace(got, wheel)
        log(f"downloaded {file_name}, {time.perf_counter() - started:.1f}s")
    digest = sha256(wheel.read_bytes())
    expected = MICROPIP_SHA256.get(version)
    if expected is None:
        raise BuildError(
            f"micropip {version} is not vetted: check it, then add its sha256 {digest} "
            f"to MICROPIP_SHA256 in py/truco_tools/wheels.py"
        )
    if digest != expected:
        wheel.unlink()
        raise BuildError(f"{file_name}: sha256 {digest} is not the vetted {expected}")
    return wheel



def engine_sources() -> list[Path]:
    """Files that go into (or shape) the engine wheel: py/truco/, pyproject.toml, README, LICENSE
    (not this tooling, which the wheel leaves out)."""
    files = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted(ROOT.glob("LICENSE*"))]
    for path in sorted((ROOT / "py" / "truco").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append(path)
    return [f for f in files if f.is_file()]


def engine_wheel() -> Path:
    """Build the engine wheel with `python -m build`, cached by a hash of its sources."""
    from importlib.metadata import PackageNotFoundError, version as dist_version

    for tool in ("build", "hatchling"):
        try:
            dist_version(tool)
        except PackageNotFoundError:
            raise BuildError(f"{tool} is missing: install the build tools (see README)") from None
    key = hashlib.sha256()
    key.update(f"build {dist_version('build')} hatchling {dist_version('hatchling')}\n".encode())
    key.update(f"SOURCE_DATE_EPOCH {SOURCE_DATE_EPOCH}\n".encode())
    for path in engine_sources():
        key.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        key.update(sha256(path.read_bytes()).encode())
        # The wheel records each file's mode, normalized by hatchling to 644 or 755.
        key.update(b" 755\n" if path.stat().st_mode & 0o100 else b" 644\n")
    cache_dir = CACHE / "engine" / key.hexdigest()[:32]
    wheels = sorted(cache_dir.glob("*.whl")) if cache_dir.is_dir() else []
    if len(wheels) == 1:
        return wheels[0]
    log("building the engine wheel (python -m build --wheel)")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PYTHONHASHSEED="0")
        cmd = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", tmp, str(ROOT)]
        # cwd elsewhere: `python -m build` run from the checkout would find build.py, not PyPA's.
        proc = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout + proc.stderr)
            raise BuildError("building the engine wheel failed")
        built = sorted(Path(tmp).glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"expected one wheel, got {built}")
        cache_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], cache_dir / built[0].name)
    log(f"engine wheel: {built[0].name}, {time.perf_counter() - started:.1f}s")
    prune_cache(keep=cache_dir)
    return cache_dir / built[0].name



def engine_version() -> str:
    text = (ROOT / "py" / "truco" / "__init__.py").read_text()
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.M)
    if not match:
        raise BuildError("py/truco/__init__.py has no __version__")
    return match.group(1)

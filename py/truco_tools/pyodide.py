"""The pinned Pyodide (npm package `pyodide`, exact version in package.json), vendored into
dist/pyodide/: only the files the app loads, with the loader's CDN default removed."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from .common import PYODIDE_NPM, ROOT, BuildError
if TYPE_CHECKING:
    from .output import Output

# The Pyodide files the app needs at run time (checked against 314.0.7: the ES module
# loader, the Emscripten module, the WebAssembly binary, the standard library and the
# package lock that loadPyodide() fetches). Source maps, the CommonJS loader, typings and
# the demo consoles are left out.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def pinned_pyodide_version() -> str:
    pkg = json.loads((ROOT / "package.json").read_text())
    version = pkg.get("dependencies", {}).get("pyodide")
    if not version or not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise BuildError(f"package.json must pin pyodide to an exact version, found {version!r}")
    return version


def check_pyodide_installed(version: str) -> None:
    meta = PYODIDE_NPM / "package.json"
    if not meta.is_file():
        raise BuildError("node_modules/pyodide is missing: run `npm ci` first")
    installed = json.loads(meta.read_text())["version"]
    if installed != version:
        raise BuildError(
            f"node_modules has pyodide {installed} but package.json pins {version}: run `npm ci`"
        )


# Pyodide's loader names the jsDelivr CDN as the default `cdnUrl`, which only Node uses (to
# download packages missing from a package cache). The browser takes packages from
# `packageBaseUrl`, which defaults to the lock file's folder: our own dist/pyodide/. We
# replace the literal so that no file in dist/ names another origin.
_CDN_LITERAL = re.compile(r"`https://cdn\.jsdelivr\.net/pyodide/v\$\{\w+\}/full/`")
_SOURCE_MAP = re.compile(rb"\n//# sourceMappingURL=[^\n]*\n?$")


def patch_pyodide_loader(text: str) -> str:
    text, count = _CDN_LITERAL.subn('"./"', text)
    if count != 1:
        raise BuildError(f"expected one CDN URL literal in pyodide.mjs, found {count}")
    return text


def add_pyodide(out: Output, version: str) -> dict:
    for name in PYODIDE_FILES:
        src = PYODIDE_NPM / name
        if not src.is_file():
            raise BuildError(f"pyodide {version} has no {name}")
        if name.endswith((".mjs", ".js")):
            data = src.read_bytes()
            # The .map files are not shipped, so drop the comments that point at them.
            data = _SOURCE_MAP.sub(b"\n", data)
            if name == "pyodide.mjs":
                data = patch_pyodide_loader(data.decode("utf-8")).encode("utf-8")
            out.add_bytes(f"pyodide/{name}", data)
        else:
            out.add_file(f"pyodide/{name}", src)
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    return lock

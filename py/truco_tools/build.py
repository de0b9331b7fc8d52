"""Build the static site (run by the top-level build.py): site/ + py/ + the pinned Pyodide -> dist/.

Usage: ``python3 build.py`` (no arguments; TRUCO_DIST_DIR and TRUCO_CACHE_DIR override the
output folder and the cache folder).

What lands in dist/ (and nothing else; stale files are removed):

- ``*.html``                 pages rendered from site/templates/ (Jinja; ``_*.html`` are layouts),
                             in Portuguese; ``es/*.html`` and ``en/*.html`` the same pages in
                             Spanish and English (texts from site/i18n/<lang>.json, lessons
                             from site/tutorial/<lang>/)
- ``static/``                site/static/ as is (CSS, JS modules, icons)
- ``static/js/build_info.js`` generated: file names the worker needs (wheels, Pyodide dir)
- ``static/js/shared/names.js`` generated: the engine's level and signal names (truco/names.py)
- ``pyodide/``               only the Pyodide files the app loads, from node_modules/pyodide
- ``wheels/``                the micropip wheel (PyPI) and the engine wheel (built from py/)
- ``snapshot/``              the snapshot path's files, xz-compressed by the build: a Pyodide
                             memory snapshot with the engine imported (made under Node by
                             scripts/make_snapshot.mjs) and Pyodide's WebAssembly with the data
                             that the snapshot restores blanked out; the worker starts from them
- ``static/js/vendor/``      the xz decoder (xz-decompress, from node_modules, pinned), and the
                             QR code encoder and decoder of the friends' screen (qrcode-generator,
                             jsqr; see vendor.py), loaded only when that screen opens
- ``manifest.webmanifest``  generated: the web app manifest (name, icons, colours), so the
                             game can be installed; icons from site/icons.json (one per
                             language: es/ and en/ have theirs)
- ``sw.js``                  generated from site/sw.js: the service worker, with every file
                             of the build, its sha256 and its precache group (offline play,
                             clean updates; see precache_group())
- ``manifest.json``          every other file with its size and sha256

The output is byte-identical on re-runs: files are rendered deterministically, the engine
wheel is built with a fixed SOURCE_DATE_EPOCH, and a file whose bytes did not change is not
rewritten. The engine wheel is cached in .cache/ under a hash of its sources, the snapshot
under a hash of its inputs (Pyodide's files, the engine wheel, the snapshot script, Node's
major version), and the micropip wheel is downloaded once (``pip download``) into .cache/.
The snapshot is itself reproducible (the same inputs give the same bytes), so the cache only
saves time.
"""

from __future__ import annotations

import subprocess
import sys
import time

from truco.names import LEVELS

from .budget import first_visit
from .common import DIST, PYODIDE_NPM, BuildError, log, sha256
from .output import Output, build_info_module, check_no_other_origin, manifest, names_module
from .openings import openings_json
from .pages import LANGUAGES, add_static, render_pages, site_url
from .preload import add_module_preloads
from .pwa import APP, checked_icons, service_worker, web_manifest
from .pyodide import add_pyodide, check_pyodide_installed, pinned_pyodide_version
from .snapshot import (SNAPSHOT_DATA_SECTION, SNAPSHOT_FILE, SNAPSHOT_LOADER_FILE, SNAPSHOT_WASM_FILE, XZ_DECODER_FILE,
                       loader_xz, memory_snapshot, snapshot_wasm_xz, xz_decoder_module)
from .strip import strip_static
from .vendor import add_qr_libraries
from .wheels import engine_version, engine_wheel, micropip_wheel

NAMES_FILE = "static/js/shared/names.js"

def build() -> None:
    started = time.perf_counter()
    out = Output(DIST)
    version = pinned_pyodide_version()
    check_pyodide_installed(version)
    lock = add_pyodide(out, version)

    mp = micropip_wheel(lock)
    out.add_file(f"wheels/{mp.name}", mp)
    engine = engine_wheel()
    out.add_file(f"wheels/{engine.name}", engine)
    snapshot, snapshot_info = memory_snapshot(version, engine)
    out.add_bytes(SNAPSHOT_FILE, snapshot)
    wasm_xz, wasm_info = snapshot_wasm_xz(snapshot, snapshot_info)
    snapshot_info = dict(snapshot_info, wasm=wasm_info)
    out.add_bytes(SNAPSHOT_WASM_FILE, wasm_xz)
    loader, loader_info = loader_xz(out.data("pyodide/pyodide.asm.mjs"))
    out.add_bytes(SNAPSHOT_LOADER_FILE, loader)
    decoder, _decoder_version = xz_decoder_module()
    out.add_bytes(XZ_DECODER_FILE, decoder)
    add_qr_libraries(out)

    add_static(out)
    info = {
        "pyodideVersion": version,
        "pythonVersion": lock["info"]["python"],
        "indexURL": "pyodide/",
        "micropipWheel": f"wheels/{mp.name}",
        "engineWheel": f"wheels/{engine.name}",
        "engineWheelSha256": sha256(engine.read_bytes()),
        "engineVersion": engine_version(),
        # The worker checks the downloads against these before using them: the sha256 of
        # the xz files, their size (for the progress bar) and the decoded size.
        "snapshot": SNAPSHOT_FILE,
        "snapshotSha256": snapshot_info["xzSha256"],
        "snapshotXzSize": len(snapshot),
        "snapshotSize": snapshot_info["size"],
        "snapshotWasm": SNAPSHOT_WASM_FILE,
        "snapshotWasmSha256": wasm_info["xzSha256"],
        "snapshotWasmXzSize": wasm_info["xzSize"],
        "snapshotWasmSize": wasm_info["size"],
        "snapshotDataSection": SNAPSHOT_DATA_SECTION,
        "snapshotLoader": SNAPSHOT_LOADER_FILE,
        "snapshotLoaderSha256": loader_info["xzSha256"],
        "snapshotLoaderXzSize": loader_info["xzSize"],
        "snapshotLoaderSize": loader_info["size"],
        # The stock WebAssembly and standard library (the wheel path), for the progress bar.
        "wasmSize": (PYODIDE_NPM / "pyodide.asm.wasm").stat().st_size,
        "stdlibSize": (PYODIDE_NPM / "python_stdlib.zip").stat().st_size,
        # The lock file's `info` (the snapshot path loads no package: it passes this
        # instead of downloading the lock file).
        "lockInfo": lock["info"],
    }
    if "static/js/build_info.js" in out.files:
        raise BuildError("site/static/js/build_info.js is generated; remove it from site/")
    out.add_bytes("static/js/build_info.js", build_info_module(info))
    if NAMES_FILE in out.files:
        raise BuildError(f"site/{NAMES_FILE} is generated; remove it from site/")
    out.add_bytes(NAMES_FILE, names_module())
    icons = checked_icons()
    for lang, folder in LANGUAGES.items():
        out.add_bytes(folder + "manifest.webmanifest", web_manifest(icons, lang))
    strip_static(out)
    render_pages(out, {"build": info, "app": APP, "levels": list(LEVELS), "openings_json": openings_json()})
    add_module_preloads(out)
    out.add_bytes("sw.js", service_worker(out))
    check_no_other_origin(out, own=site_url())
    visit = first_visit(out)
    out.add_bytes("manifest.json", manifest(out, snapshot_info, visit))
    written, removed = out.write()
    elapsed = time.perf_counter() - started
    log(f"dist/: {len(out.files)} files, {written} written, {removed} removed, {elapsed:.2f}s")


def main(argv: list[str]) -> int:
    if argv:
        print("usage: python3 build.py  (no arguments; see its docstring)", file=sys.stderr)
        return 2
    try:
        build()
    except (BuildError, subprocess.CalledProcessError) as exc:
        print(f"build: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

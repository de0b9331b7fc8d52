"""The QR code libraries (issue 31: the friends' table handshake), vendored from node_modules
into dist/static/js/vendor/ as ES modules, each pinned to an exact version in package.json:

- ``qrcode-generator`` (MIT): the encoder; its package ships an ES module (dist/qrcode.mjs),
  copied with a header line.
- ``jsqr`` (Apache-2.0): the decoder where the browser has no BarcodeDetector; its package
  ships only a UMD bundle, run here inside an ES module that exports its function.

Nothing on the table's first visit imports them: site/static/js/friends/qr.js does, and it is
imported only when the player opens the friends' screen (see docs/architecture.md)."""

from __future__ import annotations

import json
import re

from .common import ROOT, BuildError
from .output import Output
from .pyodide import _SOURCE_MAP

QR_ENCODER_FILE = "static/js/vendor/qrcode-generator.js"
QR_DECODER_FILE = "static/js/vendor/jsqr.js"
_XML_NAMESPACE = "http://www.w3.org/2000/svg"


def _pinned_package(name: str) -> dict:
    """node_modules/<name>/package.json, checked against the exact pin of package.json."""
    pinned = json.loads((ROOT / "package.json").read_text()).get("dependencies", {}).get(name)
    if not pinned or not re.fullmatch(r"\d+\.\d+\.\d+", pinned):
        raise BuildError(f"package.json must pin {name} to an exact version, found {pinned!r}")
    meta = ROOT / "node_modules" / name / "package.json"
    if not meta.is_file():
        raise BuildError(f"node_modules/{name} is missing: run `npm ci` first")
    installed = json.loads(meta.read_text())
    if installed["version"] != pinned:
        raise BuildError(f"node_modules has {name} {installed['version']} but package.json pins {pinned}: run `npm ci`")
    return installed


def _source(name: str, rel: str) -> str:
    """A file of the package without its source map comment, and with the scheme taken off
    the web addresses in its comments (no file of dist/ names another origin; the SVG
    namespace, which is a name and never fetched, stays)."""
    text = (ROOT / "node_modules" / name / rel).read_text(encoding="utf-8")
    text = _SOURCE_MAP.sub(b"\n", text.encode()).decode().strip()
    return re.sub(r"https?://(?!www\.w3\.org/2000/svg\b)", "", text)


def qr_encoder_module() -> bytes:
    meta = _pinned_package("qrcode-generator")
    return (f"// qrcode-generator {meta['version']} (npm; {meta['license']}; github.com/kazuhikoarase/qrcode-generator)\n"
            + _source("qrcode-generator", "dist/qrcode.mjs") + "\n").encode("utf-8")


def qr_decoder_module() -> bytes:
    meta = _pinned_package("jsqr")
    # The UMD bundle sees CommonJS's `module` and `exports` and sets module.exports to its
    # function; nothing else of the page is touched.
    return (
        f"// jsQR {meta['version']} (npm; {meta['license']}; github.com/cozmo/jsQR)\n"
        "// wrapped by build.py as an ES module: the UMD bundle runs with a local `module`.\n"
        "const module = { exports: {} };\n"
        "const exports = module.exports;\n"
        + _source("jsqr", "dist/jsQR.js") + "\n"
        "export default module.exports;\n"
    ).encode("utf-8")


def add_qr_libraries(out: Output) -> dict[str, int]:
    """Adds both modules to the build; returns their sizes in bytes (for the log)."""
    sizes = {}
    for rel, data in ((QR_ENCODER_FILE, qr_encoder_module()), (QR_DECODER_FILE, qr_decoder_module())):
        out.add_bytes(rel, data)
        sizes[rel] = len(data)
    return sizes

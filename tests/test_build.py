"""The build output: self-contained, complete, described by its manifest, reproducible."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import ROOT, run_build

TEXT_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".webmanifest", ".xml", ".map"}
XML_NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", "http://www.w3.org/1999/xhtml"}
PYODIDE_FILES = {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}


def dist_files(dist: Path) -> dict[str, bytes]:
    return {p.relative_to(dist).as_posix(): p.read_bytes() for p in sorted(dist.rglob("*")) if p.is_file()}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- references --------------------------------------------------------------------------

class RefParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "poster", "data") and value:
                self.refs.append(value)
            elif name == "srcset" and value:
                self.refs += [part.strip().split()[0] for part in value.split(",") if part.strip()]


JS_REFS = [
    re.compile(r"""\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?["']([^"']+)["']"""),
    re.compile(r"""\bexport\s+[\w*{}\s,]+\s+from\s+["']([^"']+)["']"""),
    re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)"""),
    re.compile(r"""new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)"""),
]
CSS_REFS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


def local_target(dist: Path, referrer: str, ref: str) -> Path | None:
    """The dist/ file a same-origin reference points at (None for fragments, data: etc.)."""
    parts = urlsplit(ref)
    if parts.scheme in ("data", "blob", "mailto", "javascript") or ref.startswith("#"):
        return None
    assert not parts.scheme and not parts.netloc, f"{referrer} refers to another origin: {ref}"
    base = (dist / referrer).parent
    path = (dist / parts.path.lstrip("/")) if parts.path.startswith("/") else (base / parts.path)
    if parts.path.endswith("/") or parts.path == "":
        path = path / "index.html"
    return path.resolve()


def test_pages_reference_only_files_that_exist(dist_dir):
    files = dist_files(dist_dir)
    checked = 0
    for rel, data in files.items():
        suffix = Path(rel).suffix
        if suffix == ".html":
            parser = RefParser()
            parser.feed(data.decode("utf-8"))
            refs = parser.refs
        elif suffix in (".js", ".mjs") and rel.startswith("static/"):
            text = data.decode("utf-8")
            refs = [m.group(1) for pattern in JS_REFS for m in pattern.finditer(text)]
        elif suffix == ".css":
            refs = CSS_REFS.findall(data.decode("utf-8"))
        else:
            continue
        for ref in refs:
            target = local_target(dist_dir, rel, ref)
            if target is not None:
                assert target.is_file(), f"{rel} refers to {ref}, which is not in dist/"
                checked += 1
    assert checked >= 6, "expected the pages and modules to refer to their assets"


def test_worker_finds_every_file_the_build_info_names(dist_dir):
    text = (dist_dir / "static/js/build_info.js").read_text()
    info = json.loads(text[text.index("{"):text.rindex("}") + 1])
    for key in ("micropipWheel", "engineWheel"):
        assert (dist_dir / info[key]).is_file(), f"build_info.{key} = {info[key]} is missing"
    index = dist_dir / info["indexURL"]
    assert {p.name for p in index.iterdir()} == PYODIDE_FILES
    # The worker starts Pyodide before build_info.js arrives, so it names the folder too.
    worker = (dist_dir / "static/js/worker.js").read_text()
    assert f'const PYODIDE_DIR = "{info["indexURL"]}";' in worker
    engine = (dist_dir / info["engineWheel"]).read_bytes()
    assert sha256(engine) == info["engineWheelSha256"]


def test_only_the_needed_pyodide_files_are_shipped(dist_dir):
    shipped = {p.name for p in (dist_dir / "pyodide").iterdir()}
    assert shipped == PYODIDE_FILES
    npm = ROOT / "node_modules" / "pyodide"
    assert json.loads((npm / "package.json").read_text())["version"] == \
        json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "pyodide.asm.mjs"):
        assert (dist_dir / "pyodide" / name).read_bytes() == (npm / name).read_bytes(), name


def test_wheels_are_the_engine_and_the_locked_micropip_version(dist_dir):
    lock = json.loads((dist_dir / "pyodide" / "pyodide-lock.json").read_text())
    micropip = lock["packages"]["micropip"]["file_name"]
    wheels = sorted(p.name for p in (dist_dir / "wheels").iterdir())
    version = re.search(r'__version__ = "([^"]+)"', (ROOT / "py/truco/__init__.py").read_text()).group(1)
    assert wheels == sorted([micropip, f"truco-{version}-py3-none-any.whl"])
    with zipfile.ZipFile(dist_dir / "wheels" / f"truco-{version}-py3-none-any.whl") as whl:
        names = whl.namelist()
    sources = sorted(p.relative_to(ROOT / "py").as_posix() for p in (ROOT / "py/truco").rglob("*.py"))
    assert sorted(n for n in names if n.endswith(".py")) == sources
    assert "truco/api.py" in names


# --- no other origin ---------------------------------------------------------------------

URL = re.compile(r"""(?:https?|wss?|ftp)://[^\s"'`<>()\\]*""", re.I)
PROTOCOL_RELATIVE = re.compile(r"""(?:src|href|action|srcset)\s*=\s*["']?//""", re.I)


def test_no_file_names_another_origin(dist_dir):
    offenders = []
    for rel, data in dist_files(dist_dir).items():
        if Path(rel).suffix not in TEXT_SUFFIXES:
            continue
        text = data.decode("utf-8", errors="replace")
        for m in URL.finditer(text):
            url = m.group(0)
            if url in XML_NAMESPACES or not re.match(r"[a-z]+://[A-Za-z0-9\[]", url, re.I):
                continue  # a namespace name, or a scheme prefix such as "ws://" + variable
            offenders.append(f"{rel}: {url}")
        offenders += [f"{rel}: {m.group(0)}" for m in PROTOCOL_RELATIVE.finditer(text)]
    assert not offenders, "dist/ names other origins:\n  " + "\n  ".join(offenders)


def test_pyodide_is_loaded_from_our_folder(dist_dir):
    worker = (dist_dir / "static/js/worker.js").read_text()
    assert "loadPyodide({" in worker and "indexURL" in worker and "packageBaseUrl: indexURL" in worker
    assert "cdn.jsdelivr" not in (dist_dir / "pyodide/pyodide.mjs").read_text()


# --- manifest and reproducibility ----------------------------------------------------------

def test_manifest_lists_every_file_with_its_hash(dist_dir):
    manifest = json.loads((dist_dir / "manifest.json").read_text())
    files = dist_files(dist_dir)
    assert set(manifest["files"]) == set(files) - {"manifest.json"}
    for rel, entry in manifest["files"].items():
        assert entry == {"sha256": sha256(files[rel]), "size": len(files[rel])}, rel
    assert re.fullmatch(r"[0-9a-f]{16}", manifest["build"])


def test_second_build_is_byte_identical(dist_dir):
    before = {rel: sha256(data) for rel, data in dist_files(dist_dir).items()}
    proc = run_build()
    assert " 0 written, 0 removed" in proc.stdout, proc.stdout
    after = {rel: sha256(data) for rel, data in dist_files(dist_dir).items()}
    assert after == before


def test_build_from_scratch_is_byte_identical(dist_dir, tmp_path):
    """An empty output folder and an empty engine-wheel cache give the same bytes."""
    cache = tmp_path / "cache"
    shutil.copytree(ROOT / ".cache" / "micropip", cache / "micropip")  # no network needed
    env = dict(os.environ, TRUCO_DIST_DIR=str(tmp_path / "dist"), TRUCO_CACHE_DIR=str(cache))
    proc = run_build(env)
    assert "building the engine wheel" in proc.stdout
    fresh = {rel: sha256(data) for rel, data in dist_files(tmp_path / "dist").items()}
    assert fresh == {rel: sha256(data) for rel, data in dist_files(dist_dir).items()}


def test_stale_files_are_removed(dist_dir):
    stray = dist_dir / "static" / "stray.txt"
    stray.write_text("left over from an older build")
    proc = run_build()
    assert not stray.exists()
    assert "1 removed" in proc.stdout

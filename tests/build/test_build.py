"""The build output: self-contained, complete, described by its manifest, reproducible."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import os
import re
import shutil
import struct
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from helpers import ROOT, dist_lock, run_build
from truco_tools.pyodide import pinned_pyodide_version

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
    worker = (dist_dir / "static/js/engine/worker.js").read_text()
    assert f'const PYODIDE_DIR = "{info["indexURL"]}";' in worker
    engine = (dist_dir / info["engineWheel"]).read_bytes()
    assert sha256(engine) == info["engineWheelSha256"]
    # The snapshot path's files, with the sizes the progress bar and the checks use.
    for key in ("snapshot", "snapshotWasm"):
        data = (dist_dir / info[key]).read_bytes()
        assert sha256(data) == info[key + "Sha256"] and len(data) == info[key + "XzSize"], key
        assert f'"{info[key]}";' in worker, f"the worker names {info[key]} to start its download at once"
    assert info["wasmSize"] == (index / "pyodide.asm.wasm").stat().st_size
    assert info["stdlibSize"] == (index / "python_stdlib.zip").stat().st_size
    lock = json.loads((index / "pyodide-lock.json").read_text())
    assert info["lockInfo"] == lock["info"]


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
    # Every module of the engine but its command line (it runs from py/); the research
    # (py/truco_lab) and the tooling (py/truco_tools) are other packages, not in the wheel.
    tools = {"truco/__main__.py"}
    sources = sorted(p.relative_to(ROOT / "py").as_posix() for p in (ROOT / "py/truco").rglob("*.py"))
    assert tools <= set(sources)
    assert sorted(n for n in names if n.endswith(".py")) == sorted(set(sources) - tools)
    assert "truco/api.py" in names
    assert not any(n.startswith(("truco_lab/", "truco_tools/")) for n in names)
    for size in ("1x1", "2x2", "2x2_sinais"):  # package data: difícil's betting tables
        assert f"truco/bots/data/betting_{size}.json" in names


# --- memory snapshot -----------------------------------------------------------------------

def build_info(dist: Path) -> dict:
    text = (dist / "static/js/build_info.js").read_text()
    return json.loads(text[text.index("{"):text.rindex("}") + 1])


def engine_modules() -> list[str]:
    """Every module of the truco package that the wheel ships, by its dotted name."""
    names = []
    for path in sorted((ROOT / "py/truco").rglob("*.py")):
        if path.name == "__main__.py" and path.parent.name == "truco":
            continue
        parts = list(path.relative_to(ROOT / "py").with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return sorted(names)


def test_snapshot_is_shipped_listed_and_checkable(dist_dir):
    info = build_info(dist_dir)
    manifest = json.loads((dist_dir / "manifest.json").read_text())
    rel = info["snapshot"]
    assert rel == manifest["snapshot"]["file"] == "snapshot/engine.snapshot.xz"
    assert rel in manifest["files"], "the manifest (and so the service worker) lists the snapshot"
    # The worker starts its download before build_info.js arrives, so it names the file too.
    worker = (dist_dir / "static/js/engine/worker.js").read_text()
    assert f'const SNAPSHOT_FILE = "{rel}";' in worker
    packed = (dist_dir / rel).read_bytes()
    assert sha256(packed) == info["snapshotSha256"] == manifest["files"][rel]["sha256"]
    raw = xz_decompress(packed)
    assert len(raw) == info["snapshotSize"] == manifest["snapshot"]["size"]
    assert sha256(raw) == manifest["snapshot"]["sha256"]
    assert len(packed) < len(raw) / 5
    # Pyodide's snapshot header: its magic number, then the build id it will insist on,
    # which must be that of the Pyodide shipped next to it.
    assert struct.unpack("<I", raw[:4])[0] == 0x706E7300
    build_id = "".join(f"{w:08x}" for w in struct.unpack("<8I", raw[16:48]))
    loader = (dist_dir / "pyodide/pyodide.mjs").read_text()
    assert f'BUILD_ID:"{build_id}"' in loader
    assert manifest["snapshot"]["pyodide"] == info["pyodideVersion"]
    assert manifest["snapshot"]["reproducible"] is True
    # Not where the repository is checked out: the bytes would differ from one checkout to
    # another (Node's argv[1] would be sys.executable).
    assert str(ROOT).encode() not in raw


def xz_decompress(packed: bytes) -> bytes:
    """An .xz file's bytes, checked to be what the worker's decoder (xz-embedded) reads:
    one stream, CRC32 checks, a dictionary of at most 32 MiB."""
    import lzma

    assert packed[:6] == b"\xfd7zXZ\x00"
    assert packed[7] == lzma.CHECK_CRC32, "xz-embedded checks CRC32 (CRC64 is optional in it)"
    return lzma.decompress(packed, format=lzma.FORMAT_XZ, memlimit=40 << 20)


def memory_image(wasm: bytes, segments) -> bytearray:
    """The linear memory a module starts with: its data segments over zeros."""
    image = bytearray(max(address + length for address, _, length in segments))
    for address, at, length in segments:
        image[address:address + length] = wasm[at:at + length]
    return image


def test_snapshot_wasm_starts_with_the_stock_memory(dist_dir):
    """The snapshot path's WebAssembly is Pyodide's, but for data segments zeroed; the
    worker fills the ranges its custom section lists from the snapshot before anything runs.
    Done here the same way, the memory is byte for byte the stock module's, and the code,
    the imports and the exports are untouched."""
    build = load_build_module("snapshot")
    info = build_info(dist_dir)
    stock = (ROOT / "node_modules/pyodide/pyodide.asm.wasm").read_bytes()
    wasm = xz_decompress((dist_dir / info["snapshotWasm"]).read_bytes())
    assert len(wasm) == info["snapshotWasmSize"]
    snapshot = xz_decompress((dist_dir / info["snapshot"]).read_bytes())
    # The same module up to the end of the stock file, data bytes aside, plus one custom section.
    segments = build.wasm_data_segments(stock)
    assert build.wasm_data_segments(wasm[:len(stock)]) == segments
    blanked = bytearray(stock)
    for _, at, length in segments:
        blanked[at:at + length] = bytes(length)
    trimmed = bytearray(wasm[:len(stock)])
    for _, at, length in segments:
        trimmed[at:at + length] = bytes(length)
    assert trimmed == blanked
    name = info["snapshotDataSection"].encode()
    tail = wasm[len(stock):]
    assert tail[0] == 0 and name in tail[:64]
    zeroed = sum(1 for _, at, length in segments if not any(wasm[at:at + length]) and any(stock[at:at + length]))
    assert zeroed > len(segments) * 0.9, "most data comes from the snapshot"
    # The worker's fill (fillFromSnapshot in worker_snapshot.js), in Python.
    body = tail[tail.index(name) + len(name):]
    at = 0

    def leb():
        nonlocal at
        value, at = build._leb(body, at)
        return value
    memory_start = struct.unpack_from("<2I", snapshot)[1]
    image = memory_image(wasm, segments)
    end = 0
    for _ in range(leb()):
        address = end + leb()
        length = leb()
        image[address:address + length] = snapshot[memory_start + address:memory_start + address + length]
        end = address + length
    assert at == len(body)
    assert image == memory_image(stock, segments)


def test_the_xz_decoder_is_the_pinned_package_as_a_module(dist_dir):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["xz-decompress"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned)
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/xz-decompress"]["version"] == pinned
    text = (dist_dir / "static/js/vendor/xz-decompress.js").read_text()
    assert text.startswith(f"// xz-decompress {pinned} (npm; MIT;")
    assert "export function makeXzReadableStream()" in text
    assert "eval(" not in text and "new Function" not in text and "importScripts" not in text
    worker = (dist_dir / "static/js/engine/worker.js").read_text()
    assert 'const DECODER = "../vendor/xz-decompress.js";' in worker


def test_first_visit_fits_the_budget_and_the_check_fails_past_it(dist_dir):
    build = load_build_module("budget")
    manifest = json.loads((dist_dir / "manifest.json").read_text())
    visit = manifest["firstVisit"]
    files = set(visit["files"])
    # The table, its styles and modules, the worker and its modules (worker_wheel.js too: the
    # worker loads all its code at once) and what the snapshot path downloads; no file of the
    # wheel path.
    assert {"index.html", "static/js/table/main.js", "static/js/engine/worker.js", "static/js/build_info.js",
            "static/js/engine/worker_start.js", "static/js/engine/worker_snapshot.js",
            "static/js/engine/worker_xz.js", "static/js/engine/worker_wheel.js",
            "static/js/vendor/xz-decompress.js", "static/css/table.css", "pyodide/pyodide.mjs",
            "snapshot/pyodide.asm.mjs.xz", "snapshot/pyodide.asm.wasm.xz", "snapshot/engine.snapshot.xz"} <= files
    assert not files & {"pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
                        "pyodide/pyodide-lock.json"}
    assert not any(rel.startswith("wheels/") for rel in files)
    assert visit["bytes"] == sum(manifest["files"][rel]["size"] for rel in files)
    assert visit["bytes"] <= visit["budget"] == 7_000_000
    out = build.Output(dist_dir)
    for rel in manifest["files"]:
        out.add_file(rel, dist_dir / rel)
    assert build.first_visit(out)["bytes"] == visit["bytes"]
    with pytest.raises(build.BuildError, match="over the budget of 6,000,000"):
        build.first_visit(out, budget=6_000_000)


def test_a_retry_downloads_again_every_script_the_worker_imports(dist_dir):
    """engine_boot.js's WORKER_MODULES, the scripts a retry downloads again past the HTTP cache
    before it starts a new worker, are the modules worker.js imports, Pyodide's two loader
    modules among them: one left out could stay cut short in the cache through every retry."""
    build = load_build_module("budget")
    manifest = json.loads((dist_dir / "manifest.json").read_text())
    out = build.Output(dist_dir)
    for rel in manifest["files"]:
        out.add_file(rel, dist_dir / rel)
    imported = {rel for rel in build.page_files(out, "static/js/engine/worker.js") if rel.endswith((".js", ".mjs"))}
    imported |= {rel for rel in build.SNAPSHOT_PATH_FILES if rel.endswith((".js", ".mjs"))}
    imported |= {"pyodide/pyodide.asm.mjs"}  # the wheel path's (imported by a variable's name)
    boot = (dist_dir / "static/js/engine/engine_boot.js").read_text()
    listed = re.search(r"WORKER_MODULES = Object\.freeze\(\[(.*?)\]\)", boot, re.S).group(1)
    refreshed = {os.path.normpath(os.path.join("static/js/engine", rel)) for rel in re.findall(r'"([^"]+)"', listed)}
    assert refreshed == imported - {"static/js/engine/worker.js"}


def test_snapshot_holds_every_engine_module(dist_dir):
    """A module left out of the snapshot could not be imported after a restore."""
    manifest = json.loads((dist_dir / "manifest.json").read_text())
    assert manifest["snapshot"]["modules"] == engine_modules()
    assert {"truco.api", "truco.bots", "truco.bots.player", "truco.signals"} <= set(engine_modules())


def load_build_module(name: str):
    """A fresh copy of one of the build's modules (py/truco_tools/NAME.py): a test may change
    its globals."""
    spec = importlib.util.find_spec(f"truco_tools.{name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_snapshot_cache_key_follows_its_inputs(dist_dir, tmp_path):
    build = load_build_module("snapshot")
    version = pinned_pyodide_version()
    wheel = next((dist_dir / "wheels").glob("truco-*.whl"))
    key = build.snapshot_key(version, wheel)
    assert build.snapshot_key(version, wheel) == key
    other = tmp_path / wheel.name
    other.write_bytes(wheel.read_bytes() + b"\0")
    assert build.snapshot_key(version, other) != key
    script = tmp_path / "make_snapshot.mjs"
    script.write_text(build.SNAPSHOT_SCRIPT.read_text() + "\n// changed\n")
    build.SNAPSHOT_SCRIPT = script
    assert build.snapshot_key(version, wheel) != key
    assert build.snapshot_key("0.0.1", wheel) != key
    # The manifest records the key of the snapshot it ships.
    manifest = json.loads((dist_dir / "manifest.json").read_text())
    assert manifest["snapshot"]["key"] == key[:32]


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
    # Both paths (worker_snapshot.js, worker_wheel.js) call loadPyodide() with our folder.
    for name in ("worker_snapshot.js", "worker_wheel.js"):
        module = (dist_dir / "static/js/engine" / name).read_text()
        assert "loadPyodide({" in module and "indexURL" in module and "packageBaseUrl: indexURL" in module, name
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
    with dist_lock():
        before = {rel: sha256(data) for rel, data in dist_files(dist_dir).items()}
        proc = run_build()
        after = {rel: sha256(data) for rel, data in dist_files(dist_dir).items()}
    assert " 0 written, 0 removed" in proc.stdout, proc.stdout
    assert after == before


@pytest.mark.soak  # test_second_build_is_byte_identical checks the same in the CI tier, from the cache
@pytest.mark.slow  # makes the snapshot again under Node (about a minute)
def test_build_from_scratch_is_byte_identical(dist_dir, tmp_path):
    """An empty output folder and empty caches (engine wheel, snapshot) give the same bytes."""
    cache = tmp_path / "cache"
    shutil.copytree(ROOT / ".cache" / "micropip", cache / "micropip")  # no network needed
    env = dict(os.environ, TRUCO_DIST_DIR=str(tmp_path / "dist"), TRUCO_CACHE_DIR=str(cache))
    proc = run_build(env)
    assert "building the engine wheel" in proc.stdout
    # The memory snapshot is made again too, and comes out byte for byte the same.
    assert "making the Pyodide memory snapshot" in proc.stdout
    fresh = {rel: sha256(data) for rel, data in dist_files(tmp_path / "dist").items()}
    assert fresh == {rel: sha256(data) for rel, data in dist_files(dist_dir).items()}


def test_stale_files_are_removed(dist_dir):
    stray = dist_dir / "static" / "stray.txt"
    with dist_lock():
        stray.write_text("left over from an older build")
        proc = run_build()
    assert not stray.exists()
    assert "1 removed" in proc.stdout

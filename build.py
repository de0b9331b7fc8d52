#!/usr/bin/env python3
"""Build the static site: site/ + py/ + the pinned Pyodide -> dist/.

Usage: ``python3 build.py`` (no arguments; TRUCO_DIST_DIR and TRUCO_CACHE_DIR override the
output folder and the cache folder).

What lands in dist/ (and nothing else; stale files are removed):

- ``*.html``                 pages rendered from site/templates/ (Jinja; ``_*.html`` are layouts),
                             in Portuguese; ``es/*.html`` and ``en/*.html`` the same pages in
                             Spanish and English (texts from site/i18n/<lang>.json, lessons
                             from site/tutorial/<lang>/)
- ``static/``                site/static/ as is (CSS, JS modules, icons)
- ``static/js/build_info.js`` generated: file names the worker needs (wheels, Pyodide dir)
- ``pyodide/``               only the Pyodide files the app loads, from node_modules/pyodide
- ``wheels/``                the micropip wheel (PyPI) and the engine wheel (built from py/)
- ``snapshot/``              the snapshot path's files, xz-compressed by the build: a Pyodide
                             memory snapshot with the engine imported (made under Node by
                             scripts/make_snapshot.mjs) and Pyodide's WebAssembly with the data
                             that the snapshot restores blanked out; the worker starts from them
- ``static/js/vendor/``      the xz decoder (xz-decompress, from node_modules, pinned)
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

import hashlib
import json
import os
import posixpath
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SITE = ROOT / "site"
# Overridable for the tests (a build from scratch into a temporary folder).
DIST = Path(os.environ.get("TRUCO_DIST_DIR") or ROOT / "dist")
CACHE = Path(os.environ.get("TRUCO_CACHE_DIR") or ROOT / ".cache")
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"

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

# sha256 of the micropip wheels on PyPI that we have checked (the one pyodide-lock.json
# names is a different build of the same version, hence loaded by URL, not by name).
MICROPIP_SHA256 = {
    "0.11.1": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
}

# A fixed timestamp for the wheel's zip entries (1980-01-02, the zip epoch + 1 day).
SOURCE_DATE_EPOCH = "315619200"

# The memory snapshot: the script that makes it and where it goes in dist/ (the worker names
# the same paths, to start the downloads before build_info.js arrives).
SNAPSHOT_SCRIPT = ROOT / "scripts" / "make_snapshot.mjs"
SNAPSHOT_FILE = "snapshot/engine.snapshot.xz"
# Pyodide's WebAssembly for the snapshot path: the data segments that the snapshot holds
# unchanged are zeroed (see snapshot_wasm), then xz'd.
SNAPSHOT_WASM_FILE = "snapshot/pyodide.asm.wasm.xz"
# The custom section of that WebAssembly that lists the memory ranges to fill from the
# snapshot before the module's constructors run (the worker reads it).
SNAPSHOT_DATA_SECTION = "truco.data_from_snapshot"
# xz (LZMA2, the strongest preset) with a dictionary as large as the file, up to 32 MiB
# (the decoder allocates it), and CRC32 (what xz-embedded always checks).
XZ_PRESET = 9
XZ_MAX_DICT = 32 << 20
# The xz decoder (npm xz-decompress, MIT, pinned in package.json): its UMD bundle, wrapped
# by the build as an ES module for the worker (no eval; it compiles its own WebAssembly).
XZ_DECODER_NPM = ROOT / "node_modules" / "xz-decompress"
XZ_DECODER_FILE = "static/js/vendor/xz-decompress.js"
# What a first visit of the table may download up to the first deal on the snapshot path,
# on a host that compresses nothing (check_first_visit_budget).
FIRST_VISIT_BUDGET = 8_000_000
# The Pyodide files a snapshot depends on (it is only valid for the very same build).
SNAPSHOT_PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")

# Text files that must not name another origin (checked after every build).
TEXT_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".webmanifest", ".xml"}


class BuildError(Exception):
    pass


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def log(msg: str) -> None:
    print(f"build: {msg}", flush=True)


class Output:
    """Collects dist/ files in memory-light form and writes only what changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Path | bytes] = {}

    def add_bytes(self, rel: str, data: bytes) -> None:
        self._check_new(rel)
        self.files[rel] = data

    def add_file(self, rel: str, src: Path) -> None:
        self._check_new(rel)
        self.files[rel] = src

    def _check_new(self, rel: str) -> None:
        if rel in self.files:
            raise BuildError(f"two sources for dist/{rel}")
        if rel.startswith("/") or ".." in rel.split("/"):
            raise BuildError(f"bad output path {rel!r}")

    def data(self, rel: str) -> bytes:
        item = self.files[rel]
        return item if isinstance(item, bytes) else item.read_bytes()

    def write(self) -> tuple[int, int]:
        """Write changed files, delete stale ones; return (written, removed)."""
        self.root.mkdir(exist_ok=True)
        written = 0
        for rel in sorted(self.files):
            data = self.data(rel)
            dest = self.root / rel
            if dest.is_file() and dest.stat().st_size == len(data) and dest.read_bytes() == data:
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(dest.name + ".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, dest)
            written += 1
        removed = 0
        for path in sorted(self.root.rglob("*"), reverse=True):
            rel = path.relative_to(self.root).as_posix()
            if path.is_dir():
                if not any(path.iterdir()):
                    path.rmdir()
            elif rel not in self.files:
                path.unlink()
                removed += 1
        return written, removed


# --- Pyodide -----------------------------------------------------------------------------

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


# --- Wheels --------------------------------------------------------------------------------

def micropip_wheel(lock: dict) -> Path:
    """The micropip wheel of the version pyodide-lock.json names, from PyPI (cached)."""
    entry = lock["packages"]["micropip"]
    version, file_name = entry["version"], entry["file_name"]
    cache_dir = CACHE / "micropip"
    wheel = cache_dir / file_name
    if not wheel.is_file():
        log(f"downloading {file_name} from the package index")
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
    digest = sha256(wheel.read_bytes())
    expected = MICROPIP_SHA256.get(version)
    if expected is None:
        raise BuildError(
            f"micropip {version} is not vetted: check it, then add its sha256 {digest} "
            f"to MICROPIP_SHA256 in build.py"
        )
    if digest != expected:
        wheel.unlink()
        raise BuildError(f"{file_name}: sha256 {digest} is not the vetted {expected}")
    return wheel


def engine_sources() -> list[Path]:
    """Files that go into (or shape) the engine wheel: py/, pyproject.toml, README, LICENSE."""
    files = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted(ROOT.glob("LICENSE*"))]
    for path in sorted((ROOT / "py").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append(path)
    return [f for f in files if f.is_file()]


def engine_wheel() -> Path:
    """Build the engine wheel with `python -m build`, cached by a hash of its sources."""
    # (No `import build` here: from this folder that name is this very file.)
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
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PYTHONHASHSEED="0")
        cmd = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", tmp, str(ROOT)]
        # cwd elsewhere: `python -m build` run from here would find this file, not PyPA build.
        proc = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout + proc.stderr)
            raise BuildError("building the engine wheel failed")
        built = sorted(Path(tmp).glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"expected one wheel, got {built}")
        cache_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], cache_dir / built[0].name)
    prune_cache(keep=cache_dir)
    return cache_dir / built[0].name


def prune_cache(keep: Path, limit: int = 8) -> None:
    """Keep `keep` and the newest `limit - 1` other entries of its cache folder."""
    dirs = sorted((p for p in keep.parent.iterdir() if p.is_dir() and p != keep),
                  key=lambda p: p.stat().st_mtime, reverse=True)
    for old in dirs[limit - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def engine_version() -> str:
    text = (ROOT / "py" / "truco" / "__init__.py").read_text()
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.M)
    if not match:
        raise BuildError("py/truco/__init__.py has no __version__")
    return match.group(1)


# --- Memory snapshot -----------------------------------------------------------------------

def node_major() -> str:
    node = shutil.which("node")
    if not node:
        raise BuildError("node is missing: Node.js 20 makes the Pyodide snapshot (see README)")
    proc = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    return proc.stdout.strip().lstrip("v").split(".")[0]


def snapshot_key(version: str, engine: Path) -> str:
    """A hash of everything the snapshot's bytes depend on."""
    key = hashlib.sha256()
    key.update(f"pyodide {version}\nnode {node_major()}\n".encode())
    key.update(f"xz {xz_params_text()}\n".encode())
    for name in SNAPSHOT_PYODIDE_FILES:
        key.update(f"{name} {sha256((PYODIDE_NPM / name).read_bytes())}\n".encode())
    key.update(f"wheel {engine.name} {sha256(engine.read_bytes())}\n".encode())
    key.update(f"script {sha256(SNAPSHOT_SCRIPT.read_bytes())}\n".encode())
    return key.hexdigest()


def xz_params_text() -> str:
    import lzma

    # liblzma's version is part of the key: another version may pack the same bytes otherwise.
    return f"lzma2 preset {XZ_PRESET}e dict<= {XZ_MAX_DICT} crc32 liblzma {getattr(lzma, '_lzma_version', '')}"


def xz_compress(data: bytes) -> bytes:
    """xz (LZMA2, preset 9e, CRC32) with a dictionary just large enough for `data`:
    deterministic for given bytes and liblzma."""
    import lzma

    dict_size = 1 << 20
    while dict_size < len(data) and dict_size < XZ_MAX_DICT:
        dict_size <<= 1
    filters = [{"id": lzma.FILTER_LZMA2, "preset": XZ_PRESET | lzma.PRESET_EXTREME, "dict_size": dict_size}]
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=filters)


def memory_snapshot(version: str, engine: Path) -> tuple[bytes, dict]:
    """The xz'd snapshot of an interpreter that has imported the engine (cached by inputs).

    Returns the xz bytes and the snapshot's description: {"key", "size" (raw bytes),
    "sha256" (of the raw bytes), "xzSha256", "modules" (the engine modules it holds),
    "pyodide"}.
    """
    import lzma

    key = snapshot_key(version, engine)
    cache_dir = CACHE / "snapshot" / key[:32]
    xz_file, info_file = cache_dir / "engine.snapshot.xz", cache_dir / "info.json"
    if xz_file.is_file() and info_file.is_file():
        info = json.loads(info_file.read_text())
        packed = xz_file.read_bytes()
        if info.get("key") == key and info.get("xzSha256") == sha256(packed):
            return packed, info
    log("making the Pyodide memory snapshot (node scripts/make_snapshot.mjs)")
    started = time.perf_counter()
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
        raw_path = Path(tmp) / "snapshot.bin"
        proc = subprocess.run(["node", str(SNAPSHOT_SCRIPT), str(engine), str(raw_path)],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr[-4000:])
            raise BuildError("making the memory snapshot failed")
        made = json.loads(proc.stdout.strip().splitlines()[-1])
        if made.get("pyodide") != version:
            raise BuildError(f"the snapshot was made with Pyodide {made.get('pyodide')}, not {version}")
        raw = raw_path.read_bytes()
        packed = xz_compress(raw)
        if lzma.decompress(packed) != raw:
            raise BuildError("the snapshot's xz does not give the snapshot back")
        info = {
            "key": key,
            "pyodide": version,
            "size": len(raw),
            "sha256": sha256(raw),
            "xzSha256": sha256(packed),
            "modules": made["modules"],
            "heap": made.get("heap", {}),
        }
        tmp_xz = Path(tmp) / xz_file.name
        tmp_xz.write_bytes(packed)
        os.replace(tmp_xz, xz_file)
        info_file.write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    prune_cache(cache_dir, limit=3)  # ~5 MB each
    zero_pages = sum(1 for i in range(0, len(raw), 65536) if not any(raw[i:i + 65536]))
    log(f"snapshot: {len(raw) / 1e6:.1f} MB ({zero_pages} of {-(-len(raw) // 65536)} 64-KB pages "
        f"all zeros), {len(packed) / 1e6:.2f} MB xz, {len(info['modules'])} engine modules, "
        f"{time.perf_counter() - started:.1f}s")
    return packed, info


# --- Pyodide's WebAssembly for the snapshot path ----------------------------------------------

def _leb(data: bytes, i: int) -> tuple[int, int]:
    """An unsigned LEB128 at data[i]: (value, index after it)."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def _uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def wasm_data_segments(wasm: bytes) -> list[tuple[int, int, int]]:
    """The active data segments of a WebAssembly module: (memory address, file offset of the
    bytes, length). Only the form Emscripten emits is accepted (memory 0, i32.const offset)."""
    if wasm[:8] != b"\0asm\1\0\0\0":
        raise BuildError("pyodide.asm.wasm is not a WebAssembly 1 module")
    i = 8
    while i < len(wasm):
        section, size_at = wasm[i], i + 1
        size, body = _leb(wasm, size_at)
        if section == 11:
            count, k = _leb(wasm, body)
            segments = []
            for _ in range(count):
                flags, k = _leb(wasm, k)
                if flags != 0 or wasm[k] != 0x41:
                    raise BuildError(f"pyodide.asm.wasm: a data segment of an unexpected form ({flags})")
                address, k = _leb(wasm, k + 1)  # (signed LEB; addresses here are < 2**31 and
                if wasm[k] != 0x0B:            # their sign bit is clear: checked by the end test)
                    raise BuildError("pyodide.asm.wasm: a data segment's offset is not a constant")
                length, k = _leb(wasm, k + 1)
                segments.append((address, k, length))
                k += length
            if k != body + size:
                raise BuildError("pyodide.asm.wasm: the data section does not parse")
            return segments
        i = body + size
    raise BuildError("pyodide.asm.wasm has no data section")


def snapshot_wasm(wasm: bytes, snapshot: bytes) -> tuple[bytes, dict]:
    """Pyodide's WebAssembly for the snapshot path, smaller once compressed.

    A module fills its memory from its data segments when it is instantiated; Emscripten then
    runs the constructors, and Pyodide copies the snapshot over the whole memory. The bytes of
    most segments are in the snapshot unchanged (constants, code pointers, strings), so they
    travel twice. Here every segment whose bytes the snapshot holds at the same address is
    zeroed, and a custom section lists the memory ranges the worker fills from the snapshot
    right after instantiating, before the constructors run: the memory is then byte for byte
    what the stock module gives. Segments the snapshot changed keep their bytes. Ranges join
    zeroed segments separated by bytes that are zero in the snapshot (zero in a fresh memory
    too) and never span a kept segment.

    Returns the module and {"segments", "zeroed", "zeroedBytes", "ranges"}.
    """
    header_words = struct.unpack_from("<3I", snapshot, 0)
    if header_words[0] != 0x706E7300:
        raise BuildError("the snapshot has no Pyodide magic number")
    memory = memoryview(snapshot)[header_words[1]:]
    segments = sorted(wasm_data_segments(wasm))
    out = bytearray(wasm)
    ranges: list[list[int]] = []
    previous_kept = True
    zeroed = zeroed_bytes = 0
    for address, at, length in segments:
        data = wasm[at:at + length]
        if address + length > len(memory) or memory[address:address + length] != data:
            previous_kept = True
            continue
        out[at:at + length] = bytes(length)
        zeroed += 1
        zeroed_bytes += length
        if ranges and not previous_kept:
            end = ranges[-1][0] + ranges[-1][1]
            if end <= address and not any(memory[end:address]):
                ranges[-1][1] = address + length - ranges[-1][0]
                continue
        ranges.append([address, length])
        previous_kept = False
    # The custom section: the count, then (gap from the previous range's end, length) pairs.
    body = bytearray(_uleb(len(ranges)))
    end = 0
    for address, length in ranges:
        body += _uleb(address - end) + _uleb(length)
        end = address + length
    name = SNAPSHOT_DATA_SECTION.encode()
    payload = _uleb(len(name)) + name + bytes(body)
    out += b"\0" + _uleb(len(payload)) + payload
    stats = {"segments": len(segments), "zeroed": zeroed, "zeroedBytes": zeroed_bytes, "ranges": len(ranges)}
    return bytes(out), stats


# Bump when snapshot_wasm changes what it makes (part of its cache key).
SNAPSHOT_WASM_FORMAT = 1


def snapshot_wasm_xz(snapshot_xz: bytes, snapshot_info: dict) -> tuple[bytes, dict]:
    """snapshot_wasm() of the pinned Pyodide's WebAssembly, xz'd; cached next to the snapshot
    under a hash of its inputs (a build with nothing changed neither unpacks the snapshot nor
    compresses)."""
    import lzma

    stock = (PYODIDE_NPM / "pyodide.asm.wasm").read_bytes()
    key = sha256(f"format {SNAPSHOT_WASM_FORMAT}\nwasm {sha256(stock)}\nsnapshot {snapshot_info['sha256']}\n"
                 f"section {SNAPSHOT_DATA_SECTION}\nxz {xz_params_text()}\n".encode())
    cache_dir = CACHE / "snapshot" / snapshot_info["key"][:32]
    packed_file, info_file = cache_dir / f"wasm-{key[:16]}.xz", cache_dir / f"wasm-{key[:16]}.json"
    if packed_file.is_file() and info_file.is_file():
        packed = packed_file.read_bytes()
        info = json.loads(info_file.read_text())
        if info.get("xzSha256") == sha256(packed):
            return packed, info
    started = time.perf_counter()
    raw_snapshot = lzma.decompress(snapshot_xz)
    if sha256(raw_snapshot) != snapshot_info["sha256"]:
        raise BuildError("the cached snapshot does not match its description: remove .cache/snapshot")
    wasm, stats = snapshot_wasm(stock, raw_snapshot)
    packed = xz_compress(wasm)
    info = dict(stats, size=len(wasm), sha256=sha256(wasm), xzSize=len(packed), xzSha256=sha256(packed))
    cache_dir.mkdir(parents=True, exist_ok=True)
    packed_file.write_bytes(packed)
    info_file.write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    log(f"snapshot path's WebAssembly: {stats['zeroed']} of {stats['segments']} data segments "
        f"({stats['zeroedBytes'] / 1e6:.1f} MB) come from the snapshot ({stats['ranges']} ranges); "
        f"{len(wasm) / 1e6:.1f} MB -> {len(packed) / 1e6:.2f} MB xz, {time.perf_counter() - started:.1f}s")
    return packed, info


# --- xz decoder ----------------------------------------------------------------------------------

def xz_decoder_module() -> tuple[bytes, str]:
    """npm xz-decompress (pinned in package.json) as an ES module: its UMD bundle inside a
    function, so that each call makes a decoder of its own (the bundle serializes streams on
    one WebAssembly instance; the worker decodes the snapshot and the WebAssembly at once)."""
    pkg = json.loads((ROOT / "package.json").read_text())
    pinned = pkg.get("dependencies", {}).get("xz-decompress")
    if not pinned or not re.fullmatch(r"\d+\.\d+\.\d+", pinned):
        raise BuildError(f"package.json must pin xz-decompress to an exact version, found {pinned!r}")
    meta = XZ_DECODER_NPM / "package.json"
    if not meta.is_file():
        raise BuildError("node_modules/xz-decompress is missing: run `npm ci` first")
    installed = json.loads(meta.read_text())
    if installed["version"] != pinned:
        raise BuildError(f"node_modules has xz-decompress {installed['version']} but package.json pins {pinned}: run `npm ci`")
    bundle = (XZ_DECODER_NPM / "dist" / "package" / "xz-decompress.min.js").read_text(encoding="utf-8")
    bundle = _SOURCE_MAP.sub(b"\n", bundle.encode()).decode().strip()
    # Its licence header names the projects' sites: kept, without the scheme (no file of
    # dist/ names another origin).
    bundle = re.sub(r"https?://", "", bundle)
    text = (
        f"// xz-decompress {pinned} (npm; {installed['license']}; github.com/httptoolkit/xz-decompress)\n"
        "// wrapped by build.py as an ES module: makeXzReadableStream() runs the bundle and returns\n"
        "// its XzReadableStream class (each call: its own WebAssembly instance).\n"
        "export function makeXzReadableStream() {\n"
        "const module = { exports: {} };\n"
        "const exports = module.exports;\n"
        "const require = () => ({});\n"
        f"{bundle}\n"
        "return module.exports.XzReadableStream;\n"
        "}\n"
    )
    return text.encode("utf-8"), pinned


# --- Site ----------------------------------------------------------------------------------

def add_static(out: Output) -> None:
    static = SITE / "static"
    for path in sorted(static.rglob("*")):
        if path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts:
            out.add_file("static/" + path.relative_to(static).as_posix(), path)


def render_pages(out: Output, context: dict) -> None:
    """Every template once per language: Portuguese at the root, the others in their folder
    (LANGUAGES); the pages of one language link to each other with plain relative URLs."""
    try:
        import jinja2
    except ImportError:
        raise BuildError("jinja2 is missing: install the build tools (see README)") from None
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(SITE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    markup = jinja2.utils.markupsafe.Markup
    templates = [tpl for tpl in sorted((SITE / "templates").glob("*.html")) if not tpl.name.startswith("_")]
    # The Portuguese lessons are replayed with the engine once; the others only swap texts.
    lessons_pt = load_lessons(ui_strings(DEFAULT_LANGUAGE))
    names = {lang: ui_strings(lang)["lang.name"] for lang in LANGUAGES}
    for lang, folder in LANGUAGES.items():
        strings = ui_strings(lang)
        up = "../" * folder.count("/")

        def asset(rel: str, up=up) -> str:
            """A URL of a file of the build, relative to this language's pages (checked)."""
            if rel not in out.files:
                raise BuildError(f"template refers to {rel}, which the build does not produce")
            return up + rel

        def t(key: str, strings=strings, lang=lang, **params) -> str:
            """A UI text from the translation table (a missing key fails the build);
            {name} placeholders are filled from the keyword arguments."""
            if key not in strings:
                raise BuildError(f"site/i18n/{lang}.json has no key {key!r}")
            value = strings[key]
            value = value[0] if isinstance(value, list) else value
            for name, arg in params.items():
                value = value.replace("{" + name + "}", str(arg))
            return value

        env.globals.update(asset=asset, t=t)
        page_context = dict(
            context,
            lang=lang,
            lang_dir=folder,
            # Raw JSON for <script type="application/json">: not HTML-escaped, but "</" can't close it.
            strings_json=markup(json.dumps(strings, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")),
            presets=preset_summaries(strings),
        )
        page_context.update(tutorial_context(lessons_for(lessons_pt, lang, strings), markup))
        for tpl in templates:
            # The same page in every language, for the language switch and <link rel=alternate>.
            languages = [{"code": other, "name": names[other], "current": other == lang,
                          "href": up + LANGUAGES[other] + tpl.name} for other in LANGUAGES]
            html = env.get_template(tpl.name).render(**page_context, page=tpl.stem, languages=languages)
            out.add_bytes(folder + tpl.name, html.encode("utf-8"))


# The languages of the site and the folder of dist/ their pages go to. Portuguese, the
# default, keeps the root (saved links and bookmarks name /index.html, /tutorial.html...).
LANGUAGES = {"pt-BR": "", "es": "es/", "en": "en/"}
DEFAULT_LANGUAGE = "pt-BR"


def ui_strings(lang: str = DEFAULT_LANGUAGE) -> dict:
    """The translation table of the UI (one JSON file per language in site/i18n/). A key
    missing from a translation falls back to the Portuguese text, so a key added in
    Portuguese never breaks the build; tests/test_i18n.py fails until it is translated."""
    path = SITE / "i18n" / f"{lang}.json"
    try:
        strings = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BuildError(f"cannot read {path.relative_to(ROOT)}: {exc}") from None
    if lang != DEFAULT_LANGUAGE:
        strings = {**ui_strings(DEFAULT_LANGUAGE), **strings}
    return strings


def load_lessons(strings: dict) -> list[dict]:
    """The Portuguese lessons (site/tutorial/NN_slug.md), every exercise replayed."""
    import lessons

    try:
        return lessons.load(strings)
    except lessons.LessonError as exc:
        raise BuildError(f"site/tutorial/{exc}") from None


def lessons_for(items: list[dict], lang: str, strings: dict) -> list[dict]:
    """The lessons in `lang`: texts from site/tutorial/<lang>/, deals and exercises shared."""
    import lessons

    if lang == DEFAULT_LANGUAGE:
        return items
    try:
        return lessons.translate(items, lang, strings)
    except lessons.LessonError as exc:
        raise BuildError(f"site/tutorial/{lang}/{exc}") from None


def tutorial_context(items: list[dict], markup) -> dict:
    """The tutorial's lessons (see lessons.py) for one language; ``tutorial_json`` /
    ``scenarios_json`` feed tutorial.html and embed.html (no solutions, no quiz answers:
    the page asks the engine)."""
    import lessons

    data = lessons.page_data(items)
    items = [dict(lesson, html=markup(lesson["html"])) for lesson in items]
    return {
        "lessons": items,
        "tutorial_json": markup(lessons.json_for_script(data)),
        "scenarios_json": markup(lessons.json_for_script({"exercises": data["exercises"]})),
    }


def preset_summaries(strings: dict) -> list[dict]:
    """The engine's presets (names, point values), read from py/ at build time; their title
    and description in the page's language (``preset.<name>.title`` / ``.description``,
    the engine's Portuguese texts when a preset has no keys yet)."""
    sys.path.insert(0, str(ROOT / "py"))
    try:
        from truco.rules import PRESETS
    finally:
        sys.path.remove(str(ROOT / "py"))
    order = ["mineiro", "truco473", "torneio", "paulista"]
    names = sorted(PRESETS, key=lambda n: (order.index(n) if n in order else len(order), n))
    out = []
    for n in names:
        summary = PRESETS[n].summary()
        for field in ("title", "description"):
            summary[field] = strings.get(f"preset.{n}.{field}", summary[field])
        # Two rule facts the summary leaves out, for the marcador's mão de ferro reminder.
        out.append(dict(summary, ferro_value=PRESETS[n].ferro_value, ferro_blind=PRESETS[n].ferro_blind))
    return out


def build_info_module(info: dict) -> bytes:
    body = json.dumps(info, indent=2, sort_keys=True, ensure_ascii=False)
    return (
        "// Generated by build.py: do not edit. What the worker needs to find its files.\n"
        f"export const BUILD = Object.freeze({body});\n"
    ).encode("utf-8")


def manifest(out: Output, snapshot: dict, first_visit: dict) -> bytes:
    files = {}
    for rel in sorted(out.files):
        data = out.data(rel)
        files[rel] = {"sha256": sha256(data), "size": len(data)}
    digest = sha256(json.dumps(files, sort_keys=True).encode())
    doc = {
        "version": 1,
        "build": digest[:16],
        "files": files,
        # The memory snapshot (also listed in `files`, xz'd): made from these inputs (`key`,
        # see snapshot_key), reproducible (the same key gives the same bytes), `size` and
        # `sha256` of the raw snapshot inside the xz, the engine modules it has imported;
        # `wasm`: the snapshot path's WebAssembly (see snapshot_wasm).
        "snapshot": {
            "file": SNAPSHOT_FILE,
            "key": snapshot["key"][:32],
            "modules": snapshot["modules"],
            "pyodide": snapshot["pyodide"],
            "reproducible": True,
            "size": snapshot["size"],
            "sha256": snapshot["sha256"],
            "wasm": snapshot["wasm"],
        },
        # What the table's first visit downloads up to the first deal on the snapshot path
        # (check_first_visit_budget).
        "firstVisit": first_visit,
    }
    return (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode("utf-8")


# --- First-visit budget --------------------------------------------------------------------------

class _PageRefs(HTMLParser):
    """The files a browser fetches for a page: scripts, style sheets, module preloads, the
    icon and the web app manifest (not the links to other pages)."""

    FETCHED_RELS = {"stylesheet", "modulepreload", "icon", "manifest"}

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "img") and attrs.get("src"):
            self.refs.append(attrs["src"])
        elif tag == "link" and attrs.get("href") and set((attrs.get("rel") or "").split()) & self.FETCHED_RELS:
            self.refs.append(attrs["href"])


_JS_IMPORTS = re.compile(r"""(?:\bimport\s*(?:[\w*{}\s,]+\s*from\s*)?|\bexport\s+[\w*{}\s,]+\s+from\s*|\bimport\(\s*|new URL\(\s*)["']([^"']+)["']""")
_CSS_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


def page_files(out: Output, page: str) -> list[str]:
    """A page of the build and every file of the build it refers to, transitively (HTML
    references, CSS url()s, JS imports, dynamic imports and `new URL(..., import.meta.url)`)."""
    seen: list[str] = []
    todo = [page]
    while todo:
        rel = todo.pop()
        if rel in seen or rel not in out.files:
            continue
        seen.append(rel)
        suffix = Path(rel).suffix
        if suffix == ".html":
            parser = _PageRefs()
            parser.feed(out.data(rel).decode("utf-8"))
            refs = parser.refs
        elif suffix in (".js", ".mjs"):
            refs = _JS_IMPORTS.findall(out.data(rel).decode("utf-8"))
        elif suffix == ".css":
            refs = _CSS_URLS.findall(out.data(rel).decode("utf-8"))
        else:
            continue
        for ref in refs:
            if re.match(r"[a-z]+:", ref) or ref.startswith(("#", "/")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), ref.split("?")[0].split("#")[0]))
            todo.append(target)
    return sorted(seen)


# The worker's files on the snapshot path, which it names by variables (Pyodide's folder).
SNAPSHOT_PATH_FILES = ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", SNAPSHOT_WASM_FILE, SNAPSHOT_FILE,
                       XZ_DECODER_FILE)


def first_visit(out: Output, budget: int = FIRST_VISIT_BUDGET) -> dict:
    """The bytes of the table's first visit up to the first deal, on the snapshot path and a
    host that compresses nothing: index.html, what it refers to (style sheets, modules, the
    worker, the xz decoder, build_info.js), Pyodide's two loader modules and the xz'd
    WebAssembly and snapshot. Fails the build past `budget`."""
    files = sorted(set(page_files(out, "index.html")) | set(SNAPSHOT_PATH_FILES))
    missing = [rel for rel in files if rel not in out.files]
    if missing:
        raise BuildError(f"the snapshot path names files the build does not make: {missing}")
    sizes = {rel: len(out.data(rel)) for rel in files}
    total = sum(sizes.values())
    log(f"first visit of the table (snapshot path, no HTTP compression): {total:,} bytes in "
        f"{len(files)} files (budget {budget:,})")
    if total > budget:
        biggest = sorted(sizes.items(), key=lambda kv: -kv[1])[:6]
        raise BuildError(f"the table's first visit downloads {total:,} bytes, over the budget of "
                         f"{budget:,}: " + ", ".join(f"{rel} {size:,}" for rel, size in biggest))
    return {"budget": budget, "bytes": total, "files": files}


_URL = re.compile(rb"(?:https?|wss?|ftp)://[^\s\"'`<>()]*", re.I)
_PROTOCOL_RELATIVE = re.compile(rb"(?:src|href|action|srcset)\s*=\s*[\"']?//", re.I)
# XML namespace names look like URLs but are never fetched.
XML_NAMESPACES = {
    b"http://www.w3.org/2000/svg",
    b"http://www.w3.org/1999/xlink",
    b"http://www.w3.org/1999/xhtml",
}


def other_origin_refs(data: bytes) -> list[bytes]:
    """Absolute URLs with a host (or protocol-relative links) in a text file's bytes."""
    refs = [m.group(0) for m in _URL.finditer(data)
            if m.group(0) not in XML_NAMESPACES and re.match(rb"[a-z]+://[A-Za-z0-9\[]", m.group(0), re.I)]
    refs += [m.group(0) for m in _PROTOCOL_RELATIVE.finditer(data)]
    return refs


def check_no_other_origin(out: Output) -> None:
    """Fail if a text file in dist/ names another origin."""
    bad = [f"{rel}: {ref!r}" for rel in sorted(out.files) if Path(rel).suffix in TEXT_SUFFIXES
           for ref in other_origin_refs(out.data(rel))]
    if bad:
        raise BuildError("dist/ would name another origin:\n  " + "\n  ".join(bad))


# --- Installable and offline ---------------------------------------------------------------

# The web app manifest's fixed values (the texts come from site/i18n/). theme_color is also the
# pages' <meta name="theme-color">; background_color is the pages' own background (the splash
# screen of the installed app).
APP = {
    "theme_color": "#0f3d24",
    "background_color": "#0a1f12",
    "apple_touch_icon": "static/icons/apple-touch-icon.png",
}
ICONS_SPEC = SITE / "icons.json"
SW_SOURCE = SITE / "sw.js"
# The line of site/sw.js that build.py replaces with the build's file list.
_SW_PRECACHE = re.compile(r"^const PRECACHE = \{[^\n]*\}; // replaced by build\.py$", re.M)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG (from its IHDR chunk)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise BuildError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def checked_icons() -> list[dict]:
    """The app's PNG icons (site/icons.json), checked: rendered from the current SVG with the
    current parameters (scripts/make_icons.py records that as `key`), unchanged since, and
    of their declared size. Rasterizing here would need a renderer that Netlify's build
    image lacks, so the PNGs are committed and verified instead."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from make_icons import render_key
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    spec = json.loads(ICONS_SPEC.read_text())
    if spec.get("key") != render_key(spec):
        raise BuildError(f"{spec['source']} or site/icons.json changed since the PNG icons were "
                         "made: run `.venv/bin/python scripts/make_icons.py` and commit the PNGs")
    for icon in spec["icons"]:
        path = SITE / icon["src"]
        if not path.is_file():
            raise BuildError(f"site/{icon['src']} is missing: run scripts/make_icons.py")
        data = path.read_bytes()
        if sha256(data) != icon.get("sha256"):
            raise BuildError(f"site/{icon['src']} is not the icon scripts/make_icons.py made: run it again")
        if png_size(data) != (icon["size"], icon["size"]):
            raise BuildError(f"site/{icon['src']} is {png_size(data)}, not {icon['size']} x {icon['size']}")
    return spec["icons"]


def web_manifest(icons: list[dict], lang: str = DEFAULT_LANGUAGE) -> bytes:
    """manifest.webmanifest: what Chromium needs to offer installation, one per language
    (in its folder). Every language is the same app: its `id` and `scope` are the site's
    root, and it starts on the pages of its own language."""
    strings = ui_strings(lang)
    up = "../" * LANGUAGES[lang].count("/")
    doc = {
        # Resolved against start_url: the root for every language (one app, not three).
        "id": up or "./",
        "name": strings["app.title"],
        "short_name": strings["app.short_name"],
        "description": strings["app.description"],
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",
        "scope": up or "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": APP["theme_color"],
        "background_color": APP["background_color"],
        "categories": ["games", "entertainment"],
        "icons": [
            {"src": up + "static/icons/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            *({"src": up + i["src"], "sizes": f"{i['size']}x{i['size']}", "type": "image/png", "purpose": i["purpose"]}
              for i in icons if i["purpose"] in ("any", "maskable")),
        ],
    }
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def deploy_headers_digest() -> str:
    """A hash of netlify.toml's [[headers]]: the service worker keeps each file's response
    headers (the pages' CSP), so new headers make a new build for it too."""
    import tomllib

    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    return sha256(json.dumps(config.get("headers", []), sort_keys=True).encode())


# The service worker's precache groups (site/sw.js), by the folder a file is in: "shell" is
# always precached, the other groups only once a page has started the engine. A file at the
# root of dist/ or in a language folder (the pages, the manifests) is "shell"; a folder named
# here gets its group; any other folder is "engine" (precached with the engine, never for the
# marcador alone), so a new folder of start-up files falls into place without an edit here.
PRECACHE_GROUPS = {
    "static": "shell",       # CSS, JS modules, icons: every page's
    "pyodide": "pyodide",    # Pyodide's stock files: the loader, and the fallback's wasm and stdlib
    "snapshot": "snapshot",  # the memory snapshot path's own files
    "wheels": "fallback",    # the wheel path: micropip and the engine wheel
}
SHELL_GROUP = "shell"
OTHER_FOLDER_GROUP = "engine"


def precache_group(rel: str) -> str:
    """The service worker's precache group of a file of dist/ (see PRECACHE_GROUPS)."""
    folder, _, rest = rel.partition("/")
    if not rest:
        return SHELL_GROUP
    if folder + "/" in LANGUAGES.values():
        return precache_group(rest)
    return PRECACHE_GROUPS.get(folder, OTHER_FOLDER_GROUP)


def service_worker(out: Output) -> bytes:
    """dist/sw.js: site/sw.js with every file of the build (but itself and manifest.json),
    its sha256 and its precache group; the build id names its cache."""
    source = SW_SOURCE.read_text(encoding="utf-8")
    files = {rel: sha256(out.data(rel)) for rel in sorted(out.files)}
    groups: dict[str, list[str]] = {}
    for rel in files:
        groups.setdefault(precache_group(rel), []).append(rel)
    headers = deploy_headers_digest()
    build_id = sha256(json.dumps({"files": files, "headers": headers, "sw": sha256(source.encode())},
                                 sort_keys=True).encode())[:16]
    precache = json.dumps({"build": build_id, "headers": headers[:16], "files": files, "groups": groups},
                          indent=1, sort_keys=True, ensure_ascii=False)
    line = f"const PRECACHE = {precache}; // generated by build.py"
    text, count = _SW_PRECACHE.subn(lambda _m: line, source)
    if count != 1:
        raise BuildError("site/sw.js must have one `const PRECACHE = {...}; // replaced by build.py` line")
    return text.encode("utf-8")


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
    decoder, _decoder_version = xz_decoder_module()
    out.add_bytes(XZ_DECODER_FILE, decoder)

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
    icons = checked_icons()
    for lang, folder in LANGUAGES.items():
        out.add_bytes(folder + "manifest.webmanifest", web_manifest(icons, lang))
    render_pages(out, {"build": info, "app": APP})
    out.add_bytes("sw.js", service_worker(out))
    check_no_other_origin(out)
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

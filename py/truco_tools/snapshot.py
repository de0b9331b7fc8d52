"""The snapshot path's files: a Pyodide memory snapshot with the engine imported (made under
Node by scripts/make_snapshot.mjs, cached by its inputs), Pyodide's WebAssembly with the
data the snapshot restores blanked out, both xz'd, and the xz decoder as an ES module."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import CACHE, PYODIDE_NPM, ROOT, BuildError, log, prune_cache, sha256
from .pyodide import _SOURCE_MAP

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
# Emscripten's module of Pyodide (pyodide/pyodide.asm.mjs, 1.25 MB of JavaScript), xz'd for the
# snapshot path (0.21 MB): a host that compresses nothing would send it whole. The worker
# decodes it and imports it from a blob: URL (the wheel path imports the plain file).
SNAPSHOT_LOADER_FILE = "snapshot/pyodide.asm.mjs.xz"
XZ_DECODER_FILE = "static/js/vendor/xz-decompress.js"

# The Pyodide files a snapshot depends on (it is only valid for the very same build).
SNAPSHOT_PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")


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
    log("making the Pyodide memory snapshot (node scripts/make_snapshot.mjs; about a minute, once: cached by its inputs)")
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
    log("packing Pyodide's WebAssembly for the snapshot path (data the snapshot restores blanked, xz)")
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


def loader_xz(loader: bytes) -> tuple[bytes, dict]:
    """pyodide.asm.mjs (as dist/ has it) xz'd, cached under a hash of its bytes: the bytes and
    {"size", "sha256" (of the module), "xzSize", "xzSha256"}."""
    import lzma

    key = sha256(f"loader {sha256(loader)}\nxz {xz_params_text()}\n".encode())
    packed_file = CACHE / "snapshot" / f"loader-{key[:16]}.xz"
    if packed_file.is_file():
        packed = packed_file.read_bytes()
    else:
        started = time.perf_counter()
        packed = xz_compress(loader)
        if lzma.decompress(packed) != loader:
            raise BuildError("pyodide.asm.mjs's xz does not give it back")
        packed_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = packed_file.with_suffix(".tmp")
        tmp.write_bytes(packed)
        os.replace(tmp, packed_file)
        log(f"pyodide.asm.mjs for the snapshot path: {len(loader) / 1e6:.2f} MB -> {len(packed) / 1e6:.2f} MB xz, "
            f"{time.perf_counter() - started:.1f}s")
    return packed, {"size": len(loader), "sha256": sha256(loader), "xzSize": len(packed), "xzSha256": sha256(packed)}


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

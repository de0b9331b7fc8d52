// Makes the Pyodide memory snapshot that the engine worker starts from (run by build.py).
//
//   node scripts/make_snapshot.mjs ENGINE_WHEEL OUTPUT
//
// Under Node, with the pinned Pyodide of node_modules/pyodide: starts Python with
// `_makeSnapshot`, unpacks the engine wheel into site-packages, imports every module of the
// `truco` package (and the standard modules the worker uses), then writes
// `pyodide.makeMemorySnapshot()` to OUTPUT (raw; build.py compresses it).
//
// A snapshot holds Python's memory, not Pyodide's file system: a module that was not
// imported here cannot be imported after a restore (its file is gone). Hence the walk over
// the whole package rather than a list of names.
//
// Reproducible: the same Pyodide, wheel and script give the same bytes. Python draws random
// bytes at start-up (the str hash secret, the `random` module's seed) and file times come
// from the clock; both are made constant while the snapshot is made. The worker re-seeds
// `random` after a restore, so a page never shares its random state with another.
//
// Prints one JSON line on stdout: {"modules": [...], "size": N, "pyodide": "x.y.z"}.

import nodeCrypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const [wheelPath, outPath] = process.argv.slice(2);
if (!wheelPath || !outPath) {
  console.error("usage: node scripts/make_snapshot.mjs ENGINE_WHEEL OUTPUT");
  process.exit(2);
}

// Deterministic "random" bytes and clock while the snapshot is made (see above).
let state = 0x9e3779b9;
function nextByte() {
  // xorshift32: not for secrets; only makes the build repeatable.
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state & 0xff;
}
function fill(view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) bytes[i] = nextByte();
  return view;
}
// Emscripten draws its entropy from node:crypto under Node (crypto.getRandomValues elsewhere).
nodeCrypto.randomFillSync = fill;
Object.defineProperty(globalThis.crypto, "getRandomValues", { configurable: true, value: fill });
Math.random = () => nextByte() / 256;
const EPOCH_MS = 315619200000; // 1980-01-02, as the wheel's SOURCE_DATE_EPOCH
Date.now = () => EPOCH_MS;
// A clock that advances by call, not by time (mimalloc seeds its heap keys from the clock).
let ticks = 0;
performance.now = () => (ticks += 0.25);

// The snapshot is the whole of Python's memory, and freed memory still holds what was there:
// the engine's sources read for compiling, the parse trees, the import machinery's scratch.
// xz packs that garbage like live data (about 0.5 MB of the 4.3). So every free block of the
// C heap is filled with zeros before the snapshot is taken: calloc every size, largest first,
// until nothing more fits without growing the memory (a footprint limit makes malloc say no
// instead of growing it: a bigger memory would be a bigger snapshot), then free it all. The
// heap is left as malloc keeps it (free() writes its own bookkeeping back); only the contents
// of free blocks change.
function zeroFreeMemory(module) {
  const memory = () => module.HEAPU8.length;
  const before = memory();
  const limit = module._malloc_footprint_limit();
  module._malloc_set_footprint_limit(module._malloc_footprint() + (before - module._sbrk(0)));
  const held = [];
  try {
    for (let size = 1 << 24; size >= 1; size >>= 1) {
      for (;;) {
        const block = module._calloc(1, size);
        if (!block) break;
        held.push(block);
      }
    }
  } finally {
    for (const block of held) module._free(block);
    module._malloc_set_footprint_limit(limit);
  }
  if (memory() !== before || module._malloc_footprint_limit() !== limit) {
    throw new Error(`zeroFreeMemory changed the memory (${before} -> ${memory()} bytes) or malloc's limit`);
  }
  console.error(`make_snapshot: ${held.length} free blocks zeroed`);
}

try {
  const { loadPyodide, version } = await import("pyodide");

  const pyodide = await loadPyodide({
    _makeSnapshot: true,
    // Not this script's path (Node's argv[1]), which would end up in sys.executable: the
    // snapshot must not depend on where the repository is checked out.
    _sysExecutable: "python",
    env: { PYTHONHASHSEED: "0", PYTHONDONTWRITEBYTECODE: "1" },
    stdout: (text) => console.error(`[python] ${text}`),
    stderr: (text) => console.error(`[python] ${text}`),
  });

  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  // A plain Uint8Array: Pyodide does not take a Node Buffer.
  pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });

  // (importlib caches directory listings by mtime, and the clock is frozen: forget them.)
  const modules = pyodide.runPython(`
import importlib, json, pkgutil, random, sys, traceback

importlib.invalidate_caches()
import truco

names = ["truco"]
for info in pkgutil.walk_packages(truco.__path__, "truco."):
    names.append(info.name)
for name in names:
    importlib.import_module(name)

# Every module the engine's sources import, even inside a function: the snapshot path has no
# standard library to import from later.
def _import_what_the_sources_import():
    import ast
    for name in names:
        with open(sys.modules[name].__file__, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                targets = [node.module]
            else:
                continue
            for target in targets:
                if target != "__future__":
                    importlib.import_module(target)

_import_what_the_sources_import()
del _import_what_the_sources_import

# The garbage of the imports goes before the heap is written.
import gc
gc.collect()
json.dumps(sorted(names))
`);
  const names = JSON.parse(modules);
  for (const needed of ["truco.api", "truco.bots"]) {
    if (!names.includes(needed)) {
      console.error(`make_snapshot: ${needed} was not found in ${basename(wheelPath)}`);
      process.exit(1);
    }
  }

  zeroFreeMemory(pyodide._module);
  const snapshot = pyodide.makeMemorySnapshot();
  writeFileSync(outPath, snapshot);
  process.stdout.write(JSON.stringify({ modules: names, size: snapshot.length, pyodide: version }) + "\n");
} catch (err) {
  // Short: Node would print a line of the minified loader, a megabyte long.
  console.error(`make_snapshot: ${err && err.stack ? err.stack.split("\n").slice(0, 12).join("\n") : err}`);
  process.exit(1);
}

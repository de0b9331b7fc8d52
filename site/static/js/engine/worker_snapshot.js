// The engine worker's snapshot path (see worker.js): Python with the engine already imported,
// from the build's memory snapshot. snapshot/engine.snapshot.xz,
// snapshot/pyodide.asm.wasm.xz and snapshot/pyodide.asm.mjs.xz (downloads worker.js started at
// once) are xz-decoded as they
// arrive, the WebAssembly is compiled from the decoded stream, the memory ranges its custom
// section lists are filled from the snapshot right after instantiation, and loadPyodide()
// gets the snapshot, an empty standard library and the lock file's `info` from build_info.js.
// Any failure here is thrown for boot() to take the wheel path. `shared` is what worker.js
// hands its start-up modules.

import { decodeBeside, readExactly, xzDownload } from "./worker_xz.js";

/** Fill the memory ranges the build listed (custom section) from the snapshot's memory. */
function fillFromSnapshot(module, instance, snapshot, section, name) {
  const sections = WebAssembly.Module.customSections(module, section);
  if (sections.length !== 1) throw new Error(`${name} has no ${section} section`);
  const bytes = new Uint8Array(sections[0]);
  let at = 0;
  const leb = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[at++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return value;
    }
  };
  const memoryStart = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 2)[1]; // the header's size
  const memory = new Uint8Array(instance.exports.memory.buffer);
  const count = leb();
  let end = 0;
  for (let i = 0; i < count; i++) {
    const address = end + leb();
    const length = leb();
    if (memoryStart + address + length > snapshot.length || address + length > memory.length) {
      throw new Error(`${section}: a range out of bounds`);
    }
    memory.set(snapshot.subarray(memoryStart + address, memoryStart + address + length), address);
    end = address + length;
  }
}

/** Python with the engine imported, from the memory snapshot. */
export async function startFromSnapshot(shared, BUILD) {
  const { ROOT, indexURL, EMPTY_STDLIB_URL, early, loaders, pyodideModule, timings, now, log } = shared;
  const { progress, expectBytes, useWasm, compileResponse, stageError } = shared;
  expectBytes(new Map([
    [new URL(BUILD.snapshot, ROOT).href, BUILD.snapshotXzSize],
    [new URL(BUILD.snapshotWasm, ROOT).href, BUILD.snapshotWasmXzSize],
    [new URL(BUILD.snapshotLoader, ROOT).href, BUILD.snapshotLoaderXzSize],
  ]), 0.9);
  let XzReadableStream;
  try {
    XzReadableStream = (await early.decoder).makeXzReadableStream;
  } catch (err) {
    throw new Error(`the xz decoder did not load: ${err.message || err}`);
  }
  const wasmXz = xzDownload(shared, early.wasm, {
    name: BUILD.snapshotWasm, sha256: BUILD.snapshotWasmSha256, label: "wasm", XzReadableStream: XzReadableStream(),
  });
  const snapshotXz = xzDownload(shared, early.snapshot, {
    name: BUILD.snapshot, sha256: BUILD.snapshotSha256, label: "snapshot", XzReadableStream: XzReadableStream(),
  });
  const loaderXz = xzDownload(shared, early.loader, {
    name: BUILD.snapshotLoader, sha256: BUILD.snapshotLoaderSha256, label: "loader", XzReadableStream: XzReadableStream(),
  });
  // Stops this path's downloads (after a fallback or a failure).
  shared.snapshotPath.cancel = () => {
    wasmXz.cancel();
    snapshotXz.cancel();
    loaderXz.cancel();
  };

  // Emscripten's module (pyodide.asm.mjs), decoded, checked and imported from a blob: URL;
  // loadPyodide() takes its factory instead of importing the plain file.
  const createPyodideModule = Promise.all([
    readExactly(loaderXz.decoded, BUILD.snapshotLoaderSize, BUILD.snapshotLoader), loaderXz.verified,
  ]).then(async ([source]) => {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    try {
      return (await import(url)).default;
    } finally {
      URL.revokeObjectURL(url);
    }
  });
  createPyodideModule.catch(() => {});

  // The WebAssembly, compiled as it is decoded (checked before it is instantiated).
  const [forCompile, forSize] = wasmXz.decoded.tee();
  const size = readExactly(forSize, BUILD.snapshotWasmSize, BUILD.snapshotWasm);
  size.catch(() => {});
  const compiled = compileResponse(
    new Response(forCompile, { headers: { "Content-Type": "application/wasm" } }),
    BUILD.snapshotWasm,
    async () => {
      await wasmXz.verified;
      const again = xzDownload(shared, Promise.resolve(new Response(wasmXz.packed())), {
        name: BUILD.snapshotWasm, sha256: BUILD.snapshotWasmSha256, label: "wasmAgain", XzReadableStream: XzReadableStream(),
      });
      return readExactly(again.decoded, BUILD.snapshotWasmSize, BUILD.snapshotWasm);
    },
  );
  shared.snapshotPath.module = compiled; // waited for before the worker is given up
  const module = Promise.all([compiled, size, wasmXz.verified]).then(([m]) => {
    timings.wasm = now();
    return m;
  });

  // The snapshot's raw bytes (decoded by a worker beside this one), checked.
  const snapshot = Promise.all([
    decodeBeside(shared, snapshotXz, { name: BUILD.snapshot, size: BUILD.snapshotSize, label: "snapshot" }),
    snapshotXz.verified,
  ]).then(([raw]) => {
    timings.snapshot = now(); // downloaded, checked and decoded
    return raw;
  });
  snapshot.catch(() => {});

  Promise.all([module, snapshot]).then(() => progress("python", 0.9), () => {});
  const wasmFailed = useWasm(module, async (mod, instance) => {
    fillFromSnapshot(mod, instance, await snapshot, BUILD.snapshotDataSection, BUILD.snapshotWasm);
  });
  try {
    await loaders;
  } catch (err) {
    throw stageError("pyodide", err);
  }
  // (A failure of this path's own copy of it is this path's: the wheel path takes over.)
  const factory = await createPyodideModule;
  const { loadPyodide } = await pyodideModule;
  // The snapshot is passed as a promise: Pyodide waits for it only to instantiate.
  const pyodide = await Promise.race([
    loadPyodide({
      indexURL,
      packageBaseUrl: indexURL,
      createPyodideModule: factory,
      _loadSnapshot: snapshot,
      stdLibURL: EMPTY_STDLIB_URL,
      lockFileContents: { info: BUILD.lockInfo, packages: {} },
      stdout: (text) => log("info", text),
      stderr: (text) => log("warn", text),
    }),
    wasmFailed,
    // A snapshot that fails before Pyodide instantiates: no need to wait for the rest.
    snapshot.then(() => new Promise(() => {})),
  ]);
  progress("import", 0.95);
  return pyodide;
}

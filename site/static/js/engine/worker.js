// Engine worker (module worker): starts Python from the build's memory snapshot (an
// interpreter that has already imported the engine), or, when the snapshot cannot be used,
// the long way: loads Pyodide, installs the engine wheel with micropip and imports `truco`.
// Then answers {id, method, params} requests by forwarding them as JSON to
// truco.api.handle(). Never touches the DOM; sends only plain data (Python returns JSON
// strings, parsed here), never Python proxies.
//
// Two ways to start, each downloading only its own files:
// - the snapshot path: snapshot/engine.snapshot.xz and snapshot/pyodide.asm.wasm.xz (made by
//   build.py; xz-decoded here while they download, with the vendored xz decoder), Pyodide's
//   two loader modules, no standard library (the snapshot holds every module the engine
//   uses: Pyodide gets an empty zip made here) and no lock file (its `info` comes from
//   build_info.js). The WebAssembly's data segments that the snapshot holds are zeroed in
//   that file; its custom section lists the memory ranges filled from the snapshot right
//   after instantiation, so the memory is what the stock module gives.
// - the wheel path (the fallback): Pyodide's stock files in pyodide/, micropip, the wheel.
//
// The downloads are checked against build_info.js (sha256 of the xz files where WebCrypto
// exists, decoded sizes) and by Pyodide itself (magic number, build id). If anything of the
// snapshot path fails (a file missing, truncated, corrupt, stalled, from another Pyodide, or
// Python from it does not answer), the worker logs why (a `log` event) and takes the wheel
// path: the page sees the same engine, only later. The `ready` event says which way it went:
// {type: "ready", version, pyodideVersion, start: "snapshot" | "wheel", timings}.
//
// Never hang: a download that moves no byte for STALL_MS (20 s; nothing else of the worker's
// downloads moving either) is aborted; on the snapshot path that means the fallback, on the
// wheel path (or for Pyodide's loader modules, which both paths need) a `failed` event, and
// the page offers "Tentar de novo". A slow download that keeps moving never times out.
// `progress` events follow the bytes of the big downloads.
//
// Test hooks (from the page's address): `worker.js?fail=pyodide` loads Pyodide from a folder
// that does not exist; `worker.js?snapshot=0` skips the snapshot; `worker.js?stall=2000` sets
// the stall limit in milliseconds.

const ROOT = new URL("../../../", import.meta.url); // dist/
// Where build.py puts Pyodide and the snapshot path's files (also in build_info.js, which is
// not waited for: the downloads start at once).
const PYODIDE_DIR = "pyodide/";
const SNAPSHOT_FILE = "snapshot/engine.snapshot.xz";
const SNAPSHOT_WASM_FILE = "snapshot/pyodide.asm.wasm.xz";
const DECODER = "../vendor/xz-decompress.js";
const PARAMS = new URL(self.location.href).searchParams;
const FAIL = PARAMS.get("fail");
const USE_SNAPSHOT = PARAMS.get("snapshot") !== "0";
const STALL_MS = Number(PARAMS.get("stall")) > 0 ? Number(PARAMS.get("stall")) : 20_000;

const realFetch = self.fetch.bind(self);
const realInstantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
const post = (msg) => self.postMessage(msg);
const log = (level, text) => post({ type: "log", level, text: String(text) });
// Milliseconds since the worker started, at the start of each stage (reported with `ready`),
// and the xz decoders' working time (`*DecodeMs`).
const timings = {};
const now = () => Math.round(performance.now());

// --- Watchdog -------------------------------------------------------------------------------
// Every download (and the loader modules' imports) is a job; when none of them has moved a
// byte for STALL_MS, the pending ones are aborted with a StallError.

class StallError extends Error {
  constructor() {
    super(`no byte received for ${STALL_MS / 1000} s`);
    this.name = "StallError";
  }
}

const jobs = new Set();
let lastMove = performance.now();
const moved = () => {
  lastMove = performance.now();
};
setInterval(() => {
  if (!jobs.size || performance.now() - lastMove < STALL_MS) return;
  const err = new StallError();
  for (const job of [...jobs]) job.abort(err);
}, Math.max(50, Math.min(1000, STALL_MS / 4)));

function addJob(abort) {
  const job = { abort: (err) => { jobs.delete(job); abort(err); } };
  jobs.add(job);
  moved();
  return () => jobs.delete(job);
}

/** A promise that rejects with a StallError if the watchdog fires before it settles. */
function guarded(promise) {
  let done;
  const stalled = new Promise((_, reject) => {
    done = addJob(reject);
  });
  const settled = promise.finally(() => done());
  return Promise.race([settled, stalled]);
}

// --- Downloads --------------------------------------------------------------------------------
// Bytes received per URL (the progress bar follows the current path's big files).
const received = new Map();
let expected = null; // Map of URL -> size for the current path, once build_info.js is in
let lastProgress = 0;
let stage = "pyodide";

function progress(name, fraction) {
  stage = name;
  timings[name] ??= now();
  post({ type: "progress", stage, fraction });
}

function byteProgress() {
  if (!expected) return;
  const t = performance.now();
  let got = 0;
  let total = 0;
  for (const [url, size] of expected) {
    got += Math.min(size, received.get(url) || 0);
    total += size;
  }
  if (!total || (t - lastProgress < 100 && got < total)) return;
  lastProgress = t;
  // Downloading fills the bar up to `expected.upTo`; starting Python does the rest.
  const fraction = 0.05 + (expected.upTo - 0.05) * (got / total);
  post({ type: "progress", stage, fraction, received: got, expected: total });
}

/**
 * fetch(), watched: the body is read as it arrives (so a download never waits for its
 * reader), counted, and aborted with a StallError when nothing moves. Resolves with a
 * Response whose body is the same bytes.
 */
function watchedFetch(url, init = {}) {
  const key = String(url);
  const controller = new AbortController();
  const done = addJob((err) => controller.abort(err));
  return realFetch(url, { ...init, signal: controller.signal }).then(
    (response) => {
      moved();
      if (!response.body) {
        done();
        return response;
      }
      const reader = response.body.getReader();
      const body = new ReadableStream({
        async start(sink) {
          try {
            for (;;) {
              const { done: end, value } = await reader.read();
              if (end) break;
              moved();
              received.set(key, (received.get(key) || 0) + value.byteLength);
              byteProgress();
              sink.enqueue(value);
            }
            sink.close();
          } catch (err) {
            sink.error(controller.signal.reason || err);
          } finally {
            done();
          }
        },
        cancel(reason) {
          done();
          return reader.cancel(reason);
        },
      }, { highWaterMark: Infinity });
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    (err) => {
      done();
      throw controller.signal.reason || err;
    },
  );
}

async function fetchOk(url) {
  const response = await watchedFetch(url);
  if (!response.ok) throw new Error(`${shortName(url)} answered HTTP ${response.status}`);
  return response;
}

async function fetchBytes(url) {
  return new Uint8Array(await (await fetchOk(url)).arrayBuffer());
}

const shortName = (url) => String(url).slice(ROOT.href.length) || String(url);
const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

// --- Pyodide's fetches ------------------------------------------------------------------------
// Pyodide's loader fetches the WebAssembly, the standard library and the lock file itself.
// Its fetch of the WebAssembly gets a stand-in and its instantiateStreaming() the module
// compiled here (a module is instantiated as often as needed); the files fetched ahead by a
// path are handed over (`handOver`); every other fetch is watched.

const indexURL = new URL(FAIL === "pyodide" ? "pyodide-missing/" : PYODIDE_DIR, ROOT).href;
const WASM_URL = indexURL + "pyodide.asm.wasm";
const STDLIB_URL = indexURL + "python_stdlib.zip";
const LOCK_URL = indexURL + "pyodide-lock.json";
// The snapshot path's standard library: an empty zip (its end-of-directory record only).
const EMPTY_STDLIB_URL = new URL("snapshot/empty-stdlib.zip", ROOT).href;
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

const handOver = new Map([[EMPTY_STDLIB_URL, () => new Response(EMPTY_ZIP)]]);
const standIns = new WeakSet();
self.fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (url === WASM_URL) {
    const standIn = new Response(null, { headers: { "Content-Type": "application/wasm" } });
    standIns.add(standIn);
    return Promise.resolve(standIn);
  }
  const ready = handOver.get(url);
  if (ready) return Promise.resolve(ready());
  return watchedFetch(input, init);
};

/**
 * The WebAssembly of the current path: {module (a promise), fill(instance) (optional, run
 * before Emscripten's constructors), fail(err)}. A failure to instantiate is reported through
 * `wasmFailed` (Pyodide's loader would only log it and wait for ever).
 */
let currentWasm = null;
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  if (!standIns.has(response)) return realInstantiateStreaming(response, imports);
  const wasm = currentWasm;
  try {
    const module = await wasm.module;
    const instance = await WebAssembly.instantiate(module, imports);
    if (wasm.fill) await wasm.fill(module, instance);
    return { module, instance };
  } catch (err) {
    wasm.fail(err);
    throw err;
  }
};

function useWasm(module, fill = null) {
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  module.catch(() => {});
  currentWasm = { module, fill, fail, failed };
  return failed;
}

/** Compile a response as it arrives; an ArrayBuffer compile when streaming fails. */
async function compileResponse(response, name, again) {
  try {
    return await WebAssembly.compileStreaming(response);
  } catch (err) {
    if (stopping) throw err; // cancelled on purpose
    log("warn", `${name}: streaming compile failed (${err.message || err}), compiling from a buffer`);
    return WebAssembly.compile(await again());
  }
}

// --- Start: everything the first deal needs starts now, in parallel ---------------------------

// Pyodide's two loader modules (the loader imports pyodide.asm.mjs later: the same module,
// already fetched and compiled). Both paths need them: if they fail, loading fails.
const pyodideModule = import(indexURL + "pyodide.mjs");
const loaders = guarded(Promise.all([pyodideModule, import(indexURL + "pyodide.asm.mjs")]));
loaders.catch(() => {});
// The generated file names and sizes (build_info.js).
const buildInfo = guarded(import("../build_info.js").then((m) => m.BUILD));
buildInfo.catch(() => {});
// The snapshot path's downloads and its decoder.
const early = USE_SNAPSHOT
  ? {
    snapshot: watchedFetch(new URL(SNAPSHOT_FILE, ROOT)),
    wasm: watchedFetch(new URL(SNAPSHOT_WASM_FILE, ROOT)),
    decoder: guarded(import(DECODER)),
  }
  : null;
for (const p of Object.values(early || {})) p.catch(() => {});
// Without the snapshot, the stock WebAssembly starts at once.
const earlyStockWasm = USE_SNAPSHOT ? null : watchedFetch(WASM_URL);
earlyStockWasm?.catch(() => {});

// Replies to requests that arrive while booting wait for this.
let call = null;
const booted = boot().then(
  (fn) => {
    call = fn;
  },
  async (err) => {
    // Stop what is still downloading or compiling before the page terminates this worker
    // (Chromium's renderer has been seen to crash when a worker is terminated in the middle
    // of a streaming compile).
    stopping = true;
    cancelSnapshotPath();
    for (const job of [...jobs]) job.abort(err);
    const compiling = [currentWasm?.module, snapshotModule].filter(Boolean);
    await Promise.race([Promise.allSettled(compiling), new Promise((r) => setTimeout(r, 3000))]);
    post({ type: "failed", stage: err.stage || "unknown", message: errorMessage(err), detail: String(err && err.stack || "") });
    throw err;
  },
);
booted.catch(() => {}); // reported above; requests see it through their own await

self.addEventListener("message", async (ev) => {
  const { id, method, params } = ev.data || {};
  if (typeof id !== "number") return;
  try {
    await booted;
  } catch (err) {
    post({ id, ok: false, error: `engine failed to load: ${errorMessage(err)}`, errorType: "LoadError" });
    return;
  }
  let request;
  try {
    request = JSON.stringify({ method, params: params ?? {} });
  } catch (err) {
    post({ id, ok: false, error: `params are not JSON: ${err.message}`, errorType: "TypeError" });
    return;
  }
  let reply;
  try {
    reply = JSON.parse(call(request));
  } catch (err) {
    // Never leave a request unanswered, whatever Python did.
    log("error", err && err.message || err);
    reply = { ok: false, error: errorMessage(err), errorType: "InternalError" };
  }
  reply.id = id;
  if (!reply.ok && reply.traceback) {
    log("error", reply.traceback);
    delete reply.traceback;
  }
  post(reply);
});

function stageError(stage, err) {
  const wrapped = err instanceof Error ? err : new Error(String(err));
  wrapped.stage ??= stage;
  return wrapped;
}

function errorMessage(err) {
  const text = String(err && err.message || err);
  // A PythonError's message is a whole traceback: keep its last line.
  const lines = text.trim().split("\n");
  return lines[lines.length - 1];
}

// Glue run in Python once `truco` is imported: one request in, one JSON reply out.
const PY_GLUE = `
import json
import truco, truco.api

def _truco_call(request_json):
    try:
        result = truco.api.handle(request_json)
    except ValueError as exc:
        return json.dumps({"ok": False, "error": str(exc), "errorType": type(exc).__name__})
    except Exception as exc:
        import traceback  # only on the rare path: it is slow to import in WebAssembly
        return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}",
                           "errorType": type(exc).__name__, "traceback": traceback.format_exc()})
    return '{"ok": true, "result": ' + result + '}'

_truco_call
`;

// Run once Python is up, on both paths. A snapshot's `random` state was drawn when the build
// made it and would be the same on every page: draw a fresh one.
const PY_AFTER_START = `
import random
random.seed()
`;

// --- The snapshot path ------------------------------------------------------------------------

/**
 * An xz download, decoded as it arrives. Returns {decoded: a ReadableStream of the decoded
 * bytes (errors if the download fails or does not decode), verified: a promise that resolves
 * once the compressed bytes are all in and match `sha256`, packed(): the compressed bytes}.
 * Adds the decoder's working time to timings[`${label}DecodeMs`].
 */
function xzDownload(responsePromise, { name, sha256, label, XzReadableStream }) {
  const chunks = [];
  let packedLength = 0;
  let waiting = null; // the decoder's pull, waiting for the next chunk
  let ended = false;
  let failure = null;
  let waitMs = 0;
  const wake = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  let nextChunk = 0;
  const input = new ReadableStream({
    async pull(sink) {
      if (nextChunk >= chunks.length && !ended && !failure) {
        const t = performance.now();
        await new Promise((resolve) => {
          waiting = resolve;
        });
        waitMs += performance.now() - t;
      }
      if (nextChunk < chunks.length) sink.enqueue(chunks[nextChunk++]);
      else if (failure) sink.error(failure);
      else sink.close();
    },
  }, { highWaterMark: 0 });
  // Read the whole download as it comes (whatever the decoder's pace).
  let reader = null;
  const packedDone = (async () => {
    const response = await responsePromise;
    if (!response.ok) throw new Error(`${name} answered HTTP ${response.status}`);
    reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      packedLength += value.byteLength;
      wake();
    }
    ended = true;
    wake();
    timings[`${label}Downloaded`] = now();
  })();
  packedDone.catch((err) => {
    failure = err;
    wake();
  });
  const verified = packedDone.then(async () => {
    if (!self.crypto?.subtle) {
      // Plain http on another host than localhost: no WebCrypto. The xz checks (CRC32 of
      // each block), the decoded size and Pyodide's build id still apply.
      log("info", `${name}: sha256 not checked (not a secure context)`);
      return;
    }
    const digest = hex(await crypto.subtle.digest("SHA-256", packed()));
    if (digest !== sha256) {
      throw new Error(`${name} is not this build's (${packedLength} bytes, sha256 ${digest.slice(0, 12)}…)`);
    }
  });
  verified.catch(() => {});
  function packed() {
    const all = new Uint8Array(packedLength);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.byteLength;
    }
    return all;
  }
  // The decoder's own time: reading its output, less the time it waited for the network.
  const source = new XzReadableStream(input).getReader();
  let busyMs = 0;
  const decoded = new ReadableStream({
    async pull(sink) {
      const t = performance.now();
      const before = waitMs;
      let result;
      try {
        result = await source.read();
      } catch (err) {
        throw failure || new Error(`${name} does not decode: ${err.message || err}`);
      } finally {
        busyMs += performance.now() - t - (waitMs - before);
        timings[`${label}DecodeMs`] = Math.round(busyMs);
      }
      if (result.done) sink.close();
      else sink.enqueue(result.value);
    },
  }, { highWaterMark: 0 });
  const cancel = () => {
    reader?.cancel().catch(() => {});
    source.cancel().catch(() => {});
  };
  return { decoded, verified, packed, cancel };
}

/** Read a stream into one buffer of exactly `size` bytes (rejects otherwise). */
async function readExactly(stream, size, name) {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > size) throw new Error(`${name} decodes to more than ${size} bytes`);
    out.set(value, at);
    at += value.byteLength;
  }
  if (at !== size) throw new Error(`${name} decodes to ${at} bytes, not ${size}`);
  return out;
}

/** Fill the memory ranges the build listed (custom section) from the snapshot's memory. */
function fillFromSnapshot(module, instance, snapshot, section) {
  const sections = WebAssembly.Module.customSections(module, section);
  if (sections.length !== 1) throw new Error(`${SNAPSHOT_WASM_FILE} has no ${section} section`);
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

// Stops the snapshot path's downloads (after a fallback or a failure), and its WebAssembly.
let cancelSnapshotPath = () => {};
let snapshotModule = null;
let stopping = false;

/** Python with the engine imported, from the memory snapshot. */
async function startFromSnapshot(BUILD) {
  expected = Object.assign(new Map([
    [new URL(BUILD.snapshot, ROOT).href, BUILD.snapshotXzSize],
    [new URL(BUILD.snapshotWasm, ROOT).href, BUILD.snapshotWasmXzSize],
  ]), { upTo: 0.9 });
  byteProgress();
  let XzReadableStream;
  try {
    XzReadableStream = (await early.decoder).makeXzReadableStream;
  } catch (err) {
    throw new Error(`the xz decoder did not load: ${err.message || err}`);
  }
  const wasmXz = xzDownload(early.wasm, {
    name: BUILD.snapshotWasm, sha256: BUILD.snapshotWasmSha256, label: "wasm", XzReadableStream: XzReadableStream(),
  });
  const snapshotXz = xzDownload(early.snapshot, {
    name: BUILD.snapshot, sha256: BUILD.snapshotSha256, label: "snapshot", XzReadableStream: XzReadableStream(),
  });
  cancelSnapshotPath = () => {
    wasmXz.cancel();
    snapshotXz.cancel();
  };

  // The WebAssembly, compiled as it is decoded (checked before it is instantiated).
  const [forCompile, forSize] = wasmXz.decoded.tee();
  const size = readExactly(forSize, BUILD.snapshotWasmSize, BUILD.snapshotWasm);
  size.catch(() => {});
  const compiled = compileResponse(
    new Response(forCompile, { headers: { "Content-Type": "application/wasm" } }),
    BUILD.snapshotWasm,
    async () => {
      await wasmXz.verified;
      const again = xzDownload(Promise.resolve(new Response(wasmXz.packed())), {
        name: BUILD.snapshotWasm, sha256: BUILD.snapshotWasmSha256, label: "wasmAgain", XzReadableStream: XzReadableStream(),
      });
      return readExactly(again.decoded, BUILD.snapshotWasmSize, BUILD.snapshotWasm);
    },
  );
  snapshotModule = compiled;
  const module = Promise.all([compiled, size, wasmXz.verified]).then(([m]) => {
    timings.wasm = now();
    return m;
  });

  // The snapshot's raw bytes, checked.
  const snapshot = Promise.all([
    readExactly(snapshotXz.decoded, BUILD.snapshotSize, BUILD.snapshot), snapshotXz.verified,
  ]).then(([raw]) => {
    timings.snapshot = now(); // downloaded, checked and decoded
    return raw;
  });
  snapshot.catch(() => {});

  Promise.all([module, snapshot]).then(() => progress("python", 0.9), () => {});
  const wasmFailed = useWasm(module, async (mod, instance) => {
    fillFromSnapshot(mod, instance, await snapshot, BUILD.snapshotDataSection);
  });
  try {
    await loaders;
  } catch (err) {
    throw stageError("pyodide", err);
  }
  const { loadPyodide } = await pyodideModule;
  // The snapshot is passed as a promise: Pyodide waits for it only to instantiate.
  const pyodide = await Promise.race([
    loadPyodide({
      indexURL,
      packageBaseUrl: indexURL,
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

// --- The wheel path ---------------------------------------------------------------------------

/** Python without the snapshot: load micropip, install the engine wheel, import it. */
async function startFromWheel(BUILD) {
  const micropipURL = new URL(BUILD.micropipWheel, ROOT).href;
  const engineURL = new URL(BUILD.engineWheel, ROOT).href;
  const engineName = BUILD.engineWheel.split("/").pop();
  expected = Object.assign(new Map([
    [WASM_URL, BUILD.wasmSize],
    [STDLIB_URL, BUILD.stdlibSize],
  ]), { upTo: 0.7 });
  byteProgress();

  // Everything starts now: the WebAssembly (compiled as it arrives), the standard library,
  // the lock file, our wheel (micropip installs it from the in-memory file system).
  const wasmResponse = earlyStockWasm || watchedFetch(WASM_URL);
  const wasmModule = wasmResponse.then(async (response) => {
    if (!response.ok) throw new Error(`pyodide.asm.wasm answered HTTP ${response.status}`);
    const copy = response.clone();
    return compileResponse(response, "pyodide.asm.wasm", () => copy.arrayBuffer());
  });
  const wasmFailed = useWasm(wasmModule);
  const stdlib = fetchBytes(STDLIB_URL);
  const lock = fetchOk(LOCK_URL).then((r) => r.json());
  const engineBytes = fetchBytes(engineURL);
  for (const p of [stdlib, lock, engineBytes]) p.catch(() => {});
  Promise.all([wasmModule, stdlib]).then(() => progress("python", 0.7), () => {});

  let pyodide;
  try {
    await loaders;
    const { loadPyodide } = await pyodideModule;
    const stdlibBytes = await stdlib;
    handOver.set(STDLIB_URL, () => new Response(stdlibBytes));
    pyodide = await Promise.race([
      loadPyodide({
        indexURL,
        packageBaseUrl: indexURL,
        lockFileContents: await lock,
        stdout: (text) => log("info", text),
        stderr: (text) => log("warn", text),
      }),
      wasmFailed,
    ]);
  } catch (err) {
    throw stageError("pyodide", err);
  }

  progress("micropip", 0.75);
  try {
    await pyodide.loadPackage(micropipURL, {
      messageCallback: (text) => log("info", text),
      errorCallback: (text) => log("warn", text),
      checkIntegrity: false,
    });
    if (!pyodide.loadedPackages.micropip) throw new Error("micropip did not load");
  } catch (err) {
    throw stageError("micropip", err);
  }

  progress("engine", 0.85);
  try {
    const wheelPath = `/tmp/${engineName}`;
    pyodide.FS.writeFile(wheelPath, await engineBytes);
    const micropip = pyodide.pyimport("micropip");
    try {
      await micropip.install(`emfs:${wheelPath}`);
    } finally {
      micropip.destroy();
    }
  } catch (err) {
    throw stageError("engine", err);
  }
  progress("import", 0.95);
  return pyodide;
}

// --- Boot -------------------------------------------------------------------------------------

/** The engine's entry point in a started Python, checked with a `version` request. */
function engineCall(pyodide) {
  pyodide.runPython(PY_AFTER_START);
  const callPy = pyodide.runPython(PY_GLUE);
  const call = (request) => callPy(request);
  const reply = JSON.parse(call(JSON.stringify({ method: "version", params: {} })));
  if (!reply.ok) throw new Error(`the engine does not answer: ${reply.error}`);
  return { call, version: reply.result.version };
}

async function boot() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw stageError("webassembly", new Error("WebAssembly is not available in this browser"));
  }
  progress("pyodide", 0.05);

  let BUILD;
  try {
    BUILD = await buildInfo;
  } catch (err) {
    throw stageError("worker", err);
  }

  if (USE_SNAPSHOT) {
    try {
      const pyodide = await startFromSnapshot(BUILD);
      const { call, version } = engineCall(pyodide);
      if (version !== BUILD.engineVersion) {
        throw new Error(`the snapshot holds engine ${version}, this build has ${BUILD.engineVersion}`);
      }
      return ready(pyodide, call, version, "snapshot");
    } catch (err) {
      // Pyodide's loader modules are needed by both paths: no fallback without them.
      if (err.stage === "pyodide") throw err;
      // Not an error for the page: the wheel gives the same engine.
      const why = err && err.name === "PythonError" ? errorMessage(err) : String(err && err.message || err).replace(/\s+/g, " ");
      log("warn", `snapshot not used, starting from the wheel: ${why.trim()}`);
      timings.fallback = now();
      // Whatever of the snapshot path is still downloading is not needed any more.
      cancelSnapshotPath();
    }
  } else {
    log("info", "snapshot skipped (?snapshot=0): starting from the wheel");
  }

  const pyodide = await startFromWheel(BUILD);
  let engine;
  try {
    engine = engineCall(pyodide);
  } catch (err) {
    throw stageError("import", err);
  }
  return ready(pyodide, engine.call, engine.version, "wheel");
}

function ready(pyodide, call, version, start) {
  timings.ready = now();
  post({ type: "ready", version, pyodideVersion: pyodide.version, start, timings });
  return call;
}

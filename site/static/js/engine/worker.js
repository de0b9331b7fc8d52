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
//
// Split by concern. A module worker fetches its whole static import graph before it runs any
// of it, so this module imports nothing statically: it holds what must run at once (the test
// hooks, the watchdog, the watched fetch and byte progress, Pyodide's fetch hooks, the
// downloads' kick-off, the request loop) and imports the start-up modules while the downloads
// run: worker_start.js (which path, the Python glue, `ready`), worker_snapshot.js (the
// snapshot path), worker_xz.js (xz download, decode and check) and worker_wheel.js (the
// wheel path). They get what they need from this module through `shared`.

const ROOT = new URL("../../../", import.meta.url); // dist/
// Where build.py puts Pyodide and the snapshot path's files (also in build_info.js, which is
// not waited for: the downloads start at once).
const PYODIDE_DIR = "pyodide/";
const SNAPSHOT_FILE = "snapshot/engine.snapshot.xz";
const SNAPSHOT_WASM_FILE = "snapshot/pyodide.asm.wasm.xz";
const SNAPSHOT_LOADER_FILE = "snapshot/pyodide.asm.mjs.xz";
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

/** The current path's big downloads (Map of URL -> size), which fill the bar up to `upTo`. */
function expectBytes(sizes, upTo) {
  expected = Object.assign(sizes, { upTo });
  byteProgress();
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
let stopping = false; // set when the start has failed: what is cancelled then is no error
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

// Pyodide's loader (pyodide.mjs): both paths need it; if it fails, loading fails. Emscripten's
// module, pyodide.asm.mjs (1.25 MB), comes xz'd on the snapshot path (0.2 MB: many hosts
// compress nothing; worker_snapshot.js decodes and imports it); the wheel path imports the
// plain file (stockLoaders(): the loader imports it later, the same module, already fetched).
const pyodideModule = import(indexURL + "pyodide.mjs");
let stockLoadersStarted = null;
const stockLoaders = () => {
  stockLoadersStarted ||= guarded(Promise.all([pyodideModule, import(indexURL + "pyodide.asm.mjs")]));
  return stockLoadersStarted;
};
const loaders = USE_SNAPSHOT ? guarded(pyodideModule) : stockLoaders();
loaders.catch(() => {});
// The generated file names and sizes (build_info.js).
const buildInfo = guarded(import("../build_info.js").then((m) => m.BUILD));
buildInfo.catch(() => {});
// The snapshot path's downloads and its decoder.
const early = USE_SNAPSHOT
  ? {
    snapshot: watchedFetch(new URL(SNAPSHOT_FILE, ROOT)),
    wasm: watchedFetch(new URL(SNAPSHOT_WASM_FILE, ROOT)),
    loader: watchedFetch(new URL(SNAPSHOT_LOADER_FILE, ROOT)),
    decoder: guarded(import(DECODER)),
  }
  : null;
for (const p of Object.values(early || {})) p.catch(() => {});
// Without the snapshot, the stock WebAssembly starts at once.
const earlyStockWasm = USE_SNAPSHOT ? null : watchedFetch(WASM_URL);
earlyStockWasm?.catch(() => {});
// The start-up modules (no download waits for them).
const startModule = guarded(import("./worker_start.js"));
startModule.catch(() => {});

// What the start-up modules share with this one. `snapshotPath` is the snapshot path's, set
// once it runs: cancel() stops its downloads (after a fallback or a failure), `module` is its
// WebAssembly's compile.
const shared = {
  ROOT, indexURL, WASM_URL, STDLIB_URL, LOCK_URL, EMPTY_STDLIB_URL, USE_SNAPSHOT,
  loaders, stockLoaders, pyodideModule, early, earlyStockWasm, handOver,
  timings, now, post, log, progress, expectBytes, watchedFetch, fetchOk, fetchBytes,
  useWasm, compileResponse, stageError, errorMessage,
  snapshotPath: { cancel: () => {}, module: null },
  // Test hooks of the snapshot's decoding worker (worker_xz.js): `?fail=xz-job` (its script
  // missing), `?fail=xz-job-hang` (its script never starts).
  xzJobFault: FAIL === "xz-job" || FAIL === "xz-job-hang" ? FAIL : null,
};

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
    shared.snapshotPath.cancel();
    for (const job of [...jobs]) job.abort(err);
    const compiling = [currentWasm?.module, shared.snapshotPath.module].filter(Boolean);
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

// --- Boot -------------------------------------------------------------------------------------

async function boot() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw stageError("webassembly", new Error("WebAssembly is not available in this browser"));
  }
  progress("pyodide", 0.05);

  let BUILD;
  let startEngine;
  try {
    BUILD = await buildInfo;
    ({ startEngine } = await startModule);
  } catch (err) {
    throw stageError("worker", err);
  }
  return startEngine(shared, BUILD);
}

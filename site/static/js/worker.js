// Engine worker (module worker): starts Python from the build's memory snapshot (an
// interpreter that has already imported the engine), or, when the snapshot cannot be used,
// the long way: loads Pyodide, installs the engine wheel with micropip and imports `truco`.
// Then answers {id, method, params} requests by forwarding them as JSON to
// truco.api.handle(). Never touches the DOM; sends only plain data (Python returns JSON
// strings, parsed here), never Python proxies.
//
// The snapshot (snapshot/engine.snapshot.gz, made by build.py under Node) is checked against
// build_info.js (sha256 of the gzip, raw size) and by Pyodide itself (magic number, build
// id). If it is missing, truncated, corrupt or from another Pyodide, or if Python from it
// does not answer, the worker logs why (a `log` event) and starts from the wheel: the page
// sees the same engine, only later. The `ready` event says which way it went:
// {type: "ready", version, pyodideVersion, start: "snapshot" | "wheel", timings}.
//
// Test hooks (from the page's address): `worker.js?fail=pyodide` loads Pyodide from a folder
// that does not exist; `worker.js?snapshot=0` skips the snapshot.

const ROOT = new URL("../../", import.meta.url); // dist/
// Where build.py puts Pyodide and the snapshot (also in build_info.js, which is not waited
// for: their downloads start at once).
const PYODIDE_DIR = "pyodide/";
const SNAPSHOT_FILE = "snapshot/engine.snapshot.gz";
const PARAMS = new URL(self.location.href).searchParams;
const FAIL = PARAMS.get("fail");
const USE_SNAPSHOT = PARAMS.get("snapshot") !== "0";

// Everything the first deal needs starts now, in parallel: the snapshot download, Pyodide's
// two loader modules (the loader imports pyodide.asm.mjs later: the same module, already
// fetched and compiled), and the file names (build_info.js).
const indexURL = new URL(FAIL === "pyodide" ? "pyodide-missing/" : PYODIDE_DIR, ROOT).href;
const snapshotResponse = USE_SNAPSHOT ? fetch(new URL(SNAPSHOT_FILE, ROOT)) : null;
snapshotResponse?.catch(() => {});
const pyodideModule = import(indexURL + "pyodide.mjs");
pyodideModule.catch(() => {});
import(indexURL + "pyodide.asm.mjs").catch(() => {});
// The generated file names (wheels), loaded while Pyodide starts rather than before.
const buildInfo = import("./build_info.js").then((m) => m.BUILD);
buildInfo.catch(() => {});

// Pyodide's WebAssembly, downloaded and compiled from now on. The loader would fetch it when
// loadPyodide() is called and compile it only once the snapshot is in (it instantiates
// after); instead, its fetch of the binary gets a stand-in and its instantiateStreaming()
// this module (a module is instantiated as often as needed: the fallback reuses it).
const WASM_URL = indexURL + "pyodide.asm.wasm";
const wasmModule = WebAssembly.compileStreaming(fetch(WASM_URL));
wasmModule.catch(() => {});
const realFetch = self.fetch.bind(self);
const realInstantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
const standIns = new WeakSet();
self.fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input) !== WASM_URL) return realFetch(input, init);
  const standIn = new Response(null, { headers: { "Content-Type": "application/wasm" } });
  standIns.add(standIn);
  return Promise.resolve(standIn);
};
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  if (!standIns.has(response)) return realInstantiateStreaming(response, imports);
  let module;
  try {
    module = await wasmModule;
  } catch {
    return realInstantiateStreaming(realFetch(WASM_URL), imports); // a second chance
  }
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

const post = (msg) => self.postMessage(msg);
// Milliseconds since the worker started, at the start of each stage (reported with `ready`).
const timings = {};
const progress = (stage, fraction) => {
  timings[stage] = Math.round(performance.now());
  post({ type: "progress", stage, fraction });
};
const log = (level, text) => post({ type: "log", level, text: String(text) });

// Replies to requests that arrive while booting wait for this.
let call = null;
const booted = boot().then(
  (fn) => {
    call = fn;
  },
  (err) => {
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
  const reply = JSON.parse(call(request));
  reply.id = id;
  if (!reply.ok && reply.traceback) {
    log("error", reply.traceback);
    delete reply.traceback;
  }
  post(reply);
});

function stageError(stage, err) {
  const wrapped = err instanceof Error ? err : new Error(String(err));
  wrapped.stage = stage;
  return wrapped;
}

function errorMessage(err) {
  const text = String(err && err.message || err);
  // A PythonError's message is a whole traceback: keep its last line.
  const lines = text.trim().split("\n");
  return lines[lines.length - 1];
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
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

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

/** The snapshot's raw bytes, checked against the build; rejects with the reason otherwise. */
async function snapshotBytes() {
  const response = await snapshotResponse;
  if (!response.ok) throw new Error(`${SNAPSHOT_FILE} answered HTTP ${response.status}`);
  const BUILD = await buildInfo;
  // Inflate while it downloads; keep the gzip bytes too, for the hash.
  const [forHash, forInflate] = response.body.tee();
  const packedP = new Response(forHash).arrayBuffer();
  const rawP = new Response(forInflate.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  rawP.catch(() => {});
  const packed = new Uint8Array(await packedP);
  if (packed.length === BUILD.snapshotSize && !(packed[0] === 0x1f && packed[1] === 0x8b)) {
    // A host that served the file with Content-Encoding: gzip; the browser inflated it.
    // Pyodide still checks its magic number and build id.
    return packed;
  }
  if (self.crypto?.subtle) {
    const digest = hex(await crypto.subtle.digest("SHA-256", packed));
    if (digest !== BUILD.snapshotSha256) {
      throw new Error(`${SNAPSHOT_FILE} is not this build's (${packed.length} bytes, sha256 ${digest.slice(0, 12)}…)`);
    }
  } else {
    // Plain http on another host than localhost: no WebCrypto. The gzip check, the size and
    // Pyodide's build id still apply.
    log("info", `${SNAPSHOT_FILE}: sha256 not checked (not a secure context)`);
  }
  let raw;
  try {
    raw = new Uint8Array(await rawP);
  } catch (err) {
    throw new Error(`${SNAPSHOT_FILE} does not inflate: ${err.message || err}`);
  }
  if (raw.length !== BUILD.snapshotSize) {
    throw new Error(`${SNAPSHOT_FILE} inflates to ${raw.length} bytes, not ${BUILD.snapshotSize}`);
  }
  timings.snapshot = Math.round(performance.now()); // downloaded, checked and inflated
  return raw;
}

/** Python with the engine imported, from the memory snapshot. */
async function startFromSnapshot() {
  const { loadPyodide } = await pyodideModule;
  progress("python", 0.15);
  // The snapshot is passed as a promise: Pyodide fetches its WebAssembly and standard
  // library meanwhile, and waits for the snapshot only to instantiate.
  const snapshot = snapshotBytes();
  snapshot.catch(() => {});
  const pyodide = await loadPyodide({
    indexURL,
    packageBaseUrl: indexURL,
    _loadSnapshot: snapshot,
    stdout: (text) => log("info", text),
    stderr: (text) => log("warn", text),
  });
  progress("import", 0.95);
  return pyodide;
}

/** Python without the snapshot: load micropip, install the engine wheel, import it. */
async function startFromWheel(BUILD) {
  const micropipURL = new URL(BUILD.micropipWheel, ROOT).href;
  const engineURL = new URL(BUILD.engineWheel, ROOT).href;
  const engineName = BUILD.engineWheel.split("/").pop();

  // Fetch our wheel while Pyodide starts; micropip installs it from the in-memory file system.
  const engineBytes = fetchBytes(engineURL);
  engineBytes.catch(() => {});

  let pyodide;
  try {
    const { loadPyodide } = await pyodideModule;
    progress("python", 0.15);
    pyodide = await loadPyodide({
      indexURL,
      packageBaseUrl: indexURL,
      stdout: (text) => log("info", text),
      stderr: (text) => log("warn", text),
    });
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
      const pyodide = await startFromSnapshot();
      const { call, version } = engineCall(pyodide);
      if (version !== BUILD.engineVersion) {
        throw new Error(`the snapshot holds engine ${version}, this build has ${BUILD.engineVersion}`);
      }
      return ready(pyodide, call, version, "snapshot");
    } catch (err) {
      // Not an error for the page: the wheel gives the same engine.
      const why = err && err.name === "PythonError" ? errorMessage(err) : String(err && err.message || err).replace(/\s+/g, " ");
      log("warn", `snapshot not used, starting from the wheel: ${why.trim()}`);
      timings.fallback = Math.round(performance.now());
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
  timings.ready = Math.round(performance.now());
  post({ type: "ready", version, pyodideVersion: pyodide.version, start, timings });
  return call;
}

// Engine worker (module worker): loads Pyodide from our own files, installs the engine
// wheel with micropip, imports `truco`, then answers {id, method, params} requests by
// forwarding them as JSON to truco.api.handle(). Never touches the DOM; sends only plain
// data (Python returns JSON strings, parsed here), never Python proxies.
//
// Test hook: `worker.js?fail=pyodide` loads Pyodide from a folder that does not exist.

const ROOT = new URL("../../", import.meta.url); // dist/
// Where build.py puts Pyodide (also in build_info.js, which is not waited for to start it).
const PYODIDE_DIR = "pyodide/";
// The generated file names (wheels), loaded while Pyodide starts rather than before.
const buildInfo = import("./build_info.js").then((m) => m.BUILD);
buildInfo.catch(() => {});
const FAIL = new URL(self.location.href).searchParams.get("fail");

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

async function boot() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw stageError("webassembly", new Error("WebAssembly is not available in this browser"));
  }
  const indexURL = new URL(FAIL === "pyodide" ? "pyodide-missing/" : PYODIDE_DIR, ROOT).href;
  progress("pyodide", 0.05);
  const pyodideModule = import(indexURL + "pyodide.mjs");
  pyodideModule.catch(() => {});

  let BUILD;
  try {
    BUILD = await buildInfo;
  } catch (err) {
    throw stageError("worker", err);
  }
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
  let callPy;
  try {
    callPy = pyodide.runPython(PY_GLUE);
  } catch (err) {
    throw stageError("import", err);
  }
  const call = (request) => callPy(request);
  const { version } = JSON.parse(call(JSON.stringify({ method: "version", params: {} }))).result;
  timings.ready = Math.round(performance.now());
  post({ type: "ready", version, pyodideVersion: pyodide.version, timings });
  return call;
}

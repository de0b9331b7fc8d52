// Starts the engine worker as early as the page can: this module is loaded with `async`
// ahead of main.js, so Pyodide starts loading while the table's modules and styles arrive.
// main.js imports the same instance (`client`) and attaches its handlers; events that came
// before are replayed to them (see EngineClient.setHandlers).
//
// A page marked `<html data-engine-start="touch">` (the tutorial, the embed) does not start
// it here: it calls startEngine() on the reader's first touch (engine_status.js). Whenever
// the worker is started, `<html data-engine-started>` is set and a `truco:engine-start`
// event is sent to `window` (what the service worker's precache waits for, see pwa.js); once
// it is ready, `<html data-engine-path>` says which start-up path it took.

import { EngineClient } from "./engine_client.js";

/**
 * The worker's URL; carries the test hooks `?fail=pyodide` (a failed load), `?snapshot=0`
 * (start without the memory snapshot) and `?stall=MS` (the worker's stall limit) from the
 * page's address.
 */
export function workerURL() {
  const url = new URL("worker.js", import.meta.url);
  const query = new URLSearchParams(location.search);
  for (const hook of ["fail", "snapshot", "stall"]) {
    if (query.get(hook)) url.searchParams.set(hook, query.get(hook));
  }
  return url;
}

// The worker's modules besides worker.js (which imports them all dynamically), Pyodide's two
// loader modules among them: what a retry downloads again past the HTTP cache before it starts
// a new worker (EngineClient.start's `refresh`). tests/build/test_build.py holds this list
// equal to the modules the worker script imports.
export const WORKER_MODULES = Object.freeze([
  "worker_start.js", "worker_snapshot.js", "worker_xz.js", "worker_wheel.js", "../build_info.js",
  "../vendor/xz-decompress.js", "../../../pyodide/pyodide.mjs", "../../../pyodide/pyodide.asm.mjs",
  "xz_job.js", // the script of the worker that decodes the snapshot beside it (worker_xz.js)
]);

/** The worker's scripts: its own URL as started, then its modules. */
export function workerScripts(url = workerURL()) {
  return [String(url), ...WORKER_MODULES.map((rel) => new URL(rel, import.meta.url).href)];
}

/** Why the engine cannot run in this browser at all, or null. */
export function missingFeature() {
  if (typeof WebAssembly !== "object") {
    return { stage: "webassembly", message: "WebAssembly is not available", detail: "" };
  }
  if (typeof Worker !== "function") {
    return { stage: "worker", message: "Web Workers are not available", detail: "" };
  }
  return null;
}

/**
 * (Re)start the worker; reports a missing feature as a failure instead. A start after a
 * failure (the page's "Tentar de novo") first downloads the worker's scripts again past the
 * HTTP cache: the failure may have been one of them, cut short, kept there.
 */
export function startEngine() {
  const retry = client.state === "failed";
  client.workerURL = workerURL();
  const missing = missingFeature();
  if (missing) {
    client.fail(missing);
    return;
  }
  performance.mark("engine-start");
  client.start(retry ? { refresh: workerScripts(client.workerURL) } : {});
  document.documentElement.dataset.engineStarted = "";
  window.dispatchEvent(new Event("truco:engine-start"));
}

export const client = new EngineClient(workerURL());
// `<html data-engine-path>`: the start-up path the worker took, whose files the service
// worker precaches for offline play (pwa.js), and only those.
client.onStartedFrom = (path) => {
  if (path) document.documentElement.dataset.enginePath = path;
};
// Test hook: `?call_limit=MS` gives every engine call that time limit (engine_client.js).
const callLimit = Number(new URLSearchParams(location.search).get("call_limit"));
if (callLimit > 0) client.limitOverride = callLimit;
// A guest at a friends' table (`?join=1`, friends/guest.js) runs no engine: the host's does.
const joining = new URLSearchParams(location.search).has("join");
if (document.documentElement.dataset.engineStart !== "touch" && !joining) startEngine();

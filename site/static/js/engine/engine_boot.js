// Starts the engine worker as early as the page can: this module is loaded with `async`
// ahead of main.js, so Pyodide starts loading while the table's modules and styles arrive.
// main.js imports the same instance (`client`) and attaches its handlers; events that came
// before are replayed to them (see EngineClient.setHandlers).
//
// A page marked `<html data-engine-start="touch">` (the tutorial, the embed) does not start
// it here: it calls startEngine() on the reader's first touch (engine_status.js). Whenever
// the worker is started, `<html data-engine-started>` is set and a `truco:engine-start`
// event is sent to `window` (what the service worker's precache waits for, see pwa.js).

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

/** (Re)start the worker; reports a missing feature as a failure instead. */
export function startEngine() {
  client.workerURL = workerURL();
  const missing = missingFeature();
  if (missing) {
    client.fail(missing);
    return;
  }
  performance.mark("engine-start");
  client.start();
  document.documentElement.dataset.engineStarted = "";
  window.dispatchEvent(new Event("truco:engine-start"));
}

export const client = new EngineClient(workerURL());
// Test hook: `?call_limit=MS` gives every engine call that time limit (engine_client.js).
const callLimit = Number(new URLSearchParams(location.search).get("call_limit"));
if (callLimit > 0) client.limitOverride = callLimit;
// A guest at a friends' table (`?join=1`, friends/guest.js) runs no engine: the host's does.
const joining = new URLSearchParams(location.search).has("join");
if (document.documentElement.dataset.engineStart !== "touch" && !joining) startEngine();

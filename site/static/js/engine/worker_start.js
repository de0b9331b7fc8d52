// The engine worker's start-up (worker.js loads this module while its downloads run): takes
// the snapshot path (worker_snapshot.js), or the wheel path (worker_wheel.js) when the
// snapshot cannot be used or is skipped, checks the engine with a `version` request, and
// sends `ready`. `shared` is what worker.js hands its start-up modules.

import { startFromSnapshot } from "./worker_snapshot.js";
import { startFromWheel } from "./worker_wheel.js";

// Glue run in Python once `truco` is imported: one request in, one strict JSON reply out
// (truco.api.reply: the envelope, the error's class and whether it is bad input).
const PY_GLUE = `
import truco, truco.api

truco.api.reply
`;

// Run once Python is up, on both paths. A snapshot's `random` state was drawn when the build
// made it and would be the same on every page: draw a fresh one.
const PY_AFTER_START = `
import random
random.seed()
`;

/** The engine's entry point in a started Python, checked with a `version` request. */
function engineCall(pyodide) {
  pyodide.runPython(PY_AFTER_START);
  const callPy = pyodide.runPython(PY_GLUE);
  const call = (request) => callPy(request);
  const reply = JSON.parse(call(JSON.stringify({ method: "version", params: {} })));
  if (!reply.ok) throw new Error(`the engine does not answer: ${reply.error}`);
  return { call, version: reply.result.version };
}

/**
 * Python with the engine, by the snapshot path or the wheel path; sends `ready` and resolves
 * with the engine's call(request JSON) -> reply JSON.
 */
export async function startEngine(shared, BUILD) {
  const { USE_SNAPSHOT, timings, now, log, stageError, errorMessage } = shared;
  if (USE_SNAPSHOT) {
    try {
      const pyodide = await startFromSnapshot(shared, BUILD);
      const { call, version } = engineCall(pyodide);
      if (version !== BUILD.engineVersion) {
        throw new Error(`the snapshot holds engine ${version}, this build has ${BUILD.engineVersion}`);
      }
      return ready(shared, pyodide, call, version, "snapshot");
    } catch (err) {
      // Pyodide's loader modules are needed by both paths: no fallback without them.
      if (err.stage === "pyodide") throw err;
      // Not an error for the page: the wheel gives the same engine.
      const why = err && err.name === "PythonError" ? errorMessage(err) : String(err && err.message || err).replace(/\s+/g, " ");
      log("warn", `snapshot not used, starting from the wheel: ${why.trim()}`);
      timings.fallback = now();
      // Whatever of the snapshot path is still downloading is not needed any more.
      shared.snapshotPath.cancel();
    }
  } else {
    log("info", "snapshot skipped (?snapshot=0): starting from the wheel");
  }

  const pyodide = await startFromWheel(shared, BUILD);
  let engine;
  try {
    engine = engineCall(pyodide);
  } catch (err) {
    throw stageError("import", err);
  }
  return ready(shared, pyodide, engine.call, engine.version, "wheel");
}

function ready({ timings, now, post }, pyodide, call, version, start) {
  timings.ready = now();
  post({ type: "ready", version, pyodideVersion: pyodide.version, start, timings });
  return call;
}

// Promise RPC to the engine worker.
//
// Page -> worker: {id, method, params}
// Worker -> page, replies:  {id, ok: true, result} | {id, ok: false, error, errorType}
// Worker -> page, events:   {type: "progress", stage, text, fraction}
//                           {type: "ready", version, pyodideVersion, start, timings}
//                             (start: "snapshot" | "wheel", the way Python was started)
//                           {type: "failed", stage, message, detail}
//                           {type: "log", level, text}
// Replies carry an `id` and never a `type`; events carry a `type` and never an `id`.

export class EngineError extends Error {
  constructor(message, { errorType = "Error", method = "" } = {}) {
    super(message);
    this.name = "EngineError";
    this.errorType = errorType;
    this.method = method;
  }
}

export class EngineClient {
  /**
   * @param {URL|string} workerURL  the module worker script
   * @param {object} handlers  optional callbacks: onProgress(ev), onReady(ev), onFailed(ev), onLog(ev)
   */
  constructor(workerURL, handlers = {}) {
    this.workerURL = workerURL;
    this.handlers = handlers;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.state = "idle"; // idle | loading | ready | failed
    this.version = null;
    this.timings = null; // ms since the worker started, per loading stage
    this.startedFrom = null; // "snapshot" | "wheel": how the worker started Python
    // The latest event of the current start, replayed to handlers attached later.
    this.lastEvent = null;
    // Log events that came before an onLog handler (e.g. why the snapshot was not used),
    // handed to the first one attached.
    this.earlyLogs = [];
  }

  /**
   * Attach the callbacks, and replay to them where loading stands (the latest progress,
   * ready or failed event of the current start): the worker may have been started before
   * the page's modules that show it were loaded.
   */
  setHandlers(handlers) {
    this.handlers = handlers;
    if (handlers.onLog && this.earlyLogs.length) {
      const logs = this.earlyLogs.splice(0);
      queueMicrotask(() => logs.forEach((msg) => handlers.onLog(msg)));
    }
    const ev = this.lastEvent;
    if (!ev) return;
    // Replayed after the caller's code has run, as a worker message would be.
    queueMicrotask(() => {
      if (this.handlers !== handlers || this.lastEvent !== ev) return;
      if (ev.type === "progress") handlers.onProgress?.(ev);
      else if (ev.type === "ready") handlers.onReady?.(ev);
      else if (ev.type === "failed") handlers.onFailed?.(ev);
    });
  }

  /** Report a failure to load (also used when the browser lacks what the engine needs). */
  fail(info) {
    this._failed({ type: "failed", ...info });
  }

  /** Start (or restart) the worker. Pending calls of a previous worker are rejected. */
  start() {
    this.terminate("restarted");
    this.state = "loading";
    this.lastEvent = null;
    let worker;
    try {
      worker = new Worker(this.workerURL, { type: "module", name: "truco-engine" });
    } catch (err) {
      this._failed({ stage: "worker", message: String(err && err.message || err), detail: "" });
      return;
    }
    this.worker = worker;
    worker.addEventListener("message", (ev) => {
      if (this.worker === worker) this._onMessage(ev.data);
    });
    // A module worker that cannot be fetched or parsed fires `error` (no message inside).
    worker.addEventListener("error", (ev) => {
      if (this.worker !== worker) return;
      ev.preventDefault();
      this._failed({
        stage: "worker",
        message: ev.message || "worker script failed to load",
        detail: ev.filename ? `${ev.filename}:${ev.lineno}` : "",
      });
    });
    worker.addEventListener("messageerror", () => {
      if (this.worker === worker) this._failed({ stage: "protocol", message: "unreadable message from the worker", detail: "" });
    });
  }

  /** Stop the worker and reject whatever is pending. */
  terminate(reason = "terminated") {
    if (this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this._rejectAll(new EngineError(`engine ${reason}`, { errorType: "Terminated" }));
    this.state = "idle";
  }

  /**
   * Call a method of truco.api; resolves with its result (plain data), rejects with EngineError.
   * Calls made while the engine is loading are answered once it is ready.
   */
  call(method, params = {}) {
    if (!this.worker) {
      return Promise.reject(new EngineError("engine is not running", { errorType: "NotRunning", method }));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      try {
        this.worker.postMessage({ id, method, params });
      } catch (err) {
        this.pending.delete(id);
        reject(new EngineError(`cannot send request: ${err.message}`, { errorType: "DataCloneError", method }));
      }
    });
  }

  _onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if ("id" in msg) {
      const entry = this.pending.get(msg.id);
      if (!entry) return;
      this.pending.delete(msg.id);
      if (msg.ok) entry.resolve(msg.result);
      else entry.reject(new EngineError(msg.error, { errorType: msg.errorType, method: entry.method }));
      return;
    }
    switch (msg.type) {
      case "progress":
        this.lastEvent = msg;
        this.handlers.onProgress?.(msg);
        break;
      case "ready":
        this.state = "ready";
        this.version = msg.version;
        this.timings = msg.timings || null;
        this.startedFrom = msg.start || null;
        this.lastEvent = msg;
        this.handlers.onReady?.(msg);
        break;
      case "failed":
        this._failed(msg);
        break;
      case "log":
        if (this.handlers.onLog) this.handlers.onLog(msg);
        else if (this.earlyLogs.length < 100) this.earlyLogs.push(msg);
        break;
      default:
        break;
    }
  }

  _failed(info) {
    if (this.state === "failed") return;
    this.state = "failed";
    this.lastEvent = { type: "failed", ...info };
    this._rejectAll(new EngineError(`engine failed to load: ${info.message}`, { errorType: "LoadError" }));
    if (this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this.handlers.onFailed?.(info);
  }

  _rejectAll(error) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(error);
  }
}

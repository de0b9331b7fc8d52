// Promise RPC to the engine worker.
//
// Page -> worker: {id, method, params}
// Worker -> page, replies:  {id, ok: true, result} | {id, ok: false, error, errorType, valueError}
// Worker -> page, events:   {type: "progress", stage, text, fraction}
//                           {type: "ready", version, pyodideVersion, start, timings}
//                             (start: "snapshot" | "wheel", the way Python was started)
//                           {type: "failed", stage, message, detail}
//                           {type: "log", level, text}
// Every call has a time limit (TIME_LIMITS); past it the worker is restarted (onStuck).
// Replies carry an `id` and never a `type`; events carry a `type` and never an `id`.

// How long a method may take once the engine is ready before the worker is taken for stuck
// (ms). Generous: a long match's replay or load on a slow phone takes seconds; a stuck call
// (a reply that cannot cross to the page, a loop) never ends. The clock of a call made while
// the engine loads starts when it is ready.
export const TIME_LIMITS = Object.freeze({ load: 30_000, replay: 30_000, new_game: 20_000, default: 15_000 });

// How long a started worker may stay silent (ms): worker.js posts its first `progress` as soon
// as it runs, so silence means its script never came (a stalled download fires no `error`).
// Past it, the start has failed: the page's message and "Tentar de novo".
export const START_LIMIT_MS = 20_000;

// How long a retry waits for the worker's scripts to come again past the HTTP cache before it
// starts the worker anyway (a file still on its way then comes to the worker the same way).
export const REFRESH_MS = 2_000;

/**
 * Download `urls` again past the browser's HTTP cache (`cache: "reload"`), so that the next
 * worker gets them fresh: a worker script that was cut short or mistyped keeps its place in
 * the cache (a long `max-age`, or validators that answer 304), and a plain restart would get
 * the same broken copy back (as shared/boot_watch.js does for the page's own scripts).
 * Resolves when all have come or failed, or after `ms`; never rejects.
 */
export function refreshScripts(urls, ms = REFRESH_MS) {
  if (typeof fetch !== "function" || !urls.length) return Promise.resolve();
  const all = Promise.all(urls.map((url) => fetch(url, { cache: "reload" }).then((r) => r.arrayBuffer()).catch(() => {})));
  return Promise.race([all, new Promise((resolve) => setTimeout(resolve, ms))]).then(() => {});
}

export class EngineError extends Error {
  constructor(message, { errorType = "Error", method = "", valueError = false } = {}) {
    super(message);
    this.name = "EngineError";
    this.errorType = errorType;
    this.method = method;
    // Bad input (a ValueError or a subclass: CardError, SaveError, IllegalAction…), not a
    // fault of the engine: the worker says so, since a subclass has its own name.
    this.valueError = valueError === true;
  }
}

export class EngineClient {
  /**
   * @param {URL|string} workerURL  the module worker script
   * @param {object} handlers  optional callbacks: onProgress(ev), onReady(ev), onFailed(ev), onLog(ev),
   *   onStuck({method, ms, tag}) (a call passed its time limit and the worker was restarted;
   *   `tag`, the call's own, says whom it was for)
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
    this.onStartedFrom = null; // called with it on each ready event (engine_boot.js)
    // The latest event of the current start, replayed to handlers attached later.
    this.lastEvent = null;
    // Log events that came before an onLog handler (e.g. why the snapshot was not used),
    // handed to the first one attached.
    this.earlyLogs = [];
    // Test hook: every method's time limit, in ms (`?call_limit=` in the page's address).
    this.limitOverride = null;
    this.startTimer = null; // START_LIMIT_MS from start() to the worker's first message
    this.runs = 0; // counts stops: a refresh that ends after one starts no worker
  }

  /** The time limit of `method`, in ms. */
  limitFor(method) {
    return this.limitOverride ?? TIME_LIMITS[method] ?? TIME_LIMITS.default;
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

  /**
   * Start (or restart) the worker. Pending calls of a previous worker are rejected. With
   * `refresh` (a retry after a failed start: engine_boot.js), those scripts are downloaded
   * again past the HTTP cache first (refreshScripts); calls made meanwhile wait for the worker.
   */
  start({ refresh = [] } = {}) {
    this.terminate("restarted");
    this.state = "loading";
    this.lastEvent = null;
    if (!refresh.length) {
      this._spawn();
      return;
    }
    const run = this.runs;
    refreshScripts(refresh).then(() => {
      // Not if the client was stopped or started again meanwhile.
      if (this.runs === run && this.state === "loading" && !this.worker) this._spawn();
    });
  }

  _spawn() {
    let worker;
    try {
      worker = new Worker(this.workerURL, { type: "module", name: "truco-engine" });
    } catch (err) {
      this._failed({ stage: "worker", message: String(err && err.message || err), detail: "" });
      return;
    }
    this.worker = worker;
    this.startTimer = setTimeout(() => {
      if (this.worker !== worker) return;
      this._failed({ stage: "files", message: `the worker sent nothing within ${START_LIMIT_MS / 1000} s`, detail: String(this.workerURL) });
    }, START_LIMIT_MS);
    worker.addEventListener("message", (ev) => {
      if (this.worker !== worker) return;
      clearTimeout(this.startTimer);
      this._onMessage(ev.data);
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
    // Calls made while the scripts were refreshed.
    for (const [id, entry] of this.pending) {
      if (entry.queued) this._post(id, entry);
    }
  }

  /** Stop the worker and reject whatever is pending. */
  terminate(reason = "terminated") {
    this.runs++;
    clearTimeout(this.startTimer);
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
  call(method, params = {}, { tag = null } = {}) {
    if (!this.worker && this.state !== "loading") {
      return Promise.reject(new EngineError("engine is not running", { errorType: "NotRunning", method }));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // `tag`: whom the call is for, told to onStuck (a friends' host's calls for a guest: "guest").
      const entry = { resolve, reject, method, params, tag, timer: null, queued: !this.worker };
      this.pending.set(id, entry);
      if (this.worker) this._post(id, entry);
    });
  }

  _post(id, entry) {
    entry.queued = false;
    try {
      this.worker.postMessage({ id, method: entry.method, params: entry.params });
    } catch (err) {
      this.pending.delete(id);
      entry.reject(new EngineError(`cannot send request: ${err.message}`, { errorType: "DataCloneError", method: entry.method }));
      return;
    }
    if (this.state === "ready") this._arm(id, entry);
  }

  /** Start the clock of a pending call (at once when ready, else at `ready`). */
  _arm(id, entry) {
    if (entry.timer !== null) return;
    const ms = this.limitFor(entry.method);
    entry.timer = setTimeout(() => this._stuck(id, ms), ms);
  }

  /**
   * A call took longer than its limit: the worker is stuck (or its reply was lost). Reject
   * the call, tell the page (`onStuck`), and start a new worker: whatever the old one still
   * sends is dropped, and the other pending calls are rejected as "Terminated".
   */
  _stuck(id, ms) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    const seconds = Math.round(ms / 100) / 10;
    entry.reject(new EngineError(`the engine did not answer ${entry.method} within ${seconds} s`, {
      errorType: "Timeout", method: entry.method,
    }));
    console.warn(`engine: ${entry.method} took over ${seconds} s; restarting the worker`);
    this.start();
    this.handlers.onStuck?.({ method: entry.method, ms, tag: entry.tag });
  }

  _onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if ("id" in msg) {
      const entry = this.pending.get(msg.id);
      if (!entry) return;
      this.pending.delete(msg.id);
      clearTimeout(entry.timer);
      if (msg.ok) entry.resolve(msg.result);
      else entry.reject(new EngineError(msg.error, { errorType: msg.errorType, method: entry.method, valueError: msg.valueError }));
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
        this.onStartedFrom?.(this.startedFrom);
        for (const [id, entry] of this.pending) this._arm(id, entry);
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
    clearTimeout(this.startTimer);
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
    for (const entry of pending) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
  }
}

// The table's start-up: where loading stands (the progress bar on the table and the small
// one on the start screen, the engine badge), the message with "Tentar de novo" when loading
// fails, and the gate the table calls the engine through.
//
// The table works from the first paint, before the engine is ready: a call made through the
// gate (`gate().call`) waits until the engine is ready, through a failure and its retry,
// instead of being refused. So "Começar" pressed at once deals as soon as the engine is up.

import { t } from "../shared/i18n.js";

const $ = (id) => document.getElementById(id);

// What each loading stage shows, and why loading failed: the worker sends stage names only;
// the texts are the page's (load.stage.* / load.fail.* in site/i18n/).
const STAGES = ["start", "pyodide", "python", "micropip", "engine", "import"];
const FAILS = ["webassembly", "worker", "files", "pyodide", "micropip", "engine", "import"];
const stageText = (stage) => t(`load.stage.${STAGES.includes(stage) ? stage : "start"}`);
const failText = (stage) => t(FAILS.includes(stage) ? `load.fail.${stage}` : "load.fail.default");
// Where the bar creeps to while a stage runs (the next stage's start).
const NEXT_FRACTION = { pyodide: 0.15, python: 0.72, micropip: 0.84, engine: 0.94, import: 0.99 };

export class EngineProgress {
  /**
   * @param {object} o  {client (EngineClient), restart() (starts the worker again),
   *   onReady(ev), onFailed(ev), onRetry(), onStuck({method, ms}): the page's own steps after
   *   each; onStuck: a call passed its time limit and the client started a new worker}
   */
  constructor({ client, restart, onReady = () => {}, onFailed = () => {}, onRetry = () => {}, onStuck = () => {} }) {
    this.client = client;
    this.app = $("app");
    this.isReady = false;
    this.waiters = []; // resolved at the next `ready`
    this.shown = 0;
    this.ceiling = 0.05;
    this.creepTimer = null;
    this.showLoading();
    client.setHandlers({
      onProgress: (ev) => this.onProgress(ev),
      onReady: (ev) => {
        this.onReady(ev);
        onReady(ev);
      },
      onFailed: (ev) => {
        this.onFailed(ev);
        onFailed(ev);
      },
      onStuck: (ev) => {
        this.showLoading(); // the gate's calls wait for the new worker
        onStuck(ev);
      },
      onLog: ({ level, text }) => (level === "error" ? console.error : level === "warn" ? console.warn : console.debug)(`[engine] ${text}`),
    });
    $("retry").addEventListener("click", () => {
      // A retry never repeats a forced failure: drop the test hook from the address.
      const url = new URL(location.href);
      if (url.searchParams.has("fail")) {
        url.searchParams.delete("fail");
        history.replaceState(history.state, "", url);
      }
      this.showLoading();
      restart();
      onRetry();
    });
  }

  get ready() {
    return this.isReady;
  }

  /** Resolves once the engine is ready (at once if it is); never rejects. */
  whenReady() {
    return this.isReady ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A client for the table: `call` waits for the engine instead of failing while it loads. */
  gate() {
    const progress = this;
    return {
      call: (method, params, opts) => progress.whenReady().then(() => progress.client.call(method, params, opts)),
      get ready() {
        return progress.isReady;
      },
    };
  }

  // ------------------------------------------------------------------ the view
  setState(state) {
    this.app.dataset.engineState = state;
    $("loading").hidden = state !== "loading";
    $("ready").hidden = state !== "ready";
    $("error").hidden = state !== "error";
  }

  setBar(fraction) {
    this.shown = Math.max(0, Math.min(1, fraction));
    const scale = `scaleX(${Math.max(this.shown, 0.02).toFixed(3)})`;
    const pct = String(Math.round(this.shown * 100));
    for (const [bar, fill] of [["progress", "progress-fill"], ["start-progress", "start-progress-fill"]]) {
      if (!$(bar)) continue;
      $(fill).style.transform = scale;
      $(bar).setAttribute("aria-valuenow", pct);
    }
  }

  startCreep() {
    this.stopCreep();
    this.creepTimer = setInterval(() => {
      if (this.shown < this.ceiling) this.setBar(this.shown + (this.ceiling - this.shown) * 0.12);
    }, 500);
  }

  stopCreep() {
    if (this.creepTimer !== null) clearInterval(this.creepTimer);
    this.creepTimer = null;
  }

  showLoading() {
    this.isReady = false;
    this.setState("loading");
    $("engine-badge").textContent = t("load.badge.loading");
    this.setText(stageText("start"));
    this.ceiling = 0.05;
    this.setBar(0.02);
    this.startCreep();
  }

  setText(text) {
    $("progress-text").textContent = text;
    if ($("start-progress-text")) $("start-progress-text").textContent = text;
  }

  onProgress({ stage, fraction }) {
    this.setText(stageText(stage));
    $("progress").dataset.stage = stage;
    if (typeof fraction === "number" && fraction > this.shown) this.setBar(fraction);
    this.ceiling = NEXT_FRACTION[stage] ?? Math.min(0.99, this.shown + 0.05);
  }

  onReady({ version }) {
    this.stopCreep();
    this.setBar(1);
    performance.mark("engine-ready");
    $("engine-version").textContent = version;
    $("engine-badge").textContent = t("load.badge.ready", { version });
    this.setState("ready");
    this.isReady = true;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  onFailed({ stage, message, detail }) {
    this.stopCreep();
    $("error-text").textContent = failText(stage);
    $("error-detail").textContent = [`${t("load.stage_label")}: ${stage}`, message, detail].filter(Boolean).join("\n");
    $("engine-badge").textContent = t("load.badge.error");
    this.setState("error");
    $("error").dataset.stage = stage;
    console.warn(`engine failed at ${stage}: ${message}`);
  }
}

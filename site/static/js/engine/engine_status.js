// The engine for the tutorial and embed pages: the worker of engine_boot.js, started only
// when needed (`engine.start()`: the reader's first touch of an exercise or a quiz, or at once
// when the address asks with `engine=now`), its loading state shown in a small status box and
// to whoever subscribes (the exercise that is waiting for it), and a `ready` promise the
// exercises await (rejected if loading fails; a retry makes a new one). `<html data-engine=…>`
// follows the state (idle until started), for the tests.

import { client, startEngine } from "./engine_boot.js";
import { t } from "../shared/i18n.js";

/**
 * `box` holds `.engine-text`, a `.engine-progress` progressbar with a `.engine-fill`, an
 * `.engine-error` and an `.engine-retry` button (each optional).
 */
export function connectEngine(box) {
  const $ = (sel) => (box ? box.querySelector(sel) : null);
  let settle = null;
  const fresh = () => {
    const p = new Promise((resolve, reject) => { settle = { resolve, reject }; });
    p.catch(() => {}); // awaited where it matters
    return p;
  };
  const listeners = new Set();
  let fraction = 0.02;
  const engine = {
    client,
    ready: fresh(),
    get state() {
      return client.state;
    },
    /** Whether the worker was started (it may still be loading, or have failed). */
    get started() {
      return client.state !== "idle";
    },
    /** Where loading stands, 0.02 to 1. */
    get fraction() {
      return fraction;
    },
    /** Start the worker unless it is running or loading (a failed one is started again). */
    start() {
      if (client.state === "loading" || client.state === "ready") return;
      if (client.state === "failed") engine.ready = fresh();
      setState("loading");
      setBar(0.02);
      if ($(".engine-text")) $(".engine-text").textContent = t("engine.loading");
      startEngine();
    },
    /** `fn({state, fraction})` on every change of the loading state; returns an unsubscribe. */
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  const tell = () => {
    for (const fn of [...listeners]) fn({ state: client.state, fraction });
  };
  const setState = (state) => {
    document.documentElement.dataset.engine = state;
    if (box) box.dataset.state = state;
    const err = $(".engine-error");
    const retry = $(".engine-retry");
    if (err) err.hidden = state !== "error";
    if (retry) retry.hidden = state !== "error";
  };
  const setBar = (f) => {
    fraction = Math.max(0.02, Math.min(1, f));
    const fill = $(".engine-fill");
    const bar = $(".engine-progress");
    if (fill) fill.style.transform = `scaleX(${fraction.toFixed(3)})`;
    if (bar) bar.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
    tell();
  };
  setState(client.state === "idle" ? "idle" : "loading");
  setBar(0.02);
  if ($(".engine-text")) $(".engine-text").textContent = client.state === "idle" ? "" : t("engine.loading");
  client.setHandlers({
    onProgress({ fraction: f }) {
      if (typeof f === "number") setBar(f);
    },
    onReady() {
      setState("ready");
      setBar(1);
      if ($(".engine-text")) $(".engine-text").textContent = t("engine.ready");
      settle.resolve(client);
    },
    onFailed({ stage, message }) {
      setState("error");
      if ($(".engine-error")) $(".engine-error").textContent = t("engine.failed");
      console.warn(`engine failed at ${stage}: ${message}`);
      settle.reject(new Error(message));
      tell();
    },
    onLog({ level, text }) {
      (level === "error" ? console.error : level === "warn" ? console.warn : console.debug)(`[engine] ${text}`);
    },
  });
  $(".engine-retry")?.addEventListener("click", () => engine.start());
  return engine;
}

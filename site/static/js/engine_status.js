// The engine for the tutorial and embed pages: the worker that engine_boot.js started, its
// loading state shown in a small status box, and a `ready` promise the exercises await
// (rejected if loading fails; a retry makes a new one). `<html data-engine=…>` follows the
// state, for the tests.

import { client, startEngine } from "./engine_boot.js";
import { t } from "./i18n.js";

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
  const engine = {
    client,
    ready: fresh(),
    get state() {
      return client.state;
    },
  };
  const setState = (state) => {
    document.documentElement.dataset.engine = state;
    if (box) box.dataset.state = state;
    const err = $(".engine-error");
    const retry = $(".engine-retry");
    if (err) err.hidden = state !== "error";
    if (retry) retry.hidden = state !== "error";
  };
  const setBar = (fraction) => {
    const fill = $(".engine-fill");
    const bar = $(".engine-progress");
    const f = Math.max(0.02, Math.min(1, fraction));
    if (fill) fill.style.transform = `scaleX(${f.toFixed(3)})`;
    if (bar) bar.setAttribute("aria-valuenow", String(Math.round(f * 100)));
  };
  setState("loading");
  setBar(0.02);
  if ($(".engine-text")) $(".engine-text").textContent = t("engine.loading");
  client.setHandlers({
    onProgress({ fraction }) {
      if (typeof fraction === "number") setBar(fraction);
    },
    onReady() {
      setBar(1);
      setState("ready");
      if ($(".engine-text")) $(".engine-text").textContent = t("engine.ready");
      settle.resolve(client);
    },
    onFailed({ stage, message }) {
      setState("error");
      if ($(".engine-error")) $(".engine-error").textContent = t("engine.failed");
      console.warn(`engine failed at ${stage}: ${message}`);
      settle.reject(new Error(message));
    },
    onLog({ level, text }) {
      (level === "error" ? console.error : level === "warn" ? console.warn : console.debug)(`[engine] ${text}`);
    },
  });
  $(".engine-retry")?.addEventListener("click", () => {
    engine.ready = fresh();
    setState("loading");
    setBar(0.02);
    startEngine();
  });
  return engine;
}

// Page entry: starts the engine worker at once, shows what is loading, the engine version
// when ready, and a message with a retry button when loading fails.

import { EngineClient } from "./engine_client.js";

const $ = (id) => document.getElementById(id);
const app = $("app");

// What each loading stage shows (the worker sends stage names only; text lives here).
const STAGE_TEXT = {
  start: "Iniciando…",
  pyodide: "Baixando o Python (Pyodide)…",
  python: "Iniciando o Python no navegador…",
  micropip: "Preparando o instalador de pacotes…",
  engine: "Instalando o motor do jogo…",
  import: "Carregando as regras do truco…",
};

const FAIL_TEXT = {
  webassembly:
    "Este navegador não roda WebAssembly, que o jogo precisa. Atualize o navegador ou use outro (Chrome, Firefox, Safari ou Edge recentes).",
  worker: "O navegador não conseguiu iniciar o motor do jogo. Atualize a página ou use um navegador mais recente.",
  pyodide: "Não foi possível baixar o Python (Pyodide). Verifique sua conexão e tente de novo.",
  micropip: "Não foi possível baixar o instalador de pacotes. Verifique sua conexão e tente de novo.",
  engine: "Não foi possível instalar o motor do jogo. Verifique sua conexão e tente de novo.",
  import: "O motor do jogo foi baixado, mas não iniciou. Tente de novo.",
};
const FAIL_DEFAULT = "Algo deu errado ao carregar o jogo. Tente de novo.";

// The progress bar creeps toward the next stage while a long stage runs.
let shown = 0;
let ceiling = 0.05;
let creepTimer = null;

function setBar(fraction) {
  shown = Math.max(0, Math.min(1, fraction));
  const pct = Math.round(shown * 100);
  $("progress-fill").style.transform = `scaleX(${Math.max(shown, 0.02).toFixed(3)})`;
  $("progress").setAttribute("aria-valuenow", String(pct));
}

function startCreep() {
  stopCreep();
  creepTimer = setInterval(() => {
    if (shown < ceiling) setBar(shown + (ceiling - shown) * 0.12);
  }, 500);
}

function stopCreep() {
  if (creepTimer !== null) clearInterval(creepTimer);
  creepTimer = null;
}

const NEXT_FRACTION = { pyodide: 0.15, python: 0.72, micropip: 0.84, engine: 0.94, import: 0.99 };

function setState(state) {
  app.dataset.engineState = state;
  $("loading").hidden = state !== "loading";
  $("ready").hidden = state !== "ready";
  $("error").hidden = state !== "error";
}

function showLoading() {
  setState("loading");
  $("engine-badge").textContent = "carregando…";
  $("progress-text").textContent = STAGE_TEXT.start;
  ceiling = 0.05;
  setBar(0.02);
  startCreep();
}

function onProgress({ stage, fraction }) {
  $("progress-text").textContent = STAGE_TEXT[stage] || STAGE_TEXT.start;
  $("progress").dataset.stage = stage;
  if (typeof fraction === "number" && fraction > shown) setBar(fraction);
  ceiling = NEXT_FRACTION[stage] ?? Math.min(0.99, shown + 0.05);
}

function onReady({ version }) {
  stopCreep();
  setBar(1);
  performance.mark("engine-ready");
  $("engine-version").textContent = version;
  $("engine-badge").textContent = `motor ${version}`;
  setState("ready");
}

function onFailed({ stage, message, detail }) {
  stopCreep();
  $("error-text").textContent = FAIL_TEXT[stage] || FAIL_DEFAULT;
  $("error-detail").textContent = [`etapa: ${stage}`, message, detail].filter(Boolean).join("\n");
  $("engine-badge").textContent = "erro";
  setState("error");
  $("error").dataset.stage = stage;
  console.warn(`engine failed at ${stage}: ${message}`);
}

function onLog({ level, text }) {
  (level === "error" ? console.error : level === "warn" ? console.warn : console.debug)(`[engine] ${text}`);
}

function workerURL() {
  const url = new URL("worker.js", import.meta.url);
  // Test hook: ?fail=pyodide makes the worker load Pyodide from a missing folder.
  const fail = new URLSearchParams(location.search).get("fail");
  if (fail) url.searchParams.set("fail", fail);
  return url;
}

const client = new EngineClient(workerURL(), { onProgress, onReady, onFailed, onLog });

function start() {
  showLoading();
  if (typeof WebAssembly !== "object") {
    onFailed({ stage: "webassembly", message: "WebAssembly is not available", detail: "" });
    return;
  }
  if (typeof Worker !== "function") {
    onFailed({ stage: "worker", message: "Web Workers are not available", detail: "" });
    return;
  }
  client.workerURL = workerURL();
  client.start();
}

$("retry").addEventListener("click", () => {
  // A retry never repeats a forced failure: drop the test hook from the address.
  const url = new URL(location.href);
  if (url.searchParams.has("fail")) {
    url.searchParams.delete("fail");
    history.replaceState(history.state, "", url);
  }
  start();
});

// For the console and the tests: window.__engine.call("echo", {...}).
window.__engine = Object.freeze({
  call: (method, params) => client.call(method, params),
  get state() {
    return client.state;
  },
  get version() {
    return client.version;
  },
});

start();

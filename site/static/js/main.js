// Page entry: starts the engine worker at once, shows what is loading, the engine version
// when ready, and a message with a retry button when loading fails.

import { applyDeckColours } from "./cards.js";
import { client, startEngine } from "./engine_boot.js";
import { Dialogs } from "./dialogs.js";
import { DEFAULT_SETTINGS, GameManager } from "./game_manager.js";
import { checkSettings } from "./saved_data.js";
import { InputManager } from "./input_manager.js";
import { PartnerTalk } from "./partner_talk.js";
import { StorageManager } from "./storage.js";
import { StatsView } from "./stats_view.js";
import { TabGuard } from "./tab_guard.js";
import { TableView } from "./table_view.js";
import { HintView } from "./hint_view.js";
import { HandReview } from "./hand_review.js";
import { ReplayView } from "./replay_view.js";
import { ShareDialog, forgetSharedURL, isSharedURL } from "./share.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const app = $("app");

// What each loading stage shows, and why loading failed: the worker sends stage names only;
// the texts are the page's (load.stage.* / load.fail.* in site/i18n/).
const STAGES = ["start", "pyodide", "python", "micropip", "engine", "import"];
const FAILS = ["webassembly", "worker", "pyodide", "micropip", "engine", "import"];
const stageText = (stage) => t(`load.stage.${STAGES.includes(stage) ? stage : "start"}`);
const failText = (stage) => t(FAILS.includes(stage) ? `load.fail.${stage}` : "load.fail.default");

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
  $("engine-badge").textContent = t("load.badge.loading");
  $("progress-text").textContent = stageText("start");
  ceiling = 0.05;
  setBar(0.02);
  startCreep();
}

function onProgress({ stage, fraction }) {
  $("progress-text").textContent = stageText(stage);
  $("progress").dataset.stage = stage;
  if (typeof fraction === "number" && fraction > shown) setBar(fraction);
  ceiling = NEXT_FRACTION[stage] ?? Math.min(0.99, shown + 0.05);
}

function onReady({ version }) {
  stopCreep();
  setBar(1);
  performance.mark("engine-ready");
  $("engine-version").textContent = version;
  $("engine-badge").textContent = t("load.badge.ready", { version });
  setState("ready");
  startTable();
}

function onFailed({ stage, message, detail }) {
  stopCreep();
  $("error-text").textContent = failText(stage);
  $("error-detail").textContent = [`${t("load.stage_label")}: ${stage}`, message, detail].filter(Boolean).join("\n");
  $("engine-badge").textContent = t("load.badge.error");
  setState("error");
  $("error").dataset.stage = stage;
  console.warn(`engine failed at ${stage}: ${message}`);
}

function onLog({ level, text }) {
  (level === "error" ? console.error : level === "warn" ? console.warn : console.debug)(`[engine] ${text}`);
}

// The worker was started by engine_boot.js (loaded early, with `async`); show where it stands.
// Test hook: ?fail=pyodide makes the worker load Pyodide from a missing folder.
showLoading();
client.setHandlers({ onProgress, onReady, onFailed, onLog });

$("retry").addEventListener("click", () => {
  // A retry never repeats a forced failure: drop the test hook from the address.
  const url = new URL(location.href);
  if (url.searchParams.has("fail")) {
    url.searchParams.delete("fail");
    history.replaceState(history.state, "", url);
  }
  showLoading();
  startEngine();
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
  get timings() {
    return client.timings;
  },
  /** "snapshot" or "wheel": how the worker started Python. */
  get start() {
    return client.startedFrom;
  },
});

// ------------------------------------------------------------------ the table
// URL parameters: settings (mode, level, partner_level, preset, series, timer, ferro,
// humano_decide=0|1, sinais=0|1),
// `seed` to fix the deals, a scenario for tests and shared situations (`hands=4c.7h.As-3c.2h.Kd`,
// `score=10,4`, `dealer=1`, `vira=Kd`), `autostart=1` to skip the start screen, and
// `fast=1` for no pauses between moves (tests).
function urlOptions() {
  const q = new URLSearchParams(location.search);
  const settings = {};
  for (const [key, dflt] of Object.entries(DEFAULT_SETTINGS)) {
    if (!q.has(key)) continue;
    const v = q.get(key);
    settings[key] = typeof dflt === "number" ? Number(v) : typeof dflt === "boolean" ? v === "1" || v === "true" : v;
  }
  const scenario = {};
  if (q.has("seed")) scenario.seed = /^\d+$/.test(q.get("seed")) ? Number(q.get("seed")) : q.get("seed");
  if (q.has("hands")) scenario.hands = q.get("hands").split("-").map((h) => h.split("."));
  if (q.has("score")) scenario.score = q.get("score").split(",").map(Number);
  if (q.has("dealer")) scenario.dealer = Number(q.get("dealer"));
  if (q.has("vira")) scenario.vira = q.get("vira");
  return { settings, scenario, fast: q.get("fast") === "1", autostart: q.get("autostart") === "1", shared: isSharedURL() };
}

let game = null;

function startTable() {
  if (game) {
    game.generation++;
  }
  const opts = urlOptions();
  const storage = new StorageManager();
  const root = $("app");
  const view = new TableView(root);
  let manager;
  let stats;
  // Offer the start screen: "Continuar partida" only for a save the engine could load.
  const offerStart = async () => {
    const gen = manager.generation;
    const saved = await manager.checkedSession();
    if (gen !== manager.generation) return; // a game started meanwhile
    manager.setPhase("start");
    dialogs.showStart(saved, manager.settings);
  };
  const dialogs = new Dialogs({
    onStart: (settings) => manager.newGame(settings),
    onContinue: () => {
      const session = manager.savedSession();
      if (session) manager.resume(session);
      else offerStart();
    },
    onAgain: () => manager.newGame(manager.settings),
    onMenu: () => offerStart(),
    onLeave: () => manager.leave(),
    onPause: (paused) => manager.setPaused(paused),
    onOpenStats: () => stats.open(),
    onPlayHere: () => {
      const session = manager.savedSession();
      if (session) manager.resume(session);
      else offerStart();
    },
    hasSavedGame: () => manager.savedSession() !== null,
    hasLastGame: () => Boolean(manager.loadKind("last")),
    onSettingsChange: (settings) => {
      manager.settings = { ...manager.settings, ...settings };
      manager.saveSettings(manager.settings);
    },
  });
  const tabs = new TabGuard({
    onTakenOver: () => manager.takenOver(),
    onPresence: (elsewhere) => dialogs.setElsewhere(elsewhere),
  });
  storage.onTrouble((trouble) => dialogs.setStorageTrouble(trouble));
  const input = new InputManager(root, (intent) => manager.intent(intent));
  const talk = new PartnerTalk({ root, client, view, onSignal: (name) => manager.signal(name) });
  manager = new GameManager({
    client, view, input, storage, dialogs, tabs, fast: opts.fast, scenario: opts.scenario, presets: dialogs.presets(), talk,
  });
  game = manager;
  // Dica, hand review, replay and share (issue #12): modules of their own around the table.
  const pauseFor = (on) => manager.setPaused(on);
  manager.hints = new HintView({ client, send: (action) => manager.play(action), busy: () => manager.busy || manager.paused });
  manager.review = new HandReview({ client, onPause: pauseFor });
  const replay = new ReplayView({ client, onPause: pauseFor });
  const share = new ShareDialog({ client });
  const failed = (err) => dialogs.notice(t("error.engine", { message: err.message }));
  const openReview = (e) => manager.review.open(Number(e.currentTarget.dataset.hand), manager.obs).catch(failed);
  $("banner-review").onclick = openReview; // in the hand's summary
  $("last-review").onclick = openReview; // at the table's corner once the next hand is under way
  $("end-replay").onclick = () => replay.open(manager.lastSave);
  $("end-share").onclick = () => share.open(manager.lastSave);
  const lastSave = () => manager.loadKind("last")?.save;
  $("last-replay").onclick = () => (lastSave() ? replay.open(lastSave()) : offerStart());
  $("last-share").onclick = () => (lastSave() ? share.open(lastSave()) : offerStart());
  stats = new StatsView({ manager, dialogs, onImported: () => offerStart() });
  const pause = $("pause");
  pause.onclick = () => {
    manager.setPaused(!manager.paused);
    pause.setAttribute("aria-pressed", String(manager.paused));
    pause.textContent = t(manager.paused ? "menu.resume" : "menu.pause");
  };
  // Settings from the address are checked like saved ones: a bad value is told and not used
  // (it would otherwise be saved, and reported as bad saved data on the next visit).
  const fromUrl = checkSettings(opts.settings, { presets: dialogs.presets() });
  const badUrl = new Set(fromUrl.bad);
  const urlSettings = Object.fromEntries(Object.keys(opts.settings).filter((k) => !badUrl.has(k)).map((k) => [k, fromUrl.value[k]]));
  if (badUrl.size) dialogs.notice(t("error.url_settings", { fields: fromUrl.errors.join(", ") }));
  const settings = { ...DEFAULT_SETTINGS, ...(manager.storedSettings() ?? {}), ...urlSettings };
  manager.loadKind("stats"); // checked now: bad statistics are reported (and set aside) at once
  manager.settings = settings;
  applyDeckColours(settings);
  if (opts.shared) {
    // A shared link: that match (its seed and rules) once; the address is cleaned so that a
    // reload continues it and "Jogar de novo" deals new cards.
    const scenario = opts.scenario;
    manager.scenario = {};
    forgetSharedURL();
    openShared(manager, dialogs, settings, scenario, offerStart);
  } else if (opts.autostart) {
    manager.newGame(settings);
  } else {
    manager.setPhase("start");
    offerStart();
  }
  // For the console and the tests: what the human sees, and a way to start a scenario
  // without reloading Pyodide.
  window.__truco = Object.freeze({
    get observation() {
      return manager.obs;
    },
    get busy() {
      return manager.busy;
    },
    get tab() {
      return tabs.id;
    },
    get pauses() {
      return manager.pauses;
    },
    start(settings = {}, scenario = {}) {
      manager.scenario = scenario;
      dialogs.hideStart();
      return manager.newGame({ ...manager.settings, ...settings });
    },
  });
}

/** Start the shared match, after asking when it would give up a saved game. */
async function openShared(manager, dialogs, settings, scenario, offerStart) {
  manager.setPhase("start");
  const saved = await manager.checkedSession();
  if (saved) {
    const go = await dialogs.confirm({
      title: t("share.confirm"), detail: t("share.confirm.detail"), yes: t("share.confirm.yes"), no: t("share.confirm.no"),
    });
    if (!go) {
      await manager.restoreEngine();
      offerStart();
      return;
    }
  }
  manager.newGame(settings, scenario);
}

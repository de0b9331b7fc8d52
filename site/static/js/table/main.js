// Page entry: wires the table (GameManager, its view, dialogs and helpers) at once, while
// the engine worker loads; engine_progress.js shows where loading stands.

import { applyDeckColours } from "../shared/cards.js";
import { client, startEngine } from "../engine/engine_boot.js";
import { EngineProgress } from "../engine/engine_progress.js";
import { Dialogs } from "./dialogs.js";
import { DEFAULT_SETTINGS, GameManager } from "./game_manager.js";
import { checkSettings } from "./saved_data.js";
import { InputManager } from "./input_manager.js";
import { PartnerTalk } from "./partner_talk.js";
import { StorageManager } from "../shared/storage.js";
import { StatsView } from "./stats_view.js";
import { TabGuard } from "./tab_guard.js";
import { TableView } from "./table_view.js";
import { HintView } from "./hint_view.js";
import { HandReview } from "./hand_review.js";
import { ReplayView } from "./replay_view.js";
import { ShareDialog, forgetSharedURL, isSharedURL } from "./share.js";
import { t } from "../shared/i18n.js";

const $ = (id) => document.getElementById(id);

// The worker was started by engine_boot.js (loaded early, with `async`); the table and its
// start screen work at once, and reach the engine through `engine`, whose calls wait until
// it is ready (through a failure and its "Tentar de novo").
// Test hook: ?fail=pyodide makes the worker load Pyodide from a missing folder.
let table = null; // {manager, dialogs, offerStart}, from setUpTable()
let reofferStart = false; // loading failed while the start screen was up: it comes back on a retry
const progress = new EngineProgress({
  client,
  restart: startEngine,
  onFailed: () => {
    if (!table) return;
    // The message and its retry are on the table: no dialog may cover them. Had the player
    // already chosen to play (phase "loading"), the retry goes on to the deal instead.
    reofferStart = table.manager.app.dataset.phase === "start";
    table.dialogs.closeAll();
    if ($("stats-dialog").open) $("stats-dialog").close();
  },
  // A call passed its time limit: the client started a new worker; the game is put back.
  onStuck: (ev) => table?.manager.engineStuck(ev),
  onRetry: () => {
    if (!table || !reofferStart) return;
    reofferStart = false;
    table.offerStart();
  },
});
const engine = progress.gate();

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
  if (q.has("seed")) {
    // A seed is a whole number the engine drew (< 2^53) or any text; a longer number stays
    // text, which the engine takes as it is (as a Number it would be Infinity: no seed at all).
    const seed = q.get("seed");
    scenario.seed = /^\d+$/.test(seed) && Number.isSafeInteger(Number(seed)) ? Number(seed) : seed;
  }
  if (q.has("hands")) scenario.hands = q.get("hands").split("-").map((h) => h.split("."));
  if (q.has("score")) scenario.score = q.get("score").split(",").map(Number);
  if (q.has("dealer")) scenario.dealer = Number(q.get("dealer"));
  if (q.has("vira")) scenario.vira = q.get("vira");
  return { settings, scenario, fast: q.get("fast") === "1", autostart: q.get("autostart") === "1", shared: isSharedURL() };
}

function setUpTable() {
  const opts = urlOptions();
  const storage = new StorageManager();
  const root = $("app");
  const view = new TableView(root);
  let manager;
  let stats;
  // A match asked for before the engine is ready: the table shows the loading meanwhile.
  const play = (fn) => {
    if (!progress.ready) manager.setPhase("loading");
    return fn();
  };
  // Offer the start screen at once. "Continuar partida" is offered for a saved match that
  // passes the page's own check; once the engine is ready it loads the save (a refused one
  // is set aside and the button goes), and it loads it again when the button is pressed.
  let offers = 0;
  const offerStart = async () => {
    const offer = ++offers;
    const gen = manager.generation;
    manager.setPhase("start");
    const session = manager.savedSession();
    dialogs.showStart(session ? { session, obs: null } : null, manager.settings);
    if (!session) return;
    await progress.whenReady();
    const current = () => offer === offers && gen === manager.generation && dialogs.start.open;
    if (!current()) return; // a game started meanwhile, or the screen was offered again
    const saved = await manager.checkedSession();
    if (current()) dialogs.setSaved(saved);
  };
  const dialogs = new Dialogs({
    onStart: (settings) => play(() => manager.newGame(settings)),
    onContinue: () => {
      const session = manager.savedSession();
      if (session) play(() => manager.resume(session));
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
  const talk = new PartnerTalk({ root, client: engine, view, onSignal: (name) => manager.signal(name) });
  manager = new GameManager({
    client: engine, view, input, storage, dialogs, tabs, fast: opts.fast, scenario: opts.scenario, presets: dialogs.presets(), talk,
  });
  // Dica, hand review, replay and share (issue #12): modules of their own around the table.
  const pauseFor = (on) => manager.setPaused(on);
  manager.hints = new HintView({ client: engine, send: (action) => manager.play(action), busy: () => manager.busy || manager.paused });
  manager.review = new HandReview({ client: engine, onPause: pauseFor });
  const replay = new ReplayView({ client: engine, onPause: pauseFor });
  const share = new ShareDialog({ client: engine });
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
    play(() => openShared(manager, dialogs, settings, scenario, offerStart));
  } else if (opts.autostart) {
    play(() => manager.newGame(settings));
  } else {
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
  return { manager, dialogs, offerStart };
}

table = setUpTable();

/** Start the shared match, after asking when it would give up a saved game. */
async function openShared(manager, dialogs, settings, scenario, offerStart) {
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

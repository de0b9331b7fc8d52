// Page entry of the table: wires its modules at once, while the engine worker loads
// (engine_boot.js, loaded early with `async`); engine_progress.js shows where loading stands.
// Everything here is wiring: the modules do the work.
//
// The table and its start screen work at once, and reach the engine through `engine`, whose
// calls wait until it is ready (through a failure and its "Tentar de novo").
// Test hook: ?fail=pyodide makes the worker load Pyodide from a missing folder.

import { client, startEngine } from "../engine/engine_boot.js";
import { EngineProgress } from "../engine/engine_progress.js";
import { engineWords } from "../shared/engine_words.js";
import { t } from "../shared/i18n.js";
import { StorageManager } from "../shared/storage.js";
import { callName, setPlayerName } from "../shared/table_words.js";
import { TurnTimer } from "../shared/turn_timer.js";
import { installEngineHook, installTableHook } from "./console_hooks.js";
import { Dialogs } from "./dialogs.js";
import { GameManager } from "./game_manager.js";
import { HandReview } from "./hand_review.js";
import { HintView } from "./hint_view.js";
import { InputManager } from "./input_manager.js";
import { MatchRecord } from "./match_record.js";
import { MatchSetup } from "./match_setup.js";
import { MatchStore } from "./match_store.js";
import { Narrator } from "./narrator.js";
import { PartnerTalk } from "./partner_talk.js";
import { PassScreen } from "./pass_screen.js";
import { ReplayView } from "./replay_view.js";
import { seatedClient } from "./seats.js";
import { ShareDialog } from "./share.js";
import { TableSound, speakCall } from "./sound.js";
import { StartScreen } from "./start_screen.js";
import { StatsView } from "./stats_view.js";
import { TabGuard } from "./tab_guard.js";
import { TableScreen } from "./table_screen.js";
import { TableView } from "./table_view.js";
import { urlOptions } from "./url_options.js";

const $ = (id) => document.getElementById(id);

let table = null; // {manager, setup, screen, dialogs, start}, from setUpTable()
let reofferStart = false; // loading failed while the start screen was up: it comes back on a retry
const progress = new EngineProgress({
  client,
  restart: startEngine,
  onFailed: () => {
    if (!table) return;
    // The message and its retry are on the table: no dialog may cover them. Had the player
    // already chosen to play (phase "loading"), the retry goes on to the deal instead.
    reofferStart = table.screen.phase === "start";
    table.dialogs.closeAll();
    if ($("stats-dialog").open) $("stats-dialog").close();
  },
  // A call passed its time limit: the client started a new worker; the game is put back.
  onStuck: (ev) => table?.setup.engineStuck(ev),
  onRetry: () => {
    if (!table || !reofferStart) return;
    reofferStart = false;
    table.start.offer();
  },
});
const engine = progress.gate();
installEngineHook(client);

// A guest at a friends' table (`?join=1`): no engine here; the host's answers (friends/guest.js,
// loaded only then).
const joining = new URLSearchParams(location.search).has("join");
// The friends' table loads only when asked for (a guest's address, the host's "Jogar com
// amigos"): named through a constant, so the build's first-visit budget, which follows
// literal imports, does not count it.
const FRIENDS = "../friends/";
const ACHIEVEMENTS = "./achievements.js";
const friendsGuest = joining ? await import(`${FRIENDS}guest.js`) : null;

function setUpTable() {
  const opts = urlOptions();
  const root = $("app");
  const storage = new StorageManager();
  const view = new TableView(root, { motion: !opts.fast || opts.motion });
  // Built below; the callbacks that reach them run only once the page is wired.
  let manager;
  let setup;
  let store;
  let start;
  let stats;
  // The player's name (start screen) and the table's sound (its toggle), kept in the settings.
  const personal = (settings) => setPlayerName(settings.player_name);
  const dialogs = new Dialogs({
    onStart: (settings) => {
      personal(settings);
      start.play(() => setup.newGame(settings));
    },
    onContinue: () => start.continueSaved(),
    // A guest's next match is the host's to deal: its "Jogar de novo" tells the host it is ready.
    onAgain: () => (guest ? guest.again() : setup.newGame(manager.settings)),
    // A guest at a friends' table leaves it for this device's own table (the page without ?join).
    onMenu: () => (friendsGuest ? location.assign("./") : start.offer()),
    onLeave: () => (friendsGuest ? location.assign("./") : setup.leave()),
    onPause: (paused) => manager.setPaused(paused),
    onOpenStats: () => {
      stats.open();
      achievements().then((a) => a.list(), () => {});
    },
    leaveCounts: () => !manager.seats?.people, // people at the table: left, it counts for nobody
    onPlayHere: () => start.continueSaved({ waitForEngine: false }),
    hasSavedGame: () => store.savedSession() !== null,
    hasLastGame: () => Boolean(store.lastMatch()),
    onSettingsChange: (settings) => {
      manager.updateSettings(settings);
      personal(manager.settings);
      store.saveSettings(manager.settings);
      sound.setOn(manager.settings.sound !== false); // the header's toggle says the same
      showSound();
    },
  });
  const tabs = new TabGuard({
    onTakenOver: () => setup.takenOver(),
    onPresence: (elsewhere) => dialogs.setElsewhere(elsewhere),
  });
  storage.onTrouble((trouble) => dialogs.setStorageTrouble(trouble));
  const guest = friendsGuest ? new friendsGuest.GuestLink() : null;
  const engineFor = guest ? guest.client : engine;
  store = guest ? friendsGuest.guestStore : new MatchStore({ storage, dialogs, client: engine, presets: dialogs.presets() });

  // The table's surface: the view, the input, and (issue #12) the partner's talk, the Dica
  // and the hand review, modules of their own around it.
  const input = new InputManager(root, (intent) => manager.intent(intent));
  const pauseFor = (on) => manager.setPaused(on);
  // The Dica, the hand review and the replay speak for the seat on screen (pass-and-play).
  const seated = seatedClient(engineFor, (method, params) => manager.seatFor(method, params));
  const talk = new PartnerTalk({ root, client: engineFor, view, onSignal: (name) => manager.signal(name) });
  const hints = new HintView({ client: seated, send: (action) => manager.play(action), busy: () => manager.busy || manager.paused });
  const review = new HandReview({ client: seated, onPause: pauseFor });
  const narrator = new Narrator({ view, talk, reviewable: true });
  const screen = new TableScreen({ view, input, narrator, talk, hints, review });
  const timer = new TurnTimer({ show: (left, total) => screen.setTimer(left, total), onExpire: () => manager.timeUp() });
  const sound = new TableSound({ isOn: () => manager.settings.sound !== false, speakWord: (name) => speakCall(callName(name)) });
  // Who moves each seat is chosen at each match (seat_drivers.js): these are what the drivers use.
  const kit = { pass: new PassScreen(), sound, hostSeats: guest };
  manager = new GameManager({ client: engineFor, screen, dialogs, timer, kit,
    // The tests' ?fast=1 plays on by itself unless its address (or __truco.start) names a pace.
    pace: { fast: opts.fast, autoPace: opts.fast && !("auto_next" in opts.settings) } });
  // Each reply applied: counted and saved first, then heard.
  const record = new MatchRecord({ store, tabs });
  manager.onApplied((applied) => record.applied(applied));
  manager.onApplied(({ fresh, obs, quiet }) => quiet || sound.events(fresh, obs));
  // Achievements (issue 45): at each end of a match this device's player played, found by the
  // engine in what their seat saw; achievements.js loads then (or with the statistics).
  let achievementsLoad = null;
  const achievements = () => (achievementsLoad ??= import(ACHIEVEMENTS).then((m) => new m.Achievements({ client: engine, storage, dialogs }))
    .catch((err) => {
      achievementsLoad = null;
      throw err;
    }));
  manager.onApplied(({ obs, reply, kind }) => {
    const id = record.id;
    if (guest || !record.tally || !reply.save || obs.winner === null || obs.winner === undefined || kind === "resumed") return;
    achievements().then((a) => a.matchOver({ save: reply.save, id })).catch((err) => console.warn(`achievements: ${err?.message ?? err}`));
  });
  // A guest's engine is the host's: no opening of this page's (openings.js).
  setup = new MatchSetup({ table: manager, record, dialogs, scenario: opts.scenario, engineReady: () => Boolean(guest) || progress.ready });
  start = new StartScreen({ manager, setup, store, dialogs, progress });

  // Replay and share, and the buttons that open the reviews.
  const replay = new ReplayView({ client: seated, onPause: pauseFor });
  const share = new ShareDialog({ client: engine });
  const failed = (err) => dialogs.notice(t("error.engine", { message: engineWords(err) }));
  const openReview = (e) => review.open(Number(e.currentTarget.dataset.hand), manager.obs).catch(failed);
  $("banner-review").onclick = openReview; // in the hand's summary
  $("last-review").onclick = openReview; // at the table's corner once the next hand is under way
  $("end-replay").onclick = () => replay.open(manager.lastSave);
  $("end-share").onclick = () => share.open(manager.lastSave);
  // The last match's replay and link: its save checked by the engine first (a bad one is set
  // aside and said in the page's words; match_store.js).
  const withLast = (view) => () => store.checkedLast().then((save) => (save ? view.open(save) : start.offer()), failed);
  $("last-replay").onclick = withLast(replay);
  $("last-share").onclick = withLast(share);
  stats = new StatsView({ store, dialogs, restoreEngine: () => setup.restoreEngine(), onImported: () => start.offer() });
  const pause = $("pause");
  pause.onclick = () => {
    manager.setPaused(!manager.paused);
    pause.setAttribute("aria-pressed", String(manager.paused));
    pause.textContent = t(manager.paused ? "menu.resume" : "menu.pause");
  };

  const soundToggle = $("sound-toggle");
  const showSound = () => soundToggle.setAttribute("aria-pressed", String(manager.settings.sound !== false));
  soundToggle.onclick = () => {
    const on = manager.settings.sound === false;
    manager.updateSettings({ sound: on });
    // Kept with the start screen's choices (not the resumed match's own settings).
    store.saveSettings({ ...(store.storedSettings() ?? manager.settings), sound: on });
    sound.setOn(manager.settings.sound);
    showSound();
  };

  // "Jogar com amigos": the host's panel (friends/host.js, loaded when asked for).
  const friendsHost = async () => import(`${FRIENDS}host.js`);
  const hostPanel = async () => (await friendsHost()).openHostPanel({
    manager, client: engine, settings: dialogs.readForm(),
    startMatch: (chosen) => start.play(() => setup.newGame({ ...dialogs.readForm(), ...chosen, sound: manager.settings.sound })),
  });
  $("open-friends").onclick = () => hostPanel().catch(failed);
  // A friends' table resumed at the host: its guests rejoin with new codes (friends/host.js).
  manager.onApplied(({ kind, settings }) => {
    if (kind === "resumed" && settings.friends === "host") hostPanel().then((panel) => panel.host.resumed()).catch(failed);
  });
  if (guest) {
    const name = new MatchStore({ storage, dialogs, client: null }).storedSettings()?.player_name ?? "";
    friendsGuest.beginGuest({ link: guest, manager, deal: (settings) => setup.newGame(settings), name });
  }
  else start.begin(opts);
  personal(manager.settings);
  showSound();
  installTableHook({ manager, setup, dialogs, tabs, sound });
  return { manager, setup, screen, dialogs, start };
}

table = setUpTable();
// The page has started: boot_watch.js stands down (from here the page says what goes wrong).
document.documentElement.dataset.pageStarted = "";

// The game manager: the table's flow. It asks the engine (through the worker) for every
// rule, lets the bots move one at a time with a short pause, runs the turn timer, saves
// after every applied action (with the match's statistics so far), counts the match into
// the statistics when it ends, and hands each new observation to the view.

import { phraseNodes, portuguese, t, tNodes } from "../shared/i18n.js";
import { applyDeckColours, cardName } from "../shared/cards.js";
import { callName, maoDeXParams, speech } from "./table_view.js";
import { KEYS } from "../shared/storage.js";
import { DEFAULT_SETTINGS, load, newId } from "./saved_data.js";
import { commitTally, emptyStats, finishTally, newTally, tallyEvents } from "./stats.js";
import { caughtSignalsText } from "./partner_talk.js";

export { DEFAULT_SETTINGS };

const TABLE_MOVES = new Set(["play", "cover", "raise", "accept", "run"]);
const PAUSES = { bot: 750, handEnd: 1900, afterHuman: 250 };
// Animation speed (a setting): how long the bots' moves and the hand summaries stay.
export const SPEEDS = { lento: 1.7, normal: 1, rapido: 0.4 };
// Engine errors that say nothing about the save (the worker is not there to judge it).
const ENGINE_DOWN = new Set(["LoadError", "Terminated", "NotRunning", "DataCloneError"]);
// Seats at the table for each mode of the start screen (3 x 3 is the trucão de 6).
export const MODE_PLAYERS = { "1x1": 2, "2x2": 4, "3x3": 6 };

export class GameManager {
  constructor({ client, view, input, storage, dialogs, tabs = null, fast = false, scenario = {}, presets = null, talk = null }) {
    this.client = client;
    this.view = view;
    this.input = input;
    this.storage = storage;
    this.dialogs = dialogs;
    this.tabs = tabs; // TabGuard: one tab plays the saved game at a time
    this.fast = fast;
    this.presets = presets; // the presets the page offers, to check saved settings
    this.scenario = scenario;
    this.talk = talk; // PartnerTalk: the partner's opinion and the sinais (partner_talk.js)
    this.sessionId = null; // the match being played here
    this.tally = null; // its statistics so far (saved with it)
    this.obs = null;
    this.settings = { ...DEFAULT_SETTINGS };
    this.lastEvent = -1;
    this.busy = false;
    this.paused = false;
    this.hidden = document.visibilityState === "hidden";
    this.botTimer = null;
    this.botStepping = null; // the bot_step in the worker (a promise): no other request may race it
    this.signalling = false; // a signal is in the worker
    this.timer = null; // {deadline, total, remaining, interval}
    this.generation = 0; // bumps on new game / leave, so stale callbacks do nothing
    this.app = document.getElementById("app");
    this.hints = null; // HintView ("Dica"), set by main.js
    this.review = null; // HandReview ("Ver a mão"), set by main.js
    document.addEventListener("visibilitychange", () => this.onVisibility());
  }

  setPhase(phase) {
    this.app.dataset.phase = phase;
  }

  /** Pauses between moves, from the speed setting (none at all with `?fast=1`). */
  get pauses() {
    if (this.fast) return { bot: 0, handEnd: 0, afterHuman: 0 };
    const k = SPEEDS[this.settings.speed] ?? 1;
    return { bot: Math.round(PAUSES.bot * k), handEnd: Math.round(PAUSES.handEnd * k), afterHuman: Math.round(PAUSES.afterHuman * k) };
  }

  // ------------------------------------------------------------ saved data
  /** Read, migrate and check one kind of data; bad data is set aside and reported. */
  loadKind(kind) {
    return this.loadChecked(kind).value;
  }

  /** Like loadKind, and says whether bad data was found (and set aside): {value, bad}. */
  loadChecked(kind) {
    const value = this._load(kind);
    return { value, bad: this.lastBad === kind };
  }

  _load(kind) {
    this.lastBad = null;
    const r = load(this.storage, kind, { presets: this.presets });
    if (r.status === "ok") {
      if (r.migratedFrom !== null) {
        // Keep what was there, then store the current version (migrated once, not on every read).
        this.storage.setAside(KEYS[kind], r.raw, `migrated from version ${r.migratedFrom}`);
        this.storage.write(KEYS[kind], r.value);
      }
      return r.value;
    }
    if (r.status === "bad") {
      this.setAside(kind, r.raw, r.error);
      if (kind === "settings") return r.partial ?? null; // the good fields are still used
    }
    return null;
  }

  setAside(kind, raw, reason) {
    console.warn(`saved ${kind} set aside: ${reason}`);
    this.storage.setAside(KEYS[kind], raw, reason);
    this.lastBad = kind;
    this.dialogs.notice(t(`saved.bad.${kind}`), this.storage.backupURL());
  }

  /** The saved session, checked (except the save blob, which `checkedSession` tries). */
  savedSession() {
    return this.loadKind("session");
  }

  /**
   * The saved session once the engine has loaded its save (so a tampered game is caught
   * before "Continuar partida" is offered), with the observation it gives: {session, obs}.
   */
  async checkedSession() {
    const session = this.savedSession();
    if (!session) return null;
    try {
      const reply = await this.client.call("load", { save: session.save });
      this.savedObs = { [session.id]: reply.observation }; // for the score, if it is given up
      return { session, obs: reply.observation };
    } catch (err) {
      this.refusedSave(err);
      return null;
    }
  }

  /** Put this tab's game back into the engine after it was asked to check another save. */
  async restoreEngine() {
    if (this.obs && this.obs.winner === null && this.lastSave) {
      await this.client.call("load", { save: this.lastSave });
    }
  }

  /** The engine would not load the saved game: set it aside, unless the engine itself failed. */
  refusedSave(err) {
    if (ENGINE_DOWN.has(err?.errorType)) {
      this.dialogs.notice(t("error.engine", { message: err.message })); // the save stays where it is
      return;
    }
    const raw = this.storage.getRaw(KEYS.session);
    if (raw !== null) this.setAside("session", raw, err.message);
  }

  storedSettings() {
    return this.loadKind("settings");
  }

  saveSettings(settings) {
    applyDeckColours(settings);
    this.storage.write(KEYS.settings, { ...DEFAULT_SETTINGS, ...settings });
  }

  /** Add a finished match's tally to the statistics (once: the match id guards it). */
  commitStats(tally, entry) {
    const stats = this.loadKind("stats") ?? emptyStats();
    const next = commitTally(stats, tally, entry);
    if (next !== stats) this.storage.write(KEYS.stats, next);
  }

  /**
   * A saved match that is given up (the player starts another, or leaves the table): a
   * loss and an abandonment in the statistics, and no saved game any more.
   */
  abandonSaved(session, obs = null) {
    if (session?.tally && !session.tally.finished) {
      const entry = finishTally(session.tally, obs, { left: true });
      this.commitStats(session.tally, entry);
    }
    this.storage.remove(KEYS.session);
  }

  async resume(session) {
    const gen = ++this.generation;
    this.stopAll();
    const chosen = this.settings; // the start screen's, kept if the save is refused
    // The game's own settings, but the Dica as the player has it now (the start screen's).
    this.settings = { ...DEFAULT_SETTINGS, ...(session.settings || {}), hint: this.settings.hint === true };
    let reply;
    try {
      reply = await this.client.call("load", { save: session.save });
    } catch (err) {
      if (gen !== this.generation) return;
      this.settings = chosen;
      this.refusedSave(err);
      this.setPhase("start");
      this.dialogs.showStart(null, this.settings);
      return;
    }
    if (gen !== this.generation) return;
    this.sessionId = session.id;
    this.tally = session.tally ?? newTally(this.settings, session.id, { partial: true });
    this.hints?.setEnabled(this.settings.hint);
    this.claim();
    this.dialogs.closeAll();
    this.lastEvent = Math.max(...reply.observation.log.map((e) => e.n), -1);
    this.accept(reply, { quiet: true });
  }

  newGameParams(settings, sc = this.scenario) {
    const s = { ...DEFAULT_SETTINGS, ...settings };
    const params = {
      preset: s.preset,
      players: MODE_PLAYERS[s.mode] ?? 4,
      series: Number(s.series),
      timer: Number(s.timer),
      ferro: s.ferro,
      level: s.level,
      partner_level: s.partner_level,
      human_seat: 0,
      baralho_limpo: s.baralho_limpo === true,
      familia_real: s.familia_real === true,
    };
    if (s.mode !== "1x1") {
      // Engine options for tables with partners (issue #12); the api turns the flag into the seat.
      params.humano_decide = s.humano_decide !== false;
      params.sinais = s.sinais !== false;
    }
    if (sc.seed !== undefined) params.seed = sc.seed;
    if (sc.hands) params.hands = sc.hands;
    if (sc.score) params.score = sc.score;
    if (sc.dealer !== undefined) params.dealer = sc.dealer;
    if (sc.vira) params.vira = sc.vira;
    return params;
  }

  /**
   * An engine call passed its time limit and the worker was started again (EngineClient):
   * put the match in play back from its last save, and say so in a line. If it happens
   * again in the same match, the save itself may be what sticks the engine: offer to set
   * it aside.
   */
  async engineStuck({ method }) {
    const gen = ++this.generation; // replies to the old worker's calls are dropped
    this.stopAll();
    this.busy = false;
    const save = this.lastSave;
    const inPlay = this.obs && this.obs.winner === null && save && this.sessionId;
    if (!inPlay) {
      this.dialogs.notice(t("engine.stuck", { method }));
      return;
    }
    this.stuckTimes = (this.stuckSession === this.sessionId ? this.stuckTimes : 0) + 1;
    this.stuckSession = this.sessionId;
    if (this.stuckTimes >= 2) {
      const setAside = await this.dialogs.confirm({
        title: t("engine.stuck_again"), detail: t("engine.stuck_again.detail"),
        yes: t("engine.stuck_again.yes"), no: t("engine.stuck_again.no"),
      });
      if (gen !== this.generation) return;
      if (setAside) {
        const raw = this.storage.getRaw(KEYS.session);
        if (raw !== null) this.setAside("session", raw, `the engine got stuck twice (${method})`);
        this.obs = null;
        this.setPhase("start");
        this.dialogs.showStart(null, this.settings);
        return;
      }
    }
    let reply;
    try {
      reply = await this.client.call("load", { save });
    } catch (err) {
      if (gen !== this.generation) return;
      this.dialogs.notice(t("error.engine", { message: err.message }));
      return;
    }
    if (gen !== this.generation) return;
    this.view.banner(t("engine.stuck.resumed"), "", "error");
    this.lastEvent = Math.max(...reply.observation.log.map((e) => e.n), -1);
    this.accept(reply, { quiet: true });
  }

  /** A new match; `scenario` (seed, fixed deal…) defaults to the page's (its address). */
  async newGame(settings, scenario = this.scenario) {
    const gen = ++this.generation;
    this.stopAll();
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.saveSettings(this.settings);
    this.dialogs.closeAll();
    this.view.clearBanner();
    this.view.clearBubbles();
    let reply;
    try {
      reply = await this.client.call("new_game", this.newGameParams(this.settings, scenario));
    } catch (err) {
      if (gen !== this.generation) return;
      const fromAddress = Object.keys(scenario ?? {}).length > 0;
      if (fromAddress && err.errorType === "ValueError") {
        // The address described no possible match (a card twice, a score the rules cannot
        // reach…): the link is at fault, not the engine; the next "Começar" deals afresh.
        if (scenario === this.scenario) this.scenario = {};
        this.dialogs.notice(t("error.url_scenario", { message: err.message }));
      } else {
        this.dialogs.notice(t("error.engine", { message: err.message }));
      }
      this.setPhase("start");
      this.dialogs.showStart(null, this.settings);
      return;
    }
    if (gen !== this.generation) return;
    // A game still saved is given up for this one (the start screen asked first).
    const stored = this.savedSession();
    if (stored) this.abandonSaved(stored, stored.id === this.sessionId ? this.obs : this.savedObs?.[stored.id] ?? null);
    this.sessionId = newId();
    this.tally = newTally(this.settings, this.sessionId);
    this.review?.reset();
    this.hints?.setEnabled(this.settings.hint);
    this.claim();
    this.lastEvent = -1;
    this.accept(reply, {});
  }

  // ------------------------------------------------------------ the game loop
  /** Take a reply {observation, save}: save it, show what happened, move on. */
  accept(reply, { quiet = false, keepTimer = false } = {}) {
    const obs = reply.observation;
    this.obs = obs;
    const fresh = obs.log.filter((e) => e.n > this.lastEvent);
    if (fresh.length) this.lastEvent = fresh[fresh.length - 1].n;
    if (this.tally) tallyEvents(this.tally, fresh, obs);
    this.lastSave = reply.save;
    if (obs.winner === null) {
      // One write: the game and its statistics so far, so a reload never counts twice.
      this.storage.write(KEYS.session, {
        id: this.sessionId, tab: this.tabs?.id ?? null, save: reply.save, settings: this.settings, tally: this.tally,
      });
    } else {
      if (this.tally && !this.tally.finished) this.commitStats(this.tally, finishTally(this.tally, obs));
      // Kept for "Rever a partida" and "Compartilhar" from the start screen, after a reload too.
      if (this.sessionId) this.storage.write(KEYS.last, { save: reply.save, settings: this.settings, at: Date.now() });
      this.storage.remove(KEYS.session); // a finished match is not resumed
      this.tabs?.release();
    }
    this.review?.see(obs);
    const handEnd = quiet ? null : fresh.find((e) => e.type === "hand");
    this.dialogs.hideStart();
    // Render first: the seats' speech bubbles must exist before the events are narrated.
    const narrate = (events) => { if (!quiet) for (const e of events) this.narrate(e); };
    if (handEnd) {
      const gen = this.generation;
      this.busy = true;
      this.view.render(obs, { rounds: finishedRounds(obs.log, handEnd.n) });
      this.talk?.show(obs, { busy: true });
      // The hand's result is heard before the next deal is.
      narrate(fresh.filter((e) => e.n <= handEnd.n));
      this.showHandSummary(handEnd, obs);
      narrate(fresh.filter((e) => e.n > handEnd.n));
      this.hints?.update(obs, { frozen: true });
      this.input.update({ coverAllowed: false, coverMode: false });
      this.later(() => {
        if (gen !== this.generation) return;
        this.busy = false;
        this.show(obs);
      }, this.pauses.handEnd);
      return;
    }
    // The last hand's summary sits over the middle of the table: once the new hand is
    // under way (a card or a call) it would hide what was just played.
    if (fresh.some((e) => TABLE_MOVES.has(e.type))) this.view.hideSummary();
    this.view.render(obs);
    narrate(fresh);
    this.show(obs, { rendered: true, keepTimer });
  }

  show(obs, { rendered = false, keepTimer = false } = {}) {
    if (!rendered) this.view.render(obs);
    const coverAllowed = obs.legal_actions.some((a) => a.startsWith("cover "));
    this.view.coverMode = this.view.coverMode && coverAllowed;
    this.input.update({ coverAllowed, coverMode: this.view.coverMode });
    this.hints?.update(obs);
    if (obs.winner !== null) {
      this.setPhase("over");
      this.stopTimer();
      this.dialogs.showEnd(this.endText(obs));
      return;
    }
    this.talk?.show(obs, { busy: this.busy });
    if (obs.to_move === obs.seat) {
      this.setPhase("human");
      if (keepTimer && this.timer) return; // a signal on the human's turn: the clock runs on
      this.view.announce(t("announce.your_turn"));
      this.startTimer();
      const first = document.querySelector("#actions button, #hand .card.in-hand:not(:disabled)");
      if (first && !this.app.contains(document.activeElement)) first.focus({ preventScroll: true });
    } else {
      this.setPhase("bots");
      this.stopTimer();
      this.scheduleBot();
    }
  }

  scheduleBot() {
    if (this.paused || this.botTimer !== null || this.botStepping || this.signalling) return;
    const gen = this.generation;
    this.botTimer = this.later(async () => {
      this.botTimer = null;
      if (gen !== this.generation || this.paused || this.signalling) return;
      let reply;
      // `fallback`: should the bot's own decision fail, the engine makes a simple seeded legal
      // move for that seat, so the match goes on (said once to the console; a console error
      // fails the browser tests, so none of them may rely on it).
      const step = this.client.call("bot_step", { fallback: true });
      this.botStepping = step;
      try {
        reply = await step;
      } catch (err) {
        this.dialogs.notice(t("error.engine", { message: err.message }));
        return;
      } finally {
        if (this.botStepping === step) this.botStepping = null;
      }
      if (gen !== this.generation) return;
      if (reply.fallback && !this.fallbackTold) {
        this.fallbackTold = true;
        const { seat, action, error } = reply.fallback;
        console.error(`bot of seat ${seat} failed (${error}); played ${action} instead so the match goes on`);
      }
      this.accept(reply);
    }, this.pauses.bot);
  }

  later(fn, ms) {
    return ms > 0 ? setTimeout(fn, ms) : (queueMicrotask(fn), 0);
  }

  /** The human's intent from the input manager. */
  async intent(intent) {
    const obs = this.obs;
    if (!obs || this.busy || this.paused || obs.to_move !== obs.seat) return;
    let action;
    if (intent.type === "card") {
      if (obs.blind) action = `play #${intent.index + 1}`;
      else {
        const card = obs.hand[intent.index];
        if (!card) return;
        action = `${intent.cover ? "cover" : "play"} ${card}`;
      }
      // Show the card on the table at once; the engine's reply confirms it (or, for a
      // refused move, the next render puts it back in the hand).
      this.view.previewPlay(intent.index, Boolean(intent.cover) && !obs.blind);
    } else if (intent.action === "toggle-cover") {
      this.view.coverMode = !this.view.coverMode;
      this.show(obs);
      return;
    } else {
      action = intent.action;
    }
    await this.send(action);
  }

  /** An action chosen outside the table's own controls (following a hint). */
  async play(action) {
    const obs = this.obs;
    if (!obs || this.busy || this.paused || obs.to_move !== obs.seat) return;
    if (action.startsWith("signal ")) return this.signal(action.slice(7)); // the turn goes on
    await this.send(action);
  }

  async send(action) {
    const gen = this.generation;
    this.busy = true;
    this.talk?.hold();
    this.stopTimer();
    this.view.coverMode = false;
    let reply;
    try {
      reply = await this.client.call("apply", { action });
    } catch (err) {
      this.busy = false;
      if (gen !== this.generation) return;
      this.view.banner(t("error.action", { message: err.message }), "", "error");
      this.show(this.obs); // the game is as it was
      return;
    }
    this.busy = false;
    if (gen !== this.generation) return;
    this.view.hideBanner();
    this.accept(reply);
  }

  /**
   * Send the partner a sinal (`signal <name>`): allowed on anyone's turn before the human's
   * first card, so the bots wait while it is in the worker, and the turn's clock runs on.
   */
  async signal(name) {
    if (this.signalling) return;
    const gen = this.generation;
    this.signalling = true; // from now on no bot step starts
    if (this.botStepping) {
      // A bot is moving: its reply is shown first (the wait is a fraction of a second).
      try {
        await this.botStepping;
      } catch {
        /* reported by the bot loop */
      }
    }
    const obs = this.obs;
    if (gen !== this.generation) return;
    if (!obs?.may_signal || obs.winner !== null || this.busy || this.paused) {
      this.signalling = false;
      if (obs && obs.winner === null && !this.busy && !this.paused && obs.to_move !== obs.seat) this.scheduleBot();
      return;
    }
    if (this.botTimer) clearTimeout(this.botTimer); // the callback also checks `signalling`
    this.botTimer = null;
    let reply;
    try {
      reply = await this.client.call("apply", { action: `signal ${name}` });
    } catch (err) {
      if (gen !== this.generation) return; // stopAll() has reset `signalling`
      this.signalling = false;
      this.view.banner(t("error.action", { message: err.message }), "", "error");
      this.show(this.obs, { keepTimer: true });
      return;
    }
    if (gen !== this.generation) return;
    this.signalling = false;
    this.accept(reply, { keepTimer: true });
  }

  // ------------------------------------------------------------- narration
  narrate(e) {
    const v = this.view;
    const name = (s) => v.name(s);
    switch (e.type) {
      case "deal":
        v.clearBubbles();
        v.announce(t("announce.deal", { name: name(e.dealer) }));
        break;
      case "play":
        v.announce(t("announce.play", { name: name(e.seat), card: cardName(e.card) }));
        break;
      case "cover":
        v.announce(t("announce.cover", { name: name(e.seat) }));
        break;
      case "raise":
        v.say(e.seat, speech(e));
        v.announce(t("announce.raise", { name: name(e.seat), call: callName(e.name), value: e.value }));
        break;
      case "accept":
        v.say(e.seat, speech(e));
        v.announce(t("announce.accept", { name: name(e.seat), value: e.value }));
        break;
      case "run":
        v.say(e.seat, speech(e));
        v.announce(t("announce.run", { name: name(e.seat) }));
        break;
      case "exchange":
        v.say(e.seat, phraseNodes("say.exchange", e.n));
        break;
      case "vira":
        v.announce(t("announce.vira", { card: cardName(e.card) }));
        break;
      case "round": {
        const us = this.obs.team;
        const ord = t(`ord.${e.round}`);
        const result = e.result === "tie" ? t("round.tie", { ord }) : e.result === us ? t("round.won", { ord }) : t("round.lost", { ord });
        v.announce(t("announce.round", { n: e.round, result }));
        break;
      }
      case "signal":
        this.talk?.narrate(e, this.obs);
        break;
      case "timeout":
        v.say(e.seat, phraseNodes("say.timeout", e.n));
        if (e.seat === this.obs.seat) v.banner(t("timer.auto"), "", "warn");
        break;
      default:
        break;
    }
  }

  showHandSummary(e, obs) {
    const us = obs.team;
    const won = e.winner === us;
    let title;
    if (e.winner === null) title = t("hand.void");
    else if (e.reason === "run") title = t(won ? "hand.run_won" : "hand.run_lost", { points: e.points });
    else if (e.reason === "dez_run") {
      const kind = portuguese(t("hud.kind.dez", maoDeXParams(obs.rules))); // "mão de dez", in Portuguese everywhere
      title = tNodes(won ? "hand.dez_run_won" : "hand.dez_run_lost", { kind, points: e.points });
    }
    else title = t(won ? "hand.won" : "hand.lost", { points: e.points });
    const detail = (e.rounds || []).map((r, i) => {
      const ord = t(`ord.${i + 1}`);
      return r === "tie" ? t("round.tie", { ord }) : r === us ? t("round.won", { ord }) : t("round.lost", { ord });
    }).join(", ");
    const tone = e.winner === null ? "" : won ? "good" : "bad";
    // A sinal the other pair caught is told once the hand is over (the engine logs it then).
    const caughtEvent = obs.log.find((x) => x.n === e.n - 1 && x.type === "signals_caught"); // logged just before
    const caught = caughtEvent ? caughtSignalsText(caughtEvent, obs, this.view) : "";
    const sentence = detail ? detail.charAt(0).toUpperCase() + detail.slice(1) + "." : "";
    const titleText = title.textContent ?? title; // read before the banner takes the nodes
    this.view.banner(title, sentence, tone, caught, "summary");
    if (this.review) this.view.offerReview(e.n);
    this.view.announce(`${titleText} ${sentence} ${caught}`.trim());
  }

  endText(obs) {
    const us = obs.team;
    if (obs.abandoned_by !== null) {
      return obs.abandoned_by === obs.seat
        ? { title: t("match.abandon_you"), won: false, obs }
        : { title: t("match.abandon_other", { name: this.view.name(obs.abandoned_by) }), won: true, obs };
    }
    const won = obs.winner === us;
    return { title: t(won ? "match.won" : "match.lost"), won, obs };
  }

  // -------------------------------------------------------------- the timer
  startTimer() {
    const total = Number(this.obs?.options?.timer || 0);
    this.stopTimer();
    if (!total) {
      this.view.setTimer(null);
      return;
    }
    this.timer = { total, remaining: total * 1000, deadline: null, interval: null };
    this.runTimer();
  }

  runTimer() {
    const tm = this.timer;
    if (!tm || this.paused || this.hidden || tm.interval !== null) return;
    tm.deadline = Date.now() + tm.remaining;
    const tick = () => {
      const left = tm.deadline - Date.now();
      this.view.setTimer(left / 1000, tm.total);
      if (left <= 0) {
        this.stopTimer();
        this.send("timeout");
      }
    };
    tm.interval = setInterval(tick, 250);
    tick();
  }

  holdTimer() {
    const tm = this.timer;
    if (!tm || tm.interval === null) return;
    clearInterval(tm.interval);
    tm.interval = null;
    tm.remaining = Math.max(0, tm.deadline - Date.now());
  }

  stopTimer() {
    if (this.timer?.interval != null) clearInterval(this.timer.interval);
    this.timer = null;
    this.view.setTimer(null);
  }

  onVisibility() {
    this.hidden = document.visibilityState === "hidden";
    if (this.hidden) this.holdTimer(); // a phone call must not cost an abandonment
    else this.runTimer();
  }

  // ----------------------------------------------------- pause and leaving
  setPaused(paused) {
    if (!this.obs || this.obs.winner !== null) return;
    this.paused = paused;
    this.app.dataset.paused = String(paused);
    if (paused) {
      this.holdTimer();
      if (this.botTimer) {
        clearTimeout(this.botTimer);
        this.botTimer = null;
      }
    } else {
      this.runTimer();
      if (this.obs.to_move !== this.obs.seat && !this.busy) this.scheduleBot();
    }
  }

  /** "Sair da mesa": the match counts as lost (and abandoned). */
  leave() {
    this.generation++;
    this.stopAll();
    if (this.tally && this.obs && this.obs.winner === null) {
      this.abandonSaved({ id: this.sessionId, tally: this.tally }, this.obs);
    }
    this.storage.remove(KEYS.session);
    this.tabs?.release();
    this.tally = null;
    this.sessionId = null;
    this.obs = null;
    this.setPhase("start");
    this.dialogs.showStart(null, this.settings);
  }

  /** This tab plays the saved game now (tabs only share it when storage keeps it). */
  claim() {
    if (this.storage.persistent) this.tabs?.claim();
  }

  /** Another tab took the game: stop here without saving anything more. */
  takenOver() {
    if (!this.obs || this.obs.winner !== null || !this.storage.persistent) return;
    this.generation++;
    this.stopAll();
    this.tally = null;
    this.sessionId = null;
    this.setPhase("elsewhere");
    this.dialogs.showElsewhere();
  }

  stopAll() {
    this.stopTimer();
    if (this.botTimer) clearTimeout(this.botTimer);
    this.botTimer = null;
    this.botStepping = null; // a reply still on its way belongs to the old generation
    this.signalling = false;
    this.busy = false;
    this.paused = false;
    this.app.dataset.paused = "false";
  }
}

/** The rounds of the hand that just ended, rebuilt from the public log (cards as seen). */
export function finishedRounds(log, handEventN) {
  let start = 0;
  for (const e of log) {
    if (e.n > handEventN) break;
    if (e.type === "deal") start = e.n;
  }
  const rounds = [{ plays: [], result: null, winner: null }];
  for (const e of log) {
    if (e.n <= start || e.n > handEventN) continue;
    const cur = rounds[rounds.length - 1];
    if (e.type === "play" || e.type === "cover") {
      cur.plays.push({ seat: e.seat, card: e.card, covered: e.type === "cover" });
    } else if (e.type === "round") {
      cur.result = e.result;
      cur.winner = e.seat;
      rounds.push({ plays: [], result: null, winner: null });
    }
  }
  if (rounds.length > 1 && rounds[rounds.length - 1].plays.length === 0) rounds.pop();
  return rounds;
}

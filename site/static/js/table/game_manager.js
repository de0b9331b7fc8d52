// The game manager: the table's game loop. It asks the engine (through the worker) for every
// rule: a new match, a saved one resumed, the player's actions applied, the bots stepped one
// at a time with a short pause, the match put back when the engine got stuck. Each reply is
// saved (MatchStore), shown (TableScreen) and timed (TurnTimer) by its collaborators.

import { listText, t } from "../shared/i18n.js";
import { setSeatNamer } from "../shared/table_words.js";
import { SPEEDS, newGameParams, pausesFor } from "./match_params.js";
import { setOwnLabel } from "./pass_screen.js";
import { Seats, publicObservation } from "./seats.js";
import { DEFAULT_SETTINGS, newId } from "./saved_data.js";
import { PEOPLE, newTally, personKey, tallyEvents, tallyView } from "./stats.js";
import { finishedRounds } from "./table_screen.js";

export { SPEEDS }; // the speed setting's factors (match_params.js)

export class GameManager {
  /**
   * @param {object} o  {client (the engine), screen (TableScreen), store (MatchStore),
   *   dialogs (Dialogs), tabs (TabGuard: one tab plays the saved game at a time, or null),
   *   timer (TurnTimer; its time up must call timeUp()), fast (no pauses), autoPace (the
   *   hand summaries give way by themselves whatever the "Seguir sozinho" setting says:
   *   `?fast=1` without an `auto_next` of its own, for the tests), scenario (the address's
   *   seed, deal...), sound (TableSound: sounds and vibrations, or null),
   *   pass (PassScreen: pass-and-play's "Passe para …", or null)}
   */
  constructor({ client, screen, store, dialogs, tabs = null, timer, fast = false, autoPace = false, scenario = {}, sound = null, pass = null }) {
    this.client = client;
    this.screen = screen;
    this.store = store;
    this.dialogs = dialogs;
    this.tabs = tabs;
    this.timer = timer;
    this.fast = fast;
    this.autoPace = autoPace;
    this.scenario = scenario;
    this.sound = sound;
    this.nextHand = null; // while a hand's summary waits for the player: what goes on
    this.sessionId = null; // the match being played here
    this.tally = null; // its statistics so far (saved with it): this device's player's
    this.others = []; // pass-and-play: the other people's at this device (one per person)
    this.obs = null;
    this.lastSave = null;
    this.settings = { ...DEFAULT_SETTINGS };
    this.lastEvent = -1;
    this.busy = false;
    this.paused = false;
    this.hidden = document.visibilityState === "hidden";
    this.botTimer = null;
    this.botStepping = null; // the bot_step in the worker (a promise): no other request may race it
    this.signalling = false; // a signal is in the worker
    this.generation = 0; // bumps on new game / leave, so stale callbacks do nothing
    // Pass-and-play (seats.js): who plays each seat, the human seat on screen (null: nobody's
    // view, before the first pass), and the seat the pass screen waits for.
    this.pass = pass;
    this.seats = null;
    this.screenSeat = null;
    this.passing = null;
    // A friends' table's host (friends/host.js): the seats played from other devices.
    this.remote = null;
    document.addEventListener("visibilitychange", () => this.onVisibility());
  }

  setPhase(phase) {
    this.screen.setPhase(phase);
  }

  /** The engine call's view at a shared table: the seat on screen (null: nobody's cards). */
  viewParams() {
    return this.seats?.shared ? { seat: this.screenSeat } : {};
  }

  /** The seats of the match about to be played (its settings); nobody on screen yet. */
  seatUp(settings) {
    this.seats = new Seats(settings);
    this.screenSeat = null;
    this.passing = null;
    setSeatNamer(this.seats.people ? (seat) => this.seats.name(seat) : null);
    setOwnLabel(null);
  }

  /** The seat a review call (hint, history, replay of this match) speaks for: the one on screen. */
  seatFor(method, params) {
    if (!this.seats?.shared || this.screenSeat === null) return undefined;
    if (!["hint", "history", "replay"].includes(method)) return undefined;
    if (method === "replay" && params.save && params.save !== this.lastSave) return undefined;
    return this.screenSeat;
  }

  /**
   * Whether a hand's summary gives way by itself after a pause ("Seguir sozinho"); by
   * default it stays until the player goes on (a tap, Enter or Space).
   */
  get autoNext() {
    return this.autoPace || this.settings.auto_next === true;
  }

  /** Pauses between moves, from the speed setting (none at all with `?fast=1`). */
  get pauses() {
    return pausesFor(this.settings, this.fast);
  }

  /** Back to the start screen, with the settings as they are. */
  toStart() {
    this.setPhase("start");
    this.dialogs.showStart(null, this.settings);
  }

  /** Put this tab's game back into the engine after it was asked to check another save. */
  async restoreEngine() {
    if (this.obs && this.obs.winner === null && this.lastSave) {
      await this.client.call("load", { save: this.lastSave, ...this.viewParams() });
    }
  }

  // ------------------------------------------------------------ starting a match
  async resume(session) {
    const gen = ++this.generation;
    this.stopAll();
    const chosen = this.settings; // the start screen's, kept if the save is refused
    // The game's own settings, but the Dica, the pace, the sound and the name as the player
    // has them now (the start screen's).
    const { hint, auto_next, sound, player_name } = { ...DEFAULT_SETTINGS, ...this.settings };
    this.settings = {
      ...DEFAULT_SETTINGS, ...(session.settings || {}), hint: hint === true, auto_next: auto_next === true, sound, player_name,
    };
    this.seatUp(this.settings); // a shared table resumes on a pass screen, no hand shown first
    let reply;
    try {
      reply = await this.client.call("load", { save: session.save, ...this.viewParams() });
      // A friends' table hosted here: its guests are away until they rejoin with new codes
      // (friends/host.js); their bots play meanwhile.
      if (this.settings.friends === "host") reply = await this.client.call("set_humans", { humans: [0] });
    } catch (err) {
      if (gen !== this.generation) return;
      this.settings = chosen;
      this.store.refusedSave(err);
      this.toStart();
      return;
    }
    if (gen !== this.generation) return;
    this.sessionId = session.id;
    // Statistics: each person at this device has a tally (a missing one counts from here on).
    const made = this.newTallies(session.id, { partial: true });
    this.tally = made.tally && (session.tally ?? made.tally);
    this.others = made.others.map((m) => session.tallies?.find((o) => o.seat === m.seat && personKey(o.name) === personKey(m.name)) ?? m);
    this.screen.setHints(this.settings.hint);
    this.claim();
    this.dialogs.closeAll();
    this.lastEvent = Math.max(...reply.observation.log.map((e) => e.n), -1);
    this.accept(reply, { quiet: true });
    // A friends' table resumed at the host: its guests rejoin with new codes (friends/host.js).
    if (this.settings.friends === "host") this.onFriendsTable?.();
  }

  /** A new match; `scenario` (seed, fixed deal…) defaults to the page's (its address). */
  async newGame(settings, scenario = this.scenario) {
    const gen = ++this.generation;
    this.stopAll();
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.store.saveSettings(this.settings);
    this.dialogs.closeAll();
    this.screen.clear();
    this.seatUp(this.settings);
    let reply;
    try {
      reply = await this.client.call("new_game", { ...newGameParams(this.settings, scenario), ...this.viewParams() });
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
      this.toStart();
      return;
    }
    if (gen !== this.generation) return;
    // A game still saved is given up for this one (the start screen asked first).
    this.store.abandonStored({ id: this.sessionId, obs: this.obs });
    this.sessionId = newId();
    ({ tally: this.tally, others: this.others } = this.newTallies(this.sessionId));
    this.screen.newMatch({ hint: this.settings.hint });
    this.remote?.newMatch(); // a friends' table: the guests still connected keep their seats
    this.claim();
    this.lastEvent = -1;
    this.accept(reply, {});
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
        this.store.setAsideSession(`the engine got stuck twice (${method})`);
        this.obs = null;
        this.toStart();
        return;
      }
    }
    let reply;
    try {
      reply = await this.client.call("load", { save, ...this.viewParams() });
    } catch (err) {
      if (gen !== this.generation) return;
      this.dialogs.notice(t("error.engine", { message: err.message }));
      return;
    }
    if (gen !== this.generation) return;
    this.screen.resumedAfterStuck();
    this.lastEvent = Math.max(...reply.observation.log.map((e) => e.n), -1);
    this.accept(reply, { quiet: true });
  }

  /**
   * The tallies of a match (stats.js): this device's player's (seat 0) and, at a
   * pass-and-play table, one for each other person by name (a name met twice at one table
   * counts once: one result per person). The opponents' level is "pessoas" when a person
   * sits on the other side. A friends' table across devices is not counted.
   */
  newTallies(id, { partial = false } = {}) {
    if (this.settings.friends) return { tally: null, others: [] };
    const seats = this.seats;
    const level = (seat) => (seats.humans.some((s) => s % 2 !== seat % 2) ? PEOPLE : this.settings.level);
    const tally = newTally(this.settings, id, { partial, level: level(0) });
    const taken = new Set([personKey(seats.name(0))]);
    const others = [];
    for (const seat of seats.humans) {
      const name = seats.name(seat);
      if (seat === 0 || taken.has(personKey(name))) continue;
      taken.add(personKey(name));
      others.push(newTally(this.settings, id, { partial, seat, name, level: level(seat) }));
    }
    return { tally, others };
  }

  // ------------------------------------------------------------ the game loop
  /** Take a reply {observation, save}: save it, show what happened, move on. */
  accept(reply, { quiet = false, keepTimer = false } = {}) {
    const obs = reply.observation;
    const before = this.obs; // the hand that may just have ended, as it stood
    this.obs = obs;
    const fresh = obs.log.filter((e) => e.n > this.lastEvent);
    if (fresh.length) this.lastEvent = fresh[fresh.length - 1].n;
    for (const tally of [this.tally, ...this.others]) if (tally) tallyEvents(tally, fresh, tallyView(obs, tally.seat));
    this.lastSave = reply.save;
    const match = { id: this.sessionId, save: reply.save, settings: this.settings, tally: this.tally, tallies: this.others };
    if (obs.winner === null) {
      this.store.saveProgress({ ...match, tab: this.tabs?.id ?? null });
    } else {
      this.store.matchOver({ ...match, obs });
      this.tabs?.release();
    }
    this.screen.see(obs);
    this.remote?.changed(obs);
    if (!quiet) this.sound?.events(fresh, obs);
    const handEnd = quiet ? null : fresh.find((e) => e.type === "hand");
    this.dialogs.hideStart();
    if (handEnd) {
      // The hand's result is read before the next deal is made: the summary stays until the
      // player goes on, or for a pause ("Seguir sozinho"); the next hand's events wait too.
      const gen = this.generation;
      this.busy = true;
      this.screen.handEnded(obs, fresh, handEnd, finishedRounds(obs.log, handEnd.n), { before });
      const goOn = () => {
        if (gen !== this.generation || this.nextHand !== goOn) return;
        this.nextHand = null;
        this.busy = false;
        this.screen.nextHand(obs, fresh.filter((e) => e.n > handEnd.n), { dismissed: !this.autoNext });
        this.show(obs);
      };
      this.nextHand = goOn;
      if (this.autoNext) this.later(goOn, this.pauses.handEnd);
      else this.screen.waitForPlayer(obs, goOn);
      return;
    }
    if (this.seats?.passTarget(obs, this.screenSeat) != null) {
      this.show(obs); // another person's turn: straight to the pass screen, nothing drawn
      return;
    }
    this.screen.moved(obs, fresh, { quiet });
    this.show(obs, { rendered: true, keepTimer });
  }

  show(obs, { rendered = false, keepTimer = false } = {}) {
    const passTo = this.seats?.passTarget(obs, this.screenSeat) ?? null;
    if (passTo !== null) {
      this.passTo(passTo, obs);
      return;
    }
    this.screen.ready(obs, { rendered });
    if (obs.winner !== null) {
      this.setPhase("over");
      this.timer.stop();
      const end = this.screen.endText(obs);
      this.dialogs.showEnd(this.seats?.people ? { ...end, title: this.sharedEndTitle(obs) } : end);
      return;
    }
    this.screen.showTalk(obs, { busy: this.busy });
    if (this.remote?.plays(obs.to_move)) {
      this.setPhase("bots"); // a friend's turn, on their device: the host waits for it
      this.timer.stop();
      this.remote.turn(obs);
    } else if (obs.to_move === obs.seat) {
      this.setPhase("human");
      if (keepTimer && this.timer.active) return; // a signal on the human's turn: the clock runs on
      this.screen.yourTurn();
      this.sound?.yourTurn(obs);
      this.timer.start(Number(obs.options?.timer || 0), { held: this.paused || this.hidden });
    } else {
      this.setPhase("bots");
      this.timer.stop();
      this.scheduleBot();
    }
  }

  // ------------------------------------------------------------ pass-and-play
  /**
   * The device goes to another person (`seat`): the table is drawn again with what anyone
   * sees (no hand, no covered card, no signal), the clock stops, and "Passe para …" waits
   * for that person's tap before their view is asked for (passed()).
   */
  passTo(seat, obs) {
    if (this.passing === seat && this.pass?.open) return;
    this.passing = seat;
    this.timer.stop();
    const pub = publicObservation(obs);
    this.obs = pub;
    this.screen.view.clearBubbles();
    this.screen.view.liveEl.textContent = "";
    this.screen.ready(pub);
    this.screen.showTalk(pub, { busy: true });
    this.setPhase("pass");
    setOwnLabel(null);
    this.pass?.show(seat, this.seats.name(seat));
  }

  /** The person the device was passed to tapped: their view, then their turn (and clock). */
  async passed(seat) {
    if (this.passing !== seat) return;
    const gen = this.generation;
    let reply;
    try {
      reply = await this.client.call("observation", { seat });
    } catch (err) {
      if (gen === this.generation) this.dialogs.notice(t("error.engine", { message: err.message }));
      return;
    }
    if (gen !== this.generation || this.passing !== seat) return;
    this.passing = null;
    this.screenSeat = seat;
    this.pass?.hide();
    setOwnLabel(this.seats.name(seat));
    this.accept(reply, { quiet: true });
  }

  /** "Ana e Bia venceram a partida!" / "Ana venceu a partida!": a shared table's end names
   * the winners (the verb agrees with how many). */
  sharedEndTitle(obs) {
    const names = this.seats.humans.filter((s) => s % 2 === obs.winner).map((s) => this.seats.name(s));
    if (!names.length) return t("pass.bots_won");
    return names.length === 1 ? t("pass.won_one", { name: names[0] }) : t("pass.won", { names: listText(names) });
  }

  /**
   * A friend's action from their device (friends/host.js, already checked for its form):
   * applied for that seat when the table is free (no bot move, action or summary in the
   * way), and the host's view taken. Resolves with the engine's reply for that seat.
   */
  async remoteAction(seat, action) {
    const gen = this.generation;
    while (this.busy || this.nextHand || this.botStepping || this.signalling) {
      await new Promise((r) => setTimeout(r, 30));
      if (gen !== this.generation) throw new Error("the match changed");
    }
    const obs = this.obs;
    if (!obs || obs.winner !== null) throw new Error("no match in play");
    if (this.botTimer) clearTimeout(this.botTimer);
    this.botTimer = null;
    this.busy = true;
    let reply;
    try {
      reply = await this.client.call("apply", { action, seat });
    } finally {
      this.busy = false;
    }
    if (gen !== this.generation) throw new Error("the match changed");
    const own = await this.client.call("observation", {});
    if (gen === this.generation) this.accept(own);
    return reply;
  }

  scheduleBot() {
    if (this.paused || this.botTimer !== null || this.botStepping || this.signalling || this.passing !== null) return;
    const gen = this.generation;
    this.botTimer = this.later(async () => {
      this.botTimer = null;
      if (gen !== this.generation || this.paused || this.signalling) return;
      let reply;
      // `fallback`: should the bot's own decision fail, the engine makes a simple seeded legal
      // move for that seat, so the match goes on (said once to the console; a console error
      // fails the browser tests, so none of them may rely on it).
      const step = this.client.call("bot_step", { fallback: true, ...this.viewParams() });
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
    if (intent.action === "toggle-cover") {
      this.screen.toggleCover();
      this.show(obs);
      return;
    }
    const action = this.screen.actionOf(intent, obs);
    if (action) await this.send(action);
  }

  /** An action chosen outside the table's own controls (following a hint). */
  async play(action) {
    const obs = this.obs;
    if (!obs || this.busy || this.paused || obs.to_move !== obs.seat) return;
    if (action.startsWith("signal ")) return this.signal(action.slice(7)); // the turn goes on
    await this.send(action);
  }

  /** The turn's clock ran out: the engine plays for the player (§8). */
  timeUp() {
    this.send("timeout");
  }

  async send(action) {
    const gen = this.generation;
    this.busy = true;
    this.screen.sending();
    this.timer.stop();
    let reply;
    try {
      reply = await this.client.call("apply", { action, ...this.viewParams() });
    } catch (err) {
      this.busy = false;
      if (gen !== this.generation) return;
      this.screen.refused(err);
      this.show(this.obs); // the game is as it was
      return;
    }
    this.busy = false;
    if (gen !== this.generation) return;
    this.screen.sent();
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
      reply = await this.client.call("apply", { action: `signal ${name}`, ...this.viewParams() });
    } catch (err) {
      if (gen !== this.generation) return; // stopAll() has reset `signalling`
      this.signalling = false;
      this.screen.refused(err);
      this.show(this.obs, { keepTimer: true });
      return;
    }
    if (gen !== this.generation) return;
    this.signalling = false;
    this.accept(reply, { keepTimer: true });
  }

  onVisibility() {
    this.hidden = document.visibilityState === "hidden";
    if (this.hidden) this.timer.hold(); // a phone call must not cost an abandonment
    else if (!this.paused) this.timer.run();
  }

  // ----------------------------------------------------- pause and leaving
  setPaused(paused) {
    if (!this.obs || this.obs.winner !== null) return;
    this.paused = paused;
    this.screen.setPaused(paused);
    if (paused) {
      this.timer.hold();
      if (this.botTimer) {
        clearTimeout(this.botTimer);
        this.botTimer = null;
      }
    } else {
      if (!this.hidden) this.timer.run();
      if (this.obs.to_move !== this.obs.seat && !this.busy) this.scheduleBot();
    }
  }

  /** "Sair da mesa": the match counts as lost (and abandoned); at a pass-and-play table
   * it counts for nobody (match_store.js). */
  leave() {
    this.generation++;
    this.stopAll();
    if (this.tally && this.obs && this.obs.winner === null) {
      this.store.abandonSaved({ id: this.sessionId, tally: this.tally, tallies: this.others, settings: this.settings }, this.obs);
    }
    this.store.removeSession();
    this.tabs?.release();
    this.tally = null;
    this.others = [];
    this.sessionId = null;
    this.obs = null;
    this.toStart();
  }

  /** This tab plays the saved game now (tabs only share it when storage keeps it). */
  claim() {
    if (this.store.storage.persistent) this.tabs?.claim();
  }

  /** Another tab took the game: stop here without saving anything more. */
  takenOver() {
    if (!this.obs || this.obs.winner !== null || !this.store.storage.persistent) return;
    this.generation++;
    this.stopAll();
    this.tally = null;
    this.others = [];
    this.sessionId = null;
    this.setPhase("elsewhere");
    this.dialogs.showElsewhere();
  }

  stopAll() {
    this.timer.stop();
    this.passing = null;
    this.pass?.hide();
    if (this.botTimer) clearTimeout(this.botTimer);
    this.botTimer = null;
    this.botStepping = null; // a reply still on its way belongs to the old generation
    this.signalling = false;
    this.nextHand = null;
    this.screen.waitForPlayer(null);
    this.busy = false;
    this.paused = false;
    this.screen.setPaused(false);
  }
}


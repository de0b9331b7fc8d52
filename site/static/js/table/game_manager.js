// The game manager runs the table: it asks the engine for every rule (a new match, a saved
// one resumed, each move applied), takes every reply in one place, accept(), and hands each
// turn to the seat's driver (seat_drivers.js) in one line. A move goes one way:
//
//   input -> intent() -> the engine -> accept() -> "reply applied" -> driver.turn(obs)
//
// and a bot's step, a friend's action or the player's next tap comes back to accept(). What
// else a reply means (the save and the statistics, the sound, a friends' host's guests)
// listens to the "reply applied" event (onApplied). Replies that come too late (a new match,
// leaving it, an engine started again) are dropped by the MatchEpoch (match_epoch.js), so no
// method here checks for them.

import { engineApi } from "../engine/engine_api.js";
import { engineWords } from "../shared/engine_words.js";
import { t } from "../shared/i18n.js";
import { setSeatNamer } from "../shared/table_words.js";
import { MatchEpoch } from "../shared/match_epoch.js";
import { SPEEDS, pausesFor } from "./match_params.js";
import { setOwnLabel } from "./pass_screen.js";
import { OneMove } from "./one_move.js";
import { DEFAULT_SETTINGS } from "./saved_data.js";
import { chooseDrivers } from "./seat_drivers.js";
import { Seats, publicObservation } from "./seats.js";
import { finishedRounds } from "./table_screen.js";

export { SPEEDS }; // the speed setting's factors (match_params.js)

export class GameManager {
  /**
   * @param {object} o  {client (the engine's transport), screen (TableScreen), dialogs
   *   (Dialogs), timer (TurnTimer; its time up must call timeUp()), kit (what the seats'
   *   drivers use, each may be null: {pass (PassScreen), sound (TableSound), hostSeats (a
   *   friends guest's link to the host)}), pace ({fast: no pauses; autoPace: hand summaries
   *   give way by themselves, whatever "Seguir sozinho" says})}
   */
  constructor({ client, screen, dialogs, timer, kit = {}, pace = {} }) {
    this.epoch = new MatchEpoch(client);
    this.engine = engineApi(this.epoch); // every call dropped once the match changed
    this.answering = engineApi(this.epoch.strictClient); // ...or failing, for a friend's request
    Object.assign(this, { screen, dialogs, timer, kit, sound: kit.sound ?? null });
    this.fast = Boolean(pace.fast);
    this.autoPace = Boolean(pace.autoPace);
    this.listeners = new Set(); // of "reply applied"
    this.settings = { ...DEFAULT_SETTINGS }; // read-only outside the table: updateSettings()
    this.obs = null; // the observation on screen (`observation` outside the table)
    this.lastSave = null;
    this.lastEvent = -1;
    this.busy = false; // the player's (or a friend's) move is in the engine, or a summary waits
    this.moves = new OneMove();
    this.signalling = false; // a sinal is on its way: the bots wait
    this.summary = null; // while a hand's summary waits: what goes on
    this.paused = false;
    this.hidden = document.visibilityState === "hidden";
    this.seats = null; // who sits where (seats.js), their drivers, the seat on screen
    this.friends = null; // a friends' table hosted here (friends/host.js, hostFriends())
    document.addEventListener("visibilitychange", () => this.onVisibility());
  }

  // ------------------------------------------------------------ what others call
  /** Listen to "reply applied": `fn({reply, obs, fresh, handEnd, quiet, kind, settings})`,
   * kind "new" (a match dealt), "resumed" (a save loaded) or "move". */
  onApplied(fn) {
    this.listeners.add(fn);
  }

  get observation() {
    return this.obs;
  }

  /** Whether the player's own turn waits for them (nothing in the engine, no summary). */
  get awaitsPlayer() {
    return Boolean(this.obs) && this.obs.to_move === this.obs.seat && !this.busy && !this.summary;
  }

  /** A friends' table hosted here: its seats played from other devices (friends/host.js). */
  hostFriends(host) {
    this.friends = host;
  }

  updateSettings(changes) {
    this.settings = { ...this.settings, ...changes };
  }

  /** A person's name at a table with people (a friend's, as their device sent it); false: no such seat. */
  renamePerson(seat, name) {
    if (!this.seats?.rename(seat, name)) return false;
    const names = [...(this.settings.player_names ?? ["", "", "", ""])];
    names[seat] = name;
    this.updateSettings({ player_names: names });
    this.redraw();
    return true;
  }

  redraw() {
    if (this.obs) this.screen.redraw(this.obs);
  }

  tell(title, detail = "", tone = "") {
    this.screen.tell(title, detail, tone);
  }

  setPhase(phase) {
    this.screen.setPhase(phase);
  }

  /** The seat a review call (hint, history, replay) speaks for (seatedClient, seats.js). */
  seatFor(method, params) {
    return this.seats?.reviewSeat(method, params, this.lastSave);
  }

  viewParams() {
    return this.seats?.viewParams() ?? {};
  }

  get autoNext() {
    return this.autoPace || this.settings.auto_next === true;
  }

  get pauses() {
    return pausesFor(this.settings, this.fast);
  }

  failed(err) {
    this.dialogs.notice(t("error.engine", { message: engineWords(err) }));
  }

  // ------------------------------------------------------------ what the seats' drivers call
  /** The driver of the seat to move in `obs`; null once the match is over. */
  turnDriver(obs) {
    return obs && obs.winner === null ? this.seats.driver(obs.to_move) : null;
  }

  /** Pass-and-play: what anyone at the table sees, under the pass screen. */
  showPublic(obs) {
    this.obs = publicObservation(obs);
    this.screen.showPublic(this.obs);
    this.setPhase("pass");
  }

  /** Pass-and-play: `seat`'s person took the device; `reply` is their view. */
  seeAs(seat, reply) {
    this.seats.onScreen = seat;
    this.accept(reply, { quiet: true });
  }

  // ------------------------------------------------------------ what MatchSetup calls
  /** A match is about to be put on the table: the last one stops, its seats and their drivers are chosen. */
  seatUp(settings) {
    this.halt();
    this.settings = settings;
    this.seats = new Seats(settings); // a shared table begins (or resumes) on a pass screen
    this.seats.drive(chooseDrivers(this.seats, settings, this, this.kit));
    setSeatNamer(this.seats.people ? (seat) => this.seats.name(seat) : null);
    setOwnLabel(null);
  }

  /** The match's first reply (kind "new": every event is news; else the log is taken as told). */
  deal(reply, { kind = "move", quiet = false } = {}) {
    this.lastEvent = kind === "new" ? -1 : Math.max(...reply.observation.log.map((e) => e.n), -1);
    this.accept(reply, { kind, quiet });
  }

  /** The engine's reply to a match first dealt from the page's opening (match_setup.js): the
   * same view, now with its save; told to who listens (saved), nothing redrawn. */
  confirm(reply) {
    this.lastSave = reply.save;
    for (const listener of this.listeners) {
      listener({ reply, obs: reply.observation, fresh: [], handEnd: null, quiet: true, kind: "move", settings: this.settings });
    }
  }

  /** No match on the table any more. */
  clear() {
    this.obs = null;
  }

  // ------------------------------------------------------------ the game loop
  /** Take a reply {observation, save}: tell who listens, show it, hand the turn over. */
  accept(reply, { quiet = false, keepTimer = false, kind = "move" } = {}) {
    const obs = reply.observation;
    const before = this.obs; // the hand that may just have ended, as it stood
    this.obs = obs;
    const fresh = obs.log.filter((e) => e.n > this.lastEvent);
    if (fresh.length) this.lastEvent = fresh[fresh.length - 1].n;
    this.lastSave = reply.save;
    this.screen.see(obs);
    const handEnd = quiet ? null : fresh.find((e) => e.type === "hand") ?? null;
    for (const listener of this.listeners) listener({ reply, obs, fresh, handEnd, quiet, kind, settings: this.settings });
    this.dialogs.hideStart();
    if (handEnd) return this.summarize(obs, fresh, handEnd, before);
    // Another person's turn at this device: straight to the pass screen, nothing of this view drawn.
    if (!this.turnDriver(obs)?.handsOver?.()) this.screen.moved(obs, fresh, { quiet });
    this.show(obs, { rendered: true, keepTimer });
  }

  /** A hand's result is read before the next deal is shown: until the player goes on, or a pause ("Seguir sozinho"). */
  summarize(obs, fresh, handEnd, before) {
    this.busy = true;
    this.screen.handEnded(obs, fresh, handEnd, finishedRounds(obs.log, handEnd.n), { before });
    const goOn = () => {
      if (this.summary !== goOn) return;
      this.summary = null;
      this.busy = false;
      // Gone on by itself ("Seguir sozinho"), the summary stays over the table until the new
      // hand is under way, unless the player moves first: then it would lie over their cards
      // and buttons (on a phone it covers the "Truco!" button).
      const playerFirst = obs.to_move !== null && obs.to_move === obs.seat;
      this.screen.nextHand(obs, fresh.filter((e) => e.n > handEnd.n), { dismissed: !this.autoNext || playerFirst });
      this.show(obs);
      this.moves.freed(); // a friend's action waiting for the table goes on
    };
    this.summary = goOn;
    if (this.autoNext) this.epoch.later(goOn, this.pauses.handEnd);
    else this.screen.waitForPlayer(obs, goOn);
  }

  show(obs, { rendered = false, keepTimer = false } = {}) {
    const driver = this.turnDriver(obs);
    if (driver?.handsOver?.()) return driver.turn(obs);
    this.screen.ready(obs, { rendered });
    if (!driver) return this.over(obs);
    this.screen.showTalk(obs, { busy: this.busy });
    this.seats.driver(obs.to_move).turn(obs, { keepTimer });
  }

  over(obs) {
    this.setPhase("over");
    this.timer.stop();
    this.dialogs.showEnd(this.screen.endText(obs, this.seats));
  }

  // ------------------------------------------------------------ moves, made by the seats' drivers
  /** The player's intent from the input manager (the player on screen: seat_drivers.js LocalPlayer). */
  intent(intent) {
    return this.seats?.drivers.local.intent(intent);
  }

  /** An action chosen outside the table's own controls (following a hint). */
  play(action) {
    return this.seats?.drivers.local.play(action);
  }

  /** A sinal to the partner, from the table's "Sinal" menu. */
  signal(name) {
    return this.seats?.drivers.local.signal(name);
  }

  /** The turn's clock ran out: the engine plays for the player (§8). */
  timeUp() {
    return this.seats?.drivers.local.send("timeout");
  }

  /**
   * A friend's action from their device (friends/host.js, already checked for its form), for
   * its seat's driver (FriendSeat). Resolves with the engine's reply for that seat; rejects
   * if the match changed meanwhile.
   */
  async friendAction(seat, action) {
    const driver = this.seats?.driver(seat);
    if (!driver?.act) throw new Error("not a friend's seat");
    return driver.act(action);
  }

  /** A friends' host: the engine's human seats follow who is connected, between moves;
   * `taken(reply)` runs once the engine has them, before the table goes on. */
  async setHumans(humans, taken) {
    await this.epoch.strict(this.moves.untilFree(() => this.summary));
    const reply = await this.moves.run(() => this.answering.setHumans({ humans }));
    taken?.(reply);
    if (this.summary) this.lastSave = reply.save; // the summary's "Próxima mão" goes on with the new seats
    else this.accept(reply, { quiet: true });
  }

  onVisibility() {
    this.hidden = document.visibilityState === "hidden";
    if (this.hidden) this.timer.hold(); // a phone call must not cost an abandonment
    else if (!this.paused) this.timer.run();
  }

  // ----------------------------------------------------- pause and stop
  setPaused(paused) {
    if (!this.obs || this.obs.winner !== null) return;
    this.paused = paused;
    this.screen.setPaused(paused);
    if (paused) {
      this.timer.hold();
      this.seats.drivers.bots.hold();
    } else {
      if (!this.hidden) this.timer.run();
      if (!this.busy) this.turnDriver(this.obs)?.resume(this.obs);
    }
  }

  /** A friends guest lost its host: the table stops where it is, a line says why. */
  stopWithNotice(title, detail) {
    this.halt();
    this.dialogs.closeAll();
    this.setPhase("start");
    this.tell(title, detail, "error");
  }

  /** Stop the table where it is: what is on its way is dropped, no seat moves, no clock runs. */
  halt() {
    this.epoch.next();
    this.timer.stop();
    for (const driver of this.seats?.drivers.all ?? []) driver.stop();
    Object.assign(this, { signalling: false, summary: null, busy: false, paused: false });
    this.screen.waitForPlayer(null);
    this.screen.setPaused(false);
    this.moves.reset(); // a friend's action waiting for the table hears the match changed
  }
}

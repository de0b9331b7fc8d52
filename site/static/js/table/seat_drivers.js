// Who moves each seat, chosen once when the table is set up (issue 40). The game manager
// hands every turn over in one line, `seats.driver(obs.to_move).turn(obs)`, and never asks
// who sits there. A driver has three calls:
//
//   turn(obs)    the seat is to move in `obs` (the observation on screen): make the move
//                happen, or wait for it (each move comes back through the manager's accept)
//   resume(obs)  the table's pause is over: go on with the turn left waiting
//   stop()       the table stops (a new match, leaving it, the engine restarted): nothing more
//
// The drivers:
//   LocalPlayer     this device's player, on screen: the turn is said, focused and timed;
//                   the input's intents (GameManager.intent) become their moves
//   PersonAtDevice  pass-and-play: another person at this device ("Passe para Ana", then
//                   that person's own view, then their turn as the LocalPlayer's)
//   FriendSeat      a friends' table, the host's side: a friend's seat played from another
//                   device (friends/host.js times the turn; the move arrives through
//                   GameManager.friendAction, act()); while that friend is away, its bot plays
//   BotDriver       the bots: one move at a time after the pace's pause. On a friends
//                   guest's page every other seat is the host's to move, and the "step" is
//                   the host's next observation.

import { botPause } from "./match_params.js";
import { setOwnLabel } from "./pass_screen.js";

/**
 * The drivers of `seats` (seats.js) at `table` (the GameManager): `{local (the player on
 * screen's), bots, bySeat(seat), all}`; `pass` is the pass screen (pass_screen.js), `hostSeats` a friends guest's link to
 * the host (friends/guest.js: `nextObservation()`).
 */
export function chooseDrivers(seats, settings, table, { pass = null, hostSeats = null } = {}) {
  const local = new LocalPlayer(table);
  if (settings.friends === "guest" && hostSeats) {
    const host = new BotDriver(table, { step: () => hostSeats.nextObservation(), exclusive: false });
    return { local, bots: host, bySeat: (seat) => (seat === Number(settings.own_seat) ? local : host), all: [local, host] };
  }
  const bots = new BotDriver(table);
  const drivers = new Map();
  for (const seat of seats.humans) {
    if (settings.friends === "host") drivers.set(seat, seat === 0 ? local : new FriendSeat(seat, table, bots));
    else if (seats.shared) drivers.set(seat, new PersonAtDevice(seat, table, local, pass));
    else drivers.set(seat, local);
  }
  return { local, bots, bySeat: (seat) => drivers.get(seat) ?? bots, all: [bots, ...new Set(drivers.values())] };
}

export class LocalPlayer {
  constructor(table) {
    this.table = table;
  }

  /** `keepTimer`: a sinal made on the player's own turn, whose clock runs on. */
  turn(obs, { keepTimer = false } = {}) {
    const { timer, screen, sound } = this.table;
    this.table.setPhase("human");
    if (keepTimer && timer.active) return;
    screen.yourTurn();
    sound?.yourTurn(obs);
    timer.start(Number(obs.options?.timer || 0), { held: this.table.paused || this.table.hidden });
  }

  resume() {}

  stop() {}

  /** Whether the player on screen may move now. */
  get mayMove() {
    const t = this.table;
    return Boolean(t.obs) && !t.busy && !t.paused && t.obs.to_move === t.obs.seat;
  }

  /** The player's intent from the input manager: a card goes on the felt at once. */
  async intent(intent) {
    const t = this.table;
    if (!this.mayMove) return;
    if (intent.action === "toggle-cover") {
      t.screen.toggleCover();
      return t.show(t.obs);
    }
    const action = t.screen.actionOf(intent, t.obs);
    if (action) await this.send(action);
  }

  /** An action chosen outside the table's own controls (following a hint). */
  async play(action) {
    if (!this.mayMove) return;
    if (action.startsWith("signal ")) return this.signal(action.slice(7)); // the turn goes on
    await this.send(action);
  }

  async send(action) {
    const t = this.table;
    t.busy = true;
    t.screen.sending();
    t.timer.stop();
    let reply;
    try {
      reply = await t.moves.run(() => t.engine.apply({ action, ...t.viewParams() }));
    } catch (err) {
      t.busy = false;
      t.screen.refused(err);
      return t.show(t.obs); // the game is as it was
    }
    t.busy = false;
    t.screen.sent();
    t.accept(reply);
  }

  /**
   * A sinal to the partner (`signal <name>`): allowed on anyone's turn before the player's
   * first card, so the bots wait while it is in the engine, and the turn's clock runs on.
   */
  async signal(name) {
    const t = this.table;
    if (t.signalling) return;
    t.signalling = true; // from now on no bot move starts
    await t.epoch.keep(t.moves.untilFree()); // a bot's move in the engine is shown first
    const obs = t.obs;
    if (!obs?.may_signal || obs.winner !== null || t.busy || t.paused) {
      t.signalling = false;
      if (obs && !t.busy && !t.paused) t.turnDriver(obs)?.resume(obs);
      return;
    }
    t.seats.drivers.bots.hold();
    let reply;
    try {
      reply = await t.moves.run(() => t.engine.apply({ action: `signal ${name}`, ...t.viewParams() }));
    } catch (err) {
      t.signalling = false;
      t.screen.refused(err);
      return t.show(t.obs, { keepTimer: true });
    }
    t.signalling = false;
    t.accept(reply, { keepTimer: true });
  }
}

export class PersonAtDevice {
  constructor(seat, table, local, pass) {
    this.seat = seat;
    this.table = table;
    this.local = local;
    this.pass = pass;
  }

  /** Whether the device must be handed over before this seat can see its turn. */
  handsOver() {
    return this.table.seats.onScreen !== this.seat;
  }

  /**
   * This person's turn: on screen already, theirs at once; else the table is drawn with what
   * anyone sees (no hand, no covered card, no sinal), the clock stops, and "Passe para …"
   * waits for their tap before their view is asked for (and their clock starts).
   */
  async turn(obs, opts) {
    const t = this.table;
    if (!this.handsOver()) return this.local.turn(obs, opts);
    if (this.pass.seat === this.seat && this.pass.open) return;
    t.timer.stop();
    t.showPublic(obs);
    setOwnLabel(null);
    await t.epoch.keep(this.pass.handOver(this.seat, t.seats.name(this.seat)));
    let reply;
    try {
      reply = await t.engine.observation({ seat: this.seat });
    } catch (err) {
      t.failed(err);
      return;
    }
    this.pass.hide();
    setOwnLabel(t.seats.name(this.seat));
    t.seeAs(this.seat, reply);
  }

  resume() {}

  stop() {
    this.pass.hide();
  }
}

export class FriendSeat {
  constructor(seat, table, bots) {
    this.seat = seat;
    this.table = table;
    this.bots = bots;
  }

  /** The friend plays on their device (the host's clock runs for them); away, their bot moves. */
  turn(obs) {
    const t = this.table;
    if (!t.friends?.plays(this.seat)) return this.bots.turn(obs);
    t.setPhase("bots"); // the host waits for the friend's move
    t.timer.stop();
    t.friends.turn(obs);
  }

  resume(obs) {
    if (!this.table.friends?.plays(this.seat)) this.bots.resume(obs);
  }

  stop() {}

  /**
   * The friend's action (friends/host.js, already checked for its form), applied for this
   * seat once the table is free (no other move in the engine, no hand's summary waiting),
   * then this device's own view taken. Resolves with the engine's reply for this seat;
   * rejects (MatchChanged) if the match changed meanwhile.
   */
  async act(action) {
    const t = this.table;
    await t.epoch.strict(t.moves.untilFree(() => t.summary));
    if (!t.obs || t.obs.winner !== null) throw new Error("no match in play");
    this.bots.hold(); // a bot's move waiting for its pause comes after this one
    t.busy = true;
    let reply;
    try {
      reply = await t.moves.run(() => t.answering.apply({ action, seat: this.seat }));
    } finally {
      t.busy = false;
    }
    t.accept(await t.answering.observation({}));
    return reply;
  }
}

export class BotDriver {
  /**
   * `step()`: the next move's reply (default: the engine's `bot_step` for the seat to move);
   * `exclusive`: it changes the match here, so no other move may race it.
   */
  constructor(table, { step = null, exclusive = true } = {}) {
    this.table = table;
    this.step = step ?? (() => table.engine.botStep({ fallback: true, ...table.viewParams() }));
    this.exclusive = exclusive;
    this.timer = null;
    this.waiting = false; // a step is asked for (a host's next observation may take a while)
    this.fallbackTold = false;
  }

  turn() {
    this.table.setPhase("bots");
    this.table.timer.stop();
    this.schedule();
  }

  resume() {
    this.schedule();
  }

  /** No move after the pause under way (another move is being made; the pause button). */
  hold() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.waiting) this.table.screen.thinking(null);
  }

  stop() {
    this.hold();
    this.waiting = false;
    this.table.screen.thinking(null);
  }

  /**
   * One move after a moment to think (botPause: the pace's pause, varied), unless one is on
   * its way or another move is being made. The seat shows it thinks until its move is drawn.
   */
  schedule() {
    const t = this.table;
    if (t.paused || this.timer !== null || this.waiting || t.moves.inEngine || t.signalling) return;
    const obs = t.obs;
    t.screen.thinking(obs && obs.to_move !== obs.seat ? obs.to_move : null);
    this.timer = t.epoch.later(() => {
      this.timer = null;
      if (!t.paused && !t.moves.inEngine && !t.signalling) this.move();
      else t.screen.thinking(null);
    }, botPause(t.pauses.bot, { answering: Boolean(obs?.pending || obs?.decision) }));
  }

  async move() {
    const t = this.table;
    this.waiting = true;
    let reply;
    try {
      // `fallback`: should the bot's own decision fail, the engine makes a simple seeded legal
      // move for that seat, so the match goes on (said once to the console; a console error
      // fails the browser tests, so none of them may rely on it).
      reply = await (this.exclusive ? t.moves.run(this.step) : t.epoch.keep(this.step()));
    } catch (err) {
      this.waiting = false;
      t.screen.thinking(null);
      t.failed(err);
      return;
    }
    this.waiting = false;
    t.screen.thinking(null);
    if (reply.fallback && !this.fallbackTold) {
      this.fallbackTold = true;
      const { seat, action, error } = reply.fallback;
      console.error(`bot of seat ${seat} failed (${error}); played ${action} instead so the match goes on`);
    }
    t.accept(reply);
  }
}

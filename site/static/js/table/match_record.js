// What this device keeps of the match in play: its id, the statistics so far of each person
// playing here (stats.js), its save (MatchStore) and this tab's claim on it (TabGuard). The
// game manager tells it when a match starts, resumes or is left; every reply the engine
// gives reaches it as the manager's "reply applied" event (`applied`), counted, then saved.

import { newId } from "./saved_data.js";
import { PEOPLE, newTally, personKey, tallyEvents, tallyView } from "./stats.js";

export class MatchRecord {
  /** @param {object} o  {store (MatchStore, or the friends guest's store of nothing), tabs (TabGuard or null)} */
  constructor({ store, tabs = null }) {
    this.store = store;
    this.tabs = tabs;
    this.id = null; // the match being played here
    this.tally = null; // this device's player's statistics of it (null: not counted)
    this.others = []; // pass-and-play: the other people's at this device (one per person)
  }

  /** The start screen's settings of the match about to be dealt, kept for the next visit. */
  chose(settings) {
    this.store.saveSettings(settings);
  }

  /** The engine would not load the saved match (MatchStore sets it aside, unless the engine failed). */
  refused(err) {
    this.store.refusedSave(err);
  }

  /** The saved match is set aside (`reason`, for the backup): it is not offered again. */
  setAside(reason) {
    this.store.setAsideSession(reason);
  }

  /** A new match: a game still saved (`last`: the one this tab played, as it stood) is given up for it. */
  started(settings, seats, last) {
    this.store.abandonStored(last);
    this.id = newId();
    ({ tally: this.tally, others: this.others } = newTallies(settings, seats, this.id));
    this.claim();
  }

  /** A saved match resumed: its tallies go on (a missing one counts from here on). */
  resumed(session, settings, seats) {
    this.id = session.id;
    const made = newTallies(settings, seats, session.id, { partial: true });
    this.tally = made.tally && (session.tally ?? made.tally);
    this.others = made.others.map((m) => session.tallies?.find((o) => o.seat === m.seat && personKey(o.name) === personKey(m.name)) ?? m);
    this.claim();
  }

  /** The "reply applied" event: its new events counted, then the match saved (or filed, once over). */
  applied({ reply, fresh, settings }) {
    const obs = reply.observation;
    for (const tally of [this.tally, ...this.others]) if (tally) tallyEvents(tally, fresh, tallyView(obs, tally.seat));
    // A first deal from the page's opening has no save yet: saved when the engine's reply
    // brings it (GameManager.confirm).
    if (!reply.save) return;
    const match = { id: this.id, save: reply.save, settings, tally: this.tally, tallies: this.others };
    if (obs.winner === null) {
      this.store.saveProgress({ ...match, tab: this.tabs?.id ?? null });
    } else {
      this.store.matchOver({ ...match, obs });
      this.tabs?.release();
    }
  }

  /** "Sair da mesa": a match left in play counts as lost (at a pass-and-play table, for nobody). */
  left(settings, obs) {
    if (this.tally && obs && obs.winner === null) {
      this.store.abandonSaved({ id: this.id, tally: this.tally, tallies: this.others, settings }, obs);
    }
    this.store.removeSession();
    this.tabs?.release();
    this.forget();
  }

  /** This tab no longer plays the match (another took it): nothing more is saved or counted. */
  forget() {
    this.tally = null;
    this.others = [];
    this.id = null;
  }

  /** Whether another tab may take this match (only when storage keeps it). */
  get shared() {
    return this.store.storage.persistent;
  }

  /** This tab plays the saved game now (tabs only share it when storage keeps it). */
  claim() {
    if (this.shared) this.tabs?.claim();
  }
}

/**
 * The tallies of a match (stats.js): this device's player's (seat 0) and, at a pass-and-play
 * table, one for each other person by name (a name met twice at one table counts once: one
 * result per person). The opponents' level is "pessoas" when a person sits on the other
 * side. A friends' table across devices is not counted.
 */
function newTallies(settings, seats, id, { partial = false } = {}) {
  if (settings.friends) return { tally: null, others: [] };
  const level = (seat) => (seats.humans.some((s) => s % 2 !== seat % 2) ? PEOPLE : settings.level);
  const tally = newTally(settings, id, { partial, level: level(0) });
  const taken = new Set([personKey(seats.name(0))]);
  const others = [];
  for (const seat of seats.humans) {
    const name = seats.name(seat);
    if (seat === 0 || taken.has(personKey(name))) continue;
    taken.add(personKey(name));
    others.push(newTally(settings, id, { partial, seat, name, level: level(seat) }));
  }
  return { tally, others };
}

// Who sits at each seat (issue #31): a bot, or a person (a human seat), at this device
// (pass-and-play, one screen passed from hand to hand) or at a friend's device (a friends'
// table). Each seat's driver, what makes its moves happen, is chosen from these seats when
// the table is set up (seat_drivers.js) and held here.
//
// Two settings describe it: `humans`, the seats people play as a string of seat digits
// ("0" is the classic game against the bots; "01" a 1 x 1 between two people; "023"…; seat
// 0 is always this device's first player), and `player_names`, one name per seat (untrusted
// text: trimmed, control characters dropped, capped; shown with textContent only). A table
// with more than one human seat is "shared": the engine answers each call from the view of
// the seat on screen (`seat`), or of nobody (`seat: null`), see docs/engine.md.

import { list, t } from "../shared/i18n.js";

export const HUMANS_CHOICES = Object.freeze(["0", "01", "02", "03", "012", "013", "023", "0123"]);
export const NAME_MAX = 20;
const SEATS_MAX = 4; // pass-and-play is 1 x 1 or 2 x 2

/** A player's name as typed: one line, no control characters, at most NAME_MAX characters. */
export function cleanName(text) {
  if (typeof text !== "string") return "";
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").replace(/\s+/g, " ").trim()]
    .slice(0, NAME_MAX).join("").trim();
}

/** Stored names, checked: an array of up to four strings (each cleaned), or null if unusable. */
export function checkNames(value) {
  if (!Array.isArray(value) || value.length > SEATS_MAX) return null;
  if (!value.every((v) => typeof v === "string" && v.length <= 200)) return null;
  return value.map(cleanName);
}

/** "Jogador 3": the default name of a seat. */
export function defaultName(seat) {
  return t("pass.default_name", { n: seat + 1 });
}

/** The seats people play at a table of `players` with these settings (seat 0 always). */
export function humanSeats(settings, players) {
  if (players > SEATS_MAX) return [0];
  const raw = HUMANS_CHOICES.includes(settings?.humans) ? settings.humans : "0";
  return [...raw].map(Number).filter((s) => s < players);
}

const PLAYERS = { "1x1": 2, "2x2": 4, "3x3": 6 };

/** Whether these settings make a shared table (more than one person at this device). */
export function isSharedTable(settings) {
  return humanSeats(settings, PLAYERS[settings?.mode] ?? 4).length > 1;
}

export class Seats {
  /** The seats of a match started with `settings` (the start screen's). */
  constructor(settings) {
    this.players = PLAYERS[settings?.mode] ?? 4;
    this.humans = humanSeats(settings, this.players);
    const names = checkNames(settings?.player_names) ?? [];
    // Seat 0's name is the player's own ("Seu nome", `player_name`); the others' are `player_names`.
    const own = typeof settings?.player_name === "string" ? cleanName(settings.player_name) : "";
    this.names = this.humans.map((s) => (s === 0 && own) || names[s] || defaultName(s));
    // A friends' table (friends/): each person at a device of their own; this device plays
    // `own_seat` (the host seat 0), the other human seats are played from elsewhere.
    this.local = settings?.friends ? [Number(settings.own_seat ?? 0)] : this.humans;
    this.onScreen = null; // a shared table: the seat whose view is on screen (null: nobody's yet)
    this.drivers = null;
  }

  /** More than one human seat at this device: the screen is passed between them. */
  get shared() {
    return this.local.length > 1;
  }

  /** More than one person at the table (here or on other devices): not a match against bots. */
  get people() {
    return this.humans.length > 1;
  }

  /** Who moves each seat (seat_drivers.js chooseDrivers: {bots, bySeat, all}). */
  drive(drivers) {
    this.drivers = drivers;
  }

  /** The driver of `seat`: `seats.driver(obs.to_move).turn(obs)` hands a turn over. */
  driver(seat) {
    return this.drivers.bySeat(seat);
  }

  /** A human seat's name changed (a friend's, as their device sent it); false: no such seat. */
  rename(seat, name) {
    const i = this.humans.indexOf(seat);
    if (i < 0) return false;
    this.names[i] = name;
    return true;
  }

  isHuman(seat) {
    return this.humans.includes(seat);
  }

  /** A human seat's player name, or a bot's name fixed by its seat (not by who looks). */
  name(seat) {
    const i = this.humans.indexOf(seat);
    if (i >= 0) return this.names[i];
    return list("seat.names")[seat] || `${seat}`;
  }

  /** The engine call's view: at a shared table, the seat on screen's (null: nobody's). */
  viewParams() {
    return this.shared ? { seat: this.onScreen } : {};
  }

  /** The seat a review call (hint, history, replay of the match saved as `lastSave`) speaks for at a shared table: the one on screen. */
  reviewSeat(method, params, lastSave) {
    if (!this.shared || this.onScreen === null) return undefined;
    if (!["hint", "history", "replay"].includes(method)) return undefined;
    if (method === "replay" && params.save && params.save !== lastSave) return undefined;
    return this.onScreen;
  }
}

/**
 * What anyone at the table sees of an observation: no hand (own or a partner's), no
 * covered card, no signal, nothing to do. Drawn under the pass screen, so the DOM holds
 * no card of the seat that just played while the next one takes the device.
 */
export function publicObservation(obs) {
  return {
    ...obs,
    hand: [],
    visible_hands: [],
    signals: [],
    may_signal: false,
    legal_actions: [],
    rounds: obs.rounds.map((r) => ({ ...r, plays: r.plays.map((p) => ({ ...p, card: p.covered ? null : p.card })) })),
    log: obs.log.filter((e) => e.type !== "signal").map((e) => (e.type === "cover" ? { ...e, card: null } : e)),
  };
}

/**
 * An engine client whose calls speak for the seat on screen: `seatFor(method, params)`
 * gives the seat to add (undefined adds nothing; a call that names its seat keeps it).
 */
export function seatedClient(client, seatFor) {
  return {
    call(method, params = {}) {
      const seat = "seat" in params ? undefined : seatFor(method, params);
      return client.call(method, seat === undefined ? params : { ...params, seat });
    },
  };
}

// ------------------------------------------------------------ the start screen's rows
/** The start form's "Jogadores neste aparelho" rows, from the settings. */
export function fillSeatsForm(form, settings) {
  const humans = new Set(humanSeats(settings, SEATS_MAX));
  const names = checkNames(settings?.player_names) ?? [];
  for (const box of form.querySelectorAll("input[name=human]")) box.checked = humans.has(Number(box.value));
  for (const field of form.querySelectorAll("input[name=seat_name]")) field.value = names[Number(field.dataset.seat)] ?? "";
  // Folded for the many who play alone; open when people sit at other seats already.
  const fold = form.querySelector("#local-players-fold");
  if (fold) fold.open = [...humans].some((s) => s !== 0);
  syncSeatsForm(form);
}

/** {humans, player_names} as the start form has them. */
export function readSeatsForm(form) {
  const seats = [...form.querySelectorAll("input[name=human]")].filter((b) => b.checked || b.value === "0").map((b) => b.value);
  const humans = [...new Set(["0", ...seats])].sort().join("");
  // One entry per seat; seat 0's is the player's own field (`player_name`), kept blank here.
  const player_names = ["", "", "", ""];
  for (const f of form.querySelectorAll("input[name=seat_name]")) player_names[Number(f.dataset.seat)] = cleanName(f.value);
  return { humans: HUMANS_CHOICES.includes(humans) ? humans : "0", player_names };
}

/** Rows for the mode's seats only; a name field for each human seat; none in 3 x 3. */
export function syncSeatsForm(form) {
  const box = form.querySelector("#local-players");
  if (!box) return;
  const players = PLAYERS[form.elements.namedItem("mode")?.value] ?? 4;
  (box.closest("details") ?? box).hidden = players > SEATS_MAX;
  for (const row of box.querySelectorAll("[data-seat-row]")) {
    const seat = Number(row.dataset.seatRow);
    row.hidden = seat >= players;
    const human = seat === 0 || row.querySelector("input[name=human]")?.checked;
    const name = row.querySelector("input[name=seat_name]");
    if (!name) continue; // seat 0: the player's own name field, above
    name.hidden = !human;
    name.disabled = !human || seat >= players;
    name.placeholder = defaultName(seat);
    row.querySelector(".seat-team").hidden = players === 2;
  }
}

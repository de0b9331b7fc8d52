// What the tables say about seats and calls, in the page's language: where a seat sits and
// what it is called, the name of a raise and of the mão de X, a seat's speech for a call.
// Shared by the table (table/), the tutorial's mini-table and the texts around them.

import { list, phraseNodes, portuguese, t, tNodes } from "./i18n.js";

/** Where a seat sits on screen, relative to the human at the bottom (counter-clockwise play). */
export function seatPosition(seat, human, players) {
  const rel = (seat - human + players) % players;
  if (rel === 0) return "bottom";
  if (players === 2) return "top";
  if (players === 4) return ["bottom", "right", "top", "left"][rel];
  return ["bottom", "right", "top-right", "top", "top-left", "left"][rel];
}

// The name the player chose on the table's start screen ("" until then, and on the
// tutorial's pages): the human's seat is called by it, else "Você".
let playerName = "";

/** The table sets the player's chosen name (already cleaned: table/seats.js cleanName). */
export function setPlayerName(name) {
  playerName = typeof name === "string" ? name : "";
}

/** The player's chosen name, or "" for none. */
export function chosenName() {
  return playerName;
}

let namer = null; // a shared table's names (table/seats.js), or null

/** At a table of several people (pass-and-play), `fn(seat)` names the other seats. */
export function setSeatNamer(fn) {
  namer = fn;
}

export function seatName(seat, human, players) {
  if (namer) return namer(seat); // a shared table: every seat by its name, the one on screen too
  if (seat === human) return playerName || t("seat.you");
  const names = list("seat.names");
  const rel = (seat - human + players) % players;
  return names[rel] || `${seat}`;
}

/** "dez" / "onze": the name of the preset's mão de X (RULES.md §6, §9: 10 or 11 points). */
export function maoDeX(rules) {
  const key = `marcador.x.${rules.mao_de_x}`;
  const word = t(key);
  return word === key ? String(rules.mao_de_x) : word;
}

/** The texts' parameters of a mão de X: its name, the points it takes, its value, run gives. */
export function maoDeXParams(rules) {
  return { x: maoDeX(rules), n: rules.mao_de_x, value: rules.mao_de_x_value, run: rules.mao_de_x_run_gives };
}

/** "truco" -> "Truco" (the ladder's names come from the preset). */
export function callName(name) {
  const key = `raise.${name}`;
  const text = t(key);
  return text === key ? name.charAt(0).toUpperCase() + name.slice(1) : text;
}

/** The label of a raise button ("Truco!", "¡Seis!"), the call's name marked as Portuguese. */
export function raiseLabel(name) {
  return tNodes("action.raise", { name: portuguese(callName(name)) });
}

/**
 * What a seat says in its speech bubble for a raise, an accept or a run in the log (one of
 * the catalog's phrasings, picked by the event's number), as nodes (phraseNodes); else null.
 */
export function speech(e) {
  if (e.type === "raise") return phraseNodes(`say.${e.name}`, e.n);
  if (e.type === "accept") return phraseNodes(e.mao_de_dez ? "say.dez_play" : "say.accept", e.n);
  if (e.type === "run") return phraseNodes(e.mao_de_dez ? "say.dez_run" : "say.run", e.n);
  return null;
}

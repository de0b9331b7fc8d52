// What a match is made of before it starts: the engine's new_game parameters for the start
// screen's settings (and an address's scenario), and the pauses between moves its speed
// setting gives.

import { DEFAULT_SETTINGS } from "./saved_data.js";
import { humanSeats } from "./seats.js";

const PAUSES = { bot: 750, handEnd: 1900, afterHuman: 250 };
// Animation speed (a setting): how long the bots' moves and the hand summaries stay.
export const SPEEDS = { lento: 1.7, normal: 1, rapido: 0.4 };
// Seats at the table for each mode of the start screen (3 x 3 is the trucão de 6).
export const MODE_PLAYERS = { "1x1": 2, "2x2": 4, "3x3": 6 };

/** The engine's new_game parameters for the start screen's `settings` and a scenario. */
export function newGameParams(settings, sc = {}) {
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
  const humans = humanSeats(s, params.players);
  if (humans.length > 1) {
    // Pass-and-play (issue #31): several people at this device; each decides for themselves.
    params.humans = humans;
    // A friends' table (friends/host.js): each person at a device of their own, so sinais
    // between human partners stay on (each reaches the partner's device only), and humano
    // decide works as in a bot match (the engine gives each lone person of a team its bots'
    // decisions). Sharing one screen, each decides for themselves.
    if (s.friends === "host") params.apart = true;
    else if ("humano_decide" in params) params.humano_decide = false;
  }
  if (sc.seed !== undefined) params.seed = sc.seed;
  if (sc.hands) params.hands = sc.hands;
  if (sc.score) params.score = sc.score;
  if (sc.dealer !== undefined) params.dealer = sc.dealer;
  if (sc.vira) params.vira = sc.vira;
  if (sc.daily) params.daily = sc.daily; // o desafio do dia (daily.js): the engine seeds it from the date
  return params;
}

/**
 * A bot's moment to think (ms) before a move, around the pace's `pause`: a little longer to
 * answer a raise, and never twice the same, so the bots do not answer like a metronome
 * (issue 41). `random` in [0, 1): Math.random by default; nothing tested depends on it, as
 * `?fast=1` has no pause to vary.
 */
export function botPause(pause, { answering = false, random = Math.random } = {}) {
  if (!pause) return 0;
  return Math.round(pause * (answering ? 1.3 : 1) * (0.7 + 0.6 * random()));
}

/** Pauses between moves (ms), from the speed setting; none at all with `?fast=1`. */
export function pausesFor(settings, fast) {
  if (fast) return { bot: 0, handEnd: 0, afterHuman: 0 };
  const k = SPEEDS[settings.speed] ?? 1;
  return { bot: Math.round(PAUSES.bot * k), handEnd: Math.round(PAUSES.handEnd * k), afterHuman: Math.round(PAUSES.afterHuman * k) };
}

// Statistics: counted from the public log events of the human seat's observation only
// (what a player at a real table could have written down), per mode and opponents' level.
// This device's player (seat 0) has the top-level figures; since pass-and-play (issue #31)
// each other person who played at this device has figures of their own under their name
// (`people`), and a match against a person counts under the opponents' level "pessoas".
//
// While a match is played its counts live in a *tally* saved with the session (one write
// with the game state, so a reload never counts an event twice or misses one); when the
// match ends, is left or is abandoned, the tally is added to the statistics once (the
// match id makes that idempotent). Pure functions: no DOM, no storage.

import { LEVELS } from "../shared/names.js";

export const MODES = ["1x1", "2x2", "3x3"];
export { LEVELS }; // the engine's, for the modules that import them from here
export const RECENT_MAX = 50; // finished matches kept for the chart
export const PROGRESS_MAX = 400; // points of the last game's score line
export const PEOPLE = "pessoas"; // the opponents' "level" when a person sits on the other side
export const OPPONENTS = Object.freeze([...LEVELS, PEOPLE]);
export const PEOPLE_MAX = 40; // other local players kept (the least recently seen go first)
const NAME_MAX = 20; // seats.js's cap on a typed name
const COUNT_MAX = 1e9; // a counter above this is not a count but tampering

/** The counters of one mode/level (and of one match's tally). */
export function emptyBucket() {
  return {
    games: { won: 0, lost: 0 }, // every game to 12 (each game of a series too)
    series: { won: 0, lost: 0 }, // best-of-3/5 matches
    hands: { played: 0, won: 0, lost: 0 },
    // Raises (truco, seis, dez, doze) you asked, how they were answered, and how the hand
    // ended after you asked.
    trucos: { asked: 0, accepted: 0, ran: 0, raised: 0, won: 0, lost: 0 },
    // Raises the other side asked of yours, and your side's answers.
    faced: { asked: 0, accepted: 0, ran: 0, raised: 0 },
    runs: 0, // times you ran (from a raise or from a mão de dez)
    dez: { hands: 0, played: 0, won: 0, ran: 0 }, // mãos de dez of your side
    ferro: { played: 0, won: 0 },
    points: { for: 0, against: 0 },
    abandoned: 0, // left the table, let the timer run out twice, or started another game
  };
}

export function emptyStats() {
  return { buckets: {}, recent: [], last: null, people: {} };
}

/** One person's figures: the same as the top level's, without `people`. */
function emptyRecord() {
  return { buckets: {}, recent: [], last: null };
}

/** Whose figures a name is: names differing only in case or spacing are one person. */
export function personKey(name) {
  return String(name).trim().replace(/\s+/g, " ").toLowerCase();
}

export function bucketKey(mode, level) {
  return `${mode}/${level}`;
}

export function isBucketKey(key) {
  const [mode, level, extra] = String(key).split("/");
  return extra === undefined && MODES.includes(mode) && OPPONENTS.includes(level);
}

// ------------------------------------------------------------------- validation
function isCount(v) {
  return Number.isSafeInteger(v) && v >= 0 && v <= COUNT_MAX;
}

/** Check `data` against the shape of `template` (numbers = counters). Missing counters
 * are 0, unknown fields are dropped; a wrong type or an impossible number is an error. */
function checkShape(template, data, path) {
  if (data === undefined) data = {};
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error(`${path} is not an object`);
  const out = {};
  for (const [k, tv] of Object.entries(template)) {
    const v = data[k];
    if (typeof tv === "number") {
      if (v === undefined) out[k] = 0;
      else if (isCount(v)) out[k] = v;
      else throw new Error(`${path}.${k} is not a count: ${String(v).slice(0, 40)}`);
    } else {
      out[k] = checkShape(tv, v, `${path}.${k}`);
    }
  }
  return out;
}

export function checkBucket(data, path = "bucket") {
  const b = checkShape(emptyBucket(), data, path);
  if (b.hands.won + b.hands.lost > b.hands.played) throw new Error(`${path}.hands: more won and lost than played`);
  if (b.dez.played + b.dez.ran > b.dez.hands) throw new Error(`${path}.dez: more decisions than hands`);
  return b;
}

function checkPair(v, max, path) {
  if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => Number.isSafeInteger(x) && x >= 0 && x <= max)) {
    throw new Error(`${path} is not a pair of numbers from 0 to ${max}`);
  }
  return [v[0], v[1]];
}

function checkId(v, path) {
  if (typeof v !== "string" || !/^[\w-]{1,40}$/.test(v)) throw new Error(`${path} is not an id`);
  return v;
}

function checkMode(v, path) {
  if (!MODES.includes(v)) throw new Error(`${path} is not a mode`);
  return v;
}

function checkLevel(v, path) {
  if (!OPPONENTS.includes(v)) throw new Error(`${path} is not a level`);
  return v;
}

function checkName(v, path) {
  // eslint-disable-next-line no-control-regex
  if (typeof v !== "string" || !v.trim() || [...v].length > NAME_MAX || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v)) {
    throw new Error(`${path} is not a player's name`);
  }
  return v;
}

function checkRecent(e, i) {
  const p = `recent[${i}]`;
  if (!e || typeof e !== "object") throw new Error(`${p} is not an object`);
  if (!Number.isFinite(e.at) || e.at < 0 || e.at > 1e14) throw new Error(`${p}.at is not a time`);
  if (typeof e.won !== "boolean") throw new Error(`${p}.won is not true/false`);
  if (![1, 3, 5].includes(e.series)) throw new Error(`${p}.series is not 1, 3 or 5`);
  return {
    id: checkId(e.id, `${p}.id`),
    at: e.at,
    mode: checkMode(e.mode, `${p}.mode`),
    level: checkLevel(e.level, `${p}.level`),
    won: e.won,
    abandoned: e.abandoned === true,
    score: checkPair(e.score, 99, `${p}.score`),
    games: checkPair(e.games, 9, `${p}.games`),
    series: e.series,
  };
}

function checkProgress(v, path) {
  if (!Array.isArray(v) || v.length > PROGRESS_MAX) throw new Error(`${path} is not a short list`);
  return v.map((pt, i) => checkPair(pt, 99, `${path}[${i}]`));
}

/** One player's figures ({buckets, recent, last}) checked into `out`. */
function checkRecord(data, out, path) {
  const at = path ? `${path}.` : "";
  const buckets = data.buckets ?? {};
  if (!buckets || typeof buckets !== "object" || Array.isArray(buckets)) throw new Error(`${at}buckets is not an object`);
  for (const [key, b] of Object.entries(buckets)) {
    if (!isBucketKey(key)) throw new Error(`unknown mode/level ${at}${key.slice(0, 40)}`);
    out.buckets[key] = checkBucket(b, `${at}${key}`);
  }
  const recent = data.recent ?? [];
  if (!Array.isArray(recent) || recent.length > RECENT_MAX) throw new Error(`${at}recent is not a list of at most ${RECENT_MAX}`);
  out.recent = recent.map((e, i) => {
    try {
      return checkRecent(e, i);
    } catch (err) {
      throw new Error(`${at}${err.message}`);
    }
  });
  if (data.last != null) {
    const l = data.last;
    if (typeof l !== "object") throw new Error(`${at}last is not an object`);
    out.last = {
      id: checkId(l.id, `${at}last.id`),
      mode: checkMode(l.mode, `${at}last.mode`),
      level: checkLevel(l.level, `${at}last.level`),
      target: Number.isSafeInteger(l.target) && l.target > 0 && l.target <= 99 ? l.target : 12,
      progress: checkProgress(l.progress, `${at}last.progress`),
    };
  }
  return out;
}

/** Validate stored statistics (version 1). Returns the clean value or throws an Error
 * whose message says what is wrong. `people` (the other local players' figures, by
 * personKey of their name) came with pass-and-play: statistics without it are read as
 * they always were, with nobody else's figures. */
export function checkStats(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("statistics are not an object");
  const out = checkRecord(data, emptyStats(), "");
  const people = data.people ?? {};
  if (!people || typeof people !== "object" || Array.isArray(people)) throw new Error("people is not an object");
  const entries = Object.entries(people);
  if (entries.length > PEOPLE_MAX) throw new Error(`people holds more than ${PEOPLE_MAX} players`);
  for (const [key, p] of entries) {
    const path = `people[${JSON.stringify(key.slice(0, 24))}]`;
    if (!p || typeof p !== "object" || Array.isArray(p)) throw new Error(`${path} is not an object`);
    const name = checkName(p.name, `${path}.name`);
    if (personKey(name) !== key) throw new Error(`${path} is not under its name's key`);
    out.people[key] = { name, ...checkRecord(p, emptyRecord(), path) };
  }
  return out;
}

// ------------------------------------------------------------------ the tally
/**
 * A new match's tally. `partial` marks a match resumed from a save that had none. At a
 * pass-and-play table each person has one: `seat` theirs, `name` null for this device's
 * player (seat 0) and the person's name for the others; `level` the opponents' (PEOPLE
 * when a person sits on the other side).
 */
export function newTally(settings, id, { partial = false, seat = 0, name = null, level = settings.level } = {}) {
  return {
    id,
    seat,
    name,
    mode: MODES.includes(settings.mode) ? settings.mode : "2x2",
    level: OPPONENTS.includes(level) ? level : "medio",
    series: [1, 3, 5].includes(Number(settings.series)) ? Number(settings.series) : 1,
    started: Date.now(),
    partial,
    b: emptyBucket(),
    progress: [[0, 0]],
    target: 12,
    // Where the current hand and game stand, to attribute answers and outcomes.
    open: null, // null | "mine" (you asked, waiting for their answer) | "faced" (they asked)
    raisedThisHand: false,
    dezHand: false,
    ferroHand: false,
    gameOpen: true,
    nextGame: false,
    seriesCounted: false,
    finished: false,
  };
}

/** Validate a tally read back from a session; throws on anything odd. */
export function checkTally(t) {
  if (!t || typeof t !== "object") throw new Error("tally is not an object");
  if (![1, 3, 5].includes(t.series)) throw new Error("tally.series");
  if (![null, "mine", "faced"].includes(t.open ?? null)) throw new Error("tally.open");
  const seat = t.seat ?? 0;
  if (!Number.isSafeInteger(seat) || seat < 0 || seat > 5) throw new Error("tally.seat");
  const name = t.name == null ? null : checkName(t.name, "tally.name");
  if ((seat === 0) !== (name === null)) throw new Error("tally.name: only seat 0 is this device's player");
  return {
    id: checkId(t.id, "tally.id"),
    seat,
    name,
    mode: checkMode(t.mode, "tally.mode"),
    level: checkLevel(t.level, "tally.level"),
    series: t.series,
    started: Number.isFinite(t.started) ? t.started : Date.now(),
    partial: t.partial === true,
    b: checkBucket(t.b, "tally.b"),
    progress: checkProgress(t.progress, "tally.progress"),
    target: Number.isSafeInteger(t.target) && t.target > 0 && t.target <= 99 ? t.target : 12,
    open: t.open ?? null,
    raisedThisHand: t.raisedThisHand === true,
    dezHand: t.dezHand === true,
    ferroHand: t.ferroHand === true,
    gameOpen: t.gameOpen !== false,
    nextGame: t.nextGame === true,
    seriesCounted: t.seriesCounted === true,
    finished: t.finished === true,
  };
}

/**
 * `obs` as its public events are read for the tally of `seat`: its seat and team (at a
 * pass-and-play table the observation is the seat on screen's, or nobody's).
 */
export function tallyView(obs, seat) {
  return obs ? { ...obs, seat, team: seat % 2 } : obs;
}

/** Count the new public events `events` of `obs` (the human seat's view) into `tally`. */
export function tallyEvents(tally, events, obs) {
  const me = obs.seat;
  const us = obs.team;
  const teamOf = (seat) => seat % 2;
  const b = tally.b;
  const xAt = obs.rules?.mao_de_x ?? 10;
  tally.target = obs.rules?.target ?? tally.target;
  const orient = (score) => [score[us], score[1 - us]];
  for (const e of events) {
    switch (e.type) {
      case "deal":
        tally.open = null;
        tally.raisedThisHand = false;
        tally.ferroHand = e.kind === "ferro";
        tally.dezHand = e.kind === "dez" && Array.isArray(e.score) && e.score[us] === xAt;
        if (tally.dezHand) b.dez.hands += 1;
        if (tally.ferroHand) b.ferro.played += 1;
        tally.gameOpen = true;
        if (tally.nextGame) tally.progress = [[0, 0]]; // a new game of a series: its own score line
        tally.nextGame = false;
        break;
      case "raise":
        if (e.seat === me) {
          if (tally.open === "faced") b.faced.raised += 1;
          b.trucos.asked += 1;
          tally.raisedThisHand = true;
          tally.open = "mine";
        } else if (teamOf(e.seat) !== us) {
          if (tally.open === "mine") b.trucos.raised += 1;
          b.faced.asked += 1;
          tally.open = "faced";
        } else {
          // Your partner asked (or raised back): yours to count only as an answer.
          if (tally.open === "faced") b.faced.raised += 1;
          tally.open = null;
        }
        break;
      case "accept":
      case "run": {
        // An answer: to your mão de dez (played or run from), to your raise by the others,
        // or to the raise you faced by your side.
        const ran = e.type === "run";
        if (ran && e.seat === me) b.runs += 1;
        if (e.mao_de_dez) {
          if (tally.dezHand) b.dez[ran ? "ran" : "played"] += 1;
        } else if (tally.open === "mine" && teamOf(e.seat) !== us) {
          b.trucos[ran ? "ran" : "accepted"] += 1;
        } else if (tally.open === "faced" && teamOf(e.seat) === us) {
          b.faced[ran ? "ran" : "accepted"] += 1;
        }
        tally.open = null;
        break;
      }
      case "hand": {
        b.hands.played += 1;
        if (e.winner !== null && e.winner !== undefined) {
          const won = e.winner === us;
          b.hands[won ? "won" : "lost"] += 1;
          b.points[won ? "for" : "against"] += e.points || 0;
          if (tally.raisedThisHand) b.trucos[won ? "won" : "lost"] += 1;
          if (tally.dezHand && won && e.reason !== "dez_run") b.dez.won += 1;
          if (tally.ferroHand && won) b.ferro.won += 1;
        }
        if (Array.isArray(e.score) && tally.progress.length < PROGRESS_MAX) tally.progress.push(orient(e.score));
        tally.open = null;
        tally.raisedThisHand = false;
        break;
      }
      case "game":
        b.games[e.winner === us ? "won" : "lost"] += 1;
        tally.gameOpen = false;
        tally.nextGame = true;
        break;
      case "match":
        if (tally.series > 1) {
          b.series[e.winner === us ? "won" : "lost"] += 1;
          tally.seriesCounted = true;
        }
        break;
      case "abandon":
        if (e.seat === me) b.abandoned += 1;
        break;
      default:
        break;
    }
  }
  return tally;
}

/**
 * The end of a match for the statistics: `obs` is the last observation. `left` is true when
 * the player left the table or started another game (a loss, and an abandonment).
 * Returns the entry for the list of recent matches.
 */
export function finishTally(tally, obs, { left = false } = {}) {
  const b = tally.b;
  const us = obs ? obs.team : 0;
  const won = !left && obs && obs.winner === us;
  if (left) b.abandoned += 1;
  if (tally.gameOpen) {
    // The last game ended without a "game" event (left, or abandoned by the timer).
    b.games[won ? "won" : "lost"] += 1;
    tally.gameOpen = false;
  }
  if (tally.series > 1 && !tally.seriesCounted) {
    b.series[won ? "won" : "lost"] += 1;
    tally.seriesCounted = true;
  }
  tally.finished = true;
  const score = obs ? [obs.score[us], obs.score[1 - us]] : [0, 0];
  const games = obs ? [obs.games[us], obs.games[1 - us]] : [0, 0];
  return {
    id: tally.id,
    at: Date.now(),
    mode: tally.mode,
    level: tally.level,
    won,
    abandoned: left || (obs != null && obs.abandoned_by === obs.seat),
    score: score.map((x) => Math.min(99, Math.max(0, x))),
    games: games.map((x) => Math.min(9, Math.max(0, x))),
    series: tally.series,
  };
}

function addInto(target, add) {
  for (const [k, v] of Object.entries(add)) {
    if (typeof v === "number") target[k] = Math.min(COUNT_MAX, (target[k] || 0) + v);
    else addInto(target[k], v);
  }
}

/** The figures a finished tally goes to: this device's player's, or the named person's. */
export function recordOf(stats, name = null) {
  if (name === null) return stats;
  return stats.people?.[personKey(name)] ?? null;
}

/** Statistics with a finished tally added (to its person's figures); unchanged if that
 * match was counted already for that person. */
export function commitTally(stats, tally, entry) {
  const seen = recordOf(stats, tally.name ?? null);
  if (seen && (seen.recent.some((r) => r.id === tally.id) || seen.last?.id === tally.id)) return stats;
  const out = structuredClone(stats);
  out.people ??= {};
  let rec = out;
  if (tally.name != null) {
    const key = personKey(tally.name);
    rec = out.people[key] ??= { name: tally.name, ...emptyRecord() };
    rec.name = tally.name; // as last typed
    const keys = Object.keys(out.people);
    if (keys.length > PEOPLE_MAX) {
      // The person whose last match is the oldest makes room.
      const lastAt = (k) => Math.max(0, ...out.people[k].recent.map((r) => r.at));
      const oldest = keys.filter((k) => k !== key).sort((a, b) => lastAt(a) - lastAt(b))[0];
      delete out.people[oldest];
    }
  }
  const key = bucketKey(tally.mode, tally.level);
  rec.buckets[key] ??= emptyBucket();
  addInto(rec.buckets[key], tally.b);
  rec.recent.push(entry);
  if (rec.recent.length > RECENT_MAX) rec.recent.splice(0, rec.recent.length - RECENT_MAX);
  // The score line of the last game that got anywhere (a game left at once has none).
  if (tally.progress.length > 1) {
    rec.last = { id: tally.id, mode: tally.mode, level: tally.level, target: tally.target, progress: tally.progress.slice(0, PROGRESS_MAX) };
  }
  return out;
}

/** One bucket summing every mode/level whose key passes `filter` ("all", "1x1", "2x2/medio"). */
export function summary(stats, filter = "all") {
  const total = emptyBucket();
  for (const [key, b] of Object.entries(stats.buckets)) {
    if (matches(key, filter)) addInto(total, b);
  }
  return total;
}

export function matches(key, filter) {
  if (filter === "all") return true;
  return filter.includes("/") ? key === filter : key.startsWith(`${filter}/`);
}

export function recentFor(stats, filter = "all") {
  return stats.recent.filter((r) => matches(bucketKey(r.mode, r.level), filter));
}

// The rating and the history of matches (issue 45), kept in localStorage: `truco:rating`
// (each person's rating and its points, match by match) and `truco:history` (the last
// matches with their saves, for their replay). Loaded after the first paint (match_store.js
// and stats_view.js import it by an address held in a constant), so a first visit downloads
// none of it.
//
// Both are versioned envelopes {v, savedAt, data} like every key (storage.js); version 1 is
// current. Version 0 is "not there yet": a device that played before these keys existed has
// its statistics' recent matches (stats.js, up to 50), which become the history's first
// entries (no save: no replay) and the rating's first points, rated as the formula would
// have (the partner taken to be at the opponents' level, which the statistics do not keep).
// A value that fails its check is set aside under truco:backup (a copy to download) and
// said once; the page goes on with one made again from the statistics as above (or empty).
//
//   truco:rating   {own: Person, people: {personKey: {name, ...Person}}}, Person = {rating,
//                  games, points: [{id, at, r}]} (points: the last POINTS_MAX ratings after
//                  a match, oldest first)
//   truco:history  {matches: [Entry]}, oldest first, at most HISTORY_MAX and HISTORY_BUDGET
//                  characters of JSON (the oldest go first); Entry = {id, at, mode, level,
//                  preset, series, won, abandoned, score, games, people, rating, save}:
//                  `people` the person keys who played ("" this device's player), `rating`
//                  {before, after} of this device's player or null, `save` the engine's
//                  opaque blob or null

import { t } from "../shared/i18n.js";
import { PREFIX } from "../shared/storage.js";
import { BOT_RATINGS, INITIAL, RATING_MAX, RATING_MIN, rateMatch } from "./rating.js";
import { Seats } from "./seats.js";
import { MODES, OPPONENTS, PEOPLE_MAX, personKey } from "./stats.js";

export const RATING_KEY = `${PREFIX}rating`;
export const HISTORY_KEY = `${PREFIX}history`;
export const VERSION = 1;
export const POINTS_MAX = 100; // the chart's points per person
export const HISTORY_MAX = 50; // matches kept
// The history's room in storage, in characters of JSON: a finished match's save is 0.6-2.5 kB
// (1 x 1 to a best of 3; measured), so 50 matches fit with room to spare; a long series' saves
// push the oldest out sooner.
export const HISTORY_BUDGET = 150_000;
export const SAVE_MAX = 40_000; // a save larger than this is kept without it (no replay)
const NAME_MAX = 20;

// ------------------------------------------------------------------- checks
const isObj = (x) => x && typeof x === "object" && !Array.isArray(x);
const isId = (x) => typeof x === "string" && /^[\w-]{1,40}$/.test(x);
const isTime = (x) => Number.isFinite(x) && x >= 0 && x <= 1e14;
const isRating = (x) => Number.isSafeInteger(x) && x >= RATING_MIN && x <= RATING_MAX;
const isCount = (x) => Number.isSafeInteger(x) && x >= 0 && x <= 1e9;
const isPair = (x, max) => Array.isArray(x) && x.length === 2 && [x[0], x[1]].every((v) => Number.isSafeInteger(v) && v >= 0 && v <= max);

function checkName(v, path) {
  // eslint-disable-next-line no-control-regex
  if (typeof v !== "string" || !v.trim() || [...v].length > NAME_MAX || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v)) {
    throw new Error(`${path} is not a player's name`);
  }
  return v;
}

function checkPerson(p, path) {
  if (!isObj(p)) throw new Error(`${path} is not an object`);
  if (!isRating(p.rating)) throw new Error(`${path}.rating is not a rating`);
  if (!isCount(p.games)) throw new Error(`${path}.games is not a count`);
  if (!Array.isArray(p.points) || p.points.length > POINTS_MAX) throw new Error(`${path}.points is not a list of at most ${POINTS_MAX}`);
  const points = Array.from(p.points, (pt, i) => {
    if (!isObj(pt) || !isId(pt.id) || !isTime(pt.at) || !isRating(pt.r)) throw new Error(`${path}.points[${i}] is not {id, at, r}`);
    return { id: pt.id, at: pt.at, r: pt.r };
  });
  return { rating: p.rating, games: p.games, points };
}

export function emptyRatings() {
  return { own: newPerson(), people: {} };
}

function newPerson() {
  return { rating: INITIAL, games: 0, points: [] };
}

/** The stored ratings checked: the clean value, or throws saying what is wrong. */
export function checkRatings(data) {
  if (!isObj(data)) throw new Error("the ratings are not an object");
  const out = { own: checkPerson(data.own, "own"), people: {} };
  const people = data.people ?? {};
  if (!isObj(people)) throw new Error("people is not an object");
  const entries = Object.entries(people);
  if (entries.length > PEOPLE_MAX) throw new Error(`people holds more than ${PEOPLE_MAX} players`);
  for (const [key, p] of entries) {
    const path = `people[${JSON.stringify(key.slice(0, 24))}]`;
    if (!isObj(p)) throw new Error(`${path} is not an object`);
    const name = checkName(p.name, `${path}.name`);
    if (personKey(name) !== key) throw new Error(`${path} is not under its name's key`);
    out.people[key] = { name, ...checkPerson(p, path) };
  }
  return out;
}

function checkEntry(e, i) {
  const p = `matches[${i}]`;
  if (!isObj(e)) throw new Error(`${p} is not an object`);
  if (!isId(e.id)) throw new Error(`${p}.id is not an id`);
  if (!isTime(e.at)) throw new Error(`${p}.at is not a time`);
  if (!MODES.includes(e.mode)) throw new Error(`${p}.mode is not a mode`);
  if (!OPPONENTS.includes(e.level)) throw new Error(`${p}.level is not a level`);
  if (typeof e.preset !== "string" || !/^[a-z0-9_]{1,24}$/.test(e.preset)) throw new Error(`${p}.preset is not a preset`);
  if (![1, 3, 5].includes(e.series)) throw new Error(`${p}.series is not 1, 3 or 5`);
  if (typeof e.won !== "boolean" || typeof e.abandoned !== "boolean") throw new Error(`${p}.won / abandoned are not true/false`);
  if (!isPair(e.score, 99) || !isPair(e.games, 9)) throw new Error(`${p}.score / games are not pairs of counts`);
  if (!Array.isArray(e.people) || e.people.length > 4 || !Array.from(e.people).every((k) => typeof k === "string" && k.length <= NAME_MAX * 2)) {
    throw new Error(`${p}.people is not a list of players`);
  }
  let rating = null;
  if (e.rating != null) {
    if (!isObj(e.rating) || !isRating(e.rating.before) || !isRating(e.rating.after)) throw new Error(`${p}.rating is not {before, after}`);
    rating = { before: e.rating.before, after: e.rating.after };
  }
  if (e.save != null && (typeof e.save !== "string" || !e.save || e.save.length > SAVE_MAX)) throw new Error(`${p}.save is not a save`);
  return {
    id: e.id, at: e.at, mode: e.mode, level: e.level, preset: e.preset, series: e.series, won: e.won, abandoned: e.abandoned,
    score: [e.score[0], e.score[1]], games: [e.games[0], e.games[1]], people: Array.from(e.people), rating, save: e.save ?? null,
  };
}

/** The stored history checked: the clean value, or throws saying what is wrong. */
export function checkHistory(data) {
  if (!isObj(data) || !Array.isArray(data.matches)) throw new Error("the history has no list of matches");
  if (data.matches.length > HISTORY_MAX) throw new Error(`the history holds more than ${HISTORY_MAX} matches`);
  const matches = Array.from(data.matches, checkEntry);
  const ids = new Set(matches.map((m) => m.id));
  if (ids.size !== matches.length) throw new Error("the history holds a match twice");
  return { matches };
}

/** The history cut to its budget: at most HISTORY_MAX matches and HISTORY_BUDGET characters, the oldest dropped first. */
export function withinBudget(history, budget = HISTORY_BUDGET) {
  const matches = history.matches.slice(-HISTORY_MAX);
  let size = JSON.stringify({ matches }).length;
  while (matches.length > 1 && size > budget) size -= JSON.stringify(matches.shift()).length + 1;
  return { matches };
}

// ------------------------------------------------------------------- reading
/**
 * Read one of the two keys: {value, bad}. Missing: made from the statistics (version 0, see
 * above) when `fromStats` gives it. Unreadable, of a newer version or failing its check: set
 * aside with a backup and said (dialogs.notice), and made again the same way.
 */
function readKey(storage, key, { check, empty, fromStats, dialogs, what }) {
  const r = storage.readEnvelope(key);
  if (r.status === "missing") return { value: fromStats?.() ?? empty(), bad: false, fresh: true };
  try {
    if (r.status === "bad") throw new Error(r.error);
    if (r.v > VERSION) throw new Error(`version ${r.v} is newer than this game knows (${VERSION})`);
    if (r.v < VERSION) throw new Error(`no migration of ${what} from version ${r.v}`);
    return { value: check(r.data), bad: false, fresh: false };
  } catch (err) {
    console.warn(`saved ${what} set aside: ${err.message}`);
    storage.setAside(key, r.raw ?? storage.getRaw(key), err.message);
    dialogs?.notice(t(`saved.bad.${what}`), storage.backupURL());
    return { value: fromStats?.() ?? empty(), bad: true, fresh: true }; // made again from the statistics
  }
}

/** The statistics' recent matches (this device's player's) as the history's and rating's
 * first entries: the one migration (from before these keys). */
function seeded(stats, exclude) {
  const recent = Array.isArray(stats?.recent) ? stats.recent.filter((r) => r.id !== exclude).sort((a, b) => a.at - b.at) : [];
  const ratings = emptyRatings();
  const matches = [];
  for (const r of recent) {
    let rating = null;
    if (r.level in BOT_RATINGS) {
      const own = ratings.own;
      const team = r.mode === "1x1" ? 1 : r.mode === "2x2" ? 2 : 3;
      const ours = [{ key: "", rating: own.rating, games: own.games }, ...Array(team - 1).fill({ level: r.level })];
      const [change] = rateMatch([ours, Array(team).fill({ level: r.level })], r.won);
      rating = { before: change.before, after: change.after };
      bump(own, change.after, r.id, r.at);
    }
    matches.push({ id: r.id, at: r.at, mode: r.mode, level: r.level, preset: "mineiro", series: r.series, won: r.won,
      abandoned: r.abandoned, score: r.score, games: r.games, people: [""], rating, save: null });
  }
  return { ratings, history: withinBudget({ matches }) };
}

function bump(person, rating, id, at) {
  person.rating = rating;
  person.games += 1;
  person.points.push({ id, at, r: rating });
  if (person.points.length > POINTS_MAX) person.points.splice(0, person.points.length - POINTS_MAX);
}

/** The ratings and the history as stored (checked; bad ones set aside; missing ones made from
 * the statistics and written). `store` is the MatchStore. */
export function readLog(store, { quiet = false, exclude = null } = {}) {
  const storage = store.storage;
  const dialogs = quiet ? null : store.dialogs;
  let seed = null;
  // `exclude`: the match being filed now, which the statistics already hold.
  const fromStats = () => (seed ??= seeded(store.loadKind("stats"), exclude));
  const rating = readKey(storage, RATING_KEY, { check: checkRatings, empty: emptyRatings, fromStats: () => fromStats().ratings, dialogs, what: "rating" });
  const history = readKey(storage, HISTORY_KEY, { check: checkHistory, empty: () => ({ matches: [] }), fromStats: () => fromStats().history, dialogs, what: "history" });
  // Made from the statistics: stored now, so it is made once.
  if (seed && rating.fresh && seed.ratings.own.games) storage.write(RATING_KEY, rating.value);
  if (seed && history.fresh && history.value.matches.length) storage.write(HISTORY_KEY, history.value);
  return { ratings: rating.value, history: history.value, bad: rating.bad || history.bad };
}

// ------------------------------------------------------------------- a match filed
/**
 * A match the statistics just counted (match_store.js): `done` its [tally, entry] pairs
 * (stats.js; one per person counted), `settings` the match's, `save` its save (or null).
 * Each person counted is rated (once: the match id guards it) and the match joins the history.
 * `announce`: the match just ended here, its end dialog says how the rating moved.
 */
export function logMatch(store, done, { settings, save = null, announce = false }) {
  if (!done.length) return;
  const id = done[0][0].id;
  const { ratings, history } = readLog(store, { exclude: id });
  const seats = new Seats(settings);
  const counted = new Map(done.map(([tally, entry]) => [tally.seat, { tally, entry }]));
  // Whose each seat is: a person (this device's player at seat 0, the others by name) or a bot.
  const keyOf = (seat) => (seat === 0 ? "" : personKey(seats.name(seat)));
  const person = (key, seat) => {
    if (key === "") return ratings.own;
    if (!ratings.people[key]) ratings.people[key] = { name: seats.name(seat), ...newPerson() };
    return ratings.people[key];
  };
  const sides = [[], []];
  for (let seat = 0; seat < seats.players; seat++) {
    if (seats.isHuman(seat)) {
      const key = keyOf(seat);
      const p = person(key, seat);
      sides[seat % 2].push({ key, rating: p.rating, games: p.games, seat });
    } else {
      sides[seat % 2].push({ level: seat % 2 === 0 ? settings.partner_level ?? settings.level : settings.level });
    }
  }
  const first = done[0];
  const wonByTeam0 = first[0].seat % 2 === 0 ? first[1].won : !first[1].won;
  let own = null;
  const changes = rateMatch(sides, wonByTeam0).filter((c) => {
    const seat = sides.flat().find((s) => s.key === c.key)?.seat;
    return counted.has(seat);
  });
  const seen = new Set();
  for (const c of changes) {
    if (seen.has(c.key)) continue; // one result per person (a name met twice at one table)
    seen.add(c.key);
    const p = c.key === "" ? ratings.own : ratings.people[c.key];
    if (p.points.some((pt) => pt.id === id)) continue; // rated already
    if (c.key === "") own = { before: c.before, after: c.after };
    bump(p, c.after, id, counted.get(sides.flat().find((s) => s.key === c.key).seat).entry.at);
  }
  // People nobody rated this time (left at once) are not kept empty.
  for (const [key, p] of Object.entries(ratings.people)) if (!p.games) delete ratings.people[key];
  trimPeople(ratings);
  store.storage.write(RATING_KEY, ratings);

  if (own && announce) showEnd(own);

  if (!history.matches.some((m) => m.id === id)) {
    const { tally, entry } = counted.get(0) ?? { tally: first[0], entry: first[1] };
    history.matches.push({
      id, at: entry.at, mode: tally.mode, level: tally.level, preset: typeof settings.preset === "string" ? settings.preset : "mineiro",
      series: tally.series, won: entry.won, abandoned: entry.abandoned,
      score: entry.score, games: entry.games, people: [...new Set(seats.humans.map(keyOf))], rating: own,
      save: typeof save === "string" && save.length <= SAVE_MAX ? save : null,
    });
    writeHistory(store.storage, history);
  }
}

/** The history stored within its budget; where storage is full, within half as much again
 * until it fits, the oldest matches going first. Storage's own room-making (storage.js, which
 * drops the last match and set-aside data) is not asked for: the history gives way instead.
 * Returns how many matches were stored (0: none could be, what was stored stays). */
export function writeHistory(storage, history) {
  let value = withinBudget(history);
  if (!storage.store) return storage.write(HISTORY_KEY, value) ? value.matches.length : 0; // memory only
  for (;;) {
    try {
      storage.store.setItem(HISTORY_KEY, JSON.stringify({ v: VERSION, savedAt: Date.now(), data: value }));
      storage.memory.delete(HISTORY_KEY);
      return value.matches.length;
    } catch {
      if (value.matches.length <= 1) return 0;
      value = withinBudget(value, Math.floor(JSON.stringify(value).length / 2));
    }
  }
}

function trimPeople(ratings) {
  const keys = Object.keys(ratings.people);
  if (keys.length <= PEOPLE_MAX) return;
  const lastAt = (k) => ratings.people[k].points.at(-1)?.at ?? 0;
  for (const k of keys.sort((a, b) => lastAt(a) - lastAt(b)).slice(0, keys.length - PEOPLE_MAX)) delete ratings.people[k];
}

/** The end dialog's line: "Rating: 1200 → 1228 (+28)". */
function showEnd({ before, after }) {
  const review = document.querySelector("#end-dialog .end-review");
  if (!review) return;
  let line = document.getElementById("end-rating");
  if (!line) {
    line = document.createElement("p");
    line.id = "end-rating";
    line.className = "end-rating";
    review.before(line);
    // Said for the match just ended only: gone once the dialog closes.
    const dialog = document.getElementById("end-dialog");
    new MutationObserver(() => {
      if (!dialog.open) line.hidden = true;
    }).observe(dialog, { attributes: true, attributeFilter: ["open"] });
  }
  const d = after - before;
  line.textContent = t("rating.end", { before, after, delta: `${d >= 0 ? "+" : "−"}${Math.abs(d)}` });
  line.hidden = false;
}

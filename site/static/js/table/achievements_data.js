// Achievements (issue 45), the data: which there are, the stored record checked, and what a
// finished match or the daily challenge's record adds to it. Pure functions, no page: the
// page's part is achievements.js; Node runs these in tests/build/test_achievements_data.py.
//
// The stored record (`truco:achievements`, a version-1 envelope like every key of ours):
// {earned: {id: {date: "YYYY-MM-DD", count}}, seen: [match id, ...]}: each achievement with
// the day it was first earned and how many times since; `seen`, the last matches already
// looked at (a match is counted once, whatever the page does after its end).

/** The match's achievements, as the engine finds them (truco.achievements.IDS, in its order). */
export const MATCH_IDS = Object.freeze(["ferro_escuro", "doze", "virada", "blefe", "invicto"]);
/** The daily challenge's, from its record (table/daily.js): won, and seven days in a row. */
export const DAILY_IDS = Object.freeze(["desafio", "sete_dias"]);
export const IDS = Object.freeze([...MATCH_IDS, ...DAILY_IDS]);
export const STREAK_DAYS = 7;
export const SEEN_KEPT = 60;
const COUNT_MAX = 1_000_000;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const MATCH_ID = /^[\w-]{1,40}$/;

export function emptyAchievements() {
  return { earned: {}, seen: [] };
}

/**
 * The stored record checked whole: a fresh value, or an Error saying what is wrong (the
 * caller sets the stored text aside). An achievement this page does not know (a later
 * version's) is kept as it is, if it has the same shape.
 */
export function checkAchievements(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("not an object");
  const { earned, seen } = data;
  if (!earned || typeof earned !== "object" || Array.isArray(earned)) throw new Error("earned is not an object");
  const out = emptyAchievements();
  for (const [id, rec] of Object.entries(earned)) {
    if (!NAME.test(id)) throw new Error(`bad achievement ${id.slice(0, 40)}`);
    if (!rec || typeof rec !== "object" || typeof rec.date !== "string" || !DAY.test(rec.date)) throw new Error(`bad date of ${id}`);
    if (!Number.isSafeInteger(rec.count) || rec.count < 1 || rec.count > COUNT_MAX) throw new Error(`bad count of ${id}`);
    out.earned[id] = { date: rec.date, count: rec.count };
  }
  if (seen !== undefined) {
    if (!Array.isArray(seen) || seen.length > 10 * SEEN_KEPT || !seen.every((s) => typeof s === "string" && MATCH_ID.test(s))) throw new Error("bad seen");
    out.seen = seen.slice(-SEEN_KEPT);
  }
  return out;
}

/** The date `now` on this device ("YYYY-MM-DD", its own time zone): the day a match was played. */
export function localDay(now = Date.now()) {
  const d = new Date(now);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/**
 * A finished match's achievements (the engine's ids) added to `record` on `day`, once per
 * match (`matchId`). Returns {record (a new value), got: [{id, first, count}]}: each one this
 * match earned, `first` when it is the first time.
 */
export function addMatch(record, ids, day, matchId) {
  const out = { earned: { ...record.earned }, seen: [...record.seen] };
  if (!MATCH_ID.test(String(matchId)) || out.seen.includes(matchId)) return { record: out, got: [] };
  const got = [];
  for (const id of new Set(ids)) {
    if (!MATCH_IDS.includes(id)) continue; // an id of a newer engine than this page: not shown
    const had = out.earned[id];
    out.earned[id] = had ? { date: had.date, count: Math.min(COUNT_MAX, had.count + 1) } : { date: day, count: 1 };
    got.push({ id, first: !had, count: out.earned[id].count });
  }
  out.seen = [...out.seen, matchId].slice(-SEEN_KEPT);
  return { record: out, got };
}

function dayAfter(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * The daily challenge's achievements in its record's days (daily.js's `days`, checked: each
 * day's counted try): `desafio`, a day's try won (its date the first such day, its count the
 * days won); `sete_dias`, seven days played in a row (its date the seventh day of the first
 * such run, its count the runs that reached seven).
 */
export function dailyFound(days) {
  const found = {};
  const sorted = Object.keys(days).sort();
  const won = sorted.filter((d) => days[d]?.result === "won");
  if (won.length) found.desafio = { date: won[0], count: won.length };
  let run = 0;
  let prev = null;
  for (const day of sorted) {
    run = prev !== null && dayAfter(prev) === day ? run + 1 : 1;
    prev = day;
    if (run === STREAK_DAYS) {
      found.sete_dias ??= { date: day, count: 0 };
      found.sete_dias.count += 1;
    }
  }
  return found;
}

/**
 * The daily achievements (`dailyFound`) brought into `record`: the first date kept once
 * earned (days older than the daily record keeps may have gone), the count the larger.
 * Returns {record, got: [{id, first, count}]}: the ones new or counted again.
 */
export function addDaily(record, found) {
  const out = { earned: { ...record.earned }, seen: [...record.seen] };
  const got = [];
  for (const id of DAILY_IDS) {
    const f = found[id];
    if (!f) continue;
    const had = out.earned[id];
    if (had && had.count >= f.count) continue;
    out.earned[id] = had ? { date: had.date < f.date ? had.date : f.date, count: f.count } : { date: f.date, count: f.count };
    got.push({ id, first: !had, count: f.count });
  }
  return { record: out, got };
}

// What the game keeps in localStorage, kind by kind: the format of each key, its
// validation, the migration of older versions, and the export / import file.
//
// Every key holds an envelope {v, savedAt, data} (storage.js). Version 1 is current:
//   truco:settings  {mode, level, partner_level, preset, series, timer, ferro, speed,
//                   four_colour, card_back, avatar, baralho_limpo, familia_real, humano_decide, sinais, hint,
//                   sound, player_name, humans, player_names}: `player_name` seat 0's
//                   name; `humans` the seats people play here ("0", "01"…, seats.js),
//                   `player_names` the other people's names, one per seat; auto_next
//                   ("Seguir sozinho")}
//   truco:session   {id, tab, save, settings, tally, tallies}: `save` is the engine's opaque
//                   blob (validated by the engine's `load`, never read here), `tally` the
//                   match's statistics so far (stats.js) for this device's player, `tallies`
//                   those of the other people at a pass-and-play table (by seat and name;
//                   absent before issue #31), `tab` the tab that wrote it
//   truco:last      {save, settings, at}: the last finished match, for "Rever a partida"
//                   and "Compartilhar" (`save` is the engine's opaque blob, as above)
//   truco:stats     {buckets: {"1x1/medio": counters}, recent: [...], last: {...}, people}:
//                   this device's player's figures, and `people` (pass-and-play, issue #31;
//                   absent in older data, which reads as nobody else's figures) the other
//                   local players' {name, buckets, recent, last} by stats.personKey(name);
//                   level "pessoas" in a key: the other side had a person
//   truco:backup    {items: [{from, reason, at, raw}]}: unreadable data set aside
// Version 0 is the layout used before these formats were settled, which a browser may
// still hold: settings with the form's raw text values (numbers as strings) and without
// partner level, ferro mode or speed; a session {save, settings} without id or tally (as
// the first table wrote it); statistics as a plain list of finished matches
// {games: [{mode, level, won, hands_won, hands_lost, at}]}. `migrate` turns each into
// version 1; the data read is never trusted before its version-1 check.

import { AVATAR_CHOICES } from "../shared/avatars.js";
import { CARD_BACKS } from "../shared/cards.js";
import { KEYS, PREFIX } from "../shared/storage.js";
import { HUMANS_CHOICES, checkNames, cleanName, isSharedTable } from "./seats.js";
import { LEVELS, MODES, RECENT_MAX, bucketKey, checkStats, checkTally, emptyBucket, emptyStats, newTally } from "./stats.js";

export const VERSION = 1;
export const EXPORT_FORMAT = "truco-mineiro-dados";
const SAVE_MAX_CHARS = 2_000_000; // a whole series' save is ~100 kB; more is not ours
const IMPORT_MAX_CHARS = 8_000_000;

export const DEFAULT_SETTINGS = Object.freeze({
  mode: "2x2",
  level: "medio",
  partner_level: "medio",
  preset: "mineiro",
  series: 1,
  timer: 0,
  ferro: "escuro",
  speed: "normal",
  four_colour: false, // the four-colour deck (clubs green, diamonds blue): display only
  card_back: CARD_BACKS[0], // the cards' back (cards.js, cards.css): display only
  avatar: AVATAR_CHOICES[0], // the player's face at the table (avatars.js): display only
  baralho_limpo: false, // house rules of RULES.md §9, passed to the engine
  familia_real: false,
  // With a partner (issue #12): the human answers for the pair; the pair trades sinais.
  humano_decide: true,
  sinais: true,
  hint: false, // the "Dica" button on the human's turn
  sound: true, // the table's sounds and vibrations (sound.js): the "Som" toggle
  player_name: "", // the player's name at the table ("" = "Você"): untrusted text, see cleanName
  // Pass-and-play (issue #31, seats.js): the seats people play at this device, and their names.
  humans: "0",
  player_names: Object.freeze([]),
  auto_next: false, // "Seguir sozinho": a hand's summary gives way by itself (else it waits for a tap)
});

export const CHOICES = Object.freeze({
  mode: MODES,
  level: LEVELS,
  partner_level: LEVELS,
  preset: null, // the presets the page offers (checked by `checkSettings` when given)
  series: [1, 3, 5],
  timer: [0, 10, 20, 30],
  ferro: ["escuro", "claras"],
  speed: ["lento", "normal", "rapido"],
  four_colour: [false, true],
  card_back: CARD_BACKS,
  avatar: AVATAR_CHOICES,
  baralho_limpo: [false, true],
  familia_real: [false, true],
  humano_decide: [false, true],
  sinais: [false, true],
  hint: [false, true],
  sound: [false, true],
  humans: HUMANS_CHOICES,
  auto_next: [false, true],
});

// ------------------------------------------------------------------- settings
/**
 * Settings with every field checked. Returns {value, errors, bad}: `value` is always usable
 * (a bad or missing field takes its default), `errors` describes the bad fields and `bad`
 * lists their names.
 */
export function checkSettings(data, { presets = null } = {}) {
  const value = { ...DEFAULT_SETTINGS };
  const errors = [];
  const bad = []; // the names of the refused settings
  if (!data || typeof data !== "object" || Array.isArray(data)) return { value, errors: ["settings are not an object"], bad };
  for (const [name, choices] of Object.entries(CHOICES)) {
    if (!(name in data)) continue;
    const v = data[name];
    const allowed = choices ?? presets;
    const ok = allowed ? allowed.includes(v) : typeof v === "string" && /^[a-z0-9_]{1,24}$/.test(v);
    if (ok) {
      value[name] = v;
    } else {
      bad.push(name);
      errors.push(`${name}: ${JSON.stringify(v)?.slice(0, 40)}`);
    }
  }
  if ("player_name" in data) {
    const name = typeof data.player_name === "string" ? cleanName(data.player_name) : null;
    if (name === null) {
      bad.push("player_name");
      errors.push(`player_name: ${JSON.stringify(data.player_name)?.slice(0, 40)}`);
    } else value.player_name = name;
  }
  if ("player_names" in data) {
    const names = checkNames(data.player_names);
    if (names) value.player_names = names;
    else {
      bad.push("player_names");
      errors.push("player_names: not a list of names");
    }
  }
  return { value, errors, bad };
}

// -------------------------------------------------------------------- session
/** A session's shape (the save itself is checked by the engine). Throws when unusable. */
export function checkSession(data, opts = {}) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("the session is not an object");
  if (typeof data.save !== "string" || !data.save) throw new Error("the session has no save");
  if (data.save.length > SAVE_MAX_CHARS) throw new Error(`the save is too large (${data.save.length} characters)`);
  const settings = checkSettings(data.settings ?? {}, opts).value;
  // A friends' table hosted here (friends/host.js) resumes as one: its guests rejoin.
  if (data.settings?.friends === "host") Object.assign(settings, { friends: "host", own_seat: 0 });
  const id = typeof data.id === "string" && /^[\w-]{1,40}$/.test(data.id) ? data.id : newId();
  const tab = typeof data.tab === "string" ? data.tab : null;
  // A friends' table is not counted. At a pass-and-play table (seats.js) each person has a
  // tally; one missing or broken is made again by the game manager, which knows the seats.
  if (settings.friends) return { id, tab, save: data.save, settings, tally: null, tallies: [] };
  const shared = isSharedTable(settings);
  let tally;
  try {
    tally = checkTally(data.tally);
    if (tally.seat !== 0) throw new Error("tally.seat");
    tally.id = id;
  } catch {
    // No tally (or a broken one): count the rest of this match from here on.
    tally = shared ? null : newTally(settings, id, { partial: true });
  }
  const tallies = [];
  if (shared && Array.isArray(data.tallies)) {
    for (const raw of data.tallies.slice(0, 5)) {
      try {
        const other = checkTally(raw);
        if (other.seat !== 0 && !tallies.some((o) => o.seat === other.seat)) tallies.push({ ...other, id });
      } catch {
        /* made again from the seats */
      }
    }
  }
  return { id, tab, save: data.save, settings, tally, tallies };
}

/** The last finished match's shape (the save is checked by the engine). Throws when unusable. */
export function checkLast(data, opts = {}) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("the last match is not an object");
  if (typeof data.save !== "string" || !data.save) throw new Error("the last match has no save");
  if (data.save.length > SAVE_MAX_CHARS) throw new Error(`the save is too large (${data.save.length} characters)`);
  const settings = checkSettings(data.settings ?? {}, opts).value;
  return { save: data.save, settings, at: Number.isFinite(data.at) ? data.at : 0 };
}

export function newId() {
  const rnd = (globalThis.crypto?.randomUUID?.() || `${Math.random()}`.slice(2) + Date.now()).replace(/[^\w-]/g, "");
  return rnd.slice(0, 36);
}

// -------------------------------------------------------------------- migrations
const MIGRATIONS = {
  settings: {
    0: (d) => {
      const out = { ...d };
      for (const k of ["series", "timer"]) if (typeof out[k] === "string" && /^\d+$/.test(out[k])) out[k] = Number(out[k]);
      out.partner_level ??= out.level;
      out.ferro ??= DEFAULT_SETTINGS.ferro;
      out.speed ??= DEFAULT_SETTINGS.speed;
      return out;
    },
  },
  session: {
    0: (d) => {
      if (!d || typeof d !== "object") throw new Error("the session is not an object");
      const settings = MIGRATIONS.settings[0](d.settings && typeof d.settings === "object" ? d.settings : {});
      const id = newId();
      return { id, tab: null, save: d.save, settings, tally: newTally(checkSettings(settings).value, id, { partial: true }) };
    },
  },
  stats: {
    0: (d) => {
      if (!d || !Array.isArray(d.games)) throw new Error("version-0 statistics have no list of games");
      const out = emptyStats();
      d.games.forEach((g, i) => {
        if (!g || !MODES.includes(g.mode) || !LEVELS.includes(g.level) || typeof g.won !== "boolean") {
          throw new Error(`version-0 game ${i} is not {mode, level, won}`);
        }
        const key = bucketKey(g.mode, g.level);
        const b = (out.buckets[key] ??= emptyBucket());
        b.games[g.won ? "won" : "lost"] += 1;
        const hw = Number.isSafeInteger(g.hands_won) && g.hands_won >= 0 ? g.hands_won : 0;
        const hl = Number.isSafeInteger(g.hands_lost) && g.hands_lost >= 0 ? g.hands_lost : 0;
        b.hands.won += hw;
        b.hands.lost += hl;
        b.hands.played += hw + hl;
        out.recent.push({
          id: `v0-${i}`, at: Number.isFinite(g.at) ? g.at : 0, mode: g.mode, level: g.level, won: g.won,
          abandoned: false, score: [0, 0], games: [0, 0], series: 1,
        });
      });
      out.recent = out.recent.slice(-RECENT_MAX);
      return out;
    },
  },
};

/** `data` of version `v` of `kind`, brought up to the current version (throws if it cannot). */
export function migrate(kind, v, data) {
  if (v > VERSION) throw new Error(`version ${v} is newer than this game knows (${VERSION})`);
  let out = data;
  for (let from = v; from < VERSION; from++) {
    const step = MIGRATIONS[kind]?.[from];
    if (!step) throw new Error(`no migration of ${kind} from version ${from}`);
    out = step(out);
  }
  return out;
}

const CHECKED_KINDS = new Set(["settings", "session", "stats", "last"]);

/** Check a current-version value of `kind`; returns the clean value or throws. */
export function check(kind, data, opts = {}) {
  if (kind === "settings") {
    const { value, errors } = checkSettings(data, opts);
    if (errors.length) throw new Error(`bad settings: ${errors.join(", ")}`);
    return value;
  }
  if (kind === "session") return checkSession(data, opts);
  if (kind === "stats") return checkStats(data);
  if (kind === "last") return checkLast(data, opts);
  throw new Error(`unknown kind ${kind}`);
}

/**
 * Read, migrate and check one kind of data. Returns {status: "missing"} /
 * {status: "ok", value, migratedFrom} / {status: "bad", error, raw} (nothing is changed
 * in storage here: the caller sets bad data aside and reports it).
 */
export function load(storage, kind, opts = {}) {
  const r = storage.readEnvelope(KEYS[kind]);
  if (r.status !== "ok") return r;
  let migrated;
  try {
    migrated = migrate(kind, r.v, r.data);
    const value = check(kind, migrated, opts);
    return { status: "ok", value, migratedFrom: r.v === VERSION ? null : r.v, raw: r.raw };
  } catch (err) {
    // Settings with a bad field keep their good ones (`partial`); other kinds are all or nothing.
    const partial = kind === "settings" && migrated ? checkSettings(migrated, opts).value : undefined;
    return { status: "bad", error: err.message, raw: r.raw, v: r.v, partial };
  }
}

// -------------------------------------------------------------- export / import
/** Everything of ours in storage, as the text of one JSON file. Stored JSON is kept as
 * JSON; anything else (another page's backup of unreadable text) as {"$raw": text}. */
export function exportText(storage) {
  const keys = {};
  for (const key of storage.keys()) {
    const raw = storage.getRaw(key);
    if (raw === null) continue;
    try {
      keys[key] = JSON.parse(raw);
    } catch {
      keys[key] = { $raw: raw };
    }
  }
  return JSON.stringify({ format: EXPORT_FORMAT, version: VERSION, exportedAt: new Date().toISOString(), keys }, null, 1);
}

/**
 * Parse and check an export file's text. Returns {ok: true, entries: {key: text to
 * store}, session} or {ok: false, reason, detail}; `reason` is one of "size", "json",
 * "foreign", "newer", "bad". Our kinds are migrated and checked like stored data (the
 * session's save still has to pass the engine: the caller does it); other keys of ours
 * (the marcador's, backups) are restored as they came, and their pages check them.
 */
export function parseImport(text, opts = {}) {
  if (typeof text !== "string" || text.length > IMPORT_MAX_CHARS) return { ok: false, reason: "size" };
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, reason: "json" };
  }
  if (!doc || typeof doc !== "object" || doc.format !== EXPORT_FORMAT || !doc.keys || typeof doc.keys !== "object" || Array.isArray(doc.keys)) {
    return { ok: false, reason: "foreign" };
  }
  if (!Number.isSafeInteger(doc.version) || doc.version < 0) return { ok: false, reason: "foreign" };
  if (doc.version > VERSION) return { ok: false, reason: "newer" };
  const entries = {};
  let session = null;
  for (const [key, value] of Object.entries(doc.keys)) {
    if (!key.startsWith(PREFIX) || key.length > 64 || key === `${PREFIX}probe`) return { ok: false, reason: "foreign", detail: key };
    // The kinds this file checks; another key of ours (truco:daily, checked by daily.js when
    // it reads it) comes back as it was, like the marcador's.
    const kind = Object.keys(KEYS).find((k) => KEYS[k] === key && CHECKED_KINDS.has(k));
    if (!kind) {
      const raw = value && typeof value === "object" && typeof value.$raw === "string" ? value.$raw : JSON.stringify(value);
      entries[key] = raw;
      continue;
    }
    const env = value;
    if (!env || typeof env !== "object" || !Number.isSafeInteger(env.v) || env.v < 0 || !("data" in env)) {
      return { ok: false, reason: "bad", detail: key };
    }
    try {
      const data = check(kind, migrate(kind, env.v, env.data), opts);
      entries[key] = JSON.stringify({ v: VERSION, savedAt: Number.isFinite(env.savedAt) ? env.savedAt : Date.now(), data });
      if (kind === "session") session = data;
    } catch (err) {
      return { ok: false, reason: "bad", detail: `${key}: ${err.message}` };
    }
  }
  return { ok: true, entries, session };
}

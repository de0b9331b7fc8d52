// The messages of a friends' table (issue #31; docs/friends.md): JSON text on the data
// channel. The guest sends requests `{id, type, …}`; the host answers each with
// `{id, ok: true, result}` or `{id, ok: false, error}`; the host's events (`{type: "obs"…}`)
// carry no id. The host trusts nothing a guest sends: checkRequest() is the only way in.

export const MESSAGE_MAX = 4096; // bytes of a guest's message; longer ones are dropped unread
export const ACTION_MAX = 40; // "raise", "play 4c", "cover 7h", "signal zap"… are far shorter
const NAME_MAX = 40;

/** The requests a guest may send, and what each carries beyond {id, type}. */
export const REQUESTS = Object.freeze({
  hello: { name: "string?" }, // the guest's name, once the channel opens
  apply: { action: "string" }, // an action of the guest's own seat (the engine checks it)
  hint: {}, // the Dica, answered from the guest's own seat's observation
  opinion: {}, // humano decide: the partner bot's opinion while this seat decides for the team
  again: {}, // "Jogar de novo" at the match's end: this seat is ready for the host's next match
});

/**
 * A guest's message as received, checked: the request object, or null (dropped). Size,
 * JSON, the id (a small whole number), a known type, and exactly its fields, each of its kind.
 */
export function checkRequest(raw) {
  if (typeof raw !== "string" || raw.length > MESSAGE_MAX) return null;
  let msg;
  try {
    msg = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) return null;
  if (!Number.isInteger(msg.id) || msg.id < 0 || msg.id > 1e9) return null;
  if (typeof msg.type !== "string" || !Object.hasOwn(REQUESTS, msg.type)) return null;
  const fields = REQUESTS[msg.type];
  for (const key of Object.keys(msg)) {
    if (key !== "id" && key !== "type" && !Object.hasOwn(fields, key)) return null;
  }
  for (const [key, kind] of Object.entries(fields)) {
    const value = msg[key];
    if (value === undefined && kind.endsWith("?")) continue;
    if (typeof value !== "string") return null;
    if (value.length > (key === "action" ? ACTION_MAX : NAME_MAX)) return null;
  }
  return msg;
}

// ------------------------------------------------------------ observations as changes
// The host sends a guest's first observation whole ({observation}); each later one as what
// changed since the last one sent on that channel ({delta: {set, tail, drop?}}): `set` the
// fields whose value changed, `tail` for a list that kept its first items (the log, the
// history, the rounds: `[kept, items]`, the first `kept` items of the old list and then
// `items`), `drop` the fields gone. The channel is ordered and reliable, so both sides
// walk the same chain; a new connection starts with a whole observation.

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Whether a payload is a change that changes nothing (not worth sending). */
export const emptyDelta = (payload) => Boolean(payload.delta) && !Object.keys(payload.delta.set).length
  && !Object.keys(payload.delta.tail).length && !payload.delta.drop;

/** What `obs` changes of `base` (no base: the observation whole). */
export function obsDelta(base, obs) {
  if (!base) return { observation: obs };
  const set = {};
  const tail = {};
  for (const [key, value] of Object.entries(obs)) {
    const old = base[key];
    if (same(value, old)) continue;
    let kept = 0;
    if (Array.isArray(value) && Array.isArray(old)) {
      while (kept < old.length && kept < value.length && same(old[kept], value[kept])) kept++;
    }
    if (kept > 0) tail[key] = [kept, value.slice(kept)];
    else set[key] = value;
  }
  const drop = Object.keys(base).filter((key) => !Object.hasOwn(obs, key));
  return { delta: { set, tail, ...(drop.length ? { drop } : {}) } };
}

/** The observation a payload ({observation} or {delta}) makes of `base`; null if it cannot. */
export function applyDelta(base, payload) {
  if (payload?.observation) return payload.observation;
  const d = payload?.delta;
  if (!base || !d || typeof d !== "object") return null;
  const obs = { ...base, ...(d.set ?? {}) };
  for (const [key, [kept, items]] of Object.entries(d.tail ?? {})) obs[key] = [...(base[key] ?? []).slice(0, kept), ...items];
  for (const key of d.drop ?? []) delete obs[key];
  return obs;
}

// ------------------------------------------------------------ what the host sends, checked
// A guest trusts its host no more than the host trusts a guest (issue 42): every message
// from the channel is checked on arrival, and what the page shows of it is set as text
// (shared/dom.js; no innerHTML anywhere). A message that fails is dropped unread and
// counted (GuestLink.dropped). The checks follow the engine's observation schema
// (py/truco/observation.schema.json) for every field the page reads, and bound the rest.

export const HOST_MESSAGE_MAX = 512 * 1024; // a whole observation with a long history is ~40 KB
const CARD = /^[4567QJKA23][chsd]$/;
const WORD = /^[\p{L}\p{N}][\p{L}\p{N} .'-]{0,39}$/u; // a rule set's title, a manilha's name, a raise's name
const KEY = /^[a-z][a-z0-9_]{0,39}$/; // an event's type, a phase, a preset's id
const ACTION = /^[a-z]+( [#0-9A-Za-z]{1,3}| [a-z_-]{1,20})?$/; // "raise", "play 4c", "play #2", "signal zap"
const STRING_MAX = 200; // any other string anywhere in an observation
const DEPTH_MAX = 8;
const ERROR_MAX = 200;

const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
const isSeat = (v) => isInt(v, 0, 5);
const isCard = (v) => typeof v === "string" && CARD.test(v);
const cardOrNull = (v) => v === null || isCard(v);
const seatOrNull = (v) => v === null || isSeat(v);
const teamOrNull = (v) => v === null || v === 0 || v === 1;
const listOf = (v, ok, max = 64) => Array.isArray(v) && v.length <= max && v.every(ok);
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isWord = (v) => typeof v === "string" && WORD.test(v);

/** Every value plain JSON: finite numbers, short strings, nested no deeper than DEPTH_MAX. */
function plain(value, depth = 0) {
  if (value === null || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "string") return value.length <= STRING_MAX;
  if (depth >= DEPTH_MAX || typeof value !== "object") return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.length <= 2000 && items.every((v) => plain(v, depth + 1));
}

/** An event of the log or the history: its type a key, its seat, card and cards as such. */
function event(e) {
  if (!isObj(e) || typeof e.type !== "string" || !KEY.test(e.type)) return false;
  if ("n" in e && !isInt(e.n, 0, 1e6)) return false;
  for (const key of ["seat", "asker", "answerer", "winner_seat", "by"]) if (key in e && !seatOrNull(e[key])) return false;
  for (const key of ["card", "vira"]) if (key in e && !cardOrNull(e[key])) return false;
  if ("cards" in e && !listOf(e.cards, cardOrNull, 6)) return false;
  for (const key of ["name", "action", "signal", "kind"]) if (key in e && !(e[key] === null || isWord(e[key]))) return false;
  for (const key of ["value", "points"]) if (key in e && !(e[key] === null || isInt(e[key], 0, 99))) return false;
  return true;
}

const play = (p) => isObj(p) && isSeat(p.seat) && cardOrNull(p.card) && typeof p.covered === "boolean";
const round = (r) => isObj(r) && listOf(r.plays, play, 6) && seatOrNull(r.winner ?? null) && seatOrNull(r.leader ?? null);
const raise = (r) => r === null || (isObj(r) && isWord(r.name) && isInt(r.value, 1, 99));
const pending = (p) => p === null || (isObj(p) && isSeat(p.asker) && isSeat(p.answerer) && isWord(p.name) && isInt(p.value, 1, 99));

/** An observation as the engine makes it (its schema), or false. */
export function checkObservation(obs) {
  if (!isObj(obs) || !plain(obs)) return false;
  const r = obs.rules;
  const o = obs.options;
  return [
    isSeat(obs.seat), obs.team === 0 || obs.team === 1, [2, 4, 6].includes(obs.players), isSeat(obs.dealer),
    isSeat(obs.mao), ["normal", "dez", "ferro"].includes(obs.hand_kind), typeof obs.blind === "boolean",
    typeof obs.preset === "string" && KEY.test(obs.preset),
    isObj(r) && isWord(r.name ?? "x") && isWord(r.title ?? "x") && listOf(r.manilha_names ?? [], isWord, 4)
      && listOf(r.ladder ?? [], (s) => isObj(s) && isWord(s.name) && isInt(s.value, 1, 99), 8)
      && isInt(r.mao_de_x_value ?? 1, 0, 99) && isInt(r.target ?? 12, 1, 99) && typeof (r.vira ?? false) === "boolean"
      && (r.tentos === undefined || typeof r.tentos === "boolean"),
    isObj(o) && [1, 3, 5].includes(o.series) && [0, 10, 20, 30].includes(o.timer ?? 0),
    isInt(obs.game_number, 1, 99), isInt(obs.hand_number, 1, 10_000),
    listOf(obs.hand, isCard, 3), listOf(obs.hand_sizes, (n) => isInt(n, 0, 3), 6),
    listOf(obs.visible_hands, (v) => isObj(v) && isSeat(v.seat) && listOf(v.cards, isCard, 3), 6),
    obs.decision === null || (isObj(obs.decision) && isSeat(obs.decision.seat)),
    teamOrNull(obs.dez_team ?? null), listOf(obs.rounds, round, 3), isInt(obs.hand_value, 1, 99),
    isInt(obs.raise_level, 0, 9), raise(obs.next_raise), pending(obs.pending), teamOrNull(obs.last_asker_team ?? null),
    seatOrNull(obs.to_move), listOf(obs.legal_actions, (a) => typeof a === "string" && ACTION.test(a), 32),
    listOf(obs.score, (n) => isInt(n, 0, 99), 2) && obs.score.length === 2,
    listOf(obs.games, (n) => isInt(n, 0, 9), 2) && obs.games.length === 2, [1, 3, 5].includes(obs.series),
    teamOrNull(obs.winner), seatOrNull(obs.abandoned_by ?? null), listOf(obs.auto_moves ?? [], (n) => isInt(n, 0, 1e6), 1000),
    listOf(obs.log, event, 1000), cardOrNull(obs.vira ?? null), listOf(obs.manilhas, isCard, 4),
    listOf(obs.exchanged ?? [], (x) => isObj(x) && isSeat(x.seat) && listOf(x.cards, isCard, 3), 6),
    listOf(obs.signals ?? [], (s) => isObj(s) && isSeat(s.seat) && isWord(s.signal), 12), typeof (obs.may_signal ?? false) === "boolean",
    listOf(obs.history ?? [], (h) => isObj(h) && Object.values(h).every((v) => !Array.isArray(v) || v.every((e) => !isObj(e) || event(e))), 2000),
  ].every(Boolean);
}

/** The table's settings a host sends: {seat, mode, humans, names, hint, timer}, or false. */
export function checkTable(table) {
  return isObj(table) && isInt(table.seat, 1, 5) && ["1x1", "2x2", "3x3"].includes(table.mode)
    && typeof table.humans === "string" && /^[0-5]{1,6}$/.test(table.humans)
    && listOf(table.names, (n) => typeof n === "string" && n.length <= 40, 6)
    && typeof (table.hint ?? false) === "boolean" && (table.timer === null || table.timer === undefined || [0, 10, 20, 30].includes(table.timer));
}

/** A hint's reply (engine.md, `hint`): its action, its reason's key and short params. */
export function checkHint(h) {
  return isObj(h) && typeof h.action === "string" && ACTION.test(h.action)
    && (h.reason === undefined || (isObj(h.reason) && typeof h.reason.key === "string" && /^hint\.[a-z0-9_.]{1,60}$/.test(h.reason.key)
      && isObj(h.reason.params ?? {}) && Object.values(h.reason.params ?? {}).every((v) => plain(v, DEPTH_MAX - 2) && JSON.stringify(v).length <= 80)))
    && (h.text === undefined || (typeof h.text === "string" && h.text.length <= 300));
}

/** humano decide's partner opinion: {seat, action}. */
export const checkOpinion = (o) => isObj(o) && seatOrNull(o.seat ?? null) && (o.action === null || o.action === undefined || (typeof o.action === "string" && ACTION.test(o.action)));

/** A refusal's text, as the guest's page may show it: a short string. */
export const hostError = (error) => String(typeof error === "string" ? error : "").slice(0, ERROR_MAX);

// Why the host refused a request (`{id, ok: false, error, code}`): its own limits (`busy`: one
// request at a time; `rate`: too many Dicas, opinions or names in a row), `turn` (not this
// seat's turn), `not_over` ("Jogar de novo" before the end), `illegal` (the engine refused
// the move), `changed` (the match changed meanwhile), `engine` (the host's engine failed).
// The guest's page says each in its own words (join.refused.* in site/i18n/); any other
// code, or none (an older host), is `other`.
export const REFUSALS = Object.freeze(["busy", "rate", "turn", "not_over", "illegal", "changed", "engine"]);

/** A refusal's code as the guest's page may use it: one of REFUSALS, else "other". */
export const refusalCode = (code) => (REFUSALS.includes(code) ? code : "other");

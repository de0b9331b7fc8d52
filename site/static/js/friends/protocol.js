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

// localStorage, checked: one namespaced key per kind of data, each a versioned envelope
// {v, savedAt, data}. Falls back to memory when storage is unavailable (private mode,
// blocked cookies) or full, so the game still plays; nothing here ever throws at callers.
// What each kind of data may hold, and how an older version is migrated, is in
// saved_data.js.

export const PREFIX = "truco:";
export const KEYS = {
  session: `${PREFIX}session`, // the game in progress (opaque engine save + tally)
  settings: `${PREFIX}settings`, // the start screen's choices
  stats: `${PREFIX}stats`, // statistics per mode and level
  last: `${PREFIX}last`, // the last finished match (opaque engine save), to replay and share
  daily: `${PREFIX}daily`, // o desafio do dia: each day's first try, the streak (table/daily.js)
  backup: `${PREFIX}backup`, // unreadable data set aside, never thrown away
};
const VERSION = 1;

function isQuota(err) {
  return err && (err.name === "QuotaExceededError" || err.name === "NS_ERROR_DOM_QUOTA_REACHED" || err.code === 22 || err.code === 1014);
}

/** What the browser lets us do: read stored data, and write it. */
function probe() {
  let store = null;
  try {
    store = window.localStorage;
    store.getItem(`${PREFIX}probe`);
  } catch {
    return { store: null, writable: false, trouble: "unavailable" };
  }
  try {
    const k = `${PREFIX}probe`;
    store.setItem(k, "1");
    store.removeItem(k);
    return { store, writable: true, trouble: null };
  } catch (err) {
    // Readable but not writable (full, or a policy): keep reading what is there.
    return { store, writable: false, trouble: isQuota(err) ? "full" : "unavailable" };
  }
}

export class StorageManager {
  constructor() {
    const p = probe();
    this.store = p.store;
    this.writable = p.writable;
    this.persistent = p.store !== null && p.writable;
    // Why progress is not being kept: null, "unavailable" (no storage) or "full" (quota).
    this.trouble = p.trouble;
    // Values that could not be written: they win over the stored ones for this page's life.
    this.memory = new Map();
    this.listeners = new Set();
    this.unloadGuard = null; // the beforeunload handler while unsaved progress is in memory
  }

  /** Call `fn(trouble)` whenever storage starts or stops failing (and now, if it is). */
  onTrouble(fn) {
    this.listeners.add(fn);
    if (this.trouble) fn(this.trouble);
  }

  setTrouble(trouble) {
    if (trouble === this.trouble) return;
    this.trouble = trouble;
    for (const fn of this.listeners) {
      try {
        fn(trouble);
      } catch (err) {
        console.warn("storage trouble listener failed", err);
      }
    }
  }

  getRaw(key) {
    if (this.memory.has(key)) return this.memory.get(key);
    try {
      return this.store ? this.store.getItem(key) : null;
    } catch {
      return null;
    }
  }

  setRaw(key, value) {
    if (!this.store) {
      this.memory.set(key, value);
      return false;
    }
    let stored = false;
    let full = false;
    try {
      this.store.setItem(key, value);
      stored = true;
    } catch (err) {
      full = isQuota(err);
      stored = full && this.makeRoom(key, value);
    }
    if (stored) {
      this.memory.delete(key);
      this.writable = true;
      // There is room again: what else waits in memory (the settings, the statistics, a
      // backup written while storage was full) is stored now, so the note ("Armazenamento
      // cheio") goes once the room is there, not only when every one of those keys happens
      // to be written again (issue 42).
      if (this.trouble) this.flushMemory();
      if (this.trouble && this.memory.size === 0) this.setTrouble(null); // everything is stored again
    } else {
      this.memory.set(key, value); // quota or a revoked permission: keep playing
      this.setTrouble(full ? "full" : "unavailable");
    }
    this.guardUnload();
    return stored;
  }

  /**
   * Storage is full: drop what the game can do without, least needed first, and try the
   * write again after each: the last finished match (kept to replay and share), then the
   * oldest set-aside items. Never the key being written. True once the write went through.
   */
  makeRoom(key, value) {
    const retry = () => {
      try {
        this.store.setItem(key, value);
        return true;
      } catch {
        return false;
      }
    };
    if (key !== KEYS.last && this.getRaw(KEYS.last) !== null) {
      this.remove(KEYS.last);
      console.info("storage full: dropped the last finished match (replay and share) to keep the game");
      if (retry()) return true;
    }
    if (key !== KEYS.backup) {
      let items = this.backupItems();
      while (items.length > 0) {
        items = items.slice(1);
        if (items.length === 0) this.remove(KEYS.backup);
        else this.setRawQuietly(KEYS.backup, JSON.stringify({ v: VERSION, savedAt: Date.now(), data: { items } }));
        console.info("storage full: dropped the oldest set-aside item to keep the game");
        if (retry()) return true;
      }
    }
    return false;
  }

  /** Store what waits in memory, each value that fits (the rest stays in memory). */
  flushMemory() {
    for (const [k, v] of [...this.memory]) {
      try {
        this.store.setItem(k, v);
        this.memory.delete(k);
      } catch {
        /* still no room for this one */
      }
    }
  }

  setRawQuietly(key, value) {
    try {
      this.store.setItem(key, value);
    } catch {
      /* a smaller value than the one stored: it fits; if not, the next retry says so */
    }
  }

  /**
   * While storage is full and something is kept only in memory, leaving the page would lose
   * it: the browser asks first (beforeunload). Nothing is asked when storage is simply not
   * available (private mode): nothing could be kept anyway, and the note says so.
   */
  guardUnload() {
    const guard = this.trouble === "full" && this.memory.size > 0;
    if (guard && !this.unloadGuard) {
      this.unloadGuard = (ev) => {
        ev.preventDefault();
        ev.returnValue = ""; // older browsers ask only with a returnValue
      };
      globalThis.addEventListener?.("beforeunload", this.unloadGuard);
    } else if (!guard && this.unloadGuard) {
      globalThis.removeEventListener?.("beforeunload", this.unloadGuard);
      this.unloadGuard = null;
    }
  }

  remove(key) {
    try {
      if (this.store) this.store.removeItem(key);
    } catch {
      /* nothing to do */
    }
    this.memory.delete(key);
  }

  /** Every key of ours that holds something (stored or in memory). */
  keys() {
    const out = new Set();
    try {
      if (this.store) {
        for (let i = 0; i < this.store.length; i++) {
          const k = this.store.key(i);
          if (k && k.startsWith(PREFIX) && k !== `${PREFIX}probe`) out.add(k);
        }
      }
    } catch {
      /* unreadable: memory only */
    }
    for (const k of this.memory.keys()) out.add(k);
    return [...out].sort();
  }

  /**
   * Read an envelope of any version. Returns {status: "missing"} / {status: "bad", error,
   * raw} when the stored text is not an envelope / {status: "ok", v, data, savedAt, raw}.
   */
  readEnvelope(key) {
    const raw = this.getRaw(key);
    if (raw === null) return { status: "missing" };
    let env;
    try {
      env = JSON.parse(raw);
    } catch {
      return { status: "bad", error: "not JSON", raw };
    }
    if (!env || typeof env !== "object" || Array.isArray(env) || !("data" in env)) {
      return { status: "bad", error: "not an envelope {v, data}", raw };
    }
    if (!Number.isSafeInteger(env.v) || env.v < 0) return { status: "bad", error: `unknown version ${String(env.v).slice(0, 20)}`, raw };
    return { status: "ok", v: env.v, data: env.data, savedAt: env.savedAt, raw };
  }

  /**
   * Read a version-1 envelope. Returns {ok: true, data} / {ok: false, missing: true} /
   * {ok: false, error, raw} when the stored text is not a readable envelope.
   */
  read(key) {
    const r = this.readEnvelope(key);
    if (r.status === "missing") return { ok: false, missing: true };
    if (r.status === "bad") return { ok: false, error: r.error, raw: r.raw };
    if (r.v !== VERSION) return { ok: false, error: "unknown format", raw: r.raw };
    return { ok: true, data: r.data, savedAt: r.savedAt };
  }

  write(key, data, v = VERSION) {
    return this.setRaw(key, JSON.stringify({ v, savedAt: Date.now(), data }));
  }

  // ----------------------------------------------------------------- backups
  /** The set-aside items, oldest first: [{from, reason, at, raw}]. */
  backupItems() {
    const raw = this.getRaw(KEYS.backup);
    if (raw === null) return [];
    try {
      const env = JSON.parse(raw);
      if (Array.isArray(env?.data?.items)) return env.data.items.filter((i) => i && typeof i.raw === "string");
      if (env && typeof env.raw === "string") return [{ from: env.from, reason: "", at: env.savedAt, raw: env.raw }]; // first layout
    } catch {
      /* the backup itself is unreadable: keep it as an item */
    }
    return [{ from: KEYS.backup, reason: "unreadable backup", at: Date.now(), raw }];
  }

  /**
   * Keep a copy of an unreadable value under the backup key, then clear the original.
   * If the backup cannot be written (storage full), the original stays where it was, so
   * nothing is lost; the copy is still offered for download from memory.
   */
  setAside(key, raw, reason = "") {
    const items = this.backupItems();
    if (!items.some((i) => i.from === key && i.raw === raw)) items.push({ from: key, reason: String(reason).slice(0, 300), at: Date.now(), raw });
    const text = JSON.stringify({ v: VERSION, savedAt: Date.now(), data: { items } });
    const stored = this.getRaw(key);
    this.remove(key); // frees its room for the copy
    if (!this.setRaw(KEYS.backup, text) && this.store && stored !== null) {
      try {
        this.store.setItem(key, stored);
      } catch {
        /* it was there a moment ago; memory keeps the copy */
      }
    }
  }

  /** Add set-aside items (from an imported file) to the backup, leaving every key alone. */
  addBackupItems(more) {
    const items = this.backupItems();
    for (const i of more) if (!items.some((j) => j.from === i.from && j.raw === i.raw)) items.push(i);
    return this.setRaw(KEYS.backup, JSON.stringify({ v: VERSION, savedAt: Date.now(), data: { items } }));
  }

  backupURL() {
    const raw = this.getRaw(KEYS.backup);
    if (raw === null) return null;
    try {
      return URL.createObjectURL(new Blob([raw], { type: "application/json" }));
    } catch {
      return null;
    }
  }
}

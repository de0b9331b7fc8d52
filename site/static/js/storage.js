// localStorage, checked: one namespaced key per kind of data, each a versioned envelope
// {v, savedAt, data}. Falls back to memory when storage is unavailable (private mode,
// blocked cookies, quota), so the game still plays; nothing here ever throws at callers.

const PREFIX = "truco:";
export const KEYS = {
  session: `${PREFIX}session`,
  settings: `${PREFIX}settings`,
  backup: `${PREFIX}backup`,
};
const VERSION = 1;

function probe() {
  try {
    const k = `${PREFIX}probe`;
    window.localStorage.setItem(k, "1");
    window.localStorage.removeItem(k);
    return window.localStorage;
  } catch {
    return null;
  }
}

export class StorageManager {
  constructor() {
    this.store = probe();
    this.memory = new Map();
    this.persistent = this.store !== null;
  }

  getRaw(key) {
    try {
      return this.store ? this.store.getItem(key) : this.memory.get(key) ?? null;
    } catch {
      return null;
    }
  }

  setRaw(key, value) {
    try {
      if (this.store) this.store.setItem(key, value);
      else this.memory.set(key, value);
      return true;
    } catch {
      this.memory.set(key, value); // quota or a revoked permission: keep playing
      return false;
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

  /**
   * Read an envelope. Returns {ok: true, data} / {ok: false, missing: true} /
   * {ok: false, error, raw} when the stored text is not a readable envelope.
   */
  read(key) {
    const raw = this.getRaw(key);
    if (raw === null) return { ok: false, missing: true };
    let env;
    try {
      env = JSON.parse(raw);
    } catch {
      return { ok: false, error: "not JSON", raw };
    }
    if (!env || typeof env !== "object" || env.v !== VERSION || !("data" in env)) {
      return { ok: false, error: "unknown format", raw };
    }
    return { ok: true, data: env.data, savedAt: env.savedAt };
  }

  write(key, data) {
    return this.setRaw(key, JSON.stringify({ v: VERSION, savedAt: Date.now(), data }));
  }

  /** Keep a copy of an unreadable value under the backup key, then clear the original. */
  setAside(key, raw) {
    this.setRaw(KEYS.backup, JSON.stringify({ v: VERSION, savedAt: Date.now(), from: key, raw }));
    this.remove(key);
  }

  backupURL() {
    const raw = this.getRaw(KEYS.backup);
    if (raw === null) return null;
    return URL.createObjectURL(new Blob([raw], { type: "application/json" }));
  }
}

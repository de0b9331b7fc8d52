// The saved-match store: what the table keeps in the browser's storage (StorageManager),
// read through saved_data.js's checks. The match in play ("session": its save, settings and
// statistics so far, written after every applied action), the last finished match ("last",
// for "Rever a partida" and "Compartilhar"), the statistics and the settings. Bad data is
// set aside (kept for the player to download) and said once; a save the engine refuses is
// set aside the same way, unless the engine itself failed.

import { setPlayerAvatar } from "../shared/avatars.js";
import { engineApi } from "../engine/engine_api.js";
import { applyDeckColours } from "../shared/cards.js";
import { engineWords } from "../shared/engine_words.js";
import { t } from "../shared/i18n.js";
import { KEYS } from "../shared/storage.js";
import { DEFAULT_SETTINGS, load } from "./saved_data.js";
import { Seats, isSharedTable } from "./seats.js";
import { commitTally, emptyStats, finishTally, tallyView } from "./stats.js";

// The rating and the history of matches (issue 45): loaded once a match is under way, by an
// address held in a constant (a literal import() would count in the first visit's budget).
const MATCH_LOG = "./match_log.js";

// Engine errors that say nothing about the save (the worker is not there to judge it).
const ENGINE_DOWN = new Set(["LoadError", "Terminated", "NotRunning", "DataCloneError"]);

export class MatchStore {
  /**
   * @param {object} o  {storage (StorageManager), dialogs (Dialogs: notices), client (the
   *   engine, to check a saved game), presets (the presets the page offers, to check settings)}
   */
  constructor({ storage, dialogs, client, presets = null }) {
    this.storage = storage;
    this.dialogs = dialogs;
    this.client = client;
    this.presets = presets;
    this.lastBad = null; // the kind of data the last read set aside
    this.savedObs = {}; // session id -> the observation its save loaded to (for the score, if given up)
  }

  /** Read, migrate and check one kind of data; bad data is set aside and reported. */
  loadKind(kind) {
    return this.loadChecked(kind).value;
  }

  /** Like loadKind, and says whether bad data was found (and set aside): {value, bad}. */
  loadChecked(kind) {
    const value = this.read(kind);
    return { value, bad: this.lastBad === kind };
  }

  read(kind) {
    this.lastBad = null;
    const r = load(this.storage, kind, { presets: this.presets });
    if (r.status === "ok") {
      if (r.migratedFrom !== null) {
        // Keep what was there, then store the current version (migrated once, not on every read).
        this.storage.setAside(KEYS[kind], r.raw, `migrated from version ${r.migratedFrom}`);
        this.storage.write(KEYS[kind], r.value);
      }
      return r.value;
    }
    if (r.status === "bad") {
      this.setAside(kind, r.raw, r.error);
      if (kind === "settings") return r.partial ?? null; // the good fields are still used
    }
    return null;
  }

  /** Keep `raw` aside (the player may download it) and say so: t(`saved.bad.${kind}`). */
  setAside(kind, raw, reason) {
    console.warn(`saved ${kind} set aside: ${reason}`);
    this.storage.setAside(KEYS[kind], raw, reason);
    this.lastBad = kind;
    this.dialogs.notice(t(`saved.bad.${kind}`), this.storage.backupURL());
  }

  /** Set the saved match aside (the engine refused it, or got stuck on it), if there is one. */
  setAsideSession(reason) {
    const raw = this.storage.getRaw(KEYS.session);
    if (raw !== null) this.setAside("session", raw, reason);
  }

  /**
   * The last finished match's save, checked by the engine (`share`: the save replayed through
   * the rules, the table in play untouched) before its replay or link is opened: one the
   * engine refuses is set aside like any bad data and said in the page's words (issue 42: it
   * was never set aside, and the replay showed the engine's English). Resolves with the save,
   * or null.
   */
  async checkedLast() {
    const last = this.lastMatch();
    if (!last) return null;
    try {
      await engineApi(this.client).share({ save: last.save });
      return last.save;
    } catch (err) {
      if (!err?.valueError) throw err; // the engine failed, not the save: kept
      const raw = this.storage.getRaw(KEYS.last);
      if (raw !== null) this.setAside("last", raw, err.message);
      return null;
    }
  }

  /** The saved session, checked (except the save blob, which `checkedSession` tries). */
  savedSession() {
    return this.loadKind("session");
  }

  /**
   * The saved session once the engine has loaded its save (so a tampered game is caught
   * before "Continuar partida" is offered), with the observation it gives: {session, obs}.
   */
  async checkedSession() {
    const session = this.savedSession();
    if (!session) return null;
    try {
      // A shared table's save is checked without anybody's view (no hand reaches the page).
      // The settings must tell the save's own table (issue 42: a session whose settings
      // named four people at a save of one looped on "Passe para Jogador 2"): the engine
      // refuses a save whose people sit elsewhere (`humans`), and its table's size must be
      // the settings' mode. A friends' host's save is exempt from the first: its guests'
      // seats are bots' while they are away (friends/host.js).
      const seats = new Seats(session.settings);
      const humans = session.settings?.friends === "host" ? {} : { humans: seats.humans };
      const reply = await engineApi(this.client).load({ save: session.save, ...humans, ...(isSharedTable(session.settings) ? { seat: null } : {}) });
      if (reply.observation.players !== seats.players) {
        throw Object.assign(new Error(`the save is a table of ${reply.observation.players}, its settings one of ${seats.players}`), { errorType: "ValueError" });
      }
      this.savedObs = { [session.id]: reply.observation };
      return { session, obs: reply.observation };
    } catch (err) {
      this.refusedSave(err);
      return null;
    }
  }

  /** The engine would not load the saved game: set it aside, unless the engine itself failed. */
  refusedSave(err) {
    if (ENGINE_DOWN.has(err?.errorType)) {
      this.dialogs.notice(t("error.engine", { message: engineWords(err) })); // the save stays where it is
      return;
    }
    this.setAsideSession(err.message);
  }

  storedSettings() {
    return this.loadKind("settings");
  }

  saveSettings(settings) {
    applyDeckColours(settings);
    setPlayerAvatar(settings);
    this.storage.write(KEYS.settings, { ...DEFAULT_SETTINGS, ...settings });
  }

  /** The last finished match ({save, settings, at}), or null. */
  lastMatch() {
    return this.loadKind("last");
  }

  /** Add finished matches' tallies ([[tally, entry]…]) to the statistics, in one write
   * (once each: the match id guards it, per person). */
  commitStats(...done) {
    const stats = this.loadKind("stats") ?? emptyStats();
    let next = stats;
    for (const [tally, entry] of done) next = commitTally(next, tally, entry);
    if (next !== stats) this.storage.write(KEYS.stats, next);
  }

  /**
   * A saved match that is given up (the player starts another, or leaves the table): a
   * loss and an abandonment in the statistics, and no saved game any more. A pass-and-play
   * match given up counts for nobody: the people at the device left it together.
   */
  abandonSaved(session, obs = null) {
    if (session?.tally && !session.tally.finished && !isSharedTable(session.settings)) {
      const done = [[session.tally, finishTally(session.tally, tallyView(obs, 0), { left: true })]];
      this.commitStats(...done);
      // Its save for the history's replay: the session's, or the one stored for it ("Sair da mesa").
      const stored = this.storage.read(KEYS.session);
      const save = session.save ?? (stored.ok && stored.data?.id === session.id ? stored.data.save : null);
      this.logMatch(done, { settings: session.settings, save: typeof save === "string" ? save : null });
    }
    this.removeSession();
  }

  /** Give up whatever match is saved for a new one (`current`: the one this tab played). */
  abandonStored(current) {
    const stored = this.savedSession();
    if (!stored) return;
    const obs = stored.id === current.id ? current.obs : this.savedObs[stored.id] ?? null;
    this.abandonSaved(stored, obs);
  }

  /** The match in play after an action: the game and its statistics so far, in one write
   * (so a reload never counts twice). */
  saveProgress({ id, tab, save, settings, tally, tallies = [] }) {
    this.storage.write(KEYS.session, { id, tab, save, settings, tally, tallies });
    this.matchLog ??= import(MATCH_LOG); // ready by the match's end
  }

  /** A match the statistics counted ([tally, entry]…): rated and kept in the history (match_log.js). */
  logMatch(done, context) {
    this.matchLog ??= import(MATCH_LOG);
    return this.matchLog.then((m) => m.logMatch(this, done, context)).catch((err) => {
      this.matchLog = null;
      console.warn(`the rating and history were not written: ${err?.message ?? err}`);
    });
  }

  /** The match is over: counted into the statistics, kept as the last match (after a reload
   * too), and no longer resumed. */
  matchOver({ id, save, settings, tally, tallies = [], obs }) {
    const open = [tally, ...tallies].filter((x) => x && !x.finished);
    if (open.length) {
      const done = open.map((x) => [x, finishTally(x, tallyView(obs, x.seat))]);
      this.commitStats(...done);
      this.logMatch(done, { settings, save, announce: true });
    }
    if (id) this.storage.write(KEYS.last, { save, settings, at: Date.now() });
    this.removeSession();
  }

  removeSession() {
    this.storage.remove(KEYS.session);
  }
}

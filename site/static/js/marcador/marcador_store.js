// Where the marcador keeps its score: localStorage under KEY (through StorageManager), checked
// by marcador_state.js when read. An unreadable save is set aside (in the shared backup
// list, for the player to download) and said in the page's notice.

import { t } from "../shared/i18n.js";
import * as M from "./marcador_state.js";

export const KEY = "truco:marcador";
// Where earlier versions kept one set-aside score (a second one overwrote the first); moved
// into the shared backup list (KEYS.backup, every item tagged with the key it came from).
const OLD_BACKUP_KEY = "truco:marcador:backup";

const $ = (id) => document.getElementById(id);

export class MarcadorStore {
  constructor(storage, presets) {
    this.storage = storage;
    this.presets = presets;
    // True while an unreadable save could not be copied aside (storage full): it stays under
    // KEY, and this page's score lives in memory only, so nothing overwrites it.
    this.keepingOriginal = false;
  }

  /** The saved score, checked; a fresh one when there is none or it is unreadable. */
  load() {
    const { storage } = this;
    const r = storage.read(KEY);
    if (r.ok) {
      const checked = M.validate(r.data, this.presets);
      if (checked.ok) return checked.state;
      this.setAside(storage.getRaw(KEY), "not a valid score");
    } else if (!r.missing) {
      this.setAside(r.raw, r.error);
    }
    return M.initialState(this.presets);
  }

  /** A set-aside score kept by an earlier version under its own key joins the shared list. */
  moveOldBackup() {
    const { storage } = this;
    const raw = storage.getRaw(OLD_BACKUP_KEY);
    if (raw === null) return;
    if (storage.addBackupItems([{ from: KEY, reason: "set aside by an earlier version", at: Date.now(), raw }])) {
      storage.remove(OLD_BACKUP_KEY);
    }
  }

  /**
   * Keep an unreadable save in the shared backup list (never over an earlier one), drop it,
   * and say so. When storage is too full for the copy, the save stays where it is and this
   * page's score is not stored until there is room: nothing is lost either way.
   */
  setAside(raw, reason) {
    this.storage.setAside(KEY, raw, reason);
    this.keepingOriginal = this.storage.getRaw(KEY) === raw;
    const link = $("notice-download");
    try {
      link.href = URL.createObjectURL(new Blob([raw], { type: "application/json" }));
      link.hidden = false;
    } catch {
      link.hidden = true;
    }
    $("notice-text").textContent = t(this.keepingOriginal ? "marcador.corrupt.kept" : "marcador.corrupt");
    $("notice").hidden = false;
  }

  save(state) {
    if (this.keepingOriginal) return;
    this.storage.write(KEY, state);
  }
}

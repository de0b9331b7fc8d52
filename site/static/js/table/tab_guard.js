// One game, one tab. Every tab of the site shares the one saved session, so two tabs
// playing it would overwrite each other's saves. The tab that starts or resumes a game
// *claims* it (BroadcastChannel); a tab that was playing hears the claim and stops,
// saying that the game is open elsewhere. A tab that just opened asks who is playing,
// to say so on its start screen. The `storage` event backs this up where
// BroadcastChannel is missing: a session written by another tab means the same.

import { KEYS } from "../shared/storage.js";

const CHANNEL = "truco-mineiro";

export class TabGuard {
  /**
   * @param {object} h  {onTakenOver(), onPresence(playingElsewhere: boolean)}
   */
  constructor(h) {
    this.h = h;
    this.id = (globalThis.crypto?.randomUUID?.() || `${Math.random()}`.slice(2)).slice(0, 12);
    this.playing = false;
    this.others = new Set(); // tabs that said they are playing
    this.channel = null;
    try {
      this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    } catch {
      this.channel = null;
    }
    if (this.channel) this.channel.onmessage = (ev) => this.onMessage(ev.data || {});
    window.addEventListener("storage", (ev) => this.onStorage(ev));
    window.addEventListener("pagehide", () => {
      if (this.playing) this.post({ type: "gone" });
    });
    this.post({ type: "who" });
  }

  post(msg) {
    try {
      this.channel?.postMessage({ ...msg, tab: this.id });
    } catch {
      /* a closed channel: nothing to tell */
    }
  }

  /** This tab plays the saved game from now on: the others stop. */
  claim() {
    this.playing = true;
    this.others.clear();
    this.post({ type: "claim" });
    this.h.onPresence?.(false);
  }

  /** This tab stopped playing (left, finished, or taken over). */
  release() {
    if (this.playing) this.post({ type: "gone" });
    this.playing = false;
  }

  get elsewhere() {
    return this.others.size > 0;
  }

  onMessage(msg) {
    if (!msg || msg.tab === this.id) return;
    switch (msg.type) {
      case "who":
        if (this.playing) this.post({ type: "here" });
        break;
      case "here":
        this.others.add(msg.tab);
        this.h.onPresence?.(true);
        break;
      case "claim":
        this.others.add(msg.tab);
        if (this.playing) this.takenOver();
        this.h.onPresence?.(true);
        break;
      case "gone":
        this.others.delete(msg.tab);
        this.h.onPresence?.(this.elsewhere);
        break;
      default:
        break;
    }
  }

  onStorage(ev) {
    if (ev.key !== KEYS.session || !this.playing) return;
    let writer = null;
    try {
      writer = JSON.parse(ev.newValue)?.data?.tab ?? null;
    } catch {
      writer = null;
    }
    if (writer !== this.id) this.takenOver();
  }

  takenOver() {
    this.playing = false;
    this.h.onTakenOver?.();
  }
}

// "Compartilhar": a link that starts the same match — the same seed, so every deal of it
// (deal k depends only on the seed and k), with the same rules and bots. The engine gives
// the seed only once the match is over (`share`): during it, the seed would tell the other
// seats' cards. Opening the link starts that match (after asking, when a saved game would
// be given up): see `sharedFromURL`.

import { engineApi } from "../engine/engine_api.js";
import { engineWords } from "../shared/engine_words.js";
import { DEFAULT_SETTINGS } from "./saved_data.js";
import { t } from "../shared/i18n.js";

const $ = (id) => document.getElementById(id);
const MODES = { 2: "1x1", 4: "2x2", 6: "3x3" };
// Settings that change only how the table looks or helps: a friend keeps their own.
const PERSONAL = new Set(["speed", "four_colour", "card_back", "avatar", "hint", "sound", "player_name"]);
export const SHARED_PARAM = "partida";

/**
 * The table in Portuguese, the site's root: opened there, a link follows the friend's own
 * language (their choice, or their browser's on a first visit: lang_redirect.js).
 */
function rootTable() {
  return document.querySelector('link[rel="alternate"][hreflang="pt-BR"]')?.href || location.href;
}

/** The URL for a match the engine described with `share` (`base`: the table's address). */
export function shareURL(shared, base = rootTable()) {
  const url = new URL(base);
  url.search = "";
  url.hash = "";
  url.pathname = url.pathname.replace(/index\.html$/, ""); // the folder: a shorter link
  const q = url.searchParams;
  q.set(SHARED_PARAM, "1");
  q.set("seed", String(shared.seed));
  q.set("preset", shared.preset);
  q.set("mode", MODES[shared.players] ?? String(shared.players));
  const levels = shared.levels || {};
  if (levels["1"]) q.set("level", levels["1"]);
  if (shared.players > 2 && levels["2"]) q.set("partner_level", levels["2"]);
  // The seats people played (pass-and-play); "0" for a match against the bots.
  const options = { ...shared.options, humano_decide: shared.humano_decide, humans: (shared.humans ?? [0]).join("") };
  for (const [key, dflt] of Object.entries(DEFAULT_SETTINGS)) {
    if (PERSONAL.has(key) || !(key in options) || q.has(key)) continue;
    const v = options[key];
    if (typeof dflt === "boolean") q.set(key, v ? "1" : "0");
    else if (v !== null && v !== undefined) q.set(key, String(v));
  }
  const sc = shared.scenario || {};
  if (sc.hands) q.set("hands", sc.hands.map((h) => h.join(".")).join("-"));
  if (sc.score) q.set("score", sc.score.join(","));
  if (sc.dealer !== undefined) q.set("dealer", String(sc.dealer));
  if (sc.vira) q.set("vira", sc.vira);
  return url.href;
}

/** Whether this page was opened from a shared link. */
export function isSharedURL(search = location.search) {
  return new URLSearchParams(search).get(SHARED_PARAM) === "1" && new URLSearchParams(search).has("seed");
}

/** Take the shared match's parameters out of the address (a reload then continues it). */
export function forgetSharedURL() {
  const url = new URL(location.href);
  url.search = "";
  history.replaceState(history.state, "", url);
}

export class ShareDialog {
  constructor({ client }) {
    this.client = client;
    this.dialog = $("share-dialog");
    this.field = $("share-url");
    this.message = $("share-message");
    $("share-copy").addEventListener("click", () => this.copy());
    $("share-close").addEventListener("click", () => this.dialog.close());
    this.field.addEventListener("focus", () => this.field.select());
  }

  /**
   * Ask the engine for the match saved as `save` and offer its link: through the system's
   * share sheet where the browser has one (a phone), else (or when the sheet fails) in the
   * dialog's field, copied to the clipboard where that is allowed.
   */
  async open(save) {
    this.message.textContent = "";
    this.field.value = "";
    let shared;
    if (this.client.ready === false) {
      // The engine is still loading: the dialog says so, and fills in once it answers.
      this.message.textContent = t("engine.loading");
      if (!this.dialog.open) this.dialog.showModal();
    }
    try {
      shared = await engineApi(this.client).share({ save });
      if (this.message.textContent === t("engine.loading")) this.message.textContent = "";
    } catch (err) {
      this.message.textContent = /older version/.test(err.message) ? t("replay.too_old") : t("share.error", { message: engineWords(err) });
      if (!this.dialog.open) this.dialog.showModal();
      return;
    }
    this.field.value = shareURL(shared);
    this.dialog.dataset.seed = String(shared.seed);
    if (await this.shareSheet(this.field.value)) {
      if (this.dialog.open) this.dialog.close(); // it said "loading"
      return;
    }
    if (!this.dialog.open) this.dialog.showModal();
    await this.copy();
  }

  /**
   * The system's share sheet with the link: true when it was shown (shared, or closed by the
   * player: an AbortError, nothing more to do), false where there is none or it failed.
   */
  async shareSheet(url) {
    if (typeof navigator.share !== "function") return false;
    const data = { url, title: t("share.title"), text: t("share.native_text") };
    try {
      if (navigator.canShare && !navigator.canShare(data)) return false;
      await navigator.share(data);
      return true;
    } catch (err) {
      return err?.name === "AbortError";
    }
  }

  /** Copy to the clipboard; where that is refused, the field (selected) is the fallback. */
  async copy() {
    if (!this.field.value) return;
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(this.field.value);
      this.message.textContent = t("share.copied");
      this.dialog.dataset.copied = "true";
    } catch {
      this.message.textContent = t("share.copy_by_hand");
      this.dialog.dataset.copied = "false";
      this.field.focus();
      this.field.select();
    }
  }
}

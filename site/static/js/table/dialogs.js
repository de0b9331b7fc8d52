// The table's dialogs: new game / continue, end of the match, leave confirmation, an
// in-page confirmation (never window.confirm), "open in another tab", and notices.
// Native <dialog> with showModal() traps focus and returns it when closed.
//
// Notices (bad saved data, storage that cannot keep progress) go inside the start dialog
// while it is open (a modal dialog makes the rest of the page inert, so a notice outside
// it could not be clicked), and to the floating notice otherwise.

import { t } from "../shared/i18n.js";
import { showMatchEnd } from "./match_end.js";
import { cleanName, fillSeatsForm, readSeatsForm, syncSeatsForm } from "./seats.js";

const $ = (id) => document.getElementById(id);

export class Dialogs {
  constructor(handlers) {
    // {onStart(settings), onContinue(), onAgain(), onMenu(), onLeave(), onPause(bool),
    //  onOpenStats(), onPlayHere(), onSettingsChange(settings), hasSavedGame(), hasLastGame(),
    //  leaveCounts() (false: leaving the match in play counts for nobody)}
    this.h = handlers;
    this.start = $("start-dialog");
    this.end = $("end-dialog");
    this.leave = $("leave-dialog");
    this.confirmEl = $("confirm-dialog");
    this.elsewhere = $("elsewhere-dialog");
    this.noticeEl = $("notice");
    this.form = $("start-form");
    this.pendingSession = null;
    this.notes = []; // [{id, text, url}]
    this.storageNote = null;

    this.form.addEventListener("submit", async (e) => {
      e.preventDefault();
      // Asked at the moment of the click: another tab may have started a game meanwhile.
      if (this.h.hasSavedGame ? this.h.hasSavedGame() : this.pendingSession) {
        const go = await this.confirm({
          title: t("start.confirm_new"),
          detail: t("start.confirm_new.detail"),
          yes: t("start.confirm_new.yes"),
          no: t("start.confirm_new.no"),
        });
        if (!go) return;
      }
      this.close(this.start);
      this.h.onStart(this.readForm());
    });
    this.form.addEventListener("change", (e) => {
      // A preset brings its own mão de ferro (Torneio's line says "às claras"): picking it sets
      // the select, which the player may still change afterwards.
      if (e.target.name === "preset" && e.target.dataset.ferro) this.form.elements.namedItem("ferro").value = e.target.dataset.ferro;
      this.syncForm();
      this.h.onSettingsChange?.(this.readForm());
    });
    $("continue").addEventListener("click", () => {
      this.close(this.start);
      this.h.onContinue();
    });
    $("again").addEventListener("click", () => {
      this.close(this.end);
      this.h.onAgain();
    });
    $("to-menu").addEventListener("click", () => {
      this.close(this.end);
      this.h.onMenu();
    });
    $("leave").addEventListener("click", () => {
      this.h.onPause(true);
      // A match between people is not a defeat for anyone when left (stats.js): said so.
      const counted = this.h.leaveCounts?.() !== false;
      $("leave-title").textContent = t(counted ? "menu.leave.confirm" : "menu.leave.confirm.people");
      $("leave-yes").textContent = t(counted ? "menu.leave.yes" : "menu.leave.yes.people");
      this.leave.showModal();
    });
    $("leave-yes").addEventListener("click", () => {
      this.close(this.leave);
      this.h.onLeave();
    });
    $("leave-no").addEventListener("click", () => this.close(this.leave));
    this.leave.addEventListener("close", () => this.h.onPause(false));
    $("open-stats").addEventListener("click", () => this.h.onOpenStats?.());
    $("play-here").addEventListener("click", () => {
      this.close(this.elsewhere);
      this.h.onPlayHere?.();
    });
    // Escape on these must not leave an empty or stale table behind.
    this.start.addEventListener("cancel", (e) => e.preventDefault());
    this.elsewhere.addEventListener("cancel", (e) => e.preventDefault());
    $("notice-close").addEventListener("click", () => {
      this.noticeEl.hidden = true;
      this.notes = [];
    });
  }

  close(dialog) {
    if (dialog.open) dialog.close();
  }

  readForm() {
    const f = new FormData(this.form);
    return {
      mode: f.get("mode"),
      level: f.get("level"),
      partner_level: f.get("partner_level"),
      preset: f.get("preset"),
      series: Number(f.get("series")),
      timer: Number(f.get("timer")),
      ferro: f.get("ferro"),
      speed: f.get("speed"),
      four_colour: f.get("four_colour") === "on",
      card_back: f.get("card_back"),
      avatar: f.get("avatar"),
      baralho_limpo: f.get("baralho_limpo") === "on",
      familia_real: f.get("familia_real") === "on",
      humano_decide: f.get("humano_decide") === "on",
      sinais: f.get("sinais") === "on",
      hint: f.get("hint") === "on",
      sound: f.get("sound") === "on", // also the header's toggle (sound.js)
      player_name: cleanName(f.get("player_name") ?? ""),
      ...readSeatsForm(this.form), // pass-and-play: the seats people play here, their names
      auto_next: f.get("auto_next") === "on",
    };
  }

  /** The presets the form offers (saved settings naming another one are not used). */
  presets() {
    return [...this.form.querySelectorAll("input[name=preset]")].map((o) => o.value);
  }

  fillForm(settings) {
    for (const [name, value] of Object.entries(settings)) {
      const field = this.form.elements.namedItem(name);
      if (!field) continue;
      if (field instanceof RadioNodeList) {
        for (const r of field) r.checked = r.value === String(value);
      } else if (field.type === "checkbox") {
        field.checked = value === true;
      } else {
        field.value = String(value);
      }
    }
    fillSeatsForm(this.form, settings);
    this.syncForm();
  }

  syncForm() {
    const solo = this.form.elements.namedItem("mode").value === "1x1";
    $("partner-level-row").hidden = solo;
    $("partner-options").hidden = solo; // humano decide and sinais need a partner
    syncSeatsForm(this.form);
  }

  /**
   * The start screen. `saved` is {session, obs} when a game can be continued (`obs` is
   * what the engine gave for its save, or null while the engine has not loaded it), else null.
   */
  showStart(saved, settings) {
    this.setSaved(saved);
    this.fillForm(settings);
    $("last-game").hidden = !this.h.hasLastGame?.(); // "Rever a partida" / "Compartilhar" the last match
    if (!this.start.open) this.start.showModal();
    this.renderNotes();
    // The form is taller than a phone: it opens at its top (the title, the name, the mode),
    // the focus on the button kept in view at its foot (table.css), without scrolling to it.
    (this.pendingSession ? $("continue") : $("start-button")).focus({ preventScroll: true });
    this.start.scrollTop = 0;
  }

  /** "Continuar partida" and its summary, as the engine's check of the save left them. */
  setSaved(saved) {
    const hadFocus = document.activeElement === $("continue");
    this.pendingSession = saved?.session ?? saved ?? null;
    $("continue").hidden = !this.pendingSession;
    const summary = $("continue-summary");
    const session = saved?.session;
    summary.hidden = !session;
    if (session) summary.textContent = saved.obs ? savedSummary(session, saved.obs) : savedShortSummary(session);
    if (hadFocus && !this.pendingSession && this.start.open) $("start-button").focus({ preventScroll: true });
  }

  hideStart() {
    this.close(this.start);
    this.notes = [];
    this.renderNotes();
  }

  /** A new game closes whatever dialog the last one left open. */
  closeAll() {
    for (const d of [this.start, this.end, this.leave, this.confirmEl, this.elsewhere]) this.close(d);
    for (const id of ["review-dialog", "replay-dialog", "share-dialog"]) if ($(id)) this.close($(id));
    this.notes = [];
    this.renderNotes();
  }

  showEnd({ title, won, obs }) {
    $("end-title").textContent = title;
    const us = obs.team;
    const score = t("text.score", { label: t("hud.score"), us: obs.score[us], them: obs.score[1 - us] });
    $("end-score").textContent = obs.series > 1
      ? t("text.both", { a: t("text.score", { label: t("hud.games"), us: obs.games[us], them: obs.games[1 - us] }), b: score })
      : score;
    showMatchEnd(obs, $("end-chart"), $("end-notes"));
    this.end.dataset.result = won ? "won" : "lost";
    if (!this.end.open) this.end.showModal();
    $("again").focus();
  }

  /** This tab stopped playing: the game went on in another tab. */
  showElsewhere() {
    for (const d of [this.start, this.end, this.leave, this.confirmEl]) this.close(d);
    if (!this.elsewhere.open) this.elsewhere.showModal();
    $("play-here").focus();
  }

  /** On the start screen: another tab is playing the saved game (or not any more). */
  setElsewhere(elsewhere) {
    $("elsewhere-note").hidden = !elsewhere;
  }

  /**
   * Ask in the page. Resolves true (yes) or false (no, Escape). Stacks over another
   * modal dialog (the start screen, the statistics).
   */
  confirm({ title, detail = "", yes = t("confirm.yes"), no = t("confirm.no") }) {
    const d = this.confirmEl;
    $("confirm-text").textContent = title;
    $("confirm-detail").textContent = detail;
    $("confirm-detail").hidden = !detail;
    $("confirm-yes").textContent = yes;
    $("confirm-no").textContent = no;
    return new Promise((resolve) => {
      const done = (answer) => {
        $("confirm-yes").onclick = null;
        $("confirm-no").onclick = null;
        d.onclose = null;
        this.close(d);
        resolve(answer);
      };
      $("confirm-yes").onclick = () => done(true);
      $("confirm-no").onclick = () => done(false);
      d.onclose = () => done(false); // Escape
      if (!d.open) d.showModal();
      $("confirm-no").focus();
    });
  }

  /** A notice in plain words, with a link to download the data it is about. */
  notice(text, downloadURL = null) {
    this.notes.push({ text, url: downloadURL });
    this.renderNotes();
  }

  /** The note that storage cannot keep progress (null when it can again). */
  setStorageTrouble(trouble) {
    const bar = $("storage-note");
    bar.hidden = !trouble;
    bar.textContent = trouble ? `⚠ ${t(`storage.short.${trouble}`)}` : "";
    bar.title = trouble ? t(`storage.${trouble}`) : "";
    this.storageNote = trouble ? t(`storage.${trouble}`) : null;
    document.getElementById("app").dataset.storage = trouble || "ok";
    this.renderNotes();
  }

  renderNotes() {
    const inStart = this.start.open;
    const box = $("start-notes");
    box.replaceChildren();
    const all = [...(this.storageNote ? [{ text: this.storageNote, url: null, kind: "storage" }] : []), ...this.notes];
    if (inStart) {
      for (const n of all) box.append(noteElement(n));
      this.noticeEl.hidden = true;
      return;
    }
    // Outside the start screen the storage note stays in the header; other notices float.
    if (!this.notes.length) {
      this.noticeEl.hidden = true;
      return;
    }
    const last = this.notes[this.notes.length - 1];
    $("notice-text").textContent = this.notes.map((n) => n.text).join(" ");
    const link = $("notice-download");
    const url = [...this.notes].reverse().find((n) => n.url)?.url ?? last.url;
    link.hidden = !url;
    if (url) link.href = url;
    this.noticeEl.hidden = false;
  }
}

function noteElement({ text, url, kind = "data" }) {
  const p = document.createElement("p");
  p.className = `note ${kind}`;
  p.textContent = text;
  if (url) {
    const a = document.createElement("a");
    a.href = url;
    a.download = "truco-dados-guardados.json";
    a.textContent = t("saved.download");
    a.className = "note-download";
    p.append(" ", a);
  }
  return p;
}

/** "Partida salva: 1 × 1, Médio", before the engine has read the save (the score is in it). */
export function savedShortSummary(session) {
  const s = session?.settings || {};
  return t("start.saved_short", { mode: t(`start.mode.${s.mode || "2x2"}`), level: t(`level.${s.level || "medio"}`) });
}

/** "Partida salva: 1 × 1, Médio · placar 4 × 2" for the continue button. */
export function savedSummary(session, obs) {
  const us = obs.team;
  const s = session?.settings || {};
  const params = {
    mode: t(`start.mode.${{ 2: "1x1", 4: "2x2", 6: "3x3" }[obs.players] ?? "2x2"}`),
    level: t(`level.${s.level || "medio"}`),
    us: obs.score[us],
    them: obs.score[1 - us],
    a: obs.games[us],
    b: obs.games[1 - us],
  };
  return t(obs.series > 1 ? "start.saved_series" : "start.saved_game", params);
}

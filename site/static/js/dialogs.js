// The table's dialogs: new game / continue, end of the match, leave confirmation, and
// notices. Native <dialog> with showModal() traps focus and returns it when closed.

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class Dialogs {
  constructor(handlers) {
    this.h = handlers; // {onStart(settings), onContinue(), onAgain(), onMenu(), onLeave(), onPause(bool)}
    this.start = $("start-dialog");
    this.end = $("end-dialog");
    this.leave = $("leave-dialog");
    this.noticeEl = $("notice");
    this.form = $("start-form");
    this.pendingSession = null;

    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (this.pendingSession && !window.confirm(t("start.confirm_new"))) return;
      this.close(this.start);
      this.h.onStart(this.readForm());
    });
    this.form.addEventListener("change", () => this.syncForm());
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
      this.leave.showModal();
    });
    $("leave-yes").addEventListener("click", () => {
      this.close(this.leave);
      this.h.onLeave();
    });
    $("leave-no").addEventListener("click", () => this.close(this.leave));
    this.leave.addEventListener("close", () => this.h.onPause(false));
    // Escape on the start dialog must not leave an empty table behind.
    this.start.addEventListener("cancel", (e) => e.preventDefault());
    $("notice-close").addEventListener("click", () => { this.noticeEl.hidden = true; });
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
    };
  }

  fillForm(settings) {
    for (const [name, value] of Object.entries(settings)) {
      const field = this.form.elements.namedItem(name);
      if (!field) continue;
      if (field instanceof RadioNodeList) {
        for (const r of field) r.checked = r.value === String(value);
      } else {
        field.value = String(value);
      }
    }
    this.syncForm();
  }

  syncForm() {
    const solo = this.form.elements.namedItem("mode").value === "1x1";
    $("partner-level-row").hidden = solo;
  }

  showStart(session, settings) {
    this.pendingSession = session;
    $("continue").hidden = !session;
    this.fillForm(settings);
    if (!this.start.open) this.start.showModal();
    (session ? $("continue") : $("start-button")).focus();
  }

  hideStart() {
    this.close(this.start);
  }

  /** A new game closes whatever dialog the last one left open. */
  closeAll() {
    for (const d of [this.start, this.end, this.leave]) this.close(d);
  }

  showEnd({ title, won, obs }) {
    $("end-title").textContent = title;
    const us = obs.team;
    $("end-score").textContent = obs.series > 1
      ? `${t("hud.games")}: ${obs.games[us]} × ${obs.games[1 - us]} · ${t("hud.score")}: ${obs.score[us]} × ${obs.score[1 - us]}`
      : `${t("hud.score")}: ${obs.score[us]} × ${obs.score[1 - us]}`;
    this.end.dataset.result = won ? "won" : "lost";
    if (!this.end.open) this.end.showModal();
    $("again").focus();
  }

  notice(text, downloadURL = null) {
    $("notice-text").textContent = text;
    const link = $("notice-download");
    link.hidden = !downloadURL;
    if (downloadURL) link.href = downloadURL;
    this.noticeEl.hidden = false;
  }
}

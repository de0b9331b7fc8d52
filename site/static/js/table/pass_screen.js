// The pass screen of pass-and-play (issue #31): "Passe para Zé". It covers the whole table
// (a modal dialog over an opaque backdrop), says whose turn it is, and waits for that player
// to tap (or press Enter / Space on its focused button) before their cards are drawn. The
// pass-and-play seat driver (seat_drivers.js) draws what anyone may see under it, and
// nothing of any hand.

import { t } from "../shared/i18n.js";

const $ = (id) => document.getElementById(id);

export class PassScreen {
  constructor() {
    this.dialog = $("pass-dialog");
    this.title = $("pass-title");
    this.text = $("pass-text");
    this.button = $("pass-ready");
    this.seat = null; // the seat the device is being passed to
    this.ready = null; // resolves handOver()'s promise
    this.button.addEventListener("click", () => {
      const ready = this.ready;
      this.ready = null;
      ready?.();
    });
    // Escape must not uncover the table: only the button does.
    this.dialog.addEventListener("cancel", (e) => e.preventDefault());
  }

  get open() {
    return this.dialog.open;
  }

  /**
   * Ask for the device to be passed to `seat` (named `name`): resolves once that person taps
   * (or presses Enter / Space on the focused button); never, if the screen is hidden first.
   */
  handOver(seat, name) {
    this.seat = seat;
    this.dialog.dataset.seat = String(seat);
    this.title.textContent = t("pass.title", { name });
    this.text.textContent = t("pass.text", { name });
    this.button.textContent = t("pass.ready", { name });
    if (!this.dialog.open) this.dialog.showModal();
    this.button.focus();
    return new Promise((resolve) => {
      this.ready = resolve;
    });
  }

  hide() {
    this.seat = null;
    this.ready = null;
    if (this.dialog.open) this.dialog.close();
  }
}

/** The label under the player's own hand: their name at a shared table, else "Você". */
export function setOwnLabel(name) {
  const label = document.querySelector("#me .me-label > span");
  if (label) label.textContent = name ?? t("seat.you");
}

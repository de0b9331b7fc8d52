// What surrounds an exercise's mini-table: the verdict and its reasons ("Certo!", why, what
// the engine decided), the buttons ("De novo", "Próximo", "Incorporar"), the engine's
// loading progress while the exercise waits for it, and the lines screen readers hear.

import { cardName } from "../shared/cards.js";
import { t } from "../shared/i18n.js";
import { callName, seatName } from "../shared/table_words.js";

/** The line screen readers hear for a log event (the learner is seat 0), or "". */
export function announceText(e, players) {
  const name = seatName(e.seat ?? 0, 0, players);
  switch (e.type) {
    case "play":
      return t("announce.play", { name, card: cardName(e.card) });
    case "cover":
      return t("announce.cover", { name });
    case "raise":
      return t("announce.raise", { name, call: callName(e.name), value: e.value });
    case "accept":
      return t("announce.accept", { name, value: e.value });
    case "run":
      return t("announce.run", { name });
    case "round": {
      const ord = t(`ord.${e.round}`);
      const state = e.result === "tie" ? "tie" : e.result === 0 ? "won" : "lost";
      return t("announce.round", { n: e.round, result: t(`round.${state}`, { ord }) });
    }
    case "timeout":
      return e.seat === 0 ? t("timer.auto") : "";
    default:
      return "";
  }
}

export class ExerciseFrame {
  /**
   * Builds, after `tableEl` in `host`: the loading progress, the feedback, the buttons and
   * the live region. `onNext` / `onEmbed` (optional) add their buttons.
   */
  constructor(host, tableEl, { onAgain, onNext = null, onEmbed = null }) {
    this.feedback = document.createElement("div");
    this.feedback.className = "ex-feedback";
    this.feedback.setAttribute("role", "status");
    this.feedback.setAttribute("aria-live", "polite");
    this.feedback.setAttribute("aria-atomic", "true");
    this.feedback.hidden = true;
    this.live = document.createElement("div");
    this.live.className = "visually-hidden mt-live";
    this.live.setAttribute("aria-live", "polite");
    const buttons = document.createElement("div");
    buttons.className = "ex-buttons";
    this.againButton = button(t("tutorial.again"), "button secondary ex-again", onAgain);
    this.againButton.hidden = true;
    buttons.append(this.againButton);
    if (onNext) {
      this.nextButton = button(t("tutorial.next"), "button ex-next", onNext);
      this.nextButton.hidden = true;
      buttons.append(this.nextButton);
    }
    if (onEmbed) buttons.append(button(t("tutorial.embed"), "button secondary ex-embed", onEmbed));
    // The engine's loading progress, while this exercise waits for it.
    this.loading = document.createElement("div");
    this.loading.className = "ex-loading";
    this.loading.hidden = true;
    this.loadingText = Object.assign(document.createElement("p"), { className: "ex-loading-text" });
    this.loadingBar = document.createElement("div");
    this.loadingBar.className = "progress ex-loading-bar";
    this.loadingBar.setAttribute("role", "progressbar");
    this.loadingBar.setAttribute("aria-label", t("engine.progress"));
    this.loadingBar.setAttribute("aria-valuemin", "0");
    this.loadingBar.setAttribute("aria-valuemax", "100");
    this.loadingBar.append(Object.assign(document.createElement("div"), { className: "progress-fill" }));
    this.loading.append(this.loadingText, this.loadingBar);
    this.tableEl = tableEl;
    host.append(tableEl, this.loading, this.feedback, buttons, this.live);
  }

  /** The loading progress (`fraction` of 1), shown or not; `queued`: a move waits for the engine. */
  showLoading(show, fraction, queued) {
    this.loading.hidden = !show;
    if (!show) return;
    // A move made before the engine is up waits for it: the line goes where the finger was,
    // over the felt just above the hand. Under the table a phone had it out of view, and the
    // first tap seemed to do nothing for seconds (issue 41).
    const here = queued ? this.tableEl.querySelector(".mt-me") : null;
    if (here && this.loading.parentElement !== here) here.prepend(this.loading);
    if (!here && this.loading.previousElementSibling !== this.tableEl) this.tableEl.after(this.loading);
    this.loading.classList.toggle("at-hand", Boolean(here));
    const pct = Math.round(fraction * 100);
    this.loadingText.textContent = queued
      ? `${t("engine.loading")} ${t("exercise.queued")}` : t("engine.loading");
    this.loadingBar.setAttribute("aria-valuenow", String(pct));
    this.loadingBar.firstElementChild.style.transform = `scaleX(${fraction.toFixed(3)})`;
  }

  /** A new attempt: no feedback, no "De novo" or "Próximo". */
  clear() {
    this.feedback.hidden = true;
    this.feedback.replaceChildren();
    this.againButton.hidden = true;
    if (this.nextButton) this.nextButton.hidden = true;
  }

  /** A line for screen readers (the last six are kept). */
  say(text) {
    const p = document.createElement("p");
    p.textContent = text;
    this.live.append(p);
    while (this.live.childElementCount > 6) this.live.firstElementChild.remove();
  }

  showFeedback(verdict, lines, detail = "", facts = []) {
    const box = this.feedback;
    box.replaceChildren();
    box.hidden = false;
    box.dataset.verdict = verdict;
    if (verdict === "right" || verdict === "wrong") {
      const title = document.createElement("p");
      title.className = "ex-verdict";
      title.textContent = verdict === "right" ? t("tutorial.right") : t("tutorial.wrong");
      box.append(title);
    }
    for (const line of lines.filter(Boolean)) {
      const p = document.createElement("p");
      p.className = "ex-why";
      p.textContent = line;
      box.append(p);
    }
    if (facts.length) {
      const p = document.createElement("p");
      p.className = "ex-engine";
      p.textContent = facts.join(" ");
      box.append(p);
    }
    if (detail) box.title = detail;
    if (verdict === "right" || verdict === "wrong") requestAnimationFrame(() => this.reveal(box));
  }

  /** On a phone the verdict fell below the screen's edge ("Certo!" at y 911 of 844): the
   * page scrolls it into sight, its top kept in view (this page only: an embed's host page
   * never scrolls). */
  reveal(box) {
    const r = box.getBoundingClientRect();
    const below = r.bottom - innerHeight + 12;
    if (below <= 0 || r.height === 0) return;
    const by = Math.max(0, Math.min(below, r.top - 8));
    if (by > 0) scrollBy({ top: by, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  }
}

export function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

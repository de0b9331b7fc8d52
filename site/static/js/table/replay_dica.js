// The Dica's view of each decision (issue 45), in the replay of an earlier day's challenge:
// for each of the player's decisions, what the Dica would have said in that position (the
// engine's `decisions`: the hint of that moment, made from the player's view only) beside
// what was played. A decoration of the table's replay dialog (replay_view.js calls
// `opened` once its steps are in, and `show(i)` at each step); loaded with daily.js, so a
// first visit downloads none of it.

import { el } from "../shared/dom.js";
import { engineWords } from "../shared/engine_words.js";
import { t } from "../shared/i18n.js";
import { actionText, reasonText } from "./hint_view.js";

const $ = (id) => document.getElementById(id);

/** The box's styles (achievements.css, achievements.js's): a review opened from the start
 * screen of a page just loaded has not loaded achievements.js, and its box was unstyled. */
function loadCss() {
  const href = new URL("../../css/achievements.css", import.meta.url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  document.head.append(el("link", { rel: "stylesheet", href }));
}

export class DicaReview {
  constructor() {
    this.view = null;
    this.byStep = new Map(); // replay step -> the decisions it shows
    this.decisions = [];
    this.box = null;
  }

  /** The replay is on screen (`view`: the ReplayView, its steps in): the decisions are asked for. */
  async opened(view, save) {
    this.view = view;
    this.build();
    this.summary.textContent = t("dica_review.loading");
    let reply;
    try {
      reply = await view.engine.decisions({ save });
    } catch (err) {
      this.summary.textContent = t("dica_review.error", { message: engineWords(err) });
      return;
    }
    if (view.decor !== this) return; // the dialog was opened for something else meanwhile
    this.decisions = reply.decisions;
    this.byStep = new Map();
    for (const d of this.decisions) this.byStep.set(d.step, [...(this.byStep.get(d.step) ?? []), d]);
    const same = this.decisions.filter((d) => d.same).length;
    this.summary.textContent = t("dica_review.summary", { same, n: this.decisions.length });
    this.show(view.i);
  }

  /** The box under the replay's caption: the summary, this step's decisions, "Próxima diferença". */
  build() {
    loadCss();
    if (!this.box) {
      this.summary = el("p", { class: "dica-review-summary" });
      this.list = el("ul", { class: "dica-review-list" });
      this.next = el("button", { type: "button", class: "button secondary dica-review-next" }, t("dica_review.next_other"));
      this.next.addEventListener("click", () => this.goNextOther());
      this.box = el("section", { class: "dica-review", id: "dica-review", "aria-label": t("dica_review.title") },
        el("div", { class: "dica-review-head" }, this.summary, this.next), this.list);
    }
    if (!this.box.isConnected) {
      $("dica-review")?.remove(); // an earlier review's
      $("replay-caption").after(this.box);
    }
    this.box.hidden = false;
    $("replay-dialog").classList.add("has-dica");
    this.list.replaceChildren();
  }

  /** The step `i` is on screen: its decisions with the Dica's words. */
  show(i) {
    if (!this.box || !this.view) return;
    const steps = this.view.steps;
    const here = this.byStep.get(i) ?? [];
    // Actions and reasons are worded from the position the decision was taken in (the step before).
    const before = (d) => ({ ...(steps[Math.max(0, d.step - 1)]?.obs ?? {}), rules: this.view.rules });
    this.list.replaceChildren(...here.map((d) => el("li", { class: `dica-review-item ${d.same ? "same" : "other"}`, data: { move: d.move } },
      el("p", { class: "dica-review-played" }, el("strong", {}, t("dica_review.played")), " ", actionText(d.played, before(d))),
      el("p", { class: "dica-review-dica" }, el("strong", {}, t("dica_review.dica")), " ", reasonText(d.dica, before(d))),
      el("p", { class: "dica-review-verdict" }, t(d.same ? "dica_review.same" : "dica_review.other")))));
    this.next.hidden = !this.decisions.some((d) => !d.same);
    this.next.disabled = this.nextOther() === null;
  }

  nextOther() {
    return this.decisions.find((d) => !d.same && d.step > this.view.i)?.step ?? null;
  }

  goNextOther() {
    const step = this.nextOther();
    if (step !== null) this.view.go(step);
  }

  /** The replay dialog is opened for another match: the box goes. */
  detach() {
    if (this.box) this.box.hidden = true;
    $("replay-dialog").classList.remove("has-dica");
    this.view = null;
  }
}

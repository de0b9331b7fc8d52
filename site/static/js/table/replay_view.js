// "Rever a partida": the last match step by step, from the human's point of view only —
// the engine's `replay` gives, for each step, the human's observation after it and the
// events it added as the human saw them (covered cards stay covered, the other seats'
// unplayed cards are never in it: RULES.md §4). Drawn on a mini-table in a dialog, with
// previous / next (buttons, ← →, Home / End).

import { engineApi } from "../engine/engine_api.js";
import { eventLines } from "./hand_review.js";
import { engineWords } from "../shared/engine_words.js";
import { t } from "../shared/i18n.js";
import { MiniTable } from "../tutorial/mini_table.js";
import { speech } from "../shared/table_words.js";

const $ = (id) => document.getElementById(id);
let cssLoaded = false;

/** The mini-table's look comes with the tutorial's stylesheet: loaded the first time only. */
function loadTableCss() {
  if (cssLoaded) return;
  cssLoaded = true;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../../css/tutorial.css", import.meta.url).href;
  document.head.append(link);
}

export class ReplayView {
  constructor({ client, onPause }) {
    this.engine = engineApi(client);
    this.onPause = onPause;
    this.dialog = $("replay-dialog");
    this.table = null;
    this.steps = [];
    this.i = 0;
    this.decor = null;
    ReplayView.current = this; // the table's one replay dialog: daily.js opens a past challenge in it
    $("replay-prev").addEventListener("click", () => this.go(this.i - 1));
    $("replay-next").addEventListener("click", () => this.go(this.i + 1));
    $("replay-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => this.onPause(false));
    document.addEventListener("keydown", (e) => {
      if (!this.dialog.open || !this.steps.length || e.altKey || e.ctrlKey || e.metaKey) return;
      const to = {
        ArrowRight: this.i + 1, ArrowLeft: this.i - 1, Home: 0, End: this.steps.length - 1,
        PageDown: this.handStart(1), PageUp: this.handStart(-1),
      }[e.key];
      if (to === undefined || e.target.closest?.("input, select, textarea")) return;
      e.preventDefault();
      this.go(to);
    });
  }

  /** Open the replay of the match saved as `save` (the engine's opaque blob). `decor`, if
   * any, adds to it (replay_dica.js, the Dica's view: `opened(view, save)`, `show(i)`). */
  async open(save, decor = null) {
    this.decor?.detach();
    this.decor = decor;
    loadTableCss();
    this.onPause(true);
    const status = $("replay-status");
    status.textContent = t("replay.loading");
    status.hidden = false;
    $("replay-body").hidden = true;
    if (!this.dialog.open) this.dialog.showModal();
    $("replay-close").focus();
    let reply;
    try {
      reply = await this.engine.replay({ save });
    } catch (err) {
      status.textContent = /older version/.test(err.message) ? t("replay.too_old") : t("replay.error", { message: engineWords(err) });
      return;
    }
    this.rules = reply.rules;
    this.options = reply.options;
    this.steps = reply.steps;
    if (!this.table) this.table = new MiniTable($("replay-table"), { label: t("replay.title") });
    status.hidden = true;
    $("replay-body").hidden = false;
    this.go(0);
    $("replay-next").focus();
    decor?.opened(this, save);
  }

  /** The step that deals the next (`dir` 1) hand, or the one that dealt this (or, from its
   * first step, the previous) hand (`dir` -1). */
  handStart(dir) {
    const deals = this.steps.map((s, i) => (s.events[0]?.type === "deal" ? i : -1)).filter((i) => i >= 0);
    if (dir > 0) return deals.find((i) => i > this.i) ?? this.steps.length - 1;
    return [...deals].reverse().find((i) => i < this.i) ?? 0;
  }

  go(i) {
    if (!this.steps.length) return;
    this.i = Math.max(0, Math.min(this.steps.length - 1, i));
    const step = this.steps[this.i];
    const obs = { ...step.obs, rules: this.rules, options: this.options, log: step.events };
    const lines = eventLines(step.events, { seat: obs.seat, players: obs.players, rules: obs.rules });
    const says = {}; // what the bots said, in their speech bubbles (as at the table)
    for (const e of step.events) {
      const said = e.seat === obs.seat ? null : speech(e);
      if (said) says[e.seat] = said;
    }
    this.table.render({
      obs,
      rounds: obs.rounds,
      hand: obs.hand,
      handSizes: obs.hand_sizes,
      value: obs.hand_value,
      interactive: false,
      over: true,
      says,
      overText: "",
    });
    const caption = $("replay-caption");
    caption.replaceChildren();
    for (const line of lines) {
      const li = document.createElement("li");
      li.className = `review-line ${line.kind}`;
      li.textContent = line.text;
      caption.append(li);
    }
    // The step's last line is its news (often how the hand ended): keep it in view when
    // the caption is taller than its box, as on a phone.
    caption.scrollTop = caption.scrollHeight;
    $("replay-count").textContent = t("replay.count", { i: this.i + 1, n: this.steps.length, hand: obs.hand_number });
    $("replay-prev").disabled = this.i === 0;
    $("replay-next").disabled = this.i === this.steps.length - 1;
    this.dialog.dataset.step = String(this.i);
    this.decor?.show(this.i);
  }
}

// The quiz at the end of a lesson: "quem ganha esta rodada?" with 2–4 cards on the table.
// The page holds no answer: each one is asked of the engine (`judge`) when the learner
// answers, and the explanation is built from the engine's strengths.

import { cardElement, cardName, coveredElement } from "../shared/cards.js";
import { explainRound, judgeRound } from "./explain.js";
import { t } from "../shared/i18n.js";
import { seatName } from "../shared/table_words.js";

// Plain cards: no manilha tag before the answer (the engine names them after).
const PLAIN = { manilhas: [], rules: {} };

export class Quiz {
  /**
   * @param {HTMLElement} host
   * @param {Array} items  [{plays: [{seat, card, covered}], players, preset, vira?}]
   * @param {object} engine  {client, ready, state}
   * @param {object} opts  {done: Set of indexes answered right, onRight(index)}
   */
  constructor(host, items, engine, opts = {}) {
    this.host = host;
    this.items = items;
    this.engine = engine;
    this.opts = opts;
    // The reader's first touch of the quiz starts the engine (it judges the answers).
    const warm = () => {
      if (engine.started === false) engine.start();
    };
    for (const type of ["pointerdown", "focusin", "keydown"]) host.addEventListener(type, warm, { passive: true });
    this.render();
  }

  render() {
    const list = document.createElement("ol");
    list.className = "quiz-list";
    this.items.forEach((item, i) => list.append(this.renderItem(item, i)));
    this.host.replaceChildren(list);
  }

  renderItem(item, index) {
    const li = document.createElement("li");
    li.className = "quiz-item";
    li.dataset.index = String(index);
    if (this.opts.done?.has(index)) li.classList.add("done");
    const qid = `${this.host.id || "quiz"}-${index}`;
    const q = document.createElement("p");
    q.className = "quiz-q";
    q.id = `${qid}-q`;
    q.textContent = t("quiz.question", { n: index + 1 });
    const table = document.createElement("ol");
    table.className = "quiz-plays";
    table.dataset.players = String(item.players);
    table.setAttribute("aria-label", t("quiz.order"));
    item.plays.forEach((p, k) => {
      const cell = document.createElement("li");
      cell.className = "quiz-play";
      cell.dataset.team = p.seat % 2 === 0 ? "us" : "them";
      const who = document.createElement("span");
      who.className = "quiz-seat";
      who.textContent = t("quiz.seat", { n: k + 1, name: seatName(p.seat, 0, item.players) });
      const card = p.covered ? coveredElement(null, PLAIN) : cardElement(p.card, PLAIN);
      card.dataset.card = p.card;
      cell.append(card, who);
      table.append(cell);
    });
    const answers = document.createElement("div");
    answers.className = "quiz-answers";
    answers.setAttribute("role", "group");
    answers.setAttribute("aria-labelledby", q.id);
    const four = item.players > 2;
    const options = [
      ["us", four ? t("quiz.answer.us4") : t("quiz.answer.us2")],
      ["them", four ? t("quiz.answer.them4") : t("quiz.answer.them2", { name: seatName(1, 0, 2) })],
      ["tie", t("quiz.answer.tie")],
    ];
    for (const [value, text] of options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "quiz-answer";
      b.dataset.answer = value;
      b.textContent = text;
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", () => this.answer(index, value, li));
      answers.append(b);
    }
    const feedback = document.createElement("div");
    feedback.className = "quiz-feedback";
    feedback.setAttribute("role", "status");
    feedback.setAttribute("aria-live", "polite");
    if (item.vira) {
      // Manilha nova: the vira names this round's manilhas; the learner works them out.
      const vira = document.createElement("p");
      vira.className = "quiz-vira";
      const card = cardElement(item.vira, PLAIN, { small: true });
      card.removeAttribute("role");
      card.removeAttribute("aria-label");
      card.setAttribute("aria-hidden", "true"); // the sentence beside it names the card
      vira.append(card, document.createTextNode(` ${t("announce.vira", { card: cardName(item.vira) })}`));
      li.append(q, vira, table, answers, feedback);
    } else {
      li.append(q, table, answers, feedback);
    }
    return li;
  }

  async answer(index, value, li) {
    const item = this.items[index];
    const feedback = li.querySelector(".quiz-feedback");
    const buttons = [...li.querySelectorAll(".quiz-answer")];
    for (const b of buttons) {
      b.disabled = true;
      b.setAttribute("aria-pressed", String(b.dataset.answer === value));
    }
    li.dataset.state = "judging";
    this.engine.start?.();
    if (this.engine.state !== "ready") feedback.textContent = t("engine.loading");
    let judged;
    try {
      await this.engine.ready;
      judged = await judgeRound(this.engine.client, item.plays, item.preset || "mineiro", item.vira || null);
    } catch (err) {
      feedback.textContent = t("engine.failed");
      li.dataset.state = "error";
      for (const b of buttons) b.disabled = false;
      console.warn(`quiz: ${err.message}`);
      return;
    }
    const result = judged.result === "tie" ? "tie" : judged.result === 0 ? "us" : "them";
    const right = value === result;
    feedback.replaceChildren();
    const v = document.createElement("p");
    v.className = "ex-verdict";
    v.textContent = right ? t("tutorial.right") : t("quiz.wrong");
    const why = document.createElement("p");
    why.className = "ex-engine";
    why.textContent = explainRound(judged, item.players, this.opts.manilhaNames || []);
    feedback.append(v, why);
    feedback.dataset.verdict = right ? "right" : "wrong";
    li.dataset.state = right ? "right" : "wrong";
    li.dataset.answer = result; // the engine's answer, shown once the learner has answered
    for (const b of buttons) {
      b.disabled = false;
      b.classList.toggle("correct", b.dataset.answer === result);
    }
    if (right) {
      li.classList.add("done");
      this.opts.onRight?.(index);
    }
  }
}

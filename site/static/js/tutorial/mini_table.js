// A small live table for one scenario (tutorial exercises and embeds): the other seats,
// the cards played in front of whoever played them, the round marks, the score and the
// hand's value, and the learner's hand and buttons. It renders what it is given (the
// learner's observation, or the finished hand kept on screen) and computes no rule.

import { backElement, cardElement } from "../shared/cards.js";
import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import {
  fillSeatCards, renderRoundMarks, renderTimer, renderTrick, renderVira, scoreAriaLabel, seatAriaLabel, seatBadges,
  seatData, seatTeamWord, shownCards,
} from "../shared/table_render.js";
import { callName, maoDeXParams, raiseLabel, seatName } from "../shared/table_words.js";

export class MiniTable {
  /** `onAction(action)` is called with "play 4c", "cover 4c", "play #1", "raise", "accept", "run". */
  constructor(root, { onAction, label = "" } = {}) {
    this.root = root;
    this.onAction = onAction;
    this.coverMode = false;
    root.classList.add("mt");
    root.replaceChildren();
    root.setAttribute("role", "group");
    if (label) root.setAttribute("aria-label", label);
    this.hud = el("div", { class: "mt-hud" });
    this.scoreEl = el("p", { class: "mt-score" });
    this.valueEl = el("p", { class: "mt-value" });
    this.marksEl = el("ol", { class: "mt-marks" });
    this.marksEl.setAttribute("aria-label", t("hud.rounds"));
    this.hud.append(this.scoreEl, this.valueEl, this.marksEl);
    this.felt = el("div", { class: "mt-felt" });
    this.seatsEl = el("div", { class: "mt-seats" });
    this.trickEl = el("div", { class: "mt-trick" });
    this.overlay = el("div", { class: "mt-overlay" });
    this.overlay.hidden = true;
    // The vira of a manilha-nova hand (Truco Paulista), face down while it is still hidden.
    this.viraEl = el("div", { class: "mt-vira" });
    this.viraEl.setAttribute("role", "img");
    this.viraEl.hidden = true;
    this.felt.append(this.seatsEl, this.trickEl, this.viraEl);
    this.me = el("div", { class: "mt-me" });
    this.promptEl = el("p", { class: "mt-prompt" });
    this.timerEl = el("div", { class: "mt-timer" });
    this.timerEl.setAttribute("role", "timer");
    this.timerEl.setAttribute("aria-label", t("timer.label"));
    this.timerEl.hidden = true;
    this.timerEl.append(el("span", { class: "mt-timer-text" }));
    this.handEl = el("div", { class: "mt-hand" });
    this.handEl.setAttribute("role", "group");
    this.handEl.setAttribute("aria-label", t("mt.hand"));
    this.actionsEl = el("div", { class: "mt-actions" });
    this.actionsEl.setAttribute("role", "group");
    this.actionsEl.setAttribute("aria-label", t("mt.actions"));
    this.me.append(this.promptEl, this.timerEl, this.handEl, this.actionsEl);
    root.append(this.hud, this.felt, this.me, this.overlay);
    root.classList.add("empty"); // nothing to show before the first deal
    root.addEventListener("click", (ev) => this.onClick(ev));
    root.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  /** A message over the felt (loading, "Começar", an error), or null to hide it. */
  setOverlay(node) {
    this.overlay.replaceChildren();
    if (node) this.overlay.append(node);
    this.overlay.hidden = !node;
  }

  /**
   * Render a view: {obs, rounds, hand, handSizes, value, interactive, offer, busy}.
   * `rounds` / `hand` / `handSizes` / `value` describe the hand on screen (after the hand is
   * over the engine has dealt the next one, which is not shown).
   */
  render(view) {
    const { obs } = view;
    this.view = view;
    this.root.classList.remove("empty");
    const n = obs.players;
    this.root.dataset.players = String(n);
    this.root.dataset.kind = obs.hand_kind;
    this.renderHud(view);
    this.renderSeats(view);
    this.renderTrick(view);
    this.renderVira(view);
    this.renderHand(view);
    this.renderActions(view);
    this.renderPrompt(view);
  }

  /**
   * What the cards are drawn from: the observation (manilhas marked, as at the table), or
   * plain cards when the lesson wants the learner to know the manilhas without a hint.
   */
  cardObs() {
    const { obs, marks } = this.view;
    return marks === false ? { manilhas: [], rules: {} } : obs;
  }

  name(seat) {
    return seatName(seat, 0, this.view.obs.players);
  }

  renderHud({ obs, value, rounds, score: shown }) {
    const us = obs.team;
    const score = shown || obs.score;
    // Built with DOM calls: the numbers are the engine's, set as text, never parsed as HTML.
    this.scoreEl.replaceChildren(
      el("span", { class: "label" }, t("hud.score")), " ",
      el("span", { class: "us" }, `${t("team.us")} `, el("b", { "data-testid": "mt-score-us" }, String(score[us]))),
      " × ",
      el("span", { class: "them" }, el("b", { "data-testid": "mt-score-them" }, String(score[1 - us])), ` ${t("team.them")}`));
    this.scoreEl.setAttribute("aria-label", scoreAriaLabel(score, us));
    const kind = obs.hand_kind !== "normal" ? [" ", el("span", { class: "mt-kind" }, t(`mt.kind.${obs.hand_kind}`, maoDeXParams(obs.rules)))] : [];
    this.valueEl.replaceChildren(el("span", { class: "label" }, t("hud.value")), " ", el("b", { "data-testid": "mt-value" }, String(value)), ...kind);
    this.valueEl.hidden = value === null || value === undefined; // an address's cards, before the engine
    renderRoundMarks(this.marksEl, rounds, us, { title: "label" });
  }

  renderSeats({ obs, handSizes, busy }) {
    const n = obs.players;
    this.seatsEl.replaceChildren();
    for (let s = 1; s < n; s++) {
      const seat = el("section", { class: "mt-seat" });
      const { pos, team: side } = seatData(s, 0, n);
      Object.assign(seat.dataset, { pos, team: side, seat: String(s) });
      seat.setAttribute("aria-label", seatAriaLabel(this.name(s), s, 0));
      const label = el("p", { class: "mt-seat-name" }, this.name(s));
      const team = el("span", { class: "mt-seat-team" }, seatTeamWord(s, 0));
      team.setAttribute("aria-hidden", "true"); // the seat's label says it; here it is for the eyes
      label.append(" ", team);
      for (const b of seatBadges(obs, s, { dealerClass: "" })) label.append(" ", b);
      const cards = el("div", { class: "mt-seat-cards" });
      fillSeatCards(cards, { shown: busy ? null : shownCards(obs, s), count: handSizes[s], cardObs: this.cardObs() });
      seat.classList.toggle("to-move", obs.to_move === s && !this.view.over);
      seat.append(label, cards);
      const said = (this.view.says || {})[s];
      if (said) {
        // Words with a truco call in Portuguese come as nodes (phraseNodes, raiseLabel); the
        // view may be drawn again with the same ones, so each drawing takes a copy.
        const bubble = el("p", { class: "bubble mt-bubble" });
        bubble.append(said instanceof Node ? said.cloneNode(true) : said);
        seat.append(bubble);
      }
      this.seatsEl.append(seat);
    }
  }

  renderTrick({ obs, rounds }) {
    renderTrick(this.trickEl, {
      players: obs.players, human: 0, rounds,
      slot: { className: "mt-played", attrs: (s) => ({ role: "group", "aria-label": t("mt.played", { name: this.name(s) }) }) },
      card: { obs, cardObs: this.cardObs() },
    });
  }

  /** `view.vira` is the vira of the hand on screen (the engine may have dealt the next). */
  renderVira({ obs, vira = obs.vira }) {
    renderVira(this.viraEl, { vira, rules: obs.rules, faceObs: { manilhas: [], rules: {} } });
  }

  /** Whether the learner may act now (and on what). */
  canAct(view = this.view) {
    return Boolean(view && view.interactive && !view.busy && !view.over && view.obs.to_move === 0);
  }

  renderHand(view) {
    const { obs, hand, handSizes } = view;
    const myTurn = this.canAct(view) && !obs.pending && !obs.decision;
    const legal = new Set(obs.legal_actions);
    this.handEl.replaceChildren();
    const blind = obs.blind && !view.over;
    const count = blind ? handSizes[0] : hand.length;
    const covering = this.coverMode && myTurn;
    this.handEl.dataset.cover = String(covering);
    for (let i = 0; i < count; i++) {
      let b;
      let action;
      if (blind) {
        b = backElement({ tag: "button", label: t("card.blind", { n: i + 1 }) });
        action = `play #${i + 1}`;
      } else {
        const card = hand[i];
        b = cardElement(card, this.cardObs(), { tag: "button" });
        action = `${covering ? "cover" : "play"} ${card}`;
        b.dataset.card = card;
        if (covering) {
          const name = b.querySelector(".card-name");
          name.textContent = `${t("mt.cover_card")}: ${name.textContent}`;
        }
      }
      b.dataset.action = action;
      b.setAttribute("aria-keyshortcuts", String(i + 1));
      // A move the learner may try: legal now, or a covered card while covering is offered
      // (the engine decides, and says no in the first round).
      const playable = myTurn && (legal.has(action) || covering);
      b.disabled = !playable;
      this.handEl.append(b);
    }
    this.handEl.classList.toggle("playable", myTurn);
    this.root.classList.toggle("to-play", myTurn);
  }

  renderActions(view) {
    const { obs, offer = [] } = view;
    const box = this.actionsEl;
    box.replaceChildren();
    if (!this.canAct(view)) return;
    const legal = obs.legal_actions;
    const add = (action, text, cls, keys) => {
      const b = el("button", { class: `action ${cls}`.trim() });
      b.append(text); // a text, or nodes with a word marked as Portuguese (raiseLabel)
      b.type = "button";
      b.dataset.action = action;
      if (keys) b.setAttribute("aria-keyshortcuts", keys);
      box.append(b);
      return b;
    };
    const raiseName = obs.next_raise ? obs.next_raise.name : obs.rules.ladder[0]?.name || "truco";
    if (obs.decision) {
      add("accept", t("action.play_dez"), "primary", "a");
      add("run", t("action.run"), "danger", "c");
      if (offer.includes("raise")) add("raise", raiseLabel(raiseName), "raise", "t");
      return;
    }
    if (obs.pending) {
      add("accept", t("action.accept"), "primary", "a");
      add("run", t("action.run"), "danger", "c");
      if (legal.includes("raise") && obs.next_raise) add("raise", raiseLabel(obs.next_raise.name), "raise", "t");
      return;
    }
    // A lesson shows the raise / cover buttons it is about (offered even where the engine will
    // say no); a free deal (embed) shows them when they are legal, like the table.
    const free = Boolean(view.free);
    if (offer.includes("raise") || (free && legal.includes("raise"))) {
      add("raise", raiseLabel(raiseName), "raise", "t");
    }
    if ((offer.includes("cover") && !obs.blind) || (free && legal.some((a) => a.startsWith("cover ")))) {
      const b = add("toggle-cover", t("action.cover"), "toggle", "b");
      b.setAttribute("aria-pressed", String(this.coverMode));
      b.title = t("action.cover.hint");
      b.classList.toggle("on", this.coverMode);
    } else {
      this.coverMode = false;
    }
  }

  renderPrompt(view) {
    const { obs } = view;
    let text = "";
    if (view.prompt && view.interactive && !view.busy) {
      text = view.prompt;
    } else if (view.over || !view.interactive) {
      text = view.overText || "";
    } else if (view.busy) {
      text = obs.to_move !== null && obs.to_move !== 0 ? t("prompt.wait", { name: this.name(obs.to_move) }) : "";
    } else if (obs.decision) {
      const params = maoDeXParams(obs.rules);
      const kind = t("prompt.kind.dez", params);
      text = obs.decision.seat === 0
        ? t("prompt.dez", { ...params, kind })
        : t("prompt.dez_other", { ...params, kind, name: this.name(obs.decision.seat) });
    } else if (obs.pending) {
      const p = obs.pending;
      text = p.answerer === 0
        ? t("prompt.pending", { name: this.name(p.asker), call: callName(p.name), value: p.value })
        : t("prompt.pending_other", { name: this.name(p.asker), call: callName(p.name), value: p.value, answerer: this.name(p.answerer) });
    } else if (obs.to_move === 0) {
      text = obs.blind ? t("prompt.your_turn_blind") : t("mt.your_turn");
      if (this.coverMode) text = t("mt.cover_on");
    } else if (obs.to_move !== null) {
      text = t("prompt.wait", { name: this.name(obs.to_move) });
    }
    this.promptEl.textContent = text;
    this.root.classList.toggle("my-turn", this.canAct(view));
  }

  setTimer(secondsLeft, total) {
    renderTimer(this.timerEl, this.timerEl.querySelector(".mt-timer-text"), secondsLeft, total, { urgentAt: 3 });
  }

  onClick(ev) {
    const b = ev.target.closest("button[data-action]");
    if (!b || b.disabled || !this.root.contains(b) || !this.canAct()) return;
    const action = b.dataset.action;
    if (action === "toggle-cover") {
      this.coverMode = !this.coverMode;
      this.render(this.view);
      this.actionsEl.querySelector('[data-action="toggle-cover"]')?.focus();
      return;
    }
    if (action.startsWith("cover ")) this.coverMode = false;
    this.onAction?.(action);
  }

  onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !this.canAct()) return;
    if (ev.target.matches("input, textarea, select")) return;
    const k = ev.key.toLowerCase();
    let target = null;
    if (/^[1-3]$/.test(k)) target = this.handEl.children[Number(k) - 1];
    else if (k === "t") target = this.actionsEl.querySelector('[data-action="raise"]');
    else if (k === "a") target = this.actionsEl.querySelector('[data-action="accept"]');
    else if (k === "c") target = this.actionsEl.querySelector('[data-action="run"]');
    else if (k === "b") target = this.actionsEl.querySelector('[data-action="toggle-cover"]');
    if (target && !target.disabled) {
      ev.preventDefault();
      target.click();
    }
  }

  /** Put the keyboard focus on the first thing the learner can do. */
  focusFirst() {
    const b = this.root.querySelector(".mt-actions button, .mt-hand button:not(:disabled)");
    b?.focus({ preventScroll: true });
  }
}


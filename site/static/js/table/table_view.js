// The actuator: renders one observation of the human seat into the table. It only reads
// the observation (never computes a rule) and holds nothing the human may not see.

import { placeAvatar, seatAvatarId } from "../shared/avatars.js";
import { el as h } from "../shared/dom.js";
import { backElement, cardElement, cardLabel, coveredElement } from "../shared/cards.js";
import { portuguese, t, tNodes } from "../shared/i18n.js";
import {
  fillSeatCards, renderRoundMarks, renderTimer, renderTrick, renderVira, scoreAriaLabel, seatAriaLabel, seatBadges,
  seatData, seatTeamWord, shownCards,
} from "../shared/table_render.js";
import { callName, maoDeXParams, raiseLabel, seatName } from "../shared/table_words.js";
import { placeBubble } from "./bubbles.js";
import { TableMotion } from "./motion.js";

const $ = (sel, root = document) => root.querySelector(sel);

export class TableView {
  /** `motion`: the table's moves wanted (motion.js: off in test mode unless `?motion=1`). */
  constructor(root, { motion = true } = {}) {
    this.root = root;
    this.motion = new TableMotion(root, { on: motion });
    this.table = $("#table", root);
    this.seatsEl = $("#seats", root);
    this.trickEl = $("#trick", root);
    this.handEl = $("#hand", root);
    this.actionsEl = $("#actions", root);
    this.promptEl = $("#prompt", root);
    this.partnerEl = $("#partner-cards", root);
    this.marksEl = $("#round-marks", root);
    this.scoreEl = $("#score", root);
    this.gamesEl = $("#games", root);
    this.valueEl = $("#hand-value", root);
    this.viraEl = $("#vira", root);
    this.timerEl = $("#timer", root);
    this.liveEl = $("#live", root);
    this.bannerEl = $("#banner", root);
    this.lastReviewEl = $("#last-review", root); // the last hand's review, once its summary is gone
    this.obs = null;
    this.human = 0;
    this.coverMode = false;
    this.bubbleTimers = new Map();
    addEventListener("resize", () => this.placeBubbles());
    // The prompt speaks of tapping a card to a finger, of clicking it to a mouse: the pointer
    // last used, else the device's main one.
    this.touch = matchMedia("(pointer: coarse)").matches;
    addEventListener("pointerdown", (e) => { this.touch = e.pointerType !== "mouse"; }, { capture: true, passive: true });
    // A hand's summary waiting for the player (offerNext): its button, a tap on the table,
    // Enter or Space go on.
    this.onNext = null;
    this.nextEl = $("#banner-next", root);
    this.nextEl?.addEventListener("click", () => this.goOn());
    this.table.addEventListener("click", (e) => {
      if (!e.target.closest("button, a, input, select, textarea, dialog")) this.goOn();
    });
    document.addEventListener("keydown", (e) => {
      if (!this.onNext || (e.key !== "Enter" && e.key !== " ") || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target.closest?.("button, a, input, select, textarea, dialog, summary")) return; // they do their own
      e.preventDefault();
      this.goOn();
    });
  }

  name(seat) {
    return seatName(seat, this.human, this.obs ? this.obs.players : 2);
  }

  teamWord(team) {
    return team === this.human % 2 ? t("team.us") : t("team.them");
  }

  /**
   * Render `obs`. `view.rounds` may replace obs.rounds (the finished hand kept on screen
   * for a moment after the engine has dealt the next one).
   */
  render(obs, { rounds = null, busy = false } = {}) {
    const moved = this.motion.measure(obs, { summary: rounds !== null }); // where things were (motion.js)
    this.obs = obs;
    this.human = obs.seat;
    const n = obs.players;
    this.table.dataset.players = String(n);
    // The partner's opinion gets a row of its own under the answers, kept all match long.
    this.table.dataset.opinion = String([].concat(obs.options?.humano_decide ?? []).includes(obs.seat) && n > 2);
    this.table.dataset.sinais = String(obs.options?.sinais === true && n > 2); // a row for the chips
    this.table.classList.toggle("summary", rounds !== null); // the finished hand, kept on screen
    this.renderSeats(obs, rounds !== null);
    this.renderTrick(obs, rounds || obs.rounds);
    this.renderHud(obs, rounds || obs.rounds);
    this.renderHand(obs, busy || rounds !== null);
    this.renderActions(obs, busy || rounds !== null);
    this.renderPrompt(obs, rounds !== null);
    this.motion.animate(obs, moved, { rounds: rounds || obs.rounds, summary: rounds !== null });
    this.placeBubbles();
  }

  renderSeats(obs, frozen) {
    const n = obs.players;
    const mine = obs.seat;
    if (this.seatsEl.childElementCount !== n - 1 || this.seatsEl.dataset.human !== String(mine)) {
      this.seatsEl.replaceChildren();
      this.seatsEl.dataset.human = String(mine);
      for (let s = 0; s < n; s++) {
        if (s === mine) continue;
        const { seat, pos, team } = seatData(s, mine, n);
        this.seatsEl.append(h("section", { class: "seat", data: { seat, pos, team } },
          h("div", { class: "seat-label" }, h("span", { class: "seat-name" }), h("span", { class: "seat-team", "aria-hidden": "true" }),
            h("span", { class: "seat-badges" })),
          h("div", { class: "seat-cards" }), h("p", { class: "bubble", hidden: true })));
      }
    }
    for (const el of this.seatsEl.children) {
      const s = Number(el.dataset.seat);
      el.setAttribute("aria-label", seatAriaLabel(this.name(s), s, mine));
      $(".seat-name", el).textContent = this.name(s);
      placeAvatar($(".seat-label", el), seatAvatarId(this.name(s))); // issue 41: a face for every seat
      // The team in words too, not only in the name's colour.
      $(".seat-team", el).textContent = seatTeamWord(s, mine);
      $(".seat-badges", el).replaceChildren(...seatBadges(obs, s));
      el.classList.toggle("to-move", !frozen && obs.to_move === s);
      fillSeatCards($(".seat-cards", el), { shown: shownCards(obs, s), count: obs.hand_sizes[s], cardObs: obs });
    }
    $("#my-name", this.root).textContent = this.name(mine); // the player's chosen name: text only
    placeAvatar($(".me-label", this.root), seatAvatarId(this.name(mine), { own: true }));
    $("#me", this.root).setAttribute("aria-label", this.name(mine));
    $("#my-badges", this.root).replaceChildren(...seatBadges(obs, mine));
    $("#me", this.root).classList.toggle("to-move", !frozen && obs.to_move === mine);
  }

  renderTrick(obs, rounds) {
    renderTrick(this.trickEl, {
      players: obs.players, human: obs.seat, rounds,
      slot: { className: "played", attrs: (s) => ({ "aria-label": `${t("hud.rounds")}: ${this.name(s)}`, role: "group" }) },
      card: { obs, cardObs: obs, className: "on-table" },
    });
    renderVira(this.viraEl, { vira: obs.vira, rules: obs.rules, faceObs: { ...obs, manilhas: [] } });
    this.markRoundWinners(rounds);
  }

  /** Each round's winning card says which round it took ("1ª"), in the strip of it the
   * next card leaves in sight; the last round decided is marked for the hand's summary. */
  markRoundWinners(rounds) {
    const decided = rounds.reduce((last, r, i) => (r.winner !== null && r.winner !== undefined ? i + 1 : last), 0);
    for (const card of this.trickEl.querySelectorAll(".played .card.winner")) {
      const round = Number(card.dataset.round);
      const tag = document.createElement("span");
      tag.className = "round-tag";
      tag.setAttribute("aria-hidden", "true"); // the round marks say it to screen readers
      tag.textContent = t(`round.tag.${round}`);
      card.append(tag);
      card.classList.toggle("last-round", round === decided);
    }
  }

  renderHud(obs, rounds) {
    const us = obs.team;
    const tentos = obs.rules.tentos;
    // Each number in a box two digits wide (table.css): the score keeps its width, and its
    // place in the header, from 0 x 0 to 10 x 12. Built with DOM calls, the numbers set as
    // text: on a friends' guest's page they come from another device (never parsed as HTML).
    const num = (v) => h("span", { class: "n" }, String(v));
    const scoreText = (v) => (tentos ? [num(v), " ", h("small", {}, "(", tNodes("hud.tentos", { n: num(v / 2) }), ")")] : [num(v)]);
    const label = (text) => h("span", { class: "label" }, text);
    this.scoreEl.replaceChildren(
      h("span", { class: "team us" }, label(t("team.us")), " ", h("b", { "data-testid": "score-us" }, ...scoreText(obs.score[us]))),
      h("span", { class: "sep" }, "×"),
      h("span", { class: "team them" }, h("b", { "data-testid": "score-them" }, ...scoreText(obs.score[1 - us])), " ", label(t("team.them"))));
    this.scoreEl.setAttribute("aria-label", scoreAriaLabel(obs.score, us));
    if (obs.series > 1) {
      this.gamesEl.hidden = false;
      const games = t("text.score", { label: t("hud.games"), us: obs.games[us], them: obs.games[1 - us] });
      this.gamesEl.textContent = t("text.both", { a: games, b: t(`series.${obs.series}`) });
    } else {
      this.gamesEl.hidden = true;
    }
    // While a mão de dez is being decided the hand is worth what playing it makes it (RULES.md
    // §6: 4, 3 in Paulista), as the prompt and its button say; running gives the others less.
    const value = obs.decision ? obs.rules.mao_de_x_value : obs.hand_value;
    this.valueEl.replaceChildren(h("span", { class: "label" }, t("hud.value")), " ", h("b", { "data-testid": "hand-value" }, String(value)));
    this.valueEl.dataset.kind = obs.hand_kind;
    if (obs.hand_kind !== "normal") {
      // "· mão de ferro": a Portuguese term in every language, in an element that says so.
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.append(" · ", portuguese(t(`hud.kind.${obs.hand_kind}`, maoDeXParams(obs.rules))));
      this.valueEl.append(kind);
    }
    renderRoundMarks(this.marksEl, rounds, us);
  }

  renderHand(obs, busy) {
    const myTurn = !busy && obs.to_move === obs.seat && !obs.pending && !obs.decision;
    const legal = new Set(obs.legal_actions);
    this.handEl.replaceChildren();
    this.handEl.dataset.blind = String(obs.blind);
    const count = obs.blind ? obs.hand_sizes[obs.seat] : obs.hand.length;
    const covering = myTurn && this.coverMode && !obs.blind;
    this.handEl.classList.toggle("covering", covering);
    for (let i = 0; i < count; i++) {
      let el;
      let action;
      if (obs.blind) {
        el = backElement({ tag: "button", label: t("card.blind", { n: i + 1 }) });
        action = `play #${i + 1}`;
      } else {
        const card = obs.hand[i];
        el = cardElement(card, obs, { tag: "button" });
        action = `play ${card}`;
        el.dataset.card = card;
      }
      el.dataset.index = String(i);
      el.classList.add("in-hand");
      el.setAttribute("aria-keyshortcuts", String(i + 1));
      const playable = myTurn && legal.has(action);
      if (covering && playable && legal.has(`cover ${obs.hand[i]}`)) {
        // "Coberta" is on: the card says it goes face down, to the eye and in its name.
        el.classList.add("to-cover");
        el.dataset.coverLabel = t("action.cover");
        const name = el.querySelector(".card-name");
        if (name) name.textContent = `${t("mt.cover_card")}: ${name.textContent}`;
      }
      el.disabled = !playable;
      el.setAttribute("aria-disabled", String(!playable));
      this.handEl.append(el);
    }
    this.handEl.classList.toggle("playable", myTurn);
  }

  renderActions(obs, busy) {
    const el = this.actionsEl;
    el.replaceChildren();
    if (busy || obs.to_move !== obs.seat) {
      this.coverMode = false;
      return;
    }
    const legal = obs.legal_actions;
    const add = (action, text, cls = "", extra = {}) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `action ${cls}`.trim();
      b.dataset.action = action;
      b.append(text); // a text, or nodes with a word marked as Portuguese (raiseLabel)
      for (const [k, v] of Object.entries(extra)) b.setAttribute(k, v);
      el.append(b);
      return b;
    };
    if (obs.decision) {
      add("accept", t("action.play_dez"), "primary", { "aria-keyshortcuts": "a" });
      add("run", t("action.run_dez"), "danger", { "aria-keyshortcuts": "c" });
      return;
    }
    if (obs.pending) {
      add("accept", t("action.accept"), "primary", { "aria-keyshortcuts": "a" });
      add("run", t("action.run"), "danger", { "aria-keyshortcuts": "c" });
      if (legal.includes("raise") && obs.next_raise) {
        add("raise", raiseLabel(obs.next_raise.name), "raise", { "aria-keyshortcuts": "t" });
      }
      return;
    }
    if (legal.includes("raise") && obs.next_raise) {
      add("raise", raiseLabel(obs.next_raise.name), "raise", { "aria-keyshortcuts": "t" });
    }
    if (legal.some((a) => a.startsWith("cover "))) {
      const b = add("toggle-cover", t("action.cover"), "toggle", {
        "aria-pressed": String(this.coverMode), title: t("action.cover.hint"), "aria-keyshortcuts": "b",
      });
      b.classList.toggle("on", this.coverMode);
    } else {
      this.coverMode = false;
    }
    if (legal.includes("exchange")) add("exchange", t("action.exchange"), "");
  }

  renderPrompt(obs, frozen) {
    let text = "";
    const me = obs.seat;
    const partnerCards = (obs.visible_hands || []).length > 0;
    if (obs.winner !== null) {
      text = "";
    } else if (frozen) {
      text = "";
    } else if (obs.decision) {
      const params = maoDeXParams(obs.rules);
      const kind = portuguese(t("prompt.kind.dez", params)); // "Mão de dez", in Portuguese everywhere
      text = obs.decision.seat === me
        ? tNodes("prompt.dez", { ...params, kind })
        : tNodes("prompt.dez_other", { ...params, kind, name: this.name(obs.decision.seat) });
    } else if (obs.pending) {
      const p = obs.pending;
      const call = portuguese(callName(p.name)); // "Truco", said in Portuguese in every language
      text = p.answerer === me
        ? tNodes("prompt.pending", { name: this.name(p.asker), call, value: p.value })
        : tNodes("prompt.pending_other", { name: this.name(p.asker), call, value: p.value, answerer: this.name(p.answerer) });
    } else if (obs.to_move === me) {
      text = obs.blind ? t("prompt.your_turn_blind") : this.coverMode ? t("prompt.cover_on") : t(this.touch ? "prompt.your_turn.touch" : "prompt.your_turn");
      if (obs.hand_kind === "ferro") {
        const ferro = tNodes("prompt.ferro", { kind: portuguese(t("prompt.kind.ferro")) });
        ferro.append(` ${text}`);
        text = ferro;
      }
    } else if (obs.to_move !== null) {
      text = t("prompt.wait", { name: this.name(obs.to_move) });
    }
    // One inline box: on a phone the prompt is a flex box (centred in its two lines' room),
    // where each node of a phrase would be a flex item of its own: "Tonho cantóTruco" upright,
    // three columns sideways (the call is a node of its own, in Portuguese, in es and en).
    const line = document.createElement("span");
    line.append(text);
    this.promptEl.replaceChildren(line);
    this.partnerEl.hidden = !partnerCards;
  }

  /** Move the human's card from the hand to its place on the table before the engine answers. */
  previewPlay(index, covered) {
    const el = this.handEl.querySelector(`.card.in-hand[data-index="${index}"]`);
    const slot = this.trickEl.querySelector(`.played[data-seat="${this.human}"]`);
    if (!el || !slot) return;
    const from = el.getBoundingClientRect(); // where it leaves the hand (or a drag let it go)
    const k = slot.querySelectorAll(".card").length;
    for (const c of slot.querySelectorAll(".card")) c.classList.add("earlier");
    const shown = covered ? coveredElement(el.dataset.card || null, this.obs) : el.cloneNode(true);
    shown.classList.remove("in-hand", "dragging", "dropped", "returning");
    shown.classList.add("on-table", "preview");
    shown.removeAttribute("style");
    if (shown.tagName === "BUTTON") shown.disabled = true;
    slot.append(shown);
    this.motion.preview(shown, { x: from.left + from.width / 2, y: from.top + from.height / 2, w: from.width }, this.human, k);
    el.hidden = true;
    for (const b of this.handEl.querySelectorAll(".card.in-hand")) b.disabled = true;
    this.actionsEl.replaceChildren();
  }

  /**
   * A speech bubble over a seat ("Truco!"); the human's shows over the hand. `text` is text
   * or nodes (phraseNodes(): a truco call in it is marked as Portuguese).
   */
  say(seat, text, ms = 1800, { call = false } = {}) {
    const el = seat === this.human ? $("#my-bubble", this.root) : $(`.seat[data-seat="${seat}"] .bubble`, this.seatsEl);
    if (!el) return;
    el.replaceChildren(text);
    el.hidden = false;
    placeBubble(el, this.root);
    if (call) this.motion.call(el); // a raise lands with a bigger pop
    clearTimeout(this.bubbleTimers.get(seat));
    if (ms > 0) this.bubbleTimers.set(seat, setTimeout(() => { el.hidden = true; }, ms));
  }

  clearBubbles() {
    for (const el of this.root.querySelectorAll(".bubble")) el.hidden = true;
  }

  /** Place the bubbles shown again: the seats or the screen have changed under them. */
  placeBubbles() {
    for (const el of this.root.querySelectorAll(".bubble:not([hidden])")) placeBubble(el, this.root);
  }

  /** Read aloud by screen readers (aria-live="polite"). */
  announce(text) {
    const p = document.createElement("p");
    p.textContent = text;
    this.liveEl.append(p);
    while (this.liveEl.childElementCount > 6) this.liveEl.firstElementChild.remove();
  }

  /** `title`: a text or nodes (a Portuguese term marked, tNodes). `extra`: one more line,
   * set apart (the sinais the other pair caught, issue #12). */
  banner(title, detail = "", tone = "", extra = "", kind = "notice") {
    this.bannerEl.hidden = false;
    this.bannerEl.dataset.kind = kind;
    if (kind === "summary") this.lastReviewEl.hidden = true; // the new summary has its own
    this.offerReview(null);
    this.bannerEl.dataset.tone = tone;
    $(".banner-title", this.bannerEl).replaceChildren(title); // a text, or nodes (tNodes)
    $(".banner-detail", this.bannerEl).textContent = detail;
    let more = $(".banner-extra", this.bannerEl);
    if (!more && extra) {
      more = document.createElement("p");
      more.className = "banner-extra";
      this.bannerEl.append(more);
    }
    if (more) {
      more.textContent = extra;
      more.hidden = !extra;
    }
    this.placeBubbles(); // clear of the banner
  }

  /** The hand summary's "Ver a mão" button, for the hand whose `hand` event is `n` (null: none). */
  offerReview(n) {
    const b = $("#banner-review", this.root);
    if (!b) return;
    b.hidden = n === null;
    if (n !== null) this.bannerEl.append(b); // last, under any line the summary added
    b.dataset.hand = n === null ? "" : String(n);
  }

  /**
   * The hand summary's "Próxima mão" (`label`), focused, while the summary waits for the
   * player; `onNext` is what going on does (null: not waiting, the button goes).
   */
  offerNext(label, onNext = null) {
    this.onNext = onNext;
    const b = this.nextEl;
    if (!b) return;
    const hadFocus = document.activeElement === b;
    b.hidden = !onNext;
    if (!onNext) {
      if (hadFocus) b.blur();
      return;
    }
    b.textContent = label;
    this.bannerEl.append(b); // last, after "Ver a mão"
    this.placeBubbles();
    b.focus({ preventScroll: true });
  }

  goOn() {
    if (!this.onNext || this.root.dataset.paused === "true") return;
    this.onNext();
  }

  /** Hide the banner; a hand's summary leaves its "Ver a mão" at the table's corner. */
  hideBanner() {
    if (this.bannerEl.dataset.kind === "summary") this.hideSummary();
    else this.bannerEl.hidden = true;
  }

  /** Hide the banner if it holds a hand's summary (not an error or a warning): it sits
   * over the middle of the table, where the next hand's cards go. The way to that hand's
   * review moves to a corner until the next summary. */
  hideSummary() {
    if (this.bannerEl.dataset.kind !== "summary" || this.bannerEl.hidden) return;
    this.bannerEl.hidden = true;
    const hand = $("#banner-review", this.root)?.dataset.hand;
    if (hand) {
      this.lastReviewEl.dataset.hand = hand;
      this.lastReviewEl.hidden = false;
    }
  }

  /** No banner and no corner button: a new match. */
  clearBanner() {
    this.bannerEl.hidden = true;
    this.lastReviewEl.hidden = true;
  }

  setTimer(secondsLeft, total) {
    renderTimer(this.timerEl, $(".timer-text", this.timerEl), secondsLeft, total, { urgentAt: 5, range: true });
  }

  label(card) {
    return cardLabel(card, this.obs);
  }
}


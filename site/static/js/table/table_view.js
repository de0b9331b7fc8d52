// The actuator: renders one observation of the human seat into the table. It only reads
// the observation (never computes a rule) and holds nothing the human may not see.

import { backElement, cardElement, cardLabel, cardName, coveredElement } from "../shared/cards.js";
import { list, phraseNodes, portuguese, t, tNodes } from "../shared/i18n.js";

const $ = (sel, root = document) => root.querySelector(sel);

/** Where a seat sits on screen, relative to the human at the bottom (counter-clockwise play). */
export function seatPosition(seat, human, players) {
  const rel = (seat - human + players) % players;
  if (rel === 0) return "bottom";
  if (players === 2) return "top";
  if (players === 4) return ["bottom", "right", "top", "left"][rel];
  return ["bottom", "right", "top-right", "top", "top-left", "left"][rel];
}

export function seatName(seat, human, players) {
  if (seat === human) return t("seat.you");
  const names = list("seat.names");
  const rel = (seat - human + players) % players;
  return names[rel] || `${seat}`;
}

/** "dez" / "onze": the name of the preset's mão de X (RULES.md §6, §9: 10 or 11 points). */
export function maoDeX(rules) {
  const key = `marcador.x.${rules.mao_de_x}`;
  const word = t(key);
  return word === key ? String(rules.mao_de_x) : word;
}

/** The texts' parameters of a mão de X: its name, the points it takes, its value, run gives. */
export function maoDeXParams(rules) {
  return { x: maoDeX(rules), n: rules.mao_de_x, value: rules.mao_de_x_value, run: rules.mao_de_x_run_gives };
}

/** "truco" -> "Truco" (the ladder's names come from the preset). */
export function callName(name) {
  const key = `raise.${name}`;
  const text = t(key);
  return text === key ? name.charAt(0).toUpperCase() + name.slice(1) : text;
}

/** The label of a raise button ("Truco!", "¡Seis!"), the call's name marked as Portuguese. */
export function raiseLabel(name) {
  return tNodes("action.raise", { name: portuguese(callName(name)) });
}

/**
 * What a seat says in its speech bubble for a raise, an accept or a run in the log (one of
 * the catalog's phrasings, picked by the event's number), as nodes (phraseNodes); else null.
 */
export function speech(e) {
  if (e.type === "raise") return phraseNodes(`say.${e.name}`, e.n);
  if (e.type === "accept") return phraseNodes(e.mao_de_dez ? "say.dez_play" : "say.accept", e.n);
  if (e.type === "run") return phraseNodes(e.mao_de_dez ? "say.dez_run" : "say.run", e.n);
  return null;
}

// Speech bubbles ----------------------------------------------------------------------
// A bubble is placed when it shows (and again when the table is drawn or the window
// resized), not by CSS alone: one rule per seat position could not know how long the phrase
// is in each language, nor where the seat lands on a narrow or zoomed screen. At 200 % zoom a
// bubble centred on a narrow seat at the edge ran off the screen.
const BUBBLE_GAP = 8; // between a bubble and its seat: room for the tail
const BUBBLE_MARGIN = 4; // kept from the screen's edges
const TAIL_REACH = 20; // a bubble overlaps its seat's width by this much, so its tail points at it
const TAIL_INSET = 14; // the tail's centre, from the bubble's ends (clear of its round corners)
// What a bubble must leave in sight: what the player reads at a glance (the score, the round
// marks, the hand's value, the vira) and the cards on the felt (cardPlaces). A bubble under
// the seat at the left covered "Vale 2" on a laptop, and the player's own "Truco!", rising
// from the hand, the card just played. On a phone the round marks sit in the top corner of
// the centre, right under the seats across, and a bubble opening under such a seat ("mostra
// a ponta da língua", "Truco, ladrão!") hid them: there a seat across speaks over its own
// cards first, and never reaches into the centre; held sideways too.
const KEEP_CLEAR = "#score, #round-marks, #hand-value, #vira:not([hidden])";
const ACROSS_OVER_ITS_CARDS = "(max-width: 759px), (max-height: 500px) and (orientation: landscape)";
// Better left in sight too, where the bubble fits elsewhere: the header, the other bubbles,
// the last hand's button, the prompt and, for the other seats' bubbles, the rest of the
// player's own corner.
const RATHER_CLEAR = ".topbar, .bubble:not([hidden]), #last-review:not([hidden]), #prompt";
const RATHER_CLEAR_OF_OTHERS = "#timer:not([hidden]), #hand .card, #actions button, #partner-opinion:not([hidden])";

/** The boxes on screen of the elements `selector` finds in `root` but `skip` (none for a hidden one). */
function boxes(root, selector, skip = null) {
  return [...root.querySelectorAll(selector)].filter((e) => e !== skip)
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height);
}

/**
 * Where the cards on the felt are, and where each seat's next card lands: a card played
 * while a bubble is up must not slip under it. A seat's place is as tall as a card
 * (table.css, .played); empty, it has no width, and the card will lie on the side its
 * alignment says; a next card widens a stack by about half a card.
 */
function cardPlaces(root) {
  return [...root.querySelectorAll("#trick .played")].map((slot) => {
    const r = slot.getBoundingClientRect();
    const cards = [...slot.querySelectorAll(".card")].map((c) => c.getBoundingClientRect());
    const box = {
      left: Math.min(r.left, ...cards.map((c) => c.left)), right: Math.max(r.right, ...cards.map((c) => c.right)),
      top: Math.min(r.top, ...cards.map((c) => c.top)), bottom: Math.max(r.bottom, ...cards.map((c) => c.bottom)),
    };
    const grow = (r.height / 1.4) * (cards.length ? 0.5 : 1);
    const align = getComputedStyle(slot).justifySelf;
    if (align === "end") box.left -= grow;
    else if (align === "start") box.right += grow;
    else [box.left, box.right] = [box.left - grow / 2, box.right + grow / 2];
    return box;
  }).filter((r) => r.bottom > r.top);
}

/** The area of `r` that `o` covers (DOMRect-like boxes). */
function overlapArea(r, o) {
  const w = Math.min(r.right, o.right) - Math.max(r.left, o.left);
  const h = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Whether the sort key `a` (a list of numbers) comes before `b`. */
function before(a, b) {
  const i = a.findIndex((v, k) => v !== b[k]);
  return i >= 0 && a[i] < b[i];
}

/**
 * The bubble `el` (now `wide`) narrower, for where the room is short (a phone, 200 % zoom):
 * as narrow as it gets on two lines (or on as many as it has already, wrapped to a third of
 * a 3 x 3 table), then a word or so a line. None for one word.
 */
function narrowerShapes(el, wide) {
  const style = getComputedStyle(el);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const shape = (width) => {
    el.style.maxWidth = `${width}px`;
    return { w: el.offsetWidth, h: el.offsetHeight, maxWidth: el.style.maxWidth };
  };
  el.style.whiteSpace = "nowrap";
  const line = el.offsetHeight - padY;
  el.style.whiteSpace = "";
  const fits = (lines) => el.offsetHeight - padY < (lines + 0.5) * line;
  const lines = Math.max(2, Math.round((wide.h - padY) / line));
  el.style.width = "min-content"; // its longest word
  const narrowest = el.offsetWidth;
  el.style.width = "";
  const shapes = [];
  // The least width that keeps it to `lines` lines (a wrapped box is as wide as it may be).
  let [lo, hi] = [narrowest, wide.w];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    shape(mid);
    if (fits(lines)) hi = mid;
    else lo = mid;
  }
  const few = shape(hi);
  if (hi < wide.w - 1 && fits(lines)) shapes.push(few);
  if (narrowest < (shapes.at(-1) ?? wide).w - 1) shapes.push(shape(narrowest));
  el.style.maxWidth = "";
  return shapes;
}

/**
 * Put the shown bubble `el` by its seat: under the seat, else over the seat's own cards,
 * else above it (a seat across on a phone: over its cards first; the player's own: above
 * its corner, else over its top), at the first place where it covers nothing it must
 * leave in sight and is wholly on the screen, as close as it can to where the seat would
 * centre or align it, and always overlapping the seat's width so its tail points at who
 * speaks. Where no place is clear on one line (a 2 x 2 table at 200 % zoom), it tries the
 * same places wrapped narrower.
 */
function placeBubble(el, root) {
  const seatEl = el.parentElement;
  Object.assign(el.style, { left: "0px", top: "0px", right: "auto", bottom: "auto", margin: "0", transform: "none", maxWidth: "" });
  const wide = { w: el.offsetWidth, h: el.offsetHeight, maxWidth: "" };
  const seat = seatEl.getBoundingClientRect();
  const doc = document.documentElement;
  const view = { left: BUBBLE_MARGIN, top: BUBBLE_MARGIN, right: doc.clientWidth - BUBBLE_MARGIN, bottom: doc.clientHeight - BUBBLE_MARGIN };
  const centre = (seat.left + seat.right) / 2;
  const pos = seatEl.dataset.pos || "";
  const acrossOverItsCards = pos.startsWith("top") && matchMedia(ACROSS_OVER_ITS_CARDS).matches;
  const keep = [...boxes(root, KEEP_CLEAR), ...cardPlaces(root)];
  const rather = boxes(root, seatEl.id === "me" ? RATHER_CLEAR : `${RATHER_CLEAR}, ${RATHER_CLEAR_OF_OTHERS}`, el);
  const covered = (box, list) => list.reduce((sum, o) => sum + overlapArea(box, o), 0);
  let best = null;
  const tryShape = ({ w, h, maxWidth }, shape) => {
    const [under, over, above] = [seat.bottom + BUBBLE_GAP, seat.bottom - h, seat.top - BUBBLE_GAP - h];
    const tops = seatEl.id === "me" ? [above, seat.top + BUBBLE_GAP] : acrossOverItsCards ? [over, under, above] : [under, over, above];
    let lo = Math.max(view.left, seat.left + TAIL_REACH - w);
    let hi = Math.min(view.right - w, seat.right - TAIL_REACH);
    if (lo > hi) [lo, hi] = [view.left, Math.max(view.left, view.right - w)]; // the screen first
    const clamp = (x) => Math.min(hi, Math.max(lo, x));
    // Where the seat puts it: centred, or from the seat's outer edge at the sides.
    const home = clamp(pos === "left" ? seat.left : pos === "right" ? seat.right - w : centre - w / 2);
    tops.forEach((y, i) => {
      // There, at either end of its reach, or just beside what it should not cover.
      const xs = [home, lo, hi];
      for (const o of [...keep, ...rather]) if (o.top < y + h && y < o.bottom) xs.push(o.right + 2, o.left - 2 - w);
      for (const x of xs.map(clamp)) {
        const box = { left: x, top: y, right: x + w, bottom: y + h };
        const off = w * h - overlapArea(box, view); // the part off the screen
        const cost = 1e4 * off + 100 * covered(box, keep) + covered(box, rather);
        // The least covered; then the widest shape (fewest lines); where the seat puts
        // it (over its own cards, say) before sliding along (off the felt, away from who
        // speaks); the first place; the nearest.
        const dx = Math.abs(x - home);
        const key = [cost, shape, dx > 0.5 ? 1 : 0, i, dx];
        if (!best || before(key, best.key)) best = { key, x, y, w, h, maxWidth };
      }
    });
  };
  tryShape(wide, 0);
  // A narrower shape only comes first where the one-line bubble covers something (the key's
  // cost), so its measuring (a layout per width tried) waits until then.
  if (best.key[0] > 0) narrowerShapes(el, wide).forEach((shape, i) => tryShape(shape, i + 1));
  const { x, y, w, h, maxWidth } = best;
  el.style.maxWidth = maxWidth;
  el.style.left = `${x - seat.left - seatEl.clientLeft}px`;
  el.style.top = `${y - seat.top - seatEl.clientTop}px`;
  // The tail points at the seat: up from a bubble under its middle, down from one above.
  el.dataset.tail = y + h / 2 < (seat.top + seat.bottom) / 2 ? "down" : "up";
  el.style.setProperty("--tail-x", `${Math.min(w - TAIL_INSET, Math.max(TAIL_INSET, centre - x))}px`);
}

export class TableView {
  constructor(root) {
    this.root = root;
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
    this.obs = obs;
    this.human = obs.seat;
    const n = obs.players;
    this.table.dataset.players = String(n);
    this.renderSeats(obs, rounds !== null);
    this.renderTrick(obs, rounds || obs.rounds);
    this.renderHud(obs, rounds || obs.rounds);
    this.renderHand(obs, busy || rounds !== null);
    this.renderActions(obs, busy || rounds !== null);
    this.renderPrompt(obs, rounds !== null);
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
        const el = document.createElement("section");
        el.className = "seat";
        el.dataset.seat = String(s);
        el.dataset.pos = seatPosition(s, mine, n);
        el.dataset.team = s % 2 === mine % 2 ? "us" : "them";
        el.innerHTML =
          `<div class="seat-label"><span class="seat-name"></span><span class="seat-team" aria-hidden="true"></span>` +
          `<span class="seat-badges"></span></div>` +
          `<div class="seat-cards"></div><p class="bubble" hidden></p>`;
        this.seatsEl.append(el);
      }
    }
    for (const el of this.seatsEl.children) {
      const s = Number(el.dataset.seat);
      const partner = s % 2 === mine % 2;
      el.setAttribute("aria-label", `${this.name(s)} (${partner ? t("seat.partner") : t("team.them")})`);
      $(".seat-name", el).textContent = this.name(s);
      // The team in words too, not only in the name's colour.
      $(".seat-team", el).textContent = partner ? t("seat.partner") : t("team.them");
      this.renderBadges($(".seat-badges", el), obs, s);
      el.classList.toggle("to-move", !frozen && obs.to_move === s);
      const cards = $(".seat-cards", el);
      cards.replaceChildren();
      const visible = (obs.visible_hands || []).find((v) => v.seat === s);
      if (visible) {
        for (const c of visible.cards) cards.append(cardElement(c, obs, { small: true }));
      } else {
        for (let i = 0; i < obs.hand_sizes[s]; i++) cards.append(backElement({ small: true }));
      }
    }
    this.renderBadges($("#my-badges", this.root), obs, mine);
    $("#me", this.root).classList.toggle("to-move", !frozen && obs.to_move === mine);
  }

  renderBadges(el, obs, seat) {
    el.replaceChildren();
    if (obs.dealer === seat) el.append(badge(t("badge.dealer.short"), t("badge.dealer"), "dealer"));
    if (obs.mao === seat) el.append(badge(t("badge.mao"), t("badge.mao"), "mao"));
  }

  renderTrick(obs, rounds) {
    const n = obs.players;
    this.trickEl.replaceChildren();
    this.trickEl.dataset.players = String(n);
    const bySeat = new Map();
    rounds.forEach((r, i) => {
      for (const p of r.plays) {
        if (!bySeat.has(p.seat)) bySeat.set(p.seat, []);
        bySeat.get(p.seat).push({ ...p, round: i, current: i === rounds.length - 1 });
      }
    });
    for (let s = 0; s < n; s++) {
      const slot = document.createElement("div");
      slot.className = "played";
      slot.dataset.pos = seatPosition(s, obs.seat, n);
      slot.dataset.seat = String(s);
      slot.setAttribute("aria-label", `${t("hud.rounds")}: ${this.name(s)}`);
      slot.setAttribute("role", "group");
      for (const p of bySeat.get(s) || []) {
        const el = p.covered ? coveredElement(p.card, obs) : cardElement(p.card, obs);
        el.classList.add("on-table");
        el.dataset.round = String(p.round + 1);
        if (!p.current) el.classList.add("earlier");
        const r = rounds[p.round];
        if (r.winner === s) el.classList.add("winner");
        slot.append(el);
      }
      this.trickEl.append(slot);
    }
    if (obs.vira) {
      this.viraEl.hidden = false;
      const label = `${t("announce.vira", { card: cardName(obs.vira) })}`;
      this.viraEl.replaceChildren(cardElement(obs.vira, { ...obs, manilhas: [] }, { small: true }));
      this.viraEl.setAttribute("aria-label", label);
    } else if (obs.rules.vira) {
      this.viraEl.hidden = false;
      this.viraEl.replaceChildren(backElement({ small: true }));
      this.viraEl.setAttribute("aria-label", t("card.back"));
    } else {
      this.viraEl.hidden = true;
    }
  }

  renderHud(obs, rounds) {
    const us = obs.team;
    const tentos = obs.rules.tentos;
    // Each number in a box two digits wide (table.css): the score keeps its width, and its
    // place in the header, from 0 x 0 to 10 x 12.
    const num = (v) => `<span class="n">${v}</span>`;
    const scoreText = (v) => (tentos ? `${num(v)} <small>(${t("hud.tentos", { n: num(v / 2) })})</small>` : num(v));
    this.scoreEl.innerHTML =
      `<span class="team us"><span class="label">${t("team.us")}</span> <b data-testid="score-us">${scoreText(obs.score[us])}</b></span>` +
      `<span class="sep">×</span>` +
      `<span class="team them"><b data-testid="score-them">${scoreText(obs.score[1 - us])}</b> <span class="label">${t("team.them")}</span></span>`;
    this.scoreEl.setAttribute("aria-label",
      `${t("hud.score")}: ${t("team.us")} ${obs.score[us]}, ${t("team.them")} ${obs.score[1 - us]}`);
    if (obs.series > 1) {
      this.gamesEl.hidden = false;
      this.gamesEl.textContent = `${t("hud.games")}: ${obs.games[us]} × ${obs.games[1 - us]} · ${t(`series.${obs.series}`)}`;
    } else {
      this.gamesEl.hidden = true;
    }
    this.valueEl.innerHTML = `<span class="label">${t("hud.value")}</span> <b data-testid="hand-value">${obs.hand_value}</b>`;
    this.valueEl.dataset.kind = obs.hand_kind;
    if (obs.hand_kind !== "normal") {
      // "· mão de ferro": a Portuguese term in every language, in an element that says so.
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.append(" · ", portuguese(t(`hud.kind.${obs.hand_kind}`, maoDeXParams(obs.rules))));
      this.valueEl.append(kind);
    }
    this.marksEl.replaceChildren();
    for (let i = 0; i < 3; i++) {
      const r = rounds[i];
      const mark = document.createElement("li");
      let state = "open";
      let text = "";
      if (r && r.result !== null && r.result !== undefined) {
        state = r.result === "tie" ? "tie" : r.result === us ? "won" : "lost";
        text = t(`mark.${state}`);
      }
      mark.className = `mark ${state}`;
      mark.textContent = state === "won" ? "✓" : state === "lost" ? "✗" : state === "tie" ? "=" : "·";
      const ord = t(`ord.${i + 1}`);
      mark.setAttribute("aria-label", state === "open" ? t("round.open", { ord }) : t(`round.${state}`, { ord }));
      mark.title = text || ord;
      this.marksEl.append(mark);
    }
  }

  renderHand(obs, busy) {
    const myTurn = !busy && obs.to_move === obs.seat && !obs.pending && !obs.decision;
    const legal = new Set(obs.legal_actions);
    this.handEl.replaceChildren();
    this.handEl.dataset.blind = String(obs.blind);
    const count = obs.blind ? obs.hand_sizes[obs.seat] : obs.hand.length;
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
      add("run", t("action.run"), "danger", { "aria-keyshortcuts": "c" });
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
      text = obs.blind ? t("prompt.your_turn_blind") : t("prompt.your_turn");
      if (obs.hand_kind === "ferro") {
        const ferro = tNodes("prompt.ferro", { kind: portuguese(t("prompt.kind.ferro")) });
        ferro.append(` ${text}`);
        text = ferro;
      }
    } else if (obs.to_move !== null) {
      text = t("prompt.wait", { name: this.name(obs.to_move) });
    }
    this.promptEl.replaceChildren(text);
    this.partnerEl.hidden = !partnerCards;
  }

  /** Move the human's card from the hand to its place on the table before the engine answers. */
  previewPlay(index, covered) {
    const el = this.handEl.querySelector(`.card.in-hand[data-index="${index}"]`);
    const slot = this.trickEl.querySelector(`.played[data-seat="${this.human}"]`);
    if (!el || !slot) return;
    for (const c of slot.querySelectorAll(".card")) c.classList.add("earlier");
    const shown = covered ? coveredElement(el.dataset.card || null, this.obs) : el.cloneNode(true);
    shown.classList.remove("in-hand", "dragging", "dropped", "returning");
    shown.classList.add("on-table", "preview");
    shown.removeAttribute("style");
    if (shown.tagName === "BUTTON") shown.disabled = true;
    slot.append(shown);
    el.hidden = true;
    for (const b of this.handEl.querySelectorAll(".card.in-hand")) b.disabled = true;
    this.actionsEl.replaceChildren();
  }

  /**
   * A speech bubble over a seat ("Truco!"); the human's shows over the hand. `text` is text
   * or nodes (phraseNodes(): a truco call in it is marked as Portuguese).
   */
  say(seat, text, ms = 1800) {
    const el = seat === this.human ? $("#my-bubble", this.root) : $(`.seat[data-seat="${seat}"] .bubble`, this.seatsEl);
    if (!el) return;
    el.replaceChildren(text);
    el.hidden = false;
    placeBubble(el, this.root);
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
  }

  /** The hand summary's "Ver a mão" button, for the hand whose `hand` event is `n` (null: none). */
  offerReview(n) {
    const b = $("#banner-review", this.root);
    if (!b) return;
    b.hidden = n === null;
    if (n !== null) this.bannerEl.append(b); // last, under any line the summary added
    b.dataset.hand = n === null ? "" : String(n);
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
    if (secondsLeft === null) {
      this.timerEl.hidden = true;
      return;
    }
    this.timerEl.hidden = false;
    const s = Math.max(0, Math.ceil(secondsLeft));
    $(".timer-text", this.timerEl).textContent = t("timer.left", { s });
    this.timerEl.style.setProperty("--left", String(Math.max(0, secondsLeft / total)));
    this.timerEl.classList.toggle("urgent", secondsLeft <= 5);
    this.timerEl.setAttribute("aria-valuenow", String(s));
    this.timerEl.setAttribute("aria-valuemax", String(total));
  }

  label(card) {
    return cardLabel(card, this.obs);
  }
}

function badge(text, title, cls) {
  const b = document.createElement("span");
  b.className = `badge ${cls}`;
  b.textContent = text;
  b.title = title;
  b.setAttribute("aria-label", title);
  return b;
}

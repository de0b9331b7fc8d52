// Motion at the table (issue 41): the deal comes from the dealer's seat, a played card slides
// from its seat to its place on the felt, a decided round's winning card pulses, the hand's
// cards are swept to the side that took it when the next hand is dealt, a raise's call pops
// harder than other bubbles, and a bot "thinking" shows a cue by its name.
//
// Each is a transform (translate and scale) from where the thing was to where the layout puts
// it (FLIP: the layout is drawn first, then the element is moved back to where it came from
// and let go), through the Web Animations API: nothing is laid out again, nothing waits for an
// animation, and a card stays a live button while it flies (a tap on it plays it at once).
// TableView calls measure() before it draws and animate() after; the deal and play keep their
// clock across renders (a bot's move drawn mid-deal does not restart the deal).
//
// Off under prefers-reduced-motion (asked at every move, so a change of the setting is
// followed at once), and in test mode (`?fast=1`) unless the address adds `?motion=1`, which
// turns it on for the motion tests (tests/browser/test_table_motion.py) and keeps test mode's
// other ways (no pauses). The thinking cue shows whenever motion is on, still under reduced
// motion (its dots just do not bounce).

const REDUCE = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: true };
const EASE_OUT = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const PLAY_MS = 260; // a card from its seat to the felt
const DEAL_MS = 200; // one card from the dealer to a seat
const DEAL_TOTAL_MS = 400; // the whole deal, however many cards (3 x 3 deals 18)
const SWEEP_MS = 320;
const PULSE_MS = 320;
const DECK_W = 28; // px: the width a dealt card starts at

/** The centre and width of an element's box on the screen, or null (not drawn). */
function spot(el) {
  const r = el?.getBoundingClientRect();
  return r && r.width ? { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, rect: r } : null;
}

/** The card `el` shows ("4c"), from its classes (a covered card: null). */
function cardId(el) {
  const rank = [...el.classList].find((c) => c.startsWith("rank-"));
  const suit = [...el.classList].find((c) => c.startsWith("suit-"));
  return rank && suit ? `${rank.slice(5)}${suit.slice(5)}` : null;
}

/** The number of the match's last deal event (a new hand is a new number), or null. */
function dealOf(obs) {
  for (let i = (obs.log?.length ?? 0) - 1; i >= 0; i--) if (obs.log[i].type === "deal") return obs.log[i].n;
  return null;
}

export class TableMotion {
  /** `on`: motion wanted (not test mode, or `?motion=1`); reduced motion is asked each time. */
  constructor(root, { on = true } = {}) {
    this.root = root;
    this.on = on;
    root.dataset.motion = on ? "on" : "off";
    this.flights = new Map(); // key -> {from, delay, dur, t0}: a deal's or a play's clock
    this.deal = undefined; // the deal on screen (dealOf)
    this.decided = new Set(); // rounds of this deal whose winner was marked
    this.rounds = []; // the rounds drawn last (the sweep goes to the last one's winner)
    this.cue = null;
    this.drawn = 0; // drawings animated so far: a flight started in another is carried over
  }

  /** A new match: its first drawing is a deal (its log numbers events from 0 again). */
  newMatch() {
    this.deal = undefined;
    this.flights.clear();
  }

  /** Whether animations run now. */
  get active() {
    return this.on && !REDUCE.matches && typeof Element.prototype.animate === "function";
  }

  now() {
    return document.timeline?.currentTime ?? 0; // the animations' own clock (page.clock leaves it alone)
  }

  /** Where things are before TableView draws `obs`: the cards on the felt, the hand's cards. */
  measure(obs, { summary = false } = {}) {
    if (!this.active) return null;
    const felt = new Map();
    for (const slot of this.root.querySelectorAll("#trick .played")) {
      slot.querySelectorAll(".card").forEach((c, k) => felt.set(`${slot.dataset.seat}#${k}`, c));
    }
    const hand = new Map();
    for (const c of this.root.querySelectorAll("#hand .card.in-hand")) {
      const s = spot(c);
      if (s && !c.hidden) hand.set(c.dataset.card ?? `#${c.dataset.index}`, s);
    }
    // A new hand's first drawing sweeps the last one's cards: their look, kept now.
    const sweeping = !summary && this.deal !== undefined && dealOf(obs) !== this.deal;
    const ghosts = sweeping ? [...felt.values()].map((c) => ({ node: c, box: c.getBoundingClientRect(), font: getComputedStyle(c).fontSize })) : [];
    return { felt, hand, ghosts };
  }

  /** After TableView drew `obs` (with `rounds` on the felt; `summary`: the hand just ended). */
  animate(obs, before, { rounds, summary = false }) {
    const deal = dealOf(obs);
    const newHand = !summary && deal !== this.deal;
    if (!this.active) {
      if (newHand) [this.deal, this.decided] = [deal, new Set()];
      this.rounds = rounds;
      this.flights.clear();
      return;
    }
    const t0 = this.now();
    this.drawn++;
    if (newHand) {
      if (this.deal !== undefined && before?.ghosts.length) this.sweep(before.ghosts, obs);
      this.deal = deal;
      this.decided = new Set();
      this.flights.clear();
      if (rounds.every((r) => !r.plays.length)) this.dealCards(obs, t0, before?.ghosts.length ? 120 : 0);
    }
    this.playCards(obs, before, t0);
    this.markRounds(rounds);
    this.rounds = rounds;
    // A flight caught by this drawing goes on from where it was, on the new element.
    for (const [key, f] of this.flights) {
      if (t0 - f.t0 > f.delay + f.dur) this.flights.delete(key);
      else if (f.drawn !== this.drawn) {
        this.fly(this.find(key), f, t0);
        f.drawn = this.drawn;
      }
    }
  }

  /** The element a flight's key names in the table as drawn now. */
  find(key) {
    const [kind, rest] = key.split(":");
    if (kind === "felt") {
      const [seat, k] = rest.split("#");
      return this.root.querySelectorAll(`#trick .played[data-seat="${seat}"] .card`)[Number(k)] ?? null;
    }
    if (kind === "hand") return this.root.querySelectorAll("#hand .card.in-hand")[Number(rest)] ?? null;
    const [seat, i] = rest.split("#");
    return this.root.querySelectorAll(`.seat[data-seat="${seat}"] .seat-cards .card`)[Number(i)] ?? null;
  }

  /** Move `el` from the flight's origin to where it is, `t` on the flight's clock. */
  fly(el, f, t = this.now()) {
    const to = spot(el);
    if (!to) return;
    const scale = Math.min(1.6, Math.max(0.3, f.from.w / to.w));
    const anim = el.animate(
      // Over the cards it passes (the player's card leaves over the rest of the hand).
      [{ translate: `${f.from.x - to.x}px ${f.from.y - to.y}px`, scale: String(scale), zIndex: 20 }, { translate: "0px 0px", scale: "1", zIndex: 20 }],
      { duration: f.dur, delay: f.delay, easing: EASE_OUT, fill: "backwards" },
    );
    anim.currentTime = Math.max(0, t - f.t0);
  }

  start(key, el, f) {
    const flight = { ...f, drawn: this.drawn };
    this.flights.set(key, flight);
    this.fly(el, flight, f.t0);
  }

  /** Where a seat's cards come from: the player's corner, or the seat's name and face. */
  seatSpot(seat, obs) {
    if (seat === obs.seat) return spot(this.root.querySelector(".me-label")) ?? spot(this.root.querySelector("#hand"));
    return spot(this.root.querySelector(`.seat[data-seat="${seat}"] .seat-label`));
  }

  /** The deal: every seat's new cards from the dealer's seat, one seat after another. */
  dealCards(obs, t0, wait) {
    const from = this.seatSpot(obs.dealer, obs) ?? spot(this.root.querySelector("#trick"));
    if (!from) return;
    const n = obs.players;
    const order = Array.from({ length: n }, (_, i) => (obs.dealer + 1 + i) % n);
    const cards = [];
    for (let round = 0; round < 3; round++) {
      for (const seat of order) {
        const key = seat === obs.seat ? `hand:${round}` : `back:${seat}#${round}`;
        const el = this.find(key);
        if (el) cards.push([key, el]);
      }
    }
    const step = cards.length > 1 ? Math.min(45, (DEAL_TOTAL_MS - DEAL_MS - wait) / (cards.length - 1)) : 0;
    // The deck in the dealer's hands: a small card's width, whatever the label's.
    cards.forEach(([key, el], i) => this.start(key, el, { from: { ...from, w: DECK_W }, delay: wait + i * step, dur: DEAL_MS, t0 }));
  }

  /** The cards new on the felt since the last drawing, each from its seat. */
  playCards(obs, before, t0) {
    for (const slot of this.root.querySelectorAll("#trick .played")) {
      const seat = Number(slot.dataset.seat);
      slot.querySelectorAll(".card").forEach((c, k) => {
        const key = `felt:${seat}#${k}`;
        if (!before || before.felt.has(`${seat}#${k}`) || this.flights.has(key)) return;
        const from = seat === obs.seat ? before.hand.get(cardId(c)) ?? spot(this.root.querySelector("#hand")) : this.seatSpot(seat, obs);
        if (from) this.start(key, c, { from: seat === obs.seat ? from : { ...from, w: from.w * 0.6 }, delay: 0, dur: PLAY_MS, t0 });
      });
    }
  }

  /** The player's card put on the felt before the engine answers (TableView.previewPlay). */
  preview(el, from, seat, k) {
    if (!this.active || !from) return;
    this.start(`felt:${seat}#${k}`, el, { from, delay: 0, dur: PLAY_MS, t0: this.now() });
  }

  /** A round just decided: its winning card pulses once, after it has landed. */
  markRounds(rounds) {
    rounds.forEach((r, i) => {
      if (r.winner === null || r.winner === undefined || this.decided.has(i)) return;
      this.decided.add(i);
      const card = this.root.querySelector(`#trick .played .card.winner[data-round="${i + 1}"]`);
      card?.animate([{ scale: "1" }, { scale: "1.12" }, { scale: "1" }], { duration: PULSE_MS, delay: PLAY_MS, easing: "ease-in-out" });
    });
  }

  /**
   * The ended hand's cards (`ghosts`, as they looked) leave the felt toward the side that took
   * the hand: copies over the table, gone when they arrive (the new hand is already drawn).
   */
  sweep(ghosts, obs) {
    const hand = [...(obs.log ?? [])].reverse().find((e) => e.type === "hand");
    const team = hand?.winner ?? null;
    const last = [...this.rounds].reverse().find((r) => r.winner !== null && r.winner !== undefined);
    let seat = null;
    if (team !== null) seat = last && last.winner % 2 === team ? last.winner : Array.from({ length: obs.players }, (_, s) => s).find((s) => s % 2 === team && s !== obs.seat) ?? obs.seat;
    if (team === obs.team) seat = obs.seat;
    const to = seat === null ? null : this.seatSpot(seat, obs);
    const layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
    // Out of the layout whatever the style sheet says (motion.css): nothing below moves.
    Object.assign(layer.style, { position: "fixed", inset: "0", pointerEvents: "none", overflow: "hidden" });
    document.body.append(layer);
    const runs = ghosts.map(({ node, box, font }, i) => {
      const g = node.cloneNode(true);
      g.querySelector(".round-tag")?.remove();
      g.removeAttribute("role");
      g.removeAttribute("aria-label");
      g.classList.add("motion-ghost");
      Object.assign(g.style, { position: "fixed", margin: "0", left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`, fontSize: font });
      layer.append(g);
      const dx = to ? to.x - (box.left + box.width / 2) : 0;
      const dy = to ? to.y - (box.top + box.height / 2) : 0;
      return g.animate(
        // Off at once (a slow start read as a pause), seen all the way, fading as it arrives.
        [{ translate: "0px 0px", scale: "1", opacity: 1 }, { opacity: 1, offset: 0.6 }, { translate: `${dx}px ${dy}px`, scale: "0.45", opacity: 0 }],
        { duration: SWEEP_MS, delay: i * 15, easing: "ease-in-out", fill: "forwards" },
      ).finished;
    });
    Promise.allSettled(runs).then(() => layer.remove());
  }

  /** A raise's call ("Truco!"): its bubble lands with a pop bigger than a word's. */
  call(bubble) {
    if (!this.active) return;
    bubble.animate(
      [{ scale: "0.3", rotate: "-6deg", opacity: 0 }, { scale: "1.18", rotate: "3deg", opacity: 1, offset: 0.6 }, { scale: "1", rotate: "0deg" }],
      { duration: 380, easing: "ease-out" },
    );
  }

  /** The bot at `seat` is thinking (null: nobody): three dots by its face. */
  thinking(seat) {
    if (!this.on) return;
    const label = seat === null ? null : this.root.querySelector(`.seat[data-seat="${seat}"] .seat-label`);
    if (this.cue && this.cue.parentElement !== label) this.cue.hidden = true;
    if (!label) return;
    let cue = label.querySelector(".think-cue");
    if (!cue) {
      cue = document.createElement("span");
      cue.className = "think-cue";
      cue.setAttribute("aria-hidden", "true"); // the prompt says who is to move, in words
      cue.append(...[0, 1, 2].map(() => document.createElement("i")));
      label.append(cue);
    }
    cue.hidden = false;
    // At the top right of the seat's face, as a phone shows someone typing (the label is a
    // row on some layouts, a column on others: measured, not guessed).
    const face = label.querySelector(".avatar");
    if (face) {
      const [f, l] = [face.getBoundingClientRect(), label.getBoundingClientRect()];
      Object.assign(cue.style, { left: `${f.right - l.left - 6}px`, top: `${f.top - l.top - cue.offsetHeight + 4}px` });
    }
    this.cue = cue;
  }
}

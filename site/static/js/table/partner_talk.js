// Talking with the partner at a 2 x 2 table (issue #12), kept apart from the table's view:
//   - "humano decide": when the human answers for the pair, the partner bot's opinion
//     ("Parceiro: eu aceitaria"), asked from the engine (`partner_opinion`);
//   - sinais: the "Sinal" control that sends `signal <name>` before the human's first card,
//     the signals the human's seat saw (a face gesture by the seat that made it), and the
//     text of the signals the other pair caught, told once the hand is over.
// It reads only the human's observation and the engine's answers: a signal is shown only
// if the engine put it in this seat's observation.

import { engineApi } from "../engine/engine_api.js";
import { listText, t } from "../shared/i18n.js";
import { callName } from "../shared/table_words.js";
import { SIGNALS } from "../shared/names.js";
import { betReasonText } from "./hand_review.js";

// The classic sinais, strongest first (generated from py/truco/names.py).
export { SIGNALS };

const SVG_NS = "http://www.w3.org/2000/svg";

// A face drawn for each gesture (decorative: the text says the same). Coordinates in a
// 24 x 24 box; eyes, brows and mouth are paths over a round face.
const FACES = {
  zap: ["M7.5 10.5h3", "M15.5 10a.9.9 0 1 0 .01 0", "M8 15.5q4 3 8 0"], // a wink
  copas: ["M6.5 6.5q2-1.8 4 0", "M13.5 6.5q2-1.8 4 0", "M8.5 10.5a.9.9 0 1 0 .01 0", "M15.5 10.5a.9.9 0 1 0 .01 0", "M9 16h6"],
  espadilha: ["M8.5 10a.9.9 0 1 0 .01 0", "M15.5 10a.9.9 0 1 0 .01 0", "M8 15h8", "M10.5 15v1.8q1.5 2 3 0V15"],
  "pica-fumo": ["M8.5 10a.9.9 0 1 0 .01 0", "M15.5 10a.9.9 0 1 0 .01 0", "M9.5 15.5a1.3 1.3 0 1 0 .01 0", "M17.5 13.5q2.5 1.5 0 4"],
  tres: ["M8.5 10a.9.9 0 1 0 .01 0", "M15.5 10a.9.9 0 1 0 .01 0", "M8 15.5q3 1 8-1", "M13.5 14.8v1.4"],
  nada: ["M7.5 10h2.5", "M14 10h2.5", "M9 16h6", "M3 19l2-2", "M21 19l-2-2"],
};

/** A small face making the gesture of `signal` (an inline SVG, hidden from screen readers). */
export function faceIcon(signal) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "gesture-face");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const face = document.createElementNS(SVG_NS, "circle");
  for (const [k, v] of Object.entries({ cx: 12, cy: 12, r: 9.5, fill: "#f2c14e", stroke: "#1b1405", "stroke-width": 1.3 })) face.setAttribute(k, v);
  svg.append(face);
  for (const d of FACES[signal] || FACES.nada) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", "none");
    p.setAttribute("stroke", "#1b1405");
    p.setAttribute("stroke-width", "1.6");
    p.setAttribute("stroke-linecap", "round");
    svg.append(p);
  }
  return svg;
}

/** {name, gesture, meaning} of a signal, in the page's language. */
export function signalWords(signal) {
  return {
    name: t(`signal.${signal}.name`),
    gesture: t(`signal.${signal}.gesture`),
    meaning: t(`signal.${signal}.meaning`),
  };
}

/** What the partner's opinion says: "eu aceitaria", "eu pediria seis", "eu jogaria"… */
export function opinionText(action, obs) {
  if (obs.decision) return t(action === "accept" ? "opinion.dez_accept" : "opinion.dez_run");
  if (action === "raise" && obs.next_raise) return t("opinion.raise", { call: callName(obs.next_raise.name).toLowerCase() });
  return t(action === "accept" ? "opinion.accept" : "opinion.run");
}

/**
 * The hand summary's line about the sinais the other pair caught (a `signals_caught`
 * event, which the engine logs for everyone once the hand is over).
 */
export function caughtSignalsText(event, obs, view) {
  const names = (seats) => listText(seats.map((s) => view.name(s)));
  return event.caught.map((x) => {
    const w = signalWords(x.signal);
    const by = t(x.caught_by.length > 1 ? "signal.caught.by_many" : "signal.caught.by", { who: names(x.caught_by), gesture: w.gesture, signal: w.name });
    if (x.seat === obs.seat) return `${t("signal.caught.you")} ${by}`;
    if (x.seat % 2 === obs.seat % 2) return `${t("signal.caught.partner", { name: view.name(x.seat) })} ${by}`;
    return t("signal.caught.them", { name: view.name(x.seat), gesture: w.gesture, signal: w.name });
  }).join("\n"); // one line each (the banner keeps the line breaks)
}

export class PartnerTalk {
  /** `onSignal(name)` sends a signal; the engine `client` (its partner_opinion) gives the partner's view. */
  constructor({ root, client, view, onSignal }) {
    this.root = root;
    this.engine = engineApi(client);
    this.view = view;
    this.onSignal = onSignal;
    this.obs = null;
    this.opinions = new WeakMap(); // observation -> the partner's action for its decision
    this.reasons = new WeakMap(); // observation -> why, in words ("" without a reason)
    this.gestureSaid = new Map(); // seat -> the words its bubble got for its last gesture
    this.me = root.querySelector("#me");
    this.actions = root.querySelector("#actions");

    this.opinionEl = document.createElement("p");
    this.opinionEl.id = "partner-opinion";
    this.opinionEl.className = "partner-opinion";
    this.opinionEl.hidden = true;
    // Why the partner would do it (issue 44): a phone has no hover, so a `title` reached no
    // sighted player there. A "Por quê?" button laid over the whole opinion (partner.css)
    // shows the reason in a small card under the bar; a second tap, a tap on the card,
    // Escape or the answer puts it away. The opinion itself stays text: as a button its
    // name ("eu jogaria", "eu correria") held the answers' own words ("Jogar", "Correr").
    this.whyButton = document.createElement("button");
    this.whyButton.type = "button";
    this.whyButton.id = "partner-why-button";
    this.whyButton.className = "partner-why-button";
    this.whyButton.setAttribute("aria-controls", "partner-why");
    this.whyButton.setAttribute("aria-expanded", "false");
    const whyWord = document.createElement("span");
    whyWord.className = "visually-hidden";
    whyWord.textContent = t("opinion.why");
    this.whyButton.append(whyWord);
    this.whyEl = document.createElement("p");
    this.whyEl.id = "partner-why";
    this.whyEl.className = "partner-why";
    this.whyEl.hidden = true;
    this.whyButton.addEventListener("click", () => this.setWhy(this.whyEl.hidden));
    this.whyEl.addEventListener("click", () => this.setWhy(false)); // a tap on it puts it away too
    this.whyButton.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || this.whyEl.hidden) return;
      e.preventDefault();
      e.stopPropagation();
      this.setWhy(false);
    });

    this.box = document.createElement("div");
    this.box.id = "signal-box";
    this.box.className = "signal-box";
    this.box.hidden = true;
    this.toggle = document.createElement("button");
    this.toggle.type = "button";
    this.toggle.id = "signal-toggle";
    this.toggle.className = "signal-toggle";
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.setAttribute("aria-controls", "signal-menu");
    this.toggle.setAttribute("aria-keyshortcuts", "s");
    this.toggle.title = t("signal.button.hint");
    this.toggle.append(faceIcon("zap"), document.createTextNode(` ${t("signal.button")}`));
    this.menu = document.createElement("div");
    this.menu.id = "signal-menu";
    this.menu.className = "signal-menu";
    this.menu.setAttribute("role", "group");
    this.menu.setAttribute("aria-label", t("signal.menu"));
    this.menu.hidden = true;
    for (const s of SIGNALS) {
      const w = signalWords(s);
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.signal = s;
      b.setAttribute("aria-label", `${w.name}: ${w.gesture}`);
      const name = document.createElement("b");
      name.textContent = w.name;
      const gesture = document.createElement("small");
      gesture.textContent = w.gesture;
      b.append(faceIcon(s), name, gesture);
      this.menu.append(b);
    }
    this.box.append(this.toggle, this.menu);
    // No new rows under the hand (a phone has no height to spare): the control sits in the
    // "Você" line, the opinion among the answer buttons (put back after each render there).
    root.querySelector(".me-label").append(this.box);

    this.toggle.addEventListener("click", () => this.setOpen(this.menu.hidden));
    this.menu.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-signal]");
      if (!b) return;
      this.setOpen(false, false);
      this.onSignal(b.dataset.signal);
    });
    this.menu.addEventListener("keydown", (e) => this.onMenuKey(e));
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  setOpen(open, focus = true) {
    this.menu.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open && focus) this.menu.querySelector("button").focus();
    else if (!open && focus && this.menu.contains(document.activeElement)) this.toggle.focus();
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.key.toLowerCase() !== "s") return;
    if (e.target.closest?.("input, select, textarea, dialog")) return;
    if (this.box.hidden || this.toggle.disabled) return;
    // A paused game takes no move, a signal included (the overlay stops pointers only).
    if (this.box.closest("[data-paused='true']")) return;
    e.preventDefault();
    this.setOpen(this.menu.hidden);
  }

  onMenuKey(e) {
    const items = [...this.menu.querySelectorAll("button")];
    const i = items.indexOf(document.activeElement);
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      this.setOpen(false);
    } else if (["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft"].includes(e.key) && i >= 0) {
      e.preventDefault();
      const step = e.key === "ArrowDown" || e.key === "ArrowRight" ? 1 : items.length - 1;
      items[(i + step) % items.length].focus();
    } else if (/^[1-9]$/.test(e.key)) {
      e.stopPropagation(); // inside the menu a digit must not play a card
    }
  }

  /**
   * No signal to make now. With sinais on at a table of partners the control keeps its place,
   * unseen and out of reach (inert), so the player's line does not change height when it goes
   * (issue 29: nothing jumps); elsewhere it is simply hidden.
   */
  idle(yes) {
    const keep = this.obs?.options?.sinais === true && this.obs.players > 2;
    this.box.hidden = yes && !keep;
    this.box.inert = yes;
    this.box.classList.toggle("idle", yes && keep);
  }

  /** After each render: the opinion beside the answer buttons, the signal control, the gestures seen. */
  show(obs, { busy = false } = {}) {
    this.obs = obs;
    this.renderGestures(obs, busy);
    const canSignal = !busy && obs.winner === null && obs.may_signal && obs.options?.sinais === true;
    this.idle(!canSignal);
    if (!canSignal) this.setOpen(false, false);
    this.showOpinion(obs, busy);
  }

  /** While a card is on its way to the engine: nothing to signal, no decision to take. */
  hold() {
    this.idle(true);
    this.setOpen(false, false);
    this.hideOpinion();
  }

  /** The partner's reason shown under the bar, or not ("Por quê?" toggles it). */
  setWhy(open) {
    const can = open && this.whyEl.textContent !== "" && this.whyButton.parentNode === this.opinionEl;
    this.whyEl.hidden = !can;
    this.whyButton.setAttribute("aria-expanded", String(can));
    this.opinionEl.classList.toggle("open", can);
  }

  hideOpinion() {
    this.opinionEl.hidden = true;
    this.setWhy(false);
  }

  /** The gestures this seat saw this hand: by the seat that made them, for the whole hand. */
  renderGestures(obs, frozen) {
    const seen = new Map((obs.signals || []).map((x) => [x.seat, x.signal]));
    // The hand is over (its summary, or the pass screen): a gesture made during it is over too,
    // as its chip is, so its bubble goes unless the seat has said something since ("Corro…"
    // as the hand ended stays). On a small phone a gesture still up as a quick hand ended
    // (a call and a run at the deal) found no room clear of the finished hand's cards.
    if (frozen) {
      for (const [seat, words] of this.gestureSaid) {
        const bubble = this.root.querySelector(`#seats .seat[data-seat="${seat}"] .bubble`);
        if (bubble && bubble.firstChild === words) bubble.hidden = true;
      }
      this.gestureSaid.clear();
    }
    let shown = false; // a chip came or changed
    for (const seat of this.root.querySelectorAll("#seats .seat")) {
      const s = Number(seat.dataset.seat);
      let chip = seat.querySelector(".seat-signal");
      const signal = frozen ? null : seen.get(s);
      if (!signal) {
        chip?.remove();
        continue;
      }
      if (!chip) {
        // In the name's line, as small as a badge: the seats must not grow taller.
        chip = document.createElement("span");
        chip.className = "seat-signal";
        chip.setAttribute("role", "img");
        seat.querySelector(".seat-label").append(chip);
      }
      if (chip.dataset.signal === signal) continue;
      shown = true;
      const w = signalWords(signal);
      chip.dataset.signal = signal;
      chip.dataset.team = s % 2 === obs.seat % 2 ? "us" : "them";
      chip.setAttribute("aria-label", t("signal.chip.label", { ...w, name: this.view.name(s) }));
      chip.title = t("signal.chip", w);
      const text = document.createElement("span");
      text.textContent = w.name;
      chip.replaceChildren(faceIcon(signal), text);
    }
    // A chip comes after the bubble that says the gesture, and sideways in 3 x 3 it sits on
    // the seat's cards (table-layout.css), where a bubble may already be: the bubbles up are
    // placed again, clear of it.
    if (shown) this.view.placeBubbles?.();
    const mine = frozen ? null : seen.get(obs.seat);
    let own = this.root.querySelector("#my-signal");
    if (!mine) {
      own?.remove();
    } else {
      if (!own) {
        own = document.createElement("span");
        own.id = "my-signal";
        own.className = "my-signal";
        this.root.querySelector(".me-label").append(own);
      }
      const w = signalWords(mine);
      own.dataset.signal = mine;
      own.textContent = t("signal.mine", { gesture: w.gesture, signal: w.name });
    }
  }

  /** A gesture in the log: a bubble at the seat that made it, and words for screen readers. */
  narrate(e, obs) {
    const w = signalWords(e.signal);
    if (e.seat === obs.seat) {
      this.view.announce(t("signal.sent", w));
      return;
    }
    this.view.say(e.seat, w.gesture, 2600);
    const bubble = this.root.querySelector(`#seats .seat[data-seat="${e.seat}"] .bubble`);
    if (bubble?.firstChild) this.gestureSaid.set(e.seat, bubble.firstChild);
    const partner = e.seat % 2 === obs.seat % 2;
    this.view.announce(t(partner ? "signal.partner" : "signal.seen", { ...w, name: this.view.name(e.seat) }));
  }

  /** "Parceiro: eu aceitaria" while the human answers for the pair (humano decide). */
  async showOpinion(obs, busy) {
    const deciding = !busy && obs.winner === null && obs.to_move === obs.seat && (obs.pending || obs.decision)
      && [].concat(obs.options?.humano_decide ?? []).includes(obs.seat); // a seat, or one a team (a friends' table)
    if (!deciding) {
      this.hideOpinion();
      return;
    }
    let action = this.opinions.get(obs);
    let why;
    const fresh = action === undefined;
    if (fresh) {
      this.hideOpinion();
      let reply;
      try {
        reply = await this.engine.partnerOpinion();
      } catch {
        return; // no opinion is no harm: the human decides anyway
      }
      action = reply.action;
      // Why the partner would do it (issue 44: in the terms it decided on, e.g. it had
      // signalled nada), told to screen readers at once and shown on a tap of the opinion.
      why = reply.reason ? betReasonText(reply.reason, { seat: obs.seat, players: obs.players, obs }) : "";
      this.opinions.set(obs, action);
      this.reasons.set(obs, why);
      if (this.obs !== obs) return; // the game moved on meanwhile
      if (action) this.view.announce(`${t("opinion.announce", { name: this.view.name(reply.seat), opinion: opinionText(action, obs) })} ${why}`.trim());
    }
    if (!action) return;
    const text = opinionText(action, obs);
    why = why ?? this.reasons.get(obs) ?? "";
    this.opinionEl.dataset.opinion = action; // not data-action: that marks an answer (hint_view.js, InputManager)
    const label = document.createElement("b");
    label.textContent = t("opinion.label");
    const words = document.createElement("span");
    words.className = "opinion-words"; // one piece, with its "?" (a narrow row breaks after the label)
    words.textContent = text;
    // Without a reason there is nothing to open: the opinion stays plain text, as before.
    const parts = why ? [label, " ", words, " ", this.whyButton] : [label, " ", words];
    this.opinionEl.classList.toggle("has-why", !!why);
    this.opinionEl.replaceChildren(...parts);
    if (this.whyEl.textContent !== why) {
      this.whyEl.textContent = why;
      this.setWhy(false); // another question: its reason starts closed
    }
    this.opinionEl.hidden = false;
    if (this.opinionEl.parentNode !== this.actions) this.actions.append(this.opinionEl);
    if (this.whyEl.parentNode !== this.actions) this.actions.append(this.whyEl);
    this.setWhy(!this.whyEl.hidden);
  }
}

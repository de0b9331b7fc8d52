// The parts both tables draw the same way: the table (table/table_view.js) and the tutorial's
// and embeds' mini-table (tutorial/mini_table.js). Each table keeps its own frame (element
// names, classes, layout); what a seat shows, the cards on the felt, the round marks, the
// vira, the score's spoken form and the turn's clock are drawn here, from what they are
// given (an observation, or the finished hand kept on screen). No rule is computed here.

import { backElement, cardElement, cardName, coveredElement } from "./cards.js";
import { t } from "./i18n.js";
import { seatPosition } from "./table_words.js";

/** Set attributes in the order given (`{name: value}`). */
function setAttributes(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
}

// ------------------------------------------------------------------------------ seats
/** Whether `seat` plays with `human` (the same pair). */
export function isPartner(seat, human) {
  return seat % 2 === human % 2;
}

/** The team in words, as a seat shows it beside its name ("parceiro" / "eles"). */
export function seatTeamWord(seat, human) {
  return isPartner(seat, human) ? t("seat.partner") : t("team.them");
}

/** A seat's label for screen readers: "Ana (parceiro)". */
export function seatAriaLabel(name, seat, human) {
  return `${name} (${seatTeamWord(seat, human)})`;
}

/** The data a seat element carries: where it sits, its team and its number. */
export function seatData(seat, human, players) {
  return { pos: seatPosition(seat, human, players), team: isPartner(seat, human) ? "us" : "them", seat: String(seat) };
}

/** A dealer / mão badge. */
export function badge(text, title, cls = "") {
  const b = document.createElement("span");
  b.className = `badge ${cls}`.trim();
  b.textContent = text;
  b.title = title;
  b.setAttribute("aria-label", title);
  return b;
}

/** The badges of `seat` in `obs` (dealer, then mão); `dealerClass`: the dealer badge's class. */
export function seatBadges(obs, seat, { dealerClass = "dealer" } = {}) {
  const out = [];
  if (obs.dealer === seat) out.push(badge(t("badge.dealer.short"), t("badge.dealer"), dealerClass));
  if (obs.mao === seat) out.push(badge(t("badge.mao"), t("badge.mao"), "mao"));
  return out;
}

/**
 * A seat's cards into `box` (emptied first): the cards shown to the human (a partner's hand
 * in a mão de X, a 1 x 1's last hand...), or as many backs as it holds.
 */
export function fillSeatCards(box, { shown = null, count = 0, cardObs }) {
  box.replaceChildren();
  if (shown) {
    for (const c of shown) box.append(cardElement(c, cardObs, { small: true }));
  } else {
    for (let i = 0; i < count; i++) box.append(backElement({ small: true }));
  }
}

/** The cards of `seat` the human may see (visible_hands), or null. */
export function shownCards(obs, seat) {
  return (obs.visible_hands || []).find((v) => v.seat === seat)?.cards ?? null;
}

// ------------------------------------------------------------------------- the felt
/**
 * The felt's places, one per seat, into `trick` (emptied first): each takes the cards its
 * seat played this hand (covered ones face down), the earlier rounds' marked `earlier`, the
 * round's winner `winner`. `slot`: {className, attrs(seat)}; `card`: {obs (for covered
 * cards), cardObs (for faces), className (added to each card)}.
 */
export function renderTrick(trick, { players, human, rounds, slot, card }) {
  trick.replaceChildren();
  trick.dataset.players = String(players);
  for (let s = 0; s < players; s++) {
    const place = document.createElement("div");
    place.className = slot.className;
    place.dataset.pos = seatPosition(s, human, players);
    place.dataset.seat = String(s);
    setAttributes(place, slot.attrs(s));
    rounds.forEach((r, i) => {
      for (const p of r.plays) {
        if (p.seat !== s) continue;
        const c = p.covered ? coveredElement(p.card, card.obs) : cardElement(p.card, card.cardObs);
        if (card.className) c.classList.add(card.className);
        c.dataset.round = String(i + 1);
        if (i !== rounds.length - 1) c.classList.add("earlier");
        if (r.winner === s) c.classList.add("winner");
        place.append(c);
      }
    });
    trick.append(place);
  }
}

/**
 * The vira into `el`: face up once turned (drawn without manilha marks, from `faceObs`),
 * face down while a rule set with a vira still hides it, hidden where there is none.
 */
export function renderVira(el, { vira, rules, faceObs }) {
  if (vira) {
    el.replaceChildren(cardElement(vira, faceObs, { small: true }));
    el.setAttribute("aria-label", t("announce.vira", { card: cardName(vira) }));
  } else if (rules?.vira) {
    el.replaceChildren(backElement({ small: true }));
    el.setAttribute("aria-label", t("card.back"));
  }
  el.hidden = !vira && !rules?.vira;
}

// ------------------------------------------------------------------------ the score
/** The score as screen readers say it: "Placar: nós 4, eles 2". */
export function scoreAriaLabel(score, us) {
  return `${t("hud.score")}: ${t("team.us")} ${score[us]}, ${t("team.them")} ${score[1 - us]}`;
}

/**
 * The hand's three round marks into `list` (emptied first): ✓ won, ✗ lost, = tied, · to
 * play, each with its spoken label. `title`: "mark" (the table: "Ganhou" / the ordinal) or
 * "label" (the mini-table: the spoken label).
 */
export function renderRoundMarks(list, rounds, us, { title = "mark" } = {}) {
  list.replaceChildren();
  for (let i = 0; i < 3; i++) {
    const r = rounds[i];
    let state = "open";
    if (r && r.result !== null && r.result !== undefined) state = r.result === "tie" ? "tie" : r.result === us ? "won" : "lost";
    const mark = document.createElement("li");
    mark.className = `mark ${state}`;
    mark.textContent = state === "won" ? "✓" : state === "lost" ? "✗" : state === "tie" ? "=" : "·";
    const ord = t(`ord.${i + 1}`);
    mark.setAttribute("aria-label", state === "open" ? t("round.open", { ord }) : t(`round.${state}`, { ord }));
    mark.title = title === "label" ? mark.getAttribute("aria-label") : state === "open" ? ord : t(`mark.${state}`);
    list.append(mark);
  }
}

// ------------------------------------------------------------------------ the clock
/**
 * The turn's clock (TurnTimer's `show`): `secondsLeft` null hides it. `text`: the element
 * that reads "12 s"; `urgentAt`: from how many seconds it turns urgent; `range`: also say the
 * value and its maximum to assistive technology.
 */
export function renderTimer(el, text, secondsLeft, total, { urgentAt, range = false }) {
  if (secondsLeft === null) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const s = Math.max(0, Math.ceil(secondsLeft));
  text.textContent = t("timer.left", { s });
  el.style.setProperty("--left", String(Math.max(0, secondsLeft / total)));
  el.classList.toggle("urgent", secondsLeft <= urgentAt);
  if (range) {
    el.setAttribute("aria-valuenow", String(s));
    el.setAttribute("aria-valuemax", String(total));
  }
}

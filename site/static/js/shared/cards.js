// Cards as the page shows them: names, suit symbols and strength labels, all derived
// from the observation (the engine decides what a card is worth; nothing here ranks cards).

import { t } from "./i18n.js";
import { KEYS } from "./storage.js";

export const SUIT_SYMBOL = { c: "♣", h: "♥", s: "♠", d: "♦" };
const RED = new Set(["h", "d"]);

export function rankText(card) {
  return card[0];
}

export function isRed(card) {
  return RED.has(card[1]);
}

/** The four-colour deck (a setting): clubs and diamonds get colours of their own. */
export function applyDeckColours(settings) {
  document.documentElement.classList.toggle("four-colour", settings?.four_colour === true);
}

/** The table's deck setting on the other pages (tutorial, embed): read, never written. */
export function applyStoredDeckColours() {
  try {
    const stored = JSON.parse(window.localStorage.getItem(KEYS.settings) || "null");
    applyDeckColours({ four_colour: stored?.data?.four_colour === true });
  } catch {
    // no storage (private mode, a blocked frame) or a bad entry: the usual two colours
  }
}

/** "7 de copas" */
export function cardName(card) {
  const r = card[0];
  const rank = ["Q", "J", "K", "A"].includes(r) ? t(`rank.${r}`) : r;
  return t("card.name", { rank, suit: t(`suit.${card[1]}`) });
}

/** The manilha's name in this hand ("Zap"), or null for a common card. */
export function manilhaName(card, obs) {
  const i = (obs.manilhas || []).indexOf(card);
  if (i < 0) return null;
  const names = obs.rules?.manilha_names || [];
  return obs.rules?.vira ? t("text.aside", { text: t("card.manilha"), aside: names[i] || "" }) : names[i] || t("card.manilha");
}

/** Accessible label: "4 de paus, Zap" / "3 de ouros". */
export function cardLabel(card, obs) {
  const m = manilhaName(card, obs);
  return m ? t("card.label", { card: cardName(card), manilha: m }) : cardName(card);
}

/**
 * A face-up card element (rank and suit drawn with text and CSS, our own artwork).
 * `tag` is "button" for the player's hand, "div" elsewhere.
 */
export function cardElement(card, obs, { tag = "div", small = false } = {}) {
  const el = document.createElement(tag);
  el.className = `card face suit-${card[1]}${isRed(card) ? " red" : ""}${small ? " small" : ""}`;
  const m = manilhaName(card, obs);
  if (m) el.classList.add("manilha");
  if (tag === "button") el.type = "button";
  if (tag !== "button") {
    el.title = cardLabel(card, obs);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardLabel(card, obs));
  }
  const sym = SUIT_SYMBOL[card[1]];
  // A button is named by its (visually hidden) text, not by aria-label: the rank letters
  // drawn on it ("Q") are not in its spoken name ("dama de copas"), which WCAG 2.5.3
  // (label in name) forbids for an aria-label.
  const name = tag === "button" ? `<span class="visually-hidden card-name">${cardLabel(card, obs)}</span>` : "";
  el.innerHTML = name +
    `<span class="corner tl" aria-hidden="true"><b>${rankText(card)}</b><i>${sym}</i></span>` +
    `<span class="pip" aria-hidden="true">${sym}</span>` +
    `<span class="corner br" aria-hidden="true"><b>${rankText(card)}</b><i>${sym}</i></span>` +
    (m ? `<span class="tag" aria-hidden="true">${obs.rules?.vira ? "★" : m}</span>` : "");
  return el;
}

/** A card seen from the back: carries no information about which card it is. */
export function backElement({ tag = "div", label = t("card.back"), small = false } = {}) {
  const el = document.createElement(tag);
  el.className = `card back${small ? " small" : ""}`;
  if (tag === "button") {
    el.type = "button";
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}

/** A covered card on the table (its owner still sees which card it was). */
export function coveredElement(card, obs) {
  const el = backElement({ small: false });
  el.classList.add("covered");
  el.removeAttribute("aria-hidden");
  el.setAttribute("role", "img");
  const label = card ? t("text.aside", { text: t("card.covered"), aside: cardName(card) }) : t("card.covered");
  el.setAttribute("aria-label", label);
  el.title = label;
  return el;
}

// Cards as the page shows them: names, suit symbols and strength labels, all derived
// from the observation (the engine decides what a card is worth; nothing here ranks cards).

import { t } from "./i18n.js";
import { KEYS } from "./storage.js";
import { cardArt } from "./card_art.js";

export const SUIT_SYMBOL = { c: "♣", h: "♥", s: "♠", d: "♦" };
const RED = new Set(["h", "d"]);

export function rankText(card) {
  return card[0];
}

export function isRed(card) {
  return RED.has(card[1]);
}

// The card backs a player may choose (the `card_back` setting): CSS patterns (cards.css), the
// first the table's original wine red. A back is the same for every card: it tells nothing.
export const CARD_BACKS = Object.freeze(["vinho", "azul", "verde"]);

/**
 * The deck's look (settings): the four-colour deck (clubs and diamonds get colours of their
 * own) and the card back, both as marks on <html> that cards.css reads.
 */
export function applyDeckColours(settings) {
  const root = document.documentElement;
  root.classList.toggle("four-colour", settings?.four_colour === true);
  root.dataset.cardBack = CARD_BACKS.includes(settings?.card_back) ? settings.card_back : CARD_BACKS[0];
}

/** The table's deck settings on the other pages (tutorial, embed): read, never written. */
export function applyStoredDeckColours() {
  try {
    const stored = JSON.parse(window.localStorage.getItem(KEYS.settings) || "null");
    applyDeckColours({ four_colour: stored?.data?.four_colour === true, card_back: stored?.data?.card_back });
  } catch {
    // no storage (private mode, a blocked frame) or a bad entry: the usual two colours
    applyDeckColours({});
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

/** An element with a class and text (the card's parts are built with DOM calls, never HTML). */
function part(tag, className, text = "") {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** An index corner: the rank over the suit, drawn as text (readable at every card size). */
function corner(card, where) {
  const el = part("span", `corner ${where}`);
  el.setAttribute("aria-hidden", "true");
  el.append(part("b", "", rankText(card)), part("i", "", SUIT_SYMBOL[card[1]]));
  return el;
}

/**
 * A face-up card element: index corners in text, the pips or a court figure in SVG
 * (card_art.js, our own art), a single large pip for the small cards where pips would be
 * noise. `tag` is "button" for the player's hand, "div" elsewhere.
 */
export function cardElement(card, obs, { tag = "div", small = false } = {}) {
  const el = document.createElement(tag);
  el.className = `card face suit-${card[1]} rank-${card[0]}${isRed(card) ? " red" : ""}${small ? " small" : ""}`;
  const m = manilhaName(card, obs);
  if (m) el.classList.add("manilha");
  if (tag === "button") el.type = "button";
  if (tag !== "button") {
    el.title = cardLabel(card, obs);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardLabel(card, obs));
  } else {
    // A button is named by its (visually hidden) text, not by aria-label: the rank letters
    // drawn on it ("Q") are not in its spoken name ("dama de copas"), which WCAG 2.5.3
    // (label in name) forbids for an aria-label.
    el.append(part("span", "visually-hidden card-name", cardLabel(card, obs)));
  }
  const bigPip = part("span", "pip", SUIT_SYMBOL[card[1]]);
  bigPip.setAttribute("aria-hidden", "true");
  el.append(cardArt(card), bigPip, corner(card, "tl"), corner(card, "br"));
  if (m) {
    const tag = part("span", "tag", obs.rules?.vira ? "★" : m);
    tag.setAttribute("aria-hidden", "true");
    el.append(tag);
  }
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

// The card faces' drawing: our own art (MIT, like the rest of the project), built with DOM
// calls so the strict CSP (no inline style, no other origin) has nothing to object to.
//
// The shapes live once per page in a hidden <svg> of <symbol>s (`ensureSprite`); each face
// is a small <svg viewBox="0 0 100 140"> (the card's own 5 : 7) of <use href="#…"> at the
// pip places of a real French-suited deck, or a court figure for Q, J and K. Everything is
// drawn in `currentColor`, so the suit's colour, and the four-colour deck, come from CSS.
// The index corners stay HTML text (cards.js): readable at every size, and the rank is in
// the page's text.

const SVG = "http://www.w3.org/2000/svg";
export const SPRITE_ID = "card-art-sprite";

// Suit shapes in a 100 x 100 box, centred on (50, 50).
const SUIT_PATHS = {
  h: "M50 90C22 68 4 50 4 29 4 14 15 4 29 4c10 0 17 6 21 14 4-8 11-14 21-14 14 0 25 10 25 25 0 21-18 39-46 61Z",
  d: "M50 2Q67 28 90 50 67 72 50 98 33 72 10 50 33 28 50 2Z",
  s: "M50 3C60 22 96 38 96 62c0 14-10 22-22 22-9 0-16-4-20-11 1 10 5 18 13 24H33c8-6 12-14 13-24-4 7-11 11-20 11C14 84 4 76 4 62 4 38 40 22 50 3Z",
  c: "M46 66C42 76 34 82 24 82 12 82 4 73 4 61s9-21 20-21c4 0 7 1 9 2-5-5-7-10-7-16C26 13 37 4 50 4s24 9 24 22c0 6-2 11-7 16 2-1 5-2 9-2 11 0 20 9 20 21s-8 21-20 21c-10 0-18-6-22-16 1 13 5 22 14 30H32c9-8 13-17 14-30Z",
};

// Pip places (centre x, centre y, upside down) in the 100 x 140 face: two columns and a
// middle one, as printed decks have them; the lower half's pips are turned over.
const COLS = { l: 38, m: 50, r: 62 };
const ROWS = { top: 33, upper: 51.5, mid: 70, bottom: 107 };
const PIPS = {
  2: [["m", "top"], ["m", "bottom"]],
  3: [["m", "top"], ["m", "mid"], ["m", "bottom"]],
  4: [["l", "top"], ["r", "top"], ["l", "bottom"], ["r", "bottom"]],
  5: [["l", "top"], ["r", "top"], ["m", "mid"], ["l", "bottom"], ["r", "bottom"]],
  6: [["l", "top"], ["r", "top"], ["l", "mid"], ["r", "mid"], ["l", "bottom"], ["r", "bottom"]],
  7: [["l", "top"], ["r", "top"], ["m", "upper"], ["l", "mid"], ["r", "mid"], ["l", "bottom"], ["r", "bottom"]],
};
const PIP_SIZE = 16;

const GOLD = "#d9a521";
const SKIN = "#f4d3b5";
const INK = "#2a2118";
const PAPER = "#fffdf6";
const LINE = { stroke: INK, "stroke-width": 1 }; // the figures' outlines
const LINE_BOLD = { stroke: INK, "stroke-width": 1.2 };

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

function use(id, attrs = {}) {
  return el("use", { href: `#${id}`, ...attrs });
}

// Court figures: the upper half of a double-headed court card, drawn in a 100 x 120 box
// whose bottom edge is the card's middle; the lower half is the same drawing turned over.
// One drawing per rank, in the suit's colour (currentColor) with gold, skin and ink.
const COURT_PARTS = {
  // The king: a crown of three points, a full beard, a robe with an ermine collar, a sword.
  K: () => [
    el("path", { d: "M8 120 L14 84 Q22 70 50 68 Q78 70 86 84 L92 120Z", fill: "currentColor" }),
    el("path", { d: "M22 78 Q50 92 78 78 L80 86 Q50 100 20 86Z", fill: PAPER, ...LINE }),
    el("circle", { cx: 36, cy: 85, r: 1.6, fill: INK }), el("circle", { cx: 50, cy: 90, r: 1.6, fill: INK }),
    el("circle", { cx: 64, cy: 85, r: 1.6, fill: INK }),
    el("path", { d: "M84 38 L90 38 L89 112 L85 112Z", fill: "#c9ccd4", ...LINE }),
    el("path", { d: "M78 64 H96 V69 H78Z", fill: GOLD, ...LINE }),
    el("ellipse", { cx: 50, cy: 46, rx: 16, ry: 19, fill: SKIN, ...LINE_BOLD }),
    el("path", { d: "M34 48 Q36 74 50 76 Q64 74 66 48 Q60 58 50 56 Q40 58 34 48Z", fill: "#8a8f98", ...LINE }),
    el("path", { d: "M41 55 Q50 51 59 55", fill: "none", stroke: INK, "stroke-width": 1.4 }),
    el("circle", { cx: 44, cy: 43, r: 1.8, fill: INK }), el("circle", { cx: 56, cy: 43, r: 1.8, fill: INK }),
    el("path", { d: "M32 30 L34 12 L42 22 L50 6 L58 22 L66 12 L68 30Z", fill: GOLD, ...LINE_BOLD }),
    el("circle", { cx: 50, cy: 24, r: 2.6, fill: "currentColor" }),
  ],
  // The queen: hair to the shoulders, a small tiara, a gown with a low neckline, a flower.
  Q: () => [
    el("path", { d: "M10 120 L16 86 Q24 72 50 70 Q76 72 84 86 L90 120Z", fill: "currentColor" }),
    el("path", { d: "M32 76 L50 98 L68 76 Q50 82 32 76Z", fill: PAPER, ...LINE }),
    el("path", { d: "M30 40 Q28 20 50 18 Q72 20 70 40 L74 74 Q62 70 64 52 L36 52 Q38 70 26 74Z", fill: "#6b3f22", ...LINE }),
    el("ellipse", { cx: 50, cy: 46, rx: 14, ry: 17, fill: SKIN, ...LINE_BOLD }),
    el("path", { d: "M36 40 Q44 26 64 38 Q58 28 50 27 Q38 28 36 40Z", fill: "#6b3f22" }),
    el("circle", { cx: 44, cy: 45, r: 1.7, fill: INK }), el("circle", { cx: 56, cy: 45, r: 1.7, fill: INK }),
    el("path", { d: "M45 55 Q50 58 55 55", fill: "none", stroke: "#b3303c", "stroke-width": 1.8, "stroke-linecap": "round" }),
    el("path", { d: "M38 26 L42 16 L46 23 L50 12 L54 23 L58 16 L62 26Z", fill: GOLD, ...LINE }),
    el("path", { d: "M20 96 L24 110", stroke: "#3c7a3a", "stroke-width": 2.2 }),
    el("circle", { cx: 19, cy: 93, r: 5, fill: PAPER, ...LINE }),
    el("circle", { cx: 19, cy: 93, r: 2, fill: GOLD }),
  ],
  // The valet: a feathered cap, short hair, a striped tunic, a halberd at his side.
  J: () => [
    el("path", { d: "M12 120 L18 86 Q26 72 50 70 Q74 72 82 86 L88 120Z", fill: "currentColor" }),
    el("path", { d: "M36 120 L40 76 H60 L64 120Z", fill: PAPER, ...LINE }),
    el("path", { d: "M41 86 H59 M40 98 H60 M39 110 H61", stroke: "currentColor", "stroke-width": 3 }),
    el("path", { d: "M30 72 Q50 84 70 72 L68 80 Q50 90 32 80Z", fill: GOLD, ...LINE }),
    el("path", { d: "M14 20 L14 116", stroke: "#7a5230", "stroke-width": 3 }),
    el("path", { d: "M14 12 L8 26 L14 34 L20 26Z M14 26 L22 22 L22 32Z", fill: "#c9ccd4", ...LINE }),
    el("ellipse", { cx: 50, cy: 48, rx: 14, ry: 16, fill: SKIN, ...LINE_BOLD }),
    el("path", { d: "M36 48 Q34 34 50 33 Q66 34 64 48 Q60 40 50 40 Q40 40 36 48Z", fill: "#a0622d" }),
    el("circle", { cx: 44, cy: 48, r: 1.7, fill: INK }), el("circle", { cx: 56, cy: 48, r: 1.7, fill: INK }),
    el("path", { d: "M45 57 Q50 60 55 57", fill: "none", stroke: INK, "stroke-width": 1.4, "stroke-linecap": "round" }),
    el("path", { d: "M32 36 Q34 22 52 22 Q68 22 70 34 Q52 30 32 36Z", fill: "currentColor", ...LINE }),
    el("path", { d: "M60 26 Q64 6 74 4 Q68 14 65 28Z", fill: GOLD, ...LINE }),
  ],
};

/** The page's one copy of the shapes (suits, court figures), made on first use. */
export function ensureSprite(doc = document) {
  if (doc.getElementById(SPRITE_ID)) return;
  const defs = el("defs");
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    defs.append(el("symbol", { id: `suit-${suit}`, viewBox: "0 0 100 100" }, [el("path", { d, fill: "currentColor" })]));
  }
  for (const [rank, parts] of Object.entries(COURT_PARTS)) {
    defs.append(el("symbol", { id: `court-${rank}`, viewBox: "0 0 100 120" }, parts()));
  }
  // The Espadilha's ornament: a ring of gold around a large spade, as printed decks mark it.
  defs.append(el("symbol", { id: "ace-ornament", viewBox: "0 0 100 100" }, [
    el("circle", { cx: 50, cy: 50, r: 46, fill: "none", stroke: GOLD, "stroke-width": 3 }),
    el("circle", { cx: 50, cy: 50, r: 40, fill: "none", stroke: "currentColor", "stroke-width": 1.2, "stroke-dasharray": "3 3" }),
  ]));
  const sprite = el("svg", { id: SPRITE_ID, "aria-hidden": "true", focusable: "false", class: "card-sprite" }, [defs]);
  (doc.body || doc.documentElement).prepend(sprite);
}

function pip(suit, x, y, size, flipped) {
  const attrs = { x: x - size / 2, y: y - size / 2, width: size, height: size, class: "pip-shape" };
  if (flipped) attrs.transform = `rotate(180 ${x} ${y})`;
  return use(`suit-${suit}`, attrs);
}

/**
 * The drawing in the middle of a face: pips, a large ace or a court figure. `data-art`
 * names what was drawn ("pips-7", "ace", "ace-espadilha", "court-K"), for the tests.
 */
export function cardArt(card) {
  ensureSprite();
  const [rank, suit] = card;
  const svg = el("svg", { class: "card-art", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" });
  if (rank === "Q" || rank === "J" || rank === "K") {
    svg.dataset.art = `court-${rank}`;
    // The frame, both halves of the figure, the suit beside each head.
    svg.append(
      el("rect", { x: 25, y: 10, width: 50, height: 120, rx: 3, class: "court-frame", fill: "none", stroke: "currentColor", "stroke-width": 1.4 }),
      use(`court-${rank}`, { x: 26, y: 10.5, width: 48, height: 60, preserveAspectRatio: "none" }),
      use(`court-${rank}`, { x: 26, y: 10.5, width: 48, height: 60, preserveAspectRatio: "none", transform: "rotate(180 50 70)" }),
      el("path", { d: "M25 70 H75", stroke: "currentColor", "stroke-width": 1 }),
      pip(suit, 68, 19, 9, false),
      pip(suit, 32, 121, 9, true),
    );
  } else if (rank === "A") {
    const espadilha = suit === "s";
    svg.dataset.art = espadilha ? "ace-espadilha" : "ace";
    if (espadilha) svg.append(use("ace-ornament", { x: 18, y: 38, width: 64, height: 64 }));
    const size = espadilha ? 44 : 34;
    svg.append(pip(suit, 50, 70, size, false));
  } else {
    svg.dataset.art = `pips-${rank}`;
    for (const [col, row] of PIPS[rank] || []) {
      const y = ROWS[row];
      svg.append(pip(suit, COLS[col], y, PIP_SIZE, y > 70));
    }
  }
  return svg;
}

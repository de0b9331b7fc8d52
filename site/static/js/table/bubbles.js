// Speech bubbles at the table: where a seat's bubble goes so that it hides nothing the player
// must see (TableView.say places it; placeBubbles again after a render or a resize).

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
// The hand's summary too: its buttons, and a fold said as the hand ends ("Corro…") beside it.
// Issue 41: the names and badges of every seat, the Dica's reason,
// and the other bubbles (two bubbles on top of each other hid both) are kept clear as well.
const KEEP_CLEAR = "#score, #round-marks, #hand-value, #vira:not([hidden]), #banner:not([hidden]), "
  + ".seat-label, .me-label, #hint-line:not([hidden]), .bubble:not([hidden])";
// Issue 29: no control or card either (a seat's own cards, the signal chips, the hand, the
// buttons), nor the boxes of the player's corner that open without a new render (the Dica's
// line, the partner's opinion): their rows are reserved, so their places are known at once.
// Issue 41: a bubble over "Ver a mão anterior" or a chip hid it as surely as one over a
// card, so they weigh as much as the list above; only a seat's cards face down (nothing to
// read there) give way first where nothing is clear. A seat's badge counts on its own: on a
// short phone upright a side seat's badge lies on its cards (table-layout.css), outside its label.
const CONTROLS = ".seat-cards .card.back";
const KEEP_CLEAR_TOO = ".seat-cards .card.face, .seat-signal, .seat-badges .badge, #hand .card, #actions, #actions button, #hint-box:not([hidden]), "
  + "#me .me-label > *:not([hidden]), #hint-follow:not([hidden]), #last-review:not([hidden]), .menu button";
// A card the Dica lifts rises this much over the hand (review.css, .hinted).
const HAND_LIFT = 16;
const ACROSS_OVER_ITS_CARDS = "(max-width: 759px), (max-height: 500px) and (orientation: landscape)";
// Better left in sight too, where the bubble fits elsewhere: the header, the other bubbles,
// the last hand's button, the prompt and, for the other seats' bubbles, the rest of the
// player's own corner.
const RATHER_CLEAR = ".topbar, .bubble:not([hidden]), #last-review:not([hidden]), #prompt";
const RATHER_CLEAR_OF_OTHERS = "#timer:not([hidden])";
// With the Dica on, its reason may open in the prompt's row at any moment (table-layout.css),
// over a bubble placed before it: another seat's bubble keeps off that row as off a name
// (sideways, a seat across reached into it, over "Seguir a dica").
const KEEP_CLEAR_OF_OTHERS = ".table:has(#hint-box:not([hidden])) #prompt";

/** The boxes on screen of the elements `selector` finds in `root` but `skip` (none for a hidden one). */
function boxes(root, selector, skip = null) {
  return [...root.querySelectorAll(selector)].filter((e) => e !== skip && !e.contains(skip))
    .map((e) => {
      // A bubble still popping in is drawn scaled down: where it will stand is its box
      // without the transform (issue 41: a bubble placed while its neighbour popped in
      // took the room the neighbour was about to fill).
      if (e.matches(".bubble") && e.offsetParent) {
        const p = e.offsetParent, o = p.getBoundingClientRect();
        const left = o.left + p.clientLeft + e.offsetLeft, top = o.top + p.clientTop + e.offsetTop;
        return { left, top, right: left + e.offsetWidth, bottom: top + e.offsetHeight, width: e.offsetWidth, height: e.offsetHeight };
      }
      const r = e.getBoundingClientRect();
      if (!e.matches("#hand .card")) return r;
      return { left: r.left, right: r.right, top: r.top - HAND_LIFT, bottom: r.bottom, width: r.width, height: r.height };
    }).filter((r) => r.width && r.height);
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
export function placeBubble(el, root) {
  const seatEl = el.parentElement;
  Object.assign(el.style, { left: "0px", top: "0px", right: "auto", bottom: "auto", margin: "0", transform: "none", maxWidth: "" });
  const wide = { w: el.offsetWidth, h: el.offsetHeight, maxWidth: "" };
  const seat = seatEl.getBoundingClientRect();
  const doc = document.documentElement;
  // On the felt (issue 41: over the header a bubble hid "Pausar" and "Sair da mesa"), and on the screen.
  const felt = root.querySelector("#table")?.getBoundingClientRect() ?? { left: 0, top: 0, right: doc.clientWidth, bottom: doc.clientHeight };
  const view = {
    left: Math.max(felt.left, 0) + BUBBLE_MARGIN, top: Math.max(felt.top, 0) + BUBBLE_MARGIN,
    right: Math.min(felt.right, doc.clientWidth) - BUBBLE_MARGIN, bottom: Math.min(felt.bottom, doc.clientHeight) - BUBBLE_MARGIN,
  };
  const centre = (seat.left + seat.right) / 2;
  const pos = seatEl.dataset.pos || "";
  const acrossOverItsCards = pos.startsWith("top") && matchMedia(ACROSS_OVER_ITS_CARDS).matches;
  const keep = [...boxes(root, seatEl.id === "me" ? `${KEEP_CLEAR}, ${KEEP_CLEAR_TOO}` : `${KEEP_CLEAR}, ${KEEP_CLEAR_TOO}, ${KEEP_CLEAR_OF_OTHERS}`, el), ...cardPlaces(root)];
  const controls = boxes(root, CONTROLS, el);
  const rather = boxes(root, seatEl.id === "me" ? RATHER_CLEAR.replace(", #prompt", "") : `${RATHER_CLEAR}, ${RATHER_CLEAR_OF_OTHERS}`, el);
  const covered = (box, list) => list.reduce((sum, o) => sum + overlapArea(box, o), 0);
  let best = null;
  const tryShape = ({ w, h, maxWidth }, shape) => {
    const [under, over, above] = [seat.bottom + BUBBLE_GAP, seat.bottom - h, seat.top - BUBBLE_GAP - h];
    // The player's own on a phone: in the prompt's row, which gives way to it (table-layout.css).
    const mine = matchMedia(ACROSS_OVER_ITS_CARDS).matches ? [seat.top + 2] : [above, seat.top + BUBBLE_GAP];
    const tops = seatEl.id === "me" ? mine : acrossOverItsCards ? [over, under, above] : [under, over, above];
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
        const cost = 1e4 * off + 100 * covered(box, keep) + 1.5 * covered(box, controls) + covered(box, rather);
        // The least covered; then the widest shape (fewest lines); where the seat puts
        // it (over its own cards, say) before sliding along (off the felt, away from who
        // speaks); the first place; the nearest.
        const dx = Math.abs(x - home);
        const key = [cost, shape, dx > 0.5 ? 1 : 0, i, dx];
        if (!best || before(key, best.key)) best = { key, x, y, w, h, maxWidth };
      }
    });
    // Beside the seat, level with it (issue 41: a seat across on a phone, its chip above and
    // the round marks below, had no clear place over or under it).
    if (seatEl.id !== "me") {
      const y = Math.max(view.top, Math.min(view.bottom - h, (seat.top + seat.bottom - h) / 2));
      for (const x of [seat.left - BUBBLE_GAP - w, seat.right + BUBBLE_GAP]) {
        if (x < view.left || x + w > view.right) continue;
        const box = { left: x, top: y, right: x + w, bottom: y + h };
        const cost = 100 * covered(box, keep) + 1.5 * covered(box, controls) + covered(box, rather);
        const key = [cost, shape, 1, tops.length, Math.abs(x - home)];
        if (!best || before(key, best.key)) best = { key, x, y, w, h, maxWidth, beside: true };
      }
    }
  };
  tryShape(wide, 0);
  // A narrower shape only comes first where the one-line bubble covers something (the key's
  // cost), so its measuring (a layout per width tried) waits until then.
  if (best.key[0] > 0) narrowerShapes(el, wide).forEach((shape, i) => tryShape(shape, i + 1));
  const { x, y, w, h, maxWidth } = best;
  el.style.maxWidth = maxWidth;
  el.style.left = `${x - seat.left - seatEl.clientLeft}px`;
  el.style.top = `${y - seat.top - seatEl.clientTop}px`;
  // The tail points at the seat: up from a bubble under its middle, down from one above;
  // none from one beside it.
  el.dataset.tail = best.beside ? "none" : y + h / 2 < (seat.top + seat.bottom) / 2 ? "down" : "up";
  el.style.setProperty("--tail-x", `${Math.min(w - TAIL_INSET, Math.max(TAIL_INSET, centre - x))}px`);
}

// A face for every seat (issue 41): each bot character has its own, the player picks one of
// AVATAR_CHOICES in the start screen (the `avatar` setting). Our own art (MIT), drawn as a
// small SVG with DOM calls from a few parts (hair, hat, moustache, glasses...), so the
// whole set costs a few kilobytes and no download of its own.

const SVG = "http://www.w3.org/2000/svg";
const INK = "#2a2118";

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// Each face: skin, background, shirt, then its parts. Bots by their name (seat.names, the
// same in every language); the player's choices p1..p6.
const FACES = {
  tonho: { bg: "#c98b2b", skin: "#e0ac7e", shirt: "#5f7f35", hair: ["short", "#9a9a9a"], hat: "straw", moustache: "#b9b9b9" },
  dito: { bg: "#2a7f8f", skin: "#8d5a3b", shirt: "#f2efe6", hair: ["curly", "#1d1510"], hat: "cap", cap: "#c0392b" },
  ze: { bg: "#a8453a", skin: "#c68a5e", shirt: "#2f4f7a", hair: ["short", "#1d1510"], moustache: "#1d1510", bigMoustache: true },
  quinzinho: { bg: "#3f6fb5", skin: "#f1c9a5", shirt: "#e0a526", hair: ["messy", "#b5541c"], freckles: true },
  tiao: { bg: "#6d4c8f", skin: "#d9a47c", shirt: "#8a5a35", hair: ["bald", "#eeeeee"], glasses: true, beard: "#eeeeee" },
  p1: { bg: "#c2577a", skin: "#f0c8a8", shirt: "#2b8c8c", hair: ["long", "#6b3f22"], earrings: true, lips: true },
  p2: { bg: "#3a7d5c", skin: "#c68a5e", shirt: "#d9d2c0", hair: ["short", "#2b1d14"], beard: "#2b1d14" },
  p3: { bg: "#d9822b", skin: "#7a4a2e", shirt: "#5a3d8a", hair: ["curly", "#140e0a"], earrings: true, lips: true },
  p4: { bg: "#4a5a8a", skin: "#f1c9a5", shirt: "#c9c9c9", hair: ["short", "#7a5a2a"], hat: "cap", cap: "#2f6db5" },
  p5: { bg: "#8a3b5c", skin: "#d9a47c", shirt: "#3a6b45", hair: ["bun", "#a8a8a8"], glasses: true, earrings: true },
  p6: { bg: "#5d7f2e", skin: "#e8b890", shirt: "#b8402f", hair: ["messy", "#e0c060"] },
};

/** The faces the player may choose (the `avatar` setting; the first is the default). */
export const AVATAR_CHOICES = Object.freeze(["p1", "p2", "p3", "p4", "p5", "p6"]);
const BOT_FACES = { Tonho: "tonho", Dito: "dito", "Zé": "ze", Quinzinho: "quinzinho", "Tião": "tiao" };

let playerAvatar = AVATAR_CHOICES[0];

/** The player's chosen face, from the settings (a bad value keeps the default). */
export function setPlayerAvatar(settings) {
  playerAvatar = AVATAR_CHOICES.includes(settings?.avatar) ? settings.avatar : AVATAR_CHOICES[0];
}

/**
 * The face of a seat: the player's own for the seat on screen, a bot's by its name, and
 * for another person (pass-and-play, friends) one of the choices picked by their name.
 */
export function seatAvatarId(name, { own = false } = {}) {
  if (own) return playerAvatar;
  if (Object.hasOwn(BOT_FACES, name)) return BOT_FACES[name];
  let h = 0;
  for (const ch of String(name)) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return AVATAR_CHOICES[h % AVATAR_CHOICES.length];
}

function hair(kind, colour) {
  const f = { fill: colour };
  switch (kind) {
    case "long":
      return { back: [el("path", { d: "M15 30Q13 8 32 8T49 30L51 52Q44 50 43 38H21Q20 50 13 52Z", ...f })],
        front: [el("path", { d: "M18 27Q19 11 32 11T46 27Q40 17 28 19Q21 21 18 27Z", ...f })] };
    case "curly": {
      const front = [];
      for (const [x, y] of [[18, 22], [22, 15], [29, 11], [36, 11], [42, 15], [46, 22], [25, 18], [39, 18], [32, 16]]) {
        front.push(el("circle", { cx: x, cy: y, r: 5.5, ...f }));
      }
      return { back: [], front };
    }
    case "messy":
      return { back: [], front: [el("path", { d: "M17 27L16 17L21 19L22 10L27 15L31 7L35 14L41 9L42 17L48 16L47 27Q42 18 32 19Q22 18 17 27Z", ...f })] };
    case "bald":
      return { back: [], front: [el("path", { d: "M17 33Q15 23 19 19L22 33Z", ...f }), el("path", { d: "M47 33Q49 23 45 19L42 33Z", ...f })] };
    case "bun":
      return { back: [el("circle", { cx: 32, cy: 8, r: 6.5, ...f })],
        front: [el("path", { d: "M18 27Q18 11 32 11T46 27Q42 17 32 17T18 27Z", ...f })] };
    default: // short
      return { back: [], front: [el("path", { d: "M18 27Q17 10 32 10T46 27Q43 16 32 16T18 27Z", ...f })] };
  }
}

function faceParts(face) {
  const { back, front } = hair(...face.hair);
  const parts = [
    el("circle", { cx: 32, cy: 32, r: 32, fill: face.bg }),
    ...back,
    el("path", { d: "M8 64Q9 46 32 44T56 64Z", fill: face.shirt }),
    el("rect", { x: 27, y: 37, width: 10, height: 9, fill: face.skin }),
    el("circle", { cx: 18, cy: 30, r: 3.6, fill: face.skin }),
    el("circle", { cx: 46, cy: 30, r: 3.6, fill: face.skin }),
    el("ellipse", { cx: 32, cy: 28, rx: 14, ry: 16, fill: face.skin }),
  ];
  if (face.beard) parts.push(el("path", { d: "M18 28Q19 45 32 46T46 28Q45 40 32 40T18 28Z", fill: face.beard }));
  parts.push(...front);
  parts.push(
    el("circle", { cx: 26.5, cy: 28, r: 1.8, fill: INK }),
    el("circle", { cx: 37.5, cy: 28, r: 1.8, fill: INK }),
    el("path", { d: "M23.5 24Q26.5 22 29.5 24M34.5 24Q37.5 22 40.5 24", fill: "none", stroke: INK, "stroke-width": 1.2, "stroke-linecap": "round" }),
    el("path", { d: "M27.5 36Q32 39.5 36.5 36", fill: "none", stroke: face.lips ? "#b3303c" : INK, "stroke-width": face.lips ? 2 : 1.4, "stroke-linecap": "round" }),
  );
  if (face.moustache) {
    parts.push(el("path", {
      d: face.bigMoustache ? "M23 36Q26 30 32 33Q38 30 41 36Q36 34 32 35.5Q28 34 23 36Z" : "M26 35Q29 31.5 32 33.5Q35 31.5 38 35Q35 34 32 34.8Q29 34 26 35Z",
      fill: face.moustache,
    }));
  }
  if (face.freckles) {
    for (const [x, y] of [[23, 32], [25, 33.5], [39, 32], [41, 33.5]]) parts.push(el("circle", { cx: x, cy: y, r: 0.8, fill: "#b5541c" }));
  }
  if (face.glasses) {
    parts.push(el("path", { d: "M22.5 28a4 4 0 1 0 8 0a4 4 0 1 0-8 0M33.5 28a4 4 0 1 0 8 0a4 4 0 1 0-8 0M30.5 28H33.5", fill: "none", stroke: INK, "stroke-width": 1.2 }));
  }
  if (face.earrings) {
    parts.push(el("circle", { cx: 18, cy: 35, r: 1.6, fill: "#e8c04a" }), el("circle", { cx: 46, cy: 35, r: 1.6, fill: "#e8c04a" }));
  }
  if (face.hat === "straw") {
    parts.push(
      el("ellipse", { cx: 32, cy: 17, rx: 23, ry: 5, fill: "#e2c27a", stroke: "#9c7a36", "stroke-width": 1 }),
      el("path", { d: "M21 17Q21 4 32 4T43 17Z", fill: "#e2c27a", stroke: "#9c7a36", "stroke-width": 1 }),
      el("path", { d: "M21.5 14H42.5", stroke: "#7a3b2a", "stroke-width": 2.5 }),
    );
  } else if (face.hat === "cap") {
    parts.push(
      el("path", { d: "M17.5 20Q17 6 32 6T46.5 20Z", fill: face.cap }),
      el("path", { d: "M40 19H56Q55 23 46 23H40Z", fill: face.cap, stroke: INK, "stroke-width": 0.6 }),
      el("circle", { cx: 32, cy: 6.5, r: 1.5, fill: INK }),
    );
  }
  return parts;
}

/**
 * A seat's face as an <svg class="avatar" data-avatar="id">: decorative (aria-hidden), the
 * seat's name beside it says who it is. `size` in CSS pixels (else cards.css decides).
 */
export function avatarElement(id, { size = null } = {}) {
  const face = FACES[id] || FACES[AVATAR_CHOICES[0]];
  const svg = el("svg", { class: "avatar", viewBox: "0 0 64 64", "aria-hidden": "true", focusable: "false" });
  svg.dataset.avatar = FACES[id] ? id : AVATAR_CHOICES[0];
  if (size) {
    svg.setAttribute("width", size);
    svg.setAttribute("height", size);
  }
  // Clipped to its circle: the hat's brim and the bun stay inside the round frame.
  const clipId = "avatar-clip";
  if (!document.getElementById(clipId)) {
    const holder = el("svg", { class: "card-sprite", "aria-hidden": "true", focusable: "false" });
    const clip = el("clipPath", { id: clipId });
    clip.append(el("circle", { cx: 32, cy: 32, r: 32 }));
    holder.append(clip);
    (document.body || document.documentElement).prepend(holder);
  }
  const g = el("g", { "clip-path": `url(#${clipId})` });
  g.append(...faceParts(face));
  svg.append(g);
  return svg;
}

/** The start screen's faces to choose from: each `[data-avatar-choice]` gets its drawing. */
export function fillAvatarChoices(root = document) {
  for (const slot of root.querySelectorAll("[data-avatar-choice]")) {
    if (!slot.firstChild) slot.append(avatarElement(slot.dataset.avatarChoice));
  }
}

/** Put face `id` first in a seat's name block (kept when it is already there). */
export function placeAvatar(label, id) {
  if (!label) return;
  const current = label.firstElementChild;
  if (current?.classList.contains("avatar")) {
    if (current.dataset.avatar === id) return;
    current.remove();
  }
  label.prepend(avatarElement(id));
}

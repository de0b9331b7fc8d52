// A first visit's match, dealt before the engine is ready (issue 43). index.html carries seat
// 0's view of the first deal of a few of the engine's openings (made by the engine itself at
// build time: truco_tools/openings.py); with the start screen's defaults, "Começar" shows one
// at once and the player may decide on it while the engine loads. The engine then deals the
// same match (`new_game {opening: k}`), and match_setup.js checks its view is the one shown.
// Nothing here is a rule: the view is the engine's, and its seed never reaches the page.

let data; // the page's openings, read once (null: none)

function openings() {
  if (data === undefined) {
    try {
      data = JSON.parse(document.getElementById("openings")?.textContent ?? "null");
    } catch {
      data = null;
    }
  }
  return data;
}

/** Deep equality of JSON data (key order aside). */
export function sameData(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameData(a[k], b[k]));
}

/**
 * An opening for the engine's new_game `params`, or null when the page has none for them
 * (any setting but the defaults, any scenario). Returns {opening (its number, for the
 * engine), observation (a copy of seat 0's view)}.
 */
export function openingFor(params, random = Math.random) {
  const d = openings();
  if (!d?.openings?.length) return null;
  const { level, ...rest } = params;
  if (!d.levels.includes(level) || !sameData(rest, d.params)) return null;
  const pick = d.openings[Math.floor(random() * d.openings.length)];
  return { opening: pick.opening, observation: structuredClone(pick.observation) };
}

// UI text: one translation table per language (site/i18n/*.json), rendered by the build
// into the page as <script type="application/json" id="i18n">. Templates and JS read it
// from there only, so another language needs no change to either.

const table = (() => {
  const node = typeof document !== "undefined" && document.getElementById("i18n");
  try {
    return node ? JSON.parse(node.textContent) : {};
  } catch {
    return {};
  }
})();

/** The text for `key`, with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  let text = table[key];
  if (Array.isArray(text)) text = text[0];
  if (typeof text !== "string") return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** One of several phrasings of `key` (an array in the table), picked by `n`. */
export function phrase(key, n = 0) {
  const list = table[key];
  if (!Array.isArray(list) || list.length === 0) return t(key);
  return list[Math.abs(n) % list.length];
}

/** A list value of the table (e.g. seat names). */
export function list(key) {
  const value = table[key];
  return Array.isArray(value) ? value : [];
}

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

const PLACEHOLDER = /\{(\w+)\}/g;

/** The template of `key` (the first phrasing of a list), or null when the table lacks it. */
function template(key) {
  const text = table[key];
  const first = Array.isArray(text) ? text[0] : text;
  return typeof first === "string" ? first : null;
}

/** The text for `key`, with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  const text = template(key);
  if (text === null) return key;
  return text.replace(PLACEHOLDER, (m, name) => (name in params ? String(params[name]) : m));
}

// A word a phrasing keeps in Portuguese, marked in the Spanish and English tables as
// {pt:Truco} ("¡{pt:Truco}, ladrón!", "Then it's {pt:seis}!"): the word itself, as the phrase
// says it (lower case in mid-sentence, "Trucooo" drawn out), which no {call} parameter
// could give. The Portuguese table needs no mark.
const MARKED_PORTUGUESE = /\{pt:([^{}]+)\}/g;

/**
 * One of several phrasings of `key` (an array in the table; t(key) when it is no list),
 * picked by `n`, as DOM nodes for a speech bubble: the words the table marks {pt:...} become
 * portuguese() nodes ("¡Truco, ladrón!" says "Truco" in Portuguese), the rest text.
 */
export function phraseNodes(key, n = 0) {
  const list = table[key];
  const text = Array.isArray(list) && list.length ? list[Math.abs(n) % list.length] : t(key);
  return toNodes(text, MARKED_PORTUGUESE, (m) => portuguese(m[1]));
}

/**
 * `items` (texts) as one, in the page's language: "Tonho e Zé", "Tonho, Dito e Zé" (the
 * table's `list.comma`, and `last` before the last item: `list.and` unless told).
 */
export function listText(items, last = "list.and") {
  if (items.length < 2) return items.join("");
  const head = items.slice(0, -1).reduce((a, b) => t("list.comma", { a, b }));
  return t(last, { a: head, b: items.at(-1) });
}

/** A list value of the table (e.g. seat names). */
export function list(key) {
  const value = table[key];
  return Array.isArray(value) ? value : [];
}

const PORTUGUESE = "pt-BR";

/**
 * A truco word that every language keeps in Portuguese ("Truco", "Seis", "mão de ferro":
 * docs/i18n.md), as a node to put in the page: on a Spanish or English page it is a
 * <span lang="pt-BR">, so a screen reader says it with Portuguese sounds, not as an
 * English "truck-o"; on a Portuguese page, plain text. `text` is what t() gave for it.
 */
export function portuguese(text) {
  const lang = document.documentElement.lang;
  if (!lang || lang === PORTUGUESE) return document.createTextNode(text);
  const span = document.createElement("span");
  span.lang = PORTUGUESE;
  span.textContent = text;
  return span;
}

/**
 * t(key, params) as DOM nodes, for texts with a word in another language: a parameter may
 * be a Node (e.g. portuguese("Truco")), put where its {placeholder} is; the rest is text.
 */
export function tNodes(key, params = {}) {
  const text = template(key);
  if (text === null) return toNodes(key, PLACEHOLDER, (m) => m[0]); // the key, as t() shows it
  return toNodes(text, PLACEHOLDER, (m) => {
    const value = m[1] in params ? params[m[1]] : m[0];
    return value instanceof Node ? value : String(value);
  });
}

/** `text` as a fragment: each match of `pattern` replaced by `fill(match)` (a Node or text). */
function toNodes(text, pattern, fill) {
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    frag.append(text.slice(last, m.index), fill(m));
    last = m.index + m[0].length;
  }
  frag.append(text.slice(last));
  return frag;
}

// Elements built with DOM calls, for every page. Text goes in as text nodes (the same as
// textContent: never parsed as HTML, so a player's name or a pasted code stays text); nothing
// here, and nothing that uses it, needs innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "data") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/**
 * An HTML element `tag` with attributes and children.
 *
 * `attrs`: each entry becomes an attribute (`class`, `aria-label`, `type`, ...); `true` sets
 * it empty (`open`, `disabled`), and `false`, `null` or `undefined` leave it out; `data` takes
 * an object of `data-*` values. `children`: nodes, or strings added as text; `null`,
 * `undefined` and `false` are skipped, so a child can be written `cond && el(...)`.
 */
export function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** The same for an SVG element (the statistics' charts). */
export function svgEl(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

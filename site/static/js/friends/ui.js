// Small DOM helpers of the friends' screens (host.js, guest.js): elements built with
// textContent only (names and codes are untrusted text), the copy button, the QR hook, and
// the tests' record of every message on the channel (`?friends_log=1`).

import { t } from "../shared/i18n.js";

/** The friends' screens' stylesheet, added once; resolves when it is loaded (or failed). */
let styles = null;
export function friendsStyles() {
  styles ??= new Promise((resolve) => {
    const link = el("link", { rel: "stylesheet", href: new URL("../../css/friends.css", import.meta.url).href });
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
  return styles;
}

/** An element with attributes and children (strings become text nodes): shared/dom.js's. */
import { el } from "../shared/dom.js";
export { el };

/** "Copiar código": copies the field's text (or selects it, where the clipboard is refused). */
export function copyButton(field) {
  const b = el("button", { type: "button", class: "button secondary", "data-copy": field.id }, t("friends.copy"));
  b.onclick = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      b.textContent = t("friends.copied");
    } catch {
      // Selected: the person copies it with the system's own menu.
    }
  };
  return b;
}

/**
 * The QR module (qr.js: renderCode(text, {label}) -> SVGElement, scanCode(container,
 * {signal}) -> Promise<string>, hasCamera()), with its two vendored libraries (321 KB),
 * loaded only when a code is shown or scanned. Through a constant, not a literal
 * dynamic import of a quoted path: the build's first-visit budget follows those. If it fails to load,
 * the copy-the-text path is the only one.
 */
const QR_PATH = "./qr.js";
const QR_MODULE = () => import(QR_PATH);

export async function qrModule() {
  if (!QR_MODULE) return null;
  try {
    return await QR_MODULE();
  } catch {
    return null;
  }
}

/** The code as a QR in `box` (when the QR module is there); else nothing. */
export async function showQR(box, code, label) {
  const qr = await qrModule();
  box.replaceChildren(...(qr ? [qr.renderCode(code, { label })] : []));
}

/**
 * "Escanear": offers the camera (when the QR module and a camera are there) beside `field`;
 * a scanned code fills the field and calls `then`.
 */
export async function offerScan(box, field, then) {
  const qr = await qrModule();
  if (!qr || !(await qr.hasCamera())) return;
  const b = el("button", { type: "button", class: "button secondary" }, t("friends.scan"));
  b.onclick = async () => {
    const view = el("div", { class: "friends-camera" });
    box.append(view);
    try {
      field.value = await qr.scanCode(view);
      then();
    } finally {
      view.remove();
    }
  };
  box.append(b);
}

/** Test mode (`?friends_log=1`): every message sent and received, for the tests to read. */
export function testLog() {
  if (typeof window === "undefined" || !new URLSearchParams(location.search).has("friends_log")) return null;
  window.__trucoFriendsLog ??= [];
  return window.__trucoFriendsLog;
}

// QR codes for the friends' table handshake (issue 31): the offer and answer codes travel
// from one phone's screen to the other's camera. This module and the two libraries it imports
// are loaded only when the friends' screen opens (a dynamic import there), never on the
// table's first visit; the service worker precaches them later with the rest of the build.
//
//   renderCode(text, {label})   -> an <svg> of the code (dark on white, quiet zone included)
//   scanCode(container, {signal}) -> Promise<string>: the camera until a code is read
//   decodeImageData(imageData)  -> string | null (the JavaScript decoder, synchronous)
//   decodeFile(file)            -> Promise<string | null> (a picked photo, when the camera is refused)
//   hasCamera()                 -> Promise<boolean>
//
// scanCode rejects with a ScanError whose `code` the caller turns into words:
// "no-camera", "denied", "busy", "failed", "interrupted" (the page was hidden), or with the
// signal's reason when the caller aborts.

import qrcode from "../vendor/qrcode-generator.js";
import jsQR from "../vendor/jsqr.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// The standard's quiet zone: 4 light modules around the code. Scanners look for it to find
// the finder patterns; without it a dark page edge glues onto the code.
const QUIET = 4;
// Error correction: M (15 %) while the code stays small; past this many modules L (7 %). A
// code on a screen suffers no print wear, so what matters once it grows is module size: a
// phone camera at arm's length resolves bigger modules more easily (a 600-character code
// is 85 modules wide at L, 97 at M).
const MAX_MODULES_AT_M = 57; // version 10
// The codes are base64url (or other plain ASCII); byte mode stores each character as one byte.
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export class ScanError extends Error {
  constructor(code, cause) {
    super(`QR scan: ${code}`, cause ? { cause } : undefined);
    this.name = "ScanError";
    this.code = code;
  }
}

// --- encoder ---------------------------------------------------------------------------

function makeCode(text, level) {
  const qr = qrcode(0, level); // 0: the smallest version that holds the text
  qr.addData(text, "Byte");
  qr.make();
  return qr;
}

/** The code of `text` as an <svg> built with DOM calls (the text never becomes markup):
 * one white square with one black path of the dark modules, in module units (viewBox), so it
 * scales crisply to whatever width the caller's CSS gives it. `data-modules` is the width
 * in modules, quiet zone included, for a caller that wants whole pixels per module. */
export function renderCode(text, { label } = {}) {
  if (typeof text !== "string" || !PRINTABLE_ASCII.test(text)) {
    throw new TypeError("renderCode: the text must be non-empty printable ASCII");
  }
  let qr = makeCode(text, "M");
  if (qr.getModuleCount() > MAX_MODULES_AT_M) qr = makeCode(text, "L");
  const count = qr.getModuleCount();
  const size = count + 2 * QUIET;
  // Each run of dark modules in a row is one rectangle of the path: a few KB for the
  // largest codes, against one element per module.
  const parts = [];
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; ) {
      if (!qr.isDark(row, col)) { col += 1; continue; }
      let end = col + 1;
      while (end < count && qr.isDark(row, end)) end += 1;
      parts.push(`M${col + QUIET} ${row + QUIET}h${end - col}v1h${col - end}z`);
      col = end;
    }
  }
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("class", "qr-code");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label || "QR code");
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.modules = String(size);
  // Dark on white in every colour scheme: a camera reads light-on-dark poorly (jsQR only
  // after a second, inverted pass), and forced colours (high contrast) must not repaint it.
  // Set through the CSSOM, which the pages' CSP (style-src 'self') allows.
  svg.style.forcedColorAdjust = "none";
  const back = document.createElementNS(SVG_NS, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("fill", "#fff");
  const dark = document.createElementNS(SVG_NS, "path");
  dark.setAttribute("d", parts.join(""));
  dark.setAttribute("fill", "#000");
  svg.append(back, dark);
  return svg;
}

// --- decoder ---------------------------------------------------------------------------

/** The text of the QR code in `imageData` (an ImageData or anything with data, width and
 * height), or null, with the JavaScript decoder (jsQR). Tries the light-on-dark reading
 * too, for a photo of a code on a dark screen. */
export function decodeImageData(imageData, { invert = true } = {}) {
  // Always pass inversionAttempts: jsQR 1.4.0 writes the options it is given into its own
  // defaults, so a call that leaves it out would inherit the previous call's choice.
  const found = jsQR(imageData.data, imageData.width, imageData.height,
                     { inversionAttempts: invert ? "attemptBoth" : "dontInvert" });
  return found && found.data ? found.data : null;
}

// A video frame or a photo, drawn on a canvas at most `maxSide` pixels on its longer side
// (jsQR's time grows with the pixels; a code needs only a few pixels per module).
function pixels(source, width, height, maxSide, canvas) {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(source, 0, 0, w, h);
  return ctx.getImageData(0, 0, w, h);
}

// The browser's own QR reader (Chrome on Android, Safari…), or null where it has none (then
// jsQR reads canvas frames). Headless Chromium on Linux has none.
async function nativeDetector() {
  if (typeof globalThis.BarcodeDetector !== "function") return null;
  try {
    const formats = await globalThis.BarcodeDetector.getSupportedFormats();
    return formats.includes("qr_code") ? new globalThis.BarcodeDetector({ formats: ["qr_code"] }) : null;
  } catch {
    return null;
  }
}

async function detectNative(detector, source) {
  try {
    const found = await detector.detect(source);
    return found.length && found[0].rawValue ? found[0].rawValue : null;
  } catch {
    return null; // a frame not ready yet, or a reader that failed: jsQR or the next frame
  }
}

/** The text of the QR code in a picked image file (a photo of the other phone's screen),
 * or null when none is found or the file is not an image. */
export async function decodeFile(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    const detector = await nativeDetector();
    const text = detector && (await detectNative(detector, bitmap));
    if (text) return text;
    const canvas = document.createElement("canvas");
    // A phone photo is 12 MP: first at a size that keeps a small code readable, then smaller,
    // which also evens out sensor noise and moiré.
    for (const side of [1600, 800]) {
      const found = decodeImageData(pixels(bitmap, bitmap.width, bitmap.height, side, canvas));
      if (found) return found;
    }
    return null;
  } finally {
    bitmap.close();
  }
}

// --- camera ----------------------------------------------------------------------------

/** Whether this page may use a camera and the device has one (before any permission
 * prompt: the devices' kinds are known, not their names). */
export async function hasCamera() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.enumerateDevices) return false; // not a secure context
  const policy = document.permissionsPolicy || document.featurePolicy;
  if (policy && policy.allowsFeature && !policy.allowsFeature("camera")) return false;
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.some((d) => d.kind === "videoinput");
  } catch {
    return false;
  }
}

async function openCamera() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new ScanError("no-camera");
  try {
    // "ideal": the back camera on a phone, whatever camera a laptop has.
    return await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
  } catch (err) {
    const name = err && err.name;
    if (name === "NotAllowedError" || name === "SecurityError") throw new ScanError("denied", err);
    if (name === "NotFoundError" || name === "OverconstrainedError") throw new ScanError("no-camera", err);
    if (name === "NotReadableError" || name === "AbortError") throw new ScanError("busy", err);
    throw new ScanError("failed", err);
  }
}

// Frames are read at most this often: enough for a hand-held phone, and jsQR on a phone
// takes tens of milliseconds a frame.
const SCAN_INTERVAL_MS = 150;
const FRAME_MAX_SIDE = 960;

/** Opens the camera (the back one on a phone), shows its picture in `container` (a <video>
 * of class "qr-video", which the caller's CSS sizes) and resolves with the first QR code's
 * text. The camera is stopped and the <video> removed on success, on `signal`'s abort and when
 * the page is hidden (rejecting with ScanError "interrupted": the caller offers to scan again). */
export async function scanCode(container, { signal } = {}) {
  if (signal) signal.throwIfAborted();
  const stream = await openCamera();
  const video = document.createElement("video");
  let stop = null;
  const stopped = new Promise((_, reject) => { stop = reject; });
  stopped.catch(() => {}); // only raced below
  const onAbort = () => stop(signal.reason);
  const onHide = (ev) => {
    if (ev.type === "pagehide" || document.visibilityState === "hidden") stop(new ScanError("interrupted"));
  };
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  window.addEventListener("pagehide", onHide);
  document.addEventListener("visibilitychange", onHide);
  try {
    if (signal) signal.throwIfAborted(); // aborted while the permission prompt was up
    if (document.visibilityState === "hidden") throw new ScanError("interrupted");
    video.className = "qr-video";
    video.muted = true;
    video.playsInline = true; // iOS: in the page, not full screen
    video.srcObject = stream;
    container.append(video);
    await Promise.race([video.play(), stopped]);
    const detector = await Promise.race([nativeDetector(), stopped]);
    const canvas = detector ? null : document.createElement("canvas");
    for (;;) {
      await Promise.race([nextFrame(video), stopped]);
      const started = performance.now();
      const text = detector
        ? await Promise.race([detectNative(detector, video), stopped])
        : decodeImageData(pixels(video, video.videoWidth, video.videoHeight, FRAME_MAX_SIDE, canvas), { invert: false });
      if (text) return text;
      const rest = SCAN_INTERVAL_MS - (performance.now() - started);
      if (rest > 0) await Promise.race([new Promise((r) => setTimeout(r, rest)), stopped]);
    }
  } finally {
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
    video.remove();
    if (signal) signal.removeEventListener("abort", onAbort);
    window.removeEventListener("pagehide", onHide);
    document.removeEventListener("visibilitychange", onHide);
  }
}

// The next new video frame (so a frame is never read twice), or a short wait where the
// browser lacks requestVideoFrameCallback.
function nextFrame(video) {
  if (video.requestVideoFrameCallback) return new Promise((r) => video.requestVideoFrameCallback(() => r()));
  return new Promise((r) => setTimeout(r, 50));
}

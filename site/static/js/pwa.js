// Offline play and updates: registers the service worker (dist/sw.js) and, when a new build
// has been downloaded in the background, offers "Nova versão disponível — Atualizar".
// Accepting lets the new build take over and reloads the page into it; the game in progress
// is in localStorage (saved at every move), so it is offered again after the reload.
// Until then this page keeps getting its own build's files (sw.js pins it), so nothing is
// mixed. Loaded by every page except embed.html, which lives in other sites' frames.

const SW_URL = new URL("../../sw.js", import.meta.url);
const SCOPE = new URL("../../", import.meta.url);
// How often an open page asks whether a new build was deployed.
const CHECK_EVERY_MS = 60 * 60 * 1000;

const bar = document.getElementById("update-bar");
let registration = null;
let accepted = false;
let lastCheck = 0;

function show(worker) {
  if (!bar) return;
  place();
  bar.hidden = false;
  bar.dataset.state = worker ? "waiting" : "active";
}

// A modal <dialog> makes the rest of the page inert (the start screen is one): the bar goes
// inside the topmost open modal dialog, where it can be clicked, and back when it closes.
function isModal(dialog) {
  try {
    return dialog.matches(":modal");
  } catch {
    return true; // a browser without :modal: an open dialog is most likely modal here
  }
}

// Dialogs in the order they opened (the last one is on top).
let opened = [];

function place() {
  const open = [...document.querySelectorAll("dialog[open]")].filter(isModal);
  opened = opened.filter((d) => open.includes(d));
  for (const d of open) if (!opened.includes(d)) opened.push(d);
  const host = opened.at(-1) || document.body;
  if (bar.parentElement !== host) host.append(bar);
}

if (bar) {
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.localName === "dialog" && r.target.open && !opened.includes(r.target)) opened.push(r.target);
    }
    if (!bar.hidden) place();
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["open"] });
}

function hide() {
  if (bar) bar.hidden = true;
}

/** A new build finished installing: offer it (only to a page some build already controls). */
function watchInstalling(worker) {
  if (!worker) return;
  const check = () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) show(worker);
  };
  worker.addEventListener("statechange", check);
  check();
}

function accept() {
  accepted = true;
  if (bar) bar.dataset.state = "updating";
  const worker = registration?.waiting;
  if (worker) {
    worker.postMessage({ type: "skip-waiting" });
    // `controllerchange` reloads the page once the new build has taken over.
  } else {
    // The new build already took over (another tab accepted it): a reload brings it here.
    location.reload();
  }
}

async function checkForUpdate() {
  if (!registration) return null;
  lastCheck = Date.now();
  try {
    await registration.update();
  } catch {
    // offline, or the server is down: try again later
  }
  return registration.waiting ? "waiting" : registration.installing ? "installing" : "current";
}

/** The build the controlling service worker serves (null when none controls this page). */
function controllerBuild() {
  const sw = navigator.serviceWorker?.controller;
  if (!sw) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (ev) => resolve(ev.data.build);
    sw.postMessage({ type: "build" }, [channel.port2]);
    setTimeout(() => resolve(null), 5000);
  });
}

/** Resolves when the page's engine is ready or has failed (at once on pages without one). */
function engineSettled(limitMs = 120_000) {
  // index.html: #app[data-engine-state]; the tutorial: <html data-engine> (engine_status.js).
  const el = document.querySelector("[data-engine-state]") ||
    (document.documentElement.dataset.engine ? document.documentElement : null);
  if (!el) return Promise.resolve();
  const attr = el.hasAttribute("data-engine-state") ? "data-engine-state" : "data-engine";
  const settled = () => !["loading", "idle", ""].includes(el.getAttribute(attr) || "");
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (settled()) finish();
    });
    const timer = setTimeout(finish, limitMs);
    function finish() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe(el, { attributes: true, attributeFilter: [attr] });
  });
}

async function register() {
  registration = await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.pathname, updateViaCache: "none" });
  if (registration.waiting && navigator.serviceWorker.controller) show(registration.waiting);
  watchInstalling(registration.installing);
  registration.addEventListener("updatefound", () => watchInstalling(registration.installing));
  lastCheck = Date.now();
}

if ("serviceWorker" in navigator && bar) {
  document.getElementById("update-accept")?.addEventListener("click", accept);
  document.getElementById("update-later")?.addEventListener("click", hide);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) {
      location.reload();
    } else if (registration?.active) {
      // Another tab accepted an update: this page still runs (and is served) its own build;
      // offer the reload that brings it up to date.
      show(null);
    }
  });
  // Registered once the page has loaded and its engine (if it has one) has finished loading,
  // so that the first visit downloads Pyodide once: the service worker then finds each file
  // in the HTTP cache (a 304). Started together, both would download the big files.
  const start = () =>
    engineSettled()
      .then(register)
      .catch((err) => console.warn(`service worker not registered: ${err.message}`));
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - lastCheck > CHECK_EVERY_MS) checkForUpdate();
  });
  setInterval(() => {
    if (document.visibilityState === "visible") checkForUpdate();
  }, CHECK_EVERY_MS);
}

// For the console and the tests.
window.__pwa = Object.freeze({
  get registration() {
    return registration;
  },
  get offered() {
    return !!bar && !bar.hidden;
  },
  checkForUpdate,
  controllerBuild,
  /** Resolves once a service worker is active and has cached the whole build. */
  ready: () => ("serviceWorker" in navigator ? navigator.serviceWorker.ready.then(() => true) : Promise.resolve(false)),
});

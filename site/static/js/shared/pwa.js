// Offline play and updates: registers the service worker (dist/sw.js) and, when a new build
// has been downloaded in the background, offers "Nova versão disponível — Atualizar".
// Accepting lets the new build take over and reloads the page into it; the game in progress
// is in localStorage (saved at every move), so it is offered again after the reload.
// Until then this page keeps getting its own build's files (sw.js pins it), so nothing is
// mixed. Loaded by every page except embed.html, which lives in other sites' frames.
//
// When: the service worker's precache must not compete with the page's own start, nor cost a
// reader who never starts the engine anything. So it is registered (on a first visit: the
// precache starts; on a repeat visit: the update check, sw.js only) when the page says so:
// - the table (#app[data-engine-state]): once a deal is on screen (#app[data-phase] is
//   human, bots or over) with the engine ready, or once the start screen (data-phase start,
//   or elsewhere: another tab has the game) has stood for START_SCREEN_MS with the engine ready;
// - the tutorial (#engine-status, <html data-engine>): once its engine is ready, i.e. it was
//   started (by a touch, or at once) and has loaded; an engine that is never started (or
//   fails) registers nothing;
// - any other page (the marcador): once it has loaded, for the shell only (the pages and
//   static/, ~1.4 MB in every language): it never asks for the engine's files.
// A page whose engine is ready wants the engine's groups too: that wish is stored (WANTS)
// before the registration, so the install takes them, and an older build's cache that lacks
// them is filled ("precache" message). On a page a service worker already controls, the
// update bar is wired at once (no request).
//
// For the console, the tests and the bench: window.__pwa (see the end of this file); its
// precached() resolves with the service worker's report of what it fetched and how.

const SW_URL = new URL("../../../sw.js", import.meta.url);
const SCOPE = new URL("../../../", import.meta.url);
const STATE_CACHE = "truco-sw-state";
const WANTS = new URL("__truco_sw/wants.json", SCOPE).href;
// How long the table's start screen stands, its engine ready, before the precache starts.
const START_SCREEN_MS = 3000;
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

/** What kind of page this is, for the registration: "table", "engine" or "plain". */
function pageKind() {
  if (document.querySelector("#app[data-engine-state]")) return "table";
  if (document.getElementById("engine-status") || document.documentElement.hasAttribute("data-engine")) return "engine";
  return "plain";
}

/** Resolves once `test()` holds, checked whenever one of `attrs` of `el` changes. */
function whenAttrs(el, attrs, test) {
  if (test()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (test()) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(el, { attributes: true, attributeFilter: attrs });
  });
}

/**
 * Resolves with what set the registration off ("deal", "start-screen", "engine-ready",
 * "load") once this page may start the precache; never on a page whose engine never
 * becomes ready.
 */
function registrationSignal(kind) {
  if (kind === "table") {
    const app = document.getElementById("app");
    // With the engine ready: a first visit's opening is dealt before it (table/openings.js),
    // and the precache must not share the line with the engine's own downloads.
    const dealt = () => ["human", "bots", "over"].includes(app.dataset.phase) && app.dataset.engineState === "ready";
    const waiting = () => ["start", "elsewhere"].includes(app.dataset.phase) && app.dataset.engineState === "ready";
    return new Promise((resolve) => {
      let timer = null;
      const check = () => {
        if (dealt()) {
          observer.disconnect();
          clearTimeout(timer);
          resolve("deal");
        } else if (waiting() && timer === null) {
          timer = setTimeout(() => {
            observer.disconnect();
            resolve("start-screen");
          }, START_SCREEN_MS);
        } else if (!waiting() && timer !== null) {
          clearTimeout(timer);
          timer = null;
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(app, { attributes: true, attributeFilter: ["data-phase", "data-engine-state"] });
      check();
    });
  }
  if (kind === "engine") {
    const html = document.documentElement;
    return whenAttrs(html, ["data-engine"], () => html.dataset.engine === "ready").then(() => "engine-ready");
  }
  return Promise.resolve("load");
}

/** Ask a service worker something; resolves with its reply (null after `ms`). */
function ask(worker, message, ms) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = ms ? setTimeout(() => resolve(null), ms) : null;
    channel.port1.onmessage = (ev) => {
      clearTimeout(timer);
      resolve(ev.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

let kind = "plain";
let signal = null;
let registeredAt = null;
let precacheState = "not started";
let precacheReport = null;
let registeredOnce = null;
const registered = new Promise((resolve) => {
  registeredOnce = resolve;
});

/**
 * The engine's groups are wanted from now on (by this build's worker and the next ones): those
 * of the start-up path this page's worker took (`<html data-engine-path>`, engine_boot.js), and
 * of any path an earlier page's took.
 */
async function wantEngine() {
  try {
    const cache = await caches.open(STATE_CACHE);
    const paths = new Set([document.documentElement.dataset.enginePath || "snapshot"]);
    try {
      const before = await (await cache.match(WANTS))?.json();
      if (Array.isArray(before?.paths)) before.paths.forEach((p) => typeof p === "string" && paths.add(p));
    } catch {
      // an unreadable wish: this page's path only
    }
    const wants = { engine: true, paths: [...paths].sort() };
    await cache.put(WANTS, new Response(JSON.stringify(wants), { headers: { "Content-Type": "application/json" } }));
  } catch (err) {
    // No Cache Storage (the browser refuses it): the service worker cannot work either.
    console.warn(`offline play not prepared: ${err.message}`);
  }
}

function wire(reg) {
  if (registration === reg) return;
  registration = reg;
  if (registration.waiting && navigator.serviceWorker.controller) show(registration.waiting);
  watchInstalling(registration.installing);
  registration.addEventListener("updatefound", () => watchInstalling(registration.installing));
}

async function register(engine) {
  if (engine) await wantEngine();
  registeredAt = performance.now();
  precacheState = "running";
  wire(await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.pathname, updateViaCache: "none" }));
  lastCheck = Date.now();
  registeredOnce(registration);
  // An already active build installed without the engine's files (a marcador visit): fill it.
  if (engine && registration.active && !registration.installing) {
    await ask(registration.active, { type: "precache" });
  }
}

/** The newest build's report once its precache is done: what it fetched, and how. */
async function precached() {
  const reg = await registered;
  for (;;) {
    const worker = reg.installing || reg.waiting || reg.active;
    if (!worker) return null;
    const answer = await ask(worker, { type: "precache-report" });
    // An install that failed (the worker went away): the next one's report.
    if (worker.state === "redundant" && (reg.installing || reg.waiting || reg.active) !== worker) continue;
    precacheReport = answer?.report || null;
    precacheState = answer?.ok && precacheReport?.complete ? "complete" : "failed";
    return precacheReport;
  }
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
  // A repeat visit: the update bar works at once (an update a previous visit downloaded).
  if (navigator.serviceWorker.controller) {
    navigator.serviceWorker.getRegistration(SCOPE.href).then((reg) => reg && wire(reg)).catch(() => {});
  }
  const start = () => {
    kind = pageKind();
    registrationSignal(kind)
      .then((why) => {
        signal = why;
        precacheState = "registering";
        return register(kind !== "plain");
      })
      .then(() => precached())
      .catch((err) => {
        precacheState = "failed";
        console.warn(`service worker not registered: ${err.message}`);
      });
  };
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
  /** "table", "engine" (tutorial) or "plain" (marcador): what the registration waits for. */
  get kind() {
    return kind;
  },
  /** What set the registration off ("deal", "start-screen", "engine-ready", "load"), or null. */
  get signal() {
    return signal;
  },
  /** performance.now() when the registration (and so the precache) started, or null. */
  get registeredAt() {
    return registeredAt;
  },
  /** "not started", "registering", "running", "complete" or "failed". */
  get precacheState() {
    return precacheState;
  },
  /**
   * Resolves, once registered and precached, with the service worker's report: {build,
   * groups, complete, all, bytes, transferred, started, finished (Date.now() in the worker),
   * files: {rel: {group, bytes, transferred, from: "http-cache" | "network" | "build <id>"}}}.
   * `transferred` is what went over the network (Resource Timing's transferSize; 0 for a
   * file from the HTTP cache), null where the browser does not tell.
   */
  precached,
  get offered() {
    return !!bar && !bar.hidden;
  },
  checkForUpdate,
  controllerBuild,
  /** Resolves once a service worker is active and has cached the whole build. */
  ready: () => ("serviceWorker" in navigator ? navigator.serviceWorker.ready.then(() => true) : Promise.resolve(false)),
});

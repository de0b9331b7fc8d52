// Service worker: the whole game offline after one visit, and clean updates.
//
// build.py writes it to dist/sw.js with the PRECACHE line below replaced by the build's files
// and their sha256, so its bytes change exactly when the build does (the browser's update
// check compares them).
//
// - Install: every file of the build goes into a cache of its own, "truco-build-<id>". A file
//   whose sha256 (and headers) an older build's cache already holds is copied from there;
//   any other is downloaded and checked against its sha256 (a file of another deploy is
//   refused, and the install fails rather than mix two builds; the browser tries again
//   later). No skipWaiting: an update waits until the page's "Atualizar" asks for it.
// - Fetch: each page is pinned to the build that served it (recorded when its navigation is
//   answered, and shared by every version of this worker), and so are the workers it starts;
//   their requests for files of the build are answered from that build's cache. Other
//   requests go to the network untouched.
// - Activate: the new build serves the pages loaded from now on; the pages that are still
//   open keep their build, whose cache is kept until the last of them is gone (a reload
//   gets the new build). So no page ever mixes two builds.

const PRECACHE = { build: "dev", headers: "", files: {} }; // replaced by build.py

const BUILD = PRECACHE.build;
const FILES = PRECACHE.files;
const PREFIX = "truco-build-";
const CACHE = PREFIX + BUILD;
const SCOPE = new URL(self.registration.scope);
// In each build's cache: that build's file list, for the next build to copy from.
const LISTING = new URL("__truco_sw/listing.json", SCOPE).href;
// The service worker's own state, shared by its versions: {active, retired, pins}.
const STATE_CACHE = "truco-sw-state";
const STATE = new URL("__truco_sw/state.json", SCOPE).href;
const DOWNLOADS_AT_ONCE = 4;
// After a navigation, the page it replaced is gone within a moment.
const CLEANUP_DELAY_MS = 3000;

const keyFor = (rel) => new URL(rel, SCOPE).href;

/** The build file a same-origin URL names ("" and "x/" are index pages, /tutorial is tutorial.html). */
function fileFor(url) {
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let rel;
  try {
    rel = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  } catch {
    return null;
  }
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  if (Object.hasOwn(FILES, rel)) return rel;
  if (!/\.[^/]*$/.test(rel) && Object.hasOwn(FILES, `${rel}.html`)) return `${rel}.html`;
  return null;
}

async function sha256Hex(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ------------------------------------------------------------------ state

let stateLock = Promise.resolve();

/** Run `fn(state)` with the stored state and store what it leaves (one at a time). */
function withState(fn) {
  const run = stateLock.then(async () => {
    const cache = await caches.open(STATE_CACHE);
    const response = await cache.match(STATE);
    let state = { active: null, retired: [], pins: {} };
    if (response) {
      try {
        state = { ...state, ...(await response.json()) };
      } catch {
        // unreadable: start over (at worst, an old cache is kept until the next activation)
      }
    }
    const result = await fn(state);
    await cache.put(STATE, new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }));
    stored = state.pins;
    return result;
  });
  stateLock = run.catch(() => {});
  return run;
}

// Pins (client id -> {build, at}) are read on every request: the stored ones are kept in
// memory (loaded when this worker starts, refreshed at each write), and the ones this worker
// just made are in `fresh` until they are stored.
let stored = null;
const fresh = new Map();
// A page whose navigation is under way is not among the open clients yet: a pin this young
// is not dropped for being closed (its page is answered from the cache at once).
const PIN_GRACE_MS = 10_000;

async function pinOf(clientId) {
  if (!clientId) return null;
  if (fresh.has(clientId)) return fresh.get(clientId);
  if (stored === null) {
    try {
      const response = await caches.match(STATE, { cacheName: STATE_CACHE });
      stored = (response && (await response.json()).pins) || {};
    } catch {
      stored = {};
    }
  }
  return stored[clientId]?.build || null;
}

function pin(clientId, build) {
  fresh.set(clientId, build);
  return withState((state) => {
    state.pins[clientId] = { build, at: Date.now() };
  }).then(() => fresh.delete(clientId));
}

// ------------------------------------------------------------------ install

self.addEventListener("install", (event) => {
  event.waitUntil(precache().catch((err) => {
    console.warn(`build ${BUILD} not installed: ${err.message}`);
    throw err;
  }));
});

/** Files of older builds' caches by sha256, when those were fetched with the same headers. */
async function reusable() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const listing = await caches.match(LISTING, { cacheName: name });
    if (!listing) continue;
    let old;
    try {
      old = await listing.json();
    } catch {
      continue;
    }
    if (old.headers !== PRECACHE.headers) continue;
    for (const [rel, sha] of Object.entries(old.files || {})) {
      if (!found.has(sha)) found.set(sha, { name, url: keyFor(rel) });
    }
  }
  return found;
}

/** The file from the network, checked against the build's sha256. */
async function download(rel, sha) {
  // First allow a revalidated copy from the HTTP cache (a 304 costs nothing), then insist.
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(keyFor(rel), { cache: mode, credentials: "same-origin" });
    if (!response.ok) throw new Error(`${rel}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    if ((await sha256Hex(body)) === sha) {
      // A fresh Response: never a redirected one (a page may not be answered with those).
      return new Response(body, { status: 200, statusText: "OK", headers: response.headers });
    }
  }
  throw new Error(`${rel} is not the file of build ${BUILD} (a newer deploy?)`);
}

async function precache() {
  const cache = await caches.open(CACHE);
  // Files already in (an install that was interrupted, then tried again) were checked then.
  const have = new Set((await cache.keys()).map((request) => request.url));
  const old = await reusable();
  const todo = Object.entries(FILES).filter(([rel]) => !have.has(keyFor(rel)));
  let next = 0;
  async function lane() {
    while (next < todo.length) {
      const [rel, sha] = todo[next++];
      const copy = old.get(sha);
      const response = copy && (await caches.match(copy.url, { cacheName: copy.name }));
      await cache.put(keyFor(rel), response || (await download(rel, sha)));
    }
  }
  await Promise.all(Array.from({ length: DOWNLOADS_AT_ONCE }, lane));
  await cache.put(LISTING, new Response(JSON.stringify({ build: BUILD, headers: PRECACHE.headers, files: FILES }),
    { headers: { "Content-Type": "application/json" } }));
}

// ------------------------------------------------------------------ activate

self.addEventListener("activate", (event) => {
  event.waitUntil(activate());
});

async function activate() {
  await withState((state) => {
    // The pages open now were pinned to the previous build when it served them: they stay.
    const previous = state.active;
    if (previous && previous !== BUILD && !state.retired.includes(previous)) state.retired.push(previous);
    state.active = BUILD;
    state.retired = state.retired.filter((b) => b !== BUILD);
  });
  await cleanup(true);
}

/**
 * Forget pins of closed pages and delete the caches no page uses any more. On activation,
 * every other cache of ours goes (older builds, interrupted installs); later, only retired
 * builds (never the cache of a newer build that is installing or waiting). Runs again once
 * the young pins of pages not open yet have aged.
 */
async function cleanup(activating = false) {
  const open = new Set((await self.clients.matchAll({ type: "all", includeUncontrolled: true })).map((c) => c.id));
  const names = await caches.keys();
  let again = 0;
  await withState(async (state) => {
    const now = Date.now();
    for (const [id, p] of Object.entries(state.pins)) {
      if (open.has(id)) continue;
      const age = now - (p?.at || 0);
      if (age >= 0 && age < PIN_GRACE_MS) again = Math.max(again, PIN_GRACE_MS - age);
      else delete state.pins[id];
    }
    const used = new Set([BUILD, ...Object.values(state.pins).map((p) => p?.build)]);
    for (const name of names) {
      if (!name.startsWith(PREFIX)) continue;
      const build = name.slice(PREFIX.length);
      if (used.has(build) || !(activating || state.retired.includes(build))) continue;
      await caches.delete(name);
    }
    state.retired = state.retired.filter((b) => used.has(b));
  });
  if (again) {
    await later(again + 100);
    await cleanup();
  }
}

// ------------------------------------------------------------------ fetch

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const rel = fileFor(new URL(request.url));
  if (rel === null) return; // not a file of the build: the network, as without us
  if (request.mode === "navigate") {
    // The new page is this build's; the page it replaces may have been the last one of an
    // older build: once it is gone, that build's cache can go.
    if (event.resultingClientId) event.waitUntil(pin(event.resultingClientId, BUILD).catch(() => {}));
    event.waitUntil(later(CLEANUP_DELAY_MS).then(() => cleanup()).catch(() => {}));
  }
  event.respondWith(respond(event, rel));
});

const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function respond(event, rel) {
  const request = event.request;
  let build = BUILD;
  if (request.mode !== "navigate") {
    build = (await pinOf(event.clientId)) || BUILD;
    // A worker is on the build of the page that starts it.
    if (event.resultingClientId && request.destination.endsWith("worker")) {
      pin(event.resultingClientId, build).catch(() => {});
    }
  }
  const key = keyFor(rel);
  const cached = (await caches.match(key, { cacheName: PREFIX + build })) ||
    (build !== BUILD && (await caches.match(key, { cacheName: CACHE })));
  if (cached) return cached;
  // Not cached (storage cleared by the browser): the network's file.
  return fetch(request);
}

// ------------------------------------------------------------------ messages

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "skip-waiting") {
    // The page's "Atualizar": take over; pages then reload into this build.
    self.skipWaiting();
  } else if (type === "build" && event.ports[0]) {
    event.ports[0].postMessage({ build: BUILD, files: Object.keys(FILES).length });
  }
});

// Service worker: the game offline after one visit, and clean updates.
//
// build.py writes it to dist/sw.js with the PRECACHE line below replaced by the build's files,
// their sha256 and their groups, so its bytes change exactly when the build does (the
// browser's update check compares them).
//
// - Groups (build.py's precache_group()): "shell" is every page in every language, static/
//   and the manifests; the other groups are the engine's files ("loader": Pyodide's loader
//   module, which both start-up paths import; "snapshot": the memory snapshot path's own
//   files; "pyodide": Pyodide's stock files and "fallback" the wheels, the wheel path's).
//   The shell is always precached; the engine's groups only once a page whose engine is
//   ready asked for them, and only those of the path its worker took (PRECACHE.paths: pwa.js
//   stores the wish in WANTS before it registers this worker, and posts "precache" to fill an
//   older build's cache that lacks them). So a marcador visit never downloads the engine, and
//   a browser that starts from the snapshot never downloads the wheel path's 13.5 MB.
// - Install: the wanted files go into a cache of its own, "truco-build-<id>". A file whose
//   sha256 (and headers) an older build's cache already holds is copied from there; any other
//   is fetched with `cache: "force-cache"`, so a file the page has just downloaded comes from
//   the browser's HTTP cache without a transfer, and checked against its sha256 (a stale or
//   foreign copy is fetched again, revalidated, then from the network; a file of another
//   deploy is refused, and the install fails rather than mix two builds; the browser tries
//   again later). No skipWaiting: an update waits until the page's "Atualizar" asks for it.
//   What was fetched, and how (HTTP cache, network, an older build), is kept in the cache's
//   listing and told to pages that ask ("precache-report", for window.__pwa and the bench).
// - Fetch: each page is pinned to the build that served it (recorded when its navigation is
//   answered, and shared by every version of this worker), and so are the workers it starts;
//   their requests for files of the build are answered from that build's cache. Other
//   requests (and files that build's cache lacks) go to the network untouched.
// - Activate: the new build serves the pages loaded from now on; the pages that are still
//   open keep their build, whose cache is kept until the last of them is gone (a reload
//   gets the new build). So no page ever mixes two builds.

const PRECACHE = { build: "dev", headers: "", files: {}, groups: {}, paths: {} }; // replaced by build.py

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
// In the same cache, written by the pages (pwa.js): {engine: true, paths: ["snapshot"]} once a
// page's engine was ready, with the start-up paths its workers took (all so far), so those
// paths' groups are precached (by this build and the next ones).
const WANTS = new URL("__truco_sw/wants.json", SCOPE).href;
// The group every install precaches; the others are the engine's.
const SHELL = "shell";
const GROUP_OF = new Map(Object.entries(PRECACHE.groups || {}).flatMap(([g, rels]) => rels.map((rel) => [rel, g])));
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

// The precache under way (install, or a later fill); "precache-report" waits for it.
let busy = Promise.resolve();
let installing = false;

self.addEventListener("install", (event) => {
  installing = true;
  busy = precache().finally(() => {
    installing = false;
  }).catch((err) => {
    console.warn(`build ${BUILD} not installed: ${err.message}`);
    throw err;
  });
  event.waitUntil(busy);
});

/**
 * The groups to precache: the shell, and the engine's once a page has asked for them: the
 * groups of each start-up path its workers took. An older build's cache with engine files
 * (a build from before the paths, whose player keeps the engine offline through the update)
 * counts as the snapshot path, as does a wish that names no path.
 */
async function wantedGroups(old) {
  const paths = new Set();
  if ([...old.values()].some((copy) => copy.engine)) paths.add("snapshot");
  try {
    const response = await caches.match(WANTS, { cacheName: STATE_CACHE });
    const wants = response ? await response.json() : null;
    if (wants?.engine) {
      const named = Array.isArray(wants.paths) ? wants.paths.filter((p) => p in PRECACHE.paths) : [];
      for (const path of named.length ? named : ["snapshot"]) paths.add(path);
    }
  } catch {
    // unreadable: the shell only (a page that needs the engine asks again)
  }
  const groups = new Set([SHELL]);
  const known = new Set(GROUP_OF.values());
  for (const path of paths) for (const g of PRECACHE.paths[path] || []) if (known.has(g)) groups.add(g);
  return [...groups].sort();
}

async function readListing(cacheName) {
  const listing = await caches.match(LISTING, { cacheName });
  if (!listing) return null;
  try {
    return await listing.json();
  } catch {
    return null;
  }
}

/** Files of older builds' caches by sha256, when those were fetched with the same headers. */
async function reusable() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await readListing(name);
    if (!old || old.headers !== PRECACHE.headers) continue;
    for (const [rel, sha] of Object.entries(old.files || {})) {
      if (!found.has(sha)) found.set(sha, { name, url: keyFor(rel), engine: (GROUP_OF.get(rel) || SHELL) !== SHELL });
    }
  }
  return found;
}

// Resource Timing tells how many bytes a fetch moved over the network (0 from the HTTP cache).
try {
  performance.setResourceTimingBufferSize(2000);
} catch {
  // no Resource Timing here: `transferred` is reported as null
}

function transferredBy(url, before) {
  try {
    const entries = performance.getEntriesByName(url, "resource").slice(before);
    if (!entries.length) return null;
    return entries.reduce((sum, e) => sum + (e.transferSize || 0), 0);
  } catch {
    return null;
  }
}

/**
 * The file, checked against the build's sha256, and what getting it cost: first whatever
 * the HTTP cache holds (the page downloaded it a moment ago: no transfer, whatever its
 * Cache-Control), then a revalidated copy, then the network's.
 */
async function download(rel, sha, pageURL = null) {
  const url = keyFor(rel);
  let transferred = 0;
  let from = "http-cache";
  // An open page that is this file (under another address: "/", "/tutorial", a query) is in
  // the HTTP cache under its own address: that copy first.
  const attempts = [["force-cache", url], ["no-cache", url], ["reload", url]];
  if (pageURL) attempts.unshift(["only-if-cached", pageURL]);
  for (const [mode, address] of attempts) {
    let seen = 0;
    try {
      seen = performance.getEntriesByName(address, "resource").length;
    } catch {
      // no Resource Timing
    }
    let response;
    try {
      response = await fetch(address, { cache: mode, mode: "same-origin", credentials: "same-origin" });
    } catch (err) {
      if (mode === "only-if-cached") continue; // not in the HTTP cache
      throw err;
    }
    if (!response.ok) {
      if (mode === "only-if-cached") continue;
      throw new Error(`${rel}: HTTP ${response.status}`);
    }
    const body = await response.arrayBuffer();
    const moved = transferredBy(address, seen);
    transferred = transferred === null || moved === null ? null : transferred + moved;
    if (moved) from = "network";
    if ((await sha256Hex(body)) === sha) {
      // A fresh Response: never a redirected one (a page may not be answered with those).
      const fresh = new Response(body, { status: 200, statusText: "OK", headers: response.headers });
      return { response: fresh, bytes: body.byteLength, transferred, from };
    }
  }
  throw new Error(`${rel} is not the file of build ${BUILD} (a newer deploy?)`);
}

/**
 * Put the wanted groups' files into this build's cache (an install, or a fill once a page
 * wants the engine), then its listing: the files it holds and how each was got.
 */
async function precache() {
  const started = Date.now();
  const old = await reusable();
  const groups = await wantedGroups(old);
  const cache = await caches.open(CACHE);
  const previous = (await readListing(CACHE)) || {};
  const report = previous.report || { files: {} };
  // Files already in (an install that was interrupted, then tried again, or filled before)
  // were checked then.
  const have = new Set((await cache.keys()).map((request) => request.url));
  // The open pages' addresses, by the file each is.
  const pages = new Map();
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    const rel = fileFor(new URL(client.url));
    if (rel && !pages.has(rel)) pages.set(rel, client.url.split("#")[0]);
  }
  const todo = Object.entries(FILES).filter(([rel]) => groups.includes(GROUP_OF.get(rel) || SHELL) &&
                                                        !have.has(keyFor(rel)));
  if (!todo.length && previous.report) return previous.report;
  let next = 0;
  async function lane() {
    while (next < todo.length) {
      const [rel, sha] = todo[next++];
      const group = GROUP_OF.get(rel) || SHELL;
      const copy = old.get(sha);
      const copied = copy && (await caches.match(copy.url, { cacheName: copy.name }));
      if (copied) {
        const bytes = Number(copied.headers.get("Content-Length")) || null;
        await cache.put(keyFor(rel), copied);
        report.files[rel] = { group, bytes, transferred: 0, from: `build ${copy.name.slice(PREFIX.length)}` };
      } else {
        const got = await download(rel, sha, pages.get(rel));
        await cache.put(keyFor(rel), got.response);
        report.files[rel] = { group, bytes: got.bytes, transferred: got.transferred, from: got.from };
      }
    }
  }
  await Promise.all(Array.from({ length: DOWNLOADS_AT_ONCE }, lane));
  const cached = new Set((await cache.keys()).map((request) => request.url));
  const files = Object.fromEntries(Object.entries(FILES).filter(([rel]) => cached.has(keyFor(rel))));
  const sum = (key) => Object.values(report.files).reduce(
    (total, f) => (total === null || f[key] === null ? null : total + f[key]), 0);
  Object.assign(report, {
    build: BUILD,
    groups,
    started: report.started || started,
    finished: Date.now(),
    // Every file of the wanted groups is in; `all`: every file of the build is.
    complete: Object.keys(FILES).every((rel) => !groups.includes(GROUP_OF.get(rel) || SHELL) || rel in files),
    all: Object.keys(files).length === Object.keys(FILES).length,
    bytes: sum("bytes"),
    transferred: sum("transferred"),
  });
  await cache.put(LISTING, new Response(JSON.stringify({ build: BUILD, headers: PRECACHE.headers, files, report }),
    { headers: { "Content-Type": "application/json" } }));
  return report;
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
  const reply = event.ports[0];
  if (type === "skip-waiting") {
    // The page's "Atualizar": take over; pages then reload into this build.
    self.skipWaiting();
  } else if (type === "build" && reply) {
    reply.postMessage({ build: BUILD, files: Object.keys(FILES).length });
  } else if (type === "precache") {
    // A page now wants the engine (its wish is in WANTS): this build's cache gets the groups
    // it lacks (none when its install already took them). Installing: the install does it.
    if (!installing) {
      busy = busy.catch(() => {}).then(precache);
    }
    event.waitUntil(busy.then(
      (report) => reply?.postMessage({ ok: true, report }),
      (err) => reply?.postMessage({ ok: false, error: err.message })));
  } else if (type === "precache-report" && reply) {
    // Once the precache under way is done: what this build's cache holds and how it got it.
    event.waitUntil(busy.catch(() => {}).then(() => readListing(CACHE)).then(
      (listing) => reply.postMessage({ ok: !!listing, report: listing?.report || null })));
  }
});

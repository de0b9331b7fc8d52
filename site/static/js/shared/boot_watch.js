// The page's own start-up never hangs without a word: until the page's module says it has
// started (`<html data-page-started>`, set by main.js, tutorial.js, embed.js, marcador.js
// once they have run), a failed script or a stall shows "Não foi possível carregar o jogo."
// with "Tentar de novo" (the page's scripts fetched again, then a reload). The engine's worker and its downloads have their own
// guard (engine_client.js, worker.js): once the page has started, this one is off.
//
// A classic script, loaded first in <head> (the CSP allows no inline script, and a module
// would depend on what it watches): it must run even when every module of the page fails.
// What it catches:
// - a module that cannot be fetched (missing, wrong Content-Type): `error` at its <script>
//   element (for a module deep in the import graph too: at the element that imports it);
// - a module that is cut short or throws: an `error` event at `window`;
// - a file that never comes: no download of the page has finished for STALL_MS.
// The texts come from this script's data attributes, rendered in the page's language.
(function () {
  "use strict";
  // Generous: on a slow link the worker's big downloads share the line with the page's files.
  var STALL_MS = 20000;
  // After an error, how long the page may still take to say it started (a script that
  // failed may be one the page does without, e.g. the service worker's): then the message.
  var GRACE_MS = 2500;
  var me = document.currentScript;
  var root = document.documentElement;
  var words = {
    title: me && me.dataset.title || "Não foi possível carregar o jogo.",
    text: me && me.dataset.text || "",
    retry: me && me.dataset.retry || "Tentar de novo",
  };
  var lastMove = Date.now();
  var timer = null;
  var box = null;
  var shown = false;
  var failure = "";
  var retrying = false;
  var borrowed = null; // the table's message, while ours is in it

  var started = function () { return root.hasAttribute("data-page-started"); };
  var ours = function (url) { return typeof url === "string" && url.indexOf(location.origin + "/") === 0; };

  function arm(ms) {
    clearTimeout(timer);
    timer = setTimeout(check, ms);
  }

  function check() {
    if (started()) return disarm();
    var idle = Date.now() - lastMove;
    if (failure || idle >= STALL_MS) show(failure || "stalled: no file of the page arrived for " + Math.round(idle / 1000) + " s");
    else arm(STALL_MS - idle);
  }

  function moved() {
    lastMove = Date.now();
  }

  function failed(why) {
    if (started() || failure) return;
    failure = why;
    arm(GRACE_MS);
  }

  function onError(ev) {
    if (started()) return;
    var target = ev.target;
    if (target && target.tagName === "SCRIPT") {
      if (ours(target.src)) failed("script failed to load: " + target.src);
    } else if (target === window && ours(ev.filename)) {
      failed((ev.message || "error") + " (" + ev.filename + ":" + ev.lineno + ")");
    }
  }

  // The retry: the page's scripts are downloaded again past the browser's cache first (a file
  // cut short or mistyped keeps its validators: a plain reload would get it back from the
  // cache on a 304), then the page is reloaded; 5 s at most for the refresh.
  function retry() {
    if (started() || retrying) return;
    retrying = true;
    var urls = [];
    var add = function (url) {
      if (ours(url) && /\.m?js(\?|$)/.test(url) && urls.indexOf(url) < 0) urls.push(url);
    };
    try {
      var entries = performance.getEntriesByType("resource");
      for (var i = 0; i < entries.length; i++) add(entries[i].name);
    } catch (e) {
      /* no resource timing: the page's own script elements still are known */
    }
    for (var j = 0; j < document.scripts.length; j++) add(document.scripts[j].src);
    var done = false;
    var reload = function () {
      if (done) return;
      done = true;
      location.reload();
    };
    if (typeof fetch !== "function") return reload();
    var refreshed = [];
    for (var k = 0; k < urls.length; k++) {
      refreshed.push(fetch(urls[k], { cache: "reload" }).then(function (r) { return r.arrayBuffer(); }).catch(function () {}));
    }
    Promise.all(refreshed).then(reload, reload);
    setTimeout(reload, 5000);
  }

  function show(why) {
    if (shown || started()) return;
    if (document.readyState === "loading") {
      // Once the markup is in ("interactive"; DOMContentLoaded waits for the modules, which
      // may never come).
      document.addEventListener("readystatechange", function () { show(why); }, { once: true });
      return;
    }
    shown = true;
    root.setAttribute("data-boot-failed", why);
    // The table's own message and its retry, where the page has them (index.html).
    var error = document.getElementById("error");
    var button = document.getElementById("retry");
    if (error && button) {
      var loading = document.getElementById("loading");
      if (loading) loading.hidden = true;
      var text = document.getElementById("error-text");
      var detail = document.getElementById("error-detail");
      borrowed = { text: text, detail: detail, was: [text && text.textContent, detail && detail.textContent], ours: [words.text, why] };
      if (text) text.textContent = words.text;
      if (detail) detail.textContent = why;
      button.addEventListener("click", retry);
      error.hidden = false;
      return;
    }
    box = document.createElement("div");
    box.className = "boot-failed";
    box.setAttribute("role", "alert");
    var title = document.createElement("p");
    title.className = "boot-failed-title";
    title.textContent = words.title;
    var p = document.createElement("p");
    p.textContent = words.text;
    var again = document.createElement("button");
    again.type = "button";
    again.className = "button";
    again.textContent = words.retry;
    again.addEventListener("click", retry);
    box.appendChild(title);
    box.appendChild(p);
    box.appendChild(again);
    document.body.insertBefore(box, document.body.firstChild);
  }

  // The page started after all (a slow module, e.g. a friend's guest.js that main.js waits
  // for): the table's message goes back to what its engine says (engine_progress.js keeps
  // the state in #app's data-engine-state), with its own texts.
  function giveBack() {
    var app = document.getElementById("app");
    var state = app && app.dataset.engineState;
    var error = document.getElementById("error");
    var loading = document.getElementById("loading");
    if (error) error.hidden = state !== "error";
    if (loading) loading.hidden = state !== "loading";
    if (borrowed.text && borrowed.text.textContent === borrowed.ours[0]) borrowed.text.textContent = borrowed.was[0];
    if (borrowed.detail && borrowed.detail.textContent === borrowed.ours[1]) borrowed.detail.textContent = borrowed.was[1];
    borrowed = null;
  }

  function disarm() {
    clearTimeout(timer);
    window.removeEventListener("error", onError, true);
    if (observer) observer.disconnect();
    if (box) box.remove();
    box = null;
    if (borrowed) giveBack();
    root.removeAttribute("data-boot-failed");
  }

  // Capturing: a <script> element's `error` does not bubble.
  window.addEventListener("error", onError, true);
  var observer = null;
  if (typeof PerformanceObserver === "function") {
    try {
      observer = new PerformanceObserver(moved);
      observer.observe({ type: "resource", buffered: true });
    } catch (e) {
      observer = null; // an old browser: the stall limit counts from the last event below
    }
  }
  document.addEventListener("DOMContentLoaded", moved);
  window.addEventListener("load", moved);
  new MutationObserver(function () {
    if (started()) disarm();
  }).observe(root, { attributes: true, attributeFilter: ["data-page-started"] });
  arm(STALL_MS);
})();

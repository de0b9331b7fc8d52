"""Browser helpers for the end-to-end tests: Chromium's settings, the console watch, pages
and tables opened in a context of their own, axe audits, the engine's start-up held, the
traffic of a page that waits for a touch. Playwright is imported only where it is used, so
`import helpers.browser` works without the browser tools."""

from __future__ import annotations

import contextlib

import os
import re
import time

import pytest

from helpers import ROOT

CHROMIUM = os.environ.get("TRUCO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
]
# The browser's language in every context unless a test sets `locale`: a first visit to a
# Portuguese page goes to /es/ or /en/ when the browser prefers Spanish or English
# (site/static/js/lang_redirect.js), and the tests mostly check the Portuguese pages.
DEFAULT_LOCALE = "pt-BR"
# Pyodide's start-up in a worker takes ~5 s on a quiet 2-core machine; leave room for a busy one.
ENGINE_TIMEOUT_MS = 120_000


class ConsoleWatch:
    """Collects console errors and uncaught page errors of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern] = []

    def watch(self, page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self._add(f"uncaught: {exc}"))
        page.on("crash", lambda _page: self._add("page crashed"))

    def allow(self, pattern: str) -> None:
        """Expect errors matching `pattern` (a regex searched in the text)."""
        self.allowed.append(re.compile(pattern))

    def _on_console(self, msg) -> None:
        if msg.type == "error":
            loc = msg.location or {}
            self._add(f"console.error: {msg.text} ({loc.get('url', '')}:{loc.get('lineNumber', '')})")

    def _add(self, text: str) -> None:
        if not any(p.search(text) for p in self.allowed):
            self.errors.append(text)

    def check(self) -> None:
        errors, self.errors = self.errors, []
        assert not errors, "browser console had errors:\n  " + "\n  ".join(errors)


AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_FAILING_IMPACTS = {"serious", "critical"}


def until(page, js, arg=None, timeout=30_000):
    """Wait until `js` is truthy, polling with evaluate (the CSP forbids eval-based waits)."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            value = page.evaluate(js, arg)
        except PlaywrightError as exc:  # a navigation in between: try again
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} ms waiting for: {js}")
        time.sleep(0.05)


def audit(page, axe_source: str, what: str, context=None) -> list[dict]:
    """Run axe on the page as it is now; fail on serious or critical violations.

    The pages keep their production CSP (no inline script), so axe is not added as a
    <script> tag: its source is evaluated through the DevTools protocol, which the CSP
    does not govern."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source)
    results = page.evaluate(
        """async (ctx) => {
             const r = await window.axe.run(ctx || document, { resultTypes: ["violations"] });
             return r.violations.map((v) => ({
               id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
             }));
           }""", context)
    bad = [v for v in results if v["impact"] in AXE_FAILING_IMPACTS]
    if bad:
        lines = [f"{what}: {len(bad)} serious/critical axe violation(s)"]
        for v in bad:
            lines.append(f"- [{v['impact']}] {v['id']}: {v['help']}")
            for n in v["nodes"][:8]:
                lines.append(f"    {n['target']}: {(n['summary'] or '').splitlines()[-1].strip()}")
        pytest.fail("\n".join(lines), pytrace=False)
    return results


# The viewport Playwright gives a context that names none; the tests written before
# new_page keep it (new_page's own default is 1280 x 800).
PLAYWRIGHT_VIEWPORT = {"width": 1280, "height": 720}


def new_page(browser, base_url, **kwargs):
    """A fresh context (1280 x 800 unless told) and page, its console watched
    (`page.console_watch.check()` at the end)."""
    kwargs.setdefault("viewport", {"width": 1280, "height": 800})
    context = browser.new_context(base_url=base_url, **kwargs)
    page = context.new_page()
    watch = ConsoleWatch()
    watch.watch(page)
    page.console_watch = watch
    return context, page


@contextlib.contextmanager
def watched_page(browser, base_url, **kwargs):
    """`new_page` for a `with` block: its context is closed at the end of the block, and the
    console checked when the block ended without an error."""
    context, page = new_page(browser, base_url, **kwargs)
    try:
        yield page
    finally:
        context.close()
    page.console_watch.check()


READY = "#app[data-engine-state=ready]"

# Records every message the worker sends the page, minus the opaque save blob.
RECORD_WORKER_MESSAGES = """
(() => {
  window.__workerMessages = [];
  const add = Worker.prototype.addEventListener;
  Worker.prototype.addEventListener = function (type, fn, opts) {
    if (type !== "message") return add.call(this, type, fn, opts);
    return add.call(this, type, (ev) => {
      const data = ev.data && typeof ev.data === "object" ? { ...ev.data } : ev.data;
      if (data && data.result && typeof data.result === "object" && "save" in data.result) {
        data.result = { ...data.result, save: "<opaque>" };
      }
      window.__workerMessages.push(JSON.stringify(data));
      return fn.call(this, ev);
    }, opts);
  };
})();
"""


def open_table(browser, base_url, path="/?fast=1", *, record_worker=False, permissions=(), **kwargs):
    """A table page (1280 x 800 unless told) loaded at `path` with its engine ready, for a
    module-scoped fixture: `yield from open_table(...)`. Closes it and checks its console."""
    context, page = new_page(browser, base_url, **kwargs)
    if permissions:
        context.grant_permissions(list(permissions))
    if record_worker:
        context.add_init_script(RECORD_WORKER_MESSAGES)
    page.goto(path)
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    yield page
    context.close()
    page.console_watch.check()


class EngineHold:
    """Holds the engine's start-up: requests matching `pattern` (Pyodide's WebAssembly binary
    unless told) wait until `release()`, so the page stays on "loading" as long as a test wants.
    Set up before `page.goto`."""

    WASM = "**/pyodide.asm.wasm*"  # either path's: snapshot/…wasm.xz or pyodide/…wasm

    def __init__(self, page, pattern: str = WASM):
        self.page, self.pattern, self.held = page, pattern, []
        page.route(pattern, self._hold)

    def _hold(self, route) -> None:
        self.held.append(route)

    def release(self) -> None:
        """Let the held requests (and any later ones) through."""
        held, self.held = self.held, []
        for route in held:
            route.continue_()
        self.page.unroute(self.pattern, self._hold)  # a request held meanwhile goes on too


# ------------------------------------------------------------------ pages that wait for a touch

# What a page downloads to run the engine: Pyodide, the snapshot, the wheels, the worker and
# its modules (engine/worker_*.js).
ENGINE_FILE = re.compile(r"/(pyodide|snapshot|wheels)/|/static/js/(engine/worker\w*|build_info)\.js")
# An untouched embed (or tutorial) on a server that compresses nothing (issue 26); issue 41's
# card art (card_art.js, cards.css: the pips and court figures the mini-tables draw) added
# about 13 kB to a tutorial that was then 388 kB. Issue 42's engine retry past the HTTP cache
# and the guest's words for a host's refusals (engine_client.js +2.2 kB, engine_boot.js +1.1 kB,
# the page's strings +1 kB) and issue 43's hreflang links took the English tutorial to 422 kB.
UNTOUCHED_BUDGET = 430_000
# How long an untouched page is watched for an engine download (the engine used to start at once).
WATCH_MS = 3_000


class Traffic:
    """Every request of a browser context, and the bytes of every response body (what a plain
    server sends: nothing compressed)."""

    def __init__(self, context):
        self.urls: list[str] = []
        self.sizes: list[tuple[str, int]] = []
        context.on("request", lambda r: self.urls.append(r.url))
        context.on("response", self._on_response)

    def _on_response(self, response):
        try:
            size = len(response.body())
        except Exception:  # a redirect has no body
            size = 0
        self.sizes.append((response.url, size))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.sizes)

    def engine_files(self) -> list[str]:
        return [u for u in self.urls if ENGINE_FILE.search(u)]


def watch_untouched(page, traffic):
    """Let an untouched page sit (an observation window, not a wait for something), then check
    that it started nothing of the engine and stayed within the budget."""
    page.wait_for_load_state("load")
    page.wait_for_timeout(WATCH_MS)
    assert traffic.engine_files() == []
    assert page.workers == []
    assert page.evaluate("document.documentElement.dataset.engine") == "idle"
    assert page.evaluate("document.documentElement.hasAttribute('data-engine-started')") is False
    assert traffic.total <= UNTOUCHED_BUDGET, sorted(traffic.sizes, key=lambda x: -x[1])[:8]


class TablesByDevice:
    """Loaded table pages shared by the parameters of a layout test: one per kind of device
    (the context options a resize cannot change: touch, a phone's viewport, the pixel ratio,
    reduced motion), resized to each screen size, instead of a fresh context and an engine
    start-up per size. For a module-scoped fixture: `yield TablesByDevice(...)`, then
    `.close()` (which checks each page's console)."""

    def __init__(self, browser, base_url, path="/?fast=1"):
        self.browser, self.base_url, self.path = browser, base_url, path
        self.open: dict[str, tuple] = {}

    def page(self, viewport: dict, **options):
        """The table for a device with these context options, its viewport set to `viewport`."""
        key = repr(sorted(options.items()))
        if key not in self.open:
            tables = open_table(self.browser, self.base_url, self.path, viewport=viewport, **options)
            self.open[key] = (tables, next(tables))
        page = self.open[key][1]
        if page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        return page

    def close(self) -> None:
        opened, self.open = self.open, {}
        for tables, _page in opened.values():
            next(tables, None)  # closes the context and checks the page's console


# localStorage with a quota (sessionStorage 'quota', in characters): setItem throws as a full
# storage does when the stored keys and values would pass it. An init script.
QUOTA_STORAGE = """
(() => {
  const realSetItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    const limit = Number(sessionStorage.getItem('quota'));
    if (this === localStorage && limit) {
      let used = 0;
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k !== key) used += k.length + localStorage.getItem(k).length;
      }
      if (used + String(key).length + String(value).length > limit) {
        throw new DOMException('full', 'QuotaExceededError');
      }
    }
    return realSetItem.call(this, key, value);
  };
})();
"""

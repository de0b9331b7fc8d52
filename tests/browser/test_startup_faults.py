"""Start-up never hangs: every start-up file, aborted, answered 404 or never answered (a
route that never fulfils; the worker's stall limit is set short with `?stall=MS`), ends in
the wheel path (a file of the snapshot path: the page never shows an error) or in the
page's message with "Tentar de novo", whose retry reaches a ready engine once the fault is
gone. A wrong Content-Type on Pyodide's WebAssembly is compiled from a buffer instead. On a
slow link the progress bar follows the bytes and a download that keeps moving never times out.

Kept fast: faults of the snapshot path are checked up to the fallback's first request (one
of them to a ready engine); the faults that end in the message are chained on one page, each
retry meeting the next fault.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import threading
import time

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, ConsoleWatch

STALL_MS = 1500
# Stall detection takes STALL_MS after the last byte anywhere, checked every STALL_MS / 4.
FAULT_TIMEOUT_MS = 30_000

SNAPSHOT_PATH_FILES = {
    "snapshot": "**/snapshot/engine.snapshot.xz",
    "wasm.xz": "**/snapshot/pyodide.asm.wasm.xz",
    "loader.xz": "**/snapshot/pyodide.asm.mjs.xz",
    "decoder": "**/static/js/vendor/xz-decompress.js",
}
# Pyodide's loader module: both paths need it.
LOADERS = {
    "pyodide.mjs": "**/pyodide/pyodide.mjs",
}
# The wheel path's own files (the snapshot path has Emscripten's module xz'd: loader.xz above).
WHEEL_PATH_FILES = {
    "pyodide.asm.mjs": "**/pyodide/pyodide.asm.mjs",
    "pyodide.asm.wasm": "**/pyodide/pyodide.asm.wasm",
    "python_stdlib.zip": "**/pyodide/python_stdlib.zip",
}
FAULTS = ("abort", "404", "hang")
# CI's 15 minutes: a 404 takes the path an aborted download takes (a failed fetch of the same
# file); the xz'd loader's abort the path every other snapshot file's abort takes.
SOAK_FAULTS = {("*", "404"), ("loader.xz", "abort")}


def snapshot_fault_params():
    for name in SNAPSHOT_PATH_FILES:
        for fault in FAULTS:
            soak = ("*", fault) in SOAK_FAULTS or (name, fault) in SOAK_FAULTS
            yield pytest.param(name, fault, marks=pytest.mark.soak) if soak else pytest.param(name, fault)


def fault_handler(fault: str, held: list):
    def handle(route):
        if fault == "abort":
            route.abort("connectionreset")
        elif fault == "404":
            route.fulfill(status=404, body="not here", headers={"Content-Type": "text/plain"})
        else:  # never answered (released with the page's context)
            held.append(route)
    return handle


class Page:
    def __init__(self, browser, base_url):
        self.context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.watch = ConsoleWatch()
        self.watch.watch(self.page)
        self.requests: list[str] = []
        self.engine_logs: list[str] = []
        self.held: list = []
        self.page.on("request", lambda req: self.requests.append(req.url))
        self.page.on("console", lambda msg: self.engine_logs.append(msg.text) if msg.text.startswith("[engine]") else None)

    def wait_log(self, text: str, timeout_ms: int = 10_000) -> None:
        """Until an `[engine]` console line contains `text` (console messages arrive on their
        own, after the requests the page made around them)."""
        deadline = time.monotonic() + timeout_ms / 1000
        while not any(text in line for line in self.engine_logs):
            assert time.monotonic() < deadline, (text, self.engine_logs)
            self.page.wait_for_timeout(50)  # lets Playwright deliver the page's events

    def fault(self, pattern: str, fault: str) -> None:
        self.page.route(pattern, fault_handler(fault, self.held))

    def close(self) -> None:
        self.context.close()
        self.watch.check()


@pytest.mark.parametrize(("name", "fault"), list(snapshot_fault_params()))
def test_a_fault_on_the_snapshot_path_falls_back_to_the_wheel(browser, base_url, name, fault):
    loaded = Page(browser, base_url)
    try:
        loaded.fault(SNAPSHOT_PATH_FILES[name], fault)
        page = loaded.page
        with page.expect_request("**/pyodide/pyodide.asm.wasm", timeout=FAULT_TIMEOUT_MS):
            page.goto(f"/?fast=1&stall={STALL_MS}")
        loaded.wait_log("snapshot not used")
        if fault == "hang":
            # The stall watch gave up on it. (The fallback's whole start to a ready engine is
            # test_snapshot's, a missing and a truncated snapshot, and the wheel path's test below.)
            loaded.wait_log("no byte received")
        expect(page.locator("#error")).to_be_hidden()
    finally:
        loaded.close()


@pytest.mark.parametrize("fault", [pytest.param("missing", marks=pytest.mark.soak), "hang"])
def test_a_fault_of_the_snapshots_decoding_worker_leaves_the_decoding_to_the_engine_worker(browser, base_url, fault):
    """The snapshot is decoded beside the engine worker, by a worker of its own (xz_job.js);
    when that worker's script fails or never comes, the engine worker decodes the snapshot
    itself: still the snapshot path, no message. (A hang costs two seconds after the download.)"""
    loaded = Page(browser, base_url)
    try:
        # (Playwright's routes do not see a worker's own workers: the worker's test hooks
        # point it at a missing script, or at one that never says it started.)
        page = loaded.page
        page.goto(f"/?fast=1&stall={STALL_MS}&fail={ {'missing': 'xz-job', 'hang': 'xz-job-hang'}[fault] }")
        page.wait_for_selector(READY, timeout=FAULT_TIMEOUT_MS)
        assert page.evaluate("window.__engine.start") == "snapshot"
        loaded.wait_log("decoded in the engine worker")
        assert not any("snapshot not used" in line for line in loaded.engine_logs)
        expect(page.locator("#error")).to_be_hidden()
    finally:
        loaded.close()


def retry_chain(loaded: Page, query: str, faults: list[tuple[str, str]]) -> None:
    """Meet each fault in turn: the message, then a retry that meets the next one."""
    page = loaded.page
    for i, (pattern, fault) in enumerate(faults):
        loaded.fault(pattern, fault)
        if i == 0:
            page.goto(query)
        else:
            page.get_by_role("button", name="Tentar de novo").click()
        expect(page.locator("#error")).to_be_visible(timeout=FAULT_TIMEOUT_MS)
        expect(page.locator(".error-title")).to_have_text("Não foi possível carregar o jogo.")
        expect(page.locator("#error-text")).to_contain_text("Python")
        assert page.evaluate("window.__engine.state") == "failed", (pattern, fault)
        page.unroute(pattern)


def test_faults_of_pyodides_loader_end_in_the_message_and_the_retry_works(browser, base_url):
    """Both paths need Pyodide's loader module: no fallback, the message at once."""
    loaded = Page(browser, base_url)
    # Each retry downloads the worker's scripts again from the page first (engine_boot.js), so
    # the page's console shows the next fault too.
    loaded.watch.allow(r"Failed to load resource: .*\(http://[^)]*/pyodide/pyodide\.mjs:0\)$")
    try:
        retry_chain(loaded, f"/?fast=1&stall={STALL_MS}",
                    [(pattern, fault) for pattern in LOADERS.values() for fault in FAULTS])
        loaded.page.get_by_role("button", name="Tentar de novo").click()
        loaded.page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert loaded.page.evaluate("window.__engine.start") == "snapshot"
    finally:
        loaded.close()


def test_faults_of_the_wheel_path_end_in_the_message_and_a_wrong_mime_type_compiles(browser, base_url):
    """The wheel path (here at once, `?snapshot=0`; the same after a fallback): the stock
    WebAssembly and standard library. The last retry meets the WebAssembly served as
    text/plain, which streaming compilation refuses: it is compiled from a buffer."""
    loaded = Page(browser, base_url)
    # As above: a retry downloads the worker's modules (Emscripten's among them) again first.
    loaded.watch.allow(r"Failed to load resource: .*\(http://[^)]*/pyodide/pyodide\.asm\.mjs:0\)$")
    try:
        # (Emscripten's module: one fault, the loaders' test meets every fault of a module import;
        # a 404 takes the path an abort takes, as on the snapshot path.)
        retry_chain(loaded, f"/?fast=1&snapshot=0&stall={STALL_MS}",
                    [(pattern, fault) for name, pattern in WHEEL_PATH_FILES.items()
                     for fault in (("abort",) if name == "pyodide.asm.mjs" else ("abort", "hang"))])

        def wrong_type(route):
            response = route.fetch()
            route.fulfill(response=response, headers={**response.headers, "content-type": "text/plain"})
        loaded.page.route(WHEEL_PATH_FILES["pyodide.asm.wasm"], wrong_type)
        loaded.page.get_by_role("button", name="Tentar de novo").click()
        loaded.page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert loaded.page.evaluate("window.__engine.start") == "wheel"
        loaded.wait_log("streaming compile failed")
        assert loaded.page.evaluate("window.__engine.call('echo', {ok: 1})") == {"ok": 1}
    finally:
        loaded.close()


PROGRESS_RECORDER = """
window.__progress = [];
new MutationObserver(() => {
  const bar = document.getElementById("progress");
  const value = bar && Number(bar.getAttribute("aria-valuenow"));
  if (value && window.__progress[window.__progress.length - 1] !== value) window.__progress.push(value);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["aria-valuenow"]});
"""


def test_a_slow_link_moves_the_progress_bar_and_never_times_out(browser, base_url):
    """~7.5 MB at 24 Mbit/s: seconds of downloading, far past a stall limit of 700 ms, but
    moving all along: the snapshot path ends ready, the bar having followed the bytes."""
    loaded = Page(browser, base_url)
    try:
        page = loaded.page
        page.add_init_script(PROGRESS_RECORDER)
        cdp = loaded.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": 20, "downloadThroughput": 3_000_000, "uploadThroughput": 1_000_000})
        # what is measured is the engine's start, under the engine's own timeout: goto waits for
        # the navigation only, not for the page's load event under its 30 s (a fresh clone's CI
        # run on a busy 2-core machine once waited past it for that event, which passes in 2 s here)
        page.goto("/?fast=1&stall=700", wait_until="commit")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("window.__engine.start") == "snapshot", loaded.engine_logs
        assert not any("snapshot not used" in text for text in loaded.engine_logs)
        steps = page.evaluate("window.__progress")
        during_download = [v for v in steps if 5 < v < 90]
        assert len(during_download) >= 5, steps
        assert steps == sorted(steps)
    finally:
        loaded.close()


# --- The page's own start-up files (issue 42) ---------------------------------------------------
# A module of a page's import graph, or the worker script, stalled, missing, cut short or
# served with a wrong Content-Type: the page says so in its language, with "Tentar de novo".
# The page's watchdog (boot_watch.js) waits 20 s after the last file that arrived, and 2.5 s
# after a script's error; the engine client 20 s for the worker's first word: the page's clock
# is moved past them instead of waiting.

PAGE_FAULTS = ("hang", "404", "truncated", "wrong type")
FILES_TEXT = {
    "pt-BR": "Parte do jogo não chegou ao navegador.",
    "es": "Una parte del juego no llegó al navegador.",
    "en": "Part of the game did not reach the browser.",
}
RETRY = {"pt-BR": "Tentar de novo", "es": "Intentar de nuevo", "en": "Try again"}
WORKER = "**/static/js/engine/worker.js*"


def page_fault_handler(fault: str, held: list):
    def handle(route):
        if fault == "hang":
            held.append(route)
        elif fault == "404":
            route.fulfill(status=404, body="not here", headers={"Content-Type": "text/plain"})
        else:
            response = route.fetch()
            headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
            if fault == "truncated":
                body = response.body()
                headers, body = headers, body[: len(body) // 2]
            else:
                headers, body = {**headers, "content-type": "text/plain"}, response.body()
            try:
                route.fulfill(status=200, headers=headers, body=body)
            except PlaywrightError as error:
                # The retry fetches the page's scripts, then reloads: a fetch still on its way
                # here is cancelled by the reload and settled by Playwright meanwhile (seen in
                # CI). The page has moved on; what it does next is what the test checks.
                if "already handled" not in str(error):
                    raise
    return handle


def page_with_clock(browser, base_url) -> Page:
    loaded = Page(browser, base_url)
    # The faults' own traces in the console: what the browser says of a file that failed.
    for pattern in ("Failed to load", "SyntaxError", "Unexpected", "MIME type", "status of 404", "missing \\)", "Invalid"):
        loaded.watch.allow(pattern)
    loaded.page.clock.install()
    return loaded


def message_after_the_deadline(loaded: Page, lang: str) -> None:
    """Moves the page's clock on until the message shows (a file that arrived meanwhile
    restarts the stall count), and checks it speaks the page's language."""
    page = loaded.page
    message = page.get_by_text(FILES_TEXT[lang])
    for _ in range(10):
        if message.is_visible():
            break
        page.clock.fast_forward(21_000)
        page.wait_for_timeout(500)
    expect(message).to_be_visible(timeout=10_000)
    expect(page.get_by_role("button", name=RETRY[lang])).to_be_visible()


def retry_reaches_the_page(loaded: Page, lang: str) -> None:
    page = loaded.page
    page.get_by_role("button", name=RETRY[lang]).click()
    page.wait_for_function("() => document.documentElement.hasAttribute('data-page-started')", timeout=FAULT_TIMEOUT_MS)
    expect(page.get_by_text(FILES_TEXT[lang])).to_be_hidden()


def test_every_fault_of_the_tables_main_module_ends_in_the_message_and_the_retry_works(browser, base_url):
    """main.js stalled, missing, cut short, mistyped, in turn on one page (each retry meets
    the next fault); then the retry reaches the table and its engine. The worker script is
    refused meanwhile, so no reload tears down a starting engine (a crash of its own, issue 42)."""
    loaded = page_with_clock(browser, base_url)
    page = loaded.page
    main = "**/static/js/table/main.js"
    try:
        page.route(WORKER, page_fault_handler("404", loaded.held))
        for i, fault in enumerate(PAGE_FAULTS):
            page.route(main, page_fault_handler(fault, loaded.held))
            if i == 0:
                with page.expect_request(main):
                    page.goto("/?fast=1", wait_until="commit")
            else:  # the retry downloads the page's scripts again, then reloads
                with page.expect_navigation(wait_until="commit", timeout=FAULT_TIMEOUT_MS):
                    page.get_by_role("button", name="Tentar de novo").click()
            message_after_the_deadline(loaded, "pt-BR")
            expect(page.locator(".error-title")).to_have_text("Não foi possível carregar o jogo.")
            assert not page.evaluate("document.documentElement.hasAttribute('data-page-started')"), fault
            page.unroute(main)
        page.unroute(WORKER)
        retry_reaches_the_page(loaded, "pt-BR")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    finally:
        loaded.close()


# One fault per file: the worker-less modules of the table and the tutorial, in each language.
PAGE_FILE_CASES = [
    ("/en/?fast=1", "en", "**/static/js/engine/engine_boot.js", "404"),
    ("/es/?fast=1", "es", "**/static/js/table/table_screen.js", "truncated"),
    ("/?fast=1", "pt-BR", "**/static/js/shared/i18n.js", "wrong type"),
    ("/es/tutorial.html", "es", "**/static/js/tutorial/quiz.js", "hang"),
]


@pytest.mark.parametrize("url, lang, pattern, fault", PAGE_FILE_CASES,
                         ids=[f"{c[2].rsplit('/', 1)[1]}-{c[3]}" for c in PAGE_FILE_CASES])
def test_a_fault_of_a_page_module_ends_in_the_message_and_the_retry_works(browser, base_url, url, lang, pattern, fault):
    loaded = page_with_clock(browser, base_url)
    page = loaded.page
    try:
        page.route(WORKER, page_fault_handler("404", loaded.held))
        page.route(pattern, page_fault_handler(fault, loaded.held))
        with page.expect_request(pattern):
            page.goto(url, wait_until="commit")
        message_after_the_deadline(loaded, lang)
        page.unroute(pattern)
        retry_reaches_the_page(loaded, lang)
    finally:
        loaded.close()


@contextlib.contextmanager
def worker_cut_once(dist_dir):
    """A server of dist/ of its own whose first worker.js is cut short, with a year's max-age
    (a connection dropped mid-file behind a caching host or proxy); yields its base URL. Of
    its own: a response a Playwright route makes never enters the HTTP cache."""
    from truco_tools.serve import make_server

    server = make_server(dist_dir)
    served = []

    class CutOnce(server.RequestHandlerClass.func):
        def do_GET(self):
            if self.path.split("?")[0] != "/static/js/engine/worker.js" or served:
                return super().do_GET()
            body = (dist_dir / "static/js/engine/worker.js").read_bytes()
            body = body[: len(body) // 2]
            served.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
            http.server.BaseHTTPRequestHandler.end_headers(self)  # none of netlify.toml's headers
            self.wfile.write(body)

    server.RequestHandlerClass = functools.partial(CutOnce, directory=str(dist_dir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_worker_script_that_never_comes_ends_in_the_message_and_the_retry_works(browser, base_url):
    """worker.js never answered: the page has started, its engine client gives the worker
    20 s to say a word, then the table's message; the retry reaches a ready engine."""
    loaded = page_with_clock(browser, base_url)
    page = loaded.page
    try:
        page.route(WORKER, page_fault_handler("hang", loaded.held))
        with page.expect_request(WORKER):
            page.goto("/?fast=1", wait_until="commit")
        page.wait_for_function("() => document.documentElement.hasAttribute('data-page-started')")
        message_after_the_deadline(loaded, "pt-BR")
        assert page.evaluate("window.__engine.state") == "failed"
        page.unroute(WORKER)
        page.get_by_role("button", name="Tentar de novo").click()
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    finally:
        loaded.close()


def test_a_worker_script_cut_short_and_kept_in_the_http_cache_is_fetched_anew_by_the_retry(browser, dist_dir):
    """worker.js cut short, kept in the HTTP cache for a year: the worker fails at once, the
    table's message. The retry downloads the worker's scripts again past the HTTP cache, so it
    reaches a ready engine (a plain restart would get the cut copy back from the cache)."""
    with worker_cut_once(dist_dir) as url:
        loaded = Page(browser, url)
        loaded.watch.allow("SyntaxError|Unexpected|missing \\)|Invalid")
        page = loaded.page
        try:
            page.goto("/?fast=1")
            expect(page.locator("#error")).to_be_visible(timeout=FAULT_TIMEOUT_MS)
            assert page.evaluate("window.__engine.state") == "failed"
            page.get_by_role("button", name="Tentar de novo").click()
            page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        finally:
            loaded.close()


def test_a_module_that_comes_after_the_message_takes_the_page_on(browser, base_url):
    """Slow, not lost: main.js arrives after the message; the page starts and shows what its
    engine says instead (here the worker script was refused: the engine's own message), and
    that message's retry is the engine's (no reload) and reaches a ready engine."""
    loaded = page_with_clock(browser, base_url)
    page = loaded.page
    main = "**/static/js/table/main.js"
    try:
        page.route(WORKER, page_fault_handler("404", loaded.held))
        page.route(main, page_fault_handler("hang", loaded.held))
        with page.expect_request(main):
            page.goto("/?fast=1", wait_until="commit")
        message_after_the_deadline(loaded, "pt-BR")
        for route in loaded.held:
            route.continue_()
        page.wait_for_function("() => document.documentElement.hasAttribute('data-page-started')")
        expect(page.locator("html")).not_to_have_attribute("data-boot-failed", re.compile(".*"))
        expect(page.locator("#error")).to_have_attribute("data-stage", re.compile("^(worker|files)$"))
        expect(page.locator("#loading")).to_be_hidden()
        page.unroute(WORKER)
        page.evaluate("window.__sameDocument = true")
        page.get_by_role("button", name="Tentar de novo").click()
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("window.__sameDocument === true")
    finally:
        loaded.close()

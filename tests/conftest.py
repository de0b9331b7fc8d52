"""Shared fixtures: the built dist/, a static server for it, Debian's Chromium for
pytest-playwright, and a watch on the browser console.

Only the standard library is imported here, so engine tests run without the browser tools.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
CHROMIUM = os.environ.get("TRUCO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
]
# Pyodide's start-up in a worker takes ~5 s on a quiet 2-core machine; leave room for a busy one.
ENGINE_TIMEOUT_MS = 120_000


def run_build(env: dict | None = None) -> subprocess.CompletedProcess:
    """`python build.py` as a user runs it; fails the test with its output on error."""
    proc = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"build.py failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    """dist/, built once per session from the current sources (fast when nothing changed)."""
    run_build()
    return DIST


@pytest.fixture(scope="session")
def static_server(dist_dir):
    """dist/ served on 127.0.0.1 (a free port) from a thread; yields the base URL."""
    sys.path.insert(0, str(ROOT))
    try:
        from serve import serve_in_thread
    finally:
        sys.path.remove(str(ROOT))
    server, url = serve_in_thread(dist_dir)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(static_server) -> str:
    """pytest-playwright's base URL: `page.goto("/")` opens our index.html."""
    return static_server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium (Playwright's own browser download is not reachable)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (./run-tests does it)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session", autouse=True)
def _service_workers_blocked_by_default():
    """Browser contexts block service workers unless a test passes `service_workers="allow"`
    (tests/test_pwa.py does). Every page but the embed registers sw.js, which copies the
    whole build (~30 MB) into its cache: dozens of short-lived contexts doing that would
    only slow the other tests down, and Playwright's routes do not see requests a service
    worker answers."""
    try:
        from playwright.sync_api import Browser
    except ImportError:  # engine tests without the browser tools
        yield
        return
    new_context, new_page = Browser.new_context, Browser.new_page

    def blocked_context(self, *args, **kwargs):
        kwargs.setdefault("service_workers", "block")
        return new_context(self, *args, **kwargs)

    def blocked_page(self, *args, **kwargs):
        kwargs.setdefault("service_workers", "block")
        return new_page(self, *args, **kwargs)

    Browser.new_context, Browser.new_page = blocked_context, blocked_page
    yield
    Browser.new_context, Browser.new_page = new_context, new_page


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


@pytest.fixture
def console_errors(page):
    """Fails the test if the page logs a console error or throws; `.allow(regex)` expects one."""
    watch = ConsoleWatch()
    watch.watch(page)
    yield watch
    watch.check()


# ------------------------------------------------------------------- the table's helpers
# For tests that drive index.html through its hooks (window.__truco) with `?fast=1`.


def start(page, settings=None, scenario=None):
    page.evaluate("""([s, c]) => { (window.__workerMessages || []).splice(0);
                                   return window.__truco.start(s, c); }""", [settings or {}, scenario or {}])
    wait_turn(page, None)


def last_n(page):
    return page.evaluate("window.__truco.observation ? window.__truco.observation.log.at(-1).n : -1")


def wait_turn(page, before):
    """Wait until the human may act (or the match is over) after the event `before`."""
    page.wait_for_function(
        """(before) => {
             const o = window.__truco.observation, app = document.getElementById('app');
             if (!o || window.__truco.busy) return false;
             if (before !== null && o.log.at(-1).n === before) return false;
             return app.dataset.phase === 'human' || app.dataset.phase === 'over';
           }""",
        arg=before, timeout=90_000)


def obs(page):
    return page.evaluate("window.__truco.observation")


def phase(page):
    return page.locator("#app").get_attribute("data-phase")


def act(page, how="tap"):
    """Make one move as a person would: answer a raise / mão de dez by accepting, else play."""
    before = last_n(page)
    actions = page.locator("#actions button[data-action=accept]")
    if actions.count():
        if how == "keys":
            page.keyboard.press("a")
        else:
            actions.click()
    else:
        card = page.locator("#hand .card.in-hand:not([disabled])").first
        if how == "keys":
            card.focus()
            page.keyboard.press("1")
        elif how == "drag":
            drag_to(page, card, "#drop-zone")
        else:
            card.click()
    wait_turn(page, before)


def drag_to(page, card, target):
    box = card.bounding_box()
    dest = page.locator(target).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 9):  # real pointer moves, the card follows
        page.mouse.move(x + (dest["x"] + dest["width"] / 2 - x) * i / 8, y + (dest["y"] + dest["height"] / 2 - y) * i / 8)
    page.mouse.up()

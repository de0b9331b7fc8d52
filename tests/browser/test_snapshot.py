"""End to end in Chromium: the engine worker starts from the build's memory snapshot, and
falls back to the wheel (micropip + the engine wheel) when the snapshot cannot be used: the
file missing (HTTP 404), truncated, or made for another Pyodide build, or skipped with the
`?snapshot=0` test hook. The fallback is logged, never shown as an error, and the game is the
same: a seeded game gives the same deal and the same bot moves either way.

Every test loads Pyodide once (the wheel path is the slow one: tens of seconds on a busy
machine).
"""

from __future__ import annotations

import hashlib
import lzma
import re

import pytest
from playwright.sync_api import expect

from helpers import DIST
from helpers.browser import ENGINE_TIMEOUT_MS, READY, ConsoleWatch
from helpers.table import act, wait_turn

import truco

SNAPSHOT_ROUTE = "**/snapshot/engine.snapshot.xz"
# A seeded 1 x 1 game against the strongest bot (its choices draw on its seeded RNG).
SETTINGS = {"mode": "1x1", "level": "dificil"}
SCENARIO = {"seed": 4242}


class Loaded:
    """A page of the game, loaded until the engine is ready, with what it asked for and what
    the engine logged."""

    def __init__(self, browser, base_url, query="?fast=1", route=None, extra_routes=()):
        # No service worker: its precache (after ready) would fetch the files a second time.
        self.context = browser.new_context(base_url=base_url, service_workers="block",
                                           viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.watch = ConsoleWatch()
        self.watch.watch(self.page)
        self.engine_logs: list[tuple[str, str]] = []
        self.requests: list[str] = []
        self.page.on("console", self._on_console)
        self.page.on("request", lambda req: self.requests.append(req.url))
        if route is not None:
            self.page.route(SNAPSHOT_ROUTE, route)
        for pattern, handler in extra_routes:
            self.page.route(pattern, handler)
        self.page.goto("/" + query)
        self.page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)

    def _on_console(self, msg) -> None:
        if msg.text.startswith("[engine]"):
            self.engine_logs.append((msg.type, msg.text))

    @property
    def start(self) -> str:
        return self.page.evaluate("window.__engine.start")

    def asked_for(self, part: str) -> list[str]:
        return [url for url in self.requests if part in url]

    def fallback_warnings(self) -> list[str]:
        return [text for kind, text in self.engine_logs if "snapshot not used" in text]

    def close(self) -> None:
        self.context.close()
        self.watch.check()


def assert_ready_without_error(loaded: Loaded) -> None:
    page = loaded.page
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#engine-badge")).to_have_text(f"motor {truco.__version__}")
    assert page.evaluate("window.__engine.version") == truco.__version__
    assert page.evaluate("window.__engine.call('echo', {ok: [1, 'ç']})") == {"ok": [1, "ç"]}


def play_hands(page, hands=1, limit=80) -> list[dict]:
    """Start the seeded game and play `hands` whole hands as a person would (accept every
    raise, else tap the first card); returns the human's events (the observations' logs,
    merged) up to the last hand's end."""
    page.evaluate("([s, c]) => window.__truco.start(s, c)", [SETTINGS, SCENARIO])
    wait_turn(page, None)
    seen: dict[int, dict] = {}
    for _ in range(limit):
        log = page.evaluate("window.__truco.observation.log")
        seen.update((e["n"], e) for e in log)  # each log holds the events since the previous deal
        events = [seen[n] for n in sorted(seen)]
        ends = [i for i, e in enumerate(events) if e["type"] == "hand"]
        if len(ends) >= hands or page.locator("#app").get_attribute("data-phase") == "over":
            assert len(ends) >= hands, "the match ended before the hands were played"
            assert events[0]["type"] == "deal" and events[0]["n"] == 0, "every event from the first deal"
            return events[: ends[hands - 1] + 1]
        act(page)
    raise AssertionError("the hands did not end")


@pytest.fixture(scope="module")
def snapshot_page(browser, base_url):
    """The game as it normally starts: from the snapshot. Shared by the module."""
    loaded = Loaded(browser, base_url)
    yield loaded
    loaded.close()


@pytest.fixture(scope="module")
def snapshot_game(snapshot_page):
    """The seeded game's first two hands, played on the page that started from the snapshot."""
    return play_hands(snapshot_page.page, hands=2)


def test_the_page_starts_from_the_snapshot(snapshot_page):
    assert snapshot_page.start == "snapshot"
    assert_ready_without_error(snapshot_page)
    # The snapshot once; no wheel, no micropip: Python came up with the engine imported.
    assert len(snapshot_page.asked_for("/snapshot/engine.snapshot.xz")) == 1
    assert len(snapshot_page.asked_for("/snapshot/pyodide.asm.wasm.xz")) == 1
    assert not snapshot_page.asked_for("/wheels/")
    # Only the snapshot path's files: not Pyodide's stock WebAssembly, standard library or
    # lock file (the wheel path's).
    for stock in ("/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip", "/pyodide/pyodide-lock.json"):
        assert not snapshot_page.asked_for(stock), stock
    assert not snapshot_page.fallback_warnings()
    timings = snapshot_page.page.evaluate("window.__engine.timings")
    assert timings["ready"] >= timings["python"] and "micropip" not in timings
    # The xz decoders' working time is reported (the benchmark shows it beside the bytes).
    assert timings["snapshotDecodeMs"] > 0 and timings["wasmDecodeMs"] > 0
    # The snapshot was decoded beside the engine worker, by a worker of its own (xz_job.js).
    assert len(snapshot_page.asked_for("/static/js/engine/xz_job.js")) == 1
    assert not [text for _kind, text in snapshot_page.engine_logs if "decoded in the engine worker" in text]
    # Modules imported lazily by the api (the bots, the signals) are in the snapshot too.
    reply = snapshot_page.page.evaluate(
        "window.__engine.call('new_game', {players: 2, seed: 7, level: 'dificil', human_seat: 0})")
    assert reply["observation"]["hand_number"] == 1
    snapshot_page.watch.check()


def test_a_missing_snapshot_falls_back_and_plays_the_same_game(browser, base_url, snapshot_game):
    loaded = Loaded(browser, base_url, route=lambda route: route.fulfill(status=404, body="not here"))
    try:
        assert loaded.start == "wheel"
        assert_ready_without_error(loaded)
        warnings = loaded.fallback_warnings()
        assert warnings and "404" in warnings[0], loaded.engine_logs
        assert all(kind == "warning" for kind, text in loaded.engine_logs if "snapshot" in text)
        assert loaded.asked_for("/wheels/truco-")
        # The same seeded game, move for move: the same deals, the same bot decisions.
        assert play_hands(loaded.page, hands=2) == snapshot_game
    finally:
        loaded.close()
    assert any(e["type"] == "play" and e["seat"] == 1 for e in snapshot_game), "the bot played"


def test_a_truncated_snapshot_falls_back_and_a_hand_plays(browser, base_url, snapshot_game):
    data = (DIST / "snapshot/engine.snapshot.xz").read_bytes()
    cut = data[: len(data) * 2 // 3]
    loaded = Loaded(browser, base_url, route=lambda route: route.fulfill(
        status=200, body=cut, headers={"Content-Type": "application/octet-stream"}))
    try:
        assert loaded.start == "wheel"
        assert_ready_without_error(loaded)
        warnings = loaded.fallback_warnings()
        assert warnings and "not this build's" in warnings[0], loaded.engine_logs
        assert play_hands(loaded.page, hands=1) == first_hand(snapshot_game)
    finally:
        loaded.close()


def first_hand(log: list[dict]) -> list[dict]:
    """The events up to the end of the first hand."""
    first = next(i for i, e in enumerate(log) if e["type"] == "hand")
    return log[: first + 1]


@pytest.mark.soak  # the missing and truncated snapshots' fallbacks take the same path
def test_a_snapshot_of_another_pyodide_build_falls_back(browser, base_url):
    """A snapshot that passes the download checks (the hash build_info.js names) but was made
    by another Pyodide build: Pyodide refuses it inside loadPyodide(), and the worker starts
    again from the wheel."""
    raw = bytearray(lzma.decompress((DIST / "snapshot/engine.snapshot.xz").read_bytes()))
    raw[16:48] = bytes(32)  # the header's build id (after magic, offsets and a reserved word)
    packed = lzma.compress(bytes(raw), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, preset=0)
    info = (DIST / "static/js/build_info.js").read_text()
    patched = re.sub(r'"snapshotSha256": "[0-9a-f]{64}"',
                     f'"snapshotSha256": "{hashlib.sha256(packed).hexdigest()}"', info)
    assert patched != info
    loaded = Loaded(
        browser, base_url,
        route=lambda route: route.fulfill(status=200, body=packed),
        extra_routes=[("**/static/js/build_info.js", lambda route: route.fulfill(
            status=200, body=patched, headers={"Content-Type": "text/javascript"}))],
    )
    try:
        assert loaded.start == "wheel"
        assert_ready_without_error(loaded)
        warnings = loaded.fallback_warnings()
        assert warnings and "build id" in warnings[0], loaded.engine_logs
    finally:
        loaded.close()


def test_the_snapshot_test_hook_skips_the_download(browser, base_url):
    loaded = Loaded(browser, base_url, query="?fast=1&snapshot=0")
    try:
        assert loaded.start == "wheel"
        assert_ready_without_error(loaded)
        assert not loaded.asked_for("/snapshot/")
        assert not loaded.fallback_warnings()
        assert any("snapshot skipped" in text for kind, text in loaded.engine_logs)
        worker = [url for url in loaded.requests if "/static/js/engine/worker.js" in url]
        assert worker and all("snapshot=0" in url for url in worker)
    finally:
        loaded.close()

"""Re-opening the table while its engine starts never crashes the tab (issue 42).

An impatient player reloads, or opens the table again, while the start screen's bar moves.
Chromium stops the old page's engine worker with a task and forces the stop 2 s later; a
forced stop in the middle of the worker's xz decode (a long chain of promises) crashed the
tab's renderer: 4 of 20 re-opens at 0.2-3 s on a loaded 2-core machine before the worker's
decode returned to its event loop every 50 ms (site/static/js/engine/worker_xz.js). The full
stress (100 tries, delays to 3 s, reload / re-open / close) is bench/startup/reload_stress.py.

This is its small form for CI: 20 re-opens and reloads of one tab at spread delays, most of
them inside the decode (a crash shows ~2 s after the teardown, while a later try runs, or
at the end), then the table's engine ready and the match saved before untouched.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, watched_page
from helpers.table import accept_or_play_first, last_n, start, wait_turn

SESSION = "truco:session"
TRIES = 20
# Delays from the navigation's commit to the next one (s): spread over the start's first
# 0.75 s (the downloads, then the decode's start: a teardown early in the decode left the
# longest chain for Chromium's forced stop to land in), in an order mixing short and long.
DELAYS = [round(0.05 + 0.7 * ((i * 0.618034) % 1), 2) for i in range(TRIES)]


def test_reloads_and_reopens_during_the_engines_start_never_crash_the_tab(browser, base_url):
    crashes: list[float] = []
    t0 = time.monotonic()
    with watched_page(browser, base_url) as page:
        page.on("crash", lambda _page: crashes.append(time.monotonic() - t0))
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        start(page, {"mode": "1x1", "level": "medio"}, {"seed": 42})
        before = last_n(page)
        accept_or_play_first(page)
        wait_turn(page, before)
        saved = page.evaluate("(k) => localStorage.getItem(k)", SESSION)
        assert saved, "a match in progress is saved"

        for i, delay in enumerate(DELAYS):
            last = time.monotonic()
            try:
                if i % 2:
                    page.reload(wait_until="commit")
                else:  # the address bar, or a link back to the table
                    page.goto("/?fast=1", wait_until="commit")
                page.wait_for_timeout(delay * 1000)
            except Exception as exc:  # a crashed tab refuses every later step
                assert not crashes, f"the tab crashed at {crashes[0]:.1f} s (try {i}): {exc}"
                raise
            assert not crashes, f"the tab crashed at {crashes[0]:.1f} s (try {i}, {delay} s after the previous start)"

        # The last start runs to its end, and 4 s pass after the last teardown (a crash came
        # 2.2-3.9 s after it).
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        page.wait_for_timeout(max(0.0, 4.0 - (time.monotonic() - last)) * 1000)
        assert not crashes, f"the tab crashed at {crashes[0]:.1f} s"
        assert page.evaluate("(k) => localStorage.getItem(k)", SESSION) == saved, "the save is untouched"
        expect(page.get_by_role("button", name="Continuar partida")).to_be_visible()

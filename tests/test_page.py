"""End to end in Debian's Chromium: the page frame, the engine worker, the error path.

One browser for the session; Pyodide is loaded twice in all (the ready page, shared by the
module, and the retry after a forced failure).
"""

from __future__ import annotations

import re
import sys

import pytest
from playwright.sync_api import expect

from conftest import ENGINE_TIMEOUT_MS, READY, ROOT, ConsoleWatch

sys.path.insert(0, str(ROOT / "py"))
import truco  # noqa: E402



@pytest.fixture(scope="module")
def ready_page(browser, base_url):
    """One page on which the engine has loaded, shared by the tests of this module."""
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    watch = ConsoleWatch()
    watch.watch(page)
    page.goto("/")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.console_watch = watch
    yield page
    context.close()
    watch.check()


def test_frame_and_progress_show_before_the_engine_is_ready(page, console_errors):
    # Hold Pyodide's WebAssembly (the snapshot path's, xz'd): until it is released, the
    # engine cannot be ready.
    held = []
    page.route("**/snapshot/pyodide.asm.wasm.xz", lambda route: held.append(route))
    page.goto("/")
    expect(page.locator("h1")).to_have_text(re.compile("Truco Mineiro"))
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#progress")).to_be_visible()
    expect(page.locator("#progress-text")).to_have_text(re.compile(r"\w.*…"))
    page.wait_for_function("() => document.querySelector('#progress-text').textContent.includes('Python')")
    assert page.locator("#app").get_attribute("data-engine-state") == "loading"
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    expect(page.locator("#error")).to_be_hidden()
    for _ in range(300):  # the worker asks for the binary once the loader has run
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the worker did not ask for pyodide.asm.wasm.xz"
    assert page.locator("#app").get_attribute("data-engine-state") == "loading"
    # The felt table fills the width on a phone-sized screen too.
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("#table").bounding_box()
    assert box["width"] > 330 and box["height"] > 350
    # The held request is dropped with the page's context.


def test_worker_reports_ready_with_the_engine_version(ready_page):
    # Once the engine is ready, the loading panel gives way to the start screen.
    expect(ready_page.get_by_role("dialog", name="Nova partida")).to_be_visible()
    expect(ready_page.get_by_role("button", name="Começar")).to_be_focused()
    expect(ready_page.locator("#engine-version")).to_have_text(truco.__version__)
    expect(ready_page.locator("#engine-badge")).to_have_text(f"motor {truco.__version__}")
    expect(ready_page.locator("#progress")).to_be_hidden()
    assert ready_page.evaluate("window.__engine.version") == truco.__version__
    ready_page.console_watch.check()


def test_a_request_round_trips(ready_page):
    params = {"text": "truco! çãé", "n": [1, 2.5, None, True], "nested": {"a": {"b": []}}}
    assert ready_page.evaluate("(p) => window.__engine.call('echo', p)", params) == params
    assert ready_page.evaluate("window.__engine.call('version')") == {"version": truco.__version__}
    # Concurrent requests are matched to their replies by id.
    got = ready_page.evaluate("Promise.all([1, 2, 3].map((i) => window.__engine.call('echo', {i})))")
    assert got == [{"i": 1}, {"i": 2}, {"i": 3}]
    ready_page.console_watch.check()


def test_a_bad_request_is_rejected_with_the_engine_message(ready_page):
    error = ready_page.evaluate(
        """window.__engine.call('no_such_method', {}).then(
             () => null, (e) => ({name: e.name, message: e.message, type: e.errorType}))"""
    )
    assert error["name"] == "EngineError"
    assert error["type"] == "ValueError"
    assert "no_such_method" in error["message"]
    # The engine still answers afterwards.
    assert ready_page.evaluate("window.__engine.call('echo', {ok: 1})") == {"ok": 1}
    ready_page.console_watch.check()


def test_forced_failure_shows_the_message_and_retry_works(page, console_errors):
    page.goto("/?fail=pyodide")
    error = page.locator("#error")
    expect(error).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#app")).to_have_attribute("data-engine-state", "error")
    expect(page.locator(".error-title")).to_have_text("Não foi possível carregar o jogo.")
    expect(page.locator("#error-text")).to_contain_text("Python")
    expect(page.locator("#progress")).to_be_hidden()
    # Calls made while the engine is down are rejected, not left hanging.
    rejected = page.evaluate("window.__engine.call('echo', {}).then(() => 'resolved', (e) => e.name)")
    assert rejected == "EngineError"

    page.get_by_role("button", name="Tentar de novo").click()
    expect(page.locator("#error")).to_be_hidden()
    assert "fail=" not in page.url
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#engine-version")).to_have_text(truco.__version__)
    assert page.evaluate("window.__engine.call('echo', {again: true})") == {"again": True}

"""End to end in Debian's Chromium: the page frame, the engine worker, the error path.

One browser for the session; Pyodide is loaded twice in all (the ready page, shared by the
module, and the retry after a forced failure).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, PLAYWRIGHT_VIEWPORT, READY, ConsoleWatch, EngineHold, watched_page
from helpers.table import obs

import truco


@pytest.fixture(scope="module")
def ready_page(browser, base_url):
    """One page on which the engine has loaded, shared by the tests of this module."""
    with watched_page(browser, base_url, viewport=PLAYWRIGHT_VIEWPORT) as page:
        watch = page.console_watch
        page.goto("/")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        page.console_watch = watch
        yield page


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
    # The start screen comes back at once: it works while the engine loads again.
    expect(page.get_by_role("dialog", name="Nova partida")).to_be_visible()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#engine-version")).to_have_text(truco.__version__)
    assert page.evaluate("window.__engine.call('echo', {again: true})") == {"again": True}


# ------------------------------------------------------------- usable while loading (#26)
HAND = "#hand .card.in-hand"


def test_the_start_screen_works_while_the_engine_loads_and_comecar_deals_once_ready(page, console_errors):
    hold = EngineHold(page)
    page.goto("/?fast=1")
    start = page.get_by_role("dialog", name="Nova partida")
    expect(start).to_be_visible()
    expect(page.get_by_role("button", name="Começar")).to_be_focused()
    assert page.locator("#app").get_attribute("data-engine-state") == "loading"
    # It says the game is loading, and that Começar may be pressed anyway.
    expect(start.locator("#start-loading")).to_be_visible()
    expect(start.locator("#start-loading")).to_contain_text("Já dá para escolher e começar")
    expect(start.get_by_role("progressbar")).to_be_visible()
    # Settings respond and are kept.
    start.get_by_label("1 × 1").check()
    expect(page.locator("#partner-options")).to_be_hidden()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('truco:settings')).data.mode === '1x1'")
    start.locator("details.more summary").click()
    page.locator("#speed").select_option("rapido")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('truco:settings')).data.speed === 'rapido'")
    # The links out and the statistics work without the engine.
    expect(start.get_by_role("link", name="Aprenda as regras jogando")).to_have_attribute("href", "tutorial.html")
    expect(start.get_by_role("link", name=re.compile("marcador", re.I))).to_have_attribute("href", "marcador.html")
    start.get_by_role("button", name="Estatísticas e dados salvos").click()
    stats = page.get_by_role("dialog", name="Estatísticas")
    expect(stats.locator("[data-testid=stats-headline]")).to_have_text("Nenhuma partida terminada aqui ainda.")
    stats.get_by_role("button", name="Fechar").click()
    expect(start).to_be_visible()
    assert page.locator("#app").get_attribute("data-engine-state") == "loading"

    # Começar before the engine is ready: the table shows the loading, then deals by itself.
    page.get_by_role("button", name="Começar").click()
    expect(start).to_be_hidden()
    expect(page.locator("#progress")).to_be_visible()
    expect(page.locator("#progress-text")).to_have_text(re.compile(r"\w.*…"))
    expect(page.locator(HAND)).to_have_count(0)
    assert page.locator("#app").get_attribute("data-engine-state") == "loading"
    hold.release()
    expect(page.locator(HAND)).to_have_count(3, timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#progress")).to_be_hidden()
    o = obs(page)
    assert o["players"] == 2 and o["hand"] and len(o["hand"]) == 3, "the 1 x 1 chosen while loading"
    assert page.evaluate("window.__truco.pauses.bot") == 0  # ?fast=1


def test_a_failure_after_comecar_shows_the_retry_and_the_retry_deals(page, console_errors):
    # Hold the forced failure (a folder that does not exist) until Começar is pressed.
    hold = EngineHold(page, "**/pyodide-missing/**")
    page.goto("/?fail=pyodide&fast=1&mode=1x1")
    expect(page.get_by_role("dialog", name="Nova partida")).to_be_visible()
    page.get_by_role("button", name="Começar").click()
    expect(page.locator("#progress")).to_be_visible()
    hold.release()
    expect(page.locator("#error")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator(".error-title")).to_have_text("Não foi possível carregar o jogo.")
    expect(page.get_by_role("dialog", name="Nova partida")).to_be_hidden()
    page.get_by_role("button", name="Tentar de novo").click()
    # No other tap: the retry goes on to the deal that Começar asked for.
    expect(page.locator(HAND)).to_have_count(3, timeout=ENGINE_TIMEOUT_MS)
    expect(page.get_by_role("dialog", name="Nova partida")).to_be_hidden()
    assert obs(page)["players"] == 2


@pytest.mark.parametrize("hands", ["4c.4c.As-3c.2h.Kd", "9z.4c.As-3c.2h.Kd"], ids=["card-twice", "no-such-card"])
def test_a_link_to_an_impossible_deal_is_told_as_a_bad_link(page, console_errors, hands):
    """A card twice in `hands` (ValueError), or a card that does not exist (CardError, a
    subclass with a name of its own: issue 42): the engine refuses the match; the page says
    the link is at fault, not the engine, and the next "Começar" deals a match of its own."""
    page.goto(f"/?fast=1&autostart=1&mode=1x1&hands={hands}")
    notes = page.locator("#start-notes")
    expect(notes).to_contain_text("Este link não descreve uma partida possível", timeout=ENGINE_TIMEOUT_MS)
    expect(notes).not_to_contain_text("motor do jogo falhou")
    # In the page's own words: the engine's English reason goes to the console only.
    text = notes.inner_text()
    assert not re.search(r"\b(card|twice|dealt|is not|deck)\b", text), text
    page.get_by_role("button", name="Começar").click()
    page.wait_for_function("() => window.__truco?.observation?.hand?.length === 3", timeout=ENGINE_TIMEOUT_MS)


def test_a_shared_link_with_a_seed_too_long_for_a_number_still_deals_that_match(browser, base_url):
    """A 400-digit seed was Infinity in the page, sent as null: a random match each time."""
    seed = "7" * 400
    hands = []
    for _ in range(2):
        context = browser.new_context(base_url=base_url)
        try:
            page = context.new_page()
            watch = ConsoleWatch()
            watch.watch(page)
            page.goto(f"/?partida=1&seed={seed}&mode=1x1&level=facil&fast=1")
            page.wait_for_function("() => window.__truco?.observation?.hand?.length === 3", timeout=ENGINE_TIMEOUT_MS)
            hands.append(obs(page)["hand"])
            watch.check()
        finally:
            context.close()
    expected = truco.new_game(seed=seed, players=2).observation(0)["hand"]
    assert hands == [expected, expected]

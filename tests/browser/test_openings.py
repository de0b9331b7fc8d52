"""A first visit's cards in hand before the engine is ready (issue 43): "Começar" with the
start screen's defaults deals one of the page's openings (seat 0's view of a first deal, made
by the engine at build time; tests/engine/test_openings.py), the player decides on it at once,
and the decision is applied once the engine is up, followed by the bots' replies, in the very
match the engine deals."""

from __future__ import annotations

from playwright.sync_api import expect

from helpers.browser import ENGINE_FILE, ENGINE_TIMEOUT_MS, READY, EngineHold, watched_page
from helpers.table import obs

HAND = "#hand .card.in-hand:visible"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "pt-BR"}


def test_a_first_visit_decides_on_its_first_hand_while_the_engine_loads(browser, base_url):
    with watched_page(browser, base_url, **PHONE) as page:
        hold = EngineHold(page)  # the engine cannot be ready until released
        page.goto("/?fast=1")
        page.get_by_role("button", name="Começar").click()
        hand = page.locator(HAND)
        expect(hand).to_have_count(3)
        assert page.locator("#app").get_attribute("data-engine-state") == "loading"
        shown = obs(page)
        assert shown["seat"] == 0 and shown["to_move"] == 0
        # Seat 0's view only: the only faces on the page are its own three cards.
        faces = page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
        assert faces and set(faces) <= set(shown["hand"]), faces
        # The table says its answer is coming, and nothing covers the cards to choose from.
        expect(page.get_by_text("A mesa responde assim que o jogo terminar de carregar.")).to_be_visible()
        for i in range(3):
            box = hand.nth(i).bounding_box()
            on_top = page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('#hand .card.in-hand')",
                                   [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
            assert on_top, f"card {i} of the hand is under something"
        assert page.evaluate("document.scrollingElement.scrollHeight") <= 844
        # The decision, made before the engine exists: the card goes to the table at once.
        card = hand.first.get_attribute("data-card")
        hand.first.click()
        expect(hand).to_have_count(2)
        expect(page.locator('#trick .played[data-seat="0"] .card')).to_have_attribute("data-card", card)
        assert page.evaluate("localStorage.getItem('truco:session')") is None, "no save before the engine's"
        hold.release()
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        # Applied once, and a bot answered it: the player's turn again.
        page.wait_for_function("""() => {
            const log = window.__truco.observation.log;
            const mine = log.findIndex((e) => e.type === 'play' && e.seat === 0);
            return document.getElementById('app').dataset.phase === 'human' && !window.__truco.busy
                && mine >= 0 && log.slice(mine + 1).some((e) => e.seat !== undefined && e.seat !== 0);
        }""", timeout=ENGINE_TIMEOUT_MS)
        now = obs(page)
        assert [e["card"] for e in now["log"] if e["type"] == "play" and e["seat"] == 0][:1] == [card]
        # The engine's match is the page's, and it is saved.
        assert page.evaluate("window.__engine.call('observation', {})")["observation"] == now
        assert page.evaluate("JSON.parse(localStorage.getItem('truco:session')).data.save") is not None
        expect(page.get_by_text("A mesa responde assim que o jogo terminar de carregar.")).to_be_hidden()


# When the hand went into the DOM and when the page said it had started (`data-page-started`),
# on the page's clock: the engine's start (its `engine-start` mark) is timed against them.
MARK_FIRST_SCREEN = """
new MutationObserver((_, observer) => {
  if (document.querySelector('#hand [data-card]') && !performance.getEntriesByName('hand-in-dom').length) {
    performance.mark('hand-in-dom');
  }
  if (document.documentElement.hasAttribute('data-page-started') && !performance.getEntriesByName('page-started').length) {
    performance.mark('page-started');
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""
MARKS = """() => Object.fromEntries(['hand-in-dom', 'page-started', 'engine-start']
    .map((name) => [name, performance.getEntriesByName(name)[0]?.startTime ?? null]))"""


def test_a_first_visit_asks_for_the_engine_once_its_hand_is_drawn_a_return_visit_at_once(browser, base_url):
    """On a first visit the engine's downloads wait until the first hand is on screen (they
    would take the link from the page's own files); a return visit (a saved match) starts the
    engine with the page, as its first screen may need it."""
    with watched_page(browser, base_url, **PHONE) as page:
        page.add_init_script(MARK_FIRST_SCREEN)
        engine_files = []
        page.context.on("request", lambda r: engine_files.append(r.url) if ENGINE_FILE.search(r.url) else None)
        page.goto("/?autostart=1&fast=1")
        expect(page.locator(HAND)).to_have_count(3)
        page.wait_for_function("() => performance.getEntriesByName('engine-start').length > 0")
        marks = page.evaluate(MARKS)
        assert marks["engine-start"] > marks["hand-in-dom"], marks
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert any("/snapshot/" in url for url in engine_files)
        page.wait_for_function("() => localStorage.getItem('truco:session') !== null")
        # The same player comes back: the saved match's page starts the engine before its own
        # modules have run.
        page.reload()
        page.wait_for_function("() => performance.getEntriesByName('page-started').length > 0")
        marks = page.evaluate(MARKS)
        assert marks["engine-start"] is not None and marks["engine-start"] < marks["page-started"], marks

"""A first visit's cards in hand before the engine is ready (issue 43): "Começar" with the
start screen's defaults deals one of the page's openings (seat 0's view of a first deal, made
by the engine at build time; tests/engine/test_openings.py), the player decides on it at once,
and the decision is applied once the engine is up, followed by the bots' replies, in the very
match the engine deals."""

from __future__ import annotations

from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, EngineHold, watched_page
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

"""The cards' art, the backs to choose from and a face for every seat (issue 41, "Art").

What a person sees: each of the 40 cards of the truco deck (RULES.md §1: 4 5 6 7 Q J K A 2 3
of the four French suits) drawn at the smallest size the phone table uses, its index corner
clear of the drawing and different from every other card's; court figures on Q, J and K;
the back chosen in the start screen on every covered card, after a reload too, and the same
back for every card (it tells nothing); a face beside each seat's name.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, watched_page
from helpers.table import act, start, wait_turn

RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]  # RULES.md §1, weakest first
SUITS = {"c": "♣", "h": "♥", "s": "♠", "d": "♦"}
SETTINGS = "truco:settings"

# The 40 cards in a row each, at a size the page passes in (the cards' own modules draw them).
DRAW_DECK = """async ({ width, font }) => {
  const cards = await import('./static/js/shared/cards.js');
  const obs = { manilhas: [], rules: { manilha_names: [], vira: null } };
  const box = document.createElement('div');
  box.id = 'deck';
  box.style.cssText = 'position:fixed;inset:0;z-index:99999;background:#1e5c3a;display:flex;flex-wrap:wrap;gap:6px;padding:6px;align-content:flex-start';
  for (const s of 'chsd') for (const r of ['4','5','6','7','Q','J','K','A','2','3']) {
    const el = cards.cardElement(r + s, obs);
    el.style.width = width + 'px';
    el.style.fontSize = font + 'px';
    el.dataset.card = r + s;
    box.append(el);
  }
  document.body.append(box);
}"""

# For each drawn card: its corner's text, the corner's box, and the drawn shapes' boxes.
MEASURE_DECK = """() => [...document.querySelectorAll('#deck .card')].map((c) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const corner = c.querySelector('.corner.tl');
  const art = c.querySelector('.card-art');
  return {
    card: c.dataset.card, label: c.getAttribute('aria-label'),
    corner: corner.textContent, cornerBox: box(corner), rankBox: box(corner.querySelector('b')), cardBox: box(c),
    art: art.dataset.art, uses: [...art.querySelectorAll('use')].map((u) => ({ href: u.getAttribute('href'), box: box(u) })),
  };
})"""


def clip(box):
    x0, y0, x1, y1 = box  # less half a pixel each side: the edges' anti-aliasing
    return {"x": x0 + 0.5, "y": y0 + 0.5, "width": x1 - x0 - 1, "height": y1 - y0 - 1}


def smallest_table_card(page):
    """The smallest face-up card on the phone table (the opponents' played cards): its
    width and font size, as the table's CSS makes them at 360 x 640."""
    start(page, {"mode": "2x2"}, {"seed": 3})
    act(page)  # the player's card too: every seat has played in the first round
    sizes = page.evaluate("""() => [...document.querySelectorAll('#trick .card.face')].map((c) => {
      const s = getComputedStyle(c); return [c.getBoundingClientRect().width, parseFloat(s.fontSize)]; })""")
    assert sizes, "a card on the table"
    return min(sizes)


def test_every_card_has_its_own_readable_index_and_its_pips_or_figure(browser, base_url):
    with watched_page(browser, base_url, viewport={"width": 360, "height": 640}, device_scale_factor=2) as page:
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        width, font = smallest_table_card(page)
        assert width <= 50, f"the phone table's played cards are {width} px wide"
        page.evaluate(DRAW_DECK, {"width": width, "font": font})
        drawn = page.evaluate(MEASURE_DECK)
        assert len(drawn) == 40
        crops = {}
        for d in drawn:
            rank, suit = d["card"][0], d["card"][1]
            assert d["corner"] == rank + SUITS[suit], d
            assert d["label"], "the card's name is in its accessible name"
            # Readable: the rank is at least 9 px tall and inside the card.
            rank_h = d["rankBox"][3] - d["rankBox"][1]
            assert rank_h >= 9, f"{d['card']}: the index is {rank_h:.1f} px tall at {width} px"
            card, corner = d["cardBox"], d["cornerBox"]
            assert card[0] <= corner[0] and corner[2] <= card[2] and card[1] <= corner[1] and corner[3] <= card[3]
            # What is drawn: the real pip count, an ace, or the rank's court figure.
            hrefs = [u["href"] for u in d["uses"]]
            if rank in "QJK":
                assert d["art"] == f"court-{rank}" and hrefs.count(f"#court-{rank}") == 2, d  # both halves
            elif rank == "A":
                assert d["art"] == ("ace-espadilha" if suit == "s" else "ace"), d
                assert hrefs.count(f"#suit-{suit}") == 1
            else:
                assert d["art"] == f"pips-{rank}" and hrefs.count(f"#suit-{suit}") == int(rank), d
            # Distinct to the eye: the index corner's picture differs from every other card's.
            crops[d["card"]] = page.screenshot(clip=clip(d["cornerBox"]))
        assert len(set(crops.values())) == 40, f"only {len(set(crops.values()))} different index corners among the 40 cards"
        # Nothing of the drawing shows through an index corner: each looks the same without it.
        page.evaluate("() => { for (const a of document.querySelectorAll('#deck .card-art')) a.style.visibility = 'hidden'; }")
        for d in drawn:
            assert page.screenshot(clip=clip(d["cornerBox"])) == crops[d["card"]], f"{d['card']}: the drawing shows in its index"
        page.evaluate("() => { for (const a of document.querySelectorAll('#deck .card-art')) a.style.visibility = ''; }")
        # The figures are drawn, not empty: each court symbol has shapes, and they show.
        for rank in "QJK":
            assert page.evaluate(f"document.querySelectorAll('#court-{rank} > *').length") >= 8
        king = page.locator("#deck [data-card=Kh]")
        queen = page.locator("#deck [data-card=Qh]")
        assert king.screenshot() != queen.screenshot()


def test_the_chosen_back_and_face_show_at_the_table_and_survive_a_reload(browser, base_url):
    with watched_page(browser, base_url, viewport={"width": 390, "height": 844}) as page:
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        page.locator("details.more summary").click()
        back_of = "() => getComputedStyle(document.querySelector('.seat-cards .card.back')).backgroundImage"
        # The default: the wine-red back.
        page.locator("#start-button").click()
        wait_turn(page, None)
        wine = page.evaluate(back_of)
        assert "142, 36, 48" in wine, wine  # #8e2430
        page.get_by_role("button", name="Sair da mesa").click()
        page.get_by_role("button", name="Sair e perder").click()
        expect(page.locator("#start-form")).to_be_visible()
        if not page.locator("input[name=card_back]").first.is_visible():
            page.locator("details.more summary").click()
        page.get_by_label("Azul e dourado", exact=True).check()
        page.get_by_label("Boné azul", exact=True).check()
        assert json.loads(page.evaluate(f"localStorage.getItem('{SETTINGS}')"))["data"]["card_back"] == "azul"
        page.locator("#start-button").click()
        wait_turn(page, None)
        blue = page.evaluate(back_of)
        assert blue != wine and "36, 72, 138" in blue, blue  # #24488a
        assert page.locator(".me-label .avatar").get_attribute("data-avatar") == "p4"

        page.reload()
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        page.get_by_role("button", name="Continuar partida").click()
        wait_turn(page, None)
        assert page.evaluate(back_of) == blue
        assert page.locator(".me-label .avatar").get_attribute("data-avatar") == "p4"

        # A bad stored back falls back to the first one.
        page.evaluate("""(k) => { const s = JSON.parse(localStorage.getItem(k)); s.data.card_back = 'xadrez';
                                  localStorage.setItem(k, JSON.stringify(s)); }""", SETTINGS)
        page.console_watch.allow("settings")
        page.reload()
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.cardBack") == "vinho"


def test_every_seat_has_its_own_face_beside_its_name_and_backs_tell_nothing(browser, base_url):
    with watched_page(browser, base_url) as page:
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        start(page, {"mode": "3x3"})
        seats = page.evaluate("""() => [...document.querySelectorAll('#seats .seat')].map((s) => ({
            name: s.querySelector('.seat-name').textContent,
            avatar: s.querySelector('.seat-label .avatar')?.dataset.avatar || null,
            next: s.querySelector('.seat-label .avatar')?.nextElementSibling?.className || null }))""")
        assert len(seats) == 5
        assert all(s["avatar"] and s["name"] for s in seats), seats
        assert all(s["next"] == "seat-name" for s in seats), "each face stands beside its seat's name"
        assert len({s["avatar"] for s in seats}) == 5, f"five bots, five faces: {seats}"
        faces = {page.locator("#seats .seat").nth(i).locator(".avatar").screenshot() for i in range(5)}
        assert len(faces) == 5, "the five faces look different"
        expect(page.locator(".me-label .avatar")).to_be_visible()
        # Every card face down at the table has the same DOM: nothing in it says which card it is.
        backs = page.evaluate("() => [...document.querySelectorAll('#seats .card.back:not(.covered)')].map((b) => b.outerHTML)")
        assert len(backs) >= 10 and len(set(backs)) == 1, set(backs)

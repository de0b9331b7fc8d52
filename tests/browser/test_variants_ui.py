"""The variants at the table, end to end in Chromium (issue 9): the start screen's 3 x 3 mode,
presets explained with a link to their lesson, house rules; a 3 x 3 game (six seats, a
raise answered by the next opponent, a whole game to its end, the cards in front of each
player at phone and desktop sizes); Truco Paulista with its vira (manilhas of the next rank,
mão de onze, the dark vira of a mão de ferro).

One page for the module keeps Pyodide loaded; scenarios start through window.__truco.start()
with `fast=1` (no pauses between moves).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, TablesByDevice, open_table, watched_page
from helpers.table import act, click_and_wait, obs, phase, start, wait_turn

from truco.rules import PRESETS

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def tables(browser, base_url):
    """For the layout tests: one loaded table per kind of device, resized to each size."""
    shared = TablesByDevice(browser, base_url)
    yield shared
    shared.close()


def play_hand_out(page, limit=60):
    """Play (first playable card, accept every raise) until the hand on screen ends."""
    hand = obs(page)["hand_number"]
    for _ in range(limit):
        if phase(page) == "over" or obs(page)["hand_number"] != hand:
            return
        act(page)
    raise AssertionError("the hand did not end")


def boxes_overlap(a, b):
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# ------------------------------------------------------------------ the start screen

def test_start_screen_explains_each_preset_and_links_its_lesson(ready_table, dist_dir):
    page = ready_table
    expect(page.locator("#start-dialog")).to_be_visible()
    page.locator("details.more summary").click()
    tutorial = (dist_dir / "tutorial.html").read_text(encoding="utf-8")
    lessons = set(re.findall(r'<article class="lesson" id="([a-z0-9-]+)"', tutorial))
    choices = page.locator(".preset-choice")
    expect(choices).to_have_count(len(PRESETS))
    for name, rules in PRESETS.items():
        choice = page.locator(".preset-choice", has=page.locator(f"input[value={name}]"))
        expect(choice).to_contain_text(rules.title)
        expect(choice.locator("small")).to_have_text(rules.description)  # one line each (§9)
        href = choice.locator("a.preset-learn").get_attribute("href")
        slug = href.split("#", 1)[1]
        assert href.startswith("tutorial.html#") and slug in lessons, f"{name}: {href} is no lesson"
    # Paulista and the house rules link the lesson on manilha nova (it covers both).
    paulista = page.locator(".preset-choice", has=page.locator("input[value=paulista]"))
    assert paulista.locator("a.preset-learn").get_attribute("href") == "tutorial.html#manilha-nova"
    for link in page.locator(".house-rules a").all():
        assert link.get_attribute("href") == "tutorial.html#manilha-nova" and "manilha-nova" in lessons
    for opt in ("baralho_limpo", "familia_real"):
        expect(page.get_by_label(re.compile({"baralho_limpo": "Baralho limpo", "familia_real": "Família real"}[opt]))).not_to_be_checked()


def test_start_screen_starts_a_3x3_game_with_a_house_rule(ready_table):
    page = ready_table
    expect(page.locator("#start-dialog")).to_be_visible()
    page.locator("details.more").evaluate("(d) => { d.open = true; }")  # "Mais opções"
    page.get_by_label("3 × 3 (trucão de 6)").check()
    page.get_by_label("Baralho limpo").check()
    page.locator(".preset-choice input[value=mineiro]").check()
    page.locator("#start-button").click()
    wait_turn(page, None)
    o = obs(page)
    assert o["players"] == 6 and o["options"]["baralho_limpo"] is True and o["options"]["familia_real"] is False
    # Five other seats, alternating teams around the table (§9 trucão de 6: seats 0, 2, 4 vs 1, 3, 5).
    seats = page.locator("#seats .seat")
    expect(seats).to_have_count(5)
    teams = [seats.nth(i).get_attribute("data-team") for i in range(5)]
    positions = [seats.nth(i).get_attribute("data-pos") for i in range(5)]
    assert teams == ["them", "us", "them", "us", "them"]
    assert positions == ["right", "top-right", "top", "top-left", "left"]
    # Baralho limpo: no 4, 5, 6 or 7 but the (fixed) manilhas in the hand (§9).
    for card in o["hand"]:
        assert card[0] not in "4567" or card in o["manilhas"], card
    # The choice is remembered for the next visit's start screen.
    saved = page.evaluate("JSON.parse(localStorage.getItem('truco:settings')).data")
    assert saved["mode"] == "3x3" and saved["baralho_limpo"] is True
    page.console_watch.check()


def test_picking_torneio_on_the_start_screen_plays_its_mao_de_ferro_as_claras(browser, base_url):
    """Torneio's line says "mão de ferro às claras" (RULES.md §9): picking it must not leave the
    "Mão de ferro" select at "No escuro", which dealt the 10 x 10 hand face down."""
    gen = open_table(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    page = next(gen)
    page.locator("details.more summary").click()
    ferro = page.get_by_label("Mão de ferro", exact=True)
    expect(ferro).to_have_value("escuro")
    page.locator(".preset-choice input[value=torneio]").check()
    expect(ferro).to_have_value("claras")
    expect(ferro.locator("option:checked")).to_have_text("Às claras")
    page.locator(".preset-choice input[value=mineiro]").check()
    expect(ferro).to_have_value("escuro")
    page.locator(".preset-choice input[value=torneio]").check()
    page.get_by_label("1 × 1").check()
    page.locator("#start-button").click()
    wait_turn(page, None)
    assert obs(page)["options"]["ferro"] == "claras"
    # At 10 x 10 the player sees their own cards.
    start(page, {}, {"seed": 5, "score": [10, 10], "dealer": 1})
    o = obs(page)
    assert o["hand_kind"] == "ferro" and not o["blind"] and len(o["hand"]) == 3
    expect(page.locator("#hand .card.face")).to_have_count(3)
    next(gen, None)  # closes the page and checks its console


def test_familia_real_lets_a_hand_of_court_cards_be_exchanged_once(ready_table):
    page = ready_table
    start(page, {"mode": "1x1", "preset": "mineiro", "familia_real": True, "baralho_limpo": False},
          {"seed": 59, "hands": [["Qc", "Jd", "Ks"], ["3c", "2h", "5d"]], "dealer": 1})
    button = page.get_by_role("button", name="Trocar as cartas (família real)")
    expect(button).to_be_visible()
    click_and_wait(page, button)
    o = obs(page)
    # Three new cards, the old ones out of play; the exchange is offered once (RULES.md §9).
    assert len(o["hand"]) == 3 and not set(o["hand"]) & {"Qc", "Jd", "Ks"}
    assert any(e["type"] == "exchange" and e["seat"] == 0 for e in o["log"])
    expect(button).to_have_count(0)
    page.console_watch.check()


# ------------------------------------------------------------------------- 3 x 3

RAISE_HANDS = [["3c", "2h", "Kd"], ["4c", "7h", "As"], ["Qh", "Jh", "5s"],
               ["6c", "6h", "5d"], ["Qc", "Jc", "Kc"], ["Qs", "Js", "Ks"]]


def test_3x3_a_raise_is_answered_by_the_next_opponent(ready_table):
    page = ready_table
    start(page, {"mode": "3x3", "preset": "mineiro", "level": "medio", "baralho_limpo": False},
          {"seed": 41, "hands": RAISE_HANDS, "dealer": 5})
    assert obs(page)["to_move"] == 0
    click_and_wait(page, page.get_by_role("button", name="Truco!"))
    log = obs(page)["log"]
    raise_at = next(i for i, e in enumerate(log) if e["type"] == "raise" and e["seat"] == 0)
    answer = log[raise_at + 1]
    # The opponent on your right, next in play order, answers for his team (RULES.md §5).
    assert answer["seat"] == 1 and answer["type"] in ("accept", "run", "raise")
    assert answer["type"] != "run", "three manilhas do not run from a truco"
    # Play the first round: six cards, each in front of its player, none over another,
    # at desktop and phone sizes.
    for _ in range(10):
        if len(obs(page)["rounds"]) > 1 or phase(page) == "over":
            break
        act(page)
    assert len(obs(page)["rounds"][0]["plays"]) == 6
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        felt = page.locator("#table").bounding_box()
        slots = [page.locator(f'#trick .played[data-seat="{s}"] .card').first.bounding_box() for s in range(6)]
        for s, box in enumerate(slots):
            assert box and felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"], f"seat {s}'s card is off the table"
        for a in range(6):
            for b in range(a + 1, 6):
                assert not boxes_overlap(slots[a], slots[b]), f"{size}: the cards of seats {a} and {b} overlap"
        # Each player's card is on his side of the table: the seats across play above yours.
        for s in (2, 3, 4):
            assert slots[s]["y"] + slots[s]["height"] <= slots[0]["y"] + 1
    page.set_viewport_size(DESKTOP)
    # A reload mid-hand offers the six-seat game back, as it was.
    before = obs(page)
    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#continue-summary")).to_contain_text("3 × 3")
    page.get_by_role("button", name="Continuar partida").click()
    wait_turn(page, None)
    after = obs(page)
    for key in ("players", "hand", "rounds", "score", "hand_value", "to_move", "hand_number"):
        assert after[key] == before[key], key
    expect(page.locator("#seats .seat")).to_have_count(5)
    play_hand_out(page)
    page.console_watch.check()


def test_3x3_a_whole_game_ends_in_a_mao_de_ferro(ready_table):
    page = ready_table
    start(page, {"mode": "3x3", "preset": "mineiro", "ferro": "escuro"}, {"seed": 43, "score": [10, 10]})
    o = obs(page)
    assert o["hand_kind"] == "ferro" and o["blind"]
    expect(page.locator("#hand .card.in-hand.back")).to_have_count(3)
    for _ in range(20):
        if phase(page) == "over":
            break
        act(page)
    final = obs(page)
    assert final["winner"] in (0, 1) and final["players"] == 6
    expect(page.locator("#end-dialog")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text(re.compile("Vitória" if final["winner"] == 0 else "Derrota"))
    page.locator("#to-menu").click()
    expect(page.locator("#start-dialog")).to_be_visible()
    page.console_watch.check()


# ---------------------------------------------------------------------- paulista

def test_paulista_2x2_vira_manilhas_and_mao_de_onze(ready_table):
    page = ready_table
    hands = [["4c", "4h", "3s"], ["5c", "6d", "7s"], ["4s", "2c", "3c"], ["Qd", "Jc", "Kh"]]
    start(page, {"mode": "2x2", "preset": "paulista", "level": "medio"},
          {"seed": 47, "hands": hands, "vira": "3d", "score": [11, 7], "dealer": 3})
    # The vira is face up on the table; the manilhas are the 4s, the next rank (RULES.md §9).
    expect(page.locator("#vira")).to_have_attribute("aria-label", "A vira é 3 de ouros.")
    expect(page.locator('#hand .card[data-card="4c"]')).to_have_class(re.compile(r"\bmanilha\b"))
    expect(page.locator('#hand .card[data-card="3s"]')).not_to_have_class(re.compile(r"\bmanilha\b"))
    # Mão de onze: 11 points, worth 3, running gives 1 (§9).
    o = obs(page)
    assert o["decision"] and o["decision"]["seat"] == 0
    expect(page.locator("#prompt")).to_have_text(
        "Mão de onze: vocês têm 11 pontos. Jogar (vale 3) ou correr (eles ganham 1)?")
    expect(page.locator('.seat[data-seat="2"] .seat-cards .card.face')).to_have_count(3)
    click_and_wait(page, page.get_by_role("button", name="Jogar"))
    assert obs(page)["hand_value"] == 3
    expect(page.locator("#hand-value .kind")).to_have_text("· mão de onze")
    assert page.get_by_role("button", name="Truco!").count() == 0, "no truco in a mão de onze"
    play_hand_out(page)
    final = obs(page)
    # 4c and 4h, the two strongest manilhas, win two rounds: 11 + 3 closes the game.
    assert final["winner"] == 0 and final["score"][0] == 14
    expect(page.locator("#end-title")).to_have_text(re.compile("Vitória"))
    # The replay names the hand as Paulista does: mão de onze, never mão de dez.
    page.locator("#end-replay").click()
    dialog = page.locator("#replay-dialog")
    expect(dialog).to_be_visible()
    seen = []
    for _ in range(40):
        seen.append(dialog.inner_text())
        page.keyboard.press("ArrowRight")
    text = "\n".join(seen)
    assert "mão de onze" in text.lower() and "mão de dez" not in text.lower(), text[-800:]
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.locator("#to-menu").click()
    page.console_watch.check()


def test_paulista_mao_de_ferro_keeps_the_vira_down_until_the_first_round_is_played(ready_table):
    page = ready_table
    start(page, {"mode": "1x1", "preset": "paulista", "ferro": "escuro"},
          {"seed": 53, "hands": [["5c", "Ah", "3s"], ["6d", "7s", "Jc"]], "vira": "Kd",
           "score": [11, 11], "dealer": 1})
    vira = page.locator("#vira")
    expect(vira.locator(".card.back")).to_have_count(1)
    assert "Kd" not in vira.inner_html() and "rei de ouros" not in page.locator("#app").inner_html()
    click_and_wait(page, page.locator("#hand .card.in-hand.back").first)
    if phase(page) != "over":
        # Both cards of the first round are down: the vira is turned up (§9, `004`).
        expect(vira).to_have_attribute("aria-label", "A vira é rei de ouros.")
        expect(vira.locator(".card.face")).to_have_count(1)
    page.console_watch.check()


# ------------------------------------------------------------ the manilha-nova lesson

def test_the_manilha_nova_lesson_shows_the_vira_and_the_engine_judges_it(browser, base_url):
    with watched_page(browser, base_url, viewport=PHONE) as page:
        page.goto("/tutorial.html?fast=1#manilha-nova")
        table = page.locator("#ex-vira-manilha .mt")
        expect(table).to_have_class(re.compile(r"\bmy-turn\b"), timeout=ENGINE_TIMEOUT_MS)
        # The vira is on the felt; the hand carries no manilha mark (the learner works it out).
        expect(table.locator(".mt-vira")).to_have_attribute("aria-label", "A vira é 3 de ouros.")
        expect(table.locator(".mt-hand .card.manilha")).to_have_count(0)
        table.locator('.mt-hand button[data-card="4s"]').click()
        section = page.locator("#ex-vira-manilha")
        # Drawn before the engine; the card touched starts it and is judged once it is up.
        expect(section).to_have_attribute("data-verdict", "right", timeout=ENGINE_TIMEOUT_MS)
        # The engine's words: the 4 is a manilha under the vira 3 (RULES.md §9, wrapping 3 -> 4).
        expect(section).to_contain_text("4 de espadas (manilha)")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_3x3_two_partners_signalling_at_once_do_not_cover_each_other(tables, size):
    """Sinais in 3 x 3: both bot partners hold a manilha and signal it as the hand starts
    (py/truco/signals.py) while Zé, across, speaks; the three bubbles of the top row, the
    longest gesture included, stay apart and hold their words."""
    hands = [["5d", "6c", "Qh"], ["2d", "Jh", "5h"], ["4c", "6s", "Jd"],
             ["Kd", "5s", "3c"], ["7h", "Js", "Qc"], ["Ks", "Qd", "2s"]]
    page = tables.page({"width": size[0], "height": size[1]})
    start(page, {"mode": "3x3", "sinais": True}, {"seed": 3, "dealer": 5, "hands": hands})
    bubbles = [page.locator(f'.seat[data-seat="{s}"] .bubble') for s in (2, 4)]
    for bubble in bubbles:
        expect(bubble).to_be_visible()
    expect(bubbles[1]).to_have_text("levanta as sobrancelhas")  # the 7 de copas
    # Zé (seat 3, across) speaks at the same time, as a bot deciding a mão de dez does
    ze = page.locator('.seat[data-seat="3"] .bubble')
    ze.evaluate("(el) => { el.textContent = 'Vamos jogar!'; el.hidden = false; }")
    bubbles.append(ze)
    # the bubbles' pop-in animation has run (a finished CSS animation leaves the list)
    page.wait_for_function("() => document.getAnimations().length === 0")
    boxes = [b.bounding_box() for b in bubbles]
    for i, box in enumerate(boxes):
        for other in boxes[i + 1:]:
            assert not boxes_overlap(box, other), boxes
    for bubble in bubbles:  # no word runs out of its bubble
        assert bubble.evaluate("(el) => el.scrollWidth <= el.clientWidth"), bubble.inner_text()
    for box in boxes:
        assert 0 <= box["x"] and box["x"] + box["width"] <= size[0], boxes


def gap_between(a, b):
    """The distance between two boxes (0 where they touch or overlap)."""
    dx = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]), 0)
    dy = max(b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]), 0)
    return (dx * dx + dy * dy) ** 0.5


# (width, height, device scale factor, a phone?): phones upright, laptops and a large screen,
# and a 1280 x 800 laptop at 200% zoom (640 x 400 CSS px, which takes the sideways layout).
FELT_SIZES = {"390x844": (390, 844, 1, True), "360x640": (360, 640, 1, True),
              "1280x800": (1280, 800, 1, False), "1024x768": (1024, 768, 1, False),
              "1920x1080": (1920, 1080, 1, False), "640x400-zoom200": (640, 400, 2, False)}


@pytest.mark.parametrize("size", list(FELT_SIZES))
@pytest.mark.parametrize("mode", ["3x3", "2x2"])
def test_on_a_phone_the_last_hands_button_never_covers_the_hands_value(tables, mode, size):
    """Once the next hand is under way, "Ver a mão anterior" waits at the bottom of the felt,
    where "Vale N" is: on a phone with side seats (3 x 3 at any value, 2 x 2 at "Vale 12") it
    sat over the value, hiding what the hand was worth while the player answered a truco.
    Then it sat 4.8 px from the value, and over or against the cards played in the bottom row
    (in 3 x 3 on a 390 x 844 phone; in 3 x 3 and 2 x 2 on a 360 x 640 one): through every
    round of the next hand it keeps a clear gap from each card on the table and from the
    value, and the round marks stay off the cards (which moved up to make room).
    On a laptop in 3 x 3 the button lay over Tonho's card in every round (1280 x 800), the
    cards touched "Vale N" (1024 x 768); at 200% zoom the round marks lay on a card in 2 x 2.
    Off a phone the page never scrolls for it."""
    width, height, scale, phone = FELT_SIZES[size]
    page = tables.page({"width": width, "height": height}, device_scale_factor=scale,
                       is_mobile=phone, has_touch=phone, reduced_motion="reduce")  # no card mid-animation
    seats = 6 if mode == "3x3" else 4
    start(page, {"mode": mode, "preset": "mineiro", "familia_real": False, "baralho_limpo": False},
          {"seed": 4, "dealer": seats - 1})
    play_hand_out(page)
    corner = page.get_by_role("button", name="Ver a mão anterior")
    expect(corner).to_be_visible(timeout=15_000)
    corner.click()
    expect(page.locator("#review-dialog")).to_be_visible()
    page.locator("#review-close").click()
    expect(page.locator("#review-dialog")).to_be_hidden()
    value = page.locator("#hand-value")
    hand, rounds = obs(page)["hand_number"], set()
    while phase(page) != "over" and obs(page)["hand_number"] == hand:
        # The widest value of a normal hand, as after truco, seis, dez and doze.
        page.locator("[data-testid=hand-value]").evaluate("(b) => { b.textContent = '12'; }")
        expect(value).to_have_text(re.compile(r"Vale\s+12"))
        a, b = value.bounding_box(), corner.bounding_box()
        cards = page.locator("#trick .card")
        rounds.add(len(obs(page)["rounds"]))
        marks = page.locator("#round-marks").bounding_box()
        for i in range(cards.count()):
            card = cards.nth(i).bounding_box()
            assert gap_between(card, b) >= 8, (f"the button is {gap_between(card, b):.1f} px from "
                                               f"{cards.nth(i).get_attribute('aria-label')}", card, b)
            assert not boxes_overlap(card, marks), ("the round marks cover a card", marks, card)
            assert gap_between(card, a) >= 8, (f"the value is {gap_between(card, a):.1f} px from "
                                               f"{cards.nth(i).get_attribute('aria-label')}", card, a)
        assert gap_between(a, b) >= 8, (f"the button is {gap_between(a, b):.1f} px from the value", a, b)
        if not phone:
            scroll = page.evaluate("document.documentElement.scrollHeight - innerHeight")
            assert scroll <= 0, f"the page scrolls {scroll} px"
        felt = page.locator("#table .center").bounding_box()
        for box in (a, b):
            assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 0.5, (box, felt)
        page.mouse.move(0, 0)  # a card lifted under a resting pointer never settles for the click
        act(page)
    assert rounds >= {1, 2, 3}, rounds  # the cards of each round lie in their own place

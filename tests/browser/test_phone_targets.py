"""On a touch phone (390 x 844), every page (issue 29): each control offers a 44 x 44 px
target (a tick box or a radio through its label; links inside running text excepted: there
are none in these pages' controls), the start screen's language pill is not clipped by the
dialog's edge, and the tutorial scrolls an exercise's verdict into sight. One phone for
every page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, new_page, until
from helpers.table import replay_of_a_deciding_hand, start

# Every control of the page shown now, with the box a finger has to hit: a tick box or a
# radio is tapped through its label. Hidden controls (a closed dialog, the skip link off the
# screen until it has the focus) are left out.
SMALL_TARGETS = """() => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true }) && e.getBoundingClientRect().width > 0;
  const out = [];
  for (const e of document.querySelectorAll('button, a[href], select, input:not([type=hidden]), textarea, summary, [role=button]')) {
    const t = e.matches('input[type=checkbox], input[type=radio], input[type=file]') ? (e.labels?.[0] || e) : e;
    if (!shown(t)) continue;
    const r = t.getBoundingClientRect();
    if (r.bottom < 0) continue; // off the screen until focused (the skip link)
    if (r.width < 44 || r.height < 44) out.push(`${t.tagName}${t.id ? '#' + t.id : ''} "${(t.textContent || '').trim().slice(0, 30)}" ${Math.round(r.width)} x ${Math.round(r.height)}`);
  }
  return out;
}"""
SKIP_LINK = "() => { const a = document.querySelector('.skip-link'); if (!a) return null; a.focus();" \
            " const r = a.getBoundingClientRect(); a.blur(); return [r.width, r.height]; }"


def at_the_table(page):
    """The table with its engine ready: loaded unless the phone is on it already (the replay
    tests start a match of their own, so another test's match left on it changes nothing,
    and an engine start-up is saved)."""
    if page.evaluate("""() => location.pathname === '/' && location.search === '?fast=1'
                              && document.getElementById('app')?.dataset.engineState === 'ready'"""):
        return
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)


@pytest.fixture(scope="module")
def phone(browser, base_url):
    context, page = new_page(browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True, reduced_motion="reduce")
    yield page
    context.close()
    page.console_watch.check()


def test_the_tutorial_shows_the_verdict_on_a_phone(phone):
    """After Lição 1, Exercício 1 on a phone, "Certo!" sat below the screen's edge (y 911 of
    844): the page scrolls it into sight."""
    page = phone
    page.goto("/tutorial.html?fast=1&engine=now#baralho")
    until(page, "() => window.__tutorial.exercise('baralho-rei').state === 'playing'", timeout=ENGINE_TIMEOUT_MS)
    card = page.locator('#ex-baralho-rei .mt-hand button[data-card="3c"]')
    # As a reader scrolling down the lesson meets it: the hand just in sight at the bottom.
    card.evaluate("(c) => c.scrollIntoView({ block: 'end' })")
    card.tap()
    verdict = page.locator("#ex-baralho-rei .ex-verdict")
    expect(verdict).to_have_text("Certo!")
    expect(verdict).to_be_in_viewport(ratio=1)
    assert page.evaluate(SMALL_TARGETS) == []
    skip = page.evaluate(SKIP_LINK)
    assert skip and min(skip) >= 44, skip


@pytest.mark.parametrize("path", ["/embed.html?scenario=baralho-rei", "/marcador.html"])
def test_every_control_is_44_px_on_the_embed_and_the_marcador(phone, path):
    phone.goto(path)
    phone.wait_for_load_state("load")
    expect(phone.locator("button:visible").first).to_be_visible()
    assert phone.evaluate(SMALL_TARGETS) == []


def test_every_control_of_the_table_and_its_start_screen_is_44_px(phone):
    """Pausar, Sair da mesa and Dica were 40 px tall, PT / ES / EN 40 x 40; on the start
    screen "Marcador de pontos" and "Aprenda as regras jogando" 16 px tall; the language
    pill was clipped at the dialog's bottom edge."""
    page = phone
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    dialog = page.locator("#start-dialog")
    expect(dialog).to_be_visible()
    page.locator("details.more summary").first.tap()  # "Mais opções": every choice shown
    assert page.evaluate(SMALL_TARGETS) == []
    pill = dialog.locator(".start-lang .lang-switch ul")
    pill.scroll_into_view_if_needed()
    inner = dialog.evaluate("(d) => { const r = d.getBoundingClientRect(); const s = getComputedStyle(d);"
                            " return [r.top + d.clientTop, r.bottom - parseFloat(s.borderBottomWidth)]; }")
    box = pill.bounding_box()
    assert inner[0] <= box["y"] and box["y"] + box["height"] <= inner[1], f"the pill {box} is clipped by {inner}"
    # At the table, with everything a player can meet in a hand: the Dica, Sinal, the answers.
    start(page, {"mode": "2x2", "level": "dificil", "humano_decide": True, "sinais": True, "hint": True},
          {"seed": 11, "dealer": 3, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"], ["Qd", "Qs", "Jd"], ["5d", "6s", "Kh"]]})
    expect(page.locator("#signal-toggle")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator("#hint-button").tap()
    expect(page.locator("#hint-follow")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []


def test_the_replay_seats_the_players_as_the_table_does(phone):
    """The replay's mini-table on a phone put the three others across the top; at the table
    the partner sits across and the opponents at the sides. The replay seats them so too,
    each seat clear of the cards played, and its buttons are 44 px targets."""
    page = phone
    at_the_table(page)
    replay_of_a_deciding_hand(page, {"hint": False, "humano_decide": False})
    page.keyboard.press("End")  # the last step: every seat has played
    expect(page.locator("#replay-table .mt-played .card")).not_to_have_count(0)
    seats = {s: page.locator(f'#replay-table .mt-seat[data-seat="{s}"]').bounding_box() for s in (1, 2, 3)}
    trick = page.locator("#replay-table .mt-trick").bounding_box()
    mid_y = trick["y"] + trick["height"] / 2
    assert seats[2]["y"] + seats[2]["height"] <= trick["y"] + 1, f"the partner sits across {seats[2]}, above {trick}"
    for s, side in ((3, "left"), (1, "right")):
        box = seats[s]
        assert box["y"] < mid_y < box["y"] + box["height"], f"seat {s} sits beside the cards played ({box}, {trick})"
        beside = box["x"] + box["width"] <= trick["x"] + 1 if side == "left" else box["x"] >= trick["x"] + trick["width"] - 1
        assert beside, f"seat {s} is at the {side} of the cards played ({box}, {trick})"
    for card in page.locator("#replay-table .mt-played .card").all():
        c = card.bounding_box()
        for s, box in seats.items():
            assert not (c["x"] < box["x"] + box["width"] and box["x"] < c["x"] + c["width"]
                        and c["y"] < box["y"] + box["height"] and box["y"] < c["y"] + c["height"]), f"a card {c} over seat {s} {box}"
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator("#replay-close").tap()


def test_the_replays_buttons_keep_their_place_at_every_step(phone):
    """Issue 41: "Próximo" moved about 30 px between the replay's steps (the dialog grew and
    shrank with the step's words and re-centred), so a thumb tapping through the match kept
    missing it. At 390 x 844 and 360 x 640 each button stays where it was at every step,
    "Anterior" and "Próximo" side by side, on the screen."""
    page = phone
    at_the_table(page)
    replay_of_a_deciding_hand(page, {"hint": False, "humano_decide": False})
    try:
        for size in ({"width": 390, "height": 844}, {"width": 360, "height": 640}):
            page.set_viewport_size(size)
            page.keyboard.press("Home")
            expect(page.locator("#replay-count")).to_contain_text("passo 1 de")
            places, step = [], 0
            while True:
                boxes = {b: page.locator(f"#{b}").bounding_box() for b in ("replay-prev", "replay-next", "replay-close")}
                places.append({b: tuple(round(v) for v in box.values()) for b, box in boxes.items()})
                if page.locator("#replay-next").is_disabled():
                    break
                page.locator("#replay-next").tap()
                step += 1
                expect(page.locator("#replay-dialog")).to_have_attribute("data-step", str(step))
                # Measured once the tap has let go: a pressed button sits 2 px lower (.button:active).
                page.wait_for_function("() => !document.querySelector('#replay-next:active')")
            assert step >= 5, "a match of several steps"
            assert all(p == places[0] for p in places), f"{size}: the buttons moved: {places}"
            prev, nxt = places[0]["replay-prev"], places[0]["replay-next"]
            assert prev[1] == nxt[1], f"{size}: Anterior and Próximo side by side ({prev}, {nxt})"
            assert nxt[1] + nxt[3] <= size["height"], f"{size}: Próximo on the screen ({nxt})"
    finally:
        page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#replay-close").tap()


def test_every_control_of_the_friends_dialogs_and_the_local_players_is_44_px(phone):
    """The friends' dialogs (issue #31) were never measured: their mode radios and seat
    tick boxes were 20 px tall under a finger. Measured here as a person meets them: the
    start screen's "Jogadores neste aparelho" with every seat a person (a name field each),
    the host's "Jogar com amigos" before and after its codes are made, and the guest's
    "Entrar numa mesa" (`?join=1`) before and after its answer is made."""
    page = phone
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#start-dialog")).to_be_visible()
    page.locator("input[name=mode][value='2x2']").check()
    page.locator("#local-players-fold > summary").tap()  # folded until asked for (issue 41)
    for seat in (1, 2, 3):
        page.locator(f"label[for=human-{seat}]").tap()
    expect(page.locator("input[name=seat_name][data-seat='3']")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    # The host's dialog: its choices, then a seat's codes (offer, answer, copy, connect).
    page.locator("#open-friends").tap()
    dialog = page.locator("#friends-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name=friends-seat]")).to_have_count(3)
    assert page.evaluate(SMALL_TARGETS) == []
    dialog.locator("input[name=friends-mode][value='2x2']").check()
    dialog.locator("input[name=friends-seat][value='1']").check()
    page.locator("#friends-make").tap()
    offer = page.locator("#friends-offer-1[data-ready]")
    offer.wait_for()
    code = offer.input_value()
    expect(page.locator("#friends-connect-1")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator("#friends-close").tap()
    # The guest's page: the offer pasted, the answer made (its copy button shown).
    page.goto("/?join=1")
    expect(page.locator("#join-dialog")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator("#join-offer").fill(code)
    page.locator("#join-make").tap()
    page.locator("#join-answer[data-ready]").wait_for()
    expect(page.locator("#join-answer-box button[data-copy]")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []

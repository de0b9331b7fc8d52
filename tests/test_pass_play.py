"""Pass-and-play on one device (issue #31), in Chromium: two people play a whole 1 x 1
match, and two people with two bots a 2 x 2 match, each by clicks and keys as a person
would. At every "Passe para …" screen the DOM holds no card of any hand, and once the next
player has tapped it holds no card of a hand but theirs."""

from __future__ import annotations

import time

import pytest

from helpers.browser import ENGINE_TIMEOUT_MS, READY, RECORD_WORKER_MESSAGES, audit, new_page
from truco.cards import card_name
from truco.game import deal_for

# Every face-up card element of the page (the hand's buttons, the felt, the seats, any
# dialog), named as a reader hears it.
FACE_CARDS = """() => [...document.querySelectorAll('.card.face')].map((c) =>
  c.getAttribute('aria-label') || c.querySelector('.card-name')?.textContent || c.title || '?')"""

# Where the table stands: the phase, the pass screen's seat and title, the observation's
# seat, hand number and score.
STATE = """() => {
  const app = document.getElementById('app'), o = window.__truco.observation;
  const pass = document.getElementById('pass-dialog');
  return { phase: app.dataset.phase, busy: window.__truco.busy, passOpen: pass.open,
           passSeat: pass.open ? Number(pass.dataset.seat) : null,
           passTitle: document.getElementById('pass-title').textContent,
           focused: document.activeElement?.id || null,
           seat: o && o.seat, hand: o && o.hand_number, winner: o && o.winner, toMove: o && o.to_move,
           played: o ? o.rounds.flatMap((r) => r.plays.filter((p) => p.card && !p.covered).map((p) => p.card)) : [],
           visible: o ? o.visible_hands.flatMap((v) => v.cards) : [] };
}"""

SETTLED = """() => {
  const app = document.getElementById('app'), pass = document.getElementById('pass-dialog');
  if (window.__truco.busy) return false;
  const p = app.dataset.phase;
  if (p === 'pass') return pass.open;
  return (p === 'human' && !pass.open) || p === 'over';
}"""


def shown(page):
    return page.evaluate(FACE_CARDS)


def named(labels, cards):
    """The cards among `cards` that one of the `labels` names."""
    return {c for c in cards for label in labels if label == card_name(c) or label.startswith(card_name(c) + ",")}


# What the worker sent since the last look: the observations (seat, and whether a hand is in it).
WORKER_VIEWS = """() => { const out = (window.__workerMessages || []).map((m) => JSON.parse(m))
    .filter((m) => m.result && m.result.observation)
    .map((m) => [m.result.observation.seat, m.result.observation.hand.length > 0 || m.result.observation.visible_hands.length > 0]);
  if (window.__workerMessages) window.__workerMessages.length = 0;
  return out; }"""


def check_worker(page, on_screen):
    """Every observation the worker sent is the seat on screen's, or holds no hand at all."""
    for seat, has_cards in page.evaluate(WORKER_VIEWS):
        assert seat == on_screen or not has_cards, f"seat {seat}'s cards crossed while seat {on_screen} was on screen"


def play_match(page, seed, players, humans, names, *, keys=False, raises=False, timer=False, limit=400):
    """Drive every human seat to the end of the match; check the DOM at each pass screen
    and at each turn that follows one, and what the worker sent. With `raises`, each person
    asks for truco at their first chance in a hand, which passes the device to the answerer.
    Returns (pass screens seen, turns checked, raises passed to their answerer, winner)."""
    passes = 0
    checked_turns = 0
    raised = 0
    on_screen = None
    expect_pass_to = None
    for _ in range(limit):
        page.wait_for_function(SETTLED, timeout=30_000)
        st = page.evaluate(STATE)
        if st["phase"] == "over":
            check_worker(page, on_screen)
            return passes, checked_turns, raised, st["winner"]
        deal = deal_for(seed, st["hand"] - 1, players)
        if expect_pass_to is not None:
            assert st["phase"] == "pass" and st["passSeat"] == expect_pass_to, ("a raise passes to its answerer", st)
            raised += 1
            expect_pass_to = None
        if st["phase"] == "pass":
            passes += 1
            check_worker(page, on_screen)
            seat = st["passSeat"]
            assert seat in humans and st["toMove"] == seat
            assert st["passTitle"].endswith(names[seat]), st["passTitle"]
            assert st["focused"] == "pass-ready", "the focus moves to the pass screen's button"
            if timer:
                assert page.locator("#timer").is_hidden(), "the turn timer waits for the tap"
            unplayed = {c for h in deal for c in h} - set(st["played"])
            leaked = named(shown(page), unplayed)
            assert not leaked, f"pass screen for seat {seat}: cards of a hand in the DOM: {leaked}"
            if keys:
                page.keyboard.press("Enter" if passes % 2 else " ")
            else:
                page.locator("#pass-ready").click()
            page.wait_for_function("() => !document.getElementById('pass-dialog').open", timeout=30_000)
            page.wait_for_function(SETTLED, timeout=30_000)
            st = page.evaluate(STATE)
            if st["phase"] == "over":
                continue
            assert st["phase"] == "human" and st["seat"] == seat, st
            on_screen = seat
            assert page.locator("#me .me-label").text_content().startswith(names[seat]), "the player's name by their hand"
            if timer:
                assert page.locator("#timer").is_visible(), "the turn timer runs once the player has tapped"
            others = {c for s, h in enumerate(deal) if s != seat for c in h} - set(st["played"]) - set(st["visible"])
            labels = shown(page)
            assert not named(labels, others), f"seat {seat}'s turn shows another hand's card"
            assert named(labels, set(deal[seat])), "the player's own cards are shown"
            if players == 4 and all(p in humans for p in range(seat % 2, 4, 2)):
                # Sinais between two people sharing one screen make no sense: no Sinal button.
                assert not page.locator("#signal-toggle").is_visible()
            checked_turns += 1
            continue
        assert st["seat"] in humans and st["toMove"] == st["seat"]
        o = page.evaluate("() => window.__truco.observation")
        if raises and not o["pending"] and o["raise_level"] == 0 and page.locator("#actions button[data-action=raise]").count():
            answerer = (o["seat"] + 1) % players
            if answerer in humans:
                expect_pass_to = answerer
            if keys:
                page.keyboard.press("t")
            else:
                page.locator("#actions button[data-action=raise]").click()
            continue
        act(page, keys)
    raise AssertionError("the match did not end")


def act(page, keys):
    """Answer a raise or a mão de dez by accepting, else play the first playable card."""
    accept = page.locator("#actions button[data-action=accept]")
    if accept.count():
        if keys:
            page.keyboard.press("a")
        else:
            accept.click()
        return
    card = page.locator("#hand .card.in-hand:not([disabled])").first
    if keys:
        card.focus()
        page.keyboard.press("1")
    else:
        card.click()


@pytest.fixture(scope="module")
def table(browser, base_url):
    context, page = new_page(browser, base_url)
    context.add_init_script(RECORD_WORKER_MESSAGES)
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    yield page
    context.close()
    page.console_watch.check()


def test_two_people_play_a_whole_1x1_match_passing_the_device(table):
    page = table
    seed = 31
    page.evaluate("""(seed) => window.__truco.start(
        {mode: '1x1', humans: '01', player_names: ['Ana', '<b>Bia</b>'], timer: 0}, {seed})""", seed)
    t0 = time.monotonic()
    passes, turns, raised, winner = play_match(page, seed, 2, [0, 1], {0: "Ana", 1: "<b>Bia</b>"}, raises=True)
    assert winner in (0, 1)
    assert passes >= 10 and turns >= 10 and raised >= 2, (passes, turns, raised)
    # The end names the winner (a name is text, never markup).
    title = page.locator("#end-title").text_content()
    assert title.startswith(["Ana", "<b>Bia</b>"][winner]), title
    assert page.locator("#end-title b").count() == 0
    # Statistics are this device's player against the bots: a match between people is not counted.
    assert page.evaluate("() => localStorage.getItem('truco:stats')") is None
    # The replay shows the match from the view of the person on screen (who asks).
    on_screen = page.evaluate("() => window.__truco.observation.seat")
    page.evaluate("() => { window.__workerMessages.length = 0; }")
    page.locator("#end-replay").click()
    page.wait_for_selector("#replay-body:not([hidden])")
    seats = page.evaluate("""() => window.__workerMessages.map((m) => JSON.parse(m))
        .filter((m) => m.result && m.result.steps).map((m) => m.result.seat)""")
    assert seats == [on_screen], (seats, on_screen)
    page.locator("#replay-close").click()
    # The share link deals the same match to friends, with the same seats played by people.
    page.locator("#end-share").click()
    page.wait_for_function("() => document.getElementById('share-url').value.includes('seed=')")
    assert "humans=01" in page.locator("#share-url").input_value()
    page.locator("#share-close").click()
    print(f"1x1: {passes} pass screens, {time.monotonic() - t0:.1f} s")


def test_two_people_and_two_bots_play_a_2x2_match_to_the_end_by_keys_through_a_reload(table, axe_source):
    """Chosen on the start screen: seat 2 (the partner) is a person too, with the turn
    timer on; the match starts near its end (a seeded scenario) so the test stays short.
    At the first pass screen (announced: the focus on its button, axe clean) the page is
    reloaded: "Continuar partida" lands on "Passe para …" again, and not one observation
    with a hand crosses from the worker before the tap. The timer starts only after it."""
    page = table
    seed = 77
    # A seeded scenario from the address (as a shared situation would be): the start screen
    # deals it when "Começar" is pressed.
    page.goto(f"/?fast=1&seed={seed}&score=8,8")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_selector("#start-dialog[open]")
    page.locator("input[name=mode][value='2x2']").check()
    for seat, human in ((1, False), (2, True), (3, False)):
        page.locator(f"#human-{seat}").set_checked(human)
    page.locator("#player-name").fill("Zé")
    # Untrusted text: one line, no control characters, at most 20 characters.
    page.locator("input[name=seat_name][data-seat='2']").fill("Maria\u0007 da Silva Santos Pereira")
    # The seat-1 and seat-3 rows are bots: no name to type.
    assert page.locator("input[name=seat_name][data-seat='1']").is_hidden()
    assert page.locator("input[name=seat_name][data-seat='2']").is_visible()
    page.locator("details.more > summary").click()
    page.locator("#timer-select").select_option("30")
    page.locator("#start-button").click()
    page.wait_for_function(SETTLED, timeout=30_000)
    assert page.evaluate(STATE)["phase"] == "pass"
    audit(page, axe_source, "the pass screen")
    assert page.locator("#timer").is_hidden(), "the turn timer waits for the tap"

    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_selector("#continue:not([hidden])")
    page.locator("#continue").click()
    page.wait_for_function(SETTLED, timeout=30_000)
    st = page.evaluate(STATE)
    assert st["phase"] == "pass" and st["focused"] == "pass-ready", st
    views = page.evaluate(WORKER_VIEWS)
    assert views, "the save was loaded"
    assert not any(has_cards for _, has_cards in views), "a hand crossed before the tap"
    t0 = time.monotonic()
    names = {0: "Zé", 2: "Maria da Silva Sant"}  # the field keeps 20 characters, BEL among them
    passes, turns, _, winner = play_match(page, seed, 4, [0, 2], names, keys=True, timer=True)
    assert winner in (0, 1) and passes >= 2 and turns >= 2, (passes, turns)
    print(f"2x2: {passes} pass screens, {time.monotonic() - t0:.1f} s")

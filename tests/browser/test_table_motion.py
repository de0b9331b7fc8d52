"""The table's motion (issue 41, site/static/js/table/motion.js) on a touch phone held upright
(390 x 844): a played card slides from its seat (the player's from the hand), the deal does
not swallow a tap, a raise's call pops, the hand's cards are swept away without moving the
layout, a bot shows it is thinking until it plays, and under reduced motion nothing moves.

Test mode (`?fast=1`) has no motion; `?motion=1` turns it back on for these tests (and keeps
test mode's lack of pauses). The thinking cue needs a bot's pause, so its test runs at the
real pace with the page's clock stopped."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from helpers.browser import open_table, new_page, READY, ENGINE_TIMEOUT_MS
from helpers.table import last_n, start, wait_turn

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MOTION = "/?fast=1&motion=1"
# Tonho (seat 1) leads with weak cards; the player holds three manilhas (mineiro: 4c, 7h, As).
SETTINGS = {"mode": "1x1", "level": "facil"}
TONHO_LEADS = {"seed": 3, "dealer": 0, "hands": [["4c", "7h", "As"], ["4d", "5s", "6h"]]}
PLAYER_LEADS = {**TONHO_LEADS, "dealer": 1}

# Every card that arrives in the page (on the felt, in the hand, a seat's back), as it is first
# drawn: its Web Animations and where its centre is then. Kept as elements too, to measure
# where each comes to rest.
ARRIVALS = """() => {
  window.__arrived = []; window.__arrivedEls = [];
  const seen = new WeakSet();
  const centre = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  new MutationObserver(() => {
    for (const c of document.querySelectorAll('#trick .played .card, #hand .card.in-hand, .seat-cards .card')) {
      if (seen.has(c)) continue;
      seen.add(c);
      const where = c.closest('#trick') ? 'felt' : c.closest('#hand') ? 'hand' : 'back';
      window.__arrived.push({ where, seat: c.closest('[data-seat]')?.dataset.seat ?? null,
        anims: c.getAnimations().length, at: centre(c) });
      window.__arrivedEls.push(c);
    }
  }).observe(document.getElementById('app'), { subtree: true, childList: true });
}"""
RESTING = "() => window.__arrivedEls.map((c) => { const r = c.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })"
LABEL_CENTRE = """(seat) => { const r = document.querySelector(`.seat[data-seat="${seat}"] .seat-label`).getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; }"""
SETTLED = "() => !document.getAnimations().some((a) => a.playState === 'running' && a.effect.target.closest('.card'))"
# Layout shifts the browser counts from now on.
SHIFTS = """() => { window.__shift = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; }).observe({ type: 'layout-shift' }); }"""


def dist(a, b):
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


@pytest.fixture(scope="module")
def table(browser, base_url):
    yield from open_table(browser, base_url, MOTION, **PHONE)


def test_a_played_card_slides_from_its_seat_and_the_players_from_the_hand(table):
    page = table
    page.evaluate(ARRIVALS)
    start(page, SETTINGS, TONHO_LEADS)
    page.wait_for_function(SETTLED)
    arrived, rest = page.evaluate("window.__arrived"), page.evaluate(RESTING)
    # His card as this match drew it (the last match's felt may be drawn once more first).
    i = max(i for i, a in enumerate(arrived) if a["where"] == "felt" and a["seat"] == "1")
    label = page.evaluate(LABEL_CENTRE, 1)
    assert arrived[i]["anims"] >= 1
    assert dist(arrived[i]["at"], label) < 30, (arrived[i], label)  # it starts at Tonho's name and face
    assert dist(rest[i], label) > 80, (rest[i], label)  # and comes to rest on the felt, in front of him

    # The player's card leaves from where it is in the hand.
    card = page.locator("#hand .card.in-hand:not([disabled])").first
    box = card.bounding_box()
    before = last_n(page)
    page.evaluate("window.__arrived = []")
    card.tap()
    wait_turn(page, before)
    arrived = page.evaluate("window.__arrived")
    mine = next(a for a in arrived if a["where"] == "felt" and a["seat"] == "0")
    assert mine["anims"] >= 1
    assert dist(mine["at"], (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)) < 12, (mine, box)


def test_the_deal_comes_from_the_dealer_and_a_tap_during_it_plays_the_card(table):
    page = table
    # Every animation stops where it is as it starts, a fifth of the way in: the deal stays
    # under way for as long as the test needs.
    page.evaluate("""() => { window.__held = [];
      const animate = window.__animate = Element.prototype.animate;
      Element.prototype.animate = function (...args) {
        const a = animate.apply(this, args); a.pause(); a.currentTime = 60; window.__held.push(a); return a; }; }""")
    try:
        deal_and_tap(page)
    finally:  # the page as it was for the next test: animations run again
        page.evaluate("() => { Element.prototype.animate = window.__animate; window.__held.forEach((a) => a.finish()); }")


def deal_and_tap(page):
    start(page, SETTINGS, PLAYER_LEADS)  # Tonho deals, the player leads
    dealt = page.evaluate("""() => [...document.querySelectorAll('#hand .card.in-hand, .seat-cards .card')].map((c) => {
      const r = c.getBoundingClientRect();
      return { hand: !!c.closest('#hand'), anims: c.getAnimations().length, at: [r.left + r.width / 2, r.top + r.height / 2] }; })""")
    assert len(dealt) == 6 and all(d["anims"] for d in dealt), dealt
    # The hand's cards are on their way down from Tonho's seat, across the table: the last
    # one dealt has not left his hands yet.
    hand = page.locator("#hand").bounding_box()
    mine = [d for d in dealt if d["hand"]]
    assert all(d["at"][1] < hand["y"] - 100 for d in mine), (mine, hand)
    # (Within 60 px: on a page's first match the header settles after the deal starts.)
    assert dist(mine[-1]["at"], page.evaluate(LABEL_CENTRE, 1)) < 60, mine
    # A tap where a card of the hand is seen now plays that card.
    point = page.evaluate("""() => {
      for (const c of document.querySelectorAll('#hand .card.in-hand:not([disabled])')) {
        const r = c.getBoundingClientRect();
        for (const [fx, fy] of [[0.5, 0.5], [0.3, 0.3], [0.7, 0.7], [0.5, 0.2]]) {
          const x = r.left + r.width * fx, y = r.top + r.height * fy;
          const hit = document.elementFromPoint(x, y)?.closest('#hand .card.in-hand');
          if (hit && !hit.disabled && hit.getAnimations().length) return { x, y, card: hit.dataset.card };
        }
      }
      return null; }""")
    assert point, "no card of the hand could be tapped while it was dealt"
    before = last_n(page)
    page.touchscreen.tap(point["x"], point["y"])
    page.evaluate("() => { window.__held.forEach((a) => a.finish()); }")
    wait_turn(page, before)
    plays = [e for e in page.evaluate("window.__truco.observation.log") if e["n"] > before and e["type"] == "play" and e["seat"] == 0]
    assert [e["card"] for e in plays] == [point["card"]]


def test_a_raise_pops_and_the_hands_cards_are_swept_without_a_layout_shift(browser, base_url):
    context, page = new_page(browser, base_url, **PHONE)
    page.goto(MOTION + "&auto_next=0")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    # Bubbles as they open: which animations each has (a CSS one for every word; the raise's own).
    page.evaluate("""() => { window.__pops = [];
      new MutationObserver((list) => { for (const m of list) {
        const b = m.target; if (!b.classList?.contains('bubble') || b.hidden) continue;
        window.__pops.push({ text: b.textContent, script: b.getAnimations().filter((a) => !(a instanceof CSSAnimation)).length });
      } }).observe(document.getElementById('app'), { subtree: true, attributes: true, attributeFilter: ['hidden'] }); }""")
    start(page, SETTINGS, PLAYER_LEADS)
    page.evaluate(SHIFTS)  # from the deal on (the start screen's going is not the table's motion)
    before = last_n(page)
    page.locator("#hand .card.in-hand:not([disabled])").first.tap()  # a card each on the felt first
    wait_turn(page, before)
    page.locator("#actions button[data-action=raise]").tap()
    page.wait_for_function("() => window.__pops.length > 0")
    pops = page.evaluate("window.__pops")
    assert pops[0]["script"] >= 1, pops  # the player's "Truco!" lands with the call's pop
    # Play the hand out (Tonho may accept or run), to its summary.
    for _ in range(8):
        # The player's turn or the hand's summary (not merely "nothing in the engine": a bot
        # thinking is that too, and then no card of the hand can be tapped).
        page.wait_for_function("""() => !document.getElementById('banner-next').hidden
          || (!window.__truco.busy && document.getElementById('app').dataset.phase === 'human')""")
        if page.locator("#banner-next:not([hidden])").count():
            break
        accept = page.locator("#actions button[data-action=accept]")
        (accept.first if accept.count() else page.locator("#hand .card.in-hand:not([disabled])").first).tap()
        page.wait_for_function("() => !window.__truco.busy || !document.getElementById('banner-next').hidden")
    felt = page.locator("#trick .card").count()
    assert felt >= 2
    page.evaluate("""() => { window.__ghosts = 0; new MutationObserver((list) => { for (const m of list)
      for (const n of m.addedNodes) if (n.classList?.contains('motion-layer')) window.__ghosts = n.querySelectorAll('.motion-ghost').length;
      }).observe(document.body, { childList: true }); }""")
    # Gone on from the summary by the page itself, not a tap: the browser then counts every
    # shift of the sweep and the deal that follows (it forgives those just after an input).
    page.evaluate("document.getElementById('banner-next').click()")
    page.wait_for_function("() => window.__ghosts > 0")
    assert page.evaluate("window.__ghosts") == felt  # each card of the hand swept off the felt
    page.wait_for_function("() => !document.querySelector('.motion-layer')")  # and gone once there
    page.wait_for_function(SETTLED)
    assert page.evaluate("window.__shift") < 0.05
    context.close()
    page.console_watch.check()


def test_under_reduced_motion_nothing_moves(browser, base_url):
    gen = open_table(browser, base_url, MOTION, reduced_motion="reduce", **PHONE)
    page = next(gen)
    page.evaluate("""() => { window.__made = 0; const animate = Element.prototype.animate;
      Element.prototype.animate = function (...a) { window.__made++; return animate.apply(this, a); }; }""")
    page.evaluate(ARRIVALS)
    start(page, SETTINGS, TONHO_LEADS)
    before = last_n(page)
    page.locator("#hand .card.in-hand:not([disabled])").first.tap()
    wait_turn(page, before)
    arrived = page.evaluate("window.__arrived")
    assert {a["where"] for a in arrived} >= {"felt", "hand", "back"}
    assert [a for a in arrived if a["anims"]] == []
    assert page.evaluate("window.__made") == 0
    next(gen, None)


def test_a_bot_shows_it_is_thinking_until_it_plays(browser, base_url):
    # The real pace: the bot's pause is the page's clock's, stopped here.
    context, page = new_page(browser, base_url, **PHONE)
    page.clock.install()
    page.goto("/?motion=1&auto_next=0")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.clock.pause_at(datetime.now() + timedelta(minutes=1))
    cue = page.locator('.seat[data-seat="1"] .think-cue')
    page.evaluate("([s, c]) => { window.__truco.start(s, c); }", [SETTINGS, TONHO_LEADS])
    page.wait_for_function("() => document.querySelector('.think-cue:not([hidden])')")
    assert cue.is_visible()
    label = page.evaluate(LABEL_CENTRE, 1)
    b = cue.bounding_box()
    assert dist((b["x"] + b["width"] / 2, b["y"] + b["height"] / 2), label) < 100  # by Tonho's name and face
    page.wait_for_timeout(300)  # time does not pass: he is still thinking
    assert cue.is_visible() and page.locator("#trick .card").count() == 0
    page.clock.run_for(3000)  # his moment to think (at most 1.3 x 750 ms here)
    page.wait_for_function("() => document.querySelector('#trick .played[data-seat=\"1\"] .card')")
    assert not cue.is_visible()
    context.close()
    page.console_watch.check()


def test_a_bots_moment_to_think_varies_around_the_pace(table):
    pauses = table.evaluate("""async () => {
      const { botPause } = await import('/static/js/table/match_params.js');
      return [0, 0.5, 0.999].map((r) => botPause(750, { random: () => r }))
        .concat([botPause(750, { answering: true, random: () => 0.5 }), botPause(0, { random: () => 0.5 })]); }""")
    low, mid, high, answering, none = pauses
    assert 500 <= low < mid < high <= 1000 and mid == 750
    assert answering > mid  # answering a raise takes a little longer
    assert none == 0  # test mode has no pause to vary

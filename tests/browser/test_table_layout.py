"""The table's layout through a hand (issue 29): no speech bubble or box (the Dica's line,
the partner's opinion, a banner) is drawn over a control or a card, and nothing jumps: the
cards on the felt, the seats and the action row keep their boxes whatever opens or closes,
and the page's layout-shift score stays small. On a touch phone held upright (390 x 844)
and sideways (844 x 390), and a laptop (1280 x 800), in 1 x 1, 2 x 2 and 3 x 3.

One page per kind of device (the phone's is resized), the clock stopped so that every
bubble stays up until it is measured (more at once than a player ever sees)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from helpers import ROOT

from helpers.browser import TablesByDevice
from helpers.table import click_and_wait, last_n, start, wait_turn

SIZES = {
    "portrait": ({"width": 390, "height": 844}, {"is_mobile": True, "has_touch": True}),
    "landscape": ({"width": 844, "height": 390}, {"is_mobile": True, "has_touch": True}),
    "desktop": ({"width": 1280, "height": 800}, {}),
}
H2 = [["4d", "5s", "6h"], ["4c", "7h", "As"]]
H4 = [["4d", "5s", "6h"], ["4c", "7h", "As"], ["Qd", "Qs", "Jd"], ["5d", "6s", "Kh"]]
H6 = H4 + [["5c", "6c", "Jc"], ["Kc", "Ks", "Jh"]]
# Tonho (seat 1) holds three manilhas and calls truco as soon as he can; the player answers
# (for the pair, with the partner's opinion, humano decide), the partners signal as the hand
# is dealt, and the Dica is on.
SCENARIOS = {
    "1x1": ({"mode": "1x1", "level": "dificil", "hint": True}, {"seed": 7, "dealer": 0, "hands": H2}),
    "2x2": ({"mode": "2x2", "level": "dificil", "humano_decide": True, "sinais": True, "hint": True},
            {"seed": 11, "dealer": 3, "hands": H4}),
    "3x3": ({"mode": "3x3", "level": "dificil", "humano_decide": True, "sinais": True, "hint": True},
            {"seed": 11, "dealer": 5, "hands": H6}),
}

# What may not cover anything, and what must stay uncovered: every control and every card.
BOXES = ".bubble:not([hidden]), #hint-line:not([hidden]), #partner-opinion:not([hidden]), #banner:not([hidden])"
UNDER = "button, a[href], select, input, [role=button], .card, .seat-signal"
COVERED = """([boxes, under]) => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    && e.getClientRects().length && e.getBoundingClientRect().width > 0;
  const name = (e) => (e.id ? '#' + e.id : e.className ? '.' + String(e.className).split(' ').join('.') : e.tagName)
    + ' "' + (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 30) + '"';
  const over = [...document.querySelectorAll(boxes)].filter(shown);
  const found = [];
  for (const b of over) {
    const r = b.getBoundingClientRect();
    const others = [...document.querySelectorAll(under), ...over].filter((e) => e !== b && shown(e)
      && !b.contains(e) && !e.contains(b));
    for (const e of others) {
      const o = e.getBoundingClientRect();
      const w = Math.min(r.right, o.right) - Math.max(r.left, o.left);
      const h = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
      if (w > 1 && h > 1) found.push(`${name(b)} covers ${name(e)} (${Math.round(w)} x ${Math.round(h)} px)`);
    }
  }
  return found;
}"""

# Records, through a hand, every box the trick area, the seats and the action row take
# (after each change of the page), and the layout shifts the browser counts.
WATCH = """() => {
  const w = window.__layoutWatch = { boxes: {}, shift: 0, stopped: false };
  const deal = window.__truco.observation.log.at(-1).n;
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map((v) => Math.round(v)).join(','); };
  const sample = () => {
    if (w.stopped) return;
    const o = window.__truco.observation;
    if (o.log.some((e) => e.n > deal && e.type === 'hand')) { w.stopped = true; return; }
    const parts = { trick: document.getElementById('trick'), actions: document.getElementById('actions') };
    for (const s of document.querySelectorAll('#seats .seat')) parts['seat ' + s.dataset.seat] = s;
    for (const [k, e] of Object.entries(parts)) (w.boxes[k] ||= new Set()).add(box(e));
  };
  sample();
  new MutationObserver(sample).observe(document.getElementById('app'),
    { subtree: true, childList: true, attributes: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) w.shift += e.value;
  }).observe({ type: 'layout-shift', buffered: false });
}"""
WATCHED = """() => { const w = window.__layoutWatch; w.stopped = true;
  return { shift: w.shift, boxes: Object.fromEntries(Object.entries(w.boxes).map(([k, v]) => [k, [...v]])) }; }"""


@pytest.fixture(scope="module")
def tables(browser, base_url):
    tables = TablesByDevice(browser, base_url)
    yield tables
    tables.close()


def table_for(tables, size):
    viewport, options = SIZES[size]
    page = tables.page(viewport, reduced_motion="reduce", **options)
    page.clock.install() if not getattr(page, "_clock_on", False) else None
    page._clock_on = True
    page.clock.pause_at(datetime.now() + timedelta(minutes=1))
    return page


# "Seguir a dica" is where a finger reaches it: on the screen, not scrolled out of the
# reason's row nor under anything.
FOLLOW_REACHABLE = """() => { const a = document.getElementById('hint-follow');
  if (a.hidden) return true;
  const r = a.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && a.contains(hit); }"""


def ask_dica(page):
    button = page.locator("#hint-button")
    if button.is_visible():
        button.click()
        page.wait_for_function("() => !document.getElementById('hint-follow').hidden"
                               " || /\\S/.test(document.getElementById('hint-text').textContent) &&"
                               " !document.getElementById('hint-button').disabled", timeout=30_000)
        assert page.evaluate(FOLLOW_REACHABLE), "'Seguir a dica' is out of reach"


# Issue 41, still open: in 3 x 3 on a phone (upright and sideways) a partner's gesture bubble
# ("dá de ombros") finds no clear place beside its seat and is drawn over a seat's face-down
# cards (10-30 px). Marked, not hidden: the run reports it (XFAIL), and it shows XPASS once fixed.
KNOWN_3X3_PHONE = pytest.mark.xfail(reason="issue 41: a gesture's bubble over a seat's face-down cards in 3 x 3 on a phone",
                                    strict=False)


# The known misses are soak tests too: a non-strict xfail cannot fail CI's run, only cost it
# time (./run-tests --all shows XFAIL, or XPASS once fixed).
@pytest.mark.parametrize("size, mode", [
    pytest.param(size, mode, marks=[KNOWN_3X3_PHONE, pytest.mark.soak])
    if mode == "3x3" and size in ("portrait", "landscape") else (size, mode)
    for size in SIZES for mode in SCENARIOS])
def test_a_hand_covers_nothing_and_nothing_jumps(tables, size, mode):
    page = table_for(tables, size)
    settings, scenario = SCENARIOS[mode]
    start(page, settings, scenario)
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(WATCH)
    covered = []
    hand = page.evaluate("window.__truco.observation.hand_number")
    answered = False
    for _ in range(12):
        o = page.evaluate("window.__truco.observation")
        if o["winner"] is not None or o["hand_number"] != hand:
            break
        covered += [f"{o['log'][-1]['type']}: {c}" for c in page.evaluate(COVERED, [BOXES, UNDER])]
        ask_dica(page)
        covered += [f"{o['log'][-1]['type']} + Dica: {c}" for c in page.evaluate(COVERED, [BOXES, UNDER])]
        before = last_n(page)
        accept = page.locator("#actions button[data-action=accept]")
        if accept.count():
            answered = True
            accept.click()
        else:
            page.locator("#hand .card.in-hand:not([disabled])").first.click()
        wait_turn(page, before)
    assert answered, "the player answered a truco"
    watched = page.evaluate(WATCHED)
    def spread(values):  # the most any edge or size moved, in px
        boxes = [[int(x) for x in v.split(",")] for v in values]
        return max(max(col) - min(col) for col in zip(*boxes))
    moved = {k: v for k, v in watched["boxes"].items() if spread(v) > 1}
    assert not covered, f"{size} {mode}:\n" + "\n".join(dict.fromkeys(covered))
    assert not moved, f"{size} {mode}: boxes moved through the hand: {moved}"
    height = page.evaluate("[document.scrollingElement.scrollHeight, innerHeight]")
    assert height[0] <= height[1] + 1, f"{size} {mode}: the page scrolls ({height})"
    assert watched["shift"] < 0.05, f"{size} {mode}: layout shift {watched['shift']:.3f}"


STRINGS = {lang: json.loads((ROOT / "site" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
           for lang in ("pt-BR", "es", "en")}


def test_coberta_says_and_shows_that_the_next_card_goes_face_down(tables):
    """Tapping "Coberta" only turned the button purple: the prompt still said "arraste uma
    carta… ou toque nela" and the cards looked the same. Now the prompt says the next card
    goes face down, the cards it may cover wear the back's hatching and the word (and say it
    in their names), and tapping it again (or B) cancels it; aria-pressed follows."""
    page = table_for(tables, "desktop")
    start(page, {"mode": "1x1", "level": "facil", "hint": False},
          {"seed": 13, "hands": [["3c", "Kh", "5d"], ["4h", "5c", "4s"]], "dealer": 1})
    before = last_n(page)
    page.locator("#hand .card.in-hand").first.click()  # 3c takes the first round: covering is allowed
    wait_turn(page, before)
    toggle = page.locator("#actions [data-action=toggle-cover]")
    prompt, cards = page.locator("#prompt"), page.locator("#hand .card.in-hand")
    plain = prompt.inner_text()
    badge = "(e) => getComputedStyle(e, '::after').content.includes('Coberta')"
    assert cards.evaluate_all(f"(cs) => cs.map({badge})") == [False, False]
    for press in (toggle.click, lambda: page.keyboard.press("b")):
        press()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(prompt).to_have_text(STRINGS["pt-BR"]["prompt.cover_on"])
        assert cards.evaluate_all(f"(cs) => cs.map({badge})") == [True, True]
        expect(cards.first).to_have_accessible_name("Jogar coberta: rei de copas")
        press()  # again: cancelled
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(prompt).to_have_text(plain)
        assert cards.evaluate_all(f"(cs) => cs.map({badge})") == [False, False]
        expect(cards.first).to_have_accessible_name("rei de copas")
    toggle.click()
    click_and_wait(page, cards.first)
    expect(page.locator('#trick .played[data-seat="0"] .card.covered')).to_have_count(1)
    for lang, strings in STRINGS.items():  # said in each language, with the button's own word
        assert strings["action.cover"] in strings["prompt.cover_on"], lang


def test_the_drop_zone_goes_as_soon_as_a_card_is_dropped(tables):
    """After a touch drag, "Solte aqui para jogar" stayed drawn over the trick, fading, into
    the bot's turn. It is gone the moment the finger lifts (motion not reduced)."""
    page = table_for(tables, "portrait")
    page.emulate_media(reduced_motion="no-preference")
    try:
        start(page, {"mode": "1x1", "level": "facil", "hint": False},
              {"seed": 5, "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], "dealer": 1})
        card = page.locator("#hand .card.in-hand").first.bounding_box()
        zone = page.locator("#drop-zone").bounding_box()
        x0, y0 = card["x"] + card["width"] / 2, card["y"] + card["height"] / 2
        x1, y1 = zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2
        cdp = page.context.new_cdp_session(page)
        touch = lambda kind, x, y: cdp.send("Input.dispatchTouchEvent", {  # noqa: E731
            "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]})
        before = last_n(page)
        touch("touchStart", x0, y0)
        for i in range(1, 9):
            touch("touchMove", x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8)
        drawn = "() => { const s = getComputedStyle(document.getElementById('drop-zone'));" \
                " return [s.color, s.borderTopColor]; }"
        assert page.evaluate(drawn) != ["rgba(0, 0, 0, 0)"] * 2, "the drop zone shows during the drag"
        touch("touchEnd", x1, y1)
        assert page.evaluate(drawn) == ["rgba(0, 0, 0, 0)"] * 2, "the drop zone is gone once the card is dropped"
        wait_turn(page, before)
        assert "3c" not in page.evaluate("window.__truco.observation.hand")
        cdp.detach()
    finally:
        page.emulate_media(reduced_motion="reduce")


PIP_OVER_RANK = """(card) => {
  const range = document.createRange();
  range.selectNodeContents(card.querySelector('.pip'));
  const pip = range.getBoundingClientRect(), rank = card.querySelector('.corner.tl b').getBoundingClientRect();
  const w = Math.min(pip.right, rank.right) - Math.max(pip.left, rank.left);
  const h = Math.min(pip.bottom, rank.bottom) - Math.max(pip.top, rank.top);
  return w > 0.5 && h > 0.5;
}"""


def test_six_seats_on_a_phone_held_sideways_have_readable_cards_on_the_table(tables):
    """3 x 3 on a phone held sideways: the cards played were about 29 x 41 px and the centre
    pip covered the rank. They are 44 px wide or more, the pip clear of the rank."""
    page = table_for(tables, "landscape")
    start(page, {"mode": "3x3", "level": "dificil", "partner_level": "dificil", "hint": False,
                 "humano_decide": False, "sinais": False},
          {"seed": 1, "dealer": 3, "hands": [["4d", "5s", "6h"], ["3h", "2s", "2d"], ["Qd", "Qs", "Jd"],
                                             ["3s", "2c", "Ac"], ["4c", "7h", "As"], ["3c", "3d", "2h"]]})
    cards = page.locator("#trick .card.face")
    expect(cards).not_to_have_count(0)
    for card in cards.all():
        assert card.bounding_box()["width"] >= 44, card.bounding_box()
        assert not card.evaluate(PIP_OVER_RANK), f"the pip covers the rank of {card.get_attribute('aria-label')}"


def test_the_partners_cards_in_a_mao_de_dez_are_big_enough_and_name_a_manilha(tables):
    """A mão de dez on a laptop: the partner's cards (shown to the pair) were about 35 px wide
    and the Zap among them had a gold border, no name. 50 px or more, and the name shows."""
    page = table_for(tables, "desktop")
    start(page, {"mode": "2x2", "hint": False, "humano_decide": False, "sinais": False},
          {"seed": 17, "score": [10, 4], "dealer": 3,
           "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"], ["4c", "Qh", "6d"], ["Jh", "Jc", "Js"]]})
    partner = page.locator('.seat[data-seat="2"] .seat-cards .card.face')
    expect(partner).to_have_count(3)
    for card in partner.all():
        assert card.bounding_box()["width"] >= 50, card.bounding_box()
    zap = page.locator('.seat[data-seat="2"] .seat-cards .card.manilha .tag')
    expect(zap).to_be_visible()
    expect(zap).to_have_text("Zap")
    box, seat = zap.bounding_box(), page.locator('.seat[data-seat="2"]').bounding_box()
    assert box["height"] >= 10 and box["y"] + box["height"] <= seat["y"] + seat["height"] + 1, (box, seat)

"""The table's layout through a hand (issue 29): no speech bubble or box (the Dica's line,
the partner's opinion, a banner) is drawn over a control or a card, and nothing jumps: the
cards on the felt, the seats and the action row keep their boxes whatever opens or closes,
and the page's layout-shift score stays small. On a touch phone held upright (390 x 844)
and sideways (844 x 390), and a laptop (1280 x 800), in 1 x 1, 2 x 2 and 3 x 3.

One page per kind of device (the phone's is resized), the clock stopped so that every
bubble stays up until it is measured (more at once than a player ever sees)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from helpers.browser import TablesByDevice
from helpers.table import last_n, start, wait_turn

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
    "1x1": ({"mode": "1x1", "level": "dificil", "hint": True}, {"seed": 11, "dealer": 0, "hands": H2}),
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


def ask_dica(page):
    button = page.locator("#hint-button")
    if button.is_visible():
        button.click()
        page.wait_for_function("() => !document.getElementById('hint-follow').hidden"
                               " || /\\S/.test(document.getElementById('hint-text').textContent) &&"
                               " !document.getElementById('hint-button').disabled", timeout=30_000)


@pytest.mark.parametrize("mode", list(SCENARIOS))
@pytest.mark.parametrize("size", list(SIZES))
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
    if size != "landscape":  # sideways, the Dica's row still takes 38 px more than a phone has (2 x 2, 3 x 3)
        height = page.evaluate("[document.scrollingElement.scrollHeight, innerHeight]")
        assert height[0] <= height[1] + 1, f"{size} {mode}: the page scrolls ({height})"
    assert watched["shift"] < 0.05, f"{size} {mode}: layout shift {watched['shift']:.3f}"

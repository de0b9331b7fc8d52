"""The start screen on a phone's first visit (issue 41, item 6): it opened scrolled to its
bottom, "Começar" focused, with the title, the name and the mode out of view, and the
pass-and-play rows took most of the form. Now it opens at its top with the essentials in
view and "Começar" at its foot, and the pass-and-play rows are folded until asked for."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, watched_page

# Whether the element a person sees at the centre of each selector's box is that element
# (or inside it): what is out of view, or under something, is not.
SEEN = """(sels) => sels.map((s) => {
  const e = document.querySelector(s);
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return [s, 'out of view', Math.round(y)];
  const top = document.elementFromPoint(x, y);
  return [s, e === top || e.contains(top) ? 'seen' : `under ${top?.tagName}#${top?.id}.${top?.className}`, Math.round(y)];
})"""


@pytest.mark.parametrize("size", [(390, 844), (360, 640)], ids=["390x844", "360x640"])
def test_the_first_visit_opens_the_start_screen_at_its_top(browser, base_url, size):
    width, height = size
    with watched_page(browser, base_url, viewport={"width": width, "height": height}, is_mobile=True,
                      has_touch=True, locale="pt-BR") as page:
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        dialog = page.locator("#start-dialog")
        expect(dialog).to_be_visible()
        # Nothing scrolled: neither the page nor the dialog.
        assert page.evaluate("() => [scrollY, document.querySelector('#start-dialog').scrollTop]") == [0, 0]
        seen = page.evaluate(SEEN, ["#start-title", "#player-name", "input[name=mode][value='2x2']", "#start-button"])
        assert all(s[1] == "seen" for s in seen), seen
        # The keyboard's place is "Começar", as before: Enter starts a match.
        assert page.evaluate("() => document.activeElement.id") == "start-button"
        # "Jogadores neste aparelho" is one line until opened; then its rows are there to tick.
        fold = page.locator("#local-players-fold > summary")
        expect(fold).to_have_text("Jogadores neste aparelho")
        expect(page.locator("label[for=human-1]")).to_be_hidden()
        fold.tap()
        page.locator("label[for=human-1]").tap()
        expect(page.locator("input[name=seat_name][data-seat='1']")).to_be_visible()
        # A field the focus moves to is not left under the button's foot.
        page.locator("input[name=seat_name][data-seat='1']").focus()
        seen = page.evaluate(SEEN, ["input[name=seat_name][data-seat='1']"])
        assert seen[0][1] == "seen", seen
        # Nor any control the keyboard reaches, "Mais opções" open: each is seen when focused.
        page.locator("details.more > summary").tap()
        hidden = []
        for _ in range(45):
            page.keyboard.press("Tab")
            where = page.evaluate("""() => { const e = document.activeElement;
              const t = e.matches('input[type=radio], input[type=checkbox]') ? (e.labels?.[0] || e) : e;
              const r = t.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
              const top = document.elementFromPoint(x, y);
              return t === top || t.contains(top) || e === top ? null : `${e.tagName}#${e.id}[${e.name || ''}] under ${top?.className}`; }""")
            if where:
                hidden.append(where)
        assert hidden == [], hidden

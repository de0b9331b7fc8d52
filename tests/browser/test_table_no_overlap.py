"""The table as a person sees it (issue 41): playing hands of 1 x 1, 2 x 2, 3 x 3, a mão
de dez (the partner's cards shown), a mão de ferro (every card face down, RULES.md §6) and
a pass-and-play table (a person's name on the player's line) at five screen sizes, at every one of the player's turns (before and after asking the Dica) and
every hand's summary, no card on the table has its
index corner under something else, no line of text is under something else, no text box
cuts its text off (a box scrolling inside itself, or text off the screen), and the page
does not scroll (a modal dialog, the end of the match, excepted). What is on top at a point,
the page's scroll size and each box's scroll size decide (tests/helpers/layout.py), not
class names.

A card's centre may lie under the next round's card: the rounds of a hand are fanned, each
earlier card showing its index corner (bench/layout/audit.py counts the centres too).
One language per size, the three across the file; one page per device and language,
resized; the clock stopped, so each speech bubble stays up until it is measured (more at
once than a player ever sees)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from helpers.browser import open_table
from helpers.layout import LANG_PATH, audit_match, describe

PHONE = {"is_mobile": True, "has_touch": True}
# size: (viewport, device, language)
SIZES = {
    "360x640": ({"width": 360, "height": 640}, PHONE, "es"),
    "390x844": ({"width": 390, "height": 844}, PHONE, "pt-BR"),
    "430x932": ({"width": 430, "height": 932}, PHONE, "en"),
    "844x390": ({"width": 844, "height": 390}, PHONE, "en"),
    "1280x800": ({"width": 1280, "height": 800}, {}, "es"),
}
CHECKED = ("card corner", "text covered", "text cut off", "page scroll")
# A pass-and-play table: the player's line carries a person's name, and in the second hand
# the player deals ("Player 1" + a badge beside "Sinal" and the Dica's button).
HANDS = {"1x1": 2, "2x2": 2, "3x3": 2, "2x2 dez": 1, "2x2 ferro": 1, "2x2 pass": 2}


@pytest.fixture(scope="module")
def pages(browser, base_url):
    """One table page per device and language, opened on first use, the clock stopped."""
    opened = {}

    def page_for(viewport, device, lang):
        key = (repr(sorted(device.items())), lang)
        if key not in opened:
            tables = open_table(browser, base_url, LANG_PATH[lang], viewport=viewport, locale=lang,
                                reduced_motion="reduce", **device)
            page = next(tables)
            page.clock.install()
            page.clock.pause_at(datetime.now() + timedelta(minutes=1))
            opened[key] = (tables, page)
        page = opened[key][1]
        if page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        return page

    yield page_for
    for tables, _page in opened.values():
        next(tables, None)  # closes the context and checks the page's console


# 430 x 932 (a tall phone, in English) and 1280 x 800 (a laptop: the roomiest table, where the
# suite's other tests play by default) are soak sizes: 390 x 844 plays the same upright phone
# and 844 x 390 the English texts in CI's run, which has no room for them (./run-tests --all).
SOAK_SIZES = {"430x932", "1280x800"}


@pytest.mark.parametrize("size", [pytest.param(s, marks=pytest.mark.soak) if s in SOAK_SIZES else s for s in SIZES])
def test_nothing_on_the_table_is_covered_or_cut_off_and_the_page_does_not_scroll(pages, size):
    viewport, device, lang = SIZES[size]
    page = pages(viewport, device, lang)
    seen = {}
    for mode, hands in HANDS.items():
        found, steps = audit_match(page, mode, hands, kinds=CHECKED)
        assert steps >= hands + 2, f"{size} {mode}: only {steps} steps played"
        for p in found:
            seen.setdefault(describe(p), f"{mode}, {p['step']}")
    assert not seen, f"{size} ({lang}): {len(seen)} problems a person would see:\n" + "\n".join(
        f"  {what}  [{where}]" for what, where in seen.items())


def test_the_longest_badge_at_a_narrow_phones_side_seat_covers_nothing_and_is_not_covered(pages):
    """Portuguese's "Dá as cartas" at a 3 x 3 side seat, on the narrowest phone (the sizes
    above play 3 x 3 there in Spanish): it ran out of its seat under the card that seat
    played in round 3."""
    viewport, device, _lang = SIZES["360x640"]
    page = pages(viewport, device, "pt-BR")
    found, steps = audit_match(page, "3x3", 1, kinds=CHECKED)
    assert steps >= 3, f"only {steps} steps played"
    seen = {describe(p): p["step"] for p in found}
    assert not seen, "\n".join(f"  {what}  [{where}]" for what, where in seen.items())

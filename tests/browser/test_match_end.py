"""The end of a match (issue 41; site/static/js/table/match_end.js): the winner and the final
score, a chart of the score hand by hand (one dot per hand played, the last at the final
score), the hands that decided it, and the dialog's buttons, as a person sees them, in
Portuguese and in English. A match started near its end with `?fast=1` and a seed, so a few
hands decide it (RULES.md §7: a match is won at 12)."""

from __future__ import annotations

import json

import pytest

from helpers import ROOT
from helpers.browser import ENGINE_TIMEOUT_MS, READY, audit, new_page, until
from helpers.table import accept_or_play_first, wait_turn

STRINGS = {lang: json.loads((ROOT / "site" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
           for lang in ("pt-BR", "en")}
PATH = {"pt-BR": "/", "en": "/en/"}

# What the end dialog shows: title, score line, the chart's dots per team (hand, score and
# place), the goal line's height, the notes, where the focus is, and whether anything scrolls.
SEEN = """() => {
  const d = document.getElementById('end-dialog'), q = (s) => d.querySelector(s);
  const dots = (side) => [...d.querySelectorAll(`.end-line.${side} circle`)].map((c) => (
    { hand: Number(c.dataset.hand), score: Number(c.dataset.score), cy: Number(c.getAttribute('cy')) }));
  const svg = q('svg');
  const buttons = [...d.querySelectorAll('button')].filter((b) => b.offsetParent).map((b) => {
    const r = b.getBoundingClientRect(); return { id: b.id, w: r.width, h: r.height }; });
  return { open: d.open, title: q('#end-title').textContent, score: q('#end-score').textContent,
           us: dots('us'), them: dots('them'), goal: svg ? Number(q('.end-goal').getAttribute('y1')) : null,
           label: svg ? svg.getAttribute('aria-label') : '', role: svg ? svg.getAttribute('role') : '',
           notes: [...d.querySelectorAll('#end-notes li')].map((li) => li.textContent),
           focus: document.activeElement.id, buttons,
           pageScrolls: document.scrollingElement.scrollHeight > innerHeight + 1,
           dialogScrolls: d.scrollHeight > d.clientHeight + 1,
           dialogFits: d.getBoundingClientRect().bottom <= innerHeight && d.getBoundingClientRect().top >= 0,
           animations: svg ? svg.getAnimations({ subtree: true }).length : 0 };
}"""


def play_to_the_end(page):
    for _ in range(200):
        wait_turn(page, None)
        if page.locator("#app").get_attribute("data-phase") == "over":
            return page.evaluate("window.__truco.observation")
        before = page.evaluate("window.__truco.observation.log.at(-1).n")
        accept_or_play_first(page)
        wait_turn(page, before)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_the_end_of_a_match_shows_its_score_hand_by_hand(browser, base_url, axe_source, lang):
    s = STRINGS[lang]
    # A phone's screen; in English also with reduced motion asked for (nothing moves then).
    reduce = lang == "en"
    context, page = new_page(browser, base_url, viewport={"width": 360, "height": 640},
                             reduced_motion="reduce" if reduce else "no-preference")
    page.goto(f"{PATH[lang]}?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.evaluate("([s, c]) => window.__truco.start(s, c)",
                  [{"mode": "1x1", "level": "facil"}, {"seed": 5, "score": [8, 8]}])
    final = play_to_the_end(page)
    until(page, "document.getElementById('end-dialog').open")
    seen = page.evaluate(SEEN)
    us, them = final["team"], 1 - final["team"]
    won = final["winner"] == us
    assert max(final["score"]) >= 12

    # The winner and the final score, in the page's language.
    assert seen["title"] == s["match.won" if won else "match.lost"]
    assert f"{final['score'][us]} × {final['score'][them]}" in seen["score"]

    # One dot per hand played for each team, in order, the last at the final score; the
    # winner's last dot on the goal line (12).
    hands = final["hand_number"]
    assert [d["hand"] for d in seen["us"]] == list(range(1, hands + 1)), seen["us"]
    assert [d["hand"] for d in seen["them"]] == list(range(1, hands + 1)), seen["them"]
    assert seen["us"][-1]["score"] == final["score"][us]
    assert seen["them"][-1]["score"] == final["score"][them]
    winner_dots = seen["us"] if won else seen["them"]
    assert winner_dots[-1]["cy"] == pytest.approx(seen["goal"], abs=0.2) or final["score"][final["winner"]] > 12
    # Never going down: a team's score only grows hand by hand (§7).
    for dots in (seen["us"], seen["them"]):
        assert all(a["score"] <= b["score"] for a, b in zip(dots, dots[1:]))
    # Told to a screen reader: the chart is an image whose label lists every score.
    assert seen["role"] == "img"
    assert seen["label"].startswith(s["end.chart.summary"].split("{")[0])
    assert f"{final['score'][us]} × {final['score'][them]}" in seen["label"]
    assert seen["label"].count("×") == hands + 2  # the start, each hand, and the "us × them" key
    # The last hand is told in a line of its own.
    last_prefix = s["end.last"].split("{")[0]
    assert any(n.startswith(last_prefix) for n in seen["notes"]), seen["notes"]

    # It fits a 360 x 640 screen: no scroll of the page or inside the dialog; 44 px targets.
    assert not seen["pageScrolls"] and not seen["dialogScrolls"] and seen["dialogFits"], seen
    assert {b["id"] for b in seen["buttons"]} >= {"again", "to-menu", "end-replay", "end-share"}
    assert all(b["h"] >= 44 and b["w"] >= 44 for b in seen["buttons"]), seen["buttons"]
    assert seen["focus"] == "again"
    if reduce:
        assert seen["animations"] == 0, "reduced motion: the chart does not animate"
    audit(page, axe_source, f"end of the match ({lang})")

    # Play again deals a new match: hand 1, from the same start (the scenario's 8 x 8), the
    # dialog closed and the player at the table.
    page.locator("#again").click()
    until(page, """() => { const o = window.__truco.observation;
                   return !!o && o.hand_number === 1 && o.winner === null && o.score.every((v) => v === 8)
                     && !document.getElementById('end-dialog').open; }""", timeout=90_000)
    page.console_watch.check()
    context.close()

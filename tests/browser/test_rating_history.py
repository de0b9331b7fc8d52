"""The rating and the history of matches (issue 45; site/static/js/table/rating.js, match_log.js,
rating_view.js): a match finished against a bot level moves the rating as docs/rating.md's
formula says, the statistics dialog draws its chart and lists the match, whose row opens its
replay; a corrupt rating or history is set aside with a backup and the page still plays. One
phone page for the file (the formula itself: tests/build/test_rating.py)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, audit, new_page, until
from helpers.table import accept_or_play_first, wait_turn

# rating.js's numbers, as docs/rating.md gives them.
INITIAL, K_PROVISIONAL, MEDIO = 1200, 40, 1346


def expected(a, b):
    return 1 / (1 + 10 ** ((b - a) / 400))


@pytest.fixture(scope="module")
def phone(browser, base_url):
    context, page = new_page(browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    yield page
    context.close()
    page.console_watch.check()


def play_to_the_end(page):
    for _ in range(80):
        wait_turn(page, None)
        if page.locator("#app").get_attribute("data-phase") == "over":
            return page.evaluate("window.__truco.observation")
        before = page.evaluate("window.__truco.observation.log.at(-1).n")
        accept_or_play_first(page, "tap")
        wait_turn(page, before)
    raise AssertionError("the match did not end")


def stored(page, key):
    raw = page.evaluate("(k) => localStorage.getItem(k)", key)
    return json.loads(raw)["data"] if raw else None


def open_stats(page):
    page.locator("#to-menu").tap()
    page.locator("#open-stats").tap()
    expect(page.locator("#stats-dialog")).to_be_visible()
    until(page, "document.querySelector('#stats-body .rating-figure svg') !== null")


def test_a_finished_match_moves_the_rating_by_the_formula_and_opens_from_the_history(phone, axe_source):
    page = phone
    # 1 x 1 against médio from 10 x 10: one blind hand (the mão de ferro) decides it.
    page.evaluate("([s, c]) => window.__truco.start(s, c)", [{"mode": "1x1", "level": "medio"}, {"seed": 7, "score": [10, 10]}])
    final = play_to_the_end(page)
    won = final["winner"] == final["team"]
    until(page, "localStorage.getItem('truco:history') !== null")

    # Elo: 1200 + K × (S − E) against médio's 1346, K = 40 in the provisional period.
    want = round(INITIAL + K_PROVISIONAL * ((1 if won else 0) - expected(INITIAL, MEDIO)))
    rating = stored(page, "truco:rating")
    assert rating["own"]["rating"] == want and rating["own"]["games"] == 1, rating
    assert want == (1228 if won else 1188)
    # The end dialog says it.
    expect(page.locator("#end-rating")).to_have_text(f"Rating Elo: 1200 → {want} ({'+' if won else '−'}{abs(want - 1200)})")

    open_stats(page)
    figure = page.locator("#stats-body .rating-figure")
    expect(figure.locator("[data-testid=rating-value] .rating-number")).to_have_text(str(want))
    expect(figure).to_contain_text("provisório: 1 de 10")
    # The chart: from 1200 to the new rating, one dot for the match.
    chart = figure.locator("svg[data-chart=rating]")
    assert chart.locator("circle").count() == 1
    assert len(chart.locator("polyline").get_attribute("points").split()) == 2
    assert chart.evaluate("(svg) => svg.getBoundingClientRect().width") > 250

    # The history: the match with its result, mode and level, and its replay one tap away.
    row = page.locator("#stats-body .history-row").first
    expect(row).to_contain_text("Vitória" if won else "Derrota")
    expect(row).to_contain_text("1 × 1")
    expect(row).to_contain_text("Médio")
    replay = row.locator("button.history-replay")
    box = replay.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    audit(page, axe_source, "statistics with the rating and the history")
    replay.tap()
    expect(page.locator("#replay-dialog")).to_be_visible()
    until(page, "document.getElementById('replay-dialog').dataset.step === '0'")
    assert page.locator("#replay-count").text_content().strip()
    page.locator("#replay-close").tap()
    page.locator("#stats-close").tap()


def test_a_corrupt_rating_and_history_are_set_aside_made_again_and_the_page_still_plays(phone):
    page = phone
    before = page.evaluate("localStorage.getItem('truco:rating')")
    page.evaluate("""() => {
        localStorage.setItem('truco:rating', '{"v":1,"data":{"own":{"rating":"lots","games":1,"points":[]}}}');
        localStorage.setItem('truco:history', 'not json');
    }""")
    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.locator("#open-stats").tap()
    until(page, "document.querySelector('#stats-body .rating-figure svg') !== null")
    # Said, both values kept under truco:backup, and made again from the statistics' recent
    # match: the same rating, the match listed (its save was in the history: no replay now).
    expect(page.locator("#start-notes")).to_contain_text("rating salvo estava corrompido")
    expect(page.locator("#stats-body .rating-number")).to_have_text(str(json.loads(before)["data"]["own"]["rating"]))
    expect(page.locator("#stats-body .history-row")).to_have_count(1)
    expect(page.locator("#stats-body .history-row")).to_contain_text("só o resultado")
    items = stored(page, "truco:backup")["items"]
    assert {i["from"] for i in items} >= {"truco:rating", "truco:history"}
    assert any(i["raw"] == "not json" for i in items)
    assert stored(page, "truco:rating")["own"]["games"] == 1
    page.locator("#stats-close").tap()
    # The page plays on.
    page.evaluate("([s, c]) => window.__truco.start(s, c)", [{"mode": "1x1", "level": "facil"}, {"seed": 3}])
    wait_turn(page, None)
    assert page.locator("#app").get_attribute("data-phase") in ("human", "over")


def test_zerar_estatisticas_clears_the_rating_history_and_achievements_it_says_it_clears(phone):
    """What the question says goes (the statistics, the rating, the recent matches, the
    achievements) goes; the daily challenge's record stays, and its achievement with it."""
    page = phone
    page.evaluate("""() => {
        localStorage.setItem('truco:achievements', JSON.stringify({v: 1, data: {earned: {
          virada: {date: '2026-11-02', count: 1}, desafio: {date: '2026-11-01', count: 1}}, seen: ['m1']}}));
        localStorage.setItem('truco:daily', JSON.stringify({v: 1, data: {days: {
          '2026-11-01': {id: 'd1', result: 'won', us: 12, them: 3, row: 'WW'}}, current: null, review: null}}));
    }""")
    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.locator("#open-stats").tap()
    section = page.locator("#stats-achievements")
    expect(section.locator("li.earned")).to_have_count(2)
    page.locator("#reset-stats").tap()
    expect(page.locator("#confirm-detail")).to_contain_text("com o rating, as partidas recentes e as conquistas")
    page.locator("#confirm-yes").tap()
    expect(page.locator("#data-message")).to_have_text("Estatísticas zeradas.")
    # The list drawn again: the virada gone, the challenge won (its record kept) still there.
    expect(section.locator("li.earned")).to_have_count(1)
    expect(section.locator("li[data-id=desafio]")).to_contain_text("01/11/2026")
    assert stored(page, "truco:achievements")["earned"] == {"desafio": {"date": "2026-11-01", "count": 1}}
    assert stored(page, "truco:stats") is None and stored(page, "truco:history") in (None, {"matches": []})
    assert stored(page, "truco:rating") is None or stored(page, "truco:rating")["own"]["games"] == 0
    expect(page.locator("#stats-body .history-row")).to_have_count(0)
    assert stored(page, "truco:daily")["days"]["2026-11-01"]["result"] == "won"
    page.locator("#stats-close").tap()

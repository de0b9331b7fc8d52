"""O desafio do dia (issue 45; site/static/js/table/daily.js): the date in Brasília decides the
deals (the engine's, for the seed truco.daily makes of it), one try a day counts and the later
ones are practice, and the result to share tells no card. One phone page, its clock set by
Playwright, one engine start for the whole file."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, audit, new_page
from helpers.table import wait_turn
from truco import api

UTC = datetime.timezone.utc
SHOTS = Path("/work/notes/shots45b")  # the screenshots, taken where this folder exists


def shot(page, name, then=None):
    """Screenshots at 390 x 844 and 1280 x 800 (`then()` puts the view back in place after the resize)."""
    if not SHOTS.is_dir():
        return
    page.screenshot(path=str(SHOTS / f"{name}_390.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    if then:
        then()
    page.screenshot(path=str(SHOTS / f"{name}_1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
# Noon in Brasília (UTC-3) on each day; 02:30 UTC on the 5th is still the 4th there.
NOON = {day: datetime.datetime.fromisoformat(f"{day}T15:00:00+00:00") for day in ("2026-12-03", "2026-12-04", "2026-12-05")}
LATE_ON_THE_4TH = datetime.datetime(2026, 12, 5, 2, 30, tzinfo=UTC)
# The challenge's table as the page asks the engine for it (daily.js DAILY_SETTINGS).
DAILY = {"preset": "mineiro", "players": 4, "level": "dificil", "partner_level": "dificil", "series": 1, "timer": 0,
         "ferro": "escuro", "baralho_limpo": False, "familia_real": False, "humano_decide": True, "sinais": True, "human_seat": 0}
CARD_WORDS = re.compile(r"[♣♥♠♦]|\b[2-7QJKA][cdhs]\b|\b(zap|copas|espadilha|pica-fumo|paus|ouros|espadas|ás|rei|valete|dama|manilha)\b", re.I)


def engine_hand(day):
    reply = json.loads(api.handle(json.dumps({"method": "new_game", "params": {**DAILY, "daily": day}})))
    return reply["observation"]["hand"]


@pytest.fixture(scope="module")
def phone(browser, base_url):
    context, page = new_page(browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.clock.set_fixed_time(NOON["2026-12-03"])
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    yield page
    context.close()
    page.console_watch.check()


def play_challenge(page):
    """The start screen's "Jogar o desafio" (or "Treinar o desafio"), up to the player's first turn."""
    expect(page.locator("#start-dialog")).to_be_visible()
    page.locator("#open-daily").tap()
    wait_turn(page, None)


def leave(page):
    page.locator("#leave").tap()
    page.locator("#leave-yes").tap()
    expect(page.locator("#start-dialog")).to_be_visible()


def raise_to_the_end(page):
    """Raise whenever the rules allow (else accept, else the first card): the hands are worth
    a lot, so the match is over in a few (the same few each run: the bots are seeded)."""
    for _ in range(60):
        wait_turn(page, None)
        if page.locator("#app").get_attribute("data-phase") == "over":
            return
        legal = page.evaluate("window.__truco.observation.legal_actions")
        n = page.evaluate("window.__truco.observation.log.at(-1).n")
        action = next((a for a in ("raise", "accept") if a in legal), None)
        if action:
            page.locator(f"#actions button[data-action={action}]").tap()
        else:
            page.locator("#hand .card.in-hand:not([disabled])").first.tap()
        page.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n"
                               " || document.getElementById('app').dataset.phase === 'over'", arg=n)
    raise AssertionError("the match did not end")


def test_the_date_in_brasilia_decides_the_deals_the_engines_for_that_day(phone, axe_source):
    page = phone
    audit(page, axe_source, "start screen with the desafio do dia")
    box = page.locator("#open-daily").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    # A damaged record is set aside with a backup (the streak starts again), and the page plays.
    page.evaluate("localStorage.setItem('truco:daily', '{\"v\": 1, \"data\": {\"days\": [\"x\"]}}')")
    play_challenge(page)
    backup = json.loads(page.evaluate("localStorage.getItem('truco:backup')"))["data"]["items"]
    assert [i["raw"] for i in backup if i["from"] == "truco:daily"] == ['{"v": 1, "data": {"days": ["x"]}}']
    first = page.evaluate("window.__truco.observation.hand")
    assert sorted(first) == sorted(engine_hand("2026-12-03"))
    assert page.locator("#daily-badge").text_content() == "Desafio do dia · 03/12/2026"
    leave(page)
    # 02:30 UTC on the 5th is the 4th in Brasília: the 4th's challenge, not the 3rd's.
    page.clock.set_fixed_time(LATE_ON_THE_4TH)
    play_challenge(page)
    other = page.evaluate("window.__truco.observation.hand")
    assert sorted(other) == sorted(engine_hand("2026-12-04")) and sorted(other) != sorted(first)
    leave(page)
    # A try left before its end counts as the day's (played, unfinished): the start screen says so.
    expect(page.locator("#daily-status")).to_contain_text("Hoje: não terminei")
    expect(page.locator("#open-daily")).to_have_text("Treinar o desafio")


def test_one_try_counts_the_next_is_practice_and_the_result_tells_no_card(phone, axe_source):
    page = phone
    page.clock.set_fixed_time(NOON["2026-12-05"])
    play_challenge(page)
    hand = page.evaluate("window.__truco.observation.hand")
    assert page.locator("#daily-badge").text_content() == "Desafio do dia · 05/12/2026"
    raise_to_the_end(page)
    end = page.locator("#end-daily")
    expect(end).to_be_visible()
    # The days played in a row: the 3rd and the 4th (left, but played) when the test before ran.
    days = json.loads(page.evaluate("localStorage.getItem('truco:daily')"))["data"]["days"]
    run = 3 if {"2026-12-03", "2026-12-04"} <= set(days) else 1
    expect(end).to_contain_text(f"Esta partida contou. Dias seguidos: {run}.")
    expect(page.locator("#end-share")).to_be_hidden()  # the match's link would deal a friend today's cards
    # The day's try won (the same every run: seeded bots, the same raises): its achievement is told.
    if page.evaluate("window.__truco.observation.winner === window.__truco.observation.team"):
        expect(page.locator("#end-achievements")).to_contain_text("Desafio vencido")
    marks = page.locator("#end-daily-row .daily-mark").count()
    assert marks == page.evaluate("window.__truco.observation.log.concat(window.__truco.observation.history || [])"
                                  ".filter((e) => e.type === 'hand').length")
    for button in ("#daily-share", "#daily-again"):
        b = page.locator(button).bounding_box()
        assert b["width"] >= 44 and b["height"] >= 44, (button, b)
    audit(page, axe_source, "end of the desafio do dia")
    # No share sheet here (Chromium on Linux): the text is copied, or shown to copy by hand.
    page.locator("#daily-share").tap()
    text = page.locator("#daily-share-text").input_value()
    assert text.startswith("Truco Mineiro — desafio de 05/12/2026: ")
    assert re.search(r": (venci|perdi) \d+ × \d+\n[🟩🟥⬜]{%d}\n" % marks, text), text
    # Where there is a share sheet, the same text goes to it, the link apart.
    page.evaluate("() => { navigator.share = async (d) => { window.__shared = d; }; }")
    page.locator("#daily-share").tap()
    shared = page.wait_for_function("() => window.__shared").json_value()
    assert shared["url"].endswith("/?desafio=1") and shared["text"] in text
    for said in (text, shared["text"]):
        assert not CARD_WORDS.search(said), said
        assert not any(card in said for card in hand)
    # Again the same day: the same deals, marked practice, not counted.
    page.locator("#daily-again").tap()
    wait_turn(page, None)
    assert sorted(page.evaluate("window.__truco.observation.hand")) == sorted(hand)
    assert page.locator("#daily-badge").text_content() == "Desafio do dia · 05/12/2026 · treino"
    record = json.loads(page.evaluate("localStorage.getItem('truco:daily')"))["data"]
    assert record["days"]["2026-12-05"]["result"] in ("won", "lost")
    assert record["days"]["2026-12-05"]["id"] != record["current"]["id"], "the practice is not the day's try"
    # The next day: a new challenge to play, and yesterday's counted try to review step by step.
    page.clock.set_fixed_time(NOON["2026-12-05"] + datetime.timedelta(days=1))
    leave(page)
    expect(page.locator("#open-daily")).to_have_text("Jogar o desafio")
    # The challenge's table was never kept as the player's choice: the start screen has theirs.
    assert page.locator("input[name=level]:checked").input_value() == "medio"
    assert json.loads(page.evaluate("localStorage.getItem('truco:settings')") or '{"data": {}}')["data"].get("level", "medio") == "medio"
    review = page.locator("#daily-review")
    expect(review).to_have_text("Rever o desafio de 05/12/2026")
    b = review.bounding_box()
    assert b["height"] >= 44, b
    review.tap()
    expect(page.locator("#replay-count")).to_contain_text("passo 1 de")
    # The Dica's view of each decision (the engine's `decisions`, made from the player's view):
    # a summary, then at each of the player's decisions what was played and what the Dica says.
    summary = page.locator(".dica-review-summary")
    expect(summary).to_contain_text(re.compile(r"Igual à Dica em \d+ de \d+ decisões\."))
    same, n = map(int, re.findall(r"\d+", summary.text_content()))
    assert 0 < n and same <= n
    if same < n:  # the raise-at-every-turn player parted from the Dica somewhere: "Próxima diferença"
        nxt = page.locator(".dica-review-next")
        b = nxt.bounding_box()
        assert b["height"] >= 44, b
        nxt.tap()
        item = page.locator(".dica-review-item.other")
        expect(item).to_contain_text("A Dica faria outra coisa.")
    else:
        page.keyboard.press("ArrowRight")
        item = page.locator(".dica-review-item").first
    expect(item).to_contain_text(re.compile(r"Você: .+Dica: .+", re.S))
    step = int(page.locator("#replay-dialog").get_attribute("data-step"))
    audit(page, axe_source, "the challenge's review with the Dica")
    shot(page, "review_dica")
    # What is on screen is what the engine says for that step.
    save = json.loads(page.evaluate("localStorage.getItem('truco:daily')"))["data"]["review"]["save"]
    decisions = json.loads(api.handle(json.dumps({"method": "decisions", "params": {"save": save}})))["decisions"]
    assert page.locator(".dica-review-item").count() == sum(d["step"] == step for d in decisions) > 0
    page.locator("#replay-close").tap()


def test_an_achievement_is_told_at_the_end_and_listed_with_its_date(phone, axe_source):
    """A mão de ferro no escuro won (a scenario: 10 × 10, the three best cards) earns "Ferro no
    escuro": told in the end dialog, kept with the day, listed on the statistics page. A
    damaged record of achievements is set aside with a backup first."""
    page = phone
    page.evaluate("localStorage.setItem('truco:achievements', '{\"v\": 1, \"data\": {\"earned\": 7}}')")
    page.evaluate("window.__truco.start({mode: '1x1', hint: false, auto_next: true},"
                  " {hands: [['4c', '7h', 'As'], ['4d', '5s', '6h']], score: [10, 10], dealer: 1})")
    for _ in range(3):
        wait_turn(page, None)
        if page.locator("#app").get_attribute("data-phase") == "over":
            break
        n = page.evaluate("window.__truco.observation.log.at(-1).n")
        page.locator("#hand .card:not([disabled])").first.tap()
        page.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)
    told = page.locator("#end-achievements")
    expect(told).to_be_visible()
    expect(told).to_contain_text("Ferro no escuro")
    assert told.get_attribute("role") == "status"
    backup = json.loads(page.evaluate("localStorage.getItem('truco:backup')"))["data"]["items"]
    assert any(i["from"] == "truco:achievements" and '"earned": 7' in i["raw"] for i in backup)
    kept = json.loads(page.evaluate("localStorage.getItem('truco:achievements')"))
    today = page.evaluate("(() => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, d.getDate()]; })()")
    assert kept["v"] == 1 and kept["data"]["earned"]["ferro_escuro"] == {"date": "%04d-%02d-%02d" % tuple(today), "count": 1}
    audit(page, axe_source, "end dialog with an achievement")
    shot(page, "end_achievement")
    # Counted once per match, whatever the page does after its end.
    assert page.evaluate("window.__truco.observation.winner") == 0
    page.locator("#to-menu").tap()
    page.locator("#open-stats").tap()
    section = page.locator("#stats-achievements")
    expect(section).to_be_visible()
    row = section.locator("li[data-id=ferro_escuro]")
    expect(row).to_contain_text("Conquistada em %02d/%02d/%04d" % (today[2], today[1], today[0]))
    expect(section.locator("li.locked").first).to_contain_text("Ainda não")
    assert section.locator("li").count() == 7
    audit(page, axe_source, "statistics with the achievements")
    section.scroll_into_view_if_needed()
    shot(page, "stats_achievements", then=section.scroll_into_view_if_needed)
    page.locator("#stats-close").tap()

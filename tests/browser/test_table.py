"""The table end to end in Chromium: whole games by tap, keyboard and drag, raises, covered
cards, mão de dez / de ferro, the timer, pause, leaving, resuming, and no leaks.

One page per module keeps Pyodide loaded; scenarios start through window.__truco.start()
(the same code path as the start screen), and `fast=1` removes the pauses between moves.
The layout tests on phones share a loaded table per kind of device (resized to each
screen; each test starts its own scenario), and the start screen's checks hold the engine
back: an engine start-up (~3 s of CPU) per test only slowed the run down.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from helpers.browser import (ENGINE_TIMEOUT_MS, READY, ConsoleWatch, EngineHold, TablesByDevice,
                              new_page, until, watched_page)
from helpers.table import act, click_and_wait, drag_to, last_n, obs, phase, start, wait_turn

from truco.cards import card_name
from truco.game import deal_for


def hidden_cards(o, seed):
    """Cards of other seats that the human must not see now (fixed deals come from the seed)."""
    hands = deal_for(seed, o["hand_number"] - 1, o["players"])
    on_table = {p["card"] for r in o["rounds"] for p in r["plays"] if p["card"]}
    visible = {c for v in o["visible_hands"] for c in v["cards"]}
    return {c for s, h in enumerate(hands) if s != o["seat"] for c in h} - on_table - visible


def assert_no_leak(page, o, seed):
    hidden = hidden_cards(o, seed)
    html = page.evaluate("""() => {
        const copy = document.getElementById('app').cloneNode(true);
        copy.querySelector('#live')?.remove();
        return copy.outerHTML; }""")
    for c in hidden:
        assert f'"{c}"' not in html and f">{c}<" not in html, f"hidden card code {c} in the DOM"
        assert card_name(c) not in html, f"hidden card name {card_name(c)} in the DOM"
    for text in page.evaluate("window.__workerMessages.splice(0)"):
        msg = json.loads(text)
        m_obs = (msg.get("result") or {}).get("observation") if isinstance(msg.get("result"), dict) else None
        if m_obs is None:
            assert "card" not in text, f"a worker message that is not an observation names a card: {text[:200]}"
            continue
        # Each reply is checked against the cards hidden at its own moment; the part of the
        # log before the current deal names cards played face up in an earlier hand.
        m_hidden = hidden_cards(m_obs, seed)
        last_deal = max(i for i, e in enumerate(m_obs["log"]) if e["type"] == "deal")
        # `history` holds earlier hands, where only cards played face up are named.
        assert all(set(e) <= {"type", "seat", "card"} if "card" in e else True for e in m_obs.get("history", []))
        assert all(e["type"] == "play" for e in m_obs.get("history", []) if "card" in e)
        current = {**m_obs, "log": m_obs["log"][last_deal:], "history": None, "rules": None, "manilhas": None}
        dumped = json.dumps(current, ensure_ascii=False)
        for c in m_hidden:
            assert f'"{c}"' not in dumped and card_name(c) not in dumped, f"hidden card {c} in a worker message"
        assert set(msg["result"]) <= {"observation", "save"}


def play_to_the_end(page, seed, how, check_leaks=True, limit=400):
    for _ in range(limit):
        if phase(page) == "over":
            return obs(page)
        o = obs(page)
        shown_us = int(page.locator("[data-testid=score-us]").inner_text().split()[0])
        assert shown_us == o["score"][o["team"]], "the score shown is the engine's"
        # A mão de dez is worth what playing it makes it, also while it is being decided.
        shown_value = o["rules"]["mao_de_x_value"] if o["decision"] else o["hand_value"]
        assert page.locator("[data-testid=hand-value]").inner_text() == str(shown_value)
        if check_leaks:
            assert_no_leak(page, o, seed)
        act(page, how)
    raise AssertionError("the match did not end")


def test_a_whole_1x1_game_by_tapping(recorded_table):
    start(recorded_table, {"mode": "1x1", "level": "medio"}, {"seed": 101})
    final = play_to_the_end(recorded_table, 101, "click")
    assert final["winner"] in (0, 1)
    assert max(final["score"]) >= 12
    dialog = recorded_table.locator("#end-dialog")
    expect(dialog).to_be_visible()
    expect(recorded_table.locator("#end-title")).to_have_text(re.compile("Vitória|Derrota"))
    recorded_table.locator("#again").click()
    # A new match: the first hand, 0 x 0, the human to act (not the old match's end).
    until(recorded_table, "() => { const o = window.__truco.observation;"
                 " return !!o && o.hand_number === 1 && o.score.every((s) => s === 0) && o.winner == null"
                 " && document.getElementById('app').dataset.phase === 'human' && !window.__truco.busy; }",
          timeout=90_000)
    recorded_table.console_watch.check()


def test_a_whole_2x2_game_by_keyboard(recorded_table):
    start(recorded_table, {"mode": "2x2", "level": "facil", "partner_level": "dificil"}, {"seed": 202})
    final = play_to_the_end(recorded_table, 202, "keys")
    assert final["players"] == 4 and final["winner"] in (0, 1)
    expect(recorded_table.locator("#end-dialog")).to_be_visible()
    recorded_table.locator("#to-menu").click()
    expect(recorded_table.locator("#start-dialog")).to_be_visible()
    recorded_table.console_watch.check()


def test_a_whole_2x2_game_by_drag_and_drop(recorded_table):
    # From 6 x 6 to the match's end: every move is the same drag (with the same checks of
    # the score and the value shown), and the whole matches by tap and by keys above play
    # from 0 x 0.
    start(recorded_table, {"mode": "2x2", "level": "medio"}, {"seed": 303, "score": [6, 6]})
    final = play_to_the_end(recorded_table, 303, "drag", check_leaks=False)
    assert final["winner"] in (0, 1)
    recorded_table.console_watch.check()


def test_a_drop_outside_the_table_returns_the_card(recorded_table):
    start(recorded_table, {"mode": "1x1"}, {"seed": 5, "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], "dealer": 1})
    card = recorded_table.locator("#hand .card.in-hand").first
    drag_to(recorded_table, card, ".topbar")
    # The card glides back (a CSS transition, slow on a loaded machine): the next drag
    # starts from where the player sees it, back in the hand.
    until(recorded_table, "() => { const c = document.querySelector('#hand .card.in-hand');"
                 " return !!c && !c.style.transform && !c.matches('.returning, .dragging'); }")
    assert obs(recorded_table)["hand"] == ["3c", "Kh", "5d"], "nothing was played"
    expect(recorded_table.locator("#hand .card.in-hand")).to_have_count(3)
    before = last_n(recorded_table)
    drag_to(recorded_table, recorded_table.locator("#hand .card.in-hand").first, "#drop-zone")
    wait_turn(recorded_table, before)
    assert "3c" not in obs(recorded_table)["hand"]
    expect(recorded_table.locator('#trick .played[data-seat="0"] .card')).to_have_attribute("aria-label", "3 de paus")


def test_truco_button_raises_and_the_answer_is_shown(recorded_table):
    start(recorded_table, {"mode": "1x1", "level": "dificil"}, {"seed": 7, "hands": [["4c", "7h", "As"], ["4d", "5s", "6h"]], "dealer": 1})
    raise_button = recorded_table.get_by_role("button", name="Truco!")
    expect(raise_button).to_be_visible()
    click_and_wait(recorded_table, raise_button)
    o = obs(recorded_table)
    answer = [e for e in o["log"] if e["type"] in ("accept", "run", "raise") and e["seat"] == 1]
    assert answer, "the bot answered the truco"
    if answer[0]["type"] == "run":
        assert o["score"][0] == 2
    else:
        assert o["hand_value"] >= 4 or o["pending"]
    bubbles = recorded_table.locator(".bubble:not([hidden])")
    assert bubbles.count() >= 1


def test_answering_a_bot_truco_accept_run_and_raise_back(recorded_table):
    # Difícil with three manilhas asks for truco at once; the human answers.
    scenario = {"seed": 7, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"]], "dealer": 0}
    for answer, check in (("accept", lambda o: o["hand_value"] == 4),
                          ("run", lambda o: o["score"] == [0, 2]),
                          ("raise", lambda o: (o["pending"] or {}).get("value") == 6 or o["hand_value"] >= 6 or o["score"][1] >= 4)):
        start(recorded_table, {"mode": "1x1", "level": "dificil"}, scenario)
        o = obs(recorded_table)
        if not o["pending"]:
            pytest.skip("the bot did not ask for truco with this deal")
        expect(recorded_table.locator("#prompt")).to_contain_text("pediu Truco")
        names = {"accept": "Aceitar", "run": "Correr", "raise": "Seis!"}
        click_and_wait(recorded_table, recorded_table.get_by_role("button", name=names[answer], exact=True))
        assert check(obs(recorded_table)), (answer, obs(recorded_table))


def test_a_covered_card_from_the_second_round(recorded_table):
    start(recorded_table, {"mode": "1x1", "level": "facil"}, {"seed": 13, "hands": [["3c", "Kh", "5d"], ["4h", "5c", "4s"]], "dealer": 1})
    assert recorded_table.locator("#actions [data-action=toggle-cover]").count() == 0, "no cover in the 1st round (§4)"
    act(recorded_table)  # 3c wins the first round: the human leads the second
    o = obs(recorded_table)
    assert len(o["rounds"]) == 2 and o["to_move"] == 0
    toggle = recorded_table.locator("#actions [data-action=toggle-cover]")
    toggle.click()
    expect(recorded_table.locator("#actions [data-action=toggle-cover]")).to_have_attribute("aria-pressed", "true")
    click_and_wait(recorded_table, recorded_table.locator("#hand .card.in-hand").first)
    covered = recorded_table.locator('#trick .played[data-seat="0"] .card.covered')
    expect(covered).to_have_count(1)
    assert any(e["type"] == "cover" and e["seat"] == 0 for e in obs(recorded_table)["log"])


def test_mao_de_dez_decision(recorded_table):
    start(recorded_table, {"mode": "2x2"}, {"seed": 17, "score": [10, 4], "dealer": 3})
    o = obs(recorded_table)
    assert o["decision"] and o["decision"]["seat"] == 0
    expect(recorded_table.locator("#prompt")).to_contain_text("Mão de dez")
    partner = recorded_table.locator('.seat[data-seat="2"] .seat-cards .card.face')
    expect(partner).to_have_count(3)  # the partner's cards are shown to the deciding side
    assert recorded_table.locator("#actions [data-action=raise]").count() == 0
    click_and_wait(recorded_table, recorded_table.get_by_role("button", name="Jogar"))
    assert obs(recorded_table)["hand_value"] == 4
    assert recorded_table.get_by_role("button", name="Truco!").count() == 0, "no truco in a mão de dez (§6)"


def test_the_hand_summary_gives_way_once_the_next_hand_is_under_way(recorded_table):
    """A summary that went on by itself (the test pace, as "Seguir sozinho") sits over the
    middle of the table: it goes as soon as another seat has moved in the new hand, so it
    never hides the card just led (playtest), and when the human leads the new hand it goes
    at once, or on a phone it lies over their cards and the "Truco!" button. The last hand
    can still be reviewed from the corner, "Ver a mão anterior"."""
    start(recorded_table, {"mode": "1x1"}, {"seed": 41, "dealer": 1})
    banner = recorded_table.locator("#banner")

    def moved_by_bot(o):
        deal = max(e["n"] for e in o["log"] if e["type"] == "deal")
        return any(e["n"] > deal and e.get("seat") == 1 and e["type"] in ("play", "raise", "accept", "run")
                   for e in o["log"])

    seen = {"led": 0, "after_bot": 0}
    hand = obs(recorded_table)["hand_number"]
    for _ in range(60):
        act(recorded_table)
        o = obs(recorded_table)
        if o["winner"] is not None:
            break
        if o["hand_number"] == hand or o["decision"]:
            continue
        hand = o["hand_number"]  # the human's first turn of a new hand
        expect(banner).to_be_hidden()
        corner = recorded_table.get_by_role("button", name="Ver a mão anterior")
        expect(corner).to_be_visible()  # the last hand can still be reviewed
        if not any(seen.values()):
            corner.click()
            dialog = recorded_table.locator("#review-dialog")
            expect(dialog).to_contain_text(f"Mão {hand - 1}")
            dialog.get_by_role("button", name="Fechar").click()
        seen["after_bot" if moved_by_bot(o) else "led"] += 1
        if seen["led"] and seen["after_bot"]:
            break
    assert seen["led"] and seen["after_bot"], seen


def test_mao_de_ferro_in_the_dark_and_as_claras(recorded_table):
    start(recorded_table, {"mode": "1x1", "ferro": "escuro"}, {"seed": 19, "score": [10, 10], "dealer": 1,
                                                        "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]]})
    backs = recorded_table.locator("#hand .card.in-hand.back")
    expect(backs).to_have_count(3)
    html = recorded_table.locator("#hand").inner_html()
    assert "3c" not in html and "3 de paus" not in html
    before = last_n(recorded_table)
    backs.nth(1).click()  # the second card, blind: Kh
    wait_turn(recorded_table, before)
    expect(recorded_table.locator('#trick .played[data-seat="0"] .card.face')).to_have_attribute("aria-label", "rei de copas")
    start(recorded_table, {"mode": "1x1", "ferro": "claras"}, {"seed": 19, "score": [10, 10], "dealer": 1,
                                                        "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]]})
    expect(recorded_table.locator("#hand .card.in-hand.face")).to_have_count(3)


def test_leaving_the_table_asks_first_and_clears_the_game(recorded_table):
    start(recorded_table, {"mode": "1x1"}, {"seed": 23})
    recorded_table.get_by_role("button", name="Sair da mesa").click()
    expect(recorded_table.locator("#leave-dialog")).to_be_visible()
    recorded_table.get_by_role("button", name="Ficar").click()
    expect(recorded_table.locator("#leave-dialog")).to_be_hidden()
    assert phase(recorded_table) == "human"
    recorded_table.get_by_role("button", name="Sair da mesa").click()
    recorded_table.get_by_role("button", name="Sair e perder").click()
    expect(recorded_table.locator("#start-dialog")).to_be_visible()
    assert recorded_table.evaluate("localStorage.getItem('truco:session')") is None


def test_a_reload_resumes_the_same_game(recorded_table):
    # The module's page: the reload is the point, not a fresh page before it.
    page = recorded_table
    start_fresh(page, {"mode": "2x2"}, {"seed": 29})
    act(page)
    act(page)
    before = obs(page)
    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    cont = page.get_by_role("button", name="Continuar partida")
    expect(cont).to_be_visible()
    cont.click()
    wait_turn(page, None)
    after = obs(page)
    for key in ("hand", "rounds", "score", "hand_value", "to_move", "hand_number"):
        assert after[key] == before[key], key


def test_the_timer_runs_out_twice_and_that_is_abandonment(browser, base_url):
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    page.clock.install()
    watch = ConsoleWatch()
    watch.watch(page)
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    start(page, {"mode": "1x1", "timer": 10}, {"seed": 31, "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], "dealer": 1})
    expect(page.locator("#timer")).to_be_visible()
    expect(page.locator("#timer .timer-text")).to_have_text("10 s")
    # Pause stops the countdown.
    page.get_by_role("button", name="Pausar").click()
    page.clock.run_for(15_000)
    assert obs(page)["auto_moves"] == [0, 0]
    page.get_by_role("button", name="Continuar").click()
    # A hidden tab stops it too.
    page.evaluate("""() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
                            document.dispatchEvent(new Event('visibilitychange')); }""")
    page.clock.run_for(15_000)
    assert obs(page)["auto_moves"] == [0, 0]
    page.evaluate("""() => { Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
                            document.dispatchEvent(new Event('visibilitychange')); }""")
    before = last_n(page)
    page.clock.run_for(10_500)
    wait_turn(page, before)
    o = obs(page)
    assert o["auto_moves"][0] == 1
    assert any(e["type"] == "timeout" and e["seat"] == 0 for e in o["log"])
    before = last_n(page)
    page.clock.run_for(10_500)
    page.wait_for_function("() => document.getElementById('app').dataset.phase === 'over'")
    o = obs(page)
    assert o["abandoned_by"] == 0 and o["winner"] == 1
    expect(page.locator("#end-title")).to_contain_text("abandono")
    context.close()
    watch.check()


def test_phone_portrait_touch_play(browser, base_url):
    with watched_page(browser, base_url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True) as page:
        page.goto("/?fast=1&mode=1x1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        expect(page.locator("#start-dialog")).to_be_visible()
        page.get_by_role("button", name="Começar").tap()
        wait_turn(page, None)
        for _ in range(6):
            if phase(page) == "over":
                break
            act(page, "tap")
        hand = page.locator("#hand").bounding_box()
        assert hand["y"] + hand["height"] <= 844, "the hand is on screen, within a thumb's reach"


def test_phone_landscape_keeps_the_hand_and_actions_on_screen(phones):
    page = phone(phones, 844, 390)
    start_fresh(page, {"mode": "2x2"}, {"seed": 37, "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"], ["Qh", "Qc", "Qs"], ["Jh", "Jc", "Js"]], "dealer": 3})
    for sel in ("#hand", "#actions", "#trick"):
        box = page.locator(sel).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 390 + 1, f"{sel} is off screen in landscape"
        assert box["x"] >= 0 and box["x"] + box["width"] <= 844 + 1, f"{sel} is off screen in landscape"
    before = last_n(page)
    page.locator("#hand .card.in-hand").first.tap()
    wait_turn(page, before)
    assert "3c" not in obs(page)["hand"]


def test_phone_landscape_answering_a_truco_fits_the_screen(phones):
    """A phone held sideways (844 x 390), 2 x 2 with humano decide: an opponent calls truco
    and the player answers for the pair. The wider-screen card sizes (the phone is 844 px
    wide) overrode the landscape ones, so the hand took most of the column: "Seis!" and the
    partner's opinion fell below the screen and "Você" sat on top of them. Every answer
    button, the opinion and the player's label are on screen, none over another."""
    page = phone(phones, 844, 390)
    # Tonho (seat 1, after the player) holds three manilhas and calls truco at once; the
    # player answers for the pair, Dito's opinion beside the buttons.
    start_fresh(page, {"mode": "2x2", "level": "dificil", "humano_decide": True, "sinais": False},
          {"seed": 11, "dealer": 3, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"], ["Qd", "Qs", "Jd"], ["5d", "6s", "Kh"]]})
    before = last_n(page)
    page.locator("#hand .card.in-hand").first.tap()
    wait_turn(page, before)
    expect(page.locator("#actions button[data-action=accept]")).to_be_visible()
    expect(page.locator("#actions button[data-action=raise]")).to_be_visible()
    expect(page.locator("#partner-opinion")).to_be_visible()
    parts = {b.inner_text(): b.bounding_box() for b in page.locator("#actions button[data-action]").all()}  # the answers
    parts["opinion"] = page.locator("#partner-opinion").bounding_box()
    parts["label"] = page.locator("#me .me-label").bounding_box()
    for name, box in parts.items():
        assert box["y"] >= 0 and box["y"] + box["height"] <= 390 + 1, f"{name} {box} is off screen"
        assert box["x"] >= 0 and box["x"] + box["width"] <= 844 + 1, f"{name} {box} is off screen"
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlap(parts[a], parts[b]), f"{a} {parts[a]} and {b} {parts[b]} overlap"
    before = last_n(page)
    page.locator("#actions button[data-action=run]").tap()
    wait_turn(page, before)
    assert obs(page)["score"] == [0, 2]


@pytest.mark.parametrize("mode,screen", [("2x2", "phone"), ("3x3", "phone"), ("2x2", "large-font")])
def test_the_hand_never_covers_the_table(browser, base_url, phones, mode, screen):
    """A small phone held upright (360 x 640), or a laptop (1280 x 800) whose browser's
    default font size is doubled: with an opponent's truco to answer, the human's corner
    (prompt, hand, Aceitar / Correr / Seis!, the partner's opinion) was taller than the felt
    had left and was drawn over the card the player had just played and over "Vale 2".
    Nothing of the table is covered now; the page may scroll instead."""
    context = None
    if screen == "phone":
        page = phone(phones, 360, 640)
    else:
        context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
        context.add_init_script("document.addEventListener('DOMContentLoaded', () => "
                                "document.documentElement.style.fontSize = '200%')")
        page = context.new_page()
        watch = ConsoleWatch()
        watch.watch(page)
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    hands = [["4d", "5s", "6h"], ["4c", "7h", "As"], ["Qd", "Qs", "Jd"], ["5d", "6s", "Kh"]]
    if mode == "3x3":
        hands += [["5c", "6c", "Jc"], ["Kc", "Ks", "Jh"]]
    start_fresh(page, {"mode": mode, "level": "dificil", "humano_decide": True, "sinais": False},
          {"seed": 11, "dealer": len(hands) - 1, "hands": hands})
    before = last_n(page)
    page.locator("#hand .card.in-hand").first.click()
    wait_turn(page, before)  # Tonho, three manilhas in hand, calls truco; the player answers
    expect(page.locator("#actions button[data-action=raise]")).to_be_visible()
    expect(page.locator("#partner-opinion")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    me = page.locator("#me").bounding_box()
    covered = {"hand value": page.locator("#hand-value").bounding_box()}
    for i, card in enumerate(page.locator("#trick .card").all()):
        covered[f"played card {i + 1}"] = card.bounding_box()
    assert len(covered) == 2
    for name, box in covered.items():
        assert not overlap(me, box), f"the human's corner {me} covers the {name} {box}"
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways ({width})"
    if context:
        context.close()
        watch.check()


@pytest.mark.parametrize("screen", [(360, 640), (844, 390)], ids=["upright", "sideways"])
def test_answering_on_a_small_phone_needs_no_scrolling(phones, screen):
    """A small phone held upright (360 x 640) with a truco or a mão de dez to answer: the page
    scrolled 39 px (truco) to 53 px (a mão de dez and its "Sinal" button), 66 to 80 with the
    turn timer on (27 px in 1 x 1); a phone held sideways (844 x 390) scrolled 24 to 42 px
    with the timer on (17 px without it for a mão de dez). The player had to scroll to see
    the table and the answer together. The whole table fits the screen now, the human's
    corner still off the cards played and "Vale N", the answers on one line and 40 px tall
    or more."""
    width, height = screen
    page = phone(phones, width, height)
    hands = [["4d", "5s", "6h"], ["4c", "7h", "As"], ["Qd", "Qs", "Jd"], ["5d", "6s", "Kh"]]
    # A new player's settings with a partner: humano decide and sinais on.
    pair = {"humano_decide": True, "sinais": True}

    def truco(mode, timer):
        if mode == "1x1":  # Tonho leads with three manilhas and calls truco at once
            start_fresh(page, {"mode": "1x1", "level": "dificil", "timer": timer}, {"seed": 7, "dealer": 0, "hands": hands[:2]})
        else:  # Tonho calls truco once the player has led; the player answers for the pair
            start_fresh(page, {"mode": "2x2", "level": "dificil", "timer": timer, **pair}, {"seed": 11, "dealer": 3, "hands": hands})
            click_and_wait(page, page.locator("#hand .card.in-hand").first)
        expect(page.locator("#prompt")).to_contain_text("pediu Truco")

    def dez(mode, timer):
        start_fresh(page, {"mode": mode, "level": "medio", "timer": timer, **pair},
              {"seed": 17, "score": [10, 4], "dealer": 3 if mode == "2x2" else 1})
        expect(page.locator("#prompt")).to_contain_text("Mão de dez")

    for mode in ("2x2", "1x1"):
        for timer in (0, 30):
            for name, prompt in (("truco", truco), ("mão de dez", dez)):
                state = f"{mode}, {name}, timer {timer or 'off'}"
                prompt(mode, timer)
                expect(page.locator("#timer")).to_be_visible(visible=bool(timer))
                if mode == "2x2" and name == "mão de dez":
                    expect(page.locator(".signal-toggle")).to_be_visible()
                # Any hand after the first has the last hand's "Ver a mão anterior" on the felt.
                page.evaluate("document.getElementById('last-review').hidden = false")
                page.evaluate("window.scrollTo(0, 0)")
                extra = page.evaluate("""() => { const s = document.scrollingElement;
                    return [s.scrollWidth - innerWidth, s.scrollHeight - innerHeight]; }""")
                assert extra[0] <= 1 and extra[1] <= 1, f"{state}: the page scrolls {extra} px (sideways, down)"
                me = page.locator("#me").bounding_box()
                covered = {"hand value": page.locator("#hand-value").bounding_box(),
                           "last hand's button": page.locator("#last-review").bounding_box()}
                for i, card in enumerate(page.locator("#trick .card").all()):
                    covered[f"played card {i + 1}"] = card.bounding_box()
                for what, box in covered.items():
                    assert not overlap(me, box), f"{state}: the human's corner {me} covers the {what} {box}"
                answers = [b.bounding_box() for b in page.locator("#actions button[data-action]").all()]
                assert len(answers) >= 2, state
                assert len({round(b["y"]) for b in answers}) == 1, f"{state}: the answers take two lines {answers}"
                for b in answers:
                    assert b["height"] >= 40, f"{state}: an answer is {b['height']} px tall"
                    assert 0 <= b["y"] and b["y"] + b["height"] <= height, f"{state}: an answer is off screen {b}"


def phone_table(browser, base_url, **kwargs):
    """A touch phone (390 x 844 unless told) for the table; (context, page, watch)."""
    kwargs.setdefault("viewport", {"width": 390, "height": 844})
    context, page = new_page(browser, base_url, has_touch=True, is_mobile=True, **kwargs)
    watch = page.console_watch
    return context, page, watch


# A freshly loaded table's settings (saved_data.js), less `auto_next`, which sets the pace
# even under ?fast=1 when named.
DEFAULT_SETTINGS = """async () => {
  const { auto_next, ...rest } = (await import('./static/js/table/saved_data.js')).DEFAULT_SETTINGS;
  return JSON.parse(JSON.stringify(rest));
}"""


def start_fresh(page, settings, scenario=None):
    """helpers.table.start as on a freshly loaded table: a page shared by tests keeps the last
    match's settings (__truco.start lays the ones it is given over them), so every setting
    not named here is the default, whatever the test before left."""
    if getattr(page, "default_settings", None) is None:
        page.default_settings = page.evaluate(DEFAULT_SETTINGS)
    start(page, {**page.default_settings, **settings}, scenario)


@pytest.fixture(scope="module")
def phones(browser, base_url):
    """Loaded tables on touch phones, one per kind of device, resized to each screen: each
    test starts its own scenario (a new match clears the last one's banner, bubbles and
    dialogs), so sharing the page changes no outcome, only the engine start-ups."""
    shared = TablesByDevice(browser, base_url)
    yield shared
    shared.close()


def phone(phones, width, height):
    """The shared touch phone's table at width x height, scrolled to the top."""
    page = phones.page({"width": width, "height": height}, has_touch=True, is_mobile=True)
    page.evaluate("window.scrollTo(0, 0)")
    return page


@pytest.fixture(scope="module")
def still_tables(browser, base_url):
    """Loaded tables with reduced motion and the clock stopped (BUBBLE_SCREENS' devices),
    shared by the speech bubble tests: `bubble_page`."""
    shared = TablesByDevice(browser, base_url)
    yield shared
    shared.close()


def overlap(a, b):
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("held", ["portrait", "landscape"])
def test_a_speech_bubble_leaves_the_round_marks_in_sight_on_a_phone(still_tables, held):
    """On a phone the round marks (who took rounds 1 to 3) sit in the top corner of the
    centre, just under the seat across. In a 2 x 2 game Dito's sinal as the hand is dealt
    put the bubble "mostra a ponta da língua" right over all three marks (any long line from
    the seat across could): the player could not see who had won the rounds. A bubble must
    never cover them, held upright or sideways."""
    # Reduced motion: the bubble is measured at its full size, not mid-"pop"; the clock is
    # stopped: the bubbles stay up (1.8 to 2.6 s) until they are measured.
    size = {"portrait": {"width": 390, "height": 844}, "landscape": {"width": 844, "height": 390}}[held]
    page = bubble_page(still_tables, "phone", size)
    cases = [
        # Dito (seat 2, across) holds the Espadilha and signals it as the hand is dealt.
        ({"mode": "2x2", "sinais": True, "level": "medio"},
         {"seed": 5, "dealer": 3, "hands": [["4d", "5s", "6h"], ["Qd", "Qs", "Jd"], ["As", "Kd", "Qc"], ["5d", "6s", "Kh"]]}),
        # The opponent across, three manilhas in hand, calls truco at once.
        ({"mode": "1x1", "level": "dificil"}, {"seed": 7, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"]], "dealer": 0}),
    ]
    for settings, scenario in cases:
        start_fresh(page, settings, scenario)
        bubbles = page.locator(".seat .bubble:not([hidden])")
        expect(bubbles.first).to_be_visible()
        expect(page.locator("#round-marks .mark")).to_have_count(3)
        marks = page.locator("#round-marks").bounding_box()
        for bubble in bubbles.all():
            box = bubble.bounding_box()
            assert not overlap(box, marks), f"the bubble {bubble.inner_text()!r} {box} covers the round marks {marks}"


# Screens for the speech bubbles: a touch phone, a laptop, and the laptop at 200 % zoom (its
# 1280 x 800 pixels are then 640 x 400 CSS pixels, drawn twice as large).
BUBBLE_SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "zoom200": {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2},
}
# 3 x 3: Quinzinho (seat 4, the partner at the top left) leads with Zap, Copas and Espadilha,
# signals them and calls "Truco! Vai encarar?" (event 2); Tião (seat 5, left) accepts
# ("Aceito!"); both play a card, and it is the player's turn.
QUINZINHO_TRUCO = ({"mode": "3x3", "level": "dificil", "partner_level": "dificil"},
                   {"seed": 1, "dealer": 3, "hands": [["4d", "5s", "6h"], ["3h", "2s", "2d"], ["Qd", "Qs", "Jd"],
                                                      ["3s", "2c", "Ac"], ["4c", "7h", "As"], ["3c", "3d", "2h"]]})


def bubble_page(still_tables, screen, viewport=None):
    """The table on `screen` (at `viewport` unless its own), its engine ready, bubbles at
    full size and up until measured (a page shared by the bubble tests, scrolled to the top)."""
    options = dict(BUBBLE_SCREENS[screen])
    own = options.pop("viewport")
    page = still_tables.page(viewport or own, reduced_motion="reduce", **options)
    if not getattr(page, "clock_stopped", False):
        # Time stands still: the bubbles stay up (1.8 to 2.6 s) however slow the machine is,
        # and ?fast=1 plays on without timers.
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(minutes=1))
        page.clock_stopped = True
    page.evaluate("window.scrollTo(0, 0)")
    return page


@pytest.mark.parametrize("screen", list(BUBBLE_SCREENS))
def test_a_long_speech_bubble_stays_on_the_screen(still_tables, screen):
    """At 200 % zoom in a 3 x 3 game, Quinzinho's bubble "Truco! Vai encarar?" was centred on
    his narrow seat at the top left and began 17 px beyond the screen's left edge: the
    player read "uco! Vai encarar?". Every bubble stays on the screen, on a phone, a laptop
    and the laptop at 200 %."""
    page = bubble_page(still_tables, screen)
    start_fresh(page, *QUINZINHO_TRUCO)
    quinzinho = page.locator('.seat[data-seat="4"] .bubble')
    expect(quinzinho).to_be_visible()
    expect(quinzinho).to_have_text("Truco! Vai encarar?")
    page.evaluate("window.scrollTo(0, 0)")
    width, height = page.evaluate("[document.documentElement.clientWidth, document.documentElement.clientHeight]")
    for bubble in page.locator(".bubble:not([hidden])").all():
        box = bubble.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["y"] >= 0 and box["y"] + box["height"] <= height, \
            f"the bubble {bubble.inner_text()!r} {box} runs off the {width} x {height} screen"


# What a bubble must leave in sight: what the player reads at a glance, and the cards on the felt.
KEEP_IN_SIGHT = {"the hand's value": "#hand-value", "the round marks": "#round-marks", "the score": "#score",
                 "a card on the table": "#trick .card", "the vira": "#vira:not([hidden])"}


def bubbles_cover(page):
    """What each bubble shown covers of KEEP_IN_SIGHT: ["'Truco, ladrão!' covers the hand's value", ...]."""
    page.evaluate("window.scrollTo(0, 0)")
    covered = []
    for bubble in page.locator(".bubble:not([hidden])").all():
        box = bubble.bounding_box()
        for what, selector in KEEP_IN_SIGHT.items():
            for el in page.locator(selector).all():
                other = el.bounding_box()
                if other and other["width"] and overlap(box, other):
                    covered.append(f"{bubble.inner_text()!r} {box} covers {what} {other}")
    return covered


@pytest.mark.parametrize("screen", list(BUBBLE_SCREENS))
def test_a_speech_bubble_covers_neither_the_hands_value_nor_the_cards_on_the_table(still_tables, screen):
    """Zé, at the left of a 2 x 2 table, called "Truco, ladrão!" after two cards were played,
    and on a laptop his bubble, opening under his seat, covered "Vale 2"; at 200 % zoom it
    covered a played card too. The player's own "Truco!" rose from the hand over the value
    on a phone, over the card the player had just put down on a laptop, and over the score
    at 200 %. A bubble may cover its own seat's cards, never the hand's value, the round
    marks, the score or a card on the table: on a phone, a laptop and the laptop at 200 %."""
    page = bubble_page(still_tables, screen)
    # 2 x 2: Tonho and Dito play a card each, then Zé (left) calls "Truco, ladrão!".
    start_fresh(page, {"mode": "2x2", "level": "dificil", "partner_level": "dificil"},
          {"seed": 2, "dealer": 0, "hands": [["4d", "5s", "6h"], ["Qd", "Qs", "Jd"], ["As", "6s", "Kh"], ["4c", "7h", "3s"]]})
    expect(page.locator('.seat[data-seat="3"] .bubble:not([hidden])')).to_have_text("Truco, ladrão!")
    expect(page.locator("#trick .card")).to_have_count(2)
    covered = bubbles_cover(page)
    # 1 x 1: Tonho plays; the player calls "Truco! Vai encarar?", Tonho accepts ("Desce!").
    start_fresh(page, {"mode": "1x1", "level": "dificil"}, {"seed": 2, "dealer": 0, "hands": [["4c", "7h", "As"], ["3s", "2c", "Ac"]]})
    click_and_wait(page, page.locator("#actions button[data-action=raise]"))
    expect(page.locator("#my-bubble:not([hidden])")).to_have_text("Truco! Vai encarar?")
    expect(page.locator('.seat[data-seat="1"] .bubble:not([hidden])')).to_have_text("Desce!")
    covered += bubbles_cover(page)
    # 3 x 3: Quinzinho (top left) calls truco, Tião (left) accepts; both play a card.
    start_fresh(page, *QUINZINHO_TRUCO)
    expect(page.locator('.seat[data-seat="4"] .bubble:not([hidden])')).to_have_text("Truco! Vai encarar?")
    expect(page.locator('.seat[data-seat="5"] .bubble:not([hidden])')).to_have_text("Aceito!")
    covered += bubbles_cover(page)
    assert not covered, "\n".join(covered)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_score_stays_in_place_as_the_numbers_grow(phones, recorded_table, size):
    """The score box ("Nós 8 × 6 Eles") grew by a digit's width when a number went from 8 to
    10, and the box, with the buttons beside it on a laptop, jumped sideways in the header:
    the player's eye lost the score. Its edges stay where they are from 0 x 0 to 10 x 10."""
    page = phone(phones, 390, 844) if size == "phone" else recorded_table  # a laptop's 1280 x 800
    edges = {}
    for score in ([0, 0], [8, 6], [10, 4], [10, 10]):
        start_fresh(page, {"mode": "2x2"}, {"seed": 3, "score": score, "dealer": 3})
        expect(page.locator("[data-testid=score-us]")).to_have_text(str(score[0]))
        expect(page.locator("[data-testid=score-them]")).to_have_text(str(score[1]))
        box = page.locator("#score").bounding_box()
        edges[f"{score[0]} x {score[1]}"] = (round(box["x"], 1), round(box["x"] + box["width"], 1))
    assert len(set(edges.values())) == 1, f"the score box moved ({size}; left and right edges): {edges}"


def _rgba(css):
    parts = [float(x) for x in re.findall(r"[\d.]+", css)]
    return parts + [1.0] * (4 - len(parts))


def _contrast(fg, bg):
    def lum(c):
        ch = [x / 255 for x in c[:3]]
        ch = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_timer_seconds_stay_readable_as_the_bar_runs_low(browser, base_url):
    """The seconds left are dark text; once the bar is under half they lay on the empty
    dark track, dark on dark, just when the player needs them. They sit on their own light
    chip: at 3 s left the text has a backing of its own with a WCAG contrast of 4.5 or more."""
    context, page, watch = phone_table(browser, base_url)
    page.clock.install()
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    start(page, {"mode": "1x1", "timer": 10}, {"seed": 31, "hands": [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], "dealer": 1})
    page.clock.run_for(7_000)
    text = page.locator("#timer .timer-text")
    expect(text).to_have_text("3 s")
    fg, bg = text.evaluate("e => { const s = getComputedStyle(e); return [s.color, s.backgroundColor]; }")
    fg, bg = _rgba(fg), _rgba(bg)
    assert bg[3] >= 0.85, f"the seconds have no backing of their own ({bg})"
    assert _contrast(fg, bg) >= 4.5
    text_box, timer_box = text.bounding_box(), page.locator("#timer").bounding_box()
    assert timer_box["y"] <= text_box["y"] and text_box["y"] + text_box["height"] <= timer_box["y"] + timer_box["height"] + 0.5
    context.close()
    watch.check()


def start_screen_on_a_phone(browser, base_url):
    """A touch phone's table on its start screen, the engine's worker held back (nothing of
    Pyodide loads): what is checked is the start screen itself, which a player sees while
    the engine loads too; (context, page, watch)."""
    context, page, watch = phone_table(browser, base_url)
    EngineHold(page, "**/static/js/engine/worker.js*")
    page.goto("/?fast=1")
    expect(page.locator("#start-dialog")).to_be_visible()
    return context, page, watch


def test_the_language_links_are_40_px_under_a_finger(browser, base_url):
    """PT / ES / EN on a touch phone were 34 x 32 px, under the 40 px every other control
    gets under a finger."""
    context, page, watch = start_screen_on_a_phone(browser, base_url)
    links = page.locator(".lang-switch a:visible")  # the header's and the start screen's
    expect(links.first).to_be_visible()
    assert links.count() >= 3
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40, box
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways ({width})"
    context.close()
    watch.check()


def test_the_start_screens_tick_boxes_are_40_px_under_a_finger(browser, base_url):
    """A tick box (Humano decide, Sinais, the house rules...) is tapped through its label,
    which was one 24 px line of text; the house rules' "Aprender" links were as small. Every
    one is 40 px tall on a touch phone, and tapping the label still ticks the box."""
    context, page, watch = start_screen_on_a_phone(browser, base_url)
    page.locator("details.more summary").first.click()  # "Mais opções": the house rules
    targets = page.locator(".form-check > label:visible, .house-rules .form-hint a:visible")
    assert targets.count() >= 6
    for i in range(targets.count()):
        box = targets.nth(i).bounding_box()
        assert box["height"] >= 40, (targets.nth(i).inner_text(), box)
    box = page.locator("#sinais")
    before = box.is_checked()
    page.locator("label[for=sinais]").tap()
    assert box.is_checked() != before
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways ({width})"
    context.close()
    watch.check()

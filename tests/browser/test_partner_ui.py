"""The 2 x 2 table's partner features end to end in Chromium (issue #12): "humano decide"
(the human answers a truco and decides the mão de dez for the pair, with the partner's
opinion beside the buttons) and the sinais (sending one, seeing the partner's, a caught
one told after the hand), with nothing hidden reaching the page.

One page for the module (Pyodide loads once); fixed deals through window.__truco.start().
Seats play in order 0 (you), 1 (Tonho), 2 (Dito, your partner), 3 (Zé); the seat after the
dealer leads (RULES.md §3).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from helpers.browser import open_table
from helpers.table import act, click_and_wait, last_n, obs, start, wait_turn

# Tonho (seat 1, difícil) holds three manilhas and asks for truco at once; the natural
# answerer is the next seat, Dito (RULES.md §5), whom the human replaces.
TRUCO_HANDS = [["5s", "6h", "Qd"], ["4c", "7h", "As"], ["Kd", "Jh", "5c"], ["3h", "6s", "4d"]]
# The human leads (dealer 3) holding the zap; Dito holds the Copas (7 de copas).
SIGNAL_HANDS = [["4c", "5s", "6h"], ["Kd", "Jh", "5c"], ["7h", "Qd", "Js"], ["3h", "6s", "4d"]]


@pytest.fixture(scope="module")
def partner_table(browser, base_url):
    # Through the start screen, with a fixed deal in the address.
    hands = "-".join(".".join(h) for h in TRUCO_HANDS)
    yield from open_table(browser, base_url, f"/?fast=1&mode=2x2&level=dificil&seed=11&dealer=0&hands={hands}",
                          record_worker=True)


def engine(page, method, params=None):
    return page.evaluate("([m, p]) => window.__engine.call(m, p)", [method, params or {}])


def opinion_words(action, decision=False):
    if decision:
        return {"accept": "eu jogaria", "run": "eu correria"}[action]
    return {"accept": "eu aceitaria", "run": "eu correria", "raise": "eu pediria seis"}[action]


def test_start_screen_toggle_and_the_partner_answers_without_it(partner_table):
    dialog = partner_table.locator("#start-dialog")
    expect(dialog).to_be_visible()
    toggle = partner_table.get_by_label("Humano decide")
    expect(toggle).to_be_checked()  # on by default in 2 x 2
    expect(partner_table.get_by_label("Sinais")).to_be_checked()
    toggle.uncheck()
    # Without sinais Tonho, with three manilhas, asks truco at his first turn (difícil's plain
    # table; the one learnt with sinais slow-plays that hand)
    partner_table.get_by_label("Sinais").uncheck()
    partner_table.get_by_role("button", name="Começar").click()
    wait_turn(partner_table, None)
    o = obs(partner_table)
    assert o["options"]["humano_decide"] is None
    # Dito answered Tonho's truco himself: the human never saw a question.
    answers = [e for e in o["log"] if e["type"] in ("accept", "run", "raise") and e["seat"] == 2]
    assert answers, o["log"]
    saved = json.loads(partner_table.evaluate("localStorage.getItem('truco:settings')"))
    assert saved["data"]["humano_decide"] is False and saved["data"]["sinais"] is False
    # In 1 x 1 there is no partner: the options are not offered.
    partner_table.evaluate("window.__truco.start({mode: '1x1'}, {seed: 3})")
    wait_turn(partner_table, None)
    partner_table.get_by_role("button", name="Sair da mesa").click()
    partner_table.get_by_role("button", name="Sair e perder").click()
    expect(dialog).to_be_visible()
    partner_table.get_by_label("1 × 1").check()
    expect(partner_table.locator("#partner-options")).to_be_hidden()
    partner_table.get_by_label("2 × 2 (com parceiro)").check()
    expect(partner_table.locator("#partner-options")).to_be_visible()
    expect(partner_table.get_by_label("Humano decide")).not_to_be_checked()  # remembered


def test_humano_decide_truco_the_human_answers_with_the_partners_opinion(partner_table):
    # without sinais Tonho asks truco at once (the first test)
    start(partner_table, {"mode": "2x2", "level": "dificil", "humano_decide": True, "sinais": False},
          {"seed": 11, "hands": TRUCO_HANDS, "dealer": 0})
    o = obs(partner_table)
    assert o["pending"] and o["pending"]["asker"] == 1 and o["pending"]["answerer"] == 0, o["pending"]
    expect(partner_table.locator("#prompt")).to_contain_text("Tonho pediu Truco")
    opinion = engine(partner_table, "partner_opinion")
    assert opinion["seat"] == 2 and opinion["action"] in ("accept", "run", "raise")
    shown = partner_table.locator("#actions #partner-opinion")
    expect(shown).to_have_text(f"Parceiro: {opinion_words(opinion['action'])} Por quê?")
    expect(partner_table.locator("#live")).to_contain_text(f"Dito, seu parceiro, diz: {opinion_words(opinion['action'])}.")
    # Issue 44: a phone has no hover. "Por quê?", laid over the opinion, shows its reason in
    # words; a second tap or Escape hides it, the answer takes it away. The opinion is no
    # button: an answer's name finds that answer alone ("Correr" is in "eu correria").
    assert opinion["reason"]["key"].startswith("bet."), opinion
    for name in ("Aceitar", "Correr", "Seis!"):
        expect(partner_table.get_by_role("button", name=name)).to_have_count(1)
    why_button = partner_table.get_by_role("button", name="Por quê?", exact=True)
    why = partner_table.locator("#partner-why")
    expect(why).to_be_hidden()
    why_button.click()
    expect(why_button).to_have_attribute("aria-expanded", "true")
    expect(why).to_be_visible()
    expect(why).to_have_text(re.compile(r"^Por quê: [^{}]*\d+%[^{}]*\.$|^Por quê: [^{}.]+\.$"))
    assert why.inner_text() in partner_table.locator("#live").inner_text()  # what was announced
    why_button.click()
    expect(why).to_be_hidden()
    expect(why_button).to_have_attribute("aria-expanded", "false")
    # A small phone held upright (360 x 640), where the row under the answers is tightest: a
    # tap above the opinion's words, in the row's empty top, opens the reason; the row keeps
    # its height (the table above it does not move) and the page does not scroll.
    partner_table.set_viewport_size({"width": 360, "height": 640})
    try:
        row = partner_table.locator("#actions").bounding_box()
        answers = [b.bounding_box() for b in partner_table.locator("#actions button[data-action]").all()]
        chip, target = shown.bounding_box(), why_button.bounding_box()
        low = max(a["y"] + a["height"] for a in answers)
        assert low <= target["y"] < chip["y"] - 4 and target["y"] + target["height"] <= row["y"] + row["height"] + 0.5, \
            ("'Por quê?' fills the row's free top, under the answers", answers, chip, target, row)
        partner_table.mouse.click(target["x"] + target["width"] / 2, target["y"] + 2)
        expect(why).to_be_visible()
        assert partner_table.locator("#actions").bounding_box() == row
        card = why.bounding_box()
        assert card["y"] >= row["y"] + row["height"] and card["y"] + card["height"] <= 640, ("the reason on the screen", card, row)
        assert partner_table.evaluate("document.scrollingElement.scrollHeight - innerHeight") <= 0
        why_button.focus()
        partner_table.keyboard.press("Escape")
        expect(why).to_be_hidden()
    finally:
        partner_table.set_viewport_size({"width": 1280, "height": 800})
    why_button.click()
    expect(why).to_be_visible()
    click_and_wait(partner_table, partner_table.get_by_role("button", name="Aceitar", exact=True))
    o = obs(partner_table)
    assert any(e["type"] == "accept" and e["seat"] == 0 for e in o["log"]), "the human's answer counted for the pair"
    assert not any(e["type"] in ("accept", "run") and e["seat"] == 2 for e in o["log"])
    assert o["hand_value"] == 4
    expect(partner_table.locator("#partner-opinion")).to_have_count(0)  # gone with the question
    expect(why).to_be_hidden()


def test_humano_decide_mao_de_dez(partner_table):
    # 10 x 4, Tonho is "o mão": the rules give the decision to Dito (RULES.md §6); the human takes it.
    start(partner_table, {"mode": "2x2", "humano_decide": True, "sinais": True}, {"seed": 1, "score": [10, 4], "dealer": 0})
    o = obs(partner_table)
    assert o["decision"] == {"type": "mao_de_dez", "seat": 0, "team": 0}
    expect(partner_table.locator("#prompt")).to_contain_text("Mão de dez")
    opinion = engine(partner_table, "partner_opinion")
    assert opinion["seat"] == 2
    expect(partner_table.locator("#partner-opinion")).to_have_text(re.compile(
        rf"^Parceiro: {opinion_words(opinion['action'], True)}( Por quê\?)?$"))
    click_and_wait(partner_table, partner_table.get_by_role("button", name="Correr"))
    hand = [e for e in obs(partner_table)["log"] if e["type"] == "hand"][-1]
    assert hand["reason"] == "dez_run" and hand["winner"] == 1 and hand["score"] == [10, 6]
    expect(partner_table.locator("#banner .banner-title")).to_have_text("Você correu da mão de dez: +2 para eles.")


def test_sending_a_signal_by_keyboard(partner_table):
    start(partner_table, {"mode": "2x2", "sinais": True}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})
    o = obs(partner_table)
    assert o["to_move"] == 0 and o["may_signal"]
    assert "signal zap" not in o["legal_actions"]  # never listed as a move
    toggle = partner_table.locator("#signal-toggle")
    expect(toggle).to_be_visible()
    partner_table.locator("body").press("s")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(partner_table.locator("#signal-menu button").first).to_be_focused()
    partner_table.keyboard.press("1")  # a digit in the menu does not play a card
    assert obs(partner_table)["hand"] == ["4c", "5s", "6h"]
    partner_table.keyboard.press("Enter")  # the first one: Zap
    partner_table.wait_for_function("() => window.__truco.observation.signals.some((x) => x.seat === 0)")
    o = obs(partner_table)
    assert {"seat": 0, "signal": "zap"} in o["signals"] and not o["may_signal"]
    mine = [e for e in engine(partner_table, "history")["log"] if e["type"] == "signal" and e["seat"] == 0]
    assert [e["signal"] for e in mine] == ["zap"], "the action reached the engine's log"
    expect(partner_table.locator("#my-signal")).to_have_text("Seu sinal: pisca o olho (Zap)")
    expect(partner_table.locator("#live")).to_contain_text("Você pisca o olho para o parceiro: tem o Zap.")
    expect(partner_table.locator("#signal-box")).to_be_hidden()  # one signal a hand
    assert obs(partner_table)["to_move"] == 0 and obs(partner_table)["hand"] == ["4c", "5s", "6h"], "still the human's turn"
    # A second one is refused by the engine, and the page does not offer it.
    with pytest.raises(Exception, match="once a hand"):
        engine(partner_table, "apply", {"action": "signal nada"})


def test_a_paused_game_takes_no_signal(partner_table):
    start(partner_table, {"mode": "2x2", "sinais": True}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})
    partner_table.locator("#pause").click()
    expect(partner_table.locator("#app")).to_have_attribute("data-paused", "true")
    partner_table.locator("body").press("s")
    expect(partner_table.locator("#signal-menu")).to_be_hidden()
    partner_table.locator("#pause").click()
    expect(partner_table.locator("#app")).to_have_attribute("data-paused", "false")
    partner_table.locator("body").press("s")
    expect(partner_table.locator("#signal-menu")).to_be_visible()


def test_the_signal_control_goes_away_with_the_first_card(partner_table):
    start(partner_table, {"mode": "2x2", "sinais": True}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})
    expect(partner_table.locator("#signal-toggle")).to_be_visible()
    click_and_wait(partner_table, partner_table.locator('#hand .card.in-hand[data-card="5s"]'))
    o = obs(partner_table)
    assert "5s" not in o["hand"] and not o["may_signal"]
    expect(partner_table.locator("#signal-box")).to_be_hidden()
    partner_table.locator("body").press("s")
    expect(partner_table.locator("#signal-menu")).to_be_hidden()


def test_a_dica_that_says_signal_outlines_the_control_and_follows_it(partner_table):
    # Holding the zap before the first card, the difícil bot's hint is to signal it.
    start(partner_table, {"mode": "2x2", "sinais": True, "hint": True}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})
    partner_table.locator("#hint-button").click()
    line = partner_table.locator("#hint-line")
    expect(line).to_have_attribute("data-action", "signal zap")
    expect(partner_table.locator("#signal-toggle")).to_have_class(re.compile(r"\bhinted\b"))
    partner_table.locator("#hint-follow").click()
    partner_table.wait_for_function("() => window.__truco.observation.signals.some((x) => x.seat === 0)")
    o = obs(partner_table)
    assert {"seat": 0, "signal": "zap"} in o["signals"]
    assert o["to_move"] == 0 and len(o["hand"]) == 3, "a signal is not a move: the human still plays"
    expect(partner_table.locator("#signal-box")).to_be_hidden()
    start(partner_table, {"hint": False}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})


def test_receiving_the_partners_signal(partner_table):
    start(partner_table, {"mode": "2x2", "sinais": True}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})
    o = obs(partner_table)
    # Dito's honest signal for his hand (py/truco/signals.py): the 7 de copas is the Copas.
    assert {"seat": 2, "signal": "copas"} in o["signals"]
    chip = partner_table.locator('.seat[data-seat="2"] .seat-signal')
    expect(chip).to_have_text("Copas")
    expect(chip).to_have_attribute("aria-label", "Sinal de Dito: levanta as sobrancelhas (tem a Copas)")
    expect(partner_table.locator("#live")).to_contain_text("Dito levanta as sobrancelhas para você: tem a Copas.")
    # The opponents' signals were not caught in this deal: the human sees none of them.
    assert all(x["seat"] % 2 == 0 for x in o["signals"])
    expect(partner_table.locator('.seat[data-team="them"] .seat-signal')).to_have_count(0)
    # Without sinais nobody signals.
    start(partner_table, {"mode": "2x2", "sinais": False}, {"seed": 5, "hands": SIGNAL_HANDS, "dealer": 3})
    assert obs(partner_table)["signals"] == [] and not obs(partner_table)["may_signal"]
    expect(partner_table.locator(".seat-signal")).to_have_count(0)
    expect(partner_table.locator("#signal-box")).to_be_hidden()


def test_a_caught_signal_is_told_after_the_hand(partner_table):
    # Seed 1: Zé catches the human's signal (the engine draws it from the game's seed). A
    # mão de dez of the human's pair: the partner, who sees the human's cards, signals
    # nothing (RULES.md §6; py/truco/signals.py signal_to_send).
    start(partner_table, {"mode": "2x2", "sinais": True, "humano_decide": True}, {"seed": 1, "score": [10, 4], "dealer": 0})
    partner_table.locator("#signal-toggle").click()
    partner_table.locator('#signal-menu button[data-signal="nada"]').click()
    partner_table.wait_for_function("() => !window.__truco.observation.may_signal")
    assert obs(partner_table)["signals"] == [{"seat": 0, "signal": "nada"}]
    expect(partner_table.locator("#app")).not_to_contain_text("viram")  # not during the hand
    click_and_wait(partner_table, partner_table.get_by_role("button", name="Correr"))
    extra = partner_table.locator("#banner .banner-extra")
    expect(extra).to_have_text("Eles viram seu sinal! Zé viu: Nada.")
    expect(partner_table.locator("#live")).to_contain_text("Eles viram seu sinal!")
    # Seed 12: the human catches Tonho's signal, and Tonho catches the human's (the catch
    # draws come from the seed alone). Tonho, whose pair is not at 10, signals his manilha
    # at once; Dito holds the Espadilha but, in his pair's mão de dez, says nothing: the
    # human already sees his cards.
    hands = [["Ah", "Js", "Qc"], ["2d", "Jh", "7d"], ["Jc", "7s", "As"], ["Kd", "5s", "3c"]]
    start(partner_table, {"mode": "2x2", "sinais": True, "humano_decide": True},
          {"seed": 12, "score": [10, 4], "dealer": 0, "hands": hands})
    tonho = partner_table.locator('.seat[data-seat="1"] .seat-signal')
    expect(tonho).to_have_text("Pica-fumo")
    expect(partner_table.locator("#live")).to_contain_text("Você pegou o sinal de Tonho: enche a bochecha, tem o Pica-fumo.")
    partner_table.locator("body").press("s")
    partner_table.keyboard.press("ArrowLeft")  # wraps to the last one: Nada
    expect(partner_table.locator('#signal-menu button[data-signal="nada"]')).to_be_focused()
    partner_table.keyboard.press("Enter")
    partner_table.wait_for_function("() => !window.__truco.observation.may_signal")
    click_and_wait(partner_table, partner_table.get_by_role("button", name="Correr"))
    expect(extra).to_contain_text("Vocês pegaram o sinal de Tonho: Pica-fumo.")
    expect(extra).to_contain_text("Eles viram seu sinal! Tonho viu: Nada.")
    expect(extra).not_to_contain_text("Dito")


def test_nothing_hidden_reaches_the_page(partner_table):
    """The other seats' cards stay out of the DOM and of every worker message, signals and
    opinions included (the observation carries only the signals this seat saw)."""
    partner_table.evaluate("window.__workerMessages.splice(0)")
    start(partner_table, {"mode": "2x2", "level": "dificil", "sinais": True, "humano_decide": True},
          {"seed": 11, "hands": TRUCO_HANDS, "dealer": 0})
    expect(partner_table.locator("#partner-opinion")).to_be_visible()
    partner_table.locator("#signal-toggle").click()
    partner_table.locator('#signal-menu button[data-signal="nada"]').click()
    partner_table.wait_for_function("() => !window.__truco.observation.may_signal")
    o = obs(partner_table)
    hidden = {c for s, h in enumerate(TRUCO_HANDS) if s != 0 for c in h}
    hidden -= {p["card"] for r in o["rounds"] for p in r["plays"] if p["card"]}
    assert hidden, "the other seats still hold cards"
    from truco.cards import card_name

    html = partner_table.evaluate("""() => { const c = document.getElementById('app').cloneNode(true);
                                     c.querySelector('#live')?.remove(); return c.outerHTML; }""")
    messages = partner_table.evaluate("window.__workerMessages.splice(0)")
    assert messages, "the worker's replies were recorded"
    for c in hidden:
        assert f'"{c}"' not in html and f">{c}<" not in html, f"hidden card {c} in the DOM"
        assert card_name(c) not in html, f"hidden card {card_name(c)} in the DOM"
    for m in messages:
        result = json.loads(m).get("result")
        if isinstance(result, dict) and "observation" in result:
            assert set(result) <= {"observation", "save"}
            # The rules' card table and this preset's manilhas name every manilha: not a leak.
            seen = dict(result["observation"], rules=None, manilhas=None)
            # The opponents' signals that nobody of ours caught are not in what the page got.
            assert all(x["seat"] % 2 == 0 for x in seen["signals"])
            m = json.dumps(seen, ensure_ascii=False)
        for c in hidden:
            assert f'"{c}"' not in m and card_name(c) not in m, f"hidden card {c} in a worker message: {m[:200]}"


def test_the_turn_timer_follows_the_deciding_seat(partner_table):
    """With a timer, the human's clock runs while it answers for the pair, and running out
    is charged to the human's seat (RULES.md §8), not the partner's."""
    partner_table.clock.install()
    start(partner_table, {"mode": "2x2", "level": "dificil", "timer": 10, "humano_decide": True, "sinais": False},
          {"seed": 11, "hands": TRUCO_HANDS, "dealer": 0})
    assert obs(partner_table)["pending"]["answerer"] == 0
    expect(partner_table.locator("#timer")).to_be_visible()
    before = last_n(partner_table)
    partner_table.clock.run_for(10_500)
    wait_turn(partner_table, before)
    o = obs(partner_table)
    assert o["auto_moves"] == [1, 0, 0, 0]
    assert any(e["type"] == "timeout" and e["seat"] == 0 and e["action"] == "run" for e in o["log"])
    assert o["score"] == [0, 2], "running out is running (§8): the truco's asker scores"
    expect(partner_table.locator("#app")).to_have_attribute("data-phase", re.compile("human|bots|over"))


def _overlap(a, b):
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("size", [(844, 390, 3, True), (640, 400, 2, False)], ids=["844x390", "640x400-zoom200"])
def test_sideways_a_side_seats_signal_chip_leaves_the_trick_room(browser, base_url, size):
    """A phone held sideways (and a laptop at 200% zoom): with Tonho's caught signal shown
    beside his name, the side seats left the centre 144 to 160 px wide; the round marks lay on
    the top card and the cards played ran over the side seats' names. Through the hand's
    rounds no card on the table touches a side seat's name, team, badge or chip, nor the round
    marks, and the page does not scroll."""
    width, height, scale, phone = size
    pages = open_table(browser, base_url, viewport={"width": width, "height": height}, device_scale_factor=scale,
                       is_mobile=phone, has_touch=phone, reduced_motion="reduce")  # no card mid-animation
    page = next(pages)
    try:
        # Seed 12 (as above): the human catches Tonho's signal, the Pica-fumo.
        hands = [["Ah", "Js", "Qc"], ["2d", "Jh", "7d"], ["Jc", "7s", "As"], ["Kd", "5s", "3c"]]
        start(page, {"mode": "2x2", "sinais": True, "humano_decide": True},
              {"seed": 12, "score": [10, 4], "dealer": 0, "hands": hands})
        expect(page.locator('.seat[data-pos="right"] .seat-signal')).to_have_text("Pica-fumo")
        page.locator("#signal-toggle").click()
        page.locator('#signal-menu button[data-signal="nada"]').click()
        page.wait_for_function("() => !window.__truco.observation.may_signal")
        hand, most = obs(page)["hand_number"], 0
        while page.locator("#app").get_attribute("data-phase") != "over" and obs(page)["hand_number"] == hand:
            cards = [c.bounding_box() for c in page.locator("#trick .card").all()]
            most = max(most, len(cards))
            marks = page.locator("#round-marks").bounding_box()
            labels = {s: page.locator(f'.seat[data-pos="{s}"] .seat-label').bounding_box() for s in ("left", "right")}
            for card in cards:
                for side, label in labels.items():
                    assert not _overlap(card, label), (f"a card covers the {side} seat's name", card, label)
                if marks:
                    assert not _overlap(card, marks), ("the round marks cover a card", marks, card)
            chip = page.locator(".seat-signal").bounding_box()
            seat = page.locator('.seat[data-pos="right"]').bounding_box()
            assert seat["x"] - 0.5 <= chip["x"] and chip["x"] + chip["width"] <= seat["x"] + seat["width"] + 0.5, (chip, seat)
            assert page.evaluate("document.documentElement.scrollHeight - innerHeight") <= 0
            page.mouse.move(0, 0)  # a card lifted under a resting pointer never settles for the click
            act(page)
        assert most >= 8, most  # the third round: the earlier rounds' cards lie under it
    finally:
        next(pages, None)  # closes the page and checks its console

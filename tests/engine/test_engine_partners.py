"""Engine options for playing with a partner: humano decide and sinais (issue 12)."""

from __future__ import annotations

import pytest

import truco
from truco import IllegalAction, new_game
from helpers.engine import call

HANDS = [["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["3h", "7c", "Qh"], ["Jd", "Qc", "Qs"]]


def four(**kw):
    return new_game(players=4, hands=HANDS, dealer=3, seed=kw.pop("seed", 1), **kw)


def test_humano_decide_answers_a_raise_aimed_at_the_partner():
    g = four(humano_decide=0)
    g.apply("play 3c")
    g.apply("raise")  # seat 1 asks; the next opponent is seat 2, the human's partner
    assert g.to_move == 0 and g.observation(0)["pending"]["answerer"] == 0
    g.apply("accept")
    assert g.hand_value == 4 and g.to_move == 1, "the asker still plays its card"


def test_without_humano_decide_the_partner_answers():
    g = four()
    g.apply("play 3c")
    g.apply("raise")
    assert g.to_move == 2


def test_humano_decide_takes_the_mao_de_dez_decision():
    g = new_game(players=4, hands=HANDS, dealer=0, seed=1, score=(10, 2), humano_decide=0)
    # seat 1 is mão; the first of team 0 in play order is seat 2, the partner
    assert g.observation(0)["decision"]["seat"] == 0 and g.to_move == 0


def test_humano_decide_timeout_is_charged_to_the_seat_that_decided():
    g = four(humano_decide=0)
    g.apply("play 3c")
    g.apply("raise")
    g.apply("timeout")
    assert g.auto_moves == [1, 0, 0, 0] and g.score == (0, 2)


def test_a_counter_raise_to_the_partner_goes_to_the_human():
    g = four(humano_decide=0)
    g.apply("play 3c")
    g.apply("play Kd")
    g.apply("raise")  # seat 2 (partner) asks truco; seat 3 answers
    g.apply("raise")  # seat 3 asks seis back: it goes to the asker's side, decided by seat 0
    assert g.to_move == 0


def test_signals_are_seen_by_partners_and_never_listed():
    g = four(sinais=True, seed=3)
    assert g.observation(2)["may_signal"] and "signal zap" not in g.legal_actions()
    g.apply("signal zap", seat=2)  # not seat 2's turn: signals go on anyone's turn
    assert g.observation(0)["signals"] == [{"seat": 2, "signal": "zap"}]
    assert not g.observation(2)["may_signal"]
    with pytest.raises(IllegalAction, match="once a hand"):
        g.apply("signal tres", seat=2)
    caught = g.hand["signals"][0]["caught_by"]
    for opp in (1, 3):
        seen = g.observation(opp)["signals"]
        assert seen == ([{"seat": 2, "signal": "zap"}] if opp in caught else [])
        assert all(e["type"] != "signal" for e in g.events(opp)) or opp in caught


def test_signals_only_before_the_seats_first_card_and_with_the_option():
    g = four(sinais=True)
    g.apply("play 3c")
    with pytest.raises(IllegalAction, match="before its first card"):
        g.apply("signal nada", seat=0)
    with pytest.raises(IllegalAction, match="does not use sinais"):
        four().apply("signal zap", seat=0)
    with pytest.raises(IllegalAction, match="the signals are"):
        four(sinais=True).apply("signal rei", seat=0)
    with pytest.raises(ValueError, match="need partners"):
        new_game(seed=1, sinais=True)


def test_catching_is_drawn_from_the_seed_and_shown_after_the_hand():
    catches = []
    for seed in range(60):
        g = four(sinais=True, seed=seed)
        g.apply("signal copas", seat=0)
        catches.append(tuple(g.hand["signals"][0]["caught_by"]))
        again = four(sinais=True, seed=seed)
        again.apply("signal copas", seat=0)
        assert again.hand["signals"][0]["caught_by"] == list(catches[-1]), "a seeded game replays exactly"
    rate = sum(len(c) for c in catches) / (2 * len(catches))
    assert 0.03 < rate < 0.35, f"each opponent catches a signal now and then, not always ({rate:.2f})"
    seed = next(i for i, c in enumerate(catches) if c)
    g = four(sinais=True, seed=seed)
    g.apply("signal copas", seat=0)
    g.apply("raise")
    g.apply("run")
    shown = [e for e in g.events(2) if e["type"] == "signals_caught"]
    assert shown and shown[0]["caught"][0]["signal"] == "copas"


def test_a_save_keeps_signals_and_options():
    g = four(sinais=True, humano_decide=0, seed=4)
    g.apply("signal tres", seat=2)
    back = truco.Game.from_json(g.to_json())
    assert back.to_json() == g.to_json() and back.observation(0) == g.observation(0)


def test_api_bots_signal_at_the_start_of_each_hand_and_the_human_sees_the_partners():
    """The table's bots signal by signal_to_send (issue 12): a partner holding a manilha
    signals it as the hand starts; one holding only a three keeps quiet."""
    hands = [["5d", "6c", "Qh"], ["Ac", "Jd", "4c"], ["7h", "Kd", "Jc"], ["Js", "Qc", "As"]]
    obs = call("new_game", players=4, seed=3, sinais=True, humano_decide=True, hands=hands, dealer=3)["observation"]
    assert obs["options"]["humano_decide"] == 0
    assert [s for s in obs["signals"] if s["seat"] % 2 == 0] == [{"seat": 2, "signal": "copas"}]
    assert all(s["seat"] == 2 for s in obs["signals"]), "opponents' signals stay hidden (none caught with seed 3)"
    assert obs["may_signal"]
    hands[2] = ["3h", "Kd", "Jc"]
    obs = call("new_game", players=4, seed=3, sinais=True, humano_decide=True, hands=hands, dealer=3)["observation"]
    assert not [s for s in obs["signals"] if s["seat"] == 2]


def test_api_partner_opinion_for_a_decision_the_human_takes():
    call("new_game", players=4, seed=1, hands=HANDS, dealer=3, humano_decide=True)
    call("apply", action="play 3c")
    for _ in range(3):  # seat 1 (bot) plays or raises; step until the human must answer
        o = call("observation")["observation"]
        if o["to_move"] == 0:
            break
        call("bot_step")
    o = call("observation")["observation"]
    if o["pending"]:
        opinion = call("partner_opinion")
        assert opinion["seat"] == 2 and opinion["action"] in ("accept", "run", "raise")


def test_api_hint_is_a_legal_action_for_the_human():
    obs = call("new_game", players=2, seed=8, hands=[["4c", "7h", "As"], ["3c", "2h", "Kd"]], dealer=1)["observation"]
    hint = call("hint")
    assert hint["action"] in obs["legal_actions"]
    assert hint["reason"]["key"].startswith("hint.") and hint["text"]


def test_api_history_is_the_public_log_of_the_match():
    call("new_game", players=2, seed=8, hands=[["4c", "7h", "As"], ["3c", "2h", "Kd"]], dealer=1)
    call("apply", action="play 4c")
    log = call("history")["log"]
    assert [e["type"] for e in log][:2] == ["deal", "play"]
    assert "3c" not in str(log), "the opponent's unplayed cards are not in the history"

"""Variants of RULES.md §9: Paulista with vira (manilha nova), 3 x 3, baralho limpo, família real."""

from __future__ import annotations

import pytest

import truco
from truco import IllegalAction, new_game


def play(g, *actions):
    for a in actions:
        g.apply(a)


def last(g, kind):
    return [e for e in g.log if e["type"] == kind][-1]


def paulista(h0, h1, vira, **kw):
    return new_game("paulista", hands=[h0, h1], vira=vira, dealer=1, seed=kw.pop("seed", 1), **kw)


# Manilha nova ----------------------------------------------------------------------
def test_s9_vira_names_the_next_rank_as_manilhas_ordered_by_suit():
    g = paulista(["Ad", "3c", "5h"], ["As", "2h", "6h"], "Kd")
    obs = g.observation(0)
    assert obs["vira"] == "Kd" and obs["manilhas"] == ["Ac", "Ah", "As", "Ad"]
    play(g, "play Ad", "play As")  # both manilhas: espadas beats ouros
    assert last(g, "round")["result"] == 1


def test_s9_vira_wraps_from_3_to_4_and_a_manilha_beats_a_3():
    g = paulista(["4d", "Kc", "5h"], ["3s", "2h", "6h"], "3c")
    assert g.observation(1)["manilhas"] == ["4c", "4h", "4s", "4d"]
    play(g, "play 4d", "play 3s")
    assert last(g, "round")["result"] == 0


def test_s9_the_old_manilhas_are_common_cards_in_paulista():
    g = paulista(["4c", "Kc", "5h"], ["7h", "2h", "6h"], "Jd")  # manilhas are the kings
    play(g, "play 4c", "play 7h")
    assert last(g, "round")["result"] == 1, "7 beats 4 when neither is a manilha"


def test_s9_vira_is_out_of_play_and_fixed_by_new_game():
    with pytest.raises(ValueError, match="also dealt"):
        paulista(["Kd", "3c", "5h"], ["As", "2h", "6h"], "Kd")
    g = new_game("paulista", seed=5)
    h = g.hand
    assert h["vira"] not in {c for hand in h["hands"] for c in hand} | set(h["stock"])


def test_s9_paulista_values_ladder_and_run():
    g = paulista(["Ad", "3c", "5h"], ["As", "2h", "6h"], "Kd")
    assert g.hand_value == 1
    asked = []
    while "raise" in g.legal_actions():
        g.apply("raise")
        asked.append(g.observation(0)["pending"]["value"])
    assert asked == [3, 6, 9, 12]
    g.apply("run")
    assert max(g.score) == 9


def test_s9_mao_de_onze_is_worth_three_and_running_gives_one():
    g = paulista(["Ad", "3c", "5h"], ["As", "2h", "6h"], "Kd", score=(11, 5))
    assert g.observation(0)["hand_kind"] == "dez" and g.legal_actions() == ["accept", "run"]
    play(g, "accept")
    assert g.hand_value == 3
    g = paulista(["Ad", "3c", "5h"], ["As", "2h", "6h"], "Kd", score=(11, 5))
    play(g, "run")
    assert g.score == (11, 6)


def test_s9_mao_de_ferro_no_escuro_hides_the_vira_until_the_first_round_is_on_the_table():
    g = paulista(["Ad", "3c", "5h"], ["As", "2h", "6h"], "Kd", score=(11, 11))
    assert g.hand_value == 1
    for seat in (0, 1):
        obs = g.observation(seat)
        assert obs["vira"] is None and obs["manilhas"] == [] and "Kd" not in str(obs)
    play(g, "play #1")
    assert g.observation(1)["vira"] is None
    play(g, "play #1")
    assert g.observation(0)["vira"] == "Kd" and last(g, "vira") == {"type": "vira", "card": "Kd"}
    assert last(g, "round")["result"] == 1, "the cards on the table can be manilhas once the vira shows"


def test_s9_mao_de_ferro_as_claras_shows_the_vira():
    g = paulista(["Ad", "3c", "5h"], ["As", "2h", "6h"], "Kd", score=(11, 11), ferro="claras")
    assert g.observation(0)["vira"] == "Kd" and g.observation(0)["hand"] == ["Ad", "3c", "5h"]


def test_s9_paulista_scores_may_be_odd():
    assert new_game("paulista", seed=1, score=(7, 3)).score == (7, 3)


# Baralho limpo ---------------------------------------------------------------------
def test_s9_baralho_limpo_drops_4_to_7_but_keeps_the_manilhas():
    deck = truco.preset("mineiro").deck(limpo=True)
    assert len(deck) == 27
    assert {"4c", "7h", "7d"} <= set(deck) and not {"4h", "5c", "6s", "7c"} & set(deck)
    g = new_game(seed=3, baralho_limpo=True, players=4)
    for hand in g.hand["hands"]:
        assert all(c in deck for c in hand)
    with pytest.raises(ValueError, match="not in this deck"):
        new_game(hands=[["5c", "Kh", "Qh"], ["3c", "2c", "Ac"]], baralho_limpo=True, seed=1)


def test_s9_baralho_limpo_with_a_vira_wraps_from_3_to_q():
    g = new_game("paulista", hands=[["Qd", "Kc", "Jh"], ["As", "2h", "Ks"]], vira="3d",
                 baralho_limpo=True, dealer=1, seed=1)
    assert g.observation(0)["manilhas"] == ["Qc", "Qh", "Qs", "Qd"]


# Família real ----------------------------------------------------------------------
def test_s9_familia_real_exchanges_a_court_hand_once_before_its_first_card():
    g = new_game(hands=[["Qd", "Kc", "Jh"], ["As", "2h", "Ks"]], familia_real=True, dealer=1, seed=1)
    assert "exchange" in g.legal_actions()
    stock_top = g.hand["stock"][:3]
    play(g, "exchange")
    assert g.observation(0)["hand"] == stock_top
    assert g.observation(1)["exchanged"] == [{"seat": 0, "cards": ["Qd", "Kc", "Jh"]}]
    assert "exchange" not in g.legal_actions()


def test_s9_familia_real_only_for_q_j_k_hands_and_only_with_the_option():
    g = new_game(hands=[["Qd", "Kc", "3h"], ["As", "2h", "Ks"]], familia_real=True, dealer=1, seed=1)
    assert "exchange" not in g.legal_actions()
    with pytest.raises(IllegalAction, match="família real"):
        g.apply("exchange")
    g = new_game(hands=[["Qd", "Kc", "Jh"], ["As", "2h", "Ks"]], dealer=1, seed=1)
    with pytest.raises(IllegalAction, match="house rule"):
        g.apply("exchange")


def test_s9_familia_real_not_after_the_first_card():
    g = new_game(hands=[["As", "2h", "3s"], ["Qd", "Kc", "Jh"]], familia_real=True, dealer=1, seed=1)
    play(g, "play As")
    assert "exchange" in g.legal_actions(), "seat 1 has not played its first card yet"
    play(g, "play Qd")
    assert "exchange" not in g.legal_actions()


# 3 x 3 -----------------------------------------------------------------------------
def test_s9_trucao_de_6_teams_alternate_and_the_next_opponent_answers():
    g = new_game(players=6, seed=2, dealer=5)
    assert g.to_move == 0
    play(g, "raise")
    assert g.observation(3)["pending"]["answerer"] == 1
    play(g, "accept")
    assert g.to_move == 0 and g.hand_value == 4
    assert [len(h) for h in g.hand["hands"]] == [3] * 6

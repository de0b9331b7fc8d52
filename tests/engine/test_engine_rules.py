"""The engine against RULES.md, section by section, with hand-built deals."""

from __future__ import annotations

import pytest

import truco
from truco import IllegalAction, new_game
from truco.cards import DECK
from truco.game import deal_for
from truco.judge import hand_outcome, round_result


def two(h0, h1, **kw):
    """A 1 x 1 game where seat 0 is 'mão' (dealer 1)."""
    return new_game(hands=[h0, h1], dealer=1, seed=kw.pop("seed", 1), **kw)


def four(hands, **kw):
    """A 2 x 2 game where seat 0 is 'mão' (dealer 3)."""
    return new_game(players=4, hands=hands, dealer=3, seed=kw.pop("seed", 1), **kw)


def play(g, *actions):
    for a in actions:
        g.apply(a)


def last(g, kind):
    return [e for e in g.log if e["type"] == kind][-1]


def unchanged_after(g, action):
    before = g.to_json()
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    assert g.to_json() == before, "an illegal action must leave the game as it was"
    return str(err.value)


# §1 Deck, seats, deal -------------------------------------------------------------
def test_s1_deck_has_40_cards_without_8_9_10():
    assert len(DECK) == len(set(DECK)) == 40
    assert not any(c[0] in "89T" or c.startswith("10") for c in DECK)


def test_s1_every_hand_deals_three_distinct_cards_per_seat():
    for players in (2, 4):
        hands = deal_for(5, 0, players)
        cards = [c for h in hands for c in h]
        assert [len(h) for h in hands] == [3] * players
        assert len(set(cards)) == 3 * players


def test_s1_dealer_rotates_and_the_seat_after_the_dealer_leads():
    g = new_game(players=4, seed=9, dealer=2)
    assert g.dealer == 2 and g.to_move == 3
    g.apply("raise")
    g.apply("run")  # hand over: the next hand is dealt by the next seat
    assert g.dealer == 3 and g.to_move == 0
    assert last(g, "deal")["mao"] == 0


def test_s1_teams_alternate_seats():
    assert [truco.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_s1_dealer_drawn_from_seed_is_reproducible():
    assert new_game(seed=42).dealer == new_game(seed=42).dealer


# §2 Card strength ------------------------------------------------------------------
ORDER = ["4c", "7h", "As", "7d", "3s", "2s", "Ah", "Ks", "Js", "Qs", "7s", "6s", "5s", "4s"]


@pytest.mark.parametrize("i", range(len(ORDER) - 1))
def test_s2_card_order_manilhas_then_common_cards(i):
    r = truco.preset("mineiro").strength_table()
    stronger, weaker = ORDER[i], ORDER[i + 1]
    assert round_result(r, [(0, weaker, False), (1, stronger, False)]) == (1, 1)
    assert round_result(r, [(0, stronger, False), (1, weaker, False)]) == (0, 0)


def test_s2_common_cards_of_the_same_rank_tie_and_j_beats_q():
    g = two(["3c", "Jh", "5c"], ["3h", "Qd", "6c"])
    play(g, "play 3c", "play 3h")
    assert last(g, "round")["result"] == "tie"
    r = truco.preset("mineiro").strength_table()
    assert round_result(r, [(0, "Qh", False), (1, "Jc", False)]) == (1, 1)


def test_s2_other_sevens_fours_and_aces_are_common():
    r = truco.preset("mineiro")
    assert r.strength("7c") == r.strength("7s") < r.strength("Qh")
    assert r.strength("4h") == r.strength("4d") < r.strength("5c")
    assert r.strength("Ac") == r.strength("Ad") < r.strength("2c")


def test_s2_covered_card_loses_to_every_face_up_card_and_two_covered_tie():
    r = truco.preset("mineiro").strength_table()
    assert round_result(r, [(0, "4c", True), (1, "4h", False)]) == (1, 1)
    assert round_result(r, [(0, "4c", True), (1, "3h", True)]) == ("tie", None)


# §3 Rounds and who wins the hand --------------------------------------------------
def test_s3_strongest_card_wins_the_round_and_its_player_leads_next():
    g = two(["5c", "6c", "Kd"], ["3h", "2h", "Qd"])
    play(g, "play 5c", "play 3h")
    assert last(g, "round") == {"type": "round", "round": 1, "result": 1, "seat": 1}
    assert g.to_move == 1


def test_s3_partners_tied_for_strongest_win_the_round_first_of_them_leads():
    g = four([["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["3h", "7c", "Qh"], ["Jd", "Qc", "Qs"]])
    play(g, "play 3c", "play Kd", "play 3h", "play Jd")
    assert last(g, "round")["result"] == 0 and last(g, "round")["seat"] == 0
    assert g.to_move == 0


def test_s3_2x2_tie_only_when_the_strongest_cards_belong_to_both_teams():
    g = four([["5c", "5h", "5s"], ["3c", "6c", "6h"], ["Kh", "7c", "Qh"], ["3d", "Qc", "Qs"]])
    play(g, "play 5c", "play 3c", "play Kh", "play 3d")
    assert last(g, "round")["result"] == 1, "seats 1 and 3 are partners: their team wins"
    g = four([["5c", "5h", "5s"], ["3c", "6c", "6h"], ["3h", "7c", "Qh"], ["Kd", "Qc", "Qs"]])
    play(g, "play 5c", "play 3c", "play 3h", "play Kd")
    assert last(g, "round")["result"] == "tie"
    assert g.to_move == 0, "after a tied round, the seat that led it leads again"


def test_s3_two_rounds_won_end_the_hand_without_a_third():
    g = two(["3c", "3h", "4d"], ["5c", "6c", "7s"])
    play(g, "play 3c", "play 5c", "play 3h", "play 6c")
    hand = last(g, "hand")
    assert hand["winner"] == 0 and hand["points"] == 2 and hand["rounds"] == [0, 0]
    assert g.score == (2, 0) and g.hand_index == 1


def test_s3_first_round_tied_the_second_decides():
    g = two(["3c", "Kh", "4d"], ["3h", "5c", "6s"])
    play(g, "play 3c", "play 3h", "play Kh", "play 5c")
    assert last(g, "hand")["winner"] == 0 and last(g, "hand")["rounds"] == ["tie", 0]


def test_s3_first_two_tied_the_third_decides():
    g = two(["3c", "Kh", "4d"], ["3h", "Kc", "6s"])
    play(g, "play 3c", "play 3h", "play Kh", "play Kc", "play 4d", "play 6s")
    assert last(g, "hand")["winner"] == 1 and last(g, "hand")["rounds"] == ["tie", "tie", 1]


def test_s3_first_won_then_second_tied_goes_to_the_first_winner():
    g = two(["3c", "Kh", "4d"], ["2h", "Kc", "6s"])
    play(g, "play 3c", "play 2h", "play Kh", "play Kc")
    assert last(g, "hand")["winner"] == 0 and last(g, "hand")["rounds"] == [0, "tie"]


def test_s3_first_won_second_lost_third_tied_goes_to_the_first_winner():
    g = two(["3c", "Kh", "5d"], ["2h", "Ac", "5s"])
    play(g, "play 3c", "play 2h", "play Kh", "play Ac", "play 5s", "play 5d")
    assert last(g, "hand")["winner"] == 0 and last(g, "hand")["rounds"] == [0, 1, "tie"]


def test_s3_all_three_tied_is_void_and_nobody_scores():
    g = two(["3c", "Kh", "5d"], ["3h", "Kc", "5s"])
    play(g, "play 3c", "play 3h", "play Kh", "play Kc", "play 5d", "play 5s")
    assert last(g, "hand")["winner"] is None and last(g, "hand")["reason"] == "void"
    assert g.score == (0, 0) and g.hand_index == 1


def test_s3_hand_outcome_table():
    assert hand_outcome([0]) is None
    assert hand_outcome([0, 1]) is None
    assert hand_outcome([1, 0, 0]) == 0
    assert hand_outcome(["tie", "tie"]) is None


# §4 Covered card -------------------------------------------------------------------
def test_s4_no_covered_card_in_the_first_round():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "5s"])
    msg = unchanged_after(g, "cover 3c")
    assert "2nd round" in msg and "§4" in msg
    assert not any(a.startswith("cover") for a in g.legal_actions())


def test_s4_covered_card_is_never_shown_to_anyone_but_its_owner():
    g = four([["3c", "Kh", "5d"], ["2h", "Kc", "5s"], ["Qh", "Qc", "Qs"], ["Jh", "Jc", "Js"]])
    play(g, "play 3c", "play 2h", "play Qh", "play Jh")  # seat 0 wins, leads round 2
    assert "cover 5d" in g.legal_actions()
    play(g, "cover 5d")
    for seat in (1, 2, 3):
        obs = g.observation(seat)
        assert obs["rounds"][1]["plays"][0] == {"seat": 0, "card": None, "covered": True}
        assert "5d" not in str(obs), f"seat {seat} must not learn the covered card"
    assert g.observation(0)["rounds"][1]["plays"][0]["card"] == "5d"
    play(g, "play Kc", "play Qc", "play Jc")  # seat 1 wins round 2 and leads round 3
    play(g, "play 5s", "play Qs", "play Js", "play Kh")
    assert g.hand_index == 1
    for seat in (1, 2, 3):
        assert "5d" not in str(g.observation(seat)["log"]), "not even after the hand"


def test_s4_covered_card_loses_the_round():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    play(g, "play 3c", "play 2h", "cover Kh", "play 4s")
    assert last(g, "round")["result"] == 1


# §5 Hand value and raises ----------------------------------------------------------
def test_s5_hand_starts_worth_two_and_truco_accepted_makes_four_the_asker_still_plays():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    assert g.hand_value == 2
    play(g, "raise")
    obs = g.observation(1)
    assert obs["pending"] == {"asker": 0, "answerer": 1, "name": "truco", "value": 4}
    assert g.hand_value == 2, "while pending, the value is the last accepted one"
    play(g, "accept")
    assert g.hand_value == 4 and g.to_move == 0
    assert "raise" not in g.legal_actions(), "nobody raises twice in a row"


@pytest.mark.parametrize("raises,scorer,points", [(1, 0, 2), (2, 1, 4), (3, 0, 6), (4, 1, 10)])
def test_s5_running_gives_the_value_before_the_request(raises, scorer, points):
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    for _ in range(raises):
        g.apply("raise")
    g.apply("run")
    assert last(g, "hand")["winner"] == scorer and g.score[scorer] == points


def test_s5_no_skipping_steps_and_doze_is_the_top():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    values = []
    for _ in range(4):
        g.apply("raise")
        values.append(g.observation(0)["pending"]["value"])
    assert values == [4, 6, 10, 12]
    assert g.legal_actions() == ["accept", "run"]
    msg = unchanged_after(g, "raise")
    assert "top of the ladder" in msg
    g.apply("accept")
    assert g.hand_value == 12


def test_s5_counter_raise_accepts_and_the_acceptor_may_raise_at_once():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    play(g, "raise", "raise")  # truco -> seis
    assert g.hand_value == 4, "the counter-raise accepted truco"
    assert g.to_move == 0, "the counter-raise goes back to the one who asked"
    play(g, "accept")
    assert g.hand_value == 6 and g.to_move == 0
    assert "raise" in g.legal_actions(), "the side that accepted seis may ask dez on the same turn"
    play(g, "raise")
    assert g.observation(1)["pending"]["value"] == 10


def test_s5_after_an_accepted_raise_only_the_accepting_side_may_raise():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    play(g, "raise", "accept", "play 3c")
    assert "raise" in g.legal_actions()  # seat 1 accepted: it may ask seis
    play(g, "play 2h")  # seat 0 wins round 1 and leads round 2
    assert g.to_move == 0 and "raise" not in g.legal_actions()
    assert "twice in a row" in unchanged_after(g, "raise")


def test_s5_2x2_next_opponent_answers_counter_goes_back_and_one_run_runs_the_team():
    g = four([["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["3h", "7c", "Qh"], ["Jd", "Qc", "Qs"]])
    play(g, "play 3c", "play Kd", "play 3h")
    assert g.to_move == 3
    play(g, "raise")
    assert g.observation(0)["pending"]["answerer"] == 0, "the next opponent, wrapping around"
    play(g, "raise")
    assert g.to_move == 3, "the counter-raise goes back to the player who asked"
    play(g, "run")
    assert last(g, "hand")["winner"] == 0 and g.score == (4, 0)


def test_s5_partner_of_the_accepted_asker_may_not_raise():
    g = four([["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["3h", "7c", "Qh"], ["Jd", "Qc", "Qs"]])
    play(g, "raise", "accept", "play 3c", "play Kd")
    assert g.to_move == 2 and "raise" not in g.legal_actions()
    play(g, "play 3h")
    assert "raise" in g.legal_actions(), "the accepting team may ask seis"


def test_s5_raise_only_from_the_seat_to_move():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    before = g.to_json()
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        g.apply("raise", seat=1)
    assert g.to_json() == before


# §6 Mão de dez and mão de ferro ----------------------------------------------------
def test_s6_mao_de_dez_accept_makes_four_no_raise_no_cover():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(10, 4))
    obs = g.observation(0)
    assert obs["hand_kind"] == "dez" and obs["decision"] == {"type": "mao_de_dez", "seat": 0, "team": 0}
    assert g.legal_actions() == ["accept", "run"]
    play(g, "accept")
    assert g.hand_value == 4
    assert "raise" not in g.legal_actions()
    assert "§6" in unchanged_after(g, "raise")
    play(g, "play 3c", "play 2h")
    assert not any(a.startswith("cover") for a in g.legal_actions())
    assert "§4" in unchanged_after(g, "cover Kh")
    play(g, "play Kh", "play Kc")
    assert g.winner == 0 and g.score == (14, 4), "10 + 4 wins and the score is kept as it is (§7)"


def test_s6_mao_de_dez_run_gives_the_opponents_two_with_no_card_played():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(4, 10))
    assert g.to_move == 1, "the team at 10 decides"
    play(g, "run")
    assert g.score == (6, 10)
    assert not any(e["type"] == "play" for e in g.log)


def test_s6_2x2_mao_de_dez_partners_see_each_other_and_the_first_of_them_decides():
    hands = [["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["3h", "7c", "Qh"], ["Jd", "Qc", "Qs"]]
    g = four(hands, score=(2, 10))
    assert g.to_move == 1, "the partner of the team at 10 who plays first in the hand"
    assert g.observation(1)["visible_hands"] == [{"seat": 3, "cards": ["Jd", "Qc", "Qs"]}]
    assert g.observation(3)["visible_hands"] == [{"seat": 1, "cards": ["Kd", "6c", "6h"]}]
    for seat in (0, 2):
        assert g.observation(seat)["visible_hands"] == []
        assert "Jd" not in str(g.observation(seat))
    play(g, "accept", "play 3c", "play Kd")
    assert g.observation(1)["visible_hands"] == [{"seat": 3, "cards": ["Jd", "Qc", "Qs"]}], \
        "the partners keep seeing each other's remaining cards"


def test_s6_exactly_ten_means_exactly_ten():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(8, 6))
    assert g.observation(0)["hand_kind"] == "normal"


def test_s6_mao_de_ferro_escuro_blind_positional_play_worth_two_no_raise():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(10, 10))
    obs = g.observation(0)
    assert obs["hand_kind"] == "ferro" and obs["blind"] and obs["hand"] == []
    assert g.hand_value == 2
    assert g.legal_actions() == ["play #1", "play #2", "play #3"]
    for card in ("3c", "Kh", "5d", "2h", "Kc", "4s"):
        assert card not in str(g.observation(0)) and card not in str(g.observation(1))
    assert "§6" in unchanged_after(g, "play 3c")
    play(g, "play #2")  # Kh, turned face up when played
    assert g.observation(1)["rounds"][0]["plays"][0] == {"seat": 0, "card": "Kh", "covered": False}
    play(g, "play #1", "play #1")  # seat 1 plays 2h and wins; then leads with Kc
    assert g.observation(0)["hand_sizes"] == [2, 1]
    assert g.to_move == 0 and g.legal_actions() == ["play #1", "play #2"], "renumbered after each play"
    play(g, "play #2")
    assert last(g, "play") == {"type": "play", "seat": 0, "card": "5d"}


def test_s6_mao_de_ferro_as_claras_own_cards_visible_partner_hidden():
    hands = [["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["3h", "7c", "Qh"], ["Jd", "Qc", "Qs"]]
    g = four(hands, score=(10, 10), ferro="claras")
    obs = g.observation(0)
    assert obs["hand"] == ["3c", "5c", "5h"] and not obs["blind"] and obs["visible_hands"] == []
    assert "3h" not in str(obs)
    assert g.legal_actions() == ["play 3c", "play 5c", "play 5h"]


def test_s6_torneio_plays_ferro_as_claras():
    g = new_game("torneio", seed=3, score=(10, 10))
    assert not g.observation(0)["blind"] and g.options["ferro"] == "claras"


def test_s6_void_mao_de_dez_is_again_a_mao_de_dez():
    g = two(["3c", "Kh", "5d"], ["3h", "Kc", "5s"], score=(10, 2))
    play(g, "accept", "play 3c", "play 3h", "play Kh", "play Kc", "play 5d", "play 5s")
    assert g.score == (10, 2) and g.observation(0)["hand_kind"] == "dez"


# §7 Game and series ----------------------------------------------------------------
def test_s7_reaching_twelve_wins_a_single_game():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(8, 6))
    play(g, "raise", "accept", "play 3c", "play 2h", "play Kh", "play Kc")
    assert g.score == (12, 6) and g.winner == 0 and g.to_move is None and g.legal_actions() == []
    assert "over" in unchanged_after(g, "play 5d")


def test_s7_best_of_three_restarts_at_zero_and_keeps_rotating_the_dealer():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(8, 6), series=3)
    play(g, "raise", "accept", "play 3c", "play 2h", "play Kh", "play Kc")
    assert g.winner is None and g.games == [1, 0] and g.score == (0, 0)
    assert g.game_number == 2 and g.dealer == 0
    obs = g.observation(1)
    assert obs["games"] == [1, 0] and obs["series"] == 3


def test_s7_series_ends_when_a_team_has_won_the_majority():
    g = new_game(seed=11, series=3)
    while g.winner is None:
        g.apply("raise") if "raise" in g.legal_actions() and g.to_move == 0 else \
            g.apply("run" if g.to_move == 1 and "run" in g.legal_actions() else g.legal_actions()[0])
    assert max(g.games) == 2 and g.games[g.winner] == 2


# §8 Timer and abandonment ----------------------------------------------------------
def test_s8_timeout_runs_from_a_pending_raise():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"])
    play(g, "raise")
    assert "timeout" not in g.legal_actions()
    play(g, "timeout")
    assert last(g, "hand")["winner"] == 0 and last(g, "timeout")["action"] == "run"


def test_s8_timeout_runs_from_a_mao_de_dez_decision():
    g = two(["3c", "Kh", "5d"], ["2h", "Kc", "4s"], score=(10, 0))
    play(g, "timeout")
    assert g.score == (10, 2)


def test_s8_timeout_plays_the_weakest_card_leftmost_of_equals():
    g = two(["Kh", "5d", "5c"], ["2h", "Kc", "4s"])
    play(g, "timeout")
    assert last(g, "play") == {"type": "play", "seat": 0, "card": "5d"}


def test_s8_timeout_in_a_blind_hand_plays_the_first_card():
    g = two(["3c", "Kh", "4d"], ["2h", "Kc", "4s"], score=(10, 10))
    play(g, "timeout")
    assert last(g, "play")["card"] == "3c"


def test_s8_two_automatic_moves_in_a_row_is_abandonment():
    g = two(["3c", "Kh", "4d"], ["2h", "Kc", "4s"], score=(4, 6), series=3)
    play(g, "timeout", "play 2h", "play Kc")  # seat 0 plays 4d; seat 1 wins round 1, leads Kc
    play(g, "timeout")
    assert g.winner == 1 and g.abandoned_by == 0 and g.to_move is None
    assert last(g, "abandon") == {"type": "abandon", "seat": 0, "winner": 1}


def test_s8_a_move_by_the_player_resets_the_count():
    g = two(["3c", "Kh", "4d"], ["2h", "Kc", "4s"])
    play(g, "timeout", "play 2h", "play Kc", "play 3c", "timeout")  # 3c wins round 2
    assert g.winner is None
    assert g.auto_moves == [1, 0]


# §9 Presets ------------------------------------------------------------------------
@pytest.mark.parametrize("name,values", [("mineiro", [4, 6, 10, 12]), ("truco473", [4, 8, 10, 12]),
                                         ("torneio", [4, 8, 12])])
def test_s9_preset_ladders(name, values):
    g = new_game(name, hands=[["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], dealer=1, seed=1)
    asked = []
    while "raise" in g.legal_actions():
        g.apply("raise")
        asked.append(g.observation(0)["pending"]["value"])
    assert asked == values
    g.apply("run")
    assert max(g.score) == values[-2], "running gives the value before the request"


def test_s9_torneio_shows_tentos():
    assert truco.preset("torneio").summary()["tentos"] is True


def test_s9_unknown_preset_is_refused():
    with pytest.raises(ValueError, match="paulistinha"):
        new_game("paulistinha")

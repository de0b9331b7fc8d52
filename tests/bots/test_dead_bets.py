"""No dead bets (issue 27): with every seat played by one level, no bet decision is an
accept or a raise back on a hand every way lost from the seat's view, a raise on a hand the
face-up cards alone have lost, or a run from a hand every way won (RULES.md §3, §5, §6;
truco.bots.settled decides it exactly). The full count is truco_lab.dead_bets."""

import random

import pytest

import truco
from truco import bots
from truco.bots.player import dead_bet, no_dead_bet
from truco_lab.dead_bets import count


@pytest.mark.parametrize("level", ["facil", "medio", "dificil"])
@pytest.mark.parametrize("players", [2, 4])
def test_no_dead_bets_in_seeded_games(level, players):
    """The bench's count (truco_lab.dead_bets) on a few seeded games: none."""
    dead, decisions, examples = count(level, players, 6 if level == "dificil" else 12, seed="ci")
    assert dead == 0, examples
    assert decisions > 30


def _round3_zap_position():
    # round 1 to team 0, round 2 to team 1, round 3: seat 2 (team 0) plays the Zap face up
    g = truco.new_game(seed=3, players=4, dealer=3,
                       hands=[["3c", "5h", "6d"], ["2c", "Kh", "Js"], ["4c", "5s", "6s"], ["3h", "Qd", "Jd"]])
    for card in ("3c", "2c", "5s", "Qd", "5h", "Kh", "6s", "Jd", "Js"):
        g.apply("play " + card)
    return g


@pytest.mark.parametrize("level", ["facil", "medio", "dificil"])
def test_the_issues_case_no_level_asks_or_accepts_against_a_face_up_zap(level):
    g = _round3_zap_position()
    g.apply("raise")  # seat 2 asks truco before playing its Zap
    obs = g.observation(3)  # seat 3 (team 1) must answer: the Zap is not yet on the table
    assert bots.make(level).choose(obs) in obs["legal_actions"]
    g.apply("accept")
    g.apply("play 4c")
    obs = g.observation(3)
    # the Zap is face up in round 3: team 1 has lost, publicly; raising is a dead bet
    assert "raise" in obs["legal_actions"]
    assert dead_bet(obs, "raise") and no_dead_bet(obs, "raise") == "play 3h"
    for seed in range(20):
        assert bots.make(level, random.Random(seed)).choose(obs) in ("play 3h", "cover 3h")

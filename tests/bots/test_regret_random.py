"""truco_lab.regret_random: a bot's decisions graded by the exact best play against
``random`` (1 x 1), from what its own seat sees."""

from __future__ import annotations

import random

import pytest

from truco import bots
from truco.game import new_game

from truco_lab import bound_passive as bp
from truco_lab import bound_random as br
from truco_lab import regret_random as rr

ZAP, THREE = 13, 9
POINTS = {(t, v): (v if t == 0 else -v) for t in (0, 1) for v in br.VALUES}
POINTS["void"] = 0.0


def test_at_the_start_of_a_hand_the_best_action_is_worth_the_whole_hand():
    # The mid-hand entry and the whole-hand solver are one recursion: before any card,
    # the best of our actions is what the solver gives the hand.
    hands, pool = bp.deal_sample(random.Random(11), 1)
    values = br.action_values(hands[0], pool, (), True, (), 0, None, POINTS)
    assert set(values) == {("play", lv) for lv in set(hands[0])} | {"raise"}
    assert max(values.values()) == pytest.approx(br.solve_hand(hands, pool, True, POINTS))


def test_the_last_round_with_the_zap_against_a_three():
    # Rounds 1-2 split, random leads a 3 face up in round 3; we hold the Zap (§2). Played
    # face up it takes the round and the hand (2 points); covered it loses to any card
    # (§4: -2). Asking truco first: random runs (2), accepts (4) or asks seis, and we win
    # every branch, so the raise is worth more than 2.
    pool = list(bp.LEVEL_COUNTS)
    for lv in (ZAP, THREE):
        pool[lv] -= 1
    values = br.action_values((ZAP,), tuple(pool), (br.US, br.THEM), False,
                              ((THREE, False),), 0, None, POINTS)
    assert values[("play", ZAP)] == pytest.approx(2)
    assert values[("cover", ZAP)] == pytest.approx(-2)
    assert values["raise"] > 2


def test_the_position_holds_only_what_our_seat_has_seen():
    # Play a 1 x 1 hand until a round is on the table; the pool must be the 40 cards less
    # ours and the ones shown face up, whatever random covered.
    game = new_game("mineiro", players=2, seed="regret:1")
    seen_positions = 0
    while game.to_move is not None and seen_positions < 6:
        seat = game.to_move
        obs = game.observation(seat)
        if seat == 0 and obs["hand_kind"] == "normal" and len(obs["legal_actions"]) > 1:
            pos = rr.position(obs)
            shown = sum(1 for r in obs["rounds"] for p in r["plays"]
                        if p["seat"] != 0 and not p["covered"])
            mine_played = sum(1 for r in obs["rounds"] for p in r["plays"] if p["seat"] == 0)
            assert sum(pos["pool"]) == 40 - len(obs["hand"]) - mine_played - shown
            assert pos["pending"] == bool(obs.get("pending"))
            # every action the engine offers has a value, and none beats the best
            for action in obs["legal_actions"]:
                g = rr.grade(obs, action, LEAD_MATTERS)
                assert g["regret"] >= 0
                assert g["values"][g["best"]] == max(g["values"].values())
            seen_positions += 1
        action = bots.for_move("random", game.seed, seat, len(game.log)).choose(obs)
        game.apply(action, seat=seat)
    assert seen_positions == 6


LEAD_MATTERS = {(a, b, lead): 0.5 + 0.04 * (a - b) for a in range(0, 12, 2)
                for b in range(0, 12, 2) for lead in (True, False)}
"""A game value that grows with our lead (any will do to check the plumbing)."""

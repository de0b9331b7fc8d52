"""Bots can be reused (issue 27): over whole seeded matches, one object kept per seat
(``bots.make``) and a new object given the same RNG state choose the same action at every
move, for every level. choose() keeps nothing between calls that changes its choice."""

import copy
import random

import pytest

from truco import bots
from truco.game import new_game


@pytest.mark.parametrize("level", ["facil", "medio", "dificil", "honest", "caller"])
@pytest.mark.parametrize("players,opponent", [(2, "medio"), (4, "random")])
def test_a_reused_bot_chooses_what_a_fresh_one_does(level, players, opponent):
    games = 2 if level == "dificil" else 3
    total = 0
    for g in range(games):
        game = new_game("mineiro", players=players, seed=f"reuse:{level}:{g}")
        levels = [level if s % 2 == 0 else opponent for s in range(players)]
        rngs = [random.Random(f"r:{g}:{s}") for s in range(players)]
        kept = [bots.make(levels[s], rngs[s]) for s in range(players)]
        moves = 0
        while game.winner is None:
            seat = game.to_move
            obs = game.observation(seat)
            state = rngs[seat].getstate()
            twin_rng = random.Random()
            twin_rng.setstate(state)
            want = bots.make(levels[seat], twin_rng).choose(copy.deepcopy(obs))
            got = kept[seat].choose(obs)
            assert got == want, (g, moves, seat, levels[seat])
            game.apply(got, seat)
            moves += 1
        total += moves
    assert total > 40

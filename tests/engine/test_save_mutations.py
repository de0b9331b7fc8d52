"""Mutated real saves: refused with a ValueError (the table in play untouched) or played to
the end (issue 28, "Property tests"; DESIGN.md: from_json's bad input is a ValueError that
says what is wrong).

A short budget here (CI); truco_lab.fuzz_saves runs the same check for minutes.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import truco
from truco.bots.explain import explain
from truco.replay import replay_steps

from truco_lab import fuzz_saves

FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 2**31))
def test_a_mutated_table_save_is_refused_or_plays_to_its_end(seed):
    """Through the public API: load refuses (and the table in play is as it was) or the
    match plays on with the Dica, the partner's opinion and the replay at every step."""
    assert fuzz_saves.check_case(seed) in ("refused", "played")


def _game_mid_match(rng):
    preset = rng.choice(sorted(truco.PRESETS))
    players = rng.choice([2, 4, 6])
    opts = {"sinais": rng.random() < 0.5} if players > 2 else {}
    g = truco.new_game(preset, players=players, seed=rng.randrange(10**6), timer=rng.choice([0, 10]), **opts)
    for _ in range(rng.randrange(1, 60)):
        if g.to_move is None:
            break
        if opts.get("sinais") and rng.random() < 0.2:
            seat = rng.randrange(players)
            if g.may_signal(seat):
                g.apply("signal " + rng.choice(truco.game.SIGNALS), seat=seat)
                continue
        g.apply("timeout" if rng.random() < 0.03 else rng.choice(g.legal_actions()))
    return g


@FAST
@given(seed=st.integers(0, 2**31), old_format=st.booleans())
def test_a_mutated_game_save_is_refused_or_plays_to_its_end(seed, old_format):
    """Through Game.from_json, both formats (version 2: start and moves; version 1: the
    state), the Dica of the seat to move and the replay at every step."""
    rng = random.Random(seed)
    g = _game_mid_match(rng)
    data = g.state_dict() if old_format else json.loads(g.to_json())
    for _ in range(rng.choice([1, 1, 2])):
        data, _ = fuzz_saves.mutate(data, rng)
    try:
        loaded = truco.Game.from_json(json.dumps(data))
    except ValueError:
        return
    while loaded.to_move is not None:
        obs = loaded.observation(loaded.to_move)
        action, _ = explain(obs, random.Random(1))
        assert action in obs["legal_actions"] or action.startswith("signal ")
        replay_steps(loaded, rng.randrange(loaded.players))
        loaded.apply(rng.choice(loaded.legal_actions()))
    assert loaded.winner is not None

"""The exact solver behind truco_lab.bound_random (the bound on any bot's win rate against
``random``): against the engine, on hand-built hands whose value follows from the rules,
and the C++ port against the Python reference."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from truco_lab import RESULTS
from truco_lab import bound_passive as bp
from truco_lab import bound_random as br

ZAP, COPAS, ESPADILHA = 13, 12, 11
POINTS = {(t, v): (v if t == 0 else -v) for t in (0, 1) for v in br.VALUES}
POINTS["void"] = 0.0
"""A utility that is just the points the hand gives us (any utility will do for a test)."""


def pool_without(*levels: int) -> tuple[int, ...]:
    pool = list(bp.LEVEL_COUNTS)
    for lv in levels:
        pool[lv] -= 1
    return tuple(pool)


SURE = ((ZAP, COPAS, ESPADILHA),)
SURE_POOL = pool_without(ZAP, COPAS, ESPADILHA)


def test_the_ladder_with_a_sure_hand_at_dez():
    # §2: the three best manilhas win every round. Dez (10) was asked by them and
    # accepted (§5), so only we may ask doze: random runs (we score 10) or accepts (12),
    # 1/2 each at the top of the ladder: 11.
    assert br.solve_hand(SURE, SURE_POOL, True, POINTS, level=3, last=1) == pytest.approx(11)


def test_the_ladder_with_a_sure_hand_at_seis():
    # Seis (6) accepted, asked by them: we ask dez at once. Random runs (6), raises doze
    # (we accept: 12) or accepts (10, and from then on only random may ask doze, which we
    # accept). We lead round 1 and win it; to give random as many turns as possible we
    # cover our card in round 2 (§4): random's round-1 turn raises with chance 1/4 (3
    # plays + raise); round 2 (2 plays, 2 covers, raise) 1/5; if it plays face up it wins
    # round 2 and round 3 comes (play, cover, raise: 1/3); if it covers too, the round
    # ties and we have won the hand. P(doze) = 1/4 + 3/4 (1/5 + 2/5 * 1/3) = 1/2, so
    # accepting is worth 11, and asking dez (6 + 11 + 12) / 3 = 29/3.
    assert br.solve_hand(SURE, SURE_POOL, True, POINTS, level=2, last=1) == pytest.approx(29 / 3)


def test_a_sure_hand_is_won_by_the_best_play_not_by_a_random_one():
    win = {(t, v): 1.0 - t for t in (0, 1) for v in br.VALUES}
    win["void"] = 0.5
    assert br.solve_hand(SURE, SURE_POOL, False, win) == pytest.approx(1)
    # Playing like random, our seat runs from a third of random's requests.
    assert br.solve_hand(SURE, SURE_POOL, False, win, policy="uniform") < 0.95


def test_the_best_play_is_never_worth_less_than_playing_like_random():
    rng = random.Random(5)
    u = {(t, v): 0.5 + (0.04 if t == 0 else -0.04) * v for t in (0, 1) for v in br.VALUES}
    u["void"] = 0.5
    for i in range(2):
        hands, pool = bp.deal_sample(rng, 1)
        best = br.solve_hand(hands, pool, i % 2 == 0, u)
        uniform = br.solve_hand(hands, pool, i % 2 == 0, u, policy="uniform", exact=True)
        assert uniform <= best + 1e-12
        assert 0.02 <= uniform and best <= 0.98


def test_the_solver_agrees_with_the_engine():
    # Our seat plays like random too: the solver's chance of winning the hand must be the
    # engine's, within 3.5 standard errors (a fixed seed: the test is deterministic).
    rows = br.engine_check(deals=2, games=400, seed=2, players=2)
    for solver, engine, se in rows:
        assert abs(solver - engine) <= 3.5 * se


@pytest.mark.skipif(shutil.which("g++") is None, reason="the C++ port needs g++")
def test_the_cpp_port_agrees_with_the_python_solver(tmp_path):
    binary = tmp_path / "bound_random"
    subprocess.run(["g++", "-O2", "-o", str(binary), str(RESULTS / "bound_random.cpp")],
                   check=True)
    # 1 x 1 only: a 2 x 2 normal hand takes the Python reference about a minute (the
    # 2 x 2 port was checked on 12 deals by hand, see bench/bots/arena_results.md).
    rng = random.Random(3)
    hands, pool = bp.deal_sample(rng, 1)
    u = {(t, v): rng.random() for t in (0, 1) for v in br.VALUES}
    u["void"] = rng.random()
    jobs = [(hands, pool, True, u, kind, policy)
            for kind in br.KINDS for policy in ("best", "uniform")]
    out = subprocess.run([str(binary)], input="".join(br.Solver.line(j) + "\n" for j in jobs),
                         capture_output=True, text=True, check=True).stdout.split()
    for job, x in zip(jobs, out):
        assert float(x) == pytest.approx(br._solve_job(job), abs=1e-9)

"""The exact solver behind truco_lab.bound_passive (issue 4: the bound on any bot's win
rate against ``passive``), on hand-built hands whose value follows from the rules."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from truco_lab import RESULTS
from truco_lab import bound_passive as bp

ZAP, COPAS, ESPADILHA, PICA_FUMO = 13, 12, 11, 10
FOUR, FIVE, SIX = 0, 1, 2
# The game's value after each ending: winning 4 is worth more than winning 2, losing 4
# costs more than losing 2 (any game state looks like this).
U = {(0, 2): 0.6, (0, 4): 0.8, (1, 2): 0.4, (1, 4): 0.2, "void": 0.5}


def pool_without(*levels: int) -> tuple[int, ...]:
    pool = list(bp.LEVEL_COUNTS)
    for lv in levels:
        pool[lv] -= 1
    return tuple(pool)


@pytest.mark.parametrize("we_lead", [True, False])
def test_the_three_best_manilhas_win_for_sure_so_the_team_asks_truco(we_lead):
    # §2: Zap, Copas and Espadilha beat every other card, so the hand is won whatever
    # passive plays. §5: asking truco, passive runs (we score the 2 the hand was worth) or
    # accepts (we win 4), each half the time: 0.5 * 0.6 + 0.5 * 0.8 = 0.7 beats 0.6.
    hands = ((ZAP, COPAS, ESPADILHA), (FOUR, FIVE, SIX))
    if not we_lead:
        hands = hands[::-1]
    pool = pool_without(ZAP, COPAS, ESPADILHA, FOUR, FIVE, SIX)
    assert bp.solve_hand(hands, pool, we_lead, U) == pytest.approx(0.7)
    # Without the right to ask (a mão de dez, §6) the sure hand is worth a sure win.
    assert bp.solve_hand(hands, pool, we_lead, U, value=4, can_raise=False,
                         covers=False) == pytest.approx(0.8)


def test_a_sure_hand_played_like_passive_is_still_won_but_not_raised():
    hands = ((ZAP, COPAS, ESPADILHA), (FOUR, FIVE, SIX))
    pool = pool_without(ZAP, COPAS, ESPADILHA, FOUR, FIVE, SIX)
    assert bp.solve_hand(hands, pool, True, U, policy="random") == pytest.approx(0.6)


def test_the_best_play_is_never_worth_less_than_playing_like_passive():
    import random

    rng = random.Random(11)
    hands, pool = bp.deal_sample(rng)
    while len(set(hands[0] + hands[1])) > 4:  # a small tree keeps the test fast
        hands, pool = bp.deal_sample(rng)
    best = bp.solve_hand(hands, pool, True, U)
    passive_like = bp.solve_hand(hands, pool, True, U, policy="random")
    assert 0.2 <= passive_like <= best <= 0.8
    assert best >= 0.5 * U[(0, 2)] + 0.5 * (0.2)  # asking truco at once is always open


@pytest.mark.skipif(shutil.which("g++") is None, reason="the C++ port needs g++")
def test_the_cpp_port_agrees_with_the_python_solver(tmp_path):
    binary = tmp_path / "bound_passive"
    subprocess.run(["g++", "-O2", "-o", str(binary), str(RESULTS / "bound_passive.cpp")],
                   check=True)
    hands = ((ZAP, FIVE, SIX), (PICA_FUMO, FOUR, FOUR))
    pool = pool_without(ZAP, FIVE, SIX, PICA_FUMO, FOUR, FOUR)
    line = " ".join(map(str, hands[0] + hands[1])) + " 1 2 1 1 0 0 0.6 0.8 0.4 0.2 0.5\n"
    out = subprocess.run([str(binary)], input=line, capture_output=True, text=True,
                         check=True).stdout
    assert float(out) == pytest.approx(bp.solve_hand(hands, pool, True, U), abs=1e-9)


def test_the_sampled_deals_hold_manilhas_in_their_exact_shares():
    import collections
    import math
    import random

    # 4 manilhas among 40 cards (§2), 6 of them ours: none 50.75%, one 39.29%.
    assert bp.stratum_share(0) == pytest.approx(math.comb(36, 6) / math.comb(40, 6))
    assert bp.stratum_share(1) == pytest.approx(4 * math.comb(36, 5) / math.comb(40, 6))
    deals = bp.stratified_deals(100, random.Random(1))
    assert collections.Counter(bp.stratum(h) for h, _ in deals) == {0: 51, 1: 39, 2: 10}
    weights = bp.stratum_weights(deals)
    assert sum(weights) == pytest.approx(1.0)
    # Plain draws are reweighted to the same shares.
    plain = [bp.deal_sample(r) for r in [random.Random(3)] for _ in range(100)]
    w = bp.stratum_weights(plain)
    share_of = collections.defaultdict(float)
    for (h, _), x in zip(plain, w):
        share_of[bp.stratum(h)] += x
    for k in range(3):
        assert share_of[k] == pytest.approx(bp.stratum_share(k))

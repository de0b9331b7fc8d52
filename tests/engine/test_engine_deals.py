"""Every deal of a match depends only on (seed, hand number): a shared seed reproduces the
whole match's cards whatever is played (issue #12, "Share a game")."""

from __future__ import annotations

import random

import pytest

import truco
from truco.game import deal_for


def _deals(game, rng, limit=400):
    """Play ``game`` with random legal moves (signals and exchanges too): the deal of each
    hand (cards, vira, dealer, the rest of the deck) and the moves made."""
    deals = {}
    for _ in range(limit):
        h = game.hand
        key = game.hand_index
        if key not in deals:
            deals[key] = ([list(c) for c in h["hands"]], h["vira"], game.dealer, list(h["stock"]))
        if game.is_over:
            break
        if game.options["sinais"]:
            for seat in range(game.players):
                if game.may_signal(seat) and rng.random() < 0.5:
                    game.apply(f"signal {rng.choice(truco.game.SIGNALS)}", seat=seat)
        game.apply(rng.choice(game.legal_actions() + ["timeout"] * (rng.random() < 0.02)))
    return deals, [e for e in game.log if e["type"] in ("play", "cover", "raise", "accept", "run")]


@pytest.mark.parametrize("preset,players,options", [
    ("mineiro", 2, {}),
    ("mineiro", 4, {"sinais": True, "humano_decide": 0, "series": 3}),
    ("paulista", 6, {"baralho_limpo": True, "familia_real": True, "series": 5}),
])
def test_same_seed_different_play_same_kth_deal(preset, players, options):
    for seed in (1, 77, "amigos"):
        a, moves_a = _deals(truco.new_game(preset, players=players, seed=seed, **options), random.Random(1))
        b, moves_b = _deals(truco.new_game(preset, players=players, seed=seed, **options), random.Random(2))
        common = set(a) & set(b)
        assert len(common) >= 3, "both matches went past the first hands"
        assert moves_a != moves_b, "the two matches were played differently"
        for k in common:
            assert a[k] == b[k], f"seed {seed}: hand {k + 1} was dealt differently after different play"
            if not options.get("familia_real"):
                assert a[k][0] == deal_for(seed, k, players), "the deal is the seeded deck's"


def test_a_different_seed_deals_differently():
    assert deal_for(1, 0, 2) != deal_for(2, 0, 2)
    assert deal_for(1, 0, 2) != deal_for(1, 1, 2)

"""Engine-side helpers the tests share: the worker's JSON API as the page calls it, and
positions reached by random play. Standard library and the engine only (no pytest), so the
engine tiers import it without the browser tools."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import truco
from truco import api
from truco.signals import signal_for


def call(method: str, **params) -> dict:
    """One request to `truco.api` through its JSON text, as the Web Worker sends it; an
    engine error is raised as the worker would report it."""
    return json.loads(api.handle(json.dumps({"method": method, "params": params})))


def random_positions(count: int, seed: int) -> Iterator[truco.Game]:
    """`count` games, each stopped at a position reached by random play (any preset, 1 x 1
    to 3 x 3, signals sometimes), with a seat to move."""
    rng = random.Random(seed)
    presets = sorted(truco.PRESETS)
    made = 0
    while made < count:
        players = rng.choice((2, 4, 4, 6))
        score = [rng.choice((0, 2, 4, 8, 10)), rng.choice((0, 2, 6, 10))]
        options = {"ferro": rng.choice(("escuro", "claras")),
                   "baralho_limpo": rng.random() < 0.2, "familia_real": rng.random() < 0.2}
        if players > 2:
            options["sinais"] = rng.random() < 0.3
        g = truco.new_game(rng.choice(presets), players=players, seed=rng.randrange(10**6),
                           score=score, **options)
        steps = rng.randrange(0, 14)
        for _ in range(steps):
            if g.to_move is None:
                break
            if options.get("sinais"):
                for seat in range(players):
                    if g.may_signal(seat) and rng.random() < 0.7:
                        g.apply("signal " + signal_for(g.observation(seat)), seat=seat)
            g.apply(rng.choice(g.legal_actions()))
        if g.to_move is None:
            continue
        made += 1
        yield g

"""Engine speed: random-play full games per second, and time per legal_actions()+apply().

    python3 bench/timing/engine.py [--games 2000]

Prints medians over 5 batches (a timing never fails anything; the machine is noisy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import truco


def play(players: int, seed: int, preset: str = "mineiro") -> int:
    rng = random.Random(seed)
    g = truco.new_game(preset, players=players, seed=seed)
    steps = 0
    while g.to_move is not None:
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    return steps


def batch(players: int, games: int, offset: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    steps = sum(play(players, offset + i) for i in range(games))
    return time.perf_counter() - t0, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000, help="games per batch")
    ap.add_argument("--batches", type=int, default=5)
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}, truco {truco.__version__}, {args.batches} batches of {args.games} games")
    for players in (2, 4):
        rates, step_us = [], []
        for b in range(args.batches):
            secs, steps = batch(players, args.games, b * args.games)
            rates.append(args.games / secs)
            step_us.append(secs / steps * 1e6)
        print(f"{players} players: {statistics.median(rates):8.0f} games/s (median), "
              f"{statistics.median(step_us):6.1f} us per legal_actions()+apply() step, "
              f"10,000 games in {10000 / statistics.median(rates):.1f} s on one core")


if __name__ == "__main__":
    main()

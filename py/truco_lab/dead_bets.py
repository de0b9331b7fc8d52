"""Dead bets per level (issue 27): every seat played by one level, every bet decision checked
with the exact :func:`truco.bots.player.dead_bet` (an accept or a raise back when every way
the hand can still go loses it from the seat's view, a raise on its turn when the face-up
cards alone lose it, a run when every way wins).

    .venv/bin/python -m truco_lab.dead_bets --games 2000 --seed 1            # 2 x 2 and 1 x 1
    .venv/bin/python -m truco_lab.dead_bets --games 200 --levels dificil --time

Also counts the decisions the check looked at and, with ``--time``, the check's own time.
"""

from __future__ import annotations

import argparse
import time

from truco import bots
from truco.bots.player import dead_bet
from truco.game import new_game


def count(level: str, players: int, games: int, seed: str, preset: str = "mineiro", timing=None):
    """(dead bets, bet decisions, examples) over ``games`` games with every seat ``level``."""
    dead = decisions = 0
    examples = []
    for i in range(games):
        game_seed = f"dead:{seed}:{i}"
        game = new_game(preset, players=players, seed=game_seed)
        while game.winner is None:
            seat = game.to_move
            obs = game.observation(seat)
            action = bots.for_move(level, game_seed, seat, len(game.log)).choose(obs)
            if action in ("run", "accept", "raise"):
                decisions += 1
                t = time.perf_counter()
                bad = dead_bet(obs, action)
                if timing is not None:
                    timing.append(time.perf_counter() - t)
                if bad:
                    dead += 1
                    if len(examples) < 5:
                        examples.append((game_seed, len(game.log), seat, action))
            game.apply(action, seat)
    return dead, decisions, examples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--preset", default="mineiro")
    ap.add_argument("--levels", default="facil,medio,dificil")
    ap.add_argument("--players", default="4,2")
    ap.add_argument("--time", action="store_true", help="also the exact check's time per call")
    args = ap.parse_args()
    timing = [] if args.time else None
    for level in args.levels.split(","):
        for players in (int(p) for p in args.players.split(",")):
            t = time.time()
            dead, decisions, examples = count(level, players, args.games, args.seed, args.preset, timing)
            print(f"{level:8s} {players // 2}x{players // 2}  games {args.games}  bet decisions {decisions}  "
                  f"dead bets {dead}  ({time.time() - t:.0f} s)", flush=True)
            for ex in examples:
                print("   ", ex)
    if timing:
        timing.sort()
        print(f"check: {len(timing)} calls, p50 {timing[len(timing) // 2] * 1e3:.3f} ms, "
              f"p99 {timing[int(len(timing) * 0.99)] * 1e3:.3f} ms, max {timing[-1] * 1e3:.3f} ms")


if __name__ == "__main__":
    main()

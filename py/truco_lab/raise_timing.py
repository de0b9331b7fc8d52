"""When does a team ask for a raise? Rates by round and by hand of the match (issue 4).

Difícil's random-play posterior (``opponents.TeamStats.random_share``) weighs answers,
card plays, covers and judged bets as evidence, but not a raise itself. This measures
whether a raise could tell a ``random`` team from a careful one: at every turn where
LEVEL may ask (no request pending, ``raise`` legal, RULES.md §5), how often it does,
split by the round of the hand, whether a raise was already made this hand, and whether
it is the match's first hand (before any other evidence) or a later one.

    python -m truco_lab.raise_timing --levels random medio --games 150 --seed 1

LEVEL plays 2 x 2 Mineiro against difícil, seats swapped every other game.
"""

from __future__ import annotations

import argparse
import collections

from truco import bots
from truco.game import new_game

Key = tuple[int, bool, bool]
"""(round index, first raise of the hand, first hand of the match)."""


def raise_counts(level: str, games: int, seed: str, against: str = "dificil",
                 players: int = 4) -> tuple[collections.Counter, collections.Counter]:
    """(turns where ``level`` could ask, turns where it asked), by :data:`Key`."""
    chances: collections.Counter = collections.Counter()
    asked: collections.Counter = collections.Counter()
    for g in range(games):
        pair = [against, level] if g % 2 == 0 else [level, against]
        levels = (pair * players)[:players]
        game = new_game("mineiro", players=players, seed=f"{seed}:{g}")
        while game.to_move is not None:
            seat = game.to_move
            obs = game.observation(seat)
            action = bots.for_move(levels[seat], game.seed, seat, len(game.log)).choose(obs)
            if (levels[seat] == level and "raise" in obs["legal_actions"]
                    and not obs.get("pending")):
                key = (sum(r["result"] is not None for r in obs["rounds"]),
                       obs["raise_level"] == 0,  # nothing pending: any raise was accepted
                       obs["hand_number"] == 1)
                chances[key] += 1
                asked[key] += action == "raise"
            game.apply(action, seat=seat)
    return chances, asked


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", nargs="+", default=["random", "medio"])
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", default="1")
    args = ap.parse_args(argv)
    counts = {lv: raise_counts(lv, args.games, args.seed) for lv in args.levels}
    print("| round | raise | hand | " + " | ".join(args.levels) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in args.levels) + " |")
    for r in range(3):
        for first in (True, False):
            for first_hand in (True, False):
                key = (r, first, first_hand)
                cells = []
                for lv in args.levels:
                    chances, asked = counts[lv]
                    n = chances[key]
                    cells.append(f"{asked[key]}/{n} = {asked[key] / n:.2f}" if n else "—")
                print(f"| {r + 1} | {'first' if first else 'later'} | "
                      f"{'1st' if first_hand else '2nd+'} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Arena: two bot levels play full games against each other, with mirrored deals.

    python -m truco.arena --preset mineiro --players 4 --a dificil --b medio --games 2000 --seed 1

Games come in pairs that share a seed. The deal of hand k depends only on (seed, k)
(``truco.game.deal_for``), and so does the first dealer; in the second game of a pair
every seat moves by one, so each team gets the cards the other team had (seat i's cards
go to the other team). That cancels most of the luck of the deal. Each bot sees only its
own seat's observation and draws from its own seeded ``random.Random``: a run is
reproducible from ``--seed``. Pairs are spread over every core with multiprocessing.

Prints games won, points per hand, the win rate of A with a 95% confidence interval
(normal approximation over the pairs, so the mirroring is accounted for) and games/s.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import random
import sys
import time
from dataclasses import dataclass, field

from . import bots
from .game import new_game


@dataclass
class PairResult:
    """The two mirrored games of one seed, from A's side."""

    wins_a: int = 0
    games: int = 0
    points_a: int = 0
    points_b: int = 0
    hands: int = 0


@dataclass
class ArenaResult:
    preset: str
    players: int
    a: str
    b: str
    games: int = 0
    wins_a: int = 0
    points_a: int = 0
    points_b: int = 0
    hands: int = 0
    seconds: float = 0.0
    pair_scores: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of A's win rate (over pairs)."""
        n = len(self.pair_scores)
        if n < 2:
            return 1.0
        mean = sum(self.pair_scores) / n
        var = sum((x - mean) ** 2 for x in self.pair_scores) / (n - 1)
        return 1.96 * math.sqrt(var / n)

    def summary(self) -> str:
        rate = self.win_rate
        gps = self.games / self.seconds if self.seconds else float("inf")
        ph = self.hands or 1
        return (
            f"{self.preset} {self.players}p  A={self.a} vs B={self.b}: {self.games} games\n"
            f"  games won   A {self.wins_a}  B {self.games - self.wins_a}\n"
            f"  points/hand A {self.points_a / ph:.3f}  B {self.points_b / ph:.3f}"
            f"  ({self.hands} hands)\n"
            f"  win rate A  {100 * rate:.1f}% ± {100 * self.ci95:.1f}% (95% CI)\n"
            f"  speed       {gps:.1f} games/s ({self.seconds:.1f} s)"
        )


def play_game(preset: str, players: int, seat_levels: list[str], seed: int | str,
              bot_seed: str, **options) -> tuple[int, list[dict]]:
    """One match; returns (winning team, log). Each seat gets its own bot and RNG."""
    game = new_game(preset, players=players, seed=seed, **options)
    seat_bots = [bots.make(level, random.Random(f"{bot_seed}:{seat}"))
                 for seat, level in enumerate(seat_levels)]
    steps = 0
    while game.to_move is not None:
        seat = game.to_move
        action = seat_bots[seat].choose(game.observation(seat))
        game.apply(action, seat=seat)
        steps += 1
        if steps > 20000:  # pragma: no cover - a match always ends
            raise RuntimeError("a match that does not end")
    return game.winner, game.log


def play_pair(args: tuple) -> PairResult:
    """Both mirrored games of pair ``index``: A on even seats, then A on odd seats."""
    preset, players, a, b, seed, index, options = args
    out = PairResult()
    game_seed = f"{seed}:{index}"
    for mirror in (0, 1):
        a_team = mirror  # team of A: seats a_team, a_team + 2, ...
        levels = [a if s % 2 == a_team else b for s in range(players)]
        winner, log = play_game(preset, players, levels, game_seed,
                                f"bot:{seed}:{index}:{mirror}", **options)
        out.games += 1
        out.wins_a += winner == a_team
        for e in log:
            if e["type"] == "hand":
                out.hands += 1
                if e["winner"] == a_team:
                    out.points_a += e["points"]
                elif e["winner"] is not None:
                    out.points_b += e["points"]
    return out


def run(preset: str = "mineiro", players: int = 4, a: str = "dificil", b: str = "medio",
        games: int = 2000, seed: int | str = 1, jobs: int | None = None,
        **options) -> ArenaResult:
    """Play ``games`` games (rounded up to whole mirrored pairs) and return the totals."""
    for level in (a, b):
        bots.make(level, random.Random(0))  # fail early on a bad level name
    pairs = max(1, (games + 1) // 2)
    tasks = [(preset, players, a, b, seed, i, options) for i in range(pairs)]
    jobs = jobs or os.cpu_count() or 1
    res = ArenaResult(preset, players, a, b)
    t0 = time.perf_counter()
    if jobs == 1 or pairs < 4:
        results = map(play_pair, tasks)
        _collect(res, results)
    else:
        with mp.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs) as pool:
            _collect(res, pool.imap_unordered(play_pair, tasks, chunksize=max(1, pairs // (jobs * 8))))
    res.seconds = time.perf_counter() - t0
    return res


def _collect(res: ArenaResult, results) -> None:
    for r in results:
        res.games += r.games
        res.wins_a += r.wins_a
        res.points_a += r.points_a
        res.points_b += r.points_b
        res.hands += r.hands
        res.pair_scores.append(r.wins_a / r.games)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m truco.arena", description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="mineiro")
    p.add_argument("--players", type=int, default=4, choices=(2, 4, 6))
    p.add_argument("--a", default="dificil", choices=bots.ALL_LEVELS)
    p.add_argument("--b", default="medio", choices=bots.ALL_LEVELS)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", default="1")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    p.add_argument("--series", type=int, default=1, choices=(1, 3, 5))
    args = p.parse_args(argv)
    res = run(args.preset, args.players, args.a, args.b, args.games, args.seed, args.jobs,
              series=args.series)
    print(res.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

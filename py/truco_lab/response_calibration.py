"""How well difícil predicts the answer to its raises: predicted against counterfactual (issue 27).

Difícil values a raise (its own ask, or a raise back) by what it expects the answering
seat to do: run with its weakest hands and raise back with its best, at quantiles of a
rough hand strength (:func:`truco.bots.perceive.perceived`) over its sampled deals set
by the rates that team has shown (``HeuristicBot._responses``). This checks that model
against the answer itself, at EVERY position where difícil may raise, not only where it
did: the game is copied, the raise applied, and the answering seat's bot (the same
``for_move`` bot the arena would build) asked what it would answer. The prediction is
the weighted mean, over difícil's sampled deals, of its (run, accept, raise back)
chances there.

    python -m truco_lab.response_calibration --b honest --games 80 --seed 1

2 x 2 Mineiro, mirrored pairs (difícil on even seats, then odd). Rows: the step asked
(4 truco, 6 seis, 10 dez, 12 doze), round 1 or later, whether the answering team had
already raised this hand, and whether difícil chose to raise there.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import random

from truco import bots
from truco.bots.knowledge import manilhas_of, read, strength_table
from truco.game import new_game

ANSWERS = ("run", "accept", "raise")

Key = tuple[int, int, bool, bool]
"""(step asked, round index capped at 1, answering team raised this hand, difícil raised)."""


def predicted(obs: dict, answerer: int) -> tuple[float, float, float]:
    """Difícil's (run, accept, raise back) chances for ``answerer`` if it raised now,
    from ``obs`` (its seat's observation), as its betting arithmetic sees them."""
    bot = bots.make("dificil", random.Random(0))
    manilhas = manilhas_of(obs)
    bot.memory.update(obs, strength_table(manilhas), manilhas)
    known = read(obs)
    worlds, weights = bot.sampled_deals(known)
    responses = bot._responses(known, worlds, weights, answerer)
    total = sum(weights) or 1.0
    return tuple(sum(w * r[i] for w, r in zip(weights, responses)) / total for i in range(3))


def _raised_this_hand(log: list[dict], team: int) -> bool:
    for e in reversed(log):
        if e["type"] == "deal":
            return False
        if e["type"] == "raise" and e["seat"] % 2 == team:
            return True
    return False


def pair_records(args: tuple[str, str, int]) -> list[tuple[Key, tuple[float, float, float], str]]:
    """(key, predicted, actual answer) at every position of difícil's where it may raise,
    in both mirrored games of pair ``index``."""
    b, seed, index = args
    out = []
    for mirror in (0, 1):
        levels = ["dificil" if s % 2 == mirror else b for s in range(4)]
        game = new_game("mineiro", players=4, seed=f"{seed}:{index}")
        while game.to_move is not None:
            seat = game.to_move
            obs = game.observation(seat)
            action = bots.for_move(levels[seat], game.seed, seat, len(game.log)).choose(obs)
            if levels[seat] == "dificil" and "raise" in obs["legal_actions"] and obs.get("next_raise"):
                trial = game.copy()
                trial.apply("raise", seat=seat)
                answerer = trial.to_move
                if answerer is not None and levels[answerer] == b:
                    aobs = trial.observation(answerer)
                    answer = bots.for_move(b, trial.seed, answerer, len(trial.log)).choose(aobs).split()[0]
                    key = (obs["next_raise"]["value"], min(read(obs).round_index, 1),
                           _raised_this_hand(obs.get("log") or [], answerer % 2), action == "raise")
                    out.append((key, predicted(obs, answerer), answer))
            game.apply(action, seat=seat)
    return out


def calibration(b: str, games: int, seed: str, jobs: int | None = None):
    """Key -> (count, actual shares, predicted shares), both as (run, accept, raise back)."""
    tasks = [(b, seed, i) for i in range(max(1, games // 2))]
    if jobs == 1:
        chunks = list(map(pair_records, tasks))
    else:
        with mp.get_context("fork").Pool(jobs) as pool:
            chunks = pool.map(pair_records, tasks)
    groups: dict[Key, list] = collections.defaultdict(list)
    for records in chunks:
        for key, pred, answer in records:
            groups[key].append((pred, answer))
    table = {}
    for key, rows in groups.items():
        n = len(rows)
        actual = tuple(sum(a == x for _, a in rows) / n for x in ANSWERS)
        pred = tuple(sum(p[i] for p, _ in rows) / n for i in range(3))
        table[key] = (n, actual, pred)
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--b", default="honest", help="the other team's level")
    ap.add_argument("--games", type=int, default=80)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args(argv)
    table = calibration(args.b, args.games, args.seed, args.jobs)
    print(f"difícil's raises against {args.b}: the answer (run / accept / raise back), "
          f"actual against predicted, {args.games} games")
    print("| step | round | answerer raised | difícil raised | n | actual | predicted |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    fmt = lambda v: " / ".join(f"{x:.2f}" for x in v)  # noqa: E731
    for key in sorted(table):
        step, rnd, raised, chose = key
        n, actual, pred = table[key]
        print(f"| {step} | {'1' if rnd == 0 else '2-3'} | {'yes' if raised else 'no'} | "
              f"{'yes' if chose else 'no'} | {n} | {fmt(actual)} | {fmt(pred)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

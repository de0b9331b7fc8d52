"""Where difícil's strength stops: a ceiling and two counterfactual checks (issue 4).

    python -m truco_lab.bot_checks ceiling --b passive --games 600
    python -m truco_lab.bot_checks raises  --b medio   --games 300
    python -m truco_lab.bot_checks answers --b medio   --games 400

- ``ceiling``: difícil whose sampled deals are the true deal (it sees every hidden card;
  every decision rule unchanged) against a baseline, 2 x 2 Mineiro, mirrored seeds. What
  difícil could win with perfect information: a target above it asks for better decisions,
  not better inference.
- ``raises``: at each truco difícil could ask (hand worth 2, both scores <= 6), the hand is
  played out twice from the same position, once asking truco and once playing the card it
  would play without asking (same bots, two bot seeds each), and the points its team gets
  are compared, by round and by what difícil chose.
- ``answers``: the same for difícil's answer to a truco (accept vs run).

A measuring tool only: for ``ceiling`` difícil's settings get a sampler that sees the true
deal (``LevelSettings.sample_deals``); the bots the game uses are untouched.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing as mp

from truco import bots
from truco.bots import LEVEL_SETTINGS
from truco.bots.knowledge import manilhas_of, strength_table
from truco.bots.simulate import sample_worlds
from truco.game import Game, new_game

_TRUE_DEAL: dict[str, list[list[int]]] = {}


def _seeing_sampler(k, rng, count):
    """The true deal instead of sampled ones, while a seeing move is being chosen."""
    deal = _TRUE_DEAL.get("deal")
    if deal is None:
        return sample_worlds(k, rng, count)
    return [[list(h) for h in deal] for _ in range(8)]


def _positions(b: str, seed: str):
    """Both mirrored games of ``seed``, difícil against ``b``: yields (game, team of
    difícil, levels, seat to move, its observation) before each move; the caller applies
    the move."""
    for mirror in (0, 1):
        levels = ["dificil" if s % 2 == mirror else b for s in range(4)]
        game = new_game("mineiro", players=4, seed=seed)
        while game.to_move is not None:
            seat = game.to_move
            yield game, mirror, levels, seat, game.observation(seat)


def _ceiling_pair(args: tuple[str, int]) -> int:
    b, i = args
    seeing = dataclasses.replace(LEVEL_SETTINGS["dificil"], sample_deals=_seeing_sampler)
    wins = 0
    for game, mirror, levels, seat, obs in _positions(b, f"ceiling:{i}"):
        if seat % 2 == mirror:
            strength = strength_table(manilhas_of(obs))
            _TRUE_DEAL["deal"] = [[strength[c] for c in cards] for cards in game.hand["hands"]]
        level = seeing if levels[seat] == "dificil" else levels[seat]
        bot = bots.for_move(level, game.seed, seat, len(game.log))
        game.apply(bot.choose(obs), seat=seat)
        _TRUE_DEAL.pop("deal", None)
        if game.to_move is None:
            wins += game.winner == mirror
    return wins


def _hand_points(game: Game, first: str, seat: int, levels: list[str], team: int, salt: int) -> int:
    """Points ``team`` gets in the current hand after ``seat`` plays ``first``."""
    start = len(game.log)
    game.apply(first, seat=seat)
    while True:
        ends = [e for e in game.log[start:] if e["type"] == "hand"]
        if ends:
            e = ends[0]
            return 0 if e["winner"] is None else e["points"] if e["winner"] == team else -e["points"]
        s = game.to_move
        bot = bots.for_move(levels[s], f"{game.seed}:{salt}", s, len(game.log))
        game.apply(bot.choose(game.observation(s)), seat=s)


def _counterfactual_pair(args: tuple[str, str, int]) -> list[tuple[bool, int, float, float]]:
    """(difícil's choice was the first option?, round, points with option 1, with option 2)."""
    mode, b, i = args
    rows = []
    for game, mirror, levels, seat, obs in _positions(b, f"{mode}:{i}"):
        action = bots.for_move(levels[seat], game.seed, seat, len(game.log)).choose(obs)
        options = None
        if seat % 2 == mirror and max(obs["score"]) <= 6:
            if mode == "raises" and "raise" in obs["legal_actions"] and obs["hand_value"] == 2:
                quiet = dict(obs, legal_actions=[a for a in obs["legal_actions"] if a != "raise"])
                card = bots.for_move(levels[seat], game.seed, seat, len(game.log)).choose(quiet)
                options = ("raise", card)
            elif mode == "answers" and obs.get("pending") and obs["pending"]["value"] == 4:
                options = ("accept", "run")
        if options:
            pts = []
            for option in options:
                total = sum(_hand_points(Game.from_json(game.to_json()), option, seat, levels, mirror, salt)
                            for salt in range(2))
                pts.append(total / 2)
            rnd = len([e for e in obs["log"] if e["type"] == "round"])
            rows.append((action == options[0], rnd, pts[0], pts[1]))
        game.apply(action, seat=seat)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=("ceiling", "raises", "answers"))
    parser.add_argument("--b", default="passive", help="the other team's level")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args(argv)
    pairs = max(1, args.games // 2)
    with mp.get_context("fork").Pool(args.jobs) as pool:
        if args.check == "ceiling":
            wins = sum(pool.map(_ceiling_pair, [(args.b, i) for i in range(pairs)]))
            rate = wins / (2 * pairs)
            print(f"difícil seeing every card vs {args.b}, 2 x 2 mineiro: {100 * rate:.1f}% "
                  f"of {2 * pairs} games (± {196 * (rate * (1 - rate) / (2 * pairs)) ** 0.5:.1f})")
            return 0
        rows = [r for rs in pool.map(_counterfactual_pair, [(args.check, args.b, i) for i in range(pairs)])
                for r in rs]
    first, second = ("ask truco", "play on") if args.check == "raises" else ("accept", "run")
    print(f"difícil vs {args.b}, {2 * pairs} games: points of difícil's team in the hand, by option")
    for chose_first in (True, False):
        for rnd in (0, 1, 2):
            sel = [r for r in rows if r[0] == chose_first and r[1] == rnd]
            if sel:
                a = sum(r[2] for r in sel) / len(sel)
                b = sum(r[3] for r in sel) / len(sel)
                print(f"  chose {first if chose_first else second:9s} round {rnd + 1}: n={len(sel):5d}  "
                      f"{first} {a:+.2f}  {second} {b:+.2f}  ({first} - {second} {a - b:+.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

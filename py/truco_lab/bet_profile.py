"""How difícil bets against a stick (issue 44): its games won, and where and how often it raises.

    .venv/bin/python -m truco_lab.bet_profile --players 4 --opps honest,team,sharp \\
        --games 2000 --seed 1 --jobs 2

Mirrored games (the arena's pairs and seeds: the same deals as ``truco_lab.arena``), difícil
(the shipped bot, recording) against each stick. Per stick it prints:

- games won by difícil with the arena's 95% interval (over pairs);
- the share of normal hands in which difícil's team asked for a raise on its turn (a truco,
  or a seis or more after being raised to), and trucos asked per game;
- per round of the hand and per score band (the higher of the two scores: 0-3, 4-7, 8-11),
  the share of difícil's turns with a raise open where it asked (``ask``), and the share of
  those raises that were bluffs (``bluff``: made with its own win chance of the hand under
  0.5, the chance its sampled deals give, reweighted by what it read of the table);
- its answers to a truco and to a higher step: run / accept / raise back shares, and the
  share of the hands it answered that it went on to win when it accepted.

A decision is recorded where difícil makes it (the chance it decided on), the action after
the no-dead-bet filter (what it played). Nothing is changed in its choices: the recording
bot computes the win chance only from sampled deals already drawn (no draw of its RNG).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing as mp
import time
from collections import defaultdict

from truco import bots
from truco.bots import player as P
from truco_lab import arena

NAME = "dificil_profile"
BANDS = ((0, 3), (4, 7), (8, 11))


def band_of(us: int, them: int) -> str:
    top = max(us, them)
    for lo, hi in BANDS:
        if lo <= top <= hi:
            return f"{lo}-{hi}"
    return f"{BANDS[-1][0]}-{BANDS[-1][1]}"


class ProfileBot(P.HeuristicBot):
    """The shipped difícil, noting the win chance of each ask / answer it weighs."""

    _ask_p: float | None = None
    _answer_p: float | None = None

    def choose(self, obs: dict) -> str:
        self._ask_p = self._answer_p = None
        action = super().choose(obs)
        rec = None
        if obs.get("pending") and self._answer_p is not None:
            rec = ("answer", obs["pending"]["value"], self._answer_p, action)
        elif self._ask_p is not None and not obs.get("decision"):
            rec = ("ask", (obs.get("next_raise") or {}).get("value"), self._ask_p,
                   "raise" if action == "raise" else "play")
        if rec is not None:
            known_round = sum(1 for r in obs["rounds"] if r["result"] is not None)
            team = obs["seat"] % 2
            score = obs["score"]
            ProfileBot.records.append((*rec, known_round, band_of(score[team], score[1 - team]),
                                       obs["hand_number"], obs.get("game_number", 1)))
        return action

    def _raise_by_value(self, known, worlds, weights, outcomes) -> bool:
        self._ask_p = self.win_chance(known, outcomes, weights)
        return super()._raise_by_value(known, worlds, weights, outcomes)

    def _answer_by_value(self, known, pending, legal, worlds, weights, outcomes) -> str:
        self._answer_p = self.win_chance(known, outcomes, weights)
        return super()._answer_by_value(known, pending, legal, worlds, weights, outcomes)


ProfileBot.records = []


BASE: P.LevelSettings | None = None
"""The difícil to profile instead of the shipped one (a variant a bench builds; set before
:func:`profile`, in this process: ``jobs=1`` or before the workers fork)."""


def settings() -> P.LevelSettings:
    return dataclasses.replace(BASE or P.LEVEL_SETTINGS["dificil"], name=NAME)


_inner_make = bots.make


def _make(level, rng=None):
    if isinstance(level, P.LevelSettings) and level.name == NAME:
        return ProfileBot(level, rng)
    return _inner_make(level, rng)


def _pair(args):
    players, stick, seed, index, signals = args
    bots.make = _make
    s = settings()
    out = []
    for mirror in (0, 1):
        levels = [s if i % 2 == mirror else stick for i in range(players)]
        ProfileBot.records = []
        winner, log = arena.play_game("mineiro", players, levels, f"{seed}:{index}",
                                      signal_teams=(0, 1) if signals else ())
        hands = [e for e in log if e["type"] == "deal"]
        normal = sum(1 for e in hands if e.get("kind", "normal") == "normal")
        out.append({"won": winner == mirror, "records": ProfileBot.records, "normal": normal,
                    "hands": [e for e in log if e["type"] == "hand"], "log_raises": sum(
                        1 for e in log if e["type"] == "raise" and e["seat"] % 2 == mirror),
                    "key": (index, mirror)})
    return out


def profile(players: int, stick: str, games: int, seed: str, jobs: int = 2, signals: bool = False) -> dict:
    """``signals``: sinais on, both teams' bots signalling by the table's policy (2 x 2)."""
    pairs = max(1, games // 2)
    tasks = [(players, stick, seed, i, signals) for i in range(pairs)]
    if jobs <= 1:
        return summarise([_pair(t) for t in tasks])
    with mp.get_context("fork").Pool(jobs) as pool:
        results = pool.map(_pair, tasks, chunksize=max(1, pairs // (jobs * 8)))
    return summarise(results)


def summarise(results: list[list[dict]]) -> dict:
    pair_scores = [sum(g["won"] for g in pair) / len(pair) for pair in results]
    games = [g for pair in results for g in pair]
    n = len(pair_scores)
    mean = sum(pair_scores) / n
    var = sum((x - mean) ** 2 for x in pair_scores) / max(1, n - 1)
    out = {"games": len(games), "won": sum(g["won"] for g in games), "rate": mean,
           "ci": 1.96 * math.sqrt(var / n)}
    normal = sum(g["normal"] for g in games)
    raised_hands = set()
    trucos = 0
    cells = defaultdict(lambda: [0, 0, 0])  # turns with a raise open, raises, bluffs
    answers = defaultdict(lambda: defaultdict(int))
    for g in games:
        for kind, step, p, action, rnd, band, hand, game_no in g["records"]:
            if kind == "ask":
                for cell in (("round", rnd + 1), ("band", band), ("all", "")):
                    c = cells[cell]
                    c[0] += 1
                    if action == "raise":
                        c[1] += 1
                        c[2] += p < 0.5
                if action == "raise":
                    raised_hands.add((g["key"], game_no, hand))
                    trucos += step == 4
            else:
                answers["truco" if step == 4 else "seis+"][action] += 1
    out.update(normal=normal, raised_hands=len(raised_hands), trucos=trucos, cells=dict(cells),
               answers={k: dict(v) for k, v in answers.items()})
    return out


def report(stick: str, r: dict) -> str:
    lines = [f"{stick}: difícil {r['won']}/{r['games']} = {100 * r['rate']:.2f}% ± {100 * r['ci']:.2f}; "
             f"raised in {r['raised_hands']}/{r['normal']} normal hands = "
             f"{100 * r['raised_hands'] / max(1, r['normal']):.1f}%; {r['trucos'] / r['games']:.2f} trucos a game"]
    for key in sorted(r["cells"], key=str):
        turns, raises, bluffs = r["cells"][key]
        lines.append(f"   {key[0]} {key[1]!s:5s}: asks {raises}/{turns} = {100 * raises / max(1, turns):.1f}% "
                     f"of turns, bluffs {bluffs}/{raises} = {100 * bluffs / max(1, raises):.1f}% of raises")
    for step, acts in sorted(r["answers"].items()):
        tot = sum(acts.values())
        lines.append(f"   answers to {step}: " + ", ".join(
            f"{a} {100 * acts.get(a, 0) / tot:.1f}%" for a in ("run", "accept", "raise")) + f" (of {tot})")
    return "\n".join(lines)


def reviews(players: int, stick: str, seed: str, games: int = 1) -> list[str]:
    """Difícil's raises and answers in ``games`` games against ``stick``, one line each, as
    a person reviewing the hand sees them: the score, its hand, the cards on the table, the
    bet, the chance it decided on and the reason the hand review gives
    (:func:`truco.bots.explain.reason_for`, in Portuguese)."""
    import random

    from truco.bots.explain import reason_for
    from truco.game import new_game
    from truco.hint_text import render

    s = settings()
    lines = []
    for i in range(games):
        game_seed = f"review:{seed}:{i}"
        game = new_game("mineiro", players=players, seed=game_seed)
        while game.to_move is not None:
            seat = game.to_move
            obs = game.observation(seat)
            if seat % 2 == 0:
                bot = ProfileBot(s, random.Random(f"bot:{game_seed}:{seat}:{len(game.log)}"))
                ProfileBot.records = []
                action = bot.choose(obs)
                bet = action in ("raise", "accept", "run") and not obs.get("decision")
                if bet and ProfileBot.records:
                    kind, step, p, _, rnd, band, hand, _ = ProfileBot.records[-1]
                    what = (f"asks {obs['next_raise']['name']}" if kind == "ask" else
                            f"{action} to {obs['pending']['value']}")
                    table = [x["card"] or "covered" for r in obs["rounds"] for x in r["plays"]]
                    why = render(reason_for(obs, action), obs["manilhas"], obs["rules"]["manilha_names"])
                    lines.append(f"game {i} hand {hand} {obs['score'][0]}x{obs['score'][1]} round {rnd + 1}: "
                                 f"hand {' '.join(obs['hand'])}, table {' '.join(table) or '-'}: "
                                 f"{what} at p {p:.2f}{' (bluff)' if p < 0.5 and action == 'raise' else ''}"
                                 f" -- \"{why}\"")
            else:
                action = bots.for_move(stick, game_seed, seat, len(game.log)).choose(obs)
            game.apply(action, seat=seat)
    return lines


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4, choices=(2, 4))
    p.add_argument("--opps", default="honest")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", default="1")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--reviews", type=int, default=0, help="print difícil's bets of this many games with their reasons instead")
    a = p.parse_args(argv)
    if a.reviews:
        for stick in a.opps.split(","):
            print(f"== against {stick}")
            print("\n".join(reviews(a.players, stick, a.seed, a.reviews)))
        return
    for stick in a.opps.split(","):
        t = time.time()
        r = profile(a.players, stick, a.games, a.seed, a.jobs)
        print(report(stick, r) + f"\n   ({time.time() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()

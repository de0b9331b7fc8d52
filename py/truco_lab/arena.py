"""Arena: two bot levels play full games against each other, with mirrored deals.

    python -m truco_lab.arena --preset mineiro --players 4 --a dificil --b medio --games 2000 --seed 1

Games come in pairs that share a seed. The deal of hand k depends only on (seed, k)
(``truco.game.deal_for``), and so does the first dealer; in the second game of a pair
every seat moves by one, so each team gets the cards the other team had (seat i's cards
go to the other team). That cancels most of the luck of the deal. Each bot sees only its
own seat's observation and is built afresh for every move, seeded by the position, the way
the web app builds it (``truco.bots.for_move``): a run is reproducible from ``--seed``.
Pairs are spread over every core with multiprocessing.

Prints games won, points per hand, the win rate of A with a 95% confidence interval
(normal approximation over the pairs, so the mirroring is accounted for) and games/s.

Sinais (2 x 2, 3 x 3): ``--signals a|b|both|none`` says which side's bots send their
partners the honest signal of their hand when their policy says so
(``truco.signals.signal_to_send``, the table's bots' policy: a manilha at once, a three or
'nada' only when the partner must answer a raise); ``--catching off`` hides every caught
signal from the opponents (the engine still draws the catch, so the deals and draws match
a run with ``--catching on``); ``--signal-policy always`` makes the signalling side signal
every hand at once instead (the bots' behaviour before the policy).
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

from truco import bots
from truco.game import new_game
from truco.signals import signal_for, signal_to_send
from truco_lab import lab_sticks

lab_sticks.install()  # the lab's sticks (team, sharp; held out: learner, maniac) by name

SIGNAL_SIDES = ("none", "a", "b", "both")
SIGNAL_POLICIES = ("table", "always")
"""``table``: the table's bots' policy (:func:`signal_to_send`); ``always``: every hand, at
once, whatever the hand (what the bots did before the policy, kept to measure it)."""


@dataclass
class PairResult:
    """The two mirrored games of one seed, from A's side."""

    wins_a: int = 0
    games: int = 0
    points_a: int = 0
    points_b: int = 0
    hands: int = 0
    index: int = 0


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
    by_pair: dict[int, float] = field(default_factory=dict)
    """Pair index -> A's share of that pair's two games (to compare runs on the same seeds)."""
    signals: str = "none"
    catching: bool = True
    signal_policy: str = "table"

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
        sig = ("" if self.signals == "none" and self.catching else
               f"  signals={self.signals} catching={'on' if self.catching else 'off'}"
               + ("" if self.signal_policy == "table" else f" policy={self.signal_policy}"))
        return (
            f"{self.preset} {self.players}p  A={self.a} vs B={self.b}: {self.games} games{sig}\n"
            f"  games won   A {self.wins_a}  B {self.games - self.wins_a}\n"
            f"  points/hand A {self.points_a / ph:.3f}  B {self.points_b / ph:.3f}"
            f"  ({self.hands} hands)\n"
            f"  win rate A  {100 * rate:.1f}% ± {100 * self.ci95:.1f}% (95% CI)\n"
            f"  speed       {gps:.1f} games/s ({self.seconds:.1f} s)"
        )


def play_game(preset: str, players: int, seat_levels: list, seed: int | str,
              signal_teams: tuple[int, ...] = (), catching: bool = True,
              signal_policy: str = "table", **options) -> tuple[int, list[dict]]:
    """One match; returns (winning team, log).

    Every move is made by a new bot built from the game's seed, the seat and the log's
    length (:func:`truco.bots.for_move`), exactly as the web app does, so what the arena
    measures is what a person plays against: a bot knows the earlier hands only through
    its observation. A seat's level is a name or a :class:`truco.bots.LevelSettings`.
    The seats of ``signal_teams`` signal their hand by the table's
    policy (before their first card of each hand, when :func:`signal_to_send` says so);
    without ``catching``, a bot never sees an opponent's signal."""
    if signal_teams or not catching:
        options["sinais"] = True
    game = new_game(preset, players=players, seed=seed, **options)
    signallers = [s for s in range(players) if s % 2 in signal_teams]
    steps = 0
    while game.to_move is not None:
        for s in signallers:
            if game.may_signal(s):
                obs = game.observation(s)
                name = signal_to_send(obs) if signal_policy == "table" else signal_for(obs)
                if name:
                    game.apply("signal " + name, seat=s)
        seat = game.to_move
        obs = lab_sticks.observe(game, seat, seat_levels[seat])
        if not catching:
            obs = _without_caught_signals(obs)
        bot = bots.for_move(seat_levels[seat], game.seed, seat, len(game.log))
        game.apply(bot.choose(obs), seat=seat)
        steps += 1
        if steps > 20000:  # pragma: no cover - a match always ends
            raise RuntimeError("a match that does not end")
    return game.winner, game.log


def _without_caught_signals(obs: dict) -> dict:
    """The observation as if the seat had caught no opponent's signal."""
    team = obs["seat"] % 2
    return dict(obs, signals=[x for x in obs["signals"] if x["seat"] % 2 == team],
                log=[e for e in obs["log"] if e["type"] != "signal" or e["seat"] % 2 == team])


def play_pair(args: tuple) -> PairResult:
    """Both mirrored games of pair ``index``: A on even seats, then A on odd seats."""
    preset, players, a, b, seed, index, options = args
    options = dict(options)
    signals = options.pop("signals", "none")
    catching = options.pop("catching", True)
    policy = options.pop("signal_policy", "table")
    out = PairResult(index=index)
    game_seed = f"{seed}:{index}"
    for mirror in (0, 1):
        a_team = mirror  # team of A: seats a_team, a_team + 2, ...
        levels = [a if s % 2 == a_team else b for s in range(players)]
        if signals != "none" or not catching:
            options["signal_teams"] = tuple(
                t for t, side in ((a_team, "a"), (1 - a_team, "b")) if signals in (side, "both"))
            options["catching"] = catching
            options["signal_policy"] = policy
        winner, log = play_game(preset, players, levels, game_seed, **options)
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
        settings: dict | None = None, **options) -> ArenaResult:
    """Play ``games`` games (rounded up to whole mirrored pairs) and return the totals.

    ``settings``: level name -> the :class:`truco.bots.LevelSettings` its bots are built
    with instead of the shipped ones (a knob turned, as bench/arena_knobs.py does)."""
    settings = settings or {}
    for level in (a, b):
        bots.make(settings.get(level, level), random.Random(0))  # fail early on a bad level name
    for name, level_settings in settings.items():
        if not isinstance(level_settings, bots.LevelSettings):
            raise ValueError(f"settings[{name!r}] must be a LevelSettings")
    if options.get("signals", "none") not in SIGNAL_SIDES:
        raise ValueError(f"signals must be one of {', '.join(SIGNAL_SIDES)}, not {options['signals']!r}")
    if options.get("signal_policy", "table") not in SIGNAL_POLICIES:
        raise ValueError(f"signal_policy must be one of {', '.join(SIGNAL_POLICIES)}")
    if (options.get("signals", "none") != "none" or not options.get("catching", True)) and players == 2:
        raise ValueError("signals need partners: play 2 x 2 or 3 x 3")
    pairs = max(1, (games + 1) // 2)
    tasks = [(preset, players, settings.get(a, a), settings.get(b, b), seed, i, options) for i in range(pairs)]
    jobs = jobs or os.cpu_count() or 1
    res = ArenaResult(preset, players, a, b, signals=options.get("signals", "none"),
                      signal_policy=options.get("signal_policy", "table"),
                      catching=options.get("catching", True))
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
        res.by_pair[r.index] = r.wins_a / r.games


LEVEL_CHOICES = tuple(bots.ALL_LEVELS) + tuple(lab_sticks.LAB_STICKS)


def main(argv: list[str] | None = None, settings: dict | None = None) -> int:
    """The command line; ``settings`` as in :func:`run` (for a tool that turns a knob)."""
    p = argparse.ArgumentParser(prog="python -m truco_lab.arena", description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="mineiro")
    p.add_argument("--players", type=int, default=4, choices=(2, 4, 6))
    p.add_argument("--a", default="dificil", choices=LEVEL_CHOICES)
    p.add_argument("--b", default="medio", choices=LEVEL_CHOICES)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", default="1")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    p.add_argument("--series", type=int, default=1, choices=(1, 3, 5))
    p.add_argument("--signals", default="none", choices=SIGNAL_SIDES,
                   help="which side's bots signal their hand to their partners (2 x 2, 3 x 3)")
    p.add_argument("--catching", default="on", choices=("on", "off"),
                   help="off: no bot ever sees an opponent's signal")
    p.add_argument("--signal-policy", default="table", choices=SIGNAL_POLICIES,
                   help="table: the table's bots' policy; always: every hand's signal at once")
    args = p.parse_args(argv)
    extra = {}
    if args.signals != "none" or args.catching == "off":
        extra = {"signals": args.signals, "catching": args.catching == "on",
                 "signal_policy": args.signal_policy}
    try:
        res = run(args.preset, args.players, args.a, args.b, args.games, args.seed, args.jobs,
                  settings=settings, series=args.series, **extra)
    except ValueError as exc:
        p.error(str(exc))
    print(res.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

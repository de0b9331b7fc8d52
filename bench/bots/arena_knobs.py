"""The arena with a bot knob turned, to measure what it is worth (issue 4).

    python bench/bots/arena_knobs.py --random-prior 0.6 -- --players 4 --a dificil --b random --games 2000 --seed 1
    python bench/bots/arena_knobs.py --random-prior 0.6 --channels floor -- --a dificil --b medio --seed 2
    python bench/bots/arena_knobs.py --medio raise_at=0.6 accept_at=0.58 -- --a dificil --b medio

Everything after ``--`` goes to ``python -m truco.arena``. The knobs are set in this process
before the arena forks its workers, so every move of the run sees them; nothing in
``py/truco`` changes.

- ``--random-prior P``: difícil's prior that a team acts at random
  (``opponents.RANDOM_PRIOR``, shipped 0.3), in the ``--channels`` it reaches:
  ``floor`` (how much another team's raises and accepts say about its cards, ``_infer``),
  ``edge`` (the game-value table's expected share of future hands, ``_gv``) and
  ``rollouts`` (the careless card play simulated for that team, ``_worlds``); by default
  all three. Elsewhere the shipped prior stays.
- ``--first-hand-prior P``: the prior is ``P`` while a team has been seen in its first
  normal hand only, the shipped one from the second hand on.
- ``--late-cards C``: every card a team plays from the 2nd round of a normal hand, covered
  or face up, is evidence of random play (a careful team covers a share ``C`` of them,
  a random one half), instead of its covers alone.
- ``--medio FIELD=VALUE ...``: médio's :class:`truco.bots.player.Style` with those fields
  replaced (e.g. ``raise_at=0.6``, ``worlds=6``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import sys

from truco import arena
from truco.bots import opponents, player

CHANNELS = {"floor": "_infer", "edge": "_gv", "rollouts": "_worlds"}
"""Where difícil uses the random-play posterior: the HeuristicBot method that reads it."""


def _with_prior(method, prior: float):
    """``method`` run with ``opponents.RANDOM_PRIOR`` set to ``prior`` (restored after), so
    nested channels each see their own prior."""
    @functools.wraps(method)
    def wrapped(*args, **kwargs):
        saved = opponents.RANDOM_PRIOR
        opponents.RANDOM_PRIOR = prior
        try:
            return method(*args, **kwargs)
        finally:
            opponents.RANDOM_PRIOR = saved
    return wrapped


def set_random_prior(prior: float, channels: list[str]) -> None:
    """Difícil's random-play prior is ``prior`` in ``channels``, the shipped one elsewhere."""
    shipped = opponents.RANDOM_PRIOR
    for name, method in CHANNELS.items():
        value = prior if name in channels else shipped
        setattr(player.HeuristicBot, method, _with_prior(getattr(player.HeuristicBot, method), value))


def set_first_hand_prior(prior: float) -> None:
    """The random-play prior is ``prior`` during the match's first normal hand only."""
    shipped = opponents.TeamStats.random_share
    first_hand = _with_prior(shipped, prior)

    def random_share(stats: opponents.TeamStats) -> float:
        return shipped(stats) if stats.hands > 1 else first_hand(stats)

    opponents.TeamStats.random_share = random_share


def set_late_card_evidence(careful: float) -> None:
    """The random-play posterior weighs each late card, covered or face up, against a
    careful team covering a share ``careful`` of them (random play covers half), in place
    of the shipped count of covers alone."""
    shipped = opponents.TeamStats.random_share
    cover_lr = opponents._LOG_LR["cover"]
    covered, face_up = math.log(0.5 / careful), math.log(0.5 / (1.0 - careful))

    def random_share(stats: opponents.TeamStats) -> float:
        p = min(max(shipped(stats), 1e-13), 1.0 - 1e-13)
        log_odds = (math.log(p / (1.0 - p)) - stats.covers * cover_lr
                    + stats.covers * covered + (stats.late_cards - stats.covers) * face_up)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, log_odds))))

    opponents.TeamStats.random_share = random_share


def _parse_field(style: player.Style, item: str) -> tuple[str, object]:
    name, sep, raw = item.partition("=")
    fields = [f.name for f in dataclasses.fields(player.Style)]
    if not sep or name not in fields or name == "name":
        raise ValueError(f"--medio wants FIELD=VALUE with FIELD one of "
                         f"{', '.join(f for f in fields if f != 'name')}, not {item!r}")
    current = getattr(style, name)
    if isinstance(current, bool):
        flag = raw.lower()
        if flag not in ("0", "1", "true", "false"):
            raise ValueError(f"{name} is a flag: 0/1 or true/false, not {raw!r}")
        return name, flag in ("1", "true")
    return name, type(current)(raw)


def set_medio(items: list[str]) -> player.Style:
    """Médio's Style with ``FIELD=VALUE`` items replaced; returns the new style."""
    style = player.STYLES["medio"]
    style = dataclasses.replace(style, **dict(_parse_field(style, i) for i in items))
    player.STYLES["medio"] = style
    return style


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    rest: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, rest = argv[:cut], argv[cut + 1:]
    p = argparse.ArgumentParser(prog="python bench/bots/arena_knobs.py",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--random-prior", type=float, default=None)
    p.add_argument("--channels", nargs="+", choices=sorted(CHANNELS), default=sorted(CHANNELS))
    p.add_argument("--first-hand-prior", type=float, default=None, metavar="P")
    p.add_argument("--late-cards", type=float, default=None, metavar="C")
    p.add_argument("--medio", nargs="+", default=[], metavar="FIELD=VALUE")
    args = p.parse_args(argv)
    if args.random_prior is not None:
        if not 0.0 < args.random_prior < 1.0:
            p.error(f"--random-prior must lie strictly between 0 and 1, not {args.random_prior}")
        set_random_prior(args.random_prior, args.channels)
        print(f"difícil's random prior {args.random_prior} in {', '.join(args.channels)}")
    if args.first_hand_prior is not None:
        if not 0.0 < args.first_hand_prior < 1.0:
            p.error(f"--first-hand-prior must lie strictly between 0 and 1, not {args.first_hand_prior}")
        set_first_hand_prior(args.first_hand_prior)
        print(f"difícil's random prior {args.first_hand_prior} in the first hand")
    if args.late_cards is not None:
        if not 0.0 < args.late_cards < 0.5:
            p.error(f"--late-cards must lie strictly between 0 and 0.5, not {args.late_cards}")
        set_late_card_evidence(args.late_cards)
        print(f"late cards weighed as evidence, a careful team covering {args.late_cards}")
    if args.medio:
        try:
            print(f"médio: {set_medio(args.medio)}")
        except ValueError as exc:
            p.error(str(exc))
    return arena.main(rest)


if __name__ == "__main__":
    sys.exit(main())

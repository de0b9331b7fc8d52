"""The arena with a bot knob turned, to measure what it is worth (issue 4).

    python -m truco_lab.arena_knobs --random-prior 0.6 -- --players 4 --a dificil --b random --games 2000 --seed 1
    python -m truco_lab.arena_knobs --random-prior 0.6 --channels floor -- --a dificil --b medio --seed 2
    python -m truco_lab.arena_knobs --medio raise_at=0.6 accept_at=0.58 -- --a dificil --b medio

Everything after ``--`` goes to ``python -m truco_lab.arena``. Each knob is a field of a
level's :class:`truco.bots.LevelSettings`: the run builds difícil's (or médio's) bots
with the settings changed and hands them to the arena (``truco_lab.arena.main(settings=...)``);
nothing is patched.

- ``--random-prior P``: difícil's prior that a team acts at random
  (``opponents.RANDOM_PRIOR``, shipped 0.3), in the ``--channels`` it reaches:
  ``floor`` (how much another team's raises and accepts say about its cards),
  ``edge`` (the game-value table's expected share of future hands) and
  ``rollouts`` (the careless card play simulated for that team): the settings'
  ``random_prior_<channel>``; by default all three. Elsewhere the shipped prior stays.
- ``--first-hand-prior P``: the prior is ``P`` while a team has been seen in its first
  normal hand only, the shipped one from the second hand on (``first_hand_random_prior``).
- ``--late-cards C``: every card a team plays from the 2nd round of a normal hand, covered
  or face up, is evidence of random play (a careful team covers a share ``C`` of them,
  a random one half), instead of its covers alone (``late_card_careful``).
- ``--medio FIELD=VALUE ...``: médio's :class:`truco.bots.LevelSettings` with those fields
  replaced (e.g. ``raise_at=0.6``, ``worlds=6``).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from truco_lab import arena
from truco.bots import LEVEL_SETTINGS, LevelSettings

CHANNELS = {"floor": "random_prior_floor", "edge": "random_prior_edge", "rollouts": "random_prior_rollouts"}
"""Where difícil uses the random-play posterior: the LevelSettings field of its prior."""


def set_random_prior(prior: float, channels: list[str],
                     settings: LevelSettings = LEVEL_SETTINGS["dificil"]) -> LevelSettings:
    """Difícil's settings with the random-play prior ``prior`` in ``channels``, the
    shipped one elsewhere."""
    return dataclasses.replace(settings, **{CHANNELS[name]: prior for name in channels})


def set_first_hand_prior(prior: float, settings: LevelSettings = LEVEL_SETTINGS["dificil"]) -> LevelSettings:
    """The random-play prior is ``prior`` during the match's first normal hand only."""
    return dataclasses.replace(settings, first_hand_random_prior=prior)


def set_late_card_evidence(careful: float, settings: LevelSettings = LEVEL_SETTINGS["dificil"]) -> LevelSettings:
    """The random-play posterior weighs each late card, covered or face up, against a
    careful team covering a share ``careful`` of them (random play covers half), in place
    of the shipped count of covers alone."""
    return dataclasses.replace(settings, late_card_careful=careful)


def _parse_field(style: LevelSettings, item: str) -> tuple[str, object]:
    name, sep, raw = item.partition("=")
    fields = [f.name for f in dataclasses.fields(LevelSettings)
              if isinstance(getattr(style, f.name), (bool, int, float, str))]
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


def set_medio(items: list[str]) -> LevelSettings:
    """Médio's settings with ``FIELD=VALUE`` items replaced."""
    style = LEVEL_SETTINGS["medio"]
    return dataclasses.replace(style, **dict(_parse_field(style, i) for i in items))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    rest: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, rest = argv[:cut], argv[cut + 1:]
    p = argparse.ArgumentParser(prog="python -m truco_lab.arena_knobs",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--random-prior", type=float, default=None)
    p.add_argument("--channels", nargs="+", choices=sorted(CHANNELS), default=sorted(CHANNELS))
    p.add_argument("--first-hand-prior", type=float, default=None, metavar="P")
    p.add_argument("--late-cards", type=float, default=None, metavar="C")
    p.add_argument("--medio", nargs="+", default=[], metavar="FIELD=VALUE")
    args = p.parse_args(argv)
    dificil = LEVEL_SETTINGS["dificil"]
    settings = {}
    if args.random_prior is not None:
        if not 0.0 < args.random_prior < 1.0:
            p.error(f"--random-prior must lie strictly between 0 and 1, not {args.random_prior}")
        dificil = settings["dificil"] = set_random_prior(args.random_prior, args.channels, dificil)
        print(f"difícil's random prior {args.random_prior} in {', '.join(args.channels)}")
    if args.first_hand_prior is not None:
        if not 0.0 < args.first_hand_prior < 1.0:
            p.error(f"--first-hand-prior must lie strictly between 0 and 1, not {args.first_hand_prior}")
        dificil = settings["dificil"] = set_first_hand_prior(args.first_hand_prior, dificil)
        print(f"difícil's random prior {args.first_hand_prior} in the first hand")
    if args.late_cards is not None:
        if not 0.0 < args.late_cards < 0.5:
            p.error(f"--late-cards must lie strictly between 0 and 0.5, not {args.late_cards}")
        dificil = settings["dificil"] = set_late_card_evidence(args.late_cards, dificil)
        print(f"late cards weighed as evidence, a careful team covering {args.late_cards}")
    if args.medio:
        try:
            settings["medio"] = set_medio(args.medio)
            print(f"médio: {settings['medio']}")
        except ValueError as exc:
            p.error(str(exc))
    return arena.main(rest, settings=settings)


if __name__ == "__main__":
    sys.exit(main())

"""Bots: ``make(level, rng)`` returns an object whose ``choose(observation)`` is an action.

A bot sees nothing but the observation of its own seat (``Game.observation(seat)``) and
draws every random choice from the ``random.Random`` it was given, so a game replays
exactly from its seeds.

>>> import random, truco
>>> g = truco.new_game(seed=5, players=2)
>>> bot = make("dificil", random.Random(1))
>>> bot.choose(g.observation(g.to_move)) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from ..names import ALL_LEVELS, BASELINES, LEVELS
from .baselines import AlwaysAcceptBot, AlwaysRunBot, PassiveBot, RandomBot
from .player import LEVEL_SETTINGS, HeuristicBot, LevelSettings
from .sticks import CallerBot, HonestBot


class Bot(Protocol):
    level: str

    def choose(self, observation: dict) -> str: ...


_BASELINE_CLASSES: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "passive": PassiveBot,
    "always-accept": AlwaysAcceptBot,
    "always-run": AlwaysRunBot,
    "honest": HonestBot,
    "caller": CallerBot,
}


def make(level: str | LevelSettings, rng: random.Random | None = None) -> Bot:
    """A new bot of ``level`` (one of :data:`ALL_LEVELS`, or the :class:`LevelSettings`
    of a level a measuring tool built) drawing from ``rng``."""
    if rng is None:
        rng = random.Random()
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
    if isinstance(level, LevelSettings):
        return HeuristicBot(level, rng)
    if level in LEVEL_SETTINGS:
        return HeuristicBot(LEVEL_SETTINGS[level], rng)
    if level in _BASELINE_CLASSES:
        return _BASELINE_CLASSES[level](rng)
    raise ValueError(f"unknown bot level {level!r}: one of {', '.join(ALL_LEVELS)}")


def for_move(level: str | LevelSettings, game_seed, seat: int, moves: int) -> Bot:
    """The bot that makes one move: a new ``level`` bot seeded by the game's seed, the
    seat and the length of the match's log. The web app (``truco.api``) and the arena
    both build their bots this way, so a reloaded game replays identically and the arena
    measures exactly the bot a person plays; everything a bot knows of earlier hands it
    reads from the observation (its ``history`` and ``log``)."""
    return make(level, random.Random(f"bot:{game_seed}:{seat}:{moves}"))


__all__ = ["make", "for_move", "LEVELS", "BASELINES", "ALL_LEVELS", "Bot", "HeuristicBot", "LevelSettings",
           "LEVEL_SETTINGS"]

"""Measuring sticks for the arena: players with no judgement at all.

- ``random``: uniform over the legal actions.
- ``passive``: a random card face up, never raises, accepts a raise or a mão de dez with
  probability 1/2 (the baseline the best-known open-source truco bots were measured with).
- ``always-accept``: a random card face up, never asks first, and answers every request by
  raising back (accepting at the top of the ladder); always plays a mão de dez.
- ``always-run``: a random card face up, never raises, runs from every request and from
  every mão de dez.

The sticks that bet on their cards, ``honest`` and ``caller``, are in :mod:`.sticks`.
"""

from __future__ import annotations

import random


def _random_play(obs: dict, rng: random.Random) -> str:
    plays = [a for a in obs["legal_actions"] if a.startswith("play ")]
    return rng.choice(plays)


class RandomBot:
    """Uniform over the legal actions."""

    level = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: dict) -> str:
        return self.rng.choice(obs["legal_actions"])


class _RandomCardBot:
    """A random card face up, and one fixed way to answer a request (a raise or a mão de
    dez): :meth:`answer`, ``None`` when it leaves the choice to the card."""

    level = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def answer(self, legal: list[str]) -> str | None:
        raise NotImplementedError

    def choose(self, obs: dict) -> str:
        return self.answer(obs["legal_actions"]) or _random_play(obs, self.rng)


class PassiveBot(_RandomCardBot):
    """Random card face up; never raises; accepts a request with probability 1/2."""

    level = "passive"

    def answer(self, legal: list[str]) -> str | None:
        if "accept" in legal:
            return "accept" if self.rng.random() < 0.5 else "run"
        return None


class AlwaysAcceptBot(_RandomCardBot):
    """Random card face up; never asks first; raises back every request it can."""

    level = "always-accept"

    def answer(self, legal: list[str]) -> str | None:
        if "accept" in legal:
            return "raise" if "raise" in legal else "accept"
        return None


class AlwaysRunBot(_RandomCardBot):
    """Random card face up; never raises; runs from every request and mão de dez."""

    level = "always-run"

    def answer(self, legal: list[str]) -> str | None:
        return "run" if "run" in legal else None

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


class PassiveBot:
    """Random card face up; never raises; accepts a request with probability 1/2."""

    level = "passive"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: dict) -> str:
        legal = obs["legal_actions"]
        if "accept" in legal:
            return "accept" if self.rng.random() < 0.5 else "run"
        return _random_play(obs, self.rng)


class AlwaysAcceptBot:
    """Random card face up; never asks first; raises back every request it can."""

    level = "always-accept"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: dict) -> str:
        legal = obs["legal_actions"]
        if "accept" in legal:
            return "raise" if "raise" in legal else "accept"
        return _random_play(obs, self.rng)


class AlwaysRunBot:
    """Random card face up; never raises; runs from every request and mão de dez."""

    level = "always-run"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: dict) -> str:
        legal = obs["legal_actions"]
        if "run" in legal:
            return "run"
        return _random_play(obs, self.rng)

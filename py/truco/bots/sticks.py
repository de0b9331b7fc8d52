"""Measuring sticks that bet on their cards: ``honest`` and ``caller`` (issue 27).

Both play their cards exactly as médio does (the table rules of :class:`HeuristicBot`'s
``rules`` card play, covers included) and judge a hand by médio's estimate of it: the
chance of winning the hand over sampled deals of the unseen cards (a tie counting half),
from the seat's own view (its cards, the cards face up, what its partner signalled).
Nothing else enters a bet: not the score (but for one rule below), not what the other team did, not the
opponents' raises (no reading of the table). Neither ever bluffs.

``honest``, by ladder step (the preset's ``ladder``, cheapest first; Mineiro truco 4,
seis 6, dez 10, doze 12; a longer ladder uses the last row)::

    step          asks from   accepts from   raises back to this step from
    1st (truco)      0.68         0.50            --
    2nd (seis)       0.78         0.62           0.78
    3rd (dez)        0.90         0.88           0.90
    4th (doze)       0.95         0.92           0.95

It asks for the next step on its turn when its chance reaches "asks from"; answering a
request for a step, it raises back when its chance reaches the next step's "asks from",
else accepts from "accepts from", else runs. So it answers "dez" and "doze" only with
near-certain hands. A mão de dez it plays from 0.45. One rule of the score, which is no
read of anyone: it does not run when running hands the opponents the game (it accepts).
Measured fair: 50.3% and 49.2% against médio (2 x 2 Mineiro, 600 mirrored games each,
seeds 1 and 2; 48% with truco asked from 0.72, 44-45% without the score rule).

``caller`` asks and raises back exactly like ``honest`` (bets only with cards), but never
runs: every request it does not raise back it accepts, and it plays every mão de dez.
Against it a bluff never wins a hand by a run; it stresses what ``honest`` does not: the
value of a raise made with cards against a table that always pays to see.
"""

from __future__ import annotations

import dataclasses
import random

from .knowledge import Knowledge
from .player import LEVEL_SETTINGS, HeuristicBot

ASK_AT: tuple[float, ...] = (0.68, 0.78, 0.90, 0.95)
"""``honest``: the win chance from which it asks for ladder step i (or raises back to it)."""
ACCEPT_AT: tuple[float, ...] = (0.50, 0.62, 0.88, 0.92)
"""``honest``: the win chance from which it accepts a request for ladder step i."""
DEZ_AT = 0.45
"""``honest``: the win chance from which it plays a mão de dez."""

_SETTINGS = dataclasses.replace(LEVEL_SETTINGS["medio"], name="honest", bluff=0.0, score_aware=False,
                                reads_table=False)


def _step(known: Knowledge, value: int) -> int:
    """The index of ``value`` in the preset's ladder."""
    ladder = [step["value"] for step in known.obs["rules"]["ladder"]]
    return ladder.index(value)


def _at(table: tuple[float, ...], i: int) -> float:
    return table[min(i, len(table) - 1)]


class HonestBot(HeuristicBot):
    """Médio's card play; raises and answers by its hand's win chance alone (module
    docstring: the thresholds); never bluffs."""

    level = "honest"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(dataclasses.replace(_SETTINGS, name=self.level), rng)

    def _hand_chance(self, known: Knowledge) -> tuple[list, list, float]:
        worlds, weights = self.sampled_deals(known)
        return worlds, weights, self.win_chance(known, self.outcomes_from_state(known, worlds), weights)

    def _should_raise(self, known: Knowledge, worlds, weights, outcomes) -> bool:
        nxt = known.obs.get("next_raise")
        if not nxt:
            return False
        return self.win_chance(known, outcomes, weights) >= _at(ASK_AT, _step(known, nxt["value"]))

    def _answer(self, known: Knowledge, pending: dict, legal: list[str]) -> str:
        _, _, p = self._hand_chance(known)
        nxt = known.obs.get("next_raise")
        if "raise" in legal and nxt and p >= _at(ASK_AT, _step(known, nxt["value"])):
            return "raise"
        if p >= _at(ACCEPT_AT, _step(known, pending["value"])):
            return "accept"
        if known.score_them + known.value >= known.obs["rules"]["target"]:
            return "accept"  # running hands the opponents the game: play it out
        return self._weak_answer()

    def _weak_answer(self) -> str:
        return "run"

    def _decide_dez(self, known: Knowledge) -> str:
        _, _, p = self._hand_chance(known)
        return "accept" if p >= DEZ_AT else self._weak_answer()


class CallerBot(HonestBot):
    """``honest``'s raises (only with cards), but accepts every request it does not raise
    back and plays every mão de dez."""

    level = "caller"

    def _weak_answer(self) -> str:
        return "accept"

"""More measuring sticks for difícil's betting (issue 44), kept in the lab (never at the table).

Two kinds, kept apart so that a figure measured on one says something the other cannot:

**Tuned against** (:data:`TUNED`; a betting table may be trained or chosen against them,
with ``honest``, ``caller`` and médio of :mod:`truco.bots`):

- ``team``: a team that answers together, as a real 2 x 2 table does (a look across the
  table, a signal): the answering seat answers with the better of its own hand's win chance
  and its partners' (``honest``'s thresholds, so either partner may accept or raise back).
  It sees its partners' hands through ``partner_views`` (:func:`observe`: the arena hands
  a bot whose class says ``sees_partner`` its partners' observations; without them, in
  1 x 1 or elsewhere, it is ``honest``). Like ``honest`` it never bluffs.
- ``sharp``: ``honest`` until it has seen a bluff, the way a player sees them
  (:func:`bluffs_seen`: hands the other team raised in, played out, and lost, or in which
  the raising seat's cards shown after its raise were all weak); then it calls every raise
  it does not raise back (``caller``) for the rest of the match. One, not two: in a game to
  12 a table that folds like ``honest`` sees at most one of difícil's bluffs (200 games
  measured: 41% of mirrored pairs saw one, none two).
- ``honest`` (:mod:`truco.bots.sticks`) is the stick that never bluffs.

**Held out** (:data:`HELD_OUT`; written for the report, never trained nor chosen against):

- ``learner``: the issue's new player. ``honest`` until the other team has asked for a raise
  in half of 4 hands or more; from then on it accepts every truco it would run from (the
  higher steps still by its cards).
- ``maniac``: bets loose: asks truco from 0.55, any step from 0.05 under ``honest``'s,
  bluffs a quarter of its turns from the 2nd round with a hand under 0.35, accepts from
  0.42, raises back from ``honest``'s ask less 0.08.

``install()`` (run on import of :mod:`truco_lab.arena`) lets :func:`truco.bots.make`, so
``for_move`` and the arena's forked workers, build these by name.
"""

from __future__ import annotations

import random

from truco import bots
from truco.bots.knowledge import Knowledge, manilhas_of, read, strength_table
from truco.bots.opponents import Memory
from truco.bots.sticks import ACCEPT_AT, ASK_AT, HonestBot, _at, _step


def _memory(obs: dict) -> Memory:
    memory = Memory()
    memory.update(obs, strength_table(manilhas_of(obs)), manilhas_of(obs))
    return memory


def bluffs_seen(obs: dict, team: int) -> int:
    """Hands ``team`` was seen bluffing in, as a table sees a bluff: it raised (opened or
    raised back), the hand was played out, and it lost it, or the raising seat's cards
    shown face up after its raise held no manilha and no three. A raise answered by a run
    shows nothing (its cards stay hidden), so a team that folds sees few bluffs.

    >>> log = [{"type": "deal"}, {"type": "raise", "seat": 1}, {"type": "accept", "seat": 0},
    ...        {"type": "play", "seat": 1, "card": "5s"}, {"type": "play", "seat": 1, "card": "Kd"},
    ...        {"type": "hand", "winner": 1, "reason": "rounds"}]
    >>> bluffs_seen({"history": log, "log": [], "manilhas": ["4c", "7h", "As", "7d"]}, 1)
    1
    """
    manilhas = set(obs.get("manilhas") or [])
    seen = 0
    shown: dict[int, list[str]] = {}  # a seat of ``team`` that raised this hand -> its cards since
    for e in (obs.get("history") or []) + (obs.get("log") or []):
        t = e["type"]
        if t == "deal":
            shown = {}
        elif t == "raise" and e["seat"] % 2 == team:
            shown.setdefault(e["seat"], [])
        elif t == "play" and e.get("card") and e["seat"] in shown:
            shown[e["seat"]].append(e["card"])
        elif t == "hand" and shown and e.get("reason") == "rounds":
            weak = any(cards and all(c not in manilhas and c[0] != "3" for c in cards) for cards in shown.values())
            seen += e.get("winner") != team or weak
            shown = {}
    return seen


class TeamBot(HonestBot):
    """``honest`` whose answer uses the best hand of its team (module docstring)."""

    level = "team"
    sees_partner = True

    def choose(self, obs: dict) -> str:
        self._partner_views = obs.get("partner_views") or []
        return super().choose(obs)

    def _team_chance(self, known: Knowledge) -> float:
        _, _, p = self._hand_chance(known)
        for view in self._partner_views:
            _, _, q = self._hand_chance(read(view))
            p = max(p, q)
        return p

    def _answer(self, known: Knowledge, pending: dict, legal: list[str]) -> str:
        p = self._team_chance(known)
        nxt = known.obs.get("next_raise")
        if "raise" in legal and nxt and p >= _at(ASK_AT, _step(known, nxt["value"])):
            return "raise"
        if p >= _at(ACCEPT_AT, _step(known, pending["value"])):
            return "accept"
        if known.score_them + known.value >= known.obs["rules"]["target"]:
            return "accept"
        return "run"


class SharpBot(HonestBot):
    """``honest`` that calls every raise once it has seen a bluff (module docstring)."""

    level = "sharp"
    BLUFFS_SEEN = 1

    def choose(self, obs: dict) -> str:
        self._calls_all = bluffs_seen(obs, 1 - obs["seat"] % 2) >= self.BLUFFS_SEEN
        return super().choose(obs)

    def _weak_answer(self) -> str:
        return "accept" if self._calls_all else "run"


class LearnerBot(HonestBot):
    """Held out: accepts every truco once the other team raises in half its hands."""

    level = "learner"

    def choose(self, obs: dict) -> str:
        them = _memory(obs).teams[1 - obs["seat"] % 2]
        self._calls_truco = them.hands >= 4 and them.raised_hands >= them.hands / 2
        self._pending_step = (obs.get("pending") or {}).get("value")
        return super().choose(obs)

    def _weak_answer(self) -> str:
        first = self._pending_step is not None and self._pending_step == self._first_step
        return "accept" if self._calls_truco and first else "run"

    def _answer(self, known, pending, legal):
        self._first_step = known.obs["rules"]["ladder"][0]["value"]
        return super()._answer(known, pending, legal)


class ManiacBot(HonestBot):
    """Held out: bets loose and bluffs (module docstring)."""

    level = "maniac"

    def _should_raise(self, known: Knowledge, worlds, weights, outcomes) -> bool:
        nxt = known.obs.get("next_raise")
        if not nxt:
            return False
        i = _step(known, nxt["value"])
        p = self.win_chance(known, outcomes, weights)
        if p >= (0.55 if i == 0 else _at(ASK_AT, i) - 0.05):
            return True
        return known.round_index >= 1 and p < 0.35 and self.rng.random() < 0.25

    def _answer(self, known: Knowledge, pending: dict, legal: list[str]) -> str:
        _, _, p = self._hand_chance(known)
        nxt = known.obs.get("next_raise")
        if "raise" in legal and nxt and p >= _at(ASK_AT, _step(known, nxt["value"])) - 0.08:
            return "raise"
        if p >= 0.42 or known.score_them + known.value >= known.obs["rules"]["target"]:
            return "accept"
        return "run"


TUNED: dict[str, type] = {"team": TeamBot, "sharp": SharpBot}
"""Sticks a betting table may be trained or chosen against (with honest, caller, médio)."""
HELD_OUT: dict[str, type] = {"learner": LearnerBot, "maniac": ManiacBot}
"""Sticks for the report only: nothing is trained or chosen against them."""
LAB_STICKS = {**TUNED, **HELD_OUT}


def observe(game, seat: int, level) -> dict:
    """``seat``'s observation, with its partners' (``partner_views``) for a stick that
    answers as a team (:class:`TeamBot`)."""
    obs = game.observation(seat)
    cls = LAB_STICKS.get(level) if isinstance(level, str) else None
    n = obs["players"]
    if cls is not None and getattr(cls, "sees_partner", False) and n > 2:
        obs = dict(obs, partner_views=[game.observation((seat + k) % n) for k in range(2, n, 2)])
    return obs


def install() -> None:
    """Let :func:`truco.bots.make` build the lab's sticks by name (idempotent)."""
    if getattr(bots.make, "lab_sticks", False):
        return
    inner = bots.make

    def make(level, rng=None):
        if isinstance(level, str) and level in LAB_STICKS:
            return LAB_STICKS[level](rng if rng is not None else random.Random())
        return inner(level, rng)

    make.lab_sticks = True
    bots.make = make

"""Difícil's betting table (issue 27): raises and answers learnt offline, shipped as data.

At each betting decision difícil first decides as always (by value, from its sampled
deals); then it looks up the abstract state of the decision

    kind (``ask`` on its turn | ``answer`` a raise) | players | round (round 2 with round
    1's result: W / L / T) | the step asked (4, 6, 10, 12 in Mineiro) | its own win
    chance ``p`` in 8 buckets (:data:`P_EDGES`)

in a table ``key -> {action: probability}`` (``default``: its own decision). A key may
also name where the decision falls, ``|p<cards on the table this round>|<them late><us
late>`` (a team is late from 4 points short of the target: 8 in Mineiro), and that finer
entry, where the table has it, comes first (:func:`state_keys`). A state the table lacks
leaves its decision unchanged; an entry's draw comes from the bot's own RNG, so
the bot stays seeded-reproducible and reusable; the no-dead-bet filter applies after it.

Mineiro has a table for 1 x 1 and one for 2 x 2 (:data:`TABLES`, ``data/betting_1x1.json``,
``data/betting_2x2.json``; other presets and table sizes play as before), trained by Monte
Carlo policy improvement with paired rollouts (``py/truco_lab/selfplay_policy.py``, figures in
``bench/bots/arena_results.md``). A 2 x 2 game with sinais reads its own
(:data:`SINAIS_TABLES`, ``data/betting_2x2_sinais.json``: :func:`shipped` picks). The tables
are read when the module is imported: the web app's memory snapshot has no files after a
restore.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .knowledge import TIE

P_EDGES = (0.2, 0.35, 0.5, 0.6, 0.7, 0.8, 0.9)
"""The edges of the win-chance buckets of :func:`state_key`."""


def p_bucket(p: float) -> int:
    return sum(p >= e for e in P_EDGES)


def state_key(kind: str, known, p: float, step: int) -> str:
    """The table's key of a betting decision (``kind`` ``ask`` or ``answer``; ``known``
    the bot's :class:`~.knowledge.Knowledge`; ``p`` its win chance; ``step`` the value
    asked)."""
    tricks = ""
    if known.round_index == 1:
        r = known.results[0]
        tricks = "T" if r == TIE else "W" if r == known.team else "L"
    return f"{kind}|{known.players}|{known.round_index}{tricks}|{step}|{p_bucket(p)}"


LATE_MARGIN = 4
"""A team this many points short of the target or nearer is late (:func:`state_keys`)."""


def state_keys(kind: str, known, p: float, step: int) -> tuple[str, str]:
    """The keys a decision is looked up by, the finer first: :func:`state_key` with the
    cards already on the table this round and whether each team is late in the game
    (the other team first), then :func:`state_key` alone. A bluff up the ladder that a
    tight team folds to early in a game loses the game late in it, and who still plays
    after the bot changes what a raise risks: the finer entries hold those apart."""
    coarse = state_key(kind, known, p, step)
    late = known.obs["rules"]["target"] - LATE_MARGIN
    return (f"{coarse}|p{len(known.plays)}|{int(known.score_them >= late)}{int(known.score_us >= late)}",
            coarse)


def coarse_of(key: str) -> str:
    """The coarse key a finer one falls back to (a coarse key is its own).

    >>> coarse_of("ask|2|0|4|1|p0|00"), coarse_of("ask|2|0|4|1")
    ('ask|2|0|4|1', 'ask|2|0|4|1')
    """
    return "|".join(key.split("|")[:5])


def entry(table: dict, keys: tuple[str, ...]) -> dict | None:
    """The entry of the first of ``keys`` that ``table`` has (``None``: it has none)."""
    return next((found for k in keys if (found := table.get(k))), None)


def pick(table: dict, keys: tuple[str, ...], default: str, options: list[str], rng: random.Random) -> str:
    """The action ``table`` gives the first of ``keys`` it has (drawn from ``rng``;
    ``default`` where it says so, lacks every key, or names an option not open)."""
    probs = entry(table, keys)
    if not probs:
        return default
    x = rng.random()
    acc = 0.0
    for a, q in probs.items():
        acc += q
        if x < acc:
            return a if a in options else default
    return default


def likeliest(table: dict, keys: tuple[str, ...], default: str, options: list[str],
              rng: random.Random | None = None) -> str:
    """The action ``table`` gives most often at the first of ``keys`` it has (``default``
    where that is ``default``, ties included, where it lacks every key, or names an option
    not open): the Dica's reading of a mixed entry. A bot draws from a mixed entry so that
    its bets cannot be read (issue 44); advice says what the table does most of the time.
    ``rng`` is not drawn from: the signature is :func:`pick`'s, so either reads an entry.

    >>> likeliest({"ask|2|0|4|0": {"default": 0.7, "raise": 0.3}}, ("ask|2|0|4|0",), "play", ["play", "raise"])
    'play'
    >>> likeliest({"ask|2|0|4|0": {"default": 0.4, "raise": 0.6}}, ("x", "ask|2|0|4|0"), "play", ["play", "raise"])
    'raise'
    """
    probs = entry(table, keys)
    if not probs:
        return default
    best = max(probs.values())
    if probs.get("default", 0.0) >= best:
        return default
    action = next(a for a, q in probs.items() if q == best)
    return action if action in options else default


def _load(name: str) -> dict:
    return json.loads((Path(__file__).parent / "data" / name).read_text(encoding="utf-8"))


TABLES: dict[tuple[str, int], dict] = {
    ("mineiro", 2): _load("betting_1x1.json"),
    ("mineiro", 4): _load("betting_2x2.json"),
}
"""The shipped tables by preset (the rules' ``name``) and number of players."""

SINAIS_TABLES: dict[tuple[str, int], dict] = {
    ("mineiro", 4): _load("betting_2x2_sinais.json"),
}
"""The tables learnt with sinais on (every seat signalling by the table's policy), read
instead of :data:`TABLES`' in a game with sinais: a raise backed by a partner's signal is
stronger than one made on a hand alone, and an answer the other team's partner signalled
for is better informed, so the entries that pay differ (issue 44)."""


def shipped(name: str, players: int, sinais: bool) -> dict | None:
    """The table difícil reads in a game of preset ``name`` at ``players`` seats, with or
    without sinais; ``None`` where none is shipped."""
    return (sinais and SINAIS_TABLES.get((name, players))) or TABLES.get((name, players))

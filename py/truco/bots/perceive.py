"""How a seat judges its own hand: the rough win chance a player reads off its cards.

Used to model other seats (what hands they raise, accept or run with) and to judge, once a
hand's cards are shown, whether a bet was made on strength or without it.
"""

from __future__ import annotations

from functools import lru_cache

from .knowledge import TIE, strength_table


@lru_cache(maxsize=16)
def beat_table(manilhas: tuple[str, ...]) -> tuple[float, ...]:
    """Strength -> share of the deck that a card of that strength beats (ties count half)."""
    table = strength_table(manilhas)
    values = list(table.values())
    top = max(values)
    out = []
    for v in range(top + 1):
        below = sum(1 for x in values if x < v)
        equal = sum(1 for x in values if x == v)
        out.append((below + 0.5 * max(0, equal - 1)) / (len(values) - 1))
    return tuple(out)


def perceived(cards: list[int], results: list[int], team: int, players: int,
              beat: tuple[float, ...], partner: float = 0.72) -> float:
    """Roughly the chance a seat holding ``cards`` gives its team, as it can judge it
    (its own cards and the rounds already played, RULES.md §3), from 0 to 1.

    A card's chance to take a round is the share of the deck it beats, raised to the
    number of opponents; in 2 x 2 the partner may take the round instead (``partner`` is
    the chance it does not).
    """
    opponents = players // 2
    team_play = players > 2
    rs = []
    top = 0.0
    for v in cards:
        x = beat[v] if v >= 0 else 0.0
        top = x if x > top else top
        r = x ** opponents
        if team_play:
            r = 1.0 - (1.0 - r) * partner
        rs.append(r)
    rs.sort(reverse=True)
    rs += [0.0, 0.0, 0.0]
    a, b, c = rs[0], rs[1], rs[2]
    if not results:
        return a * b + a * c * (1 - b) + b * c * (1 - a)
    first = results[0]
    if len(results) == 1:
        if first == team:
            return 1.0 - (1.0 - a) * (1.0 - b) * 0.85
        if first == TIE:  # the best card must beat every card the opponents have left
            t = top ** (2 * opponents)
            return 1.0 - (1.0 - t) * partner if team_play else t
        return a * b
    if first == team:
        return 1.0 - (1.0 - a) * 0.85
    return a

"""Table rules for what the sinais told a bot (issue 12): who is sure to take the round.

The difícil bot needs none of this: it samples the hidden hands to fit every signal it saw
(:mod:`.knowledge`, :mod:`.simulate`) and its search does the rest. The médio bot plays by
table rules, and these are the ones a signal adds:

- a partner still to play in the round who signalled a manilha that nothing unseen beats
  (the Zap, or the Copas once the Zap is out) takes the round: do not overtake it, keep
  the strong cards for later rounds, and lead low to it;
- an opponent still to play who is known (a caught signal) to hold such a card takes the
  round too: do not waste a good card on it.
"""

from __future__ import annotations

from .knowledge import Knowledge
from .simulate import table_state


def sure_card(k: Knowledge, seat: int) -> int | None:
    """The strength of a signalled manilha ``seat`` still holds that no card this seat has
    not seen beats, or ``None``."""
    v = k.musts.get(seat)
    if v is None:
        return None
    if any(x > v for x in k.pool):
        return None
    return v


def seats_after(k: Knowledge) -> list[int]:
    """The seats that still play in the current round after this one."""
    n = k.players
    return [(k.seat + i) % n for i in range(1, n - len(k.plays))]


def taker_after(k: Knowledge) -> int | None:
    """The team (0 or 1) of a seat still to play in this round that is sure to take it,
    by a signal this seat saw, or ``None``."""
    best = table_state(k.plays)[0] if k.plays else -2
    for s in seats_after(k):
        v = sure_card(k, s)
        if v is not None and v > best and v > max((k.strength[c] for c in k.hand), default=-2):
            return s % 2
    return None

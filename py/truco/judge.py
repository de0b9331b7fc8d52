"""Pure scoring functions: who wins a round, who wins a hand (RULES.md §2–§3).

They take plain values, so they are tested with hand-built cards.

>>> from truco.rules import preset
>>> r = preset("mineiro").strength_table()
>>> round_result(r, [(0, "3c", False), (1, "3h", False)])   # equal common cards tie
('tie', None)
>>> round_result(r, [(0, "3c", False), (1, "7d", False)])   # Pica-fumo is a manilha
(1, 1)
>>> hand_outcome(["tie", 0])
0
>>> hand_outcome([1, "tie"])
1
>>> hand_outcome(["tie", "tie", "tie"])
'void'
>>> hand_outcome([0, 1]) is None
True
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Mapping, Sequence, Union

from .rules import COVERED_STRENGTH

TIE = "tie"
VOID = "void"

RoundResult = Union[int, Literal["tie"]]


def round_result(
    strength: Mapping[str, int], plays: Iterable[tuple[int, str, bool]]
) -> tuple[RoundResult, int | None]:
    """``(result, winning seat)`` of a complete round of ``(seat, card, covered)`` plays.

    ``strength`` is the hand's card -> strength table (``Rules.strength_table(vira)``).

    The round is tied only when the strongest cards belong to both teams; if partners
    tie for the strongest, their team wins and the one who played first takes the round
    (§3). ``plays`` is in play order. Team = seat % 2.
    """
    best = None
    top: list[int] = []
    for seat, card, covered in plays:
        s = COVERED_STRENGTH if covered else strength[card]
        if best is None or s > best:
            best = s
            top = [seat]
        elif s == best:
            top.append(seat)
    if not top:
        raise ValueError("a round needs at least one play")
    teams = {seat % 2 for seat in top}
    if len(teams) > 1:
        return TIE, None
    return top[0] % 2, top[0]


def hand_outcome(results: Sequence[Any], tie: Any = TIE, void: Any = VOID) -> Any:
    """The team that wins the hand, ``'void'`` when all three rounds tie, ``None`` if open.

    §3: the first team to win 2 rounds wins. A tied 1st round goes to the winner of the
    2nd (or the 3rd); after a won 1st round, a tie in the 2nd or 3rd goes to the winner of
    the 1st.

    ``tie`` and ``void`` are the markers of a tied round and of a void hand. The bots'
    rollouts keep rounds as small ints (``bots/simulate.py``: ``TIE`` -1, ``VOID`` 2) and
    pass their own markers, so the rule is written once; as parameters they are local
    lookups, which keeps the rollouts as fast as a copy of the rule with its own globals.
    """
    n = len(results)
    if n < 2:
        return None
    first, second = results[0], results[1]
    if first == tie:
        if second != tie:
            return second
        if n == 3:
            return void if results[2] == tie else results[2]
        return None
    if second == first or second == tie:
        return first
    if n == 3:
        return first if results[2] == tie else results[2]
    return None

"""Openings: matches the table can deal before its engine has loaded (issue 43).

A first visit's "Começar", with the start screen's default settings, shows the player's first
hand at once: the page carries, from the build, seat 0's view of the first deal of one of
these matches (``truco_tools.openings`` makes it with this engine), lets the player decide on
it, and asks the engine for ``new_game {opening: k}`` once it is ready; the engine deals the
very same match from its seed. The page holds the view only; the seeds, which decide every
hand of the match, stay here, with the engine, as a save's seed does.

Each was chosen so that seat 0 moves first in a table of four with the defaults (no bot has
to move before the player's first decision), and its first deal is the same at every level
(the opponents' bots have not moved yet): ``tests/engine/test_engine_openings.py`` checks both.

>>> opening_seed(0) == OPENING_SEEDS[0]
True
>>> opening_seed(len(OPENING_SEEDS))
Traceback (most recent call last):
...
ValueError: opening 8 is not one of the 8 openings (0 to 7)
"""

from __future__ import annotations

from typing import Any

from .quote import said

OPENING_SEEDS: tuple[int, ...] = (0, 4, 10, 12, 18, 20, 24, 26)


def opening_seed(index: Any) -> int:
    """The seed of opening ``index``; ``ValueError`` for anything but an opening's number."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(OPENING_SEEDS):
        raise ValueError(f"opening {said(index, 20)} is not one of the {len(OPENING_SEEDS)} openings "
                         f"(0 to {len(OPENING_SEEDS) - 1})")
    return OPENING_SEEDS[index]

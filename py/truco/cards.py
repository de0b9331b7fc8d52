"""Cards as text: rank ``4 5 6 7 Q J K A 2 3`` + suit ``c h s d`` (RULES.md §1).

>>> parse_card("4c")
'4c'
>>> card_name("7d")
'7 de ouros'
>>> parse_card("9z")
Traceback (most recent call last):
...
truco.cards.CardError: '9z' is not a card: a card is a rank (4 5 6 7 Q J K A 2 3) and a suit (c h s d), e.g. '4c'
"""

from __future__ import annotations
from .quote import said

RANKS: tuple[str, ...] = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
"""Ranks from the weakest common card to the strongest (RULES.md §2)."""

SUITS: tuple[str, ...] = ("c", "h", "s", "d")
"""Clubs (paus), hearts (copas), spades (espadas), diamonds (ouros)."""

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 40-card deck in a fixed order (the order shuffles start from)."""

_DECK_SET = frozenset(DECK)

RANK_NAMES_PT = {
    "4": "4", "5": "5", "6": "6", "7": "7", "Q": "dama", "J": "valete",
    "K": "rei", "A": "ás", "2": "2", "3": "3",
}
SUIT_NAMES_PT = {"c": "paus", "h": "copas", "s": "espadas", "d": "ouros"}


class CardError(ValueError):
    """A string that is not a card of the 40-card deck."""


def is_card(text: object) -> bool:
    """True for a valid card string such as ``'As'``."""
    return isinstance(text, str) and text in _DECK_SET


def parse_card(text: str) -> str:
    """Return ``text`` if it names a card of the deck, else raise :class:`CardError`."""
    if is_card(text):
        return text
    raise CardError(
        f"{said(text)} is not a card: a card is a rank (4 5 6 7 Q J K A 2 3) "
        f"and a suit (c h s d), e.g. '4c'"
    )


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def card_name(card: str) -> str:
    """The card's Portuguese name, e.g. ``'ás de espadas'``."""
    return f"{RANK_NAMES_PT[card[0]]} de {SUIT_NAMES_PT[card[1]]}"

"""The table a match is set at: its seats, its options and its deals, checked.

What a match is started with (:func:`truco.game.new_game`'s arguments) and the seeded
deal of every hand. Both the rules (:mod:`truco.game`) and the save (:mod:`truco.persist`)
build on it; it imports neither.
"""

from __future__ import annotations

import random

from .cards import DECK, CardError, is_card
from .names import SIGNALS
from .rules import Rules
from .quote import said

SERIES_LENGTHS = (1, 3, 5)
FERRO_MODES = ("escuro", "claras")
TIMER_SECONDS = (0, 10, 20, 30)
PLAYER_COUNTS = (2, 4, 6)

ANSWERS = ("accept", "run")

class IllegalAction(ValueError):
    """An action the rules do not allow now; the game is left unchanged."""


def team_of(seat: int) -> int:
    """Seats alternate between the two teams (§1)."""
    return seat % 2


def shuffled_deck(seed: int | str, hand_index: int, deck: tuple[str, ...] = DECK) -> list[str]:
    """The deck of hand ``hand_index`` in dealing order: it depends only on ``(seed, hand_index)``.

    Mirrored matches rely on this: the same seed deals the same hands whatever is played.
    """
    cards = list(deck)
    random.Random(f"truco:{seed}:{hand_index}").shuffle(cards)
    return cards


def deal_for(seed: int | str, hand_index: int, players: int, deck: tuple[str, ...] = DECK) -> list[list[str]]:
    """The hands of hand ``hand_index`` (3 cards a seat, in seat order)."""
    cards = shuffled_deck(seed, hand_index, deck)
    return [cards[3 * i: 3 * i + 3] for i in range(players)]


def draw_dealer(seed: int | str, players: int) -> int:
    """The first dealer of a match drawn from its seed (when ``new_game`` is given none)."""
    return random.Random(f"truco:{seed}:dealer").randrange(players)


OPTION_NAMES = ("series", "ferro", "timer", "baralho_limpo", "familia_real", "humano_decide", "sinais")


def check_options(rules: Rules, options: dict, players: int) -> dict:
    """The options of :func:`truco.game.new_game`, checked, every one filled in."""
    unknown = set(options) - set(OPTION_NAMES)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))}: "
                         f"options are {', '.join(OPTION_NAMES)}")
    flags = {}
    for name in ("baralho_limpo", "familia_real"):
        flags[name] = options.get(name, False)
        if not isinstance(flags[name], bool):
            raise ValueError(f"{name} must be true or false, not {said(flags[name])}")
    series = options.get("series", 1)
    if isinstance(series, bool) or not isinstance(series, int) or series not in SERIES_LENGTHS:
        raise ValueError(f"series must be 1, 3 or 5 games, not {said(series)}")
    ferro = options.get("ferro", "escuro" if rules.ferro_blind else "claras")
    if not isinstance(ferro, str) or ferro not in FERRO_MODES:
        raise ValueError(f"ferro must be 'escuro' or 'claras', not {said(ferro)}")
    timer = options.get("timer", 0)
    if isinstance(timer, bool) or not isinstance(timer, int) or timer not in TIMER_SECONDS:
        raise ValueError(f"timer must be 0 (off), 10, 20 or 30 seconds, not {said(timer)}")
    boss = options.get("humano_decide")
    # A seat, or (a friends' table: a person at each device) a list of seats, one a team at most.
    bosses = boss if isinstance(boss, list) else [boss]
    if boss is not None and (not bosses or any(isinstance(b, bool) or not isinstance(b, int) or not 0 <= b < players
                                               for b in bosses)):
        raise ValueError(f"humano_decide must be a seat from 0 to {players - 1} (or a list of them), not {str(boss)[:30]!r}")
    if isinstance(boss, list):
        if len({b % 2 for b in bosses}) != len(bosses):
            raise ValueError(f"humano_decide: one seat a team at most, not {said(boss)}")
        boss = sorted(bosses) if len(bosses) > 1 else bosses[0]
    sinais = options.get("sinais", False)
    if not isinstance(sinais, bool):
        raise ValueError(f"sinais must be true or false, not {said(sinais)}")
    if players == 2 and (boss is not None or sinais):
        raise ValueError("humano_decide and sinais need partners (2 x 2 or 3 x 3)")
    return {"series": series, "ferro": ferro, "timer": timer, **flags,
            "humano_decide": boss, "sinais": sinais}


def check_score(rules: Rules, score) -> list[int]:
    """A starting score, checked: reachable in the preset and short of its target."""
    if not isinstance(score, (list, tuple)) or len(score) != 2:
        raise ValueError(f"score must be two numbers, not {said(score)}")
    a, b = score
    unit = rules.point_unit()
    for s in (a, b):
        if isinstance(s, bool) or not isinstance(s, int) or s < 0:
            raise ValueError(f"score {said(score)}: points are whole numbers from 0")
        if s >= rules.target:
            raise ValueError(f"score {said(score)}: {s} already ends the game (target {rules.target})")
        if s % unit:
            raise ValueError(f"score {said(score)}: {s} cannot be reached in {rules.name!r}, "
                             f"where every score is a multiple of {unit}")
    return [a, b]


def check_hands(hands, players: int, deck: tuple[str, ...] = DECK) -> list[list[str]]:
    """A fixed deal (3 cards a seat, every card once and of this deck), checked."""
    if not isinstance(hands, (list, tuple)) or len(hands) != players:
        raise ValueError(f"hands must list {players} hands of 3 cards, one per seat, not {said(hands)}")
    seen: set[str] = set()
    out = []
    for seat, cards in enumerate(hands):
        if not isinstance(cards, (list, tuple)) or len(cards) != 3:
            raise ValueError(f"hands[{seat}] must be 3 cards, not {said(cards)}")
        for c in cards:
            if not is_card(c):
                raise CardError(f"hands[{seat}]: {said(c)} is not a card (e.g. '4c', 'As', '7d')")
            if c not in deck:
                raise CardError(f"hands[{seat}]: {c} is not in this deck (baralho limpo)")
            if c in seen:
                raise ValueError(f"hands: {c} is dealt twice")
            seen.add(c)
        out.append(list(cards))
    return out


__all__ = ["IllegalAction", "team_of", "shuffled_deck", "deal_for", "draw_dealer", "check_options",
           "check_score", "check_hands", "OPTION_NAMES", "SERIES_LENGTHS", "FERRO_MODES", "TIMER_SECONDS",
           "PLAYER_COUNTS", "ANSWERS", "SIGNALS"]

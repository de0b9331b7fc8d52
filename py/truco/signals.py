"""The classic sinais between partners: which signal names a hand (issue: sinais).

>>> signal_for({"hand": ["3c", "7h", "Kd"], "manilhas": ["4c", "7h", "As", "7d"]})
'copas'
>>> signal_for({"hand": ["3c", "2h", "Kd"], "manilhas": ["4c", "7h", "As", "7d"]})
'tres'
>>> signal_for({"hand": ["5c", "2h", "Kd"], "manilhas": ["4c", "7h", "As", "7d"]})
'nada'
"""

from __future__ import annotations

from .names import MANILHA_SIGNALS, SIGNALS


def signal_for(observation: dict) -> str:
    """The honest signal for the seat's strongest card: a manilha by rank, a three, or nada."""
    manilhas = observation.get("manilhas") or []
    hand = observation.get("hand") or []
    held = [manilhas.index(c) for c in hand if c in manilhas]
    if held:
        return MANILHA_SIGNALS[min(held)]
    if any(c[0] == "3" for c in hand):
        return "tres"
    return "nada"


def meaning(signal: str, manilhas: list[str]) -> list[str]:
    """The cards a signal stands for in this hand (empty for 'nada')."""
    if signal in MANILHA_SIGNALS and len(manilhas) == 4:
        return [manilhas[MANILHA_SIGNALS.index(signal)]]
    if signal == "tres":
        return ["3c", "3h", "3s", "3d"]
    return []


def signal_to_send(observation: dict) -> str | None:
    """What a bot tells its partner now, or ``None`` to keep quiet (issue 12): the one
    policy of the table's bots (``api._bots_signal``) and of the arena.

    Every signal reaches the partner, and each opponent catches it now and then (the
    engine's catch rule, ``game.CATCH_CHANCE``). So a bot signals only when the partner
    gains more from it than the opponents who might catch it (measured in
    bench/arena_signals.md):

    - a manilha, at once: the partner plans the hand around it (it does not overtake a
      Zap, leads low to it, backs a truco), and an opponent who catches it mostly learns
      where not to waste a card;
    - a three or nothing ('tres', 'nada') is kept quiet: caught, it tells the opponents
      the seat is weak, so they raise on it and call its bluffs, and the partner gains
      little from it early on. Except when the partner must answer the opponents' raise
      right now: then it is exactly what the partner needs to know before accepting for
      the pair.

    Only before the seat's first card (``may_signal``), and never blind: a seat that has
    not seen its cards has nothing honest to say. Never when the partner already sees
    this seat's cards (the mão de dez, RULES.md §6): a signal would tell the partner
    nothing and could only be caught.
    """
    if not observation.get("may_signal") or observation.get("blind") or not observation.get("hand"):
        return None
    seat = observation["seat"]
    if any(v["seat"] % 2 == seat % 2 for v in observation.get("visible_hands") or []):
        return None
    name = signal_for(observation)
    if name in MANILHA_SIGNALS:
        return name
    pending = observation.get("pending")
    to_move = observation.get("to_move")
    if (pending and pending["asker"] % 2 != seat % 2
            and to_move is not None and to_move != seat and to_move % 2 == seat % 2):
        return name
    return None

"""The classic sinais between partners: which signal names a hand (issue: sinais).

>>> signal_for({"hand": ["3c", "7h", "Kd"], "manilhas": ["4c", "7h", "As", "7d"]})
'copas'
>>> signal_for({"hand": ["3c", "2h", "Kd"], "manilhas": ["4c", "7h", "As", "7d"]})
'tres'
>>> signal_for({"hand": ["5c", "2h", "Kd"], "manilhas": ["4c", "7h", "As", "7d"]})
'nada'
"""

from __future__ import annotations

from .game import SIGNALS

MANILHA_SIGNALS = SIGNALS[:4]


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

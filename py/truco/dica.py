"""The Dica of one position (issue 12): the difícil bot's choice for the seat to move, with
its reason, from that seat's observation only. The table's ``hint`` and the review of a
finished match (:func:`truco.replay.decision_hints`, issue 45) both ask here, so the review
says what the Dica would have said at the table in that very position.
"""

from __future__ import annotations

import random


def dica(obs: dict, seed: int, log_length: int) -> dict:
    """``{action, reason, text}`` for the seat of ``obs`` (whose turn it is).

    ``seed`` and ``log_length`` (the match's seed and how many events its log held) only
    seed the hint's own random choices, so the same position always gets the same words;
    nothing of the game but ``obs`` is read.
    """
    from .bots.explain import explain
    from .hint_text import render

    rng = random.Random(f"hint:{seed}:{obs['seat']}:{log_length}")
    action, reason = explain(obs, rng)
    return {"action": action, "reason": reason,
            "text": render(reason, obs["manilhas"], obs["rules"]["manilha_names"])}

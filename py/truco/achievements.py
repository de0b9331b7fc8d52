"""Achievements (issue 45): the moments of a match a truco player is proud of, found in what
the player's seat saw of it, never in another seat's hidden cards.

:func:`detect` is a pure function over one seat's record of a match (:func:`record`: the
match's events as that seat saw them, and the seat's own cards of each hand as they were
dealt to it); :func:`earned` builds the record of a game and detects. The page adds the
achievements that come from its own record (the daily challenge won, seven days in a row:
``site/static/js/table/achievements.js``) and keeps each with its date.

The match's achievements, for the seat's team:

``ferro_escuro``
    a mão de ferro played no escuro (both teams at the mão de X, the cards unseen) and won.
``doze``
    a hand raised to doze, the doze accepted (by either side), and won.
``virada``
    the match won after trailing by :data:`COMEBACK` points or more in its last game (a
    match won from 2 × 10, or from 0 × 10).
``blefe``
    a raise by the seat itself, holding no manilha and no three among its cards still in
    hand, that the opponents ran from.
``invicto``
    the match won from 0 × 0 without losing a hand.

>>> from truco.game import new_game
>>> g = new_game(seed=1, hands=[["4c", "7h", "As"], ["4d", "5s", "6h"]], dealer=1, score=[10, 10])
>>> for a in ["play #1", "play #1", "play #1", "play #1"]:
...     g.apply(a)
>>> [a["id"] for a in earned(g, 0)]
['ferro_escuro']
>>> earned(g, 1)
[]
"""

from __future__ import annotations

from typing import Any

from .quote import said

IDS = ("ferro_escuro", "doze", "virada", "blefe", "invicto")
"""The match's achievements, in the order the page lists them (then its own two)."""
COMEBACK = 8
"""How many points behind, in the last game, a won match counts as a virada."""
_STRONG_COMMON = "3"
"""The rank no bluff holds: the strongest card after the manilhas in every preset."""


def record(game: Any, seat: int) -> dict:
    """What ``seat`` saw of the match, for :func:`detect`: ``{seat, players, options,
    events, hands}``, ``events`` as :meth:`Game.events` gives them to the seat, ``hands``
    each hand's ``{cards, manilhas, blind}`` as the seat's observation had them at the deal
    (no card in a blind hand). The match is played again from its start with its moves."""
    from .persist import start_game

    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"seat must be from 0 to {game.players - 1}, not {said(seat)}")
    replay = start_game(type(game), game.start)
    hands: dict[int, dict] = {}

    def dealt() -> None:
        obs = replay.observation(seat)
        if obs["hand_number"] not in hands and replay.winner is None:
            hands[obs["hand_number"]] = {"cards": list(obs["hand"]), "manilhas": list(obs["manilhas"]),
                                         "blind": bool(obs["blind"])}

    dealt()
    for actor, action in game.moves:
        replay.apply(action, seat=actor)
        dealt()
    return {"seat": seat, "players": game.players, "options": dict(game.options),
            "events": game.events(seat), "hands": hands}


def earned(game: Any, seat: int) -> list[dict]:
    """The achievements of ``seat``'s team in ``game`` (:func:`detect` of its :func:`record`)."""
    return detect(record(game, seat))


def detect(rec: dict) -> list[dict]:
    """The achievements in a seat's record of a match, each once, in the order they came:
    ``[{"id", "hand_number", "game_number"}]`` (the hand that earned it)."""
    seat = rec["seat"]
    team = seat % 2
    escuro = rec.get("options", {}).get("ferro") == "escuro"
    found: dict[str, dict] = {}

    def earn(name: str) -> None:
        if name not in found:
            found[name] = {"id": name, "hand_number": hand_number, "game_number": game_number}

    hand_number = game_number = 0
    kind = "normal"
    cards: list[str] = []
    manilhas: list[str] = []
    blind = False
    doze = bluff = False
    lost_a_hand = False
    first_score: list[int] | None = None
    worst = 0  # the most the team trailed by in the current game
    for e in rec["events"]:
        t = e["type"]
        if t == "deal":
            hand_number, kind = e["hand_number"], e["kind"]
            if e["game_number"] != game_number:
                game_number, worst = e["game_number"], 0
            if first_score is None:
                first_score = list(e["score"])
            worst = max(worst, e["score"][1 - team] - e["score"][team])
            dealt = rec["hands"].get(hand_number) or rec["hands"].get(str(hand_number)) or {}
            cards = list(dealt.get("cards") or [])
            manilhas = list(dealt.get("manilhas") or [])
            blind = bool(dealt.get("blind")) or not cards
            doze = bluff = False
        elif t in ("play", "cover") and e["seat"] == seat and e.get("card") in cards:
            cards.remove(e["card"])
        elif t == "raise":
            # The seat's own raise holding nothing to back it; any other raise ends that bluff.
            bluff = e["seat"] == seat and not blind and not any(
                c in manilhas or c[0] == _STRONG_COMMON for c in cards)
        elif t == "accept":
            if not e.get("mao_de_dez") and e.get("value", 0) >= 12:
                doze = True
            bluff = False
        elif t == "run":
            if bluff and not e.get("mao_de_dez") and e["seat"] % 2 != team:
                earn("blefe")
            bluff = False
        elif t == "hand":
            if e["winner"] == team:
                if doze:
                    earn("doze")
                if kind == "ferro" and escuro:
                    earn("ferro_escuro")
            elif e["winner"] is not None:
                lost_a_hand = True
            worst = max(worst, e["score"][1 - team] - e["score"][team])
        elif t == "match" and e["winner"] == team:
            if worst >= COMEBACK:
                earn("virada")
            if not lost_a_hand and first_score == [0, 0]:
                earn("invicto")
    return sorted(found.values(), key=lambda a: (a["game_number"], a["hand_number"], IDS.index(a["id"])))

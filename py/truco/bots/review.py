"""Why the bots bet as they did, for the hand review (issue 44): each raise, accept, run and
mão de dez a bot made in a finished hand, with its reason (:attr:`HeuristicBot.last_reason`).

Nothing is stored while the match is played: the match is played again from its start
with its moves (:attr:`Game.start`, :attr:`Game.moves`, the record a save holds), and at
each bet of a bot seat in the hand asked for, the bot of that move is built as the table
built it (:func:`truco.bots.for_move`: the game's seed, the seat, the log's length) and
asked again on the same observation; it chooses the same (it is a pure function of them),
and its reason is kept. A bet it would not make again (a seat a person played then, a
fallback move) gets no reason.

Only once the hand is over, and only what the reviewing seat may see
(:func:`visible`): a reason that names the bot's own cards keeps those shown face up in
that hand (the review shows them anyway), and one that names a signal needs the reviewer
to have seen that signal (its partner's, or one caught: every caught signal is told to
all when the hand ends); else its ``fallback``, the same reason without that fact.
"""

from __future__ import annotations

from typing import Any

BETS = ("raise", "accept", "run")


def visible(reason: dict | None, cards: set[str], signal_seats: set[int]) -> dict | None:
    """``reason`` as a seat that saw face up ``cards`` and the signals of
    ``signal_seats`` may read it: the bot's cards it names cut to those shown, or its
    ``fallback`` when it names none of them or a signal not seen (``None``: no reason)."""
    while reason is not None:
        params = dict(reason.get("params") or {})
        ok = True
        if "cards" in params:
            shown = [c for c in params["cards"] if c in cards]
            ok = bool(shown)
            params["cards"] = shown
        if "seat" in params:  # a seat a reason names is one whose signal it names
            ok = ok and params["seat"] in signal_seats
        if ok:
            return {"key": reason["key"], "params": params}
        reason = reason.get("fallback")
    return None


def _seen(events: list[dict]) -> tuple[set[str], set[int]]:
    """The cards played face up and the seats whose signal a seat saw, in ``events``."""
    cards = {e["card"] for e in events if e["type"] == "play" and e.get("card")}
    seats = {e["seat"] for e in events if e["type"] == "signal"}
    for e in events:
        if e["type"] == "signals_caught":
            seats.update(x["seat"] for x in e.get("caught") or [])
    return cards, seats


def bet_reasons(game: Any, seat: int, levels: dict[int, Any], hand_n: int) -> dict[str, dict]:
    """Event number -> reason, for the bots' bets of the hand whose ``hand`` event is
    numbered ``hand_n`` in ``game``'s log, as ``seat`` may read them (:func:`visible`).
    ``levels``: the bot seats' levels (a seat not in it is a person's). Empty if there is
    no such finished hand."""
    from ..persist import start_game
    from . import for_move

    log = game.log
    if not (isinstance(hand_n, int) and not isinstance(hand_n, bool) and 0 <= hand_n < len(log)
            and log[hand_n]["type"] == "hand"):
        return {}
    deal_n = max(i for i in range(hand_n) if log[i]["type"] == "deal")
    end = next((i for i in range(hand_n + 1, len(log)) if log[i]["type"] == "deal"), len(log))
    events = [e for e in game.events(seat) if deal_n <= e["n"] < end]
    cards, signal_seats = _seen(events)
    replay = start_game(type(game), game.start)
    out: dict[str, dict] = {}
    for actor, action in game.moves:
        at = len(replay.log)
        if at >= hand_n:
            break
        if at > deal_n and action in BETS and actor in levels:
            bot = for_move(levels[actor], replay.seed, actor, at)
            if bot.choose(replay.observation(actor)) == action:
                reason = visible(getattr(bot, "last_reason", None), cards, signal_seats)
                if reason is not None:
                    out[str(at)] = reason
        replay.apply(action, seat=actor)
    return out

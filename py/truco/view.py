"""What one seat may see of a match: the no-leak boundary (RULES.md §4).

:func:`observation` is everything a seat may know and nothing else: its own cards, the
cards played face up, a covered card only to its owner, a partner's signal (and an
opponent's only to the seat that caught it), and the public record of the match
(:func:`events`, :func:`history`). Bots, hints, the page and the replay see a match only
through these functions. They read a :class:`truco.game.Game` and never change it; this
module imports nothing of the game.
"""

from __future__ import annotations

from typing import Any

HISTORY_HANDS = 40
"""How many earlier hands :func:`history` reaches back."""

HISTORY_KEYS = {
    "deal": ("hand_number", "game_number", "kind"),
    "play": ("seat", "card"),
    "cover": ("seat",),
    "raise": ("seat",),
    "accept": ("seat", "mao_de_dez"),
    "run": ("seat", "mao_de_dez"),
    "round": ("result",),
    "hand": ("winner", "reason", "points"),
}
"""The fields of each public event :func:`history` keeps (what says how a seat bets and plays)."""


def check_seat(game: Any, seat: Any) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"seat must be from 0 to {game.players - 1}, not {seat!r}")


def observation(game: Any, seat: int) -> dict:
    """Everything ``seat`` may know, and nothing else (JSON-safe; see observation.schema.json)."""
    check_seat(game, seat)
    to_move = game.to_move
    return _observe(game, seat, game.hand, game.hand_index, game.dealer, list(game.score),
                    game.game_number, to_move=to_move,
                    legal_actions=game.legal_actions() if to_move == seat else [],
                    may_signal=game.may_signal(seat))


def finished_hand(game: Any, seat: int, hand: dict, hand_index: int, dealer: int,
                  score: list[int], game_number: int) -> dict:
    """The finished ``hand`` as ``seat`` saw it for a moment, before the next deal: the
    table of that hand (its number, dealer, score after it, game of the series) with
    nobody to move; the rest (the log, the history, games, winner) is the match's now."""
    check_seat(game, seat)
    return _observe(game, seat, hand, hand_index, dealer, list(score), game_number,
                    to_move=None, legal_actions=[], may_signal=False, finished=True)


def _observe(game: Any, seat: int, h: dict, hand_index: int, dealer: int, score: list[int],
             game_number: int, to_move: int | None, legal_actions: list[str], may_signal: bool,
             finished: bool = False) -> dict:
    rules = game.rules
    n = game.players
    options = game.options
    blind = h["blind"]
    visible = []
    if h["kind"] == "dez" and seat % 2 == h["dez_team"] and n > 2:
        visible = [{"seat": s, "cards": list(h["hands"][s])}
                   for s in range(seat % 2, n, 2) if s != seat]
    rounds = []
    for r in h["rounds"]:
        rounds.append({
            "leader": r["leader"],
            "plays": [{"seat": s, "card": c if (not cov or s == seat) else None, "covered": cov}
                      for s, c, cov in r["plays"]],
            "result": r["result"],
            "winner": r["winner"],
        })
    pending = h["pending"]
    pending_view = None
    if pending is not None and not finished:
        step = rules.ladder[pending["level"] - 1]
        pending_view = {"asker": pending["asker"], "answerer": pending["answerer"],
                        "name": step.name, "value": step.value}
    next_raise = None
    if h["kind"] == "normal" and h["level"] + (pending is not None) < len(rules.ladder):
        step = rules.ladder[h["level"] + (pending is not None)]
        next_raise = {"name": step.name, "value": step.value}
    return {
        "schema": 1,
        "seat": seat,
        "team": seat % 2,
        "players": n,
        "preset": rules.name,
        "rules": rules.summary(),
        "options": dict(options),
        "game_number": game_number,
        "hand_number": hand_index + 1,
        "dealer": dealer,
        "mao": (dealer + 1) % n,
        "hand_kind": h["kind"],
        "blind": blind,
        "vira": h["vira"] if h["vira_visible"] else None,
        "manilhas": list(rules.manilhas_for(h["vira"] if h["vira_visible"] else None,
                                            options["baralho_limpo"])),
        "exchanged": [{"seat": x["seat"], "cards": list(x["cards"])} for x in h["exchanged"]],
        "signals": [{"seat": x["seat"], "signal": x["signal"]} for x in h["signals"]
                    if x["seat"] % 2 == seat % 2 or seat in x["caught_by"]],
        "may_signal": may_signal,
        "hand": [] if blind else list(h["hands"][seat]),
        "hand_sizes": [len(c) for c in h["hands"]],
        "visible_hands": visible,
        "decision": ({"type": "mao_de_dez", "seat": h["decider"], "team": h["dez_team"]}
                     if h["phase"] == "decide" and not finished else None),
        "dez_team": h["dez_team"],
        "rounds": rounds,
        "hand_value": h["value"],
        "raise_level": h["level"],
        "next_raise": next_raise,
        "pending": pending_view,
        "last_asker_team": h["last_asker_team"],
        "to_move": to_move,
        "legal_actions": legal_actions,
        "score": score,
        "games": list(game.games),
        "series": options["series"],
        "winner": game.winner,
        "abandoned_by": game.abandoned_by,
        "auto_moves": list(game.auto_moves),
        "log": events(game, seat, recent=True),
        "history": history(game, seat),
    }


def history(game: Any, seat: int) -> list[dict]:
    """The public events of the earlier hands of the match (up to :data:`HISTORY_HANDS`
    of them) that the observation's ``log`` no longer holds, cut to what says how each
    seat bets and plays: the same for every seat, except that a covered card is never
    shown. A player who sat at the table saw all of it; it lets a bot built afresh for
    one move read the table the way a person does."""
    log = game.log
    deals = [i for i, e in enumerate(log) if e["type"] == "deal"]
    if len(deals) < 3:
        return []
    end = deals[-2]  # where the observation's log starts
    start = deals[max(0, len(deals) - 2 - HISTORY_HANDS)]
    out = []
    for i in range(start, end):
        e = log[i]
        want = HISTORY_KEYS.get(e["type"])
        if want is None:
            continue
        x = {"type": e["type"]}
        for key in want:
            if key in e:
                x[key] = e[key]
        out.append(x)
    return out


def events(game: Any, seat: int | None = None, recent: bool = False) -> list[dict]:
    """The event log. With ``seat``, as that seat may see it (covered cards hidden from
    everyone but their owner; a signal from all but the sender's partners and the
    opponents who caught it). With ``recent``, only since the previous deal. Each event
    carries ``n``, its position in the whole match's log."""
    log = game.log
    start = 0
    if recent:
        deals = 0
        for i in range(len(log) - 1, -1, -1):
            if log[i]["type"] == "deal":
                deals += 1
                if deals == 2:
                    start = i
                    break
    out = []
    for i in range(start, len(log)):
        e = log[i]
        if seat is not None and e["type"] == "cover" and e["seat"] != seat:
            e = {"type": "cover", "seat": e["seat"], "card": None}
        elif seat is not None and e["type"] == "signal":
            if e["seat"] % 2 != seat % 2 and seat not in e["caught_by"]:
                continue  # a signal is seen by partners, and by an opponent who caught it
            e = {"type": "signal", "seat": e["seat"], "signal": e["signal"]}
        out.append(dict(e, n=i))  # n: the event's place in the match, for the page to diff
    return out


__all__ = ["observation", "finished_hand", "events", "history", "HISTORY_HANDS", "HISTORY_KEYS"]

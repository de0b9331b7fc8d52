"""A finished (or running) match replayed step by step from one seat's point of view.

The replay plays the match again from how it started (:attr:`Game.start`: the
``new_game`` arguments, seed included) with its moves (:attr:`Game.moves`), the very
record a save holds. Every step is what the seat saw at that moment
— :func:`truco.view.observation` and :func:`truco.view.events` of that seat — so covered cards stay
covered and the other seats' unplayed cards never appear (RULES.md §4).

>>> from truco.game import new_game
>>> g = new_game(seed=4, hands=[["4c", "3h", "5s"], ["7h", "2c", "Qd"]], dealer=1)
>>> g.apply("play 5s"); g.apply("play 2c")
>>> steps = replay_steps(g, 0)
>>> [[e["type"] for e in s["events"]] for s in steps]
[['deal'], ['play'], ['play', 'round']]
>>> "Qd" in str(steps)  # the other seat's unplayed card
False
"""

from __future__ import annotations

from typing import Iterator

from .game import Game
from .persist import start_game
from .table import IllegalAction
from .view import finished_hand
from .quote import said

# Fields of an observation the replay does not need at every step (the events are given
# apart; the rules and options do not change during a match and are sent once).
_STATIC = ("rules", "options", "log")


_BEFORE: dict = {}
"""What :func:`_steps` yields, before each move, for the position the move was made in."""


class ReplayError(ValueError):
    """The match does not replay from its start (never for a game built by the engine)."""


def _view(obs: dict) -> dict:
    return {k: v for k, v in obs.items() if k not in _STATIC}


def _finished_table(game: Game, old_hand: dict, seat: int, events: list[dict]) -> dict:
    """The finished hand as ``seat`` saw it for a moment, before the next deal."""
    hand_index, dealer = game.hand_index, game.dealer
    if game.hand is not old_hand:  # the engine has already dealt the next hand: step back
        hand_index -= 1
        dealer = (dealer - 1) % game.players
    score, game_number = list(game.score), game.game_number
    for e in events:
        if e["type"] == "hand":
            score = list(e["score"])  # before a new game of the series resets it
        elif e["type"] == "game":
            game_number = e["game_number"]
    return _view(finished_hand(game, seat, old_hand, hand_index, dealer, score, game_number))


def _steps(saved: Game, seat: int) -> Iterator[tuple[int | None, Game, dict]]:
    """``(move, game, step)``: each step with the index of the move that made it (``None``
    for the first deal) and the game right after it."""
    try:
        game = start_game(type(saved), saved.start)
    except ValueError as exc:
        raise ReplayError(f"the match cannot be started again: {exc}") from None
    yield None, game, {"obs": _view(game.observation(seat)), "events": game.events(seat), "table": None}
    for i, (actor, action) in enumerate(saved.moves):
        yield i, game, _BEFORE  # the position before move i, for decision_hints
        first = len(game.log)
        old_hand = game.hand
        try:
            game.apply(action, seat=actor)
        except IllegalAction as exc:
            raise ReplayError(f"move {i} does not replay: {exc}") from None
        events = [e for e in game.events(seat) if e["n"] >= first]
        if not events:
            continue  # a move this seat did not see (an opponent's signal it did not catch)
        hand_at = next((i for i, e in enumerate(events) if e["type"] == "hand"), None)
        if hand_at is not None and any(e["type"] == "deal" for e in events[hand_at:]):
            # The hand ended and the next was dealt: first the finished table, then the deal.
            deal_at = next(i for i, e in enumerate(events) if e["type"] == "deal" and i > hand_at)
            table = _finished_table(game, old_hand, seat, events[:deal_at])
            yield i, game, {"obs": table, "events": events[:deal_at], "table": True}
            yield i, game, {"obs": _view(game.observation(seat)), "events": events[deal_at:], "table": None}
            continue
        if hand_at is not None:  # the match is over: the engine kept the last hand
            table = _finished_table(game, old_hand, seat, events)
            yield i, game, {"obs": table, "events": events, "table": True}
            continue
        yield i, game, {"obs": _view(game.observation(seat)), "events": events, "table": None}


def replay_steps(saved: Game, seat: int) -> list[dict]:
    """The match as ``seat`` saw it: a list of ``{obs, events, table}`` steps.

    ``obs`` is the seat's observation after the step (without rules, options and log);
    ``events`` the log entries the step added, as the seat saw them; ``table`` is true for
    a finished hand shown before the next deal.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < saved.players:
        raise ValueError(f"seat must be from 0 to {saved.players - 1}, not {said(seat)}")
    return [step for _, _, step in _steps(saved, seat) if step is not _BEFORE]


def decision_hints(saved: Game, seat: int) -> list[dict]:
    """Each decision ``seat`` took in the match, with what the Dica would have said there
    (issue 45: the review of yesterday's challenge).

    A decision is one of the seat's moves on its turn that was one of its legal actions: a
    card, a raise, an answer, a mão de dez (a signal, sent or not, is no decision here, nor
    a move the turn timer made). Each is ``{move, step, hand_number, played, dica, same}``:
    ``move`` its index in the match's moves, ``step`` the index of the :func:`replay_steps`
    step that shows it, ``played`` the action taken, ``dica`` the hint of that position
    (:func:`truco.dica.dica`: the difícil bot's choice and its reason, from the seat's
    observation then and nothing else; the signal left aside, as the decision was not
    one), ``same`` whether they agree.
    """
    from .dica import dica

    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < saved.players:
        raise ValueError(f"seat must be from 0 to {saved.players - 1}, not {said(seat)}")
    out = []
    step = -1
    for move, game, shown in _steps(saved, seat):
        if shown is not _BEFORE:
            step += 1
            continue
        actor, action = saved.moves[move]
        if actor != seat or game.to_move != seat or game.winner is not None:
            continue
        obs = game.observation(seat)
        if action not in obs["legal_actions"]:
            continue  # a signal, or "timeout"
        hint = dica(dict(obs, may_signal=False), game.seed, len(game.log))
        out.append({"move": move, "step": step + 1, "hand_number": obs["hand_number"],
                    "played": action, "dica": hint, "same": hint["action"] == action})
    return out

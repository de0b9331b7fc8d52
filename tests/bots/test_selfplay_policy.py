"""truco_lab.selfplay_policy: difícil with betting from a learnt table (issue 27 prototype)."""

from __future__ import annotations

import dataclasses
import random

from truco import bots
from truco.bots.betting_table import TABLES
from truco.bots.player import LEVEL_SETTINGS
from truco.game import new_game

from truco_lab import selfplay_policy as sp


NO_TABLE = dataclasses.replace(LEVEL_SETTINGS["dificil"], betting_table=False)


def _moves(table: dict, n: int = 40, level=NO_TABLE):
    """``level`` (difícil without its betting table) on both seats of a 1 x 1 game; per
    move, (its action, the TableBot's)."""
    sp.TableBot.table = table
    game = new_game(seed=11, players=2)
    out = []
    while game.to_move is not None and len(out) < n:
        seat = game.to_move
        obs = game.observation(seat)
        rng = f"t:{seat}:{len(game.log)}"
        plain = bots.make(level, random.Random(rng)).choose(obs)
        table_bot = sp.TableBot(sp.variant_settings(), random.Random(rng)).choose(obs)
        out.append((obs, plain, table_bot))
        game.apply(plain, seat=seat)
    sp.TableBot.table = {}
    return out


def test_an_empty_table_is_dificil_exactly_and_an_entry_takes_over():
    moves = _moves({})
    assert any(o.get("pending") for o, _, _ in moves), "the sample must answer a raise"
    assert all(plain == tb for _, plain, tb in moves)
    # the shipped 1 x 1 table in the TableBot is today's difícil, move for move
    assert all(plain == tb for _, plain, tb in _moves(TABLES["mineiro", 2], level="dificil"))
    # every 1 x 1 answer to a truco at any strength, run instead: the answers change
    runs = {f"answer|2|{r}|4|{b}": {"run": 1.0} for r in ("0", "1W", "1L", "1T", "2") for b in range(8)}
    changed = [(o, plain, tb) for o, plain, tb in _moves(runs) if plain != tb]
    assert changed and all(o["pending"]["value"] == 4 and tb == "run" for o, _, tb in changed)


def test_training_with_sinais_signals_as_the_table_bots_do(monkeypatch):
    # issue 44: the table for games with sinais is learnt on games where every seat signals
    # by the table's policy, before each move of the game and of every branched copy
    from truco.signals import signal_to_send

    game = new_game("mineiro", seed="sinais:1", players=4, sinais=True)
    expected = {s: name for s in range(4) if (name := signal_to_send(game.observation(s)))}
    assert expected, "the deal must give a seat a manilha to signal"
    sp._signal(game)
    assert {e["seat"]: e["signal"] for e in game.log if e["type"] == "signal"} == expected
    plain = new_game("mineiro", seed="sinais:1", players=4)
    sp._signal(plain)
    assert not [e for e in plain.log if e["type"] == "signal"], "without sinais nobody signals"
    # a training game with sinais: every decision branched, each option played out
    monkeypatch.setattr(bots, "make", sp._patched_make)
    samples = sp._train_game((4, "sinais:2", {}, 0.0, "medio", 1.0, True))
    assert samples and all(set(returns) >= {cur} for _, cur, returns, _, _ in samples)

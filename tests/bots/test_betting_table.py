"""Difícil's betting tables (truco.bots.betting_table, issue 27), looked up after its own
decision: a state in the table takes the table's action, any other is unchanged; Mineiro
1 x 1 and 2 x 2 each read their own table, other presets none."""

from __future__ import annotations

import dataclasses
import random

import pytest

from truco import bots
from truco.bots import betting_table
from truco.bots.knowledge import read
from truco.bots.player import LEVEL_SETTINGS
from truco.game import new_game

NO_TABLE = dataclasses.replace(LEVEL_SETTINGS["dificil"], betting_table=False)
RUN_FROM_EVERY_TRUCO = {f"answer|{p}|{r}|4|{b}": {"run": 1.0} for p in (2, 4)
                        for r in ("0", "1W", "1L", "1T", "2") for b in range(8)}
"""A table that answers every truco by running, at both table sizes."""


def _moves(players: int, seed: int, n: int, preset: str = "mineiro", **options):
    """Difícil on every seat; per move, (observation, difícil's action, the table-less one's)."""
    game = new_game(preset, seed=seed, players=players, **options)
    out = []
    while game.to_move is not None and len(out) < n:
        seat = game.to_move
        obs = game.observation(seat)
        rng = f"t:{seat}:{len(game.log)}"
        plain = bots.make(NO_TABLE, random.Random(rng)).choose(obs)
        with_table = bots.make("dificil", random.Random(rng)).choose(obs)
        out.append((obs, plain, with_table))
        game.apply(with_table, seat=seat)
    return out


@pytest.mark.parametrize("players, sinais", [(2, False), (4, False), (4, True)])
def test_the_shipped_tables_are_well_formed(players, sinais):
    table = (betting_table.SINAIS_TABLES if sinais else betting_table.TABLES)["mineiro", players]
    assert table, f"difícil ships a table for {players} players"
    assert betting_table.shipped("mineiro", players, sinais) is table
    for key, probs in table.items():
        parts = key.split("|")
        assert len(parts) in (5, 7), key
        if len(parts) == 7:  # a finer entry: cards on the table this round, who is late
            assert parts[5] in ("p0", "p1", "p2", "p3")[:players] and parts[6] in ("00", "01", "10", "11"), key
        kind, key_players, rnd, step, bucket = parts[:5]
        assert kind in ("ask", "answer") and key_players == str(players)
        assert rnd in ("0", "1W", "1L", "1T", "2")
        assert int(step) in (4, 6, 10, 12) and 0 <= int(bucket) <= len(betting_table.P_EDGES)
        options = {"default", "raise", "play"} if kind == "ask" else {"default", "run", "accept", "raise"}
        assert set(probs) <= options and abs(sum(probs.values()) - 1) < 0.01


def test_dificil_2x2_takes_a_table_entry_and_leaves_other_states(monkeypatch):
    # every answer to a truco, run: those answers change, nothing else does
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 4), RUN_FROM_EVERY_TRUCO)
    moves = _moves(4, seed=3, n=60)
    answers = [(o, plain, t) for o, plain, t in moves if (o.get("pending") or {}).get("value") == 4]
    assert answers, "the sample must answer a truco"
    changed = [(o, plain, t) for o, plain, t in moves if plain != t]
    assert changed, "some answer to a truco must differ from difícil's own"
    assert all((o.get("pending") or {}).get("value") == 4 and t == "run" for o, _, t in changed)
    # an empty table is difícil without one, move for move
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 4), {})
    assert all(plain == t for _, plain, t in _moves(4, seed=3, n=60))


def test_a_game_with_sinais_reads_the_table_learnt_with_them(monkeypatch):
    # 2 x 2 with sinais: the sinais table decides, the plain one changes nothing (issue 44)
    monkeypatch.setitem(betting_table.SINAIS_TABLES, ("mineiro", 4), RUN_FROM_EVERY_TRUCO)
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 4), {})
    moves = _moves(4, seed=3, n=60, sinais=True)
    changed = [(o, t) for o, plain, t in moves if plain != t]
    assert changed and all((o.get("pending") or {}).get("value") == 4 and t == "run" for o, t in changed)
    # without sinais the plain table (here empty) is read: difícil's own decisions
    assert all(plain == t for _, plain, t in _moves(4, seed=3, n=60))


def test_a_finer_entry_comes_before_the_coarse_one():
    # at the same coarse state, the finer key (cards on the table, who is late) decides
    game = new_game("mineiro", seed=3, players=4)
    known = read(game.observation(game.to_move))
    fine, coarse = betting_table.state_keys("ask", known, 0.4, 4)
    assert fine.startswith(coarse + "|") and fine.endswith("|p0|00"), fine
    rng = random.Random(1)
    table = {coarse: {"raise": 1.0}, fine: {"play": 1.0}}
    assert betting_table.pick(table, (fine, coarse), "default", ["raise", "play"], rng) == "play"
    del table[fine]
    assert betting_table.pick(table, (fine, coarse), "default", ["raise", "play"], rng) == "raise"
    assert betting_table.pick({}, (fine, coarse), "play", ["raise", "play"], rng) == "play"
    # late in the game (the other team at 8 of 12) is another finer state
    late_game = new_game("mineiro", seed=3, players=4, score=(0, 8) if known.team == 0 else (8, 0))
    late = read(late_game.observation(late_game.to_move))
    assert betting_table.state_keys("ask", late, 0.4, 4) == (coarse + "|p0|10", coarse)


def test_each_table_size_reads_its_own_table(monkeypatch):
    # a 1 x 1 game reads the 1 x 1 table only: the 2 x 2 one's entries change nothing there
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 4), RUN_FROM_EVERY_TRUCO)
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 2), {})
    moves = _moves(2, seed=11, n=60)
    assert any((o.get("pending") or {}).get("value") == 4 for o, _, _ in moves), "the sample must answer a truco"
    assert all(plain == t for _, plain, t in moves)
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 2), RUN_FROM_EVERY_TRUCO)
    changed = [(o, t) for o, plain, t in _moves(2, seed=11, n=60) if plain != t]
    assert changed and all((o.get("pending") or {}).get("value") == 4 and t == "run" for o, t in changed)


def test_other_presets_have_no_table(monkeypatch):
    for players in (2, 4):
        monkeypatch.setitem(betting_table.TABLES, ("mineiro", players), RUN_FROM_EVERY_TRUCO)
    moves = _moves(4, seed=11, n=60, preset="truco473")
    assert any((o.get("pending") or {}).get("value") == 4 for o, _, _ in moves), "the sample must answer a truco"
    assert all(plain == t for _, plain, t in moves)


def test_the_table_is_set_aside_against_a_team_that_never_runs_or_plays_at_random():
    # the tables were learnt against teams that fold weak hands: against one that answered
    # three raises without running (always-accept) they cost difícil 4-6 points
    bot = bots.make("dificil", random.Random(1))
    obs = new_game("mineiro", seed=3, players=4).observation(0)
    known = read(obs)
    them = bot.memory.teams[1 - known.team]
    assert bot._table_fits(known), "a team that has shown nothing is played with the table"
    them.accepts = 2
    assert bot._table_fits(known), "two accepts alone say little"
    them.accepts = 3
    assert not bot._table_fits(known), "three answers, no run: the table is set aside"
    them.accepts, them.counters = 0, 1
    assert not bot._table_fits(known), "a raise back before any run: the table is set aside"
    them.runs = 1
    assert bot._table_fits(known)
    them.follows = them.wastes = 8  # wasting every high card: random play
    assert not bot._table_fits(known)


class _EveryAsk(dict):
    """A table whose every entry for the bot's turn is ``action`` (raise, or play: hold)."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action

    def __bool__(self) -> bool:
        return True  # a table with entries, though it stores none

    def get(self, key, default=None):
        return {self.action: 1.0} if key.startswith("ask|") else default


@pytest.mark.parametrize("p, default, runs, raises", [
    (0.3, False, 0, False),  # a table bluff before the other team has ever run: no
    (0.3, False, 1, True),   # once it has folded a hand, the table's bluff is made
    (0.6, False, 0, True),   # a raise with the better hand is made at once
    (0.3, True, 0, True),    # the bot's own raise is never held back
])
def test_a_table_bluff_waits_until_the_other_team_has_run(monkeypatch, p, default, runs, raises):
    # the tables' bluffs, learnt against teams that fold, cost difícil against one that
    # never does (always-accept) in the first hands, before the gate above can tell
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 4), _EveryAsk("raise"))
    bot = bots.make("dificil", random.Random(1))
    game = new_game("mineiro", seed=3, players=4)
    known = read(game.observation(game.to_move))  # truco may be asked
    bot.memory.teams[1 - known.team].runs = runs
    monkeypatch.setattr(bot, "_raise_by_value", lambda *args: default)
    monkeypatch.setattr(bot, "win_chance", lambda *args: p)
    assert bot._should_raise(known, [], [], []) is raises


@pytest.mark.parametrize("runs, accepts, counters, raises", [
    (0, 0, 0, False),  # nothing shown: the table's hold stands
    (2, 0, 0, False),  # two runs: still held
    (3, 0, 0, True),   # three runs and never a call: difícil's own raise is made
    (3, 1, 0, False),  # a team that has called once may call again: held
    (3, 0, 1, False),
])
def test_a_table_hold_gives_way_against_a_team_that_only_runs(monkeypatch, runs, accepts, counters, raises):
    # the holds were learnt against teams that call with strong hands; against always-run
    # they had put the 2 x 2 row under its bound
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 4), _EveryAsk("play"))
    bot = bots.make("dificil", random.Random(1))
    game = new_game("mineiro", seed=3, players=4)
    known = read(game.observation(game.to_move))
    them = bot.memory.teams[1 - known.team]
    them.runs, them.accepts, them.counters = runs, accepts, counters
    monkeypatch.setattr(bot, "_raise_by_value", lambda *args: True)
    monkeypatch.setattr(bot, "win_chance", lambda *args: 0.6)
    assert bot._should_raise(known, [], [], []) is raises


RUN_FROM_EVERYTHING = {f"answer|{p}|{r}|{s}|{b}": {"run": 1.0} for p in (2, 4)
                       for r in ("0", "1W", "1L", "1T", "2") for s in (4, 6, 10, 12) for b in range(8)}


@pytest.mark.parametrize("seed", range(6))
def test_a_table_never_runs_where_running_loses_the_game(monkeypatch, seed):
    """§5, §7: a table's state lumps spots together, so its "run" may meet a spot where
    running hands the other team the game (4 x 8, seis asked: running gives them 4); there
    difícil plays on, whatever the table says, and runs where running does not lose."""
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 2), RUN_FROM_EVERYTHING)
    g = new_game(seed=4, hands=[["5c", "4h", "6s"], ["4c", "7h", "As"]], dealer=1, score=(4, 8))
    for action in ("raise", "accept", "play 4h", "raise"):
        g.apply(action)
    assert bots.make("dificil", random.Random(seed)).choose(g.observation(0)) != "run"
    g = new_game(seed=4, hands=[["5c", "4h", "6s"], ["4c", "7h", "As"]], dealer=1, score=(4, 4))
    for action in ("raise", "accept", "play 4h", "raise"):
        g.apply(action)
    assert bots.make("dificil", random.Random(seed)).choose(g.observation(0)) == "run"


def test_the_dica_takes_a_mixed_entrys_likeliest_action_where_the_bot_draws(monkeypatch):
    """Issue 44: difícil draws from a mixed entry so its bets cannot be read; the Dica gives
    the entry's likeliest action, the same at every asking."""
    from truco.bots.explain import explain

    g = new_game(seed=4, hands=[["Kd", "6c", "6h"], ["4d", "5s", "6d"]], dealer=1)
    g.apply("raise")
    obs = g.observation(1)
    # three low cards facing truco at 0 x 0: the lowest bucket, where this table mixes
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 2), {"answer|2|0|4|0": {"run": 0.3, "raise": 0.7}})
    drawn = {bots.make("dificil", random.Random(s)).choose(obs) for s in range(40)}
    assert drawn == {"run", "raise"}
    assert {explain(obs, random.Random(s))[0] for s in range(40)} == {"raise"}
    monkeypatch.setitem(betting_table.TABLES, ("mineiro", 2), {"answer|2|0|4|0": {"run": 0.3, "default": 0.7}})
    assert {explain(obs, random.Random(s))[0] for s in range(10)} == {
        bots.make(NO_TABLE, random.Random(0)).choose(obs)}


def test_doctests():
    import doctest

    assert doctest.testmod(betting_table).failed == 0

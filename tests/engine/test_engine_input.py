"""Bad input is refused where it enters, with a ValueError naming the field (issue 28,
item 7: "Validation, not conversion"), and the bot-move fallback the page may ask for.

DESIGN.md, "The engine's public contract": bad input raises a ``ValueError`` that says
what is wrong; RULES.md §2-§3 for what ``judge`` and ``card_order`` answer.
"""

from __future__ import annotations

import json

import pytest

import truco
from truco import api
from helpers.engine import call


ROUND = [{"seat": 0, "card": "4c"}, {"seat": 1, "card": "3h"}]


@pytest.mark.parametrize("seat", [None, [1], 99, -5, 1.0, True, "1"])
def test_judge_refuses_a_seat_that_is_no_seat(seat):
    with pytest.raises(ValueError, match=r"plays\[1\]\.seat"):
        call("judge", plays=[ROUND[0], {"seat": seat, "card": "3h"}])


def test_judge_refuses_a_seat_twice_and_a_covered_flag_that_is_no_flag():
    with pytest.raises(ValueError, match=r"plays\[1\]\.seat"):
        call("judge", plays=[ROUND[0], {"seat": 0, "card": "3h"}])
    with pytest.raises(ValueError, match=r"plays\[1\]\.covered"):
        call("judge", plays=[ROUND[0], {"seat": 1, "card": "3h", "covered": "false"}])
    assert call("judge", plays=ROUND)["winner"] == 0  # the Zap (RULES.md §2)


@pytest.mark.parametrize("preset,vira", [("mineiro", []), ("paulista", []), ("paulista", 5),
                                         ("paulista", {}), ("paulista", "9z")])
def test_card_order_and_judge_refuse_a_vira_that_is_no_card(preset, vira):
    with pytest.raises(ValueError, match="vira"):
        call("card_order", preset=preset, vira=vira)
    with pytest.raises(ValueError, match="vira"):
        call("judge", preset=preset, vira=vira, plays=ROUND)
    with pytest.raises(ValueError, match="baralho_limpo"):
        call("card_order", preset=preset, baralho_limpo="yes")


@pytest.mark.parametrize("field,value", [("players", 2.0), ("players", [2]), ("series", 1.0),
                                         ("timer", 10.0), ("ferro", ["escuro"]), ("score", [2.0, 0]),
                                         ("dealer", 1.0), ("hands", [["4c", "4c", "5c"], ["Kd", "Qd", "Jd"]]),
                                         ("humano_decide", "yes"), ("sinais", "yes"), ("preset", [None]),
                                         ("preset", {})])
def test_new_game_refuses_each_bad_field_by_name(field, value):
    params = {"players": 4 if field in ("humano_decide", "sinais") else 2, field: value}
    with pytest.raises(ValueError, match=field if field != "hands" else "dealt twice"):
        call("new_game", **params)


@pytest.mark.parametrize("depth", [100, 3000, 100_000])
def test_deeply_nested_requests_are_refused_with_a_valueerror(depth):
    """A reply this deep could not cross to the page (issue 28 item 4's blank table);
    Python's own limit must not show as a RecursionError either."""
    nested = "[" * depth + "]" * depth
    with pytest.raises(ValueError, match="nested too deeply"):
        api.handle('{"method": "echo", "params": {"o": ' + nested + '}}')
    with pytest.raises(ValueError, match="nested too deeply|not a Truco"):
        api.handle(json.dumps({"method": "load", "params": {"save": '{"game": ' + nested + "}"}}))
    with pytest.raises(ValueError, match="nested too deeply|not a Truco"):
        truco.Game.from_json(nested)
    assert call("echo", o=[[[1]]]) == {"o": [[[1]]]}


def test_a_save_with_a_log_event_nested_3000_deep_is_refused_and_the_table_kept():
    from test_saves_v1 import FIXTURES

    playing = call("new_game", seed=2, players=2)
    data = json.loads((FIXTURES / "three_by_three.json").read_text())
    data["game"]["log"][-1]["card"] = "DEEP"
    text = json.dumps(data).replace('"DEEP"', "[" * 3000 + "1" + "]" * 3000)
    with pytest.raises(ValueError):
        call("load", save=text)
    assert call("observation") == playing


def test_a_bot_error_is_raised_unless_the_page_asks_for_the_fallback(monkeypatch):
    """The page may ask bot_step for a fallback (a seeded legal move, reported in the
    reply) so a failing bot never blocks its table; tests, the arena and the fuzzers do
    not ask, and any error fails them."""
    from truco.bots.player import HeuristicBot

    call("new_game", seed=4, players=2, dealer=0, level="dificil")  # seat 1 moves first
    before = call("observation")

    def broken(self, obs):
        raise KeyError("zz")

    monkeypatch.setattr(HeuristicBot, "choose", broken)
    with pytest.raises(KeyError):
        call("bot_step")
    assert call("observation") == before
    with pytest.raises(ValueError, match="fallback"):
        call("bot_step", fallback="yes")
    first = call("bot_step", fallback=True)
    assert first["fallback"]["seat"] == 1 and first["fallback"]["error"] == "KeyError: 'zz'"
    assert first["fallback"]["action"] in api._session.game.moves[-1]
    call("load", save=before["save"])
    assert first["fallback"]["action"] in api._session.game.legal_actions()
    call("load", save=before["save"])
    assert call("bot_step", fallback=True) == first  # seeded: a reload makes the same move
    monkeypatch.undo()
    call("load", save=before["save"])
    assert "fallback" not in call("bot_step", fallback=True)

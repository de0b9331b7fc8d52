"""Saves written before saves became moves still resume (issue 28, "A save is how the
match started plus its moves").

tests/fixtures/saves_v1/ holds saves written by the engine of commit 9233a73 (the game's
internal state, 17 keys; see generate.py there): a pending raise, a mão de dez, a mão de
ferro no escuro, a series, paulista with a vira, 3 x 3, signals (a bluffed one among
them), the timer, house rules, fixed deals and a finished match. Each one loads through
the converter (its start read from the table's record or the first deal, its moves from
the log, replayed through the rules, the state reached compared with the saved one) and
plays on to the end of the match. RULES.md §5-§9 for the moments; DESIGN.md for the save.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import truco
from truco import api
from helpers.engine import call

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saves_v1"
SESSIONS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.startswith("game_"))
GAMES = sorted(FIXTURES.glob("game_*.json"))


def play_on(reply, rng, limit=3000):
    """To the end of the match, with the Dica and the partner's opinion at each human turn."""
    for _ in range(limit):
        obs = reply["observation"]
        if obs["winner"] is not None:
            return reply
        if obs["to_move"] == obs["seat"]:
            assert call("hint")["action"]
            call("partner_opinion")
            reply = call("apply", action=rng.choice(obs["legal_actions"]))
        else:
            reply = call("bot_step")
    raise AssertionError("the match did not end")


def test_every_kind_of_moment_is_kept_as_a_fixture():
    names = {p.stem for p in SESSIONS}
    for want in ("pending_raise", "mao_de_dez", "mao_de_ferro", "series3", "paulista_vira",
                 "three_by_three", "signals", "timer"):
        assert any(want in n for n in names), want
    for p in SESSIONS + GAMES:
        data = json.loads(p.read_text())
        assert (data.get("game") or data)["version"] == 1


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.stem)
def test_a_version_1_table_save_loads_and_plays_to_the_end(path):
    text = path.read_text().strip()
    old = json.loads(text)
    reply = call("load", save=text)
    obs = reply["observation"]
    game = old["game"]
    assert obs["score"] == game["score"] and obs["hand_number"] == game["hand_index"] + 1
    assert obs["hand"] == ([] if game["hand"]["blind"] else game["hand"]["hands"][old["human_seat"]])
    assert api._session.game.state_dict() == {**game, "engine": truco.__version__}
    new = json.loads(reply["save"])
    assert new["version"] == 2 and new["game"]["version"] == 2  # written anew as start + moves
    assert call("load", save=reply["save"])["observation"] == obs
    if obs["winner"] is None:
        final = play_on(reply, random.Random(path.stem))
    else:
        final = reply
    assert final["observation"]["winner"] is not None
    steps = call("replay")["steps"]
    assert steps[-1]["obs"]["winner"] == final["observation"]["winner"]
    assert call("share")["seed"] == game["seed"]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_version_1_game_dump_loads_with_game_from_json_and_plays_on(path):
    data = json.loads(path.read_text())
    g = truco.Game.from_json(path.read_text())
    assert g.state_dict() == {**data, "engine": truco.__version__}
    assert truco.Game.from_json(g.to_json()).to_json() == g.to_json()
    rng = random.Random(1)
    while g.to_move is not None:
        g.apply(rng.choice(g.legal_actions()))


def _session_fixture(name):
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.mark.parametrize("tamper,words", [
    # issue 28 item 5: a card that is no card, in the last play
    (lambda g: [e for e in g["log"] if e["type"] == "play"][-1].update(card="zz"), "not a card"),
    # item 6: a log of one bare 'cover'
    (lambda g: g.update(log=[{"type": "cover"}]), "first deal"),
    (lambda g: g["log"].append({"type": "cover", "seat": 0}), r"log\[\d+\]"),
    (lambda g: g["hand"].update(value=4), "hand.value"),
    (lambda g: g["hand"].update(vira={}), "hand.vira"),
    (lambda g: g["hand"].update(vira=[1]), "hand.vira"),
    (lambda g: g.update(preset=[None]), "unknown preset"),
    (lambda g: g.update(preset={}), "unknown preset"),
    (lambda g: g.update(score=[g["score"][0] + 2, g["score"][1]]), "score"),
    (lambda g: g["log"].insert(3, dict(g["log"][3])), r"log\[[34]\]"),
])
def test_a_tampered_version_1_save_is_refused_and_the_table_in_play_is_kept(tamper, words):
    playing = call("new_game", seed=9, players=2)
    data = _session_fixture("series3_2x2")
    tamper(data["game"])
    with pytest.raises(ValueError, match=words):
        call("load", save=json.dumps(data))
    assert call("observation") == playing
    call("bot_step") if playing["observation"]["to_move"] != 0 else call(
        "apply", action=playing["observation"]["legal_actions"][0])


def test_a_version_1_save_without_its_table_start_is_read_from_its_first_deal():
    """Saves from before the table kept its start: the first deal is the seeded one (or,
    still in the first hand, the one its state shows), the score and dealer the log's."""
    for name in ("series3_2x2", "scenario_vira_first_hand_paulista_1x1", "three_by_three"):
        data = _session_fixture(name)
        del data["start"]
        obs = call("load", save=json.dumps(data))["observation"]
        assert obs["hand_number"] == data["game"]["hand_index"] + 1
        assert call("replay")["steps"]
    data = _session_fixture("scenario_fixed_deal_1x1")  # a fixed deal that is over: not recorded
    del data["start"]
    with pytest.raises(ValueError, match="does not hold"):
        call("load", save=json.dumps(data))

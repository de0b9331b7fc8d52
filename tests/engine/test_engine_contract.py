"""The engine's public contract (DESIGN.md): notation, errors, saves, determinism, schema."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

import truco
from truco import IllegalAction, new_game
from truco.game import deal_for
from helpers.engine import call

SCHEMA = json.loads((Path(truco.__file__).parent / "observation.schema.json").read_text())


def random_actions(game, rng, n):
    for _ in range(n):
        if game.to_move is None:
            return
        game.apply(rng.choice(game.legal_actions()))


# Notation and errors ---------------------------------------------------------------
@pytest.mark.parametrize("action,words", [
    ("play 9z", ["'play 9z'", "'9z' is not a card"]),
    ("dance", ["'dance'", "not an action"]),
    ("accept", ["nothing to answer"]),
    ("run", ["nothing to answer"]),
    ("play 4c", ["does not hold 4c"]),
    ("play #1", ["only in a blind hand"]),
    ("play", ["not an action"]),
])
def test_bad_actions_raise_a_valueerror_that_quotes_the_input_and_change_nothing(action, words):
    g = new_game(hands=[["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], dealer=1, seed=1)
    before = g.to_json()
    with pytest.raises(ValueError) as err:
        g.apply(action)
    assert isinstance(err.value, IllegalAction)
    for w in words:
        assert w in str(err.value)
    assert g.to_json() == before


def test_an_action_out_of_turn_is_refused():
    g = new_game(hands=[["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], dealer=1, seed=1)
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        g.apply("play 2h", seat=1)


def test_parse_card_round_trips_and_names_cards_in_portuguese():
    for c in truco.DECK:
        assert truco.parse_card(c) == c
    assert truco.card_name("As") == "ás de espadas"
    with pytest.raises(truco.CardError, match="'10h' is not a card"):
        truco.parse_card("10h")


@pytest.mark.parametrize("kwargs,words", [
    ({"score": (3, 0)}, "cannot be reached"),
    ({"score": (12, 0)}, "already ends the game"),
    ({"score": (-2, 0)}, "whole numbers"),
    ({"vira": "Kd"}, "has no vira"),
    ({"players": 3}, "players must be 2, 4 or 6"),
    ({"series": 2}, "series must be 1, 3 or 5"),
    ({"ferro": "meia-luz"}, "ferro must be"),
    ({"colour": "red"}, "unknown option"),
    ({"dealer": 5}, "dealer must be"),
    ({"hands": [["4c", "4c", "5c"], ["6c", "7c", "Qc"]]}, "dealt twice"),
    ({"hands": [["4c", "5c"], ["6c", "7c", "Qc"]]}, "must be 3 cards"),
    ({"hands": [["4c", "5c", "9z"], ["6c", "7c", "Qc"]]}, "'9z' is not a card"),
])
def test_new_game_refuses_impossible_setups(kwargs, words):
    with pytest.raises(ValueError, match=words):
        new_game(seed=1, **kwargs)


# Determinism -----------------------------------------------------------------------
def test_same_seed_and_actions_replay_exactly():
    a, b = new_game(players=4, seed=77), new_game(players=4, seed=77)
    random_actions(a, random.Random(5), 200)
    random_actions(b, random.Random(5), 200)
    assert a.to_json() == b.to_json()


def test_the_deal_of_hand_k_depends_only_on_seed_and_k():
    a, b = new_game(seed=31), new_game(seed=31)
    random_actions(a, random.Random(1), 60)
    random_actions(b, random.Random(2), 60)
    for g in (a, b):
        first_cards = g.hand["hands"][0] + [p[1] for r in g.hand["rounds"] for p in r["plays"] if p[0] == 0]
        assert set(first_cards) == set(deal_for(31, g.hand_index, 2)[0])


def test_a_resumed_game_deals_the_same_next_hand():
    g = new_game(seed=8)
    random_actions(g, random.Random(3), 15)
    resumed = truco.Game.from_json(g.to_json())
    g.apply("raise") if "raise" in g.legal_actions() else None
    for game in (g, resumed):
        while game.hand_index < 5 and game.to_move is not None:
            game.apply("run" if "run" in game.legal_actions() else "raise" if "raise" in game.legal_actions() else game.legal_actions()[0])
    assert g.hand["hands"] == resumed.hand["hands"]


# Saves -----------------------------------------------------------------------------
def test_to_json_is_deterministic_text_and_round_trips():
    g = new_game(players=4, seed=12, series=3)
    random_actions(g, random.Random(12), 40)
    text = g.to_json()
    assert text == g.to_json()
    back = truco.Game.from_json(text)
    assert back.to_json() == text
    for seat in range(4):
        assert back.observation(seat) == g.observation(seat)


@pytest.mark.parametrize("mutate,words", [
    (lambda d: "not json{", "must be JSON"),
    (lambda d: json.dumps({"hello": "world"}), "not a Truco game"),
    (lambda d: json.dumps([1, 2]), "not a Truco game"),
    (lambda d: json.dumps({**d, "version": 99}), "unsupported version"),
    (lambda d: json.dumps({**d, "preset": "xadrez"}), "unknown preset"),
    (lambda d: json.dumps({**d, "score": [5, "x"]}), "score"),
    (lambda d: json.dumps({**d, "hand": {**d["hand"], "hands": [["4c", "4c", "5c"], d["hand"]["hands"][1]]}}), "appears twice"),
    (lambda d: json.dumps({**d, "hand": {**d["hand"], "hands": [["9z", "4c", "5c"], d["hand"]["hands"][1]]}}), "not a card"),
    (lambda d: json.dumps({**d, "hand": {**d["hand"], "value": 10}}), "hand.value"),
    (lambda d: json.dumps({k: v for k, v in d.items() if k != "log"}), "missing"),
])
def test_corrupt_or_foreign_saves_raise_a_valueerror_saying_what_is_wrong(mutate, words):
    """Version-1 saves (the internal state, still read through the converter)."""
    g = new_game(hands=[["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], dealer=1, seed=1)
    assert truco.Game.from_json(json.dumps(g.state_dict())).to_json() == g.to_json()
    bad = mutate(g.state_dict())
    with pytest.raises(ValueError, match=words):
        truco.Game.from_json(bad)


@pytest.mark.parametrize("mutate,words", [
    (lambda d: json.dumps({**d, "version": 3}), "unsupported version"),
    (lambda d: json.dumps({**d, "start": {**d["start"], "preset": "xadrez"}}), "start: unknown preset"),
    (lambda d: json.dumps({**d, "start": {**d["start"], "preset": [None]}}), "start: unknown preset"),
    (lambda d: json.dumps({**d, "start": {**d["start"], "players": 2.0}}), "players must be"),
    (lambda d: json.dumps({**d, "start": {**d["start"], "score": [5, "x"]}}), "score"),
    (lambda d: json.dumps({**d, "start": {**d["start"], "dealer": None}}), "canonical"),
    (lambda d: json.dumps({**d, "start": {k: v for k, v in d["start"].items() if k != "vira"}}), "missing"),
    (lambda d: json.dumps({**d, "moves": d["moves"] + [[0, "play 9z"]]}), r"moves\[2\].*not a card"),
    (lambda d: json.dumps({**d, "moves": d["moves"] + [[1, "play Kc"]]}), r"moves\[2\].*seat 0's turn"),
    (lambda d: json.dumps({**d, "moves": [[1, "play 2h"]]}), r"moves\[0\].*seat 0's turn"),
    (lambda d: json.dumps({**d, "moves": [[0, "play 3c"], [0, "play Kh"]]}), r"moves\[1\].*seat 1's turn"),
    (lambda d: json.dumps({**d, "moves": [[False, "play 3c"]]}), r"moves\[0\]: seat False"),
    (lambda d: json.dumps({**d, "moves": [[0, ["play 3c"]]]}), r"moves\[0\] must be"),
    (lambda d: json.dumps({**d, "moves": {"0": "play 3c"}}), "moves must be a list"),
    (lambda d: "[" * 5000 + "]" * 5000, "nested too deeply"),
])
def test_corrupt_saves_are_refused_by_the_rules_naming_the_move_or_field(mutate, words):
    """A save is its start and moves (DESIGN.md, "The engine's public contract"): loading
    replays the moves, so a tampered move is refused by the rule it breaks."""
    g = new_game(hands=[["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], dealer=1, seed=1)
    g.apply("play 3c")
    g.apply("play 2h")
    bad = mutate(json.loads(g.to_json()))
    with pytest.raises(ValueError, match=words):
        truco.Game.from_json(bad)


# Observation schema ---------------------------------------------------------------
def test_observations_match_the_committed_json_schema():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    rng = random.Random(4)
    for preset in truco.PRESETS:
        for players in (2, 4):
            g = new_game(preset, players=players, seed=rng.randrange(10**6), score=(10, 10) if players == 4 else (0, 10))
            while g.to_move is not None:
                for seat in range(players):
                    validator.validate(g.observation(seat))
                g.apply(rng.choice(g.legal_actions()))
            validator.validate(g.observation(0))


def test_observation_keys_are_exactly_the_documented_ones():
    obs = new_game(seed=1).observation(0)
    assert set(obs) == set(SCHEMA["properties"]) == set(SCHEMA["required"])


# The worker's JSON facade ----------------------------------------------------------
def test_api_session_plays_and_saves_without_leaking(monkeypatch):
    reply = call("new_game", seed=5, players=2, hands=[["3c", "Kh", "5d"], ["2h", "Kc", "4s"]], dealer=0)
    obs = reply["observation"]
    assert obs["seat"] == 0 and obs["to_move"] == 1
    assert "2h" not in json.dumps(obs)
    with pytest.raises(IllegalAction):
        call("apply", action="play 3c")  # not the human's turn
    saved = reply["save"]
    assert call("load", save=saved)["observation"] == obs
    with pytest.raises(ValueError, match="not JSON|not a Truco"):
        call("load", save="garbage")
    assert call("observation")["observation"] == obs, "a bad load leaves the session as it was"


def test_api_judge_and_card_order_answer_lessons_from_the_rules():
    # §2: Pica-fumo (7 de ouros) is a manilha and beats a 3; equal common cards tie.
    assert call("judge", plays=[{"seat": 0, "card": "3c"}, {"seat": 1, "card": "7d"}])["winner"] == 1
    assert call("judge", plays=[{"seat": 0, "card": "3c"}, {"seat": 1, "card": "3h"}])["result"] == "tie"
    # §9: with the vira Kd the aces are the manilhas.
    assert call("judge", preset="paulista", vira="Kd",
                plays=[{"seat": 0, "card": "Ad"}, {"seat": 1, "card": "3c"}])["winner"] == 0
    order = call("card_order")
    assert order["groups"][:4] == [["4c"], ["7h"], ["As"], ["7d"]]
    assert len(order["groups"]) == 14 and sum(map(len, order["groups"])) == 40
    with pytest.raises(ValueError, match="distinct"):
        call("judge", plays=[{"seat": 0, "card": "3c"}, {"seat": 1, "card": "3c"}])

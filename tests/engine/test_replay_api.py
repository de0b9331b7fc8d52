"""The hand review, the replay and the shared link, from the engine's side (issue #12):
`replay` is the match as the human saw it — covered cards stay covered and the other
seats' unplayed cards never appear (RULES.md §4) — and `share` gives what reproduces
every deal, only once the match is over."""

from __future__ import annotations

import doctest
import json
import random

import pytest

import truco
import truco.replay
from truco.game import deal_for
from helpers.engine import call


def play_match(seed, players=2, cover_often=True, rng_seed=0, limit=600, **options):
    """The human plays random legal moves (covering when it may), the bots play theirs."""
    rng = random.Random(rng_seed)
    reply = call("new_game", seed=seed, players=players, level="dificil", **options)
    for _ in range(limit):
        o = reply["observation"]
        if o["winner"] is not None:
            return reply
        if o["to_move"] == o["seat"]:
            legal = o["legal_actions"]
            covers = [a for a in legal if a.startswith("cover ")]
            reply = call("apply", action=rng.choice(covers) if covers and cover_often and rng.random() < 0.6 else rng.choice(legal))
        else:
            reply = call("bot_step")
    raise AssertionError("the match did not end")


def hidden_now(obs, seed):
    """Cards of the other seats the human may not see in this view (the deal is the seed's)."""
    hands = deal_for(seed, obs["hand_number"] - 1, obs["players"])
    face_up = {p["card"] for r in obs["rounds"] for p in r["plays"] if p["card"] and not p["covered"]}
    shown = {c for v in obs["visible_hands"] for c in v["cards"]}
    return {c for s, h in enumerate(hands) if s != obs["seat"] for c in h} - face_up - shown


def text_without_rules(step):
    # manilhas name cards of the rules; history names the cards played face up in earlier
    # hands (checked by the engine's invariants), which may be dealt again now.
    o = {k: v for k, v in step["obs"].items() if k not in ("manilhas", "history")}
    return json.dumps({"obs": o, "events": step["events"]})


@pytest.mark.parametrize("seed,players,options", [(41, 2, {}), (42, 4, {"sinais": True}), (43, 4, {"series": 3})])
def test_replay_shows_no_hidden_card_at_any_step(seed, players, options):
    final = play_match(seed, players, **options)
    log = final["observation"]["log"]
    steps = call("replay")["steps"]
    assert steps[0]["events"][0]["type"] == "deal"
    for i, step in enumerate(steps):
        text = text_without_rules(step)
        for c in hidden_now(step["obs"], seed):
            assert f'"{c}"' not in text, f"step {i}: hidden card {c} shown"
        for e in step["events"]:
            if e["type"] == "cover" and e["seat"] != 0:
                assert e["card"] is None, "another seat's covered card stays covered (§4)"
        for r in step["obs"]["rounds"]:
            for p in r["plays"]:
                if p["covered"] and p["seat"] != 0:
                    assert p["card"] is None
    # The replay is the whole match: its events are the human's log, in order.
    n = [e["n"] for s in steps for e in s["events"]]
    assert n == sorted(n) and n[-1] == log[-1]["n"]
    assert steps[-1]["obs"]["winner"] == final["observation"]["winner"]


@pytest.mark.parametrize("players,options", [(2, {}), (4, {"sinais": True})])
def test_replay_steps_are_what_the_human_saw_and_end_hands_on_the_table(players, options):
    final = play_match(44, players, **options)
    steps = call("replay")["steps"]
    history = call("history")["log"]
    # The human's history: an opponent's signal the human did not catch is not in it.
    assert [e for s in steps for e in s["events"]] == history, "the replay's events are the human's history"
    tables = [s for s in steps if s["table"]]
    hands = [e for e in history if e["type"] == "hand"]
    assert len(tables) == len(hands), "each finished hand is shown once before the next deal"
    for s in tables:
        hand_event = next(e for e in s["events"] if e["type"] == "hand")
        assert s["obs"]["score"] == hand_event["score"]
        assert [r["result"] for r in s["obs"]["rounds"] if r["result"] is not None] == hand_event["rounds"]
        assert s["obs"]["to_move"] is None and s["obs"]["legal_actions"] == []
    # The human's own hand is shown at every step, as dealt (minus what was played), but in
    # a mão de ferro in the dark, where nobody sees their own cards (RULES.md §6).
    deal_steps = [s for s in steps if s["events"] and s["events"][0]["type"] == "deal"]
    for s in deal_steps:
        o = s["obs"]
        dealt = deal_for(44, o["hand_number"] - 1, players)[0]
        assert o["hand"] == ([] if o["blind"] else dealt)
        assert o["hand_sizes"][0] == 3
    assert final["observation"]["winner"] is not None


def test_replay_of_a_saved_match_leaves_the_game_in_play_alone():
    final = play_match(45, 2)
    save = final["save"]
    call("new_game", seed=9, players=2)
    playing = call("observation")["observation"]
    steps = call("replay", save=save)["steps"]
    assert steps[-1]["obs"]["winner"] is not None
    assert call("observation")["observation"] == playing


def test_replay_refuses_a_save_whose_log_does_not_follow_from_its_start():
    """The save is the match's start and moves: other deals (another seed) make a saved
    move impossible, and the rules refuse it (issue 28: saves as moves)."""
    final = play_match(46, 2)
    data = json.loads(final["save"])
    data["start"]["seed"] = 47  # the table's record of its start disagrees with the game
    with pytest.raises(ValueError, match="not how its game started"):
        call("replay", save=json.dumps(data))
    data = json.loads(final["save"])
    data["game"]["start"]["seed"] = 47  # other deals: the saved moves are not possible any more
    del data["start"]
    with pytest.raises(ValueError, match=r"moves\[\d+\].*breaks the rules"):
        call("replay", save=json.dumps(data))
    data = json.loads(final["save"])
    del data["start"]  # the game itself says how it started: the replay needs nothing else
    assert call("replay", save=json.dumps(data))["steps"] == call("replay", save=final["save"])["steps"]


def test_share_only_after_the_match_and_it_reproduces_every_deal():
    call("new_game", seed=48, players=4, level="facil")
    with pytest.raises(ValueError, match="over"):
        call("share")
    final = play_match(48, 4, rng_seed=1)
    shared = call("share")
    assert shared["seed"] == 48 and shared["players"] == 4 and shared["preset"] == "mineiro"
    # A friend opens the link and plays differently: every deal both reach is the same.
    game = truco.new_game(shared["preset"], players=shared["players"], seed=shared["seed"],
                          **shared["options"], **shared["scenario"])
    rng = random.Random(99)
    for k in range(8):
        assert game.hand["hands"] == deal_for(48, game.hand_index, 4)
        assert game.hand_index == k
        while game.hand_index == k and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            break


def test_share_keeps_a_fixed_first_deal_and_score():
    hands = [["4c", "3h", "5s"], ["7h", "2c", "Qd"]]
    call("new_game", seed=50, players=2, hands=hands, dealer=1, score=[10, 4])
    for _ in range(200):
        o = call("observation")["observation"]
        if o["winner"] is not None:
            break
        if o["to_move"] == 0:
            call("apply", action=o["legal_actions"][0])
        else:
            call("bot_step")
    shared = call("share")
    assert shared["scenario"] == {"hands": hands, "dealer": 1, "score": [10, 4]}


def test_the_module_examples():
    assert doctest.testmod(truco.replay).failed == 0

"""`set_humans` (issue #31, friends' table): a guest whose device dropped is played by a bot
until it rejoins, and its seat is given back; the save keeps who plays what."""

from __future__ import annotations

import json

import pytest

from truco import api
from truco import IllegalAction


def call(method, **params):
    return json.loads(api.handle(json.dumps({"method": method, "params": params})))


def to_seat(seat):
    """Let the bots play (the host plays its first card) until `seat` is to move."""
    for _ in range(40):
        obs = call("observation")["observation"]
        if obs["to_move"] == seat:
            return
        if obs["to_move"] == 0:
            call("apply", action=[a for a in obs["legal_actions"] if a.startswith("play")][0])
        else:
            call("bot_step")
    raise AssertionError(f"seat {seat} never came to move")


def test_a_dropped_guest_seat_is_played_by_a_bot_and_given_back():
    call("new_game", players=4, humans=[0, 1], seed=11)
    to_seat(1)
    with pytest.raises(IllegalAction):
        call("bot_step")  # seat 1 is a person's: no bot moves for it
    reply = call("set_humans", humans=[0])
    assert reply["observation"]["seat"] == 0
    n = len(reply["observation"]["log"])
    moved = call("bot_step")["observation"]  # now its bot plays
    assert moved["log"][n]["seat"] == 1
    call("set_humans", humans=[0, 1])
    to_seat(1)
    with pytest.raises(IllegalAction):
        call("bot_step")
    assert call("observation", seat=1)["observation"]["seat"] == 1


def test_the_save_keeps_the_seats_and_bad_lists_are_refused():
    save = call("new_game", players=4, humans=[0, 2], seed=3)["save"]
    save = call("set_humans", humans=[0])["save"]
    call("load", save=save)
    with pytest.raises(ValueError):
        call("observation", seat=2)  # seat 2 is a bot's now
    for bad in ([2], [], [0, 0], [0, 9], "02", [0, True], None):
        with pytest.raises(ValueError):
            call("set_humans", humans=bad)
    assert call("set_humans", humans=[0, 1, 2, 3])["observation"]["seat"] == 0


def test_apart_people_may_signal_to_their_human_partner_and_the_save_keeps_it():
    """At a friends' table (`apart`), human partners may trade sinais (each on their own
    device); sharing one screen they may not."""
    shared = call("new_game", players=4, humans=[0, 2], seed=5, sinais=True)
    assert not shared["observation"]["may_signal"]
    reply = call("new_game", players=4, humans=[0, 2], seed=5, sinais=True, apart=True)
    assert reply["observation"]["may_signal"]
    call("apply", action="signal zap", seat=2)
    partner = call("observation", seat=0)["observation"]
    assert any(s["seat"] == 2 for s in partner["signals"])
    assert '"apart":true' in call("observation")["save"]
    call("load", save=call("observation")["save"])
    assert call("observation", seat=0)["observation"]["may_signal"]  # still apart once loaded
    with pytest.raises(ValueError):
        call("new_game", players=4, humans=[0, 2], apart="yes")

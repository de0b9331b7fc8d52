"""`set_humans` (issue #31, friends' table): a guest whose device dropped is played by a bot
until it rejoins, and its seat is given back; the save keeps who plays what."""

from __future__ import annotations


import pytest

from truco import IllegalAction
from helpers.engine import call


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


def test_humano_decide_at_a_friends_table_each_lone_person_decides_for_their_bots():
    """A friends' table (`apart`) with humano decide: host at 0, a guest at 1, bots at 2 and
    3. In the guest's team's mão de dez the rules give the decision to bot 3 (it plays first
    for the team); the guest (seat 1) takes it, sees its partner's cards and hears its bot's
    opinion; the host's view holds none of team 1's cards. The save keeps it."""
    # Dealer 1: o mão is seat 2, so team 1's first to play is seat 3 (a bot).
    reply = call("new_game", players=4, humans=[0, 1], seed=5, score=[8, 10], dealer=1,
                 humano_decide=True, apart=True, sinais=False)
    obs = reply["observation"]
    assert obs["options"]["humano_decide"] == [0, 1]
    guest = call("observation", seat=1)["observation"]
    assert guest["decision"] == {"type": "mao_de_dez", "seat": 1, "team": 1}
    assert guest["to_move"] == 1 and set(guest["legal_actions"]) == {"accept", "run"}
    assert [v["seat"] for v in guest["visible_hands"]] == [3]
    assert obs["visible_hands"] == [] and obs["hand"] and not obs["legal_actions"]
    opinion = call("partner_opinion", seat=1)
    assert opinion["seat"] == 3 and opinion["action"] in ("accept", "run")
    assert call("partner_opinion")["seat"] is None  # the host is not the one deciding now
    with pytest.raises(IllegalAction):
        call("bot_step")  # no bot decides for team 1: its person does
    save = call("set_humans", humans=[0])["save"]  # the guest drops: its bot decides meanwhile
    assert call("bot_step")["observation"]["decision"] is None
    call("load", save=save)
    assert call("observation")["observation"]["options"]["humano_decide"] == [0, 1]


def test_humano_decide_between_two_human_partners_apart_each_decides_for_themselves():
    """Partners who are both people (seats 0 and 2, each at a device of their own): no seat
    decides for the other; the rules' decider (a person) decides, and each sees the other's
    hand in the mão de dez, as the rules allow."""
    reply = call("new_game", players=4, humans=[0, 2], seed=5, score=[10, 4], dealer=0,
                 humano_decide=True, apart=True)
    assert reply["observation"]["options"]["humano_decide"] is None
    host, partner = (call("observation", seat=s)["observation"] for s in (0, 2))
    assert host["decision"]["seat"] == 2 and partner["to_move"] == 2  # o mão (seat 1) is an opponent
    assert host["visible_hands"] == [{"seat": 2, "cards": partner["hand"]}]
    assert partner["visible_hands"] == [{"seat": 0, "cards": host["hand"]}]
    from truco import new_game

    assert new_game(players=4, seed=5, humano_decide=[3, 0]).options["humano_decide"] == [0, 3]
    for bad in ([0, 2], [0, 1, 3], [True], [], [0, 7]):  # one seat a team at most, real seats
        with pytest.raises(ValueError):
            new_game(players=4, seed=5, humano_decide=bad)
    with pytest.raises(ValueError):  # one screen shared by several people: still refused
        call("new_game", players=4, humans=[0, 1], seed=5, humano_decide=True)


def test_humano_decide_at_a_friends_table_a_raise_aimed_at_a_bot_is_answered_by_its_partner():
    """A truco from the guest (seat 1) is aimed at the next seat, bot 2: with humano decide
    the host (seat 0, bot 2's partner) answers it, as in a bot match."""
    call("new_game", players=4, humans=[0, 1], seed=11, dealer=0, humano_decide=True, apart=True)
    obs = call("observation", seat=1)["observation"]
    assert obs["to_move"] == 1 and "raise" in obs["legal_actions"]
    call("apply", action="raise", seat=1)
    host = call("observation")["observation"]
    assert host["pending"]["answerer"] == 0 and host["to_move"] == 0
    assert call("partner_opinion")["seat"] == 2

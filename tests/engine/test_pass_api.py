"""Pass-and-play from the engine's side (issue #31): a table session with several human
seats answers each request from the view of the seat it names (``seat``), or with
``seat: null`` the public view that holds no seat's hidden card; bots never move for a
human seat; sinais are off between human partners; the save keeps the humans."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import truco

from truco import IllegalAction
from truco.game import deal_for
from helpers.engine import call


def others_unplayed(obs, seed, seat=None):
    """The cards dealt to the other seats this hand that are not face up on the table."""
    hands = deal_for(seed, obs["hand_number"] - 1, obs["players"])
    face_up = {p["card"] for r in obs["rounds"] for p in r["plays"] if p["card"] and not p["covered"]}
    me = obs["seat"] if seat is None else seat
    shown = {c for v in obs["visible_hands"] for c in v["cards"]}  # a partner's, at mão de dez
    return {c for s, h in enumerate(hands) if s != me for c in h} - face_up - shown


def play_to_the_end(seed, players, humans, limit=400, **options):
    """Each human plays its first legal action on its own view; the bots step. Returns the
    last reply and every observation the page was given."""
    reply = call("new_game", seed=seed, players=players, humans=humans, seat=None, level="facil", **options)
    seen = [(None, reply["observation"])]
    for _ in range(limit):
        o = reply["observation"]
        if o["winner"] is not None:
            return reply, seen
        mover = o["to_move"]
        if mover in humans:
            mine = call("observation", seat=mover)["observation"]
            seen.append((mover, mine))
            assert mine["legal_actions"], "the seat to move has legal actions in its own view"
            reply = call("apply", seat=mover, action=mine["legal_actions"][0])
            seen.append((mover, reply["observation"]))
        else:
            reply = call("bot_step", seat=humans[0])
            seen.append((humans[0], reply["observation"]))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed,players,humans", [(11, 2, [0, 1]), (12, 4, [0, 2]), (13, 4, [0, 1])])
def test_a_pass_and_play_match_ends_and_each_view_holds_only_its_seats_cards(seed, players, humans):
    final, seen = play_to_the_end(seed, players, humans, **({"sinais": True} if players == 4 else {}))
    assert final["observation"]["winner"] in (0, 1)
    for seat, obs in seen:
        hidden = others_unplayed(obs, seed, seat=obs["seat"])
        text = json.dumps({k: v for k, v in obs.items() if k not in ("manilhas", "history", "rules")})
        if seat is None:  # the public view: nobody's card that is not face up
            hands = deal_for(seed, obs["hand_number"] - 1, obs["players"])
            assert obs["hand"] == [] and obs["visible_hands"] == [] and obs["legal_actions"] == []
            hidden = {c for h in hands for c in h} - {p["card"] for r in obs["rounds"] for p in r["plays"] if p["card"]}
        else:
            assert obs["seat"] == seat
        leaked = {c for c in hidden if f'"{c}"' in text}
        # A card of the last hand shown in its log can be dealt again: only this hand's log counts.
        assert not leaked - _logged_before_this_deal(obs), (seat, leaked)


def _logged_before_this_deal(obs):
    deals = [e["n"] for e in obs["log"] if e["type"] == "deal"]
    last = deals[-1] if deals else -1
    return {e.get("card") for e in obs["log"] if e["n"] < last} | {
        c for e in obs["log"] if e["n"] < last for c in (e.get("cards") or [])}


SCHEMA = json.loads((Path(truco.__file__).parent / "observation.schema.json").read_text())


def test_every_view_of_a_shared_table_is_a_valid_observation():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    _, seen = play_to_the_end(41, 4, [0, 3], sinais=True)
    assert any(seat is None for seat, _ in seen)
    for _, obs in seen:
        validator.validate(obs)


def test_the_public_view_hides_every_hand_and_the_reply_follows_the_named_seat():
    hands = [["3c", "Kh", "5d"], ["2h", "Kc", "4s"]]
    reply = call("new_game", seed=5, players=2, humans=[0, 1], hands=hands, dealer=0, seat=None)
    text = json.dumps(reply["observation"])
    assert not any(f'"{c}"' in text for h in hands for c in h)
    assert reply["observation"]["to_move"] == 1
    one = call("observation", seat=1)["observation"]
    assert one["seat"] == 1 and one["hand"] == hands[1] and "3c" not in json.dumps(one)
    with pytest.raises(IllegalAction):
        call("apply", seat=0, action="play 3c")  # seat 1 is to move
    after = call("apply", seat=1, action="play 2h")["observation"]
    assert after["seat"] == 1 and after["to_move"] == 0
    with pytest.raises(IllegalAction, match="no bot"):
        call("bot_step", seat=1)  # a human seat is never played by a bot
    with pytest.raises(ValueError, match="not a human seat"):
        call("observation", seat=2)
    # The save keeps the humans: loaded with no seat, it shows none of the hands.
    loaded = call("load", save=reply["save"], seat=None)["observation"]
    assert loaded["hand"] == [] and loaded["to_move"] == 1
    assert json.loads(reply["save"])["humans"] == [0, 1]


def test_sinais_are_off_between_human_partners_and_on_with_a_bot_partner():
    call("new_game", seed=21, players=4, humans=[0, 2], sinais=True, dealer=3, seat=None)
    assert call("observation", seat=0)["observation"]["may_signal"] is False
    with pytest.raises(IllegalAction, match="human partners"):
        call("apply", seat=0, action="signal nada")
    hint = call("hint", seat=0)
    assert not hint["action"].startswith("signal")
    # Humans on opposite teams each have a bot partner: they may signal it.
    call("new_game", seed=21, players=4, humans=[0, 1], sinais=True, dealer=3, seat=None)
    assert call("observation", seat=0)["observation"]["may_signal"] is True
    assert call("observation", seat=1)["observation"]["may_signal"] is True


def test_hand_review_and_replay_follow_the_seat_that_asks():
    final, _ = play_to_the_end(31, 2, [0, 1])
    assert call("replay", seat=1)["seat"] == 1
    assert call("replay", save=final["save"], seat=1)["seat"] == 1
    assert call("replay", save=final["save"])["seat"] == 0
    covers0 = [e for e in call("history", seat=0)["log"] if e["type"] == "cover"]
    covers1 = [e for e in call("history", seat=1)["log"] if e["type"] == "cover"]
    for a, b in zip(covers0, covers1):
        assert (a["card"] is None) == (a["seat"] != 0) and (b["card"] is None) == (b["seat"] != 1)
    assert call("share", save=final["save"])["humans"] == [0, 1]


@pytest.mark.parametrize("params,words", [
    ({"humans": [0, 0]}, "each seat once"),
    ({"humans": [0, 5]}, "not a seat"),
    ({"humans": "01"}, "seats people play"),
    ({"humans": [1], "human_seat": 0}, "human_seat among them"),
    ({"humans": [0, 1], "players": 4, "humano_decide": True}, "one human"),
])
def test_bad_humans_are_refused(params, words):
    with pytest.raises(ValueError, match=words):
        call("new_game", **{"players": 2, "seed": 1, **params})


def test_a_save_with_humans_that_are_not_seats_is_refused():
    save = json.loads(call("new_game", seed=1, players=2, humans=[0, 1], seat=None)["save"])
    for bad in ([0, 2], [1], "x", [0, 0]):
        with pytest.raises(ValueError):
            call("load", save=json.dumps(dict(save, humans=bad)))


def test_load_refuses_a_save_whose_people_sit_elsewhere_than_the_page_says():
    """Issue 42: the page names the seats it will drive as people (`humans`, from its stored
    settings); a save whose people sit elsewhere is refused, never loaded to loop on."""
    one = call("new_game", seed=11, players=4)["save"]
    shared = call("new_game", seed=11, players=4, humans=[0, 2])["save"]
    assert call("load", save=one, humans=[0])["observation"]["players"] == 4
    assert call("load", save=shared, humans=[2, 0], seat=None)["observation"]["hand"] == []
    for save, humans in ((one, [0, 1, 2, 3]), (shared, [0]), (one, [1])):
        with pytest.raises(ValueError, match="people sit at seats"):
            call("load", save=save, humans=humans)
    for bad in ("0123", [True], None, [0.0]):
        with pytest.raises(ValueError, match="humans must list seats"):
            call("load", save=one, humans=bad)

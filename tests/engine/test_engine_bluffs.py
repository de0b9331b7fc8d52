"""Bluffed and contradictory signals, and the Dica at every decision (issue 28, items 2-3).

DESIGN.md, "The engine's public contract": what other seats signal, raise or show is
evidence, never proof: a human may bluff, and no model may break on contradictory
evidence (the bots' sampled deals, the Dica, the partner's opinion). RULES.md §7 (sinais).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import truco
from truco import api
from truco.bots.explain import explain
from truco.bots.knowledge import read
from truco.hint_text import render
from helpers.engine import call

MANILHA_SIGNALS = ["zap", "copas", "espadilha", "pica-fumo"]


def test_a_zap_signalled_by_two_seats_blocks_no_bot():
    """Issue 28 item 2: the human signals Zap, which an opponent holds and honestly
    signalled to its partner; that partner also catches the human's (bluffed) signal and
    must still pick a move (it used to fail drawing deals: list.remove(x))."""
    call("new_game", players=4, level="medio", partner_level="medio", seed=15, dealer=3, sinais=True,
         hands=[["5c", "6h", "Kd"], ["4c", "Jh", "2d"], ["3d", "6d", "Ks"], ["Ad", "5h", "Jd"]])
    reply = call("apply", action="signal zap")
    game = api._session.game
    zaps = [x for x in game.hand["signals"] if x["signal"] == "zap"]
    assert [x["seat"] for x in zaps] == [1, 0] and 3 in zaps[1]["caught_by"]  # seat 3 saw both
    reply = call("apply", action="play 5c")
    while reply["observation"]["to_move"] != 0:
        reply = call("bot_step")
    assert reply["observation"]["legal_actions"]


def test_two_claims_of_one_manilha_place_it_in_neither_hand():
    """The sampled deals keep the claimed card free: any seat may hold it, the claimer or
    not, since at least one of the two claims is a bluff."""
    g = truco.new_game(players=4, seed=15, dealer=3, sinais=True,
                       hands=[["5c", "6h", "Kd"], ["4c", "Jh", "2d"], ["3d", "6d", "Ks"], ["Ad", "5h", "Jd"]])
    g.apply("signal zap", seat=1)
    g.apply("signal zap", seat=0)
    obs = g.observation(3)
    obs["signals"] = [{"seat": 1, "signal": "zap"}, {"seat": 0, "signal": "zap"}]  # as if caught
    k = read(obs)
    assert k.musts == {}
    assert 0 in k.checks and 1 in k.checks  # both still weigh the deals


def test_the_dica_answers_a_raise_with_no_card_left():
    """Issue 28 item 3: every card played, the bot asks truco; the Dica still advises
    (it raised IndexError), with a reason the page can render."""
    call("new_game", players=2, seed=1, dealer=1, hands=[["Kd", "3c", "4d"], ["2h", "Qc", "5s"]])
    game = api._session.game
    for action in ["play 4d", "play 5s", "play Qc", "play 3c", "play Kd", "raise"]:
        game.apply(action)
    obs = call("observation")["observation"]
    assert obs["hand"] == [] and obs["pending"] and obs["to_move"] == 0
    hint = call("hint")
    assert hint["action"] in obs["legal_actions"]
    assert hint["text"] and "{" not in hint["text"]


def _play_with_bluffs(players, level, seed, humano_decide):
    """A whole match in which the human signals a random manilha in most hands (a bluff
    more often than not), asks the Dica and the partner's opinion at each of its turns and
    plays the hint or a random legal action. Returns how many moves were made."""
    rng = random.Random(seed)
    reply = call("new_game", players=players, level=level, seed=seed, sinais=True,
                 humano_decide=humano_decide, score=rng.choice([[0, 0], [4, 6], [8, 8], [10, 6]]))
    moves = 0
    while reply["observation"]["winner"] is None:
        obs = reply["observation"]
        if obs["may_signal"] and rng.random() < 0.8:
            reply = call("apply", action="signal " + rng.choice(MANILHA_SIGNALS))
            continue
        if obs["to_move"] == obs["seat"]:
            hint = call("hint")
            assert hint["action"] in obs["legal_actions"] or hint["action"].startswith("signal ")
            assert "{" not in hint["text"]
            opinion = call("partner_opinion")
            assert opinion["action"] is None or opinion["action"] in obs["legal_actions"]
            action = hint["action"] if rng.random() < 0.5 and not hint["action"].startswith("signal ") \
                else rng.choice(obs["legal_actions"])
            reply = call("apply", action=action)
        else:
            reply = call("bot_step")  # no fallback: any error in a bot fails the test
        moves += 1
        assert moves < 3000
    return moves


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("level", ["facil", "medio", "dificil"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), humano_decide=st.booleans())
def test_manilha_bluffs_each_hand_never_stop_a_match(players, level, seed, humano_decide):
    """2 x 2 and 3 x 3, every level: random manilha bluffs each hand, matches played to
    their end through the API with no error."""
    assert _play_with_bluffs(players, level, seed, humano_decide) > 0


def test_the_hint_text_renders_every_reason_of_an_empty_hand():
    """The reasons given with no card left name no card (nothing to render as 'None')."""
    g = truco.new_game(players=2, seed=1, dealer=1, hands=[["Kd", "3c", "4d"], ["2h", "Qc", "5s"]])
    for action in ["play 4d", "play 5s", "play Qc", "play 3c", "play Kd", "raise"]:
        g.apply(action)
    obs = g.observation(0)
    from truco.bots.explain import reason_for
    for action in obs["legal_actions"]:
        reason = reason_for(obs, action, random.Random(2))
        text = render(reason, obs["manilhas"], obs["rules"]["manilha_names"])
        assert "None" not in text and "{" not in text, (action, text)

"""The partner's opinion and the Dica stay honest (issue 27): with "humano decide" the
human takes a decision the rules give a partner, and the page shows what that partner
would have done ("Parceiro: eu correria…"). That opinion must be exactly the partner's
bot's choice from its own observation (the bot the app would have let move, seeded the
same way), and neither it nor the Dica may ever propose a dead bet (RULES.md §3, §5, §6;
truco.bots.player.dead_bet). Played through the API, as the page does."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco import api, bots
from truco.bots.player import dead_bet
from helpers.engine import call

LEVELS = ("facil", "medio", "dificil")


def _partners_own_choice(game, human: int, level: str):
    """(seat, observation, action): the partner the rules give the decision, its own
    observation with that decision made its own, and its bot's choice (for_move)."""
    for p in range(human % 2, game.players, 2):
        if p == human:
            continue
        obs = game.observation(p)
        if obs["pending"] or obs["decision"]:
            obs = dict(obs, to_move=p, legal_actions=game.legal_actions())
            if obs["pending"]:
                obs["pending"] = dict(obs["pending"], answerer=p)
            if obs["decision"]:
                obs["decision"] = dict(obs["decision"], seat=p)
            return p, obs, bots.for_move(level, game.seed, p, len(game.log)).choose(obs)
    return None, None, None


def _check_a_match(seed, level: str, sinais: bool, score) -> int:
    """Play a match through the API, the human betting often; at each of the human's
    turns check the Dica and the partner's opinion. Returns how many opinions were checked."""
    rng = random.Random(seed)
    reply = call("new_game", players=4, level="dificil", partner_level=level, seed=seed, sinais=sinais,
                 humano_decide=True, score=score)
    checked = moves = 0
    while reply["observation"]["winner"] is None and checked < 8 and moves < 600:
        obs = reply["observation"]
        moves += 1
        if obs["to_move"] != obs["seat"]:
            reply = call("bot_step")
            continue
        game = api._session.game
        hint = call("hint")
        if hint["action"] in ("run", "accept", "raise"):
            assert not dead_bet(game.observation(obs["seat"]), hint["action"]), (seed, hint)
        opinion = call("partner_opinion")
        seat, own, action = _partners_own_choice(game, obs["seat"], level)
        assert (opinion["seat"], opinion["action"]) == (seat, action), seed
        if seat is not None:
            checked += 1
            assert action in obs["legal_actions"]
            assert not dead_bet(own, action), (seed, own["hand"], action)
        # the human: raises and accepts often, so the partners' decisions come up
        legal = obs["legal_actions"]
        bets = [a for a in legal if a in ("raise", "accept")]
        pick = rng.choice(bets) if bets and rng.random() < 0.6 else rng.choice(legal)
        reply = call("apply", action=pick)
    return checked


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), level=st.sampled_from(LEVELS), sinais=st.booleans(),
       score=st.sampled_from([[0, 0], [0, 0], [2, 4], [4, 6], [8, 8], [10, 6]]))
def test_the_opinion_is_the_partners_own_choice_and_no_one_proposes_a_dead_bet(seed, level, sinais, score):
    _check_a_match(seed, level, sinais, score)


def test_the_property_meets_many_partner_decisions():
    """The same check on fixed matches, which do reach the partners' decisions."""
    checked = sum(_check_a_match(seed, level, seed % 2 == 0, [0, 0]) for seed, level in enumerate(LEVELS * 4))
    assert checked >= 12, checked


def test_the_issues_case_a_partner_with_the_zap_answers_seis():
    """Seen at the table: a partner who had signalled the Zap said he would run from
    "seis" while the Dica said accept, and the hand was won. Here round 1 is ours and the
    partner still holds the Zap (and signalled it): the hand is won from his view, so he
    must not run, and the Dica, who takes the signal as evidence only, does not run either."""
    hands = [["3c", "5h", "6d"], ["Kh", "Js", "5s"], ["4c", "Qd", "Jd"], ["Qh", "6s", "7c"]]
    for level in LEVELS:
        reply = call("new_game", players=4, level="dificil", partner_level=level, seed=7, sinais=True,
                     humano_decide=True, hands=hands, dealer=3)
        assert {"seat": 2, "signal": "zap"} in reply["observation"]["signals"]
        game = api._session.game
        for seat, card in ((0, "3c"), (1, "Kh"), (2, "Qd"), (3, "Qh")):
            game.apply("play " + card, seat=seat)  # the three takes round 1 for team 0
        game.apply("raise", seat=0)  # truco
        game.apply("raise", seat=1)  # seis: seat 2's to answer, the human decides
        obs = call("observation")["observation"]
        assert obs["to_move"] == 0 and obs["pending"]["value"] == 6
        opinion = call("partner_opinion")
        assert opinion["seat"] == 2 and opinion["action"] in ("accept", "raise"), (level, opinion)
        hint = call("hint")
        assert hint["action"] in ("accept", "raise"), (level, hint)

"""Issue 45 from the engine's side: the achievements of a match (`achievements`,
truco.achievements) and the Dica's view of each of the player's decisions (`decisions`,
truco.replay.decision_hints), both made from what the player's seat saw, never from a hidden
card."""

from __future__ import annotations

import doctest
import json
import random
import re

import pytest

import truco.achievements
from truco import api
from truco.achievements import COMEBACK, detect, earned
from truco.game import deal_for, new_game
from helpers.engine import call

DAILY = {"preset": "mineiro", "players": 4, "level": "dificil", "partner_level": "dificil",
         "humano_decide": True, "sinais": True}
CARD = re.compile(r"^[2-7QJKA][chsd]$")


def test_doctests():
    assert doctest.testmod(truco.achievements).failed == 0


# ------------------------------------------------------------------ crafted records (detect)

def deal(hand_number, score=(0, 0), kind="normal", game_number=1):
    return {"type": "deal", "hand_number": hand_number, "game_number": game_number, "dealer": 1, "mao": 0,
            "kind": kind, "score": list(score)}


def hand(winner, score, reason="rounds", points=2):
    return {"type": "hand", "winner": winner, "points": points, "reason": reason, "score": list(score), "rounds": []}


def rec(events, hands=None, seat=0, ferro="escuro"):
    hands = hands or {}
    return {"seat": seat, "players": 2, "options": {"ferro": ferro}, "events": events,
            "hands": {n: {"cards": c, "manilhas": ["4c", "7h", "As", "7d"], "blind": False} for n, c in hands.items()}}


def ids(r):
    return [a["id"] for a in detect(r)]


def ladder_to_doze(winner):
    return [deal(1), {"type": "raise", "seat": 0, "name": "truco", "value": 4}, {"type": "accept", "seat": 1, "value": 4},
            {"type": "raise", "seat": 1, "name": "seis", "value": 8}, {"type": "accept", "seat": 0, "value": 8},
            {"type": "raise", "seat": 0, "name": "nove", "value": 10}, {"type": "accept", "seat": 1, "value": 10},
            {"type": "raise", "seat": 1, "name": "doze", "value": 12}, {"type": "accept", "seat": 0, "value": 12},
            hand(winner, [12, 0] if winner == 0 else [0, 12], points=12)]


def test_a_doze_accepted_counts_only_when_the_hand_is_won():
    assert ids(rec(ladder_to_doze(0), {1: ["5s", "6h", "Qd"]})) == ["doze"]
    assert ids(rec(ladder_to_doze(1), {1: ["5s", "6h", "Qd"]})) == []
    # Raised to doze and refused: no doze was played.
    ran = ladder_to_doze(0)[:-2] + [{"type": "run", "seat": 0}, hand(1, [0, 10], "run", 10)]
    assert ids(rec(ran)) == []


def bluff(cards, raiser=0, answer=None):
    answer = answer or {"type": "run", "seat": 1}
    return rec([deal(1), {"type": "play", "seat": 0, "card": cards[0]}, {"type": "play", "seat": 1, "card": "6s"},
                {"type": "round", "round": 1, "result": 0, "seat": 0},
                {"type": "raise", "seat": raiser, "name": "truco", "value": 4}, answer,
                hand(raiser % 2 if answer["type"] == "run" else 1, [2, 0], "run")], {1: cards})


def test_a_bluff_is_the_players_own_raise_with_nothing_that_the_opponents_ran_from():
    assert ids(bluff(["Ks", "5h", "6d"])) == ["blefe"]
    # The three played already: what is left in hand is what counts.
    assert ids(bluff(["3s", "5h", "6d"])) == ["blefe"]
    assert ids(bluff(["Ks", "3h", "6d"])) == [], "a three in hand is no bluff"
    assert ids(bluff(["Ks", "7h", "6d"])) == [], "a manilha (copas) in hand is no bluff"
    assert ids(bluff(["Ks", "5h", "6d"], answer={"type": "accept", "seat": 1, "value": 4})) == []
    # The opponent raised and ran from a raise back is the opponent's bluff, not ours.
    assert ids(bluff(["Ks", "5h", "6d"], raiser=1, answer={"type": "run", "seat": 0})) == []


def test_a_mao_de_ferro_no_escuro_won():
    events = [deal(5, (10, 10), "ferro"), hand(0, (12, 10))]
    assert ids(rec(events, {5: []})) == ["ferro_escuro"]
    assert ids(rec(events, {5: []}, ferro="claras")) == [], "with the cards seen it is another thing"
    assert ids(rec([deal(5, (10, 10), "ferro"), hand(1, (10, 12))], {5: []})) == []


def match(winner):
    return {"type": "match", "winner": winner, "games": [1, 0] if winner == 0 else [0, 1]}


def test_a_virada_is_a_match_won_from_far_behind_in_its_last_game():
    behind = [deal(1, (2, 2)), hand(1, (2, 4)), deal(2, (2, 4)), hand(1, (2, 10)), deal(3, (2, 2 + COMEBACK)),
              hand(0, (12, 10), points=10), {"type": "game", "winner": 0, "score": [12, 10], "games": [1, 0], "game_number": 1},
              match(0)]
    assert ids(rec(behind)) == ["virada"]
    assert ids(rec(behind[:-1] + [match(1)])) == []
    close = [deal(1, (0, 0)), hand(1, (0, 6)), deal(2, (0, 6)), hand(0, (12, 6), points=12), match(0)]
    assert ids(rec(close)) == [], "6 behind is no virada"
    # An earlier game's deficit does not carry into the next.
    series = [deal(1, (0, 0)), hand(1, (0, 10)), deal(2, (0, 10)), hand(1, (0, 12)),
              deal(3, (0, 0), game_number=2), hand(0, (12, 0), points=12), match(0)]
    assert "virada" not in ids(rec(series))


def test_invicto_is_a_match_won_from_nothing_without_losing_a_hand():
    clean = [deal(1), hand(0, (4, 0), points=4), deal(2, (4, 0)), hand(None, (4, 0), "void", 0),
             deal(3, (4, 0)), hand(0, (12, 0), points=8), match(0)]
    assert ids(rec(clean)) == ["invicto"]
    one_lost = clean[:3] + [hand(1, (4, 2))] + clean[4:]
    assert ids(rec(one_lost)) == []
    started_ahead = [deal(1, (10, 0))] + clean[1:]
    assert ids(rec(started_ahead)) == [], "a match started at 10 × 0 is no invicto"
    # The partner's seat sees the same team result.
    assert ids(rec(clean, seat=2)) == ["invicto"]
    assert ids(rec(clean, seat=1)) == []


# ------------------------------------------------------------------ seeded matches

def play(seed, follow_hint=False, players=2, rng_seed=0, **options):
    """A match where the player (seat 0) follows the Dica or plays at random; bots elsewhere."""
    rng = random.Random(rng_seed)
    reply = call("new_game", seed=seed, players=players, level="dificil", **options)
    for _ in range(800):
        o = reply["observation"]
        if o["winner"] is not None:
            return reply
        if o["to_move"] == 0:
            action = call("hint")["action"] if follow_hint else rng.choice(o["legal_actions"])
            reply = call("apply", action=action)
        else:
            reply = call("bot_step")
    raise AssertionError("the match did not end")


def seen_cards(save, seat=0):
    """Every card the seat saw in the match: its own dealt hands and the cards played face up."""
    session = api.Session.from_json(save)
    seen = set()
    for h in truco.achievements.record(session.game, seat)["hands"].values():
        seen.update(h["cards"])
    for e in session.game.events(seat):
        if e["type"] in ("play", "cover") and e.get("card"):
            seen.add(e["card"])
    return seen


def cards_in(value):
    """The card codes a reply names (as action arguments and reason parameters)."""
    out = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_in(v)
    elif isinstance(value, str):
        out.update(w for w in value.split() if CARD.match(w))
    return out


@pytest.mark.parametrize("seed,options", [(501, {"players": 4, "humano_decide": True, "sinais": True}), (502, {})])
def test_following_the_dica_everywhere_is_agreeing_with_it_at_every_decision(seed, options):
    reply = play(seed, follow_hint=True, **options)
    moves = api._session.game.moves
    out = call("decisions", save=reply["save"])
    mine = [(i, a) for i, (s, a) in enumerate(moves) if s == 0 and not a.startswith("signal ")]
    assert [d["move"] for d in out["decisions"]] == [i for i, _ in mine]
    assert all(d["same"] and d["played"] == d["dica"]["action"] for d in out["decisions"]), \
        "the review's Dica is the one the table gave in that position"


@pytest.mark.parametrize("seed,options", [(511, {"players": 4, "humano_decide": True, "sinais": True}), (512, {"players": 2})])
def test_each_decision_points_at_its_step_and_names_no_card_the_player_never_saw(seed, options):
    reply = play(seed, rng_seed=seed, **options)
    save = reply["save"]
    steps = call("replay", save=save)["steps"]
    decisions = call("decisions", save=save)["decisions"]
    assert decisions and any(not d["same"] for d in decisions), "random play disagrees with the Dica somewhere"
    seen = seen_cards(save)
    kinds = {"play": "play", "cover": "cover", "raise": "raise", "accept": "accept", "run": "run"}
    for d in decisions:
        verb = d["played"].split()[0]
        mine = [e for e in steps[d["step"]]["events"] if e.get("seat") == 0 and e["type"] == kinds[verb]]
        assert mine, f"step {d['step']} shows the player's {d['played']}"
        assert steps[d["step"]]["obs"]["hand_number"] == d["hand_number"] or steps[d["step"]]["table"]
        assert d["dica"]["reason"]["key"].startswith("hint.") and d["dica"]["text"]
        named = cards_in(d["dica"]["action"]) | cards_in(d["dica"]["reason"]["params"])
        assert named <= seen, f"the Dica names {named - seen}, cards the player never saw"


def two_tables(opponent):
    """The same first deal for the player (seat 0) with the opponent holding `opponent`: the
    player truco's with nothing, the opponent runs; then both play the same cards."""
    g = new_game(seed=77, hands=[["5s", "6h", "Kd"], opponent], dealer=1)
    g.apply("play 5s")
    g.apply(f"play {opponent[0]}")
    return g


def test_nothing_the_player_did_not_see_changes_the_review_or_the_achievements():
    # Two matches alike for seat 0 (its cards, every card played face up, the seed) that
    # differ only in the opponent's unplayed cards.
    a = two_tables(["4d", "Qc", "Jc"])
    b = two_tables(["4d", "3c", "7h"])
    for g in (a, b):
        g.apply("raise")  # seat 0 took the first round and leads the second: truco, holding 6h and Kd
    for g in (a, b):
        g.apply("run")
    assert a.events(0) == b.events(0) and a.start["hands"] != b.start["hands"]
    sa, sb = (api.Session(g, 0, {1: "dificil"}) for g in (a, b))
    ra = json.loads(api.handle(json.dumps({"method": "decisions", "params": {"save": sa.to_json()}})))
    rb = json.loads(api.handle(json.dumps({"method": "decisions", "params": {"save": sb.to_json()}})))
    assert ra == rb and len(ra["decisions"]) == 2
    assert earned(a, 0) == earned(b, 0) == [{"id": "blefe", "hand_number": 1, "game_number": 1}]


def test_achievements_of_seeded_matches_hold_in_the_whole_log():
    seen_ids = set()
    for seed in range(601, 613):
        reply = play(seed, rng_seed=seed, players=2)
        game = api._session.game
        got = call("achievements", save=reply["save"])
        assert got == call("achievements"), "from the save or the session in play: the same"
        for a in got["earned"]:
            seen_ids.add(a["id"])
            hands = [e for e in game.log if e["type"] == "hand"]
            if a["id"] in ("virada", "invicto"):
                assert game.winner == 0
            if a["id"] == "invicto":
                assert all(h["winner"] in (0, None) for h in hands)
            if a["id"] == "doze":
                assert any(h["points"] >= 12 and h["winner"] == 0 for h in hands)
            if a["id"] == "blefe":
                assert any(h["reason"] == "run" and h["winner"] == 0 for h in hands)
        for a in call("achievements", save=reply["save"], seat=0)["earned"]:
            assert a["id"] in truco.achievements.IDS
    assert seen_ids, "twelve random matches earn something (a bluff, at least)"


def test_bad_requests_are_refused_clearly():
    call("new_game", seed=3, players=2)
    with pytest.raises(ValueError, match="not a Truco table save"):
        call("decisions", save='{"format": "x"}')
    with pytest.raises(ValueError, match="seat"):
        call("achievements", seat=1)
    with pytest.raises(ValueError, match="takes no param"):
        call("decisions", hints=True)

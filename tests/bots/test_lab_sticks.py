"""The lab's sticks for issue 44 (truco_lab.lab_sticks) and the exploiter's table step
(truco_lab.selfplay_policy._best_response): a team that answers together, a stick that
calls every raise once it has seen a bluff, the held-out learner; the recording bot of
truco_lab.bet_profile plays exactly as difícil."""

from __future__ import annotations

import random

import truco
from truco import bots
from truco.bots.player import dead_bet

from truco_lab import arena, bet_profile, lab_sticks
from truco_lab import selfplay_policy as sp

assert arena  # imported for its install() of the lab's sticks


def _facing_truco():
    """2 x 2: seat 0 (mão) asks truco; seat 1 must answer with 4, 5, 6 while its partner,
    seat 3, holds the Zap, Copas and a 3 (Mineiro's manilhas)."""
    hands = [["7c", "Ah", "As"], ["5c", "4h", "6s"], ["Kd", "Qd", "Jd"], ["4c", "7h", "3s"]]
    g = truco.new_game(seed=3, players=4, hands=hands, dealer=3)
    g.apply("raise")
    assert g.to_move == 1 and g.observation(1)["pending"]["value"] == 4
    return g


def test_team_answers_with_its_partners_hand():
    g = _facing_truco()
    alone = g.observation(1)
    with_partner = lab_sticks.observe(g, 1, "team")
    assert [v["seat"] for v in with_partner["partner_views"]] == [3]
    assert "partner_views" not in lab_sticks.observe(g, 1, "honest")
    for seed in range(4):
        assert bots.make("honest", random.Random(seed)).choose(alone) == "run"
        assert bots.make("team", random.Random(seed)).choose(alone) == "run"  # no look across: honest
        assert bots.make("team", random.Random(seed)).choose(with_partner) in ("accept", "raise")


def _answers(level: str, other: str, games: int):
    out = []
    for i in range(games):
        seed = f"lab:{i}"
        g = truco.new_game("mineiro", players=2, seed=seed)
        while g.winner is None:
            seat = g.to_move
            obs = g.observation(seat)
            who = level if seat % 2 == i % 2 else other
            action = bots.for_move(who, seed, seat, len(g.log)).choose(obs)
            if who == level and obs.get("pending") and "run" in obs["legal_actions"]:
                them = lab_sticks._memory(obs).teams[1 - seat % 2]
                honest = bots.for_move("honest", seed, seat, len(g.log)).choose(obs)
                out.append((obs, action, honest, them))
            g.apply(action, seat)
    return out


def test_sharp_calls_every_raise_after_a_bluff_it_saw_and_is_honest_before(monkeypatch):
    before = after = 0
    for obs, action, honest, them in _answers("sharp", "maniac", 16):
        seen = lab_sticks.bluffs_seen(obs, 1 - obs["seat"] % 2)
        if seen >= lab_sticks.SharpBot.BLUFFS_SEEN:
            assert action != "run" or dead_bet(obs, "accept"), obs["pending"]
            after += 1
        else:
            assert action == honest
            before += 1
    # both phases happen in real games against a bluffing table: the trigger fires
    assert before >= 10 and after >= 3, (before, after)
    # once it has seen its bluffs (none needed here), it never runs from a hand it can play
    monkeypatch.setattr(lab_sticks.SharpBot, "BLUFFS_SEEN", 0)
    calls = 0
    for obs, action, honest, _ in _answers("sharp", "maniac", 8):
        assert action != "run" or dead_bet(obs, "accept"), obs["pending"]
        calls += honest == "run"
    assert calls >= 5, calls


def test_learner_calls_trucos_once_the_other_team_raises_half_its_hands():
    calls = 0
    for obs, action, honest, them in _answers("learner", "maniac", 12):
        if them.hands >= 4 and them.raised_hands >= them.hands / 2 and obs["pending"]["value"] == 4:
            assert action != "run" or dead_bet(obs, "accept")
            calls += honest == "run"
        else:
            assert action == honest
    assert calls >= 3, calls


def test_lab_sticks_are_split_and_built_by_name():
    assert set(lab_sticks.TUNED).isdisjoint(lab_sticks.HELD_OUT)
    assert not set(lab_sticks.LAB_STICKS) & set(truco.names.ALL_LEVELS)
    for level in lab_sticks.LAB_STICKS:
        assert bots.for_move(level, 1, 0, 0).level == level


def test_the_recording_bot_plays_as_dificil():
    g = truco.new_game("mineiro", players=4, seed="prof")
    moves = 0
    while g.winner is None and moves < 60:
        seat = g.to_move
        obs = g.observation(seat)
        rng = f"p:{seat}:{len(g.log)}"
        a = bots.make("dificil", random.Random(rng)).choose(obs)
        assert bet_profile.ProfileBot(bet_profile.settings(), random.Random(rng)).choose(obs) == a
        g.apply(a, seat)
        moves += 1


def test_best_response_takes_the_better_option_outright_and_unhides_it():
    table = {"ask|4|0|4|3": {"play": 0.5, "default": 0.5}, "ask|4|0|4|3|p0|00": {"play": 1.0},
             "ask|4|0|4|2|p1|00": {"raise": 1.0}}
    samples = [("ask|4|0|4|2", "play", {"play": 0.5, "raise": 0.5 + 0.01 * (i % 3)}, "ask|4|0|4|2|p1|00", {})
               for i in range(30)]
    sp._best_response(table, samples, {"ask|4|0|4|3": "raise"}, min_n=25, z=1.5)
    assert table["ask|4|0|4|3"] == {"raise": 1.0}
    assert "ask|4|0|4|3|p0|00" not in table  # the finer entry would hide the new action
    assert table["ask|4|0|4|2|p1|00"] == {"raise": 1.0}


def test_a_population_member_plays_its_own_table_beside_the_learner(tmp_path):
    """selfplay_policy's ``table:<path>`` opponent: difícil with that table, while the
    learner (TableBot) plays another; an empty member table is difícil without a table."""
    path = tmp_path / "runs.json"
    runs = {f"answer|4|{r}|4|{b}": {"run": 1.0} for r in ("0", "1W", "1L", "1T", "2") for b in range(8)}
    path.write_text(__import__("json").dumps(runs))
    sp.install()
    member = sp.opponent(f"table:{path}")
    sp.TableBot.table = {}
    changed = 0
    g = truco.new_game("mineiro", players=4, seed="member")
    while g.winner is None:
        seat = g.to_move
        obs = g.observation(seat)
        rng = f"m:{seat}:{len(g.log)}"
        a = bots.make(member, random.Random(rng)).choose(obs)
        if obs.get("pending") and obs["pending"]["value"] == 4 and "run" in obs["legal_actions"]:
            assert a == "run" or dead_bet(obs, "run")
            changed += a != sp.TableBot(sp.variant_settings(), random.Random(rng)).choose(obs)
        g.apply(a, seat)
    assert changed >= 1


def test_a_bluff_is_seen_only_when_the_hand_is_played_out():
    """A raise the table ran from shows nothing; one played out and lost, or whose raiser
    showed only weak cards after it, is a bluff seen (lab_sticks.bluffs_seen)."""
    m = ["4c", "7h", "As", "7d"]
    deal, raise_ = {"type": "deal"}, {"type": "raise", "seat": 1}

    def seen(*events):
        return lab_sticks.bluffs_seen({"history": [deal, raise_, *events], "log": [], "manilhas": m}, 1)

    assert seen({"type": "run", "seat": 0}, {"type": "hand", "winner": 1, "reason": "run"}) == 0
    assert seen({"type": "play", "seat": 1, "card": "3s"}, {"type": "hand", "winner": 1, "reason": "rounds"}) == 0
    assert seen({"type": "play", "seat": 1, "card": "7h"}, {"type": "hand", "winner": 0, "reason": "rounds"}) == 1
    assert seen({"type": "play", "seat": 1, "card": "Kd"}, {"type": "hand", "winner": 1, "reason": "rounds"}) == 1
    assert seen({"type": "play", "seat": 3, "card": "Kd"}, {"type": "hand", "winner": 1, "reason": "rounds"}) == 0


def test_lab_doctests():
    """psro.average (fictitious play's mixing of a table with its best response) and
    lab_sticks.bluffs_seen, as their docstrings show."""
    import doctest

    from truco_lab import psro
    assert doctest.testmod(psro).failed == 0
    assert doctest.testmod(lab_sticks).failed == 0

"""Signals as evidence in difícil's bets, and a reason for each bet (issue 44).

Hand-built 2 x 2 positions (seats 0 and 2 a team, 1 and 3 the other, RULES.md §1) and a
few seeded matches with sinais. A caught signal is shown to a bot by putting it in its
observation, as the engine does for the seat that caught it (`view.observation`).
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import truco
from truco import api, bots
from truco.bots import player as P
from truco.bots.knowledge import read
from truco.bots.review import visible
from truco.game import CATCH_CHANCE
from truco.signals import signal_for, signal_to_send

HANDS = [["5c", "6c", "Qh"], ["4c", "2d", "Jd"], ["5d", "6s", "Kh"], ["Jc", "Qc", "Ks"]]
"""Seat 1 holds the Zap (4c in Mineiro); seat 2, the bot, holds nothing."""


def caught(obs: dict, seat: int, signal: str) -> dict:
    """``obs`` of a seat that caught ``seat``'s ``signal``."""
    event = {"type": "signal", "seat": seat, "signal": signal, "n": len(obs["log"])}
    return dict(obs, signals=obs["signals"] + [{"seat": seat, "signal": signal}], log=obs["log"] + [event])


def zap_share(level, obs: dict) -> float:
    bot = bots.make(level, random.Random(3))
    k = read(obs)
    worlds, _ = bot.sampled_deals(k)
    zap = k.strength["4c"]
    return sum(zap in w[1] for w in worlds) / len(worlds)


def test_a_caught_zap_signal_is_likely_never_certain():
    """A caught Zap signal makes the Zap likely in the signaller's hand (most of difícil's
    sampled deals), yet a bluffed signal stays possible (not every deal): before, every deal
    put it there. Médio keeps believing it outright."""
    g = truco.new_game(players=4, seed=2, hands=[list(h) for h in HANDS], dealer=0, sinais=True)
    assert g.to_move == 1
    obs = g.observation(2)
    told = caught(obs, 1, "zap")
    many = dataclasses.replace(P.LEVEL_SETTINGS["dificil"], worlds=400)
    assert zap_share(many, obs) < 0.25  # a third of the unseen cards' worth
    share = zap_share(many, told)
    assert 0.8 < share < 0.97, share
    assert zap_share(dataclasses.replace(P.LEVEL_SETTINGS["medio"], worlds=200), told) == 1.0


def test_the_other_team_may_have_caught_our_signal():
    """Each opponent catches a signal with the engine's CATCH_CHANCE: while the Zap a partner
    signalled is unplayed, the other team is read as knowing it that often; once played, no
    more (every seat sees it)."""
    g = truco.new_game(players=4, seed=2, hands=[["4c", "6c", "Qh"], ["5c", "2d", "Jd"], ["5d", "6s", "Kh"],
                                                 ["Jc", "Qc", "Ks"]], dealer=3, sinais=True)
    g.apply("signal zap", seat=0)
    k = read(g.observation(2))
    assert P.own_signal_shift(k) == (pytest.approx(CATCH_CHANCE), P.SIGNAL_SHIFT["zap"])
    g.apply("play 4c")
    assert P.own_signal_shift(read(g.observation(2))) == (0.0, 0.0)


def test_no_raise_past_truco_into_a_caught_zap_without_the_cards():
    """The guard: asking seis (or more) under 0.5 when the seat that answers signalled the
    Zap, still unplayed, and this seat caught it. Not for truco itself, not with a chance
    of 0.5 or more, not once the Zap is played, not when the answerer is another seat."""
    g = truco.new_game(players=4, seed=2, hands=[list(h) for h in HANDS], dealer=0, sinais=True)
    g.apply("raise")  # seat 1 asks truco, seat 2 accepts: the next step is seis
    g.apply("accept")
    assert g.to_move == 1
    g.apply("play 2d")
    obs = caught(g.observation(2), 1, "zap")
    k = read(obs)
    bot = bots.make("dificil", random.Random(1))
    assert obs["next_raise"]["value"] == 6
    assert bot._zap_blocks(k, 0.3, 1)
    assert not bot._zap_blocks(k, 0.55, 1)
    assert not bot._zap_blocks(k, 0.3, 3)
    assert not bots.make(dataclasses.replace(P.LEVEL_SETTINGS["dificil"], caught_zap_guard=False),
                         random.Random(1))._zap_blocks(k, 0.3, 1)
    fresh = truco.new_game(players=4, seed=2, hands=[list(h) for h in HANDS], dealer=0, sinais=True)
    fresh.apply("play 2d")
    assert not bot._zap_blocks(read(caught(fresh.observation(2), 1, "zap")), 0.3, 1)  # truco: the first step


def test_ignoring_the_signals_decides_the_bet_as_if_none_was_seen():
    """The bench's "difícil ignoring the signals": the same answer, on the same chance, with
    the caught signal as without it; the shipped difícil weighs it."""
    g = truco.new_game(players=4, seed=2, hands=[list(h) for h in HANDS], dealer=0, sinais=True)
    g.apply("raise")
    plain = g.observation(2)
    told = caught(plain, 1, "zap")
    ignoring = dataclasses.replace(P.LEVEL_SETTINGS["dificil"], signals_in_bets=False)
    chances = []
    for obs in (plain, told):
        bot = bots.make(ignoring, random.Random(5))
        bot.choose(obs)
        chances.append(bot._why["p"])
    assert chances[0] == chances[1]
    weighing = []
    for obs in (plain, told):
        bot = bots.make("dificil", random.Random(5))
        bot.choose(obs)
        weighing.append(bot._why["p"])
    assert weighing[1] < weighing[0]


def _match(seed: str, level: str = "dificil"):
    """A seeded 2 x 2 match with sinais: both teams signal by the table's policy; every
    decision by a new bot of ``level``. Yields (obs, bot, action) for each decision."""
    g = truco.new_game(players=4, seed=seed, sinais=True)
    while g.to_move is not None:
        for s in range(4):
            if g.may_signal(s):
                name = signal_to_send(g.observation(s)) if s % 2 else signal_for(g.observation(s))
                if name:
                    g.apply("signal " + name, seat=s)
        seat = g.to_move
        obs = g.observation(seat)
        bot = bots.for_move(level, g.seed, seat, len(g.log))
        action = bot.choose(obs)
        yield obs, bot, action
        g.apply(action, seat=seat)


def test_each_bet_has_the_reason_it_was_decided_on():
    """Every raise, accept and run of difícil carries a reason, none for a card; the chance it
    quotes is the one it decided on; a raise under 0.5 says it is a bluff (and one that
    follows runs says how many), a raise at 0.5 or more never does; a run with a caught
    signal still live names it."""
    bets = bluffs = 0
    for i in range(24):  # difícil bluffs in few raises here (3 of the first 60): play till three come
        if bets > 20 and bluffs >= 3:
            break
        for obs, bot, action in _match(f"why:{i}"):
            reason = bot.last_reason
            if action not in ("raise", "accept", "run"):
                assert reason is None
                continue
            bets += 1
            assert reason and reason["key"].startswith("bet."), (action, reason)
            if reason["key"].startswith("bet.settled"):
                continue
            p = bot._why["p"]
            assert reason["params"].get("pct", round(100 * p)) == round(100 * p)
            if action == "raise":
                assert reason["key"].startswith("bet.raise.bluff") == (p < 0.5), (p, reason)
                bluffs += p < 0.5
                runs = bot.memory.teams[1 - obs["seat"] % 2].runs
                if p < 0.5 and runs and "zap" not in reason["key"]:
                    assert reason["params"]["runs"] == runs
    assert bets > 20 and bluffs >= 3


def _play_api_match(seed: int) -> dict:
    def call(method, params):
        reply = json.loads(api.handle(json.dumps({"method": method, "params": params})))
        assert "error" not in reply, reply
        return reply

    call("new_game", {"seed": seed, "players": 4, "level": "dificil", "sinais": True})
    game = api._current().game
    while game.winner is None:
        if game.to_move == 0:
            action = bots.for_move("dificil", game.seed, 0, len(game.log)).choose(game.observation(0))
            call("apply", {"action": action})
        else:
            call("bot_step", {})
    return call


@pytest.mark.parametrize("seed", [11, 12])
def test_the_hand_review_gets_the_bots_reasons_and_nothing_hidden(seed):
    """`history` with `reasons_for` (a finished hand's `hand` event): a reason for the bots'
    bets of that hand only, none for the person's own; a card it names was shown face up in
    that hand, a seat it names is one whose signal the person saw."""
    call = _play_api_match(seed)
    log = call("history", {})["log"]
    bots_bets = 0
    for hand in [e for e in log if e["type"] == "hand"]:
        reasons = call("history", {"reasons_for": hand["n"]})["reasons"]
        deal = max(e["n"] for e in log if e["type"] == "deal" and e["n"] < hand["n"])
        events = [e for e in log if deal <= e["n"] <= hand["n"] + 2]
        shown = {e["card"] for e in events if e["type"] == "play" and e.get("card")}
        signalled = {e["seat"] for e in events if e["type"] == "signal"}
        signalled |= {x["seat"] for e in events if e["type"] == "signals_caught" for x in e["caught"]}
        for n, reason in reasons.items():
            e = next(x for x in log if x["n"] == int(n))
            assert deal < e["n"] < hand["n"] and e["type"] in ("raise", "accept", "run") and e["seat"] != 0
            assert set(reason["params"].get("cards", [])) <= shown
            if "seat" in reason["params"]:
                assert reason["params"]["seat"] in signalled
            assert "fallback" not in reason
        bots_bets += sum(1 for e in log if deal < e["n"] < hand["n"] and e["type"] in ("raise", "accept", "run")
                         and e["seat"] != 0)
        assert len(reasons) <= bots_bets
    assert bots_bets > 0
    assert call("history", {"reasons_for": 0})["reasons"] == {}
    with pytest.raises(ValueError, match="reasons_for"):
        api.handle(json.dumps({"method": "history", "params": {"reasons_for": "3"}}))


def test_a_reason_keeps_only_what_the_reader_saw():
    """The review's filter: the bot's cards cut to those shown, a signal the reader never
    saw replaced by the same reason without it."""
    reason = {"key": "bet.raise.value_cards", "params": {"cards": ["4c", "3h"], "pct": 80},
              "fallback": {"key": "bet.raise.value", "params": {"pct": 80}}}
    assert visible(reason, {"3h", "5d"}, set()) == {"key": "bet.raise.value_cards",
                                                    "params": {"cards": ["3h"], "pct": 80}}
    assert visible(reason, {"5d"}, set()) == {"key": "bet.raise.value", "params": {"pct": 80}}
    run = {"key": "bet.run.caught", "params": {"seat": 1, "signal": "zap", "pct": 10},
           "fallback": {"key": "bet.run.odds", "params": {"pct": 10, "value": 4}}}
    assert visible(run, set(), {1})["key"] == "bet.run.caught"
    assert visible(run, set(), {3}) == {"key": "bet.run.odds", "params": {"pct": 10, "value": 4}}


def test_the_partners_advice_says_why_without_its_hidden_cards():
    """Humano decide: the partner's opinion comes with its reason, in the terms it decided
    on; the hand is live, so the partner's cards never appear in it (only the chance)."""
    def call(method, params):
        return json.loads(api.handle(json.dumps({"method": method, "params": params})))

    hands = [["5c", "6c", "Qh"], ["Jc", "2d", "Jd"], ["4c", "3h", "Kh"], ["5d", "6s", "Ks"]]
    call("new_game", {"seed": 4, "players": 4, "level": "dificil", "hands": hands, "dealer": 0,
                      "humano_decide": True})
    game = api._current().game
    assert game.to_move == 1
    game.apply("raise", seat=1)  # the other team asks truco: the human answers for the pair
    opinion = call("partner_opinion", {})
    assert opinion["seat"] == 2 and opinion["action"] in ("accept", "raise")
    reason = opinion["reason"]
    assert reason["key"] in ("bet.accept.value", "bet.raise.value") and "cards" not in reason["params"]
    assert "4c" not in json.dumps(opinion) and "3h" not in json.dumps(opinion)


def test_the_bench_writes_its_section_from_what_it_measured(tmp_path, monkeypatch):
    """truco_lab.signal_evidence at a toy size: both arms play the same mirrored games, and
    the section it writes into arena_results.md (between its marks, replacing the old one)
    holds the paired difference it measured."""
    from truco_lab import signal_evidence as se

    monkeypatch.setattr(se, "JSON", tmp_path / "signal_evidence.json")
    md = tmp_path / "arena_results.md"
    md.write_text("# Arena results\n\nintro\n\n## Older section\n\ntext\n")
    monkeypatch.setattr(se, "MD", md)
    res = se.evidence("honest", 4, "toy", 1)
    assert res["games"] == 4 and len(res["evidence"]["won"]) == len(res["ignoring"]["won"]) == 2
    se._save("evidence", res)
    se.write()
    se.write()  # a second write replaces the section, never adds one
    text = md.read_text()
    assert text.count(se.MARK) == 2 and text.index(se.MARK) < text.index("## Older section")
    assert "shipped less ignoring, paired" in text and f"{sum(res['evidence']['won'])} / 4" in text
    # what the sinais cost: the three arms on the same mirrored pairs, their paired differences
    cost = se.sinais_cost("medio", 4, "toy", 1)
    assert [len(x) for x in cost["arms"].values()] == [2, 2, 2]
    se._save("sinais_cost", cost)
    se.write()
    text = md.read_text()
    off_less_on = 100 * sum(x - y for x, y in zip(cost["arms"]["without"], cost["arms"]["with"])) / 2
    assert f"| **sinais off less on, paired** | {off_less_on:+.2f} points" in text
    assert f"turning the sinais off less on: {off_less_on:+.2f} ±" in text
    # the levels in order: each against the one below, its games won as played
    lad = se.ladder(4, "toy", 1)
    assert list(lad["pairs"]) == ["facil>random", "medio>facil", "dificil>medio"]
    se._save("ladder", lad)
    se.write()
    w, g, _ = lad["pairs"]["medio>facil"]
    assert g == 4 and f"médio against fácil {w}/4" in md.read_text()


def test_a_reused_dificil_weighs_signals_and_says_why_as_a_fresh_one():
    """Reuse-safe with sinais: one difícil object kept per seat for a whole match chooses,
    and gives the reason, that a new object with the same RNG state does."""
    import copy

    game = truco.new_game("mineiro", players=4, seed="reuse:sinais", sinais=True)
    rngs = [random.Random(f"r:{s}") for s in range(4)]
    kept = [bots.make("dificil", rngs[s]) for s in range(4)]
    moves = 0
    while game.winner is None:
        for s in range(4):
            if game.may_signal(s):
                game.apply("signal " + signal_for(game.observation(s)), seat=s)
        seat = game.to_move
        obs = game.observation(seat)
        twin_rng = random.Random()
        twin_rng.setstate(rngs[seat].getstate())
        twin = bots.make("dificil", twin_rng)
        want = twin.choose(copy.deepcopy(obs))
        got = kept[seat].choose(obs)
        assert (got, kept[seat].last_reason) == (want, twin.last_reason), moves
        game.apply(got, seat)
        moves += 1
    assert moves > 30

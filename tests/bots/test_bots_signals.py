"""Sinais in the bots (issue 12): a partner plays by what it was told, and an opponent
that caught a signal uses it. Hand-built 2 x 2 situations; each cites the rule of
/work/shared/RULES.md (§) that makes the move right. Seats 0 and 2 are a team, 1 and 3
the other (§1).
"""

from __future__ import annotations

import collections
import random

import truco
from truco import bots
from truco.signals import signal_for, signal_to_send

SEEDS = range(12)


def tally(game: truco.Game, level: str, cards_only: bool = True) -> collections.Counter:
    """What ``level`` does here over twelve seeds (raising taken off with ``cards_only``)."""
    obs = game.observation(game.to_move)
    if cards_only:
        obs["legal_actions"] = [a for a in obs["legal_actions"] if a != "raise"]
    return collections.Counter(bots.make(level, random.Random(s)).choose(obs) for s in SEEDS)


def top(counter: collections.Counter) -> str:
    return counter.most_common(1)[0][0]


def partner_last(partner_hand: list[str], signal: bool) -> truco.Game:
    """Seat 1 leads a 2; seat 2 (the bot: 3h 4h 5d) plays next, its partner (seat 0) last."""
    hands = [partner_hand, ["2d", "6s", "5h"], ["3h", "4h", "5d"], ["Jd", "Qc", "Ks"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=0, sinais=True)
    if signal:
        g.apply("signal " + signal_for(g.observation(0)), seat=0)
    g.apply("play 2d")
    assert g.to_move == 2
    return g


def test_told_the_partner_has_the_zap_it_keeps_its_three():
    """§2–§3: only a three or a manilha beats the 2 led. Not knowing, the bot takes the
    round with its three; told its partner (playing last) has the Zap, which nothing
    beats, it does not overtake: it plays low and keeps the three for a later round."""
    for level in ("medio", "dificil"):
        blind = tally(partner_last(["4c", "6c", "Qh"], signal=False), level)
        told = tally(partner_last(["4c", "6c", "Qh"], signal=True), level)
        assert top(blind) == "play 3h", (level, blind)
        assert top(told) == "play 4h" and told["play 3h"] <= 1, (level, told)


def test_told_the_partner_has_nothing_it_takes_the_round_itself():
    """§2: a partner who signalled 'nada' (no manilha, no three) cannot beat a 2: the
    three must go now."""
    for level in ("medio", "dificil"):
        told = tally(partner_last(["4d", "6c", "Qh"], signal=True), level)
        assert told == collections.Counter({"play 3h": len(SEEDS)}), (level, told)


def test_medio_leads_low_to_the_partners_zap():
    """§3: leading the first round in 2 x 2, médio opens with its middle card; told its
    partner (third to play) has the Zap, it leads its weakest and lets the partner take
    the round."""
    hands = [["3h", "5d", "Kc"], ["Kd", "5c", "5h"], ["4c", "6c", "6h"], ["Jd", "Qc", "Qs"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=3, sinais=True)
    assert tally(g, "medio") == collections.Counter({"play Kc": len(SEEDS)})
    g.apply("signal zap", seat=2)
    assert tally(g, "medio") == collections.Counter({"play 5d": len(SEEDS)})


def _seed_where(hands: list[list[str]], caught: bool, signaller: int = 0, catcher: int = 1) -> int:
    """A game seed whose catch draw (the engine's, from the seed) has ``catcher`` catch
    the first signal of ``signaller`` or not."""
    for seed in range(500):
        g = truco.new_game(players=4, seed=seed, hands=hands, dealer=3, sinais=True)
        g.apply("signal " + signal_for(g.observation(signaller)), seat=signaller)
        if (catcher in g.hand["signals"][0]["caught_by"]) == caught:
            return seed
    raise AssertionError("no such seed")


def answer_truco(hands: list[list[str]], caught: bool) -> truco.Game:
    """Seat 0 signals its hand and asks for truco at once; seat 1 answers."""
    g = truco.new_game(players=4, seed=_seed_where(hands, caught), hands=hands, dealer=3, sinais=True)
    g.apply("signal " + signal_for(g.observation(0)), seat=0)
    g.apply("raise")
    assert g.to_move == 1 and bool(g.observation(1)["signals"]) == caught
    return g


def test_an_opponent_that_caught_the_zap_runs_from_truco():
    """§5: with a three, a two and a king, a truco at 0 x 0 is worth accepting; an
    opponent who caught the asker's 'zap' signal knows the asker's side holds the card
    nothing beats, and runs."""
    hands = [["4c", "6c", "Qh"], ["3h", "2d", "Kc"], ["4d", "7c", "Jh"], ["Jd", "Qc", "Ks"]]
    for level in ("medio", "dificil"):
        assert top(tally(answer_truco(hands, caught=False), level, cards_only=False)) == "accept", level
        assert top(tally(answer_truco(hands, caught=True), level, cards_only=False)) == "run", level


def test_an_opponent_that_caught_nada_calls_the_bluff():
    """§5: with a king, a jack and a five, a truco is usually run from; an opponent who
    caught the asker's 'nada' knows the truco is a bluff and accepts."""
    hands = [["5d", "6c", "Qh"], ["Ac", "Jd", "5h"], ["4d", "7c", "Jh"], ["Js", "Qc", "Ks"]]
    for level in ("medio", "dificil"):
        assert top(tally(answer_truco(hands, caught=False), level, cards_only=False)) == "run", level
        assert top(tally(answer_truco(hands, caught=True), level, cards_only=False)) == "accept", level


def test_an_opponent_that_caught_the_zap_does_not_waste_its_three():
    """§2–§3: the seat right after médio holds the Zap (a caught signal): médio cannot
    take the round, so it keeps its three; without the catch it plays the three."""
    hands = [["6c", "6s", "Qh"], ["3h", "4h", "5d"], ["4c", "7c", "Jh"], ["Jd", "Qc", "Ks"]]
    for caught, want in ((False, "play 3h"), (True, "play 4h")):
        seed = _seed_where(hands, caught, signaller=2, catcher=1)
        g = truco.new_game(players=4, seed=seed, hands=hands, dealer=3, sinais=True)
        g.apply("signal zap", seat=2)
        g.apply("play 6c")
        assert tally(g, "medio") == collections.Counter({want: len(SEEDS)}), caught


def test_a_signal_nobody_saw_changes_nothing():
    """Each seat's observation holds only the signals it saw: an opponent that did not
    catch a signal decides exactly as if none had been sent."""
    hands = [["4c", "6c", "Qh"], ["3h", "2d", "Kc"], ["4d", "7c", "Jh"], ["Jd", "Qc", "Ks"]]
    seed = _seed_where(hands, caught=False)
    quiet = truco.new_game(players=4, seed=seed, hands=hands, dealer=3, sinais=True)
    quiet.apply("raise")
    told = answer_truco(hands, caught=False)
    for level in bots.LEVELS:
        assert tally(quiet, level, cards_only=False) == tally(told, level, cards_only=False)


# ------------------------------------------------------- when a bot signals (issue 12)
# A signal reaches the partner always and an opponent now and then (game.CATCH_CHANCE):
# the bots signal only what is worth more to the partner than to a catcher
# (signal_to_send; the arena figures are in bench/bots/arena_signals.md).

def _start(hands: list[list[str]]) -> truco.Game:
    """Seat 1 is mão (dealer 0): it leads the hand; seats 0 and 2 are the other team."""
    return truco.new_game(players=4, seed=1, hands=hands, dealer=0, sinais=True)


WEAK = ["5d", "6c", "Qh"]


def test_a_bot_signals_a_manilha_as_the_hand_starts():
    """Sinais: the manilha is what the partner plans the hand around (§2)."""
    g = _start([["7h", "6c", "Qh"], ["Ac", "Jd", "5h"], ["4c", "As", "Jh"], ["Js", "Qc", "Ks"]])
    assert [signal_to_send(g.observation(s)) for s in range(4)] == ["copas", None, "zap", None]


def test_a_bot_keeps_a_three_or_nothing_quiet():
    """A caught 'nada' or 'tres' tells the opponents the seat is weak (they raise on it and
    call its bluffs): at the start of the hand the bot says nothing."""
    g = _start([WEAK, ["Ac", "Jd", "5h"], ["3h", "Kd", "Jc"], ["Js", "Qc", "Ks"]])
    assert [signal_to_send(g.observation(s)) for s in range(4)] == [None] * 4


def test_nada_goes_out_when_the_partner_must_answer_a_truco():
    """§5: the opponents ask for truco and seat 2 answers for the pair; its partner (seat
    0, no card played yet) now says 'nada'. The answerer itself and the asking side say
    nothing, and the partner, told, runs from a truco it would have accepted."""
    hands = [WEAK, ["Ac", "Jd", "5h"], ["3h", "Kd", "Jc"], ["Js", "Qc", "Ks"]]
    g = _start(hands)
    g.apply("raise")
    assert g.observation(0)["pending"]["answerer"] == 2
    assert [signal_to_send(g.observation(s)) for s in range(4)] == ["nada", None, None, None]
    blind = {level: tally(g, level, cards_only=False) for level in ("medio", "dificil")}
    g.apply("signal nada", seat=0)
    for level in ("medio", "dificil"):
        told = tally(g, level, cards_only=False)
        assert top(blind[level]) == "accept" and top(told) == "run", (level, blind[level], told)


def test_no_signal_after_the_first_card_or_without_seeing_the_hand():
    """A seat signals only before its first card (issue 12), and a seat that has not seen
    its cards has nothing honest to tell."""
    g = _start([["7h", "6c", "Qh"], ["Ac", "Jd", "5h"], ["4c", "As", "Jh"], ["Js", "Qc", "Ks"]])
    assert signal_to_send(dict(g.observation(2), blind=True, hand=[])) is None
    g.apply("play Ac")
    g.apply("play Jh")
    obs = g.observation(2)
    assert not obs["may_signal"] and signal_to_send(obs) is None


def test_no_signal_in_a_mao_de_dez_where_the_partner_sees_the_cards():
    """§6: in a mão de dez the partners see each other's cards, so a manilha needs no
    signal (one that an opponent might catch); the other team, which sees nothing of its
    partner's hand, still signals its manilha."""
    hands = [["7h", "6c", "Qh"], ["Ac", "Jd", "5h"], ["4c", "As", "Jh"], ["7d", "Qc", "Ks"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=0, sinais=True, score=[10, 4])
    assert g.observation(0)["visible_hands"] == [{"seat": 2, "cards": ["4c", "As", "Jh"]}]
    assert [signal_to_send(g.observation(s)) for s in range(4)] == [None, None, None, "pica-fumo"]



def test_a_caught_signal_sets_the_table_aside_its_own_arithmetic_answers(monkeypatch):
    """Issue 44: a state of difícil's 2 x 2 table for sinais knows only the win chance, so
    after catching a live signal of the asker's team difícil answers by its own arithmetic,
    which weighs the signal, whatever the table says: it runs from the caught Zap's truco
    (§5) though the table says accept, and accepts the caught 'nada''s though the table says
    run; with nothing caught, the table's answer stands. (Reading the table after a caught
    manilha gained its sticks 0.2-1.1 points but let an exploiter win 53.4%: not shipped.)"""
    from truco.bots import betting_table
    every = {f"answer|4|{r}|4|{b}" for r in ("0", "1W", "1L", "1T", "2") for b in range(8)}
    zap = [["4c", "6c", "Qh"], ["3h", "2d", "Kc"], ["4d", "7c", "Jh"], ["Jd", "Qc", "Ks"]]
    nada = [["5d", "6c", "Qh"], ["Ac", "Jd", "5h"], ["4d", "7c", "Jh"], ["Js", "Qc", "Ks"]]
    monkeypatch.setitem(betting_table.SINAIS_TABLES, ("mineiro", 4), dict.fromkeys(every, {"accept": 1.0}))
    assert top(tally(answer_truco(zap, caught=True), "dificil", cards_only=False)) == "run"
    assert top(tally(answer_truco(nada, caught=False), "dificil", cards_only=False)) == "accept"
    monkeypatch.setitem(betting_table.SINAIS_TABLES, ("mineiro", 4), dict.fromkeys(every, {"run": 1.0}))
    assert top(tally(answer_truco(nada, caught=True), "dificil", cards_only=False)) == "accept"
    assert top(tally(answer_truco(zap, caught=False), "dificil", cards_only=False)) == "run"

"""Bots: hand-built situations a good player gets right, legality, information, determinism.

Each situation cites the rule of /work/shared/RULES.md (§) that makes the move right.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import truco
from truco import bots
from truco.bots.knowledge import manilhas_of, read, strength_table
from truco.bots.simulate import sample_world
from truco.signals import signal_for
from truco.bots.knowledge import TIE
from truco.bots.simulate import VOID
from truco.judge import hand_outcome
from helpers.engine import random_positions

SMART = ("medio", "dificil")
LEVELS = bots.LEVELS


def choose(level: str, game: truco.Game, seed: int = 1, cards_only: bool = False) -> str:
    """The bot's action; with ``cards_only``, asked as if raising were not on offer (to
    probe its card play alone)."""
    seat = game.to_move
    obs = game.observation(seat)
    if cards_only:
        obs["legal_actions"] = [a for a in obs["legal_actions"] if a != "raise"]
    return bots.make(level, random.Random(seed)).choose(obs)


def choices(level: str, game: truco.Game, seeds=range(8), cards_only: bool = False) -> set[str]:
    return {choose(level, game, s, cards_only) for s in seeds}


# ----------------------------------------------------------------- the factory
def test_make_every_level():
    for level in bots.ALL_LEVELS:
        bot = bots.make(level, random.Random(0))
        assert bot.level == level
        assert callable(bot.choose)


def test_make_rejects_unknown_level_and_bad_rng():
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.make("expert", random.Random(0))
    with pytest.raises(TypeError):
        bots.make("medio", 42)


def test_strength_comes_from_the_rules():
    """§2 and §9: the bot's strength table is the hand's, read from the observation (the
    fixed manilhas, or the ones a vira names)."""
    for name in truco.PRESETS:
        for seed in range(4):
            g = truco.new_game(name, seed=seed)
            obs = g.observation(g.to_move)
            table = strength_table(manilhas_of(obs))
            rules = truco.preset(name)
            want = rules.strength_table(obs.get("vira"))
            for card in truco.DECK:
                assert table[card] == want[card], (name, card)


def test_hand_outcome_with_the_rollouts_markers():
    """§3: the engine's rule called with the rollouts' integer markers (TIE, VOID) gives the
    outcome it gives with its own ("tie", "void"), on every sequence of rounds."""
    codes = {0: 0, 1: 1, "tie": TIE}
    import itertools
    for n in (2, 3):
        for seq in itertools.product((0, 1, "tie"), repeat=n):
            ours = hand_outcome([codes[x] for x in seq], TIE, VOID)
            theirs = hand_outcome(list(seq))
            assert ours == (VOID if theirs == "void" else theirs), seq


# ------------------------------------------------------------ card play (§2–§4)
def test_wins_cheaply():
    """§2: the opponent led a K; a 3 takes the round, the Zap is kept for later."""
    g = truco.new_game(seed=1, hands=[["Kc", "5h", "6s"], ["3d", "4c", "5d"]], dealer=1)
    g.apply("play Kc")
    for level in SMART:
        assert choices(level, g, cards_only=True) == {"play 3d"}, level


def test_ducks_with_the_weakest_when_the_round_is_lost():
    """§2: nothing beats the Zap; throw the weakest card, keep the 3 and the 2."""
    g = truco.new_game(seed=1, hands=[["4c", "5h", "6s"], ["3d", "2h", "5d"]], dealer=1)
    g.apply("play 4c")
    for level in SMART:
        assert choices(level, g, cards_only=True) == {"play 5d"}, level


def test_fácil_plays_its_best_card_first():
    """The fácil level makes a human mistake: it leads with its best card."""
    g = truco.new_game(seed=1, hands=[["4c", "5h", "3s"], ["3d", "2h", "5d"]], dealer=1)
    assert choose("facil", g, cards_only=True) == "play 4c"


def test_tie_that_wins_the_hand():
    """§3, §4: round 1 won, round 2 lost; the opponent leads a 3 in round 3 and we hold a
    3. Tying gives the hand to the winner of round 1 (us); covering would lose it."""
    g = truco.new_game(seed=1, hands=[["Kc", "3h", "5s"], ["2d", "3d", "4h"]], dealer=1)
    g.apply("play Kc")
    g.apply("play 2d")  # seat 1 wins round 1 and leads
    g.apply("play 4h")
    g.apply("play 5s")  # seat 0 wins round 2 and leads round 3
    g.apply("play 3h")
    assert g.to_move == 1 and "cover 3d" in g.legal_actions()
    for level in SMART:
        assert choices(level, g) <= {"play 3d", "raise"}, level


def test_does_not_overtake_a_winning_partner():
    """§3 (2 x 2): the partner's 3 holds the round and nobody is left to play after us:
    a good player throws its weakest card and keeps the manilha."""
    hands = [["5c", "6h", "7s"], ["3c", "Kh", "Qs"], ["4h", "5s", "6d"], ["7h", "4d", "5d"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=3)
    g.apply("play 5c")   # seat 0 (team 0)
    g.apply("play 3c")   # seat 1 (team 1): holds the round
    g.apply("play 4h")   # seat 2 (team 0)
    assert g.to_move == 3
    for level in SMART:
        assert choices(level, g, cards_only=True) == {"play 4d"}, level


def test_second_seat_leaves_a_strong_partner_alone():
    """§3 (2 x 2): in the 3rd seat, with the partner's Zap on the table, play low."""
    hands = [["5c", "6h", "7s"], ["4c", "Kh", "Qs"], ["Jh", "5s", "6d"], ["7h", "4d", "5d"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=3)
    g.apply("play 5c")
    g.apply("play 4c")   # seat 1: the Zap, nothing beats it
    g.apply("play Jh")
    for level in SMART:
        assert choices(level, g, cards_only=True) == {"play 4d"}, level


# --------------------------------------------------------- raises and answers (§5)
def _truco_after_first_round(bot_hand, opp_hand):
    """Seat 1 wins round 1; seat 0 asks truco in round 2; seat 1 answers."""
    g = truco.new_game(seed=2, hands=[opp_hand, bot_hand], dealer=1)
    g.apply("play " + opp_hand[0])
    g.apply("play " + bot_hand[0])
    return g


def test_zap_and_a_won_first_round_never_runs():
    """§3, §5: round 1 won and the Zap in hand: the hand is won whatever comes; never run."""
    g = truco.new_game(seed=2, hands=[["Kc", "5h", "6s"], ["3d", "4c", "5d"]], dealer=1)
    g.apply("play Kc")
    g.apply("play 3d")  # seat 1 wins round 1, leads round 2
    g.apply("play 5d")
    g.apply("raise")    # seat 0 asks truco: seat 1 answers with the Zap in hand
    assert g.to_move == 1
    for level in LEVELS:
        assert "run" not in choices(level, g), level


def test_three_low_cards_do_not_accept_doze_at_0x0():
    """§5: doze with 4, 5, 6 at 0 x 0 loses the game almost surely; run (they get 10)."""
    g = truco.new_game(seed=3, hands=[["5c", "4h", "6s"], ["4c", "7h", "As"]], dealer=1)
    g.apply("raise")   # seat 0: truco
    g.apply("raise")   # seat 1: seis
    g.apply("raise")   # seat 0: dez
    g.apply("raise")   # seat 1: doze
    assert g.to_move == 0 and g.observation(0)["pending"]["value"] == 12
    for level in LEVELS:
        assert choices(level, g) == {"run"}, level


def test_accepts_anything_when_running_loses_the_game():
    """§5, §7: at 4 x 8, running from truco-accepted-then-seis gives them 4: 12, game over.
    With the worst cards, play on."""
    g = truco.new_game(seed=4, hands=[["5c", "4h", "6s"], ["4c", "7h", "As"]], dealer=1,
                       score=(4, 8))
    g.apply("raise")   # seat 0 asks truco
    g.apply("accept")  # seat 1 accepts: the hand is worth 4
    g.apply("play 4h")
    g.apply("raise")   # seat 1 asks seis; running gives team 1 the 4 it needs
    assert g.to_move == 0
    for level in SMART:
        assert "run" not in choices(level, g), level


def test_raises_with_a_sure_win():
    """§5: 1st round won and the Zap in hand: asking truco can only gain."""
    g = truco.new_game(seed=2, hands=[["Kc", "5h", "6s"], ["3d", "4c", "5d"]], dealer=1)
    g.apply("play Kc")
    g.apply("play 3d")  # seat 1 wins round 1 and leads round 2 with the Zap in hand
    assert "raise" in g.legal_actions()
    for level in SMART:
        assert "raise" in choices(level, g), level


def test_facil_runs_more_than_medio():
    """The levels differ: facing truco at the start of the same hands, fácil runs more."""
    runs = {"facil": 0, "medio": 0}
    for seed in range(40):
        g = truco.new_game(seed=seed, players=2)
        g.apply("raise")
        for level in runs:
            runs[level] += choose(level, g, seed) == "run"
    assert runs["facil"] > runs["medio"] + 3


# ----------------------------------------------------------- mão de dez (§6)
def test_mao_de_dez_plays_with_manilhas_and_runs_with_trash():
    """§6: at 10 x 0, with the partner's cards in view, play the Zap and Copas; run
    with nothing but low cards (running costs 2, losing costs 4)."""
    strong = [["4c", "7h", "5s"], ["Kc", "Qh", "Js"], ["3c", "2h", "As"], ["Kd", "Qd", "Jd"]]
    weak = [["4s", "5h", "5s"], ["3c", "2h", "As"], ["6h", "4h", "5d"], ["4c", "7h", "7d"]]
    for hands, want in ((strong, "accept"), (weak, "run")):
        g = truco.new_game(players=4, seed=5, hands=hands, dealer=3, score=(10, 0))
        obs = g.observation(g.to_move)
        assert obs["decision"]["type"] == "mao_de_dez"
        assert obs["visible_hands"], "the partner's cards are in view in a mão de dez"
        for level in SMART:
            assert choices(level, g) == {want}, (level, want)


def test_blind_hand_names_cards_by_position():
    """§6: mão de ferro no escuro: the bot cannot see its cards and plays 'play #n'."""
    g = truco.new_game(seed=6, score=(10, 10), ferro="escuro")
    obs = g.observation(g.to_move)
    assert obs["blind"]
    for level in bots.ALL_LEVELS:
        a = bots.make(level, random.Random(1)).choose(obs)
        assert a.startswith("play #") and a in obs["legal_actions"]


# ------------------------------------------------------- legality and information
def test_never_an_illegal_action():
    """Thousands of random positions, every preset, 1 x 1, 2 x 2, 3 x 3: always legal."""
    count = 0
    for i, g in enumerate(random_positions(1500, seed=11)):
        seat = g.to_move
        obs = g.observation(seat)
        legal = set(g.legal_actions())
        for level in bots.ALL_LEVELS:
            if level == "dificil" and i % 3:
                continue  # the slowest level on every third position keeps the test quick
            action = bots.make(level, random.Random(i)).choose(obs)
            assert action in legal, (level, action, legal, obs)
            count += 1
    assert count > 4000


def test_uses_nothing_but_the_observation():
    """A bot given only a JSON copy of the observation chooses as with the original, and
    a deal that differs only in cards the seat cannot see gives the same choice."""
    for i, g in enumerate(random_positions(60, seed=12)):
        seat = g.to_move
        obs = g.observation(seat)
        frozen = json.loads(json.dumps(obs))
        for level in bots.LEVELS:
            a = bots.make(level, random.Random(i)).choose(copy.deepcopy(obs))
            b = bots.make(level, random.Random(i)).choose(frozen)
            assert a == b
        assert obs == frozen, "the bot must not modify the observation"
    # swap hidden cards between the opponents: the observation is the same, and so is the move
    hands = [["4c", "3h", "5s"], ["7h", "2c", "Qd"]]
    other = [["4c", "3h", "5s"], ["Kd", "Kh", "6c"]]
    g1 = truco.new_game(seed=9, hands=hands, dealer=1)
    g2 = truco.new_game(seed=9, hands=other, dealer=1)
    o1, o2 = g1.observation(0), g2.observation(0)
    assert o1 == o2
    for level in bots.ALL_LEVELS:
        for s in range(5):
            assert (bots.make(level, random.Random(s)).choose(o1)
                    == bots.make(level, random.Random(s)).choose(o2))


def test_deterministic_given_the_rng():
    for i, g in enumerate(random_positions(40, seed=13)):
        obs = g.observation(g.to_move)
        for level in bots.ALL_LEVELS:
            assert (bots.make(level, random.Random(i)).choose(obs)
                    == bots.make(level, random.Random(i)).choose(obs))


def test_refuses_an_observation_without_a_move():
    g = truco.new_game(seed=1)
    other = 1 - g.to_move
    with pytest.raises(ValueError):
        bots.make("dificil", random.Random(0)).choose(g.observation(other))


def test_knowledge_never_counts_a_hidden_card_as_seen():
    """The cards a bot reasons about come from its observation only (§4: covered cards
    stay hidden): its pool of unseen cards holds every card it could not see."""
    for g in random_positions(200, seed=14):
        seat = g.to_move
        k = read(g.observation(seat))
        strength = k.strength
        hidden = []
        for s, cards in enumerate(g.hand["hands"]):
            if s == seat and not g.hand["blind"]:
                continue
            if s in k.known:
                continue
            hidden += cards
        for c in k.hand:
            assert c in g.hand["hands"][seat]
        for r in g.hand["rounds"]:
            for s, c, covered in r["plays"]:
                if covered and s != seat:
                    hidden.append(c)
        pool = list(k.pool)
        for c in hidden:
            pool.remove(strength[c])  # raises if a hidden card were missing from the pool


def test_partner_signal_shapes_the_sampled_deals():
    """Sinais (2 x 2): the partner signalled the Zap, so every deal the bot imagines gives
    the partner the Zap; a partner's 'nada' gives it no manilha and no three."""
    for signal, want in (("zap", lambda v: 13 in v), ("nada", lambda v: max(v) < 9)):
        for seed in range(30):
            g = truco.new_game(players=4, seed=seed, sinais=True)
            partner = (g.to_move + 2) % 4
            true = signal_for(g.observation(partner))
            if true != signal:
                continue
            g.apply("signal " + true, seat=partner)
            k = read(g.observation(g.to_move))
            assert partner in k.checks
            rng = random.Random(seed)
            for _ in range(50):
                assert want(sample_world(k, rng)[partner])
            break
        else:
            pytest.fail(f"no deal with a partner holding {signal!r} in 30 seeds")


def test_baralho_limpo_and_vira_are_out_of_the_pool():
    """§9: with baralho limpo the 4-7s (but the manilhas) are not in play; the vira is
    out of play too: the bot never imagines them in a hand."""
    g = truco.new_game(seed=3, players=2, baralho_limpo=True)
    k = read(g.observation(g.to_move))
    assert len(k.pool) + len(k.hand) == len(truco.preset("mineiro").deck(True))
    g = truco.new_game("paulista", seed=3, players=2)
    obs = g.observation(g.to_move)
    k = read(obs)
    assert obs["vira"] and len(k.pool) == 40 - 3 - 1


# ------------------------------------------- a bot built afresh for every move (app, arena)
def _play_until(game, levels, hand_number):
    while game.to_move is not None and game.observation(0)["hand_number"] < hand_number:
        s = game.to_move
        game.apply(bots.for_move(levels[s], game.seed, s, len(game.log)).choose(game.observation(s)), seat=s)


def test_history_shows_earlier_hands_and_never_a_covered_card():
    """The observation's ``history`` holds the public events of the match's earlier hands
    (what every player at the table saw), so a bot made for one move can read the table."""
    g = truco.new_game(seed=11, players=4)
    _play_until(g, ["random", "passive"] * 2, 5)
    assert g.to_move is not None
    obs = g.observation(1)
    hist = obs["history"]
    assert [e["hand_number"] for e in hist if e["type"] == "deal"][:1] == [1]
    first_in_log = next(e["hand_number"] for e in obs["log"] if e["type"] == "deal")
    assert all(e["hand_number"] < first_in_log for e in hist if e["type"] == "deal")
    assert any(e["type"] == "play" for e in hist)
    assert all("card" not in e for e in hist if e["type"] == "cover")
    assert obs["history"] == [dict(e) for e in g.observation(2)["history"]], "the same for every seat"


def test_a_fresh_bot_learns_that_always_raising_back_says_nothing():
    """Against a team that raised back every request earlier in the match, difícil built
    from one observation treats its bets as noise and expects to outplay it (RULES.md §5)."""
    from truco.bots.opponents import Memory
    from truco.bots.player import HeuristicBot, LEVEL_SETTINGS, noise_of

    g = truco.new_game(seed=5, players=4, series=3)
    levels = ["dificil", "always-accept"] * 2
    for hand in range(2, 40):
        _play_until(g, levels, hand)
        assert g.to_move is not None
        obs = g.observation(0)
        memory = Memory()
        memory.update(obs, strength_table(manilhas_of(obs)), manilhas_of(obs))
        if memory.teams[1].counters >= 2:
            assert noise_of(memory.teams[1]) == 1.0
            bot = HeuristicBot(LEVEL_SETTINGS["dificil"], random.Random(0))
            bot.memory = memory
            assert bot._game_values(read(obs)).win_prob(0, 0) > 0.6  # expects to win from 0 x 0
            return
    pytest.fail("no counter-raise seen")


def test_arena_builds_its_bots_like_the_app(monkeypatch):
    """The arena makes each move with the bot the web app would make for it
    (``truco.api`` seeds ``bot:{seed}:{seat}:{len(log)}``): same bot, same choice."""
    from truco import api
    from truco_lab import arena

    calls = []
    real = bots.for_move

    def spy(level, seed, seat, moves):
        calls.append((level, seed, seat, moves))
        return real(level, seed, seat, moves)

    monkeypatch.setattr(bots, "for_move", spy)
    arena.play_game("mineiro", 2, ["dificil", "medio"], "eq")
    assert calls and all(c[1] == "eq" for c in calls)
    # the app: a session on the same game, each position's bot built the same way
    game = truco.new_game("mineiro", players=2, seed="eq")
    session = api.Session(game, 0, {1: "medio"})
    calls.clear()
    api._bot(session, 1)
    assert calls == [("medio", "eq", 1, len(game.log))]


def test_bets_of_a_team_that_covers_like_a_random_player_say_little():
    """Covering a fifth of its cards is random play (a careful player covers only a card
    that loses anyway, RULES.md §4): such a team's raises are read as noise."""
    from truco.bots.opponents import TeamStats
    from truco.bots.player import noise_of

    assert noise_of(TeamStats(cards=20, covers=5)) == 1.0
    assert noise_of(TeamStats(cards=20, covers=0, follows=4)) < 0.3


def test_a_team_that_acts_at_random_is_recognised_within_a_few_hands():
    """What a button-presser shows (wasted high cards, covered cards, raises back, bets
    seen weak at the end of the hand) makes difícil stop reading its raises as strength;
    a team that keeps its low cards and answers on its cards is not taken for one."""
    from truco.bots.opponents import RANDOM_PRIOR, TeamStats
    from truco.bots.player import noise_of

    assert TeamStats().random_share() == pytest.approx(RANDOM_PRIOR)
    # two hands of random play: 4 judged follows, 2 wasted; 2 covers; 1 raise back
    # out of 2 answers; one raise seen made with a weak hand
    rnd = TeamStats(follows=4, wastes=2, cards=10, covers=2, counters=1, accepts=1,
                    bets_judged=1, bets_weak=1)
    assert rnd.random_share() > 0.9
    assert noise_of(rnd) > 0.9
    # the same two hands played on the cards: low cards kept, no cover, honest answers
    careful = TeamStats(follows=4, wastes=0, cards=10, covers=0, accepts=1, runs=1,
                        bets_judged=1, bets_weak=0)
    assert careful.random_share() < 0.05


def test_a_truco_the_raisers_cards_belie_costs_less_than_a_credible_one():
    """§5: a truco followed by a weak card leaves the asker few hands an honest truco is
    made with, so difícil takes it for a likely bluff and discounts its chances less than
    after a truco followed by a manilha (7 de copas)."""
    from truco.bots.player import LEVEL_SETTINGS

    def margins(card: str) -> list[float]:
        g = truco.new_game(seed=7, hands=[[card, "4h", "Qs"], ["2d", "Kd", "Jc"]], dealer=1)
        g.apply("raise")   # seat 0 asks truco before any card
        g.apply("accept")  # difícil's seat accepts
        g.apply("play " + card)
        out = []
        for seed in range(6):
            bot = bots.make("dificil", random.Random(seed))
            bot.choose(g.observation(1))
            out.append(bot._margin)
        return out

    base = LEVEL_SETTINGS["dificil"].shown_strength_margin
    assert max(margins("5d")) < 0.3 * base < 0.5 * base < min(margins("7h"))


def test_a_team_that_covers_like_a_random_player_is_expected_to_cover_in_the_rollouts():
    """§4: from the 2nd round a card may go face down, and it then loses to every face-up
    card. A player pressing any button covers about half of the cards it may cover; a
    careful one almost never does. Difícil counts what each team covered of the cards it
    could, and its rollouts play a careless seat's random card face down that often: a
    careless seat holding only the Zap (strength 13) against our 3 takes the last round
    when it plays face up, and loses it covered."""
    from truco.bots.opponents import Memory
    from truco.bots.simulate import rollout

    def counted(levels, team):
        cards = covers = 0
        for seed in range(1, 5):
            g = truco.new_game(seed=seed, players=4, series=3)
            _play_until(g, levels, 10)
            obs = g.observation(0)
            memory = Memory()
            memory.update(obs, strength_table(manilhas_of(obs)), manilhas_of(obs))
            cards += memory.teams[team].late_cards
            covers += memory.teams[team].covers
        return cards, covers

    cards, covers = counted(["dificil", "random"] * 2, 1)
    assert cards >= 30 and 0.3 < covers / cards < 0.7, (cards, covers)
    cards, covers = counted(["passive", "medio"] * 2, 0)
    assert cards >= 30 and covers == 0, (cards, covers)

    # 1 x 1, round 3 after a round each (results 0 then 1); seat 1 leads with the Zap.
    def last_round(covers):
        return rollout([[9], [13]], 2, [0, 1], [], 1, noise=[0.0, 1.0], coins=[0.0, 0.5],
                       covers=covers)
    assert last_round(None) == 1 and last_round([0.0, 0.0]) == 1
    assert last_round([0.0, 1.0]) == 0  # played covered, the Zap loses to the 3

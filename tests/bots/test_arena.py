"""Arena: mirrored deals, reproducibility, and a small tournament with fixed seeds.

The tournament is small (a few hundred mirrored 2 x 2 games per pairing) so the suite
stays quick; bench/ and the arena CLI run the 2,000-game tables.
"""

from __future__ import annotations

import pytest

from truco_lab import arena
from truco.game import deal_for


def test_mirrored_pair_swaps_the_teams_on_the_same_deals():
    """Both games of a pair deal the same cards to the same seats; the teams swap seats."""
    seen = []
    original = arena.play_game

    def spy(preset, players, seat_levels, seed, **options):
        seen.append((list(seat_levels), seed))
        return original(preset, players, seat_levels, seed, **options)

    arena.play_game = spy
    try:
        res = arena.play_pair(("mineiro", 4, "medio", "passive", 1, 0, {}))
    finally:
        arena.play_game = original
    (levels_a, seed_a), (levels_b, seed_b) = seen
    assert seed_a == seed_b
    assert levels_a == ["medio", "passive", "medio", "passive"]
    assert levels_b == ["passive", "medio", "passive", "medio"]
    assert deal_for(seed_a, 0, 4) == deal_for(seed_b, 0, 4)
    assert res.games == 2 and 0 <= res.wins_a <= 2


def test_reproducible_from_the_seed():
    a = arena.run("mineiro", 2, "medio", "facil", games=8, seed=5, jobs=1)
    b = arena.run("mineiro", 2, "medio", "facil", games=8, seed=5, jobs=1)
    assert (a.wins_a, a.points_a, a.points_b, a.hands) == (b.wins_a, b.points_a, b.points_b, b.hands)


def test_cli_prints_the_summary(capsys):
    assert arena.main(["--players", "2", "--a", "medio", "--b", "random", "--games", "8",
                       "--seed", "3", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    for word in ("games won", "points/hand", "95% CI", "games/s"):
        assert word in out


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        arena.run("mineiro", 2, "grandmaster", "random", games=2)


# --------------------------------------------------------------- the tournament
GAMES = 200
"""Mirrored 2 x 2 games per pairing, fixed seed: enough to separate the levels.
Measured with this seed (bots built afresh per move, as in the app): médio-passive 89.5%,
difícil-passive 91.5%, fácil-random 79%, médio-fácil 71%, difícil-médio 54.5%. With
difícil's 2 x 2 betting table (issue 27): difícil-passive 87.5% (89.5% without the table
just before; 14 of 100 pairs differ, ± 4 points over 200 games, and 2,000-game runs on two
seeds give +0.8 ± 1.8 and -1.3 ± 1.9 points, bench/bots/arena_results.md), difícil-médio
58% (53.5%)."""


@pytest.fixture(scope="module")
def tournament() -> dict[tuple[str, str], arena.ArenaResult]:
    pairings = [("medio", "passive"), ("dificil", "passive"), ("facil", "random"),
                ("medio", "facil"), ("dificil", "medio")]
    return {(a, b): arena.run("mineiro", 4, a, b, games=GAMES, seed="test", jobs=2)
            for a, b in pairings}


@pytest.mark.soak  # the tournament's figures are in bench/bots/arena_results.md
@pytest.mark.slow  # the 200-game tournament (a strength check)
def test_medio_beats_passive(tournament):
    assert tournament[("medio", "passive")].win_rate >= 0.80


@pytest.mark.soak  # the tournament's figures are in bench/bots/arena_results.md
@pytest.mark.slow  # the 200-game tournament (a strength check)
def test_dificil_beats_passive(tournament):
    # the exact bound for a team that sees both of its hands is 0.908; 0.86 leaves this
    # seed's 200 games (± 4 points) their noise; the order of the levels is checked below
    assert tournament[("dificil", "passive")].win_rate >= 0.86


@pytest.mark.soak  # the tournament's figures are in bench/bots/arena_results.md
@pytest.mark.slow  # the 200-game tournament (a strength check)
def test_levels_are_ordered(tournament):
    """random < fácil < médio < difícil, each by a margin a weakened bot would miss."""
    assert tournament[("facil", "random")].win_rate >= 0.70
    assert tournament[("medio", "facil")].win_rate >= 0.60
    assert tournament[("dificil", "medio")].win_rate >= 0.52


# ------------------------------------------------------------------------ sinais
def _signals_in(signals: str, catching: bool = True, policy: str = "table") -> list[tuple[list[str], list[dict]]]:
    """(seat levels, log) of both games of one pair played with these settings."""
    seen = []
    original = arena.play_game

    def spy(*args, **kw):
        winner, log = original(*args, **kw)
        seen.append((list(args[2]), log))
        return winner, log

    arena.play_game = spy
    try:
        arena.play_pair(("mineiro", 4, "medio", "facil", 2, 0, {"signals": signals, "catching": catching,
                                                                  "signal_policy": policy}))
    finally:
        arena.play_game = original
    return seen


def test_only_the_chosen_side_signals():
    """--signals a: A's seats signal by the table's policy (signal_to_send: every manilha,
    a three or 'nada' only while the partner answers the opponents' raise), at most once
    a seat a hand; B's seats never, in both games of a pair (A's team changes seats)."""
    from truco.signals import MANILHA_SIGNALS

    for levels, log in _signals_in("a"):
        senders = [e["seat"] for e in log if e["type"] == "signal"]
        assert senders and all(levels[s] == "medio" for s in senders)
        hand, raised_by = [], None
        for e in log:
            if e["type"] == "deal":
                hand, raised_by = [], None
            elif e["type"] == "raise":
                raised_by = e["seat"] % 2
            elif e["type"] in ("accept", "run"):
                raised_by = None
            elif e["type"] == "signal":
                assert e["seat"] not in hand, "one signal a seat a hand"
                hand.append(e["seat"])
                if e["signal"] not in MANILHA_SIGNALS:
                    assert raised_by == 1 - e["seat"] % 2, e
    for _, log in _signals_in("none"):
        assert not any(e["type"] == "signal" for e in log)


def test_signal_policy_always_signals_every_hand():
    """--signal-policy always (the bots before the policy, kept for the bench): every seat
    of A's team signals once every hand."""
    for levels, log in _signals_in("a", policy="always"):
        hands = sum(e["type"] == "deal" for e in log)
        senders = [e["seat"] for e in log if e["type"] == "signal"]
        assert all(levels[s] == "medio" for s in senders)
        assert len(senders) == 2 * hands
    with pytest.raises(ValueError, match="signal_policy"):
        arena.run("mineiro", 4, "medio", "facil", games=2, signals="a", signal_policy="never")


def test_catching_off_hides_caught_signals_from_the_bots():
    """--catching off: the engine still draws catches (so deals and draws match), but no
    bot is shown an opponent's signal."""
    shown = []
    original = arena.bots.make

    class Spy:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, obs):
            shown.append(obs)
            return self.bot.choose(obs)

    arena.bots.make = lambda level, rng: Spy(original(level, rng))
    try:
        logs = [log for _, log in _signals_in("both", catching=False)]
    finally:
        arena.bots.make = original
    assert any(e["type"] == "signal" and e["caught_by"] for log in logs for e in log)
    assert shown and all(x["seat"] % 2 == o["seat"] % 2 for o in shown for x in o["signals"])
    assert all(e["seat"] % 2 == o["seat"] % 2 for o in shown for e in o["log"] if e["type"] == "signal")


def test_signals_need_partners():
    with pytest.raises(ValueError, match="partners"):
        arena.run("mineiro", 2, "medio", "facil", games=2, signals="a")
    with pytest.raises(ValueError, match="signals must be"):
        arena.run("mineiro", 4, "medio", "facil", games=2, signals="all")

"""The arena on the variants (issue 9): mirrored pairs with six seats, Truco Paulista games
with a vira every hand, and the bench script's table (truco_lab.arena_variants)."""

from __future__ import annotations

from truco_lab import arena
from truco.game import deal_for


def _pair(preset, players, options=None):
    """(seat levels, seed, log) of both games of pair 0, A = médio, B = passive."""
    seen = []
    original = arena.play_game

    def spy(preset_, players_, seat_levels, seed, **kw):
        winner, log = original(preset_, players_, seat_levels, seed, **kw)
        seen.append((list(seat_levels), seed, log))
        return winner, log

    arena.play_game = spy
    try:
        res = arena.play_pair((preset, players, "medio", "passive", 1, 0, options or {}))
    finally:
        arena.play_game = original
    return res, seen


def test_3x3_pairs_swap_the_teams_of_three_on_the_same_deals():
    res, [(levels_a, seed_a, _), (levels_b, seed_b, _)] = _pair("mineiro", 6)
    assert levels_a == ["medio", "passive"] * 3 and levels_b == ["passive", "medio"] * 3
    assert seed_a == seed_b and deal_for(seed_a, 0, 6) == deal_for(seed_b, 0, 6)
    assert res.games == 2 and res.hands > 0


def test_paulista_games_score_by_the_paulista_ladder():
    """The preset reaches the games: hands are worth 1, 3, 6, 9 or 12 (RULES.md §9), never
    the Mineiro's 2 / 4 / 10, and each game still ends at 12."""
    res, games = _pair("paulista", 2)
    for _, _, log in games:
        points = {e["points"] for e in log if e["type"] == "hand" and e["winner"] is not None}
        assert points and points <= {1, 3, 6, 9, 12}, points
        assert max(max(e["score"]) for e in log if e["type"] == "hand") >= 12
    assert res.games == 2


def test_the_bench_table_has_a_row_per_mode_and_pairing(capsys):
    from truco_lab import arena_variants
    assert arena_variants.main(["--games", "2", "--jobs", "1", "--only", "3x3"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| mineiro 3x3 |")]
    assert [r.split(" | ")[1:3] for r in rows] == [["difícil", "médio"], ["difícil", "passive"], ["médio", "fácil"]]

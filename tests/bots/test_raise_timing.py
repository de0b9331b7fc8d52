"""truco_lab.raise_timing: how often a level asks for a raise when it may (RULES.md §5)."""

from __future__ import annotations

from truco_lab import raise_timing as rt


def test_a_player_that_never_raises_is_counted_at_every_chance_and_never_asks():
    chances, asked = rt.raise_counts("passive", games=2, seed="t")
    assert sum(chances.values()) > 0
    assert sum(asked.values()) == 0


def test_random_asks_at_some_chances_and_only_when_it_may():
    chances, asked = rt.raise_counts("random", games=4, seed="t")
    assert 0 < sum(asked.values()) < sum(chances.values())
    assert all(asked[k] <= chances[k] for k in asked)
    # once a raise was made in a hand, the next chances are counted apart, as later ones
    assert any(not first for (_r, first, _h) in chances)


def test_the_table_names_each_level(capsys):
    assert rt.main(["--levels", "passive", "random", "--games", "2", "--seed", "t"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "| round | raise | hand | passive | random |"
    assert "| 1 | first | 1st |" in out

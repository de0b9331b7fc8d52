"""truco_lab.by_round: the by-round bet figures of issue 27, read off a match log."""

from __future__ import annotations

from collections import defaultdict

from truco_lab import by_round as br


def _hand(events, winner, points):
    return ([{"type": "deal", "hand_number": 1, "kind": "normal"}] + events
            + [{"type": "hand", "winner": winner, "points": points, "reason": "rounds"}])


def test_a_raise_back_of_a_dez_is_charged_against_running_and_accepts_are_split_by_round():
    # team 1 (B) asks truco in round 1, A accepts; A asks seis in round 2, B accepts;
    # B asks dez, A raises back to doze, B accepts; B wins the hand (12 points)
    log = _hand([
        {"type": "raise", "seat": 1, "name": "truco", "value": 4},
        {"type": "accept", "seat": 0, "value": 4},
        {"type": "play", "seat": 1, "card": "4c"},
        {"type": "round", "round": 1, "result": 1},
        {"type": "raise", "seat": 0, "name": "seis", "value": 6},
        {"type": "accept", "seat": 1, "value": 6},
        {"type": "raise", "seat": 1, "name": "dez", "value": 10},
        {"type": "raise", "seat": 0, "name": "doze", "value": 12},
        {"type": "accept", "seat": 1, "value": 12},
    ], winner=1, points=12)
    out = defaultdict(float)
    br.analyse(log, 0, out)
    assert out[("acc n", "B", "truco", 1)] == 1 and out[("acc won", "B", "truco", 1)] == 1
    assert out[("acc n", "A", "seis", 2)] == 1 and out[("acc won", "A", "seis", 2)] == 0
    assert out[("acc n", "A", "doze", 2)] == 1
    assert out[("answers", "B", "dez", "raise back")] == 1
    # running from the dez would have given B the 6 of the accepted seis; A lost 12
    assert out[("high", "dez", "raise back", "n")] == 1
    assert out[("high", "dez", "raise back", "net")] == -12
    assert out[("high", "dez", "raise back", "run")] == -6
    # seen from the other side, the same hand is B's
    other = defaultdict(float)
    br.analyse(log, 1, other)
    assert other[("acc n", "A", "truco", 1)] == 1 and ("high", "dez", "raise back", "n") not in other


def test_the_bench_prints_its_tables(capsys):
    assert br.main(["--a", "dificil", "--b", "honest", "--games", "2", "--seed", "t", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 mirrored games" in out
    assert "| step | round 1 | round 2 | round 3 | all |" in out
    assert "| all | |" in out

"""truco_lab.response_calibration: difícil's predicted answers to its raises against the answers given."""

from __future__ import annotations

from truco_lab import response_calibration as rc


def test_every_position_where_difícil_may_raise_is_asked_and_shares_add_up():
    table = rc.calibration("passive", games=2, seed="t", jobs=1)
    assert sum(n for n, _, _ in table.values()) > 0
    for (step, rnd, _raised, _chose), (n, actual, pred) in table.items():
        assert step in (4, 6, 10, 12) and rnd in (0, 1)
        assert abs(sum(actual) - 1) < 1e-9 and abs(sum(pred) - 1) < 1e-6
        # passive never raises: whatever difícil predicts, the answer is never a raise back
        assert actual[2] == 0


def test_an_opponent_that_raises_back_every_request_is_seen_doing_it():
    table = rc.calibration("always-accept", games=2, seed="t", jobs=1)
    counted = [(key, actual) for key, (n, actual, _) in table.items() if key[0] < 12]
    assert counted and all(actual == (0.0, 0.0, 1.0) for _, actual in counted)

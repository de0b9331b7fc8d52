"""truco_lab.psro end to end at a toy budget (issue 44): a best response to the start
table, its exploitability measured, the population grown by it, the table refit against
the population. Soak: a minute of pool work under load; its pieces have quick tests
(test_lab_sticks: the exploiter's step, a population member)."""

from __future__ import annotations

import json

import pytest

from truco_lab import psro

pytestmark = pytest.mark.soak


def test_one_iteration_writes_an_exploiter_and_a_refit_table(tmp_path, capsys):
    start = tmp_path / "start.json"
    start.write_text(json.dumps({"answer|2|0|4|0": {"run": 1.0}}))
    psro.main(["--players", "2", "--iters", "1", "--exploit-games", "6", "--measure-games", "4",
               "--refit-games", "3", "--population", "honest", "--start", str(start), "--dir", str(tmp_path),
               "--jobs", "1"])
    out = capsys.readouterr().out
    assert "refit against honest, table:" in out and "exploit_0.json" in out
    for name in ("exploit_0.json", "table_1.json"):
        table = json.loads((tmp_path / name).read_text())
        assert table and all(k.split("|")[0] in ("ask", "answer") for k in table)
        assert all(abs(sum(v.values()) - 1.0) < 0.02 for v in table.values())
    assert len(list(tmp_path.glob("probe_r0_*.jsonl"))) == 2  # honest and the exploiter
    rows = json.loads((tmp_path / "psro.json").read_text())
    assert [r["k"] for r in rows] == [0] and rows[0]["measured"]["1"][1] == 4


def test_fictitious_play_mixes_the_exploiter_into_the_table(tmp_path):
    """--average: T_1 plays T_0 half the time and the exploiter the other half, state by
    state (psro.average), and each iteration's measure is kept in psro.json."""
    start = tmp_path / "start.json"
    start.write_text(json.dumps({"answer|2|0|4|0": {"run": 1.0}}))
    psro.main(["--players", "2", "--iters", "1", "--exploit-games", "6", "--measure-games", "4",
               "--measure-seeds", "1,2", "--start", str(start), "--dir", str(tmp_path), "--jobs", "1",
               "--average"])
    t0, br, t1 = (json.loads((tmp_path / n).read_text()) for n in ("start.json", "exploit_0.json", "table_1.json"))
    assert t1 == psro.average(t0, br, 0.5)
    rows = json.loads((tmp_path / "psro.json").read_text())
    assert set(rows[0]["measured"]) == {"1", "2"} and rows[0]["average"]

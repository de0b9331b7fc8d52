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

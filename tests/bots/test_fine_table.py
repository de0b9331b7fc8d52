"""truco_lab.fine_table: the finer entries of difícil's betting table are chosen only
where an option beats the current action beyond noise, and cross-validation scores a
choice on games it was not made on (issue 27)."""

from __future__ import annotations

import json
import random
from argparse import Namespace

from truco_lab import fine_table


def _row(game: int, fine: str, gain: float, cur: str = "play") -> dict:
    return {"game": game, "coarse": fine.rsplit("|", 2)[0], "fine": fine, "cur": cur,
            "returns": {"play": 0.5, "raise": 0.5 + gain}, "pos": 0, "us": 0, "them": 0, "p": 0.3,
            "runs": 0, "default": "play"}


def test_an_option_is_chosen_only_beyond_noise():
    rng = random.Random(1)
    steady = [_row(g, "ask|4|0|6|1|p0|00", 0.05 + rng.gauss(0, 0.02)) for g in range(40)]
    assert fine_table._choose(steady, z=2.0) == "raise"
    noise = [_row(g, "ask|4|0|6|1|p0|00", rng.gauss(0, 0.2)) for g in range(40)]
    assert fine_table._choose(noise, z=2.0) is None
    losing = [_row(g, "ask|4|0|6|1|p0|00", -0.05) for g in range(40)]
    assert fine_table._choose(losing, z=0.0) is None  # the current action stays


def test_cross_validation_counts_no_luck_and_build_adds_finer_entries(tmp_path, capsys):
    # one state gains on every game; another gains on even games and loses on odd ones,
    # so a choice made on one half is scored on the other and nets nothing
    rows = [_row(g, "ask|4|0|6|1|p0|00", 0.05) for g in range(40)]
    rows += [_row(g, "ask|4|0|6|1|p1|10", 0.1 if g % 2 else -0.1) for g in range(40)]
    probe = tmp_path / "probe.jsonl"

    def cv_of(rows) -> str:
        probe.write_text("".join(json.dumps(r) + "\n" for r in rows))
        fine_table.cv(Namespace(probes=[str(probe)], z=[1.0]))
        line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("fine "))
        return line.split("probe.jsonl ")[1]

    steady = rows[:40]
    assert cv_of(steady) == "+5.00", "0.05 of a game in each of 40 games"
    # the lucky state is chosen on the half where it gained and loses its 0.1 on the other
    assert cv_of(rows) == "+0.00"
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"ask|4|0|4|1": {"play": 1.0}}))
    out = tmp_path / "out.json"
    fine_table.build(Namespace(probes=[str(probe)], z=1.0, table=str(table), out=str(out)))
    built = json.loads(out.read_text())
    assert built["ask|4|0|4|1"] == {"play": 1.0}, "the coarse entries stay"
    assert built["ask|4|0|6|1|p0|00"] == {"raise": 1.0}
    assert "ask|4|0|6|1|p1|10" not in built, "a state that gains on half the games and loses on the other"

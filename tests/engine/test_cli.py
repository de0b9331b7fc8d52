"""python -m truco: a terminal game (RULES.md is applied by the engine; this checks the loop)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args, stdin=""):
    return subprocess.run([sys.executable, "-m", "truco", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "py")}, timeout=60)


def test_watch_plays_a_whole_2x2_match_to_its_winner():
    out = run(["--watch", "--players", "4", "--seed", "3", "--level", "random"])
    assert out.returncode == 0, out.stderr
    assert "ganha a partida" in out.stdout and "Mão 1" in out.stdout


def test_a_person_can_play_by_number_and_an_illegal_move_is_explained():
    out = run(["--seed", "5", "--level", "random"], stdin="accept\n1\n")
    assert "Jogada inválida" in out.stdout and "nothing to answer" in out.stdout
    assert "você joga" in out.stdout

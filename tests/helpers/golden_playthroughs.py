"""Golden playthroughs: whole seeded games written as readable text, diffed by the tests.

    .venv/bin/python tests/helpers/golden_playthroughs.py --write    # regenerate tests/golden/*.txt

Each step shows, for the seat to move, its observation (minus the static rules, printed
once in the header) and the action taken. Actions are drawn by a seeded random.Random from
legal_actions(), so the files depend on the engine alone. Dependency-free: the same
module runs inside Pyodide (tests/pyodide/run_engine_checks.mjs).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import truco

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"

GOLDENS = {
    "mineiro_1x1_seed1": dict(preset="mineiro", players=2, seed=1, options={}),
    "mineiro_2x2_series3_seed2": dict(preset="mineiro", players=4, seed=2, options={"series": 3}),
    "truco473_1x1_ferro_escuro_seed3": dict(preset="truco473", players=2, seed=3, score=(10, 10), options={}),
    "torneio_2x2_mao_de_dez_seed4": dict(preset="torneio", players=4, seed=4, score=(10, 4), options={}),
    "paulista_1x1_ferro_escuro_seed5": dict(preset="paulista", players=2, seed=5, score=(11, 11), options={}),
    "paulista_3x3_limpo_familia_seed6": dict(preset="paulista", players=6, seed=6, options={"baralho_limpo": True, "familia_real": True}),
}


def _line(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def render(name: str) -> str:
    spec = GOLDENS[name]
    rng = random.Random(spec["seed"])
    game = truco.new_game(spec["preset"], players=spec["players"], seed=spec["seed"],
                          score=spec.get("score", (0, 0)), **spec["options"])
    out = [f"# Golden playthrough {name}",
           f"# preset={spec['preset']} players={spec['players']} seed={spec['seed']} "
           f"score={list(spec.get('score', (0, 0)))} options={_line(spec['options'])}",
           f"# rules {_line(game.rules.summary())}", ""]
    step = 0
    while game.to_move is not None:
        step += 1
        seat = game.to_move
        obs = game.observation(seat)
        del obs["rules"]
        action = rng.choice(game.legal_actions())
        out.append(f"## step {step}: hand {obs['hand_number']}, score {obs['score'][0]}x{obs['score'][1]}, "
                   f"seat {seat} holds {' '.join(obs['hand']) or '(blind)'} -> {action}")
        out.append(_line(obs))
        game.apply(action)
    out.append(f"## end: winner team {game.winner}, score {game.score[0]}x{game.score[1]}, games {game.games}")
    out.append(_line(game.events()[-3:]))
    return "\n".join(out) + "\n"


def check_all() -> list[str]:
    """Names of the goldens whose file differs from what the engine plays now."""
    return [name for name in GOLDENS
            if (GOLDEN_DIR / f"{name}.txt").read_text(encoding="utf-8") != render(name)]


if __name__ == "__main__":
    if "--write" in sys.argv:
        for name in GOLDENS:
            (GOLDEN_DIR / f"{name}.txt").write_text(render(name), encoding="utf-8")
            print("wrote", GOLDEN_DIR / f"{name}.txt")
    else:
        bad = check_all()
        print("differ:", bad) if bad else print("all goldens match")
        sys.exit(1 if bad else 0)

"""The arena table of the variants (issue 9): Truco Paulista 1 x 1 and 2 x 2 (vira, manilha
nova, mão de onze) and 3 x 3 (trucão de 6, the Mineiro rules), each with the pairings
difícil vs médio, difícil vs passive and médio vs fácil.

    nice python -m truco_lab.arena_variants --games 1000 --seed 1,2 [--jobs 2] [--write]

Each row is one `truco_lab.arena.run`: mirrored pairs of full games to 12 (the second game of a
pair gives each team the other team's cards), so A's win rate comes with a 95% confidence
interval over the pairs. `--write` writes bench/bots/arena_variants.md (the table, the command,
the commit of the bots measured and the machine's load).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time


from truco_lab import RESULTS, ROOT, arena

OUT = RESULTS / "arena_variants.md"

# (title, preset, players)
MODES = [("paulista 1x1", "paulista", 2), ("paulista 2x2", "paulista", 4), ("mineiro 3x3", "mineiro", 6)]
PAIRINGS = [("dificil", "medio"), ("dificil", "passive"), ("medio", "facil")]
LEVEL_NAMES = {"dificil": "difícil", "medio": "médio", "facil": "fácil", "passive": "passive"}


def commit() -> str:
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%h %cd", "--date=format:%Y-%m-%d %H:%M"],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def table(rows: list[tuple[str, arena.ArenaResult]]) -> str:
    lines = [
        "| mode | A | B | A's win rate | points/hand A · B | hands | games | games/s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for title, r in rows:
        ph = r.hands or 1
        lines.append(
            f"| {title} | {LEVEL_NAMES[r.a]} | {LEVEL_NAMES[r.b]} | {100 * r.win_rate:.1f}% ± {100 * r.ci95:.1f} "
            f"| {r.points_a / ph:.3f} · {r.points_b / ph:.3f} | {r.hands} | {r.games} "
            f"| {r.games / r.seconds if r.seconds else 0:.1f} |")
    return "\n".join(lines)


def combine(x: arena.ArenaResult, y: arena.ArenaResult) -> arena.ArenaResult:
    """Two runs of one pairing (different seeds) as one: their games and pairs together."""
    return arena.ArenaResult(
        x.preset, x.players, x.a, x.b, games=x.games + y.games, wins_a=x.wins_a + y.wins_a,
        points_a=x.points_a + y.points_a, points_b=x.points_b + y.points_b, hands=x.hands + y.hands,
        seconds=x.seconds + y.seconds, pair_scores=x.pair_scores + y.pair_scores)


def write(args, rows, total: int, loads: list[float], minutes: float) -> None:
    partial = "" if len(rows) == total else f" **Partial: {len(rows)} of {total} rows.**"
    OUT.write_text(
        "# Arena results: the variants (issue 9)\n\n"
        f"`nice python -m truco_lab.arena_variants --games {args.games} --seed {args.seed} --write`\n"
        f"({args.games} games per seed and row, `truco_lab.arena.run` each; the seeds' games add up): mirrored\n"
        "deals, full single games to 12 (Truco Paulista: a\n"
        "vira every hand, manilhas of the next rank, mão de onze, mão de ferro at 11 x 11 in the dark;\n"
        "3 x 3: the Mineiro rules with six seats, teams of three sitting alternately). Win rate of\n"
        "A with a 95% CI over the mirrored pairs; points per hand played.\n\n"
        f"Bots of commit {commit()}; measured in {minutes:.0f} min on a 2-core machine shared with\n"
        f"other jobs (load average {min(loads):.1f} to {max(loads):.1f} after each row).{partial}\n\n"
        + table(rows) + "\n",
        encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000, help="games per row (whole mirrored pairs)")
    p.add_argument("--seed", default="1", help="seed, or seeds separated by commas (their games add up)")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--only", default=None, help="run only the modes whose title contains this")
    p.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = p.parse_args(argv)
    seeds = [x for x in args.seed.split(",") if x]
    merged: dict[tuple, arena.ArenaResult] = {}
    loads = []
    t0 = time.time()
    todo = [(m, pr) for m in MODES for pr in PAIRINGS if not args.only or args.only in m[0]]
    # Seeds outermost: after the first seed every row has a figure; each further seed adds
    # its games to every row (the file is rewritten after each run, so a run cut short
    # still leaves a whole table).
    for seed in seeds:
        for (title, preset, players), (a, b) in todo:
            res = arena.run(preset, players, a, b, args.games, seed, args.jobs)
            loads.append(os.getloadavg()[0])
            print(f"[{title} seed {seed}] " + res.summary(), flush=True)
            key = (title, a, b)
            merged[key] = combine(merged[key], res) if key in merged else res
            if args.write:
                write(args, [(k[0], r) for k, r in merged.items()], len(todo), loads, (time.time() - t0) / 60)
    print(table([(k[0], r) for k, r in merged.items()]))
    if args.write:
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

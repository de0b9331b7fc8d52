"""What the sinais are worth (issue 12): a pair that signals against the same pair that
does not, and whether catching signals helps the opponents.

    python -m truco_lab.arena_signals --games 2000 --levels dificil medio --always dificil

For each level, two arena runs of mirrored 2 x 2 games on the same seeds, the same bots on
both sides, side A signalling by the table's bots' policy (``truco.signals.signal_to_send``)
and side B not (and for the ``--always`` levels, two more runs where A signals every hand
at once, the bots' behaviour before the policy):

- catching on (the engine's rule): A's margin over 50% is what signalling is worth, net
  of what the opponents catch;
- catching off (no bot ever sees an opponent's signal): the same games' deals and catch
  draws, so the difference between the two runs, pair by pair, is what catching is worth
  to B.

Confidence intervals are 95%, normal approximation over the mirrored pairs (for the
difference, over the per-pair differences of the two runs).
"""

from __future__ import annotations

import argparse
import math
import time

from truco_lab import RESULTS, arena

OUT = RESULTS / "arena_signals.md"


def ci95(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 1.0
    mean = sum(xs) / n
    return 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def measure(level: str, games: int, seed: str, jobs: int | None, policy: str = "table") -> dict:
    on = arena.run("mineiro", 4, level, level, games, seed, jobs, signals="a", catching=True,
                   signal_policy=policy)
    print(on.summary(), flush=True)
    off = arena.run("mineiro", 4, level, level, games, seed, jobs, signals="a", catching=False,
                    signal_policy=policy)
    print(off.summary(), flush=True)
    diffs = [off.by_pair[i] - on.by_pair[i] for i in sorted(on.by_pair)]
    return {"level": level, "policy": policy, "on": on, "off": off,
            "catch": sum(diffs) / len(diffs), "catch_ci": ci95(diffs)}


def table(rows: list[dict]) -> str:
    lines = [
        "| pair (both sides) | A signals | games per run | A's win rate, catching on | A's margin over 50% | A's win rate, catching off | B's gain from catching |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        on, off = r["on"], r["off"]
        lines.append(
            f"| {r['level']} | {r['policy']} | {on.games} | {100 * on.win_rate:.1f}% ± {100 * on.ci95:.1f} "
            f"| {100 * (on.win_rate - 0.5):+.1f} points ± {100 * on.ci95:.1f} "
            f"| {100 * off.win_rate:.1f}% ± {100 * off.ci95:.1f} "
            f"| {100 * r['catch']:+.1f} points ± {100 * r['catch_ci']:.1f} |")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--levels", nargs="*", default=["dificil", "medio"])
    p.add_argument("--seed", default="sinais")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--always", nargs="*", default=["dificil"],
                   help="levels also measured with A signalling every hand at once")
    args = p.parse_args()
    t0 = time.perf_counter()
    rows = [measure(level, args.games, args.seed, args.jobs) for level in args.levels]
    rows += [measure(level, args.games, args.seed, args.jobs, "always") for level in args.always]
    print(table(rows))
    for r in rows:
        print(f"points per hand A / B, {r['level']} {r['policy']}: "
              f"{r['on'].points_a / r['on'].hands:.3f} / {r['on'].points_b / r['on'].hands:.3f} (on), "
              f"{r['off'].points_a / r['off'].hands:.3f} / {r['off'].points_b / r['off'].hands:.3f} (off)")
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

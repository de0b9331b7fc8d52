"""Issue 27: the finer entries of difícil's betting table (``truco.bots.betting_table``), learnt
from branched decisions and checked by cross-validation before they are built.

``probe``: games of difícil (the table given, team 0) against a stick; at every betting
decision the table decides, the game is copied and the rest of the hand played once per
option on the same true deal by the current policy (``selfplay_policy.py``'s training
games with every decision branched), and the decision is written as a JSON line: game
number, the coarse and the finer key (:func:`~truco.bots.betting_table.state_keys`), the
current action, each option's return (the deciding team's chance of winning the game after
the hand) and a few features.

``cv``: for a way of grouping decisions, the gain a table would bring, cross-validated:
each group's best option is chosen on half of the games (its mean paired gain over the
current action above ``z`` standard errors) and scored on the other half, and the other
way round, per stick, in points of win rate per game. Choosing on the same games that
score it would count every lucky group as a gain; this does not.

``build``: the finer entries, chosen on every probe given, added to a table.

    .venv/bin/python -m truco_lab.fine_table probe --opp honest --games 3000 \\
        --tag h2 --table py/truco/bots/data/betting_2x2.json --out /tmp/probe_honest.jsonl
    .venv/bin/python -m truco_lab.fine_table cv /tmp/probe_honest.jsonl \\
        /tmp/probe_medio.jsonl
    .venv/bin/python -m truco_lab.fine_table build /tmp/probe_honest.jsonl \\
        /tmp/probe_medio.jsonl --z 1.0 --table py/truco/bots/data/betting_2x2.json --out new.json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import time
from collections import defaultdict

from truco_lab import selfplay_policy as sp


def probe(a) -> None:
    sp.install()
    table = json.load(open(a.table)) if a.table else {}
    t = time.time()
    # every learner decision branched (selfplay_policy's training games with --branch 1)
    opp = sp.opponent(a.opp)  # a level, a stick, or table:<path> (a population member)
    tasks = [(a.players, f"probe{a.tag}:{i}", table, 0.0, opp, 1.0, a.sinais) for i in range(a.games)]
    n = 0
    with mp.get_context("fork").Pool(a.jobs) as pool, open(a.out, "w") as fh:
        for number, samples in enumerate(pool.imap(sp._train_game, tasks, chunksize=4)):
            for coarse, cur, returns, fine, features in samples:
                fh.write(json.dumps({"game": number, "coarse": coarse, "fine": fine, "cur": cur,
                                     "returns": returns, **features}) + "\n")
                n += 1
    print(f"{n} decisions, {a.games} games, {time.time() - t:.0f}s")


GROUPS = {
    "coarse": lambda r: r["coarse"],
    "fine": lambda r: r["fine"],
    # the finer key's two parts apart: <coarse>|p<cards on the table>|<them late><us late>
    "coarse+late": lambda r: (r["coarse"], r["fine"].rsplit("|", 1)[1]),
    "coarse+cards": lambda r: (r["coarse"], r["pos"]),
    "fine+runs": lambda r: (r["fine"], r["runs"] > 0),
}
"""Ways of grouping decisions that ``cv`` compares (``fine`` is what the table reads)."""


def _choose(rows: list[dict], z: float) -> str | None:
    """The option whose mean paired gain over the current action is positive and above
    ``z`` standard errors, the best such; ``None`` keeps the current action."""
    best, best_mean = None, 0.0
    for option in set.intersection(*(set(r["returns"]) for r in rows)):
        d = [r["returns"][option] - r["returns"][r["cur"]] for r in rows]
        n = len(d)
        m = sum(d) / n
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n) if n > 1 else 1.0
        if m > best_mean and m > z * se:
            best, best_mean = option, m
    return best


def _load(paths: list[str]) -> dict[str, list[dict]]:
    return {p: [json.loads(line) for line in open(p)] for p in paths}


def cv(a) -> None:
    data = _load(a.probes)
    games = {p: len({r["game"] for r in rows}) for p, rows in data.items()}
    for name, group in GROUPS.items():
        cells = []
        for z in a.z:
            gain = defaultdict(float)
            for half in (0, 1):
                by = defaultdict(list)
                for rows in data.values():
                    for r in rows:
                        if r["game"] % 2 != half:
                            by[str(group(r))].append(r)
                choice = {g: c for g, rows in by.items() if (c := _choose(rows, z))}
                for p, rows in data.items():
                    for r in rows:
                        c = choice.get(str(group(r))) if r["game"] % 2 == half else None
                        if c:
                            gain[p] += r["returns"].get(c, r["returns"][r["cur"]]) - r["returns"][r["cur"]]
            cells.append(f"z {z}: " + ", ".join(f"{p.rsplit('/', 1)[-1]} {100 * gain[p] / games[p]:+.2f}" for p in data))
        print(f"{name:13s} " + "   ".join(cells), flush=True)


def build(a) -> None:
    table = json.load(open(a.table)) if a.table else {}
    by = defaultdict(list)
    for rows in _load(a.probes).values():
        for r in rows:
            by[r["fine"]].append(r)
    added = 0
    for key, rows in by.items():
        c = _choose(rows, a.z)
        if c:
            table[key] = {c: 1.0}
            added += 1
    json.dump(dict(sorted(table.items())), open(a.out, "w"), indent=0)
    print(f"{added} finer entries, {len(table)} in the table")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pr = sub.add_parser("probe")
    pr.add_argument("--players", type=int, default=4)
    pr.add_argument("--opp", required=True)
    pr.add_argument("--games", type=int, default=3000)
    pr.add_argument("--tag", default="1", help="the probe's deals are seeded probe<tag>:<i>")
    pr.add_argument("--table", default=None)
    pr.add_argument("--jobs", type=int, default=2)
    pr.add_argument("--sinais", action="store_true", help="2 x 2 with sinais on: every seat signals by the table's policy")
    pr.add_argument("--out", required=True)
    c = sub.add_parser("cv")
    c.add_argument("probes", nargs="+")
    c.add_argument("--z", type=float, nargs="+", default=[1.0, 1.5, 2.0])
    b = sub.add_parser("build")
    b.add_argument("probes", nargs="+")
    b.add_argument("--z", type=float, default=1.0)
    b.add_argument("--table", default=None, help="the table the entries are added to")
    b.add_argument("--out", required=True)
    a = p.parse_args(argv)
    {"probe": probe, "cv": cv, "build": build}[a.cmd](a)


if __name__ == "__main__":
    main()

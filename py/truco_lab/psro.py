"""Difícil's betting table against a population that grows with its own best responses
(issue 44; PSRO / fictitious play over the table's state abstraction).

    .venv/bin/python -m truco_lab.psro --players 4 --iters 2 --exploit-games 4000 \\
        --refit-games 1500 --population honest,caller,team,sharp,medio \\
        --start py/truco/bots/data/betting_2x2.json --dir /tmp/psro

Iteration k, from the current table T_k (the shipped one first):

1. **best response**: an exploiter, difícil whose table starts as T_k and takes, in every
   state (coarse, then finer) where another option beats T_k's on the same deals, that
   option outright, trained against difícil playing T_k (``selfplay_policy train
   --best-response --opp table:T_k``); ``exploit_k.json``. Measured against T_k over
   ``--measure-games`` mirrored games (the arena's seed 1): that is T_k's exploitability
   in this abstraction and budget (the issue's "≤ 53%").
2. **the population grows**: ``table:exploit_k.json`` joins the sticks (and every earlier
   exploiter).
3. **refit**: ``fine_table probe`` of T_k against each member (``--refit-games`` each, every
   decision branched), then ``fine_table build`` at ``--z`` on all the probes pooled: each
   finer state takes the option that pays best against the population as a whole (a
   uniform mixture of its members), not against any one of them. That is T_{k+1}.

``--average`` replaces steps 2 and 3 by fictitious play's averaging: T_{k+1} is, in every
state either table has, the mixture ``(k+1)/(k+2)`` of T_k's action and ``1/(k+2)`` of the
exploiter's (:func:`average`), so the policy moves toward what pays against its own best
response without jumping to it (a best response of a best response cycles).

Nothing here is shipped: a table this writes goes into ``py/truco/bots/data`` only once the
arena has measured it against every stick, tuned and held out (``lab_sticks``), médio and
the baselines.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from types import SimpleNamespace

from truco.bots.betting_table import coarse_of, entry
from truco_lab import fine_table
from truco_lab import selfplay_policy as sp


def best_response(players: int, table: str, games: int, out: str, seed: str, jobs: int,
                  sinais: bool = False) -> None:
    sp.train(SimpleNamespace(players=players, games=games, iters=1, explore=0.0, branch=0.5, min_n=25, z=1.5,
                             seed=seed, jobs=jobs, opp=f"table:{table}", start=table, dump=None, out=out,
                             best_response=True, sinais=sinais))


def _effective(table: dict, key: str) -> dict:
    """What ``table`` plays at ``key``: its own entry, else (for a finer key) its coarse
    key's, else difícil's own decision, as the bot looks it up."""
    return entry(table, (key, coarse_of(key))) or {"default": 1.0}


def average(old: dict, new: dict, weight: float) -> dict:
    """The table that plays ``new`` with probability ``weight`` and ``old`` otherwise, state
    by state: every key either has, each mixed from what each table plays there (a finer key
    one of them lacks falls back to its coarse entry, as the lookup does).

    >>> average({"ask|2|0|4|1": {"raise": 1.0}}, {"ask|2|0|4|1|p0|00": {"play": 1.0}}, 0.25)
    {'ask|2|0|4|1': {'raise': 0.75, 'default': 0.25}, 'ask|2|0|4|1|p0|00': {'raise': 0.75, 'play': 0.25}}
    """
    out = {}
    for key in sorted(set(old) | set(new)):
        mixed: dict[str, float] = {}
        for table, w in ((old, 1.0 - weight), (new, weight)):
            for a, q in _effective(table, key).items():
                mixed[a] = mixed.get(a, 0.0) + w * q
        kept = {a: round(q, 3) for a, q in mixed.items() if q >= 0.005}
        if kept != {"default": 1.0}:
            out[key] = kept
    return out


def exploitability(players: int, table: str, exploiter: str, games: int, jobs: int, seeds: str = "1",
                   sinais: bool = False) -> dict:
    """The exploiter's games won against ``table``, per arena seed: ``{seed: [won, games]}``
    (``sinais``: both teams signal by the table's policy)."""
    out = {}
    for seed in seeds.split(","):
        r = sp.measure(SimpleNamespace(table=exploiter, players=players, opps=f"table:{table}", seed=seed,
                                       games=games, jobs=jobs, base=None, save=None,
                                       sinais=sinais))[f"table:{table}"]
        out[seed] = [r.wins_a, r.games]
    return out


def refit(players: int, table: str, population: list[str], games: int, z: float, out: str, tag: str,
          jobs: int, workdir: str, sinais: bool = False) -> None:
    probes = []
    for i, member in enumerate(population):
        path = os.path.join(workdir, f"probe_{tag}_{i}.jsonl")
        fine_table.probe(SimpleNamespace(players=players, opp=member, games=games, tag=f"{tag}.{i}",
                                         table=table, jobs=jobs, out=path, sinais=sinais))
        probes.append(path)
    fine_table.build(SimpleNamespace(probes=probes, z=z, table=table, out=out))


def _record(workdir: str, row: dict) -> None:
    """Append an iteration's figures to ``<dir>/psro.json`` (what the report is written from)."""
    path = os.path.join(workdir, "psro.json")
    rows = json.load(open(path)) if os.path.exists(path) else []
    rows = [r for r in rows if r["k"] != row["k"]] + [row]
    json.dump(sorted(rows, key=lambda r: r["k"]), open(path, "w"), indent=1)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4, choices=(2, 4))
    p.add_argument("--iters", type=int, default=1)
    p.add_argument("--exploit-games", type=int, default=4000)
    p.add_argument("--measure-games", type=int, default=2000)
    p.add_argument("--measure-seeds", default="1", help="the arena seeds of the measure, each --measure-games")
    p.add_argument("--refit-games", type=int, default=1500)
    p.add_argument("--z", type=float, default=1.0)
    p.add_argument("--population", default="honest,caller,team,sharp,medio")
    p.add_argument("--start", required=True, help="the table T_0 (the shipped one)")
    p.add_argument("--dir", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--average", action="store_true",
                   help="fictitious play: mix the exploiter into the table (1/(k+2)) instead of the refit")
    p.add_argument("--first-iter", type=int, default=0, help="resume: the k of --start")
    p.add_argument("--sinais", action="store_true", help="2 x 2 with sinais on: every seat signals by the table's "
                   "policy in training and measuring (the table for games with sinais)")
    a = p.parse_args(argv)
    os.makedirs(a.dir, exist_ok=True)
    population = a.population.split(",")
    table = a.start
    for k in range(a.first_iter, a.first_iter + a.iters):
        t = time.time()
        exploiter = os.path.join(a.dir, f"exploit_{k}.json")
        print(f"== iteration {k}: best response to {table}", flush=True)
        best_response(a.players, table, a.exploit_games, exploiter, f"psro{k}", a.jobs, a.sinais)
        measured = exploitability(a.players, table, exploiter, a.measure_games, a.jobs, a.measure_seeds, a.sinais)
        _record(a.dir, {"k": k, "players": a.players, "table": table, "exploiter": exploiter,
                        "exploit_games": a.exploit_games, "measured": measured, "average": a.average,
                        "sinais": a.sinais, "seconds": round(time.time() - t)})
        nxt = os.path.join(a.dir, f"table_{k + 1}.json")
        if a.average:
            mixed = average(json.load(open(table)), json.load(open(exploiter)), 1.0 / (k + 2))
            json.dump(mixed, open(nxt, "w"), indent=0)
            print(f"== iteration {k} done ({time.time() - t:.0f} s): {nxt}, {len(mixed)} states", flush=True)
            table = nxt
            continue
        population.append(f"table:{exploiter}")
        print(f"== iteration {k}: refit against {', '.join(population)}", flush=True)
        refit(a.players, table, population, a.refit_games, a.z, nxt, f"r{k}", a.jobs, a.dir, a.sinais)
        table = nxt
        print(f"== iteration {k} done ({time.time() - t:.0f} s): {table}", flush=True)


if __name__ == "__main__":
    main()

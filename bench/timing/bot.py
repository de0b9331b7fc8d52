"""Bot decision time per level: CPython here, and the same inside Pyodide under Node.

    python bench/timing/bot.py                 # CPython, then Pyodide if node + npm pyodide exist
    python bench/timing/bot.py --no-pyodide
    python bench/timing/bot.py --positions 400

Positions are reached by médio bots playing 1 x 1 and 2 x 2 games (fixed seeds); only
decisions with a real choice (more than one legal action) are timed. Every level decides
on the same positions. Prints median and p99 in milliseconds per level (after one
warm-up decision, whose time is shown apart as "first": it builds cached tables), then
the ratio Pyodide / CPython. The machine's load average is printed too: timings taken
while other jobs run are inflated. The bar: difícil under 50 ms at p99 inside Pyodide.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LEVELS = ("facil", "medio", "dificil")


def positions(count: int, seed: int = 1) -> list[dict]:
    """Observations of seats with a real decision, from médio self-play."""
    import truco
    from truco import bots

    out: list[dict] = []
    g_index = 0
    while len(out) < count:
        players = (2, 4)[g_index % 2]
        g = truco.new_game("mineiro", players=players, seed=f"bench:{seed}:{g_index}")
        seat_bots = [bots.make("medio", random.Random(f"{seed}:{g_index}:{s}")) for s in range(players)]
        while g.to_move is not None and len(out) < count:
            s = g.to_move
            obs = g.observation(s)
            if len(obs["legal_actions"]) > 1:
                out.append(obs)
            g.apply(seat_bots[s].choose(obs))
        g_index += 1
    return out


def measure(count: int = 300) -> dict[str, dict[str, float]]:
    """{level: {median_ms, p99_ms, mean_ms, n}} over ``count`` positions."""
    from truco import bots

    obs_list = positions(count)
    result = {}
    for level in LEVELS:
        # the first decision builds cached tables (game values, strengths): timed apart
        t0 = time.perf_counter()
        bots.make(level, random.Random(-1)).choose(obs_list[0])
        first = (time.perf_counter() - t0) * 1000.0
        times = []
        for i, obs in enumerate(obs_list):
            bot = bots.make(level, random.Random(i))
            t0 = time.perf_counter()
            bot.choose(obs)
            times.append((time.perf_counter() - t0) * 1000.0)
        times.sort()
        n = len(times)
        result[level] = {
            "median_ms": times[n // 2],
            "p99_ms": times[min(n - 1, int(0.99 * n))],
            "mean_ms": sum(times) / n,
            "n": n,
            "first_ms": first,
        }
    return result


def _print(title: str, res: dict) -> None:
    print(title)
    print(f"  {'level':8s} {'median ms':>10s} {'p99 ms':>8s} {'mean ms':>8s} {'first ms':>9s}  positions")
    for level, r in res.items():
        print(f"  {level:8s} {r['median_ms']:10.2f} {r['p99_ms']:8.2f} {r['mean_ms']:8.2f}"
              f" {r['first_ms']:9.1f}  {r['n']}")


NODE_RUNNER = r"""
const path = require('path');
const fs = require('fs');
const { loadPyodide } = require(process.env.PYODIDE_DIR);
(async () => {
  const py = await loadPyodide({ indexURL: process.env.PYODIDE_DIR });
  const root = process.env.TRUCO_ROOT;
  function copy(src, dst) {
    py.FS.mkdirTree(dst);
    for (const name of fs.readdirSync(src)) {
      const s = path.join(src, name), d = dst + '/' + name;
      if (fs.statSync(s).isDirectory()) { if (name !== '__pycache__') copy(s, d); }
      else if (name.endsWith('.py') || name.endsWith('.json')) py.FS.writeFile(d, fs.readFileSync(s));  // .json: package data (difícil's betting table)
    }
  }
  // Into site-packages, where the page's micropip puts the engine wheel.
  const site = py.runPython("import site; site.getsitepackages()[0]");
  copy(path.join(root, 'py', 'truco'), site + '/truco');
  py.FS.writeFile(site + '/bot.py', fs.readFileSync(path.join(root, 'bench', 'timing', 'bot.py')));
  const out = py.runPython(`
import sys, json
import bot
json.dumps({"version": sys.version.split()[0], "result": bot.measure(${process.env.COUNT})})
`);
  console.log(out);
})().catch((e) => { console.error(e); process.exit(1); });
"""


def find_pyodide() -> str | None:
    for d in (os.path.join(ROOT, "node_modules", "pyodide"), "/tmp/pyo/node_modules/pyodide"):
        if os.path.exists(os.path.join(d, "pyodide.js")):
            return d
    return None


def measure_pyodide(count: int) -> dict | None:
    node = shutil.which("node")
    pyo = find_pyodide()
    if not node or not pyo:
        print("Pyodide: skipped (needs node and the npm pyodide package: npm install)")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        runner = os.path.join(tmp, "run.js")
        with open(runner, "w") as f:
            f.write(NODE_RUNNER)
        env = dict(os.environ, PYODIDE_DIR=pyo, TRUCO_ROOT=ROOT, COUNT=str(count))
        proc = subprocess.run([node, runner], env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        print("Pyodide: failed\n" + proc.stderr[-2000:])
        return None
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1]
    return json.loads(line)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--no-pyodide", action="store_true")
    args = p.parse_args(argv)
    if hasattr(os, "getloadavg"):
        print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    cpy = measure(args.positions)
    _print(f"CPython {sys.version.split()[0]}: bot decision time, {args.positions} positions", cpy)
    if not args.no_pyodide:
        res = measure_pyodide(args.positions)
        if res:
            pyo = res["result"]
            _print(f"Pyodide (Python {res['version']}) under Node: same positions", pyo)
            print("  ratio Pyodide / CPython (median): " + ", ".join(
                f"{lv} {pyo[lv]['median_ms'] / max(cpy[lv]['median_ms'], 1e-9):.2f}x" for lv in LEVELS))
            ok = pyo["dificil"]["p99_ms"] < 50.0
            print(f"  difícil p99 inside Pyodide: {pyo['dificil']['p99_ms']:.1f} ms "
                  f"({'under' if ok else 'OVER'} the 50 ms bar)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

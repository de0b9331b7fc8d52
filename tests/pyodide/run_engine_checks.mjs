// Runs the engine's random-play invariants and golden playthroughs inside Pyodide
// (Python 3.14 in WebAssembly) under Node, without a browser and without pytest.
//
//   node tests/pyodide/run_engine_checks.mjs [games_per_config]
//
// Exit code 0 when every check passes; the Python traceback is printed otherwise.
import { loadPyodide } from "pyodide";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const gamesPerConfig = Number(process.argv[2] ?? 15);

function copyTree(py, from, to, keep) {
  py.FS.mkdirTree(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(py, src, `${to}/${entry.name}`, keep);
    } else if (keep(entry.name)) {
      py.FS.writeFile(`${to}/${entry.name}`, readFileSync(src));
    }
  }
}

const started = performance.now();
const py = await loadPyodide();
// Into site-packages (on Python's path), where the page's micropip puts the engine wheel.
const site = py.runPython("import site; site.getsitepackages()[0]");
copyTree(py, join(root, "py", "truco"), `${site}/truco`, (n) => /\.(py|json)$/.test(n));
copyTree(py, join(root, "tests", "golden"), `${site}/golden`, (n) => n.endsWith(".txt"));
// The two helper modules as the package `helpers` (without its __init__, which needs pytest),
// beside golden/ as in tests/, so golden_playthroughs finds the files where it does there.
py.FS.mkdirTree(`${site}/helpers`);
py.FS.writeFile(`${site}/helpers/__init__.py`, "");
for (const f of ["engine_invariants.py", "golden_playthroughs.py"]) {
  py.FS.writeFile(`${site}/helpers/${f}`, readFileSync(join(root, "tests", "helpers", f)));
}
try {
  const report = py.runPython(`
import sys, time
import truco
from helpers import engine_invariants, golden_playthroughs
t0 = time.perf_counter()
games = engine_invariants.run_all(${gamesPerConfig})
bad = golden_playthroughs.check_all()
assert not bad, f"golden playthroughs differ inside Pyodide: {bad}"
f"Python {sys.version.split()[0]} ({sys.platform}): {games} random games passed every invariant, " \\
f"{len(golden_playthroughs.GOLDENS)} golden playthroughs match, {time.perf_counter() - t0:.1f} s"
`);
  console.log(report);
  console.log(`total with Pyodide start-up: ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  console.error(String(err));
  process.exit(1);
}

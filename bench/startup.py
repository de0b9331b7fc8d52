#!/usr/bin/env python3
"""Start-up benchmark: our page (from the memory snapshot, and by the wheel fallback) vs bare
Pyodide, in the same run (not part of the tests).

Serves dist/ on 127.0.0.1 together with a bare page of its own (/__bench__/bare.html) whose
module worker only calls loadPyodide() from the same dist/pyodide/ files. Three pages:

- ``bare``      bare loadPyodide(): the yardstick;
- ``snapshot``  index.html: the worker starts from snapshot/engine.snapshot.gz;
- ``wheel``     index.html?snapshot=0: the fallback (loadPyodide, micropip, the engine wheel,
                import truco), as when the snapshot is missing or broken.

Each load is cold (a fresh browser context: empty HTTP and code caches, no service worker: the
precache it starts once the engine is ready is not start-up); the pages take turns,
so a busy machine slows them alike. For each page it prints the median time from navigation to
"engine ready" (performance mark `engine-ready`), its ratio to bare, the first painted frame
(first-contentful-paint; the bare page paints a line of text), and the bytes the server sent
(bodies as stored; plus what gzip in transit would make of the same files).

Usage: python3 bench/startup.py [--runs 5]   (after `python3 build.py`)
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import multiprocessing
import statistics
import sys
import threading
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from serve import Handler, load_header_rules  # noqa: E402

DIST = ROOT / "dist"

BARE_HTML = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
performance.mark("engine-start");
const worker = new Worker(new URL("bare_worker.js", import.meta.url), { type: "module" });
worker.onmessage = (ev) => {
  if (ev.data.type === "ready") performance.mark("engine-ready");
  window.__timings = ev.data.timings;
  document.body.dataset.engineState = ev.data.type;
  document.body.textContent = JSON.stringify(ev.data);
};
</script></head><body data-engine-state="loading">loading</body></html>
"""

BARE_WORKER = b"""const indexURL = new URL("../pyodide/", import.meta.url).href;
try {
  const pyodideStart = Math.round(performance.now());
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const python = Math.round(performance.now());
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL });
  const ready = Math.round(performance.now());
  self.postMessage({ type: "ready", version: pyodide.version, timings: { pyodide: pyodideStart, python, ready } });
} catch (err) {
  self.postMessage({ type: "error", message: String(err) });
}
"""

BENCH_FILES = {
    "/__bench__/bare.html": (BARE_HTML, "text/html; charset=utf-8"),
    "/__bench__/bare_worker.js": (BARE_WORKER, "text/javascript"),
}

# What a load reports, read from the page once the engine is ready.
MEASURE = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const paint = (name) => performance.getEntriesByType('paint').find((e) => e.name === name)?.startTime ?? null;
  const engine = window.__engine || {};
  return {
    ready: mark('engine-ready'),
    workerStart: mark('engine-start'),
    firstPaint: paint('first-paint'),
    firstContentfulPaint: paint('first-contentful-paint'),
    timings: engine.timings || window.__timings,
    start: engine.start || 'bare',
  };
}"""


class Counter:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.bytes = 0
            self.paths: list[str] = []

    def add(self, path: str, n: int) -> None:
        with self.lock:
            self.bytes += n
            self.paths.append(path)

    def take(self) -> dict:
        with self.lock:
            got = {"bytes": self.bytes, "paths": self.paths}
        self.reset()
        return got


COUNTER = Counter()
STATS_PATH = "/__bench__/stats"  # what was sent since the last look (not counted itself)


class BenchHandler(Handler):
    quiet = True

    def do_GET(self) -> None:  # noqa: N802 (stdlib's name)
        path = self.path.split("?", 1)[0]
        if path == STATS_PATH:
            body = json.dumps(COUNTER.take()).encode()
        elif path in BENCH_FILES:
            body = BENCH_FILES[path][0]
        else:
            super().do_GET()
            return
        ctype = BENCH_FILES[path][1] if path in BENCH_FILES else "application/json"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if path != STATS_PATH:
            COUNTER.add(path, len(body))

    def copyfile(self, source, outputfile) -> None:
        data = source.read()
        outputfile.write(data)
        COUNTER.add(self.path.split("?", 1)[0], len(data))


def run_server(port_queue) -> None:
    """The static server, in a process of its own (in this one it would wait for the GIL
    behind Playwright's client and slow every response), with netlify.toml's headers."""
    handler = type("Handler", (BenchHandler,), {"rules": load_header_rules()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(DIST)))
    server.daemon_threads = True
    port_queue.put(server.server_address[1])
    server.serve_forever()


def take_stats(base: str) -> dict:
    with urllib.request.urlopen(base + STATS_PATH.lstrip("/"), timeout=30) as reply:
        return json.loads(reply.read())


_GZIP_CACHE: dict[str, int] = {}


def gzip_size(paths: list[str]) -> int:
    """Bytes in transit if the host gzips every response (already-gzip'd files stay as is)."""
    total = 0
    for path in paths:
        if path not in _GZIP_CACHE:
            if path in BENCH_FILES:
                data = BENCH_FILES[path][0]
            else:
                rel = path.lstrip("/") or "index.html"
                data = (DIST / rel).read_bytes() if (DIST / rel).is_file() else b""
            packed = data if data[:2] == b"\x1f\x8b" else gzip.compress(data, compresslevel=6, mtime=0)
            _GZIP_CACHE[path] = min(len(data), len(packed))
        total += _GZIP_CACHE[path]
    return total


LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
]


def med(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="page start-up (snapshot, wheel) vs bare Pyodide")
    parser.add_argument("--runs", type=int, default=5, help="cold loads per page (default 5)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not (DIST / "manifest.json").is_file():
        print("bench: dist/ is not built: run `python3 build.py` first", file=sys.stderr)
        return 1

    from playwright.sync_api import sync_playwright

    ports = multiprocessing.Queue()
    server = multiprocessing.Process(target=run_server, args=(ports,), name="bench-server", daemon=True)
    server.start()
    base = f"http://127.0.0.1:{ports.get(timeout=60)}/"
    pages = {
        "bare": base + "__bench__/bare.html",
        "snapshot": base + "index.html",
        "wheel": base + "index.html?snapshot=0",
    }
    results: dict[str, list[dict]] = {name: [] for name in pages}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=LAUNCH_ARGS)
            # One warm-up load of each page (OS file cache, browser process start), not counted.
            for run in range(-1, args.runs):
                for name, url in pages.items():
                    # No service worker: its precache, once the engine is ready, is not start-up.
                    context = browser.new_context(service_workers="block")
                    page = context.new_page()
                    take_stats(base)  # start counting afresh
                    page.goto(url)
                    page.wait_for_selector("[data-engine-state=ready]", timeout=180_000)
                    got = page.evaluate(MEASURE)
                    sent = take_stats(base)
                    context.close()
                    if run < 0:
                        continue
                    expected = {"bare": "bare", "snapshot": "snapshot", "wheel": "wheel"}[name]
                    if got["start"] != expected:
                        print(f"bench: {name} started from {got['start']!r}", file=sys.stderr)
                        return 1
                    got["sent"] = sent["bytes"]
                    got["gzip"] = gzip_size(sent["paths"])
                    results[name].append(got)
                    print(f"  run {run + 1} {name:8s}: ready {got['ready']:6.0f} ms, first frame "
                          f"{got['firstContentfulPaint'] or float('nan'):4.0f} ms, "
                          f"{got['sent'] / 1e6:5.2f} MB", flush=True)
            version = browser.version
            browser.close()
    finally:
        server.terminate()
        server.join(10)

    ready = {name: med(r["ready"] for r in rs) for name, rs in results.items()}
    print(f"\nChromium {version}, {args.runs} cold loads per page (medians; min in brackets):\n")
    print("| page | engine ready | × bare | first frame | sent | sent, gzip in transit |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    labels = {
        "bare": "bare `loadPyodide()`",
        "snapshot": "ours, from the snapshot",
        "wheel": "ours, fallback (`?snapshot=0`)",
    }
    for name, rs in results.items():
        fcp = med(r["firstContentfulPaint"] for r in rs)
        print(f"| {labels[name]} | {ready[name]:.0f} ms ({min(r['ready'] for r in rs):.0f}) "
              f"| {ready[name] / ready['bare']:.2f} | {fcp:.0f} ms "
              f"| {med(r['sent'] for r in rs) / 1e6:.2f} MB | {med(r['gzip'] for r in rs) / 1e6:.2f} MB |")

    # Where the time goes: navigation until the worker starts; in the worker (its own clock),
    # until loadPyodide() is called, loadPyodide() itself, and what follows it.
    print("\nmedian phases: page until the worker starts / worker until loadPyodide() / "
          "loadPyodide() / after it")
    for name, rs in results.items():
        cols = []
        for r in rs:
            t = r["timings"]
            after = t.get("micropip", t.get("import", t["ready"]))
            cols.append((r["workerStart"], t["python"], after - t["python"], t["ready"] - after))
        meds = [statistics.median(c[i] for c in cols) for i in range(4)]
        print(f"  {name:8s} {meds[0]:5.0f} / {meds[1]:5.0f} / {meds[2]:5.0f} / {meds[3]:5.0f} ms")
    snap = [r["timings"] for r in results["snapshot"]]
    print(f"  snapshot: downloaded, checked and inflated "
          f"{statistics.median(t['snapshot'] - t['python'] for t in snap):.0f} ms after loadPyodide() "
          f"was called, which then took {statistics.median(t['import'] - t['snapshot'] for t in snap):.0f} ms more")
    wheel = [r["timings"] for r in results["wheel"]]
    print(f"  wheel after loadPyodide(): load the micropip wheel "
          f"{statistics.median(t['engine'] - t['micropip'] for t in wheel):.0f} ms, "
          f"install the engine wheel {statistics.median(t['import'] - t['engine'] for t in wheel):.0f} ms, "
          f"import truco {statistics.median(t['ready'] - t['import'] for t in wheel):.0f} ms")
    print(f"\nratio snapshot/bare: {ready['snapshot'] / ready['bare']:.3f} (target <= 0.35); "
          f"wheel/bare: {ready['wheel'] / ready['bare']:.3f}; "
          f"snapshot/wheel: {ready['snapshot'] / ready['wheel']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Start-up benchmark: our page vs bare Pyodide, in the same run (not part of the tests).

Serves dist/ on 127.0.0.1 together with a bare page of its own (/__bench__/bare.html) whose
module worker only calls loadPyodide() from the same dist/pyodide/ files. Each load is cold
(a fresh browser context: empty HTTP and code caches); the two pages alternate. For each page
it prints the median time from navigation to "engine ready" (performance mark
`engine-ready` on the page), the ratio ours / bare, and the bytes the server sent (bodies,
uncompressed; plus what gzip would make of the same files, as a static host would serve them).

Usage: python3 bench/startup.py [--runs 5]   (after `python3 build.py`)
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from serve import Handler  # noqa: E402

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
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL });
  const ready = Math.round(performance.now());
  self.postMessage({ type: "ready", version: pyodide.version, timings: { pyodide: pyodideStart, ready } });
} catch (err) {
  self.postMessage({ type: "error", message: String(err) });
}
"""

BENCH_FILES = {
    "/__bench__/bare.html": (BARE_HTML, "text/html; charset=utf-8"),
    "/__bench__/bare_worker.js": (BARE_WORKER, "text/javascript"),
}


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


COUNTER = Counter()


class BenchHandler(Handler):
    quiet = True

    def do_GET(self) -> None:  # noqa: N802 (stdlib's name)
        path = self.path.split("?", 1)[0]
        if path in BENCH_FILES:
            body, ctype = BENCH_FILES[path]
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            COUNTER.add(path, len(body))
            return
        super().do_GET()

    def copyfile(self, source, outputfile) -> None:
        data = source.read()
        outputfile.write(data)
        COUNTER.add(self.path.split("?", 1)[0], len(data))


def gzip_size(paths: list[str]) -> int:
    total = 0
    for path in paths:
        if path in BENCH_FILES:
            data = BENCH_FILES[path][0]
        else:
            rel = path.lstrip("/") or "index.html"
            data = (DIST / rel).read_bytes() if (DIST / rel).is_file() else b""
        total += len(gzip.compress(data, compresslevel=6, mtime=0))
    return total


LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="page start-up vs bare Pyodide")
    parser.add_argument("--runs", type=int, default=5, help="cold loads per page (default 5)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not (DIST / "manifest.json").is_file():
        print("bench: dist/ is not built: run `python3 build.py` first", file=sys.stderr)
        return 1

    from playwright.sync_api import sync_playwright

    import functools
    handler = functools.partial(BenchHandler, directory=str(DIST))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    pages = {"ours": base + "index.html", "bare": base + "__bench__/bare.html"}
    times: dict[str, list[float]] = {name: [] for name in pages}
    sent: dict[str, list[int]] = {name: [] for name in pages}
    phases: dict[str, list[tuple[float, float, float]]] = {name: [] for name in pages}
    steps: list[tuple[float, float, float]] = []  # ours, after loadPyodide()
    gz: dict[str, int] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=LAUNCH_ARGS)
            # One warm-up load of each page (OS file cache, browser process start), not counted.
            for run in range(-1, args.runs):
                for name, url in pages.items():
                    context = browser.new_context()
                    page = context.new_page()
                    COUNTER.reset()
                    page.goto(url)
                    page.wait_for_selector("[data-engine-state=ready]", timeout=120_000)
                    ms, start, timings = page.evaluate("""() => [
                        performance.getEntriesByName('engine-ready')[0].startTime,
                        performance.getEntriesByName('engine-start')[0].startTime,
                        (window.__engine || {}).timings || window.__timings]""")
                    context.close()
                    if run < 0:
                        continue
                    times[name].append(ms)
                    # Where the time goes: page until the worker starts, loadPyodide(), and
                    # what follows it (ours: micropip, the engine wheel, import truco).
                    after = timings["micropip"] if "micropip" in timings else timings["ready"]
                    phases[name].append((start, after - timings["pyodide"], timings["ready"] - after))
                    if "micropip" in timings:
                        steps.append((timings["engine"] - timings["micropip"],
                                      timings["import"] - timings["engine"],
                                      timings["ready"] - timings["import"]))
                    sent[name].append(COUNTER.bytes)
                    gz[name] = gzip_size(COUNTER.paths)
                    print(f"  run {run + 1} {name}: {ms:7.0f} ms, {COUNTER.bytes / 1e6:.2f} MB", flush=True)
            version = browser.version
            browser.close()
    finally:
        server.shutdown()

    med = {name: statistics.median(v) for name, v in times.items()}
    print(f"\nChromium {version}, {args.runs} cold loads per page, navigation -> engine ready:")
    for name in pages:
        print(f"  {name:5s} median {med[name]:6.0f} ms (min {min(times[name]):6.0f})"
              f"   sent {statistics.median(sent[name]) / 1e6:5.2f} MB (gzip {gz[name] / 1e6:4.2f} MB)")
    print("  medians of the phases: page until the worker starts / loadPyodide() / after it")
    for name in pages:
        cols = [statistics.median(p[i] for p in phases[name]) for i in range(3)]
        print(f"  {name:5s} {cols[0]:6.0f} / {cols[1]:6.0f} / {cols[2]:6.0f} ms")
    if steps:
        cols = [statistics.median(p[i] for p in steps) for i in range(3)]
        print(f"  ours after loadPyodide(): load the micropip wheel {cols[0]:.0f} ms, import micropip"
              f" + install the engine wheel {cols[1]:.0f} ms, import truco {cols[2]:.0f} ms")
    ratio = med["ours"] / med["bare"]
    print(f"  ratio ours/bare: {ratio:.3f}  (overhead {100 * (ratio - 1):+.1f}%,"
          f" {med['ours'] - med['bare']:+.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Start-up benchmark: a first visit to our pages against bare Pyodide, in the same run, on
emulated networks (not part of the tests; figures go to bench/timing/startup_results.md).

Serves dist/ on 127.0.0.1, either as a **plain** static server (Python's own file server: no
compression, no custom headers, what many hosts do) or as a **netlify**-like host (serve.py's
rules from netlify.toml, and gzip on the fly for text and WebAssembly, as a compressing host
does: Netlify itself sends Brotli, a little smaller), together with a bare page of its own
(/__bench__/bare.html) whose module worker only calls loadPyodide() from the stock files in
dist/pyodide/. The bytes counted are the bytes on the wire (compressed where the host compresses).

Pages, per network profile and server:

- ``bare``      bare loadPyodide() from Pyodide's stock files: the yardstick ("engine ready");
- ``table``     index.html?autostart=1: from navigation to the first deal on screen (the
                human's cards in #hand: with the defaults, the page's opening, drawn before
                the engine is ready), by the path the page chooses (the snapshot); then the
                bench taps the first card and times the engine's answer to it;
- ``fallback``  index.html?autostart=1&snapshot=0: the same by the wheel path.

Network profiles (Chromium's Network.emulateNetworkConditions through a CDP session on the
page; it throttles the page's workers too): ``fast`` (none), ``10mbit`` (10 Mbit/s down,
5 up, 40 ms), ``1.6mbit`` (1.6 Mbit/s down, 0.75 up, 150 ms).

Each load is cold: a fresh browser context (empty HTTP cache, code cache and storage); the
pages take turns, so a busy machine slows them alike. Service workers are blocked for the
timed loads (their precache starts after the first deal and is not start-up). Then, once per
profile and server, a first visit with the service worker allowed is followed until the
network has been quiet for --quiet seconds after the first deal: the whole first visit,
precache included. And `embed.html` and `tutorial.html` are each watched --watch seconds
untouched (their engine must not start by itself).

It prints a table per profile and the bytes per file, and writes them to
bench/timing/startup_results.md (--out) with the machine's load average and Chromium's version.

Usage: python3 bench/timing/startup.py [--runs 5] [--slow-runs 3] [--profiles fast,10mbit,1.6mbit]
       [--servers plain,netlify] [--watch 60]     (after `python3 build.py`)
A quick look: python3 bench/timing/startup.py --runs 1 --slow-runs 1 --profiles 10mbit --servers plain --watch 5
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import datetime
import functools
import gzip
import http.server
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from truco_tools.serve import Handler, headers_for, load_header_rules

DIST = ROOT / "dist"
RESULTS = ROOT / "bench" / "timing" / "startup_results.md"

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

PROFILES = {
    # name: (download bytes/s, upload bytes/s, latency ms); None: no throttling
    "fast": None,
    "10mbit": (10_000_000 / 8, 5_000_000 / 8, 40),
    "1.6mbit": (1_600_000 / 8, 750_000 / 8, 150),
}

# The moment the goal is reached, on the page's clock (ms since navigation).
BARE_READY = """() => {
  const ready = performance.getEntriesByName('engine-ready')[0];
  return ready ? { at: ready.startTime, start: 'bare', timings: window.__timings } : null;
}"""
FIRST_DEAL = """() => {
  if (document.querySelectorAll('#hand [data-card]').length === 0) return null;
  const engine = window.__engine || {};
  const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
  const ready = performance.getEntriesByName('engine-ready')[0];
  return { at: performance.now(), start: engine.start, timings: engine.timings,
           firstFrame: paint ? paint.startTime : null, ready: ready ? ready.startTime : null };
}"""
# The player's first decision answered by the engine: the bench taps the first card of the
# hand as soon as it is drawn (the opening's, while the engine loads: issue 43), and this is the
# moment the table's observation holds that play (the engine's reply, not the page's preview).
ANSWERED = """() => {
  const obs = window.__truco && window.__truco.observation;
  if (!obs || !obs.log.some((e) => e.type === 'play' && e.seat === 0)) return null;
  return { at: performance.now() };
}"""
FAILED = """() => {
  const app = document.getElementById('app');
  return !!app && app.dataset.engineState === 'error';
}"""


class Counter:
    """Bytes the server sent, by path, since the last look."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.by_path: dict[str, int] = collections.Counter()
            self.last = time.monotonic()

    def add(self, path: str, n: int) -> None:
        with self.lock:
            self.by_path[path] += n
            self.last = time.monotonic()

    def peek(self) -> dict:
        with self.lock:
            return {"bytes": sum(self.by_path.values()), "idle": time.monotonic() - self.last}

    def take(self) -> dict:
        with self.lock:
            got = {"bytes": sum(self.by_path.values()), "files": dict(self.by_path)}
        self.reset()
        return got


COUNTER = Counter()
STATS_PATH = "/__bench__/stats"  # what was sent since the last look (not counted itself)
PEEK_PATH = "/__bench__/peek"


class Counting:
    """Mixin: count the bodies sent, answer the bench's own paths."""

    def do_GET(self) -> None:  # noqa: N802 (stdlib's name)
        path = self.path.split("?", 1)[0]
        if path in (STATS_PATH, PEEK_PATH):
            body = json.dumps(COUNTER.take() if path == STATS_PATH else COUNTER.peek()).encode()
            ctype = "application/json"
        elif path in BENCH_FILES:
            body, ctype = BENCH_FILES[path]
        else:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if path in BENCH_FILES:
            COUNTER.add(path, len(body))

    def copyfile(self, source, outputfile) -> None:
        # In chunks, counting what was handed to the socket: a load cut short (the bench closes
        # its context) counts what it got.
        path = self.path.split("?", 1)[0]
        try:
            while chunk := source.read(64 * 1024):
                outputfile.write(chunk)
                COUNTER.add(path, len(chunk))
        except (ConnectionResetError, BrokenPipeError):
            pass

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


# What a host that compresses (Netlify, Cloudflare, any CDN) compresses on the fly: text and
# WebAssembly; never what is already compressed (the .xz files, the wheels, the PNGs).
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/manifest+json",
                    "image/svg+xml", "application/wasm")


@functools.lru_cache(maxsize=256)
def gzipped(fs_path: str, mtime_ns: int) -> bytes:
    return gzip.compress(Path(fs_path).read_bytes(), compresslevel=6, mtime=0)


class NetlifyHandler(Counting, Handler):
    """serve.py's handler: netlify.toml's headers (CSP, caching, MIME types), and gzip for the
    types a host compresses (when the browser accepts it), as Netlify does (it sends Brotli,
    a little smaller than this gzip)."""

    _gzip_body: bytes | None = None
    _content_type = ""

    def send_head(self):
        self._gzip_body = None
        self._content_type = ""
        return super().send_head()

    def send_header(self, keyword: str, value: str) -> None:
        key = keyword.lower()
        if key == "content-type":
            self._content_type = value
        if key == "content-length" and self._status == 200 and self._compressible():
            fs_path = self.translate_path(self.path)
            if os.path.isdir(fs_path):
                fs_path = os.path.join(fs_path, "index.html")
            if os.path.isfile(fs_path):  # (not the bench's own pages)
                self._gzip_body = gzipped(fs_path, os.stat(fs_path).st_mtime_ns)
                super().send_header("Content-Encoding", "gzip")
                super().send_header("Vary", "Accept-Encoding")
                value = str(len(self._gzip_body))
        super().send_header(keyword, value)

    def _compressible(self) -> bool:
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        return accepts and self._content_type.split(";")[0].strip().startswith(COMPRESSED_TYPES)

    def copyfile(self, source, outputfile) -> None:
        if self._gzip_body is None:
            super().copyfile(source, outputfile)
            return
        path = self.path.split("?", 1)[0]
        try:
            for start in range(0, len(self._gzip_body), 64 * 1024):
                chunk = self._gzip_body[start:start + 64 * 1024]
                outputfile.write(chunk)
                COUNTER.add(path, len(chunk))
        except (ConnectionResetError, BrokenPipeError):
            pass


class PlainHandler(Counting, http.server.SimpleHTTPRequestHandler):
    """A plain static file server: no compression, no custom headers; only the MIME types
    every current server knows."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".webmanifest": "application/manifest+json", ".json": "application/json"}

    def translate_path(self, path: str) -> str:
        fs_path = super().translate_path(path)
        if not os.path.exists(fs_path) and not Path(fs_path).suffix and os.path.isfile(fs_path + ".html"):
            return fs_path + ".html"
        return fs_path


H2_SERVER = Path(__file__).with_name("h2_server.mjs")


def h2_config(folder: Path) -> Path:
    """The HTTP/2 host's configuration (h2_server.mjs): dist/, the bench's own pages, a
    self-signed certificate for 127.0.0.1, and each file's headers as serve.py sends them
    (netlify.toml's rules, and the Content-Type its handler picks)."""
    import subprocess

    extra = folder / "extra"
    extra.mkdir()
    for path, (body, _ctype) in BENCH_FILES.items():
        (extra / path.rsplit("/", 1)[1]).write_bytes(body)
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    rules = load_header_rules()
    handler = type("Probe", (Handler,), {"rules": rules})
    headers = {}
    for file in DIST.rglob("*"):
        if not file.is_file():
            continue
        path = "/" + file.relative_to(DIST).as_posix()
        probe = handler.__new__(handler)
        probe.path = path
        values = dict(headers_for(path, rules))
        values["Content-Type"] = probe.guess_type(str(file))
        headers[path] = values
    for path, (_body, ctype) in BENCH_FILES.items():
        headers[path] = {"Content-Type": ctype}
    config = folder / "config.json"
    config.write_text(json.dumps({"dist": str(DIST), "extra": str(extra), "cert": str(cert), "key": str(key),
                                  "headers": headers, "types": {}}), encoding="utf-8")
    return config


@contextlib.contextmanager
def serving(kind: str):
    """The base URL of a server of this kind on 127.0.0.1, for as long as the block runs."""
    if kind == "h2":
        import subprocess
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            proc = subprocess.Popen(["node", str(H2_SERVER), str(h2_config(Path(folder)))],
                                    stdout=subprocess.PIPE, text=True)
            try:
                yield f"https://127.0.0.1:{int(proc.stdout.readline())}/"
            finally:
                proc.terminate()
                proc.wait(10)
        return
    ports = multiprocessing.Queue()
    server = multiprocessing.Process(target=run_server, args=(kind, ports), daemon=True)
    server.start()
    try:
        yield f"http://127.0.0.1:{ports.get(timeout=60)}/"
    finally:
        server.terminate()
        server.join(10)


def run_server(kind: str, port_queue) -> None:
    """The static server, in a process of its own (in this one it would wait for the GIL
    behind Playwright's client and slow every response)."""
    if kind == "netlify":
        handler = type("Handler", (NetlifyHandler,), {"rules": load_header_rules()})
    else:
        handler = PlainHandler
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(DIST)))
    server.daemon_threads = True
    port_queue.put(server.server_address[1])
    server.serve_forever()


def bench_get(base: str, path: str) -> dict:
    import ssl

    unchecked = ssl._create_unverified_context()  # the h2 host's self-signed certificate
    with urllib.request.urlopen(base + path.lstrip("/"), timeout=30, context=unchecked) as reply:
        return json.loads(reply.read())


LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    # The h2 host's self-signed certificate (its service worker too).
    "--ignore-certificate-errors",
]


def med(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def throttle(page, context, profile: str) -> None:
    conditions = PROFILES[profile]
    if conditions is None:
        return
    down, up, latency = conditions
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency, "downloadThroughput": down, "uploadThroughput": up})


def wait_for(page, predicate: str, timeout_s: float):
    """Poll `predicate` (a function string) until it returns something; None on failure."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            got = page.evaluate(predicate)
            if got:
                return got
            if page.evaluate(FAILED):
                return None
        except PlaywrightError as exc:  # the document was still being replaced: poll again
            if "destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
        time.sleep(0.05)
    return None


@contextlib.contextmanager
def cold_page(browser, base: str, url: str, profile: str, wait_until: str = "commit", **context_args):
    """A page in a fresh browser context (empty caches, no service worker yet), on the
    network `profile`, navigated to `url` with the server's byte count started afresh."""
    context = browser.new_context(locale="pt-BR", **context_args)
    try:
        page = context.new_page()
        throttle(page, context, profile)
        bench_get(base, STATS_PATH)
        page.goto(url, wait_until=wait_until)
        yield page
    finally:
        context.close()


def timed_load(browser, base: str, url: str, goal: str, profile: str, timeout_s: float) -> dict | None:
    with cold_page(browser, base, url, profile, service_workers="block") as page:
        got = wait_for(page, goal, timeout_s)
        if got is not None and goal == FIRST_DEAL:
            # The first decision: a tap on the hand's first card, answered once the engine is up.
            page.locator("#hand .card.in-hand:not([hidden])").first.click(timeout=timeout_s * 1000)
            answered = wait_for(page, ANSWERED, timeout_s)
            got["answered"] = answered["at"] if answered else None
            if got.get("ready") is None:
                got["ready"] = page.evaluate("() => performance.getEntriesByName('engine-ready')[0]?.startTime ?? null")
        sent = bench_get(base, STATS_PATH)
    if got is None:
        return None
    got["sent"] = sent["bytes"]
    got["files"] = sent["files"]
    return got


def whole_first_visit(browser, base: str, url: str, profile: str, quiet_s: float, timeout_s: float) -> dict:
    """A first visit with the service worker allowed, followed until the network has been
    quiet for `quiet_s` seconds after the first deal (the precache done): every byte the
    server sent, by file, and when the page registered its service worker (from
    `window.__pwa.registeredAt`) against the first deal."""
    with cold_page(browser, base, url, profile) as page:
        got = wait_for(page, FIRST_DEAL, timeout_s)
        deadline = time.monotonic() + timeout_s
        # The precache starts once the engine is ready too (a first deal from the page's opening
        # comes before it): the quiet that ends the visit is counted from there.
        wait_for(page, "() => document.getElementById('app')?.dataset.engineState === 'ready'", timeout_s)
        time.sleep(quiet_s)
        while time.monotonic() < deadline and bench_get(base, PEEK_PATH)["idle"] < quiet_s:
            time.sleep(0.5)
        registered = page.evaluate("() => window.__pwa?.registeredAt ?? null")
        sent = bench_get(base, STATS_PATH)
    return {"deal": got["at"] if got else None, "registered": registered, "bytes": sent["bytes"],
            "files": sent["files"]}


def watched(browser, base: str, url: str, profile: str, seconds: float) -> dict:
    """An untouched page: what it moves in `seconds`, and whether its exercise is drawn."""
    with cold_page(browser, base, url, profile, wait_until="load") as page:
        time.sleep(seconds)
        drawn = page.evaluate("() => document.querySelectorAll('[data-card]').length")
        sent = bench_get(base, STATS_PATH)
    return {"sent": sent["bytes"], "files": sent["files"], "cards": drawn}


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="first visit: our pages vs bare Pyodide, on emulated networks")
    parser.add_argument("--runs", type=int, default=5, help="cold loads per page on fast and 10mbit (default 5)")
    parser.add_argument("--slow-runs", type=int, default=3, help="cold loads per page on 1.6mbit (default 3)")
    parser.add_argument("--profiles", default="fast,10mbit,1.6mbit")
    parser.add_argument("--servers", default="plain,netlify")
    parser.add_argument("--watch", type=float, default=60, help="seconds to watch untouched embed/tutorial (0: skip)")
    parser.add_argument("--quiet", type=float, default=5, help="seconds of network silence that end a whole first visit")
    parser.add_argument("--out", default=str(RESULTS), help="results file ('-': none)")
    parser.add_argument("--append", action="store_true", help="add this run to the results file instead of replacing it")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not (DIST / "manifest.json").is_file():
        print("bench: dist/ is not built: run `python3 build.py` first", file=sys.stderr)
        return 1
    profiles = [p for p in args.profiles.split(",") if p]
    servers = [s for s in args.servers.split(",") if s]
    for p in profiles:
        if p not in PROFILES:
            parser.error(f"unknown profile {p!r} (known: {', '.join(PROFILES)})")

    from playwright.sync_api import sync_playwright

    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    loads_before = load_average()
    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=LAUNCH_ARGS)
        version = browser.version
        for server_kind in servers:
            with serving(server_kind) as base:
                pages = {
                    "bare": (base + "__bench__/bare.html", BARE_READY),
                    "table": (base + "index.html?autostart=1", FIRST_DEAL),
                    "fallback": (base + "index.html?autostart=1&snapshot=0", FIRST_DEAL),
                }
                # One warm-up load of each page (OS file cache, browser start), not counted.
                for name, (url, goal) in pages.items():
                    timed_load(browser, base, url, goal, "fast", 180)
                for profile in profiles:
                    runs = args.slow_runs if profile == "1.6mbit" else args.runs
                    timeout_s = 600 if profile == "1.6mbit" else 240
                    results: dict[str, list[dict]] = {name: [] for name in pages}
                    for run in range(runs):
                        for name, (url, goal) in pages.items():
                            got = timed_load(browser, base, url, goal, profile, timeout_s)
                            if got is None:
                                print(f"  {server_kind} {profile} run {run + 1} {name}: FAILED", flush=True)
                                continue
                            expected = {"bare": "bare", "table": "snapshot", "fallback": "wheel"}[name]
                            if got.get("start") != expected:
                                print(f"  note: {name} started from {got.get('start')!r}", flush=True)
                            results[name].append(got)
                            print(f"  {server_kind} {profile} run {run + 1} {name:8s}: {got['at']:7.0f} ms, "
                                  f"{got['sent'] / 1e6:6.2f} MB", flush=True)
                    report(say, server_kind, profile, results, runs)
                    visit = whole_first_visit(browser, base, pages["table"][0], profile, args.quiet,
                                              600 if profile == "1.6mbit" else 240)
                    # The page's own files are those of the timed loads (service worker blocked);
                    # the rest of the visit is the precache.
                    own = {p for r in results["table"] for p in r["files"]}
                    extra = {p: n for p, n in visit["files"].items() if p not in own}
                    timing = ""
                    if visit["deal"] is not None and visit["registered"] is not None:
                        timing = (f"; the service worker was registered {visit['registered'] - visit['deal']:.0f} ms "
                                  f"after the first deal ({visit['deal']:.0f} ms)")
                    say(f"\nwhole first visit ({server_kind}, {profile}, service worker on): "
                        f"{visit['bytes'] / 1e6:.2f} MB in all until {args.quiet:.0f} s of silence, of which "
                        f"{sum(extra.values()) / 1e6:.2f} MB are files the page itself does not load (the precache)"
                        f"{timing}")
                    if extra:
                        say("  precache only: " + ", ".join(
                            f"{p} {n / 1e6:.2f} MB" for p, n in sorted(extra.items(), key=lambda kv: -kv[1])[:8]))
                    if args.watch > 0 and profile == profiles[0]:
                        for page_name in ("embed.html?scenario=manilhas-copas", "tutorial.html"):
                            w = watched(browser, base, base + page_name, profile, args.watch)
                            say(f"untouched {page_name} ({server_kind}, {profile}), watched {args.watch:.0f} s: "
                                f"{w['sent'] / 1e3:.0f} KB, {w['cards']} exercise cards drawn; files: "
                                + ", ".join(f"{p} {n / 1e3:.0f} KB" for p, n in sorted(w["files"].items(), key=lambda kv: -kv[1])[:6]))
        browser.close()

    header = [
        "# Start-up: first visit against bare Pyodide",
        "",
        f"Written by `bench/timing/startup.py` ({' '.join(argv) or 'defaults'}) on "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; Chromium {version}; "
        f"load average {loads_before} before and {load_average()} after; {time.monotonic() - started:.0f} s.",
        "Times are medians from navigation (minimum in brackets); 'sent' is the bodies the server",
        "sent (the plain server compresses nothing; the netlify one gzips text and WebAssembly, as a",
        "compressing host would). 'table' is the time to the first deal on",
        "screen (the player's cards, tappable); 'first decision answered': the bench taps a card at once",
        "and this is when the engine's reply holds it; 'bare' is Pyodide's stock loadPyodide() being",
        "ready, the yardstick of the ratio.",
        "",
    ]
    if args.out != "-":
        out = Path(args.out)
        text = "\n".join(header + lines) + "\n"
        if args.append and out.is_file():
            text = out.read_text(encoding="utf-8") + "\n---\n\n" + text.replace("# Start-up: first visit", "## Another run: first visit", 1)
        out.write_text(text, encoding="utf-8")
        print(f"\nwritten to {args.out}")
    return 0


def report(say, server_kind: str, profile: str, results: dict[str, list[dict]], runs: int) -> None:
    say(f"\n## {profile}, {server_kind} server, {runs} cold loads per page\n")
    say("| page | goal | time | × bare | engine ready | × bare | first decision answered | × bare | sent (median) |")
    say("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    bare = med(r["at"] for r in results["bare"])
    goals = {"bare": "engine ready", "table": "first deal", "fallback": "first deal"}
    for name, rs in results.items():
        if not rs:
            say(f"| {name} | {goals[name]} | failed | | |")
            continue
        at = med(r["at"] for r in rs)
        ready = med(r.get("ready", r["at"]) for r in rs)
        answers = [r["answered"] for r in rs if r.get("answered") is not None]
        answered = f"{med(answers):.0f} ms | {med(answers) / bare:.2f}" if answers else "— | —"
        say(f"| {name} | {goals[name]} | {at:.0f} ms ({min(r['at'] for r in rs):.0f}) | {at / bare:.2f} "
            f"| {ready:.0f} ms | {ready / bare:.2f} | {answered} | {med(r['sent'] for r in rs) / 1e6:.2f} MB |")
    table = results.get("table") or []
    if table:
        t = table[len(table) // 2]["timings"] or {}
        decode = {k: v for k, v in t.items() if "decode" in k.lower() or "inflate" in k.lower()}
        if decode:
            say(f"\ntable, worker timings of one load (ms since the worker started): {json.dumps(t)}")
        first_frames = [r.get("firstFrame") for r in table]
        say(f"\ntable: first frame (first-contentful-paint) median {med(first_frames):.0f} ms")
    for name, rs in results.items():
        if not rs:
            continue
        files: dict[str, list[int]] = collections.defaultdict(list)
        for r in rs:
            for p, n in r["files"].items():
                files[p].append(n)
        say(f"\n{name}, bytes per file (median over loads): " + ", ".join(
            f"{p} {statistics.median(v) / 1e3:.0f} KB" for p, v in sorted(files.items(), key=lambda kv: -statistics.median(kv[1]))))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

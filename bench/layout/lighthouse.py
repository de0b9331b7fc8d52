#!/usr/bin/env python3
"""Lighthouse's mobile audit of our pages (issues 41 and 43: performance, accessibility, best
practices and SEO), served from a copy of dist/ on 127.0.0.1 with gzip as Netlify compresses;
the median of 3 runs per page to bench/layout/lighthouse_results.md.

Lighthouse is not a dependency of the project: install it in a scratch folder and name it.

    mkdir -p /tmp/lh && (cd /tmp/lh && npm i -E lighthouse@12.2.3)
    .venv/bin/python bench/layout/lighthouse.py --lighthouse /tmp/lh/node_modules/.bin/lighthouse

Each page is audited with Lighthouse's mobile defaults (a Moto G-sized screen, its simulated
slow 4G and 4x CPU slowdown): the performance figures are that simulation's, for comparing
runs on this machine, not a player's times (bench/timing/startup.py measures those). The
browser asks for Portuguese (Accept-Language pt-BR), as a Brazilian visitor's does, except on
the row that says it asks for English: that one pays whatever the language choice costs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

from truco_tools.serve import QuietHandler

ROOT = Path(__file__).resolve().parents[2]
# (row, path, the browser's Accept-Language)
PAGES = [("table", "index.html", "pt-BR"), ("table (an English browser at /)", "", "en-US,en"),
         ("tutorial", "tutorial.html", "pt-BR"), ("embed", "embed.html?scenario=baralho-rei", "pt-BR"),
         ("marcador", "marcador.html", "pt-BR")]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "max-potential-fid")
# What Netlify compresses (text); the snapshot's .xz and the images are left as they are.
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json", "image/svg+xml")


class GzipHandler(QuietHandler):
    """serve.py's handler (netlify.toml's headers), plus gzip for text when the browser asks
    for it, as a CDN does: the transfer sizes Lighthouse simulates are the compressed ones."""

    _body: bytes | None = None

    def send_head(self):
        self._body = None
        fs_path = self.translate_path(self.path)
        if os.path.isdir(fs_path):
            fs_path = os.path.join(fs_path, "index.html")
        ctype = self.guess_type(fs_path)
        if ("gzip" in self.headers.get("Accept-Encoding", "") and ctype.startswith(COMPRESSIBLE)
                and os.path.isfile(fs_path)):
            with open(fs_path, "rb") as f:
                self._body = gzip.compress(f.read(), 9)
        return super().send_head()

    def send_header(self, keyword: str, value: str) -> None:
        if self._body is not None and keyword.lower() == "content-length" and self._status == 200:
            super().send_header("Content-Encoding", "gzip")
            super().send_header("Vary", "Accept-Encoding")
            value = str(len(self._body))
        super().send_header(keyword, value)

    def copyfile(self, source, outputfile) -> None:
        try:
            if self._body is not None:
                outputfile.write(self._body)
            else:
                super().copyfile(source, outputfile)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser dropped a request it no longer wanted (a page left mid-load)


def serve(directory: Path):
    import functools
    import http.server
    import threading

    from truco_tools.serve import load_header_rules, load_redirect_rules

    handler = type("Handler", (GzipHandler,), {"rules": load_header_rules(), "redirects": load_redirect_rules()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def audit(lighthouse: str, url: str, language: str, keep: Path | None = None) -> dict:
    for attempt in range(3):
        try:
            return audit_once(lighthouse, url, language, keep)
        except subprocess.CalledProcessError:
            # Lighthouse sometimes loses its trace on a loaded machine (NO_NAVSTART): again.
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def audit_once(lighthouse: str, url: str, language: str, keep: Path | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        subprocess.run([lighthouse, url, "--form-factor=mobile", f"--only-categories={','.join(CATEGORIES)}",
                        # The page reads navigator.languages (the browser's, set by --lang), the server
                        # the Accept-Language header (--accept-lang): both say the same.
                        f"--chrome-flags=--headless=new --no-sandbox --lang={language.split(',')[0]} --accept-lang={language}",
                        "--output=json", f"--output-path={out}", "--quiet"],
                       check=True, env={**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")},
                       timeout=600)
        report = json.loads(out.read_text())
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(out, keep / (re.sub(r"[^A-Za-z0-9]+", "_", url.split("/", 3)[-1]) + f"_{os.getpid()}_{len(list(keep.iterdir()))}.json"))
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    metrics = {m: report["audits"][m]["displayValue"] for m in METRICS}
    failing = sorted(a["id"] for a in report["audits"].values()
                     if a.get("score") is not None and a["score"] < 1 and a.get("scoreDisplayMode") == "binary")
    dom = report["audits"].get("dom-size", {}).get("numericValue")
    return {"scores": scores, "metrics": metrics, "failing": failing, "dom": round(dom) if dom else None,
            "final_url": report.get("finalDisplayedUrl", "")}


def median_run(runs: list[dict]) -> dict:
    """The run whose performance score is the median (its own figures, not a blend of runs)."""
    ordered = sorted(runs, key=lambda r: r["scores"]["performance"])
    return ordered[len(ordered) // 2]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", required=True, help="the lighthouse command (node_modules/.bin/lighthouse)")
    parser.add_argument("--dist", type=Path, default=None,
                        help="audit this built folder as it is (default: build the checkout into a scratch folder)")
    parser.add_argument("--ref", default=None,
                        help="build this commit (git archive into a scratch folder) instead of the working tree")
    parser.add_argument("--site-url", default="https://truco.example/",
                        help="TRUCO_SITE_URL of that build: absolute hreflang links, as Netlify's URL makes them")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--reports", type=Path, default=None, help="keep every run's Lighthouse JSON in this folder")
    parser.add_argument("--only", default="", help="comma-separated rows (default: all)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("lighthouse_results.md"))
    args = parser.parse_args(argv)
    if args.ref:  # the commit now: the ref may move while the audits run
        args.ref = subprocess.run(["git", "rev-parse", "--short", args.ref], cwd=ROOT, check=True,
                                  capture_output=True, text=True).stdout.strip()
    # A folder of its own: other builds may rewrite dist/ while the audits run.
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "dist"
        if args.dist:
            shutil.copytree(args.dist, copy)
        else:
            src = ROOT
            if args.ref:
                # A commit as it is, without the working tree's edits in progress.
                src = Path(tmp) / "src"
                src.mkdir()
                archive = subprocess.run(["git", "archive", args.ref], cwd=ROOT, check=True, capture_output=True).stdout
                subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
                (src / "node_modules").symlink_to(ROOT / "node_modules")
            subprocess.run([sys.executable, str(src / "build.py")], cwd=src, check=True, stdout=subprocess.DEVNULL,
                           env={**os.environ, "TRUCO_DIST_DIR": str(copy), "TRUCO_SITE_URL": args.site_url,
                                "TRUCO_CACHE_DIR": str(ROOT / ".cache"), "PYTHONPATH": str(src / "py")})
        server, base_url = serve(copy)
        rows = []
        try:
            for name, path, language in PAGES:
                if args.only and name not in args.only.split(","):
                    continue
                runs = [audit(args.lighthouse, base_url + path, language, args.reports) for _ in range(args.runs)]
                best = median_run(runs)
                best["all_performance"] = [r["scores"]["performance"] for r in runs]
                print(name, best, flush=True)
                rows.append((name, best))
        finally:
            server.shutdown()
    head = "| page | " + " | ".join(CATEGORIES) + " | " + " | ".join(METRICS) + " | DOM elements | binary audits failed |"
    lines = [
        "# Lighthouse, mobile (issues 41, 43)",
        "",
        f"Written by `bench/layout/lighthouse.py` on {date.today().isoformat()}: Lighthouse 12.2.3's mobile",
        "defaults (simulated slow 4G, 4x CPU slowdown) against the checkout built as Netlify builds it",
        f"({'commit ' + args.ref + ', ' if args.ref else ''}"
        f"TRUCO_SITE_URL={args.site_url if not args.dist else '(as built)'}: absolute hreflang links) served on 127.0.0.1 with",
        "netlify.toml's headers and gzip (as Netlify compresses text), Debian's Chromium, the browser",
        f"asking for Portuguese unless the row says otherwise; the median of {args.runs} runs per page (by",
        "performance; each run's performance score in brackets) on a shared 2-core machine. The",
        "performance figures are the simulation's, for comparing runs here; bench/timing/startup.py",
        "measures a first visit as a player has it. The server follows netlify.toml's Language",
        "redirects as Netlify does (serve.py).",
        "",
        head,
        "| " + " | ".join(["---"] + ["---:"] * (len(CATEGORIES) + len(METRICS) + 1) + ["---"]) + " |",
    ]
    for name, r in rows:
        perf = f"{r['scores']['performance']} ({', '.join(map(str, r['all_performance']))})"
        cells = [name, perf, *(str(r["scores"][c]) for c in CATEGORIES[1:]), *(r["metrics"][m] for m in METRICS),
                 f"{r['dom']:,}" if r["dom"] else "?", ", ".join(r["failing"]) or "none"]
        lines.append("| " + " | ".join(cells) + " |")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])

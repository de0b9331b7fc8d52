#!/usr/bin/env python3
"""Lighthouse's mobile audit of our pages (issue 41: accessibility 100 and best practices 100
kept), served from dist/ on 127.0.0.1; figures to bench/layout/lighthouse_results.md.

Lighthouse is not a dependency of the project: install it in a scratch folder and name it.

    mkdir -p /tmp/lh && (cd /tmp/lh && npm i -E lighthouse@12.2.3)
    .venv/bin/python bench/layout/lighthouse.py --lighthouse /tmp/lh/node_modules/.bin/lighthouse

Each page is audited once with Lighthouse's mobile defaults (a Moto G-sized screen, its
simulated slow 4G and 4x CPU slowdown): the performance figures are that simulation's, for
comparing runs on this machine, not a player's times (bench/timing/startup.py measures those).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

from truco_tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"table (pt-BR)": "index.html", "table (en)": "en/index.html", "tutorial": "tutorial.html",
         "embed": "embed.html", "marcador": "marcador.html"}
CATEGORIES = ("accessibility", "best-practices", "performance")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift")


def audit(lighthouse: str, url: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        subprocess.run([lighthouse, url, "--form-factor=mobile", f"--only-categories={','.join(CATEGORIES)}",
                        "--chrome-flags=--headless=new --no-sandbox", "--output=json", f"--output-path={out}", "--quiet"],
                       check=True, env={**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")},
                       timeout=600)
        report = json.loads(out.read_text())
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    metrics = {m: report["audits"][m]["displayValue"] for m in METRICS}
    failing = sorted(a["id"] for a in report["audits"].values()
                     if a.get("score") is not None and a["score"] < 1 and a.get("scoreDisplayMode") == "binary")
    return {"scores": scores, "metrics": metrics, "failing": failing}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", required=True, help="the lighthouse command (node_modules/.bin/lighthouse)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("lighthouse_results.md"))
    args = parser.parse_args(argv)
    server, base_url = serve_in_thread(args.dist)
    rows = []
    try:
        for name, path in PAGES.items():
            result = audit(args.lighthouse, base_url.rstrip("/") + "/" + path)
            print(name, result, flush=True)
            rows.append((name, result))
    finally:
        server.shutdown()
    head = "| page | " + " | ".join(CATEGORIES) + " | " + " | ".join(METRICS) + " | binary audits failed |"
    lines = [
        "# Lighthouse, mobile (issue 41)",
        "",
        f"Written by `bench/layout/lighthouse.py` on {date.today().isoformat()}: Lighthouse 12.2.3's mobile",
        "defaults (simulated slow 4G, 4x CPU slowdown) against dist/ served on 127.0.0.1 without HTTP",
        "compression, Debian's Chromium, one run per page on a shared 2-core machine. The performance",
        "figures are the simulation's, for comparing runs here; bench/timing/startup.py measures a first",
        "visit as a player has it.",
        "",
        head,
        "| " + " | ".join(["---"] + ["---:"] * (len(CATEGORIES) + len(METRICS)) + ["---"]) + " |",
    ]
    for name, r in rows:
        cells = [name, *(str(r["scores"][c]) for c in CATEGORIES), *(r["metrics"][m] for m in METRICS),
                 ", ".join(r["failing"]) or "none"]
        lines.append("| " + " | ".join(cells) + " |")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])

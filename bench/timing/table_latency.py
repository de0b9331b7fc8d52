"""Time from a human's drop (or tap) to the table showing the played card, in Chromium.

    .venv/bin/python bench/timing/table_latency.py [--games 2] [--seed 1]

Builds nothing: run `python3 build.py` first. Plays whole seeded 1 x 1 games by dragging
each card onto the table, and measures inside the page, with performance.now(), from the
pointerup that drops the card to the first animation frame in which that card is in the
played area (the first change of that area after the drop). Prints the median and p95 (a figure, never a pass/fail; the aim is < 100 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from playwright.sync_api import sync_playwright

from truco_tools.serve import serve_in_thread

ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-gpu"]

# Arms a watcher: on the next pointerup, wait for the dropped card to appear in the trick.
ARM = """(card) => { window.__latency = new Promise((resolve) => {
  setTimeout(() => resolve(null), 10000);  // a drop that missed the table: no sample
  const hand = document.getElementById('hand');
  hand.addEventListener('pointerup', () => {
    const t0 = performance.now();
    const trick = document.getElementById('trick');
    const before = trick.innerHTML;
    // The first change of the played area after the drop is the dropped card arriving
    // (the bots' moves are separate requests that come later).
    const seen = () => trick.innerHTML !== before && trick.querySelector('.card');
    const tick = () => seen() ? resolve(performance.now() - t0) : requestAnimationFrame(tick);
    tick();
  }, { once: true, capture: true });
}); }"""


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    server, url = serve_in_thread(ROOT / "dist")
    samples: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url + "/?fast=1")
        page.wait_for_selector("#app[data-engine-state=ready]", timeout=120_000)
        for g in range(args.games):
            page.evaluate("([s, c]) => window.__truco.start(s, c)", [{"mode": "1x1"}, {"seed": args.seed + g}])
            for _ in range(500):
                page.wait_for_function("""() => !window.__truco.busy &&
                    ['human', 'over'].includes(document.getElementById('app').dataset.phase)""", timeout=30_000)
                if page.locator("#app").get_attribute("data-phase") == "over":
                    break
                before = page.evaluate("window.__truco.observation.log.at(-1).n")
                accept = page.locator("#actions button[data-action=accept]")
                if accept.count():
                    accept.click()
                else:
                    card = page.locator("#hand .card.in-hand:not([disabled])").first
                    page.evaluate(ARM, card.get_attribute("data-index"))
                    box = card.bounding_box()
                    zone = page.locator("#drop-zone").bounding_box()
                    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                    page.mouse.down()
                    page.mouse.move(zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2, steps=4)
                    page.mouse.up()
                    sample = page.evaluate("window.__latency")
                    if sample is None:
                        print("a drop did not show its card within 10 s", file=sys.stderr)
                        continue
                    samples.append(sample)
                page.wait_for_function("(b) => window.__truco.observation.log.at(-1).n !== b", arg=before)
        browser.close()
    server.shutdown()
    print(f"drop -> card on the table, {len(samples)} drops over {args.games} games: "
          f"median {statistics.median(samples):.1f} ms, p95 {percentile(samples, 95):.1f} ms, "
          f"max {max(samples):.1f} ms (aim: under 100 ms)")


if __name__ == "__main__":
    main()

"""Re-open, reload or close the table while its engine starts, and count the tab's crashes
(issue 42). Each try: a new tab, the table opened, a spread delay (0.2-3 s unless told), then
one of: the table opened again in the same tab (the address bar, a link back), a reload, or
the tab closed; after a re-open or reload the new start runs until the engine is ready (a
crash of the torn-down worker shows 2-4 s after the teardown). A crash is the page's
`crash` event ("Target crashed" / "Page crashed").

    .venv/bin/python bench/startup/reload_stress.py --tries 100 --write
    .venv/bin/python bench/startup/reload_stress.py --dist /tmp/old-dist --tries 40 --hog 2

--write appends the figures (with the machine's load before and after) to
bench/startup/reload_stress_results.md. The crashes depend on load: the old decode held the
worker's event loop 1.5-1.8 s, and crashed when that passed Chromium's 2 s stop deadline.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from truco_tools.serve import serve_in_thread  # noqa: E402

RESULTS = Path(__file__).with_name("reload_stress_results.md")
READY = "#app[data-engine-state=ready]"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-gpu"]


def load() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--path", default="/?fast=1")
    ap.add_argument("--tries", type=int, default=100)
    ap.add_argument("--min", type=float, default=0.2, help="shortest delay (s)")
    ap.add_argument("--max", type=float, default=3.0, help="longest delay (s)")
    ap.add_argument("--actions", default="goto,reload,close")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sw", choices=["block", "allow"], default="block", help="service workers")
    ap.add_argument("--write", action="store_true", help=f"append the figures to {RESULTS.name}")
    ap.add_argument("--hog", type=int, default=0, help="busy processes beside the browser (a loaded machine)")
    ap.add_argument("--same-tab", action="store_true",
                    help="one tab re-opened or reloaded again and again at the delays (a player who keeps reloading)")
    ap.add_argument("--note", default="")
    a = ap.parse_args()

    from playwright.sync_api import sync_playwright

    # A loaded machine, made on purpose: N processes spinning beside the browser (the crash
    # needed the old decode to hold the worker past 2 s, which load stretches).
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(a.hog)]
    server, base = serve_in_thread(a.dist)
    base = base.rstrip("/")
    rnd = random.Random(a.seed)
    actions = a.actions.split(",")
    crashes: list[str] = []
    errors = 0
    load_before = load()
    t0 = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("TRUCO_CHROMIUM", "/usr/bin/chromium"), args=ARGS)
        context = browser.new_context(service_workers=a.sw, locale="pt-BR")
        if a.same_tab:
            crashes, errors = same_tab(context, base, a, rnd)
        for i in range(0 if a.same_tab else a.tries):
            page = context.new_page()
            crashed: list[float] = []
            page.on("crash", lambda _p, c=crashed: c.append(time.monotonic()))
            delay = a.min + (a.max - a.min) * rnd.random()
            action = actions[i % len(actions)]
            at = time.monotonic()
            try:
                page.goto(base + a.path, wait_until="commit")
                page.wait_for_timeout(delay * 1000)
                at = time.monotonic()
                if action == "goto":
                    page.goto(base + a.path, wait_until="commit")
                elif action == "reload":
                    page.reload(wait_until="commit")
                if action != "close":
                    page.wait_for_selector(READY, timeout=90_000)
                    page.wait_for_timeout(max(0.0, 4.0 - (time.monotonic() - at)) * 1000)
                page.close()
            except Exception as exc:  # noqa: BLE001 - a crashed page refuses every call
                if not crashed:
                    errors += 1
                    print(f"try {i}: {type(exc).__name__}: {str(exc)[:160]}", flush=True)
            if crashed:
                crashes.append(f"{action} at {delay:.2f} s (crash {crashed[0] - at:.1f} s later)")
                print(f"try {i}: CRASH {crashes[-1]}", flush=True)
                try:
                    page.close()
                except Exception:  # noqa: BLE001
                    pass
        browser.close()
    server.shutdown()
    for hog in hogs:
        hog.kill()
        hog.wait()
    seconds = time.monotonic() - t0
    load_after = load()
    line = (f"{a.tries} tries ({a.actions}{', one tab' if a.same_tab else ''}) at {a.min}-{a.max} s on {a.path}, service workers {a.sw}, "
            f"{a.hog} busy processes beside it, dist {a.dist}: **{len(crashes)} crashes**, {errors} other errors, {seconds:.0f} s; "
            f"load {load_before} before, {load_after} after")
    print(line)
    if a.write:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        with RESULTS.open("a") as f:
            f.write(f"- {stamp}: {line}" + (f". {a.note}" if a.note else "") + "\n")
            for c in crashes:
                f.write(f"  - {c}\n")
    return 1 if crashes else 0


def same_tab(context, base, a, rnd):
    """One tab: each try re-opens or reloads it `delay` after the previous start (a crashed
    tab is replaced); at the end the last start runs to ready, 4 s past the last teardown."""
    crashes: list[str] = []
    errors = 0
    crashed: list[float] = []
    actions = [x for x in a.actions.split(",") if x != "close"] or ["goto"]

    def fresh():
        page = context.new_page()
        page.on("crash", lambda _p: crashed.append(time.monotonic()))
        page.goto(base + a.path, wait_until="commit")
        return page

    page = fresh()
    at = time.monotonic()
    for i in range(a.tries):
        delay = a.min + (a.max - a.min) * rnd.random()
        action = actions[i % len(actions)]
        try:
            page.wait_for_timeout(delay * 1000)
            at = time.monotonic()
            if action == "reload":
                page.reload(wait_until="commit")
            else:
                page.goto(base + a.path, wait_until="commit")
        except Exception as exc:  # noqa: BLE001
            if not crashed:
                errors += 1
                print(f"try {i}: {type(exc).__name__}: {str(exc)[:160]}", flush=True)
        if crashed:
            crashes.append(f"try {i}: {action} at {delay:.2f} s (crash {crashed[0] - at:.1f} s after it)")
            print("CRASH", crashes[-1], flush=True)
            crashed.clear()
            page.close()
            page = fresh()
    try:
        page.wait_for_selector(READY, timeout=90_000)
        page.wait_for_timeout(max(0.0, 4.0 - (time.monotonic() - at)) * 1000)
    except Exception as exc:  # noqa: BLE001
        if not crashed:
            errors += 1
    if crashed:
        crashes.append("at the end")
    page.close()
    return crashes, errors


if __name__ == "__main__":
    sys.exit(main())

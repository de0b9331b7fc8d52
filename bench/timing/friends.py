"""A friends' table (issue #31) on this machine: the message round trip host <-> guest and
the bytes each side sends per hand, in Chromium (two browser contexts, the copy-the-text
path, `?friends_log=1` recording every message).

    PYTHONPATH=py .venv/bin/python bench/timing/friends.py [--seeds 7 8] [--pings 200] [--out FILE]

Builds nothing: run build.py first. For each seed a host (seat 0) and a guest (seat 1) play
a whole 2 x 2 (seats 2 and 3 bots) to its end; the host's messages to the guest and the
guest's to the host are summed and divided by the hands played. The round trip is a guest
request the host answers without the engine (`hello`), timed in the guest's page with
performance.now(). Appends a dated row to bench/timing/friends_results.md (or --out).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

from playwright.sync_api import sync_playwright

from truco_tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-gpu"]
READY = "#app[data-engine-state=ready]"
MAY_ACT = """() => { const o = window.__truco && window.__truco.observation, p = document.getElementById('app').dataset.phase;
  return Boolean(o) && !window.__truco.busy && p === 'human'; }"""
OVER = "() => document.getElementById('app').dataset.phase === 'over'"
PINGS = """async (n) => { const g = window.__trucoFriendsGuest, out = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); await g.request({ type: 'hello' }); out.push(performance.now() - t0); }
  return out; }"""


def exchange(host, guest, seat):
    offer = host.locator(f"#friends-offer-{seat}[data-ready]")
    offer.wait_for()
    guest.locator("#join-offer").fill(offer.input_value())
    guest.locator("#join-make").click()
    answer = guest.locator("#join-answer[data-ready]")
    answer.wait_for()
    host.locator(f"#friends-answer-{seat}").fill(answer.input_value())
    host.locator(f"#friends-connect-{seat}").click()
    host.wait_for_function(f"() => document.querySelector('.friends-seat[data-seat=\"{seat}\"]').dataset.connected === 'true'")


def move(page):
    n = page.evaluate("() => window.__truco.observation.log.at(-1).n")
    accept = page.locator("#actions button[data-action=accept]")
    if accept.count():
        accept.click()
    else:
        page.locator("#hand .card.in-hand:not([disabled])").first.click()
    page.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)


def whole_bytes(texts, skip=0):
    """What the same messages would weigh with every observation sent whole (as before
    protocol.js's deltas): each observation rebuilt from the chain, and the table's settings
    in every event."""
    base, table, total = None, None, 0
    for i, text in enumerate(texts):
        msg = json.loads(text)
        carrier = msg if msg.get("type") == "obs" else (msg.get("result") or {})
        if "observation" in carrier:
            base = carrier["observation"]
        elif "delta" in carrier:
            d = carrier.pop("delta")
            tails = {k: base.get(k, [])[:kept] + items for k, (kept, items) in d.get("tail", {}).items()}
            base = {**base, **d.get("set", {}), **tails}
            for key in d.get("drop", []):
                del base[key]
        else:
            total += len(text.encode()) if i >= skip else 0
            continue
        carrier["observation"] = base
        if msg.get("type") == "obs":
            table = msg.get("table", table)
            msg["table"] = table
        if i >= skip:
            total += len(json.dumps(msg, separators=(",", ":"), ensure_ascii=False).encode())
    return total


def one_match(browser, url, seed, pings, dump=None):
    hc = browser.new_context(base_url=url, service_workers="block")
    gc = browser.new_context(base_url=url, service_workers="block", viewport={"width": 390, "height": 844})
    host, guest = hc.new_page(), gc.new_page()
    host.goto(f"/?fast=1&seed={seed}&friends_log=1")
    guest.goto("/?join=1&fast=1&friends_log=1")
    host.wait_for_selector(READY, timeout=120_000)
    host.locator("#open-friends").click()
    host.locator("#friends-dialog input[name=friends-mode][value='2x2']").check()
    host.locator("#friends-dialog input[name=friends-seat][value='1']").check()
    host.locator("#friends-make").click()
    exchange(host, guest, 1)
    host.locator("#friends-start").click()
    guest.wait_for_function("() => Boolean(window.__truco && window.__truco.observation)")
    rtt = guest.evaluate(PINGS, pings) if pings else []
    # Only the match's messages from here on count (the pings are not the match's).
    first = host.evaluate("() => window.__trucoFriendsLog.length")
    deadline = time.monotonic() + 600
    while not (host.evaluate(OVER) and guest.evaluate(OVER)):
        assert time.monotonic() < deadline, "the match did not go on"
        for page in (guest, host):
            if page.evaluate(MAY_ACT):
                move(page)
    whole_log = host.evaluate("() => window.__trucoFriendsLog")
    log = whole_log[first:]
    if dump:
        Path(dump).write_text("\n".join(m["dir"] + " " + m["text"] for m in log), encoding="utf-8")
    # Hands played: the last hand's number (one game a match; the log keeps only the latest hands).
    hands = host.evaluate("() => window.__truco.observation.hand_number")
    out = [len(m["text"].encode()) for m in log if m["dir"] == "out"]
    inc = [len(m["text"].encode()) for m in log if m["dir"] == "in"]
    outs = [m["text"] for m in whole_log if m["dir"] == "out"]
    whole = whole_bytes(outs, skip=len([m for m in whole_log[:first] if m["dir"] == "out"]))
    hc.close()
    gc.close()
    return {"hands": hands, "out": sum(out), "out_n": len(out), "in": sum(inc), "in_n": len(inc), "rtt": rtt, "whole": whole}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", type=int, nargs="+", default=[7, 8])
    ap.add_argument("--pings", type=int, default=200)
    ap.add_argument("--out", type=Path, default=ROOT / "bench/timing/friends_results.md")
    ap.add_argument("--note", default="")
    ap.add_argument("--dump", help="write the first match's messages (host side) to this file, and no results row")
    args = ap.parse_args()
    server, url = serve_in_thread(ROOT / "dist")
    runs = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for i, seed in enumerate(args.seeds):
            runs.append(one_match(browser, url, seed, args.pings if i == 0 else 0, args.dump if i == 0 else None))
        browser.close()
    server.shutdown()
    hands = sum(r["hands"] for r in runs)
    rtt = sorted(x for r in runs for x in r["rtt"])
    per_hand_out = sum(r["out"] for r in runs) / hands
    per_hand_in = sum(r["in"] for r in runs) / hands
    per_hand_whole = sum(r["whole"] for r in runs) / hands
    msgs = sum(r["out_n"] for r in runs) / hands
    biggest = max(r["out"] / r["out_n"] for r in runs)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    row = (f"| {datetime.now(timezone.utc):%Y-%m-%d %H:%M} | {commit} | {' '.join(map(str, args.seeds))} | {hands} | " +
           (f"{statistics.median(rtt):.2f} / {rtt[int(0.9 * (len(rtt) - 1))]:.2f} ms | " if rtt else "- | ") +
           f"{per_hand_out / 1000:.1f} KB ({msgs:.0f} msgs, {biggest / 1000:.1f} KB avg; whole observations: {per_hand_whole / 1000:.1f} KB) | "
           f"{per_hand_in / 1000:.2f} KB | {args.note} |")
    print(row)
    if args.dump:
        return
    if not args.out.exists():
        args.out.write_text(
            "# A friends' table on this machine (bench/timing/friends.py)\n\n"
            "Two Chromium contexts on one machine (host seat 0, guest seat 1, two bots), a whole\n"
            "2 x 2 per seed. Round trip: a guest request the host answers without the engine\n"
            "(`hello`), median / p90. Bytes: the channel's JSON text, UTF-8.\n\n"
            "| when (UTC) | commit | seeds | hands | round trip | host -> guest per hand | guest -> host per hand | note |\n"
            "|---|---|---|---|---|---|---|---|\n", encoding="utf-8")
    with args.out.open("a", encoding="utf-8") as f:
        f.write(row + "\n")


if __name__ == "__main__":
    main()

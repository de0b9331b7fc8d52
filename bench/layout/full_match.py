#!/usr/bin/env python3
"""Whole matches at each screen size, played through the page as a person would (issue 41:
"0 console errors in a full match at each size"): a 2 x 2 match against médio from the start
screen's defaults, every turn played by asking the Dica and following it (a raise accepted,
else the first card, where it has nothing to follow), every summary closed with its button,
to the end dialog. Counts the page's console errors and warnings,
uncaught errors, the steps where the page scrolled, and writes bench/layout/full_match_results.md.

    .venv/bin/python bench/layout/full_match.py [--sizes 390x844,1280x800] [--seed 21]

Motion and pauses are the test mode's (?fast=1: none), so a match takes a minute or two.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

from audit import LANG_PATH, ROOT, SIZES  # noqa: E402

from helpers.browser import CHROMIUM, CHROMIUM_ARGS, ENGINE_TIMEOUT_MS, READY  # noqa: E402
from helpers.layout import go_on, last_n, wait_step  # noqa: E402

SCROLLS = "() => document.scrollingElement.scrollHeight > innerHeight + 1 || document.scrollingElement.scrollWidth > innerWidth + 1"


def person_move(page) -> None:
    """A player who asks the Dica and follows it (so the match goes as a fair player's would);
    where the Dica has nothing to follow, a raise is accepted, else the first card played."""
    button = page.locator("#hint-button")
    if button.is_visible() and button.is_enabled():
        button.click()
        page.wait_for_function("() => !document.getElementById('hint-follow').hidden"
                               " || /\\S/.test(document.getElementById('hint-text').textContent)", timeout=30_000)
        follow = page.locator("#hint-follow")
        if follow.is_visible():
            follow.click()
            return
    accept = page.locator("#actions button[data-action=accept]")
    (accept if accept.count() else page.locator("#hand .card.in-hand:not([disabled])").first).click()


def play_match(page, max_steps=600) -> dict:
    steps = scrolled = 0
    state = wait_step(page, None)
    while state != "over" and steps < max_steps:
        steps += 1
        if page.evaluate(SCROLLS) and not page.evaluate("() => !!document.querySelector('dialog[open]')"):
            scrolled += 1
        before = last_n(page)
        if state == "summary":
            page.locator("#banner-next").click()
            go_on(page, before)
        else:
            person_move(page)
        state = wait_step(page, before if state != "summary" else None)
    obs = page.evaluate("window.__truco.observation")
    return {"steps": steps, "hands": obs["hand_number"], "scrolled": scrolled, "score": obs["score"], "over": state == "over"}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="360x640,390x844,844x390,1280x800")
    parser.add_argument("--lang", default="pt-BR")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("full_match_results.md"))
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright
    from truco_tools.serve import serve_in_thread

    server, base_url = serve_in_thread(args.dist)
    rows = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for size in args.sizes.split(","):
                viewport, options = SIZES[size]
                context = browser.new_context(base_url=base_url, viewport=viewport, locale=args.lang, **options)
                page = context.new_page()
                console = []
                page.on("console", lambda m: console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
                page.on("pageerror", lambda e: console.append(f"uncaught: {e}"))
                page.goto(LANG_PATH[args.lang] + f"&seed={args.seed}&auto_next=0&hint=1")  # each summary waits for its button
                page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
                page.wait_for_selector("#start-dialog[open]")
                page.locator("#start-button").click()  # the start screen's defaults: 2 x 2, médio
                started = time.monotonic()
                result = play_match(page)
                result.update(size=size, seconds=round(time.monotonic() - started), console=console)
                print(result, flush=True)
                rows.append(result)
                context.close()
            browser.close()
    finally:
        server.shutdown()
    lines = [
        "# Whole matches through the page, at each size (issue 41)",
        "",
        f"Written by `bench/layout/full_match.py` on {date.today().isoformat()}: a 2 x 2 match against médio",
        f"(the start screen's defaults, `?seed={args.seed}`, {args.lang}), every turn the Dica's choice, followed by a tap, every",
        "summary closed by its button, to the end dialog; test mode's pace (no pauses, no motion).",
        "",
        "| size | match ended | hands | steps | final score | steps with page scroll | console errors + warnings |",
        "| --- | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for r in rows:
        lines.append(f"| {r['size']} | {'yes' if r['over'] else 'no'} | {r['hands']} | {r['steps']} | "
                     f"{r['score'][0]} x {r['score'][1]} | {r['scrolled']} | {len(r['console'])} |")
    details = [f"- {r['size']}: {line}" for r in rows for line in r["console"][:10]]
    if details:
        lines += ["", "Console lines:", "", *details]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Screenshots of the table (issue 41) to look at: a trick in round 3, a hand's summary, a
mão de dez and the end of its match, at each screen size asked for, into a folder.

    .venv/bin/python bench/layout/screens.py --out /tmp/screens [--sizes 390x844,1280x800] [--dist DIR]

Same seeded scenarios as audit.py; the 2 x 2 table, Dica on, pt-BR unless --lang."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from audit import LANG_PATH, MODES, ROOT, SIZES, open_page  # noqa: E402

from helpers.layout import describe, go_on, last_n, problems, wait_step  # noqa: E402



def play_until(page, stop, max_steps=40):
    """Play (accept, else the first card) until `stop(state, obs)`; returns the state."""
    state = wait_step(page, None)
    for _ in range(max_steps):
        o = page.evaluate("window.__truco.observation")
        if stop(state, o):
            return state
        before = last_n(page)
        if state == "summary":
            page.locator("#banner-next").click()
            go_on(page, before)
            state = wait_step(page, None)
            continue
        accept = page.locator("#actions button[data-action=accept]")
        (accept if accept.count() else page.locator("#hand .card.in-hand:not([disabled])").first).click()
        state = wait_step(page, before)
    return state


def shoot(page, out, name):
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    found = problems(page)
    print(f"{path}: {len(found)} problems")
    for p in found[:8]:
        print("   ", describe(p))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sizes", default="360x640,390x844,844x390,1280x800")
    parser.add_argument("--lang", default="pt-BR")
    parser.add_argument("--mode", default="2x2")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright
    from helpers.browser import CHROMIUM, CHROMIUM_ARGS
    from truco_tools.serve import serve_in_thread

    server, base_url = serve_in_thread(args.dist)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for size in args.sizes.split(","):
                viewport, options = SIZES[size]
                context, page = open_page(browser, base_url, viewport, options, args.lang)
                settings, _ = MODES[args.mode]
                page.evaluate("([s, c]) => window.__truco.start(s, c)",
                              [{**settings, "level": "facil", "partner_level": "facil", "humano_decide": False},
                               {"seed": 3, "dealer": 3}])
                # On through the hands until one reaches its third round on the player's turn.
                play_until(page, lambda s, o: s == "turn" and len(o["rounds"]) == 3 and o["rounds"][-1]["plays"], 80)
                shoot(page, args.out, f"{size}-round3")
                play_until(page, lambda s, o: s != "turn")
                shoot(page, args.out, f"{size}-summary")
                settings, scenario = MODES["2x2 dez"]
                page.evaluate("([s, c]) => window.__truco.start(s, c)", [settings, scenario])
                wait_step(page, None)
                shoot(page, args.out, f"{size}-dez")
                # On to the match's end (a mão de dez won closes it; lost, more hands follow).
                play_until(page, lambda s, o: s == "over", 400)
                page.wait_for_timeout(1200)  # the end's chart draws itself (no pause under reduced motion)
                shoot(page, args.out, f"{size}-end")
                context.close()
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])

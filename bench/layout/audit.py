"""What a person sees on the table, counted (issue 41): plays 3 hands of each mode at five
screen sizes and, at each of the player's turns (after asking the Dica) and each hand's
summary, counts the cards whose index corner or centre is under something else, the lines
of text under something else, the text boxes cut off and the page scroll
(tests/helpers/layout.py says how each is seen). Writes bench/layout/results.md.

    .venv/bin/python build.py && .venv/bin/python bench/layout/audit.py [--label after]
    .venv/bin/python bench/layout/audit.py --sizes 390x844 --modes 2x2 --print

The same scenarios every run (seeded deals; Tonho holds three manilhas and calls truco in
the first hand; the Dica, sinais and humano decide on), with the clock stopped so each
speech bubble stays up until it is measured (more at once than a player ever sees).
`--label` names the column the counts go in, so results.md keeps a before and an after."""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The audit itself is the tests' (tests/helpers/layout.py): this bench runs it on more
# scenarios, so it reads the tests' helpers from their folder (py/ is on the path already:
# the editable install).
sys.path.insert(0, str(ROOT / "tests"))

from helpers.browser import CHROMIUM, CHROMIUM_ARGS, READY, ENGINE_TIMEOUT_MS  # noqa: E402
from helpers.layout import KINDS, LANG_PATH, MODES, audit_match, describe  # noqa: E402

PHONE = {"is_mobile": True, "has_touch": True}
# size: (viewport, context options, language of the page)
SIZES = {
    "360x640": ({"width": 360, "height": 640}, PHONE),
    "390x844": ({"width": 390, "height": 844}, PHONE),
    "430x932": ({"width": 430, "height": 932}, PHONE),
    "844x390": ({"width": 844, "height": 390}, PHONE),
    "1280x800": ({"width": 1280, "height": 800}, {}),
}


def open_page(browser, base_url, viewport, options, lang):
    context = browser.new_context(base_url=base_url, viewport=viewport, locale=lang, service_workers="block",
                                  reduced_motion="reduce", **options)
    page = context.new_page()
    page.goto(LANG_PATH[lang])
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.clock.install()
    page.clock.pause_at(datetime.now() + timedelta(minutes=1))
    return context, page


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--langs", default="pt-BR,es,en")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--label", default=None, help="the column of results.md to write (none: print only)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the build to serve (a copy, to audit one while building another)")
    parser.add_argument("--print", action="store_true", help="print every problem")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright
    from truco_tools.serve import serve_in_thread

    server, base_url = serve_in_thread(args.dist)
    rows = {}  # (size, mode, lang) -> Counter of kinds
    examples = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for size in args.sizes.split(","):
                viewport, options = SIZES[size]
                for lang in args.langs.split(","):
                    context, page = open_page(browser, base_url, viewport, options, lang)
                    for mode in args.modes.split(","):
                        found, steps = audit_match(page, mode, args.hands)
                        unique = {(p["kind"], p["what"], p["where"], p["by"]): p for p in found}
                        counts = collections.Counter(p["kind"] for p in unique.values())
                        counts["steps"] = steps
                        rows[(size, mode, lang)] = counts
                        examples[(size, mode, lang)] = [f"{p['step']}: {describe(p)}" for p in unique.values()]
                        print(f"{size} {lang} {mode}: {steps} steps, {sum(counts[k] for k in KINDS)} problems "
                              + ", ".join(f"{k} {counts[k]}" for k in KINDS if counts[k]), flush=True)
                        if args.print:
                            for line in examples[(size, mode, lang)]:
                                print("   ", line)
                    context.close()
            browser.close()
    finally:
        server.shutdown()
    if args.label:
        write_results(rows, examples, args)


RESULTS = Path(__file__).with_name("results.md")


def write_results(rows, examples, args):
    """The counts per size, mode and language in results.md, in the column `args.label`;
    another column already there is kept (the figures before a change, and after)."""
    data_path = RESULTS.with_suffix(".json")
    data = json.loads(data_path.read_text()) if data_path.exists() else {}
    data[args.label] = {"|".join(k): dict(v) for k, v in rows.items()}
    data[args.label + ":examples"] = {"|".join(k): v[:12] for k, v in examples.items()}
    data_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    labels = [k for k in data if not k.endswith(":examples")]
    lines = [
        "# The table as a person sees it: problems counted (issue 41)",
        "",
        "Written by `bench/layout/audit.py` (`--label NAME` writes a column). Each step is one of the",
        f"player's turns (audited before and after asking the Dica) or a hand's summary; {args.hands} hands per",
        "mode (seeded: Tonho calls truco in the first hand; Dica, sinais and humano decide on; `2x2 dez` is a",
        "mão de dez, the partner's cards shown), the clock stopped so every speech bubble stays up. A problem",
        "seen at several steps counts once per row. Kinds: a card's index corner or centre under something",
        "else, a line of text under something else, a text box cut off (its text scrolls inside it or runs",
        "off the screen), the page scrolls.",
        "",
    ]
    keys = sorted({k for label in labels for k in data[label]},
                  key=lambda k: (list(SIZES).index(k.split("|")[0]), list(MODES).index(k.split("|")[1]), k.split("|")[2]))
    for label in labels:
        total = collections.Counter()
        per_size = collections.defaultdict(collections.Counter)
        for k, v in data[label].items():
            for kind in KINDS:
                total[kind] += v.get(kind, 0)
                per_size[k.split("|")[0]][kind] += v.get(kind, 0)
        lines.append(f"## {label}: {sum(total.values())} problems "
                     + "(" + ", ".join(f"{k} {total[k]}" for k in KINDS) + ")")
        lines.append("")
        lines.append("| size | " + " | ".join(KINDS) + " | all |")
        lines.append("| --- | " + " | ".join("---:" for _ in KINDS) + " | ---: |")
        for size, c in sorted(per_size.items(), key=lambda kv: list(SIZES).index(kv[0])):
            lines.append(f"| {size} | " + " | ".join(str(c[k]) for k in KINDS) + f" | {sum(c.values())} |")
        lines.append("")
    lines.append("## Per size, mode and language")
    lines.append("")
    lines.append("| size | mode | lang | " + " | ".join(f"{label}: all (corner/centre/text/cut/scroll)" for label in labels) + " |")
    lines.append("| --- | --- | --- | " + " | ".join("---" for _ in labels) + " |")
    for k in keys:
        size, mode, lang = k.split("|")
        cells = []
        for label in labels:
            v = data[label].get(k)
            cells.append("" if v is None else f"{sum(v.get(kind, 0) for kind in KINDS)} ("
                         + "/".join(str(v.get(kind, 0)) for kind in KINDS) + f"), {v.get('steps', 0)} steps")
        lines.append(f"| {size} | {mode} | {lang} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("## Examples (the first few problems of each row, per column)")
    for label in labels:
        lines.append("")
        lines.append(f"### {label}")
        lines.append("")
        ex = data.get(label + ":examples", {})
        for k in keys:
            if ex.get(k):
                lines.append(f"- **{k.replace('|', ' ')}**")
                for e in ex[k][:4]:
                    lines.append(f"  - {re.sub(r'[|]', '/', e)}")
    RESULTS.write_text("\n".join(lines) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Bot research, not the game: the arena (bots against bots), the exact bounds, the
self-play betting table and the other measurements behind docs/bots.md. Each module is a
command line (``python -m truco_lab.arena --help``) and some are imported by the tests in
tests/bots/. Not in the wheel the web app installs; the editable install puts py/ on the
path, so ``truco_lab`` imports from the checkout like ``truco`` and ``truco_tools``.

The results these commands write or read (``*.md``, the self-play tables' ``*.json``) and
the C++ ports of the bounds stay in bench/bots/, named by ``RESULTS``.
"""

import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# bench/bots/: the figures (arena_results.md and the other *.md), the self-play tables the
# research reads (selfplay_table_*.json) and the C++ sources the exact bounds compile.
RESULTS = ROOT / "bench" / "bots"


def put_section(md: Path, mark: str, section: str) -> None:
    """Write ``section`` (which begins and ends with ``mark``) into the results file ``md``:
    in place of the one between the marks, or before the file's first section or another bench's mark (the
    newest first), so that a bench run again replaces its section, never adds one."""
    text = md.read_text()
    if mark in text:
        head, _, rest = text.partition(mark)
        _, _, tail = rest.partition(mark)
        text = head + section.rstrip("\n") + tail
    else:  # before the first section, another bench's mark included (never inside its marks)
        starts = [i for i in (text.find("\n<!-- "), text.find("\n## ")) if i >= 0]
        text = (text[:min(starts)] + "\n" + section + text[min(starts):]) if starts else text + "\n" + section
    md.write_text(text)


def ci95(xs: list[float]) -> float:
    """Half-width of the 95% confidence interval of the mean of ``xs`` (normal approximation;
    NaN under two values): per mirrored pair, or per pair's paired difference."""
    n = len(xs)
    if n < 2:
        return float("nan")
    m = sum(xs) / n
    return 1.96 * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)

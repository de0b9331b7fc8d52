"""Bot research, not the game: the arena (bots against bots), the exact bounds, the
self-play betting table and the other measurements behind docs/bots.md. Each module is a
command line (``python -m truco_lab.arena --help``) and some are imported by the tests in
tests/bots/. Not in the wheel the web app installs; the editable install puts py/ on the
path, so ``truco_lab`` imports from the checkout like ``truco`` and ``truco_tools``.

The results these commands write or read (``*.md``, the self-play tables' ``*.json``) and
the C++ ports of the bounds stay in bench/bots/, named by ``RESULTS``.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# bench/bots/: the figures (arena_results.md and the other *.md), the self-play tables the
# research reads (selfplay_table_*.json) and the C++ sources the exact bounds compile.
RESULTS = ROOT / "bench" / "bots"


def put_section(md: Path, mark: str, section: str) -> None:
    """Write ``section`` (which begins and ends with ``mark``) into the results file ``md``:
    in place of the one between the marks, or before the file's first ``## `` section (the
    newest first), so that a bench run again replaces its section, never adds one."""
    text = md.read_text()
    if mark in text:
        head, _, rest = text.partition(mark)
        _, _, tail = rest.partition(mark)
        text = head + section.rstrip("\n") + tail
    else:
        head, sep, tail = text.partition("\n## ")
        text = head + "\n" + section + "\n## " + tail if sep else text + "\n" + section
    md.write_text(text)

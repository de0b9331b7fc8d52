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

"""Golden playthroughs (tests/golden/*.txt): whole seeded games, every action and observation.

After an intended change of the engine's behaviour, regenerate them with
`.venv/bin/python tests/helpers/golden_playthroughs.py --write` and read the diff.
"""

import pytest

from helpers.golden_playthroughs import GOLDEN_DIR, GOLDENS, render


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_playthrough_is_unchanged(name):
    expected = (GOLDEN_DIR / f"{name}.txt").read_text(encoding="utf-8")
    assert render(name) == expected, f"{name} differs: run tests/helpers/golden_playthroughs.py --write and review the diff"

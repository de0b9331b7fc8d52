"""Golden bot choices (tests/golden/bot_choices.txt): seeded arena matches, every decision.

The bots' code may be reorganised, renamed and given settings; what they choose must not
change, move for move (issue 30). After an intended change of a bot's play, regenerate
with `.venv/bin/python tests/helpers/golden_choices.py --write` and read the diff.
"""

from helpers.golden_choices import GAMES, GOLDEN, MATCHES, play


def test_every_recorded_choice_is_made_again():
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = []
    for name in MATCHES:
        for i in range(GAMES):
            got += play(name, i)
    for n, (want, have) in enumerate(zip(expected, got)):
        assert have == want, f"line {n + 1} of {GOLDEN.name}: a bot chose differently"
    assert len(got) == len(expected)
    decisions = sum(1 for line in got if line.split()[3] not in ("signal", "hint", "winner"))
    assert decisions > 3000

"""O desafio do dia (issue 45): one match a day whose deals come from the date, the same for
every player in the world that day.

The day is the calendar date in Brasília (UTC-3; Brazil has kept no summer time since 2019),
worked out by the page from the device's clock (``site/static/js/table/daily.js``), so a new
challenge starts at midnight in Brasília for everyone. The page asks ``new_game`` with
``daily: "YYYY-MM-DD"``; the seed is made here, the one place that decides it, and the match
is then the engine's seeded match for that seed (deal *k* depends only on the seed and *k*;
the bots are seeded by the seed and the position). The seed stays in the engine until the
match is over, as any seed does (``share``).

>>> daily_seed("2026-12-03") == daily_seed("2026-12-03")
True
>>> daily_seed("2026-12-03") != daily_seed("2026-12-04")
True
>>> daily_seed("2026-02-30")
Traceback (most recent call last):
...
ValueError: daily '2026-02-30' is not a date YYYY-MM-DD
"""

from __future__ import annotations

import random
import re
from typing import Any

from .quote import said

SALT = "truco-mineiro:desafio-do-dia:"
"""Prefixed to the date before hashing: changing it would change every day's deals."""
SEED_BITS = 48
"""The seed's size: a whole number the page keeps exactly (below 2^53) in a shared link."""
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def daily_seed(day: Any) -> int:
    """The seed of the challenge of ``day`` (``"YYYY-MM-DD"``, a real date): the first
    :data:`SEED_BITS` bits that ``random.Random`` draws when seeded with :data:`SALT` and the
    date (a text seed goes through SHA-512: stable across Python versions, and no module the
    engine does not already import). Anything else is a ``ValueError``."""
    m = _DATE.fullmatch(day) if isinstance(day, str) else None
    if not m or not _real(*map(int, m.groups())):
        raise ValueError(f"daily {said(day, 20)} is not a date YYYY-MM-DD")
    return random.Random(f"{SALT}{day}").getrandbits(SEED_BITS)


def _real(year: int, month: int, day: int) -> bool:
    """Whether the Gregorian calendar has this day (datetime is left out of the engine)."""
    if not 1 <= month <= 12 or year < 1:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _DAYS[month - 1] + (month == 2 and leap)

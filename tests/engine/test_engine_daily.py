"""O desafio do dia (issue 45, truco.daily): the date decides the seed, in the engine, and the
day's match is the engine's seeded match for that seed."""

from __future__ import annotations

import json

import pytest

from truco import api
from truco.daily import daily_seed

# The challenge's table (site/static/js/table/daily.js): 2 x 2 Mineiro against difícil.
DAILY = {"preset": "mineiro", "players": 4, "level": "dificil", "partner_level": "dificil", "humano_decide": True, "sinais": True}


def call(method: str, **params) -> dict:
    return json.loads(api.handle(json.dumps({"method": method, "params": params})))


def test_the_seed_is_the_dates_alone_and_days_differ():
    days = [f"2026-{m:02d}-{d:02d}" for m in (1, 2, 12) for d in range(1, 29)]
    seeds = [daily_seed(day) for day in days]
    assert seeds == [daily_seed(day) for day in days], "deterministic"
    assert len(set(seeds)) == len(days), "each day its own seed"
    assert all(0 <= s < 2**53 for s in seeds), "a whole number the page keeps exactly"
    # Pinned: a change here changes every player's challenge of that day.
    assert daily_seed("2026-12-03") == 120799148270206


@pytest.mark.parametrize("bad", ["2026-02-29", "2026-13-01", "2026-12-3", "03/12/2026", "", 20261203, None, ["2026-12-03"]])
def test_anything_but_a_real_date_is_refused(bad):
    with pytest.raises(ValueError, match="is not a date"):
        daily_seed(bad)
    with pytest.raises(ValueError, match="is not a date"):
        call("new_game", **DAILY, daily=bad)


def test_the_days_match_is_the_engines_for_that_seed_and_the_same_for_everyone():
    day = "2026-12-03"
    first = call("new_game", **DAILY, daily=day)
    seeded = call("new_game", **DAILY, seed=daily_seed(day))
    assert first["observation"] == seeded["observation"]
    assert json.loads(first["save"]) == json.loads(seeded["save"]), "the same match from there on"
    again = call("new_game", **DAILY, daily=day)
    assert again["observation"]["hand"] == first["observation"]["hand"]
    other = call("new_game", **DAILY, daily="2026-12-04")
    assert other["observation"]["hand"] != first["observation"]["hand"]


def test_a_daily_comes_with_no_seed_of_its_own():
    with pytest.raises(ValueError, match="no seed"):
        call("new_game", **DAILY, daily="2026-12-03", seed=3)
    with pytest.raises(ValueError, match="no seed"):
        call("new_game", **DAILY, daily="2026-12-03", opening=0)

"""Openings (issue 43, truco.openings): matches the table deals from the build's data before
its engine is ready. The engine deals the very match the page showed, from a seed the page
never sees; the page's data is seat 0's view alone."""

from __future__ import annotations

import json
import re

import pytest

from truco import api
from truco.names import LEVELS
from truco.openings import OPENING_SEEDS
from truco_tools.openings import IN_THE_PAGE, OPENING_PARAMS, openings_data

CARD = re.compile(r'"([2-7QJKA][cdhs])"')


def call(method: str, **params) -> dict:
    return json.loads(api.handle(json.dumps({"method": method, "params": params})))


@pytest.mark.parametrize("index", range(len(OPENING_SEEDS)))
def test_an_opening_is_its_seeds_match_seat_0_decides_first_at_every_level(index):
    views = [call("new_game", **OPENING_PARAMS, level=level, opening=index) for level in LEVELS]
    for reply in views:
        assert reply["observation"] == views[0]["observation"], "the opponents' level changes nothing before they move"
    obs = views[0]["observation"]
    assert obs["to_move"] == obs["seat"] == 0 and obs["legal_actions"]
    seeded = call("new_game", **OPENING_PARAMS, level="dificil", seed=OPENING_SEEDS[index])
    assert seeded["observation"] == obs
    # The same match from there on: the two saves are one (the seed and how it started).
    assert json.loads(views[-1]["save"]) == json.loads(seeded["save"])


@pytest.mark.parametrize("bad", [-1, len(OPENING_SEEDS), "1", True, 1.0, None])
def test_a_bad_opening_is_refused_and_changes_nothing(bad):
    before = call("new_game", **OPENING_PARAMS, level="medio", seed=5)
    with pytest.raises(ValueError, match=r"opening .* is not one of the 8 openings"):
        call("new_game", **OPENING_PARAMS, level="medio", opening=bad)
    assert call("observation")["observation"] == before["observation"]


def test_an_opening_comes_with_no_seed_of_its_own():
    with pytest.raises(ValueError, match="no seed"):
        call("new_game", **OPENING_PARAMS, opening=0, seed=3)


def test_the_pages_openings_are_the_engines_first_deals_and_seat_0s_view_only():
    data = openings_data()
    assert data["params"] == OPENING_PARAMS and data["levels"] == list(LEVELS)
    assert [o["opening"] for o in data["openings"]] == list(range(IN_THE_PAGE))
    for item in data["openings"]:
        obs = item["observation"]
        assert obs == call("new_game", **OPENING_PARAMS, level="medio", opening=item["opening"])["observation"]
        text = json.dumps(item)
        # No seed, no save, and no card but seat 0's own and the fixed manilhas' names.
        assert "seed" not in text and "save" not in text
        assert set(CARD.findall(text)) <= set(obs["hand"]) | set(obs["rules"]["manilhas"]), item["opening"]
        assert obs["hand_sizes"] == [3, 3, 3, 3] and obs["visible_hands"] == []

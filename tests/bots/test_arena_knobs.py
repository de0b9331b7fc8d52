"""truco_lab.arena_knobs: the arena with one bot knob turned, the rest as shipped."""

from __future__ import annotations

import random

import pytest

from truco import bots
from truco.bots import LEVEL_SETTINGS, opponents
from truco.game import new_game

from truco_lab import arena_knobs as ak


@pytest.fixture
def restore_bots():
    """The tool builds settings and patches nothing: the shipped levels stay as they were."""
    shipped = dict(LEVEL_SETTINGS)
    yield
    assert LEVEL_SETTINGS == shipped


def _answer_a_truco(monkeypatch, settings=LEVEL_SETTINGS["dificil"]) -> set[float]:
    """Difícil answers a truco asked by the other team (so it reads the bet, samples deals
    and weighs the score); returns every prior its random-play posterior was taken with."""
    seen: set[float] = set()
    share = opponents.TeamStats.random_share

    def spy(stats, prior=opponents.RANDOM_PRIOR, *args):
        seen.add(prior)
        return share(stats, prior, *args)

    monkeypatch.setattr(opponents.TeamStats, "random_share", spy)
    game = new_game(seed=3, players=2)
    game.apply("raise")  # §5: the seat to move asks truco before its first card
    seat = game.to_move
    assert game.observation(seat)["pending"]
    action = bots.make(settings, random.Random(1)).choose(game.observation(seat))
    assert action in game.legal_actions()
    return seen


def test_the_prior_reaches_only_the_channels_named(restore_bots, monkeypatch):
    shipped = opponents.RANDOM_PRIOR
    assert _answer_a_truco(monkeypatch) == {shipped}
    settings = ak.set_random_prior(0.9, ["rollouts"])
    assert _answer_a_truco(monkeypatch, settings) == {shipped, 0.9}
    assert opponents.RANDOM_PRIOR == shipped  # restored after each use


def test_every_channel_takes_the_prior(restore_bots, monkeypatch):
    settings = ak.set_random_prior(0.9, sorted(ak.CHANNELS))
    assert _answer_a_truco(monkeypatch, settings) == {0.9}


def test_the_first_hand_prior_gives_way_from_the_second_hand(restore_bots):
    settings = ak.set_first_hand_prior(0.6)
    assert settings.random_share(opponents.TeamStats(hands=1), "floor") == pytest.approx(0.6)
    assert settings.random_share(opponents.TeamStats(hands=2), "floor") == pytest.approx(opponents.RANDOM_PRIOR)


def test_late_cards_played_face_up_clear_a_team_and_covers_accuse_it(restore_bots):
    careful = opponents.TeamStats(cards=12, late_cards=8, covers=0)
    coverer = opponents.TeamStats(cards=12, late_cards=8, covers=4)
    # shipped: face-up late cards say nothing, so the careful team stays at the prior
    assert careful.random_share() == pytest.approx(opponents.RANDOM_PRIOR)
    settings = ak.set_late_card_evidence(0.12)
    assert settings.random_share(careful, "edge") < 0.01  # 8 late cards face up: careful
    assert settings.random_share(coverer, "edge") > 0.9  # half of them covered (§4): random play
    assert settings.random_share(opponents.TeamStats(), "edge") == pytest.approx(opponents.RANDOM_PRIOR)


def test_medio_fields_are_replaced_and_bad_ones_named(restore_bots):
    style = ak.set_medio(["raise_at=0.6", "worlds=6", "score_aware=0"])
    assert (style.raise_at, style.worlds, style.score_aware) == (0.6, 6, False)
    assert bots.make(style, random.Random(1)).settings is style
    assert ak.set_medio(["score_aware=True"]).score_aware  # as Python prints it
    with pytest.raises(ValueError, match="'yes'"):
        ak.set_medio(["score_aware=yes"])
    with pytest.raises(ValueError, match="'raise_at'"):
        ak.set_medio(["raise_at"])
    with pytest.raises(ValueError, match="'speed=2'"):
        ak.set_medio(["speed=2"])


def test_a_run_goes_to_the_arena(restore_bots, capsys):
    code = ak.main(["--random-prior", "0.6", "--", "--players", "2", "--a", "dificil",
                    "--b", "random", "--games", "2", "--seed", "1", "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "random prior 0.6 in edge, floor, rollouts" in out
    assert "A=dificil vs B=random: 2 games" in out

"""The measuring sticks that bet on their cards (issue 27, truco.bots.sticks): ``honest``
asks and answers by its hand's win chance alone, with the thresholds its docstring gives
per ladder step, and never bluffs; ``caller`` bets like it but never runs (RULES.md §5, §6).
Their fairness (honest against médio) is measured in bench/bots/arena_results.md."""

from __future__ import annotations

import copy
import random

import pytest

import truco
from truco import bots
from truco.bots import sticks
from truco.bots.knowledge import manilhas_of, strength_table
from truco.bots.player import dead_bet
from truco.game import new_game

BETS = ("raise", "accept", "run")


class Recording:
    """Wraps a stick so every decision records the win chance it was made on."""

    def __init__(self, level: str, rng: random.Random):
        self.bot = bots.make(level, rng)
        self.chances: list[float] = []
        inner = self.bot.win_chance

        def win_chance(known, outcomes, weights):
            p = inner(known, outcomes, weights)
            self.chances.append(p)
            return p

        self.bot.win_chance = win_chance

    def choose(self, obs):
        self.chances.clear()
        return self.bot.choose(obs)


def _decisions(level: str, other: str, players: int, games: int):
    """(obs, action, win chance) of every bet decision ``level`` made against ``other``."""
    out = []
    for i in range(games):
        seed = f"sticks:{i}"
        g = new_game("mineiro", players=players, seed=seed)
        while g.winner is None:
            seat = g.to_move
            obs = g.observation(seat)
            if seat % 2 == i % 2:
                bot = Recording(level, random.Random(f"{seed}:{len(g.log)}"))
                action = bot.choose(obs)
                chance = bot.chances[-1] if bot.chances else None
                if any(a in BETS for a in obs["legal_actions"]):
                    out.append((obs, action, chance))
            else:
                action = bots.for_move(other, seed, seat, len(g.log)).choose(obs)
            g.apply(action, seat)
    return out


def _step(obs, value):
    return [s["value"] for s in obs["rules"]["ladder"]].index(value)


def _answering(obs):
    return bool(obs.get("pending"))


def _runs_lose_the_game(obs):
    me = obs["team"]
    return obs["score"][1 - me] + obs["hand_value"] >= obs["rules"]["target"]


@pytest.fixture(scope="module")
def honest_decisions():
    # random raises and raises back often, so honest answers every step of the ladder
    return _decisions("honest", "random", 4, 14) + _decisions("honest", "random", 2, 14)


def test_honest_bets_by_its_thresholds_alone(honest_decisions):
    """Every raise, accept and run follows the docstring's table from the win chance the
    decision was made on; nothing else (no bluff, no read of the other team)."""
    steps = set()
    for obs, action, p in honest_decisions:
        if obs.get("decision") or obs.get("blind") or p is None:
            continue
        if dead_bet(obs, "accept" if _answering(obs) else "raise") or dead_bet(obs, "run"):
            continue  # the exact no-dead-bet rule of every level overrides
        legal = obs["legal_actions"]
        nxt = obs.get("next_raise")
        ask = sticks.ASK_AT[_step(obs, nxt["value"])] if nxt else None
        if _answering(obs):
            acc = sticks.ACCEPT_AT[_step(obs, obs["pending"]["value"])]
            steps.add(_step(obs, obs["pending"]["value"]))
            if "raise" in legal and nxt and p >= ask:
                assert action == "raise", (p, obs["pending"])
            elif p >= acc or _runs_lose_the_game(obs):
                assert action == "accept", (p, obs["pending"])
            else:
                assert action == "run", (p, obs["pending"])
        elif "raise" in legal:
            assert (action == "raise") == (p >= ask), (p, action)
    assert steps >= {0, 1, 2, 3}, steps  # truco, seis, dez and doze were all answered


def test_honest_never_raises_with_a_weak_hand(honest_decisions):
    """Before any card is face up, a hand with nothing above an ace (no manilha, no 3, no
    2) never asks, never raises back, and never accepts dez or doze (it does not bluff)."""
    weak_seen = 0
    for obs, action, _ in honest_decisions:
        if obs.get("decision") or obs.get("blind") or any(r["plays"] for r in obs["rounds"]):
            continue
        if obs.get("signals") and any(obs["signals"].values()):
            continue  # a partner's signal may promise strength
        table = strength_table(manilhas_of(obs))
        if max(table[c] for c in obs["hand"]) > table["Ac"]:
            continue
        weak_seen += 1
        assert action != "raise", obs["hand"]
        if _answering(obs) and obs["pending"]["value"] >= 10:
            assert action == "run", obs["hand"]
    assert weak_seen >= 10


def test_honest_ignores_what_the_other_team_did_before():
    """The same position with the earlier hands' history wiped: the same choice."""
    checked = 0
    for obs, action, _ in _decisions("honest", "always-accept", 4, 4):
        if not obs.get("history"):
            continue
        bare = copy.deepcopy(obs)
        bare["history"] = []
        again = Recording("honest", random.Random(0))
        first = Recording("honest", random.Random(0))
        assert first.choose(obs) == again.choose(bare)
        checked += 1
    assert checked >= 5


def _trash_facing(value_steps: int):
    """Seat 1 holds 4, 5, 6 (Mineiro) and must answer the ladder's step ``value_steps``
    (an even step: seat 0, who is mão, asks it)."""
    g = truco.new_game(seed=3, hands=[["4c", "7h", "As"], ["5c", "4h", "6s"]], dealer=1)
    for _ in range(value_steps + 1):
        g.apply("raise")
    return g


@pytest.mark.parametrize("steps", [0, 2])
def test_honest_runs_and_caller_pays_to_see_with_trash(steps):
    g = _trash_facing(steps)  # truco, or dez after truco and seis
    assert g.to_move == 1 and g.observation(1)["pending"]["value"] == (4, 6, 10, 12)[steps]
    obs = g.observation(1)
    for seed in range(6):
        assert bots.make("honest", random.Random(seed)).choose(obs) == "run"
        assert bots.make("caller", random.Random(seed)).choose(obs) == "accept"


def test_honest_raises_a_sure_hand_and_answers_doze_with_it():
    """§3, §5: first round won and the Zap in hand: ask, and take every step."""
    g = truco.new_game(seed=2, hands=[["Kc", "5h", "6s"], ["3d", "4c", "5d"]], dealer=1)
    g.apply("play Kc")
    g.apply("play 3d")  # seat 1 wins round 1, leads round 2 with the Zap in hand
    for level in ("honest", "caller"):
        assert bots.make(level, random.Random(1)).choose(g.observation(1)) == "raise"
    g.apply("raise")
    g.apply("raise")  # seat 0 raises back to seis
    assert g.to_move == 1
    assert bots.make("honest", random.Random(1)).choose(g.observation(1)) == "raise"


def test_caller_never_runs():
    runs = accepts = 0
    for obs, action, _ in _decisions("caller", "random", 4, 24):
        if "run" not in obs["legal_actions"]:
            continue
        if action == "run":
            assert dead_bet(obs, "accept"), "caller runs only from a hand already lost"
            runs += 1
        else:
            accepts += 1
    assert accepts > 40, accepts


def test_sticks_are_registered_with_the_baselines():
    assert {"honest", "caller"} <= set(truco.names.BASELINES)
    assert not {"honest", "caller"} & set(truco.names.LEVELS)
    for level in ("honest", "caller"):
        assert bots.for_move(level, 1, 0, 0).level == level

"""A save from any point of a game resumes identically (issue 6, engine level).

The page saves the worker's opaque `save` after every applied action and, after a reload,
hands it back to `load`. These tests play seeded table sessions through `truco.api` (bots
included, via `bot_step`) and, from the save of *every* step, resume in a fresh session
and play on with the same human policy: the continuation must be the very same game,
step by step, to the same final state. `Game.to_json` is checked the same way at every
step, for every seat's observation.
"""

from __future__ import annotations

import json
import random

import pytest

import truco
from helpers.engine import call


def human_action(obs):
    """A deterministic human: its choice depends only on the position (like the bots'),
    so a resumed game gets the same human moves too. Raises, runs and covers included."""
    legal = obs["legal_actions"]
    rng = random.Random(f"human:{obs['log'][-1]['n']}:{len(legal)}")
    plays = [a for a in legal if a.startswith(("play", "cover"))]
    answers = [a for a in legal if a in ("accept", "run", "raise")]
    if obs["pending"] or obs["decision"]:
        # Mostly accept, so that games go on long enough to reach raises and mãos de dez.
        return rng.choices(answers, weights=[6 if a == "accept" else 2 for a in answers])[0]
    if "raise" in legal and rng.random() < 0.15:
        return "raise"
    return rng.choice(plays or legal)


def step(reply):
    """One applied action: the human's or a bot's. Returns (who, reply)."""
    obs = reply["observation"]
    if obs["to_move"] == obs["seat"]:
        return "human", call("apply", action=human_action(obs))
    return "bot", call("bot_step")


def play_out(reply, limit=2000):
    """Every reply from `reply` (included) to the end of the match."""
    replies = [reply]
    for _ in range(limit):
        if replies[-1]["observation"]["winner"] is not None:
            return replies
        replies.append(step(replies[-1])[1])
    raise AssertionError("the match did not end")


SESSIONS = [
    dict(seed=3, players=2, level="medio"),
    dict(seed=41, players=4, level="dificil", partner_level="facil"),
    dict(seed=77, players=4, level="medio", series=3, timer=20, ferro="claras"),
    dict(seed=5, players=2, level="facil", preset="paulista", series=3),
    # Starts at 10 x 4: a mão de dez decision comes at once.
    dict(seed=19, players=4, level="medio", score=[10, 4], dealer=3),
    # 10 x 10: a mão de ferro, in the dark.
    dict(seed=23, players=2, level="dificil", score=[10, 10], dealer=1),
]


def moment(reply):
    """What kind of moment a reply is, for picking where to resume from."""
    o = reply["observation"]
    last = o["log"][-1]["type"]
    if o["pending"]:
        return "pending raise"
    if o["decision"]:
        return "mão de dez decision"
    if last == "cover":
        return "after a covered card"
    if o["hand_kind"] == "ferro":
        return "mão de ferro"
    if last == "deal" and o["game_number"] > 1 and o["hand_number"] == 1:
        return "first hand of the next game of a series"
    return last


@pytest.mark.parametrize("params", SESSIONS, ids=lambda p: f"seed{p['seed']}-{p['players']}p-{p['level']}")
def test_a_save_from_any_step_resumes_to_the_same_game(params):
    baseline = play_out(call("new_game", **params))
    saves = [r["save"] for r in baseline]
    # Played out to the end from the first moment of each kind and from a few more steps.
    full = {len(baseline) - 1, *range(0, len(baseline), max(1, len(baseline) // 6))}
    firsts = {}
    for k, reply in enumerate(baseline):
        firsts.setdefault(moment(reply), k)
    full.update(firsts.values())
    for k, reply in enumerate(baseline):
        # Some other game in between, as after a reload: the engine keeps nothing else.
        call("new_game", seed=k, players=2)
        resumed = call("load", save=reply["save"])
        assert resumed == reply, f"step {k}: load gives back the same observation and save"
        if k in full:
            continuation = [r["save"] for r in play_out(resumed)]
            assert continuation == saves[k:], f"step {k} ({moment(reply)}): the resumed game went another way"
        elif k + 1 < len(baseline):
            # Every other step: the next action from the resumed game is the same one.
            assert step(resumed)[1]["save"] == saves[k + 1], f"step {k}: the resumed game went another way"
    assert baseline[-1]["observation"]["winner"] in (0, 1)


def test_the_sessions_pass_through_every_kind_of_moment():
    """Between them, the sessions above resume from every moment the table must survive."""
    seen = set()
    for params in SESSIONS:
        for reply in play_out(call("new_game", **params)):
            o = reply["observation"]
            seen.update(e["type"] for e in o["log"])
            seen.update(k for k in ("pending", "decision") if o[k])
            if o["hand_kind"] == "ferro":
                seen.add("ferro")
    for kind in ("raise", "accept", "run", "cover", "pending", "decision", "ferro", "game", "match"):
        assert kind in seen, f"no session reaches a {kind!r}: the resume test would miss it"


@pytest.mark.parametrize("seed,players", [(8, 2), (12, 4), (31, 6)])
def test_game_to_json_at_every_step_round_trips_exactly(seed, players):
    g = truco.new_game(players=players, seed=seed, series=3 if players != 6 else 1)
    rng = random.Random(seed)
    for _ in range(400):
        text = g.to_json()
        back = truco.Game.from_json(text)
        assert back.to_json() == text
        assert back.to_move == g.to_move and back.legal_actions() == g.legal_actions()
        for seat in range(players):
            assert back.observation(seat) == g.observation(seat)
        if g.to_move is None:
            break
        action = rng.choice(g.legal_actions())
        g.apply(action)
        back.apply(action)
        assert back.to_json() == g.to_json(), "the restored game takes the same action the same way"
    assert g.winner is not None


def test_a_tampered_save_is_refused_and_the_session_is_kept():
    reply = call("new_game", seed=9, players=2)
    data = json.loads(reply["save"])
    data["game"]["start"]["score"] = [30, 0]  # beyond the target: an impossible game
    with pytest.raises(ValueError, match="start: score"):
        call("load", save=json.dumps(data))
    data = json.loads(reply["save"])
    data["levels"] = {"1": "godlike"}
    with pytest.raises(ValueError, match="level"):
        call("load", save=json.dumps(data))
    with pytest.raises(ValueError):
        call("load", save=reply["save"][: len(reply["save"]) // 2])
    assert call("observation") == reply, "a refused load leaves the current session alone"

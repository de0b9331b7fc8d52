"""Random-play invariant checks of the engine, dependency-free.

Used by pytest on CPython (tests/engine/test_engine_properties.py) and, unchanged, inside
Pyodide under Node (tests/pyodide/run_engine_checks.mjs), so a difference of Python
3.14-in-WebAssembly shows up without a browser.
"""

from __future__ import annotations

import json
import random
import re

import truco
from truco.cards import DECK

_DECK = set(DECK)


def allowed_deltas(rules) -> set[int]:
    """Every amount a single hand may add to a team's score (RULES.md §5, §6)."""
    values = {rules.start_value, rules.mao_de_x_value, rules.mao_de_x_run_gives}
    values |= {s.value for s in rules.ladder}
    # running gives the value before the request: every value but the top
    return values


_CARD_TOKEN = re.compile(r'"([4567QJKA23][chsd])"')


def _cards_named(obj) -> set[str]:
    """Every card code that appears as a string anywhere in a JSON-safe object."""
    return set(_CARD_TOKEN.findall(json.dumps(obj)))


def check_state(game) -> None:
    """The 40 cards are distinct: no card is held or played twice in the hand."""
    h = game.hand
    cards = [c for hand in h["hands"] for c in hand]
    cards += [p[1] for r in h["rounds"] for p in r["plays"]]
    assert len(cards) == 3 * game.players
    cards += h["stock"] + [c for x in h["exchanged"] for c in x["cards"]]
    cards += [h["vira"]] if h["vira"] else []
    assert len(cards) == len(set(cards)), f"a card appears twice: {sorted(cards)}"
    assert set(cards) == set(game.rules.deck(game.options["baralho_limpo"])), "the deck is not whole"


def check_observation(game, seat: int) -> dict:
    """observation(seat) holds no other seat's unplayed card and no covered card of others."""
    obs = game.observation(seat)
    h = game.hand
    hidden = set()
    allowed_partner = {v["seat"] for v in obs["visible_hands"]}
    for s, cards in enumerate(h["hands"]):
        if s == seat:
            if h["blind"]:
                hidden |= set(cards)
            continue
        if s in allowed_partner:
            assert h["kind"] == "dez" and s % 2 == seat % 2 == h["dez_team"], "partner cards outside a mão de dez"
            continue
        hidden |= set(cards)
    hidden |= set(h["stock"])  # the undealt cards: nobody sees them
    if h["vira"] and not h["vira_visible"]:
        hidden.add(h["vira"])
        assert obs["vira"] is None and obs["manilhas"] == []
    for r in h["rounds"]:
        for s, c, covered in r["plays"]:
            if covered and s != seat:
                hidden.add(c)
    # The current hand's part of the observation (earlier hands' logs may name a card
    # that was played face up then and dealt again now).
    current = dict(obs)
    del current["rules"]  # the preset's manilhas: public, the same for every seat
    del current["manilhas"]  # this hand's manilhas: public once the vira is face up
    log = obs["log"]
    last_deal = max(i for i, e in enumerate(log) if e["type"] == "deal")
    current["log"] = log[last_deal:]
    current["history"] = None  # earlier hands: checked below against what was played then
    leaked = hidden & _cards_named(current)  # also proves it JSON-safe
    assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}: {obs}"
    # The history of earlier hands names only cards that were played face up in them.
    deals = [i for i, e in enumerate(game.log) if e["type"] == "deal"]
    earlier = game.log[:deals[-1]] if deals else []
    face_up_then = {(e["seat"], e["card"]) for e in earlier if e["type"] == "play"}
    others = []
    for e in obs.get("history", []):
        if e["type"] == "play":
            assert (e["seat"], e["card"]) in face_up_then, f"history names a card not played face up: {e}"
        else:
            others.append(e)
    if _cards_named(others):  # one dump for all: the slow path only names the culprit
        bad = next(e for e in others if _cards_named(e))
        raise AssertionError(f"history names a card outside a face-up play: {bad}")
    for e in log:
        if e["type"] == "cover" and e["seat"] != seat:
            assert e["card"] is None, f"a covered card is revealed to seat {seat}: {e}"
    if h["blind"]:
        assert obs["hand"] == []
    if game.to_move == seat:
        assert obs["legal_actions"] == game.legal_actions()
    else:
        assert obs["legal_actions"] == []
    return obs


def play_random_game(preset: str, players: int, seed: int, *, timeout_rate: float = 0.0,
                     roundtrip: bool = True, check_obs: bool = True, **options):
    """Play one match with uniformly random legal actions, checking invariants at each step.

    Returns the finished game.
    """
    rng = random.Random(seed)
    game = truco.new_game(preset, players=players, seed=seed, **options)
    rules = game.rules
    deltas = allowed_deltas(rules)
    steps = 0
    while game.to_move is not None:
        steps += 1
        assert steps < 5000, "a match that does not end"
        check_state(game)
        if check_obs:
            for seat in range(players):
                check_observation(game, seat)
        if roundtrip:
            text = game.to_json()
            copy = truco.Game.from_json(text)
            assert copy.to_json() == text, "to_json is not stable through from_json"
            assert copy.legal_actions() == game.legal_actions()
            for seat in range(players):
                assert copy.observation(seat) == game.observation(seat)
        before = game.score
        games_before = list(game.games)
        legal = game.legal_actions()
        assert legal, "a seat to move must have an action"
        if game.options["sinais"] and rng.random() < 0.2:
            senders = [s for s in range(players) if game.may_signal(s)]
            if senders:
                game.apply("signal " + rng.choice(truco.game.SIGNALS), seat=rng.choice(senders))
                continue
        action = "timeout" if rng.random() < timeout_rate else rng.choice(legal)
        game.apply(action)
        after = game.score
        if game.games != games_before:
            # the game ended: the winner reached the target (§7); a new game starts at 0 x 0
            ended = [e for e in game.log if e["type"] == "game"][-1]
            assert max(ended["score"]) >= rules.target
            assert after == (0, 0) or game.winner is not None
        else:
            changed = [after[t] - before[t] for t in (0, 1) if after[t] != before[t]]
            assert len(changed) <= 1, f"both teams scored in one step: {before} -> {after}"
            for d in changed:
                assert d in deltas, f"score moved by {d}, which the ladder does not allow"
    assert game.winner in (0, 1)
    assert game.legal_actions() == []
    if game.abandoned_by is None:
        last_game = [e for e in game.log if e["type"] == "game"][-1]
        assert max(last_game["score"]) >= rules.target
        assert last_game["winner"] == game.winner
        assert game.games[game.winner] > game.options["series"] // 2
    else:
        assert game.winner == 1 - game.abandoned_by % 2
    return game


def run_all(games_per_config: int = 50, roundtrip_every: int = 5) -> int:
    """Random play over every preset, 2 and 4 players, a few option sets. Returns games played."""
    count = 0
    for preset in sorted(truco.PRESETS):
        for players in (2, 4, 6):
            for i in range(games_per_config // (2 if players == 6 else 1)):
                options = {"series": (1, 3, 5)[i % 3], "ferro": ("escuro", "claras")[i % 2],
                           "baralho_limpo": i % 4 == 1, "familia_real": i % 3 == 1}
                if players > 2:
                    options.update(sinais=i % 2 == 0, humano_decide=0 if i % 3 == 0 else None)
                play_random_game(preset, players, seed=1000 * players + i,
                                 timeout_rate=0.03 if i % 4 == 0 else 0.0,
                                 roundtrip=i % roundtrip_every == 0, **options)
                count += 1
    return count

"""Fuzz the loading of saves with structure-aware mutations of real ones (issue 28).

Real saves are taken mid-match from seeded tables played through ``truco.api`` (every
mode, preset and level; signals bluffed, timeouts, raises), plus the committed version-1
saves (tests/fixtures/saves_v1). Each is mutated where it has structure: a field or a
list item deleted, duplicated or moved, a value retyped (null, a bool, a float, a string,
a list, an object) or pushed out of range, a card or an action swapped for another. Then,
through the public API with a table in play:

- either ``load`` fails with a ``ValueError`` and the table in play is exactly as it was,
- or the match plays to its end with the Dica, the partner's opinion and the replay asked
  at each step (the bots without the page's fallback: any error is a failure).

Any other outcome is a finding, printed with the seed that reproduces it.

    .venv/bin/python -m truco_lab.fuzz_saves --minutes 10       # the long run
    .venv/bin/python -m truco_lab.fuzz_saves --seed 123 --count 1  # one case again

tests/engine/test_save_mutations.py runs the same check on a small budget (hypothesis).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
import traceback
from collections import Counter

from truco import api
from truco_lab import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "saves_v1"
CARDS = [r + s for r in "4567QJKA23" for s in "chsd"]
ACTIONS = ["raise", "accept", "run", "timeout", "exchange", "play #1", "play #4", "signal zap",
           "signal nada", "cover 4c", "play 4c", "play zz", ""]
ODD_VALUES = [None, True, False, 0, -1, 1, 2, 99, 2**63, 1.5, "", "zz", "4c", "mineiro", [], {}, [None], {"x": 1}]


def call(method, **params):
    return json.loads(api.handle(json.dumps({"method": method, "params": params})))


TABLES = [
    dict(players=2, level="dificil"),
    dict(players=2, level="facil", preset="paulista", series=3),
    dict(players=2, level="medio", score=[10, 10], timer=10),
    dict(players=4, level="medio", sinais=True, humano_decide=True),
    dict(players=4, level="dificil", partner_level="facil", preset="torneio", score=[10, 4]),
    dict(players=4, level="facil", preset="truco473", familia_real=True, baralho_limpo=True),
    dict(players=6, level="medio", sinais=True, preset="paulista"),
    dict(players=6, level="dificil", series=3, ferro="claras"),
]


def real_save(rng: random.Random) -> str:
    """A save taken at a random point of a seeded match (mid-match, mostly)."""
    table = dict(rng.choice(TABLES), seed=rng.randrange(10**6))
    reply = call("new_game", **table)
    stop = rng.randrange(1, 80)
    for _ in range(stop):
        obs = reply["observation"]
        if obs["winner"] is not None:
            break
        if obs["may_signal"] and rng.random() < 0.5:
            reply = call("apply", action="signal " + rng.choice(["zap", "copas", "espadilha", "pica-fumo", "tres", "nada"]))
        elif obs["to_move"] == obs["seat"]:
            action = "timeout" if obs["options"]["timer"] and rng.random() < 0.05 else rng.choice(obs["legal_actions"])
            reply = call("apply", action=action)
        else:
            reply = call("bot_step")
    return reply["save"]


def fixture_save(rng: random.Random) -> str:
    files = sorted(p for p in FIXTURES.glob("*.json") if not p.name.startswith("game_"))
    return rng.choice(files).read_text().strip()


def _paths(node, path=()):
    """Every place in the JSON tree: (path, value)."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


def mutate(data, rng: random.Random) -> tuple[object, str]:
    """One structure-aware mutation of a parsed save (changed in place): what was done."""
    places = [(p, v) for p, v in _paths(data) if p]
    # the moves and the log are where most of a save is: weigh them, but reach every field
    path, value = rng.choice(places)
    parent = _get(data, path[:-1])
    key = path[-1]
    where = "/".join(map(str, path))
    op = rng.choice(["delete", "duplicate", "retype", "range", "swap", "card", "action", "move"])
    if op == "delete":
        if isinstance(parent, list):
            parent.pop(key)
        else:
            del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        else:
            parent[key] = [value, copy.deepcopy(value)]
    elif op == "retype":
        parent[key] = copy.deepcopy(rng.choice([v for v in ODD_VALUES if type(v) is not type(value)]))
    elif op == "range":
        if isinstance(value, bool) or not isinstance(value, int):
            parent[key] = rng.choice([-1, 99, 10**9])
        else:
            parent[key] = value + rng.choice([-100, -3, -1, 1, 2, 5, 12, 10**6])
    elif op == "swap":
        if isinstance(parent, list) and len(parent) > 1:
            j = rng.randrange(len(parent))
            parent[key], parent[j] = parent[j], parent[key]
        else:
            parent[key] = None
    elif op == "card":
        if isinstance(value, str) and len(value) <= 12:
            words = value.split(" ")
            words[-1] = rng.choice(CARDS + ["zz", "#9"])
            parent[key] = " ".join(words)
        else:
            parent[key] = rng.choice(CARDS)
    elif op == "action":
        parent[key] = rng.choice(ACTIONS)
    else:  # a move or an event moved elsewhere in its list
        if isinstance(parent, list) and len(parent) > 1:
            item = parent.pop(key)
            parent.insert(rng.randrange(len(parent) + 1), item)
        else:
            parent[key] = copy.deepcopy(value) if not isinstance(value, (int, str)) else value
    return data, f"{op} {where}"


def play_to_end(rng: random.Random, limit: int = 4000, replay_every: int = 1) -> int:
    """Play the loaded table to its end with hint, opinion and replay at each step."""
    reply = call("observation")
    steps = 0
    while reply["observation"]["winner"] is None:
        obs = reply["observation"]
        if steps % replay_every == 0:
            call("replay")
        if obs["to_move"] == obs["seat"]:
            hint = call("hint")
            assert hint["action"] in obs["legal_actions"] or hint["action"].startswith("signal "), hint
            opinion = call("partner_opinion")
            assert opinion["action"] is None or opinion["action"] in obs["legal_actions"], opinion
            reply = call("apply", action=rng.choice(obs["legal_actions"]))
        else:
            reply = call("bot_step")
            assert "fallback" not in reply
        steps += 1
        assert steps < limit, "the match did not end"
    call("replay")
    call("history")
    return steps


def check_case(seed: int, replay_every: int = 1) -> str:
    """One fuzz case. Returns 'refused' or 'played'; raises AssertionError or the
    unexpected exception on a finding."""
    rng = random.Random(seed)
    base = fixture_save(rng) if rng.random() < 0.25 else real_save(rng)
    data = json.loads(base)
    what = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data, done = mutate(data, rng)
        what.append(done)
    text = json.dumps(data)
    playing = call("new_game", seed=seed, players=rng.choice([2, 4]))
    try:
        call("load", save=text)
    except ValueError:
        after = call("observation")
        assert after == playing, f"a refused load changed the table in play ({what})"
        return "refused"
    play_to_end(rng, replay_every=replay_every)
    return "played"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=None, help="first case's seed (default: from the clock)")
    ap.add_argument("--count", type=int, default=None, help="stop after this many cases")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    end = time.monotonic() + 60 * args.minutes
    outcomes: Counter = Counter()
    findings = []
    n = 0
    while time.monotonic() < end and (args.count is None or n < args.count):
        try:
            outcomes[check_case(seed + n)] += 1
        except Exception as exc:  # noqa: BLE001 - every other outcome is a finding to report
            outcomes["finding"] += 1
            findings.append((seed + n, f"{type(exc).__name__}: {exc}"))
            if len(findings) <= 5:
                traceback.print_exc()
        n += 1
    print(f"{n} cases from seed {seed} in {args.minutes} min: " +
          ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    for s, msg in findings[:20]:
        print(f"  seed {s}: {msg[:200]}")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()

"""Grade a bot's decisions against ``random`` by the exact best play, 1 x 1 Mineiro.

In 1 x 1 the solver of ``bound_random.py`` is exactly the best play against ``random``
(nothing is relaxed), so at any moment of a normal hand it gives the value, in chance of
winning the game, of each action open to the bot (:func:`bound_random.action_values`).
This plays mirrored games of LEVEL against ``random`` and, at each of LEVEL's choices in
a normal hand, records the regret: the value of the best action minus the value of the
one chosen. Summed over a game, the regrets are about the game-win chance the bot gives
away against best play (mão de dez decisions and the hands of §6 are not graded).

    python -m truco_lab.regret_random --games 150 --seed 1     # ~30 s after the game values

The table groups the regret by decision (a turn or an answer to random's raise), the
rounds already played, what was chosen and what was best (a card, a cover, a raise;
run, accept, raise back): it says which decisions the bot's win rate is lost in.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import random
import time

from truco_lab import bound_passive as bp
from truco_lab import bound_random as br
from truco_lab.bound_passive import COVERED, LEVEL_COUNTS, STRENGTH
from truco import bots
from truco.game import new_game
from truco.judge import TIE


def position(obs: dict) -> dict:
    """The arguments of :func:`bound_random.action_values` for a 1 x 1 observation of a
    normal hand, from our seat's view only: our cards and every card shown face up leave
    the pool; random's covered cards stay in it (§4: nobody sees them)."""
    me, team = obs["seat"], obs["team"]
    pool = list(LEVEL_COUNTS)
    hand = tuple(STRENGTH[c] for c in obs["hand"])
    for lv in hand:
        pool[lv] -= 1
    results, table = [], []
    current = None
    for rnd in obs["rounds"]:
        for p in rnd["plays"]:
            if p["card"] is not None:  # ours (face up or covered) or theirs face up
                pool[STRENGTH[p["card"]]] -= 1
        if rnd["result"] is None:
            current = rnd
        else:
            r = rnd["result"]
            results.append(TIE if r == TIE else br.US if r % 2 == team else br.THEM)
    for p in (current["plays"] if current else []):
        shown = COVERED if p["covered"] else STRENGTH[p["card"]]
        table.append((shown, p["seat"] == me))
    lead = current["leader"] if current else obs["mao"]
    asker = obs["last_asker_team"]
    return {"hand": hand, "pool": tuple(pool), "results": tuple(results),
            "we_lead_round": lead == me, "table": tuple(table), "level": obs["raise_level"],
            "last": None if asker is None else br.US if asker == team else br.THEM,
            "pending": bool(obs.get("pending"))}


def action_key(action: str, obs: dict):
    """The key of :func:`bound_random.action_values` for an engine action."""
    if obs.get("pending") or action == "raise":
        return action
    verb, card = action.split()
    return verb, STRENGTH[card]


def grade(obs: dict, action: str, V: dict) -> dict:
    """Values of the actions open at ``obs``, the chosen one's regret and the best one."""
    me, team = obs["seat"], obs["team"]
    u = bp.utilities(V, obs["score"][team], obs["score"][1 - team], obs["mao"] == me,
                     br.VALUES)
    values = br.action_values(utility=u, **position(obs))
    key = action_key(action, obs)
    best = max(values, key=values.get)
    return {"values": values, "chosen": key, "best": best,
            "regret": values[best] - values[key]}


def kind_of(key) -> str:
    return key if isinstance(key, str) else key[0]


_V: dict = {}


def _pair(args: tuple) -> list[tuple]:
    level, seed, index = args
    rows = []
    for mirror in (0, 1):
        levels = [level if s % 2 == mirror else "random" for s in range(2)]
        game = new_game("mineiro", players=2, seed=f"{seed}:{index}")
        while game.to_move is not None:
            seat = game.to_move
            obs = game.observation(seat)
            action = bots.for_move(levels[seat], game.seed, seat, len(game.log)).choose(obs)
            if (seat == mirror and obs["hand_kind"] == "normal"
                    and len(obs["legal_actions"]) > 1):
                g = grade(obs, action, _V)
                rows.append((index, "answer" if obs.get("pending") else "turn",
                             len([r for r in obs["rounds"] if r["result"] is not None]),
                             kind_of(g["chosen"]), kind_of(g["best"]), g["regret"]))
            game.apply(action, seat=seat)
    return rows


def _init(V: dict) -> None:
    _V.update(V)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", default="dificil")
    ap.add_argument("--games", type=int, default=150, help="mirrored pairs")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--deals", type=int, default=600, help="deals for the game values")
    ap.add_argument("--engine", default="cpp", choices=("cpp", "python"))
    args = ap.parse_args(argv)
    t0 = time.time()
    deals = bp.stratified_deals(args.deals, random.Random(3), 1)
    V, _se = br.game_values(deals, br.Solver(args.engine, 2), "best", log=lambda m: None)
    start = 0.5 * (V[(0, 0, True)] + V[(0, 0, False)])
    print(f"best play wins {start:.4f} from 0 x 0 ({args.deals} deals, {time.time() - t0:.0f} s)")
    t0 = time.time()
    with mp.Pool(2, initializer=_init, initargs=(V,)) as pool:
        jobs = [(args.level, args.seed, i) for i in range(args.games)]
        rows = [r for part in pool.map(_pair, jobs) for r in part]
    games = 2 * args.games
    per_pair = collections.Counter()
    for r in rows:
        per_pair[r[0]] += r[5]
    mean = sum(per_pair.values()) / args.games
    var = sum((per_pair[i] - mean) ** 2 for i in range(args.games)) / max(1, args.games - 1)
    print(f"{args.level} vs random, 1 x 1, {games} games, seed {args.seed}: {len(rows)} "
          f"decisions graded in {time.time() - t0:.0f} s; regret {mean / 2:.4f} "
          f"± {1.96 * (var / args.games) ** 0.5 / 2:.4f} a game (95%)")
    table = collections.defaultdict(list)
    for _i, kind, rounds, chosen, best, regret in rows:
        table[(kind, rounds, chosen, best)].append(regret)
    print("decision, rounds played, chosen, best: count, regret a game")
    for key in sorted(table, key=lambda k: -sum(table[k])):
        if sum(table[key]) > 0:
            print(f"  {key[0]:6} {key[1]}  {key[2]:>6} -> {key[3]:6} {len(table[key]):5} "
                  f"{sum(table[key]) / games:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

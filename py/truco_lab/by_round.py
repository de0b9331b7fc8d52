"""Where a level's bets win and lose, by round (issue 27): A against B, mirrored games as in
the arena (``truco_lab.arena.play_game``, a fresh ``for_move`` bot per move).

    .venv/bin/python -m truco_lab.by_round --a dificil --b honest --games 600 --seed 1

Prints, from A's side (markdown tables):

- A's raises (truco, seis, dez, doze) that B accepted: how many, and the share of those
  hands A won (a tied hand counts half), by the round the raise was asked in; also how B
  answered A's raises (accepted, ran, raised back);
- B's raises that A accepted, and the share of those hands A won, by round and step;
- against B's "dez" / "doze" asks: A's answers (run, accept, raise back) and the points A
  netted from those hands, against what running from every one would have cost (the
  hand's value before the ask);
- the games won (with the 95% interval over the pairs, as the arena) and A's net points.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import sys
from collections import defaultdict

from truco_lab.arena import play_game

HIGH = ("dez", "doze")


def hands_of(log: list[dict]):
    """Yield each hand's events (deal .. hand) of a match log."""
    cur: list[dict] | None = None
    for e in log:
        if e["type"] == "deal":
            cur = [e]
        elif cur is not None:
            cur.append(e)
            if e["type"] == "hand":
                yield cur
                cur = None


def analyse(log: list[dict], a_team: int, out: dict) -> None:
    """Add one match's bets to ``out`` (counters keyed by tuples), from team ``a_team``."""
    for hand in hands_of(log):
        end = hand[-1]
        if hand[0].get("kind") != "normal":
            continue
        winner = end.get("winner")
        rounds = 0
        value = 0  # the accepted value, which a run gives the askers (RULES.md §5); set by the
        # first accept (the hand's opening value is not in the log: only dez / doze use it)
        pending = None  # (team, name, value_before, round, index in the hand)
        for e in hand[1:]:
            t = e["type"]
            if t == "round":
                rounds += 1
            elif t == "raise":
                team = e["seat"] % 2
                if pending is not None:  # a raise back answers the pending request
                    _answer(out, pending, "raise back", winner, a_team, end, e)
                    value = pending[4]  # a raise back accepts the request it answers (§5)
                pending = (team, e["name"], value, rounds + 1, e["value"])
            elif t in ("accept", "run") and not e.get("mao_de_dez"):
                if pending is not None:
                    _answer(out, pending, t, winner, a_team, end, e)
                    if t == "accept":
                        value = pending[4]
                pending = None


def _share(winner, team) -> float:
    return 0.5 if winner is None else 1.0 if winner == team else 0.0


def _answer(out, pending, answer, winner, a_team, end, e) -> None:
    team, name, before, rnd, _ = pending
    side = "A" if team == a_team else "B"
    out[("answers", side, name, answer)] += 1
    if answer == "accept":
        out[("acc n", side, name, rnd)] += 1
        out[("acc won", side, name, rnd)] += _share(winner, team)
    if side == "B" and name in HIGH:
        # points A netted from this hand against running (which gives B ``before``)
        pts = end.get("points", 0)
        net = 0 if winner is None else pts if winner == a_team else -pts
        out[("high", name, answer, "n")] += 1
        out[("high", name, answer, "net")] += net
        out[("high", name, answer, "run")] -= before


def play(args):
    preset, players, a, b, seed, index = args
    out = defaultdict(float)
    score = 0
    for mirror in (0, 1):
        levels = [a if s % 2 == mirror else b for s in range(players)]
        winner, log = play_game(preset, players, levels, f"{seed}:{index}")
        score += winner == mirror
        analyse(log, mirror, out)
        for e in log:
            if e["type"] == "hand" and e.get("winner") is not None:
                out[("points", "A" if e["winner"] == mirror else "B")] += e["points"]
    out[("wins",)] = score
    return dict(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="dificil")
    ap.add_argument("--b", default="honest")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--players", type=int, default=4, choices=(2, 4))
    ap.add_argument("--preset", default="mineiro")
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args(argv)
    pairs = max(1, (args.games + 1) // 2)
    tasks = [(args.preset, args.players, args.a, args.b, args.seed, i) for i in range(pairs)]
    jobs = args.jobs or os.cpu_count() or 1
    tot: dict = defaultdict(float)
    scores = []
    with mp.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs) as pool:
        for r in pool.imap_unordered(play, tasks, chunksize=max(1, pairs // (jobs * 8))):
            scores.append(r[("wins",)] / 2)
            for k, v in r.items():
                tot[k] += v
    report(args, tot, scores)
    return 0


def _pct(won, n) -> str:
    if not n:
        return "—"
    p = won / n
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / n)
    return f"{won:g} / {n:g} = {100 * p:.0f}% ± {100 * half:.0f}"


def report(args, tot, scores) -> None:
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 1.0
    print(f"{args.preset} {args.players}p  A={args.a} vs B={args.b}, {2 * n} mirrored games, seed {args.seed}")
    print(f"games won by A: {2 * mean * n:g} / {2 * n} = {100 * mean:.1f}% ± {100 * 1.96 * sd / math.sqrt(n):.1f}%"
          f"   points A {tot[('points', 'A')]:g}  B {tot[('points', 'B')]:g}\n")
    steps = ("truco", "seis", "dez", "doze")
    for side, title in (("A", f"{args.a}'s raises accepted by {args.b}: share of those hands {args.a} won"),
                        ("B", f"{args.b}'s raises accepted by {args.a}: share of those hands {args.a} won")):
        print(f"**{title}** (a tie counts half; ± is the 95% interval)\n")
        print("| step | round 1 | round 2 | round 3 | all |")
        print("| --- | --- | --- | --- | --- |")
        for name in steps:
            cells = []
            an = aw = 0.0
            for rnd in (1, 2, 3):
                k_n, k_w = ("acc n", side, name, rnd), ("acc won", side, name, rnd)
                won = tot.get(k_w, 0.0)
                nn = tot.get(k_n, 0.0)
                if side == "B":
                    won = nn - won  # A's share
                an += nn
                aw += won
                cells.append(_pct(won, nn))
            print(f"| {name} | " + " | ".join(cells) + f" | {_pct(aw, an)} |")
        print()
    for side, who in (("A", args.b), ("B", args.a)):
        print(f"**How {who} answered {args.a if side == 'A' else args.b}'s raises**\n")
        print("| step | accept | run | raise back |")
        print("| --- | --- | --- | --- |")
        for name in steps:
            print(f"| {name} | " + " | ".join(f"{tot.get(('answers', side, name, a), 0):g}"
                                             for a in ("accept", "run", "raise back")) + " |")
        print()
    print(f"**{args.a} against {args.b}'s dez / doze asks**: net points from those hands, against running "
          f"from every one\n")
    print("| ask | answer | asks | net points | running instead |")
    print("| --- | --- | --- | --- | --- |")
    all_net = all_run = 0.0
    for name in HIGH:
        for ans in ("run", "accept", "raise back"):
            k = ("high", name, ans)
            if tot.get(k + ("n",)):
                all_net += tot[k + ("net",)]
                all_run += tot[k + ("run",)]
                print(f"| {name} | {ans} | {tot[k + ('n',)]:g} | {tot[k + ('net',)]:+g} | {tot[k + ('run',)]:+g} |")
    print(f"| all | | | {all_net:+g} | {all_run:+g} |")


if __name__ == "__main__":
    raise SystemExit(main())

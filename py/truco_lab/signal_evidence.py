"""Signals as evidence in difícil's bets (issue 44): what they are worth, the caught-Zap
check, and difícil's raise rates against each stick, written to bench/bots/arena_results.md.

    nice -n 10 .venv/bin/python -m truco_lab.signal_evidence evidence --games 4000 --seed ev1 --against honest
    nice -n 10 .venv/bin/python -m truco_lab.signal_evidence evidence --games 4000 --seed ev1 --against honest --arms before,light
    nice -n 10 .venv/bin/python -m truco_lab.signal_evidence evidence --games 4000 --seed md1 --against medio \\
        --opp-policy table --arms evidence,before,light
    nice -n 10 .venv/bin/python -m truco_lab.signal_evidence profile --games 4000 --seed 3 \\
        --opps honest,team,maniac,learner,sharp,caller,medio
    nice -n 10 .venv/bin/python -m truco_lab.signal_evidence profile --variant before --games 4000 --seed 3 \\
        --opps medio,maniac,team
    .venv/bin/python -m truco_lab.signal_evidence timing --positions 400 --pyodide
    .venv/bin/python -m truco_lab.signal_evidence reviews --seed 1 --games 2 --against team
    nice -n 10 .venv/bin/python -m truco_lab.signal_evidence ladder --games 4000 --seed lad1
    .venv/bin/python -m truco_lab.signal_evidence write      # the section, from the parts' JSON

``evidence``: 2 x 2 Mineiro with sinais, mirrored pairs (the arena's seeds and deals).
Difícil's team signals by the table's bots' policy (:func:`truco.signals.signal_to_send`);
the other team (``--against``, a stick that never bluffs) signals honestly every hand
at once (:func:`truco.signals.signal_for`), so difícil catches a signal of theirs now and
then (the engine's ``CATCH_CHANCE``), and they catch difícil's. The same games are played
twice: by the shipped difícil (a caught signal, its partner's signal and the chance that
its own team's signal was caught weigh in its raises and answers as likelihoods), and by
difícil ignoring every signal in its bets (``LevelSettings.signals_in_bets`` off: deals
drawn as if no signal had been seen; its card play still uses them). Reported: games won
and net points per game (points won less points lost) of each, and their paired difference
(per mirrored pair, 95% interval). In the shipped run, every turn or answer of difícil's
where a raise past truco was open while it had caught a Zap signal still unplayed is
recorded: whether it raised, the win chance it decided on (a raise under 0.5 is a bluff,
reported as such), and whether its hand beat the Zap's on the true deal (every hand known,
played out by the rollouts' plain policy).

``profile``: :func:`truco_lab.bet_profile.profile` against each stick (sinais on for both
sides with ``--signals``): games won, and the raise and bluff rates per round and score
band.

Results go to bench/bots/signal_evidence.json (a part at a time: one heavy process at a
time on a shared machine); ``write`` turns them into the section at the top of
arena_results.md (replacing the section it wrote before).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import subprocess
import time
from pathlib import Path

from truco import bots
from truco.bots import player as P
from truco.bots.knowledge import read
from truco.bots.simulate import VOID, rollout
from truco.game import new_game
from truco.signals import signal_for, signal_to_send
from truco_lab import RESULTS, arena, bet_profile, ci95, lab_sticks, put_section
from truco_lab.arena_variants import LEVEL_NAMES

lab_sticks.install()

JSON = RESULTS / "signal_evidence.json"
MD = RESULTS / "arena_results.md"
MARK = "<!-- signal_evidence.py -->"

EVIDENCE = "dificil"
IGNORING = dataclasses.replace(P.LEVEL_SETTINGS["dificil"], name="dificil_no_signals", signals_in_bets=False)
BEFORE = dataclasses.replace(P.LEVEL_SETTINGS["dificil"], name="dificil_before", partner_signal_lie=0.0,
                             caught_signal_lie=0.0, own_signal_caught=False, caught_zap_guard=False)
"""Difícil before issue 44's change: every signal seen believed outright in every deal, no
thought of its own being caught, no guard (the same code path as then: no draw, no mixture)."""
LIGHT = dataclasses.replace(P.LEVEL_SETTINGS["dificil"], name="dificil_light", partner_signal_lie=0.02,
                            caught_signal_lie=0.04)
"""Difícil doubting a signal less (2% of deals for a partner's, 4% for a caught one)."""
ARMS = {"evidence": EVIDENCE, "ignoring": IGNORING, "before": BEFORE, "light": LIGHT}
NAMES = {"evidence": "difícil with the evidence (shipped)", "ignoring": "difícil ignoring signals in its bets",
         "before": "difícil before this change (every signal believed outright)",
         "light": "difícil doubting signals less (2% / 4% of deals)"}


def _true_win(game, team: int) -> float:
    """Whether ``team`` wins the hand from here on the true deal (every hand known), played
    out by the rollouts' plain policy: 1, 0, or 0.5 for a void hand."""
    obs = game.observation(game.to_move)
    k = read(obs)
    hands = [[k.strength[c] for c in h] for h in game.hand["hands"]]
    out = rollout(hands, k.players, list(k.results), list(k.plays), k.leader)
    return 0.5 if out == VOID else float(out == team)


OPP_POLICY = "always"
"""How the other team signals: ``always`` (its hand, every hand, at once: :func:`signal_for`)
or ``table`` (the table's bots' policy, :func:`signal_to_send`)."""


def send_signals(game, by_table_policy) -> None:
    """Every seat that may signal now does: by the table's policy (signal_to_send) where
    ``by_table_policy(seat)``, else honestly (signal_for)."""
    for s in range(4):
        if game.may_signal(s):
            obs = game.observation(s)
            name = signal_to_send(obs) if by_table_policy(s) else signal_for(obs)
            if name:
                game.apply("signal " + name, seat=s)


def play_pair(args: tuple) -> dict:
    level, opp, seed, index, record = args
    out = {"index": index, "won": 0, "net": 0, "spots": []}
    for mirror in (0, 1):
        game = new_game("mineiro", players=4, seed=f"{seed}:{index}", sinais=True)
        levels = [level if s % 2 == mirror else opp for s in range(4)]
        while game.to_move is not None:
            send_signals(game, lambda s: s % 2 == mirror or OPP_POLICY == "table")
            seat = game.to_move
            obs = lab_sticks.observe(game, seat, levels[seat])
            bot = bots.for_move(levels[seat], game.seed, seat, len(game.log))
            action = bot.choose(obs)
            if record and seat % 2 == mirror and "raise" in obs["legal_actions"]:
                spot = _zap_spot(game, obs, bot, action)
                if spot is not None:
                    out["spots"].append(spot)
            game.apply(action, seat=seat)
        out["won"] += game.winner == mirror
        for e in game.log:
            if e["type"] == "hand" and e["winner"] is not None:
                out["net"] += e["points"] if e["winner"] == mirror else -e["points"]
    return out


def _zap_spot(game, obs: dict, bot, action: str) -> dict | None:
    """A turn or answer of difícil's with a raise past truco open while it holds a caught,
    unplayed Zap signal of the other team; ``None`` elsewhere."""
    nxt = obs.get("next_raise")
    ladder = [step["value"] for step in obs["rules"]["ladder"]]
    if not nxt or nxt["value"] not in ladder[1:]:
        return None
    k = read(obs)
    zaps = [s for s in range(4) if P.caught_zap(k, s)]
    if not zaps:
        return None
    pending = obs.get("pending")
    answerer = pending["asker"] if pending else (obs["seat"] + 1) % 4
    p = bot._why.get("p")
    return {"raised": action == "raise", "p": p, "answer": bool(pending),
            "zap_answers": answerer in zaps, "beats": _true_win(game, obs["seat"] % 2),
            "held": bool(bot._why.get("zap_held"))}


def evidence(opp: str, games: int, seed: str, jobs: int, arms: tuple[str, ...] = ("evidence", "ignoring")) -> dict:
    pairs = max(1, games // 2)
    res = {}
    for name, level, record in ((a, ARMS[a], True) for a in arms):
        t0 = time.time()
        tasks = [(level, opp, seed, i, record) for i in range(pairs)]
        if jobs > 1:
            with mp.get_context("fork").Pool(jobs) as pool:
                rows = pool.map(play_pair, tasks, chunksize=max(1, pairs // (jobs * 8)))
        else:
            rows = list(map(play_pair, tasks))
        rows.sort(key=lambda r: r["index"])
        res[name] = {"won": [r["won"] for r in rows], "net": [r["net"] for r in rows],
                     "spots": [s for r in rows for s in r["spots"]], "seconds": time.time() - t0}
        print(f"{name}: {sum(res[name]['won'])}/{2 * pairs} won, net {sum(res[name]['net']) / (2 * pairs):+.3f}"
              f" a game, {len(res[name]['spots'])} Zap spots ({res[name]['seconds']:.0f} s)", flush=True)
    return {"opp": opp, "games": 2 * pairs, "seed": seed, **res}


SINAIS_ARMS = {
    "with": ("shipped, sinais on", "both", {}),
    "without": ("shipped, sinais off", "none", {}),
    "notable": ("without its betting table, sinais on", "both", {"betting_table": False}),
}
"""What the sinais cost difícil (:func:`sinais_cost`): name -> (label, the arena's signal
sides, the knobs turned)."""


def sinais_cost(opp: str, games: int, seed: str, jobs: int) -> dict:
    """Difícil against ``opp`` on the same deals with and without sinais (both teams by the
    table's policy), and with sinais but without its betting table (learnt without them):
    per-pair results of each arm, to compare paired."""
    out = {"opp": opp, "games": games, "seed": seed, "arms": {}}
    for name, (_, sides, knobs) in SINAIS_ARMS.items():
        s = dataclasses.replace(P.LEVEL_SETTINGS["dificil"], name="dificil_arm", **knobs)
        r = arena.run("mineiro", 4, "dificil_arm", opp, games, seed, jobs=jobs, settings={"dificil_arm": s},
                      signals=sides)
        out["arms"][name] = [r.by_pair[k] for k in sorted(r.by_pair)]
        print(f"{name}: {r.wins_a}/{r.games} = {100 * r.win_rate:.1f}% ± {100 * r.ci95:.1f}", flush=True)
    return out


LADDER = (("facil", "random"), ("medio", "facil"), ("dificil", "medio"))
"""random < fácil < médio < difícil: each level against the one below it."""


def ladder(games: int, seed: str, jobs: int) -> dict:
    """The levels in order with sinais (2 x 2, both teams signalling by the table's
    policy): games won by each level against the one below, over mirrored games."""
    out = {"games": games, "seed": seed, "pairs": {}}
    for a, b in LADDER:
        r = arena.run("mineiro", 4, a, b, games, seed, jobs=jobs, signals="both")
        out["pairs"][f"{a}>{b}"] = [r.wins_a, r.games, r.ci95]
        print(f"{a} against {b}: {r.wins_a}/{r.games} = {100 * r.win_rate:.1f}% ± {100 * r.ci95:.1f}", flush=True)
    return out


def _save(part: str, data: dict) -> None:
    stored = json.loads(JSON.read_text()) if JSON.exists() else {}
    stored[part] = data

    def short(x):  # the file is kept in git: a chance to 3 places, no spaces
        if isinstance(x, float):
            return round(x, 3)
        if isinstance(x, dict):
            return {k: short(v) for k, v in x.items()}
        if isinstance(x, list):
            return [short(v) for v in x]
        return x

    JSON.write_text(json.dumps(short(stored), sort_keys=True, separators=(",", ":")) + "\n")


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=RESULTS, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def _spot_table(spots: list[dict]) -> list[str]:
    n = len(spots)
    raised = [s for s in spots if s["raised"]]
    value = [s for s in raised if s["p"] is not None and s["p"] >= 0.5]
    bluffs = [s for s in raised if s["p"] is None or s["p"] < 0.5]
    beat = sum(1 for s in value if s["beats"] >= 1.0)
    into = sum(1 for s in bluffs if s["zap_answers"])
    held = sum(1 for s in spots if s["held"])
    return [f"{n}", f"{len(raised)} ({100 * len(raised) / max(1, n):.1f}%)",
            f"{len(value)} (true deal won {beat} of them)",
            f"**{len(bluffs)}** = {100 * len(bluffs) / max(1, n):.1f}% of spots ({into} answered by the Zap itself)",
            f"{held}"]


def write_section() -> str:
    data = json.loads(JSON.read_text())
    lines = [MARK, "## Signals as evidence in difícil's bets, a reason for each bet, raise rates (issue 44, "
             f"{time.strftime('%Y-%m-%d')}; `truco_lab.signal_evidence`, at {_commit()})", ""]
    lines += [
        "What changed in difícil (`py/truco/bots/player.py`, `LevelSettings`): a signal seen is a",
        "likelihood, never proof: 5% of its sampled deals ignore the partner's signal and 10% a",
        "caught one (`partner_signal_lie`, `caught_signal_lie`; before, a claimed manilha was",
        "placed in that hand in every deal); the chance that the other team caught a signal of",
        "its own team (`CATCH_CHANCE` per seat) enters, as a mixture, how it reads their raises",
        "and accepts and how it expects them to answer (`own_signal_caught`); it never asks or",
        "raises back past truco under 0.5 into a Zap it saw the answering seat signal",
        "(`caught_zap_guard`). Without sinais nothing of this runs (no signal, no draw): its",
        "games without sinais are move for move those of before (tests/golden: only the sinais",
        "match changed). Each raise, accept, run and mão de dez now carries its reason",
        "(`HeuristicBot.last_reason`), shown in the hand review. Since the next section's change, a",
        "2 x 2 game with sinais reads the betting table learnt with them (`truco_lab.sinais_table`),",
        "and no table where difícil caught a live signal of the other team: every figure below with",
        "sinais is of that difícil (the comparisons with difícil's earlier signal knobs, measured with",
        "the plain table, are in git history at 205958b).",
        "",
    ]
    ev = data.get("evidence")
    if ev:
        g = ev["games"]
        rows = []
        names = NAMES
        for name in [a for a in ARMS if a in ev]:
            r = ev[name]
            won = sum(r["won"])
            wr = [w / 2 for w in r["won"]]
            net = [x / 2 for x in r["net"]]
            rows.append(f"| {names[name]} "
                        f"| {won} / {g} = {100 * won / g:.1f}% ± {100 * ci95(wr):.1f} "
                        f"| {sum(r['net']) / g:+.3f} ± {ci95(net):.3f} |")
        def paired(other: str) -> str:
            dn = [(a - b) / 2 for a, b in zip(ev["evidence"]["net"], ev[other]["net"])]
            dw = [(a - b) / 2 for a, b in zip(ev["evidence"]["won"], ev[other]["won"])]
            return (f"| **shipped less {other}, paired** "
                    f"| {100 * sum(dw) / len(dw):+.2f} points of win rate ± {100 * ci95(dw):.2f} "
                    f"| **{sum(dn) / len(dn):+.3f} ± {ci95(dn):.3f}** |")
        lines += [
            f"**Signals as evidence, paired** (`evidence --against {ev['opp']} --games {g} --seed {ev['seed']}`):",
            f"2 x 2 Mineiro with sinais, {g} mirrored games per run on the same seeds; difícil's team",
            "signals by the table's policy, the other team (`" + ev["opp"] + "`, never bluffs) signals",
            "its hand honestly every hand.",
            "",
            "| difícil | games won (95%) | net points a game (95%) |",
            "| --- | --- | --- |",
            *rows,
            *[paired(o) for o in ("ignoring", "before", "light") if o in ev],
            "",
            "**Past truco against a caught Zap** (every turn or answer of difícil's with a raise past",
            "truco open while it had caught a Zap signal of the other team still unplayed; *beats*: its",
            "team wins the hand from there on the true deal, every card known):",
            "",
            "| difícil | spots | raised | raised with a chance ≥ 0.5 | bluffs (chance < 0.5), reported | raises the guard held back |",
            "| --- | --- | --- | --- | --- | --- |",
            *[f"| {names[a]} | " + " | ".join(_spot_table(ev[a]["spots"])) + " |" for a in ARMS if a in ev],
            "",
            "(The chance is the one each decided on: ignoring the signals, it did not know the Zap was",
            "there; its raises are classed by that chance.)",
            "",
        ]
    for key in sorted(k for k in data if k.startswith("evidence_") and k.endswith("_table")):
        x = data[key]
        if "evidence" not in x:
            continue
        g = x["games"]
        lines += [f"**Against `{x['opp']}`, both teams signalling by the table's policy, paired** (`evidence --against "
                  f"{x['opp']} --opp-policy table --arms {','.join(a for a in ARMS if a in x)} --games {g} --seed {x['seed']}`):",
                  "", "| difícil | games won (95%) | net points a game (95%) |", "| --- | --- | --- |"]
        for a in [a for a in ARMS if a in x]:
            won = sum(x[a]["won"])
            lines.append(f"| {NAMES[a]} | {won} / {g} = {100 * won / g:.1f}% ± {100 * ci95([w / 2 for w in x[a]['won']]):.1f} "
                         f"| {sum(x[a]['net']) / g:+.3f} ± {ci95([n / 2 for n in x[a]['net']]):.3f} |")
        for other in [a for a in ("before", "ignoring", "light") if a in x]:
            dn = [(p - q) / 2 for p, q in zip(x["evidence"]["net"], x[other]["net"])]
            dw = [(p - q) / 2 for p, q in zip(x["evidence"]["won"], x[other]["won"])]
            lines.append(f"| **shipped less {other}, paired** | {100 * sum(dw) / len(dw):+.2f} points ± {100 * ci95(dw):.2f} "
                         f"| **{sum(dn) / len(dn):+.3f} ± {ci95(dn):.3f}** |")
        lines.append("")
    prof = data.get("profile")
    if prof:
        lines += [
            f"**Against each stick, and how it bets** (`profile --games {prof['games']} --seed {prof['seed']}"
            f"{' --signals both' if prof.get('signals') == 'both' else ''}`: `bet_profile` on the arena's",
            "mirrored pairs; *bluff*: a raise on its turn under 0.5; *asks*: share of its turns with a raise",
            "open where it asked; score band = the higher score):",
            "",
            "| against | kind | games won by difícil (95%) | normal hands raised | trucos a game | raises that are bluffs | answers to truco: run / accept / raise |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        kinds = {"learner": "held out", "maniac": "held out", "medio": "level"}
        for stick, r in prof["sticks"].items():
            cells = {tuple(k.split("|")): v for k, v in r["cells"].items()}
            t_all = cells.get(("all", ""), [0, 0, 0])
            ans = r["answers"].get("truco", {})
            tot = max(1, sum(ans.values()))
            lines.append(
                f"| `{stick}` | {kinds.get(stick, 'tuned')} | {r['won']} / {r['games']} = **{100 * (r['won'] / r['games']):.1f}% ± {100 * r['ci']:.1f}** "
                f"| {r['raised_hands']} / {r['normal']} = {100 * r['raised_hands'] / max(1, r['normal']):.1f}% "
                f"| {r['trucos'] / r['games']:.2f} | {t_all[2]} / {t_all[1]} = {100 * t_all[2] / max(1, t_all[1]):.1f}% "
                f"| {100 * ans.get('run', 0) / tot:.0f} / {100 * ans.get('accept', 0) / tot:.0f} / {100 * ans.get('raise', 0) / tot:.0f} |")
        before = data.get("profile_before")
        if before and before.get("seed") == prof["seed"] and before.get("games") == prof["games"]:
            lines += ["", f"The same games with difícil as it was before this change (`profile --variant before`: every",
                      "signal believed outright, no thought of its own being caught, no Zap guard):", "",
                      "| against | difícil before (95%) | shipped (95%) | shipped less before |",
                      "| --- | --- | --- | --- |"]
            for stick, r in before["sticks"].items():
                if stick in prof["sticks"]:
                    q = prof["sticks"][stick]
                    lines.append(f"| `{stick}` | {100 * (r['won'] / r['games']):.1f}% ± {100 * r['ci']:.1f} | {100 * (q['won'] / q['games']):.1f}% ± "
                                 f"{100 * q['ci']:.1f} | {100 * ((q['won'] / q['games']) - (r['won'] / r['games'])):+.1f} points |")
        lines += ["", "Per round and score band (asks, bluffs):", "",
                  "| against | round 1 | round 2 | round 3 | score 0-3 | 4-7 | 8-11 |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]
        for stick, r in prof["sticks"].items():
            cells = {tuple(k.split("|")): v for k, v in r["cells"].items()}
            row = []
            for key in (("round", "1"), ("round", "2"), ("round", "3"), ("band", "0-3"), ("band", "4-7"), ("band", "8-11")):
                turns, raises, bluffs = cells.get(key, [0, 0, 0])
                row.append(f"{100 * raises / max(1, turns):.1f}%, {100 * bluffs / max(1, raises):.1f}%")
            lines.append(f"| `{stick}` | " + " | ".join(row) + " |")
        lines.append("")
    sc = data.get("sinais_cost")
    if sc:
        arms = sc["arms"]
        lines += [f"**What the sinais cost difícil against `{sc['opp']}`, on the same deals** (`sinais --against "
                  f"{sc['opp']} --games {sc['games']} --seed {sc['seed']}`; both teams signal by the table's policy):", "",
                  "| difícil | games won (95%) |", "| --- | --- |"]
        for name, (label, _, _) in SINAIS_ARMS.items():
            if name in arms:
                xs = arms[name]
                lines.append(f"| {label} | {100 * sum(xs) / len(xs):.1f}% ± {100 * ci95(xs):.1f} |")
        for a, b, what in (("without", "with", "sinais off less on"), ("with", "notable", "its table less none, sinais on")):
            if a in arms and b in arms:
                d = [x - y for x, y in zip(arms[a], arms[b])]
                lines.append(f"| **{what}, paired** | {100 * sum(d) / len(d):+.2f} points ± {100 * ci95(d):.2f} |")
        lines.append("")
    lad = data.get("ladder")
    if lad:
        def names(level: str) -> str:
            return LEVEL_NAMES.get(level, level)

        held = " < ".join(names(x) for x in (LADDER[0][1], *(a for a, _ in LADDER)))
        lines += [f"**The levels in order with sinais** (`ladder --games {lad['games']} --seed {lad['seed']}`: 2 x 2,",
                  "both teams signalling by the table's policy, each level against the one below it, mirrored",
                  "games): " + "; ".join(
                      f"{names(a)} against {names(b)} {w}/{g} = {100 * w / g:.1f}% ± {100 * c:.1f}"
                      for a, b in LADDER for w, g, c in [lad["pairs"][f"{a}>{b}"]])
                  + (f": {held} holds." if all(w / g > 0.5 + c for w, g, c in lad["pairs"].values())
                     else ": the order is not shown at 95%."), ""]
    tm = data.get("timing")
    if tm:
        lines += [f"**Decision time** (`timing --positions {tm['n']} --seed {tm['seed']}`: difícil on positions of 2 x 2",
                  "games with sinais where it holds a signal, CPython, a new bot per decision, load "
                  f"{tm['load']}): median {tm['median_ms']:.2f} ms, p99 {tm['p99_ms']:.2f} ms, max {tm['max_ms']:.2f} ms."]
        pyo = data.get("timing_pyodide")
        if pyo:
            lines += [f"The same positions inside Pyodide {pyo['version']} under Node ({pyo['how']}): median "
                      f"{pyo['median_ms']:.2f} ms, p99 {pyo['p99_ms']:.2f} ms, max {pyo['max_ms']:.2f} ms (the bar: 50 ms at p99)."]
        lines.append("")
    if data.get("reviews"):
        lines += ["**Hand reviews** (difícil's bets with the reason the hand review now shows, Portuguese;",
                  f"`reviews --seed {data['reviews']['seed']}`):", ""]
        lines += ["    " + x for x in data["reviews"]["lines"]]
        lines.append("")
    ns = data.get("nosinais")
    if ns:
        lines += [f"**Without sinais, move for move as before** (`nosinais --games {ns['games']} --seed {ns['seed']}`: "
                  "the section of 2026-12-03 below has the same games with the bots of then): "
                  + "; ".join(f"`{k}` {r['won']} / {r['games']} won, raised in {r['raised']} / {r['normal']} normal hands"
                              for k, r in ns["sticks"].items()) + ".", ""]
    lines += _what_it_says(data)
    lines.append(MARK)
    return "\n".join(lines) + "\n"


def _what_it_says(data: dict) -> list[str]:
    """The reading of the figures above, computed from them (so it stays true to them)."""
    out = ["What it says (computed from the figures above):"]
    ev = data.get("evidence")
    if ev and "ignoring" in ev:
        for other, what in (("ignoring", "difícil ignoring the signals in its bets"),
                            ("before", "difícil as it was (every signal believed outright)")):
            if other not in ev:
                continue
            dn = [(a - b) / 2 for a, b in zip(ev["evidence"]["net"], ev[other]["net"])]
            m, c = sum(dn) / len(dn), ci95(dn)
            verdict = ("more, beyond the interval" if m - c > 0 else "less, beyond the interval" if m + c < 0
                       else "no difference the interval can tell")
            out.append(f"- Against `{ev['opp']}` signalling honestly, the shipped difícil scores {m:+.3f} ± {c:.3f} "
                       f"net points a game against {what}: {verdict}.")
        spots = ev["evidence"]["spots"]
        raised = [x for x in spots if x["raised"]]
        bluffs = [x for x in raised if x["p"] is None or x["p"] < 0.5]
        into = sum(1 for x in bluffs if x["zap_answers"])
        value = [x for x in raised if x not in bluffs]
        won = sum(1 for x in value if x["beats"] >= 1.0)
        out.append(f"- Past truco against a caught, unplayed Zap, the shipped difícil raised in {len(raised)} of "
                   f"{len(spots)} spots: {len(value)} on a chance of 0.5 or more (its estimate with the Zap placed; "
                   f"the true deal beat the Zap's side in {won} of them) and {len(bluffs)} bluffs, "
                   f"{100 * len(bluffs) / max(1, len(spots)):.1f}% of the spots, each reported as a bluff in its "
                   f"reason, {into} of them answered by the Zap's own seat (the guard forbids those).")
    for key in sorted(k for k in data if k.startswith("evidence_") and k.endswith("_table")):
        x = data[key]
        for other in [a for a in ("before", "light") if a in x and "evidence" in x]:
            dn = [(a - b) / 2 for a, b in zip(x["evidence"]["net"], x[other]["net"])]
            m, c = sum(dn) / len(dn), ci95(dn)
            out.append(f"- Against `{x['opp']}` (both teams signalling by the table's policy), the shipped difícil "
                       f"scores {m:+.3f} ± {c:.3f} net points a game against {NAMES[other]}"
                       + (": no difference the interval can tell." if abs(m) <= c else "."))
    prof = data.get("profile")
    if prof:
        sticks = prof["sticks"]
        low = [f"`{k}` {100 * (r['won'] / r['games']):.1f}%" for k, r in sticks.items() if (r["won"] / r["games"]) < 0.58 and k != "medio"]
        out.append(f"- With sinais on both sides, difícil against the sticks: under 58% against {', '.join(low) or 'none'}"
                   + (f"; against médio {100 * (sticks['medio']['won'] / sticks['medio']['games']):.1f}%" if "medio" in sticks else "") + ".")
        before = data.get("profile_before")
        if before and before.get("seed") == prof["seed"]:
            diffs = [f"`{k}` {100 * ((sticks[k]['won'] / sticks[k]['games']) - (r['won'] / r['games'])):+.1f}" for k, r in before["sticks"].items()
                     if k in sticks]
            out.append("- On the same games, the change against difícil as it was: " + ", ".join(diffs)
                       + " points of win rate (unpaired; each rate's interval is about ± 1.2; the paired runs "
                       "above are the sharper test).")
    sc = data.get("sinais_cost")
    if sc and {"with", "without"} <= set(sc["arms"]):
        d = [x - y for x, y in zip(sc["arms"]["without"], sc["arms"]["with"])]
        m, c = sum(d) / len(d), ci95(d)
        line = (f"- On the same deals against `{sc['opp']}`, turning the sinais off less on: {100 * m:+.2f} ± "
                f"{100 * c:.2f} points of win rate for difícil ("
                + ("the sinais cost it points" if m - c > 0 else "the sinais gain it points" if m + c < 0
                   else "no difference the interval can tell") + ")")
        if "notable" in sc["arms"]:
            t = [x - y for x, y in zip(sc["arms"]["with"], sc["arms"]["notable"])]
            line += (f"; its betting table for games with sinais adds {100 * sum(t) / len(t):+.2f} ± "
                     f"{100 * ci95(t):.2f} with them")
        out.append(line + ".")
    out.append("- Without sinais the change does nothing (no signal is seen, no draw is made): the figures of the "
               "sections below, measured without sinais, stand as they were, move for move.")
    return out + [""]


def write() -> None:
    put_section(MD, MARK, write_section())


def render_bet(reason: dict, obs: dict) -> str:
    """A bet's reason in Portuguese, from the page's translation table (a seat by its
    number; the hint's rules for cards and signals, :mod:`truco.hint_text`)."""
    from truco.hint_text import _join, card_text

    table = json.loads((RESULTS.parent.parent / "site" / "i18n" / "pt-BR.json").read_text(encoding="utf-8"))
    text = table.get(reason["key"], reason["key"])
    for name, value in reason["params"].items():
        if name == "cards":
            value = _join([card_text(c, obs["manilhas"], obs["rules"]["manilha_names"]) for c in value])
        elif name == "signal":
            value = table.get(f"hint.signal_name.{value}", value)
        elif name == "seat":
            name, value = "name", f"seat {value}"
        text = text.replace("{" + name + "}", str(value))
    return text


def reviews(seed: str, games: int, opp: str) -> list[str]:
    """Difícil's bets in ``games`` games with sinais against ``opp``, with the reason of
    :attr:`HeuristicBot.last_reason` in Portuguese."""
    out = []
    for i in range(games):
        game = new_game("mineiro", players=4, seed=f"review:{seed}:{i}", sinais=True)
        while game.to_move is not None:
            send_signals(game, lambda s: s % 2 == 0)
            seat = game.to_move
            obs = lab_sticks.observe(game, seat, "dificil" if seat % 2 == 0 else opp)
            bot = bots.for_move("dificil" if seat % 2 == 0 else opp, game.seed, seat, len(game.log))
            action = bot.choose(obs)
            if seat % 2 == 0 and getattr(bot, "last_reason", None):
                what = (f"asks {obs['next_raise']['name']}" if action == "raise" and not obs.get("pending") else
                        f"{action} ({(obs.get('pending') or {}).get('value', 'dez')})")
                sig = ",".join(f"{x['seat']}:{x['signal']}" for x in obs["signals"]) or "-"
                out.append(f"game {i} hand {obs['hand_number']} {obs['score'][0]}x{obs['score'][1]} seat {seat}: "
                           f"hand {' '.join(obs['hand'])}, signals {sig}: {what} -- "
                           f"\"{render_bet(bot.last_reason, obs)}\"")
            game.apply(action, seat=seat)
    return out


def timing(count: int, seed: str) -> dict:
    """Difícil's decision time (CPython) on ``count`` positions of 2 x 2 games with sinais
    where its observation holds a signal (a partner's or a caught one), each decision by a
    new bot as at the table: median and p99 in ms."""
    positions = []
    i = 0
    while len(positions) < count:
        game = new_game("mineiro", players=4, seed=f"timing:{seed}:{i}", sinais=True)
        while game.to_move is not None and len(positions) < count:
            send_signals(game, lambda s: s % 2 == 0)
            seat = game.to_move
            obs = game.observation(seat)
            if len(obs["legal_actions"]) > 1 and obs["signals"]:
                positions.append(obs)
            game.apply(bots.for_move("medio", game.seed, seat, len(game.log)).choose(obs), seat=seat)
        i += 1
    import random

    bots.make("dificil", random.Random(0)).choose(positions[0])  # cached tables
    times = []
    for j, obs in enumerate(positions):
        bot = bots.make("dificil", random.Random(j))
        t0 = time.perf_counter()
        bot.choose(obs)
        times.append((time.perf_counter() - t0) * 1000.0)
    times.sort()
    load = open("/proc/loadavg").read().split()[0] if hasattr(time, "perf_counter") else "?"
    return {"n": len(times), "median_ms": times[len(times) // 2], "p99_ms": times[int(0.99 * (len(times) - 1))],
            "max_ms": times[-1], "load": load, "seed": seed}


PYODIDE_MODULE = '"""Difícil\'s decision time on 2 x 2 positions with sinais where its observation holds a\nsignal (the positions of truco_lab.signal_evidence.timing), for CPython or Pyodide."""\nimport random\nimport time\n\nfrom truco import bots\nfrom truco.game import new_game\nfrom truco.signals import signal_for, signal_to_send\n\n\ndef measure(count=400, seed="1"):\n    positions = []\n    i = 0\n    while len(positions) < count:\n        game = new_game("mineiro", players=4, seed=f"timing:{seed}:{i}", sinais=True)\n        while game.to_move is not None and len(positions) < count:\n            for s in range(4):\n                if game.may_signal(s):\n                    obs = game.observation(s)\n                    name = signal_to_send(obs) if s % 2 == 0 else signal_for(obs)\n                    if name:\n                        game.apply("signal " + name, seat=s)\n            seat = game.to_move\n            obs = game.observation(seat)\n            if len(obs["legal_actions"]) > 1 and obs["signals"]:\n                positions.append(obs)\n            game.apply(bots.for_move("medio", game.seed, seat, len(game.log)).choose(obs), seat=seat)\n        i += 1\n    bots.make("dificil", random.Random(0)).choose(positions[0])\n    times = []\n    for j, obs in enumerate(positions):\n        bot = bots.make("dificil", random.Random(j))\n        t0 = time.perf_counter()\n        bot.choose(obs)\n        times.append((time.perf_counter() - t0) * 1000.0)\n    times.sort()\n    return {"n": len(times), "median_ms": times[len(times) // 2], "p99_ms": times[int(0.99 * (len(times) - 1))],\n            "max_ms": times[-1]}\n'
"""The positions and the timing loop of :func:`timing`, as a module Pyodide imports."""

PYODIDE_RUNNER = 'const path = require(\'path\');\nconst fs = require(\'fs\');\nconst { loadPyodide } = require(process.env.PYODIDE_DIR);\n(async () => {\n  const py = await loadPyodide({ indexURL: process.env.PYODIDE_DIR });\n  const root = process.env.TRUCO_ROOT;\n  function copy(src, dst) {\n    py.FS.mkdirTree(dst);\n    for (const name of fs.readdirSync(src)) {\n      const s = path.join(src, name), d = dst + \'/\' + name;\n      if (fs.statSync(s).isDirectory()) { if (name !== \'__pycache__\') copy(s, d); }\n      else if (name.endsWith(\'.py\') || name.endsWith(\'.json\')) py.FS.writeFile(d, fs.readFileSync(s));\n    }\n  }\n  const site = py.runPython("import site; site.getsitepackages()[0]");\n  copy(path.join(root, \'py\', \'truco\'), site + \'/truco\');\n  py.FS.writeFile(site + \'/sig_timing.py\', fs.readFileSync(process.env.SIG_TIMING));\n  const out = py.runPython(`\nimport sys, json\nimport sig_timing\njson.dumps({"version": sys.version.split()[0], "result": sig_timing.measure(400)})\n`);\n  console.log(out);\n})().catch((e) => { console.error(e); process.exit(1); });\n'
"""Node: load the npm pyodide package, copy ``py/truco`` into its site-packages (as the
page's wheel), run :data:`PYODIDE_MODULE`'s ``measure(400)``."""


def timing_pyodide() -> dict | None:
    """:func:`timing`'s positions, inside Pyodide under Node (``node_modules/pyodide``)."""
    import os
    import shutil
    import tempfile

    pyo = RESULTS.parent.parent / "node_modules" / "pyodide"
    if not shutil.which("node") or not (pyo / "pyodide.js").exists():
        print("Pyodide: skipped (needs node and node_modules/pyodide)")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "run.js").write_text(PYODIDE_RUNNER)
        (Path(tmp) / "sig_timing.py").write_text(PYODIDE_MODULE)
        env = dict(os.environ, PYODIDE_DIR=str(pyo), TRUCO_ROOT=str(RESULTS.parent.parent),
                   SIG_TIMING=str(Path(tmp) / "sig_timing.py"))
        proc = subprocess.run(["node", str(Path(tmp) / "run.js")], env=env, capture_output=True, text=True,
                              timeout=900)
    if proc.returncode != 0:
        print("Pyodide: failed\n" + proc.stderr[-2000:])
        return None
    out = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    load = open("/proc/loadavg").read().split()[0]
    return {**out["result"], "version": out["version"],
            "how": f"py/truco copied into site-packages, the positions of `timing`; load {load}"}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="part", required=True)
    e = sub.add_parser("evidence")
    e.add_argument("--against", default="honest")
    e.add_argument("--games", type=int, default=4000)
    e.add_argument("--seed", default="ev1")
    e.add_argument("--jobs", type=int, default=1)
    e.add_argument("--arms", default="evidence,ignoring", help="of " + ",".join(ARMS))
    e.add_argument("--opp-policy", default="always", choices=("always", "table"),
                   help="how the other team signals (table: by the table's policy, as the bots do at the table)")
    f = sub.add_parser("profile")
    f.add_argument("--opps", default="honest,caller,team,sharp,learner,maniac,medio")
    f.add_argument("--games", type=int, default=4000)
    f.add_argument("--seed", default="3")
    f.add_argument("--signals", default="both", choices=("none", "both"))
    f.add_argument("--jobs", type=int, default=1)
    f.add_argument("--variant", default="shipped", choices=("shipped", "before"),
                   help="before: difícil as it was before this change (every signal believed outright)")
    r = sub.add_parser("reviews")
    r.add_argument("--seed", default="1")
    r.add_argument("--games", type=int, default=2)
    r.add_argument("--against", default="team")
    tm = sub.add_parser("timing")
    tm.add_argument("--positions", type=int, default=400)
    tm.add_argument("--seed", default="1")
    tm.add_argument("--pyodide", action="store_true", help="also inside Pyodide under Node (400 positions)")
    ns = sub.add_parser("nosinais", help="bet_profile without sinais, to set beside the figures of before")
    ns.add_argument("--opps", default="team,maniac")
    ns.add_argument("--games", type=int, default=600)
    ns.add_argument("--seed", default="1")
    sc = sub.add_parser("sinais", help="what the sinais cost difícil: the same deals with and without them")
    sc.add_argument("--against", default="medio")
    sc.add_argument("--games", type=int, default=4000)
    sc.add_argument("--seed", default="sv1")
    sc.add_argument("--jobs", type=int, default=2)
    ld = sub.add_parser("ladder", help="random < fácil < médio < difícil with sinais")
    ld.add_argument("--games", type=int, default=4000)
    ld.add_argument("--seed", default="lad1")
    ld.add_argument("--jobs", type=int, default=2)
    sub.add_parser("write")
    a = p.parse_args(argv)
    if a.part == "evidence":
        global OPP_POLICY
        OPP_POLICY = a.opp_policy
        arms = tuple(a.arms.split(","))
        stored = json.loads(JSON.read_text()).get(
            "evidence" if a.opp_policy == "always" else f"evidence_{a.against}_table", {}) if JSON.exists() else {}
        res = evidence(a.against, a.games, a.seed, a.jobs, arms)
        if (stored.get("opp"), stored.get("games"), stored.get("seed")) == (res["opp"], res["games"], res["seed"]):
            res = {**stored, **res}  # the arms run before on the same games
        res["opp_policy"] = a.opp_policy
        _save("evidence" if a.opp_policy == "always" else f"evidence_{a.against}_table", res)
    elif a.part == "profile":
        part = "profile" if a.variant == "shipped" else f"profile_{a.variant}"
        bet_profile.BASE = ARMS.get(a.variant) if a.variant != "shipped" else None
        stored = json.loads(JSON.read_text()).get(part, {}) if JSON.exists() else {}
        sticks = stored.get("sticks", {}) if stored.get("seed") == a.seed and stored.get("games") == a.games else {}
        for stick in a.opps.split(","):
            t = time.time()
            res = bet_profile.profile(4, stick, a.games, a.seed, a.jobs, signals=a.signals == "both")
            res["cells"] = {f"{k[0]}|{k[1]}": v for k, v in res["cells"].items()}
            sticks[stick] = res
            print(bet_profile.report(stick, dict(res, cells={tuple(k.split("|")): v for k, v in res["cells"].items()}))
                  + f"\n   ({time.time() - t:.0f} s)", flush=True)
            _save(part, {"games": a.games, "seed": a.seed, "signals": a.signals, "sticks": sticks})
    elif a.part == "ladder":
        _save("ladder", ladder(a.games, a.seed, a.jobs))
    elif a.part == "sinais":
        _save("sinais_cost", sinais_cost(a.against, a.games, a.seed, a.jobs))
    elif a.part == "nosinais":
        rows = {}
        for stick in a.opps.split(","):
            r = bet_profile.profile(4, stick, a.games, a.seed, 1)
            rows[stick] = {"won": r["won"], "games": r["games"], "raised": r["raised_hands"], "normal": r["normal"]}
            print(stick, rows[stick], flush=True)
        _save("nosinais", {"seed": a.seed, "games": a.games, "sticks": rows})
    elif a.part == "timing":
        res = timing(a.positions, a.seed)
        print(res)
        _save("timing", res)
        if a.pyodide:
            pyo = timing_pyodide()
            print(pyo)
            if pyo:
                _save("timing_pyodide", pyo)
    elif a.part == "reviews":
        lines = reviews(a.seed, a.games, a.against)
        print("\n".join(lines))
        _save("reviews", {"seed": a.seed, "lines": lines})
    write()


if __name__ == "__main__":
    main()

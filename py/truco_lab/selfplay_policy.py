"""Issue 27 prototype: difícil's betting from a small table learnt offline by self-play.

Everything but the betting is difícil's (card search, sampled deals, reading the table,
mão de dez, no dead bets). At each betting decision the bot computes difícil's own win
chance ``p`` (its sampled deals reweighted by what the other seats' bets told it) and
looks up the abstract state

    kind (ask on its turn | answer a raise) | players | round | tricks so far (round 2
    only: W / L / T) | the step asked (4, 6, 10, 12 in Mineiro) | p bucket

in a JSON table ``key -> {action: probability}``. A state the table lacks falls back to
difícil's own decision. Difícil ships such tables for Mineiro 1 x 1 and 2 x 2
(``truco.bots.betting_table``, the same lookup, which :class:`TableBot` reuses); a
TableBot's table takes the shipped one's place, so an empty table is difícil without its
table, and ``--table py/truco/bots/data/betting_2x2.json`` (``betting_1x1.json`` with
``--players 2``) is today's difícil.

Training (Monte Carlo policy improvement with paired rollouts, ``--branch``): at a share
of the learner's betting decisions the game is copied and the rest of the hand is played
once per option on the same true deal by the current policy; each option is scored by the
deciding team's chance of winning the game after the hand (difícil's game-value table,
edge 0.56), so the luck of the deal cancels out of their differences. A state's option
whose mean paired gain over the current policy exceeds ``--z`` standard errors (on
``--min-n`` samples) becomes the greedy action, and the table moves 1/(k+1) of the way to
it at iteration k (fictitious-play averaging; ``default`` keeps the rest). ``--branch 0``
scores explored decisions by their own hand's outcome instead (too noisy to learn from).
``--opp`` is ``self`` (self-play) or a list of opponents taken in turn.

    .venv/bin/python -m truco_lab.selfplay_policy train --players 4 \
        --games 2000 --iters 1 --branch 0.7 --min-n 30 --z 2.5 --opp honest,medio,self \
        --out /tmp/table.json
    .venv/bin/python -m truco_lab.selfplay_policy measure \
        --table bench/bots/selfplay_table_2x2.json --players 4 --opps honest,medio --seed 1 \
        --games 1000 --base /tmp/base_{opp}_{players}_{seed}_{games}.json

``measure`` prints the arena row of the variant and, given a base run's per-pair results
(``arena.run(...).by_pair`` as JSON: ``measure`` with the shipped table and ``--save``
writes today's difícil's), the paired difference in points of win rate with its 95% interval.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing as mp
import os
import random
import time
from collections import defaultdict

from truco import bots
from truco_lab import arena, lab_sticks
from truco.bots import player as P
from truco.bots.betting_table import pick, state_keys
from truco.bots.utility import game_value
from truco.game import new_game
from truco_lab.signal_evidence import send_signals

EDGE = 0.56
VARIANT = "dificil_table"


class TableBot(P.HeuristicBot):
    """Difícil whose raises and answers come from :attr:`table` where it has the state: the
    shipped lookup (:mod:`truco.bots.betting_table`, the same keys and draw), with this
    table in place of the shipped one at every table size, and exploration for training."""

    table: dict = {}
    explore: float = 0.0
    records: list | None = None
    """Training: per decision (key, action, explored, cur, options, team, us, them, rules,
    finer key, features), the features those ``fine_table.py`` groups by."""
    force: str | None = None  # training: the option every recorded decision takes (a branch)

    _forced: str | None = None

    def _betting_table(self, known) -> dict:
        return self.table

    def _should_raise(self, known, worlds, weights, outcomes) -> bool:
        # a branch's forced option is taken as forced: the gates of _should_raise (the bluff
        # wait, the hold gate) must not undo it, or a branch records what it did not play
        self._forced = None
        out = super()._should_raise(known, worlds, weights, outcomes)
        return out if self._forced is None else self._forced == "raise"

    def _table_action(self, kind: str, known, p: float, step: int, default: str, options: list[str]) -> str:
        """The table's action (``default``: difícil's own) for the state; in training, an
        explored alternative now and then, recorded with the current policy's action."""
        keys = state_keys(kind, known, p, step)
        fine, key = keys  # training learns the coarse states (fine_table.py the finer ones)
        cur = pick(self.table, keys, default, options, self.rng)
        action, explored = cur, False
        if self.force is not None:
            self._forced = self.force if self.force in options else cur
            return self._forced
        if self.explore and self.rng.random() < self.explore:
            others = [a for a in options if a != cur]
            if others:
                action, explored = self.rng.choice(others), True
        if self.records is not None:
            features = {"pos": len(known.plays), "us": known.score_us, "them": known.score_them,
                        "p": round(p, 3), "runs": self.memory.teams[1 - known.team].runs, "default": default}
            self.records.append((key, action, explored, cur, options, known.team, known.score_us,
                                 known.score_them, known.obs["rules"], fine, features))
        return action


class MemberBot(TableBot):
    """A population member (issue 44): difícil with a table of its own (an exploiter's, an
    earlier policy's), beside the learner's :class:`TableBot` in the same game. Its table
    is :attr:`tables` [its settings' name]; it records nothing and is never forced."""

    tables: dict[str, dict] = {}

    def _betting_table(self, known) -> dict:
        return MemberBot.tables[self.settings.name]

    def _table_action(self, kind: str, known, p: float, step: int, default: str, options: list[str]) -> str:
        return pick(self._betting_table(known), state_keys(kind, known, p, step), default, options, self.rng)


MEMBER = "table:"


def opponent(spec: str):
    """An opponent by name: ``self`` (None: the learner itself), a level or stick, or
    ``table:<path>``, difícil playing the table at ``path`` (:class:`MemberBot`)."""
    if spec == "self":
        return None
    if spec.startswith(MEMBER):
        MemberBot.tables[spec] = json.load(open(spec[len(MEMBER):]))
        return dataclasses.replace(P.LEVEL_SETTINGS["dificil"], name=spec)
    return spec


def variant_settings() -> P.LevelSettings:
    return dataclasses.replace(P.LEVEL_SETTINGS["dificil"], name=VARIANT)


_make = bots.make


def _patched_make(level, rng=None):
    if isinstance(level, P.LevelSettings) and level.name == VARIANT:
        return TableBot(level, rng if rng is not None else random.Random())
    if isinstance(level, P.LevelSettings) and level.name.startswith(MEMBER):
        return MemberBot(level, rng if rng is not None else random.Random())
    return _make(level, rng)


def install() -> None:
    """Make :func:`truco.bots.make` (so ``for_move``, and the arena's forked workers) build
    a :class:`TableBot` for :func:`variant_settings`; every other level as shipped."""
    bots.make = _patched_make


# ------------------------------------------------------------------ training
def _hand_return(e, team, us, them, rules) -> float:
    """The deciding team's chance of winning the game after hand event ``e``."""
    gv = game_value(rules, EDGE)
    if e["winner"] == team:
        return gv.win_prob(us + e["points"], them)
    if e["winner"] is None:
        return gv.win_prob(us, them)
    return gv.win_prob(us, them + e["points"])


def _signal(game) -> None:
    """With sinais on, every seat that may signal now does, by the table's bots' policy
    (:func:`truco.signals.signal_to_send`), as in the arena's ``--signals both``."""
    if game.options["sinais"]:
        send_signals(game, lambda seat: True)


def _finish_hand(game, levels, first: str | None):
    """Play ``game`` (a copy) to the end of the hand in play with the current policy, the
    mover taking option ``first`` at its next betting decision; the hand's log event."""
    start = len(game.log)
    TableBot.force = first
    try:
        while game.to_move is not None:
            _signal(game)
            seat = game.to_move
            bot = bots.for_move(levels[seat], game.seed, seat, len(game.log))
            game.apply(bot.choose(lab_sticks.observe(game, seat, levels[seat])), seat=seat)
            TableBot.force = None
            for e in game.log[start:]:
                if e["type"] == "hand":
                    return e
    finally:
        TableBot.force = None
    return None


def _train_game(args):
    """One training game. With ``branch`` > 0 (the default), a recorded decision is also
    replayed with every option on a copy of the game, the rest of the hand played by the
    current policy on the same (true) deal: each sample is then every option's return on
    the same cards, and the luck of the deal cancels out of their differences. With
    ``branch`` 0, explored decisions are compared by their own returns (noisy). A branched
    sample is (key, current action, {option: return}, finer key, features)."""
    players, seed, table, explore, opp, branch, sinais = args
    TableBot.table = table
    TableBot.explore = 0.0 if branch else explore
    settings = variant_settings()
    game = new_game("mineiro", players=players, seed=seed, sinais=sinais)
    # the learner plays every seat (self-play), or team 0 against ``opp``'s team
    levels = [settings if (opp is None or s % 2 == 0) else opp for s in range(players)]
    coin = random.Random(f"branch:{seed}")
    hand_recs: list = []
    out: list = []
    seen = 0
    while game.to_move is not None:
        _signal(game)
        seat = game.to_move
        obs = lab_sticks.observe(game, seat, levels[seat])
        TableBot.records = []
        bot = bots.for_move(levels[seat], game.seed, seat, len(game.log))
        action = bot.choose(obs)
        recs = TableBot.records
        TableBot.records = None
        if branch and recs and levels[seat] is settings and coin.random() < branch:
            key, _, _, cur, options, team, us, them, rules, fine, features = recs[0]
            returns = {}
            for opt in options:
                e = _finish_hand(game.copy(), levels, opt)
                if e is not None:
                    returns[opt] = _hand_return(e, team, us, them, rules)
            if len(returns) == len(options):
                out.append((key, cur, returns, fine, features))
        elif not branch:
            hand_recs.extend(recs)
        game.apply(action, seat=seat)
        for e in game.log[seen:]:
            if e["type"] == "hand":
                for key, action_, explored, cur, options, team, us, them, rules, *_ in hand_recs:
                    out.append((key, action_, explored, cur, _hand_return(e, team, us, them, rules)))
                hand_recs = []
        seen = len(game.log)
    return out


def _greedy_paired(samples, min_n, z):
    """Per state, the pure option whose mean return beats the current policy's on the
    same deals by ``z`` standard errors (paired), on ``min_n`` samples at least."""
    by = defaultdict(list)
    for key, cur, returns, *_ in samples:
        by[key].append((cur, returns))
    greedy, report = {}, {}
    for key, rows in by.items():
        report[key] = [len(rows), {}]
        opts = set.intersection(*(set(r) for _, r in rows))
        for a in opts:
            d = [r[a] - r[c] for c, r in rows]
            n, m, v = _mv(d)
            se = math.sqrt(v / n)
            report[key][1][a] = [round(m, 4), round(m / se, 1) if se > 1e-5 else 0.0,
                                 sum(1 for c, _ in rows if c == a)]
            if n >= min_n and m > z * se and m > greedy.get(key, (None, 0.0))[1]:
                greedy[key] = (a, m)
    return {k: a for k, (a, _) in greedy.items()}, report


def _mv(rs):
    n = len(rs)
    m = sum(rs) / n
    return n, m, max(sum((r - m) ** 2 for r in rs) / max(1, n - 1), 1e-6)


def _greedy(samples, min_n, z):
    """Per state, the pure action that beats the current policy beyond noise.

    The current policy's value is the mean return of its unexplored decisions. Always
    playing ``a`` is valued as the on-policy return where the policy already played ``a``
    plus the explored return of ``a`` where it did not, weighed by how often each
    happened; it must beat the current value by ``z`` standard errors, on ``min_n``
    explored samples at least."""
    on = defaultdict(list)        # key -> [(cur, r)]
    ex = defaultdict(lambda: defaultdict(list))  # key -> action -> [r]
    for key, action, explored, cur, r in samples:
        if explored:
            ex[key][action].append(r)
        else:
            on[key].append((cur, r))
    greedy, report = {}, {}
    for key, rows in on.items():
        n0, m0, v0 = _mv([r for _, r in rows])
        report[key] = [n0, round(m0, 4), {}]
        for a, rs in ex[key].items():
            if len(rs) < min_n:
                continue
            same = [r for c, r in rows if c == a]
            f = len(same) / n0
            ne, me, ve = _mv(rs)
            m = me * (1 - f) + (sum(same) / len(same) * f if same else 0.0)
            var = (1 - f) ** 2 * ve / ne + (f * f * _mv(same)[2] / len(same) if len(same) > 1 else 0.0)
            se = math.sqrt(var + v0 / n0)
            gain = m - m0
            report[key][2][a] = [ne, round(f, 2), round(gain, 4), round(gain / se, 1)]
            if gain > z * se and gain > greedy.get(key, (None, 0.0))[1]:
                greedy[key] = (a, gain)
    return {k: a for k, (a, _) in greedy.items()}, report


def _best_response(table: dict, samples, greedy: dict, min_n: int, z: float) -> None:
    """An exploiter's step (issue 44): ``table`` (the learner's, shadowing the policy it
    starts from) takes each improved state's greedy action outright, not 1/(k+1) of it.
    A coarse state's new action must not stay hidden behind the finer entries the table
    already has under it, so those go, and the finer states that beat the (new) current
    action on their own samples are written after, first."""
    for key, g in greedy.items():
        for fine in [k for k in table if k.startswith(key + "|")]:
            del table[fine]
        table[key] = {g: 1.0}
    fine_greedy, _ = _greedy_paired([(fine, cur, returns) for _, cur, returns, fine, _ in samples], min_n, z)
    for key, g in fine_greedy.items():
        table[key] = {g: 1.0}


def train(a):
    install()
    table: dict = json.load(open(a.start)) if a.start else {}
    opps = [opponent(o) for o in a.opp.split(",")]
    for it in range(a.iters):
        t = time.time()
        tasks = [(a.players, f"train{a.seed}:{it}:{i}", table, a.explore, opps[i % len(opps)], a.branch,
                  a.sinais) for i in range(a.games)]
        with mp.get_context("fork").Pool(a.jobs) as pool:
            samples = [x for res in pool.imap_unordered(_train_game, tasks, chunksize=4) for x in res]
        greedy, report = (_greedy_paired if a.branch else _greedy)(samples, a.min_n, a.z)
        if a.best_response:
            _best_response(table, samples, greedy, a.min_n, a.z)
            print(f"iter {it}: {len(samples)} decisions, {len(greedy)} coarse states improved, "
                  f"{len(table)} in table ({time.time() - t:.0f}s)", flush=True)
            json.dump(dict(sorted(table.items())), open(a.out, "w"), indent=0)
            continue
        k = it + 1  # fictitious play: the table moves 1/(k+1) of the way to the greedy action
        for key, g in greedy.items():
            old = table.get(key) or {"default": 1.0}
            mixed = {x: q * k / (k + 1) for x, q in old.items()}
            mixed[g] = mixed.get(g, 0.0) + 1.0 / (k + 1)
            table[key] = {x: round(q, 3) for x, q in mixed.items() if q >= 0.01}
        print(f"iter {it}: {len(samples)} decisions, {len(report)} states, {len(greedy)} improved, "
              f"{len(table)} in table ({time.time() - t:.0f}s)", flush=True)
        for key, g in sorted(greedy.items()):
            print(f"   {key}: -> {g}  {report[key]}", flush=True)
        if a.dump:
            json.dump(report, open(a.dump, "w"), indent=0, sort_keys=True)
        json.dump(dict(sorted(table.items())), open(a.out, "w"), indent=0)
    return table


# ------------------------------------------------------------------ measuring
def measure(a):
    install()
    TableBot.table = json.load(open(a.table)) if a.table else {}
    TableBot.explore = 0.0
    s = variant_settings()
    results = {}
    for b in a.opps.split(","):
        t = time.time()
        member = opponent(b)
        extra = {b: member} if b.startswith(MEMBER) else {}
        # the variant plays under a name of its own: against "dificil" (the shipped bot, as an
        # exploiter is measured) both sides would otherwise be the variant
        r = arena.run("mineiro", a.players, VARIANT, b, a.games, a.seed, jobs=a.jobs,
                      settings={VARIANT: s, **extra}, signals="both" if a.sinais else "none")
        line = f"{b:8s} {a.players}p seed {a.seed}: {r.wins_a}/{r.games} = {100 * r.win_rate:.1f}% ± {100 * r.ci95:.1f}"
        base = a.base.format(opp=b, players=a.players, seed=a.seed, games=a.games) if a.base else None
        if base and os.path.exists(base):
            bp = {int(k): v for k, v in json.load(open(base)).items()}
            d = [r.by_pair[k] - bp[k] for k in r.by_pair]
            m = sum(d) / len(d)
            sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))
            line += f"   paired vs base {100 * m:+.2f} ± {100 * 1.96 * sd / math.sqrt(len(d)):.2f} pts" \
                    f" ({sum(1 for x in d if x)} pairs differ)"
        if a.save:
            json.dump(r.by_pair, open(a.save.format(opp=b, players=a.players, seed=a.seed, games=a.games), "w"))
        print(line + f"  ({time.time() - t:.0f}s)", flush=True)
        results[b] = r
    return results


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--games", type=int, default=600)
    t.add_argument("--iters", type=int, default=2)
    t.add_argument("--explore", type=float, default=0.3, help="without --branch")
    t.add_argument("--branch", type=float, default=0.5,
                   help="share of the learner's betting decisions replayed with every option (0: explore instead)")
    t.add_argument("--min-n", type=int, default=25)
    t.add_argument("--z", type=float, default=1.5)
    t.add_argument("--seed", default="1")
    t.add_argument("--jobs", type=int, default=2)
    t.add_argument("--opp", default="self", help="self, a level/stick, or table:<path> (difícil with that table) "
                   "for the other team; a comma list: game i takes the (i mod n)th")
    t.add_argument("--start", default=None, help="a table to start from")
    t.add_argument("--dump", default=None, help="write per-state returns here")
    t.add_argument("--best-response", action="store_true",
                   help="an exploiter: improved states (coarse, then finer) take their best option outright")
    t.add_argument("--sinais", action="store_true", help="2 x 2 with sinais on: every seat signals by the table's policy")
    t.add_argument("--out", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--table", default=None)
    m.add_argument("--players", type=int, default=2)
    m.add_argument("--opps", default="honest")
    m.add_argument("--seed", default="1")
    m.add_argument("--games", type=int, default=1000)
    m.add_argument("--jobs", type=int, default=2)
    m.add_argument("--base", default=None, help="per-pair JSON of the base run; {opp} {players} {seed} {games}")
    m.add_argument("--save", default=None, help="write this run's per-pair JSON; same fields")
    m.add_argument("--sinais", action="store_true", help="2 x 2 with sinais on: both teams signal by the table's policy")
    a = p.parse_args(argv)
    train(a) if a.cmd == "train" else measure(a)


if __name__ == "__main__":
    main()

"""An upper bound on any bot's win rate against ``passive`` in 2 x 2 Mineiro (issue 4).

``passive`` (``truco.bots.baselines.PassiveBot``) plays a random card face up, never
raises, and accepts a raise or a mão de dez with probability 1/2. None of that depends on
its cards, so what it plays tells nothing about what it still holds: from the other
team's side, each card a passive seat plays is a uniform draw from the cards that team
has not seen (the deal is exchangeable). A team playing against it therefore faces a
single-agent decision problem against chance, which this script solves exactly, hand by
hand (expectimax over every card either of our seats may play, face up or covered, every
moment a truco may be asked, and every card the passive seats may draw), and game by game
(dynamic programming over the scores, RULES.md §5–§7).

The team solved for is stronger than any real one: **each of its seats sees its
partner's cards**, always (in a real game only in a mão de dez, §6), and both play as one.
So its win rate is an upper bound for every bot, whatever its design. The one quantity
not computed exactly is the expectation over the deal of our six cards: it is sampled
(the same ``--deals`` deals at every score, as many of them holding 0, 1 or 2+ manilhas
as the exact shares ask), so runs on several seeds give the bound and its spread.

    python -m truco_lab.bound_passive --deals 100 --seed 1       # about 10 min on 2 cores, g++
    python -m truco_lab.bound_passive --check 1000 --deals 24    # the solver vs the engine

Everything the bound rests on is in the rules (§2 card strength, §3 rounds, ties and who
leads, §4 covered cards, §5 raises, §6 mão de dez and mão de ferro, §7 the game to 12).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from functools import lru_cache

from truco.judge import TIE, hand_outcome  # (§3, the engine's own rule)
from truco.rules import COVERED_STRENGTH as COVERED, preset
from truco_lab import RESULTS

MINEIRO = preset("mineiro")
STRENGTH = MINEIRO.strength_table()
"""The engine's card -> strength level (§2): 0 for the 4s up to 13 for the Zap."""
_per_level = Counter(STRENGTH.values())
LEVEL_COUNTS = tuple(_per_level[lv] for lv in range(max(_per_level) + 1))
"""How many of the 40 cards each level has (levels weakest first; the manilhas on top)."""
GOAL = MINEIRO.target


def partition(levels, pool_levels: dict) -> tuple:
    """The unseen cards as counts per class of levels that compare alike with ``levels``
    (our cards still in play): each class is one of our levels, or a gap between two."""
    cuts = sorted(set(levels))
    bounds = []
    lo = 0
    for c in cuts:
        if lo <= c - 1:
            bounds.append((lo, c - 1))
        bounds.append((c, c))
        lo = c + 1
    if lo <= len(LEVEL_COUNTS) - 1:
        bounds.append((lo, len(LEVEL_COUNTS) - 1))
    out = []
    for lo, hi in bounds:
        n = sum(k for (a, b), k in pool_levels.items() if lo <= a and b <= hi)
        if n:
            out.append(((lo, hi), n))
    return tuple(out)


def each_card(hand: tuple):
    """Each distinct card of ``hand`` with the hand left after playing it."""
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        yield card, tuple(rest)


def draws(pool: tuple):
    """Each class of unseen cards one card may come from: (class, how many, the pool
    left after drawing it)."""
    for i, (cls, n) in enumerate(pool):
        yield cls, n, pool[:i] + (((cls, n - 1),) if n > 1 else ()) + pool[i + 1:]


def pool_counts(pool: tuple) -> dict:
    """The pool's cards per class, classes of one range added up (a dict for
    :func:`partition`)."""
    counts: dict = {}
    for cls, n in pool:
        counts[cls] = counts.get(cls, 0) + n
    return counts


def third_round_counts(counts: dict, m: int) -> tuple[int, int, int]:
    """Round 3: how many unseen cards beat, tie and lose to our better card ``m``."""
    hi = sum(n for (lo, _), n in counts.items() if lo > m)
    eq = counts.get((m, m), 0)
    return hi, eq, sum(counts.values()) - hi - eq


def start_pool(hands: tuple, pool: tuple, cuts: tuple) -> tuple:
    """The unseen cards (``pool``: a count per level) as classes against our hands."""
    levels = {(lv, lv): n for lv, n in enumerate(pool) if n}
    return partition(hands[0] + hands[1] + cuts, levels)


def judge_round(table: tuple, leader: int, size: int) -> tuple:
    """A full round's result (0 us, 1 them, ``TIE``, §3) and the seats that may lead the
    next: ``table`` holds (lo, hi, ours) per card in play order, a class of levels for a
    card of theirs. Classes never straddle one of our levels, so they compare as
    intervals. When two of their cards in one class of several levels both beat ours,
    either may lead next: our team picks (the relaxation)."""
    best = max(table, key=lambda t: t[0])
    top = [i for i, t in enumerate(table) if t[0] == best[0]]
    mine = [i for i in top if table[i][2]]
    theirs = [i for i in top if not table[i][2]]
    if mine and theirs:
        return TIE, [leader]
    if mine:
        return 0, [(leader + mine[0]) % size]
    if len(theirs) == 1 or best[0] == best[1]:
        return 1, [(leader + theirs[0]) % size]  # equal cards: the first leads
    return 1, [(leader + i) % size for i in theirs]


def solve_hand(hands: tuple, pool: tuple, we_lead: bool, utility: dict, *,
               value: int = 2, can_raise: bool = True, covers: bool = True,
               blind: bool = False, policy: str = "best", exact: bool = False) -> float:
    """The expected utility of one hand for our team, playing it as well as possible.

    ``hands``: our seats' cards (levels; two seats in 2 x 2, one in 1 x 1), first the one
    that plays first; ``pool``: how many unseen cards of each level;
    ``utility[(team, value)]`` the value of the game
    after ``team`` (0 us, 1 them) scores ``value``, ``utility['void']`` after a void hand.
    ``blind``: mão de ferro, our cards picked at random. ``policy='random'`` makes our
    team play like passive (for checking the solver against the engine).

    A passive card matters only by how it compares with ours (it is never compared with
    the other passive seat's card, but to say which of them leads the next round): so the
    unseen cards are kept as classes of levels that compare alike with the cards we still
    hold. When both passive cards of a round beat ours and fall in one class of several
    levels, which of the two leads next is left to our team's choice: a relaxation that
    can only raise the bound. ``exact`` keeps every level apart (no relaxation; slow):
    the engine check uses it.
    """
    cuts = tuple(range(len(LEVEL_COUNTS))) if exact else ()
    size = 2 * len(hands)  # players at the table: our seats and as many passive ones
    ours = tuple(range(0 if we_lead else 1, size, 2))
    if len(hands) == 1:
        hands = (hands[0], ())
    average = blind or policy == "random"

    def end(winner, v):
        if winner == "void":
            return utility["void"]
        return utility[(winner, v)]

    @lru_cache(maxsize=None)
    def node(h0, h1, pool, results, leader, table, value, can_raise):
        if len(table) == size:
            return round_over(h0, h1, pool, results, leader, table, value, can_raise)
        pos = (leader + len(table)) % size
        if pos in ours:
            mine = h0 if pos == ours[0] else h1
            options = []
            for card, rest in each_card(mine):
                options.append((rest, (card, card, True)))
                if covers and results:  # §4: covered from the 2nd round on
                    options.append((rest, (COVERED, COVERED, True)))

            def best_of(v, r):
                vals = []
                for rest, shown in options:
                    a, b = (rest, h1) if pos == ours[0] else (h0, rest)
                    vals.append(node(a, b, pool, results, leader, table + (shown,), v, r))
                if average:  # a random card of the hand: equal cards weigh as many
                    face_up = [x * mine.count(s[0]) for x, (_, s) in zip(vals, options)
                               if s[0] != COVERED]
                    return sum(face_up) / len(mine)
                return max(vals)

            here = best_of(value, can_raise)
            if can_raise and policy == "best":
                # §5 truco: passive runs (we score the value before the request) or accepts
                # (the hand is worth 4, and only they may raise next: passive never does).
                here = max(here, 0.5 * end(0, value) + 0.5 * best_of(4, False))
            return here
        total = sum(n for _, n in pool)
        acc = 0.0
        for cls, n, left in draws(pool):
            acc += n * node(h0, h1, left, results, leader, table + (cls + (False,),), value,
                            can_raise)
        return acc / total

    def round_over(h0, h1, pool, results, leader, table, value, can_raise):
        res, nexts = judge_round(table, leader, size)
        results = results + (res,)
        out = hand_outcome(results)
        if out is not None:
            return end(out, value)
        counts = pool_counts(pool)
        if len(results) == 2:
            vals = [last_round(max(h0 + h1), counts, results, nxt, value, can_raise)
                    for nxt in nexts]
        else:
            merged = partition(h0 + h1 + cuts, counts)
            vals = [node(h0, h1, merged, results, nxt, (), value, can_raise) for nxt in nexts]
        return max(vals)

    def last_round(m, counts, results, leader, value, can_raise):
        # Round 3: our cards are forced (a covered card could only do worse), and a
        # passive card matters only by how it compares with our better card ``m``.
        hi, eq, lo_n = third_round_counts(counts, m)
        return third(hi, eq, lo_n, results, leader, 0, 0, value, can_raise)

    @lru_cache(maxsize=None)
    def third(hi, eq, lo_n, results, leader, played, top, value, can_raise):
        # top: 2 a passive card beat ours, 1 one tied it, 0 neither (so far)
        if played == size:
            res = 1 if top == 2 else TIE if top == 1 else 0
            out = hand_outcome(results + (res,))
            return end(out, value)
        pos = (leader + played) % size
        if pos in ours:
            here = third(hi, eq, lo_n, results, leader, played + 1, top, value, can_raise)
            if can_raise and policy == "best":
                here = max(here, 0.5 * end(0, value) + 0.5 * third(
                    hi, eq, lo_n, results, leader, played + 1, top, 4, False))
            return here
        total = hi + eq + lo_n
        acc = 0.0
        if hi:
            acc += hi * third(hi - 1, eq, lo_n, results, leader, played + 1, 2, value, can_raise)
        if eq:
            acc += eq * third(hi, eq - 1, lo_n, results, leader, played + 1, max(top, 1), value,
                              can_raise)
        if lo_n:
            acc += lo_n * third(hi, eq, lo_n - 1, results, leader, played + 1, top, value,
                                can_raise)
        return acc / total

    start = start_pool(hands, pool, cuts)
    return node(tuple(sorted(hands[0])), tuple(sorted(hands[1])), start, (), 0, (), value,
                can_raise)


def deal_sample(rng: random.Random, seats: int = 2) -> tuple[tuple, tuple]:
    """Our ``seats`` hands (levels) and the unseen cards (a count per level)."""
    deck = [lv for lv, n in enumerate(LEVEL_COUNTS) for _ in range(n)]
    rng.shuffle(deck)
    hands = tuple(tuple(deck[3 * i:3 * i + 3]) for i in range(seats))
    pool = list(LEVEL_COUNTS)
    for lv in deck[:3 * seats]:
        pool[lv] -= 1
    return hands, tuple(pool)


def hand_kind(a: int, b: int) -> str:
    if a == 10 and b == 10:
        return "ferro"
    if a == 10:
        return "dez_us"
    if b == 10:
        return "dez_them"
    return "normal"


def _solve_job(job: tuple) -> float:
    h, p, l, u, v, r, c, b, pol = job
    return solve_hand(h, p, l, u, value=v, can_raise=r, covers=c, blind=b, policy=pol)


class Solver:
    """Solves hands with the C++ port (``bound_passive.cpp``, built with g++ into a temp
    dir), one process per core; ``--engine python`` uses :func:`solve_hand` instead.
    A subclass may change ``SOURCE``, ``python_job`` and :meth:`line` (another baseline)."""

    SOURCE = "bound_passive.cpp"
    python_job = staticmethod(_solve_job)

    def __init__(self, engine: str = "cpp", processes: int = 2) -> None:
        self.engine = engine
        self.processes = processes
        if engine == "cpp":
            import os
            import subprocess
            import tempfile
            self.binary = os.path.join(tempfile.mkdtemp(), self.SOURCE.split(".")[0])
            subprocess.run(["g++", "-O2", "-o", self.binary,
                            str(RESULTS / self.SOURCE)], check=True)

    @staticmethod
    def line(job: tuple) -> str:
        """One job as a line of the C++ port's input."""
        h, _p, l, u, v, r, c, b, pol = job
        us = " ".join(f"{x:.12f}" for x in (u[(0, 2)], u[(0, 4)], u[(1, 2)], u[(1, 4)],
                                             u["void"]))
        return (" ".join(map(str, h[0] + h[1])) +
                f" {int(l)} {v} {int(r)} {int(c)} {int(b)} {int(pol == 'random')} {us}")

    def solve(self, jobs: list[tuple]) -> list[float]:
        """``jobs``: (hands, pool, we_lead, utility, value, can_raise, covers, blind, policy)."""
        if self.engine == "python":
            if self.processes == 1:
                return [self.python_job(job) for job in jobs]
            from multiprocessing import Pool
            with Pool(self.processes) as workers:
                return workers.map(self.python_job, jobs, chunksize=16)
        import subprocess
        import threading
        lines = [self.line(job) for job in jobs]
        chunks = [lines[i::self.processes] for i in range(self.processes)]
        outs: list = [None] * self.processes

        def run(i):
            outs[i] = subprocess.run([self.binary], input="\n".join(chunks[i]) + "\n",
                                     capture_output=True, text=True, check=True).stdout.split()

        threads = [threading.Thread(target=run, args=(i,)) for i in range(self.processes)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        result = [0.0] * len(lines)
        for i in range(self.processes):
            for j, x in enumerate(outs[i]):
                result[i + j * self.processes] = float(x)
        return result


def utilities(V: dict, a: int, b: int, we_lead: bool, values=(2, 4)) -> dict:
    """The game's value after each way this hand can end (the next hand, the other team
    leads): ``(team, points)`` for team 0 (us) or 1 scoring each of ``values``, and
    ``'void'``."""
    nxt = not we_lead

    def v(x, y):
        if x >= GOAL:
            return 1.0
        if y >= GOAL:
            return 0.0
        return V[(x, y, nxt)]

    u = {(0, p): v(a + p, b) for p in values}
    u.update({(1, p): v(a, b + p) for p in values})
    u["void"] = V[(a, b, nxt)]
    return u


def hand_jobs(deals, a, b, we_lead, V, policy):
    u = utilities(V, a, b, we_lead)
    kind = hand_kind(a, b)
    jobs = []
    for hands, pool in deals:
        if kind == "normal":
            jobs.append((hands, pool, we_lead, u, 2, True, True, False, policy))
        elif kind == "ferro":  # §6 mão de ferro no escuro: worth 2, nobody sees a card
            jobs.append((hands, pool, we_lead, u, 2, False, False, True, policy))
        else:  # §6 mão de dez: worth 4, no raise, no covered card
            jobs.append((hands, pool, we_lead, u, 4, False, False, False, policy))
    return kind, u, jobs


def finish(kind, u, x, policy):
    if kind == "dez_us":  # we see both hands and play (worth 4) or run (they score 2)
        return max(x, u[(1, 2)]) if policy == "best" else 0.5 * (x + u[(1, 2)])
    if kind == "dez_them":  # passive plays its mão de dez with probability 1/2, else runs
        return 0.5 * u[(0, 2)] + 0.5 * x
    return x


MANILHA_LEVELS = 4
"""The four manilhas are the top levels."""


def stratum(hands) -> int:
    """How many manilhas our cards hold, 2 standing for 2 or more."""
    return min(2, sum(lv >= len(LEVEL_COUNTS) - MANILHA_LEVELS for h in hands for lv in h))


def stratum_share(k: int, seats: int = 2) -> float:
    """The exact chance of stratum ``k`` (hypergeometric: 4 manilhas in 40 cards, 3 a seat
    ours)."""
    ours = 3 * seats

    def exact(j):
        return (math.comb(MANILHA_LEVELS, j) * math.comb(40 - MANILHA_LEVELS, ours - j)
                / math.comb(40, ours))
    return exact(k) if k < 2 else 1 - exact(0) - exact(1)


def stratum_weights(deals) -> list[float]:
    """Post-stratification by how many manilhas our six cards hold (0, 1, 2 or more): each
    deal weighted so the sample's strata have their exact (hypergeometric) shares. The
    estimate stays unbiased and loses the part of its noise that comes from a sample
    with too many or too few manilhas."""
    share = {k: stratum_share(k, len(deals[0][0])) for k in (0, 1, 2)}
    strata = [stratum(h) for h, _ in deals]
    seen = {k: strata.count(k) for k in set(strata)}
    missing = sum(share[k] for k in share if k not in seen)
    return [share[k] / seen[k] / (1 - missing) for k in strata]


def stratified_deals(n: int, rng: random.Random, seats: int = 2) -> list:
    """``n`` deals, as many in each manilha stratum as its exact share asks: less noise
    than ``n`` plain draws."""
    quota = {0: round(n * stratum_share(0, seats)), 1: round(n * stratum_share(1, seats))}
    quota[2] = n - quota[0] - quota[1]
    out = []
    while any(quota.values()):
        hands, pool = deal_sample(rng, seats)
        k = stratum(hands)
        if quota[k]:
            quota[k] -= 1
            out.append((hands, pool))
    return out


def game_values(deals, solver: Solver, policy: str = "best", log=print, *, jobs=None,
                finish_=None):
    """V[(a, b, we_lead)]: our chance of winning the game from that score (§7), and the
    standard error of each from the sampled deals. ``jobs`` and ``finish_`` replace
    :func:`hand_jobs` and :func:`finish` (another baseline's solver reuses this DP)."""
    jobs = jobs or hand_jobs
    finish_ = finish_ or finish
    scores = range(0, GOAL, 2)
    V = {(a, b, l): 0.5 for a in scores for b in scores for l in (True, False)}
    SE = {}
    for total in sorted({a + b for a in scores for b in scores}, reverse=True):
        states = [(a, total - a, l) for a in scores if total - a in scores for l in (True, False)]
        # A void hand (§3) keeps the score and passes the lead: the states of one score
        # depend on each other through it, so a first pass on a few deals sets the values
        # a void hand leads to, and the second pass uses every deal.
        for sample in (deals[:max(1, len(deals) // 10)], deals):
            batch, meta = [], []
            for a, b, l in states:
                kind, u, hand = jobs(sample, a, b, l, V, policy)
                meta.append((a, b, l, kind, u, len(hand)))
                batch.extend(hand)
            values = solver.solve(batch)
            weights = stratum_weights(sample)
            i = 0
            new = {}
            for a, b, l, kind, u, n in meta:
                xs = [finish_(kind, u, x, policy) for x in values[i:i + n]]
                i += n
                mean = sum(w * x for w, x in zip(weights, xs))
                sd = math.sqrt(sum(w * (x - mean) ** 2 for w, x in zip(weights, xs)))
                new[(a, b, l)] = mean
                SE[(a, b, l)] = sd / math.sqrt(n)
            V.update(new)
        log(f"  scores summing to {total}: done ({time.strftime('%H:%M:%S')})")
    return V, SE


def engine_rate(level: str, hands: tuple, we_lead: bool, players: int, games: int,
                rng: random.Random, tag) -> tuple[float, float]:
    """Our team's chance of winning one hand in the engine (a void counted half), and its
    standard error: our seats dealt cards of the levels ``hands``, the others ``games``
    random deals of the rest (drawn with ``rng``), every seat played by the bot ``level``."""
    import truco
    from truco.bots import make

    by_level: dict[int, list[str]] = {}
    for card, lv in STRENGTH.items():
        by_level.setdefault(lv, []).append(card)
    ours = tuple(range(0 if we_lead else 1, players, 2))
    others = [s for s in range(players) if s not in ours]
    taken = {lv: list(cards) for lv, cards in by_level.items()}
    mine = [[taken[lv].pop() for lv in h] for h in hands]
    rest = [c for cards in taken.values() for c in cards]
    total = 0.0
    for k in range(games):
        rng.shuffle(rest)
        seat_hands = [None] * players
        for s, h in zip(ours, mine):
            seat_hands[s] = h
        for i, s in enumerate(others):
            seat_hands[s] = rest[3 * i:3 * i + 3]
        g = truco.new_game(players=players, seed=k, hands=seat_hands, dealer=players - 1)
        bot = make(level, random.Random(f"{tag}:{k}"))
        while g.hand_index == 0 and not g.is_over:
            g.apply(bot.choose(g.observation(g.to_move)))
        a, b = g.score
        mine_pts, theirs_pts = (a, b) if ours[0] % 2 == 0 else (b, a)
        total += 1.0 if mine_pts > theirs_pts else 0.0 if theirs_pts > mine_pts else 0.5
    p_hat = total / games
    return p_hat, math.sqrt(max(p_hat * (1 - p_hat), 1e-9) / games)


def engine_check(deals: int, games: int, seed: int) -> list[tuple[float, float, float]]:
    """The solver against the real engine on the rules it models (§2–§4): with our team
    playing like passive too, its chance of winning a hand (a void counted half) must
    match the engine's, hand by hand. Returns (solver, engine, its standard error)."""
    rng = random.Random(seed)
    u = {(0, 2): 1.0, (0, 4): 1.0, (1, 2): 0.0, (1, 4): 0.0, "void": 0.5}
    rows = []
    for d in range(deals):
        hands, pool = deal_sample(rng)
        we_lead = d % 2 == 0
        solver = solve_hand(hands, pool, we_lead, u, can_raise=False, policy="random",
                            exact=True)
        rows.append((solver,) + engine_rate("passive", hands, we_lead, 4, games, rng, d))
    return rows


def cli(description: str, players_help: str, check_policy: str,
        policy_help: str) -> argparse.ArgumentParser:
    """The options both bound scripts take."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--players", type=int, choices=(2, 4), default=4, help=players_help)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--policy", choices=("best", check_policy), default="best", help=policy_help)
    p.add_argument("--engine", choices=("cpp", "python"), default="cpp")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--check", type=int, metavar="GAMES", default=0,
                   help="compare the solver with the engine on --deals hands, GAMES each")
    return p


def main(argv=None) -> int:
    args = cli(__doc__.split("\n")[0],
               "2: 1 x 1, where the solved player is exactly the best there is "
               "(no partner to see); solved in Python",
               "random", "random: our team plays like passive (a check: the answer is 1/2)"
               ).parse_args(argv)
    if args.check:
        print_check(engine_check(args.deals, args.check, args.seed))
        return 0
    rng = random.Random(args.seed)
    seats = args.players // 2
    deals = stratified_deals(args.deals, rng, seats)
    engine = args.engine if seats == 2 else "python"  # the C++ port is for 2 x 2
    t0 = time.time()
    V, SE = game_values(deals, Solver(engine, args.processes), args.policy,
                        log=lambda m: print(m, file=sys.stderr, flush=True))
    who = ("our team seeing both its hands" if seats == 2
           else "one player (nothing to relax: exactly the best play)")
    print(f"{seats} x {seats} mineiro vs passive, {who}, {args.deals} deals, "
          f"seed {args.seed}, policy {args.policy}: {time.time() - t0:.0f} s")
    print_values(V, SE)
    return 0


def print_check(rows: list[tuple[float, float, float]]) -> None:
    """The engine check's rows (solver, engine, its standard error) and their mean z."""
    for solver, engine, se in rows:
        print(f"solver {solver:.4f}  engine {engine:.4f} ± {1.96 * se:.4f}"
              f"{'' if abs(solver - engine) <= 2.58 * se else '  <- differs'}")
    z = sum((a - b) / s for a, b, s in rows) / math.sqrt(len(rows))
    print(f"{len(rows)} hands: mean z {z:+.2f} (|z| < 2 expected)")


def print_values(V: dict, SE: dict) -> None:
    """The win chance from 0 x 0 and the table of it by score (the lead averaged)."""
    start = 0.5 * (V[(0, 0, True)] + V[(0, 0, False)])
    print(f"win chance from 0 x 0: {start:.4f} (we lead the first hand {V[(0, 0, True)]:.4f}, "
          f"they do {V[(0, 0, False)]:.4f})")
    print("win chance by score (rows: ours 0..10, columns: theirs 0..10; lead averaged),"
          " and the largest standard error of one score's hand value:",
          f"{max(SE.values()):.4f}")
    for a in range(0, GOAL, 2):
        print(" ".join(f"{0.5 * (V[(a, b, True)] + V[(a, b, False)]):.3f}"
                       for b in range(0, GOAL, 2)))


if __name__ == "__main__":
    raise SystemExit(main())

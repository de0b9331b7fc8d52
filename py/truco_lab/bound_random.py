"""An upper bound on any bot's win rate against ``random`` in Mineiro, 2 x 2 and 1 x 1.

``random`` (``truco.bots.baselines.RandomBot``) picks uniformly among its legal actions.
Those depend on how many cards it holds and on the phase of the hand, never on which
cards they are, so (as with ``passive``, see ``bound_passive.py``) what it does tells
nothing about what it still holds:

- each card it plays face up is a uniform draw from the cards our team has not seen;
- a card it plays covered (§4) is never shown, and by exchangeability the cards it shows
  later are still uniform draws from the same unseen pool: a covered card takes nothing
  from the pool and is worth ``COVERED`` (loses to everything, ties another covered card);
- on its turn in a normal hand, with k cards, it picks one of k face-up plays, k covered
  plays (from the 2nd round on) and ``raise`` (when legal), each with the same chance
  (the engine lists one action per card, so equal cards count once each);
- facing a request it accepts, runs or raises back, 1/3 each (1/2 accept or run at doze,
  the top); facing its own mão de dez (§6) it plays or runs, 1/2 each; in a mão de dez or
  de ferro it only plays a card, uniformly.

So our team faces a single-agent problem against chance, solved exactly here: every card
either of our seats may play (face up or covered), every moment to ask for a raise, every
answer to a request (run, accept, raise back) along the whole ladder of §5 (2 -> truco 4
-> seis 6 -> dez 10 -> doze 12; a run gives the value before the request; after an
accepted raise only the side that accepted may ask the next; a counter-raise accepts
the request it answers and goes back to the asker), in every round.

Relaxation (2 x 2 only): **each of our seats sees its partner's cards**, always, and both
play as one, and when both random cards of a round beat ours within one class of levels
our team picks which of them leads next (``bound_passive.solve_hand``). In 1 x 1 there is
nothing to relax: the solver is exactly the best play against ``random``. The game (§7)
is the dynamic programme of ``bound_passive.game_values`` over the scores, with the
utilities of every value a hand may score (2, 4, 6, 10, 12), the deals of our cards
sampled (stratified by manilhas).

    python -m truco_lab.bound_random --players 2 --deals 2000 --seed 1   # 1 x 1, ~3 min, g++
    python -m truco_lab.bound_random --players 2 --deals 100 --engine python   # ~6 min
    python -m truco_lab.bound_random --deals 30 --seed 1      # 2 x 2, 6-13 min on 2 cores, g++
    python -m truco_lab.bound_random --check 1000 --deals 12 --players 4       # vs the engine
"""

from __future__ import annotations

import math
import random
import sys
import time
from functools import lru_cache

from truco_lab import bound_passive as bp
from truco_lab.bound_passive import COVERED, GOAL, LEVEL_COUNTS, MINEIRO, STRENGTH
from truco.judge import TIE, hand_outcome

VALUES = (MINEIRO.start_value,) + tuple(step.value for step in MINEIRO.ladder)
"""The hand's value at each level of the ladder (§5): 2, 4, 6, 10, 12."""
TOP = len(VALUES) - 1
US, THEM = 0, 1


def solve_hand(hands: tuple, pool: tuple, we_lead: bool, utility: dict, *,
               policy: str = "best", exact: bool = False, level: int = 0,
               last=None) -> float:
    """The expected utility of one **normal** hand for our team against ``random``.

    ``hands``, ``pool``, ``we_lead`` as in ``bound_passive.solve_hand``;
    ``utility[(team, value)]`` for every value of ``VALUES`` and ``utility['void']``.
    ``policy='uniform'``: our seats play like ``random`` too (the engine check).
    ``level``/``last``: the ladder step already accepted and the team that asked it
    (``None``: nobody yet), for hand-built tests.
    """
    cuts = tuple(range(len(LEVEL_COUNTS))) if exact else ()
    size = 2 * len(hands)
    ours = tuple(range(0 if we_lead else 1, size, 2))
    if len(hands) == 1:
        hands = (hands[0], ())
    turn, _request, _options = _recursion(size, ours, utility, policy == "uniform", cuts)
    start = bp.start_pool(hands, pool, cuts)
    return turn(("g", tuple(sorted(hands[0])), tuple(sorted(hands[1])), start, (), 0, ()),
                level, last)


def _recursion(size: int, ours: tuple, utility: dict, uniform: bool, cuts: tuple):
    """The expectimax of one normal hand: (turn, request, options), memoised per hand.

    ``turn(state, lv, last)``: the value with the seat of ``state`` to act, step ``lv``
    accepted, asked by ``last``; ``request(state, asker, lv)``: ``asker`` asks step
    ``lv`` on the turn ``state``; ``options(state, lv, last)``: our seat's actions there
    and their values (the best one is what ``turn`` gives). A state is ``("g", h0, h1, pool,
    results, leader, table)`` (pool as classes of :func:`bound_passive.partition`) or
    the round-3 shortcut ``("t", ...)``."""

    def end(winner, lv):
        if winner == "void":
            return utility["void"]
        return utility[(winner, VALUES[lv])]

    @lru_cache(maxsize=None)
    def request(state, asker, lv):
        """``asker`` asks step ``lv`` (``lv - 1`` accepted) on the turn ``state``."""
        opts = [end(asker, lv - 1), turn(state, lv, asker)]  # run, accept
        if lv < TOP:  # raise back: accepts lv, asks lv + 1 of the asker
            opts.append(request(state, 1 - asker, lv + 1))
        if asker == THEM and not uniform:
            return max(opts)
        return sum(opts) / len(opts)

    @lru_cache(maxsize=None)
    def turn(state, lv, last):
        """The seat to move on ``state``, before it acts; ``last`` asked the step ``lv``."""
        if state[0] == "t":
            return third(state, lv, last)
        _, h0, h1, pool, results, leader, table = state
        pos = (leader + len(table)) % size
        team = US if pos in ours else THEM
        may_raise = lv < TOP and last != team
        covers = len(results) >= 1
        k = 3 - len(results)
        if team == US:
            opts = options(state, lv, last)
            if uniform:
                return sum(w * v for _, w, v in opts) / sum(w for _, w, _ in opts)
            return max(v for _, _, v in opts)
        n = k * (2 if covers else 1) + (1 if may_raise else 0)
        total = sum(c for _, c in pool)
        up = 0.0
        for cls, c, left in bp.draws(pool):
            up += c * after(h0, h1, left, results, leader, table + (cls + (False,),), lv, last)
        acc = k * up / total
        if covers:
            acc += k * after(h0, h1, pool, results, leader,
                             table + ((COVERED, COVERED, False),), lv, last)
        if may_raise:
            acc += request(state, THEM, lv + 1)
        return acc / n

    def options(state, lv, last):
        """Our seat's actions on the turn ``state``: (key, how many of the engine's
        actions it stands for, value); keys ``("play", level)``, ``("cover", level)``,
        ``"raise"``."""
        _, h0, h1, pool, results, leader, table = state
        pos = (leader + len(table)) % size
        mine = h0 if pos == ours[0] else h1
        out = []
        for card, rest in bp.each_card(mine):
            a, b = (rest, h1) if pos == ours[0] else (h0, rest)
            shows = [("play", card)] + ([("cover", COVERED)] if results else [])
            for verb, shown in shows:
                out.append(((verb, card), mine.count(card),
                            after(a, b, pool, results, leader, table + ((shown, shown, True),),
                                  lv, last)))
        if lv < TOP and last != US:
            out.append(("raise", 1, request(state, US, lv + 1)))
        return out

    def after(h0, h1, pool, results, leader, table, lv, last):
        if len(table) < size:
            return turn(("g", h0, h1, pool, results, leader, table), lv, last)
        res, nexts = bp.judge_round(table, leader, size)
        results = results + (res,)
        out = hand_outcome(results)
        if out is not None:
            return end(out, lv)
        counts = bp.pool_counts(pool)
        if len(results) == 2 and not uniform:
            # Round 3, best play: our cards go face up (covering one could only lose a
            # round; random does not react to it), so a random card matters only by how
            # it compares with our better card m.
            hi, eq, lo_n = bp.third_round_counts(counts, max(h0 + h1))
            states = [("t", hi, eq, lo_n, results, nxt, 0, 0) for nxt in nexts]
        else:
            merged = bp.partition(h0 + h1 + cuts, counts)
            states = [("g", h0, h1, merged, results, nxt, ()) for nxt in nexts]
        return max(turn(s, lv, last) for s in states)

    def third(state, lv, last):
        # top: 2 a random card beat our best, 1 one tied it, 0 neither (so far)
        _, hi, eq, lo_n, results, leader, played, top = state
        if played == size:
            res = THEM if top == 2 else TIE if top == 1 else US
            return end(hand_outcome(results + (res,)), lv)
        pos = (leader + played) % size
        team = US if pos in ours else THEM
        may_raise = lv < TOP and last != team

        def nxt(h, e, l, t):
            return turn(("t", h, e, l, results, leader, played + 1, t), lv, last)

        if team == US:
            here = nxt(hi, eq, lo_n, top)
            if may_raise:
                here = max(here, request(state, US, lv + 1))
            return here
        total = hi + eq + lo_n
        up = 0.0
        if hi:
            up += hi * nxt(hi - 1, eq, lo_n, 2)
        if eq:
            up += eq * nxt(hi, eq - 1, lo_n, max(top, 1))
        if lo_n:
            up += lo_n * nxt(hi, eq, lo_n - 1, top)
        acc = up / total + nxt(hi, eq, lo_n, top)  # face up, covered
        if may_raise:
            return (acc + request(state, THEM, lv + 1)) / 3
        return acc / 2

    return turn, request, options


def action_values(hand: tuple, pool: tuple, results: tuple, we_lead_round: bool,
                  table: tuple, level: int, last, utility: dict,
                  pending: bool = False) -> dict:
    """1 x 1: the value of each action open to us in the middle of a normal hand, with
    best play from then on (``truco_lab.regret_random`` grades a bot by it).

    ``hand``: our cards' levels; ``pool``: a count per level of the cards we have not
    seen (random's covered cards stay in it: they tell nothing); ``results``: the rounds
    played (``US``, ``THEM``, ``TIE``); ``we_lead_round``: who leads the round in play;
    ``table``: its cards so far, ``(level or COVERED, ours)``; ``level``/``last``: the
    step accepted and the team that asked it (``None``: nobody yet); ``pending``:
    random has just asked step ``level + 1``. Keys: ``("play", level)``,
    ``("cover", level)``, ``"raise"``; or ``"run"``, ``"accept"``, ``"raise"``.
    """
    turn, request, options = _recursion(2, (0,), utility, False, ())
    mine = tuple(v for v, ours in table if ours and v != COVERED)
    classes = bp.partition(tuple(hand) + mine, {(lv, lv): n for lv, n in enumerate(pool) if n})
    cards = tuple((v, v, ours) for v, ours in table)
    leader = 0 if we_lead_round else 1
    results = tuple(results)
    state = ("g", tuple(sorted(hand)), (), classes, results, leader, cards)
    if pending:  # random asked step level + 1 (§5)
        asked = level + 1
        out = {"run": utility[(THEM, VALUES[level])], "accept": turn(state, asked, THEM)}
        if asked < TOP:
            out["raise"] = request(state, US, asked + 1)
        return out
    return {key: value for key, _, value in options(state, level, last)}


def solve_any(hands, pool, we_lead, utility, kind, policy="best", exact=False) -> float:
    """One hand of any kind (before a mão de dez decision): a normal hand here; a mão de
    dez or de ferro is played exactly as against ``passive`` (no raise, no covered card,
    random plays a uniform card), so ``bound_passive.solve_hand`` solves it."""
    if kind == "normal":
        return solve_hand(hands, pool, we_lead, utility, policy=policy, exact=exact)
    pol = "best" if policy == "best" else "random"
    if kind == "ferro":  # §6 no escuro: worth 2, nobody sees a card
        return bp.solve_hand(hands, pool, we_lead, utility, value=2, can_raise=False,
                             covers=False, blind=True, policy=pol, exact=exact)
    return bp.solve_hand(hands, pool, we_lead, utility, value=4, can_raise=False,
                         covers=False, policy=pol, exact=exact)


def _solve_job(job: tuple) -> float:
    hands, pool, we_lead, u, kind, policy = job
    return solve_any(hands, pool, we_lead, u, kind, policy, exact=policy == "uniform")


KINDS = ("normal", "dez_us", "dez_them", "ferro")


class Solver(bp.Solver):
    """``bound_passive.Solver`` with this file's hands: the C++ port ``bound_random.cpp``
    or :func:`solve_any`."""

    SOURCE = "bound_random.cpp"
    python_job = staticmethod(_solve_job)

    @staticmethod
    def line(job: tuple) -> str:
        hands, _pool, we_lead, u, kind, policy = job
        us = " ".join(f"{u[(t, v)]:.12f}" for t in (US, THEM) for v in VALUES)
        h = hands[0] + (hands[1] if len(hands) > 1 else ())
        return (f"{len(hands)} " + " ".join(map(str, h)) +
                f" {int(we_lead)} {KINDS.index(kind)} {int(policy == 'uniform')} "
                f"{us} {u['void']:.12f}")


def hand_jobs(deals, a, b, we_lead, V, policy):
    u = bp.utilities(V, a, b, we_lead, VALUES)  # every value of the ladder (§5)
    kind = bp.hand_kind(a, b)
    return kind, u, [(hands, pool, we_lead, u, kind, policy) for hands, pool in deals]


def finish(kind, u, x, policy):
    """The mão de dez decision (§6): ours taken seeing both hands; random's 1/2 each."""
    return bp.finish(kind, u, x, "best" if policy == "best" else "random")


def game_values(deals, solver, policy="best", log=print):
    return bp.game_values(deals, solver, policy, log, jobs=hand_jobs, finish_=finish)


def engine_check(deals: int, games: int, seed: int, players: int = 4, solver=None) -> list:
    """The solver against the engine (§2–§5): with our team playing like ``random`` too
    (``policy='uniform'``, every level apart), its chance of winning one normal hand (a
    void counted half) must match the engine's with RandomBot on every seat, dealt the
    same cards. ``solver``: a :class:`Solver` (default: the Python reference). Returns
    (solver, engine, its standard error) per hand."""
    rng = random.Random(seed)
    seats = players // 2
    u = {(t, v): 1.0 - t for t in (US, THEM) for v in VALUES}
    u["void"] = 0.5
    rows = []
    for d in range(deals):
        hands, pool = bp.deal_sample(rng, seats)
        we_lead = d % 2 == 0
        if solver is None:
            value = solve_hand(hands, pool, we_lead, u, policy="uniform", exact=True)
        else:
            value = solver.solve([(hands, pool, we_lead, u, "normal", "uniform")])[0]
        rows.append((value,) + bp.engine_rate("random", hands, we_lead, players, games, rng, d))
    return rows


def main(argv=None) -> int:
    args = bp.cli(__doc__.split("\n")[0],
                  "2: 1 x 1, where the solved player is exactly the best there is",
                  "uniform", "uniform: our team plays like random too (a check: about 1/2)"
                  ).parse_args(argv)
    if args.check:
        bp.print_check(engine_check(args.deals, args.check, args.seed, args.players,
                                    Solver(args.engine, 1)))
        return 0
    rng = random.Random(args.seed)
    seats = args.players // 2
    deals = bp.stratified_deals(args.deals, rng, seats)
    t0 = time.time()
    V, SE = game_values(deals, Solver(args.engine, args.processes), args.policy,
                        log=lambda m: print(m, file=sys.stderr, flush=True))
    who = ("our team seeing both its hands (an upper bound)" if seats == 2
           else "one player (nothing to relax: exactly the best play)")
    print(f"{seats} x {seats} mineiro vs random, {who}, {args.deals} deals, "
          f"seed {args.seed}, policy {args.policy}, engine {args.engine}: "
          f"{time.time() - t0:.0f} s")
    bp.print_values(V, SE)
    return 0

if __name__ == "__main__":
    raise SystemExit(main())

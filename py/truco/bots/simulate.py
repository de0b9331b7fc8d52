"""Monte Carlo over the hidden cards: deal the unseen cards to the hidden hands, then play
the rest of the hand out with a simple policy and see which team wins it.

Cards are plain strengths here (ints; a covered card is ``COVERED``): suits never matter
once strength is known (RULES.md §2), which keeps a rollout to a few microseconds of list
work. A rollout plays only cards: raises are decided outside, by the bots.
"""

from __future__ import annotations

import random

from ..judge import hand_outcome
from .knowledge import COVERED, TIE, Knowledge

VOID = 2
"""Rollout result: all three rounds tied, nobody scores (RULES.md §3). The hand's outcome
is the engine's own rule, ``judge.hand_outcome(results, TIE, VOID)``, with these markers."""


def round_winner(plays: list[tuple[int, int]]) -> tuple[int, int]:
    """(result, seat that leads next) of a complete round: partners tying win it (§3)."""
    best = -2
    bteam = TIE
    bseat = plays[0][0]
    for seat, v in plays:
        if v > best:
            best, bteam, bseat = v, seat & 1, seat
        elif v == best and (seat & 1) != bteam:
            bteam = TIE
    return bteam, bseat


def table_state(plays: list[tuple[int, int]]) -> tuple[int, int]:
    """(best strength on the table, team holding it or TIE) for a round in progress."""
    best = -2
    bteam = TIE
    for seat, v in plays:
        if v > best:
            best, bteam = v, seat & 1
        elif v == best and (seat & 1) != bteam:
            bteam = TIE
    return best, bteam


def default_policy(h: list[int], plays: list[tuple[int, int]], results: list[int], team: int) -> int:
    """The card a plain, sensible player plays (used for everyone inside rollouts).

    Lead: the middle card in round 1, the strongest later. Follow: duck when the partner
    holds the round, else win as cheaply as possible, else tie, else play the weakest.
    """
    if not plays:
        if not results and len(h) == 3:
            return sorted(h)[1]
        return max(h)
    best, bteam = table_state(plays)
    low = min(h)
    if bteam == team:
        return low
    win = 99
    for v in h:
        if best < v < win:
            win = v
    if win != 99:
        return win
    if bteam != TIE and best in h:
        return best
    return low


def rollout(hands: list[list[int]], n: int, results: list[int],
            plays: list[tuple[int, int]], leader: int,
            noise: list[float] | None = None, coins: list[float] | None = None,
            covers: list[float] | None = None) -> int:
    """Play the hand to its end with :func:`default_policy`. ``hands`` is consumed.

    With ``noise``, seat s plays a uniformly random card instead with probability
    ``noise[s]``, decided by ``coins`` (uniform draws, two per play, consumed in order
    so that every option tried on the same deal sees the same luck): a model of a
    careless player. From the 2nd round on (RULES.md §4), such a random card goes face
    down with probability ``covers[s]``: a player pressing any button covers about half
    of its cards there, and a covered card loses to every other.
    """
    results = list(results)
    plays = list(plays)
    step = 0
    while True:
        seat = (leader + len(plays)) % n
        h = hands[seat]
        shown = None
        if noise is not None and noise[seat] and coins[step] < noise[seat]:
            x = coins[step + 1] * len(h)
            v = h[int(x)]
            if covers is not None and results and x - int(x) < covers[seat]:
                shown = COVERED
        else:
            v = default_policy(h, plays, results, seat & 1)
        step += 2
        h.remove(v)
        plays.append((seat, v if shown is None else shown))
        if len(plays) == n:
            res, winner = round_winner(plays)
            results.append(res)
            out = hand_outcome(results, TIE, VOID)
            if out is not None:
                return out
            if res != TIE:
                leader = winner
            plays = []


def advance(hands: list[list[int]], n: int, results: list[int], plays: list[tuple[int, int]],
            leader: int, seat: int, removed: int, shown: int) -> tuple[int | None, list[int], list, int]:
    """Apply one play by ``seat`` (``removed`` leaves its hand, ``shown`` goes on the table).

    Returns (outcome or None, results, plays, leader) after it.
    """
    hands[seat].remove(removed)
    plays = plays + [(seat, shown)]
    results = list(results)
    if len(plays) == n:
        res, winner = round_winner(plays)
        results.append(res)
        out = hand_outcome(results, TIE, VOID)
        if out is not None:
            return out, results, [], leader
        if res != TIE:
            leader = winner
        plays = []
    return None, results, plays, leader


def sample_world(k: Knowledge, rng: random.Random) -> list[list[int]]:
    """One deal of the unseen cards to the hidden hands, consistent with what ``k`` saw."""
    hands: list[list[int]] = [[] for _ in range(k.players)]
    if not k.blind:
        hands[k.seat] = k.my_strengths()
    for s, cards in k.known.items():
        hands[s] = list(cards)
    need = sum(k.unknown_sizes.values())
    if need:
        pool = k.pool
        if k.musts:  # a signalled manilha goes to its hand first
            pool = list(pool)
            for v in k.musts.values():
                pool.remove(v)  # read() places each claimed card once, and only an unseen one
            need -= len(k.musts)
        for _ in range(30 if k.checks else 1):  # redraw until the signals fit (sinais)
            drawn = rng.sample(pool, min(need, len(pool)))
            i = 0
            for s, size in k.unknown_sizes.items():
                if s in k.musts:
                    hands[s] = [k.musts[s]] + drawn[i:i + size - 1]
                    i += size - 1
                else:
                    hands[s] = drawn[i:i + size]
                    i += size
            if all(test(hands[s] + [v for _, v in k.played.get(s, [])])
                   for s, test in k.checks.items()):
                break
    return hands


def sample_worlds(k: Knowledge, rng: random.Random, count: int) -> list[list[list[int]]]:
    return [sample_world(k, rng) for _ in range(count)]


def score_of(outcome: int, team: int) -> float:
    """1 if ``team`` wins the hand, 0 if it loses, 0.5 for a void hand."""
    if outcome == VOID:
        return 0.5
    return 1.0 if outcome == team else 0.0


def outcomes_from_state(k: Knowledge, worlds: list[list[list[int]]],
                        noise: list[float] | None = None,
                        coins: list[list[float]] | None = None,
                        covers: list[float] | None = None) -> list[int]:
    """The rollout result of each world from the current position."""
    out = []
    for j, w in enumerate(worlds):
        hands = [list(h) for h in w]
        out.append(rollout(hands, k.players, k.results, k.plays, k.leader, noise,
                           coins[j] if coins else None, covers))
    return out


def outcomes_after_play(k: Knowledge, worlds: list[list[list[int]]],
                        removed: int, shown: int, noise: list[float] | None = None,
                        coins: list[list[float]] | None = None,
                        covers: list[float] | None = None) -> list[int]:
    """The rollout result of each world after this seat plays (``removed`` -> ``shown``)."""
    out = []
    n = k.players
    for j, w in enumerate(worlds):
        hands = [list(h) for h in w]
        res, results, plays, leader = advance(hands, n, k.results, k.plays, k.leader,
                                              k.seat, removed, shown)
        if res is None:
            res = rollout(hands, n, results, plays, leader, noise, coins[j] if coins else None,
                          covers)
        out.append(res)
    return out

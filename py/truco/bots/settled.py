"""Is this hand settled, for whom, from this view? Exact, not sampled (issue 27).

A hand is *settled* for a team from a view when **every** way it can still go ends with
that team winning it: every deal of the cards the view does not see to the hands that are
hidden from it (the right number of cards each), and every card every seat may still play,
face up or covered where the rules allow it (RULES.md §4), with the rules of RULES.md §3
for who takes a round (partners tying take it; a tie between the teams is a tie) and the
hand (the first round breaks a later tie, a tied first round is broken by the next one,
three tied rounds void the hand). Signals are not proof and count for nothing here.

Two views are offered:

- the **seat's view** (``public=False``): the face-up cards, the seat's own cards (unseen
  in a blind mão de ferro) and any hand it is shown (its partners' in a mão de dez);
- the **public view** (``public=True``): the face-up cards alone, every hand hidden.

Bets use it so that no level ever makes a dead bet (``HeuristicBot.choose``): never accept
or raise back when the seat's view says the hand is lost, never ask for a raise when the
public view says it is lost (a raise with a hand lost only in the seat's own view is a
bluff, and bluffs are allowed), never run when the seat's view says it is won.

The search plays the remaining cards of the hand one seat at a time, in any fixed order
(a round's result depends only on the cards in it, not on their order), with the hidden
hands drawn from the unseen cards by strength (suits never matter once strength is known,
§2); it stops as soon as two outcomes are reachable, cuts a round short when no card still
to come can change its result and that result ends the hand, and remembers every position
it has seen. Measured: well under a millisecond per call on the arena's positions
(``bench/dead_bets.py --time``).
"""

from __future__ import annotations

from ..cards import RANKS
from ..judge import hand_outcome
from .knowledge import COVERED, TIE, deck_of, manilhas_of, strength_table
from .simulate import VOID

__all__ = ["outcomes", "settled", "VOID"]


def _view(obs: dict, public: bool):
    """(results, table, to_play, known, hidden, pool, covers_ok) of the current hand, or
    ``None`` when the view cannot know the cards' strengths (a vira still face down)."""
    rules = obs["rules"]
    if rules.get("vira") and not obs.get("vira"):
        return None  # manilha nova with the vira face down (§9): strengths unknown
    manilhas = manilhas_of(obs)
    strength = strength_table(manilhas)
    n = obs["players"]
    seat = obs["seat"]
    seen: set[str] = set()
    if obs.get("vira"):
        seen.add(obs["vira"])
    for x in obs.get("exchanged") or []:
        seen.update(x.get("cards") or [])
    results: list[int] = []
    table: list[int] = []  # strengths of the current round's cards, by seat order of play
    table_seats: list[int] = []
    rounds = obs.get("rounds") or []
    for r in rounds:
        cur = r["result"] is None
        for p in r["plays"]:
            c = p["card"]
            face_up = not p["covered"]
            if c is not None and face_up:
                seen.add(c)
            elif c is not None and not public:
                seen.add(c)  # our own covered card: we know what it was
            if cur:
                table.append(COVERED if p["covered"] else strength[c])
                table_seats.append(p["seat"])
        if not cur:
            res = r["result"]
            results.append(TIE if res == "tie" else int(res))
    sizes = obs["hand_sizes"]
    known: dict[int, list[int]] = {}
    if not public:
        if not obs.get("blind"):
            known[seat] = [strength[c] for c in obs.get("hand") or []]
            seen.update(obs.get("hand") or [])
        for v in obs.get("visible_hands") or []:
            known[v["seat"]] = [strength[c] for c in v["cards"]]
            seen.update(v["cards"])
    hidden = {s: sizes[s] for s in range(n) if s not in known and sizes[s] > 0}
    pool = [0] * (len(RANKS) + len(manilhas))
    for c in deck_of(obs):
        if c not in seen:
            pool[strength[c]] += 1
    to_play = [s for s in range(n) if s not in table_seats] if table_seats else []
    to_play.sort(key=lambda s: s not in known)
    covers_ok = obs.get("hand_kind", "normal") == "normal"
    return results, table, table_seats, to_play, known, hidden, pool, covers_ok


def outcomes(obs: dict, public: bool = False) -> frozenset[int]:
    """Every outcome the current hand can still reach from the view: team numbers (0, 1)
    and ``VOID``. Exact. Stops once two are found (then the hand is not settled, and the
    set holds those two). An observation whose hand is over, or whose view cannot know
    the cards' strengths, gives every outcome."""
    v = _view(obs, public)
    if v is None:
        return frozenset((0, 1, VOID))
    results, table, table_seats, to_play, known, hidden, pool, covers_ok = v
    n = obs["players"]
    done = hand_outcome(results, TIE, VOID)
    if done is not None:
        return frozenset((done,))
    best, bteam = -2, TIE
    for s, x in zip(table_seats, table):
        if x > best:
            best, bteam = x, s & 1
        elif x == best and (s & 1) != bteam:
            bteam = TIE
    if not table_seats:
        best = None  # a round not started
    hands = tuple(tuple(sorted(known[s])) if s in known else None for s in range(n))
    counts = tuple(hidden.get(s, 0) for s in range(n))
    sure = _two_sure_rounds(results, table_seats, known, hidden, pool, covers_ok, n)
    if sure is not None:
        return frozenset((sure,))
    found: set[int] = set()
    start = (tuple(results), best, bteam, tuple(to_play), hands, counts, tuple(pool))
    # first a short search aimed at each team's win (its seats play high, the others low
    # or covered): two outcomes found this way settle the question at once; else the
    # whole tree, which every settled position needs
    for target in (0, 1):
        if target in found:
            continue
        aimed = _Search(n, covers_ok, found, set(), target=target, budget=AIMED_BUDGET)
        aimed.round(*start)
        if len(found) >= 2:
            return frozenset(found)
    _Search(n, covers_ok, found, set()).round(*start)
    return frozenset(found)


AIMED_BUDGET = 150
"""Positions an aimed search may visit before the whole tree is searched."""


def _two_sure_rounds(results, table_seats, known, hidden, pool, covers_ok, n) -> int | None:
    """The team that surely wins a hand not started, where nobody may cover (a mão de dez,
    a mão de ferro, §4): one of its seats holds two cards no card the other team may still
    play reaches. Each of them takes the round it is played in, and at least one is played
    in the first two rounds, so every order of the three rounds gives that team the hand
    (§3). A shortcut for what the search proves slowly when many cards are hidden."""
    if results or table_seats or covers_ok:
        return None
    top_pool = max((v for v, c in enumerate(pool) if c), default=-2)
    for team in (0, 1):
        theirs = [max(known[s]) for s in known if s & 1 != team and known[s]]
        if any(s & 1 != team for s in hidden):
            theirs.append(top_pool)
        reach = max(theirs, default=-2)
        for s, cards in known.items():
            if s & 1 == team and sum(v > reach for v in cards) >= 2:
                return team
    return None


def settled(obs: dict, public: bool = False) -> int | None:
    """The team (0 or 1) that wins the current hand whichever way it goes from the view,
    ``VOID`` if every way voids it, ``None`` if it is not settled (see the module)."""
    out = outcomes(obs, public)
    return next(iter(out)) if len(out) == 1 else None


class _Stop(Exception):
    pass


class _Search:
    def __init__(self, n: int, covers_ok: bool, found: set, memo: set, target: int | None = None,
                 budget: int | None = None) -> None:
        self.n = n
        self.covers_ok = covers_ok
        self.found = found
        self.memo = memo
        self.target = target
        self.budget = budget
        self._order = None

    def order(self, hands) -> tuple:
        if self._order is None:
            self._order = tuple(sorted(range(self.n), key=lambda s: hands[s] is None))
        return self._order

    def _add(self, outcome: int) -> None:
        self.found.add(outcome)
        if len(self.found) >= 2 or outcome == self.target:
            raise _Stop

    def round(self, results, best, bteam, to_play, hands, counts, pool) -> None:
        try:
            self._round(results, best, bteam, to_play, hands, counts, pool)
        except _Stop:
            pass

    def _round(self, results, best, bteam, to_play, hands, counts, pool) -> None:
        """``best`` is None before the round's first card; ``to_play`` the seats still to
        play in it (every seat when it has not started)."""
        if best is None:  # known hands first: the hidden ones then see more of the round
            to_play = self.order(hands)
            best, bteam = -2, TIE
        key = (results, best, bteam, to_play, hands, counts, pool)
        if key in self.memo:
            return
        self.memo.add(key)
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                raise _Stop
        if not to_play:
            out = hand_outcome(list(results) + [bteam], TIE, VOID)
            if out is not None:
                self._add(out)
                return
            self._round(results + (bteam,), None, TIE, (), hands, counts, pool)
            return
        # can a card still to come change the round's result?
        top_pool = max((v for v, c in enumerate(pool) if c), default=-2)
        changeable = False
        for s in to_play:
            h = hands[s]
            top = (h[-1] if h else -2) if h is not None else (top_pool if counts[s] else -2)
            if bteam == TIE:
                if top > best:
                    changeable = True
                    break
            elif (s & 1) != bteam and top >= best:
                changeable = True
                break
        if not changeable:
            out = hand_outcome(list(results) + [bteam], TIE, VOID)
            if out is not None:  # the round ends the hand whatever else is played in it
                self._add(out)
                return
        s = to_play[0]
        rest = to_play[1:]
        cover = self.covers_ok and len(results) >= 1
        low_first = self.target is not None and (s & 1) != self.target
        h = hands[s]
        if h is not None:
            for x in sorted(set(h), reverse=not low_first):
                nh = list(h)
                nh.remove(x)
                nhands = hands[:s] + (tuple(nh),) + hands[s + 1:]
                for shown in ((COVERED, x) if low_first else (x, COVERED)):
                    if shown == COVERED and not cover:
                        continue
                    nb, nt = _after(best, bteam, s, shown)
                    self._round(results, nb, nt, rest, nhands, counts, pool)
            return
        if not counts[s]:  # defensive: a seat without cards still to play
            self._round(results, best, bteam, rest, hands, counts, pool)
            return
        ncounts = counts[:s] + (counts[s] - 1,) + counts[s + 1:]
        values = [v for v in range(len(pool)) if pool[v]]
        if not low_first:
            values.reverse()
        for x in values:
            npool = pool[:x] + (pool[x] - 1,) + pool[x + 1:]
            for shown in ((COVERED, x) if low_first else (x, COVERED)):
                if shown == COVERED and not cover:
                    continue
                nb, nt = _after(best, bteam, s, shown)
                self._round(results, nb, nt, rest, hands, ncounts, npool)


def _after(best: int, bteam: int, seat: int, x: int) -> tuple[int, int]:
    if x > best:
        return x, seat & 1
    if x == best and (seat & 1) != bteam:
        return best, TIE
    return best, bteam

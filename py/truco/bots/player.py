"""The heuristic bot of the three levels: fácil, médio, difícil.

One class, set by a :class:`Style`. Every decision reads only the observation (through
:mod:`.knowledge`) and the bot's own ``random.Random``:

- **card play** (RULES.md §2–§4): fácil plays its best card first and ignores its partner;
  médio follows table rules (win cheaply, duck when the round is lost or the partner holds
  it, save the manilha, tie when a tie wins); difícil tries every distinct card (and a
  covered one) on sampled deals of the unseen cards and keeps the one that wins the hand
  most often.
- **raises and answers** (§5): the chance of winning the hand comes from sampled deals
  played out (:mod:`.simulate`); points are weighed by the chance of winning the game
  from the score they lead to (:mod:`.utility`), so "accept anything when running loses
  the game" falls out of the arithmetic. Difícil also reads the table: a raise, an accept
  or a mão de dez played by another seat reweights the sampled deals towards the hands
  that seat would do it with, at the rate that team has shown (:mod:`.opponents`), and it
  raises when the opponents' answers make it pay, bluffs included.
- **mão de dez** (§6): play or run by the same arithmetic, with the partner's cards known.
- **mão de ferro no escuro** (§6): nothing to choose; a random position.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .knowledge import COVERED, TIE, Knowledge, read
from .opponents import Memory
from .simulate import (VOID, outcomes_after_play, outcomes_from_state, sample_worlds,
                       table_state)
from .utility import game_value


@dataclass(frozen=True)
class Style:
    """What makes a level."""

    name: str
    worlds: int
    """Sampled deals per decision."""
    card_play: str
    """``best_first``, ``rules`` or ``search``."""
    partner_aware: bool
    raise_at: float
    """Win chance from which a threshold bot asks for a raise."""
    accept_at: float
    """Win chance from which a threshold bot accepts."""
    reraise_at: float
    dez_at: float
    """Win chance from which a threshold bot plays a mão de dez."""
    score_aware: bool
    """Accept when running would lose the game."""
    reads_table: bool
    """Difícil: inference from other seats' raises/accepts and utility-based betting."""
    bluff: float
    """Chance of raising without the cards for it, where a bluff can work."""
    cover_rate: float
    """Chance of covering a card that loses the round anyway (hides weakness)."""


STYLES: dict[str, Style] = {
    "facil": Style("facil", worlds=16, card_play="best_first", partner_aware=False,
                   raise_at=0.82, accept_at=0.62, reraise_at=0.93, dez_at=0.6,
                   score_aware=False, reads_table=False, bluff=0.0, cover_rate=0.0),
    "medio": Style("medio", worlds=32, card_play="rules", partner_aware=True,
                   raise_at=0.70, accept_at=0.45, reraise_at=0.85, dez_at=0.48,
                   score_aware=True, reads_table=False, bluff=0.02, cover_rate=0.1),
    "dificil": Style("dificil", worlds=64, card_play="search", partner_aware=True,
                     raise_at=0.0, accept_at=0.0, reraise_at=0.0, dez_at=0.0,
                     score_aware=True, reads_table=True, bluff=0.07, cover_rate=0.4),
}

_EPS = 0.12
"""Floor of the likelihood of an action whatever the cards (bluffs exist)."""
_TAU = 0.09
"""Softness of the likelihood around its threshold, in units of :func:`hand_metric`."""


def hand_metric(cards: list[int], top: int) -> float:
    """A scalar hand strength: the best card counts most, the others less."""
    s = sorted(cards, reverse=True)
    m = 0.0
    w = 1.0
    for v in s:
        m += w * (v / top if v >= 0 else 0.0)
        w *= 0.5
    return m


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _weighted_quantile(values: list[float], weights: list[float], q: float) -> float:
    order = sorted(range(len(values)), key=values.__getitem__)
    total = sum(weights)
    if total <= 0:
        return values[order[len(order) // 2]]
    acc = 0.0
    target = q * total
    for i in order:
        acc += weights[i]
        if acc >= target:
            return values[i]
    return values[order[-1]]


class HeuristicBot:
    """A bot of one level. ``choose(observation) -> action``."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        self.style = style
        self.level = style.name
        self.rng = rng
        self.memory = Memory()

    # ----------------------------------------------------------------- entry
    def choose(self, obs: dict) -> str:
        """The action for this observation (always one of ``obs['legal_actions']``)."""
        legal = obs["legal_actions"]
        if not legal:
            raise ValueError("the observation has no legal action: it is not this seat's turn")
        if self.style.reads_table:
            self.memory.update(obs)
        if len(legal) == 1:
            return legal[0]
        k = read(obs)
        if k.blind:  # mão de ferro no escuro: every position is the same to us (§6)
            return self.rng.choice(legal)
        if obs.get("decision"):
            action = self._decide_dez(k)
        elif obs.get("pending"):
            action = self._answer(k, obs["pending"], legal)
        else:
            action = self._turn(k, legal)
        if action not in legal:  # defensive: never hand the engine an illegal move
            action = legal[0]
        return action

    # ------------------------------------------------------------- utilities
    def _gv(self, k: Knowledge):
        return game_value(k.obs["rules"])

    def _u(self, k: Knowledge, outcome: int, value: int) -> float:
        gv = self._gv(k)
        if outcome == VOID:
            return gv.win_prob(k.score_us, k.score_them)
        if outcome == k.team:
            return gv.win_prob(k.score_us + value, k.score_them)
        return gv.win_prob(k.score_us, k.score_them + value)

    def _expect(self, k: Knowledge, outs: list[int], weights: list[float], value: int) -> float:
        gv = self._gv(k)
        uw = gv.win_prob(k.score_us + value, k.score_them)
        ul = gv.win_prob(k.score_us, k.score_them + value)
        uv = gv.win_prob(k.score_us, k.score_them)
        tot = 0.0
        acc = 0.0
        for o, w in zip(outs, weights):
            tot += w
            acc += w * (uv if o == VOID else uw if o == k.team else ul)
        return acc / tot if tot else uv

    @staticmethod
    def _p(k: Knowledge, outs: list[int], weights: list[float]) -> float:
        tot = 0.0
        acc = 0.0
        for o, w in zip(outs, weights):
            tot += w
            acc += w * (0.5 if o == VOID else 1.0 if o == k.team else 0.0)
        return acc / tot if tot else 0.5

    def _worlds(self, k: Knowledge):
        worlds = sample_worlds(k, self.rng, self.style.worlds)
        if self.style.reads_table:
            weights = self._infer(k, worlds)
        else:
            weights = [1.0] * len(worlds)
        return worlds, weights

    # ------------------------------------------------------------- inference
    def _infer(self, k: Knowledge, worlds: list[list[list[int]]]) -> list[float]:
        """Reweight sampled deals by how likely each seat's visible choices were in them.

        A seat that raised, accepted, raised back or played a mão de dez is taken to do so
        with its best hands, at the rate its team has shown, with a floor for bluffs.
        """
        weights = [1.0] * len(worlds)
        log = k.obs.get("log") or []
        start = 0
        for i in range(len(log) - 1, -1, -1):
            if log[i]["type"] == "deal":
                start = i
                break
        pending = False
        events: list[tuple[int, int, float]] = []  # (log position, seat, rate)
        for i in range(start + 1, len(log)):
            e = log[i]
            t = e["type"]
            if t not in ("raise", "accept"):
                if t == "run":
                    pending = False
                continue
            s = e["seat"]
            if t == "raise":
                counter = pending
                pending = True
            else:
                counter = False
                pending = False
            if s == k.seat or s not in k.unknown_sizes:
                continue
            stats = self.memory.teams[s % 2]
            if s % 2 == k.team:  # partner: assume an honest, fairly tight player
                rate = 0.4 if t == "raise" else 0.7
            elif e.get("mao_de_dez"):
                rate = 0.75
            elif t == "raise":
                rate = stats.counter_rate() if counter else stats.raise_rate()
            else:
                rate = 1.0 - stats.run_rate()
            events.append((i, s, min(0.97, max(0.03, rate))))
        if not events:
            return weights
        top = k.top_strength
        for pos, s, rate in events:
            later = [v for (p, v) in k.played.get(s, []) if p > pos]
            metrics = [hand_metric(w[s] + later, top) for w in worlds]
            q = _weighted_quantile(metrics, weights, 1.0 - rate)
            for j, m in enumerate(metrics):
                weights[j] *= _EPS + (1.0 - _EPS) * _sigmoid((m - q) / _TAU)
        return weights

    def _run_probs(self, k: Knowledge, worlds, weights, seat: int, rate: float) -> list[float]:
        """Per deal, the chance that ``seat`` runs from a request, if it runs with its
        weakest hands at ``rate``."""
        top = k.top_strength
        metrics = [hand_metric(w[seat], top) for w in worlds]
        q = _weighted_quantile(metrics, weights, min(0.97, max(0.03, rate)))
        return [_sigmoid((q - m) / _TAU) for m in metrics]

    # ------------------------------------------------------------- mão de dez
    def _decide_dez(self, k: Knowledge) -> str:
        """RULES.md §6: play for mão_de_x_value or give the opponents mao_de_x_run_gives."""
        rules = k.obs["rules"]
        worlds, weights = self._worlds(k)
        outs = outcomes_from_state(k, worlds)
        if self.style.reads_table or self.style.score_aware:
            play = self._expect(k, outs, weights, rules["mao_de_x_value"])
            run = self._u(k, 1 - k.team, rules["mao_de_x_run_gives"])
            if not self.style.reads_table:
                p = self._p(k, outs, weights)
                return "accept" if p >= self.style.dez_at or play >= run + 0.05 else "run"
            return "accept" if play >= run else "run"
        p = self._p(k, outs, weights)
        return "accept" if p >= self.style.dez_at else "run"

    # ------------------------------------------------------------------ answer
    def _answer(self, k: Knowledge, pending: dict, legal: list[str]) -> str:
        """RULES.md §5: accept, run (the askers score the current value) or raise back."""
        st = self.style
        worlds, weights = self._worlds(k)
        outs = outcomes_from_state(k, worlds)
        v_now = k.value
        v_ask = pending["value"]
        nxt = k.obs.get("next_raise")
        if st.reads_table:
            run = self._u(k, 1 - k.team, v_now)
            acc = self._expect(k, outs, weights, v_ask)
            best, action = run, "run"
            if acc >= best:
                best, action = acc, "accept"
            if "raise" in legal and nxt:
                rate = self.memory.teams[1 - k.team].run_rate() * 0.8
                runp = self._run_probs(k, worlds, weights, pending["asker"], rate)
                uw = self._u(k, k.team, v_ask)
                tot = sum(weights)
                ev = 0.0
                for o, w, r in zip(outs, weights, runp):
                    ev += w * (r * uw + (1 - r) * self._u(k, o, nxt["value"]))
                ev /= tot
                if ev > best + 0.005:
                    action = "raise"
            return action
        p = self._p(k, outs, weights)
        if st.score_aware and self._u(k, 1 - k.team, v_now) == 0.0:
            # running loses the game: play on, and raise if there is anything to gain
            return "raise" if "raise" in legal and p >= 0.5 else "accept"
        if "raise" in legal and p >= st.reraise_at:
            return "raise"
        return "accept" if p >= st.accept_at else "run"

    # -------------------------------------------------------------------- turn
    def _turn(self, k: Knowledge, legal: list[str]) -> str:
        st = self.style
        can_raise = "raise" in legal
        if st.card_play == "search":
            worlds, weights = self._worlds(k)
            card, covered, outs = self._search_card(k, legal, worlds, weights)
        else:
            card, covered = (self._best_first(k) if st.card_play == "best_first"
                             else self._rules_card(k))
            outs = None
            if can_raise:
                worlds, weights = self._worlds(k)
                s = k.strength[card]
                outs = outcomes_after_play(k, worlds, s, COVERED if covered else s)
        if can_raise and self._should_raise(k, worlds, weights, outs):
            return "raise"
        if covered and ("cover " + card) in legal:
            return "cover " + card
        return "play " + card

    def _should_raise(self, k: Knowledge, worlds, weights, outs) -> bool:
        st = self.style
        nxt = k.obs.get("next_raise")
        if not nxt:
            return False
        if not st.reads_table:
            p = self._p(k, outs, weights)
            if p >= st.raise_at:
                return True
            return k.round_index >= 1 and p < 0.3 and self.rng.random() < st.bluff
        v_now, v_next = k.value, nxt["value"]
        stay = self._expect(k, outs, weights, v_now)
        them = self.memory.teams[1 - k.team]
        answerer = (k.seat + 1) % k.players
        runp = self._run_probs(k, worlds, weights, answerer, them.run_rate())
        uw = self._u(k, k.team, v_now)
        tot = sum(weights)
        ev = 0.0
        for o, w, r in zip(outs, weights, runp):
            ev += w * (r * uw + (1 - r) * self._u(k, o, v_next))
        ev /= tot
        if ev > stay + 0.003:
            return True
        # a measured bluff: only where a run is plausible and the hand is not hopeless
        if st.bluff and k.round_index >= 1 and them.run_rate() > 0.2:
            return self.rng.random() < st.bluff
        return False

    # ------------------------------------------------------------- card play
    def _cards_by_strength(self, k: Knowledge) -> list[str]:
        return sorted(k.hand, key=lambda c: (k.strength[c], c))

    def _best_first(self, k: Knowledge) -> tuple[str, bool]:
        """Fácil: lead with the best card; follow with the best card if it wins, else the
        weakest. Does not look at who holds the round."""
        cards = self._cards_by_strength(k)
        if not k.plays:
            return cards[-1], False
        best, _ = table_state(k.plays)
        if k.strength[cards[-1]] > best:
            return cards[-1], False
        return cards[0], False

    def _rules_card(self, k: Knowledge) -> tuple[str, bool]:
        """Médio: the table rules a decent player follows (RULES.md §2–§4)."""
        cards = self._cards_by_strength(k)
        S = k.strength
        vals = [S[c] for c in cards]
        low = cards[0]
        r = k.round_index
        n = k.players
        team = k.team
        can_cover = k.kind == "normal" and r >= 1
        strong = k.top_strength - len(k.obs["rules"]["manilhas"])  # the best common rank
        if not k.plays:
            if r == 0:
                if len(cards) == 3:
                    if n > 2:
                        return cards[1], False
                    # 1 x 1: win the first round with the best card short of a manilha
                    return (cards[1] if vals[2] > strong else cards[2]), False
                return cards[-1], False
            if k.results[0] == team:
                # a win or a tie closes the hand: lead the best only if nothing unseen beats it
                if max(k.pool, default=-1) < vals[-1]:
                    return cards[-1], False
                return low, (can_cover and self.rng.random() < self.style.cover_rate)
            return cards[-1], False
        best, bteam = table_state(k.plays)
        seats_after = [(k.seat + i) % n for i in range(1, n - len(k.plays))]
        opp_after = any(s % 2 != team for s in seats_after)
        if bteam == team:
            if not opp_after or best >= strong - 1:
                return low, False
            winners = [c for c, v in zip(cards, vals) if v > best and v >= strong - 1]
            return (winners[0] if winners else low), False
        winners = [c for c, v in zip(cards, vals) if v > best]
        if winners:
            return winners[0], False
        ties = [c for c, v in zip(cards, vals) if v == best]
        if ties and bteam != TIE:
            if r == 0 or k.results[0] == team or k.results[0] == TIE:
                return ties[0], False
        return low, (can_cover and self.rng.random() < self.style.cover_rate)

    def _search_card(self, k: Knowledge, legal: list[str], worlds, weights):
        """Difícil: play out every distinct card (and covering the weakest) on the sampled
        deals; keep the best, the cheaper card on near-ties."""
        S = k.strength
        cards = self._cards_by_strength(k)
        options: list[tuple[str, bool, int, int]] = []  # card, covered, removed, shown
        seen: set[int] = set()
        for c in cards:
            if S[c] in seen:
                continue
            seen.add(S[c])
            options.append((c, False, S[c], S[c]))
        if ("cover " + cards[0]) in legal:
            options.append((cards[0], True, S[cards[0]], COVERED))
        if len(options) == 1:
            c, cov, rem, shown = options[0]
            return c, cov, outcomes_after_play(k, worlds, rem, shown)
        scored = []
        for c, cov, rem, shown in options:
            outs = outcomes_after_play(k, worlds, rem, shown)
            scored.append((self._p(k, outs, weights), c, cov, outs))
        top = max(s[0] for s in scored)
        # cheapest card within a whisker of the best: save strength for later rounds
        for p, c, cov, outs in scored:
            if not cov and p >= top - 0.015:
                chosen = (c, cov, outs)
                break
        else:
            p, c, cov, outs = max(scored, key=lambda s: s[0])
            chosen = (c, cov, outs)
        # hide a card that loses the round anyway
        c, cov, outs = chosen
        if not cov and c == cards[0] and k.plays:
            cover = [s for s in scored if s[2]]
            if cover and cover[0][0] >= top - 0.015 and self.rng.random() < self.style.cover_rate:
                best, _ = table_state(k.plays)
                if S[c] < best:
                    return c, True, cover[0][3]
        return chosen

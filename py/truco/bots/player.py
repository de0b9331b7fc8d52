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

from .knowledge import COVERED, TIE, Knowledge, manilhas_of, read, strength_table
from .opponents import Memory
from .perceive import beat_table, perceived
from .signal_play import taker_after
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
    edge: float = 0.5
    """The chance the bot expects to win a future hand: how much it values the rest of
    the game against gambling it on this hand (:mod:`.utility`)."""


STYLES: dict[str, Style] = {
    "facil": Style("facil", worlds=16, card_play="best_first",
                   raise_at=0.82, accept_at=0.62, reraise_at=0.93, dez_at=0.6,
                   score_aware=False, reads_table=False, bluff=0.0, cover_rate=0.0),
    "medio": Style("medio", worlds=32, card_play="rules",
                   raise_at=0.70, accept_at=0.45, reraise_at=0.85, dez_at=0.48,
                   score_aware=True, reads_table=False, bluff=0.02, cover_rate=0.1),
    "dificil": Style("dificil", worlds=64, card_play="search",
                     raise_at=0.0, accept_at=0.0, reraise_at=0.0, dez_at=0.0,
                     score_aware=True, reads_table=True, bluff=0.07, cover_rate=0.4,
                     edge=0.56),
}

_FLOOR = 0.03
"""Likelihood of a raise or an accept whatever the cards: bluffs exist."""
_TAU = 0.05
"""Softness of a seat's decision around its threshold, in units of perceived win chance."""


def _weighted_quantile(values: list[float], weights: list[float], q: float) -> float:
    """The value below which a share ``q`` of the total weight lies."""
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


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


@dataclass(frozen=True)
class Thresholds:
    """How a team is expected to decide, in perceived win chance (see :func:`perceived`)."""

    raise_at: float
    accept_at: float
    counter_at: float


def thresholds(stats) -> Thresholds:
    """Thresholds of a team, shifted by how often it has run and raised back."""
    return Thresholds(
        raise_at=0.64,
        accept_at=_clamp(0.40 + 0.9 * (stats.run_rate() - 0.2), 0.03, 0.97),
        counter_at=_clamp(0.80 - 1.0 * (stats.counter_rate() - 0.2), 0.1, 0.97),
    )


def noise_of(stats) -> float:
    """How little a team's raises and accepts say about its cards, from 0 (a player who
    bets on its cards) to 1 (bets that are coin flips), from what it showed this match:
    careless card play, raises that lose at showdown, raising back far more often than an
    honest player does (one that always raises back says nothing by it), covering cards
    far more often than a careful player (one in five for random play), and bets seen
    made with a weak hand once its cards were shown."""
    care = stats.carelessness(prior=0.05)  # evidence only, no benefit of doubt
    bluffy = _clamp((0.8 - stats.honesty()) / 0.45, 0.0, 1.0)
    counters = _clamp((stats.counter_rate() - 0.22) / 0.25, 0.0, 1.0)
    weak = _clamp((stats.bluff_share() - 0.1) / 0.3, 0.0, 1.0)
    covers = _clamp((stats.cover_share() - 0.06) / 0.1, 0.0, 1.0)
    return max(care, bluffy, counters, weak, covers, stats.random_share())


PARTNER = Thresholds(raise_at=0.62, accept_at=0.42, counter_at=0.8)
"""What a bot assumes of its partner: a tight, honest player."""


class HeuristicBot:
    """A bot of one level. ``choose(observation) -> action``."""

    noisy_edge = 0.70
    """The hand-win chance expected against a team that bets and plays at random."""

    shrink_base = 0.2
    """Win chance taken off when opponents have shown strength this hand: even after the
    reweighting, sampled deals flattered us by 0.1 to 0.2 (measured against médio's
    raises). Scaled by the posterior that the bet was made on the cards at all, so a
    bet that is likelier a bluff (a noisy team's, or one the cards shown since belie)
    costs little: against ``random`` 2 x 2, +0.65 +- 0.61 and +1.10 +- 0.65 points on two
    seeds of 2,000 mirrored games; against médio -0.65 +- 0.96 and -0.20 +- 1.04."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        self._noise: list[float] | None = None
        self._coins: list[list[float]] | None = None
        self._covers: list[float] | None = None
        self._shrink = 0.0
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
            self.memory.update(obs, strength_table(manilhas_of(obs)), manilhas_of(obs))
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
        edge = self.style.edge
        if self.style.reads_table:
            # against a team whose bets are noise or whose card play is careless we are
            # the better side: expect more of the hands to come and gamble the lead less
            # (following the hands won instead was measured weaker: a game is too short)
            them = self.memory.teams[1 - k.team]
            edge += (self.noisy_edge - edge) * noise_of(them)
            edge = round(edge * 50) / 50  # steps of 0.02: few game-value tables to build
        return game_value(k.obs["rules"], edge)

    def _u(self, k: Knowledge, outcome: int, value: int) -> float:
        gv = self._gv(k)
        if outcome == VOID:
            return gv.win_prob(k.score_us, k.score_them)
        if outcome == k.team:
            return gv.win_prob(k.score_us + value, k.score_them)
        return gv.win_prob(k.score_us, k.score_them + value)

    def _expect(self, k: Knowledge, outs: list[int], weights: list[float], value: int,
                shrink: float = 0.0) -> float:
        """Expected game value of playing the hand out for ``value`` points; ``shrink``
        moves that much win chance to the opponents (a margin against over-confidence)."""
        gv = self._gv(k)
        uw = gv.win_prob(k.score_us + value, k.score_them)
        ul = gv.win_prob(k.score_us, k.score_them + value)
        uv = gv.win_prob(k.score_us, k.score_them)
        tot = win = void = 0.0
        for o, w in zip(outs, weights):
            tot += w
            if o == VOID:
                void += w
            elif o == k.team:
                win += w
        if not tot:
            return uv
        pw = max(0.0, win / tot - shrink)
        pv = void / tot
        return pw * uw + pv * uv + (1.0 - pw - pv) * ul

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
        self._noise = None
        self._coins = None
        self._covers = None
        if self.style.reads_table:
            weights = self._infer(k, worlds)
            them = self.memory.teams[1 - k.team]
            care = max(them.carelessness(), them.random_share())
            if care > 0.05:
                self._noise = [care if s % 2 != k.team else 0.0 for s in range(k.players)]
                if k.obs.get("hand_kind", "normal") == "normal":
                    # the covers it was seen to make, as a share of its careless cards
                    cover = min(1.0, them.late_cover_share() / care)
                    self._covers = [cover if s % 2 != k.team else 0.0 for s in range(k.players)]
                rnd = self.rng.random
                m = 6 * k.players
                self._coins = [[rnd() for _ in range(m)] for _ in worlds]
        else:
            weights = [1.0] * len(worlds)
        return worlds, weights

    def _after(self, k: Knowledge, worlds, removed: int, shown: int) -> list[int]:
        return outcomes_after_play(k, worlds, removed, shown, self._noise, self._coins,
                                   self._covers)

    def _from_state(self, k: Knowledge, worlds) -> list[int]:
        return outcomes_from_state(k, worlds, self._noise, self._coins, self._covers)

    # ------------------------------------------------------------- inference
    def _beat(self, k: Knowledge) -> tuple[float, ...]:
        return beat_table(manilhas_of(k.obs))

    def _infer(self, k: Knowledge, worlds: list[list[list[int]]]) -> list[float]:
        """Reweight sampled deals by how likely each seat's visible choices were in them.

        A seat that raised, accepted, raised back or played a mão de dez is taken to do so
        when its perceived chance (:func:`perceived`) passes its team's threshold, with a
        floor for bluffs.
        """
        weights = [1.0] * len(worlds)
        log = k.obs.get("log") or []
        start = 0
        for i in range(len(log) - 1, -1, -1):
            if log[i]["type"] == "deal":
                start = i
                break
        pending = False
        results: list[int] = []
        events: list[tuple[int, int, float, list[int]]] = []  # position, seat, threshold, results
        for i in range(start + 1, len(log)):
            e = log[i]
            t = e["type"]
            if t == "round":
                r = e["result"]
                results.append(TIE if r == "tie" else r % 2 if isinstance(r, int) else TIE)
                continue
            if t == "run":
                pending = False
                continue
            if t not in ("raise", "accept"):
                continue
            s = e["seat"]
            counter = t == "raise" and pending
            pending = t == "raise"
            if s == k.seat or s not in k.unknown_sizes:
                continue
            th = PARTNER if s % 2 == k.team else thresholds(self.memory.teams[s % 2])
            if e.get("mao_de_dez"):
                thr = 0.45
            elif t == "raise":
                thr = th.counter_at if counter else th.raise_at
            else:
                thr = th.accept_at
            events.append((i, s, thr, list(results)))
        self._shrink = 0.0
        if not events:
            return weights
        beat = self._beat(k)
        n = k.players
        honest = 0.0  # how credible the likeliest honest reading of an opponent's bet is
        for pos, s, thr, res in events:
            later = [v for (p, v) in k.played.get(s, []) if p > pos]
            team = s % 2
            # a careless card player is taken to bet carelessly too: its choices say less
            if team == k.team:
                floor = _FLOOR
            else:
                stats = self.memory.teams[team]
                noise = noise_of(stats)
                floor = noise + (1.0 - noise) * _FLOOR
            fits = 0.0
            for j, w in enumerate(worlds):
                ps = perceived(w[s] + later, res, team, n, beat)
                fit = _sigmoid((ps - thr) / _TAU)
                fits += fit
                weights[j] *= floor + (1.0 - floor) * fit
            if team != k.team:
                # posterior that this bet was made on the cards rather than regardless of
                # them: low for a noisy team, and low when the cards it has shown since
                # leave few hands it would have made it with
                on_cards = (1.0 - floor) * fits / len(worlds)
                honest = max(honest, on_cards / (on_cards + floor) if on_cards else 0.0)
        self._shrink = self.shrink_base * honest
        return weights

    @staticmethod
    def _raised_this_hand(k: Knowledge, team: int) -> bool:
        log = k.obs.get("log") or []
        for i in range(len(log) - 1, -1, -1):
            e = log[i]
            if e["type"] == "deal":
                return False
            if e["type"] == "raise" and e["seat"] % 2 == team:
                return True
        return False

    def _responses(self, k: Knowledge, worlds, weights, seat: int) -> list[tuple[float, float, float]]:
        """Per deal, (run, accept, raise back) chances of ``seat`` answering a request.

        The seat is taken to run with its weakest hands and raise back with its best, at
        the rates its team has shown: the thresholds are quantiles of its perceived
        chance over the sampled deals, so they follow the situation.
        """
        stats = self.memory.teams[seat % 2]
        beat = self._beat(k)
        ps = [perceived(w[seat], k.results, seat % 2, k.players, beat) for w in worlds]
        run_rate = stats.run_rate()
        if self._raised_this_hand(k, seat % 2):
            run_rate *= 0.3  # a team that asked for more this hand seldom runs from it
        q_run = _weighted_quantile(ps, weights, _clamp(run_rate, 0.01, 0.99))
        q_up = _weighted_quantile(ps, weights, _clamp(1.0 - stats.counter_rate(), 0.01, 0.99))
        q_up = max(q_up, q_run)
        care = stats.carelessness()
        flat_up = stats.counter_rate()
        flat_run = min(run_rate, 1.0 - flat_up)
        out = []
        for x in ps:
            go = _sigmoid((x - q_run) / _TAU)
            up = go * _sigmoid((x - q_up) / _TAU)
            run = (1.0 - care) * (1.0 - go) + care * flat_run
            up = (1.0 - care) * up + care * flat_up
            out.append((run, 1.0 - run - up, up))
        return out

    def _raise_ev(self, k: Knowledge, worlds, weights, outs, answerer: int,
                  v_now: int, v_up: int, v_next: int | None) -> float:
        """Expected game value of asking ``v_up`` now (the hand being worth ``v_now``):
        the answerer runs, accepts, or raises back to ``v_next`` (then we take the better
        of running and accepting, judged on the deals where it would raise back)."""
        resp = self._responses(k, worlds, weights, answerer)
        tot = sum(weights)
        if not tot:
            return self._u(k, k.team, v_now)
        w_run = [w * r[0] for w, r in zip(weights, resp)]
        w_acc = [w * r[1] for w, r in zip(weights, resp)]
        w_up = [w * r[2] for w, r in zip(weights, resp)]
        s_run, s_acc, s_up = sum(w_run), sum(w_acc), sum(w_up)
        ev = s_run * self._u(k, k.team, v_now)
        if s_acc:
            ev += s_acc * self._expect(k, outs, w_acc, v_up, self._shrink + 0.04)
        if s_up:
            if v_next is None:
                ev += s_up * self._expect(k, outs, w_up, v_up, self._shrink + 0.04)
            else:
                ev += s_up * max(self._u(k, 1 - k.team, v_up),
                                 self._expect(k, outs, w_up, v_next, self._shrink + 0.1))
        return ev / tot

    # ------------------------------------------------------------- mão de dez
    def _decide_dez(self, k: Knowledge) -> str:
        """RULES.md §6: play for mão_de_x_value or give the opponents mao_de_x_run_gives."""
        rules = k.obs["rules"]
        worlds, weights = self._worlds(k)
        outs = self._from_state(k, worlds)
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
        outs = self._from_state(k, worlds)
        v_now = k.value
        v_ask = pending["value"]
        nxt = k.obs.get("next_raise")
        if st.reads_table:
            run = self._u(k, 1 - k.team, v_now)
            acc = self._expect(k, outs, weights, v_ask, self._shrink)
            best, action = run, "run"
            if acc >= best:
                best, action = acc, "accept"
            if "raise" in legal and nxt:
                ladder = [step["value"] for step in k.obs["rules"]["ladder"]]
                i = ladder.index(nxt["value"])
                v_next = ladder[i + 1] if i + 1 < len(ladder) else None
                ev = self._raise_ev(k, worlds, weights, outs, pending["asker"], v_ask,
                                    nxt["value"], v_next)
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
                outs = self._after(k, worlds, s, COVERED if covered else s)
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
        v_now, v_up = k.value, nxt["value"]
        ladder = [step["value"] for step in k.obs["rules"]["ladder"]]
        i = ladder.index(v_up)
        v_next = ladder[i + 1] if i + 1 < len(ladder) else None
        stay = self._expect(k, outs, weights, v_now, self._shrink)
        answerer = (k.seat + 1) % k.players
        ev = self._raise_ev(k, worlds, weights, outs, answerer, v_now, v_up, v_next)
        if ev > stay + 0.003:
            return True
        # a measured bluff, where a run is plausible and it costs little
        them = self.memory.teams[1 - k.team]
        if st.bluff and k.round_index >= 1 and them.run_rate() > 0.3 and ev > stay - 0.04:
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
        strong = k.top_strength - len(manilhas_of(k.obs))  # the best common rank
        if not k.plays:
            if r == 0:
                if len(cards) == 3:
                    if n > 2:
                        if taker_after(k) == team:  # sinais: lead low to the partner's sure card
                            return low, False
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
        if taker_after(k) is not None:  # sinais: a seat after us surely takes the round
            return low, False
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
            return c, cov, self._after(k, worlds, rem, shown)
        scored = []
        for c, cov, rem, shown in options:
            outs = self._after(k, worlds, rem, shown)
            scored.append((self._p(k, outs, weights), c, cov, outs))
        top = max(s[0] for s in scored)
        near = [s for s in scored if not s[2] and s[0] >= top - 0.01]
        if not near:
            near = [max(scored, key=lambda s: s[0])]
        # on a near-tie, the table rules decide; else the cheapest card saves strength
        rule_card, _ = self._rules_card(k)
        pick = next((s for s in near if s[1] == rule_card), near[0])
        chosen = (pick[1], pick[2], pick[3])
        # hide a card that loses the round anyway
        c, cov, outs = chosen
        if not cov and c == cards[0] and k.plays:
            cover = [s for s in scored if s[2]]
            if cover and cover[0][0] >= top - 0.015 and self.rng.random() < self.style.cover_rate:
                best, _ = table_state(k.plays)
                if S[c] < best:
                    return c, True, cover[0][3]
        return chosen

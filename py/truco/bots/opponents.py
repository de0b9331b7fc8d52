"""What a bot remembers of the other players: how often each team raises, accepts, runs.

Built only from the observations the bot was shown: each one's ``history`` (the public
events of the match's earlier hands) and ``log`` (since the previous deal), so a bot made
afresh for one move (as the web app does) knows the table as well as one that sat through
the whole match. A counter-raise is a raise while a request of
the other team is pending (RULES.md §5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .knowledge import TIE
from .perceive import beat_table, perceived


CARE_PRIOR = 0.3
"""Pseudo-count of wasted plays before any is seen (0.3 in 2 follows reads as 30%
careless): until a team shows careful play, it is not assumed to be flawless."""


RANDOM_PRIOR = 0.3
"""Chance, before any evidence, that a team acts without regard to its cards. A game is
4 to 8 hands, too short to wait for proof: difícil against ``random`` (2 x 2, 2,000
mirrored games) won 92.0% with 0.1, 94.1% with 0.3 and 94.3% with 0.55, while against
médio 0.55 cost 2 points (53.5%) and 0.3 nothing measurable (56.0% against 55.5%)."""

# Likelihood ratios of one observed event: (a team choosing uniformly among its legal
# actions) / (a team acting on its cards). Measured rates: a random player wastes half of
# its judged follows, covers about one card in six, raises back a third of the requests;
# médio and difícil waste 4-5% of follows, cover 1-4% of their cards, raise back 10-17%.
_LOG_LR = {
    "waste": math.log(0.5 / 0.06),
    "keep": math.log(0.5 / 0.94),
    "cover": math.log(0.17 / 0.05),
    "counter": math.log((1 / 3) / 0.15),
    "accept": math.log((1 / 3) / 0.5),
    "run": math.log((1 / 3) / 0.35),
    "weak_bet": math.log(0.5 / 0.12),
    "strong_bet": math.log(0.5 / 0.88),
    "weak_accept": math.log(0.5 / 0.12),
    "strong_accept": math.log(0.5 / 0.88),
}


@dataclass
class TeamStats:
    """Counts for one team, with Beta-like priors folded into the rates."""

    hands: int = 0
    raised_hands: int = 0
    accepts: int = 0
    runs: int = 0
    counters: int = 0
    showdowns: int = 0
    """Hands this team opened the raising in that were then played out to the end."""
    showdown_wins: int = 0
    follows: int = 0
    """Face-up plays following in a round while holding a lower card shown later."""
    wastes: int = 0
    """Of those, plays of the higher card where it could not take the round for the team."""

    cards: int = 0
    """Cards this team played, face up or covered."""
    covers: int = 0
    """Of those, covered: a careful player covers only a card that loses anyway, seldom."""
    late_cards: int = 0
    """Cards this team played from the 2nd round of a normal hand on, where it may cover
    (RULES.md §4)."""
    bets_judged: int = 0
    """Raises (first or back) by this team whose hand was seen whole afterwards."""
    bets_weak: int = 0
    """Of those, made with a hand the bettor could not think strong (:func:`perceived`)."""
    accepts_judged: int = 0
    accepts_weak: int = 0

    def cover_share(self) -> float:
        """Share of its cards the team plays covered (random play covers about one in five)."""
        return self.covers / (self.cards + 2.0)

    def late_cover_share(self) -> float:
        """Share of the cards it may cover that the team covers: about half for a player
        pressing any button, none for one that never covers. No benefit of the doubt."""
        return self.covers / (self.late_cards + 2.0)

    def bluff_share(self) -> float:
        """Share of its raises the team makes without the cards for them, judged on the
        hands it later showed whole: near 0.05 for an honest player, 1/2 for a random one."""
        return (self.bets_weak + 0.3) / (self.bets_judged + 3.0)

    def loose_share(self) -> float:
        """Share of its accepts the team makes with a hand it could not think good."""
        return (self.accepts_weak + 0.3) / (self.accepts_judged + 3.0)

    def raise_rate(self) -> float:
        """Share of hands in which the team asks for a raise first."""
        return (self.raised_hands + 0.6) / (self.hands + 2.0)

    def honesty(self, prior: float = 1.5) -> float:
        """Share of the hands it raised (and played out) that the team won: near 1 for a
        player that raises on strength, near 1/2 or below for a bluffer or a random one.
        ``prior``: wins credited out of 2 before any showdown."""
        return (self.showdown_wins + prior) / (self.showdowns + 2.0)

    def answers(self) -> int:
        return self.accepts + self.runs + self.counters

    def run_rate(self) -> float:
        """Share of requests the team runs from."""
        return (self.runs + 0.4) / (self.answers() + 2.0)

    def counter_rate(self) -> float:
        """Share of requests the team answers with a raise."""
        return (self.counters + 0.4) / (self.answers() + 2.0)

    def random_share(self, prior: float = RANDOM_PRIOR, first_hand_prior: float | None = None,
                     late_card_careful: float | None = None) -> float:
        """Posterior chance that the team picks its actions at random (a beginner pressing
        buttons, or the arena's ``random`` / ``passive`` baselines) rather than on its
        cards: every card play, answer, cover and judged bet is weighed as evidence for
        one or the other. Measured at the start of each hand (40 games): against
        ``random`` 0.30, 0.54, 0.68, 0.76 at hands 1-4; against médio 0.30, 0.28, 0.26,
        0.23. It reaches the rollouts' carelessness and :func:`noise_of` (how little the
        team's bets say), where a pure waste count would lag by hands.

        ``prior``: the chance before any evidence; ``first_hand_prior``: the prior instead
        while the team has been seen in its first normal hand only; ``late_card_careful``:
        weigh every card played from the 2nd round of a normal hand, covered or face up,
        against a careful team covering that share of them (random play covers half),
        instead of the covers alone (the knobs of :class:`truco.bots.player.LevelSettings`)."""
        if first_hand_prior is not None and self.hands <= 1:
            prior = first_hand_prior
        lr = _LOG_LR
        log_odds = (math.log(prior / (1.0 - prior))
                    + self.wastes * lr["waste"] + (self.follows - self.wastes) * lr["keep"]
                    + self.covers * lr["cover"]
                    + self.counters * lr["counter"] + self.accepts * lr["accept"]
                    + self.runs * lr["run"]
                    + self.bets_weak * lr["weak_bet"]
                    + (self.bets_judged - self.bets_weak) * lr["strong_bet"]
                    + self.accepts_weak * lr["weak_accept"]
                    + (self.accepts_judged - self.accepts_weak) * lr["strong_accept"])
        log_odds = max(-30.0, min(30.0, log_odds))
        share = 1.0 / (1.0 + math.exp(-log_odds))
        if late_card_careful is None:
            return share
        p = min(max(share, 1e-13), 1.0 - 1e-13)
        covered = math.log(0.5 / late_card_careful)
        face_up = math.log(0.5 / (1.0 - late_card_careful))
        log_odds = (math.log(p / (1.0 - p)) - self.covers * lr["cover"]
                    + self.covers * covered + (self.late_cards - self.covers) * face_up)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, log_odds))))

    def carelessness(self, prior: float | None = None) -> float:
        """Estimated share of careless (random-looking) card plays, from 0 to 1.

        A careful player who cannot take the round, or whose partner holds it, plays a low
        card; wasting a higher one while holding a lower one is what random play does
        about half the time.
        """
        rate = (self.wastes + (CARE_PRIOR if prior is None else prior)) / (self.follows + 2.0)
        return min(1.0, rate / 0.5)


class Memory:
    """Per-team statistics, fed with observations in the order the bot sees them."""

    def __init__(self) -> None:
        self.teams = (TeamStats(), TeamStats())
        self._done: dict[tuple[int, int], int] = {}  # (game, hand) -> events already counted

    def update(self, obs: dict, strength: dict[str, int] | None = None,
               manilhas: tuple[str, ...] | None = None) -> None:
        """Count the events of ``obs['log']`` not counted yet. With ``strength`` (card ->
        strength), also judge finished hands' card plays (:meth:`TeamStats.carelessness`)."""
        # the earlier hands (public history), then the recent log; a hand is keyed by
        # (game, hand) so a series' games do not collide
        log = (obs.get("history") or []) + (obs.get("log") or [])
        # the current hand's manilhas judge past hands too: exact for fixed-manilha presets,
        # an approximation where a vira changes them every hand
        beat = beat_table(manilhas) if manilhas is not None else None
        hand_no = None
        idx = 0
        seg_start = 0
        pending_team: int | None = None
        raised: set[int] = set()
        normal = False
        rounds = 0
        for pos, e in enumerate(log):
            t = e["type"]
            if t == "deal":
                hand_no = (e.get("game_number", 1), e["hand_number"])
                idx = 0
                seg_start = pos
                pending_team = None
                raised = set()
                normal = e.get("kind") == "normal"
                rounds = 0
                if hand_no not in self._done:
                    self._done[hand_no] = 0
                    if e.get("kind") == "normal":
                        for ts in self.teams:
                            ts.hands += 1
                continue
            if hand_no is None:
                continue
            idx += 1
            fresh = idx > self._done[hand_no]
            if fresh:
                self._done[hand_no] = idx
            if t == "round":
                rounds += 1
            if t in ("play", "cover") and fresh:
                team = e["seat"] % 2
                self.teams[team].cards += 1
                self.teams[team].covers += t == "cover"
                self.teams[team].late_cards += normal and rounds >= 1
            if t == "raise":
                team = e["seat"] % 2
                if pending_team is None:
                    if team not in raised:
                        raised.add(team)
                        if fresh:
                            self.teams[team].raised_hands += 1
                elif fresh:
                    self.teams[team].counters += 1
                pending_team = team
            elif t in ("accept", "run") and not e.get("mao_de_dez"):
                team = e["seat"] % 2
                if fresh:
                    if t == "accept":
                        self.teams[team].accepts += 1
                    else:
                        self.teams[team].runs += 1
                pending_team = None
            elif t == "hand" and fresh:
                if e.get("reason") == "rounds":
                    for team in raised:
                        self.teams[team].showdowns += 1
                        self.teams[team].showdown_wins += e.get("winner") == team
                if strength is not None:
                    self._judge_plays(log[seg_start:pos], strength, obs["players"])
                    if beat is not None:
                        self._judge_bets(log[seg_start:pos], strength, beat, obs["players"])
        if len(self._done) > 128:  # keep memory bounded over long series
            for key in sorted(self._done)[:-64]:
                del self._done[key]

    def _judge_plays(self, events: list[dict], strength: dict[str, int], players: int) -> None:
        """Find follows where a seat played a higher card than one it showed later.

        Wasted: the card could not take the round, or the partner held it and nobody of
        the other team was left to play.
        """
        by_seat: dict[int, list[tuple[int, bool]]] = {}  # seat -> (value, wasted?) per play
        table: list[tuple[int, int]] = []
        for e in events:
            t = e["type"]
            if t in ("play", "cover"):
                seat = e["seat"]
                v = strength[e["card"]] if (t == "play" and e.get("card")) else -1
                if t == "play" and v >= 0:
                    wasted = None
                    if table:  # following: could this card take the round for its team?
                        best = max(x for _, x in table)
                        teams = {s % 2 for s, x in table if x == best}
                        last = len(table) == players - 1
                        holds = last and len(teams) == 1 and teams.pop() == seat % 2
                        wasted = holds or v < best
                    by_seat.setdefault(seat, []).append((v, wasted))
                table.append((seat, v))
            elif t == "round":
                table = []
        for seat, seq in by_seat.items():
            stats = self.teams[seat % 2]
            for i, (v, wasted) in enumerate(seq):
                if wasted is None:
                    continue
                if any(w < v for w, _ in seq[i + 1:]):
                    stats.follows += 1
                    stats.wastes += bool(wasted)

    WEAK_BET = 0.45
    """A raise made with a perceived chance below this was made without the cards."""
    WEAK_ACCEPT = 0.3

    def _judge_bets(self, events: list[dict], strength: dict[str, int],
                    beat: tuple[float, ...], players: int) -> None:
        """For every raise and accept by a seat whose three cards were all shown face up
        this hand, judge the hand it held at that moment (what a bluff looks like)."""
        shown: dict[int, list[tuple[int, int]]] = {}  # seat -> (position, strength)
        hidden: set[int] = set()
        bets: list[tuple[int, int, str, list[int]]] = []  # position, seat, kind, results
        results: list[int] = []
        for i, e in enumerate(events):
            t = e["type"]
            if t == "play" and e.get("card"):
                shown.setdefault(e["seat"], []).append((i, strength[e["card"]]))
            elif t == "cover":
                hidden.add(e["seat"])
            elif t == "round":
                r = e.get("result")
                results.append(r % 2 if isinstance(r, int) and not isinstance(r, bool) else TIE)
            elif t == "raise":
                bets.append((i, e["seat"], "raise", list(results)))
            elif t == "accept" and not e.get("mao_de_dez"):
                bets.append((i, e["seat"], "accept", list(results)))
        for pos, seat, kind, res in bets:
            cards = shown.get(seat, [])
            if seat in hidden or len(cards) < 3:
                continue
            held = [v for p, v in cards if p > pos]
            if not held:
                continue
            ps = perceived(held, res, seat % 2, players, beat)
            stats = self.teams[seat % 2]
            if kind == "raise":
                stats.bets_judged += 1
                stats.bets_weak += ps < self.WEAK_BET
            else:
                stats.accepts_judged += 1
                stats.accepts_weak += ps < self.WEAK_ACCEPT
